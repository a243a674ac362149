/*
 * tablefiles_lmc.c - LMCs inferred from OpenSM's opensm-lfts.dump, for
 * fabrics (from opensm-subnet.lst) that know only their base LIDs.
 *
 * Every LID line names the port GUID that owns the LID. A port's LIDs are
 * the run of LIDs from its base that the dump gives to its GUID; the run
 * is known to have ended once the LID after it belongs to someone else, is
 * another port's base, or would break the alignment an LMC needs. A LID
 * after a run that no block mentions is either unused or not routed by
 * the blocks read so far; a port whose base SETTLE_BLOCKS blocks have
 * routed is taken to have the run seen by then (OpenSM routes all LIDs of
 * a port alike). Blocks are read until every port is settled, which in
 * OpenSM's dumps takes two blocks, else to the end.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_lft_internal.h"

#define SETTLE_BLOCKS 2

struct inference {
	struct vlr_fabric *fabric;
	struct vlr_lines lines;
	struct vlr_error *err;
	uint32_t *base_owner;	/* [lid]: port whose base LID it is, VLR_NONE */
	uint64_t *owner_guid;	/* [lid]: port GUID the dump gives it, 0 if none */
	uint32_t *owner_line;	/* [lid]: line that did */
	uint32_t *pending;	/* ports whose run is not known yet */
	uint8_t *blocks_seen;	/* [port]: blocks that routed its base LID */
	uint32_t num_pending;
	uint32_t max_lid;	/* highest MAXLID of the headers */
};

/* Largest block of LIDs an aligned LMC range based at lid can have. */
static uint32_t largest_block(uint32_t lid)
{
	uint32_t block = 1;

	while (block < (1u << VLR_MAX_LMC) && !(lid & block))
		block <<= 1;
	return block;
}

/* The run of LIDs from the port's base given to its GUID; 1 if it ended. */
static uint32_t run_of(const struct inference *inf, uint32_t port, int *ended)
{
	uint32_t base = inf->fabric->ports[port].lid, count = 1, next;
	uint32_t limit = largest_block(base);
	uint64_t guid = tf_port_guid(inf->fabric, port);

	while (count < limit && base + count <= VLR_MAX_UNICAST_LID &&
	       inf->owner_guid[base + count] == guid &&
	       inf->base_owner[base + count] == VLR_NONE)
		count++;
	next = base + count;
	*ended = count == limit || next > VLR_MAX_UNICAST_LID ||
		 (inf->max_lid && next > inf->max_lid) ||
		 inf->base_owner[next] != VLR_NONE ||
		 (inf->owner_guid[next] && inf->owner_guid[next] != guid);
	return count;
}

static int set_lmc(struct inference *inf, uint32_t port, uint32_t count)
{
	struct vlr_port *record = &inf->fabric->ports[port];
	uint32_t lmc = 0;

	while ((1u << lmc) < count)
		lmc++;
	if ((1u << lmc) != count)
		return vlr_fail(inf->err, "%s: the LFT dump gives port GUID 0x%016llx the "
				"LIDs %u..%u: not 2^LMC of them", inf->lines.path,
				(unsigned long long)tf_port_guid(inf->fabric, port),
				record->lid, record->lid + count - 1);
	record->lmc = (uint8_t)lmc;
	if (!vlr_node_is_switch(inf->fabric, record->node) && lmc > inf->fabric->lmc)
		inf->fabric->lmc = (uint8_t)lmc;
	return 0;
}

/* Settle the ports whose runs are known (all of them at the end). */
static int settle(struct inference *inf, int at_end)
{
	uint32_t i, kept = 0;

	for (i = 0; i < inf->num_pending; i++) {
		uint32_t port = inf->pending[i], count;
		int ended;

		count = run_of(inf, port, &ended);
		if (inf->owner_guid[inf->fabric->ports[port].lid] &&
		    (ended || at_end || inf->blocks_seen[port] >= SETTLE_BLOCKS)) {
			if (set_lmc(inf, port, count))
				return -1;
		} else {
			inf->pending[kept++] = port;
		}
	}
	inf->num_pending = kept;
	return 0;
}

