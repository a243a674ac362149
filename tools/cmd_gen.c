/*
 * cmd_gen.c - "vlroute gen FAMILY ...": write a generated fabric as an
 * ibsim net file.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char gen_usage[] =
	"Usage: vlroute gen FAMILY [OPTIONS] [-o FILE]\n"
	"Write a generated fabric as an ibsim net file (stdout without -o).\n"
	"\n"
	"Families:\n"
	"  hyperx      -s SIDES [-p HOSTS]\n"
	"  torus       -s SIDES [-p HOSTS]\n"
	"  dragonfly   -p HOSTS -a ROUTERS -h GLOBALS [-g GROUPS] [--arrangement ARR]\n"
	"  dragonfly+  -L LEAVES -S SPINES -p HOSTS -h GLOBALS [-g GROUPS]\n"
	"              [--arrangement ARR]\n"
	"  fattree     -k ARITY -n LEVELS\n"
	"  random      -n SWITCHES -d DEGREE [-l LINKS] [-p HOSTS] [--seed SEED]\n"
	"  xgft        -m M1,...,MH -w W1,...,WH [-e ENDPOINTS]\n"
	"  kautz       -b B -n N [-p HOSTS | -e ENDPOINTS]\n"
	"\n"
	"Run \"vlroute gen FAMILY --help\" for a family's options; vlroute(1)\n"
	"documents the exact wiring of each.\n"
	"  -V, --version  print the version and exit\n"
	"  -h, --help     print this help and exit\n";

struct gen_family {
	const char *name;
	enum vlr_family family;
	const char *short_options;
	const struct option *long_options;
	const char *usage;
};

static const struct option grid_options[] = {
	{ "sides", required_argument, NULL, 's' },
	{ "hosts", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option dragonfly_options[] = {
	{ "hosts", required_argument, NULL, 'p' },
	{ "routers", required_argument, NULL, 'a' },
	{ "globals", required_argument, NULL, 'h' },
	{ "groups", required_argument, NULL, 'g' },
	{ "arrangement", required_argument, NULL, 'A' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option dragonflyplus_options[] = {
	{ "leaves", required_argument, NULL, 'L' },
	{ "spines", required_argument, NULL, 'S' },
	{ "hosts", required_argument, NULL, 'p' },
	{ "globals", required_argument, NULL, 'h' },
	{ "groups", required_argument, NULL, 'g' },
	{ "arrangement", required_argument, NULL, 'A' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option fattree_options[] = {
	{ "arity", required_argument, NULL, 'k' },
	{ "levels", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option random_options[] = {
	{ "switches", required_argument, NULL, 'n' },
	{ "degree", required_argument, NULL, 'd' },
	{ "links", required_argument, NULL, 'l' },
	{ "hosts", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, 'R' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option xgft_options[] = {
	{ "children", required_argument, NULL, 'm' },
	{ "parents", required_argument, NULL, 'w' },
	{ "endpoints", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct option kautz_options[] = {
	{ "out-degree", required_argument, NULL, 'b' },
	{ "length", required_argument, NULL, 'n' },
	{ "hosts", required_argument, NULL, 'p' },
	{ "endpoints", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static const struct gen_family families[] = {
	{ "hyperx", VLR_FAMILY_HYPERX, "s:p:o:V", grid_options,
	  "Usage: vlroute gen hyperx -s SIDES [-p HOSTS] [-o FILE]\n"
	  "HyperX: a switch per grid point, linked to every switch that differs\n"
	  "in one coordinate.\n"
	  "  -s, --sides S0xS1x...  side of each dimension (2..65536; 1..8 dimensions)\n"
	  "  -p, --hosts T          hosts per switch (default 1)\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "torus", VLR_FAMILY_TORUS, "s:p:o:V", grid_options,
	  "Usage: vlroute gen torus -s SIDES [-p HOSTS] [-o FILE]\n"
	  "Torus: a switch per grid point, linked to its neighbours (with\n"
	  "wrap-around) in every dimension.\n"
	  "  -s, --sides S0xS1x...  side of each dimension (2..65536; 1..8 dimensions)\n"
	  "  -p, --hosts T          hosts per switch (default 1)\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "dragonfly", VLR_FAMILY_DRAGONFLY, "p:a:h:g:o:V", dragonfly_options,
	  "Usage: vlroute gen dragonfly -p HOSTS -a ROUTERS -h GLOBALS [-g GROUPS]\n"
	  "                             [--arrangement palmtree|consecutive] [-o FILE]\n"
	  "Dragonfly: groups of fully connected routers joined by global links.\n"
	  "Note: -h is the global link count here, not help.\n"
	  "  -p, --hosts P          hosts per router (1..254)\n"
	  "  -a, --routers A        routers per group (1..254)\n"
	  "  -h, --globals H        global links per router (1..254)\n"
	  "  -g, --groups G         groups, 2..A*H+1 (default A*H+1)\n"
	  "      --arrangement ARR  palmtree (default) or consecutive\n"
	  "A router has P + A - 1 + H ports, at most 254.\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "dragonfly+", VLR_FAMILY_DRAGONFLYPLUS, "L:S:p:h:g:o:V", dragonflyplus_options,
	  "Usage: vlroute gen dragonfly+ -L LEAVES -S SPINES -p HOSTS -h GLOBALS\n"
	  "                              [-g GROUPS] [--arrangement palmtree|consecutive]\n"
	  "                              [-o FILE]\n"
	  "Dragonfly+: groups of leaves and spines (complete bipartite), hosts on\n"
	  "the leaves, global links on the spines.\n"
	  "Note: -h is the global link count here, not help.\n"
	  "  -L, --leaves L         leaf switches per group (1..254)\n"
	  "  -S, --spines S         spine switches per group (1..254)\n"
	  "  -p, --hosts T          hosts per leaf (1..254)\n"
	  "  -h, --globals H        global links per spine (1..254)\n"
	  "  -g, --groups G         groups, 2..S*H+1 (default S*H+1)\n"
	  "      --arrangement ARR  palmtree (default) or consecutive\n"
	  "A leaf has T + S ports and a spine L + H, at most 254 each.\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "fattree", VLR_FAMILY_FATTREE, "k:n:o:V", fattree_options,
	  "Usage: vlroute gen fattree -k ARITY -n LEVELS [-o FILE]\n"
	  "k-ary n-tree: n levels of k^(n-1) switches with 2k ports, k^n hosts.\n"
	  "  -k, --arity K          2..127\n"
	  "  -n, --levels N         1..16\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "random", VLR_FAMILY_RANDOM, "n:d:l:p:o:V", random_options,
	  "Usage: vlroute gen random -n SWITCHES -d DEGREE [-l LINKS] [-p HOSTS]\n"
	  "                          [--seed SEED] [-o FILE]\n"
	  "Random switch graph: connected, no self or parallel links; regular, or\n"
	  "with -l a number of links.\n"
	  "  -n, --switches N       switches, 2..1048576 (2..4096 with -l)\n"
	  "  -d, --degree D         links to other switches per switch, 1..N-1;\n"
	  "                         N*D must be even, and D = 1 only for N = 2;\n"
	  "                         with -l the most links per switch\n"
	  "  -l, --links L          L switch-to-switch links in all, N-1..N*D/2,\n"
	  "                         at most D per switch (default: every switch D)\n"
	  "  -p, --hosts T          hosts per switch (default 1)\n"
	  "      --seed SEED        random seed (default 1); the same seed gives\n"
	  "                         the same fabric\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "xgft", VLR_FAMILY_XGFT, "m:w:e:o:V", xgft_options,
	  "Usage: vlroute gen xgft -m M1,...,MH -w W1,...,WH [-e ENDPOINTS] [-o FILE]\n"
	  "Extended generalized fat tree XGFT(h; m1..mh; w1..wh): hosts at level 0,\n"
	  "switches at levels 1..h; a level-i switch has mi children and wi+1\n"
	  "parents, a host w1 = 1.\n"
	  "  -m, --children LIST    m1,...,mh: children per switch of each level,\n"
	  "                         1..254 each; 1..8 levels\n"
	  "  -w, --parents LIST     w1,...,wh: parents per node of each level below;\n"
	  "                         w1 is 1, the others 1..254; as many as -m\n"
	  "  -e, --endpoints E      keep E of the m1*...*mh hosts, spread over the\n"
	  "                         level-1 switches (default all)\n"
	  "A level-i switch has mi + wi+1 ports (mh at the top), at most 254.\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
	{ "kautz", VLR_FAMILY_KAUTZ, "b:n:p:e:o:V", kautz_options,
	  "Usage: vlroute gen kautz -b B -n N [-p HOSTS | -e ENDPOINTS] [-o FILE]\n"
	  "Kautz graph K(b, n) of switches: words of n symbols 0..b, no symbol\n"
	  "twice in a row, s1..sn linked to s2..sn x for every x != sn;\n"
	  "(b+1)*b^(n-1) switches, diameter n along those links.\n"
	  "  -b, --out-degree B     2..126\n"
	  "  -n, --length N         word length, 1..16\n"
	  "  -p, --hosts T          hosts per switch (default 1)\n"
	  "  -e, --endpoints E      E hosts spread over the switches instead\n"
	  "A switch has 2B ports to other switches besides its host ports, at\n"
	  "most 254 in all.\n"
	  "  -o, --output FILE      write FILE instead of stdout\n"
	  "  -V, --version          print the version and exit\n"
	  "      --help             print this help and exit\n" },
};

/* "8x8x4" or "8,8,4". */
static int parse_sides(const char *command, const char *text,
		       struct vlr_grid_params *grid)
{
	const char *s = text;

