/*
 * test_lowdiam.c - the minimal and valiant engines: minimal routes have
 * the topology's lengths and VL counts, Valiant offsets are in-trees
 * through their intermediates within twice the diameter (the port's own
 * switch among them, routed minimally), restricted offsets stay in the
 * destination's partition, every policy's tables are deadlock-free or
 * refused with the numbers, and bad input is refused.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

/* Tables of the fabric params describe, its LIDs assigned at lmc. */
static struct vlr_tables *tables_of(const struct vlr_family_params *params, unsigned lmc,
				    unsigned vls)
{
	struct vlr_fabric *fabric = test_generate(params);
	struct vlr_tables *tables;
	struct vlr_error err;

	assert_int_equal(vlr_fabric_assign_lids(fabric, lmc, &err), 0);
	tables = vlr_tables_new(fabric, vls, &err);
	assert_non_null(tables);
	tables->owns_fabric = 1;
	return tables;
}

static struct vlr_tables *generated(enum vlr_family family, const unsigned *numbers,
				    unsigned lmc, unsigned vls)
{
	struct vlr_family_params params = { .family = family };

	if (family == VLR_FAMILY_HYPERX)
		params.u.grid = (struct vlr_grid_params){ numbers[0], { numbers[1], numbers[2],
								       numbers[3] }, numbers[4] };
	else if (family == VLR_FAMILY_DRAGONFLY)
		params.u.dragonfly = (struct vlr_dragonfly_params){ numbers[0], numbers[1],
								    numbers[2], 0, 0 };
	else
		params.u.dragonflyplus = (struct vlr_dragonflyplus_params){
			numbers[0], numbers[1], numbers[2], numbers[3], 0, 0 };
	return tables_of(&params, lmc, vls);
}

static const unsigned hx44[] = { 2, 4, 4, 0, 2 };	/* dims, sides, hosts */
static const unsigned hx444[] = { 3, 4, 4, 4, 1 };
static const unsigned df242[] = { 2, 4, 2 };		/* p, a, h */
static const unsigned dfp[] = { 3, 2, 2, 2 };		/* leaves, spines, hosts, globals */

static void route_ok(struct vlr_tables *tables, int valiant, enum vlr_vl_policy_kind kind,
		     struct vlr_engine_report *report)
{
	struct vlr_engine_options options;
	struct vlr_error err;

	vlr_engine_options_init(&options);
	options.policy.kind = kind;
	if ((valiant ? vlr_route_valiant : vlr_route_minimal)(tables, &options, report, &err))
		fail_msg("routing failed: %s", err.message);
}

static struct vlr_verify_report verified(const struct vlr_tables *tables)
{
	struct vlr_verify_report report;
	struct vlr_error err;

	assert_int_equal(vlr_verify(tables, &report, &err), 0);
	assert_int_equal(report.bad_routes, 0);
	assert_true(report.cdg_acyclic);
	return report;
}

static void minimal_lengths_and_vls(void **state)
{
	struct vlr_engine_report report;
	struct vlr_verify_report check;
	struct vlr_tables *tables;

	(void)state;
	tables = generated(VLR_FAMILY_HYPERX, hx444, 0, 8);
	route_ok(tables, 0, VLR_VLP_NONE, &report);
	check = verified(tables);
	assert_int_equal(check.hops_max, 3 + 2);	/* Hamming distance + host links */
	assert_int_equal(check.vls_used, 1);
	assert_int_equal(report.sls_used, 1);
	vlr_tables_free(tables);

	tables = generated(VLR_FAMILY_DRAGONFLY, df242, 0, 8);
	route_ok(tables, 0, VLR_VLP_NONE, &report);
	check = verified(tables);
	assert_int_equal(check.hops_max, 3 + 2);	/* local-global-local */
	assert_int_equal(check.vls_used, 2);
	assert_int_equal(check.sls_used, 1);
	vlr_tables_free(tables);

	tables = generated(VLR_FAMILY_DRAGONFLYPLUS, dfp, 0, 8);
	route_ok(tables, 0, VLR_VLP_NONE, &report);
	check = verified(tables);
	assert_int_equal(report.sls_used, 1);
	assert_true(check.vls_used <= 2);		/* the second only to spine LIDs */
	vlr_tables_free(tables);
}

