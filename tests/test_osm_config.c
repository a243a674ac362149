/*
 * test_osm_config.c - the OpenSM plugin's vlroute.conf reader: defaults,
 * every option (those of vlr_minimal and vlr_valiant too), comments and
 * overrides, and every wrong line refused with FILE:LINE (the plugin then
 * refuses to route); the table of keys that "vlroute osm-config" writes
 * from, and the file it writes read back to exactly the defaults.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "vlroute_osm.h"

/* Read text as vlroute.conf; returns the reader's status. */
static int read_text(const char *text, struct vlr_osm_config *config,
		     struct vlr_error *err)
{
	char *path = test_write_file("vlroute.conf", text);
	int result = vlr_osm_config_read(path, 1, config, err);

	unlink(path);
	free(path);
	return result;
}

static void expect_refused(const char *text, const char *fragment1,
			   const char *fragment2)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	if (read_text(text, &config, &err) == 0)
		fail_msg("expected \"%s\" to be refused", text);
	if (!strstr(err.message, fragment1))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment1);
	if (fragment2 && !strstr(err.message, fragment2))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment2);
}

static void test_defaults_without_file(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_osm_config_read("/nonexistent/vlroute.conf", 0, &config,
					     &err), 0);
	assert_int_equal(config.heuristic, VLR_HEURISTIC_WEAKEST);
	assert_int_equal(config.max_vls, 0);
	assert_int_equal(config.balance, 1);
	assert_int_equal(config.escape, 1);
	assert_string_equal(config.path_sl_file, "");
	assert_string_equal(config.table_dir, "");
	assert_int_equal(config.family, VLR_FAMILY_NONE);
	assert_int_equal(config.policy.kind, VLR_VLP_NONE);
	assert_int_equal(config.policy.phase_min, VLR_MIN_FIRST);
	assert_int_equal(config.policy.vls_per_phase, 0);
	assert_int_equal(config.dim_order_count, 0);
	assert_int_equal(config.restricted, -1);
}

static void test_required_file_missing(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_osm_config_read("/nonexistent/vlroute.conf", 1, &config,
					     &err), -1);
	assert_non_null(strstr(err.message, "/nonexistent/vlroute.conf: cannot open"));
}

static void test_every_option(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	(void)state;
	assert_int_equal(read_text("# vlroute.conf\n\n"
				   "  heuristic   all\n"
				   "\tmax_vls 4\t\n"
				   "   # balance yes\n"
				   "balance no\n"
				   "escape no\n"
				   "table_dir /var/lib/vlroute/df\n"
				   "path_sl_file /var/lib/opensm/path-sl.dump", &config, &err), 0);
	assert_int_equal(config.heuristic, VLR_HEURISTIC_ALL);
	assert_int_equal(config.max_vls, 4);
	assert_int_equal(config.balance, 0);
	assert_int_equal(config.escape, 0);
	assert_string_equal(config.path_sl_file, "/var/lib/opensm/path-sl.dump");
	assert_string_equal(config.table_dir, "/var/lib/vlroute/df");
}

static void test_low_diameter_options(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	(void)state;
	assert_int_equal(read_text("family dragonfly+\n"
				   "vls_per_phase 3\n"
				   "phase_min minboth\n"
				   "vl_policy 2phases\n"
				   "dim_order 2,0,1\n"
				   "restricted 0\n", &config, &err), 0);
	assert_int_equal(config.family, VLR_FAMILY_DRAGONFLYPLUS);
	assert_string_equal(vlr_topology_family_name(config.family), "dragonfly+");
	assert_int_equal(config.policy.kind, VLR_VLP_TWO_PHASES);
	assert_int_equal(config.policy.phase_min, VLR_MIN_BOTH);
	assert_int_equal(config.policy.vls_per_phase, 3);
	assert_int_equal(config.dim_order_count, 3);
	assert_int_equal(config.dim_order[0], 2);
	assert_int_equal(config.dim_order[1], 0);
	assert_int_equal(config.dim_order[2], 1);
	assert_int_equal(config.restricted, 0);
}

static void test_every_value(void **state)
{
	static const struct {
		const char *text;
		enum vlr_family family;
		enum vlr_vl_policy_kind kind;
		enum vlr_phase_min phase_min;
	} cases[] = {
		{ "family hyperx\nvl_policy ladder\n", VLR_FAMILY_HYPERX,
		  VLR_VLP_LADDER, VLR_MIN_FIRST },
		{ "family dragonfly\nvl_policy ladder-reuse\n", VLR_FAMILY_DRAGONFLY,
		  VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST },
		{ "vl_policy layers\n", VLR_FAMILY_NONE, VLR_VLP_LAYERS, VLR_MIN_FIRST },
		{ "vl_policy 2phases\nphase_min minlast\n", VLR_FAMILY_NONE,
		  VLR_VLP_TWO_PHASES, VLR_MIN_LAST },
		{ "phase_min minfirst\nvl_policy 2phases\n", VLR_FAMILY_NONE,
		  VLR_VLP_TWO_PHASES, VLR_MIN_FIRST },
	};
	struct vlr_osm_config config;
	struct vlr_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (read_text(cases[i].text, &config, &err))
			fail_msg("\"%s\" refused: %s", cases[i].text, err.message);
		assert_int_equal(config.family, cases[i].family);
		if (cases[i].family == VLR_FAMILY_NONE)
			assert_string_equal(vlr_topology_family_name(config.family), "any");
		assert_int_equal(config.policy.kind, cases[i].kind);
		assert_int_equal(config.policy.phase_min, cases[i].phase_min);
	}
}

