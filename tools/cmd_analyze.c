/*
 * cmd_analyze.c - "vlroute analyze DIR": rate a table set by static
 * congestion: the all-to-all link load, the effective bisection bandwidth
 * and the bandwidth of traffic patterns.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

#define MAX_PATTERNS 16

static const char analyze_usage[] =
	"Usage: vlroute analyze DIR [--ebb] [--pattern NAME]... [OPTIONS]\n"
	"Rate the tables in DIR (written by vlroute route, an OpenSM dump_files_dir,\n"
	"or vlroute capture) by static congestion: every route between servers is\n"
	"walked through the LFTs, a channel's congestion is the number of routes\n"
	"crossing it, a pair's bandwidth 1 / the highest congestion on its route.\n"
	"Prints deadlock freedom as vlroute verify checks it (yes, no, or unknown\n"
	"without path SLs or for tables that are not programmable, which it says),\n"
	"the all-to-all link load (per channel class, histogram,\n"
	"hottest channels) and, per pattern, the mean bandwidth over its instances\n"
	"with a 95% confidence interval; the ebb line reads \"ebb: VALUE\".\n"
	"  -b, --ebb             effective bisection bandwidth: random halves paired\n"
	"                        by a random perfect matching (default without -p)\n"
	"  -p, --pattern NAME    also rate a traffic pattern: un, perm, hot, shift+I,\n"
	"                        adv+I, advr+I, advc, adv-local, all2all (repeatable)\n"
	"  -n, --patterns N      random instances per analysis (1..1000000, default\n"
	"                        1000)\n"
	"  -s, --seed S          seed of the random instances (default 1)\n"
	"  -d, --dlid CHOICE     DLIDs of a destination: base (LID offset 0), spread\n"
	"                        (every LID of its LMC range, equal shares) or random\n"
	"                        (one per pair); default base\n"
	"  -j, --threads N       worker threads (1..1024, default one per CPU); the\n"
	"                        results do not depend on it\n"
	"  -f, --fabric FILE     topology to use instead of DIR/fabric.net or\n"
	"                        DIR/opensm-subnet.lst\n"
	"  -J, --json FILE       also write the results as JSON, with their provenance\n"
	"                        (- for stdout, the text report then on stderr)\n"
	CLI_NODE_NAME_MAP_HELP
	"  -V, --version         print the version and exit\n"
	"  -h, --help            print this help and exit\n"
	"Exit status: 0 analysed, 1 could not analyse or write, 2 bad input (options,\n"
	"unreadable tables, tables that do not fit the fabric).\n";

struct analyze_request {
	const char *command_line;
	const char *dir;
	const char *fabric_path;
	const char *name_map;
	const char *json;
	int ebb;
	unsigned pattern_count;
	struct vlr_pattern_spec patterns[MAX_PATTERNS];
	unsigned long long instances;
	unsigned long long seed;
	unsigned long long threads;
	enum vlr_dlid_choice dlid_choice;
};

/*
 * "-j N" is the thread count, as everywhere; "-j FILE", the JSON file of
 * earlier releases, only where FILE cannot be a thread count.
 */
static int not_a_number(const char *value)
{
	return value[strspn(value, "0123456789")] != '\0' || !*value;
}

/* The short options of earlier releases. */
static const struct cli_renamed analyze_renamed[] = {
	{ 'e', 'b', NULL, "ebb", NULL, NULL },
	{ 't', 'j', "N", "threads", NULL, NULL },
	{ 'j', 'J', "FILE", "json", not_a_number, NULL },
	{ 0 },
};

static int add_pattern(const char *command, struct analyze_request *request,
		       const char *text)
{
	struct vlr_error err;

	if (request->pattern_count == MAX_PATTERNS) {
		cli_error(command, "at most %d --pattern options", MAX_PATTERNS);
		return -1;
	}
	if (vlr_pattern_parse(text, &request->patterns[request->pattern_count], &err)) {
		cli_error(command, "--pattern: %s", err.message);
		return -1;
	}
	request->pattern_count++;
	return 0;
}

static int parse_choice(const char *command, const char *text,
			enum vlr_dlid_choice *choice)
{
	struct vlr_error err;

	if (!vlr_analyze_dlid_parse(text, choice, &err))
		return 0;
	cli_error(command, "--dlid: %s", err.message);
	return -1;
}

