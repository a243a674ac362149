/*
 * topology.h - recognising a low-diameter topology from the graph alone.
 *
 * vlr_topology_recognise looks only at links (node names and descriptions
 * are never needed) and finds one of
 *   - a HyperX: the dimensions, their sides and the coordinates of every
 *     switch (two switches are linked when they differ in one coordinate);
 *   - a Dragonfly: groups of a routers forming complete graphs, p hosts and
 *     h global links per router, g groups;
 *   - a Dragonfly+: groups that are complete bipartite graphs of leaves
 *     (with the hosts) and spines (with the global links).
 * Every switch-to-switch port gets a class (local, global, up, down, the
 * HyperX dimension), which routing, VL policies, traffic patterns and
 * analyses use. A fabric that is almost one of them gets a message naming
 * what does not fit and where (switch, port, expected neighbour).
 *
 * Canonical numbering. Groups, indices and coordinates depend on the links
 * and the switches' node GUIDs only, never on the order of the nodes in a
 * file, and are the generator's own for a fabric that vlroute gen wrote:
 *   - HyperX: the origin (coordinate 0 everywhere) is the switch with the
 *     lowest GUID; in each dimension the members of the origin's row take
 *     the values 0, 1, ... in increasing GUID order; the dimensions are
 *     numbered by the lowest GUID among the origin's row members other than
 *     the origin (the row holding the origin's lowest-GUID neighbour is
 *     dimension 0), and the sides follow.
 *   - Dragonfly and Dragonfly+: every switch takes the group, role and
 *     index of its twin in the fabric vlroute gen makes from the
 *     recognised parameters, matched as follows. If the switches in GUID
 *     order are that fabric's switches in order (a fabric vlroute gen wrote,
 *     whatever the order of its file), generated with the palmtree or else
 *     the consecutive arrangement, they are matched so. Otherwise they are
 *     matched onto the palmtree fabric, or if the graph is not that one
 *     onto the consecutive one, by the least isomorphism: the one that
 *     lists the switches' GUIDs in the generator's switch order smallest
 *     first (generated switch 0 is the lowest-GUID switch that some
 *     isomorphism maps onto it, switch 1 the lowest-GUID one given that,
 *     ...). When neither arrangement fits (or the search gives up, see
 *     topology_match.c), groups are numbered by their lowest GUID and the
 *     routers (Dragonfly+: leaves, and spines) of a group by GUID.
 * Switches with equal GUIDs (fabrics built without GUIDs) go by node order.
 * switch_order lists the switches in the generator's order for these
 * numbers: HyperX by coordinates with dimension 0 varying fastest, the
 * Dragonflies group by group, a group's routers by index (Dragonfly+: its
 * leaves, then its spines).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TOPOLOGY_H
#define VLROUTE_TOPOLOGY_H

#include <stdint.h>

#include <vlroute/fabric.h>

/* What a port of a switch leads to. */
enum vlr_port_class {
	VLR_PORT_NONE = 0,	/* unlinked, or not a switch port */
	VLR_PORT_HOST,		/* to a CA or router */
	VLR_PORT_LOCAL,		/* Dragonfly: to a router of the same group;
				   HyperX: to a switch of the same row */
	VLR_PORT_GLOBAL,	/* Dragonfly, Dragonfly+: to another group */
	VLR_PORT_UP,		/* Dragonfly+: leaf to spine */
	VLR_PORT_DOWN,		/* Dragonfly+: spine to leaf */
};

enum vlr_switch_role {
	VLR_ROLE_ROUTER = 0,	/* HyperX switch, Dragonfly router */
	VLR_ROLE_LEAF,		/* Dragonfly+ */
	VLR_ROLE_SPINE,		/* Dragonfly+ */
};

struct vlr_topology {
	/*
	 * family is VLR_FAMILY_HYPERX, _DRAGONFLY or _DRAGONFLYPLUS. For a
	 * HyperX, u.grid gives dims and sides (hosts: the most hosts on a
	 * switch); for the Dragonflies p/a/h/g (leaves/spines/hosts/globals/
	 * groups). The arrangement is the one whose generated fabric the
	 * canonical numbering maps the switches onto, else left at palmtree
	 * with arrangement_known = 0.
	 */
	struct vlr_family_params params;
	int arrangement_known;

	uint32_t num_switches;
	uint32_t *switch_node;		/* switch index -> node */
	uint32_t *switch_of_node;	/* node -> switch index or VLR_NONE */
	uint32_t *switch_order;		/* the switch indices in canonical order */

	/*
	 * Per switch, canonical (see above). HyperX: coord[sw * dims + d];
	 * group 0 for all. Dragonfly: group and index (0..a-1) of the router
	 * within it. Dragonfly+: group; index of the leaf (0..L-1) or spine
	 * (0..S-1).
	 */
	uint16_t *coord;		/* HyperX only, else NULL */
	uint32_t *group;
	uint16_t *index_in_group;
	uint8_t *role;			/* enum vlr_switch_role */
	uint32_t num_groups;		/* 1 for a HyperX */

	/* Per port slot of the fabric (port 0 and endpoint ports: NONE). */
	uint8_t *port_class;		/* enum vlr_port_class */
	uint8_t *port_dim;		/* HyperX: dimension of a LOCAL port */
};

/*
 * Recognise fabric (a family or VLR_FAMILY_NONE for "any of the three").
 * Returns 0 and fills topology, or -1 with err saying what does not fit,
 * naming switches and ports (e.g. "switch hx_1_2 port 7: linked to hx_3_3,
 * which differs in 2 coordinates").
 */
int vlr_topology_recognise(const struct vlr_fabric *fabric, enum vlr_family family,
			   struct vlr_topology *topology, struct vlr_error *err);
void vlr_topology_free(struct vlr_topology *topology);

/*
 * The families recognised from the graph by name: "hyperx", "dragonfly",
 * "dragonfly+"; the name of VLR_FAMILY_NONE is "any". On a refusal err
 * reads "hyperx, dragonfly or dragonfly+, not \"torus\"".
 */
int vlr_topology_family_parse(const char *text, enum vlr_family *family,
			      struct vlr_error *err);
const char *vlr_topology_family_name(enum vlr_family family);

#endif
