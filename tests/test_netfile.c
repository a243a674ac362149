/*
 * test_netfile.c - reading and writing net files: ibsim's syntax,
 * ibnetdiscover output, round trips, and every malformed input refused
 * with FILE:LINE.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static uint32_t peer_node(const struct vlr_fabric *fabric, const char *name,
			  unsigned port)
{
	uint32_t node = vlr_fabric_find(fabric, name);

	assert_int_not_equal(node, VLR_NONE);
	assert_int_not_equal(vlr_port_at(fabric, node, port)->peer, VLR_NONE);
	return fabric->ports[vlr_port_at(fabric, node, port)->peer].node;
}

static unsigned peer_port(const struct vlr_fabric *fabric, const char *name,
			  unsigned port)
{
	uint32_t node = vlr_fabric_find(fabric, name);

	return fabric->ports[vlr_port_at(fabric, node, port)->peer].number;
}

/* ibsim's own example net file, as Debian ships it (ports partly unlinked). */
static const char ibsim_example[] =
	"# Net configuration file example\n"
	"#\n"
	"Switch\t8 \"Switch1\"\n"
	"[1]\t\"Hca1\"[1]\n"
	"[2]\t\"Hca2\"[2]\n"
	"[3]\t\"Switch2\"[3]\n"
	"[4]\t\"Switch2\"[4]\n"
	"\n"
	"Switch 8 \"Switch2\"\n"
	"[3]\t\"Switch1\"[3]\n"
	"[4]\t\"Switch1\"[4]\n"
	"\n"
	"Hca\t2 \"Hca1\"\n"
	"[1]\t\"Switch1\"[1]\n"
	"\n"
	"Hca\t2 \"Hca2\"\n"
	"[2]\t\"Switch1\"[2]\n";

static void test_reads_ibsim_example(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(ibsim_example, &err);
	struct vlr_fabric_summary summary;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	vlr_fabric_summarise(fabric, &summary);
	assert_int_equal(summary.switches, 2);
	assert_int_equal(summary.cas, 2);
	assert_int_equal(summary.links, 4);
	assert_int_equal(test_links_between(fabric, 0, 1), 2);
	assert_int_equal(peer_node(fabric, "Hca2", 2), vlr_fabric_find(fabric, "Switch1"));
	assert_int_equal(vlr_port_at(fabric, vlr_fabric_find(fabric, "Hca2"), 1)->peer,
			 VLR_NONE);
	/* ibsim's GUIDs: switches from 0x200000, CAs from 0x100000 by ports + 1 */
	assert_int_equal(fabric->nodes[vlr_fabric_find(fabric, "Switch2")].guid, 0x200001);
	assert_int_equal(fabric->nodes[vlr_fabric_find(fabric, "Hca2")].guid, 0x100003);
	assert_int_equal(vlr_port_at(fabric, vlr_fabric_find(fabric, "Hca2"), 2)->guid,
			 0x100005);
	assert_int_equal(fabric->nodes[0].line, 3);
	vlr_fabric_free(fabric);
}

static void test_optional_remote_port_and_options(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(
		"width=2\n"
		"switchguid=0x1000\n"
		"Switch 4 \"s\" # \"Spine one\" enhanced port 0 lid 7 lmc 0\n"
		"# a comment inside a record\n"
		"[1] \"h\"\n"
		"[2] \"t\"[1] w=8 s=4\n"
		"\n"
		"caguid+0x10\n"
		"Ca 1 \"h\"\n"
		"[1] \"s\"[1]\n"
		"\n"
		"Rt 1 \"t\"\n"
		"[1] \"s\"[2] # lid 12 lmc 2\n", &err);
	uint32_t s, h, t;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	s = vlr_fabric_find(fabric, "s");
	h = vlr_fabric_find(fabric, "h");
	t = vlr_fabric_find(fabric, "t");
	assert_int_equal(peer_node(fabric, "s", 1), h);
	assert_int_equal(fabric->nodes[s].guid, 0x1000);
	assert_int_equal(fabric->nodes[h].guid, 0x100010);
	assert_int_equal(fabric->nodes[t].type, VLR_NODE_ROUTER);
	assert_string_equal(vlr_node_description(fabric, s), "Spine one");
	assert_int_equal(fabric->nodes[s].enhanced_port0, 1);
	assert_int_equal(vlr_port_at(fabric, s, 0)->lid, 7);
	assert_int_equal(vlr_port_at(fabric, s, 1)->width, 2);
	assert_int_equal(vlr_port_at(fabric, s, 2)->width, 8);
	assert_int_equal(vlr_port_at(fabric, s, 2)->speed, 4);
	assert_int_equal(vlr_port_at(fabric, t, 1)->lid, 12);
	assert_int_equal(vlr_port_at(fabric, t, 1)->lmc, 2);
	assert_int_equal(fabric->lmc, 2);
	vlr_fabric_free(fabric);
}

