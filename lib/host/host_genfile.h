/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef HOST_GENFILE_H
#define HOST_GENFILE_H

/*
 * The gen-file option: generator flows from a YAML file (libyaml).  Format
 * (doc/dpdk-pcc.md, "Generator file"):
 *
 *   flows:                  # or the list alone at the top level
 *     - count: 4            # flows in the group (required, 1..1048576)
 *       qpn: 0x100          # QPN of the first (required, 2..0xffffff)
 *       port: 0             # RP port (default: every RP port)
 *       size: 1048576       # bytes per message (default: infinite)
 *       payload: 1024       # bytes per packet (default --gen-size)
 *       start_us: 0         # start after the engine starts (default 0)
 *       rate_mbps: 1000     # initial offered rate per flow (default
 *                           #   --gen-rate; 0 = unpaced)
 *
 * Pure (no EAL): unit-tested.  Errors are one line "FILE:LINE: why".
 */

#include <stddef.h>
#include <stdint.h>

#include "pcc_engine.h"

struct host_gen_file {
	struct pcc_engine_gen_group *groups; /* malloc'd */
	uint32_t nb;
	uint32_t *lines; /* line of each group in the file */
};

/* Load and check path; 0, or -1 with "path:line: why" in err. */
int host_gen_file_load(const char *path, struct host_gen_file *out, char *err, size_t errlen);

/* As host_gen_file_load() on text; name is used in messages. */
int host_gen_file_parse(const char *text, size_t len, const char *name, struct host_gen_file *out,
		char *err, size_t errlen);

void host_gen_file_free(struct host_gen_file *f);

#endif /* HOST_GENFILE_H */
