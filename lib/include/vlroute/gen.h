/*
 * gen.h - topology generators and the families they build.
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
#ifndef VLROUTE_GEN_H
#define VLROUTE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/fabric.h>

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
int vlr_gen_xgft(struct vlr_fabric *fabric, const struct vlr_xgft_params *params,
		 struct vlr_error *err);
int vlr_gen_kautz(struct vlr_fabric *fabric, const struct vlr_kautz_params *params,
		  struct vlr_error *err);

/* Call the generator of params->family. */
int vlr_generate(struct vlr_fabric *fabric, const struct vlr_family_params *params,
		 struct vlr_error *err);


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