static void test_aliases_modules_and_includes(void **state)
{
	char *included = test_write_file("part.net",
					 "Switch 2 \"leaf\"\n"
					 "@[2] \"uplink\"\n"
					 "[1] \"host\"[1]\n");
	char text[512];
	struct vlr_error err;
	struct vlr_fabric *fabric;

	(void)state;
	snprintf(text, sizeof(text),
		 "include \"%s\"\n"
		 "Ca 1 \"host\"\n"
		 "[1] \"leaf\"[1]\n"
		 "\n"
		 "Switch 1 \"spine\"\n"
		 "[1] \"@uplink\"\n"
		 "\n"
		 "module = \"m\"\n"
		 "Switch 1 \"x\"\n"
		 "[1] \"y\"[1]\n"
		 "Switch 1 \"y\"\n"
		 "[1] \"x\"[1]\n", included);
	fabric = test_read_text(text, &err);
	unlink(included);
	free(included);
	if (!fabric)
		fail_msg("%s", err.message);
	assert_int_equal(peer_node(fabric, "spine", 1), vlr_fabric_find(fabric, "leaf"));
	assert_int_equal(peer_port(fabric, "spine", 1), 2);
	assert_int_equal(peer_node(fabric, "m#x", 1), vlr_fabric_find(fabric, "m#y"));
	vlr_fabric_free(fabric);
}

/* What ibnetdiscover prints for a small real fabric. */
static const char ibnetdiscover_output[] =
	"#\n"
	"# Topology file: generated on Tue Jun  5 14:15:10 2007\n"
	"#\n"
	"# Initiated from node 0008f10403960558 port 0008f10403960559\n"
	"\n"
	"vendid=0x8f1\n"
	"devid=0x5a06\n"
	"sysimgguid=0x5442ba00003000\n"
	"switchguid=0x5442ba00003080(5442ba00003080)\n"
	"Switch\t24 \"S-005442ba00003080\"\t\t# \"ISR9024 Voltaire\" base port 0 lid 6 lmc 0\n"
	"[22]\t\"H-0008f10403961354\"[1](8f10403961355) \t\t# \"MT23108 InfiniHost Mellanox Technologies\" lid 4 4xSDR\n"
	"[10]\t\"S-0008f10400410015\"[1]\t\t# \"SW-6IB4 Voltaire\" lid 3 4xSDR\n"
	"\n"
	"vendid=0x8f1\n"
	"devid=0x5a05\n"
	"switchguid=0x8f10400410015(8f10400410015)\n"
	"Switch\t8 \"S-0008f10400410015\"\t\t# \"SW-6IB4 Voltaire\" base port 0 lid 3 lmc 0\n"
	"[1]\t\"S-005442ba00003080\"[10]\t\t# \"ISR9024 Voltaire\" lid 6 1xSDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0x5a44\n"
	"sysimgguid=0x8f10403961354\n"
	"caguid=0x8f10403961354\n"
	"Ca\t2 \"H-0008f10403961354\"\t\t# \"MT23108 InfiniHost Mellanox Technologies\"\n"
	"[1](8f10403961355) \t\"S-005442ba00003080\"[22]\t\t# lid 4 lmc 1 \"ISR9024 Voltaire\" lid 6 4xSDR\n";

