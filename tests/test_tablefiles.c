/*
 * test_tablefiles.c - table sets as files: OpenSM's LFT, SL2VL, guid2lid
 * and subnet.lst formats checked against real OpenSM 3.3.23 output, our
 * path-SL format, directory round trips, and every malformed input
 * refused with FILE:LINE.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

/* ---- real OpenSM 3.3.23 output: HyperX 4x4, 2 hosts per switch ---------- */

/* OpenSM's guid2lid cache after routing "vlroute gen hyperx -s 4x4 -p 2". */
static const char opensm_guid2lid[] =
	"0x000000000010003d 0x002f 0x002f\n\n0x000000000010001d 0x001f 0x001f\n\n"
	"0x0000000000100019 0x001d 0x001d\n\n0x0000000000200004 0x0007 0x0007\n\n"
	"0x0000000000100003 0x0005 0x0005\n\n0x0000000000100025 0x0023 0x0023\n\n"
	"0x0000000000200005 0x0009 0x0009\n\n0x000000000010003f 0x0030 0x0030\n\n"
	"0x0000000000100031 0x0029 0x0029\n\n0x000000000010001f 0x0020 0x0020\n\n"
	"0x0000000000200006 0x000a 0x000a\n\n0x0000000000100005 0x0008 0x0008\n\n"
	"0x000000000010002b 0x0026 0x0026\n\n0x0000000000100027 0x0024 0x0024\n\n"
	"0x0000000000100011 0x0019 0x0019\n\n0x000000000020000a 0x0010 0x0010\n\n"
	"0x0000000000200007 0x000c 0x000c\n\n0x0000000000100033 0x002a 0x002a\n\n"
	"0x000000000020000b 0x0012 0x0012\n\n0x000000000010000b 0x0011 0x0011\n\n"
	"0x0000000000200008 0x000d 0x000d\n\n0x0000000000100007 0x000b 0x000b\n\n"
	"0x000000000010002d 0x0027 0x0027\n\n0x0000000000100029 0x0025 0x0025\n\n"
	"0x0000000000100013 0x001a 0x001a\n\n0x000000000020000c 0x0013 0x0013\n\n"
	"0x0000000000200009 0x000f 0x000f\n\n0x0000000000100035 0x002b 0x002b\n\n"
	"0x000000000020000d 0x0015 0x0015\n\n0x000000000010000d 0x0014 0x0014\n\n"
	"0x0000000000100009 0x000e 0x000e\n\n0x000000000010002f 0x0028 0x0028\n\n"
	"0x0000000000100015 0x001b 0x001b\n\n0x000000000020000e 0x0016 0x0016\n\n"
	"0x0000000000200000 0x0001 0x0001\n\n0x000000000010003b 0x002e 0x002e\n\n"
	"0x0000000000100037 0x002c 0x002c\n\n0x0000000000100021 0x0021 0x0021\n\n"
	"0x000000000020000f 0x0018 0x0018\n\n0x000000000010000f 0x0017 0x0017\n\n"
	"0x0000000000200001 0x0003 0x0003\n\n0x0000000000100001 0x0002 0x0002\n\n"
	"0x000000000010001b 0x001e 0x001e\n\n0x0000000000100017 0x001c 0x001c\n\n"
	"0x0000000000200002 0x0004 0x0004\n\n0x0000000000100039 0x002d 0x002d\n\n"
	"0x0000000000100023 0x0022 0x0022\n\n0x0000000000200003 0x0006 0x0006\n\n";

/* The first switch block of its opensm-lfts.dump. */
static const char opensm_lfts_first_block[] =
	"Unicast lids [0-48] of switch Lid 1 guid 0x0000000000200000 ('hx_0_0'):\n"
	"0x0001 000 # Switch portguid 0x0000000000200000: 'hx_0_0'\n"
	"0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'hx_0_0_h0'\n"
	"0x0003 003 # Switch portguid 0x0000000000200001: 'hx_1_0'\n"
	"0x0004 004 # Switch portguid 0x0000000000200002: 'hx_2_0'\n"
	"0x0005 002 # Channel Adapter portguid 0x0000000000100003: 'hx_0_0_h1'\n"
	"0x0006 005 # Switch portguid 0x0000000000200003: 'hx_3_0'\n"
	"0x0007 006 # Switch portguid 0x0000000000200004: 'hx_0_1'\n"
	"0x0008 003 # Channel Adapter portguid 0x0000000000100005: 'hx_1_0_h0'\n"
	"0x0009 006 # Switch portguid 0x0000000000200005: 'hx_1_1'\n"
	"0x000a 006 # Switch portguid 0x0000000000200006: 'hx_2_1'\n"
	"0x000b 003 # Channel Adapter portguid 0x0000000000100007: 'hx_1_0_h1'\n"
	"0x000c 006 # Switch portguid 0x0000000000200007: 'hx_3_1'\n"
	"0x000d 007 # Switch portguid 0x0000000000200008: 'hx_0_2'\n"
	"0x000e 004 # Channel Adapter portguid 0x0000000000100009: 'hx_2_0_h0'\n"
	"0x000f 003 # Switch portguid 0x0000000000200009: 'hx_1_2'\n"
	"0x0010 007 # Switch portguid 0x000000000020000a: 'hx_2_2'\n"
	"0x0011 004 # Channel Adapter portguid 0x000000000010000b: 'hx_2_0_h1'\n"
	"0x0012 007 # Switch portguid 0x000000000020000b: 'hx_3_2'\n"
	"0x0013 008 # Switch portguid 0x000000000020000c: 'hx_0_3'\n"
	"0x0014 005 # Channel Adapter portguid 0x000000000010000d: 'hx_3_0_h0'\n"
	"0x0015 003 # Switch portguid 0x000000000020000d: 'hx_1_3'\n"
	"0x0016 008 # Switch portguid 0x000000000020000e: 'hx_2_3'\n"
	"0x0017 005 # Channel Adapter portguid 0x000000000010000f: 'hx_3_0_h1'\n"
	"0x0018 005 # Switch portguid 0x000000000020000f: 'hx_3_3'\n"
	"0x0019 006 # Channel Adapter portguid 0x0000000000100011: 'hx_0_1_h0'\n"
	"0x001a 006 # Channel Adapter portguid 0x0000000000100013: 'hx_0_1_h1'\n"
	"0x001b 006 # Channel Adapter portguid 0x0000000000100015: 'hx_1_1_h0'\n"
	"0x001c 003 # Channel Adapter portguid 0x0000000000100017: 'hx_1_1_h1'\n"
	"0x001d 006 # Channel Adapter portguid 0x0000000000100019: 'hx_2_1_h0'\n"
	"0x001e 006 # Channel Adapter portguid 0x000000000010001b: 'hx_2_1_h1'\n"
	"0x001f 006 # Channel Adapter portguid 0x000000000010001d: 'hx_3_1_h0'\n"
	"0x0020 006 # Channel Adapter portguid 0x000000000010001f: 'hx_3_1_h1'\n"
	"0x0021 007 # Channel Adapter portguid 0x0000000000100021: 'hx_0_2_h0'\n"
	"0x0022 007 # Channel Adapter portguid 0x0000000000100023: 'hx_0_2_h1'\n"
	"0x0023 003 # Channel Adapter portguid 0x0000000000100025: 'hx_1_2_h0'\n"
	"0x0024 003 # Channel Adapter portguid 0x0000000000100027: 'hx_1_2_h1'\n"
	"0x0025 007 # Channel Adapter portguid 0x0000000000100029: 'hx_2_2_h0'\n"
	"0x0026 004 # Channel Adapter portguid 0x000000000010002b: 'hx_2_2_h1'\n"
	"0x0027 007 # Channel Adapter portguid 0x000000000010002d: 'hx_3_2_h0'\n"
	"0x0028 007 # Channel Adapter portguid 0x000000000010002f: 'hx_3_2_h1'\n"
	"0x0029 008 # Channel Adapter portguid 0x0000000000100031: 'hx_0_3_h0'\n"
	"0x002a 008 # Channel Adapter portguid 0x0000000000100033: 'hx_0_3_h1'\n"
	"0x002b 003 # Channel Adapter portguid 0x0000000000100035: 'hx_1_3_h0'\n"
	"0x002c 003 # Channel Adapter portguid 0x0000000000100037: 'hx_1_3_h1'\n"
	"0x002d 004 # Channel Adapter portguid 0x0000000000100039: 'hx_2_3_h0'\n"
	"0x002e 004 # Channel Adapter portguid 0x000000000010003b: 'hx_2_3_h1'\n"
	"0x002f 008 # Channel Adapter portguid 0x000000000010003d: 'hx_3_3_h0'\n"
	"0x0030 005 # Channel Adapter portguid 0x000000000010003f: 'hx_3_3_h1'\n"
	"48 lids dumped\n";

/* Lines of its opensm-subnet.lst (split here at "} {"). */
static const char opensm_subnet_lst[] =
	"{ CA Ports:01 SystemGUID:0000000000100000"
	" NodeGUID:0000000000100000 PortGUID:0000000000100001"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0_h0} LID:0002 PN:01 } "
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_0}"
	" LID:0001 PN:01 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:01 } "
	"{ CA Ports:01 SystemGUID:0000000000100000"
	" NodeGUID:0000000000100000 PortGUID:0000000000100001"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_0_h0}"
	" LID:0002 PN:01 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:02 } "
	"{ CA Ports:01 SystemGUID:0000000000100002"
	" NodeGUID:0000000000100002 PortGUID:0000000000100003"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_0_h1}"
	" LID:0005 PN:01 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:03 } "
	"{ SW Ports:08 SystemGUID:0000000000200001"
	" NodeGUID:0000000000200001 PortGUID:0000000000200001"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_1_0}"
	" LID:0003 PN:03 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:04 } "
	"{ SW Ports:08 SystemGUID:0000000000200002"
	" NodeGUID:0000000000200002 PortGUID:0000000000200002"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_2_0}"
	" LID:0004 PN:03 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:05 } "
	"{ SW Ports:08 SystemGUID:0000000000200003"
	" NodeGUID:0000000000200003 PortGUID:0000000000200003"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_3_0}"
	" LID:0006 PN:03 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:06 } "
	"{ SW Ports:08 SystemGUID:0000000000200004"
	" NodeGUID:0000000000200004 PortGUID:0000000000200004"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_1}"
	" LID:0007 PN:06 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:07 } "
	"{ SW Ports:08 SystemGUID:0000000000200008"
	" NodeGUID:0000000000200008 PortGUID:0000000000200008"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_2}"
	" LID:000D PN:06 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0} LID:0001 PN:08 } "
	"{ SW Ports:08 SystemGUID:000000000020000c"
	" NodeGUID:000000000020000c PortGUID:000000000020000c"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_3}"
	" LID:0013 PN:06 } PHY=4x LOG=ACT SPD=2.5\n"
	"{ CA Ports:01 SystemGUID:0000000000100002"
	" NodeGUID:0000000000100002 PortGUID:0000000000100003"
	" VenID:000000 DevID:0000 Rev:000000A1 {hx_0_0_h1} LID:0005 PN:01 } "
	"{ SW-SM Ports:08 SystemGUID:0000000000200000"
	" NodeGUID:0000000000200000 PortGUID:0000000000200000"
	" VenID:00000000 DevID:0000 Rev:000000A1 {hx_0_0}"
	" LID:0001 PN:02 } PHY=4x LOG=ACT SPD=2.5\n";

/* The block its opensm-sl2vl.dump starts with (every SL2VL is SL mod 8)... */
static const char opensm_sl2vl_start[] =
	"Switch 0x0000000000200000, base LID 1, \"hx_0_0\"\n"
	"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
	"#--------------------------------------------------------\n"
	"0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n"
	"1   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n";

/* ...its end and the blocks that follow it... */
static const char opensm_sl2vl_next[] =
	"8   8   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n"
	"#--------------------------------------------------------\n"
	"\n"
	"Channel Adapter 0x0000000000100001, base LID 2, \"hx_0_0_h0\"\n"
	"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
	"#--------------------------------------------------------\n"
	"0   0   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  7 \n"
	"#--------------------------------------------------------\n"
	"\n"
	"Switch 0x0000000000200001, base LID 3, \"hx_1_0\"\n";

