/*
 * tables.h - table sets and the VL policies they carry.
 *
 * A table set: everything a subnet manager programs into a
 * fabric, and the contract between the routing engines and everything
 * downstream (OpenSM, the verifier, the simulator, the analyses).
 *
 * A table set belongs to one fabric and uses that fabric's LIDs (the lid
 * and lmc fields of its ports). It holds:
 *   - the linear forwarding table (LFT) of every switch: out port per LID;
 *   - the path SL of every (source endpoint port, DLID): SL rows of one SL
 *     per LID, shared by the source ports that use them (sources attached
 *     to one switch usually share a row);
 *   - the SL2VL table of every switch (in port, out port, SL -> VL) and of
 *     every endpoint port (SL -> VL on its injection link).
 *
 * Valiant routes and VL policies as the tables carry them.
 *
 * The minimal and valiant engines say, per LID, what kind of route leads to
 * it (struct vlr_tables: lid_kind, lid_via):
 *   minimal     the topology's minimal route (LID offset 0 of every port);
 *   valiant     through an intermediate switch: the minimal route from the
 *               intermediate to the port is the "trunk", and every other
 *               switch routes minimally towards the intermediate until it
 *               meets the trunk (the routes toward one DLID form an in-tree);
 *               the intermediate may be the port's own switch, whose trunk
 *               is that switch alone: every route is then minimal (as the
 *               Valiant studies draw intermediates among all switches);
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
#ifndef VLROUTE_TABLES_H
#define VLROUTE_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/fabric.h>
#include <vlroute/util.h>

struct vlr_tables;

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
	VLR_MIN_BOTH,		/* phase 1 for routes whose source switch is on
				   the trunk (the source is the intermediate),
				   phase 2 for minimal LIDs (the destination) */
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
	VLR_ROUTE_MINIMAL = 0,	/* DLID of kind minimal, or whose intermediate
				   is its own switch (no second phase) */
	VLR_ROUTE_VALIANT,	/* reaches the trunk after leaving its switch */
	VLR_ROUTE_ON_TRUNK,	/* source switch on the trunk: minimal, phase 2 */
};

/*
 * Which DLID of a destination's LMC range a source uses. The analyses and
 * the simulator each implement a subset (VLR_ANALYZE_DLID_CHOICES in
 * analyze.h, vlr_sim_dlid_parse in sim.h) and refuse the others.
 */
enum vlr_dlid_choice {
	VLR_DLID_BASE = 0,	/* always the base LID (offset 0) */
	VLR_DLID_SPREAD,	/* analyze: every LID, the load shared evenly */
	VLR_DLID_RANDOM,	/* a random offset per pair (analyze) or a random
				   Valiant offset per packet (sim) */
	VLR_DLID_RECOMPUTE,	/* sim: random, and redrawn while blocked at the
				   source switch */
	VLR_DLID_RESTRICTED,	/* sim: RVAL, restricted offsets for traffic
				   inside the destination's partition */
	VLR_DLID_ADAPTIVE,	/* sim: minimal or one random Valiant offset, by
				   the source switch's queues (UGAL-L) */
	VLR_DLID_ADAPTIVE_VC_H,	/* sim: as adaptive, the queues of each
				   offset's VLs when both leave by one port
				   (UGAL-L_VC_H) */
	VLR_DLID_CHOICES,
};

/* A set of DLID choices: the OR of their bits. */
#define VLR_DLID_BIT(choice) (1u << (choice))

const char *vlr_dlid_choice_name(enum vlr_dlid_choice choice);
/*
 * The choice of the set accepted named text: 0, or -1 when text names none
 * of them. It sets no error: the analyses and the simulator word their
 * refusals differently (with vlr_dlid_choice_list).
 */
int vlr_dlid_choice_parse(const char *text, unsigned accepted,
			  enum vlr_dlid_choice *choice);
/* The names of the set accepted in enum order, "a, b" + last + "c". */
void vlr_dlid_choice_list(unsigned accepted, const char *last, char *buf, size_t size);
/* 0 if choice is in accepted, else "WHO takes the DLID choice ..., not X". */
int vlr_dlid_choice_check(enum vlr_dlid_choice choice, unsigned accepted, const char *who,
			  struct vlr_error *err);

const char *vlr_lid_kind_name(enum vlr_lid_kind kind);
const char *vlr_vl_policy_name(enum vlr_vl_policy_kind kind);
const char *vlr_phase_min_name(enum vlr_phase_min phase_min);
int vlr_vl_policy_parse(const char *text, enum vlr_vl_policy_kind *kind,
			struct vlr_error *err);
int vlr_phase_min_parse(const char *text, enum vlr_phase_min *phase_min,
			struct vlr_error *err);

/* Ladder, ladder-reuse and 2phases: policies with an ideal form, which the
   simulator's ideal VLs run from the route kinds alone. */
