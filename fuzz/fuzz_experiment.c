/*
 * fuzz_experiment.c - libFuzzer harness of the reader of experiment files
 * (exp_read: YAML by libyaml, keys checked against the option tables of
 * vlroute gen, route, sim and analyze) and of what takes what it accepts:
 * the cross product (exp_plan_new), the runs' labels, the title and the
 * steps' command lines. The reader may refuse an input, with a message
 * naming the file, but never crash, leak or hang; what it accepts has
 * every section, keys with values, flags that are true or false, none of
 * the keys the experiment sets itself (route may be left out, by a sim
 * experiment only: the reference model); and its plan has runs with ids
 * and command lines, each run's input a table set on a fabric, or without
 * a route the fabric itself.
 *
 * The plan is made only for experiments of at most MAX_RUNS runs (the
 * reader allows a million), so that one input stays fast. A fabric
 * "file:" is hashed and read as a net file: the harness plans only files
 * named without a '/', which are in the scratch directory (fabric.net, a
 * small HyperX, is there), and no input naming an include outside it.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "fuzz_util.h"

#define MAX_RUNS 64
#define FILE_NAME "experiment.yaml"

/* A small fabric in the scratch directory, for "file: fabric.net". */
static void write_fabric(void)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_HYPERX };
	struct vlr_fabric *fabric = vlr_fabric_new();
	const char *path = fuzz_path("fabric.net");
	struct vlr_error err = { .message = "out of memory" };
	FILE *out = fopen(path, "w");

	params.u.grid = (struct vlr_grid_params){ 2, { 2, 2 }, 1 };
	if (!fabric || !out || vlr_generate(fabric, &params, &err) ||
	    vlr_netfile_write(fabric, out, NULL, &err) || fclose(out))
		fuzz_die("cannot write the fabric", err.message);
	vlr_fabric_free(fabric);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	write_fabric();
	return 0;
}

/* The keys the experiment sets itself, per section (a list ends in NULL). */
static const char *const managed[EXP_SECTIONS][10] = {
	{ "output", "version", "help", NULL },
	{ "output", "guid2lid", "version", "help", NULL },
	{ "json", "csv", "plot", "quiet", "threads", "fabric", "trace", "version", "help", NULL },
};

static void check_key(const struct experiment *exp, enum exp_section_kind kind,
		      const struct exp_key *key)
{
	unsigned i;

	if (!key->name || !key->num_values)
		fuzz_die("a key without a name or values", FILE_NAME);
	for (i = 0; managed[kind][i]; i++)
		if (!strcmp(key->name, managed[kind][i]))
			fuzz_die("a key the experiment sets itself was accepted", key->name);
	if (kind == EXP_MEASURE && exp->measure == EXP_SIM && !strcmp(key->name, "seeds"))
		fuzz_die("seeds: N was not expanded into seed", FILE_NAME);
	for (i = 0; i < key->num_values; i++) {
		if (!key->values[i] || !key->values[i][0])
			fuzz_die("an empty value was accepted", key->name);
		if (key->flag && strcmp(key->values[i], "true") && strcmp(key->values[i], "false") &&
		    strcmp(key->values[i], "yes") && strcmp(key->values[i], "no") &&
		    strcmp(key->values[i], "on") && strcmp(key->values[i], "off"))
			fuzz_die("a flag is neither true nor false", key->values[i]);
	}
}

/* The number of choices of a section, stopping past MAX_RUNS. */
static unsigned long long section_size(const struct exp_section *section)
{
	unsigned long long total = 0, n;
	unsigned a, k;

	for (a = 0; a < section->num_alts && total <= MAX_RUNS; a++) {
		n = 1;
		for (k = 0; k < section->alts[a].num_keys && n <= MAX_RUNS; k++)
			n *= section->alts[a].keys[k].num_values;
		total += n;
	}
	return total;
}

