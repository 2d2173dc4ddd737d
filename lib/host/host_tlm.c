/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * rte_telemetry commands under /pcc/ (doc/telemetry.md).  DPDK 22.11
 * containers hold only arrays of scalars, so lists of records are
 * returned as parallel arrays ("names": [...], "values": [...]).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "host_internal.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_host_trace.h"

/* Parse "a,b,c": up to n unsigned numbers, the rest (after n) in *rest. */
int
host_tlm_args(const char *params, uint32_t *v, int n, const char **rest)
{
	const char *p = params;
	char *end;
	unsigned long x;
	int i;

	if (rest != NULL)
		*rest = NULL;
	if (p == NULL || *p == '\0')
		return 0;
	for (i = 0; i < n; i++) {
		errno = 0;
		x = strtoul(p, &end, 0);
		if (end == p || errno != 0 || x > UINT32_MAX || (*end != ',' && *end != '\0'))
			return -EINVAL;
		v[i] = (uint32_t)x;
		if (*end == '\0')
			return i + 1;
		p = end + 1;
	}
	if (rest != NULL)
		*rest = p;
	return n;
}

int
host_tlm_fail(struct rte_tel_data *d, int rc, const char *fmt, ...)
{
	char msg[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "status", rc);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

/* A port number: 0 or an error reply (rc < 0 after host_tlm_fail). */
static int
tlm_port(struct rte_tel_data *d, uint32_t v)
{
	if (v >= PCC_DEV_MAX_PORTS) {
		host_tlm_fail(d, -EINVAL, "port %u: ports are 0..%u", v, PCC_DEV_MAX_PORTS - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * "port,slot[,third]" (form names them for the error): 0, or -EINVAL with
 * the error reply written.
 */
static int
port_slot(struct rte_tel_data *d, const char *params, const char *form, uint8_t *port,
		uint8_t *slot, uint32_t *third)
{
	uint32_t v[3] = { 0, 0, 0 };
	int n = host_tlm_args(params, v, third != NULL ? 3 : 2, NULL);

	if (n < 2 || (third != NULL && n < 3)) {
		host_tlm_fail(d, -EINVAL, "parameters '%s': expected %s",
				params != NULL ? params : "", form);
		return -EINVAL;
	}
	if (tlm_port(d, v[0]) < 0)
		return -EINVAL;
	if (v[1] >= PCC_DEV_MAX_SLOTS && v[1] != PCC_DEV_INTERNAL_SLOT) {
		host_tlm_fail(d, -EINVAL, "slot %u: slots are 0..%u and %u", v[1],
				PCC_DEV_MAX_SLOTS - 1, PCC_DEV_INTERNAL_SLOT);
		return -EINVAL;
	}
	*port = (uint8_t)v[0];
	*slot = (uint8_t)v[1];
	if (third != NULL)
		*third = v[2];
	return 0;
}

/* The algorithm bound at port/slot, or NULL with the error reply written. */
static const struct pcc_dev_algo_ops *
tlm_bound(struct rte_tel_data *d, uint8_t port, uint8_t slot, bool *enabled)
{
	const struct pcc_dev_algo_ops *ops = pcc_dev_slot_algo(port, slot, enabled);

	if (ops == NULL)
		host_tlm_fail(d, -ENOENT, "port %u slot %u: no algorithm bound", port, slot);
	return ops;
}

struct rte_tel_data *
host_tlm_arr_u64(void)
{
	struct rte_tel_data *a = rte_tel_data_alloc();

	if (a != NULL)
		rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
	return a;
}

static struct rte_tel_data *
arr_str(void)
{
	struct rte_tel_data *a = rte_tel_data_alloc();

	if (a != NULL)
		rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	return a;
}

void
host_tlm_dict_arr(struct rte_tel_data *d, const char *name, struct rte_tel_data *a)
{
	if (a != NULL && rte_tel_data_add_dict_container(d, name, a, 0) != 0)
		rte_tel_data_free(a);
}

static void
add_str(struct rte_tel_data *d, const char *name, const char *s)
{
	char t[RTE_TEL_MAX_STRING_LEN];

	snprintf(t, sizeof(t), "%s", s != NULL ? s : "");
	rte_tel_data_add_dict_string(d, name, t);
}

static void
arr_add_str(struct rte_tel_data *a, const char *s)
{
	char t[RTE_TEL_MAX_STRING_LEN];

	snprintf(t, sizeof(t), "%s", s != NULL ? s : "");
	rte_tel_data_add_array_string(a, t);
}

/* ---- /pcc/info, /pcc/state ----------------------------------------------------- */

static int
tlm_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_dict(d);
	add_str(d, "version", PCC_VERSION);
	rte_tel_data_add_dict_int(d, "process_state", (int)pcc_host_process_state());
	add_str(d, "process_state_name", pcc_host_process_state_name(pcc_host_process_state()));
	rte_tel_data_add_dict_u64(d, "logical_ports_mask", pcc_dev_logical_ports());
	rte_tel_data_add_dict_int(d, "max_slots", PCC_DEV_MAX_SLOTS);
	rte_tel_data_add_dict_int(d, "max_params", PCC_DEV_MAX_PARAMS);
	rte_tel_data_add_dict_int(d, "max_counters", PCC_DEV_MAX_COUNTERS);
	rte_tel_data_add_dict_int(d, "max_histograms", PCC_DEV_MAX_HISTS);
	rte_tel_data_add_dict_int(d, "engine", pcc_host_engine() != NULL ? 1 : 0);
	return 0;
}

static int
tlm_state(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *port = host_tlm_arr_u64(), *role = arr_str(), *st = arr_str();
	struct pcc_host_ctx *c;
	unsigned int i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "process_state", (int)pcc_host_process_state());
	add_str(d, "process_state_name", pcc_host_process_state_name(pcc_host_process_state()));
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		c = host_ctx_at(i);
		if (c == NULL)
			continue;
		if (port != NULL)
			rte_tel_data_add_array_u64(port, c->port_id);
		if (role != NULL)
			arr_add_str(role, c->role == PCC_HOST_ROLE_RP ? "rp" : "np");
		if (st != NULL)
			arr_add_str(st, pcc_host_ctx_state_name(c->state));
	}
	pthread_mutex_unlock(&host_lock);
	host_tlm_dict_arr(d, "ctx_port", port);
	host_tlm_dict_arr(d, "ctx_role", role);
	host_tlm_dict_arr(d, "ctx_state", st);
	return 0;
}

/* ---- Slots and algorithms ---------------------------------------------------------- */

static int
tlm_slots(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *slots, *en, *id, *names;
	const struct pcc_dev_algo_ops *ops;
	uint32_t v[1];
	bool enabled;
	uint8_t s;

	RTE_SET_USED(cmd);
	if (host_tlm_args(params, v, 1, NULL) != 1)
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port",
				params != NULL ? params : "");
	if (tlm_port(d, v[0]) < 0)
		return 0;
	slots = host_tlm_arr_u64();
	en = host_tlm_arr_u64();
	id = host_tlm_arr_u64();
	names = arr_str();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", (int)v[0]);
	rte_tel_data_add_dict_int(d, "active_slot", pcc_dev_slot_active((uint8_t)v[0]));
	for (s = 0; s <= PCC_DEV_INTERNAL_SLOT; s++) {
		if (s >= PCC_DEV_MAX_SLOTS && s != PCC_DEV_INTERNAL_SLOT)
			continue;
		ops = pcc_dev_slot_algo((uint8_t)v[0], s, &enabled);
		if (ops == NULL)
			continue;
		if (slots != NULL)
			rte_tel_data_add_array_u64(slots, s);
		if (en != NULL)
			rte_tel_data_add_array_u64(en, enabled || s == PCC_DEV_INTERNAL_SLOT);
		if (id != NULL)
			rte_tel_data_add_array_u64(id, ops->id);
		if (names != NULL)
			arr_add_str(names, ops->name);
	}
	host_tlm_dict_arr(d, "slots", slots);
	host_tlm_dict_arr(d, "enabled", en);
	host_tlm_dict_arr(d, "algo_id", id);
	host_tlm_dict_arr(d, "algo_name", names);
	return 0;
}

