/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * libmango's per-QP views and parameters (doc/compat-mango.md): what the
 * control thread reads of a handle's QPs, and the parameters of a slot's
 * algorithm, which every QP has its own copy of (the algorithm's per-QP
 * state: the params pointer it is called with).
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "mango_internal.h"

/* ---- Per-QP views ---------------------------------------------------------------- */

/* The handle and QP of a view (under the lock); NULL after logging. */
static struct mango_qp *
view_qp(mango_pcc_h pcc, uint32_t qpn, const void *out, const char *call, mango_status_e *st)
{
	struct mango_h *h = mango_h_get(pcc, call);
	struct mango_qp *q;

	if (h == NULL) {
		*st = MANGO_STATUS_INVALID_HANDLE;
		return NULL;
	}
	if (out == NULL) {
		*st = mango_fail(MANGO_STATUS_INVALID_ARG, call, "NULL output pointer");
		return NULL;
	}
	/* a simulator run's end is noticed (and its outputs written) here too */
	compat_poll();
	q = mango_rt_find(h->rt, qpn);
	if (q == NULL)
		*st = mango_fail(MANGO_STATUS_NOT_FOUND, call,
				"QP 0x%x: not a QP of device '%s' (mango_pcc_active_qp_list)", qpn,
				h->dev);
	return q;
}

mango_status_e
mango_pcc_active_qp_list(mango_pcc_h pcc, uint32_t *qp_list, uint32_t *qp_count)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_h *h;

	mango_lock();
	h = mango_h_get(pcc, __func__);
	if (h == NULL) {
		st = MANGO_STATUS_INVALID_HANDLE;
	} else if (qp_list == NULL || qp_count == NULL) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "NULL %s",
				qp_list == NULL ? "QP list" : "QP count");
	} else {
		compat_poll();
		*qp_count = mango_rt_active_list(h->rt, qp_list);
	}
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_cnp_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint64_t *cnp_count)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_qp *q;

	mango_lock();
	q = view_qp(pcc, qp_num, cnp_count, __func__, &st);
	if (q != NULL)
		*cnp_count = mango_rt_qp_cnp(q);
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_window_current_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint32_t *window_size)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_qp *q;

	mango_lock();
	q = view_qp(pcc, qp_num, window_size, __func__, &st);
	if (q != NULL)
		*window_size = mango_rt_qp_window(q);
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_window_count_by_qp(mango_pcc_h pcc, uint32_t qp_num, uint32_t *count)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_qp *q;

	mango_lock();
	q = view_qp(pcc, qp_num, count, __func__, &st);
	if (q != NULL)
		*count = mango_rt_qp_win_count(q);
	mango_unlock();
	return st;
}

/* ---- Parameters ---------------------------------------------------------------------- */

/* The slot's algorithm (under the lock); NULL after logging. */
static struct mango_algo *
slot_algo(mango_pcc_h pcc, unsigned int slot, const char *call, struct mango_h **hp,
		mango_status_e *st)
{
	struct mango_h *h = mango_h_get(pcc, call);
	struct mango_algo *a;

	*hp = h;
	if (h == NULL) {
		*st = MANGO_STATUS_INVALID_HANDLE;
		return NULL;
	}
	if (slot >= MANGO_PCC_MAX_SLOTS) {
		*st = mango_fail(MANGO_STATUS_INVALID_ARG, call, "slot %u: not 0..%u", slot,
				MANGO_PCC_MAX_SLOTS - 1);
		return NULL;
	}
	a = mango_h_algo(h, slot);
	if (a == NULL)
		*st = mango_fail(MANGO_STATUS_NOT_FOUND, call,
				"slot %u has no algorithm (register it first)", slot);
	return a;
}

/* Check one descriptor against the algorithm's parameter struct. */
static mango_status_e
param_check(const struct mango_algo *a, unsigned int slot, const char *name,
		mango_pcc_param_type_e type, size_t offset, const char *call)
{
	size_t size = mango_param_size(type);

	if (name == NULL || name[0] == '\0')
		return mango_fail(MANGO_STATUS_INVALID_ARG, call, "slot %u: %s parameter name",
				slot, name == NULL ? "NULL" : "empty");
	if (strlen(name) >= MANGO_PCC_PARAM_NAME_MAX)
		return mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: parameter name '%.40s...' longer than %u characters",
				slot, name, MANGO_PCC_PARAM_NAME_MAX - 1);
	if (size == 0)
		return mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: parameter %s: type %d is not a mango_pcc_param_type_e "
				"(0..%d)",
				slot, name, (int)type, MANGO_PCC_PARAM_TYPE_MAX - 1);
	if (offset > a->size || size > a->size - offset)
		return mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: parameter %s (%s at offset %zu) is outside the %zu-byte "
				"parameter struct",
				slot, name, mango_param_type_name(type), offset, a->size);
	if (offset % size != 0)
		return mango_fail(MANGO_STATUS_INVALID_ARG, call,
				"slot %u: parameter %s (%s) at offset %zu is not aligned", slot,
				name, mango_param_type_name(type), offset);
	return MANGO_STATUS_SUCCESS;
}

