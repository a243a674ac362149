/*
 * sim.h - the cycle-accurate simulator: replay a table set (LFTs, path
 * SLs, SL2VL, LMC) packet by packet, or route per packet as the Valiant
 * studies do (the reference model, on the same router model), and measure
 * throughput, latency, fairness and stability over time.
 *
 * The model: switches with an input and an output buffer per (port, VL),
 * virtual cut-through (a packet moves on only when the next buffer has room
 * for all of it), credit flow control per VL, a separable input-first
 * allocator with round-robin arbiters and several iterations, a crossbar
 * between (port, VL) pairs or between ports, with speedup, link latency per
 * link class and a switch pipeline latency.
 * Links carry one phit per cycle. Servers (the fabric's linked CA and
 * router ports, numbered as in traffic.h) generate packets by Bernoulli
 * trials at the offered load (phits per server per cycle) or from a trace,
 * and choose among their injection queues and their destination's LMC LIDs.
 *
 * Timing, exactly: a packet generated in cycle t leaves its server in t at
 * the earliest; a packet whose head leaves a port in cycle t has its head
 * at the far end of the link in t + latency; a switch may forward a head
 * `pipeline` cycles after it arrived, moves it through the crossbar into
 * the output buffer in one cycle, and the output sends it in the next. The
 * tail follows the head by packet_phits - 1 cycles. So at zero load
 *   latency = sum of the latencies of the links crossed
 *           + switches crossed * (pipeline + 1) + packet_phits - 1,
 * measured from generation to the arrival of the tail.
 *
 * Runs are single-threaded and deterministic: a run's random numbers come
 * from one stream per server derived from (seed, server). vlr_sim_run_all
 * spreads runs over threads; the results do not depend on the thread count.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_SIM_H
#define VLROUTE_SIM_H

#include <stdint.h>
#include <stdio.h>

#include <vlroute/tables.h>
#include <vlroute/traffic.h>

enum vlr_sim_vl_mode {
	VLR_SIM_VL_EXACT = 0,	/* path SL + SL2VL, as IB switches do */
	VLR_SIM_VL_IDEAL,	/* the policy's allowed VLs per hop, shortest queue */
};

/* Who routes: the tables, or the reference model of the studies' routing. */
enum vlr_sim_routing {
	VLR_SIM_ROUTING_TABLES = 0,	/* the LFTs, DLIDs by the DLID rule */
	VLR_SIM_ROUTING_MINIMAL,	/* reference: minimal routes */
	VLR_SIM_ROUTING_VALIANT,	/* reference: a random intermediate switch
					   per packet, then minimal routes */
	VLR_SIM_ROUTING_RVAL,		/* reference: Restricted Valiant, the
					   intermediate of a packet whose ends
					   share a partition drawn in it */
	/* The Dragonfly paper's UGAL (Kim, Dally, Scott, Abts): per packet at
	   the source, minimal or one drawn Valiant path by the queues it
	   senses (struct vlr_sim_ugal_view, vlr_sim_ugal_minimal). */
	VLR_SIM_ROUTING_UGAL_G,		/* the queues of the global channels
					   the two paths leave the source
					   group by: global knowledge */
	VLR_SIM_ROUTING_UGAL_L,		/* the source switch's output queues */
	VLR_SIM_ROUTING_UGAL_L_VC,	/* ... only the VLs each path takes */
	VLR_SIM_ROUTING_UGAL_L_VC_H,	/* VC-separated only when both paths
					   leave by the same port */
	VLR_SIM_ROUTING_UGAL_L_CR,	/* UGAL-L_VC_H with credits delayed by
					   the credit round-trip latency */
	VLR_SIM_ROUTING_PIGGYBACK,	/* Piggyback (the ADVc study's source-
					   adaptive routing): UGAL-L with a
					   margin, and Valiant whenever the
					   minimal path's global link is
					   saturated as its group last heard
					   (struct vlr_sim_piggyback) */
};

/* Which intermediate Valiant draws in the reference model. */
enum vlr_sim_intermediate {
	VLR_SIM_INTERMEDIATE_SWITCH = 0,	/* a switch (the Valiant studies) */
	VLR_SIM_INTERMEDIATE_GROUP,		/* Dragonfly: a group, the packet
						   going to the switch its global
						   link from the source group
						   reaches (the Dragonfly paper) */
	VLR_SIM_INTERMEDIATE_CRG,		/* Dragonfly: a switch of a group
						   one of the source switch's own
						   global links reaches (the ADVc
						   study's CRG) */
};

