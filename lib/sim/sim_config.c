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

#include "util/names.h"

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
	&sim_dlid_adaptive, &sim_dlid_adaptive_vc_h,
};

static const struct sim_allocator_type *const allocator_types[] = {
	[VLR_SIM_ALLOCATOR_SEPARABLE] = &sim_allocator_separable,
};

static const struct vlr_name queue_select_names[] = {
	{ "random", VLR_SIM_QUEUE_RANDOM }, { "dest", VLR_SIM_QUEUE_DEST },
	{ "random-room", VLR_SIM_QUEUE_RANDOM_ROOM },
	{ "dest-section", VLR_SIM_QUEUE_DEST_SECTION }, { NULL, 0 },
};
static const struct vlr_name crossbar_names[] = {
	{ "vl", VLR_SIM_CROSSBAR_VL }, { "port", VLR_SIM_CROSSBAR_PORT }, { NULL, 0 },
};
static const struct vlr_name routing_names[] = {
	{ "tables", VLR_SIM_ROUTING_TABLES }, { "minimal", VLR_SIM_ROUTING_MINIMAL },
	{ "valiant", VLR_SIM_ROUTING_VALIANT }, { "rval", VLR_SIM_ROUTING_RVAL },
	{ "ugal-g", VLR_SIM_ROUTING_UGAL_G }, { "ugal-l", VLR_SIM_ROUTING_UGAL_L },
	{ "ugal-l-vc", VLR_SIM_ROUTING_UGAL_L_VC }, { "ugal-l-vc-h", VLR_SIM_ROUTING_UGAL_L_VC_H },
	{ "ugal-l-cr", VLR_SIM_ROUTING_UGAL_L_CR }, { "piggyback", VLR_SIM_ROUTING_PIGGYBACK },
	{ NULL, 0 },
};
static const struct vlr_name intermediate_names[] = {
	{ "switch", VLR_SIM_INTERMEDIATE_SWITCH }, { "group", VLR_SIM_INTERMEDIATE_GROUP },
	{ "crg", VLR_SIM_INTERMEDIATE_CRG }, { NULL, 0 },
};
static const struct vlr_name injection_names[] = {
	{ "policy", VLR_SIM_INJECTION_POLICY }, { "any", VLR_SIM_INJECTION_ANY }, { NULL, 0 },
};
static const struct vlr_name minimal_names[] = {
	{ "family", VLR_SIM_MINIMAL_FAMILY }, { "shortest", VLR_SIM_MINIMAL_SHORTEST },
	{ NULL, 0 },
};
static const struct vlr_name phase_vls_names[] = {
	{ "per-hop", VLR_SIM_PHASE_VLS_PER_HOP }, { "free", VLR_SIM_PHASE_VLS_FREE },
	{ NULL, 0 },
};

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
	config->warmup = VLR_SIM_WARMUP_DEFAULT;
	config->cycles = 20000;
	config->bin = 1000;
	config->deadlock_cycles = 1000;
	config->stability_drop = 0.1;
	config->reference.piggyback.factor_percent = 200;
	config->reference.piggyback.global_margin = 3;
	config->reference.piggyback.local_margin = 5;
}

uint64_t vlr_sim_default_warmup(uint64_t cycles, unsigned bin)
{
	return bin ? cycles / 10 / bin * bin : 0;
}

/* The value named text in table, or "WHAT "text" is not a or b" (not one of a, b, c). */
static int parse_name(const char *text, const struct vlr_name *table, const char *what,
		      int *value, struct vlr_error *err)
{
	char list[128];

	if (!vlr_name_value(table, text, value))
		return 0;
	if (table[0].name && table[1].name && !table[2].name)
		return vlr_fail(err, "%s \"%s\" is not %s", what, text,
				vlr_name_list(table, list, sizeof(list)));
	return vlr_fail(err, "%s \"%s\" is not one of %s", what, text,
			vlr_name_list_ending(table, ", ", list, sizeof(list)));
}

const char *vlr_sim_vl_mode_name(enum vlr_sim_vl_mode mode)
{
	return sim_vl_type(mode) ? vl_types[mode]->name : "?";
}

const char *vlr_sim_queue_select_name(enum vlr_sim_queue_select select)
{
	return vlr_name_of(queue_select_names, (int)select, "?");
}

