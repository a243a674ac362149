/*
 * escape.c - escape paths: on the last VL, the destinations whose routes
 * there close a cycle are routed again (cdg_layers.c finds them), on
 * routes that keep the layer acyclic by construction.
 *
 * The switches are ranked by their distance to a root (the switch of least
 * eccentricity) and then by their place in its breadth-first order; a hop
 * to a lower rank goes up, to a higher rank down, and the breadth-first
 * tree's links join each switch to its parent. Routes of up hops followed
 * by down hops never turn from down to up, so their dependencies follow
 * one order (up channels by falling rank, then down channels by rising
 * rank) and cannot close a cycle: every cycle has a dependency that turns
 * from down to up, and the tree's own turns (up to up, up to down, down to
 * down) are in none. cdg_layers.c keeps the tree's turns among the layer's
 * dependencies and breaks each cycle at such a dependency, taking the
 * destinations that induce it off the layer.
 *
 * Those destinations are then routed one by one against a topological
 * order of the layer's dependencies, the tree's turns included: from the
 * destination backwards, Dijkstra by the load of the links (the routes on
 * each, on any layer, since the VLs share it) plus, for every hop, the
 * mean load of a link, so that a route turns aside from the shortest only
 * to spare more load than its longer way puts on the links on the mean
 * (by the fewest hops first, the routes kept to the busiest links where
 * the order leaves only those short; by load alone, like OpenSM's nue,
 * they grew long and loaded every link more: both balanced worse), a
 * switch settled by its cheapest link whose dependency fits the
 * order, or can be made to by moving the channels between its two ends
 * (the incremental topological order of Pearce and Kelly), the next
 * cheapest when it cannot. The layer stays acyclic. A dependency found to
 * close a cycle through the layer's routes and the tree alone closes one
 * for the rest of the batch (dependencies are only added), so it is
 * remembered and not searched again: most searches were such repeats.
 * The switches that cannot be reached so take the tree's route, up to the
 * first switch above the destination and down, whose turns the order
 * holds already; and so do the switches on those routes, and any whose
 * route would join one against the order.
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

/* The cost Dijkstra weighs: each hop the mean load (hop), then its channels'. */
static uint64_t weight(struct cost a, uint64_t hop)
{
	return (uint64_t)a.hops * hop + a.load;
}

/* A binary min-heap of items by (first, second). */
struct heap_entry {
	uint64_t first, second;
	uint32_t item;
};

struct heap {
	struct heap_entry *at;
	uint32_t size;
};

struct escape {
	const struct route_graph *graph;
	struct vlr_tables *tables;
	const uint16_t *by_rank;	/* switches, the root first */
	uint32_t *rank;			/* [switch]: place in by_rank */
	uint64_t *load;			/* [channel]: routes it carries */
	uint64_t total;			/* the routes on every channel: sum of load[] */
	uint64_t hop;			/* a hop's cost: the mean load, for the destination routed */
	uint64_t *pair_load;		/* [channel]: host pairs' routes (escape_bandwidth) */
	uint64_t *busiest;		/* [switch]: most pair_load on its route (escape_bandwidth) */
	uint64_t *carried;		/* [switch]: sources routed through it */
	struct cost *best;		/* [switch]: its route */
	uint32_t *next;			/* [switch]: channel of its route */
	uint32_t *up;			/* [switch]: channel to its tree parent */
	int8_t *tree;			/* [channel]: a tree link up (1), down (-1), or not (0) */
	uint32_t *by_hops;		/* switches, the farthest first */
	uint32_t *first;		/* counting sort by hops */
	uint32_t root;
	uint32_t *order;		/* [channel]: place in a topological order */
	uint32_t *indegree;		/* [channel]: scratch of the order */
	const uint32_t *counts;		/* the layer's dependencies, by the order */
	unsigned port_stride;
	unsigned step;			/* between consecutive counts */
	uint32_t *mark;			/* [channel]: searched in this epoch */
	uint32_t epoch;
	uint32_t *stack;		/* channels to search (ahead) */
	uint32_t *stack_back;		/* channels to search (back) */
	uint32_t *found_back;		/* channels searched (back) */
	uint64_t *moved;		/* (place << 32 | channel) of a reordering */
	uint8_t *done;			/* [switch]: settled by the search */
	uint64_t *cyclic;		/* [slot bit]: dependencies known to close a cycle */
	uint32_t *tried;		/* [channel]: epoch_lid when it did not fit */
	uint32_t epoch_lid;
	int for_now;			/* a search met a dependency of the routes being built */
	struct heap heap;
};

