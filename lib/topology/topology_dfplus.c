/*
 * topology_dfplus.c - recognising a Dragonfly+ from its links.
 *
 * Leaves are the switches with hosts, spines those without. A group is a
 * set of leaves and spines joined by leaf-spine links; it must be a
 * complete bipartite graph of L leaves and S spines, leaves link only to
 * their spines, and every spine has H global links to spines of other
 * groups, every pair of groups being linked.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "topology_internal.h"

static int assign_roles(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			struct vlr_error *err)
{
	uint32_t sw, leaves = 0;

	for (sw = 0; sw < graph->num_switches; sw++) {
		topology->role[sw] = graph->hosts[sw] ? VLR_ROLE_LEAF : VLR_ROLE_SPINE;
		leaves += graph->hosts[sw] != 0;
	}
	if (!leaves || leaves == graph->num_switches)
		return vlr_fail(err, "not a Dragonfly+: %s",
				leaves ? "every switch has hosts, none can be a spine" :
					 "no switch has hosts, none can be a leaf");
	return 0;
}

/* Leaves link only to spines; join each leaf with its spines. */
static int join_leaves(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		       struct topo_groups *groups, struct vlr_error *err)
{
	uint32_t sw, at;

	for (sw = 0; sw < graph->num_switches; sw++) {
		if (topology->role[sw] != VLR_ROLE_LEAF)
			continue;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			if (topology->role[graph->neighbour[at]] == VLR_ROLE_LEAF)
				return vlr_fail(err, "not a Dragonfly+: leaf %s port %u is "
						"linked to leaf %s", topo_name(graph, sw),
						graph->port[at], topo_name(graph, graph->neighbour[at]));
			topo_groups_join(groups, sw, graph->neighbour[at]);
		}
	}
	return 0;
}

static void number_in_groups(struct vlr_topology *topology, uint32_t *leaves,
			     uint32_t *spines)
{
	uint32_t sw;

	memset(leaves, 0, topology->num_groups * sizeof(uint32_t));
	memset(spines, 0, topology->num_groups * sizeof(uint32_t));
	for (sw = 0; sw < topology->num_switches; sw++) {
		uint32_t *count = topology->role[sw] == VLR_ROLE_LEAF ? leaves : spines;

		topology->index_in_group[sw] = (uint16_t)count[topology->group[sw]]++;
	}
}

static uint32_t switch_of_group(const struct vlr_topology *topology, uint32_t group)
{
	uint32_t sw;

	for (sw = 0; topology->group[sw] != group; sw++)
		;
	return sw;
}

static int check_sizes(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		       uint32_t *leaves, uint32_t *spines, struct vlr_error *err)
{
	struct vlr_dragonflyplus_params *dfp = &topology->params.u.dragonflyplus;
	uint32_t odd_leaves, odd_spines, l, s;

	number_in_groups(topology, leaves, spines);
	odd_leaves = topo_first_unusual(leaves, topology->num_groups, &l);
	odd_spines = topo_first_unusual(spines, topology->num_groups, &s);
	if (topology->num_groups < 2 || !s || !l) {
		vlr_fail(err, "not a Dragonfly+: no groups of leaves and spines");
		return 1;
	}
	if (odd_leaves != VLR_NONE || odd_spines != VLR_NONE) {
		uint32_t odd = odd_leaves != VLR_NONE ? odd_leaves : odd_spines;

		vlr_fail(err, "almost a Dragonfly+, but the group of %s has %u leaves and "
			 "%u spines, the others %u and %u",
			 topo_name(graph, switch_of_group(topology, odd)), leaves[odd],
			 spines[odd], l, s);
		return 3;
	}
	dfp->leaves = l;
	dfp->spines = s;
	return 0;
}

/* Leaf-spine links complete inside groups; spine-spine links between them. */
static int check_links(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		       uint32_t *globals, struct vlr_error *err)
{
	const struct vlr_dragonflyplus_params *dfp = &topology->params.u.dragonflyplus;
	uint32_t sw, at, down;

	for (sw = 0; sw < graph->num_switches; sw++) {
		int spine = topology->role[sw] == VLR_ROLE_SPINE;

		down = globals[sw] = 0;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			uint32_t peer = graph->neighbour[at];
			uint32_t slot = vlr_link_slot(graph, at);
			int same = topology->group[peer] == topology->group[sw];

			if (spine && topology->role[peer] == VLR_ROLE_SPINE && same) {
				vlr_fail(err, "almost a Dragonfly+, but spines %s and %s of one "
					 "group are linked", topo_name(graph, sw), topo_name(graph, peer));
				return 3;
			}
			topology->port_class[slot] = !spine ? VLR_PORT_UP :
						     same ? VLR_PORT_DOWN : VLR_PORT_GLOBAL;
			down += spine && same;
			globals[sw] += spine && !same;
		}
		if (spine ? down != dfp->leaves : vlr_switch_degree(graph, sw) != dfp->spines) {
			vlr_fail(err, "almost a Dragonfly+, but %s %s has %u links inside its "
				 "group of %u leaves and %u spines", spine ? "spine" : "leaf",
				 topo_name(graph, sw), spine ? down : vlr_switch_degree(graph, sw),
				 dfp->leaves, dfp->spines);
			return 3;
		}
	}
	return 0;
}

static int check_globals(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			 uint32_t *globals, struct vlr_error *err)
{
	uint32_t sw, spines = 0, odd, usual;

	for (sw = 0; sw < graph->num_switches; sw++)
		if (topology->role[sw] == VLR_ROLE_SPINE)
			globals[spines++] = globals[sw];
	odd = topo_first_unusual(globals, spines, &usual);
	if (odd != VLR_NONE || !usual) {
		vlr_fail(err, "almost a Dragonfly+, but the spines do not all have the "
			 "same number of global links (most have %u)", usual);
		return 3;
	}
	topology->params.u.dragonflyplus.globals = usual;
	return 0;
}

static void fill_params(const struct vlr_switch_graph *graph, struct vlr_topology *topology)
{
	struct vlr_dragonflyplus_params *dfp = &topology->params.u.dragonflyplus;

	topology->params.family = VLR_FAMILY_DRAGONFLYPLUS;
	dfp->groups = topology->num_groups;
	dfp->hosts = topo_most_hosts(graph);
	dfp->arrangement = VLR_ARRANGEMENT_PALMTREE;
}

int topo_recognise_dragonflyplus(const struct vlr_switch_graph *graph,
				 struct vlr_topology *topology, struct vlr_error *err)
{
	uint32_t n = graph->num_switches;
	uint32_t *scratch = malloc((2ull * n + 2) * sizeof(uint32_t));
	struct topo_groups groups;
	int verdict = 0;

	if (!scratch || topo_groups_init(&groups, n, err)) {
		free(scratch);
		vlr_fail(err, "out of memory for the Dragonfly+ groups");
		return 1;
	}
	if (assign_roles(graph, topology, err))
		verdict = 1;
	else if (join_leaves(graph, topology, &groups, err))
		verdict = 2;
	topology->num_groups = topo_groups_number(&groups, n, topology->group);
	topo_groups_free(&groups);
	if (!verdict)
		verdict = check_sizes(graph, topology, scratch, scratch + n + 1, err);
	if (!verdict)
		verdict = check_links(graph, topology, scratch, err);
	if (!verdict)
		verdict = check_globals(graph, topology, scratch, err);
	if (!verdict && topo_check_group_pairs(graph, topology, err))
		verdict = 3;
	free(scratch);
	if (verdict)
		return verdict;
	fill_params(graph, topology);
	return 0;
}
