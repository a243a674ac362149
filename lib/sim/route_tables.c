/*
 * route_tables.c - routing strictly by the tables: a packet's DLID among
 * its destination's LMC LIDs is chosen when it heads its injection queue
 * (so that an adaptive rule sees the switch as it is when the packet
 * leaves) by the run's DLID rule (dlid_rule_internal.h), and every switch
 * forwards it by its LFT. Its SL comes from the source's path SL table
 * when the VL selection reads SLs (exact VLs), else it is 0; the VL
 * selection follows its phase along the Valiant trunks.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "dlid_rule_internal.h"
#include "route_internal.h"
#include "vl_select_internal.h"

struct by_tables {
	struct sim_route base;
	const struct vlr_sim *sim;
};

/*
 * Set the packet's DLID and what follows from it: SL (if the VL selection
 * reads it; else 0), route class, phase.
 */
static void set_dlid(const struct vlr_sim *sim, uint32_t sw, struct sim_packet *p,
		     uint16_t dlid)
{
	p->dlid = dlid;
	p->sl = sim->vl->reads_sl ?
		vlr_tables_path_sl(sim->tables, sim->servers.port[p->source], dlid) : 0;
	p->phase_two = 0;
	p->route_class = VLR_ROUTE_MINIMAL;
	if (sim->vl->dlid_set)
		sim->vl->dlid_set(sim->vl, sw, p);
}

uint16_t sim_tables_first_vls(const struct sim_state *st, const struct sim_dlid_query *q,
			      uint16_t dlid, uint32_t out_port)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t sw = sim->servers.switch_index[q->server];
	struct sim_packet probe = { 0 };

	probe.source = q->server;
	probe.destination = q->destination;
	probe.via = VLR_NONE;
	set_dlid(sim, sw, &probe, dlid);
	return sim->vl->choices(sim->vl, sw, sim->server_port[q->server], out_port, &probe);
}

/* What the DLID rule is asked about p; 0 if its destination has one LID. */
static int query(const struct vlr_sim *sim, const struct sim_packet *p,
		 struct sim_dlid_query *q)
{
	q->server = p->source;
	q->destination = p->destination;
	q->base = sim->server_lid[p->destination];
	q->lids = 1u << sim->server_lids[p->destination];
	return q->lids > 1;
}

static void depart(const struct sim_route *self, struct sim_state *st, struct sim_packet *p)
{
	const struct vlr_sim *sim = ((const struct by_tables *)self)->sim;
	struct sim_dlid_query q;
	int offset = query(sim, p, &q) ? st->dlid->offset(st->dlid, st, &q) : 0;

	set_dlid(sim, sim->servers.switch_index[p->source], p,
		 (uint16_t)(q.base + (unsigned)(offset < 0 ? 0 : offset)));
}

/* The DLID rules that reroute are those with a reroute hook (recompute). */
static int reroutes(const struct sim_route *self, const struct sim_state *st)
{
	(void)self;
	return st->dlid->reroute != NULL;
}

/* The DLID rule's new DLID for p, blocked at its source switch sw. */
static void reroute(const struct sim_route *self, struct sim_state *st, uint32_t sw,
		    struct sim_packet *p)
{
	struct sim_dlid_query q;
	int offset;

	(void)self;
	if (!query(st->sim, p, &q))
		return;
	offset = st->dlid->reroute(st->dlid, st, &q);
	if (offset >= 0)
		set_dlid(st->sim, sw, p, (uint16_t)(q.base + (unsigned)offset));
}

static unsigned port(const struct sim_route *self, struct sim_state *st, uint32_t sw,
		     uint32_t in_port, const struct sim_packet *p)
{
	const struct vlr_sim *sim = ((const struct by_tables *)self)->sim;

	(void)st;
	(void)in_port;
	return vlr_tables_lft(sim->tables, sw)[p->dlid];
}

static void enter_switch(const struct sim_route *self, uint32_t sw, struct sim_packet *p)
{
	const struct vlr_sim *sim = ((const struct by_tables *)self)->sim;

	if (sim->vl->enter_switch)
		sim->vl->enter_switch(sim->vl, sw, p);
}

static void release(struct sim_route *self)
{
	free(self);
}

struct sim_route *sim_route_tables_new(const struct vlr_sim *sim, struct vlr_error *err)
{
	struct by_tables *t = calloc(1, sizeof(*t));

	if (!t) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	t->base.depart = depart;
	t->base.port = port;
	t->base.enter_switch = enter_switch;
	t->base.reroutes = reroutes;
	t->base.reroute = reroute;
	t->base.free = release;
	t->sim = sim;
	return &t->base;
}
