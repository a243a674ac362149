/*
 * analyze_report.c - the analysis for people (text) and for programs
 * (JSON), the DLID choices it takes by name, and the channel class names.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "analyze_internal.h"

#define BAR_WIDTH 40

static const char *const class_names[VLR_CHANNEL_CLASSES] = {
	"injection", "ejection", "switch", "local", "global", "up", "down",
};

int vlr_analyze_dlid_parse(const char *text, enum vlr_dlid_choice *choice,
			   struct vlr_error *err)
{
	char names[64];

	if (!vlr_dlid_choice_parse(text, VLR_ANALYZE_DLID_CHOICES, choice))
		return 0;
	vlr_dlid_choice_list(VLR_ANALYZE_DLID_CHOICES, " or ", names, sizeof(names));
	return vlr_fail(err, "the DLID choice is %s, not \"%s\"", names, text);
}

const char *vlr_channel_class_name(enum vlr_channel_class channel_class)
{
	return (unsigned)channel_class < VLR_CHANNEL_CLASSES ? class_names[channel_class] :
	       "none";
}

/* "sw1 port 3 -> sw2 port 5" for the channel port sends on. */
static void name_channel(const struct vlr_fabric *fabric, uint32_t port, char *buf,
			 size_t size)
{
	const struct vlr_port *from = &fabric->ports[port], *to = &fabric->ports[from->peer];

	snprintf(buf, size, "%s port %u -> %s port %u", vlr_node_name(fabric, from->node),
		 from->number, vlr_node_name(fabric, to->node), to->number);
}

static void print_stats(const char *what, const struct vlr_load_stats *s, FILE *out)
{
	fprintf(out, "  %-17s %u channels, min %.6g, mean %.6g, max %.6g\n", what,
		s->channels, s->min, s->mean, s->max);
}

static void print_histogram(const struct vlr_linkload_report *r, FILE *out)
{
	uint64_t most = 1;
	unsigned bin;

	for (bin = 0; bin < VLR_ANALYZE_BINS; bin++)
		if (r->histogram[bin] > most)
			most = r->histogram[bin];
	for (bin = 0; bin < VLR_ANALYZE_BINS; bin++) {
		uint64_t count = r->histogram[bin];
		int bar = (int)((count * BAR_WIDTH + most - 1) / most);

		fprintf(out, "    %10.6g .. %-10.6g %8llu %.*s\n",
			r->bin_start + bin * r->bin_width,
			r->bin_start + (bin + 1) * r->bin_width, (unsigned long long)count,
			bar, "########################################");
	}
}

static void print_topology(const struct vlr_analysis *a, FILE *out)
{
	char family[256];

	if (!a->has_topology) {
		fprintf(out, "topology: not a HyperX, Dragonfly or Dragonfly+ (channels "
			"classed as injection, switch, ejection)\n");
		return;
	}
	vlr_family_describe(&a->topology.params, family, sizeof(family));
	fprintf(out, "topology: %s\n", family);
}

/* Valiant tables: how many server LIDs each kind of route leads to. */
static void print_lid_kinds(const struct vlr_analysis *a, FILE *out)
{
	uint64_t counts[3] = { 0, 0, 0 };
	uint32_t s, off;
	unsigned k;

	if (!a->tables->lid_kind)
		return;
	for (s = 0; s < a->servers.count; s++)
		for (off = 0; off < 1u << a->server_lmc[s]; off++)
			if (a->tables->lid_kind[a->server_lid[s] + off] < 3)
				counts[a->tables->lid_kind[a->server_lid[s] + off]]++;
	fprintf(out, "server LIDs:");
	for (k = 0; k < 3; k++)
		fprintf(out, "%s %llu %s", k ? "," : "", (unsigned long long)counts[k],
			vlr_lid_kind_name((enum vlr_lid_kind)k));
	fprintf(out, "\n");
}

