/*
 * analyze_run.c - spreading the analysis over threads without changing
 * its results.
 *
 * One instance (all-to-all): the servers (sources for route walks,
 * destinations for in-trees) are cut into fixed chunks that threads claim
 * in turn. In pass 1 each thread adds into its own load
 * array, summed afterwards (integers: any order gives the same sum); in
 * pass 2 each chunk keeps its own tally, merged in chunk order. Many
 * instances (random patterns): threads claim whole instances, each tally
 * kept by instance index. Either way the thread count changes only the
 * speed. Every thread works in its own job, scratch memory and tally
 * copy, so no two threads write to one cache line.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"
#include "util/jobs.h"

#define CHUNK 64		/* sources per chunk of one instance */
#define CACHE_LINE 64		/* threads' jobs never share one */

/* count jobs of size bytes each, zeroed, each on its own cache lines. */
static void *alloc_jobs(unsigned count, size_t size)
{
	void *jobs = aligned_alloc(CACHE_LINE, count * size);

	if (jobs)
		memset(jobs, 0, count * size);
	return jobs;
}

int analyze_scratch_init(const struct vlr_analysis *a, struct analyze_scratch *x,
			 struct vlr_error *err)
{
	size_t words = a->tables->num_switches + 2;

	memset(x, 0, sizeof(*x));
	x->path = malloc(sizeof(uint32_t) * words);
	x->stamp = calloc(words, sizeof(uint32_t));
	x->dist = malloc(sizeof(uint32_t) * words);
	x->out = malloc(sizeof(uint32_t) * words);
	x->flow = malloc(sizeof(uint32_t) * words);
	x->most = malloc(sizeof(uint64_t) * words);
	x->stack = malloc(sizeof(uint32_t) * words);
	x->touched = malloc(sizeof(uint32_t) * words);
	x->order = malloc(sizeof(uint32_t) * words);
	x->bucket = calloc(words, sizeof(uint32_t));
	x->pair_bandwidth = calloc(a->servers.count + 1, sizeof(double));
	if (!x->path || !x->stamp || !x->dist || !x->out || !x->flow || !x->most ||
	    !x->stack || !x->touched || !x->order || !x->bucket || !x->pair_bandwidth)
		return vlr_fail(err, "out of memory for the analysis of %u switches",
				a->tables->num_switches);
	return 0;
}

void analyze_scratch_free(struct analyze_scratch *x)
{
	free(x->path);
	free(x->routes);
	free(x->stamp);
	free(x->dist);
	free(x->out);
	free(x->flow);
	free(x->most);
	free(x->stack);
	free(x->touched);
	free(x->order);
	free(x->bucket);
	free(x->pair_bandwidth);
}

static unsigned claim(unsigned *next)
{
	return __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
}

struct one_job {
	const struct vlr_analysis *a;
	const struct analyze_instance *instance;
	analyze_add_pass add;
	analyze_rate_pass rate;
	uint64_t *load;			/* pass 1: the thread's own; pass 2: the sum */
	struct analyze_scratch scratch;
	struct analyze_tally *chunk_tally;
	unsigned chunks;
	unsigned *next;
	int pass;
} __attribute__((aligned(CACHE_LINE)));

static void *one_worker(void *arg)
{
	struct one_job *job = arg;
	uint32_t servers = job->a->servers.count;
	unsigned c;

	while ((c = claim(job->next)) < job->chunks) {
		uint32_t first = c * CHUNK;
		uint32_t last = first + CHUNK < servers ? first + CHUNK : servers;
		struct analyze_tally tally = job->chunk_tally[c];	/* no false sharing */

		if (job->pass == 1)
			job->add(job->a, job->instance, first, last, job->load, &job->scratch,
				 &tally);
		else
			job->rate(job->a, job->instance, first, last, job->load, &job->scratch,
				  &tally);
		job->chunk_tally[c] = tally;
	}
	return NULL;
}

static unsigned thread_count(const struct vlr_analysis *a, unsigned work)
{
	return a->threads < work ? a->threads : work ? work : 1;
}

/* Both passes; jobs[0] adds into load, the others into their own arrays. */
static void run_passes(struct one_job *jobs, unsigned threads, uint64_t *load,
		       uint32_t ports)
{
	unsigned i, next = 0;
	uint32_t p;

	for (i = 0; i < threads; i++) {
		jobs[i].next = &next;
		jobs[i].pass = 1;
	}
	vlr_run_jobs(one_worker, jobs, sizeof(*jobs), threads);
	for (i = 1; i < threads; i++) {
		for (p = 0; p < ports; p++)
			load[p] += jobs[i].load[p];
		free(jobs[i].load);
	}
	next = 0;
	for (i = 0; i < threads; i++) {
		jobs[i].load = load;
		jobs[i].pass = 2;
	}
	vlr_run_jobs(one_worker, jobs, sizeof(*jobs), threads);
}

static int alloc_one_jobs(const struct vlr_analysis *a, struct one_job *jobs,
			  unsigned threads, uint64_t *load, struct vlr_error *err)
{
	uint32_t ports = a->tables->fabric->num_ports;
	unsigned i;

	for (i = 0; i < threads; i++) {
		jobs[i].load = i ? calloc(ports + 1, sizeof(uint64_t)) : load;
		if (!jobs[i].load)
			return vlr_fail(err, "out of memory for %u analysis threads", threads);
		if (analyze_scratch_init(a, &jobs[i].scratch, err))
			return -1;
	}
	return 0;
}

