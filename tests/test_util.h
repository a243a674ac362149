/*
 * test_util.h - helpers the unit tests share: CMocka's includes, fabrics
 * from inline net-file text, and structural checks.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TEST_UTIL_H
#define VLROUTE_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <vlroute/vlroute.h>

/* NAME's path in the test's scratch directory (malloc'd). */
char *test_scratch_path(const char *name);

/*
 * Every LFT entry, written SL2VL entry and path SL of a equal in b, nodes
 * matched by name (the fabrics themselves are not compared).
 */
void test_assert_same_tables(const struct vlr_tables *a, const struct vlr_tables *b);

/* Write text to a fresh file under the test's scratch directory. */
char *test_write_file(const char *name, const char *text);

/* Read net-file text; returns the fabric or NULL with err filled. */
struct vlr_fabric *test_read_text(const char *text, struct vlr_error *err);

/* Assert that reading text fails with a message containing every fragment. */
void test_expect_read_error(const char *text, const char *fragment1,
			    const char *fragment2);

/* Generate or fail the test. */
struct vlr_fabric *test_generate(const struct vlr_family_params *params);

/* Assert that generating fails with a message containing fragment. */
void test_expect_refused(const struct vlr_family_params *params, const char *fragment);

/* The parameters of a palmtree Dragonfly, and of a HyperX or torus with
   sides side and hosts per switch. */
struct vlr_family_params test_dragonfly(unsigned p, unsigned a, unsigned h);
struct vlr_family_params test_grid(enum vlr_family family, unsigned dims, unsigned side,
				   unsigned hosts);

/* Every link is symmetric, no self links, no port 0 links. */
void test_assert_links_consistent(const struct vlr_fabric *fabric);

/* Switch-level diameter and components. */
uint32_t test_diameter(const struct vlr_fabric *fabric, uint32_t *components);

/* Switch hops between two switches (VLR_NONE if unreachable). */
uint32_t test_distance(const struct vlr_fabric *fabric, uint32_t from, uint32_t to);

/* Links between two nodes. */
unsigned test_links_between(const struct vlr_fabric *fabric, uint32_t a, uint32_t b);

/*
 * The same fabric with its nodes in another order drawn from seed: names,
 * GUIDs, port numbers, links, LIDs and LMC kept; new_of[old node] (if not
 * NULL, num_nodes entries) receives each node's new index.
 */
struct vlr_fabric *test_reordered(const struct vlr_fabric *fabric, uint64_t seed,
				  uint32_t *new_of);

/*
 * A copy of fabric's nodes (names, types, port counts, GUIDs) and links
 * with one link cut: the one at port index `port`; or with two links
 * recabled: the linked ports x and y (port indexes, not linked to each
 * other) exchange their peers.
 */
struct vlr_fabric *test_without_link(const struct vlr_fabric *fabric, uint32_t port);
struct vlr_fabric *test_swapped_peers(const struct vlr_fabric *fabric, uint32_t x,
				      uint32_t y);

/* Give every switch (and its ports) a distinct GUID drawn from seed. */
void test_random_switch_guids(struct vlr_fabric *fabric, uint64_t seed);

/*
 * Building small fabrics by hand: a switch, a one-port CA linked to port
 * `port` of switch sw, and a link; each asserts that it worked.
 */
uint32_t test_add_switch(struct vlr_fabric *fabric, const char *name, unsigned ports);
uint32_t test_add_host(struct vlr_fabric *fabric, const char *name, uint32_t sw,
		       unsigned port);
void test_join(struct vlr_fabric *fabric, uint32_t a, unsigned port_a, uint32_t b,
	       unsigned port_b);

#endif
