/*
 * dlid_adaptive.c - the DLID rule "adaptive" (UGAL-L): the minimal offset
 * or one random Valiant offset, whichever has the smaller (queue x hops) at
 * the source switch, queue = packets in its output buffer plus those it
 * has sent into the next switch's input buffer (local_queue); Valiant
 * only when its cost is smaller by more than the bias (--adaptive-bias). The DLID is chosen
 * when the packet first reaches the head of its injection queue, so the
 * choice sees the switch as it is when the packet leaves.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

struct adaptive {
	struct sim_dlid_rule base;
	unsigned bias;
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

/*
 * Packets queued towards dlid at the source switch sw, as the switch
 * knows them now: in its output buffer (not the packet whose tail has
 * left the wire) and sent into the next switch's input buffer without
 * their credits back (those due by now taken in). A link settles its
 * buffer and credits only when it acts, so that its own view of an idle
 * link still holds the packet it last sent and misses the credits that
 * came back since - which made idle ports look busy and sent packets
 * minimally on an empty fabric.
 */
static unsigned local_queue(struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	uint32_t port = output(st, sw, dlid);
	const struct sim_port *s;
	const uint16_t *credits = NULL;
	unsigned vl, queued = 0;

	if (port == VLR_NONE)
		return 0;
	s = &st->ports[port];
	if (st->sim->peer[port] != VLR_NONE) {
		sim_credits_settle(st, port);
		credits = st->credits + (uint64_t)port * st->vls;
	}
	for (vl = 0; vl < st->vls; vl++) {
		queued += st->out[(uint64_t)port * st->vls + vl].used;
		if (s->tx_vl == vl && s->link_free <= st->now)
			queued--;
		if (credits)
			queued += st->config->input_packets - credits[vl];
	}
	return queued;
}

static uint64_t cost(struct sim_state *st, uint32_t sw, uint32_t dlid)
{
	return (uint64_t)local_queue(st, sw, (uint16_t)dlid) *
	       route_hops(st, sw, (uint16_t)dlid);
}

static int offset(struct sim_dlid_rule *self, struct sim_state *st,
		  const struct sim_dlid_query *q)
{
	const struct adaptive *a = (const struct adaptive *)self;
	uint32_t sw = st->sim->servers.switch_index[q->server];
	int valiant = sim_valiant_offset(st, q->server, q->base, q->lids);

	if (valiant <= 0)
		return 0;
	return cost(st, sw, q->base + (unsigned)valiant) + a->bias < cost(st, sw, q->base) ?
	       valiant : 0;
}

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	struct sim_dlid_rule *rule = sim_dlid_rule_new(sizeof(struct adaptive), offset, NULL,
						       err);

	if (rule)
		((struct adaptive *)rule)->bias = sim->config.adaptive_bias;
	return rule;
}

const struct sim_dlid_type sim_dlid_adaptive = { VLR_DLID_ADAPTIVE, create };
