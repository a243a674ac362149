/*
 * verify_routes.c - walking every (source port, DLID) route of a table set.
 *
 * Sources attached to one switch that share an SL row take the same path
 * with the same SL to every DLID: only their injection links differ, and
 * through their in ports the VL of the first switch-to-switch hop. They
 * form a group, counted with the group's weight.
 *
 * DLIDs are the outer loop, in blocks whose LFT entries and path SLs are
 * first copied so that those of one DLID lie together. For each DLID the
 * fate of every switch (delivered after so many links, or which problem)
 * is found once and remembered, so each group's route is classified by a
 * look-up. The delivered routes toward one DLID form an in-tree, as every
 * switch has one out port: each group's routes enter the flow of its
 * switch, and the flows are pushed along the tree from the farthest
 * switches inward, adding up routes per channel and collecting, per SL,
 * the VLs used and the dependencies between consecutive channels.
 * That is one step per switch and SL, however many routes share it.
 *
 * Large table sets are walked by several threads, each over its own
 * stretch of DLIDs with its own walker and sums; the sums are then added
 * (or ORed) in DLID order, and the first problems listed are the first
 * in DLID order, so the report does not depend on the thread count.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"
#include "util/jobs.h"

#define BLOCK 64		/* DLIDs whose LFT entries and SLs are copied together */
#define MAX_PARTS VLR_VERIFY_MAX_THREADS
#define PART_WORK (1u << 20)	/* switches x DLIDs worth a thread of its own */

enum fate_kind {
	FATE_BUSY,		/* on the path being classified */
	FATE_DELIVERED,
	FATE_LOOP,		/* where: a switch node on the loop */
	FATE_NO_PORT,		/* where: the switch node */
	FATE_BEYOND,		/* where: the switch node; bad_port: its LFT entry */
	FATE_UNLINKED,		/* where: the switch node; bad_port: its LFT entry */
	FATE_MISDELIVERED,	/* where: the port slot reached */
};

/* What becomes of a route from a switch to the current DLID. */
struct fate {
	uint32_t stamp;		/* the DLID it is for; 0 = none yet */
	uint32_t where;
	uint32_t dist;		/* links to the destination port, if delivered */
	uint8_t kind;
	uint8_t out;		/* this switch's LFT entry */
	uint8_t bad_port;	/* the LFT entry where the route failed */
};

/*
 * The delivered routes toward the current DLID that pass a switch: how
 * many, and per SL the VLs of the link they leave on.
 */
struct flow {
	uint64_t weight;
	uint32_t stamp;		/* the DLID it is for; 0 = none yet */
	uint16_t sls;		/* SLs present */
	uint16_t vls[VLR_NUM_SLS];
};

/* Sources attached to one switch through ports sharing an SL row. */
struct group {
	uint32_t sw;
	uint32_t row;		/* SL row, VLR_NONE = SL 0 */
	uint32_t first;		/* into members */
	uint32_t count;
	uint64_t first_vls;	/* into walker.first_vls: (ports + 1) * 16 masks */
	uint16_t inject_vls[VLR_NUM_SLS];
};

struct walker {
	const struct vlr_tables *t;
	struct verify_channels *ch;
	struct verify_tally *tally;
	struct vlr_verify_report *report;
	struct group *groups;
	uint32_t num_groups;
	uint32_t *members;		/* port slots, group by group */
	uint32_t *group_of_port;	/* [port slot]: its group, VLR_NONE */
	uint16_t *first_vls;		/* per group [out port * 16 + SL]: VL set */
	uint32_t *direct;		/* sources linked to an endpoint, not a switch */
	uint32_t num_direct;
	struct fate *fate;		/* [switch] */
	uint32_t *path;			/* [switch]: the path being classified */
	uint32_t *touched;		/* switches classified for the current DLID */
	uint32_t num_touched;
	struct flow *flow;		/* [switch] */
	uint32_t *order;		/* delivered switches, farthest first */
	uint32_t *bucket;		/* [distance]: for sorting them */
	uint8_t *lft_block;		/* the current block of DLIDs: see load_block */
	uint8_t *sl_block;
	int lid_bad;
};

/* A source port and the key that groups it. */
struct source_key {
	uint32_t sw;
	uint32_t row;
	uint32_t port;
};

