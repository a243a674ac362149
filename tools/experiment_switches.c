/*
 * experiment_switches.c - the figure of the ADVc study's Figs. 4 and 6:
 * the packets each switch's servers injected while measuring, from the
 * merged switches.csv (sim --switch-injections), for the switches whose
 * names match a regular expression ('^df_g0_': group 0 of a generated
 * Dragonfly). A cluster of bars per switch, in switch order, and in each
 * a bar per series: a run's label (with its load when the runs' loads
 * differ), the mean over the series' runs, its seeds. Drawn by gnuplot
 * as experiment_plot.c's figures.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"

#define MAX_BARS 64

/* The switches drawn, the series and the mean of each (series, switch). */
struct bars {
	char *series[MAX_BARS];
	unsigned num_series;
	unsigned long *index;		/* the switches drawn: switch index, */
	const char **name;		/* name (switches.csv's) */
	unsigned num_switches;
	double *sum;			/* [series * num_switches + switch] */
	unsigned *count;
	int loads_differ;		/* the label names the load too */
};

static void free_bars(struct bars *b)
{
	unsigned i;

	for (i = 0; i < b->num_series; i++)
		free(b->series[i]);
	free(b->index);
	free(b->name);
	free(b->sum);
	free(b->count);
}

/* The offered load of run id in runs.csv, or NULL. */
static const char *offered_of(const struct exp_csv *runs, const char *id)
{
	unsigned r;

	for (r = 0; r < runs->rows; r++)
		if (!strcmp(exp_csv_get(runs, r, "run"), id))
			return exp_csv_get(runs, r, "offered");
	return NULL;
}

/* Whether the runs of runs.csv were run at more than one offered load. */
static int loads_differ(const struct exp_csv *runs)
{
	unsigned r;

	for (r = 1; r < runs->rows; r++)
		if (strcmp(exp_csv_get(runs, r, "offered"), exp_csv_get(runs, 0, "offered")))
			return 1;
	return 0;
}

/* The series of row r of switches.csv, added if new; -1 with err. */
static int series_of(struct bars *b, const struct exp_csv *sw, const struct exp_csv *runs,
		     unsigned r, struct vlr_error *err)
{
	const char *label = exp_csv_get(sw, r, "label"), *offered;
	char text[1024];
	unsigned i;

	snprintf(text, sizeof(text), "%s", label && *label ? label : "all runs");
	offered = offered_of(runs, exp_csv_get(sw, r, "run"));
	if (b->loads_differ && offered)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ", load %s", offered);
	for (i = 0; i < b->num_series; i++)
		if (!strcmp(b->series[i], text))
			return (int)i;
	if (b->num_series == MAX_BARS)
		return vlr_fail(err, "more than %d series of bars to draw; plot fewer settings "
				"at once", MAX_BARS);
	if (!(b->series[b->num_series] = strdup(text)))
		return vlr_fail(err, "out of memory drawing the figure");
	return (int)b->num_series++;
}

/* The position of switch index among those drawn, added if new. */
static unsigned switch_slot(struct bars *b, unsigned long index, const char *name)
{
	unsigned i;

	for (i = 0; i < b->num_switches; i++)
		if (b->index[i] == index)
			return i;
	b->index[b->num_switches] = index;
	b->name[b->num_switches] = name;
	return b->num_switches++;
}

/* Which rows of switches.csv are drawn: the name matches (match NULL: all). */
static int wanted(const struct exp_csv *sw, unsigned r, const regex_t *match)
{
	const char *name = exp_csv_get(sw, r, "name");

	return !match || (name && !regexec(match, name, 0, NULL, 0));
}

/* First pass: the series, and the switches drawn in switch order. */
static int collect(struct bars *b, const struct exp_csv *sw, const struct exp_csv *runs,
		   const regex_t *match, unsigned *series, struct vlr_error *err)
{
	unsigned r, i, j;
	int s;

	b->index = calloc(sw->rows ? sw->rows : 1, sizeof(*b->index));
	b->name = calloc(sw->rows ? sw->rows : 1, sizeof(*b->name));
	if (!b->index || !b->name)
		return vlr_fail(err, "out of memory drawing the figure");
	for (r = 0; r < sw->rows; r++) {
		series[r] = MAX_BARS;
		if (!wanted(sw, r, match))
			continue;
		if ((s = series_of(b, sw, runs, r, err)) < 0)
			return -1;
		series[r] = (unsigned)s;
		switch_slot(b, strtoul(exp_csv_get(sw, r, "switch"), NULL, 10),
			    exp_csv_get(sw, r, "name"));
	}
	for (i = 1; i < b->num_switches; i++)	/* switch order: insertion sort */
		for (j = i; j > 0 && b->index[j - 1] > b->index[j]; j--) {
			unsigned long t = b->index[j];
			const char *n = b->name[j];

			b->index[j] = b->index[j - 1];
			b->name[j] = b->name[j - 1];
			b->index[j - 1] = t;
			b->name[j - 1] = n;
		}
	return 0;
}

/* Second pass: the sum and count of each (series, switch). */
static int accumulate(struct bars *b, const struct exp_csv *sw, const unsigned *series,
		      struct vlr_error *err)
{
	size_t cells = (size_t)b->num_series * b->num_switches;
	unsigned r, k;

