/*
 * cdg_layers.h - the channel dependency graph of every route, split into
 * virtual layers, and the breaking of its cycles (internal; dfsssp's core).
 *
 * A route is (source switch, DLID): sources on one switch share every
 * dependency (their injection links have none), so they share a layer. The
 * layer of a route ends up where its SL will: the tables' SL row of its
 * source switch. A dependency is (channel a, port p): a route arrives
 * over channel a at switch u and leaves u by port p; each layer counts the
 * routes inducing each dependency.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CDG_LAYERS_H
#define VLROUTE_CDG_LAYERS_H

#include <vlroute/engines.h>

#include "escape.h"
#include "route_graph.h"

#define CDG_MAX_LAYERS VLR_NUM_SLS
#define CDG_VANISHED_MAX 16	/* dependencies noted vanishing between repairs:
				   more than all but a few cuts in millions make
				   (escape cuts make more more often) */

/*
 * What the layering keeps of one LID at one switch, together because walking
 * a LID's tree reads all three at each switch it visits: LID by LID, so that
 * one LID's cells are near each other.
 */
struct cdg_cell {
	uint8_t port;		/* the LFT entry */
	uint8_t feeders;	/* switches that forward the LID to this one */
	uint8_t layer;		/* of the route from this switch (with sources);
				   copied to the SL rows when the cycles are broken */
};

/* Scratch for one LID's tree; one per thread setting up. */
struct cdg_tree {
	uint32_t *next;		/* [switch]: next switch towards the LID */
	uint32_t *subtree;	/* [switch]: source switches behind it */
	uint32_t *pending;	/* switches left to visit */
	uint32_t *depth;	/* [switch]: hops to the target in the tree */
	uint32_t *order;	/* the LID's switches, farthest first */
};

/* A switch of a LID's subtree, walked back from a channel's tail. */
struct cdg_walk {
	uint32_t sw;
	uint32_t up;		/* place of the switch it forwards to */
	uint32_t moved;		/* routes moved at it (and then below it) */
	uint64_t slot;		/* dependency it induces there (not at the tail) */
};

struct cdg_layers {
	const struct route_graph *graph;
	struct vlr_tables *tables;	/* LFTs in; SL rows = layers out */
	uint32_t *row_of_switch;	/* [switch]: its SL row, VLR_NONE if no sources */
	uint32_t num_lids;		/* owned LIDs that switches route */
	uint32_t *lids;			/* those LIDs */
	uint32_t *target;		/* [lid]: switch delivering it, VLR_NONE */
	struct cdg_cell *cells;		/* [lid * switches + switch] */
	uint32_t *dep_first;		/* [dependency slot]: its LIDs in dep_lids */
	uint16_t *dep_lids;		/* the LIDs whose LFT entries make each
					   dependency, as the LFTs were routed */
	uint32_t *first_port;		/* [switch]: port slot of its port 0 */
	uint8_t *back_port;		/* [channel]: its head's port back */
	uint32_t *counts;		/* [(channel * port_stride + port) * 2 +
					   layer % 2]: the routes of the layer
					   searched, and of the next */
	unsigned layers;		/* layers holding routes */
	uint64_t cycles_broken;
	uint64_t routes_moved;
	/* escape paths (cdg_layers_escape_on) */
	struct escape *escape;		/* the caller's; NULL: none */
	uint8_t *escaped;		/* [lid]: how it was routed again (cdg_layers.c) */
	uint32_t *queue;		/* LIDs to escape once a search is done */
	uint32_t queued;
	uint32_t escaped_lids;		/* routed again */
	uint32_t tree_lids;		/* of them partly along the tree */
	uint64_t tree_routes;		/* their switches' routes along it */
	/* scratch */
	struct cdg_tree tree;		/* the caller's thread's */
	struct cdg_walk *walk;		/* a subtree's switches (cdg_layers.c) */
	uint64_t *vanished;		/* dependency slots whose counts fell to 0 */
	uint32_t num_vanished;		/* since the search path was last repaired;
					   more than CDG_VANISHED_MAX: not listed */
};

/*
 * Every route in layer 0, dependencies counted, on threads threads (0: one
 * per online CPU; the same on any count). The tables' LFTs must be
 * complete; SL rows are (re)allocated, one per switch with sources.
 */
int cdg_layers_init(struct cdg_layers *cdg, const struct route_graph *graph,
		    struct vlr_tables *tables, unsigned threads, struct vlr_error *err);
void cdg_layers_free(struct cdg_layers *cdg);

/*
 * Let cdg_layers_break_cycles make its last layer acyclic by escape paths:
 * escape must have charged the links with the tables' LFTs.
 */
int cdg_layers_escape_on(struct cdg_layers *cdg, struct escape *escape,
			 struct vlr_error *err);

/*
 * Make the layers below limit acyclic, moving routes up as the heuristic
 * says. The routes moved to layer limit stay there, cycles and all, unless
 * escape paths are on: then the tree's turns count among the dependencies
 * of layer limit, and each of its cycles is broken at a dependency that
 * turns from down to up, by routing the destinations that induce it again
 * (escape.h) on routes that follow a topological order of the layer's
 * other dependencies, or along the tree where none reach every switch;
 * until no cycle is left. Fails when more than CDG_MAX_LAYERS layers would
 * be needed.
 */
int cdg_layers_break_cycles(struct cdg_layers *cdg, enum vlr_heuristic heuristic,
			    unsigned limit, struct vlr_error *err);

/*
 * The other way within layers VLs, escape paths on: the destinations split
 * into layers parts of switches near each other, every route of a part on
 * its layer (the tables' LFTs), and each layer's cycles broken as
 * cdg_layers_break_cycles breaks those of its last layer; with every,
 * every destination is routed again by escape paths first, not only
 * those whose routes close a cycle.
 */
int cdg_layers_escape_whole(struct cdg_layers *cdg, unsigned layers, int every,
			    struct vlr_error *err);

#endif