/* ...and its size: 48 blocks, 16 switches and 32 CAs in OpenSM's GUID order. */
#define OPENSM_SL2VL_SIZE 79799

/* ---- helpers ------------------------------------------------------------ */

typedef int (*tables_writer)(const struct vlr_tables *tables, FILE *out,
			     struct vlr_error *err);
typedef int (*tables_reader)(struct vlr_tables *tables, const char *path,
			     struct vlr_error *err);

/* What a writer writes, as a string. */
static char *capture(tables_writer fn, const struct vlr_tables *tables)
{
	struct vlr_error err;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	if (fn(tables, out, &err))
		fail_msg("writing failed: %s", err.message);
	assert_int_equal(fclose(out), 0);
	return text;
}

static char *capture_guid2lid(const struct vlr_fabric *fabric)
{
	struct vlr_error err;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	if (vlr_guid2lid_write(fabric, out, &err))
		fail_msg("writing failed: %s", err.message);
	assert_int_equal(fclose(out), 0);
	return text;
}

static void write_text(const char *path, const char *text)
{
	FILE *out = fopen(path, "w");

	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

static void write_net(const struct vlr_fabric *fabric, const char *path)
{
	FILE *out = fopen(path, "w");
	struct vlr_error err;

	assert_non_null(out);
	if (vlr_netfile_write(fabric, out, NULL, &err))
		fail_msg("%s", err.message);
	assert_int_equal(fclose(out), 0);
}

static struct vlr_tables *new_tables(struct vlr_fabric *fabric, unsigned num_vls)
{
	struct vlr_error err;
	struct vlr_tables *tables = vlr_tables_new(fabric, num_vls, &err);

	if (!tables)
		fail_msg("%s", err.message);
	tables->owns_fabric = 1;
	return tables;
}

static struct vlr_tables *tables_for(struct vlr_fabric *fabric, unsigned lmc,
				     unsigned num_vls)
{
	struct vlr_error err;

	if (vlr_fabric_assign_lids(fabric, lmc, &err))
		fail_msg("%s", err.message);
	return new_tables(fabric, num_vls);
}

/*
 * Two switches with two hosts each, the fabric of vlroute-pathsl(5)'s
 * example: at LMC 1 the switches have LIDs 1 and 2, the hosts 4, 6, 8, 10
 * (port GUIDs 0x100001, 0x100003, 0x100005, 0x100007).
 */
static const char small_net[] =
	"Switch\t4 \"sw1\"\n[1]\t\"h1\"[1]\n[2]\t\"h2\"[1]\n[3]\t\"sw2\"[3]\n\n"
	"Switch\t4 \"sw2\"\n[1]\t\"h3\"[1]\n[2]\t\"h4\"[1]\n[3]\t\"sw1\"[3]\n\n"
	"Ca\t1 \"h1\"\n[1]\t\"sw1\"[1]\n\n"
	"Ca\t1 \"h2\"\n[1]\t\"sw1\"[2]\n\n"
	"Ca\t1 \"h3\"\n[1]\t\"sw2\"[1]\n\n"
	"Ca\t1 \"h4\"\n[1]\t\"sw2\"[2]\n";

static struct vlr_fabric *small_fabric(void)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(small_net, &err);

	if (!fabric)
		fail_msg("%s", err.message);
	return fabric;
}

static struct vlr_tables *small_tables(void)
{
	return tables_for(small_fabric(), 1, 4);
}

static uint32_t port_of(const struct vlr_fabric *fabric, const char *name,
			unsigned number)
{
	uint32_t node = vlr_fabric_find(fabric, name);

	if (node == VLR_NONE)
		fail_msg("no node \"%s\"", name);
	return vlr_port_index(fabric, node, number);
}

static uint32_t switch_of(const struct vlr_tables *tables, const char *name)
{
	uint32_t node = vlr_fabric_find(tables->fabric, name);

	if (node == VLR_NONE)
		fail_msg("no node \"%s\"", name);
	return tables->switch_of_node[node];
}

/* The message names FILE:LINE (line 0: any place) and holds fragment. */
static void assert_message(const struct vlr_error *err, const char *file,
			   unsigned line, const char *fragment)
{
	char where[128];

	snprintf(where, sizeof(where), "%s:%u: ", file, line);
	if ((line && !strstr(err->message, where)) || !strstr(err->message, fragment))
		fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", err->message,
			 line ? where : file, fragment);
}

