/*
 * capture_internal.h - what the parts of a capture share (internal): the
 * fabric as discovery finds it (nodes by GUID, ports, directed paths), the
 * MAD engine that keeps a window of queries in flight, and the steps of a
 * capture, one file each:
 *   capture_model.c     the discovered fabric, directed paths, labels;
 *   capture_smp.c       SMPs: encoding a Get, decoding the attributes;
 *   capture_sa_mad.c    SA PathRecord queries and answers on the wire;
 *   capture_mad.c       the engine: window, TIDs, timeouts, retries;
 *   capture_discover.c  breadth-first discovery with directed routes;
 *   capture_fabric.c    the discovered fabric as a struct vlr_fabric;
 *   capture_tables.c    LFT blocks and SL2VL tables into the tables;
 *   capture_sa.c        path SLs from the SA;
 *   capture_check.c     the closing check that nothing changed;
 *   capture.c           the whole capture over a transport;
 *   capture_umad.c      the libibumad transport.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CAPTURE_INTERNAL_H
#define VLROUTE_CAPTURE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/capture.h>


#define CAP_MAX_HOPS 63		/* a directed path holds ports 1..63 */
#define CAP_DESC_SIZE 65	/* NodeDescription: 64 bytes and a NUL */

/* Attributes (IBA 14.2.5) and the SA's PathRecord (15.2.5.16). */
enum cap_attr {
	CAP_ATTR_NODE_DESC = 0x0010,
	CAP_ATTR_NODE_INFO = 0x0011,
	CAP_ATTR_SWITCH_INFO = 0x0012,
	CAP_ATTR_PORT_INFO = 0x0015,
	CAP_ATTR_SL2VL = 0x0017,
	CAP_ATTR_LFT = 0x0019,
	CAP_ATTR_PATH_RECORD = 0x0035,
};

enum cap_port_state {		/* PortInfo:PortState */
	CAP_PORT_DOWN = 1,
	CAP_PORT_INIT = 2,
	CAP_PORT_ARMED = 3,
	CAP_PORT_ACTIVE = 4,
};

/* ---- the discovered fabric (capture_model.c) ---------------------------- */

struct cap_port {
	uint64_t guid;		/* endpoint ports: their PortGUID */
	uint32_t node;		/* owning node */
	uint32_t peer_node;	/* VLR_NONE: no link found */
	uint32_t cap_mask;	/* PortInfo:CapabilityMask */
	uint16_t lid;
	uint8_t number;
	uint8_t peer_port;
	uint8_t state;		/* PortInfo:PortState; 0 until read */
	uint8_t lmc;
	uint8_t op_vls;		/* PortInfo:OperationalVLs (a code: 4 = VL0..7) */
	uint8_t vl_cap;		/* PortInfo:VLCap (the same code) */
	uint8_t reached;	/* endpoint ports: a NodeInfo came through it */
};

struct cap_node {
	uint64_t guid;
	uint64_t port_guid;	/* switches: the GUID of every port */
	uint32_t first_port;	/* its num_ports + 1 slots in ports */
	uint32_t fabric_node;	/* index in the built struct vlr_fabric */
	uint16_t lin_top;	/* switches: SwitchInfo:LinearFDBTop */
	uint8_t type;		/* enum vlr_node_type */
	uint8_t num_ports;
	uint8_t hops;		/* the directed path from the local node: */
	uint8_t path[CAP_MAX_HOPS + 1];	/* out ports path[1..hops] */
	char description[CAP_DESC_SIZE];
};

struct cap_fabric {
	struct cap_node *nodes;
	struct cap_port *ports;
	uint32_t num_nodes, nodes_capacity;
	uint32_t num_ports, ports_capacity;
	struct vlr_guid_map by_guid;	/* NodeGUID -> node */
	uint32_t local_node;		/* the node the capture runs on */
	uint8_t local_port;		/* its port (0 on a switch) */
	uint8_t sm_sl;			/* PortInfo:MasterSMSL of the local port */
	uint16_t sm_lid;		/* PortInfo:MasterSMLID of the local port */
};

int cap_fabric_init(struct cap_fabric *fabric, struct vlr_error *err);
void cap_fabric_free(struct cap_fabric *fabric);

/*
 * A new node reached along from's directed path plus port via (from
 * VLR_NONE: the local node, empty path). Returns its index, or VLR_NONE
 * with err set (out of memory, the path too long, the GUID taken).
 */
