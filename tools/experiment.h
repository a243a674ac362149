/*
 * experiment.h - "vlroute experiment": an experiment file (YAML) names a
 * fabric, the routing and a measurement (sim or analyze), any of whose
 * settings may be a list to sweep; every point of the cross product is one
 * run. The parts:
 *
 *   experiment_file.c   the file, read by libyaml, into sections of
 *                       alternatives of keys, each key a list of values;
 *                       errors name FILE:LINE
 *   experiment_points.c the cross product: points, their ids (hashes of
 *                       their settings) and the command lines that make
 *                       them (vlroute gen, route, sim or analyze)
 *   experiment_run.c    running the pending steps as child processes, N at
 *                       a time, each result put in place whole
 *   experiment_results.c reading run results back (libyaml reads JSON)
 *   experiment_merge.c  status and merge: tidy CSV files and a summary
 *                       (switches.csv: the injections per switch)
 *   experiment_carry.c  runs merged elsewhere: done here, their rows kept
 *   experiment_plot.c   figures (gnuplot) from the merged results
 *   experiment_switches.c  the figure of the injections per switch
 *   experiment_slurm.c  the same steps as Slurm job arrays
 *
 * The folder of the experiment file holds everything the experiment makes:
 * fabrics/ (generated net files), tables/ (one table set per distinct
 * fabric and route settings; none without a route section, when sim runs
 * the reference model on the fabric file), runs/ (one result per run,
 * RUNID.json, or RUNID.failed saying why), merged/ and slurm/. A step is
 * done when its result is in place; results are written whole, so an
 * experiment killed at any moment resumes where it stopped.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_EXPERIMENT_H
#define VLROUTE_EXPERIMENT_H

#include <stdint.h>
#include <stdio.h>

#include <vlroute/vlroute.h>

/* The sections of an experiment, in the order their steps run. */
enum exp_section_kind {
	EXP_FABRIC = 0,		/* vlroute gen FAMILY ... or a file */
	EXP_ROUTE,		/* vlroute route */
	EXP_MEASURE,		/* vlroute sim or vlroute analyze */
	EXP_SECTIONS,
};

enum exp_measure {
	EXP_SIM = 0,
	EXP_ANALYZE,
};

/* A key of a section: one value, or a list of them to sweep. */
struct exp_key {
	char *name;
	unsigned line;
	int flag;			/* an option without a value: true/false */
	char **values;
	unsigned num_values;
};

/* One mapping of a section (a section may list several: alternatives). */
struct exp_alt {
	unsigned line;
	char *label;			/* "label:", or NULL */
	struct exp_key *keys;
	unsigned num_keys;
};

struct exp_section {
	unsigned line;			/* of its key */
	struct exp_alt *alts;
	unsigned num_alts;		/* 0: no such section (route only) */
};

struct experiment {
	char *path;			/* the experiment file as given */
	char *folder;			/* the directory holding it */
	char *title;			/* "title:", or NULL */
	char *results;			/* where merge writes and plot reads:
					   "results:" from the folder, or
					   FOLDER/merged */
	enum exp_measure measure;
	struct exp_section sections[EXP_SECTIONS];
};

/* Read and check an experiment file; NULL with err naming FILE:LINE. */
struct experiment *exp_read(const char *path, struct vlr_error *err);
void exp_free(struct experiment *exp);

/*
 * Whether the experiment routes: without a route section, each sim run
 * simulates the fabric file by the reference model, and the runs' input
 * is the fabric itself (there are no table sets).
 */
int exp_has_route(const struct experiment *exp);

/* "sim" or "analyze"; a section's name as the file spells it. */
const char *exp_measure_name(enum exp_measure measure);
const char *exp_section_name(const struct experiment *exp, enum exp_section_kind kind);

/* One key = value of a point. */
struct exp_setting {
	const char *key;
	const char *value;
	unsigned line;
	int flag;
};

/* The settings a point takes from one section. */
struct exp_choice {
	const char *label;
	struct exp_setting *settings;
	unsigned num_settings;
};

/* Steps: what makes a fabric, a table set, a run. */
enum exp_step_kind {
	EXP_STEP_FABRIC = 0,
	EXP_STEP_TABLES,
	EXP_STEP_RUN,
};

#define EXP_ID_SIZE 17		/* 16 hex digits */

struct exp_step {
	enum exp_step_kind kind;
	char id[EXP_ID_SIZE];
	const struct exp_choice *choice;	/* its section's settings */
	struct exp_step *input;			/* the fabric of tables, the
						   tables of a run (its fabric
						   without a route); NULL for a
						   fabric */
	char *output;		/* the net file, table directory or run result */
	char *failed;		/* FOLDER/{fabrics,tables,runs}/ID.failed */
	char **argv;		/* the command that makes it (NULL: a file) */
	unsigned argc;
	unsigned char listed;	/* exp_run_steps: in the steps to run */
	unsigned char settled;	/* exp_run_steps: ended (or was done) */
	unsigned char merged;	/* a run the merged files hold (exp_plan_mark_merged) */
};

