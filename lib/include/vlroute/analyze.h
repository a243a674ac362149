/*
 * analyze.h - static congestion analysis of a table set: effective
 * bisection bandwidth, the bandwidth of traffic patterns and the load of
 * every link, computed from the LFTs alone.
 *
 * Servers are the linked CA and router ports (struct vlr_servers). A route
 * is a (source server, DLID of a destination server) pair, walked through
 * the LFTs; its channels are the directed links it crosses, the injection
 * link (server to switch) and the ejection link (switch to server)
 * included. A channel is named by the port slot that sends on it.
 *
 * A pair of servers sends over one or several routes: the DLID choice says
 * which LIDs of the destination it uses and with what share of its traffic:
 *   base    LID offset 0 only, share 1;
 *   spread  every LID of the destination's LMC range, share 1/2^LMC each;
 *   random  one offset per pair, drawn from (seed, pattern, source,
 *           destination), share 1.
 *
 * Congestion and bandwidth, for one pattern (a set of communicating pairs):
 *   congestion(c)  the sum of the shares of the pattern's routes that
 *                  cross channel c ("routes on the link" when shares are 1);
 *   bandwidth(r)   share(r) * min(1, 1 / max over the channels c of r of
 *                  congestion(c)): the route's fair share of its most
 *                  crowded link, a link carrying 1;
 *   bandwidth(p)   the sum over the pair's routes: 1 / max congestion on
 *                  its route for the base and random choices;
 *   the pattern's bandwidth is the mean over its pairs.
 * Effective bisection bandwidth (ebb): a pattern splits the servers into
 * two random halves (one server idles when their number is odd) and pairs
 * them by a random perfect matching, each pair sending both ways; the ebb
 * is the mean pattern bandwidth over many such patterns, with a 95%
 * confidence interval from Student's t over the pattern means. Pattern i
 * draws from vlr_rng_seed(seed, i), so results do not depend on the thread
 * count.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ANALYZE_H
#define VLROUTE_ANALYZE_H

#include <stdint.h>
#include <stdio.h>

#include <vlroute/tables.h>
#include <vlroute/traffic.h>

#define VLR_ANALYZE_HOTTEST 10		/* hottest channels reported */
#define VLR_ANALYZE_BINS 10		/* bins of the link-load histogram */
#define VLR_ANALYZE_NAME_SIZE 64

/* The DLID choices (tables.h) the analyses implement. */
#define VLR_ANALYZE_DLID_CHOICES (VLR_DLID_BIT(VLR_DLID_BASE) | \
				  VLR_DLID_BIT(VLR_DLID_SPREAD) | \
				  VLR_DLID_BIT(VLR_DLID_RANDOM))

/* What a channel connects, from the recognised topology when there is one. */
enum vlr_channel_class {
	VLR_CHANNEL_INJECTION = 0,	/* server to switch */
	VLR_CHANNEL_EJECTION,		/* switch to server */
	VLR_CHANNEL_SWITCH,		/* switch to switch, topology unknown */
	VLR_CHANNEL_LOCAL,		/* Dragonfly group, HyperX row */
	VLR_CHANNEL_GLOBAL,		/* between Dragonfly(+) groups */
	VLR_CHANNEL_UP,			/* Dragonfly+ leaf to spine */
	VLR_CHANNEL_DOWN,		/* Dragonfly+ spine to leaf */
	VLR_CHANNEL_CLASSES,
};

struct vlr_analyze_options {
	enum vlr_dlid_choice dlid_choice;
	unsigned threads;		/* worker threads; 0 = one per online CPU */
};

/* Routes per channel over channels of some kind (in routes, not shares). */
struct vlr_load_stats {
	uint32_t channels;
	double min;
	double mean;
	double max;
};

struct vlr_hot_channel {
	uint32_t port;			/* port slot sending on it */
	double load;
};

/*
 * The all-to-all traffic (every server to every other server) under the
 * DLID choice, random counted as spread (its expectation): the load of
 * every channel and the lengths of the routes.
 */
struct vlr_linkload_report {
	uint32_t servers;
	uint64_t pairs;			/* servers * (servers - 1) */
	uint64_t routes;		/* (source, DLID) routes walked */
	unsigned hops_min;		/* channels per route, injection and */
	unsigned hops_max;		/* ejection links included */
	double hops_mean;
	struct vlr_load_stats switch_links;	/* every switch-to-switch channel */
	struct vlr_load_stats by_class[VLR_CHANNEL_CLASSES];
	double bin_start;		/* bin i: loads start + i * width .. */
	double bin_width;		/* .. below start + (i + 1) * width */
	uint64_t histogram[VLR_ANALYZE_BINS];	/* switch-to-switch channels */
	unsigned hottest_count;		/* the busiest switch-to-switch channels, */
	struct vlr_hot_channel hottest[VLR_ANALYZE_HOTTEST];	/* busiest first */
	double bandwidth_mean;		/* all-to-all as a pattern */
	double bandwidth_min;
};