static int
tlm_algo(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct pcc_dev_algo_ops *ops;
	uint8_t port, slot;
	bool enabled;
	int g;

	RTE_SET_USED(cmd);
	if (port_slot(d, params, "port,slot", &port, &slot, NULL) < 0)
		return 0;
	ops = tlm_bound(d, port, slot, &enabled);
	if (ops == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_int(d, "slot", slot);
	rte_tel_data_add_dict_u64(d, "algo_id", ops->id);
	rte_tel_data_add_dict_int(d, "major", ops->major);
	rte_tel_data_add_dict_int(d, "minor", ops->minor);
	add_str(d, "name", ops->name);
	add_str(d, "description", ops->desc);
	rte_tel_data_add_dict_int(d, "slot_enabled", enabled || slot == PCC_DEV_INTERNAL_SLOT);
	rte_tel_data_add_dict_int(d, "counters_enabled", pcc_dev_counters_enabled(port, slot));
	rte_tel_data_add_dict_int(d, "n_counters", (int)ops->n_counters);
	rte_tel_data_add_dict_int(d, "n_params", pcc_dev_param_count(port, slot));
	g = pcc_dev_counter_groups(port, slot);
	rte_tel_data_add_dict_int(d, "n_counter_groups", g < 0 ? 0 : g);
	rte_tel_data_add_dict_int(d, "mailbox", ops->mailbox != NULL);
	return 0;
}

static const char *
ctr_type_name(uint8_t t)
{
	return t == PCC_DEV_COUNTER_MIN ? "min" : t == PCC_DEV_COUNTER_MAX ? "max" : "accumulate";
}

static int
tlm_counters_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct pcc_dev_algo_ops *ops;
	struct rte_tel_data *names, *types, *descs, *units;
	uint8_t port, slot;
	uint32_t i;

	RTE_SET_USED(cmd);
	if (port_slot(d, params, "port,slot", &port, &slot, NULL) < 0)
		return 0;
	ops = tlm_bound(d, port, slot, NULL);
	if (ops == NULL)
		return 0;
	names = arr_str();
	types = arr_str();
	descs = arr_str();
	units = arr_str();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_int(d, "slot", slot);
	rte_tel_data_add_dict_int(d, "n_counters", (int)ops->n_counters);
	for (i = 0; i < ops->n_counters && ops->counters != NULL; i++) {
		if (names != NULL)
			arr_add_str(names, ops->counters[i].name);
		if (types != NULL)
			arr_add_str(types, ctr_type_name(ops->counters[i].type));
		if (descs != NULL)
			arr_add_str(descs, ops->counters[i].desc);
		if (units != NULL)
			arr_add_str(units, pcc_dev_unit_name(pcc_dev_counter_unit(ops, i)));
	}
	host_tlm_dict_arr(d, "names", names);
	host_tlm_dict_arr(d, "types", types);
	host_tlm_dict_arr(d, "descriptions", descs);
	host_tlm_dict_arr(d, "units", units);
	return 0;
}

