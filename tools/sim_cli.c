/*
 * sim_cli.c - running "vlroute sim": tables, trace, the runs with progress
 * on stderr, the report on stdout (stderr when the JSON or CSV goes to
 * stdout), and the CSV, JSON and plot files with the runs that finished
 * when SIGINT or SIGTERM stopped them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sim_cli.h"

void sim_cli_init(struct sim_cli *cli, const char *command_line)
{
	memset(cli, 0, sizeof(*cli));
	cli->command = "vlroute sim";
	cli->command_line = command_line;
	cli->report = stdout;
	vlr_sim_config_default(&cli->config);
	cli->config.cancel = &cli->watch.stop;
	cli->loads[0] = 1.0;
	cli->num_loads = 1;
	cli->seeds = 1;
	cli->first_seed = 1;
	vlr_engine_options_init(&cli->next_hops);
	cli->config.reference.routing = VLR_SIM_ROUTING_VALIANT;
	cli->config.reference.policy.kind = VLR_VLP_TWO_PHASES;
	cli->config.reference.policy.phase_min = VLR_MIN_FIRST;
}

void sim_cli_free(struct sim_cli *cli)
{
	vlr_sim_trace_free((struct vlr_sim_trace *)cli->config.trace);
	cli->config.trace = NULL;
	vlr_provenance_free(&cli->provenance);
	vlr_switch_routes_free(&cli->routes[0]);
	vlr_switch_routes_free(&cli->routes[1]);
}

static int parse_load(const char *command, const char *text, size_t length, double *load)
{
	char buf[64], *end;

	if (length && length < sizeof(buf)) {
		memcpy(buf, text, length);
		buf[length] = 0;
		errno = 0;
		*load = strtod(buf, &end);
		if (!*end && !errno && *load >= 0 && *load <= 1)
			return 0;
	}
	cli_error(command, "--load needs loads in 0..1 (phits per server per cycle): "
		  "L, L1,L2,... or FROM:TO:STEP; not \"%s\"", text);
	return -1;
}

static int parse_range(struct sim_cli *cli, const char *text)
{
	const char *colon1 = strchr(text, ':'), *colon2 = strchr(colon1 + 1, ':');
	double from, to, step;
	unsigned i;

	if (!colon2 || parse_load(cli->command, text, (size_t)(colon1 - text), &from) ||
	    parse_load(cli->command, colon1 + 1, (size_t)(colon2 - colon1 - 1), &to) ||
	    parse_load(cli->command, colon2 + 1, strlen(colon2 + 1), &step))
		return colon2 ? -1 : parse_load(cli->command, text, 0, &from);
	if (step <= 0 || to < from || (to - from) / step >= SIM_CLI_MAX_LOADS) {
		cli_error(cli->command, "--load %s: needs FROM <= TO and at most %u steps",
			  text, SIM_CLI_MAX_LOADS);
		return -1;
	}
	for (i = 0; from + i * step <= to + step * 1e-9; i++)
		cli->loads[i] = from + i * step;
	cli->num_loads = i;
	return 0;
}

int sim_cli_parse_loads(struct sim_cli *cli, const char *text)
{
	const char *p = text, *comma;

	if (strchr(text, ':'))
		return parse_range(cli, text);
	cli->num_loads = 0;
	for (;;) {
		comma = strchr(p, ',');
		if (cli->num_loads == SIM_CLI_MAX_LOADS) {
			cli_error(cli->command, "--load: more than %u loads", SIM_CLI_MAX_LOADS);
			return -1;
		}
		if (parse_load(cli->command, p, comma ? (size_t)(comma - p) : strlen(p),
			       &cli->loads[cli->num_loads++]))
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int reference(const struct sim_cli *cli)
{
	return cli->config.reference.routing != VLR_SIM_ROUTING_TABLES;
}

/* Table replay with per-hop phase VLs says so after its VL mode. */
static const char *per_hop_tables(const struct vlr_sim_config *c)
{
	return c->vl_mode == VLR_SIM_VL_IDEAL && c->phase_vls == VLR_SIM_PHASE_VLS_PER_HOP ?
	       " per-hop" : "";
}

/*
 * "reference model, valiant, 2phases minfirst K=2 (4 VLs), per-hop", with
 * the defaults the simulation resolved (K, the VLs).
 */
