/*
 * cmd_sim.c - "vlroute sim DIR": replay a table set in the cycle-accurate
 * simulator at one offered load or a sweep of them, with several seeds in
 * parallel, and report throughput, latency, fairness, stability and
 * deadlocks; CSV, JSON and plots on request. "vlroute sim FABRIC" runs the
 * reference model of the Valiant studies' routing instead.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "sim_cli.h"

static const char sim_usage[] =
	"Usage: vlroute sim DIR [OPTIONS]\n"
	"       vlroute sim FABRIC [--routing valiant|rval|minimal|ugal-...|piggyback]\n"
	"                      [OPTIONS]\n"
	"Replay the tables in DIR (LFTs, path SLs, SL2VL, LMC) packet by packet, or\n"
	"route every packet of the fabric in the file FABRIC as the Valiant studies\n"
	"do (the reference model), and measure accepted load over time, latency,\n"
	"hops, fairness and stability.\n"
	"Traffic and runs:\n"
	"  -p, --traffic P        un, perm, hot, shift+I[,J...], adv+I, advr+I, advc,\n"
	"                         adv-local, all2all (default un)\n"
	"      --trace FILE       replay messages \"TIME SOURCE DEST SIZE\" instead\n"
	"  -L, --load L           offered load, phits/server/cycle in 0..1 (default 1);\n"
	"                         a sweep: a list 0.2,0.5,1 or a range 0.1:1:0.1\n"
	"  -c, --cycles N         measured cycles (default 20000)\n"
	"  -w, --warmup N         cycles before measuring (default a tenth of the\n"
	"                         measured cycles in whole bins: 2000 for 20000,\n"
	"                         none below ten bins)\n"
	"  -N, --seeds N          seeds per load (default 1)\n"
	"  -s, --seed S           first seed (default 1)\n"
	"  -j, --threads N        threads, 0 = all cores (default 0)\n"
	"      --drain            after the cycles, run until every packet arrived\n"
	"Routing at the source and VLs:\n"
	"  -m, --vl-mode M        exact (path SL + SL2VL) or ideal (the VL policy's\n"
	"                         allowed VLs, shortest queue) (default exact)\n"
	"  -d, --dlid D           base, random, recompute, restricted, adaptive or\n"
	"                         adaptive-vc-h (default base)\n"
	"      --adaptive-bias N  adaptive, adaptive-vc-h: packets the Valiant queue\n"
	"                         must win by\n"
	"                         (default 0)\n"
	"  -v, --vls N            data VLs the fabric offers, 1..15 (default: as the\n"
	"                         tables were routed (vlroute-route.info), else 8)\n"
	"  -f, --fabric FILE      topology instead of DIR/fabric.net\n"
	"The reference model (FABRIC: a HyperX, Dragonfly or Dragonfly+):\n"
	"      --routing R        valiant (an intermediate switch per packet: any\n"
	"                         switch, any Dragonfly+ leaf), rval (Restricted\n"
	"                         Valiant: drawn in the group, on a HyperX in the\n"
	"                         dimensions that differ, when both ends share it),\n"
	"                         minimal, or the Dragonfly paper's UGAL: minimal or\n"
	"                         one drawn Valiant path per packet at the source,\n"
	"                         minimal when q_m x H_m <= q_nm x H_nm, q sensed as\n"
	"                         ugal-g (the global channels leaving the group),\n"
	"                         ugal-l (the source switch's output queues),\n"
	"                         ugal-l-vc (only the VLs of each path), ugal-l-vc-h\n"
	"                         (the VLs only when both leave by the same port) or\n"
	"                         ugal-l-cr (ugal-l-vc-h, credits delayed by their\n"
	"                         round-trip latency); or piggyback (Dragonfly: the\n"
	"                         ADVc study's: ugal-l's rule with a margin of 5\n"
	"                         packets, and Valiant whenever the minimal path's\n"
	"                         global link is saturated - queued above twice the\n"
	"                         mean of its switch's global ports plus 3 - as the\n"
	"                         source heard from its group a local link latency\n"
	"                         ago) (default valiant)\n"
	"      --intermediate I   valiant, ugal-*, piggyback: switch (any switch),\n"
	"                         group (a Dragonfly group, then the switch its\n"
	"                         global link from the source group reaches, as the\n"
	"                         Dragonfly paper) or crg (a switch of a group one\n"
	"                         of the source switch's global links reaches, as\n"
	"                         the ADVc study's CRG) (default switch)\n"
	"      --recompute        valiant, rval: a packet blocked at its source\n"
	"                         switch draws a new intermediate every cycle\n"
	"      --vl-policy P      ladder, ladder-reuse or 2phases (default 2phases)\n"
	"      --phase-min M      2phases: minfirst, minlast or minboth - the phase\n"
	"                         whose VLs a packet routed minimally takes\n"
	"                         (default minfirst)\n"
	"      --vls-per-phase K  2phases: VLs per phase (default the most hops of\n"
	"                         a phase: the HyperX's dimensions, 3 on Dragonflies)\n"
	"      --phase-vls V      2phases: per-hop (hop k of a phase on its k-th VL)\n"
	"                         or free (any VL of the phase) (default per-hop;\n"
	"                         tables in ideal VL mode too, default free)\n"
	"      --dim-order ORDER  HyperX: dimension order of phase one, e.g. 1,0\n"
	"                         (default 0,1,...)\n"
	"      --phase-two-order O  HyperX: same or reverse order in phase two\n"
	"                         (default same)\n"
	"      --minimal M        family (dimension order, local-global-local,\n"
	"                         up-global-down) or shortest (any shortest path,\n"
	"                         the least-queued port) (default family)\n"
	"      --injection-vls I  policy (the first hop's VLs) or any (the lowest\n"
	"                         VL with room, as CAMINOS) (default policy)\n"
	"Switches, links and servers:\n"
	"      --packet N         phits per packet, 1..65535 (default 16)\n"
	"      --input-buffer N   input buffer per VL, packets, 1..4096 (default 4)\n"
	"      --input-buffer-local N  inputs from a switch (Dragonfly(+): of the\n"
	"                         same group), packets per VL, 1..4096\n"
	"                         (default --input-buffer)\n"
	"      --input-buffer-global N  Dragonfly(+) global link inputs, packets\n"
	"                         per VL, 1..4096 (default --input-buffer)\n"
	"      --input-buffer-injection N  inputs from a server, packets per VL,\n"
	"                         1..4096 (default --input-buffer)\n"
	"      --output-buffer N  output buffer per VL, packets, 1..255 (default 2)\n"
	"      --iterations N     allocator iterations (default 2)\n"
	"      --crossbar C       vl (each port's VLs cross on their own) or port\n"
	"                         (one packet per port at a time) (default vl)\n"
	"      --speedup N        crossbar speedup (default 1)\n"
	"      --pipeline N       switch pipeline latency, cycles (default 0)\n"
	"      --host-latency N   server link latency, cycles (default 1)\n"
	"      --local-latency N  switch link latency, cycles (default 1)\n"
	"      --global-latency N Dragonfly global link latency, cycles (default 1)\n"
	"      --queues N         injection queues per server (default 1)\n"
	"      --queue-size N     packets per injection queue (default 16)\n"
	"      --queue-select S   random, random-room (a random queue with room),\n"
	"                         dest (destination mod N) or dest-section (the\n"
	"                         servers in N runs of consecutive numbers)\n"
	"                         (default random)\n"
	"      --transit-priority transit packets before injected ones\n"
	"Measures and output:\n"
	"      --bin N            cycles per time bin (default 1000)\n"
	"      --deadlock N       no phit moving for N cycles is a deadlock\n"
	"                         (default 1000)\n"
	"      --stability-drop F a drop is a bin below (1 - F) x peak (default 0.1)\n"
	"  -J, --json FILE        provenance, configuration, and per run a summary and\n"
	"                         the accepted load per time bin as JSON (- for stdout,\n"
	"                         the report then on stderr)\n"
	"      --csv FILE         accepted load per time bin and run as CSV, warm-up\n"
	"                         bins flagged, with the table-set hash (- as --json)\n"
	"      --switch-injections  JSON: per run the packets each switch's servers\n"
	"                         injected while measuring (switch_injected), and the\n"
	"                         switches' names (switch_names)\n"
	"  -F, --plot FILE        PNG or SVG figure (gnuplot): load over time per\n"
	"                         seed, or accepted load and latency per offered load\n"
	"  -q, --quiet            no progress messages\n"
	CLI_NODE_NAME_MAP_HELP
	"  -V, --version          print the version and exit\n"
	"  -h, --help             print this help and exit\n"
	"Time bins cover the whole run from cycle 0, warm-up bins flagged; the summary\n"
	"figures are measured after the warm-up. SIGINT or SIGTERM stops the runs: the\n"
	"outputs hold those that finished, stderr names the others.\n"
	"Exit status: 0 done, 1 deadlock or failure, 2 bad input, 128 + N stopped by\n"
	"signal N (130 SIGINT, 143 SIGTERM).\n";

enum {
	OPT_TRACE = 256, OPT_DRAIN, OPT_BIAS, OPT_PACKET, OPT_INPUT, OPT_OUTPUT,
	OPT_ITERATIONS, OPT_SPEEDUP, OPT_PIPELINE, OPT_HOST, OPT_LOCAL, OPT_GLOBAL,
	OPT_QUEUES, OPT_QUEUE_SIZE, OPT_QUEUE_SELECT, OPT_TRANSIT, OPT_BIN, OPT_DEADLOCK,
	OPT_DROP, OPT_CSV, OPT_CROSSBAR, OPT_ROUTING, OPT_VL_POLICY, OPT_PHASE_MIN,
	OPT_VLS_PER_PHASE, OPT_PHASE_VLS, OPT_DIM_ORDER, OPT_PHASE_TWO_ORDER, OPT_MINIMAL,
	OPT_INJECTION_VLS, OPT_RECOMPUTE, OPT_INTERMEDIATE, OPT_INPUT_LOCAL, OPT_INPUT_GLOBAL,
	OPT_INPUT_INJECTION, OPT_SWITCH_INJECTIONS,
};

static const struct option sim_options[] = {
	{ "traffic", required_argument, NULL, 'p' },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "load", required_argument, NULL, 'L' },
	{ "cycles", required_argument, NULL, 'c' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "seeds", required_argument, NULL, 'N' },
	{ "seed", required_argument, NULL, 's' },
	{ "threads", required_argument, NULL, 'j' },
	{ "drain", no_argument, NULL, OPT_DRAIN },
	{ "vl-mode", required_argument, NULL, 'm' },
	{ "dlid", required_argument, NULL, 'd' },
	{ "adaptive-bias", required_argument, NULL, OPT_BIAS },
	{ "vls", required_argument, NULL, 'v' },
	{ "fabric", required_argument, NULL, 'f' },
	{ "routing", required_argument, NULL, OPT_ROUTING },
	{ "vl-policy", required_argument, NULL, OPT_VL_POLICY },
	{ "phase-min", required_argument, NULL, OPT_PHASE_MIN },
	{ "vls-per-phase", required_argument, NULL, OPT_VLS_PER_PHASE },
	{ "phase-vls", required_argument, NULL, OPT_PHASE_VLS },
	{ "dim-order", required_argument, NULL, OPT_DIM_ORDER },
	{ "phase-two-order", required_argument, NULL, OPT_PHASE_TWO_ORDER },
	{ "minimal", required_argument, NULL, OPT_MINIMAL },
	{ "injection-vls", required_argument, NULL, OPT_INJECTION_VLS },
	{ "recompute", no_argument, NULL, OPT_RECOMPUTE },
	{ "intermediate", required_argument, NULL, OPT_INTERMEDIATE },
	{ "packet", required_argument, NULL, OPT_PACKET },
	{ "input-buffer", required_argument, NULL, OPT_INPUT },
	{ "input-buffer-local", required_argument, NULL, OPT_INPUT_LOCAL },
	{ "input-buffer-global", required_argument, NULL, OPT_INPUT_GLOBAL },
	{ "input-buffer-injection", required_argument, NULL, OPT_INPUT_INJECTION },
	{ "output-buffer", required_argument, NULL, OPT_OUTPUT },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "crossbar", required_argument, NULL, OPT_CROSSBAR },
	{ "speedup", required_argument, NULL, OPT_SPEEDUP },
	{ "pipeline", required_argument, NULL, OPT_PIPELINE },
	{ "host-latency", required_argument, NULL, OPT_HOST },
	{ "local-latency", required_argument, NULL, OPT_LOCAL },
	{ "global-latency", required_argument, NULL, OPT_GLOBAL },
	{ "queues", required_argument, NULL, OPT_QUEUES },
	{ "queue-size", required_argument, NULL, OPT_QUEUE_SIZE },
	{ "queue-select", required_argument, NULL, OPT_QUEUE_SELECT },
	{ "transit-priority", no_argument, NULL, OPT_TRANSIT },
	{ "bin", required_argument, NULL, OPT_BIN },
	{ "deadlock", required_argument, NULL, OPT_DEADLOCK },
	{ "stability-drop", required_argument, NULL, OPT_DROP },
	{ "json", required_argument, NULL, 'J' },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "switch-injections", no_argument, NULL, OPT_SWITCH_INJECTIONS },
	{ "plot", required_argument, NULL, 'F' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct option *cmd_sim_options(void)
{
	return sim_options;
}

/* A plot's file name: .png or .svg. */
static int figure_name(const char *text)
{
	size_t n = strlen(text);

	return n >= 5 && (!strcmp(text + n - 4, ".png") || !strcmp(text + n - 4, ".svg"));
}