static int
tlm_counter_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct pcc_dev_algo_ops *ops;
	const struct pcc_dev_counter_desc *c;
	uint8_t port, slot;
	uint32_t id;

	RTE_SET_USED(cmd);
	if (port_slot(d, params, "port,slot,id", &port, &slot, &id) < 0)
		return 0;
	ops = tlm_bound(d, port, slot, NULL);
	if (ops == NULL)
		return 0;
	if (id >= ops->n_counters || ops->counters == NULL)
		return host_tlm_fail(d, -ENOENT, "counter %u: %s has %u counters", id, ops->name,
				ops->n_counters);
	c = &ops->counters[id];
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "id", (int)id);
	add_str(d, "name", c->name);
	add_str(d, "type", ctr_type_name(c->type));
	rte_tel_data_add_dict_u64(d, "max", c->max == 0 ? UINT32_MAX : c->max);
	rte_tel_data_add_dict_int(d, "permission", c->perm);
	add_str(d, "description", c->desc);
	add_str(d, "unit", pcc_dev_unit_name(pcc_dev_counter_unit(ops, id)));
	return 0;
}

/*
 * Name of word i of counter group g: group 0 holds the counters (their
 * names); a word of a group >= 1 a histogram covers is "hist<h>_bin<b>",
 * any other "word<i>".
 */
