/*
 * sim_run.c - the cycle loop of one run, and many runs (offered loads x
 * seeds) spread over threads.
 *
 * Each cycle: Piggyback's switches mark their saturated global links
 * (sim_piggyback.c), servers generate and inject, every busy switch moves packets
 * from output buffers onto links, then allocates its crossbar. A packet
 * moved in cycle t is never moved again before t + 1, so the order in which
 * switches are visited does not matter and a run is deterministic.
 *
 * A caller's cancellation flag is polled every 1024 cycles of each run and
 * before each run starts: the runs then stop where they are and are left
 * out, and no new one starts.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "allocator_internal.h"
#include "piggyback_internal.h"
#include "util/jobs.h"

#define PROGRESS_STEP 1024

static void cycle(struct sim_state *st)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t sw;

	if (st->pb)
		sim_pb_update(st);
	sim_servers(st);
	sim_wheel_advance(&st->links, st->now);
	for (sw = 0; sw < sim->num_switches; sw++)
		if (st->busy_packets[sw])
			sim_links(st, sw);
	for (sw = 0; sw < sim->num_switches; sw++)
		if (st->busy_packets[sw])
			st->allocator->allocate(st->allocator, st, sw);
}

/*
 * Past the measured cycles a drain stops generating: no new packet and no
 * trace message not yet begun (one due at cycle 2^62 - 1 must not keep the run
 * alive); a message already partly queued is queued whole. Then the run
 * ends when every packet has arrived.
 */
static void stop_generating(struct sim_state *st)
{
	uint32_t s;

	st->generating = 0;
	st->trace_pending = 0;
	if (st->config->trace)
		for (s = 0; s < st->sim->servers.count; s++)
			st->trace_pending += st->trace_left[s];
}

static int finished(struct sim_state *st)
{
	if (st->now < st->end)
		return 0;
	if (!st->config->drain)
		return 1;
	if (st->generating)
		stop_generating(st);
	return !st->in_fabric && !st->queued && !st->trace_pending;
}

static int deadlocked(struct sim_state *st, struct vlr_sim_result *r)
{
	if (!st->in_fabric || st->now <= st->last_move + st->config->deadlock_cycles)
		return 0;
	r->deadlock = 1;
	r->deadlock_cycle = st->now;
	sim_deadlock_report(st, r->deadlock_report, sizeof(r->deadlock_report));
	return 1;
}

/* The caller asked the runs to stop (vlr_sim_config.cancel). */
static int cancelled(const struct vlr_sim *sim)
{
	return sim->config.cancel && __atomic_load_n(sim->config.cancel, __ATOMIC_RELAXED);
}

/*
 * One run into r: 0 with r->completed 1 when it went to its end, or 0
 * with r->completed 0 (and only offered and seed set) when it was
 * cancelled; -1 when it failed.
 */
static int run(const struct vlr_sim *sim, double load, uint64_t seed,
	       struct vlr_sim_result *r, uint64_t *progress, struct vlr_error *err)
{
	struct sim_state st;
	double start = vlr_clock_seconds();
	int status = 0, stopped = 0;

	memset(r, 0, sizeof(*r));
	r->offered = load;
	r->seed = seed;
	if (sim_state_init(&st, sim, load, seed, err))
		return -1;
	st.result = r;
	st.progress = progress;
	for (st.now = 0; !finished(&st); st.now++) {
		cycle(&st);
		if (st.failed || deadlocked(&st, r))
			break;
		if (st.now % PROGRESS_STEP != PROGRESS_STEP - 1)
			continue;
		if (progress)
			__atomic_add_fetch(progress, PROGRESS_STEP, __ATOMIC_RELAXED);
		if ((stopped = cancelled(sim)) != 0)
			break;
	}
	r->cycles = st.now;
	if (!stopped && (st.failed || sim_stats_finish(&st, r)))
		status = -1;
	r->seconds = vlr_clock_seconds() - start;
	sim_state_free(&st);
	if (status || stopped) {
		vlr_sim_result_free(r);
		memset(r, 0, sizeof(*r));
		r->offered = load;
		r->seed = seed;
	}
	r->completed = !status && !stopped;
	return status;
}

int vlr_sim_run(const struct vlr_sim *sim, double load, uint64_t seed,
		struct vlr_sim_result *result, struct vlr_error *err)
{
	if (!(load >= 0 && load <= 1))
		return vlr_fail(err, "offered load %g is outside 0..1 phits per server per cycle",
				load);
	return run(sim, load, seed, result, NULL, err);
}

