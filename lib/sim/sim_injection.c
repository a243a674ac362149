/*
 * sim_injection.c - the servers: Bernoulli or trace generation into one or
 * several injection queues, the choice of DLID among the destination's LMC
 * LIDs, and the injection link into the switch.
 *
 * The DLID is chosen when the packet first reaches the head of its queue,
 * so the adaptive choice sees the switch as it is when the packet leaves:
 *   base        offset 0 (the minimal route on Valiant tables);
 *   random      a random Valiant offset, not a restricted one (any offset
 *               on tables without LID kinds);
 *   recompute   as random, and while the packet waits at its source switch
 *               with no room in its output, another random offset (as if
 *               the NIC learnt of the blocked output; the injection link
 *               keeps its VL);
 *   restricted  RVAL: a restricted offset when the source switch lies in the
 *               destination's partition (its Dragonfly group, its HyperX
 *               row in the first dimension), else a Valiant one;
 *   adaptive    UGAL-L: the minimal offset or one random Valiant offset,
 *               whichever has the smaller (queue x hops) at the source switch,
 *               queue = packets in its output buffer plus those it has sent
 *               into the next switch's input buffer.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "sim_internal.h"

/* Queue a new packet; -1 when its injection queue is full. */
static int queue_packet(struct sim_state *st, uint32_t server, uint32_t destination)
{
	const struct vlr_sim_config *c = st->config;
	unsigned q = 0;
	struct sim_ring *ring;
	struct sim_packet *p;
	uint32_t packet;

	if (c->injection_queues > 1)
		q = c->queue_select == VLR_SIM_QUEUE_DEST ?
		    destination % c->injection_queues :
		    vlr_rng_below(&st->rng[server], c->injection_queues);
	ring = &st->queue[(uint64_t)server * c->injection_queues + q];
	if (ring->count >= c->queue_packets)
		return -1;
	st->result->generated++;
	packet = sim_packet_new(st);
	p = &st->packets[packet];
	p->created = st->now;
	p->serial = st->next_serial++;
	p->source = server;
	p->destination = destination;
	p->dlid = 0;
	p->sl = 0;
	p->hops = 0;
	p->escalation = 0;
	p->phase_two = 0;
	p->route_class = VLR_ROUTE_MINIMAL;
	p->measured = st->now >= c->warmup && st->now < st->end;
	sim_ring_push(ring, st->queue_slots + ((uint64_t)server * c->injection_queues + q) *
			    c->queue_packets, c->queue_packets, packet);
	st->queued++;
	st->server_queued[server]++;
	return 0;
}

/* Queue the packets of trace messages due by now, as far as queues allow. */
static void generate_trace(struct sim_state *st, uint32_t server)
{
	const struct vlr_sim_trace *trace = st->config->trace;
	unsigned phits = st->config->packet_phits;

	while (st->trace_next[server] < trace->first_of_server[server + 1]) {
		const struct vlr_sim_message *m = &trace->messages[st->trace_next[server]];

		if (m->time > st->now)
			return;
		if (!st->trace_left[server])
			st->trace_left[server] = (m->phits + phits - 1) / phits;
		if (queue_packet(st, server, m->destination))
			return;
		st->trace_pending--;
		if (!--st->trace_left[server])
			st->trace_next[server]++;
	}
}

void sim_generate(struct sim_state *st, uint32_t server)
{
	uint32_t destination;

	if (st->config->trace) {
		generate_trace(st, server);
		return;
	}
	if (!st->generating || st->next_generation[server] > st->now)
		return;
	destination = vlr_traffic_destination(st->traffic, server, st->sequence[server]++,
					      &st->rng[server]);
	if (queue_packet(st, server, destination))
		st->result->refused++;
	st->next_generation[server] = sim_next_generation(st, server);
}

/* A random offset of lids offsets whose kind passes want(), or -1. */
static int random_offset(struct sim_state *st, uint32_t server, uint32_t base,
			 unsigned lids, int (*want)(uint8_t kind))
{
	const uint8_t *kind = st->sim->tables->lid_kind;
	unsigned i, count = 0, pick;

	if (!kind)
		return (int)vlr_rng_below(&st->rng[server], lids);
	for (i = 0; i < lids; i++)
		count += want(kind[base + i]);
	if (!count)
		return -1;
	pick = vlr_rng_below(&st->rng[server], count);
	for (i = 0; i < lids; i++)
		if (want(kind[base + i]) && !pick--)
			return (int)i;
	return -1;
}

static int is_nonminimal(uint8_t kind)
{
	return kind != VLR_LID_MINIMAL;
}

static int is_valiant(uint8_t kind)
{
	return kind == VLR_LID_VALIANT;
}

