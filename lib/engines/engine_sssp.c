/*
 * engine_sssp.c - balanced shortest paths.
 *
 * For every LID, every switch gets the next hop of a minimal path towards
 * the switch that delivers the LID; among the minimal paths it takes the
 * one whose channels carry the fewest routes so far. That is Dijkstra with
 * channel weight W + routes, W larger than any route count a path could
 * collect (the DFSSSP argument that no detour is ever cheaper), computed
 * without a heap: hop distances never change, so one pass over the
 * switches in breadth-first order from the target finds the least-loaded
 * minimal path of each. After each LID the channels of its tree are
 * charged with the number of sources routed through them. The minimal
 * channels towards a target are listed once and kept while the LIDs it
 * delivers follow each other (a switch's hosts' LIDs mostly do). The LFT
 * entries of a block of LIDs are gathered LID by LID and written switch by
 * switch, so that each LFT row is written in runs rather than a byte at a
 * time far apart.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include <vlroute/engines.h>

#include "engine_common.h"
#include "route_graph.h"

struct sssp {
	struct route_graph *graph;
	struct vlr_tables *tables;
	uint64_t *load;		/* [channel]: routes it carries so far */
	uint64_t *cost;		/* [switch]: least load sum to the target */
	uint64_t *carried;	/* [switch]: sources routed through it */
	uint32_t *chosen;	/* [switch]: its channel towards the target */
	uint32_t dag_target;	/* whose minimal channels these are */
	uint32_t *dag_first;	/* [k]: where order[k]'s start in dag_channel */
	uint32_t *dag_channel;	/* minimal channels, switch by switch */
	uint32_t block_first;	/* first LID of the block being routed */
	uint8_t *block;		/* [lid - block_first][switch]: its LFT entries */
};

#define LID_BLOCK 64	/* LIDs whose LFT entries are written together */

/* Where switch sw's LFT entry for lid goes until the block is written. */
static uint8_t *block_entry(struct sssp *sssp, uint32_t sw, uint32_t lid)
{
	return sssp->block + (uint64_t)(lid - sssp->block_first) * sssp->graph->num_switches + sw;
}

/* Write the block's entries into the LFTs and start the block of lid. */
static void next_block(struct sssp *sssp, uint32_t lid)
{
	struct vlr_tables *tables = sssp->tables;
	uint32_t count = sssp->block_first + LID_BLOCK <= tables->lid_stride ? LID_BLOCK :
			 tables->lid_stride - sssp->block_first;

	vlr_tables_set_lft_columns(tables, sssp->block_first, count, sssp->block);
	sssp->block_first = lid - lid % LID_BLOCK;
	memset(sssp->block, VLR_NO_PORT, (uint64_t)LID_BLOCK * sssp->graph->num_switches);
}

/* The minimal channels of every switch towards t, in channel order. */
static void list_minimal_channels(struct sssp *sssp, uint32_t t)
{
	const struct route_graph *graph = sssp->graph;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	const uint16_t *distance = graph->distance + (uint64_t)t * graph->num_switches;
	uint32_t k, c, listed = 0;

	for (k = 0; k < graph->reaching[t]; k++) {
		uint32_t v = order[k];

		sssp->dag_first[k] = listed;
		for (c = graph->first_channel[v]; c < graph->first_channel[v + 1]; c++)
			if (distance[graph->channel_to[c]] + 1 == distance[v])
				sssp->dag_channel[listed++] = c;
	}
	sssp->dag_first[k] = listed;
	sssp->dag_target = t;
}

/* Pick each switch's least-loaded minimal next hop towards target t. */
static void choose_next_hops(struct sssp *sssp, uint32_t t, uint32_t lid)
{
	const struct route_graph *graph = sssp->graph;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	uint32_t k, j;

	if (sssp->dag_target != t)
		list_minimal_channels(sssp, t);
	sssp->cost[t] = 0;
	for (k = 1; k < graph->reaching[t]; k++) {
		uint32_t v = order[k], best = VLR_NONE;
		uint64_t best_cost = UINT64_MAX;

		for (j = sssp->dag_first[k]; j < sssp->dag_first[k + 1]; j++) {
			uint32_t c = sssp->dag_channel[j];
			uint64_t cost = sssp->load[c] + sssp->cost[graph->channel_to[c]];

			if (cost < best_cost) {
				best_cost = cost;
				best = c;
			}
		}
		sssp->cost[v] = best_cost;
		sssp->chosen[v] = best;
		*block_entry(sssp, v, lid) = graph->channel_port[best];
	}
}

