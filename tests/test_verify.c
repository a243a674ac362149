/*
 * test_verify.c - unit tests of the verifier: dependency cycles on a ring
 * and a triangle and how SLs break them, every kind of undelivered route,
 * exact statistics on a small line of switches, the JSON report, deadlock
 * freedom with and without path SLs, and random table sets checked against
 * a plain route-by-route reference.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* ---- building small fabrics and tables by hand ---- */

static struct vlr_tables *make_tables(struct vlr_fabric *fabric, unsigned vls)
{
	struct vlr_error err;
	struct vlr_tables *tables;

	assert_int_equal(vlr_fabric_assign_lids(fabric, 0, &err), 0);
	tables = vlr_tables_new(fabric, vls, &err);
	if (!tables)
		fail_msg("tables: %s", err.message);
	tables->owns_fabric = 1;
	return tables;
}

/* The (base) LID of a switch or of a one-port CA. */
static uint16_t lid_of(const struct vlr_fabric *fabric, uint32_t node)
{
	return vlr_port_at(fabric, node, vlr_node_is_switch(fabric, node) ? 0 : 1)->lid;
}

static uint8_t *lft_entry(struct vlr_tables *tables, uint32_t sw_node, uint32_t dest)
{
	return &vlr_tables_lft(tables, tables->switch_of_node[sw_node])
		[lid_of(tables->fabric, dest)];
}

static void verify(const struct vlr_tables *tables, struct vlr_verify_report *report)
{
	struct vlr_error err;

	assert_int_equal(vlr_verify(tables, report, &err), 0);
}

/* What vlr_verify_print or vlr_verify_write_json writes, as a string. */
static char *report_text(const struct vlr_verify_report *report, int json)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	if (json)
		assert_int_equal(vlr_verify_write_json(report, NULL, out), 0);
	else
		vlr_verify_print(report, out);
	assert_int_equal(fclose(out), 0);
	return text;
}

static void assert_contains(const char *text, const char *fragment)
{
	if (!strstr(text, fragment))
		fail_msg("\"%s\" lacks \"%s\"", text, fragment);
}

/* ---- the ring of the DFSSSP paper ---- */

#define RING 5

/*
 * Switch ring_i: port 1 its host hI, port 2 counter-clockwise to ring_i-1,
 * port 3 clockwise to ring_i+1. Every destination takes the shortest way:
 * one or two hops clockwise, or one or two counter-clockwise.
 */
static struct vlr_tables *ring_tables(uint32_t *hosts)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *tables;
	uint32_t sw[RING], i, j;
	char name[16];

	for (i = 0; i < RING; i++) {
		snprintf(name, sizeof(name), "ring_%u", i);
		sw[i] = test_add_switch(fabric, name, 3);
	}
	for (i = 0; i < RING; i++)
		test_join(fabric, sw[i], 3, sw[(i + 1) % RING], 2);
	for (i = 0; i < RING; i++) {
		snprintf(name, sizeof(name), "h%u", i);
		hosts[i] = test_add_host(fabric, name, sw[i], 1);
	}
	tables = make_tables(fabric, 2);
	for (i = 0; i < RING; i++)
		for (j = 0; j < RING; j++) {
			unsigned ahead = (j + RING - i) % RING;
			uint8_t out = ahead == 0 ? 1 : ahead <= 2 ? 3 : 2;

			*lft_entry(tables, sw[i], sw[j]) = ahead ? out : 0;
			*lft_entry(tables, sw[i], hosts[j]) = out;
		}
	assert_int_equal(vlr_tables_alloc_sl_rows(tables, RING, NULL), 0);
	for (i = 0; i < RING; i++)
		tables->port_sl_row[vlr_port_index(fabric, hosts[i], 1)] = i;
	return tables;
}

/* Routes from ring_i that cross the link between ring_4 and ring_0 take SL 1. */
static void ring_dateline(struct vlr_tables *tables, const uint32_t *hosts, int clockwise)
{
	uint32_t i, j;

	for (i = 0; i < RING; i++)
		for (j = 0; j < RING; j++) {
			unsigned ahead = (j + RING - i) % RING;
			int wraps = clockwise ? ahead && ahead <= 2 && i + ahead >= RING :
					      ahead > 2 && i < RING - ahead;
			uint8_t *row = vlr_tables_sl_row(tables, i);

			if (!wraps)
				continue;
			row[lid_of(tables->fabric, hosts[j])] = 1;
			row[lid_of(tables->fabric, tables->switch_node[j])] = 1;
		}
}

static void test_ring_cycle_and_dateline(void **state)
{
	struct vlr_verify_report report;
	uint32_t hosts[RING];
	struct vlr_tables *tables = ring_tables(hosts);
	uint32_t i;
	char *text;

	(void)state;
	for (i = 0; i < RING; i++)
		assert_int_equal(vlr_tables_sl2vl(tables, i, 2, 3)[1], 1);
	verify(tables, &report);
	assert_int_equal(report.routes, RING * (2 * RING - 1));
	assert_int_equal(report.bad_routes, 0);
	assert_false(report.cdg_acyclic);
	assert_false(vlr_verify_passed(&report));
	assert_int_equal(report.cycle_length, 5);
	assert_string_equal(report.cycle, "ring_0:2/0 -> ring_4:2/0 -> ring_3:2/0 -> "
			    "ring_2:2/0 -> ring_1:2/0 -> ring_0:2/0");
	assert_int_equal(report.vls_used, 1);

	/* counter-clockwise routes over the dateline on SL 1: the clockwise cycle */
	ring_dateline(tables, hosts, 0);
	verify(tables, &report);
	assert_false(report.cdg_acyclic);
	assert_string_equal(report.cycle, "ring_0:3/0 -> ring_1:3/0 -> ring_2:3/0 -> "
			    "ring_3:3/0 -> ring_4:3/0 -> ring_0:3/0");
	text = report_text(&report, 0);
	assert_contains(text, "channel dependencies: CYCLE of 5 steps: ring_0:3/0 -> ");
	free(text);

	ring_dateline(tables, hosts, 1);
	verify(tables, &report);
	assert_true(report.cdg_acyclic);
	assert_true(vlr_verify_passed(&report));
	assert_int_equal(report.vls_used, 2);
	assert_int_equal(report.vl_mask, 0x3);
	assert_int_equal(report.sls_used, 2);
	assert_int_equal(report.cycle_length, 0);
	text = report_text(&report, 0);
	assert_contains(text, "VLs used: 2 (0-1) of 2 offered\n");
	assert_contains(text, "SLs used: 2 (0-1)\n");
	assert_contains(text, "channel dependencies: acyclic\n");
	assert_contains(text, "verdict: passed\n");
	free(text);

	/* clockwise SL 1 mapped back onto VL 0 brings the clockwise cycle back */
	for (i = 0; i < RING; i++) {
		vlr_tables_sl2vl(tables, i, 1, 3)[1] = 0;
		vlr_tables_sl2vl(tables, i, 2, 3)[1] = 0;
	}
	verify(tables, &report);
	assert_false(report.cdg_acyclic);
	assert_string_equal(report.cycle, "ring_0:3/0 -> ring_1:3/0 -> ring_2:3/0 -> "
			    "ring_3:3/0 -> ring_4:3/0 -> ring_0:3/0");
	vlr_tables_free(tables);
}

