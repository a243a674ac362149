/*
 * allocator_separable.c - the separable input-first switch allocator.
 *
 * The crossbar connects either ports (a packet crossing occupies its input
 * port and its output port: one packet per port at a time) or (port, VL)
 * pairs (each VL of an input and of an output crosses on its own, as in
 * the simulators of the Valiant studies). In each iteration every free
 * crossbar input picks one request: a port picks one of its VLs (round
 * robin from the VL after its last winner) whose head packet is ready and
 * whose output is free with room in an allowed output VL; a (port, VL)
 * pair offers its head. Then every crossbar output grants one of the
 * inputs that picked it (round robin from the input after its last winner;
 * with transit priority, inputs from switches before inputs from servers).
 * A grant moves the packet into the output buffer, keeping the crossbar
 * input and output busy for ceil(packet / speedup) cycles, or until its
 * tail has arrived. Later iterations match what earlier ones left free,
 * and only inputs that lost can find a match in them. In the first
 * iteration, a head from a server that finds no room in its output asks
 * the routing for another route, if the run's routing reroutes (the DLID
 * rule recompute, the reference model with recomputation).
 *
 * An input head that cannot go is not tried again before the first cycle
 * it might (not_before): its head gets ready, or a crossbar output it may
 * take frees with room in its buffer - which takes the packet on that
 * output's wire to arrive, or one to be sent first and arrive. Only a new
 * head (a grant, a packet into an empty buffer: arrived()) brings it
 * forward, as everything else at an output only grows busier until then.
 * Ports keep the least of their inputs in a timing wheel (port_wake,
 * sim_wheel.h), so that a switch with nothing to grant is not visited and
 * one that has visits its due ports alone, in port order; the requests,
 * and so the grants, are those of trying every input every cycle. A head
 * from a server that the routing may reroute is tried every cycle its
 * crossbar input is free.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "allocator_internal.h"
#include "route_internal.h"
#include "crt_internal.h"

/* A crossbar input's request. */
struct sim_request {
	uint32_t out;		/* output port */
	uint8_t vl;
	uint8_t out_vl;
};

/* An output's best request so far: the key (lower wins) and its input. */
struct sim_bid {
	uint32_t key;
	uint32_t input;
};

/*
 * A crossbar input or output of a switch is numbered by its port within
 * the switch above its VL (0 with a crossbar of ports), so that the two
 * come out with a shift and a mask, not a division by the VLs; numbers
 * then have gaps, which the round robins skip as they skip idle inputs.
 */
#define XBAR_VL_BITS 4
_Static_assert(VLR_MAX_DATA_VLS < 1 << XBAR_VL_BITS, "a VL fits below a crossbar number's port");

static uint32_t xbar_number(uint32_t port_in_switch, unsigned vl)
{
	return port_in_switch << XBAR_VL_BITS | vl;
}

static uint32_t xbar_port(uint32_t number)
{
	return number >> XBAR_VL_BITS;
}

static unsigned xbar_vl(uint32_t number)
{
	return number & ((1u << XBAR_VL_BITS) - 1);
}

/* The allocation of one switch: its crossbar inputs and outputs. */
struct sim_round {
	uint32_t sw;
	uint32_t first;		/* first port */
	uint32_t ports;
	unsigned per_vl;	/* VLs per port in the crossbar: vls or 1 */
	uint32_t inputs;	/* crossbar input (and output) numbers are
				   below this: ports << XBAR_VL_BITS */
	uint32_t count;		/* candidates */
	uint32_t num_touched;	/* ports due */
	uint32_t touched[VLR_MAX_NODE_PORTS];
	uint32_t candidates[VLR_MAX_NODE_PORTS * VLR_MAX_DATA_VLS];
	struct sim_request reqs[VLR_MAX_NODE_PORTS << XBAR_VL_BITS];
	struct sim_bid bids[VLR_MAX_NODE_PORTS << XBAR_VL_BITS];
};

struct separable {
	struct sim_allocator base;
	int per_vl_crossbar;	/* crossbar ports are (port, VL) pairs */
	unsigned vls;
	unsigned crossing;	/* cycles a packet takes to cross:
				   ceil(packet / speedup) */
	struct sim_wheel port_wake;	/* [port]: least cycle one of its inputs
					   may request (crossbar input free
					   too), or less; none when they are
					   empty (the cycles in
					   sim_port.alloc_wake) */
	struct sim_round round;	/* scratch */
};

/* The crossbar input or output of (port, VL): its own, or its port's (at VL 0). */
static uint64_t xbar(const struct separable *a, uint32_t port, unsigned vl)
{
	return (uint64_t)port * a->vls + (a->per_vl_crossbar ? vl : 0);
}

