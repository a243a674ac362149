/*
 * cmd_route.c - "vlroute route FABRIC --engine E -o DIR": route a fabric
 * offline, verify the result in memory, and write the tables: compact
 * (vlroute-tables(5)), or in OpenSM's text formats (plus our path-SL file)
 * with --text-dumps, so that a stock OpenSM can program them. With two
 * threads the files are written (into the temporary directory that
 * replaces DIR only once all is well) and hashed while the tables are
 * verified, not after. The engines, their help lines and which options
 * each accepts come from the library's registry (vlr_engines).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The engine list of --help wraps at this column. */
#define USAGE_WIDTH 77
#define USAGE_INDENT 24

static const char usage_files[] =
	"Route FABRIC (ibsim net file or ibnetdiscover output), verify the tables\n"
	"and write them to DIR: fabric.net, guid2lid, the compact vlroute-lfts.bin,\n"
	"vlroute-sl2vl.bin and vlroute-path-sl.bin (with --text-dumps\n"
	"opensm-lfts.dump, opensm-sl2vl.dump and vlroute-path-sl.dump instead),\n"
	"vlroute-route.info (and vlroute-valiant.dump; tables that are not\n"
	"programmable have no SL2VL and path SLs), with vlroute-provenance.json\n"
	"(version, command line, the table-set hash it prints, host, date).\n";

static const char usage_options[] =
	"  -o, --output DIR      directory to write (created if missing)\n"
	"      --text-dumps      write OpenSM's text dumps, which \"opensm -R file\"\n"
	"                        loads, instead of the compact files\n"
	"  -l, --lmc N           LIDs per CA port 2^N, assigned offline (0..7, default 0)\n"
	"  -g, --guid2lid FILE   take the LIDs from OpenSM's guid2lid file instead\n"
	"  -v, --vls N           data VLs the fabric offers (1..15, default 8)\n"
	"  -H, --heuristic H     dfsssp and layers cycle cut: weakest (default), strongest,\n"
	"                        first, or all (try each, keep the fewest layers)\n"
	"      --no-balance      dfsssp, layers: do not spread routes over spare VLs\n"
	"      --no-escape       dfsssp: refuse when the layers exceed the VLs, instead\n"
	"                        of escape paths\n"
	"  -j, --threads N       threads setting up the layers and verifying (1..64,\n"
	"                        default one per CPU; the same tables on any count)\n"
	"  -Y, --vl-policy P     minimal, valiant: ladder, ladder-reuse, 2phases or\n"
	"                        layers (default: minimal the fewest VLs its routes\n"
	"                        need, valiant 2phases)\n"
	"      --phase-min M     2phases: minfirst (default), minlast or minboth\n"
	"      --vls-per-phase K 2phases: VLs per phase (default 2 on a Dragonfly, else 1)\n"
	"      --dim-order D,..  HyperX: dimension order, e.g. 1,0 (default 0,1,..)\n"
	"      --family F        minimal, valiant: refuse unless the graph is a\n"
	"                        hyperx, dragonfly or dragonfly+ (default: any)\n"
	"      --restricted N    valiant: offsets restricted to the destination's\n"
	"                        partition (default a quarter of the Valiant\n"
	"                        offsets, rounded up; none at LMC 1)\n"
	"      --allow-unprogrammable\n"
	"                        minimal, valiant: when the ladder, ladder-reuse or\n"
	"                        2phases policy needs more SLs or VLs than there are,\n"
	"                        write the tables anyway, marked not programmable\n"
	"                        (no SL2VL, no path SLs), for sim --vl-mode ideal only\n"
	"  -V, --version         print the version and exit\n"
	"  -h, --help            print this help and exit\n"
	"Exit status: 0 routed, 1 could not route or write, 2 bad input.\n";

/* The short options of earlier releases. */
static const struct cli_renamed route_renamed[] = {
	{ 'P', 'Y', "P", "vl-policy", NULL, NULL },
	{ 0 },
};