/*
 * How a 2Phases hop picks inside its phase's VLs, in the reference model
 * and in the table replay's ideal VL mode (the exact mode has the SL2VL's).
 */
enum vlr_sim_phase_vls {
	VLR_SIM_PHASE_VLS_DEFAULT = 0,	/* the reference model PER_HOP, the
					   table replay FREE (vlr_sim_new
					   resolves it) */
	VLR_SIM_PHASE_VLS_PER_HOP,	/* hop k of a phase: VL phase * K + k */
	VLR_SIM_PHASE_VLS_FREE,		/* any VL of the set, Dragonfly sets split
					   at the global link (the ideal form) */
};

/* Which minimal routes the reference model's phases take. */
enum vlr_sim_minimal {
	VLR_SIM_MINIMAL_FAMILY = 0,	/* the family's: HyperX dimension order,
					   Dragonfly local-global-local,
					   Dragonfly+ up-global-down */
	VLR_SIM_MINIMAL_SHORTEST,	/* any shortest path in hops, the next
					   port chosen when the packet heads its
					   input buffer: the one whose best
					   allowed VL has the shortest queue */
};

/* Which VL a server of the reference model injects a packet on. */
enum vlr_sim_injection_vls {
	VLR_SIM_INJECTION_POLICY = 0,	/* the VL policy's VLs of the first hop,
					   the one with the most credits (the
					   study's Fig. 3) */
	VLR_SIM_INJECTION_ANY,		/* the lowest VL with room, whatever the
					   policy (CAMINOS 0.6.3's servers) */
};

/*
 * Piggyback's thresholds (the ADVc study's Table I; the rule, after Jiang,
 * Kim and Dally, as the study's simulator has it). Every cycle each switch
 * marks each of its global ports saturated when the packets queued there
 * (sim_port_queued's measure, all VLs) exceed factor_percent / 100 of the
 * mean over its global ports plus global_margin packets, and tells the
 * other switches of its group, which hear it local_latency cycles later
 * (the broadcast crosses one local link; the switch itself knows its own
 * at once). A packet heading its injection queue goes minimally when the
 * global link its minimal path leaves the source group by is not
 * saturated, as its source switch knows it, and UGAL-L's rule with a
 * margin holds: q_m * H_m <= q_nm * H_nm + local_margin; else by its
 * drawn Valiant path. A packet whose minimal path crosses no global link
 * is judged by the second rule alone.
 */
struct vlr_sim_piggyback {
	unsigned factor_percent;	/* 200: twice the mean (the study is
					   silent; Jiang et al.'s and its
					   simulator's default) */
	unsigned global_margin;		/* 3 packets (the study's T = 3) */
	unsigned local_margin;		/* 5 packets (the study's T = 5) */
};

/*
 * The reference model: routing and VLs as the Valiant studies define them,
 * without tables. The packet draws its intermediate among all switches
 * (Dragonfly+: all leaves), its own and its destination's included, when
 * it heads its injection queue; one whose intermediate is its source or
 * destination switch goes minimally. Under RVAL (Restricted Valiant) a
 * packet whose source and destination switches share a partition draws
 * it in that partition: on a Dragonfly among the routers of their group,
 * on a Dragonfly+ among the leaves of their group, on a HyperX among the
 * switches that keep every coordinate the two ends share (the study's
 * "subset of dimensions": a packet within a row stays in the row); the
 * others draw as under Valiant. With recompute (Valiant or RVAL) a packet
 * that heads its source switch's input from its server and finds no room
 * in its output draws a new intermediate each cycle (the first allocator
 * iteration), as the table replay's DLID rule recompute draws a new DLID;
 * once it has left that input its intermediate is fixed. Each phase goes by minimal next hops
 * (routes[0] in phase one, routes[1] in phase two, the same object for the
 * same order; see vlr_minimal_switch_routes in engines.h), a packet routed
 * minimally by those of the phase whose VLs it takes; or, with minimal
 * SHORTEST, by any shortest path (routes[0].hops), as CAMINOS's Shortest
 * routing does (ladder and per-hop 2phases only: their VLs rise with every
 * hop whatever the path). The VL policy is
 * ladder (hop i on VL i), ladder-reuse (any VL up to i) or 2phases (K VLs
 * a phase, 0: the most hops of a phase - the HyperX's dimensions, 3 on the
 * Dragonflies; phase_min for the minimal packets); its VLs: 2 x the most
 * hops of a phase for the ladders (minimal routing: 1 x), 2K for 2phases.
 * Hops join the shortest queue among the allowed VLs, servers inject on
 * the allowed VL with the most credits, delivery takes any.
 */
