/*
 * experiment_slurm.c - an experiment's pending steps as Slurm job arrays.
 *
 * "slurm" writes, into FOLDER/slurm/STAMP/, a step list and a job script
 * per array: prepare (a task per pending table set, with its fabric when
 * that is pending too; without a route section, a task per pending
 * generated fabric) and runs (a task per chunk of pending runs), and
 * submits them with sbatch, the runs array depending on the prepare array
 * (afterany: a run whose tables failed then fails with that reason). Each
 * task calls "vlroute experiment task FILE --list LIST", which runs the
 * steps of its line one at a time, writing each result whole into the
 * shared folder as a local run does; so status and merge work unchanged,
 * and submitting again submits only what is still missing.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "experiment.h"

#define COMMAND "vlroute experiment"

static const char *const kind_names[] = { "fabric", "tables", "run" };

/* The job's directory, FOLDER/slurm/YYYYmmdd-HHMMSS-PID. */
static int make_job_dir(const struct exp_plan *plan, char *dir, size_t size)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(dir, size, "%s/slurm", plan->exp->folder);
	if (mkdir(dir, 0777) && errno != EEXIST)
		goto fail;
	snprintf(dir, size, "%s/slurm/%s-%ld", plan->exp->folder, stamp, (long)getpid());
	if (mkdir(dir, 0777))
		goto fail;
	return 0;
fail:
	cli_error(COMMAND, "%s: %s", dir, strerror(errno));
	return -1;
}

static void put_step(FILE *out, const struct exp_step *step, int *first)
{
	fprintf(out, "%s%s %s", *first ? "" : " ", kind_names[step->kind], step->id);
	*first = 0;
}

/* Whether fabric i is one to generate, and not yet made. */
static int fabric_pending(const struct exp_plan *plan, unsigned i)
{
	return plan->fabrics[i].argv && exp_step_state(&plan->fabrics[i]) != EXP_DONE;
}

/* prepare.list: a line per pending table set (or fabric); returns the lines. */
static unsigned write_prepare(const struct exp_plan *plan, FILE *out)
{
	unsigned i, lines = 0;
	int first;

	for (i = 0; !exp_has_route(plan->exp) && i < plan->num_fabrics; i++)
		if (fabric_pending(plan, i)) {
			first = 1;
			put_step(out, &plan->fabrics[i], &first);
			fputc('\n', out);
			lines++;
		}
	for (i = 0; i < plan->num_tables; i++) {
		const struct exp_step *tables = &plan->tables[i];

		if (exp_step_state(tables) == EXP_DONE)
			continue;
		first = 1;
		if (tables->input->argv && exp_step_state(tables->input) != EXP_DONE)
			put_step(out, tables->input, &first);
		put_step(out, tables, &first);
		fputc('\n', out);
		lines++;
	}
	return lines;
}

/* runs.list: chunk pending runs a line; returns the lines. */
static unsigned write_runs(const struct exp_plan *plan, unsigned chunk, FILE *out)
{
	unsigned i, in_line = 0, lines = 0;
	int first = 1;

	for (i = 0; i < plan->num_runs; i++) {
		if (exp_step_state(&plan->runs[i]) == EXP_DONE)
			continue;
		put_step(out, &plan->runs[i], &first);
		if (++in_line == chunk) {
			fputc('\n', out);
			lines++;
			in_line = 0;
			first = 1;
		}
	}
	if (in_line) {
		fputc('\n', out);
		lines++;
	}
	return lines;
}

/* A word for sh: in single quotes, a quote as '\''. */
static void sh_word(FILE *out, const char *word)
{
	fputc('\'', out);
	for (; *word; word++)
		if (*word == '\'')
			fputs("'\\''", out);
		else
			fputc(*word, out);
	fputc('\'', out);
}

static int write_script(const char *dir, const char *name, const char *exe, const char *file,
			unsigned tasks)
{
	char path[VLR_PATH_SIZE + 16], list[VLR_PATH_SIZE + 16];
	struct vlr_whole_file script;
	struct vlr_error err;

	snprintf(path, sizeof(path), "%s/%s.sh", dir, name);
	snprintf(list, sizeof(list), "%s/%s.list", dir, name);
	if (vlr_whole_file_open(&script, path, &err)) {
		cli_error(COMMAND, "%s", err.message);
		return -1;
	}
	fprintf(script.out, "#!/bin/sh\n# vlroute experiment: %s, %u array tasks, written "
		"by \"vlroute experiment slurm\".\n", name, tasks);
	fprintf(script.out, "#SBATCH --job-name=vlroute-%s\n#SBATCH --array=0-%u\n"
		"#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/%s-%%a.out\n",
		name, tasks - 1, dir, name);
	fputs("exec ", script.out);
	sh_word(script.out, exe);
	fputs(" experiment task ", script.out);
	sh_word(script.out, file);
	fputs(" --list ", script.out);
	sh_word(script.out, list);
	fputc('\n', script.out);
	if (vlr_whole_file_close(&script, ferror(script.out), &err) || chmod(path, 0755)) {
		cli_error(COMMAND, "%s: cannot write it", path);
		return -1;
	}
	return 0;
}

