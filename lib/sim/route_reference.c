/*
 * route_reference.c - the reference model of the Valiant studies' routing,
 * per packet and without tables. When a packet heads its injection queue
 * it draws its intermediate switch uniformly among all eligible ones (any
 * switch of a HyperX or Dragonfly, any leaf of a Dragonfly+), its own and
 * its destination's switch included; it then goes minimally to the
 * intermediate by the phase-one next hops and on to its destination by
 * the phase-two ones. A packet whose intermediate is its source or its
 * destination switch goes minimally, by the next hops of the phase whose
 * VLs the VL policy gives it (the first for MinFirst, the second for
 * MinLast, by the intermediate for MinBoth; the second under a Ladder, as
 * CAMINOS's Valiant does). Minimal routing (no intermediate) is the same
 * with every packet's intermediate its destination's switch. With minimal
 * SHORTEST a phase takes any shortest path instead: at each switch the
 * packet, once it heads its input buffer, takes the port towards its target
 * whose best allowed VL has the shortest queue (then the most credits at
 * the far end; ties at random), as CAMINOS's Shortest routing offers every
 * minimal port to its allocator.
 *
 * Restricted Valiant (RVAL) draws the intermediate of a packet whose
 * source and destination switches share a partition in that partition:
 * the eligible switches of their group (Dragonfly: its routers,
 * Dragonfly+: its leaves), or on a HyperX the switches that keep every
 * coordinate the two share (the sub-grid of the dimensions in which they
 * differ); any other packet draws as under Valiant, from the same random
 * numbers. With recomputation, a packet blocked at its source switch
 * (route_internal.h: reroute) draws again by the same rule and is routed
 * as if it had drawn that intermediate first; its injection VL stays.
 *
 * With group intermediates (the Dragonfly paper's Valiant) the packet
 * draws a group instead: its source's or destination's group routes it
 * minimally, any other makes its intermediate the switch of that group
 * that a global link from the source group reaches (landing, by group
 * pair), so that phase one ends where its global link lands. With CRG
 * intermediates (the ADVc study's Current-router Global policy) it draws
 * one of its source switch's global links and a switch of the group that
 * link reaches. The UGAL
 * routings draw so (or by switch) and then keep the draw or route
 * minimally by the rule of ugal.c, from the queues they sense at the
 * source switch as it knows them in that cycle (port_queue). Piggyback
 * does the same by the rule of piggyback.c, which also reads whether the
 * global link the minimal path leaves the source group by is saturated,
 * as the source switch last heard from its group (sim_piggyback.c).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "piggyback_internal.h"
#include "route_internal.h"
#include "vl_select_internal.h"

struct reference {
	struct sim_route base;
	const struct vlr_sim *sim;
	struct vlr_sim_reference model;
	uint32_t n;			/* switches */
	uint32_t *eligible;		/* the switches a packet may go through */
	uint32_t num_eligible;
	uint32_t *group_first;		/* RVAL: [group], num_groups + 1: the
					   group's eligible switches are */
	uint32_t *in_group;		/* in_group[group_first[g] ..] */
	uint32_t *landing_first;	/* group intermediates: [from * groups +
					   to], groups^2 + 1: the switches of
					   group to with a global link from
					   group from are */
	uint32_t *landing;		/* landing[landing_first[pair] ..] */
};

/* The phase whose next hops (and VLs) a packet without a second phase takes. */
static int minimal_phase(const struct reference *r, enum vlr_route_class route_class)
{
	if (r->model.policy.kind != VLR_VLP_TWO_PHASES)
		return 1;
	return (int)vlr_policy_phase(&r->model.policy, route_class, 0);
}

/*
 * RVAL on a HyperX: a switch that keeps the coordinates source and
 * destination share and draws the others; VLR_NONE if they share none
 * (then the packet draws as under Valiant).
 */
