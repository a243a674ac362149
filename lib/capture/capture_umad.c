/*
 * capture_umad.c - the libibumad transport of a capture: one umad port,
 * an agent for directed-route SMPs (class 0x81) and, unless the SA is not
 * wanted, one for the SA (class 0x03, RMPP version 1, so the kernel
 * reassembles large GetTable answers). Sends carry libibumad's timeout,
 * whose expiry comes back as the MAD with a non-zero status; ibsim's
 * umad2sim returns a MAD it could not deliver the same way.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "capture_internal.h"

#define SMI_CLASS 0x81
#define SMI_CLASS_VERSION 1
#define SA_CLASS 0x03
#define SA_CLASS_VERSION 2
#define RMPP_VERSION 1
#define QP1_QKEY 0x80010000
#define FIRST_RECV_SIZE 4096	/* grown when a reassembled answer is larger */

struct umad_link {
	int fd;
	int smi_agent;
	int sa_agent;
	void *send_buf;		/* struct ib_user_mad and one MAD */
	void *recv_buf;
	size_t recv_size;	/* MAD bytes recv_buf holds */
};

/* libibumad returns -errno, or -1 with errno set. */
static const char *umad_error(int result)
{
	return strerror(result < -1 ? -result : errno);
}

static int send_mad(void *context, const uint8_t *mad, size_t length, int to_sa,
		    uint16_t dlid, uint8_t sl, unsigned timeout_ms, struct vlr_error *err)
{
	struct umad_link *link = context;
	int result;

	if (to_sa && link->sa_agent < 0)
		return vlr_fail(err, "no SA agent registered");
	memcpy(umad_get_mad(link->send_buf), mad, length);
	if (to_sa)
		umad_set_addr(link->send_buf, dlid, 1, sl, QP1_QKEY);
	else
		umad_set_addr(link->send_buf, 0xffff, 0, 0, 0);
	umad_set_pkey(link->send_buf, 0);
	result = umad_send(link->fd, to_sa ? link->sa_agent : link->smi_agent,
			   link->send_buf, (int)length, (int)timeout_ms, 0);
	if (result < 0)
		return vlr_fail(err, "umad_send: %s", umad_error(result));
	return 0;
}

static int grow_recv(struct umad_link *link, size_t size, struct vlr_error *err)
{
	void *bigger = realloc(link->recv_buf, umad_size() + size);

	if (!bigger)
		return vlr_fail(err, "out of memory for a %zu-byte MAD", size);
	link->recv_buf = bigger;
	link->recv_size = size;
	return 0;
}

static int recv_mad(void *context, const uint8_t **mad, size_t *length, int *failed,
		    unsigned timeout_ms, struct vlr_error *err)
{
	struct umad_link *link = context;
	int size = (int)link->recv_size;
	int result = umad_recv(link->fd, link->recv_buf, &size,
			       timeout_ms ? (int)timeout_ms : 1);

	if (result == -ENOSPC && size > 0) {
		if (grow_recv(link, (size_t)size, err))
			return -1;
		size = (int)link->recv_size;
		result = umad_recv(link->fd, link->recv_buf, &size, 1);
	}
	if (result == -ETIMEDOUT || result == -EWOULDBLOCK || result == -EAGAIN ||
	    result == -EINTR)
		return 0;
	if (result < 0)
		return vlr_fail(err, "umad_recv: %s", umad_error(result));
	*mad = umad_get_mad(link->recv_buf);
	*length = size > 0 ? (size_t)size : 0;
	*failed = umad_status(link->recv_buf) != 0;
	return 1;
}

static int no_port(struct vlr_capture_report *report, struct vlr_error *err,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int no_port(struct vlr_capture_report *report, struct vlr_error *err,
		   const char *fmt, ...)
{
	char message[VLR_ERROR_SIZE];
	va_list args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	report->status = VLR_CAPTURE_NO_PORT;
	return vlr_fail(err, "%s", message);
}

static int open_port(struct umad_link *link, const struct vlr_capture_options *options,
		     umad_port_t *port, struct vlr_capture_report *report,
		     struct vlr_error *err)
{
	const char *ca = options->ca ? options->ca : "(default)";
	int result;

	if (umad_init() < 0)
		return no_port(report, err, "cannot start libibumad (umad_init failed)");
	result = umad_get_port(options->ca, (int)options->port, port);
	if (result < 0)
		return no_port(report, err, "no usable InfiniBand port (CA %s, port %u): %s; "
			       "is a CA there (ibstat), or under ibsim is libumad2sim.so "
			       "preloaded?", ca, options->port, umad_error(result));
	snprintf(report->ca, sizeof(report->ca), "%s", port->ca_name);
	report->port = (unsigned)port->portnum;
	link->fd = umad_open_port(port->ca_name, port->portnum);
	if (link->fd < 0)
		return no_port(report, err, "cannot open CA %s port %u: %s (access to "
			       "/dev/infiniband/umad* is needed)", port->ca_name,
			       (unsigned)port->portnum, umad_error(link->fd));
	link->smi_agent = umad_register(link->fd, SMI_CLASS, SMI_CLASS_VERSION, 0, NULL);
	if (link->smi_agent < 0)
		return no_port(report, err, "CA %s port %u: cannot register for directed-"
			       "route SMPs: %s", port->ca_name, (unsigned)port->portnum,
			       umad_error(link->smi_agent));
	if (!options->no_sa) {
		link->sa_agent = umad_register(link->fd, SA_CLASS, SA_CLASS_VERSION,
					       RMPP_VERSION, NULL);
		if (link->sa_agent < 0)
			return no_port(report, err, "CA %s port %u: cannot register for the "
				       "SA class: %s", port->ca_name, (unsigned)port->portnum,
				       umad_error(link->sa_agent));
	}
	link->send_buf = calloc(1, umad_size() + VLR_MAD_SIZE);
	if (!link->send_buf || grow_recv(link, FIRST_RECV_SIZE, err))
		return vlr_fail(err, "out of memory for MAD buffers");
	return 0;
}

static void close_port(struct umad_link *link)
{
	if (link->fd >= 0) {
		if (link->sa_agent >= 0)
			umad_unregister(link->fd, link->sa_agent);
		if (link->smi_agent >= 0)
			umad_unregister(link->fd, link->smi_agent);
		umad_close_port(link->fd);
	}
	free(link->send_buf);
	free(link->recv_buf);
}

struct vlr_tables *vlr_capture(const struct vlr_capture_options *options,
			       struct vlr_capture_report *report,
			       struct vlr_error *err)
{
	struct umad_link link = { -1, -1, -1, NULL, NULL, 0 };
	struct vlr_mad_transport transport = { &link, send_mad, recv_mad };
	struct vlr_tables *tables = NULL;
	char ca[sizeof(report->ca)];
	umad_port_t port;
	unsigned number;

	memset(report, 0, sizeof(*report));
	memset(&port, 0, sizeof(port));
	if (!open_port(&link, options, &port, report, err)) {
		snprintf(ca, sizeof(ca), "%s", report->ca);
		number = report->port;
		tables = vlr_capture_with(&transport, options, report, err);
		memcpy(report->ca, ca, sizeof(ca));
		report->port = number;
	} else if (report->status != VLR_CAPTURE_NO_PORT) {
		report->status = VLR_CAPTURE_FAILED;
	}
	if (port.ca_name[0])
		umad_release_port(&port);
	close_port(&link);
	return tables;
}
