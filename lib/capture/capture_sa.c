/*
 * capture_sa.c - the path SL of every (source port, DLID), as the subnet
 * administrator hands it out in PathRecords.
 *
 * OpenSM answers a SubnAdmGetTable of PathRecords whose component mask
 * holds only the SLID with one record for every LID of every port (its
 * "half world" query), so one query per source port suffices where the
 * answer arrives whole (the kernel reassembles its RMPP segments). Under
 * ibsim, whose umad2sim has no RMPP, only the answer's first MAD arrives;
 * when the first source's answer is cut like that, the SA is asked pair by
 * pair with SubnAdmGet (SLID and DLID in the mask) instead. DLIDs a whole
 * answer lacks are asked for one by one too; where the SA has no path the
 * SL stays 0 and the pair is counted.
 *
 * Sources ask with their base LID. Their rows of SLs are shared when equal
 * (the hosts of one switch usually get the same row), as in our path-SL
 * files. With a sample size N, only the first source port of each switch
 * is asked about every DLID; every other one is asked about N DLIDs spread
 * over the range and, when all N answers agree, given its switch's row;
 * a source with one answer that differs is asked about every DLID.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "capture_internal.h"

#define PAIRS_PER_REFILL 1024

enum sa_mode {
	SA_PROBE,		/* the first source's GetTable is out */
	SA_TABLES,		/* one GetTable per source */
	SA_PAIRS,		/* one Get per (source, DLID) */
};

struct sa_reader {
	struct cap_engine *engine;
	struct vlr_tables *tables;
	struct vlr_capture_report *report;
	unsigned sample;	/* DLIDs asked about per sampled source, 0: none */
	uint32_t *sources;	/* port slots of the source ports */
	uint32_t *leader;	/* [source]: the first source of its switch */
	uint8_t *whole;		/* [source]: asked about every DLID */
	uint32_t num_sources;
	uint16_t *dlids;	/* every LID a port owns */
	uint32_t num_dlids;
	uint8_t *rows;		/* num_sources rows of lid_stride SLs */
	uint8_t *seen;		/* lid_stride flags for one GetTable answer */
	enum sa_mode mode;
	uint32_t next_source;	/* refill's place asking in full */
	uint32_t next_dlid;
	uint32_t next_sampled;	/* refill's place sampling */
};

static uint8_t *row_of(const struct sa_reader *reader, uint32_t source)
{
	return reader->rows + (uint64_t)source * reader->tables->lid_stride;
}

static uint16_t source_lid(const struct sa_reader *reader, uint32_t source)
{
	return reader->tables->fabric->ports[reader->sources[source]].lid;
}

static int submit(struct sa_reader *reader, uint8_t kind, uint32_t source, uint16_t dlid)
{
	struct cap_query query;

	memset(&query, 0, sizeof(query));
	query.kind = kind;
	query.attr = CAP_ATTR_PATH_RECORD;
	query.arg = source;
	query.slid = source_lid(reader, source);
	query.dlid = dlid;
	return cap_engine_submit(reader->engine, &query);
}

/* Ask the SA pair by pair about every DLID of a source. */
static int ask_pairs(struct sa_reader *reader, uint32_t source)
{
	uint32_t i;

	for (i = 0; i < reader->num_dlids; i++)
		if (submit(reader, CAP_Q_PATH, source, reader->dlids[i]))
			return -1;
	return 0;
}

static int refill(void *context)
{
	struct sa_reader *reader = context;
	unsigned count = 0;

	while (reader->mode == SA_TABLES && reader->next_source < reader->num_sources)
		if (reader->whole[reader->next_source++])
			return submit(reader, CAP_Q_PATHS, reader->next_source - 1, 0);
	while (reader->mode == SA_PAIRS && reader->next_source < reader->num_sources &&
	       count < PAIRS_PER_REFILL) {
		if (!reader->whole[reader->next_source]) {
			reader->next_source++;
			continue;
		}
		if (submit(reader, CAP_Q_PATH, reader->next_source,
			   reader->dlids[reader->next_dlid]))
			return -1;
		count++;
		if (++reader->next_dlid == reader->num_dlids) {
			reader->next_dlid = 0;
			reader->next_source++;
		}
	}
	return 0;
}

/* The sampled sources: `sample` DLIDs each, spread and shifted per source. */
static int refill_samples(void *context)
{
	struct sa_reader *reader = context;
	uint32_t source, i, n = reader->num_dlids;

	while (reader->next_sampled < reader->num_sources) {
		source = reader->next_sampled++;
		if (reader->whole[source])
			continue;
		for (i = 0; i < reader->sample && i < n; i++)
			if (submit(reader, CAP_Q_PATH_SAMPLE, source,
				   reader->dlids[((uint64_t)i * n / reader->sample + source) % n]))
				return -1;
		return 0;
	}
	return 0;
}

static int store(struct sa_reader *reader, const struct cap_query *query,
		 const struct cap_path_record *record)
{
	if (record->slid != query->slid || !record->dlid ||
	    record->dlid > reader->tables->max_lid ||
	    reader->tables->lid_owner[record->dlid] == VLR_NONE)
		return 0;
	row_of(reader, query->arg)[record->dlid] = record->sl;
	return 1;
}