struct vlr_sim_reference {
	enum vlr_sim_routing routing;	/* TABLES: no reference model */
	struct vlr_vl_policy policy;
	enum vlr_sim_minimal minimal;
	enum vlr_sim_injection_vls injection;
	int recompute;			/* valiant or rval: a new intermediate
					   while blocked at the source switch */
	enum vlr_sim_intermediate intermediate;	/* valiant and UGAL */
	const struct vlr_switch_routes *routes[2];
	struct vlr_sim_piggyback piggyback;	/* its thresholds */
};

/*
 * The UGAL routings (the Dragonfly paper's, Section 4): a packet that
 * heads its injection queue draws one Valiant intermediate as Valiant
 * does; if that gives a path other than the minimal one, the source
 * switch compares the two by what the routing senses there:
 *   minimal when q_m * H_m <= q_nm * H_nm, else the Valiant path,
 * H = switch-to-switch hops of the path, q = packets queued: in the
 * output buffer of a port (all its VLs, or the VLs the path's first hop
 * may take) plus those sent into the next switch's input buffer that
 * have not left it (its credits missing). UGAL-G: q of the global
 * channel each path leaves the source group by (its first port when it
 * leaves none); UGAL-L: of the source switch's output of each path, all
 * VLs; UGAL-L_VC: only the path's VLs; UGAL-L_VC_H and UGAL-L_CR: the
 * VLs only when both paths leave by the same port, else UGAL-L's.
 */
struct vlr_sim_ugal_view {
	unsigned hops_min;		/* H_m */
	unsigned hops_nonmin;		/* H_nm */
	uint64_t queue_min;		/* q_m, all VLs (UGAL-G: global channel) */
	uint64_t queue_nonmin;		/* q_nm */
	uint64_t vl_queue_min;		/* q_m_vc: the minimal path's VLs */
	uint64_t vl_queue_nonmin;	/* q_nm_vc */
	uint32_t port_min;		/* Out_m, Out_nm: the source switch's */
	uint32_t port_nonmin;		/* output ports of the two paths */
};

/* 1 if routing is one of the UGAL routings (Piggyback, UGAL-L with the
   group's saturation, among them). */
int vlr_sim_routing_is_ugal(enum vlr_sim_routing routing);
/* 1: the UGAL routing takes the minimal path in view, 0 the Valiant one. */
int vlr_sim_ugal_minimal(enum vlr_sim_routing routing, const struct vlr_sim_ugal_view *view);

/* The rule of saturation: queued at a global port against the sum over its
   switch's `ports` global ports. */
int vlr_sim_piggyback_saturated(const struct vlr_sim_piggyback *pb, uint64_t queued,
				uint64_t sum, unsigned ports);
/* 1: Piggyback takes the minimal path of view, whose global link is
   saturated or not; 0 the Valiant one. */
int vlr_sim_piggyback_minimal(const struct vlr_sim_piggyback *pb,
			      const struct vlr_sim_ugal_view *view, int saturated);

/* A link a packet takes, told to vlr_sim_config.hop. */
struct vlr_sim_hop {
	uint64_t cycle;			/* its head leaves */
	uint64_t serial;		/* the packet, numbered in creation order */
	uint32_t source;		/* servers */
	uint32_t destination;
	uint32_t from_switch;		/* switch index as in struct vlr_tables;
					   VLR_NONE: the source server injects */
	unsigned port;			/* the switch's port number (1..); the
					   server's switch port on injection */
	unsigned vl;
	uint32_t via;			/* reference model: intermediate switch;
					   VLR_NONE for table replay */
	int phase_two;			/* the packet is in its second phase */
};

enum vlr_sim_allocator {
	VLR_SIM_ALLOCATOR_SEPARABLE = 0,	/* separable input-first, round robin */
};

enum vlr_sim_crossbar {
	VLR_SIM_CROSSBAR_VL = 0,	/* each (port, VL) crosses on its own */
	VLR_SIM_CROSSBAR_PORT,		/* one packet per input and output port */
};

enum vlr_sim_queue_select {
	VLR_SIM_QUEUE_RANDOM = 0,	/* a random injection queue per packet
					   (refused if that one is full) */
	VLR_SIM_QUEUE_DEST,		/* queue = destination server mod queues */
	VLR_SIM_QUEUE_RANDOM_ROOM,	/* a random queue among those with room
					   (the RVAL study's RANDOM) */
	VLR_SIM_QUEUE_DEST_SECTION,	/* the servers split into as many runs of
					   consecutive numbers as queues: queue =
					   destination x queues / servers (the
					   RVAL study's DEST) */
};

