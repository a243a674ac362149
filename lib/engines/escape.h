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
 * Rank the switches from the switch of least eccentricity, plant the
 * tree, and charge every link with the routes of the tables' LFTs. NULL
 * when out of memory.
 */
struct escape *escape_new(struct vlr_tables *tables, const struct route_graph *graph);
void escape_free(struct escape *e);

/*
 * The mean bandwidth a pair of hosts can expect from the routes in the
 * tables' LFTs, when every host sends to one other at random (as in an
 * effective bisection bandwidth's instances): each pair gets its share of
 * the busiest link of its route, whose routes of the traffic are
 * estimated from the all-to-all routes on it. The pairs' routes are
 * counted afresh (host LIDs only: the routes to switches carry no data);
 * the links' load for the escape paths is untouched.
 */
double escape_bandwidth(struct escape *e);

/* The root switch (index) of the ranking. */
uint32_t escape_root(const struct escape *e);

/*
 * Whether the dependency from channel in to channel out turns from down to
 * up: the only kind no up/down route induces.
 */
int escape_turns_up(const struct escape *e, uint32_t in, uint32_t out);

/* Whether it is a turn of the tree's routes: the layer always keeps those. */
int escape_tree_turn(const struct escape *e, uint32_t in, uint32_t out);

/*
 * Order the channels topologically by the dependencies of a layer's routes
 * (counts[(channel * port_stride + out port) * step], cdg_layers.h) and
 * the tree's turns, in the up/down order where they leave a choice. -1 if
 * they have a cycle.
 */
int escape_set_order(struct escape *e, const uint32_t *counts, unsigned port_stride,
		     unsigned step);

/* Take lid's routes in the LFTs off the links' load, before escape_lid. */
void escape_unload(struct escape *e, uint32_t lid);

/*
 * Route lid again: the least cost routes whose dependencies fit the order
 * of escape_set_order (which then still holds); the switches those do not
 * reach take the tree's route, and so do the switches on it and those
 * whose routes can join it only against the order. Its LFT entries
 * change; its layer is the caller's. Returns how many switches take the
 * tree's route.
 */
uint32_t escape_lid(struct escape *e, uint32_t lid);

#endif
