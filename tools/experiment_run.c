/*
 * experiment_run.c - running an experiment's pending steps: each step is
 * a vlroute child process (gen, route, sim or analyze), at most jobs at a
 * time, a step starting once its input is done.
 *
 * Nothing is lost and nothing is half written: gen and route write their
 * outputs whole themselves; a run's child writes its JSON into a private
 * work directory, and only a child that exited 0 has it wrapped with the
 * run's settings and commands into runs/ID.json, whole. A failed step
 * leaves ID.failed (the exit status and what the child printed on stderr)
 * and is tried again by the next run. SIGINT and SIGTERM are taken
 * synchronously (blocked, then sigtimedwait): the children are stopped
 * and waited for, their work directories removed, and what finished
 * stays; the next run resumes with the rest.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "experiment.h"

#define WORK_PATH 4200

struct child {
	pid_t pid;
	struct exp_step *step;
	char work[WORK_PATH];		/* its private directory */
};

struct runner {
	const struct exp_plan *plan;
	const struct exp_run_options *options;
	struct exp_step **steps;
	unsigned count;
	unsigned char *started;		/* per step: started (or settled) */
	unsigned first;			/* no step before it waits to start */
	struct child *children;
	unsigned running;
	unsigned done, failed, total;
	unsigned done_before;		/* done when this run began */
	sigset_t old_mask;
	double start, last_progress;
};

