/*
 * engine.h - routing engines: they fill a table set for a fabric.
 *
 * sssp     balanced shortest paths: every LID routed along a minimal path,
 *          choosing among minimal paths the one whose channels carry the
 *          fewest routes so far.
 * dfsssp   sssp, then the channel dependency graph of all routes is broken
 *          into acyclic virtual layers (SL = layer = VL), so the tables are
 *          deadlock-free; spare VLs are then used to even out the layers.
 *
 * Engines read only the fabric and its LIDs and write only the tables.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ENGINE_H
#define VLROUTE_ENGINE_H

#include <stdint.h>

#include <vlroute/tables.h>

/* Which edge of a found cycle dfsssp cuts (its routes move up a layer). */
enum vlr_heuristic {
	VLR_HEURISTIC_WEAKEST = 0,	/* the edge induced by the fewest routes */
	VLR_HEURISTIC_STRONGEST,	/* the edge induced by the most routes */
	VLR_HEURISTIC_FIRST,		/* the first edge of the cycle */
	VLR_HEURISTIC_ALL,		/* try each, keep the fewest layers */
};

struct vlr_engine_options {
	enum vlr_heuristic heuristic;
	int no_balance;			/* dfsssp: leave spare VLs unused */
};

struct vlr_engine_report {
	unsigned layers;		/* virtual layers the routes need */
	unsigned vls_used;		/* after spreading over spare VLs */
	enum vlr_heuristic heuristic;	/* the one whose result was kept */
	uint64_t cycles_broken;
	uint64_t routes_moved;		/* (source switch, DLID) routes moved up */
	double seconds_paths;		/* sssp part */
	double seconds_layers;		/* cycle breaking and spreading */
};

const char *vlr_heuristic_name(enum vlr_heuristic heuristic);

/* Fill the LFTs; path SLs stay 0. Fails naming unreachable nodes. */
int vlr_route_sssp(struct vlr_tables *tables, const struct vlr_engine_options *options,
		   struct vlr_engine_report *report, struct vlr_error *err);

/*
 * sssp plus deadlock freedom within tables->num_vls VLs. Fails with the
 * numbers (layers needed, VLs available) when they do not suffice; the
 * tables are then not usable.
 */
int vlr_route_dfsssp(struct vlr_tables *tables, const struct vlr_engine_options *options,
		     struct vlr_engine_report *report, struct vlr_error *err);

#endif
