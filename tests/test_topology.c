/*
 * test_topology.c - recognising HyperX, Dragonfly and Dragonfly+ from the
 * graph alone (node names and node order scrambled), near misses named,
 * and the traffic patterns built on the recognised structure.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* How to copy a fabric: the link to leave out, the switch to drop. */
struct copy_rules {
	uint32_t skip_a, skip_b;	/* nodes whose link is left out */
	uint32_t dead;			/* switch left out with its hosts */
	uint32_t extra_a, extra_b;	/* switches given one more linked port */
};

static const struct copy_rules keep_all = { VLR_NONE, VLR_NONE, VLR_NONE, VLR_NONE, VLR_NONE };

static int dropped(const struct vlr_fabric *fabric, const struct copy_rules *rules,
		   uint32_t node)
{
	uint32_t peer;

	if (node == rules->dead)
		return 1;
	if (vlr_node_is_switch(fabric, node) || rules->dead == VLR_NONE)
		return 0;
	peer = vlr_port_at(fabric, node, 1)->peer;
	return peer != VLR_NONE && fabric->ports[peer].node == rules->dead;
}

/*
 * The same fabric with nodes in reverse order and names "nNNN" that say
 * nothing, changed as the rules say.
 */
static struct vlr_fabric *scrambled(const struct vlr_fabric *fabric,
				    const struct copy_rules *rules)
{
	struct vlr_fabric *copy = vlr_fabric_new();
	uint32_t *new_of = malloc(sizeof(uint32_t) * fabric->num_nodes), node, port;
	struct vlr_error err;
	char name[32];

	for (node = fabric->num_nodes; node-- > 0;) {
		unsigned ports = fabric->nodes[node].num_ports +
				 (node == rules->extra_a || node == rules->extra_b);

		new_of[node] = VLR_NONE;
		if (dropped(fabric, rules, node))
			continue;
		snprintf(name, sizeof(name), "n%u", (node * 7919u) % 100003u);
		new_of[node] = vlr_fabric_add_node(copy, fabric->nodes[node].type, name,
						   ports, 0, &err);
		assert_int_not_equal(new_of[node], VLR_NONE);
	}
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *a = &fabric->ports[port], *b;

		if (a->peer == VLR_NONE || a->peer < port)
			continue;
		b = &fabric->ports[a->peer];
		if (new_of[a->node] == VLR_NONE || new_of[b->node] == VLR_NONE ||
		    (a->node == rules->skip_a && b->node == rules->skip_b) ||
		    (a->node == rules->skip_b && b->node == rules->skip_a))
			continue;
		assert_int_equal(vlr_fabric_link(copy, new_of[a->node], a->number,
						 new_of[b->node], b->number, &err), 0);
	}
	if (rules->extra_a != VLR_NONE)
		assert_int_equal(vlr_fabric_link(copy, new_of[rules->extra_a],
						 fabric->nodes[rules->extra_a].num_ports + 1,
						 new_of[rules->extra_b],
						 fabric->nodes[rules->extra_b].num_ports + 1, &err), 0);
	free(new_of);
	return copy;
}

static struct vlr_fabric *generate_hyperx(unsigned dims, const unsigned *sides, unsigned hosts)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_HYPERX };
	unsigned d;

	params.u.grid.dims = dims;
	params.u.grid.hosts = hosts;
	for (d = 0; d < dims; d++)
		params.u.grid.sides[d] = sides[d];
	return test_generate(&params);
}

static struct vlr_fabric *generate_dragonfly(unsigned p, unsigned a, unsigned h, unsigned g,
					     enum vlr_arrangement arrangement)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };

	params.u.dragonfly = (struct vlr_dragonfly_params){ p, a, h, g, arrangement };
	return test_generate(&params);
}

static struct vlr_fabric *generate_dragonflyplus(unsigned leaves, unsigned spines,
						 unsigned hosts, unsigned globals)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLYPLUS };

	params.u.dragonflyplus = (struct vlr_dragonflyplus_params){
		leaves, spines, hosts, globals, 0, VLR_ARRANGEMENT_PALMTREE
	};
	return test_generate(&params);
}

static void recognise(const struct vlr_fabric *fabric, struct vlr_topology *topology)
{
	struct vlr_error err;

	if (vlr_topology_recognise(fabric, VLR_FAMILY_NONE, topology, &err))
		fail_msg("not recognised: %s", err.message);
}