/* Reading text with fn into the small tables fails at line with fragment. */
static void expect_tables_error(tables_reader fn, const char *text, unsigned line,
				const char *fragment)
{
	struct vlr_tables *tables = small_tables();
	char *path = test_write_file("bad.dump", text);
	struct vlr_error err;

	if (!fn(tables, path, &err))
		fail_msg("expected \"%s\" to be refused", text);
	assert_message(&err, "bad.dump", line, fragment);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* ---- OpenSM's own files ------------------------------------------------- */

/* HyperX 4x4 with 2 hosts per switch, LIDs as OpenSM gave them. */
static struct vlr_tables *opensm_sample_tables(void)
{
	struct vlr_grid_params grid = { 2, { 4, 4 }, 2 };
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_guid2lid_notes notes;
	struct vlr_error err;
	char *path = test_write_file("guid2lid", opensm_guid2lid);

	assert_non_null(fabric);
	if (vlr_gen_hyperx(fabric, &grid, &err) ||
	    vlr_guid2lid_read(fabric, path, &notes, &err))
		fail_msg("%s", err.message);
	assert_int_equal(notes.entries, 48);
	assert_int_equal(notes.unknown, 0);
	unlink(path);
	free(path);
	return new_tables(fabric, 8);
}

static void test_guid2lid_from_opensm(void **state)
{
	struct vlr_tables *tables = opensm_sample_tables();
	const struct vlr_fabric *fabric = tables->fabric;
	char *text;

	(void)state;
	assert_int_equal(tables->max_lid, 48);
	assert_int_equal(fabric->ports[port_of(fabric, "hx_0_0", 0)].lid, 1);
	assert_int_equal(fabric->ports[port_of(fabric, "hx_1_0", 0)].lid, 3);
	assert_int_equal(fabric->ports[port_of(fabric, "hx_3_3_h1", 1)].lid, 0x30);
	assert_int_equal(fabric->ports[port_of(fabric, "hx_3_3_h1", 1)].lmc, 0);
	/* the same entries, in port order: switches first, as generated */
	text = capture_guid2lid(fabric);
	assert_int_equal(strlen(text), strlen(opensm_guid2lid));
	assert_true(!strncmp(text, "0x0000000000200000 0x0001 0x0001\n\n"
			     "0x0000000000200001 0x0003 0x0003\n\n", 68));
	assert_non_null(strstr(text, "\n0x000000000010003d 0x002f 0x002f\n\n"));
	free(text);
	vlr_tables_free(tables);
}

static void test_lfts_match_opensm(void **state)
{
	struct vlr_tables *tables = opensm_sample_tables();
	char *path = test_write_file("opensm-lfts.dump", opensm_lfts_first_block);
	uint32_t first = switch_of(tables, "hx_0_0");
	struct vlr_error err;
	char *text;

	(void)state;
	if (vlr_lfts_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(vlr_tables_lft(tables, first)[0], VLR_NO_PORT);
	assert_int_equal(vlr_tables_lft(tables, first)[1], 0);
	assert_int_equal(vlr_tables_lft(tables, first)[2], 1);
	assert_int_equal(vlr_tables_lft(tables, first)[3], 3);
	assert_int_equal(vlr_tables_lft(tables, first)[0x30], 5);
	assert_int_equal(vlr_tables_lft(tables, switch_of(tables, "hx_1_0"))[2],
			 VLR_NO_PORT);
	/* written back: the block byte for byte, then the (empty) next switch */
	text = capture(vlr_lfts_write, tables);
	assert_true(!strncmp(text, opensm_lfts_first_block, strlen(opensm_lfts_first_block)));
	assert_true(!strncmp(text + strlen(opensm_lfts_first_block),
			     "Unicast lids [0-48] of switch Lid 3 guid 0x0000000000200001 "
			     "('hx_1_0'):\n48 lids dumped\n", 76));
	free(text);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

static void test_sl2vl_matches_opensm(void **state)
{
	struct vlr_tables *tables = opensm_sample_tables();
	struct vlr_error err;
	uint64_t at;
	char *text;

	(void)state;
	for (at = 0; at < tables->sl2vl_size; at++)
		tables->sl2vl[at] = (uint8_t)(at % VLR_NUM_SLS % 8);
	for (at = 0; at < (uint64_t)tables->fabric->num_ports * VLR_NUM_SLS; at++)
		tables->port_sl2vl[at] = (uint8_t)(at % VLR_NUM_SLS % 8);
	text = capture(vlr_sl2vl_write, tables);
	assert_true(!strncmp(text, opensm_sl2vl_start, strlen(opensm_sl2vl_start)));
	assert_non_null(strstr(text, opensm_sl2vl_next));
	assert_int_equal(strlen(text), OPENSM_SL2VL_SIZE);
	free(text);
	vlr_tables_sl2vl(tables, switch_of(tables, "hx_2_1"), 4, 7)[9] = 16;
	assert_int_equal(vlr_sl2vl_write(tables, stdout, &err), -1);
	assert_message(&err, "", 0, "the SL2VL table of \"hx_2_1\" port 0 maps SL 9 from "
		       "in port 4 to out port 7 to VL 16");
	vlr_tables_free(tables);
}

/* Two blocks in OpenSM's layout, with other VLs. */
static const char sl2vl_two_blocks[] =
	"Switch 0x0000000000200000, base LID 1, \"hx_0_0\"\n"
	"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
	"#--------------------------------------------------------\n"
	"2   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  6  14 \n"
	"#--------------------------------------------------------\n"
	"\n"
	"Channel Adapter 0x0000000000100001, base LID 2, \"hx_0_0_h0\"\n"
	"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
	"#--------------------------------------------------------\n"
	"0   0   : 7  6  5  4  3  2  1  0  0  1  2  3  4  5  6  7 \n"
	"#--------------------------------------------------------\n"
	"\n";

static void test_sl2vl_reads_opensm_blocks(void **state)
{
	struct vlr_tables *tables = opensm_sample_tables();
	const struct vlr_fabric *fabric = tables->fabric;
	char *path = test_write_file("opensm-sl2vl.dump", sl2vl_two_blocks);
	struct vlr_error err;

	(void)state;
	if (vlr_sl2vl_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(vlr_tables_sl2vl(tables, switch_of(tables, "hx_0_0"), 2, 1)[15], 14);
	assert_int_equal(vlr_tables_sl2vl(tables, switch_of(tables, "hx_0_0"), 2, 1)[7], 7);
	assert_int_equal(vlr_tables_sl2vl(tables, switch_of(tables, "hx_0_0"), 3, 1)[15], 0);
	assert_int_equal(vlr_tables_port_sl2vl(tables, port_of(fabric, "hx_0_0_h0", 1))[0], 7);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* OpenSM lists GUID-keyed maps by the byte-swapped GUID (x86). */
static void test_opensm_guid_order(void **state)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(
		"switchguid=0x200001\nSwitch\t2 \"a\"\n[1]\t\"b\"[1]\n\n"
		"switchguid=0x200100\nSwitch\t2 \"b\"\n[1]\t\"a\"[1]\n[2]\t\"c\"[1]\n\n"
		"switchguid=0x300000\nSwitch\t2 \"c\"\n[1]\t\"b\"[2]\n", &err);
	struct vlr_tables *tables;
	char *text;
	const char *a, *b, *c;

	(void)state;
	if (!fabric)
		fail_msg("%s", err.message);
	tables = tables_for(fabric, 0, 1);
	text = capture(vlr_lfts_write, tables);
	a = strstr(text, "guid 0x0000000000200001");
	b = strstr(text, "guid 0x0000000000200100");
	c = strstr(text, "guid 0x0000000000300000");
	assert_true(a && b && c && c < b && b < a);
	free(text);
	text = capture(vlr_sl2vl_write, tables);
	a = strstr(text, "Switch 0x0000000000200001");
	b = strstr(text, "Switch 0x0000000000200100");
	c = strstr(text, "Switch 0x0000000000300000");
	assert_true(a && b && c && c < b && b < a);
	free(text);
	vlr_tables_free(tables);
}

static void test_subnet_lst_from_opensm(void **state)
{
	char *path = test_write_file("opensm-subnet.lst", opensm_subnet_lst);
	struct vlr_fabric *fabric = vlr_fabric_new();
	const struct vlr_port *port;
	struct vlr_error err;
	uint32_t sw;

	(void)state;
	if (vlr_subnet_lst_read(fabric, path, &err))
		fail_msg("%s", err.message);
	/* hx_0_0, its two hosts and the six switches it links to */
	assert_int_equal(fabric->num_nodes, 9);
	sw = vlr_fabric_find(fabric, "hx_0_0");
	assert_int_not_equal(sw, VLR_NONE);
	assert_int_equal(fabric->nodes[sw].type, VLR_NODE_SWITCH);
	assert_int_equal(fabric->nodes[sw].num_ports, 8);
	assert_int_equal(fabric->nodes[sw].guid, 0x200000);
	assert_int_equal(vlr_port_at(fabric, sw, 0)->lid, 1);
	port = vlr_port_at(fabric, sw, 8);
	assert_string_equal(vlr_node_name(fabric, fabric->ports[port->peer].node), "hx_0_3");
	assert_int_equal(fabric->ports[port->peer].number, 6);
	assert_int_equal(vlr_port_at(fabric, fabric->ports[port->peer].node, 0)->lid, 0x13);
	port = &fabric->ports[port_of(fabric, "hx_0_0_h1", 1)];
	assert_int_equal(port->guid, 0x100003);
	assert_int_equal(port->lid, 5);
	assert_int_equal(fabric->ports[port->peer].number, 2);
	assert_int_equal(fabric->nodes[vlr_fabric_find(fabric, "hx_0_0_h1")].guid, 0x100002);
	vlr_fabric_free(fabric);
	unlink(path);
	free(path);
}

/* ---- writing subnet.lst the way OpenSM does, for the reader ------------- */

static void write_half(FILE *out, const struct vlr_fabric *fabric, uint32_t port,
		       int remote)
{
	const struct vlr_port *record = &fabric->ports[port];
	const struct vlr_node *node = &fabric->nodes[record->node];
	int is_switch = node->type == VLR_NODE_SWITCH;
	const struct vlr_port *lid_port = is_switch ? vlr_port_at(fabric, record->node, 0) :
				       record;

	fprintf(out, "{ %s Ports:%02X SystemGUID:%016llx NodeGUID:%016llx "
		"PortGUID:%016llx VenID:%0*X DevID:%04X Rev:%08X {%s} LID:%04X PN:%02X } ",
		is_switch ? "SW" : "CA", node->num_ports, (unsigned long long)node->guid,
		(unsigned long long)node->guid,
		(unsigned long long)(is_switch ? node->guid : record->guid),
		remote ? 8 : 6, 0x2c9, 0xcf08, 0xa1, vlr_node_description(fabric, record->node),
		lid_port->lid, record->number);
}

/* One line per linked port of every node, as dump_topology_node. */
static void write_subnet_lst(const struct vlr_fabric *fabric, const char *path)
{
	FILE *out = fopen(path, "w");
	uint32_t port;

	assert_non_null(out);
	for (port = 0; port < fabric->num_ports; port++) {
		if (fabric->ports[port].peer == VLR_NONE)
			continue;
		write_half(out, fabric, port, 0);
		write_half(out, fabric, fabric->ports[port].peer, 1);
		fprintf(out, "PHY=4x LOG=ACT SPD=2.5\n");
	}
	assert_int_equal(fclose(out), 0);
}

static void assert_same_fabric(const struct vlr_fabric *a, const struct vlr_fabric *b,
			       int check_lmc)
{
	uint32_t node, port;

	assert_int_equal(a->num_nodes, b->num_nodes);
	assert_int_equal(a->num_ports, b->num_ports);
	for (node = 0; node < a->num_nodes; node++) {
		uint32_t other = vlr_fabric_find(b, vlr_node_name(a, node));

		assert_int_not_equal(other, VLR_NONE);
		assert_int_equal(a->nodes[node].guid, b->nodes[other].guid);
		assert_int_equal(a->nodes[node].type, b->nodes[other].type);
		assert_int_equal(a->nodes[node].num_ports, b->nodes[other].num_ports);
		assert_string_equal(vlr_node_description(a, node),
				    vlr_node_description(b, other));
	}
	for (port = 0; port < a->num_ports; port++) {
		const struct vlr_port *x = &a->ports[port];
		uint32_t other = port_of(b, vlr_node_name(a, x->node), x->number);
		const struct vlr_port *y = &b->ports[other];

		assert_int_equal(x->peer == VLR_NONE, y->peer == VLR_NONE);
		if (x->peer != VLR_NONE) {
			assert_string_equal(vlr_node_name(a, a->ports[x->peer].node),
					    vlr_node_name(b, b->ports[y->peer].node));
			assert_int_equal(a->ports[x->peer].number, b->ports[y->peer].number);
		}
		if (x->peer != VLR_NONE || x->number == 0) {
			assert_int_equal(x->lid, y->lid);
			if (check_lmc)
				assert_int_equal(x->lmc, y->lmc);
		}
	}
}

static void test_subnet_lst_round_trip(void **state)
{
	struct vlr_grid_params grid = { 2, { 4, 4 }, 2 };
	struct vlr_fabric *fabric = vlr_fabric_new(), *read = vlr_fabric_new();
	char *path = test_scratch_path("generated-subnet.lst");
	struct vlr_error err;

	(void)state;
	if (vlr_gen_hyperx(fabric, &grid, &err) || vlr_fabric_assign_lids(fabric, 0, &err))
		fail_msg("%s", err.message);
	write_subnet_lst(fabric, path);
	if (vlr_subnet_lst_read(read, path, &err))
		fail_msg("%s", err.message);
	assert_same_fabric(fabric, read, 1);
	vlr_fabric_free(fabric);
	vlr_fabric_free(read);
	unlink(path);
	free(path);
}

static void test_subnet_lst_names(void **state)
{
	struct vlr_fabric *fabric = small_fabric(), *read = vlr_fabric_new();
	char *path = test_scratch_path("names-subnet.lst");
	struct vlr_error err;
	uint32_t node;

	(void)state;
	/* h1 and h2 share a description; h3's cannot be a node id */
	if (vlr_fabric_set_description(fabric, vlr_fabric_find(fabric, "h1"), "HCA-1", &err) ||
	    vlr_fabric_set_description(fabric, vlr_fabric_find(fabric, "h2"), "HCA-1", &err) ||
	    vlr_fabric_set_description(fabric, vlr_fabric_find(fabric, "h3"), "node#3", &err) ||
	    vlr_fabric_assign_lids(fabric, 0, &err))
		fail_msg("%s", err.message);
	write_subnet_lst(fabric, path);
	if (vlr_subnet_lst_read(read, path, &err))
		fail_msg("%s", err.message);
	node = vlr_fabric_find(read, "H-0000000000100000");
	assert_int_not_equal(node, VLR_NONE);
	assert_string_equal(vlr_node_description(read, node), "HCA-1");
	assert_int_not_equal(vlr_fabric_find(read, "H-0000000000100002"), VLR_NONE);
	node = vlr_fabric_find(read, "H-0000000000100004");
	assert_int_not_equal(node, VLR_NONE);
	assert_string_equal(vlr_node_description(read, node), "node#3");
	assert_int_not_equal(vlr_fabric_find(read, "h4"), VLR_NONE);
	assert_int_not_equal(vlr_fabric_find(read, "sw1"), VLR_NONE);
	vlr_fabric_free(fabric);
	vlr_fabric_free(read);
	unlink(path);
	free(path);
}

/* ---- our path-SL format ------------------------------------------------- */

static const char pathsl_example[] =
	"# Path SLs: the SL of every (source port, DLID); see vlroute-pathsl(5).\n"
	"# 2 rows of SLs for DLIDs 1..11, then the row of each source port.\n"
	"vlroute-pathsl 1\n"
	"lids 1 11\n"
	"row 0 0*7,1*4\n"
	"row 1 0*11\n"
	"port 0x0000000000100001 0\n"
	"port 0x0000000000100003 0\n"
	"port 0x0000000000100005 1\n"
	"port 0x0000000000100007 1\n";

static void test_pathsl_man_page_example(void **state)
{
	struct vlr_tables *tables = small_tables();
	const struct vlr_fabric *fabric = tables->fabric;
	char *path = test_write_file("vlroute-path-sl.dump", pathsl_example);
	struct vlr_error err;
	uint32_t lid;
	char *text;

	(void)state;
	assert_int_equal(tables->max_lid, 11);
	assert_int_equal(fabric->ports[port_of(fabric, "h3", 1)].lid, 8);
	if (vlr_pathsl_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->num_sl_rows, 2);
	for (lid = 1; lid <= 11; lid++) {
		uint8_t expected = lid >= 8;

		assert_int_equal(vlr_tables_path_sl(tables, port_of(fabric, "h1", 1), lid),
				 expected);
		assert_int_equal(vlr_tables_path_sl(tables, port_of(fabric, "h2", 1), lid),
				 expected);
		assert_int_equal(vlr_tables_path_sl(tables, port_of(fabric, "h4", 1), lid), 0);
	}
	text = capture(vlr_pathsl_write, tables);
	assert_string_equal(text, pathsl_example);
	free(text);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

static void test_pathsl_runs(void **state)
{
	struct vlr_tables *tables = small_tables();
	const struct vlr_fabric *fabric = tables->fabric;
	static const uint8_t sls[12] = { 0, 15, 15, 15, 15, 3, 3, 3, 10, 2, 2, 2 };
	struct vlr_error err;
	char *text, *path;

	(void)state;
	if (vlr_tables_alloc_sl_rows(tables, 3, &err))
		fail_msg("%s", err.message);
	memcpy(vlr_tables_sl_row(tables, 0), sls, sizeof(sls));
	memset(vlr_tables_sl_row(tables, 1), 9, tables->lid_stride);
	tables->port_sl_row[port_of(fabric, "h4", 1)] = 1;
	tables->port_sl_row[port_of(fabric, "h2", 1)] = 0;
	tables->port_sl_row[port_of(fabric, "sw1", 0)] = 2;	/* not a source: left out */
	text = capture(vlr_pathsl_write, tables);
	assert_non_null(strstr(text, "\nrow 0 f*4,333a222\nrow 1 9*11\nrow 2 0*11\n"
				     "port 0x0000000000100003 0\nport 0x0000000000100007 1\n"));
	assert_null(strstr(text, "0x0000000000200000"));
	free(text);

	/* runs before digits take a comma; a comma may end any count */
	path = test_write_file("runs.dump", "vlroute-pathsl 1\nlids 2 11\n"
			       "row 0 1*3,2*2,a3*3,4\nrow 1 F*10,\nport 0x0000000000100001 1\n"
			       "port 0x0000000000100003 0\n");
	if (vlr_pathsl_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->num_sl_rows, 2);
	assert_memory_equal(vlr_tables_sl_row(tables, 0),
			    "\0\0\1\1\1\2\2\12\3\3\3\4", 12);
	assert_int_equal(vlr_tables_path_sl(tables, port_of(fabric, "h1", 1), 1), 0);
	assert_int_equal(vlr_tables_path_sl(tables, port_of(fabric, "h1", 1), 11), 15);
	assert_int_equal(tables->port_sl_row[port_of(fabric, "h4", 1)], VLR_NONE);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* ---- our Valiant format ------------------------------------------------- */

static const char valiant_example[] =
	"# Valiant routes: the route kind of every LID and the node GUID of its\n"
	"# intermediate switch; see vlroute-valiant(5).\n"
	"policy 2phases minfirst 2 4\n"
	"0x0001 minimal\n"
	"0x0002 minimal\n"
	"0x0004 minimal\n"
	"0x0005 valiant 0x0000000000200001\n"
	"0x0006 minimal\n"
	"0x0007 valiant 0x0000000000200001\n"
	"0x0008 minimal\n"
	"0x0009 valiant 0x0000000000200000\n"
	"0x000a minimal\n"
	"0x000b restricted 0x0000000000200001\n";

/* Route kinds for every LID of tables: all minimal. */
static void add_route_kinds(struct vlr_tables *tables)
{
	uint32_t lid;

	tables->lid_kind = calloc(tables->lid_stride, 1);
	tables->lid_via = malloc(sizeof(uint32_t) * tables->lid_stride);
	assert_non_null(tables->lid_kind);
	assert_non_null(tables->lid_via);
	for (lid = 0; lid < tables->lid_stride; lid++)
		tables->lid_via[lid] = VLR_NONE;
}

static void test_valiant_man_page_example(void **state)
{
	struct vlr_tables *tables = small_tables();
	uint32_t sw1 = switch_of(tables, "sw1"), sw2 = switch_of(tables, "sw2"), lid;
	static const uint8_t kinds[12] = { 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 2 };
	char *path = test_write_file("vlroute-valiant.dump", valiant_example);
	struct vlr_error err;
	char *text;

	(void)state;
	assert_int_equal(tables->max_lid, 11);
	if (vlr_valiant_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_non_null(tables->lid_kind);
	assert_non_null(tables->lid_via);
	assert_int_equal(tables->policy.kind, VLR_VLP_TWO_PHASES);
	assert_int_equal(tables->policy.phase_min, VLR_MIN_FIRST);
	assert_int_equal(tables->policy.vls_per_phase, 2);
	assert_int_equal(tables->policy.vls, 4);
	for (lid = 0; lid <= 11; lid++) {
		uint32_t via = lid == 9 ? sw1 : lid % 2 && lid > 4 ? sw2 : VLR_NONE;

		assert_int_equal(tables->lid_kind[lid], kinds[lid]);
		assert_int_equal(tables->lid_via[lid], via);
	}
	text = capture(vlr_valiant_write, tables);
	assert_string_equal(text, valiant_example);
	free(text);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* The other policy lines, unlisted LIDs, comments, blanks and CR LF. */
static void test_valiant_reader_accepts(void **state)
{
	struct vlr_tables *tables = small_tables();
	struct vlr_error err;
	char *path, *text;

	(void)state;
	add_route_kinds(tables);
	tables->lid_kind[4] = VLR_LID_VALIANT;
	tables->lid_via[4] = 1;
	path = test_write_file("accept.dump", "\n  # first\r\n\tpolicy  ladder-reuse\t5\r\n"
			       "0x7 restricted 0x200001\n# 4 and the rest unlisted\n"
			       "0x0B minimal \n");
	if (vlr_valiant_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->policy.kind, VLR_VLP_LADDER_REUSE);
	assert_int_equal(tables->policy.vls, 5);
	assert_int_equal(tables->policy.vls_per_phase, 0);
	assert_int_equal(tables->lid_kind[7], VLR_LID_RESTRICTED);
	assert_int_equal(tables->lid_via[7], switch_of(tables, "sw2"));
	assert_int_equal(tables->lid_kind[4], VLR_LID_MINIMAL);
	assert_int_equal(tables->lid_via[4], VLR_NONE);
	assert_int_equal(tables->lid_kind[11], VLR_LID_MINIMAL);
	text = capture(vlr_valiant_write, tables);
	assert_non_null(strstr(text, "\npolicy ladder-reuse 5\n0x0001 minimal\n"));
	assert_non_null(strstr(text, "\n0x0007 restricted 0x0000000000200001\n"
				     "0x0008 minimal\n"));
	free(text);

	write_text(path, "policy none 0\npolicy layers 3\n");
	assert_int_equal(vlr_valiant_read(tables, path, &err), -1);
	write_text(path, "policy none 0\n");
	if (vlr_valiant_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->policy.kind, VLR_VLP_NONE);
	assert_int_equal(tables->lid_kind[7], VLR_LID_MINIMAL);
	write_text(path, "policy layers 3\n");
	if (vlr_valiant_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->policy.kind, VLR_VLP_LAYERS);
	write_text(path, "policy 2phases minboth 3 7\n");
	if (vlr_valiant_read(tables, path, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->policy.kind, VLR_VLP_TWO_PHASES);
	assert_int_equal(tables->policy.phase_min, VLR_MIN_BOTH);
	assert_int_equal(tables->policy.vls_per_phase, 3);
	assert_int_equal(tables->policy.vls, 7);
	text = capture(vlr_valiant_write, tables);
	assert_non_null(strstr(text, "\npolicy 2phases minboth 3 7\n"));
	free(text);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* ---- directories -------------------------------------------------------- */

/* Deterministic, varied contents for every table. */
static void fill_tables(struct vlr_tables *tables)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, lid, port, row;
	struct vlr_error err;
	unsigned in, out, sl;

	for (sw = 0; sw < tables->num_switches; sw++) {
		uint32_t node = tables->switch_node[sw];
		unsigned ports = fabric->nodes[node].num_ports;
		uint8_t *lft = vlr_tables_lft(tables, sw);

		for (lid = 1; lid <= tables->max_lid; lid++) {
			if ((sw + lid) % 13 == 0)
				continue;	/* not routed */
			if (tables->lid_owner[lid] == VLR_NONE && sw % 2)
				continue;
			lft[lid] = (uint8_t)((sw * 7 + lid * 3) % (ports + 1));
		}
		for (in = 0; in <= ports; in++)
			for (out = 0; out <= ports; out++)
				for (sl = 0; sl < VLR_NUM_SLS; sl++)
					vlr_tables_sl2vl(tables, sw, in, out)[sl] =
						(uint8_t)((sw + 3 * in + 5 * out + sl) % 16);
	}
	if (vlr_tables_alloc_sl_rows(tables, 5, &err))
		fail_msg("%s", err.message);
	for (row = 0; row < 5; row++)
		for (lid = 0; lid <= tables->max_lid; lid++)
			vlr_tables_sl_row(tables, row)[lid] = (uint8_t)(
				row == 4 ? (lid < 100 ? 0 : 3) :
				row % 2 ? (lid * lid >> 3) % 16 : (lid / (row + 1) + row) % 16);
	for (port = 0; port < fabric->num_ports; port++) {
		if (!vlr_tables_is_source(tables, port))
			continue;
		tables->port_sl_row[port] = port % 6 == 5 ? VLR_NONE : port % 5;
		for (sl = 0; sl < VLR_NUM_SLS; sl++)
			vlr_tables_port_sl2vl(tables, port)[sl] = (uint8_t)((port + sl) % 16);
	}
}

/* Every LFT entry of a in b, switches matched by name. */
static void assert_same_lfts(const struct vlr_tables *a, const struct vlr_tables *b)
{
	uint32_t sw;

	assert_int_equal(a->num_switches, b->num_switches);
	assert_int_equal(a->lid_stride, b->lid_stride);
	for (sw = 0; sw < a->num_switches; sw++)
		assert_memory_equal(vlr_tables_lft(a, sw),
				    vlr_tables_lft(b, switch_of(b, vlr_node_name(a->fabric,
							a->switch_node[sw]))),
				    a->lid_stride);
}

/* The fabric, and every LFT entry, path SL and written SL2VL entry of a in b. */
static void assert_same_tables(const struct vlr_tables *a, const struct vlr_tables *b)
{
	assert_same_fabric(a->fabric, b->fabric, 1);
	test_assert_same_tables(a, b);
}

/* The names in dir, sorted and joined by spaces. */
static void list_dir(const char *dir, char *buf, size_t size)
{
	struct dirent **entries;
	int count = scandir(dir, &entries, NULL, alphasort), i;

	assert_true(count >= 0);
	buf[0] = '\0';
	for (i = 0; i < count; i++) {
		if (entries[i]->d_name[0] != '.' || strlen(entries[i]->d_name) > 2)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
				 buf[0] ? " " : "", entries[i]->d_name);
		free(entries[i]);
	}
	free(entries);
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = {
		VLR_FILE_FABRIC, VLR_FILE_GUID2LID, VLR_FILE_LFTS, VLR_FILE_SL2VL,
		VLR_FILE_PATH_SL, VLR_FILE_VALIANT, VLR_FILE_SUBNET_LST, VLR_FILE_ROUTE_INFO,
	};
	char path[4096];
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static struct vlr_tables *dragonfly_tables(void)
{
	struct vlr_dragonfly_params params = { 2, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE };
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;
	struct vlr_tables *tables;

	assert_non_null(fabric);
	if (vlr_gen_dragonfly(fabric, &params, &err))
		fail_msg("%s", err.message);
	tables = tables_for(fabric, 1, 4);
	fill_tables(tables);
	return tables;
}

static void test_dir_round_trip(void **state)
{
	struct vlr_tables *tables = dragonfly_tables(), *read;
	struct vlr_tables_dir_notes notes;
	char *dir = test_scratch_path("tables");
	struct vlr_error err;
	char names[1024];

	(void)state;
	assert_int_equal(tables->num_switches, 36);
	assert_int_equal(tables->fabric->lmc, 1);
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid opensm-lfts.dump "
			    "opensm-sl2vl.dump vlroute-path-sl.dump");
	read = vlr_tables_read_dir(dir, NULL, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_true(read->owns_fabric);
	assert_true(notes.has_guid2lid && notes.has_sl2vl && notes.has_path_sl);
	assert_false(notes.lmc_inferred || notes.has_valiant);
	assert_null(read->lid_kind);
	assert_null(read->lid_via);
	assert_int_equal(read->policy.kind, VLR_VLP_NONE);
	assert_int_equal(notes.guid2lid.entries, 36 + 72);
	assert_non_null(strstr(notes.topology, "/fabric.net"));
	assert_same_tables(tables, read);
	vlr_tables_free(read);

	/* writing again replaces the files whole */
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid opensm-lfts.dump "
			    "opensm-sl2vl.dump vlroute-path-sl.dump");
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/*
 * Tables marked unprogrammable have no SLs to write: no SL2VL or path-SL
 * dump, and the mark in vlroute-route.info, which the reader takes back
 * into the tables.
 */
static void test_dir_unprogrammable(void **state)
{
	struct vlr_unprogrammable mark = { 1, 20, 6, 4 };
	struct vlr_tables *tables = dragonfly_tables(), *read;
	struct vlr_tables_dir_notes notes;
	char *dir = test_scratch_path("ideal");
	struct vlr_error err;
	char names[1024];

	(void)state;
	tables->unprogrammable = mark;
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid opensm-lfts.dump vlroute-route.info");
	read = vlr_tables_read_dir(dir, NULL, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_false(notes.has_sl2vl || notes.has_path_sl);
	assert_memory_equal(&read->unprogrammable, &mark, sizeof(mark));
	vlr_unprogrammable_describe(&read->unprogrammable, names, sizeof(names));
	assert_string_equal(names, "not programmable: needs 20 SLs and 6 VLs (4 offered)");
	vlr_tables_free(read);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/* DIR/NAME holding text. */
static void put_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

/* The tables of dir read for num_vls data VLs offer expected. */
static void assert_read_vls(const char *dir, unsigned num_vls, unsigned expected)
{
	struct vlr_tables *read;
	struct vlr_error err;

	read = vlr_tables_read_dir(dir, NULL, num_vls, NULL, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_int_equal(read->num_vls, expected);
	vlr_tables_free(read);
}

/*
 * The data VLs of tables read from a directory: those asked for, else
 * those its vlroute-route.info says they were routed for ("vls N", which
 * the mark of tables for ideal VLs only comes with), else 8; a vls line
 * out of range is refused with FILE:LINE.
 */
static void test_dir_vls(void **state)
{
	struct vlr_tables *tables = dragonfly_tables();
	char *dir = test_scratch_path("vls");
	struct vlr_error err;

	(void)state;
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	assert_read_vls(dir, 0, VLR_TABLES_DEFAULT_VLS);
	assert_int_equal(VLR_TABLES_DEFAULT_VLS, 8);
	put_file(dir, VLR_FILE_ROUTE_INFO, "engine dfsssp\nvls 3\n");
	assert_read_vls(dir, 0, 3);
	assert_read_vls(dir, 5, 5);
	put_file(dir, VLR_FILE_ROUTE_INFO, "engine dfsssp\nvls 16\n");
	assert_null(vlr_tables_read_dir(dir, NULL, 0, NULL, &err));
	assert_message(&err, VLR_FILE_ROUTE_INFO, 2, "vls needs a number 1..15, not \"16\"");
	tables->unprogrammable = (struct vlr_unprogrammable){ 1, 20, 6, 4 };
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	assert_int_equal(tables->num_vls, 4);
	assert_read_vls(dir, 0, 4);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

static void remove_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(remove(path), 0);
}

static void dir_hash(const char *dir, char hex[VLR_SHA256_HEX])
{
	struct vlr_error err;

	if (vlr_tables_dir_hash(dir, hex, &err))
		fail_msg("%s", err.message);
}

/*
 * The table-set hash as formats.h defines it: the name, a NUL, the length
 * in decimal, a NUL and the contents of each file in name order; the same
 * for the same files anywhere; blind to dot files, subdirectories, the
 * provenance and the route info; seeing every byte, name and boundary.
 */
static void test_dir_hash(void **state)
{
	static const char stream[] = "B\0" "1\0" "z" "a\0" "2\0" "xy" "b\0" "0\0";
	unsigned char digest[VLR_SHA256_BYTES];
	char *one = test_scratch_path("hash-one"), *two = test_scratch_path("hash-two");
	char expected[VLR_SHA256_HEX], hex[VLR_SHA256_HEX], other[VLR_SHA256_HEX];
	struct vlr_sha256 ctx;
	struct vlr_error err;

	(void)state;
	assert_int_equal(mkdir(one, 0755), 0);
	assert_int_equal(mkdir(two, 0755), 0);
	vlr_sha256_init(&ctx);
	vlr_sha256_update(&ctx, stream, sizeof(stream) - 1);
	vlr_sha256_final(&ctx, digest);
	vlr_sha256_hex(digest, expected);
	put_file(one, "b", "");			/* written out of order: */
	put_file(one, "a", "xy");		/* "B" sorts before "a" and "b" */
	put_file(one, "B", "z");
	dir_hash(one, hex);
	assert_string_equal(hex, expected);

	put_file(two, "B", "z");
	put_file(two, "a", "xy");
	put_file(two, "b", "");
	put_file(two, ".hidden", "ignored");
	put_file(two, VLR_FILE_PROVENANCE, "{}\n");
	put_file(two, VLR_FILE_ROUTE_INFO, "engine sssp\nseconds 1.5\n");
	snprintf(other, sizeof(other), "%s/subdir", two);
	assert_int_equal(mkdir(other, 0755), 0);
	dir_hash(two, hex);
	assert_string_equal(hex, expected);
	assert_int_equal(rmdir(other), 0);

	put_file(two, "a", "x");		/* a byte moves to the next file */
	put_file(two, "b", "y");
	dir_hash(two, other);
	assert_string_not_equal(other, expected);
	remove_in(two, "b");			/* a renamed file */
	put_file(two, "a", "xy");
	put_file(two, "c", "");
	dir_hash(two, other);
	assert_string_not_equal(other, expected);
	put_file(two, "a", "xz");		/* a changed byte */
	remove_in(two, "c");
	put_file(two, "b", "");
	dir_hash(two, other);
	assert_string_not_equal(other, expected);
	assert_int_equal(vlr_tables_dir_hash("/nonexistent/tables", hex, &err), -1);
	assert_non_null(strstr(err.message, "/nonexistent/tables: cannot list"));
	free(one);
	free(two);
}

/* A table directory's provenance: its hashes and vlroute-route.info. */
static void test_tables_provenance(void **state)
{
	struct vlr_tables *tables = dragonfly_tables();
	struct vlr_route_info info = { "valiant", 0.25, "2phases minfirst K=1 (2 VLs)", 1,
				      -1, { 0, 0, 0, 0 } };
	char *dir = test_scratch_path("provenance-tables"), fabric[4096], hex[VLR_SHA256_HEX];
	char before[VLR_SHA256_HEX];
	struct vlr_provenance_tables t;
	struct vlr_error err;

	(void)state;
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	snprintf(fabric, sizeof(fabric), "%s/%s", dir, VLR_FILE_FABRIC);
	if (vlr_tables_provenance(dir, fabric, &t, &err))
		fail_msg("%s", err.message);
	assert_string_equal(t.path, dir);
	dir_hash(dir, before);
	assert_string_equal(t.sha256, before);
	assert_string_equal(t.fabric, fabric);
	assert_int_equal(vlr_sha256_file(fabric, hex, &err), 0);
	assert_string_equal(t.fabric_sha256, hex);
	assert_string_equal(t.engine, "");
	assert_string_equal(t.vl_policy, "");
	assert_int_equal(t.lmc, -1);
	if (vlr_route_info_write(dir, &info, &err))
		fail_msg("%s", err.message);
	if (vlr_tables_provenance(dir, fabric, &t, &err))
		fail_msg("%s", err.message);
	dir_hash(dir, hex);
	assert_string_equal(t.sha256, hex);
	assert_string_equal(t.sha256, before);	/* the route info is not hashed */
	assert_string_equal(t.engine, "valiant");
	assert_string_equal(t.vl_policy, "2phases minfirst K=1 (2 VLs)");
	assert_int_equal(t.lmc, 1);
	remove_in(dir, VLR_FILE_ROUTE_INFO);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/* An OpenSM dump_files_dir: subnet.lst and dumps, no guid2lid: LMC inferred. */
static void test_dir_from_opensm_dump(void **state)
{
	struct vlr_tables *tables = dragonfly_tables(), *read;
	struct vlr_tables_dir_notes notes;
	char *dir = test_scratch_path("opensm-dump"), path[4096];
	struct vlr_error err;
	FILE *out;

	(void)state;
	assert_int_equal(mkdir(dir, 0777), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_SUBNET_LST);
	write_subnet_lst(tables->fabric, path);
	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_LFTS);
	out = fopen(path, "w");
	assert_non_null(out);
	if (vlr_lfts_write(tables, out, &err))
		fail_msg("%s", err.message);
	assert_int_equal(fclose(out), 0);
	read = vlr_tables_read_dir(dir, NULL, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_true(notes.lmc_inferred);
	assert_false(notes.has_guid2lid || notes.has_sl2vl || notes.has_path_sl);
	assert_int_equal(read->fabric->lmc, 1);
	assert_same_fabric(tables->fabric, read->fabric, 1);
	assert_int_equal(read->max_lid, tables->max_lid);
	assert_same_lfts(tables, read);
	vlr_tables_free(read);

	/* the fabric may come from elsewhere */
	snprintf(path, sizeof(path), "%s/%s", dir, "elsewhere.net");
	write_net(tables->fabric, path);
	read = vlr_tables_read_dir(dir, path, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_string_equal(notes.topology, path);
	assert_false(notes.lmc_inferred);
	assert_same_lfts(tables, read);
	vlr_tables_free(read);
	unlink(path);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

static void test_dir_errors(void **state)
{
	struct vlr_tables *tables = small_tables(), *read;
	char *dir = test_scratch_path("broken"), path[4096];
	struct vlr_error err;
	char names[1024];

	(void)state;
	assert_int_equal(mkdir(dir, 0777), 0);
	read = vlr_tables_read_dir(dir, NULL, 4, NULL, &err);
	assert_null(read);
	assert_message(&err, dir, 0, "holds neither fabric.net nor opensm-subnet.lst");

	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_FABRIC);
	write_net(tables->fabric, path);
	read = vlr_tables_read_dir(dir, NULL, 4, NULL, &err);
	assert_null(read);
	assert_message(&err, "opensm-lfts.dump", 0, "cannot open");

	/* a writer that fails leaves the directory as it was, no temporary beside it */
	if (vlr_tables_alloc_sl_rows(tables, 1, &err))
		fail_msg("%s", err.message);
	vlr_tables_sl_row(tables, 0)[3] = 16;
	assert_int_equal(vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err), -1);
	assert_message(&err, "vlroute-path-sl.dump", 0, "SL row 0 gives LID 3 SL 16");
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net");
	snprintf(path, sizeof(path), "%s/..", dir);
	list_dir(path, names, sizeof(names));
	assert_null(strstr(names, ".broken.vlroute-"));
	assert_null(vlr_tables_read_dir(dir, NULL, 4, NULL, &err));
	assert_message(&err, "opensm-lfts.dump", 0, "cannot open");
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/* Kind and intermediate of every LID of a in b, switches matched by name. */
static void assert_same_route_kinds(const struct vlr_tables *a, const struct vlr_tables *b)
{
	uint32_t lid;

	assert_int_equal(a->lid_stride, b->lid_stride);
	for (lid = 0; lid <= a->max_lid; lid++) {
		uint32_t via = a->lid_via[lid];

		assert_int_equal(a->lid_kind[lid], b->lid_kind[lid]);
		if (via == VLR_NONE)
			assert_int_equal(b->lid_via[lid], VLR_NONE);
		else
			assert_int_equal(b->lid_via[lid],
					 switch_of(b, vlr_node_name(a->fabric,
								    a->switch_node[via])));
	}
	assert_int_equal(a->policy.kind, b->policy.kind);
	assert_int_equal(a->policy.phase_min, b->policy.phase_min);
	assert_int_equal(a->policy.vls_per_phase, b->policy.vls_per_phase);
	assert_int_equal(a->policy.vls, b->policy.vls);
}

static void test_valiant_dir_round_trip(void **state)
{
	struct vlr_tables *tables = dragonfly_tables(), *read;
	struct vlr_tables_dir_notes notes;
	char *dir = test_scratch_path("valiant-tables"), path[4096];
	unsigned valiant = 0, restricted = 0;
	struct vlr_error err;
	char names[1024];
	uint32_t lid;

	(void)state;
	add_route_kinds(tables);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		if (tables->lid_owner[lid] == VLR_NONE || lid % 3 == 0)
			continue;
		tables->lid_kind[lid] = lid % 3 == 1 ? VLR_LID_VALIANT : VLR_LID_RESTRICTED;
		tables->lid_via[lid] = (lid * 7) % tables->num_switches;
		valiant += lid % 3 == 1;
		restricted += lid % 3 == 2;
	}
	assert_true(valiant > 30 && restricted > 30);
	tables->policy = (struct vlr_vl_policy){ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 3, 7, 0 };
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid opensm-lfts.dump "
			    "opensm-sl2vl.dump vlroute-path-sl.dump vlroute-valiant.dump");
	read = vlr_tables_read_dir(dir, NULL, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_true(notes.has_valiant && notes.has_path_sl);
	assert_same_tables(tables, read);
	assert_same_route_kinds(tables, read);
	vlr_tables_free(read);

	/* a bad file fails the directory, naming its line */
	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_VALIANT);
	write_text(path, "policy ladder 4\n0x0001 sideways\n");
	assert_null(vlr_tables_read_dir(dir, NULL, 4, &notes, &err));
	assert_message(&err, "vlroute-valiant.dump", 2, "unknown route kind \"sideways\"");

	/* tables without route kinds take the file away */
	free(tables->lid_kind);
	tables->lid_kind = NULL;
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid opensm-lfts.dump "
			    "opensm-sl2vl.dump vlroute-path-sl.dump");
	read = vlr_tables_read_dir(dir, NULL, 4, &notes, &err);
	if (!read)
		fail_msg("%s", err.message);
	assert_false(notes.has_valiant);
	assert_null(read->lid_kind);
	vlr_tables_free(read);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/* ---- bad input ---------------------------------------------------------- */

#define LFT_HEADER "Unicast lids [0-11] of switch Lid 1 guid 0x0000000000200000 ('sw1'):\n"

static void test_bad_lfts(void **state)
{
	(void)state;
	expect_tables_error(vlr_lfts_read, "Unicast lids [0-11] of switch Lid 1 guid "
			    "0x0000000000200009 ('x'):\n", 1,
			    "unknown switch GUID 0x0000000000200009");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0000 000 # x\n", 2,
			    "LID 0 is not a unicast LID");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0xc000 001\n", 2,
			    "beyond the unicast LIDs");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x000c 001\n", 2,
			    "LID 12 is beyond the tables' highest LID 11");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 005\n", 2,
			    "port 5 is beyond the 4 ports of switch \"sw1\"");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 abc\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001 x\n", 2,
			    "unexpected text after the port");
	expect_tables_error(vlr_lfts_read, "# comment\n0x0004 001\n", 2,
			    "LID line outside a switch block");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001 # Channel Adapter "
			    "portguid 0x0000000000100003: 'h2'\n", 2,
			    "LID 4 belongs to \"h1\" port 1 (GUID 0x0000000000100001) in "
			    "the tables, but the dump gives it to port GUID "
			    "0x0000000000100003");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001 # unknown node and type\n",
			    2, "says \"unknown node and type\"");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0003 001 # Switch portguid "
			    "0x0000000000200000: 'sw1'\n", 2, "LID 3 belongs to no port");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001\n0x0004 002\n", 3,
			    "LID 4 is listed twice for switch \"sw1\"");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001\n10 lids dumped\n", 3,
			    "\"10 lids dumped\", but the header of line 1 says [0-11]");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001\n", 1, "truncated?");
	expect_tables_error(vlr_lfts_read, LFT_HEADER LFT_HEADER, 2,
			    "before the \"lids dumped\" line");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "11 lids dumped\n" LFT_HEADER, 3,
			    "second block for switch \"sw1\"");
	expect_tables_error(vlr_lfts_read, "Unicast lids [0-11] of switch Lid 2 guid "
			    "0x0000000000200000 ('sw1'):\n", 1,
			    "switch \"sw1\" has LID 2 here but LID 1 in the tables");
	expect_tables_error(vlr_lfts_read, "Unicast lids [0-11] of switch guid "
			    "0x0000000000200000 ('sw1'):\n", 1, "malformed switch header");
	expect_tables_error(vlr_lfts_read, LFT_HEADER "0x0004 001 # Channel Adapter "
			    "portguid 0xzz\n", 2, "malformed portguid");
	expect_tables_error(vlr_lfts_read, "Multicast mlids [0xc000-0xc001] of switch\n", 1,
			    "multicast");
	expect_tables_error(vlr_lfts_read, "hello\n", 1, "unrecognised line");
	expect_tables_error(vlr_lfts_read, "\n# nothing\n", 0, "holds no switch block");
}

static void test_lfts_reader_accepts(void **state)
{
	struct vlr_tables *tables = small_tables();
	size_t comment = 3u << 20;	/* longer than the reader's first buffer */
	char *text = malloc(comment + 512), *path;
	struct vlr_error err;
	uint8_t *lft;

	(void)state;
	assert_non_null(text);
	text[0] = '#';
	memset(text + 1, 'x', comment - 1);
	strcpy(text + comment, "\r\n  " LFT_HEADER "0x4 1 # hand-written\n"
	       "0x0005 002\t\n0x0008 3 # Channel Adapter portguid 0x100005: 'h3'\r\n"
	       "11 lids dumped");
	path = test_write_file("accepts.dump", text);
	if (vlr_lfts_read(tables, path, &err))
		fail_msg("%s", err.message);
	lft = vlr_tables_lft(tables, switch_of(tables, "sw1"));
	assert_int_equal(lft[4], 1);
	assert_int_equal(lft[5], 2);
	assert_int_equal(lft[8], 3);
	assert_int_equal(lft[1], VLR_NO_PORT);
	/* "010" is ten, as OpenSM's base-10 strtoul reads it, not octal 8 */
	write_text(path, LFT_HEADER "0x0004 010\n11 lids dumped\n");
	assert_int_equal(vlr_lfts_read(tables, path, &err), -1);
	assert_message(&err, "accepts.dump", 2, "port 10 is beyond");
	unlink(path);
	free(path);
	free(text);
	vlr_tables_free(tables);
}

#define SL2VL_HEADER "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
#define SL2VL_SEPARATOR "#--------------------------------------------------------\n"
#define SW1_BLOCK "Switch 0x0000000000200000, base LID 1, \"sw1\"\n" SL2VL_HEADER \
	SL2VL_SEPARATOR
#define H1_BLOCK "Channel Adapter 0x0000000000100001, base LID 4, \"h1\"\n" \
	SL2VL_HEADER SL2VL_SEPARATOR

static void test_bad_sl2vl(void **state)
{
	(void)state;
	expect_tables_error(vlr_sl2vl_read, "Channel Adapter 0x0000000000100009, base "
			    "LID 4, \"x\"\n", 1, "unknown port GUID 0x0000000000100009");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 16\n", 4, "VL 16 is out of range 0..15");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "5   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 15\n", 4, "port 5 is beyond the 4 ports of switch");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14\n", 4, "short row: 15 VLs, expected 16");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 15 0\n", 4, "more than 16 VLs");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 15\n", 4, "malformed row");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 x 14 15\n", 4, "malformed VL");
	expect_tables_error(vlr_sl2vl_read, H1_BLOCK "1   0   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 15\n", 4, "the row of an endpoint port is \"0 0\"");
	expect_tables_error(vlr_sl2vl_read, "Switch 0x0000000000100001, base LID 4, "
			    "\"h1\"\n", 1, "is \"h1\" port 1, a Channel Adapter, not a Switch");
	expect_tables_error(vlr_sl2vl_read, "Channel Adapter 0x0000000000100001, base "
			    "LID 9, \"h1\"\n", 1, "has LID 9 here but LID 4 in the tables");
	expect_tables_error(vlr_sl2vl_read, "Switch 0x0000000000200000, base LID 1, "
			    "\"sw1\"\n" SL2VL_SEPARATOR, 2, "expected the header");
	expect_tables_error(vlr_sl2vl_read, "Switch 0x0000000000200000, base LID 1, "
			    "\"sw1\"\n" SL2VL_HEADER SL2VL_HEADER, 3, "expected the separator");
	expect_tables_error(vlr_sl2vl_read, SW1_BLOCK "0   1   : 0 1 2 3 4 5 6 7 8 9 10 "
			    "11 12 13 14 15\n", 1, "the file ends inside this block");
	expect_tables_error(vlr_sl2vl_read, H1_BLOCK SL2VL_SEPARATOR "\n" H1_BLOCK, 6,
			    "second block for \"h1\" port 1");
	expect_tables_error(vlr_sl2vl_read, "\n0   1   : 0 1 2 3 4 5 6 7 8 9 10 11 12 13 "
			    "14 15\n", 2, "expected a port line");
}

