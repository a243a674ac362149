/*
 * gen_random.c - seeded random switch graph generator, regular or with a
 * given number of links.
 *
 * Regular: N switches, each linked to D others (no self links, no parallel
 * links), each with T hosts. The graph starts as a circulant (switch i
 * linked to i +- 1 .. i +- D/2, and to i + N/2 when D is odd) and is then
 * shuffled by 20 random double-edge swaps per link, each keeping the graph
 * simple, until it is connected.
 *
 * With L links (the DFSSSP study's random fabrics: a number of links, not a
 * degree): N switches, L links, at most D per switch, connected and simple.
 * The graph starts as the first L links of that circulant's order (a path
 * first, so it is connected) and is then changed 20 times per link, by a
 * coin's choice either moving one random link to a random pair of switches
 * or swapping the ends of two random links (which works even when every
 * switch is full), each change kept only when the graph stays simple,
 * within D and connected: a walk whose every state is equally likely in
 * the long run.
 *
 * The seed fully decides the result. Ports: 1..T hosts, then T + 1 ..
 * towards the neighbours in increasing switch order (T + D ports in all).
 * Switch i is node i, named rr_I.
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
#define MAX_LINKS_SWITCHES 4096	/* each move may walk the graph: keep it small */

struct regular_graph {
	uint32_t switches;
	unsigned degree;	/* slots per switch */
	unsigned *count;	/* links of each switch; NULL: every slot used */
	uint32_t *neighbour;	/* switches * degree entries */
	uint64_t rng;
};

static unsigned links_of(const struct regular_graph *graph, uint32_t sw)
{
	return graph->count ? graph->count[sw] : graph->degree;
}

static uint32_t random_below(uint64_t *state, uint64_t bound)
{
	return (uint32_t)(vlr_splitmix64(state) % bound);
}

