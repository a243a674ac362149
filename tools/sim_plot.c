/*
 * sim_plot.c - figures of simulation results drawn by gnuplot (Debian
 * package gnuplot-nox): accepted load over time from cycle 0 with one line
 * per seed and the warm-up shaded, or, for a sweep, accepted load and
 * latency against offered load. Runs that did not complete are left out.
 *
 * The script and its data go to gnuplot's standard input; gnuplot writes
 * PNG (pngcairo) or SVG by the file's suffix.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "sim_cli.h"

static const char *terminal_of(const char *path)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".png"))
		return "pngcairo size 1000,600";
	if (n > 4 && !strcmp(path + n - 4, ".svg"))
		return "svg size 1000,600 dynamic";
	return NULL;
}

/* The cycles of the warm-up bins of the first completed run (all runs share them). */
static uint64_t warmup_end(const struct vlr_sim_result *results, unsigned count)
{
	unsigned i;
	uint64_t end;

	for (i = 0; i < count; i++)
		if (results[i].completed) {
			end = (uint64_t)results[i].warmup_bins * results[i].bin;
			return end < results[i].span ? end : results[i].span;
		}
	return 0;
}

/* Each completed seed's bins at the cycle they end, from cycle 0; the warm-up shaded. */
static void time_series(FILE *gp, const struct vlr_sim_result *results, unsigned num_seeds)
{
	uint64_t warmup = warmup_end(results, num_seeds), end;
	unsigned s, b, n = 0;

	for (s = 0; s < num_seeds; s++) {
		if (!results[s].completed)
			continue;
		fprintf(gp, "$seed%u << EOD\n", s);
		for (b = 0; b < results[s].num_bins; b++) {
			end = (uint64_t)(b + 1) * results[s].bin;
			fprintf(gp, "%llu %.6f\n", (unsigned long long)(end < results[s].span ? end :
					results[s].span), results[s].bins[b]);
		}
		fprintf(gp, "EOD\n");
	}
	if (warmup)
		fprintf(gp, "set object 1 rectangle from 0, graph 0 to %llu, graph 1 behind "
			"fillcolor rgb '#e8e8e8' fillstyle solid noborder\n"
			"set label 1 'warm-up' at %llu, graph 0.05 center\n",
			(unsigned long long)warmup, (unsigned long long)warmup / 2);
	fprintf(gp, "set xlabel 'cycle'\nset ylabel 'accepted load (phits/server/cycle)'\n"
		"set xrange [0:*]\nset yrange [0:*]\nset key outside right\nplot ");
	for (s = 0; s < num_seeds; s++)
		if (results[s].completed)
			fprintf(gp, "%s$seed%u with linespoints title 'seed %llu'", n++ ? ", " : "",
				s, (unsigned long long)results[s].seed);
	fprintf(gp, "\n");
}

/* Per offered load, the means over the seeds that completed; loads without any left out. */
static void sweep(FILE *gp, const struct vlr_sim_result *results, unsigned num_loads,
		  unsigned num_seeds)
{
	const struct vlr_sim_result *r;
	unsigned l, s, n;

	fprintf(gp, "$sweep << EOD\n");
	for (l = 0; l < num_loads; l++) {
		double accepted = 0, latency = 0;
		unsigned measured = 0;

		for (s = 0, n = 0; s < num_seeds; s++) {
			r = &results[l * num_seeds + s];
			if (!r->completed)
				continue;
			accepted += r->accepted;
			n++;
			if (r->measured_packets) {
				latency += r->latency_avg;
				measured++;
			}
		}
		if (!n)
			continue;
		fprintf(gp, "%.6g %.6f ", results[l * num_seeds].offered, accepted / n);
		if (measured)
			fprintf(gp, "%.3f\n", latency / measured);
		else
			fprintf(gp, "NaN\n");	/* gnuplot leaves the point out */
	}
	fprintf(gp, "EOD\n");
	fprintf(gp, "set multiplot layout 1,2\nset xlabel 'offered load (phits/server/cycle)'\n"
		"set key off\nset yrange [0:*]\n"
		"set ylabel 'accepted load (phits/server/cycle)'\n"
		"plot $sweep using 1:2 with linespoints pt 7, x with lines dt 2\n"
		"set ylabel 'average latency (cycles)'\n"
		"plot $sweep using 1:3 with linespoints pt 7\nunset multiplot\n");
}

int sim_plot(const struct vlr_sim_result *results, unsigned num_loads,
	     unsigned num_seeds, const char *title, const char *path,
	     struct vlr_error *err)
{
	const char *terminal = terminal_of(path);
	FILE *gp;
	int status;

	if (!terminal)
		return vlr_fail(err, "%s: a plot file name ends in .png or .svg", path);
	if (strchr(path, '\'') || strchr(title, '\''))
		return vlr_fail(err, "%s: plot file names and titles cannot hold a quote", path);
	gp = popen("gnuplot 2>/dev/null", "w");
	if (!gp)
		return vlr_fail(err, "cannot run gnuplot (Debian package gnuplot-nox)");
	fprintf(gp, "set terminal %s\nset output '%s'\nset title '%s' noenhanced\n"
		"set grid\n", terminal, path, title);
	if (num_loads == 1)
		time_series(gp, results, num_seeds);
	else
		sweep(gp, results, num_loads, num_seeds);
	fprintf(gp, "set output\n");
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		return vlr_fail(err, "%s: gnuplot failed (exit status %d); is it installed "
				"(Debian package gnuplot-nox)?", path,
				status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status));
	return 0;
}
