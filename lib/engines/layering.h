/*
 * layering.h - routes into acyclic virtual layers (internal): what dfsssp
 * and the layers VL policy of vl_compile.c share.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_LAYERING_H
#define VLROUTE_LAYERING_H

#include <vlroute/engines.h>

#include "route_graph.h"

/*
 * Break the channel dependency cycles of the routes in the tables' LFTs
 * into virtual layers (SL = layer = VL) with options->heuristic, then
 * spread them over spare VLs unless options->no_balance. When the VLs do
 * not suffice: with may_escape (dfsssp), the LIDs that do not fit take
 * escape paths on the last VL (escape.h); else it fails
 * with the numbers ("WHO needs N VLs ..."). Fills the layer and escape
 * fields of report.
 */
int layering_assign(struct vlr_tables *tables, const struct route_graph *graph,
		    const struct vlr_engine_options *options, int may_escape,
		    const char *who, struct vlr_engine_report *report,
		    struct vlr_error *err);

#endif