int vlr_vl_policy_has_ideal_form(const struct vlr_vl_policy *policy);

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

/* The escalation levels of a family's phases: 2 on the Dragonflies (a
   global link, a turn), 1 on a HyperX; files do not record them. */
void vlr_vl_policy_fit_family(struct vlr_vl_policy *policy, enum vlr_family family);

/*
 * The phase (0 or 1) whose VL set 2phases gives a packet: a Valiant one's
 * own phase (phase_two), a minimal one's by phase_min - MinFirst the
 * first, MinLast the second, MinBoth the first when its source switch is
 * the intermediate (VLR_ROUTE_ON_TRUNK), else the second.
 */
unsigned vlr_policy_phase(const struct vlr_vl_policy *policy,
			  enum vlr_route_class route_class, int phase_two);

/*
 * Minimal next hops between switches, for routing without tables (the
 * simulator's reference model): port[target * num_switches + sw] is the
 * port number by which switch sw forwards towards switch target, 0 where
 * sw is target; hops[target * num_switches + sw] the switch-to-switch
 * hops of the shortest paths from sw to target (at most 255). Switches are
 * numbered as in struct vlr_tables.
 */
struct vlr_switch_routes {
	uint32_t num_switches;
	uint8_t *port;
	uint8_t *hops;
};

int vlr_switch_routes_init(struct vlr_switch_routes *routes, uint32_t num_switches,
			   struct vlr_error *err);
void vlr_switch_routes_free(struct vlr_switch_routes *routes);

/*
 * Which switches lie on the trunk of which DLID: a bit per (switch, LID),
 * built from a table set's LFTs and lid_via. A LID of kind minimal has its
 * owner's switch as its trunk. And which LIDs route minimally from every
 * switch (vlr_trunks_route_class), worked out once per LID here rather
 * than through the fabric's ports for every route or packet.
 */
struct vlr_trunks {
	uint32_t words_per_switch;
	uint64_t *bits;
	uint64_t *minimal;		/* a bit per LID, words_per_switch words */
};

int vlr_trunks_build(const struct vlr_tables *tables, struct vlr_trunks *trunks,
		     struct vlr_error *err);
void vlr_trunks_free(struct vlr_trunks *trunks);

/*
 * The class of the route from switch sw to dlid: minimal for a LID of
 * kind minimal (or tables without route kinds) and for one whose
 * intermediate is its own switch, on the trunk when sw lies on the DLID's
 * trunk, else Valiant.
 */
enum vlr_route_class vlr_trunks_route_class(const struct vlr_tables *tables,
					    const struct vlr_trunks *trunks, uint32_t sw,
					    uint32_t dlid);

static inline int vlr_trunks_has(const struct vlr_trunks *trunks, uint32_t sw,
				 uint32_t dlid)
{
	return (trunks->bits[(uint64_t)sw * trunks->words_per_switch + dlid / 64] >>
		(dlid % 64)) & 1;
}

#define VLR_NO_PORT 255		/* LFT entry of a LID the switch does not route */
#define VLR_NUM_SLS 16
#define VLR_MAX_DATA_VLS 15	/* VL 0..14; VL 15 is management */
#define VLR_MANY_SLS 65		/* needs: more SLs than the 64 SL codes tried */

/*
 * Tables made for the simulator's ideal VLs only: a VL policy (ladder,
 * ladder-reuse, 2phases) that cannot be compiled into the SLs and VLs of
 * the fabric, routed anyway when asked (vlroute route
 * --allow-unprogrammable). Their path SLs and SL2VL are vlr_tables_new's
 * defaults and mean nothing, so nothing may program them: no SL2VL or
 * path-SL file is written for them, the verifier leaves their channel
 * dependencies unjudged and fails them, the simulator's exact VLs and the
 * plugin refuse them. The routes, the route kinds and the policy's ideal
 * form are whole.
 */
struct vlr_unprogrammable {
	int marked;			/* 0: programmable tables (the rest 0) */
	unsigned sls;			/* SLs the policy needs (VLR_MANY_SLS: more
					   than 64) */
	unsigned vls;			/* VLs it needs */
	unsigned vls_offered;		/* VLs the fabric offered it */
};

/*
 * "not programmable: needs 19 SLs", "... needs 6 VLs (4 offered)" or
 * "... needs 19 SLs and 6 VLs (4 offered)"; "" for programmable tables.
 */
void vlr_unprogrammable_describe(const struct vlr_unprogrammable *mark, char *buf,
				 size_t size);

struct vlr_tables {
	struct vlr_fabric *fabric;	/* the topology and its LIDs */
	int owns_fabric;		/* free the fabric with the tables */

	uint16_t max_lid;		/* highest LID in use */
	uint32_t lid_stride;		/* max_lid + 1: entries per LFT or SL row */
	uint32_t *lid_owner;		/* [lid]: port slot owning the LID, VLR_NONE;
					   a switch's LID belongs to its port 0 */

