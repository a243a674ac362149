/*
 * names.h - the names of an enum's values (internal): one table of
 * { name, value } pairs serves a part's vlr_X_name() and vlr_X_parse(),
 * and lists the names for the message that refuses a wrong one.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_NAMES_H
#define VLROUTE_NAMES_H

#include <stddef.h>

#include <vlroute/util.h>

/* Tables end with { NULL, 0 }. */
struct vlr_name {
	const char *name;
	int value;
};

/* The name of value in table, or fallback when it has none. */
const char *vlr_name_of(const struct vlr_name *table, int value, const char *fallback);

/* The value named text: 0 with *value set, or -1 when no name matches. */
int vlr_name_value(const struct vlr_name *table, const char *text, int *value);

/* The same, or -1 with "a, b or c, not \"text\"" in err. */
int vlr_name_parse(const struct vlr_name *table, const char *text, int *value,
		   struct vlr_error *err);

/* "a, b or c": every name of table, in order, into buf (for messages). */
const char *vlr_name_list(const struct vlr_name *table, char *buf, size_t size);

/* The same with last before the last name: " or " as above, or ", ". */
const char *vlr_name_list_ending(const struct vlr_name *table, const char *last,
				 char *buf, size_t size);

#endif
