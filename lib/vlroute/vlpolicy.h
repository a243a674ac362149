/*
 * vlpolicy.h - Valiant routes and VL policies as the tables carry them.
 *
 * The minimal and valiant engines say, per LID, what kind of route leads to
 * it (struct vlr_tables: lid_kind, lid_via):
 *   minimal     the topology's minimal route (LID offset 0 of every port);
 *   valiant     through an intermediate switch: the minimal route from the
 *               intermediate to the port is the "trunk", and every other
 *               switch routes minimally towards the intermediate until it
 *               meets the trunk (the routes toward one DLID form an in-tree);
 *   restricted  a valiant offset whose intermediate lies in the port's
 *               partition (its Dragonfly group, a HyperX row through it),
 *               for Restricted Valiant (RVAL).
 * A packet is in phase 2 from the first switch of the trunk it reaches
 * (the intermediate itself, or where its way to the intermediate joins
 * the trunk); a minimal route is in phase 1 throughout.
 *
 * A VL policy gives every switch-to-switch hop the set of VLs a packet may
 * use (hop 0 leaves the source switch). The injection link uses hop 0's set;
 * the delivery link any VL of the policy. IB tables carry one VL per hop
 * (compiled into path SL + SL2VL); the ideal form is this function of the
 * hop, the phase and the route class, which the simulator's ideal mode
 * evaluates per packet.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VLPOLICY_H
#define VLROUTE_VLPOLICY_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/error.h>

enum vlr_lid_kind {
	VLR_LID_MINIMAL = 0,
	VLR_LID_VALIANT,
	VLR_LID_RESTRICTED,
};

enum vlr_vl_policy_kind {
	VLR_VLP_NONE = 0,	/* VLs only from SL2VL (sssp, dfsssp) */
	VLR_VLP_LADDER,		/* hop i on VL i */
	VLR_VLP_LADDER_REUSE,	/* hop i on any VL 0..i (ideal form only) */
	VLR_VLP_TWO_PHASES,	/* one set of K VLs per Valiant phase */
	VLR_VLP_LAYERS,		/* one VL per route, by cycle breaking */
};

enum vlr_phase_min {
	VLR_MIN_FIRST = 0,	/* minimal routes use the phase 1 set */
	VLR_MIN_LAST,		/* ... the phase 2 set */
	VLR_MIN_BOTH,		/* phase 1 for offset-0 routes, phase 2 for
				   routes whose source switch is on the trunk */
};

struct vlr_vl_policy {
	enum vlr_vl_policy_kind kind;
	enum vlr_phase_min phase_min;	/* 2phases */
	unsigned vls_per_phase;		/* 2phases: K */
	unsigned vls;			/* VLs the policy uses in all */
	unsigned phase_levels;		/* 2phases: escalation levels in a phase
					   (Dragonflies 2, HyperX 1; 0 = 1) */
};

/* How one (source switch, DLID) route relates to its DLID's intermediate. */
enum vlr_route_class {
	VLR_ROUTE_MINIMAL = 0,	/* DLID of kind minimal */
	VLR_ROUTE_VALIANT,	/* reaches the trunk after leaving its switch */
	VLR_ROUTE_ON_TRUNK,	/* source switch on the trunk: minimal, phase 2 */
};

const char *vlr_lid_kind_name(enum vlr_lid_kind kind);
const char *vlr_vl_policy_name(enum vlr_vl_policy_kind kind);
const char *vlr_phase_min_name(enum vlr_phase_min phase_min);
int vlr_vl_policy_parse(const char *text, enum vlr_vl_policy_kind *kind,
			struct vlr_error *err);
int vlr_phase_min_parse(const char *text, enum vlr_phase_min *phase_min,
			struct vlr_error *err);

/* "2phases minfirst K=2 (4 VLs)" and the like. */
void vlr_vl_policy_describe(const struct vlr_vl_policy *policy, char *buf,
			    size_t size);

/*
 * Bit mask of the VLs a hop may use: hop = switch-to-switch hops already
 * taken, phase_two = the packet has reached its trunk, escalation = the
 * global links (Dragonfly) or down-then-up turns (Dragonfly+) taken in
 * the current phase. 2phases splits each phase's K VLs into phase_levels
 * equal parts and a hop uses part min(escalation, levels - 1), so that a
 * free choice within the part cannot close a dependency cycle (with fewer
 * VLs than levels: the single VL min(escalation, K - 1) of the phase).
 * 0 for VLR_VLP_NONE and VLR_VLP_LAYERS (their VL comes from SL2VL).
 */
uint16_t vlr_policy_vl_mask(const struct vlr_vl_policy *policy,
			    enum vlr_route_class route_class, unsigned hop,
			    int phase_two, unsigned escalation);

/*
 * Which switches lie on the trunk of which DLID: a bit per (switch, LID),
 * built from a table set's LFTs and lid_via. A LID of kind minimal has its
 * owner's switch as its trunk.
 */
struct vlr_tables;
struct vlr_trunks {
	uint32_t words_per_switch;
	uint64_t *bits;
};

int vlr_trunks_build(const struct vlr_tables *tables, struct vlr_trunks *trunks,
		     struct vlr_error *err);
void vlr_trunks_free(struct vlr_trunks *trunks);

static inline int vlr_trunks_has(const struct vlr_trunks *trunks, uint32_t sw,
				 uint32_t dlid)
{
	return (trunks->bits[(uint64_t)sw * trunks->words_per_switch + dlid / 64] >>
		(dlid % 64)) & 1;
}

#endif
