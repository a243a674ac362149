/*
 * experiment_points.c - the cross product of an experiment: each section's
 * choices (an alternative with one value per key), then the steps that make
 * the points: a fabric per distinct fabric choice, a table set per distinct
 * (fabric, route) and a run per distinct (tables, measurement); without a
 * route section, a run per distinct (fabric, measurement), which sim runs
 * on the fabric file by the reference model.
 *
 * A step's id is a 64-bit FNV-1a hash of its input's id and its own
 * settings in key order, so it names the same work whatever the order of
 * the file or of its lists: adding a value to a list keeps every finished
 * run. A flag hashes alike however it is spelt (true, yes, on), and off as
 * if not given. A fabric read from a file is known by its contents alone:
 * an edited fabric is routed again, a moved one (or the folder seen from
 * another mount point) is not.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "experiment.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *data, size_t length)
{
	const unsigned char *p = data;

	while (length--)
		h = (h ^ *p++) * FNV_PRIME;
	return h;
}

static uint64_t fnv_text(uint64_t h, const char *text)
{
	return fnv(h, text, strlen(text) + 1);
}

static int flag_on(const char *value)
{
	return !strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "on");
}

static int compare_settings(const void *a, const void *b)
{
	const struct exp_setting *x = a, *y = b;

	return strcmp(x->key, y->key);
}

/*
 * The hash of a choice's settings in key order, after the input's id. A
 * choice's keys are distinct, so sorting them in place changes nothing
 * but the order its command line lists them in: keep the file's order
 * there by sorting a copy.
 */
static int choice_hash(const char *kind, const char *input, const struct exp_choice *choice,
		       char *id, struct vlr_error *err)
{
	struct exp_setting *sorted = calloc(choice->num_settings + 1, sizeof(*sorted));
	uint64_t h = fnv_text(fnv_text(FNV_OFFSET, kind), input);
	unsigned i;

	if (!sorted)
		return vlr_fail(err, "out of memory expanding the experiment");
	memcpy(sorted, choice->settings, choice->num_settings * sizeof(*sorted));
	qsort(sorted, choice->num_settings, sizeof(*sorted), compare_settings);
	for (i = 0; i < choice->num_settings; i++) {
		if (sorted[i].flag && !flag_on(sorted[i].value))
			continue;	/* as if not given */
		h = fnv_text(fnv_text(h, sorted[i].key), sorted[i].flag ? "true" :
			     sorted[i].value);
	}
	free(sorted);
	snprintf(id, EXP_ID_SIZE, "%016llx", (unsigned long long)h);
	return 0;
}

/* The number of choices of an alternative: the product of its list lengths. */
static unsigned long long alt_size(const struct exp_alt *alt)
{
	unsigned long long n = 1;
	unsigned k;

	for (k = 0; k < alt->num_keys && n <= UINT_MAX; k++)
		n *= alt->keys[k].num_values;
	return n;
}

/* Choice number i of alt: the first key varies slowest. */
static int make_choice(const struct exp_alt *alt, unsigned long long i,
		       struct exp_choice *choice, struct vlr_error *err)
{
	unsigned k;

	choice->label = alt->label;
	choice->num_settings = alt->num_keys;
	choice->settings = calloc(alt->num_keys ? alt->num_keys : 1, sizeof(*choice->settings));
	if (!choice->settings)
		return vlr_fail(err, "out of memory expanding the experiment");
	for (k = alt->num_keys; k-- > 0;) {
		choice->settings[k].key = alt->keys[k].name;
		choice->settings[k].line = alt->keys[k].line;
		choice->settings[k].flag = alt->keys[k].flag;
		choice->settings[k].value = alt->keys[k].values[i % alt->keys[k].num_values];
		i /= alt->keys[k].num_values;
	}
	return 0;
}