static void
counter_word_name(const struct pcc_dev_algo_ops *ops, uint8_t port, uint8_t g, int i, char *buf,
		size_t len)
{
	struct pcc_dev_hist_desc hd;
	uint32_t mask;
	uint8_t h;

	if (g == 0 && ops->counters != NULL && (uint32_t)i < ops->n_counters) {
		snprintf(buf, len, "%s", ops->counters[i].name);
		return;
	}
	mask = pcc_dev_hist_configured(port);
	for (h = 0; h < PCC_DEV_MAX_HISTS; h++) {
		if (!(mask & (1u << h)) || pcc_dev_hist_describe(port, h, &hd) < 0 ||
				hd.counter_group != g || i < hd.group_offset ||
				i >= hd.group_offset + hd.n_bins)
			continue;
		snprintf(buf, len, "hist%u_bin%d", h, i - hd.group_offset);
		return;
	}
	snprintf(buf, len, "word%d", i);
}

static int
counters_common(const char *params, struct rte_tel_data *d, bool clear)
{
	uint32_t vals[PCC_DEV_COUNTER_GROUP_SIZE];
	const struct pcc_dev_algo_ops *ops;
	uint32_t v[3] = { 0, 0, 0 };
	struct rte_tel_data *a, *names;
	char name[RTE_TEL_MAX_STRING_LEN];
	uint8_t port, slot, g;
	int n, i, k;

	k = host_tlm_args(params, v, 3, NULL);
	if (k < 2)
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port,slot[,group]",
				params != NULL ? params : "");
	if (tlm_port(d, v[0]) < 0)
		return 0;
	if (v[1] >= PCC_DEV_MAX_SLOTS && v[1] != PCC_DEV_INTERNAL_SLOT)
		return host_tlm_fail(d, -EINVAL, "slot %u: slots are 0..%u and %u", v[1],
				PCC_DEV_MAX_SLOTS - 1, PCC_DEV_INTERNAL_SLOT);
	port = (uint8_t)v[0];
	slot = (uint8_t)v[1];
	ops = tlm_bound(d, port, slot, NULL);
	if (ops == NULL)
		return 0;
	k = pcc_dev_counter_groups(port, slot);
	if (v[2] >= (uint32_t)RTE_MAX(k, 1))
		return host_tlm_fail(d, -EINVAL, "group %u: port %u slot %u has groups 0..%d", v[2],
				port, slot, k - 1);
	g = (uint8_t)v[2];
	if (clear)
		n = pcc_dev_counters_group_get_and_clear(
				port, slot, g, vals, PCC_DEV_COUNTER_GROUP_SIZE);
	else
		n = pcc_dev_counters_group_get(port, slot, g, vals, PCC_DEV_COUNTER_GROUP_SIZE);
	if (n == -EBUSY)
		return host_tlm_fail(
				d, n, "group %u holds an enabled histogram: disable it first", g);
	if (n < 0)
		return host_tlm_fail(
				d, n, "port %u slot %u group %u: %s", port, slot, g, strerror(-n));
	a = host_tlm_arr_u64();
	names = arr_str();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_int(d, "slot", slot);
	rte_tel_data_add_dict_int(d, "group", g);
	rte_tel_data_add_dict_int(d, "enabled", pcc_dev_counters_enabled(port, slot));
	rte_tel_data_add_dict_int(d, "n", n);
	for (i = 0; i < n; i++) {
		if (a != NULL)
			rte_tel_data_add_array_u64(a, vals[i]);
		if (names != NULL) {
			counter_word_name(ops, port, g, i, name, sizeof(name));
			arr_add_str(names, name);
		}
	}
	host_tlm_dict_arr(d, "names", names);
	host_tlm_dict_arr(d, "values", a);
	return 0;
}

static int
tlm_counters(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return counters_common(params, d, false);
}

