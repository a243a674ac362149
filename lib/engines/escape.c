/*
 * escape.c - escape paths: on the last VL, the destinations whose routes
 * there close a cycle go by up/down routing instead, which needs no other
 * VL (cdg_layers.c finds them).
 *
 * The switches are ranked by their distance to a root (the switch of least
 * eccentricity) and then by their place in its breadth-first order; a hop
 * to a lower rank goes up, to a higher rank down. A route of up hops
 * followed by down hops never turns from down to up, so the channel
 * dependencies of all such routes follow one order: up channels by falling
 * rank, then down channels by rising rank. They cannot close a cycle, and
 * every cycle has a dependency that turns from down to up, induced by
 * minimal routes only: escaping their destinations, all of their routes,
 * breaks it.
 *
 * The routes are destination-based, one next hop per switch and LID, so a
 * switch entered by a down hop must go on down. Each switch therefore takes
 * its best all-down route when it has one, and otherwise its best route
 * that starts with an up hop; every route is then up/down, and every
 * switch has one, since the root reaches each switch going down its
 * breadth-first tree and every other switch has an up hop towards the
 * root. Best is the fewest hops, then the least load: the routes on each
 * channel (on any layer, since the VLs share the link), sssp's balance.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "engine_common.h"
#include "escape.h"

#define FAR UINT32_MAX

struct cost {
	uint32_t hops;			/* FAR: no route */
	uint64_t load;			/* routes on its channels */
};

struct escape {
	const struct route_graph *graph;
	struct vlr_tables *tables;
	const uint16_t *by_rank;	/* switches, the root first */
	uint32_t *rank;			/* [switch]: place in by_rank */
	uint64_t *load;			/* [channel]: routes it carries */
	uint64_t *carried;		/* [switch]: sources routed through it */
	struct cost *down;		/* [switch]: best all-down route */
	struct cost *best;		/* [switch]: its route */
	uint32_t *down_next;		/* [switch]: channel of that all-down route */
	uint32_t *next;			/* [switch]: channel of its route */
	uint32_t *by_hops;		/* switches, the farthest first */
	uint32_t *first;		/* counting sort by hops */
	uint32_t root;
};

static int cheaper(struct cost a, struct cost b)
{
	return a.hops < b.hops || (a.hops == b.hops && a.load < b.load);
}

/* The switch of least eccentricity, the lowest index on a tie. */
static uint32_t choose_root(const struct route_graph *graph, uint32_t *eccentricity)
{
	uint32_t s = graph->num_switches, t, v, root = 0;

	memset(eccentricity, 0, sizeof(uint32_t) * s);
	for (t = 0; t < s; t++)
		for (v = 0; v < s; v++)
			if (graph->distance[(uint64_t)t * s + v] > eccentricity[v])
				eccentricity[v] = graph->distance[(uint64_t)t * s + v];
	for (v = 1; v < s; v++)
		if (eccentricity[v] < eccentricity[root])
			root = v;
	return root;
}

/*
 * Charge the channels of the routes to t, next[] given, in order[0..n)
 * (every switch before the one it forwards to); take off with sign -1.
 */
static void charge(struct escape *e, uint32_t t, const uint32_t *order, uint32_t n, int sign)
{
	const struct route_graph *graph = e->graph;
	uint32_t k;

	for (k = 0; k < n; k++)
		e->carried[order[k]] = graph->sources[order[k]];
	for (k = 0; k < n; k++) {
		uint32_t v = order[k], c = e->next[v];

		if (v == t)
			continue;
		e->load[c] += sign < 0 ? -e->carried[v] : e->carried[v];
		e->carried[graph->channel_to[c]] += e->carried[v];
	}
}

/* The load of lid's minimal routes (nearer switches last), on or off. */
static void charge_minimal_lid(struct escape *e, uint32_t lid, uint32_t t, int sign)
{
	const struct route_graph *graph = e->graph;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	uint32_t k, n = graph->reaching[t];

	for (k = 0; k < n; k++) {
		e->by_hops[k] = order[n - 1 - k];
		e->next[order[k]] = route_graph_next_channel(graph, order[k], lid);
	}
	charge(e, t, e->by_hops, n, sign);
}

static void best_down(struct escape *e, uint32_t t)
{
	const struct route_graph *graph = e->graph;
	uint32_t k, c;

	for (k = graph->num_switches; k-- > 0;) {
		uint32_t v = e->by_rank[k];
		struct cost best = { FAR, 0 };

		e->down_next[v] = VLR_NONE;
		if (v == t)
			best.hops = 0;
		else if (e->rank[v] < e->rank[t])
			for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++) {
				uint32_t u = graph->channel_to[c];
				struct cost via = { e->down[u].hops + 1, e->down[u].load + e->load[c] };

				if (e->rank[u] > e->rank[v] && e->down[u].hops != FAR &&
				    cheaper(via, best)) {
					best = via;
					e->down_next[v] = c;
				}
			}
		e->down[v] = best;
	}
}

