/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA Telemetry PCC over a dpdk-pcc's /pcc/ telemetry commands
 * (doca_telemetry_pcc.h, doc/telemetry.md): /pcc/info for the limits,
 * /pcc/config for the port's logical port, /pcc/algo, /pcc/counter_info,
 * /pcc/counters and /pcc/counters_clear per slot.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include <doca_telemetry_pcc.h>

#include "doca_host_internal.h"

/* Strings of DPDK 22.11 telemetry replies are at most 127 bytes. */
#define INFO_LEN 128

struct doca_telemetry_pcc {
	struct dtlm *t;
	char dev[COMPAT_NAME_MAX];
	uint32_t dev_port; /* lib/dev logical port of the device's port */
	uint32_t max_slots;
	uint32_t max_counters;
	bool running;
};

/* Connect to the process a device belongs to. */
static struct dtlm *
connect_dev(const struct doca_devinfo *d, char *err, size_t errlen)
{
	if (d->remote)
		return dtlm_open(doca_host_remote_prefix(), NULL, err, errlen);
	if (!compat_env_ready()) {
		snprintf(err, errlen, "the local environment did not start");
		return NULL;
	}
	return dtlm_open(NULL, rte_eal_get_runtime_dir(), err, errlen);
}

static bool
json_uint(const json_t *o, const char *key, uint32_t *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x))
		return false;
	*v = (uint32_t)json_integer_value(x);
	return true;
}

/* The device's logical port and the limits; DOCA error with the reason. */
static doca_error_t
dev_probe(const char *call, const struct doca_devinfo *d, struct dtlm *t, uint32_t *dev_port,
		uint32_t *max_slots, uint32_t *max_counters)
{
	char err[512], key[32];
	json_t *cfg, *port, *info;
	const char *roles;
	uint32_t v;

	info = dtlm_get(t, "/pcc/info", err, sizeof(err));
	if (info == NULL)
		return doca_host_fail(
				DOCA_ERROR_DRIVER, call, "%s: %s (not a dpdk-pcc?)", d->name, err);
	if (max_slots != NULL && !json_uint(info, "max_slots", max_slots))
		*max_slots = 8;
	if (max_counters != NULL && !json_uint(info, "max_counters", max_counters))
		*max_counters = 63;
	json_decref(info);
	cfg = dtlm_get(t, "/pcc/config", err, sizeof(err));
	if (cfg == NULL)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, call,
				"%s: %s (the dpdk-pcc runs no engine yet)", d->name, err);
	snprintf(key, sizeof(key), "port%d", d->port);
	port = json_object_get(cfg, key);
	roles = json_string_value(json_object_get(port, "roles"));
	if (port == NULL || roles == NULL || strstr(roles, "rp") == NULL ||
			!json_uint(port, "dev_port", &v)) {
		json_decref(cfg);
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, call,
				"%s (port %d) runs no PCC algorithms (no RP role)", d->name,
				d->port);
	}
	if (dev_port != NULL)
		*dev_port = v;
	json_decref(cfg);
	return DOCA_SUCCESS;
}

