/*
 * test_osm_file.c - the plugin's vlr_file without OpenSM: a table
 * directory routed offline is loaded for the subnet it was made for; it
 * is refused, with the VLRnn the plugin logs and a sentence naming what is
 * wrong, without table_dir, when it cannot be read (the reader's
 * FILE:LINE), when the live subnet differs in a LID, when its tables are
 * marked not programmable (routed for ideal VLs only), and when it lacks
 * the SL2VL or path SLs its tables need; a directory without them whose
 * routes need one SL and one VL only is taken.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#define _XOPEN_SOURCE 700	/* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "file_engine.h"

#define CONF "/etc/opensm/vlroute.conf"
#define VLS 8
#define DIR_SIZE 256

/* The group's scratch directory (its state), made and removed whole. */
static int make_scratch(void **state)
{
	char *dir = strdup("/tmp/vlroute-osm-file-XXXXXX");

	*state = dir && mkdtemp(dir) ? dir : NULL;
	if (!*state)
		free(dir);
	return *state ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
	(void)info;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int remove_scratch(void **state)
{
	int result = nftw(*state, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

	free(*state);
	return result;
}

/* NAME in the scratch directory. */
static void scratch_path(void **state, const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", (const char *)*state, name);
}

/*
 * A 5x4 torus with a host per switch (dfsssp needs two layers), a 2-ary
 * 2-tree, or a HyperX 4x4 with a host per switch at LMC 1 (for valiant).
 */
static struct vlr_fabric *fabric_of(enum vlr_family family)
{
	struct vlr_family_params params = { .family = family };
	struct vlr_fabric *fabric;
	struct vlr_error err;

	if (family == VLR_FAMILY_TORUS)
		params.u.grid = (struct vlr_grid_params){ 2, { 5, 4 }, 1 };
	else if (family == VLR_FAMILY_HYPERX)
		params.u.grid = (struct vlr_grid_params){ 2, { 4, 4 }, 1 };
	else
		params.u.fattree = (struct vlr_fattree_params){ 2, 2 };
	fabric = test_generate(&params);
	assert_int_equal(vlr_fabric_assign_lids(fabric, family == VLR_FAMILY_HYPERX, &err), 0);
	return fabric;
}

/* The fabric routed by engine into DIR (scratch name), with its route info. */
static void write_dir(void **state, enum vlr_family family, vlr_engine_run *engine,
		      const char *name, char *dir, size_t size)
{
	struct vlr_route_info info = { "dfsssp", 0.5, "", 0, -1, { 0, 0, 0, 0 } };
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *tables;
	struct vlr_error err;

	tables = vlr_tables_new(fabric_of(family), VLS, &err);
	assert_non_null(tables);
	tables->owns_fabric = 1;
	vlr_engine_options_init(&options);
	if (engine(tables, &options, &report, &err))
		fail_msg("%s", err.message);
	scratch_path(state, name, dir, size);
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err) ||
	    vlr_route_info_write(dir, &info, &err))
		fail_msg("%s", err.message);
	vlr_tables_free(tables);
}

static void remove_file(const char *dir, const char *name)
{
	char path[DIR_SIZE + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(unlink(path), 0);
}

/* Load dir for live; returns the loader's status, code and err as it left them. */
static int load(const char *dir, const struct vlr_fabric *live, struct vlr_osm_file *file,
		const char **code, struct vlr_error *err)
{
	struct vlr_osm_config config;

	vlr_osm_config_default(&config);
	snprintf(config.table_dir, sizeof(config.table_dir), "%s", dir);
	return vlr_osm_file_load(&config, CONF, live, VLS, file, code, err);
}

static void expect_message(const char *message, const char *fragment)
{
	if (!strstr(message, fragment))
		fail_msg("\"%s\" lacks \"%s\"", message, fragment);
}

static void test_load_takes_its_subnet(void **state)
{
	struct vlr_fabric *live = fabric_of(VLR_FAMILY_TORUS);
	struct vlr_verify_report check;
	struct vlr_osm_file file;
	struct vlr_error err;
	const char *code;
	char dir[DIR_SIZE];

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "torus", dir, sizeof(dir));
	if (load(dir, live, &file, &code, &err))
		fail_msg("%s: %s", code, err.message);
	assert_null(code);
	assert_non_null(file.tables);
	assert_true(file.tables->owns_fabric);
	assert_ptr_not_equal(file.tables->fabric, live);
	assert_true(file.notes.has_sl2vl && file.notes.has_path_sl);
	assert_string_equal(file.info.engine, "dfsssp");
	assert_int_equal(file.tables->num_vls, VLS);
	assert_int_equal(vlr_verify(file.tables, &check, &err), 0);
	assert_true(vlr_verify_passed(&check));
	assert_true(check.vls_used > 1);
	assert_int_equal(vlr_osm_file_complete(dir, &file.notes, &check, &err), 0);
	vlr_osm_file_free(&file);
	assert_null(file.tables);
	vlr_fabric_free(live);
}

