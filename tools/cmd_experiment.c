/*
 * cmd_experiment.c - "vlroute experiment run|status|merge|plot|slurm FILE":
 * sweeps over fabrics, routing and measurements described in one YAML
 * file (experiment.h), resumable, run here N at a time or as Slurm job
 * arrays, merged into tidy CSV and drawn.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "experiment.h"

#define COMMAND "vlroute experiment"

static const char experiment_usage[] =
	"Usage: vlroute experiment ACTION FILE [OPTIONS]\n"
	"Run every point of the sweeps an experiment file describes (a fabric, its\n"
	"routing and a sim or analyze measurement, any setting a list; sim without\n"
	"a routing runs the reference model on the fabric), resumably, into the\n"
	"file's folder; see vlroute-experiment(5) for the file.\n"
	"Actions:\n"
	"  run FILE       run the steps not done yet (fabrics, tables, runs)\n"
	"  status FILE    steps done, pending and failed (with the reason)\n"
	"  merge FILE     runs.csv, bins.csv (sim), switches.csv (sim with\n"
	"                 switch-injections) and summary.json\n"
	"  plot FILE      a figure of the finished runs\n"
	"  slurm FILE     submit the steps not done yet as Slurm job arrays\n"
	"  task FILE      run one array task's steps (the job scripts call it)\n"
	"Options:\n"
	"  -j, --threads N     run: steps at a time, each a child process of one\n"
	"                      thread (default: the cores, %ld here)\n"
	"  -q, --quiet         run: no progress messages\n"
	"  -o, --output PATH   merge: the directory (default FOLDER/merged);\n"
	"                      plot: the figure, .pdf, .svg or .png\n"
	"                      (default FOLDER/merged/figure.pdf)\n"
	"  -k, --kind K        plot: load (accepted load and latency per offered load,\n"
	"                      mean and 95%% interval over seeds), time (accepted load\n"
	"                      over time, a line per seed), switches (packets injected\n"
	"                      per switch, a bar per series, from switches.csv) or\n"
	"                      auto (default: load when the runs span several loads)\n"
	"      --switches REGEX  plot --kind switches: only the switches whose names\n"
	"                      match the POSIX extended REGEX, e.g. '^df_g0_'\n"
	"                      (default all)\n"
	"      --chunk N       slurm: runs per array task (default 1)\n"
	"      --wait          slurm: return when the jobs have ended; status 1 when\n"
	"                      runs then are failed or missing\n"
	"      --dry-run       slurm: write the job scripts, submit nothing\n"
	"      --sbatch OPT    slurm: pass OPT to sbatch (repeatable), e.g.\n"
	"                      --sbatch=--partition=batch\n"
	"      --list FILE     task: the steps file of the array\n"
	"      --index I       task: the task's index (default $SLURM_ARRAY_TASK_ID)\n"
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n"
	"Exit status: 0 every step done (merge: every run merged), 1 steps failed or\n"
	"pending, 2 bad input, 130 or 143 interrupted by SIGINT or SIGTERM.\n";

enum {
	OPT_CHUNK = 256, OPT_WAIT, OPT_DRY_RUN, OPT_SBATCH, OPT_LIST, OPT_INDEX, OPT_SWITCHES,
};

static const struct option experiment_options[] = {
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "output", required_argument, NULL, 'o' },
	{ "kind", required_argument, NULL, 'k' },
	{ "switches", required_argument, NULL, OPT_SWITCHES },
	{ "chunk", required_argument, NULL, OPT_CHUNK },
	{ "wait", no_argument, NULL, OPT_WAIT },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "sbatch", required_argument, NULL, OPT_SBATCH },
	{ "list", required_argument, NULL, OPT_LIST },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct request {
	const char *command_line;
	const char *action;
	const char *file;
	const char *output;
	const char *list;
	enum exp_plot_kind kind;
	const char *switches;		/* --switches REGEX */
	struct exp_run_options run;
	struct exp_slurm_options slurm;
	unsigned long long index;
	int index_given;
};

static int usage(FILE *out, int status)
{
	fprintf(out, experiment_usage, sysconf(_SC_NPROCESSORS_ONLN));
	return status;
}

