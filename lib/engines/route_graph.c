/*
 * route_graph.c - the engines' switch-level view of a fabric: the shared
 * switch graph, the source ports of every switch, and the distances.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "route_graph.h"

void route_graph_free(struct route_graph *graph)
{
	vlr_switch_graph_free(&graph->links);
	free(graph->sources);
	free(graph->distance);
	free(graph->order);
	free(graph->reaching);
	memset(graph, 0, sizeof(*graph));
}

/* The switch graph under the engines' names, and the source ports. */
static int derive_channels(struct route_graph *graph, struct vlr_error *err)
{
	const struct vlr_tables *tables = graph->tables;
	const struct vlr_fabric *fabric = tables->fabric;
	const struct vlr_switch_graph *links = &graph->links;
	uint32_t sw, slot;

	if (vlr_switch_graph_build(fabric, &graph->links, err))
		return -1;
	graph->num_channels = links->num_links;
	graph->first_channel = links->offset;
	graph->channel_from = links->from;
	graph->channel_to = links->neighbour;
	graph->channel_port = links->port;
	graph->channel_back = links->back;
	graph->channel_of_port = links->link_of_port;
	graph->sources = calloc(graph->num_switches + 1, sizeof(uint32_t));
	if (!graph->sources)
		return vlr_fail(err, "out of memory for the channels");
	for (slot = 0; slot < fabric->num_ports; slot++) {
		uint32_t peer = fabric->ports[slot].peer;

		if (vlr_tables_is_source(tables, slot) && peer != VLR_NONE &&
		    links->switch_of[fabric->ports[peer].node] != VLR_NONE)
			graph->sources[links->switch_of[fabric->ports[peer].node]]++;
	}
	for (sw = 0; sw < graph->num_switches; sw++)
		if (fabric->nodes[links->node_of[sw]].num_ports + 1u > graph->port_stride)
			graph->port_stride = fabric->nodes[links->node_of[sw]].num_ports + 1u;
	return 0;
}

/* Breadth-first search towards switch t over the (symmetric) links. */
static void search_towards(struct route_graph *graph, uint32_t t)
{
	uint64_t base = (uint64_t)t * graph->num_switches;
	uint16_t *distance = graph->distance + base;
	uint16_t *order = graph->order + base;
	uint32_t head = 0, tail = 0, c;

	for (c = 0; c < graph->num_switches; c++)
		distance[c] = ROUTE_FAR;
	distance[t] = 0;
	order[tail++] = (uint16_t)t;
	while (head < tail) {
		uint32_t v = order[head++];

		for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++) {
			uint32_t u = graph->channel_to[c];

			if (distance[u] != ROUTE_FAR)
				continue;
			distance[u] = (uint16_t)(distance[v] + 1);
			order[tail++] = (uint16_t)u;
		}
	}
	graph->reaching[t] = tail;
}

int route_graph_build(struct route_graph *graph, const struct vlr_tables *tables,
		      struct vlr_error *err)
{
	uint64_t cells;
	uint32_t t;

	memset(graph, 0, sizeof(*graph));
	graph->tables = tables;
	graph->num_switches = tables->num_switches;
	if (graph->num_switches > UINT16_MAX)
		return vlr_fail(err, "the engines handle at most %u switches, not %u",
				UINT16_MAX, graph->num_switches);
	if (derive_channels(graph, err))
		goto fail;
	cells = (uint64_t)graph->num_switches * graph->num_switches + 1;
	graph->distance = malloc(sizeof(uint16_t) * cells);
	graph->order = malloc(sizeof(uint16_t) * cells);
	graph->reaching = malloc(sizeof(uint32_t) * (graph->num_switches + 1));
	if (!graph->distance || !graph->order || !graph->reaching) {
		vlr_fail(err, "out of memory for the distances of %u switches",
			 graph->num_switches);
		goto fail;
	}
	for (t = 0; t < graph->num_switches; t++)
		search_towards(graph, t);
	return 0;
fail:
	route_graph_free(graph);
	return -1;
}

uint32_t route_graph_target(const struct route_graph *graph, uint32_t lid,
			    uint8_t *last_port)
{
	const struct vlr_tables *tables = graph->tables;
	uint32_t owner = vlr_tables_lid_port(tables, lid);
	const struct vlr_port *port;

	if (owner == VLR_NONE)
		return VLR_NONE;
	port = &tables->fabric->ports[owner];
	if (vlr_node_is_switch(tables->fabric, port->node)) {
		*last_port = 0;
		return tables->switch_of_node[port->node];
	}
	if (port->peer == VLR_NONE ||
	    !vlr_node_is_switch(tables->fabric, tables->fabric->ports[port->peer].node))
		return VLR_NONE;
	*last_port = tables->fabric->ports[port->peer].number;
	return tables->switch_of_node[tables->fabric->ports[port->peer].node];
}

int route_graph_check_connected(const struct route_graph *graph, struct vlr_error *err)
{
	return vlr_switch_graph_check_connected(&graph->links, err);
}