/*
 * The short options of earlier releases. "-p FILE", the plot, only where
 * FILE is a figure's name (no pattern is); "-s" is the first seed now.
 */
static const struct cli_renamed sim_renamed[] = {
	{ 't', 'p', "P", "traffic", NULL, NULL },
	{ 'l', 'L', "L", "load", NULL, NULL },
	{ 'p', 'F', "FILE", "plot", figure_name, NULL },
	{ 's', 's', "S", "seed", NULL, "the number of seeds, now -N N (--seeds)" },
	{ 0 },
};

/* An option that sets a whole number of the configuration. */
struct number_option {
	int option;
	const char *name;
	unsigned long long min;
	unsigned long long max;
};

static const struct number_option number_options[] = {
	{ 'c', "--cycles", 1, 1ull << 40 },
	{ 'w', "--warmup", 0, 1ull << 40 },
	{ 'N', "--seeds", 1, 10000 },
	{ 's', "--seed", 0, UINT64_MAX / 2 },
	{ 'j', "--threads", 0, 1024 },
	{ OPT_BIAS, "--adaptive-bias", 0, 1000000 },
	{ 'v', "--vls", 1, VLR_MAX_DATA_VLS },
	{ OPT_PACKET, "--packet", 1, 65535 },
	{ OPT_INPUT, "--input-buffer", 1, 4096 },
	{ OPT_INPUT_LOCAL, "--input-buffer-local", 1, 4096 },
	{ OPT_INPUT_GLOBAL, "--input-buffer-global", 1, 4096 },
	{ OPT_INPUT_INJECTION, "--input-buffer-injection", 1, 4096 },
	{ OPT_OUTPUT, "--output-buffer", 1, 255 },
	{ OPT_ITERATIONS, "--iterations", 1, 16 },
	{ OPT_SPEEDUP, "--speedup", 1, 64 },
	{ OPT_PIPELINE, "--pipeline", 0, 1000 },
	{ OPT_HOST, "--host-latency", 1, 255 },
	{ OPT_LOCAL, "--local-latency", 1, 255 },
	{ OPT_GLOBAL, "--global-latency", 1, 255 },
	{ OPT_QUEUES, "--queues", 1, 64 },
	{ OPT_QUEUE_SIZE, "--queue-size", 1, 65535 },
	{ OPT_BIN, "--bin", 1, UINT32_MAX },
	{ OPT_DEADLOCK, "--deadlock", 1, 1ull << 40 },
};