struct vlr_sim_config {
	unsigned packet_phits;		/* 16 */
	unsigned input_packets;		/* input buffer per VL: 4 packets */
	unsigned input_local_packets;	/* inputs from a switch of the same
					   Dragonfly(+) group, and every switch-
					   to-switch input of other fabrics;
					   0: input_packets */
	unsigned input_global_packets;	/* inputs of Dragonfly(+) global links;
					   0: input_packets */
	unsigned input_injection_packets;	/* inputs from a server;
						   0: input_packets */
	unsigned output_packets;	/* output buffer per VL: 2 packets */
	unsigned vls;			/* VLs simulated; 0: the tables' (exact)
					   or the policy's (ideal) */
	unsigned iterations;		/* allocator iterations: 2 */
	enum vlr_sim_crossbar crossbar;	/* vl */
	unsigned speedup;		/* crossbar speedup: 1 */
	unsigned pipeline;		/* switch pipeline latency: 0 cycles */
	unsigned host_latency;		/* server links: 1 cycle */
	unsigned local_latency;		/* switch links (all of them on fabrics
					   that are no Dragonfly): 1 */
	unsigned global_latency;	/* Dragonfly(+) global links: 1 */
	unsigned injection_queues;	/* per server: 1 */
	unsigned queue_packets;		/* per injection queue: 16 packets */
	enum vlr_sim_queue_select queue_select;
	int transit_priority;		/* transit beats injection at an output */
	enum vlr_sim_vl_mode vl_mode;
	enum vlr_sim_phase_vls phase_vls;	/* 2phases: VLs inside a phase */
	enum vlr_dlid_choice dlid;	/* base, random, recompute, restricted,
					   adaptive or adaptive-vc-h (tables.h) */
	enum vlr_sim_allocator allocator;
	unsigned adaptive_bias;		/* UGAL-L, UGAL-L_VC_H: take Valiant only
					   when its weighted queue is shorter
					   by more */
	struct vlr_pattern_spec pattern;
	const struct vlr_sim_trace *trace;	/* replaces the pattern if set */
	uint64_t warmup;		/* cycles before measuring: the default
					   rule, VLR_SIM_WARMUP_DEFAULT */
	uint64_t cycles;		/* measured cycles: 20000 */
	unsigned bin;			/* cycles per time bin: 1000 */
	uint64_t deadlock_cycles;	/* no phit moving this long: 1000 */
	double stability_drop;		/* a bin this far below the peak: 0.1 */
	int drain;			/* after the run, stop generating and run
					   until the fabric is empty */
	int switch_injections;		/* JSON: each run's injections per switch
					   and the switches' names (results
					   carry the injections always) */
	const volatile int *cancel;	/* if set: runs stop once *cancel is
					   not 0 (see vlr_sim_run_all); NULL */
	struct vlr_sim_reference reference;	/* routing TABLES: replay the
						   tables (vl_mode and dlid) */
	/* If set: told of every link every packet takes, from the thread of
	   its run (runs on several threads call it at once); NULL. */
	void (*hop)(void *context, const struct vlr_sim_hop *hop);
	void *hop_context;
};

/* The defaults above. */
void vlr_sim_config_default(struct vlr_sim_config *config);

/*
 * The default warm-up (warmup = VLR_SIM_WARMUP_DEFAULT, which vlr_sim_new
 * replaces by it): a tenth of the measured cycles rounded down to whole
 * time bins - none for runs of fewer than ten bins (10000 cycles at the
 * default bin), 2000 cycles for the default 20000. Long runs are then
 * measured from a fabric whose queues have filled, short ones (tests,
 * quick looks) keep every cycle. The warm-up precedes the measured
 * cycles: a run takes warmup + cycles cycles.
 */
#define VLR_SIM_WARMUP_DEFAULT UINT64_MAX

uint64_t vlr_sim_default_warmup(uint64_t cycles, unsigned bin);

const char *vlr_sim_vl_mode_name(enum vlr_sim_vl_mode mode);
const char *vlr_sim_queue_select_name(enum vlr_sim_queue_select select);
const char *vlr_sim_crossbar_name(enum vlr_sim_crossbar crossbar);
int vlr_sim_crossbar_parse(const char *text, enum vlr_sim_crossbar *crossbar,
			   struct vlr_error *err);
