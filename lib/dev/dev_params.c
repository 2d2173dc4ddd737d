/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* A slot's parameters: read by algorithms, set and read by the host. */

#include <errno.h>
#include <string.h>

#include "dev_internal.h"

/* ---- Parameters ------------------------------------------------------ */

uint32_t *
pcc_dev_params(uint8_t port, uint8_t slot)
{
	struct dev_slot *s = dev_slot_get(port, slot);

	return s != NULL && s->bound ? s->params : NULL;
}

int
pcc_dev_params_set(
		uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num, const uint32_t *values)
{
	uint32_t scratch[PCC_DEV_MAX_PARAMS];
	const struct pcc_dev_algo_ops *ops;
	struct dev_slot *s;
	uint32_t i;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc < 0)
		goto out;
	ops = s->ops;
	if (values == NULL || num == 0 || (uint64_t)id_base + num > ops->n_params) {
		rc = -EINVAL;
		goto out;
	}
	for (i = 0; i < num; i++) {
		if (!PCC_DEV_PERM_WRITABLE(ops->params[id_base + i].perm)) {
			rc = -EPERM;
			goto out;
		}
	}
	for (i = 0; i < num; i++) {
		const struct pcc_dev_param_desc *p = &ops->params[id_base + i];

		if (values[i] < p->min || values[i] > p->max) {
			DEV_LOG(INFO, "%s: %s = %u outside [%u, %u]", ops->name, p->name, values[i],
					p->min, p->max);
			rc = -ERANGE;
			goto out;
		}
	}
	memcpy(scratch, s->params, s->n_params * sizeof(uint32_t));
	if (ops->set_params != NULL) {
		rc = ops->set_params(port, slot, id_base, num, values, scratch);
		if (rc != 0) {
			rc = rc < 0 ? rc : -EINVAL;
			goto out;
		}
	} else {
		memcpy(&scratch[id_base], values, num * sizeof(uint32_t));
	}
	for (i = 0; i < s->n_params; i++)
		__atomic_store_n(&s->params[i], scratch[i], __ATOMIC_RELAXED);
out:
	dev_unlock();
	return rc;
}

int
pcc_dev_params_get(uint8_t port, uint8_t slot, uint32_t id_base, uint32_t num, uint32_t *values)
{
	struct dev_slot *s;
	uint32_t i;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0 && (values == NULL || num == 0 || (uint64_t)id_base + num > s->n_params))
		rc = -EINVAL;
	if (rc == 0)
		for (i = 0; i < num; i++)
			values[i] = __atomic_load_n(&s->params[id_base + i], __ATOMIC_RELAXED);
	dev_unlock();
	return rc;
}

int
pcc_dev_param_id(uint8_t port, uint8_t slot, const char *name)
{
	struct dev_slot *s;
	uint32_t i;
	int rc;

	if (name == NULL)
		return -EINVAL;
	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0) {
		rc = -ENOENT;
		for (i = 0; i < s->ops->n_params; i++) {
			if (strcmp(s->ops->params[i].name, name) == 0) {
				rc = (int)i;
				break;
			}
		}
	}
	dev_unlock();
	return rc;
}