static void store_number(struct sim_cli *cli, int option, unsigned long long value)
{
	struct vlr_sim_config *c = &cli->config;

	switch (option) {
	case 'c': c->cycles = value; break;
	case 'w': c->warmup = value; break;
	case 'N': cli->seeds = (unsigned)value; break;
	case 's': cli->first_seed = value; break;
	case 'j': cli->threads = (unsigned)value; break;
	case OPT_BIAS: c->adaptive_bias = (unsigned)value; break;
	case 'v': cli->vls = (unsigned)value; break;
	case OPT_PACKET: c->packet_phits = (unsigned)value; break;
	case OPT_INPUT: c->input_packets = (unsigned)value; break;
	case OPT_INPUT_LOCAL: c->input_local_packets = (unsigned)value; break;
	case OPT_INPUT_GLOBAL: c->input_global_packets = (unsigned)value; break;
	case OPT_INPUT_INJECTION: c->input_injection_packets = (unsigned)value; break;
	case OPT_OUTPUT: c->output_packets = (unsigned)value; break;
	case OPT_ITERATIONS: c->iterations = (unsigned)value; break;
	case OPT_SPEEDUP: c->speedup = (unsigned)value; break;
	case OPT_PIPELINE: c->pipeline = (unsigned)value; break;
	case OPT_HOST: c->host_latency = (unsigned)value; break;
	case OPT_LOCAL: c->local_latency = (unsigned)value; break;
	case OPT_GLOBAL: c->global_latency = (unsigned)value; break;
	case OPT_QUEUES: c->injection_queues = (unsigned)value; break;
	case OPT_QUEUE_SIZE: c->queue_packets = (unsigned)value; break;
	case OPT_BIN: c->bin = (unsigned)value; break;
	case OPT_DEADLOCK: c->deadlock_cycles = value; break;
	}
}

