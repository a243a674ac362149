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

/* A packet from a server blocked at its source switch: another DLID. */
static void recompute(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	unsigned capacity = st->config->input_packets;
	uint32_t packet = sim_ring_at(&st->in[pv], st->in_slots + pv * capacity, capacity, 0);

	sim_recompute_dlid(st, sw, &st->packets[packet]);
	sim_head_update(st, port, vl);
}

/* Try the head of input (port, vl); fill req and return 1 if it may go. */
static int try_head(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl,
		    int first_iteration, struct request *req)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t out = st->head_out[pv];
	int out_vl;

	if (out == VLR_NONE || st->head_ready[pv] > st->now || st->xout_free[out] > st->now)
		return 0;
	out_vl = sim_pick_vl(st, out, st->head_choices[pv]);
	if (out_vl < 0) {
		if (first_iteration && st->config->dlid == VLR_SIM_DLID_RECOMPUTE &&
		    st->sim->peer_server[port] != VLR_NONE)
			recompute(st, sw, port, vl);
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
	uint64_t qv = (uint64_t)req->out * st->vls + req->out_vl;
	uint32_t packet = sim_input_pop(st, port, req->vl);
	struct sim_packet *p = &st->packets[packet];
	uint64_t done = st->now + (c->packet_phits + c->speedup - 1) / c->speedup;
	uint64_t tail_in = p->arrived + c->packet_phits;
	uint32_t sw = st->sim->port_switch[port];

	if (done < tail_in)
		done = tail_in;
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

/*
 * One iteration over the inputs in candidates[0..*count): requests, then
 * grants. Leaves in candidates the inputs that requested and lost: only
 * they can request in a later iteration, as grants only take outputs.
 */
static void iterate(struct sim_state *st, uint32_t sw, int first_iteration,
		    uint32_t *candidates, uint32_t *count, struct request *reqs,
		    struct bid *bids)
{
	uint32_t first = st->sim->first_port[sw], n = st->sim->first_port[sw + 1] - first;
	uint32_t k, i, requested = 0, lost = 0;

	for (k = 0; k < *count; k++) {
		i = candidates[k];
		if (!pick_request(st, sw, first + i, first_iteration, &reqs[i]))
			continue;
		bids[reqs[i].out - first].key = UINT32_MAX;
		candidates[requested++] = i;
		if (st->failed)
			return;
	}
	for (k = 0; k < requested; k++) {
		struct bid *bid;
		uint32_t key;

		i = candidates[k];
		bid = &bids[reqs[i].out - first];
		key = request_key(st, first, n, i, &reqs[i]);
		if (key < bid->key) {
			bid->key = key;
			bid->input = i;
		}
	}
	for (k = 0; k < requested; k++) {
		i = candidates[k];
		if (bids[reqs[i].out - first].input == i)
			grant(st, first + i, &reqs[i], i);
		else
			candidates[lost++] = i;
	}
	*count = lost;
}

void sim_allocate(struct sim_state *st, uint32_t sw)
{
	struct request reqs[VLR_MAX_NODE_PORTS];
	struct bid bids[VLR_MAX_NODE_PORTS];
	uint32_t candidates[VLR_MAX_NODE_PORTS], count = 0, port;
	uint32_t first = st->sim->first_port[sw], last = st->sim->first_port[sw + 1];
	unsigned it;

	for (port = first; port < last; port++)
		if (st->in_mask[port] && st->xin_free[port] <= st->now)
			candidates[count++] = port - first;
	for (it = 0; it < st->config->iterations && count && !st->failed; it++)
		iterate(st, sw, it == 0, candidates, &count, reqs, bids);
}