static int compare_sources(const void *a, const void *b)
{
	const struct source_key *x = a, *y = b;

	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->port < y->port ? -1 : x->port > y->port;
}

/* The switch a source port is linked to, or VLR_NONE. */
static uint32_t switch_of_source(const struct vlr_tables *t, uint32_t port)
{
	const struct vlr_fabric *fabric = t->fabric;

	return t->switch_of_node[fabric->ports[fabric->ports[port].peer].node];
}

static unsigned in_port_of(const struct vlr_tables *t, uint32_t source)
{
	return t->fabric->ports[t->fabric->ports[source].peer].number;
}

/* VL sets of a group's injection links and first hops, per SL. */
static void fill_group_vls(struct walker *w, struct group *g)
{
	const struct vlr_tables *t = w->t;
	unsigned ports = t->fabric->nodes[t->switch_node[g->sw]].num_ports;
	uint16_t *masks = w->first_vls + g->first_vls;
	uint32_t i;
	unsigned out, sl;

	for (i = g->first; i < g->first + g->count; i++) {
		const uint8_t *inject = vlr_tables_port_sl2vl(t, w->members[i]);
		unsigned in = in_port_of(t, w->members[i]);

		for (sl = 0; sl < VLR_NUM_SLS; sl++)
			g->inject_vls[sl] |= verify_vl_bit(inject[sl]);
		for (out = 1; out <= ports; out++) {
			const uint8_t *vls = vlr_tables_sl2vl(t, g->sw, in, out);

			for (sl = 0; sl < VLR_NUM_SLS; sl++)
				masks[out * VLR_NUM_SLS + sl] |= verify_vl_bit(vls[sl]);
		}
	}
}

static int add_groups(struct walker *w, struct source_key *keys, uint32_t count,
		      struct vlr_error *err)
{
	const struct vlr_tables *t = w->t;
	uint64_t masks = 0;
	uint32_t i, g = 0;

	for (i = 0; i < count; i++) {
		if (!i || keys[i].sw != keys[i - 1].sw || keys[i].row != keys[i - 1].row) {
			g = w->num_groups++;
			w->groups[g].sw = keys[i].sw;
			w->groups[g].row = keys[i].row;
			w->groups[g].first = i;
			w->groups[g].first_vls = masks;
			masks += (t->fabric->nodes[t->switch_node[keys[i].sw]].num_ports + 1u) *
				 VLR_NUM_SLS;
		}
		w->groups[g].count++;
		w->members[i] = keys[i].port;
		w->group_of_port[keys[i].port] = g;
	}
	w->first_vls = calloc(masks + 1, sizeof(uint16_t));
	if (!w->first_vls)
		return vlr_fail(err, "out of memory for the VLs of %u source groups",
				w->num_groups);
	for (g = 0; g < w->num_groups; g++)
		fill_group_vls(w, &w->groups[g]);
	return 0;
}

static int build_groups(struct walker *w, struct vlr_error *err)
{
	const struct vlr_tables *t = w->t;
	uint32_t port, count = 0, ports = t->fabric->num_ports;
	struct source_key *keys = malloc(sizeof(*keys) * (ports + 1));
	int result;

	w->members = malloc(sizeof(uint32_t) * (ports + 1));
	w->group_of_port = malloc(sizeof(uint32_t) * (ports + 1));
	w->groups = calloc(ports + 1, sizeof(struct group));
	w->direct = malloc(sizeof(uint32_t) * (ports + 1));
	if (!keys || !w->members || !w->group_of_port || !w->groups || !w->direct) {
		free(keys);
		return vlr_fail(err, "out of memory for the sources of %u ports", ports);
	}
	for (port = 0; port < ports; port++) {
		w->group_of_port[port] = VLR_NONE;
		if (!vlr_tables_is_source(t, port))
			continue;
		if (switch_of_source(t, port) == VLR_NONE) {
			w->direct[w->num_direct++] = port;
			continue;
		}
		keys[count].sw = switch_of_source(t, port);
		keys[count].row = t->port_sl_row[port];
		keys[count++].port = port;
	}
	qsort(keys, count, sizeof(*keys), compare_sources);
	result = add_groups(w, keys, count, err);
	free(keys);
	return result;
}

/*
 * One forwarding step from switch s. Returns 1 with *fate set when the
 * route ends at s (delivered or a problem), 0 with *next set otherwise.
 */
