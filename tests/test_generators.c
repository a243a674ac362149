/*
 * test_generators.c - structural invariants of every topology generator,
 * and its refusal of out-of-range parameters.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

static struct vlr_fabric_summary summarise(const struct vlr_fabric *fabric)
{
	struct vlr_fabric_summary summary;

	vlr_fabric_summarise(fabric, &summary);
	return summary;
}

static uint32_t node_named(const struct vlr_fabric *fabric, const char *fmt,
			   unsigned x, unsigned y)
{
	char name[64];
	uint32_t node;

	snprintf(name, sizeof(name), fmt, x, y);
	node = vlr_fabric_find(fabric, name);
	if (node == VLR_NONE)
		fail_msg("no node named %s", name);
	return node;
}

/* Links of a router that leave its group (names df_gG_...). */
static unsigned global_links(const struct vlr_fabric *fabric, uint32_t router,
			     unsigned group, const char *group_format)
{
	char prefix[32];
	unsigned number, count = 0;

	snprintf(prefix, sizeof(prefix), group_format, group);
	for (number = 1; number <= fabric->nodes[router].num_ports; number++) {
		const struct vlr_port *port = vlr_port_at(fabric, router, number);
		const char *other;

		if (port->peer == VLR_NONE)
			continue;
		other = vlr_node_name(fabric, fabric->ports[port->peer].node);
		count += vlr_node_is_switch(fabric, fabric->ports[port->peer].node) &&
			 strncmp(other, prefix, strlen(prefix)) != 0;
	}
	return count;
}

static unsigned group_links(const struct vlr_fabric *fabric, unsigned a_count,
			    const char *format, unsigned group_a, unsigned group_b,
			    unsigned per_group)
{
	unsigned i, j, links = 0;

	for (i = 0; i < per_group; i++)
		for (j = 0; j < a_count; j++)
			links += test_links_between(fabric,
						    node_named(fabric, format, group_a, i),
						    node_named(fabric, format, group_b, j));
	return links;
}

static void check_dragonfly(unsigned p, unsigned a, unsigned h, unsigned g,
			    enum vlr_arrangement arrangement)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };
	unsigned groups = g ? g : a * h + 1, group, other, r;
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;
	unsigned fewest = ~0u, most = 0;

	params.u.dragonfly = (struct vlr_dragonfly_params){ p, a, h, g, arrangement };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, a * groups);
	assert_int_equal(summary.cas, a * p * groups);
	assert_int_equal(summary.radix, p + a - 1 + h);
	test_assert_links_consistent(fabric);
	for (group = 0; group < groups; group++) {
		for (r = 0; r < a; r++) {
			unsigned globals = global_links(fabric,
							node_named(fabric, "df_g%u_r%u", group, r),
							group, "df_g%u_");

			if (g == 0)
				assert_int_equal(globals, h);
			else
				assert_true(globals <= h);
		}
		for (other = group + 1; other < groups; other++) {
			unsigned links = group_links(fabric, a, "df_g%u_r%u", group,
						     other, a);

			if (links < fewest)
				fewest = links;
			if (links > most)
				most = links;
		}
	}
	/* every pair of groups linked, as evenly as the ports allow */
	assert_true(fewest >= 1);
	assert_true(most - fewest <= 1);
	if (g == 0)
		assert_int_equal(most, 1);
	assert_int_equal(test_diameter(fabric, NULL), a > 1 || groups > 2 ? 3 : 1);
	vlr_fabric_free(fabric);
}

static void test_dragonfly_full(void **state)
{
	(void)state;
	check_dragonfly(2, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE);
	check_dragonfly(2, 4, 2, 0, VLR_ARRANGEMENT_CONSECUTIVE);
	check_dragonfly(1, 3, 1, 0, VLR_ARRANGEMENT_PALMTREE);
}

static void test_dragonfly_fewer_groups(void **state)
{
	(void)state;
	check_dragonfly(1, 4, 2, 5, VLR_ARRANGEMENT_PALMTREE);
	check_dragonfly(1, 4, 2, 4, VLR_ARRANGEMENT_CONSECUTIVE);
	check_dragonfly(1, 3, 3, 5, VLR_ARRANGEMENT_PALMTREE);
	check_dragonfly(2, 4, 4, 6, VLR_ARRANGEMENT_CONSECUTIVE);
}

