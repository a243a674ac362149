/*
 * engine_valiant.c - the minimal and valiant engines: LFTs from the
 * topology's minimal next hops, Valiant in-trees through intermediate
 * switches on LID offsets 1 .. 2^LMC - 1, then the VL policy compiled into
 * SLs and SL2VL (vl_compile.c). Whether the compiled policy leaves a
 * channel dependency cycle on the fabric is for the caller's verification
 * (the registry rows say verify_policy).
 *
 * Offsets of a port with K = 2^LMC - 1 Valiant offsets and R of them
 * restricted (by default a quarter, rounded up, when K >= 2): offset 0
 * minimal, 1 .. K - R valiant (intermediates anywhere, the port's own
 * switch and group too, as the Valiant studies draw them uniformly among
 * all switches - Dragonfly+: leaves; spread so that every switch serves
 * about as often, consecutive offsets in different groups, never one
 * switch twice among a port's Valiant offsets while another is left, and
 * the spread run forwards or backwards, whichever gives a port's own
 * switch its fair share),
 * K - R + 1 .. K restricted (intermediates in the destination's group, or
 * in its HyperX rows, dimension after dimension). A Valiant offset whose
 * intermediate is the port's own switch has no second phase: it is routed
 * as the minimal LIDs are, in their VL set (see vlr_trunks_route_class).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "engine_common.h"
#include "lowdiam.h"
#include "vl_compile.h"

struct valiant_build {
	struct lowdiam ld;
	struct vlr_tables *tables;
	const struct vlr_engine_options *options;
	uint32_t *candidates;		/* intermediates, groups interleaved */
	uint32_t num_candidates;
	uint32_t *near;			/* scratch: restricted candidates */
	uint8_t *on_trunk;		/* scratch: [switch] */
	uint8_t *taken;			/* scratch: [switch]: an intermediate of this port */
	uint32_t *position;		/* [switch]: its place in candidates */
	uint64_t cycle;			/* turns before the spread repeats itself */
	int backwards;			/* the spread runs through its cycle backwards */
	int reversed_minimal;		/* HyperX minimal LIDs in reverse order */
	int valiant;			/* offsets 1.. through intermediates */
};

void vlr_engine_options_init(struct vlr_engine_options *options)
{
	memset(options, 0, sizeof(*options));
	options->heuristic = VLR_HEURISTIC_WEAKEST;
	options->restricted = -1;
}

static int can_serve(const struct lowdiam *ld, uint32_t sw)
{
	return ld->topology.role[sw] != VLR_ROLE_SPINE;
}

