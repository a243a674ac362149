/*
 * experiment_plot.c - the figures researchers draw from an experiment, by
 * gnuplot (Debian package gnuplot-nox):
 *
 *   load  accepted load and average latency against offered load, a line
 *         per series (a run's label: what varies but load and seed), each
 *         point the mean over seeds with its 95% confidence interval
 *         (Student's t) as an error bar;
 *   time  accepted load over time, a line per seed, the series overlaid in
 *         one figure (a colour each), warm-up bins left of a dashed line;
 *   switches  packets injected per switch (experiment_switches.c).
 *
 * Drawn from the merged files alone (runs.csv, bins.csv and the title in
 * summary.json), so that results kept in the repository redraw without
 * the runs. Sized for a paper column (3.5 inches wide) and titled with the
 * fabric and the pattern, never a path: PDF (pdfcairo), SVG or PNG (pngcairo, 300 dpi)
 * by the file's suffix, written whole (gnuplot writes a temporary that is
 * renamed into place).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "experiment.h"

#define MAX_SERIES 64

/* A finished run's numbers. */
struct point {
	unsigned series;
	double offered, accepted, latency;
	unsigned long long seed;
	unsigned bin, warmup_bins, num_bins;
	double *bins;
};

struct figure {
	const struct experiment *exp;
	char title[512];
	char *labels[MAX_SERIES];
	unsigned num_series;
	struct point *points;
	unsigned num_points;
};

