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

#include "route_internal.h"
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
	st->failed = 1;
	vlr_fail(st->err, "cycle %llu: no VL for DLID %u at switch %s (SL %u maps beyond "
		 "the %u VLs simulated, or the policy allows none)",
		 (unsigned long long)st->now, p->dlid,
		 vlr_node_name(st->sim->tables->fabric, st->sim->tables->switch_node[sw]),
		 p->sl, st->vls);
}

void sim_head_update(struct sim_state *st, uint32_t port, unsigned vl)
{
	unsigned capacity = st->config->input_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t sw = st->sim->port_switch[port];
	const struct sim_vl_select *vl_select = st->sim->vl;
	const struct sim_packet *p;

	if (!st->in[pv].count)
		return;
	p = &st->packets[sim_ring_at(&st->in[pv], st->in_slots + pv * capacity, capacity, 0)];
	st->head_ready[pv] = p->ready;
	st->head_out[pv] = output_of(st, sw, port, p);
	if (st->head_out[pv] == VLR_NONE)
		return;
	st->head_choices[pv] = vl_select->choices(vl_select, sw, port, st->head_out[pv], p);
	if (!st->head_choices[pv])
		no_vl_failure(st, sw, p);
}

void sim_input_push(struct sim_state *st, uint32_t port, unsigned vl, uint32_t packet)
{
	unsigned capacity = st->config->input_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;

	sim_ring_push(&st->in[pv], st->in_slots + pv * capacity, capacity, packet);
	st->in_mask[port] |= (uint16_t)(1u << vl);
	if (st->in[pv].count == 1)
		sim_head_update(st, port, vl);
}

uint32_t sim_input_pop(struct sim_state *st, uint32_t port, unsigned vl)
{
	unsigned capacity = st->config->input_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t packet = sim_ring_pop(&st->in[pv], st->in_slots + pv * capacity, capacity);

	if (st->in[pv].count)
		sim_head_update(st, port, vl);
	else
		st->in_mask[port] &= (uint16_t)~(1u << vl);
	return packet;
}

/* Credits the sender on port's input link holds for vl, 0 for a server. */
static unsigned downstream_credits(const struct sim_state *st, uint32_t out_port,
				   unsigned vl)
{
	uint32_t peer = st->sim->peer[out_port];

	return peer == VLR_NONE ? 0 : st->credits[(uint64_t)peer * st->vls + vl];
}

int sim_pick_vl(const struct sim_state *st, uint32_t out_port, uint16_t choices)
{
	const uint8_t *used = st->out_used + (uint64_t)out_port * st->vls;
	unsigned vl, capacity = st->config->output_packets;
	int best = -1;

	for (vl = 0; vl < st->vls; vl++) {
		if (!(choices >> vl & 1) || used[vl] >= capacity)
			continue;
		if (best < 0 || used[vl] < used[best] ||
		    (used[vl] == used[best] &&
		     downstream_credits(st, out_port, vl) >
		     downstream_credits(st, out_port, (unsigned)best)))
			best = (int)vl;
	}
	return best;
}

void sim_credits_settle(struct sim_state *st, uint32_t port)
{
	struct sim_ring *ring = &st->credit_ring[port];
	uint32_t capacity = st->vls * st->config->input_packets;
	const struct sim_credit *slots = st->credit_slots + (uint64_t)port * capacity;

	while (ring->count && slots[ring->head].time <= st->now) {
		st->credits[(uint64_t)port * st->vls + slots[ring->head].vl]++;
		ring->head = (ring->head + 1) % capacity;
		ring->count--;
	}
}

void sim_return_credit(struct sim_state *st, uint32_t port, unsigned vl, uint64_t time)
{
	struct sim_ring *ring = &st->credit_ring[port];
	uint32_t capacity = st->vls * st->config->input_packets;
	struct sim_credit *slot = st->credit_slots + (uint64_t)port * capacity +
				  (ring->head + ring->count) % capacity;

	slot->time = time;
	slot->vl = vl;
	ring->count++;
}

/* The packet on the wire has left the output buffer: free its slot. */
static void settle_link(struct sim_state *st, uint32_t port)
{
	if (st->tx_vl[port] != SIM_NO_VL && st->link_free[port] <= st->now) {
		st->out_used[(uint64_t)port * st->vls + st->tx_vl[port]]--;
		st->tx_vl[port] = SIM_NO_VL;
	}
}

/* The VL whose head packet may go on port's link now, or -1. */
static int link_vl(struct sim_state *st, uint32_t port)
{
	const struct vlr_sim *sim = st->sim;
	unsigned k, capacity = st->config->output_packets;
	uint32_t peer = sim->peer[port];

	if (peer != VLR_NONE)
		sim_credits_settle(st, peer);
	for (k = 0; k < st->vls; k++) {
		unsigned vl = (st->link_rr[port] + k) % st->vls;
		uint64_t pv = (uint64_t)port * st->vls + vl;
		uint32_t packet;

		if (!(st->out_mask[port] >> vl & 1))
			continue;
		packet = sim_ring_at(&st->out[pv], st->out_slots + pv * capacity, capacity, 0);
		if (st->packets[packet].ready > st->now)
			continue;
		if (peer != VLR_NONE && !st->credits[(uint64_t)peer * st->vls + vl])
			continue;
		return (int)vl;
	}
	return -1;
}

static void forward(struct sim_state *st, uint32_t port, uint32_t packet, unsigned vl)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t peer = sim->peer[port];
	struct sim_packet *p = &st->packets[packet];

	st->credits[(uint64_t)peer * st->vls + vl]--;
	p->arrived = st->now + sim->latency[port];
	p->ready = p->arrived + st->config->pipeline;
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

	if (sim_stats_delivered(st, &st->packets[packet], tail))
		st->failed = 1;
	st->in_fabric--;
	sim_packet_free(st, packet);
}

static void transmit(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl)
{
	unsigned capacity = st->config->output_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t packet = sim_ring_pop(&st->out[pv], st->out_slots + pv * capacity, capacity);

	if (!st->out[pv].count)
		st->out_mask[port] &= (uint16_t)~(1u << vl);
	st->busy_packets[sw]--;
	st->link_free[port] = st->now + st->config->packet_phits;
	st->tx_vl[port] = (uint8_t)vl;
	st->link_rr[port] = (uint8_t)((vl + 1) % st->vls);
	if (st->config->hop)
		sim_tell_hop(st, &st->packets[packet], sw,
			     port - st->sim->first_port[sw] + 1, vl);
	if (st->link_free[port] > st->last_move)
		st->last_move = st->link_free[port];
	if (st->sim->peer[port] != VLR_NONE)
		forward(st, port, packet, vl);
	else
		deliver(st, port, packet);
}

void sim_links(struct sim_state *st, uint32_t sw)
{
	uint32_t port, last = st->sim->first_port[sw + 1];
	int vl;

	for (port = st->sim->first_port[sw]; port < last; port++) {
		settle_link(st, port);
		if (!st->out_mask[port] || st->link_free[port] > st->now)
			continue;
		vl = link_vl(st, port);
		if (vl >= 0)
			transmit(st, sw, port, (unsigned)vl);
	}
}

void sim_tell_hop(const struct sim_state *st, const struct sim_packet *p,
		  uint32_t from_switch, unsigned port, unsigned vl)
{
	struct vlr_sim_hop hop;

	hop.cycle = st->now;
	hop.serial = p->serial;
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