	grid->dims = 0;
	while (*s) {
		char *end;
		unsigned long side;

		errno = 0;
		side = strtoul(s, &end, 10);
		if (end == s || (*end && *end != 'x' && *end != ',') ||
		    (*end && !end[1])) {
			cli_error(command, "-s needs sides like 8x8x4, not \"%s\"", text);
			return -1;
		}
		if (errno == ERANGE || side > UINT_MAX) {
			cli_error(command, "-s: the side of dimension %u is %.*s, far beyond "
				  "what a fabric can hold", grid->dims, (int)(end - s), s);
			return -1;
		}
		if (grid->dims == VLR_MAX_DIMS) {
			cli_error(command, "-s: at most %d dimensions", VLR_MAX_DIMS);
			return -1;
		}
		grid->sides[grid->dims++] = (unsigned)side;
		s = *end ? end + 1 : end;
	}
	if (!grid->dims) {
		cli_error(command, "-s needs at least one side");
		return -1;
	}
	return 0;
}

/* "6,6": an XGFT's numbers per level; how many, or 0 after an error. */
static unsigned parse_levels(const char *command, const char *option, const char *text,
			     unsigned *values)
{
	const char *s = text;
	unsigned count = 0;

	while (*s) {
		char *end;
		unsigned long value;

		errno = 0;
		value = strtoul(s, &end, 10);
		if (!isdigit((unsigned char)*s) || (*end && *end != ',') ||
		    (*end && !end[1])) {
			cli_error(command, "%s needs numbers like 6,6, not \"%s\"", option, text);
			return 0;
		}
		if (errno == ERANGE || value > 1u << 30) {
			cli_error(command, "%s: level %u is %.*s, far beyond what a fabric "
				  "can hold", option, count + 1, (int)(end - s), s);
			return 0;
		}
		if (count == VLR_XGFT_MAX_HEIGHT) {
			cli_error(command, "%s: at most %d levels", option, VLR_XGFT_MAX_HEIGHT);
			return 0;
		}
		values[count++] = (unsigned)value;
		s = *end ? end + 1 : end;
	}
	if (!count)
		cli_error(command, "%s needs at least one level", option);
	return count;
}