/* ---- a triangle with one detour per switch ---- */

struct triangle {
	struct vlr_tables *tables;
	uint32_t sw[3];
	uint32_t host[3];
};

/*
 * tri_a, tri_b, tri_c: port 1 a host, port 2 to the next switch (a->b->c->a),
 * port 3 to the previous. Every route goes direct, except that each
 * switch sends the host of its previous switch the long way round, so
 * a->b->c, b->c->a and c->a->b close a cycle. With a spur, a switch "spur"
 * comes first (its channel is the lowest) and joins tri_b on port 4.
 */
static void triangle_build(struct triangle *tri, int spur)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	static const char *const names[3] = { "tri_a", "tri_b", "tri_c" };
	static const char *const host_names[3] = { "ha", "hb", "hc" };
	uint32_t i, j, spur_sw = spur ? test_add_switch(fabric, "spur", 2) : VLR_NONE, spur_host;

	for (i = 0; i < 3; i++)
		tri->sw[i] = test_add_switch(fabric, names[i], 4);
	for (i = 0; i < 3; i++)
		test_join(fabric, tri->sw[i], 2, tri->sw[(i + 1) % 3], 3);
	for (i = 0; i < 3; i++)
		tri->host[i] = test_add_host(fabric, host_names[i], tri->sw[i], 1);
	if (spur) {
		test_join(fabric, spur_sw, 2, tri->sw[1], 4);
		spur_host = test_add_host(fabric, "hs", spur_sw, 1);
	}
	tri->tables = make_tables(fabric, 1);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			uint8_t out = j == i ? 1 : j == (i + 1) % 3 ? 2 : 3;

			*lft_entry(tri->tables, tri->sw[i], tri->sw[j]) = j == i ? 0 : out;
			*lft_entry(tri->tables, tri->sw[i], tri->host[j]) =
				j == (i + 2) % 3 ? 2 : out;
		}
	if (!spur)
		return;
	memset(vlr_tables_lft(tri->tables, 0), 2, tri->tables->lid_stride);
	*lft_entry(tri->tables, spur_sw, spur_sw) = 0;
	*lft_entry(tri->tables, spur_sw, spur_host) = 1;
	for (i = 0; i < 3; i++) {
		uint8_t out = i == 0 ? 2 : i == 1 ? 4 : 3;

		*lft_entry(tri->tables, tri->sw[i], spur_sw) = out;
		*lft_entry(tri->tables, tri->sw[i], spur_host) = out;
	}
}

static void test_triangle_cycle_then_fixed(void **state)
{
	struct vlr_verify_report report;
	struct triangle tri, spur;
	char *text;

	(void)state;
	triangle_build(&tri, 0);
	verify(tri.tables, &report);
	assert_int_equal(report.bad_routes, 0);
	assert_false(report.cdg_acyclic);
	assert_string_equal(report.cycle, "tri_a:2/0 -> tri_b:2/0 -> tri_c:2/0 -> tri_a:2/0");
	assert_int_equal(report.cdg_nodes, 6);
	assert_int_equal(report.cdg_edges, 3);
	assert_int_equal(report.hops_max, 4);
	text = report_text(&report, 0);
	assert_contains(text, "channel dependencies: CYCLE of 3 steps: "
			"tri_a:2/0 -> tri_b:2/0 -> tri_c:2/0 -> tri_a:2/0\n");
	assert_contains(text, "verdict: FAILED\n");
	free(text);

	/* the search enters the cycle from the spur at tri_b; the text starts at tri_a */
	triangle_build(&spur, 1);
	verify(spur.tables, &report);
	assert_int_equal(report.bad_routes, 0);
	assert_string_equal(report.cycle, "tri_a:2/0 -> tri_b:2/0 -> tri_c:2/0 -> tri_a:2/0");
	vlr_tables_free(spur.tables);

	/* tri_a sends hc's LID direct: the dependency a->b->c is gone */
	*lft_entry(tri.tables, tri.sw[0], tri.host[2]) = 3;
	verify(tri.tables, &report);
	assert_true(report.cdg_acyclic);
	assert_true(vlr_verify_passed(&report));
	assert_int_equal(report.cdg_edges, 2);
	vlr_tables_free(tri.tables);
}

/* ---- a line of three switches ---- */

struct line {
	struct vlr_tables *tables;
	uint32_t s0, s1, s2;
	uint32_t h0, h1, h2, h2b;
};

/*
 * s0 (h0 on port 1, s1 on port 2, port 3 free) - s1 (h1 on 1, s0 on 2, s2
 * on 3, port 4 free) - s2 (h2 on 1, h2b on 2, s1 on 3), routed minimally.
 * LIDs: s0 1, s1 2, s2 3, h0 4, h1 5, h2 6, h2b 7.
 */
static void line_build(struct line *line, unsigned vls)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *t;

	line->s0 = test_add_switch(fabric, "s0", 3);
	line->s1 = test_add_switch(fabric, "s1", 4);
	line->s2 = test_add_switch(fabric, "s2", 3);
	test_join(fabric, line->s0, 2, line->s1, 2);
	test_join(fabric, line->s1, 3, line->s2, 3);
	line->h0 = test_add_host(fabric, "h0", line->s0, 1);
	line->h1 = test_add_host(fabric, "h1", line->s1, 1);
	line->h2 = test_add_host(fabric, "h2", line->s2, 1);
	line->h2b = test_add_host(fabric, "h2b", line->s2, 2);
	line->tables = t = make_tables(fabric, vls);
	assert_int_equal(lid_of(fabric, line->h2), 6);
	memset(vlr_tables_lft(t, 0), 2, t->lid_stride);
	*lft_entry(t, line->s0, line->s0) = 0;
	*lft_entry(t, line->s0, line->h0) = 1;
	memset(vlr_tables_lft(t, 1), 3, t->lid_stride);
	*lft_entry(t, line->s1, line->s0) = *lft_entry(t, line->s1, line->h0) = 2;
	*lft_entry(t, line->s1, line->s1) = 0;
	*lft_entry(t, line->s1, line->h1) = 1;
	memset(vlr_tables_lft(t, 2), 3, t->lid_stride);
	*lft_entry(t, line->s2, line->s2) = 0;
	*lft_entry(t, line->s2, line->h2) = 1;
	*lft_entry(t, line->s2, line->h2b) = 2;
}

