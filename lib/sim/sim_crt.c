/*
 * sim_crt.c - UGAL-L_CR's credit round-trip latency (the Dragonfly
 * paper, Section 4.3.2 and Fig. 17): sense congestion by how long credits
 * take to come back, and signal it upstream by holding credits back.
 *
 * Each switch output O to another switch keeps, per VL, a queue of the
 * cycles its packets left (the paper's credit timestamp queue, CTQ). When
 * a credit of that VL comes back, the oldest stamp is popped: t_crt(O) =
 * the credit's arrival - the stamp, and t_d(O) = t_crt(O) - t_crt0(O) is
 * kept (not below 0) until the next credit of O. t_crt0(O) is the
 * zero-load round trip of the model (sim.h's timing): the link both ways,
 * and max(pipeline + crossbar cycles, packet) at the far switch. When a
 * switch moves a packet from input I to output O, the credit of I goes
 * back t_d(O) - min t_d(o) cycles late, the minimum over the switch's
 * outputs to switches; a credit over a global link is never late (no
 * cycle of delays, the global channels fully used).
 *
 * Readings where the paper leaves a choice: stamps per (output, VL), as
 * our credits are per VL and keep their order only within a VL; t_crt(O)
 * per port, set by the latest credit of any VL; min t_d(o) over the
 * outputs to switches only (outputs to servers have no credits here, and
 * with them the minimum would always be 0, so that no difference of
 * t_d would be what is delayed, against the paper's "variance"); the
 * credits to servers (terminal links) are held back like any local one;
 * and a late credit never overtakes one of its VL sent before it (each
 * VL's credits return in order, as its stamps assume) but holds back no
 * other VL's: with the credits of all VLs of a link in one queue, a
 * credit held back for a congested output stalled the link's other VLs
 * too, whose round trips grew and held back more, and uniform traffic
 * past saturation collapsed (UGAL-L_CR at load 0.7 on the paper's
 * Dragonfly: 0.03 accepted).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "crt_internal.h"

struct sim_crt {
	uint64_t *stamps;		/* [port, VL][input_slots]: rings */
	struct sim_ring *rings;		/* [port, VL] */
	uint32_t *td;			/* [port]: t_d */
	uint32_t *crt0;			/* [port]: t_crt0 */
	uint64_t *last_credit;		/* [sender, VL]: latest credit time */
};

uint64_t sim_crt_bytes(const struct vlr_sim *sim)
{
	uint64_t pv = (uint64_t)sim->num_ports * sim->vls;

	return pv * (sim->input_slots * sizeof(uint64_t) + sizeof(struct sim_ring)) +
	       pv * sizeof(uint64_t) + sim->num_ports * 2 * sizeof(uint32_t);
}

void sim_crt_free(struct sim_crt *crt)
{
	if (!crt)
		return;
	free(crt->stamps);
	free(crt->rings);
	free(crt->td);
	free(crt->crt0);
	free(crt->last_credit);
	free(crt);
}

/* The zero-load credit round trip of port's link (sim.h's timing). */
static uint32_t zero_load(const struct vlr_sim *sim, uint32_t port)
{
	const struct vlr_sim_config *c = &sim->config;
	uint32_t crossing = c->pipeline + (c->packet_phits + c->speedup - 1) / c->speedup;

	return 2u * sim->latency[port] + (crossing > c->packet_phits ? crossing :
					  c->packet_phits);
}

struct sim_crt *sim_crt_new(const struct vlr_sim *sim, struct vlr_error *err)
{
	size_t ports = sim->num_ports ? sim->num_ports : 1, pv = ports * sim->vls, i;
	struct sim_crt *crt = calloc(1, sizeof(*crt));

	if (crt) {
		crt->stamps = malloc(pv * sim->input_slots * sizeof(*crt->stamps));
		crt->rings = calloc(pv, sizeof(*crt->rings));
		crt->td = calloc(ports, sizeof(*crt->td));
		crt->crt0 = malloc(ports * sizeof(*crt->crt0));
		crt->last_credit = calloc(pv, sizeof(*crt->last_credit));
	}
	if (!crt || !crt->stamps || !crt->rings || !crt->td || !crt->crt0 ||
	    !crt->last_credit) {
		sim_crt_free(crt);
		vlr_fail(err, "out of memory for the credit round trips (%llu bytes)",
			 (unsigned long long)sim_crt_bytes(sim));
		return NULL;
	}
	for (i = 0; i < sim->num_ports; i++)
		crt->crt0[i] = zero_load(sim, (uint32_t)i);
	return crt;
}

void sim_crt_sent(struct sim_state *st, uint32_t port, unsigned vl)
{
	uint64_t pv = (uint64_t)port * st->vls + vl;
	unsigned capacity = st->sim->input_slots;
	struct sim_ring *ring = &st->crt->rings[pv];

	st->crt->stamps[pv * capacity + sim_ring_tail(ring, capacity)] = st->now;
	ring->count++;
}

void sim_crt_credit(struct sim_state *st, uint32_t sender, unsigned vl, uint64_t time)
{
	struct sim_crt *crt = st->crt;
	uint64_t pv = (uint64_t)sender * st->vls + vl, sent, trip;
	unsigned capacity = st->sim->input_slots;
	struct sim_ring *ring = &crt->rings[pv];

	if (!ring->count)
		return;
	sent = crt->stamps[pv * capacity + ring->head];
	ring->head = sim_ring_next(ring->head, capacity);
	ring->count--;
	trip = time - sent;
	crt->td[sender] = trip > crt->crt0[sender] ? (uint32_t)(trip - crt->crt0[sender]) : 0;
}

uint32_t sim_crt_td(const struct sim_state *st, uint32_t port)
{
	return st->crt->td[port];
}

uint64_t sim_crt_credit_time(struct sim_state *st, uint32_t in_port, unsigned vl,
			     uint32_t out_port, uint64_t time)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t sw = sim->port_switch[out_port], port, least = UINT32_MAX;
	uint64_t *last = &st->crt->last_credit[(uint64_t)sim_sender(sim, in_port) * st->vls + vl];

	if (!sim->global[in_port] && sim->peer[out_port] != VLR_NONE) {
		for (port = sim->first_port[sw]; port < sim->first_port[sw + 1]; port++)
			if (sim->peer[port] != VLR_NONE && st->crt->td[port] < least)
				least = st->crt->td[port];
		time += st->crt->td[out_port] - least;
	}
	if (time < *last)
		time = *last;
	*last = time;
	return time;
}
