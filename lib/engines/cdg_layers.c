/*
 * cdg_layers.c - breaking the cycles of the channel dependency graph into
 * virtual layers.
 *
 * Layer by layer, a depth-first search looks for a cycle among the
 * dependencies the layer's routes induce. On a cycle, one dependency is
 * chosen (the heuristic) and every route of the layer inducing it moves to
 * the next layer, which removes that dependency from this layer. Removing
 * dependencies never creates a cycle, so the search resumes where it was:
 * explored channels stay explored, and only the part of the search path
 * above the first vanished dependency is given up. The moves note the
 * dependencies whose counts fall to zero, so that one is found among them
 * rather than by reading the whole path; and a channel given up resumes,
 * when pushed again, at the edge it was trying, since every edge before
 * led to an explored channel or has vanished. A layer is done when the
 * search finishes without a cycle; the moved routes then form the next.
 *
 * Finding the routes that induce a dependency (a -> p at switch u): the
 * LIDs whose LFTs use channel a at its tail and port p at u are listed
 * under it in an index built from the LFTs once, and the routes among
 * their sources are those whose path runs through a's tail switch, found
 * by walking the LID's tree back from there: each switch's count of
 * switches forwarding to it ends the look at its links early. (Escape
 * paths change LFTs, and so find their LIDs by scanning two LFT rows,
 * eight entries at a time.)
 *
 * Escape paths either break the last layer's cycles (the layers below
 * broken as above), or, with the destinations split whole into a part per
 * layer, every layer's: a LID routed again moves all its routes, so on
 * the last layer alone it takes the routes other layers had, and there
 * the last layer ends up with most of them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "cdg_layers.h"
#include "util/jobs.h"
#include "util/large.h"

/* ---- bookkeeping ---------------------------------------------------------- */

static void free_tree(struct cdg_tree *tree)
{
	free(tree->next);
	free(tree->pending);
	free(tree->subtree);
	free(tree->depth);
	free(tree->order);
}

static int alloc_tree(struct cdg_tree *tree, uint32_t switches)
{
	tree->next = malloc(sizeof(uint32_t) * (switches + 1));
	tree->pending = malloc(sizeof(uint32_t) * (switches + 1));
	tree->subtree = malloc(sizeof(uint32_t) * (switches + 2));
	tree->depth = malloc(sizeof(uint32_t) * (switches + 1));
	tree->order = malloc(sizeof(uint32_t) * (switches + 1));
	return tree->next && tree->pending && tree->subtree && tree->depth && tree->order ? 0 : -1;
}

void cdg_layers_free(struct cdg_layers *cdg)
{
	free(cdg->row_of_switch);
	free(cdg->lids);
	free(cdg->target);
	free(cdg->cells);
	free(cdg->dep_first);
	free(cdg->dep_lids);
	free(cdg->first_port);
	free(cdg->back_port);
	free(cdg->counts);
	free_tree(&cdg->tree);
	free(cdg->walk);
	free(cdg->vanished);
	free(cdg->escaped);
	free(cdg->queue);
	memset(cdg, 0, sizeof(*cdg));
}

static uint64_t dependency_slots(const struct cdg_layers *cdg)
{
	return (uint64_t)cdg->graph->num_channels * cdg->graph->port_stride + 1;
}

static int open_layer(struct cdg_layers *cdg, unsigned layer, struct vlr_error *err)
{
	if (layer >= CDG_MAX_LAYERS)
		return vlr_fail(err, "the routes need more than %d layers (SLs) to be "
				"deadlock-free", CDG_MAX_LAYERS);
	if (layer + 1 > cdg->layers)
		cdg->layers = layer + 1;
	return 0;
}

/*
 * Layer's count of the routes inducing dependency slot: layers take turns
 * at the two places of a slot's pair, so that a move's two counts share a
 * cache line.
 */
static uint32_t *count_at(const struct cdg_layers *cdg, unsigned layer, uint64_t slot)
{
	return cdg->counts + slot * 2 + (layer & 1);
}

/* Clear the place of layer's counts, for layer + 2's. */
static void forget_layer(struct cdg_layers *cdg, unsigned layer)
{
	uint64_t slots = dependency_slots(cdg), slot;

	for (slot = 0; slot < slots; slot++)
		*count_at(cdg, layer, slot) = 0;
}

/* lid's cells, switch by switch. */
static struct cdg_cell *cells_of(const struct cdg_layers *cdg, uint32_t lid)
{
	return cdg->cells + (uint64_t)lid * cdg->graph->num_switches;
}

/* Channel switch sw takes towards lid (VLR_NONE at the target). */
static uint32_t channel_towards(const struct cdg_layers *cdg, uint32_t sw, uint32_t lid)
{
	uint8_t port = cells_of(cdg, lid)[sw].port;

	if (port == VLR_NO_PORT || port == 0)
		return VLR_NONE;
	return cdg->graph->channel_of_port[cdg->first_port[sw] + port];
}

/* Next switch of every switch towards lid (VLR_NONE at the target). */
static void load_next_hops(const struct cdg_layers *cdg, struct cdg_tree *tree, uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t t = cdg->target[lid];
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	uint32_t k;

	tree->next[t] = VLR_NONE;
	for (k = 1; k < graph->reaching[t]; k++) {
		uint32_t v = order[k];

		tree->next[v] = graph->channel_to[channel_towards(cdg, v, lid)];
	}
}

/* Dependency slot of the hop v -> next(v) -> next(next(v)), or VLR_NONE. */
static uint64_t dependency_at(const struct cdg_layers *cdg, const struct cdg_tree *tree,
			      uint32_t v, uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t u = tree->next[v];
	uint32_t in, out;

	if (u == VLR_NONE || tree->next[u] == VLR_NONE)
		return VLR_NONE;
	in = channel_towards(cdg, v, lid);
	out = channel_towards(cdg, u, lid);
	return (uint64_t)in * graph->port_stride + graph->channel_port[out];
}