static int compare_keys(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Intermediates ordered by (index in group, group): groups interleave. */
static int list_candidates(struct valiant_build *build, struct vlr_error *err)
{
	const struct lowdiam *ld = &build->ld;
	uint32_t n = ld->graph.num_switches, sw;
	uint64_t *keys = malloc((n + 1ull) * sizeof(uint64_t));

	build->candidates = malloc((n + 1ull) * sizeof(uint32_t));
	build->near = malloc((n + 1ull) * sizeof(uint32_t));
	build->on_trunk = calloc(n + 1ull, 1);
	build->taken = calloc(n + 1ull, 1);
	build->position = calloc(n + 1ull, sizeof(uint32_t));
	if (!keys || !build->candidates || !build->near || !build->on_trunk || !build->taken ||
	    !build->position) {
		free(keys);
		return vlr_fail(err, "out of memory for the intermediates");
	}
	build->num_candidates = 0;
	for (sw = 0; sw < n; sw++)
		if (can_serve(ld, sw))
			keys[build->num_candidates++] =
				((uint64_t)ld->topology.index_in_group[sw] << 48) |
				((uint64_t)ld->topology.group[sw] << 24) | sw;
	qsort(keys, build->num_candidates, sizeof(uint64_t), compare_keys);
	for (sw = 0; sw < build->num_candidates; sw++) {
		build->candidates[sw] = (uint32_t)(keys[sw] & 0xffffff);
		build->position[build->candidates[sw]] = sw;
	}
	free(keys);
	return 0;
}

/* HyperX rows of sw, dimension after dimension, nearest values first. */
static uint32_t hyperx_near(const struct lowdiam *ld, uint32_t sw, uint32_t *near)
{
	const struct vlr_grid_params *grid = &ld->topology.params.u.grid;
	uint32_t count = 0, c;
	unsigned step, d, longest = 0;

	for (d = 0; d < grid->dims; d++)
		if (grid->sides[d] > longest)
			longest = grid->sides[d];
	for (step = 1; step < longest; step++)
		for (d = 0; d < grid->dims; d++) {
			unsigned want;

			if (step >= grid->sides[d])
				continue;
			want = (ld->topology.coord[(uint64_t)sw * grid->dims + d] + step) %
			       grid->sides[d];
			for (c = ld->graph.first_channel[sw]; c < ld->graph.first_channel[sw + 1]; c++)
				if (ld->channel_dim[c] == d &&
				    ld->topology.coord[(uint64_t)ld->graph.channel_to[c] * grid->dims + d] == want)
					near[count++] = ld->graph.channel_to[c];
		}
	return count;
}

/* Switches of sw's partition that can serve as restricted intermediates. */
static uint32_t partition_of(const struct valiant_build *build, uint32_t sw, uint32_t *near)
{
	const struct lowdiam *ld = &build->ld;
	uint32_t g = ld->topology.group[sw], i, count = 0;

	if (ld->topology.params.family == VLR_FAMILY_HYPERX)
		return hyperx_near(ld, sw, near);
	for (i = ld->member_first[g]; i < ld->member_first[g + 1]; i++)
		if (ld->member[i] != sw && can_serve(ld, ld->member[i]))
			near[count++] = ld->member[i];
	return count;
}

/* The phase whose VLs minimal LIDs use: the second under minlast and
   minboth. */
static int minimal_phase(const struct vlr_vl_policy *policy)
{
	return policy->kind == VLR_VLP_TWO_PHASES && policy->phase_min != VLR_MIN_FIRST;
}

/* Route every switch minimally to target; the target delivers by last_port. */
static void route_minimal_lid(struct valiant_build *build, uint32_t lid, uint32_t target,
			      uint8_t last_port)
{
	struct lowdiam *ld = &build->ld;
	struct lowdiam_way way = { minimal_phase(&build->options->policy), NULL };
	uint32_t sw;

	for (sw = 0; sw < ld->graph.num_switches; sw++) {
		uint32_t c = sw == target ? VLR_NONE :
			     lowdiam_next(ld, sw, target, build->reversed_minimal,
					  build->valiant ? &way : NULL);

		vlr_tables_lft(build->tables, sw)[lid] =
			sw == target ? last_port : c == VLR_NONE ? VLR_NO_PORT :
			ld->graph.channel_port[c];
	}
}

/*
 * The in-tree: the trunk from via to target, everyone else towards via.
 * On a Dragonfly+ the leaves of via's group go up to spines off the trunk
 * (a packet that met the trunk there would skip its intermediate) and of
 * the first phase's parity; the trunk leaves via by a spine of the second.
 */
static int route_valiant_lid(struct valiant_build *build, uint32_t lid, uint32_t target,
			     uint8_t last_port, uint32_t via, struct vlr_error *err)
{
	struct lowdiam *ld = &build->ld;
	struct lowdiam_way second = { 1, NULL }, first = { 0, build->on_trunk };
	uint32_t sw = via, steps = 0, c;

	memset(build->on_trunk, 0, ld->graph.num_switches);
	while (sw != target) {
		c = lowdiam_next(ld, sw, target, 1, &second);
		if (c == VLR_NONE || ++steps > ld->graph.num_switches)
			return vlr_fail(err, "no minimal route from %s to %s",
					vlr_node_name(build->tables->fabric, build->tables->switch_node[sw]),
					vlr_node_name(build->tables->fabric, build->tables->switch_node[target]));
		build->on_trunk[sw] = 1;
		vlr_tables_lft(build->tables, sw)[lid] = ld->graph.channel_port[c];
		sw = ld->graph.channel_to[c];
	}
	build->on_trunk[target] = 1;
	vlr_tables_lft(build->tables, target)[lid] = last_port;
	for (sw = 0; sw < ld->graph.num_switches; sw++) {
		if (build->on_trunk[sw])
			continue;
		c = lowdiam_next(ld, sw, via, 0, &first);
		vlr_tables_lft(build->tables, sw)[lid] =
			c == VLR_NONE ? VLR_NO_PORT : ld->graph.channel_port[c];
	}
	return 0;
}

/*
 * Dragonflies: a port's offsets take consecutive groups (the turns of its
 * run), every group (the destination's too), and in that group one of the
 * switches that can serve (Dragonfly: any router; Dragonfly+: a leaf), in
 * turn as the groups come round again, shifted by the group so that
 * consecutive offsets through different groups do not all use the same
 * position: every switch that can serve comes once in any groups x serving
 * consecutive turns. Any router, not only the one holding the global
 * link towards the destination: under ADV+h every packet that enters a
 * group from G leaves it towards G+h, and with the gateway as
 * intermediate all of them would cross the one local link between those
 * two routers.
 */
static uint32_t dragonfly_via(const struct valiant_build *build, uint64_t turn)
{
	const struct lowdiam *ld = &build->ld;
	uint32_t groups = ld->topology.num_groups;
	uint32_t group = (uint32_t)(turn % groups);
	uint64_t round = turn / groups;
	uint32_t i, serving = 0, pick;

	for (i = ld->member_first[group]; i < ld->member_first[group + 1]; i++)
		serving += can_serve(ld, ld->member[i]) != 0;
	if (!serving)
		return ld->member[ld->member_first[group]];
	pick = (uint32_t)((round + group) % serving);
	for (i = ld->member_first[group];; i++)
		if (can_serve(ld, ld->member[i]) && pick-- == 0)
			return ld->member[i];
}

/*
 * The intermediate of a port's Valiant offset: the port of rank `rank`
 * (in LID order) takes turns rank x spread onwards of the spread, one an
 * offset, the cycle run backwards if so chosen.
 */
static uint32_t valiant_via(const struct valiant_build *build, uint32_t rank,
			    unsigned offset, unsigned spread)
{
	uint64_t turn = (uint64_t)rank * spread + offset;

	if (build->backwards)
		turn = build->cycle - 1 - turn % build->cycle;
	if (build->ld.topology.params.family != VLR_FAMILY_HYPERX)
		return dragonfly_via(build, turn);
	return build->candidates[turn % build->num_candidates];
}

/*
 * The first candidate from sw on, cyclically, that no other Valiant offset
 * of the port has taken; sw itself when every one is taken (more offsets
 * than candidates).
 */
static uint32_t first_free(const struct valiant_build *build, uint32_t sw)
{
	uint32_t count = build->num_candidates, i;

	for (i = 0; i < count; i++) {
		uint32_t next = build->candidates[(build->position[sw] + i) % count];

		if (!build->taken[next])
			return next;
	}
	return sw;
}

/*
 * The intermediates of one port's offsets 1 .. offsets - 1 into via[k].
 * A Valiant one that another Valiant offset of the port has taken moves on
 * to the next free candidate, so none serves a port twice while any is
 * left (the spread of valiant_via rarely needs it). The restricted ones
 * take their partition in turn, all different while it lasts; they may
 * share a switch with a Valiant offset, which is of another kind.
 */
static int choose_vias(struct valiant_build *build, uint32_t rank, unsigned offsets,
		       unsigned valiant, uint32_t target, uint32_t *via, struct vlr_error *err)
{
	const struct vlr_tables *tables = build->tables;
	uint32_t near_count = valiant + 1 < offsets ?
			      partition_of(build, target, build->near) : 0;
	unsigned k;

	for (k = 1; k <= valiant; k++) {
		via[k] = valiant_via(build, rank, k - 1, valiant);
		if (build->taken[via[k]] && can_serve(&build->ld, via[k]))
			via[k] = first_free(build, via[k]);
		build->taken[via[k]] = 1;
	}
	for (k = 1; k <= valiant; k++)
		build->taken[via[k]] = 0;
	for (k = valiant + 1; k < offsets; k++) {
		if (!near_count)
			return vlr_fail(err, "restricted Valiant needs another switch in the "
					"partition of %s", vlr_node_name(tables->fabric,
					tables->switch_node[target]));
		via[k] = build->near[(rank + k - valiant - 1) % near_count];
	}
	return 0;
}

/* Route the 2^LMC LIDs of one endpoint port. */
static int route_port(struct valiant_build *build, uint32_t port, uint32_t rank,
		      unsigned restricted, struct vlr_error *err)
{
	struct vlr_tables *tables = build->tables;
	const struct vlr_port *record = &tables->fabric->ports[port];
	unsigned offsets = 1u << record->lmc, k, valiant = offsets - 1 - restricted;
	uint32_t target, via[1u << 7];
	uint8_t last_port;
	int result;

	target = route_graph_target(&build->ld.graph, record->lid, &last_port);
	if (target == VLR_NONE)
		return engine_unroutable_lid(tables, record->lid, err);
	route_minimal_lid(build, record->lid, target, last_port);
	result = choose_vias(build, rank, offsets, valiant, target, via, err);
	for (k = 1; k < offsets && !result; k++) {
		uint32_t lid = record->lid + k;

		tables->lid_kind[lid] = k <= valiant ? VLR_LID_VALIANT : VLR_LID_RESTRICTED;
		tables->lid_via[lid] = via[k];
		if (via[k] == target)
			route_minimal_lid(build, lid, target, last_port);
		else
			result = route_valiant_lid(build, lid, target, last_port, via[k], err);
	}
	return result;
}

/* A port with Valiant offsets: an endpoint port with LMC >= 1, in LID order. */
static int has_offsets(const struct valiant_build *build, uint32_t lid)
{
	uint32_t owner = build->tables->lid_owner[lid];
	const struct vlr_port *record;

	if (owner == VLR_NONE)
		return 0;
	record = &build->tables->fabric->ports[owner];
	return record->lid == lid && record->number && record->lmc;
}

/* The switch of the endpoint port that owns lid. */
static uint32_t lid_switch(const struct vlr_tables *tables, uint32_t lid)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t peer = fabric->ports[tables->lid_owner[lid]].peer;

	return tables->switch_of_node[fabric->ports[peer].node];
}

