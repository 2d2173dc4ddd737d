/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* An mbuf over a caller's buffer, without a pool (lib/proto's tests). */

#ifndef TEST_MBUF_H
#define TEST_MBUF_H

#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

/* m: one segment of len bytes at buf + off (buf_len bytes in all). */
static inline void
mbuf_init(struct rte_mbuf *m, uint8_t *buf, uint16_t buf_len, uint16_t off, uint16_t len)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = buf;
	m->buf_len = buf_len;
	m->data_off = off;
	m->data_len = len;
	m->pkt_len = len;
	m->nb_segs = 1;
	m->next = NULL;
}

#endif /* TEST_MBUF_H */
