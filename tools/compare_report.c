/*
 * compare_report.c - the report of "vlroute compare": report.md (one table
 * of figures per table set, the plots, the hottest channels), the data
 * files ebb.dat and linkload.dat, and plots.gp, which gnuplot turns into
 * ebb.svg and linkload.svg; and the figures as JSON with their provenance.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"

#define HISTOGRAM_BINS 20
#define PATH_SIZE (VLR_PATH_SIZE + 128)	/* a temporary report dir and a name */

enum plot_outcome {
	PLOTS_DRAWN,
	PLOTS_SKIPPED,		/* --no-plots */
	PLOTS_NO_GNUPLOT,
	PLOTS_FAILED,
};

/* A label fit for a Markdown cell and a quoted gnuplot string. */
static void clean_label(const char *label, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", label);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '|' || buf[i] == '"' || buf[i] == '\'')
			buf[i] = '_';
}

/* DIR/NAME, written whole: the stream to write, or NULL (complained). */
static FILE *open_in(const char *command, const char *dir, const char *name, char *path,
		     struct vlr_whole_file *file)
{
	snprintf(path, PATH_SIZE, "%s/%s", dir, name);
	return cli_result_open(command, path, file);
}

static int write_ebb_data(const char *command, const struct compare_set *set,
			  const char *dir)
{
	char path[PATH_SIZE], label[COMPARE_LABEL_SIZE];
	struct vlr_whole_file file;
	FILE *out = open_in(command, dir, "ebb.dat", path, &file);
	int bad;
	unsigned i;

	if (!out)
		return -1;
	bad = fprintf(out, "# table set, ebb, 95%% interval low, high\n") < 0;
	for (i = 0; i < set->count; i++) {
		const struct vlr_pattern_report *ebb = &set->entries[i].ebb;

		clean_label(set->entries[i].label, label, sizeof(label));
		bad |= fprintf(out, "\"%s\" %.6f %.6f %.6f\n", label, ebb->mean,
			       ebb->mean - ebb->ci_half, ebb->mean + ebb->ci_half) < 0;
	}
	return cli_result_close(command, path, &file, out, bad);
}

/* Common bins for every table set: from the lowest load to the highest. */
static void load_range(const struct compare_set *set, double *low, double *width)
{
	double high = 0.0;
	unsigned i;
	uint32_t c;

	*low = -1.0;
	for (i = 0; i < set->count; i++)
		for (c = 0; c < set->entries[i].load_count; c++) {
			double load = set->entries[i].loads[c];

			if (*low < 0 || load < *low)
				*low = load;
			if (load > high)
				high = load;
		}
	if (*low < 0)
		*low = 0.0;
	*width = (high - *low) / HISTOGRAM_BINS;
	if (*width <= 0.0)
		*width = 1.0;
}

static void bin_loads(const struct compare_entry *e, double low, double width,
		      uint64_t *counts)
{
	uint32_t c;

	memset(counts, 0, sizeof(uint64_t) * HISTOGRAM_BINS);
	for (c = 0; c < e->load_count; c++) {
		double bin = (e->loads[c] - low) / width;

		counts[bin >= HISTOGRAM_BINS - 1 ? HISTOGRAM_BINS - 1 : (unsigned)bin]++;
	}
}

static int write_load_data(const char *command, const struct compare_set *set,
			   const char *dir)
{
	uint64_t (*counts)[HISTOGRAM_BINS] = calloc(set->count, sizeof(*counts));
	char path[PATH_SIZE], label[COMPARE_LABEL_SIZE];
	struct vlr_whole_file file;
	FILE *out = counts ? open_in(command, dir, "linkload.dat", path, &file) : NULL;
	double low, width;
	unsigned i, bin;
	int bad;

	if (!out) {
		if (!counts)
			cli_error(command, "out of memory for the link-load histograms");
		free(counts);
		return -1;
	}
	load_range(set, &low, &width);
	for (i = 0; i < set->count; i++)
		bin_loads(&set->entries[i], low, width, counts[i]);
	bad = fprintf(out, "\"routes per channel\"") < 0;
	for (i = 0; i < set->count; i++) {
		clean_label(set->entries[i].label, label, sizeof(label));
		bad |= fprintf(out, " \"%s\"", label) < 0;
	}
	for (bin = 0; bin < HISTOGRAM_BINS; bin++) {
		bad |= fprintf(out, "\n\"%.4g\"", low + (bin + 0.5) * width) < 0;
		for (i = 0; i < set->count; i++)
			bad |= fprintf(out, " %llu", (unsigned long long)counts[i][bin]) < 0;
	}
	bad |= fprintf(out, "\n") < 0;
	free(counts);
	return cli_result_close(command, path, &file, out, bad);
}