/* ---- setting up ------------------------------------------------------------- */

static int number_rows(struct cdg_layers *cdg, struct vlr_error *err)
{
	const struct route_graph *graph = cdg->graph;
	struct vlr_tables *tables = cdg->tables;
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, port, rows = 0;

	cdg->row_of_switch = malloc(sizeof(uint32_t) * (graph->num_switches + 1));
	if (!cdg->row_of_switch)
		return vlr_fail(err, "out of memory for the SL rows");
	for (sw = 0; sw < graph->num_switches; sw++)
		cdg->row_of_switch[sw] = graph->sources[sw] ? rows++ : VLR_NONE;
	if (vlr_tables_alloc_sl_rows(tables, rows, err))
		return -1;
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *record = &fabric->ports[port];

		if (!vlr_tables_is_source(tables, port))
			continue;
		sw = tables->switch_of_node[fabric->ports[record->peer].node];
		tables->port_sl_row[port] = sw == VLR_NONE ? VLR_NONE : cdg->row_of_switch[sw];
	}
	return 0;
}

static int list_lids(struct cdg_layers *cdg, struct vlr_error *err)
{
	const struct vlr_tables *tables = cdg->tables;
	uint32_t lid;

	cdg->lids = malloc(sizeof(uint32_t) * tables->lid_stride);
	cdg->target = malloc(sizeof(uint32_t) * tables->lid_stride);
	if (!cdg->lids || !cdg->target)
		return vlr_fail(err, "out of memory for the LID list");
	for (lid = 0; lid < tables->lid_stride; lid++) {
		uint8_t last_port;

		cdg->target[lid] = lid ? route_graph_target(cdg->graph, lid, &last_port) :
				   VLR_NONE;
		if (cdg->target[lid] != VLR_NONE)
			cdg->lids[cdg->num_lids++] = lid;
	}
	return 0;
}

/* Tree depth of v: hops along next[] to the target (memoised in depth). */
static uint32_t tree_depth(struct cdg_tree *tree, uint32_t v)
{
	uint32_t length = 0, u = v, d;

	while (tree->depth[u] == VLR_NONE) {
		tree->pending[length++] = u;
		u = tree->next[u];
	}
	d = tree->depth[u];
	while (length)
		tree->depth[tree->pending[--length]] = ++d;
	return tree->depth[v];
}

/*
 * The switches of lid's tree with every switch before the one it forwards
 * to (the routes need not be shortest: Valiant trees detour), so that
 * subtree counts can be summed in one pass. Returns the count.
 */
static uint32_t order_tree(const struct cdg_layers *cdg, struct cdg_tree *tree, uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t t = cdg->target[lid], reach = graph->reaching[t], k, most = 0, at;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	uint32_t *first = tree->subtree;

	for (k = 0; k < reach; k++)
		tree->depth[order[k]] = VLR_NONE;
	tree->depth[t] = 0;
	for (k = 0; k < reach; k++)
		if (tree_depth(tree, order[k]) > most)
			most = tree->depth[order[k]];
	memset(first, 0, sizeof(uint32_t) * (most + 2));
	for (k = 0; k < reach; k++)
		first[most - tree->depth[order[k]] + 1]++;
	for (k = 0; k <= most; k++)
		first[k + 1] += first[k];
	for (k = 0; k < reach; k++) {
		at = most - tree->depth[order[k]];
		tree->order[first[at]++] = order[k];
	}
	return reach;
}

/* How many switches forward lid to each switch (next[] loaded for lid). */
static void count_feeders(const struct cdg_layers *cdg, const struct cdg_tree *tree,
			  uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t t = cdg->target[lid], k;
	const uint16_t *order = graph->order + (uint64_t)t * graph->num_switches;
	struct cdg_cell *cells = cells_of(cdg, lid);

	for (k = 0; k < graph->num_switches; k++)
		cells[k].feeders = 0;
	for (k = 1; k < graph->reaching[t]; k++)
		cells[tree->next[order[k]]].feeders++;
}

/* Count into counts the dependencies of all lid's routes, and its feeders. */
static void count_lid(const struct cdg_layers *cdg, struct cdg_tree *tree, uint32_t *counts,
		      uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t k, reach;

	load_next_hops(cdg, tree, lid);
	count_feeders(cdg, tree, lid);
	reach = order_tree(cdg, tree, lid);
	for (k = 0; k < reach; k++)
		tree->subtree[tree->order[k]] = graph->sources[tree->order[k]] ? 1 : 0;
	for (k = 0; k + 1 < reach; k++) {
		uint32_t v = tree->order[k];
		uint64_t slot = dependency_at(cdg, tree, v, lid);

		if (slot != VLR_NONE)
			counts[slot] += tree->subtree[v];
		tree->subtree[tree->next[v]] += tree->subtree[v];
	}
}

/*
 * The dependency slot lid's LFT entries make at switch v (the channel v
 * forwards lid on, and the port its head forwards it by), or VLR_NONE.
 */
static uint64_t slot_at(const struct cdg_layers *cdg, uint32_t v, uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t in = route_graph_next_channel(graph, v, lid), out;

	if (in == VLR_NONE ||
	    (out = route_graph_next_channel(graph, graph->channel_to[in], lid)) == VLR_NONE)
		return VLR_NONE;
	return (uint64_t)in * graph->port_stride + graph->channel_port[out];
}

/* ---- setting up on threads ------------------------------------------------ */

#define TRANSPOSE_BLOCK 64	/* LIDs whose transposed rows stay cached across switches */

/* LIDs first.. of the block that starts there. */
static uint32_t block_size(const struct vlr_tables *tables, uint32_t first)
{
	return first + TRANSPOSE_BLOCK < tables->lid_stride ? TRANSPOSE_BLOCK :
							      tables->lid_stride - first;
}