/* Break one LFT entry, check the counts and the first problem, and mend it. */
static void expect_problem(struct line *line, uint32_t sw, uint32_t dest, uint8_t entry,
			   uint64_t loops, uint64_t dead_ends, uint64_t misdelivered,
			   const char *first, const char *also)
{
	uint8_t *at = lft_entry(line->tables, sw, dest), saved = *at;
	struct vlr_verify_report report;
	size_t length = strlen(first);
	char *text;

	*at = entry;
	verify(line->tables, &report);
	assert_int_equal(report.routes, 4 * 6);
	assert_int_equal(report.loops, loops);
	assert_int_equal(report.dead_ends, dead_ends);
	assert_int_equal(report.misdelivered, misdelivered);
	assert_int_equal(report.bad_routes, loops + dead_ends + misdelivered);
	assert_int_equal(report.bad_lids, 1);
	assert_in_range(report.problems_listed, 1, report.bad_routes);
	assert_false(vlr_verify_passed(&report));
	if (strncmp(report.problems, first, length) || report.problems[length] != '\n')
		fail_msg("first problem \"%s\", expected \"%s\"", report.problems, first);
	if (also)
		assert_contains(report.problems, also);
	text = report_text(&report, 0);
	assert_contains(text, first);
	assert_contains(text, "verdict: FAILED");
	free(text);
	*at = saved;
}

static void test_undelivered_routes(void **state)
{
	struct vlr_verify_report report;
	struct line line;
	char *text;

	(void)state;
	line_build(&line, 1);
	verify(line.tables, &report);
	assert_int_equal(report.bad_routes, 0);
	assert_true(vlr_verify_passed(&report));

	expect_problem(&line, line.s1, line.h2, VLR_NO_PORT, 0, 2, 0,
		       "h0 port 1 -> LID 0x0006 (h2): dead end at s1 (LFT has no port)", NULL);
	expect_problem(&line, line.s1, line.h2, 5, 0, 2, 0,
		       "h0 port 1 -> LID 0x0006 (h2): dead end at s1 (LFT port 5 is "
		       "beyond its 4 ports)", NULL);
	expect_problem(&line, line.s1, line.h2, 4, 0, 2, 0,
		       "h0 port 1 -> LID 0x0006 (h2): dead end at s1 (LFT port 4 is "
		       "not linked)", NULL);
	expect_problem(&line, line.s1, line.h2, 2, 2, 0, 0,
		       "h0 port 1 -> LID 0x0006 (h2): loop through s0", NULL);
	/* h2b's own route to h2 comes back to h2b */
	expect_problem(&line, line.s2, line.h2, 2, 0, 0, 3,
		       "h0 port 1 -> LID 0x0006 (h2): misdelivered to h2b",
		       "\nh2b port 1 -> LID 0x0006 (h2): misdelivered to h2b\n");
	expect_problem(&line, line.s1, line.s2, 0, 0, 0, 2,
		       "h0 port 1 -> LID 0x0003 (s2): misdelivered to switch s1 (LFT port 0)",
		       NULL);
	/* h0 owns the LID, so the first route is h1's; h2 and h2b count twice */
	expect_problem(&line, line.s0, line.h0, 2, 3, 0, 0,
		       "h1 port 1 -> LID 0x0004 (h0): loop through s1", NULL);
	verify(line.tables, &report);
	assert_true(vlr_verify_passed(&report));

	/* the counts and the ellipsis when more problems exist than are named */
	*lft_entry(line.tables, line.s1, line.h2) = VLR_NO_PORT;
	*lft_entry(line.tables, line.s1, line.h2b) = VLR_NO_PORT;
	*lft_entry(line.tables, line.s1, line.s2) = VLR_NO_PORT;
	*lft_entry(line.tables, line.s2, line.h0) = 1;
	*lft_entry(line.tables, line.s2, line.h1) = 1;
	verify(line.tables, &report);
	assert_int_equal(report.dead_ends, 6);
	assert_int_equal(report.misdelivered, 4);
	assert_int_equal(report.bad_lids, 5);
	assert_int_equal(report.problems_listed, VLR_VERIFY_PROBLEMS);
	text = report_text(&report, 0);
	assert_contains(text, "routes: 24 checked, 10 NOT delivered (0 loops, 6 dead ends, "
			"4 misdelivered) to 5 LIDs\n");
	assert_contains(text, "\n  ...\n");
	free(text);
	vlr_tables_free(line.tables);
}

/* ---- exact statistics ---- */

/*
 * s0 (hosts a, b) - s1 (host c) - s2 (host d). LIDs s0 1, s1 2, s2 3, a 4,
 * b 5, c 6, d 7. Per source, hops to s0 s1 s2 a b c d:
 * a: 1 2 3 - 2 3 4 (15), b: 15, c: 2 1 2 3 3 - 3 (14), d: 3 2 1 4 4 3 - (17).
 * Channels: s0->s1 carries a and b to s1 s2 c d (8), s1->s0 c and d to s0
 * a b (6), s1->s2 a b c to s2 d (6), s2->s1 d to five LIDs (5).
 */
static struct vlr_tables *stats_tables(unsigned vls)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *t;
	uint32_t s0, s1, s2, a, b, c, d;

	s0 = test_add_switch(fabric, "s0", 3);
	s1 = test_add_switch(fabric, "s1", 3);
	s2 = test_add_switch(fabric, "s2", 2);
	test_join(fabric, s0, 3, s1, 2);
	test_join(fabric, s1, 3, s2, 2);
	a = test_add_host(fabric, "a", s0, 1);
	b = test_add_host(fabric, "b", s0, 2);
	c = test_add_host(fabric, "c", s1, 1);
	d = test_add_host(fabric, "d", s2, 1);
	t = make_tables(fabric, vls);
	memset(vlr_tables_lft(t, 0), 3, t->lid_stride);
	*lft_entry(t, s0, s0) = 0;
	*lft_entry(t, s0, a) = 1;
	*lft_entry(t, s0, b) = 2;
	memset(vlr_tables_lft(t, 1), 2, t->lid_stride);
	*lft_entry(t, s1, s1) = 0;
	*lft_entry(t, s1, c) = 1;
	*lft_entry(t, s1, s2) = *lft_entry(t, s1, d) = 3;
	memset(vlr_tables_lft(t, 2), 2, t->lid_stride);
	*lft_entry(t, s2, s2) = 0;
	*lft_entry(t, s2, d) = 1;
	return t;
}