static void expect_refusal(const struct vlr_fabric *fabric, enum vlr_family family,
			   const char *fragment1, const char *fragment2)
{
	struct vlr_topology topology;
	struct vlr_error err;

	if (!vlr_topology_recognise(fabric, family, &topology, &err)) {
		vlr_topology_free(&topology);
		fail_msg("expected a refusal mentioning \"%s\"", fragment1);
	}
	if (!strstr(err.message, fragment1) || (fragment2 && !strstr(err.message, fragment2)))
		fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", err.message, fragment1,
			 fragment2 ? fragment2 : "");
}

static unsigned count_class(const struct vlr_topology *topology, const struct vlr_fabric *fabric,
			    enum vlr_port_class class)
{
	unsigned count = 0;
	uint32_t port;

	for (port = 0; port < fabric->num_ports; port++)
		count += topology->port_class[port] == class;
	return count;
}

static void hyperx_generated_coordinates(void **state)
{
	static const unsigned sides[] = { 3, 4, 5 };
	struct vlr_fabric *fabric = generate_hyperx(3, sides, 2);
	struct vlr_grid_params grid = { 3, { 3, 4, 5 }, 2 };
	struct vlr_topology topology;
	unsigned coords[VLR_MAX_DIMS], d;
	uint32_t sw;

	(void)state;
	recognise(fabric, &topology);
	assert_int_equal(topology.params.family, VLR_FAMILY_HYPERX);
	assert_int_equal(topology.params.u.grid.dims, 3);
	for (d = 0; d < 3; d++)
		assert_int_equal(topology.params.u.grid.sides[d], sides[d]);
	assert_int_equal(topology.params.u.grid.hosts, 2);
	/* switch 0 is the root: the generator's own coordinates come back */
	for (sw = 0; sw < topology.num_switches; sw++) {
		uint32_t index = sw, rest = index;

		for (d = 0; d < 3; d++) {
			coords[d] = rest % grid.sides[d];
			rest /= grid.sides[d];
		}
		for (d = 0; d < 3; d++)
			assert_int_equal(topology.coord[sw * 3 + d], coords[d]);
	}
	assert_int_equal(count_class(&topology, fabric, VLR_PORT_LOCAL), 60 * (2 + 3 + 4));
	assert_int_equal(count_class(&topology, fabric, VLR_PORT_HOST), 120);
	vlr_topology_free(&topology);
	vlr_fabric_free(fabric);
}

/* Scrambled names and order: every link still changes one coordinate. */
static void hyperx_from_graph_alone(void **state)
{
	static const unsigned sides[] = { 4, 4 };
	struct vlr_fabric *fabric = generate_hyperx(2, sides, 1);
	struct vlr_fabric *copy = scrambled(fabric, &keep_all);
	struct vlr_topology topology;
	uint32_t port;

	(void)state;
	recognise(copy, &topology);
	assert_int_equal(topology.params.family, VLR_FAMILY_HYPERX);
	assert_int_equal(topology.params.u.grid.sides[0], 4);
	assert_int_equal(topology.params.u.grid.sides[1], 4);
	for (port = 0; port < copy->num_ports; port++) {
		const struct vlr_port *record = &copy->ports[port];
		uint32_t a, b, differ = 0;
		unsigned d;

		if (topology.port_class[port] != VLR_PORT_LOCAL)
			continue;
		a = topology.switch_of_node[record->node];
		b = topology.switch_of_node[copy->ports[record->peer].node];
		for (d = 0; d < 2; d++)
			differ += topology.coord[a * 2 + d] != topology.coord[b * 2 + d];
		assert_int_equal(differ, 1);
		assert_int_not_equal(topology.coord[a * 2 + topology.port_dim[port]],
				     topology.coord[b * 2 + topology.port_dim[port]]);
	}
	vlr_topology_free(&topology);
	vlr_fabric_free(copy);
	vlr_fabric_free(fabric);
}

