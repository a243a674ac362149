/*
 * topology_hyperx.c - recognising a HyperX (Hamming graph) from its links.
 *
 * The neighbours of a switch split into rows: two neighbours are in the
 * same row exactly when they are linked to each other. The rows of one
 * switch (the root) give the dimensions and sides; the root's row members
 * get coordinates 1..S-1 in port order. A switch's coordinate in dimension
 * d is then the value v whose row member m(d, v) is nearest to it: the
 * distance to m(d, v) is one less when the switch already has coordinate v.
 * Finally every link must change exactly one coordinate and every switch
 * must reach all of its row neighbours.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology_internal.h"

struct hyperx_search {
	const struct vlr_switch_graph *graph;
	unsigned dims;
	unsigned sides[VLR_MAX_DIMS];
	uint32_t members[VLR_MAX_DIMS][VLR_MAX_NODE_PORTS + 1];	/* m(d, v) */
	uint16_t *coord;		/* [sw * dims + d] */
	uint32_t *queue;
	uint32_t *distance;
};

static int find_parallel_links(const struct vlr_switch_graph *graph, struct vlr_error *err)
{
	uint32_t sw, at, other;

	for (sw = 0; sw < graph->num_switches; sw++)
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++)
			for (other = at + 1; other < graph->offset[sw + 1]; other++)
				if (graph->neighbour[at] == graph->neighbour[other])
					return vlr_fail(err, "not a HyperX: switches %s and %s "
							"are linked twice (ports %u and %u)",
							topo_name(graph, sw),
							topo_name(graph, graph->neighbour[at]),
							graph->port[at], graph->port[other]);
	return 0;
}

/* A switch whose degree, and its neighbours' degrees, are the usual one. */
static int usual_neighbourhood(const struct vlr_switch_graph *graph, const uint32_t *degree,
			       uint32_t usual, uint32_t sw)
{
	uint32_t at;

	if (degree[sw] != usual)
		return 0;
	for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++)
		if (degree[graph->neighbour[at]] != usual)
			return 0;
	return 1;
}

/* The root: away from any switch a missing or extra link disturbs. */
static uint32_t choose_root(const struct vlr_switch_graph *graph)
{
	uint32_t *degree = malloc((graph->num_switches + 1ull) * sizeof(uint32_t));
	uint32_t sw, usual;

	if (!degree)
		return 0;
	for (sw = 0; sw < graph->num_switches; sw++)
		degree[sw] = vlr_switch_degree(graph, sw);
	usual = topo_mode(degree, graph->num_switches);
	for (sw = 0; sw < graph->num_switches; sw++)
		if (usual_neighbourhood(graph, degree, usual, sw))
			break;
	if (sw == graph->num_switches)
		for (sw = 0; degree[sw] != usual; sw++)
			;
	free(degree);
	return sw;
}

/* Split the root's neighbours into rows (cliques); rows become dimensions. */
static int split_rows(struct hyperx_search *search, uint32_t root, struct vlr_error *err)
{
	const struct vlr_switch_graph *graph = search->graph;
	uint32_t first = graph->offset[root], last = graph->offset[root + 1], at, other;
	uint8_t row_of[VLR_MAX_NODE_PORTS + 1];

	memset(row_of, 0xff, sizeof(row_of));
	if (first == last)
		return vlr_fail(err, "not a HyperX: switch %s has no switch links",
				topo_name(graph, root));
	for (at = first; at < last; at++) {
		if (row_of[at - first] != 0xff)
			continue;
		if (search->dims == VLR_MAX_DIMS)
			return vlr_fail(err, "not a HyperX: the links of %s would need "
					"more than %d dimensions", topo_name(graph, root),
					VLR_MAX_DIMS);
		search->members[search->dims][0] = root;
		search->sides[search->dims] = 1;
		for (other = at; other < last; other++)
			if (other == at || topo_linked(graph, graph->neighbour[at],
						       graph->neighbour[other])) {
				if (row_of[other - first] != 0xff)
					return vlr_fail(err, "not a HyperX: the neighbours "
							"of %s do not split into rows",
							topo_name(graph, root));
				row_of[other - first] = (uint8_t)search->dims;
				search->members[search->dims][search->sides[search->dims]++] =
					graph->neighbour[other];
			}
		search->dims++;
	}
	return 0;
}