static int expand_section(struct exp_plan *plan, enum exp_section_kind kind,
			  struct vlr_error *err)
{
	const struct exp_section *section = &plan->exp->sections[kind];
	unsigned long long total = 0, i;
	unsigned a;

	if (!section->num_alts)
		return 0;	/* no route section: no choices */
	for (a = 0; a < section->num_alts; a++)
		total += alt_size(&section->alts[a]);
	if (total > 1000000)
		return vlr_fail_at(err, plan->exp->path, section->line, "%s: %llu choices; "
				   "at most 1000000", exp_section_name(plan->exp, kind), total);
	plan->choices[kind] = calloc(total, sizeof(struct exp_choice));
	if (!plan->choices[kind])
		return vlr_fail(err, "out of memory expanding the experiment");
	for (a = 0; a < section->num_alts; a++)
		for (i = 0; i < alt_size(&section->alts[a]); i++)
			if (make_choice(&section->alts[a], i,
					&plan->choices[kind][plan->num_choices[kind]++], err))
				return -1;
	return 0;
}

static const struct exp_setting *setting_line(const struct exp_choice *choice,
					      const char *key)
{
	unsigned i;

	for (i = 0; choice && i < choice->num_settings; i++)
		if (!strcmp(choice->settings[i].key, key))
			return &choice->settings[i];
	return NULL;
}

const char *exp_choice_value(const struct exp_choice *choice, const char *key)
{
	const struct exp_setting *s = setting_line(choice, key);

	return s ? s->value : NULL;
}

static char *join_path(const char *folder, const char *a, const char *b, const char *c)
{
	size_t n = strlen(folder) + strlen(a) + strlen(b) + strlen(c) + 3;
	char *path = malloc(n);

	if (path)
		snprintf(path, n, "%s/%s%s%s", folder, a, b, c);
	return path;
}

/* argv: exe WORDS... then --key value for each setting but gen/file. */
static int make_argv(struct exp_step *step, const char *exe, const char *const *words,
		     const struct exp_choice *choice, const char *const *tail,
		     struct vlr_error *err)
{
	unsigned n = 1, i;

	for (i = 0; words[i]; i++)
		n++;
	for (i = 0; tail[i]; i++)
		n++;
	step->argv = calloc(n + 2 * choice->num_settings + 1, sizeof(*step->argv));
	if (!step->argv)
		return vlr_fail(err, "out of memory expanding the experiment");
	step->argv[step->argc++] = strdup(exe);
	for (i = 0; words[i]; i++)
		step->argv[step->argc++] = strdup(words[i]);
	for (i = 0; i < choice->num_settings; i++) {
		const struct exp_setting *s = &choice->settings[i];
		size_t length = strlen(s->key) + 3;
		char *option;

		if (step->kind == EXP_STEP_FABRIC && !strcmp(s->key, "gen"))
			continue;
		if (s->flag && !flag_on(s->value))
			continue;
		option = malloc(length);
		if (option)
			snprintf(option, length, "--%s", s->key);
		step->argv[step->argc++] = option;
		if (!s->flag)
			step->argv[step->argc++] = strdup(s->value);
	}
	for (i = 0; tail[i]; i++)
		step->argv[step->argc++] = strdup(tail[i]);
	for (i = 0; i < step->argc; i++)
		if (!step->argv[i])
			return vlr_fail(err, "out of memory expanding the experiment");
	return 0;
}

/* The contents of a fabric file into the hash, so that an edit is seen. */
static int hash_file(const char *path, uint64_t *h, struct vlr_error *err)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(path, "rb");

	if (!in)
		return vlr_fail(err, "%s", strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		*h = fnv(*h, buf, n);
	n = (size_t)ferror(in);
	fclose(in);
	return n ? vlr_fail(err, "cannot read it") : 0;
}

static char *fabric_file_path(const struct exp_plan *plan, const char *file)
{
	char *joined = file[0] == '/' ? strdup(file) : join_path(plan->exp->folder, file, "", "");
	char *resolved = joined ? realpath(joined, NULL) : NULL;

	free(joined);
	return resolved;
}

