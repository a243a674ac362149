/*
 * verify_report.c - a verifier report for people (text) and for programs
 * (JSON).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include <vlroute/verify.h>

#define BAR_WIDTH 40

/* "0-3,5" for the set bits of a VL or SL mask; "none" when empty. */
static void format_set(uint16_t mask, char *buf, size_t size)
{
	size_t used = 0;
	unsigned i = 0, end;

	buf[0] = '\0';
	if (!mask)
		snprintf(buf, size, "none");
	while (i < 16) {
		if (!(mask & (1u << i))) {
			i++;
			continue;
		}
		for (end = i; end + 1 < 16 && (mask & (1u << (end + 1))); end++)
			;
		used += (size_t)snprintf(buf + used, size - used,
					 end == i ? "%s%u" : "%s%u-%u", used ? "," : "",
					 i, end);
		i = end + 1;
	}
}

static void print_routes(const struct vlr_verify_report *r, FILE *out)
{
	const char *line = r->problems, *end;

	if (!r->bad_routes) {
		fprintf(out, "routes: %llu checked, all delivered\n",
			(unsigned long long)r->routes);
		return;
	}
	fprintf(out, "routes: %llu checked, %llu NOT delivered (%llu loops, %llu dead "
		"ends, %llu misdelivered) to %u LIDs\n", (unsigned long long)r->routes,
		(unsigned long long)r->bad_routes, (unsigned long long)r->loops,
		(unsigned long long)r->dead_ends, (unsigned long long)r->misdelivered,
		r->bad_lids);
	for (; (end = strchr(line, '\n')) != NULL; line = end + 1)
		fprintf(out, "  %.*s\n", (int)(end - line), line);
	if (r->bad_routes > r->problems_listed)
		fprintf(out, "  ...\n");
}

static void print_histogram(const struct vlr_verify_report *r, FILE *out)
{
	uint64_t most = 1, width = r->load_bin_width, start = r->load_bin_start;
	unsigned bin, last = 0;

	for (bin = 0; bin < VLR_VERIFY_LOAD_BINS; bin++) {
		if (r->load_histogram[bin] > most)
			most = r->load_histogram[bin];
		if (r->load_histogram[bin])
			last = bin;
	}
	for (bin = 0; bin <= last; bin++) {
		uint64_t count = r->load_histogram[bin];
		int bar = (int)((count * BAR_WIDTH + most - 1) / most);

		fprintf(out, "  %10llu-%-10llu %8llu %.*s\n",
			(unsigned long long)(start + bin * width),
			(unsigned long long)(start + (bin + 1) * width - 1),
			(unsigned long long)count, bar,
			"########################################");
	}
}

static void print_cdg(const struct vlr_verify_report *r, FILE *out)
{
	fprintf(out, "dependency graph: %llu (channel, VL) nodes, %llu edges\n",
		(unsigned long long)r->cdg_nodes, (unsigned long long)r->cdg_edges);
	if (r->cdg_acyclic)
		fprintf(out, "channel dependencies: acyclic\n");
	else
		fprintf(out, "channel dependencies: CYCLE of %u steps: %s\n",
			r->cycle_length, r->cycle);
}

/* VLs and SLs, or why the tables have none to judge. */
static void print_vls(const struct vlr_verify_report *r, FILE *out)
{
	char vls[64], sls[64], why[128];

	if (r->unprogrammable.marked) {
		vlr_unprogrammable_describe(&r->unprogrammable, why, sizeof(why));
		fprintf(out, "%s - tables for vlroute sim --vl-mode ideal only\n", why);
		fprintf(out, "channel dependencies: not checked (no SLs)\n");
		return;
	}
	format_set(r->vl_mask, vls, sizeof(vls));
	format_set(r->sl_mask, sls, sizeof(sls));
	fprintf(out, "VLs used: %u (%s) of %u offered%s\n", r->vls_used, vls,
		r->vls_offered, (r->vl_mask >> r->vls_offered) ? ": TOO MANY" : "");
	fprintf(out, "SLs used: %u (%s)\n", r->sls_used, sls);
	print_cdg(r, out);
}

void vlr_verify_print(const struct vlr_verify_report *r, FILE *out)
{
	print_routes(r, out);
	fprintf(out, "hops: min %u mean %.2f max %u\n", r->hops_min, r->hops_mean,
		r->hops_max);
	fprintf(out, "switch-to-switch channels: %u\n", r->channels);
	fprintf(out, "routes per channel: min %llu mean %.2f max %llu\n",
		(unsigned long long)r->load_min, r->load_mean,
		(unsigned long long)r->load_max);
	print_histogram(r, out);
	print_vls(r, out);
	fprintf(out, "verdict: %s\n", vlr_verify_passed(r) ? "passed" :
		r->unprogrammable.marked && !r->bad_routes ? "FAILED (not programmable)" :
		"FAILED");
}

