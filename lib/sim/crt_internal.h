/*
 * crt_internal.h - UGAL-L_CR's credit round-trip latency (sim_crt.c): the
 * state of a run (sim_state.crt, NULL for every other routing) and the
 * hooks the links (a packet leaves, a credit comes back) and the
 * allocator (a credit goes back) call.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CRT_INTERNAL_H
#define VLROUTE_CRT_INTERNAL_H

#include "sim_internal.h"

struct sim_crt *sim_crt_new(const struct vlr_sim *sim, struct vlr_error *err);
void sim_crt_free(struct sim_crt *crt);
uint64_t sim_crt_bytes(const struct vlr_sim *sim);
/* A packet leaves switch port `port` on vl for another switch, now. */
void sim_crt_sent(struct sim_state *st, uint32_t port, unsigned vl);
/* A credit of vl, due at time, came back to the sender port. */
void sim_crt_credit(struct sim_state *st, uint32_t sender, unsigned vl, uint64_t time);
/* t_d of a switch port to another switch: its last round trip beyond t_crt0. */
uint32_t sim_crt_td(const struct sim_state *st, uint32_t port);
/* When the credit of input (in_port, vl), whose packet goes to out_port,
   due at time without the delay, goes back: late by t_d(out) - min t_d,
   never before an earlier credit of the same input and VL. */
uint64_t sim_crt_credit_time(struct sim_state *st, uint32_t in_port, unsigned vl,
			     uint32_t out_port, uint64_t time);

#endif