/* 0 parsed, -1 a bad value (complained), 1 not a number option. */
static int number_option(struct sim_cli *cli, int option, const char *text)
{
	unsigned long long value;
	size_t i;

	for (i = 0; i < sizeof(number_options) / sizeof(number_options[0]); i++) {
		if (number_options[i].option != option)
			continue;
		if (cli_unsigned(cli->command, number_options[i].name, text,
				 number_options[i].min, number_options[i].max, &value))
			return -1;
		store_number(cli, option, value);
		return 0;
	}
	return 1;
}

static int parse_fraction(const char *command, const char *option, const char *text,
			  double *value)
{
	char *end;

	errno = 0;
	*value = strtod(text, &end);
	if (!*text || *end || errno || !(*value > 0 && *value < 1)) {
		cli_error(command, "%s needs a number between 0 and 1, not \"%s\"", option, text);
		return -1;
	}
	return 0;
}

static int plot_option(struct sim_cli *cli, const char *text)
{
	if (!figure_name(text)) {
		cli_error(cli->command, "--plot %s: a plot file name ends in .png or .svg", text);
		return -1;
	}
	cli->plot = text;
	return 0;
}

static int text_option(struct sim_cli *cli, int option, const char *text)
{
	struct vlr_sim_config *c = &cli->config;
	struct vlr_error err;
	int status = 0;

	switch (option) {
	case 'p': status = vlr_pattern_parse(text, &c->pattern, &err); break;
	case 'm': status = vlr_sim_vl_mode_parse(text, &c->vl_mode, &err); break;
	case 'd': status = vlr_sim_dlid_parse(text, &c->dlid, &err); break;
	case OPT_QUEUE_SELECT:
		status = vlr_sim_queue_select_parse(text, &c->queue_select, &err);
		break;
	case OPT_CROSSBAR: status = vlr_sim_crossbar_parse(text, &c->crossbar, &err); break;
	case 'L': return sim_cli_parse_loads(cli, text);
	case OPT_DROP:
		return parse_fraction(cli->command, "--stability-drop", text,
				      &c->stability_drop);
	case OPT_TRACE: cli->trace_path = text; return 0;
	case 'f': cli->fabric_path = text; return 0;
	case 'J': cli->json = text; return 0;
	case OPT_CSV: cli->csv = text; return 0;
	case 'F': return plot_option(cli, text);
	case OPT_DRAIN: c->drain = 1; return 0;
	case OPT_TRANSIT: c->transit_priority = 1; return 0;
	case OPT_SWITCH_INJECTIONS: c->switch_injections = 1; return 0;
	case 'q': cli->quiet = 1; return 0;
	case CLI_OPT_NODE_NAME_MAP: cli->name_map = text; return 0;
	default: return 1;
	}
	if (status)
		cli_error(cli->command, "%s", err.message);
	return status;
}

