/*
 * test_compact.c - the compact table files (vlroute-tables(5)): directory
 * round trips, text <-> compact conversion with the same tables and, back
 * in text, the same bytes, a directory with both forms of a table refused,
 * and every truncated, extended or corrupted file refused naming the file
 * and the byte.
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

typedef int (*tables_writer)(const struct vlr_tables *tables, FILE *out,
			     struct vlr_error *err);
typedef int (*tables_reader)(struct vlr_tables *tables, const char *path,
			     struct vlr_error *err);

/* ---- fixtures ----------------------------------------------------------- */

static struct vlr_tables *tables_for(struct vlr_fabric *fabric, unsigned lmc)
{
	struct vlr_error err;
	struct vlr_tables *tables;

	if (vlr_fabric_assign_lids(fabric, lmc, &err))
		fail_msg("%s", err.message);
	tables = vlr_tables_new(fabric, 8, &err);
	if (!tables)
		fail_msg("%s", err.message);
	tables->owns_fabric = 1;
	return tables;
}

/* Varied contents: LFTs with runs and without, SL2VL, SL rows. */
static void fill_tables(struct vlr_tables *tables)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, lid, port, row;
	struct vlr_error err;
	unsigned in, out, sl, ports;

	for (sw = 0; sw < tables->num_switches; sw++) {
		ports = fabric->nodes[tables->switch_node[sw]].num_ports;
		for (lid = 1; lid <= tables->max_lid; lid++)
			vlr_tables_lft(tables, sw)[lid] = (uint8_t)(
				(sw + lid) % 13 == 0 ? VLR_NO_PORT :
				sw % 3 ? (sw * 7 + lid * 3) % (ports + 1) :
				lid / 20 % (ports + 1));
		for (in = 0; in <= ports; in++)
			for (out = 0; out <= ports; out++)
				for (sl = 0; sl < VLR_NUM_SLS; sl++)
					vlr_tables_sl2vl(tables, sw, in, out)[sl] =
						(uint8_t)(sw % 2 ? sl % 8 :
							  (sw + 3 * in + 5 * out + sl) % 16);
	}
	if (vlr_tables_alloc_sl_rows(tables, 5, &err))
		fail_msg("%s", err.message);
	for (row = 0; row < 5; row++)
		for (lid = 1; lid <= tables->max_lid; lid++)
			vlr_tables_sl_row(tables, row)[lid] = (uint8_t)(
				row == 4 ? (lid < 100 ? 0 : 3) : (lid * (row + 1)) % 16);
	for (port = 0; port < fabric->num_ports; port++) {
		if (!vlr_tables_is_source(tables, port))
			continue;
		tables->port_sl_row[port] = port % 6 == 5 ? VLR_NONE : port % 5;
		for (sl = 0; sl < VLR_NUM_SLS; sl++)
			vlr_tables_port_sl2vl(tables, port)[sl] = (uint8_t)((port + sl) % 16);
	}
}

/* The palmtree Dragonfly p2 a4 h2 (36 switches, 72 hosts) at LMC 1, filled. */
static struct vlr_tables *dragonfly_tables(void)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = tables_for(test_generate(&params), 1);

	fill_tables(tables);
	return tables;
}

/* The names in dir, sorted and joined by spaces. */
static void list_dir(const char *dir, char *buf, size_t size)
{
	struct dirent **entries;
	int count = scandir(dir, &entries, NULL, alphasort), i;

	assert_true(count >= 0);
	buf[0] = '\0';
	for (i = 0; i < count; i++) {
		if (entries[i]->d_name[0] != '.')
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
				 buf[0] ? " " : "", entries[i]->d_name);
		free(entries[i]);
	}
	free(entries);
}

static void remove_dir(const char *dir)
{
	struct dirent **entries;
	int count = scandir(dir, &entries, NULL, alphasort), i;
	char path[4096];

	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, entries[i]->d_name);
		if (entries[i]->d_name[0] != '.')
			unlink(path);
		free(entries[i]);
	}
	free(entries);
	rmdir(dir);
}

