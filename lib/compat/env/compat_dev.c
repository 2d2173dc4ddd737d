/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Device names of the compatibility layers: the simulator's hosts or the
 * EAL's ports, and the names PCC_DEVICES gives them (doc/compat.md).
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>

#include "compat_env_priv.h"

/* "0000:03:00.0" or "03:00.0": a PCI address (normalised into out). */
static bool
pci_addr(const char *s, char *out, size_t len)
{
	unsigned int dom = 0, bus, dev, fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 ||
			(dom = 0, sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3)) {
		if (bus > 0xff || dev > 0x1f || fn > 7 || dom > 0xffff)
			return false;
		if (out != NULL)
			snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
		return true;
	}
	return false;
}

static struct compat_dev *
dev_add(const char *name, int port, const char *host, const char *target)
{
	struct compat_dev *d;

	if (compat.nb_dev == COMPAT_DEV_MAX)
		return NULL;
	d = &compat.dev[compat.nb_dev++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->target, sizeof(d->target), "%s", target);
	snprintf(d->host, sizeof(d->host), "%s", host != NULL ? host : "");
	d->port = port;
	if (!pci_addr(name, d->pci, sizeof(d->pci))) {
		snprintf(d->ibdev, sizeof(d->ibdev), "%s", name);
		/* a PCI ethdev (mlx5 and others are named by their address) */
		if (port >= 0) {
			char en[RTE_ETH_NAME_MAX_LEN];

			if (rte_eth_dev_get_name_by_port((uint16_t)port, en) == 0)
				pci_addr(en, d->pci, sizeof(d->pci));
		}
	}
	return d;
}

/* The ethdev port a target names, or -1 with the reason set. */
static int
resolve(const char *target, char *host, size_t hostlen)
{
	uint16_t port;
	char *end;
	int p;

	host[0] = '\0';
	if (strncmp(target, "sim:", 4) == 0 || compat.run != NULL) {
		const char *h = strncmp(target, "sim:", 4) == 0 ? target + 4 : target;

		if (compat.run == NULL)
			return compat_env_fail(-EINVAL,
					"PCC_DEVICES: '%s' names a simulator host, and PCC_SIM is "
					"not "
					"set",
					target);
		p = pcc_simrun_port_by_host(compat.run, h);
		if (p < 0)
			return compat_env_fail(-ENOENT,
					"PCC_DEVICES: no engine host '%s' in the scenario (a "
					"sender "
					"with engine flows, or a receiver with hosts.np: engine)",
					h);
		snprintf(host, hostlen, "%s", h);
		return p;
	}
	if (strncmp(target, "port:", 5) == 0) {
		unsigned long v = strtoul(target + 5, &end, 10);

		if (*end != '\0' || end == target + 5 || v >= RTE_MAX_ETHPORTS ||
				!rte_eth_dev_is_valid_port((uint16_t)v))
			return compat_env_fail(
					-ENODEV, "PCC_DEVICES: '%s': no such ethdev port", target);
		return (int)v;
	}
	if (rte_eth_dev_get_port_by_name(target, &port) == 0)
		return port;
	return compat_env_fail(-ENODEV,
			"PCC_DEVICES: '%s' is no ethdev (port:N, an ethdev name or PCI address, "
			"sim:HOST)",
			target);
}

/* PCC_DEVICES: NAME=TARGET[,NAME=TARGET...] */
static int
dev_map(void)
{
	char buf[sizeof(compat.set.devices)];
	char *save = NULL, *e;

	snprintf(buf, sizeof(buf), "%s", compat.set.devices);
	for (e = strtok_r(buf, ",", &save); e != NULL; e = strtok_r(NULL, ",", &save)) {
		char host[COMPAT_NAME_MAX], *eq;
		int port;

		while (isspace((unsigned char)*e))
			e++;
		if (*e == '\0')
			continue;
		eq = strchr(e, '=');
		if (eq == NULL || eq == e || eq[1] == '\0')
			return compat_env_fail(-EINVAL, "PCC_DEVICES: '%s' is not NAME=TARGET", e);
		*eq = '\0';
		if (strlen(e) >= COMPAT_NAME_MAX || strlen(eq + 1) >= COMPAT_NAME_MAX)
			return compat_env_fail(
					-ENAMETOOLONG, "PCC_DEVICES: '%s': name too long", e);
		if (compat_dev_find(e) != NULL)
			return compat_env_fail(-EEXIST, "PCC_DEVICES: device '%s' twice", e);
		port = resolve(eq + 1, host, sizeof(host));
		if (port < 0)
			return port;
		if (dev_add(e, port, host, eq + 1) == NULL)
			return compat_env_fail(-ENOSPC, "PCC_DEVICES: more than %u devices",
					COMPAT_DEV_MAX);
	}
	return 0;
}

int
compat_dev_table(void)
{
	uint16_t i;
	int rc;

	compat.nb_dev = 0;
	rc = dev_map();
	if (rc < 0)
		return rc;
	if (compat.run != NULL) {
		/* the scenario's engine hosts, by name */
		for (i = 0; i < pcc_simrun_port_count(compat.run); i++) {
			struct pcc_sim_port_info p;

			pcc_simrun_port_info(compat.run, i, &p);
			if (compat_dev_find(p.host_name) == NULL)
				dev_add(p.host_name, p.port_id, p.host_name, p.host_name);
		}
		return 0;
	}
	RTE_ETH_FOREACH_DEV(i)
	{
		char name[RTE_ETH_NAME_MAX_LEN];

		if (rte_eth_dev_get_name_by_port(i, name) != 0 || compat_dev_find(name) != NULL)
			continue;
		dev_add(name, i, NULL, name);
	}
	return 0;
}

uint32_t
compat_dev_count(void)
{
	return compat_env_ready() ? compat.nb_dev : 0;
}

const struct compat_dev *
compat_dev_at(uint32_t i)
{
	return i < compat.nb_dev ? &compat.dev[i] : NULL;
}

const struct compat_dev *
compat_dev_find(const char *name)
{
	char pci[COMPAT_NAME_MAX];
	bool is_pci;
	uint32_t i;

	if (name == NULL)
		return NULL;
	is_pci = pci_addr(name, pci, sizeof(pci));
	for (i = 0; i < compat.nb_dev; i++) {
		const struct compat_dev *d = &compat.dev[i];

		if (strcmp(d->name, name) == 0 || (is_pci && strcmp(d->pci, pci) == 0) ||
				(d->ibdev[0] != '\0' && strcmp(d->ibdev, name) == 0))
			return d;
	}
	return NULL;
}

const char *
compat_dev_known(char *buf, size_t len)
{
	size_t o = 0;
	uint32_t i;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < compat.nb_dev && o < len; i++)
		o += (size_t)snprintf(
				buf + o, len - o, "%s%s", i > 0 ? ", " : "", compat.dev[i].name);
	if (compat.nb_dev == 0)
		snprintf(buf, len, "none");
	return buf;
}