static uint32_t grid_via(const struct reference *r, struct vlr_rng *rng, uint32_t source,
			 uint32_t destination)
{
	const struct vlr_topology *t = &r->sim->topology;
	const uint16_t *a = t->coord + (uint64_t)source * t->params.u.grid.dims;
	const uint16_t *b = t->coord + (uint64_t)destination * t->params.u.grid.dims;
	uint64_t index = 0, stride = 1;
	unsigned d, shared = 0;

	for (d = 0; d < t->params.u.grid.dims; d++)
		shared += a[d] == b[d];
	if (!shared)
		return VLR_NONE;
	for (d = 0; d < t->params.u.grid.dims; d++) {
		unsigned side = t->params.u.grid.sides[d];

		index += stride * (a[d] == b[d] ? a[d] : vlr_rng_below(rng, side));
		stride *= side;
	}
	return t->switch_order[index];
}

/* RVAL: an eligible switch of the partition source and destination share, or VLR_NONE. */
static uint32_t restricted_via(const struct reference *r, struct vlr_rng *rng,
			       uint32_t source, uint32_t destination)
{
	const struct vlr_topology *t = &r->sim->topology;
	uint32_t g = t->group[source], first;

	if (t->coord)
		return grid_via(r, rng, source, destination);
	if (g != t->group[destination])
		return VLR_NONE;
	first = r->group_first[g];
	return r->in_group[first + vlr_rng_below(rng, r->group_first[g + 1] - first)];
}

/*
 * The paper's Valiant on a Dragonfly: a random group; the source's or the
 * destination's group gives the minimal route (its switch as the
 * intermediate), any other the switch its global link from the source
 * group reaches - among several, those nearest the source switch, ties at
 * random.
 */
static uint32_t group_via(const struct reference *r, struct vlr_rng *rng, uint32_t source,
			  uint32_t destination)
{
	const struct vlr_topology *t = &r->sim->topology;
	const uint8_t *hops;
	uint32_t g = vlr_rng_below(rng, t->num_groups), pair, i, best = VLR_NONE, ties = 0;
	uint32_t nearest = 0, first, last;

	if (g == t->group[source])
		return source;
	if (g == t->group[destination])
		return destination;
	pair = t->group[source] * t->num_groups + g;
	first = r->landing_first[pair];
	last = r->landing_first[pair + 1];
	for (i = first; i < last; i++) {
		hops = r->model.routes[0]->hops + (uint64_t)r->landing[i] * r->n;
		if (best != VLR_NONE && hops[source] > nearest)
			continue;
		if (best == VLR_NONE || hops[source] < nearest)
			ties = 0;
		nearest = hops[source];
		ties++;
		if (ties == 1 || vlr_rng_below(rng, ties) == 0)
			best = r->landing[i];
	}
	return best;
}

/*
 * CRG (the ADVc study's Current-router Global policy): a switch of a group
 * that one of source's own global links reaches, the link drawn among
 * them, then the switch among the group's; any switch if source has none.
 */
static uint32_t crg_via(const struct reference *r, struct vlr_rng *rng, uint32_t source)
{
	const struct vlr_sim *sim = r->sim;
	uint32_t port, links = 0, pick, g, first;

	for (port = sim->first_port[source]; port < sim->first_port[source + 1]; port++)
		links += sim_global_link(sim, port);
	if (!links)
		return r->eligible[vlr_rng_below(rng, r->num_eligible)];
	pick = vlr_rng_below(rng, links);
	for (port = sim->first_port[source]; ; port++)
		if (sim_global_link(sim, port) && !pick--)
			break;
	g = sim->topology.group[sim->port_switch[sim->peer[port]]];
	first = r->group_first[g];
	return r->in_group[first + vlr_rng_below(rng, r->group_first[g + 1] - first)];
}

/* p's intermediate, drawn by the model's routing (minimal: its destination switch). */
static uint32_t draw_via(const struct reference *r, struct sim_state *st,
			 const struct sim_packet *p)
{
	const struct vlr_sim *sim = r->sim;
	uint32_t source = sim->servers.switch_index[p->source];
	uint32_t destination = sim->servers.switch_index[p->destination];
	struct vlr_rng *rng = &st->rng[p->source];
	uint32_t via = VLR_NONE;

	if (r->model.routing == VLR_SIM_ROUTING_MINIMAL)
		return destination;
	if (r->model.intermediate == VLR_SIM_INTERMEDIATE_GROUP &&
	    r->model.routing != VLR_SIM_ROUTING_RVAL)
		return group_via(r, rng, source, destination);
	if (r->model.intermediate == VLR_SIM_INTERMEDIATE_CRG)
		return crg_via(r, rng, source);
	if (r->model.routing == VLR_SIM_ROUTING_RVAL)
		via = restricted_via(r, rng, source, destination);
	return via != VLR_NONE ? via : r->eligible[vlr_rng_below(rng, r->num_eligible)];
}

