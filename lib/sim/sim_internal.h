/*
 * sim_internal.h - the simulator's network (shared, read-only) and the
 * state of one run, as arrays indexed by port and (port, VL).
 *
 * A "port" here is a switch port: switch sw owns ports first_port[sw] ..
 * first_port[sw + 1] - 1 for its port numbers 1..N. Each has an input side
 * (buffer per VL, fed by the peer's output or a server) and an output side
 * (buffer per VL, draining into the link). Rings of packet numbers hold the
 * buffers; a packet number indexes the run's packet pool.
 *
 * A run's state is larger than the caches, and each of a cycle's steps
 * touches little of it: what a step reads together is kept together (a
 * port's link, an input's ring and head, an output's ring), so that it
 * costs one cache miss rather than one per array.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_SIM_INTERNAL_H
#define VLROUTE_SIM_INTERNAL_H

#include <stdint.h>

#include <vlroute/util.h>
#include <vlroute/sim.h>
#include <vlroute/topology.h>
#include <vlroute/traffic.h>
#include <vlroute/tables.h>

#include "sim_wheel.h"

#define SIM_NO_VL 0xff

struct vlr_sim {
	const struct vlr_tables *tables;
	struct vlr_sim_config config;
	struct vlr_servers servers;
	struct vlr_topology topology;
	int has_topology;
	unsigned vls;			/* VLs simulated */
	struct sim_vl_select *vl;	/* vl_select_internal.h */
	struct sim_route *route;	/* route_internal.h */

	uint32_t num_switches;
	uint32_t num_ports;
	uint32_t *first_port;		/* [switch], num_switches + 1 entries */
	uint32_t *port_switch;		/* [port] */
	uint32_t *peer;			/* [port]: peer switch port, VLR_NONE */
	uint32_t *peer_server;		/* [port]: server on the link, VLR_NONE */
	uint8_t *latency;		/* [port]: link latency, both ways */
	uint8_t *global;		/* [port]: a Dragonfly global link */
	uint32_t *server_port;		/* [server]: the switch port it hangs off */
	uint16_t *server_lid;		/* [server]: base LID */
	uint8_t *server_lids;		/* [server]: log2 of its LIDs (LMC) */
	unsigned input_slots;		/* ring slots of every (port, VL) input:
					   its largest input buffer */
	uint64_t input_total;		/* sum of the ports' input buffers per
					   VL (sim_input_capacity) */
};

/*
 * A packet as the switches see it, read and written at every hop: 32
 * bytes, so that it never spans two cache lines of the pool (aligned to
 * them); what only its creation, injection and delivery read is apart, in
 * struct sim_packet_life.
 */
struct sim_packet {
	uint64_t ready;			/* cycle its head may move on */
	uint32_t source;		/* servers */
	uint32_t destination;
	uint32_t via;			/* reference model: intermediate switch */
	uint16_t dlid;			/* 0: no route yet */
	uint8_t sl;
	uint8_t hops;			/* switch-to-switch hops taken */
	uint8_t phase_two;
	uint8_t phase_hops;		/* switch-to-switch hops of this phase */
	uint8_t escalation;		/* global links taken in this phase */
	uint8_t route_class;		/* enum vlr_route_class */
	uint8_t measured;		/* created inside the measured window */
};
_Static_assert(sizeof(struct sim_packet) == 32, "a packet's hop fields fill half a cache line");

/* The rest of a packet, by the same number: its ends, and the free list. */
struct sim_packet_life {
	uint64_t created;		/* generation cycle */
	uint64_t serial;
	uint32_t next_free;
};

/* A ring buffer's position; its slots live in a shared array. */
struct sim_ring {
	uint32_t head;
	uint32_t count;
};

/*
 * The input buffer of a (port, VL), what the allocator reads of it
 * together: its ring of packets (slots in in_slots), what its head packet
 * wants, and the allocator's own two cycles of it (allocator_internal.h),
 * in 32 bytes, so that two share a cache line of the array (aligned to
 * them) and none spans two.
 */