static void hyperx_near_misses(void **state)
{
	static const unsigned sides[] = { 4, 4, 3 };
	struct vlr_fabric *fabric = generate_hyperx(3, sides, 1);
	struct copy_rules missing = keep_all, dead = keep_all;
	struct vlr_fabric *copy;

	(void)state;
	missing.skip_a = 5;		/* (1,1,0) - (2,1,0) */
	missing.skip_b = 6;
	copy = scrambled(fabric, &missing);
	expect_refusal(copy, VLR_FAMILY_HYPERX, "almost a HyperX", "are not linked");
	vlr_fabric_free(copy);
	dead.dead = 21;			/* (1,1,1) */
	copy = scrambled(fabric, &dead);
	expect_refusal(copy, VLR_FAMILY_HYPERX, "almost a HyperX", "a switch is missing");
	vlr_fabric_free(copy);
	vlr_fabric_free(fabric);
}

static void dragonfly_parameters(void **state)
{
	static const struct {
		unsigned p, a, h, g;
		enum vlr_arrangement arrangement;
	} cases[] = {
		{ 2, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE },
		{ 3, 6, 3, 0, VLR_ARRANGEMENT_CONSECUTIVE },
		{ 2, 4, 2, 5, VLR_ARRANGEMENT_PALMTREE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vlr_fabric *fabric = generate_dragonfly(cases[i].p, cases[i].a, cases[i].h,
							       cases[i].g, cases[i].arrangement);
		unsigned groups = cases[i].g ? cases[i].g : cases[i].a * cases[i].h + 1;
		struct vlr_topology topology;
		uint32_t sw;

		recognise(fabric, &topology);
		assert_int_equal(topology.params.family, VLR_FAMILY_DRAGONFLY);
		assert_int_equal(topology.params.u.dragonfly.p, cases[i].p);
		assert_int_equal(topology.params.u.dragonfly.a, cases[i].a);
		assert_int_equal(topology.params.u.dragonfly.h, cases[i].h);
		assert_int_equal(topology.params.u.dragonfly.g, groups);
		assert_true(topology.arrangement_known);
		assert_int_equal(topology.params.u.dragonfly.arrangement, cases[i].arrangement);
		for (sw = 0; sw < topology.num_switches; sw++) {
			assert_int_equal(topology.group[sw], sw / cases[i].a);
			assert_int_equal(topology.index_in_group[sw], sw % cases[i].a);
		}
		assert_int_equal(count_class(&topology, fabric, VLR_PORT_GLOBAL),
				 groups * cases[i].a * cases[i].h -
				 (groups * cases[i].a * cases[i].h) % 2);
		vlr_topology_free(&topology);
		vlr_fabric_free(fabric);
	}
}

static void dragonfly_near_misses(void **state)
{
	struct vlr_fabric *fabric = generate_dragonfly(2, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE);
	struct copy_rules missing = keep_all, dead = keep_all, extra = keep_all;
	struct vlr_fabric *copy = scrambled(fabric, &keep_all);
	struct vlr_topology topology;

	(void)state;
	recognise(copy, &topology);
	assert_int_equal(topology.params.family, VLR_FAMILY_DRAGONFLY);
	vlr_topology_free(&topology);
	vlr_fabric_free(copy);
	missing.skip_a = 0;		/* two routers of group 0 */
	missing.skip_b = 1;
	copy = scrambled(fabric, &missing);
	expect_refusal(copy, VLR_FAMILY_NONE, "almost a Dragonfly", "not linked");
	vlr_fabric_free(copy);
	dead.dead = 13;
	copy = scrambled(fabric, &dead);
	expect_refusal(copy, VLR_FAMILY_DRAGONFLY, "almost a Dragonfly", "3 routers, the others 4");
	vlr_fabric_free(copy);
	extra.extra_a = 2;		/* a second link between groups 0 and 5 */
	extra.extra_b = 21;
	copy = scrambled(fabric, &extra);
	expect_refusal(copy, VLR_FAMILY_DRAGONFLY, "almost a Dragonfly", "3 global links");
	vlr_fabric_free(copy);
	vlr_fabric_free(fabric);
}

static void dragonflyplus_roles(void **state)
{
	struct vlr_fabric *fabric = generate_dragonflyplus(3, 2, 2, 2);
	struct vlr_fabric *copy = scrambled(fabric, &keep_all);
	struct copy_rules missing = keep_all;
	struct vlr_topology topology;
	uint32_t sw, leaves = 0;

	(void)state;
	recognise(copy, &topology);
	assert_int_equal(topology.params.family, VLR_FAMILY_DRAGONFLYPLUS);
	assert_int_equal(topology.params.u.dragonflyplus.leaves, 3);
	assert_int_equal(topology.params.u.dragonflyplus.spines, 2);
	assert_int_equal(topology.params.u.dragonflyplus.hosts, 2);
	assert_int_equal(topology.params.u.dragonflyplus.globals, 2);
	assert_int_equal(topology.params.u.dragonflyplus.groups, 5);
	for (sw = 0; sw < topology.num_switches; sw++)
		leaves += topology.role[sw] == VLR_ROLE_LEAF;
	assert_int_equal(leaves, 15);
	assert_int_equal(count_class(&topology, copy, VLR_PORT_UP), 5 * 3 * 2);
	assert_int_equal(count_class(&topology, copy, VLR_PORT_DOWN), 5 * 3 * 2);
	assert_int_equal(count_class(&topology, copy, VLR_PORT_GLOBAL), 5 * 2 * 2);
	vlr_topology_free(&topology);
	vlr_fabric_free(copy);
	missing.skip_a = 0;		/* leaf 0 - spine 0 of group 0 */
	missing.skip_b = 3;
	copy = scrambled(fabric, &missing);
	expect_refusal(copy, VLR_FAMILY_DRAGONFLYPLUS, "almost a Dragonfly+", "links inside");
	vlr_fabric_free(copy);
	vlr_fabric_free(fabric);
}

static void other_families_refused(void **state)
{
	struct vlr_family_params torus = { .family = VLR_FAMILY_TORUS };
	struct vlr_fabric *fabric;

	(void)state;
	torus.u.grid = (struct vlr_grid_params){ 2, { 5, 5 }, 1 };
	fabric = test_generate(&torus);
	expect_refusal(fabric, VLR_FAMILY_NONE, "HyperX", NULL);
	expect_refusal(fabric, VLR_FAMILY_FATTREE, "only HyperX, Dragonfly and Dragonfly+", NULL);
	vlr_fabric_free(fabric);
}

/* ---- canonical numbering ------------------------------------------------- */

static struct vlr_family_params family_case(unsigned which)
{
	struct vlr_family_params params;

	memset(&params, 0, sizeof(params));
	switch (which) {
	case 0:
		params.family = VLR_FAMILY_HYPERX;
		params.u.grid = (struct vlr_grid_params){ 3, { 4, 3, 2 }, 1 };
		break;
	case 1:
		params.family = VLR_FAMILY_DRAGONFLY;
		params.u.dragonfly = (struct vlr_dragonfly_params){
			2, 4, 2, 6, VLR_ARRANGEMENT_PALMTREE };
		break;
	case 2:
		params.family = VLR_FAMILY_DRAGONFLY;
		params.u.dragonfly = (struct vlr_dragonfly_params){
			1, 4, 2, 0, VLR_ARRANGEMENT_CONSECUTIVE };
		break;
	case 3:
		params.family = VLR_FAMILY_DRAGONFLYPLUS;
		params.u.dragonflyplus = (struct vlr_dragonflyplus_params){
			3, 2, 2, 2, 0, VLR_ARRANGEMENT_PALMTREE };
		break;
	default:
		params.family = VLR_FAMILY_DRAGONFLYPLUS;
		params.u.dragonflyplus = (struct vlr_dragonflyplus_params){
			2, 3, 1, 2, 0, VLR_ARRANGEMENT_CONSECUTIVE };
		break;
	}
	return params;
}

#define FAMILY_CASES 5

static uint64_t switch_guid(const struct vlr_fabric *fabric, const struct vlr_topology *t,
			    uint32_t sw)
{
	return fabric->nodes[t->switch_node[sw]].guid;
}

/* Both recognitions give every switch (known by its GUID) the same numbers. */
static void assert_same_numbering(const struct vlr_fabric *a, const struct vlr_topology *ta,
				  const struct vlr_fabric *b, const struct vlr_topology *tb)
{
	char want[256], got[256];
	unsigned dims = ta->params.family == VLR_FAMILY_HYPERX ? ta->params.u.grid.dims : 0;
	uint32_t i, d;

	vlr_family_describe(&ta->params, want, sizeof(want));
	vlr_family_describe(&tb->params, got, sizeof(got));
	assert_string_equal(want, got);
	assert_int_equal(ta->arrangement_known, tb->arrangement_known);
	assert_int_equal(ta->num_switches, tb->num_switches);
	for (i = 0; i < ta->num_switches; i++) {
		uint32_t x = ta->switch_order[i], y = tb->switch_order[i];

		assert_int_equal(switch_guid(a, ta, x), switch_guid(b, tb, y));
		assert_int_equal(ta->group[x], tb->group[y]);
		assert_int_equal(ta->index_in_group[x], tb->index_in_group[y]);
		assert_int_equal(ta->role[x], tb->role[y]);
		for (d = 0; d < dims; d++)
			assert_int_equal(ta->coord[x * dims + d], tb->coord[y * dims + d]);
	}
}

/* The same numbering from the fabric in three other node orders. */
static void assert_order_free(const struct vlr_fabric *fabric, const struct vlr_topology *topology)
{
	struct vlr_topology other;
	unsigned seed;

	for (seed = 1; seed <= 3; seed++) {
		struct vlr_fabric *copy = test_reordered(fabric, seed, NULL);

		recognise(copy, &other);
		assert_same_numbering(fabric, topology, copy, &other);
		vlr_topology_free(&other);
		vlr_fabric_free(copy);
	}
}

/*
 * The numbering is that of the fabric vlroute gen makes from the
 * recognised parameters: switch_order[i] is linked to switch_order[j]
 * exactly as generated switch i is to generated switch j.
 */
static void assert_generated_twin(const struct vlr_fabric *fabric, const struct vlr_topology *t)
{
	struct vlr_fabric *model = test_generate(&t->params);
	uint32_t *position = malloc(sizeof(uint32_t) * t->num_switches), i, port;

	for (i = 0; i < t->num_switches; i++)
		position[t->switch_order[i]] = i;
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *record = &fabric->ports[port];
		uint32_t a = t->switch_of_node[record->node], b;

		if (a == VLR_NONE || record->peer == VLR_NONE)
			continue;
		b = t->switch_of_node[fabric->ports[record->peer].node];
		if (b == VLR_NONE)
			continue;
		assert_int_equal(test_links_between(model, position[a], position[b]),
				 test_links_between(fabric, record->node,
						    fabric->ports[record->peer].node));
	}
	free(position);
	vlr_fabric_free(model);
}

