/*
 * sim_wheel.c - the timing wheel of sim_wheel.h: its arrays (the words of
 * each group laid out from its items) and advancing it a cycle, or
 * several, at a time.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "sim_wheel.h"

/* Words of the bitmaps of the groups: each group's items from a new word. */
static uint32_t count_words(uint32_t groups, const uint32_t *first)
{
	uint32_t g, words = 0;

	for (g = 0; g < groups; g++)
		words += (first[g + 1] - first[g] + 63) / 64;
	return words ? words : 1;
}

/* Each group's first word, and each item's word and bit (and no cycle). */
static void lay_out(struct sim_wheel *w, uint32_t groups, const uint32_t *first)
{
	uint32_t g, item, word = 0;

	for (g = 0; g < groups; g++) {
		w->first_word[g] = word;
		for (item = first[g]; item < first[g + 1]; item++) {
			*sim_wheel_time(w, item) = UINT64_MAX;
			w->place[item] = (word + (item - first[g]) / 64) << SIM_WHEEL_BIT_BITS |
					 (item - first[g]) % 64;
		}
		word += (first[g + 1] - first[g] + 63) / 64;
	}
	w->first_word[groups] = word;
}

int sim_wheel_init(struct sim_wheel *w, uint32_t groups, const uint32_t *first,
		   void *times, size_t stride)
{
	size_t items = first[groups] ? first[groups] : 1;

	memset(w, 0, sizeof(*w));
	w->words = count_words(groups, first);
	if (!times) {
		w->own_times = malloc(items * sizeof(*w->own_times));
		times = w->own_times;
		stride = sizeof(*w->own_times);
	}
	w->times = times;
	w->stride = stride;
	w->place = malloc(items * sizeof(*w->place));
	w->first_word = malloc(((size_t)groups + 1) * sizeof(*w->first_word));
	w->due = calloc(w->words, sizeof(*w->due));
	w->slots = calloc((size_t)SIM_WHEEL_SLOTS * w->words, sizeof(*w->slots));
	if (!w->times || !w->place || !w->first_word || !w->due || !w->slots) {
		sim_wheel_free(w);
		return -1;
	}
	lay_out(w, groups, first);
	return 0;
}

void sim_wheel_free(struct sim_wheel *w)
{
	free(w->own_times);
	free(w->place);
	free(w->first_word);
	free(w->due);
	free(w->slots);
	memset(w, 0, sizeof(*w));
}

uint64_t sim_wheel_bytes(uint32_t groups, const uint32_t *first, int own_times)
{
	return (uint64_t)first[groups] * (sizeof(uint32_t) + (own_times ? sizeof(uint64_t) : 0)) +
	       ((uint64_t)groups + 1) * sizeof(uint32_t) +
	       (SIM_WHEEL_SLOTS + 1) * (uint64_t)count_words(groups, first) * sizeof(uint64_t);
}

/* The bits of slot into the due bitmap, the slot emptied. */
static void merge_slot(struct sim_wheel *w, uint32_t slot)
{
	uint64_t *bits = w->slots + (size_t)slot * w->words;
	uint32_t i;

	for (i = 0; i < w->words; i++) {
		w->due[i] |= bits[i];
		bits[i] = 0;
	}
}

void sim_wheel_advance(struct sim_wheel *w, uint64_t cycle)
{
	uint64_t c, from = w->now + 1;

	if (cycle <= w->now)
		return;
	if (cycle - w->now > SIM_WHEEL_SLOTS)
		from = cycle - SIM_WHEEL_SLOTS + 1;
	for (c = from; c <= cycle; c++)
		merge_slot(w, (uint32_t)(c % SIM_WHEEL_SLOTS));
	w->now = cycle;
}