static void best_route(struct escape *e)
{
	const struct route_graph *graph = e->graph;
	uint32_t k, c;

	for (k = 0; k < graph->num_switches; k++) {
		uint32_t v = e->by_rank[k];
		struct cost best = e->down[v];

		e->next[v] = e->down_next[v];
		if (best.hops == FAR)
			for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++) {
				uint32_t u = graph->channel_to[c];
				struct cost via = { e->best[u].hops + 1, e->best[u].load + e->load[c] };

				if (e->rank[u] < e->rank[v] && cheaper(via, best)) {
					best = via;
					e->next[v] = c;
				}
			}
		e->best[v] = best;
	}
}

/* The switches by the hops of their routes, the farthest first. */
static void sort_by_hops(struct escape *e)
{
	uint32_t s = e->graph->num_switches, v, most = 0, k;

	for (v = 0; v < s; v++)
		if (e->best[v].hops > most)
			most = e->best[v].hops;
	memset(e->first, 0, sizeof(uint32_t) * (most + 2));
	for (v = 0; v < s; v++)
		e->first[most - e->best[v].hops + 1]++;
	for (k = 0; k <= most; k++)
		e->first[k + 1] += e->first[k];
	for (v = 0; v < s; v++)
		e->by_hops[e->first[most - e->best[v].hops]++] = v;
}

void escape_lid(struct escape *e, uint32_t lid, uint8_t layer)
{
	struct vlr_tables *tables = e->tables;
	uint32_t v, row, t;
	uint8_t last_port;

	t = route_graph_target(e->graph, lid, &last_port);
	charge_minimal_lid(e, lid, t, -1);
	best_down(e, t);
	best_route(e);
	for (v = 0; v < e->graph->num_switches; v++)
		if (v != t)
			vlr_tables_lft(tables, v)[lid] = e->graph->channel_port[e->next[v]];
	sort_by_hops(e);
	charge(e, t, e->by_hops, e->graph->num_switches, 1);
	for (row = 0; row < tables->num_sl_rows; row++)
		vlr_tables_sl_row(tables, row)[lid] = layer;
}

int escape_turns_up(const struct escape *e, uint32_t in, uint32_t out)
{
	const struct route_graph *graph = e->graph;
	uint32_t from = graph->channel_from[in], at = graph->channel_to[in];

	return e->rank[at] > e->rank[from] && e->rank[graph->channel_to[out]] < e->rank[at];
}

uint32_t escape_root(const struct escape *e)
{
	return e->root;
}

void escape_free(struct escape *e)
{
	if (!e)
		return;
	free(e->rank);
	free(e->load);
	free(e->carried);
	free(e->down);
	free(e->best);
	free(e->down_next);
	free(e->next);
	free(e->by_hops);
	free(e->first);
	free(e);
}

static int alloc_escape(struct escape *e, const struct route_graph *graph)
{
	uint32_t s = graph->num_switches + 1;

	e->graph = graph;
	e->rank = malloc(sizeof(uint32_t) * s);
	e->load = calloc(graph->num_channels + 1, sizeof(uint64_t));
	e->carried = malloc(sizeof(uint64_t) * s);
	e->down = malloc(sizeof(struct cost) * s);
	e->best = malloc(sizeof(struct cost) * s);
	e->down_next = malloc(sizeof(uint32_t) * s);
	e->next = malloc(sizeof(uint32_t) * s);
	e->by_hops = malloc(sizeof(uint32_t) * s);
	e->first = malloc(sizeof(uint32_t) * (2 * s + 2));
	return e->rank && e->load && e->carried && e->down && e->best && e->down_next &&
	       e->next && e->by_hops && e->first ? 0 : -1;
}

struct escape *escape_new(struct vlr_tables *tables, const struct route_graph *graph)
{
	struct escape *e = calloc(1, sizeof(*e));
	uint32_t lid, t, k;
	uint8_t last_port;

	if (!e || alloc_escape(e, graph)) {
		escape_free(e);
		return NULL;
	}
	e->tables = tables;
	e->root = choose_root(graph, e->rank);
	e->by_rank = graph->order + (uint64_t)e->root * graph->num_switches;
	for (k = 0; k < graph->num_switches; k++)
		e->rank[e->by_rank[k]] = k;
	for (lid = 1; lid <= tables->max_lid; lid++)
		if ((t = route_graph_target(graph, lid, &last_port)) != VLR_NONE)
			charge_minimal_lid(e, lid, t, 1);
	return e;
}