static int parse_kind(const char *text, enum exp_plot_kind *kind)
{
	if (!strcmp(text, "auto"))
		*kind = EXP_PLOT_AUTO;
	else if (!strcmp(text, "load"))
		*kind = EXP_PLOT_LOAD;
	else if (!strcmp(text, "time"))
		*kind = EXP_PLOT_TIME;
	else if (!strcmp(text, "switches"))
		*kind = EXP_PLOT_SWITCHES;
	else {
		cli_error(COMMAND, "--kind is load, time, switches or auto, not \"%s\"", text);
		return -1;
	}
	return 0;
}

/* --switches REGEX: a POSIX extended regular expression. */
static int parse_switches(const char *text, const char **switches)
{
	regex_t match;
	char why[256];
	int code = regcomp(&match, text, REG_EXTENDED | REG_NOSUB);

	if (code) {
		regerror(code, &match, why, sizeof(why));
		cli_error(COMMAND, "--switches %s: not a POSIX extended regular expression: %s",
			  text, why);
		return -1;
	}
	regfree(&match);
	*switches = text;
	return 0;
}

static int add_sbatch(struct request *r, char *option)
{
	char **more = realloc(r->slurm.sbatch, (r->slurm.num_sbatch + 1) * sizeof(*more));

	if (!more) {
		cli_error(COMMAND, "out of memory");
		return -1;
	}
	r->slurm.sbatch = more;
	more[r->slurm.num_sbatch++] = option;
	return 0;
}

/* One option; 1 when it was --help or --version (done), -1 when bad. */
static int take_option(struct request *r, int option, char **argv)
{
	unsigned long long n;

	switch (option) {
	case 'h':
		usage(stdout, CLI_OK);
		return 1;
	case 'V':
		cli_version();
		return 1;
	case 'j':
		if (cli_unsigned(COMMAND, "--threads", optarg, 1, 1024, &n))
			return -1;
		r->run.jobs = (unsigned)n;
		return 0;
	case 'q':
		r->run.quiet = r->slurm.quiet = 1;
		return 0;
	case 'o':
		r->output = optarg;
		return 0;
	case 'k':
		return parse_kind(optarg, &r->kind);
	case OPT_SWITCHES:
		return parse_switches(optarg, &r->switches);
	case OPT_CHUNK:
		if (cli_unsigned(COMMAND, "--chunk", optarg, 1, 1000000, &n))
			return -1;
		r->slurm.chunk = (unsigned)n;
		return 0;
	case OPT_WAIT:
		r->slurm.wait = 1;
		return 0;
	case OPT_DRY_RUN:
		r->slurm.dry_run = 1;
		return 0;
	case OPT_SBATCH:
		return add_sbatch(r, optarg);
	case OPT_LIST:
		r->list = optarg;
		return 0;
	case OPT_INDEX:
		r->index_given = 1;
		return cli_unsigned(COMMAND, "--index", optarg, 0, UINT_MAX, &r->index);
	default:
		cli_unknown_option(COMMAND, argv, optopt);
		return -1;
	}
}

static int parse(struct request *r, int argc, char **argv)
{
	int option, taken;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(COMMAND, argc, argv, "j:qo:k:Vh", experiment_options,
				    NULL)) != -1)
		if ((taken = take_option(r, option, argv)) != 0)
			return taken;
	if (argc - optind != 2) {
		cli_error(COMMAND, "needs an action and an experiment file (see --help)");
		return -1;
	}
	r->action = argv[optind];
	r->file = argv[optind + 1];
	return 0;
}

/* The program the steps run: this one. */
static int find_self(char *exe, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", exe, size - 1);

	if (n <= 0 || (size_t)n >= size - 1) {
		cli_error(COMMAND, "cannot find its own program (/proc/self/exe): %s",
			  strerror(errno));
		return -1;
	}
	exe[n] = 0;
	return 0;
}

static int act_run(const struct exp_plan *plan, const struct request *r)
{
	unsigned count;
	struct exp_step **steps = exp_plan_steps(plan, &count);
	int result;

	if (!steps) {
		cli_error(COMMAND, "out of memory");
		return CLI_FAILED;
	}
	result = exp_run_steps(plan, steps, count, &r->run);
	free(steps);
	return result < 0 ? CLI_FAILED : result;
}