static void test_reads_ibnetdiscover(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(ibnetdiscover_output, &err);
	uint32_t big, ca;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	big = vlr_fabric_find(fabric, "S-005442ba00003080");
	ca = vlr_fabric_find(fabric, "H-0008f10403961354");
	assert_int_equal(fabric->nodes[big].guid, 0x5442ba00003080ull);
	assert_int_equal(fabric->nodes[big].enhanced_port0, -1);
	assert_int_equal(vlr_port_at(fabric, big, 0)->lid, 6);
	assert_int_equal(fabric->nodes[ca].guid, 0x8f10403961354ull);
	assert_int_equal(vlr_port_at(fabric, ca, 1)->guid, 0x8f10403961355ull);
	assert_int_equal(vlr_port_at(fabric, ca, 1)->lid, 4);
	assert_int_equal(vlr_port_at(fabric, ca, 1)->lmc, 1);
	assert_string_equal(vlr_node_description(fabric, ca),
			    "MT23108 InfiniHost Mellanox Technologies");
	assert_int_equal(peer_port(fabric, "S-0008f10400410015", 1), 10);
	vlr_fabric_free(fabric);
}

static void assert_same_fabric(const struct vlr_fabric *a, const struct vlr_fabric *b)
{
	uint32_t node, port;

	assert_int_equal(a->num_nodes, b->num_nodes);
	for (node = 0; node < a->num_nodes; node++) {
		uint32_t same = vlr_fabric_find(b, vlr_node_name(a, node));
		unsigned number;

		assert_int_not_equal(same, VLR_NONE);
		assert_int_equal(a->nodes[node].type, b->nodes[same].type);
		assert_int_equal(a->nodes[node].guid, b->nodes[same].guid);
		assert_int_equal(a->nodes[node].num_ports, b->nodes[same].num_ports);
		for (number = 0; number <= a->nodes[node].num_ports; number++) {
			const struct vlr_port *pa = vlr_port_at(a, node, number);
			const struct vlr_port *pb = vlr_port_at(b, same, number);

			assert_int_equal(pa->guid, pb->guid);
			assert_int_equal(pa->lid, pb->lid);
			assert_int_equal(pa->peer == VLR_NONE, pb->peer == VLR_NONE);
			if (pa->peer == VLR_NONE)
				continue;
			port = pa->peer;
			assert_string_equal(vlr_node_name(a, a->ports[port].node),
					    vlr_node_name(b, b->ports[pb->peer].node));
			assert_int_equal(a->ports[port].number, b->ports[pb->peer].number);
		}
	}
}

static void round_trip(const struct vlr_family_params *params, unsigned lmc)
{
	struct vlr_fabric *fabric = test_generate(params), *back = vlr_fabric_new();
	char *path = test_write_file("round.net", "");
	struct vlr_error err;
	FILE *out = fopen(path, "w");

	assert_non_null(out);
	assert_int_equal(vlr_fabric_assign_lids(fabric, lmc, &err), 0);
	assert_int_equal(vlr_netfile_write(fabric, out, "round trip\ntest", &err), 0);
	assert_int_equal(fclose(out), 0);
	if (vlr_netfile_read(back, path, NULL, &err))
		fail_msg("%s", err.message);
	assert_same_fabric(fabric, back);
	assert_same_fabric(back, fabric);
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
	vlr_fabric_free(back);
}

static void test_round_trips(void **state)
{
	struct vlr_family_params params;

	(void)state;
	params.family = VLR_FAMILY_HYPERX;
	params.u.grid = (struct vlr_grid_params){ 2, { 3, 4 }, 2 };
	round_trip(&params, 0);
	params.family = VLR_FAMILY_TORUS;
	round_trip(&params, 1);
	params.family = VLR_FAMILY_DRAGONFLY;
	params.u.dragonfly = (struct vlr_dragonfly_params){ 2, 4, 2, 0,
							    VLR_ARRANGEMENT_PALMTREE };
	round_trip(&params, 2);
	params.family = VLR_FAMILY_DRAGONFLYPLUS;
	params.u.dragonflyplus = (struct vlr_dragonflyplus_params){ 2, 2, 2, 2, 3,
								    VLR_ARRANGEMENT_CONSECUTIVE };
	round_trip(&params, 0);
	params.family = VLR_FAMILY_FATTREE;
	params.u.fattree = (struct vlr_fattree_params){ 3, 3 };
	round_trip(&params, 0);
	params.family = VLR_FAMILY_RANDOM;
	params.u.random = (struct vlr_random_params){ 10, 3, 1, 5, 0, 0 };
	round_trip(&params, 0);
}

/*
 * Descriptions holding every keyword of the comment ("lid", "lmc",
 * "enhanced port 0", "base port 0") inside their quotes read back as they
 * were written: LIDs, LMC and port 0 kind come from the keywords outside
 * the quotes only.
 */
