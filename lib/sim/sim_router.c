/*
 * sim_router.c - forwarding: the out port from the routing
 * (route_internal.h: the LFT, or the reference model), the VLs the VL
 * selection allows (vl_select_internal.h) and the shortest of them,
 * credits, and the output links that move packets to the next switch or
 * deliver them to their server.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "allocator_internal.h"
#include "route_internal.h"
#include "crt_internal.h"
#include "vl_select_internal.h"

static int route_failure(struct sim_state *st, uint32_t sw, const struct sim_packet *p,
			 unsigned number, const char *why)
{
	const struct vlr_tables *tables = st->sim->tables;

	st->failed = 1;
	return vlr_fail(st->err, "cycle %llu: switch %s forwards DLID %u to port %u, %s",
			(unsigned long long)st->now,
			vlr_node_name(tables->fabric, tables->switch_node[sw]), p->dlid,
			number, why);
}

/* The output port of packet p at switch sw, or VLR_NONE after a failure. */
static uint32_t output_of(struct sim_state *st, uint32_t sw, uint32_t in_port,
			  const struct sim_packet *p)
{
	const struct vlr_sim *sim = st->sim;
	unsigned number = sim->route->port(sim->route, st, sw, in_port, p);
	uint32_t port;

	if (number == 0 || number > sim->first_port[sw + 1] - sim->first_port[sw]) {
		route_failure(st, sw, p, number, "which it does not have (the LFT has "
			      "no route)");
		return VLR_NONE;
	}
	port = sim->first_port[sw] + number - 1;
	if (sim->peer[port] == VLR_NONE && sim->peer_server[port] == VLR_NONE) {
		route_failure(st, sw, p, number, "which is not linked");
		return VLR_NONE;
	}
	if (sim->peer_server[port] != VLR_NONE && sim->peer_server[port] != p->destination) {
		route_failure(st, sw, p, number, "whose server is not the destination");
		return VLR_NONE;
	}
	return port;
}

static void no_vl_failure(struct sim_state *st, uint32_t sw, const struct sim_packet *p)
{
	const char *name = vlr_node_name(st->sim->tables->fabric,
					 st->sim->tables->switch_node[sw]);

	st->failed = 1;
	if (st->sim->vl->reads_sl)
		vlr_fail(st->err, "cycle %llu: no VL for DLID %u at switch %s (SL %u maps "
			 "beyond the %u VLs simulated)", (unsigned long long)st->now, p->dlid,
			 name, p->sl, st->vls);
	else
		vlr_fail(st->err, "cycle %llu: no VL for DLID %u at switch %s (the VL "
			 "policy allows none of the %u VLs simulated)",
			 (unsigned long long)st->now, p->dlid, name, st->vls);
}

void sim_head_update(struct sim_state *st, uint32_t port, unsigned vl)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	struct sim_input *in = &st->in[pv];
	uint32_t sw = st->sim->port_switch[port], out;
	const struct sim_vl_select *vl_select = st->sim->vl;
	const struct sim_packet *p;

	if (!in->count)
		return;
	p = &st->packets[sim_input_first(st, pv)];
	in->ready = p->ready;
	out = output_of(st, sw, port, p);
	if (out == VLR_NONE) {
		in->out = SIM_NO_PORT;
		return;
	}
	in->out = (uint16_t)(out - st->sim->first_port[sw]);
	in->choices = vl_select->choices(vl_select, sw, port, out, p);
	if (!in->choices)
		no_vl_failure(st, sw, p);
}

void sim_input_push(struct sim_state *st, uint32_t port, unsigned vl, uint32_t packet)
{
	unsigned capacity = st->sim->input_slots;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	struct sim_input *in = &st->in[pv];

	st->in_slots[pv * capacity + sim_wrap((uint32_t)in->head + in->count, capacity)] = packet;
	in->count++;
	st->ports[port].in_mask |= (uint16_t)(1u << vl);
	if (in->count == 1) {
		sim_head_update(st, port, vl);
		st->allocator->arrived(st->allocator, st, port, vl);
	}
}

