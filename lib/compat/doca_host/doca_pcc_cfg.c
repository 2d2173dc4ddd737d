/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA PCC host settings on lib/host (doca_pcc.h): probe formats, NP
 * timestamps, tracer, logger, coredump file, resources.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <doca_pcc.h>

#include "doca_pcc_internal.h"
#include "pcc_host_res.h"
#include "pcc_host_trace.h"

static doca_error_t
host_fail(const char *call, int rc)
{
	return doca_host_fail(doca_error_from_errno(rc), call, "%s", pcc_host_last_error());
}

static doca_error_t
need(const char *call, const struct doca_pcc *pcc, int role)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL context");
	if (role >= 0 && (int)pcc->role != role)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, call, "an %s context's call",
				role == PCC_HOST_ROLE_RP ? "RP" : "NP");
	return DOCA_SUCCESS;
}

/* ---- Probes ------------------------------------------------------------------ */

/* Change one probe slot's format: read, edit, write back. */
static doca_error_t
probe_edit(const char *call, struct doca_pcc *pcc, int role, uint32_t slot,
		void (*edit)(struct pcc_host_probe_conf *p, uint64_t v), uint64_t v)
{
	struct pcc_host_probe_conf p;
	doca_error_t e = need(call, pcc, role);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	if (slot >= PCC_HOST_PROBE_SLOTS)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call,
				"probe format slot %u (0..%u)", slot, PCC_HOST_PROBE_SLOTS - 1);
	if (pcc->role == PCC_HOST_ROLE_NP) {
		/* the NP answers every format; nothing per slot to set */
		return DOCA_SUCCESS;
	}
	rc = pcc_host_probe(pcc->ctx, (uint8_t)slot, &p);
	if (rc < 0)
		return host_fail(call, rc);
	edit(&p, v);
	rc = pcc_host_set_probe(pcc->ctx, (uint8_t)slot, &p);
	if (rc < 0)
		return host_fail(call, rc);
	return DOCA_SUCCESS;
}

static void
ed_format(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->format = (uint8_t)v;
}

static void
ed_remote_sw(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->hw_np = v == 0;
}

static void
ed_gns(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->ifa2_gns = (uint8_t)v;
}

static void
ed_hop_limit(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->ifa_hop_limit = (uint8_t)v;
}

static void
ed_custom_len(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->custom_len = (uint8_t)v;
	if (p->custom_offset + p->custom_len > PCC_HOST_PROBE_CUSTOM_MAX)
		p->custom_offset = (uint8_t)(PCC_HOST_PROBE_CUSTOM_MAX - p->custom_len);
}

static void
ed_custom_loc(struct pcc_host_probe_conf *p, uint64_t v)
{
	p->custom_offset = v == DOCA_PCC_CCMAD_CUSTOM_HEADER_LOC_END ?
			(uint8_t)(PCC_HOST_PROBE_CUSTOM_MAX - p->custom_len) :
			0;
}

doca_error_t
doca_pcc_set_ccmad_probe_packet_format(struct doca_pcc *pcc, uint32_t probe_packet_format_slot)
{
	return probe_edit(__func__, pcc, -1, probe_packet_format_slot, ed_format,
			PCC_HOST_PROBE_CCMAD);
}

doca_error_t
doca_pcc_set_ifa1_probe_packet_format(struct doca_pcc *pcc, uint32_t probe_packet_format_slot)
{
	return probe_edit(__func__, pcc, -1, probe_packet_format_slot, ed_format,
			PCC_HOST_PROBE_IFA1);
}

doca_error_t
doca_pcc_set_ifa2_probe_packet_format(struct doca_pcc *pcc, uint32_t probe_packet_format_slot)
{
	return probe_edit(__func__, pcc, -1, probe_packet_format_slot, ed_format,
			PCC_HOST_PROBE_IFA2);
}

