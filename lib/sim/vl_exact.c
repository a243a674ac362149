/*
 * vl_exact.c - IB-exact VLs: a packet keeps the SL its source's path SL
 * table gives its DLID, and every hop maps it to a VL by the switch's
 * SL2VL table for (in port, out port), the injection link by the source
 * port's SL -> VL table, as IB switches do. The VLs simulated: --vls, or
 * the tables'. Tables marked unprogrammable have no SLs: refused.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "vl_select_internal.h"

struct exact {
	struct sim_vl_select base;
	const struct vlr_sim *sim;
};

static uint32_t port_number(const struct vlr_sim *sim, uint32_t port)
{
	return port - sim->first_port[sim->port_switch[port]] + 1;
}

static uint16_t choices(const struct sim_vl_select *self, uint32_t sw, uint32_t in_port,
			uint32_t out_port, const struct sim_packet *p)
{
	const struct vlr_sim *sim = ((const struct exact *)self)->sim;
	unsigned vl = vlr_tables_sl2vl(sim->tables, sw, port_number(sim, in_port),
				       port_number(sim, out_port))[p->sl];

	return vl < sim->vls ? (uint16_t)(1u << vl) : 0;
}

static int injection_vl(const struct sim_vl_select *self, struct sim_state *st,
			uint32_t server, const struct sim_packet *p)
{
	const struct vlr_sim *sim = ((const struct exact *)self)->sim;
	const uint16_t *credits = st->credits + (uint64_t)sim->server_port[server] * st->vls;
	int vl = vlr_tables_port_sl2vl(sim->tables, sim->servers.port[server])[p->sl];

	if ((unsigned)vl >= st->vls) {
		st->failed = 1;
		vlr_fail(st->err, "server %u: SL %u maps to VL %d on its injection "
			 "link, beyond the %u VLs simulated", server, p->sl, vl, st->vls);
		return -1;
	}
	return credits[vl] ? vl : -1;
}

static void release(struct sim_vl_select *self)
{
	free(self);
}

static struct sim_vl_select *create(const struct vlr_sim *sim, unsigned *vls,
				    struct vlr_error *err)
{
	struct exact *e;
	char why[128];

	if (sim->tables->unprogrammable.marked) {
		vlr_unprogrammable_describe(&sim->tables->unprogrammable, why, sizeof(why));
		vlr_fail(err, "exact VLs need the path SLs and SL2VL tables of programmable "
			 "tables, and these are %s; only ideal VLs can run them", why);
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	e->base.choices = choices;
	e->base.injection_vl = injection_vl;
	e->base.free = release;
	e->base.reads_sl = 1;
	e->sim = sim;
	*vls = sim->config.vls ? sim->config.vls : sim->tables->num_vls;
	return &e->base;
}

const struct sim_vl_type sim_vl_exact = { "exact", create };
