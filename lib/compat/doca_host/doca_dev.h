/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_DEV_H_
#define DOCA_DEV_H_

/**
 * @file
 * dpdk-pcc's DOCA compatibility: DOCA devices, enough for a PCC host
 * program and a PCC telemetry tool (doc/compat-doca-host.md).
 *
 * A device is what lib/compat's environment knows (doc/compat.md): an
 * ethdev port of this process (the EAL is started from PCC_EAL_ARGS when
 * the program has not), a simulator host (PCC_SIM), or, when
 * PCC_TELEMETRY_PREFIX names a running dpdk-pcc, a port of that process
 * (for DOCA Telemetry PCC; no local EAL then).  PCC_DEVICES gives devices
 * the names programs use: mlx5_0=port:0, 0000:03:00.0=net_ring0,
 * roce0=sim:s0.  A name that looks like a PCI address is the device's
 * PCI address; any other is its ibdev name.
 */

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of a PCI address string with its NUL ("0000:03:00.0"). */
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
/** Bytes of a PCI BDF string with its NUL ("03:00.0"). */
#define DOCA_DEVINFO_PCI_BDF_SIZE 8
/** Bytes of an ibdev name with its NUL. */
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64
/** Bytes of an interface name with its NUL. */
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256

/** What a device is (opaque). */
struct doca_devinfo;
/** An opened device (opaque). */
struct doca_dev;

/** The devices: a list of nb_devs entries, freed with
 *  doca_devinfo_destroy_list(). */
DOCA_STABLE
doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);
/** The name the DOCA PCC guide's text uses for doca_devinfo_create_list. */
#define doca_devinfo_list_create doca_devinfo_create_list
/** Free a list (opened devices stay valid). */
DOCA_STABLE
doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/** PCI address string (DOCA_DEVINFO_PCI_ADDR_SIZE bytes);
 *  DOCA_ERROR_NOT_FOUND for a device without one. */
DOCA_STABLE
doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);
/** Whether the device has PCI address pci_addr_str ("0000:03:00.0" or
 *  "03:00.0"): *is_equal 1 or 0. */
DOCA_STABLE
doca_error_t doca_devinfo_is_equal_pci_addr(
		const struct doca_devinfo *devinfo, const char *pci_addr_str, uint8_t *is_equal);
/** ibdev name; DOCA_ERROR_INVALID_VALUE when size is too small. */
DOCA_STABLE
doca_error_t doca_devinfo_get_ibdev_name(
		const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size);
/** Interface name: the ethdev name (the simulator host's for PCC_SIM). */
DOCA_STABLE
doca_error_t doca_devinfo_get_iface_name(
		const struct doca_devinfo *devinfo, char *iface_name, uint32_t size);
/** Link speed of the port, bits per second (0 unknown or down). */
DOCA_STABLE
doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, double *active_rate);

/** Open a device of a list. */
DOCA_STABLE
doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);
/** Close it (contexts on it must be destroyed first: DOCA_ERROR_IN_USE). */
DOCA_STABLE
doca_error_t doca_dev_close(struct doca_dev *dev);
/** The device an opened device is. */
DOCA_STABLE
struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DEV_H_ */
