/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* DOCA devices over lib/compat's environment or a running dpdk-pcc (doca_dev.h). */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "doca_host_internal.h"

RTE_LOG_REGISTER(doca_host_logtype, pcc.doca, INFO);

doca_error_t
doca_host_fail(doca_error_t code, const char *call, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	DOCA_HOST_LOG(ERR, "%s: %s (%s)", call, msg, doca_error_get_name(code));
	return code;
}

const char *
doca_host_remote_prefix(void)
{
	const char *p = getenv("PCC_TELEMETRY_PREFIX");

	return p != NULL && p[0] != '\0' ? p : NULL;
}

/* "0000:03:00.0" or "03:00.0" normalised; false if not a PCI address. */
static bool
pci_norm(const char *s, char *out, size_t len)
{
	unsigned int dom = 0, bus, dev, fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 ||
			(dom = 0, sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3)) {
		if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
			return false;
		snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
		return true;
	}
	return false;
}

static void
info_fill(struct doca_devinfo *d, const char *name, const char *iface, int port, bool remote,
		const char *host)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->iface, sizeof(d->iface), "%s", iface);
	snprintf(d->host, sizeof(d->host), "%s", host != NULL ? host : "");
	d->port = port;
	d->remote = remote;
	if (!pci_norm(name, d->pci, sizeof(d->pci))) {
		snprintf(d->ibdev, sizeof(d->ibdev), "%s", name);
		pci_norm(iface, d->pci, sizeof(d->pci));
	}
}

/* ---- Local devices (lib/compat's environment) ----------------------------- */

