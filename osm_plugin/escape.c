/*
 * escape.c - text made safe for OpenSM's log: every byte outside printable
 * ASCII (a newline, a terminal escape, a UTF-8 byte from vlroute.conf or a
 * node description) becomes \xNN and a backslash becomes \\, so that one
 * message stays one log line and nothing a file holds can forge another
 * line or drive the terminal of whoever reads the log.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "vlroute_conf.h"

void vlr_osm_escape(const char *text, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t used = 0;

	if (!size)
		return;
	for (; *text; text++) {
		unsigned char c = (unsigned char)*text;
		int plain = c >= 0x20 && c < 0x7f && c != '\\';
		size_t need = plain ? 1 : c == '\\' ? 2 : 4;

		if (used + need >= size)
			break;
		if (plain) {
			out[used++] = (char)c;
		} else if (c == '\\') {
			out[used++] = '\\';
			out[used++] = '\\';
		} else {
			out[used++] = '\\';
			out[used++] = 'x';
			out[used++] = hex[c >> 4];
			out[used++] = hex[c & 15];
		}
	}
	out[used] = '\0';
}