uint32_t cap_fabric_add(struct cap_fabric *fabric, uint64_t guid, uint8_t type,
			uint8_t num_ports, uint32_t from, unsigned via,
			struct vlr_error *err);

static inline struct cap_port *cap_port_at(const struct cap_fabric *fabric,
					   uint32_t node, unsigned number)
{
	return &fabric->ports[fabric->nodes[node].first_port + number];
}

/* The directed path of node (VLR_NONE: empty) plus port via (0: none). */
void cap_path(const struct cap_fabric *fabric, uint32_t node, unsigned via,
	      uint8_t path[CAP_MAX_HOPS + 1], unsigned *hops);

/* "0,3,5" as ibnetdiscover and smpquery -D write directed paths. */
void cap_path_text(const uint8_t *path, unsigned hops, char *buf, size_t size);

/* "switch 0x0002c903000a1b2c ("sw1")", the description when known. */
void cap_node_label(const struct cap_fabric *fabric, uint32_t node, char *buf,
		    size_t size);

/* ---- SMPs (capture_smp.c) ----------------------------------------------- */

struct cap_node_info {
	uint64_t node_guid;
	uint64_t port_guid;
	uint8_t type;
	uint8_t num_ports;
	uint8_t local_port;
};

struct cap_port_info {
	uint32_t cap_mask;
	uint16_t lid;
	uint16_t sm_lid;
	uint8_t lmc;
	uint8_t state;
	uint8_t sm_sl;
	uint8_t vl_cap;
	uint8_t op_vls;
};

#define CAP_CAP_HAS_SL_MAP 0x00000040u	/* PortInfo:CapabilityMask.IsSLMappingSupported */

/* A directed-route SubnGet(attr, mod) along path[1..hops], VLR_MAD_SIZE bytes. */
void cap_smp_build(uint8_t *mad, uint32_t tid, uint16_t attr, uint32_t mod,
		   const uint8_t *path, unsigned hops);

/* The MAD's status without the direction bit of directed-route SMPs. */
uint16_t cap_mad_status(const uint8_t *mad);

/* What a status means, for messages. */
const char *cap_status_text(uint16_t status, int sa);

const char *cap_attr_name(uint16_t attr);

/* The 64 data bytes of an SMP. */
static inline const uint8_t *cap_smp_data(const uint8_t *mad)
{
	return mad + 64;
}

void cap_decode_node_info(const uint8_t *data, struct cap_node_info *info);
void cap_decode_port_info(const uint8_t *data, struct cap_port_info *info);
uint16_t cap_decode_lin_top(const uint8_t *data);
void cap_decode_node_desc(const uint8_t *data, char description[CAP_DESC_SIZE]);
void cap_decode_sl2vl(const uint8_t *data, uint8_t vls[VLR_NUM_SLS]);

/* Big-endian fields. */
static inline uint16_t cap_be16(const uint8_t *at)
{
	return (uint16_t)(at[0] << 8 | at[1]);
}

