/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The engine's effective configuration, read back from the engine and
 * lib/dev (not from what was asked): one walk (config_walk) feeds the JSON
 * text (pcc_host_config_json), the /pcc/config telemetry command and the
 * debug dump.  Sections: "process", then "port<N>" per port with a role;
 * values are numbers or short strings, so the same settings give the same
 * text whoever made them (a program, dpdk-pcc's command line).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include "host_internal.h"

struct cfg_sink {
	void (*sect)(void *a, const char *name);
	void (*num)(void *a, const char *key, uint64_t v);
	void (*str)(void *a, const char *key, const char *v);
	void (*end)(void *a);
};

static void __rte_format_printf(4, 5)
		put_fmt(const struct cfg_sink *s, void *a, const char *key, const char *fmt, ...)
{
	char buf[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->str(a, key, buf);
}

static const char *
roles_name(uint8_t r)
{
	if (r & PCC_ENGINE_ROLE_FWD)
		return "fwd";
	if ((r & PCC_ENGINE_ROLE_RP) && (r & PCC_ENGINE_ROLE_NP))
		return "rp+np";
	return (r & PCC_ENGINE_ROLE_RP) ? "rp" : "np";
}

static void
walk_process(const struct cfg_sink *s, void *a, const struct pcc_engine *e)
{
	const struct pcc_engine_conf *c = pcc_engine_conf_get(e);
	const struct pcc_engine_gen_conf *g = &c->gen;
	char b4[2][64];
	uint32_t i;

	s->sect(a, "process");
	s->num(a, "rxq", c->nb_rxq);
	s->num(a, "txq", c->nb_txq);
	s->num(a, "rxd", c->nb_rxd);
	s->num(a, "txd", c->nb_txd);
	s->num(a, "burst", c->burst);
	s->num(a, "nb_mbufs", c->nb_mbufs);
	s->num(a, "nb_mbufs_extra", c->nb_mbufs_extra);
	s->num(a, "idle_sleep_us", c->idle_sleep_us);
	/* the same on every port (--icrc-hw): the first with a role */
	for (i = 0; i < RTE_MAX_ETHPORTS && c->port[i].roles == 0; i++)
		;
	s->num(a, "icrc_hw", i < RTE_MAX_ETHPORTS && c->port[i].icrc_hw);
	s->num(a, "flows", c->flow.capacity);
	s->num(a, "flow_idle_ms", c->flow.idle_ms);
	s->str(a, "flow_full", c->flow.full == PCC_ENGINE_FLOW_FULL_REFUSE ? "refuse" : "evict");
	s->num(a, "flow_ctx_size", pcc_engine_flow_ctx_size(e));
	s->num(a, "tx_coalesce_bytes", c->rp.tx_coalesce_bytes);
	s->num(a, "tx_coalesce_us", c->rp.tx_coalesce_us);
	s->num(a, "timer_us", c->rp.timer_us);
	s->str(a, "pacer", pcc_engine_pacer_name(e));
	s->num(a, "pacer_queue", c->rp.pacer_queue);
	s->num(a, "pace_ahead_ns", c->rp.pace_ahead_ns);
	s->num(a, "tx_stamp", c->rp.tx_stamp);
	s->num(a, "probe_with_data", !c->rp.probe_unbound);
	s->num(a, "gen_flows", g->nb_flows);
	s->num(a, "gen_qpn", g->qpn_base);
	s->num(a, "gen_size", g->payload_len);
	s->num(a, "gen_rate_mbps", g->rate_mbps);
	s->num(a, "gen_ce_ppm", g->ce_ppm);
	s->num(a, "gen_dscp", g->dscp);
	s->num(a, "gen_ipv6", g->ipv6);
	if (g->ipv6) {
		for (i = 0; i < 2; i++) {
			const uint8_t *v6 = i == 0 ? g->src_ip.v6 : g->dst_ip.v6;

			snprintf(b4[i], sizeof(b4[i]),
					"%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
					"%02x%02x:%02x%02x",
					v6[0], v6[1], v6[2], v6[3], v6[4], v6[5], v6[6], v6[7],
					v6[8], v6[9], v6[10], v6[11], v6[12], v6[13], v6[14],
					v6[15]);
		}
	} else {
		for (i = 0; i < 2; i++) {
			uint32_t v = i == 0 ? g->src_ip.v4 : g->dst_ip.v4;

			snprintf(b4[i], sizeof(b4[i]), "%u.%u.%u.%u", v >> 24, (v >> 16) & 0xff,
					(v >> 8) & 0xff, v & 0xff);
		}
	}
	s->str(a, "gen_src_ip", b4[0]);
	s->str(a, "gen_dst_ip", b4[1]);
	if (g->dst_mac_valid)
		put_fmt(s, a, "gen_dst_mac", "%02x:%02x:%02x:%02x:%02x:%02x", g->dst_mac[0],
				g->dst_mac[1], g->dst_mac[2], g->dst_mac[3], g->dst_mac[4],
				g->dst_mac[5]);
	s->num(a, "gen_groups", g->nb_groups);
	s->num(a, "gen_flows_total", pcc_engine_gen_flow_count(e));
	s->num(a, "fwd", c->fwd.enabled);
	if (c->fwd.enabled)
		put_fmt(s, a, "fwd_ports", "%u,%u", c->fwd.port_a, c->fwd.port_b);
	s->end(a);
}

/* "ccmad:np=sw,custom=0@0/0x0" etc. */
static void
probe_str(const struct pcc_engine_probe_conf *p, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s:np=%s,custom=%u@%u/%#x",
			pcc_engine_probe_fmt_name(p->format) != NULL ?
					pcc_engine_probe_fmt_name(p->format) :
					"?",
			p->hw_np ? "hw" : "sw", p->custom_len, p->custom_offset, p->custom_pattern);

	if (n < 0 || (size_t)n >= len)
		return;
	if (p->format == PCC_ENGINE_PROBE_IFA1)
		snprintf(buf + n, len - (size_t)n, ",marker=%#" PRIx64 ",hop-limit=%u",
				p->ifa1_marker, p->ifa_hop_limit);
	else if (p->format == PCC_ENGINE_PROBE_IFA2)
		snprintf(buf + n, len - (size_t)n, ",gns=%#x,hop-limit=%u,proto=%u", p->ifa2_gns,
				p->ifa_hop_limit, p->ifa2_proto);
}

static void
walk_rp(const struct cfg_sink *s, void *a, const struct pcc_engine *e, uint16_t p)
{
	uint32_t vals[PCC_DEV_MAX_PARAMS];
	struct pcc_engine_probe_conf pc;
	const char *steer;
	char key[64], buf[RTE_TEL_MAX_STRING_LEN];
	uint8_t dev, slot, sl;
	uint32_t i;

	if (pcc_engine_port_dev(e, p, &dev, &slot) != 0)
		return;
	s->num(a, "dev_port", dev);
	s->num(a, "line_rate_bps", pcc_engine_port_line_rate(e, p));
	steer = pcc_engine_steer_name(pcc_engine_port_steer(e, p));
	if (steer != NULL)
		s->str(a, "steer", steer);
	s->num(a, "active_slot", slot);
	for (sl = 0; sl < PCC_ENGINE_SLOTS; sl++) {
		bool en = false;
		const struct pcc_dev_algo_ops *ops = pcc_dev_slot_algo(dev, sl, &en);

		if (ops == NULL)
			continue;
		snprintf(key, sizeof(key), "slot%u", sl);
		put_fmt(s, a, key, "%s%s", ops->name, en ? "" : " (disabled)");
		if (ops->n_params == 0 || pcc_dev_params_get(dev, sl, 0, ops->n_params, vals) != 0)
			continue;
		for (i = 0; i < ops->n_params && i < PCC_DEV_MAX_PARAMS; i++) {
			snprintf(key, sizeof(key), "slot%u.%s", sl,
					ops->params[i].name != NULL ? ops->params[i].name : "?");
			s->num(a, key, vals[i]);
		}
	}
	for (sl = 0; sl < PCC_ENGINE_PROBE_SLOTS; sl++) {
		if (pcc_engine_port_probe_get(e, p, sl, &pc) != 0)
			continue;
		probe_str(&pc, buf, sizeof(buf));
		snprintf(key, sizeof(key), "probe%u", sl);
		s->str(a, key, buf);
	}
}

static void
walk_np(const struct cfg_sink *s, void *a, const struct pcc_engine *e, uint16_t p)
{
	struct pcc_engine_np_conf c;
	const struct pcc_host_ctx *ctx;
	bool plugin;

	if (pcc_engine_port_np_conf_get(e, p, &c) != 0)
		return;
	s->num(a, "np_cnp", c.cnp);
	s->num(a, "np_cnp_dscp", c.cnp_dscp);
	s->num(a, "np_cnp_gap_us",
			c.cnp_gap_us == PCC_ENGINE_NP_NO_GAP ? 0 :
					c.cnp_gap_us != 0    ? c.cnp_gap_us :
							       PCC_ENGINE_NP_CNP_GAP_US_DEFAULT);
	s->num(a, "np_cnp_pcp", c.cnp_pcp_set ? c.cnp_pcp : PCC_ENGINE_NP_CNP_PCP_DEFAULT);
	s->num(a, "np_sqpn_offset", c.sqpn_offset);
	s->num(a, "np_sqpn_map", c.nb_sqpn_map);
	s->num(a, "np_learn", !c.learn_off);
	s->num(a, "np_probe_fast", !c.probe_fast_off);
	s->num(a, "np_resp_ext", c.resp_ext);
	s->num(a, "np_mark_ce_ppm", c.mark_ce_ppm);
	put_fmt(s, a, "np_resp_ts", "%u:%u", c.resp_ts_size, c.resp_ts_res);
	s->str(a, "np_ts_source", c.ts_src == PCC_ENGINE_NP_TS_REALTIME ? "realtime" : "port");
	if (c.resp_dscp_set)
		s->num(a, "np_resp_dscp", c.resp_dscp);
	else
		s->str(a, "np_resp_dscp", "request");
	s->str(a, "np_hw_probes", c.hw_probes == PCC_ENGINE_NP_HW_DROP ? "drop" : "answer");
	if (c.ifa2_gns_ignore)
		put_fmt(s, a, "np_ifa2_gns_ignore", "%#x:%#x", c.ifa2_gns_ignore_mask,
				c.ifa2_gns_ignore_value);
	else
		s->str(a, "np_ifa2_gns_ignore", "none");
	put_fmt(s, a, "np_ifa2_gns_select", "%#x:%#x", c.ifa2_gns_select_mask,
			c.ifa2_gns_select_value);
	ctx = pcc_host_ctx_find(p, PCC_HOST_ROLE_NP);
	if (ctx != NULL && pcc_host_app(ctx, &plugin)[0] != '\0')
		s->str(a, "np_app", pcc_host_app(ctx, &plugin));
	s->num(a, "np_handler", pcc_np_port_handler_get(p) != NULL);
}

static void
walk_ports(const struct cfg_sink *s, void *a, const struct pcc_engine *e)
{
	const struct pcc_engine_conf *c = pcc_engine_conf_get(e);
	struct pcc_engine_np_caps caps;
	char name[32], buf[RTE_TEL_MAX_STRING_LEN];
	unsigned int l;
	uint32_t i;
	uint16_t p;
	size_t off;
	int q;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles == 0)
			continue;
		snprintf(name, sizeof(name), "port%u", p);
		s->sect(a, name);
		s->str(a, "roles", roles_name(roles));
		/* which lcore polls each RX queue, "q:lcore,..." */
		off = 0;
		buf[0] = '\0';
		for (i = 0; i < c->nb_rxq_conf && off < sizeof(buf); i++)
			if (c->rxq[i].port_id == p)
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u:%u",
						off > 0 ? "," : "", c->rxq[i].queue_id,
						c->rxq[i].lcore_id);
		s->str(a, "rxq_lcores", buf);
		off = 0;
		buf[0] = '\0';
		for (l = 0; l < RTE_MAX_LCORE && off < sizeof(buf); l++) {
			q = pcc_engine_tx_queue(e, p, l);
			if (q >= 0)
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%u:%d",
						off > 0 ? "," : "", l, q);
		}
		s->str(a, "txq_of_lcore", buf);
		s->num(a, "nb_txq", (uint64_t)pcc_engine_port_nb_txq(e, p));
		s->str(a, "clock",
				pcc_engine_clock_src_name((enum pcc_engine_clock_src)
								pcc_engine_port_clock_src(e, p)));
		if (c->port[p].peer_mac_valid)
			put_fmt(s, a, "peer_mac", "%02x:%02x:%02x:%02x:%02x:%02x",
					c->port[p].peer_mac[0], c->port[p].peer_mac[1],
					c->port[p].peer_mac[2], c->port[p].peer_mac[3],
					c->port[p].peer_mac[4], c->port[p].peer_mac[5]);
		if (roles & PCC_ENGINE_ROLE_RP)
			walk_rp(s, a, e, p);
		if (roles & PCC_ENGINE_ROLE_NP) {
			walk_np(s, a, e, p);
			if (pcc_engine_np_caps_get(e, p, &caps) == 0) {
				s->num(a, "np_qp_table", caps.qp_table);
				s->num(a, "ifa2_proto", caps.ifa2_proto);
				put_fmt(s, a, "ifa1_marker", "%#" PRIx64, caps.ifa1_marker);
			}
		}
		s->end(a);
	}
}

