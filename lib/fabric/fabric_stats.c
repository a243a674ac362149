/*
 * fabric_stats.c - counting nodes, links and switch radix.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include <vlroute/fabric.h>

static void count_node(const struct vlr_fabric *fabric, uint32_t node,
		       struct vlr_fabric_summary *summary)
{
	const struct vlr_node *record = &fabric->nodes[node];
	uint32_t used = 0;
	unsigned number;

	for (number = 1; number <= record->num_ports; number++)
		used += vlr_port_at(fabric, node, number)->peer != VLR_NONE;

	switch (record->type) {
	case VLR_NODE_SWITCH:
		if (!summary->switches || used < summary->used_ports_min)
			summary->used_ports_min = used;
		if (used > summary->used_ports_max)
			summary->used_ports_max = used;
		if (record->num_ports > summary->radix)
			summary->radix = record->num_ports;
		summary->switches++;
		return;
	case VLR_NODE_CA:
		summary->cas++;
		break;
	case VLR_NODE_ROUTER:
		summary->routers++;
		break;
	}
	summary->endpoint_ports += used;
}

static void count_link(const struct vlr_fabric *fabric, uint32_t port,
		       struct vlr_fabric_summary *summary)
{
	int here = vlr_node_is_switch(fabric, fabric->ports[port].node);
	int there = vlr_node_is_switch(fabric,
				       fabric->ports[fabric->ports[port].peer].node);

	summary->links++;
	if (here && there)
		summary->switch_links++;
	else if (here || there)
		summary->endpoint_links++;
	else
		summary->direct_links++;
}

void vlr_fabric_summarise(const struct vlr_fabric *fabric,
			  struct vlr_fabric_summary *summary)
{
	uint32_t i;

	memset(summary, 0, sizeof(*summary));
	for (i = 0; i < fabric->num_nodes; i++)
		count_node(fabric, i, summary);
	for (i = 0; i < fabric->num_ports; i++)
		if (fabric->ports[i].peer != VLR_NONE && fabric->ports[i].peer > i)
			count_link(fabric, i, summary);
}