static void test_statistics(void **state)
{
	struct vlr_tables *t = stats_tables(1);
	struct vlr_verify_report report;
	char *text;

	(void)state;
	verify(t, &report);
	assert_true(vlr_verify_passed(&report));
	assert_int_equal(report.routes, 24);
	assert_int_equal(report.hops_min, 1);
	assert_int_equal(report.hops_max, 4);
	assert_float_equal(report.hops_mean, 61.0 / 24, 1e-12);
	assert_int_equal(report.channels, 4);
	assert_int_equal(report.load_min, 5);
	assert_int_equal(report.load_max, 8);
	assert_float_equal(report.load_mean, 6.25, 1e-12);
	assert_int_equal(report.load_bin_start, 5);
	assert_int_equal(report.load_bin_width, 1);
	assert_int_equal(report.load_histogram[0], 1);
	assert_int_equal(report.load_histogram[1], 2);
	assert_int_equal(report.load_histogram[2], 0);
	assert_int_equal(report.load_histogram[3], 1);
	assert_int_equal(report.cdg_nodes, 4);
	assert_int_equal(report.cdg_edges, 2);
	assert_int_equal(report.vls_used, 1);
	assert_int_equal(report.sls_used, 1);
	text = report_text(&report, 0);
	assert_contains(text, "routes: 24 checked, all delivered\n");
	assert_contains(text, "hops: min 1 mean 2.54 max 4\n");
	assert_contains(text, "routes per channel: min 5 mean 6.25 max 8\n");
	assert_contains(text, "VLs used: 1 (0) of 1 offered\n");
	free(text);
	vlr_tables_free(t);
}

/* Injection and ejection links count among the VLs; unoffered VLs fail. */
static void test_vls_of_every_link(void **state)
{
	struct vlr_tables *t = stats_tables(4);
	const struct vlr_fabric *fabric = t->fabric;
	struct vlr_verify_report report;
	uint32_t d = vlr_fabric_find(fabric, "d");
	char *text;

	(void)state;
	/* a's route to itself (in and out on port 1 of s0) does not exist */
	vlr_tables_sl2vl(t, 0, 1, 1)[0] = 1;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0x1);
	vlr_tables_port_sl2vl(t, vlr_port_index(fabric, d, 1))[0] = 3;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0x9);
	assert_int_equal(report.cdg_nodes, 4);
	/* s1 from s2 (port 3) to c (port 1): only the ejection link */
	vlr_tables_sl2vl(t, 1, 3, 1)[0] = 2;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0xd);
	assert_int_equal(report.vls_used, 3);
	assert_int_equal(report.cdg_nodes, 4);
	assert_true(vlr_verify_passed(&report));
	/* s1 from s2 to s0 on VL 5, of 4 offered */
	vlr_tables_sl2vl(t, 1, 3, 2)[0] = 5;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0x2d);
	assert_int_equal(report.cdg_nodes, 5);
	assert_int_equal(report.bad_routes, 0);
	assert_true(report.cdg_acyclic);
	assert_false(vlr_verify_passed(&report));
	text = report_text(&report, 0);
	assert_contains(text, "VLs used: 4 (0,2-3,5) of 4 offered: TOO MANY\n");
	free(text);
	vlr_tables_free(t);
}

/*
 * One pair of ports mapping an SL apart from the rest of its switch (here
 * the switch's last pair that routes use: s1 from s2 to s0) is seen, not
 * read from the switch's common map.
 */
static void test_one_pair_maps_apart(void **state)
{
	struct vlr_tables *t = stats_tables(8);
	struct vlr_verify_report report;

	(void)state;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0x1);
	vlr_tables_sl2vl(t, 1, 3, 2)[0] = 5;
	verify(t, &report);
	assert_int_equal(report.vl_mask, 0x21);
	assert_int_equal(report.cdg_nodes, 5);
	assert_true(vlr_verify_passed(&report));
	vlr_tables_free(t);
}

/* Two CAs linked to each other: no switch, no channel, one hop each way. */
static void test_direct_link(void **state)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_verify_report report;
	struct vlr_error err;
	struct vlr_tables *t;
	uint32_t x, y;

	(void)state;
	x = vlr_fabric_add_node(fabric, VLR_NODE_CA, "x", 1, 1, &err);
	y = vlr_fabric_add_node(fabric, VLR_NODE_CA, "y", 1, 2, &err);
	test_join(fabric, x, 1, y, 1);
	t = make_tables(fabric, 1);
	verify(t, &report);
	assert_int_equal(report.routes, 2);
	assert_int_equal(report.bad_routes, 0);
	assert_int_equal(report.hops_min, 1);
	assert_int_equal(report.hops_max, 1);
	assert_int_equal(report.channels, 0);
	assert_int_equal(report.cdg_nodes, 0);
	assert_true(vlr_verify_passed(&report));
	vlr_tables_free(t);
}