/* A packet from a server blocked at its source switch: another route. */
static void reroute(struct sim_state *st, uint32_t sw, uint32_t port, unsigned vl)
{
	uint32_t packet = sim_input_first(st, (uint64_t)port * st->vls + vl);

	st->sim->route->reroute(st->sim->route, st, sw, &st->packets[packet]);
	sim_head_update(st, port, vl);
}

/* VLs of choices whose crossbar output at port out is free now. */
static uint16_t free_outputs(const struct separable *a, const struct sim_state *st,
			     uint32_t out, uint16_t choices)
{
	const struct sim_output *busy = st->out + (uint64_t)out * a->vls;
	uint16_t free_vls = 0;
	unsigned left, vl;

	if (!a->per_vl_crossbar)
		return busy[0].crossbar_free <= st->now ? choices : 0;
	for (left = sim_vls_of(st, choices); left; left &= left - 1) {
		vl = sim_lowest(left);
		if (busy[vl].crossbar_free <= st->now)
			free_vls |= (uint16_t)(1u << vl);
	}
	return free_vls;
}

/*
 * The first cycle after now at which a head wanting choices at port out
 * might find a free crossbar output with room: each VL's output frees, and
 * a full buffer has room once the packet on the wire arrives (its VL's),
 * or once the link is free, sends one and it arrives (another VL's).
 */
static uint64_t output_frees(const struct separable *a, const struct sim_state *st,
			     uint32_t out, uint16_t choices)
{
	uint64_t next = st->now + 1, first = UINT64_MAX, link, room, at;
	unsigned left, vl;

	link = st->ports[out].link_free > next ? st->ports[out].link_free : next;
	for (left = sim_vls_of(st, choices); left; left &= left - 1) {
		vl = sim_lowest(left);
		room = sim_output_used(st, out, vl) < st->config->output_packets ? next :
		       st->ports[out].tx_vl == vl ? link : link + st->config->packet_phits;
		at = st->out[xbar(a, out, vl)].crossbar_free;
		if (at < room)
			at = room;
		if (at < first)
			first = at;
	}
	return first;
}

/*
 * Try the head of input (port, vl); fill req and return 1 if it may go,
 * else set its not_before.
 */
static int try_head(struct separable *a, struct sim_state *st, uint32_t port, unsigned vl,
		    int first_iteration, struct sim_request *req)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	uint32_t out = sim_input_out(&st->in[pv], a->round.first);
	int may_reroute = st->reroutes && st->sim->peer_server[port] != VLR_NONE;
	uint16_t choices;
	int out_vl;

	if (out == VLR_NONE)
		return 0;
	if (st->in[pv].ready > st->now) {
		st->in[pv].not_before = st->in[pv].ready;
		return 0;
	}
	choices = free_outputs(a, st, out, st->in[pv].choices);
	out_vl = choices ? sim_pick_vl(st, out, choices) : -1;
	if (out_vl < 0) {
		st->in[pv].not_before = may_reroute ? st->now + 1 :
				    output_frees(a, st, out, st->in[pv].choices);
		if (choices && first_iteration && may_reroute)
			reroute(st, a->round.sw, port, vl);
		return 0;
	}
	req->out = out;
	req->vl = (uint8_t)vl;
	req->out_vl = (uint8_t)out_vl;
	return 1;
}

/* The request of crossbar input ci (a port, or a port's VL), if any. */
static int pick_request(struct separable *a, struct sim_state *st, uint32_t ci,
			int first_iteration, struct sim_request *req)
{
	const struct sim_round *r = &a->round;
	uint32_t port = r->first + xbar_port(ci);
	unsigned k;

	if (r->per_vl > 1)
		return try_head(a, st, port, xbar_vl(ci), first_iteration, req);
	for (k = 0; k < st->vls; k++) {
		unsigned vl = sim_wrap(st->ports[port].in_rr + k, st->vls);

		if ((st->ports[port].in_mask >> vl & 1) &&
		    st->in[(uint64_t)port * st->vls + vl].not_before <= st->now &&
		    try_head(a, st, port, vl, first_iteration, req))
			return 1;
		if (st->failed)
			return 0;
	}
	return 0;
}

/* Crossbar output of a request, counted within the switch. */
static uint32_t output_of_request(const struct sim_round *r, const struct sim_request *req)
{
	return xbar_number(req->out - r->first, r->per_vl > 1 ? req->out_vl : 0);
}

