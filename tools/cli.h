/*
 * cli.h - what the vlroute subcommands share: exit codes, messages, option
 * values, lists of words, and writing output files whole or not at all.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CLI_H
#define VLROUTE_CLI_H

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
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

/*
 * A result file: stdout for "-" (or NULL), else a file written whole
 * (vlr_whole_file). cli_result_open returns where to write, or NULL after
 * complaining; cli_result_close ends it with the writer's status
 * (failed), complains "PATH: cannot write" or why, and returns 0 or -1.
 */
FILE *cli_result_open(const char *command, const char *path, struct vlr_whole_file *file);
int cli_result_close(const char *command, const char *path, struct vlr_whole_file *file,
		     FILE *out, int failed);

/* Write a fabric as a net file to path ("-" or NULL: stdout), whole. */
int cli_write_fabric(const char *command, const struct vlr_fabric *fabric,
		     const char *path, const char *header);

/* Read a net file; the message names FILE:LINE. */
struct vlr_fabric *cli_read_fabric(const char *command, const char *path);

/*
 * An old short option kept for one release (man vlroute, OPTIONS COMMON TO
 * ALL COMMANDS): getopt's old letter stands for the option now, with a
 * warning. When now equals old, the letter kept its place but changed its
 * meaning: it means the new option, with a note saying what it was.
 */
struct cli_renamed {
	int old;		/* the old short option */
	int now;		/* the option it stands for now */
	const char *value;	/* the name of its value ("FILE"); NULL for a flag */
	const char *name;	/* the long option it stands for now ("json") */
	int (*old_value)(const char *value);	/* if set: renamed only for the
						   values it accepts */
	const char *was;	/* a changed meaning: what the letter meant */
};

/*
 * getopt_long (with opterr 0 as the caller set it), where a short option
 * found in renamed (a list ending in { 0 }; NULL for none) comes back as
 * the option it stands for now, after its warning on stderr.
 */
int cli_getopt(const char *command, int argc, char **argv, const char *short_options,
	       const struct option *long_options, const struct cli_renamed *renamed);

/*
 * "vlroute ... -V": the version, the commit it was built from and the
 * OpenSM version the plugin was built against, on stdout; returns CLI_OK.
 */
int cli_version(void);

/*
 * --node-name-map FILE (no short option, as in infiniband-diags): read the
 * map (path NULL: *map NULL), and rename a fabric's nodes by it for reports
 * only, never before writing the fabric or its tables; *matched counts the
 * nodes renamed. 0, or -1 having complained (exit status CLI_BAD_INPUT).
 */
int cli_node_name_map_read(const char *command, const char *path,
			   struct vlr_node_name_map **map);
int cli_node_name_map_apply(const char *command, const struct vlr_node_name_map *map,
			    struct vlr_fabric *fabric, unsigned *matched);

/* Both: read the map at path (NULL: nothing) and rename fabric's nodes. */
int cli_rename_nodes(const char *command, const char *path, struct vlr_fabric *fabric,
		     unsigned *matched);

/* The getopt_long code of --node-name-map, beyond every short letter. */
#define CLI_OPT_NODE_NAME_MAP 0x4e4d

/* The help text of --node-name-map. */
#define CLI_NODE_NAME_MAP_HELP \
	"      --node-name-map FILE  name nodes in reports by this rdma-core\n" \
	"                      node-name map (GUID \"name\" lines)\n"

/*
 * The provenance of this command's results (util.h): the version and
 * commit as -V prints them, command_line, the host and the date; then
 * each table directory read, with the fabric file read for it
 * (vlr_tables_dir_notes.topology). 0, or -1 having complained
 * (exit status CLI_FAILED).
 */
int cli_provenance_init(const char *command, const char *command_line,
			struct vlr_provenance *provenance);
int cli_provenance_tables(const char *command, struct vlr_provenance *provenance,
			  const char *dir, const char *fabric);
/*
 * vlroute-provenance.json of a table directory being written into dir (the
 * temporary directory that becomes output): this command's provenance with
 * the table set hashed (vlr_tables_provenance of dir), its path output;
 * the table-set hash into hash (VLR_SHA256_HEX) unless NULL. 0, or -1
 * having complained.
 */