/* The palmtree formula: port j of group G reaches group G+j+1 at port ah-1-j. */
static void test_dragonfly_palmtree_formula(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };
	struct vlr_fabric *fabric;
	unsigned p = 2, a = 4, h = 2, g = 9, group, j;

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ p, a, h, 0,
							    VLR_ARRANGEMENT_PALMTREE };
	fabric = test_generate(&params);
	for (group = 0; group < g; group++)
		for (j = 0; j < a * h; j++) {
			uint32_t router = node_named(fabric, "df_g%u_r%u", group, j / h);
			const struct vlr_port *port = vlr_port_at(fabric, router,
								  p + a + j % h);
			const struct vlr_port *peer = &fabric->ports[port->peer];
			unsigned peer_j = a * h - 1 - j;

			assert_int_equal(peer->node,
					 node_named(fabric, "df_g%u_r%u", (group + j + 1) % g,
						    peer_j / h));
			assert_int_equal(peer->number, p + a + peer_j % h);
		}
	vlr_fabric_free(fabric);
}

static void test_dragonfly_5256_hosts(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ .p = 6, .a = 12, .h = 6 };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, 876);
	assert_int_equal(summary.cas, 5256);
	assert_int_equal(test_diameter(fabric, NULL), 3);
	vlr_fabric_free(fabric);
}

static void test_dragonfly_parameters(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ .p = 2, .a = 4, .h = 2, .g = 10 };
	test_expect_refused(&params, "g (groups) is 10; allowed: 2..9");
	params.u.dragonfly = (struct vlr_dragonfly_params){ .p = 0, .a = 4, .h = 2 };
	test_expect_refused(&params, "p (hosts per router) is 0; allowed: 1..254");
	params.u.dragonfly = (struct vlr_dragonfly_params){ .p = 100, .a = 100, .h = 100 };
	test_expect_refused(&params, "switches would need 299 ports");
}

static void test_hyperx(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_HYPERX };
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;
	uint32_t a, b;

	(void)state;
	params.u.grid = (struct vlr_grid_params){ 3, { 4, 3, 2 }, 2 };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, 24);
	assert_int_equal(summary.cas, 48);
	assert_int_equal(summary.radix, 2 + 3 + 2 + 1);
	assert_int_equal(summary.used_ports_min, summary.radix);
	assert_int_equal(summary.switch_links, 24 * (3 + 2 + 1) / 2);
	assert_int_equal(test_diameter(fabric, NULL), 3);
	test_assert_links_consistent(fabric);
	a = vlr_fabric_find(fabric, "hx_1_2_0");
	b = vlr_fabric_find(fabric, "hx_3_2_0");
	assert_int_equal(test_links_between(fabric, a, b), 1);
	/* documented port: dim 0, from coordinate 1 to 3 is port T+1+(3-1) */
	assert_int_equal(fabric->ports[vlr_port_at(fabric, a, 2 + 1 + 2)->peer].node, b);
	b = vlr_fabric_find(fabric, "hx_3_1_0");
	assert_int_equal(test_links_between(fabric, a, b), 0);
	vlr_fabric_free(fabric);

	params.u.grid = (struct vlr_grid_params){ 2, { 8, 1 }, 1 };
	test_expect_refused(&params, "the side of dimension 1 is 1; allowed: 2..65536");
	params.u.grid = (struct vlr_grid_params){ 2, { 8, 8 }, 0 };
	test_expect_refused(&params, "hosts per switch is 0");
}

static void test_torus(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_TORUS };
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;

	(void)state;
	params.u.grid = (struct vlr_grid_params){ 3, { 5, 4, 2 }, 1 };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, 40);
	assert_int_equal(summary.radix, 1 + 6);
	assert_int_equal(summary.switch_links, 40 * 3);
	/* floor(5/2) + floor(4/2) + floor(2/2) */
	assert_int_equal(test_diameter(fabric, NULL), 2 + 2 + 1);
	test_assert_links_consistent(fabric);
	/* a side of 2 gives two parallel links */
	assert_int_equal(test_links_between(fabric, vlr_fabric_find(fabric, "tor_0_0_0"),
					    vlr_fabric_find(fabric, "tor_0_0_1")), 2);
	vlr_fabric_free(fabric);
}