/* A fabric vlroute gen wrote keeps the generator's numbering in any node order. */
static void canonical_generated(void **state)
{
	unsigned which;
	uint32_t i;

	(void)state;
	for (which = 0; which < FAMILY_CASES; which++) {
		struct vlr_family_params params = family_case(which);
		struct vlr_fabric *fabric = test_generate(&params);
		struct vlr_topology topology;
		char want[256], got[256];

		recognise(fabric, &topology);
		vlr_family_describe(&params, want, sizeof(want));
		vlr_family_describe(&topology.params, got, sizeof(got));
		assert_string_equal(got, want);
		assert_true(topology.arrangement_known);
		for (i = 0; i < topology.num_switches; i++)
			assert_int_equal(topology.switch_order[i], i);
		assert_generated_twin(fabric, &topology);
		assert_order_free(fabric, &topology);
		vlr_topology_free(&topology);
		vlr_fabric_free(fabric);
	}
}

/*
 * GUIDs that say nothing of the structure (a real fabric's): still a
 * numbering onto the generated twin, the arrangement found, the same in
 * any node order.
 */
static void canonical_random_guids(void **state)
{
	unsigned which;

	(void)state;
	for (which = 0; which < FAMILY_CASES; which++) {
		struct vlr_family_params params = family_case(which);
		struct vlr_fabric *fabric = test_generate(&params);
		struct vlr_topology topology;

		test_random_switch_guids(fabric, 40 + which);
		recognise(fabric, &topology);
		assert_true(topology.arrangement_known);
		assert_generated_twin(fabric, &topology);
		assert_order_free(fabric, &topology);
		vlr_topology_free(&topology);
		vlr_fabric_free(fabric);
	}
}

