/*
 * experiment_merge.c - what an experiment has and what it found: status
 * (done, pending and failed steps, each failure with its reason), labels
 * and titles, and the merge into tidy files that pandas and R read as they
 * are:
 *
 *   runs.csv      a row per run (analyze: per run and pattern): the run's
 *                 id and label, a column per setting ("section_key"), the
 *                 tables' hash and the measurement's numbers
 *   bins.csv      sim only: a row per run and time bin, warm-up bins
 *                 flagged, covering each run from cycle 0
 *   switches.csv  sim runs with --switch-injections only: a row per run
 *                 and switch, the packets its servers injected while
 *                 measuring (no file when no run has them)
 *   summary.json  the merge's provenance, and per run its settings, its
 *                 numbers and its measurement's provenance
 *
 * The CSV files hold nothing that depends on where or when a run ran
 * (seconds, host, date stay in summary.json), so an experiment run on one
 * machine with any -j, or as Slurm tasks, merges to the same bytes.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "experiment.h"

/* A run's numbers, as sim writes them per run ("result.runs.0.NAME"). */
static const char *const sim_fields[] = {
	"offered", "seed", "accepted", "latency_avg", "latency_p50", "latency_p99",
	"latency_max", "hops_avg", "generated", "refused", "injected", "delivered",
	"inject_min", "inject_max_over_min", "inject_cv", "stability", "deadlock", "cycles",
	"nonminimal", "latency_minimal_avg", "latency_nonminimal_avg",	/* UGAL only */
	NULL,
};

/* analyze: the table's numbers ("result.NAME"), then a pattern's. */
static const char *const analyze_fields[] = {
	"deadlock_free", "linkload.hops_mean", "linkload.bandwidth_mean", NULL,
};

static const char *const pattern_fields[] = {
	"name", "instances", "mean", "ci95_low", "ci95_high", "instance_min", "instance_max",
	"pair_min", "congestion_mean", "congestion_max", NULL,
};

/* Where a measurement's JSON keeps the hash of the tables it read. */
#define TABLES_HASH "result.provenance.tables.0.sha256"

/* The scalar at path; NULL (an empty field) for a JSON null. */
static const char *value_of(const struct exp_doc *doc, const char *path)
{
	const char *value = exp_doc_scalar(doc, path);

	return value && strcmp(value, "null") ? value : NULL;
}

/* The tables' hash; NULL for the reference model's null. */
static const char *tables_hash(const struct exp_doc *doc)
{
	return value_of(doc, TABLES_HASH);
}

/* The settings columns: every key of a section, in first-seen order. */
struct column {
	enum exp_section_kind kind;
	const char *key;
};

struct columns {
	struct column *items;
	unsigned count;
};

static int has_column(const struct columns *c, enum exp_section_kind kind, const char *key)
{
	unsigned i;

	for (i = 0; i < c->count; i++)
		if (c->items[i].kind == kind && !strcmp(c->items[i].key, key))
			return 1;
	return 0;
}

static int collect_columns(const struct exp_plan *plan, struct columns *c)
{
	unsigned kind, i, k, n = 0;

	for (kind = 0; kind < EXP_SECTIONS; kind++)
		for (i = 0; i < plan->num_choices[kind]; i++)
			n += plan->choices[kind][i].num_settings;
	c->items = calloc(n ? n : 1, sizeof(*c->items));
	c->count = 0;
	if (!c->items)
		return -1;
	for (kind = 0; kind < EXP_SECTIONS; kind++)
		for (i = 0; i < plan->num_choices[kind]; i++)
			for (k = 0; k < plan->choices[kind][i].num_settings; k++) {
				const char *key = plan->choices[kind][i].settings[k].key;

				if (!has_column(c, kind, key))
					c->items[c->count++] = (struct column){ kind, key };
			}
	return 0;
}

