/*
 * verify_internal.h - what the verifier's parts share (internal): the
 * switch-to-switch channels, the routes counted on them and the
 * dependencies between them, recorded per turn.
 *
 * The channels are the links of the fabric's switch graph, numbered switch
 * by switch in port order, so the k channels a switch sends on follow its
 * first one, and a port facing a switch has a local index (its channel
 * minus the first). A turn is a (switch, in port,
 * out port) pair of two switch-facing ports; the turns of a switch are
 * turn_base + in_local * k + out_local.
 * deps[turn * 16 + in VL] is the set of VLs routes leave on after
 * arriving on that VL: the channel dependency graph, one bit an edge.
 * When every switch maps SLs to VLs alike, whatever the ports (a map of
 * its own for all, as layered and minimal tables have), a route keeps one
 * VL from its first switch-to-switch link on, so a turn only ever leads
 * from a VL to the same VL: deps[turn] is then the set of those VLs, a
 * sixteenth of the table (for the 16x16x16 HyperX 17 MB instead of
 * 265 MB, which fits in the caches the route walk reads it through).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VERIFY_INTERNAL_H
#define VLROUTE_VERIFY_INTERNAL_H

#include <stdint.h>

#include <vlroute/verify.h>

/* What the hot loops need of a switch port facing a switch, in one place. */
struct verify_hop {
	uint32_t channel;	/* the link sent through it, VLR_NONE */
	uint32_t next;		/* the switch it leads to */
	uint32_t back;		/* the link sent back to it */
	uint32_t in_port;	/* the port it arrives on */
};

/* What the hot loops need of a switch, in one place. */
struct verify_switch {
	uint64_t sl2vl;		/* offset of its block in the tables' sl2vl */
	uint64_t turn_base;	/* its first turn */
	uint32_t first_slot;	/* port slot of its port 0 */
	uint32_t width;		/* ports + 1: rows of its SL2VL block */
	uint32_t first;		/* its first channel */
	uint32_t channels;	/* channels it sends on (k) */
	int uniform;		/* every pair of its ports maps SLs to VLs as map:
				   the walk reads map, not the block */
	uint8_t map[VLR_NUM_SLS];
};

struct verify_channels {
	struct vlr_switch_graph graph;	/* channel c is its link c */
	struct verify_hop *hop;		/* [port slot]: the graph's link through it */
	struct verify_switch *sw;	/* [switch] */
	uint64_t turns;
	unsigned stride;	/* 16; 1 when every turn keeps its VL */
	uint16_t *deps;		/* [turn * stride + in VL]: out VLs (stride 16),
				   or [turn]: the VLs it keeps (stride 1) */
	uint16_t *vls;		/* [channel]: VLs routes use on it */
	uint64_t *load;		/* [channel]: routes through it */
};

/* Everything the route walk adds up besides the channels. */
struct verify_tally {
	uint64_t delivered;
	uint64_t hop_sum;
	unsigned hops_min;
	unsigned hops_max;
	uint16_t vl_mask;
	uint16_t sl_mask;
};

static inline uint16_t verify_vl_bit(unsigned vl)
{
	return (uint16_t)(1u << (vl & 15));
}

/* The 16 VLs (one per SL) of a switch from in_port to out_port. */
static inline const uint8_t *verify_sl2vl(const struct vlr_tables *tables,
					  const struct verify_switch *sw,
					  unsigned in_port, unsigned out_port)
{
	if (sw->uniform)
		return sw->map;
	return tables->sl2vl + sw->sl2vl +
	       ((uint64_t)in_port * sw->width + out_port) * VLR_NUM_SLS;
}

/* Entries of deps: turns * stride. */
static inline uint64_t verify_deps_size(const struct verify_channels *ch)
{
	return ch->turns * ch->stride;
}

/*
 * Routes arriving at switch sw through the port whose outgoing channel is
 * back_channel, on the VLs in_vls, leave on channel out_channel on VL
 * out_vl.
 */
static inline void verify_record_turn(struct verify_channels *ch,
				      const struct verify_switch *sw,
				      uint32_t back_channel, uint32_t out_channel,
				      uint16_t in_vls, uint16_t out_vl_bit)
{
	uint64_t turn = sw->turn_base + (uint64_t)(back_channel - sw->first) * sw->channels +
			(out_channel - sw->first);
	uint16_t *row = ch->deps + turn * ch->stride;

	if (ch->stride == 1) {
		*row |= in_vls & out_vl_bit;	/* the same: one map everywhere */
		return;
	}
	while (in_vls) {
		row[__builtin_ctz(in_vls)] |= out_vl_bit;
		in_vls &= (uint16_t)(in_vls - 1);
	}
}

int verify_channels_init(const struct vlr_tables *tables, struct verify_channels *ch,
			 struct vlr_error *err);
void verify_channels_free(struct verify_channels *ch);

/* Walk every route on threads threads (0: as many as worth it), filling the
 * reachability part of the report. */
int verify_routes(const struct vlr_tables *tables, unsigned threads,
		  struct verify_channels *ch, struct verify_tally *tally,
		  struct vlr_verify_report *report, struct vlr_error *err);

/* Count the graph's nodes and edges and look for one cycle. */
int verify_cdg(const struct vlr_tables *tables, const struct verify_channels *ch,
	       struct vlr_verify_report *report, struct vlr_error *err);

#endif