struct sim_input {
	uint64_t ready;			/* the head may move from this cycle */
	uint64_t not_before;		/* allocator: no request of the head
					   before this cycle */
	uint64_t crossbar_free;		/* allocator: its crossbar input (or,
					   at VL 0, its port's) busy until */
	uint16_t out;			/* the head's output port, counted
					   from its switch's first;
					   SIM_NO_PORT: none */
	uint16_t choices;		/* ... and the VLs it may take there */
	uint16_t head;			/* ring: first slot */
	uint16_t count;			/* ring: packets */
};
_Static_assert(sizeof(struct sim_input) == 32, "an input fills half a cache line");

#define SIM_NO_PORT 0xffff

/* Ring slots an output keeps in its own struct: up to 4 packets per VL (the studies': 2). */
#define SIM_OUTPUT_INLINE 4

/*
 * The output buffer of a (port, VL) and its crossbar output, what the
 * allocator and the link read of it together: the allocator's cycle and
 * round robin of the crossbar output (allocator_internal.h; at VL 0, the
 * port's, with a crossbar of ports), and the buffer's ring, whose slots
 * are in the struct when it holds at most SIM_OUTPUT_INLINE packets (else
 * in out_slots): 32 bytes, so that a packet crossing into it touches one
 * cache line of the array (aligned to them) and none spans two.
 */
struct sim_output {
	uint64_t crossbar_free;		/* allocator: busy until */
	uint32_t crossbar_rr;		/* allocator: next crossbar input of
					   its switch to favour */
	uint8_t head;
	uint8_t count;			/* packets in the ring; the one on the
					   wire still takes a slot until its
					   link settles it (sim_output_used) */
	uint32_t slot[SIM_OUTPUT_INLINE];	/* ring: its slots, if here */
};
_Static_assert(sizeof(struct sim_output) == 32, "an output fills half a cache line");

/*
 * A switch port: its link and what its links and allocator read of it
 * together, with the cycles at which the timing wheels of both wake it
 * (sim_wheel.h: its link's in links, the allocator's in its own), in 64
 * bytes, one cache line of the array (aligned to them).
 */
struct sim_port {
	_Alignas(64) uint64_t link_free;	/* output link busy until */
	uint64_t link_wake;		/* links: first cycle the link may act */
	uint64_t alloc_wake;		/* the allocator's: first cycle an input
					   may request (allocator_internal.h) */
	uint64_t looks_from;		/* from this cycle on, until it sends,
					   the link looks for a packet every
					   cycle; UINT64_MAX: output empty */
	uint64_t last_sent;		/* the cycle the link last sent */
	uint16_t credit_head;		/* ring of the credits on their way
					   back to its link (credit_slots),
					   as sender (sim_sender) */
	uint16_t credit_count;
	uint16_t in_mask;		/* VLs with a packet in the input */
	uint16_t out_mask;		/* VLs with a packet in the output */
	uint16_t in_capacity;		/* packets per VL of its input, and of
					   the input its link feeds (the same
					   kind of link: sim_input_capacity) */
	uint8_t tx_vl;			/* VL of the packet on the wire */
	uint8_t link_rr;		/* next VL to favour on the link */
	uint8_t in_rr;			/* the allocator's: next VL to favour at
					   the input */
};
_Static_assert(sizeof(struct sim_port) == 64, "a port fills one cache line");

/*
 * A credit on its way back: the cycle it reaches the sender above its VL's
 * 4 bits (VLR_MAX_DATA_VLS < 16), one word, so that a sender's ring of
 * them takes half the cache lines a struct of the two would.
 */
typedef uint64_t sim_credit;

#define SIM_CREDIT_VL_BITS 4
_Static_assert(VLR_MAX_DATA_VLS < 1 << SIM_CREDIT_VL_BITS, "a VL fits below a credit's cycle");

static inline sim_credit sim_credit_make(uint64_t time, unsigned vl)
{
	return time << SIM_CREDIT_VL_BITS | vl;
}

