/*
 * vl_compile.c - a VL policy compiled into IB tables: the VL each hop
 * needs, and one SL per (source switch, DLID) so that every switch can
 * give it that VL from (in port, out port, SL) alone.
 *
 * VL per hop, IB-exact (the ideal form keeps the policy's whole sets):
 *   none       HyperX 0; Dragonfly 1 once a global link is behind the
 *              packet; Dragonfly+ 1 after a down-then-up turn, which only
 *              routes to spine LIDs take (port classes decide, one SL)
 *   ladder     hop i on VL i (ladder-reuse compiles the same: VL i is
 *              among its allowed 0..i); on the Valiant tables of the
 *              Dragonflies, where the hop index cannot be told from the
 *              ports, the hop's role in l g l l g l (u g d u g d) instead:
 *              ladder role r on VL r, ladder-reuse the lowest VL of the
 *              port's class that keeps the route climbing (role_vl)
 *   2phases    Dragonflies: the first VL of the phase's set, plus one per
 *              global link (Dragonfly+: down-then-up turn) already taken
 *              in this phase (up to K - 1; two_phases_vl);
 *              HyperX: minlast the phase's first VL; minfirst and minboth
 *              the DESIGN scheme without SL bits: set 0 for the injection
 *              hop and for turns to a later dimension of the order, set 1
 *              for the rest (phase 2 runs in reverse order)
 * SLs: SL2VL entries start unset; a route takes the SL code its structure
 * calls for (Valiant on a Dragonfly or Dragonfly+, see
 * dragonfly_group_codes) if its entries along the route are unset or
 * already the VLs it needs, else the lowest code that fits (first fit).
 * Codes end up as SLs, so at most 16 may be used. What the codes cannot
 * tell, the Valiant tables make the ports tell: Dragonfly+ spines inside a
 * group are chosen by parity (lowdiam_way in engine_valiant.c).
 * A policy that needs more SLs or VLs than there are is refused, or, when
 * the caller allows it and the policy has an ideal form of at most 15 VLs,
 * leaves the tables marked unprogrammable (struct vlr_unprogrammable) with
 * what it needs, every path on SL 0 and the default SL2VL.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layering.h"
#include "vl_compile.h"

#define UNSET 0xff
#define MAX_ROUTE_HOPS 64
#define MAX_CODES 64		/* SL codes tried, to say how many a policy needs */

struct hop {
	uint64_t key;		/* (switch, in, out): its SL2VL block / 16 */
	uint8_t vl;
};

struct compile {
	struct vlr_tables *tables;
	const struct lowdiam *ld;
	struct vlr_vl_policy policy;
	struct vlr_trunks trunks;
	uint8_t *codes;			/* [key * MAX_CODES + code]: VL, UNSET */
	uint8_t *injection;		/* [switch * MAX_CODES + code]: injection VL */
	uint8_t *host_port;		/* [switch]: the host port whose entries count */
	unsigned vls_needed;
	unsigned sls_needed;		/* distinct SL codes used */
	uint64_t codes_used;		/* bit c: code c */
	uint8_t code_of_sl[VLR_NUM_SLS];	/* the codes, numbered as SLs */
	uint8_t sl_of_code[MAX_CODES];
	unsigned longest;		/* hops of the longest route */
	unsigned preferred;		/* the SL code to try first for this route */
	int colour_always;		/* colour even past the VLs, to count SLs */
	uint8_t injection_vl;		/* the route's VL on its CA's link */
	uint16_t *group_codes;		/* Dragonfly: [group]: its codes, A(G) */
	unsigned restricted_code;	/* Dragonfly: the first of two codes past them */
	uint64_t routes_without_sl;
	struct hop hops[MAX_ROUTE_HOPS];
};

