/*
 * test_analyze.c - unit tests of the static congestion analysis: values
 * computed by hand on a crossbar, a ring, a 4x4 torus with dimension-order
 * routes and a two-level fat tree; spread DLIDs over LMC LIDs; the
 * all-to-all in-tree computation against the route-by-route walk;
 * reproducible, thread-count-independent ebb whose interval narrows with
 * more patterns; patterns that rate the same whatever the order of the
 * nodes; refused tables; the route-info file.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define EPS 1e-12

/* ---- building small fabrics and tables by hand ---- */

static struct vlr_tables *make_tables(struct vlr_fabric *fabric, unsigned lmc)
{
	struct vlr_error err;
	struct vlr_tables *tables;

	assert_int_equal(vlr_fabric_assign_lids(fabric, lmc, &err), 0);
	tables = vlr_tables_new(fabric, 8, &err);
	if (!tables)
		fail_msg("tables: %s", err.message);
	tables->owns_fabric = 1;
	return tables;
}

/* Switch sw_node sends LID offset `offset` of host `host` out of port. */
static void route(struct vlr_tables *t, uint32_t sw_node, uint32_t host, unsigned offset,
		  unsigned port)
{
	uint16_t lid = vlr_port_at(t->fabric, host, 1)->lid + offset;

	vlr_tables_lft(t, t->switch_of_node[sw_node])[lid] = (uint8_t)port;
}

static struct vlr_analysis *analyse(const struct vlr_tables *t, enum vlr_dlid_choice choice,
				    unsigned threads)
{
	struct vlr_analyze_options options = { choice, threads };
	struct vlr_error err;
	struct vlr_analysis *a = vlr_analysis_new(t, &options, &err);

	if (!a)
		fail_msg("analysis: %s", err.message);
	return a;
}

/* The server index of a host node. */
static uint32_t server_of(const struct vlr_analysis *a, const struct vlr_fabric *fabric,
			  uint32_t host)
{
	const struct vlr_servers *servers = vlr_analysis_servers(a);
	uint32_t s;

	for (s = 0; s < servers->count; s++)
		if (servers->port[s] == vlr_port_index(fabric, host, 1))
			return s;
	fail_msg("host %s is no server", vlr_node_name(fabric, host));
	return VLR_NONE;
}

/* Rate the mapping host_from[i] -> host_to[i]; other servers idle. */
static struct vlr_pattern_report rate_hosts(const struct vlr_analysis *a,
					    const struct vlr_fabric *fabric,
					    const uint32_t *from, const uint32_t *to,
					    unsigned count)
{
	const struct vlr_servers *servers = vlr_analysis_servers(a);
	uint32_t *dest = malloc(sizeof(uint32_t) * servers->count);
	struct vlr_pattern_report report;
	struct vlr_error err;
	unsigned i;

	assert_non_null(dest);
	for (i = 0; i < servers->count; i++)
		dest[i] = VLR_NONE;
	for (i = 0; i < count; i++)
		dest[server_of(a, fabric, from[i])] = server_of(a, fabric, to[i]);
	if (vlr_analyze_mapping(a, dest, "fixed", &report, &err))
		fail_msg("mapping: %s", err.message);
	free(dest);
	return report;
}

static double channel_load(const struct vlr_analysis *a, const struct vlr_fabric *fabric,
			   uint32_t node, unsigned port)
{
	return vlr_analysis_channel_load(a, vlr_port_index(fabric, node, port));
}

/* ---- a single crossbar: nothing ever shares a link but the endpoints ---- */

#define XBAR_HOSTS 8

static struct vlr_tables *crossbar(uint32_t *hosts)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	uint32_t sw = test_add_switch(fabric, "xbar", XBAR_HOSTS), i;
	struct vlr_tables *t;
	char name[16];

	for (i = 0; i < XBAR_HOSTS; i++) {
		snprintf(name, sizeof(name), "h%u", i);
		hosts[i] = test_add_host(fabric, name, sw, i + 1);
	}
	t = make_tables(fabric, 0);
	for (i = 0; i < XBAR_HOSTS; i++)
		route(t, sw, hosts[i], 0, i + 1);
	return t;
}