static int take_pair(struct sa_reader *reader, const struct cap_query *query,
		     const uint8_t *mad, size_t length)
{
	struct cap_path_record record;
	uint16_t status = cap_mad_status(mad);

	if (status == CAP_SA_NO_RECORDS) {
		if (query->kind == CAP_Q_PATH)
			reader->report->no_path++;
		return 0;
	}
	if (status)
		return cap_engine_fail(reader->engine, query, "answered with status 0x%04x "
				       "(%s)", status, cap_status_text(status, 1));
	if (!cap_sa_record_count(mad, length))
		return cap_engine_fail(reader->engine, query, "the answer holds no record");
	cap_sa_record(mad, 0, &record);
	if (record.dlid != query->dlid || !store(reader, query, &record))
		return cap_engine_fail(reader->engine, query, "answered with the path from "
				       "LID %u to LID %u", record.slid, record.dlid);
	return 0;
}

/* A sampled answer that differs from the switch's row: ask about every DLID. */
static int take_sample(struct sa_reader *reader, const struct cap_query *query,
		       const uint8_t *mad, size_t length)
{
	uint32_t source = query->arg;

	if (take_pair(reader, query, mad, length))
		return -1;
	if (reader->whole[source] ||
	    row_of(reader, source)[query->dlid] ==
	    row_of(reader, reader->leader[source])[query->dlid])
		return 0;
	reader->whole[source] = 1;
	if (reader->mode == SA_TABLES)
		return submit(reader, CAP_Q_PATHS, source, 0);
	return ask_pairs(reader, source);
}

/* Ask pair by pair for what a GetTable answer lacks; switch modes after a probe. */
static int ask_missing(struct sa_reader *reader, const struct cap_query *query,
		       size_t length)
{
	uint32_t i, missing = 0;

	for (i = 0; i < reader->num_dlids; i++)
		if (!reader->seen[reader->dlids[i]]) {
			missing++;
			if (submit(reader, CAP_Q_PATH, query->arg, reader->dlids[i]))
				return -1;
		}
	if (reader->mode == SA_PROBE) {
		reader->mode = missing && length <= VLR_MAD_SIZE ? SA_PAIRS : SA_TABLES;
		reader->report->sa_per_pair = reader->mode == SA_PAIRS;
	}
	return 0;
}

static int take_table(struct sa_reader *reader, const struct cap_query *query,
		      const uint8_t *mad, size_t length)
{
	uint16_t status = cap_mad_status(mad);
	unsigned count = 0, i;

	if (status && status != CAP_SA_NO_RECORDS && reader->mode != SA_PROBE)
		return cap_engine_fail(reader->engine, query, "answered with status 0x%04x "
				       "(%s)", status, cap_status_text(status, 1));
	if (!status)
		count = cap_sa_record_count(mad, length);
	memset(reader->seen, 0, reader->tables->lid_stride);
	for (i = 0; i < count; i++) {
		struct cap_path_record record;

		cap_sa_record(mad, i, &record);
		if (store(reader, query, &record))
			reader->seen[record.dlid] = 1;
	}
	return ask_missing(reader, query, status ? 0 : length);
}

static int answer(void *context, const struct cap_query *query, const uint8_t *mad,
		  size_t length)
{
	struct sa_reader *reader = context;

	if (length < CAP_SA_HEADER)
		return cap_engine_fail(reader->engine, query, "the answer is %zu bytes, too "
				       "short for the SA", length);
	if (query->kind == CAP_Q_PATHS)
		return take_table(reader, query, mad, length);
	if (query->kind == CAP_Q_PATH_SAMPLE)
		return take_sample(reader, query, mad, length);
	return take_pair(reader, query, mad, length);
}

/* ---- sources, DLIDs and shared rows ------------------------------------- */

static int list_ports(struct sa_reader *reader, struct vlr_error *err)
{
	const struct vlr_tables *tables = reader->tables;
	uint32_t port, lid;

	reader->sources = malloc(sizeof(uint32_t) * (tables->fabric->num_ports + 1));
	reader->dlids = malloc(sizeof(uint16_t) * (tables->lid_stride + 1));
	reader->seen = malloc(tables->lid_stride);
	if (!reader->sources || !reader->dlids || !reader->seen)
		return vlr_fail(err, "out of memory listing the path-SL queries");
	for (port = 0; port < tables->fabric->num_ports; port++)
		if (vlr_tables_is_source(tables, port) && tables->fabric->ports[port].lid)
			reader->sources[reader->num_sources++] = port;
	for (lid = 1; lid <= tables->max_lid; lid++)
		if (tables->lid_owner[lid] != VLR_NONE)
			reader->dlids[reader->num_dlids++] = (uint16_t)lid;
	reader->rows = calloc((uint64_t)reader->num_sources * tables->lid_stride + 1, 1);
	if (!reader->rows)
		return vlr_fail(err, "out of memory for the path SLs of %u source ports",
				reader->num_sources);
	return 0;
}