/* The state of a packet walking its route. */
struct walk {
	uint32_t source;
	uint32_t lid;
	enum vlr_route_class route_class;
	unsigned hop;
	int phase_two;
	unsigned globals_in_phase;
	unsigned globals;
	unsigned turns_in_phase;	/* Dragonfly+: down-then-up turns */
	unsigned turns;
	int fresh_phase;		/* phase 2 began at this switch */
	int landed_on_trunk;		/* a global link led straight onto the trunk */
	uint32_t in_channel;	/* VLR_NONE on the first switch */
};

static unsigned lowest_bit(uint16_t mask)
{
	unsigned bit = 0;

	while (mask && !(mask & 1)) {
		mask >>= 1;
		bit++;
	}
	return bit;
}

/*
 * 2phases: the first VL of the phase's set
 * that the hop's escalation allows. A down-then-up turn in the first phase
 * (Dragonfly+ routes to spine LIDs) takes the second phase's first VL, as
 * the turn at an intermediate leaf does: the leaf cannot tell them apart;
 * one in the second phase with one VL per phase takes a third VL.
 */
static unsigned two_phases_vl(const struct compile *cc, const struct walk *walk,
			      unsigned escalation)
{
	unsigned vl = lowest_bit(vlr_policy_vl_mask(&cc->policy, walk->route_class, walk->hop,
						    walk->phase_two, escalation));

	if (cc->ld->topology.params.family != VLR_FAMILY_DRAGONFLYPLUS || !escalation)
		return vl;
	if (vl < cc->policy.vls_per_phase)
		return cc->policy.vls_per_phase;
	return cc->policy.vls_per_phase == 1 ? 2 : vl;
}

/*
 * 2phases on a HyperX. Under minlast the first set carries only the first
 * phase, in dimension order, and the second only routes in reverse order
 * (trunks, minimal LIDs): the phases themselves are acyclic, and the SL
 * codes tell them apart. Under minfirst and minboth the routes that start
 * on a trunk run it in reverse order in the first set, beside the first
 * phase, which can close a cycle; there the turns decide (the DESIGN
 * scheme, one SL): set 0 for the injection hop and turns to a later
 * dimension of the order, set 1 for the rest.
 */
static unsigned hyperx_two_phases(const struct compile *cc, const struct walk *walk,
				  uint32_t channel)
{
	const struct lowdiam *ld = cc->ld;
	int set_one;

	if (cc->policy.phase_min == VLR_MIN_LAST)
		return two_phases_vl(cc, walk, 0);
	set_one = walk->in_channel != VLR_NONE &&
		  ld->dim_rank[ld->channel_dim[walk->in_channel]] >=
		  ld->dim_rank[ld->channel_dim[channel]];
	return set_one ? cc->policy.vls_per_phase : 0;
}

/* Hops that need a higher VL within their phase: after a Dragonfly global
   link, after a Dragonfly+ down-then-up turn (routes to spine LIDs). */
static unsigned escalations(enum vlr_family family, const struct walk *walk, int whole_route)
{
	if (family == VLR_FAMILY_DRAGONFLY)
		return whole_route ? walk->globals : walk->globals_in_phase;
	if (family == VLR_FAMILY_DRAGONFLYPLUS)
		return whole_route ? walk->turns : walk->turns_in_phase;
	return 0;
}

/*
 * The phase a Dragonfly or Dragonfly+ hop counts in for the role forms:
 * 0 or 1, and one more after a down-then-up turn inside a phase (routes
 * to Dragonfly+ spine LIDs). Minimal and on-trunk routes count as phase 1
 * (the ladders inject every packet at the bottom).
 */
static unsigned role_phase(const struct walk *walk)
{
	unsigned phase = walk->route_class == VLR_ROUTE_VALIANT && walk->phase_two;

	return phase + (walk->turns_in_phase ? 1 : 0);
}

/* The hop's place in its phase: before the global link, on it, after it. */
static unsigned role_place(const struct compile *cc, const struct walk *walk,
			   uint32_t channel)
{
	enum vlr_port_class class = (enum vlr_port_class)cc->ld->channel_class[channel];

	if (class == VLR_PORT_GLOBAL)
		return 1;
	if (class == VLR_PORT_UP)
		return 0;
	if (class == VLR_PORT_DOWN)
		return 2;
	return walk->globals_in_phase ? 2 : 0;
}

