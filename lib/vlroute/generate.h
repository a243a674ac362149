/*
 * generate.h - topology generators and the families they build.
 *
 * Each generator fills an empty fabric with one member of a family; the
 * parameters say which. Out-of-range parameters are refused with a message
 * naming the parameter and its allowed range. Node names encode role and
 * coordinates (hx_3_5, df_g4_r2_h1, ...) for people; nothing relies on them.
 * The exact wiring of every family is documented in vlroute(1).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_GENERATE_H
#define VLROUTE_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/fabric.h>

#define VLR_MAX_DIMS 8

enum vlr_family {
	VLR_FAMILY_NONE = 0,
	VLR_FAMILY_HYPERX,
	VLR_FAMILY_TORUS,
	VLR_FAMILY_DRAGONFLY,
	VLR_FAMILY_DRAGONFLYPLUS,
	VLR_FAMILY_FATTREE,
	VLR_FAMILY_RANDOM,
};

/* How groups' global ports pair up (see vlroute(1) for the formulas). */
enum vlr_arrangement {
	VLR_ARRANGEMENT_PALMTREE = 0,
	VLR_ARRANGEMENT_CONSECUTIVE,
};

/* HyperX (Hamming graph) and torus: a switch per point of the grid. */
struct vlr_grid_params {
	unsigned dims;
	unsigned sides[VLR_MAX_DIMS];
	unsigned hosts;			/* per switch */
};

struct vlr_dragonfly_params {
	unsigned p;			/* hosts per router */
	unsigned a;			/* routers per group */
	unsigned h;			/* global links per router */
	unsigned g;			/* groups; 0 = a*h + 1 */
	enum vlr_arrangement arrangement;
};

struct vlr_dragonflyplus_params {
	unsigned leaves;		/* leaf switches per group */
	unsigned spines;		/* spine switches per group */
	unsigned hosts;			/* hosts per leaf */
	unsigned globals;		/* global links per spine */
	unsigned groups;		/* 0 = spines*globals + 1 */
	enum vlr_arrangement arrangement;
};

struct vlr_fattree_params {
	unsigned k;			/* arity: k hosts or k up links per switch */
	unsigned n;			/* levels */
};

struct vlr_random_params {
	unsigned switches;
	unsigned degree;		/* switch-to-switch links per switch */
	unsigned hosts;			/* per switch */
	uint64_t seed;
	int seed_unknown;		/* recognised, not generated: no seed */
};

struct vlr_family_params {
	enum vlr_family family;
	union {
		struct vlr_grid_params grid;	/* HyperX and torus */
		struct vlr_dragonfly_params dragonfly;
		struct vlr_dragonflyplus_params dragonflyplus;
		struct vlr_fattree_params fattree;
		struct vlr_random_params random;
	} u;
};

int vlr_gen_hyperx(struct vlr_fabric *fabric, const struct vlr_grid_params *params,
		   struct vlr_error *err);
int vlr_gen_torus(struct vlr_fabric *fabric, const struct vlr_grid_params *params,
		  struct vlr_error *err);
int vlr_gen_dragonfly(struct vlr_fabric *fabric,
		      const struct vlr_dragonfly_params *params,
		      struct vlr_error *err);
int vlr_gen_dragonflyplus(struct vlr_fabric *fabric,
			  const struct vlr_dragonflyplus_params *params,
			  struct vlr_error *err);
int vlr_gen_fattree(struct vlr_fabric *fabric,
		    const struct vlr_fattree_params *params, struct vlr_error *err);
int vlr_gen_random(struct vlr_fabric *fabric,
		   const struct vlr_random_params *params, struct vlr_error *err);

/* Call the generator of params->family. */
int vlr_generate(struct vlr_fabric *fabric, const struct vlr_family_params *params,
		 struct vlr_error *err);

/* "dragonfly p=6 a=12 h=6 g=73 arrangement=palmtree", and so on. */
void vlr_family_describe(const struct vlr_family_params *params, char *buf,
			 size_t size);

const char *vlr_arrangement_name(enum vlr_arrangement arrangement);

/*
 * Recognise a generated fabric: take the family and parameters its node
 * names (or node descriptions) suggest, regenerate that fabric and compare
 * every switch's neighbours and host count. Returns 1 and fills params only
 * when they all match; a random regular graph is recognised by its
 * degrees and simplicity alone (its seed cannot be known).
 */
int vlr_recognise_family(const struct vlr_fabric *fabric,
			 struct vlr_family_params *params);

#endif
