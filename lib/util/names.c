/*
 * names.c - looking up { name, value } tables both ways.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "names.h"

const char *vlr_name_of(const struct vlr_name *table, int value, const char *fallback)
{
	for (; table->name; table++)
		if (table->value == value)
			return table->name;
	return fallback;
}

int vlr_name_value(const struct vlr_name *table, const char *text, int *value)
{
	for (; table->name; table++)
		if (!strcmp(table->name, text)) {
			*value = table->value;
			return 0;
		}
	return -1;
}

int vlr_name_parse(const struct vlr_name *table, const char *text, int *value,
		   struct vlr_error *err)
{
	char names[VLR_ERROR_SIZE / 2];

	if (!vlr_name_value(table, text, value))
		return 0;
	return vlr_fail(err, "%s, not \"%s\"", vlr_name_list(table, names, sizeof(names)),
			text);
}

const char *vlr_name_list_ending(const struct vlr_name *table, const char *last,
				 char *buf, size_t size)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; table[i].name && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 !i ? "" : table[i + 1].name ? ", " : last,
					 table[i].name);
	return buf;
}

const char *vlr_name_list(const struct vlr_name *table, char *buf, size_t size)
{
	return vlr_name_list_ending(table, " or ", buf, size);
}
