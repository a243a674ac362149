/*
 * topology_canonical.c - the canonical numbering of a recognised topology
 * (the rules are in topology.h): HyperX coordinates renumbered from the
 * rows of the lowest-GUID switch; the Dragonflies' groups, roles and
 * indices taken from the least isomorphism onto a generated twin
 * (topology_match.c), else by GUID; and the switches in canonical order.
 *
 * The recognisers number as their searches go (in node order); this file
 * only renumbers what they found, so that traffic patterns, routing and
 * reports mean the same switch whatever file the fabric came from.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "topology_internal.h"

/* A switch as the canonical rules order it: by GUID, then by index. */
struct guid_key {
	uint64_t guid;
	uint32_t sw;
	uint32_t item;			/* what is being ordered (a value, a dimension) */
};

static int compare_keys(const void *a, const void *b)
{
	const struct guid_key *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->sw < y->sw ? -1 : x->sw > y->sw;
}

static struct guid_key key_of(const struct vlr_switch_graph *graph, uint32_t sw, uint32_t item)
{
	return (struct guid_key){ graph->fabric->nodes[graph->node_of[sw]].guid, sw, item };
}

static int switches_by_guid(const struct vlr_switch_graph *graph, uint32_t *sorted,
			    struct vlr_error *err)
{
	struct guid_key *keys = malloc((graph->num_switches + 1ull) * sizeof(*keys));
	uint32_t sw;

	if (!keys)
		return vlr_fail(err, "out of memory for ordering %u switches", graph->num_switches);
	for (sw = 0; sw < graph->num_switches; sw++)
		keys[sw] = key_of(graph, sw, sw);
	qsort(keys, graph->num_switches, sizeof(*keys), compare_keys);
	for (sw = 0; sw < graph->num_switches; sw++)
		sorted[sw] = keys[sw].sw;
	free(keys);
	return 0;
}

/* ---- HyperX -------------------------------------------------------------- */

struct grid_renumbering {
	unsigned dims;
	unsigned sides[VLR_MAX_DIMS];
	uint16_t value[VLR_MAX_DIMS][VLR_MAX_NODE_PORTS + 2];	/* [d][old]: new */
	unsigned dim[VLR_MAX_DIMS];				/* [old]: new */
};

static uint32_t cell_of(const struct grid_renumbering *r, const uint16_t *coord)
{
	return (uint32_t)topo_cell(r->dims, r->sides, coord);
}

/*
 * New values in dimension d: the origin's row members by GUID. Returns the
 * key of the row (its lowest-GUID member other than the origin).
 */
static struct guid_key number_row(const struct vlr_switch_graph *graph,
				  const struct vlr_topology *topology, const uint32_t *switch_at,
				  uint32_t origin, unsigned d, struct grid_renumbering *r)
{
	struct guid_key members[VLR_MAX_NODE_PORTS + 2];
	uint16_t coord[VLR_MAX_DIMS];
	unsigned v;

	memcpy(coord, &topology->coord[(uint64_t)origin * r->dims], r->dims * sizeof(uint16_t));
	for (v = 0; v < r->sides[d]; v++) {
		coord[d] = (uint16_t)v;
		members[v] = key_of(graph, switch_at[cell_of(r, coord)], v);
	}
	qsort(members, r->sides[d], sizeof(members[0]), compare_keys);
	for (v = 0; v < r->sides[d]; v++)
		r->value[d][members[v].item] = (uint16_t)v;
	members[1].item = d;
	return members[1];
}

static void apply_grid(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		       const struct grid_renumbering *r, uint16_t *coord)
{
	struct vlr_grid_params *grid = &topology->params.u.grid;
	uint32_t sw, port;
	unsigned d;

	for (sw = 0; sw < graph->num_switches; sw++)
		for (d = 0; d < r->dims; d++)
			coord[(uint64_t)sw * r->dims + r->dim[d]] =
				r->value[d][topology->coord[(uint64_t)sw * r->dims + d]];
	memcpy(topology->coord, coord, (uint64_t)graph->num_switches * r->dims * sizeof(uint16_t));
	for (d = 0; d < r->dims; d++)
		grid->sides[r->dim[d]] = r->sides[d];
	for (port = 0; port < graph->fabric->num_ports; port++)
		if (topology->port_class[port] == VLR_PORT_LOCAL)
			topology->port_dim[port] = (uint8_t)r->dim[topology->port_dim[port]];
}

/*
 * Renumber the recogniser's coordinates (which follow its root's ports):
 * the origin is the lowest-GUID switch, values and dimensions go by GUID.
 */
