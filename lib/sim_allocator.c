/*
 * sim_allocator.c - the separable input-first switch allocator.
 *
 * In each iteration every free input port picks one of its VLs (round
 * robin from the VL after its last winner) whose head packet is ready and
 * whose output port is free with room in an allowed output VL; then every
 * output port grants one of the inputs that picked it (round robin from
 * the input after its last winner; with transit priority, inputs from
 * switches before inputs from servers). A grant moves the packet through
 * the crossbar into the output buffer, keeping input and output busy for
 * ceil(packet / speedup) cycles, or until its tail has arrived. Later
 * iterations match what earlier ones left free.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "sim_internal.h"

struct request {
	uint32_t out;		/* output port, VLR_NONE: no request */
	uint8_t vl;
	uint8_t out_vl;
};

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
static uint32_t output_of(struct sim_state *st, uint32_t sw, const struct sim_packet *p)
{
	const struct vlr_sim *sim = st->sim;
	unsigned number = sim_out_port(st, sw, p->dlid);
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

/* Try the head of input (port, vl); fill req and return 1 if it may go. */
static int try_head(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl,
		    int first_iteration, struct request *req)
{
	unsigned capacity = st->config->input_packets;
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t packet = sim_ring_at(&st->in[pv], st->in_slots + pv * capacity, capacity, 0);
	struct sim_packet *p = &st->packets[packet];
	uint32_t out;
	uint16_t choices;
	int out_vl;

	if (p->ready > st->now)
		return 0;
	out = output_of(st, sw, p);
	if (out == VLR_NONE || st->xout_free[out] > st->now)
		return 0;
	choices = sim_vl_choices(st, sw, port, out, p);
	if (!choices) {
		st->failed = 1;
		vlr_fail(st->err, "cycle %llu: no VL for DLID %u at switch %s (SL %u maps "
			 "beyond the %u VLs simulated, or the policy allows none)",
			 (unsigned long long)st->now, p->dlid,
			 vlr_node_name(st->sim->tables->fabric,
				       st->sim->tables->switch_node[sw]), p->sl, st->vls);
		return 0;
	}
	out_vl = sim_pick_vl(st, out, choices);
	if (out_vl < 0) {
		if (first_iteration && st->config->dlid == VLR_SIM_DLID_RECOMPUTE &&
		    p->hops == 0 && st->sim->peer_server[port] != VLR_NONE)
			sim_recompute_dlid(st, sw, p);
		return 0;
	}
	req->out = out;
	req->vl = (uint8_t)vl;
	req->out_vl = (uint8_t)out_vl;
	return 1;
}

static int pick_request(struct sim_state *st, uint32_t sw, uint32_t port,
			int first_iteration, struct request *req)
{
	unsigned k;

	for (k = 0; k < st->vls; k++) {
		unsigned vl = (st->in_rr[port] + k) % st->vls;

		if ((st->in_mask[port] >> vl & 1) &&
		    try_head(st, sw, port, vl, first_iteration, req))
			return 1;
		if (st->failed)
			return 0;
	}
	return 0;
}

static void grant(struct sim_state *st, uint32_t port, const struct request *req,
		  uint32_t winner_index)
{
	const struct vlr_sim_config *c = st->config;
	uint64_t pv = (uint64_t)port * st->vls + req->vl;
	uint64_t qv = (uint64_t)req->out * st->vls + req->out_vl;
	uint32_t packet = sim_ring_pop(&st->in[pv], st->in_slots + pv * c->input_packets,
				       c->input_packets);
	struct sim_packet *p = &st->packets[packet];
	uint64_t done = st->now + (c->packet_phits + c->speedup - 1) / c->speedup;
	uint64_t tail_in = p->arrived + c->packet_phits;
	uint32_t sw = st->sim->port_switch[port];

	if (done < tail_in)
		done = tail_in;
	if (!st->in[pv].count)
		st->in_mask[port] &= (uint16_t)~(1u << req->vl);
	st->xin_free[port] = done;
	st->xout_free[req->out] = done;
	if (done > st->last_move)
		st->last_move = done;
	sim_return_credit(st, port, req->vl, done + st->sim->latency[port]);
	sim_ring_push(&st->out[qv], st->out_slots + qv * c->output_packets,
		      c->output_packets, packet);
	st->out_used[qv]++;
	st->out_mask[req->out] |= (uint16_t)(1u << req->out_vl);
	p->vl = req->out_vl;
	p->ready = st->now + 1;
	st->in_rr[port] = (uint8_t)((req->vl + 1) % st->vls);
	st->out_rr[req->out] = (winner_index + 1) %
			       (st->sim->first_port[sw + 1] - st->sim->first_port[sw]);
}

/* An output's best request so far: the key (lower wins) and its input. */
struct bid {
	uint32_t key;
	uint32_t input;
};

static uint32_t request_key(const struct sim_state *st, uint32_t first, uint32_t n,
			    uint32_t i, const struct request *req)
{
	uint32_t key = (i + n - st->out_rr[req->out]) % n;

	if (st->config->transit_priority && st->sim->peer_server[first + i] != VLR_NONE)
		key += n;
	return key;
}

static void iterate(struct sim_state *st, uint32_t sw, int first_iteration,
		    struct request *reqs, struct bid *bids, unsigned *any)
{
	uint32_t first = st->sim->first_port[sw], n = st->sim->first_port[sw + 1] - first, i;

	*any = 0;
	for (i = 0; i < n; i++) {
		uint32_t port = first + i;

		reqs[i].out = VLR_NONE;
		if (!st->in_mask[port] || st->xin_free[port] > st->now)
			continue;
		if (pick_request(st, sw, port, first_iteration, &reqs[i])) {
			bids[reqs[i].out - first].key = UINT32_MAX;
			*any = 1;
		}
		if (st->failed)
			return;
	}
	for (i = 0; *any && i < n; i++) {
		struct bid *bid;
		uint32_t key;

		if (reqs[i].out == VLR_NONE)
			continue;
		bid = &bids[reqs[i].out - first];
		key = request_key(st, first, n, i, &reqs[i]);
		if (key < bid->key) {
			bid->key = key;
			bid->input = i;
		}
	}
	for (i = 0; *any && i < n; i++)
		if (reqs[i].out != VLR_NONE && bids[reqs[i].out - first].input == i)
			grant(st, first + i, &reqs[i], i);
}

void sim_allocate(struct sim_state *st, uint32_t sw)
{
	struct request reqs[VLR_MAX_NODE_PORTS];
	struct bid bids[VLR_MAX_NODE_PORTS];
	unsigned it, any;

	for (it = 0; it < st->config->iterations; it++) {
		iterate(st, sw, it == 0, reqs, bids, &any);
		if (!any || st->failed)
			return;
	}
}