/* One pattern over its instances. */
struct vlr_pattern_report {
	char name[VLR_ANALYZE_NAME_SIZE];	/* "ebb", "adv+1", ... */
	unsigned instances;		/* random patterns drawn (1 if fixed) */
	uint64_t seed;
	uint64_t pairs;			/* communicating pairs over all instances */
	double mean;			/* mean pattern bandwidth */
	double ci_half;			/* 95% interval: mean +- ci_half */
	double instance_min;		/* the worst and best instance */
	double instance_max;
	double pair_min;		/* the lowest pair bandwidth seen */
	double congestion_mean;		/* max channel congestion per instance */
	double congestion_max;
};

struct vlr_analysis;

/*
 * Prepare the analysis of a table set: its servers, the topology if it is
 * a HyperX, Dragonfly or Dragonfly+, the class of every channel, and the
 * all-to-all link load (struct vlr_linkload_report). Fails, naming the
 * switch, the source port and the LID, when a switch has no LFT entry for
 * a server's LID or a route between servers is not delivered (tables made
 * for another fabric, or broken ones: vlroute verify lists them all).
 */
struct vlr_analysis *vlr_analysis_new(const struct vlr_tables *tables,
				      const struct vlr_analyze_options *options,
				      struct vlr_error *err);
void vlr_analysis_free(struct vlr_analysis *analysis);

const struct vlr_linkload_report *vlr_analysis_linkload(const struct vlr_analysis *analysis);
const struct vlr_servers *vlr_analysis_servers(const struct vlr_analysis *analysis);

/* The topology recognised, or NULL. */
const struct vlr_topology *vlr_analysis_topology(const struct vlr_analysis *analysis);

/* All-to-all routes on the channel the port slot sends on (0 if none). */
double vlr_analysis_channel_load(const struct vlr_analysis *analysis, uint32_t port);

/* The class of that channel, or VLR_CHANNEL_CLASSES for a port sending on none. */
enum vlr_channel_class vlr_analysis_channel_class(const struct vlr_analysis *analysis,
						  uint32_t port);

/* Effective bisection bandwidth over `patterns` random bisections (>= 1). */
int vlr_analyze_ebb(const struct vlr_analysis *analysis, unsigned patterns,
		    uint64_t seed, struct vlr_pattern_report *report,
		    struct vlr_error *err);

/*
 * The same for a traffic pattern: perm draws `patterns` permutations;
 * un, hot, advr+I, advc and adv-local `patterns` instances in which every
 * server sends to one destination drawn from the pattern; shift+I, adv+I
 * and all2all are fixed (one instance). Fails like vlr_traffic_new when
 * the pattern needs a topology that was not recognised.
 */
int vlr_analyze_pattern(const struct vlr_analysis *analysis,
			const struct vlr_pattern_spec *spec, unsigned patterns,
			uint64_t seed, struct vlr_pattern_report *report,
			struct vlr_error *err);

/*
 * One fixed pattern given by the caller: dest[server] is the server it
 * sends to, VLR_NONE (or itself) to stay idle. name labels the report.
 */
int vlr_analyze_mapping(const struct vlr_analysis *analysis, const uint32_t *dest,
			const char *name, struct vlr_pattern_report *report,
			struct vlr_error *err);

/* One of VLR_ANALYZE_DLID_CHOICES by name. */
int vlr_analyze_dlid_parse(const char *text, enum vlr_dlid_choice *choice,
			   struct vlr_error *err);
const char *vlr_channel_class_name(enum vlr_channel_class channel_class);

/* Two-sided 95% quantile of Student's t with df degrees of freedom (>= 1). */
double vlr_student_t95(unsigned df);

/* Reports for people, and as JSON objects (-1 when writing fails). */
void vlr_linkload_print(const struct vlr_analysis *analysis, FILE *out);
void vlr_pattern_print(const struct vlr_pattern_report *report, FILE *out);
int vlr_linkload_write_json(const struct vlr_analysis *analysis, FILE *out);
int vlr_pattern_write_json(const struct vlr_pattern_report *report, FILE *out);

#endif
