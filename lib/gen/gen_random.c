/*
 * gen_random.c - seeded random regular switch graph generator.
 *
 * N switches, each linked to D others (no self links, no parallel links),
 * each with T hosts. The graph starts as a circulant (switch i linked to
 * i +- 1 .. i +- D/2, and to i + N/2 when D is odd) and is then shuffled by
 * 20 random double-edge swaps per link, each keeping the graph simple,
 * until it is connected. The seed fully decides the result. Ports: 1..T
 * hosts, then T + 1 .. T + D towards the neighbours in increasing switch
 * order. Switch i is node i, named rr_I.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen_common.h"
#include <vlroute/util.h>

#define SWAPS_PER_LINK 20
#define MAX_SHUFFLES 50

struct regular_graph {
	uint32_t switches;
	unsigned degree;
	uint32_t *neighbour;	/* switches * degree entries */
	uint64_t rng;
};

static uint32_t random_below(uint64_t *state, uint64_t bound)
{
	return (uint32_t)(vlr_splitmix64(state) % bound);
}

static uint32_t *slot_of(struct regular_graph *graph, uint32_t sw, uint32_t other)
{
	uint32_t *list = graph->neighbour + (uint64_t)sw * graph->degree;
	unsigned i;

	for (i = 0; i < graph->degree; i++)
		if (list[i] == other)
			return &list[i];
	return NULL;
}

static int build_circulant(struct regular_graph *graph, struct vlr_error *err)
{
	unsigned *fill = calloc(graph->switches, sizeof(unsigned));
	uint32_t sw, n = graph->switches;
	unsigned offset;

	if (!fill)
		return vlr_fail(err, "out of memory for the random graph");
	for (sw = 0; sw < n; sw++)
		for (offset = 1; offset <= graph->degree / 2; offset++) {
			uint32_t other = (sw + offset) % n;

			graph->neighbour[(uint64_t)sw * graph->degree + fill[sw]++] = other;
			graph->neighbour[(uint64_t)other * graph->degree + fill[other]++] = sw;
		}
	if (graph->degree % 2)
		for (sw = 0; sw < n / 2; sw++) {
			graph->neighbour[(uint64_t)sw * graph->degree + fill[sw]++] = sw + n / 2;
			graph->neighbour[(uint64_t)(sw + n / 2) * graph->degree +
					 fill[sw + n / 2]++] = sw;
		}
	free(fill);
	return 0;
}

/* Replace links a-b and c-d by a-d and c-b when that keeps the graph simple. */
static void try_swap(struct regular_graph *graph)
{
	uint64_t slots = (uint64_t)graph->switches * graph->degree;
	uint64_t first = random_below(&graph->rng, slots);
	uint64_t second = random_below(&graph->rng, slots);
	uint32_t a = (uint32_t)(first / graph->degree), b = graph->neighbour[first];
	uint32_t c = (uint32_t)(second / graph->degree), d = graph->neighbour[second];

	if (a == c || a == d || b == c || b == d)
		return;
	if (slot_of(graph, a, d) || slot_of(graph, c, b))
		return;
	*slot_of(graph, a, b) = d;
	*slot_of(graph, b, a) = c;
	*slot_of(graph, c, d) = b;
	*slot_of(graph, d, c) = a;
}

static int is_connected(const struct regular_graph *graph)
{
	uint32_t *queue = malloc(sizeof(uint32_t) * graph->switches);
	char *seen = calloc(graph->switches, 1);
	uint32_t head = 0, tail = 0;
	unsigned i;

	if (!queue || !seen) {
		free(queue);
		free(seen);
		return -1;
	}
	queue[tail++] = 0;
	seen[0] = 1;
	while (head < tail) {
		uint32_t sw = queue[head++];

		for (i = 0; i < graph->degree; i++) {
			uint32_t other = graph->neighbour[(uint64_t)sw * graph->degree + i];

			if (!seen[other]) {
				seen[other] = 1;
				queue[tail++] = other;
			}
		}
	}
	free(queue);
	free(seen);
	return tail == graph->switches;
}

