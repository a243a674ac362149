/*
 * jobs.h - running a few jobs at once on threads (internal).
 *
 * The parts that spread their work over threads (analyze, verify, the
 * layering's set-up) cut it into jobs whose results they merge in a fixed
 * order, so the thread count changes only the speed; this starts and joins
 * the threads, and says how many a caller that left it open gets.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_JOBS_H
#define VLROUTE_JOBS_H

#include <stddef.h>

/*
 * Run fn on each of count jobs, job_size bytes apart from jobs on: the
 * first in the caller, the others on threads of their own, or in the
 * caller after the first where a thread cannot be started.
 */
void vlr_run_jobs(void *(*fn)(void *), void *jobs, size_t job_size, unsigned count);

/* threads if not 0, else one per online CPU (at least one). */
unsigned vlr_threads_or_cpus(unsigned threads);

#endif