int cli_provenance_dir_write(const char *command, const char *command_line,
			     const char *dir, const char *output,
			     const struct vlr_provenance_tables *hashed, char *hash);
/* A fabric file simulated without tables, by model (the "vl_policy"). */
int cli_provenance_fabric(const char *command, struct vlr_provenance *provenance,
			  const char *fabric, const char *model);

/* Whether an output path means standard output ("-"). */
int cli_is_stdout(const char *path);

/*
 * Where a command's text report goes: standard error when its JSON
 * (json, NULL for none) goes to standard output, which then holds the
 * JSON alone; else standard output.
 */
FILE *cli_report_stream(const char *json);

/*
 * SIGINT and SIGTERM taken by a watcher thread (cli_signals.c), for work
 * that stops and still writes what finished: start blocks both in the
 * calling thread, so in every thread it starts afterwards, and starts the
 * watcher; at the first signal the watcher says so on stderr and sets
 * stop (read it with __atomic_load_n, or hand &stop to the library as
 * vlr_sim_config.cancel); a second ends the process by that signal. stop
 * ends the watcher, restores the signal mask and returns the first
 * signal, or 0. start returns 0, or -1 having complained. The exit
 * status after a signal N is 128 + N, as a shell reports a process
 * killed by it.
 */
struct cli_signal_watch {
	const char *command;
	sigset_t signals;		/* SIGINT and SIGTERM */
	sigset_t previous;		/* the mask before start */
	pthread_t thread;
	int stop;			/* 1 once a signal arrived */
	int signal;			/* the first signal, 0 none */
};

int cli_signal_watch_start(const char *command, struct cli_signal_watch *watch);
int cli_signal_watch_stop(struct cli_signal_watch *watch);
const char *cli_signal_name(int signal);	/* "SIGINT", "SIGTERM" */

/* Print a usage text and return status. */
int cli_usage(FILE *out, const char *text, int status);

/* What cli_ideal_form found (ideal_form.c). */
enum {
	CLI_IDEAL_FREE = 0,	/* deadlock-free, or by its escape ladder */
	CLI_IDEAL_CYCLE,	/* a channel dependency cycle */
	CLI_IDEAL_UNCHECKED,	/* the check could not run: out says why */
	CLI_IDEAL_NONE,		/* the tables carry no ideal form */
};

/*
 * The verdict on the ideal form of tables' VL policy (vlr_verify_ideal,
 * the global links of the topology recognised as family escalating) as a
 * phrase in out: "deadlock-free", "deadlock-free by its escape ladder (hop
 * i on VL i)", "NOT deadlock-free (cycle ...)" or "not checked: why".
 */
int cli_ideal_form(const struct vlr_tables *tables, enum vlr_family family, char *out,
		   size_t size);

/*
 * The long options of route, sim, analyze and gen FAMILY (NULL for a
 * family gen does not know), for the keys of vlroute experiment.
 */
const struct option *cmd_route_options(void);
const struct option *cmd_sim_options(void);
const struct option *cmd_analyze_options(void);
const struct option *cmd_gen_options(const char *family);

/*
 * The subcommands: argv[0] is the subcommand's name, command_line the
 * whole command line as typed, quoted for a shell (vlr_shell_join).
 */
int cmd_gen(int argc, char **argv, const char *command_line);
int cmd_info(int argc, char **argv, const char *command_line);
int cmd_route(int argc, char **argv, const char *command_line);
int cmd_verify(int argc, char **argv, const char *command_line);
int cmd_capture(int argc, char **argv, const char *command_line);
int cmd_convert(int argc, char **argv, const char *command_line);
int cmd_analyze(int argc, char **argv, const char *command_line);
int cmd_compare(int argc, char **argv, const char *command_line);
int cmd_sim(int argc, char **argv, const char *command_line);
int cmd_osm_config(int argc, char **argv, const char *command_line);
int cmd_experiment(int argc, char **argv, const char *command_line);

#endif
