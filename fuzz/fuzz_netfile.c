/*
 * fuzz_netfile.c - libFuzzer harness of the net-file reader, in both its
 * dialects (ibsim net files and ibnetdiscover output). Whatever it
 * accepts is written back with the net-file writer and read again, and
 * the second read must give every node (name, type, GUID, ports,
 * description, kind of port 0), every link, every linked port's GUID,
 * width and speed, and every LID and LMC of the first: a writer that
 * loses or changes something, or a reader that cannot read the writer,
 * stops the fuzzer. Inputs that include files outside the scratch
 * directory are skipped (fuzz_includes_outside).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void differs(const struct vlr_fabric *a, uint32_t node, const char *what)
{
	char detail[256];

	snprintf(detail, sizeof(detail), "node \"%s\": %s", vlr_node_name(a, node), what);
	fuzz_die("read -> write -> read changed the fabric", detail);
}

static void same_node(const struct vlr_fabric *a, uint32_t x, const struct vlr_fabric *b,
		      uint32_t y)
{
	const struct vlr_node *n = &a->nodes[x], *m = &b->nodes[y];

	if (n->type != m->type || n->guid != m->guid || n->num_ports != m->num_ports)
		differs(a, x, "type, GUID or number of ports");
	if (strcmp(vlr_node_description(a, x), vlr_node_description(b, y)))
		differs(a, x, "description");
	if (n->type == VLR_NODE_SWITCH && n->enhanced_port0 != m->enhanced_port0)
		differs(a, x, "enhanced or base port 0");
}

/* A port that owns LIDs: a switch's port 0, an endpoint's linked port. */
static int owns_lids(const struct vlr_fabric *fabric, const struct vlr_port *port)
{
	return vlr_node_is_switch(fabric, port->node) ? port->number == 0 :
	       port->peer != VLR_NONE;
}

static void same_port(const struct vlr_fabric *a, const struct vlr_port *p,
		      const struct vlr_fabric *b, const struct vlr_port *q)
{
	if ((p->peer == VLR_NONE) != (q->peer == VLR_NONE))
		differs(a, p->node, "a port's link");
	if (p->peer != VLR_NONE &&
	    (strcmp(vlr_node_name(a, a->ports[p->peer].node),
		    vlr_node_name(b, b->ports[q->peer].node)) ||
	     a->ports[p->peer].number != b->ports[q->peer].number ||
	     p->width != q->width || p->speed != q->speed ||
	     (!vlr_node_is_switch(a, p->node) && p->guid != q->guid)))
		differs(a, p->node, "a link, or a linked port's GUID, width or speed");
	if (owns_lids(a, p) && (p->lid != q->lid || (p->lid && p->lmc != q->lmc)))
		differs(a, p->node, "a LID or LMC");
}

static void same_fabric(const struct vlr_fabric *a, const struct vlr_fabric *b)
{
	uint32_t node, number;

	if (a->num_nodes != b->num_nodes || a->num_ports != b->num_ports)
		fuzz_die("read -> write -> read changed the fabric", "node or port count");
	for (node = 0; node < a->num_nodes; node++) {
		uint32_t other = vlr_fabric_find(b, vlr_node_name(a, node));

		if (other == VLR_NONE)
			differs(a, node, "missing after the round trip");
		same_node(a, node, b, other);
		for (number = 0; number <= a->nodes[node].num_ports; number++)
			same_port(a, vlr_port_at(a, node, number), b,
				  vlr_port_at(b, other, number));
	}
}

/* Write fabric to path and read it back; NULL (with err) if either fails. */
static struct vlr_fabric *round_trip(const struct vlr_fabric *fabric, const char *path,
				     struct vlr_error *err)
{
	struct vlr_fabric *back = vlr_fabric_new();
	FILE *out = fopen(path, "w");
	int failed;

	if (!out || !back)
		fuzz_die("cannot write", path);
	failed = vlr_netfile_write(fabric, out, NULL, err);
	if (fclose(out))
		fuzz_die("cannot write", path);
	if (failed || vlr_netfile_read(back, path, NULL, err)) {
		vlr_fabric_free(back);
		return NULL;
	}
	return back;
}

/* The writer refuses node names with '#' or '@' (ibsim reserves them). */
static int names_writable(const struct vlr_fabric *fabric)
{
	uint32_t node;

	for (node = 0; node < fabric->num_nodes; node++)
		if (strpbrk(vlr_node_name(fabric, node), "#@"))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path("input.net");
	struct vlr_fabric *fabric, *back;
	struct vlr_error err;

	if (fuzz_includes_outside(data, size))
		return 0;
	fuzz_write(path, data, size);
	fabric = vlr_fabric_new();
	if (!fabric)
		fuzz_die("out of memory", "vlr_fabric_new");
	if (vlr_netfile_read(fabric, path, NULL, &err) == 0 && names_writable(fabric)) {
		back = round_trip(fabric, fuzz_path("written.net"), &err);
		if (!back)
			fuzz_die("the net-file reader refuses what the writer wrote",
				 err.message);
		same_fabric(fabric, back);
		vlr_fabric_free(back);
	}
	vlr_fabric_free(fabric);
	return 0;
}