/* "--phase-two-order same|reverse". */
static int parse_order(struct sim_cli *cli, const char *text)
{
	if (strcmp(text, "same") && strcmp(text, "reverse")) {
		cli_error(cli->command, "--phase-two-order is same or reverse, not \"%s\"", text);
		return -1;
	}
	cli->phase_two_reversed = !strcmp(text, "reverse");
	return 0;
}

/* The reference model's options; 1 if option is none of them. */
static int reference_option(struct sim_cli *cli, int option, const char *text)
{
	struct vlr_sim_reference *r = &cli->config.reference;
	struct vlr_error err;
	unsigned long long value;
	int status = 0;

	switch (option) {
	case OPT_ROUTING: status = vlr_sim_routing_parse(text, &r->routing, &err); break;
	case OPT_VL_POLICY: status = vlr_vl_policy_parse(text, &r->policy.kind, &err); break;
	case OPT_PHASE_MIN: status = vlr_phase_min_parse(text, &r->policy.phase_min, &err); break;
	case OPT_PHASE_VLS:
		status = vlr_sim_phase_vls_parse(text, &cli->config.phase_vls, &err);
		break;
	case OPT_MINIMAL: status = vlr_sim_minimal_parse(text, &r->minimal, &err); break;
	case OPT_INTERMEDIATE:
		status = vlr_sim_intermediate_parse(text, &r->intermediate, &err);
		break;
	case OPT_INJECTION_VLS:
		status = vlr_sim_injection_vls_parse(text, &r->injection, &err);
		break;
	case OPT_DIM_ORDER:
		status = vlr_dim_order_parse(text, cli->next_hops.dim_order,
					     &cli->next_hops.dim_order_count, &err);
		break;
	case OPT_VLS_PER_PHASE:
		if (cli_unsigned(cli->command, "--vls-per-phase", text, 1, VLR_MAX_DATA_VLS / 2,
				 &value))
			return -1;
		r->policy.vls_per_phase = (unsigned)value;
		return 0;
	case OPT_PHASE_TWO_ORDER: return parse_order(cli, text);
	case OPT_RECOMPUTE: r->recompute = 1; return 0;
	default: return 1;
	}
	if (status)
		cli_error(cli->command, "%s", err.message);
	return status;
}

