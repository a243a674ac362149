/*
 * gen_kautz.c - switches wired as the Kautz graph K(b, n), hosts on every
 * switch.
 *
 * A switch is a word s1..sn of symbols 0..b with no symbol twice in a row:
 * (b+1)*b^(n-1) switches. Each has an arc to s2..sn x for every x != sn,
 * and each arc is one link, so a switch has b outgoing and b incoming
 * links (two words may be joined twice, as 01 and 10 are) and every
 * switch reaches every other along at most n arcs. Switches are numbered
 * in the words' lexicographic order, index s1*b^(n-1) + sum over j >= 2 of
 * rank_j*b^(n-j), rank_j = s_j - (s_j > s_(j-1) ? 1 : 0), and named
 * kautz_s1_s2_..._sn. With T host ports a switch (T = the hosts per
 * switch, or the endpoints spread over the switches, rounded up), the arc
 * to x leaves from port T+1+rank(x, sn) and enters port T+b+1+rank(s1, t1)
 * of the next switch, t1 its first symbol; rank(x, s) = x - (x > s ? 1 : 0).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "gen_common.h"

#define KAUTZ_MAX_LENGTH 16

static unsigned rank(unsigned x, unsigned s)
{
	return x - (x > s);
}

static void decode(const struct vlr_kautz_params *kautz, uint32_t index,
		   uint32_t per_first, unsigned *word)
{
	unsigned j;

	word[0] = index / per_first;
	index %= per_first;
	for (j = 1; j < kautz->n; j++) {
		uint32_t place = per_first;
		unsigned r, t;

		for (t = 0; t < j; t++)
			place /= kautz->b;
		r = index / place;
		index %= place;
		word[j] = r + (r >= word[j - 1]);
	}
}

static uint32_t encode(const struct vlr_kautz_params *kautz, const unsigned *word)
{
	uint32_t index = word[0];
	unsigned j;

	for (j = 1; j < kautz->n; j++)
		index = index * kautz->b + rank(word[j], word[j - 1]);
	return index;
}

/* Check the parameters; the switches and the host ports of each. */
static int check_kautz(const struct vlr_kautz_params *kautz, uint64_t *switches,
		       unsigned *host_ports, struct vlr_error *err)
{
	unsigned j;

	if (gen_check_range("b (out-degree)", kautz->b, 2,
			    (VLR_MAX_NODE_PORTS - 1) / 2, err) ||
	    gen_check_range("n (word length)", kautz->n, 1, KAUTZ_MAX_LENGTH, err))
		return -1;
	*switches = kautz->b + 1;
	for (j = 1; j < kautz->n; j++)
		*switches = gen_times(*switches, kautz->b);
	if (kautz->endpoints)
		*host_ports = gen_spread(kautz->endpoints, *switches, 0);
	else if (gen_check_range("hosts per switch", kautz->hosts, 1,
				 VLR_MAX_NODE_PORTS, err))
		return -1;
	else
		*host_ports = kautz->hosts;
	if (gen_check_radix(*host_ports + 2ull * kautz->b,
			    "host ports + 2b links to other switches", err) ||
	    gen_check_size(*switches > UINT64_MAX / 2 ? UINT64_MAX :
			   *switches + gen_times(*switches, *host_ports), err))
		return -1;
	return gen_check_lids(*switches, kautz->endpoints ? kautz->endpoints :
			      *switches * kautz->hosts, err);
}

static int link_switch(struct vlr_fabric *fabric, const struct vlr_kautz_params *kautz,
		       uint32_t sw, uint32_t per_first, unsigned host_ports,
		       struct vlr_error *err)
{
	unsigned word[KAUTZ_MAX_LENGTH + 1], last, x;

	decode(kautz, sw, per_first, word);
	last = word[kautz->n - 1];
	for (x = 0; x <= kautz->b; x++) {
		uint32_t next;

		if (x == last)
			continue;
		word[kautz->n] = x;
		next = encode(kautz, word + 1);
		if (vlr_fabric_link(fabric, sw, host_ports + 1 + rank(x, last), next,
				    host_ports + kautz->b + 1 + rank(word[0], word[1]), err))
			return -1;
	}
	return 0;
}

int vlr_gen_kautz(struct vlr_fabric *fabric, const struct vlr_kautz_params *kautz,
		  struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	unsigned word[KAUTZ_MAX_LENGTH], host_ports;
	uint32_t count, per_first, sw;
	struct gen_guids guids;
	uint64_t switches, hosts;

	if (check_kautz(kautz, &switches, &host_ports, err))
		return -1;
	count = (uint32_t)switches;
	per_first = count / (kautz->b + 1);
	hosts = kautz->endpoints ? kautz->endpoints : (uint64_t)count * kautz->hosts;
	if (vlr_fabric_reserve(fabric, count + (uint32_t)hosts,
			       count * (host_ports + 2 * kautz->b + 1) + 2 * (uint32_t)hosts,
			       err))
		return -1;
	gen_guids_init(&guids);
	for (sw = 0; sw < count; sw++) {
		decode(kautz, sw, per_first, word);
		gen_grid_name(name, sizeof(name), "kautz", word, kautz->n);
		if (gen_add_switch(fabric, &guids, name, host_ports + 2 * kautz->b,
				   err) == VLR_NONE)
			return -1;
	}
	for (sw = 0; sw < count; sw++)
		if (link_switch(fabric, kautz, sw, per_first, host_ports, err))
			return -1;
	for (sw = 0; sw < count; sw++)
		if (gen_attach_hosts(fabric, &guids, sw, gen_spread(hosts, count, sw), err))
			return -1;
	return 0;
}