/* Follow the LFTs from switch sw to lid; returns switch hops, VLR_NONE on a loop. */
static uint32_t walk(const struct vlr_tables *tables, uint32_t sw, uint32_t lid,
		     uint32_t must_visit, int *visited)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t hops = 0;

	*visited = sw == must_visit;
	for (hops = 0; hops <= tables->num_switches; hops++) {
		uint32_t node = tables->switch_node[sw];
		uint8_t port = vlr_tables_lft(tables, sw)[lid];
		uint32_t peer = vlr_port_at(fabric, node, port)->peer;

		if (!vlr_node_is_switch(fabric, fabric->ports[peer].node))
			return hops;
		sw = tables->switch_of_node[fabric->ports[peer].node];
		*visited |= sw == must_visit;
	}
	return VLR_NONE;
}

/* The trunk from the intermediate is minimal; every route within 2D hops. */
static void valiant_offsets_are_in_trees(void **state)
{
	struct vlr_engine_report report;
	struct vlr_tables *tables = generated(VLR_FAMILY_HYPERX, hx44, 2, 8);
	uint32_t lid, sw, diameter;
	unsigned kinds[3] = { 0, 0, 0 };

	(void)state;
	route_ok(tables, 1, VLR_VLP_LADDER, &report);
	verified(tables);
	diameter = test_diameter(tables->fabric, NULL);
	assert_int_equal(report.valiant_offsets, 3);
	assert_int_equal(report.restricted_offsets, 1);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint32_t owner = tables->lid_owner[lid];
		const struct vlr_port *port;
		int visited;

		if (owner == VLR_NONE || !vlr_tables_is_source(tables, owner))
			continue;
		port = &tables->fabric->ports[owner];
		kinds[tables->lid_kind[lid]]++;
		assert_int_equal(tables->lid_kind[lid] == VLR_LID_MINIMAL, lid == port->lid);
		if (tables->lid_kind[lid] == VLR_LID_MINIMAL)
			continue;
		for (sw = 0; sw < tables->num_switches; sw++)
			assert_true(walk(tables, sw, lid, VLR_NONE, &visited) <= 2 * diameter);
		/* the trunk: from the intermediate, a minimal route to the port */
		{
			uint32_t via = tables->lid_via[lid];
			uint32_t owner_sw = tables->switch_of_node[tables->fabric->ports[port->peer].node];

			assert_int_equal(walk(tables, via, lid, VLR_NONE, &visited),
					 test_distance(tables->fabric, tables->switch_node[via],
						       tables->switch_node[owner_sw]));
			/* restricted: in a row of the destination's switch */
			if (tables->lid_kind[lid] == VLR_LID_RESTRICTED)
				assert_int_equal(test_distance(tables->fabric,
							       tables->switch_node[via],
							       tables->switch_node[owner_sw]), 1);
		}
	}
	assert_int_equal(kinds[VLR_LID_MINIMAL] * 2, kinds[VLR_LID_VALIANT]);
	assert_int_equal(kinds[VLR_LID_MINIMAL], kinds[VLR_LID_RESTRICTED]);
	vlr_tables_free(tables);
}

/*
 * Dragonfly p=2 a=4 h=2, LMC 6 with 27 restricted offsets: the 36 Valiant
 * offsets of every port go through each of the 36 routers exactly once -
 * the routers of the destination's group and its own router too, as the
 * Valiant studies draw intermediates among all switches - not only
 * through the routers that hold a global link towards it.
 */
