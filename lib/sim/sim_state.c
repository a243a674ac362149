/*
 * sim_state.c - the state of one run: buffers, credits, injection queues,
 * the packet pool, the random streams of the servers, and the run's DLID
 * rule and allocator.
 *
 * Every buffer is sized from the configuration up front, so a run's memory
 * is ports x VLs x buffer size plus servers x queue size, and the packet
 * pool never holds more packets than all buffers and queues together (each
 * input counted at its own size, by its kind; its ring and credit slots at
 * the largest).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "allocator_internal.h"
#include "dlid_rule_internal.h"
#include "crt_internal.h"
#include "piggyback_internal.h"
#include "route_internal.h"

#define CACHE_LINE 64

/* Packets all buffers and queues can hold at once. */
static uint64_t packet_capacity(const struct vlr_sim *sim)
{
	const struct vlr_sim_config *c = &sim->config;
	uint64_t buffers = (uint64_t)sim->vls * (sim->input_total +
						 (uint64_t)sim->num_ports * c->output_packets);

	return buffers +
	       (uint64_t)sim->servers.count * c->injection_queues * c->queue_packets;
}

/* Slots per (port, VL) of the output rings kept apart (out_slots): 0 if inline. */
static unsigned output_slots_apart(const struct vlr_sim_config *c)
{
	return c->output_packets > SIM_OUTPUT_INLINE ? c->output_packets : 0;
}

/* Bytes of the wheel of the servers (servers_wheel_init). */
static uint64_t servers_wheel_bytes(const struct vlr_sim *sim)
{
	uint32_t first[2] = { 0, (uint32_t)sim->servers.count };

	return sim_wheel_bytes(1, first, 1);
}

uint64_t vlr_sim_run_bytes(const struct vlr_sim *sim)
{
	const struct vlr_sim_config *c = &sim->config;
	uint64_t pv = (uint64_t)sim->num_ports * sim->vls;
	uint64_t queues = (uint64_t)sim->servers.count * c->injection_queues;

	return packet_capacity(sim) * (sizeof(struct sim_packet) + sizeof(struct sim_packet_life)) +
	       pv * (sizeof(struct sim_input) + sizeof(struct sim_output) + sizeof(uint16_t)) +
	       pv * (sim->input_slots + output_slots_apart(c)) * sizeof(uint32_t) +
	       pv * sim->input_slots * sizeof(sim_credit) +
	       sim->num_ports * sizeof(struct sim_port) +
	       sim_wheel_bytes(sim->num_switches, sim->first_port, 0) +
	       sim->num_switches * sizeof(uint32_t) + servers_wheel_bytes(sim) +
	       sim_allocator_type(c->allocator)->run_bytes(sim) +
	       (c->reference.routing == VLR_SIM_ROUTING_UGAL_L_CR ? sim_crt_bytes(sim) : 0) +
	       (c->reference.routing == VLR_SIM_ROUTING_PIGGYBACK ? sim_pb_bytes(sim) : 0) +
	       queues * (sizeof(struct sim_ring) + c->queue_packets * sizeof(uint32_t)) +
	       sim->servers.count * (sizeof(struct vlr_rng) + 5 * sizeof(uint64_t) +
				     3 * sizeof(uint32_t));
}

/* The wheel of the servers: one group of them all; -1 if out of memory. */
static int servers_wheel_init(struct sim_state *st)
{
	uint32_t first[2] = { 0, (uint32_t)st->sim->servers.count };

	return sim_wheel_init(&st->servers_wake, 1, first, NULL, 0);
}

/*
 * An array of count items of size bytes (room for one at least) that
 * starts on a cache line, zeroed if zero is set: then an item whose size
 * divides the line never spans two.
 */
static void *lines_alloc(size_t count, size_t size, int zero)
{
	size_t bytes = ((count ? count : 1) * size + CACHE_LINE - 1) & ~(size_t)(CACHE_LINE - 1);
	void *memory = aligned_alloc(CACHE_LINE, bytes);

	if (memory && zero)
		memset(memory, 0, bytes);
	return memory;
}