static void test_crossbar_ebb_is_one(void **state)
{
	uint32_t hosts[XBAR_HOSTS];
	struct vlr_tables *t = crossbar(hosts);
	struct vlr_analysis *a = analyse(t, VLR_DLID_BASE, 2);
	const struct vlr_linkload_report *l = vlr_analysis_linkload(a);
	struct vlr_pattern_report ebb;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_analyze_ebb(a, 50, 7, &ebb, &err), 0);
	assert_true(ebb.mean == 1.0);
	assert_true(ebb.ci_half == 0.0);
	assert_true(ebb.pair_min == 1.0);
	assert_true(ebb.congestion_max == 1.0);
	assert_int_equal(ebb.pairs, 50 * XBAR_HOSTS);
	/* all-to-all: 7 routes on every injection and ejection link */
	assert_int_equal(l->pairs, XBAR_HOSTS * (XBAR_HOSTS - 1));
	assert_true(l->by_class[VLR_CHANNEL_INJECTION].max == 7.0);
	assert_true(l->by_class[VLR_CHANNEL_EJECTION].min == 7.0);
	assert_int_equal(l->switch_links.channels, 0);
	assert_true(fabs(l->bandwidth_mean - 1.0 / 7) < EPS);
	assert_int_equal(l->hops_min, 2);
	assert_int_equal(l->hops_max, 2);
	vlr_analysis_free(a);
	vlr_tables_free(t);
}

/* ---- a ring of four switches, routed clockwise only ---- */

#define RING 4

/*
 * Switch r_i: port 1 host hI, port 2 clockwise to r_i+1, port 3 from
 * r_i-1. LID offset 0 of every host goes clockwise; with LMC 1, offset 1
 * goes counter-clockwise.
 */
static struct vlr_tables *ring(uint32_t *sw, uint32_t *hosts, unsigned lmc)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *t;
	uint32_t i, j;
	char name[16];

	for (i = 0; i < RING; i++) {
		snprintf(name, sizeof(name), "r_%u", i);
		sw[i] = test_add_switch(fabric, name, 3);
		snprintf(name, sizeof(name), "h%u", i);
		hosts[i] = test_add_host(fabric, name, sw[i], 1);
	}
	for (i = 0; i < RING; i++)
		test_join(fabric, sw[i], 2, sw[(i + 1) % RING], 3);
	t = make_tables(fabric, lmc);
	for (i = 0; i < RING; i++)
		for (j = 0; j < RING; j++) {
			route(t, sw[i], hosts[j], 0, i == j ? 1 : 2);
			if (lmc)
				route(t, sw[i], hosts[j], 1, i == j ? 1 : 3);
		}
	return t;
}

static void test_ring_congestion(void **state)
{
	uint32_t sw[RING], hosts[RING], to2[RING], to1[RING], i;
	struct vlr_tables *t = ring(sw, hosts, 0);
	struct vlr_analysis *a = analyse(t, VLR_DLID_BASE, 1);
	const struct vlr_linkload_report *l = vlr_analysis_linkload(a);
	struct vlr_pattern_report r;

	(void)state;
	for (i = 0; i < RING; i++) {
		to2[i] = hosts[(i + 2) % RING];
		to1[i] = hosts[(i + 1) % RING];
	}
	/* every clockwise link carries the routes of two sources */
	r = rate_hosts(a, t->fabric, hosts, to2, RING);
	assert_true(fabs(r.mean - 0.5) < EPS);
	assert_true(fabs(r.pair_min - 0.5) < EPS);
	assert_true(r.congestion_max == 2.0);
	/* ... and of one under shift by one */
	r = rate_hosts(a, t->fabric, hosts, to1, RING);
	assert_true(r.mean == 1.0);
	assert_true(r.congestion_max == 1.0);
	/* all-to-all: 1 + 2 + 3 routes on every clockwise link, none back */
	for (i = 0; i < RING; i++) {
		assert_true(channel_load(a, t->fabric, sw[i], 2) == 6.0);
		assert_true(channel_load(a, t->fabric, sw[i], 3) == 0.0);
	}
	assert_true(l->switch_links.max == 6.0);
	assert_true(l->switch_links.mean == 3.0);
	assert_true(fabs(l->bandwidth_mean - 1.0 / 6) < EPS);
	assert_int_equal(l->hops_max, 5);
	assert_true(fabs(l->hops_mean - 4.0) < EPS);
	assert_int_equal(l->hottest_count, RING * 2);
	assert_true(l->hottest[0].load == 6.0);
	vlr_analysis_free(a);
	vlr_tables_free(t);
}