/* The cycle credit reaches its sender. */
static inline uint64_t sim_credit_time(sim_credit credit)
{
	return credit >> SIM_CREDIT_VL_BITS;
}

/* The VL credit is for. */
static inline unsigned sim_credit_vl(sim_credit credit)
{
	return (unsigned)(credit & ((1u << SIM_CREDIT_VL_BITS) - 1));
}

struct sim_stats {
	uint64_t *latency_hist;		/* [latency], grows */
	uint64_t latency_cap;
	uint64_t latency_sum;
	uint64_t hops_sum;
	uint64_t measured;
	uint64_t nonminimal;		/* measured, route class Valiant */
	uint64_t nonminimal_latency_sum;
	uint64_t *bin_phits;		/* [bin] */
	uint32_t num_bins;
	uint64_t window_phits;		/* delivered inside the measured window */
	uint64_t *switch_injected;	/* [switch], while measuring */
};

struct sim_state {
	const struct vlr_sim *sim;
	const struct vlr_sim_config *config;
	const struct vlr_traffic *traffic;
	uint64_t now;
	uint64_t end;			/* warmup + cycles */
	unsigned vls;
	int generating;

	struct sim_packet *packets;	/* the pool, aligned to cache lines */
	struct sim_packet_life *lives;	/* [packet] */
	uint32_t num_packets;
	uint32_t free_packet;
	uint64_t next_serial;

	/* per (port, VL) */
	struct sim_input *in;
	uint32_t *in_slots;		/* input_slots per (port, VL) */
	uint16_t *credits;		/* [sender, VL] (sim_sender): credits a
					   link holds for its far end's input */
	struct sim_output *out;
	uint32_t *out_slots;		/* output_packets per (port, VL), if more
					   than SIM_OUTPUT_INLINE; else NULL */

	/* per port */
	struct sim_port *ports;
	sim_credit *credit_slots;	/* vls * input_slots per sender */
	struct sim_wheel links;		/* [port]: first cycle the link may act
					   (its packet on the wire arrives, or
					   one may go); none: neither (the
					   cycles in sim_port.link_wake) */
	uint32_t *busy_packets;		/* [switch]: packets in its buffers */

	/* per server */
	struct vlr_rng *rng;
	uint64_t *next_generation;
	uint64_t *sequence;
	uint64_t *trace_next;		/* next trace message */
	uint32_t *trace_left;		/* packets of it still to queue */
	struct sim_ring *queue;		/* [server * queues + q] */
	uint32_t *queue_slots;
	uint64_t *server_link_free;
	uint64_t *inject_wake;		/* first cycle its injection may act:
					   its link frees, a credit comes back,
					   or a packet is queued */
	struct sim_wheel servers_wake;	/* first cycle it generates or its
					   injection may act, or earlier
					   (all servers one group; not with
					   a trace) */
	uint32_t *server_queued;	/* packets in its injection queues */
	uint32_t *queue_rr;
	double generation_p;		/* packets per server per cycle */
	double log_miss;		/* log(1 - generation_p) */

	uint64_t in_fabric;		/* packets between injection and delivery */
	uint64_t queued;		/* packets in injection queues */
	uint64_t last_move;		/* last cycle a phit moved */
	uint64_t trace_pending;		/* trace packets not yet queued */
	struct sim_stats stats;
	struct vlr_sim_result *result;
	struct vlr_error *err;
	int failed;
	uint64_t *progress;		/* shared cycle counter, or NULL */

	struct sim_dlid_rule *dlid;	/* dlid_rule_internal.h */
	int reroutes;			/* heads from servers blocked at their
					   source switch get another route
					   (route_internal.h) */
	struct sim_allocator *allocator;	/* allocator_internal.h */
	struct sim_crt *crt;		/* UGAL-L_CR's credit round trips
					   (sim_crt.h), else NULL */
	struct sim_pb *pb;		/* Piggyback's saturation marks
					   (piggyback_internal.h), else NULL */
};