static int alloc_arrays(struct sim_state *st, struct vlr_error *err)
{
	const struct vlr_sim *sim = st->sim;
	const struct vlr_sim_config *c = st->config;
	size_t ports = sim->num_ports ? sim->num_ports : 1;
	size_t pv = ports * st->vls;
	size_t servers = sim->servers.count;
	size_t queues = servers * c->injection_queues, i;

	st->num_packets = (uint32_t)packet_capacity(sim);
	st->packets = lines_alloc(st->num_packets, sizeof(*st->packets), 0);
	st->lives = malloc((size_t)(st->num_packets ? st->num_packets : 1) * sizeof(*st->lives));
	st->in = lines_alloc(pv, sizeof(*st->in), 1);
	st->in_slots = malloc(pv * sim->input_slots * sizeof(*st->in_slots));
	st->credits = malloc(pv * sizeof(*st->credits));
	st->out = lines_alloc(pv, sizeof(*st->out), 1);
	if (output_slots_apart(c))
		st->out_slots = malloc(pv * output_slots_apart(c) * sizeof(*st->out_slots));
	st->ports = lines_alloc(ports, sizeof(*st->ports), 1);
	st->credit_slots = malloc(pv * sim->input_slots * sizeof(*st->credit_slots));
	st->busy_packets = calloc(sim->num_switches + 1, sizeof(*st->busy_packets));
	st->rng = malloc(servers * sizeof(*st->rng));
	st->next_generation = calloc(servers, sizeof(*st->next_generation));
	st->sequence = calloc(servers, sizeof(*st->sequence));
	st->trace_next = calloc(servers, sizeof(*st->trace_next));
	st->trace_left = calloc(servers, sizeof(*st->trace_left));
	st->queue = calloc(queues, sizeof(*st->queue));
	st->queue_slots = malloc(queues * c->queue_packets * sizeof(*st->queue_slots));
	st->server_link_free = calloc(servers, sizeof(*st->server_link_free));
	st->inject_wake = malloc(servers * sizeof(*st->inject_wake));
	st->server_queued = calloc(servers, sizeof(*st->server_queued));
	st->queue_rr = calloc(servers, sizeof(*st->queue_rr));
	if (!st->packets || !st->lives || !st->in || !st->in_slots || !st->credits || !st->out ||
	    (output_slots_apart(c) && !st->out_slots) || !st->ports || !st->credit_slots ||
	    !st->busy_packets ||
	    !st->rng || !st->next_generation || !st->sequence ||
	    !st->trace_next || !st->trace_left || !st->queue || !st->queue_slots ||
	    !st->server_link_free || !st->inject_wake || !st->server_queued || !st->queue_rr ||
	    sim_wheel_init(&st->links, sim->num_switches, sim->first_port,
			   &st->ports[0].link_wake, sizeof(*st->ports)) ||
	    servers_wheel_init(st))
		return vlr_fail(err, "out of memory for a run (%llu bytes)",
				(unsigned long long)vlr_sim_run_bytes(sim));
	for (i = 0; i < ports; i++) {
		st->ports[i].tx_vl = SIM_NO_VL;
		st->ports[i].looks_from = UINT64_MAX;
	}
	memset(st->inject_wake, 0xff, servers * sizeof(*st->inject_wake));
	return 0;
}

/*
 * Every port's input size by its kind, and the full credits of the input
 * its link feeds (a server's port: its own input), of the same kind.
 */
static void init_inputs(struct sim_state *st)
{
	uint32_t port;
	unsigned capacity, vl;

	for (port = 0; port < st->sim->num_ports; port++) {
		capacity = sim_input_capacity(st->sim, port);
		st->ports[port].in_capacity = (uint16_t)capacity;
		for (vl = 0; vl < st->vls; vl++)
			st->credits[(uint64_t)port * st->vls + vl] = (uint16_t)capacity;
	}
}

static void init_packets(struct sim_state *st)
{
	uint32_t i;

	for (i = 0; i < st->num_packets; i++)
		st->lives[i].next_free = i + 1 < st->num_packets ? i + 1 : VLR_NONE;
	st->free_packet = st->num_packets ? 0 : VLR_NONE;
}

/* Cycles until the next Bernoulli success, 1 or more (geometric). */
static uint64_t generation_gap(struct sim_state *st, uint32_t server)
{
	double u;

	if (st->generation_p >= 1.0)
		return 1;
	u = 1.0 - vlr_rng_unit(&st->rng[server]);
	return 1 + (uint64_t)floor(log(u) / st->log_miss);
}