doca_error_t
doca_pcc_rp_set_ccmad_remote_sw_handler(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot, bool remote_sw_handler)
{
	return probe_edit(__func__, pcc, PCC_HOST_ROLE_RP, probe_packet_format_slot, ed_remote_sw,
			remote_sw_handler);
}

doca_error_t
doca_pcc_rp_set_ifa2_gns(struct doca_pcc *pcc, uint32_t probe_packet_format_slot, uint8_t gns)
{
	if (gns > 15)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "GNS %u (0..15)", gns);
	return probe_edit(__func__, pcc, PCC_HOST_ROLE_RP, probe_packet_format_slot, ed_gns, gns);
}

doca_error_t
doca_pcc_rp_set_ifa2_hop_limit(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot, uint8_t hop_limit)
{
	if (hop_limit == 0)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "hop limit 0 (1..255)");
	return probe_edit(__func__, pcc, PCC_HOST_ROLE_RP, probe_packet_format_slot, ed_hop_limit,
			hop_limit);
}

doca_error_t
doca_pcc_rp_set_ccmad_custom_header_size(
		struct doca_pcc *pcc, uint32_t probe_format_slot, uint8_t header_size)
{
	if (header_size > PCC_HOST_PROBE_CUSTOM_MAX)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"custom header of %u bytes (0..%u)", header_size,
				PCC_HOST_PROBE_CUSTOM_MAX);
	return probe_edit(__func__, pcc, PCC_HOST_ROLE_RP, probe_format_slot, ed_custom_len,
			header_size);
}

doca_error_t
doca_pcc_rp_set_ccmad_custom_header_location(struct doca_pcc *pcc, uint32_t probe_format_slot,
		doca_pcc_ccmad_custom_header_loc_t header_loc)
{
	if (header_loc != DOCA_PCC_CCMAD_CUSTOM_HEADER_LOC_AFTER_MAD &&
			header_loc != DOCA_PCC_CCMAD_CUSTOM_HEADER_LOC_END)
		return doca_host_fail(
				DOCA_ERROR_INVALID_VALUE, __func__, "location %d", (int)header_loc);
	return probe_edit(__func__, pcc, PCC_HOST_ROLE_RP, probe_format_slot, ed_custom_loc,
			(uint64_t)header_loc);
}

doca_error_t
doca_pcc_rp_set_ccmad_probe_priority_change_en(
		struct doca_pcc *pcc, uint32_t probe_format_slot, bool enable)
{
	doca_error_t e = need(__func__, pcc, PCC_HOST_ROLE_RP);

	if (e != DOCA_SUCCESS)
		return e;
	if (probe_format_slot >= PCC_HOST_PROBE_SLOTS)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"probe format slot %u (0..%u)", probe_format_slot,
				PCC_HOST_PROBE_SLOTS - 1);
	/* the engine always lets the algorithm choose a flow's probe DSCP */
	if (!enable)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, __func__,
				"probe priority changes cannot be turned off: the algorithm's "
				"doca_pcc_dev_probe_prio_set() always applies");
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_np_set_ifa2_gns_ignore(struct doca_pcc *pcc, uint32_t probe_packet_format_slot,
		uint8_t ignore_mask, uint8_t ignore_value)
{
	doca_error_t e = need(__func__, pcc, PCC_HOST_ROLE_NP);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	if (probe_packet_format_slot >= PCC_HOST_PROBE_SLOTS)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"probe format slot %u (0..%u)", probe_packet_format_slot,
				PCC_HOST_PROBE_SLOTS - 1);
	rc = pcc_host_np_set_ifa2_gns_ignore(pcc->ctx, ignore_mask, ignore_value);
	if (rc < 0)
		return host_fail(__func__, rc);
	return DOCA_SUCCESS;
}

/* ---- NP timestamps -------------------------------------------------------------- */

