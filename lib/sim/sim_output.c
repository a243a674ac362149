/*
 * sim_output.c - simulation results as files: a tidy CSV time series of
 * the accepted load per bin (warm-up bins flagged), and a JSON document
 * with the provenance, the configuration, a summary and the time series
 * per completed run (and, on request, its injections per switch with the
 * switches' names in the configuration), and the runs that did not
 * complete.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "sim_internal.h"

/* Cycle bin b of r ends: its next bin's start, or the end of the run's cycles. */
static uint64_t bin_end(const struct vlr_sim_result *r, uint32_t b)
{
	uint64_t end = (uint64_t)(b + 1) * r->bin;

	return end < r->span ? end : r->span;
}

int vlr_sim_write_csv(const struct vlr_sim_result *results, unsigned count,
		      const char *tables_sha256, FILE *out)
{
	const struct vlr_sim_result *r;
	unsigned i;
	uint32_t b;

	fprintf(out, "offered,seed,bin,start,end,accepted,warmup,tables_sha256\n");
	for (i = 0; i < count; i++) {
		r = &results[i];
		for (b = 0; r->completed && b < r->num_bins; b++)
			fprintf(out, "%.6g,%llu,%u,%llu,%llu,%.6f,%d,%s\n", r->offered,
				(unsigned long long)r->seed, b,
				(unsigned long long)b * r->bin,
				(unsigned long long)bin_end(r, b), r->bins[b],
				b < r->warmup_bins, tables_sha256 ? tables_sha256 : "");
	}
	return ferror(out) ? -1 : 0;
}

/* Table replay: its VL mode and DLID rule; the reference model: its own. */
static void write_routing(const struct vlr_sim *sim, struct vlr_json *json)
{
	const struct vlr_sim_config *c = &sim->config;
	char policy[128];

	if (c->reference.routing == VLR_SIM_ROUTING_TABLES) {
		vlr_json_string(json, "vl_mode", vlr_sim_vl_mode_name(c->vl_mode));
		if (c->vl_mode == VLR_SIM_VL_IDEAL &&
		    sim->tables->policy.kind == VLR_VLP_TWO_PHASES)
			vlr_json_string(json, "phase_vls", vlr_sim_phase_vls_name(c->phase_vls));
		vlr_json_string(json, "dlid", vlr_dlid_choice_name(c->dlid));
		return;
	}
	vlr_vl_policy_describe(&c->reference.policy, policy, sizeof(policy));
	vlr_json_string(json, "routing", vlr_sim_routing_name(c->reference.routing));
	vlr_json_bool(json, "recompute", c->reference.recompute);
	if (c->reference.intermediate != VLR_SIM_INTERMEDIATE_SWITCH)
		vlr_json_string(json, "intermediate",
				vlr_sim_intermediate_name(c->reference.intermediate));
	vlr_json_string(json, "vl_policy", policy);
	if (c->reference.policy.kind == VLR_VLP_TWO_PHASES)
		vlr_json_string(json, "phase_vls",
				vlr_sim_phase_vls_name(c->phase_vls));
	vlr_json_string(json, "minimal", vlr_sim_minimal_name(c->reference.minimal));
	vlr_json_string(json, "injection_vls",
			vlr_sim_injection_vls_name(c->reference.injection));
}

/*
 * The input buffers of a kind given a size of their own, after the
 * default's; none when no kind has one (so the configurations of earlier
 * runs read the same).
 */
static void write_input_kinds(const struct vlr_sim_config *c, struct vlr_json *json)
{
	if (c->input_local_packets)
		vlr_json_uint(json, "input_local_packets", c->input_local_packets);
	if (c->input_global_packets)
		vlr_json_uint(json, "input_global_packets", c->input_global_packets);
	if (c->input_injection_packets)
		vlr_json_uint(json, "input_injection_packets", c->input_injection_packets);
}

/* The switches' node descriptions, in switch order (that of switch_injected). */
static void write_switch_names(const struct vlr_sim *sim, struct vlr_json *json)
{
	const struct vlr_tables *t = sim->tables;
	uint32_t sw;

	vlr_json_open(json, "switch_names", '[', VLR_JSON_INLINE);
	for (sw = 0; sw < t->num_switches; sw++)
		vlr_json_string(json, NULL, vlr_node_description(t->fabric, t->switch_node[sw]));
	vlr_json_close(json);
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
	write_routing(sim, json);
	vlr_json_uint(json, "packet_phits", c->packet_phits);
	vlr_json_uint(json, "input_packets", c->input_packets);
	write_input_kinds(c, json);
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
	if (c->switch_injections)
		write_switch_names(sim, json);
	vlr_json_close(json);
}

/* The time series from cycle 0, the warm-up bins first. */
static void write_bins(const struct vlr_sim_result *r, struct vlr_json *json)
{
	uint32_t b;

	vlr_json_uint(json, "bin", r->bin);
	vlr_json_uint(json, "warmup_bins", r->warmup_bins);
	vlr_json_open(json, "bins", '[', VLR_JSON_INLINE);
	for (b = 0; b < r->num_bins; b++)
		vlr_json_fixed(json, NULL, r->bins[b], 6);
	vlr_json_close(json);
}

