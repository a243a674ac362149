/*
 * layering.c - routes into virtual layers: the channel dependency graph of
 * the routes in the tables' LFTs is broken into acyclic layers
 * (cdg_layers.c), layer = SL = VL. With VLR_HEURISTIC_ALL every cut
 * heuristic is tried on the same routes and the one needing the fewest
 * layers is kept. Spare VLs then even out the layers: the heaviest layer
 * gives half of its routes (by source ports) to an empty one, which stays
 * acyclic since a subset of an acyclic set of routes is acyclic, until
 * every VL is used. dfsssp layers its shortest paths so; the minimal and
 * valiant engines their routes under the layers VL policy.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "cdg_layers.h"
#include "layering.h"

struct attempt {
	enum vlr_heuristic heuristic;
	unsigned layers;
	uint64_t cycles_broken;
	uint64_t routes_moved;
};

/* Break the cycles with one heuristic; the layers stay in the SL rows. */
static int try_heuristic(const struct route_graph *graph, struct vlr_tables *tables,
			 unsigned limit, enum vlr_heuristic heuristic, unsigned threads,
			 struct attempt *attempt, struct vlr_error *err)
{
	struct cdg_layers cdg;
	int result;

	if (cdg_layers_init(&cdg, graph, tables, threads, err))
		return -1;
	result = cdg_layers_break_cycles(&cdg, heuristic, limit, err);
	attempt->heuristic = heuristic;
	attempt->layers = cdg.layers;
	attempt->cycles_broken = cdg.cycles_broken;
	attempt->routes_moved = cdg.routes_moved;
	cdg_layers_free(&cdg);
	return result;
}

/*
 * Try the heuristics asked for, breaking the cycles of the layers below
 * limit; leave the best one's layers in the tables.
 */
static int break_cycles(const struct route_graph *graph, struct vlr_tables *tables,
			unsigned limit, enum vlr_heuristic heuristic, unsigned threads,
			struct attempt *best, struct vlr_error *err)
{
	static const enum vlr_heuristic all[] = { VLR_HEURISTIC_WEAKEST,
						  VLR_HEURISTIC_STRONGEST,
						  VLR_HEURISTIC_FIRST };
	uint64_t bytes;
	uint8_t *kept = NULL;
	struct attempt attempt;
	size_t i;

	if (heuristic != VLR_HEURISTIC_ALL)
		return try_heuristic(graph, tables, limit, heuristic, threads, best, err);
	best->layers = 0;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (try_heuristic(graph, tables, limit, all[i], threads, &attempt, err))
			continue;
		if (best->layers && attempt.layers >= best->layers)
			continue;
		*best = attempt;
		bytes = (uint64_t)tables->num_sl_rows * tables->lid_stride;
		free(kept);
		kept = malloc(bytes + 1);
		if (!kept)
			return vlr_fail(err, "out of memory keeping the best layers");
		memcpy(kept, tables->sl_rows, bytes);
	}
	if (!best->layers)
		return -1;
	memcpy(tables->sl_rows, kept, (uint64_t)tables->num_sl_rows * tables->lid_stride);
	free(kept);
	return 0;
}

/* ---- spreading over spare VLs --------------------------------------------- */

struct spread {
	struct vlr_tables *tables;
	const struct route_graph *graph;
	uint32_t *switch_of_row;
	uint8_t *routed;		/* [lid]: a switch delivers it */
	uint64_t *column;		/* [lid]: scratch of split_layer */
	uint64_t weight[VLR_NUM_SLS];	/* source ports x LIDs per layer */
};

static uint32_t row_sources(const struct spread *spread, uint32_t row)
{
	return spread->graph->sources[spread->switch_of_row[row]];
}

static void weigh_layers(struct spread *spread)
{
	const struct vlr_tables *tables = spread->tables;
	uint32_t row, lid;

	memset(spread->weight, 0, sizeof(spread->weight));
	for (row = 0; row < tables->num_sl_rows; row++) {
		const uint8_t *sls = vlr_tables_sl_row(tables, row);

		for (lid = 1; lid < tables->lid_stride; lid++)
			if (spread->routed[lid])
				spread->weight[sls[lid]] += row_sources(spread, row);
	}
}

/*
 * Move about half of layer `from` (by weight) to the empty layer `to`: the
 * routes of from in LID order, row by row within a LID, until half has
 * moved. Found row by row (the SL rows are read in order): the weight of
 * from in every LID's column, the LID where half is reached, the rows of
 * that LID one by one, then every earlier LID's whole column.
 */
