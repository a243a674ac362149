/*
 * dlid_choice.c - the names of the DLID choices (which DLID of a
 * destination's LMC range a source uses), shared by the analyses and the
 * simulator, which each accept a subset of them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include <vlroute/tables.h>

static const char *const choice_names[VLR_DLID_CHOICES] = {
	"base", "spread", "random", "recompute", "restricted", "adaptive",
};

const char *vlr_dlid_choice_name(enum vlr_dlid_choice choice)
{
	return (unsigned)choice < VLR_DLID_CHOICES ? choice_names[choice] : "?";
}

int vlr_dlid_choice_parse(const char *text, unsigned accepted,
			  enum vlr_dlid_choice *choice)
{
	unsigned i;

	for (i = 0; i < VLR_DLID_CHOICES; i++)
		if ((accepted & VLR_DLID_BIT(i)) && !strcmp(text, choice_names[i])) {
			*choice = (enum vlr_dlid_choice)i;
			return 0;
		}
	return -1;
}

void vlr_dlid_choice_list(unsigned accepted, const char *last, char *buf, size_t size)
{
	unsigned i, left = 0;
	size_t used = 0;

	for (i = 0; i < VLR_DLID_CHOICES; i++)
		left += (accepted & VLR_DLID_BIT(i)) != 0;
	buf[0] = 0;
	for (i = 0; i < VLR_DLID_CHOICES && used < size; i++) {
		if (!(accepted & VLR_DLID_BIT(i)))
			continue;
		left--;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", choice_names[i],
					 left > 1 ? ", " : left ? last : "");
	}
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