static int index_base_lids(struct inference *inf)
{
	const struct vlr_fabric *fabric = inf->fabric;
	uint32_t port;

	for (port = 0; port < fabric->num_ports; port++) {
		uint16_t lid = fabric->ports[port].lid;
		char first[128], second[128];

		if (!lid || !tf_port_owns_lids(fabric, port))
			continue;
		if (inf->base_owner[lid] != VLR_NONE) {
			tf_port_label(fabric, inf->base_owner[lid], first, sizeof(first));
			tf_port_label(fabric, port, second, sizeof(second));
			return vlr_fail(inf->err, "LID %u belongs to both %s and %s", lid,
					first, second);
		}
		inf->base_owner[lid] = port;
		inf->pending[inf->num_pending++] = port;
	}
	return 0;
}

static int note_owner(struct inference *inf, const char *text)
{
	struct tf_lid_line entry;
	const char *problem;

	if (tf_lft_parse_lid_line(text, &entry, &problem))
		return vlr_fail_at(inf->err, inf->lines.path, inf->lines.line, "%s", problem);
	if (!entry.has_guid || !entry.guid)
		return 0;
	if (inf->base_owner[entry.lid] != VLR_NONE &&
	    inf->blocks_seen[inf->base_owner[entry.lid]] < SETTLE_BLOCKS)
		inf->blocks_seen[inf->base_owner[entry.lid]]++;
	if (!inf->owner_guid[entry.lid]) {
		inf->owner_guid[entry.lid] = entry.guid;
		inf->owner_line[entry.lid] = inf->lines.line;
	} else if (inf->owner_guid[entry.lid] != entry.guid) {
		return vlr_fail_at(inf->err, inf->lines.path, inf->lines.line,
				   "LID %u belongs to port GUID 0x%016llx here, but to "
				   "0x%016llx at line %u", entry.lid,
				   (unsigned long long)entry.guid,
				   (unsigned long long)inf->owner_guid[entry.lid],
				   inf->owner_line[entry.lid]);
	}
	return 0;
}

static int infer_line(struct inference *inf, const char *text)
{
	struct tf_lft_header header;
	const char *problem;
	uint32_t count;

	switch (tf_lft_classify(&text, &count)) {
	case TF_LFT_HEADER:
		if (tf_lft_parse_header(text, &header, &problem))
			return vlr_fail_at(inf->err, inf->lines.path, inf->lines.line, "%s",
					   problem);
		if (header.max_lid > inf->max_lid)
			inf->max_lid = header.max_lid;
		return 0;
	case TF_LFT_FOOTER:
		return settle(inf, 0);
	case TF_LFT_LID:
		return note_owner(inf, text);
	case TF_LFT_SKIP:
	case TF_LFT_OTHER:
		break;
	}
	return 0;
}

static int infer_all(struct inference *inf)
{
	int got = 0;
	char *text;

	if (index_base_lids(inf))
		return -1;
	while (inf->num_pending && (got = vlr_lines_next(&inf->lines, &text, inf->err)) > 0)
		if (infer_line(inf, text))
			return -1;
	if (got < 0)
		return -1;
	return settle(inf, 1);
}

int vlr_lfts_infer_lmc(struct vlr_fabric *fabric, const char *path,
		       struct vlr_error *err)
{
	struct inference inf;
	uint32_t lid;
	int result;

	memset(&inf, 0, sizeof(inf));
	inf.fabric = fabric;
	inf.err = err;
	inf.base_owner = malloc(sizeof(uint32_t) * (VLR_MAX_UNICAST_LID + 2));
	inf.owner_guid = calloc(VLR_MAX_UNICAST_LID + 2, sizeof(uint64_t));
	inf.owner_line = calloc(VLR_MAX_UNICAST_LID + 2, sizeof(uint32_t));
	inf.pending = malloc(sizeof(uint32_t) * (fabric->num_ports + 1));
	inf.blocks_seen = calloc(fabric->num_ports + 1, 1);
	if (!inf.base_owner || !inf.owner_guid || !inf.owner_line || !inf.pending ||
	    !inf.blocks_seen) {
		result = vlr_fail(err, "out of memory reading %s", path);
		goto done;
	}
	for (lid = 0; lid <= VLR_MAX_UNICAST_LID + 1; lid++)
		inf.base_owner[lid] = VLR_NONE;
	result = vlr_lines_open(&inf.lines, path, err);
	if (!result)
		result = infer_all(&inf);
	vlr_lines_close(&inf.lines);
done:
	free(inf.base_owner);
	free(inf.owner_guid);
	free(inf.owner_line);
	free(inf.pending);
	free(inf.blocks_seen);
	return result;
}