/* LMC 1: spreading over the clockwise and counter-clockwise LIDs halves the load. */
static void test_ring_spread(void **state)
{
	uint32_t sw[RING], hosts[RING], to2[RING], i;
	struct vlr_tables *t = ring(sw, hosts, 1);
	struct vlr_analysis *base = analyse(t, VLR_DLID_BASE, 1);
	struct vlr_analysis *spread = analyse(t, VLR_DLID_SPREAD, 1);
	struct vlr_pattern_report r;

	(void)state;
	for (i = 0; i < RING; i++)
		to2[i] = hosts[(i + 2) % RING];
	r = rate_hosts(base, t->fabric, hosts, to2, RING);
	assert_true(fabs(r.mean - 0.5) < EPS);
	/* each half-share route: 2 halves per link, congestion 1, full rate */
	r = rate_hosts(spread, t->fabric, hosts, to2, RING);
	assert_true(fabs(r.mean - 1.0) < EPS);
	assert_true(r.congestion_max == 1.0);
	/* all-to-all spread: 3 routes a way on every ring link */
	for (i = 0; i < RING; i++) {
		assert_true(channel_load(spread, t->fabric, sw[i], 2) == 3.0);
		assert_true(channel_load(spread, t->fabric, sw[i], 3) == 3.0);
	}
	assert_int_equal(vlr_analysis_linkload(spread)->routes, 2 * RING * (RING - 1));
	vlr_analysis_free(base);
	vlr_analysis_free(spread);
	vlr_tables_free(t);
}

/* ---- a 4x4 torus with dimension-order routes (x first, ties go +) ---- */

#define SIDE 4

/* Ports: 1 host, 2 +x, 3 -x, 4 +y, 5 -y. */
static struct vlr_tables *torus(uint32_t sw[SIDE][SIDE], uint32_t hosts[SIDE][SIDE])
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *t;
	unsigned x, y, u, v;
	char name[16];

	for (x = 0; x < SIDE; x++)
		for (y = 0; y < SIDE; y++) {
			snprintf(name, sizeof(name), "t_%u_%u", x, y);
			sw[x][y] = test_add_switch(fabric, name, 5);
			snprintf(name, sizeof(name), "h_%u_%u", x, y);
			hosts[x][y] = test_add_host(fabric, name, sw[x][y], 1);
		}
	for (x = 0; x < SIDE; x++)
		for (y = 0; y < SIDE; y++) {
			test_join(fabric, sw[x][y], 2, sw[(x + 1) % SIDE][y], 3);
			test_join(fabric, sw[x][y], 4, sw[x][(y + 1) % SIDE], 5);
		}
	t = make_tables(fabric, 0);
	for (x = 0; x < SIDE; x++)
		for (y = 0; y < SIDE; y++)
			for (u = 0; u < SIDE; u++)
				for (v = 0; v < SIDE; v++) {
					unsigned dx = (u + SIDE - x) % SIDE, dy = (v + SIDE - y) % SIDE;
					unsigned port = dx ? (dx <= SIDE / 2 ? 2 : 3) :
							dy ? (dy <= SIDE / 2 ? 4 : 5) : 1;

					route(t, sw[x][y], hosts[u][v], 0, port);
				}
	return t;
}

