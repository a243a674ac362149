/*
 * layering.c - routes into virtual layers: the channel dependency graph of
 * the routes in the tables' LFTs is broken into acyclic layers
 * (cdg_layers.c), layer = SL = VL. With VLR_HEURISTIC_ALL every cut
 * heuristic is tried on the same routes and the one needing the fewest
 * layers is kept. Spare VLs then even out the layers: the heaviest layer
 * gives half of its routes (by source ports) to an empty one, which stays
 * acyclic since a subset of an acyclic set of routes is acyclic, until
 * every VL is used. dfsssp layers its shortest paths so; the minimal and
 * valiant engines their routes under the layers VL policy. When the layers
 * exceed the VLs, escape paths fit the routes in two ways, on both threads
 * where there are two, and the way whose host pairs can expect the more
 * bandwidth is kept (escape_bandwidth: each pair's share of the busiest
 * link of its route, as in an effective bisection bandwidth's instances):
 * neither wins everywhere (the layers on tori, the destinations split
 * whole on Dragonflies and random graphs).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "cdg_layers.h"
#include "layering.h"
#include "util/jobs.h"

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
 * One way of routing within the VLs by escape paths (cdg_layers.h): the
 * layers broken as ever and escape paths on the last (whole = 0), or the
 * destinations whole, a part per layer, and escape paths on each
 * (whole = 1; on one layer, where the part is every destination and the
 * first way would be the same, every destination is routed again by
 * escape paths). Each runs on tables of its own: their LFTs and SL rows
 * change.
 */
struct escape_way {
	int whole;
	struct vlr_tables *tables;
	const struct route_graph *graph;
	enum vlr_heuristic heuristic;
	unsigned threads;
	int result;
	struct vlr_error err;
	struct attempt outcome;
	uint32_t escaped_lids, tree_lids, root;
	uint64_t tree_routes;
	double bandwidth;		/* the host pairs' expected (escape_bandwidth) */
};

static void *escape_way_run(void *arg)
{
	struct escape_way *way = arg;
	struct escape *escape = escape_new(way->tables, way->graph);
	struct cdg_layers cdg;
	unsigned vls = way->tables->num_vls;

	if (!escape) {
		way->result = vlr_fail(&way->err, "out of memory for the escape paths");
		return NULL;
	}
	way->result = cdg_layers_init(&cdg, way->graph, way->tables, way->threads, &way->err);
	if (!way->result) {
		way->result = cdg_layers_escape_on(&cdg, escape, &way->err) ||
			      (way->whole ? cdg_layers_escape_whole(&cdg, vls, vls == 1, &way->err) :
			       cdg_layers_break_cycles(&cdg, way->heuristic, vls - 1, &way->err)) ?
				      -1 : 0;
		way->outcome = (struct attempt){ way->heuristic, cdg.layers, cdg.cycles_broken,
						 cdg.routes_moved };
		way->escaped_lids = cdg.escaped_lids;
		way->tree_lids = cdg.tree_lids;
		way->tree_routes = cdg.tree_routes;
		way->root = escape_root(escape);
		way->bandwidth = escape_bandwidth(escape);
		cdg_layers_free(&cdg);
	}
	escape_free(escape);
	return NULL;
}

/* Tables sharing everything with tables but the parts a way changes (LFTs, SLs). */
static int copy_tables(struct vlr_tables *copy, const struct vlr_tables *tables,
		       struct vlr_error *err)
{
	uint64_t lft = (uint64_t)tables->num_switches * tables->lid_stride;
	uint64_t ports = tables->fabric->num_ports + 1;

	*copy = *tables;
	copy->sl_rows = NULL;
	copy->num_sl_rows = 0;
	copy->lft = malloc(lft + 1);
	copy->port_sl_row = malloc(sizeof(uint32_t) * ports);
	if (!copy->lft || !copy->port_sl_row) {
		free(copy->lft);
		free(copy->port_sl_row);
		return vlr_fail(err, "out of memory for a second try at the escape paths");
	}
	memcpy(copy->lft, tables->lft, lft);
	memcpy(copy->port_sl_row, tables->port_sl_row, sizeof(uint32_t) * ports);
	return 0;
}

/* Give tables the copy's LFTs and SLs, and the copy tables' (to free). */
static void swap_tables(struct vlr_tables *tables, struct vlr_tables *copy)
{
	struct vlr_tables mine = *tables;

	tables->lft = copy->lft;
	tables->sl_rows = copy->sl_rows;
	tables->num_sl_rows = copy->num_sl_rows;
	tables->port_sl_row = copy->port_sl_row;
	copy->lft = mine.lft;
	copy->sl_rows = mine.sl_rows;
	copy->num_sl_rows = mine.num_sl_rows;
	copy->port_sl_row = mine.port_sl_row;
}

/*
 * The layers exceed the VLs: both ways with best's heuristic, on both
 * threads where there are two (each needs its own tables), and the one
 * whose host pairs expect the more bandwidth kept; on a tie the layers as
 * ever. The busiest link, which chose before, kept the way of the lower
 * ebb in 2 of the 21 small fabric and budget pairs of bench/vl_budget.sh
 * that escape (0.7% and 0.6% lower), the expected bandwidth in none: it
 * weighs every pair's busiest link, not the one busiest link.
 */
static int escape_layers(struct vlr_tables *tables, const struct route_graph *graph,
			 struct attempt *best, unsigned threads,
			 struct vlr_engine_report *report, struct vlr_error *err)
{
	struct escape_way ways[2];
	struct vlr_tables copy;
	struct route_graph copy_graph = *graph;
	unsigned i, cpus = vlr_threads_or_cpus(threads);
	struct escape_way *kept;

	if (copy_tables(&copy, tables, err))
		return -1;
	copy_graph.tables = &copy;
	memset(ways, 0, sizeof(ways));
	for (i = 0; i < 2; i++) {
		ways[i].whole = (int)i;
		ways[i].tables = i ? &copy : tables;
		ways[i].graph = i ? &copy_graph : graph;
		ways[i].heuristic = best->heuristic;
		ways[i].threads = cpus > 1 ? cpus / 2 : 1;
	}
	if (cpus > 1) {
		vlr_run_jobs(escape_way_run, ways, sizeof(ways[0]), 2);
	} else {
		escape_way_run(&ways[0]);
		escape_way_run(&ways[1]);
	}
	kept = ways[0].result || (!ways[1].result && ways[1].bandwidth > ways[0].bandwidth) ?
		       &ways[1] : &ways[0];
	if (kept == &ways[1])
		swap_tables(tables, &copy);
	free(copy.lft);
	free(copy.sl_rows);
	free(copy.port_sl_row);
	if (kept->result) {
		*err = kept->err;
		return -1;
	}
	*best = kept->outcome;
	report->escaped_lids = kept->escaped_lids;
	report->tree_lids = kept->tree_lids;
	report->tree_routes = kept->tree_routes;
	report->escape_root = kept->root;
	report->escape_whole = kept->whole;
	return 0;
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