static int
config_walk(const struct cfg_sink *s, void *a)
{
	if (host_e == NULL)
		return -ENODEV;
	walk_process(s, a, host_e);
	walk_ports(s, a, host_e);
	return 0;
}

/* ---- JSON text ------------------------------------------------------------------- */

struct jbuf {
	char *b;
	size_t len;
	size_t off; /* may pass len: the length it would have */
	bool first_sect;
	bool first_key;
};

static void __rte_format_printf(2, 3) jput(struct jbuf *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(j->off < j->len ? j->b + j->off : NULL, j->off < j->len ? j->len - j->off : 0,
			fmt, ap);
	va_end(ap);
	if (n > 0)
		j->off += (size_t)n;
}

static void
jstr(struct jbuf *j, const char *s)
{
	jput(j, "\"");
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			jput(j, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			jput(j, "\\u%04x", (unsigned char)*s);
		else
			jput(j, "%c", *s);
	}
	jput(j, "\"");
}

static void
j_sect(void *a, const char *name)
{
	struct jbuf *j = a;

	jput(j, "%s\n  ", j->first_sect ? "" : ",");
	jstr(j, name);
	jput(j, ": {");
	j->first_sect = false;
	j->first_key = true;
}

static void
j_key(struct jbuf *j, const char *key)
{
	jput(j, "%s\n    ", j->first_key ? "" : ",");
	jstr(j, key);
	jput(j, ": ");
	j->first_key = false;
}