int vlr_sim_vl_mode_parse(const char *text, enum vlr_sim_vl_mode *mode,
			  struct vlr_error *err);
const char *vlr_sim_routing_name(enum vlr_sim_routing routing);
int vlr_sim_routing_parse(const char *text, enum vlr_sim_routing *routing,
			  struct vlr_error *err);
const char *vlr_sim_injection_vls_name(enum vlr_sim_injection_vls injection);
int vlr_sim_injection_vls_parse(const char *text, enum vlr_sim_injection_vls *injection,
				struct vlr_error *err);
const char *vlr_sim_intermediate_name(enum vlr_sim_intermediate intermediate);
int vlr_sim_intermediate_parse(const char *text, enum vlr_sim_intermediate *intermediate,
			       struct vlr_error *err);
const char *vlr_sim_minimal_name(enum vlr_sim_minimal minimal);
int vlr_sim_minimal_parse(const char *text, enum vlr_sim_minimal *minimal,
			  struct vlr_error *err);
const char *vlr_sim_phase_vls_name(enum vlr_sim_phase_vls phase_vls);
int vlr_sim_phase_vls_parse(const char *text, enum vlr_sim_phase_vls *phase_vls,
			    struct vlr_error *err);
/* One of the DLID choices the simulator implements, by name. */
int vlr_sim_dlid_parse(const char *text, enum vlr_dlid_choice *dlid,
		       struct vlr_error *err);
int vlr_sim_queue_select_parse(const char *text, enum vlr_sim_queue_select *select,
			       struct vlr_error *err);

/*
 * A message trace: lines "TIME SOURCE DESTINATION SIZE" (cycle, server
 * numbers, phits), '#' comments. A message becomes ceil(SIZE /
 * packet_phits) packets, queued at their server from TIME on (later when
 * the injection queue is full).
 */
struct vlr_sim_message {
	uint64_t time;
	uint32_t source;
	uint32_t destination;
	uint32_t phits;
};

struct vlr_sim_trace {
	uint64_t count;
	struct vlr_sim_message *messages;	/* by source, then time */
	uint32_t num_servers;
	uint64_t *first_of_server;		/* num_servers + 1 */
};

/* Read a trace for servers 0..num_servers-1; errors name FILE:LINE. */
struct vlr_sim_trace *vlr_sim_trace_read(const char *path, uint32_t num_servers,
					 struct vlr_error *err);
void vlr_sim_trace_free(struct vlr_sim_trace *trace);

/*
 * A simulation set up on a table set: the network, its servers, the
 * recognised topology (for link classes and the Dragonfly and HyperX
 * patterns), the trunks (ideal VLs). The tables must outlive it.
 */
struct vlr_sim;

struct vlr_sim *vlr_sim_new(const struct vlr_tables *tables,
			    const struct vlr_sim_config *config, struct vlr_error *err);
void vlr_sim_free(struct vlr_sim *sim);
uint32_t vlr_sim_num_servers(const struct vlr_sim *sim);
/* The configuration in force: the one given, with the default warm-up worked out. */
const struct vlr_sim_config *vlr_sim_config_of(const struct vlr_sim *sim);
unsigned vlr_sim_num_vls(const struct vlr_sim *sim);
/* Bytes a run allocates (buffers, queues, packets); grows with ports x VLs x buffers
   (the input rings take the largest input buffer at every port). */
uint64_t vlr_sim_run_bytes(const struct vlr_sim *sim);

/* Stability classes. */
#define VLR_SIM_STEADY 1	/* no time bin drops below the peak */
#define VLR_SIM_RECOVERS 2	/* bins drop, but the last quarter does not */
#define VLR_SIM_COLLAPSES 3	/* the last quarter stays below the peak */

#define VLR_SIM_REPORT_SIZE 2048

struct vlr_sim_result {
	double offered;			/* phits per server per cycle */
	uint64_t seed;
	int completed;			/* 1: the run went to its end (a deadlock
					   ends it too); 0: cancelled, nothing
					   below is set */
	uint64_t cycles;		/* cycles simulated (drain included) */
	double seconds;			/* wall-clock time of the run */

