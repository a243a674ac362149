/*
 * topology_internal.h - what the recognisers of the three families share:
 * helpers over the fabric's switch graph (struct vlr_switch_graph, which
 * has the port of every link and the hosts of every switch), and the
 * verdict of an attempt (how far it got, so that the best failure message
 * is kept).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TOPOLOGY_INTERNAL_H
#define VLROUTE_TOPOLOGY_INTERNAL_H

#include <vlroute/gen.h>
#include <vlroute/topology.h>

/* The most hosts (endpoint links) on one switch. */
unsigned topo_most_hosts(const struct vlr_switch_graph *graph);

int topo_linked(const struct vlr_switch_graph *graph, uint32_t a, uint32_t b);
const char *topo_name(const struct vlr_switch_graph *graph, uint32_t sw);

/* The most common value of values[0..count) (the smallest on ties). */
uint32_t topo_mode(const uint32_t *values, uint32_t count);

/* Index of the first value that is not the most common one, or VLR_NONE. */
uint32_t topo_first_unusual(const uint32_t *values, uint32_t count, uint32_t *usual);

/* A HyperX cell: coordinates as one number, the first dimension fastest. */
uint64_t topo_cell(unsigned dims, const unsigned *sides, const uint16_t *coord);

/*
 * Hand the per-switch arrays to the topology and set the port classes of
 * host links; recognisers then classify the switch-to-switch ports.
 */
int topo_start(struct vlr_topology *topology, const struct vlr_switch_graph *graph,
	       struct vlr_error *err);

/*
 * Each recogniser returns 0 on success, or how far it got (1 = the shape
 * is wrong from the start .. 3 = almost: a link or a switch out of place)
 * with err explaining.
 */
int topo_recognise_hyperx(const struct vlr_switch_graph *graph,
			  struct vlr_topology *topology, struct vlr_error *err);
int topo_recognise_dragonfly(const struct vlr_switch_graph *graph,
			     struct vlr_topology *topology, struct vlr_error *err);
int topo_recognise_dragonflyplus(const struct vlr_switch_graph *graph,
				 struct vlr_topology *topology, struct vlr_error *err);

/*
 * Groups of switches for the Dragonflies: union-find over the links a
 * recogniser calls local. Group numbers follow the smallest switch until
 * topo_canonical renumbers them.
 */
struct topo_groups {
	uint32_t *parent;
	uint32_t count;
};

int topo_groups_init(struct topo_groups *groups, uint32_t switches,
		     struct vlr_error *err);
void topo_groups_join(struct topo_groups *groups, uint32_t a, uint32_t b);
/* Number the groups 0..count-1 into group[switch]; returns the count. */
uint32_t topo_groups_number(struct topo_groups *groups, uint32_t switches,
			    uint32_t *group);
void topo_groups_free(struct topo_groups *groups);

/* Does every pair of groups have a global link? Names a pair that has not. */
int topo_check_group_pairs(const struct vlr_switch_graph *graph,
			   const struct vlr_topology *topology, struct vlr_error *err);

/*
 * The canonical numbering (topology.h) of what a recogniser found: HyperX
 * coordinates, or the groups, roles, indices and arrangement of the
 * Dragonflies; then switch_order. -1 with err when out of memory.
 */
int topo_canonical(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		   struct vlr_error *err);

/*
 * The least isomorphism of graph onto model (topology_match.c): model_of
 * [switch] receives the model switch, the isomorphism listing the GUIDs of
 * the graph's switches in model order smallest first. by_guid lists the
 * graph's switches by GUID; kind and model_kind give each switch of either
 * graph a class an isomorphism must keep (a role). Returns 0 when found, 1
 * when there is none or the search gave up, -1 with err out of memory.
 */
int topo_match_least(const struct vlr_switch_graph *graph, const struct vlr_switch_graph *model,
		     const uint32_t *by_guid, const uint8_t *kind, const uint8_t *model_kind,
		     uint32_t *model_of, struct vlr_error *err);

/* The same for the one map that takes by_guid[i] onto model switch i. */
int topo_match_in_order(const struct vlr_switch_graph *graph, const struct vlr_switch_graph *model,
			const uint32_t *by_guid, const uint8_t *kind, const uint8_t *model_kind,
			uint32_t *model_of, struct vlr_error *err);

#endif
