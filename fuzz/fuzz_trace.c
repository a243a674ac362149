/*
 * fuzz_trace.c - libFuzzer harness of the simulator's trace reader
 * (lib/sim/sim_trace.c) for 16 servers: it may refuse an input but never
 * crash, leak or hang, and a trace it accepts holds only messages between
 * two different servers of the 16, grouped by source in time order.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "fuzz_util.h"

#define SERVERS 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* The promises of struct vlr_sim_trace. */
static void check_trace(const struct vlr_sim_trace *trace)
{
	uint32_t s;
	uint64_t i;

	if (trace->num_servers != SERVERS || trace->first_of_server[0] != 0 ||
	    trace->first_of_server[SERVERS] != trace->count)
		fuzz_die("trace", "the server index does not cover the messages");
	for (s = 0; s < SERVERS; s++)
		for (i = trace->first_of_server[s]; i < trace->first_of_server[s + 1]; i++) {
			const struct vlr_sim_message *m = &trace->messages[i];

			if (m->source != s || m->destination >= SERVERS ||
			    m->destination == s || !m->phits ||
			    (i > trace->first_of_server[s] && m->time < m[-1].time))
				fuzz_die("trace", "a message is out of place or invalid");
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path("trace");
	struct vlr_sim_trace *trace;
	struct vlr_error err;

	fuzz_write(path, data, size);
	trace = vlr_sim_trace_read(path, SERVERS, &err);
	if (trace) {
		check_trace(trace);
		vlr_sim_trace_free(trace);
	}
	return 0;
}