	uint32_t num_switches;
	uint32_t *switch_node;		/* switch index -> node */
	uint32_t *switch_of_node;	/* node -> switch index, VLR_NONE */
	uint8_t *lft;			/* num_switches rows of lid_stride ports */

	uint32_t num_sl_rows;
	uint8_t *sl_rows;		/* num_sl_rows rows of lid_stride SLs */
	uint32_t *port_sl_row;		/* [port slot]: its SL row, VLR_NONE = SL 0 */

	uint64_t *sl2vl_offset;		/* [switch]: start of its block in sl2vl */
	uint64_t sl2vl_size;		/* bytes of sl2vl */
	uint8_t *sl2vl;			/* per switch: (in * (n + 1) + out) * 16 + sl */
	uint8_t *port_sl2vl;		/* [port slot * 16 + sl]: endpoint ports */

	uint8_t num_vls;		/* data VLs the fabric offers (1..15) */

	/*
	 * Written by the minimal and valiant engines, read by the simulator's
	 * ideal mode and the analyses (see vlpolicy.h); NULL and
	 * VLR_VLP_NONE for other tables.
	 */
	uint8_t *lid_kind;		/* [lid]: enum vlr_lid_kind */
	uint32_t *lid_via;		/* [lid]: intermediate switch, VLR_NONE */
	struct vlr_vl_policy policy;
	struct vlr_unprogrammable unprogrammable;	/* for ideal VLs only */
};

/*
 * Tables for a fabric whose LIDs are assigned: every LFT empty
 * (VLR_NO_PORT), every path SL 0, every SL2VL table SL i -> VL i for
 * i < num_vls and VL 0 above. Fails, naming the ports, when two ports share
 * a LID or a linked endpoint port has no LID.
 */
struct vlr_tables *vlr_tables_new(struct vlr_fabric *fabric, unsigned num_vls,
				  struct vlr_error *err);
void vlr_tables_free(struct vlr_tables *tables);

/* Back to the state vlr_tables_new leaves: empty LFTs, SL 0, default SL2VL,
   no route kinds or policy, programmable. */
void vlr_tables_reset(struct vlr_tables *tables);

/* Replace the SL rows with `rows` rows of SL 0 (port_sl_row untouched). */
int vlr_tables_alloc_sl_rows(struct vlr_tables *tables, uint32_t rows,
			     struct vlr_error *err);

/*
 * The LFT entries of count LIDs from first on, LID by LID:
 * columns[k * num_switches + switch] is switch's entry for LID first + k.
 * Read a few LIDs at a time, each LFT row is read in runs.
 */
void vlr_tables_lft_columns(const struct vlr_tables *tables, uint32_t first,
			    uint32_t count, uint8_t *columns);

/* The reverse: columns (laid out as above) into the LFTs. */
void vlr_tables_set_lft_columns(struct vlr_tables *tables, uint32_t first,
				uint32_t count, const uint8_t *columns);

static inline uint8_t *vlr_tables_lft(const struct vlr_tables *tables,
				      uint32_t sw)
{
	return tables->lft + (uint64_t)sw * tables->lid_stride;
}

static inline uint8_t *vlr_tables_sl_row(const struct vlr_tables *tables,
					 uint32_t row)
{
	return tables->sl_rows + (uint64_t)row * tables->lid_stride;
}

/* SL a source port uses towards dlid. */
static inline uint8_t vlr_tables_path_sl(const struct vlr_tables *tables,
					 uint32_t source_port, uint16_t dlid)
{
	uint32_t row = tables->port_sl_row[source_port];

	return row == VLR_NONE ? 0 : vlr_tables_sl_row(tables, row)[dlid];
}

/* The 16 VLs (one per SL) of switch sw for packets from in_port to out_port. */
static inline uint8_t *vlr_tables_sl2vl(const struct vlr_tables *tables,
					uint32_t sw, unsigned in_port,
					unsigned out_port)
{
	unsigned ports = tables->fabric->nodes[tables->switch_node[sw]].num_ports + 1;

	return tables->sl2vl + tables->sl2vl_offset[sw] +
	       ((uint64_t)in_port * ports + out_port) * VLR_NUM_SLS;
}

/* The 16 VLs of an endpoint port's injection link. */
static inline uint8_t *vlr_tables_port_sl2vl(const struct vlr_tables *tables,
					     uint32_t port)
{
	return tables->port_sl2vl + (uint64_t)port * VLR_NUM_SLS;
}

/* Port slot owning lid, or VLR_NONE. */
static inline uint32_t vlr_tables_lid_port(const struct vlr_tables *tables,
					   uint32_t lid)
{
	return lid <= tables->max_lid ? tables->lid_owner[lid] : VLR_NONE;
}

/* Is this port slot a source of traffic: a linked CA or router port? */
int vlr_tables_is_source(const struct vlr_tables *tables, uint32_t port);

#endif