/* The options only some engines accept, as "vlroute route" spells them. */
static const struct {
	enum vlr_engine_option option;
	const char *flag;
} engine_flags[] = {
	{ VLR_ENGINE_OPT_VL_POLICY, "--vl-policy" },
	{ VLR_ENGINE_OPT_DIM_ORDER, "--dim-order" },
	{ VLR_ENGINE_OPT_FAMILY, "--family" },
	{ VLR_ENGINE_OPT_RESTRICTED, "--restricted" },
	{ VLR_ENGINE_OPT_UNPROGRAMMABLE, "--allow-unprogrammable" },
	{ VLR_ENGINE_OPT_NO_ESCAPE, "--no-escape" },
};

#define ENGINE_FLAGS (sizeof(engine_flags) / sizeof(engine_flags[0]))

/* lead, then the words of text wrapped at USAGE_WIDTH and indented USAGE_INDENT. */
static void print_wrapped(FILE *out, const char *lead, const char *text)
{
	size_t column = strlen(lead), length;
	int first = 1;

	fputs(lead, out);
	for (; *text; text += length + (text[length] == ' ')) {
		length = strcspn(text, " ");
		if (!first && column + 1 + length > USAGE_WIDTH) {
			fprintf(out, "\n%*s", USAGE_INDENT, "");
			column = USAGE_INDENT;
			first = 1;
		}
		fprintf(out, "%s%.*s", first ? "" : " ", (int)length, text);
		column += length + !first;
		first = 0;
	}
	fputc('\n', out);
}

static void print_usage(FILE *out)
{
	char names[512], described[2048], item[256];
	unsigned count, i;
	const struct vlr_engine *engines = vlr_engines(&count);

	cli_engine_names(names, sizeof(names), "|", "|");
	fprintf(out, "Usage: vlroute route FABRIC --engine %s -o DIR [OPTIONS]\n%s", names,
		usage_files);
	for (i = 0; i < count; i++) {
		snprintf(item, sizeof(item), "%s (%s)", engines[i].name, engines[i].summary);
		cli_list_add(described, sizeof(described), i, count, ", ", " or ", item);
	}
	print_wrapped(out, "  -e, --engine E        ", described);
	fputs(usage_options, out);
}

/* "vlroute route --engine help": one line an engine. */
static void print_engines(void)
{
	unsigned count, i;
	const struct vlr_engine *engines = vlr_engines(&count);
	int width = 0;

	for (i = 0; i < count; i++)
		if ((int)strlen(engines[i].name) > width)
			width = (int)strlen(engines[i].name);
	for (i = 0; i < count; i++)
		printf("%-*s  %s\n", width, engines[i].name, engines[i].summary);
}

struct route_request {
	const char *command_line;
	const char *fabric_path;
	const char *output;
	const char *guid2lid;
	const char *engine_name;
	const struct vlr_engine *engine;
	unsigned long long lmc;
	unsigned long long vls;
	int lmc_given;
	int phase_options_given;
	enum vlr_tables_form form;
	struct vlr_engine_options options;
};

static int parse_policy_option(const char *command, int option, const char *text,
			       struct route_request *request)
{
	struct vlr_engine_options *options = &request->options;
	unsigned long long value;
	struct vlr_error err;