static int is_restricted(uint8_t kind)
{
	return kind == VLR_LID_RESTRICTED;
}

/* A random Valiant offset; a restricted one only if the tables have no other. */
static int valiant_offset(struct sim_state *st, uint32_t server, uint32_t base,
			  unsigned lids)
{
	int offset = random_offset(st, server, base, lids, is_valiant);

	return offset >= 0 ? offset : random_offset(st, server, base, lids, is_nonminimal);
}

static int same_partition(const struct vlr_sim *sim, uint32_t a, uint32_t b)
{
	const struct vlr_topology *t = &sim->topology;
	unsigned d, dims;

	if (!sim->has_topology)
		return 0;
	if (!t->coord)
		return t->group[a] == t->group[b];
	dims = t->params.u.grid.dims;
	for (d = 1; d < dims; d++)
		if (t->coord[a * dims + d] != t->coord[b * dims + d])
			return 0;
	return 1;
}

static unsigned route_hops(const struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	const struct vlr_sim *sim = st->sim;
	unsigned hops = 0, number;
	uint32_t port;

	while (hops < 64) {
		number = sim_out_port(st, sw, dlid);
		if (number == 0 || number > sim->first_port[sw + 1] - sim->first_port[sw])
			break;
		port = sim->first_port[sw] + number - 1;
		if (sim->peer[port] == VLR_NONE)
			break;
		sw = sim->port_switch[sim->peer[port]];
		hops++;
	}
	return hops;
}

/* Packets queued towards dlid at the source switch sw (UGAL-L). */
static unsigned local_queue(const struct sim_state *st, uint32_t sw, uint16_t dlid)
{
	const struct vlr_sim *sim = st->sim;
	unsigned number = sim_out_port(st, sw, dlid), vl, queued = 0;
	uint32_t port, peer;

	if (number == 0 || number > sim->first_port[sw + 1] - sim->first_port[sw])
		return 0;
	port = sim->first_port[sw] + number - 1;
	peer = sim->peer[port];
	for (vl = 0; vl < st->vls; vl++) {
		queued += st->out_used[(uint64_t)port * st->vls + vl];
		if (peer != VLR_NONE)
			queued += st->config->input_packets -
				  st->credits[(uint64_t)peer * st->vls + vl];
	}
	return queued;
}

static int adaptive_offset(struct sim_state *st, uint32_t server, uint32_t base,
			   unsigned lids)
{
	uint32_t sw = st->sim->servers.switch_index[server];
	int valiant = valiant_offset(st, server, base, lids);
	uint64_t minimal_cost, valiant_cost;

	if (valiant <= 0)
		return 0;
	minimal_cost = (uint64_t)local_queue(st, sw, (uint16_t)base) *
		       route_hops(st, sw, (uint16_t)base);
	valiant_cost = (uint64_t)local_queue(st, sw, (uint16_t)(base + valiant)) *
		       route_hops(st, sw, (uint16_t)(base + valiant));
	return valiant_cost + st->config->adaptive_bias < minimal_cost ? valiant : 0;
}

static int choose_offset(struct sim_state *st, uint32_t server, uint32_t destination)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t base = sim->server_lid[destination];
	unsigned lids = 1u << sim->server_lids[destination];
	int offset = -1;

	if (lids == 1)
		return 0;
	switch (st->config->dlid) {
	case VLR_SIM_DLID_BASE:
		return 0;
	case VLR_SIM_DLID_RANDOM:
	case VLR_SIM_DLID_RECOMPUTE:
		offset = valiant_offset(st, server, base, lids);
		break;
	case VLR_SIM_DLID_RESTRICTED:
		offset = random_offset(st, server, base, lids,
				       same_partition(sim, sim->servers.switch_index[server],
						      sim->servers.switch_index[destination]) ?
				       is_restricted : is_valiant);
		if (offset < 0)
			offset = random_offset(st, server, base, lids, is_nonminimal);
		break;
	case VLR_SIM_DLID_ADAPTIVE:
		offset = adaptive_offset(st, server, base, lids);
		break;
	}
	return offset < 0 ? 0 : offset;
}

/* Set the packet's DLID and what follows from it: SL, route class, phase. */
static void set_dlid(struct sim_state *st, uint32_t sw, struct sim_packet *p,
		     uint16_t dlid)
{
	const struct vlr_sim *sim = st->sim;
	const struct vlr_tables *tables = sim->tables;

	p->dlid = dlid;
	p->sl = vlr_tables_path_sl(tables, sim->servers.port[p->source], dlid);
	p->phase_two = 0;
	p->route_class = VLR_ROUTE_MINIMAL;
	if (!sim->has_trunks || tables->lid_kind[dlid] == VLR_LID_MINIMAL)
		return;
	if (vlr_trunks_has(&sim->trunks, sim->servers.switch_index[p->source], dlid)) {
		p->route_class = VLR_ROUTE_ON_TRUNK;
		p->phase_two = 1;
		return;
	}
	p->route_class = VLR_ROUTE_VALIANT;
	sim_enter_switch(st, sw, p);
}

