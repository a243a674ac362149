/*
 * verify.c - the verifier's entry point: walk the routes, sum up the
 * statistics, search the channel dependency graph; and the verdicts drawn
 * from a report.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "util/names.h"
#include "verify_internal.h"

static void summarise_loads(const struct verify_channels *ch,
			    struct vlr_verify_report *report)
{
	uint64_t sum = 0, width;
	uint32_t count = ch->graph.num_links, c;

	report->channels = count;
	if (!count)
		return;
	report->load_min = UINT64_MAX;
	for (c = 0; c < count; c++) {
		sum += ch->load[c];
		if (ch->load[c] < report->load_min)
			report->load_min = ch->load[c];
		if (ch->load[c] > report->load_max)
			report->load_max = ch->load[c];
	}
	report->load_mean = (double)sum / count;
	width = (report->load_max - report->load_min) / VLR_VERIFY_LOAD_BINS + 1;
	report->load_bin_start = report->load_min;
	report->load_bin_width = width;
	for (c = 0; c < count; c++)
		report->load_histogram[(ch->load[c] - report->load_min) / width]++;
}

/* The VLs and SLs of unprogrammable tables are defaults, not counted. */
static void summarise_routes(const struct verify_tally *tally,
			     struct vlr_verify_report *report)
{
	report->hops_min = tally->hops_min;
	report->hops_max = tally->hops_max;
	report->hops_mean = tally->delivered ?
			    (double)tally->hop_sum / (double)tally->delivered : 0.0;
	if (report->unprogrammable.marked)
		return;
	report->vl_mask = tally->vl_mask;
	report->sl_mask = tally->sl_mask;
	report->vls_used = (unsigned)__builtin_popcount(tally->vl_mask);
	report->sls_used = (unsigned)__builtin_popcount(tally->sl_mask);
}

int vlr_verify(const struct vlr_tables *tables, struct vlr_verify_report *report,
	       struct vlr_error *err)
{
	return vlr_verify_threads(tables, 0, report, err);
}

int vlr_verify_threads(const struct vlr_tables *tables, unsigned threads,
		       struct vlr_verify_report *report, struct vlr_error *err)
{
	struct verify_channels ch;
	struct verify_tally tally;
	int result;

	memset(report, 0, sizeof(*report));
	memset(&tally, 0, sizeof(tally));
	report->vls_offered = tables->num_vls;
	if (verify_channels_init(tables, &ch, err))
		return -1;
	report->unprogrammable = tables->unprogrammable;
	result = verify_routes(tables, threads, &ch, &tally, report, err);
	if (!result) {
		summarise_routes(&tally, report);
		summarise_loads(&ch, report);
	}
	if (!result && !tables->unprogrammable.marked)
		result = verify_cdg(tables, &ch, report, err);
	verify_channels_free(&ch);
	return result;
}

int vlr_verify_passed(const struct vlr_verify_report *report)
{
	return report->bad_routes == 0 && report->cdg_acyclic &&
	       (report->vl_mask >> report->vls_offered) == 0 &&
	       !report->unprogrammable.marked;
}

enum vlr_deadlock_verdict vlr_verify_deadlock_free(const struct vlr_verify_report *report,
						   int has_path_sls)
{
	if (report->bad_routes)
		return VLR_DEADLOCK_FREE_NO;
	if (report->unprogrammable.marked)
		return VLR_DEADLOCK_FREE_UNPROGRAMMABLE;
	if (has_path_sls)
		return vlr_verify_passed(report) ? VLR_DEADLOCK_FREE_YES : VLR_DEADLOCK_FREE_NO;
	return vlr_verify_passed(report) && report->vls_used <= 1 ? VLR_DEADLOCK_FREE_YES :
	       VLR_DEADLOCK_FREE_UNKNOWN;
}

static const struct vlr_name verdict_names[] = {
	{ "no", VLR_DEADLOCK_FREE_NO },
	{ "yes", VLR_DEADLOCK_FREE_YES },
	{ "unknown (no path SLs)", VLR_DEADLOCK_FREE_UNKNOWN },
	{ "unknown (not programmable)", VLR_DEADLOCK_FREE_UNPROGRAMMABLE },
	{ NULL, 0 },
};

const char *vlr_deadlock_verdict_name(enum vlr_deadlock_verdict verdict)
{
	return vlr_name_of(verdict_names, (int)verdict, "no");
}

int vlr_verify_policy(const struct vlr_tables *tables, const struct vlr_verify_report *report,
		      struct vlr_error *err)
{
	char policy[96], why[128];

	if (report->bad_routes)
		return vlr_fail(err, "the routes do not all arrive (%llu loops, %llu dead "
				"ends, %llu misdelivered): refused",
				(unsigned long long)report->loops,
				(unsigned long long)report->dead_ends,
				(unsigned long long)report->misdelivered);
	vlr_vl_policy_describe(&tables->policy, policy, sizeof(policy));
	vlr_unprogrammable_describe(&report->unprogrammable, why, sizeof(why));
	if (report->unprogrammable.marked)
		return vlr_fail(err, "VL policy %s: the tables are %s: refused", policy, why);
	if (report->cdg_acyclic)
		return 0;
	return vlr_fail(err, "VL policy %s leaves a channel dependency cycle on this "
			"fabric (%s): refused", policy, report->cycle);
}
