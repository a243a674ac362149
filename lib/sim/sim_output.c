/*
 * sim_output.c - simulation results as files: a CSV time series of the
 * accepted load per bin, and a JSON document with the configuration and a
 * summary per run.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "sim_internal.h"

int vlr_sim_write_csv(const struct vlr_sim_result *results, unsigned count, unsigned bin,
		      FILE *out)
{
	unsigned i, b;

	fprintf(out, "offered,seed,bin,start,end,accepted\n");
	for (i = 0; i < count; i++)
		for (b = 0; b < results[i].num_bins; b++)
			fprintf(out, "%.6g,%llu,%u,%llu,%llu,%.6f\n", results[i].offered,
				(unsigned long long)results[i].seed, b,
				(unsigned long long)b * bin, (unsigned long long)(b + 1) * bin,
				results[i].bins[b]);
	return ferror(out) ? -1 : 0;
}

static void write_config(const struct vlr_sim *sim, struct vlr_json *json)
{
	const struct vlr_sim_config *c = &sim->config;
	char pattern[64];

	if (c->trace)
		snprintf(pattern, sizeof(pattern), "trace");
	else
		vlr_pattern_name(&c->pattern, pattern, sizeof(pattern));
	vlr_json_open(json, "config", '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "servers", sim->servers.count);
	vlr_json_uint(json, "switches", sim->num_switches);
	vlr_json_uint(json, "vls", sim->vls);
	vlr_json_string(json, "traffic", pattern);
	vlr_json_string(json, "vl_mode", vlr_sim_vl_mode_name(c->vl_mode));
	vlr_json_string(json, "dlid", vlr_dlid_choice_name(c->dlid));
	vlr_json_uint(json, "packet_phits", c->packet_phits);
	vlr_json_uint(json, "input_packets", c->input_packets);
	vlr_json_uint(json, "output_packets", c->output_packets);
	vlr_json_uint(json, "iterations", c->iterations);
	vlr_json_string(json, "crossbar", vlr_sim_crossbar_name(c->crossbar));
	vlr_json_uint(json, "speedup", c->speedup);
	vlr_json_uint(json, "pipeline", c->pipeline);
	vlr_json_uint(json, "host_latency", c->host_latency);
	vlr_json_uint(json, "local_latency", c->local_latency);
	vlr_json_uint(json, "global_latency", c->global_latency);
	vlr_json_uint(json, "injection_queues", c->injection_queues);
	vlr_json_uint(json, "queue_packets", c->queue_packets);
	vlr_json_string(json, "queue_select", vlr_sim_queue_select_name(c->queue_select));
	vlr_json_bool(json, "transit_priority", c->transit_priority);
	vlr_json_uint(json, "warmup", c->warmup);
	vlr_json_uint(json, "cycles", c->cycles);
	vlr_json_uint(json, "bin", c->bin);
	vlr_json_uint(json, "deadlock_cycles", c->deadlock_cycles);
	vlr_json_real(json, "stability_drop", c->stability_drop, 6);
	vlr_json_close(json);
}

static void write_run(const struct vlr_sim_result *r, struct vlr_json *json)
{
	vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_real(json, "offered", r->offered, 6);
	vlr_json_uint(json, "seed", r->seed);
	vlr_json_uint(json, "cycles", r->cycles);
	vlr_json_real(json, "seconds", r->seconds, 6);
	vlr_json_real(json, "accepted", r->accepted, 6);
	vlr_json_real(json, "latency_avg", r->latency_avg, 6);
	vlr_json_uint(json, "latency_p50", r->latency_p50);
	vlr_json_uint(json, "latency_p99", r->latency_p99);
	vlr_json_uint(json, "latency_max", r->latency_max);
	vlr_json_real(json, "hops_avg", r->hops_avg, 6);
	vlr_json_uint(json, "generated", r->generated);
	vlr_json_uint(json, "refused", r->refused);
	vlr_json_uint(json, "injected", r->injected);
	vlr_json_uint(json, "delivered", r->delivered);
	vlr_json_real(json, "inject_min", r->inject_min, 6);
	vlr_json_real(json, "inject_max_over_min", r->inject_max_over_min, 6);
	vlr_json_real(json, "inject_cv", r->inject_cv, 6);
	vlr_json_int(json, "stability", r->stability);
	vlr_json_bool(json, "deadlock", r->deadlock);
	if (r->deadlock) {
		vlr_json_uint(json, "deadlock_cycle", r->deadlock_cycle);
		vlr_json_string(json, "blocked_cycle", r->deadlock_report);
	}
	vlr_json_close(json);
}

int vlr_sim_write_json(const struct vlr_sim *sim, const struct vlr_sim_result *results,
		       unsigned count, FILE *out)
{
	struct vlr_json json;
	unsigned i;

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	write_config(sim, &json);
	vlr_json_open(&json, "runs", '[', VLR_JSON_LINES);
	for (i = 0; i < count; i++)
		write_run(&results[i], &json);
	vlr_json_close(&json);
	vlr_json_close(&json);
	fputc('\n', out);
	return vlr_json_finish(&json);
}