/* Every point of an experiment, and the steps they need. */
struct exp_plan {
	const struct experiment *exp;
	struct exp_choice *choices[EXP_SECTIONS];
	unsigned num_choices[EXP_SECTIONS];
	struct exp_step *fabrics, *tables, *runs;
	unsigned num_fabrics, num_tables, num_runs;
};

/*
 * Expand exp into its points: the runs in file order (fabric, then route,
 * then measurement choices, the later varying fastest); exe is the
 * vlroute program the commands run; the runs the merged files hold are
 * marked (exp_plan_mark_merged). NULL with err saying why.
 */
struct exp_plan *exp_plan_new(const struct experiment *exp, const char *exe,
			      struct vlr_error *err);
void exp_plan_free(struct exp_plan *plan);

/* The value a choice gives key, or NULL if it gives none. */
const char *exp_choice_value(const struct exp_choice *choice, const char *key);

/* The choice of section kind a run takes; NULL for route without one. */
const struct exp_choice *exp_run_choice(const struct exp_step *run, enum exp_section_kind kind);

/*
 * Mark the runs whose rows the merged files in exp->results hold (merged
 * on another machine, or from a runs/ folder since lost): they are done.
 * No runs.csv there: none. -1 with err for a runs.csv that is not merge's.
 */
int exp_plan_mark_merged(struct exp_plan *plan, struct vlr_error *err);

/* Whether a run is done only in the merged files (no result of its own). */
int exp_step_carried(const struct exp_step *step);

/*
 * The merged files read back, for merge to carry the rows of those runs
 * into its new files (experiment_carry.c).
 */
struct exp_carry;

struct exp_carry *exp_carry_read(const struct exp_plan *plan, struct vlr_error *err);
void exp_carry_free(struct exp_carry *c);

/* The merged CSV files: switches.csv is optional (sim --switch-injections). */
enum exp_merged_csv {
	EXP_RUNS_CSV = 0,
	EXP_BINS_CSV,		/* sim only */
	EXP_SWITCHES_CSV,	/* sim runs with injections per switch only */
	EXP_MERGED_CSVS,
};

/* That file read back; NULL when the experiment or the results have none. */
const struct exp_csv *exp_carry_csv(const struct exp_carry *c, enum exp_merged_csv which);

/*
 * map[i]: the column of that file named names[i], or -1 if it has none (the
 * carried rows leave it empty); -1 with err when the file has a column
 * that is not among names (its values would be lost).
 */
int exp_carry_map(const struct exp_carry *c, enum exp_merged_csv which,
		  const char *const *names, unsigned count, int *map, struct vlr_error *err);

/* The rows of run id in csv: how many, from *first. */
unsigned exp_carry_rows(const struct exp_csv *csv, const char *id, unsigned *first);

/* The path ("runs.K") of run id in summary.json, into path; -1 if it has none. */
int exp_carry_summary(const struct exp_carry *c, const char *id, char *path, size_t size);
const struct exp_doc *exp_carry_doc(const struct exp_carry *c);

/* A step's state on disk: done (a run the merged files hold, too), failed or pending. */
enum exp_state {
	EXP_PENDING = 0,
	EXP_DONE,
	EXP_FAILED,
};

enum exp_state exp_step_state(const struct exp_step *step);

/* The first line of the reason a failed step gave, into out. */
void exp_step_reason(const struct exp_step *step, char *out, size_t size);

/* A step by kind and id; NULL if the plan has none. */
struct exp_step *exp_plan_find(const struct exp_plan *plan, enum exp_step_kind kind,
			       const char *id);

/* The command line of a step as a shell would read it, into out. */
void exp_step_command(const struct exp_step *step, char *out, size_t size);

/* How to run steps. */
struct exp_run_options {
	unsigned jobs;			/* children at once */
	int quiet;			/* no progress on stderr */
};

/*
 * Run the given steps that are not done (and whose inputs are or become
 * done), jobs at a time; fabrics and tables before the runs that need
 * them. Returns 0 when every step is done, 1 when some failed (each with
 * its .failed file), 130 or 143 when interrupted by SIGINT or SIGTERM
 * (children stopped, nothing half written), -1 on an error of its own
 * (message on stderr).
 */
int exp_run_steps(const struct exp_plan *plan, struct exp_step **steps, unsigned count,
		  const struct exp_run_options *options);

/* Every step of the plan, fabrics first, into a new array. */
struct exp_step **exp_plan_steps(const struct exp_plan *plan, unsigned *count);

/*
 * A result file read back (experiment_results.c): JSON, which libyaml
 * reads as YAML. Paths are dotted: "result.runs.0.accepted". A document
 * must be a tree (no YAML alias: JSON has none) of objects and arrays
 * nested at most EXP_DOC_DEPTH deep (vlroute's results nest 5 deep), so
 * that merge's recursive writer ends, and soon.
 */
struct exp_doc;

#define EXP_DOC_DEPTH 32

struct exp_doc *exp_doc_read(const char *path, struct vlr_error *err);
void exp_doc_free(struct exp_doc *doc);