/* value, or null where no packet measured it (has is 0). */
static void real_or_null(struct vlr_json *json, const char *key, int has, double value)
{
	if (has)
		vlr_json_real(json, key, value, 6);
	else
		vlr_json_null(json, key);
}

static void uint_or_null(struct vlr_json *json, const char *key, int has, uint64_t value)
{
	if (has)
		vlr_json_uint(json, key, value);
	else
		vlr_json_null(json, key);
}

/*
 * The latencies and hops of the measured packets: null, not 0, when none
 * was measured (a run too short, or a load too low, to deliver one).
 */
static void write_latencies(const struct vlr_sim_result *r, int ugal, struct vlr_json *json)
{
	uint64_t measured = r->measured_packets;

	real_or_null(json, "latency_avg", measured > 0, r->latency_avg);
	uint_or_null(json, "latency_p50", measured > 0, r->latency_p50);
	uint_or_null(json, "latency_p99", measured > 0, r->latency_p99);
	uint_or_null(json, "latency_max", measured > 0, r->latency_max);
	real_or_null(json, "hops_avg", measured > 0, r->hops_avg);
	if (!ugal)
		return;
	real_or_null(json, "nonminimal", measured > 0, r->nonminimal);
	real_or_null(json, "latency_minimal_avg", measured > 0 && r->nonminimal < 1.0,
		     r->latency_minimal_avg);
	real_or_null(json, "latency_nonminimal_avg", r->nonminimal > 0, r->latency_nonminimal_avg);
}

/* Packets each switch's servers injected while measuring, in switch order. */
static void write_switch_injected(const struct vlr_sim_result *r, struct vlr_json *json)
{
	uint32_t sw;

	vlr_json_open(json, "switch_injected", '[', VLR_JSON_INLINE);
	for (sw = 0; sw < r->num_switches; sw++)
		vlr_json_uint(json, NULL, r->switch_injected[sw]);
	vlr_json_close(json);
}

/*
 * ugal: the run's routing is a UGAL one, which also tells the non-minimal
 * share; switches: the injections per switch too.
 */
static void write_run(const struct vlr_sim_result *r, int ugal, int switches,
		      struct vlr_json *json)
{
	vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_real(json, "offered", r->offered, 6);
	vlr_json_uint(json, "seed", r->seed);
	vlr_json_uint(json, "cycles", r->cycles);
	vlr_json_real(json, "seconds", r->seconds, 6);
	vlr_json_real(json, "accepted", r->accepted, 6);
	write_latencies(r, ugal, json);
	vlr_json_uint(json, "generated", r->generated);
	vlr_json_uint(json, "refused", r->refused);
	vlr_json_uint(json, "injected", r->injected);
	vlr_json_uint(json, "delivered", r->delivered);
	vlr_json_real(json, "inject_min", r->inject_min, 6);
	vlr_json_real(json, "inject_max_over_min", r->inject_max_over_min, 6);
	vlr_json_real(json, "inject_cv", r->inject_cv, 6);
	if (switches)
		write_switch_injected(r, json);
	vlr_json_int(json, "stability", r->stability);
	vlr_json_bool(json, "deadlock", r->deadlock);
	if (r->deadlock) {
		vlr_json_uint(json, "deadlock_cycle", r->deadlock_cycle);
		vlr_json_string(json, "blocked_cycle", r->deadlock_report);
	}
	write_bins(r, json);
	vlr_json_close(json);
}

/* The runs that did not complete, as (offered, seed). */
static void write_unfinished(const struct vlr_sim_result *results, unsigned count,
			     struct vlr_json *json)
{
	unsigned i;

	vlr_json_open(json, "unfinished", '[', VLR_JSON_LINES);
	for (i = 0; i < count; i++) {
		if (results[i].completed)
			continue;
		vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
		vlr_json_real(json, "offered", results[i].offered, 6);
		vlr_json_uint(json, "seed", results[i].seed);
		vlr_json_close(json);
	}
	vlr_json_close(json);
}

int vlr_sim_write_json(const struct vlr_sim *sim, const struct vlr_sim_result *results,
		       unsigned count, const struct vlr_provenance *provenance, FILE *out)
{
	struct vlr_json json;
	unsigned i;
	int ugal = vlr_sim_routing_is_ugal(sim->config.reference.routing);

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	if (provenance)
		vlr_provenance_write_json(provenance, "provenance", &json);
	write_config(sim, &json);
	vlr_json_open(&json, "runs", '[', VLR_JSON_LINES);
	for (i = 0; i < count; i++)
		if (results[i].completed)
			write_run(&results[i], ugal, sim->config.switch_injections, &json);
	vlr_json_close(&json);
	write_unfinished(results, count, &json);
	vlr_json_close(&json);
	fputc('\n', out);
	return vlr_json_finish(&json);
}
