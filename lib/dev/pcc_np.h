/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_NP_H
#define PCC_NP_H

/**
 * @file
 * Notification point (NP) user handler: the native form of DOCA PCC's
 * doca_pcc_dev_np_user_packet_handler().
 *
 * When the engine's NP runner receives a probe request (an RTT probe of a
 * format the process answers in software), it fills a struct pcc_np_pkt
 * view of the packet and calls the registered handler through
 * pcc_np_handle().  The handler writes up to PCC_NP_RESP_MAX bytes of user
 * data (carried back to the reaction point, where the RP algorithm reads
 * them as pcc_dev_event.rtt.user) and may set the response's DSCP.
 *
 * A handler per port, else the process's: an NP context's application
 * is bound to its port with pcc_np_port_handler_set() (lib/host does it);
 * pcc_np_handler_register() installs the process's handler, which ports
 * without one of their own run.  A plug-in records its handler with
 * pcc_plugin_set_np_handler() (pcc_dev_plugin.h), which also installs it
 * as the process's when there is none yet; unloading the plug-in removes
 * it everywhere.
 *
 * Threads: pcc_np_handle() may run on any number of lcores at once; the
 * handler must be reentrant.  pcc_np_handler_unregister() waits until no
 * thread is inside pcc_np_handle() with the old handler, so the code of an
 * unloaded plug-in is never entered again.  The engine must call the
 * handler through pcc_np_handle() (never through a pointer it kept) for
 * that guarantee to hold.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest response user data, bytes (DOCA: "up to 12 bytes"). */
#define PCC_NP_RESP_MAX 12
/** Mask of pcc_np_pkt.t2_ns as DOCA reports it (30 bits). */
#define PCC_NP_T2_MASK 0x3fffffffu

/**
 * Input: a read-only view of one probe request.  Pointers stay valid for
 * the duration of the call only.  A length of 0 means "not present" (the
 * pointer is then NULL).
 */
struct pcc_np_pkt {
	const uint8_t *frame;   /**< Ethernet header (a VLAN tag already removed) */
	const uint8_t *l4;      /**< UDP header (network byte order) */
	const uint8_t *payload; /**< probe payload after the 24-byte MAD header */
	uint32_t frame_len;     /**< bytes from frame to the end of the packet */
	uint32_t l4_len;        /**< bytes from l4 to the end of the packet */
	uint32_t payload_len;   /**< bytes from payload to the end */
	uint32_t t2_ns;         /**< NP receive time, ns of the port clock */
	uint16_t vlan_tci;      /**< removed VLAN tag's TCI, host order */
	uint8_t vlan_present;   /**< 1 when a VLAN tag was removed */
	uint8_t port;           /**< logical port the request arrived on */
	uint8_t plane;          /**< plane of the port (0: single plane) */
	uint8_t probe_slot;     /**< probe format slot the request matched */
	uint8_t l3_ttl;         /**< IPv4 TTL or IPv6 hop limit */
	uint8_t reserved;
};

/** Output: zeroed before the handler is called. */
struct pcc_np_resp {
	uint8_t data[PCC_NP_RESP_MAX]; /**< user data for the response */
	uint8_t len;                   /**< bytes of data used, 0..PCC_NP_RESP_MAX */
	uint8_t dscp;                  /**< response DSCP (0..63) when dscp_set */
	uint8_t dscp_set;              /**< 1: use dscp instead of the default */
	uint8_t reserved;
};

/**
 * The handler: fill *out from *in.  Return 0 to send the response, or a
 * negative errno to send none (the request is dropped and counted).
 */
typedef int (*pcc_np_handler_t)(const struct pcc_np_pkt *in, struct pcc_np_resp *out);

/** Install the process's handler: 0, -EINVAL (NULL), -EBUSY (one is installed). */
int pcc_np_handler_register(pcc_np_handler_t fn);
/**
 * Remove fn (which must be the installed handler: else -ENOENT; it is
 * also unbound from every port bound to it) and wait until no thread
 * runs it any more.  0 or -EINVAL (NULL).
 */
int pcc_np_handler_unregister(pcc_np_handler_t fn);
/** The installed handler, NULL if none. */
pcc_np_handler_t pcc_np_handler_get(void);

/** Ports pcc_np_port_handler_set() can bind (port ids 0..63). */
#define PCC_NP_MAX_PORTS 64

/**
 * Bind fn to port (its own handler, over the process's); NULL unbinds and
 * waits until no thread runs the old one.  0, -EINVAL (port out of range).
 */
int pcc_np_port_handler_set(uint16_t port, pcc_np_handler_t fn);
/** The handler port runs: its own, else the process's; NULL if none. */
pcc_np_handler_t pcc_np_port_handler_get(uint16_t port);
/** Only port's own handler (NULL if none bound). */
pcc_np_handler_t pcc_np_port_handler_bound(uint16_t port);

/**
 * Engine side: zero *out, call the handler, sanitise its answer (len
 * clamped to PCC_NP_RESP_MAX, dscp to 6 bits).  Returns the handler's
 * result, -ENOENT when no handler is installed, -EINVAL for NULL
 * arguments.  Safe against a concurrent pcc_np_handler_unregister().
 */
int pcc_np_handle(const struct pcc_np_pkt *in, struct pcc_np_resp *out);

/** pcc_np_handle() with port's handler (pcc_np_port_handler_get()). */
int pcc_np_handle_port(uint16_t port, const struct pcc_np_pkt *in, struct pcc_np_resp *out);

#ifdef __cplusplus
}
#endif

#endif /* PCC_NP_H */