static void describe_model(const struct vlr_sim *sim, char *out, size_t size)
{
	const struct vlr_sim_reference *r = &vlr_sim_config_of(sim)->reference;
	char policy[128];

	vlr_vl_policy_describe(&r->policy, policy, sizeof(policy));
	snprintf(out, size, "reference model, %s%s%s, %s%s%s%s%s",
		 vlr_sim_routing_name(r->routing), r->recompute ? " with recomputation" : "",
		 r->intermediate == VLR_SIM_INTERMEDIATE_GROUP ? " by group" :
		 r->intermediate == VLR_SIM_INTERMEDIATE_CRG ? " by CRG" : "",
		 policy, r->policy.kind == VLR_VLP_TWO_PHASES ? ", " : "",
		 r->policy.kind == VLR_VLP_TWO_PHASES ?
		 vlr_sim_phase_vls_name(vlr_sim_config_of(sim)->phase_vls) : "",
		 r->minimal == VLR_SIM_MINIMAL_SHORTEST ? ", shortest paths" : "",
		 r->injection == VLR_SIM_INJECTION_ANY ? ", injection on any VL" : "");
}

static void progress(const struct vlr_sim_progress *p, void *data)
{
	const struct sim_cli *cli = data;
	int tty = isatty(STDERR_FILENO);

	if (p->seconds < 2 || (!tty && (unsigned)p->seconds % 10))
		return;
	fprintf(stderr, "%s: %u of %u runs done, %.0f%% of cycles, %.0f s%s", cli->command,
		p->runs_done, p->runs,
		p->cycles ? 100.0 * (double)p->cycles_done / (double)p->cycles : 100.0,
		p->seconds, tty ? "   \r" : "\n");
}

/* "2000 warm-up (bins 0-1) + 20000 measured, bins of 1000". */
static void print_cycles(FILE *out, const struct vlr_sim_config *c)
{
	uint64_t warmup_bins = (c->warmup + c->bin - 1) / c->bin;

	fprintf(out, "cycles:            %llu warm-up", (unsigned long long)c->warmup);
	if (warmup_bins == 1)
		fprintf(out, " (bin 0)");
	else if (warmup_bins > 1)
		fprintf(out, " (bins 0-%llu)", (unsigned long long)warmup_bins - 1);
	fprintf(out, " + %llu measured, bins of %u from cycle 0\n",
		(unsigned long long)c->cycles, c->bin);
}

static void print_header(const struct sim_cli *cli, const struct vlr_sim *sim)
{
	const struct vlr_sim_config *c = vlr_sim_config_of(sim);
	FILE *out = cli->report;
	char pattern[64], model[256];

	if (c->trace)
		snprintf(pattern, sizeof(pattern), "trace %s", cli->trace_path);
	else
		vlr_pattern_name(&c->pattern, pattern, sizeof(pattern));
	fprintf(out, "servers:           %u\n", vlr_sim_num_servers(sim));
	fprintf(out, "traffic:           %s\n", pattern);
	if (reference(cli)) {
		describe_model(sim, model, sizeof(model));
		fprintf(out, "routing:           %s\n", model);
		fprintf(out, "VLs:               %u\n", vlr_sim_num_vls(sim));
	} else {
		fprintf(out, "VLs:               %u, %s%s\n", vlr_sim_num_vls(sim),
			vlr_sim_vl_mode_name(c->vl_mode), per_hop_tables(c));
		fprintf(out, "DLID choice:       %s\n", vlr_dlid_choice_name(c->dlid));
	}
	print_cycles(out, c);
	fprintf(out, "memory per run:    %.1f MB\n", (double)vlr_sim_run_bytes(sim) / 1e6);
	fprintf(out, "%-8s %-5s %-9s %-9s %-5s %-5s %-5s %-9s %-8s %-6s %-4s %s\n", "offered",
		"seed", "accepted", "latency", "p50", "p99", "hops", "inj.min", "max/min",
		"cv", "stab", "cycles/s");
}

/* A run's line; "-" for the latencies and hops when no packet was measured. */
static void print_run(FILE *out, const struct vlr_sim_result *r)
{
	char latency[64] = "-", p50[32] = "-", p99[32] = "-", hops[32] = "-";

	if (r->measured_packets) {
		snprintf(latency, sizeof(latency), "%.1f", r->latency_avg);
		snprintf(p50, sizeof(p50), "%llu", (unsigned long long)r->latency_p50);
		snprintf(p99, sizeof(p99), "%llu", (unsigned long long)r->latency_p99);
		snprintf(hops, sizeof(hops), "%.2f", r->hops_avg);
	}
	fprintf(out, "%-8.3f %-5llu %-9.4f %-9s %-5s %-5s %-5s %-9.0f %-8.3f %-6.3f "
		"%-4d %.0f\n", r->offered, (unsigned long long)r->seed, r->accepted,
		latency, p50, p99, hops, r->inject_min, r->inject_max_over_min, r->inject_cv,
		r->stability, r->seconds > 0 ? (double)r->cycles / r->seconds : 0.0);
}