static void
j_num(void *a, const char *key, uint64_t v)
{
	j_key(a, key);
	jput(a, "%" PRIu64, v);
}

static void
j_str(void *a, const char *key, const char *v)
{
	j_key(a, key);
	jstr(a, v);
}

static void
j_end(void *a)
{
	jput(a, "\n  }");
}

int
pcc_host_config_json(char *buf, size_t len)
{
	static const struct cfg_sink sink = { j_sect, j_num, j_str, j_end };
	struct jbuf j = { .b = buf, .len = len, .first_sect = true };
	int rc;

	host_err_clear();
	if (buf == NULL && len != 0)
		return host_err(-EINVAL, "config: NULL buffer");
	if (len > 0)
		buf[0] = '\0';
	jput(&j, "{");
	rc = config_walk(&sink, &j);
	if (rc < 0)
		return host_err(rc, "config: no engine (before the first start)");
	jput(&j, "\n}\n");
	return (int)j.off;
}

/* ---- Telemetry: /pcc/config ------------------------------------------------------ */

struct tsink {
	struct rte_tel_data *top;
	struct rte_tel_data *cur;
	char name[32];
};

static void
t_sect(void *a, const char *name)
{
	struct tsink *t = a;

	t->cur = rte_tel_data_alloc();
	if (t->cur != NULL)
		rte_tel_data_start_dict(t->cur);
	snprintf(t->name, sizeof(t->name), "%s", name);
}