static void test_torus_congestion(void **state)
{
	uint32_t sw[SIDE][SIDE], hosts[SIDE][SIDE], from[SIDE * SIDE], to[SIDE * SIDE];
	struct vlr_tables *t = torus(sw, hosts);
	struct vlr_analysis *a = analyse(t, VLR_DLID_BASE, 2);
	const struct vlr_linkload_report *l = vlr_analysis_linkload(a);
	struct vlr_pattern_report r;
	unsigned x, y, n = 0;

	(void)state;
	/* (x,y) -> (x+2, y+1): every +x link carries two routes, every +y link one */
	for (x = 0; x < SIDE; x++)
		for (y = 0; y < SIDE; y++) {
			from[n] = hosts[x][y];
			to[n++] = hosts[(x + 2) % SIDE][(y + 1) % SIDE];
		}
	r = rate_hosts(a, t->fabric, from, to, n);
	assert_true(fabs(r.mean - 0.5) < EPS);
	assert_true(r.congestion_max == 2.0);
	/*
	 * All-to-all: +x link (0,y)->(1,y) carries sources x=0 to x'=1,2 and
	 * x=3 to x'=1, each to 4 rows: 12; -x only x' = x-1: 4; y alike.
	 */
	for (x = 0; x < SIDE; x++)
		for (y = 0; y < SIDE; y++) {
			assert_true(channel_load(a, t->fabric, sw[x][y], 2) == 12.0);
			assert_true(channel_load(a, t->fabric, sw[x][y], 3) == 4.0);
			assert_true(channel_load(a, t->fabric, sw[x][y], 4) == 12.0);
			assert_true(channel_load(a, t->fabric, sw[x][y], 5) == 4.0);
		}
	assert_int_equal(l->switch_links.channels, 4 * SIDE * SIDE);
	assert_true(l->switch_links.min == 4.0 && l->switch_links.max == 12.0);
	assert_true(l->switch_links.mean == 8.0);
	assert_int_equal(l->histogram[0], 2 * SIDE * SIDE);
	assert_int_equal(l->histogram[VLR_ANALYZE_BINS - 1], 2 * SIDE * SIDE);
	vlr_analysis_free(a);
	vlr_tables_free(t);
}

/* ---- a two-level fat tree: 2 leaves of 2 hosts, 2 spines ---- */

/* Leaf ports 1-2 hosts, 3 spine 0, 4 spine 1; spine port i+1 to leaf i. */
static struct vlr_tables *fat_tree(uint32_t *hosts, int balanced)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	uint32_t leaf[2], spine[2], i, j, h;
	struct vlr_tables *t;
	char name[16];

	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "leaf%u", i);
		leaf[i] = test_add_switch(fabric, name, 4);
		snprintf(name, sizeof(name), "spine%u", i);
		spine[i] = test_add_switch(fabric, name, 2);
	}
	for (h = 0; h < 4; h++) {
		snprintf(name, sizeof(name), "h%u", h);
		hosts[h] = test_add_host(fabric, name, leaf[h / 2], h % 2 + 1);
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			test_join(fabric, leaf[i], 3 + j, spine[j], i + 1);
	t = make_tables(fabric, 0);
	for (h = 0; h < 4; h++) {
		for (i = 0; i < 2; i++) {
			route(t, spine[i], hosts[h], 0, h / 2 + 1);
			route(t, leaf[i], hosts[h], 0, h / 2 == i ? h % 2 + 1 :
			      balanced ? 3 + h % 2 : 3);
		}
	}
	return t;
}

static void test_fat_tree_congestion(void **state)
{
	uint32_t hosts[4], from[4], to[4], i;
	struct vlr_tables *good = fat_tree(hosts, 1), *bad;
	struct vlr_analysis *a = analyse(good, VLR_DLID_BASE, 1);
	struct vlr_pattern_report r;
	struct vlr_error err;

	(void)state;
	for (i = 0; i < 4; i++) {
		from[i] = hosts[i];
		to[i] = hosts[(i + 2) % 4];
	}
	/* d-mod-k: the two routes leaving a leaf take different spines */
	r = rate_hosts(a, good->fabric, from, to, 4);
	assert_true(r.mean == 1.0);
	/* non-blocking: every bisection at full bandwidth */
	assert_int_equal(vlr_analyze_ebb(a, 20, 3, &r, &err), 0);
	assert_true(r.mean == 1.0);
	vlr_analysis_free(a);
	vlr_tables_free(good);
	/* everything up through spine 0: two routes per up and down link */
	bad = fat_tree(hosts, 0);
	a = analyse(bad, VLR_DLID_BASE, 1);
	r = rate_hosts(a, bad->fabric, from, to, 4);
	assert_true(fabs(r.mean - 0.5) < EPS);
	assert_true(r.congestion_max == 2.0);
	assert_int_equal(vlr_analyze_ebb(a, 20, 3, &r, &err), 0);
	assert_true(r.mean < 1.0 && r.mean >= 0.5);
	vlr_analysis_free(a);
	vlr_tables_free(bad);
}