static int breadth_first(struct hyperx_search *search, uint32_t from)
{
	const struct vlr_switch_graph *graph = search->graph;
	uint32_t head = 0, tail = 0, sw, at;

	for (sw = 0; sw < graph->num_switches; sw++)
		search->distance[sw] = UINT32_MAX;
	search->distance[from] = 0;
	search->queue[tail++] = from;
	while (head < tail) {
		sw = search->queue[head++];
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++)
			if (search->distance[graph->neighbour[at]] == UINT32_MAX) {
				search->distance[graph->neighbour[at]] = search->distance[sw] + 1;
				search->queue[tail++] = graph->neighbour[at];
			}
	}
	return tail == graph->num_switches ? 0 : -1;
}

/* Coordinate d of every switch: the nearest row member m(d, v). */
static int place_dimension(struct hyperx_search *search, unsigned d, uint32_t *best,
			   uint8_t *tied, struct vlr_error *err)
{
	const struct vlr_switch_graph *graph = search->graph;
	uint32_t sw;
	unsigned v;

	for (sw = 0; sw < graph->num_switches; sw++)
		best[sw] = UINT32_MAX;
	for (v = 0; v < search->sides[d]; v++) {
		if (breadth_first(search, search->members[d][v]))
			return vlr_fail(err, "not a HyperX: the switches are not all connected");
		for (sw = 0; sw < graph->num_switches; sw++) {
			uint16_t *c = &search->coord[(uint64_t)sw * search->dims + d];

			if (search->distance[sw] < best[sw]) {
				best[sw] = search->distance[sw];
				*c = (uint16_t)v;
				tied[sw] = 0;
			} else if (search->distance[sw] == best[sw]) {
				tied[sw] = 1;
			}
		}
	}
	for (sw = 0; sw < graph->num_switches; sw++)
		if (tied[sw] && search->sides[d] > 1)
			return vlr_fail(err, "not a HyperX: switch %s has no place in "
					"dimension %u: it is as near to two rows", topo_name(graph, sw), d);
	return 0;
}

static void describe_coords(const struct hyperx_search *search, const uint16_t *c,
			    char *buf, size_t size)
{
	size_t used = 0;
	unsigned d;

	for (d = 0; d < search->dims && used < size; d++)
		used += (size_t)snprintf(buf + used, size - used, d ? ",%u" : "(%u", c[d]);
	if (used < size)
		snprintf(buf + used, size - used, ")");
}

static uint64_t cell_of(const struct hyperx_search *search, const uint16_t *c)
{
	return topo_cell(search->dims, search->sides, c);
}

/* Each link changes one coordinate; returns that dimension or -1. */
static int link_dimension(const struct hyperx_search *search, uint32_t a, uint32_t b)
{
	const uint16_t *ca = &search->coord[(uint64_t)a * search->dims];
	const uint16_t *cb = &search->coord[(uint64_t)b * search->dims];
	unsigned d, differ = 0;
	int dim = -1;

	for (d = 0; d < search->dims; d++)
		if (ca[d] != cb[d]) {
			differ++;
			dim = (int)d;
		}
	return differ == 1 ? dim : -1;
}

static int check_links(const struct hyperx_search *search, struct vlr_topology *topology,
		       struct vlr_error *err)
{
	const struct vlr_switch_graph *graph = search->graph;
	char here[96], there[96];
	uint32_t sw, at;

	for (sw = 0; sw < graph->num_switches; sw++)
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			uint32_t peer = graph->neighbour[at];
			int dim = link_dimension(search, sw, peer);
			uint32_t slot = vlr_link_slot(graph, at);

			if (dim < 0) {
				describe_coords(search, &search->coord[(uint64_t)sw * search->dims],
						here, sizeof(here));
				describe_coords(search, &search->coord[(uint64_t)peer * search->dims],
						there, sizeof(there));
				return vlr_fail(err, "almost a HyperX, but switch %s %s port %u "
						"is linked to %s %s, which is not in its rows",
						topo_name(graph, sw), here, graph->port[at],
						topo_name(graph, peer), there);
			}
			topology->port_class[slot] = VLR_PORT_LOCAL;
			topology->port_dim[slot] = (uint8_t)dim;
		}
	return 0;
}