uint32_t sim_input_pop(struct sim_state *st, uint32_t port, unsigned vl)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	struct sim_input *in = &st->in[pv];
	uint32_t packet = sim_input_first(st, pv);

	in->head = (uint16_t)sim_ring_next(in->head, st->sim->input_slots);
	if (--in->count)
		sim_head_update(st, port, vl);
	else
		st->ports[port].in_mask &= (uint16_t)~(1u << vl);
	return packet;
}

/* Take in the credits of sender that are due by cycle. */
static void credits_settle_until(struct sim_state *st, uint32_t sender, uint64_t cycle)
{
	struct sim_port *s = &st->ports[sender];
	uint32_t capacity = st->vls * st->sim->input_slots;
	const sim_credit *slots = st->credit_slots + (uint64_t)sender * capacity;
	sim_credit credit;

	while (s->credit_count &&
	       sim_credit_time(credit = slots[s->credit_head]) <= cycle) {
		st->credits[(uint64_t)sender * st->vls + sim_credit_vl(credit)]++;
		if (st->crt && st->sim->peer[sender] != VLR_NONE)
			sim_crt_credit(st, sender, sim_credit_vl(credit), sim_credit_time(credit));
		s->credit_head = (uint16_t)sim_ring_next(s->credit_head, capacity);
		s->credit_count--;
	}
}

void sim_credits_settle(struct sim_state *st, uint32_t sender)
{
	credits_settle_until(st, sender, st->now);
}

uint64_t sim_port_queued(struct sim_state *st, uint32_t port, uint16_t mask)
{
	const struct sim_port *s = &st->ports[port];
	const uint16_t *credits = NULL;
	uint64_t queued = 0;
	unsigned vl;

	if (st->sim->peer[port] != VLR_NONE) {
		sim_credits_settle(st, port);
		credits = st->credits + (uint64_t)port * st->vls;
	}
	for (vl = 0; vl < st->vls; vl++) {
		if (!(mask >> vl & 1))
			continue;
		queued += sim_output_used(st, port, vl);
		if (s->tx_vl == vl && s->link_free <= st->now)
			queued--;
		if (credits)
			queued += s->in_capacity - credits[vl];
	}
	return queued;
}

/* The last cycle up to `cycle` in which port's link looked for a packet. */
static uint64_t last_look(const struct sim_state *st, uint32_t port, uint64_t cycle)
{
	const struct sim_port *s = &st->ports[port];

	return s->looks_from <= cycle ? cycle : s->last_sent;
}

const uint16_t *sim_link_credits(struct sim_state *st, uint32_t out_port, uint64_t cycle)
{
	credits_settle_until(st, out_port, last_look(st, out_port, cycle));
	return st->credits + (uint64_t)out_port * st->vls;
}

/* Ties of queue length go to the VL with more credits downstream. */
int sim_pick_vl(struct sim_state *st, uint32_t out_port, uint16_t choices)
{
	const uint16_t *credits = NULL;
	unsigned left, vl, used, best_used = 0, capacity = st->config->output_packets;
	int downstream = st->sim->peer[out_port] != VLR_NONE, best = -1;

	for (left = sim_vls_of(st, choices); left; left &= left - 1) {
		vl = sim_lowest(left);
		used = sim_output_used(st, out_port, vl);
		if (used >= capacity)
			continue;
		if (best < 0 || used < best_used) {
			best = (int)vl;
			best_used = used;
			continue;
		}
		if (used != best_used || !downstream)
			continue;
		if (!credits)
			credits = sim_link_credits(st, out_port, st->now);
		if (credits[vl] > credits[best])
			best = (int)vl;
	}
	return best;
}

/*
 * The link of port may act from cycle on: wake it then, or when the packet
 * on its wire has left, if later (a busy link would do nothing before).
 */
static void wake_link(struct sim_state *st, uint32_t port, uint64_t cycle)
{
	uint64_t wire_free = st->ports[port].link_free;

	sim_wheel_lower(&st->links, port, cycle > wire_free ? cycle : wire_free);
}