static void test_later_line_wins(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;

	(void)state;
	assert_int_equal(read_text("heuristic first\nmax_vls 2\nheuristic strongest\n"
				   "max_vls 15\n", &config, &err), 0);
	assert_int_equal(config.heuristic, VLR_HEURISTIC_STRONGEST);
	assert_int_equal(config.max_vls, 15);
}

static void test_wrong_lines(void **state)
{
	(void)state;
	expect_refused("balance yes\ncolour blue\n", "vlroute.conf:2:",
		       "unknown key \"colour\"");
	expect_refused("max_vls\n", "vlroute.conf:1:", "\"max_vls\" needs a value");
	expect_refused("max_vls 4 8\n", "vlroute.conf:1:", "expected \"KEY VALUE\"");
	expect_refused("max_vls 0\n", "vlroute.conf:1:", "from 1 to 15");
	expect_refused("max_vls 16\n", "vlroute.conf:1:", "not \"16\"");
	expect_refused("max_vls 8x\n", "vlroute.conf:1:", "not \"8x\"");
	expect_refused("max_vls -1\n", "vlroute.conf:1:", "not \"-1\"");
	expect_refused("\n\nbalance maybe\n", "vlroute.conf:3:", "balance is yes or no");
	expect_refused("escape 1\n", "vlroute.conf:1:", "escape is yes or no, not \"1\"");
	expect_refused("heuristic best\n", "vlroute.conf:1:",
		       "weakest, strongest, first or all");
	expect_refused("path_sl_file path-sl.dump\n", "vlroute.conf:1:",
		       "path_sl_file must be an absolute path, not \"path-sl.dump\"");
	expect_refused("\ntable_dir tables\n", "vlroute.conf:2:",
		       "table_dir must be an absolute path, not \"tables\"");
	expect_refused("Heuristic all\n", "vlroute.conf:1:", "unknown key");
}

static void test_wrong_low_diameter_lines(void **state)
{
	(void)state;
	expect_refused("family torus\n", "vlroute.conf:1:",
		       "hyperx, dragonfly or dragonfly+, not \"torus\"");
	expect_refused("family HyperX\n", "vlroute.conf:1:", "not \"HyperX\"");
	expect_refused("\nvl_policy ladders\n", "vlroute.conf:2:", "vl_policy: ");
	expect_refused("vl_policy 2phases\nphase_min mid\n", "vlroute.conf:2:",
		       "phase_min: ");
	expect_refused("vl_policy 2phases\nvls_per_phase 0\n", "vlroute.conf:2:",
		       "from 1 to 7, not \"0\"");
	expect_refused("vl_policy 2phases\nvls_per_phase 8\n", "vlroute.conf:2:",
		       "not \"8\"");
	expect_refused("phase_min minlast\nvl_policy ladder\n", "vlroute.conf:1:",
		       "need \"vl_policy 2phases\"");
	expect_refused("vl_policy ladder\n\nvls_per_phase 2\n", "vlroute.conf:3:",
		       "need \"vl_policy 2phases\"");
	expect_refused("phase_min minboth\n", "vlroute.conf:1:", "vl_policy 2phases");
	expect_refused("dim_order 1,1\n", "vlroute.conf:1:", "each at most once");
	expect_refused("dim_order 8\n", "vlroute.conf:1:", "0..7");
	expect_refused("dim_order 1,\n", "vlroute.conf:1:", "not \"1,\"");
	expect_refused("dim_order ,1\n", "vlroute.conf:1:", "not \",1\"");
	expect_refused("dim_order 1;0\n", "vlroute.conf:1:", "not \"1;0\"");
	expect_refused("dim_order 01\n", "vlroute.conf:1:", "not \"01\"");
	expect_refused("dim_order -1\n", "vlroute.conf:1:", "not \"-1\"");
	expect_refused("restricted -1\n", "vlroute.conf:1:", "from 0 to 127, not \"-1\"");
	expect_refused("restricted 128\n", "vlroute.conf:1:", "not \"128\"");
	expect_refused("restricted many\n", "vlroute.conf:1:", "not \"many\"");
	expect_refused("vl_policy\n", "vlroute.conf:1:", "\"vl_policy\" needs a value");
}

/*
 * What reaches OpenSM's log: a vlroute.conf line holding a newline-free
 * terminal escape and UTF-8 is refused with its bytes quoted, and the
 * quote, escaped as the log escapes it, is one line of printable ASCII.
 */