static int forward(const struct walker *w, uint32_t s, uint16_t dlid, uint32_t owner,
		   uint32_t *next, struct fate *fate)
{
	const struct verify_switch *sw = &w->ch->sw[s];
	unsigned out = w->lft_block[(dlid % BLOCK) * w->t->num_switches + s];
	const struct verify_hop *hop;
	uint32_t peer;

	fate->dist = 0;
	fate->where = w->t->switch_node[s];
	fate->out = fate->bad_port = (uint8_t)out;
	if (out == 0) {
		fate->kind = owner == sw->first_slot ? FATE_DELIVERED : FATE_MISDELIVERED;
		fate->where = sw->first_slot;
		return 1;
	}
	if (out == VLR_NO_PORT) {
		fate->kind = FATE_NO_PORT;
		return 1;
	}
	if (out >= sw->width) {
		fate->kind = FATE_BEYOND;
		return 1;
	}
	hop = &w->ch->hop[sw->first_slot + out];
	if (hop->channel != VLR_NONE) {
		*next = hop->next;
		return 0;
	}
	peer = w->t->fabric->ports[sw->first_slot + out].peer;
	if (peer == VLR_NONE) {
		fate->kind = FATE_UNLINKED;
		return 1;
	}
	fate->kind = owner == peer ? FATE_DELIVERED : FATE_MISDELIVERED;
	fate->dist = 1;
	fate->where = peer;
	return 1;
}

/* The fate of a route from switch s to dlid, remembered for the DLID. */
static const struct fate *classify(struct walker *w, uint32_t s, uint16_t dlid,
				   uint32_t owner)
{
	uint32_t depth = 0, next = VLR_NONE, start = s;
	struct fate result;

	for (;;) {
		struct fate *known = &w->fate[s];

		if (known->stamp == dlid) {
			result = *known;
			if (result.kind == FATE_BUSY) {
				result.kind = FATE_LOOP;
				result.where = w->t->switch_node[s];
			}
			break;
		}
		known->stamp = dlid;
		known->kind = FATE_BUSY;
		w->touched[w->num_touched++] = s;
		w->path[depth++] = s;
		if (forward(w, s, dlid, owner, &next, known)) {
			result = *known;
			depth--;
			break;
		}
		s = next;
	}
	while (depth--) {
		struct fate *fate = &w->fate[w->path[depth]];

		fate->kind = result.kind;
		fate->where = result.where;
		fate->bad_port = result.bad_port;
		fate->dist = ++result.dist;
	}
	return &w->fate[start];
}

/* "hx_3_3_h1", or "hx_3_3_h1 port 2" for a node of several ports. */
static void name_port(const struct vlr_fabric *fabric, uint32_t slot, char *buf,
		      size_t size)
{
	const struct vlr_port *port = &fabric->ports[slot];

	if (fabric->nodes[port->node].num_ports == 1 || port->number == 0)
		snprintf(buf, size, "%s", vlr_node_name(fabric, port->node));
	else
		snprintf(buf, size, "%s port %u", vlr_node_name(fabric, port->node),
			 port->number);
}

static void describe_fate(const struct vlr_fabric *fabric, const struct fate *fate,
			  char *buf, size_t size)
{
	const char *at = fate->kind == FATE_MISDELIVERED ? "" :
			 vlr_node_name(fabric, fate->where);
	char reached[VLR_MAX_NAME + 16];

	switch (fate->kind) {
	case FATE_LOOP:
		snprintf(buf, size, "loop through %s", at);
		break;
	case FATE_NO_PORT:
		snprintf(buf, size, "dead end at %s (LFT has no port)", at);
		break;
	case FATE_BEYOND:
		snprintf(buf, size, "dead end at %s (LFT port %u is beyond its %u ports)",
			 at, fate->bad_port, fabric->nodes[fate->where].num_ports);
		break;
	case FATE_UNLINKED:
		snprintf(buf, size, "dead end at %s (LFT port %u is not linked)", at,
			 fate->bad_port);
		break;
	default:
		name_port(fabric, fate->where, reached, sizeof(reached));
		if (fabric->ports[fate->where].number == 0)
			snprintf(buf, size, "misdelivered to switch %s (LFT port 0)", reached);
		else
			snprintf(buf, size, "misdelivered to %s", reached);
		break;
	}
}

