/*
 * test_fabric.c - unit tests of the fabric model: nodes, ports, links,
 * name lookup, LID assignment, the summary counts, the GUID map, the
 * builder every discovered subnet goes through (vlr_fabric_build) and the
 * comparison of two fabrics as one subnet (vlr_fabric_same_subnet).
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

static void test_guid_map_finds_and_refuses_twice(void **state)
{
	struct vlr_guid_map map, never;
	struct vlr_error err;
	uint32_t i;

	(void)state;
	memset(&never, 0, sizeof(never));
	assert_int_equal(vlr_guid_map_get(&never, 0x10), VLR_NONE);
	assert_int_equal(vlr_guid_map_init(&map, 4, &err), 0);
	for (i = 1; i <= 1000; i++)
		assert_int_equal(vlr_guid_map_put(&map, 0x100000000ull * i, i, &err), VLR_NONE);
	assert_int_equal(vlr_guid_map_put(&map, 0x100000000ull * 7, 99, &err), 7);
	assert_int_equal(vlr_guid_map_get(&map, 0x100000000ull * 500), 500);
	assert_int_equal(vlr_guid_map_get(&map, 0x100000000ull * 1001), VLR_NONE);
	assert_int_equal(vlr_guid_map_get(&map, 0), VLR_NONE);
	vlr_guid_map_free(&map);
}

/* Cable port pa of subnet node a to port pb of b, both ends up or not. */
static void cable(struct vlr_subnet *subnet, uint32_t a, unsigned pa, uint32_t b,
		  unsigned pb, int up)
{
	struct vlr_subnet_port *x = vlr_subnet_port_at(subnet, a, pa);
	struct vlr_subnet_port *y = vlr_subnet_port_at(subnet, b, pb);

	x->peer_guid = subnet->nodes[b].guid;
	x->peer_port = (uint8_t)pb;
	y->peer_guid = subnet->nodes[a].guid;
	y->peer_port = (uint8_t)pa;
	x->up = y->up = (uint8_t)up;
}

/*
 * Added in this order: CA 0x31 "host", switch 0x20 "dup", switch 0x10
 * "dup", CA 0x30 "a#b" (no node id: '#'). Switch 0x10 port 1 is cabled to
 * switch 0x20 port 1, its port 2 to the host, switch 0x20 port 2 to CA
 * 0x30 with that link down.
 */
static void small_subnet(struct vlr_subnet *subnet)
{
	struct vlr_error err;
	uint32_t host, sw20, sw10, ca30;

	assert_int_equal(vlr_subnet_init(subnet, 4, 2 + 3 + 3 + 2, &err), 0);
	host = vlr_subnet_add_node(subnet, VLR_NODE_CA, 0x31, 1, "host", &err);
	sw20 = vlr_subnet_add_node(subnet, VLR_NODE_SWITCH, 0x20, 2, "dup", &err);
	sw10 = vlr_subnet_add_node(subnet, VLR_NODE_SWITCH, 0x10, 2, "dup", &err);
	ca30 = vlr_subnet_add_node(subnet, VLR_NODE_CA, 0x30, 1, "a#b", &err);
	assert_int_equal(ca30, 3);
	assert_int_equal(vlr_subnet_add_node(subnet, VLR_NODE_CA, 0x40, 1, "full", &err),
			 VLR_NONE);
	cable(subnet, sw10, 1, sw20, 1, 1);
	cable(subnet, sw10, 2, host, 1, 1);
	cable(subnet, sw20, 2, ca30, 1, 0);
	vlr_subnet_port_at(subnet, sw10, 0)->guid = 0x1000;
	vlr_subnet_port_at(subnet, sw10, 0)->lid = 1;
	vlr_subnet_port_at(subnet, sw20, 0)->lid = 2;
	vlr_subnet_port_at(subnet, host, 1)->guid = 0x3100;
	vlr_subnet_port_at(subnet, host, 1)->lid = 4;
	vlr_subnet_port_at(subnet, host, 1)->lmc = 1;
	vlr_subnet_port_at(subnet, host, 1)->vls = 2;
	vlr_subnet_port_at(subnet, sw10, 1)->vls = 8;
	vlr_subnet_port_at(subnet, sw20, 1)->vls = 4;
	vlr_subnet_port_at(subnet, sw10, 2)->vls = 1;	/* to the host: not a switch link */
}

