/*
 * engines.h - routing engines.
 *
 * Routing engines: they fill a table set for a fabric.
 *
 * sssp     balanced shortest paths: every LID routed along a minimal path,
 *          choosing among minimal paths the one whose channels carry the
 *          fewest routes so far.
 * dfsssp   sssp, then the channel dependency graph of all routes is broken
 *          into acyclic virtual layers (SL = layer = VL), so the tables are
 *          deadlock-free; spare VLs are then used to even out the layers.
 *
 * minimal  the topology's own minimal routes, recognised from the graph:
 *          HyperX dimension order, Dragonfly local-global-local, Dragonfly+
 *          up-global-down, balanced where several exist.
 * valiant  minimal routes on LID offset 0 of every port; every further
 *          offset routes through an intermediate switch (the routes
 *          towards one DLID form an in-tree), some of them restricted to
 *          the destination's partition (RVAL); see vlpolicy.h.
 * Both give every hop a VL by a VL policy and compile it into path SLs
 * and SL2VL tables, refusing a policy the fabric's SLs and VLs cannot
 * carry - or, when asked (allow_unprogrammable), leaving such a policy's
 * tables marked unprogrammable, for the simulator's ideal VLs only (see
 * struct vlr_unprogrammable); whether the compiled policy leaves a
 * channel dependency cycle is for their caller's verification to say
 * (vlr_verify_policy).
 *
 * Engines read only the fabric and its LIDs and write only the tables.
 * The registry (registry.c) is the one list of them: the CLI, the OpenSM
 * plugin and the tests find engines, their properties and their option
 * limits there.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ENGINES_H
#define VLROUTE_ENGINES_H

#include <stdint.h>

#include <vlroute/tables.h>

/* Which edge of a found cycle dfsssp cuts (its routes move up a layer). */
enum vlr_heuristic {
	VLR_HEURISTIC_WEAKEST = 0,	/* the edge induced by the fewest routes */
	VLR_HEURISTIC_STRONGEST,	/* the edge induced by the most routes */
	VLR_HEURISTIC_FIRST,		/* the first edge of the cycle */
	VLR_HEURISTIC_ALL,		/* try each, keep the fewest layers */
};

struct vlr_engine_options {
	enum vlr_heuristic heuristic;
	int no_balance;			/* dfsssp: leave spare VLs unused */
	int no_escape;			/* dfsssp: refuse when the layers exceed
					   the VLs, instead of escape paths */
	unsigned threads;		/* dfsssp, layers: threads setting up the
					   layering (0: one per online CPU); the
					   same tables on any count */

	/* minimal and valiant */
	enum vlr_family family;		/* the family required; NONE: any */
	unsigned dim_order[VLR_MAX_DIMS];	/* HyperX: dimension order */
	unsigned dim_order_count;	/* 0: 0, 1, 2, ... */
	struct vlr_vl_policy policy;	/* kind NONE: the fewest VLs */
	int restricted;			/* valiant: RVAL offsets per port; -1 auto */
	int allow_unprogrammable;	/* a ladder, ladder-reuse or 2phases policy
					   that does not fit: tables marked
					   unprogrammable instead of a refusal */
};

struct vlr_engine_report {
	unsigned layers;		/* virtual layers the routes need */
	unsigned vls_used;		/* after spreading over spare VLs */
	enum vlr_heuristic heuristic;	/* the one whose result was kept */
	uint64_t cycles_broken;
	uint64_t routes_moved;		/* (source switch, DLID) routes moved up */
	uint32_t escaped_lids;		/* dfsssp: LIDs routed again on escape
					   paths */
	uint32_t tree_lids;		/* of them partly along the up/down tree */
	uint64_t tree_routes;		/* (switch, LID) routes along it */
	uint32_t escape_root;		/* the tree's root switch (index) */
	int escape_whole;		/* the destinations split whole over the
					   layers, not escaped on the last (on
					   one layer: every one routed again) */
	double seconds_paths;		/* sssp part */
	double seconds_layers;		/* cycle breaking and spreading */

	/*
	 * minimal and valiant. When they refuse a policy for want of VLs or
	 * SLs, or mark its tables unprogrammable, layers and sls_used still
	 * say what it needs (sls_used above VLR_NUM_SLS: more SLs than the
	 * fabric has).
	 */
	unsigned sls_used;		/* path SLs the VL policy needed */
	unsigned valiant_offsets;	/* per port: LIDs through an intermediate */
	unsigned restricted_offsets;	/* of them restricted to the partition */
	int bad_input;			/* refused for the input itself: the fabric
					   is not the family needed, or no LMC */
	struct vlr_family_params family;	/* what the graph showed */
};