static void count_problem(struct walker *w, uint32_t source, uint16_t dlid,
			  const struct fate *fate, uint64_t weight)
{
	const struct vlr_fabric *fabric = w->t->fabric;
	struct vlr_verify_report *r = w->report;
	char to[VLR_MAX_NAME + 16], what[2 * VLR_MAX_NAME + 64];
	size_t used = strlen(r->problems);

	w->lid_bad = 1;
	r->bad_routes += weight;
	if (fate->kind == FATE_LOOP)
		r->loops += weight;
	else if (fate->kind == FATE_MISDELIVERED)
		r->misdelivered += weight;
	else
		r->dead_ends += weight;
	if (r->problems_listed >= VLR_VERIFY_PROBLEMS)
		return;
	name_port(fabric, w->t->lid_owner[dlid], to, sizeof(to));
	describe_fate(fabric, fate, what, sizeof(what));
	snprintf(r->problems + used, sizeof(r->problems) - used,
		 "%s port %u -> LID 0x%04x (%s): %s\n", vlr_node_name(fabric,
		 fabric->ports[source].node), fabric->ports[source].number, dlid, to, what);
	r->problems_listed++;
}

static void count_delivered(struct verify_tally *tally, unsigned hops, uint64_t weight)
{
	tally->delivered += weight;
	tally->hop_sum += weight * hops;
	if (hops < tally->hops_min)
		tally->hops_min = hops;
	if (hops > tally->hops_max)
		tally->hops_max = hops;
}

/* VLs of a group's injection links (out == 0) or first hops, less one member. */
static uint16_t group_vls(const struct walker *w, const struct group *g, unsigned out,
			  unsigned sl, uint32_t exclude)
{
	uint16_t vls = 0;
	uint32_t i;

	if (exclude == VLR_NONE)
		return out ? w->first_vls[g->first_vls + out * VLR_NUM_SLS + sl] :
			     g->inject_vls[sl];
	for (i = g->first; i < g->first + g->count; i++) {
		uint32_t m = w->members[i];

		if (m == exclude)
			continue;
		vls |= verify_vl_bit(out ? vlr_tables_sl2vl(w->t, g->sw, in_port_of(w->t, m),
							     out)[sl] :
					   vlr_tables_port_sl2vl(w->t, m)[sl]);
	}
	return vls;
}

/* The flow of switch s for dlid, emptied when it belongs to an older DLID. */
static struct flow *flow_at(struct walker *w, uint32_t s, uint16_t dlid)
{
	struct flow *flow = &w->flow[s];

	if (flow->stamp != dlid) {
		memset(flow, 0, sizeof(*flow));
		flow->stamp = dlid;
	}
	return flow;
}

/* A group's delivered routes enter the flow of its switch. */
static void inject(struct walker *w, const struct group *g, uint16_t dlid, unsigned sl,
		   uint64_t weight, uint32_t exclude)
{
	struct flow *flow = flow_at(w, g->sw, dlid);
	unsigned out = w->fate[g->sw].out;
	uint16_t vls = group_vls(w, g, 0, sl, exclude);

	flow->weight += weight;
	if (out) {
		flow->vls[sl] |= group_vls(w, g, out, sl, exclude);
		flow->sls |= verify_vl_bit(sl);
		vls |= flow->vls[sl];
	}
	w->tally->vl_mask |= vls;
}

/*
 * Send switch u's flow over its out channel into the next switch: count
 * the routes on the channel, their VLs on the next link and the
 * dependencies between the two. Returns the VLs used on the next link.
 */