static int write_list(const struct exp_plan *plan, const char *dir, const char *name,
		      unsigned chunk, unsigned *lines)
{
	char path[VLR_PATH_SIZE + 16];
	struct vlr_whole_file list;
	struct vlr_error err;

	snprintf(path, sizeof(path), "%s/%s.list", dir, name);
	if (vlr_whole_file_open(&list, path, &err)) {
		cli_error(COMMAND, "%s", err.message);
		return -1;
	}
	*lines = chunk ? write_runs(plan, chunk, list.out) : write_prepare(plan, list.out);
	if (vlr_whole_file_close(&list, ferror(list.out), &err)) {
		cli_error(COMMAND, "%s", err.message);
		return -1;
	}
	return 0;
}

/*
 * Run program with argv, its standard output (up to size - 1 bytes) into
 * out: its exit status, or -1 when it could not run.
 */
static int capture(const char *program, char **argv, char *out, size_t size)
{
	size_t got = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(program, argv);
		fprintf(stderr, "%s: cannot run %s: %s (is Slurm installed, Debian package "
			"slurm-client?)\n", COMMAND, program, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (n = read(fds[0], out + got, size - 1 - got)) > 0 &&
	       (got += (size_t)n) < size - 1)
		;
	close(fds[0]);
	out[got] = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status);
}

/* Submit script (after the job after, if not NULL); its job id into id. */
static int submit(const struct exp_slurm_options *o, const char *script,
		  const char *after, char *id, size_t size)
{
	char **argv = calloc(o->num_sbatch + 5, sizeof(*argv)), dependency[128];
	unsigned n = 0, i;
	int result;

	if (!argv)
		return -1;
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	if (after) {
		snprintf(dependency, sizeof(dependency), "--dependency=afterany:%s", after);
		argv[n++] = dependency;
	}
	for (i = 0; i < o->num_sbatch; i++)
		argv[n++] = o->sbatch[i];
	argv[n++] = (char *)script;
	result = capture("sbatch", argv, id, size);
	free(argv);
	id[strcspn(id, ";\n")] = 0;	/* "ID" or "ID;CLUSTER" */
	if (result || !id[0]) {
		cli_error(COMMAND, "sbatch %s submitted nothing", script);
		return -1;
	}
	return 0;
}

/*
 * Wait until squeue lists none of the jobs (a comma-separated list),
 * asking every 2 s (sbatch --wait asks only after 2, 10 and 42 s, then
 * every 32 s); whether they did their work, the experiment's files say.
 */
static int wait_for(const char *jobs)
{
	char *argv[] = { "squeue", "-h", "-o", "%i", "-j", (char *)jobs, NULL };
	char out[4096];
	int status;

	for (;;) {
		status = capture("squeue", argv, out, sizeof(out));
		if (status < 0) {
			cli_error(COMMAND, "squeue -j %s failed", jobs);
			return -1;
		}
		if (!out[0] || status)	/* none left, or forgotten: "Invalid job id" */
			return 0;
		sleep(2);
	}
}

static int submit_all(const struct exp_slurm_options *o, const char *dir, unsigned prepare,
		      unsigned runs)
{
	char script[VLR_PATH_SIZE + 16], first[64] = "", second[64] = "";
	char jobs[160];

	if (prepare) {
		snprintf(script, sizeof(script), "%s/prepare.sh", dir);
		if (submit(o, script, NULL, first, sizeof(first)))
			return -1;
	}
	if (runs) {
		snprintf(script, sizeof(script), "%s/runs.sh", dir);
		if (submit(o, script, prepare ? first : NULL, second, sizeof(second)))
			return -1;
	}
	if (!o->quiet)
		fprintf(stderr, "%s: submitted%s%s%s%s%s\n", COMMAND, prepare ? " prepare job " :
			"", first, prepare && runs ? "," : "", runs ? " runs job " : "", second);
	if (!o->wait)
		return 0;
	snprintf(jobs, sizeof(jobs), "%s%s%s", first, first[0] && second[0] ? "," : "", second);
	return wait_for(jobs);
}