void sim_output_push(struct sim_state *st, uint32_t port, unsigned vl, uint32_t packet)
{
	unsigned capacity = st->config->output_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	struct sim_output *out = &st->out[pv];
	struct sim_port *s = &st->ports[port];

	if (!s->out_mask)
		s->looks_from = s->link_free > st->now + 1 ? s->link_free : st->now + 1;
	sim_output_slots(st, pv)[sim_wrap((uint32_t)out->head + out->count, capacity)] = packet;
	out->count++;
	s->out_mask |= (uint16_t)(1u << vl);
	wake_link(st, port, st->now + 1);
}

uint64_t sim_credit_due(const struct sim_state *st, uint32_t sender)
{
	const struct sim_port *s = &st->ports[sender];
	uint32_t capacity = st->vls * st->sim->input_slots;

	return s->credit_count ? sim_credit_time(st->credit_slots[(uint64_t)sender * capacity +
								  s->credit_head]) : UINT64_MAX;
}

/*
 * The position in sender's credit ring (0: its head) a credit due at time
 * takes: its tail, or with credits delayed (UGAL-L_CR) the place that
 * keeps the ring in time order, the later ones moved back by one, so that
 * a late credit holds back no other VL's.
 */
static uint32_t credit_position(struct sim_state *st, sim_credit *ring,
				const struct sim_port *s, uint32_t capacity, uint64_t time)
{
	uint32_t i = s->credit_count;

	if (!st->crt)
		return i;
	while (i && sim_credit_time(ring[sim_wrap((uint32_t)s->credit_head + i - 1,
						  capacity)]) > time) {
		ring[sim_wrap((uint32_t)s->credit_head + i, capacity)] =
			ring[sim_wrap((uint32_t)s->credit_head + i - 1, capacity)];
		i--;
	}
	return i;
}

/* A server or link waiting for a credit wakes when the first one returned is due. */
void sim_return_credit(struct sim_state *st, uint32_t port, unsigned vl, uint64_t time)
{
	uint32_t sender = sim_sender(st->sim, port), server = st->sim->peer_server[port];
	struct sim_port *s = &st->ports[sender];
	uint32_t capacity = st->vls * st->sim->input_slots;
	sim_credit *ring = st->credit_slots + (uint64_t)sender * capacity;
	uint32_t at = credit_position(st, ring, s, capacity, time);

	ring[sim_wrap((uint32_t)s->credit_head + at, capacity)] = sim_credit_make(time, vl);
	if (!at && server != VLR_NONE && time < st->inject_wake[server]) {
		st->inject_wake[server] = time;
		sim_wheel_lower(&st->servers_wake, server, time);
	} else if (!at && server == VLR_NONE) {
		wake_link(st, sender, time);
	}
	s->credit_count++;
}

/* The packet on the wire has left the output buffer: free its slot (sim_output_used). */
static void settle_link(const struct sim_state *st, struct sim_port *s)
{
	if (s->tx_vl != SIM_NO_VL && s->link_free <= st->now)
		s->tx_vl = SIM_NO_VL;
}

/*
 * The VL whose head packet may go on port's link now, or -1 and *wake the
 * first cycle one may: when the next credit comes back. A packet in an
 * output buffer is always ready: the allocator put it there in an earlier
 * cycle, as the links of a cycle move before its allocators.
 */
static int link_vl(struct sim_state *st, uint32_t port, uint64_t *wake)
{
	uint32_t peer = st->sim->peer[port];
	unsigned mask = st->ports[port].out_mask, left, vl;
	const uint16_t *credits;

	if (peer != VLR_NONE) {
		sim_credits_settle(st, port);
		credits = st->credits + (uint64_t)port * st->vls;
		for (left = mask; left; left &= left - 1) {
			vl = sim_lowest(left);
			if (!credits[vl])
				mask &= ~(1u << vl);
		}
	}
	if (!mask) {
		*wake = sim_credit_due(st, port);
		return -1;
	}
	return (int)sim_first_from(mask, st->ports[port].link_rr);
}

