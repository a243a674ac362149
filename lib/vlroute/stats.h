/*
 * stats.h - counting and measuring a fabric: nodes, links, radix, diameter.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_STATS_H
#define VLROUTE_STATS_H

#include <stdint.h>

#include <vlroute/fabric.h>

struct vlr_fabric_summary {
	uint32_t switches;
	uint32_t cas;
	uint32_t routers;
	uint32_t endpoint_ports;	/* linked CA and router ports */
	uint32_t links;
	uint32_t switch_links;		/* switch to switch */
	uint32_t endpoint_links;	/* switch to CA or router */
	uint32_t direct_links;		/* CA or router to CA or router */
	uint32_t radix;			/* most ports declared on a switch */
	uint32_t used_ports_min;	/* fewest linked ports on a switch */
	uint32_t used_ports_max;	/* most linked ports on a switch */
};

void vlr_fabric_summarise(const struct vlr_fabric *fabric,
			  struct vlr_fabric_summary *summary);

/*
 * The switch graph: switches are vertices, switch-to-switch links edges
 * (parallel links appear once per link). Compressed rows, so the
 * neighbours of switch s are neighbour[offset[s] .. offset[s+1]).
 */
struct vlr_switch_graph {
	uint32_t num_switches;
	uint32_t *node_of;		/* switch index -> node index */
	uint32_t *switch_of;		/* node index -> switch index or VLR_NONE */
	uint32_t *offset;		/* num_switches + 1 entries */
	uint32_t *neighbour;
};

int vlr_switch_graph_build(const struct vlr_fabric *fabric,
			   struct vlr_switch_graph *graph, struct vlr_error *err);
void vlr_switch_graph_free(struct vlr_switch_graph *graph);

/*
 * Longest shortest path between two switches, in switch-to-switch hops, and
 * the number of connected components of the switch graph. The diameter
 * covers the largest distance within components.
 */
int vlr_switch_diameter(const struct vlr_switch_graph *graph, uint32_t *diameter,
			uint32_t *components, struct vlr_error *err);

#endif