/* vlr_guid2lid_read into the small fabric fails at line with fragment. */
static void expect_guid2lid_error(const char *text, unsigned line, const char *fragment)
{
	struct vlr_fabric *fabric = small_fabric();
	char *path = test_write_file("guid2lid", text);
	struct vlr_error err;

	if (!vlr_guid2lid_read(fabric, path, NULL, &err))
		fail_msg("expected \"%s\" to be refused", text);
	assert_message(&err, "guid2lid", line, fragment);
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
}

static void test_guid2lid_entries(void **state)
{
	struct vlr_fabric *fabric = small_fabric();
	struct vlr_guid2lid_notes notes;
	char *path = test_write_file("guid2lid",
				     "0x0000000000100001 0x0004 0x0007\n\n"
				     "0x0000000000200000 0x0001 0x0001\n\n"
				     "0x00000000deadbeef 0x0010 0x0011\n\n"
				     "0x0000000000100005 12 12\n");
	struct vlr_error err;

	(void)state;
	if (vlr_guid2lid_read(fabric, path, &notes, &err))
		fail_msg("%s", err.message);
	assert_int_equal(notes.entries, 4);
	assert_int_equal(notes.unknown, 1);
	assert_non_null(strstr(notes.first_unknown, "guid2lid:5"));
	assert_int_equal(fabric->ports[port_of(fabric, "h1", 1)].lid, 4);
	assert_int_equal(fabric->ports[port_of(fabric, "h1", 1)].lmc, 2);
	assert_int_equal(fabric->ports[port_of(fabric, "h3", 1)].lid, 12);
	assert_int_equal(fabric->ports[port_of(fabric, "sw1", 0)].lid, 1);
	assert_int_equal(fabric->lmc, 2);
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);

	expect_guid2lid_error("0x0000000000100001 0x0004 0x0006\n", 1,
			      "3 LIDs 0x0004..0x0006");
	expect_guid2lid_error("0x0000000000100001 0x0006 0x0009\n", 1,
			      "do not start at a multiple of 4");
	expect_guid2lid_error("0x100001 0x0004 0x0004\n", 1, "16 hex digits");
	expect_guid2lid_error("0x00000000001000AB 0x0004 0x0004\n", 1, "upper-case");
	expect_guid2lid_error("0x0000000000100001 0x0004\n", 1, "the last LID");
	expect_guid2lid_error("\n 0x0000000000100001 0x0004 0x0004\n", 2, "white space");
	expect_guid2lid_error("0x0000000000100001 0x0004 0x0004\n\n"
			      "0x0000000000100001 0x0006 0x0006\n", 3,
			      "second entry for GUID 0x0000000000100001");
	expect_guid2lid_error("0x0000000000100001 0x0004 0x0004\n0x0005\n", 2,
			      "a second line in one entry");
	expect_guid2lid_error("0x0000000000100001 0x0000 0x0000\n", 1,
			      "not a range of unicast LIDs");
	expect_guid2lid_error("0x0000000000100001 0xc000 0xc000\n", 1,
			      "not a range of unicast LIDs");
}

