/*
 * capture_mad.c - the MAD engine of a capture: keeps up to `window`
 * queries in flight, matches answers to them by TID, resends a query that
 * got no answer (the transport's timeout status, or our own deadline for
 * transports that never report one, as ibsim's umad2sim) and fails naming
 * the query once its retries are spent.
 *
 * Queries wait in a ring; a step's refill callback adds more when the
 * ring runs dry, so a step with millions of queries never lists them all.
 * The low 8 bits of a TID name the slot, the 24 above a sequence number,
 * so an answer to an abandoned try is recognised and dropped.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_internal.h"

#define WAIT_LIMIT_MS 100	/* look at deadlines at least this often */
#define SMP_CLASS 0x81
#define SA_CLASS 0x03

static int is_sa(const struct cap_query *query)
{
	return query->attr == CAP_ATTR_PATH_RECORD;
}

int cap_engine_init(struct cap_engine *engine, const struct vlr_mad_transport *transport,
		    const struct vlr_capture_options *options,
		    const struct cap_fabric *fabric, struct vlr_error *err)
{
	unsigned i;

	memset(engine, 0, sizeof(*engine));
	engine->transport = transport;
	engine->fabric = fabric;
	engine->err = err;
	engine->timeout_ms = options->timeout_ms ? options->timeout_ms : 1;
	engine->retries = options->retries;
	engine->window = options->window < 1 ? 1 :
			 options->window > VLR_CAPTURE_MAX_WINDOW ? VLR_CAPTURE_MAX_WINDOW :
			 options->window;
	engine->queue_capacity = 1024;
	engine->slots = calloc(engine->window, sizeof(*engine->slots));
	engine->free_slots = malloc(sizeof(unsigned) * engine->window);
	engine->queue = malloc(sizeof(*engine->queue) * engine->queue_capacity);
	if (!engine->slots || !engine->free_slots || !engine->queue) {
		cap_engine_free(engine);
		return vlr_fail(err, "out of memory for the MAD engine");
	}
	for (i = 0; i < engine->window; i++)
		engine->free_slots[i] = engine->window - 1 - i;
	engine->free_count = engine->window;
	return 0;
}

void cap_engine_free(struct cap_engine *engine)
{
	free(engine->slots);
	free(engine->free_slots);
	free(engine->queue);
	engine->slots = NULL;
	engine->free_slots = NULL;
	engine->queue = NULL;
}

int cap_engine_submit_smp(struct cap_engine *engine, uint8_t kind, uint16_t attr,
			  uint32_t node, unsigned via, uint32_t mod, uint32_t arg)
{
	struct cap_query query;

	memset(&query, 0, sizeof(query));
	query.kind = kind;
	query.attr = attr;
	query.node = node;
	query.via = (uint8_t)via;
	query.mod = mod;
	query.arg = arg;
	return cap_engine_submit(engine, &query);
}

int cap_engine_submit(struct cap_engine *engine, const struct cap_query *query)
{
	if (engine->queue_count == engine->queue_capacity) {
		size_t capacity = engine->queue_capacity * 2, i;
		struct cap_query *bigger = malloc(sizeof(*bigger) * capacity);

		if (!bigger)
			return vlr_fail(engine->err, "out of memory for %zu queued MADs",
					capacity);
		for (i = 0; i < engine->queue_count; i++)
			bigger[i] = engine->queue[(engine->queue_head + i) %
						  engine->queue_capacity];
		free(engine->queue);
		engine->queue = bigger;
		engine->queue_capacity = capacity;
		engine->queue_head = 0;
	}
	engine->queue[(engine->queue_head + engine->queue_count) % engine->queue_capacity] =
		*query;
	engine->queue_count++;
	return 0;
}

static int pop(struct cap_engine *engine, struct cap_query *query)
{
	if (!engine->queue_count)
		return 0;
	*query = engine->queue[engine->queue_head];
	engine->queue_head = (engine->queue_head + 1) % engine->queue_capacity;
	engine->queue_count--;
	return 1;
}

