/*
 * analyze_stats.c - from the tallies of a pattern's instances to its
 * report: mean bandwidth, the 95% confidence interval (Student's t over
 * the instance means), extremes and congestion.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <string.h>

#include "analyze_internal.h"

/* t(0.975, df) for df = 1..30, from the t distribution's tables. */
static const double t95_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

/* Above 30 degrees of freedom, the Cornish-Fisher expansion around z. */
double vlr_student_t95(unsigned df)
{
	const double z = 1.959963985;
	double n, z3, z5, z7;

	if (df == 0)
		return 0.0;
	if (df <= 30)
		return t95_table[df - 1];
	n = df;
	z3 = z * z * z;
	z5 = z3 * z * z;
	z7 = z5 * z * z;
	return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
}

static double instance_bandwidth(const struct analyze_tally *tally)
{
	return tally->pairs ? tally->bandwidth_sum / (double)tally->pairs : 0.0;
}

static void spread_of_means(const struct analyze_tally *tallies, unsigned count,
			    struct vlr_pattern_report *report)
{
	double squares = 0.0;
	unsigned i;

	if (count < 2)
		return;
	for (i = 0; i < count; i++) {
		double d = instance_bandwidth(&tallies[i]) - report->mean;

		squares += d * d;
	}
	report->ci_half = vlr_student_t95(count - 1) * sqrt(squares / (count - 1)) /
			  sqrt((double)count);
}

void analyze_summarise(const struct analyze_tally *tallies, unsigned count,
		       struct vlr_pattern_report *report)
{
	double sum = 0.0, congestion = 0.0;
	unsigned i;

	report->instances = count;
	report->pairs = 0;
	report->ci_half = 0.0;
	report->pair_min = 1.0;
	report->congestion_max = 0.0;
	for (i = 0; i < count; i++) {
		const struct analyze_tally *t = &tallies[i];
		double value = instance_bandwidth(t), load = (double)t->max_load / ANALYZE_SHARE;

		sum += value;
		congestion += load;
		report->pairs += t->pairs;
		if (!i || value < report->instance_min)
			report->instance_min = value;
		if (!i || value > report->instance_max)
			report->instance_max = value;
		if (t->bandwidth_min < report->pair_min)
			report->pair_min = t->bandwidth_min;
		if (load > report->congestion_max)
			report->congestion_max = load;
	}
	report->mean = count ? sum / count : 0.0;
	report->congestion_mean = count ? congestion / count : 0.0;
	spread_of_means(tallies, count, report);
}