static void dragonfly_intermediates_cover_routers(void **state)
{
	struct vlr_tables *tables = generated(VLR_FAMILY_DRAGONFLY, df242, 6, 8);
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_error err;
	uint32_t port, sw, k, ports = 0;

	(void)state;
	vlr_engine_options_init(&options);
	options.restricted = 27;
	if (vlr_route_valiant(tables, &options, &report, &err))
		fail_msg("routing failed: %s", err.message);
	assert_int_equal(tables->num_switches, 36);
	for (port = 0; port < tables->fabric->num_ports; port++) {
		const struct vlr_port *record = &tables->fabric->ports[port];
		unsigned uses[36] = { 0 };

		if (!vlr_tables_is_source(tables, port))
			continue;
		for (k = 1; k <= 36; k++) {
			assert_int_equal(tables->lid_kind[record->lid + k], VLR_LID_VALIANT);
			uses[tables->lid_via[record->lid + k]]++;
		}
		for (sw = 0; sw < tables->num_switches; sw++)
			assert_int_equal(uses[sw], 1);
		ports++;
	}
	assert_int_equal(ports, 72);
	vlr_tables_free(tables);
}

/* Each policy on each family: deadlock-free tables, or a refusal with numbers. */
static void policies_on_families(void **state)
{
	static const enum vlr_vl_policy_kind kinds[] = {
		VLR_VLP_LADDER, VLR_VLP_LADDER_REUSE, VLR_VLP_TWO_PHASES, VLR_VLP_LAYERS
	};
	static const struct {
		enum vlr_family family;
		const unsigned *numbers;
		unsigned ladder_vls;	/* 2 x diameter */
	} fabrics[] = {
		{ VLR_FAMILY_HYPERX, hx44, 4 },
		{ VLR_FAMILY_DRAGONFLY, df242, 6 },
		{ VLR_FAMILY_DRAGONFLYPLUS, dfp, 6 },
	};
	struct vlr_engine_report report;
	size_t f, k;

	(void)state;
	for (f = 0; f < 3; f++)
		for (k = 0; k < 4; k++) {
			struct vlr_tables *tables = generated(fabrics[f].family, fabrics[f].numbers, 1, 8);
			struct vlr_verify_report check;

			route_ok(tables, 1, kinds[k], &report);
			check = verified(tables);
			assert_int_equal(tables->policy.kind, kinds[k]);
			assert_int_equal(check.sls_used, report.sls_used);
			assert_true(check.hops_max - 2 <= fabrics[f].ladder_vls);
			if (kinds[k] == VLR_VLP_LADDER)
				assert_true(check.vls_used <= fabrics[f].ladder_vls);
			if (kinds[k] == VLR_VLP_TWO_PHASES && fabrics[f].family == VLR_FAMILY_HYPERX) {
				assert_int_equal(report.sls_used, 1);	/* DESIGN's scheme */
				assert_int_equal(check.vls_used, 2);
			}
			vlr_tables_free(tables);
		}
}

static const unsigned df363[] = { 3, 6, 3 };		/* 19 groups */
static const unsigned dfp4422[] = { 4, 4, 2, 2 };	/* 9 groups */

/* Valiant tables under policy, or a failure naming it. */
static struct vlr_tables *valiant_under(enum vlr_family family, const unsigned *numbers,
					unsigned lmc, const struct vlr_vl_policy *policy,
					struct vlr_engine_report *report)
{
	struct vlr_tables *tables = generated(family, numbers, lmc, 8);
	struct vlr_engine_options options;
	struct vlr_error err;
	char name[96];

	vlr_engine_options_init(&options);
	options.policy = *policy;
	if (vlr_route_valiant(tables, &options, report, &err)) {
		vlr_vl_policy_describe(policy, name, sizeof(name));
		fail_msg("%s refused at LMC %u: %s", name, lmc, err.message);
	}
	return tables;
}

/*
 * The Valiant studies' policies fit InfiniBand on each family, with one
 * and two VLs per phase, at LMC 1 to 3: at most 16 SLs and 8 VLs, and
 * verified deadlock-free. Ladder was once refused on this Dragonfly at
 * every LMC (21 to 28 SLs).
 */
