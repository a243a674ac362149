/*
 * sim_plot.c - figures of simulation results drawn by gnuplot (Debian
 * package gnuplot-nox): accepted load over time with one line per seed,
 * or, for a sweep, accepted load and latency against offered load.
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

static void time_series(FILE *gp, const struct vlr_sim_result *results, unsigned num_seeds,
			unsigned bin)
{
	unsigned s, b;

	for (s = 0; s < num_seeds; s++) {
		fprintf(gp, "$seed%u << EOD\n", s);
		for (b = 0; b < results[s].num_bins; b++)
			fprintf(gp, "%llu %.6f\n", (unsigned long long)(b + 1) * bin,
				results[s].bins[b]);
		fprintf(gp, "EOD\n");
	}
	fprintf(gp, "set xlabel 'cycle'\nset ylabel 'accepted load (phits/server/cycle)'\n"
		"set yrange [0:*]\nset key outside right\nplot ");
	for (s = 0; s < num_seeds; s++)
		fprintf(gp, "%s$seed%u with linespoints title 'seed %llu'",
			s ? ", " : "", s, (unsigned long long)results[s].seed);
	fprintf(gp, "\n");
}

static void sweep(FILE *gp, const struct vlr_sim_result *results, unsigned num_loads,
		  unsigned num_seeds)
{
	unsigned l, s;

	fprintf(gp, "$sweep << EOD\n");
	for (l = 0; l < num_loads; l++) {
		double accepted = 0, latency = 0;

		for (s = 0; s < num_seeds; s++) {
			accepted += results[l * num_seeds + s].accepted;
			latency += results[l * num_seeds + s].latency_avg;
		}
		fprintf(gp, "%.6g %.6f %.3f\n", results[l * num_seeds].offered,
			accepted / num_seeds, latency / num_seeds);
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
	     unsigned num_seeds, unsigned bin, const char *title, const char *path,
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
		time_series(gp, results, num_seeds, bin);
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