static doca_error_t
cap(const char *call, const struct doca_devinfo *d, uint32_t *max_slots, uint32_t *max_counters)
{
	char err[512];
	struct dtlm *t;
	doca_error_t e;

	if (d == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL devinfo");
	t = connect_dev(d, err, sizeof(err));
	if (t == NULL)
		return doca_host_fail(DOCA_ERROR_NOT_CONNECTED, call, "%s: %s", d->name, err);
	e = dev_probe(call, d, t, NULL, max_slots, max_counters);
	dtlm_close(t);
	return e;
}

doca_error_t
doca_telemetry_pcc_cap_is_supported(const struct doca_devinfo *devinfo)
{
	return cap(__func__, devinfo, NULL, NULL);
}

doca_error_t
doca_telemetry_pcc_cap_get_max_algo_slots(
		const struct doca_devinfo *devinfo, uint32_t *max_algo_slots)
{
	if (max_algo_slots == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	return cap(__func__, devinfo, max_algo_slots, NULL);
}

doca_error_t
doca_telemetry_pcc_cap_get_max_num_counters(
		const struct doca_devinfo *devinfo, uint32_t *max_num_counters)
{
	if (max_num_counters == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	return cap(__func__, devinfo, NULL, max_num_counters);
}

doca_error_t
doca_telemetry_pcc_cap_get_max_algo_info_len(
		const struct doca_devinfo *devinfo, uint32_t *max_algo_info_len)
{
	if (devinfo == NULL || max_algo_info_len == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*max_algo_info_len = INFO_LEN;
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_cap_get_max_counter_info_len(
		const struct doca_devinfo *devinfo, uint32_t *max_counter_info_len)
{
	if (devinfo == NULL || max_counter_info_len == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*max_counter_info_len = INFO_LEN;
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_create(struct doca_dev *dev, struct doca_telemetry_pcc **pcc)
{
	const struct doca_devinfo *d = doca_dev_as_devinfo(dev);
	struct doca_telemetry_pcc *p;
	char err[512];
	doca_error_t e;

	if (d == NULL || pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->t = connect_dev(d, err, sizeof(err));
	if (p->t == NULL) {
		free(p);
		return doca_host_fail(DOCA_ERROR_NOT_CONNECTED, __func__, "%s: %s", d->name, err);
	}
	e = dev_probe(__func__, d, p->t, &p->dev_port, &p->max_slots, &p->max_counters);
	if (e != DOCA_SUCCESS) {
		dtlm_close(p->t);
		free(p);
		return e;
	}
	snprintf(p->dev, sizeof(p->dev), "%s", d->name);
	*pcc = p;
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_destroy(struct doca_telemetry_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (pcc->running)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "stop the context first");
	dtlm_close(pcc->t);
	free(pcc);
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_start(struct doca_telemetry_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (pcc->running)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "already started");
	pcc->running = true;
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_stop(struct doca_telemetry_pcc *pcc)
{
	if (pcc == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL context");
	if (!pcc->running)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, __func__, "not started");
	pcc->running = false;
	return DOCA_SUCCESS;
}

/* /pcc/algo of slot: the reply, NULL for an empty slot (*e SUCCESS), or
 * NULL with *e set. */
static json_t *
algo_get(const char *call, struct doca_telemetry_pcc *pcc, uint8_t slot, doca_error_t *e)
{
	char cmd[64], err[512];
	json_t *a;

	*e = DOCA_SUCCESS;
	if (pcc == NULL) {
		*e = doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL context");
		return NULL;
	}
	if (slot >= pcc->max_slots) {
		*e = doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "slot %u (0..%u)", slot,
				pcc->max_slots - 1);
		return NULL;
	}
	snprintf(cmd, sizeof(cmd), "/pcc/algo,%u,%u", pcc->dev_port, slot);
	a = dtlm_get(pcc->t, cmd, err, sizeof(err));
	/* an unbound slot (-ENOENT) is the caller's BAD_STATE */
	if (a == NULL && dtlm_status(pcc->t) != -ENOENT)
		*e = doca_host_fail(DOCA_ERROR_DRIVER, call, "%s: %s", pcc->dev, err);
	return a;
}

/* A populated slot's algorithm, or DOCA_ERROR_BAD_STATE. */
static doca_error_t
algo_field(const char *call, struct doca_telemetry_pcc *pcc, uint8_t slot, const char *key,
		uint32_t *v)
{
	doca_error_t e;
	json_t *a;

	if (v == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL argument");
	a = algo_get(call, pcc, slot, &e);
	if (a == NULL)
		return e != DOCA_SUCCESS ? e : DOCA_ERROR_BAD_STATE;
	if (!json_uint(a, key, v))
		e = doca_host_fail(DOCA_ERROR_DRIVER, call, "no %s in /pcc/algo", key);
	json_decref(a);
	return e;
}

doca_error_t
doca_telemetry_pcc_get_algo_id(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *algo_id)
{
	return algo_field(__func__, pcc, algo_slot, "algo_id", algo_id);
}

doca_error_t
doca_telemetry_pcc_get_algo_major_version(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *major_ver)
{
	return algo_field(__func__, pcc, algo_slot, "major", major_ver);
}

doca_error_t
doca_telemetry_pcc_get_algo_minor_version(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *minor_ver)
{
	return algo_field(__func__, pcc, algo_slot, "minor", minor_ver);
}

static void
copy_info(char *dst, const json_t *o, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (s == NULL || s[0] == '\0')
		s = json_string_value(json_object_get(o, fallback));
	snprintf(dst, INFO_LEN, "%s", s != NULL ? s : "");
}

doca_error_t
doca_telemetry_pcc_get_algo_info(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, char *algo_info)
{
	doca_error_t e;
	json_t *a;

	if (algo_info == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	a = algo_get(__func__, pcc, algo_slot, &e);
	if (a == NULL)
		return e != DOCA_SUCCESS ? e : DOCA_ERROR_BAD_STATE;
	copy_info(algo_info, a, "description", "name");
	json_decref(a);
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_get_algo_enable_status(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint8_t *algo_enabled, uint8_t *counters_enabled)
{
	uint32_t en = 0, cen = 0;
	doca_error_t e;
	json_t *a;

	if (algo_enabled == NULL || counters_enabled == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	a = algo_get(__func__, pcc, algo_slot, &e);
	if (a == NULL && e != DOCA_SUCCESS)
		return e;
	if (a != NULL) {
		json_uint(a, "slot_enabled", &en);
		json_uint(a, "counters_enabled", &cen);
		json_decref(a);
	}
	*algo_enabled = en != 0;
	*counters_enabled = cen != 0;
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_get_num_counters(
		struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *num_counters)
{
	return algo_field(__func__, pcc, algo_slot, "n_counters", num_counters);
}

doca_error_t
doca_telemetry_pcc_get_counter_info(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint8_t counter_id, char *counter_info)
{
	char cmd[80], err[512];
	uint32_t n;
	doca_error_t e;
	json_t *c;

	if (counter_info == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	e = algo_field(__func__, pcc, algo_slot, "n_counters", &n);
	if (e != DOCA_SUCCESS)
		return e;
	if (counter_id >= n)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"counter %u: slot %u has %u counters", counter_id, algo_slot, n);
	snprintf(cmd, sizeof(cmd), "/pcc/counter_info,%u,%u,%u", pcc->dev_port, algo_slot,
			counter_id);
	c = dtlm_get(pcc->t, cmd, err, sizeof(err));
	if (c == NULL)
		return doca_host_fail(DOCA_ERROR_DRIVER, __func__, "%s: %s", pcc->dev, err);
	copy_info(counter_info, c, "description", "name");
	json_decref(c);
	return DOCA_SUCCESS;
}

static doca_error_t
counters(const char *call, struct doca_telemetry_pcc *pcc, uint8_t slot, bool clear,
		uint32_t *populated, uint32_t *out)
{
	char cmd[80], err[512];
	uint32_t en = 0;
	doca_error_t e;
	json_t *a, *c, *vals;
	size_t i, n;

	if (populated == NULL || (out == NULL && !clear))
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL argument");
	a = algo_get(call, pcc, slot, &e);
	if (a == NULL)
		return e != DOCA_SUCCESS ? e :
					   doca_host_fail(DOCA_ERROR_BAD_STATE, call,
							   "slot %u is empty", slot);
	json_uint(a, "counters_enabled", &en);
	json_decref(a);
	if (en == 0)
		return doca_host_fail(DOCA_ERROR_BAD_STATE, call,
				"the counters of slot %u are disabled", slot);
	snprintf(cmd, sizeof(cmd), "/pcc/%s,%u,%u", clear ? "counters_clear" : "counters",
			pcc->dev_port, slot);
	c = dtlm_get(pcc->t, cmd, err, sizeof(err));
	if (c == NULL)
		return doca_host_fail(DOCA_ERROR_DRIVER, call, "%s: %s", pcc->dev, err);
	vals = json_object_get(c, "values");
	n = json_array_size(vals);
	if (n > pcc->max_counters)
		n = pcc->max_counters;
	for (i = 0; out != NULL && i < n; i++)
		out[i] = (uint32_t)json_integer_value(json_array_get(vals, i));
	*populated = out != NULL ? (uint32_t)n : 0;
	json_decref(c);
	return DOCA_SUCCESS;
}

doca_error_t
doca_telemetry_pcc_get_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint32_t *counters_populated, uint32_t *counters_out)
{
	return counters(__func__, pcc, algo_slot, false, counters_populated, counters_out);
}

doca_error_t
doca_telemetry_pcc_get_and_clear_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot,
		uint32_t *counters_populated, uint32_t *counters_out)
{
	return counters(__func__, pcc, algo_slot, true, counters_populated, counters_out);
}