void vlr_sim_result_free(struct vlr_sim_result *result)
{
	free(result->bins);
	result->bins = NULL;
	result->num_bins = 0;
	free(result->switch_injected);
	result->switch_injected = NULL;
	result->num_switches = 0;
}

/* What the worker threads share. */
struct pool {
	const struct vlr_sim *sim;
	const double *loads;
	uint64_t first_seed;
	unsigned num_seeds;
	unsigned jobs;
	unsigned next_job;
	unsigned done;
	int failed;
	struct vlr_error err;
	struct vlr_sim_result *results;
	uint64_t cycles_done;
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static void *worker(void *arg)
{
	struct pool *pool = arg;
	struct vlr_error err;
	unsigned job;
	int status;

	for (;;) {
		pthread_mutex_lock(&pool->lock);
		job = pool->failed || cancelled(pool->sim) ? pool->jobs : pool->next_job++;
		pthread_mutex_unlock(&pool->lock);
		if (job >= pool->jobs)
			return NULL;
		status = run(pool->sim, pool->loads[job / pool->num_seeds],
			     pool->first_seed + job % pool->num_seeds, &pool->results[job],
			     &pool->cycles_done, &err);
		pthread_mutex_lock(&pool->lock);
		pool->done++;
		if (status && !pool->failed) {
			pool->failed = 1;
			pool->err = err;
		}
		pthread_cond_signal(&pool->changed);
		pthread_mutex_unlock(&pool->lock);
	}
}

static void wait_for_workers(struct pool *pool, vlr_sim_progress_fn progress, void *data,
			     uint64_t planned)
{
	struct vlr_sim_progress report;
	double start = vlr_clock_seconds();
	struct timespec deadline;

	pthread_mutex_lock(&pool->lock);
	while (pool->done < pool->jobs &&
	       !((pool->failed || cancelled(pool->sim)) && pool->done >= pool->next_job)) {
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += 1;
		pthread_cond_timedwait(&pool->changed, &pool->lock, &deadline);
		if (!progress)
			continue;
		report.runs_done = pool->done;
		report.runs = pool->jobs;
		report.cycles_done = __atomic_load_n(&pool->cycles_done, __ATOMIC_RELAXED);
		report.cycles = planned;
		report.seconds = vlr_clock_seconds() - start;
		pthread_mutex_unlock(&pool->lock);
		progress(&report, data);
		pthread_mutex_lock(&pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
}

static unsigned thread_count(unsigned threads, unsigned jobs)
{
	threads = vlr_threads_or_cpus(threads);
	return threads < jobs ? threads : jobs;
}

int vlr_sim_run_all(const struct vlr_sim *sim, const double *loads, unsigned num_loads,
		    uint64_t first_seed, unsigned num_seeds, unsigned threads,
		    struct vlr_sim_result *results, vlr_sim_progress_fn progress,
		    void *progress_data, struct vlr_error *err)
{
	struct pool pool;
	pthread_t *ids;
	unsigned i, started = 0, n;

	for (i = 0; i < num_loads; i++)
		if (!(loads[i] >= 0 && loads[i] <= 1))
			return vlr_fail(err, "offered load %g is outside 0..1 phits per server "
					"per cycle", loads[i]);
	memset(&pool, 0, sizeof(pool));
	memset(results, 0, (size_t)num_loads * num_seeds * sizeof(*results));
	for (i = 0; i < num_loads * num_seeds; i++) {
		results[i].offered = loads[i / num_seeds];
		results[i].seed = first_seed + i % num_seeds;
	}
	pool.sim = sim;
	pool.loads = loads;
	pool.first_seed = first_seed;
	pool.num_seeds = num_seeds;
	pool.jobs = num_loads * num_seeds;
	pool.results = results;
	n = thread_count(threads, pool.jobs);
	ids = calloc(n ? n : 1, sizeof(*ids));
	if (!ids)
		return vlr_fail(err, "out of memory for %u threads", n);
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.changed, NULL);
	for (i = 0; i < n; i++)
		if (!pthread_create(&ids[i], NULL, worker, &pool))
			started++;
		else
			break;
	if (!started)
		worker(&pool);
	wait_for_workers(&pool, progress, progress_data,
			 pool.jobs * (sim->config.warmup + sim->config.cycles));
	for (i = 0; i < started; i++)
		pthread_join(ids[i], NULL);
	pthread_mutex_destroy(&pool.lock);
	pthread_cond_destroy(&pool.changed);
	free(ids);
	if (pool.failed) {
		for (i = 0; i < pool.jobs; i++)
			vlr_sim_result_free(&results[i]);
		*err = pool.err;
		return -1;
	}
	return 0;
}
