/*
 * topology.c - recognising HyperX, Dragonfly and Dragonfly+ from the graph:
 * the switch graph the recognisers share, group bookkeeping, and the entry
 * point that tries each family, keeps the most telling failure and has
 * what it recognised numbered canonically (topology_canonical.c).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "util/names.h"
#include "topology_internal.h"

unsigned topo_most_hosts(const struct vlr_switch_graph *graph)
{
	unsigned most = 0;
	uint32_t sw;

	for (sw = 0; sw < graph->num_switches; sw++)
		if (graph->hosts[sw] > most)
			most = graph->hosts[sw];
	return most;
}

uint64_t topo_cell(unsigned dims, const unsigned *sides, const uint16_t *coord)
{
	uint64_t cell = 0;
	unsigned d;

	for (d = dims; d-- > 0;)
		cell = cell * sides[d] + coord[d];
	return cell;
}

int topo_linked(const struct vlr_switch_graph *graph, uint32_t a, uint32_t b)
{
	uint32_t at;

	for (at = graph->offset[a]; at < graph->offset[a + 1]; at++)
		if (graph->neighbour[at] == b)
			return 1;
	return 0;
}

const char *topo_name(const struct vlr_switch_graph *graph, uint32_t sw)
{
	return vlr_node_name(graph->fabric, graph->node_of[sw]);
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

uint32_t topo_mode(const uint32_t *values, uint32_t count)
{
	uint32_t *sorted = malloc((count + 1ull) * sizeof(uint32_t));
	uint32_t best = count ? values[0] : 0, best_run = 0, run = 0, i;

	if (!sorted)
		return best;
	memcpy(sorted, values, count * sizeof(uint32_t));
	qsort(sorted, count, sizeof(uint32_t), compare_u32);
	for (i = 0; i < count; i++) {
		run = i && sorted[i] == sorted[i - 1] ? run + 1 : 1;
		if (run > best_run) {
			best_run = run;
			best = sorted[i];
		}
	}
	free(sorted);
	return best;
}

uint32_t topo_first_unusual(const uint32_t *values, uint32_t count, uint32_t *usual)
{
	uint32_t i;

	*usual = topo_mode(values, count);
	for (i = 0; i < count; i++)
		if (values[i] != *usual)
			return i;
	return VLR_NONE;
}

int topo_start(struct vlr_topology *topology, const struct vlr_switch_graph *graph,
	       struct vlr_error *err)
{
	const struct vlr_fabric *fabric = graph->fabric;
	uint32_t n = graph->num_switches, sw;
	unsigned port;

	topology->num_switches = n;
	topology->switch_node = malloc((n + 1ull) * sizeof(uint32_t));
	topology->switch_of_node = malloc((fabric->num_nodes + 1ull) * sizeof(uint32_t));
	topology->switch_order = malloc((n + 1ull) * sizeof(uint32_t));
	topology->group = calloc(n + 1ull, sizeof(uint32_t));
	topology->index_in_group = calloc(n + 1ull, sizeof(uint16_t));
	topology->role = calloc(n + 1ull, 1);
	topology->port_class = calloc(fabric->num_ports + 1ull, 1);
	topology->port_dim = calloc(fabric->num_ports + 1ull, 1);
	if (!topology->switch_node || !topology->switch_of_node || !topology->switch_order ||
	    !topology->group ||
	    !topology->index_in_group || !topology->role || !topology->port_class ||
	    !topology->port_dim)
		return vlr_fail(err, "out of memory for the topology");
	memcpy(topology->switch_node, graph->node_of, n * sizeof(uint32_t));
	memcpy(topology->switch_of_node, graph->switch_of,
	       fabric->num_nodes * sizeof(uint32_t));
	for (sw = 0; sw < n; sw++) {
		uint32_t node = graph->node_of[sw];

		for (port = 1; port <= fabric->nodes[node].num_ports; port++) {
			uint32_t peer = vlr_port_at(fabric, node, port)->peer;

			if (peer != VLR_NONE && !vlr_node_is_switch(fabric, fabric->ports[peer].node))
				topology->port_class[vlr_port_index(fabric, node, port)] =
					VLR_PORT_HOST;
		}
	}
	return 0;
}

void vlr_topology_free(struct vlr_topology *topology)
{
	free(topology->switch_node);
	free(topology->switch_of_node);
	free(topology->switch_order);
	free(topology->coord);
	free(topology->group);
	free(topology->index_in_group);
	free(topology->role);
	free(topology->port_class);
	free(topology->port_dim);
	memset(topology, 0, sizeof(*topology));
}

int topo_groups_init(struct topo_groups *groups, uint32_t switches,
		     struct vlr_error *err)
{
	uint32_t sw;

	groups->parent = malloc((switches + 1ull) * sizeof(uint32_t));
	groups->count = switches;
	if (!groups->parent)
		return vlr_fail(err, "out of memory for the groups");
	for (sw = 0; sw < switches; sw++)
		groups->parent[sw] = sw;
	return 0;
}

static uint32_t find_root(struct topo_groups *groups, uint32_t sw)
{
	while (groups->parent[sw] != sw) {
		groups->parent[sw] = groups->parent[groups->parent[sw]];
		sw = groups->parent[sw];
	}
	return sw;
}

void topo_groups_join(struct topo_groups *groups, uint32_t a, uint32_t b)
{
	uint32_t ra = find_root(groups, a), rb = find_root(groups, b);

	if (ra != rb)
		groups->parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
}

uint32_t topo_groups_number(struct topo_groups *groups, uint32_t switches,
			    uint32_t *group)
{
	uint32_t sw, count = 0;

	for (sw = 0; sw < switches; sw++) {
		uint32_t root = find_root(groups, sw);

		group[sw] = root == sw ? count++ : group[root];
	}
	return count;
}

void topo_groups_free(struct topo_groups *groups)
{
	free(groups->parent);
	groups->parent = NULL;
}

int topo_check_group_pairs(const struct vlr_switch_graph *graph,
			   const struct vlr_topology *topology, struct vlr_error *err)
{
	uint32_t g = topology->num_groups, sw, at, a, b;
	uint8_t *linked = calloc((uint64_t)g * g + 1, 1);
	uint32_t *member = malloc((g + 1ull) * sizeof(uint32_t));

	if (!linked || !member) {
		free(linked);
		free(member);
		return vlr_fail(err, "out of memory for the group pairs");
	}
	for (sw = 0; sw < graph->num_switches; sw++) {
		member[topology->group[sw]] = sw;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++)
			linked[(uint64_t)topology->group[sw] * g +
			       topology->group[graph->neighbour[at]]] = 1;
	}
	for (a = 0; a < g; a++)
		for (b = a + 1; b < g; b++)
			if (!linked[(uint64_t)a * g + b]) {
				vlr_fail(err, "groups %u (with %s) and %u (with %s) have no "
					 "global link between them", a, topo_name(graph, member[a]),
					 b, topo_name(graph, member[b]));
				free(linked);
				free(member);
				return -1;
			}
	free(linked);
	free(member);
	return 0;
}

static const struct vlr_name recognised_families[] = {
	{ "hyperx", VLR_FAMILY_HYPERX },
	{ "dragonfly", VLR_FAMILY_DRAGONFLY },
	{ "dragonfly+", VLR_FAMILY_DRAGONFLYPLUS },
	{ NULL, 0 },
};

int vlr_topology_family_parse(const char *text, enum vlr_family *family,
			      struct vlr_error *err)
{
	int value;

	if (vlr_name_parse(recognised_families, text, &value, err))
		return -1;
	*family = (enum vlr_family)value;
	return 0;
}

const char *vlr_topology_family_name(enum vlr_family family)
{
	return vlr_name_of(recognised_families, (int)family, "any");
}

static int recognise_as(const struct vlr_switch_graph *graph, enum vlr_family family,
			struct vlr_topology *topology, struct vlr_error *err)
{
	int verdict;

	memset(topology, 0, sizeof(*topology));
	if (topo_start(topology, graph, err))
		return 4;
	if (family == VLR_FAMILY_HYPERX)
		verdict = topo_recognise_hyperx(graph, topology, err);
	else if (family == VLR_FAMILY_DRAGONFLY)
		verdict = topo_recognise_dragonfly(graph, topology, err);
	else
		verdict = topo_recognise_dragonflyplus(graph, topology, err);
	if (!verdict && topo_canonical(graph, topology, err))
		verdict = 4;
	if (verdict)
		vlr_topology_free(topology);
	return verdict;
}

int vlr_topology_recognise(const struct vlr_fabric *fabric, enum vlr_family family,
			   struct vlr_topology *topology, struct vlr_error *err)
{
	static const enum vlr_family families[] = {
		VLR_FAMILY_HYPERX, VLR_FAMILY_DRAGONFLY, VLR_FAMILY_DRAGONFLYPLUS
	};
	struct vlr_error attempt;
	struct vlr_switch_graph graph;
	int best = -1, verdict;
	unsigned i;

	memset(topology, 0, sizeof(*topology));
	if (family != VLR_FAMILY_NONE && family != VLR_FAMILY_HYPERX &&
	    family != VLR_FAMILY_DRAGONFLY && family != VLR_FAMILY_DRAGONFLYPLUS)
		return vlr_fail(err, "only HyperX, Dragonfly and Dragonfly+ are recognised "
				"from the graph");
	if (vlr_switch_graph_build(fabric, &graph, err))
		return -1;
	if (!graph.num_switches) {
		vlr_switch_graph_free(&graph);
		return vlr_fail(err, "the fabric has no switches");
	}
	for (i = 0; i < 3; i++) {
		if (family != VLR_FAMILY_NONE && family != families[i])
			continue;
		verdict = recognise_as(&graph, families[i], topology, &attempt);
		if (!verdict)
			break;
		if (verdict > best) {
			best = verdict;
			if (err)
				*err = attempt;
		}
	}
	vlr_switch_graph_free(&graph);
	return i < 3 ? 0 : -1;
}
