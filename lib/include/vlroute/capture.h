/*
 * capture.h - read a running fabric back into a table set, so that the
 * verifier and the simulator judge a live subnet as they judge our own
 * tables and OpenSM's dumps.
 *
 * A capture discovers the fabric with directed-route SMPs from one local
 * port (no working LFT or subnet manager needed for that): NodeInfo,
 * NodeDescription, PortInfo of every port and SwitchInfo of every switch.
 * It then reads every switch's linear forwarding table and SL2VL tables
 * (every in port 0..N to every linked out port) and the SL2VL table of
 * every linked endpoint port, and, when a subnet manager runs, asks its
 * subnet administrator (SA) for the path SL of every (source port, DLID)
 * with PathRecord queries. Last, it reads NodeInfo along every directed
 * path again: a node that answers with another GUID than at discovery
 * means the fabric changed under the capture, and the capture fails.
 *
 * vlr_capture talks to the fabric through libibumad (its transport is
 * capture_umad.c); vlr_capture_with takes any struct vlr_mad_transport.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CAPTURE_H
#define VLROUTE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/util.h>
#include <vlroute/tables.h>

#define VLR_CAPTURE_MAX_WINDOW 256
#define VLR_MAD_SIZE 256		/* one MAD on the wire */

struct vlr_capture_options {
	const char *ca;		/* CA name; NULL: libibumad's default CA */
	unsigned port;		/* port number; 0: libibumad's default port */
	unsigned timeout_ms;	/* wait for one answer (default 1000) */
	unsigned retries;	/* resend an unanswered MAD this often (default 3) */
	unsigned window;	/* MADs in flight at once, 1..256 (default 16) */
	int no_sa;		/* do not ask the SA: every path SL is 0 */
	unsigned sa_sample;	/* 0: ask the SA about every (source, DLID); N:
				   about every DLID only for one source port
				   per switch, and for the others about N
				   DLIDs, giving them their switch's row when
				   all N agree (asking the rest when not) */
};

/* The defaults above. */
void vlr_capture_options_init(struct vlr_capture_options *options);

enum vlr_capture_status {
	VLR_CAPTURE_OK,
	VLR_CAPTURE_NO_PORT,	/* the CA or port cannot be found or opened */
	VLR_CAPTURE_FAILED,	/* no answer, an error status, a bad fabric */
	VLR_CAPTURE_CHANGED,	/* the fabric changed during the capture */
};

enum vlr_capture_sls {
	VLR_SLS_NOT_ASKED,	/* --no-sa */
	VLR_SLS_NO_SM,		/* no subnet manager: MasterSMLID is 0 */
	VLR_SLS_FROM_SA,	/* asked the SA for every (source, DLID) */
};

struct vlr_capture_report {
	enum vlr_capture_status status;
	char ca[32];			/* the CA and port used (vlr_capture) */
	unsigned port;
	char local_node[VLR_MAX_NAME + 1];	/* the node the capture ran on */
	uint32_t switches;
	uint32_t endpoints;		/* channel adapters and routers */
	uint32_t links;
	unsigned num_vls;		/* fewest OperationalVLs of a linked port */
	uint16_t sm_lid;		/* the master SM's LID, 0 if none */
	enum vlr_capture_sls path_sls;
	int sa_per_pair;		/* GetTable answers came incomplete (as
					   under ibsim, which has no RMPP): the SA
					   was asked pair by pair with Get */
	uint32_t sources;		/* source ports asked about */
	uint32_t sampled;		/* of them given their switch's row after
					   sa_sample agreeing answers */
	uint32_t sl_rows;		/* distinct rows of path SLs */
	uint64_t no_path;		/* pairs the SA had no record for (SL 0) */
	uint64_t smps;			/* SMPs answered */
	uint64_t sa_queries;		/* SA queries answered */
	uint64_t resent;		/* MADs sent again after no answer */
	double seconds_discovery;
	double seconds_tables;		/* LFTs and SL2VL tables */
	double seconds_sa;
	double seconds_total;
};

/*
 * How MADs reach the fabric. send puts one MAD (length bytes, at most
 * VLR_MAD_SIZE) on the wire: to_sa 0, a directed-route SMP to QP0; to_sa 1,
 * a LID-routed GMP to QP1 of dlid with service level sl. A MAD that will
 * not be answered may come back as it went with *failed set (libibumad's
 * timeout status). recv waits up to timeout_ms for one MAD and returns 1
 * with it in *mad (valid until the next call; an SA answer may be longer
 * than VLR_MAD_SIZE when the transport reassembles RMPP), 0 if none came,
 * or -1 with err set.
 */
struct vlr_mad_transport {
	void *context;
	int (*send)(void *context, const uint8_t *mad, size_t length, int to_sa,
		    uint16_t dlid, uint8_t sl, unsigned timeout_ms, struct vlr_error *err);
	int (*recv)(void *context, const uint8_t **mad, size_t *length, int *failed,
		    unsigned timeout_ms, struct vlr_error *err);
};

/*
 * Capture the fabric behind a local CA port through libibumad. Returns
 * tables that own their fabric, or NULL with err set and report->status
 * saying what went wrong. report may not be NULL.
 */
struct vlr_tables *vlr_capture(const struct vlr_capture_options *options,
			       struct vlr_capture_report *report,
			       struct vlr_error *err);

/* The same through transport (options->ca and ->port are not used). */
struct vlr_tables *vlr_capture_with(const struct vlr_mad_transport *transport,
				    const struct vlr_capture_options *options,
				    struct vlr_capture_report *report,
				    struct vlr_error *err);

#endif
