/*
 * sim_output.c - simulation results as files: a CSV time series of the
 * accepted load per bin, and a JSON document with the configuration and a
 * summary per run.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
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

/* A number, or null for infinities (JSON has none). */
static void json_number(FILE *out, const char *key, double value, const char *after)
{
	if (isfinite(value))
		fprintf(out, "\"%s\": %.6g%s", key, value, after);
	else
		fprintf(out, "\"%s\": null%s", key, after);
}

static void json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (; *text; text++) {
		if (*text == '"' || *text == '\\')
			fputc('\\', out);
		if ((unsigned char)*text < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*text);
		else
			fputc(*text, out);
	}
	fputc('"', out);
}

static void write_config(const struct vlr_sim *sim, FILE *out)
{
	const struct vlr_sim_config *c = &sim->config;
	char pattern[64];

	if (c->trace)
		snprintf(pattern, sizeof(pattern), "trace");
	else
		vlr_pattern_name(&c->pattern, pattern, sizeof(pattern));
	fprintf(out, "  \"config\": {\"servers\": %u, \"switches\": %u, \"vls\": %u, "
		"\"traffic\": \"%s\", \"vl_mode\": \"%s\", \"dlid\": \"%s\", "
		"\"packet_phits\": %u, \"input_packets\": %u, \"output_packets\": %u, "
		"\"iterations\": %u, \"crossbar\": \"%s\", \"speedup\": %u, \"pipeline\": %u, "
		"\"host_latency\": %u, \"local_latency\": %u, \"global_latency\": %u, "
		"\"injection_queues\": %u, \"queue_packets\": %u, \"queue_select\": \"%s\", "
		"\"transit_priority\": %s, \"warmup\": %llu, \"cycles\": %llu, \"bin\": %u, "
		"\"deadlock_cycles\": %llu, \"stability_drop\": %g},\n",
		sim->servers.count, sim->num_switches, sim->vls, pattern,
		vlr_sim_vl_mode_name(c->vl_mode), vlr_dlid_choice_name(c->dlid),
		c->packet_phits, c->input_packets, c->output_packets, c->iterations,
		vlr_sim_crossbar_name(c->crossbar), c->speedup, c->pipeline,
		c->host_latency, c->local_latency, c->global_latency, c->injection_queues,
		c->queue_packets, vlr_sim_queue_select_name(c->queue_select),
		c->transit_priority ? "true" : "false", (unsigned long long)c->warmup,
		(unsigned long long)c->cycles, c->bin, (unsigned long long)c->deadlock_cycles,
		c->stability_drop);
}

static void write_run(const struct vlr_sim_result *r, FILE *out)
{
	fprintf(out, "    {\"offered\": %.6g, \"seed\": %llu, \"cycles\": %llu, ",
		r->offered, (unsigned long long)r->seed, (unsigned long long)r->cycles);
	json_number(out, "seconds", r->seconds, ", ");
	json_number(out, "accepted", r->accepted, ", ");
	json_number(out, "latency_avg", r->latency_avg, ", ");
	fprintf(out, "\"latency_p50\": %llu, \"latency_p99\": %llu, \"latency_max\": %llu, ",
		(unsigned long long)r->latency_p50, (unsigned long long)r->latency_p99,
		(unsigned long long)r->latency_max);
	json_number(out, "hops_avg", r->hops_avg, ", ");
	fprintf(out, "\"generated\": %llu, \"refused\": %llu, \"injected\": %llu, "
		"\"delivered\": %llu, ", (unsigned long long)r->generated,
		(unsigned long long)r->refused, (unsigned long long)r->injected,
		(unsigned long long)r->delivered);
	json_number(out, "inject_min", r->inject_min, ", ");
	json_number(out, "inject_max_over_min", r->inject_max_over_min, ", ");
	json_number(out, "inject_cv", r->inject_cv, ", ");
	fprintf(out, "\"stability\": %d, \"deadlock\": %s", r->stability,
		r->deadlock ? "true" : "false");
	if (r->deadlock) {
		fprintf(out, ", \"deadlock_cycle\": %llu, \"blocked_cycle\": ",
			(unsigned long long)r->deadlock_cycle);
		json_string(out, r->deadlock_report);
	}
	fprintf(out, "}");
}

int vlr_sim_write_json(const struct vlr_sim *sim, const struct vlr_sim_result *results,
		       unsigned count, FILE *out)
{
	unsigned i;

	fprintf(out, "{\n");
	write_config(sim, out);
	fprintf(out, "  \"runs\": [\n");
	for (i = 0; i < count; i++) {
		write_run(&results[i], out);
		fprintf(out, "%s\n", i + 1 < count ? "," : "");
	}
	fprintf(out, "  ]\n}\n");
	return ferror(out) ? -1 : 0;
}