/* vlr_subnet_lst_read fails at line with fragment. */
static void expect_subnet_lst_error(const char *text, unsigned line, const char *fragment)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	char *path = test_write_file("opensm-subnet.lst", text);
	struct vlr_error err;

	assert_non_null(fabric);
	if (!vlr_subnet_lst_read(fabric, path, &err))
		fail_msg("expected \"%s\" to be refused", text);
	assert_message(&err, "opensm-subnet.lst", line, fragment);
	unlink(path);
	free(path);
	vlr_fabric_free(fabric);
}

#define LST_SW(PORTS, PN) "{ SW Ports:" PORTS " SystemGUID:0000000000200000 " \
	"NodeGUID:0000000000200000 PortGUID:0000000000200000 VenID:000000 DevID:0000 " \
	"Rev:000000A1 {sw} LID:0001 PN:" PN " } "
#define LST_CA(GUID, PN) "{ CA Ports:02 SystemGUID:00000000001000" GUID " " \
	"NodeGUID:00000000001000" GUID " PortGUID:00000000001000" GUID " VenID:00000000 " \
	"DevID:0000 Rev:000000A1 {ca " GUID "} LID:0002 PN:" PN " } "
#define LST_STATE "PHY=4x LOG=ACT SPD=2.5\n"

static void test_bad_subnet_lst(void **state)
{
	(void)state;
	expect_subnet_lst_error("garbage\n", 1, "malformed line");
	expect_subnet_lst_error(LST_SW("08", "01") LST_CA("10", "01") "PHY=4x\n", 1,
				"malformed line");
	expect_subnet_lst_error(LST_SW("08", "09") LST_CA("10", "01") LST_STATE, 1,
				"PN:09 is outside the ports 1..8 of node 0x0000000000200000");
	expect_subnet_lst_error(LST_SW("08", "01") LST_CA("10", "01") LST_STATE
				LST_SW("04", "02") LST_CA("20", "01") LST_STATE, 2,
				"is a switch with 4 ports here, but a switch with 8 ports "
				"at line 1");
	expect_subnet_lst_error(LST_SW("08", "01") LST_CA("10", "01") LST_STATE
				LST_SW("08", "01") LST_CA("20", "01") LST_STATE, 2,
				"port 1 of \"sw\" is already linked to port 1 of \"ca 10\" "
				"by line 1");
	expect_subnet_lst_error(LST_SW("08", "01") LST_SW("08", "02") LST_STATE, 1,
				"links to itself");
	expect_subnet_lst_error("\n", 0, "holds no link");
}