static void studies_policies_fit(void **state)
{
	static const struct vlr_vl_policy policies[] = {
		{ VLR_VLP_LADDER, 0, 0, 0, 0 },
		{ VLR_VLP_LADDER_REUSE, 0, 0, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 1, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 2, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 1, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 2, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_BOTH, 1, 0, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_BOTH, 2, 0, 0 },
	};
	static const struct {
		enum vlr_family family;
		const unsigned *numbers;
	} fabrics[] = {
		{ VLR_FAMILY_HYPERX, hx444 },
		{ VLR_FAMILY_DRAGONFLY, df363 },
		{ VLR_FAMILY_DRAGONFLYPLUS, dfp4422 },
	};
	struct vlr_engine_report report;
	size_t f, p;
	unsigned lmc;

	(void)state;
	for (f = 0; f < 3; f++)
		for (p = 0; p < sizeof(policies) / sizeof(policies[0]); p++)
			for (lmc = 1; lmc <= 3; lmc += 2) {
				struct vlr_tables *tables = valiant_under(fabrics[f].family,
					fabrics[f].numbers, lmc, &policies[p], &report);
				struct vlr_verify_report check = verified(tables);

				assert_true(report.sls_used <= VLR_NUM_SLS);
				assert_true(check.vls_used <= 8);
				assert_true(vlr_verify_passed(&check));
				vlr_tables_free(tables);
			}
}

/* The switch of the endpoint port owning lid. */
static uint32_t lid_switch(const struct vlr_tables *tables, uint32_t lid)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t peer = fabric->ports[tables->lid_owner[lid]].peer;

	return tables->switch_of_node[fabric->ports[peer].node];
}

/*
 * Valiant LIDs whose intermediate is their own switch, checked: every
 * route to one is of the minimal class (no second phase) and as long as
 * the minimal route to the port's base LID; returns how many such LIDs
 * the tables hold.
 */
static unsigned own_switch_lids(const struct vlr_tables *tables)
{
	struct vlr_trunks trunks;
	struct vlr_error err;
	uint32_t lid, sw;
	unsigned count = 0;
	int visited;

	assert_int_equal(vlr_trunks_build(tables, &trunks, &err), 0);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint32_t target, base;

		if (tables->lid_owner[lid] == VLR_NONE ||
		    !vlr_tables_is_source(tables, tables->lid_owner[lid]) ||
		    tables->lid_kind[lid] != VLR_LID_VALIANT)
			continue;
		target = lid_switch(tables, lid);
		if (tables->lid_via[lid] != target)
			continue;
		count++;
		base = tables->fabric->ports[tables->lid_owner[lid]].lid;
		for (sw = 0; sw < tables->num_switches; sw++) {
			assert_int_equal(vlr_trunks_route_class(tables, &trunks, sw, lid),
					 VLR_ROUTE_MINIMAL);
			assert_int_equal(walk(tables, sw, lid, VLR_NONE, &visited),
					 walk(tables, sw, base, VLR_NONE, &visited));
		}
	}
	vlr_trunks_free(&trunks);
	return count;
}

/*
 * The port's own switch is an intermediate like any other: on a HyperX
 * 4x4 at LMC 2 (2 Valiant offsets a port over 16 switches) and on the
 * Dragonflies some LIDs have it (once none did), and every route to them
 * is minimal, in the minimal class. It comes up about as often as any
 * switch: on a HyperX 8x8 with one server a switch at LMC 1, its fair
 * share is once among the 64 ports (with the spread running forwards, in
 * step with the ports, every port would be its own intermediate).
 */
static void own_switch_intermediates(void **state)
{
	static const unsigned hx88[] = { 2, 8, 8, 0, 1 };
	struct vlr_vl_policy policy = { VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 1, 0, 0 };
	struct vlr_engine_report report;
	struct vlr_tables *tables;

	(void)state;
	tables = valiant_under(VLR_FAMILY_HYPERX, hx88, 1, &policy, &report);
	assert_true(own_switch_lids(tables) <= 1);
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &policy, &report);
	assert_true(own_switch_lids(tables) > 0);
	vlr_tables_free(tables);
	policy.vls_per_phase = 2;
	tables = valiant_under(VLR_FAMILY_DRAGONFLY, df242, 2, &policy, &report);
	assert_true(own_switch_lids(tables) > 0);
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_DRAGONFLYPLUS, dfp, 2, &policy, &report);
	assert_true(own_switch_lids(tables) > 0);
	vlr_tables_free(tables);
}

