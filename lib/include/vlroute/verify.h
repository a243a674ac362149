/*
 * verify.h - proving and measuring a table set: does every source port
 * reach every LID, how long and how evenly spread are the routes, and is
 * the channel dependency graph over (link, VL) free of cycles.
 *
 * A route is a (source port, DLID) pair: every linked CA or router port
 * sends to every LID in use (every LID of an LMC range, switch LIDs too)
 * except its own. It is delivered when the LFTs carry it, without visiting
 * a switch twice, to the port owning the DLID (for a switch LID: to that
 * switch, whose LFT says port 0). Anything else is a loop, a dead end (the
 * LFT has no port, names a port the switch lacks, or an unlinked port) or a
 * misdelivery (to an endpoint or switch that does not own the DLID).
 *
 * The statistics and the channel dependency graph cover delivered routes.
 * A channel is a directed switch-to-switch link; its VL on a hop comes from
 * the route's path SL through SL2VL. Injection and ejection links can be on
 * no cycle, so the graph holds switch-to-switch channels only. Tables
 * marked unprogrammable (made for the simulator's ideal VLs only) have no
 * SLs to judge: their routes are checked, their VLs, SLs and channel
 * dependencies are not (the ideal form is, by vlr_verify_ideal), and they
 * never pass.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VERIFY_H
#define VLROUTE_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include <vlroute/tables.h>

#define VLR_VERIFY_PROBLEMS 8		/* problems named in the report */
#define VLR_VERIFY_PROBLEMS_SIZE 2048
#define VLR_VERIFY_CYCLE_SIZE 4096
#define VLR_VERIFY_LOAD_BINS 10

struct vlr_verify_report {
	/* reachability */
	uint64_t routes;		/* (source port, DLID) pairs checked */
	uint64_t bad_routes;		/* loops + dead_ends + misdelivered */
	uint64_t loops;
	uint64_t dead_ends;
	uint64_t misdelivered;
	uint32_t bad_lids;		/* DLIDs that some source does not reach */
	unsigned problems_listed;	/* lines in problems */
	char problems[VLR_VERIFY_PROBLEMS_SIZE];	/* the first few, one a line */

	/* links traversed per delivered route, source port to destination port */
	unsigned hops_min;
	unsigned hops_max;
	double hops_mean;

	/* delivered routes per channel, over every channel (unused ones: 0) */
	uint32_t channels;
	uint64_t load_min;
	uint64_t load_max;
	double load_mean;
	uint64_t load_bin_start;	/* bin i holds loads start + i * width .. */
	uint64_t load_bin_width;	/* .. start + (i + 1) * width - 1 */
	uint64_t load_histogram[VLR_VERIFY_LOAD_BINS];

	/* VLs on every link of the delivered routes, injection and ejection too */
	unsigned vls_used;
	unsigned sls_used;
	uint16_t vl_mask;		/* bit v: VL v used */
	uint16_t sl_mask;		/* bit s: SL s used */
	unsigned vls_offered;		/* the table set's num_vls */

	/* the tables' mark: VLs, SLs and dependencies not checked when set */
	struct vlr_unprogrammable unprogrammable;

	/* channel dependency graph over (channel, VL) */
	int cdg_acyclic;
	uint64_t cdg_nodes;		/* (channel, VL) pairs some route uses */
	uint64_t cdg_edges;		/* distinct dependencies between them */
	unsigned cycle_length;		/* steps of the cycle found, 0 if none */
	char cycle[VLR_VERIFY_CYCLE_SIZE];	/* "sw:port/VL -> ... -> sw:port/VL" */
};

/*
 * Check and measure every route of the table set. Problems go in the
 * report; returns -1 only when the check cannot run (out of memory). The
 * routes are walked on as many threads as the table set's size is worth,
 * at most the online CPUs; the report is the same on any number.
 */
int vlr_verify(const struct vlr_tables *tables, struct vlr_verify_report *report,
	       struct vlr_error *err);

#define VLR_VERIFY_MAX_THREADS 16

/* vlr_verify on threads threads (1..16; 0: as vlr_verify chooses). */
int vlr_verify_threads(const struct vlr_tables *tables, unsigned threads,
		       struct vlr_verify_report *report, struct vlr_error *err);

/*
 * The channel dependency graph of a VL policy in its ideal form on the
 * tables' routes (policy: ladder, ladder-reuse or 2phases, usually
 * tables->policy fitted to the family; the tables need route kinds):
 * every hop of every (source switch, DLID) route may take any VL its
 * policy allows (vlr_policy_vl_mask) for the route's class, hop, phase and
 * escalation, as the simulator's ideal mode lets it; escalates[port slot]
 * says that crossing the link out of that port adds one escalation (the
 * Dragonflies' global links; NULL: none). With escape, every hop keeps
 * only the highest VL it may take (for ladder-reuse, hop i on VL i: an
 * escape ladder that keeps it deadlock-free even where all its VLs
 * together have a cycle). Fills the cdg_* fields of report (the rest
 * zero); -1 with err when the tables carry no ideal form or memory runs
 * out.
 */
int vlr_verify_ideal(const struct vlr_tables *tables, const struct vlr_vl_policy *policy,
		     const uint8_t *escalates, int escape, struct vlr_verify_report *report,
		     struct vlr_error *err);

/* Every route delivered, only offered VLs used, no dependency cycle, and
   the tables programmable. */
int vlr_verify_passed(const struct vlr_verify_report *report);

/*
 * Deadlock freedom as vlroute analyze and compare report it. A table set
 * with path SLs is deadlock-free when it passes (vlr_verify_passed). A set
 * without them (has_path_sls 0: an OpenSM dump directory, which holds no
 * path SLs) was checked with every route on SL 0. It is deadlock-free
 * when, so checked, every route was delivered on one VL on every hop with
 * no dependency cycle: then the links alone form no cycle, and no choice
 * of SLs can make one. When the check on SL 0 failed only for a cycle or
 * for the VLs, or used several VLs, the SLs the routes really use decide,
 * and the verdict is unknown. A route that is not delivered is no on any
 * SL. Tables marked unprogrammable have no SLs: unknown, for want of them.
 */
enum vlr_deadlock_verdict {
	VLR_DEADLOCK_FREE_NO = 0,
	VLR_DEADLOCK_FREE_YES,
	VLR_DEADLOCK_FREE_UNKNOWN,
	VLR_DEADLOCK_FREE_UNPROGRAMMABLE,
};

enum vlr_deadlock_verdict vlr_verify_deadlock_free(const struct vlr_verify_report *report,
						   int has_path_sls);

/* "yes", "no", "unknown (no path SLs)" or "unknown (not programmable)". */
const char *vlr_deadlock_verdict_name(enum vlr_deadlock_verdict verdict);

/*
 * The verdict on a VL policy an engine compiled into the tables (engines
 * do not verify; their callers do): 0 when every route is delivered and
 * no dependency cycle is left, else -1 with err refusing the policy and
 * naming the cycle (or saying that the tables are not programmable).
 */
int vlr_verify_policy(const struct vlr_tables *tables, const struct vlr_verify_report *report,
		      struct vlr_error *err);

/* The report for people: counts, problems, statistics, histogram, cycle. */
void vlr_verify_print(const struct vlr_verify_report *report, FILE *out);

/*
 * The same as one JSON object, with the provenance first when it is not
 * NULL; returns -1 when writing fails.
 */
int vlr_verify_write_json(const struct vlr_verify_report *report,
			  const struct vlr_provenance *provenance, FILE *out);

#endif