static int write_script(const char *command, const struct compare_set *set,
			const char *dir)
{
	char path[PATH_SIZE];
	struct vlr_whole_file file;
	FILE *out = open_in(command, dir, "plots.gp", path, &file);
	int bad;

	if (!out)
		return -1;
	bad = fprintf(out,
		"# plots.gp - written by vlroute compare; run \"gnuplot plots.gp\" here.\n"
		"set terminal svg size 900,500 dynamic font 'sans,11'\n"
		"set style fill solid 0.6 border -1\n"
		"set xtics rotate by -25 noenhanced\n"
		"set key noenhanced\n"
		"set grid ytics\n"
		"set yrange [0:*]\n"
		"\n"
		"set output 'ebb.svg'\n"
		"set title 'Effective bisection bandwidth: %u random bisections, 95%% interval'\n"
		"set ylabel 'ebb (1 = full bandwidth)'\n"
		"set style data histograms\n"
		"set style histogram errorbars gap 2 lw 1\n"
		"plot 'ebb.dat' using 2:3:4:xtic(1) notitle\n"
		"\n"
		"set output 'linkload.svg'\n"
		"set title 'All-to-all routes per switch-to-switch channel'\n"
		"set xlabel 'routes per channel (bin centre)'\n"
		"set ylabel 'channels'\n"
		"set style histogram clustered gap 1\n"
		"plot for [i=2:%u] 'linkload.dat' using i:xtic(1) title columnheader(i)\n",
		set->instances, set->count + 1) < 0;
	return cli_result_close(command, path, &file, out, bad);
}

/* gnuplot plots.gp, run in dir. */
static enum plot_outcome draw_plots(const char *dir)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return PLOTS_FAILED;
	if (child == 0) {
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return PLOTS_FAILED;
	if (WEXITSTATUS(status) == 127)
		return PLOTS_NO_GNUPLOT;
	return WEXITSTATUS(status) ? PLOTS_FAILED : PLOTS_DRAWN;
}

static int write_intro(FILE *out, const struct compare_set *set)
{
	return fprintf(out,
		"# Routing tables compared\n\n"
		"Fabric: %s; %u switches, %u servers.\n\n"
		"Every table set was verified as `vlroute verify` does and analysed as "
		"`vlroute analyze` does, with DLID choice *%s*. **ebb** is the effective "
		"bisection bandwidth: the mean, over %u random bisections (seed %llu) each "
		"pairing the two halves by a random perfect matching, of the mean pair "
		"bandwidth, a pair's bandwidth being 1 / the highest congestion (routes "
		"sharing a link) on its route; the interval is 95%% (Student's t over the "
		"bisections). **Link load** is the number of all-to-all routes crossing a "
		"switch-to-switch channel. **Hops** count the links from server to server. "
		"**Deadlock-free**: every route delivered and the channel dependency graph "
		"over (link, VL) acyclic; without path SLs (an OpenSM dump) the check puts "
		"every route on SL 0, and unless it then finds one VL and no cycle the "
		"SLs decide: *unknown (no path SLs)*.\n\n",
		set->fabric, set->switches, set->servers,
		vlr_dlid_choice_name(set->dlid_choice), set->instances,
		(unsigned long long)set->seed) < 0;
}

static int write_header(FILE *out, const struct compare_set *set)
{
	int bad = fprintf(out, "| Tables | Engine | ebb | ebb 95%% interval |") < 0;
	unsigned p;

	for (p = 0; p < set->pattern_count; p++)
		bad |= fprintf(out, " %s |", set->entries[0].patterns[p].name) < 0;
	bad |= fprintf(out, " Max link load | Mean link load | VLs | SLs | Deadlock-free "
		       "| Mean hops | Max hops | Routing time |\n|---|---|--:|--:|") < 0;
	for (p = 0; p < set->pattern_count; p++)
		bad |= fprintf(out, "--:|") < 0;
	return bad | (fprintf(out, "--:|--:|--:|--:|:-:|--:|--:|--:|\n") < 0);
}

