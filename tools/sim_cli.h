/*
 * sim_cli.h - what "vlroute sim" collects from its options, and running
 * it: reading the tables (or, for the reference model, a fabric and its
 * next hops), the runs, the report and the output files.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_SIM_CLI_H
#define VLROUTE_SIM_CLI_H

#include <vlroute/vlroute.h>

#include "cli.h"

#define SIM_CLI_MAX_LOADS 1000

struct sim_cli {
	const char *command;
	const char *command_line;	/* as typed, for the provenance */
	const char *dir;		/* the table directory or, for the
					   reference model, the fabric file */
	const char *fabric_path;
	const char *trace_path;
	const char *json;
	const char *csv;
	const char *plot;
	const char *name_map;		/* --node-name-map */
	struct vlr_sim_config config;
	double loads[SIM_CLI_MAX_LOADS];
	unsigned num_loads;
	unsigned seeds;
	uint64_t first_seed;
	unsigned threads;
	unsigned vls;			/* --vls; 0: as DIR/vlroute-route.info
					   says (vlr_tables_read_dir) */
	int quiet;
	FILE *report;			/* the text report: stdout, or stderr when
					   the JSON or CSV goes to stdout */
	/* the reference model (config.reference.routing not TABLES) */
	const char *table_option;	/* an option for tables only, if given */
	const char *reference_option;	/* an option of the model, if given */
	struct vlr_engine_options next_hops;	/* --dim-order */
	int phase_two_reversed;		/* --phase-two-order reverse */
	struct vlr_switch_routes routes[2];
	struct vlr_provenance provenance;	/* of the JSON and CSV */
	struct cli_signal_watch watch;	/* its stop is config.cancel */
};

void sim_cli_init(struct sim_cli *cli, const char *command_line);
void sim_cli_free(struct sim_cli *cli);

/* --load: "1", "0.2,0.5,1" or "0.1:1:0.1"; complains and returns -1 if bad. */
int sim_cli_parse_loads(struct sim_cli *cli, const char *text);

/* Everything after the options; returns the exit status. */
int sim_cli_run(struct sim_cli *cli);

/*
 * sim_reference.c: the reference model's tables for the fabric file
 * cli->dir - its LIDs (LMC 0), no routes - and the next hops of its two
 * phases into cli->routes and cli->config.reference; NULL having
 * complained, *status the exit status.
 */
struct vlr_tables *sim_reference_tables(struct sim_cli *cli, int *status);

/*
 * Plot the completed runs with gnuplot into path (.png or .svg): with one
 * offered load, accepted load over time from cycle 0, one line per seed,
 * the warm-up bins shaded; with several, accepted load and average
 * latency against offered load (mean over the seeds that completed).
 */
int sim_plot(const struct vlr_sim_result *results, unsigned num_loads,
	     unsigned num_seeds, const char *title, const char *path,
	     struct vlr_error *err);

#endif