int analyze_run_one(const struct vlr_analysis *a, const struct analyze_instance *instance,
		    analyze_add_pass add, analyze_rate_pass rate, uint64_t *load,
		    struct analyze_tally *tally, struct vlr_error *err)
{
	unsigned chunks = (a->servers.count + CHUNK - 1) / CHUNK;
	unsigned threads = thread_count(a, chunks), i;
	struct one_job *jobs = alloc_jobs(threads, sizeof(*jobs));
	struct analyze_tally *chunk_tally = calloc(chunks + 1, sizeof(*chunk_tally));
	int result = jobs && chunk_tally ? 0 :
		     vlr_fail(err, "out of memory for %u analysis threads", threads);

	for (i = 0; i < chunks && !result; i++)
		analyze_tally_init(&chunk_tally[i]);
	for (i = 0; i < threads && !result; i++) {
		jobs[i].a = a;
		jobs[i].instance = instance;
		jobs[i].add = add;
		jobs[i].rate = rate;
		jobs[i].chunk_tally = chunk_tally;
		jobs[i].chunks = chunks;
	}
	if (!result)
		result = alloc_one_jobs(a, jobs, threads, load, err);
	if (!result)
		run_passes(jobs, threads, load, a->tables->fabric->num_ports);
	analyze_tally_init(tally);
	for (i = 0; i < chunks && !result; i++)
		analyze_tally_merge(tally, &chunk_tally[i]);
	for (i = 0; jobs && i < threads; i++) {
		if (jobs[i].load != load)
			free(jobs[i].load);
		analyze_scratch_free(&jobs[i].scratch);
	}
	free(jobs);
	free(chunk_tally);
	return result;
}

struct many_job {
	const struct vlr_analysis *a;
	analyze_make_instance make;
	void *context;
	struct analyze_tally *tallies;
	unsigned count;
	unsigned *next;
	uint64_t *load;
	struct analyze_scratch scratch;
	uint32_t *dest;
	unsigned failed;		/* first instance whose making failed, or count */
	struct vlr_error err;
} __attribute__((aligned(CACHE_LINE)));

static int run_instance(struct many_job *job, unsigned index, uint64_t salt)
{
	const struct vlr_analysis *a = job->a;
	struct analyze_instance instance = { job->dest, a->dlid_choice, salt };
	struct analyze_tally tally;	/* here, not beside other threads' tallies */

	memset(job->load, 0, sizeof(uint64_t) * a->tables->fabric->num_ports);
	analyze_tally_init(&tally);
	if (analyze_instance_routes(a, &instance, job->load, &job->scratch, &tally,
				    &job->err))
		return -1;
	job->tallies[index] = tally;
	return 0;
}

static void *many_worker(void *arg)
{
	struct many_job *job = arg;
	unsigned i;

	while ((i = claim(job->next)) < job->count) {
		uint64_t salt = 0;

		if (job->make(job->context, i, job->dest, &salt, &job->err) ||
		    run_instance(job, i, salt)) {
			job->failed = i;	/* this thread's lowest: it claims upward */
			break;
		}
	}
	return NULL;
}

static int alloc_many_jobs(const struct vlr_analysis *a, struct many_job *jobs,
			   unsigned threads, struct vlr_error *err)
{
	uint32_t ports = a->tables->fabric->num_ports;
	unsigned i;

	for (i = 0; i < threads; i++) {
		jobs[i].load = calloc(ports + 1, sizeof(uint64_t));
		jobs[i].dest = malloc(sizeof(uint32_t) * (a->servers.count + 1));
		if (!jobs[i].load || !jobs[i].dest)
			return vlr_fail(err, "out of memory for %u analysis threads", threads);
		if (analyze_scratch_init(a, &jobs[i].scratch, err))
			return -1;
	}
	return 0;
}

/* The error of the lowest failed instance, as one thread count or another would. */
static int first_failure(const struct many_job *jobs, unsigned threads,
			 struct vlr_error *err)
{
	unsigned i, worst = 0;

	for (i = 1; i < threads; i++)
		if (jobs[i].failed < jobs[worst].failed)
			worst = i;
	if (jobs[worst].failed == jobs[worst].count)
		return 0;
	if (err)
		*err = jobs[worst].err;
	return -1;
}

int analyze_run_many(const struct vlr_analysis *a, unsigned count,
		     analyze_make_instance make, void *context,
		     struct analyze_tally *tallies, struct vlr_error *err)
{
	unsigned threads = thread_count(a, count), i, next = 0;
	struct many_job *jobs = alloc_jobs(threads, sizeof(*jobs));
	int result = jobs ? alloc_many_jobs(a, jobs, threads, err) :
		     vlr_fail(err, "out of memory for %u analysis threads", threads);

	for (i = 0; i < threads && !result; i++) {
		jobs[i].a = a;
		jobs[i].make = make;
		jobs[i].context = context;
		jobs[i].tallies = tallies;
		jobs[i].count = count;
		jobs[i].failed = count;
		jobs[i].next = &next;
	}
	if (!result) {
		vlr_run_jobs(many_worker, jobs, sizeof(*jobs), threads);
		result = first_failure(jobs, threads, err);
	}
	for (i = 0; jobs && i < threads; i++) {
		free(jobs[i].load);
		analyze_scratch_free(&jobs[i].scratch);
		free(jobs[i].dest);
	}
	free(jobs);
	return result;
}