/* One option; 1 for --help, 2 for --version, -1 for bad input. */
static int take_option(const char *command, int option, char **argv,
		       struct analyze_request *r)
{
	switch (option) {
	case 'h':
		return 1;
	case 'V':
		return 2;
	case 'b':
		r->ebb = 1;
		return 0;
	case 'p':
		return add_pattern(command, r, optarg);
	case 'n':
		return cli_unsigned(command, "--patterns", optarg, 1, 1000000, &r->instances);
	case 's':
		return cli_unsigned(command, "--seed", optarg, 0, UINT64_MAX, &r->seed);
	case 'd':
		return parse_choice(command, optarg, &r->dlid_choice);
	case 'j':
		return cli_unsigned(command, "--threads", optarg, 1, 1024, &r->threads);
	case 'f':
		r->fabric_path = optarg;
		return 0;
	case 'J':
		r->json = optarg;
		return 0;
	case CLI_OPT_NODE_NAME_MAP:
		r->name_map = optarg;
		return 0;
	default:
		cli_unknown_option(command, argv, optopt);
		return -1;
	}
}

static const struct option analyze_options[] = {
	{ "ebb", no_argument, NULL, 'b' },
	{ "pattern", required_argument, NULL, 'p' },
	{ "patterns", required_argument, NULL, 'n' },
	{ "seed", required_argument, NULL, 's' },
	{ "dlid", required_argument, NULL, 'd' },
	{ "threads", required_argument, NULL, 'j' },
	{ "fabric", required_argument, NULL, 'f' },
	{ "json", required_argument, NULL, 'J' },
	{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct option *cmd_analyze_options(void)
{
	return analyze_options;
}

static int parse_options(const char *command, int argc, char **argv,
			 struct analyze_request *r)
{
	int option, taken;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "bp:n:s:d:j:f:J:Vhet:", analyze_options,
				    analyze_renamed)) != -1)
		if ((taken = take_option(command, option, argv, r)) != 0)
			return taken;
	if (argc - optind != 1) {
		cli_error(command, "needs exactly one table directory (see --help)");
		return -1;
	}
	r->dir = argv[optind];
	if (!r->pattern_count)
		r->ebb = 1;
	return 0;
}

struct analyze_results {
	struct vlr_route_info route;
	int has_path_sls;
	enum vlr_deadlock_verdict deadlock_free;
	struct vlr_pattern_report reports[MAX_PATTERNS + 1];
	unsigned count;
	double seconds;
};

