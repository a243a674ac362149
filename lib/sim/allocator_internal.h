/*
 * allocator_internal.h - the switch allocator: which input heads cross a
 * switch's crossbar into their output buffers in a cycle. One
 * implementation per file (allocator_separable.c), one row per
 * implementation in the table of sim_config.c, indexed by enum
 * vlr_sim_allocator.
 *
 * An allocator is made per run and owns its state (arbiters, scratch)
 * but for what it reads with the run's own records of inputs, outputs and
 * ports, which keep it beside them: in struct sim_input, when the head may
 * request next and until when the crossbar input is busy; in struct
 * sim_output, until when the crossbar output is busy and its round robin;
 * in struct sim_port, the cycle its port wakes (alloc_wake, for a timing
 * wheel of its own) and its input's round robin. It moves packets with
 * sim_input_pop and the output buffers of struct sim_state, and asks the
 * routing (route_internal.h) to reroute packets blocked at their source
 * switch.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ALLOCATOR_INTERNAL_H
#define VLROUTE_ALLOCATOR_INTERNAL_H

#include "sim_internal.h"

struct sim_allocator {
	/* Grant what may cross switch sw's crossbar in this cycle. */
	void (*allocate)(struct sim_allocator *self, struct sim_state *st, uint32_t sw);
	/* A packet arrived into the empty input buffer (port, vl) and heads it
	   (sim_input_push). */
	void (*arrived)(struct sim_allocator *self, struct sim_state *st, uint32_t port,
			unsigned vl);
	void (*free)(struct sim_allocator *self);
};

struct sim_allocator_type {
	/* Bytes its state takes in a run (counted in vlr_sim_run_bytes). */
	uint64_t (*run_bytes)(const struct vlr_sim *sim);
	/* An allocator for the run st, whose arrays are made; NULL (and err)
	   if out of memory. */
	struct sim_allocator *(*create)(struct sim_state *st, struct vlr_error *err);
};

extern const struct sim_allocator_type sim_allocator_separable;

/* sim_config.c: the row of an allocator, NULL if there is none. */
const struct sim_allocator_type *sim_allocator_type(enum vlr_sim_allocator allocator);

#endif