	switch (option) {
	case 'Y':
		if (vlr_vl_policy_parse(text, &options->policy.kind, &err))
			break;
		return 0;
	case 'M':
		request->phase_options_given = 1;
		if (vlr_phase_min_parse(text, &options->policy.phase_min, &err))
			break;
		return 0;
	case 'K':
		request->phase_options_given = 1;
		if (cli_unsigned(command, "--vls-per-phase", text, 1, VLR_MAX_VLS_PER_PHASE,
				 &value))
			return -1;
		options->policy.vls_per_phase = (unsigned)value;
		return 0;
	case 'D':
		if (vlr_dim_order_parse(text, options->dim_order, &options->dim_order_count, &err)) {
			cli_error(command, "--dim-order is %s", err.message);
			return -1;
		}
		return 0;
	case 'F':
		if (vlr_topology_family_parse(text, &options->family, &err)) {
			cli_error(command, "--family is %s", err.message);
			return -1;
		}
		return 0;
	default:
		if (cli_unsigned(command, "--restricted", text, 0, VLR_MAX_RESTRICTED, &value))
			return -1;
		options->restricted = (int)value;
		return 0;
	}
	cli_error(command, "%s", err.message);
	return -1;
}

static const struct option route_options[] = {
	{ "engine", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "text-dumps", no_argument, NULL, 'T' },
	{ "lmc", required_argument, NULL, 'l' },
	{ "guid2lid", required_argument, NULL, 'g' },
	{ "vls", required_argument, NULL, 'v' },
	{ "heuristic", required_argument, NULL, 'H' },
	{ "no-balance", no_argument, NULL, 'B' },
	{ "no-escape", no_argument, NULL, 'E' },
	{ "threads", required_argument, NULL, 'j' },
	{ "vl-policy", required_argument, NULL, 'Y' },
	{ "phase-min", required_argument, NULL, 'M' },
	{ "vls-per-phase", required_argument, NULL, 'K' },
	{ "dim-order", required_argument, NULL, 'D' },
	{ "restricted", required_argument, NULL, 'R' },
	{ "family", required_argument, NULL, 'F' },
	{ "allow-unprogrammable", no_argument, NULL, 'A' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct option *cmd_route_options(void)
{
	return route_options;
}

static int parse_route_options(const char *command, int argc, char **argv,
			       struct route_request *request)
{
	unsigned long long value;
	struct vlr_error err;
	int option;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "e:o:l:g:v:H:Y:j:VhP:", route_options,
				    route_renamed)) != -1) {
		switch (option) {
		case 'h':
			print_usage(stdout);
			return 1;
		case 'V':
			cli_version();
			return 1;
		case 'e':
			if (!strcmp(optarg, "help")) {
				print_engines();
				return 1;
			}
			request->engine_name = optarg;
			request->engine = vlr_engine_find(optarg);
			break;
		case 'o':
			request->output = optarg;
			break;
		case 'T':
			request->form = VLR_TABLES_TEXT;
			break;
		case 'g':
			request->guid2lid = optarg;
			break;
		case 'l':
			request->lmc_given = 1;
			if (cli_unsigned(command, "--lmc", optarg, 0, VLR_MAX_LMC, &request->lmc))
				return -1;
			break;
		case 'v':
			if (cli_unsigned(command, "--vls", optarg, 1, VLR_MAX_DATA_VLS,
					 &request->vls))
				return -1;
			break;
		case 'H':
			if (vlr_heuristic_parse(optarg, &request->options.heuristic, &err)) {
				cli_error(command, "--heuristic is %s", err.message);
				return -1;
			}
			break;
		case 'B':
			request->options.no_balance = 1;
			break;
		case 'E':
			request->options.no_escape = 1;
			break;
		case 'j':
			if (cli_unsigned(command, "--threads", optarg, 1, VLR_MAX_ENGINE_THREADS,
					 &value))
				return -1;
			request->options.threads = (unsigned)value;
			break;
		case 'A':
			request->options.allow_unprogrammable = 1;
			break;
		case 'Y':
		case 'M':
		case 'K':
		case 'D':
		case 'F':
		case 'R':
			if (parse_policy_option(command, option, optarg, request))
				return -1;
			break;
		default:
			cli_unknown_option(command, argv, optopt);
			return -1;
		}
	}
	return 0;
}

