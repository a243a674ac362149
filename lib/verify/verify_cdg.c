/*
 * verify_cdg.c - the channel dependency graph: placing the turns of every
 * switch over the channels (the links of the switch graph), and finding a
 * cycle among the (channel, VL) pairs the routes use.
 *
 * The graph is never built as lists: the successors of (channel, VL) are
 * read from the dependency bits of the turns at the switch the channel
 * leads to. An iterative depth-first search finds whether there is a
 * cycle; a breadth-first search from a node on it then finds the
 * shortest cycle through that node, which is the one reported, starting
 * at its lowest (channel, VL) so the same tables always give the same text.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

enum { WHITE, GREY, BLACK };

void verify_channels_free(struct verify_channels *ch)
{
	vlr_switch_graph_free(&ch->graph);
	free(ch->hop);
	free(ch->sw);
	free(ch->deps);
	free(ch->vls);
	free(ch->load);
	memset(ch, 0, sizeof(*ch));
}

/*
 * Whether every pair of sw's ports maps SLs to VLs alike (as layered and
 * minimal tables do), copying the map into sw: the route walk then reads
 * 16 bytes per switch instead of a switch's (ports + 1)^2 * 16.
 */
static void note_uniform(const struct vlr_tables *t, struct verify_switch *sw)
{
	const uint8_t *block = t->sl2vl + sw->sl2vl;
	uint64_t pair, pairs = (uint64_t)sw->width * sw->width;

	memcpy(sw->map, block, VLR_NUM_SLS);
	sw->uniform = 1;
	for (pair = 1; pair < pairs && sw->uniform; pair++)
		sw->uniform = !memcmp(block + pair * VLR_NUM_SLS, sw->map, VLR_NUM_SLS);
}

/*
 * What the hot loops need of every switch, and where its turns start; and
 * whether every switch maps SLs to VLs alike, whatever the ports (then a
 * turn keeps the VL a route arrives on: stride 1).
 */
static void place_turns(const struct vlr_tables *t, struct verify_channels *ch)
{
	const struct vlr_switch_graph *graph = &ch->graph;
	uint32_t s;
	int same = 1;

	for (s = 0; s < graph->num_switches; s++) {
		const struct vlr_node *node = &t->fabric->nodes[graph->node_of[s]];
		struct verify_switch *sw = &ch->sw[s];

		sw->sl2vl = t->sl2vl_offset[s];
		sw->turn_base = ch->turns;
		sw->first_slot = node->first_port;
		sw->width = node->num_ports + 1u;
		sw->first = graph->offset[s];
		sw->channels = vlr_switch_degree(graph, s);
		note_uniform(t, sw);
		same = same && sw->uniform && !memcmp(sw->map, ch->sw[0].map, VLR_NUM_SLS);
		ch->turns += (uint64_t)sw->channels * sw->channels;
	}
	ch->stride = same ? 1 : VLR_NUM_SLS;
}

/* The links of the graph, laid out by port slot for the route walk. */
static void place_hops(const struct vlr_tables *t, struct verify_channels *ch)
{
	const struct vlr_switch_graph *graph = &ch->graph;
	uint32_t slot, c;

	for (slot = 0; slot < t->fabric->num_ports; slot++)
		ch->hop[slot].channel = VLR_NONE;
	for (c = 0; c < graph->num_links; c++) {
		struct verify_hop *hop = &ch->hop[vlr_link_slot(graph, c)];

		hop->channel = c;
		hop->next = graph->neighbour[c];
		hop->back = graph->back[c];
		hop->in_port = graph->neighbour_port[c];
	}
}

int verify_channels_init(const struct vlr_tables *t, struct verify_channels *ch,
			 struct vlr_error *err)
{
	memset(ch, 0, sizeof(*ch));
	if (vlr_switch_graph_build(t->fabric, &ch->graph, err))
		return -1;
	ch->hop = malloc(sizeof(struct verify_hop) * (t->fabric->num_ports + 1));
	ch->sw = malloc(sizeof(struct verify_switch) * (t->num_switches + 1));
	if (!ch->hop || !ch->sw)
		goto out_of_memory;
	place_hops(t, ch);
	place_turns(t, ch);
	ch->deps = calloc(verify_deps_size(ch) + 1, sizeof(uint16_t));
	ch->vls = calloc(ch->graph.num_links + 1, sizeof(uint16_t));
	ch->load = calloc(ch->graph.num_links + 1, sizeof(uint64_t));
	if (ch->deps && ch->vls && ch->load)
		return 0;
out_of_memory:
	verify_channels_free(ch);
	return vlr_fail(err, "out of memory for the channel dependencies of %u switches",
			t->num_switches);
}