/* Student's t at 0.975 for df = 1..30; beyond, a Cornish-Fisher correction of 1.96. */
static double t975(unsigned df)
{
	static const double t[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const double z = 1.959964;

	if (df >= 1 && df <= 30)
		return t[df - 1];
	return z + (z * z * z + z) / (4.0 * df);
}

static double number(const char *text)
{
	return text && *text ? strtod(text, NULL) : NAN;
}

static int series_of(struct figure *f, const char *label, struct vlr_error *err)
{
	unsigned i;

	for (i = 0; i < f->num_series; i++)
		if (!strcmp(f->labels[i], label))
			return (int)i;
	if (f->num_series == MAX_SERIES)
		return vlr_fail(err, "more than %d series to draw; plot fewer settings at once",
				MAX_SERIES);
	if (!(f->labels[f->num_series] = strdup(label)))
		return vlr_fail(err, "out of memory drawing the figure");
	return (int)f->num_series++;
}

/* The points of runs.csv; for a time figure the label names the load too. */
static int read_runs(struct figure *f, const struct exp_csv *runs, int by_load,
		     struct vlr_error *err)
{
	char label[1024];
	unsigned i;
	int series;

	f->points = calloc(runs->rows ? runs->rows : 1, sizeof(*f->points));
	if (!f->points)
		return vlr_fail(err, "out of memory drawing the figure");
	for (i = 0; i < runs->rows; i++) {
		struct point *p = &f->points[f->num_points];
		const char *l = exp_csv_get(runs, i, "label");

		p->offered = number(exp_csv_get(runs, i, "offered"));
		snprintf(label, sizeof(label), "%s", l ? l : "");
		if (!by_load)
			snprintf(label + strlen(label), sizeof(label) - strlen(label),
				 "%sload %g", label[0] ? ", " : "", p->offered);
		if ((series = series_of(f, label, err)) < 0)
			return -1;
		p->series = (unsigned)series;
		p->accepted = number(exp_csv_get(runs, i, "accepted"));
		p->latency = number(exp_csv_get(runs, i, "latency_avg"));
		p->seed = (unsigned long long)number(exp_csv_get(runs, i, "seed"));
		f->num_points++;
	}
	if (!f->num_points)
		return vlr_fail(err, "%s: no merged run to draw (run and merge the experiment)",
				f->exp->path);
	return 0;
}

/* Each run's row of bins.csv into its point (runs.csv and bins.csv agree on order). */
static int read_bins(struct figure *f, const struct exp_csv *runs, const struct exp_csv *bins,
		     struct vlr_error *err)
{
	unsigned r = 0, b;
	struct point *p;

	for (b = 0; b < bins->rows; b++) {
		const char *run = exp_csv_get(bins, b, "run");

		while (r < runs->rows && strcmp(exp_csv_get(runs, r, "run"), run))
			r++;
		if (r == runs->rows)
			return vlr_fail(err, "bins.csv: run %s is not in runs.csv, or out of order",
					run);
		p = &f->points[r];
		if (!p->bins && !(p->bins = calloc(bins->rows, sizeof(*p->bins))))
			return vlr_fail(err, "out of memory drawing the figure");
		p->bins[p->num_bins++] = number(exp_csv_get(bins, b, "accepted"));
		p->bin = (unsigned)(number(exp_csv_get(bins, b, "end")) -
				    number(exp_csv_get(bins, b, "start")));
		if (!strcmp(exp_csv_get(bins, b, "warmup"), "1"))
			p->warmup_bins++;
	}
	return 0;
}

static void read_title(struct figure *f)
{
	char path[VLR_PATH_SIZE + 16];
	struct exp_doc *doc;
	const char *title;

	snprintf(path, sizeof(path), "%s/summary.json", f->exp->results);
	doc = exp_doc_read(path, NULL);
	title = doc ? exp_doc_scalar(doc, "title") : NULL;
	snprintf(f->title, sizeof(f->title), "%s", title ? title : "");
	exp_doc_free(doc);
}

/* runs.csv (and bins.csv for time) from the results directory. */
static int read_points(struct figure *f, int by_load, struct vlr_error *err)
{
	char path[VLR_PATH_SIZE + 16];
	struct exp_csv *runs, *bins = NULL;
	int result;

	snprintf(path, sizeof(path), "%s/runs.csv", f->exp->results);
	if (!(runs = exp_csv_read(path, err)))
		return -1;
	result = read_runs(f, runs, by_load, err);
	if (!result && !by_load) {
		snprintf(path, sizeof(path), "%s/bins.csv", f->exp->results);
		bins = exp_csv_read(path, err);
		result = bins ? read_bins(f, runs, bins, err) : -1;
	}
	exp_csv_free(runs);
	exp_csv_free(bins);
	return result;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Mean and 95% half-interval of the values of series s at offered load x. */
static void stats(const struct figure *f, unsigned s, double x, int latency, double *mean,
		  double *half)
{
	double sum = 0, sq = 0, v;
	unsigned i, n = 0;

	for (i = 0; i < f->num_points; i++)
		if (f->points[i].series == s && f->points[i].offered == x) {
			v = latency ? f->points[i].latency : f->points[i].accepted;
			if (isnan(v))
				continue;	/* no packet measured */
			sum += v;
			sq += v * v;
			n++;
		}
	*mean = n ? sum / n : NAN;	/* NaN: gnuplot leaves the point out */
	*half = n > 1 ? t975(n - 1) * sqrt(fmax(0, (sq - sum * sum / n) / (n - 1)) / n) : 0;
}

/* The loads series s was run at, sorted and distinct, into loads. */
static unsigned loads_of(const struct figure *f, unsigned s, double *loads)
{
	unsigned i, n = 0, k = 0;

	for (i = 0; i < f->num_points; i++)
		if (f->points[i].series == s)
			loads[n++] = f->points[i].offered;
	qsort(loads, n, sizeof(*loads), compare_doubles);
	for (i = 0; i < n; i++)
		if (!k || loads[k - 1] != loads[i])
			loads[k++] = loads[i];
	return k;
}

void exp_gnuplot_quoted(FILE *gp, const char *text)
{
	fputc('\'', gp);
	for (; *text; text++) {
		if (*text == '\'')
			fputc('\'', gp);
		fputc(*text, gp);
	}
	fputc('\'', gp);
}

static void load_figure(FILE *gp, const struct figure *f)
{
	double *loads = calloc(f->num_points, sizeof(*loads)), mean, half, lmean, lhalf;
	unsigned s, i, n;

	for (s = 0; s < f->num_series && loads; s++) {
		fprintf(gp, "$s%u << EOD\n", s);
		n = loads_of(f, s, loads);
		for (i = 0; i < n; i++) {
			stats(f, s, loads[i], 0, &mean, &half);
			stats(f, s, loads[i], 1, &lmean, &lhalf);
			fprintf(gp, "%.6g %.6g %.6g %.6g %.6g\n", loads[i], mean, half, lmean, lhalf);
		}
		fprintf(gp, "EOD\n");
	}
	free(loads);
	fprintf(gp, "set multiplot layout 2,1\nset xlabel 'offered load (phits/server/cycle)'\n"
		"set yrange [0:*]\nset xrange [0:*]\nset key top left\n"
		"set ylabel 'accepted load (phits/server/cycle)'\nplot ");
	for (s = 0; s < f->num_series; s++) {
		fprintf(gp, "$s%u using 1:2:3 with yerrorlines lc %u pt %u title ", s, s + 1,
			s % 8 + 4);
		exp_gnuplot_quoted(gp, f->labels[s][0] ? f->labels[s] : "all runs");
		fprintf(gp, ", ");
	}
	fprintf(gp, "x with lines dt 2 lc 'gray' notitle\nunset title\nset key off\n"
		"set ylabel 'average latency (cycles)'\nplot ");
	for (s = 0; s < f->num_series; s++)
		fprintf(gp, "%s$s%u using 1:4:5 with yerrorlines lc %u pt %u notitle",
			s ? ", " : "", s, s + 1, s % 8 + 4);
	fprintf(gp, "\nunset multiplot\n");
}

static void time_figure(FILE *gp, const struct figure *f)
{
	unsigned p, b, s, titled[MAX_SERIES] = { 0 }, warmup = 0, first = 1;

	for (p = 0; p < f->num_points; p++) {
		const struct point *pt = &f->points[p];

		fprintf(gp, "$p%u << EOD\n", p);
		for (b = 0; b < pt->num_bins; b++)
			fprintf(gp, "%.6g %.6g\n", ((double)b + 0.5) * pt->bin / 1000.0,
				pt->bins[b]);
		fprintf(gp, "EOD\n");
		if (pt->warmup_bins)
			warmup = pt->warmup_bins * pt->bin;
	}
	if (warmup)
		fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc 'gray'\n",
			warmup / 1000.0, warmup / 1000.0);
	fprintf(gp, "set xlabel 'time (thousands of cycles)'\n"
		"set ylabel 'accepted load (phits/server/cycle)'\nset yrange [0:*]\n"
		"set key below\nplot ");
	for (p = 0; p < f->num_points; p++) {
		s = f->points[p].series;
		fprintf(gp, "%s$p%u using 1:2 with lines lc %u lw 1 ", first ? "" : ", ", p,
			s + 1);
		first = 0;
		if (titled[s]++)
			fprintf(gp, "notitle");
		else {
			fprintf(gp, "title ");
			exp_gnuplot_quoted(gp, f->labels[s][0] ? f->labels[s] : "all runs");
		}
	}
	fprintf(gp, "\n");
}

/* The terminal for path's suffix, sized for a column 3.5 inches wide. */
static const char *terminal_of(const char *path, int tall)
{
	const char *dot = strrchr(path, '.');

	if (!dot)
		return NULL;
	if (!strcmp(dot, ".pdf"))
		return tall ? "pdfcairo size 3.5in,4.6in font ',7'" :
		       "pdfcairo size 3.5in,2.9in font ',7'";
	if (!strcmp(dot, ".svg"))
		return tall ? "svg size 525,690 dynamic font ',10'" :
		       "svg size 525,435 dynamic font ',10'";
	if (!strcmp(dot, ".png"))
		return tall ? "pngcairo size 1050,1380 font ',21' linewidth 3" :
		       "pngcairo size 1050,870 font ',21' linewidth 3";
	return NULL;
}

FILE *exp_gnuplot_open(const char *terminal, const char *output, const char *title,
		       struct vlr_error *err)
{
	FILE *gp = popen("gnuplot >/dev/null", "w");

	if (!gp) {
		vlr_fail(err, "cannot run gnuplot (Debian package gnuplot-nox)");
		return NULL;
	}
	fprintf(gp, "set terminal %s\nset output ", terminal);
	exp_gnuplot_quoted(gp, output);
	fprintf(gp, "\nset encoding utf8\nset title ");
	exp_gnuplot_quoted(gp, title);
	fprintf(gp, " noenhanced\nset grid\nset key noenhanced\n");
	return gp;
}

int exp_gnuplot_close(FILE *gp, struct vlr_error *err)
{
	int status;

	fprintf(gp, "set output\n");
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		return vlr_fail(err, "gnuplot failed; is it installed (Debian package "
				"gnuplot-nox)?");
	return 0;
}

static int draw(const struct figure *f, int by_load, const char *terminal,
		const char *output, struct vlr_error *err)
{
	FILE *gp = exp_gnuplot_open(terminal, output, f->title, err);

	if (!gp)
		return -1;
	if (by_load)
		load_figure(gp, f);
	else
		time_figure(gp, f);
	return exp_gnuplot_close(gp, err);
}

/* Whether the finished runs span more than one offered load. */
static int loads_vary(const struct figure *f)
{
	unsigned i;

	for (i = 1; i < f->num_points; i++)
		if (f->points[i].offered != f->points[0].offered)
			return 1;
	return 0;
}

static int no_bins(const struct figure *f, struct vlr_error *err)
{
	unsigned i;

	for (i = 0; i < f->num_points; i++)
		if (f->points[i].num_bins)
			return 0;
	return vlr_fail(err, "%s/bins.csv: the runs hold no time bins to draw over time",
			f->exp->results);
}

static void free_figure(struct figure *f)
{
	unsigned i;

	for (i = 0; i < f->num_points; i++)
		free(f->points[i].bins);
	for (i = 0; i < f->num_series; i++)
		free(f->labels[i]);
	free(f->points);
}

static int decide(struct figure *f, enum exp_plot_kind *kind, struct vlr_error *err)
{
	if (f->exp->measure != EXP_SIM)
		return vlr_fail(err, "%s: plots draw sim experiments; draw an analyze "
				"experiment's runs.csv with your own tools", f->exp->path);
	if (*kind != EXP_PLOT_AUTO)
		return read_points(f, *kind == EXP_PLOT_LOAD, err);
	if (read_points(f, 1, err))
		return -1;
	if (loads_vary(f)) {
		*kind = EXP_PLOT_LOAD;
		return 0;
	}
	free_figure(f);
	memset(f->labels, 0, sizeof(f->labels));
	f->num_series = f->num_points = 0;
	f->points = NULL;
	*kind = EXP_PLOT_TIME;
	return read_points(f, 0, err);
}

/* The switches figure, written whole into path. */
static int plot_switches(const struct figure *f, const char *switches, const char *path,
			 struct vlr_error *err)
{
	struct vlr_whole_file file;
	int result;

	if (vlr_whole_file_open(&file, path, err))
		return -1;
	result = exp_switches_draw(f->exp, switches, f->title, terminal_of(path, 0),
				   file.temporary, err);
	if (vlr_whole_file_close(&file, result, err))
		return -1;
	return result;
}

int exp_plot(const struct experiment *exp, enum exp_plot_kind kind, const char *switches,
	     const char *path, struct vlr_error *err)
{
	struct figure f;
	struct vlr_whole_file file;
	const char *terminal;
	int result;

	memset(&f, 0, sizeof(f));
	f.exp = exp;
	read_title(&f);
	if (!terminal_of(path, 0))
		return vlr_fail(err, "%s: a figure's file name ends in .pdf, .svg or .png", path);
	if (kind == EXP_PLOT_SWITCHES)
		return plot_switches(&f, switches, path, err);
	if (decide(&f, &kind, err) || (kind == EXP_PLOT_TIME && no_bins(&f, err))) {
		free_figure(&f);
		return -1;
	}
	terminal = terminal_of(path, kind == EXP_PLOT_LOAD);
	if (vlr_whole_file_open(&file, path, err)) {
		free_figure(&f);
		return -1;
	}
	result = draw(&f, kind == EXP_PLOT_LOAD, terminal, file.temporary, err);
	free_figure(&f);
	if (vlr_whole_file_close(&file, result, err))
		return -1;
	return result;
}