static uint32_t request_key(const struct separable *a, const struct sim_state *st,
			    uint32_t ci, uint32_t co)
{
	const struct sim_round *r = &a->round;
	const struct sim_output *o = &st->out[xbar(a, r->first + xbar_port(co), xbar_vl(co))];
	uint32_t key = sim_wrap(ci + r->inputs - o->crossbar_rr, r->inputs);

	if (st->config->transit_priority &&
	    st->sim->peer_server[r->first + xbar_port(ci)] != VLR_NONE)
		key += r->inputs;
	return key;
}

static void grant(struct separable *a, struct sim_state *st, uint32_t ci,
		  const struct sim_request *req)
{
	const struct vlr_sim_config *c = st->config;
	const struct sim_round *r = &a->round;
	uint32_t port = r->first + xbar_port(ci);
	uint64_t pv = (uint64_t)port * st->vls + req->vl;
	/* the head arrived at head_ready - pipeline */
	uint64_t tail_in = st->in[pv].ready - c->pipeline + c->packet_phits;
	uint32_t packet = sim_input_pop(st, port, req->vl);
	uint64_t done = st->now + a->crossing, credit;

	if (done < tail_in)
		done = tail_in;
	st->in[xbar(a, port, req->vl)].crossbar_free = done;
	st->out[xbar(a, req->out, req->out_vl)].crossbar_free = done;
	if (done > st->last_move)
		st->last_move = done;
	st->in[pv].not_before = st->in[pv].ready;
	credit = done + st->sim->latency[port];
	if (st->crt)
		credit = sim_crt_credit_time(st, port, req->vl, req->out, credit);
	sim_return_credit(st, port, req->vl, credit);
	sim_output_push(st, req->out, req->out_vl, packet);
	st->ports[port].in_rr = (uint8_t)sim_ring_next(req->vl, st->vls);
	st->out[xbar(a, req->out, req->out_vl)].crossbar_rr = sim_ring_next(ci, r->inputs);
}

/*
 * One iteration over the candidates: requests, then grants. Leaves as
 * candidates the inputs that requested and lost: only they can request in
 * a later iteration, as grants only take outputs.
 */
static void iterate(struct separable *a, struct sim_state *st, int first_iteration)
{
	struct sim_round *r = &a->round;
	uint32_t k, ci, requested = 0, lost = 0;

	for (k = 0; k < r->count; k++) {
		ci = r->candidates[k];
		if (!pick_request(a, st, ci, first_iteration, &r->reqs[ci]))
			continue;
		r->bids[output_of_request(r, &r->reqs[ci])].key = UINT32_MAX;
		r->candidates[requested++] = ci;
		if (st->failed)
			return;
	}
	for (k = 0; k < requested; k++) {
		uint32_t co, key;

		ci = r->candidates[k];
		co = output_of_request(r, &r->reqs[ci]);
		key = request_key(a, st, ci, co);
		if (key < r->bids[co].key) {
			r->bids[co].key = key;
			r->bids[co].input = ci;
		}
	}
	for (k = 0; k < requested; k++) {
		ci = r->candidates[k];
		if (r->bids[output_of_request(r, &r->reqs[ci])].input == ci)
			grant(a, st, ci, &r->reqs[ci]);
		else
			r->candidates[lost++] = ci;
	}
	r->count = lost;
}

/* The first cycle input (port, vl) may request: its crossbar input free, its head due. */
static uint64_t input_wake(const struct separable *a, const struct sim_state *st,
			   uint32_t port, unsigned vl)
{
	uint64_t busy = st->in[xbar(a, port, vl)].crossbar_free;
	uint64_t due = st->in[(uint64_t)port * st->vls + vl].not_before;

	return busy > due ? busy : due;
}

/* Port, due, into touched; its free crossbar inputs whose head may request into candidates. */
static void gather_port(struct separable *a, const struct sim_state *st, uint32_t port)
{
	struct sim_round *r = &a->round;
	uint32_t i = port - r->first;
	unsigned left, vl;

	if (r->per_vl == 1) {
		if (st->in[xbar(a, port, 0)].crossbar_free <= st->now)
			r->candidates[r->count++] = xbar_number(i, 0);
	} else {
		for (left = st->ports[port].in_mask; left; left &= left - 1) {
			vl = sim_lowest(left);
			if (input_wake(a, st, port, vl) <= st->now)
				r->candidates[r->count++] = xbar_number(i, vl);
		}
	}
	r->touched[r->num_touched++] = port;
}

/*
 * The switch's due ports (as the wheel has them) in touched, in port order,
 * and their crossbar inputs that are free and hold a head that may request.
 */
