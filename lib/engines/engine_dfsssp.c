/*
 * engine_dfsssp.c - deadlock-free balanced shortest paths.
 *
 * sssp's LFTs, then the routes' channel dependency graph is broken into
 * acyclic layers, layer = SL = VL with an identity SL2VL, and the layers
 * spread over spare VLs (layering.c).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include <vlroute/engines.h>

#include "engine_common.h"
#include "layering.h"

int vlr_route_dfsssp(struct vlr_tables *tables, const struct vlr_engine_options *options,
		     struct vlr_engine_report *report, struct vlr_error *err)
{
	struct route_graph graph;
	double start = vlr_clock_seconds();
	int result;

	memset(report, 0, sizeof(*report));
	if (route_graph_build(&graph, tables, err))
		return -1;
	vlr_tables_reset(tables);
	result = engine_sssp_paths(tables, &graph, err);
	report->seconds_paths = vlr_clock_seconds() - start;
	start = vlr_clock_seconds();
	if (!result)
		result = layering_assign(tables, &graph, options, !options->no_escape,
					 "dfsssp", report, err);
	report->seconds_layers = vlr_clock_seconds() - start;
	route_graph_free(&graph);
	return result;
}
