/*
 * clock.c - the one monotonic clock behind every "seconds" figure the
 * library, the CLI and the plugin report, and behind the capture's
 * deadlines.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <time.h>

#include <vlroute/util.h>

uint64_t vlr_clock_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

double vlr_clock_seconds(void)
{
	return (double)vlr_clock_ns() / 1e9;
}