static void test_load_needs_table_dir(void **state)
{
	struct vlr_fabric *live = fabric_of(VLR_FAMILY_TORUS);
	struct vlr_osm_file file;
	struct vlr_error err;
	const char *code;

	(void)state;
	assert_int_equal(load("", live, &file, &code, &err), -1);
	assert_string_equal(code, "VLR02");
	assert_null(file.tables);
	expect_message(err.message, CONF " sets no table_dir: vlr_file has no tables");
	vlr_fabric_free(live);
}

static void test_load_refuses_what_it_cannot_read(void **state)
{
	struct vlr_fabric *live = fabric_of(VLR_FAMILY_TORUS);
	struct vlr_osm_file file;
	struct vlr_error err;
	char dir[DIR_SIZE], path[DIR_SIZE + 32];
	const char *code, *at;
	FILE *out;

	scratch_path(state, "nowhere", dir, sizeof(dir));
	assert_int_equal(load(dir, live, &file, &code, &err), -1);
	assert_string_equal(code, "VLR10");
	expect_message(err.message, "cannot load the tables of ");
	expect_message(err.message, "nowhere: holds neither fabric.net nor");

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "torn", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_LFTS);
	out = fopen(path, "a");
	assert_non_null(out);
	fputs("a line no LFT dump has\n", out);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(load(dir, live, &file, &code, &err), -1);
	assert_string_equal(code, "VLR10");
	assert_null(file.tables);
	expect_message(err.message, "torn/opensm-lfts.dump:");
	at = strstr(err.message, "opensm-lfts.dump:") + strlen("opensm-lfts.dump:");
	assert_true(*at >= '1' && *at <= '9');	/* FILE:LINE */
	vlr_fabric_free(live);
}

static void test_load_refuses_another_subnet(void **state)
{
	struct vlr_fabric *live = fabric_of(VLR_FAMILY_TORUS);
	struct vlr_osm_file file;
	struct vlr_error err;
	struct vlr_port *port;
	const char *code;
	char dir[DIR_SIZE], wanted[3 * DIR_SIZE];

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "moved", dir, sizeof(dir));
	port = vlr_port_at(live, live->num_nodes - 1, 1);	/* the last host */
	port->lid = (uint16_t)(port->lid + 100);
	assert_int_equal(load(dir, live, &file, &code, &err), -1);
	assert_string_equal(code, "VLR11");
	assert_null(file.tables);
	snprintf(wanted, sizeof(wanted), "the tables of %s are not for this subnet: port 1 "
		 "of CA 0x%016llx (\"%s\") has LID %u (LMC 0) in %s but LID %u (LMC 0) in "
		 "the live subnet", dir, (unsigned long long)live->nodes[live->num_nodes - 1].guid,
		 vlr_node_description(live, live->num_nodes - 1), port->lid - 100u, dir,
		 port->lid);
	expect_message(err.message, wanted);
	vlr_fabric_free(live);
}

/*
 * Valiant tables whose ladder needs 4 VLs of a fabric offering 3, routed
 * for ideal VLs only (allow_unprogrammable) into DIR (scratch name).
 */
static void write_ideal_dir(void **state, const char *name, char *dir, size_t size)
{
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *tables;
	struct vlr_error err;

	tables = vlr_tables_new(fabric_of(VLR_FAMILY_HYPERX), 3, &err);
	assert_non_null(tables);
	tables->owns_fabric = 1;
	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_LADDER;
	options.allow_unprogrammable = 1;
	if (vlr_route_valiant(tables, &options, &report, &err))
		fail_msg("%s", err.message);
	assert_true(tables->unprogrammable.marked);
	scratch_path(state, name, dir, size);
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	vlr_tables_free(tables);
}

/*
 * Tables for ideal VLs only: ERR VLR12 with what they need. Without the
 * mark (as a vlr_file that knows none reads them) they lack the SL2VL
 * and path SLs their routes need, and are refused all the same.
 */
