/*
 * test_fabric.c - unit tests of the fabric model: nodes, ports, links,
 * name lookup, LID assignment and the summary counts.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

static void test_nodes_own_port_slots(void **state)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;
	uint32_t sw, ca;

	(void)state;
	sw = vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "sw", 36, 0x10, &err);
	ca = vlr_fabric_add_node(fabric, VLR_NODE_CA, "host", 2, 0x20, &err);
	assert_int_equal(sw, 0);
	assert_int_equal(ca, 1);
	assert_int_equal(fabric->num_ports, 37 + 3);
	assert_int_equal(vlr_port_at(fabric, ca, 0)->node, ca);
	assert_int_equal(vlr_port_at(fabric, sw, 36)->number, 36);
	assert_int_equal(vlr_port_at(fabric, ca, 2)->peer, VLR_NONE);
	assert_string_equal(vlr_node_name(fabric, ca), "host");
	assert_int_equal(vlr_fabric_find(fabric, "sw"), sw);
	assert_int_equal(vlr_fabric_find(fabric, "nobody"), VLR_NONE);
	vlr_fabric_free(fabric);
}

static void test_duplicate_and_bad_names_are_refused(void **state)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	char long_name[VLR_MAX_NAME + 2];
	struct vlr_error err;

	(void)state;
	assert_int_not_equal(vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "a", 4, 1, &err),
			     VLR_NONE);
	assert_int_equal(vlr_fabric_add_node(fabric, VLR_NODE_CA, "a", 1, 2, &err),
			 VLR_NONE);
	assert_non_null(strstr(err.message, "duplicate node name \"a\""));
	assert_int_equal(vlr_fabric_add_node(fabric, VLR_NODE_CA, "", 1, 3, &err),
			 VLR_NONE);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(vlr_fabric_add_node(fabric, VLR_NODE_CA, long_name, 1, 3, &err),
			 VLR_NONE);
	assert_non_null(strstr(err.message, "longer than 64"));
	assert_int_equal(vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "big", 255, 4, &err),
			 VLR_NONE);
	assert_non_null(strstr(err.message, "allowed: 1..254"));
	assert_int_equal(fabric->num_nodes, 1);
	vlr_fabric_free(fabric);
}

static void test_links_check_ports(void **state)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;
	uint32_t a, b;

	(void)state;
	a = vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "a", 4, 1, &err);
	b = vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "b", 4, 2, &err);
	assert_int_equal(vlr_fabric_link(fabric, a, 1, b, 2, &err), 0);
	assert_int_equal(vlr_port_at(fabric, a, 1)->peer, vlr_port_index(fabric, b, 2));
	assert_int_equal(vlr_port_at(fabric, b, 2)->peer, vlr_port_index(fabric, a, 1));
	/* parallel links are fine */
	assert_int_equal(vlr_fabric_link(fabric, a, 2, b, 1, &err), 0);
	assert_int_equal(test_links_between(fabric, a, b), 2);
	assert_int_equal(vlr_fabric_link(fabric, a, 1, b, 3, &err), -1);
	assert_non_null(strstr(err.message, "port 1 of \"a\" is already linked"));
	assert_int_equal(vlr_fabric_link(fabric, a, 5, b, 3, &err), -1);
	assert_non_null(strstr(err.message, "outside its ports 1..4"));
	assert_int_equal(vlr_fabric_link(fabric, a, 0, b, 3, &err), -1);
	assert_int_equal(vlr_fabric_link(fabric, a, 3, a, 4, &err), -1);
	assert_non_null(strstr(err.message, "its own node"));
	test_assert_links_consistent(fabric);
	vlr_fabric_free(fabric);
}

static void test_name_index_survives_growth(void **state)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	char name[32];
	struct vlr_error err;
	uint32_t i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "node%u", i);
		assert_int_equal(vlr_fabric_add_node(fabric, VLR_NODE_CA, name, 1, i, &err), i);
	}
	for (i = 0; i < 20000; i += 997) {
		snprintf(name, sizeof(name), "node%u", i);
		assert_int_equal(vlr_fabric_find(fabric, name), i);
	}
	vlr_fabric_free(fabric);
}