/*
 * How far from their fair share the ports' own switches serve them, in
 * candidates: |own x candidates - offsets|.
 */
static uint64_t own_excess(const struct valiant_build *build, unsigned spread)
{
	uint32_t lid, rank = 0, own = 0;
	uint64_t have, fair;
	unsigned k;

	for (lid = 1; lid <= build->tables->max_lid; lid++) {
		uint32_t target;

		if (!has_offsets(build, lid))
			continue;
		target = lid_switch(build->tables, lid);
		for (k = 0; k < spread; k++)
			own += valiant_via(build, rank, k, spread) == target;
		rank++;
	}
	have = (uint64_t)own * build->num_candidates;
	fair = (uint64_t)rank * spread;
	return have > fair ? have - fair : fair - have;
}

/*
 * The spread goes through the candidates in a fixed order and ports take
 * their turns in LID order, so that consecutive ports (those of one switch,
 * then of its neighbours) take consecutive candidates and every candidate
 * serves equally often. Where the two orders keep step, a port's own switch
 * comes up far more (or less) often than any other: on a HyperX with one
 * server a switch at LMC 1, every port would be its own intermediate. The
 * spread then runs backwards, when that gives the ports' own switches a
 * count nearer their fair share, offsets / candidates.
 */
static void choose_direction(struct valiant_build *build, unsigned spread)
{
	const struct lowdiam *ld = &build->ld;
	uint32_t serving = 0, i;
	uint64_t forwards;

	build->cycle = build->num_candidates;
	if (ld->topology.params.family != VLR_FAMILY_HYPERX) {
		for (i = ld->member_first[0]; i < ld->member_first[1]; i++)
			serving += can_serve(ld, ld->member[i]) != 0;
		build->cycle = (uint64_t)ld->topology.num_groups * (serving ? serving : 1);
	}
	build->backwards = 0;
	forwards = own_excess(build, spread);
	build->backwards = 1;
	build->backwards = own_excess(build, spread) < forwards;
}

