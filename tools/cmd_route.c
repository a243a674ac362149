/*
 * cmd_route.c - "vlroute route FABRIC --engine E -o DIR": route a fabric
 * offline, verify the result in memory, and write the tables in OpenSM's
 * formats (plus our path-SL file) so a stock OpenSM can program them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static const char route_usage[] =
	"Usage: vlroute route FABRIC --engine sssp|dfsssp -o DIR [OPTIONS]\n"
	"Route FABRIC (ibsim net file or ibnetdiscover output), verify the tables\n"
	"and write them to DIR: fabric.net, guid2lid, opensm-lfts.dump,\n"
	"opensm-sl2vl.dump, vlroute-path-sl.dump and vlroute-route.info.\n"
	"  -e, --engine E        sssp (balanced shortest paths) or dfsssp\n"
	"                        (deadlock-free: SL = virtual layer)\n"
	"  -o, --output DIR      directory to write (created if missing)\n"
	"  -l, --lmc N           LIDs per CA port 2^N, assigned offline (0..7, default 0)\n"
	"  -g, --guid2lid FILE   take the LIDs from OpenSM's guid2lid file instead\n"
	"  -v, --vls N           data VLs the fabric offers (1..15, default 8)\n"
	"  -H, --heuristic H     dfsssp cycle cut: weakest (default), strongest,\n"
	"                        first, or all (try each, keep the fewest layers)\n"
	"      --no-balance      dfsssp: do not spread routes over spare VLs\n"
	"Exit status: 0 routed, 1 could not route or write, 2 bad input.\n";

struct route_request {
	const char *fabric_path;
	const char *output;
	const char *guid2lid;
	const char *engine;
	unsigned long long lmc;
	unsigned long long vls;
	int lmc_given;
	struct vlr_engine_options options;
};

static int parse_heuristic(const char *command, const char *text,
			   enum vlr_heuristic *heuristic)
{
	static const enum vlr_heuristic known[] = {
		VLR_HEURISTIC_WEAKEST, VLR_HEURISTIC_STRONGEST, VLR_HEURISTIC_FIRST,
		VLR_HEURISTIC_ALL,
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(text, vlr_heuristic_name(known[i]))) {
			*heuristic = known[i];
			return 0;
		}
	cli_error(command, "--heuristic is weakest, strongest, first or all, not \"%s\"",
		  text);
	return -1;
}

static int parse_route_options(const char *command, int argc, char **argv,
			       struct route_request *request)
{
	static const struct option options[] = {
		{ "engine", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "guid2lid", required_argument, NULL, 'g' },
		{ "vls", required_argument, NULL, 'v' },
		{ "heuristic", required_argument, NULL, 'H' },
		{ "no-balance", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	optind = 1;
	opterr = 0;
	while ((option = getopt_long(argc, argv, "e:o:l:g:v:H:", options, NULL)) != -1) {
		switch (option) {
		case 'h':
			cli_usage(stdout, route_usage, CLI_OK);
			return 1;
		case 'e':
			request->engine = optarg;
			break;
		case 'o':
			request->output = optarg;
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
			if (parse_heuristic(command, optarg, &request->options.heuristic))
				return -1;
			break;
		case 'B':
			request->options.no_balance = 1;
			break;
		default:
			cli_unknown_option(command, argv, optopt);
			return -1;
		}
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
	if (!request->engine || (strcmp(request->engine, "sssp") &&
				 strcmp(request->engine, "dfsssp"))) {
		cli_error(command, request->engine ?
			  "--engine is sssp or dfsssp, not \"%s\"" :
			  "missing --engine sssp|dfsssp%s", request->engine ?
			  request->engine : "");
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

static void print_engine_report(const char *engine, const struct vlr_engine_report *report)
{
	printf("engine:            %s\n", engine);
	if (!strcmp(engine, "dfsssp")) {
		printf("layers:            %u (heuristic %s, %llu cycles broken, %llu "
		       "routes moved)\n", report->layers,
		       vlr_heuristic_name(report->heuristic),
		       (unsigned long long)report->cycles_broken,
		       (unsigned long long)report->routes_moved);
		printf("VLs used:          %u\n", report->vls_used);
	}
	printf("routing time:      %.2f s paths, %.2f s layers\n", report->seconds_paths,
	       report->seconds_layers);
}

/* Route, check, write: the status to exit with. */
static int route_and_write(const char *command, struct vlr_tables *tables,
			   const struct route_request *request)
{
	struct vlr_engine_report report;
	struct vlr_verify_report check;
	struct vlr_route_info info;
	struct vlr_error err;
	int dfsssp = !strcmp(request->engine, "dfsssp");

	if ((dfsssp ? vlr_route_dfsssp : vlr_route_sssp)(tables, &request->options,
							   &report, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	print_engine_report(request->engine, &report);
	if (vlr_verify(tables, &check, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	if (check.bad_routes || (dfsssp && !vlr_verify_passed(&check))) {
		vlr_verify_print(&check, stderr);
		cli_error(command, "the %s tables failed verification; nothing written",
			  request->engine);
		return CLI_FAILED;
	}
	if (!check.cdg_acyclic)
		cli_error(command, "warning: the sssp tables are not deadlock-free (a "
			  "channel dependency cycle exists); use --engine dfsssp");
	snprintf(info.engine, sizeof(info.engine), "%s", request->engine);
	info.seconds = report.seconds_paths + report.seconds_layers;
	if (vlr_tables_write_dir(tables, request->output, &err) ||
	    vlr_route_info_write(request->output, &info, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	printf("tables:            %s\n", request->output);
	return CLI_OK;
}

int cmd_route(int argc, char **argv)
{
	const char *command = "vlroute route";
	struct route_request request;
	struct vlr_fabric *fabric;
	struct vlr_tables *tables;
	struct vlr_error err;
	int parsed, status;

	memset(&request, 0, sizeof(request));
	request.vls = 8;
	parsed = parse_route_options(command, argc, argv, &request);
	if (parsed)
		return parsed > 0 ? CLI_OK : CLI_BAD_INPUT;
	if (check_request(command, argc, argv, &request))
		return CLI_BAD_INPUT;
	fabric = cli_read_fabric(command, request.fabric_path);
	if (!fabric)
		return CLI_BAD_INPUT;
	if (give_lids(command, fabric, &request)) {
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	tables = vlr_tables_new(fabric, (unsigned)request.vls, &err);
	if (!tables) {
		cli_error(command, "%s", err.message);
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	tables->owns_fabric = 1;
	status = route_and_write(command, tables, &request);
	vlr_tables_free(tables);
	return status;
}
