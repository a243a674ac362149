/*
 * tablefiles_lft.h - the lines of OpenSM's opensm-lfts.dump (internal),
 * shared by its writer and reader, the LMC inference and the reader of
 * infiniband-diags' dumps.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TABLEFILES_LFT_H
#define VLROUTE_TABLEFILES_LFT_H

#include "tablefiles_internal.h"

/* Every LID's " # ...\n" tail, which is the same on every switch. */
struct tf_lid_tails {
	char *text;
	uint32_t *offset;	/* lid_stride + 1 entries */
};

int tf_lid_tails_build(const struct vlr_tables *tables, struct tf_lid_tails *tails,
		       struct vlr_error *err);
void tf_lid_tails_free(struct tf_lid_tails *tails);

/* "Unicast lids [0-MAX] of switch Lid L guid 0xGUID ('DESC'):" */
struct tf_lft_header {
	uint32_t max_lid;
	uint32_t lid;
	uint64_t guid;
};

/* A LID line: "0xLID PORT" and an optional "# ... portguid 0xGUID: ..." */
struct tf_lid_line {
	uint32_t lid;
	uint32_t port;
	uint64_t guid;
	int has_guid;		/* the comment names a port GUID */
	int unknown;		/* the comment says "unknown node and type" */
};

enum tf_lft_line {
	TF_LFT_SKIP,		/* empty or a comment */
	TF_LFT_HEADER,
	TF_LFT_LID,
	TF_LFT_FOOTER,		/* "N lids dumped" */
	TF_LFT_OTHER,
};

/* The kind of line; *text skips leading blanks, *count is a footer's N. */
enum tf_lft_line tf_lft_classify(const char **text, uint32_t *count);

/* Parsers: 0, or -1 with *problem saying what is wrong. */
int tf_lft_parse_header(const char *s, struct tf_lft_header *header,
			const char **problem);

/* "0xLID PORT", leaving *rest right after the port. */
int tf_lft_parse_lid_head(const char *s, struct tf_lid_line *entry, const char **rest,
			  const char **problem);

/* What follows the port: nothing, or a comment. */
int tf_lft_parse_lid_tail(const char *s, struct tf_lid_line *entry,
			  const char **problem);

/* Both. */
int tf_lft_parse_lid_line(const char *s, struct tf_lid_line *entry,
			  const char **problem);

/*
 * Open the block of the switch with node GUID guid, whose header gives LID
 * lid (VLR_NONE: gives none): refuses, naming the line of lines, a GUID
 * that is no switch of the tables (switches: tf_index_switches), a switch
 * whose block seen[] says was read, and another LID; else marks it seen,
 * sets *sw and resets its LFT to VLR_NO_PORT.
 */
int tf_lft_open_block(struct vlr_tables *tables, const struct vlr_guid_map *switches,
		      uint8_t *seen, const struct vlr_lines *lines, uint64_t guid,
		      uint32_t lid, uint32_t *sw);

/*
 * At the end of an LFT dump: refuses a block still open (switch open_sw,
 * from line block_line) and, when the tables have switches, a file without
 * blocks ("PATH: holds no " none).
 */
int tf_lft_check_end(const struct vlr_tables *tables, const struct vlr_lines *lines,
		     uint32_t open_sw, uint32_t block_line, uint32_t blocks,
		     const char *none, struct vlr_error *err);

/*
 * Does the port GUID (or "unknown node and type") of a LID line agree with
 * the LID's owner in the tables? 0, or -1 naming the line of lines.
 */
int tf_lft_check_owner(const struct vlr_tables *tables, const struct vlr_lines *lines,
		       const struct tf_lid_line *entry);

#endif