/* The long name of option, for complaints. */
static const char *option_name(int option)
{
	const struct option *o;

	for (o = sim_options; o->name; o++)
		if (o->val == option)
			return o->name;
	return "?";
}

/* Options of one kind of run only: remember the first of each kind. */
static void note_kind(struct sim_cli *cli, int option)
{
	static const int table_only[] = { 'm', 'd', OPT_BIAS, 'v', 'f' };
	size_t i;

	if (option >= OPT_ROUTING && option <= OPT_INTERMEDIATE && option != OPT_PHASE_VLS &&
	    !cli->reference_option)
		cli->reference_option = option_name(option);
	for (i = 0; i < sizeof(table_only) / sizeof(table_only[0]); i++)
		if (option == table_only[i] && !cli->table_option)
			cli->table_option = option_name(option);
}

/* A table directory or a fabric file, and only the options that fit it. */
static int check_kind(struct sim_cli *cli)
{
	struct stat st;

	if (stat(cli->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if (cli->table_option) {
			cli_error(cli->command, "--%s is for a table directory; %s is a fabric "
				  "file, simulated by the reference model", cli->table_option,
				  cli->dir);
			return -1;
		}
		if (cli->config.reference.routing == VLR_SIM_ROUTING_TABLES) {
			cli_error(cli->command, "--routing tables needs a table directory; %s "
				  "is a file", cli->dir);
			return -1;
		}
		return 0;
	}
	if (cli->reference_option) {
		cli_error(cli->command, "--%s is for the reference model, which takes a fabric "
			  "file; %s is a table directory", cli->reference_option, cli->dir);
		return -1;
	}
	cli->config.reference.routing = VLR_SIM_ROUTING_TABLES;
	return 0;
}

/* What parse_options returns after printing the help or the version. */
#define SIM_HELP_SHOWN (-1)

/* CLI_OK to go on, SIM_HELP_SHOWN, or CLI_BAD_INPUT. */
static int parse_options(struct sim_cli *cli, int argc, char **argv)
{
	int option, status;

	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(cli->command, argc, argv,
				    "p:L:c:w:N:s:j:m:d:v:f:J:F:qVht:l:", sim_options,
				    sim_renamed)) != -1) {
		if (option == 'h') {
			cli_usage(stdout, sim_usage, CLI_OK);
			return SIM_HELP_SHOWN;
		}
		if (option == 'V') {
			cli_version();
			return SIM_HELP_SHOWN;
		}
		note_kind(cli, option);
		status = number_option(cli, option, optarg);
		if (status == 1)
			status = text_option(cli, option, optarg);
		if (status == 1)
			status = reference_option(cli, option, optarg);
		if (status == 1)
			cli_unknown_option(cli->command, argv, optopt);
		if (status)
			return CLI_BAD_INPUT;
	}
	if (argc - optind != 1) {
		cli_error(cli->command, "needs exactly one table directory or fabric file "
			  "(see --help)");
		return CLI_BAD_INPUT;
	}
	if (cli_is_stdout(cli->json) && cli_is_stdout(cli->csv)) {
		cli_error(cli->command, "--json - and --csv - would mix on standard output; "
			  "write one of them to a file");
		return CLI_BAD_INPUT;
	}
	if (cli_is_stdout(cli->json) || cli_is_stdout(cli->csv))
		cli->report = stderr;
	cli->dir = argv[optind];
	return check_kind(cli) ? CLI_BAD_INPUT : CLI_OK;
}

int cmd_sim(int argc, char **argv, const char *command_line)
{
	struct sim_cli cli;
	int status;

	sim_cli_init(&cli, command_line);
	status = parse_options(&cli, argc, argv);
	if (status == SIM_HELP_SHOWN)
		status = CLI_OK;
	else if (status == CLI_OK)
		status = sim_cli_run(&cli);
	sim_cli_free(&cli);
	return status;
}