/* Whether every choice of a section gives key one value (*value, NULL: none). */
static int uniform(const struct exp_plan *plan, enum exp_section_kind kind, const char *key,
		   const char **value)
{
	const char *v;
	unsigned i;

	*value = NULL;
	for (i = 0; i < plan->num_choices[kind]; i++) {
		v = exp_choice_value(&plan->choices[kind][i], key);
		if (i && (!v != !*value || (v && strcmp(v, *value))))
			return 0;
		*value = v;
	}
	return 1;
}

/* Whether key of a section takes more than one value (or is missing somewhere). */
static int varies(const struct exp_plan *plan, enum exp_section_kind kind, const char *key)
{
	const char *first = NULL, *v;
	unsigned i;

	for (i = 0; i < plan->num_choices[kind]; i++) {
		v = exp_choice_value(&plan->choices[kind][i], key);
		if (!v)
			return 1;
		if (!first)
			first = v;
		else if (strcmp(first, v))
			return 1;
	}
	return 0;
}

static void append(char *out, size_t size, const char *separator, const char *text)
{
	size_t at = strlen(out);

	snprintf(out + at, size - at, "%s%s", at ? separator : "", text);
}

/*
 * A section's part of a label: the choice's label, or what varies in it;
 * nothing for a section the experiment lacks (choice NULL: no route).
 */
static void section_label(const struct exp_plan *plan, enum exp_section_kind kind,
			  const struct exp_choice *choice, char *out, size_t size)
{
	char item[512];
	unsigned i;

	out[0] = 0;
	if (!choice)
		return;
	if (choice->label) {
		append(out, size, "", choice->label);
		return;
	}
	for (i = 0; i < choice->num_settings; i++) {
		const char *key = choice->settings[i].key;

		if (kind == EXP_MEASURE && (!strcmp(key, "seed") || !strcmp(key, "load")))
			continue;
		if (!varies(plan, kind, key))
			continue;
		snprintf(item, sizeof(item), "%s=%s", key, choice->settings[i].value);
		append(out, size, " ", item);
	}
}

void exp_run_label(const struct exp_plan *plan, const struct exp_step *run, char *out,
		   size_t size)
{
	char part[1024];
	unsigned kind;

	out[0] = 0;
	for (kind = 0; kind < EXP_SECTIONS; kind++) {
		section_label(plan, kind, exp_run_choice(run, kind), part, sizeof(part));
		if (part[0])
			append(out, size, ", ", part);
	}
}

/* "family: ..." from a generated net file's header, else the recognised family. */
static void fabric_title(const struct exp_step *fabric, char *out, size_t size)
{
	struct vlr_family_params params;
	struct vlr_fabric *f;
	char line[256];
	FILE *in = fopen(fabric->output, "r");

	out[0] = 0;
	while (in && fgets(line, sizeof(line), in) && line[0] == '#')
		if (!strncmp(line, "# family: ", 10)) {
			line[strcspn(line, "\n")] = 0;
			append(out, size, "", line + 10);
		}
	if (in)
		fclose(in);
	if (out[0] || !(f = vlr_fabric_new()))
		return;
	if (!vlr_netfile_read(f, fabric->output, NULL, NULL)) {
		if (vlr_recognise_family(f, &params) == 1)
			vlr_family_describe(&params, out, size);
		else
			snprintf(out, size, "%u nodes", (unsigned)f->num_nodes);
	}
	vlr_fabric_free(f);
}

/* How the runs route: "reference model" without a route, else the one engine. */
static void routing_title(const struct exp_plan *plan, char *out, size_t size)
{
	const char *engine;

	out[0] = 0;
	if (!exp_has_route(plan->exp))
		snprintf(out, size, "reference model");
	else if (uniform(plan, EXP_ROUTE, "engine", &engine) && engine)
		snprintf(out, size, "engine %s", engine);
}