static void test_build_orders_names_and_links(void **state)
{
	struct vlr_subnet_report report;
	struct vlr_subnet subnet;
	struct vlr_fabric *fabric;
	struct vlr_error err;

	(void)state;
	small_subnet(&subnet);
	subnet.lids_required = 1;
	fabric = vlr_fabric_build(&subnet, &report, &err);
	assert_non_null(fabric);
	/* switches first by GUID, then the CAs; "dup" twice names no node */
	assert_string_equal(vlr_node_name(fabric, 0), "S-0000000000000010");
	assert_string_equal(vlr_node_name(fabric, 1), "S-0000000000000020");
	assert_string_equal(vlr_node_name(fabric, 2), "H-0000000000000030");
	assert_string_equal(vlr_node_name(fabric, 3), "host");
	assert_string_equal(vlr_node_description(fabric, 0), "dup");
	assert_string_equal(vlr_node_description(fabric, 2), "a#b");
	assert_int_equal(subnet.nodes[0].made, 3);
	assert_int_equal(subnet.nodes[2].made, 0);
	/* the down link is left out, and counted */
	assert_int_equal(report.links, 2);
	assert_int_equal(report.links_skipped, 1);
	assert_int_equal(vlr_port_at(fabric, 2, 1)->peer, VLR_NONE);
	assert_int_equal(vlr_port_at(fabric, 1, 2)->peer, VLR_NONE);
	assert_int_equal(vlr_port_at(fabric, 0, 1)->peer, vlr_port_index(fabric, 1, 1));
	assert_int_equal(vlr_port_at(fabric, 3, 1)->peer, vlr_port_index(fabric, 0, 2));
	/* a switch's port 0 GUID on every port; LIDs where they belong */
	assert_int_equal(vlr_port_at(fabric, 0, 2)->guid, 0x1000);
	assert_int_equal(vlr_port_at(fabric, 1, 0)->lid, 2);
	assert_int_equal(vlr_port_at(fabric, 3, 1)->lid, 4);
	assert_int_equal(fabric->lmc, 1);
	assert_int_equal(report.vls, 1);
	assert_int_equal(report.switch_vls, 4);
	vlr_fabric_free(fabric);
	vlr_subnet_free(&subnet);
}

static void expect_build_error(struct vlr_subnet *subnet, const char *fragment1,
			       const char *fragment2)
{
	struct vlr_subnet_report report;
	struct vlr_error err;

	assert_null(vlr_fabric_build(subnet, &report, &err));
	if (!strstr(err.message, fragment1) || !strstr(err.message, fragment2))
		fail_msg("\"%s\" lacks \"%s\" or \"%s\"", err.message, fragment1, fragment2);
	vlr_subnet_free(subnet);
}

static void test_build_names_a_bad_peer(void **state)
{
	struct vlr_subnet subnet;

	(void)state;
	small_subnet(&subnet);
	vlr_subnet_port_at(&subnet, 1, 2)->peer_guid = 0x99;	/* switch 0x20 port 2 */
	expect_build_error(&subnet, "port 2 of switch 0x0000000000000020 (\"dup\")",
			   "leads to node 0x0000000000000099, which is not in the subnet");
	small_subnet(&subnet);
	vlr_subnet_port_at(&subnet, 3, 1)->peer_port = 1;	/* CA 0x30: not back */
	expect_build_error(&subnet, "port 2 of switch 0x0000000000000020 (\"dup\") leads "
			   "to port 1 of CA 0x0000000000000030", "does not lead back");
	small_subnet(&subnet);
	vlr_subnet_port_at(&subnet, 2, 2)->peer_port = 3;	/* switch 0x10 to the host */
	expect_build_error(&subnet, "port 2 of switch 0x0000000000000010 (\"dup\") leads "
			   "to port 3 of CA 0x0000000000000031", "which has ports 1..1");
	small_subnet(&subnet);
	subnet.nodes[1].guid = 0x10;
	expect_build_error(&subnet, "two nodes have NodeGUID 0x0000000000000010", "");
	small_subnet(&subnet);
	subnet.lids_required = 1;
	vlr_subnet_port_at(&subnet, 0, 1)->lid = 0;
	expect_build_error(&subnet, "port 1 of \"host\" has no LID", "");
}