#define PATHSL_HEAD "vlroute-pathsl 1\nlids 1 11\n"

static void test_bad_pathsl(void **state)
{
	struct vlr_tables *tables;
	struct vlr_error err;
	char *path;

	(void)state;
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0000000000\n", 3,
			    "10 SLs, but LIDs 1..11 need 11");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*12\n", 3,
			    "more than the 11 SLs of LIDs 1..11");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0000000000g\n", 3,
			    "'g' after 10 SLs is not an SL");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*0,0*11\n", 3,
			    "expected a count 1.. after '0*'");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11 x\n", 3,
			    "unexpected text after the SLs");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 1 0*11\n", 3,
			    "row 1 where row 0 comes next");
	/* 2 switches and 4 hosts own LIDs: a 7th row is more than can be used */
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11\nrow 1 0*11\n"
			    "row 2 0*11\nrow 3 0*11\nrow 4 0*11\nrow 5 0*11\nrow 6 0*11\n", 9,
			    "row 6, but the fabric has only 6 ports that own LIDs");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11\n"
			    "port 0x0000000000100009 0\n", 4,
			    "unknown port GUID 0x0000000000100009");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11\n"
			    "port 0x0000000000200000 0\n", 4,
			    "is \"sw1\" port 0, which is not a linked CA or router port");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11\n"
			    "port 0x0000000000100001 1\n", 4,
			    "row 1 is not defined (1 rows precede this line)");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "row 0 0*11\n"
			    "port 0x0000000000100001 0\nport 0x0000000000100001 0\n", 5,
			    "second port line for \"h1\" port 1 (first at line 4)");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "port 0x0000000000100001\n", 3,
			    "expected \"port 0xGUID ROW\"");
	expect_tables_error(vlr_pathsl_read, "# vlroute\nlids 1 11\n", 2,
			    "expected \"vlroute-pathsl 1\" first");
	expect_tables_error(vlr_pathsl_read, "vlroute-pathsl 2\n", 1,
			    "vlroute-pathsl version 2: this reader knows version 1");
	expect_tables_error(vlr_pathsl_read, "vlroute-pathsl 1\nlids 1 12\n", 2,
			    "LID 12 is beyond the tables' highest LID 11");
	expect_tables_error(vlr_pathsl_read, "vlroute-pathsl 1\nlids 3 2\n", 2,
			    "not a range of unicast LIDs");
	expect_tables_error(vlr_pathsl_read, "vlroute-pathsl 1\nrow 0 0*11\n", 2,
			    "expected \"lids FIRST LAST\" before the rows");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "lids 1 11\n", 3,
			    "a second \"lids\" line");
	expect_tables_error(vlr_pathsl_read, PATHSL_HEAD "rows 0 0*11\n", 3,
			    "unrecognised line");
	expect_tables_error(vlr_pathsl_read, "vlroute-pathsl 1\n", 0, "not a path-SL dump");

	/* a refused file leaves the tables as they were */
	tables = small_tables();
	if (vlr_tables_alloc_sl_rows(tables, 1, &err))
		fail_msg("%s", err.message);
	vlr_tables_sl_row(tables, 0)[5] = 7;
	tables->port_sl_row[port_of(tables->fabric, "h2", 1)] = 0;
	path = test_write_file("bad.dump", PATHSL_HEAD "row 0 0*11\n"
			       "port 0x0000000000100001 0\nport 0x0000000000100009 0\n");
	assert_int_equal(vlr_pathsl_read(tables, path, &err), -1);
	assert_int_equal(tables->num_sl_rows, 1);
	assert_int_equal(vlr_tables_path_sl(tables, port_of(tables->fabric, "h2", 1), 5), 7);
	assert_int_equal(tables->port_sl_row[port_of(tables->fabric, "h1", 1)], VLR_NONE);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

