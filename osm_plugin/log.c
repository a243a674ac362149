/*
 * log.c - the plugin's lines in OpenSM's log, in OpenSM's own style
 * ("source: message", errors as "source: ERR CODE: message"), so that
 * grep and log watchers treat them like OpenSM's; each message escaped
 * (escape.c), since it may quote vlroute.conf or a node description.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdio.h>

#include "vlroute_osm.h"

#define LINE_SIZE 2048

static void emit(osm_opensm_t *osm, osm_log_level_t level, const char *source,
		 const char *code, const char *fmt, va_list args)
{
	char raw[LINE_SIZE], text[LINE_SIZE];

	if (!osm_log_is_active(&osm->log, level))
		return;
	vsnprintf(raw, sizeof(raw), fmt, args);
	vlr_osm_escape(raw, text, sizeof(text));
	if (code)
		osm_log(&osm->log, level, "%s: ERR %s: %s\n", source, code, text);
	else
		osm_log(&osm->log, level, "%s: %s\n", source, text);
}

void vlr_osm_log(osm_opensm_t *osm, osm_log_level_t level, const char *source,
		 const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(osm, level, source, NULL, fmt, args);
	va_end(args);
}

void vlr_osm_error(osm_opensm_t *osm, const char *source, const char *code,
		   const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	emit(osm, OSM_LOG_ERROR, source, code, fmt, args);
	va_end(args);
}