static uint16_t push(struct walker *w, uint32_t u, uint16_t dlid)
{
	const struct vlr_tables *t = w->t;
	struct verify_channels *ch = w->ch;
	const struct flow *from = &w->flow[u];
	const struct verify_hop *hop = &ch->hop[ch->sw[u].first_slot + w->fate[u].out];
	const struct verify_switch *sw;
	uint32_t next = VLR_NONE;
	uint16_t sls = from->sls, used = 0;
	unsigned out;
	struct flow *to;

	if (hop->channel == VLR_NONE)
		return 0;
	ch->load[hop->channel] += from->weight;
	sw = &ch->sw[hop->next];
	out = w->fate[hop->next].out;
	if (out)
		next = ch->hop[sw->first_slot + out].channel;
	to = flow_at(w, hop->next, dlid);
	to->weight += from->weight;
	while (sls) {
		unsigned sl = (unsigned)__builtin_ctz(sls);
		uint16_t vl;

		sls &= (uint16_t)(sls - 1);
		ch->vls[hop->channel] |= from->vls[sl];
		if (!out)
			continue;
		vl = verify_vl_bit(verify_sl2vl(t, sw, hop->in_port, out)[sl]);
		used |= vl;
		if (next == VLR_NONE)
			continue;
		verify_record_turn(ch, sw, hop->back, next, from->vls[sl], vl);
		to->vls[sl] |= vl;
		to->sls |= verify_vl_bit(sl);
	}
	return used;
}

/*
 * Push the flows toward dlid from the switches farthest from it to the
 * nearest, so a switch has all its flow before passing it on.
 */
static void spread(struct walker *w, uint16_t dlid)
{
	uint32_t i, d, max_dist = 0, total = 0;
	uint16_t used = 0;

	for (i = 0; i < w->num_touched; i++) {
		const struct fate *fate = &w->fate[w->touched[i]];

		if (fate->kind != FATE_DELIVERED)
			continue;
		w->bucket[fate->dist]++;
		if (fate->dist > max_dist)
			max_dist = fate->dist;
	}
	for (d = max_dist + 1; d-- > 0;) {
		uint32_t count = w->bucket[d];

		w->bucket[d] = total;
		total += count;
	}
	for (i = 0; i < w->num_touched; i++) {
		const struct fate *fate = &w->fate[w->touched[i]];

		if (fate->kind == FATE_DELIVERED)
			w->order[w->bucket[fate->dist]++] = w->touched[i];
	}
	for (d = 0; d <= max_dist; d++)
		w->bucket[d] = 0;
	for (i = 0; i < total; i++)
		if (w->flow[w->order[i]].stamp == dlid)
			used |= push(w, w->order[i], dlid);
	w->tally->vl_mask |= used;
}

static void route_group(struct walker *w, const struct group *g, uint16_t dlid,
			uint32_t owner)
{
	uint32_t exclude = w->group_of_port[owner] == (uint32_t)(g - w->groups) ? owner :
			   VLR_NONE;
	uint64_t weight = g->count - (exclude != VLR_NONE);
	const struct fate *fate;
	unsigned sl;

	if (!weight)
		return;
	w->report->routes += weight;
	fate = w->fate[g->sw].stamp == dlid ? &w->fate[g->sw] : classify(w, g->sw, dlid, owner);
	if (fate->kind != FATE_DELIVERED) {
		uint32_t first = w->members[g->first];

		count_problem(w, first == exclude ? w->members[g->first + 1] : first, dlid,
			      fate, weight);
		return;
	}
	sl = g->row == VLR_NONE ? 0 :
	     w->sl_block[(uint64_t)(dlid % BLOCK) * w->t->num_sl_rows + g->row] & 15;
	w->tally->sl_mask |= verify_vl_bit(sl);
	count_delivered(w->tally, 1 + fate->dist, weight);
	inject(w, g, dlid, sl, weight, exclude);
}

/* A source linked straight to another endpoint: one link or nothing. */
static void route_direct(struct walker *w, uint32_t source, uint16_t dlid, uint32_t owner)
{
	const struct vlr_tables *t = w->t;
	uint32_t peer = t->fabric->ports[source].peer;
	unsigned sl = vlr_tables_path_sl(t, source, dlid) & 15;
	struct fate fate;

	if (owner == source)
		return;
	w->report->routes++;
	if (peer != owner) {
		fate.kind = FATE_MISDELIVERED;
		fate.where = peer;
		count_problem(w, source, dlid, &fate, 1);
		return;
	}
	w->tally->sl_mask |= verify_vl_bit(sl);
	w->tally->vl_mask |= verify_vl_bit(vlr_tables_port_sl2vl(t, source)[sl]);
	count_delivered(w->tally, 1, 1);
}

/*
 * Copy the LFT entries and path SLs of the block of DLIDs holding dlid so
 * that those of one DLID lie together: [dlid % BLOCK][switch or SL row].
 */