static void test_load_refuses_unprogrammable(void **state)
{
	struct vlr_fabric *live = fabric_of(VLR_FAMILY_HYPERX);
	struct vlr_verify_report check;
	struct vlr_osm_file file;
	struct vlr_error err;
	const char *code;
	char dir[DIR_SIZE];

	write_ideal_dir(state, "ideal", dir, sizeof(dir));
	assert_int_equal(load(dir, live, &file, &code, &err), -1);
	assert_string_equal(code, "VLR12");
	assert_null(file.tables);
	expect_message(err.message, "ideal are not programmable: needs 4 VLs (3 offered): "
		       "they were routed with --allow-unprogrammable");
	remove_file(dir, VLR_FILE_ROUTE_INFO);
	if (load(dir, live, &file, &code, &err))
		fail_msg("%s: %s", code, err.message);
	assert_int_equal(vlr_verify(file.tables, &check, &err), 0);
	assert_int_equal(vlr_osm_file_complete(dir, &file.notes, &check, &err), -1);
	expect_message(err.message, "has neither opensm-sl2vl.dump nor vlroute-path-sl.dump");
	vlr_osm_file_free(&file);
	vlr_fabric_free(live);
}

/* Load dir (which must load) and verify it; its notes and report out. */
static void load_and_verify(const char *dir, enum vlr_family family, struct vlr_osm_file *file,
			    struct vlr_verify_report *check)
{
	struct vlr_fabric *live = fabric_of(family);
	struct vlr_error err;
	const char *code;

	if (load(dir, live, file, &code, &err))
		fail_msg("%s: %s", code, err.message);
	assert_int_equal(vlr_verify(file->tables, check, &err), 0);
	vlr_fabric_free(live);
}

/* dir without the named files: refused after verification, naming them. */
static void expect_incomplete(const char *dir, const char *fragment1, const char *fragment2)
{
	struct vlr_verify_report check;
	struct vlr_osm_file file;
	struct vlr_error err;

	load_and_verify(dir, VLR_FAMILY_TORUS, &file, &check);
	assert_int_equal(vlr_osm_file_complete(dir, &file.notes, &check, &err), -1);
	expect_message(err.message, fragment1);
	expect_message(err.message, fragment2);
	vlr_osm_file_free(&file);
}

static void test_complete_needs_the_tables_of_several_vls(void **state)
{
	char dir[DIR_SIZE];

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "no-path-sl", dir, sizeof(dir));
	remove_file(dir, VLR_FILE_PATH_SL);
	expect_incomplete(dir, "no-path-sl has no vlroute-path-sl.dump, so every path would "
			  "be on SL 0, and then its routes form a channel dependency cycle",
			  "write it with vlroute route -o");

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "no-sl2vl", dir, sizeof(dir));
	remove_file(dir, VLR_FILE_SL2VL);
	expect_incomplete(dir, "no-sl2vl has no opensm-sl2vl.dump, so every SL would be on "
			  "the VL of its number, yet its tables use ", " SLs and ");

	write_dir(state, VLR_FAMILY_TORUS, vlr_route_dfsssp, "lfts-only", dir, sizeof(dir));
	remove_file(dir, VLR_FILE_PATH_SL);
	remove_file(dir, VLR_FILE_SL2VL);
	expect_incomplete(dir, "lfts-only has neither opensm-sl2vl.dump nor "
			  "vlroute-path-sl.dump, so every path would be on SL 0 and VL 0",
			  "channel dependency cycle");
}

/* LFTs alone do for routes on one SL and one VL without a cycle. */
static void test_complete_takes_lfts_of_one_vl(void **state)
{
	struct vlr_verify_report check;
	struct vlr_osm_file file;
	struct vlr_error err;
	char dir[DIR_SIZE];

	write_dir(state, VLR_FAMILY_FATTREE, vlr_route_sssp, "fattree", dir, sizeof(dir));
	remove_file(dir, VLR_FILE_PATH_SL);
	remove_file(dir, VLR_FILE_SL2VL);
	load_and_verify(dir, VLR_FAMILY_FATTREE, &file, &check);
	assert_false(file.notes.has_sl2vl || file.notes.has_path_sl);
	assert_true(vlr_verify_passed(&check));
	assert_int_equal(check.vls_used, 1);
	assert_int_equal(vlr_osm_file_complete(dir, &file.notes, &check, &err), 0);
	vlr_osm_file_free(&file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_takes_its_subnet),
		cmocka_unit_test(test_load_needs_table_dir),
		cmocka_unit_test(test_load_refuses_what_it_cannot_read),
		cmocka_unit_test(test_load_refuses_another_subnet),
		cmocka_unit_test(test_load_refuses_unprogrammable),
		cmocka_unit_test(test_complete_needs_the_tables_of_several_vls),
		cmocka_unit_test(test_complete_takes_lfts_of_one_vl),
	};

	return cmocka_run_group_tests_name("osm_file", tests, make_scratch, remove_scratch);
}