/* Walks the successors of one (channel, VL) node. */
struct successors {
	const uint16_t *row;	/* deps of the first turn from the channel */
	unsigned stride;	/* the channels' */
	uint32_t first;		/* first channel of the switch it leads to */
	uint32_t k;		/* channels of that switch */
	uint32_t next_out;	/* next out channel (local) to look at */
	uint32_t out;		/* out channel (local) whose VLs are pending */
	uint16_t pending;	/* out VLs not yet returned */
	uint8_t vl;
};

static void successors_start(const struct verify_channels *ch, uint32_t node,
			     struct successors *it)
{
	uint32_t channel = node / VLR_NUM_SLS;
	const struct verify_switch *sw = &ch->sw[ch->graph.neighbour[channel]];

	it->first = sw->first;
	it->k = sw->channels;
	it->row = ch->deps + (sw->turn_base + (uint64_t)(ch->graph.back[channel] - sw->first) *
			      it->k) * ch->stride;
	it->stride = ch->stride;
	it->next_out = 0;
	it->pending = 0;
	it->vl = (uint8_t)(node % VLR_NUM_SLS);
}

/* The next successor, or VLR_NONE. */
static uint32_t successors_next(struct successors *it)
{
	unsigned vl;

	while (!it->pending) {
		if (it->next_out >= it->k)
			return VLR_NONE;
		it->out = it->next_out++;
		it->pending = it->stride == 1 ?
				      it->row[it->out] & verify_vl_bit(it->vl) :
				      it->row[it->out * VLR_NUM_SLS + it->vl];
	}
	vl = (unsigned)__builtin_ctz(it->pending);
	it->pending &= (uint16_t)(it->pending - 1);
	return (it->first + it->out) * VLR_NUM_SLS + vl;
}

struct frame {
	uint32_t node;
	struct successors it;
};

/* Depth-first search from every used node; a node on a cycle, or VLR_NONE. */
static uint32_t find_cycle_node(const struct verify_channels *ch, uint8_t *colour,
				struct frame *stack)
{
	uint32_t start, depth;

	for (start = 0; start < ch->graph.num_links * VLR_NUM_SLS; start++) {
		if (colour[start] != WHITE ||
		    !(ch->vls[start / VLR_NUM_SLS] & verify_vl_bit(start % VLR_NUM_SLS)))
			continue;
		colour[start] = GREY;
		stack[0].node = start;
		successors_start(ch, start, &stack[0].it);
		depth = 1;
		while (depth) {
			struct frame *top = &stack[depth - 1];
			uint32_t next = successors_next(&top->it);

			if (next == VLR_NONE) {
				colour[top->node] = BLACK;
				depth--;
			} else if (colour[next] == GREY) {
				return next;
			} else if (colour[next] == WHITE) {
				colour[next] = GREY;
				stack[depth].node = next;
				successors_start(ch, next, &stack[depth++].it);
			}
		}
	}
	return VLR_NONE;
}

/*
 * Shortest cycle through node `on`, found breadth first: its nodes go in
 * cycle[], in order from `on`. Returns the length.
 */
static uint32_t shortest_cycle(const struct verify_channels *ch, uint32_t on,
			       uint32_t *parent, uint32_t *queue,
			       uint32_t *cycle)
{
	uint32_t head = 0, tail = 0, length = 0, last = VLR_NONE, at;
	struct successors it;

	queue[tail++] = on;
	parent[on] = on;
	while (head < tail && last == VLR_NONE) {
		uint32_t node = queue[head++], next;

		successors_start(ch, node, &it);
		while ((next = successors_next(&it)) != VLR_NONE) {
			if (next == on) {
				last = node;
				break;
			}
			if (parent[next] == VLR_NONE) {
				parent[next] = node;
				queue[tail++] = next;
			}
		}
	}
	for (at = last; at != on; at = parent[at])
		cycle[length++] = at;
	cycle[length++] = on;
	for (at = 0; at < length / 2; at++) {
		uint32_t swap = cycle[at];

		cycle[at] = cycle[length - 1 - at];
		cycle[length - 1 - at] = swap;
	}
	return length;
}

