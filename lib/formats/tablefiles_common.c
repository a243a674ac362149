/*
 * tablefiles_common.c - the writer, GUID indexes and number formatting the
 * table file formats share.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "tablefiles_internal.h"

/* ---- writing ------------------------------------------------------------ */

struct tf_out *tf_out_new(FILE *stream, struct vlr_error *err)
{
	struct tf_out *out = malloc(sizeof(*out));

	if (!out) {
		vlr_fail(err, "out of memory for the output buffer");
		return NULL;
	}
	out->out = stream;
	out->used = 0;
	return out;
}

void tf_out_text(struct tf_out *out, const char *text, size_t length)
{
	while (length) {
		size_t chunk = length < TF_OUT_SIZE ? length : TF_OUT_SIZE;

		memcpy(tf_out_reserve(out, chunk), text, chunk);
		out->used += chunk;
		text += chunk;
		length -= chunk;
	}
}

void tf_out_printf(struct tf_out *out, const char *fmt, ...)
{
	char text[1024];
	va_list args;
	int length;

	va_start(args, fmt);
	length = vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	if (length < 0)
		return;
	if ((size_t)length >= sizeof(text))
		length = sizeof(text) - 1;
	tf_out_text(out, text, (size_t)length);
}

int tf_out_finish(struct tf_out *out, const char *what, struct vlr_error *err)
{
	if (out->used)
		fwrite(out->buf, 1, out->used, out->out);
	out->used = 0;
	if (fflush(out->out) || ferror(out->out))
		return vlr_fail(err, "cannot write the %s: %s", what, strerror(errno));
	return 0;
}

/* ---- formatting --------------------------------------------------------- */

char *tf_put_hex(char *dst, uint64_t value, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	for (i = digits; i > 0; i--) {
		dst[i - 1] = hex[value & 15];
		value >>= 4;
	}
	return dst + digits;
}

char *tf_put_dec(char *dst, unsigned value, unsigned width)
{
	char digits[12];
	unsigned count = 0;

	do {
		digits[count++] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	while (width > count) {
		*dst++ = '0';
		width--;
	}
	while (count)
		*dst++ = digits[--count];
	return dst;
}

/* ---- fabric indexes ----------------------------------------------------- */

uint64_t tf_port_guid(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return vlr_port_at(fabric, record->node, 0)->guid ?
		       vlr_port_at(fabric, record->node, 0)->guid :
		       fabric->nodes[record->node].guid;
	return record->guid;
}

int tf_port_owns_lids(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return record->number == 0;
	return record->number > 0 && record->peer != VLR_NONE;
}

const char *tf_opensm_type_name(enum vlr_node_type type)
{
	switch (type) {
	case VLR_NODE_CA:
		return "Channel Adapter";
	case VLR_NODE_SWITCH:
		return "Switch";
	case VLR_NODE_ROUTER:
		return "Router";
	}
	return "Unknown";
}

void tf_port_label(const struct vlr_fabric *fabric, uint32_t port, char *buf,
		   size_t size)
{
	snprintf(buf, size, "\"%s\" port %u",
		 vlr_node_name(fabric, fabric->ports[port].node),
		 fabric->ports[port].number);
}

/* Switch port 0 and every endpoint port: the ports OpenSM names by GUID. */
static int is_named_port(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return record->number == 0;
	return record->number > 0;
}

int tf_index_ports(const struct vlr_fabric *fabric, struct vlr_guid_map *map,
		   struct vlr_error *err)
{
	uint32_t port, other;

	if (vlr_guid_map_init(map, fabric->num_ports, err))
		return -1;
	for (port = 0; port < fabric->num_ports; port++) {
		uint64_t guid = tf_port_guid(fabric, port);
		char first[128], second[128];

		if (!guid || !is_named_port(fabric, port))
			continue;
		other = vlr_guid_map_put(map, guid, port, err);
		if (other == VLR_NONE)
			continue;
		if (other != VLR_GUID_MAP_FAILED) {
			tf_port_label(fabric, other, first, sizeof(first));
			tf_port_label(fabric, port, second, sizeof(second));
			vlr_fail(err, "port GUID 0x%016llx belongs to both %s and %s",
				 (unsigned long long)guid, first, second);
		}
		vlr_guid_map_free(map);
		return -1;
	}
	return 0;
}

int tf_index_switches(const struct vlr_tables *tables, struct vlr_guid_map *map,
		      struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, other;

	if (vlr_guid_map_init(map, tables->num_switches, err))
		return -1;
	for (sw = 0; sw < tables->num_switches; sw++) {
		uint32_t node = tables->switch_node[sw];
		uint64_t guid = fabric->nodes[node].guid;

		other = vlr_guid_map_put(map, guid, sw, err);
		if (other == VLR_NONE)
			continue;
		if (other != VLR_GUID_MAP_FAILED)
			vlr_fail(err, "switches \"%s\" and \"%s\" share GUID 0x%016llx",
				 vlr_node_name(fabric, tables->switch_node[other]),
				 vlr_node_name(fabric, node), (unsigned long long)guid);
		vlr_guid_map_free(map);
		return -1;
	}
	return 0;
}

static uint64_t byte_swap(uint64_t value)
{
	uint64_t result = 0;
	unsigned i;

	for (i = 0; i < 8; i++) {
		result = result << 8 | (value & 0xff);
		value >>= 8;
	}
	return result;
}

uint32_t *tf_wire_order(const uint64_t *guids, uint32_t count, struct vlr_error *err)
{
	struct vlr_keyed *keys = malloc(sizeof(*keys) * ((size_t)count + 1));
	uint32_t *order = malloc(sizeof(uint32_t) * ((size_t)count + 1));
	uint32_t i;

	if (!keys || !order) {
		free(keys);
		free(order);
		vlr_fail(err, "out of memory for sorting %u GUIDs", count);
		return NULL;
	}
	for (i = 0; i < count; i++) {
		keys[i].key = byte_swap(guids[i]);
		keys[i].index = i;
	}
	vlr_sort_keyed(keys, count);
	for (i = 0; i < count; i++)
		order[i] = keys[i].index;
	free(keys);
	return order;
}

int tf_check_sls(const struct vlr_tables *tables, struct vlr_error *err)
{
	uint32_t row, lid;

	for (row = 0; row < tables->num_sl_rows; row++) {
		const uint8_t *sls = vlr_tables_sl_row(tables, row);

		for (lid = 1; lid <= tables->max_lid; lid++)
			if (sls[lid] >= VLR_NUM_SLS)
				return vlr_fail(err, "SL row %u gives LID %u SL %u (SLs are "
						"0..15)", row, lid, sls[lid]);
	}
	return 0;
}
