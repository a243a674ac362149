/*
 * cmd_capture.c - "vlroute capture -o DIR": read a running fabric back
 * through a local CA port (directed-route SMPs, and PathRecords from the
 * SA when a subnet manager runs) and write the table directory the
 * engines write, so that "vlroute verify DIR" judges a live fabric.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

static const char capture_usage[] =
	"Usage: vlroute capture -o DIR [-C CA] [-P PORT] [--timeout MS] [--retries N]\n"
	"                       [--window N] [--no-sa | --sa-sample N]\n"
	"Read the fabric behind a local CA port with directed-route SMPs through\n"
	"libibumad (no subnet manager needed for that): nodes, links, LIDs, every\n"
	"switch's LFT and SL2VL tables; and, when a subnet manager runs, the path\n"
	"SL of every (source port, DLID) from its SA. Write them to DIR as vlroute\n"
	"route does: fabric.net, guid2lid, vlroute-lfts.bin, vlroute-sl2vl.bin and\n"
	"vlroute-path-sl.bin (with --text-dumps opensm-lfts.dump, opensm-sl2vl.dump\n"
	"and vlroute-path-sl.dump instead); then \"vlroute verify DIR\" judges the\n"
	"live fabric.\n"
	"  -o, --output DIR    directory to write (created if missing)\n"
	"      --text-dumps    write OpenSM's text dumps instead of the compact files\n"
	"  -C, --ca CA         the CA to use (default: libibumad's first usable one)\n"
	"  -P, --port PORT     its port (default: its first usable one)\n"
	"  -t, --timeout MS    wait this long for each answer (1..60000, default 1000)\n"
	"  -r, --retries N     send an unanswered MAD again up to N times (0..20,\n"
	"                      default 3)\n"
	"  -W, --window N      MADs in flight at once (1..256, default 16)\n"
	"      --no-sa         do not ask the SA: every path SL is written as 0\n"
	"      --sa-sample N   ask the SA about every DLID only for the first source\n"
	"                      port of each switch; give the others their switch's\n"
	"                      SLs when N sampled DLIDs agree, else ask about all\n"
	"                      (1..4096; default: ask about every pair)\n"
	"      --node-name-map FILE  name the local node by this rdma-core node-name\n"
	"                      map in the summary (the files keep NodeDescriptions)\n"
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n"
	"Exit status: 0 captured, 1 the capture failed (no answer, the fabric\n"
	"changed during the capture, cannot write), 2 bad options or no such CA\n"
	"or port.\n";

/* The short options of earlier releases. */
static const struct cli_renamed capture_renamed[] = {
	{ 'w', 'W', "N", "window", NULL, NULL },
	{ 0 },
};

struct capture_request {
	const char *output;
	const char *name_map;
	enum vlr_tables_form form;
	unsigned long long port, timeout, retries, window, sample;
	struct vlr_capture_options options;
};

static int parse_number(const char *command, int option, const char *text,
			struct capture_request *request)
{
	switch (option) {
	case 'P':
		return cli_unsigned(command, "--port", text, 0, 254, &request->port);
	case 't':
		return cli_unsigned(command, "--timeout", text, 1, 60000, &request->timeout);
	case 'r':
		return cli_unsigned(command, "--retries", text, 0, 20, &request->retries);
	case 'm':
		return cli_unsigned(command, "--sa-sample", text, 1, 4096, &request->sample);
	default:
		break;
	}
	return cli_unsigned(command, "--window", text, 1, VLR_CAPTURE_MAX_WINDOW,
			    &request->window);
}

/* 0 to capture, 1 when --help or --version was printed, -1 on bad options. */
static int parse_capture_options(const char *command, int argc, char **argv,
				 struct capture_request *request)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "text-dumps", no_argument, NULL, 'T' },
		{ "ca", required_argument, NULL, 'C' },
		{ "port", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 't' },
		{ "retries", required_argument, NULL, 'r' },
		{ "window", required_argument, NULL, 'W' },
		{ "no-sa", no_argument, NULL, 'S' },
		{ "sa-sample", required_argument, NULL, 'm' },
		{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "o:C:P:t:r:W:Vhw:", options,
				    capture_renamed)) != -1) {
		if (option == 'h') {
			cli_usage(stdout, capture_usage, CLI_OK);
			return 1;
		}
		if (option == 'V') {
			cli_version();
			return 1;
		}
		if (option == 'o')
			request->output = optarg;
		else if (option == 'C')
			request->options.ca = optarg;
		else if (option == 'S')
			request->options.no_sa = 1;
		else if (option == 'T')
			request->form = VLR_TABLES_TEXT;
		else if (option == CLI_OPT_NODE_NAME_MAP)
			request->name_map = optarg;
		else if (option == '?' || option == ':') {
			cli_unknown_option(command, argv, optopt);
			return -1;
		} else if (parse_number(command, option, optarg, request)) {
			return -1;
		}
	}
	if (optind != argc) {
		cli_error(command, "takes no operands (\"%s\"); see --help", argv[optind]);
		return -1;
	}
	if (!request->output) {
		cli_error(command, "missing -o DIR");
		return -1;
	}
	if (request->sample && request->options.no_sa) {
		cli_error(command, "--no-sa and --sa-sample exclude each other");
		return -1;
	}
	return 0;
}

static const char *sls_text(const struct vlr_capture_report *report, char *buf,
			    size_t size)
{
	char sampled[64];

	switch (report->path_sls) {
	case VLR_SLS_NOT_ASKED:
		return "not asked (--no-sa): every route uses SL 0";
	case VLR_SLS_NO_SM:
		return "no subnet manager (MasterSMLID 0): every route uses SL 0";
	case VLR_SLS_FROM_SA:
		break;
	}
	snprintf(sampled, sizeof(sampled), " (%u given their switch's SLs after "
		 "sampling)", report->sampled);
	snprintf(buf, size, "from the SA at LID %u: %u source ports%s, %u distinct rows%s",
		 report->sm_lid, report->sources, report->sampled ? sampled : "",
		 report->sl_rows, report->sa_per_pair ? "; asked pair by pair, as "
		 "GetTable answers came cut to one MAD" : "");
	return buf;
}