static int file_fabric(struct exp_plan *plan, struct exp_step *step,
		       const struct exp_choice *choice, struct vlr_error *err)
{
	const struct exp_setting *file = setting_line(choice, "file");
	struct vlr_error why;
	uint64_t h;

	step->output = fabric_file_path(plan, file->value);
	if (!step->output)
		return vlr_fail_at(err, plan->exp->path, file->line, "fabric file %s: %s",
				   file->value, strerror(errno));
	h = fnv_text(FNV_OFFSET, "file");
	if (hash_file(step->output, &h, &why))
		return vlr_fail_at(err, plan->exp->path, file->line, "fabric file %s: %s",
				   step->output, why.message);
	snprintf(step->id, EXP_ID_SIZE, "%016llx", (unsigned long long)h);
	return 0;
}

static int gen_fabric(struct exp_plan *plan, struct exp_step *step, const char *exe,
		      const struct exp_choice *choice, struct vlr_error *err)
{
	const char *words[] = { "gen", exp_choice_value(choice, "gen"), NULL };
	const char *tail[] = { "-o", NULL, NULL };

	if (choice_hash("fabric", "", choice, step->id, err))
		return -1;
	step->output = join_path(plan->exp->folder, "fabrics/", step->id, ".net");
	if (!step->output)
		return vlr_fail(err, "out of memory expanding the experiment");
	tail[1] = step->output;
	return make_argv(step, exe, words, choice, tail, err);
}

static struct exp_step *find_step(struct exp_step *steps, unsigned count, const char *id)
{
	unsigned i;

	for (i = 0; i < count; i++)
		if (!strcmp(steps[i].id, id))
			return &steps[i];
	return NULL;
}

/* FOLDER/DIR/ID.failed: why the step failed, when it did. */
static int set_failed(const struct exp_plan *plan, struct exp_step *step, const char *dir,
		      struct vlr_error *err)
{
	step->failed = join_path(plan->exp->folder, dir, step->id, ".failed");
	return step->failed ? 0 : vlr_fail(err, "out of memory expanding the experiment");
}

/* The fabric step of choice f (an existing one if another choice made it). */
static struct exp_step *add_fabric(struct exp_plan *plan, const char *exe, unsigned f,
				   struct vlr_error *err)
{
	const struct exp_choice *choice = &plan->choices[EXP_FABRIC][f];
	struct exp_step *step = &plan->fabrics[plan->num_fabrics], *old;

	step->kind = EXP_STEP_FABRIC;
	step->choice = choice;
	if (exp_choice_value(choice, "file") ? file_fabric(plan, step, choice, err) :
	    gen_fabric(plan, step, exe, choice, err))
		return NULL;
	old = find_step(plan->fabrics, plan->num_fabrics, step->id);
	if (old) {
		free(step->output);
		for (f = 0; f < step->argc; f++)
			free(step->argv[f]);
		free(step->argv);
		memset(step, 0, sizeof(*step));
		return old;
	}
	plan->num_fabrics++;
	return set_failed(plan, step, "fabrics/", err) ? NULL : step;
}

static struct exp_step *add_tables(struct exp_plan *plan, const char *exe,
				   struct exp_step *fabric, unsigned r, struct vlr_error *err)
{
	const struct exp_choice *choice = &plan->choices[EXP_ROUTE][r];
	struct exp_step *step;
	const char *words[] = { "route", fabric->output, NULL };
	const char *tail[] = { "-o", NULL, NULL };
	char id[EXP_ID_SIZE];