static void test_build_skips_loopbacks(void **state)
{
	struct vlr_subnet_report report;
	struct vlr_subnet subnet;
	struct vlr_fabric *fabric;
	struct vlr_error err;

	(void)state;
	small_subnet(&subnet);
	vlr_subnet_port_at(&subnet, 2, 1)->peer_guid = 0;	/* switch 0x10 port 1 */
	vlr_subnet_port_at(&subnet, 3, 1)->peer_guid = 0;	/* CA 0x30 */
	cable(&subnet, 1, 1, 1, 2, 1);	/* switch 0x20: port 1 to port 2 */
	fabric = vlr_fabric_build(&subnet, &report, &err);
	assert_non_null(fabric);
	assert_int_equal(report.links, 1);
	assert_int_equal(report.links_skipped, 1);
	assert_int_equal(vlr_port_at(fabric, 1, 1)->peer, VLR_NONE);
	assert_int_equal(report.switch_vls, 0);
	vlr_fabric_free(fabric);
	vlr_subnet_free(&subnet);
}

static void test_vls_of_code(void **state)
{
	(void)state;
	assert_int_equal(vlr_vls_of_code(0), 0);
	assert_int_equal(vlr_vls_of_code(1), 1);
	assert_int_equal(vlr_vls_of_code(3), 4);
	assert_int_equal(vlr_vls_of_code(4), 8);
	assert_int_equal(vlr_vls_of_code(5), 15);
	assert_int_equal(vlr_vls_of_code(9), 15);
}

/*
 * Switches A, B, C (nodes 0, 2, 3; a CA is node 1) with two parallel links
 * A:2-B:3 and A:5-B:1, A:4-C:2 and B:4-C:1, hosts on A:1, A:3 and C:3,
 * and A:6 unlinked. The links come switch by switch in port order.
 */
static void test_switch_graph_links(void **state)
{
	static const uint32_t from[] = { 0, 0, 0, 1, 1, 1, 2, 2 };
	static const uint32_t neighbour[] = { 1, 2, 1, 0, 0, 2, 1, 0 };
	static const uint8_t port[] = { 2, 4, 5, 1, 3, 4, 1, 2 };
	static const uint8_t neighbour_port[] = { 3, 2, 1, 5, 2, 1, 4, 4 };
	static const uint32_t back[] = { 4, 7, 3, 2, 0, 6, 5, 1 };
	static const uint32_t offset[] = { 0, 3, 6, 8 };
	static const uint8_t hosts[] = { 2, 0, 1 };
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_switch_graph graph;
	uint32_t a, b, c, link, diameter, components;

	(void)state;
	a = test_add_switch(fabric, "A", 6);
	test_add_host(fabric, "h0", a, 1);
	b = test_add_switch(fabric, "B", 4);
	c = test_add_switch(fabric, "C", 3);
	test_add_host(fabric, "h1", a, 3);
	test_add_host(fabric, "h2", c, 3);
	test_join(fabric, a, 2, b, 3);
	test_join(fabric, a, 5, b, 1);
	test_join(fabric, a, 4, c, 2);
	test_join(fabric, b, 4, c, 1);
	assert_int_equal(vlr_switch_graph_build(fabric, &graph, NULL), 0);
	assert_int_equal(graph.num_switches, 3);
	assert_int_equal(graph.num_links, 8);
	assert_int_equal(graph.node_of[1], b);
	assert_int_equal(graph.switch_of[c], 2);
	assert_int_equal(graph.switch_of[1], VLR_NONE);
	assert_memory_equal(graph.offset, offset, sizeof(offset));
	assert_memory_equal(graph.hosts, hosts, sizeof(hosts));
	assert_memory_equal(graph.from, from, sizeof(from));
	assert_memory_equal(graph.neighbour, neighbour, sizeof(neighbour));
	assert_memory_equal(graph.port, port, sizeof(port));
	assert_memory_equal(graph.neighbour_port, neighbour_port, sizeof(neighbour_port));
	assert_memory_equal(graph.back, back, sizeof(back));
	for (link = 0; link < graph.num_links; link++)
		assert_int_equal(graph.link_of_port[vlr_link_slot(&graph, link)], link);
	assert_int_equal(vlr_link_slot(&graph, 4), vlr_port_index(fabric, b, 3));
	assert_int_equal(graph.link_of_port[vlr_port_index(fabric, a, 1)], VLR_NONE);
	assert_int_equal(graph.link_of_port[vlr_port_index(fabric, a, 6)], VLR_NONE);
	assert_int_equal(vlr_switch_degree(&graph, 1), 3);
	assert_int_equal(vlr_switch_diameter(&graph, &diameter, &components, NULL), 0);
	assert_int_equal(diameter, 1);
	assert_int_equal(components, 1);
	vlr_switch_graph_free(&graph);
	vlr_fabric_free(fabric);
}