static int run_patterns(const char *command, const struct vlr_analysis *analysis,
			const struct analyze_request *r, struct analyze_results *results)
{
	struct vlr_error err;
	unsigned i;

	if (r->ebb && vlr_analyze_ebb(analysis, (unsigned)r->instances, r->seed,
				      &results->reports[results->count++], &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	for (i = 0; i < r->pattern_count; i++)
		if (vlr_analyze_pattern(analysis, &r->patterns[i], (unsigned)r->instances,
					r->seed, &results->reports[results->count++], &err)) {
			cli_error(command, "%s", err.message);
			return CLI_BAD_INPUT;
		}
	return CLI_OK;
}

static void print_results(const struct vlr_analysis *analysis,
			  const struct analyze_results *results, FILE *out)
{
	char why[128];
	unsigned i;

	if (results->route.engine[0])
		fprintf(out, "routed by: %s in %.3f s\n", results->route.engine,
			results->route.seconds);
	vlr_unprogrammable_describe(&results->route.unprogrammable, why, sizeof(why));
	if (why[0])
		fprintf(out, "%s - tables for vlroute sim --vl-mode ideal only\n", why);
	fprintf(out, "deadlock-free: %s\n", vlr_deadlock_verdict_name(results->deadlock_free));
	vlr_linkload_print(analysis, out);
	for (i = 0; i < results->count; i++)
		vlr_pattern_print(&results->reports[i], out);
	fprintf(out, "analysis time: %.3f s\n", results->seconds);
}

static int write_json(const struct vlr_analysis *analysis,
		      const struct analyze_results *results, const char *dir,
		      const struct vlr_provenance *provenance, FILE *out)
{
	struct vlr_json json;
	char why[128];
	int bad = 0;
	unsigned i;

	vlr_unprogrammable_describe(&results->route.unprogrammable, why, sizeof(why));
	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_INLINE);
	vlr_provenance_write_json(provenance, "provenance", &json);
	vlr_json_string(&json, "tables", dir);
	vlr_json_string(&json, "engine", results->route.engine);
	vlr_json_real(&json, "routing_seconds", results->route.seconds, VLR_JSON_EXACT);
	vlr_json_real(&json, "seconds", results->seconds, VLR_JSON_EXACT);
	vlr_json_bool(&json, "path_sls", results->has_path_sls);
	if (results->deadlock_free == VLR_DEADLOCK_FREE_UNKNOWN ||
	    results->deadlock_free == VLR_DEADLOCK_FREE_UNPROGRAMMABLE)
		vlr_json_null(&json, "deadlock_free");
	else
		vlr_json_bool(&json, "deadlock_free",
			      results->deadlock_free == VLR_DEADLOCK_FREE_YES);
	vlr_json_bool(&json, "programmable", !why[0]);
	if (why[0])
		vlr_json_string(&json, "not_programmable", why);
	vlr_json_next(&json, "linkload");
	bad |= vlr_linkload_write_json(analysis, out);
	vlr_json_open(&json, "patterns", '[', VLR_JSON_INLINE);
	for (i = 0; i < results->count; i++) {
		vlr_json_next(&json, NULL);
		bad |= vlr_pattern_write_json(&results->reports[i], out);
	}
	vlr_json_close(&json);
	vlr_json_close(&json);
	fputc('\n', out);
	return bad | vlr_json_finish(&json);
}

/* The JSON with its provenance: the tables in r->dir read with the fabric file given. */
static int save_json(const char *command, const struct vlr_analysis *analysis,
		     const struct analyze_results *results, const struct analyze_request *r,
		     const char *fabric)
{
	struct vlr_provenance provenance;
	struct vlr_whole_file file;
	FILE *out;
	int status = CLI_FAILED;

	if (cli_provenance_init(command, r->command_line, &provenance))
		return CLI_FAILED;
	provenance.first_seed = r->seed;
	provenance.num_seeds = 1;
	if (!cli_provenance_tables(command, &provenance, r->dir, fabric) &&
	    (out = cli_result_open(command, r->json, &file)) != NULL &&
	    !cli_result_close(command, r->json, &file, out,
			      write_json(analysis, results, r->dir, &provenance, out)))
		status = CLI_OK;
	vlr_provenance_free(&provenance);
	return status;
}

/* Deadlock freedom as vlroute verify finds it (see vlr_verify_deadlock_free). */
static int check_deadlocks(const char *command, const struct vlr_tables *tables,
			   struct analyze_results *results)
{
	struct vlr_verify_report check;
	struct vlr_error err;

	if (vlr_verify(tables, &check, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	results->deadlock_free = vlr_verify_deadlock_free(&check, results->has_path_sls);
	return CLI_OK;
}

static int analyze_tables(const char *command, const struct vlr_tables *tables,
			  const struct analyze_request *r,
			  const struct vlr_tables_dir_notes *notes)
{
	struct vlr_analyze_options options = { r->dlid_choice, (unsigned)r->threads };
	struct analyze_results results;
	struct vlr_analysis *analysis;
	struct vlr_error err;
	double start = vlr_clock_seconds();
	int status;

	memset(&results, 0, sizeof(results));
	results.has_path_sls = notes->has_path_sl;
	if (vlr_route_info_read(r->dir, &results.route, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_BAD_INPUT;
	}
	analysis = vlr_analysis_new(tables, &options, &err);
	if (!analysis) {
		cli_error(command, "%s", err.message);
		return CLI_BAD_INPUT;
	}
	status = check_deadlocks(command, tables, &results);
	if (status == CLI_OK)
		status = run_patterns(command, analysis, r, &results);
	results.seconds = vlr_clock_seconds() - start;
	if (status == CLI_OK)
		print_results(analysis, &results, cli_report_stream(r->json));
	if (status == CLI_OK && r->json)
		status = save_json(command, analysis, &results, r, notes->topology);
	vlr_analysis_free(analysis);
	return status;
}

int cmd_analyze(int argc, char **argv, const char *command_line)
{
	const char *command = "vlroute analyze";
	struct analyze_request request;
	struct vlr_tables_dir_notes notes;
	struct vlr_tables *tables;
	struct vlr_error err;
	int parsed, status;
	unsigned named;

	memset(&request, 0, sizeof(request));
	request.command_line = command_line;
	request.instances = 1000;
	request.seed = 1;
	parsed = parse_options(command, argc, argv, &request);
	if (parsed)
		return parsed == 2 ? cli_version() : parsed > 0 ?
		       cli_usage(stdout, analyze_usage, CLI_OK) : CLI_BAD_INPUT;
	tables = vlr_tables_read_dir(request.dir, request.fabric_path, VLR_MAX_DATA_VLS,
				     &notes, &err);
	if (!tables) {
		cli_error(command, "%s", err.message);
		return CLI_BAD_INPUT;
	}
	status = cli_rename_nodes(command, request.name_map, tables->fabric, &named) ?
		 CLI_BAD_INPUT : analyze_tables(command, tables, &request, &notes);
	vlr_tables_free(tables);
	return status;
}