/* Print every completed run; complain about deadlocks; 1 if any. */
static int report(const struct sim_cli *cli, const struct vlr_sim_result *results,
		  unsigned count)
{
	unsigned i;
	int deadlock = 0;

	for (i = 0; i < count; i++) {
		if (!results[i].completed)
			continue;
		print_run(cli->report, &results[i]);
		if (vlr_sim_routing_is_ugal(cli->config.reference.routing))
			fprintf(cli->report, "         non-minimal %.1f%%, latency minimal %.1f, "
				"non-minimal %.1f\n", 100.0 * results[i].nonminimal,
				results[i].latency_minimal_avg,
				results[i].latency_nonminimal_avg);
	}
	for (i = 0; i < count; i++) {
		if (!results[i].completed || !results[i].deadlock)
			continue;
		deadlock = 1;
		cli_error(cli->command, "deadlock at cycle %llu (load %g, seed %llu): no phit "
			  "moved for %llu cycles; blocked channels: %s",
			  (unsigned long long)results[i].deadlock_cycle, results[i].offered,
			  (unsigned long long)results[i].seed,
			  (unsigned long long)cli->config.deadlock_cycles,
			  results[i].deadlock_report);
	}
	return deadlock;
}

/* Write one output file with writer; 0 or -1 (complained). */
static int write_file(const struct sim_cli *cli, const char *path, const struct vlr_sim *sim,
		      const struct vlr_sim_result *results, unsigned count, int csv)
{
	struct vlr_whole_file file;
	FILE *out = cli_result_open(cli->command, path, &file);

	if (!out)
		return -1;
	return cli_result_close(cli->command, path, &file, out,
				csv ? vlr_sim_write_csv(results, count,
							cli->provenance.tables[0].sha256, out) :
				vlr_sim_write_json(sim, results, count, &cli->provenance, out));
}

/*
 * What was simulated, for the figure's title, without the paths: "valiant
 * tables of dragonfly p=6 a=12 h=6 g=73 arrangement=palmtree" (the engine
 * from vlroute-route.info, the fabric as the family it was generated as).
 */
static void describe_tables(const struct sim_cli *cli, const struct vlr_tables *tables,
			    char *out, size_t size)
{
	struct vlr_fabric_summary summary;
	struct vlr_family_params params;
	struct vlr_route_info info;
	struct vlr_error err;
	char fabric[160];

	if (reference(cli) || vlr_route_info_read(cli->dir, &info, &err))
		info.engine[0] = '\0';
	if (vlr_recognise_family(tables->fabric, &params)) {
		vlr_family_describe(&params, fabric, sizeof(fabric));
	} else {
		vlr_fabric_summarise(tables->fabric, &summary);
		snprintf(fabric, sizeof(fabric), "a fabric of %u switches and %u CAs",
			 summary.switches, summary.cas);
	}
	if (reference(cli))
		snprintf(out, size, "%s", fabric);
	else
		snprintf(out, size, "%s%stables of %s", info.engine, info.engine[0] ? " " : "",
			 fabric);
}

static int write_plot(const struct sim_cli *cli, const struct vlr_tables *tables,
		      const struct vlr_sim *sim, const struct vlr_sim_result *results)
{
	char title[640], what[256], pattern[64], loads[64], how[192];
	struct vlr_error err;

	describe_tables(cli, tables, what, sizeof(what));
	vlr_pattern_name(&cli->config.pattern, pattern, sizeof(pattern));
	if (cli->num_loads == 1)
		snprintf(loads, sizeof(loads), "load %g", cli->loads[0]);
	else
		snprintf(loads, sizeof(loads), "loads %g to %g", cli->loads[0],
			 cli->loads[cli->num_loads - 1]);
	if (reference(cli))
		describe_model(sim, how, sizeof(how));
	else
		snprintf(how, sizeof(how), "DLID %s, %s%s VLs",
			 vlr_dlid_choice_name(cli->config.dlid),
			 vlr_sim_vl_mode_name(cli->config.vl_mode),
			 per_hop_tables(vlr_sim_config_of(sim)));
	snprintf(title, sizeof(title), "%s, %s, %s, %s", what,
		 cli->config.trace ? "trace" : pattern, loads, how);
	if (sim_plot(results, cli->num_loads, cli->seeds, title, cli->plot, &err)) {
		cli_error(cli->command, "%s", err.message);
		return -1;
	}
	return 0;
}

