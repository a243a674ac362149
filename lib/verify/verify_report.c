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

void vlr_verify_print(const struct vlr_verify_report *r, FILE *out)
{
	char vls[64], sls[64];

	format_set(r->vl_mask, vls, sizeof(vls));
	format_set(r->sl_mask, sls, sizeof(sls));
	print_routes(r, out);
	fprintf(out, "hops: min %u mean %.2f max %u\n", r->hops_min, r->hops_mean,
		r->hops_max);
	fprintf(out, "switch-to-switch channels: %u\n", r->channels);
	fprintf(out, "routes per channel: min %llu mean %.2f max %llu\n",
		(unsigned long long)r->load_min, r->load_mean,
		(unsigned long long)r->load_max);
	print_histogram(r, out);
	fprintf(out, "VLs used: %u (%s) of %u offered%s\n", r->vls_used, vls,
		r->vls_offered, (r->vl_mask >> r->vls_offered) ? ": TOO MANY" : "");
	fprintf(out, "SLs used: %u (%s)\n", r->sls_used, sls);
	print_cdg(r, out);
	fprintf(out, "verdict: %s\n", vlr_verify_passed(r) ? "passed" : "FAILED");
}

/* A JSON string of length bytes of text. */
static void write_string(const char *text, size_t length, FILE *out)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < length; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void write_problems(const struct vlr_verify_report *r, FILE *out)
{
	const char *line = r->problems, *end;

	fprintf(out, "  \"problems\": [");
	for (; (end = strchr(line, '\n')) != NULL; line = end + 1) {
		fprintf(out, "%s\n    ", line == r->problems ? "" : ",");
		write_string(line, (size_t)(end - line), out);
	}
	fprintf(out, "%s],\n", line == r->problems ? "" : "\n  ");
}

static void write_set(const char *key, uint16_t mask, FILE *out)
{
	unsigned i;
	int first = 1;

	fprintf(out, "  \"%s\": [", key);
	for (i = 0; i < 16; i++)
		if (mask & (1u << i)) {
			fprintf(out, "%s%u", first ? "" : ", ", i);
			first = 0;
		}
	fprintf(out, "],\n");
}

static void write_loads(const struct vlr_verify_report *r, FILE *out)
{
	unsigned bin;

	fprintf(out, "  \"channels\": %u,\n", r->channels);
	fprintf(out, "  \"routes_per_channel\": {\"min\": %llu, \"mean\": %.3f, "
		"\"max\": %llu, \"bin_start\": %llu, \"bin_width\": %llu, \"histogram\": [",
		(unsigned long long)r->load_min, r->load_mean,
		(unsigned long long)r->load_max, (unsigned long long)r->load_bin_start,
		(unsigned long long)r->load_bin_width);
	for (bin = 0; bin < VLR_VERIFY_LOAD_BINS; bin++)
		fprintf(out, "%s%llu", bin ? ", " : "",
			(unsigned long long)r->load_histogram[bin]);
	fprintf(out, "]},\n");
}

int vlr_verify_write_json(const struct vlr_verify_report *r, FILE *out)
{
	fprintf(out, "{\n  \"passed\": %s,\n", vlr_verify_passed(r) ? "true" : "false");
	fprintf(out, "  \"routes\": %llu,\n  \"bad_routes\": %llu,\n  \"loops\": %llu,\n"
		"  \"dead_ends\": %llu,\n  \"misdelivered\": %llu,\n  \"bad_lids\": %u,\n",
		(unsigned long long)r->routes, (unsigned long long)r->bad_routes,
		(unsigned long long)r->loops, (unsigned long long)r->dead_ends,
		(unsigned long long)r->misdelivered, r->bad_lids);
	write_problems(r, out);
	fprintf(out, "  \"hops\": {\"min\": %u, \"mean\": %.3f, \"max\": %u},\n",
		r->hops_min, r->hops_mean, r->hops_max);
	write_loads(r, out);
	fprintf(out, "  \"vls_used\": %u,\n  \"vls_offered\": %u,\n", r->vls_used,
		r->vls_offered);
	write_set("vls", r->vl_mask, out);
	fprintf(out, "  \"sls_used\": %u,\n", r->sls_used);
	write_set("sls", r->sl_mask, out);
	fprintf(out, "  \"cdg\": {\"acyclic\": %s, \"nodes\": %llu, \"edges\": %llu, "
		"\"cycle_length\": %u, \"cycle\": ", r->cdg_acyclic ? "true" : "false",
		(unsigned long long)r->cdg_nodes, (unsigned long long)r->cdg_edges,
		r->cycle_length);
	if (r->cdg_acyclic)
		fprintf(out, "null");
	else
		write_string(r->cycle, strlen(r->cycle), out);
	fprintf(out, "}\n}\n");
	return ferror(out) ? -1 : 0;
}