/* The lowest-GUID switch of a HyperX's row in dimension d other than `from`. */
static uint64_t lowest_in_row(const struct vlr_fabric *fabric, const struct vlr_topology *t,
			      uint32_t from, unsigned d)
{
	unsigned dims = t->params.u.grid.dims, e;
	uint64_t lowest = UINT64_MAX;
	uint32_t sw;

	for (sw = 0; sw < t->num_switches; sw++) {
		unsigned differ = 0;

		for (e = 0; e < dims; e++)
			differ += e != d && t->coord[sw * dims + e] != t->coord[from * dims + e];
		if (!differ && sw != from && switch_guid(fabric, t, sw) < lowest)
			lowest = switch_guid(fabric, t, sw);
	}
	return lowest;
}

/* HyperX: origin, value order and dimension order all follow the GUIDs. */
static void canonical_hyperx_rule(void **state)
{
	struct vlr_family_params params = family_case(0);
	struct vlr_fabric *fabric = test_generate(&params);
	struct vlr_topology t;
	uint32_t origin, sw;
	unsigned dims, d;

	(void)state;
	test_random_switch_guids(fabric, 9);
	recognise(fabric, &t);
	dims = t.params.u.grid.dims;
	origin = t.switch_order[0];
	for (sw = 0; sw < t.num_switches; sw++)
		assert_true(switch_guid(fabric, &t, sw) >= switch_guid(fabric, &t, origin));
	for (d = 0; d < dims; d++) {
		uint64_t previous = switch_guid(fabric, &t, origin);
		uint32_t stride = 1, v;
		unsigned e;

		assert_int_equal(t.coord[origin * dims + d], 0);
		for (e = 0; e < d; e++)
			stride *= t.params.u.grid.sides[e];
		for (v = 1; v < t.params.u.grid.sides[d]; v++) {
			uint64_t guid = switch_guid(fabric, &t, t.switch_order[v * stride]);

			assert_true(guid > previous);
			previous = guid;
		}
		if (d)
			assert_true(lowest_in_row(fabric, &t, origin, d) >
				    lowest_in_row(fabric, &t, origin, d - 1));
	}
	assert_generated_twin(fabric, &t);
	vlr_topology_free(&t);
	vlr_fabric_free(fabric);
}