static unsigned completed_runs(const struct vlr_sim_result *results, unsigned count)
{
	unsigned i, completed = 0;

	for (i = 0; i < count; i++)
		completed += results[i].completed != 0;
	return completed;
}

static int write_files(const struct sim_cli *cli, const struct vlr_tables *tables,
		       const struct vlr_sim *sim, const struct vlr_sim_result *results,
		       unsigned count)
{
	int failed = 0;

	if (cli->csv && write_file(cli, cli->csv, sim, results, count, 1))
		failed = 1;
	if (cli->json && write_file(cli, cli->json, sim, results, count, 0))
		failed = 1;
	if (cli->plot && !completed_runs(results, count))
		cli_error(cli->command, "no run finished: no plot");
	else if (cli->plot && write_plot(cli, tables, sim, results))
		failed = 1;
	return failed;
}

/* "SIGTERM: 3 of 8 runs did not finish ...: load 0.5 seed 2, ...". */
static void name_unfinished(const struct sim_cli *cli, const struct vlr_sim_result *results,
			    unsigned count)
{
	unsigned i, n = 0, left = count - completed_runs(results, count);

	fprintf(stderr, "%s: %s: %u of %u runs did not finish and are not in the outputs: ",
		cli->command,
		cli_signal_name(__atomic_load_n(&cli->watch.signal, __ATOMIC_RELAXED)),
		left, count);
	for (i = 0; i < count; i++)
		if (!results[i].completed)
			fprintf(stderr, "%sload %g seed %llu", !n++ ? "" : n == left ? " and " : ", ",
				results[i].offered, (unsigned long long)results[i].seed);
	fputc('\n', stderr);
}

/*
 * The runs, with SIGINT and SIGTERM watched until every output is
 * written: a signal stops the runs, and what finished is reported and
 * written; the status is then 128 + the signal.
 */
static int run_and_write(struct sim_cli *cli, const struct vlr_tables *tables,
			 const struct vlr_sim *sim, struct vlr_sim_result *results)
{
	unsigned count = cli->num_loads * cli->seeds;
	struct vlr_error err;
	int status = CLI_OK, signal;

	if (cli_signal_watch_start(cli->command, &cli->watch))
		return CLI_FAILED;
	if (vlr_sim_run_all(sim, cli->loads, cli->num_loads, cli->first_seed, cli->seeds,
			    cli->threads, results, cli->quiet ? NULL : progress, cli, &err)) {
		cli_error(cli->command, "%s", err.message);
		cli_signal_watch_stop(&cli->watch);
		return CLI_FAILED;
	}
	if (completed_runs(results, count) < count)
		name_unfinished(cli, results, count);
	if (report(cli, results, count))
		status = CLI_FAILED;
	if (write_files(cli, tables, sim, results, count))
		status = CLI_FAILED;
	signal = cli_signal_watch_stop(&cli->watch);
	return signal ? 128 + signal : status;
}

static int simulate(struct sim_cli *cli, const struct vlr_tables *tables,
		    const struct vlr_sim *sim)
{
	unsigned count = cli->num_loads * cli->seeds, i;
	struct vlr_sim_result *results = calloc(count, sizeof(*results));
	int status;

	if (!results) {
		cli_error(cli->command, "out of memory for %u runs", count);
		return CLI_FAILED;
	}
	print_header(cli, sim);
	fflush(cli->report);
	status = run_and_write(cli, tables, sim, results);
	for (i = 0; i < count; i++)
		vlr_sim_result_free(&results[i]);
	free(results);
	return status;
}

static int read_trace(struct sim_cli *cli, const struct vlr_tables *tables)
{
	struct vlr_servers servers;
	struct vlr_error err;

	if (vlr_servers_build(tables, NULL, &servers, &err)) {
		cli_error(cli->command, "%s", err.message);
		return -1;
	}
	cli->config.trace = vlr_sim_trace_read(cli->trace_path, servers.count, &err);
	vlr_servers_free(&servers);
	if (!cli->config.trace) {
		cli_error(cli->command, "%s", err.message);
		return -1;
	}
	return 0;
}