/*
 * Ladder on a Dragonfly or Dragonfly+: the rung of the hop's role, one of
 * the six of the longest Valiant route (l g l l g l, u g d u g d), so a
 * route that lacks a hop skips its rung. Ladder-reuse: the lowest VL of
 * the port's class that keeps every route climbing - local ports 0..3
 * (Dragonfly+ up and down ports 0..1), global ports 0..1.
 */
static unsigned role_vl(const struct compile *cc, const struct walk *walk, uint32_t channel)
{
	unsigned phase = role_phase(walk), place = role_place(cc, walk, channel);
	enum vlr_port_class class = (enum vlr_port_class)cc->ld->channel_class[channel];

	if (cc->policy.kind == VLR_VLP_LADDER)
		return 3 * phase + place;
	if (class == VLR_PORT_LOCAL)
		return 2 * phase + (place ? 1 : 0);
	return phase;
}

/*
 * Ladders on the Dragonflies' Valiant tables: VLs by the hop's role,
 * injection at VL 0. Minimal tables keep the exact hop index.
 */
static int role_form(const struct compile *cc)
{
	return cc->group_codes &&	/* Valiant tables of a Dragonfly(+) */
	       (cc->policy.kind == VLR_VLP_LADDER || cc->policy.kind == VLR_VLP_LADDER_REUSE);
}

static unsigned wanted_vl(const struct compile *cc, const struct walk *walk, uint32_t channel)
{
	enum vlr_family family = cc->ld->topology.params.family;

	switch (cc->policy.kind) {
	case VLR_VLP_LADDER:
	case VLR_VLP_LADDER_REUSE:
		if (role_form(cc))
			return role_vl(cc, walk, channel);
		return walk->hop;
	case VLR_VLP_TWO_PHASES:
		if (family == VLR_FAMILY_HYPERX)
			return hyperx_two_phases(cc, walk, channel);
		return two_phases_vl(cc, walk, escalations(family, walk, 0));
	default:
		return escalations(family, walk, 1) ? 1 : 0;
	}
}

static void start_walk(const struct compile *cc, struct walk *walk, uint32_t source,
		       uint32_t lid)
{
	memset(walk, 0, sizeof(*walk));
	walk->source = source;
	walk->lid = lid;
	walk->in_channel = VLR_NONE;
	walk->phase_two = vlr_trunks_has(&cc->trunks, source, lid);
	walk->route_class = vlr_trunks_route_class(cc->tables, &cc->trunks, source, lid);
}

static uint8_t *entries_of(const struct compile *cc, uint32_t sw, unsigned in, unsigned out)
{
	return vlr_tables_sl2vl(cc->tables, sw, in, out);
}

static uint64_t key_of(const struct compile *cc, uint32_t sw, unsigned in, unsigned out)
{
	return (uint64_t)(entries_of(cc, sw, in, out) - cc->tables->sl2vl) / VLR_NUM_SLS;
}

/* Collect the hops of a route and their VLs; returns the hop count or -1. */
/*
 * SL codes for Dragonfly groups: group G gets A(G), the G-th subset of
 * half of {0 .. n-1} (n the fewest codes with enough such subsets), so no
 * A(K) lies inside another A(H). A route through the intermediate group K
 * to group H takes a code in A(K) but not in A(H); a global port into
 * group Y reads the codes of A(Y) as phase 1 and the rest as phase 2, and
 * a local hop entered from a global link in group X reads A(X) as the
 * phase-1 one. Minimal and on-trunk routes in the first set take a code of
 * A(H). One code per route thus tells every switch the phase, whatever
 * groups Valiant picks. Routes with K = H take one of two further codes:
 * one when their global link lands on the trunk (the next hop is phase 2),
 * the other when it does not; minimal and on-trunk routes in the second
 * set (minlast, minboth on the trunk) the code after those.
 */