static void load_block(struct walker *w, uint32_t dlid)
{
	const struct vlr_tables *t = w->t;
	uint32_t first = dlid - dlid % BLOCK, row, k, count = BLOCK;

	if (first + count > t->lid_stride)
		count = t->lid_stride - first;
	vlr_tables_lft_columns(t, first, count, w->lft_block);
	for (row = 0; row < t->num_sl_rows; row++) {
		const uint8_t *sls = vlr_tables_sl_row(t, row) + first;

		for (k = 0; k < count; k++)
			w->sl_block[(uint64_t)k * t->num_sl_rows + row] = sls[k];
	}
}

/* Walk the DLIDs from first up to (not including) end. */
static void route_all(struct walker *w, uint32_t first, uint32_t end)
{
	const struct vlr_tables *t = w->t;
	uint32_t dlid, g, i;

	for (dlid = first; dlid < end; dlid++) {
		uint32_t owner = t->lid_owner[dlid];

		if (dlid == first || dlid % BLOCK == 0)
			load_block(w, dlid);
		if (owner == VLR_NONE)
			continue;
		w->lid_bad = 0;
		w->num_touched = 0;
		for (g = 0; g < w->num_groups; g++)
			route_group(w, &w->groups[g], (uint16_t)dlid, owner);
		spread(w, (uint16_t)dlid);
		for (i = 0; i < w->num_direct; i++)
			route_direct(w, w->direct[i], (uint16_t)dlid, owner);
		w->report->bad_lids += (uint32_t)w->lid_bad;
	}
}

/* One thread's stretch of DLIDs and everything it adds up. */
struct part {
	struct walker w;
	struct verify_channels ch;	/* part 0: the caller's; others: the
					   caller's graph, their own sums */
	struct verify_tally tally;
	struct vlr_verify_report report;
	uint32_t first, end;
	int result;
	struct vlr_error err;
};

static void walker_free(struct walker *w)
{
	free(w->fate);
	free(w->flow);
	free(w->bucket);
	free(w->path);
	free(w->touched);
	free(w->order);
	free(w->lft_block);
	free(w->sl_block);
	free(w->groups);
	free(w->members);
	free(w->group_of_port);
	free(w->first_vls);
	free(w->direct);
}

static int walker_init(struct walker *w, const struct vlr_tables *tables,
		       struct vlr_error *err)
{
	w->fate = calloc(tables->num_switches + 1, sizeof(struct fate));
	w->flow = calloc(tables->num_switches + 1, sizeof(struct flow));
	w->bucket = calloc(tables->num_switches + 2, sizeof(uint32_t));
	w->path = malloc(sizeof(uint32_t) * (tables->num_switches + 1));
	w->touched = malloc(sizeof(uint32_t) * (tables->num_switches + 1));
	w->order = malloc(sizeof(uint32_t) * (tables->num_switches + 1));
	w->lft_block = malloc((uint64_t)BLOCK * tables->num_switches + 1);
	w->sl_block = malloc((uint64_t)BLOCK * tables->num_sl_rows + 1);
	if (!w->fate || !w->flow || !w->bucket || !w->path || !w->touched || !w->order ||
	    !w->lft_block || !w->sl_block)
		return vlr_fail(err, "out of memory for the fates of %u switches",
				tables->num_switches);
	return build_groups(w, err);
}

static void *walk_part(void *arg)
{
	struct part *part = arg;

	part->result = walker_init(&part->w, part->w.t, &part->err);
	if (!part->result)
		route_all(&part->w, part->first, part->end);
	return NULL;
}

/* threads, or if 0 as many as the table set's size is worth and CPUs are online. */
static unsigned count_parts(const struct vlr_tables *tables, unsigned threads)
{
	uint64_t work = (uint64_t)tables->num_switches * tables->lid_stride;
	uint64_t parts = threads ? threads : work / PART_WORK;

	if (!threads && parts > vlr_threads_or_cpus(0))
		parts = vlr_threads_or_cpus(0);
	if (parts > MAX_PARTS)
		parts = MAX_PARTS;
	return parts ? (unsigned)parts : 1;
}

/*
 * Part k's own sums (part 0 the caller's) and its stretch: DLIDs cut at
 * block boundaries into stretches of about equal length.
 */
static int set_up_part(struct part *part, unsigned k, unsigned parts,
		       const struct vlr_tables *tables, struct verify_channels *ch,
		       struct verify_tally *tally, struct vlr_verify_report *report)
{
	uint32_t blocks = (tables->max_lid + BLOCK) / BLOCK;