/* Whether a costs less than b (the fewer hops on a tie), b FAR when unreached. */
static int cheaper(struct cost a, struct cost b, uint64_t hop)
{
	uint64_t x = weight(a, hop), y = weight(b, hop);

	return b.hops == FAR || x < y || (x == y && a.hops < b.hops);
}

static int before(const struct heap_entry *a, const struct heap_entry *b)
{
	return a->first < b->first || (a->first == b->first && a->second < b->second);
}

static void heap_push(struct heap *heap, uint64_t first, uint64_t second, uint32_t item)
{
	uint32_t at = heap->size++;
	struct heap_entry entry = { first, second, item };

	while (at && before(&entry, &heap->at[(at - 1) / 2])) {
		heap->at[at] = heap->at[(at - 1) / 2];
		at = (at - 1) / 2;
	}
	heap->at[at] = entry;
}

static uint32_t heap_pop(struct heap *heap)
{
	uint32_t item = heap->at[0].item, at = 0, child;
	struct heap_entry last = heap->at[--heap->size];

	while ((child = 2 * at + 1) < heap->size) {
		if (child + 1 < heap->size && before(&heap->at[child + 1], &heap->at[child]))
			child++;
		if (!before(&heap->at[child], &last))
			break;
		heap->at[at] = heap->at[child];
		at = child;
	}
	heap->at[at] = last;
	return item;
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
 * Charge load[] (per channel) with the routes to t, next[] given, in
 * order[0..n) (every switch before the one it forwards to); take off with
 * sign -1. Returns the routes charged, summed over the channels.
 */
static uint64_t charge(struct escape *e, uint64_t *load, uint32_t t, const uint32_t *order,
		       uint32_t n, int sign)
{
	const struct route_graph *graph = e->graph;
	uint64_t routes = 0;
	uint32_t k;

	for (k = 0; k < n; k++)
		e->carried[order[k]] = graph->sources[order[k]];
	for (k = 0; k < n; k++) {
		uint32_t v = order[k], c = e->next[v];

		if (v == t)
			continue;
		load[c] += sign < 0 ? -e->carried[v] : e->carried[v];
		routes += e->carried[v];
		e->carried[graph->channel_to[c]] += e->carried[v];
	}
	return routes;
}

/* Hops of v's route along next[] (memoised in best[].hops). */
static void route_hops(struct escape *e, uint32_t v)
{
	uint32_t length = 0, u = v, hops;

	while (e->best[u].hops == FAR) {
		e->by_hops[length++] = u;
		u = e->graph->channel_to[e->next[u]];
	}
	hops = e->best[u].hops;
	while (length)
		e->best[e->by_hops[--length]].hops = ++hops;
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

/* lid's routes in the LFTs into next[] and best[].hops, by_hops sorted. */
static void read_routes(struct escape *e, uint32_t lid, uint32_t t)
{
	uint32_t s = e->graph->num_switches, v;

	for (v = 0; v < s; v++) {
		e->next[v] = route_graph_next_channel(e->graph, v, lid);
		e->best[v].hops = v == t ? 0 : FAR;
	}
	for (v = 0; v < s; v++)
		route_hops(e, v);
	sort_by_hops(e);
}

/* The load of lid's routes in the LFTs, on or off (sign -1). */
static void charge_lid(struct escape *e, uint32_t lid, uint32_t t, int sign)
{
	uint64_t routes;

	read_routes(e, lid, t);
	routes = charge(e, e->load, t, e->by_hops, e->graph->num_switches, sign);
	e->total += sign < 0 ? -routes : routes;
}

/* Write the tree of next[] and best[] as lid's routes, and charge it. */
static void take_tree(struct escape *e, uint32_t lid, uint32_t t)
{
	struct vlr_tables *tables = e->tables;
	uint32_t v;

	for (v = 0; v < e->graph->num_switches; v++)
		if (v != t)
			vlr_tables_lft(tables, v)[lid] = e->graph->channel_port[e->next[v]];
	sort_by_hops(e);
	e->total += charge(e, e->load, t, e->by_hops, e->graph->num_switches, 1);
}

static inline int tree_turn(const struct escape *e, uint32_t in, uint32_t out)
{
	int from = e->tree[in], to = e->tree[out];

	return from && to && out != e->graph->channel_back[in] && !(from < 0 && to > 0);
}

int escape_tree_turn(const struct escape *e, uint32_t in, uint32_t out)
{
	return tree_turn(e, in, out);
}

/* ---- keeping the order while a tree grows (Pearce and Kelly) -------------- */

/*
 * The dependencies of the order: the layer's (counts), the tree's turns,
 * and those of the routes being built, from a switch's channel (next[]) to
 * the channel of the switch it leads to.
 */
static uint64_t slot_of(const struct escape *e, uint32_t in, uint32_t out)
{
	return (uint64_t)in * e->port_stride + e->graph->channel_port[out];
}

/* The layer's and the tree's: the dependencies that stay for the batch. */
static inline int depends_always(const struct escape *e, uint32_t in, uint32_t out)
{
	return e->counts[slot_of(e, in, out) * e->step] || tree_turn(e, in, out);
}

/* Those of the routes being built, for the destination being routed only. */
static inline int depends_now(const struct escape *e, uint32_t in, uint32_t out)
{
	return e->next[e->graph->channel_from[in]] == in && e->next[e->graph->channel_to[in]] == out;
}

static inline int depends(const struct escape *e, uint32_t in, uint32_t out)
{
	return depends_always(e, in, out) || depends_now(e, in, out);
}

/* Channel c's place in the up/down order: up channels, then down ones. */
static uint64_t up_down_key(const struct escape *e, uint32_t c)
{
	uint32_t from = e->rank[e->graph->channel_from[c]], to = e->rank[e->graph->channel_to[c]];
	uint64_t s = e->graph->num_switches;

	return to < from ? s - to : s + 1 + to;
}

static size_t cyclic_bytes(const struct escape *e)
{
	return sizeof(uint64_t) * (((uint64_t)e->graph->num_channels * e->graph->port_stride) / 64 + 1);
}

int escape_set_order(struct escape *e, const uint32_t *counts, unsigned port_stride,
		     unsigned step)
{
	const struct route_graph *graph = e->graph;
	uint32_t c, out, placed = 0;

	e->counts = counts;
	e->port_stride = port_stride;
	e->step = step;
	memset(e->cyclic, 0, cyclic_bytes(e));
	for (c = 0; c < graph->num_switches; c++)
		e->next[c] = VLR_NONE;
	memset(e->indegree, 0, sizeof(uint32_t) * (graph->num_channels + 1));
	for (c = 0; c < graph->num_channels; c++) {
		uint32_t head = graph->channel_to[c];

		for (out = graph->first_channel[head]; out < graph->first_channel[head + 1]; out++)
			e->indegree[out] += depends(e, c, out);
	}
	e->heap.size = 0;
	for (c = 0; c < graph->num_channels; c++)
		if (!e->indegree[c])
			heap_push(&e->heap, up_down_key(e, c), c, c);
	while (e->heap.size) {
		uint32_t head;

		c = heap_pop(&e->heap);
		e->order[c] = placed++;
		head = graph->channel_to[c];
		for (out = graph->first_channel[head]; out < graph->first_channel[head + 1]; out++)
			if (depends(e, c, out) && !--e->indegree[out])
				heap_push(&e->heap, up_down_key(e, out), out, out);
	}
	return placed == graph->num_channels ? 0 : -1;
}

/*
 * One direction of order_dependency's search: from y along the
 * dependencies, or from x against them, within the places between them.
 */
struct side {
	int forward;
	uint32_t *stack, depth;
	uint32_t *found, count;		/* the channels visited */
	uint32_t mark, other;		/* marks of this side's channels and the other's */
};

static void start_side(struct escape *e, struct side *side, uint32_t from)
{
	e->mark[from] = side->mark;
	side->stack[side->depth++] = from;
}

/* Visit side's next channel; 1 when it leads to (or from) the other side's. */
static int step_side(struct escape *e, struct side *side, uint32_t low, uint32_t high)
{
	const struct route_graph *graph = e->graph;
	uint32_t n = side->stack[--side->depth], k;
	uint32_t sw = side->forward ? graph->channel_to[n] : graph->channel_from[n];

	side->found[side->count++] = n;
	for (k = graph->first_channel[sw]; k < graph->first_channel[sw + 1]; k++) {
		uint32_t m = side->forward ? k : graph->channel_back[k];
		uint32_t from = side->forward ? n : m, to = side->forward ? m : n;
		int theirs = e->mark[m] == side->other, always;

		if (e->mark[m] == side->mark ||
		    (!theirs && (e->order[m] <= low || e->order[m] >= high)))
			continue;	/* outside the search: no need to ask */
		always = depends_always(e, from, to);
		if (!always && !depends_now(e, from, to))
			continue;
		e->for_now |= !always;
		if (theirs)
			return 1;
		e->mark[m] = side->mark;
		side->stack[side->depth++] = m;
	}
	return 0;
}

/*
 * The channels between y and x that y leads to (ahead) and that lead to x
 * (back), into found[0..ahead) and found[ahead..): both searches in turn,
 * so that a cycle (y leading to x: the two meet) costs at most twice the
 * shorter search. UINT32_MAX on a cycle, else ahead.
 */
static uint32_t search_both(struct escape *e, uint32_t x, uint32_t y, uint32_t *found,
			    uint32_t *back)
{
	uint32_t low = e->order[y], high = e->order[x];
	struct side ahead = { 1, e->stack, 0, found, 0, 0, 0 };
	struct side behind = { 0, e->stack_back, 0, e->found_back, 0, 0, 0 };

	if (e->epoch >= UINT32_MAX / 2 - 1) {
		memset(e->mark, 0, sizeof(uint32_t) * (e->graph->num_channels + 1));
		e->epoch = 0;
	}
	e->epoch++;
	e->for_now = 0;
	ahead.mark = behind.other = 2 * e->epoch;
	behind.mark = ahead.other = 2 * e->epoch + 1;
	start_side(e, &ahead, y);
	start_side(e, &behind, x);
	while (ahead.depth && behind.depth)
		if (step_side(e, &ahead, low, high) || step_side(e, &behind, low, high))
			return UINT32_MAX;
	while (ahead.depth)
		step_side(e, &ahead, low, high);
	while (behind.depth)
		step_side(e, &behind, low, high);
	memcpy(found + ahead.count, e->found_back, sizeof(uint32_t) * behind.count);
	*back = behind.count;
	return ahead.count;
}

static int by_place(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Order dependency x -> y, reordering the channels between them when it
 * goes against the order: those that depend on x (back) before those y
 * leads to (ahead), each keeping its order, in the places they held. -1,
 * the order unchanged, when y leads to x: the dependency closes a cycle.
 */
static int order_dependency(struct escape *e, uint32_t x, uint32_t y)
{
	uint32_t low = e->order[y], high = e->order[x], ahead, back, k, n, *found;
	uint64_t slot;

	if (low > high)
		return 0;
	slot = slot_of(e, x, y);
	if (e->cyclic[slot / 64] >> (slot % 64) & 1)
		return -1;
	found = e->indegree;	/* free outside escape_set_order */
	ahead = search_both(e, x, y, found, &back);
	if (ahead == UINT32_MAX) {
		if (!e->for_now)
			e->cyclic[slot / 64] |= (uint64_t)1 << (slot % 64);
		return -1;
	}
	n = ahead + back;
	for (k = 0; k < n; k++)
		e->moved[k] = (uint64_t)e->order[found[k]] << 32 | found[k];
	qsort(e->moved, ahead, sizeof(uint64_t), by_place);
	qsort(e->moved + ahead, back, sizeof(uint64_t), by_place);
	for (k = 0; k < n; k++)
		found[k] = (uint32_t)e->moved[k < back ? ahead + k : k - back];
	for (k = 0; k < n; k++)
		e->moved[k] >>= 32;
	qsort(e->moved, n, sizeof(uint64_t), by_place);
	for (k = 0; k < n; k++)
		e->order[found[k]] = (uint32_t)e->moved[k];
	return 0;
}

/* The cost of v's route by channel in, to a settled switch. */
static struct cost cost_via(const struct escape *e, uint32_t in)
{
	struct cost to = e->best[e->graph->channel_to[in]];

	return (struct cost){ to.hops + 1, to.load + e->load[in] };
}

/*
 * v's cheapest channel to a settled switch not yet tried, into the heap
 * (its cost into best[v], FAR if none).
 */
static void retry(struct escape *e, uint32_t v)
{
	const struct route_graph *graph = e->graph;
	uint32_t c, chosen = VLR_NONE;

	e->best[v].hops = FAR;
	for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++) {
		if (!e->done[graph->channel_to[c]] || e->tried[c] == e->epoch_lid)
			continue;
		if (cheaper(cost_via(e, c), e->best[v], e->hop)) {
			e->best[v] = cost_via(e, c);
			chosen = c;
		}
	}
	if (chosen != VLR_NONE)
		heap_push(&e->heap, weight(e->best[v], e->hop), e->best[v].hops, chosen);
}

/* The routes on a channel on the mean, at least 1. */
static uint64_t mean_load(const struct escape *e)
{
	uint64_t channels = e->graph->num_channels;

	return channels && e->total >= channels ? e->total / channels : 1;
}

/*
 * The least cost tree towards t whose dependencies all follow order[]:
 * Dijkstra from t backwards, a hop costing the links' mean load as it is
 * now (a weight that grows with the loads it is weighed against), a
 * switch settled by its cheapest channel whose dependency fits the order,
 * tried only when it is popped (so only the routes taken reorder it), the
 * next cheapest after it when it does not fit. Returns whether every
 * switch was reached.
 */
static int ordered_tree(struct escape *e, uint32_t t)
{
	const struct route_graph *graph = e->graph;
	uint32_t s = graph->num_switches, v, c, in, reached = 0;

	for (v = 0; v < s; v++) {
		e->best[v].hops = FAR;
		e->done[v] = 0;
		e->next[v] = VLR_NONE;
	}
	if (++e->epoch_lid == 0) {
		memset(e->tried, 0, sizeof(uint32_t) * (graph->num_channels + 1));
		e->epoch_lid = 1;
	}
	e->hop = mean_load(e);
	e->best[t] = (struct cost){ 0, 0 };
	e->heap.size = 0;
	heap_push(&e->heap, 0, 0, graph->num_channels);
	while (e->heap.size) {
		uint64_t cost = e->heap.at[0].first, hops = e->heap.at[0].second;

		in = heap_pop(&e->heap);
		v = in == graph->num_channels ? t : graph->channel_from[in];
		if (e->done[v] || hops != e->best[v].hops || cost != weight(e->best[v], e->hop))
			continue;	/* settled, or a cheaper channel is waiting */
		if (v != t) {
			uint32_t u = graph->channel_to[in];

			if (u != t && order_dependency(e, in, e->next[u])) {
				e->tried[in] = e->epoch_lid;
				retry(e, v);
				continue;
			}
			e->next[v] = in;
		}
		e->done[v] = 1;
		reached++;
		for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++) {
			uint32_t back = graph->channel_back[c], w = graph->channel_to[c];
			struct cost via = cost_via(e, back);

			if (e->done[w] || !cheaper(via, e->best[w], e->hop))
				continue;
			e->best[w] = via;
			heap_push(&e->heap, weight(via, e->hop), via.hops, back);
		}
	}
	return reached == s;
}

/* The channel of v's tree route towards t (down from t's ancestors, else up). */
static void tree_next_hops(struct escape *e, uint32_t t, uint32_t *tree_next)
{
	const struct route_graph *graph = e->graph;
	uint32_t v, c;

	for (v = 0; v < graph->num_switches; v++)
		tree_next[v] = e->up[v];
	tree_next[t] = VLR_NONE;
	for (v = t; (c = e->up[v]) != VLR_NONE; v = graph->channel_to[c])
		tree_next[graph->channel_to[c]] = graph->channel_back[c];
}

/* Put v on its tree route, and every switch on it (done[] = 2). */
static void onto_tree(struct escape *e, uint32_t t, const uint32_t *tree_next, uint32_t v)
{
	while (v != t && e->done[v] != 2) {
		e->done[v] = 2;
		v = e->graph->channel_to[tree_next[v]];
	}
}

/*
 * The switches ordered_tree did not reach take the tree's route, and so
 * does every switch on it; a switch whose ordered route leads onto the
 * tree's keeps it if the dependency where they join fits the order, else
 * it takes the tree's too; until no route changes. Routes along the tree
 * only turn as the tree does; the others were ordered. Returns how many
 * switches took the tree's route.
 */
static uint32_t mend_tree(struct escape *e, uint32_t t)
{
	const struct route_graph *graph = e->graph;
	uint32_t s = graph->num_switches, v, x, *tree_next = e->by_hops, on_tree = 0;
	int changed = 1;

	tree_next_hops(e, t, tree_next);
	for (v = 0; v < s; v++)
		if (!e->done[v])
			onto_tree(e, t, tree_next, v);
	while (changed) {
		changed = 0;
		for (v = 0; v < s; v++) {
			if (v == t || e->done[v] == 2)
				continue;
			x = graph->channel_to[e->next[v]];
			if (x == t || e->done[x] != 2 ||
			    !order_dependency(e, e->next[v], tree_next[x]))
				continue;
			onto_tree(e, t, tree_next, v);
			changed = 1;
		}
	}
	for (v = 0; v < s; v++) {
		if (e->done[v] == 2) {
			e->next[v] = tree_next[v];
			on_tree++;
		}
		e->best[v].hops = v == t ? 0 : FAR;
	}
	for (v = 0; v < s; v++)
		route_hops(e, v);
	return on_tree;
}

void escape_unload(struct escape *e, uint32_t lid)
{
	uint8_t last_port;

	charge_lid(e, lid, route_graph_target(e->graph, lid, &last_port), -1);
}

uint32_t escape_lid(struct escape *e, uint32_t lid)
{
	uint8_t last_port;
	uint32_t t = route_graph_target(e->graph, lid, &last_port);
	uint32_t on_tree;

	on_tree = ordered_tree(e, t) ? 0 : mend_tree(e, t);
	take_tree(e, lid, t);
	return on_tree;
}

int escape_turns_up(const struct escape *e, uint32_t in, uint32_t out)
{
	const struct route_graph *graph = e->graph;
	uint32_t from = graph->channel_from[in], at = graph->channel_to[in];

	return e->rank[at] > e->rank[from] && e->rank[graph->channel_to[out]] < e->rank[at];
}

/* The switch delivering lid when it is a host's (a switch's own LID is not), else VLR_NONE. */
static uint32_t host_target(const struct escape *e, uint32_t lid)
{
	uint8_t last_port;
	uint32_t t = route_graph_target(e->graph, lid, &last_port);

	return t != VLR_NONE && last_port ? t : VLR_NONE;
}

/*
 * Add to *sum the bandwidth the pairs routed to host LID lid (at t)
 * expect, by pair_load, and to *pairs how many they are; lids: the host
 * LIDs. A link carrying L of the pairs' routes carries, in traffic where
 * each source sends to one of the lids - 1 others, the pair's own route
 * and each of its L - 1 others with a chance of 1 / (lids - 1): about
 * (lids - 2 + L) / (lids - 1) routes, whose share the pair gets at the
 * busiest link of its route.
 */
static void lid_bandwidth(struct escape *e, uint32_t lid, uint32_t t, uint64_t lids,
			  double *sum, double *pairs)
{
	const struct route_graph *graph = e->graph;
	uint32_t k = graph->num_switches, v, c;

	read_routes(e, lid, t);
	while (k--) {		/* nearest first: the next switch's busiest is known */
		v = e->by_hops[k];
		if (v == t) {
			e->busiest[v] = 0;
			*sum += graph->sources[v] - 1;	/* no link between them */
			*pairs += graph->sources[v] - 1;
			continue;
		}
		c = e->next[v];
		e->busiest[v] = e->pair_load[c];
		if (e->busiest[graph->channel_to[c]] > e->busiest[v])
			e->busiest[v] = e->busiest[graph->channel_to[c]];
		if (!graph->sources[v])
			continue;	/* no pairs; with some, busiest[v] >= 1: their own */
		*sum += graph->sources[v] * (double)(lids - 1) / (double)(lids - 2 + e->busiest[v]);
		*pairs += graph->sources[v];
	}
}

double escape_bandwidth(struct escape *e)
{
	const struct route_graph *graph = e->graph;
	uint32_t lid, t;
	uint64_t lids = 0;
	double sum = 0, pairs = 0;

	memset(e->pair_load, 0, sizeof(uint64_t) * (graph->num_channels + 1));
	for (lid = 1; lid <= e->tables->max_lid; lid++)
		if ((t = host_target(e, lid)) != VLR_NONE) {
			read_routes(e, lid, t);
			charge(e, e->pair_load, t, e->by_hops, graph->num_switches, 1);
			lids++;
		}
	for (lid = 1; lid <= e->tables->max_lid && lids > 1; lid++)
		if ((t = host_target(e, lid)) != VLR_NONE)
			lid_bandwidth(e, lid, t, lids, &sum, &pairs);
	return pairs > 0 ? sum / pairs : 1;
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
	free(e->pair_load);
	free(e->busiest);
	free(e->carried);
	free(e->best);
	free(e->next);
	free(e->up);
	free(e->tree);
	free(e->by_hops);
	free(e->first);
	free(e->order);
	free(e->indegree);
	free(e->mark);
	free(e->stack);
	free(e->stack_back);
	free(e->found_back);
	free(e->moved);
	free(e->done);
	free(e->cyclic);
	free(e->tried);
	free(e->heap.at);
	free(e);
}

static int alloc_escape(struct escape *e, const struct route_graph *graph)
{
	uint32_t s = graph->num_switches + 1;

	e->graph = graph;
	e->rank = malloc(sizeof(uint32_t) * s);
	e->load = calloc(graph->num_channels + 1, sizeof(uint64_t));
	e->pair_load = malloc(sizeof(uint64_t) * (graph->num_channels + 1));
	e->busiest = malloc(sizeof(uint64_t) * s);
	e->carried = malloc(sizeof(uint64_t) * s);
	e->best = malloc(sizeof(struct cost) * s);
	e->next = malloc(sizeof(uint32_t) * s);
	e->up = malloc(sizeof(uint32_t) * s);
	e->tree = malloc(graph->num_channels + 1);
	e->by_hops = malloc(sizeof(uint32_t) * s);
	e->first = malloc(sizeof(uint32_t) * (2 * s + 2));
	e->order = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	e->indegree = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	e->mark = calloc(graph->num_channels + 1, sizeof(uint32_t));
	e->stack = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	e->stack_back = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	e->found_back = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	e->moved = malloc(sizeof(uint64_t) * (graph->num_channels + 1));
	e->done = malloc(s);
	e->cyclic = malloc(cyclic_bytes(e));
	e->tried = calloc(graph->num_channels + 1, sizeof(uint32_t));
	e->heap.at = malloc(sizeof(struct heap_entry) * (graph->num_channels + s + 1));
	return e->rank && e->load && e->pair_load && e->busiest && e->carried && e->best && e->next && e->up && e->tree &&
	       e->by_hops && e->first && e->order && e->indegree && e->done &&
	       e->heap.at && e->mark && e->stack && e->stack_back && e->found_back &&
	       e->moved && e->cyclic && e->tried ? 0 : -1;
}

/* Each switch's tree parent: its neighbour of the lowest rank (one nearer the root). */
static void plant_tree(struct escape *e)
{
	const struct route_graph *graph = e->graph;
	uint32_t v, c;

	for (v = 0; v < graph->num_switches; v++) {
		e->up[v] = VLR_NONE;
		for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++)
			if (e->rank[graph->channel_to[c]] < e->rank[v] &&
			    (e->up[v] == VLR_NONE ||
			     e->rank[graph->channel_to[c]] < e->rank[graph->channel_to[e->up[v]]]))
				e->up[v] = c;
	}
	memset(e->tree, 0, graph->num_channels + 1);
	for (v = 0; v < graph->num_switches; v++)
		if ((c = e->up[v]) != VLR_NONE) {
			e->tree[c] = 1;
			e->tree[graph->channel_back[c]] = -1;
		}
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
	plant_tree(e);
	for (lid = 1; lid <= tables->max_lid; lid++)
		if ((t = route_graph_target(graph, lid, &last_port)) != VLR_NONE)
			charge_lid(e, lid, t, 1);
	return e;
}