/*
 * One thread's share of a setting-up pass: LID blocks, switches or LIDs
 * [first, end). Each pass writes only its share's part of the shared
 * arrays, and the dependency counts go to the job's own array, added up in
 * job order after: the same numbers on any thread count.
 */
struct setup_job {
	struct cdg_layers *cdg;
	uint32_t first, end;
	struct cdg_tree tree;		/* counting: the job's scratch */
	uint32_t *counts;		/* counting: the job's */
	uint8_t *block;			/* transposing: a block's LFT columns */
};

/* The share's blocks of LFT columns into the cells, every route in layer 0. */
static void *transpose_share(void *arg)
{
	struct setup_job *job = arg;
	const struct vlr_tables *tables = job->cdg->tables;
	uint32_t switches = job->cdg->graph->num_switches, b;
	uint64_t i, size;

	for (b = job->first; b < job->end; b++) {
		uint32_t first = b * TRANSPOSE_BLOCK;
		struct cdg_cell *cells = cells_of(job->cdg, first);

		size = (uint64_t)block_size(tables, first) * switches;
		vlr_tables_lft_columns(tables, first, block_size(tables, first), job->block);
		for (i = 0; i < size; i++)
			cells[i] = (struct cdg_cell){ .port = job->block[i] };
	}
	return NULL;
}

/*
 * The share's switches' dependency slots: count the LIDs under each
 * (dep_first), or with fill list them there, in LID order.
 */
static void index_share(struct setup_job *job, int fill)
{
	struct cdg_layers *cdg = job->cdg;
	uint64_t slot;
	uint32_t v, i;

	for (v = job->first; v < job->end; v++)
		for (i = 0; i < cdg->num_lids; i++) {
			if ((slot = slot_at(cdg, v, cdg->lids[i])) == VLR_NONE)
				continue;
			if (fill)
				cdg->dep_lids[cdg->dep_first[slot]++] = (uint16_t)cdg->lids[i];
			else
				cdg->dep_first[slot + 1]++;
		}
}

static void *count_slots_share(void *arg)
{
	index_share(arg, 0);
	return NULL;
}

static void *fill_slots_share(void *arg)
{
	index_share(arg, 1);
	return NULL;
}

/* Count the dependencies of the share's LIDs' routes, and their feeders. */
static void *count_lids_share(void *arg)
{
	struct setup_job *job = arg;
	uint32_t i;

	for (i = job->first; i < job->end; i++)
		count_lid(job->cdg, &job->tree, job->counts, job->cdg->lids[i]);
	return NULL;
}

/* Run pass on the jobs, each with [first, end) its share of total. */
static void run_shares(struct setup_job *jobs, unsigned count, uint32_t total,
		       void *(*pass)(void *))
{
	unsigned j;

	for (j = 0; j < count; j++) {
		jobs[j].first = (uint32_t)((uint64_t)total * j / count);
		jobs[j].end = (uint32_t)((uint64_t)total * (j + 1) / count);
	}
	vlr_run_jobs(pass, jobs, sizeof(*jobs), count);
}

/*
 * Index the LIDs by the dependencies their LFT entries make (dep_first,
 * dep_lids), in LID order. Switch by switch: a switch's dependency slots
 * are those of its channels, one stretch of the index, so both passes
 * read its LFT row and its neighbours' in order and write near each other,
 * and shares of switches write apart.
 */
static int index_lids(struct cdg_layers *cdg, struct setup_job *jobs, unsigned count,
		      struct vlr_error *err)
{
	uint64_t slots = dependency_slots(cdg), slot;

	cdg->dep_first = calloc(slots + 1, sizeof(uint32_t));
	if (!cdg->dep_first)
		return vlr_fail(err, "out of memory for the dependency index");
	run_shares(jobs, count, cdg->graph->num_switches, count_slots_share);
	for (slot = 0; slot < slots; slot++)
		cdg->dep_first[slot + 1] += cdg->dep_first[slot];
	cdg->dep_lids = malloc(sizeof(uint16_t) * ((uint64_t)cdg->dep_first[slots] + 1));
	if (!cdg->dep_lids)
		return vlr_fail(err, "out of memory for the dependency index");
	run_shares(jobs, count, cdg->graph->num_switches, fill_slots_share);
	memmove(cdg->dep_first + 1, cdg->dep_first, sizeof(uint32_t) * slots);
	cdg->dep_first[0] = 0;
	return 0;
}

/* The cells, and what the layering reads of each channel's ports. */
static int transpose_lfts(struct cdg_layers *cdg, struct setup_job *jobs, unsigned count,
			  struct vlr_error *err)
{
	const struct vlr_tables *tables = cdg->tables;
	uint32_t switches = cdg->graph->num_switches, sw, c;

	cdg->cells = vlr_large_alloc(sizeof(struct cdg_cell) *
				     ((uint64_t)tables->lid_stride * switches + 1), 0);
	cdg->first_port = malloc(sizeof(uint32_t) * (switches + 1));
	cdg->back_port = malloc(cdg->graph->num_channels + 1);
	if (!cdg->cells || !cdg->first_port || !cdg->back_port)
		return vlr_fail(err, "out of memory for the transposed LFTs");
	for (c = 0; c < cdg->graph->num_channels; c++)
		cdg->back_port[c] = cdg->graph->channel_port[cdg->graph->channel_back[c]];
	for (sw = 0; sw < switches; sw++)
		cdg->first_port[sw] = tables->fabric->nodes[tables->switch_node[sw]].first_port;
	run_shares(jobs, count, (tables->lid_stride + TRANSPOSE_BLOCK - 1) / TRANSPOSE_BLOCK,
		   transpose_share);
	return 0;
}