static int dragonfly_group_codes(struct compile *cc, struct vlr_error *err)
{
	uint32_t groups = cc->ld->topology.num_groups, g = 0;
	unsigned n, half, mask;

	for (n = 2; n <= VLR_NUM_SLS; n++) {
		uint64_t subsets = 1;
		unsigned i;

		half = n / 2;
		for (i = 0; i < half; i++)
			subsets = subsets * (n - i) / (i + 1);
		if (subsets >= groups)
			break;
	}
	cc->group_codes = calloc(groups + 1ull, sizeof(uint16_t));
	if (!cc->group_codes)
		return vlr_fail(err, "out of memory for the group SL codes");
	cc->restricted_code = n;
	if (n > VLR_NUM_SLS)
		return 0;
	for (mask = 0; mask < (1u << n) && g < groups; mask++)
		if ((unsigned)__builtin_popcount(mask) == half)
			cc->group_codes[g++] = (uint16_t)mask;
	return 0;
}

/* A minimal or on-trunk route that runs wholly in the second phase's set:
   any under minlast, minimal LIDs under minboth. */
static int second_phase_only(const struct compile *cc, const struct walk *walk)
{
	if (cc->policy.kind != VLR_VLP_TWO_PHASES || walk->route_class == VLR_ROUTE_VALIANT)
		return 0;
	return cc->policy.phase_min == VLR_MIN_LAST ||
	       (cc->policy.phase_min == VLR_MIN_BOTH &&
		walk->route_class == VLR_ROUTE_MINIMAL);
}

static unsigned dragonfly_code(const struct compile *cc, const struct walk *walk,
			       uint32_t target)
{
	const struct vlr_topology *topology = &cc->ld->topology;
	uint32_t via = cc->tables->lid_via ? cc->tables->lid_via[walk->lid] : VLR_NONE;
	uint16_t into = cc->group_codes[topology->group[target]];
	uint16_t codes;

	if (walk->route_class != VLR_ROUTE_VALIANT)
		return second_phase_only(cc, walk) ? cc->restricted_code + 2 :
		       lowest_bit(into);
	if (topology->group[via] == topology->group[target])
		return cc->restricted_code + (walk->landed_on_trunk ? 0 : 1);
	codes = cc->group_codes[topology->group[via]] & (uint16_t)~into;
	return codes ? lowest_bit(codes) : 0;
}

/*
 * A Dragonfly local hop entered from a global link stays in the phase of
 * that global link: a packet that lands on its intermediate by a global
 * link takes its next local hop on the phase-1 VL, as it would towards any
 * other router of the group. The switch that received it cannot tell the
 * two apart, and the SL need not either; phase 2 then begins one switch on.
 */
static int local_after_global(const struct compile *cc, uint32_t in_channel, uint32_t sw,
			      uint32_t lid)
{
	uint32_t out;

	if (cc->ld->channel_class[in_channel] != VLR_PORT_GLOBAL)
		return 0;
	out = route_graph_next_channel(&cc->ld->graph, sw, lid);
	return out != VLR_NONE && cc->ld->channel_class[out] == VLR_PORT_LOCAL;
}

static int collect_hops(struct compile *cc, uint32_t source, uint32_t lid,
			struct vlr_error *err)
{
	const struct route_graph *graph = &cc->ld->graph;
	const struct vlr_fabric *fabric = cc->tables->fabric;
	unsigned in_port = cc->host_port[source];
	uint32_t sw = source;
	struct walk walk;

