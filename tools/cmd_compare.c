/*
 * cmd_compare.c - "vlroute compare DIR... -o OUT": measure several table
 * sets of one fabric the same way (verify, all-to-all link load, effective
 * bisection bandwidth, optional patterns) and report them side by side.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"

static const char compare_usage[] =
	"Usage: vlroute compare [LABEL=]DIR... -o OUT [OPTIONS]\n"
	"Measure several table sets of the same fabric (each DIR written by vlroute\n"
	"route, an OpenSM dump_files_dir, or vlroute capture) the same way and put\n"
	"them side by side in OUT/report.md: ebb, link load, VLs, SLs, deadlock\n"
	"freedom, hops, routing time when known; with OUT/ebb.svg (ebb per table\n"
	"set) and OUT/linkload.svg (link-load histograms) drawn by gnuplot from\n"
	"OUT/plots.gp. LABEL names a table set (default: the directory's name).\n"
	"  -o, --output OUT      directory for the report, data and plots (created)\n"
	"  -n, --patterns N      random instances per analysis (1..1000000, default\n"
	"                        100)\n"
	"  -s, --seed S          seed of the random instances (default 1)\n"
	"  -p, --pattern NAME    add a column for a traffic pattern's bandwidth: un,\n"
	"                        perm, hot, shift+I, adv+I, advr+I, advc, adv-local,\n"
	"                        all2all (repeatable, up to 8)\n"
	"  -d, --dlid CHOICE     base, spread or random (see vlroute analyze)\n"
	"  -j, --threads N       worker threads (1..1024, default one per CPU)\n"
	"  -f, --fabric FILE     topology for every DIR instead of its own\n"
	"  -v, --vls N           data VLs the fabric offers, 1..15 (default: as the\n"
	"                        tables were routed (vlroute-route.info), else 8)\n"
	"      --no-plots        write plots.gp and the data but do not run gnuplot\n"
	"  -J, --json FILE       also write the figures as JSON, with their provenance\n"
	"                        (- for stdout, the other messages then on stderr)\n"
	CLI_NODE_NAME_MAP_HELP
	"  -V, --version         print the version and exit\n"
	"  -h, --help            print this help and exit\n"
	"Exit status: 0 reported, 1 could not analyse or write, 2 bad input (options,\n"
	"unreadable tables, tables of different fabrics).\n";

struct compare_request {
	const char *command_line;
	const char *output;
	const char *json;
	struct vlr_provenance provenance;	/* with --json */
	const char *fabric_path;
	const char *name_map;
	unsigned long long instances;
	unsigned long long seed;
	unsigned long long threads;
	unsigned long long vls;		/* --vls; 0: as each DIR/vlroute-route.info
					   says (vlr_tables_read_dir) */
	enum vlr_dlid_choice dlid_choice;
	struct vlr_pattern_spec patterns[COMPARE_MAX_PATTERNS];
	unsigned pattern_count;
	int no_plots;
	uint64_t fingerprint;		/* of the first table set's servers */
};

/* The short options of earlier releases. */
static const struct cli_renamed compare_renamed[] = {
	{ 't', 'j', "N", "threads", NULL, NULL },
	{ 0 },
};

static int add_pattern(const char *command, struct compare_request *r, const char *text)
{
	struct vlr_error err;

	if (r->pattern_count == COMPARE_MAX_PATTERNS) {
		cli_error(command, "at most %d --pattern options", COMPARE_MAX_PATTERNS);
		return -1;
	}
	if (vlr_pattern_parse(text, &r->patterns[r->pattern_count], &err)) {
		cli_error(command, "--pattern: %s", err.message);
		return -1;
	}
	r->pattern_count++;
	return 0;
}

/* One option; 1 for --help, 2 for --version, -1 for bad input. */
static int take_option(const char *command, int option, char **argv,
		       struct compare_request *r)
{
	struct vlr_error err;

