/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A DOCA Telemetry PCC tool, written from the DOCA Telemetry PCC guide's
 * text: open a device by PCI address or ibdev name, check its telemetry
 * support, create a context, read every slot's algorithm (id, version,
 * information), start the context, and for every populated slot print
 * its enable status and, when its counters are enabled, each counter's
 * value and information.  Optionally clears the counters after reading.
 * It includes DOCA headers only and builds against pkg-config
 * pcc-doca-telemetry.  Output lines (one fact each) are meant to be
 * compared with dpdk-pcc's /pcc/ telemetry:
 *
 *   slots N
 *   slot S empty
 *   slot S id 0x1234 version 2.07 info <text>
 *   slot S algo enabled|disabled counters enabled|disabled
 *   slot S counter I value V info <text>
 *
 * Usage: tlm_tool (-p PCI | -d IBDEV) [-c]
 */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_telemetry_pcc.h>

DOCA_LOG_REGISTER(TELEMETRY_PCC::TOOL);

static doca_error_t
open_device(const char *pci, const char *ibdev, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n, i;
	uint8_t eq;
	doca_error_t r;

	*dev = NULL;
	r = doca_devinfo_create_list(&list, &n);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to list devices: %s", doca_error_get_name(r));
		return r;
	}
	for (i = 0; i < n && *dev == NULL; i++) {
		if (pci != NULL) {
			if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) != DOCA_SUCCESS ||
					!eq)
				continue;
		} else if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) !=
						DOCA_SUCCESS ||
				strcmp(name, ibdev) != 0) {
			continue;
		}
		r = doca_dev_open(list[i], dev);
	}
	doca_devinfo_destroy_list(list);
	if (*dev == NULL) {
		DOCA_LOG_ERR("No device %s", pci != NULL ? pci : ibdev);
		return DOCA_ERROR_NOT_FOUND;
	}
	return r;
}

static doca_error_t
print_counters(struct doca_telemetry_pcc *pcc, struct doca_dev *dev, uint8_t slot, int clear)
{
	uint32_t max, len, n, i;
	uint32_t *vals;
	char *info;
	doca_error_t r;

	r = doca_telemetry_pcc_cap_get_max_num_counters(doca_dev_as_devinfo(dev), &max);
	if (r == DOCA_SUCCESS)
		r = doca_telemetry_pcc_cap_get_max_counter_info_len(doca_dev_as_devinfo(dev), &len);
	if (r != DOCA_SUCCESS)
		return r;
	vals = calloc(max, sizeof(*vals));
	info = calloc(len, 1);
	if (vals == NULL || info == NULL) {
		free(vals);
		free(info);
		return DOCA_ERROR_NO_MEMORY;
	}
	r = clear ? doca_telemetry_pcc_get_and_clear_counters(pcc, slot, &n, vals) :
		    doca_telemetry_pcc_get_counters(pcc, slot, &n, vals);
	for (i = 0; r == DOCA_SUCCESS && i < n; i++) {
		r = doca_telemetry_pcc_get_counter_info(pcc, slot, (uint8_t)i, info);
		if (r == DOCA_SUCCESS)
			printf("slot %u counter %u value %u info %s\n", slot, i, vals[i], info);
	}
	free(vals);
	free(info);
	return r;
}

int
main(int argc, char **argv)
{
	const char *pci = NULL, *ibdev = NULL;
	struct doca_telemetry_pcc *pcc = NULL;
	struct doca_dev *dev = NULL;
	uint32_t slots, len, id, major, minor, populated = 0, s;
	char *info = NULL;
	uint8_t en, cen;
	int opt, clear = 0, status = EXIT_FAILURE;
	doca_error_t r;

	while ((opt = getopt(argc, argv, "p:d:c")) != -1) {
		if (opt == 'p')
			pci = optarg;
		else if (opt == 'd')
			ibdev = optarg;
		else if (opt == 'c')
			clear = 1;
		else
			goto usage;
	}
	if ((pci == NULL) == (ibdev == NULL))
		goto usage;
	if (doca_log_backend_create_standard() != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (open_device(pci, ibdev, &dev) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	r = doca_telemetry_pcc_cap_is_supported(doca_dev_as_devinfo(dev));
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("No PCC telemetry on the device: %s", doca_error_get_name(r));
		goto close;
	}
	r = doca_telemetry_pcc_create(dev, &pcc);
	if (r == DOCA_SUCCESS)
		r = doca_telemetry_pcc_cap_get_max_algo_slots(doca_dev_as_devinfo(dev), &slots);
	if (r == DOCA_SUCCESS)
		r = doca_telemetry_pcc_cap_get_max_algo_info_len(doca_dev_as_devinfo(dev), &len);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up telemetry: %s", doca_error_get_name(r));
		goto destroy;
	}
	info = calloc(len, 1);
	if (info == NULL)
		goto destroy;
	printf("slots %u\n", slots);
	for (s = 0; s < slots; s++) {
		r = doca_telemetry_pcc_get_algo_id(pcc, (uint8_t)s, &id);
		if (r == DOCA_ERROR_BAD_STATE) {
			printf("slot %u empty\n", s);
			continue;
		}
		if (r == DOCA_SUCCESS)
			r = doca_telemetry_pcc_get_algo_major_version(pcc, (uint8_t)s, &major);
		if (r == DOCA_SUCCESS)
			r = doca_telemetry_pcc_get_algo_minor_version(pcc, (uint8_t)s, &minor);
		if (r == DOCA_SUCCESS)
			r = doca_telemetry_pcc_get_algo_info(pcc, (uint8_t)s, info);
		if (r != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Slot %u: %s", s, doca_error_get_name(r));
			goto destroy;
		}
		printf("slot %u id 0x%04x version %u.%02u info %s\n", s, id, major, minor, info);
		populated |= 1u << s;
	}
	r = doca_telemetry_pcc_start(pcc);
	if (r != DOCA_SUCCESS)
		goto destroy;
	for (s = 0; s < slots; s++) {
		if (!(populated & (1u << s)))
			continue;
		r = doca_telemetry_pcc_get_algo_enable_status(pcc, (uint8_t)s, &en, &cen);
		if (r != DOCA_SUCCESS)
			break;
		printf("slot %u algo %s counters %s\n", s, en ? "enabled" : "disabled",
				cen ? "enabled" : "disabled");
		if (cen) {
			r = print_counters(pcc, dev, (uint8_t)s, clear);
			if (r != DOCA_SUCCESS)
				break;
		}
	}
	if (doca_telemetry_pcc_stop(pcc) != DOCA_SUCCESS)
		r = DOCA_ERROR_BAD_STATE;
	if (r == DOCA_SUCCESS)
		status = EXIT_SUCCESS;
	else
		DOCA_LOG_ERR("Failed reading the counters: %s", doca_error_get_name(r));
destroy:
	free(info);
	if (pcc != NULL && doca_telemetry_pcc_destroy(pcc) != DOCA_SUCCESS)
		status = EXIT_FAILURE;
close:
	doca_dev_close(dev);
	fflush(stdout);
	return status;
usage:
	fprintf(stderr, "usage: tlm_tool (-p PCI | -d IBDEV) [-c]\n");
	return EXIT_FAILURE;
}
