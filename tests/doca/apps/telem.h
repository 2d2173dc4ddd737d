/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TELEM_H_
#define TELEM_H_

/*
 * The switch-telemetry pair of the DTS suite doca_apps: telem_np reads the
 * IFA2 per-hop metadata of the `doca` switch profile (doc/wire.md 8.3.1)
 * in each probe request and answers with the most congested hop's queue
 * and its TX byte and time deltas; telem_rp sets its flows' rates from
 * those answers.  The 12 answer bytes, big endian:
 *
 *   0..1   queue occupancy of the hop, cells of 256 bytes (saturates)
 *   2      index of the hop in the stack (0 = the newest)
 *   3      bit 0: valid (deltas over two samples of that hop); bits 1-2:
 *          the hop's port type
 *   4..7   TX bytes of the hop's egress port since the previous sample
 *   8..11  ns between the two samples (the hop's TX timestamps)
 */

#include "tmpl_util.h"

#define TELEM_CELL_BYTES 256u
#define TELEM_F_VALID 0x01u

/* `doca` switch profile hop (32 bytes), offsets of its fields */
#define TELEM_HOP_LEN 32u
#define TELEM_HOP_MARKER_OFF 8u /* 0x8000 in the high half: this profile */
#define TELEM_HOP_QHI_OFF 10u
#define TELEM_HOP_TXTS_OFF 18u
#define TELEM_HOP_QLO_OFF 22u
#define TELEM_HOP_EGRESS_OFF 26u
#define TELEM_HOP_TXBYTES_OFF 28u
#define TELEM_HOP_MARKER 0x8000u

/* IFA2: the metadata header after the UDP header, hops after it */
#define TELEM_UDP_LEN 8u
#define TELEM_MD_LEN 4u

#endif /* TELEM_H_ */
