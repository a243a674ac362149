/*
 * sim_stats.c - what a run measures: accepted load per time bin and over
 * the measured window, the latency histogram (average, p50, p99; and the
 * average of the packets routed by way of an intermediate and of the
 * others), hops,
 * per-switch injection and its fairness, and the stability class.
 *
 * Accepted load counts a packet's phits in the cycle its tail arrives.
 * Latency and hops count packets generated in the measured window. The
 * time bins cover the whole run from cycle 0, the warm-up too; those
 * that hold a warm-up cycle are its warm-up bins.
 *
 * Stability: over the complete time bins of the measured window (without
 * the first one when there is no warm-up), smooth each bin with its
 * neighbours (mean of up to three bins) and take the peak of the smoothed
 * series. A bin drops when its smoothed load is below (1 - drop) x peak by
 * more than chance explains (three standard deviations of its packet count,
 * which matters only on small fabrics at low load). No drop: class 1
 * (steady). Drops, but the mean of the last quarter of the bins is not
 * below (1 - drop) x peak (by the same allowance): class 2 (recovers).
 * Otherwise, and after a deadlock: class 3 (collapses).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

int sim_stats_init(struct sim_stats *stats, const struct sim_state *st)
{
	uint64_t bin = st->config->bin;

	memset(stats, 0, sizeof(*stats));
	stats->num_bins = (uint32_t)((st->end + bin - 1) / bin);
	stats->bin_phits = calloc(stats->num_bins ? stats->num_bins : 1,
				  sizeof(*stats->bin_phits));
	stats->latency_cap = 1024;
	stats->latency_hist = calloc(stats->latency_cap, sizeof(*stats->latency_hist));
	stats->switch_injected = calloc(st->sim->num_switches + 1,
					sizeof(*stats->switch_injected));
	return stats->bin_phits && stats->latency_hist && stats->switch_injected ? 0 : -1;
}

void sim_stats_free(struct sim_stats *stats)
{
	free(stats->bin_phits);
	free(stats->latency_hist);
	free(stats->switch_injected);
	memset(stats, 0, sizeof(*stats));
}

static int grow_histogram(struct sim_stats *stats, uint64_t latency)
{
	uint64_t cap = stats->latency_cap;
	uint64_t *hist;

	while (cap <= latency)
		cap *= 2;
	hist = realloc(stats->latency_hist, cap * sizeof(*hist));
	if (!hist)
		return -1;
	memset(hist + stats->latency_cap, 0, (cap - stats->latency_cap) * sizeof(*hist));
	stats->latency_hist = hist;
	stats->latency_cap = cap;
	return 0;
}

int sim_stats_delivered(struct sim_state *st, uint32_t packet, uint64_t tail)
{
	const struct sim_packet *p = &st->packets[packet];
	const struct sim_packet_life *life = &st->lives[packet];
	struct sim_stats *stats = &st->stats;
	unsigned phits = st->config->packet_phits;
	uint64_t latency = tail - life->created;

	st->result->delivered++;
	st->result->delivered_check += sim_serial_check(life->serial);
	if (tail < st->end)
		stats->bin_phits[tail / st->config->bin] += phits;
	if (tail >= st->config->warmup && tail < st->end)
		stats->window_phits += phits;
	if (!p->measured)
		return 0;
	if (latency >= stats->latency_cap && grow_histogram(stats, latency))
		return vlr_fail(st->err, "out of memory for the latency histogram");
	stats->latency_hist[latency]++;
	stats->latency_sum += latency;
	stats->hops_sum += p->hops;
	stats->measured++;
	if (p->route_class == VLR_ROUTE_VALIANT) {
		stats->nonminimal_latency_sum += latency;
		stats->nonminimal++;
	}
	return 0;
}

static uint64_t percentile(const struct sim_stats *stats, double fraction)
{
	uint64_t rank = (uint64_t)ceil(fraction * (double)stats->measured), seen = 0, i;

	if (!rank)
		rank = 1;
	for (i = 0; i < stats->latency_cap; i++) {
		seen += stats->latency_hist[i];
		if (seen >= rank)
			return i;
	}
	return 0;
}

static void latency_results(const struct sim_stats *stats, struct vlr_sim_result *r)
{
	uint64_t i;

	if (!stats->measured)
		return;
	r->latency_avg = (double)stats->latency_sum / (double)stats->measured;
	r->hops_avg = (double)stats->hops_sum / (double)stats->measured;
	r->latency_p50 = percentile(stats, 0.5);
	r->latency_p99 = percentile(stats, 0.99);
	for (i = stats->latency_cap; i > 0; i--)
		if (stats->latency_hist[i - 1]) {
			r->latency_max = i - 1;
			break;
		}
	r->measured_packets = stats->measured;
	r->nonminimal = (double)stats->nonminimal / (double)stats->measured;
	if (stats->nonminimal)
		r->latency_nonminimal_avg = (double)stats->nonminimal_latency_sum /
					    (double)stats->nonminimal;
	if (stats->nonminimal < stats->measured)
		r->latency_minimal_avg = (double)(stats->latency_sum -
						  stats->nonminimal_latency_sum) /
					 (double)(stats->measured - stats->nonminimal);
}

/* Each switch's injections into the result, for per-switch figures. */
static int switch_counts(const struct sim_state *st, struct vlr_sim_result *r)
{
	uint32_t n = st->sim->num_switches;

	r->switch_injected = malloc((n ? n : 1) * sizeof(*r->switch_injected));
	if (!r->switch_injected)
		return -1;
	r->num_switches = n;
	memcpy(r->switch_injected, st->stats.switch_injected, n * sizeof(*r->switch_injected));
	return 0;
}