static struct vlr_tables *read_dir(const char *dir, struct vlr_tables_dir_notes *notes)
{
	struct vlr_error err;
	struct vlr_tables *tables = vlr_tables_read_dir(dir, NULL, 8, notes, &err);

	if (!tables)
		fail_msg("%s", err.message);
	return tables;
}

/* The bytes of dir/name. */
static char *slurp(const char *dir, const char *name, long *size)
{
	char path[4096], *bytes;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(path, "rb");
	assert_non_null(in);
	assert_int_equal(fseek(in, 0, SEEK_END), 0);
	*size = ftell(in);
	rewind(in);
	bytes = malloc((size_t)*size + 1);
	assert_non_null(bytes);
	assert_int_equal(fread(bytes, 1, (size_t)*size, in), (size_t)*size);
	fclose(in);
	return bytes;
}

static void assert_same_file(const char *dir_a, const char *dir_b, const char *name)
{
	long size_a, size_b;
	char *a = slurp(dir_a, name, &size_a), *b = slurp(dir_b, name, &size_b);

	if (size_a != size_b || memcmp(a, b, (size_t)size_a))
		fail_msg("%s differs between %s and %s", name, dir_a, dir_b);
	free(a);
	free(b);
}

static void convert(const char *dir, enum vlr_tables_form form, const char *into)
{
	struct vlr_error err;

	assert_int_equal(mkdir(into, 0777), 0);
	if (vlr_tables_convert_files(dir, form, into, NULL, &err))
		fail_msg("%s", err.message);
}

/* ---- directories -------------------------------------------------------- */

static void test_compact_dir_round_trip(void **state)
{
	struct vlr_tables *tables = dragonfly_tables(), *read;
	struct vlr_tables_dir_notes notes;
	char *dir = test_scratch_path("compact");
	struct vlr_error err;
	char names[1024];

	(void)state;
	if (vlr_tables_write_dir(tables, dir, VLR_TABLES_COMPACT, &err))
		fail_msg("%s", err.message);
	list_dir(dir, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid vlroute-lfts.bin "
			    "vlroute-path-sl.bin vlroute-sl2vl.bin");
	read = read_dir(dir, &notes);
	assert_string_equal(notes.lfts, VLR_FILE_LFTS_COMPACT);
	assert_string_equal(notes.sl2vl, VLR_FILE_SL2VL_COMPACT);
	assert_string_equal(notes.path_sl, VLR_FILE_PATH_SL_COMPACT);
	assert_true(notes.has_guid2lid && notes.has_sl2vl && notes.has_path_sl);
	test_assert_same_tables(tables, read);
	vlr_tables_free(read);
	remove_dir(dir);
	free(dir);
	vlr_tables_free(tables);
}

/* Text -> compact -> text: the same tables, and the same text files. */
static void test_convert_round_trip(void **state)
{
	static const char *const files[] = {
		VLR_FILE_FABRIC, VLR_FILE_GUID2LID, VLR_FILE_LFTS, VLR_FILE_SL2VL,
		VLR_FILE_PATH_SL, VLR_FILE_VALIANT, NULL,
	};
	struct vlr_tables *tables = dragonfly_tables(), *read;
	char *text = test_scratch_path("text"), *compact = test_scratch_path("to-compact");
	char *back = test_scratch_path("back"), names[1024];
	struct vlr_tables_dir_notes notes;
	struct vlr_error err;
	unsigned i;

	(void)state;
	tables->lid_kind = calloc(tables->lid_stride, 1);
	tables->lid_via = malloc(sizeof(uint32_t) * tables->lid_stride);
	assert_true(tables->lid_kind && tables->lid_via);
	memset(tables->lid_via, 0xff, sizeof(uint32_t) * tables->lid_stride);
	tables->policy = (struct vlr_vl_policy){ VLR_VLP_LADDER, VLR_MIN_FIRST, 0, 4, 0 };
	if (vlr_tables_write_dir(tables, text, VLR_TABLES_TEXT, &err))
		fail_msg("%s", err.message);
	convert(text, VLR_TABLES_COMPACT, compact);
	list_dir(compact, names, sizeof(names));
	assert_string_equal(names, "fabric.net guid2lid vlroute-lfts.bin vlroute-path-sl.bin "
			    "vlroute-sl2vl.bin vlroute-valiant.dump");
	read = read_dir(compact, &notes);
	test_assert_same_tables(tables, read);
	assert_non_null(read->lid_kind);
	vlr_tables_free(read);
	convert(compact, VLR_TABLES_TEXT, back);
	for (i = 0; files[i]; i++)
		assert_same_file(text, back, files[i]);
	remove_dir(back);
	remove_dir(compact);
	remove_dir(text);
	free(back);
	free(compact);
	free(text);
	vlr_tables_free(tables);
}

