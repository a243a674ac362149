/*
 * analyze_patterns.c - the instances the analysis rates: random
 * bisections with a random perfect matching (effective bisection
 * bandwidth), and the simulator's traffic patterns (traffic.h), each
 * instance drawn from vlr_rng_seed(seed, instance index).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"

struct ebb_context {
	uint32_t servers;
	uint64_t seed;
};

/*
 * Shuffle the servers; the first half is paired with the second in that
 * order, both ways. With an odd count the last server idles.
 */
static int make_bisection(void *context, unsigned index, uint32_t *dest, uint64_t *salt,
			  struct vlr_error *err)
{
	const struct ebb_context *c = context;
	uint32_t *order = malloc(sizeof(uint32_t) * (c->servers + 1));
	uint32_t i, half = c->servers / 2;
	struct vlr_rng rng;

	if (!order)
		return vlr_fail(err, "out of memory for a bisection of %u servers",
				c->servers);
	vlr_rng_seed(&rng, c->seed, index);
	for (i = 0; i < c->servers; i++)
		order[i] = i;
	for (i = c->servers; i > 1; i--) {
		uint32_t j = vlr_rng_below(&rng, i), swap = order[i - 1];

		order[i - 1] = order[j];
		order[j] = swap;
	}
	for (i = 0; i < half; i++) {
		dest[order[i]] = order[half + i];
		dest[order[half + i]] = order[i];
	}
	if (c->servers % 2)
		dest[order[c->servers - 1]] = VLR_NONE;
	*salt = vlr_rng_next(&rng);
	free(order);
	return 0;
}

static int rate_instances(const struct vlr_analysis *a, unsigned count,
			  analyze_make_instance make, void *context,
			  struct vlr_pattern_report *report, struct vlr_error *err)
{
	struct analyze_tally *tallies = calloc(count + 1, sizeof(*tallies));

	if (!tallies)
		return vlr_fail(err, "out of memory for %u patterns", count);
	if (analyze_run_many(a, count, make, context, tallies, err)) {
		free(tallies);
		return -1;
	}
	analyze_summarise(tallies, count, report);
	free(tallies);
	return 0;
}

int vlr_analyze_ebb(const struct vlr_analysis *a, unsigned patterns, uint64_t seed,
		    struct vlr_pattern_report *report, struct vlr_error *err)
{
	struct ebb_context context = { a->servers.count, seed };

	memset(report, 0, sizeof(*report));
	snprintf(report->name, sizeof(report->name), "ebb");
	report->seed = seed;
	if (!patterns)
		return vlr_fail(err, "the effective bisection bandwidth needs at least "
				"one pattern");
	return rate_instances(a, patterns, make_bisection, &context, report, err);
}

struct pattern_context {
	const struct vlr_analysis *a;
	const struct vlr_pattern_spec *spec;
	const struct vlr_traffic *traffic;	/* shared, or NULL for perm */
	uint64_t seed;
};

/* Every server sends to one destination the pattern draws for it. */
static int make_traffic(void *context, unsigned index, uint32_t *dest, uint64_t *salt,
			struct vlr_error *err)
{
	const struct pattern_context *c = context;
	const struct vlr_analysis *a = c->a;
	const struct vlr_traffic *traffic = c->traffic;
	struct vlr_traffic *own = NULL;
	struct vlr_rng rng;
	uint32_t s;

	vlr_rng_seed(&rng, c->seed, index);
	if (!traffic) {
		own = vlr_traffic_new(&a->servers, vlr_analysis_topology(a), c->spec,
				      vlr_rng_next(&rng), err);
		if (!own)
			return -1;
		traffic = own;
	}
	for (s = 0; s < a->servers.count; s++) {
		dest[s] = vlr_traffic_destination(traffic, s, 0, &rng);
		if (dest[s] == s)
			dest[s] = VLR_NONE;
	}
	*salt = vlr_rng_next(&rng);
	vlr_traffic_free(own);
	return 0;
}

static unsigned instances_of(const struct vlr_pattern_spec *spec, unsigned patterns)
{
	switch (spec->kind) {
	case VLR_PATTERN_SHIFT:
	case VLR_PATTERN_ADV:
	case VLR_PATTERN_ALL_TO_ALL:
		return 1;
	default:
		return patterns;
	}
}

/* all2all: one instance of servers * (servers - 1) pairs, on every thread. */
static int rate_all_to_all(const struct vlr_analysis *a, uint64_t seed,
			   struct vlr_pattern_report *report, struct vlr_error *err)
{
	uint64_t *load = calloc(a->tables->fabric->num_ports + 1, sizeof(uint64_t));
	struct analyze_instance all = { NULL, a->dlid_choice, 0 };
	struct analyze_tally tally;
	struct vlr_rng rng;

	if (!load)
		return vlr_fail(err, "out of memory for the load of %u ports",
				a->tables->fabric->num_ports);
	vlr_rng_seed(&rng, seed, 0);
	all.salt = vlr_rng_next(&rng);
	if (analyze_run_one(a, &all, analyze_add_routes, analyze_rate_routes, load, &tally,
			    err)) {
		free(load);
		return -1;
	}
	analyze_summarise(&tally, 1, report);
	free(load);
	return 0;
}

int vlr_analyze_pattern(const struct vlr_analysis *a, const struct vlr_pattern_spec *spec,
			unsigned patterns, uint64_t seed, struct vlr_pattern_report *report,
			struct vlr_error *err)
{
	struct pattern_context context = { a, spec, NULL, seed };
	struct vlr_traffic *shared = NULL;
	int result;

	memset(report, 0, sizeof(*report));
	vlr_pattern_name(spec, report->name, sizeof(report->name));
	report->seed = seed;
	if (!patterns)
		return vlr_fail(err, "pattern %s needs at least one instance", report->name);
	if (spec->kind == VLR_PATTERN_ALL_TO_ALL)
		return rate_all_to_all(a, seed, report, err);
	if (spec->kind != VLR_PATTERN_PERMUTATION) {
		shared = vlr_traffic_new(&a->servers, vlr_analysis_topology(a), spec, seed, err);
		if (!shared)
			return -1;
		context.traffic = shared;
	}
	result = rate_instances(a, instances_of(spec, patterns), make_traffic, &context,
				report, err);
	vlr_traffic_free(shared);
	return result;
}

struct mapping_context {
	const uint32_t *dest;
	uint32_t servers;
};

static int copy_mapping(void *context, unsigned index, uint32_t *dest, uint64_t *salt,
			struct vlr_error *err)
{
	const struct mapping_context *c = context;
	uint32_t s;

	for (s = 0; s < c->servers; s++) {
		if (c->dest[s] != VLR_NONE && c->dest[s] >= c->servers)
			return vlr_fail(err, "server %u sends to server %u of %u", s,
					c->dest[s], c->servers);
		dest[s] = c->dest[s] == s ? VLR_NONE : c->dest[s];
	}
	*salt = index;
	return 0;
}

int vlr_analyze_mapping(const struct vlr_analysis *a, const uint32_t *dest,
			const char *name, struct vlr_pattern_report *report,
			struct vlr_error *err)
{
	struct mapping_context context = { dest, a->servers.count };

	memset(report, 0, sizeof(*report));
	snprintf(report->name, sizeof(report->name), "%s", name);
	return rate_instances(a, 1, copy_mapping, &context, report, err);
}