static const char *const step_names[] = { "fabric", "tables", "run" };

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int make_dir(const char *folder, const char *name)
{
	char path[WORK_PATH];

	snprintf(path, sizeof(path), "%s/%s", folder, name);
	if (mkdir(path, 0777) && errno != EEXIST) {
		cli_error("vlroute experiment", "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Remove a work directory and the files in it (it holds no directories). */
static void remove_work(const char *work)
{
	char path[WORK_PATH + 256];
	struct dirent *entry;
	DIR *dir = opendir(work);

	if (!dir)
		return;
	while ((entry = readdir(dir)))
		if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", work, entry->d_name);
			unlink(path);
		}
	closedir(dir);
	rmdir(work);
}

/* Write a whole file at path from text and the work log; 0 or -1. */
static int write_failed(const struct exp_step *step, const char *reason, const char *log)
{
	struct vlr_whole_file file;
	struct vlr_error err;
	char line[1024];
	FILE *in;

	if (vlr_whole_file_open(&file, step->failed, &err)) {
		cli_error("vlroute experiment", "%s", err.message);
		return -1;
	}
	fprintf(file.out, "%s\n", reason);
	in = log ? fopen(log, "r") : NULL;
	while (in && fgets(line, sizeof(line), in))
		fputs(line, file.out);
	if (in)
		fclose(in);
	if (vlr_whole_file_close(&file, ferror(file.out), &err)) {
		cli_error("vlroute experiment", "%s", err.message);
		return -1;
	}
	return 0;
}

/* The last non-empty line of the child's stderr, for the reason. */
static void last_line(const char *log, char *out, size_t size)
{
	char line[1024];
	FILE *in = fopen(log, "r");

	out[0] = 0;
	while (in && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			snprintf(out, size, "%s", line);
	}
	if (in)
		fclose(in);
}

static void write_settings(struct vlr_json *json, const struct exp_plan *plan,
			   const struct exp_step *run)
{
	unsigned kind, i;

	vlr_json_open(json, "settings", '{', VLR_JSON_LINES);
	for (kind = 0; kind < EXP_SECTIONS; kind++) {
		const struct exp_choice *choice = exp_run_choice(run, kind);

		if (!choice)
			continue;	/* no route section */
		vlr_json_open(json, exp_section_name(plan->exp, kind), '{', VLR_JSON_INLINE);
		for (i = 0; i < choice->num_settings; i++)
			vlr_json_string(json, choice->settings[i].key, choice->settings[i].value);
		vlr_json_close(json);
	}
	vlr_json_close(json);
}

/* The commands of the run's steps; no "route" when its input is the fabric. */
static void write_commands(struct vlr_json *json, const struct exp_step *run)
{
	static const char *const keys[] = { "fabric", "route", "measure" };
	const struct exp_step *steps[3] = { run->input->input, run->input, run };
	char command[8192];
	unsigned i;

	if (run->input->kind == EXP_STEP_FABRIC) {
		steps[0] = run->input;
		steps[1] = NULL;
	}
	vlr_json_open(json, "commands", '{', VLR_JSON_LINES);
	for (i = 0; i < 3; i++) {
		if (!steps[i])
			continue;
		exp_step_command(steps[i], command, sizeof(command));
		vlr_json_string(json, keys[i], command);
	}
	vlr_json_close(json);
}

/* runs/ID.json: the run's settings and commands, then the result as is. */
static int wrap_result(const struct runner *r, const struct exp_step *run, const char *work)
{
	struct vlr_whole_file file;
	struct vlr_json json;
	struct vlr_error err;
	char path[WORK_PATH + 16], label[1024];
	size_t length;
	char *text;
	int failed;

	snprintf(path, sizeof(path), "%s/result.json", work);
	text = exp_slurp(path, &length);
	while (text && length && (text[length - 1] == '\n' || text[length - 1] == ' '))
		text[--length] = 0;
	if (!text || !length) {
		free(text);
		return write_failed(run, "the measurement wrote no JSON", NULL);
	}
	if (vlr_whole_file_open(&file, run->output, &err)) {
		free(text);
		cli_error("vlroute experiment", "%s", err.message);
		return -1;
	}
	exp_run_label(r->plan, run, label, sizeof(label));
	vlr_json_start(&json, file.out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	vlr_json_string(&json, "run", run->id);
	vlr_json_string(&json, "label", label);
	vlr_json_string(&json, "experiment", r->plan->exp->path);
	write_settings(&json, r->plan, run);
	write_commands(&json, run);
	vlr_json_next(&json, "result");
	fwrite(text, 1, length, file.out);
	vlr_json_close(&json);
	fputc('\n', file.out);
	free(text);
	failed = vlr_json_finish(&json) || ferror(file.out);
	if (vlr_whole_file_close(&file, failed, &err)) {
		cli_error("vlroute experiment", "%s", failed ? "cannot write the result" :
			  err.message);
		return -1;
	}
	unlink(run->failed);
	return 0;
}

/* A sim run that ended in a deadlock (exit status 1): a result, not a failure. */
static int deadlocked(const struct child *child)
{
	char path[WORK_PATH + 16];
	struct exp_doc *doc;
	const char *deadlock;
	int yes;

	if (child->step->kind != EXP_STEP_RUN)
		return 0;
	snprintf(path, sizeof(path), "%s/result.json", child->work);
	doc = exp_doc_read(path, NULL);
	deadlock = doc ? exp_doc_scalar(doc, "runs.0.deadlock") : NULL;
	yes = deadlock && !strcmp(deadlock, "true");
	exp_doc_free(doc);
	return yes;
}

/* In the child: stdout and stderr to the work log, signals as they were. */
static void exec_child(const struct runner *r, const struct exp_step *step, const char *work)
{
	char log[WORK_PATH + 16], json[WORK_PATH + 16];
	char **argv = calloc(step->argc + 3, sizeof(*argv));
	int fd;

	snprintf(log, sizeof(log), "%s/stderr", work);
	snprintf(json, sizeof(json), "%s/result.json", work);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || !argv)
		_exit(127);
	dup2(fd, 2);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0)
		dup2(fd, 1);
	memcpy(argv, step->argv, step->argc * sizeof(*argv));
	if (step->kind == EXP_STEP_RUN) {
		argv[step->argc] = "--json";
		argv[step->argc + 1] = json;
	}
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execv(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void host_name(char *host, size_t size)
{
	if (gethostname(host, size))
		snprintf(host, size, "host");
	host[size - 1] = 0;
}

/*
 * Remove the work directories (runs/.work-ID-HOST-PID) that runners of
 * this host left when they were killed outright (SIGKILL): those whose
 * PID is gone. Another host's are left alone: its runner may be alive.
 */
static void remove_dead_work(const char *folder)
{
	char dir[WORK_PATH], path[WORK_PATH + 256], host[64], *dash;
	struct dirent *entry;
	DIR *d;
	long pid;

	snprintf(dir, sizeof(dir), "%s/runs", folder);
	host_name(host, sizeof(host));
	if (!(d = opendir(dir)))
		return;
	while ((entry = readdir(d))) {
		dash = strrchr(entry->d_name, '-');
		if (strncmp(entry->d_name, ".work-", 6) || strlen(entry->d_name) < 6 + EXP_ID_SIZE ||
		    !dash || dash - entry->d_name < 6 + EXP_ID_SIZE ||
		    strncmp(entry->d_name + 6 + EXP_ID_SIZE, host, strlen(host)) ||
		    dash != entry->d_name + 6 + EXP_ID_SIZE + strlen(host))
			continue;
		pid = strtol(dash + 1, NULL, 10);
		if (pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH) {
			snprintf(path, sizeof(path), "%s/%s", dir, entry->d_name);
			remove_work(path);
		}
	}
	closedir(d);
}

static int start_child(struct runner *r, struct exp_step *step)
{
	struct child *child = &r->children[r->running];
	char host[64];
	pid_t pid;

	host_name(host, sizeof(host));
	snprintf(child->work, sizeof(child->work), "%s/runs/.work-%s-%s-%ld",
		 r->plan->exp->folder, step->id, host, (long)getpid());
	if (mkdir(child->work, 0777) && errno != EEXIST) {
		cli_error("vlroute experiment", "%s: %s", child->work, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		cli_error("vlroute experiment", "cannot start a child: %s", strerror(errno));
		remove_work(child->work);
		return -1;
	}
	if (!pid)
		exec_child(r, step, child->work);
	child->pid = pid;
	child->step = step;
	r->running++;
	return 0;
}

static void describe_status(int status, char *out, size_t size)
{
	if (WIFEXITED(status))
		snprintf(out, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, size, "status %d", status);
}

/* A child ended: put its result in place, or say why it failed. */
static int settle(struct runner *r, struct child *child, int status)
{
	char log[WORK_PATH + 16], reason[2048], how[128], line[1024], command[1024];
	int result = 0;

	snprintf(log, sizeof(log), "%s/stderr", child->work);
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)) {
		/* stopped from outside, as the runner will be: not a failure */
		if (!r->options->quiet)
			fprintf(stderr, "vlroute experiment: %s %s stopped by %s; it runs next "
				"time\n", step_names[child->step->kind], child->step->id,
				strsignal(WTERMSIG(status)));
		r->failed++;
		child->step->settled = 1;
		remove_work(child->work);
		*child = r->children[--r->running];
		return 0;
	}
	if ((WIFEXITED(status) && !WEXITSTATUS(status)) || deadlocked(child)) {
		if (child->step->kind == EXP_STEP_RUN)
			result = wrap_result(r, child->step, child->work);
		else
			unlink(child->step->failed);
	} else {
		describe_status(status, how, sizeof(how));
		last_line(log, line, sizeof(line));
		exp_step_command(child->step, command, sizeof(command));
		snprintf(reason, sizeof(reason), "%s %s failed (%s): %s",
			 step_names[child->step->kind], child->step->id, how, line);
		result = write_failed(child->step, reason, log);
		if (!r->options->quiet)
			fprintf(stderr, "vlroute experiment: %s\n  command: %s\n", reason,
				command);
	}
	exp_step_state(child->step) == EXP_DONE ? r->done++ : r->failed++;
	child->step->settled = 1;
	remove_work(child->work);
	*child = r->children[--r->running];
	return result;
}

static void format_time(double seconds, char *out, size_t size)
{
	unsigned long s = (unsigned long)(seconds + 0.5);

	if (s >= 3600)
		snprintf(out, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, size, "%lu:%02lu", s / 60, s % 60);
}

static void progress(struct runner *r, int force)
{
	double t = now(), elapsed = t - r->start;
	unsigned finished = r->done - r->done_before + r->failed;
	unsigned left = r->total - r->done - r->failed;
	char e[32], eta[32] = "?";

	if (r->options->quiet || (!force && t - r->last_progress < 10))
		return;
	r->last_progress = t;
	format_time(elapsed, e, sizeof(e));
	if (finished)
		format_time(elapsed / finished * left, eta, sizeof(eta));
	fprintf(stderr, "vlroute experiment: %u/%u steps done, %u failed, %u running; "
		"elapsed %s, ETA %s\n", r->done, r->total, r->failed, r->running, e, eta);
}

/* An input that failed fails the step that needs it, with its reason. */
static int input_failed(struct runner *r, struct exp_step *step)
{
	char reason[2048], why[1024];

	if (exp_step_state(step->input) == EXP_FAILED)
		exp_step_reason(step->input, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "not made (%s)", step->input->output);
	snprintf(reason, sizeof(reason), "%s %s not made: its %s: %s",
		 step_names[step->kind], step->id, step_names[step->input->kind], why);
	r->failed++;
	step->settled = 1;
	return write_failed(step, reason, NULL);
}

/*
 * Whether a step can start: 1 yes, 0 not yet (its input runs here and is
 * not settled), -1 never (its input failed or is not made).
 */
static int ready(const struct exp_step *step)
{
	if (!step->input)
		return 1;
	if (step->input->listed && !step->input->settled)
		return 0;
	return exp_step_state(step->input) == EXP_DONE ? 1 : -1;
}

/* Start what can start; 1 when nothing is left to start. */
static int start_ready(struct runner *r)
{
	unsigned i;
	int can;

	while (r->first < r->count && r->started[r->first])
		r->first++;
	for (i = r->first; i < r->count && r->running < r->options->jobs; i++) {
		if (r->started[i] || !(can = ready(r->steps[i])))
			continue;
		r->started[i] = 1;
		if (can < 0 ? input_failed(r, r->steps[i]) : start_child(r, r->steps[i]))
			return -1;
	}
	while (r->first < r->count && r->started[r->first])
		r->first++;
	return r->first == r->count;
}

static int reap(struct runner *r)
{
	int status, result = 0;
	unsigned i;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 0; i < r->running; i++)
			if (r->children[i].pid == pid) {
				result |= settle(r, &r->children[i], status);
				break;
			}
	return result;
}

/* Stop every child, wait for it, remove its work; nothing is settled. */
static void stop_children(struct runner *r, int sig)
{
	unsigned i;

	for (i = 0; i < r->running; i++)
		kill(r->children[i].pid, SIGTERM);
	for (i = 0; i < r->running; i++) {
		waitpid(r->children[i].pid, NULL, 0);
		remove_work(r->children[i].work);
	}
	if (!r->options->quiet)
		fprintf(stderr, "vlroute experiment: %s: stopped %u running step%s; %u of %u "
			"steps done, the rest run next time\n", strsignal(sig), r->running,
			r->running == 1 ? "" : "s", r->done, r->total);
	r->running = 0;
}

static int loop(struct runner *r)
{
	struct timespec tick = { 1, 0 };
	sigset_t wait_for;
	int all_started = 0, sig;

	sigemptyset(&wait_for);
	sigaddset(&wait_for, SIGCHLD);
	sigaddset(&wait_for, SIGINT);
	sigaddset(&wait_for, SIGTERM);
	for (;;) {
		if (!all_started && (all_started = start_ready(r)) < 0)
			return -1;
		if (all_started == 1 && !r->running)
			break;
		sig = sigtimedwait(&wait_for, NULL, &tick);
		if (sig == SIGINT || sig == SIGTERM) {
			stop_children(r, sig);
			return 128 + sig;
		}
		if (reap(r))
			return -1;
		progress(r, 0);
	}
	progress(r, 1);
	return r->failed ? 1 : 0;
}

static int setup(struct runner *r)
{
	unsigned i;

	r->started = calloc(r->count ? r->count : 1, 1);
	r->children = calloc(r->options->jobs, sizeof(*r->children));
	if (!r->started || !r->children) {
		cli_error("vlroute experiment", "out of memory");
		return -1;
	}
	for (i = 0; i < r->count; i++)
		r->steps[i]->listed = 1;
	for (i = 0; i < r->count; i++) {
		if (exp_step_state(r->steps[i]) == EXP_DONE) {
			r->done++;
			r->done_before++;
		} else if (r->steps[i]->argv)
			continue;
		else	/* a fabric file that is gone since the plan read it */
			r->failed++;
		r->started[i] = 1;
		r->steps[i]->settled = 1;
	}
	r->total = r->count;
	return 0;
}

int exp_run_steps(const struct exp_plan *plan, struct exp_step **steps, unsigned count,
		  const struct exp_run_options *options)
{
	struct runner r;
	sigset_t block;
	int result;

	memset(&r, 0, sizeof(r));
	r.plan = plan;
	r.options = options;
	r.steps = steps;
	r.count = count;
	if (make_dir(plan->exp->folder, "fabrics") || make_dir(plan->exp->folder, "runs") ||
	    (exp_has_route(plan->exp) && make_dir(plan->exp->folder, "tables")))
		return -1;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &r.old_mask);
	remove_dead_work(plan->exp->folder);
	r.start = r.last_progress = now();
	result = setup(&r);
	if (!result) {
		if (!options->quiet)
			fprintf(stderr, "vlroute experiment: %u steps, %u done already, %u jobs "
				"at a time\n", r.total, r.done, options->jobs);
		result = loop(&r);
	}
	if (result < 0 && r.running)
		stop_children(&r, SIGTERM);
	sigprocmask(SIG_SETMASK, &r.old_mask, NULL);
	free(r.started);
	free(r.children);
	return result;
}