static void test_log_escape(void **state)
{
	struct vlr_osm_config config;
	struct vlr_error err;
	char out[64], small[8], logged[4 * VLR_ERROR_SIZE];
	const char *s;

	(void)state;
	vlr_osm_escape("ok \\ \x1b[31mred\r\n\xc3\xa9", out, sizeof(out));
	assert_string_equal(out, "ok \\\\ \\x1b[31mred\\x0d\\x0a\\xc3\\xa9");
	vlr_osm_escape("ab\x01" "cd", small, sizeof(small));
	assert_string_equal(small, "ab\\x01c");
	vlr_osm_escape("abc\x01", small, 6);
	assert_string_equal(small, "abc");
	assert_int_not_equal(read_text("\x1b]0;owned\x07 yes\n", &config, &err), 0);
	vlr_osm_escape(err.message, logged, sizeof(logged));
	for (s = logged; *s; s++)
		assert_true(*s >= 0x20 && *s < 0x7f);
	assert_non_null(strstr(logged, "\\x1b]0;owned\\x07"));
}

/* Every key's example value, all at once, uncommented: accepted. */
static void test_every_key_value(void **state)
{
	const struct vlr_osm_conf_key *keys;
	struct vlr_osm_config config;
	char text[2048] = "";
	struct vlr_error err;
	size_t count, i, used = 0;

	(void)state;
	keys = vlr_osm_conf_keys(&count);
	assert_int_equal(count, 12);
	for (i = 0; i < count; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s %s\n",
					 keys[i].key, keys[i].value);
	assert_true(used < sizeof(text));
	if (read_text(text, &config, &err))
		fail_msg("the table's values are refused: %s", err.message);
	assert_int_equal(config.max_vls, 8);
	assert_string_equal(config.table_dir, "/var/lib/vlroute/tables");
	assert_int_equal(config.family, VLR_FAMILY_DRAGONFLY);
	assert_int_equal(config.policy.kind, VLR_VLP_TWO_PHASES);
	assert_int_equal(config.policy.vls_per_phase, 2);
	assert_int_equal(config.dim_order_count, 2);
	assert_int_equal(config.restricted, 1);
}

static void test_unknown_key_lists_the_table(void **state)
{
	(void)state;
	expect_refused("colour blue\n", "unknown key \"colour\"", "(known: heuristic, "
		       "max_vls, balance, escape, path_sl_file, table_dir, family, vl_policy, "
		       "phase_min, vls_per_phase, dim_order, restricted)");
}

/* The whole of a small file, NUL-terminated. */
static char *read_whole(const char *path)
{
	FILE *in = fopen(path, "r");
	char *text = calloc(1, 65536);
	size_t length;

	assert_non_null(in);
	assert_non_null(text);
	length = fread(text, 1, 65535, in);
	assert_true(length < 65535);
	fclose(in);
	return text;
}

/* "vlroute osm-config -o F": F names every key and reads back as the defaults. */
static void test_written_file_is_the_defaults(void **state)
{
	struct vlr_osm_config defaults, config;
	const struct vlr_osm_conf_key *keys;
	const char *vlroute = getenv("VLROUTE");
	char *path, *text, command[4096], line[128];
	struct vlr_error err;
	size_t count, i;

	(void)state;
	if (!vlroute)
		skip();
	path = test_write_file("vlroute.conf.example", "");
	snprintf(command, sizeof(command), "'%s' osm-config -o '%s'", vlroute, path);
	assert_int_equal(system(command), 0);
	if (vlr_osm_config_read(path, 1, &config, &err))
		fail_msg("osm-config's file is refused: %s", err.message);
	vlr_osm_config_default(&defaults);
	assert_memory_equal(&config, &defaults, sizeof(config));
	assert_int_equal(config.heuristic, VLR_HEURISTIC_WEAKEST);
	assert_int_equal(config.balance, 1);
	assert_int_equal(config.restricted, -1);
	text = read_whole(path);
	keys = vlr_osm_conf_keys(&count);
	for (i = 0; i < count; i++) {
		snprintf(line, sizeof(line), "\n%s%s %s\n", keys[i].is_default ? "" : "#",
			 keys[i].key, keys[i].value);
		if (!strstr(text, line))
			fail_msg("osm-config's file lacks \"%s\"", line + 1);
	}
	free(text);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_without_file),
		cmocka_unit_test(test_required_file_missing),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_low_diameter_options),
		cmocka_unit_test(test_every_value),
		cmocka_unit_test(test_later_line_wins),
		cmocka_unit_test(test_wrong_lines),
		cmocka_unit_test(test_wrong_low_diameter_lines),
		cmocka_unit_test(test_log_escape),
		cmocka_unit_test(test_every_key_value),
		cmocka_unit_test(test_unknown_key_lists_the_table),
		cmocka_unit_test(test_written_file_is_the_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
