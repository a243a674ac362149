/*
 * jobs.c - running a few jobs at once on threads (see jobs.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "jobs.h"

void vlr_run_jobs(void *(*fn)(void *), void *jobs, size_t job_size, unsigned count)
{
	pthread_t *ids = calloc(count, sizeof(pthread_t));
	char *started = calloc(count, 1);
	unsigned i;

	for (i = 1; ids && started && i < count; i++)
		started[i] = !pthread_create(&ids[i], NULL, fn, (char *)jobs + i * job_size);
	if (count)
		fn(jobs);
	for (i = 1; i < count; i++) {
		if (ids && started && started[i])
			pthread_join(ids[i], NULL);
		else
			fn((char *)jobs + i * job_size);
	}
	free(ids);
	free(started);
}

unsigned vlr_threads_or_cpus(unsigned threads)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (threads)
		return threads;
	return cpus > 0 ? (unsigned)cpus : 1;
}