/* Routed tables: the compact directory converted to text is what text gives. */
static void test_routed_text_matches(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = tables_for(test_generate(&params), 0);
	const struct vlr_engine *engine = vlr_engine_find("dfsssp");
	char *text = test_scratch_path("routed-text"), *compact = test_scratch_path("routed-compact");
	char *back = test_scratch_path("routed-back");
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_error err;

	(void)state;
	assert_non_null(engine);
	vlr_engine_options_init(&options);
	if (engine->run(tables, &options, &report, &err) ||
	    vlr_tables_write_dir(tables, text, VLR_TABLES_TEXT, &err) ||
	    vlr_tables_write_dir(tables, compact, VLR_TABLES_COMPACT, &err))
		fail_msg("%s", err.message);
	convert(compact, VLR_TABLES_TEXT, back);
	assert_same_file(text, back, VLR_FILE_LFTS);
	assert_same_file(text, back, VLR_FILE_SL2VL);
	assert_same_file(text, back, VLR_FILE_PATH_SL);
	remove_dir(back);
	remove_dir(compact);
	remove_dir(text);
	free(back);
	free(compact);
	free(text);
	vlr_tables_free(tables);
}

static void copy_into(const char *from, const char *to, const char *name)
{
	char path[4096];
	long size;
	char *bytes = slurp(from, name, &size);
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", to, name);
	out = fopen(path, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(bytes, 1, (size_t)size, out), (size_t)size);
	assert_int_equal(fclose(out), 0);
	free(bytes);
}

static void expect_dir_refused(const char *dir, const char *fragment)
{
	struct vlr_error err;

	assert_null(vlr_tables_read_dir(dir, NULL, 8, NULL, &err));
	if (!strstr(err.message, fragment) || !strstr(err.message, dir))
		fail_msg("\"%s\" lacks \"%s\" or the directory", err.message, fragment);
}

/* A directory holds each table in one form. */
static void test_both_forms_refused(void **state)
{
	struct vlr_tables *tables = dragonfly_tables();
	char *text = test_scratch_path("both-text"), *compact = test_scratch_path("both-compact");
	char path[4096];
	struct vlr_error err;

	(void)state;
	if (vlr_tables_write_dir(tables, text, VLR_TABLES_TEXT, &err) ||
	    vlr_tables_write_dir(tables, compact, VLR_TABLES_COMPACT, &err))
		fail_msg("%s", err.message);
	copy_into(text, compact, VLR_FILE_LFTS);
	expect_dir_refused(compact, "holds both vlroute-lfts.bin and opensm-lfts.dump");
	snprintf(path, sizeof(path), "%s/%s", compact, VLR_FILE_LFTS);
	unlink(path);
	copy_into(text, compact, VLR_FILE_SL2VL);
	expect_dir_refused(compact, "holds both vlroute-sl2vl.bin and opensm-sl2vl.dump");
	snprintf(path, sizeof(path), "%s/%s", compact, VLR_FILE_SL2VL);
	unlink(path);
	copy_into(text, compact, VLR_FILE_PATH_SL);
	expect_dir_refused(compact, "holds both vlroute-path-sl.bin and vlroute-path-sl.dump");
	remove_dir(compact);
	remove_dir(text);
	free(compact);
	free(text);
	vlr_tables_free(tables);
}

/* ---- malformed files ---------------------------------------------------- */