	start_walk(cc, &walk, source, lid);
	for (;;) {
		uint32_t channel = route_graph_next_channel(graph, sw, lid), next;
		unsigned vl;

		if (channel == VLR_NONE) {
			cc->preferred = cc->group_codes ? dragonfly_code(cc, &walk, sw) : 0;
			return (int)walk.hop;
		}
		if (walk.in_channel != VLR_NONE && !walk.fresh_phase &&
		    cc->ld->channel_class[walk.in_channel] == VLR_PORT_DOWN &&
		    cc->ld->channel_class[channel] == VLR_PORT_UP) {
			walk.turns++;
			walk.turns_in_phase++;
		}
		if (walk.hop == MAX_ROUTE_HOPS)
			return vlr_fail(err, "the route from %s to LID %u has more than %d hops",
					vlr_node_name(fabric, cc->tables->switch_node[source]), lid,
					MAX_ROUTE_HOPS);
		vl = wanted_vl(cc, &walk, channel);
		if (!walk.hop)
			cc->injection_vl = (uint8_t)(role_form(cc) ? 0 : vl);
		if (vl + 1 > cc->vls_needed)
			cc->vls_needed = vl + 1;
		cc->hops[walk.hop].key = key_of(cc, sw, in_port, graph->channel_port[channel]);
		cc->hops[walk.hop].vl = (uint8_t)(vl < UNSET ? vl : UNSET - 1);
		next = graph->channel_to[channel];
		in_port = graph->channel_port[graph->channel_back[channel]];
		if (cc->ld->channel_class[channel] == VLR_PORT_GLOBAL) {
			walk.globals++;
			walk.globals_in_phase++;
			walk.landed_on_trunk |= cc->tables->lid_via &&
						vlr_trunks_has(&cc->trunks, next, lid);
		}
		walk.in_channel = channel;
		walk.hop++;
		walk.fresh_phase = 0;
		sw = next;
		if (!walk.phase_two && vlr_trunks_has(&cc->trunks, sw, lid) &&
		    !local_after_global(cc, channel, sw, lid)) {
			walk.phase_two = 1;
			walk.fresh_phase = 1;
			walk.globals_in_phase = 0;
			walk.turns_in_phase = 0;
		}
	}
}

static uint8_t *code_entry(const struct compile *cc, uint64_t key, unsigned code)
{
	return cc->codes + key * MAX_CODES + code;
}

static int code_fits(const struct compile *cc, const uint8_t *injection, unsigned hops,
		     unsigned code)
{
	unsigned i;

	if (injection[code] != UNSET && injection[code] != cc->injection_vl)
		return 0;
	for (i = 0; i < hops; i++) {
		uint8_t vl = *code_entry(cc, cc->hops[i].key, code);

		if (vl != UNSET && vl != cc->hops[i].vl)
			return 0;
	}
	return 1;
}

/*
 * The SL code for the collected route: the preferred one if it fits, else
 * the first that fits; 0 when the route crosses no switch link.
 */
static int choose_code(struct compile *cc, uint32_t source, unsigned hops)
{
	uint8_t *injection = cc->injection + (uint64_t)source * MAX_CODES;
	unsigned code, i;

	if (!hops)
		return 0;
	code = cc->preferred;
	if (!code_fits(cc, injection, hops, code))
		for (code = 0; code < MAX_CODES; code++)
			if (code_fits(cc, injection, hops, code))
				break;
	if (code == MAX_CODES) {
		cc->routes_without_sl++;
		return 0;
	}
	injection[code] = cc->injection_vl;
	for (i = 0; i < hops; i++)
		*code_entry(cc, cc->hops[i].key, code) = cc->hops[i].vl;
	cc->codes_used |= 1ull << code;
	return (int)code;
}

/* One SL row per switch with sources; remember one host port of each. */
static int assign_rows(struct compile *cc, struct vlr_error *err)
{
	struct vlr_tables *tables = cc->tables;
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, port, rows = 0, *row_of = calloc(tables->num_switches + 1ull,
						      sizeof(uint32_t));

	if (!row_of)
		return vlr_fail(err, "out of memory for the SL rows");
	for (sw = 0; sw < tables->num_switches; sw++)
		row_of[sw] = cc->ld->graph.sources[sw] ? rows++ : VLR_NONE;
	if (vlr_tables_alloc_sl_rows(tables, rows, err)) {
		free(row_of);
		return -1;
	}
	for (port = 0; port < fabric->num_ports; port++) {
		uint32_t peer = fabric->ports[port].peer;

		if (!vlr_tables_is_source(tables, port) ||
		    !vlr_node_is_switch(fabric, fabric->ports[peer].node))
			continue;
		sw = tables->switch_of_node[fabric->ports[peer].node];
		tables->port_sl_row[port] = row_of[sw];
		if (!cc->host_port[sw])
			cc->host_port[sw] = fabric->ports[peer].number;
	}
	free(row_of);
	return 0;
}