static uint32_t *slot_of(struct regular_graph *graph, uint32_t sw, uint32_t other)
{
	uint32_t *list = graph->neighbour + (uint64_t)sw * graph->degree;
	unsigned i;

	for (i = 0; i < links_of(graph, sw); i++)
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

/* A breadth-first search's scratch, kept across searches. */
struct bfs {
	uint32_t *queue;
	uint32_t *seen;		/* stamp per switch */
	uint32_t stamp;
};

static int bfs_init(struct bfs *bfs, uint32_t switches)
{
	bfs->queue = malloc(sizeof(uint32_t) * switches);
	bfs->seen = calloc(switches, sizeof(uint32_t));
	bfs->stamp = 0;
	return bfs->queue && bfs->seen ? 0 : -1;
}

static void bfs_free(struct bfs *bfs)
{
	free(bfs->queue);
	free(bfs->seen);
}

/*
 * The switches reachable from `from`, by breadth-first search:
 * UINT32_MAX as soon as `to` is among them, else how many.
 */
static uint32_t search_from(const struct regular_graph *graph, struct bfs *bfs,
			    uint32_t from, uint32_t to)
{
	uint32_t head = 0, tail = 0;
	unsigned i;

	bfs->stamp++;
	bfs->queue[tail++] = from;
	bfs->seen[from] = bfs->stamp;
	while (head < tail) {
		uint32_t sw = bfs->queue[head++];
		const uint32_t *list = graph->neighbour + (uint64_t)sw * graph->degree;

		if (sw == to)
			return UINT32_MAX;
		for (i = 0; i < links_of(graph, sw); i++)
			if (bfs->seen[list[i]] != bfs->stamp) {
				bfs->seen[list[i]] = bfs->stamp;
				bfs->queue[tail++] = list[i];
			}
	}
	return tail;
}

static int shuffle_until_connected(struct regular_graph *graph, struct vlr_error *err)
{
	uint64_t swaps = (uint64_t)graph->switches * graph->degree / 2 * SWAPS_PER_LINK;
	struct bfs bfs;
	unsigned round;
	uint64_t i;

	if (bfs_init(&bfs, graph->switches)) {
		bfs_free(&bfs);
		return vlr_fail(err, "out of memory checking connectivity");
	}
	for (round = 0; round < MAX_SHUFFLES; round++) {
		for (i = 0; i < swaps; i++)
			try_swap(graph);
		if (search_from(graph, &bfs, 0, VLR_NONE) == graph->switches) {
			bfs_free(&bfs);
			return 0;
		}
	}
	bfs_free(&bfs);
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

/* The links variant's moves and their bookkeeping. */
struct link_walk {
	uint32_t (*ends)[2];	/* the links, for a uniform choice */
	struct bfs bfs;
};

static void add_link(struct regular_graph *graph, uint32_t a, uint32_t b)
{
	graph->neighbour[(uint64_t)a * graph->degree + graph->count[a]++] = b;
	graph->neighbour[(uint64_t)b * graph->degree + graph->count[b]++] = a;
}

static void drop_slot(struct regular_graph *graph, uint32_t sw, uint32_t other)
{
	uint32_t *list = graph->neighbour + (uint64_t)sw * graph->degree;
	uint32_t *slot = slot_of(graph, sw, other);

	*slot = list[--graph->count[sw]];
}

static void remove_link(struct regular_graph *graph, uint32_t a, uint32_t b)
{
	drop_slot(graph, a, b);
	drop_slot(graph, b, a);
}

/* The first `links` links of the circulant of degree D in build_circulant's
   order: offset 1 first (a path, then a ring), then 2.., then the i + N/2
   matching when D is odd; within D, never twice, reaching floor(N*D/2). */
static void build_first_links(struct regular_graph *graph, unsigned links)
{
	uint32_t sw, n = graph->switches, half = n / 2;
	unsigned offset, made = 0;

	for (offset = 1; offset <= graph->degree / 2; offset++)
		for (sw = 0; sw < n && made < links; sw++, made++)
			add_link(graph, sw, (sw + offset) % n);
	if (graph->degree % 2)
		for (sw = 0; sw < half && made < links; sw++, made++)
			add_link(graph, sw, sw + half);
}

/* Whether `to` is reachable from `from`. */
static int reaches(const struct regular_graph *graph, struct link_walk *walk,
		   uint32_t from, uint32_t to)
{
	return search_from(graph, &walk->bfs, from, to) == UINT32_MAX;
}

/* Move link e to a random pair c-d when the graph stays simple, within the
   degree and connected (a still reaches b); else leave it. */
static void try_move(struct regular_graph *graph, struct link_walk *walk,
		     unsigned links)
{
	uint32_t e = random_below(&graph->rng, links);
	uint32_t c = random_below(&graph->rng, graph->switches);
	uint32_t d = random_below(&graph->rng, graph->switches);
	uint32_t a = walk->ends[e][0], b = walk->ends[e][1];

	if (c == d || slot_of(graph, c, d))
		return;
	remove_link(graph, a, b);
	if (graph->count[c] < graph->degree && graph->count[d] < graph->degree) {
		add_link(graph, c, d);
		if (reaches(graph, walk, a, b)) {
			walk->ends[e][0] = c;
			walk->ends[e][1] = d;
			return;
		}
		remove_link(graph, c, d);
	}
	add_link(graph, a, b);
}

/* Swap the ends of links e and f (a-b, c-d to a-d, c-b), the move that
   keeps every switch's link count: needed when the switches are full. */
static void try_link_swap(struct regular_graph *graph, struct link_walk *walk,
			  unsigned links)
{
	uint32_t e = random_below(&graph->rng, links);
	uint32_t f = random_below(&graph->rng, links);
	uint32_t a = walk->ends[e][0], b = walk->ends[e][1];
	uint32_t c = walk->ends[f][0], d = walk->ends[f][1];

	if (a == c || a == d || b == c || b == d ||
	    slot_of(graph, a, d) || slot_of(graph, c, b))
		return;
	remove_link(graph, a, b);
	remove_link(graph, c, d);
	add_link(graph, a, d);
	add_link(graph, c, b);
	if (reaches(graph, walk, a, b)) {
		walk->ends[e][1] = d;
		walk->ends[f][1] = b;
		return;
	}
	remove_link(graph, a, d);
	remove_link(graph, c, b);
	add_link(graph, a, b);
	add_link(graph, c, d);
}

static int walk_links(struct regular_graph *graph, unsigned links, struct vlr_error *err)
{
	struct link_walk walk;
	uint64_t i, moves = (uint64_t)links * SWAPS_PER_LINK;
	uint32_t sw;
	unsigned k, made = 0;

	walk.ends = malloc(sizeof(*walk.ends) * links);
	if (bfs_init(&walk.bfs, graph->switches) || !walk.ends) {
		free(walk.ends);
		bfs_free(&walk.bfs);
		return vlr_fail(err, "out of memory for the random graph");
	}
	for (sw = 0; sw < graph->switches; sw++)
		for (k = 0; k < graph->count[sw]; k++) {
			uint32_t other = graph->neighbour[(uint64_t)sw * graph->degree + k];

			if (other > sw) {
				walk.ends[made][0] = sw;
				walk.ends[made++][1] = other;
			}
		}
	for (i = 0; i < moves; i++)
		if (vlr_splitmix64(&graph->rng) & 1)
			try_link_swap(graph, &walk, links);
		else
			try_move(graph, &walk, links);
	free(walk.ends);
	bfs_free(&walk.bfs);
	return 0;
}

static int check_links(const struct vlr_random_params *rr, struct vlr_error *err)
{
	if (gen_check_range("the number of switches (with a number of links)",
			    rr->switches, 2, MAX_LINKS_SWITCHES, err) ||
	    gen_check_range("the most links per switch (-d)", rr->degree,
			    rr->switches > 2 ? 2 : 1, rr->switches - 1, err))
		return -1;
	return gen_check_range("the number of links", rr->links, rr->switches - 1,
			       (unsigned long long)rr->switches * rr->degree / 2, err);
}

static int check_degree(const struct vlr_random_params *rr, struct vlr_error *err)
{
	if (gen_check_range("the number of switches", rr->switches, 2, 1u << 20, err) ||
	    gen_check_range("the degree", rr->degree, 1, rr->switches - 1, err))
		return -1;
	if ((uint64_t)rr->switches * rr->degree % 2)
		return vlr_fail(err, "switches x degree must be even (it is %u x %u)",
				rr->switches, rr->degree);
	if (rr->degree == 1 && rr->switches > 2)
		return vlr_fail(err, "the degree is 1; allowed: 2..%u for %u switches "
				"(degree 1 cannot connect more than 2)",
				rr->switches - 1, rr->switches);
	return 0;
}

static int check_params(const struct vlr_random_params *rr, struct vlr_error *err)
{
	if (rr->links ? check_links(rr, err) : check_degree(rr, err))
		return -1;
	if (gen_check_range("hosts per switch", rr->hosts, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_size((unsigned long long)rr->switches * (1ull + rr->hosts), err))
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
		for (i = 0; i < links_of(graph, sw); i++) {
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

/* The switch graph: regular, or with rr->links links. */
static int build_graph(struct regular_graph *graph, const struct vlr_random_params *rr,
		       struct vlr_error *err)
{
	if (!rr->links)
		return build_circulant(graph, err) || shuffle_until_connected(graph, err) ?
		       -1 : 0;
	graph->count = calloc(rr->switches, sizeof(unsigned));
	if (!graph->count)
		return vlr_fail(err, "out of memory for the random graph");
	build_first_links(graph, rr->links);
	return walk_links(graph, rr->links, err);
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
	graph.count = NULL;
	graph.rng = rr->seed;
	graph.neighbour = malloc(sizeof(uint32_t) * rr->switches * rr->degree);
	if (!graph.neighbour)
		return vlr_fail(err, "out of memory for the random graph");
	result = build_graph(&graph, rr, err);
	for (sw = 0; sw < rr->switches && !result; sw++)
		qsort(graph.neighbour + (uint64_t)sw * rr->degree, links_of(&graph, sw),
		      sizeof(uint32_t), compare_switches);
	if (!result)
		result = vlr_fabric_reserve(fabric, rr->switches * (1 + rr->hosts),
					    rr->switches * (rr->hosts + rr->degree + 1) +
					    rr->switches * rr->hosts * 2, err);
	if (!result)
		result = build_fabric(fabric, rr, &graph, err);
	free(graph.neighbour);
	free(graph.count);
	return result;
}
