/*
 * test_util.c - helpers the unit tests share.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static const char *scratch_dir(void)
{
	static char dir[] = "/tmp/vlroute-test-XXXXXX";
	static int made;

	if (!made) {
		assert_non_null(mkdtemp(dir));
		made = 1;
	}
	return dir;
}

char *test_scratch_path(const char *name)
{
	size_t length = strlen(scratch_dir()) + strlen(name) + 2;
	char *path = malloc(length);

	assert_non_null(path);
	snprintf(path, length, "%s/%s", scratch_dir(), name);
	return path;
}

char *test_write_file(const char *name, const char *text)
{
	char *path = test_scratch_path(name);
	FILE *out;

	out = fopen(path, "w");
	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
	return path;
}

struct vlr_fabric *test_read_text(const char *text, struct vlr_error *err)
{
	char *path = test_write_file("fabric.net", text);
	struct vlr_fabric *fabric = vlr_fabric_new();

	assert_non_null(fabric);
	if (vlr_netfile_read(fabric, path, NULL, err)) {
		vlr_fabric_free(fabric);
		fabric = NULL;
	}
	unlink(path);
	free(path);
	return fabric;
}

void test_expect_read_error(const char *text, const char *fragment1,
			    const char *fragment2)
{
	struct vlr_error err;
	struct vlr_fabric *fabric = test_read_text(text, &err);

	if (fabric) {
		vlr_fabric_free(fabric);
		fail_msg("expected \"%s\" to be refused", text);
	}
	if (!strstr(err.message, fragment1))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment1);
	if (fragment2 && !strstr(err.message, fragment2))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment2);
}

struct vlr_fabric *test_generate(const struct vlr_family_params *params)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;

	assert_non_null(fabric);
	if (vlr_generate(fabric, params, &err))
		fail_msg("generation failed: %s", err.message);
	return fabric;
}

void test_expect_refused(const struct vlr_family_params *params, const char *fragment)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;

	assert_non_null(fabric);
	if (!vlr_generate(fabric, params, &err))
		fail_msg("generation should have been refused (%s)", fragment);
	if (!strstr(err.message, fragment))
		fail_msg("message \"%s\" lacks \"%s\"", err.message, fragment);
	vlr_fabric_free(fabric);
}

struct vlr_family_params test_dragonfly(unsigned p, unsigned a, unsigned h)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLY };

	params.u.dragonfly = (struct vlr_dragonfly_params){ p, a, h, 0,
							     VLR_ARRANGEMENT_PALMTREE };
	return params;
}

struct vlr_family_params test_grid(enum vlr_family family, unsigned dims, unsigned side,
				   unsigned hosts)
{
	struct vlr_family_params params = { .family = family };
	unsigned d;

	params.u.grid.dims = dims;
	for (d = 0; d < dims; d++)
		params.u.grid.sides[d] = side;
	params.u.grid.hosts = hosts;
	return params;
}

void test_assert_links_consistent(const struct vlr_fabric *fabric)
{
	uint32_t i;

	for (i = 0; i < fabric->num_ports; i++) {
		const struct vlr_port *port = &fabric->ports[i];

		if (port->peer == VLR_NONE)
			continue;
		assert_true(port->peer < fabric->num_ports);
		assert_int_equal(fabric->ports[port->peer].peer, i);
		assert_int_not_equal(fabric->ports[port->peer].node, port->node);
		assert_int_not_equal(port->number, 0);
		assert_true(port->number <= fabric->nodes[port->node].num_ports);
	}
}

uint32_t test_diameter(const struct vlr_fabric *fabric, uint32_t *components)
{
	struct vlr_switch_graph graph;
	struct vlr_error err;
	uint32_t diameter, parts;

	assert_int_equal(vlr_switch_graph_build(fabric, &graph, &err), 0);
	assert_int_equal(vlr_switch_diameter(&graph, &diameter, &parts, &err), 0);
	vlr_switch_graph_free(&graph);
	if (components)
		*components = parts;
	return diameter;
}

unsigned test_links_between(const struct vlr_fabric *fabric, uint32_t a, uint32_t b)
{
	unsigned number, links = 0;

	for (number = 1; number <= fabric->nodes[a].num_ports; number++) {
		const struct vlr_port *port = vlr_port_at(fabric, a, number);

		links += port->peer != VLR_NONE && fabric->ports[port->peer].node == b;
	}
	return links;
}

uint32_t test_distance(const struct vlr_fabric *fabric, uint32_t from, uint32_t to)
{
	struct vlr_switch_graph graph;
	struct vlr_error err;
	uint32_t *distance, *queue, head = 0, tail = 0, s, i, result;

	assert_int_equal(vlr_switch_graph_build(fabric, &graph, &err), 0);
	distance = malloc(sizeof(uint32_t) * graph.num_switches);
	queue = malloc(sizeof(uint32_t) * graph.num_switches);
	assert_non_null(distance);
	assert_non_null(queue);
	for (s = 0; s < graph.num_switches; s++)
		distance[s] = VLR_NONE;
	distance[graph.switch_of[from]] = 0;
	queue[tail++] = graph.switch_of[from];
	while (head < tail) {
		s = queue[head++];
		for (i = graph.offset[s]; i < graph.offset[s + 1]; i++)
			if (distance[graph.neighbour[i]] == VLR_NONE) {
				distance[graph.neighbour[i]] = distance[s] + 1;
				queue[tail++] = graph.neighbour[i];
			}
	}
	result = distance[graph.switch_of[to]];
	free(distance);
	free(queue);
	vlr_switch_graph_free(&graph);
	return result;
}

/* A random order of the nodes: Fisher-Yates over 0..n-1. */
static uint32_t *shuffled_nodes(uint32_t n, uint64_t seed)
{
	uint32_t *order = malloc((n + 1ull) * sizeof(uint32_t)), i;
	struct vlr_rng rng;

	assert_non_null(order);
	vlr_rng_seed(&rng, seed, 0x6f726465);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		uint32_t j = vlr_rng_below(&rng, i), swap = order[i - 1];

		order[i - 1] = order[j];
		order[j] = swap;
	}
	return order;
}