static void test_json(void **state)
{
	struct vlr_tables *t = stats_tables(1);
	struct vlr_verify_report report;
	struct vlr_fabric *fabric;
	struct triangle tri;
	uint32_t sw;
	char *text;

	(void)state;
	verify(t, &report);
	text = report_text(&report, 1);
	assert_true(text[0] == '{');
	assert_contains(text, "\"passed\": true,");
	assert_contains(text, "\"routes\": 24,");
	assert_contains(text, "\"problems\": [],");
	assert_contains(text, "\"hops\": {\"min\": 1, \"mean\": 2.542, \"max\": 4}");
	assert_contains(text, "\"routes_per_channel\": {\"min\": 5, \"mean\": 6.250, "
			"\"max\": 8, \"bin_start\": 5, \"bin_width\": 1, \"histogram\": "
			"[1, 2, 0, 1, 0, 0, 0, 0, 0, 0]}");
	assert_contains(text, "\"vls\": [0],");
	assert_contains(text, "\"cdg\": {\"acyclic\": true, \"nodes\": 4, \"edges\": 2, "
			"\"cycle_length\": 0, \"cycle\": null}");
	free(text);
	vlr_tables_free(t);

	triangle_build(&tri, 0);
	*lft_entry(tri.tables, tri.sw[1], tri.sw[2]) = VLR_NO_PORT;
	verify(tri.tables, &report);
	text = report_text(&report, 1);
	assert_contains(text, "\"passed\": false,");
	assert_contains(text, "\"dead_ends\": 1,");
	assert_contains(text, "\"problems\": [\n    \"hb port 1 -> LID 0x0003 (tri_c): dead "
			"end at tri_b (LFT has no port)\"\n  ],");
	assert_contains(text, "\"cycle\": \"tri_a:2/0 -> tri_b:2/0 -> tri_c:2/0 -> "
			"tri_a:2/0\"}");
	free(text);
	vlr_tables_free(tri.tables);

	/*
	 * names are escaped (they hold no double quotes) and made valid
	 * UTF-8: an overlong '/' and a surrogate become U+FFFD, e-acute stays
	 */
	fabric = vlr_fabric_new();
	sw = test_add_switch(fabric, "s\\w\xc0\xaf", 2);
	test_add_host(fabric, "h\t1\xed\xa0\x80\xc3\xa9", sw, 1);
	test_add_host(fabric, "h2", sw, 2);
	t = make_tables(fabric, 1);
	verify(t, &report);
	text = report_text(&report, 1);
	assert_contains(text, "\"h\\u00091\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9 port 1 -> "
			"LID 0x0003 (h2): dead end at s\\\\w\xef\xbf\xbd\xef\xbf\xbd "
			"(LFT has no port)\"");
	free(text);
	vlr_tables_free(t);
}

/* ---- deadlock freedom as analyze and compare report it ---- */

static void expect_verdicts(const struct vlr_tables *t, enum vlr_deadlock_verdict with_sls,
			    enum vlr_deadlock_verdict without)
{
	struct vlr_verify_report report;

	verify(t, &report);
	assert_int_equal(vlr_verify_deadlock_free(&report, 1), with_sls);
	assert_int_equal(vlr_verify_deadlock_free(&report, 0), without);
}

/*
 * Path SLs known: the verdict of verify. Unknown: yes only for one VL
 * without a cycle (no SLs could make one), no for a route not delivered,
 * unknown otherwise.
 */
static void test_deadlock_verdicts(void **state)
{
	struct vlr_tables *t = stats_tables(1);
	uint32_t hosts[RING];
	struct line line;

	(void)state;
	expect_verdicts(t, VLR_DEADLOCK_FREE_YES, VLR_DEADLOCK_FREE_YES);
	vlr_tables_free(t);
	t = ring_tables(hosts);
	expect_verdicts(t, VLR_DEADLOCK_FREE_NO, VLR_DEADLOCK_FREE_UNKNOWN);
	ring_dateline(t, hosts, 0);
	ring_dateline(t, hosts, 1);
	expect_verdicts(t, VLR_DEADLOCK_FREE_YES, VLR_DEADLOCK_FREE_UNKNOWN);
	vlr_tables_free(t);
	line_build(&line, 1);
	*lft_entry(line.tables, line.s1, line.h2) = 4;
	expect_verdicts(line.tables, VLR_DEADLOCK_FREE_NO, VLR_DEADLOCK_FREE_NO);
	vlr_tables_free(line.tables);
	assert_string_equal(vlr_deadlock_verdict_name(VLR_DEADLOCK_FREE_UNKNOWN),
			    "unknown (no path SLs)");
	assert_string_equal(vlr_deadlock_verdict_name(VLR_DEADLOCK_FREE_YES), "yes");
	assert_string_equal(vlr_deadlock_verdict_name(VLR_DEADLOCK_FREE_NO), "no");
}

/* ---- random table sets against a route-by-route reference ---- */

struct rng {
	uint64_t state;
};

static uint32_t rng_below(struct rng *rng, uint32_t n)
{
	rng->state ^= rng->state << 13;
	rng->state ^= rng->state >> 7;
	rng->state ^= rng->state << 17;
	return (uint32_t)(rng->state % n);
}

/* Switch-to-switch distances, [from * switches + to], by breadth-first search. */
static uint32_t *switch_distances(const struct vlr_tables *t)
{
	const struct vlr_fabric *f = t->fabric;
	uint32_t n = t->num_switches, *dist = malloc(sizeof(uint32_t) * n * n);
	uint32_t *queue = malloc(sizeof(uint32_t) * n), from, i;
	unsigned p;

	assert_non_null(dist);
	assert_non_null(queue);
	for (i = 0; i < n * n; i++)
		dist[i] = VLR_NONE;
	for (from = 0; from < n; from++) {
		uint32_t head = 0, tail = 0, *row = dist + from * n;

		row[from] = 0;
		queue[tail++] = from;
		while (head < tail) {
			uint32_t s = queue[head++], node = t->switch_node[s];

			for (p = 1; p <= f->nodes[node].num_ports; p++) {
				uint32_t peer = vlr_port_at(f, node, p)->peer, next;

				if (peer == VLR_NONE)
					continue;
				next = t->switch_of_node[f->ports[peer].node];
				if (next != VLR_NONE && row[next] == VLR_NONE) {
					row[next] = row[s] + 1;
					queue[tail++] = next;
				}
			}
		}
	}
	free(queue);
	return dist;
}

/* A shortest-path LFT entry of switch s for the port slot owning a LID. */
static uint8_t shortest_entry(const struct vlr_tables *t, const uint32_t *dist, uint32_t s,
			      uint32_t owner, struct rng *rng)
{
	const struct vlr_fabric *f = t->fabric;
	uint32_t node = t->switch_node[s], target, peer;
	unsigned p, choices = 0;
	uint8_t pick = VLR_NO_PORT;

	if (vlr_node_is_switch(f, f->ports[owner].node)) {
		target = t->switch_of_node[f->ports[owner].node];
		if (target == s)
			return 0;
	} else {
		peer = f->ports[owner].peer;
		target = t->switch_of_node[f->ports[peer].node];
		if (target == s)
			return f->ports[peer].number;
	}
	for (p = 1; p <= f->nodes[node].num_ports; p++) {
		uint32_t next;

		peer = vlr_port_at(f, node, p)->peer;
		if (peer == VLR_NONE)
			continue;
		next = t->switch_of_node[f->ports[peer].node];
		if (next != VLR_NONE && dist[next * t->num_switches + target] + 1 ==
					dist[s * t->num_switches + target] &&
		    rng_below(rng, ++choices) == 0)
			pick = (uint8_t)p;
	}
	return pick;
}

/*
 * Random tables on a generated fabric: shortest paths, `broken` per mille
 * LFT entries spoiled, random path SLs and SL2VL tables.
 */