/* Every LID: Valiant offsets for endpoint ports, else minimal. */
static int route_lids(struct valiant_build *build, unsigned spread, unsigned restricted,
		      struct vlr_error *err)
{
	struct vlr_tables *tables = build->tables;
	uint32_t lid, rank = 0, k;

	if (build->valiant)
		choose_direction(build, spread);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint32_t owner = tables->lid_owner[lid], target;
		const struct vlr_port *record;
		uint8_t last_port;

		if (owner == VLR_NONE)
			continue;
		record = &tables->fabric->ports[owner];
		if (record->lid != lid)
			continue;
		if (build->valiant && has_offsets(build, lid)) {
			if (route_port(build, owner, rank++, restricted, err))
				return -1;
			continue;
		}
		target = route_graph_target(&build->ld.graph, lid, &last_port);
		if (target == VLR_NONE)
			return engine_unroutable_lid(tables, lid, err);
		for (k = 0; k < 1u << (record->number ? record->lmc : 0); k++)
			route_minimal_lid(build, lid + k, target, last_port);
	}
	return 0;
}

static int prepare_tables(struct vlr_tables *tables, struct vlr_error *err)
{
	uint32_t lid;

	vlr_tables_reset(tables);
	tables->lid_kind = calloc(tables->lid_stride, 1);
	tables->lid_via = malloc(tables->lid_stride * sizeof(uint32_t));
	if (!tables->lid_kind || !tables->lid_via)
		return vlr_fail(err, "out of memory for the route kinds");
	for (lid = 0; lid < tables->lid_stride; lid++)
		tables->lid_via[lid] = VLR_NONE;
	return 0;
}

