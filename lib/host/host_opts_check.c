/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Options that are valid alone but not together (host_stage_check()):
 * generator options without generator flows, address families, the
 * algorithm's profile and parameters, CNP options with CNPs off, probe
 * formats.  What dpdk-pcc prints as "invalid combination: ...".
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "host_opts_internal.h"

/* Was option `name` given on this stage? */
static bool
seen(const struct host_stage *st, const char *name)
{
	unsigned int i;

	if (st->seen == NULL)
		return false;
	for (i = 0; i < pcc_host_opt_count(); i++)
		if (strcmp(pcc_host_opt_at(i)->name, name) == 0)
			return st->seen->opt[i];
	return false;
}

/* ---- Combinations ------------------------------------------------------------ */

/* Generator options that only make sense with gen-flows or gen-file. */
static const char *const gen_opts[] = {
	"gen-qpn",
	"gen-size",
	"gen-rate",
	"gen-ce",
	"gen-ipv6",
	"gen-dscp",
	"gen-src-ip",
	"gen-dst-ip",
	"gen-dst-mac",
};

bool
pcc_host_opt_is_gen(const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < RTE_DIM(gen_opts); i++)
		if (strcmp(name, gen_opts[i]) == 0)
			return true;
	return false;
}

/* NP options that need CNPs. */
static const char *const cnp_opts[] = {
	"np-sqpn",
	"np-cnp-gap-us",
	"np-cnp-pcp",
	"np-cnp-dscp",
	"np-sqpn-offset",
};

static int
check_ip_family(const struct host_proc *p, bool dst, char *why, size_t whylen)
{
	bool set = dst ? p->dst_ip_set : p->src_ip_set;
	bool v6 = dst ? p->dst_v6 : p->src_v6;
	char buf[INET6_ADDRSTRLEN];
	uint32_t a4;

	if (!set || v6 == p->gen.ipv6)
		return 0;
	if (v6) {
		inet_ntop(AF_INET6, dst ? p->gen.dst_ip.v6 : p->gen.src_ip.v6, buf, sizeof(buf));
	} else {
		a4 = htonl(dst ? p->gen.dst_ip.v4 : p->gen.src_ip.v4);
		inet_ntop(AF_INET, &a4, buf, sizeof(buf));
	}
	return host_opt_set_why(why, whylen,
			"invalid combination: --%s '%s' is an %s address but %s",
			dst ? "gen-dst-ip" : "gen-src-ip", buf, v6 ? "IPv6" : "IPv4",
			p->gen.ipv6 ? "--gen-ipv6 is given" : "--gen-ipv6 is not given");
}

/* Probe slots: one IFA1 marker and one IFA2 protocol per process. */
static int
check_probes(const struct host_stage *st, char *why, size_t whylen)
{
	uint64_t marker = st->proc->ifa1_marker;
	uint8_t proto = st->proc->ifa2_proto;
	unsigned int i;

	for (i = 0; st->rp != NULL && i < PCC_HOST_PROBE_SLOTS; i++) {
		const struct pcc_host_probe_conf *p = &st->rp->probe[i];
		uint64_t mk = p->ifa1_marker != 0 ? p->ifa1_marker : PCC_IFA1_MARKER_DEFAULT;
		uint8_t pr = p->ifa2_proto != 0 ? p->ifa2_proto : PCC_IFA2_PROTO_DEFAULT;

		if (p->format == PCC_HOST_PROBE_IFA1) {
			if (marker == 0)
				marker = mk;
			if (mk != marker)
				return host_opt_set_why(why, whylen,
						"invalid combination: --probe %u:ifa1 marker "
						"%#" PRIx64 " and %s %#" PRIx64
						" (one IFA1 marker per process)",
						i, mk,
						st->proc->ifa1_marker != 0 ? "--np-ifa1-marker" :
									     "another slot's",
						marker);
		}
		if (p->format == PCC_HOST_PROBE_IFA2) {
			if (proto == 0)
				proto = pr;
			if (pr != proto)
				return host_opt_set_why(why, whylen,
						"invalid combination: --probe %u:ifa2 proto %u and "
						"%s %u (one IFA2 protocol per process)",
						i, pr,
						st->proc->ifa2_proto != 0 ? "--np-ifa2-proto" :
									    "another slot's",
						proto);
		}
	}
	return 0;
}

int
host_stage_check(const struct host_stage *st, char *why, size_t whylen)
{
	const struct host_proc *p = st->proc;
	unsigned int i;

	if (p->gen_file[0] != '\0' && seen(st, "gen-flows"))
		return host_opt_set_why(why, whylen,
				"invalid combination: --gen-file and --gen-flows (the file lists "
				"the flows)");
	if (p->gen.nb_flows == 0 && p->gen_file[0] == '\0') {
		for (i = 0; i < RTE_DIM(gen_opts); i++)
			if (seen(st, gen_opts[i]))
				return host_opt_set_why(why, whylen,
						"invalid combination: --%s needs --gen-flows N "
						"with N > 0, or --gen-file",
						gen_opts[i]);
	}
	if (p->gen.nb_flows > 0 && p->gen.qpn_base + (uint64_t)p->gen.nb_flows - 1 > PCC_QPN_MASK)
		return host_opt_set_why(why, whylen,
				"invalid combination: --gen-qpn %u with --gen-flows %u goes past "
				"QPN 0xffffff",
				p->gen.qpn_base, p->gen.nb_flows);
	if (check_ip_family(p, false, why, whylen) < 0 || check_ip_family(p, true, why, whylen) < 0)
		return -1;
	if (st->rp != NULL) {
		const char *algo = st->rp->slot_algo[0][0] != '\0' ? st->rp->slot_algo[0] : NULL;

		if (st->rp->profile[0] != '\0' &&
				host_algo_profile(algo, st->rp->profile, why, whylen) == NULL)
			return -1;
		for (i = 0; i < st->rp->nb_params; i++) {
			const struct host_param *hp = &st->rp->params[i];
			char w[384];

			if (hp->slot != PCC_HOST_SLOT_ACTIVE)
				continue;
			if (pcc_host_algo_check(algo, hp->name, hp->value, w, sizeof(w)) < 0)
				return host_opt_set_why(why, whylen,
						"invalid value '%s=%s' for --algo-param (%s)",
						hp->name, hp->value, w);
		}
	}
	if (st->np != NULL && !st->np->conf.cnp) {
		for (i = 0; i < RTE_DIM(cnp_opts); i++)
			if (seen(st, cnp_opts[i]))
				return host_opt_set_why(why, whylen,
						"invalid combination: --%s with --np-cnp off",
						cnp_opts[i]);
	}
	return check_probes(st, why, whylen);
}