/* The peer endpoint port of switch sw's port, or VLR_NONE. */
static uint32_t endpoint_on(const struct vlr_tables *tables, uint32_t sw, unsigned port)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t peer = vlr_port_at(fabric, tables->switch_node[sw], port)->peer;

	return peer != VLR_NONE && !vlr_node_is_switch(fabric, fabric->ports[peer].node) ?
	       peer : VLR_NONE;
}

static int colour_route(struct compile *cc, uint32_t sw, uint32_t lid,
			struct vlr_error *err)
{
	struct vlr_tables *tables = cc->tables;
	uint8_t *sls = vlr_tables_sl_row(tables,
		tables->port_sl_row[endpoint_on(tables, sw, cc->host_port[sw])]);
	int hops = collect_hops(cc, sw, lid, err);

	if (hops < 0)
		return -1;
	if ((unsigned)hops > cc->longest)
		cc->longest = (unsigned)hops;
	if (cc->vls_needed <= tables->num_vls || cc->colour_always)
		sls[lid] = (uint8_t)choose_code(cc, sw, (unsigned)hops);
	return 0;
}

/* DLID by DLID: the routes towards one DLID form a tree and agree most. */
static int colour_routes(struct compile *cc, struct vlr_error *err)
{
	struct vlr_tables *tables = cc->tables;
	uint32_t sw, lid;

	for (lid = 1; lid <= tables->max_lid; lid++) {
		if (tables->lid_owner[lid] == VLR_NONE)
			continue;
		for (sw = 0; sw < tables->num_switches; sw++)
			if (cc->host_port[sw] && colour_route(cc, sw, lid, err))
				return -1;
	}
	return 0;
}

/* Number the codes used 0, 1, ... as SLs; returns how many there are. */
static unsigned number_codes(struct compile *cc)
{
	unsigned code, count = 0;

	memset(cc->sl_of_code, 0, sizeof(cc->sl_of_code));
	for (code = 0; code < MAX_CODES; code++)
		if ((cc->codes_used >> code) & 1) {
			if (count < VLR_NUM_SLS)
				cc->code_of_sl[count] = (uint8_t)code;
			cc->sl_of_code[code] = (uint8_t)(count < VLR_NUM_SLS ? count : 0);
			count++;
		}
	return count;
}

/* The SL rows hold codes until now. */
static void codes_to_sls(struct compile *cc)
{
	struct vlr_tables *tables = cc->tables;
	uint64_t at, size = (uint64_t)tables->num_sl_rows * tables->lid_stride;

	for (at = 0; at < size; at++)
		tables->sl_rows[at] = cc->sl_of_code[tables->sl_rows[at] % MAX_CODES];
}

static uint8_t vl_for_sl(const struct compile *cc, const uint8_t *by_code, unsigned sl)
{
	return sl < cc->sls_needed ? by_code[cc->code_of_sl[sl]] : UNSET;
}