/* Count every LID's routes into layer 0: the jobs' own counts added up. */
static void count_routes(struct cdg_layers *cdg, struct setup_job *jobs, unsigned count)
{
	uint64_t slots = dependency_slots(cdg), slot;
	unsigned j;

	run_shares(jobs, count, cdg->num_lids, count_lids_share);
	for (j = 0; j < count; j++)
		for (slot = 0; slot < slots; slot++)
			*count_at(cdg, 0, slot) += jobs[j].counts[slot];
}

static void free_jobs(struct setup_job *jobs, unsigned count)
{
	unsigned j;

	for (j = 0; j < count; j++) {
		free(jobs[j].block);
		free(jobs[j].counts);
		if (j)
			free_tree(&jobs[j].tree);
	}
	free(jobs);
}

/* count jobs, each with its own counts, the first with the cdg's scratch. */
static struct setup_job *new_jobs(struct cdg_layers *cdg, unsigned count,
				  struct vlr_error *err)
{
	struct setup_job *jobs = calloc(count, sizeof(*jobs));
	uint32_t switches = cdg->graph->num_switches;
	unsigned j;
	int failed = !jobs;

	for (j = 0; !failed && j < count; j++) {
		jobs[j].cdg = cdg;
		jobs[j].block = malloc((uint64_t)TRANSPOSE_BLOCK * switches + 1);
		jobs[j].tree = cdg->tree;
		jobs[j].counts = vlr_large_alloc(sizeof(uint32_t) * dependency_slots(cdg), 1);
		failed = (j && alloc_tree(&jobs[j].tree, switches)) || !jobs[j].counts ||
			 !jobs[j].block;
	}
	if (failed) {
		if (jobs)
			free_jobs(jobs, j);
		vlr_fail(err, "out of memory for the layering's %u threads", count);
		return NULL;
	}
	return jobs;
}

/* Threads setting up: as asked, or one per online CPU; at most the option's limit. */
static unsigned setup_threads(unsigned threads)
{
	threads = vlr_threads_or_cpus(threads);
	return threads > VLR_MAX_ENGINE_THREADS ? VLR_MAX_ENGINE_THREADS : threads;
}

int cdg_layers_init(struct cdg_layers *cdg, const struct route_graph *graph,
		    struct vlr_tables *tables, unsigned threads, struct vlr_error *err)
{
	struct setup_job *jobs = NULL;
	unsigned count = setup_threads(threads);

	memset(cdg, 0, sizeof(*cdg));
	cdg->graph = graph;
	cdg->tables = tables;
	cdg->walk = malloc(sizeof(struct cdg_walk) * (graph->num_switches + 1));
	cdg->vanished = malloc(sizeof(uint64_t) * CDG_VANISHED_MAX);
	if (alloc_tree(&cdg->tree, graph->num_switches) || !cdg->walk || !cdg->vanished) {
		vlr_fail(err, "out of memory for the dependency graph");
		goto fail;
	}
	cdg->counts = vlr_large_alloc(sizeof(uint32_t) * 2 * dependency_slots(cdg), 1);
	if (!cdg->counts) {
		vlr_fail(err, "out of memory for the dependency counts");
		goto fail;
	}
	if (number_rows(cdg, err) || list_lids(cdg, err) || open_layer(cdg, 0, err) ||
	    !(jobs = new_jobs(cdg, count, err)) || transpose_lfts(cdg, jobs, count, err) ||
	    index_lids(cdg, jobs, count, err))
		goto fail;
	count_routes(cdg, jobs, count);
	free_jobs(jobs, count);
	return 0;
fail:
	if (jobs)
		free_jobs(jobs, count);
	cdg_layers_free(cdg);
	return -1;
}

/* Copy the layers from the cells to the SL rows, a block of LIDs at a time. */
static void store_layers(struct cdg_layers *cdg)
{
	const struct vlr_tables *tables = cdg->tables;
	uint32_t switches = cdg->graph->num_switches, sw, first, lid, end;

	for (first = 0; first < tables->lid_stride; first += TRANSPOSE_BLOCK) {
		end = first + block_size(tables, first);
		for (sw = 0; sw < switches; sw++) {
			uint8_t *sls;

			if (cdg->row_of_switch[sw] == VLR_NONE)
				continue;
			sls = vlr_tables_sl_row(tables, cdg->row_of_switch[sw]);
			for (lid = first; lid < end; lid++)
				sls[lid] = cells_of(cdg, lid)[sw].layer;
		}
	}
}

/* ---- moving the routes of one dependency up a layer ------------------------- */

/*
 * Along lid's route: the dependency slot at channel *in, *in moved on to
 * the next channel; VLR_NONE where the route ends (known at the target
 * without reading its entry, one cache miss less per moved route).
 */
static uint64_t next_dependency(const struct cdg_layers *cdg, uint32_t *in, uint32_t lid)
{
	const struct route_graph *graph = cdg->graph;
	uint64_t slot;
	uint32_t out;

	if (*in == VLR_NONE || graph->channel_to[*in] == cdg->target[lid] ||
	    (out = channel_towards(cdg, graph->channel_to[*in], lid)) == VLR_NONE)
		return VLR_NONE;
	slot = (uint64_t)*in * graph->port_stride + graph->channel_port[out];
	*in = out;
	return slot;
}

/* Take n routes from dependency slot of layer, noting it if none are left. */
static void take_routes(struct cdg_layers *cdg, unsigned layer, uint64_t slot, uint32_t n)
{
	if ((*count_at(cdg, layer, slot) -= n) == 0 && cdg->num_vanished++ < CDG_VANISHED_MAX)
		cdg->vanished[cdg->num_vanished - 1] = slot;
}

/* Add delta routes to every dependency of the route (sw, lid) in layer. */
static void count_path(struct cdg_layers *cdg, uint32_t sw, uint32_t lid,
		       unsigned layer, int delta)
{
	uint32_t in = channel_towards(cdg, sw, lid);
	uint64_t slot;

	while ((slot = next_dependency(cdg, &in, lid)) != VLR_NONE) {
		if (delta < 0)
			take_routes(cdg, layer, slot, (uint32_t)-delta);
		else
			*count_at(cdg, layer, slot) += (uint32_t)delta;
	}
}

