/*
 * vlroute.c - the vlroute command: dispatch to a subcommand.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "cli.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "gen", cmd_gen, "generate a fabric (HyperX, Dragonfly, Dragonfly+, fat tree, "
	  "torus, random)" },
	{ "info", cmd_info, "summarise a fabric: counts, radix, diameter, family" },
	{ "route", cmd_route, "route a fabric (sssp, dfsssp, minimal, valiant), write its tables" },
	{ "verify", cmd_verify, "check tables: reachability, loops, deadlock freedom" },
	{ "capture", cmd_capture, "read a running fabric's tables into a table directory" },
	{ "analyze", cmd_analyze, "rate tables: effective bisection bandwidth, link load" },
	{ "compare", cmd_compare, "put several table sets side by side in a Markdown report" },
	{ "sim", cmd_sim, "replay tables in the cycle-accurate simulator" },
};

static int usage(FILE *out, int status)
{
	size_t i;

	fprintf(out, "Usage: vlroute COMMAND [OPTIONS]\n"
		"Routing, verification and simulation for InfiniBand fabrics.\n\n"
		"Commands:\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-7s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\nRun \"vlroute COMMAND --help\" for a command's options, "
		"\"vlroute --version\" for the version; see vlroute(1).\n");
	return status;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage(stderr, CLI_BAD_INPUT);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return usage(stdout, CLI_OK);
	if (!strcmp(argv[1], "--version")) {
		printf("%s\n", PACKAGE_STRING);
		return CLI_OK;
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	cli_error("vlroute", "unknown command \"%s\" (see vlroute --help)", argv[1]);
	return CLI_BAD_INPUT;
}