static int
tlm_counters_clear(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return counters_common(params, d, true);
}

/* ---- Parameters --------------------------------------------------------------------- */

static const char *
ptype_name(uint8_t t)
{
	return t == PCC_DEV_PARAM_U64 ? "u64" : t == PCC_DEV_PARAM_I32 ? "i32" : "u32";
}

static int
tlm_params(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_dev_param_info info[PCC_DEV_MAX_PARAMS];
	struct rte_tel_data *names, *vals, *defs, *mins, *maxs, *rw;
	uint8_t port, slot;
	int n, i;

	RTE_SET_USED(cmd);
	if (port_slot(d, params, "port,slot", &port, &slot, NULL) < 0 ||
			tlm_bound(d, port, slot, NULL) == NULL)
		return 0;
	n = pcc_dev_param_list(port, slot, info, PCC_DEV_MAX_PARAMS);
	if (n < 0)
		return host_tlm_fail(d, n, "port %u slot %u: %s", port, slot, strerror(-n));
	if (n > PCC_DEV_MAX_PARAMS)
		n = PCC_DEV_MAX_PARAMS;
	names = arr_str();
	vals = host_tlm_arr_u64();
	defs = host_tlm_arr_u64();
	mins = host_tlm_arr_u64();
	maxs = host_tlm_arr_u64();
	rw = host_tlm_arr_u64();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_int(d, "slot", slot);
	rte_tel_data_add_dict_int(d, "n_params", n);
	for (i = 0; i < n; i++) {
		if (names != NULL)
			arr_add_str(names, info[i].name);
		/* I32 values are shown as their two's complement bits */
		if (vals != NULL)
			rte_tel_data_add_array_u64(vals, info[i].cur.u);
		if (defs != NULL)
			rte_tel_data_add_array_u64(defs, info[i].def.u);
		if (mins != NULL)
			rte_tel_data_add_array_u64(mins, info[i].min.u);
		if (maxs != NULL)
			rte_tel_data_add_array_u64(maxs, info[i].max.u);
		if (rw != NULL)
			rte_tel_data_add_array_u64(rw, PCC_DEV_PERM_WRITABLE(info[i].perm));
	}
	host_tlm_dict_arr(d, "names", names);
	host_tlm_dict_arr(d, "values", vals);
	host_tlm_dict_arr(d, "defaults", defs);
	host_tlm_dict_arr(d, "min", mins);
	host_tlm_dict_arr(d, "max", maxs);
	host_tlm_dict_arr(d, "writable", rw);
	return 0;
}

static int
tlm_param(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct pcc_dev_algo_ops *ops;
	struct pcc_dev_param_info info;
	uint32_t v[2];
	const char *name;
	int rc;

	RTE_SET_USED(cmd);
	if (host_tlm_args(params, v, 2, &name) != 2 || name == NULL || *name == '\0')
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port,slot,name",
				params != NULL ? params : "");
	if (tlm_port(d, v[0]) < 0)
		return 0;
	if (v[1] >= PCC_DEV_MAX_SLOTS && v[1] != PCC_DEV_INTERNAL_SLOT)
		return host_tlm_fail(d, -EINVAL, "slot %u: slots are 0..%u and %u", v[1],
				PCC_DEV_MAX_SLOTS - 1, PCC_DEV_INTERNAL_SLOT);
	ops = tlm_bound(d, (uint8_t)v[0], (uint8_t)v[1], NULL);
	if (ops == NULL)
		return 0;
	rc = pcc_dev_param_get_by_name((uint8_t)v[0], (uint8_t)v[1], name, &info);
	if (rc < 0)
		return host_tlm_fail(
				d, rc, "parameter '%.40s': not a parameter of %s", name, ops->name);
	rte_tel_data_start_dict(d);
	add_str(d, "name", info.name);
	rte_tel_data_add_dict_int(d, "id", (int)info.id);
	add_str(d, "type", ptype_name(info.type));
	rte_tel_data_add_dict_int(d, "writable", PCC_DEV_PERM_WRITABLE(info.perm));
	rte_tel_data_add_dict_int(d, "permission", info.perm);
	if (info.type == PCC_DEV_PARAM_I32) {
		rte_tel_data_add_dict_int(d, "value", (int)info.cur.i);
		rte_tel_data_add_dict_int(d, "default", (int)info.def.i);
		rte_tel_data_add_dict_int(d, "min", (int)info.min.i);
		rte_tel_data_add_dict_int(d, "max", (int)info.max.i);
	} else {
		rte_tel_data_add_dict_u64(d, "value", info.cur.u);
		rte_tel_data_add_dict_u64(d, "default", info.def.u);
		rte_tel_data_add_dict_u64(d, "min", info.min.u);
		rte_tel_data_add_dict_u64(d, "max", info.max.u);
	}
	add_str(d, "description", info.desc);
	return 0;
}

