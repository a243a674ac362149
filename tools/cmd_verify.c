/*
 * cmd_verify.c - "vlroute verify DIR": prove a table set (ours, an OpenSM
 * dump directory, or one captured from a live fabric) delivers every route
 * and is deadlock-free, and measure its routes.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

static const char verify_usage[] =
	"Usage: vlroute verify DIR [--fabric FILE] [--vls N] [--json FILE]\n"
	"Check the tables in DIR (written by vlroute route, or an OpenSM\n"
	"dump_files_dir): every CA port reaches every LID without loop or dead\n"
	"end, and the channel dependency graph over (link, VL) is acyclic.\n"
	"Print hops, routes per channel, VLs and SLs used; on a cycle print it.\n"
	"Tables routed with --allow-unprogrammable fail as not programmable;\n"
	"their routes and their VL policy's ideal form are still checked.\n"
	"  -f, --fabric FILE   topology to use instead of DIR/fabric.net or\n"
	"                      DIR/opensm-subnet.lst\n"
	"  -v, --vls N         data VLs the fabric offers, 1..15 (default: as the\n"
	"                      tables were routed (vlroute-route.info), else 8)\n"
	"  -J, --json FILE     also write the report as JSON, with its provenance\n"
	"                      (- for stdout, the text report then on stderr)\n"
	CLI_NODE_NAME_MAP_HELP
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n"
	"Exit status: 0 verified, 1 a route fails, a cycle exists or the tables\n"
	"are not programmable, 2 bad input.\n";

/* The short options of earlier releases. */
static const struct cli_renamed verify_renamed[] = {
	{ 'j', 'J', "FILE", "json", NULL, NULL },
	{ 0 },
};

static void print_sources(const struct vlr_tables_dir_notes *notes, const char *name_map,
			  unsigned named, unsigned nodes, int marked, FILE *out)
{
	int compact = !strcmp(notes->lfts, VLR_FILE_LFTS_COMPACT);

	fprintf(out, "topology:          %s\n", notes->topology);
	if (strcmp(notes->lfts, VLR_FILE_LFTS) && !compact)
		fprintf(out, "LFTs from:         %s\n", notes->lfts);
	if (name_map)
		fprintf(out, "node names:        %u of %u nodes from %s\n", named, nodes,
			name_map);
	fprintf(out, "LIDs from:         %s\n", notes->has_guid2lid ? "guid2lid" :
		notes->lmc_inferred ? "the topology, LMC from the LFT dump" : "the topology");
	if (marked)
		return;		/* tables without SLs, which the report says */
	if (!notes->has_sl2vl)
		fprintf(out, "note:              no %s: SL i uses VL i\n",
			compact ? VLR_FILE_SL2VL_COMPACT : VLR_FILE_SL2VL);
	if (!notes->has_path_sl)
		fprintf(out, "note:              no %s: every route uses SL 0 (OpenSM "
			"writes no path SLs)\n",
			compact ? VLR_FILE_PATH_SL_COMPACT : VLR_FILE_PATH_SL);
}

/* Tables for ideal VLs only: whether that form is deadlock-free. */
static void print_ideal_form(const struct vlr_tables *tables, FILE *out)
{
	char verdict[VLR_VERIFY_CYCLE_SIZE + 64];

	if (cli_ideal_form(tables, VLR_FAMILY_NONE, verdict, sizeof(verdict)) != CLI_IDEAL_NONE)
		fprintf(out, "ideal form: %s\n", verdict);
}

/* The report as JSON, with the provenance of the tables in dir. */
static int write_json(const char *command, const char *command_line,
		      const struct vlr_verify_report *report, const char *dir,
		      const char *fabric, const char *path)
{
	struct vlr_provenance provenance;
	struct vlr_whole_file file;
	FILE *out;
	int status = -1;

	if (cli_provenance_init(command, command_line, &provenance))
		return -1;
	if (!cli_provenance_tables(command, &provenance, dir, fabric) &&
	    (out = cli_result_open(command, path, &file)) != NULL)
		status = cli_result_close(command, path, &file, out,
					  vlr_verify_write_json(report, &provenance, out));
	vlr_provenance_free(&provenance);
	return status;
}

int cmd_verify(int argc, char **argv, const char *command_line)
{
	static const struct option options[] = {
		{ "fabric", required_argument, NULL, 'f' },
		{ "vls", required_argument, NULL, 'v' },
		{ "json", required_argument, NULL, 'J' },
		{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *command = "vlroute verify", *fabric_path = NULL, *json = NULL;
	const char *name_map = NULL;
	unsigned named;
	struct vlr_tables_dir_notes notes;
	struct vlr_verify_report report;
	unsigned long long vls = 0;	/* as DIR/vlroute-route.info says */
	struct vlr_tables *tables;
	struct vlr_error err;
	int option, status;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "f:v:J:j:Vh", options,
				    verify_renamed)) != -1) {
		if (option == 'h')
			return cli_usage(stdout, verify_usage, CLI_OK);
		if (option == 'V')
			return cli_version();
		if (option == 'f')
			fabric_path = optarg;
		else if (option == 'J')
			json = optarg;
		else if (option == CLI_OPT_NODE_NAME_MAP)
			name_map = optarg;
		else if (option != 'v' ||
			 cli_unsigned(command, "--vls", optarg, 1, VLR_MAX_DATA_VLS, &vls)) {
			if (option != 'v')
				cli_unknown_option(command, argv, optopt);
			return CLI_BAD_INPUT;
		}
	}
	if (argc - optind != 1) {
		cli_error(command, "needs exactly one table directory (see --help)");
		return CLI_BAD_INPUT;
	}
	tables = vlr_tables_read_dir(argv[optind], fabric_path, (unsigned)vls, &notes, &err);
	if (!tables) {
		cli_error(command, "%s", err.message);
		return CLI_BAD_INPUT;
	}
	if (cli_rename_nodes(command, name_map, tables->fabric, &named)) {
		vlr_tables_free(tables);
		return CLI_BAD_INPUT;
	}
	print_sources(&notes, name_map, named, tables->fabric->num_nodes,
		      tables->unprogrammable.marked, cli_report_stream(json));
	if (vlr_verify(tables, &report, &err)) {
		cli_error(command, "%s", err.message);
		vlr_tables_free(tables);
		return CLI_FAILED;
	}
	vlr_verify_print(&report, cli_report_stream(json));
	if (tables->unprogrammable.marked)
		print_ideal_form(tables, cli_report_stream(json));
	status = vlr_verify_passed(&report) ? CLI_OK : CLI_FAILED;
	if (json && write_json(command, command_line, &report, argv[optind], notes.topology,
			       json))
		status = CLI_FAILED;
	vlr_tables_free(tables);
	return status;
}