/* The least, the most over the least and the CoV over the switches with servers. */
static void fairness(const struct sim_state *st, struct vlr_sim_result *r)
{
	const struct vlr_sim *sim = st->sim;
	double sum = 0, squares = 0, min = INFINITY, max = 0, mean;
	uint32_t sw, n = 0;

	for (sw = 0; sw < sim->num_switches; sw++) {
		double x = (double)st->stats.switch_injected[sw];

		if (!sim->servers.on_switch[sw])
			continue;
		n++;
		sum += x;
		squares += x * x;
		if (x < min)
			min = x;
		if (x > max)
			max = x;
	}
	if (!n)
		return;
	mean = sum / n;
	r->inject_min = min;
	r->inject_max_over_min = min > 0 ? max / min : INFINITY;
	r->inject_cv = mean > 0 ? sqrt(fmax(squares / n - mean * mean, 0)) / mean : 0;
}

/* Mean of bin i and its neighbours; *width says how many bins. */
static double smoothed(const double *bins, uint32_t count, uint32_t i, unsigned *width)
{
	uint32_t from = i ? i - 1 : 0, to = i + 1 < count ? i + 1 : i, j;
	double sum = 0;

	for (j = from; j <= to; j++)
		sum += bins[j];
	*width = to - from + 1;
	return sum / *width;
}

/*
 * packets: packets per bin at load 1, for the allowance for chance: a bin
 * drops only if it is also three standard deviations (of a count of
 * packets) below the line.
 */
static int classify(const double *bins, uint32_t count, double drop, double packets)
{
	double peak = 0, tail = 0, value, line;
	uint32_t i, tail_bins, low = 0;
	unsigned width;

	if (count < 2)
		return VLR_SIM_STEADY;
	for (i = 0; i < count; i++) {
		value = smoothed(bins, count, i, &width);
		if (value > peak)
			peak = value;
	}
	line = (1 - drop) * peak;
	for (i = 0; i < count; i++) {
		value = smoothed(bins, count, i, &width);
		if (value < line - 3 * sqrt(peak / (packets * width)))
			low++;
	}
	if (!low)
		return VLR_SIM_STEADY;
	tail_bins = (count + 3) / 4;
	for (i = count - tail_bins; i < count; i++)
		tail += bins[i];
	tail /= tail_bins;
	return tail >= line - 3 * sqrt(peak / (packets * tail_bins)) ?
	       VLR_SIM_RECOVERS : VLR_SIM_COLLAPSES;
}

static int bins_and_stability(const struct sim_state *st, struct vlr_sim_result *r)
{
	const struct vlr_sim_config *c = st->config;
	double servers = st->sim->servers.count;
	uint32_t b, first = 0, complete = 0;

	r->num_bins = st->stats.num_bins;
	r->bins = calloc(r->num_bins ? r->num_bins : 1, sizeof(*r->bins));
	if (!r->bins)
		return -1;
	r->bin = c->bin;
	r->span = st->end;
	for (b = 0; b < r->num_bins; b++) {
		uint64_t start = (uint64_t)b * c->bin;
		uint64_t end = start + c->bin < st->end ? start + c->bin : st->end;

		r->bins[b] = (double)st->stats.bin_phits[b] / (servers * (double)(end - start));
		if (start < c->warmup)
			r->warmup_bins = b + 1;
		if (start < c->warmup || (!c->warmup && b == 0))
			first = b + 1;
		else if (end - start == c->bin)
			complete = b + 1;
	}
	r->stability = r->deadlock ? VLR_SIM_COLLAPSES :
		       complete > first ? classify(r->bins + first, complete - first,
						   c->stability_drop,
						   servers * c->bin / c->packet_phits) :
		       VLR_SIM_STEADY;
	return 0;
}

int sim_stats_finish(struct sim_state *st, struct vlr_sim_result *r)
{
	r->accepted = (double)st->stats.window_phits /
		      ((double)st->sim->servers.count * (double)st->config->cycles);
	latency_results(&st->stats, r);
	fairness(st, r);
	if (switch_counts(st, r))
		return vlr_fail(st->err, "out of memory for the injections per switch");
	if (bins_and_stability(st, r))
		return vlr_fail(st->err, "out of memory for the time bins");
	return 0;
}