static struct vlr_tables *random_tables(const struct vlr_family_params *params,
					uint64_t seed, unsigned vls, unsigned broken)
{
	struct rng rng = { seed * 0x9E3779B97F4A7C15ull + 1 };
	struct vlr_fabric *f = test_generate(params);
	struct vlr_tables *t;
	struct vlr_error err;
	uint32_t *dist, s, lid, port;
	uint64_t i;

	assert_int_equal(vlr_fabric_assign_lids(f, 1, &err), 0);
	t = vlr_tables_new(f, vls, &err);
	assert_non_null(t);
	t->owns_fabric = 1;
	dist = switch_distances(t);
	for (s = 0; s < t->num_switches; s++)
		for (lid = 1; lid <= t->max_lid; lid++) {
			unsigned ports = f->nodes[t->switch_node[s]].num_ports;
			uint8_t *entry = &vlr_tables_lft(t, s)[lid];

			if (t->lid_owner[lid] == VLR_NONE)
				continue;
			*entry = shortest_entry(t, dist, s, t->lid_owner[lid], &rng);
			if (rng_below(&rng, 1000) < broken)
				*entry = (uint8_t)rng_below(&rng, ports + 3);
		}
	free(dist);
	assert_int_equal(vlr_tables_alloc_sl_rows(t, 3, NULL), 0);
	for (i = 0; i < 3 * (uint64_t)t->lid_stride; i++)
		t->sl_rows[i] = (uint8_t)rng_below(&rng, vls + 1);
	for (port = 0; port < f->num_ports; port++)
		if (vlr_tables_is_source(t, port))
			t->port_sl_row[port] = rng_below(&rng, 4) == 3 ? VLR_NONE :
					       rng_below(&rng, 3);
	for (i = 0; i < t->sl2vl_size; i++)
		t->sl2vl[i] = (uint8_t)rng_below(&rng, vls);
	for (i = 0; i < (uint64_t)f->num_ports * VLR_NUM_SLS; i++)
		t->port_sl2vl[i] = (uint8_t)rng_below(&rng, vls);
	return t;
}

struct reference {
	uint64_t routes, loops, dead_ends, misdelivered, delivered, hop_sum;
	unsigned hops_min, hops_max;
	uint32_t bad_lids;
	uint16_t vl_mask, sl_mask;
	uint64_t *load;			/* [port slot] */
	uint8_t *node_used;		/* [port slot * 16 + VL] */
	uint64_t *edges;		/* (from node << 32) | to node */
	size_t num_edges;
	uint32_t *hops;			/* a route's switch-to-switch nodes */
};

enum { DELIVERED, LOOP, DEAD_END, MISDELIVERED };

static void reference_add_edge(struct reference *ref, uint64_t edge)
{
	uint64_t *grown = realloc(ref->edges, sizeof(uint64_t) * (ref->num_edges + 1));

	assert_non_null(grown);
	ref->edges = grown;
	ref->edges[ref->num_edges++] = edge;
}

/*
 * Follow one route link by link; returns its kind. ref->hops[0] is the
 * number of switch-to-switch hops, each then a port slot * 16 + VL.
 */
static int reference_walk(struct reference *ref, const struct vlr_tables *t,
			  uint32_t source, uint16_t lid, unsigned *links, uint16_t *vls)
{
	const struct vlr_fabric *f = t->fabric;
	uint32_t owner = t->lid_owner[lid], peer = f->ports[source].peer, visits = 0;
	unsigned sl = vlr_tables_path_sl(t, source, lid) & 15, in;

	*links = 1;
	*vls = (uint16_t)(1u << (vlr_tables_port_sl2vl(t, source)[sl] & 15));
	ref->hops[0] = 0;
	while (vlr_node_is_switch(f, f->ports[peer].node)) {
		uint32_t node = f->ports[peer].node, s = t->switch_of_node[node], slot;
		unsigned out = vlr_tables_lft(t, s)[lid], vl;

		in = f->ports[peer].number;
		if (++visits > t->num_switches)
			return LOOP;
		if (out == 0)
			return owner == vlr_port_index(f, node, 0) ? DELIVERED : MISDELIVERED;
		if (out > f->nodes[node].num_ports)
			return DEAD_END;
		slot = vlr_port_index(f, node, out);
		if (f->ports[slot].peer == VLR_NONE)
			return DEAD_END;
		vl = vlr_tables_sl2vl(t, s, in, out)[sl] & 15;
		*vls |= (uint16_t)(1u << vl);
		++*links;
		peer = f->ports[slot].peer;
		if (vlr_node_is_switch(f, f->ports[peer].node))
			ref->hops[1 + ref->hops[0]++] = slot * 16 + vl;
	}
	return peer == owner ? DELIVERED : MISDELIVERED;
}

