/*
 * fuzz_util.c - what the libFuzzer harnesses share: the scratch directory
 * each run writes its input into (the readers take paths), and the fixed
 * small fabric routed into a table directory that the table-file harnesses
 * read their input against. libFuzzer runs one harness per process, one
 * input at a time, so the scratch directory and the fixture are made once
 * per process and kept in function-local statics.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#define _GNU_SOURCE		/* memmem; nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"

void fuzz_die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, detail);
	abort();
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static char scratch[64];

static void remove_scratch(void)
{
	nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *scratch_dir(void)
{
	if (!scratch[0]) {
		snprintf(scratch, sizeof(scratch), "%s", "/tmp/vlroute-fuzz-XXXXXX");
		if (!mkdtemp(scratch))
			fuzz_die("cannot make a scratch directory", scratch);
		atexit(remove_scratch);
	}
	return scratch;
}

const char *fuzz_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", scratch_dir(), name);
	return path;
}

void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *out = fopen(path, "w");

	if (!out || fwrite(data, 1, size, out) != size || fclose(out))
		fuzz_die("cannot write", path);
}

int fuzz_includes_outside(const uint8_t *data, size_t size)
{
	return memmem(data, size, "include", 7) && memchr(data, '/', size);
}

/* One half of a subnet.lst line, as OpenSM's dump_topology_node. */
static void write_half(FILE *out, const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];
	const struct vlr_node *node = &fabric->nodes[record->node];
	int is_switch = node->type == VLR_NODE_SWITCH;

	fprintf(out, "{ %s Ports:%02X SystemGUID:%016llx NodeGUID:%016llx "
		"PortGUID:%016llx VenID:000000 DevID:0000 Rev:000000A1 {%s} LID:%04X PN:%02X } ",
		is_switch ? "SW" : "CA", node->num_ports, (unsigned long long)node->guid,
		(unsigned long long)node->guid,
		(unsigned long long)(is_switch ? node->guid : record->guid),
		vlr_node_description(fabric, record->node),
		(is_switch ? vlr_port_at(fabric, record->node, 0) : record)->lid,
		record->number);
}

/* The fixture's opensm-subnet.lst: one line per linked port, as OpenSM. */
static void write_subnet_lst(const struct vlr_fabric *fabric, const char *path)
{
	FILE *out = fopen(path, "w");
	uint32_t port;

	if (!out)
		fuzz_die("cannot write", path);
	for (port = 0; port < fabric->num_ports; port++) {
		if (fabric->ports[port].peer == VLR_NONE)
			continue;
		write_half(out, fabric, port);
		write_half(out, fabric, fabric->ports[port].peer);
		fprintf(out, "PHY=4x LOG=ACT SPD=2.5\n");
	}
	if (fclose(out))
		fuzz_die("cannot write", path);
}

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0700))
		fuzz_die("cannot make a directory", dir);
}

/*
 * The 3x2 HyperX, one host per switch, LMC 1, routed by valiant: its table
 * directory with the text dumps and opensm-subnet.lst in dir, the same
 * compact in compact_dir, and in lst_dir only its opensm-subnet.lst and
 * opensm-lfts.dump (a directory read as OpenSM's).
 */
static void make_fixture(const char *dir, const char *lst_dir, const char *compact_dir)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_HYPERX };
	struct vlr_fabric *fabric = vlr_fabric_new();
	const struct vlr_engine *engine = vlr_engine_find("valiant");
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *tables = NULL;
	char path[4096];
	struct vlr_error err;

	params.u.grid = (struct vlr_grid_params){ 2, { 3, 2 }, 1 };
	vlr_engine_options_init(&options);
	snprintf(path, sizeof(path), "%s/%s", lst_dir, VLR_FILE_LFTS);
	if (!fabric || !engine || vlr_generate(fabric, &params, &err) ||
	    vlr_fabric_assign_lids(fabric, 1, &err) ||
	    !(tables = vlr_tables_new(fabric, 8, &err)) ||
	    engine->run(tables, &options, &report, &err) ||
	    vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err) ||
	    vlr_tables_write_dir(tables, compact_dir, VLR_TABLES_COMPACT, &err) ||
	    vlr_tables_write_file(tables, path, vlr_lfts_write, &err))
		fuzz_die("cannot make the fixture", err.message);
	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_SUBNET_LST);
	write_subnet_lst(fabric, path);
	snprintf(path, sizeof(path), "%s/%s", lst_dir, VLR_FILE_SUBNET_LST);
	write_subnet_lst(fabric, path);
	tables->owns_fabric = 1;
	vlr_tables_free(tables);
}

enum fixture { FIXTURE_TEXT, FIXTURE_LST, FIXTURE_COMPACT };

/* The fixture's directory: text, the one read as OpenSM's, or compact. */
static const char *fixture_dir(enum fixture which)
{
	static char dir[4096], lst_dir[4096], compact_dir[4096];
	const char *keep = getenv("VLR_FUZZ_FIXTURE");

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s", keep ? keep : fuzz_path("fixture"));
		snprintf(lst_dir, sizeof(lst_dir), "%s", fuzz_path("fixture-lst"));
		snprintf(compact_dir, sizeof(compact_dir), "%s", fuzz_path("fixture-compact"));
		make_dir(dir);
		make_dir(lst_dir);
		make_fixture(dir, lst_dir, compact_dir);
	}
	return which == FIXTURE_LST ? lst_dir : which == FIXTURE_COMPACT ? compact_dir : dir;
}

void fuzz_verify(const struct vlr_tables *tables)
{
	struct vlr_verify_report report;
	struct vlr_error err;

	if (vlr_verify(tables, &report, &err))
		fuzz_die("verify cannot run on tables a reader accepted", err.message);
}

void fuzz_init_fixture(void)
{
	fixture_dir(FIXTURE_TEXT);
}

int fuzz_table_file(const char *file, const uint8_t *data, size_t size)
{
	const char *dir = fixture_dir(!strcmp(file, VLR_FILE_SUBNET_LST) ? FIXTURE_LST :
				      strstr(file, ".bin") ? FIXTURE_COMPACT : FIXTURE_TEXT);
	char path[4096];
	struct vlr_tables *tables;
	struct vlr_error err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fuzz_write(path, data, size);
	tables = vlr_tables_read_dir(dir, NULL, 8, NULL, &err);
	if (tables) {
		fuzz_verify(tables);
		vlr_tables_free(tables);
	}
	return 0;
}