/* The options that only some engines accept, given in the request. */
static unsigned engine_options_given(const struct vlr_engine_options *options)
{
	return (options->policy.kind ? VLR_ENGINE_OPT_VL_POLICY : 0) |
	       (options->dim_order_count ? VLR_ENGINE_OPT_DIM_ORDER : 0) |
	       (options->family ? VLR_ENGINE_OPT_FAMILY : 0) |
	       (options->restricted >= 0 ? VLR_ENGINE_OPT_RESTRICTED : 0) |
	       (options->allow_unprogrammable ? VLR_ENGINE_OPT_UNPROGRAMMABLE : 0) |
	       (options->no_escape ? VLR_ENGINE_OPT_NO_ESCAPE : 0);
}

/* "--vl-policy and --family are for the minimal and valiant engines": those given. */
static void refuse_engine_options(const char *command, unsigned refused)
{
	char flags[256], names[512];
	unsigned count, i, n, listed = 0, flag_count = 0;
	const struct vlr_engine *engines = vlr_engines(&count);
	size_t f;

	for (f = 0; f < ENGINE_FLAGS; f++)
		flag_count += (refused & engine_flags[f].option) != 0;
	for (f = 0, n = 0; f < ENGINE_FLAGS; f++)
		if (refused & engine_flags[f].option)
			cli_list_add(flags, sizeof(flags), n++, flag_count, ", ", " and ",
				     engine_flags[f].flag);
	for (i = 0; i < count; i++)
		listed += (engines[i].options & refused) != 0;
	for (i = 0, n = 0; i < count; i++)
		if (engines[i].options & refused)
			cli_list_add(names, sizeof(names), n++, listed, ", ", " and ",
				     engines[i].name);
	cli_error(command, "%s %s for the %s engine%s", flags, flag_count > 1 ? "are" : "is",
		  names, listed > 1 ? "s" : "");
}

static int check_engine(const char *command, const struct route_request *request)
{
	char names[512];
	unsigned refusable = 0;
	size_t f;

	if (!request->engine && request->engine_name) {
		cli_engine_names(names, sizeof(names), ", ", " or ");
		cli_error(command, "--engine is %s, not \"%s\"", names, request->engine_name);
		return -1;
	}
	if (!request->engine) {
		cli_engine_names(names, sizeof(names), "|", "|");
		cli_error(command, "missing --engine %s", names);
		return -1;
	}
	for (f = 0; f < ENGINE_FLAGS; f++)
		refusable |= engine_flags[f].option & ~request->engine->options;
	if (engine_options_given(&request->options) & refusable) {
		refuse_engine_options(command, engine_options_given(&request->options) & refusable);
		return -1;
	}
	return 0;
}

static int check_request(const char *command, int argc, char **argv,
			 struct route_request *request)
{
	if (argc - optind != 1) {
		cli_error(command, "needs exactly one FABRIC file (see --help)");
		return -1;
	}
	request->fabric_path = argv[optind];
	if (check_engine(command, request))
		return -1;
	if (request->phase_options_given &&
	    request->options.policy.kind != VLR_VLP_TWO_PHASES) {
		cli_error(command, "--phase-min and --vls-per-phase need --vl-policy 2phases");
		return -1;
	}
	if (!request->output) {
		cli_error(command, "missing -o DIR");
		return -1;
	}
	if (request->guid2lid && request->lmc_given) {
		cli_error(command, "--lmc and --guid2lid exclude each other: the LMC "
			  "comes from the guid2lid file");
		return -1;
	}
	return 0;
}

/* LIDs: offline and deterministic, or OpenSM's. */
static int give_lids(const char *command, struct vlr_fabric *fabric,
		     const struct route_request *request)
{
	struct vlr_guid2lid_notes notes;
	struct vlr_error err;

	if (request->guid2lid ?
	    vlr_guid2lid_read(fabric, request->guid2lid, &notes, &err) :
	    vlr_fabric_assign_lids(fabric, (unsigned)request->lmc, &err)) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	if (request->guid2lid && notes.unknown)
		cli_error(command, "note: %u guid2lid entries name ports not in the "
			  "fabric (first at %s); they were skipped", notes.unknown,
			  notes.first_unknown);
	return 0;
}