#define VALIANT_HEAD "policy ladder 4\n"

static void test_bad_valiant(void **state)
{
	struct vlr_tables *tables;
	struct vlr_error err;
	char *path;

	(void)state;
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 sideways\n", 2,
			    "unknown route kind \"sideways\" (minimal, valiant or restricted)");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant "
			    "0x0000000000100000\n", 2, "0x0000000000100000, the "
			    "intermediate of LID 4, is not the node GUID of a switch");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant 0x0\n", 2,
			    "is not the node GUID of a switch");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0003 minimal\n", 2,
			    "LID 3 belongs to no port");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0000 minimal\n", 2,
			    "LID 0 belongs to no port");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x000c minimal\n", 2,
			    "LID 12 is beyond the tables' highest LID 11");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 minimal\n"
			    "0x0005 minimal\n0x4 valiant 0x200000\n", 4,
			    "LID 4 is listed twice (first at line 2)");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 minimal "
			    "0x0000000000200000\n", 2,
			    "LID 4 is minimal: it has no intermediate switch");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant\n", 2,
			    "LID 4 is valiant: it needs the node GUID of its intermediate");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 restricted\n", 2,
			    "LID 4 is restricted: it needs the node GUID");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "4 minimal\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x00004 minimal\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant 200000\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant 0x200000g\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004: minimal\n", 2,
			    "malformed LID line");
	expect_tables_error(vlr_valiant_read, VALIANT_HEAD "0x0004 valiant 0x200000 "
			    "# sw1\n", 2, "malformed LID line");
	expect_tables_error(vlr_valiant_read, "# none yet\n0x0004 minimal\n", 2,
			    "expected the policy line");
	expect_tables_error(vlr_valiant_read, "# only comments\n\n", 0,
			    "bad.dump: no policy line: not a Valiant dump");
	expect_tables_error(vlr_valiant_read, "# kinds\n" VALIANT_HEAD "0x0004 minimal\n"
			    "policy ladder 4\n", 4, "a second policy line (the first is line 2)");
	expect_tables_error(vlr_valiant_read, "policy\n", 1, "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy ladder\n", 1, "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy 2phases\n", 1, "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy ladder 4 2\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy ladder four\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy ladder 4x\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy 2phases minfirst 4\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy 2phases minfirst 2 4 4\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy 2phases minfirst 2 4 4 4\n", 1,
			    "malformed policy line");
	expect_tables_error(vlr_valiant_read, "policy zigzag 4\n", 1,
			    "unknown VL policy \"zigzag\"");
	expect_tables_error(vlr_valiant_read, "policy 2phases minmost 2 4\n", 1,
			    "unknown phase choice \"minmost\" for minimal routes");
	expect_tables_error(vlr_valiant_read, "policy 2phases minlast 3 5\n", 1,
			    "2phases needs K >= 1 VLs per phase and at least 2K VLs in "
			    "all, not K = 3 and 5 VLs");
	expect_tables_error(vlr_valiant_read, "policy 2phases minlast 0 4\n", 1,
			    "not K = 0 and 4 VLs");
	expect_tables_error(vlr_valiant_read, "policy ladder 16\n", 1,
			    "VL policy ladder uses 16 VLs, more than the 15 data VLs");
	expect_tables_error(vlr_valiant_read, "policy ladder-reuse 0\n", 1,
			    "VL policy ladder-reuse uses no VL");

	/* a refused file leaves the tables as they were */
	tables = small_tables();
	path = test_write_file("bad.dump", VALIANT_HEAD "0x0005 valiant 0x200001\n"
			       "0x0003 minimal\n");
	assert_int_equal(vlr_valiant_read(tables, path, &err), -1);
	assert_null(tables->lid_kind);
	assert_null(tables->lid_via);
	assert_int_equal(tables->policy.kind, VLR_VLP_NONE);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* vlr_valiant_write refuses tables with route kinds as they are now. */
static void expect_valiant_write_error(struct vlr_tables *tables, const char *fragment)
{
	struct vlr_error err;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	assert_int_equal(vlr_valiant_write(tables, out, &err), -1);
	assert_int_equal(fclose(out), 0);
	assert_message(&err, "", 0, fragment);
	assert_int_equal(size, 0);
	free(text);
}

static void test_valiant_writer_refuses(void **state)
{
	struct vlr_tables *tables = small_tables();
	struct vlr_policy_case {
		struct vlr_vl_policy policy;
		const char *fragment;
	} cases[] = {
		{ { VLR_VLP_LAYERS + 1, 0, 0, 4, 0 }, "unknown VL policy kind 5" },
		{ { VLR_VLP_TWO_PHASES, VLR_MIN_BOTH + 1, 2, 4, 0 },
		  "unknown phase choice 3 for minimal routes" },
		{ { VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 3, 4, 0 }, "not K = 3 and 4 VLs" },
		{ { VLR_VLP_LADDER, VLR_MIN_FIRST, 0, 0, 0 }, "VL policy ladder uses no VL" },
		{ { VLR_VLP_NONE, VLR_MIN_FIRST, 0, 16, 0 }, "uses 16 VLs, more than" },
	};
	unsigned i;

	(void)state;
	expect_valiant_write_error(tables, "the tables carry no route kinds");
	add_route_kinds(tables);
	free(tables->lid_via);
	tables->lid_via = NULL;
	expect_valiant_write_error(tables, "the tables carry no route kinds");
	free(tables->lid_kind);
	add_route_kinds(tables);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tables->policy = cases[i].policy;
		expect_valiant_write_error(tables, cases[i].fragment);
	}
	tables->policy = (struct vlr_vl_policy){ VLR_VLP_LADDER, VLR_MIN_FIRST, 0, 4, 0 };
	tables->lid_via[6] = 0;
	expect_valiant_write_error(tables, "LID 6 is minimal but has intermediate switch 0");
	tables->lid_kind[6] = VLR_LID_VALIANT;
	tables->lid_via[6] = 2;
	expect_valiant_write_error(tables, "LID 6 is valiant, but its intermediate switch 2 "
				   "is not one of the 2 switches");
	tables->lid_kind[6] = VLR_LID_RESTRICTED + 1;
	expect_valiant_write_error(tables, "LID 6 has unknown route kind 3");
	tables->lid_kind[6] = VLR_LID_RESTRICTED;
	tables->lid_via[6] = 1;
	tables->fabric->nodes[tables->switch_node[1]].guid = 0;
	expect_valiant_write_error(tables, "switch \"sw2\", the intermediate of LID 6, has "
				   "no GUID");
	tables->lid_kind[6] = VLR_LID_MINIMAL;
	tables->lid_via[6] = VLR_NONE;
	tables->lid_kind[3] = VLR_LID_VALIANT;	/* LID 3 has no owner: not written */
	free(capture(vlr_valiant_write, tables));
	vlr_tables_free(tables);
}


/* ---- infiniband-diags' LFT dumps ---------------------------------------- */

#define DIAGS_HEADER(range, portid, guid, name) \
	"Unicast lids [" range "] of switch " portid " guid " guid " (" name "):\n" \
	"  Lid  Out   Destination\n       Port     Info \n"
#define DIAGS_SW1 DIAGS_HEADER("0x0-0xb", "Lid 1", "0x0000000000200000", "sw1")

/* dump_fts's text: LMC paths, unknown and illegal entries, -n lines, a
 * directed-route header, a multicast block; ibroute prints the same. */
static const char diags_dump[] =
	DIAGS_SW1
	"0x0001 000 : (Switch portguid 0x0000000000200000: 'sw1')\n"
	"0x0002 003 : (Switch portguid 0x0000000000200001: 'sw2')\n"
	"0x0004 001 : (Channel Adapter portguid 0x0000000000100001: 'h1')\n"
	"0x0005 001 : (path #2 out of 2: portguid 0x0000000000100001)\n"
	"0x0006 002 : (unknown node and type)\n"
	"0x0008 003 : (node info not available fabric scan)\n"
	"0x0009 255 : (path #2 - illegal port)\n"
	"0x000a 003 \n"
	"8 valid lids dumped \n"
	"Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (sw1):\n"
	"     Ports: 0 1 2 3 4 \n MLid\n0xc000      x         \n1 valid mlids dumped \n"
	DIAGS_HEADER("0x0-0xb", "DR path slid 0; dlid 0; 0,3", "0x0000000000200001",
		     "renamed by a map")
	"0x0000 255 : (path #0 - illegal port)\n"
	"0x0001 003 : (Switch portguid 0x0000000000200000: 'sw1')\n"
	"2 lids dumped \n";