/* No arrangement: groups by their lowest GUID, routers by GUID. */
static void canonical_fallback(void **state)
{
	struct vlr_fabric *generated = generate_dragonfly(1, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE);
	struct vlr_fabric *fabric, *copy;
	struct vlr_topology t, other;
	uint64_t lowest[9];
	uint32_t sw;

	(void)state;
	/* routers 0 and 1 of group 0 exchange their first global links */
	fabric = test_swapped_peers(generated, vlr_port_index(generated, 0, 1 + 4),
				    vlr_port_index(generated, 1, 1 + 4));
	test_random_switch_guids(fabric, 5);
	recognise(fabric, &t);
	assert_int_equal(t.params.family, VLR_FAMILY_DRAGONFLY);
	assert_false(t.arrangement_known);
	assert_int_equal(t.num_groups, 9);
	for (sw = 0; sw < 9; sw++)
		lowest[sw] = UINT64_MAX;
	for (sw = 0; sw < t.num_switches; sw++)
		if (switch_guid(fabric, &t, sw) < lowest[t.group[sw]])
			lowest[t.group[sw]] = switch_guid(fabric, &t, sw);
	for (sw = 1; sw < 9; sw++)
		assert_true(lowest[sw] > lowest[sw - 1]);
	for (sw = 0; sw + 1 < t.num_switches; sw++) {
		uint32_t here = t.switch_order[sw], next = t.switch_order[sw + 1];

		if (t.group[next] == t.group[here])
			assert_true(switch_guid(fabric, &t, next) > switch_guid(fabric, &t, here));
	}
	copy = test_reordered(fabric, 8, NULL);
	recognise(copy, &other);
	assert_same_numbering(fabric, &t, copy, &other);
	vlr_topology_free(&other);
	vlr_topology_free(&t);
	vlr_fabric_free(copy);
	vlr_fabric_free(fabric);
	vlr_fabric_free(generated);
}

/* ---- traffic patterns ---------------------------------------------------- */

struct pattern_setup {
	struct vlr_tables *tables;
	struct vlr_topology topology;
	struct vlr_servers servers;
};

static void setup_pattern(struct pattern_setup *setup, struct vlr_fabric *fabric)
{
	struct vlr_error err;

	assert_int_equal(vlr_fabric_assign_lids(fabric, 0, &err), 0);
	setup->tables = vlr_tables_new(fabric, 8, &err);
	assert_non_null(setup->tables);
	setup->tables->owns_fabric = 1;
	recognise(fabric, &setup->topology);
	assert_int_equal(vlr_servers_build(setup->tables, &setup->topology, &setup->servers,
					   &err), 0);
}

static void teardown_pattern(struct pattern_setup *setup)
{
	vlr_servers_free(&setup->servers);
	vlr_topology_free(&setup->topology);
	vlr_tables_free(setup->tables);
}