/* Check what exp_read accepted; whether its plan is small enough to make. */
static int check_experiment(const struct experiment *exp)
{
	unsigned long long runs = 1;
	unsigned s, a, k;

	if (!exp->folder || !exp->results || exp->measure > EXP_ANALYZE)
		fuzz_die("an experiment without a folder, results or measurement", FILE_NAME);
	for (s = 0; s < EXP_SECTIONS; s++) {
		if (!exp->sections[s].num_alts && (s != EXP_ROUTE || exp->measure != EXP_SIM))
			fuzz_die("a section without alternatives", exp_section_name(exp, s));
		if (!exp->sections[s].num_alts)
			continue;	/* no route: as many runs as without the section */
		for (a = 0; a < exp->sections[s].num_alts; a++)
			for (k = 0; k < exp->sections[s].alts[a].num_keys; k++)
				check_key(exp, s, &exp->sections[s].alts[a].keys[k]);
		if (runs <= MAX_RUNS)
			runs *= section_size(&exp->sections[s]);
	}
	return runs <= MAX_RUNS;
}

/* Whether a fabric file: names something outside the scratch directory. */
static int file_outside(const struct experiment *exp)
{
	const struct exp_section *fabric = &exp->sections[EXP_FABRIC];
	unsigned a, k, v;

	for (a = 0; a < fabric->num_alts; a++)
		for (k = 0; k < fabric->alts[a].num_keys; k++)
			for (v = 0; v < fabric->alts[a].keys[k].num_values; v++)
				if (!strcmp(fabric->alts[a].keys[k].name, "file") &&
				    strchr(fabric->alts[a].keys[k].values[v], '/'))
					return 1;
	return 0;
}

static void check_step(const struct exp_step *step)
{
	char command[4096];
	unsigned i;

	if (strlen(step->id) != EXP_ID_SIZE - 1 || strspn(step->id, "0123456789abcdef") !=
	    EXP_ID_SIZE - 1)
		fuzz_die("a step's id is not 16 hex digits", step->id);
	if (!step->output || !step->failed)
		fuzz_die("a step without its output or .failed file", step->id);
	for (i = 0; i < step->argc; i++)
		if (!step->argv[i])
			fuzz_die("a command line with a hole", step->id);
	exp_step_command(step, command, sizeof(command));
	exp_step_command(step, command, 8);
}

static void check_plan(const struct exp_plan *plan)
{
	char text[1024];
	unsigned i, count;
	struct exp_step **steps = exp_plan_steps(plan, &count);

	if (!plan->num_runs || plan->num_runs > MAX_RUNS || !steps ||
	    count != plan->num_fabrics + plan->num_tables + plan->num_runs)
		fuzz_die("a plan without runs, or with more than its choices", FILE_NAME);
	for (i = 0; i < count; i++)
		check_step(steps[i]);
	free(steps);
	if (!exp_has_route(plan->exp) && plan->num_tables)
		fuzz_die("table sets without a route", FILE_NAME);
	for (i = 0; i < plan->num_runs; i++) {
		const struct exp_step *input = plan->runs[i].input;

		if (!input || (exp_has_route(plan->exp) ? !input->input ||
			       input->kind != EXP_STEP_TABLES : input->kind != EXP_STEP_FABRIC))
			fuzz_die("a run without its tables or fabric", plan->runs[i].id);
		exp_run_label(plan, &plan->runs[i], text, sizeof(text));
		exp_run_label(plan, &plan->runs[i], text, 4);
	}
	exp_title(plan, text, sizeof(text));
	exp_title(plan, text, 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path(FILE_NAME);
	struct experiment *exp;
	struct exp_plan *plan;
	struct vlr_error err;

	fuzz_write(path, data, size);
	exp = exp_read(path, &err);
	if (!exp) {
		if (!strstr(err.message, FILE_NAME))
			fuzz_die("a refusal that does not name the file", err.message);
		return 0;
	}
	if (check_experiment(exp) && !file_outside(exp) && !fuzz_includes_outside(data, size)) {
		plan = exp_plan_new(exp, "vlroute", &err);
		if (plan)
			check_plan(plan);
		else if (!strstr(err.message, FILE_NAME))
			fuzz_die("a plan refused without naming the file", err.message);
		exp_plan_free(plan);
	}
	exp_free(exp);
	return 0;
}