void exp_title(const struct exp_plan *plan, char *out, size_t size)
{
	const char *key = plan->exp->measure == EXP_SIM ? "traffic" : "pattern";
	const char *pattern;
	char fabric[512];

	if (plan->exp->title) {
		snprintf(out, size, "%s", plan->exp->title);
		return;
	}
	out[0] = 0;
	if (plan->num_fabrics == 1) {
		fabric_title(&plan->fabrics[0], fabric, sizeof(fabric));
		append(out, size, ", ", fabric);
	}
	routing_title(plan, fabric, sizeof(fabric));
	if (fabric[0])
		append(out, size, ", ", fabric);
	if (uniform(plan, EXP_MEASURE, key, &pattern)) {
		snprintf(fabric, sizeof(fabric), "traffic %s",
			 pattern ? pattern : plan->exp->measure == EXP_SIM ? "un" : "ebb");
		append(out, size, ", ", fabric);
	}
}

static void count_states(const struct exp_step *steps, unsigned count, unsigned *states)
{
	unsigned i;

	states[EXP_PENDING] = states[EXP_DONE] = states[EXP_FAILED] = 0;
	for (i = 0; i < count; i++)
		states[exp_step_state(&steps[i])]++;
}

static void print_failures(const struct exp_plan *plan, const char *what,
			   const struct exp_step *steps, unsigned count, FILE *out)
{
	char reason[1024], label[512];
	unsigned i;

	for (i = 0; i < count; i++)
		if (exp_step_state(&steps[i]) == EXP_FAILED) {
			exp_step_reason(&steps[i], reason, sizeof(reason));
			label[0] = 0;
			if (steps == plan->runs)
				exp_run_label(plan, &steps[i], label, sizeof(label));
			fprintf(out, "  %s %s%s%s%s: %s\n", what, steps[i].id, label[0] ? " (" : "",
				label, label[0] ? ")" : "", reason);
		}
}

int exp_status(const struct exp_plan *plan, FILE *out)
{
	unsigned f[3], t[3], r[3], i, carried;
	char title[512];

	count_states(plan->fabrics, plan->num_fabrics, f);
	count_states(plan->tables, plan->num_tables, t);
	count_states(plan->runs, plan->num_runs, r);
	exp_title(plan, title, sizeof(title));
	fprintf(out, "experiment:  %s\ntitle:       %s\n", plan->exp->path, title);
	fprintf(out, "             total     done   failed  pending\n");
	fprintf(out, "fabrics   %8u %8u %8u %8u\n", plan->num_fabrics, f[EXP_DONE],
		f[EXP_FAILED], f[EXP_PENDING]);
	fprintf(out, "tables    %8u %8u %8u %8u\n", plan->num_tables, t[EXP_DONE],
		t[EXP_FAILED], t[EXP_PENDING]);
	fprintf(out, "runs      %8u %8u %8u %8u\n", plan->num_runs, r[EXP_DONE],
		r[EXP_FAILED], r[EXP_PENDING]);
	for (i = carried = 0; i < plan->num_runs; i++)
		carried += (unsigned)exp_step_carried(&plan->runs[i]);
	if (carried)
		fprintf(out, "merged elsewhere: %u of the done runs, whose rows %s/runs.csv "
			"holds (no result in runs/); merge keeps them\n", carried,
			plan->exp->results);
	if (f[EXP_FAILED] + t[EXP_FAILED] + r[EXP_FAILED]) {
		fprintf(out, "failed:\n");
		print_failures(plan, "fabric", plan->fabrics, plan->num_fabrics, out);
		print_failures(plan, "tables", plan->tables, plan->num_tables, out);
		print_failures(plan, "run", plan->runs, plan->num_runs, out);
	}
	if (ferror(out))
		return 1;
	return r[EXP_DONE] == plan->num_runs ? 0 : 1;
}

void exp_csv_field(FILE *out, const char *text, int first)
{
	if (!first)
		fputc(',', out);
	if (!text)
		return;
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (; *text; text++) {
		if (*text == '"')
			fputc('"', out);
		fputc(*text, out);
	}
	fputc('"', out);
}

static void column_name(const struct exp_plan *plan, const struct column *c, char *out,
			size_t size)
{
	size_t i;

	snprintf(out, size, "%s_%s", exp_section_name(plan->exp, c->kind), c->key);
	for (i = 0; out[i]; i++)
		if (out[i] == '-' || out[i] == '+' || out[i] == '.')
			out[i] = '_';
}