static doca_error_t
local_list(struct doca_devinfo ***list, uint32_t *nb)
{
	struct doca_devinfo **l;
	uint32_t n, i;
	int rc;

	rc = compat_env_init("doca");
	if (rc < 0)
		return doca_host_fail(doca_error_from_errno(rc), "doca_devinfo_create_list", "%s",
				compat_env_error());
	n = compat_dev_count();
	l = calloc(n + 1, sizeof(*l));
	if (l == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (i = 0; i < n; i++) {
		const struct compat_dev *cd = compat_dev_at(i);
		char iface[RTE_ETH_NAME_MAX_LEN] = "";

		l[i] = calloc(1, sizeof(*l[i]));
		if (l[i] == NULL) {
			doca_devinfo_destroy_list(l);
			return DOCA_ERROR_NO_MEMORY;
		}
		if (cd->port >= 0)
			rte_eth_dev_get_name_by_port((uint16_t)cd->port, iface);
		info_fill(l[i], cd->name, cd->host[0] != '\0' ? cd->host : iface, cd->port, false,
				cd->host);
	}
	*list = l;
	*nb = n;
	return DOCA_SUCCESS;
}

/* ---- Remote devices (PCC_TELEMETRY_PREFIX) -------------------------------- */

/* Names the remote ports have: port:N, or the ethdev name. */
static int
remote_port(const char *target, const json_t *names)
{
	size_t i;
	char *end;

	if (strncmp(target, "port:", 5) == 0) {
		unsigned long v = strtoul(target + 5, &end, 10);

		if (*end != '\0' || end == target + 5 || v >= json_array_size(names))
			return -1;
		return (int)v;
	}
	for (i = 0; i < json_array_size(names); i++)
		if (strcmp(json_string_value(json_array_get(names, i)), target) == 0)
			return (int)i;
	return -1;
}

static doca_error_t
remote_list(const char *prefix, struct doca_devinfo ***list, uint32_t *nb)
{
	const char *map = getenv("PCC_DEVICES");
	struct doca_devinfo **l = NULL;
	json_t *ids, *names = NULL;
	struct dtlm *t;
	char err[512], cmd[64];
	uint32_t n = 0, cap;
	size_t i;

	t = dtlm_open(prefix, NULL, err, sizeof(err));
	if (t == NULL)
		return doca_host_fail(DOCA_ERROR_NOT_CONNECTED, "doca_devinfo_create_list",
				"PCC_TELEMETRY_PREFIX %s: %s", prefix, err);
	ids = dtlm_get(t, "/ethdev/list", err, sizeof(err));
	if (ids == NULL || !json_is_array(ids)) {
		dtlm_close(t);
		json_decref(ids);
		return doca_host_fail(DOCA_ERROR_DRIVER, "doca_devinfo_create_list", "%s", err);
	}
	/* names[port id] (ports are numbered from 0 in a dpdk-pcc) */
	names = json_array();
	for (i = 0; i < json_array_size(ids); i++) {
		json_int_t id = json_integer_value(json_array_get(ids, i));
		json_t *info, *nm;

		snprintf(cmd, sizeof(cmd), "/ethdev/info,%lld", (long long)id);
		info = dtlm_get(t, cmd, err, sizeof(err));
		nm = info != NULL ? json_object_get(info, "name") : NULL;
		while ((json_int_t)json_array_size(names) < id)
			json_array_append_new(names, json_string(""));
		json_array_append_new(names, json_string(nm != NULL ? json_string_value(nm) : ""));
		json_decref(info);
	}
	dtlm_close(t);
	json_decref(ids);
	cap = (uint32_t)json_array_size(names) + COMPAT_DEV_MAX;
	l = calloc(cap + 1, sizeof(*l));
	if (l == NULL)
		goto nomem;
	/* PCC_DEVICES first, as the local list */
	if (map != NULL) {
		char buf[2048], *save = NULL, *e;

		snprintf(buf, sizeof(buf), "%s", map);
		for (e = strtok_r(buf, ",", &save); e != NULL && n < cap;
				e = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(e, '=');
			int p;

			while (isspace((unsigned char)*e))
				e++;
			if (eq == NULL || eq == e) {
				doca_devinfo_destroy_list(l);
				json_decref(names);
				return doca_host_fail(DOCA_ERROR_INVALID_VALUE,
						"doca_devinfo_create_list",
						"PCC_DEVICES: '%s' is not NAME=TARGET", e);
			}
			*eq = '\0';
			p = remote_port(eq + 1, names);
			if (p < 0) {
				doca_devinfo_destroy_list(l);
				json_decref(names);
				return doca_host_fail(DOCA_ERROR_NOT_FOUND,
						"doca_devinfo_create_list",
						"PCC_DEVICES: '%s': the dpdk-pcc of prefix %s has "
						"no "
						"such port (port:N or an ethdev name)",
						eq + 1, prefix);
			}
			l[n] = calloc(1, sizeof(*l[n]));
			if (l[n] == NULL)
				goto nomem;
			info_fill(l[n++], e, json_string_value(json_array_get(names, (size_t)p)), p,
					true, NULL);
		}
	}
	for (i = 0; i < json_array_size(names) && n < cap; i++) {
		const char *nm = json_string_value(json_array_get(names, i));

		if (nm[0] == '\0')
			continue;
		l[n] = calloc(1, sizeof(*l[n]));
		if (l[n] == NULL)
			goto nomem;
		info_fill(l[n++], nm, nm, (int)i, true, NULL);
	}
	json_decref(names);
	*list = l;
	*nb = n;
	return DOCA_SUCCESS;
nomem:
	doca_devinfo_destroy_list(l);
	json_decref(names);
	return DOCA_ERROR_NO_MEMORY;
}

/* ---- API ------------------------------------------------------------------ */

doca_error_t
doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	const char *prefix = doca_host_remote_prefix();

	if (dev_list == NULL || nb_devs == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	*dev_list = NULL;
	*nb_devs = 0;
	return prefix != NULL ? remote_list(prefix, dev_list, nb_devs) :
				local_list(dev_list, nb_devs);
}

doca_error_t
doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	size_t i;

	if (dev_list == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL list");
	for (i = 0; dev_list[i] != NULL; i++)
		free(dev_list[i]);
	free(dev_list);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	if (devinfo == NULL || pci_addr_str == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (devinfo->pci[0] == '\0')
		return DOCA_ERROR_NOT_FOUND;
	if (strlen(devinfo->pci) >= DOCA_DEVINFO_PCI_ADDR_SIZE)
		return DOCA_ERROR_UNEXPECTED;
	memcpy(pci_addr_str, devinfo->pci, strlen(devinfo->pci) + 1);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_is_equal_pci_addr(
		const struct doca_devinfo *devinfo, const char *pci_addr_str, uint8_t *is_equal)
{
	char want[COMPAT_NAME_MAX];

	if (devinfo == NULL || pci_addr_str == NULL || is_equal == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (!pci_norm(pci_addr_str, want, sizeof(want)))
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__,
				"'%s' is not a PCI address (0000:03:00.0 or 03:00.0)",
				pci_addr_str);
	*is_equal = devinfo->pci[0] != '\0' && strcmp(devinfo->pci, want) == 0;
	return DOCA_SUCCESS;
}

static doca_error_t
copy_name(const char *call, const char *src, char *dst, uint32_t size)
{
	if (dst == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call, "NULL buffer");
	if (strlen(src) >= size)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, call,
				"'%s' needs %zu bytes, the buffer has %u", src, strlen(src) + 1,
				size);
	memcpy(dst, src, strlen(src) + 1);
	return DOCA_SUCCESS;
}

doca_error_t
doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size)
{
	if (devinfo == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL devinfo");
	return copy_name(__func__, devinfo->ibdev, ibdev_name, size);
}

doca_error_t
doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size)
{
	if (devinfo == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL devinfo");
	return copy_name(__func__, devinfo->iface, iface_name, size);
}

doca_error_t
doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, double *active_rate)
{
	struct rte_eth_link link;

	if (devinfo == NULL || active_rate == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	if (devinfo->remote)
		return doca_host_fail(DOCA_ERROR_NOT_SUPPORTED, __func__,
				"%s is a port of another process", devinfo->name);
	if (devinfo->port < 0 || rte_eth_link_get_nowait((uint16_t)devinfo->port, &link) != 0)
		return doca_host_fail(
				DOCA_ERROR_DRIVER, __func__, "no link state for %s", devinfo->name);
	*active_rate = link.link_status == RTE_ETH_LINK_UP &&
					link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN ?
			(double)link.link_speed * 1e6 :
			0.0;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	struct doca_dev *d;

	if (devinfo == NULL || dev == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL argument");
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return DOCA_ERROR_NO_MEMORY;
	d->info = *devinfo;
	*dev = d;
	return DOCA_SUCCESS;
}

doca_error_t
doca_dev_close(struct doca_dev *dev)
{
	if (dev == NULL)
		return doca_host_fail(DOCA_ERROR_INVALID_VALUE, __func__, "NULL device");
	if (dev->users > 0)
		return doca_host_fail(DOCA_ERROR_IN_USE, __func__,
				"%s still has %u contexts (destroy them first)", dev->info.name,
				dev->users);
	free(dev);
	return DOCA_SUCCESS;
}

struct doca_devinfo *
doca_dev_as_devinfo(const struct doca_dev *dev)
{
	return dev != NULL ? (struct doca_devinfo *)(uintptr_t)&dev->info : NULL;
}