/* Charge every channel of the tree with the sources routed through it. */
static void charge_tree(struct sssp *sssp, uint32_t t)
{
	const struct route_graph *graph = sssp->graph;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	uint32_t k;

	for (k = 0; k < graph->reaching[t]; k++)
		sssp->carried[order[k]] = graph->sources[order[k]];
	for (k = graph->reaching[t]; k-- > 1;) {
		uint32_t v = order[k], c = sssp->chosen[v];

		sssp->load[c] += sssp->carried[v];
		sssp->carried[graph->channel_to[c]] += sssp->carried[v];
	}
}

static int route_all_lids(struct sssp *sssp, struct vlr_error *err)
{
	struct vlr_tables *tables = sssp->tables;
	uint32_t lid;

	memset(sssp->block, VLR_NO_PORT, (uint64_t)LID_BLOCK * sssp->graph->num_switches);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint8_t last_port;
		uint32_t t;

		if (lid % LID_BLOCK == 0)
			next_block(sssp, lid);
		if (tables->lid_owner[lid] == VLR_NONE)
			continue;
		t = route_graph_target(sssp->graph, lid, &last_port);
		if (t == VLR_NONE)
			return engine_unroutable_lid(tables, lid, err);
		*block_entry(sssp, t, lid) = last_port;
		choose_next_hops(sssp, t, lid);
		charge_tree(sssp, t);
	}
	next_block(sssp, lid);
	return 0;
}

int engine_sssp_paths(struct vlr_tables *tables, struct route_graph *graph,
		      struct vlr_error *err)
{
	struct sssp sssp;
	int result;

	sssp.graph = graph;
	sssp.tables = tables;
	sssp.load = calloc(graph->num_channels + 1, sizeof(uint64_t));
	sssp.cost = malloc(sizeof(uint64_t) * (graph->num_switches + 1));
	sssp.carried = malloc(sizeof(uint64_t) * (graph->num_switches + 1));
	sssp.chosen = malloc(sizeof(uint32_t) * (graph->num_switches + 1));
	sssp.dag_target = VLR_NONE;
	sssp.dag_first = malloc(sizeof(uint32_t) * (graph->num_switches + 1));
	sssp.dag_channel = malloc(sizeof(uint32_t) * (graph->num_channels + 1));
	sssp.block_first = 0;
	sssp.block = malloc((uint64_t)LID_BLOCK * graph->num_switches + 1);
	if (!sssp.load || !sssp.cost || !sssp.carried || !sssp.chosen || !sssp.dag_first ||
	    !sssp.dag_channel || !sssp.block)
		result = vlr_fail(err, "out of memory for the channel loads");
	else
		result = route_graph_check_connected(graph, err) ||
			 route_all_lids(&sssp, err) ? -1 : 0;
	free(sssp.load);
	free(sssp.cost);
	free(sssp.carried);
	free(sssp.chosen);
	free(sssp.dag_first);
	free(sssp.dag_channel);
	free(sssp.block);
	return result;
}

int vlr_route_sssp(struct vlr_tables *tables, const struct vlr_engine_options *options,
		   struct vlr_engine_report *report, struct vlr_error *err)
{
	struct route_graph graph;
	double start = vlr_clock_seconds();
	int result;

	(void)options;
	memset(report, 0, sizeof(*report));
	if (route_graph_build(&graph, tables, err))
		return -1;
	vlr_tables_reset(tables);
	result = engine_sssp_paths(tables, &graph, err);
	route_graph_free(&graph);
	report->layers = 1;
	report->vls_used = 1;
	report->seconds_paths = vlr_clock_seconds() - start;
	return result;
}