static void test_keywords_inside_descriptions(void **state)
{
	static const char *const descriptions[] = {
		"Solid 7", "valid", "lid 9 lmc 3", "enhanced port 0", "base port 0 lid 1",
		"lmc", "x lid", "lid",
	};
	struct vlr_family_params params;
	struct vlr_fabric *fabric, *back = vlr_fabric_new();
	char *path = test_write_file("keywords.net", "");
	struct vlr_error err;
	uint32_t node;
	FILE *out = fopen(path, "w");

	(void)state;
	params.family = VLR_FAMILY_HYPERX;
	params.u.grid = (struct vlr_grid_params){ 2, { 3, 3 }, 1 };
	fabric = test_generate(&params);
	for (node = 0; node < fabric->num_nodes; node++)
		assert_int_equal(vlr_fabric_set_description(fabric, node,
				 descriptions[node % 8], &err), 0);
	assert_int_equal(vlr_fabric_assign_lids(fabric, 1, &err), 0);
	assert_non_null(out);
	assert_int_equal(vlr_netfile_write(fabric, out, NULL, &err), 0);
	assert_int_equal(fclose(out), 0);
	if (vlr_netfile_read(back, path, NULL, &err))
		fail_msg("%s", err.message);
	assert_same_fabric(fabric, back);
	for (node = 0; node < fabric->num_nodes; node++) {
		uint32_t same = vlr_fabric_find(back, vlr_node_name(fabric, node));

		assert_string_equal(vlr_node_description(back, same), descriptions[node % 8]);
		assert_int_equal(vlr_port_at(back, same, 0)->lmc,
				 vlr_port_at(fabric, node, 0)->lmc);
		assert_int_equal(back->nodes[same].enhanced_port0,
				 fabric->nodes[node].enhanced_port0);
	}
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
	vlr_fabric_free(back);
}

/* The same in ibnetdiscover's dialect: a switch described "Solid 7 lid 2". */
static void test_keywords_inside_ibnetdiscover_descriptions(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(
		"switchguid=0x10\n"
		"Switch\t4 \"S-0000000000000010\"\t\t# \"Solid 7 lid 2\" base port 0 lid 5 lmc 0\n"
		"[1]\t\"H-0000000000000020\"[1](21) \t\t# \"valid lid 8\" lid 6 4xSDR\n"
		"\n"
		"caguid=0x20\n"
		"Ca\t1 \"H-0000000000000020\"\t\t# \"valid lid 8\"\n"
		"[1](21) \t\"S-0000000000000010\"[1]\t\t# \"Solid 7 lid 2\" lid 6 lmc 0 4xSDR\n",
		&err);
	uint32_t sw, ca;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	sw = vlr_fabric_find(fabric, "S-0000000000000010");
	ca = vlr_fabric_find(fabric, "H-0000000000000020");
	assert_int_equal(vlr_port_at(fabric, sw, 0)->lid, 5);
	assert_int_equal(fabric->nodes[sw].enhanced_port0, -1);
	assert_string_equal(vlr_node_description(fabric, sw), "Solid 7 lid 2");
	assert_int_equal(vlr_port_at(fabric, ca, 1)->lid, 6);
	vlr_fabric_free(fabric);
}

/*
 * A quoted description is kept exactly, blanks at its ends included, so
 * what the writer quotes comes back (found by fuzz/fuzz_netfile: a name
 * ending in a tab, written as the description of a switch with a LID).
 */
static void test_quoted_description_keeps_its_blanks(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(
		"Switch 1 \"s\t\" # \"s\t\" lid 3\n[1] \"h\"[1]\n"
		"Ca 1 \"h\" # \" edge \t\"\n[1] \"s\t\"[1]\n", &err);
	struct vlr_fabric *back = vlr_fabric_new();
	char *path = test_write_file("blanks.net", "");
	FILE *out = fopen(path, "w");
	const struct vlr_fabric *f;
	int pass;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	assert_non_null(out);
	assert_int_equal(vlr_netfile_write(fabric, out, NULL, &err), 0);
	assert_int_equal(fclose(out), 0);
	if (vlr_netfile_read(back, path, NULL, &err))
		fail_msg("%s", err.message);
	for (pass = 0, f = fabric; pass < 2; pass++, f = back) {
		assert_string_equal(vlr_node_description(f, vlr_fabric_find(f, "s\t")), "s\t");
		assert_string_equal(vlr_node_description(f, vlr_fabric_find(f, "h")), " edge \t");
	}
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
	vlr_fabric_free(back);
}

