/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_PCC_H_
#define DOCA_PCC_H_

/**
 * @file
 * dpdk-pcc's DOCA compatibility: DOCA PCC's host API on lib/host
 * (doc/compat-doca-host.md has every call with its status).  Written from
 * DOCA's public documentation; not NVIDIA's header.
 *
 * A context is a lib/host context on the device's port (RP or NP), made
 * through lib/compat's environment (doc/compat.md): the EAL starts when
 * the program has not, a simulator run (PCC_SIM) runs its scenario when
 * every context the program made has started.  The device application
 * (what DPACC builds on DOCA) is a dpdk-pcc plug-in: see
 * DOCA_PCC_APP_DEFINE().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_dev;

/** A PCC context (RP or NP). */
struct doca_pcc;

/**
 * A device application.  On DOCA, DPACC generates the symbol from the
 * device code; with dpdk-pcc the device code is a plug-in (.so) built
 * with pkg-config pcc-doca, and one line in a host source file defines
 * the symbol the program names: DOCA_PCC_APP_DEFINE(sym, "path.so").
 * A relative path is searched in PCC_APP_DIR (if set), then the working
 * directory.
 */
struct doca_pcc_app {
	const char *name; /**< the symbol's name */
	const char *path; /**< the plug-in */
};

/** Define `struct doca_pcc_app *sym` for the plug-in at path. */
#define DOCA_PCC_APP_DEFINE(sym, path_)                                   \
	static struct doca_pcc_app sym##_doca_pcc_app_ = { #sym, path_ }; \
	struct doca_pcc_app *sym = &sym##_doca_pcc_app_

/* ---- Devices and capabilities ------------------------------------------- */

/** DOCA_SUCCESS when the device can take an RP context. */
DOCA_STABLE
doca_error_t doca_devinfo_get_is_pcc_supported(const struct doca_devinfo *devinfo);
/** DOCA_SUCCESS when the device can take an NP context. */
DOCA_STABLE
doca_error_t doca_pcc_np_cap_is_supported(const struct doca_devinfo *devinfo);
/** DOCA_SUCCESS: probes carry a custom header (CCMAD). */
DOCA_STABLE
doca_error_t doca_pcc_cap_is_ccmad_custom_header_supported(const struct doca_devinfo *devinfo);
/** DOCA_SUCCESS: the device application may change a flow's probe
 *  priority (doca_pcc_dev_probe_prio_set). */
DOCA_STABLE
doca_error_t doca_pcc_cap_is_probe_priority_change_supported(const struct doca_devinfo *devinfo);

/* ---- Contexts ------------------------------------------------------------ */

/** Create an RP (reaction point) context on dev. */
DOCA_STABLE
doca_error_t doca_pcc_create(struct doca_dev *doca_dev, struct doca_pcc **pcc);
/** Create an NP (notification point) context on dev. */
DOCA_STABLE
doca_error_t doca_pcc_np_create(struct doca_dev *doca_dev, struct doca_pcc **pcc);
/** Stop (if started) and destroy. */
DOCA_STABLE
doca_error_t doca_pcc_destroy(struct doca_pcc *pcc);
/** Fewest threads a context takes (1). */
DOCA_STABLE
doca_error_t doca_pcc_get_min_num_threads(struct doca_pcc *pcc, uint32_t *min_num_threads);
/** Most threads a context takes (the EAL's worker lcores). */
DOCA_STABLE
doca_error_t doca_pcc_get_max_num_threads(struct doca_pcc *pcc, uint32_t *max_num_threads);
/** The device application (before start). */
DOCA_STABLE
doca_error_t doca_pcc_set_app(struct doca_pcc *pcc, struct doca_pcc_app *app);
/**
 * The threads handling the context's events: num_threads worker lcores.
 * An entry that is an enabled worker lcore is that lcore; any other id
 * (DOCA's DPA execution units) is worker (id mod workers).  Before start.
 */
DOCA_STABLE
doca_error_t doca_pcc_set_thread_affinity(
		struct doca_pcc *pcc, uint32_t num_threads, uint32_t *affinity_configs);
/** Start: events are handled (a simulator run starts with the last
 *  context the program starts). */
DOCA_STABLE
doca_error_t doca_pcc_start(struct doca_pcc *pcc);
/** Stop handling events. */
DOCA_STABLE
doca_error_t doca_pcc_stop(struct doca_pcc *pcc);
/**
 * Wait for a change of the process state (or the end of a simulator run),
 * at most wait_time seconds; a negative wait_time waits until the program
 * is stopped.  DOCA_SUCCESS on a change or when the time is up.
 */
DOCA_STABLE
doca_error_t doca_pcc_wait(struct doca_pcc *pcc, int wait_time);

/** Process states. */
typedef enum {
	DOCA_PCC_PS_ACTIVE = 0,      /**< handles events */
	DOCA_PCC_PS_STANDBY = 1,     /**< another process is ACTIVE */
	DOCA_PCC_PS_DEACTIVATED = 2, /**< no longer handles events: destroy */
	DOCA_PCC_PS_ERROR = 3,       /**< failed: destroy */
} doca_pcc_process_state_t;