/* sim_state.c */
int sim_state_init(struct sim_state *state, const struct vlr_sim *sim, double load,
		   uint64_t seed, struct vlr_error *err);
void sim_state_free(struct sim_state *state);
uint32_t sim_packet_new(struct sim_state *state);
void sim_packet_free(struct sim_state *state, uint32_t packet);
/* The cycle of a server's next Bernoulli generation after now. */
uint64_t sim_next_generation(struct sim_state *state, uint32_t server);

/* Whether port is a Dragonfly global port with a link on it. */
static inline int sim_global_link(const struct vlr_sim *sim, uint32_t port)
{
	return sim->global[port] && sim->peer[port] != VLR_NONE;
}

/*
 * The input buffer per VL of port, by what feeds it: a server (injection),
 * a Dragonfly(+) global link, or another switch link (local, on every
 * fabric); the configured size of its kind, else input_packets. Both ends
 * of a link are of one kind, so this is also the size of the input port's
 * own link feeds, whose credits port holds (sim_sender).
 */
static inline unsigned sim_input_capacity(const struct vlr_sim *sim, uint32_t port)
{
	const struct vlr_sim_config *c = &sim->config;
	unsigned size = sim->peer_server[port] != VLR_NONE ? c->input_injection_packets :
			sim_global_link(sim, port) ? c->input_global_packets :
			c->input_local_packets;

	return size ? size : c->input_packets;
}

/* Position i of a ring of capacity slots, i below 2 x capacity. */
static inline uint32_t sim_wrap(uint32_t i, uint32_t capacity)
{
	return i < capacity ? i : i - capacity;
}

/* The next slot after position i of a ring of capacity slots (no division). */
static inline uint32_t sim_ring_next(uint32_t i, uint32_t capacity)
{
	return i + 1 < capacity ? i + 1 : 0;
}

/* The slot of the ring's tail: where the next value goes. */
static inline uint32_t sim_ring_tail(const struct sim_ring *ring, uint32_t capacity)
{
	return sim_wrap(ring->head + ring->count, capacity);
}

static inline uint32_t sim_ring_first(const struct sim_ring *ring, const uint32_t *slots)
{
	return slots[ring->head];
}

static inline void sim_ring_push(struct sim_ring *ring, uint32_t *slots,
				 uint32_t capacity, uint32_t value)
{
	slots[sim_ring_tail(ring, capacity)] = value;
	ring->count++;
}

static inline uint32_t sim_ring_pop(struct sim_ring *ring, const uint32_t *slots,
				    uint32_t capacity)
{
	uint32_t value = slots[ring->head];

	ring->head = sim_ring_next(ring->head, capacity);
	ring->count--;
	return value;
}

/* The output port of in's head, of the switch whose first port is first; VLR_NONE if none. */
static inline uint32_t sim_input_out(const struct sim_input *in, uint32_t first)
{
	return in->out == SIM_NO_PORT ? VLR_NONE : first + in->out;
}

/*
 * The slots output (port, vl) has taken: its ring's packets, and the one
 * its link sent last while the link has not acted since (sim_port.tx_vl),
 * so that the link alone frees that slot, touching only its port.
 */
static inline unsigned sim_output_used(const struct sim_state *st, uint32_t port, unsigned vl)
{
	return st->out[(uint64_t)port * st->vls + vl].count + (st->ports[port].tx_vl == vl);
}

/* The ring slots of output (port, VL) pv. */
static inline uint32_t *sim_output_slots(const struct sim_state *st, uint64_t pv)
{
	return st->out_slots ? st->out_slots + pv * st->config->output_packets : st->out[pv].slot;
}

/* The packet at the head of input (port, VL) pv. */
static inline uint32_t sim_input_first(const struct sim_state *st, uint64_t pv)
{
	return st->in_slots[pv * st->sim->input_slots + st->in[pv].head];
}

/* The VLs of mask that a run simulates (a VL selection's choices may name more). */
static inline unsigned sim_vls_of(const struct sim_state *st, unsigned mask)
{
	return mask & ((1u << st->vls) - 1);
}