/* ---- a generated Dragonfly routed by sssp ---- */

static struct vlr_tables *dragonfly_tables(unsigned lmc)
{
	struct vlr_family_params params;
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *t;
	struct vlr_error err;

	memset(&params, 0, sizeof(params));
	memset(&options, 0, sizeof(options));
	params.family = VLR_FAMILY_DRAGONFLY;
	params.u.dragonfly.p = 2;
	params.u.dragonfly.a = 4;
	params.u.dragonfly.h = 2;
	t = make_tables(test_generate(&params), lmc);
	if (vlr_route_sssp(t, &options, &report, &err))
		fail_msg("sssp: %s", err.message);
	return t;
}

/* The in-tree all-to-all equals the route-by-route walk, base and spread. */
static void test_trees_match_walk(void **state)
{
	static const enum vlr_dlid_choice choices[] = { VLR_DLID_BASE, VLR_DLID_SPREAD };
	struct vlr_pattern_spec spec;
	struct vlr_pattern_report r;
	struct vlr_error err;
	unsigned i;

	(void)state;
	assert_int_equal(vlr_pattern_parse("all2all", &spec, &err), 0);
	for (i = 0; i < 2; i++) {
		struct vlr_tables *t = dragonfly_tables(1);
		struct vlr_analysis *a = analyse(t, choices[i], 3);
		const struct vlr_linkload_report *l = vlr_analysis_linkload(a);

		assert_int_equal(vlr_analyze_pattern(a, &spec, 5, 1, &r, &err), 0);
		assert_int_equal(r.instances, 1);
		assert_int_equal(r.pairs, l->pairs);
		assert_true(fabs(r.mean - l->bandwidth_mean) < 1e-9);
		assert_true(fabs(r.pair_min - l->bandwidth_min) < 1e-12);
		assert_non_null(vlr_analysis_topology(a));
		assert_true(l->by_class[VLR_CHANNEL_GLOBAL].channels > 0);
		assert_true(l->by_class[VLR_CHANNEL_LOCAL].channels > 0);
		vlr_analysis_free(a);
		vlr_tables_free(t);
	}
}

static void test_ebb_reproducible(void **state)
{
	struct vlr_tables *t = dragonfly_tables(0);
	struct vlr_analysis *one = analyse(t, VLR_DLID_BASE, 1);
	struct vlr_analysis *three = analyse(t, VLR_DLID_BASE, 3);
	struct vlr_pattern_report a, b, c, few, many;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_analyze_ebb(one, 64, 11, &a, &err), 0);
	assert_int_equal(vlr_analyze_ebb(three, 64, 11, &b, &err), 0);
	assert_int_equal(vlr_analyze_ebb(three, 64, 12, &c, &err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.mean != c.mean);
	assert_true(a.mean > 0.0 && a.mean < 1.0);
	assert_true(a.ci_half > 0.0);
	assert_true(a.instance_min <= a.mean && a.mean <= a.instance_max);
	/* more patterns, narrower interval */
	assert_int_equal(vlr_analyze_ebb(three, 10, 5, &few, &err), 0);
	assert_int_equal(vlr_analyze_ebb(three, 640, 5, &many, &err), 0);
	assert_true(many.ci_half < few.ci_half / 3);
	assert_true(fabs(many.mean - few.mean) < few.ci_half * 2);
	vlr_analysis_free(one);
	vlr_analysis_free(three);
	vlr_tables_free(t);
}

static void test_patterns(void **state)
{
	struct vlr_tables *t = dragonfly_tables(0);
	struct vlr_analysis *a = analyse(t, VLR_DLID_RANDOM, 2);
	struct vlr_pattern_spec adv, perm;
	struct vlr_pattern_report r, p1, p2;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_pattern_parse("adv+1", &adv, &err), 0);
	assert_int_equal(vlr_analyze_pattern(a, &adv, 30, 1, &r, &err), 0);
	assert_string_equal(r.name, "adv+1");
	assert_int_equal(r.instances, 1);
	/* a group's 8 servers crowd the few ways to G+1 */
	assert_true(r.congestion_max >= 2.0);
	assert_int_equal(r.pairs, 72);
	assert_int_equal(vlr_pattern_parse("perm", &perm, &err), 0);
	assert_int_equal(vlr_analyze_pattern(a, &perm, 30, 1, &p1, &err), 0);
	assert_int_equal(vlr_analyze_pattern(a, &perm, 30, 1, &p2, &err), 0);
	assert_int_equal(p1.instances, 30);
	assert_memory_equal(&p1, &p2, sizeof(p1));
	assert_true(p1.mean > r.mean + 0.1);
	vlr_analysis_free(a);
	vlr_tables_free(t);
}

