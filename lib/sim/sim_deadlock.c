/*
 * sim_deadlock.c - naming the cycle of blocked buffers after a deadlock.
 *
 * A channel is a switch output port and a VL: its output buffer, the link
 * and the input buffer at the far end. A channel waits for the channel its
 * far-end head packet wants next (the output its routing chose and the
 * first VL it may take there). Each channel waits for at most one other, so following the waits
 * from every occupied channel finds the cycles. The report lists one as
 * "switch:port/VL -> ... -> switch:port/VL", the notation of vlroute
 * verify's dependency cycles.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

#define NO_CHANNEL UINT64_MAX

/* The channel the head of the input buffer at the far end of c waits for. */
static uint64_t waits_for(const struct sim_state *st, uint64_t c)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t port = (uint32_t)(c / st->vls), in = sim->peer[port], out;
	unsigned vl = (unsigned)(c % st->vls);
	uint64_t pv;
	uint16_t choices;

	if (in == VLR_NONE)
		return NO_CHANNEL;
	pv = (uint64_t)in * st->vls + vl;
	if (!st->in[pv].count)
		return NO_CHANNEL;
	out = sim_input_out(&st->in[pv], sim->first_port[sim->port_switch[in]]);
	if (out == VLR_NONE || sim->peer[out] == VLR_NONE)
		return NO_CHANNEL;
	choices = st->in[pv].choices;
	for (vl = 0; vl < st->vls; vl++)
		if (choices >> vl & 1)
			return (uint64_t)out * st->vls + vl;
	return NO_CHANNEL;
}

static void append(char *buf, size_t size, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, size - *used, "%s", text);

	if (n > 0)
		*used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

static void channel_name(const struct sim_state *st, uint64_t c, char *buf, size_t size)
{
	const struct vlr_sim *sim = st->sim;
	uint32_t port = (uint32_t)(c / st->vls), sw = sim->port_switch[port];

	snprintf(buf, size, "%s:%u/%u",
		 vlr_node_name(sim->tables->fabric, sim->tables->switch_node[sw]),
		 port - sim->first_port[sw] + 1, (unsigned)(c % st->vls));
}

static void print_cycle(const struct sim_state *st, uint64_t start, char *buf, size_t size)
{
	char name[VLR_MAX_NAME + 16];
	size_t used = 0;
	uint64_t c = start;

	do {
		channel_name(st, c, name, sizeof(name));
		append(buf, size, &used, name);
		append(buf, size, &used, " -> ");
		c = waits_for(st, c);
	} while (c != start);
	channel_name(st, c, name, sizeof(name));
	append(buf, size, &used, name);
}

/* A channel on a cycle of waits, or NO_CHANNEL; mark[] is scratch. */
static uint64_t find_cycle(const struct sim_state *st, uint64_t *mark)
{
	uint64_t channels = (uint64_t)st->sim->num_ports * st->vls, start, c;

	for (start = 0; start < channels; start++) {
		if (mark[start])
			continue;
		for (c = start; c != NO_CHANNEL && !mark[c]; c = waits_for(st, c))
			mark[c] = start + 1;
		if (c != NO_CHANNEL && mark[c] == start + 1)
			return c;
	}
	return NO_CHANNEL;
}

void sim_deadlock_report(const struct sim_state *st, char *buf, size_t size)
{
	uint64_t channels = (uint64_t)st->sim->num_ports * st->vls;
	uint64_t *mark = calloc(channels ? channels : 1, sizeof(*mark));
	uint64_t c;

	if (!mark) {
		snprintf(buf, size, "(out of memory while looking for the cycle)");
		return;
	}
	c = find_cycle(st, mark);
	if (c == NO_CHANNEL)
		snprintf(buf, size, "no cycle of waits between switch buffers (packets "
			 "blocked at servers or at the fabric's edge)");
	else
		print_cycle(st, c, buf, size);
	free(mark);
}