/* The lowest set bit of a non-zero mask. */
static inline unsigned sim_lowest(unsigned mask)
{
	return (unsigned)__builtin_ctz(mask);
}

/* The first bit of a non-zero mask from bit `from` on, round robin. */
static inline unsigned sim_first_from(unsigned mask, unsigned from)
{
	unsigned high = mask >> from << from;

	return (unsigned)__builtin_ctz(high ? high : mask);
}

/*
 * The index of the credits for port's input (credits, credit_ring): the
 * port at the other end of its link, whose link sends into it, so that a
 * link finds its credits with its own port; for a server's port, the port
 * itself (its own link delivers to the server, without credits).
 */
static inline uint32_t sim_sender(const struct vlr_sim *sim, uint32_t port)
{
	return sim->peer[port] != VLR_NONE ? sim->peer[port] : port;
}

/* A hash of a packet serial number, summed to check delivery. */
static inline uint64_t sim_serial_check(uint64_t serial)
{
	return vlr_splitmix64(&serial);
}

/* sim_router.c: where a packet goes and on which VL */
/* Route the head of input (port, vl) once: its out, choices and ready. */
void sim_head_update(struct sim_state *state, uint32_t port, unsigned vl);
void sim_input_push(struct sim_state *state, uint32_t port, unsigned vl, uint32_t packet);
uint32_t sim_input_pop(struct sim_state *state, uint32_t port, unsigned vl);
int sim_pick_vl(struct sim_state *state, uint32_t out_port, uint16_t choices);
/* Put packet into output (port, vl) (the allocator grants it). */
void sim_output_push(struct sim_state *state, uint32_t port, unsigned vl, uint32_t packet);
/* The credits per VL the sender on out_port's link holds, as its link last
   looked for a packet to send up to cycle (switch links look after the
   servers inject, before the allocators run). */
const uint16_t *sim_link_credits(struct sim_state *state, uint32_t out_port, uint64_t cycle);
/* Take in the credits of sender (sim_sender) that are due now. */
void sim_credits_settle(struct sim_state *state, uint32_t sender);
/*
 * Packets queued at port on the VLs of mask, as its switch knows them now:
 * in its output buffer (not the packet whose tail has left the wire) and
 * sent into the next switch's input buffer without their credits back
 * (those due by now taken in). A link settles its buffer and credits only
 * when it acts, so its own view of an idle link would still hold the
 * packet it last sent and miss the credits that came back since.
 */
uint64_t sim_port_queued(struct sim_state *state, uint32_t port, uint16_t mask);
/* The cycle the credit at the head of sender's credit ring comes back,
   UINT64_MAX if none is on its way. */
uint64_t sim_credit_due(const struct sim_state *state, uint32_t sender);
/* A credit for the input (port, vl), back with its sender at time. */
void sim_return_credit(struct sim_state *state, uint32_t port, unsigned vl,
		       uint64_t time);
void sim_links(struct sim_state *state, uint32_t sw);
/* Tell config->hop (if set) that packet's head leaves from_switch
   (VLR_NONE: its server) by port number port on vl. */
void sim_tell_hop(const struct sim_state *state, uint32_t packet, uint32_t from_switch,
		  unsigned port, unsigned vl);

/* sim_injection.c: every server generates, then injects if it may. */
void sim_servers(struct sim_state *state);
/* The servers' first cycles in servers_wake, after their set-up. */
void sim_servers_wake_init(struct sim_state *state);

/* sim_stats.c */
int sim_stats_init(struct sim_stats *stats, const struct sim_state *state);
void sim_stats_free(struct sim_stats *stats);
int sim_stats_delivered(struct sim_state *state, uint32_t packet, uint64_t tail);
int sim_stats_finish(struct sim_state *state, struct vlr_sim_result *result);

/* sim_deadlock.c */
void sim_deadlock_report(const struct sim_state *state, char *buf, size_t size);

#endif
