/*
 * cli.h - what the vlroute subcommands share: exit codes, messages, option
 * values, lists of words, and writing output files whole or not at all.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CLI_H
#define VLROUTE_CLI_H

#include <stdio.h>

#include <vlroute/vlroute.h>

enum cli_status {
	CLI_OK = 0,
	CLI_FAILED = 1,		/* could not do it: route, verify, write */
	CLI_BAD_INPUT = 2,	/* bad options or parameters; input files that
				   are missing, unreadable or malformed */
};

/* "vlroute gen dragonfly: message" on stderr. */
void cli_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parse an unsigned option value in min..max; complain and return -1 if not. */
int cli_unsigned(const char *command, const char *option, const char *text,
		 unsigned long long min, unsigned long long max,
		 unsigned long long *value);

/*
 * Put item number index (from 0) of count into the list in out: "a", "a
 * or b", "a, b or c" with separator ", " and last " or ".
 */
void cli_list_add(char *out, size_t size, unsigned index, unsigned count,
		  const char *separator, const char *last, const char *item);

/* The names of the routing engines as such a list: "sssp|dfsssp|...". */
void cli_engine_names(char *out, size_t size, const char *separator, const char *last);

/* The option getopt_long refused, for the complaint. */
void cli_unknown_option(const char *command, char **argv, int optopt_value);

/* Write a fabric as a net file to path ("-" or NULL: stdout) atomically. */
int cli_write_fabric(const char *command, const struct vlr_fabric *fabric,
		     const char *path, const char *header);

/* Read a net file; the message names FILE:LINE. */
struct vlr_fabric *cli_read_fabric(const char *command, const char *path);

/* Print a usage text and return status. */
int cli_usage(FILE *out, const char *text, int status);

int cmd_gen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_osm_config(int argc, char **argv);

#endif