static void copy_ports(struct vlr_fabric *copy, const struct vlr_fabric *fabric,
		       uint32_t node, uint32_t to)
{
	unsigned number;

	for (number = 0; number <= fabric->nodes[node].num_ports; number++) {
		const struct vlr_port *from = vlr_port_at(fabric, node, number);
		struct vlr_port *port = vlr_port_at(copy, to, number);

		port->guid = from->guid;
		port->lid = from->lid;
		port->lmc = from->lmc;
	}
}

struct vlr_fabric *test_reordered(const struct vlr_fabric *fabric, uint64_t seed,
				  uint32_t *new_of)
{
	struct vlr_fabric *copy = vlr_fabric_new();
	uint32_t *order = shuffled_nodes(fabric->num_nodes, seed);
	uint32_t *index = malloc((fabric->num_nodes + 1ull) * sizeof(uint32_t)), i, port;
	struct vlr_error err;

	assert_non_null(copy);
	assert_non_null(index);
	for (i = 0; i < fabric->num_nodes; i++) {
		const struct vlr_node *node = &fabric->nodes[order[i]];

		index[order[i]] = vlr_fabric_add_node(copy, node->type,
						      vlr_node_name(fabric, order[i]),
						      node->num_ports, node->guid, &err);
		assert_int_not_equal(index[order[i]], VLR_NONE);
		copy_ports(copy, fabric, order[i], index[order[i]]);
	}
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *a = &fabric->ports[port], *b;

		if (a->peer == VLR_NONE || a->peer < port)
			continue;
		b = &fabric->ports[a->peer];
		assert_int_equal(vlr_fabric_link(copy, index[a->node], a->number,
						 index[b->node], b->number, &err), 0);
	}
	copy->lmc = fabric->lmc;
	if (new_of)
		memcpy(new_of, index, fabric->num_nodes * sizeof(uint32_t));
	free(order);
	free(index);
	return copy;
}

/* fabric's nodes, in the same order, and all its links but those at the
   port indexes x and y. */
static struct vlr_fabric *copy_but(const struct vlr_fabric *fabric, uint32_t x, uint32_t y)
{
	struct vlr_fabric *copy = vlr_fabric_new();
	struct vlr_error err;
	uint32_t node, port;

	assert_non_null(copy);
	for (node = 0; node < fabric->num_nodes; node++)
		assert_int_equal(vlr_fabric_add_node(copy, fabric->nodes[node].type,
						     vlr_node_name(fabric, node),
						     fabric->nodes[node].num_ports,
						     fabric->nodes[node].guid, &err), node);
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *a = &fabric->ports[port], *b;

		if (a->peer == VLR_NONE || a->peer < port || port == x || port == y ||
		    a->peer == x || a->peer == y)
			continue;
		b = &fabric->ports[a->peer];
		test_join(copy, a->node, a->number, b->node, b->number);
	}
	return copy;
}

struct vlr_fabric *test_without_link(const struct vlr_fabric *fabric, uint32_t port)
{
	return copy_but(fabric, port, port);
}

