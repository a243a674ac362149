/*
 * topology_dragonfly.c - recognising a Dragonfly from its links.
 *
 * A router's group is the largest clique among it and its neighbours:
 * with one global link per pair of groups, a global neighbour shares no
 * neighbour with a local one, so growing a clique from a local neighbour
 * collects the whole group and from a global one stays small. Groups must
 * then be complete graphs of equal size a >= 3, every router must have the
 * same number h of global links, and every pair of groups must be linked.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "topology_internal.h"

/* Grow a clique from {sw, seed} over sw's neighbours in port order. */
static unsigned grow_clique(const struct vlr_switch_graph *graph, uint32_t sw, uint32_t seed,
			    uint32_t *clique)
{
	unsigned size = 2, i;
	uint32_t at;

	clique[0] = sw;
	clique[1] = seed;
	for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
		uint32_t candidate = graph->neighbour[at];

		for (i = 0; i < size; i++)
			if (candidate == clique[i] || !topo_linked(graph, candidate, clique[i]))
				break;
		if (i == size)
			clique[size++] = candidate;
	}
	return size;
}

/* Join every router with the members of its largest clique. */
static void join_cliques(const struct vlr_switch_graph *graph, struct topo_groups *groups)
{
	uint32_t best[VLR_MAX_NODE_PORTS + 1], trial[VLR_MAX_NODE_PORTS + 1];
	uint32_t sw, at;
	unsigned best_size, size, i;

	for (sw = 0; sw < graph->num_switches; sw++) {
		best_size = 0;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			size = grow_clique(graph, sw, graph->neighbour[at], trial);
			if (size > best_size) {
				best_size = size;
				memcpy(best, trial, size * sizeof(uint32_t));
			}
		}
		for (i = 1; i < best_size && best_size > 2; i++)
			topo_groups_join(groups, sw, best[i]);
	}
}

static void count_members(struct vlr_topology *topology, uint32_t *size)
{
	uint32_t sw;

	memset(size, 0, topology->num_groups * sizeof(uint32_t));
	for (sw = 0; sw < topology->num_switches; sw++)
		topology->index_in_group[sw] = (uint16_t)size[topology->group[sw]]++;
}

/* Groups of one size a >= 3. */
static int check_groups(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			uint32_t *size, uint32_t *first, struct vlr_error *err)
{
	uint32_t odd, a, sw;

	count_members(topology, size);
	for (sw = graph->num_switches; sw-- > 0;)
		first[topology->group[sw]] = sw;
	odd = topo_first_unusual(size, topology->num_groups, &a);
	if (a < 3 || topology->num_groups < 2) {
		vlr_fail(err, "not a Dragonfly: no groups of three or more fully linked "
			 "routers");
		return 1;
	}
	if (odd != VLR_NONE) {
		vlr_fail(err, "almost a Dragonfly, but the group of %s has %u routers, "
			 "the others %u", topo_name(graph, first[odd]), size[odd], a);
		return 3;
	}
	topology->params.u.dragonfly.a = a;
	return 0;
}

/* A router has too few or too many links inside its group: say which. */
static int complain_locals(const struct vlr_switch_graph *graph,
			   const struct vlr_topology *topology, uint32_t sw,
			   uint32_t locals, struct vlr_error *err)
{
	uint32_t other;

	for (other = 0; other < graph->num_switches; other++)
		if (other != sw && topology->group[other] == topology->group[sw] &&
		    !topo_linked(graph, sw, other)) {
			vlr_fail(err, "almost a Dragonfly, but routers %s and %s of one "
				 "group are not linked", topo_name(graph, sw),
				 topo_name(graph, other));
			return 3;
		}
	vlr_fail(err, "almost a Dragonfly, but router %s has %u links inside its "
		 "group of %u", topo_name(graph, sw), locals, topology->params.u.dragonfly.a);
	return 3;
}

/* Classify links; every router has a - 1 local and h global links. */
static int check_links(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		       uint32_t *globals, struct vlr_error *err)
{
	unsigned a = topology->params.u.dragonfly.a;
	uint32_t sw, at, locals, odd, h;

	for (sw = 0; sw < graph->num_switches; sw++) {
		locals = globals[sw] = 0;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			int local = topology->group[graph->neighbour[at]] == topology->group[sw];
			uint32_t slot = vlr_link_slot(graph, at);

			topology->port_class[slot] = local ? VLR_PORT_LOCAL : VLR_PORT_GLOBAL;
			if (local)
				locals++;
			else
				globals[sw]++;
		}
		if (locals != a - 1)
			return complain_locals(graph, topology, sw, locals, err);
	}
	odd = topo_first_unusual(globals, graph->num_switches, &h);
	if (odd != VLR_NONE || !h) {
		vlr_fail(err, "almost a Dragonfly, but router %s has %u global links, "
			 "the others %u", topo_name(graph, odd == VLR_NONE ? 0 : odd),
			 globals[odd == VLR_NONE ? 0 : odd], h);
		return 3;
	}
	topology->params.u.dragonfly.h = h;
	return 0;
}

static void fill_params(const struct vlr_switch_graph *graph, struct vlr_topology *topology)
{
	struct vlr_dragonfly_params *df = &topology->params.u.dragonfly;

	topology->params.family = VLR_FAMILY_DRAGONFLY;
	df->g = topology->num_groups;
	df->p = topo_most_hosts(graph);
	df->arrangement = VLR_ARRANGEMENT_PALMTREE;
}

int topo_recognise_dragonfly(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			     struct vlr_error *err)
{
	uint32_t n = graph->num_switches;
	uint32_t *scratch = malloc((2ull * n + 2) * sizeof(uint32_t));
	struct topo_groups groups;
	int verdict;

	if (!scratch || topo_groups_init(&groups, n, err)) {
		free(scratch);
		vlr_fail(err, "out of memory for the Dragonfly groups");
		return 1;
	}
	join_cliques(graph, &groups);
	topology->num_groups = topo_groups_number(&groups, n, topology->group);
	topo_groups_free(&groups);
	verdict = check_groups(graph, topology, scratch, scratch + n + 1, err);
	if (!verdict)
		verdict = check_links(graph, topology, scratch, err);
	if (!verdict && topo_check_group_pairs(graph, topology, err))
		verdict = 3;
	free(scratch);
	if (verdict)
		return verdict;
	fill_params(graph, topology);
	return 0;
}