/* "sw:port/VL" of a node, appended at *used if it fits. */
static int append_step(const struct vlr_tables *t, const struct verify_channels *ch,
		       uint32_t node, const char *separator, char *buf, size_t size,
		       size_t *used)
{
	const struct vlr_port *port =
		&t->fabric->ports[vlr_link_slot(&ch->graph, node / VLR_NUM_SLS)];
	int n = snprintf(buf + *used, size - *used, "%s%s:%u/%u", separator,
			 vlr_node_name(t->fabric, port->node), port->number,
			 node % VLR_NUM_SLS);

	if (n < 0 || (size_t)n >= size - *used) {
		buf[*used] = '\0';
		return -1;
	}
	*used += (size_t)n;
	return 0;
}

/* The cycle as text, starting and ending at its lowest node. */
static void format_cycle(const struct vlr_tables *t, const struct verify_channels *ch,
			 const uint32_t *cycle, uint32_t length,
			 struct vlr_verify_report *report)
{
	size_t size = sizeof(report->cycle), used = 0, reserve = 48;
	uint32_t lowest = 0, i;

	for (i = 1; i < length; i++)
		if (cycle[i] < cycle[lowest])
			lowest = i;
	report->cycle_length = length;
	for (i = 0; i <= length; i++) {
		if (append_step(t, ch, cycle[(lowest + i) % length], i ? " -> " : "",
				report->cycle, size - reserve, &used)) {
			snprintf(report->cycle + used, size - used, " -> ... (%u steps)",
				 length);
			return;
		}
	}
}

static void count_graph(const struct verify_channels *ch, struct vlr_verify_report *report)
{
	uint64_t i;

	for (i = 0; i < ch->graph.num_links; i++)
		report->cdg_nodes += (uint64_t)__builtin_popcount(ch->vls[i]);
	for (i = 0; i < verify_deps_size(ch); i++)
		report->cdg_edges += (uint64_t)__builtin_popcount(ch->deps[i]);
}

static int report_cycle(const struct vlr_tables *t, const struct verify_channels *ch,
			uint32_t on, struct vlr_verify_report *report,
			struct vlr_error *err)
{
	uint64_t nodes = (uint64_t)ch->graph.num_links * VLR_NUM_SLS;
	uint32_t *parent = malloc(sizeof(uint32_t) * nodes);
	uint32_t *queue = malloc(sizeof(uint32_t) * nodes);
	uint32_t *cycle = malloc(sizeof(uint32_t) * nodes);
	uint64_t i;
	int result = 0;

	if (!parent || !queue || !cycle) {
		result = vlr_fail(err, "out of memory for a cycle of the channel "
				  "dependency graph");
	} else {
		for (i = 0; i < nodes; i++)
			parent[i] = VLR_NONE;
		format_cycle(t, ch, cycle, shortest_cycle(ch, on, parent, queue, cycle),
			     report);
	}
	free(parent);
	free(queue);
	free(cycle);
	return result;
}

int verify_cdg(const struct vlr_tables *t, const struct verify_channels *ch,
	       struct vlr_verify_report *report, struct vlr_error *err)
{
	uint64_t nodes = (uint64_t)ch->graph.num_links * VLR_NUM_SLS;
	uint8_t *colour;
	struct frame *stack;
	uint32_t on;
	int result = 0;

	count_graph(ch, report);
	report->cdg_acyclic = 1;
	if (!report->cdg_nodes)
		return 0;
	colour = calloc(nodes, 1);
	stack = malloc(sizeof(struct frame) * report->cdg_nodes);
	if (!colour || !stack) {
		result = vlr_fail(err, "out of memory searching the channel dependency "
				  "graph of %llu nodes", (unsigned long long)report->cdg_nodes);
	} else {
		on = find_cycle_node(ch, colour, stack);
		if (on != VLR_NONE) {
			report->cdg_acyclic = 0;
			result = report_cycle(t, ch, on, report, err);
		}
	}
	free(colour);
	free(stack);
	return result;
}