	double accepted;		/* phits per server per cycle, measured
					   after the warm-up */
	uint32_t num_bins;
	double *bins;			/* accepted load per time bin: bin i
					   covers cycles [i * bin, min((i + 1) *
					   bin, warmup + cycles)), from cycle 0 */
	unsigned bin;			/* cycles per bin */
	uint64_t span;			/* cycles the bins cover: warm-up +
					   measured cycles */
	uint32_t warmup_bins;		/* the first bins, those that hold a
					   warm-up cycle */
	double latency_avg;		/* packets generated while measuring */
	uint64_t latency_p50;
	uint64_t latency_p99;
	uint64_t latency_max;
	double hops_avg;		/* switch-to-switch hops */
	uint64_t measured_packets;	/* delivered with a measured latency */
	/* Reference model: of the measured packets, those routed by way of
	   an intermediate (Valiant's or UGAL's non-minimal path) */
	double nonminimal;		/* fraction of the measured packets */
	double latency_minimal_avg;	/* of the others; 0 when none */
	double latency_nonminimal_avg;	/* of those; 0 when none */

	uint64_t generated;		/* packets created (queued) */
	uint64_t refused;		/* Bernoulli arrivals dropped: their
					   injection queue was full */
	uint64_t injected;		/* packets that entered the fabric */
	uint64_t delivered;
	uint64_t injected_check;	/* sums of a hash of the packets' serial */
	uint64_t delivered_check;	/* numbers: after a drain, equal (with the
					   counts) iff each injected packet
					   arrived exactly once */

	double inject_min;		/* per switch: packets its servers injected
					   while measuring */
	double inject_max_over_min;
	double inject_cv;		/* coefficient of variation */
	uint32_t num_switches;		/* entries of switch_injected */
	uint64_t *switch_injected;	/* [switch index as in struct
					   vlr_tables]: packets its servers
					   injected while measuring (0 for a
					   switch without servers) */

	int stability;			/* VLR_SIM_STEADY .. COLLAPSES */
	int deadlock;			/* 1: stopped by the deadlock rule */
	uint64_t deadlock_cycle;	/* the cycle it was detected */
	char deadlock_report[VLR_SIM_REPORT_SIZE];	/* the cycle of blocked
							   (switch:port/VL) channels */
};

/* One run at an offered load with a seed. */
int vlr_sim_run(const struct vlr_sim *sim, double load, uint64_t seed,
		struct vlr_sim_result *result, struct vlr_error *err);
void vlr_sim_result_free(struct vlr_sim_result *result);

/* Progress of vlr_sim_run_all, for messages. */
struct vlr_sim_progress {
	unsigned runs_done;
	unsigned runs;
	uint64_t cycles_done;		/* summed over runs */
	uint64_t cycles;		/* planned, summed over runs */
	double seconds;
};

typedef void (*vlr_sim_progress_fn)(const struct vlr_sim_progress *progress, void *data);

/*
 * Run every (load, seed) pair: results[l * num_seeds + s] for loads[l]
 * and seed first_seed + s, on `threads` threads (0: all cores). progress,
 * if not NULL, is called about every second from the calling thread.
 *
 * With config.cancel set, once *cancel is not 0 (a caller's signal
 * watcher sets it; the library installs no signal handler) no run starts
 * and the runs in progress stop within 1024 cycles: their results have
 * completed 0 and only offered and seed set; those that finished are
 * whole. That is no failure: 0 is returned. vlr_sim_run stops the same way.
 */
int vlr_sim_run_all(const struct vlr_sim *sim, const double *loads, unsigned num_loads,
		    uint64_t first_seed, unsigned num_seeds, unsigned threads,
		    struct vlr_sim_result *results, vlr_sim_progress_fn progress,
		    void *progress_data, struct vlr_error *err);

/*
 * CSV, tidy (a header and one row a bin of each completed run, no
 * comments): offered,seed,bin,start,end,accepted,warmup,tables_sha256 -
 * the bin's cycles [start, end), its accepted load, 1 for a warm-up bin,
 * and the table-set hash tables_sha256 (empty when NULL) that names the
 * tables simulated.
 */
int vlr_sim_write_csv(const struct vlr_sim_result *results, unsigned count,
		      const char *tables_sha256, FILE *out);

/*
 * JSON: the provenance (if not NULL), the configuration, per completed
 * run a summary and its time series ("bin", "warmup_bins", "bins"), and
 * the (offered, seed) of each run that did not complete ("unfinished").
 * With config.switch_injections, each run's "switch_injected" too and the
 * configuration's "switch_names" (node descriptions, the same order).
 */
int vlr_sim_write_json(const struct vlr_sim *sim, const struct vlr_sim_result *results,
		       unsigned count, const struct vlr_provenance *provenance, FILE *out);

#endif
