/*
 * sim_wheel.h - a timing wheel of the cycles at which items (a run's
 * ports) next act, so that a cycle visits the ports due in it instead of
 * scanning every port of every busy switch for the few that are.
 *
 * The items come in groups (a switch's ports), each group's items in
 * 64-bit words of bitmaps. Each item has one cycle (UINT64_MAX: none); a
 * bit of it waits in the slot of that cycle modulo the wheel's slots.
 * Advancing to a cycle moves its slot's bits into the due bitmap, where
 * they stay until their group is visited: so a group finds its due items
 * in increasing order, as a scan of them would, and an item due while its
 * group is not visited stays due until it is.
 *
 * Bits are never taken out of a slot: an item whose cycle is set again
 * leaves a stale bit behind, and a visit takes a bit's item as due only if
 * its cycle has come (sim_wheel_due), putting it back otherwise; so does a
 * cycle a turn or more ahead, whose slot comes round before it. A set
 * costs one bit, and a visit a word per 64 items.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_SIM_WHEEL_H
#define VLROUTE_SIM_WHEEL_H

#include <stddef.h>
#include <stdint.h>

#define SIM_WHEEL_SLOTS 64	/* a power of two */
#define SIM_WHEEL_BIT_BITS 6	/* an item's bit in its word: 0..63 */

/*
 * Each item's cycle is a uint64_t that its owner may keep in a record of
 * its own (a switch port's, read with it: struct sim_port), stride bytes
 * apart, or that the wheel keeps itself; where its bit goes is the
 * wheel's.
 */
struct sim_wheel {
	unsigned char *times;	/* item i's cycle at times + i * stride;
				   UINT64_MAX: none */
	size_t stride;
	uint64_t *own_times;	/* the cycles, if the wheel keeps them */
	uint32_t *place;	/* [item]: its word in the bitmaps, and
				   above SIM_WHEEL_BIT_BITS its bit there
				   (its place in its group, modulo 64) */
	uint32_t *first_word;	/* [group]: its first word; groups + 1 */
	uint64_t *due;		/* [word]: items due, or set since (stale) */
	uint64_t *slots;	/* [slot * words + word]: items due then */
	uint32_t words;
	uint64_t now;		/* the last cycle advanced to */
};

/* sim_wheel.c */
/*
 * A wheel of the items 0 .. first[groups] - 1, group g holding first[g] ..
 * first[g + 1] - 1, each with no cycle; their cycles at times, stride
 * bytes apart (a multiple of 8, times aligned to 8), or, if times is NULL,
 * kept by the wheel. -1 if out of memory.
 */
int sim_wheel_init(struct sim_wheel *w, uint32_t groups, const uint32_t *first,
		   void *times, size_t stride);
void sim_wheel_free(struct sim_wheel *w);
/* Bytes the wheel of those groups takes (vlr_sim_run_bytes), its items'
   cycles too if own_times is set. */
uint64_t sim_wheel_bytes(uint32_t groups, const uint32_t *first, int own_times);
/* Move the bits of the cycles up to cycle into the due bitmap. */
void sim_wheel_advance(struct sim_wheel *w, uint64_t cycle);

/* Item's cycle. */
static inline uint64_t *sim_wheel_time(const struct sim_wheel *w, uint32_t item)
{
	return (uint64_t *)(void *)(w->times + (size_t)item * w->stride);
}

/* Put item's bit in the slot of its cycle, or among the due if that has come. */
static inline void sim_wheel_insert(struct sim_wheel *w, uint32_t item)
{
	uint64_t t = *sim_wheel_time(w, item);
	uint32_t place = w->place[item], word = place >> SIM_WHEEL_BIT_BITS;
	uint64_t bit = 1ull << (place & ((1u << SIM_WHEEL_BIT_BITS) - 1));

	if (t <= w->now)
		w->due[word] |= bit;
	else if (t != UINT64_MAX)
		w->slots[t % SIM_WHEEL_SLOTS * w->words + word] |= bit;
}

/* Set item's cycle to time (UINT64_MAX: none). */
static inline void sim_wheel_set(struct sim_wheel *w, uint32_t item, uint64_t time)
{
	*sim_wheel_time(w, item) = time;
	sim_wheel_insert(w, item);
}

/* Bring item's cycle forward to time, if that is earlier. */
static inline void sim_wheel_lower(struct sim_wheel *w, uint32_t item, uint64_t time)
{
	if (time < *sim_wheel_time(w, item))
		sim_wheel_set(w, item, time);
}

/* The due bits of word (of a group, in order), taken out of the due bitmap. */
static inline uint64_t sim_wheel_take(struct sim_wheel *w, uint32_t word)
{
	uint64_t bits = w->due[word];

	w->due[word] = 0;
	return bits;
}

/*
 * Whether the item of a bit taken is due (its cycle has come); if not, its
 * bit goes back to wait for its cycle.
 */
static inline int sim_wheel_due(struct sim_wheel *w, uint32_t item)
{
	if (*sim_wheel_time(w, item) <= w->now)
		return 1;
	sim_wheel_insert(w, item);
	return 0;
}

#endif
