/*
 * sim_config.c - the simulator's defaults, the names of its modes, and the
 * tables of its parts: the VL selections (by enum vlr_sim_vl_mode), the
 * DLID rules (by enum vlr_dlid_choice) and the allocators (by enum
 * vlr_sim_allocator). A new part is a file and a row here; the option
 * parsing and the reports take its name from its row.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "allocator_internal.h"
#include "dlid_rule_internal.h"
#include "vl_select_internal.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const struct sim_vl_type *const vl_types[] = {
	[VLR_SIM_VL_EXACT] = &sim_vl_exact,
	[VLR_SIM_VL_IDEAL] = &sim_vl_ideal,
};

/* In the order the option's help and its complaint list them. */
static const struct sim_dlid_type *const dlid_types[] = {
	&sim_dlid_base, &sim_dlid_random, &sim_dlid_recompute, &sim_dlid_restricted,
	&sim_dlid_adaptive,
};

static const struct sim_allocator_type *const allocator_types[] = {
	[VLR_SIM_ALLOCATOR_SEPARABLE] = &sim_allocator_separable,
};

static const char *const queue_select_names[] = { "random", "dest" };
static const char *const crossbar_names[] = { "vl", "port" };

const struct sim_vl_type *sim_vl_type(enum vlr_sim_vl_mode mode)
{
	return (unsigned)mode < COUNT(vl_types) ? vl_types[mode] : NULL;
}

const struct sim_dlid_type *sim_dlid_type(enum vlr_dlid_choice choice)
{
	size_t i;

	for (i = 0; i < COUNT(dlid_types); i++)
		if (dlid_types[i]->choice == choice)
			return dlid_types[i];
	return NULL;
}

unsigned sim_dlid_choices(void)
{
	unsigned choices = 0;
	size_t i;

	for (i = 0; i < COUNT(dlid_types); i++)
		choices |= VLR_DLID_BIT(dlid_types[i]->choice);
	return choices;
}

const struct sim_allocator_type *sim_allocator_type(enum vlr_sim_allocator allocator)
{
	return (unsigned)allocator < COUNT(allocator_types) ?
	       allocator_types[allocator] : NULL;
}

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
	config->dlid = VLR_DLID_BASE;
	config->allocator = VLR_SIM_ALLOCATOR_SEPARABLE;
	config->pattern.kind = VLR_PATTERN_UNIFORM;
	config->cycles = 20000;
	config->bin = 1000;
	config->deadlock_cycles = 1000;
	config->stability_drop = 0.1;
}

static int parse_name(const char *text, const char *const *names, unsigned count,
		      const char *what, unsigned *value, struct vlr_error *err)
{
	char list[128];
	size_t used = 0;
	unsigned i;

	for (i = 0; i < count; i++)
		if (!strcmp(text, names[i])) {
			*value = i;
			return 0;
		}
	if (count == 2)
		return vlr_fail(err, "%s \"%s\" is not %s or %s", what, text, names[0],
				names[1]);
	list[0] = 0;
	for (i = 0; i < count && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i ? ", " : "", names[i]);
	return vlr_fail(err, "%s \"%s\" is not one of %s", what, text, list);
}

const char *vlr_sim_vl_mode_name(enum vlr_sim_vl_mode mode)
{
	return sim_vl_type(mode) ? vl_types[mode]->name : "?";
}

const char *vlr_sim_queue_select_name(enum vlr_sim_queue_select select)
{
	return queue_select_names[select];
}

int vlr_sim_vl_mode_parse(const char *text, enum vlr_sim_vl_mode *mode,
			  struct vlr_error *err)
{
	const char *names[COUNT(vl_types)];
	unsigned i, value = 0;

	for (i = 0; i < COUNT(vl_types); i++)
		names[i] = vl_types[i]->name;
	if (parse_name(text, names, COUNT(vl_types), "VL mode", &value, err))
		return -1;
	*mode = (enum vlr_sim_vl_mode)value;
	return 0;
}

int vlr_sim_dlid_parse(const char *text, enum vlr_dlid_choice *dlid, struct vlr_error *err)
{
	const char *names[COUNT(dlid_types)];
	unsigned i, value = 0;

	for (i = 0; i < COUNT(dlid_types); i++)
		names[i] = vlr_dlid_choice_name(dlid_types[i]->choice);
	if (parse_name(text, names, COUNT(dlid_types), "DLID choice", &value, err))
		return -1;
	*dlid = dlid_types[value]->choice;
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