/* The VL a CA port's packets to lid enter its switch on. */
static unsigned injection_vl(const struct vlr_tables *tables, uint32_t port, uint32_t lid)
{
	return vlr_tables_port_sl2vl(tables, port)[vlr_tables_path_sl(tables, port, lid)];
}

/* A Valiant LID whose intermediate is its own switch, not switch sw. */
static uint32_t own_switch_lid(const struct vlr_tables *tables, uint32_t sw)
{
	uint32_t lid;

	for (lid = 1; lid <= tables->max_lid; lid++)
		if (tables->lid_owner[lid] != VLR_NONE &&
		    vlr_tables_is_source(tables, tables->lid_owner[lid]) &&
		    tables->lid_kind[lid] == VLR_LID_VALIANT &&
		    tables->lid_via[lid] == lid_switch(tables, lid) &&
		    lid_switch(tables, lid) != sw)
			return lid;
	fail_msg("no Valiant LID has its own switch as intermediate");
	return 0;
}

/*
 * minfirst and minlast differ in the exact form where their definitions
 * do: a Dragonfly's minimal LIDs, and Valiant LIDs whose intermediate is
 * their own switch, are entered on the first set's VL 0 under minfirst
 * and on the second set's first VL under minlast; other Valiant LIDs on
 * VL 0 under both. On a HyperX minlast follows the phases (SL codes tell
 * them), where minfirst can only follow the turns (one SL).
 */
static void minfirst_minlast_differ(void **state)
{
	struct vlr_vl_policy first = { VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 2, 0, 0 };
	struct vlr_vl_policy last = { VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 2, 0, 0 };
	struct vlr_engine_report report;
	struct vlr_tables *a = valiant_under(VLR_FAMILY_DRAGONFLY, df363, 2, &first, &report);
	struct vlr_tables *b = valiant_under(VLR_FAMILY_DRAGONFLY, df363, 2, &last, &report);
	uint32_t source = VLR_NONE, port, lid;

	(void)state;
	for (port = 0; port < a->fabric->num_ports && source == VLR_NONE; port++)
		if (vlr_tables_is_source(a, port))
			source = port;
	assert_int_not_equal(source, VLR_NONE);
	lid = a->fabric->ports[a->fabric->num_ports - 1].lid;
	for (port = a->fabric->num_ports; lid == 0 && port-- > 0;)
		lid = vlr_tables_is_source(a, port) ? a->fabric->ports[port].lid : 0;
	assert_int_equal(a->lid_kind[lid], VLR_LID_MINIMAL);
	assert_int_equal(injection_vl(a, source, lid), 0);
	assert_int_equal(injection_vl(b, source, lid), 2);
	assert_int_equal(b->lid_kind[lid + 1], VLR_LID_VALIANT);
	assert_int_not_equal(b->lid_via[lid + 1], lid_switch(b, lid + 1));
	assert_int_equal(injection_vl(a, source, lid + 1), 0);
	assert_int_equal(injection_vl(b, source, lid + 1), 0);
	lid = own_switch_lid(a, a->switch_of_node[a->fabric->ports[
		a->fabric->ports[source].peer].node]);
	assert_int_equal(b->lid_via[lid], a->lid_via[lid]);
	assert_int_equal(injection_vl(a, source, lid), 0);
	assert_int_equal(injection_vl(b, source, lid), 2);
	vlr_tables_free(a);
	vlr_tables_free(b);
	first.vls_per_phase = last.vls_per_phase = 1;
	a = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &first, &report);
	assert_int_equal(report.sls_used, 1);
	vlr_tables_free(a);
	b = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &last, &report);
	assert_true(report.sls_used > 1);
	assert_true(verified(b).cdg_acyclic);
	vlr_tables_free(b);
}

/* Offsets of the port whose first LID is base that repeat the intermediate
   of an offset of their kind (Valiant, restricted). */