static void
t_num(void *a, const char *key, uint64_t v)
{
	struct tsink *t = a;

	if (t->cur != NULL)
		rte_tel_data_add_dict_u64(t->cur, key, v);
}

static void
t_str(void *a, const char *key, const char *v)
{
	struct tsink *t = a;

	if (t->cur != NULL)
		rte_tel_data_add_dict_string(t->cur, key, v);
}

static void
t_end(void *a)
{
	struct tsink *t = a;

	if (t->cur != NULL && rte_tel_data_add_dict_container(t->top, t->name, t->cur, 0) != 0)
		rte_tel_data_free(t->cur);
	t->cur = NULL;
}

int
host_tlm_config(const char *cmd, const char *params, struct rte_tel_data *d)
{
	static const struct cfg_sink sink = { t_sect, t_num, t_str, t_end };
	struct tsink t = { .top = d };

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_dict(d);
	if (config_walk(&sink, &t) < 0)
		return host_tlm_fail(d, -ENOTSUP, "no engine: no context started yet");
	return 0;
}

/* ---- Debug dump ---------------------------------------------------------------- */

int
pcc_host_debug_dump(FILE *f)
{
	static char text[64 * 1024];
	unsigned int i;
	uint32_t k;

	if (f == NULL)
		return -EINVAL;
	fprintf(f, "process state: %s\n", pcc_host_process_state_name(pcc_host_process_state()));
	fprintf(f, "engine: %s\n", host_e != NULL ? "created" : "not created");
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		const struct pcc_host_ctx *c = host_ctx_at(i);

		if (c == NULL)
			continue;
		fprintf(f, "context %s port %u: %s, app '%s'%s, threads %u..%u, lcores",
				c->role == PCC_HOST_ROLE_RP ? "RP" : "NP", c->port_id,
				pcc_host_ctx_state_name(c->state),
				c->plugin ? c->plugin_name : c->app, c->plugin ? " (plug-in)" : "",
				c->min_threads, c->max_threads);
		for (k = 0; k < c->n_lcores; k++)
			fprintf(f, " %u", c->lcores[k]);
		fprintf(f, "%s, mailbox %u/%u bytes (worker %u)\n",
				c->n_lcores == 0 ? " default" : "", c->mbox_req_size,
				c->mbox_resp_size, c->mbox_worker);
	}
	pthread_mutex_unlock(&host_lock);
	if (pcc_host_config_json(text, sizeof(text)) > 0)
		fprintf(f, "configuration: %s", text);
	fflush(f);
	return 0;
}