static void init_servers(struct sim_state *st, double load, uint64_t seed)
{
	uint32_t s, n = st->sim->servers.count;
	const struct vlr_sim_trace *trace = st->config->trace;

	st->generation_p = load / st->config->packet_phits;
	if (st->generation_p > 1.0)
		st->generation_p = 1.0;
	st->log_miss = st->generation_p < 1.0 ? log(1.0 - st->generation_p) : 0.0;
	for (s = 0; s < n; s++) {
		vlr_rng_seed(&st->rng[s], seed, s);
		if (trace) {
			st->trace_next[s] = trace->first_of_server[s];
			continue;
		}
		st->next_generation[s] = st->generation_p > 0 ?
					 generation_gap(st, s) - 1 : UINT64_MAX;
	}
	if (trace) {
		uint64_t i;

		for (i = 0; i < trace->count; i++)
			st->trace_pending += (trace->messages[i].phits +
					      st->config->packet_phits - 1) /
					     st->config->packet_phits;
	}
}

uint64_t sim_next_generation(struct sim_state *st, uint32_t server)
{
	return st->now + generation_gap(st, server);
}

/* The run's DLID rule (and whether its routing reroutes) and allocator. */
static int create_parts(struct sim_state *st, struct vlr_error *err)
{
	const struct vlr_sim *sim = st->sim;

	st->dlid = sim_dlid_type(sim->config.dlid)->create(sim, err);
	if (!st->dlid)
		return -1;
	st->reroutes = sim->route->reroutes && sim->route->reroutes(sim->route, st);
	st->allocator = sim_allocator_type(sim->config.allocator)->create(st, err);
	if (!st->allocator)
		return -1;
	if (sim->config.reference.routing == VLR_SIM_ROUTING_UGAL_L_CR &&
	    !(st->crt = sim_crt_new(sim, err)))
		return -1;
	if (sim->config.reference.routing == VLR_SIM_ROUTING_PIGGYBACK &&
	    !(st->pb = sim_pb_new(sim, err)))
		return -1;
	return 0;
}

int sim_state_init(struct sim_state *st, const struct vlr_sim *sim, double load,
		   uint64_t seed, struct vlr_error *err)
{
	memset(st, 0, sizeof(*st));
	st->sim = sim;
	st->config = &sim->config;
	st->vls = sim->vls;
	st->end = sim->config.warmup + sim->config.cycles;
	st->generating = 1;
	st->err = err;
	if (alloc_arrays(st, err) || create_parts(st, err)) {
		sim_state_free(st);
		return -1;
	}
	init_inputs(st);
	init_packets(st);
	init_servers(st, load, seed);
	sim_servers_wake_init(st);
	if (!sim->config.trace) {
		st->traffic = vlr_traffic_new(&sim->servers,
					      sim->has_topology ? &sim->topology : NULL,
					      &sim->config.pattern, seed, err);
		if (!st->traffic) {
			sim_state_free(st);
			return -1;
		}
	}
	if (sim_stats_init(&st->stats, st)) {
		vlr_fail(err, "out of memory for the statistics");
		sim_state_free(st);
		return -1;
	}
	return 0;
}

void sim_state_free(struct sim_state *st)
{
	if (st->traffic)
		vlr_traffic_free((struct vlr_traffic *)st->traffic);
	sim_stats_free(&st->stats);
	if (st->dlid)
		st->dlid->free(st->dlid);
	if (st->allocator)
		st->allocator->free(st->allocator);
	sim_crt_free(st->crt);
	sim_pb_free(st->pb);
	free(st->packets);
	free(st->lives);
	free(st->in);
	free(st->in_slots);
	free(st->credits);
	free(st->out);
	free(st->out_slots);
	free(st->ports);
	free(st->credit_slots);
	sim_wheel_free(&st->links);
	free(st->busy_packets);
	free(st->rng);
	free(st->next_generation);
	free(st->sequence);
	free(st->trace_next);
	free(st->trace_left);
	free(st->queue);
	free(st->queue_slots);
	free(st->server_link_free);
	free(st->inject_wake);
	sim_wheel_free(&st->servers_wake);
	free(st->server_queued);
	free(st->queue_rr);
	memset(st, 0, sizeof(*st));
}

uint32_t sim_packet_new(struct sim_state *st)
{
	uint32_t packet = st->free_packet;

	if (packet != VLR_NONE)
		st->free_packet = st->lives[packet].next_free;
	return packet;
}

void sim_packet_free(struct sim_state *st, uint32_t packet)
{
	st->lives[packet].next_free = st->free_packet;
	st->free_packet = packet;
}