static inline uint32_t cap_be32(const uint8_t *at)
{
	return (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | at[3];
}

static inline uint64_t cap_be64(const uint8_t *at)
{
	return (uint64_t)cap_be32(at) << 32 | cap_be32(at + 4);
}

void cap_put_be16(uint8_t *at, uint16_t value);
void cap_put_be32(uint8_t *at, uint32_t value);
void cap_put_be64(uint8_t *at, uint64_t value);

/* ---- SA PathRecords (capture_sa_mad.c) ---------------------------------- */

#define CAP_SA_GET 0x01
#define CAP_SA_GET_TABLE 0x12
#define CAP_SA_HEADER 56		/* MAD, RMPP and SA headers */
#define CAP_SA_NO_RECORDS 0x0300	/* SA status ERR_NO_RECORDS */

/* SubnAdmGet or GetTable of PathRecords from slid, to dlid (0: to all). */
void cap_sa_build_path_query(uint8_t *mad, uint32_t tid, uint8_t method,
			     uint16_t slid, uint16_t dlid);

struct cap_path_record {
	uint16_t slid;
	uint16_t dlid;
	uint8_t sl;
};

/*
 * The records of an SA answer of length bytes: their count, and record i
 * decoded by cap_sa_record. A short or odd answer holds the whole records
 * it has (ibsim's umad2sim cuts a GetTable answer to its first MAD).
 */
unsigned cap_sa_record_count(const uint8_t *mad, size_t length);
void cap_sa_record(const uint8_t *mad, unsigned i, struct cap_path_record *record);

/* ---- the MAD engine (capture_mad.c) ------------------------------------- */

enum cap_kind {
	CAP_Q_NODE_INFO,	/* discovery: through port via of node */
	CAP_Q_NODE_DESC,	/* arg: the node described */
	CAP_Q_SWITCH_INFO,	/* arg: the switch */
	CAP_Q_PORT_INFO,	/* arg: the port slot */
	CAP_Q_LFT,		/* arg: the block */
	CAP_Q_SL2VL,		/* arg: the port slot (endpoints) or in << 8 | out */
	CAP_Q_CHECK,		/* arg: the port slot expected to answer */
	CAP_Q_PATHS,		/* SA GetTable; arg: the source */
	CAP_Q_PATH,		/* SA Get; arg: the source */
	CAP_Q_PATH_SAMPLE,	/* SA Get of a sampled DLID; arg: the source */
};

struct cap_query {
	uint32_t node;		/* SMPs: the node whose path addresses it */
	uint32_t arg;		/* what the answer is about (enum cap_kind) */
	uint32_t mod;		/* attribute modifier */
	uint16_t attr;
	uint16_t slid;		/* SA: the source LID */
	uint16_t dlid;		/* SA: the destination LID, 0 for all */
	uint8_t kind;
	uint8_t via;		/* SMPs: one more hop out of this port (0: none) */
};

/* The answer to a query: 0, or -1 with the engine's error set. */
typedef int (*cap_answer_fn)(void *context, const struct cap_query *query,
			     const uint8_t *mad, size_t length);

/* Submit more queries when the engine runs out of them (may submit none). */
typedef int (*cap_refill_fn)(void *context);

struct cap_slot {
	struct cap_query query;
	uint64_t deadline;	/* monotonic ns */
	uint32_t tid;		/* low 32 bits of the TID; the slot is tid & 0xff */
	uint8_t tries;
	uint8_t used;
};

struct cap_engine {
	const struct vlr_mad_transport *transport;
	const struct cap_fabric *fabric;
	struct vlr_error *err;
	unsigned timeout_ms, retries, window;
	struct cap_slot *slots;
	unsigned *free_slots;
	unsigned free_count;
	struct cap_query *queue;	/* a ring */
	size_t queue_head, queue_count, queue_capacity;
	uint32_t sequence;
	uint64_t smps, sa_queries, resent;
	int changed;			/* the fabric changed under the capture */
	cap_answer_fn answer;		/* the step running */
	cap_refill_fn refill;
	void *context;
};

int cap_engine_init(struct cap_engine *engine, const struct vlr_mad_transport *transport,
		    const struct vlr_capture_options *options,
		    const struct cap_fabric *fabric, struct vlr_error *err);
void cap_engine_free(struct cap_engine *engine);

int cap_engine_submit(struct cap_engine *engine, const struct cap_query *query);

/* Queue one SMP: attribute attr with modifier mod, at node or reached from it by port via. */
int cap_engine_submit_smp(struct cap_engine *engine, uint8_t kind, uint16_t attr,
			  uint32_t node, unsigned via, uint32_t mod, uint32_t arg);

/* Send, receive and resend until no query is left or one fails. */
int cap_engine_run(struct cap_engine *engine, cap_answer_fn answer,
		   cap_refill_fn refill, void *context);

/* "NodeInfo at directed path 0,3 (port 3 of switch ...): MESSAGE"; -1. */
int cap_engine_fail(struct cap_engine *engine, const struct cap_query *query,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* An SMP answer with a bad status fails the capture, naming the query. */
int cap_engine_check_smp(struct cap_engine *engine, const struct cap_query *query,
			 const uint8_t *mad, size_t length);

/* ---- the steps ---------------------------------------------------------- */

int cap_discover(struct cap_engine *engine, struct cap_fabric *fabric);

/*
 * The fabric discovered, its nodes' fabric_node set, and the fewest data
 * VLs a linked port runs (OperationalVLs, else VLCap; 0 if none says);
 * NULL with err set.
 */
struct vlr_fabric *cap_build_fabric(struct cap_fabric *fabric, unsigned *vls,
				    struct vlr_error *err);

int cap_read_tables(struct cap_engine *engine, const struct cap_fabric *fabric,
		    struct vlr_tables *tables);

/* sample: options->sa_sample. */
int cap_read_path_sls(struct cap_engine *engine, struct vlr_tables *tables,
		      unsigned sample, struct vlr_capture_report *report);

/* NodeInfo along every path again; sets engine->changed on a difference. */
int cap_check_unchanged(struct cap_engine *engine, const struct cap_fabric *fabric);

#endif