void sim_choose_dlid(struct sim_state *st, uint32_t server, struct sim_packet *p)
{
	uint32_t base = st->sim->server_lid[p->destination];

	set_dlid(st, st->sim->servers.switch_index[server], p,
		 (uint16_t)(base + choose_offset(st, server, p->destination)));
}

void sim_recompute_dlid(struct sim_state *st, uint32_t sw, struct sim_packet *p)
{
	uint32_t base = st->sim->server_lid[p->destination];
	unsigned lids = 1u << st->sim->server_lids[p->destination];
	int offset;

	if (lids == 1)
		return;
	offset = valiant_offset(st, p->source, base, lids);
	if (offset >= 0)
		set_dlid(st, sw, p, (uint16_t)(base + (unsigned)offset));
}

/* The VL the head packet takes on the injection link, or -1 without credit. */
static int injection_vl(struct sim_state *st, uint32_t server, const struct sim_packet *p)
{
	const struct vlr_sim *sim = st->sim;
	const uint8_t *credits = st->credits + (uint64_t)sim->server_port[server] * st->vls;
	uint16_t mask;
	int vl, best = -1;

	if (sim->config.vl_mode == VLR_SIM_VL_EXACT) {
		vl = vlr_tables_port_sl2vl(sim->tables, sim->servers.port[server])[p->sl];
		if ((unsigned)vl >= st->vls) {
			st->failed = 1;
			vlr_fail(st->err, "server %u: SL %u maps to VL %d on its injection "
				 "link, beyond the %u VLs simulated", server, p->sl, vl, st->vls);
			return -1;
		}
		return credits[vl] ? vl : -1;
	}
	mask = vlr_policy_vl_mask(&sim->policy, (enum vlr_route_class)p->route_class, 0,
				  p->phase_two, 0);
	for (vl = 0; vl < (int)st->vls; vl++)
		if ((mask >> vl & 1) && credits[vl] && (best < 0 || credits[vl] > credits[best]))
			best = vl;
	return best;
}

static void send(struct sim_state *st, uint32_t server, unsigned q, unsigned vl)
{
	const struct vlr_sim *sim = st->sim;
	const struct vlr_sim_config *c = st->config;
	uint64_t sq = (uint64_t)server * c->injection_queues + q;
	uint32_t packet = sim_ring_pop(&st->queue[sq], st->queue_slots + sq * c->queue_packets,
				       c->queue_packets);
	uint32_t port = sim->server_port[server], sw = sim->servers.switch_index[server];
	struct sim_packet *p = &st->packets[packet];

	st->credits[(uint64_t)port * st->vls + vl]--;
	p->vl = (uint8_t)vl;
	p->arrived = st->now + sim->latency[port];
	p->ready = p->arrived + c->pipeline;
	st->busy_packets[sw]++;
	sim_input_push(st, port, vl, packet);
	st->queued--;
	st->server_queued[server]--;
	st->in_fabric++;
	st->result->injected++;
	st->result->injected_check += sim_serial_check(p->serial);
	if (st->now >= c->warmup && st->now < st->end)
		st->stats.switch_injected[sw]++;
	st->server_link_free[server] = st->now + c->packet_phits;
	if (st->server_link_free[server] > st->last_move)
		st->last_move = st->server_link_free[server];
	st->queue_rr[server] = (q + 1) % c->injection_queues;
}

void sim_inject(struct sim_state *st, uint32_t server)
{
	const struct vlr_sim_config *c = st->config;
	unsigned k;

	if (!st->server_queued[server] || st->server_link_free[server] > st->now)
		return;
	sim_credits_settle(st, st->sim->server_port[server]);
	for (k = 0; k < c->injection_queues; k++) {
		unsigned q = (st->queue_rr[server] + k) % c->injection_queues;
		uint64_t sq = (uint64_t)server * c->injection_queues + q;
		struct sim_packet *p;
		int vl;

		if (!st->queue[sq].count)
			continue;
		p = &st->packets[sim_ring_at(&st->queue[sq], st->queue_slots +
					     sq * c->queue_packets, c->queue_packets, 0)];
		if (!p->dlid)
			sim_choose_dlid(st, server, p);
		vl = injection_vl(st, server, p);
		if (vl >= 0) {
			send(st, server, q, (unsigned)vl);
			return;
		}
		if (st->failed)
			return;
	}
}