/* Route p, at its source switch, by way of via. */
static void set_via(const struct reference *r, struct sim_packet *p, uint32_t via)
{
	const struct vlr_sim *sim = r->sim;
	uint32_t source = sim->servers.switch_index[p->source];
	uint32_t destination = sim->servers.switch_index[p->destination];

	p->dlid = sim->server_lid[p->destination];
	p->sl = 0;
	p->via = via;
	if (via != source && via != destination) {
		p->route_class = VLR_ROUTE_VALIANT;
		p->phase_two = 0;
		return;
	}
	/* the intermediate at the source: as if the packet had reached it */
	p->route_class = via == source && via != destination ? VLR_ROUTE_ON_TRUNK :
			 VLR_ROUTE_MINIMAL;
	p->phase_two = (uint8_t)minimal_phase(r, (enum vlr_route_class)p->route_class);
}

/* The port by which switch sw forwards towards target in phase (0 or 1). */
static uint32_t next_port(const struct reference *r, uint32_t sw, uint32_t target, int phase)
{
	unsigned number = r->model.routes[phase]->port[(uint64_t)target * r->n + sw];

	return number ? r->sim->first_port[sw] + number - 1 : VLR_NONE;
}

/* The first global link from sw to target in phase, VLR_NONE if none. */
static uint32_t leg_global(const struct reference *r, uint32_t sw, uint32_t target, int phase)
{
	const struct vlr_sim *sim = r->sim;
	uint32_t port;

	while (sw != target && (port = next_port(r, sw, target, phase)) != VLR_NONE &&
	       sim->peer[port] != VLR_NONE) {
		if (sim->global[port])
			return port;
		sw = sim->port_switch[sim->peer[port]];
	}
	return VLR_NONE;
}

/* One side of a UGAL comparison: a packet routed by way of via. */
struct ugal_side {
	uint32_t port;			/* the source switch's output */
	unsigned hops;
	uint16_t vls;			/* the VLs its first hop may take */
	uint32_t global;		/* UGAL-G: the global channel it leaves
					   the source group by, else port */
	uint32_t exit;			/* the global link it leaves the source
					   group by, VLR_NONE if it leaves none */
};

static void ugal_side(const struct reference *r, const struct sim_packet *p, uint32_t via,
		      struct ugal_side *side)
{
	const struct vlr_sim *sim = r->sim;
	uint32_t source = sim->servers.switch_index[p->source];
	uint32_t destination = sim->servers.switch_index[p->destination];
	struct sim_packet probe = *p;
	uint32_t global;
	int phase;

	set_via(r, &probe, via);
	phase = probe.route_class == VLR_ROUTE_VALIANT ? 0 : probe.phase_two;
	side->port = next_port(r, source, via == source ? destination : via, phase);
	side->hops = probe.route_class == VLR_ROUTE_VALIANT ?
		     r->model.routes[0]->hops[(uint64_t)via * r->n + source] +
		     r->model.routes[1]->hops[(uint64_t)destination * r->n + via] :
		     r->model.routes[phase]->hops[(uint64_t)destination * r->n + source];
	side->vls = sim->vl->choices(sim->vl, source, sim->server_port[p->source], side->port,
				     &probe);
	global = probe.route_class == VLR_ROUTE_VALIANT ? leg_global(r, source, via, 0) :
		 leg_global(r, source, destination, phase);
	side->exit = global;
	if (global == VLR_NONE && probe.route_class == VLR_ROUTE_VALIANT &&
	    sim->topology.group[via] == sim->topology.group[source])
		global = leg_global(r, via, destination, 1);
	side->global = global != VLR_NONE ? global : side->port;
}