/* A generated fabric with LIDs and minimal routes. */
static struct vlr_tables *minimal_tables(const struct vlr_family_params *params)
{
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *t = make_tables(test_generate(params), 0);
	struct vlr_error err;

	vlr_engine_options_init(&options);
	if (vlr_route_minimal(t, &options, &report, &err))
		fail_msg("minimal: %s", err.message);
	return t;
}

/* The same LFTs on the same fabric, its nodes in another order. */
static struct vlr_tables *reordered(const struct vlr_tables *t, uint64_t seed)
{
	uint32_t *new_of = malloc(sizeof(uint32_t) * t->fabric->num_nodes), sw;
	struct vlr_fabric *copy = test_reordered(t->fabric, seed, new_of);
	struct vlr_tables *c;
	struct vlr_error err;

	c = vlr_tables_new(copy, 8, &err);
	if (!c)
		fail_msg("tables: %s", err.message);
	c->owns_fabric = 1;
	assert_int_equal(c->lid_stride, t->lid_stride);
	for (sw = 0; sw < t->num_switches; sw++)
		memcpy(vlr_tables_lft(c, c->switch_of_node[new_of[t->switch_node[sw]]]),
		       vlr_tables_lft(t, sw), t->lid_stride);
	free(new_of);
	return c;
}

/* Every pattern, and the ebb, rate the same whatever the order of the nodes. */
static void rate_in_any_order(const struct vlr_family_params *params, const char *const *names)
{
	struct vlr_tables *t = minimal_tables(params);
	struct vlr_analysis *a = analyse(t, VLR_DLID_BASE, 2);
	struct vlr_pattern_report want, got;
	struct vlr_pattern_spec spec;
	struct vlr_error err;
	uint64_t seed;
	unsigned i;

	for (seed = 1; seed <= 2; seed++) {
		struct vlr_tables *c = reordered(t, seed);
		struct vlr_analysis *b = analyse(c, VLR_DLID_BASE, 2);

		assert_int_equal(vlr_analyze_ebb(a, 20, 3, &want, &err), 0);
		assert_int_equal(vlr_analyze_ebb(b, 20, 3, &got, &err), 0);
		assert_memory_equal(&want, &got, sizeof(want));
		for (i = 0; names[i]; i++) {
			assert_int_equal(vlr_pattern_parse(names[i], &spec, &err), 0);
			assert_int_equal(vlr_analyze_pattern(a, &spec, 20, 3, &want, &err), 0);
			assert_int_equal(vlr_analyze_pattern(b, &spec, 20, 3, &got, &err), 0);
			if (memcmp(&want, &got, sizeof(want)))
				fail_msg("%s: %f in file order, %f in order %llu", names[i], want.mean,
					 got.mean, (unsigned long long)seed);
		}
		vlr_analysis_free(b);
		vlr_tables_free(c);
	}
	vlr_analysis_free(a);
	vlr_tables_free(t);
}

static void test_patterns_ignore_node_order(void **state)
{
	static const char *const dragonfly[] = {
		"adv+1", "adv+2", "adv+3", "advr+1", "advc", "adv-local", "hot", "perm", "un",
		"all2all", NULL
	};
	static const char *const hyperx[] = {
		"shift+1", "shift+1,2", "shift+0,1", "hot", "perm", "un", NULL
	};
	struct vlr_family_params params;

	(void)state;
	memset(&params, 0, sizeof(params));
	params.family = VLR_FAMILY_DRAGONFLY;
	params.u.dragonfly = (struct vlr_dragonfly_params){ 2, 4, 2, 6, VLR_ARRANGEMENT_PALMTREE };
	rate_in_any_order(&params, dragonfly);
	params.family = VLR_FAMILY_DRAGONFLYPLUS;
	params.u.dragonflyplus = (struct vlr_dragonflyplus_params){
		3, 2, 2, 2, 4, VLR_ARRANGEMENT_PALMTREE };
	rate_in_any_order(&params, dragonfly);
	params.family = VLR_FAMILY_HYPERX;
	params.u.grid = (struct vlr_grid_params){ 2, { 4, 3 }, 2 };
	rate_in_any_order(&params, hyperx);
}