/* One switch with n hosts. */
static struct vlr_fabric *star(unsigned hosts)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;
	char name[32];
	unsigned i;

	vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, "sw", hosts, 1, &err);
	for (i = 0; i < hosts; i++) {
		snprintf(name, sizeof(name), "h%u", i);
		vlr_fabric_add_node(fabric, VLR_NODE_CA, name, 1, 100 + i, &err);
		assert_int_equal(vlr_fabric_link(fabric, 0, i + 1, i + 1, 1, &err), 0);
	}
	return fabric;
}

static void test_lids_are_aligned_blocks(void **state)
{
	struct vlr_fabric *fabric = star(5);
	struct vlr_error err;
	uint32_t host;

	(void)state;
	assert_int_equal(vlr_fabric_assign_lids(fabric, 2, &err), 0);
	assert_int_equal(vlr_port_at(fabric, 0, 0)->lid, 1);
	for (host = 1; host <= 5; host++) {
		const struct vlr_port *port = vlr_port_at(fabric, host, 1);

		assert_int_equal(port->lid % 4, 0);
		assert_int_equal(port->lmc, 2);
		assert_int_equal(port->lid, 4 * host);
	}
	assert_int_equal(vlr_fabric_lids_needed(fabric, 2), 1 + 5 * 4);
	assert_int_equal(fabric->lmc, 2);
	vlr_fabric_free(fabric);
}

static void test_lmc_and_lid_limits(void **state)
{
	struct vlr_fabric *fabric = star(200);
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_fabric_assign_lids(fabric, 8, &err), -1);
	assert_non_null(strstr(err.message, "LMC 8 is out of range 0..7"));
	/* 200 ports x 128 LIDs = 25600 LIDs: fits */
	assert_int_equal(vlr_fabric_assign_lids(fabric, 7, &err), 0);
	assert_int_equal(vlr_port_at(fabric, 200, 1)->lid, 200 * 128);
	vlr_fabric_free(fabric);
}

static void test_too_few_lids(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };
	struct vlr_fabric *fabric;
	struct vlr_error err;

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ .p = 8, .a = 16, .h = 8 };
	fabric = test_generate(&params);
	/* 2064 switches + 16512 hosts fit at LMC 1, not at LMC 2 */
	assert_int_equal(vlr_fabric_assign_lids(fabric, 1, &err), 0);
	assert_int_equal(vlr_fabric_assign_lids(fabric, 2, &err), -1);
	assert_non_null(strstr(err.message, "too few LIDs"));
	assert_non_null(strstr(err.message, "16512 CA ports"));
	vlr_fabric_free(fabric);
}

static void test_summary_counts(void **state)
{
	struct vlr_fabric *fabric = star(3);
	struct vlr_fabric_summary summary;

	(void)state;
	vlr_fabric_summarise(fabric, &summary);
	assert_int_equal(summary.switches, 1);
	assert_int_equal(summary.cas, 3);
	assert_int_equal(summary.links, 3);
	assert_int_equal(summary.endpoint_links, 3);
	assert_int_equal(summary.switch_links, 0);
	assert_int_equal(summary.radix, 3);
	assert_int_equal(summary.used_ports_min, 3);
	vlr_fabric_free(fabric);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes_own_port_slots),
		cmocka_unit_test(test_duplicate_and_bad_names_are_refused),
		cmocka_unit_test(test_links_check_ports),
		cmocka_unit_test(test_name_index_survives_growth),
		cmocka_unit_test(test_lids_are_aligned_blocks),
		cmocka_unit_test(test_lmc_and_lid_limits),
		cmocka_unit_test(test_too_few_lids),
		cmocka_unit_test(test_summary_counts),
	};

	return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
