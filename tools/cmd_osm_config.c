/*
 * cmd_osm_config.c - "vlroute osm-config": write a commented vlroute.conf
 * with every option at its default, as "opensm -c" does for opensm.conf.
 * The options come from the plugin's own table of keys (vlroute_conf.h),
 * the one its reader parses with, so that the file written is always one
 * the plugin reads back to exactly its defaults.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "config.h"

#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "vlroute_conf.h"

static const char osm_config_usage[] =
	"Usage: vlroute osm-config [-o FILE]\n"
	"Write a vlroute.conf, the options of the OpenSM plugin's routing engines\n"
	"(see vlroute.conf(5)), with every option at its default and a comment\n"
	"saying what it does, its values and its default. The plugin reads\n"
	VLR_OSM_DEFAULT_CONF ".\n"
	"  -o, --output FILE   write to FILE instead of stdout (- for stdout)\n"
	"  -V, --version       print the version and exit\n"
	"  -h, --help          print this help and exit\n";

static const char header[] =
	"# vlroute.conf - the options of vlroute's OpenSM routing engines\n"
	"# vlr_dfsssp, vlr_sssp, vlr_minimal, vlr_valiant and vlr_file;\n"
	"# see vlroute.conf(5).\n"
	"#\n"
	"# Written by \"vlroute osm-config\" (" PACKAGE_STRING ") with every option\n"
	"# at its default. The plugin reads " VLR_OSM_DEFAULT_CONF ",\n"
	"# or the file named by VLROUTE_OSM_CONF, at every heavy sweep of OpenSM\n"
	"# (SIGHUP forces one). One \"KEY VALUE\" a line; a line starting with \"#\"\n"
	"# is a comment. An option whose default is not a value of its own (or\n"
	"# that needs another option) is commented out with an example value:\n"
	"# remove the \"#\" to set it.\n";

/* text as comment lines, before prefixed to the first and after appended. */
static void put_comment(FILE *out, const char *before, const char *text,
			const char *after)
{
	const char *end;

	fprintf(out, "# %s", before);
	for (; (end = strchr(text, '\n')); text = end + 1) {
		fprintf(out, "%.*s", (int)(end - text), text);
		if (end[1])
			fputs("\n# ", out);
	}
	fprintf(out, "%s%s\n", text, after);
}

static void put_key(FILE *out, const struct vlr_osm_conf_key *key)
{
	fprintf(out, "\n# %s %s\n", key->key, key->synopsis);
	put_comment(out, "", key->help, "");
	put_comment(out, "Default: ", key->default_text, ".");
	fprintf(out, "%s%s %s\n", key->is_default ? "" : "#", key->key, key->value);
}

static int write_conf(const char *command, const char *path)
{
	struct vlr_whole_file file;
	FILE *out = cli_result_open(command, path, &file);
	const struct vlr_osm_conf_key *keys;
	size_t count, i;

	if (!out)
		return CLI_FAILED;
	keys = vlr_osm_conf_keys(&count);
	fputs(header, out);
	for (i = 0; i < count; i++)
		put_key(out, &keys[i]);
	if (cli_result_close(command, path, &file, out,
			     ferror(out) | (out == stdout && fflush(out))))
		return CLI_FAILED;
	return CLI_OK;
}

int cmd_osm_config(int argc, char **argv, const char *command_line)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *command = "vlroute osm-config", *path = "-";
	int option;

	(void)command_line;	/* a configuration file, no result */
	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "o:Vh", options, NULL)) != -1) {
		switch (option) {
		case 'o':
			path = optarg;
			break;
		case 'V':
			return cli_version();
		case 'h':
			return cli_usage(stdout, osm_config_usage, CLI_OK);
		default:
			cli_unknown_option(command, argv, optopt);
			return CLI_BAD_INPUT;
		}
	}
	if (optind != argc) {
		cli_error(command, "takes no operands, found \"%s\" (see --help)",
			  argv[optind]);
		return CLI_BAD_INPUT;
	}
	return write_conf(command, path);
}