static int parse_arrangement(const char *command, const char *text,
			     enum vlr_arrangement *arrangement)
{
	if (!strcmp(text, "palmtree"))
		*arrangement = VLR_ARRANGEMENT_PALMTREE;
	else if (!strcmp(text, "consecutive"))
		*arrangement = VLR_ARRANGEMENT_CONSECUTIVE;
	else {
		cli_error(command, "--arrangement is palmtree or consecutive, not \"%s\"",
			  text);
		return -1;
	}
	return 0;
}

/* Where an option's value goes, and the option's name for messages. */
static unsigned *option_target(struct vlr_family_params *params, int option,
			       const char **name)
{
	struct vlr_dragonfly_params *df = &params->u.dragonfly;
	struct vlr_dragonflyplus_params *dfp = &params->u.dragonflyplus;

	switch (params->family) {
	case VLR_FAMILY_HYPERX:
	case VLR_FAMILY_TORUS:
		*name = "-p (hosts per switch)";
		return option == 'p' ? &params->u.grid.hosts : NULL;
	case VLR_FAMILY_DRAGONFLY:
		*name = option == 'p' ? "-p (hosts per router)" :
			option == 'a' ? "-a (routers per group)" :
			option == 'h' ? "-h (global links per router)" : "-g (groups)";
		return option == 'p' ? &df->p : option == 'a' ? &df->a :
		       option == 'h' ? &df->h : option == 'g' ? &df->g : NULL;
	case VLR_FAMILY_DRAGONFLYPLUS:
		*name = option == 'L' ? "-L (leaves per group)" :
			option == 'S' ? "-S (spines per group)" :
			option == 'p' ? "-p (hosts per leaf)" :
			option == 'h' ? "-h (global links per spine)" : "-g (groups)";
		return option == 'L' ? &dfp->leaves : option == 'S' ? &dfp->spines :
		       option == 'p' ? &dfp->hosts : option == 'h' ? &dfp->globals :
		       option == 'g' ? &dfp->groups : NULL;
	case VLR_FAMILY_FATTREE:
		*name = option == 'k' ? "-k (arity)" : "-n (levels)";
		return option == 'k' ? &params->u.fattree.k :
		       option == 'n' ? &params->u.fattree.n : NULL;
	case VLR_FAMILY_RANDOM:
		*name = option == 'n' ? "-n (switches)" : option == 'd' ? "-d (degree)" :
			option == 'l' ? "-l (links)" : "-p (hosts per switch)";
		return option == 'n' ? &params->u.random.switches :
		       option == 'd' ? &params->u.random.degree :
		       option == 'l' ? &params->u.random.links :
		       option == 'p' ? &params->u.random.hosts : NULL;
	case VLR_FAMILY_XGFT:
		*name = "-e (endpoints)";
		return option == 'e' ? &params->u.xgft.endpoints : NULL;
	case VLR_FAMILY_KAUTZ:
		*name = option == 'b' ? "-b (out-degree)" : option == 'n' ? "-n (length)" :
			option == 'p' ? "-p (hosts per switch)" : "-e (endpoints)";
		return option == 'b' ? &params->u.kautz.b : option == 'n' ? &params->u.kautz.n :
		       option == 'p' ? &params->u.kautz.hosts :
		       option == 'e' ? &params->u.kautz.endpoints : NULL;
	case VLR_FAMILY_NONE:
		break;
	}
	return NULL;
}

