/*
 * capture_smp.c - subnet management packets on the wire: a directed-route
 * SubnGet, and the attributes a capture reads (IBA 14.2.5): NodeInfo,
 * NodeDescription, PortInfo, SwitchInfo and SLtoVLMappingTable. LFT
 * blocks need no decoding: 64 out ports, one byte each.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "capture_internal.h"

#define SMP_CLASS_DIRECTED 0x81
#define SMP_METHOD_GET 0x01
#define SMP_DIRECTION_BIT 0x8000	/* in the Status field of directed SMPs */
#define LID_PERMISSIVE 0xffff

void cap_put_be16(uint8_t *at, uint16_t value)
{
	at[0] = (uint8_t)(value >> 8);
	at[1] = (uint8_t)value;
}

void cap_put_be32(uint8_t *at, uint32_t value)
{
	cap_put_be16(at, (uint16_t)(value >> 16));
	cap_put_be16(at + 2, (uint16_t)value);
}

void cap_put_be64(uint8_t *at, uint64_t value)
{
	cap_put_be32(at, (uint32_t)(value >> 32));
	cap_put_be32(at + 4, (uint32_t)value);
}

/*
 * The layout (IBA 14.2.1.2): the common MAD header (BaseVersion,
 * MgmtClass, ClassVersion, Method, Status, HopPointer, HopCount, TID at 8,
 * AttributeID at 16, AttributeModifier at 20), M_Key at 24, DrSLID and
 * DrDLID at 32, data at 64, InitialPath at 128, ReturnPath at 192. The
 * upper half of the TID stays 0: the kernel puts its agent's number there.
 */
void cap_smp_build(uint8_t *mad, uint32_t tid, uint16_t attr, uint32_t mod,
		   const uint8_t *path, unsigned hops)
{
	memset(mad, 0, VLR_MAD_SIZE);
	mad[0] = 1;
	mad[1] = SMP_CLASS_DIRECTED;
	mad[2] = 1;
	mad[3] = SMP_METHOD_GET;
	mad[7] = (uint8_t)hops;
	cap_put_be32(mad + 12, tid);
	cap_put_be16(mad + 16, attr);
	cap_put_be32(mad + 20, mod);
	cap_put_be16(mad + 32, LID_PERMISSIVE);
	cap_put_be16(mad + 34, LID_PERMISSIVE);
	memcpy(mad + 128, path, hops + 1u);
}

uint16_t cap_mad_status(const uint8_t *mad)
{
	uint16_t status = cap_be16(mad + 4);

	return mad[1] == SMP_CLASS_DIRECTED ? status & (uint16_t)~SMP_DIRECTION_BIT : status;
}

static const char *sa_status_text(unsigned code)
{
	static const char *const texts[] = {
		"", "the SA is out of resources", "the request is invalid",
		"no such record", "too many records", "invalid GID",
		"insufficient components", "request denied",
	};

	return code < sizeof(texts) / sizeof(texts[0]) ? texts[code] : "an SA error";
}

const char *cap_status_text(uint16_t status, int sa)
{
	if (sa && (status >> 8))
		return sa_status_text(status >> 8);
	switch (status & 0x1f) {
	case 0x01:
		return "busy";
	case 0x02:
		return "redirect (not supported)";
	case 0x04:
		return "bad base or class version";
	case 0x08:
		return "method not supported";
	case 0x0c:
		return "method and attribute not supported";
	case 0x1c:
		return "invalid attribute or modifier value";
	default:
		break;
	}
	return "an error";
}

const char *cap_attr_name(uint16_t attr)
{
	switch (attr) {
	case CAP_ATTR_NODE_DESC:
		return "NodeDescription";
	case CAP_ATTR_NODE_INFO:
		return "NodeInfo";
	case CAP_ATTR_SWITCH_INFO:
		return "SwitchInfo";
	case CAP_ATTR_PORT_INFO:
		return "PortInfo";
	case CAP_ATTR_SL2VL:
		return "SLtoVLMappingTable";
	case CAP_ATTR_LFT:
		return "LinearForwardingTable";
	case CAP_ATTR_PATH_RECORD:
		return "PathRecord";
	default:
		break;
	}
	return "an attribute";
}

/* NodeInfo (14.2.5.3): NodeType 2, NumPorts 3, NodeGUID 12, PortGUID 20,
   LocalPortNum 36. */
void cap_decode_node_info(const uint8_t *data, struct cap_node_info *info)
{
	info->type = data[2];
	info->num_ports = data[3];
	info->node_guid = cap_be64(data + 12);
	info->port_guid = cap_be64(data + 20);
	info->local_port = data[36];
}

/* PortInfo (14.2.5.6): LID 16, MasterSMLID 18, CapabilityMask 20, PortState
   the low nibble of 32, LMC the low 3 bits of 34, MasterSMSL the low nibble
   of 36, VLCap the high nibble of 37, OperationalVLs the high nibble of 43. */
void cap_decode_port_info(const uint8_t *data, struct cap_port_info *info)
{
	info->lid = cap_be16(data + 16);
	info->sm_lid = cap_be16(data + 18);
	info->cap_mask = cap_be32(data + 20);
	info->state = data[32] & 0x0f;
	info->lmc = data[34] & 0x07;
	info->sm_sl = data[36] & 0x0f;
	info->vl_cap = data[37] >> 4;
	info->op_vls = data[43] >> 4;
}

/* SwitchInfo (14.2.5.4): LinearFDBTop at 6. */
uint16_t cap_decode_lin_top(const uint8_t *data)
{
	return cap_be16(data + 6);
}

/* NodeDescription (14.2.5.2): 64 bytes of text, NUL-padded or not. */
void cap_decode_node_desc(const uint8_t *data, char description[CAP_DESC_SIZE])
{
	memcpy(description, data, CAP_DESC_SIZE - 1);
	description[CAP_DESC_SIZE - 1] = '\0';
}

/* SLtoVLMappingTable (14.2.5.8): SL 2i in the high nibble of byte i, SL
   2i+1 in the low one. */
void cap_decode_sl2vl(const uint8_t *data, uint8_t vls[VLR_NUM_SLS])
{
	unsigned i;

	for (i = 0; i < VLR_NUM_SLS / 2; i++) {
		vls[2 * i] = data[i] >> 4;
		vls[2 * i + 1] = data[i] & 0x0f;
	}
}
