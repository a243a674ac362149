/*
 * cmd_convert.c - "vlroute convert DIR --to text|compact": a table
 * directory's LFTs, SL2VL and path SLs rewritten in the other form - the
 * text dumps OpenSM reads, or the compact files (vlroute-tables(5)) - and
 * the directory replaced whole (or written whole to another), with a new
 * vlroute-provenance.json: the table-set hash depends on the form.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

static const char convert_usage[] =
	"Usage: vlroute convert DIR --to text|compact [-o OUT]\n"
	"Rewrite the table directory DIR (written by vlroute route or capture) with\n"
	"its LFTs, SL2VL and path SLs in the form asked for:\n"
	"  text     opensm-lfts.dump and opensm-sl2vl.dump, what \"opensm -R file\"\n"
	"           loads, and vlroute-path-sl.dump;\n"
	"  compact  vlroute-lfts.bin, vlroute-sl2vl.bin and vlroute-path-sl.bin, the\n"
	"           same tables hundreds of times smaller (vlroute-tables(5)).\n"
	"The other files are copied; vlroute-provenance.json is written anew with\n"
	"this command line and the new table-set hash, which depends on the form.\n"
	"DIR is replaced whole, or with -o left as it is and OUT written whole.\n"
	"      --to FORM       text or compact\n"
	"  -o, --output OUT    write OUT (created if missing) instead of replacing DIR\n"
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n"
	"Exit status: 0 converted, 1 DIR cannot be read or OUT written, 2 bad\n"
	"options.\n";

#define OPT_TO 0x544f

struct convert_request {
	const char *command_line;
	const char *dir;
	const char *output;
	int form_given;
	enum vlr_tables_form form;
};

static int parse_form(const char *command, const char *text, struct convert_request *request)
{
	if (!strcmp(text, "text"))
		request->form = VLR_TABLES_TEXT;
	else if (!strcmp(text, "compact"))
		request->form = VLR_TABLES_COMPACT;
	else {
		cli_error(command, "--to is text or compact, not \"%s\"", text);
		return -1;
	}
	request->form_given = 1;
	return 0;
}

/* 0 to convert, 1 when --help or --version was printed, -1 on bad options. */
static int parse_convert_options(const char *command, int argc, char **argv,
				 struct convert_request *request)
{
	static const struct option options[] = {
		{ "to", required_argument, NULL, OPT_TO },
		{ "output", required_argument, NULL, 'o' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int option;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "o:Vh", options, NULL)) != -1) {
		if (option == 'h') {
			cli_usage(stdout, convert_usage, CLI_OK);
			return 1;
		}
		if (option == 'V') {
			cli_version();
			return 1;
		}
		if (option == 'o')
			request->output = optarg;
		else if (option == OPT_TO) {
			if (parse_form(command, optarg, request))
				return -1;
		} else {
			cli_unknown_option(command, argv, optopt);
			return -1;
		}
	}
	if (argc - optind != 1) {
		cli_error(command, "needs exactly one table directory DIR (see --help)");
		return -1;
	}
	request->dir = argv[optind];
	if (!request->form_given) {
		cli_error(command, "missing --to text|compact");
		return -1;
	}
	return 0;
}

/* The converted files and a new provenance into dir: the new hash into hash. */
static int convert_into(const char *command, const struct convert_request *request,
			const char *dir, const char *output, char hash[VLR_SHA256_HEX])
{
	struct vlr_tables_dir_notes notes;
	struct vlr_provenance_tables hashed;
	struct vlr_error err;

	if (vlr_tables_convert_files(request->dir, request->form, dir, &notes, &err) ||
	    vlr_tables_provenance(dir, notes.topology, &hashed, &err)) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	return cli_provenance_dir_write(command, request->command_line, dir, output, &hashed,
					hash);
}

int cmd_convert(int argc, char **argv, const char *command_line)
{
	const char *command = "vlroute convert";
	char before[VLR_SHA256_HEX], after[VLR_SHA256_HEX];
	struct convert_request request;
	struct vlr_whole_dir out;
	struct vlr_error err;
	const char *output;
	int parsed, failed;

	memset(&request, 0, sizeof(request));
	request.command_line = command_line;
	parsed = parse_convert_options(command, argc, argv, &request);
	if (parsed)
		return parsed > 0 ? CLI_OK : CLI_BAD_INPUT;
	output = request.output ? request.output : request.dir;
	if (vlr_tables_dir_hash(request.dir, before, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	if (vlr_tables_dir_open(&out, output, &err)) {
		cli_error(command, "%s", err.message);
		return CLI_FAILED;
	}
	failed = convert_into(command, &request, out.temporary, output, after);
	if (vlr_whole_dir_close(&out, failed, &err)) {
		if (!failed)
			cli_error(command, "%s", err.message);
		cli_error(command, "%s is left as it was", output);
		return CLI_FAILED;
	}
	printf("tables:            %s\n", output);
	printf("form:              %s\n", request.form == VLR_TABLES_TEXT ? "text" : "compact");
	printf("table-set hash:    %s (was %s)\n", after, before);
	return CLI_OK;
}