/* ---- naming a query ----------------------------------------------------- */

static void modifier_text(const struct cap_query *query, char *buf, size_t size)
{
	buf[0] = '\0';
	if (query->attr == CAP_ATTR_PORT_INFO)
		snprintf(buf, size, " of port %u", query->mod);
	else if (query->attr == CAP_ATTR_LFT)
		snprintf(buf, size, " block %u", query->mod);
	else if (query->attr == CAP_ATTR_SL2VL && query->mod)
		snprintf(buf, size, " from port %u to port %u", query->mod >> 8,
			 query->mod & 0xff);
}

static void describe(const struct cap_engine *engine, const struct cap_query *query,
		     char *buf, size_t size)
{
	char path_text[CAP_MAX_HOPS * 4 + 8], label[160], modifier[48];
	uint8_t path[CAP_MAX_HOPS + 1];
	unsigned hops;

	if (is_sa(query)) {
		if (query->dlid)
			snprintf(buf, size, "PathRecord from LID %u to LID %u (SA at LID %u)",
				 query->slid, query->dlid, engine->fabric->sm_lid);
		else
			snprintf(buf, size, "PathRecords from LID %u (SA at LID %u)",
				 query->slid, engine->fabric->sm_lid);
		return;
	}
	cap_path(engine->fabric, query->node, query->via, path, &hops);
	cap_path_text(path, hops, path_text, sizeof(path_text));
	cap_node_label(engine->fabric, query->node, label, sizeof(label));
	modifier_text(query, modifier, sizeof(modifier));
	if (query->via)
		snprintf(buf, size, "%s%s at directed path %s (through port %u of %s)",
			 cap_attr_name(query->attr), modifier, path_text, query->via, label);
	else
		snprintf(buf, size, "%s%s at directed path %s (%s)",
			 cap_attr_name(query->attr), modifier, path_text, label);
}

int cap_engine_fail(struct cap_engine *engine, const struct cap_query *query,
		    const char *fmt, ...)
{
	char where[512], detail[512];
	va_list args;

	va_start(args, fmt);
	vsnprintf(detail, sizeof(detail), fmt, args);
	va_end(args);
	describe(engine, query, where, sizeof(where));
	return vlr_fail(engine->err, "%s: %s", where, detail);
}

int cap_engine_check_smp(struct cap_engine *engine, const struct cap_query *query,
			 const uint8_t *mad, size_t length)
{
	uint16_t status;

	if (length < 128)
		return cap_engine_fail(engine, query, "the answer is %zu bytes, too short "
				       "for an SMP", length);
	status = cap_mad_status(mad);
	if (status)
		return cap_engine_fail(engine, query, "answered with status 0x%04x (%s)",
				       status, cap_status_text(status, 0));
	return 0;
}

/* ---- sending and receiving ---------------------------------------------- */

static int transmit(struct cap_engine *engine, unsigned index)
{
	struct cap_slot *slot = &engine->slots[index];
	const struct cap_query *query = &slot->query;
	const struct cap_fabric *fabric = engine->fabric;
	uint8_t mad[VLR_MAD_SIZE], path[CAP_MAX_HOPS + 1];
	struct vlr_error inner;
	unsigned hops;
	int failed;

	engine->sequence = (engine->sequence + 1) & 0xffffffu;
	if (!engine->sequence)
		engine->sequence = 1;
	slot->tid = engine->sequence << 8 | index;
	if (is_sa(query)) {
		cap_sa_build_path_query(mad, slot->tid, query->kind == CAP_Q_PATHS ?
					CAP_SA_GET_TABLE : CAP_SA_GET, query->slid, query->dlid);
		failed = engine->transport->send(engine->transport->context, mad, VLR_MAD_SIZE,
						 1, fabric->sm_lid, fabric->sm_sl,
						 engine->timeout_ms, &inner);
	} else {
		cap_path(fabric, query->node, query->via, path, &hops);
		cap_smp_build(mad, slot->tid, query->attr, query->mod, path, hops);
		failed = engine->transport->send(engine->transport->context, mad, VLR_MAD_SIZE,
						 0, 0xffff, 0, engine->timeout_ms, &inner);
	}
	if (failed)
		return cap_engine_fail(engine, query, "cannot send: %s", inner.message);
	/* Later than the transport's own timeout, which says more. */
	slot->deadline = vlr_clock_ns() +
			 (uint64_t)(engine->timeout_ms * 3 / 2 + 20) * 1000000u;
	return 0;
}

