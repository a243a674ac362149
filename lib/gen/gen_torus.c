/*
 * gen_torus.c - n-dimensional torus generator.
 *
 * One switch per point of a grid with sides S0 x S1 x ...; in every
 * dimension each switch links to its successor (c_d + 1) mod S_d. Ports:
 * 1..T hosts, then T + 1 + 2d towards the successor and T + 2 + 2d towards
 * the predecessor in dimension d. A side of 2 gives two parallel links.
 * Switches are nodes 0..S-1 (dimension 0 varies fastest), hosts follow.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "gen_common.h"

static int link_switch(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
		       uint32_t sw, struct vlr_error *err)
{
	unsigned coords[VLR_MAX_DIMS], d;

	gen_grid_coords(sw, grid, coords);
	for (d = 0; d < grid->dims; d++) {
		unsigned own = coords[d];
		uint32_t next;

		coords[d] = (own + 1) % grid->sides[d];
		next = gen_grid_index(coords, grid);
		coords[d] = own;
		if (vlr_fabric_link(fabric, sw, grid->hosts + 1 + 2 * d, next,
				    grid->hosts + 2 + 2 * d, err))
			return -1;
	}
	return 0;
}

int vlr_gen_torus(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
		  struct vlr_error *err)
{
	if (gen_check_grid(grid, 2 * grid->dims, "torus", err))
		return -1;
	return gen_grid(fabric, grid, "tor", 2 * grid->dims, link_switch, err);
}