/* UGAL at the source switch: 1 if p goes by way of via rather than minimally. */
static int ugal_takes_valiant(const struct reference *r, struct sim_state *st,
			      const struct sim_packet *p, uint32_t via)
{
	uint32_t source = r->sim->servers.switch_index[p->source];
	uint32_t destination = r->sim->servers.switch_index[p->destination];
	struct vlr_sim_ugal_view v;
	struct ugal_side m, nm;
	uint16_t all = (uint16_t)((1u << st->vls) - 1);
	int global = r->model.routing == VLR_SIM_ROUTING_UGAL_G;

	ugal_side(r, p, destination, &m);
	ugal_side(r, p, via, &nm);
	v.hops_min = m.hops;
	v.hops_nonmin = nm.hops;
	v.port_min = m.port;
	v.port_nonmin = nm.port;
	v.queue_min = sim_port_queued(st, global ? m.global : m.port, all);
	v.queue_nonmin = sim_port_queued(st, global ? nm.global : nm.port, all);
	v.vl_queue_min = sim_port_queued(st, m.port, m.vls);
	v.vl_queue_nonmin = sim_port_queued(st, nm.port, nm.vls);
	if (r->model.routing == VLR_SIM_ROUTING_PIGGYBACK)
		return !vlr_sim_piggyback_minimal(&r->model.piggyback, &v,
						  m.exit != VLR_NONE &&
						  sim_pb_saturated(st, source, m.exit));
	return !vlr_sim_ugal_minimal(r->model.routing, &v);
}

static void depart(const struct sim_route *self, struct sim_state *st, struct sim_packet *p)
{
	const struct reference *r = (const struct reference *)self;
	const struct vlr_sim *sim = r->sim;
	uint32_t via = draw_via(r, st, p);
	uint32_t source = sim->servers.switch_index[p->source];
	uint32_t destination = sim->servers.switch_index[p->destination];

	/* a packet to its own switch has no shorter path than none */
	if (vlr_sim_routing_is_ugal(r->model.routing) && via != source &&
	    via != destination && (source == destination ||
				   !ugal_takes_valiant(r, st, p, via)))
		via = destination;
	set_via(r, p, via);
}

static int reroutes(const struct sim_route *self, const struct sim_state *st)
{
	(void)st;
	return ((const struct reference *)self)->model.recompute;
}

/* Recomputation: p, blocked at its source switch, draws its intermediate anew. */
static void reroute(const struct sim_route *self, struct sim_state *st, uint32_t sw,
		    struct sim_packet *p)
{
	(void)sw;
	depart(self, st, p);
}

/* How full port's best allowed VL for p is: its queue, less the credits. */
struct queue {
	unsigned used;			/* packets in the output buffer; more than
					   it holds: no VL has room */
	unsigned credits;		/* of the next input buffer */
};

static struct queue queue_of(const struct reference *r, struct sim_state *st,
			     uint32_t sw, uint32_t in_port, uint32_t port,
			     const struct sim_packet *p)
{
	const struct vlr_sim *sim = r->sim;
	uint16_t choices = sim->vl->choices(sim->vl, sw, in_port, port, p);
	int vl = sim_pick_vl(st, port, choices);
	struct queue q = { st->config->output_packets + 1, 0 };

	if (vl >= 0) {
		q.used = sim_output_used(st, port, (unsigned)vl);
		q.credits = sim_link_credits(st, port, st->now)[vl];
	}
	return q;
}

/* Minimal SHORTEST: the least-queued port of sw that brings p nearer target. */
static unsigned shortest_port(const struct reference *r, struct sim_state *st, uint32_t sw,
			      uint32_t in_port, const struct sim_packet *p, uint32_t target)
{
	const struct vlr_sim *sim = r->sim;
	const uint8_t *hops = r->model.routes[0]->hops + (uint64_t)target * r->n;
	uint32_t port, best = VLR_NONE;
	struct queue best_q = { 0, 0 }, q;
	unsigned ties = 0;

	for (port = sim->first_port[sw]; port < sim->first_port[sw + 1]; port++) {
		uint32_t peer = sim->peer[port];

		if (peer == VLR_NONE || hops[sim->port_switch[peer]] + 1 != hops[sw])
			continue;
		q = queue_of(r, st, sw, in_port, port, p);
		if (best != VLR_NONE && (q.used > best_q.used ||
					 (q.used == best_q.used && q.credits < best_q.credits)))
			continue;
		if (best == VLR_NONE || q.used < best_q.used || q.credits > best_q.credits)
			ties = 0;
		if (vlr_rng_below(&st->rng[p->source], ++ties) == 0) {
			best = port;
			best_q = q;
		}
	}
	return best == VLR_NONE ? 0 : best - sim->first_port[sw] + 1;
}