static doca_error_t
np_caps(const char *call, const struct doca_devinfo *devinfo, struct pcc_host_np_caps *caps)
{
	struct pcc_host_ctx *ctx;
	doca_error_t e = doca_pcc_np_cap_is_supported(devinfo);

	if (e != DOCA_SUCCESS)
		return e;
	ctx = pcc_host_ctx_find((uint16_t)devinfo->port, PCC_HOST_ROLE_NP);
	if (ctx != NULL && pcc_host_np_caps(ctx, caps) == 0)
		return DOCA_SUCCESS;
	/* no NP context yet: the engine's documented capabilities */
	memset(caps, 0, sizeof(*caps));
	caps->resp_ts_size_max = 32;
	caps->resp_ts_res_max = 63;
	caps->ts_sources = 1u << PCC_HOST_TS_PORT | 1u << PCC_HOST_TS_REALTIME;
	RTE_SET_USED(call);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_np_cap_is_resp_ts_supported(const struct doca_devinfo *devinfo)
{
	struct pcc_host_np_caps caps;
	doca_error_t e = np_caps(__func__, devinfo, &caps);

	if (e != DOCA_SUCCESS)
		return e;
	return caps.resp_ts_size_max > 0 ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t
doca_pcc_np_cap_is_ts_source_supported(
		const struct doca_devinfo *devinfo, doca_pcc_np_ts_source_t ts_source)
{
	struct pcc_host_np_caps caps;
	doca_error_t e = np_caps(__func__, devinfo, &caps);
	unsigned int src;

	if (e != DOCA_SUCCESS)
		return e;
	switch (ts_source) {
	case DOCA_PCC_NP_TS_SOURCE_FREE_RUNNING:
	case DOCA_PCC_NP_TS_SOURCE_DEFAULT:
		src = PCC_HOST_TS_PORT;
		break;
	case DOCA_PCC_NP_TS_SOURCE_REAL_TIME:
		src = PCC_HOST_TS_REALTIME;
		break;
	default:
		return doca_host_fail(
				DOCA_ERROR_INVALID_VALUE, __func__, "source %d", (int)ts_source);
	}
	return caps.ts_sources & (1u << src) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

static doca_error_t
resp_ts(const char *call, struct doca_pcc *pcc, int size, int res)
{
	struct pcc_engine_np_conf c;
	doca_error_t e = need(call, pcc, PCC_HOST_ROLE_NP);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	rc = pcc_host_np_conf_get(pcc->ctx, &c);
	if (rc < 0)
		return host_fail(call, rc);
	rc = pcc_host_np_set_resp_ts(pcc->ctx, (uint8_t)(size >= 0 ? size : c.resp_ts_size),
			(uint8_t)(res >= 0 ? res : c.resp_ts_res));
	if (rc < 0)
		return host_fail(call, rc);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_np_set_resp_ts_size(struct doca_pcc *pcc, uint8_t ts_size)
{
	return resp_ts(__func__, pcc, ts_size, -1);
}

doca_error_t
doca_pcc_np_set_resp_ts_resolution(struct doca_pcc *pcc, uint8_t resolution)
{
	return resp_ts(__func__, pcc, -1, resolution);
}

doca_error_t
doca_pcc_np_set_ts_source(struct doca_pcc *pcc, doca_pcc_np_ts_source_t ts_source)
{
	doca_error_t e = need(__func__, pcc, PCC_HOST_ROLE_NP);
	int rc;

	if (e != DOCA_SUCCESS)
		return e;
	switch (ts_source) {
	case DOCA_PCC_NP_TS_SOURCE_FREE_RUNNING:
	case DOCA_PCC_NP_TS_SOURCE_DEFAULT:
		rc = pcc_host_np_set_ts_src(pcc->ctx, PCC_HOST_TS_PORT);
		break;
	case DOCA_PCC_NP_TS_SOURCE_REAL_TIME:
		rc = pcc_host_np_set_ts_src(pcc->ctx, PCC_HOST_TS_REALTIME);
		break;
	default:
		return doca_host_fail(
				DOCA_ERROR_INVALID_VALUE, __func__, "source %d", (int)ts_source);
	}
	if (rc < 0)
		return host_fail(__func__, rc);
	return DOCA_SUCCESS;
}

/* ---- Tracer, logger, coredump ------------------------------------------------- */

/* Who the tracer writes for (it is the process's). */
static struct doca_pcc *trace_owner;

doca_error_t
doca_pcc_set_trace_message(struct doca_pcc *pcc, char **trace_message)
{
	uint32_t i;
	int rc;

	if (pcc == NULL || trace_message == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(
				DOCA_ERROR_BAD_STATE, __func__, "set before doca_pcc_start()");
	for (i = 0; trace_message[i] != NULL; i++) {
		rc = pcc_host_trace_fmt_set(i, trace_message[i]);
		if (rc < 0)
			return doca_host_fail(doca_error_from_errno(rc), __func__, "format %u: %s",
					i, pcc_host_last_error());
	}
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_activate_tracer(struct doca_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	pcc_host_trace_activate(true);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_deactivate_tracer(struct doca_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	pcc_host_trace_activate(false);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_trace_buf_set(struct doca_pcc *pcc, char *buf, size_t size)
{
	int rc;

	if (pcc == NULL || buf == NULL || size == 0)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL or empty buffer");
	rc = pcc_host_trace_to_buffer(buf, size);
	if (rc < 0)
		return host_fail(__func__, rc);
	pcc->trace_buf = buf;
	pcc->trace_file = NULL;
	pcc->handler = NULL;
	trace_owner = pcc;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_trace_buf_get(struct doca_pcc *pcc, char **buf)
{
	if (pcc == NULL || buf == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (trace_owner != pcc || pcc->trace_buf == NULL)
		return DOCA_ERROR_BAD_CONFIG;
	*buf = pcc->trace_buf;
	return DOCA_SUCCESS;
}

/* The tracer's batches as lines of a FILE, or as DOCA reports. */
static void
trace_cb(const struct pcc_host_trace_msg *msgs, uint32_t n, void *arg)
{
	struct doca_pcc *pcc = arg;
	uint32_t i;

	if (pcc->trace_file != NULL) {
		for (i = 0; i < n; i++)
			fprintf(pcc->trace_file, "%s\n", msgs[i].text);
		fflush(pcc->trace_file);
		return;
	}
	if (pcc->handler == NULL)
		return;
	for (i = 0; i < n && i < DOCA_PCC_TRACE_BATCH; i++) {
		struct doca_pcc_bin_report *r = &pcc->reports[i];

		r->msg_number = msgs[i].fmt_id;
		r->seq_number = (uint32_t)msgs[i].seq;
		r->metadata = msgs[i].thread;
		r->internal_timestamp = msgs[i].ts;
		memcpy(r->args, msgs[i].args, sizeof(r->args));
	}
	pcc->handler(pcc->handler_ctx, pcc->reports, i);
}

doca_error_t
doca_pcc_trace_file_set(struct doca_pcc *pcc, FILE *file)
{
	int rc;

	if (pcc == NULL || file == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	rc = pcc_host_trace_to_callback(trace_cb, pcc, DOCA_PCC_TRACE_BATCH);
	if (rc < 0)
		return host_fail(__func__, rc);
	pcc->trace_file = file;
	pcc->trace_buf = NULL;
	pcc->handler = NULL;
	trace_owner = pcc;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_trace_file_get(struct doca_pcc *pcc, FILE **file)
{
	if (pcc == NULL || file == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (trace_owner != pcc || pcc->trace_file == NULL)
		return DOCA_ERROR_BAD_CONFIG;
	*file = pcc->trace_file;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_register_trace_handler(
		struct doca_pcc *pcc, doca_pcc_trace_handler_cb handler, void *user_ctx)
{
	int rc;

	if (pcc == NULL || handler == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(
				DOCA_ERROR_BAD_STATE, __func__, "set before doca_pcc_start()");
	rc = pcc_host_trace_to_callback(trace_cb, pcc, DOCA_PCC_TRACE_BATCH);
	if (rc < 0)
		return host_fail(__func__, rc);
	pcc->handler = handler;
	pcc->handler_ctx = user_ctx;
	pcc->trace_file = NULL;
	pcc->trace_buf = NULL;
	trace_owner = pcc;
	return DOCA_SUCCESS;
}

int
doca_pcc_trace_apply(struct doca_pcc *pcc)
{
	RTE_SET_USED(pcc);
	/* tracing is on when a context starts (DOCA's default) */
	if (!pcc_host_trace_active())
		pcc_host_trace_activate(true);
	return 0;
}

void
doca_pcc_trace_release(struct doca_pcc *pcc)
{
	if (trace_owner != pcc)
		return;
	pcc_host_trace_flush();
	pcc_host_trace_to_stdout();
	trace_owner = NULL;
}

doca_error_t
doca_pcc_set_print_buffer_size(struct doca_pcc *pcc, size_t buffer_size)
{
	int rc;

	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(
				DOCA_ERROR_BAD_STATE, __func__, "set before doca_pcc_start()");
	if (buffer_size == 0 || buffer_size > UINT32_MAX)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "%zu bytes", buffer_size);
	rc = pcc_host_log_set_buffer_size((uint32_t)buffer_size);
	if (rc < 0)
		return host_fail(__func__, rc);
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_set_dev_coredump_file(struct doca_pcc *pcc, const char *file_name)
{
	int rc;

	if (pcc == NULL || file_name == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (compat_ctx_started(pcc->ctx))
		return doca_host_fail(
				DOCA_ERROR_BAD_STATE, __func__, "set before doca_pcc_start()");
	rc = pcc_host_crash_set_file(file_name);
	if (rc < 0)
		return host_fail(__func__, rc);
	return DOCA_SUCCESS;
}

/* ---- Resources -------------------------------------------------------------------- */

struct doca_pcc_resources {
	uint32_t n;
	uint32_t eus[RTE_MAX_LCORE];
};

doca_error_t
doca_pcc_resources_create(const char *application_key, const char *buffer, size_t size,
		struct doca_pcc_resources **resources)
{
	struct doca_pcc_resources *r;
	struct pcc_host_res *res;
	char err[512];
	int n;

	if (application_key == NULL || buffer == NULL || size == 0 || resources == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL or empty argument");
	res = pcc_host_res_parse(buffer, size, "resources", err, sizeof(err));
	if (res == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "%s", err);
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		pcc_host_res_free(res);
		return DOCA_ERROR_NO_MEMORY;
	}
	n = pcc_host_res_count(res, application_key);
	if (n < 0) {
		pcc_host_res_free(res);
		free(r);
		return doca_host_fail(DOCA_ERROR_NOT_FOUND, __func__,
				"no application '%s' in the resources", application_key);
	}
	pcc_host_res_lcores(res, application_key, r->eus, RTE_DIM(r->eus));
	r->n = (uint32_t)RTE_MIN((uint32_t)n, (uint32_t)RTE_DIM(r->eus));
	pcc_host_res_free(res);
	*resources = r;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_resources_get_num_eus(const struct doca_pcc_resources *resources, uint32_t *num_eus)
{
	if (resources == NULL || num_eus == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*num_eus = resources->n;
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_resources_get_eus(
		const struct doca_pcc_resources *resources, uint32_t num_eus, uint32_t *eus)
{
	if (resources == NULL || eus == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (num_eus > resources->n)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"%u execution units asked, the application has %u", num_eus,
				resources->n);
	memcpy(eus, resources->eus, num_eus * sizeof(*eus));
	return DOCA_SUCCESS;
}

doca_error_t
doca_pcc_resources_destroy(struct doca_pcc_resources *resources)
{
	if (resources == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL resources");
	free(resources);
	return DOCA_SUCCESS;
}