static void split_layer(struct spread *spread, unsigned from, unsigned to)
{
	const struct vlr_tables *tables = spread->tables;
	uint64_t moved = 0, half = spread->weight[from] / 2;
	uint32_t row, lid, last;

	memset(spread->column, 0, sizeof(uint64_t) * tables->lid_stride);
	for (row = 0; row < tables->num_sl_rows; row++) {
		const uint8_t *sls = vlr_tables_sl_row(tables, row);

		for (lid = 1; lid < tables->lid_stride; lid++)
			if (spread->routed[lid] && sls[lid] == from)
				spread->column[lid] += row_sources(spread, row);
	}
	for (last = 1; last < tables->lid_stride && moved + spread->column[last] < half; last++)
		moved += spread->column[last];
	for (row = 0; last < tables->lid_stride && row < tables->num_sl_rows && moved < half;
	     row++) {
		uint8_t *sl = vlr_tables_sl_row(tables, row) + last;

		if (spread->routed[last] && *sl == from) {
			*sl = (uint8_t)to;
			moved += row_sources(spread, row);
		}
	}
	for (row = 0; row < tables->num_sl_rows; row++) {
		uint8_t *sls = vlr_tables_sl_row(tables, row);

		for (lid = 1; lid < last; lid++)
			if (spread->routed[lid] && sls[lid] == from)
				sls[lid] = (uint8_t)to;
	}
	spread->weight[from] -= moved;
	spread->weight[to] += moved;
}

static int spread_layers(struct vlr_tables *tables, const struct route_graph *graph,
			 unsigned layers, struct vlr_error *err)
{
	struct spread spread;
	uint32_t sw, lid, rows = 0;
	unsigned used, layer, heaviest;
	uint8_t last_port;

	spread.tables = tables;
	spread.graph = graph;
	spread.switch_of_row = malloc(sizeof(uint32_t) * (tables->num_sl_rows + 1));
	spread.routed = malloc(tables->lid_stride + 1);
	spread.column = malloc(sizeof(uint64_t) * (tables->lid_stride + 1));
	if (!spread.switch_of_row || !spread.routed || !spread.column) {
		free(spread.switch_of_row);
		free(spread.routed);
		free(spread.column);
		return vlr_fail(err, "out of memory spreading the layers");
	}
	for (sw = 0; sw < graph->num_switches; sw++)
		if (graph->sources[sw])
			spread.switch_of_row[rows++] = sw;
	for (lid = 0; lid < tables->lid_stride; lid++)
		spread.routed[lid] = lid && route_graph_target(graph, lid, &last_port) != VLR_NONE;
	weigh_layers(&spread);
	for (used = layers; used < tables->num_vls; used++) {
		heaviest = 0;
		for (layer = 1; layer < used; layer++)
			if (spread.weight[layer] > spread.weight[heaviest])
				heaviest = layer;
		if (spread.weight[heaviest] < 2)
			break;
		split_layer(&spread, heaviest, used);
	}
	free(spread.switch_of_row);
	free(spread.routed);
	free(spread.column);
	return (int)used;
}

/* ---- escape paths ---------------------------------------------------------- */

/*
 * The layers exceed the VLs: the routes again, with best's heuristic, the
 * cycles of the last VL broken by escape paths instead (cdg_layers.c).
 */
static int escape_layers(struct vlr_tables *tables, const struct route_graph *graph,
			 struct attempt *best, unsigned threads,
			 struct vlr_engine_report *report, struct vlr_error *err)
{
	struct escape *escape = escape_new(tables, graph);
	struct cdg_layers cdg;
	int result;

	if (!escape)
		return vlr_fail(err, "out of memory for the escape paths");
	result = cdg_layers_init(&cdg, graph, tables, threads, err);
	if (!result) {
		result = cdg_layers_escape_on(&cdg, escape, err) ||
			 cdg_layers_break_cycles(&cdg, best->heuristic, tables->num_vls - 1,
						 err) ? -1 : 0;
		best->layers = cdg.layers;
		best->cycles_broken = cdg.cycles_broken;
		best->routes_moved = cdg.routes_moved;
		report->escaped_lids = cdg.escaped_lids;
		report->tree_lids = cdg.tree_lids;
		report->escape_root = escape_root(escape);
		cdg_layers_free(&cdg);
	}
	escape_free(escape);
	return result;
}

int layering_assign(struct vlr_tables *tables, const struct route_graph *graph,
		    const struct vlr_engine_options *options, int may_escape,
		    const char *who, struct vlr_engine_report *report,
		    struct vlr_error *err)
{
	unsigned limit = may_escape ? tables->num_vls : CDG_MAX_LAYERS;
	struct attempt best;
	int used;

	memset(&best, 0, sizeof(best));
	if (break_cycles(graph, tables, limit, options->heuristic, options->threads, &best,
			 err))
		return -1;
	if (best.layers > tables->num_vls && may_escape &&
	    escape_layers(tables, graph, &best, options->threads, report, err))
		return -1;
	report->layers = best.layers;
	report->heuristic = best.heuristic;
	report->cycles_broken = best.cycles_broken;
	report->routes_moved = best.routes_moved;
	if (best.layers > tables->num_vls)
		return vlr_fail(err, "%s needs %u VLs to be deadlock-free, but only %u "
				"are available", who, best.layers, tables->num_vls);
	used = options->no_balance ? (int)best.layers :
	       spread_layers(tables, graph, best.layers, err);
	if (used < 0)
		return -1;
	report->vls_used = (unsigned)used;
	return 0;
}