static struct vlr_traffic *pattern(const struct pattern_setup *setup, const char *name)
{
	struct vlr_pattern_spec spec;
	struct vlr_traffic *traffic;
	struct vlr_error err;

	assert_int_equal(vlr_pattern_parse(name, &spec, &err), 0);
	traffic = vlr_traffic_new(&setup->servers, &setup->topology, &spec, 7, &err);
	if (!traffic)
		fail_msg("%s: %s", name, err.message);
	return traffic;
}

static void shift_moves_every_coordinate(void **state)
{
	static const unsigned sides[] = { 4, 3 };
	struct pattern_setup setup;
	struct vlr_traffic *traffic;
	struct vlr_rng rng;
	uint32_t src;

	(void)state;
	setup_pattern(&setup, generate_hyperx(2, sides, 2));
	traffic = pattern(&setup, "shift+1,2");
	assert_true(vlr_traffic_is_permutation(traffic));
	vlr_rng_seed(&rng, 1, 0);
	for (src = 0; src < setup.servers.count; src++) {
		uint32_t dst = vlr_traffic_destination(traffic, src, 0, &rng);
		uint32_t a = setup.servers.switch_index[src], b = setup.servers.switch_index[dst];

		assert_int_equal(setup.topology.coord[b * 2], (setup.topology.coord[a * 2] + 1) % 4);
		assert_int_equal(setup.topology.coord[b * 2 + 1],
				 (setup.topology.coord[a * 2 + 1] + 2) % 3);
		assert_int_equal(dst - setup.servers.first_on_switch[b],
				 src - setup.servers.first_on_switch[a]);
	}
	vlr_traffic_free(traffic);
	teardown_pattern(&setup);
}

static void dragonfly_adversarial_patterns(void **state)
{
	struct pattern_setup setup;
	struct vlr_traffic *adv, *advc, *local;
	struct vlr_rng rng;
	uint32_t src, k;

	(void)state;
	setup_pattern(&setup, generate_dragonfly(2, 4, 2, 0, VLR_ARRANGEMENT_PALMTREE));
	adv = pattern(&setup, "adv+2");
	advc = pattern(&setup, "advc");
	local = pattern(&setup, "adv-local");
	vlr_rng_seed(&rng, 3, 0);
	for (src = 0; src < setup.servers.count; src++) {
		uint32_t a = setup.servers.switch_index[src];
		uint32_t b = setup.servers.switch_index[vlr_traffic_destination(adv, src, 0, &rng)];

		assert_int_equal(setup.topology.group[b], (setup.topology.group[a] + 2) % 9);
		assert_int_equal(setup.topology.index_in_group[b], setup.topology.index_in_group[a]);
		for (k = 0; k < 20; k++) {
			uint32_t c = setup.servers.switch_index[vlr_traffic_destination(advc, src, k, &rng)];
			uint32_t offset = (setup.topology.group[c] + 9 - setup.topology.group[a]) % 9;
			uint32_t d = setup.servers.switch_index[vlr_traffic_destination(local, src, k, &rng)];

			assert_true(offset >= 1 && offset <= 2);
			assert_int_equal(setup.topology.group[d], setup.topology.group[a]);
			assert_int_equal(setup.topology.index_in_group[d],
					 (setup.topology.index_in_group[a] + 1) % 4);
		}
	}
	vlr_traffic_free(adv);
	vlr_traffic_free(advc);
	vlr_traffic_free(local);
	teardown_pattern(&setup);
}

/* Servers come in canonical switch order: the same ports whatever the file. */
static void servers_in_canonical_order(void **state)
{
	struct vlr_fabric *fabric = generate_dragonfly(2, 4, 2, 6, VLR_ARRANGEMENT_PALMTREE);
	struct pattern_setup setup, other;
	struct vlr_servers by_index;
	struct vlr_error err;
	uint32_t s, same = 0;

	(void)state;
	setup_pattern(&setup, fabric);
	setup_pattern(&other, test_reordered(fabric, 3, NULL));
	assert_int_equal(setup.servers.count, other.servers.count);
	for (s = 0; s < setup.servers.count; s++)
		assert_int_equal(fabric->ports[setup.servers.port[s]].guid,
				 other.tables->fabric->ports[other.servers.port[s]].guid);
	/* in switch index order the reordered file numbers them otherwise */
	assert_int_equal(vlr_servers_build(other.tables, NULL, &by_index, &err), 0);
	for (s = 0; s < by_index.count; s++)
		same += fabric->ports[setup.servers.port[s]].guid ==
			other.tables->fabric->ports[by_index.port[s]].guid;
	assert_true(same < by_index.count);
	vlr_servers_free(&by_index);
	teardown_pattern(&other);
	teardown_pattern(&setup);
}

