/*
 * test_sim_wheel.c - unit tests of the simulator's timing wheel
 * (lib/sim/sim_wheel.c): a visit of a group finds exactly the items whose
 * cycle has come, in increasing order, as a scan of the group would,
 * whatever their cycles (now, next cycle, a turn of the wheel or more
 * ahead, none), however often they are set or brought forward, and
 * whether the wheel advances every cycle or catches up after a gap; and
 * whether it keeps the items' cycles itself or in records of their owner.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "sim/sim_wheel.h"

#define GROUPS 6
#define CYCLES 4000

/* Groups of 3, 64, 65, 0, 130 and 1 items: words filled, split and empty. */
static const uint32_t first[GROUPS + 1] = { 0, 3, 67, 132, 132, 262, 263 };

/* A deterministic stream of numbers below n. */
static uint32_t draw(uint64_t *seed, uint32_t n)
{
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*seed >> 33) % n;
}

/* A cycle for an item at now: none, a past one, now, soon, or turns ahead. */
static uint64_t some_cycle(uint64_t *seed, uint64_t now)
{
	switch (draw(seed, 6)) {
	case 0:
		return UINT64_MAX;
	case 1:
		return now - (now ? draw(seed, (uint32_t)(now < 5 ? now : 5)) : 0);
	case 2:
		return now + 1;
	case 3:
		return now + 1 + draw(seed, 3 * SIM_WHEEL_SLOTS);
	default:
		return now + 1 + draw(seed, 20);
	}
}

/* Visit group g at now: the due items in order must be those of a scan. */
static void visit(struct sim_wheel *w, uint64_t *times, uint32_t g, uint64_t now,
		  uint64_t *seed)
{
	uint32_t expected[300], got[300], n_expected = 0, n_got = 0, item, word, base, k;
	uint64_t bits;

	for (item = first[g]; item < first[g + 1]; item++)
		if (times[item] <= now)
			expected[n_expected++] = item;
	base = first[g];
	for (word = w->first_word[g]; word < w->first_word[g + 1]; word++, base += 64)
		for (bits = sim_wheel_take(w, word); bits; bits &= bits - 1) {
			item = base + (uint32_t)__builtin_ctzll(bits);
			if (sim_wheel_due(w, item))
				got[n_got++] = item;
		}
	assert_int_equal(n_got, n_expected);
	for (k = 0; k < n_got; k++)
		assert_int_equal(got[k], expected[k]);
	for (k = 0; k < n_got; k++) {
		times[got[k]] = some_cycle(seed, now);
		sim_wheel_set(w, got[k], times[got[k]]);
	}
}

/* Bring a few items forward between visits, as arrivals and credits do. */
static void lower_some(struct sim_wheel *w, uint64_t *times, uint64_t now, uint64_t *seed)
{
	uint32_t k, item;
	uint64_t t;

	for (k = 0; k < 4; k++) {
		item = draw(seed, first[GROUPS]);
		t = some_cycle(seed, now);
		sim_wheel_lower(w, item, t);
		if (t < times[item])
			times[item] = t;
	}
}

/* An owner's record of an item, its cycle among other fields (struct sim_port's way). */
struct record {
	uint64_t before;
	uint64_t wake;
	uint32_t after[3];
};

/* The owner's records hold the cycles the wheel was given, and nothing else moved. */
static void check_records(const struct record *records, const uint64_t *times)
{
	uint32_t item;

	for (item = 0; item < first[GROUPS]; item++) {
		assert_true(records[item].wake == times[item]);
		assert_true(records[item].before == item);
		assert_int_equal(records[item].after[0], item + 1000);
		assert_int_equal(records[item].after[1], item + 2000);
		assert_int_equal(records[item].after[2], item + 3000);
	}
}

/*
 * Cycles in a row, with gaps (no advance, no visit) of up to two turns;
 * the cycles in the wheel, or in records (then checked against the model).
 */
static void run(int gaps, struct record *records)
{
	struct sim_wheel w;
	uint64_t times[300], seed = 7, now = 0;
	uint32_t g;

	for (g = 0; records && g < first[GROUPS]; g++) {
		memset(&records[g], 0, sizeof(records[g]));
		records[g].before = g;
		records[g].after[0] = g + 1000;
		records[g].after[1] = g + 2000;
		records[g].after[2] = g + 3000;
	}
	assert_int_equal(sim_wheel_init(&w, GROUPS, first, records ? &records[0].wake : NULL,
					sizeof(*records)), 0);
	memset(times, 0xff, sizeof(times));
	if (records)
		check_records(records, times);	/* every item starts with no cycle */
	for (g = 0; g < first[GROUPS]; g++) {
		times[g] = draw(&seed, 2) ? 0 : UINT64_MAX;
		sim_wheel_set(&w, g, times[g]);
	}
	while (now < CYCLES) {
		sim_wheel_advance(&w, now);
		for (g = 0; g < GROUPS; g++)
			if (draw(&seed, 3))
				visit(&w, times, g, now, &seed);
		lower_some(&w, times, now, &seed);
		now += gaps && !draw(&seed, 8) ? 1 + draw(&seed, 2 * SIM_WHEEL_SLOTS) : 1;
		if (records)
			check_records(records, times);
	}
	sim_wheel_free(&w);
}

static void test_every_cycle(void **state)
{
	(void)state;
	run(0, NULL);
}

static void test_with_gaps(void **state)
{
	(void)state;
	run(1, NULL);
}

static void test_cycles_in_records(void **state)
{
	struct record records[300];

	(void)state;
	run(0, records);
	run(1, records);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_cycle),
		cmocka_unit_test(test_with_gaps),
		cmocka_unit_test(test_cycles_in_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
