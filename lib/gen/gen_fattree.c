/*
 * gen_fattree.c - k-ary n-tree (fat tree) generator.
 *
 * n levels of k^(n-1) switches with 2k ports; k^n hosts. A switch is
 * (level l, word w) with w = (w_0 .. w_{n-2}) in base k, node
 * l*k^(n-1) + sum_t w_t k^t, named ft_lL_w0_w1_... Switches (l, w) and
 * (l+1, w') are linked when w and w' differ at most in digit l: port
 * k + 1 + w'_l of the lower switch meets port 1 + w_l of the upper one.
 * Level 0 switches carry k hosts on ports 1..k; level n-1 switches use only
 * their ports 1..k.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "gen_common.h"

static uint64_t power(unsigned base, unsigned exponent)
{
	uint64_t result = 1;

	while (exponent--) {
		result *= base;
		if (result > UINT32_MAX)
			return 0;
	}
	return result;
}

static void switch_name(char *name, size_t size, unsigned level, uint32_t word,
			const struct vlr_fattree_params *ft)
{
	unsigned digits[16], t;
	char prefix[16];

	for (t = 0; t + 1 < ft->n; t++) {
		digits[t] = word % ft->k;
		word /= ft->k;
	}
	snprintf(prefix, sizeof(prefix), "ft_l%u", level);
	gen_grid_name(name, size, prefix, digits, ft->n - 1);
}

static int link_level(struct vlr_fabric *fabric, const struct vlr_fattree_params *ft,
		      unsigned level, uint32_t per_level, struct vlr_error *err)
{
	uint32_t step = (uint32_t)power(ft->k, level), word;
	unsigned v;

	for (word = 0; word < per_level; word++) {
		unsigned own = (word / step) % ft->k;

		for (v = 0; v < ft->k; v++) {
			uint32_t upper = word + (v - own) * step;

			if (vlr_fabric_link(fabric, level * per_level + word, ft->k + 1 + v,
					    (level + 1) * per_level + upper, 1 + own, err))
				return -1;
		}
	}
	return 0;
}

int vlr_gen_fattree(struct vlr_fabric *fabric, const struct vlr_fattree_params *ft,
		    struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	struct gen_guids guids;
	uint64_t per_level;
	uint32_t sw, count;
	unsigned level;

	if (gen_check_range("k (arity)", ft->k, 2, VLR_MAX_NODE_PORTS / 2, err) ||
	    gen_check_range("n (levels)", ft->n, 1, 16, err))
		return -1;
	per_level = power(ft->k, ft->n - 1);
	if (!per_level || gen_check_size(per_level * ft->n + per_level * ft->k, err))
		return per_level ? -1 : vlr_fail(err, "the fat tree would have more "
						 "than 2^32 switches per level");
	count = (uint32_t)(per_level * ft->n);
	if (vlr_fabric_reserve(fabric, count + (uint32_t)per_level * ft->k,
			       count * (2 * ft->k + 1) + (uint32_t)per_level * ft->k * 2,
			       err))
		return -1;
	gen_guids_init(&guids);
	for (sw = 0; sw < count; sw++) {
		switch_name(name, sizeof(name), sw / (uint32_t)per_level,
			    sw % (uint32_t)per_level, ft);
		if (gen_add_switch(fabric, &guids, name, 2 * ft->k, err) == VLR_NONE)
			return -1;
	}
	for (level = 0; level + 1 < ft->n; level++)
		if (link_level(fabric, ft, level, (uint32_t)per_level, err))
			return -1;
	for (sw = 0; sw < per_level; sw++)
		if (gen_attach_hosts(fabric, &guids, sw, ft->k, err))
			return -1;
	return 0;
}