static unsigned port(const struct sim_route *self, struct sim_state *st, uint32_t sw,
		     uint32_t in_port, const struct sim_packet *p)
{
	const struct reference *r = (const struct reference *)self;
	const struct vlr_sim *sim = r->sim;
	uint32_t destination = sim->servers.switch_index[p->destination], target;

	if (sw == destination)
		return sim->server_port[p->destination] - sim->first_port[sw] + 1;
	target = p->route_class == VLR_ROUTE_VALIANT && !p->phase_two ? p->via : destination;
	if (r->model.minimal == VLR_SIM_MINIMAL_SHORTEST)
		return shortest_port(r, st, sw, in_port, p, target);
	return r->model.routes[p->phase_two]->port[(uint64_t)target * r->n + sw];
}

/* Reaching its intermediate, a packet starts phase two. */
static void enter_switch(const struct sim_route *self, uint32_t sw, struct sim_packet *p)
{
	(void)self;
	if (p->route_class == VLR_ROUTE_VALIANT && !p->phase_two && sw == p->via) {
		p->phase_two = 1;
		p->phase_hops = 0;
		p->escalation = 0;
	}
}

static void release(struct sim_route *self)
{
	struct reference *r = (struct reference *)self;

	free(r->eligible);
	free(r->group_first);
	free(r->in_group);
	free(r->landing_first);
	free(r->landing);
	free(r);
}

static int check_model(const struct vlr_sim *sim, struct vlr_error *err)
{
	const struct vlr_sim_reference *m = &sim->config.reference;
	struct vlr_topology topology;
	unsigned k;

	if (!sim->has_topology) {
		if (vlr_topology_recognise(sim->tables->fabric, VLR_FAMILY_NONE, &topology, err))
			return -1;
		vlr_topology_free(&topology);
		return vlr_fail(err, "the reference model needs a recognised topology");
	}
	for (k = 0; k < 2; k++)
		if (!m->routes[k] || m->routes[k]->num_switches != sim->num_switches)
			return vlr_fail(err, "the reference model needs the next hops of "
					"phase %u between the fabric's %u switches", k + 1,
					sim->num_switches);
	return 0;
}

static int list_eligible(struct reference *r, struct vlr_error *err)
{
	const struct vlr_topology *t = &r->sim->topology;
	int leaves_only = t->params.family == VLR_FAMILY_DRAGONFLYPLUS;
	uint32_t sw;

	r->eligible = malloc((size_t)r->n * sizeof(*r->eligible));
	if (!r->eligible)
		return vlr_fail(err, "out of memory for %u switches", r->n);
	for (sw = 0; sw < r->n; sw++)
		if (!leaves_only || t->role[sw] == VLR_ROLE_LEAF)
			r->eligible[r->num_eligible++] = sw;
	return 0;
}

/* RVAL on the Dragonflies: the eligible switches of each group, by switch index. */
static int list_groups(struct reference *r, struct vlr_error *err)
{
	const struct vlr_topology *t = &r->sim->topology;
	uint32_t i, g, *next;

	r->group_first = calloc((size_t)t->num_groups + 1, sizeof(*r->group_first));
	r->in_group = malloc((size_t)r->num_eligible * sizeof(*r->in_group));
	next = calloc((size_t)t->num_groups + 1, sizeof(*next));
	if (!r->group_first || !r->in_group || !next) {
		free(next);
		return vlr_fail(err, "out of memory for %u groups", t->num_groups);
	}
	for (i = 0; i < r->num_eligible; i++)
		r->group_first[t->group[r->eligible[i]] + 1]++;
	for (g = 0; g < t->num_groups; g++)
		r->group_first[g + 1] += r->group_first[g];
	memcpy(next, r->group_first, (size_t)t->num_groups * sizeof(*next));
	for (i = 0; i < r->num_eligible; i++)
		r->in_group[next[t->group[r->eligible[i]]]++] = r->eligible[i];
	free(next);
	return 0;
}

