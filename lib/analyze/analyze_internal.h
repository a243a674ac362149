/*
 * analyze_internal.h - what the parts of the static analysis share
 * (internal): the analysis itself, one pattern instance, and the two
 * passes over an instance's routes.
 *
 * Loads are kept in shares: a route with share 1 adds ANALYZE_SHARE to
 * every channel it crosses, one of 2^LMC spread routes ANALYZE_SHARE >> LMC,
 * so every sum stays an exact integer whatever the order of the additions.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ANALYZE_INTERNAL_H
#define VLROUTE_ANALYZE_INTERNAL_H

#include <stdint.h>

#include <vlroute/analyze.h>

#define ANALYZE_SHARE 128u		/* share 1; 2^VLR_MAX_LMC divides it */
#define ANALYZE_ENDPOINT (VLR_NONE - 1)	/* next_switch: a CA or router */

struct vlr_analysis {
	const struct vlr_tables *tables;
	struct vlr_servers servers;
	struct vlr_topology topology;
	int has_topology;
	enum vlr_dlid_choice dlid_choice;
	unsigned threads;
	uint32_t *next_switch;		/* [port slot]: switch index at the far end
					   of the channel it sends on, ANALYZE_ENDPOINT,
					   or VLR_NONE (unlinked, port 0) */
	uint32_t *switch_first;		/* [switch]: port slot of its port 0 */
	uint8_t *switch_ports;		/* [switch]: its ports */
	uint8_t *channel_class;		/* [port slot]: enum vlr_channel_class */
	uint16_t *server_lid;		/* [server]: base LID */
	uint8_t *server_lmc;		/* [server] */
	uint64_t *load;			/* [port slot]: all-to-all load in shares */
	struct vlr_linkload_report linkload;
};

/* The pairs of one pattern instance and how they choose their DLIDs. */
struct analyze_instance {
	const uint32_t *dest;		/* [server]: its destination, VLR_NONE to
					   idle; NULL: every other server */
	enum vlr_dlid_choice choice;
	uint64_t salt;			/* for the random choice */
};

/* What a pass over some sources of an instance adds up. */
struct analyze_tally {
	uint64_t pairs;
	uint64_t routes;
	uint64_t hop_sum;
	unsigned hops_min;
	unsigned hops_max;
	double bandwidth_sum;
	double bandwidth_min;
	uint64_t max_load;		/* shares, on the busiest channel */
	uint32_t bad_source;		/* first route not delivered: port slot, */
	uint32_t bad_lid;		/* DLID; VLR_NONE if none */
};

void analyze_tally_init(struct analyze_tally *tally);

/* Add what `part` counted to `sum` (in this order, for equal results). */
void analyze_tally_merge(struct analyze_tally *sum, const struct analyze_tally *part);

/* A thread's working memory. */
struct analyze_scratch {
	uint32_t *path;			/* a route's channels: num_switches + 2 */
	uint32_t *routes;		/* an instance's routes: see analyze_instance_routes */
	size_t routes_size;
	size_t routes_capacity;
	/* per switch, for the in-trees of analyze_tree.c */
	uint32_t *stamp;		/* the DLID round it was classified in */
	uint32_t *dist;			/* channels to the destination port; 0: none */
	uint32_t *out;			/* its out channel */
	uint32_t *flow;			/* shares entering it */
	uint64_t *most;			/* highest load from it to the destination */
	uint32_t *stack;
	uint32_t *touched;
	uint32_t *order;		/* delivered touched switches, farthest first */
	uint32_t *bucket;		/* num_switches + 2 */
	double *pair_bandwidth;		/* [server], toward the current destination */
	uint32_t now;
	uint32_t num_touched;
	uint32_t num_ordered;
	uint64_t max_load;
};

int analyze_scratch_init(const struct vlr_analysis *analysis,
			 struct analyze_scratch *scratch, struct vlr_error *err);
void analyze_scratch_free(struct analyze_scratch *scratch);

/*
 * The two passes over part of an instance, units first..last-1 (sources,
 * or destinations for the in-trees). Pass 1 adds the share of every route
 * to load (indexed by port slot), counting pairs, routes and hops; an
 * undelivered route is remembered in the tally and skipped. Pass 2 rates
 * every pair under the complete load.
 */
typedef void (*analyze_add_pass)(const struct vlr_analysis *analysis,
				 const struct analyze_instance *instance, uint32_t first,
				 uint32_t last, uint64_t *load,
				 struct analyze_scratch *scratch, struct analyze_tally *tally);
typedef void (*analyze_rate_pass)(const struct vlr_analysis *analysis,
				  const struct analyze_instance *instance, uint32_t first,
				  uint32_t last, const uint64_t *load,
				  struct analyze_scratch *scratch, struct analyze_tally *tally);

/* Route by route, any instance; units are sources. */
void analyze_add_routes(const struct vlr_analysis *analysis,
			const struct analyze_instance *instance, uint32_t first,
			uint32_t last, uint64_t *load, struct analyze_scratch *scratch,
			struct analyze_tally *tally);
void analyze_rate_routes(const struct vlr_analysis *analysis,
			 const struct analyze_instance *instance, uint32_t first,
			 uint32_t last, const uint64_t *load,
			 struct analyze_scratch *scratch, struct analyze_tally *tally);

/*
 * Both passes over a whole instance (sources 0..servers-1), pass 2 reading
 * the routes pass 1 kept in scratch rather than walking them again.
 */
int analyze_instance_routes(const struct vlr_analysis *analysis,
			    const struct analyze_instance *instance, uint64_t *load,
			    struct analyze_scratch *scratch, struct analyze_tally *tally,
			    struct vlr_error *err);

/* Tree by tree, all-to-all only (base or spread); units are destinations. */
void analyze_tree_add(const struct vlr_analysis *analysis,
		      const struct analyze_instance *instance, uint32_t first,
		      uint32_t last, uint64_t *load, struct analyze_scratch *scratch,
		      struct analyze_tally *tally);
void analyze_tree_rate(const struct vlr_analysis *analysis,
		       const struct analyze_instance *instance, uint32_t first,
		       uint32_t last, const uint64_t *load,
		       struct analyze_scratch *scratch, struct analyze_tally *tally);

/*
 * One instance with every thread: units (servers) in fixed chunks, so the
 * result does not depend on the thread count. load (num_ports, zeroed)
 * receives the channel loads.
 */
int analyze_run_one(const struct vlr_analysis *analysis,
		    const struct analyze_instance *instance, analyze_add_pass add,
		    analyze_rate_pass rate, uint64_t *load, struct analyze_tally *tally,
		    struct vlr_error *err);

/* Fills dest (one per server) for instance index; returns -1 with err. */
typedef int (*analyze_make_instance)(void *context, unsigned index, uint32_t *dest,
				     uint64_t *salt, struct vlr_error *err);

/* count instances, each on one thread; tallies[i] for instance i. */
int analyze_run_many(const struct vlr_analysis *analysis, unsigned count,
		     analyze_make_instance make, void *context,
		     struct analyze_tally *tallies, struct vlr_error *err);

/* The message for a tally's undelivered route. */
int analyze_fail_route(const struct vlr_analysis *analysis,
		       const struct analyze_tally *tally, struct vlr_error *err);

/* The pattern report from the tallies of its instances. */
void analyze_summarise(const struct analyze_tally *tallies, unsigned count,
		       struct vlr_pattern_report *report);

/* The link-load report from the all-to-all tally and loads. */
void analyze_summarise_loads(struct vlr_analysis *analysis,
			     const struct analyze_tally *tally);

#endif