#define NAME_SIZE 128

/* How many columns a merged CSV file has: run, label, the settings, then tail's. */
static unsigned header_count(const struct columns *c, const char *const *tail)
{
	unsigned n = 2 + c->count;

	while (tail[n - 2 - c->count])
		n++;
	return n;
}

/* The name of column i of a merged CSV file, into out (NAME_SIZE). */
static void header_name(const struct exp_plan *plan, const struct columns *c,
			const char *const *tail, unsigned i, char *out)
{
	const char *t;

	if (i < 2)
		snprintf(out, NAME_SIZE, "%s", i ? "label" : "run");
	else if (i < 2 + c->count)
		column_name(plan, &c->items[i - 2], out, NAME_SIZE);
	else {
		t = tail[i - 2 - c->count];
		snprintf(out, NAME_SIZE, "%s", strrchr(t, '.') ? strrchr(t, '.') + 1 : t);
	}
}

static void csv_header(FILE *out, const struct exp_plan *plan, const struct columns *c,
		       const char *const *tail)
{
	char name[NAME_SIZE];
	unsigned i, n = header_count(c, tail);

	for (i = 0; i < n; i++) {
		header_name(plan, c, tail, i, name);
		exp_csv_field(out, name, i == 0);
	}
	fputc('\n', out);
}

/* run, label and the settings columns of a row. */
static void csv_lead(FILE *out, const struct exp_plan *plan, const struct exp_step *run,
		     const struct columns *c)
{
	char label[1024];
	unsigned i;

	exp_run_label(plan, run, label, sizeof(label));
	exp_csv_field(out, run->id, 1);
	exp_csv_field(out, label, 0);
	for (i = 0; i < c->count; i++)
		exp_csv_field(out, exp_choice_value(exp_run_choice(run, c->items[i].kind),
						    c->items[i].key), 0);
}

/* bins.csv's and switches.csv's columns after the settings. */
static const char *const bin_fields[] = { "bin", "start", "end", "warmup", "accepted", NULL };
static const char *const switch_fields[] = { "switch", "name", "injected", NULL };

struct merge {
	const struct exp_plan *plan;
	struct columns columns;
	const char *tail[64];		/* runs.csv's columns after the settings */
	FILE *runs, *bins, *switches;
	struct vlr_json json;
	struct exp_carry *carry;	/* the merged files, when runs are done only there */
	int *map[EXP_MERGED_CSVS];	/* by enum exp_merged_csv: [column] its
					   column in the old file, or -1 */
	unsigned merged, carried, pending, failed;
	unsigned long long switch_rows;	/* of switches.csv */
};

/* A run's rows of switches.csv: none when it ran without --switch-injections. */
static void switch_rows(struct merge *m, const struct exp_step *run, const struct exp_doc *doc)
{
	unsigned i, n = exp_doc_count(doc, "result.runs.0.switch_injected");
	char path[64], number[32];

	for (i = 0; i < n; i++) {
		csv_lead(m->switches, m->plan, run, &m->columns);
		snprintf(number, sizeof(number), "%u", i);
		exp_csv_field(m->switches, number, 0);
		snprintf(path, sizeof(path), "result.config.switch_names.%u", i);
		exp_csv_field(m->switches, exp_doc_scalar(doc, path), 0);
		snprintf(path, sizeof(path), "result.runs.0.switch_injected.%u", i);
		exp_csv_field(m->switches, exp_doc_scalar(doc, path), 0);
		fputc('\n', m->switches);
	}
	m->switch_rows += n;
}