/*
 * Two switches with two parallel links, a CA on each; every node with its
 * own GUID line, so that records can be reordered without renumbering.
 */
static const char same_subnet_text[] =
	"switchguid=0x100\n"
	"Switch 4 \"sw0\" # \"sw0\" lid 1 lmc 0\n"
	"[1] \"h0\"[1]\n[2] \"sw1\"[2]\n[3] \"sw1\"[3]\n\n"
	"switchguid=0x101\n"
	"Switch 4 \"sw1\" # \"sw1\" lid 2 lmc 0\n"
	"[1] \"h1\"[1]\n[2] \"sw0\"[2]\n[3] \"sw0\"[3]\n\n"
	"caguid=0x200\n"
	"Ca 1 \"h0\"\n[1] \"sw0\"[1] # lid 4 lmc 1\n\n"
	"caguid=0x300\n"
	"Ca 1 \"h1\"\n[1] \"sw1\"[1] # lid 6 lmc 1\n";

/* The same subnet, nodes in another order and under other names. */
static const char same_subnet_reordered[] =
	"caguid=0x300\n"
	"Ca 1 \"host-b\"\n[1] \"B\"[1] # lid 6 lmc 1\n\n"
	"switchguid=0x101\n"
	"Switch 4 \"B\" # \"B\" lid 2 lmc 0\n"
	"[1] \"host-b\"[1]\n[3] \"A\"[3]\n[2] \"A\"[2]\n\n"
	"switchguid=0x100\n"
	"Switch 4 \"A\" # \"A\" lid 1 lmc 0\n"
	"[2] \"B\"[2]\n[1] \"host-a\"[1]\n[3] \"B\"[3]\n\n"
	"caguid=0x200\n"
	"Ca 1 \"host-a\"\n[1] \"A\"[1] # lid 4 lmc 1\n";

/* Replace the first `from` in text (size bytes) by `to`; `from` must be there. */
static void edit(char *text, size_t size, const char *from, const char *to)
{
	char *at = strstr(text, from);
	char rest[sizeof(same_subnet_text) + 512];

	assert_non_null(at);
	snprintf(rest, sizeof(rest), "%s", at + strlen(from));
	snprintf(at, size - (size_t)(at - text), "%s%s", to, rest);
}

/* same_subnet_text with the edits (pairs of from, to; NULL ends them). */
static struct vlr_fabric *edited_fabric(const char *const *edits)
{
	char text[sizeof(same_subnet_text) + 512];
	struct vlr_fabric *fabric;
	struct vlr_error err;

	snprintf(text, sizeof(text), "%s", same_subnet_text);
	for (; edits && edits[0]; edits += 2)
		edit(text, sizeof(text), edits[0], edits[1]);
	fabric = test_read_text(text, &err);
	if (!fabric)
		fail_msg("%s", err.message);
	return fabric;
}