int vlr_sim_vl_mode_parse(const char *text, enum vlr_sim_vl_mode *mode,
			  struct vlr_error *err)
{
	struct vlr_name names[COUNT(vl_types) + 1];
	unsigned i;
	int value;

	for (i = 0; i < COUNT(vl_types); i++)
		names[i] = (struct vlr_name){ vl_types[i]->name, (int)i };
	names[i] = (struct vlr_name){ NULL, 0 };
	if (parse_name(text, names, "VL mode", &value, err))
		return -1;
	*mode = (enum vlr_sim_vl_mode)value;
	return 0;
}

int vlr_sim_dlid_parse(const char *text, enum vlr_dlid_choice *dlid, struct vlr_error *err)
{
	struct vlr_name names[COUNT(dlid_types) + 1];
	unsigned i;
	int value;

	for (i = 0; i < COUNT(dlid_types); i++)
		names[i] = (struct vlr_name){ vlr_dlid_choice_name(dlid_types[i]->choice),
					      (int)dlid_types[i]->choice };
	names[i] = (struct vlr_name){ NULL, 0 };
	if (parse_name(text, names, "DLID choice", &value, err))
		return -1;
	*dlid = (enum vlr_dlid_choice)value;
	return 0;
}

int vlr_sim_queue_select_parse(const char *text, enum vlr_sim_queue_select *select,
			       struct vlr_error *err)
{
	int value;

	if (parse_name(text, queue_select_names, "queue selection", &value, err))
		return -1;
	*select = (enum vlr_sim_queue_select)value;
	return 0;
}

const char *vlr_sim_crossbar_name(enum vlr_sim_crossbar crossbar)
{
	return vlr_name_of(crossbar_names, (int)crossbar, "?");
}

int vlr_sim_crossbar_parse(const char *text, enum vlr_sim_crossbar *crossbar,
			   struct vlr_error *err)
{
	int value;

	if (parse_name(text, crossbar_names, "crossbar", &value, err))
		return -1;
	*crossbar = (enum vlr_sim_crossbar)value;
	return 0;
}

const char *vlr_sim_routing_name(enum vlr_sim_routing routing)
{
	return vlr_name_of(routing_names, (int)routing, "?");
}

int vlr_sim_routing_parse(const char *text, enum vlr_sim_routing *routing,
			  struct vlr_error *err)
{
	int value;

	if (parse_name(text, routing_names, "routing", &value, err))
		return -1;
	*routing = (enum vlr_sim_routing)value;
	return 0;
}

const char *vlr_sim_phase_vls_name(enum vlr_sim_phase_vls phase_vls)
{
	return vlr_name_of(phase_vls_names, (int)phase_vls, "?");
}

int vlr_sim_phase_vls_parse(const char *text, enum vlr_sim_phase_vls *phase_vls,
			    struct vlr_error *err)
{
	int value;

	if (parse_name(text, phase_vls_names, "phase VLs", &value, err))
		return -1;
	*phase_vls = (enum vlr_sim_phase_vls)value;
	return 0;
}

const char *vlr_sim_intermediate_name(enum vlr_sim_intermediate intermediate)
{
	return vlr_name_of(intermediate_names, (int)intermediate, "?");
}

int vlr_sim_intermediate_parse(const char *text, enum vlr_sim_intermediate *intermediate,
			       struct vlr_error *err)
{
	int value;

	if (parse_name(text, intermediate_names, "intermediate", &value, err))
		return -1;
	*intermediate = (enum vlr_sim_intermediate)value;
	return 0;
}

const char *vlr_sim_minimal_name(enum vlr_sim_minimal minimal)
{
	return vlr_name_of(minimal_names, (int)minimal, "?");
}

int vlr_sim_minimal_parse(const char *text, enum vlr_sim_minimal *minimal,
			  struct vlr_error *err)
{
	int value;

	if (parse_name(text, minimal_names, "minimal routing", &value, err))
		return -1;
	*minimal = (enum vlr_sim_minimal)value;
	return 0;
}

const char *vlr_sim_injection_vls_name(enum vlr_sim_injection_vls injection)
{
	return vlr_name_of(injection_names, (int)injection, "?");
}

int vlr_sim_injection_vls_parse(const char *text, enum vlr_sim_injection_vls *injection,
				struct vlr_error *err)
{
	int value;

	if (parse_name(text, injection_names, "injection VLs", &value, err))
		return -1;
	*injection = (enum vlr_sim_injection_vls)value;
	return 0;
}