/* The text of the scalar at path, or NULL if there is none. */
const char *exp_doc_scalar(const struct exp_doc *doc, const char *path);

/* The items of the sequence (or pairs of the mapping) at path; 0 if none. */
unsigned exp_doc_count(const struct exp_doc *doc, const char *path);

/* The key of pair i of the mapping at path, or NULL. */
const char *exp_doc_key(const struct exp_doc *doc, const char *path, unsigned i);

/* The node at path written as JSON under key into json (nothing if none). */
void exp_doc_write(const struct exp_doc *doc, const char *path, struct vlr_json *json,
		   const char *key);

/* A short title: the fabric and the pattern, never a path. */
void exp_title(const struct exp_plan *plan, char *out, size_t size);

/* A run's label: its choices' labels, or the settings that vary. */
void exp_run_label(const struct exp_plan *plan, const struct exp_step *run, char *out,
		   size_t size);

/*
 * A merged CSV file read back (experiment_results.c): its header names
 * the columns; fields as the merge wrote them (RFC 4180 quoting).
 */
struct exp_csv {
	char **names;			/* the header's columns */
	unsigned columns;
	char **fields;			/* rows x columns */
	unsigned rows;
};

/* A whole file into a new string (NUL-terminated), or NULL. */
char *exp_slurp(const char *path, size_t *length);

struct exp_csv *exp_csv_read(const char *path, struct vlr_error *err);
/*
 * path read back as exp_csv_read does into *csv, or *csv NULL when there is
 * no such file (a merged file that is optional, or not merged yet): 0, or
 * -1 with err when it is there but cannot be read.
 */
int exp_csv_read_if(const char *path, struct exp_csv **csv, struct vlr_error *err);

/*
 * Write a CSV field as merge writes them, the comma before it unless
 * first: quoted (a quote doubled) when it holds a comma, a quote or a line
 * break; nothing for NULL.
 */
void exp_csv_field(FILE *out, const char *text, int first);
void exp_csv_free(struct exp_csv *csv);

/* Row row's field of the column named name, or NULL if there is none. */
const char *exp_csv_get(const struct exp_csv *csv, unsigned row, const char *name);

int exp_status(const struct exp_plan *plan, FILE *out);
/*
 * Merge into dir; command_line is the merge's own, for its provenance.
 * Runs done only in the merged files are carried over (*carried of them).
 * Returns the runs not merged (pending or failed), or -1 with err.
 */
int exp_merge(const struct exp_plan *plan, const char *dir, const char *command_line,
	      unsigned *carried, struct vlr_error *err);

/* Figures. */
enum exp_plot_kind {
	EXP_PLOT_AUTO = 0,	/* load if loads vary, else time */
	EXP_PLOT_TIME,		/* accepted load over time, a line per seed */
	EXP_PLOT_LOAD,		/* accepted load and latency per offered load */
	EXP_PLOT_SWITCHES,	/* packets injected per switch, a bar per series */
};

/*
 * Draw from the merged files in exp->results (runs.csv, bins.csv,
 * switches.csv, summary.json); switches: for EXP_PLOT_SWITCHES, a POSIX
 * extended regular expression the names of the switches drawn match
 * (NULL: every switch).
 */
int exp_plot(const struct experiment *exp, enum exp_plot_kind kind, const char *switches,
	     const char *path, struct vlr_error *err);

/* gnuplot drawing title into output with terminal; NULL with err. */
FILE *exp_gnuplot_open(const char *terminal, const char *output, const char *title,
		       struct vlr_error *err);
/* End the figure and gnuplot: 0, or -1 with err when gnuplot failed. */
int exp_gnuplot_close(FILE *gp, struct vlr_error *err);
/* text as a gnuplot string ('...', a quote doubled). */
void exp_gnuplot_quoted(FILE *gp, const char *text);

/*
 * experiment_switches.c: the packets injected per switch of switches.csv,
 * a cluster of bars per switch whose name matches switches (NULL: all),
 * a bar per series (a run's label, the load too when the runs' loads
 * differ; the mean over its seeds), into output by gnuplot.
 */
int exp_switches_draw(const struct experiment *exp, const char *switches, const char *title,
		      const char *terminal, const char *output, struct vlr_error *err);

/* Slurm: submit the pending steps as job arrays. */
struct exp_slurm_options {
	unsigned chunk;			/* runs per array task */
	char **sbatch;			/* extra sbatch options */
	unsigned num_sbatch;
	int wait;			/* sbatch --wait */
	int dry_run;			/* write the scripts, submit nothing */
	int quiet;
};

int exp_slurm(const struct exp_plan *plan, const char *exe,
	      const struct exp_slurm_options *options);

/*
 * A task of a job array: run the steps of line index of list (the step
 * list exp_slurm wrote: a line per task, "KIND ID ..."), one at a time.
 * Returns as exp_run_steps, or 2 for a list that does not fit the plan.
 */
int exp_task(const struct exp_plan *plan, const char *list, unsigned index,
	     const struct exp_run_options *options);

#endif