static int canonical_hyperx(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			    const uint32_t *by_guid, struct vlr_error *err)
{
	struct grid_renumbering r;
	struct guid_key rows[VLR_MAX_DIMS];
	uint32_t n = graph->num_switches, sw, *switch_at = malloc((n + 1ull) * sizeof(uint32_t));
	uint16_t *coord = malloc(((uint64_t)n * topology->params.u.grid.dims + 1) *
				 sizeof(uint16_t));
	unsigned d;

	if (!switch_at || !coord) {
		free(switch_at);
		free(coord);
		return vlr_fail(err, "out of memory for the HyperX coordinates");
	}
	memset(&r, 0, sizeof(r));
	r.dims = topology->params.u.grid.dims;
	memcpy(r.sides, topology->params.u.grid.sides, sizeof(r.sides));
	for (sw = 0; sw < n; sw++)
		switch_at[cell_of(&r, &topology->coord[(uint64_t)sw * r.dims])] = sw;
	for (d = 0; d < r.dims; d++)
		rows[d] = number_row(graph, topology, switch_at, by_guid[0], d, &r);
	qsort(rows, r.dims, sizeof(rows[0]), compare_keys);
	for (d = 0; d < r.dims; d++)
		r.dim[rows[d].item] = d;
	apply_grid(graph, topology, &r, coord);
	free(switch_at);
	free(coord);
	return 0;
}

/* ---- Dragonfly and Dragonfly+ ------------------------------------------ */

/* Switches of one group in the generator's order: routers, or leaves then spines. */
static unsigned switches_per_group(const struct vlr_family_params *params)
{
	return params->family == VLR_FAMILY_DRAGONFLY ? params->u.dragonfly.a :
	       params->u.dragonflyplus.leaves + params->u.dragonflyplus.spines;
}

/* Group, role and index of the generator's switch `position`. */
static void place(struct vlr_topology *topology, uint32_t sw, uint32_t position)
{
	const struct vlr_family_params *params = &topology->params;
	unsigned per_group = switches_per_group(params), within = position % per_group;
	unsigned leaves = params->u.dragonflyplus.leaves;

	topology->group[sw] = position / per_group;
	if (params->family == VLR_FAMILY_DRAGONFLY) {
		topology->index_in_group[sw] = (uint16_t)within;
		return;
	}
	topology->role[sw] = within < leaves ? VLR_ROLE_LEAF : VLR_ROLE_SPINE;
	topology->index_in_group[sw] = (uint16_t)(within < leaves ? within : within - leaves);
}

struct twin_search {
	const struct vlr_switch_graph *graph;
	const uint32_t *by_guid;
	uint8_t *kind;			/* [switch]: 0 router, 1 leaf, 2 spine */
	uint8_t *model_kind;
	uint32_t *model_of;		/* [switch]: its twin in the generated fabric */
};

/*
 * Match the fabric onto its twin generated with `arrangement`: in GUID
 * order only, or by the least isomorphism. 0 when matched, 1 when not, -1.
 */
static int match_arrangement(struct twin_search *s, const struct vlr_topology *topology,
			     enum vlr_arrangement arrangement, int in_order, struct vlr_error *err)
{
	struct vlr_family_params params = topology->params;
	struct vlr_switch_graph model;
	struct vlr_fabric *fabric = vlr_fabric_new();
	uint32_t sw, n = s->graph->num_switches;
	int result = 1;

	if (!fabric)
		return vlr_fail(err, "out of memory for a generated twin");
	if (params.family == VLR_FAMILY_DRAGONFLY)
		params.u.dragonfly.arrangement = arrangement;
	else
		params.u.dragonflyplus.arrangement = arrangement;
	if (!vlr_generate(fabric, &params, NULL) && !vlr_switch_graph_build(fabric, &model, NULL)) {
		for (sw = 0; sw < model.num_switches && sw < n; sw++)
			s->model_kind[sw] = params.family == VLR_FAMILY_DRAGONFLY ? 0 :
					    model.hosts[sw] ? 1 : 2;
		result = (in_order ? topo_match_in_order : topo_match_least)(
			s->graph, &model, s->by_guid, s->kind, s->model_kind, s->model_of, err);
		vlr_switch_graph_free(&model);
	}
	vlr_fabric_free(fabric);
	return result;
}

/*
 * The first arrangement that the switches in GUID order are generated in;
 * else the first onto which the fabric maps at all. 0 with s->model_of and
 * *arrangement, 1 when none fits, -1.
 */
static int find_arrangement(struct twin_search *s, const struct vlr_topology *topology,
			    enum vlr_arrangement *arrangement, struct vlr_error *err)
{
	static const enum vlr_arrangement arrangements[] = {
		VLR_ARRANGEMENT_PALMTREE, VLR_ARRANGEMENT_CONSECUTIVE
	};
	int in_order, result;
	unsigned i;