static int top_up(struct cap_engine *engine)
{
	struct cap_query query;

	while (engine->free_count) {
		unsigned index;

		if (!engine->queue_count && engine->refill &&
		    engine->refill(engine->context))
			return -1;
		if (!pop(engine, &query))
			break;
		index = engine->free_slots[--engine->free_count];
		engine->slots[index].query = query;
		engine->slots[index].tries = 1;
		engine->slots[index].used = 1;
		if (transmit(engine, index))
			return -1;
	}
	return 0;
}

static void release(struct cap_engine *engine, unsigned index)
{
	engine->slots[index].used = 0;
	engine->free_slots[engine->free_count++] = index;
}

static int retry(struct cap_engine *engine, unsigned index)
{
	struct cap_slot *slot = &engine->slots[index];

	if (slot->tries > engine->retries)
		return cap_engine_fail(engine, &slot->query, "no answer after %u tr%s of "
				       "%u ms", slot->tries, slot->tries == 1 ? "y" : "ies",
				       engine->timeout_ms);
	slot->tries++;
	engine->resent++;
	return transmit(engine, index);
}

static int take(struct cap_engine *engine, const uint8_t *mad, size_t length, int failed)
{
	struct cap_query query;
	struct cap_slot *slot;
	uint32_t tid;
	unsigned index;

	if (length < 24)
		return 0;
	tid = cap_be32(mad + 12);
	index = tid & 0xff;
	if (index >= engine->window)
		return 0;
	slot = &engine->slots[index];
	if (!slot->used || slot->tid != tid)
		return 0;		/* an answer to an abandoned try */
	if (failed)
		return retry(engine, index);
	if (!(mad[3] & 0x80) || mad[1] != (is_sa(&slot->query) ? SA_CLASS : SMP_CLASS))
		return 0;		/* not an answer to this query */
	query = slot->query;
	release(engine, index);
	if (is_sa(&query))
		engine->sa_queries++;
	else
		engine->smps++;
	return engine->answer(engine->context, &query, mad, length);
}

static int expire(struct cap_engine *engine)
{
	uint64_t now = vlr_clock_ns();
	unsigned i;

	for (i = 0; i < engine->window; i++)
		if (engine->slots[i].used && engine->slots[i].deadline <= now &&
		    retry(engine, i))
			return -1;
	return 0;
}

static unsigned wait_ms(const struct cap_engine *engine)
{
	uint64_t earliest = UINT64_MAX, now = vlr_clock_ns(), ms;
	unsigned i;

	for (i = 0; i < engine->window; i++)
		if (engine->slots[i].used && engine->slots[i].deadline < earliest)
			earliest = engine->slots[i].deadline;
	if (earliest <= now)
		return 0;
	ms = (earliest - now + 999999u) / 1000000u;
	return ms > WAIT_LIMIT_MS ? WAIT_LIMIT_MS : (unsigned)ms;
}

int cap_engine_run(struct cap_engine *engine, cap_answer_fn answer,
		   cap_refill_fn refill, void *context)
{
	engine->answer = answer;
	engine->refill = refill;
	engine->context = context;
	for (;;) {
		const uint8_t *mad;
		size_t length;
		int failed = 0, got;

		if (top_up(engine))
			return -1;
		if (engine->free_count == engine->window)
			return 0;
		got = engine->transport->recv(engine->transport->context, &mad, &length,
					      &failed, wait_ms(engine), engine->err);
		if (got < 0)
			return -1;
		if (got > 0 && take(engine, mad, length, failed))
			return -1;
		if (expire(engine))
			return -1;
	}
}