/* dfsssp's escape paths: which way, how many LIDs, the tree. */
static void print_escape(const struct vlr_tables *tables, const struct vlr_engine_report *report)
{
	const char *root = vlr_node_name(tables->fabric, tables->switch_node[report->escape_root]);

	if (report->escape_whole && report->layers == 1)
		printf("escape paths:      every destination routed again, %u LIDs, ",
		       report->escaped_lids);
	else if (report->escape_whole)
		printf("escape paths:      destinations split over the %u layers, %u LIDs "
		       "routed again, ", report->layers, report->escaped_lids);
	else
		printf("escape paths:      %u LIDs on layer %u, ", report->escaped_lids,
		       report->layers - 1);
	printf("%u of them partly (%llu switch routes) along the up/down tree of switch "
	       "\"%s\"\n", report->tree_lids, (unsigned long long)report->tree_routes, root);
}

/* Whether the policy's ideal form, which the simulator can run, is deadlock-free. */
static void print_ideal_form(const struct vlr_tables *tables, enum vlr_family family)
{
	char verdict[VLR_VERIFY_CYCLE_SIZE + 64];

	if (cli_ideal_form(tables, family, verdict, sizeof(verdict)) != CLI_IDEAL_NONE)
		printf("ideal form:        %s\n", verdict);
}

static void print_low_diameter(const struct vlr_tables *tables,
			       const struct vlr_engine_report *report,
			       const struct vlr_verify_report *check)
{
	char text[256];

	vlr_family_describe(&report->family, text, sizeof(text));
	printf("topology:          %s\n", text);
	vlr_vl_policy_describe(&tables->policy, text, sizeof(text));
	printf("VL policy:         %s\n", text);
	if (tables->unprogrammable.marked) {
		vlr_unprogrammable_describe(&tables->unprogrammable, text, sizeof(text));
		printf("%s - tables for vlroute sim --vl-mode ideal only\n", text);
	} else {
		printf("SLs used:          %u\n", report->sls_used);
		printf("VLs used:          %u\n", report->vls_used);
	}
	if (report->valiant_offsets)
		printf("LID offsets:       0 minimal, 1..%u valiant, %u of them restricted "
		       "(the last)\n", report->valiant_offsets, report->restricted_offsets);
	printf("longest route:     %u switch hops\n",	/* without the host links */
	       check->hops_max >= 2 ? check->hops_max - 2 : 0);
	print_ideal_form(tables, report->family.family);
}

static void print_engine_report(const struct vlr_engine *engine,
				const struct vlr_tables *tables,
				const struct vlr_engine_report *report,
				const struct vlr_verify_report *check)
{
	printf("engine:            %s\n", engine->name);
	if (engine->needs_family)
		print_low_diameter(tables, report, check);
	if (engine->layers) {
		printf("layers:            %u (heuristic %s, %llu cycles broken, %llu "
		       "routes moved)\n", report->layers,
		       vlr_heuristic_name(report->heuristic),
		       (unsigned long long)report->cycles_broken,
		       (unsigned long long)report->routes_moved);
		if (report->escaped_lids)
			print_escape(tables, report);
		printf("VLs used:          %u\n", report->vls_used);
	}
	printf("routing time:      %.2f s paths, %.2f s layers\n", report->seconds_paths,
	       report->seconds_layers);
}

/* Route: the status to exit with if not CLI_OK. */
static int route_tables(const char *command, struct vlr_tables *tables,
			const struct route_request *request, struct vlr_engine_report *report)
{
	struct vlr_error err;

	if (!request->engine->run(tables, &request->options, report, &err))
		return CLI_OK;
	if (report->bad_input) {
		cli_error(command, "%s: %s", request->fabric_path, err.message);
		return CLI_BAD_INPUT;
	}
	cli_error(command, "%s", err.message);
	return CLI_FAILED;
}