/* ---- Histograms ---------------------------------------------------------------------- */

static const char *
hmode_name(uint8_t m)
{
	return m == PCC_DEV_HIST_LINEAR               ? "linear" :
			m == PCC_DEV_HIST_EXPONENTIAL ? "exponential" :
							"free";
}

static int
tlm_hists(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_dev_hist_desc hd;
	struct rte_tel_data *ids, *en;
	uint32_t v[1], mask;
	uint8_t h;

	RTE_SET_USED(cmd);
	if (host_tlm_args(params, v, 1, NULL) != 1)
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port",
				params != NULL ? params : "");
	if (tlm_port(d, v[0]) < 0)
		return 0;
	mask = pcc_dev_hist_configured((uint8_t)v[0]);
	ids = host_tlm_arr_u64();
	en = host_tlm_arr_u64();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", (int)v[0]);
	for (h = 0; h < PCC_DEV_MAX_HISTS; h++) {
		if (!(mask & (1u << h)) || pcc_dev_hist_describe((uint8_t)v[0], h, &hd) < 0)
			continue;
		if (ids != NULL)
			rte_tel_data_add_array_u64(ids, h);
		if (en != NULL)
			rte_tel_data_add_array_u64(en, hd.enabled);
	}
	host_tlm_dict_arr(d, "ids", ids);
	host_tlm_dict_arr(d, "enabled", en);
	return 0;
}

static int
tlm_hist(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint32_t bins[PCC_DEV_HIST_MAX_BINS];
	struct pcc_dev_hist_desc hd;
	struct rte_tel_data *edges, *b;
	uint32_t v[2];
	int n, i, rc;

	RTE_SET_USED(cmd);
	if (host_tlm_args(params, v, 2, NULL) != 2)
		return host_tlm_fail(d, -EINVAL, "parameters '%s': expected port,id",
				params != NULL ? params : "");
	if (tlm_port(d, v[0]) < 0)
		return 0;
	if (v[1] >= PCC_DEV_MAX_HISTS)
		return host_tlm_fail(d, -EINVAL, "histogram %u: ids are 0..%u", v[1],
				PCC_DEV_MAX_HISTS - 1);
	rc = pcc_dev_hist_describe((uint8_t)v[0], (uint8_t)v[1], &hd);
	if (rc < 0)
		return host_tlm_fail(d, rc, "histogram %u of port %u: not configured", v[1], v[0]);
	n = pcc_dev_hist_bins((uint8_t)v[0], (uint8_t)v[1], bins, PCC_DEV_HIST_MAX_BINS);
	if (n < 0)
		return host_tlm_fail(d, n, "histogram %u of port %u: %s", v[1], v[0], strerror(-n));
	edges = host_tlm_arr_u64();
	b = host_tlm_arr_u64();
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", (int)v[0]);
	rte_tel_data_add_dict_int(d, "id", (int)v[1]);
	add_str(d, "mode", hmode_name(hd.mode));
	rte_tel_data_add_dict_int(d, "n_bins", hd.n_bins);
	rte_tel_data_add_dict_int(d, "enabled", hd.enabled);
	rte_tel_data_add_dict_int(d, "counter_group", hd.counter_group);
	rte_tel_data_add_dict_int(d, "group_offset", hd.group_offset);
	rte_tel_data_add_dict_u64(d, "min", hd.min);
	rte_tel_data_add_dict_u64(d, "step", hd.step);
	rte_tel_data_add_dict_u64(d, "factor", hd.factor);
	add_str(d, "description", hd.desc);
	for (i = 0; i < hd.n_bins && edges != NULL; i++)
		rte_tel_data_add_array_u64(edges, hd.edges[i]);
	for (i = 0; i < n && b != NULL; i++)
		rte_tel_data_add_array_u64(b, bins[i]);
	host_tlm_dict_arr(d, "edges", edges);
	host_tlm_dict_arr(d, "bins", b);
	rte_tel_data_add_dict_u64(d, "update_errors", pcc_dev_hist_errors((uint8_t)v[0]));
	return 0;
}