static void gather(struct separable *a, const struct sim_state *st)
{
	struct sim_round *r = &a->round;
	struct sim_wheel *w = &a->port_wake;
	uint32_t word, first = r->first, port;
	uint64_t bits;

	r->count = 0;
	r->num_touched = 0;
	for (word = w->first_word[r->sw]; word < w->first_word[r->sw + 1]; word++, first += 64)
		for (bits = sim_wheel_take(w, word); bits; bits &= bits - 1) {
			port = first + (uint32_t)__builtin_ctzll(bits);
			if (sim_wheel_due(w, port))
				gather_port(a, st, port);
		}
}

/* Inputs that requested and lost in the last iteration request next cycle again. */
static void keep_losers(struct separable *a, struct sim_state *st)
{
	const struct sim_round *r = &a->round;
	uint32_t k;

	for (k = 0; k < r->count; k++) {
		const struct sim_request *req = &r->reqs[r->candidates[k]];

		st->in[(uint64_t)(r->first + xbar_port(r->candidates[k])) * st->vls +
		       req->vl].not_before = st->now + 1;
	}
}

/* port_wake of the touched ports. */
static void rewake(struct separable *a, const struct sim_state *st)
{
	const struct sim_round *r = &a->round;
	uint64_t w, least;
	uint32_t i, port;
	unsigned left;

	for (i = 0; i < r->num_touched; i++) {
		port = r->touched[i];
		least = UINT64_MAX;
		for (left = st->ports[port].in_mask; left; left &= left - 1)
			if ((w = input_wake(a, st, port, sim_lowest(left))) < least)
				least = w;
		sim_wheel_set(&a->port_wake, port, least);
	}
}

/* Whether the wheel has a due port (or a stale bit) of switch sw. */
static int any_due(const struct sim_wheel *w, uint32_t sw)
{
	uint32_t word;

	for (word = w->first_word[sw]; word < w->first_word[sw + 1]; word++)
		if (w->due[word])
			return 1;
	return 0;
}

static void allocate(struct sim_allocator *self, struct sim_state *st, uint32_t sw)
{
	struct separable *a = (struct separable *)self;
	struct sim_round *r = &a->round;
	unsigned it;

	sim_wheel_advance(&a->port_wake, st->now);
	if (!any_due(&a->port_wake, sw))
		return;
	r->sw = sw;
	r->first = st->sim->first_port[sw];
	r->ports = st->sim->first_port[sw + 1] - r->first;
	r->per_vl = a->per_vl_crossbar ? st->vls : 1;
	r->inputs = r->ports << XBAR_VL_BITS;
	gather(a, st);
	for (it = 0; it < st->config->iterations && r->count && !st->failed; it++)
		iterate(a, st, it == 0);
	keep_losers(a, st);
	rewake(a, st);
}

/* A packet arrived into the empty input (port, vl): its head may request from when it is ready. */
static void arrived(struct sim_allocator *self, struct sim_state *st, uint32_t port,
		    unsigned vl)
{
	struct separable *a = (struct separable *)self;
	struct sim_input *in = &st->in[(uint64_t)port * st->vls + vl];

	in->not_before = in->ready;
	sim_wheel_lower(&a->port_wake, port, input_wake(a, st, port, vl));
}

static void release(struct sim_allocator *self)
{
	struct separable *a = (struct separable *)self;

	sim_wheel_free(&a->port_wake);
	free(a);
}

static uint64_t run_bytes(const struct vlr_sim *sim)
{
	return sim_wheel_bytes(sim->num_switches, sim->first_port, 0) +
	       sizeof(struct sim_round);
}

/* Every port due at cycle 0: the first allocation of a switch looks at each. */
static void wake_all(struct separable *a, uint32_t ports)
{
	uint32_t port;

	for (port = 0; port < ports; port++)
		sim_wheel_set(&a->port_wake, port, 0);
}

static struct sim_allocator *create(struct sim_state *st, struct vlr_error *err)
{
	const struct vlr_sim *sim = st->sim;
	struct separable *a = calloc(1, sizeof(*a));

	if (a) {
		a->base.allocate = allocate;
		a->base.arrived = arrived;
		a->base.free = release;
		a->per_vl_crossbar = sim->config.crossbar == VLR_SIM_CROSSBAR_VL;
		a->vls = sim->vls;
		a->crossing = (sim->config.packet_phits + sim->config.speedup - 1) /
			      sim->config.speedup;
	}
	if (!a ||
	    sim_wheel_init(&a->port_wake, sim->num_switches, sim->first_port,
			   &st->ports[0].alloc_wake, sizeof(*st->ports))) {
		if (a)
			release(&a->base);
		vlr_fail(err, "out of memory for a run (%llu bytes)",
			 (unsigned long long)vlr_sim_run_bytes(sim));
		return NULL;
	}
	wake_all(a, sim->num_ports);
	return &a->base;
}

const struct sim_allocator_type sim_allocator_separable = { run_bytes, create };