static void random_patterns(void **state)
{
	static const unsigned sides[] = { 4, 4 };
	struct pattern_setup setup;
	struct vlr_traffic *perm, *all, *hot;
	uint32_t src, k, n, *seen, to_hot = 0, draws = 0;
	struct vlr_rng rng;

	(void)state;
	setup_pattern(&setup, generate_hyperx(2, sides, 4));
	n = setup.servers.count;
	perm = pattern(&setup, "perm");
	all = pattern(&setup, "all2all");
	hot = pattern(&setup, "hot");
	seen = calloc(n, sizeof(uint32_t));
	vlr_rng_seed(&rng, 5, 0);
	for (src = 0; src < n; src++) {
		uint32_t dst = vlr_traffic_destination(perm, src, 0, &rng);

		assert_int_not_equal(dst, src);
		seen[dst]++;
		for (k = 0; k + 1 < n; k++)
			assert_int_equal(vlr_traffic_destination(all, src, k, &rng),
					 (src + 1 + k) % n);
		for (k = 0; k < 200; k++, draws++) {
			uint32_t h = vlr_traffic_destination(hot, src, k, &rng);

			assert_int_not_equal(h, src);
			to_hot += h < n / 8;
		}
	}
	for (src = 0; src < n; src++)
		assert_int_equal(seen[src], 1);
	/* 25% on purpose plus the uniform share 75% * 1/8 = 34.4% */
	assert_true(to_hot > draws * 0.31 && to_hot < draws * 0.38);
	free(seen);
	vlr_traffic_free(perm);
	vlr_traffic_free(all);
	vlr_traffic_free(hot);
	teardown_pattern(&setup);
}

static void pattern_errors(void **state)
{
	static const unsigned sides[] = { 4, 4 };
	struct pattern_setup setup;
	struct vlr_pattern_spec spec;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_pattern_parse("adv+x", &spec, &err), -1);
	assert_non_null(strstr(err.message, "adv+x"));
	assert_int_equal(vlr_pattern_parse("tornado", &spec, &err), -1);
	assert_non_null(strstr(err.message, "unknown traffic pattern"));
	setup_pattern(&setup, generate_hyperx(2, sides, 1));
	assert_int_equal(vlr_pattern_parse("adv+1", &spec, &err), 0);
	assert_null(vlr_traffic_new(&setup.servers, &setup.topology, &spec, 1, &err));
	assert_non_null(strstr(err.message, "needs a Dragonfly or Dragonfly+"));
	assert_int_equal(vlr_pattern_parse("shift+4", &spec, &err), 0);
	assert_null(vlr_traffic_new(&setup.servers, &setup.topology, &spec, 1, &err));
	assert_non_null(strstr(err.message, "leaves every server where it is"));
	assert_int_equal(vlr_pattern_parse("shift+1", &spec, &err), 0);
	assert_null(vlr_traffic_new(&setup.servers, NULL, &spec, 1, &err));
	assert_non_null(strstr(err.message, "needs a HyperX"));
	teardown_pattern(&setup);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hyperx_generated_coordinates),
		cmocka_unit_test(hyperx_from_graph_alone),
		cmocka_unit_test(hyperx_near_misses),
		cmocka_unit_test(dragonfly_parameters),
		cmocka_unit_test(dragonfly_near_misses),
		cmocka_unit_test(dragonflyplus_roles),
		cmocka_unit_test(other_families_refused),
		cmocka_unit_test(canonical_generated),
		cmocka_unit_test(canonical_random_guids),
		cmocka_unit_test(canonical_hyperx_rule),
		cmocka_unit_test(canonical_fallback),
		cmocka_unit_test(shift_moves_every_coordinate),
		cmocka_unit_test(dragonfly_adversarial_patterns),
		cmocka_unit_test(servers_in_canonical_order),
		cmocka_unit_test(random_patterns),
		cmocka_unit_test(pattern_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
