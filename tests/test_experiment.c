/*
 * test_experiment.c - unit tests of the readers of vlroute experiment
 * (tools/experiment_file.c, tools/experiment_results.c) and of the points
 * they expand into (tools/experiment_points.c), linked from the command's
 * convenience library: the cases the fuzzers of fuzz/ found or led to,
 * each of which failed before its fix; experiments without a route
 * section (sim by the reference model on the fabric file); and the ids
 * of the shipped example, which no change may alter.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "test_util.h"

/* Write length bytes of data to a scratch file named name; its path. */
static char *put(const char *name, const char *data, size_t length)
{
	char *path = test_write_file(name, "");
	FILE *out = fopen(path, "wb");

	assert_non_null(out);
	assert_int_equal(fwrite(data, 1, length, out), length);
	assert_int_equal(fclose(out), 0);
	return path;
}

static const char experiment_tail[] =
	"fabric: {gen: hyperx, sides: 2x2}\n"
	"route: {engine: sssp}\n"
	"analyze: {ebb: true}\n";

/* Reading the experiment head + experiment_tail fails with fragment. */
static void expect_experiment_refused(const char *head, const char *fragment)
{
	char text[1024];
	struct vlr_error err;
	struct experiment *exp;
	char *path;

	snprintf(text, sizeof(text), "%s%s", head, experiment_tail);
	path = put("experiment.yaml", text, strlen(text));
	exp = exp_read(path, &err);
	if (exp) {
		exp_free(exp);
		fail_msg("expected \"%s\" to be refused", text);
	}
	if (!strstr(err.message, fragment))
		fail_msg("\"%s\" was refused as \"%s\", not \"%s\"", text, err.message, fragment);
	unlink(path);
	free(path);
}

/* A top-level key given twice is refused (a second title leaked). */
static void test_top_key_twice(void **state)
{
	(void)state;
	expect_experiment_refused("title: a\ntitle: b\n", ":2: \"title\" given twice");
	expect_experiment_refused("results: a\nresults: b\n", ":2: \"results\" given twice");
	expect_experiment_refused("description: a\ndescription: b\n",
				  ":2: \"description\" given twice");
	expect_experiment_refused("route: {engine: dfsssp}\n", ":3: \"route\" given twice");
	expect_experiment_refused("analyze: {ebb: true}\n", ":4: \"analyze\" given twice");
}

static struct exp_csv *read_csv(const char *data, size_t length, struct vlr_error *err)
{
	char *path = put("runs.csv", data, length);
	struct exp_csv *csv = exp_csv_read(path, err);

	unlink(path);
	free(path);
	return csv;
}

/*
 * A last row ending in an empty field at the end of the file is a row (it
 * was dropped, and leaked).
 */
static void test_csv_last_field_empty(void **state)
{
	static const char text[] = "a,b\n1,";
	struct vlr_error err;
	struct exp_csv *csv = read_csv(text, strlen(text), &err);

	(void)state;
	assert_non_null(csv);
	assert_int_equal(csv->rows, 1);
	assert_string_equal(exp_csv_get(csv, 0, "a"), "1");
	assert_string_equal(exp_csv_get(csv, 0, "b"), "");
	exp_csv_free(csv);
}

/* An experiment from text, read and expanded; its plan (exp in *exp). */
static struct exp_plan *plan_of(const char *text, struct experiment **exp)
{
	char *path = put("experiment.yaml", text, strlen(text));
	struct vlr_error err;
	struct exp_plan *plan;

	*exp = exp_read(path, &err);
	if (!*exp)
		fail_msg("\"%s\" was refused: %s", text, err.message);
	plan = exp_plan_new(*exp, "vlroute", &err);
	if (!plan)
		fail_msg("\"%s\" was not expanded: %s", text, err.message);
	unlink(path);
	free(path);
	return plan;
}

/*
 * Without a route section a sim experiment runs "vlroute sim FABRIC" on
 * each fabric: no table sets, each run's input the fabric, no route
 * choice, and "reference model" in its title.
 */
static void test_no_route(void **state)
{
	static const char text[] =
		"fabric: {gen: hyperx, sides: 2x2}\n"
		"sim: {cycles: 1000, vl-policy: [ladder, 2phases]}\n";
	struct experiment *exp;
	struct exp_plan *plan = plan_of(text, &exp);
	const struct exp_step *run = &plan->runs[0];
	char label[256], title[256];

	(void)state;
	assert_false(exp_has_route(exp));
	assert_int_equal(plan->num_fabrics, 1);
	assert_int_equal(plan->num_tables, 0);
	assert_int_equal(plan->num_runs, 2);
	assert_ptr_equal(run->input, &plan->fabrics[0]);
	assert_string_equal(run->argv[1], "sim");
	assert_string_equal(run->argv[2], plan->fabrics[0].output);
	assert_null(exp_run_choice(run, EXP_ROUTE));
	assert_ptr_equal(exp_run_choice(run, EXP_FABRIC), plan->fabrics[0].choice);
	assert_string_equal(exp_choice_value(exp_run_choice(run, EXP_MEASURE), "vl-policy"),
			    "ladder");
	exp_run_label(plan, &plan->runs[1], label, sizeof(label));
	assert_string_equal(label, "vl-policy=2phases");
	exp_title(plan, title, sizeof(title));
	assert_non_null(strstr(title, "reference model"));
	exp_plan_free(plan);
	exp_free(exp);
}