	switch (option) {
	case 'h':
		return 1;
	case 'V':
		return 2;
	case 'o':
		r->output = optarg;
		return 0;
	case 'n':
		return cli_unsigned(command, "--patterns", optarg, 1, 1000000, &r->instances);
	case 's':
		return cli_unsigned(command, "--seed", optarg, 0, UINT64_MAX, &r->seed);
	case 'p':
		return add_pattern(command, r, optarg);
	case 'd':
		if (!vlr_analyze_dlid_parse(optarg, &r->dlid_choice, &err))
			return 0;
		cli_error(command, "--dlid: %s", err.message);
		return -1;
	case 'j':
		return cli_unsigned(command, "--threads", optarg, 1, 1024, &r->threads);
	case 'f':
		r->fabric_path = optarg;
		return 0;
	case 'v':
		return cli_unsigned(command, "--vls", optarg, 1, VLR_MAX_DATA_VLS, &r->vls);
	case 'P':
		r->no_plots = 1;
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

/* "LABEL=DIR" or "DIR" (labelled by its last component). */
static void name_entry(struct compare_entry *e, const char *arg)
{
	const char *equals = strchr(arg, '='), *slash = strchr(arg, '/');
	size_t length;

	if (equals && equals > arg && (!slash || slash > equals)) {
		length = (size_t)(equals - arg);
		e->dir = equals + 1;
	} else {
		e->dir = arg;
		length = strlen(arg);
		while (length > 1 && arg[length - 1] == '/')
			length--;
		for (slash = arg + length; slash > arg && slash[-1] != '/'; slash--)
			;
		length -= (size_t)(slash - arg);
		arg = slash;
	}
	if (length >= sizeof(e->label))
		length = sizeof(e->label) - 1;
	memcpy(e->label, arg, length);
	e->label[length] = '\0';
}

static int parse_options(const char *command, int argc, char **argv,
			 struct compare_request *r, struct compare_set *set)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "patterns", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "dlid", required_argument, NULL, 'd' },
		{ "threads", required_argument, NULL, 'j' },
		{ "fabric", required_argument, NULL, 'f' },
		{ "vls", required_argument, NULL, 'v' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "json", required_argument, NULL, 'J' },
		{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option, taken;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "o:n:s:p:d:j:f:v:J:Vht:", options,
				    compare_renamed)) != -1)
		if ((taken = take_option(command, option, argv, r)) != 0)
			return taken;
	if (argc == optind || argc - optind > COMPARE_MAX_SETS) {
		cli_error(command, "needs 1 to %d table directories (see --help)",
			  COMPARE_MAX_SETS);
		return -1;
	}
	if (!r->output) {
		cli_error(command, "missing -o OUT");
		return -1;
	}
	for (set->count = 0; optind < argc; optind++)
		name_entry(&set->entries[set->count++], argv[optind]);
	return 0;
}

/* The servers' port GUIDs, in any order. */
static uint64_t fingerprint(const struct vlr_fabric *fabric, const struct vlr_servers *servers)
{
	uint64_t sum = 0;
	uint32_t s;

	for (s = 0; s < servers->count; s++) {
		uint64_t x = fabric->ports[servers->port[s]].guid;

		sum += vlr_splitmix64(&x);
	}
	return sum;
}

/* The first table set fixes the fabric; the others must have the same. */
static int same_fabric(const char *command, struct compare_request *r,
		       struct compare_set *set, const struct compare_entry *e,
		       const struct vlr_tables *tables, const struct vlr_analysis *analysis)
{
	const struct vlr_servers *servers = vlr_analysis_servers(analysis);
	const struct vlr_topology *topology = vlr_analysis_topology(analysis);
	uint64_t print = fingerprint(tables->fabric, servers);

	if (e == set->entries) {
		set->switches = tables->num_switches;
		set->servers = servers->count;
		r->fingerprint = print;
		if (topology)
			vlr_family_describe(&topology->params, set->fabric, sizeof(set->fabric));
		else
			snprintf(set->fabric, sizeof(set->fabric), "not a HyperX, Dragonfly "
				 "or Dragonfly+");
		return 0;
	}
	if (tables->num_switches == set->switches && servers->count == set->servers &&
	    print == r->fingerprint)
		return 0;
	cli_error(command, "%s is not the fabric of %s: %u switches and %u servers (%s "
		  "port GUIDs) against %u and %u", e->dir, set->entries[0].dir,
		  tables->num_switches, servers->count, print == r->fingerprint ? "the same" :
		  "other", set->switches, set->servers);
	return -1;
}

static int keep_loads(struct compare_entry *e, const struct vlr_tables *tables,
		      const struct vlr_analysis *analysis)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t port;

	e->hottest_class = "none";
	if (e->linkload.hottest_count) {
		const struct vlr_port *from = &fabric->ports[e->linkload.hottest[0].port];
		const struct vlr_port *to = &fabric->ports[from->peer];

		snprintf(e->hottest, sizeof(e->hottest), "%s port %u -> %s port %u",
			 vlr_node_name(fabric, from->node), from->number,
			 vlr_node_name(fabric, to->node), to->number);
		e->hottest_class = vlr_channel_class_name(
			vlr_analysis_channel_class(analysis, e->linkload.hottest[0].port));
	}
	e->loads = malloc(sizeof(double) * (e->linkload.switch_links.channels + 1));
	if (!e->loads)
		return -1;
	for (port = 0; port < tables->fabric->num_ports; port++) {
		enum vlr_channel_class c = vlr_analysis_channel_class(analysis, port);

		if (c >= VLR_CHANNEL_SWITCH && c < VLR_CHANNEL_CLASSES)
			e->loads[e->load_count++] = vlr_analysis_channel_load(analysis, port);
	}
	return 0;
}

static int rate(const char *command, const struct compare_request *r,
		const struct vlr_analysis *analysis, struct compare_entry *e)
{
	struct vlr_error err;
	unsigned i;

	if (vlr_analyze_ebb(analysis, (unsigned)r->instances, r->seed, &e->ebb, &err)) {
		cli_error(command, "%s: %s", e->dir, err.message);
		return CLI_FAILED;
	}
	for (i = 0; i < r->pattern_count; i++)
		if (vlr_analyze_pattern(analysis, &r->patterns[i], (unsigned)r->instances,
					r->seed, &e->patterns[i], &err)) {
			cli_error(command, "%s: %s", e->dir, err.message);
			return CLI_BAD_INPUT;
		}
	return CLI_OK;
}

