/*
 * cli_signals.c - SIGINT and SIGTERM taken by a thread of their own, so
 * that a long command (vlroute sim) can stop its work and still write
 * what finished. No handler is installed and nothing global is written:
 * the signals are blocked in every thread (the library's workers inherit
 * the mask) and a watcher thread takes them with sigwait and sets the
 * flag the work polls. A second signal ends the process at once, as if
 * nothing caught it.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

static void *watch(void *arg)
{
	struct cli_signal_watch *w = arg;
	int signal, error;

	/* cancelled (by stop) only while it waits, never inside a message */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	for (;;) {
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		error = sigwait(&w->signals, &signal);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		if (error)
			continue;
		if (__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
			sigset_t one;

			/* the second: die of it, as without the watcher */
			sigemptyset(&one);
			sigaddset(&one, signal);
			pthread_sigmask(SIG_UNBLOCK, &one, NULL);
			raise(signal);
			continue;
		}
		__atomic_store_n(&w->signal, signal, __ATOMIC_RELAXED);
		__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
		cli_error(w->command, "%s: stopping; what finished will be written (a second "
			  "signal ends vlroute at once)", cli_signal_name(signal));
	}
	return NULL;
}

int cli_signal_watch_start(const char *command, struct cli_signal_watch *w)
{
	int error;

	memset(w, 0, sizeof(*w));
	w->command = command;
	sigemptyset(&w->signals);
	sigaddset(&w->signals, SIGINT);
	sigaddset(&w->signals, SIGTERM);
	error = pthread_sigmask(SIG_BLOCK, &w->signals, &w->previous);
	if (!error) {
		error = pthread_create(&w->thread, NULL, watch, w);
		if (error)
			pthread_sigmask(SIG_SETMASK, &w->previous, NULL);
	}
	if (error) {
		cli_error(command, "cannot watch for SIGINT and SIGTERM: %s", strerror(error));
		return -1;
	}
	return 0;
}

int cli_signal_watch_stop(struct cli_signal_watch *w)
{
	pthread_cancel(w->thread);
	pthread_join(w->thread, NULL);
	pthread_sigmask(SIG_SETMASK, &w->previous, NULL);
	return __atomic_load_n(&w->signal, __ATOMIC_RELAXED);
}

const char *cli_signal_name(int signal)
{
	return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}