/* The LMC of the endpoint ports, the same on all. */
static int endpoint_lmc(const struct vlr_tables *tables, unsigned *lmc, struct vlr_error *err)
{
	uint32_t port, first = VLR_NONE;

	for (port = 0; port < tables->fabric->num_ports; port++) {
		if (!vlr_tables_is_source(tables, port))
			continue;
		if (first == VLR_NONE)
			first = port;
		else if (tables->fabric->ports[port].lmc != tables->fabric->ports[first].lmc)
			return vlr_fail(err, "valiant needs one LMC on every endpoint port: "
					"%s port %u has %u, %s port %u has %u",
					vlr_node_name(tables->fabric, tables->fabric->ports[first].node),
					tables->fabric->ports[first].number,
					tables->fabric->ports[first].lmc,
					vlr_node_name(tables->fabric, tables->fabric->ports[port].node),
					tables->fabric->ports[port].number,
					tables->fabric->ports[port].lmc);
	}
	*lmc = first == VLR_NONE ? 0 : tables->fabric->ports[first].lmc;
	return 0;
}

static int choose_restricted(const struct vlr_engine_options *options, unsigned lmc,
			     unsigned *restricted, struct vlr_error *err)
{
	unsigned offsets = (1u << lmc) - 1;

	if (options->restricted < 0) {
		*restricted = offsets >= 2 ? (offsets + 3) / 4 : 0;
		return 0;
	}
	if ((unsigned)options->restricted >= offsets && options->restricted > 0)
		return vlr_fail(err, "%d restricted offsets leave no unrestricted Valiant "
				"offset among the %u of LMC %u", options->restricted, offsets, lmc);
	*restricted = (unsigned)options->restricted;
	return 0;
}