	b->sum = calloc(cells ? cells : 1, sizeof(*b->sum));
	b->count = calloc(cells ? cells : 1, sizeof(*b->count));
	if (!b->sum || !b->count)
		return vlr_fail(err, "out of memory drawing the figure");
	for (r = 0; r < sw->rows; r++) {
		if (series[r] == MAX_BARS)
			continue;
		k = switch_slot(b, strtoul(exp_csv_get(sw, r, "switch"), NULL, 10), NULL);
		b->sum[(size_t)series[r] * b->num_switches + k] +=
			strtod(exp_csv_get(sw, r, "injected"), NULL);
		b->count[(size_t)series[r] * b->num_switches + k]++;
	}
	return 0;
}

/* The bars of switches.csv (and the loads of runs.csv). */
static int read_bars(struct bars *b, const struct exp_csv *sw, const struct exp_csv *runs,
		     const regex_t *match, struct vlr_error *err)
{
	unsigned *series = calloc(sw->rows ? sw->rows : 1, sizeof(*series));
	int result;

	if (!series)
		return vlr_fail(err, "out of memory drawing the figure");
	b->loads_differ = loads_differ(runs);
	result = collect(b, sw, runs, match, series, err);
	if (!result)
		result = accumulate(b, sw, series, err);
	free(series);
	return result;
}

/* A name in a tab-separated data block: its tabs and line breaks as spaces. */
static void data_name(FILE *gp, const char *name)
{
	for (; *name; name++)
		fputc(*name == '\t' || *name == '\n' || *name == '\r' ? ' ' : *name, gp);
}

static void bar_figure(FILE *gp, const struct bars *b)
{
	unsigned s, k;
	size_t cell;

	fprintf(gp, "$bars << EOD\n");
	for (k = 0; k < b->num_switches; k++) {
		data_name(gp, b->name[k] ? b->name[k] : "");
		for (s = 0; s < b->num_series; s++) {
			cell = (size_t)s * b->num_switches + k;
			if (b->count[cell])
				fprintf(gp, "\t%.6g", b->sum[cell] / b->count[cell]);
			else
				fprintf(gp, "\tNaN");
		}
		fprintf(gp, "\n");
	}
	fprintf(gp, "EOD\nset datafile separator '\\t'\nset style data histograms\n"
		"set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
		"set yrange [0:*]\nset xtics rotate by -45 noenhanced\nset key below\n"
		"set ylabel 'packets injected while measuring'\nplot ");
	for (s = 0; s < b->num_series; s++) {
		fprintf(gp, "%s$bars using %u%s lc %u title ", s ? ", " : "", s + 2,
			s ? "" : ":xtic(1)", s + 1);
		exp_gnuplot_quoted(gp, b->series[s]);
	}
	fprintf(gp, "\n");
}

/* Whether the first row of csv has every column of names (NULL-terminated). */
static int has_columns(const struct exp_csv *csv, const char *const *names)
{
	for (; *names; names++)
		if (csv->rows && !exp_csv_get(csv, 0, *names))
			return 0;
	return 1;
}

/* switches.csv and runs.csv of the results directory, as merge writes them. */
static int read_files(const struct experiment *exp, struct exp_csv **sw, struct exp_csv **runs,
		      struct vlr_error *err)
{
	static const char *const sw_columns[] = { "run", "label", "switch", "name", "injected",
						  NULL };
	static const char *const runs_columns[] = { "run", "offered", NULL };
	char path[VLR_PATH_SIZE + 16];

	snprintf(path, sizeof(path), "%s/switches.csv", exp->results);
	if (exp_csv_read_if(path, sw, err))
		return -1;
	if (!*sw)
		return vlr_fail(err, "%s: no such file: no injections per switch to draw (run "
				"the sim with switch-injections: true, and merge)", path);
	if (!has_columns(*sw, sw_columns))
		return vlr_fail_at(err, path, 1, "not the columns \"vlroute experiment merge\" "
				   "writes (run, label, switch, name, injected)");
	snprintf(path, sizeof(path), "%s/runs.csv", exp->results);
	if (!(*runs = exp_csv_read(path, err)))
		return -1;
	if (!has_columns(*runs, runs_columns))
		return vlr_fail_at(err, path, 1, "not the columns \"vlroute experiment merge\" "
				   "writes (run, offered)");
	return 0;
}

static int draw_bars(const struct bars *b, const char *switches, const char *title,
		     const char *terminal, const char *output, struct vlr_error *err)
{
	FILE *gp;

	if (!b->num_switches)
		return vlr_fail(err, "--switches %s: no switch of switches.csv has a name that "
				"matches", switches ? switches : "");
	if (!(gp = exp_gnuplot_open(terminal, output, title, err)))
		return -1;
	bar_figure(gp, b);
	return exp_gnuplot_close(gp, err);
}

int exp_switches_draw(const struct experiment *exp, const char *switches, const char *title,
		      const char *terminal, const char *output, struct vlr_error *err)
{
	struct exp_csv *sw = NULL, *runs = NULL;
	struct bars b;
	regex_t match;
	int result;

	memset(&b, 0, sizeof(b));
	if (switches && regcomp(&match, switches, REG_EXTENDED | REG_NOSUB))
		return vlr_fail(err, "--switches %s: not a POSIX extended regular expression",
				switches);
	result = read_files(exp, &sw, &runs, err);
	if (!result)
		result = read_bars(&b, sw, runs, switches ? &match : NULL, err);
	if (!result)
		result = draw_bars(&b, switches, title, terminal, output, err);
	free_bars(&b);
	exp_csv_free(sw);
	exp_csv_free(runs);
	if (switches)
		regfree(&match);
	return result;
}