static unsigned repeats(const struct vlr_tables *tables, uint32_t base, unsigned offsets)
{
	unsigned k, j, count = 0;

	for (k = 1; k < offsets; k++)
		for (j = 1; j < k; j++)
			if (tables->lid_via[base + j] == tables->lid_via[base + k] &&
			    tables->lid_kind[base + j] == tables->lid_kind[base + k]) {
				count++;
				break;
			}
	return count;
}

/*
 * No intermediate serves two offsets of one kind of a port while any
 * switch is left: at LMC 3 on a HyperX 4x4 neither the 5 Valiant nor the
 * 2 restricted offsets of a port repeat one; at LMC 6 on a HyperX 8x8
 * only the 16 restricted offsets, whose partition holds 14 switches,
 * repeat - two each (240 of 512 ports once repeated a Valiant
 * intermediate there).
 */
static void intermediates_distinct(void **state)
{
	static const unsigned hx88[] = { 2, 8, 8, 0, 1 };
	struct vlr_vl_policy policy = { VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 1, 0, 0 };
	struct vlr_engine_report report;
	struct vlr_tables *tables;
	uint32_t port;

	(void)state;
	tables = valiant_under(VLR_FAMILY_HYPERX, hx44, 3, &policy, &report);
	for (port = 0; port < tables->fabric->num_ports; port++)
		if (vlr_tables_is_source(tables, port))
			assert_int_equal(repeats(tables, tables->fabric->ports[port].lid, 8), 0);
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_HYPERX, hx88, 6, &policy, &report);
	assert_int_equal(report.restricted_offsets, 16);
	for (port = 0; port < tables->fabric->num_ports; port++)
		if (vlr_tables_is_source(tables, port))
			assert_int_equal(repeats(tables, tables->fabric->ports[port].lid, 64), 2);
	vlr_tables_free(tables);
}

/* Whether the ideal form of tables is acyclic; escalating: global links. */
static int ideal_acyclic(const struct vlr_tables *tables, int escalating, int escape)
{
	struct vlr_verify_report report;
	struct vlr_topology topology;
	struct vlr_error err;
	uint8_t escalates[4096] = { 0 };
	uint32_t slot;

	assert_int_equal(vlr_topology_recognise(tables->fabric, VLR_FAMILY_NONE, &topology,
						&err), 0);
	assert_true(tables->fabric->num_ports <= sizeof(escalates));
	for (slot = 0; slot < tables->fabric->num_ports; slot++)
		escalates[slot] = topology.port_class[slot] == VLR_PORT_GLOBAL;
	vlr_topology_free(&topology);
	if (vlr_verify_ideal(tables, &tables->policy, escalating ? escalates : NULL, escape,
			     &report, &err))
		fail_msg("%s", err.message);
	return report.cdg_acyclic;
}

/*
 * The ideal forms checked for deadlock freedom: ladder-reuse has cycles
 * among all its VLs but climbs its escape ladder; on a HyperX, minfirst
 * puts the routes that start on a trunk (reverse dimension order) in set 0
 * with the first phase (forward order): a cycle the exact form does not
 * have; minlast keeps them apart. On a Dragonfly 2phases needs the global
 * links to escalate.
 */
static void ideal_forms_checked(void **state)
{
	struct vlr_vl_policy reuse = { VLR_VLP_LADDER_REUSE, 0, 0, 0, 0 };
	struct vlr_vl_policy first = { VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 1, 0, 0 };
	struct vlr_vl_policy last = { VLR_VLP_TWO_PHASES, VLR_MIN_LAST, 1, 0, 0 };
	struct vlr_vl_policy df = { VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, 2, 0, 0 };
	struct vlr_engine_report report;
	struct vlr_tables *tables;

	(void)state;
	tables = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &reuse, &report);
	assert_false(ideal_acyclic(tables, 1, 0));
	assert_true(ideal_acyclic(tables, 1, 1));
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &first, &report);
	assert_true(verified(tables).cdg_acyclic);
	assert_false(ideal_acyclic(tables, 1, 0));
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_HYPERX, hx44, 2, &last, &report);
	assert_true(ideal_acyclic(tables, 1, 0));
	vlr_tables_free(tables);
	tables = valiant_under(VLR_FAMILY_DRAGONFLY, df242, 2, &df, &report);
	assert_true(ideal_acyclic(tables, 1, 0));
	assert_false(ideal_acyclic(tables, 0, 0));
	vlr_tables_free(tables);
}