/*
 * Walk lid's tree back from switch from (the tail of channel in): its
 * subtree's switches into walk[], each after the one it forwards to, with
 * the dependency its route induces there. Returns how many.
 */
static uint32_t walk_subtree(struct cdg_layers *cdg, uint32_t lid, uint32_t from)
{
	const struct route_graph *graph = cdg->graph;
	const struct cdg_cell *cells = cells_of(cdg, lid);
	struct cdg_walk *walk = cdg->walk;
	uint32_t walked = 1, i, c;

	walk[0].sw = from;
	for (i = 0; i < walked; i++) {
		uint32_t v = walk[i].sw, left = cells[v].feeders;

		for (c = graph->first_channel[v]; left; c++)
			if (cells[graph->channel_to[c]].port == cdg->back_port[c]) {
				walk[walked].sw = graph->channel_to[c];
				walk[walked].up = i;
				walk[walked].slot = (uint64_t)graph->channel_back[c] *
							    graph->port_stride + cells[v].port;
				walked++;
				left--;
			}
	}
	return walked;
}

/*
 * The routes of lid in layer that run through channel `in`: those of the
 * source switches in the subtree of in's tail in lid's tree. With move,
 * they move up a layer, and so do their dependencies: below the tail each
 * walked switch's dependency moves by the routes moved at and below it,
 * and from the tail on every dependency of the route by all of them.
 * Returns how many there are.
 */
static uint32_t lid_routes(struct cdg_layers *cdg, uint32_t lid, uint32_t in,
			   unsigned layer, int move)
{
	struct cdg_cell *cells = cells_of(cdg, lid);
	struct cdg_walk *walk = cdg->walk;
	uint32_t walked = walk_subtree(cdg, lid, cdg->graph->channel_from[in]), i, found = 0;
	uint64_t slot;

	for (i = 0; i < walked; i++) {
		uint32_t v = walk[i].sw;

		walk[i].moved = cdg->row_of_switch[v] != VLR_NONE && cells[v].layer == layer;
		found += walk[i].moved;
		if (move && walk[i].moved)
			cells[v].layer = (uint8_t)(layer + 1);
	}
	if (!move || !found)
		return found;
	for (i = walked - 1; i > 0; i--) {
		if (!walk[i].moved)
			continue;
		take_routes(cdg, layer, walk[i].slot, walk[i].moved);
		*count_at(cdg, layer + 1, walk[i].slot) += walk[i].moved;
		walk[walk[i].up].moved += walk[i].moved;
	}
	while ((slot = next_dependency(cdg, &in, lid)) != VLR_NONE) {
		take_routes(cdg, layer, slot, found);
		*count_at(cdg, layer + 1, slot) += found;
	}
	cdg->routes_moved += found;
	return found;
}

/* ---- finding the LIDs that induce a dependency ------------------------------ */

