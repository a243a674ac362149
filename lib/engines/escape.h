/*
 * escape.h - escape paths for the routes that do not fit the VLs
 * (internal): up/down routes, balanced, for whole destinations.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ESCAPE_H
#define VLROUTE_ESCAPE_H

#include <vlroute/engines.h>

#include "route_graph.h"

struct escape;

/*
 * Rank the switches from the switch of least eccentricity, and charge
 * every link with the routes of the tables' LFTs, which must be minimal
 * (sssp's). NULL when out of memory.
 */
struct escape *escape_new(struct vlr_tables *tables, const struct route_graph *graph);
void escape_free(struct escape *e);

/* The root switch (index) of the ranking. */
uint32_t escape_root(const struct escape *e);

/*
 * Whether the dependency from channel in to channel out turns from down to
 * up: the only kind no up/down route induces.
 */
int escape_turns_up(const struct escape *e, uint32_t in, uint32_t out);

/*
 * Route lid again by up/down routing, the fewest hops and then the least
 * loaded links, and put all its routes on layer (every SL row); its
 * minimal routes' load is taken off the links first.
 */
void escape_lid(struct escape *e, uint32_t lid, uint8_t layer);

#endif