static int
param_find(const struct mango_algo *a, const char *name)
{
	uint32_t i;

	for (i = 0; i < a->nb_params; i++)
		if (strcmp(a->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Add a checked descriptor: ALREADY_OPENED keeps the first, NO_RESOURCE. */
static mango_status_e
param_add(struct mango_algo *a, unsigned int slot, const char *name, mango_pcc_param_type_e type,
		size_t offset, const char *call)
{
	struct mango_param *p;

	if (param_find(a, name) >= 0)
		return mango_fail(MANGO_STATUS_ALREADY_OPENED, call,
				"slot %u: parameter %s is registered already (kept as it was)",
				slot, name);
	if (a->nb_params == MANGO_PCC_MAX_PARAMS)
		return mango_fail(MANGO_STATUS_NO_RESOURCE, call,
				"slot %u: parameter %s: %u parameters registered already", slot,
				name, MANGO_PCC_MAX_PARAMS);
	p = &a->params[a->nb_params];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = type;
	p->offset = offset;
	a->nb_params++;
	return MANGO_STATUS_SUCCESS;
}

mango_status_e
mango_pcc_param_register(mango_pcc_h pcc, const unsigned int slot, const char *name,
		mango_pcc_param_type_e type, size_t offset)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_algo *a;
	struct mango_h *h;

	mango_lock();
	a = slot_algo(pcc, slot, __func__, &h, &st);
	if (a != NULL)
		st = param_check(a, slot, name, type, offset, __func__);
	if (a != NULL && st == MANGO_STATUS_SUCCESS)
		st = param_add(a, slot, name, type, offset, __func__);
	mango_unlock();
	return st;
}

mango_status_e
mango_pcc_params_register(mango_pcc_h pcc, unsigned int slot, const mango_pcc_param_t *params,
		unsigned int nr_params)
{
	mango_status_e st = MANGO_STATUS_SUCCESS, r;
	struct mango_algo *a;
	struct mango_h *h;
	unsigned int i;

	mango_lock();
	a = slot_algo(pcc, slot, __func__, &h, &st);
	if (a == NULL)
		goto out;
	if (params == NULL || nr_params == 0) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: %s", slot,
				params == NULL ? "NULL parameter array" : "no parameters");
		goto out;
	}
	/* every descriptor is checked before any is registered */
	for (i = 0; i < nr_params && st == MANGO_STATUS_SUCCESS; i++)
		st = param_check(a, slot, params[i].name, params[i].type, params[i].offset,
				__func__);
	if (st != MANGO_STATUS_SUCCESS) {
		MANGO_LOG(ERR, "%s: slot %u: descriptor %u refused: nothing registered", __func__,
				slot, i - 1);
		goto out;
	}
	for (i = 0; i < nr_params; i++) {
		r = param_add(a, slot, params[i].name, params[i].type, params[i].offset, __func__);
		if (r == MANGO_STATUS_NO_RESOURCE) {
			st = r;
			break;
		}
		if (r != MANGO_STATUS_SUCCESS)
			st = r; /* a name registered already: the others still are */
	}
out:
	mango_unlock();
	return st;
}

/* Call back for every parameter of one copy (read: a copy of each value). */
static void
walk_copy(const struct mango_algo *a, uint8_t *base, bool write, mango_pcc_param_walk_fn cb,
		void *user_data)
{
	uint32_t i;

	for (i = 0; i < a->nb_params; i++) {
		const struct mango_param *p = &a->params[i];
		uint64_t tmp[2] = { 0, 0 };

		if (write) {
			cb(p->name, p->type, base + p->offset, user_data);
			continue;
		}
		memcpy(tmp, base + p->offset, mango_param_size(p->type));
		cb(p->name, p->type, tmp, user_data);
	}
}

mango_status_e
mango_pcc_walk_params(mango_pcc_h pcc, const unsigned int slot, mango_pcc_param_walk_fn callback,
		void *user_data, unsigned int mode)
{
	mango_status_e st = MANGO_STATUS_SUCCESS;
	struct mango_algo *a;
	struct mango_h *h;
	uint32_t i, n;
	uint8_t *copy;

	mango_lock();
	a = slot_algo(pcc, slot, __func__, &h, &st);
	if (a == NULL)
		goto out;
	if (callback == NULL) {
		st = mango_fail(MANGO_STATUS_INVALID_ARG, __func__, "slot %u: NULL callback", slot);
		goto out;
	}
	n = mango_rt_count(h->rt);
	if (mode != 1) {
		/* read: the first QP with a copy, else the initial values */
		for (i = 0, copy = NULL; i < n && copy == NULL; i++)
			copy = mango_rt_qp_params(h->rt, a, i, slot);
		walk_copy(a, copy != NULL ? copy : a->init, false, callback, user_data);
		goto out;
	}
	/* write: the initial values (QPs yet to run it copy them), then
	 * every QP's copy */
	walk_copy(a, a->init, true, callback, user_data);
	for (i = 0; i < n; i++) {
		copy = mango_rt_qp_params(h->rt, a, i, slot);
		if (copy != NULL)
			walk_copy(a, copy, true, callback, user_data);
	}
out:
	mango_unlock();
	return st;
}