static void test_dragonflyplus(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLYPLUS };
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;
	unsigned groups = 2 * 3 + 1, group, other, l, s;

	(void)state;
	params.u.dragonflyplus = (struct vlr_dragonflyplus_params){ 4, 2, 3, 3, 0,
								    VLR_ARRANGEMENT_PALMTREE };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, groups * 6);
	assert_int_equal(summary.cas, groups * 4 * 3);
	test_assert_links_consistent(fabric);
	for (group = 0; group < groups; group++) {
		for (l = 0; l < 4; l++)
			for (s = 0; s < 2; s++)
				assert_int_equal(test_links_between(
					fabric, node_named(fabric, "dfp_g%u_l%u", group, l),
					node_named(fabric, "dfp_g%u_s%u", group, s)), 1);
		for (s = 0; s < 2; s++)
			assert_int_equal(global_links(fabric,
						      node_named(fabric, "dfp_g%u_s%u", group, s),
						      group, "dfp_g%u_"), 3);
		for (other = group + 1; other < groups; other++)
			assert_int_equal(group_links(fabric, 2, "dfp_g%u_s%u", group,
						     other, 2), 1);
	}
	/* with every pair of groups linked, leaf to leaf is up, global, down */
	for (group = 1; group < groups; group++)
		for (l = 0; l < 4; l++)
			assert_true(test_distance(fabric, node_named(fabric, "dfp_g%u_l%u", 0, 0),
						  node_named(fabric, "dfp_g%u_l%u", group, l)) <= 3);
	assert_int_equal(test_distance(fabric, node_named(fabric, "dfp_g%u_l%u", 0, 0),
				       node_named(fabric, "dfp_g%u_l%u", 0, 1)), 2);
	vlr_fabric_free(fabric);
}

static void test_fattree(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_FATTREE };
	struct vlr_fabric_summary summary;
	struct vlr_fabric *fabric;

	(void)state;
	params.u.fattree = (struct vlr_fattree_params){ 4, 3 };
	fabric = test_generate(&params);
	summary = summarise(fabric);
	assert_int_equal(summary.switches, 3 * 16);
	assert_int_equal(summary.cas, 64);
	assert_int_equal(summary.switch_links, 2 * 16 * 4);
	assert_int_equal(summary.radix, 8);
	assert_int_equal(summary.used_ports_min, 4);
	assert_int_equal(test_diameter(fabric, NULL), 4);
	test_assert_links_consistent(fabric);
	/* (0, w) and (1, w') linked iff w and w' differ at most in digit 0 */
	assert_int_equal(test_links_between(fabric, vlr_fabric_find(fabric, "ft_l0_1_2"),
					    vlr_fabric_find(fabric, "ft_l1_3_2")), 1);
	assert_int_equal(test_links_between(fabric, vlr_fabric_find(fabric, "ft_l0_1_2"),
					    vlr_fabric_find(fabric, "ft_l1_1_3")), 0);
	vlr_fabric_free(fabric);
	params.u.fattree = (struct vlr_fattree_params){ 1, 3 };
	test_expect_refused(&params, "k (arity) is 1; allowed: 2..127");
}

static void test_random_regular(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_RANDOM };
	struct vlr_fabric *first, *again, *other;
	struct vlr_fabric_summary summary;
	uint32_t components, node;
	int differs = 0;

	(void)state;
	params.u.random = (struct vlr_random_params){ 50, 5, 2, 42, 0, 0 };
	first = test_generate(&params);
	again = test_generate(&params);
	params.u.random.seed = 43;
	other = test_generate(&params);
	summary = summarise(first);
	assert_int_equal(summary.switches, 50);
	assert_int_equal(summary.switch_links, 125);
	test_assert_links_consistent(first);
	test_diameter(first, &components);
	assert_int_equal(components, 1);
	for (node = 0; node < 50; node++) {
		unsigned number;

		for (number = 3; number <= 7; number++) {
			uint32_t peer = vlr_port_at(first, node, number)->peer;

			/* simple graph: one link per neighbour */
			assert_int_equal(test_links_between(first, node,
							    first->ports[peer].node), 1);
			assert_int_equal(peer, vlr_port_at(again, node, number)->peer);
			differs |= peer != vlr_port_at(other, node, number)->peer;
		}
	}
	assert_true(differs);
	vlr_fabric_free(first);
	vlr_fabric_free(again);
	vlr_fabric_free(other);

	params.u.random = (struct vlr_random_params){ 5, 3, 1, 1, 0, 0 };
	test_expect_refused(&params, "switches x degree must be even");
	params.u.random = (struct vlr_random_params){ 5, 5, 1, 1, 0, 0 };
	test_expect_refused(&params, "the degree is 5; allowed: 1..4");
}

/* Whether two fabrics' switches have the same neighbours on every port. */
static int same_switch_links(const struct vlr_fabric *a, const struct vlr_fabric *b,
			     uint32_t switches, unsigned ports)
{
	uint32_t node;
	unsigned number;

	for (node = 0; node < switches; node++)
		for (number = 1; number <= ports; number++)
			if (vlr_port_at(a, node, number)->peer !=
			    vlr_port_at(b, node, number)->peer)
				return 0;
	return 1;
}