static void expect_failure(struct vlr_tables *tables, int valiant,
			   const struct vlr_engine_options *options, const char *fragment,
			   int bad_input)
{
	struct vlr_engine_report report;
	struct vlr_error err;

	assert_int_equal((valiant ? vlr_route_valiant : vlr_route_minimal)(tables, options,
									 &report, &err), -1);
	if (!strstr(err.message, fragment))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment);
	assert_int_equal(report.bad_input, bad_input);
	vlr_tables_free(tables);
}

static void refusals(void **state)
{
	struct vlr_engine_options options;

	(void)state;
	vlr_engine_options_init(&options);
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 0, 8), 1, &options, "LMC >= 1", 1);
	options.family = VLR_FAMILY_DRAGONFLYPLUS;
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 0, 8), 0, &options,
		       "not a Dragonfly+", 1);
	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_LADDER;
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 1, 3), 1, &options,
		       "needs 4 VLs on this fabric", 0);
	vlr_engine_options_init(&options);
	options.restricted = 1;
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 1, 8), 1, &options,
		       "leave no unrestricted Valiant offset", 0);
	vlr_engine_options_init(&options);
	options.dim_order_count = 2;
	options.dim_order[0] = options.dim_order[1] = 1;
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 0, 8), 0, &options,
		       "each of the dimensions 0..1 once", 0);
}

/* Valiant tables of a HyperX routed with allow_unprogrammable for a ladder. */
static struct vlr_tables *allowed(struct vlr_tables *tables, struct vlr_engine_report *report)
{
	struct vlr_engine_options options;
	struct vlr_error err;

	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_LADDER;
	options.allow_unprogrammable = 1;
	if (vlr_route_valiant(tables, &options, report, &err))
		fail_msg("routing failed: %s", err.message);
	return tables;
}

/* Marked tables: every path on SL 0, routes whole, never passed. */
static void check_marked(const struct vlr_tables *tables, const char *why)
{
	struct vlr_verify_report check;
	struct vlr_error err;
	char text[128];
	uint32_t row, lid;

	assert_true(tables->unprogrammable.marked);
	vlr_unprogrammable_describe(&tables->unprogrammable, text, sizeof(text));
	if (!strstr(text, why))
		fail_msg("\"%s\" lacks \"%s\"", text, why);
	for (row = 0; row < tables->num_sl_rows; row++)
		for (lid = 0; lid <= tables->max_lid; lid++)
			assert_int_equal(vlr_tables_sl_row(tables, row)[lid], 0);
	assert_int_equal(vlr_verify(tables, &check, &err), 0);
	assert_int_equal(check.bad_routes, 0);
	assert_true(check.unprogrammable.marked);
	assert_false(vlr_verify_passed(&check));
	assert_int_equal(vlr_verify_deadlock_free(&check, 1), VLR_DEADLOCK_FREE_UNPROGRAMMABLE);
	assert_int_equal(vlr_verify_policy(tables, &check, &err), -1);
	assert_non_null(strstr(err.message, why));
	assert_true(ideal_acyclic(tables, 1, 0));
}

/*
 * A policy that does not fit, allowed: its tables marked with what it
 * needs - a ladder of 4 VLs on a HyperX 4x4 offering 3 (SLs enough), 22 SLs
 * on a HyperX 2x2x2x2x2 at LMC 4 - for the ideal form only, whose
 * dependencies are acyclic. A policy that fits is not marked; one without
 * an ideal form is refused as bad input.
 */
