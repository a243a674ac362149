/*
 * generate.c - one entry to every generator: the family picks it.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <vlroute/gen.h>

int vlr_generate(struct vlr_fabric *fabric, const struct vlr_family_params *params,
		 struct vlr_error *err)
{
	switch (params->family) {
	case VLR_FAMILY_HYPERX:
		return vlr_gen_hyperx(fabric, &params->u.grid, err);
	case VLR_FAMILY_TORUS:
		return vlr_gen_torus(fabric, &params->u.grid, err);
	case VLR_FAMILY_DRAGONFLY:
		return vlr_gen_dragonfly(fabric, &params->u.dragonfly, err);
	case VLR_FAMILY_DRAGONFLYPLUS:
		return vlr_gen_dragonflyplus(fabric, &params->u.dragonflyplus, err);
	case VLR_FAMILY_FATTREE:
		return vlr_gen_fattree(fabric, &params->u.fattree, err);
	case VLR_FAMILY_RANDOM:
		return vlr_gen_random(fabric, &params->u.random, err);
	case VLR_FAMILY_XGFT:
		return vlr_gen_xgft(fabric, &params->u.xgft, err);
	case VLR_FAMILY_KAUTZ:
		return vlr_gen_kautz(fabric, &params->u.kautz, err);
	case VLR_FAMILY_NONE:
		break;
	}
	return vlr_fail(err, "no topology family given");
}
