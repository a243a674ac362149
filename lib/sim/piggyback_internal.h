/*
 * piggyback_internal.h - Piggyback's broadcast of saturated global links
 * (sim_piggyback.c): the state of a run (sim_state.pb, NULL for every
 * other routing), brought up to date at the start of every cycle, and
 * what a switch knows of a global port of its group.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_PIGGYBACK_INTERNAL_H
#define VLROUTE_PIGGYBACK_INTERNAL_H

#include "sim_internal.h"

struct sim_pb *sim_pb_new(const struct vlr_sim *sim, struct vlr_error *err);
void sim_pb_free(struct sim_pb *pb);
uint64_t sim_pb_bytes(const struct vlr_sim *sim);
/* Every switch marks its global ports saturated or not, now. */
void sim_pb_update(struct sim_state *st);
/* Whether switch sw believes the global port `port` of its group to be
   saturated: now if port is its own, as of local_latency cycles ago if
   another switch's (nothing heard yet: not saturated). */
int sim_pb_saturated(const struct sim_state *st, uint32_t sw, uint32_t port);

#endif