/* Every cell holds one switch, linked to every switch of its rows. */
static int check_cells(const struct hyperx_search *search, uint32_t *switch_at,
		       uint64_t cells, struct vlr_error *err)
{
	const struct vlr_switch_graph *graph = search->graph;
	uint16_t c[VLR_MAX_DIMS];
	char where[96];
	uint64_t cell;
	uint32_t sw;
	unsigned d, v;

	for (cell = 0; cell < cells; cell++)
		switch_at[cell] = VLR_NONE;
	for (sw = 0; sw < graph->num_switches; sw++) {
		cell = cell_of(search, &search->coord[(uint64_t)sw * search->dims]);
		if (switch_at[cell] != VLR_NONE) {
			describe_coords(search, &search->coord[(uint64_t)sw * search->dims],
					where, sizeof(where));
			return vlr_fail(err, "almost a HyperX, but switches %s and %s both "
					"sit at %s", topo_name(graph, switch_at[cell]),
					topo_name(graph, sw), where);
		}
		switch_at[cell] = sw;
	}
	for (cell = 0; cell < cells; cell++) {
		uint64_t rest = cell;

		for (d = 0; d < search->dims; d++) {
			c[d] = (uint16_t)(rest % search->sides[d]);
			rest /= search->sides[d];
		}
		if (switch_at[cell] == VLR_NONE) {
			describe_coords(search, c, where, sizeof(where));
			return vlr_fail(err, "almost a HyperX, but no switch sits at %s "
					"(a switch is missing)", where);
		}
	}
	for (sw = 0; sw < graph->num_switches; sw++)
		for (d = 0; d < search->dims; d++) {
			memcpy(c, &search->coord[(uint64_t)sw * search->dims],
			       search->dims * sizeof(uint16_t));
			for (v = 0; v < search->sides[d]; v++) {
				uint32_t other;

				if (v == search->coord[(uint64_t)sw * search->dims + d])
					continue;
				c[d] = (uint16_t)v;
				other = switch_at[cell_of(search, c)];
				if (!topo_linked(graph, sw, other))
					return vlr_fail(err, "almost a HyperX, but switches %s "
							"and %s (same row of dimension %u) are "
							"not linked", topo_name(graph, sw),
							topo_name(graph, other), d);
			}
		}
	return 0;
}

/* 0, or the verdict: 2 when the sizes do not fit, 3 when a switch or link does not. */
static int check_placement(struct hyperx_search *search, struct vlr_topology *topology,
			   struct vlr_error *err)
{
	uint64_t cells = 1;
	uint32_t *switch_at;
	unsigned d;
	int failed;

	for (d = 0; d < search->dims; d++)
		cells *= search->sides[d];
	if (cells > 4 * (uint64_t)search->graph->num_switches + 16) {
		vlr_fail(err, "not a HyperX: the rows of %s promise %llu switches, "
			 "there are %u", topo_name(search->graph, search->members[0][0]),
			 (unsigned long long)cells, search->graph->num_switches);
		return 2;
	}
	switch_at = malloc(cells * sizeof(uint32_t));
	if (!switch_at) {
		vlr_fail(err, "out of memory for the HyperX cells");
		return 2;
	}
	failed = check_cells(search, switch_at, cells, err) ||
		 check_links(search, topology, err);
	free(switch_at);
	return failed ? 3 : 0;
}

static void fill_topology(const struct hyperx_search *search, struct vlr_topology *topology)
{
	struct vlr_grid_params *grid = &topology->params.u.grid;

	topology->params.family = VLR_FAMILY_HYPERX;
	grid->dims = search->dims;
	memcpy(grid->sides, search->sides, sizeof(grid->sides));
	grid->hosts = topo_most_hosts(search->graph);
	topology->num_groups = 1;
	topology->arrangement_known = 1;
	topology->coord = search->coord;
}

static int place_all(struct hyperx_search *search, struct vlr_error *err)
{
	uint32_t n = search->graph->num_switches;
	uint32_t *best = malloc((n + 1ull) * sizeof(uint32_t));
	uint8_t *tied = calloc(n + 1ull, 1);
	unsigned d;
	int failed = 0;

	if (!best || !tied)
		failed = vlr_fail(err, "out of memory for the HyperX coordinates");
	for (d = 0; d < search->dims && !failed; d++)
		failed = place_dimension(search, d, best, tied, err);
	free(best);
	free(tied);
	return failed;
}

int topo_recognise_hyperx(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			  struct vlr_error *err)
{
	struct hyperx_search search;
	uint32_t n = graph->num_switches;
	int verdict = 0;

	memset(&search, 0, sizeof(search));
	search.graph = graph;
	if (find_parallel_links(graph, err) || split_rows(&search, choose_root(graph), err))
		return 1;
	search.coord = calloc((uint64_t)n * search.dims + 1, sizeof(uint16_t));
	search.queue = malloc((n + 1ull) * sizeof(uint32_t));
	search.distance = malloc((n + 1ull) * sizeof(uint32_t));
	if (!search.coord || !search.queue || !search.distance) {
		vlr_fail(err, "out of memory for the HyperX search");
		verdict = 1;
	} else if (place_all(&search, err)) {
		verdict = 2;
	} else {
		verdict = check_placement(&search, topology, err);
	}
	free(search.queue);
	free(search.distance);
	if (verdict) {
		free(search.coord);
		return verdict;
	}
	fill_topology(&search, topology);
	return 0;
}