/* Group intermediates: the switches each global link reaches, by group pair. */
static int list_landings(struct reference *r, struct vlr_error *err)
{
	const struct vlr_sim *sim = r->sim;
	const struct vlr_topology *t = &sim->topology;
	uint64_t pairs = (uint64_t)t->num_groups * t->num_groups;
	uint32_t port, *next, from, to;

	r->landing_first = calloc(pairs + 1, sizeof(*r->landing_first));
	r->landing = malloc(((size_t)sim->num_ports + 1) * sizeof(*r->landing));
	next = calloc(pairs + 1, sizeof(*next));
	if (!r->landing_first || !r->landing || !next) {
		free(next);
		return vlr_fail(err, "out of memory for %u groups", t->num_groups);
	}
	for (port = 0; port < sim->num_ports; port++)
		if (sim_global_link(sim, port))
			r->landing_first[t->group[sim->port_switch[port]] * t->num_groups +
					 t->group[sim->port_switch[sim->peer[port]]] + 1]++;
	for (from = 0; from < pairs; from++)
		r->landing_first[from + 1] += r->landing_first[from];
	memcpy(next, r->landing_first, pairs * sizeof(*next));
	for (port = 0; port < sim->num_ports; port++) {
		if (!sim_global_link(sim, port))
			continue;
		from = t->group[sim->port_switch[port]];
		to = t->group[sim->port_switch[sim->peer[port]]];
		r->landing[next[from * t->num_groups + to]++] = sim->port_switch[sim->peer[port]];
	}
	free(next);
	return 0;
}

/* Piggyback shares the saturation of a Dragonfly group's global links. */
static int check_piggyback(const struct reference *r, struct vlr_error *err)
{
	enum vlr_family family = r->sim->topology.params.family;

	if (r->model.routing == VLR_SIM_ROUTING_PIGGYBACK && family != VLR_FAMILY_DRAGONFLY)
		return vlr_fail(err, "piggyback shares the saturation of a Dragonfly group's "
				"global links: it needs a Dragonfly, not a %s",
				vlr_topology_family_name(family));
	return 0;
}

/* Group intermediates need a Dragonfly whose groups all reach each other. */
static int check_groups(const struct reference *r, struct vlr_error *err)
{
	const struct vlr_topology *t = &r->sim->topology;
	uint32_t from, to;

	if (t->params.family != VLR_FAMILY_DRAGONFLY)
		return vlr_fail(err, "%s intermediates are for a Dragonfly, not a %s",
				vlr_sim_intermediate_name(r->model.intermediate),
				vlr_topology_family_name(t->params.family));
	for (from = 0; from < t->num_groups; from++)
		for (to = 0; to < t->num_groups; to++)
			if (from != to && r->landing_first[from * t->num_groups + to] ==
					  r->landing_first[from * t->num_groups + to + 1])
				return vlr_fail(err, "group intermediates need a global link "
						"between every two groups; groups %u and %u "
						"have none", from, to);
	return 0;
}

struct sim_route *sim_route_reference_new(const struct vlr_sim *sim, struct vlr_error *err)
{
	struct reference *r;

	if (check_model(sim, err))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	r->base.depart = depart;
	r->base.port = port;
	r->base.enter_switch = enter_switch;
	if (sim->config.reference.recompute) {
		r->base.reroutes = reroutes;
		r->base.reroute = reroute;
	}
	r->base.free = release;
	r->sim = sim;
	r->model = sim->config.reference;
	r->n = sim->num_switches;
	if (check_piggyback(r, err) || list_eligible(r, err) ||
	    ((r->model.routing == VLR_SIM_ROUTING_RVAL ||
	      r->model.intermediate == VLR_SIM_INTERMEDIATE_CRG) &&
	     !sim->topology.coord && list_groups(r, err)) ||
	    (r->model.intermediate != VLR_SIM_INTERMEDIATE_SWITCH &&
	     (list_landings(r, err) || check_groups(r, err)))) {
		release(&r->base);
		return NULL;
	}
	return &r->base;
}