void vlr_linkload_print(const struct vlr_analysis *a, FILE *out)
{
	const struct vlr_linkload_report *r = &a->linkload;
	const struct vlr_fabric *fabric = a->tables->fabric;
	char name[2 * VLR_MAX_NAME + 32];
	unsigned c;

	fprintf(out, "servers: %u on %u switches\n", r->servers, a->tables->num_switches);
	print_topology(a, out);
	print_lid_kinds(a, out);
	fprintf(out, "DLID choice: %s\n", vlr_dlid_choice_name(a->dlid_choice));
	fprintf(out, "all-to-all: %llu pairs, %llu routes, channels per route min %u, "
		"mean %.4f, max %u\n", (unsigned long long)r->pairs,
		(unsigned long long)r->routes, r->hops_min, r->hops_mean, r->hops_max);
	fprintf(out, "all-to-all bandwidth: mean %.6f, min %.6f\n", r->bandwidth_mean,
		r->bandwidth_min);
	fprintf(out, "link load (all-to-all routes per channel):\n");
	print_stats("switch-to-switch", &r->switch_links, out);
	print_histogram(r, out);
	for (c = 0; c < VLR_CHANNEL_CLASSES; c++)
		if (r->by_class[c].channels && (c != VLR_CHANNEL_SWITCH || a->has_topology))
			print_stats(class_names[c], &r->by_class[c], out);
	fprintf(out, "hottest channels:%s\n", r->hottest_count ? "" : " none");
	for (c = 0; c < r->hottest_count; c++) {
		name_channel(fabric, r->hottest[c].port, name, sizeof(name));
		fprintf(out, "  %s (%s): %.6g\n", name,
			class_names[a->channel_class[r->hottest[c].port]], r->hottest[c].load);
	}
}

void vlr_pattern_print(const struct vlr_pattern_report *r, FILE *out)
{
	int ebb = !strcmp(r->name, "ebb");

	fprintf(out, "pattern: %s, %u %s%s, seed %llu, %llu pairs\n", r->name, r->instances,
		ebb ? "random bisection" : "instance", r->instances == 1 ? "" : "s",
		(unsigned long long)r->seed, (unsigned long long)r->pairs);
	fprintf(out, "%s: %.6f", ebb ? "ebb" : "bandwidth", r->mean);
	if (r->instances > 1)
		fprintf(out, " (95%% CI %.6f .. %.6f)", r->mean - r->ci_half,
			r->mean + r->ci_half);
	fprintf(out, "\n  instances: min %.6f, max %.6f; lowest pair %.6f\n",
		r->instance_min, r->instance_max, r->pair_min);
	fprintf(out, "  max congestion per instance: mean %.4f, max %.6g\n",
		r->congestion_mean, r->congestion_max);
}

