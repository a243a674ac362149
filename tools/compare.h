/*
 * compare.h - what "vlroute compare" gathers per table set and how its
 * report is written (Markdown, gnuplot data and script, SVG plots).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_COMPARE_H
#define VLROUTE_COMPARE_H

#include <stdint.h>

#include <vlroute/vlroute.h>

#define COMPARE_MAX_SETS 32
#define COMPARE_MAX_PATTERNS 8
#define COMPARE_LABEL_SIZE 64

/* One table set, measured. */
struct compare_entry {
	char label[COMPARE_LABEL_SIZE];
	const char *dir;
	struct vlr_route_info route;
	struct vlr_pattern_report ebb;
	struct vlr_pattern_report patterns[COMPARE_MAX_PATTERNS];
	struct vlr_linkload_report linkload;
	unsigned vls_used;
	unsigned sls_used;
	enum vlr_deadlock_verdict deadlock_free;
	char hottest[2 * VLR_MAX_NAME + 32];	/* "sw port 3 -> sw2 port 5" */
	const char *hottest_class;
	double *loads;			/* all-to-all load of every switch-to-switch channel */
	uint32_t load_count;
};

/* The whole comparison, in command-line order. */
struct compare_set {
	struct compare_entry entries[COMPARE_MAX_SETS];
	unsigned count;
	unsigned pattern_count;
	char fabric[256];		/* "dragonfly p=6 ...", or counts */
	uint32_t switches;
	uint32_t servers;
	unsigned instances;
	uint64_t seed;
	enum vlr_dlid_choice dlid_choice;
};

/*
 * Write DIR/report.md, ebb.dat, linkload.dat and plots.gp, then run
 * gnuplot on plots.gp for ebb.svg and linkload.svg unless no_plots. A
 * missing gnuplot leaves a note in the report. Returns -1 with a message
 * on stderr when a file cannot be written.
 */
int compare_write_report(const char *command, const struct compare_set *set,
			 const char *dir, int no_plots);

/*
 * The figures of every table set as JSON, with the provenance (one table
 * set a directory), into path ("-": standard output), written whole.
 * Returns -1 with a message on stderr when it cannot be written.
 */
int compare_write_json(const char *command, const struct compare_set *set,
		       const struct vlr_provenance *provenance, const char *path);

#endif