/* Comparing the original with the edited fabric fails naming `message`. */
static void expect_difference(const char *const *edits, const char *message)
{
	struct vlr_fabric *dir = edited_fabric(NULL), *live = edited_fabric(edits);
	struct vlr_error err;

	assert_int_equal(vlr_fabric_same_subnet(dir, "DIR", live, "the live subnet", &err),
			 -1);
	if (strcmp(err.message, message))
		fail_msg("got \"%s\"\nwanted \"%s\"", err.message, message);
	vlr_fabric_free(dir);
	vlr_fabric_free(live);
}

#define EDITS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The node h1 and its cable removed. */
#define WITHOUT_H1 "[1] \"h1\"[1]\n", "", \
	"caguid=0x300\nCa 1 \"h1\"\n[1] \"sw1\"[1] # lid 6 lmc 1\n", ""

static void test_same_subnet_matches_by_guid(void **state)
{
	struct vlr_fabric *dir = edited_fabric(NULL), *live;
	struct vlr_error err;

	(void)state;
	live = test_read_text(same_subnet_reordered, &err);
	if (!live)
		fail_msg("%s", err.message);
	assert_int_equal(vlr_fabric_same_subnet(dir, "DIR", dir, "DIR", &err), 0);
	assert_int_equal(vlr_fabric_same_subnet(dir, "DIR", live, "live", &err), 0);
	assert_int_equal(vlr_fabric_same_subnet(live, "live", dir, "DIR", &err), 0);
	vlr_fabric_free(live);
	vlr_fabric_free(dir);
}

static void test_same_subnet_names_nodes(void **state)
{
	(void)state;
	expect_difference(EDITS(WITHOUT_H1), "CA 0x0000000000000300 (\"h1\") is in DIR but "
			  "not in the live subnet");
	expect_difference(EDITS("caguid=0x300\n", "caguid=0x400\n"),
			  "CA 0x0000000000000300 (\"h1\") is in DIR but not in the live "
			  "subnet");
	expect_difference(EDITS("[3] \"sw0\"[3]\n\n", "[3] \"sw0\"[3]\n[4] \"h2\"[1]\n\n"
				"caguid=0x500\nCa 1 \"h2\"\n[1] \"sw1\"[4]\n\n"),
			  "CA 0x0000000000000500 (\"h2\") is in the live subnet but not "
			  "in DIR");
	expect_difference(EDITS("caguid=0x300\nCa 1 \"h1\"\n[1] \"sw1\"[1] # lid 6 lmc 1",
				"switchguid=0x300\nSwitch 1 \"h1\"\n[1] \"sw1\"[1]"),
			  "node 0x0000000000000300 (\"h1\") is a CA in DIR but a switch in "
			  "the live subnet");
	expect_difference(EDITS("Switch 4 \"sw1\"", "Switch 5 \"sw1\""),
			  "switch 0x0000000000000101 (\"sw1\") has 4 ports in DIR but 5 in "
			  "the live subnet");
}

static void test_same_subnet_names_links(void **state)
{
	(void)state;
	/* a link down (so missing) on the live side */
	expect_difference(EDITS("[3] \"sw1\"[3]\n", "", "[3] \"sw0\"[3]\n", ""),
			  "port 3 of switch 0x0000000000000100 (\"sw0\") is linked to port 3 "
			  "of switch 0x0000000000000101 (\"sw1\") in DIR, but not linked "
			  "(down or no cable) in the live subnet");
	/* the cable moved to another port of sw0 */
	expect_difference(EDITS("[3] \"sw1\"[3]\n", "[4] \"sw1\"[3]\n",
				"[3] \"sw0\"[3]\n", "[3] \"sw0\"[4]\n"),
			  "port 3 of switch 0x0000000000000100 (\"sw0\") is linked to port 3 "
			  "of switch 0x0000000000000101 (\"sw1\") in DIR, but not linked "
			  "(down or no cable) in the live subnet");
	/* the two parallel cables crossed */
	expect_difference(EDITS("[2] \"sw1\"[2]\n[3] \"sw1\"[3]\n",
				"[2] \"sw1\"[3]\n[3] \"sw1\"[2]\n",
				"[2] \"sw0\"[2]\n[3] \"sw0\"[3]\n",
				"[2] \"sw0\"[3]\n[3] \"sw0\"[2]\n"),
			  "port 2 of switch 0x0000000000000100 (\"sw0\") is linked to port 2 "
			  "of switch 0x0000000000000101 (\"sw1\") in DIR, but linked to port "
			  "3 of switch 0x0000000000000101 (\"sw1\") in the live subnet");
	/* a link the live subnet has and DIR has not */
	expect_difference(EDITS("[3] \"sw1\"[3]\n", "[3] \"sw1\"[3]\n[4] \"sw1\"[4]\n",
				"[3] \"sw0\"[3]\n", "[3] \"sw0\"[3]\n[4] \"sw0\"[4]\n"),
			  "port 4 of switch 0x0000000000000100 (\"sw0\") is not linked (down "
			  "or no cable) in DIR, but linked to port 4 of switch "
			  "0x0000000000000101 (\"sw1\") in the live subnet");
}