/* Verify the routed tables and print both reports: the status to exit with. */
static int judge(const char *command, const struct vlr_tables *tables,
		 const struct route_request *request, const struct vlr_engine_report *report,
		 struct vlr_verify_report *check)
{
	const struct vlr_engine *engine = request->engine;
	struct vlr_error err;

	if (vlr_verify_threads(tables, request->options.threads > VLR_VERIFY_MAX_THREADS ?
				       VLR_VERIFY_MAX_THREADS : request->options.threads,
			       check, &err) ||
	    (engine->verify_policy && !tables->unprogrammable.marked &&
	     vlr_verify_policy(tables, check, &err))) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	print_engine_report(engine, tables, report, check);
	if (tables->unprogrammable.marked && !check->bad_routes)
		return CLI_OK;	/* only its routes and its ideal form can be judged */
	if (check->bad_routes || (engine->deadlock_free && !vlr_verify_passed(check))) {
		vlr_verify_print(check, stderr);
		cli_error(command, "the %s tables failed verification; nothing written",
			  engine->name);
		return CLI_FAILED;
	}
	if (!check->cdg_acyclic)
		cli_error(command, "warning: the %s tables are not deadlock-free (a "
			  "channel dependency cycle exists)%s%s", engine->name,
			  engine->safe_alternative ? "; use --engine " : "",
			  engine->safe_alternative ? engine->safe_alternative : "");
	return CLI_OK;
}

/* How the tables were made, for vlroute-route.info. */
static void describe_routing(const struct vlr_tables *tables,
			     const struct route_request *request,
			     const struct vlr_engine_report *report, struct vlr_route_info *info)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->engine, sizeof(info->engine), "%s", request->engine->name);
	info->seconds = report->seconds_paths + report->seconds_layers;
	if (request->engine->needs_family)	/* as print_low_diameter says it */
		vlr_vl_policy_describe(&tables->policy, info->vl_policy,
				       sizeof(info->vl_policy));
	info->lmc = tables->fabric->lmc;
	info->vls = tables->num_vls;
	info->unprogrammable = tables->unprogrammable;
}

/*
 * Writing the routed tables into dir (the temporary directory that becomes
 * the output) while they are verified: the table files, the route info,
 * then their hashes for the provenance. Nothing here prints: the caller
 * says what failed once both are done, and a directory whose tables fail
 * verification is thrown away.
 */
struct writing {
	const struct vlr_tables *tables;
	const struct route_request *request;
	const char *dir;
	struct vlr_route_info info;
	struct vlr_provenance_tables hashed;
	int result;
	struct vlr_error err;
};

static void *write_tables(void *arg)
{
	struct writing *w = arg;

	w->result = vlr_tables_write_files(w->tables, w->dir, w->request->form, &w->err) ||
		    vlr_route_info_write(w->dir, &w->info, &w->err) ||
		    vlr_tables_provenance(w->dir, w->request->fabric_path, &w->hashed, &w->err) ?
			    -1 : 0;
	return NULL;
}

/*
 * Verify and write at once where there are two threads (the writing is
 * thrown away if the verification fails), one after the other on one.
 */
static int judge_and_write(const char *command, const struct vlr_tables *tables,
			   const struct route_request *request,
			   const struct vlr_engine_report *report, struct writing *w)
{
	struct vlr_verify_report check;
	pthread_t writer;
	int started = (request->options.threads ? request->options.threads :
					       sysconf(_SC_NPROCESSORS_ONLN)) > 1 &&
		      !pthread_create(&writer, NULL, write_tables, w);
	int status = judge(command, tables, request, report, &check);

	if (started)
		pthread_join(writer, NULL);
	else if (status == CLI_OK)
		write_tables(w);
	if (status == CLI_OK && w->result) {
		cli_error(command, "%s; %s is left as it was", w->err.message, request->output);
		return CLI_FAILED;
	}
	return status;
}