/* A switch the tables do not route is named; a pattern without its topology fails. */
static void test_refused(void **state)
{
	uint32_t sw[RING], hosts[RING];
	struct vlr_tables *t = ring(sw, hosts, 0);
	struct vlr_analyze_options options = { VLR_DLID_BASE, 1 };
	struct vlr_analysis *a = analyse(t, VLR_DLID_BASE, 1);
	struct vlr_pattern_spec adv;
	struct vlr_pattern_report r;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_pattern_parse("adv+1", &adv, &err), 0);
	assert_int_equal(vlr_analyze_pattern(a, &adv, 3, 1, &r, &err), -1);
	assert_non_null(strstr(err.message, "Dragonfly"));
	vlr_analysis_free(a);
	memset(vlr_tables_lft(t, t->switch_of_node[sw[2]]), VLR_NO_PORT, t->lid_stride);
	assert_null(vlr_analysis_new(t, &options, &err));
	assert_non_null(strstr(err.message, "switch r_2 has no LFT entry"));
	/* a loop: r_1 sends h3's LID back where it came from */
	memset(vlr_tables_lft(t, t->switch_of_node[sw[2]]), 2, t->lid_stride);
	route(t, sw[2], hosts[2], 0, 1);
	route(t, sw[1], hosts[3], 0, 3);
	assert_null(vlr_analysis_new(t, &options, &err));
	assert_non_null(strstr(err.message, "is not delivered"));
	vlr_tables_free(t);
}

/* The analyses take base, spread and random and refuse the simulator's rules. */
static void test_dlid_choices(void **state)
{
	uint32_t sw[RING], hosts[RING];
	struct vlr_tables *t = ring(sw, hosts, 0);
	struct vlr_analyze_options options = { VLR_DLID_ADAPTIVE, 1 };
	enum vlr_dlid_choice choice = VLR_DLID_BASE;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_analyze_dlid_parse("spread", &choice, &err), 0);
	assert_int_equal(choice, VLR_DLID_SPREAD);
	assert_int_not_equal(vlr_analyze_dlid_parse("recompute", &choice, &err), 0);
	assert_string_equal(err.message,
			    "the DLID choice is base, spread or random, not \"recompute\"");
	assert_int_equal(choice, VLR_DLID_SPREAD);
	assert_null(vlr_analysis_new(t, &options, &err));
	assert_string_equal(err.message, "the analysis takes the DLID choice base, spread or "
			    "random, not adaptive");
	assert_string_equal(vlr_dlid_choice_name(VLR_DLID_RESTRICTED), "restricted");
	vlr_tables_free(t);
}

static void test_student_t(void **state)
{
	(void)state;
	assert_true(fabs(vlr_student_t95(1) - 12.706) < 1e-9);
	assert_true(fabs(vlr_student_t95(30) - 2.042) < 1e-9);
	assert_true(fabs(vlr_student_t95(31) - 2.0395) < 1e-3);
	assert_true(fabs(vlr_student_t95(999) - 1.9623) < 1e-3);
	assert_true(vlr_student_t95(100000) > 1.95996 && vlr_student_t95(100000) < 1.9600);
}

