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

/* Packets queued towards dlid at source switch sw, all VLs (sim_port_queued). */
static unsigned local_queue(struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	uint32_t port = output(st, sw, dlid);

	return port == VLR_NONE ? 0 : (unsigned)sim_port_queued(st, port, 0xffff);
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