/** The process state (active/standby: PCC_HA, doc/compat-doca-host.md). */
DOCA_STABLE
doca_error_t doca_pcc_get_process_state(
		const struct doca_pcc *pcc, doca_pcc_process_state_t *process_state);

/* ---- Probes ---------------------------------------------------------------- */

/** Probe format slot 0..7 sends CCMAD probes. */
DOCA_STABLE
doca_error_t doca_pcc_set_ccmad_probe_packet_format(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot);
/** Probe format slot sends IFA 1.0 probes. */
DOCA_STABLE
doca_error_t doca_pcc_set_ifa1_probe_packet_format(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot);
/** Probe format slot sends IFA 2.0 probes. */
DOCA_STABLE
doca_error_t doca_pcc_set_ifa2_probe_packet_format(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot);
/** RP: CCMAD probes of slot are answered by a remote NP context (true) or
 *  by the remote NIC (false, the default). */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ccmad_remote_sw_handler(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot, bool remote_sw_handler);
/** RP: GNS (0..15) of slot's IFA 2.0 probes. */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ifa2_gns(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot, uint8_t gns);
/** RP: hop limit of slot's IFA 2.0 probes. */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ifa2_hop_limit(
		struct doca_pcc *pcc, uint32_t probe_packet_format_slot, uint8_t hop_limit);
/** NP: IFA 2.0 packets whose GNS matches value under mask are not the
 *  NP's (not answered).  probe_packet_format_slot: 0. */
DOCA_STABLE
doca_error_t doca_pcc_np_set_ifa2_gns_ignore(struct doca_pcc *pcc,
		uint32_t probe_packet_format_slot, uint8_t ignore_mask, uint8_t ignore_value);

/** Where a CCMAD probe's custom header goes. */
typedef enum {
	/** right after the probe's MAD data (byte 0 of the custom area) */
	DOCA_PCC_CCMAD_CUSTOM_HEADER_LOC_AFTER_MAD = 0,
	/** at the end of the probe payload */
	DOCA_PCC_CCMAD_CUSTOM_HEADER_LOC_END = 1,
} doca_pcc_ccmad_custom_header_loc_t;

/** RP: bytes (0..64) of slot's CCMAD custom header. */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ccmad_custom_header_size(
		struct doca_pcc *pcc, uint32_t probe_format_slot, uint8_t header_size);
/** RP: where slot's CCMAD custom header goes. */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ccmad_custom_header_location(struct doca_pcc *pcc,
		uint32_t probe_format_slot, doca_pcc_ccmad_custom_header_loc_t header_loc);
/** RP: whether the device application may change the priority of slot's
 *  probes (doca_pcc_dev_probe_prio_set). */
DOCA_STABLE
doca_error_t doca_pcc_rp_set_ccmad_probe_priority_change_en(
		struct doca_pcc *pcc, uint32_t probe_format_slot, bool enable);

/* ---- NP response timestamps ------------------------------------------------ */

/** Clock of the NP's timestamps. */
typedef enum {
	DOCA_PCC_NP_TS_SOURCE_FREE_RUNNING = 0,                   /**< the port's clock */
	DOCA_PCC_NP_TS_SOURCE_DEFAULT DOCA_DEPRECATED_ENUM = 0x1, /**< deprecated: free running */
	DOCA_PCC_NP_TS_SOURCE_REAL_TIME = 0x2, /**< CLOCK_REALTIME (PTP-synchronised) */
} doca_pcc_np_ts_source_t;

/** DOCA_SUCCESS: NP answers may carry a response timestamp. */
DOCA_STABLE
doca_error_t doca_pcc_np_cap_is_resp_ts_supported(const struct doca_devinfo *devinfo);
/** DOCA_SUCCESS: the NP can use ts_source. */
DOCA_STABLE
doca_error_t doca_pcc_np_cap_is_ts_source_supported(
		const struct doca_devinfo *devinfo, doca_pcc_np_ts_source_t ts_source);
/** NP: bits (0..32) of the response timestamp in the answer's last dword. */
DOCA_STABLE
doca_error_t doca_pcc_np_set_resp_ts_size(struct doca_pcc *pcc, uint8_t ts_size);
/** NP: right shift of the response timestamp. */
DOCA_STABLE
doca_error_t doca_pcc_np_set_resp_ts_resolution(struct doca_pcc *pcc, uint8_t resolution);
/** NP: clock of the response timestamp and t2. */
DOCA_STABLE
doca_error_t doca_pcc_np_set_ts_source(struct doca_pcc *pcc, doca_pcc_np_ts_source_t ts_source);

/* ---- Tracer, logger, coredump, debug --------------------------------------- */

/** Formats of doca_pcc_dev_trace_5() records: trace_message[fmt_id], up to
 *  a NULL entry, printf formats of five 64-bit arguments.  Before start. */
