/*
 * engine_common.h - what the routing engines share (internal).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ENGINE_COMMON_H
#define VLROUTE_ENGINE_COMMON_H

#include <vlroute/engines.h>

#include "route_graph.h"

/* Fail naming the port that owns lid and hangs off no switch. */
int engine_unroutable_lid(const struct vlr_tables *tables, uint32_t lid,
			  struct vlr_error *err);

/* sssp's LFTs for a built route graph (dfsssp starts from them). */
int engine_sssp_paths(struct vlr_tables *tables, struct route_graph *graph,
		      struct vlr_error *err);

#endif
