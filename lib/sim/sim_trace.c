/*
 * sim_trace.c - message traces for the simulator: "TIME SOURCE DESTINATION
 * SIZE" per line (cycle, server numbers, phits), in non-decreasing time,
 * '#' starting a comment. Every complaint names FILE:LINE.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include <vlroute/sim.h>

#include "util/array.h"
#include "util/lexer.h"

struct trace_reader {
	struct vlr_lines lines;
	struct vlr_sim_trace *trace;
	uint32_t capacity;
	uint64_t last_time;
};

static int parse_field(const char **text, uint64_t max, unsigned long long *value)
{
	uint64_t field;

	*text = vlr_skip_blanks(*text);
	if (vlr_lex_number(text, 10, max, &field))
		return -1;
	*value = field;
	return 0;
}

static int read_message(void *context, const char *line)
{
	struct trace_reader *r = context;
	struct vlr_sim_trace *t = r->trace;
	unsigned long long time, source, destination, size;
	const char *p = vlr_skip_blanks(line);
	uint32_t n = t->num_servers;

	if (!*p || *p == '#')
		return 0;
	if (parse_field(&p, UINT64_MAX / 4, &time) || parse_field(&p, UINT32_MAX, &source) ||
	    parse_field(&p, UINT32_MAX, &destination) || parse_field(&p, UINT32_MAX, &size))
		return vlr_fail_line(&r->lines, "expected \"TIME SOURCE DESTINATION SIZE\" "
				     "(whole numbers), got \"%s\"", line);
	p = vlr_skip_blanks(p);
	if (*p && *p != '#')
		return vlr_fail_line(&r->lines, "unexpected \"%s\" after the size", p);
	if (source >= n || destination >= n)
		return vlr_fail_line(&r->lines, "server %llu is not one of the %u servers "
				     "(0..%u)", source >= n ? source : destination, n, n - 1);
	if (source == destination || !size)
		return vlr_fail_line(&r->lines, source == destination ?
				     "server %llu sends to itself" :
				     "message of server %llu has size 0", source);
	if (time < r->last_time)
		return vlr_fail_line(&r->lines, "time %llu is before the previous line's %llu",
				     time, (unsigned long long)r->last_time);
	if (t->count == r->capacity &&
	    vlr_array_grow((void **)&t->messages, &r->capacity, (uint32_t)t->count + 1,
			   sizeof(*t->messages), r->lines.err))
		return -1;
	r->last_time = time;
	t->messages[t->count].time = time;
	t->messages[t->count].source = (uint32_t)source;
	t->messages[t->count].destination = (uint32_t)destination;
	t->messages[t->count].phits = (uint32_t)size;
	t->count++;
	return 0;
}

/* Order the messages by source, keeping time order within each. */
static int group_by_source(struct vlr_sim_trace *t, struct vlr_error *err)
{
	struct vlr_sim_message *sorted = malloc((t->count ? t->count : 1) * sizeof(*sorted));
	uint64_t *next = calloc(t->num_servers + 1, sizeof(*next)), i;
	uint32_t s;

	t->first_of_server = calloc(t->num_servers + 1, sizeof(*t->first_of_server));
	if (!sorted || !next || !t->first_of_server) {
		free(sorted);
		free(next);
		return vlr_fail(err, "out of memory for %llu trace messages",
				(unsigned long long)t->count);
	}
	for (i = 0; i < t->count; i++)
		t->first_of_server[t->messages[i].source + 1]++;
	for (s = 0; s < t->num_servers; s++)
		t->first_of_server[s + 1] += t->first_of_server[s];
	memcpy(next, t->first_of_server, (t->num_servers + 1) * sizeof(*next));
	for (i = 0; i < t->count; i++)
		sorted[next[t->messages[i].source]++] = t->messages[i];
	free(t->messages);
	free(next);
	t->messages = sorted;
	return 0;
}

struct vlr_sim_trace *vlr_sim_trace_read(const char *path, uint32_t num_servers,
					 struct vlr_error *err)
{
	struct trace_reader r;
	int status;

	memset(&r, 0, sizeof(r));
	r.trace = calloc(1, sizeof(*r.trace));
	if (!r.trace) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	r.trace->num_servers = num_servers;
	if (vlr_lines_open(&r.lines, path, err)) {
		vlr_sim_trace_free(r.trace);
		return NULL;
	}
	status = vlr_lines_each(&r.lines, read_message, &r);
	vlr_lines_close(&r.lines);
	if (status || group_by_source(r.trace, err)) {
		vlr_sim_trace_free(r.trace);
		return NULL;
	}
	return r.trace;
}

void vlr_sim_trace_free(struct vlr_sim_trace *trace)
{
	if (!trace)
		return;
	free(trace->messages);
	free(trace->first_of_server);
	free(trace);
}
