/*
 * route_graph.h - the switch-level view the routing engines work on
 * (internal): the fabric's switch graph, whose links the engines call
 * channels, plus what only the engines need: source ports per switch, and
 * the hop distance and breadth-first order of every switch towards every
 * switch.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ROUTE_GRAPH_H
#define VLROUTE_ROUTE_GRAPH_H

#include <vlroute/tables.h>

#define ROUTE_FAR UINT16_MAX	/* distance to an unreachable switch */

/*
 * Channel c is link c of the fabric's switch graph; the channel arrays are
 * the engines' names for the graph's own arrays, not copies.
 */
struct route_graph {
	const struct vlr_tables *tables;
	struct vlr_switch_graph links;	/* tables->fabric's switch graph */
	uint32_t num_switches;
	uint32_t num_channels;
	const uint32_t *first_channel;	/* [switch]: its channels, num_switches + 1 */
	const uint32_t *channel_from;	/* [channel]: switch it leaves */
	const uint32_t *channel_to;	/* [channel]: switch it leads to */
	const uint8_t *channel_port;	/* [channel]: out port on the switch it leaves */
	const uint32_t *channel_back;	/* [channel]: the same link the other way */
	const uint32_t *channel_of_port;	/* [port slot]: channel, VLR_NONE */
	uint32_t *sources;		/* [switch]: source ports attached to it */
	unsigned port_stride;		/* most ports of a switch, plus one */
	uint16_t *distance;		/* [t * S + v]: hops from v to t */
	uint16_t *order;		/* [t * S + k]: switches by distance to t */
	uint32_t *reaching;		/* [t]: switches that reach t (order length) */
};

int route_graph_build(struct route_graph *graph, const struct vlr_tables *tables,
		      struct vlr_error *err);
void route_graph_free(struct route_graph *graph);

/*
 * Where LID lid ends: the switch index that delivers it, and the LFT entry
 * there (0 for the switch's own LID, else the port towards the endpoint).
 * VLR_NONE when the LID is unowned or its port hangs off no switch.
 */
uint32_t route_graph_target(const struct route_graph *graph, uint32_t lid,
			    uint8_t *last_port);

/* Channel a switch uses for lid according to its LFT, or VLR_NONE. */
static inline uint32_t route_graph_next_channel(const struct route_graph *graph,
						uint32_t sw, uint32_t lid)
{
	const struct vlr_tables *tables = graph->tables;
	uint8_t port = vlr_tables_lft(tables, sw)[lid];

	if (port == VLR_NO_PORT || port == 0)
		return VLR_NONE;
	return graph->channel_of_port[tables->fabric->nodes[tables->switch_node[sw]].first_port +
				      port];
}

/* Fail naming switches that cannot reach each other, if any. */
int route_graph_check_connected(const struct route_graph *graph, struct vlr_error *err);

#endif