static void set_defaults(struct vlr_family_params *params)
{
	switch (params->family) {
	case VLR_FAMILY_HYPERX:
	case VLR_FAMILY_TORUS:
		params->u.grid.hosts = 1;
		break;
	case VLR_FAMILY_RANDOM:
		params->u.random.hosts = 1;
		params->u.random.seed = 1;
		break;
	case VLR_FAMILY_KAUTZ:
		params->u.kautz.hosts = 1;
		break;
	default:
		break;
	}
}

/* Parameters every family must be given. */
static int check_required(const char *command, const struct vlr_family_params *params)
{
	const struct vlr_dragonfly_params *df = &params->u.dragonfly;
	const struct vlr_dragonflyplus_params *dfp = &params->u.dragonflyplus;
	const char *missing = NULL;

	switch (params->family) {
	case VLR_FAMILY_HYPERX:
	case VLR_FAMILY_TORUS:
		missing = params->u.grid.dims ? NULL : "-s SIDES";
		break;
	case VLR_FAMILY_DRAGONFLY:
		missing = !df->p ? "-p HOSTS" : !df->a ? "-a ROUTERS" :
			  !df->h ? "-h GLOBALS" : NULL;
		break;
	case VLR_FAMILY_DRAGONFLYPLUS:
		missing = !dfp->leaves ? "-L LEAVES" : !dfp->spines ? "-S SPINES" :
			  !dfp->hosts ? "-p HOSTS" : !dfp->globals ? "-h GLOBALS" : NULL;
		break;
	case VLR_FAMILY_FATTREE:
		missing = !params->u.fattree.k ? "-k ARITY" :
			  !params->u.fattree.n ? "-n LEVELS" : NULL;
		break;
	case VLR_FAMILY_RANDOM:
		missing = !params->u.random.switches ? "-n SWITCHES" :
			  !params->u.random.degree ? "-d DEGREE" : NULL;
		break;
	case VLR_FAMILY_XGFT:
		missing = !params->u.xgft.h ? "-m CHILDREN" : NULL;
		break;
	case VLR_FAMILY_KAUTZ:
		missing = !params->u.kautz.b ? "-b B" : !params->u.kautz.n ? "-n N" : NULL;
		break;
	case VLR_FAMILY_NONE:
		break;
	}
	if (missing)
		cli_error(command, "missing %s (see --help)", missing);
	return missing ? -1 : 0;
}

/* What the parameters alone do not show: the options given. */
struct given {
	unsigned parents;	/* levels of -w */
	int hosts;		/* -p */
};

static int parse_option(const char *command, int option, const char *value,
			struct vlr_family_params *params, struct given *given)
{
	unsigned long long number;
	const char *name = "";
	unsigned *target;

