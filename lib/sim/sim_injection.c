/*
 * sim_injection.c - the servers: Bernoulli or trace generation into one or
 * several injection queues, and the injection link into the switch. A new
 * packet's queue: a random one (refused if full), a random one with room
 * (the RVAL study's RANDOM), its destination mod the queues, or its
 * destination's section of consecutive servers (the RVAL study's DEST);
 * the queues' heads take turns at the link, round robin.
 *
 * A packet gets its route (its DLID among the destination's LMC LIDs, or
 * the reference model's intermediate) when it first reaches the head of
 * its queue, so that an adaptive rule sees the switch as it is when the
 * packet leaves (route_internal.h); its VL on the injection link from the
 * VL selection (vl_select_internal.h).
 *
 * A server whose injection cannot act is not visited: inject_wake holds
 * the first cycle it may (its link frees, a credit reaches its credit
 * ring's head, a packet is queued). Credits are only taken in when it
 * acts, which leaves them as they would be had it tried every cycle: its
 * credits are read by its injection alone. Without a trace, a timing
 * wheel (servers_wake, sim_wheel.h) holds the least of that and its next
 * generation, so that a cycle visits only the servers due in it.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "route_internal.h"
#include "vl_select_internal.h"

/* RANDOM_ROOM: a random one of the server's queues with room; the first if none has. */
static unsigned queue_with_room(struct sim_state *st, uint32_t server)
{
	const struct vlr_sim_config *c = st->config;
	const struct sim_ring *rings = st->queue + (uint64_t)server * c->injection_queues;
	unsigned q, roomy = 0, pick;

	for (q = 0; q < c->injection_queues; q++)
		roomy += rings[q].count < c->queue_packets;
	if (!roomy)
		return 0;
	pick = vlr_rng_below(&st->rng[server], roomy);
	for (q = 0; q < c->injection_queues; q++)
		if (rings[q].count < c->queue_packets && !pick--)
			return q;
	return 0;
}

/* The injection queue of a new packet of server to destination. */
static unsigned pick_queue(struct sim_state *st, uint32_t server, uint32_t destination)
{
	const struct vlr_sim_config *c = st->config;
	unsigned n = c->injection_queues;

	if (n == 1)
		return 0;
	switch (c->queue_select) {
	case VLR_SIM_QUEUE_DEST:
		return destination % n;
	case VLR_SIM_QUEUE_DEST_SECTION:
		return (unsigned)((uint64_t)destination * n / st->sim->servers.count);
	case VLR_SIM_QUEUE_RANDOM_ROOM:
		return queue_with_room(st, server);
	default:
		return vlr_rng_below(&st->rng[server], n);
	}
}

/* Queue a new packet; -1 when its injection queue is full. */
static int queue_packet(struct sim_state *st, uint32_t server, uint32_t destination)
{
	const struct vlr_sim_config *c = st->config;
	unsigned q = pick_queue(st, server, destination);
	struct sim_ring *ring;
	struct sim_packet *p;
	uint32_t packet;

	ring = &st->queue[(uint64_t)server * c->injection_queues + q];
	if (ring->count >= c->queue_packets)
		return -1;
	st->result->generated++;
	packet = sim_packet_new(st);
	p = &st->packets[packet];
	st->lives[packet].created = st->now;
	st->lives[packet].serial = st->next_serial++;
	p->source = server;
	p->destination = destination;
	p->dlid = 0;
	p->via = VLR_NONE;
	p->sl = 0;
	p->hops = 0;
	p->phase_hops = 0;
	p->escalation = 0;
	p->phase_two = 0;
	p->route_class = VLR_ROUTE_MINIMAL;
	p->measured = st->now >= c->warmup && st->now < st->end;
	sim_ring_push(ring, st->queue_slots + ((uint64_t)server * c->injection_queues + q) *
			    c->queue_packets, c->queue_packets, packet);
	st->queued++;
	st->server_queued[server]++;
	st->inject_wake[server] = st->now;
	return 0;
}

/*
 * Queue the packets of trace messages due by now, as far as queues allow;
 * once generation stops, only the rest of a message already begun.
 */