static void test_diags_lfts(void **state)
{
	struct vlr_tables *tables = small_tables();
	char *path = test_write_file("dump_fts.out", diags_dump);
	struct vlr_error err;
	const uint8_t *sw1, *sw2;

	(void)state;
	if (vlr_diags_lfts_read(tables, path, &err))
		fail_msg("%s", err.message);
	sw1 = vlr_tables_lft(tables, switch_of(tables, "sw1"));
	sw2 = vlr_tables_lft(tables, switch_of(tables, "sw2"));
	assert_int_equal(sw1[1], 0);
	assert_int_equal(sw1[2], 3);
	assert_int_equal(sw1[4], 1);
	assert_int_equal(sw1[5], 1);
	assert_int_equal(sw1[6], 2);
	assert_int_equal(sw1[8], 3);
	assert_int_equal(sw1[9], VLR_NO_PORT);
	assert_int_equal(sw1[10], 3);
	assert_int_equal(sw1[11], VLR_NO_PORT);
	assert_int_equal(sw2[0], VLR_NO_PORT);
	assert_int_equal(sw2[1], 3);
	assert_int_equal(sw2[4], VLR_NO_PORT);
	/* OpenSM's reader sends such a file to this one */
	assert_int_equal(vlr_lfts_read(tables, path, &err), -1);
	assert_message(&err, "dump_fts.out", 1, "name it dump_fts.out or ibroute.out");
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

static void test_bad_diags_lfts(void **state)
{
	(void)state;
	expect_tables_error(vlr_diags_lfts_read, DIAGS_HEADER("0x0-0xb", "Lid 1",
			    "0x0000000000200009", "x"), 1,
			    "unknown switch GUID 0x0000000000200009");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0 valid lids dumped \n"
			    DIAGS_SW1, 5, "second block for switch \"sw1\"");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_HEADER("0x0-0xb", "Lid 2",
			    "0x0000000000200000", "sw1"), 1,
			    "switch \"sw1\" has LID 2 here but LID 1 in the tables");
	expect_tables_error(vlr_diags_lfts_read, "Unicast lids [0-11] of switch Lid 1 guid "
			    "0x0000000000200000 ('sw1'):\n", 1, "malformed switch header");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_HEADER("0x5-0x2", "Lid 1",
			    "0x0000000000200000", "sw1"), 1, "malformed switch header");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_HEADER("0x0-0x5", "Lid 1",
			    "0x0000000000200000", "sw1") "0x0006 001\n", 4,
			    "LID 6 is outside the range [0x0-0x5] of the header of line 1");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_HEADER("0x0-0xc", "Lid 1",
			    "0x0000000000200000", "sw1") "0x000c 001\n", 4,
			    "LID 12 is beyond the tables' highest LID 11");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001\n0x0004 002\n", 5,
			    "LID 4 is listed twice for switch \"sw1\"");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001 : (Channel Adapter "
			    "portguid 0x0000000000100003: 'h2')\n", 4,
			    "the dump gives it to port GUID 0x0000000000100003");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 abc\n", 4,
			    "malformed LID line");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001 : (h1\n", 4,
			    "malformed LID line");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001 # h1\n", 4,
			    "malformed LID line");
	expect_tables_error(vlr_diags_lfts_read, "0x0004 001\n", 1,
			    "LID line outside a switch block");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001\n2 valid lids "
			    "dumped \n", 5, "\"2 lids dumped\", but the block of line 1 has "
			    "1 LID lines");
	expect_tables_error(vlr_diags_lfts_read, "3 valid lids dumped\n", 1,
			    "outside a switch block");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "0x0004 001\n", 1, "truncated?");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 DIAGS_SW1, 4,
			    "before the \"lids dumped\" line");
	expect_tables_error(vlr_diags_lfts_read, "  Lid  Out   Destination\n", 1,
			    "unrecognised line");
	expect_tables_error(vlr_diags_lfts_read, DIAGS_SW1 "hello\n", 4, "unrecognised line");
	expect_tables_error(vlr_diags_lfts_read, "Multicast mlids [0xc000-0xc3ff] of switch "
			    "Lid 1 guid 0x0000000000200000 (sw1):\n MLid\n0 valid mlids "
			    "dumped \n", 0, "holds no unicast switch block");
}

/* ---- node-name maps ----------------------------------------------------- */

static const char name_map[] =
	"# a site's map\n\n"
	"  0x0000000000200000 \"spine 1 (rack 3)\"  # sw1\n"
	"0x200001\tleaf-2   # bare, as rdma-core takes it too\n"
	"1048576 \"host one\"\n"
	"0x00000000deadbeef \"in another fabric\"\n";

static struct vlr_node_name_map *read_map(const char *text)
{
	char *path = test_write_file("names.map", text);
	struct vlr_node_name_map *map;
	struct vlr_error err;

	map = vlr_node_name_map_read(path, &err);
	if (!map)
		fail_msg("%s", err.message);
	unlink(path);
	free(path);
	return map;
}

static void test_node_name_map(void **state)
{
	struct vlr_node_name_map *map = read_map(name_map);
	struct vlr_fabric *fabric = small_fabric();
	uint32_t sw1 = vlr_fabric_find(fabric, "sw1");
	uint32_t sw2 = vlr_fabric_find(fabric, "sw2");
	struct vlr_error err;
	unsigned matched;

	(void)state;
	assert_int_equal(vlr_node_name_map_size(map), 4);
	assert_string_equal(vlr_node_name_map_get(map, 0x200000), "spine 1 (rack 3)");
	assert_string_equal(vlr_node_name_map_get(map, 0x200001), "leaf-2");
	assert_string_equal(vlr_node_name_map_get(map, 0x100000), "host one");
	assert_null(vlr_node_name_map_get(map, 0x200002));
	if (vlr_node_name_map_apply(map, fabric, &matched, &err))
		fail_msg("%s", err.message);
	assert_int_equal(matched, 3);	/* not the GUID of another fabric */
	assert_string_equal(vlr_node_name(fabric, sw1), "spine 1 (rack 3)");
	assert_string_equal(vlr_node_description(fabric, sw1), "sw1");
	assert_int_equal(vlr_fabric_find(fabric, "spine 1 (rack 3)"), sw1);
	assert_int_equal(vlr_fabric_find(fabric, "leaf-2"), sw2);
	assert_int_equal(vlr_fabric_find(fabric, "sw1"), VLR_NONE);
	assert_int_not_equal(vlr_fabric_find(fabric, "h2"), VLR_NONE);
	vlr_node_name_map_free(map);

	/* two nodes named alike: refused, all or nothing */
	map = read_map("0x200000 \"same\"\n0x200001 \"same\"\n");
	assert_int_equal(vlr_node_name_map_apply(map, fabric, &matched, &err), -1);
	assert_message(&err, "node name map", 0, "two nodes would be named \"same\"");
	assert_string_equal(vlr_node_name(fabric, sw1), "spine 1 (rack 3)");
	assert_int_equal(vlr_fabric_find(fabric, "spine 1 (rack 3)"), sw1);
	assert_int_equal(vlr_fabric_find(fabric, "same"), VLR_NONE);
	vlr_node_name_map_free(map);
	vlr_fabric_free(fabric);
}

static void expect_map_error(const char *text, unsigned line, const char *fragment)
{
	char *path = test_write_file("bad.map", text);
	struct vlr_error err;

	assert_null(vlr_node_name_map_read(path, &err));
	assert_message(&err, "bad.map", line, fragment);
	unlink(path);
	free(path);
}

static void test_bad_node_name_map(void **state)
{
	char long_name[128];

	(void)state;
	expect_map_error("# ok\n0xzz \"x\"\n", 2, "malformed GUID");
	expect_map_error("sw1 \"x\"\n", 1, "malformed GUID");
	expect_map_error("0x12345678901234567 \"x\"\n", 1, "malformed GUID");
	expect_map_error("0x0 \"x\"\n", 1, "GUID 0 names no node");
	expect_map_error("0x12\n", 1, "GUID 0x0000000000000012 has no name");
	expect_map_error("0x12 # none\n", 1, "has no name");
	expect_map_error("0x12 \"open\n", 1, "the name's quote is not closed");
	expect_map_error("0x12 \"a\" b\n", 1, "unexpected text after the name");
	expect_map_error("0x12 \"\"\n", 1, "the name is empty");
	expect_map_error("0x12 \"a\tb\"\n", 1, "control character");
	snprintf(long_name, sizeof(long_name), "0x12 \"%065d\"\n", 0);
	expect_map_error(long_name, 1, "longer than 64 characters");
	expect_map_error("0x12 \"a\"\n\n0x12 \"b\"\n", 3,
			 "GUID 0x0000000000000012 is named on line 1 already");
}

/*
 * LFT columns (a block of DLIDs, switch by switch) read and written back,
 * on 11 switches: eight at a time and three left over; blocks of 1, 13
 * and 64 DLIDs.
 */
static void test_lft_columns(void **state)
{
	struct vlr_family_params ring = test_grid(VLR_FAMILY_TORUS, 1, 11, 8);
	static const uint32_t counts[] = { 1, 13, 64 };
	struct vlr_fabric *fabric = test_generate(&ring);
	struct vlr_tables *t;
	struct vlr_error err;
	uint8_t *columns = malloc(64 * 11);
	uint32_t sw, lid, k, i;

	(void)state;
	assert_non_null(columns);
	assert_int_equal(vlr_fabric_assign_lids(fabric, 0, &err), 0);
	t = vlr_tables_new(fabric, 1, &err);
	assert_non_null(t);
	t->owns_fabric = 1;
	assert_int_equal(t->num_switches, 11);
	assert_true(t->lid_stride > 64 + 1);
	for (sw = 0; sw < t->num_switches; sw++)
		for (lid = 0; lid < t->lid_stride; lid++)
			vlr_tables_lft(t, sw)[lid] = (uint8_t)(sw * 31 + lid * 7);
	for (i = 0; i < 3; i++) {
		uint32_t first = t->lid_stride - counts[i] - 1;

		vlr_tables_lft_columns(t, first, counts[i], columns);
		for (k = 0; k < counts[i]; k++)
			for (sw = 0; sw < t->num_switches; sw++)
				assert_int_equal(columns[k * t->num_switches + sw],
						 vlr_tables_lft(t, sw)[first + k]);
		for (k = 0; k < counts[i] * t->num_switches; k++)
			columns[k] ^= 0x55;
		vlr_tables_set_lft_columns(t, first, counts[i], columns);
		for (k = 0; k < counts[i]; k++)
			for (sw = 0; sw < t->num_switches; sw++)
				assert_int_equal(vlr_tables_lft(t, sw)[first + k],
						 (uint8_t)((sw * 31 + (first + k) * 7) ^ 0x55));
		for (k = 0; k < counts[i] * t->num_switches; k++)
			columns[k] ^= 0x55;
		vlr_tables_set_lft_columns(t, first, counts[i], columns);
	}
	free(columns);
	vlr_tables_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guid2lid_from_opensm),
		cmocka_unit_test(test_lft_columns),
		cmocka_unit_test(test_lfts_match_opensm),
		cmocka_unit_test(test_sl2vl_matches_opensm),
		cmocka_unit_test(test_sl2vl_reads_opensm_blocks),
		cmocka_unit_test(test_opensm_guid_order),
		cmocka_unit_test(test_subnet_lst_from_opensm),
		cmocka_unit_test(test_subnet_lst_round_trip),
		cmocka_unit_test(test_subnet_lst_names),
		cmocka_unit_test(test_pathsl_man_page_example),
		cmocka_unit_test(test_pathsl_runs),
		cmocka_unit_test(test_valiant_man_page_example),
		cmocka_unit_test(test_valiant_reader_accepts),
		cmocka_unit_test(test_valiant_dir_round_trip),
		cmocka_unit_test(test_dir_round_trip),
		cmocka_unit_test(test_dir_unprogrammable),
		cmocka_unit_test(test_dir_vls),
		cmocka_unit_test(test_dir_hash),
		cmocka_unit_test(test_tables_provenance),
		cmocka_unit_test(test_dir_from_opensm_dump),
		cmocka_unit_test(test_dir_errors),
		cmocka_unit_test(test_bad_lfts),
		cmocka_unit_test(test_lfts_reader_accepts),
		cmocka_unit_test(test_bad_sl2vl),
		cmocka_unit_test(test_guid2lid_entries),
		cmocka_unit_test(test_bad_subnet_lst),
		cmocka_unit_test(test_bad_pathsl),
		cmocka_unit_test(test_bad_valiant),
		cmocka_unit_test(test_valiant_writer_refuses),
		cmocka_unit_test(test_diags_lfts),
		cmocka_unit_test(test_bad_diags_lfts),
		cmocka_unit_test(test_node_name_map),
		cmocka_unit_test(test_bad_node_name_map),
	};

	return cmocka_run_group_tests_name("tablefiles", tests, NULL, NULL);
}