static void test_writer_keeps_foreign_guids(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(ibnetdiscover_output, &err);
	char *path = test_write_file("guids.net", "");
	struct vlr_fabric *back = vlr_fabric_new();
	FILE *out = fopen(path, "w");

	(void)state;
	assert_non_null(fabric);
	assert_int_equal(vlr_netfile_write(fabric, out, NULL, &err), 0);
	fclose(out);
	assert_int_equal(vlr_netfile_read(back, path, NULL, &err), 0);
	assert_int_equal(back->nodes[vlr_fabric_find(back, "S-0008f10400410015")].guid,
			 0x8f10400410015ull);

	assert_string_equal(vlr_node_description(back, vlr_fabric_find(back,
								       "S-005442ba00003080")),
			    "ISR9024 Voltaire");
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
	vlr_fabric_free(back);
}

/* Adapters whose port GUID is not node GUID + port (ConnectX-4 and later). */
static void test_writer_keeps_port_guids(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text("Switch 1 \"s\"\n[1] \"h\"[1]\n\n"
						   "caguid=0x5000\nCa 1 \"h\"\n"
						   "[1](5000) \"s\"[1]\n", &err);
	char *path = test_write_file("portguid.net", "");
	struct vlr_fabric *back = vlr_fabric_new();
	FILE *out = fopen(path, "w");

	(void)state;
	assert_non_null(fabric);
	assert_int_equal(vlr_port_at(fabric, 1, 1)->guid, 0x5000);
	assert_int_equal(vlr_netfile_write(fabric, out, NULL, &err), 0);
	fclose(out);
	assert_int_equal(vlr_netfile_read(back, path, NULL, &err), 0);
	assert_int_equal(vlr_port_at(back, vlr_fabric_find(back, "h"), 1)->guid, 0x5000);
	assert_int_equal(back->nodes[vlr_fabric_find(back, "h")].guid, 0x5000);
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
	vlr_fabric_free(back);
}

static void test_bad_inputs(void **state)
{
	(void)state;
	test_expect_read_error("Switch 2 \"a\"\n[1] \"b\"[1]\n\nSwitch 2 \"b\"\n[2] \"a\"[2]\n",
			       "fabric.net:2: port 1 of \"a\" links to port 1 of \"b\"",
			       "declares no link on port 1");
	test_expect_read_error("Switch 2 \"a\"\n[1] \"b\"[1]\n\nSwitch 2 \"b\"\n[1] \"a\"[2]\n",
			       "fabric.net:2:", "links that port to port 2 of \"a\"");
	test_expect_read_error("Switch 2 \"a\"\n[3] \"b\"[1]\n",
			       "fabric.net:2: port 3 of \"a\" is beyond its 2 ports", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[1] \"b\"[5]\n\nSwitch 2 \"b\"\n",
			       "fabric.net:2:", "which has only 2 ports (");
	test_expect_read_error("Switch 2 \"a\"\n\nCa 1 \"a\"\n",
			       "fabric.net:3: duplicate node name \"a\" (first at ", ":1)");
	test_expect_read_error("Switch 2 \"s\"\n\nCa 1 \"lonely\"\n",
			       "fabric.net:3: CA \"lonely\" has no linked port", NULL);
	test_expect_read_error("Switch 2 \"s\"\nLinks 3\n",
			       "fabric.net:2: unknown keyword \"Links\"", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[1] \"b\"[1]\n[1] \"b\"[2]\n",
			       "fabric.net:3: port 1 of \"a\" is declared twice", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[1] \"nobody\"[1]\n",
			       "fabric.net:2: port 1 of \"a\" links to unknown node \"nobody\"",
			       NULL);
	test_expect_read_error("Switch 2 \"a\"\n\n[1] \"b\"[1]\n",
			       "fabric.net:3: port line outside a node record", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[0] \"b\"[1]\n",
			       "fabric.net:2: port 0 of \"a\" cannot be linked", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[1] \"a\"[2]\n[2] \"a\"[1]\n",
			       "fabric.net:2: port 1 of \"a\" links to its own node", NULL);
	test_expect_read_error("Switch 300 \"a\"\n",
			       "fabric.net:1: expected a port count 1..254", NULL);
	test_expect_read_error("Switch 2 a\n",
			       "fabric.net:1: expected the node id in double quotes", NULL);
	test_expect_read_error("Switch 2 \"a\"\n[1] \"b\"[1] x=3\n",
			       "fabric.net:2: unknown port option \"x=3\"", NULL);
	test_expect_read_error("Switch 2 \"a\"\n\nSwitch 2 \"b\"\n  [1] \"a\"[1]\n",
			       "fabric.net:4: line starts with white space", NULL);
	test_expect_read_error("switchguid=0x5\nSwitch 1 \"a\"\n[1] \"b\"[1]\n"
			       "switchguid=0x5\nSwitch 1 \"b\"\n[1] \"a\"[1]\n",
			       "fabric.net:5: \"b\" has GUID 0x0000000000000005, already "
			       "taken by \"a\" (", NULL);
	test_expect_read_error("# nothing here\n", "holds no Switch, Ca or Rt record", NULL);
	test_expect_read_error("include \"/nonexistent/x.net\"\n",
			       "fabric.net:1: cannot open the included file \"/nonexistent/x.net\"",
			       NULL);
	test_expect_read_error("include \"/dev/zero\"\n",
			       "/dev/zero: is not a text file", NULL);
}

