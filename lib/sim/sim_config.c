/*
 * sim_config.c - the simulator's defaults and the names of its modes.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include <vlroute/sim.h>

static const char *const vl_mode_names[] = { "exact", "ideal" };
static const char *const dlid_names[] = {
	"base", "random", "recompute", "restricted", "adaptive",
};
static const char *const queue_select_names[] = { "random", "dest" };
static const char *const crossbar_names[] = { "vl", "port" };

void vlr_sim_config_default(struct vlr_sim_config *config)
{
	memset(config, 0, sizeof(*config));
	config->packet_phits = 16;
	config->input_packets = 4;
	config->output_packets = 2;
	config->iterations = 2;
	config->speedup = 1;
	config->host_latency = 1;
	config->local_latency = 1;
	config->global_latency = 1;
	config->injection_queues = 1;
	config->queue_packets = 16;
	config->queue_select = VLR_SIM_QUEUE_RANDOM;
	config->vl_mode = VLR_SIM_VL_EXACT;
	config->dlid = VLR_SIM_DLID_BASE;
	config->pattern.kind = VLR_PATTERN_UNIFORM;
	config->cycles = 20000;
	config->bin = 1000;
	config->deadlock_cycles = 1000;
	config->stability_drop = 0.1;
}

static int parse_name(const char *text, const char *const *names, unsigned count,
		      const char *what, unsigned *value, struct vlr_error *err)
{
	unsigned i;

	for (i = 0; i < count; i++)
		if (!strcmp(text, names[i])) {
			*value = i;
			return 0;
		}
	if (count == 2)
		return vlr_fail(err, "%s \"%s\" is not %s or %s", what, text, names[0],
				names[1]);
	return vlr_fail(err, "%s \"%s\" is not one of %s, %s, %s, %s, %s", what, text,
			names[0], names[1], names[2], names[3], names[4]);
}

const char *vlr_sim_vl_mode_name(enum vlr_sim_vl_mode mode)
{
	return vl_mode_names[mode];
}

const char *vlr_sim_dlid_name(enum vlr_sim_dlid dlid)
{
	return dlid_names[dlid];
}

const char *vlr_sim_queue_select_name(enum vlr_sim_queue_select select)
{
	return queue_select_names[select];
}

int vlr_sim_vl_mode_parse(const char *text, enum vlr_sim_vl_mode *mode,
			  struct vlr_error *err)
{
	unsigned value = 0;

	if (parse_name(text, vl_mode_names, 2, "VL mode", &value, err))
		return -1;
	*mode = (enum vlr_sim_vl_mode)value;
	return 0;
}

int vlr_sim_dlid_parse(const char *text, enum vlr_sim_dlid *dlid, struct vlr_error *err)
{
	unsigned value = 0;

	if (parse_name(text, dlid_names, 5, "DLID choice", &value, err))
		return -1;
	*dlid = (enum vlr_sim_dlid)value;
	return 0;
}

int vlr_sim_queue_select_parse(const char *text, enum vlr_sim_queue_select *select,
			       struct vlr_error *err)
{
	unsigned value = 0;

	if (parse_name(text, queue_select_names, 2, "queue selection", &value, err))
		return -1;
	*select = (enum vlr_sim_queue_select)value;
	return 0;
}

const char *vlr_sim_crossbar_name(enum vlr_sim_crossbar crossbar)
{
	return crossbar_names[crossbar];
}

int vlr_sim_crossbar_parse(const char *text, enum vlr_sim_crossbar *crossbar,
			   struct vlr_error *err)
{
	unsigned value = 0;

	if (parse_name(text, crossbar_names, 2, "crossbar", &value, err))
		return -1;
	*crossbar = (enum vlr_sim_crossbar)value;
	return 0;
}