DOCA_STABLE
doca_error_t doca_pcc_set_trace_message(struct doca_pcc *pcc, char **trace_message);
/** Print trace records again / stop printing them. */
DOCA_STABLE
doca_error_t doca_pcc_activate_tracer(struct doca_pcc *pcc);
DOCA_STABLE
doca_error_t doca_pcc_deactivate_tracer(struct doca_pcc *pcc);
/** Trace records into buf (size bytes, text lines, NUL terminated). */
DOCA_STABLE
doca_error_t doca_pcc_trace_buf_set(struct doca_pcc *pcc, char *buf, size_t size);
/** The buffer trace_buf_set gave; DOCA_ERROR_BAD_CONFIG if none. */
DOCA_STABLE
doca_error_t doca_pcc_trace_buf_get(struct doca_pcc *pcc, char **buf);
/** Trace records into file (lines). */
DOCA_STABLE
doca_error_t doca_pcc_trace_file_set(struct doca_pcc *pcc, FILE *file);
/** The file trace_file_set gave; DOCA_ERROR_BAD_CONFIG if none. */
DOCA_STABLE
doca_error_t doca_pcc_trace_file_get(struct doca_pcc *pcc, FILE **file);

/** One trace record as a trace handler gets it. */
struct doca_pcc_bin_report {
	uint32_t msg_number;         /**< the format id (doca_pcc_dev_trace_5's) */
	uint32_t seq_number;         /**< records of the process, in order */
	uint64_t metadata;           /**< the device thread (lib/dev rank) */
	uint64_t internal_timestamp; /**< ns of the engine's clock */
	uint64_t args[5];
};

/** A trace handler: num_reports records, in order. */
typedef void (*doca_pcc_trace_handler_cb)(
		void *user_ctx, struct doca_pcc_bin_report *reports, uint32_t num_reports);

/** Trace records to handler instead of printing them.  Before start. */
DOCA_STABLE
doca_error_t doca_pcc_register_trace_handler(
		struct doca_pcc *pcc, doca_pcc_trace_handler_cb handler, void *user_ctx);

/** Bytes of the device printf buffer (doca_pcc_dev_printf).  Before start. */
DOCA_STABLE
doca_error_t doca_pcc_set_print_buffer_size(struct doca_pcc *pcc, size_t buffer_size);
/** Where a crash report of the device application goes.  Before start. */
DOCA_STABLE
doca_error_t doca_pcc_set_dev_coredump_file(struct doca_pcc *pcc, const char *file_name);
/** DEBUG lines of the library on (or off). */
DOCA_STABLE
doca_error_t doca_pcc_enable_debug(struct doca_pcc *pcc, bool enable);
/** The process's and contexts' state, and the configuration, to stdout. */
DOCA_STABLE
doca_error_t doca_pcc_dump_debug(struct doca_pcc *pcc);

/* ---- Mailbox ------------------------------------------------------------- */

/** Mailbox of the context: request and response bytes.  Before start. */
DOCA_STABLE
doca_error_t doca_pcc_set_mailbox(
		struct doca_pcc *pcc, uint32_t max_request_size, uint32_t max_response_size);
/** The request buffer (fill it, then doca_pcc_mailbox_send). */
DOCA_STABLE
doca_error_t doca_pcc_mailbox_get_request_buffer(struct doca_pcc *pcc, void **request_buffer);
/** The response buffer (valid after doca_pcc_mailbox_send). */
DOCA_STABLE
doca_error_t doca_pcc_mailbox_get_response_buffer(struct doca_pcc *pcc, void **response_buffer);
/**
 * Send request_size bytes of the request buffer to the device
 * application's doca_pcc_dev_user_mailbox_handle() and wait for it:
 * *response_size bytes in the response buffer, *cb_ret_val 0 when the
 * handler returned OK.
 */
DOCA_STABLE
doca_error_t doca_pcc_mailbox_send(struct doca_pcc *pcc, uint32_t request_size,
		uint32_t *response_size, uint32_t *cb_ret_val);

/* ---- Resources (SPRD) -------------------------------------------------------- */

/** Execution units of an application in a resources file. */
struct doca_pcc_resources;

/**
 * Parse a resources file's text (size bytes of YAML: dpdk-pcc's
 * resources format, doc/host.md "Resources") for the application
 * application_key.  DOCA_ERROR_NOT_FOUND when the file has no such application.
 */
DOCA_STABLE
doca_error_t doca_pcc_resources_create(const char *application_key, const char *buffer, size_t size,
		struct doca_pcc_resources **resources);
/** Number of execution units (worker lcores) of the application. */
DOCA_STABLE
doca_error_t doca_pcc_resources_get_num_eus(
		const struct doca_pcc_resources *resources, uint32_t *num_eus);
/** The first num_eus execution units (lcore ids). */
DOCA_STABLE
doca_error_t doca_pcc_resources_get_eus(
		const struct doca_pcc_resources *resources, uint32_t num_eus, uint32_t *eus);
/** Free. */
DOCA_STABLE
doca_error_t doca_pcc_resources_destroy(struct doca_pcc_resources *resources);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PCC_H_ */
