/*
 * test_sim_credit.c - unit test of the simulator's credit word
 * (lib/sim/sim_internal.h): a credit made of a cycle and a VL gives both
 * back, for every data VL and for cycles from 0 to the largest a run may
 * reach, so that packing them into one word loses no VL to the cycle.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "test_util.h"
#include "sim/sim_internal.h"

/* Every data VL and a spread of cycles round-trip through a credit. */
static void test_round_trip(void **state)
{
	static const uint64_t cycles[] = { 0, 1, 7, 8, 15, 16, 12345, 1ull << 40,
					   (1ull << (64 - SIM_CREDIT_VL_BITS)) - 1 };
	unsigned vl, i;
	sim_credit credit;

	(void)state;
	for (vl = 0; vl < VLR_MAX_DATA_VLS; vl++)
		for (i = 0; i < sizeof(cycles) / sizeof(cycles[0]); i++) {
			credit = sim_credit_make(cycles[i], vl);
			assert_int_equal(sim_credit_time(credit), cycles[i]);
			assert_int_equal(sim_credit_vl(credit), vl);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