static int
tlm_trace(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_host_trace_stats st;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	pcc_host_trace_stats_get(&st);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "active", pcc_host_trace_active());
	rte_tel_data_add_dict_int(d, "service", pcc_host_svc_running());
	rte_tel_data_add_dict_u64(d, "trace_out", st.trace_out);
	rte_tel_data_add_dict_u64(d, "trace_lost", st.trace_lost);
	rte_tel_data_add_dict_u64(d, "buf_overflow", st.buf_overflow);
	rte_tel_data_add_dict_u64(d, "log_out", st.log_out);
	rte_tel_data_add_dict_u64(d, "log_lost", st.log_lost);
	return 0;
}

/* ---- /pcc/ppcc: management commands --------------------------------------------- */

/* "cmd,port,slot[,index[,value[,v0,v1,...]]]" into req; an error names the field. */
static int
ppcc_args(const char *params, struct pcc_dev_mgmt_req *rq, char *err, size_t len)
{
	static const char *const field[] = { "cmd_type", "port", "slot", "index", "value" };
	static const uint32_t lim[] = { 0, UINT8_MAX, UINT8_MAX, UINT16_MAX, UINT32_MAX };
	char buf[1024], *tok, *save = NULL, *end;
	unsigned long v;
	unsigned int n = 0;
	int t;

	memset(rq, 0, sizeof(*rq));
	if (params == NULL || strlen(params) >= sizeof(buf)) {
		snprintf(err, len, "parameters: cmd_type,port,slot[,index[,value[,values...]]]");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", params);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save), n++) {
		if (n == 0) {
			t = pcc_dev_mgmt_cmd_parse(tok);
			if (t < 0) {
				snprintf(err, len, "cmd_type '%s': unknown (a name or a number)",
						tok);
				return -EINVAL;
			}
			rq->cmd_type = (uint8_t)t;
			continue;
		}
		errno = 0;
		v = strtoul(tok, &end, 0);
		if (errno != 0 || end == tok || *end != '\0' || *tok == '-' ||
				(n < RTE_DIM(lim) && v > lim[n]) || v > UINT32_MAX) {
			snprintf(err, len, "%s '%s': not a number in range",
					n < RTE_DIM(field) ? field[n] : "value", tok);
			return -EINVAL;
		}
		if (n == 1)
			rq->port = (uint8_t)v;
		else if (n == 2)
			rq->slot = (uint8_t)v;
		else if (n == 3)
			rq->index = (uint16_t)v;
		else if (n == 4)
			rq->value = (uint32_t)v;
		else if (rq->n_values < PCC_MGMT_WORDS_MAX)
			rq->values[rq->n_values++] = (uint32_t)v;
		else {
			snprintf(err, len, "values: at most %u", PCC_MGMT_WORDS_MAX);
			return -EINVAL;
		}
	}
	if (n < 3) {
		snprintf(err, len, "parameters: cmd_type,port,slot[,index[,value[,values...]]]");
		return -EINVAL;
	}
	return 0;
}

