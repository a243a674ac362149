/*
 * gen_hyperx.c - HyperX (Hamming graph) generator.
 *
 * One switch per point of a grid with sides S0 x S1 x ...; two switches are
 * linked when their coordinates differ in exactly one dimension. Ports: 1..T
 * hosts, then dimension by dimension the S_d - 1 other switches of the row
 * in increasing coordinate order: in dimension d the switch with
 * coordinate v != c_d is on port T + 1 + sum_{e<d}(S_e - 1) + (v < c_d ? v : v - 1).
 * Switches are nodes 0..S-1 (dimension 0 varies fastest), hosts follow.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "gen_common.h"

static unsigned row_links(const struct vlr_grid_params *grid)
{
	unsigned links = 0, d;

	for (d = 0; d < grid->dims; d++)
		links += grid->sides[d] - 1;
	return links;
}

/* Port of the switch at coordinate `from` towards coordinate `to` in dim d. */
static unsigned row_port(const struct vlr_grid_params *grid, unsigned d,
			 unsigned from, unsigned to)
{
	unsigned port = grid->hosts + 1, e;

	for (e = 0; e < d; e++)
		port += grid->sides[e] - 1;
	return port + (to < from ? to : to - 1);
}

static int link_switch(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
		       uint32_t sw, struct vlr_error *err)
{
	unsigned coords[VLR_MAX_DIMS], d, v;

	gen_grid_coords(sw, grid, coords);
	for (d = 0; d < grid->dims; d++) {
		unsigned own = coords[d];

		for (v = own + 1; v < grid->sides[d]; v++) {
			uint32_t other;

			coords[d] = v;
			other = gen_grid_index(coords, grid);
			coords[d] = own;
			if (vlr_fabric_link(fabric, sw, row_port(grid, d, own, v), other,
					    row_port(grid, d, v, own), err))
				return -1;
		}
	}
	return 0;
}

int vlr_gen_hyperx(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
		   struct vlr_error *err)
{
	if (gen_check_grid(grid, row_links(grid), "HyperX", err))
		return -1;
	return gen_grid(fabric, grid, "hx", row_links(grid), link_switch, err);
}