/* Every host port behaves as the one coloured; unset entries become VL 0. */
static void finish_tables(struct compile *cc)
{
	struct vlr_tables *tables = cc->tables;
	uint32_t sw, endpoint;
	uint64_t at, key;
	unsigned port, out, sl;

	codes_to_sls(cc);
	for (key = 0; key < tables->sl2vl_size / VLR_NUM_SLS; key++)
		for (sl = 0; sl < VLR_NUM_SLS; sl++)
			tables->sl2vl[key * VLR_NUM_SLS + sl] = vl_for_sl(cc, code_entry(cc, key, 0), sl);

	for (sw = 0; sw < tables->num_switches; sw++) {
		unsigned ports = tables->fabric->nodes[tables->switch_node[sw]].num_ports;
		unsigned host = cc->host_port[sw];

		for (port = 1; port <= ports && host; port++) {
			endpoint = endpoint_on(tables, sw, port);
			if (endpoint == VLR_NONE)
				continue;
			for (sl = 0; sl < VLR_NUM_SLS; sl++) {
				uint8_t vl = vl_for_sl(cc, cc->injection + (uint64_t)sw * MAX_CODES, sl);

				vlr_tables_port_sl2vl(tables, endpoint)[sl] = vl == UNSET ? 0 : vl;
			}
			for (out = 0; out <= ports && port != host; out++)
				memcpy(entries_of(cc, sw, port, out), entries_of(cc, sw, host, out),
				       VLR_NUM_SLS);
		}
	}
	for (at = 0; at < tables->sl2vl_size; at++)
		if (tables->sl2vl[at] == UNSET)
			tables->sl2vl[at] = 0;
}

/*
 * The policy as compiled. 2phases on a Dragonfly takes at least 2 VLs per
 * phase: one VL cannot hold a phase's local-global-local hops without a
 * dependency cycle, and the second is the study's own minimum (two local
 * VLs per phase, one global), so K = 1 there compiles as K = 2.
 */
static void choose_policy(const struct lowdiam *ld, const struct vlr_engine_options *options,
			  struct vlr_vl_policy *policy)
{
	enum vlr_family family = ld->topology.params.family;

	*policy = options->policy;
	if (policy->kind == VLR_VLP_TWO_PHASES &&
	    (!policy->vls_per_phase || (family == VLR_FAMILY_DRAGONFLY &&
					policy->vls_per_phase < 2)))
		policy->vls_per_phase = family == VLR_FAMILY_HYPERX ? 1 : 2;
	vlr_vl_policy_fit_family(policy, family);
}

/* VLs the ideal form spans: both phase sets, or a rung per hop. */
static unsigned ideal_vls(const struct compile *cc)
{
	unsigned vls = cc->vls_needed;

	if (cc->policy.kind == VLR_VLP_TWO_PHASES && vls < 2 * cc->policy.vls_per_phase)
		vls = 2 * cc->policy.vls_per_phase;
	if ((cc->policy.kind == VLR_VLP_LADDER || cc->policy.kind == VLR_VLP_LADDER_REUSE) &&
	    vls < cc->longest)
		vls = cc->longest;
	return vls;
}

static int check_fit(const struct compile *cc, struct vlr_error *err)
{
	struct vlr_vl_policy policy = cc->policy;
	char name[96];

	policy.vls = cc->vls_needed;
	vlr_vl_policy_describe(&policy, name, sizeof(name));
	if (ideal_vls(cc) > cc->tables->num_vls)
		return vlr_fail(err, "VL policy %s needs %u VLs on this fabric (longest "
				"route %u switch hops), but only %u are available: refused",
				vlr_vl_policy_name(cc->policy.kind), ideal_vls(cc), cc->longest,
				cc->tables->num_vls);
	if (cc->routes_without_sl)
		return vlr_fail(err, "VL policy %s needs more than %d SLs on this fabric "
				"(%llu routes found none of %d SL codes), the fabric has %d: "
				"refused", name, MAX_CODES, (unsigned long long)cc->routes_without_sl,
				MAX_CODES, VLR_NUM_SLS);
	if (cc->sls_needed > VLR_NUM_SLS)
		return vlr_fail(err, "VL policy %s needs %u SLs on this fabric (SL codes "
				"of its routes), the fabric has %d: refused", name,
				cc->sls_needed, VLR_NUM_SLS);
	return 0;
}

/*
 * The policy does not fit, and may be left unprogrammable: every path on
 * SL 0 (the SL2VL tables are still the defaults), what it needs recorded.
 */
