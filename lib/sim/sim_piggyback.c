/*
 * sim_piggyback.c - Piggyback's broadcast (sim.h, struct
 * vlr_sim_piggyback): at the start of every cycle each switch judges each
 * of its global ports saturated or not by the rule of piggyback.c, from
 * the packets queued there as it knows them (sim_port_queued, all VLs),
 * and sends the marks to the other switches of its group, where they
 * arrive local_latency cycles later, the latency of the local link the
 * study's simulator sends them over. So the marks are kept for the last
 * local_latency + 1 cycles, a ring of them per port: a switch reads its
 * own ports' marks of this cycle and the others' of local_latency cycles
 * ago. Before a mark has had time to arrive, the others know nothing
 * and take the port as not saturated.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "piggyback_internal.h"

struct sim_pb {
	unsigned slots;			/* local_latency + 1 cycles kept */
	uint8_t *marks;			/* [cycle mod slots][port]: saturated */
	uint64_t *queued;		/* [port]: scratch of the update */
};

uint64_t sim_pb_bytes(const struct vlr_sim *sim)
{
	return sizeof(struct sim_pb) +
	       ((uint64_t)sim->config.local_latency + 1) * sim->num_ports +
	       sim->num_ports * sizeof(uint64_t);
}

struct sim_pb *sim_pb_new(const struct vlr_sim *sim, struct vlr_error *err)
{
	struct sim_pb *pb = calloc(1, sizeof(*pb));

	size_t ports = sim->num_ports ? sim->num_ports : 1;

	if (pb) {
		pb->slots = sim->config.local_latency + 1;
		pb->marks = calloc(pb->slots * ports, sizeof(*pb->marks));
		pb->queued = calloc(ports, sizeof(*pb->queued));
	}
	if (!pb || !pb->marks || !pb->queued) {
		sim_pb_free(pb);
		vlr_fail(err, "out of memory for Piggyback's saturation marks (%llu bytes)",
			 (unsigned long long)sim_pb_bytes(sim));
		return NULL;
	}
	return pb;
}

void sim_pb_free(struct sim_pb *pb)
{
	if (!pb)
		return;
	free(pb->marks);
	free(pb->queued);
	free(pb);
}

/* Switch sw marks its global ports in marks (this cycle's slot). */
static void mark_switch(struct sim_state *st, uint32_t sw, uint8_t *marks)
{
	const struct vlr_sim *sim = st->sim;
	const struct vlr_sim_piggyback *rule = &sim->config.reference.piggyback;
	uint32_t port, first = sim->first_port[sw], last = sim->first_port[sw + 1];
	uint64_t *queued = st->pb->queued, sum = 0;
	unsigned ports = 0;

	for (port = first; port < last; port++)
		if (sim_global_link(sim, port)) {
			queued[port] = sim_port_queued(st, port, 0xffff);
			sum += queued[port];
			ports++;
		}
	for (port = first; port < last; port++)
		if (sim_global_link(sim, port))
			marks[port] = (uint8_t)vlr_sim_piggyback_saturated(rule, queued[port],
									   sum, ports);
}

void sim_pb_update(struct sim_state *st)
{
	const struct vlr_sim *sim = st->sim;
	uint8_t *marks = st->pb->marks + (st->now % st->pb->slots) * sim->num_ports;
	uint32_t sw;

	for (sw = 0; sw < sim->num_switches; sw++)
		mark_switch(st, sw, marks);
}

int sim_pb_saturated(const struct sim_state *st, uint32_t sw, uint32_t port)
{
	const struct vlr_sim *sim = st->sim;
	uint64_t delay = sim->port_switch[port] == sw ? 0 : st->pb->slots - 1;

	if (st->now < delay)
		return 0;
	return st->pb->marks[((st->now - delay) % st->pb->slots) * sim->num_ports + port];
}