/*
 * Two switches with two hosts each: at LMC 1 the switches have LIDs 1 and
 * 2, the hosts 4, 6, 8, 10; the highest LID is 11.
 */
static const char small_net[] =
	"Switch\t4 \"sw1\"\n[1]\t\"h1\"[1]\n[2]\t\"h2\"[1]\n[3]\t\"sw2\"[3]\n\n"
	"Switch\t4 \"sw2\"\n[1]\t\"h3\"[1]\n[2]\t\"h4\"[1]\n[3]\t\"sw1\"[3]\n\n"
	"Ca\t1 \"h1\"\n[1]\t\"sw1\"[1]\n\n"
	"Ca\t1 \"h2\"\n[1]\t\"sw1\"[2]\n\n"
	"Ca\t1 \"h3\"\n[1]\t\"sw2\"[1]\n\n"
	"Ca\t1 \"h4\"\n[1]\t\"sw2\"[2]\n";

/*
 * Its tables: sw1's LFT [-,0,3,-,1,1,2,2,3,3,3,3] is written raw, sw2's
 * [3,3,0,3,...] as runs; SL2VL SL mod 8 everywhere; SL row 0 has the SLs
 * 1..11 (raw), row 1 SL 2 throughout (runs).
 */
static struct vlr_tables *small_tables(void)
{
	static const uint8_t sw1[12] = { 255, 0, 3, 255, 1, 1, 2, 2, 3, 3, 3, 3 };
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(small_net, &err);
	struct vlr_tables *tables;
	uint32_t lid, port;

	if (!fabric)
		fail_msg("%s", err.message);
	tables = tables_for(fabric, 1);
	assert_int_equal(tables->max_lid, 11);
	memcpy(vlr_tables_lft(tables, 0), sw1, sizeof(sw1));
	memset(vlr_tables_lft(tables, 1), 3, 12);
	vlr_tables_lft(tables, 1)[2] = 0;
	if (vlr_tables_alloc_sl_rows(tables, 2, &err))
		fail_msg("%s", err.message);
	for (lid = 1; lid <= 11; lid++) {
		vlr_tables_sl_row(tables, 0)[lid] = (uint8_t)lid;
		vlr_tables_sl_row(tables, 1)[lid] = 2;
	}
	for (port = 0; port < fabric->num_ports; port++)
		if (vlr_tables_is_source(tables, port))
			tables->port_sl_row[port] = port % 2;
	return tables;
}

struct form {
	tables_writer write;
	tables_reader read;
};

static const struct form lfts = { vlr_lfts_compact_write, vlr_lfts_compact_read };
static const struct form sl2vl = { vlr_sl2vl_compact_write, vlr_sl2vl_compact_read };
static const struct form pathsl = { vlr_pathsl_compact_write, vlr_pathsl_compact_read };

/* What the writer writes for the small tables. */
static char *written(const struct form *form, size_t *size)
{
	struct vlr_tables *tables = small_tables();
	struct vlr_error err;
	char *bytes = NULL;
	FILE *out = open_memstream(&bytes, size);

	assert_non_null(out);
	if (form->write(tables, out, &err))
		fail_msg("%s", err.message);
	assert_int_equal(fclose(out), 0);
	vlr_tables_free(tables);
	return bytes;
}