/* Route, check, write the files into dir: the status to exit with. */
static int route_and_write(const char *command, struct vlr_tables *tables,
			   const struct route_request *request, const char *dir,
			   char hash[VLR_SHA256_HEX])
{
	struct vlr_engine_report report;
	struct writing w;
	int status = route_tables(command, tables, request, &report);

	if (status != CLI_OK)
		return status;
	memset(&w, 0, sizeof(w));
	w.tables = tables;
	w.request = request;
	w.dir = dir;
	describe_routing(tables, request, &report, &w.info);
	status = judge_and_write(command, tables, request, &report, &w);
	if (status != CLI_OK)
		return status;
	if (cli_provenance_dir_write(command, request->command_line, dir, request->output,
				     &w.hashed, hash)) {
		cli_error(command, "%s is left as it was", request->output);
		return CLI_FAILED;
	}
	return CLI_OK;
}

/*
 * A fabric that cannot be routed is refused before its tables are
 * allocated: SL2VL alone takes (ports + 1)^2 * 16 bytes per switch, 2 GB
 * for 2000 unlinked 254-port switches.
 */
static int check_connected(const char *command, const struct vlr_fabric *fabric)
{
	struct vlr_switch_graph graph;
	struct vlr_error err;
	int result = vlr_switch_graph_build(fabric, &graph, &err);

	if (!result) {
		result = vlr_switch_graph_check_connected(&graph, &err);
		vlr_switch_graph_free(&graph);
	}
	if (result)
		cli_error(command, "%s", err.message);
	return result;
}

/* Read, route, check and write the tables into dir: the status to exit with. */
static int route_into(const char *command, const struct route_request *request,
		      const char *dir, char hash[VLR_SHA256_HEX])
{
	struct vlr_fabric *fabric;
	struct vlr_tables *tables;
	struct vlr_error err;
	int status;

	fabric = cli_read_fabric(command, request->fabric_path);
	if (!fabric)
		return CLI_BAD_INPUT;
	if (give_lids(command, fabric, request)) {
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	if (check_connected(command, fabric)) {
		vlr_fabric_free(fabric);
		return CLI_FAILED;
	}
	tables = vlr_tables_new(fabric, (unsigned)request->vls, &err);
	if (!tables) {
		cli_error(command, "%s", err.message);
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	tables->owns_fabric = 1;
	status = route_and_write(command, tables, request, dir, hash);
	vlr_tables_free(tables);
	return status;
}

/*
 * The table directory is locked before anything is read, so that a
 * second route into it is refused at once, and replaced whole at the end.
 */
int cmd_route(int argc, char **argv, const char *command_line)
{
	const char *command = "vlroute route";
	struct route_request request;
	char hash[VLR_SHA256_HEX];
	struct vlr_whole_dir out;
	struct vlr_error err;
	int parsed, status;

	memset(&request, 0, sizeof(request));
	request.command_line = command_line;
	vlr_engine_options_init(&request.options);
	request.vls = 8;
	parsed = parse_route_options(command, argc, argv, &request);
	if (parsed)
		return parsed > 0 ? CLI_OK : CLI_BAD_INPUT;
	if (check_request(command, argc, argv, &request))
		return CLI_BAD_INPUT;
	if (vlr_tables_dir_open(&out, request.output, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	status = route_into(command, &request, out.temporary, hash);
	if (vlr_whole_dir_close(&out, status != CLI_OK, &err)) {
		if (status == CLI_OK)
			cli_error(command, "%s", err.message);
		return status == CLI_OK ? CLI_FAILED : status;
	}
	printf("tables:            %s\n", request.output);
	printf("table-set hash:    %s\n", hash);
	return CLI_OK;
}