	for (in_order = 1; in_order >= 0; in_order--)
		for (i = 0; i < 2; i++) {
			result = match_arrangement(s, topology, arrangements[i], in_order, err);
			if (result <= 0) {
				*arrangement = arrangements[i];
				return result;
			}
		}
	return 1;
}

/* Groups by their lowest GUID; in a group, each role's switches by GUID. */
static int number_by_guid(struct vlr_topology *topology, const uint32_t *by_guid,
			  struct vlr_error *err)
{
	uint32_t groups = topology->num_groups, i, next = 0;
	uint32_t *renumber = malloc((groups + 1ull) * sizeof(uint32_t));
	uint32_t *used = calloc(3ull * groups + 1, sizeof(uint32_t));

	if (!renumber || !used) {
		free(renumber);
		free(used);
		return vlr_fail(err, "out of memory for numbering %u groups", groups);
	}
	for (i = 0; i < groups; i++)
		renumber[i] = VLR_NONE;
	for (i = 0; i < topology->num_switches; i++) {
		uint32_t sw = by_guid[i], *group = &renumber[topology->group[sw]];

		if (*group == VLR_NONE)
			*group = next++;
		topology->index_in_group[sw] = (uint16_t)used[3 * *group + topology->role[sw]]++;
	}
	for (i = 0; i < topology->num_switches; i++)
		topology->group[i] = renumber[topology->group[i]];
	free(renumber);
	free(used);
	return 0;
}

static int canonical_groups(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
			    const uint32_t *by_guid, struct vlr_error *err)
{
	uint32_t n = graph->num_switches, sw;
	uint32_t *model_of = malloc((n + 1ull) * sizeof(uint32_t));
	uint8_t *kinds = malloc(2ull * n + 1);
	struct twin_search s = { graph, by_guid, kinds, kinds + n, model_of };
	enum vlr_arrangement arrangement;
	int result;

	if (!model_of || !kinds) {
		free(model_of);
		free(kinds);
		return vlr_fail(err, "out of memory for numbering %u switches", n);
	}
	for (sw = 0; sw < n; sw++)
		s.kind[sw] = topology->params.family == VLR_FAMILY_DRAGONFLY ? 0 :
			     topology->role[sw] == VLR_ROLE_LEAF ? 1 : 2;
	result = find_arrangement(&s, topology, &arrangement, err);
	if (!result) {
		for (sw = 0; sw < n; sw++)
			place(topology, sw, model_of[sw]);
		if (topology->params.family == VLR_FAMILY_DRAGONFLY)
			topology->params.u.dragonfly.arrangement = arrangement;
		else
			topology->params.u.dragonflyplus.arrangement = arrangement;
		topology->arrangement_known = 1;
	} else if (result > 0) {
		result = number_by_guid(topology, by_guid, err);
	}
	free(model_of);
	free(kinds);
	return result;
}

/* ---- the order ---------------------------------------------------------- */

static uint32_t position_of(const struct vlr_topology *topology, uint32_t sw)
{
	const struct vlr_family_params *params = &topology->params;
	uint32_t position = 0;
	unsigned d;

	if (params->family == VLR_FAMILY_HYPERX) {
		for (d = params->u.grid.dims; d-- > 0;)
			position = position * params->u.grid.sides[d] +
				   topology->coord[(uint64_t)sw * params->u.grid.dims + d];
		return position;
	}
	position = topology->group[sw] * switches_per_group(params) + topology->index_in_group[sw];
	if (params->family == VLR_FAMILY_DRAGONFLYPLUS && topology->role[sw] == VLR_ROLE_SPINE)
		position += params->u.dragonflyplus.leaves;
	return position;
}

int topo_canonical(const struct vlr_switch_graph *graph, struct vlr_topology *topology,
		   struct vlr_error *err)
{
	uint32_t *by_guid = malloc((graph->num_switches + 1ull) * sizeof(uint32_t)), sw;
	int failed;

	if (!by_guid)
		return vlr_fail(err, "out of memory for ordering %u switches", graph->num_switches);
	failed = switches_by_guid(graph, by_guid, err);
	if (!failed)
		failed = topology->params.family == VLR_FAMILY_HYPERX ?
			 canonical_hyperx(graph, topology, by_guid, err) :
			 canonical_groups(graph, topology, by_guid, err);
	free(by_guid);
	if (failed)
		return -1;
	for (sw = 0; sw < graph->num_switches; sw++)
		topology->switch_order[position_of(topology, sw)] = sw;
	return 0;
}