static void print_report(const struct vlr_capture_report *report, const char *output)
{
	char sls[320];

	printf("local port:        %s port %u, on \"%s\"\n", report->ca, report->port,
	       report->local_node);
	printf("fabric:            %u switches, %u channel adapters and routers, %u links\n",
	       report->switches, report->endpoints, report->links);
	printf("data VLs:          %u (the fewest a linked port runs)\n", report->num_vls);
	printf("path SLs:          %s\n", sls_text(report, sls, sizeof(sls)));
	if (report->no_path)
		printf("note:              the SA had no path for %llu (source, DLID) pairs; "
		       "they use SL 0\n", (unsigned long long)report->no_path);
	printf("MADs:              %llu SMPs, %llu SA queries, %llu sent again\n",
	       (unsigned long long)report->smps, (unsigned long long)report->sa_queries,
	       (unsigned long long)report->resent);
	printf("capture time:      %.2f s (discovery %.2f s, LFT and SL2VL %.2f s, "
	       "SA %.2f s)\n", report->seconds_total, report->seconds_discovery,
	       report->seconds_tables, report->seconds_sa);
	printf("tables:            %s\n", output);
}

/*
 * The local node by its name in the node-name map, for the summary only:
 * the files were written with the NodeDescriptions the fabric reported.
 */
static void name_local_node(const struct vlr_node_name_map *map,
			    const struct vlr_fabric *fabric, struct vlr_capture_report *report)
{
	uint32_t node = map ? vlr_fabric_find(fabric, report->local_node) : VLR_NONE;
	const char *name = node == VLR_NONE ? NULL :
			   vlr_node_name_map_get(map, fabric->nodes[node].guid);

	if (name)
		snprintf(report->local_node, sizeof(report->local_node), "%s", name);
}

/*
 * What route writes beside the tables: vlroute-route.info with the data
 * VLs the fabric runs (what verify, compare and sim then take), and
 * vlroute-provenance.json naming this command; into dir, the temporary
 * directory that becomes output. 0, or -1 having complained.
 */
static int write_notes(const char *command, const char *command_line, const char *output,
		       const struct vlr_capture_report *report, const char *dir)
{
	struct vlr_provenance_tables hashed;
	struct vlr_route_info info;
	struct vlr_error err;
	char fabric[sizeof(((struct vlr_whole_dir *)0)->temporary) + sizeof(VLR_FILE_FABRIC) + 1];

	memset(&info, 0, sizeof(info));
	info.seconds = -1;
	info.lmc = -1;
	info.vls = (int)report->num_vls;
	snprintf(fabric, sizeof(fabric), "%s/%s", dir, VLR_FILE_FABRIC);
	if (vlr_route_info_write(dir, &info, &err) ||
	    vlr_tables_provenance(dir, fabric, &hashed, &err)) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	snprintf(hashed.fabric, sizeof(hashed.fabric), "%s/%s", output, VLR_FILE_FABRIC);
	return cli_provenance_dir_write(command, command_line, dir, output, &hashed, NULL);
}

/*
 * The table directory is locked before the capture, so that a second
 * writer is refused at once, and replaced whole at the end.
 */
int cmd_capture(int argc, char **argv, const char *command_line)
{
	const char *command = "vlroute capture";
	struct capture_request request;
	struct vlr_capture_report report;
	struct vlr_node_name_map *map;
	struct vlr_tables *tables;
	struct vlr_error err;
	int parsed, status = CLI_OK;

	struct vlr_whole_dir out;
	memset(&request, 0, sizeof(request));
	vlr_capture_options_init(&request.options);
	request.timeout = request.options.timeout_ms;
	request.retries = request.options.retries;
	request.window = request.options.window;
	parsed = parse_capture_options(command, argc, argv, &request);
	if (parsed)
		return parsed > 0 ? CLI_OK : CLI_BAD_INPUT;
	request.options.port = (unsigned)request.port;
	request.options.timeout_ms = (unsigned)request.timeout;
	request.options.retries = (unsigned)request.retries;
	request.options.window = (unsigned)request.window;
	request.options.sa_sample = (unsigned)request.sample;
	if (cli_node_name_map_read(command, request.name_map, &map))
		return CLI_BAD_INPUT;
	if (vlr_tables_dir_open(&out, request.output, &err)) {
		cli_error(command, "%s", err.message);
		vlr_node_name_map_free(map);
		return CLI_FAILED;
	}
	tables = vlr_capture(&request.options, &report, &err);
	if (!tables) {
		cli_error(command, "%s", err.message);
		status = report.status == VLR_CAPTURE_NO_PORT ? CLI_BAD_INPUT : CLI_FAILED;
	} else if (vlr_tables_write_files(tables, out.temporary, request.form, &err)) {
		cli_error(command, "%s", err.message);
		status = CLI_FAILED;
	} else if (write_notes(command, command_line, request.output, &report, out.temporary)) {
		status = CLI_FAILED;
	}
	if (vlr_whole_dir_close(&out, status != CLI_OK, &err) && status == CLI_OK) {
		cli_error(command, "%s", err.message);
		status = CLI_FAILED;
	}
	if (status == CLI_OK) {
		name_local_node(map, tables->fabric, &report);
		print_report(&report, request.output);
	}
	vlr_node_name_map_free(map);
	vlr_tables_free(tables);
	return status;
}