/* Whether some byte of v is zero. */
static int has_zero_byte(uint64_t v)
{
	return ((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL) != 0;
}

/*
 * The first LID from `from` on (below end) whose entry is x in LFT row a
 * and y in LFT row b, or end; eight at a time while eight are left.
 */
static uint32_t next_inducing(const uint8_t *a, const uint8_t *b, uint8_t x, uint8_t y,
			      uint32_t from, uint32_t end)
{
	uint64_t xs = 0x0101010101010101ULL * x, ys = 0x0101010101010101ULL * y;
	uint64_t va, vb;

	for (; from + 8 <= end; from += 8) {
		memcpy(&va, a + from, sizeof(va));
		memcpy(&vb, b + from, sizeof(vb));
		if (has_zero_byte((va ^ xs) | (vb ^ ys)))
			break;
	}
	for (; from < end; from++)
		if (a[from] == x && b[from] == y)
			return from;
	return end;
}

/* Ask for the entries of lid that lid_routes reads first at channel in's ends. */
static void prefetch_lid(const struct cdg_layers *cdg, uint32_t lid, uint32_t in)
{
	const struct route_graph *graph = cdg->graph;
	const struct cdg_cell *cells = cells_of(cdg, lid);

	__builtin_prefetch(cells + graph->channel_from[in]);
	__builtin_prefetch(cells + graph->channel_to[in]);
}

#define PREFETCH_AHEAD 16	/* LIDs: enough misses in flight to hide latency */

/*
 * Move every route of layer inducing dependency (in, out port) up: those
 * of the LIDs the index lists under it, until the layer's count of it is
 * zero (the index lists the LIDs of every layer).
 */
static int move_dependency(struct cdg_layers *cdg, uint32_t in, uint8_t out_port,
			   unsigned layer, struct vlr_error *err)
{
	uint64_t slot = (uint64_t)in * cdg->graph->port_stride + out_port;
	uint32_t first = cdg->dep_first[slot], end = cdg->dep_first[slot + 1], j;

	if (open_layer(cdg, layer + 1, err))
		return -1;
	for (j = first; j < end && j < first + PREFETCH_AHEAD; j++)
		prefetch_lid(cdg, cdg->dep_lids[j], in);
	for (j = first; j < end && *count_at(cdg, layer, slot); j++) {
		if (j + PREFETCH_AHEAD < end)
			prefetch_lid(cdg, cdg->dep_lids[j + PREFETCH_AHEAD], in);
		lid_routes(cdg, cdg->dep_lids[j], in, layer, 1);
	}
	cdg->cycles_broken++;
	return 0;
}

/* ---- escape paths ------------------------------------------------------------ */

/* A LID's escape state (cdg->escaped): QUEUED while its routes are out of the counts. */
enum { MINIMAL, ESCAPED, QUEUED };

int cdg_layers_escape_on(struct cdg_layers *cdg, struct escape *escape,
			 struct vlr_error *err)
{
	cdg->escape = escape;
	cdg->escaped = calloc((size_t)cdg->tables->lid_stride + 1, 1);
	cdg->queue = malloc(sizeof(uint32_t) * (cdg->num_lids + 1));
	if (!cdg->escaped || !cdg->queue)
		return vlr_fail(err, "out of memory for the escape paths");
	return 0;
}

/*
 * Add delta to the dependencies of lid's routes on layer, the one being
 * searched (the lower layers' counts are no longer kept).
 */
static void count_lid_routes(struct cdg_layers *cdg, uint32_t lid, unsigned layer, int delta)
{
	uint32_t sw;

	for (sw = 0; sw < cdg->graph->num_switches; sw++)
		if (cdg->row_of_switch[sw] != VLR_NONE && cells_of(cdg, lid)[sw].layer == layer)
			count_path(cdg, sw, lid, layer, delta);
}

/* Queue lid for escaping (its routes not in the counts). */
static void queue_lid(struct cdg_layers *cdg, uint32_t lid)
{
	cdg->escaped[lid] = QUEUED;
	cdg->queue[cdg->queued++] = lid;
}

/* Take lid's routes out of layer's counts and queue it for escaping. */
static void escape_later(struct cdg_layers *cdg, uint32_t lid, unsigned layer)
{
	count_lid_routes(cdg, lid, layer, -1);
	queue_lid(cdg, lid);
}

/* Queue the LIDs whose routes in layer induce (in, out port); how many. */
static uint32_t escape_dependency(struct cdg_layers *cdg, uint32_t in, uint8_t out_port,
				  unsigned layer)
{
	const struct route_graph *graph = cdg->graph;
	const uint8_t *tail_lft = vlr_tables_lft(cdg->tables, graph->channel_from[in]);
	const uint8_t *head_lft = vlr_tables_lft(cdg->tables, graph->channel_to[in]);
	uint8_t in_port = graph->channel_port[in];
	uint32_t end = cdg->tables->lid_stride, lid = 1, queued = cdg->queued;

	while ((lid = next_inducing(tail_lft, head_lft, in_port, out_port, lid, end)) < end) {
		if (cdg->target[lid] != VLR_NONE && cdg->escaped[lid] == MINIMAL &&
		    lid_routes(cdg, lid, in, layer, 0))
			escape_later(cdg, lid, layer);
		lid++;
	}
	cdg->cycles_broken++;
	return cdg->queued - queued;
}

/*
 * Route the queued LIDs again against a topological order of the layer's
 * other dependencies (acyclic now that the queued are out) and the tree's
 * turns, and count their routes there.
 */
static int escape_queued(struct cdg_layers *cdg, unsigned layer, struct vlr_error *err)
{
	uint32_t switches = cdg->graph->num_switches, i, sw, on_tree;

	if (escape_set_order(cdg->escape, count_at(cdg, layer, 0), cdg->graph->port_stride, 2))
		return vlr_fail(err, "escape paths: layer %u still has a cycle", layer);
	for (i = 0; i < cdg->queued; i++)
		escape_unload(cdg->escape, cdg->queue[i]);
	for (i = 0; i < cdg->queued; i++) {
		uint32_t lid = cdg->queue[i];

		on_tree = escape_lid(cdg->escape, lid);
		cdg->tree_lids += on_tree > 0;
		cdg->tree_routes += on_tree;
		cdg->escaped[lid] = ESCAPED;
		for (sw = 0; sw < switches; sw++) {
			cells_of(cdg, lid)[sw].port = vlr_tables_lft(cdg->tables, sw)[lid];
			cells_of(cdg, lid)[sw].layer = (uint8_t)layer;
		}
		load_next_hops(cdg, &cdg->tree, lid);
		count_feeders(cdg, &cdg->tree, lid);
		count_lid_routes(cdg, lid, layer, +1);	/* all on layer now */
	}
	cdg->escaped_lids += cdg->queued;
	cdg->queued = 0;
	return 0;
}

/* ---- the search ------------------------------------------------------------ */

enum { WHITE, GREY, BLACK };

struct search {
	struct cdg_layers *cdg;
	unsigned layer;
	enum vlr_heuristic heuristic;
	int escaping;		/* cut by escape paths, not by moving routes up */
	uint8_t *colour;	/* [channel] */
	uint32_t *position;	/* [channel]: place on the stack while grey */
	uint32_t *stack;	/* channels on the search path */
	uint32_t *cursor;	/* [stack place]: next channel to try */
	uint32_t *resume;	/* [channel]: the channel to try first when pushed */
	uint32_t depth;
};

static uint32_t count_of(const struct search *search, uint32_t in, uint32_t out)
{
	const struct route_graph *graph = search->cdg->graph;

	return *count_at(search->cdg, search->layer,
			 (uint64_t)in * graph->port_stride + graph->channel_port[out]);
}

/* A dependency of the layer: its routes', and when escaping the tree's turns. */
static int depends(const struct search *search, uint32_t in, uint32_t out)
{
	return count_of(search, in, out) ||
	       (search->escaping && escape_tree_turn(search->cdg->escape, in, out));
}

static void push(struct search *search, uint32_t channel)
{
	search->colour[channel] = GREY;
	search->position[channel] = search->depth;
	search->stack[search->depth] = channel;
	search->cursor[search->depth] = search->resume[channel];
	search->depth++;
}

/* Whether the dependency from stack place i to the next has vanished. */
static int vanished_at(const struct search *search, uint32_t i)
{
	return !depends(search, search->stack[i], search->stack[i + 1]);
}

/*
 * The place above the first dependency of the search path that vanished
 * (the depth if none): among those noted, or by looking along the path
 * when too many were.
 */
static uint32_t first_vanished(const struct search *search)
{
	const struct cdg_layers *cdg = search->cdg;
	const struct route_graph *graph = cdg->graph;
	uint32_t keep = search->depth, i, in;

	if (cdg->num_vanished > CDG_VANISHED_MAX) {
		for (i = 0; i + 1 < search->depth && keep == search->depth; i++)
			if (vanished_at(search, i))
				keep = i + 1;
		return keep;
	}
	for (i = 0; i < cdg->num_vanished; i++) {
		uint32_t place;

		in = (uint32_t)(cdg->vanished[i] / graph->port_stride);
		if (search->colour[in] != GREY)
			continue;
		place = search->position[in];
		if (place + 1 < keep &&
		    graph->channel_port[search->stack[place + 1]] ==
			    cdg->vanished[i] % graph->port_stride &&
		    vanished_at(search, place))
			keep = place + 1;
	}
	return keep;
}

/* Give up the search path above the first dependency that vanished. */
static void repair_path(struct search *search)
{
	uint32_t keep = first_vanished(search);

	search->cdg->num_vanished = 0;
	/* a given-up channel's edges before the one it tried lead to black channels */
	while (search->depth > keep) {
		search->depth--;
		search->resume[search->stack[search->depth]] = search->cursor[search->depth] - 1;
		search->colour[search->stack[search->depth]] = WHITE;
	}
}

/*
 * The cycle is stack[from..depth-1] closed by the edge top -> stack[from].
 * Pick the dependency to cut; returns the place whose outgoing edge it is.
 */
static uint32_t choose_cut(const struct search *search, uint32_t from)
{
	uint32_t place, chosen = from, top = search->depth - 1;
	uint32_t best = 0;

	if (search->heuristic == VLR_HEURISTIC_FIRST)
		return from;
	for (place = from; place <= top; place++) {
		uint32_t to = place == top ? search->stack[from] : search->stack[place + 1];
		uint32_t weight = count_of(search, search->stack[place], to);

		if (place == from ||
		    (search->heuristic == VLR_HEURISTIC_WEAKEST && weight < best) ||
		    (search->heuristic == VLR_HEURISTIC_STRONGEST && weight > best)) {
			best = weight;
			chosen = place;
		}
	}
	return chosen;
}

/* The place in the cycle whose dependency turns from down to up. */
static uint32_t down_up_turn(const struct search *search, uint32_t from)
{
	uint32_t place, top = search->depth - 1;

	for (place = from; place < top; place++)
		if (escape_turns_up(search->cdg->escape, search->stack[place],
				    search->stack[place + 1]))
			return place;
	return top;
}

static int break_cycle(struct search *search, uint32_t from, struct vlr_error *err)
{
	uint32_t place, top = search->depth - 1, in, out;
	uint8_t out_port;

	place = search->escaping ? down_up_turn(search, from) : choose_cut(search, from);
	in = search->stack[place];
	out = place == top ? search->stack[from] : search->stack[place + 1];
	out_port = search->cdg->graph->channel_port[out];
	if (!search->escaping) {
		if (move_dependency(search->cdg, in, out_port, search->layer, err))
			return -1;
	} else if (!escape_dependency(search->cdg, in, out_port, search->layer)) {
		return vlr_fail(err, "escape paths: no destination to route again on a "
				"cycle of layer %u", search->layer);
	}
	repair_path(search);
	return 0;
}

/* Advance the search from the channel on top of the stack by one edge. */
static int step(struct search *search, struct vlr_error *err)
{
	const struct route_graph *graph = search->cdg->graph;
	uint32_t top = search->depth - 1, channel = search->stack[top];
	uint32_t end = graph->first_channel[graph->channel_to[channel] + 1];

	while (search->cursor[top] < end) {
		uint32_t out = search->cursor[top]++;

		if (!depends(search, channel, out))
			continue;
		if (search->colour[out] == GREY)
			return break_cycle(search, search->position[out], err);
		if (search->colour[out] == WHITE) {
			push(search, out);
			return 0;
		}
	}
	search->colour[channel] = BLACK;
	search->depth--;
	return 0;
}

static int search_layer(struct search *search, struct vlr_error *err)
{
	const struct route_graph *graph = search->cdg->graph;
	uint32_t start, channels = graph->num_channels;

	memset(search->colour, WHITE, channels + 1);
	search->cdg->num_vanished = 0;
	for (start = 0; start < channels; start++)
		search->resume[start] = graph->first_channel[graph->channel_to[start]];
	for (start = 0; start < channels; start++) {
		if (search->colour[start] != WHITE)
			continue;
		push(search, start);
		while (search->depth)
			if (step(search, err))
				return -1;
	}
	return 0;
}


static void search_free(struct search *search)
{
	free(search->colour);
	free(search->position);
	free(search->stack);
	free(search->cursor);
	free(search->resume);
}

static int search_alloc(struct search *search, struct cdg_layers *cdg,
			enum vlr_heuristic heuristic, struct vlr_error *err)
{
	uint32_t channels = cdg->graph->num_channels + 1;

	memset(search, 0, sizeof(*search));
	search->cdg = cdg;
	search->heuristic = heuristic;
	search->colour = malloc(channels);
	search->position = malloc(sizeof(uint32_t) * channels);
	search->stack = malloc(sizeof(uint32_t) * channels);
	search->cursor = malloc(sizeof(uint32_t) * channels);
	search->resume = malloc(sizeof(uint32_t) * channels);
	if (search->colour && search->position && search->stack && search->cursor &&
	    search->resume)
		return 0;
	search_free(search);
	return vlr_fail(err, "out of memory for the cycle search");
}

/* Search layer and route the LIDs it queues again, until it has no cycle. */
static int escape_layer(struct search *search, unsigned layer, struct vlr_error *err)
{
	int result;

	search->layer = layer;
	search->escaping = 1;
	while (!(result = search_layer(search, err)) && search->cdg->queued)
		if ((result = escape_queued(search->cdg, layer, err)))
			break;
	return result;
}

int cdg_layers_break_cycles(struct cdg_layers *cdg, enum vlr_heuristic heuristic,
			    unsigned limit, struct vlr_error *err)
{
	struct search search;
	int result = 0;

	if (search_alloc(&search, cdg, heuristic, err))
		return -1;
	for (search.layer = 0; !result && search.layer < cdg->layers && search.layer < limit;
	     search.layer++) {
		if (search.layer)
			forget_layer(cdg, search.layer - 1);
		result = search_layer(&search, err);
	}
	if (!result && cdg->escape && cdg->layers > limit)
		result = escape_layer(&search, limit, err);
	store_layers(cdg);
	search_free(&search);
	return result;
}

/* ---- destinations whole, a part per layer ---------------------------------- */

/* The LIDs by target switch: lids[first[sw] .. first[sw + 1]). */
static void lids_by_switch(const struct cdg_layers *cdg, uint32_t *first, uint32_t *lids)
{
	uint32_t s = cdg->graph->num_switches, i, sw;

	memset(first, 0, sizeof(uint32_t) * (s + 2));
	for (i = 0; i < cdg->num_lids; i++)
		first[cdg->target[cdg->lids[i]] + 2]++;
	for (sw = 0; sw < s; sw++)
		first[sw + 2] += first[sw + 1];
	for (i = 0; i < cdg->num_lids; i++)
		lids[first[cdg->target[cdg->lids[i]] + 1]++] = cdg->lids[i];
}

/* The switch not taken farthest from every seed so far (near[]: hops to the nearest). */
static uint32_t next_seed(const struct route_graph *graph, uint32_t seed, uint32_t *near,
			  const uint8_t *taken)
{
	uint32_t s = graph->num_switches, v, far = VLR_NONE;
	const uint16_t *distance = graph->distance + (uint64_t)seed * s;

	for (v = 0; v < s; v++) {
		if (distance[v] < near[v])
			near[v] = distance[v];
		if (!taken[v] && (far == VLR_NONE || near[v] > near[far]))
			far = v;
	}
	return far;
}

/*
 * Give each LID (part[]) one of parts parts of about equal size, each the
 * destinations of switches near each other: a ball grown over the
 * switches not yet taken, in a seed's breadth-first order, the first
 * seed the switch farthest from the escape tree's root and each next one
 * the switch farthest from the seeds before it. Routes towards
 * destinations near each other turn alike, and so close fewer cycles
 * than routes towards destinations spread over the fabric.
 */
static int split_destinations(const struct cdg_layers *cdg, unsigned parts, uint8_t *part_of,
			      struct vlr_error *err)
{
	const struct route_graph *graph = cdg->graph;
	uint32_t s = graph->num_switches, root = escape_root(cdg->escape), placed = 0;
	uint32_t *first = malloc(sizeof(uint32_t) * (s + 2));
	uint32_t *lids = malloc(sizeof(uint32_t) * (cdg->num_lids + 1));
	uint32_t *near = malloc(sizeof(uint32_t) * (s + 1));
	uint8_t *taken = calloc(s + 1, 1);
	uint32_t seed = graph->order[(uint64_t)root * s + graph->reaching[root] - 1], k, i;
	unsigned part;

	if (!first || !lids || !near || !taken) {
		free(first);
		free(lids);
		free(near);
		free(taken);
		return vlr_fail(err, "out of memory splitting the destinations");
	}
	lids_by_switch(cdg, first, lids);
	for (k = 0; k < s; k++)
		near[k] = UINT32_MAX;
	for (part = 0; part < parts; part++) {
		const uint16_t *ball = graph->order + (uint64_t)seed * s;
		uint32_t goal = (uint32_t)((uint64_t)(part + 1) * cdg->num_lids / parts);

		for (k = 0; k < s && placed < goal; k++) {
			uint32_t v = ball[k];

			if (taken[v])
				continue;
			taken[v] = 1;
			for (i = first[v]; i < first[v + 1]; i++, placed++)
				part_of[lids[i]] = (uint8_t)part;
		}
		seed = next_seed(graph, seed, near, taken);
		if (seed == VLR_NONE)
			break;
	}
	free(first);
	free(lids);
	free(near);
	free(taken);
	return 0;
}

/* Every route of every LID on the layer of its part. */
static void place_lids(struct cdg_layers *cdg, const uint8_t *part)
{
	uint32_t i, sw;

	for (i = 0; i < cdg->num_lids; i++)
		for (sw = 0; sw < cdg->graph->num_switches; sw++)
			cells_of(cdg, cdg->lids[i])[sw].layer = part[cdg->lids[i]];
}

int cdg_layers_escape_whole(struct cdg_layers *cdg, unsigned layers, int every,
			    struct vlr_error *err)
{
	uint8_t *part = malloc((size_t)cdg->tables->lid_stride + 1);
	struct search search;
	unsigned layer;
	uint32_t i;
	int result;

	if (!part)
		return vlr_fail(err, "out of memory splitting the destinations");
	if (open_layer(cdg, layers - 1, err) ||
	    search_alloc(&search, cdg, VLR_HEURISTIC_FIRST, err)) {
		free(part);
		return -1;
	}
	result = split_destinations(cdg, layers, part, err);
	if (!result)
		place_lids(cdg, part);
	for (layer = 0; !result && layer < layers; layer++) {
		forget_layer(cdg, layer);
		for (i = 0; i < cdg->num_lids; i++) {
			if (part[cdg->lids[i]] != layer)
				continue;
			if (every)
				queue_lid(cdg, cdg->lids[i]);	/* never counted */
			else
				count_lid_routes(cdg, cdg->lids[i], layer, +1);
		}
		if (every)
			result = escape_queued(cdg, layer, err);
		result = result || escape_layer(&search, layer, err);
	}
	store_layers(cdg);
	search_free(&search);
	free(part);
	return result;
}