/* The VLs and SLs used, "-" for tables that are not programmable. */
static void format_used(const struct compare_entry *e, char *vls, char *sls, size_t size)
{
	if (e->route.unprogrammable.marked) {
		snprintf(vls, size, "-");
		snprintf(sls, size, "-");
		return;
	}
	snprintf(vls, size, "%u", e->vls_used);
	snprintf(sls, size, "%u", e->sls_used);
}

static int write_row(FILE *out, const struct compare_set *set, const struct compare_entry *e)
{
	char label[COMPARE_LABEL_SIZE], seconds[32], vls[16], sls[16];
	int bad;
	unsigned p;

	clean_label(e->label, label, sizeof(label));
	if (e->route.seconds >= 0)
		snprintf(seconds, sizeof(seconds), "%.2f s", e->route.seconds);
	else
		snprintf(seconds, sizeof(seconds), "unknown");
	bad = fprintf(out, "| %s | %s | %.4f | %.4f .. %.4f |", label,
		      e->route.engine[0] ? e->route.engine : "unknown", e->ebb.mean,
		      e->ebb.mean - e->ebb.ci_half, e->ebb.mean + e->ebb.ci_half) < 0;
	for (p = 0; p < set->pattern_count; p++)
		bad |= fprintf(out, " %.4f |", e->patterns[p].mean) < 0;
	format_used(e, vls, sls, sizeof(vls));
	return bad | (fprintf(out, " %.6g | %.6g | %s | %s | %s | %.3f | %u | %s |\n",
			      e->linkload.switch_links.max, e->linkload.switch_links.mean,
			      vls, sls, vlr_deadlock_verdict_name(e->deadlock_free),
			      e->linkload.hops_mean, e->linkload.hops_max, seconds) < 0);
}

static int write_plots_section(FILE *out, enum plot_outcome plots)
{
	static const char *const notes[] = {
		"",
		"Plots not drawn (--no-plots): run `gnuplot plots.gp` in this directory.\n\n",
		("Plots not drawn: gnuplot was not found (Debian: apt-get install "
		 "gnuplot-nox); run `gnuplot plots.gp` in this directory.\n\n"),
		"Plots not drawn: gnuplot failed on plots.gp.\n\n",
	};

	if (plots != PLOTS_DRAWN)
		return fprintf(out, "## Plots\n\n%s", notes[plots]) < 0;
	return fprintf(out, "## Effective bisection bandwidth\n\n![ebb per table set]"
		       "(ebb.svg)\n\n## Link load\n\n![all-to-all routes per "
		       "switch-to-switch channel](linkload.svg)\n\n") < 0;
}

static int write_hottest(FILE *out, const struct compare_set *set)
{
	int bad = fprintf(out, "## Hottest channel\n\n| Tables | Channel | Class | "
			  "All-to-all routes | Mean over channels |\n"
			  "|---|---|---|--:|--:|\n") < 0;
	char label[COMPARE_LABEL_SIZE];
	unsigned i;

	for (i = 0; i < set->count; i++) {
		const struct compare_entry *e = &set->entries[i];

		clean_label(e->label, label, sizeof(label));
		bad |= fprintf(out, "| %s | %s | %s | %.6g | %.6g |\n", label, e->hottest,
			       e->hottest_class, e->linkload.switch_links.max,
			       e->linkload.switch_links.mean) < 0;
	}
	return bad | (fprintf(out, "\n") < 0);
}

static int write_markdown(const char *command, const struct compare_set *set,
			  const char *dir, enum plot_outcome plots)
{
	char path[PATH_SIZE];
	struct vlr_whole_file file;
	FILE *out = open_in(command, dir, "report.md", path, &file);
	int bad;
	unsigned i;

	if (!out)
		return -1;
	bad = write_intro(out, set);
	bad |= write_header(out, set);
	for (i = 0; i < set->count; i++)
		bad |= write_row(out, set, &set->entries[i]);
	bad |= fprintf(out, "\n") < 0;
	bad |= write_plots_section(out, plots);
	bad |= write_hottest(out, set);
	return cli_result_close(command, path, &file, out, bad);
}

/* What a report directory holds, so what a new one may replace. */
static const char *const report_files[] = {
	"report.md", "ebb.dat", "linkload.dat", "plots.gp", "ebb.svg", "linkload.svg", NULL,
};