/*
 * The ideal form can deadlock where its dependencies have a cycle: say so.
 * (Per-hop phase VLs rise with every hop of a route: no cycle to warn of.)
 */
static void warn_ideal_cycle(const struct sim_cli *cli, const struct vlr_tables *tables)
{
	char verdict[VLR_VERIFY_CYCLE_SIZE + 64];

	if (cli_ideal_form(tables, VLR_FAMILY_NONE, verdict, sizeof(verdict)) == CLI_IDEAL_CYCLE)
		cli_error(cli->command, "warning: the ideal form of the tables' VL policy is %s: "
			  "packets may deadlock", verdict);
}

/* Tables made for ideal VLs only say so (exact VLs refused them). */
static void print_mark(const struct sim_cli *cli, const struct vlr_tables *tables)
{
	char why[128];

	vlr_unprogrammable_describe(&tables->unprogrammable, why, sizeof(why));
	if (why[0])
		fprintf(cli->report, "tables:            %s (ideal VLs only)\n",
			why);
}

/* The provenance of the reference model's JSON and CSV: the fabric, the seeds. */
static int record_model_provenance(struct sim_cli *cli, const struct vlr_sim *sim)
{
	char model[256];

	describe_model(sim, model, sizeof(model));
	if (cli_provenance_init(cli->command, cli->command_line, &cli->provenance) ||
	    cli_provenance_fabric(cli->command, &cli->provenance, cli->dir, model))
		return -1;
	cli->provenance.first_seed = cli->first_seed;
	cli->provenance.num_seeds = cli->seeds;
	return 0;
}

/* The provenance of the JSON and CSV: the tables, the fabric read, the seeds. */
static int record_provenance(struct sim_cli *cli, const char *fabric)
{
	if (cli_provenance_init(cli->command, cli->command_line, &cli->provenance) ||
	    cli_provenance_tables(cli->command, &cli->provenance, cli->dir, fabric))
		return -1;
	cli->provenance.first_seed = cli->first_seed;
	cli->provenance.num_seeds = cli->seeds;
	return 0;
}

/* The tables in cli->dir, or the reference model's; NULL having complained. */
static struct vlr_tables *read_tables(struct sim_cli *cli, int *status)
{
	struct vlr_tables_dir_notes notes;
	struct vlr_tables *tables;
	struct vlr_error err;

	if (reference(cli))
		return sim_reference_tables(cli, status);
	tables = vlr_tables_read_dir(cli->dir, cli->fabric_path, cli->vls, &notes, &err);
	if (!tables) {
		cli_error(cli->command, "%s", err.message);
		*status = CLI_BAD_INPUT;
		return NULL;
	}
	if ((cli->json || cli->csv) && record_provenance(cli, notes.topology)) {
		*status = CLI_FAILED;
		vlr_tables_free(tables);
		return NULL;
	}
	return tables;
}

int sim_cli_run(struct sim_cli *cli)
{
	struct vlr_tables *tables;
	struct vlr_sim *sim;
	struct vlr_error err;
	unsigned named;
	int status;

	tables = read_tables(cli, &status);
	if (!tables)
		return status;
	if ((cli->trace_path && read_trace(cli, tables)) ||
	    cli_rename_nodes(cli->command, cli->name_map, tables->fabric, &named)) {
		vlr_tables_free(tables);
		return CLI_BAD_INPUT;
	}
	sim = vlr_sim_new(tables, &cli->config, &err);
	if (!sim) {
		cli_error(cli->command, "%s", err.message);
		vlr_tables_free(tables);
		return CLI_BAD_INPUT;
	}
	if (reference(cli) && (cli->json || cli->csv) && record_model_provenance(cli, sim)) {
		vlr_sim_free(sim);
		vlr_tables_free(tables);
		return CLI_FAILED;
	}
	if (!reference(cli) && cli->config.vl_mode == VLR_SIM_VL_IDEAL &&
	    cli->config.phase_vls != VLR_SIM_PHASE_VLS_PER_HOP)
		warn_ideal_cycle(cli, tables);
	print_mark(cli, tables);
	status = simulate(cli, tables, sim);
	vlr_sim_free(sim);
	vlr_tables_free(tables);
	return status;
}