static void test_same_subnet_names_lids(void **state)
{
	(void)state;
	expect_difference(EDITS("\"sw1\" lid 2", "\"sw1\" lid 3"), "switch "
			  "0x0000000000000101 (\"sw1\") has LID 2 (LMC 0) in DIR but LID 3 "
			  "(LMC 0) in the live subnet");
	expect_difference(EDITS("lid 6 lmc 1", "lid 8 lmc 1"), "port 1 of CA "
			  "0x0000000000000300 (\"h1\") has LID 6 (LMC 1) in DIR but LID 8 "
			  "(LMC 1) in the live subnet");
	expect_difference(EDITS("lid 6 lmc 1", "lid 6 lmc 0"), "port 1 of CA "
			  "0x0000000000000300 (\"h1\") has LID 6 (LMC 1) in DIR but LID 6 "
			  "(LMC 0) in the live subnet");
	expect_difference(EDITS("[1] \"sw0\"[1] # lid 4", "[1](2ff) \"sw0\"[1] # lid 4"),
			  "port 1 of CA 0x0000000000000200 (\"h0\") has port GUID "
			  "0x0000000000000201 in DIR but 0x00000000000002ff in the live subnet");
	/* a missing node is named before the LIDs that differ */
	expect_difference(EDITS("lid 4 lmc 1", "lid 2 lmc 1", WITHOUT_H1),
			  "CA 0x0000000000000300 (\"h1\") is in DIR but not in the live "
			  "subnet");
}

static void test_same_subnet_needs_guids(void **state)
{
	struct vlr_fabric *dir = edited_fabric(NULL), *bad = vlr_fabric_new();
	struct vlr_error err;

	(void)state;
	assert_int_not_equal(vlr_fabric_add_node(bad, VLR_NODE_SWITCH, "x", 4, 0x100, &err),
			     VLR_NONE);
	assert_int_not_equal(vlr_fabric_add_node(bad, VLR_NODE_CA, "y", 1, 0x100, &err),
			     VLR_NONE);
	assert_int_equal(vlr_fabric_same_subnet(dir, "DIR", bad, "live", &err), -1);
	assert_string_equal(err.message, "nodes \"x\" and \"y\" of live have the same GUID "
			    "0x0000000000000100");
	bad->nodes[1].guid = 0;
	assert_int_equal(vlr_fabric_same_subnet(bad, "DIR", dir, "live", &err), -1);
	assert_string_equal(err.message, "node \"y\" of DIR has no GUID, so it cannot be "
			    "matched");
	vlr_fabric_free(bad);
	vlr_fabric_free(dir);
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
		cmocka_unit_test(test_guid_map_finds_and_refuses_twice),
		cmocka_unit_test(test_build_orders_names_and_links),
		cmocka_unit_test(test_build_names_a_bad_peer),
		cmocka_unit_test(test_build_skips_loopbacks),
		cmocka_unit_test(test_vls_of_code),
		cmocka_unit_test(test_switch_graph_links),
		cmocka_unit_test(test_same_subnet_matches_by_guid),
		cmocka_unit_test(test_same_subnet_names_nodes),
		cmocka_unit_test(test_same_subnet_names_links),
		cmocka_unit_test(test_same_subnet_names_lids),
		cmocka_unit_test(test_same_subnet_needs_guids),
	};

	return cmocka_run_group_tests_name("fabric", tests, NULL, NULL);
}