static void generate_trace(struct sim_state *st, uint32_t server)
{
	const struct vlr_sim_trace *trace = st->config->trace;
	unsigned phits = st->config->packet_phits;

	while (st->trace_next[server] < trace->first_of_server[server + 1]) {
		const struct vlr_sim_message *m = &trace->messages[st->trace_next[server]];

		if (m->time > st->now || (!st->generating && !st->trace_left[server]))
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

/* A Bernoulli arrival at the server, due now. */
static void generate(struct sim_state *st, uint32_t server)
{
	uint32_t destination;

	destination = vlr_traffic_destination(st->traffic, server, st->sequence[server]++,
					      &st->rng[server]);
	if (queue_packet(st, server, destination))
		st->result->refused++;
	st->next_generation[server] = sim_next_generation(st, server);
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
	if (c->hop)
		sim_tell_hop(st, packet, VLR_NONE, port - sim->first_port[sw] + 1, vl);
	p->ready = st->now + sim->latency[port] + c->pipeline;
	st->busy_packets[sw]++;
	sim_input_push(st, port, vl, packet);
	st->queued--;
	st->server_queued[server]--;
	st->in_fabric++;
	st->result->injected++;
	st->result->injected_check += sim_serial_check(st->lives[packet].serial);
	if (st->now >= c->warmup && st->now < st->end)
		st->stats.switch_injected[sw]++;
	st->server_link_free[server] = st->now + c->packet_phits;
	st->inject_wake[server] = st->server_link_free[server];
	if (st->server_link_free[server] > st->last_move)
		st->last_move = st->server_link_free[server];
	st->queue_rr[server] = (q + 1) % c->injection_queues;
}

/* Inject the head of one of the server's queues, if its link and a credit allow. */
static void inject(struct sim_state *st, uint32_t server)
{
	const struct vlr_sim_config *c = st->config;
	uint32_t port = st->sim->server_port[server];
	unsigned k;

	if (!st->server_queued[server]) {
		st->inject_wake[server] = UINT64_MAX;
		return;
	}
	if (st->server_link_free[server] > st->now) {
		st->inject_wake[server] = st->server_link_free[server];
		return;
	}
	sim_credits_settle(st, port);
	for (k = 0; k < c->injection_queues; k++) {
		unsigned q = (st->queue_rr[server] + k) % c->injection_queues;
		uint64_t sq = (uint64_t)server * c->injection_queues + q;
		struct sim_packet *p;
		int vl;

		if (!st->queue[sq].count)
			continue;
		p = &st->packets[sim_ring_first(&st->queue[sq],
						st->queue_slots + sq * c->queue_packets)];
		if (!p->dlid)
			st->sim->route->depart(st->sim->route, st, p);
		vl = st->sim->vl->injection_vl(st->sim->vl, st, server, p);
		if (vl >= 0) {
			send(st, server, q, (unsigned)vl);
			return;
		}
		if (st->failed)
			return;
	}
	/* every head has its route and waits for a credit */
	st->inject_wake[server] = sim_credit_due(st, port);
}

/* The first cycle the server generates or its injection may act. */
static uint64_t server_wake(const struct sim_state *st, uint32_t server)
{
	uint64_t wake = st->inject_wake[server];

	if (st->generating && st->next_generation[server] < wake)
		wake = st->next_generation[server];
	return wake;
}

/* A server due now generates, then injects, if each is due; then waits for its next. */
static void server_act(struct sim_state *st, uint32_t server)
{
	if (st->next_generation[server] <= st->now && st->generating)
		generate(st, server);
	if (st->inject_wake[server] <= st->now)
		inject(st, server);
	sim_wheel_set(&st->servers_wake, server, server_wake(st, server));
}

/*
 * The servers due now act in server order (the order of the packets'
 * serial numbers and of their draws from the packet pool), as if every
 * server were tried every cycle; with a trace, every server is.
 */
void sim_servers(struct sim_state *st)
{
	uint32_t s, n = st->sim->servers.count, word;
	uint64_t bits;

	if (st->config->trace) {
		for (s = 0; s < n; s++) {
			generate_trace(st, s);
			if (st->inject_wake[s] <= st->now)
				inject(st, s);
		}
		return;
	}
	sim_wheel_advance(&st->servers_wake, st->now);
	for (word = 0; word < st->servers_wake.words; word++)
		for (bits = sim_wheel_take(&st->servers_wake, word); bits; bits &= bits - 1) {
			s = word * 64 + (uint32_t)__builtin_ctzll(bits);
			if (sim_wheel_due(&st->servers_wake, s))
				server_act(st, s);
		}
}

void sim_servers_wake_init(struct sim_state *st)
{
	uint32_t s;

	if (st->config->trace)
		return;
	for (s = 0; s < st->sim->servers.count; s++)
		sim_wheel_set(&st->servers_wake, s, server_wake(st, s));
}