static int shuffle_until_connected(struct regular_graph *graph, struct vlr_error *err)
{
	uint64_t swaps = (uint64_t)graph->switches * graph->degree / 2 * SWAPS_PER_LINK;
	unsigned round;
	uint64_t i;

	for (round = 0; round < MAX_SHUFFLES; round++) {
		int connected;

		for (i = 0; i < swaps; i++)
			try_swap(graph);
		connected = is_connected(graph);
		if (connected < 0)
			return vlr_fail(err, "out of memory checking connectivity");
		if (connected)
			return 0;
	}
	return vlr_fail(err, "no connected %u-regular graph on %u switches found "
			"after %d shuffles; raise the degree", graph->degree,
			graph->switches, MAX_SHUFFLES);
}

static int compare_switches(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned port_towards(const struct regular_graph *graph, unsigned hosts,
			     uint32_t sw, uint32_t other)
{
	const uint32_t *list = graph->neighbour + (uint64_t)sw * graph->degree;
	unsigned i = 0;

	while (list[i] != other)
		i++;
	return hosts + 1 + i;
}

static int check_params(const struct vlr_random_params *rr, struct vlr_error *err)
{
	if (gen_check_range("the number of switches", rr->switches, 2, 1u << 20, err) ||
	    gen_check_range("the degree", rr->degree, 1, rr->switches - 1, err) ||
	    gen_check_range("hosts per switch", rr->hosts, 1, VLR_MAX_NODE_PORTS, err))
		return -1;
	if ((uint64_t)rr->switches * rr->degree % 2)
		return vlr_fail(err, "switches x degree must be even (it is %u x %u)",
				rr->switches, rr->degree);
	if (rr->degree == 1 && rr->switches > 2)
		return vlr_fail(err, "the degree is 1; allowed: 2..%u for %u switches "
				"(degree 1 cannot connect more than 2)",
				rr->switches - 1, rr->switches);
	if (gen_check_size((unsigned long long)rr->switches * (1ull + rr->hosts), err))
		return -1;
	return gen_check_radix((unsigned long long)rr->hosts + rr->degree,
			       "hosts + degree", err);
}

static int build_fabric(struct vlr_fabric *fabric, const struct vlr_random_params *rr,
			const struct regular_graph *graph, struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	struct gen_guids guids;
	uint32_t sw;
	unsigned i;

	gen_guids_init(&guids);
	for (sw = 0; sw < rr->switches; sw++) {
		snprintf(name, sizeof(name), "rr_%u", sw);
		if (gen_add_switch(fabric, &guids, name, rr->hosts + rr->degree,
				   err) == VLR_NONE)
			return -1;
	}
	for (sw = 0; sw < rr->switches; sw++)
		for (i = 0; i < rr->degree; i++) {
			uint32_t other = graph->neighbour[(uint64_t)sw * rr->degree + i];

			if (other > sw &&
			    vlr_fabric_link(fabric, sw, rr->hosts + 1 + i, other,
					    port_towards(graph, rr->hosts, other, sw), err))
				return -1;
		}
	for (sw = 0; sw < rr->switches; sw++)
		if (gen_attach_hosts(fabric, &guids, sw, rr->hosts, err))
			return -1;
	return 0;
}

int vlr_gen_random(struct vlr_fabric *fabric, const struct vlr_random_params *rr,
		   struct vlr_error *err)
{
	struct regular_graph graph;
	uint32_t sw;
	int result;

	if (check_params(rr, err))
		return -1;
	graph.switches = rr->switches;
	graph.degree = rr->degree;
	graph.rng = rr->seed;
	graph.neighbour = malloc(sizeof(uint32_t) * rr->switches * rr->degree);
	if (!graph.neighbour)
		return vlr_fail(err, "out of memory for the random graph");
	result = build_circulant(&graph, err);
	if (!result)
		result = shuffle_until_connected(&graph, err);
	for (sw = 0; sw < rr->switches && !result; sw++)
		qsort(graph.neighbour + (uint64_t)sw * rr->degree, rr->degree,
		      sizeof(uint32_t), compare_switches);
	if (!result)
		result = vlr_fabric_reserve(fabric, rr->switches * (1 + rr->hosts),
					    rr->switches * (rr->hosts + rr->degree + 1) +
					    rr->switches * rr->hosts * 2, err);
	if (!result)
		result = build_fabric(fabric, rr, &graph, err);
	free(graph.neighbour);
	return result;
}