struct vlr_fabric *test_swapped_peers(const struct vlr_fabric *fabric, uint32_t x,
				      uint32_t y)
{
	const struct vlr_port *at_x = &fabric->ports[x], *at_y = &fabric->ports[y];
	const struct vlr_port *to_x, *to_y;
	struct vlr_fabric *copy;

	assert_int_not_equal(at_x->peer, VLR_NONE);
	assert_int_not_equal(at_y->peer, VLR_NONE);
	assert_int_not_equal(at_x->peer, y);
	to_x = &fabric->ports[at_x->peer];
	to_y = &fabric->ports[at_y->peer];
	copy = copy_but(fabric, x, y);
	test_join(copy, at_x->node, at_x->number, to_y->node, to_y->number);
	test_join(copy, at_y->node, at_y->number, to_x->node, to_x->number);
	return copy;
}

void test_random_switch_guids(struct vlr_fabric *fabric, uint64_t seed)
{
	struct vlr_rng rng;
	uint32_t node, count = 0;
	unsigned number;

	vlr_rng_seed(&rng, seed, 0x67756964);
	for (node = 0; node < fabric->num_nodes; node++) {
		/* distinct: a random high part above a running count */
		uint64_t guid = (vlr_rng_next(&rng) << 20 | count++) & 0x00ffffffffffffffull;

		if (!vlr_node_is_switch(fabric, node))
			continue;
		fabric->nodes[node].guid = guid;
		for (number = 0; number <= fabric->nodes[node].num_ports; number++)
			vlr_port_at(fabric, node, number)->guid = guid;
	}
}

uint32_t test_add_switch(struct vlr_fabric *fabric, const char *name, unsigned ports)
{
	struct vlr_error err;
	uint32_t node = vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, name, ports,
					    0x1000 + fabric->num_nodes, &err);

	assert_int_not_equal(node, VLR_NONE);
	return node;
}

uint32_t test_add_host(struct vlr_fabric *fabric, const char *name, uint32_t sw,
		       unsigned port)
{
	struct vlr_error err;
	uint32_t node = vlr_fabric_add_node(fabric, VLR_NODE_CA, name, 1,
					    0x2000 + fabric->num_nodes, &err);

	assert_int_not_equal(node, VLR_NONE);
	assert_int_equal(vlr_fabric_link(fabric, node, 1, sw, port, NULL), 0);
	return node;
}

void test_join(struct vlr_fabric *fabric, uint32_t a, unsigned port_a, uint32_t b,
	       unsigned port_b)
{
	assert_int_equal(vlr_fabric_link(fabric, a, port_a, b, port_b, NULL), 0);
}

static uint32_t node_named(const struct vlr_fabric *fabric, const char *name)
{
	uint32_t node = vlr_fabric_find(fabric, name);

	if (node == VLR_NONE)
		fail_msg("no node \"%s\"", name);
	return node;
}

static void assert_same_switch(const struct vlr_tables *a, const struct vlr_tables *b,
			       uint32_t sw)
{
	const struct vlr_fabric *fabric = a->fabric;
	uint32_t node = a->switch_node[sw];
	uint32_t other = b->switch_of_node[node_named(b->fabric, vlr_node_name(fabric, node))];
	unsigned ports = fabric->nodes[node].num_ports, in, out;

	assert_memory_equal(vlr_tables_lft(a, sw), vlr_tables_lft(b, other), a->lid_stride);
	for (out = 1; out <= ports; out++) {
		if (vlr_port_at(fabric, node, out)->peer == VLR_NONE)
			continue;
		for (in = 0; in <= ports; in++)
			assert_memory_equal(vlr_tables_sl2vl(a, sw, in, out),
					    vlr_tables_sl2vl(b, other, in, out), VLR_NUM_SLS);
	}
}

void test_assert_same_tables(const struct vlr_tables *a, const struct vlr_tables *b)
{
	const struct vlr_fabric *fabric = a->fabric;
	uint32_t sw, lid, port, other;

	assert_int_equal(a->max_lid, b->max_lid);
	assert_int_equal(a->num_switches, b->num_switches);
	for (sw = 0; sw < a->num_switches; sw++)
		assert_same_switch(a, b, sw);
	assert_int_equal(a->num_sl_rows, b->num_sl_rows);
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *record = &fabric->ports[port];

		if (!vlr_tables_is_source(a, port))
			continue;
		other = vlr_port_index(b->fabric, node_named(b->fabric, vlr_node_name(fabric,
							     record->node)), record->number);
		assert_int_equal(a->port_sl_row[port], b->port_sl_row[other]);
		for (lid = 1; lid <= a->max_lid; lid++)
			assert_int_equal(vlr_tables_path_sl(a, port, (uint16_t)lid),
					 vlr_tables_path_sl(b, other, (uint16_t)lid));
		assert_memory_equal(vlr_tables_port_sl2vl(a, port),
				    vlr_tables_port_sl2vl(b, other), VLR_NUM_SLS);
	}
}