static void write_problems(const struct vlr_verify_report *r, struct vlr_json *json)
{
	const char *line = r->problems, *end;

	vlr_json_open(json, "problems", '[', VLR_JSON_LINES);
	for (; (end = strchr(line, '\n')) != NULL; line = end + 1)
		vlr_json_string_n(json, NULL, line, (size_t)(end - line));
	vlr_json_close(json);
}

static void write_set(const char *key, uint16_t mask, struct vlr_json *json)
{
	unsigned i;

	vlr_json_open(json, key, '[', VLR_JSON_INLINE);
	for (i = 0; i < 16; i++)
		if (mask & (1u << i))
			vlr_json_uint(json, NULL, i);
	vlr_json_close(json);
}

static void write_loads(const struct vlr_verify_report *r, struct vlr_json *json)
{
	unsigned bin;

	vlr_json_uint(json, "channels", r->channels);
	vlr_json_open(json, "routes_per_channel", '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "min", r->load_min);
	vlr_json_fixed(json, "mean", r->load_mean, 3);
	vlr_json_uint(json, "max", r->load_max);
	vlr_json_uint(json, "bin_start", r->load_bin_start);
	vlr_json_uint(json, "bin_width", r->load_bin_width);
	vlr_json_open(json, "histogram", '[', VLR_JSON_INLINE);
	for (bin = 0; bin < VLR_VERIFY_LOAD_BINS; bin++)
		vlr_json_uint(json, NULL, r->load_histogram[bin]);
	vlr_json_close(json);
	vlr_json_close(json);
}

static void write_routes(const struct vlr_verify_report *r, struct vlr_json *json)
{
	vlr_json_uint(json, "routes", r->routes);
	vlr_json_uint(json, "bad_routes", r->bad_routes);
	vlr_json_uint(json, "loops", r->loops);
	vlr_json_uint(json, "dead_ends", r->dead_ends);
	vlr_json_uint(json, "misdelivered", r->misdelivered);
	vlr_json_uint(json, "bad_lids", r->bad_lids);
	write_problems(r, json);
	vlr_json_open(json, "hops", '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "min", r->hops_min);
	vlr_json_fixed(json, "mean", r->hops_mean, 3);
	vlr_json_uint(json, "max", r->hops_max);
	vlr_json_close(json);
}

/* "programmable": true, or false with what the tables need. */
static void write_programmable(const struct vlr_verify_report *r, struct vlr_json *json)
{
	char why[128];

	vlr_json_bool(json, "programmable", !r->unprogrammable.marked);
	if (!r->unprogrammable.marked)
		return;
	vlr_unprogrammable_describe(&r->unprogrammable, why, sizeof(why));
	vlr_json_string(json, "not_programmable", why);
	vlr_json_uint(json, "needs_sls", r->unprogrammable.sls);
	vlr_json_uint(json, "needs_vls", r->unprogrammable.vls);
}

/* The dependency graph, null when it was not checked (no SLs). */
static void write_cdg(const struct vlr_verify_report *r, struct vlr_json *json)
{
	if (r->unprogrammable.marked) {
		vlr_json_null(json, "cdg");
		return;
	}
	vlr_json_open(json, "cdg", '{', VLR_JSON_INLINE);
	vlr_json_bool(json, "acyclic", r->cdg_acyclic);
	vlr_json_uint(json, "nodes", r->cdg_nodes);
	vlr_json_uint(json, "edges", r->cdg_edges);
	vlr_json_uint(json, "cycle_length", r->cycle_length);
	if (r->cdg_acyclic)
		vlr_json_null(json, "cycle");
	else
		vlr_json_string(json, "cycle", r->cycle);
	vlr_json_close(json);
}

int vlr_verify_write_json(const struct vlr_verify_report *r,
			  const struct vlr_provenance *provenance, FILE *out)
{
	struct vlr_json json;

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	if (provenance)
		vlr_provenance_write_json(provenance, "provenance", &json);
	vlr_json_bool(&json, "passed", vlr_verify_passed(r));
	write_programmable(r, &json);
	write_routes(r, &json);
	write_loads(r, &json);
	vlr_json_uint(&json, "vls_used", r->vls_used);
	vlr_json_uint(&json, "vls_offered", r->vls_offered);
	write_set("vls", r->vl_mask, &json);
	vlr_json_uint(&json, "sls_used", r->sls_used);
	write_set("sls", r->sl_mask, &json);
	write_cdg(r, &json);
	vlr_json_close(&json);
	fputc('\n', out);
	return vlr_json_finish(&json);
}