	if (choice_hash("tables", fabric->id, choice, id, err))
		return NULL;
	step = find_step(plan->tables, plan->num_tables, id);
	if (step)
		return step;
	step = &plan->tables[plan->num_tables++];
	step->kind = EXP_STEP_TABLES;
	step->choice = choice;
	step->input = fabric;
	memcpy(step->id, id, sizeof(id));
	step->output = join_path(plan->exp->folder, "tables/", id, "");
	if (!step->output || set_failed(plan, step, "tables/", err))
		return NULL;
	tail[1] = step->output;
	return make_argv(step, exe, words, choice, tail, err) ? NULL : step;
}

/* The run of measurement choice m on input: a table set, or without a route a fabric. */
static int add_run(struct exp_plan *plan, const char *exe, struct exp_step *input,
		   unsigned m, struct vlr_error *err)
{
	const struct exp_choice *choice = &plan->choices[EXP_MEASURE][m];
	const char *words[] = { exp_measure_name(plan->exp->measure), input->output, NULL };
	const char *tail[] = { "--threads", "1", "--quiet", NULL };
	struct exp_step *step;
	char id[EXP_ID_SIZE];

	if (plan->exp->measure == EXP_ANALYZE)
		tail[2] = NULL;
	if (choice_hash(words[0], input->id, choice, id, err))
		return -1;
	if (find_step(plan->runs, plan->num_runs, id))
		return 0;
	step = &plan->runs[plan->num_runs++];
	step->kind = EXP_STEP_RUN;
	step->choice = choice;
	step->input = input;
	memcpy(step->id, id, sizeof(id));
	step->output = join_path(plan->exp->folder, "runs/", id, ".json");
	if (!step->output || set_failed(plan, step, "runs/", err))
		return -1;
	return make_argv(step, exe, words, choice, tail, err);
}

static int allocate_steps(struct exp_plan *plan, struct vlr_error *err)
{
	unsigned long long nf = plan->num_choices[EXP_FABRIC];
	unsigned long long nt = nf * plan->num_choices[EXP_ROUTE];
	unsigned long long nr = (exp_has_route(plan->exp) ? nt : nf) *
				plan->num_choices[EXP_MEASURE];

	if (nr > 1000000)
		return vlr_fail(err, "%s: %llu runs; at most 1000000", plan->exp->path, nr);
	plan->fabrics = calloc(nf, sizeof(*plan->fabrics));
	plan->tables = calloc(nt ? nt : 1, sizeof(*plan->tables));
	plan->runs = calloc(nr, sizeof(*plan->runs));
	if (!plan->fabrics || !plan->tables || !plan->runs)
		return vlr_fail(err, "out of memory expanding the experiment");
	return 0;
}

static int make_steps(struct exp_plan *plan, const char *exe, struct vlr_error *err)
{
	struct exp_step *fabric, *tables;
	unsigned f, r, m;

	if (allocate_steps(plan, err))
		return -1;
	for (f = 0; f < plan->num_choices[EXP_FABRIC]; f++) {
		if (!(fabric = add_fabric(plan, exe, f, err)))
			return -1;
		for (m = 0; !exp_has_route(plan->exp) && m < plan->num_choices[EXP_MEASURE]; m++)
			if (add_run(plan, exe, fabric, m, err))
				return -1;
		for (r = 0; r < plan->num_choices[EXP_ROUTE]; r++) {
			if (!(tables = add_tables(plan, exe, fabric, r, err)))
				return -1;
			for (m = 0; m < plan->num_choices[EXP_MEASURE]; m++)
				if (add_run(plan, exe, tables, m, err))
					return -1;
		}
	}
	return 0;
}

struct exp_plan *exp_plan_new(const struct experiment *exp, const char *exe,
			      struct vlr_error *err)
{
	struct exp_plan *plan = calloc(1, sizeof(*plan));
	unsigned kind;

	if (!plan) {
		vlr_fail(err, "out of memory expanding the experiment");
		return NULL;
	}
	plan->exp = exp;
	for (kind = 0; kind < EXP_SECTIONS; kind++)
		if (expand_section(plan, kind, err))
			goto fail;
	if (make_steps(plan, exe, err) || exp_plan_mark_merged(plan, err))
		goto fail;
	return plan;
fail:
	exp_plan_free(plan);
	return NULL;
}