/* analyze rates a table set: without a route it is refused at its line. */
static void test_analyze_needs_route(void **state)
{
	static const char text[] =
		"fabric: {gen: hyperx, sides: 2x2}\n"
		"# no route\n"
		"analyze:\n"
		"  ebb: true\n";
	char *path = put("experiment.yaml", text, strlen(text));
	struct vlr_error err;

	(void)state;
	assert_null(exp_read(path, &err));
	assert_non_null(strstr(err.message, "experiment.yaml:3: analyze rates a table set"));
	unlink(path);
	free(path);
}

/*
 * The ids of the shipped example (experiments/policies-dragonfly, as
 * vlroute-experiment(5) quotes it): experiments with a route keep every
 * finished step.
 */
static void test_known_ids(void **state)
{
	static const char text[] =
		"fabric: {gen: dragonfly, hosts: 2, routers: 4, globals: 2}\n"
		"route:\n"
		"  - {label: Ladder, engine: valiant, lmc: 2, vl-policy: ladder}\n"
		"  - {label: Ladder with reuse, engine: valiant, lmc: 2, vl-policy: ladder-reuse}\n"
		"sim: {traffic: adv+1, dlid: random, load: [0.2, 0.5, 1.0], seeds: 2, "
		"cycles: 20000}\n";
	struct experiment *exp;
	struct exp_plan *plan = plan_of(text, &exp);

	(void)state;
	assert_true(exp_has_route(exp));
	assert_string_equal(plan->fabrics[0].id, "aa59bcf5ce4195a1");
	assert_string_equal(plan->tables[0].id, "cea564576e04f9d3");
	assert_string_equal(plan->runs[0].id, "c27db230722c4850");
	assert_ptr_equal(exp_run_choice(&plan->runs[0], EXP_ROUTE), plan->tables[0].choice);
	assert_int_equal(plan->num_runs, 12);
	exp_plan_free(plan);
	exp_free(exp);
}

/* A NUL byte is refused at its line (the fields before it leaked). */
static void test_csv_nul(void **state)
{
	static const char text[] = "a,b\n1,2\n3\0,4\n";
	struct vlr_error err;

	(void)state;
	assert_null(read_csv(text, sizeof(text) - 1, &err));
	assert_non_null(strstr(err.message, "runs.csv:3: a NUL byte"));
}

/* Reading text as a run result is refused with fragment. */
static void expect_doc_refused(const char *text, const char *fragment)
{
	char *path = put("run.json", text, strlen(text));
	struct vlr_error err;
	struct exp_doc *doc = exp_doc_read(path, &err);

	if (doc) {
		exp_doc_free(doc);
		fail_msg("expected \"%s\" to be refused", text);
	}
	if (!strstr(err.message, fragment))
		fail_msg("\"%s\" was refused as \"%s\", not \"%s\"", text, err.message, fragment);
	unlink(path);
	free(path);
}

/* depth nested sequences around a 1. */
static char *nested(unsigned depth)
{
	char *text = malloc(2 * depth + 2);
	unsigned i;

	assert_non_null(text);
	for (i = 0; i < depth; i++) {
		text[i] = '[';
		text[depth + 1 + i] = ']';
	}
	text[depth] = '1';
	text[2 * depth + 1] = '\0';
	return text;
}

/*
 * A run result that is not a tree (YAML's aliases, maybe of a node inside
 * itself) or nests too deep is refused: merge's writer recursed without
 * end, or for hours.
 */
static void test_doc_not_a_tree(void **state)
{
	char *deep = nested(EXP_DOC_DEPTH), *deeper = nested(EXP_DOC_DEPTH + 1);
	struct vlr_error err;
	struct exp_doc *doc;
	char *path;

	(void)state;
	expect_doc_refused("&a [*a]", ":1: an alias");
	expect_doc_refused("{\"settings\": &s {\"a\": [1, 2]},\n \"commands\": *s}", ":1: an alias");
	expect_doc_refused(deeper, "nested deeper than");
	path = put("run.json", deep, strlen(deep));
	doc = exp_doc_read(path, &err);
	assert_non_null(doc);
	assert_int_equal(exp_doc_count(doc, ""), 1);
	exp_doc_free(doc);
	unlink(path);
	free(path);
	free(deep);
	free(deeper);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_key_twice),
		cmocka_unit_test(test_csv_last_field_empty),
		cmocka_unit_test(test_csv_nul),
		cmocka_unit_test(test_doc_not_a_tree),
		cmocka_unit_test(test_no_route),
		cmocka_unit_test(test_analyze_needs_route),
		cmocka_unit_test(test_known_ids),
	};

	return cmocka_run_group_tests_name("experiment", tests, NULL, NULL);
}