/* Reading size bytes fails with every fragment (NULL ends them). */
static void expect_refused(const struct form *form, const char *bytes, size_t size,
			   const char *fragment, const char *fragment2)
{
	struct vlr_tables *tables = small_tables();
	char *path = test_write_file("bad.bin", "");
	struct vlr_error err;
	FILE *out = fopen(path, "wb");

	assert_non_null(out);
	assert_int_equal(fwrite(bytes, 1, size, out), size);
	assert_int_equal(fclose(out), 0);
	if (!form->read(tables, path, &err))
		fail_msg("expected %zu bytes to be refused with \"%s\"", size, fragment);
	if (!strstr(err.message, "bad.bin: ") || !strstr(err.message, fragment) ||
	    (fragment2 && !strstr(err.message, fragment2)))
		fail_msg("message \"%s\" lacks bad.bin, \"%s\" or \"%s\"", err.message, fragment,
			 fragment2 ? fragment2 : "");
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* The bytes written, with bytes[at] = value. */
static void expect_patch_refused(const struct form *form, size_t at, unsigned value,
				 const char *fragment, const char *fragment2)
{
	size_t size;
	char *bytes = written(form, &size);

	assert_true(at < size);
	bytes[at] = (char)value;
	expect_refused(form, bytes, size, fragment, fragment2);
	free(bytes);
}

/* Every prefix is a truncated file; one byte more is a trailing byte. */
static void expect_cut_refused(const struct form *form)
{
	char where[64];
	size_t size, cut;
	char *bytes = written(form, &size);
	struct vlr_tables *tables = small_tables();
	char *path = test_write_file("good.bin", "");
	struct vlr_error err;
	FILE *out = fopen(path, "wb");

	assert_non_null(out);
	assert_int_equal(fwrite(bytes, 1, size, out), size);
	assert_int_equal(fclose(out), 0);
	if (form->read(tables, path, &err))
		fail_msg("%s", err.message);
	for (cut = 0; cut < size; cut++) {
		snprintf(where, sizeof(where), "the file ends at byte %zu, inside ", cut);
		expect_refused(form, bytes, cut, where, "truncated?");
	}
	bytes = realloc(bytes, size + 1);
	assert_non_null(bytes);
	bytes[size] = 0;
	snprintf(where, sizeof(where), "byte %zu: bytes after the last record", size);
	expect_refused(form, bytes, size + 1, where, NULL);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
	free(bytes);
}

static void test_compact_truncated(void **state)
{
	(void)state;
	expect_cut_refused(&lfts);
	expect_cut_refused(&sl2vl);
	expect_cut_refused(&pathsl);
}

/* Header 0..19, LID owners 20..115, sw1 116..138 (row raw from 127), sw2 139... */
static void test_bad_compact_lfts(void **state)
{
	(void)state;
	expect_patch_refused(&lfts, 1, 'W', "byte 0: not a compact table file", NULL);
	expect_patch_refused(&lfts, 8, 'S', "byte 8: holds SL2VL tables, not LFTs", NULL);
	expect_patch_refused(&lfts, 8, 'x', "holds an unknown kind of table, not LFTs", NULL);
	expect_patch_refused(&lfts, 9, 2, "byte 9: format version 2: this reader knows "
			     "version 1", NULL);
	expect_patch_refused(&lfts, 10, 12, "byte 10: its tables end at LID 12, the "
			     "fabric's at LID 11", NULL);
	expect_patch_refused(&lfts, 12, 3, "byte 12: 3 switch records, but the fabric has 2",
			     NULL);
	expect_patch_refused(&lfts, 20 + 8 * 4, 9, "byte 52: LID 4 belongs to port GUID "
			     "0x0000000000100009 here, but to \"h1\" port 1", NULL);
	expect_patch_refused(&lfts, 20 + 8 * 3, 9, "byte 44: LID 3 belongs to port GUID "
			     "0x0000000000000009 here, but to no port", NULL);
	expect_patch_refused(&lfts, 116, 7, "byte 116: unknown switch GUID", NULL);
	expect_patch_refused(&lfts, 124, 9, "byte 124: switch \"sw1\" has LID 9 here but "
			     "LID 1", NULL);
	expect_patch_refused(&lfts, 126, 7, "byte 126: row encoding 7, inside switch "
			     "record 1 of 2", NULL);
	expect_patch_refused(&lfts, 132, 9, "byte 132: LID 5 leaves switch \"sw1\" by port "
			     "9, beyond its 4 ports", NULL);
	expect_patch_refused(&lfts, 139, 0, "byte 139: a second record for switch \"sw1\"",
			     NULL);
	expect_patch_refused(&lfts, 151, 0, "byte 151: a run of 0 where 1..12 remain, "
			     "inside switch record 2 of 2", NULL);
	expect_patch_refused(&lfts, 155, 10, "byte 155: a run of 10 where 1..9 remain", NULL);
	expect_patch_refused(&lfts, 154, 5, "byte 154: LID 3 leaves switch \"sw2\" by port 5",
			     NULL);
}

/* sw1's record first: GUID 20, LID 28, type 30, ports 31, 3 out ports 33..35. */
static void test_bad_compact_sl2vl(void **state)
{
	(void)state;
	expect_patch_refused(&sl2vl, 8, 'L', "byte 8: holds LFTs, not SL2VL tables", NULL);
	expect_patch_refused(&sl2vl, 12, 99, "byte 12: 99 port records, but the fabric has",
			     NULL);
	expect_patch_refused(&sl2vl, 20, 7, "byte 20: unknown port GUID", NULL);
	expect_patch_refused(&sl2vl, 28, 9, "byte 28: \"sw1\" port 0 has LID 9 here but "
			     "LID 1", NULL);
	expect_patch_refused(&sl2vl, 30, 1, "byte 30: \"sw1\" port 0 has node type 1 here, "
			     "but is a Switch (2)", NULL);
	expect_patch_refused(&sl2vl, 31, 5, "byte 31: 5 ports here, but \"sw1\" has 4", NULL);
	expect_patch_refused(&sl2vl, 34, 1, "byte 34: out port 1: out ports rise", NULL);
	expect_patch_refused(&sl2vl, 35, 5, "byte 35: out port 5: out ports rise and are the "
			     "switch's", NULL);
	expect_patch_refused(&sl2vl, 36, 0, "byte 36: a run of 0 where 1..15 remain, inside "
			     "port record 1 of 6", NULL);
}

/* Header 0..19, row 0 raw 20..31, row 1 as runs 32..34, then 4 ports. */
static void test_bad_compact_pathsl(void **state)
{
	size_t size;
	char *bytes = written(&pathsl, &size);

	(void)state;
	assert_int_equal(size, 35 + 4 * 12);
	free(bytes);
	expect_patch_refused(&pathsl, 12, 7, "byte 12: 7 rows, but the fabric has only 6 "
			     "ports that own LIDs", NULL);
	expect_patch_refused(&pathsl, 24, 16, "byte 24: SL 16 for LID 4 is out of range "
			     "0..15", NULL);
	expect_patch_refused(&pathsl, 33, 17, "byte 33: SL 17 for LID 1 is out of range",
			     NULL);
	expect_patch_refused(&pathsl, 35, 0x77, "byte 35: unknown port GUID", NULL);
	expect_patch_refused(&pathsl, 35 + 8, 2, "byte 43: row 2 of \"h1\" port 1 is not "
			     "among the 2 rows", NULL);
	expect_patch_refused(&pathsl, 35 + 12, 1, "byte 47: a second record for \"h1\" port 1",
			     NULL);
}

/* The writers refuse what the text writers refuse: VLs and SLs above 15. */
static void test_compact_writers_refuse(void **state)
{
	struct vlr_tables *tables = small_tables();
	struct vlr_error err;
	FILE *out = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(out);
	vlr_tables_sl2vl(tables, 0, 2, 3)[5] = 16;
	assert_int_equal(vlr_sl2vl_compact_write(tables, out, &err), -1);
	assert_string_equal(err.message, "the SL2VL table of \"sw1\" port 0 maps SL 5 from "
			    "in port 2 to out port 3 to VL 16 (VLs are 0..15)");
	vlr_tables_sl_row(tables, 1)[7] = 16;
	assert_int_equal(vlr_pathsl_compact_write(tables, out, &err), -1);
	assert_string_equal(err.message, "SL row 1 gives LID 7 SL 16 (SLs are 0..15)");
	fclose(out);
	vlr_tables_free(tables);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact_dir_round_trip),
		cmocka_unit_test(test_convert_round_trip),
		cmocka_unit_test(test_routed_text_matches),
		cmocka_unit_test(test_both_forms_refused),
		cmocka_unit_test(test_compact_truncated),
		cmocka_unit_test(test_bad_compact_lfts),
		cmocka_unit_test(test_bad_compact_sl2vl),
		cmocka_unit_test(test_bad_compact_pathsl),
		cmocka_unit_test(test_compact_writers_refuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
