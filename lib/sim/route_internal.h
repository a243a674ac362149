/*
 * route_internal.h - who routes a packet: the tables (route_tables.c: its
 * DLID chosen at the source by the run's DLID rule, then the LFT of every
 * switch) or the reference model of the studies' routing
 * (route_reference.c: an intermediate switch drawn per packet, then the
 * minimal next hops of each phase). Either may give a packet blocked at
 * its source switch another route (reroutes, reroute). Chosen by
 * vlr_sim_new from the configuration (reference NULL or not), shared
 * read-only by the runs.
 *
 * The routing also keeps the packet's place in its route - route class,
 * phase and the hops and global links of the phase - which the VL
 * selection (vl_select_internal.h) reads.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ROUTE_INTERNAL_H
#define VLROUTE_ROUTE_INTERNAL_H

#include "sim_internal.h"

struct sim_route {
	/* p heads its injection queue at its server and has no route yet
	   (p->dlid 0): give it one (its DLID, and for the reference model
	   its intermediate and route class). */
	void (*depart)(const struct sim_route *self, struct sim_state *st,
		       struct sim_packet *p);
	/* The port number (1..) by which switch sw forwards p, the head of
	   input port in_port (a switch port slot of the simulator); 0: none.
	   Called once per head; an adaptive routing may read st and draw
	   from the source server's random stream. */
	unsigned (*port)(const struct sim_route *self, struct sim_state *st, uint32_t sw,
			 uint32_t in_port, const struct sim_packet *p);
	/* p's head enters switch sw after a hop (hops, phase_hops and
	   escalation already count it). */
	void (*enter_switch)(const struct sim_route *self, uint32_t sw,
			     struct sim_packet *p);
	/* Optional, NULL: a route never changes. Whether the packets of run
	   st may get another route while they head their source switch's
	   input from their server (reroute). */
	int (*reroutes)(const struct sim_route *self, const struct sim_state *st);
	/* p heads the input from its server of its source switch sw and
	   found no room in its output: another route (the table replay:
	   another DLID by the DLID rule; the reference model: another
	   intermediate). */
	void (*reroute)(const struct sim_route *self, struct sim_state *st, uint32_t sw,
			struct sim_packet *p);
	void (*free)(struct sim_route *self);
};

/* The routing of a simulation, NULL (and err) if it cannot be made. */
struct sim_route *sim_route_tables_new(const struct vlr_sim *sim, struct vlr_error *err);
struct sim_route *sim_route_reference_new(const struct vlr_sim *sim, struct vlr_error *err);

#endif