static void write_stats(struct vlr_json *json, const char *key,
			const struct vlr_load_stats *s)
{
	vlr_json_open(json, key, '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "channels", s->channels);
	vlr_json_real(json, "min", s->min, VLR_JSON_EXACT);
	vlr_json_real(json, "mean", s->mean, VLR_JSON_EXACT);
	vlr_json_real(json, "max", s->max, VLR_JSON_EXACT);
	vlr_json_close(json);
}

static void write_classes(const struct vlr_linkload_report *r, struct vlr_json *json)
{
	unsigned c;

	vlr_json_open(json, "by_class", '{', VLR_JSON_INLINE);
	for (c = 0; c < VLR_CHANNEL_CLASSES; c++)
		if (r->by_class[c].channels)
			write_stats(json, class_names[c], &r->by_class[c]);
	vlr_json_close(json);
}

static void write_hottest(const struct vlr_analysis *a, struct vlr_json *json)
{
	const struct vlr_linkload_report *r = &a->linkload;
	const struct vlr_fabric *fabric = a->tables->fabric;
	unsigned c;

	vlr_json_open(json, "hottest", '[', VLR_JSON_INLINE);
	for (c = 0; c < r->hottest_count; c++) {
		const struct vlr_port *from = &fabric->ports[r->hottest[c].port];
		const struct vlr_port *to = &fabric->ports[from->peer];

		vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
		vlr_json_string(json, "switch", vlr_node_name(fabric, from->node));
		vlr_json_uint(json, "port", from->number);
		vlr_json_string(json, "peer", vlr_node_name(fabric, to->node));
		vlr_json_uint(json, "peer_port", to->number);
		vlr_json_string(json, "class",
				class_names[a->channel_class[r->hottest[c].port]]);
		vlr_json_real(json, "load", r->hottest[c].load, VLR_JSON_EXACT);
		vlr_json_close(json);
	}
	vlr_json_close(json);
}

static void write_histogram(const struct vlr_linkload_report *r, struct vlr_json *json)
{
	unsigned bin;

	vlr_json_open(json, "histogram", '{', VLR_JSON_INLINE);
	vlr_json_real(json, "start", r->bin_start, VLR_JSON_EXACT);
	vlr_json_real(json, "width", r->bin_width, VLR_JSON_EXACT);
	vlr_json_open(json, "counts", '[', VLR_JSON_INLINE);
	for (bin = 0; bin < VLR_ANALYZE_BINS; bin++)
		vlr_json_uint(json, NULL, r->histogram[bin]);
	vlr_json_close(json);
	vlr_json_close(json);
}

int vlr_linkload_write_json(const struct vlr_analysis *a, FILE *out)
{
	const struct vlr_linkload_report *r = &a->linkload;
	struct vlr_json json;

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_uint(&json, "servers", r->servers);
	vlr_json_uint(&json, "switches", a->tables->num_switches);
	vlr_json_string(&json, "dlid_choice", vlr_dlid_choice_name(a->dlid_choice));
	vlr_json_uint(&json, "pairs", r->pairs);
	vlr_json_uint(&json, "routes", r->routes);
	vlr_json_uint(&json, "hops_min", r->hops_min);
	vlr_json_real(&json, "hops_mean", r->hops_mean, VLR_JSON_EXACT);
	vlr_json_uint(&json, "hops_max", r->hops_max);
	vlr_json_real(&json, "bandwidth_mean", r->bandwidth_mean, VLR_JSON_EXACT);
	vlr_json_real(&json, "bandwidth_min", r->bandwidth_min, VLR_JSON_EXACT);
	write_stats(&json, "switch_links", &r->switch_links);
	write_classes(r, &json);
	write_histogram(r, &json);
	write_hottest(a, &json);
	vlr_json_close(&json);
	return vlr_json_finish(&json);
}

int vlr_pattern_write_json(const struct vlr_pattern_report *r, FILE *out)
{
	struct vlr_json json;

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_string(&json, "name", r->name);
	vlr_json_uint(&json, "instances", r->instances);
	vlr_json_uint(&json, "seed", r->seed);
	vlr_json_uint(&json, "pairs", r->pairs);
	vlr_json_real(&json, "mean", r->mean, VLR_JSON_EXACT);
	vlr_json_real(&json, "ci95_low", r->mean - r->ci_half, VLR_JSON_EXACT);
	vlr_json_real(&json, "ci95_high", r->mean + r->ci_half, VLR_JSON_EXACT);
	vlr_json_real(&json, "instance_min", r->instance_min, VLR_JSON_EXACT);
	vlr_json_real(&json, "instance_max", r->instance_max, VLR_JSON_EXACT);
	vlr_json_real(&json, "pair_min", r->pair_min, VLR_JSON_EXACT);
	vlr_json_real(&json, "congestion_mean", r->congestion_mean, VLR_JSON_EXACT);
	vlr_json_real(&json, "congestion_max", r->congestion_max, VLR_JSON_EXACT);
	vlr_json_close(&json);
	return vlr_json_finish(&json);
}