/* vlroute-route.info: engine, seconds and the mark of unprogrammable tables. */
static void test_route_info(void **state)
{
	char *path = test_write_file("vlroute-route.info", "# made by hand\nengine dfsssp\n"
				     "seconds 12.5\nlayers 3\n");
	char dir[4096], text[96];
	struct vlr_route_info info, back;
	struct vlr_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	assert_int_equal(vlr_route_info_read(dir, &info, &err), 0);
	assert_string_equal(info.engine, "dfsssp");
	assert_true(info.seconds == 12.5);
	assert_string_equal(info.vl_policy, "");
	assert_int_equal(info.lmc, -1);
	snprintf(info.engine, sizeof(info.engine), "valiant");
	info.seconds = 0.25;
	snprintf(info.vl_policy, sizeof(info.vl_policy), "2phases minlast K=2 (4 VLs)");
	info.lmc = 3;
	assert_int_equal(vlr_route_info_write(dir, &info, &err), 0);
	assert_int_equal(vlr_route_info_read(dir, &back, &err), 0);
	assert_string_equal(back.engine, "valiant");
	assert_true(back.seconds == 0.25);
	assert_string_equal(back.vl_policy, "2phases minlast K=2 (4 VLs)");
	assert_int_equal(back.lmc, 3);
	free(test_write_file("vlroute-route.info", "seconds soon\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:1:"));
	/* the mark of tables for ideal VLs only */
	info.unprogrammable = (struct vlr_unprogrammable){ 1, VLR_MANY_SLS, 5, 8 };
	assert_int_equal(vlr_route_info_write(dir, &info, &err), 0);
	assert_int_equal(vlr_route_info_read(dir, &back, &err), 0);
	assert_memory_equal(&back.unprogrammable, &info.unprogrammable,
			    sizeof(info.unprogrammable));
	vlr_unprogrammable_describe(&back.unprogrammable, text, sizeof(text));
	assert_string_equal(text, "not programmable: needs more than 64 SLs");
	free(test_write_file("vlroute-route.info", "engine valiant\nprogrammable maybe\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:2: programmable is yes or no"));
	free(test_write_file("vlroute-route.info", "programmable no\nneeds-sls 4\n"
			     "needs-vls 2\noffered-vls 8\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "\"programmable no\" needs what the tables need"));
	free(test_write_file("vlroute-route.info", "needs-sls many\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, ":1: needs-sls needs a count"));
	free(test_write_file("vlroute-route.info", "engine sssp\nlmc 8\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:2: lmc needs a number 0..7"));
	unlink(path);
	assert_int_equal(vlr_route_info_read(dir, &back, &err), 0);
	assert_string_equal(back.engine, "");
	assert_true(back.seconds < 0);
	free(path);
}

/* vlroute-route.info: the data VLs the tables were routed for. */
static void test_route_info_vls(void **state)
{
	char *path = test_write_file("vlroute-route.info", "engine dfsssp\nlmc 0\n");
	char dir[4096];
	struct vlr_route_info info, back;
	struct vlr_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	assert_int_equal(vlr_route_info_read(dir, &info, &err), 0);
	assert_int_equal(info.vls, -1);	/* not known: an earlier release's file */
	info.vls = 15;
	assert_int_equal(vlr_route_info_write(dir, &info, &err), 0);
	assert_int_equal(vlr_route_info_read(dir, &back, &err), 0);
	assert_int_equal(back.vls, 15);
	assert_string_equal(back.engine, "dfsssp");
	assert_int_equal(back.lmc, 0);
	info.vls = 1;
	assert_int_equal(vlr_route_info_write(dir, &info, &err), 0);
	assert_int_equal(vlr_route_info_read(dir, &back, &err), 0);
	assert_int_equal(back.vls, 1);
	free(test_write_file("vlroute-route.info", "engine dfsssp\nvls 16\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:2: vls needs a number 1..15, "
			       "not \"16\""));
	free(test_write_file("vlroute-route.info", "vls 0\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:1: vls needs a number"));
	free(test_write_file("vlroute-route.info", "# by hand\nvls eight\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:2: vls needs a number"));
	free(test_write_file("vlroute-route.info", "vls -3\n"));
	assert_int_equal(vlr_route_info_read(dir, &back, &err), -1);
	assert_non_null(strstr(err.message, "vlroute-route.info:1: vls needs a number"));
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crossbar_ebb_is_one),
		cmocka_unit_test(test_ring_congestion),
		cmocka_unit_test(test_ring_spread),
		cmocka_unit_test(test_torus_congestion),
		cmocka_unit_test(test_fat_tree_congestion),
		cmocka_unit_test(test_trees_match_walk),
		cmocka_unit_test(test_ebb_reproducible),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_patterns_ignore_node_order),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_dlid_choices),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_route_info),
		cmocka_unit_test(test_route_info_vls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
