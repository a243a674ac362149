/*
 * topology_match.c - the least isomorphism of a fabric's switch graph onto a
 * model graph (a generated fabric's), which the canonical numbering of the
 * Dragonflies is (see topology.h).
 *
 * "Least" orders isomorphisms by the GUIDs of the fabric's switches listed
 * in the model's switch order: model switch 0 gets the lowest-GUID switch
 * that some isomorphism maps onto it, model switch 1 the lowest-GUID one
 * that then still can, and so on. The search tries the candidates of each
 * model switch in GUID order and backtracks when a choice leads nowhere.
 *
 * Candidates are pruned by colour refinement run on both graphs at once:
 * a switch's colour is refined by the multiset of its neighbours' colours
 * until nothing splits, so that an isomorphism can only map a switch onto
 * a model switch of the same colour, and a colour held by more switches of
 * one graph than of the other proves that no isomorphism is left. Matching
 * a pair gives both a colour of their own, and refinement then spreads
 * what that choice implies; on these graphs a few choices make every
 * colour single, and the rest of the numbering follows without search.
 * Twins (switches with the same neighbours, as the leaves of a Dragonfly+
 * group) can swap places without changing anything else, so they are
 * matched in GUID order at once instead of one choice each. Colours are
 * numbered by sorting what defines them, never by switch index, so nothing
 * depends on the order of the switches.
 *
 * The search gives up (and the caller falls back to another numbering)
 * after MATCH_TRIES candidates or MATCH_LEVELS nested choices, each of
 * which keeps a copy of the colours. Measured on a Dragonfly+ of 4128
 * switches with random GUIDs: cabled as palmtree, it is matched onto its
 * palmtree twin at the second candidate (0.1 s); cabled consecutively, it
 * is refuted as a palmtree at the limit of 256 candidates, then matched
 * onto its consecutive twin after 125 candidates and 98 nested choices
 * (2.2 s in all).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "topology_internal.h"

#define MATCH_TRIES 256
#define MATCH_LEVELS 256

/* What defines a vertex's next colour: its colour and its neighbours'. */
struct signature {
	uint32_t colour;
	uint32_t vertex;
	uint64_t around;
};

/* A choice made: model switch `position`, the candidates tried so far. */
struct level {
	uint32_t position;
	uint32_t next;			/* index into by_guid to try next */
	uint32_t *saved;		/* the colours before the choice */
	uint32_t saved_colours;
};

/*
 * Vertices 0..n-1 are the fabric's switches, n..2n-1 the model's. A colour
 * is kept for both graphs together.
 */
struct match {
	const struct vlr_switch_graph *graph;
	const struct vlr_switch_graph *model;
	uint32_t n;
	uint32_t *colour;
	uint32_t colours;
	int32_t *balance;		/* [colour]: fabric vertices - model vertices */
	uint32_t *model_size;		/* [colour]: model vertices */
	uint32_t *model_of_colour;	/* [colour], once every colour is single */
	int32_t *count;			/* [model switch]: links, while checking */
	uint32_t *twins;		/* a colour's vertices: the fabric's, the model's */
	struct signature *signatures;
	const uint32_t *by_guid;	/* the fabric's switches, lowest GUID first */
	struct level levels[MATCH_LEVELS];
	unsigned depth;
	unsigned tries;
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int compare_signatures(const void *a, const void *b)
{
	const struct signature *x = a, *y = b;

	if (x->colour != y->colour)
		return x->colour < y->colour ? -1 : 1;
	if (x->around != y->around)
		return x->around < y->around ? -1 : 1;
	return 0;
}

/* The sum of the neighbours' mixed colours: the same for equal multisets. */
static uint64_t around(const struct match *m, uint32_t vertex)
{
	const struct vlr_switch_graph *g = vertex < m->n ? m->graph : m->model;
	uint32_t sw = vertex < m->n ? vertex : vertex - m->n, shift = vertex < m->n ? 0 : m->n;
	uint64_t sum = 0;
	uint32_t at;

	for (at = g->offset[sw]; at < g->offset[sw + 1]; at++)
		sum += mix(m->colour[g->neighbour[at] + shift]);
	return sum;
}

/* One round: new colours by (colour, neighbours); returns their number. */
static uint32_t refine_once(struct match *m)
{
	uint32_t v, count = 0, vertices = 2 * m->n;

	for (v = 0; v < vertices; v++)
		m->signatures[v] = (struct signature){ m->colour[v], v, around(m, v) };
	qsort(m->signatures, vertices, sizeof(*m->signatures), compare_signatures);
	for (v = 0; v < vertices; v++) {
		if (v && compare_signatures(&m->signatures[v - 1], &m->signatures[v]))
			count++;
		m->colour[m->signatures[v].vertex] = count;
	}
	return count + 1;
}

/* Count each colour's vertices in both graphs; 0 when they are equal. */
static int balanced(struct match *m)
{
	uint32_t v;

	memset(m->balance, 0, m->colours * sizeof(*m->balance));
	memset(m->model_size, 0, m->colours * sizeof(*m->model_size));
	for (v = 0; v < 2 * m->n; v++) {
		m->balance[m->colour[v]] += v < m->n ? 1 : -1;
		m->model_size[m->colour[v]] += v >= m->n;
	}
	for (v = 0; v < m->colours; v++)
		if (m->balance[v])
			return -1;
	return 0;
}

/*
 * Refine until nothing splits; 0 when both graphs hold every colour
 * equally. A colour that splits unequally never evens out again (later
 * colours only split it further), so the first unequal round ends it.
 */
static int refine(struct match *m)
{
	uint32_t colours;

	while ((colours = refine_once(m)) != m->colours) {
		m->colours = colours;
		if (balanced(m))
			return -1;
	}
	return balanced(m);
}

/* Does model_of keep every link of graph, counted with multiplicity? */
static int keeps_links(const struct vlr_switch_graph *graph, const struct vlr_switch_graph *model,
		       const uint32_t *model_of, int32_t *count)
{
	uint32_t sw, at;
	int ok = 1;

	for (sw = 0; sw < graph->num_switches && ok; sw++) {
		uint32_t twin = model_of[sw];

		if (vlr_switch_degree(graph, sw) != vlr_switch_degree(model, twin))
			return 0;
		for (at = model->offset[twin]; at < model->offset[twin + 1]; at++)
			count[model->neighbour[at]]++;
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++)
			count[model_of[graph->neighbour[at]]]--;
		for (at = model->offset[twin]; at < model->offset[twin + 1]; at++) {
			ok &= count[model->neighbour[at]] == 0;
			count[model->neighbour[at]] = 0;
		}
		for (at = graph->offset[sw]; at < graph->offset[sw + 1]; at++) {
			ok &= count[model_of[graph->neighbour[at]]] == 0;
			count[model_of[graph->neighbour[at]]] = 0;
		}
	}
	return ok;
}

