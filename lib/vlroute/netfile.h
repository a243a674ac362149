/*
 * netfile.h - reading and writing fabrics as ibsim net files.
 *
 * The reader takes everything ibsim's own parser takes: Switch, Ca/Hca and
 * Rt records, optional remote port numbers (default 1), port aliases
 * (@[N] "alias"), switchguid/caguid/rtguid bases (absolute "=" or relative
 * "+") that set node GUIDs exactly as ibsim does, width/speed defaults and
 * per-port w=/s= options, module prefixes and include files. Because ibsim
 * reads ibnetdiscover's output, so does this reader: it also keeps the LIDs,
 * LMC and port GUIDs such output carries. Unlike ibsim it refuses, with
 * FILE:LINE, what ibsim would silently ignore or misread.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_NETFILE_H
#define VLROUTE_NETFILE_H

#include <stdio.h>

#include <vlroute/fabric.h>

/* What the reader accepted but could not apply. */
struct vlr_netfile_notes {
	unsigned ignored_commands;	/* ibsim console commands ("do ...") */
	char first_ignored[256];	/* "FILE:LINE" of the first one */
};

/* Read a net file into an empty fabric. notes may be NULL. */
int vlr_netfile_read(struct vlr_fabric *fabric, const char *path,
		     struct vlr_netfile_notes *notes, struct vlr_error *err);

/*
 * Write the fabric in ibsim's net format, switches first, with explicit
 * GUID bases so that ibsim presents exactly the fabric's GUIDs. Each line
 * of header (may be NULL) becomes a "# " comment at the top.
 */
int vlr_netfile_write(const struct vlr_fabric *fabric, FILE *out,
		      const char *header, struct vlr_error *err);

/* The -N, -S, -P and -L values ibsim needs to load and route this fabric. */
struct vlr_ibsim_sizes {
	unsigned nodes;
	unsigned switches;
	unsigned ports;
	unsigned linear_cap;	/* LFT size: highest LID + 1 at the fabric's LMC */
};

void vlr_ibsim_sizes(const struct vlr_fabric *fabric, struct vlr_ibsim_sizes *sizes);

/* Does the fabric need any of ibsim's size flags? */
int vlr_ibsim_needs_flags(const struct vlr_ibsim_sizes *sizes);

/* "-N 6132 -S 876 -P 26280", only the flags needed ("" when none). */
void vlr_ibsim_flags(const struct vlr_ibsim_sizes *sizes, char *buf, size_t size);

/* ibsim 0.10's built-in limits. */
#define VLR_IBSIM_DEFAULT_NODES 2048
#define VLR_IBSIM_DEFAULT_SWITCHES 256
#define VLR_IBSIM_DEFAULT_PORTS 13312
#define VLR_IBSIM_DEFAULT_LINEAR_CAP 30720

#endif