static void mark_unprogrammable(struct compile *cc)
{
	struct vlr_tables *tables = cc->tables;
	struct vlr_unprogrammable *mark = &tables->unprogrammable;

	memset(tables->sl_rows, 0, (uint64_t)tables->num_sl_rows * tables->lid_stride);
	mark->marked = 1;
	mark->sls = cc->routes_without_sl ? VLR_MANY_SLS : cc->sls_needed;
	mark->vls = ideal_vls(cc);
	mark->vls_offered = tables->num_vls;
}

static int any_valiant(const struct vlr_tables *tables)
{
	uint32_t lid;

	for (lid = 0; tables->lid_kind && lid < tables->lid_stride; lid++)
		if (tables->lid_kind[lid] != VLR_LID_MINIMAL)
			return 1;
	return 0;
}

static int compile_hops(struct vlr_tables *tables, const struct lowdiam *ld,
			const struct vlr_engine_options *options,
			struct vlr_engine_report *report, struct vlr_error *err)
{
	struct compile cc;
	int result;

	memset(&cc, 0, sizeof(cc));
	cc.tables = tables;
	cc.ld = ld;
	choose_policy(ld, options, &cc.policy);
	cc.colour_always = options->allow_unprogrammable &&
			   vlr_vl_policy_has_ideal_form(&cc.policy);
	cc.injection = malloc((uint64_t)tables->num_switches * MAX_CODES + 1);
	cc.codes = malloc(tables->sl2vl_size / VLR_NUM_SLS * MAX_CODES + 1);
	cc.host_port = calloc(tables->num_switches + 1ull, 1);
	if (!cc.injection || !cc.codes || !cc.host_port) {
		free(cc.injection);
		free(cc.codes);
		free(cc.host_port);
		return vlr_fail(err, "out of memory compiling the VL policy");
	}
	memset(cc.injection, UNSET, (uint64_t)tables->num_switches * MAX_CODES);
	memset(cc.codes, UNSET, tables->sl2vl_size / VLR_NUM_SLS * MAX_CODES);
	result = vlr_trunks_build(tables, &cc.trunks, err);
	if (!result && any_valiant(tables) && cc.policy.kind != VLR_VLP_NONE &&
	    ld->topology.params.family != VLR_FAMILY_HYPERX)
		result = dragonfly_group_codes(&cc, err);
	if (!result)
		result = assign_rows(&cc, err) || colour_routes(&cc, err);
	if (!result) {
		cc.sls_needed = number_codes(&cc);
		result = check_fit(&cc, err);
		if (result && cc.colour_always && ideal_vls(&cc) <= VLR_MAX_DATA_VLS) {
			mark_unprogrammable(&cc);
			result = 0;
		}
	}
	if (!result) {
		if (!tables->unprogrammable.marked)
			finish_tables(&cc);
		cc.policy.vls = ideal_vls(&cc);
		tables->policy = cc.policy;
		report->sls_used = tables->unprogrammable.marked ? tables->unprogrammable.sls :
				   cc.sls_needed ? cc.sls_needed : 1;
		report->vls_used = cc.vls_needed ? cc.vls_needed : 1;
		report->layers = report->vls_used;
	} else {
		/* what the policy would need, for callers explaining a refusal */
		report->layers = ideal_vls(&cc);
		report->sls_used = cc.routes_without_sl ? MAX_CODES + 1 : cc.sls_needed;
	}
	vlr_trunks_free(&cc.trunks);
	free(cc.group_codes);
	free(cc.codes);
	free(cc.injection);
	free(cc.host_port);
	return result ? -1 : 0;
}

int vl_compile(struct vlr_tables *tables, const struct lowdiam *ld,
	       const struct vlr_engine_options *options, struct vlr_engine_report *report,
	       struct vlr_error *err)
{
	if (options->policy.kind != VLR_VLP_LAYERS)
		return compile_hops(tables, ld, options, report, err);
	if (layering_assign(tables, &ld->graph, options, 0, "the layers policy", report,
			    err))
		return -1;
	tables->policy.kind = VLR_VLP_LAYERS;
	tables->policy.vls = report->vls_used;
	report->sls_used = report->vls_used;
	return 0;
}