static int
tlm_ppcc(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pcc_dev_mgmt_req rq;
	struct pcc_dev_mgmt_resp rs;
	struct rte_tel_data *w;
	uint32_t i;
	int rc;

	RTE_SET_USED(cmd);
	memset(&rs, 0, sizeof(rs));
	rc = ppcc_args(params, &rq, rs.err, sizeof(rs.err));
	if (rc == 0)
		rc = pcc_host_ppcc(&rq, &rs);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "cmd_type", rq.cmd_type);
	add_str(d, "cmd", pcc_dev_mgmt_cmd_name(rq.cmd_type));
	rte_tel_data_add_dict_int(d, "status", rc);
	if (rc < 0) {
		add_str(d, "error", rs.err);
		return 0;
	}
	w = host_tlm_arr_u64();
	for (i = 0; w != NULL && i < rs.n_words; i++)
		rte_tel_data_add_array_u64(w, rs.words[i]);
	host_tlm_dict_arr(d, "words", w);
	if (rs.name[0] != '\0')
		add_str(d, "name", rs.name);
	if (rs.desc[0] != '\0')
		add_str(d, "description", rs.desc);
	return 0;
}

static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} tlm_cmds[] = {
	{ "/pcc/info", tlm_info, "dpdk-pcc version, process state, limits. No parameters" },
	{ "/pcc/state", tlm_state, "Process state and contexts. No parameters" },
	{ "/pcc/slots", tlm_slots, "Bound slots of a port. Parameters: port" },
	{ "/pcc/algo", tlm_algo,
			"Algorithm of a slot: id, version, description, enable state. Parameters: "
			"port,slot" },
	{ "/pcc/counters_info", tlm_counters_info,
			"Counter names, types, descriptions. Parameters: port,slot" },
	{ "/pcc/counter_info", tlm_counter_info, "One counter. Parameters: port,slot,id" },
	{ "/pcc/counters", tlm_counters,
			"Counter values as one block. Parameters: port,slot[,group]" },
	{ "/pcc/counters_clear", tlm_counters_clear,
			"Counter values, then cleared. Parameters: port,slot[,group]" },
	{ "/pcc/params", tlm_params, "Parameters of a slot. Parameters: port,slot" },
	{ "/pcc/param", tlm_param, "One parameter. Parameters: port,slot,name" },
	{ "/pcc/hists", tlm_hists, "Configured histograms. Parameters: port" },
	{ "/pcc/hist", tlm_hist, "Histogram configuration and bins. Parameters: port,id" },
	{ "/pcc/flows", host_tlm_flows, "Flow count. No parameters" },
	{ "/pcc/flows_top", host_tlm_flows_top, "Flows with the highest rates. Parameters: [n]" },
	{ "/pcc/flow", host_tlm_flow, "One QP flow. Parameters: port_id,qpn" },
	{ "/pcc/stats", host_tlm_stats,
			"Engine statistics; xstats: /ethdev/xstats then these as pcc_<name>. "
			"Parameters: [port_id[,xstats]]" },
	{ "/pcc/lcores", host_tlm_lcores,
			"Polling lcores: rank, RX queues (port:queue), polls, packets. No "
			"parameters" },
	{ "/pcc/mempools", host_tlm_mempools,
			"Every mempool: name, size, in_use, avail, cache_size, socket. No "
			"parameters" },
	{ "/pcc/config", host_tlm_config,
			"The engine's effective configuration, per process and port. No "
			"parameters" },
	{ "/pcc/trace", tlm_trace, "Tracer and logger state and loss. No parameters" },
	{ "/pcc/ppcc", tlm_ppcc,
			"Management command. Parameters: "
			"cmd_type,port,slot[,index[,value[,values...]]]" },
};

int
pcc_host_telemetry_register(void)
{
	static bool done;
	unsigned int i;
	int rc;

	pthread_mutex_lock(&host_lock);
	if (done) {
		pthread_mutex_unlock(&host_lock);
		return 0;
	}
	for (i = 0; i < sizeof(tlm_cmds) / sizeof(tlm_cmds[0]); i++) {
		rc = rte_telemetry_register_cmd(tlm_cmds[i].cmd, tlm_cmds[i].fn, tlm_cmds[i].help);
		if (rc < 0) {
			pthread_mutex_unlock(&host_lock);
			return host_err(rc, "telemetry: cannot register %s", tlm_cmds[i].cmd);
		}
	}
	done = true;
	pthread_mutex_unlock(&host_lock);
	return 0;
}