static int analyse(const char *command, struct compare_request *r, struct compare_set *set,
		   struct compare_entry *e, const struct vlr_tables *tables)
{
	struct vlr_analyze_options options = { r->dlid_choice, (unsigned)r->threads };
	struct vlr_analysis *analysis;
	struct vlr_error err;
	int status;

	analysis = vlr_analysis_new(tables, &options, &err);
	if (!analysis) {
		cli_error(command, "%s: %s", e->dir, err.message);
		return CLI_BAD_INPUT;
	}
	status = same_fabric(command, r, set, e, tables, analysis) ? CLI_BAD_INPUT :
		 rate(command, r, analysis, e);
	e->linkload = *vlr_analysis_linkload(analysis);
	if (status == CLI_OK && keep_loads(e, tables, analysis)) {
		cli_error(command, "out of memory for the link loads of %s", e->dir);
		status = CLI_FAILED;
	}
	vlr_analysis_free(analysis);
	return status;
}

/* Verify, analyse and keep the figures of one table set. */
static int measure(const char *command, struct compare_request *r, struct compare_set *set,
		   struct compare_entry *e)
{
	struct vlr_tables_dir_notes notes;
	struct vlr_verify_report check;
	struct vlr_tables *tables;
	struct vlr_error err;
	unsigned named;
	int status;

	tables = vlr_tables_read_dir(e->dir, r->fabric_path, (unsigned)r->vls, &notes, &err);
	if (!tables || vlr_route_info_read(e->dir, &e->route, &err)) {
		cli_error(command, "%s", err.message);
		vlr_tables_free(tables);
		return CLI_BAD_INPUT;
	}
	if (r->json && cli_provenance_tables(command, &r->provenance, e->dir, notes.topology)) {
		vlr_tables_free(tables);
		return CLI_FAILED;
	}
	if (cli_rename_nodes(command, r->name_map, tables->fabric, &named)) {
		vlr_tables_free(tables);
		return CLI_BAD_INPUT;
	}
	if (vlr_verify(tables, &check, &err)) {
		cli_error(command, "%s: %s", e->dir, err.message);
		vlr_tables_free(tables);
		return CLI_FAILED;
	}
	e->vls_used = check.vls_used;
	e->sls_used = check.sls_used;
	e->deadlock_free = vlr_verify_deadlock_free(&check, notes.has_path_sl);
	status = analyse(command, r, set, e, tables);
	vlr_tables_free(tables);
	return status;
}

static int compare_all(const char *command, struct compare_request *r,
		       struct compare_set *set)
{
	FILE *report = cli_report_stream(r->json);
	unsigned i;
	int status;

	set->instances = (unsigned)r->instances;
	set->seed = r->seed;
	r->provenance.first_seed = r->seed;
	r->provenance.num_seeds = 1;
	set->dlid_choice = r->dlid_choice;
	set->pattern_count = r->pattern_count;
	for (i = 0; i < set->count; i++) {
		char why[128];

		status = measure(command, r, set, &set->entries[i]);
		if (status != CLI_OK)
			return status;
		vlr_unprogrammable_describe(&set->entries[i].route.unprogrammable, why,
					    sizeof(why));
		fprintf(report, "%-20s ebb %.6f, max link load %.6g%s%s\n", set->entries[i].label,
			set->entries[i].ebb.mean, set->entries[i].linkload.switch_links.max,
			why[0] ? "; " : "", why);
	}
	if (compare_write_report(command, set, r->output, r->no_plots))
		return CLI_FAILED;
	fprintf(report, "report: %s/report.md\n", r->output);
	if (r->json && compare_write_json(command, set, &r->provenance, r->json))
		return CLI_FAILED;
	return CLI_OK;
}

int cmd_compare(int argc, char **argv, const char *command_line)
{
	const char *command = "vlroute compare";
	struct compare_request request;
	struct compare_set *set = calloc(1, sizeof(*set));
	int parsed, status;
	unsigned i;

	if (!set) {
		cli_error(command, "out of memory");
		return CLI_FAILED;
	}
	memset(&request, 0, sizeof(request));
	request.command_line = command_line;
	request.instances = 100;
	request.seed = 1;
	parsed = parse_options(command, argc, argv, &request, set);
	if (parsed)
		status = parsed == 2 ? cli_version() : parsed > 0 ?
			 cli_usage(stdout, compare_usage, CLI_OK) : CLI_BAD_INPUT;
	else if (request.json && cli_provenance_init(command, command_line, &request.provenance))
		status = CLI_FAILED;
	else
		status = compare_all(command, &request, set);
	if (request.json && !parsed)
		vlr_provenance_free(&request.provenance);
	for (i = 0; i < set->count; i++)
		free(set->entries[i].loads);
	free(set);
	return status;
}