static void unprogrammable_tables(void **state)
{
	struct vlr_family_params hx5d = { .family = VLR_FAMILY_HYPERX };
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_tables *tables;

	(void)state;
	hx5d.u.grid = (struct vlr_grid_params){ 5, { 2, 2, 2, 2, 2 }, 1 };
	tables = allowed(generated(VLR_FAMILY_HYPERX, hx44, 1, 3), &report);
	check_marked(tables, "not programmable: needs 4 VLs (3 offered)");
	assert_int_equal(tables->unprogrammable.vls, 4);
	assert_true(tables->unprogrammable.sls <= VLR_NUM_SLS);
	assert_int_equal(tables->policy.vls, 4);
	vlr_tables_free(tables);
	tables = allowed(tables_of(&hx5d, 4, 15), &report);
	assert_true(tables->unprogrammable.sls > VLR_NUM_SLS);
	assert_int_equal(report.sls_used, tables->unprogrammable.sls);
	check_marked(tables, " SLs");
	vlr_tables_free(tables);
	tables = allowed(generated(VLR_FAMILY_HYPERX, hx44, 1, 8), &report);
	assert_false(tables->unprogrammable.marked);
	assert_true(verified(tables).cdg_acyclic);
	vlr_tables_free(tables);
	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_LAYERS;
	options.allow_unprogrammable = 1;
	expect_failure(generated(VLR_FAMILY_HYPERX, hx44, 1, 8), 1, &options,
		       "need a VL policy with an ideal form", 1);
}

/* The ideal form: masks per hop and the trunk index of the tables. */
static void ideal_vl_sets(void **state)
{
	struct vlr_vl_policy ladder = { VLR_VLP_LADDER, 0, 0, 4, 0 };
	struct vlr_vl_policy reuse = { VLR_VLP_LADDER_REUSE, 0, 0, 4, 0 };
	struct vlr_vl_policy phases = { VLR_VLP_TWO_PHASES, VLR_MIN_BOTH, 2, 4, 0 };
	struct vlr_engine_report report;
	struct vlr_tables *tables = generated(VLR_FAMILY_DRAGONFLY, df242, 1, 8);
	struct vlr_trunks trunks;
	struct vlr_error err;
	uint32_t lid;

	(void)state;
	assert_int_equal(vlr_policy_vl_mask(&ladder, VLR_ROUTE_VALIANT, 3, 1, 0), 0x8);
	assert_int_equal(vlr_policy_vl_mask(&reuse, VLR_ROUTE_VALIANT, 2, 0, 1), 0x7);
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 0, 0, 0), 0x3);
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 4, 1, 1), 0xc);
	/* minboth: minimal LIDs in the second set, on-trunk routes in the first */
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_MINIMAL, 1, 0, 0), 0xc);
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_ON_TRUNK, 1, 1, 0), 0x3);
	/* Dragonflies: the phase's VLs split by escalation level */
	phases.phase_levels = 2;
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 1, 0, 0), 0x1);
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 2, 0, 1), 0x2);
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 4, 1, 1), 0x8);
	phases.vls_per_phase = 4;
	assert_int_equal(vlr_policy_vl_mask(&phases, VLR_ROUTE_VALIANT, 0, 1, 0), 0x30);
	route_ok(tables, 1, VLR_VLP_TWO_PHASES, &report);
	assert_int_equal(vlr_trunks_build(tables, &trunks, &err), 0);
	for (lid = 1; lid <= tables->max_lid; lid++)
		if (tables->lid_kind[lid] != VLR_LID_MINIMAL)
			assert_true(vlr_trunks_has(&trunks, tables->lid_via[lid], lid));
	vlr_trunks_free(&trunks);
	vlr_tables_free(tables);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(minimal_lengths_and_vls),
		cmocka_unit_test(valiant_offsets_are_in_trees),
		cmocka_unit_test(dragonfly_intermediates_cover_routers),
		cmocka_unit_test(own_switch_intermediates),
		cmocka_unit_test(policies_on_families),
		cmocka_unit_test(studies_policies_fit),
		cmocka_unit_test(minfirst_minlast_differ),
		cmocka_unit_test(ideal_forms_checked),
		cmocka_unit_test(intermediates_distinct),
		cmocka_unit_test(refusals),
		cmocka_unit_test(unprogrammable_tables),
		cmocka_unit_test(ideal_vl_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
