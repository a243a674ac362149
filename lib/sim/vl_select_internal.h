/*
 * vl_select_internal.h - the VL selection: which VLs a packet may take at
 * each hop and on its injection link. One implementation per file
 * (vl_exact.c, vl_ideal.c), one row per implementation in the table of
 * sim_config.c, indexed by enum vlr_sim_vl_mode; the reference model has
 * its own (sim_vl_reference, in vl_ideal.c).
 *
 * A VL selection is made by vlr_sim_new for the simulation (it decides how
 * many VLs are simulated) and only read by the runs, which may share it
 * between threads.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VL_SELECT_INTERNAL_H
#define VLROUTE_VL_SELECT_INTERNAL_H

#include "sim_internal.h"

struct sim_vl_select {
	/* VLs packet p may take from in_port to out_port of switch sw, a mask
	   below 1 << vls; 0: none. */
	uint16_t (*choices)(const struct sim_vl_select *self, uint32_t sw, uint32_t in_port,
			    uint32_t out_port, const struct sim_packet *p);
	/* The VL of server's head packet p on its injection link, among those
	   with a credit; -1 if none (a failure also sets st->failed). */
	int (*injection_vl)(const struct sim_vl_select *self, struct sim_state *st,
			    uint32_t server, const struct sim_packet *p);
	/* Optional, NULL: nothing to track. p got its DLID (and SL) at switch
	   sw; its route class and phase are minimal and phase one. */
	void (*dlid_set)(const struct sim_vl_select *self, uint32_t sw,
			 struct sim_packet *p);
	/* Optional, NULL: nothing to track. p's head enters switch sw. */
	void (*enter_switch)(const struct sim_vl_select *self, uint32_t sw,
			     struct sim_packet *p);
	void (*free)(struct sim_vl_select *self);
	int reads_sl;		/* the choices follow the packet's SL: the
				   table replay looks up its path SL only
				   then */
};

struct sim_vl_type {
	const char *name;		/* for --vl-mode and the reports */
	/* Check the tables, set *vls (the VLs simulated) and make the selection. */
	struct sim_vl_select *(*create)(const struct vlr_sim *sim, unsigned *vls,
					struct vlr_error *err);
};

extern const struct sim_vl_type sim_vl_exact;
extern const struct sim_vl_type sim_vl_ideal;
extern const struct sim_vl_type sim_vl_reference;	/* the reference model's */

/* vl_ideal.c: the reference model's VL policy with its defaults (K:
   the most hops of a phase) and its VLs; the simulation's topology
   recognised. */
int sim_reference_policy(const struct vlr_sim *sim, struct vlr_vl_policy *policy,
			 struct vlr_error *err);

/* sim_config.c: the row of a VL mode, NULL if there is none. */
const struct sim_vl_type *sim_vl_type(enum vlr_sim_vl_mode mode);

#endif
