/*
 * verify_ideal.c - is a VL policy's ideal form deadlock-free on a table
 * set? The ideal form lets a hop take any VL of the set its policy allows
 * for the route's class, the hop's index, its phase and its escalation
 * (what the simulator's ideal mode does); its channel dependency graph
 * links every allowed VL of a hop to every allowed VL of the next. The
 * route walk follows the simulator's: a Valiant route enters phase two at
 * the first switch of its DLID's trunk (escalation back to 0), a route
 * from a switch on the trunk is on the trunk throughout, and crossing an
 * escalating link (a global link, as the caller says) adds one.
 *
 * Every source switch (one with a linked CA port) sends to every LID in
 * use but its own switch's; routes that do not arrive are the business of
 * vlr_verify and are left out.
 *
 * In escape mode each hop keeps only the highest VL it may take: for
 * ladder-reuse that is hop i on VL i, a ladder every packet may always
 * climb, which keeps the policy deadlock-free (Duato) even where its VLs
 * together have a cycle.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

/* A packet of one (source switch, DLID) route, as the simulator keeps it. */
struct ideal_walk {
	enum vlr_route_class route_class;
	int phase_two;
	unsigned escalation;
	unsigned hop;
};

struct ideal {
	const struct vlr_tables *t;
	struct verify_channels *ch;
	const struct vlr_vl_policy *policy;
	const uint8_t *escalates;
	int escape;
	struct vlr_trunks trunks;
	uint8_t *source;		/* [switch]: has a linked CA port */
};

static uint16_t allowed(const struct ideal *d, const struct ideal_walk *walk)
{
	uint16_t mask = vlr_policy_vl_mask(d->policy, walk->route_class, walk->hop,
					   walk->phase_two, walk->escalation);

	if (!d->escape || !mask)
		return mask;
	return (uint16_t)(1u << (31 - __builtin_clz(mask)));
}

static void start(const struct ideal *d, uint32_t s, uint32_t lid, struct ideal_walk *walk)
{
	memset(walk, 0, sizeof(*walk));
	walk->route_class = vlr_trunks_route_class(d->t, &d->trunks, s, lid);
	walk->phase_two = walk->route_class == VLR_ROUTE_ON_TRUNK;
}

/* Walk the route from s to lid, recording its dependencies. */
static void walk_route(struct ideal *d, uint32_t s, uint32_t lid)
{
	const struct vlr_tables *t = d->t;
	struct ideal_walk walk;
	uint32_t back = VLR_NONE, steps;
	uint16_t in_vls = 0;

	start(d, s, lid, &walk);
	for (steps = 0; steps <= t->num_switches; steps++) {
		const struct verify_switch *sw = &d->ch->sw[s];
		unsigned out = vlr_tables_lft(t, s)[lid];
		const struct verify_hop *hop;
		uint16_t out_vls, vls;

		if (out == 0 || out >= sw->width)
			return;
		hop = &d->ch->hop[sw->first_slot + out];
		if (hop->channel == VLR_NONE)
			return;
		out_vls = allowed(d, &walk);
		d->ch->vls[hop->channel] |= out_vls;
		for (vls = out_vls; back != VLR_NONE && vls; vls &= (uint16_t)(vls - 1))
			verify_record_turn(d->ch, sw, back, hop->channel, in_vls,
					   verify_vl_bit((unsigned)__builtin_ctz(vls)));
		walk.escalation += d->escalates && d->escalates[sw->first_slot + out];
		walk.hop++;
		back = hop->back;
		in_vls = out_vls;
		s = hop->next;
		if (!walk.phase_two && walk.route_class == VLR_ROUTE_VALIANT &&
		    vlr_trunks_has(&d->trunks, s, lid)) {
			walk.phase_two = 1;
			walk.escalation = 0;
		}
	}
}

static int mark_sources(struct ideal *d, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = d->t->fabric;
	uint32_t port;

	d->source = calloc(d->t->num_switches + 1ull, 1);
	if (!d->source)
		return vlr_fail(err, "out of memory for the source switches");
	for (port = 0; port < fabric->num_ports; port++) {
		uint32_t peer = fabric->ports[port].peer;

		if (vlr_tables_is_source(d->t, port) &&
		    vlr_node_is_switch(fabric, fabric->ports[peer].node))
			d->source[d->t->switch_of_node[fabric->ports[peer].node]] = 1;
	}
	return 0;
}

static void walk_all(struct ideal *d)
{
	const struct vlr_tables *t = d->t;
	uint32_t lid, s;

	for (lid = 1; lid <= t->max_lid; lid++) {
		if (t->lid_owner[lid] == VLR_NONE)
			continue;
		for (s = 0; s < t->num_switches; s++)
			if (d->source[s])
				walk_route(d, s, lid);
	}
}

int vlr_verify_ideal(const struct vlr_tables *tables, const struct vlr_vl_policy *policy,
		     const uint8_t *escalates, int escape, struct vlr_verify_report *report,
		     struct vlr_error *err)
{
	struct verify_channels ch;
	struct ideal d;
	int result;

	memset(report, 0, sizeof(*report));
	if (!tables->lid_kind || (policy->kind != VLR_VLP_LADDER &&
				  policy->kind != VLR_VLP_LADDER_REUSE &&
				  policy->kind != VLR_VLP_TWO_PHASES))
		return vlr_fail(err, "the tables carry no ideal form (a ladder, ladder-reuse "
				"or 2phases policy of the minimal or valiant engine)");
	if (verify_channels_init(tables, &ch, err))
		return -1;
	memset(&d, 0, sizeof(d));
	d.t = tables;
	d.ch = &ch;
	d.policy = policy;
	d.escalates = escalates;
	d.escape = escape;
	result = vlr_trunks_build(tables, &d.trunks, err);
	if (!result) {
		result = mark_sources(&d, err);
		if (!result) {
			walk_all(&d);
			result = verify_cdg(tables, &ch, report, err);
		}
		vlr_trunks_free(&d.trunks);
	}
	free(d.source);
	verify_channels_free(&ch);
	return result;
}
