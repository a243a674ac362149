/*
 * lowdiam.h - minimal next hops on a recognised HyperX, Dragonfly or
 * Dragonfly+ (internal; the minimal and valiant engines build on it).
 *
 * lowdiam_next gives the channel a switch takes towards a target switch:
 * HyperX dimension order (forward or reversed), Dragonfly local-global-
 * local, Dragonfly+ up-global-down. Where several channels qualify (more
 * global links between two groups, the spines of a group), it takes the one
 * that carries the fewest routes so far and counts the route on it.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_LOWDIAM_H
#define VLROUTE_LOWDIAM_H

#include <vlroute/engines.h>
#include <vlroute/topology.h>

#include "route_graph.h"

struct lowdiam {
	struct route_graph graph;
	struct vlr_topology topology;
	unsigned dim_order[VLR_MAX_DIMS];
	unsigned dim_rank[VLR_MAX_DIMS];	/* position of a dimension in that order */
	uint64_t *load;			/* [channel]: routes counted on it */
	uint8_t *channel_class;		/* [channel]: enum vlr_port_class */
	uint8_t *channel_dim;		/* [channel]: HyperX dimension */
	/* Dragonflies: the global channels from group G to group H */
	uint32_t *gateway_first;	/* [G * groups + H], groups^2 + 1 */
	uint32_t *gateway;		/* channels */
	uint32_t *member_first;		/* [G]: switches of group G, groups + 1 */
	uint32_t *member;
};

/*
 * Index a fabric recognised as topology (which the lowdiam takes over, and
 * frees on failure too); err says what failed.
 */
int lowdiam_init(struct lowdiam *ld, const struct vlr_tables *tables,
		 struct vlr_topology *topology, const struct vlr_engine_options *options,
		 struct vlr_error *err);
void lowdiam_free(struct lowdiam *ld);

/*
 * Which spine a Dragonfly+ leaf may go up to towards a leaf of its own
 * group: one whose index has parity phase with the two leaves' indices
 * ((leaf + target + spine) % 2 == phase), so that the spine can tell a
 * first-phase hop from a second-phase one by its in and out ports alone;
 * and none marked in avoid (a trunk the route must not join early). When
 * no spine qualifies, parity gives way first, then avoid.
 */
struct lowdiam_way {
	unsigned phase;			/* 0 or 1 */
	const uint8_t *avoid;		/* [switch]: 1 to avoid; NULL: none */
};

/* Channel from sw towards switch target (sw != target); reversed: HyperX
   dimensions in reverse order; way: NULL for any spine. Counts the route
   on the channel taken. */
uint32_t lowdiam_next(struct lowdiam *ld, uint32_t sw, uint32_t target, int reversed,
		      const struct lowdiam_way *way);

/* Dragonflies: the least-loaded global channel from group `from` into
   group `into`, or VLR_NONE. */
uint32_t lowdiam_gateway(const struct lowdiam *ld, uint32_t from, uint32_t into);

/* The channel from sw to its neighbour next, or VLR_NONE. */
uint32_t lowdiam_channel_to(const struct lowdiam *ld, uint32_t sw, uint32_t next);

#endif