static void sim_rows(struct merge *m, const struct exp_step *run, const struct exp_doc *doc)
{
	unsigned i, n = exp_doc_count(doc, "result.runs.0.bins"), warmup = 0, bin = 0;
	unsigned long long cycles = 0;
	char path[64], number[32];
	const char *text;

	csv_lead(m->runs, m->plan, run, &m->columns);
	exp_csv_field(m->runs, tables_hash(doc), 0);
	for (i = 0; sim_fields[i]; i++) {
		snprintf(path, sizeof(path), "result.runs.0.%s", sim_fields[i]);
		exp_csv_field(m->runs, value_of(doc, path), 0);
	}
	fputc('\n', m->runs);
	if ((text = exp_doc_scalar(doc, "result.runs.0.bin")))
		bin = (unsigned)strtoul(text, NULL, 10);
	if ((text = exp_doc_scalar(doc, "result.runs.0.warmup_bins")))
		warmup = (unsigned)strtoul(text, NULL, 10);
	if ((text = exp_doc_scalar(doc, "result.runs.0.cycles")))
		cycles = strtoull(text, NULL, 10);
	for (i = 0; i < n; i++) {
		unsigned long long start = (unsigned long long)i * bin, end = start + bin;

		csv_lead(m->bins, m->plan, run, &m->columns);
		snprintf(number, sizeof(number), "%u", i);
		exp_csv_field(m->bins, number, 0);
		snprintf(number, sizeof(number), "%llu", start);
		exp_csv_field(m->bins, number, 0);
		snprintf(number, sizeof(number), "%llu", cycles && end > cycles ? cycles : end);
		exp_csv_field(m->bins, number, 0);
		exp_csv_field(m->bins, i < warmup ? "1" : "0", 0);
		snprintf(path, sizeof(path), "result.runs.0.bins.%u", i);
		exp_csv_field(m->bins, exp_doc_scalar(doc, path), 0);
		fputc('\n', m->bins);
	}
	switch_rows(m, run, doc);
}

static void analyze_rows(struct merge *m, const struct exp_step *run,
			 const struct exp_doc *doc)
{
	unsigned p, i, n = exp_doc_count(doc, "result.patterns");
	char path[96];

	for (p = 0; p < n; p++) {
		csv_lead(m->runs, m->plan, run, &m->columns);
		exp_csv_field(m->runs, tables_hash(doc), 0);
		for (i = 0; analyze_fields[i]; i++) {
			snprintf(path, sizeof(path), "result.%s", analyze_fields[i]);
			exp_csv_field(m->runs, exp_doc_scalar(doc, path), 0);
		}
		for (i = 0; pattern_fields[i]; i++) {
			snprintf(path, sizeof(path), "result.patterns.%u.%s", p, pattern_fields[i]);
			exp_csv_field(m->runs, exp_doc_scalar(doc, path), 0);
		}
		fputc('\n', m->runs);
	}
}

static void summary_run(struct merge *m, const struct exp_step *run,
			const struct exp_doc *doc)
{
	char label[1024];

	exp_run_label(m->plan, run, label, sizeof(label));
	vlr_json_open(&m->json, NULL, '{', VLR_JSON_INLINE);
	exp_doc_write(doc, "run", &m->json, "run");
	vlr_json_string(&m->json, "label", label);
	exp_doc_write(doc, "settings", &m->json, "settings");
	exp_doc_write(doc, "commands", &m->json, "commands");
	if (m->plan->exp->measure == EXP_SIM) {
		exp_doc_write(doc, "result.runs.0.seconds", &m->json, "seconds");
		exp_doc_write(doc, "result.runs.0.accepted", &m->json, "accepted");
		exp_doc_write(doc, "result.runs.0.latency_avg", &m->json, "latency_avg");
	} else
		exp_doc_write(doc, "result.patterns", &m->json, "patterns");
	exp_doc_write(doc, "result.provenance", &m->json, "provenance");
	vlr_json_close(&m->json);
}

/* A merged CSV file's columns after the settings. */
static const char *const *tail_of(const struct merge *m, enum exp_merged_csv which)
{
	return which == EXP_BINS_CSV ? bin_fields :
	       which == EXP_SWITCHES_CSV ? switch_fields : m->tail;
}

/*
 * A run's rows from the old file: run, label and settings anew, the rest
 * as they were, column by column by name (map), empty where it had none.
 */
