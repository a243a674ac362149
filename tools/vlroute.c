/*
 * vlroute.c - the vlroute command: dispatch to a subcommand, with the
 * command line as typed (getopt reorders argv) for the provenance of its
 * results.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv, const char *command_line);
	const char *summary;
	const char *after_engines;	/* if set: the engines' names in parentheses
					   follow summary, then this */
};

static const struct subcommand subcommands[] = {
	{ "gen", cmd_gen, "generate a fabric (HyperX, Dragonfly, Dragonfly+, fat tree, "
	  "torus, random)", NULL },
	{ "info", cmd_info, "summarise a fabric: counts, radix, diameter, family", NULL },
	{ "route", cmd_route, "route a fabric", ", write its tables" },
	{ "verify", cmd_verify, "check tables: reachability, loops, deadlock freedom", NULL },
	{ "capture", cmd_capture, "read a running fabric's tables into a table directory", NULL },
	{ "convert", cmd_convert, "rewrite a table directory as OpenSM's text dumps or "
	  "compact", NULL },
	{ "analyze", cmd_analyze, "rate tables: effective bisection bandwidth, link load", NULL },
	{ "compare", cmd_compare, "put several table sets side by side in a Markdown report", NULL },
	{ "sim", cmd_sim, "replay tables in the cycle-accurate simulator", NULL },
	{ "experiment", cmd_experiment, "run sweeps described in a file, resumably, here or "
	  "on Slurm", NULL },
	{ "osm-config", cmd_osm_config, "write a commented vlroute.conf at the defaults", NULL },
};

static void print_summary(FILE *out, const struct subcommand *subcommand)
{
	char names[512];

	fprintf(out, "  %-10s %s", subcommand->name, subcommand->summary);
	if (subcommand->after_engines) {
		cli_engine_names(names, sizeof(names), ", ", ", ");
		fprintf(out, " (%s)%s", names, subcommand->after_engines);
	}
	fputc('\n', out);
}

static int usage(FILE *out, int status)
{
	size_t i;

	fprintf(out, "Usage: vlroute COMMAND [OPTIONS]\n"
		"Routing, verification and simulation for InfiniBand fabrics.\n\n"
		"Commands:\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		print_summary(out, &subcommands[i]);
	fprintf(out, "\nOptions:\n"
		"  -h, --help     print this help\n"
		"  -V, --version  print the version, the commit and the OpenSM version the\n"
		"                 plugin was built against (every command takes -V too)\n"
		"\nRun \"vlroute COMMAND --help\" for a command's options; see vlroute(1).\n");
	return status;
}

/* The subcommand named argv[1], given the command line as typed for its provenance. */
static int run(const struct subcommand *subcommand, int argc, char **argv)
{
	char *command_line = vlr_shell_join(argc, argv);
	int status;

	if (!command_line) {
		cli_error("vlroute", "out of memory");
		return CLI_FAILED;
	}
	status = subcommand->run(argc - 1, argv + 1, command_line);
	free(command_line);
	return status;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage(stderr, CLI_BAD_INPUT);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return usage(stdout, CLI_OK);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return cli_version();
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return run(&subcommands[i], argc, argv);
	cli_error("vlroute", "unknown command \"%s\" (see vlroute --help)", argv[1]);
	return CLI_BAD_INPUT;
}
