/*
 * dlid_adaptive.c - the DLID rules "adaptive" (UGAL-L) and "adaptive-vc-h"
 * (UGAL-L_VC_H): the minimal offset or one random Valiant offset,
 * whichever has the smaller (queue x hops) at the source switch, queue =
 * packets in its output buffer plus those it has sent into the next
 * switch's input buffer (sim_port_queued); Valiant only when its cost is
 * smaller by more than the bias (--adaptive-bias). adaptive counts all
 * VLs of the offset's output port; adaptive-vc-h, when both offsets leave
 * by the same port, only the VLs each may take there (from its SL on
 * exact VLs, from its route class on ideal ones: sim_tables_first_vls),
 * the Dragonfly paper's remedy for UGAL-L's minimal packets queueing
 * behind Valiant ones. The DLID is chosen when the packet first reaches
 * the head of its injection queue, so the choice sees the switch as it is
 * when the packet leaves.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

struct adaptive {
	struct sim_dlid_rule base;
	unsigned bias;
	int by_vls;		/* adaptive-vc-h */
};

/* The output port of switch sw towards dlid, or VLR_NONE. */
static uint32_t output(const struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	const struct vlr_sim *sim = st->sim;
	unsigned number = vlr_tables_lft(sim->tables, sw)[dlid];

	if (number == 0 || number > sim->first_port[sw + 1] - sim->first_port[sw])
		return VLR_NONE;
	return sim->first_port[sw] + number - 1;
}

static unsigned route_hops(const struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	const struct vlr_sim *sim = st->sim;
	unsigned hops = 0;
	uint32_t port;

	while (hops < 64) {
		port = output(st, sw, dlid);
		if (port == VLR_NONE || sim->peer[port] == VLR_NONE)
			break;
		sw = sim->port_switch[sim->peer[port]];
		hops++;
	}
	return hops;
}

/* One offset's side of the comparison at the source switch. */
struct side {
	uint16_t dlid;
	uint32_t port;		/* its output there, VLR_NONE if none */
	unsigned hops;
};

static void side_of(const struct sim_state *st, uint32_t sw, uint32_t dlid, struct side *side)
{
	side->dlid = (uint16_t)dlid;
	side->port = output(st, sw, side->dlid);
	side->hops = route_hops(st, sw, side->dlid);
}

/* Packets queued at side's port, on all VLs or on those its packet may take. */
static uint64_t queue(struct sim_state *st, const struct sim_dlid_query *q,
		      const struct side *side, int by_vls)
{
	if (side->port == VLR_NONE)
		return 0;
	return sim_port_queued(st, side->port, by_vls ? sim_tables_first_vls(st, q, side->dlid,
									      side->port) :
						 0xffff);
}

static int offset(struct sim_dlid_rule *self, struct sim_state *st,
		  const struct sim_dlid_query *q)
{
	const struct adaptive *a = (const struct adaptive *)self;
	uint32_t sw = st->sim->servers.switch_index[q->server];
	int valiant = sim_valiant_offset(st, q->server, q->base, q->lids), by_vls;
	struct side minimal, other;

	if (valiant <= 0)
		return 0;
	side_of(st, sw, q->base, &minimal);
	side_of(st, sw, q->base + (unsigned)valiant, &other);
	by_vls = a->by_vls && minimal.port == other.port;
	return queue(st, q, &other, by_vls) * other.hops + a->bias <
	       queue(st, q, &minimal, by_vls) * minimal.hops ? valiant : 0;
}

static struct sim_dlid_rule *create_rule(const struct vlr_sim *sim, int by_vls,
					 struct vlr_error *err)
{
	struct sim_dlid_rule *rule = sim_dlid_rule_new(sizeof(struct adaptive), offset, NULL,
						       err);

	if (rule) {
		((struct adaptive *)rule)->bias = sim->config.adaptive_bias;
		((struct adaptive *)rule)->by_vls = by_vls;
	}
	return rule;
}

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	return create_rule(sim, 0, err);
}

static struct sim_dlid_rule *create_vc_h(const struct vlr_sim *sim, struct vlr_error *err)
{
	return create_rule(sim, 1, err);
}

const struct sim_dlid_type sim_dlid_adaptive = { VLR_DLID_ADAPTIVE, create };
const struct sim_dlid_type sim_dlid_adaptive_vc_h = { VLR_DLID_ADAPTIVE_VC_H, create_vc_h };