static void forward(struct sim_state *st, uint32_t port, uint32_t packet, unsigned vl)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t peer = sim->peer[port];
	struct sim_packet *p = &st->packets[packet];

	st->credits[(uint64_t)port * st->vls + vl]--;
	if (st->crt)
		sim_crt_sent(st, port, vl);
	p->ready = st->now + sim->latency[port] + st->config->pipeline;
	p->hops++;
	p->phase_hops++;
	p->escalation += sim->global[port];
	sim->route->enter_switch(sim->route, sim->port_switch[peer], p);
	st->busy_packets[sim->port_switch[peer]]++;
	sim_input_push(st, peer, vl, packet);
}

static void deliver(struct sim_state *st, uint32_t port, uint32_t packet)
{
	uint64_t tail = st->now + st->sim->latency[port] + st->config->packet_phits - 1;

	if (sim_stats_delivered(st, packet, tail))
		st->failed = 1;
	st->in_fabric--;
	sim_packet_free(st, packet);
}

static void transmit(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl)
{
	unsigned capacity = st->config->output_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	struct sim_output *out = &st->out[pv];
	struct sim_port *s = &st->ports[port];
	uint32_t packet = sim_output_slots(st, pv)[out->head];

	out->head = (uint8_t)sim_ring_next(out->head, capacity);
	if (!--out->count)
		s->out_mask &= (uint16_t)~(1u << vl);
	st->busy_packets[sw]--;
	s->link_free = st->now + st->config->packet_phits;
	s->tx_vl = (uint8_t)vl;
	s->link_rr = (uint8_t)sim_ring_next(vl, st->vls);
	sim_wheel_set(&st->links, port, s->link_free);
	s->last_sent = st->now;
	s->looks_from = s->out_mask ? s->link_free : UINT64_MAX;
	if (st->config->hop)
		sim_tell_hop(st, packet, sw,
			     port - st->sim->first_port[sw] + 1, vl);
	if (s->link_free > st->last_move)
		st->last_move = s->link_free;
	if (st->sim->peer[port] != VLR_NONE)
		forward(st, port, packet, vl);
	else
		deliver(st, port, packet);
}

/* The link of port, due to act: its packet on the wire arrives, another may go. */
static void link_act(struct sim_state *st, uint32_t sw, uint32_t port)
{
	struct sim_port *s = &st->ports[port];
	uint64_t wake = UINT64_MAX;
	int vl;

	settle_link(st, s);
	if (s->out_mask && s->link_free <= st->now) {
		vl = link_vl(st, port, &wake);
		if (vl >= 0) {
			transmit(st, sw, port, (unsigned)vl);
			return;
		}
	}
	sim_wheel_set(&st->links, port, s->tx_vl != SIM_NO_VL ? s->link_free : wake);
}

/* The switch's links due now act, in port order (each sets its next cycle). */
void sim_links(struct sim_state *st, uint32_t sw)
{
	struct sim_wheel *w = &st->links;
	uint32_t word, first = st->sim->first_port[sw], port;
	uint64_t bits;

	for (word = w->first_word[sw]; word < w->first_word[sw + 1]; word++, first += 64)
		for (bits = sim_wheel_take(w, word); bits; bits &= bits - 1) {
			port = first + (uint32_t)__builtin_ctzll(bits);
			if (sim_wheel_due(w, port))
				link_act(st, sw, port);
		}
}

void sim_tell_hop(const struct sim_state *st, uint32_t packet, uint32_t from_switch,
		  unsigned port, unsigned vl)
{
	const struct sim_packet *p = &st->packets[packet];
	struct vlr_sim_hop hop;

	hop.cycle = st->now;
	hop.serial = st->lives[packet].serial;
	hop.source = p->source;
	hop.destination = p->destination;
	hop.from_switch = from_switch;
	hop.port = port;
	hop.vl = vl;
	hop.via = st->sim->config.reference.routing == VLR_SIM_ROUTING_TABLES ? VLR_NONE :
		  p->via;
	hop.phase_two = p->phase_two;
	st->config->hop(st->config->hop_context, &hop);
}
