/*
 * dlid_choice.c - the names of the DLID choices (which DLID of a
 * destination's LMC range a source uses), shared by the analyses and the
 * simulator, which each accept a subset of them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <vlroute/tables.h>

#include "util/names.h"

static const struct vlr_name choice_names[] = {
	{ "base", VLR_DLID_BASE },
	{ "spread", VLR_DLID_SPREAD },
	{ "random", VLR_DLID_RANDOM },
	{ "recompute", VLR_DLID_RECOMPUTE },
	{ "restricted", VLR_DLID_RESTRICTED },
	{ "adaptive", VLR_DLID_ADAPTIVE },
	{ "adaptive-vc-h", VLR_DLID_ADAPTIVE_VC_H },
	{ NULL, 0 },
};

const char *vlr_dlid_choice_name(enum vlr_dlid_choice choice)
{
	return vlr_name_of(choice_names, (int)choice, "?");
}

int vlr_dlid_choice_parse(const char *text, unsigned accepted,
			  enum vlr_dlid_choice *choice)
{
	int value;

	if (vlr_name_value(choice_names, text, &value) || !(accepted & VLR_DLID_BIT(value)))
		return -1;
	*choice = (enum vlr_dlid_choice)value;
	return 0;
}

void vlr_dlid_choice_list(unsigned accepted, const char *last, char *buf, size_t size)
{
	struct vlr_name subset[VLR_DLID_CHOICES + 1];
	unsigned i, count = 0;

	for (i = 0; choice_names[i].name; i++)
		if (accepted & VLR_DLID_BIT(choice_names[i].value))
			subset[count++] = choice_names[i];
	subset[count] = (struct vlr_name){ NULL, 0 };
	vlr_name_list_ending(subset, last, buf, size);
}

int vlr_dlid_choice_check(enum vlr_dlid_choice choice, unsigned accepted, const char *who,
			  struct vlr_error *err)
{
	char names[128];

	if ((unsigned)choice < VLR_DLID_CHOICES && (accepted & VLR_DLID_BIT(choice)))
		return 0;
	vlr_dlid_choice_list(accepted, " or ", names, sizeof(names));
	return vlr_fail(err, "%s takes the DLID choice %s, not %s", who, names,
			vlr_dlid_choice_name(choice));
}