	if (option == 'm')
		return (params->u.xgft.h = parse_levels(command, "-m (children)", value,
							params->u.xgft.m)) ? 0 : -1;
	if (option == 'w')
		return (given->parents = parse_levels(command, "-w (parents)", value,
						      params->u.xgft.w)) ? 0 : -1;
	given->hosts |= option == 'p';
	if (option == 's')
		return parse_sides(command, value, &params->u.grid);
	if (option == 'A')
		return parse_arrangement(command, value,
					 params->family == VLR_FAMILY_DRAGONFLY ?
					 &params->u.dragonfly.arrangement :
					 &params->u.dragonflyplus.arrangement);
	if (option == 'R') {
		if (cli_unsigned(command, "--seed", value, 0, UINT64_MAX, &number))
			return -1;
		params->u.random.seed = number;
		return 0;
	}
	target = option_target(params, option, &name);
	if (!target || cli_unsigned(command, name, value, option == 'e' || option == 'l', 1u << 30, &number))
		return -1;
	*target = (unsigned)number;
	return 0;
}

/* What no single option shows wrong. */
static int check_together(const char *command, const struct vlr_family_params *params,
			  const struct given *given)
{
	if (params->family == VLR_FAMILY_XGFT && given->parents != params->u.xgft.h) {
		cli_error(command, given->parents ? "-m gives %u levels and -w %u; they "
			  "must give as many" : "missing -w PARENTS (see --help)",
			  params->u.xgft.h, given->parents);
		return -1;
	}
	if (params->family == VLR_FAMILY_KAUTZ && given->hosts &&
	    params->u.kautz.endpoints) {
		cli_error(command, "-p (hosts per switch) and -e (endpoints) exclude "
			  "each other");
		return -1;
	}
	return 0;
}

static int generate_and_write(const char *command, const struct vlr_family_params *params,
			      const char *output)
{
	char description[256], header[512];
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_error err;
	int status = CLI_OK;

	if (!fabric) {
		cli_error(command, "out of memory");
		return CLI_FAILED;
	}
	if (vlr_generate(fabric, params, &err)) {
		cli_error(command, "%s", err.message);
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	vlr_family_describe(params, description, sizeof(description));
	snprintf(header, sizeof(header), "generated by %s\nfamily: %s", PACKAGE_STRING,
		 description);
	if (cli_write_fabric(command, fabric, output, header))
		status = CLI_FAILED;
	vlr_fabric_free(fabric);
	return status;
}

static int gen_family(const struct gen_family *family, int argc, char **argv)
{
	char command[64];
	struct vlr_family_params params;
	struct given given = { 0, 0 };
	const char *output = NULL;
	int option;

	snprintf(command, sizeof(command), "vlroute gen %s", family->name);
	memset(&params, 0, sizeof(params));
	params.family = family->family;
	set_defaults(&params);
	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, family->short_options,
				    family->long_options, NULL)) != -1) {
		if (option == 'H')
			return cli_usage(stdout, family->usage, CLI_OK);
		if (option == 'V')
			return cli_version();
		if (option == '?') {
			cli_unknown_option(command, argv, optopt);
			return CLI_BAD_INPUT;
		}
		if (option == 'o')
			output = optarg;
		else if (parse_option(command, option, optarg, &params, &given))
			return CLI_BAD_INPUT;
	}
	if (optind < argc) {
		cli_error(command, "unexpected argument \"%s\" (see --help)", argv[optind]);
		return CLI_BAD_INPUT;
	}
	if (check_required(command, &params) || check_together(command, &params, &given))
		return CLI_BAD_INPUT;
	return generate_and_write(command, &params, output);
}

const struct option *cmd_gen_options(const char *family)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(family, families[i].name))
			return families[i].long_options;
	return NULL;
}

int cmd_gen(int argc, char **argv, const char *command_line)
{
	size_t i;

	(void)command_line;	/* a net file records no provenance */
	if (argc < 2)
		return cli_usage(stderr, gen_usage, CLI_BAD_INPUT);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return cli_usage(stdout, gen_usage, CLI_OK);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return cli_version();
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(argv[1], families[i].name))
			return gen_family(&families[i], argc - 1, argv + 1);
	cli_error("vlroute gen", "unknown family \"%s\"; one of: hyperx, torus, "
		  "dragonfly, dragonfly+, fattree, random, xgft, kautz", argv[1]);
	return CLI_BAD_INPUT;
}