/* The files and plots into the temporary directory tmp of the report dir. */
static int write_files(const char *command, const struct compare_set *set,
		       const char *dir, const char *tmp, int no_plots)
{
	enum plot_outcome plots = PLOTS_SKIPPED;

	if (write_ebb_data(command, set, tmp) || write_load_data(command, set, tmp) ||
	    write_script(command, set, tmp))
		return -1;
	if (!no_plots) {
		fflush(stdout);
		plots = draw_plots(tmp);
	}
	if (plots == PLOTS_NO_GNUPLOT)
		cli_error(command, "note: gnuplot not found; run \"gnuplot plots.gp\" in %s",
			  dir);
	else if (plots == PLOTS_FAILED)
		cli_error(command, "warning: gnuplot failed on %s/plots.gp", dir);
	return write_markdown(command, set, tmp, plots);
}

/* The report directory is replaced whole, as a table directory is. */
int compare_write_report(const char *command, const struct compare_set *set,
			 const char *dir, int no_plots)
{
	struct vlr_whole_dir out;
	struct vlr_error err;

	if (vlr_whole_dir_open(&out, dir, report_files, &err)) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	if (vlr_whole_dir_close(&out, write_files(command, set, dir, out.temporary, no_plots),
				&err)) {
		cli_error(command, "%s; %s is left as it was", err.message, dir);
		return -1;
	}
	return 0;
}

/* What one table set measured, as a JSON object. */
static int write_entry_json(const struct compare_set *set, const struct compare_entry *e,
			    struct vlr_json *json, FILE *out)
{
	int bad = 0;
	unsigned i;

	vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
	vlr_json_string(json, "label", e->label);
	vlr_json_string(json, "tables", e->dir);
	if (e->route.engine[0])
		vlr_json_string(json, "engine", e->route.engine);
	else
		vlr_json_null(json, "engine");
	vlr_json_real(json, "routing_seconds", e->route.seconds >= 0 ? e->route.seconds : NAN,
		      VLR_JSON_EXACT);
	vlr_json_uint(json, "vls_used", e->vls_used);
	vlr_json_uint(json, "sls_used", e->sls_used);
	if (e->deadlock_free == VLR_DEADLOCK_FREE_UNKNOWN)
		vlr_json_null(json, "deadlock_free");
	else
		vlr_json_bool(json, "deadlock_free", e->deadlock_free == VLR_DEADLOCK_FREE_YES);
	vlr_json_open(json, "switch_links", '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "channels", e->linkload.switch_links.channels);
	vlr_json_real(json, "min", e->linkload.switch_links.min, VLR_JSON_EXACT);
	vlr_json_real(json, "mean", e->linkload.switch_links.mean, VLR_JSON_EXACT);
	vlr_json_real(json, "max", e->linkload.switch_links.max, VLR_JSON_EXACT);
	vlr_json_close(json);
	vlr_json_string(json, "hottest", e->hottest);
	vlr_json_string(json, "hottest_class", e->hottest_class);
	vlr_json_next(json, "ebb");
	bad |= vlr_pattern_write_json(&e->ebb, out);
	vlr_json_open(json, "patterns", '[', VLR_JSON_INLINE);
	for (i = 0; i < set->pattern_count; i++) {
		vlr_json_next(json, NULL);
		bad |= vlr_pattern_write_json(&e->patterns[i], out);
	}
	vlr_json_close(json);
	vlr_json_close(json);
	return bad;
}

static int write_json(const struct compare_set *set, const struct vlr_provenance *provenance,
		      FILE *out)
{
	struct vlr_json json;
	int bad = 0;
	unsigned i;

	vlr_json_start(&json, out);
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	vlr_provenance_write_json(provenance, "provenance", &json);
	vlr_json_string(&json, "fabric", set->fabric);
	vlr_json_uint(&json, "switches", set->switches);
	vlr_json_uint(&json, "servers", set->servers);
	vlr_json_uint(&json, "instances", set->instances);
	vlr_json_uint(&json, "seed", set->seed);
	vlr_json_string(&json, "dlid_choice", vlr_dlid_choice_name(set->dlid_choice));
	vlr_json_open(&json, "sets", '[', VLR_JSON_LINES);
	for (i = 0; i < set->count; i++)
		bad |= write_entry_json(set, &set->entries[i], &json, out);
	vlr_json_close(&json);
	vlr_json_close(&json);
	bad |= fputc('\n', out) == EOF;
	return bad | vlr_json_finish(&json);
}

int compare_write_json(const char *command, const struct compare_set *set,
		       const struct vlr_provenance *provenance, const char *path)
{
	struct vlr_whole_file file;
	FILE *out = cli_result_open(command, path, &file);

	if (!out)
		return -1;
	return cli_result_close(command, path, &file, out, write_json(set, provenance, out));
}