/* -l: the links, the bound per switch, simple, connected, seeded. */
static void check_random_links(unsigned links)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_RANDOM };
	struct vlr_fabric *first, *again, *other;
	struct vlr_fabric_summary summary;
	uint32_t components, node;

	params.u.random = (struct vlr_random_params){ 40, 6, 3, 7, 0, links };
	first = test_generate(&params);
	again = test_generate(&params);
	params.u.random.seed = 8;
	other = test_generate(&params);
	summary = summarise(first);
	assert_int_equal(summary.switches, 40);
	assert_int_equal(summary.cas, 120);
	assert_int_equal(summary.switch_links, links);
	assert_int_equal(summary.radix, 9);
	assert_true(summary.used_ports_max <= 9);
	test_assert_links_consistent(first);
	test_diameter(first, &components);
	assert_int_equal(components, 1);
	for (node = 0; node < 40; node++) {
		unsigned number;

		for (number = 4; number <= 9; number++) {
			uint32_t peer = vlr_port_at(first, node, number)->peer;

			if (peer != VLR_NONE)
				assert_int_equal(test_links_between(first, node,
								    first->ports[peer].node), 1);
		}
	}
	assert_true(same_switch_links(first, again, 40, 9));
	assert_false(same_switch_links(first, other, 40, 9));
	vlr_fabric_free(first);
	vlr_fabric_free(again);
	vlr_fabric_free(other);
}

static void test_random_links(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_RANDOM };

	(void)state;
	check_random_links(39);		/* a tree */
	check_random_links(60);
	check_random_links(120);	/* every switch full: swaps only */
	params.u.random = (struct vlr_random_params){ 40, 6, 3, 7, 0, 38 };
	test_expect_refused(&params, "the number of links is 38; allowed: 39..120");
	params.u.random = (struct vlr_random_params){ 40, 6, 3, 7, 0, 121 };
	test_expect_refused(&params, "the number of links is 121; allowed: 39..120");
	params.u.random = (struct vlr_random_params){ 40, 1, 3, 7, 0, 39 };
	test_expect_refused(&params, "(-d) is 1; allowed: 2..39");
	params.u.random = (struct vlr_random_params){ 4097, 3, 1, 7, 0, 5000 };
	test_expect_refused(&params, "is 4097; allowed: 2..4096");
}

static void test_recognition(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY }, found;
	struct vlr_fabric *fabric, *recabled;
	uint32_t r0, r1;

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ 2, 4, 2, 7,
							    VLR_ARRANGEMENT_CONSECUTIVE };
	fabric = test_generate(&params);
	assert_int_equal(vlr_recognise_family(fabric, &found), 1);
	assert_int_equal(found.family, VLR_FAMILY_DRAGONFLY);
	assert_int_equal(found.u.dragonfly.g, 7);
	assert_int_equal(found.u.dragonfly.h, 2);
	assert_int_equal(found.u.dragonfly.arrangement, VLR_ARRANGEMENT_CONSECUTIVE);

	/* two global cables swapped: named like one, but not the Dragonfly */
	r0 = vlr_fabric_find(fabric, "df_g0_r0");
	r1 = vlr_fabric_find(fabric, "df_g0_r1");
	recabled = test_swapped_peers(fabric, vlr_port_index(fabric, r0, 2 + 4),
				      vlr_port_index(fabric, r1, 2 + 4));
	test_assert_links_consistent(recabled);
	assert_int_equal(vlr_recognise_family(recabled, &found), 0);
	assert_int_equal(found.family, VLR_FAMILY_NONE);
	vlr_fabric_free(recabled);
	vlr_fabric_free(fabric);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dragonfly_full),
		cmocka_unit_test(test_dragonfly_fewer_groups),
		cmocka_unit_test(test_dragonfly_palmtree_formula),
		cmocka_unit_test(test_dragonfly_5256_hosts),
		cmocka_unit_test(test_dragonfly_parameters),
		cmocka_unit_test(test_hyperx),
		cmocka_unit_test(test_torus),
		cmocka_unit_test(test_dragonflyplus),
		cmocka_unit_test(test_fattree),
		cmocka_unit_test(test_random_regular),
		cmocka_unit_test(test_random_links),
		cmocka_unit_test(test_recognition),
	};

	return cmocka_run_group_tests_name("generators", tests, NULL, NULL);
}
