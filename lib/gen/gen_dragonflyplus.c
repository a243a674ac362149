/*
 * gen_dragonflyplus.c - Dragonfly+ generator.
 *
 * g groups, each a complete bipartite graph of L leaves and S spines;
 * hosts hang off the leaves, global links off the spines. In group G,
 * leaf l is node G*(L+S) + l (dfp_gG_lL) and spine s is node
 * G*(L+S) + L + s (dfp_gG_sS). Leaf ports: 1..T hosts, T + 1 + s to spine
 * s. Spine ports: 1 + l to leaf l, L + 1 + k for global link k, which is
 * the group's global port j = s*H + k; groups pair their S*H global ports
 * exactly as Dragonfly groups do (see gen_dragonfly.c).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "gen_common.h"

static int check_params(const struct vlr_dragonflyplus_params *dfp, unsigned groups,
			struct vlr_error *err)
{
	unsigned long long max_groups = (unsigned long long)dfp->spines * dfp->globals + 1;

	if (gen_check_range("leaves per group", dfp->leaves, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("spines per group", dfp->spines, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("hosts per leaf", dfp->hosts, 1, VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("global links per spine", dfp->globals, 1,
			    VLR_MAX_NODE_PORTS, err) ||
	    gen_check_range("groups", groups, 2, max_groups, err))
		return -1;
	if (gen_check_size((unsigned long long)groups *
			   (dfp->spines + dfp->leaves * (1ull + dfp->hosts)), err))
		return -1;
	if (gen_check_radix((unsigned long long)dfp->hosts + dfp->spines,
			    "leaf: hosts + spines", err))
		return -1;
	return gen_check_radix((unsigned long long)dfp->leaves + dfp->globals,
			       "spine: leaves + global links", err);
}

static int link_group(struct vlr_fabric *fabric,
		      const struct vlr_dragonflyplus_params *dfp, unsigned group,
		      struct vlr_error *err)
{
	uint32_t first = group * (dfp->leaves + dfp->spines);
	unsigned l, s;

	for (l = 0; l < dfp->leaves; l++)
		for (s = 0; s < dfp->spines; s++)
			if (vlr_fabric_link(fabric, first + l, dfp->hosts + 1 + s,
					    first + dfp->leaves + s, 1 + l, err))
				return -1;
	return 0;
}

static uint32_t spine_node(const struct vlr_dragonflyplus_params *dfp,
			   unsigned group, unsigned global_port)
{
	return group * (dfp->leaves + dfp->spines) + dfp->leaves +
	       global_port / dfp->globals;
}

static int link_globals(struct vlr_fabric *fabric,
			const struct vlr_dragonflyplus_params *dfp,
			const struct gen_group_wiring *wiring, unsigned group,
			struct vlr_error *err)
{
	unsigned port, peer_group, peer_port;

	for (port = 0; port < dfp->spines * dfp->globals; port++) {
		if (!gen_group_wiring_peer(wiring, group, port, &peer_group, &peer_port) ||
		    peer_group < group)
			continue;
		if (vlr_fabric_link(fabric, spine_node(dfp, group, port),
				    dfp->leaves + 1 + port % dfp->globals,
				    spine_node(dfp, peer_group, peer_port),
				    dfp->leaves + 1 + peer_port % dfp->globals, err))
			return -1;
	}
	return 0;
}

static int add_switches(struct vlr_fabric *fabric,
			const struct vlr_dragonflyplus_params *dfp, unsigned groups,
			struct gen_guids *guids, struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	unsigned group, i;

	for (group = 0; group < groups; group++) {
		for (i = 0; i < dfp->leaves; i++) {
			snprintf(name, sizeof(name), "dfp_g%u_l%u", group, i);
			if (gen_add_switch(fabric, guids, name, dfp->hosts + dfp->spines,
					   err) == VLR_NONE)
				return -1;
		}
		for (i = 0; i < dfp->spines; i++) {
			snprintf(name, sizeof(name), "dfp_g%u_s%u", group, i);
			if (gen_add_switch(fabric, guids, name, dfp->leaves + dfp->globals,
					   err) == VLR_NONE)
				return -1;
		}
	}
	return 0;
}

int vlr_gen_dragonflyplus(struct vlr_fabric *fabric,
			  const struct vlr_dragonflyplus_params *dfp,
			  struct vlr_error *err)
{
	unsigned groups = dfp->groups ? dfp->groups : dfp->spines * dfp->globals + 1;
	unsigned per_group = dfp->leaves + dfp->spines;
	struct gen_group_wiring wiring;
	struct gen_guids guids;
	unsigned group, l;
	int result = 0;

	if (check_params(dfp, groups, err))
		return -1;
	if (vlr_fabric_reserve(fabric, groups * (per_group + dfp->leaves * dfp->hosts),
			       groups * (dfp->leaves * (dfp->hosts + dfp->spines + 1) +
					 dfp->spines * (dfp->leaves + dfp->globals + 1) +
					 dfp->leaves * dfp->hosts * 2), err))
		return -1;
	gen_guids_init(&guids);
	if (add_switches(fabric, dfp, groups, &guids, err) ||
	    gen_group_wiring_init(&wiring, groups, dfp->spines * dfp->globals,
				  dfp->arrangement, err))
		return -1;
	for (group = 0; group < groups && !result; group++)
		result = link_group(fabric, dfp, group, err) ||
			 link_globals(fabric, dfp, &wiring, group, err) ? -1 : 0;
	gen_group_wiring_free(&wiring);
	for (group = 0; group < groups && !result; group++)
		for (l = 0; l < dfp->leaves && !result; l++)
			result = gen_attach_hosts(fabric, &guids, group * per_group + l,
						  dfp->hosts, err);
	return result;
}