static void free_steps(struct exp_step *steps, unsigned count)
{
	unsigned i, a;

	for (i = 0; steps && i < count; i++) {
		for (a = 0; a < steps[i].argc; a++)
			free(steps[i].argv[a]);
		free(steps[i].argv);
		free(steps[i].output);
		free(steps[i].failed);
	}
	free(steps);
}

void exp_plan_free(struct exp_plan *plan)
{
	unsigned kind, i;

	if (!plan)
		return;
	for (kind = 0; kind < EXP_SECTIONS; kind++) {
		for (i = 0; i < plan->num_choices[kind]; i++)
			free(plan->choices[kind][i].settings);
		free(plan->choices[kind]);
	}
	free_steps(plan->fabrics, plan->num_fabrics);
	free_steps(plan->tables, plan->num_tables);
	free_steps(plan->runs, plan->num_runs);
	free(plan);
}

const struct exp_choice *exp_run_choice(const struct exp_step *run, enum exp_section_kind kind)
{
	static const enum exp_step_kind step_of[EXP_SECTIONS] = {
		[EXP_FABRIC] = EXP_STEP_FABRIC, [EXP_ROUTE] = EXP_STEP_TABLES,
		[EXP_MEASURE] = EXP_STEP_RUN,
	};
	const struct exp_step *step = run;

	while (step && step->kind != step_of[kind])
		step = step->input;
	return step ? step->choice : NULL;
}

struct exp_step *exp_plan_find(const struct exp_plan *plan, enum exp_step_kind kind,
			       const char *id)
{
	if (kind == EXP_STEP_FABRIC)
		return find_step(plan->fabrics, plan->num_fabrics, id);
	if (kind == EXP_STEP_TABLES)
		return find_step(plan->tables, plan->num_tables, id);
	return find_step(plan->runs, plan->num_runs, id);
}

struct exp_step **exp_plan_steps(const struct exp_plan *plan, unsigned *count)
{
	unsigned n = plan->num_fabrics + plan->num_tables + plan->num_runs, i, k = 0;
	struct exp_step **steps = calloc(n ? n : 1, sizeof(*steps));

	if (!steps)
		return NULL;
	for (i = 0; i < plan->num_fabrics; i++)
		steps[k++] = &plan->fabrics[i];
	for (i = 0; i < plan->num_tables; i++)
		steps[k++] = &plan->tables[i];
	for (i = 0; i < plan->num_runs; i++)
		steps[k++] = &plan->runs[i];
	*count = k;
	return steps;
}

enum exp_state exp_step_state(const struct exp_step *step)
{
	struct stat st;

	if (!stat(step->output, &st) || step->merged)
		return EXP_DONE;
	if (!stat(step->failed, &st))
		return EXP_FAILED;
	return EXP_PENDING;
}

void exp_step_reason(const struct exp_step *step, char *out, size_t size)
{
	FILE *in = fopen(step->failed, "r");

	out[0] = 0;
	if (!in)
		return;
	if (fgets(out, (int)size, in))
		out[strcspn(out, "\n")] = 0;
	fclose(in);
}

void exp_step_command(const struct exp_step *step, char *out, size_t size)
{
	char **argv, *joined = NULL;

	if (!step->argv) {
		snprintf(out, size, "(the fabric file %s)", step->output);
		return;
	}
	argv = calloc(step->argc, sizeof(*argv));
	if (argv) {
		memcpy(argv, step->argv, step->argc * sizeof(*argv));
		argv[0] = "vlroute";	/* the program's name, not where it is */
		joined = vlr_shell_join((int)step->argc, argv);
	}
	snprintf(out, size, "%s", joined ? joined : "(out of memory)");
	free(joined);
	free(argv);
}