/* Tables left unprogrammable are for ideal VLs, which need an ideal form. */
static int check_unprogrammable(const struct vlr_engine_options *options,
				struct vlr_engine_report *report, struct vlr_error *err)
{
	if (!options->allow_unprogrammable || vlr_vl_policy_has_ideal_form(&options->policy))
		return 0;
	report->bad_input = 1;
	return vlr_fail(err, "tables that are not programmable are only for the simulator's "
			"ideal VLs, which need a VL policy with an ideal form: ladder, "
			"ladder-reuse or 2phases, not %s",
			vlr_vl_policy_name(options->policy.kind));
}

static int route_low_diameter(struct vlr_tables *tables, const struct vlr_engine_options *options,
			      int valiant, struct vlr_engine_report *report, struct vlr_error *err)
{
	struct vlr_engine_options compile_options;
	struct vlr_topology topology;
	struct valiant_build build;
	unsigned lmc = 0, restricted = 0;
	double start = vlr_clock_seconds();
	int result;

	memset(report, 0, sizeof(*report));
	memset(&build, 0, sizeof(build));
	build.tables = tables;
	build.options = options;
	build.valiant = valiant;
	compile_options = *options;
	if (valiant && compile_options.policy.kind == VLR_VLP_NONE)
		compile_options.policy.kind = VLR_VLP_TWO_PHASES;
	if (check_unprogrammable(&compile_options, report, err) ||
	    (valiant && endpoint_lmc(tables, &lmc, err)))
		return -1;
	if (valiant && !lmc) {
		report->bad_input = 1;
		return vlr_fail(err, "valiant needs LMC >= 1 (LID offset 0 is the minimal "
				"route, every further offset a Valiant one)");
	}
	if (valiant && choose_restricted(options, lmc, &restricted, err))
		return -1;
	if (vlr_topology_recognise(tables->fabric, options->family, &topology, err)) {
		report->bad_input = 1;
		return -1;
	}
	if (lowdiam_init(&build.ld, tables, &topology, options, err))
		return -1;
	report->family = build.ld.topology.params;
	build.reversed_minimal = minimal_phase(&compile_options.policy);
	result = prepare_tables(tables, err) || list_candidates(&build, err) ||
		 route_lids(&build, valiant ? (1u << lmc) - 1 - restricted : 0, restricted, err);
	report->seconds_paths = vlr_clock_seconds() - start;
	start = vlr_clock_seconds();
	if (!result)
		result = vl_compile(tables, &build.ld, &compile_options, report, err);
	report->seconds_layers = vlr_clock_seconds() - start;
	report->valiant_offsets = valiant ? (1u << lmc) - 1 : 0;
	report->restricted_offsets = valiant ? restricted : 0;
	free(build.candidates);
	free(build.near);
	free(build.on_trunk);
	free(build.taken);
	free(build.position);
	lowdiam_free(&build.ld);
	return result ? -1 : 0;
}

int vlr_route_minimal(struct vlr_tables *tables, const struct vlr_engine_options *options,
		      struct vlr_engine_report *report, struct vlr_error *err)
{
	return route_low_diameter(tables, options, 0, report, err);
}

int vlr_route_valiant(struct vlr_tables *tables, const struct vlr_engine_options *options,
		      struct vlr_engine_report *report, struct vlr_error *err)
{
	return route_low_diameter(tables, options, 1, report, err);
}