/* With every colour single: is the pairing by colour an isomorphism? */
static int is_isomorphism(const struct match *m, uint32_t *model_of)
{
	uint32_t sw;

	for (sw = 0; sw < m->n; sw++)
		m->model_of_colour[m->colour[sw + m->n]] = sw;
	for (sw = 0; sw < m->n; sw++)
		model_of[sw] = m->model_of_colour[m->colour[sw]];
	return keeps_links(m->graph, m->model, model_of, m->count);
}

/*
 * Try the candidates left at the innermost choice, in GUID order: 0 when
 * one keeps the colours balanced, 1 when none does, -1 past MATCH_TRIES.
 */
static int try_next(struct match *m)
{
	struct level *l = &m->levels[m->depth - 1];
	uint32_t target = l->saved[m->n + l->position];

	while (l->next < m->n) {
		uint32_t sw = m->by_guid[l->next++];

		if (l->saved[sw] != target)
			continue;
		if (++m->tries > MATCH_TRIES)
			return -1;
		memcpy(m->colour, l->saved, 2 * m->n * sizeof(uint32_t));
		m->colours = l->saved_colours;
		m->colour[sw] = m->colour[m->n + l->position] = m->colours++;
		if (!refine(m))
			return 0;
	}
	return 1;
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The neighbours of a vertex, sorted (model switches as such). */
static uint32_t neighbours(const struct match *m, uint32_t vertex, uint32_t *out)
{
	const struct vlr_switch_graph *g = vertex < m->n ? m->graph : m->model;
	uint32_t sw = vertex < m->n ? vertex : vertex - m->n, at, count = 0;

	for (at = g->offset[sw]; at < g->offset[sw + 1]; at++)
		out[count++] = g->neighbour[at];
	qsort(out, count, sizeof(uint32_t), compare_u32);
	return count;
}

/* Do the vertices share one neighbourhood (multiset), so that any two may swap? */
static int twins(const struct match *m, const uint32_t *vertex, uint32_t count)
{
	uint32_t first[VLR_MAX_NODE_PORTS + 1], other[VLR_MAX_NODE_PORTS + 1], i, degree;

	degree = neighbours(m, vertex[0], first);
	for (i = 1; i < count; i++)
		if (neighbours(m, vertex[i], other) != degree ||
		    memcmp(first, other, degree * sizeof(uint32_t)))
			return 0;
	return 1;
}

/*
 * When the switches of position's colour are twins in both graphs (the
 * leaves of a Dragonfly+ group), any matching of them is as good as any
 * other: pair the model's in order with the fabric's by GUID, which is the
 * least, each pair a colour of its own. Twins' neighbours see every twin
 * alike, so nothing else splits. Returns 1 when done, 0 if not twins.
 */
static int match_twins(struct match *m, uint32_t position)
{
	uint32_t target = m->colour[m->n + position], count = 0, i;
	uint32_t *fabric = m->twins, *model = m->twins + m->n;

	for (i = 0; i < m->n; i++)
		if (m->colour[m->by_guid[i]] == target)
			fabric[count++] = m->by_guid[i];
	for (count = 0, i = position; i < m->n; i++)
		if (m->colour[m->n + i] == target)
			model[count++] = m->n + i;
	if (!twins(m, fabric, count) || !twins(m, model, count))
		return 0;
	m->model_size[target] = 0;
	for (i = 0; i < count; i++) {
		m->model_size[m->colours] = 1;
		m->colour[fabric[i]] = m->colour[model[i]] = m->colours++;
	}
	return 1;
}

/* A new innermost choice at position; -1 past MATCH_LEVELS, -2 without memory. */
static int choose(struct match *m, uint32_t position)
{
	struct level *l;

	if (m->depth == MATCH_LEVELS)
		return -1;
	l = &m->levels[m->depth];
	if (!l->saved)
		l->saved = malloc(2 * (m->n + 1ull) * sizeof(uint32_t));
	if (!l->saved)
		return -2;
	memcpy(l->saved, m->colour, 2 * m->n * sizeof(uint32_t));
	l->saved_colours = m->colours;
	l->position = position;
	l->next = 0;
	m->depth++;
	return 0;
}

/* The next candidate of the innermost choice that has one: as try_next. */
static int backtrack(struct match *m)
{
	int tried;

	for (; m->depth; m->depth--)
		if ((tried = try_next(m)) <= 0)
			return tried;
	return 1;
}

/* 0 with model_of filled, 1 when there is none or the search gives up, -2. */
static int search(struct match *m, uint32_t *model_of)
{
	uint32_t position = 0;
	int step;

	if (refine(m))
		return 1;
	for (;;) {
		while (position < m->n && m->model_size[m->colour[m->n + position]] == 1)
			position++;
		if (position == m->n)
			step = is_isomorphism(m, model_of) ? 2 : backtrack(m);
		else if (match_twins(m, position))
			continue;
		else if ((step = choose(m, position)) == 0 && (step = try_next(m)) == 1)
			step = backtrack(m);
		if (step == 2)
			return 0;
		if (step)
			return step == -2 ? -2 : 1;
		position = m->levels[m->depth - 1].position + 1;
	}
}

static void free_match(struct match *m)
{
	unsigned i;

	for (i = 0; i < MATCH_LEVELS; i++)
		free(m->levels[i].saved);
	free(m->colour);
	free(m->balance);
	free(m->model_size);
	free(m->model_of_colour);
	free(m->count);
	free(m->twins);
	free(m->signatures);
}

int topo_match_least(const struct vlr_switch_graph *graph, const struct vlr_switch_graph *model,
		     const uint32_t *by_guid, const uint8_t *kind, const uint8_t *model_kind,
		     uint32_t *model_of, struct vlr_error *err)
{
	uint64_t vertices = 2ull * graph->num_switches;
	struct match m;
	uint32_t sw;
	int result = 1;

	if (model->num_switches != graph->num_switches || model->num_links != graph->num_links)
		return 1;
	memset(&m, 0, sizeof(m));
	m.graph = graph;
	m.model = model;
	m.n = graph->num_switches;
	m.by_guid = by_guid;
	m.colour = malloc((vertices + 1) * sizeof(*m.colour));
	m.balance = malloc((vertices + 1) * sizeof(*m.balance));
	m.model_size = malloc((vertices + 1) * sizeof(*m.model_size));
	m.model_of_colour = malloc((vertices + 1) * sizeof(*m.model_of_colour));
	m.count = calloc(m.n + 1ull, sizeof(*m.count));
	m.twins = malloc((vertices + 1) * sizeof(*m.twins));
	m.signatures = malloc((vertices + 1) * sizeof(*m.signatures));
	if (m.colour && m.balance && m.model_size && m.model_of_colour && m.count &&
	    m.twins && m.signatures) {
		for (sw = 0; sw < m.n; sw++) {
			m.colour[sw] = kind[sw];
			m.colour[m.n + sw] = model_kind[sw];
		}
		result = search(&m, model_of);
	} else {
		result = -2;
	}
	free_match(&m);
	if (result == -2)
		return vlr_fail(err, "out of memory for matching %u switches", m.n);
	return result;
}

int topo_match_in_order(const struct vlr_switch_graph *graph, const struct vlr_switch_graph *model,
			const uint32_t *by_guid, const uint8_t *kind, const uint8_t *model_kind,
			uint32_t *model_of, struct vlr_error *err)
{
	int32_t *count;
	uint32_t i;
	int ok;

	if (model->num_switches != graph->num_switches || model->num_links != graph->num_links)
		return 1;
	for (i = 0; i < graph->num_switches; i++) {
		if (kind[by_guid[i]] != model_kind[i])
			return 1;
		model_of[by_guid[i]] = i;
	}
	count = calloc(graph->num_switches + 1ull, sizeof(*count));
	if (!count)
		return vlr_fail(err, "out of memory for matching %u switches",
				graph->num_switches);
	ok = keeps_links(graph, model, model_of, count);
	free(count);
	return ok ? 0 : 1;
}