static int act_merge(const struct exp_plan *plan, const struct request *r)
{
	const char *dir = r->output ? r->output : plan->exp->results;
	struct vlr_error err;
	unsigned carried = 0;
	char kept[64] = "";
	int missing;

	missing = exp_merge(plan, dir, r->command_line, &carried, &err);
	if (missing < 0) {
		cli_error(COMMAND, "%s", err.message);
		return CLI_FAILED;
	}
	if (carried)
		snprintf(kept, sizeof(kept), " (%u of them from the merged files)", carried);
	if (!r->run.quiet)
		fprintf(stderr, "%s: merged %u of %u runs%s into %s%s\n", COMMAND,
			plan->num_runs - (unsigned)missing, plan->num_runs, kept, dir,
			missing ? " (see status for the rest)" : "");
	return missing ? CLI_FAILED : CLI_OK;
}

static int act_plot(const struct exp_plan *plan, const struct request *r)
{
	char path[VLR_PATH_SIZE + 16];
	const char *dot = r->output ? strrchr(r->output, '.') : ".pdf";
	struct vlr_error err;

	if (r->switches && r->kind != EXP_PLOT_SWITCHES) {
		cli_error(COMMAND, "--switches is for plot --kind switches");
		return CLI_BAD_INPUT;
	}
	if (!dot || (strcmp(dot, ".pdf") && strcmp(dot, ".svg") && strcmp(dot, ".png"))) {
		cli_error(COMMAND, "%s: a figure's file name ends in .pdf, .svg or .png",
			  r->output);
		return CLI_BAD_INPUT;
	}
	snprintf(path, sizeof(path), "%s/figure.pdf", plan->exp->results);
	if (exp_plot(plan->exp, r->kind, r->switches, r->output ? r->output : path, &err)) {
		cli_error(COMMAND, "%s", err.message);
		return CLI_FAILED;
	}
	return CLI_OK;
}

static int act_task(const struct exp_plan *plan, struct request *r)
{
	const char *env = getenv("SLURM_ARRAY_TASK_ID");
	char *end;

	if (!r->list) {
		cli_error(COMMAND, "task needs --list FILE");
		return CLI_BAD_INPUT;
	}
	if (!r->index_given && env) {
		r->index = strtoull(env, &end, 10);
		r->index_given = !*end && *env;
	}
	if (!r->index_given) {
		cli_error(COMMAND, "task needs --index I or SLURM_ARRAY_TASK_ID");
		return CLI_BAD_INPUT;
	}
	return exp_task(plan, r->list, (unsigned)r->index, &r->run);
}

static int act(struct exp_plan *plan, struct request *r, const char *exe)
{
	if (!strcmp(r->action, "run"))
		return act_run(plan, r);
	if (!strcmp(r->action, "status"))
		return exp_status(plan, stdout);
	if (!strcmp(r->action, "merge"))
		return act_merge(plan, r);
	if (!strcmp(r->action, "plot"))
		return act_plot(plan, r);
	if (!strcmp(r->action, "slurm"))
		return exp_slurm(plan, exe, &r->slurm);
	return act_task(plan, r);
}

static int known_action(const char *action)
{
	static const char *const actions[] = { "run", "status", "merge", "plot", "slurm",
					       "task", NULL };
	unsigned i;

	for (i = 0; actions[i]; i++)
		if (!strcmp(action, actions[i]))
			return 1;
	return 0;
}

int cmd_experiment(int argc, char **argv, const char *command_line)
{
	struct request r;
	struct experiment *exp;
	struct exp_plan *plan;
	struct vlr_error err;
	char exe[VLR_PATH_SIZE];
	int status;

	memset(&r, 0, sizeof(r));
	r.run.jobs = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	r.slurm.chunk = 1;
	status = parse(&r, argc, argv);
	if (status) {
		free(r.slurm.sbatch);
		return status > 0 ? CLI_OK : CLI_BAD_INPUT;
	}
	if (!known_action(r.action)) {
		cli_error(COMMAND, "unknown action \"%s\": run, status, merge, plot, slurm or "
			  "task", r.action);
		free(r.slurm.sbatch);
		return CLI_BAD_INPUT;
	}
	if (find_self(exe, sizeof(exe))) {
		free(r.slurm.sbatch);
		return CLI_FAILED;
	}
	exp = exp_read(r.file, &err);
	if (!exp) {
		cli_error(COMMAND, "%s", err.message);
		free(r.slurm.sbatch);
		return CLI_BAD_INPUT;
	}
	plan = exp_plan_new(exp, exe, &err);
	if (!plan)
		cli_error(COMMAND, "%s", err.message);
	r.command_line = command_line;
	status = plan ? act(plan, &r, exe) : CLI_BAD_INPUT;
	exp_plan_free(plan);
	exp_free(exp);
	free(r.slurm.sbatch);
	return status;
}