static void test_ignored_commands_are_reported(void **state)
{
	char *path = test_write_file("do.net", "do Unlink \"a\"[1]\n"
					       "Switch 1 \"a\"\n[1] \"b\"[1]\n\n"
					       "Switch 1 \"b\"\n[1] \"a\"[1]\n");
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_netfile_notes notes;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_netfile_read(fabric, path, &notes, &err), 0);
	assert_int_equal(notes.ignored_commands, 1);
	assert_non_null(strstr(notes.first_ignored, "do.net:1"));
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
}

static void test_ibsim_size_flags(void **state)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };
	struct vlr_ibsim_sizes sizes;
	struct vlr_fabric *fabric;
	struct vlr_error err;
	char flags[128];

	(void)state;
	params.u.dragonfly = (struct vlr_dragonfly_params){ 2, 4, 2, 0,
							    VLR_ARRANGEMENT_PALMTREE };
	fabric = test_generate(&params);
	vlr_ibsim_sizes(fabric, &sizes);
	assert_false(vlr_ibsim_needs_flags(&sizes));
	vlr_fabric_free(fabric);

	params.u.dragonfly = (struct vlr_dragonfly_params){ 6, 12, 6, 0,
							    VLR_ARRANGEMENT_PALMTREE };
	fabric = test_generate(&params);
	vlr_ibsim_sizes(fabric, &sizes);
	assert_true(vlr_ibsim_needs_flags(&sizes));
	vlr_ibsim_flags(&sizes, flags, sizeof(flags));
	/* 876 switches of 24 port slots, 5256 one-port CAs */
	assert_string_equal(flags, "-N 6132 -S 876 -P 26280");
	/* at LMC 3 the LIDs run past ibsim's 30720-entry forwarding tables */
	assert_int_equal(vlr_fabric_assign_lids(fabric, 3, &err), 0);
	vlr_ibsim_sizes(fabric, &sizes);
	vlr_ibsim_flags(&sizes, flags, sizeof(flags));
	assert_string_equal(flags, "-N 6132 -S 876 -P 26280 -L 42933");
	vlr_fabric_free(fabric);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_ibsim_example),
		cmocka_unit_test(test_optional_remote_port_and_options),
		cmocka_unit_test(test_aliases_modules_and_includes),
		cmocka_unit_test(test_reads_ibnetdiscover),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_keywords_inside_descriptions),
		cmocka_unit_test(test_keywords_inside_ibnetdiscover_descriptions),
		cmocka_unit_test(test_quoted_description_keeps_its_blanks),
		cmocka_unit_test(test_writer_keeps_foreign_guids),
		cmocka_unit_test(test_writer_keeps_port_guids),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_ignored_commands_are_reported),
		cmocka_unit_test(test_ibsim_size_flags),
	};

	return cmocka_run_group_tests_name("netfile", tests, NULL, NULL);
}