/* Each source's leader: itself, or with sampling the first of its switch. */
static int choose_leaders(struct sa_reader *reader, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint32_t *first = malloc(sizeof(uint32_t) * (fabric->num_nodes + 1)), source;

	reader->leader = malloc(sizeof(uint32_t) * (reader->num_sources + 1));
	reader->whole = malloc(reader->num_sources + 1);
	if (!first || !reader->leader || !reader->whole) {
		free(first);
		return vlr_fail(err, "out of memory grouping the sources by switch");
	}
	memset(first, 0xff, sizeof(uint32_t) * fabric->num_nodes);
	for (source = 0; source < reader->num_sources; source++) {
		const struct vlr_port *port = &fabric->ports[reader->sources[source]];
		uint32_t sw = fabric->ports[port->peer].node;

		if (first[sw] == VLR_NONE || !reader->sample)
			first[sw] = source;
		reader->leader[source] = first[sw];
		reader->whole[source] = first[sw] == source;
	}
	free(first);
	return 0;
}

/* The sampled sources that agreed get their leader's row. */
static void copy_leader_rows(struct sa_reader *reader)
{
	uint32_t source;

	for (source = 0; source < reader->num_sources; source++) {
		if (reader->whole[source])
			continue;
		memcpy(row_of(reader, source), row_of(reader, reader->leader[source]),
		       reader->tables->lid_stride);
		reader->report->sampled++;
	}
}

/* Ask in full for the leaders (all sources without sampling), then sample. */
static int ask(struct sa_reader *reader)
{
	if (submit(reader, CAP_Q_PATHS, 0, 0) ||
	    cap_engine_run(reader->engine, answer, refill, reader))
		return -1;
	if (reader->sample &&
	    cap_engine_run(reader->engine, answer, refill_samples, reader))
		return -1;
	copy_leader_rows(reader);
	return 0;
}

static uint64_t row_hash(const uint8_t *row, uint32_t length)
{
	uint64_t hash = 14695981039346656037u;
	uint32_t i;

	for (i = 0; i < length; i++)
		hash = (hash ^ row[i]) * 1099511628211u;
	return hash;
}

/* Index of the first source whose row equals this one's (itself if none). */
static uint32_t first_equal(const struct sa_reader *reader, uint32_t *table, uint32_t mask,
			    uint32_t source)
{
	uint32_t stride = reader->tables->lid_stride;
	const uint8_t *row = row_of(reader, source);
	uint32_t slot = (uint32_t)row_hash(row, stride) & mask;

	while (table[slot] != VLR_NONE) {
		if (!memcmp(row_of(reader, table[slot]), row, stride))
			return table[slot];
		slot = (slot + 1) & mask;
	}
	table[slot] = source;
	return source;
}

/* Give each source port its row in the tables, equal rows shared. */
static int install_rows(struct sa_reader *reader, struct vlr_error *err)
{
	struct vlr_tables *tables = reader->tables;
	uint32_t mask = 1, source, rows = 0, *table, *row_index;
	int result = -1;

	while (mask < 2 * reader->num_sources + 2)
		mask <<= 1;
	table = malloc(sizeof(uint32_t) * mask);
	row_index = malloc(sizeof(uint32_t) * (reader->num_sources + 1));
	if (!table || !row_index) {
		vlr_fail(err, "out of memory sharing path-SL rows");
		goto done;
	}
	memset(table, 0xff, sizeof(uint32_t) * mask);
	for (source = 0; source < reader->num_sources; source++) {
		uint32_t equal = first_equal(reader, table, mask - 1, source);

		row_index[source] = equal == source ? rows++ : row_index[equal];
	}
	if (vlr_tables_alloc_sl_rows(tables, rows, err))
		goto done;
	for (source = 0; source < reader->num_sources; source++) {
		memcpy(vlr_tables_sl_row(tables, row_index[source]), row_of(reader, source),
		       tables->lid_stride);
		tables->port_sl_row[reader->sources[source]] = row_index[source];
	}
	reader->report->sl_rows = rows;
	result = 0;
done:
	free(table);
	free(row_index);
	return result;
}

int cap_read_path_sls(struct cap_engine *engine, struct vlr_tables *tables,
		      unsigned sample, struct vlr_capture_report *report)
{
	struct sa_reader reader;
	int result = -1;

	memset(&reader, 0, sizeof(reader));
	reader.engine = engine;
	reader.tables = tables;
	reader.report = report;
	reader.sample = sample;
	reader.mode = SA_PROBE;
	reader.next_source = 1;
	if (list_ports(&reader, engine->err) || choose_leaders(&reader, engine->err))
		goto done;
	report->sources = reader.num_sources;
	if (reader.num_sources && reader.num_dlids && ask(&reader))
		goto done;
	result = install_rows(&reader, engine->err);
done:
	free(reader.sources);
	free(reader.leader);
	free(reader.whole);
	free(reader.dlids);
	free(reader.seen);
	free(reader.rows);
	return result;
}
