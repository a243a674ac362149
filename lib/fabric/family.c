/*
 * family.c - describing a family member in words ("dragonfly p=6 a=12 h=6
 * g=73 arrangement=palmtree") for reports, JSON and table files.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include <vlroute/fabric.h>

const char *vlr_arrangement_name(enum vlr_arrangement arrangement)
{
	return arrangement == VLR_ARRANGEMENT_CONSECUTIVE ? "consecutive" : "palmtree";
}

static void describe_grid(const char *family, const struct vlr_grid_params *grid,
			  char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "%s sides=", family);
	unsigned d;

	for (d = 0; d < grid->dims && used < size; d++)
		used += (size_t)snprintf(buf + used, size - used, "%s%u", d ? "x" : "",
					 grid->sides[d]);
	if (used < size)
		snprintf(buf + used, size - used, " hosts=%u", grid->hosts);
}

/* "xgft h=2 m=11,6 w=1,3 endpoints=64": every host kept unless endpoints. */
static void describe_xgft(const struct vlr_xgft_params *xgft, char *buf, size_t size)
{
	unsigned long long endpoints = 1;
	size_t used = (size_t)snprintf(buf, size, "xgft h=%u m=", xgft->h);
	unsigned i;

	for (i = 0; i < xgft->h && used < size; i++) {
		used += (size_t)snprintf(buf + used, size - used, "%s%u", i ? "," : "",
					 xgft->m[i]);
		endpoints *= xgft->m[i];
	}
	for (i = 0; i < xgft->h && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%u", i ? "," : " w=",
					 xgft->w[i]);
	if (used < size)
		snprintf(buf + used, size - used, " endpoints=%llu",
			 xgft->endpoints ? xgft->endpoints : endpoints);
}

void vlr_family_describe(const struct vlr_family_params *params, char *buf,
			 size_t size)
{
	const struct vlr_dragonfly_params *df = &params->u.dragonfly;
	const struct vlr_dragonflyplus_params *dfp = &params->u.dragonflyplus;
	const struct vlr_random_params *rr = &params->u.random;

	switch (params->family) {
	case VLR_FAMILY_HYPERX:
		describe_grid("hyperx", &params->u.grid, buf, size);
		return;
	case VLR_FAMILY_TORUS:
		describe_grid("torus", &params->u.grid, buf, size);
		return;
	case VLR_FAMILY_DRAGONFLY:
		snprintf(buf, size, "dragonfly p=%u a=%u h=%u g=%u arrangement=%s",
			 df->p, df->a, df->h, df->g ? df->g : df->a * df->h + 1,
			 vlr_arrangement_name(df->arrangement));
		return;
	case VLR_FAMILY_DRAGONFLYPLUS:
		snprintf(buf, size, "dragonfly+ leaves=%u spines=%u hosts=%u globals=%u "
			 "groups=%u arrangement=%s", dfp->leaves, dfp->spines, dfp->hosts,
			 dfp->globals,
			 dfp->groups ? dfp->groups : dfp->spines * dfp->globals + 1,
			 vlr_arrangement_name(dfp->arrangement));
		return;
	case VLR_FAMILY_FATTREE:
		snprintf(buf, size, "fattree k=%u n=%u", params->u.fattree.k,
			 params->u.fattree.n);
		return;
	case VLR_FAMILY_RANDOM:
		if (rr->links)
			snprintf(buf, size, "random switches=%u links=%u max-degree=%u "
				 "hosts=%u seed=%llu", rr->switches, rr->links, rr->degree,
				 rr->hosts, (unsigned long long)rr->seed);
		else if (rr->seed_unknown)
			snprintf(buf, size, "random switches=%u degree=%u hosts=%u",
				 rr->switches, rr->degree, rr->hosts);
		else
			snprintf(buf, size, "random switches=%u degree=%u hosts=%u seed=%llu",
				 rr->switches, rr->degree, rr->hosts,
				 (unsigned long long)rr->seed);
		return;
	case VLR_FAMILY_XGFT:
		describe_xgft(&params->u.xgft, buf, size);
		return;
	case VLR_FAMILY_KAUTZ:
		if (params->u.kautz.endpoints)
			snprintf(buf, size, "kautz b=%u n=%u endpoints=%u", params->u.kautz.b,
				 params->u.kautz.n, params->u.kautz.endpoints);
		else
			snprintf(buf, size, "kautz b=%u n=%u hosts=%u", params->u.kautz.b,
				 params->u.kautz.n, params->u.kautz.hosts);
		return;
	case VLR_FAMILY_NONE:
		break;
	}
	snprintf(buf, size, "unknown");
}
