/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef HOST_OPTS_INTERNAL_H
#define HOST_OPTS_INTERNAL_H

/*
 * The option table's entry and the functions its entries name (lib/host
 * internal): host_opts.c holds the table and the API, host_opts_set.c the
 * value parsers and the process and RP setters, host_opts_np.c the NP
 * setters.  A setter writes the option's value into a stage (the
 * process's settings, or a context's RP or NP settings).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host_internal.h"

struct opt;
/* Set the option's value in st; 0, or -1 with the reason in why ("" to
 * say only what the option expects). */
typedef int (*opt_set_t)(const struct opt *o, const char *v, struct host_stage *st, char *why,
		size_t whylen);

struct opt {
	struct pcc_host_opt_info info;
	opt_set_t set;
	/* numbers: range and field (offset in struct host_proc, or in
	 * struct pcc_engine_np_conf for NP options), 2 or 4 bytes */
	uint64_t min;
	uint64_t max;
	size_t off;
	uint8_t width;
};

/* Value parsers (host_opts_set.c): 0, or -1. */
int host_opt_num_n(const char *s, size_t n, uint64_t min, uint64_t max, uint64_t *out);
int host_opt_num(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int host_opt_ppm(const char *s, uint32_t *out);
int host_opt_pair(const char *s, uint64_t amax, uint64_t bmax, uint64_t *a, uint64_t *b);
int host_opt_on_off(const char *s, bool *on);
/* v as a message quotes it: itself, or its first 120 and last 60 bytes
 * around "..." when longer than 200 (so the option's name that follows
 * always fits; per thread, 4 results live at once). */
const char *host_opt_quote(const char *v);
int host_opt_set_why(char *why, size_t whylen, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

/* The setters the table names (host_opts_set.c, host_opts_np.c). */
#define HOST_OPT_SETTER(fn) \
	int fn(const struct opt *o, const char *v, struct host_stage *st, char *why, size_t whylen)

HOST_OPT_SETTER(host_opt_set_num);
HOST_OPT_SETTER(host_opt_set_gen_ce);
HOST_OPT_SETTER(host_opt_set_gen_ipv6);
HOST_OPT_SETTER(host_opt_set_icrc_hw);
HOST_OPT_SETTER(host_opt_set_trace_format);
HOST_OPT_SETTER(host_opt_set_probe_with_data);
HOST_OPT_SETTER(host_opt_set_watchdog);
HOST_OPT_SETTER(host_opt_set_gen_ip);
HOST_OPT_SETTER(host_opt_set_gen_dst_mac);
HOST_OPT_SETTER(host_opt_set_gen_file);
HOST_OPT_SETTER(host_opt_set_flow_full);
HOST_OPT_SETTER(host_opt_set_pacer);
HOST_OPT_SETTER(host_opt_set_qp_table);
HOST_OPT_SETTER(host_opt_set_ifa2_proto);
HOST_OPT_SETTER(host_opt_set_ifa1_marker);
HOST_OPT_SETTER(host_opt_set_crash_file);
HOST_OPT_SETTER(host_opt_set_plugin);
HOST_OPT_SETTER(host_opt_set_metrics_port);
HOST_OPT_SETTER(host_opt_set_metrics_addr);
HOST_OPT_SETTER(host_opt_set_nonempty);
HOST_OPT_SETTER(host_opt_set_algo);
HOST_OPT_SETTER(host_opt_set_algo_param);
HOST_OPT_SETTER(host_opt_set_algo_profile);
HOST_OPT_SETTER(host_opt_set_line_rate);
HOST_OPT_SETTER(host_opt_set_probe);
HOST_OPT_SETTER(host_opt_set_np_cnp);
HOST_OPT_SETTER(host_opt_set_np_learn);
HOST_OPT_SETTER(host_opt_set_np_sqpn);
HOST_OPT_SETTER(host_opt_set_np_cnp_gap);
HOST_OPT_SETTER(host_opt_set_np_cnp_pcp);
HOST_OPT_SETTER(host_opt_set_np_mark_ce);
HOST_OPT_SETTER(host_opt_set_np_resp_ts);
HOST_OPT_SETTER(host_opt_set_np_ts_source);
HOST_OPT_SETTER(host_opt_set_np_resp_dscp);
HOST_OPT_SETTER(host_opt_set_np_hw_probes);
HOST_OPT_SETTER(host_opt_set_np_gns);

#endif /* HOST_OPTS_INTERNAL_H */
