/*
 * gen_dragonfly.c - Dragonfly generator.
 *
 * g groups of a routers; routers of a group form a complete graph; every
 * router has p hosts and h global ports. Router r of group G is node
 * G*a + r, named df_gG_rR. Ports: 1..p hosts; p + 1 + (s < r ? s : s - 1)
 * towards router s of the group; p + a + k for global link k. Global port
 * k of router r is the group's global port j = r*h + k, and the groups'
 * global ports pair up as gen_group_wiring describes: with g = a*h + 1 and
 * the palmtree arrangement, port j of group G reaches group G + j + 1
 * (mod g) at its port a*h - 1 - j; consecutive reaches group j (j < G) or
 * j + 1 (j >= G) at its port G - 1 (G > peer) or G (G < peer).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "gen_common.h"

static int check_params(const struct vlr_dragonfly_params *df, unsigned groups,
			struct vlr_error *err)
{
	unsigned long long max_groups = (unsigned long long)df->a * df->h + 1;

	if (gen_check_range("p (hosts per router)", df->p, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("a (routers per group)", df->a, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("h (global links per router)", df->h, 1,
			    VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("g (groups)", groups, 2, max_groups, err))
		return -1;
	if (gen_check_radix((unsigned long long)df->p + df->a - 1 + df->h,
			    "p + a - 1 + h", err))
		return -1;
	return gen_check_size((unsigned long long)groups * df->a * (1ull + df->p), err);
}

static int link_group(struct vlr_fabric *fabric, const struct vlr_dragonfly_params *df,
		      unsigned group, struct vlr_error *err)
{
	uint32_t first = group * df->a;
	unsigned r, s;

	for (r = 0; r < df->a; r++)
		for (s = r + 1; s < df->a; s++)
			if (vlr_fabric_link(fabric, first + r, df->p + s, first + s,
					    df->p + 1 + r, err))
				return -1;
	return 0;
}

static int link_globals(struct vlr_fabric *fabric, const struct vlr_dragonfly_params *df,
			const struct gen_group_wiring *wiring, unsigned group,
			struct vlr_error *err)
{
	unsigned port, peer_group, peer_port;

	for (port = 0; port < df->a * df->h; port++) {
		if (!gen_group_wiring_peer(wiring, group, port, &peer_group, &peer_port) ||
		    peer_group < group)
			continue;
		if (vlr_fabric_link(fabric, group * df->a + port / df->h,
				    df->p + df->a + port % df->h,
				    peer_group * df->a + peer_port / df->h,
				    df->p + df->a + peer_port % df->h, err))
			return -1;
	}
	return 0;
}

int vlr_gen_dragonfly(struct vlr_fabric *fabric, const struct vlr_dragonfly_params *df,
		      struct vlr_error *err)
{
	unsigned groups = df->g ? df->g : df->a * df->h + 1;
	unsigned radix = df->p + df->a - 1 + df->h;
	struct gen_group_wiring wiring;
	char name[VLR_MAX_NAME + 1];
	struct gen_guids guids;
	uint32_t routers, sw;
	unsigned group;
	int result = 0;

	if (check_params(df, groups, err))
		return -1;
	routers = groups * df->a;
	if (vlr_fabric_reserve(fabric, routers * (1 + df->p),
			       routers * (radix + 1) + routers * df->p * 2, err))
		return -1;
	gen_guids_init(&guids);
	for (sw = 0; sw < routers; sw++) {
		snprintf(name, sizeof(name), "df_g%u_r%u", sw / df->a, sw % df->a);
		if (gen_add_switch(fabric, &guids, name, radix, err) == VLR_NONE)
			return -1;
	}
	if (gen_group_wiring_init(&wiring, groups, df->a * df->h, df->arrangement, err))
		return -1;
	for (group = 0; group < groups && !result; group++)
		result = link_group(fabric, df, group, err) ||
			 link_globals(fabric, df, &wiring, group, err) ? -1 : 0;
	gen_group_wiring_free(&wiring);
	for (sw = 0; sw < routers && !result; sw++)
		result = gen_attach_hosts(fabric, &guids, sw, df->p, err);
	return result;
}