const char *vlr_heuristic_name(enum vlr_heuristic heuristic);

/*
 * Parsers shared by the CLI and the plugin's config file. On a refusal err
 * holds the allowed values, written to follow "OPTION is ": "weakest,
 * strongest, first or all, not \"best\"".
 */
int vlr_heuristic_parse(const char *text, enum vlr_heuristic *heuristic,
			struct vlr_error *err);

/* "1,0,2": each HyperX dimension 0..VLR_MAX_DIMS-1 at most once. */
int vlr_dim_order_parse(const char *text, unsigned *order, unsigned *count,
			struct vlr_error *err);

/* An engine's run: fill the tables for their fabric and its LIDs. */
typedef int vlr_engine_run(struct vlr_tables *tables, const struct vlr_engine_options *options,
			   struct vlr_engine_report *report, struct vlr_error *err);

/* Fill the LFTs; path SLs stay 0. Fails naming unreachable nodes. */
vlr_engine_run vlr_route_sssp;

/*
 * sssp plus deadlock freedom within tables->num_vls VLs. Fails with the
 * numbers (layers needed, VLs available) when they do not suffice; the
 * tables are then not usable.
 */
vlr_engine_run vlr_route_dfsssp;

/* Minimal routes of a recognised HyperX, Dragonfly or Dragonfly+. */
vlr_engine_run vlr_route_minimal;

/* Valiant routes; needs LMC >= 1 on the endpoint ports. */
vlr_engine_run vlr_route_valiant;

/*
 * The minimal engine's next hops between every pair of switches of a
 * recognised HyperX, Dragonfly or Dragonfly+ (options: family, dim_order;
 * reversed: the HyperX dimensions in the reverse of that order), for the
 * simulator's reference model; family (if not NULL) gets what the graph
 * showed. A fabric that is not one of them is refused with the
 * recogniser's message.
 */
int vlr_minimal_switch_routes(const struct vlr_tables *tables,
			      const struct vlr_engine_options *options, int reversed,
			      struct vlr_switch_routes *routes, struct vlr_family_params *family,
			      struct vlr_error *err);

/* Options with the defaults: weakest-edge heuristic, any family, auto RVAL. */
void vlr_engine_options_init(struct vlr_engine_options *options);

/* ---- the registry ---------------------------------------------------------- */

/* Option limits every engine shares: "vlroute route" and vlroute.conf. */
#define VLR_MAX_VLS_PER_PHASE 7		/* policy.vls_per_phase: 1.. */
#define VLR_MAX_RESTRICTED 127		/* restricted: 0.. */
#define VLR_MAX_ENGINE_THREADS 64	/* threads: 0 (one per CPU), 1.. */

/*
 * The options of struct vlr_engine_options beyond heuristic and no_balance
 * (which engines without layers ignore) that an engine accepts. A caller
 * refuses the others, or leaves them at their defaults.
 */
enum vlr_engine_option {
	VLR_ENGINE_OPT_VL_POLICY = 1 << 0,	/* policy */
	VLR_ENGINE_OPT_DIM_ORDER = 1 << 1,	/* dim_order, dim_order_count */
	VLR_ENGINE_OPT_FAMILY = 1 << 2,		/* family */
	VLR_ENGINE_OPT_RESTRICTED = 1 << 3,	/* restricted */
	VLR_ENGINE_OPT_UNPROGRAMMABLE = 1 << 4,	/* allow_unprogrammable */
	VLR_ENGINE_OPT_NO_ESCAPE = 1 << 5,	/* no_escape */
};

/* One routing engine: what it is called, what it does, what it needs. */
struct vlr_engine {
	const char *name;		/* "vlroute route --engine NAME", OpenSM's vlr_NAME */
	const char *summary;		/* what its routes are, a few words */
	vlr_engine_run *run;
	int deadlock_free;		/* its tables must pass every check of verify */
	int verify_policy;		/* its VL policy stands only if the caller's
					   verification finds no cycle (vlr_verify_policy) */
	int layers;			/* breaks cycles into layers: the report's
					   layers, heuristic, cycles and moves */
	int needs_family;		/* a recognised HyperX, Dragonfly or Dragonfly+;
					   the report's family, policy and SLs */
	unsigned min_lmc;		/* LMC the endpoint ports need; the engine
					   refuses less as bad input */
	unsigned options;		/* enum vlr_engine_option bits it accepts */
	const char *safe_alternative;	/* the engine to suggest when its tables
					   hold a cycle; NULL if deadlock_free */
};

/* Every engine, in the order the CLI and the plugin list them. */
const struct vlr_engine *vlr_engines(unsigned *count);

/* The engine called name, or NULL. */
const struct vlr_engine *vlr_engine_find(const char *name);

#endif