static void reference_route(struct reference *ref, const struct vlr_tables *t,
			    uint32_t source, uint16_t lid, int *lid_bad)
{
	unsigned links, i, sl = vlr_tables_path_sl(t, source, lid) & 15;
	uint16_t vls;
	int kind = reference_walk(ref, t, source, lid, &links, &vls);

	ref->routes++;
	if (kind != DELIVERED) {
		*lid_bad = 1;
		ref->loops += kind == LOOP;
		ref->dead_ends += kind == DEAD_END;
		ref->misdelivered += kind == MISDELIVERED;
		return;
	}
	ref->delivered++;
	ref->hop_sum += links;
	ref->hops_min = links < ref->hops_min ? links : ref->hops_min;
	ref->hops_max = links > ref->hops_max ? links : ref->hops_max;
	ref->vl_mask |= vls;
	ref->sl_mask |= (uint16_t)(1u << sl);
	for (i = 1; i <= ref->hops[0]; i++) {
		ref->load[ref->hops[i] / 16]++;
		ref->node_used[ref->hops[i]] = 1;
		if (i > 1)
			reference_add_edge(ref, (uint64_t)ref->hops[i - 1] << 32 |
						ref->hops[i]);
	}
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void reference_unique_edges(struct reference *ref)
{
	size_t i, kept = 0;

	qsort(ref->edges, ref->num_edges, sizeof(uint64_t), compare_u64);
	for (i = 0; i < ref->num_edges; i++)
		if (!kept || ref->edges[i] != ref->edges[kept - 1])
			ref->edges[kept++] = ref->edges[i];
	ref->num_edges = kept;
}

/* Kahn's algorithm on the unique edges: is the graph acyclic? */
static int reference_acyclic(const struct reference *ref, uint32_t nodes)
{
	uint32_t *indegree = calloc(nodes, sizeof(uint32_t));
	uint32_t *queue = malloc(sizeof(uint32_t) * nodes);
	uint32_t head = 0, tail = 0, removed = 0, used = 0, n;
	size_t i;

	assert_non_null(indegree);
	assert_non_null(queue);
	for (i = 0; i < ref->num_edges; i++)
		indegree[(uint32_t)ref->edges[i]]++;
	for (n = 0; n < nodes; n++) {
		used += ref->node_used[n];
		if (ref->node_used[n] && !indegree[n])
			queue[tail++] = n;
	}
	while (head < tail) {
		n = queue[head++];
		removed++;
		for (i = 0; i < ref->num_edges; i++)
			if (ref->edges[i] >> 32 == n && !--indegree[(uint32_t)ref->edges[i]])
				queue[tail++] = (uint32_t)ref->edges[i];
	}
	free(indegree);
	free(queue);
	return removed == used;
}

static int reference_has_edge(const struct reference *ref, uint32_t from, uint32_t to)
{
	uint64_t key = (uint64_t)from << 32 | to;

	return bsearch(&key, ref->edges, ref->num_edges, sizeof(uint64_t), compare_u64) != NULL;
}

/* Every step of the reported cycle is an edge, and it closes. */
static void check_cycle(const struct vlr_tables *t, const struct reference *ref,
			const struct vlr_verify_report *report)
{
	char *text = strdup(report->cycle), *step, *save = NULL;
	uint32_t first = VLR_NONE, previous = VLR_NONE, steps = 0;

	assert_non_null(text);
	for (step = strtok_r(text, " ->", &save); step; step = strtok_r(NULL, " ->", &save)) {
		char *colon = strrchr(step, ':'), *slash = strrchr(step, '/');
		uint32_t node, id;

		assert_non_null(colon);
		assert_non_null(slash);
		*colon = '\0';
		node = vlr_fabric_find(t->fabric, step);
		assert_int_not_equal(node, VLR_NONE);
		id = vlr_port_index(t->fabric, node, (unsigned)atoi(colon + 1)) * 16 +
		     (uint32_t)atoi(slash + 1);
		if (previous != VLR_NONE && !reference_has_edge(ref, previous, id))
			fail_msg("the cycle's step to %s:%s is no dependency", step, colon + 1);
		if (first == VLR_NONE)
			first = id;
		previous = id;
		steps++;
	}
	assert_int_equal(previous, first);
	assert_int_equal(steps, report->cycle_length + 1);
	free(text);
}

static void compare_with_reference(const struct vlr_tables *t)
{
	const struct vlr_fabric *f = t->fabric;
	struct vlr_verify_report report;
	struct reference ref;
	uint64_t load_min = UINT64_MAX, load_max = 0, nodes = 0, width;
	uint64_t histogram[VLR_VERIFY_LOAD_BINS] = { 0 };
	uint32_t port, lid;

	memset(&ref, 0, sizeof(ref));
	ref.hops_min = ~0u;
	ref.load = calloc(f->num_ports, sizeof(uint64_t));
	ref.node_used = calloc((size_t)f->num_ports * 16, 1);
	ref.hops = malloc(sizeof(uint32_t) * (t->num_switches + 2));
	assert_non_null(ref.load);
	assert_non_null(ref.node_used);
	assert_non_null(ref.hops);
	for (lid = 1; lid <= t->max_lid; lid++) {
		int lid_bad = 0;

		if (t->lid_owner[lid] == VLR_NONE)
			continue;
		for (port = 0; port < f->num_ports; port++)
			if (vlr_tables_is_source(t, port) && port != t->lid_owner[lid])
				reference_route(&ref, t, port, (uint16_t)lid, &lid_bad);
		ref.bad_lids += (uint32_t)lid_bad;
	}
	reference_unique_edges(&ref);
	for (port = 0; port < f->num_ports; port++) {
		const struct vlr_port *p = &f->ports[port];

		if (p->number == 0 || p->peer == VLR_NONE || !vlr_node_is_switch(f, p->node) ||
		    !vlr_node_is_switch(f, f->ports[p->peer].node))
			continue;
		load_min = ref.load[port] < load_min ? ref.load[port] : load_min;
		load_max = ref.load[port] > load_max ? ref.load[port] : load_max;
	}
	for (port = 0; port < f->num_ports * 16; port++)
		nodes += ref.node_used[port];
	width = load_max >= load_min ? (load_max - load_min) / VLR_VERIFY_LOAD_BINS + 1 : 1;
	for (port = 0; port < f->num_ports; port++) {
		const struct vlr_port *p = &f->ports[port];

		if (p->number && p->peer != VLR_NONE && vlr_node_is_switch(f, p->node) &&
		    vlr_node_is_switch(f, f->ports[p->peer].node))
			histogram[(ref.load[port] - load_min) / width]++;
	}

	verify(t, &report);
	assert_int_equal(report.routes, ref.routes);
	assert_int_equal(report.loops, ref.loops);
	assert_int_equal(report.dead_ends, ref.dead_ends);
	assert_int_equal(report.misdelivered, ref.misdelivered);
	assert_int_equal(report.bad_lids, ref.bad_lids);
	assert_int_equal(report.hops_min, ref.delivered ? ref.hops_min : 0);
	assert_int_equal(report.hops_max, ref.hops_max);
	assert_float_equal(report.hops_mean, (double)ref.hop_sum / (double)ref.delivered, 1e-9);
	assert_int_equal(report.load_min, load_min);
	assert_int_equal(report.load_max, load_max);
	assert_int_equal(report.load_bin_width, width);
	assert_memory_equal(report.load_histogram, histogram, sizeof(histogram));
	assert_int_equal(report.vl_mask, ref.vl_mask);
	assert_int_equal(report.sl_mask, ref.sl_mask);
	assert_int_equal(report.cdg_nodes, nodes);
	assert_int_equal(report.cdg_edges, ref.num_edges);
	assert_int_equal(report.cdg_acyclic, reference_acyclic(&ref, f->num_ports * 16));
	if (!report.cdg_acyclic)
		check_cycle(t, &ref, &report);
	free(ref.load);
	free(ref.node_used);
	free(ref.edges);
	free(ref.hops);
}

static void test_random_tables_match_reference(void **state)
{
	static const struct {
		unsigned vls, broken;
	} cases[] = { { 1, 0 }, { 4, 0 }, { 2, 20 }, { 4, 60 }, { 1, 150 } };
	struct vlr_family_params random = { .family = VLR_FAMILY_RANDOM };
	unsigned i, seed, cyclic = 0, failing = 0;

	(void)state;
	random.u.random.switches = 10;
	random.u.random.degree = 3;
	random.u.random.hosts = 3;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (seed = 1; seed <= 4; seed++) {
			struct vlr_tables *t;
			struct vlr_verify_report report;

			random.u.random.seed = seed;
			t = random_tables(&random, seed, cases[i].vls, cases[i].broken);
			compare_with_reference(t);
			verify(t, &report);
			cyclic += !report.cdg_acyclic;
			failing += report.bad_routes > 0;
			vlr_tables_free(t);
		}
	/* the cases cover cycles and undelivered routes */
	assert_true(cyclic > 0);
	assert_true(failing > 0);
}

/*
 * Every switch maps SLs to VLs alike on all its port pairs: with one map
 * for all switches a route keeps its VL and verify keeps one VL set per
 * turn; with a map of each switch's own VLs change at switches and it
 * keeps the full table. Both agree with the reference, cycles included.
 */
static void test_uniform_maps_match_reference(void **state)
{
	struct vlr_family_params random = { .family = VLR_FAMILY_RANDOM };
	unsigned seed, shared, cyclic[2] = { 0, 0 };

	(void)state;
	random.u.random.switches = 10;
	random.u.random.degree = 3;
	random.u.random.hosts = 3;
	for (shared = 0; shared < 2; shared++)
		for (seed = 1; seed <= 6; seed++) {
			struct rng rng = { seed * 7919 + shared };
			struct vlr_verify_report report;
			struct vlr_tables *t;
			uint8_t map[VLR_NUM_SLS];
			uint32_t s;
			uint64_t pair;
			unsigned sl;

			random.u.random.seed = seed;
			t = random_tables(&random, seed, 4, 0);
			for (s = 0; s < t->num_switches; s++) {
				unsigned width = t->fabric->nodes[t->switch_node[s]].num_ports + 1;
				uint8_t *block = t->sl2vl + t->sl2vl_offset[s];

				for (sl = 0; sl < VLR_NUM_SLS && (!s || !shared); sl++)
					map[sl] = (uint8_t)rng_below(&rng, 4);
				for (pair = 0; pair < (uint64_t)width * width; pair++)
					memcpy(block + pair * VLR_NUM_SLS, map, VLR_NUM_SLS);
			}
			compare_with_reference(t);
			verify(t, &report);
			cyclic[shared] += !report.cdg_acyclic;
			vlr_tables_free(t);
		}
	assert_true(cyclic[0] > 0);
	assert_true(cyclic[1] > 0);
}

/*
 * The walk split over threads (stretches of DLIDs, the sums and the
 * problems merged in DLID order) reports exactly what one thread does:
 * 260 LIDs make five blocks of DLIDs, broken entries make problems in
 * each, random SLs make cycles.
 */
static void test_threads_same_report(void **state)
{
	static const unsigned threads[] = { 2, 3, 5, 16 };
	struct vlr_family_params random = { .family = VLR_FAMILY_RANDOM };
	struct vlr_verify_report *one = malloc(sizeof(*one)), *many = malloc(sizeof(*many));
	struct vlr_error err;
	unsigned seed, i;

	(void)state;
	assert_non_null(one);
	assert_non_null(many);
	random.u.random.switches = 52;
	random.u.random.degree = 4;
	random.u.random.hosts = 4;
	for (seed = 1; seed <= 3; seed++) {
		struct vlr_tables *t;

		random.u.random.seed = seed;
		t = random_tables(&random, seed, 4, seed == 1 ? 8 : 0);
		if (seed == 2)	/* problems in the last stretches only */
			for (i = 0; i < 12; i++)
				vlr_tables_lft(t, i % t->num_switches)[t->max_lid - 7 * i] =
					VLR_NO_PORT;
		memset(one, 0, sizeof(*one));
		assert_int_equal(vlr_verify_threads(t, 1, one, &err), 0);
		assert_true(t->max_lid > 4 * 64);
		assert_true(seed == 3 || one->problems_listed > 1);
		for (i = 0; i < sizeof(threads) / sizeof(threads[0]); i++) {
			memset(many, 0xa5, sizeof(*many));
			assert_int_equal(vlr_verify_threads(t, threads[i], many, &err), 0);
			assert_memory_equal(one, many, sizeof(*one));
		}
		vlr_tables_free(t);
	}
	free(one);
	free(many);
}

/* Shortest paths in a fat tree go up, then down: never a cycle. */
static void test_fat_tree_matches_reference(void **state)
{
	struct vlr_family_params fattree = { .family = VLR_FAMILY_FATTREE };
	unsigned seed;

	(void)state;
	fattree.u.fattree.k = 4;
	fattree.u.fattree.n = 3;
	for (seed = 1; seed <= 3; seed++) {
		struct vlr_tables *t = random_tables(&fattree, seed, seed, 0);
		struct vlr_verify_report report;

		compare_with_reference(t);
		verify(t, &report);
		assert_true(report.cdg_acyclic);
		assert_true(report.cdg_edges > 0);
		assert_int_equal(report.bad_routes, 0);
		vlr_tables_free(t);
	}
}

/* The hand-built table sets agree with the reference too. */
static void test_hand_built_match_reference(void **state)
{
	struct vlr_tables *t = stats_tables(1);
	uint32_t hosts[RING];
	struct triangle tri;
	struct line line;

	(void)state;
	compare_with_reference(t);
	vlr_tables_free(t);
	t = ring_tables(hosts);
	compare_with_reference(t);
	ring_dateline(t, hosts, 1);
	compare_with_reference(t);
	vlr_tables_free(t);
	triangle_build(&tri, 1);
	compare_with_reference(tri.tables);
	vlr_tables_free(tri.tables);
	line_build(&line, 1);
	*lft_entry(line.tables, line.s0, line.h0) = 2;
	compare_with_reference(line.tables);
	vlr_tables_free(line.tables);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_cycle_and_dateline),
		cmocka_unit_test(test_triangle_cycle_then_fixed),
		cmocka_unit_test(test_undelivered_routes),
		cmocka_unit_test(test_statistics),
		cmocka_unit_test(test_vls_of_every_link),
		cmocka_unit_test(test_one_pair_maps_apart),
		cmocka_unit_test(test_direct_link),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_deadlock_verdicts),
		cmocka_unit_test(test_random_tables_match_reference),
		cmocka_unit_test(test_uniform_maps_match_reference),
		cmocka_unit_test(test_threads_same_report),
		cmocka_unit_test(test_fat_tree_matches_reference),
		cmocka_unit_test(test_hand_built_match_reference),
	};

	return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