	memset(part, 0, sizeof(*part));
	part->w.t = tables;
	part->first = (uint32_t)((uint64_t)blocks * k / parts) * BLOCK;
	if (!part->first)
		part->first = 1;
	part->end = tables->max_lid + 1;
	if (k + 1 < parts)
		part->end = (uint32_t)((uint64_t)blocks * (k + 1) / parts) * BLOCK;
	if (!k) {
		part->w.ch = ch;
		part->w.tally = tally;
		part->w.report = report;
		return 0;
	}
	part->ch = *ch;
	part->ch.deps = calloc(verify_deps_size(ch) + 1, sizeof(uint16_t));
	part->ch.vls = calloc(ch->graph.num_links + 1, sizeof(uint16_t));
	part->ch.load = calloc(ch->graph.num_links + 1, sizeof(uint64_t));
	part->tally.hops_min = UINT_MAX;
	part->w.ch = &part->ch;
	part->w.tally = &part->tally;
	part->w.report = &part->report;
	return part->ch.deps && part->ch.vls && part->ch.load ? 0 : -1;
}

/* Add part's sums to the caller's, its problems after theirs. */
static void merge_part(const struct part *part, struct verify_channels *ch,
		       struct verify_tally *tally, struct vlr_verify_report *report)
{
	const struct vlr_verify_report *r = &part->report;
	const char *line = r->problems;
	uint64_t i;

	for (i = 0; i < verify_deps_size(ch); i++)
		ch->deps[i] |= part->ch.deps[i];
	for (i = 0; i < ch->graph.num_links; i++) {
		ch->vls[i] |= part->ch.vls[i];
		ch->load[i] += part->ch.load[i];
	}
	tally->delivered += part->tally.delivered;
	tally->hop_sum += part->tally.hop_sum;
	if (part->tally.hops_min < tally->hops_min)
		tally->hops_min = part->tally.hops_min;
	if (part->tally.hops_max > tally->hops_max)
		tally->hops_max = part->tally.hops_max;
	tally->vl_mask |= part->tally.vl_mask;
	tally->sl_mask |= part->tally.sl_mask;
	report->routes += r->routes;
	report->bad_routes += r->bad_routes;
	report->loops += r->loops;
	report->dead_ends += r->dead_ends;
	report->misdelivered += r->misdelivered;
	report->bad_lids += r->bad_lids;
	for (i = 0; i < r->problems_listed && report->problems_listed < VLR_VERIFY_PROBLEMS;
	     i++) {
		size_t used = strlen(report->problems), length = strcspn(line, "\n");

		snprintf(report->problems + used, sizeof(report->problems) - used, "%.*s\n",
			 (int)length, line);
		report->problems_listed++;
		line += length + (line[length] == '\n');
	}
}

static void part_free(struct part *part, unsigned k)
{
	walker_free(&part->w);
	if (!k)
		return;
	free(part->ch.deps);
	free(part->ch.vls);
	free(part->ch.load);
}

int verify_routes(const struct vlr_tables *tables, unsigned threads,
		  struct verify_channels *ch, struct verify_tally *tally,
		  struct vlr_verify_report *report, struct vlr_error *err)
{
	unsigned parts = count_parts(tables, threads), k;
	struct part *part = calloc(parts, sizeof(*part));
	int result = 0;

	tally->hops_min = UINT_MAX;
	if (!part)
		return vlr_fail(err, "out of memory for the route walkers");
	for (k = 0; k < parts && !result; k++)
		if (set_up_part(&part[k], k, parts, tables, ch, tally, report))
			result = vlr_fail(err, "out of memory for the channel sums of %u "
					  "switches", tables->num_switches);
	if (!result)
		vlr_run_jobs(walk_part, part, sizeof(*part), parts);
	for (k = 0; k < parts && !result; k++)
		if (part[k].result)
			result = vlr_fail(err, "%s", part[k].err.message);
	for (k = 1; k < parts && !result; k++)
		merge_part(&part[k], ch, tally, report);
	if (tally->hops_min == UINT_MAX)
		tally->hops_min = 0;
	for (k = 0; k < parts; k++)
		part_free(&part[k], k);
	free(part);
	return result;
}