static void carry_rows(struct merge *m, FILE *out, enum exp_merged_csv which,
		       const struct exp_step *run, unsigned first, unsigned count)
{
	const struct exp_csv *old = exp_carry_csv(m->carry, which);
	const int *map = m->map[which];
	unsigned lead = 2 + m->columns.count, row, col;
	unsigned n = header_count(&m->columns, tail_of(m, which));

	for (row = first; row < first + count; row++) {
		csv_lead(out, m->plan, run, &m->columns);
		for (col = lead; col < n; col++)
			exp_csv_field(out, map[col] < 0 ? NULL :
				      old->fields[(size_t)row * old->columns + (unsigned)map[col]], 0);
		fputc('\n', out);
	}
}

/* A run's entry of the old summary.json (at path), its label anew. */
static void summary_carried(struct merge *m, const struct exp_step *run, const char *path)
{
	const struct exp_doc *doc = exp_carry_doc(m->carry);
	unsigned i, n = exp_doc_count(doc, path);
	char label[1024], item[96];
	const char *key;

	exp_run_label(m->plan, run, label, sizeof(label));
	vlr_json_open(&m->json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_string(&m->json, "run", run->id);
	vlr_json_string(&m->json, "label", label);
	for (i = 0; i < n; i++) {
		key = exp_doc_key(doc, path, i);
		if (!key || !strcmp(key, "run") || !strcmp(key, "label"))
			continue;
		snprintf(item, sizeof(item), "%s.%s", path, key);
		exp_doc_write(doc, item, &m->json, key);
	}
	vlr_json_close(&m->json);
}

/* A run done only in the merged files: its rows and summary carried over. */
static int carry_run(struct merge *m, const struct exp_step *run, struct vlr_error *err)
{
	const struct exp_csv *runs = exp_carry_csv(m->carry, EXP_RUNS_CSV);
	const struct exp_csv *bins = exp_carry_csv(m->carry, EXP_BINS_CSV);
	const struct exp_csv *switches = exp_carry_csv(m->carry, EXP_SWITCHES_CSV);
	unsigned first, count, more_first = 0, more_count = 0;
	char path[48];

	count = exp_carry_rows(runs, run->id, &first);
	if (!count || exp_carry_summary(m->carry, run->id, path, sizeof(path)))
		return vlr_fail(err, "%s: run %s is in its runs.csv but not in its summary.json, "
				"or the files changed while merging", m->plan->exp->results, run->id);
	carry_rows(m, m->runs, EXP_RUNS_CSV, run, first, count);
	if (bins) {
		more_count = exp_carry_rows(bins, run->id, &more_first);
		carry_rows(m, m->bins, EXP_BINS_CSV, run, more_first, more_count);
	}
	if (switches) {
		more_count = exp_carry_rows(switches, run->id, &more_first);
		carry_rows(m, m->switches, EXP_SWITCHES_CSV, run, more_first, more_count);
		m->switch_rows += more_count;
	}
	summary_carried(m, run, path);
	m->carried++;
	m->merged++;
	return 0;
}

static int merge_run(struct merge *m, const struct exp_step *run, struct vlr_error *err)
{
	struct exp_doc *doc;

	switch (exp_step_state(run)) {
	case EXP_PENDING:
		m->pending++;
		return 0;
	case EXP_FAILED:
		m->failed++;
		return 0;
	default:
		break;
	}
	if (exp_step_carried(run))
		return carry_run(m, run, err);
	doc = exp_doc_read(run->output, err);
	if (!doc)
		return -1;
	if (m->plan->exp->measure == EXP_SIM)
		sim_rows(m, run, doc);
	else
		analyze_rows(m, run, doc);
	summary_run(m, run, doc);
	exp_doc_free(doc);
	m->merged++;
	return 0;
}

static void summary_head(struct merge *m, const struct vlr_provenance *provenance)
{
	char title[512];

	exp_title(m->plan, title, sizeof(title));
	vlr_json_open(&m->json, NULL, '{', VLR_JSON_LINES);
	vlr_provenance_write_json(provenance, "provenance", &m->json);
	vlr_json_string(&m->json, "experiment", m->plan->exp->path);
	vlr_json_string(&m->json, "title", title);
	vlr_json_string(&m->json, "measure", exp_measure_name(m->plan->exp->measure));
	vlr_json_uint(&m->json, "runs_planned", m->plan->num_runs);
	vlr_json_open(&m->json, "runs", '[', VLR_JSON_LINES);
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char path[VLR_PATH_SIZE];
	char *slash;

	snprintf(path, sizeof(path), "%s", dir);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

/* The merged files, in the order of files[]: bins.csv and switches.csv for sim only. */
enum { RUNS_FILE, BINS_FILE, SUMMARY_FILE, SWITCHES_FILE, MERGED_FILES };

static const char *const merged_names[MERGED_FILES] = {
	"runs.csv", "bins.csv", "summary.json", "switches.csv",
};

static int open_outputs(struct merge *m, const char *dir,
			struct vlr_whole_file files[MERGED_FILES], struct vlr_error *err)
{
	char path[VLR_PATH_SIZE];
	unsigned i;

	if (make_dirs(dir))
		return vlr_fail(err, "%s: %s", dir, strerror(errno));
	for (i = 0; i < MERGED_FILES; i++) {
		files[i].out = NULL;
		if ((i == BINS_FILE || i == SWITCHES_FILE) && m->plan->exp->measure != EXP_SIM)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, merged_names[i]);
		if (vlr_whole_file_open(&files[i], path, err))
			return -1;
	}
	m->runs = files[RUNS_FILE].out;
	m->bins = files[BINS_FILE].out;
	m->switches = files[SWITCHES_FILE].out;
	vlr_json_start(&m->json, files[SUMMARY_FILE].out);
	return 0;
}

/*
 * switches.csv only when some run has injections per switch: else it is
 * dropped, and one an earlier merge left is removed (its runs are not
 * this merge's).
 */
static int close_switches(struct vlr_whole_file *file, unsigned long long rows,
			  struct vlr_error *err)
{
	if (rows)
		return vlr_whole_file_close(file, ferror(file->out), err);
	vlr_whole_file_close(file, 1, err);
	if (unlink(file->path) && errno != ENOENT)
		return vlr_fail(err, "%s: cannot remove it, whose runs have no injections per "
				"switch now: %s", file->path, strerror(errno));
	return 0;
}

/* switch_rows: switches.csv's rows (0: no such file). */
static int close_outputs(struct vlr_whole_file files[MERGED_FILES], int failed,
			 unsigned long long switch_rows, struct vlr_error *err)
{
	unsigned i;
	int result = failed ? -1 : 0;

	for (i = 0; i < MERGED_FILES; i++) {
		if (!files[i].out)
			continue;
		if (i == SWITCHES_FILE && !failed) {
			if (close_switches(&files[i], switch_rows, err))
				result = -1;
		} else if (vlr_whole_file_close(&files[i], failed || ferror(files[i].out), err))
			result = -1;
	}
	if (result && failed == 1)
		vlr_fail(err, "cannot write the merged files");
	return result;
}

/* runs.csv's columns after the settings: the tables' hash, the measurement's numbers. */
static void runs_tail(struct merge *m)
{
	unsigned i, n = 0;

	m->tail[n++] = "tables_sha256";
	if (m->plan->exp->measure == EXP_SIM) {
		for (i = 0; sim_fields[i]; i++)
			m->tail[n++] = sim_fields[i];
	} else {
		for (i = 0; analyze_fields[i]; i++)
			m->tail[n++] = analyze_fields[i];
		for (i = 0; pattern_fields[i]; i++)
			m->tail[n++] = pattern_fields[i];
	}
	m->tail[n] = NULL;
}

static void write_headers(struct merge *m)
{
	csv_header(m->runs, m->plan, &m->columns, m->tail);
	if (m->bins)
		csv_header(m->bins, m->plan, &m->columns, bin_fields);
	if (m->switches)
		csv_header(m->switches, m->plan, &m->columns, switch_fields);
}

/* Where this merge's columns are in a merged file read back. */
static int map_columns(struct merge *m, enum exp_merged_csv which, struct vlr_error *err)
{
	const char *const *tail = tail_of(m, which);
	unsigned i, n = header_count(&m->columns, tail);
	char *names = malloc((size_t)n * NAME_SIZE);
	const char **list = malloc(n * sizeof(*list));
	int result;

	m->map[which] = malloc(n * sizeof(*m->map[which]));
	if (!names || !list || !m->map[which]) {
		free(names);
		free(list);
		return vlr_fail(err, "out of memory merging %s", m->plan->exp->path);
	}
	for (i = 0; i < n; i++) {
		list[i] = names + (size_t)i * NAME_SIZE;
		header_name(m->plan, &m->columns, tail, i, names + (size_t)i * NAME_SIZE);
	}
	result = exp_carry_map(m->carry, which, list, n, m->map[which], err);
	free(names);
	free(list);
	return result;
}

/* The merged files read back, if some run is done only in them. */
static int read_carry(struct merge *m, struct vlr_error *err)
{
	unsigned i;

	for (i = 0; i < m->plan->num_runs; i++)
		if (exp_step_carried(&m->plan->runs[i]))
			break;
	if (i == m->plan->num_runs)
		return 0;
	if (!(m->carry = exp_carry_read(m->plan, err)) || map_columns(m, EXP_RUNS_CSV, err) ||
	    (m->plan->exp->measure == EXP_SIM && map_columns(m, EXP_BINS_CSV, err)) ||
	    (exp_carry_csv(m->carry, EXP_SWITCHES_CSV) &&
	     map_columns(m, EXP_SWITCHES_CSV, err)))
		return -1;
	return 0;
}

static void free_maps(struct merge *m)
{
	unsigned i;

	for (i = 0; i < EXP_MERGED_CSVS; i++)
		free(m->map[i]);
}

int exp_merge(const struct exp_plan *plan, const char *dir, const char *command_line,
	      unsigned *carried, struct vlr_error *err)
{
	struct vlr_provenance provenance;
	struct vlr_whole_file files[MERGED_FILES];
	struct merge m;
	unsigned i;
	int failed = 0;

	memset(&m, 0, sizeof(m));
	memset(files, 0, sizeof(files));
	m.plan = plan;
	runs_tail(&m);
	if (cli_provenance_init("vlroute experiment", command_line, &provenance))
		return vlr_fail(err, "out of memory merging %s", plan->exp->path);
	if (collect_columns(plan, &m.columns)) {
		vlr_provenance_free(&provenance);
		return vlr_fail(err, "out of memory merging %s", plan->exp->path);
	}
	if (read_carry(&m, err) || open_outputs(&m, dir, files, err)) {
		close_outputs(files, 2, 0, err);
		exp_carry_free(m.carry);
		free_maps(&m);
		free(m.columns.items);
		vlr_provenance_free(&provenance);
		return -1;
	}
	write_headers(&m);
	summary_head(&m, &provenance);
	vlr_provenance_free(&provenance);
	for (i = 0; i < plan->num_runs && !failed; i++)
		if (merge_run(&m, &plan->runs[i], err))
			failed = 2;
	vlr_json_close(&m.json);
	vlr_json_uint(&m.json, "runs_merged", m.merged);
	vlr_json_uint(&m.json, "runs_carried", m.carried);
	vlr_json_uint(&m.json, "runs_pending", m.pending);
	vlr_json_uint(&m.json, "runs_failed", m.failed);
	vlr_json_close(&m.json);
	fputc('\n', m.json.out);
	if (!failed && vlr_json_finish(&m.json))
		failed = 1;
	exp_carry_free(m.carry);
	free_maps(&m);
	free(m.columns.items);
	if (close_outputs(files, failed, m.switch_rows, err))
		return -1;
	*carried = m.carried;
	return (int)(m.pending + m.failed);
}
