/*
 * dlid_rule_internal.h - the DLID rule: which LID of its destination's LMC
 * range a packet leaves its server with, and whether it may change it
 * while blocked at its source switch. One implementation per file
 * (dlid_base.c, dlid_random.c, ...), one row per implementation in the
 * table of sim_config.c, keyed by its enum vlr_dlid_choice.
 *
 * A rule is made per run and owns its state; the random numbers come from
 * the servers' streams (st->rng), so that a run stays one deterministic
 * sequence per server.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_DLID_RULE_INTERNAL_H
#define VLROUTE_DLID_RULE_INTERNAL_H

#include "sim_internal.h"

/* A packet's source and destination servers and the destination's LIDs. */
struct sim_dlid_query {
	uint32_t server;
	uint32_t destination;
	uint32_t base;			/* base LID */
	unsigned lids;			/* 2 or more */
};

struct sim_dlid_rule;

/* An offset (0 .. lids - 1) for a packet; -1 for 0 (offset) or to keep its
   DLID (reroute). */
typedef int (*sim_dlid_fn)(struct sim_dlid_rule *self, struct sim_state *st,
			   const struct sim_dlid_query *q);

struct sim_dlid_rule {
	sim_dlid_fn offset;		/* the packet leaves its server */
	sim_dlid_fn reroute;		/* optional, NULL: a DLID never changes;
					   the packet waits at its source switch
					   with no room in its output */
	void (*free)(struct sim_dlid_rule *self);
};

struct sim_dlid_type {
	enum vlr_dlid_choice choice;	/* its name: vlr_dlid_choice_name */
	/* A rule for one run, NULL (and err) if out of memory. */
	struct sim_dlid_rule *(*create)(const struct vlr_sim *sim, struct vlr_error *err);
};

extern const struct sim_dlid_type sim_dlid_base;
extern const struct sim_dlid_type sim_dlid_random;
extern const struct sim_dlid_type sim_dlid_recompute;
extern const struct sim_dlid_type sim_dlid_restricted;
extern const struct sim_dlid_type sim_dlid_adaptive;
extern const struct sim_dlid_type sim_dlid_adaptive_vc_h;

/* sim_config.c: the row of a DLID choice, NULL if the simulator has none. */
const struct sim_dlid_type *sim_dlid_type(enum vlr_dlid_choice choice);
/* sim_config.c: the choices of the table, as VLR_DLID_BIT()s. */
unsigned sim_dlid_choices(void);

/* route_tables.c: the VLs a packet of q's with DLID dlid may take out of
   its source switch by out_port, as the run's VL selection allows them. */
uint16_t sim_tables_first_vls(const struct sim_state *st, const struct sim_dlid_query *q,
			      uint16_t dlid, uint32_t out_port);

/* dlid_offsets.c: what the rules share. */
/* size zeroed bytes that start with a rule with these hooks and a free()
   that releases them. */
struct sim_dlid_rule *sim_dlid_rule_new(size_t size, sim_dlid_fn offset, sim_dlid_fn reroute,
					struct vlr_error *err);
/* A hook: a random Valiant offset (sim_valiant_offset). */
int sim_dlid_valiant(struct sim_dlid_rule *self, struct sim_state *st,
		     const struct sim_dlid_query *q);
int sim_lid_nonminimal(uint8_t kind);
int sim_lid_valiant(uint8_t kind);
int sim_lid_restricted(uint8_t kind);
/* A random offset of lids offsets whose kind passes want(), or -1; any
   offset on tables without LID kinds. */
int sim_random_offset(struct sim_state *st, uint32_t server, uint32_t base,
		      unsigned lids, int (*want)(uint8_t kind));
/* A random Valiant offset; a restricted one only if the tables have no other. */
int sim_valiant_offset(struct sim_state *st, uint32_t server, uint32_t base,
		       unsigned lids);

#endif