/* After the jobs: every run done, or say how many are not. */
static int judge(const struct exp_plan *plan, const struct exp_slurm_options *options)
{
	unsigned i, missing = 0;

	for (i = 0; i < plan->num_runs; i++)
		missing += exp_step_state(&plan->runs[i]) != EXP_DONE;
	if (missing && !options->quiet)
		fprintf(stderr, "%s: the jobs ended with %u of %u runs failed or not made; see "
			"vlroute experiment status\n", COMMAND, missing, plan->num_runs);
	return missing ? CLI_FAILED : CLI_OK;
}

/* The prepare and run tasks pending, as write_prepare and write_runs count them. */
static void count_pending(const struct exp_plan *plan, unsigned chunk, unsigned *prepare,
			  unsigned *runs)
{
	unsigned i, pending = 0;

	*prepare = 0;
	for (i = 0; !exp_has_route(plan->exp) && i < plan->num_fabrics; i++)
		*prepare += fabric_pending(plan, i);
	for (i = 0; i < plan->num_tables; i++)
		*prepare += exp_step_state(&plan->tables[i]) != EXP_DONE;
	for (i = 0; i < plan->num_runs; i++)
		pending += exp_step_state(&plan->runs[i]) != EXP_DONE;
	*runs = (pending + chunk - 1) / chunk;
}

int exp_slurm(const struct exp_plan *plan, const char *exe,
	      const struct exp_slurm_options *options)
{
	const char *what = exp_has_route(plan->exp) ? "table set" : "fabric";
	char dir[VLR_PATH_SIZE], *file;
	unsigned prepare = 0, runs = 0;
	int result = CLI_FAILED;

	count_pending(plan, options->chunk, &prepare, &runs);
	if (!prepare && !runs) {
		if (!options->quiet)
			fprintf(stderr, "%s: 0 %ss and 0 run tasks pending; nothing to submit\n",
				COMMAND, what);
		return CLI_OK;
	}
	file = realpath(plan->exp->path, NULL);
	if (!file || make_job_dir(plan, dir, sizeof(dir)))
		goto out;
	if (write_list(plan, dir, "prepare", 0, &prepare) ||
	    write_list(plan, dir, "runs", options->chunk, &runs))
		goto out;
	if ((prepare && write_script(dir, "prepare", exe, file, prepare)) ||
	    (runs && write_script(dir, "runs", exe, file, runs)))
		goto out;
	if (!options->quiet)
		fprintf(stderr, "%s: %u %s%s and %u run task%s pending; job scripts in %s\n",
			COMMAND, prepare, what, prepare == 1 ? "" : "s", runs,
			runs == 1 ? "" : "s", dir);
	if (options->dry_run)
		result = CLI_OK;
	else if (!submit_all(options, dir, prepare, runs))
		result = options->wait ? judge(plan, options) : CLI_OK;
out:
	free(file);
	return result;
}

/* Line index of the list, split into "KIND ID" steps of the plan. */
static int task_steps(const struct exp_plan *plan, const char *list, unsigned index,
		      struct exp_step ***steps, unsigned *count)
{
	char line[65536], *word, *save = NULL, *id;
	unsigned at = 0, kind;
	FILE *in = fopen(list, "r");

	while (in && fgets(line, sizeof(line), in) && at++ < index)
		;
	if (!in || at != index + 1) {
		cli_error(COMMAND, "%s: %s", list, in ? "no line for this task" : strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	fclose(in);
	*steps = calloc(strlen(line) / 2 + 1, sizeof(**steps));
	*count = 0;
	for (word = strtok_r(line, " \n", &save); word && *steps;
	     word = strtok_r(NULL, " \n", &save)) {
		id = strtok_r(NULL, " \n", &save);
		for (kind = 0; kind < 3 && strcmp(word, kind_names[kind]); kind++)
			;
		if (kind == 3 || !id ||
		    !((*steps)[*count] = exp_plan_find(plan, (enum exp_step_kind)kind, id))) {
			cli_error(COMMAND, "%s:%u: \"%s %s\" is no step of %s (was it edited "
				  "since the job was submitted?)", list, index + 1, word,
				  id ? id : "", plan->exp->path);
			return -1;
		}
		(*count)++;
	}
	return *steps ? 0 : -1;
}

int exp_task(const struct exp_plan *plan, const char *list, unsigned index,
	     const struct exp_run_options *options)
{
	struct exp_run_options one = *options;
	struct exp_step **steps = NULL;
	unsigned count;
	int result;

	one.jobs = 1;
	if (task_steps(plan, list, index, &steps, &count)) {
		free(steps);
		return CLI_BAD_INPUT;
	}
	result = exp_run_steps(plan, steps, count, &one);
	free(steps);
	return result < 0 ? CLI_FAILED : result;
}
