/*
 * experiment_carry.c - runs merged elsewhere. An experiment's merged files
 * (runs.csv, bins.csv and summary.json in its results directory) are
 * committed with the project; the runs/ folder whose results made them
 * stays on the machine that ran them. A run whose rows the merged files
 * hold is therefore done here too: "run" does not measure it again, and
 * "merge" carries its rows into the new files. So runs made on several
 * machines, or in several sittings on machines that did not keep runs/,
 * add up, where the last merge used to keep only its own runs. A run with
 * its own result in runs/ is merged from that result instead.
 *
 * Carried rows keep their measured fields as the earlier merge wrote them;
 * merge writes their id, label and settings columns again from the plan
 * (the id is a hash of the settings, so only a label may differ). A run's
 * rows of switches.csv (runs with --switch-injections) are carried the same
 * way when the old files have that file; a run carried from files without
 * it has no rows there, as it had none before. Columns
 * are matched by name: a column the old files lack (a number a later
 * vlroute writes) is left empty in the carried rows, and a column of the
 * old files the merge does not write stops the merge, which says which:
 * its values would be lost.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "experiment.h"

static void merged_path(const struct experiment *exp, const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", exp->results, name);
}

int exp_plan_mark_merged(struct exp_plan *plan, struct vlr_error *err)
{
	char path[VLR_PATH_SIZE];
	struct exp_csv *csv;
	struct exp_step *run;
	unsigned row;
	const char *id;

	merged_path(plan->exp, "runs.csv", path, sizeof(path));
	if (exp_csv_read_if(path, &csv, err))
		return -1;
	if (!csv)
		return 0;
	if (csv->rows && !exp_csv_get(csv, 0, "run")) {
		exp_csv_free(csv);
		return vlr_fail_at(err, path, 1, "no \"run\" column: not a file that "
				   "\"vlroute experiment merge\" wrote");
	}
	for (row = 0; row < csv->rows; row++) {
		id = exp_csv_get(csv, row, "run");
		if ((run = exp_plan_find(plan, EXP_STEP_RUN, id)) != NULL)
			run->merged = 1;
	}
	exp_csv_free(csv);
	return 0;
}

int exp_step_carried(const struct exp_step *step)
{
	struct stat st;

	return step->merged && stat(step->output, &st);
}

struct exp_carry {
	struct exp_csv *csv[EXP_MERGED_CSVS];	/* by enum exp_merged_csv; bins:
						   sim only, switches: only if
						   there */
	struct exp_doc *summary;
	char path[EXP_MERGED_CSVS][VLR_PATH_SIZE];
};

void exp_carry_free(struct exp_carry *c)
{
	unsigned i;

	if (!c)
		return;
	for (i = 0; i < EXP_MERGED_CSVS; i++)
		exp_csv_free(c->csv[i]);
	exp_doc_free(c->summary);
	free(c);
}

struct exp_carry *exp_carry_read(const struct exp_plan *plan, struct vlr_error *err)
{
	struct exp_carry *c = calloc(1, sizeof(*c));
	char path[VLR_PATH_SIZE];
	int sim = plan->exp->measure == EXP_SIM;

	if (!c) {
		vlr_fail(err, "out of memory reading the merged files of %s", plan->exp->path);
		return NULL;
	}
	merged_path(plan->exp, "runs.csv", c->path[EXP_RUNS_CSV], VLR_PATH_SIZE);
	merged_path(plan->exp, "bins.csv", c->path[EXP_BINS_CSV], VLR_PATH_SIZE);
	merged_path(plan->exp, "switches.csv", c->path[EXP_SWITCHES_CSV], VLR_PATH_SIZE);
	merged_path(plan->exp, "summary.json", path, sizeof(path));
	if (!(c->csv[EXP_RUNS_CSV] = exp_csv_read(c->path[EXP_RUNS_CSV], err)) ||
	    (sim && !(c->csv[EXP_BINS_CSV] = exp_csv_read(c->path[EXP_BINS_CSV], err))) ||
	    (sim && exp_csv_read_if(c->path[EXP_SWITCHES_CSV], &c->csv[EXP_SWITCHES_CSV],
				    err)) ||
	    !(c->summary = exp_doc_read(path, err))) {
		exp_carry_free(c);
		return NULL;
	}
	return c;
}

const struct exp_csv *exp_carry_csv(const struct exp_carry *c, enum exp_merged_csv which)
{
	return c->csv[which];
}

int exp_carry_map(const struct exp_carry *c, enum exp_merged_csv which,
		  const char *const *names, unsigned count, int *map, struct vlr_error *err)
{
	const struct exp_csv *csv = c->csv[which];
	const char *path = c->path[which];
	unsigned i, k;

	for (i = 0; i < count; i++)
		map[i] = -1;
	for (k = 0; k < csv->columns; k++) {
		for (i = 0; i < count && strcmp(csv->names[k], names[i]); i++)
			;
		if (i == count)
			return vlr_fail_at(err, path, 1, "column %u, \"%s\", is not one this merge "
					   "writes, so its values would be lost: merge into another "
					   "directory (-o), or run its runs again here", k + 1,
					   csv->names[k]);
		map[i] = (int)k;
	}
	return 0;
}

unsigned exp_carry_rows(const struct exp_csv *csv, const char *id, unsigned *first)
{
	unsigned row, count = 0;

	*first = csv->rows;
	for (row = 0; row < csv->rows; row++)
		if (!strcmp(csv->fields[row * csv->columns], id)) {
			if (!count)
				*first = row;
			count++;
		} else if (count)
			break;	/* a run's rows are together */
	return count;
}

int exp_carry_summary(const struct exp_carry *c, const char *id, char *path, size_t size)
{
	unsigned k, n = exp_doc_count(c->summary, "runs");
	char run[48];
	const char *value;

	for (k = 0; k < n; k++) {
		snprintf(run, sizeof(run), "runs.%u.run", k);
		if ((value = exp_doc_scalar(c->summary, run)) && !strcmp(value, id)) {
			snprintf(path, size, "runs.%u", k);
			return 0;
		}
	}
	return -1;
}

const struct exp_doc *exp_carry_doc(const struct exp_carry *c)
{
	return c->summary;
}
