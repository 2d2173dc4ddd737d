/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Run directory: flows.csv and queues.csv (sampled in virtual time),
 * summary.json and the summary table, plot.gp and its PNGs, and the
 * progress line.  Every number in the files comes from the model and is
 * printed with integer arithmetic or fixed-precision formats, so one
 * scenario and one seed give byte-identical files.  The progress line
 * (stderr only) is rate-limited with the TSC: the only wall-clock read of
 * the simulator, and it never touches the model.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "pcc_file.h"
#include "sim_internal.h"

#define PROGRESS_EVERY_STEPS 4096
/* Jain's index of no flow, or of flows that all delivered nothing */
#define JAIN_NONE UINT64_MAX

/* A new 0600 file in the run directory (pcc_file.h: never through a
 * link, an earlier run's file replaced). */
static FILE *
open_in(const struct pcc_sim *sim, const char *file, const char *mode)
{
	char why[PCC_FILE_WHY_LEN];
	FILE *f;
	int fd;

	fd = pcc_file_create_at(sim->out.dfd, file, O_WRONLY, true, why, sizeof(why));
	if (fd < 0) {
		SIM_LOG(ERR, "%s: %s", sim->outdir, why);
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (f == NULL)
		close(fd);
	return f;
}

/* "12.345": a value in thousandths, printed without floating point. */
static void
put_milli(FILE *f, uint64_t v)
{
	fprintf(f, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
}

/* bytes over ns as Mb/s (integer): Gb/s with put_milli() */
static uint64_t
mbps(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0 : (uint64_t)(((unsigned __int128)bytes * 8000) / ns);
}

int
sim_out_open(struct pcc_sim *sim)
{
	const struct pcc_sim_scenario *s = sim->scn;
	char why[PCC_FILE_WHY_LEN];
	struct sim_out *o = &sim->out;
	uint64_t span;
	int ret;

	memset(o, 0, sizeof(*o));
	span = (uint64_t)((double)s->duration_ns * s->out.window);
	o->win_start_ns = s->duration_ns - RTE_MIN(span, s->duration_ns);
	sim_ev_push(sim, o->win_start_ns, SIM_EV_WINDOW, 0);
	o->prog_hz = rte_get_tsc_hz();
	o->start_tsc = rte_rdtsc();
	o->prog_tsc = o->start_tsc;
	o->prog_tty = -1;
	snprintf(sim->outdir, sizeof(sim->outdir), "%s", s->out.dir);
	if (s->out.dir[0] == '\0')
		return 0;
	/* made 0700 if new; an existing one must be ours and private */
	ret = pcc_file_dir_make(sim->outdir, false, why, sizeof(why));
	if (ret < 0) {
		SIM_LOG(ERR, "output directory: %s", why);
		return ret;
	}
	o->dfd = ret;
	o->has_dfd = true;
	o->flows_csv = open_in(sim, "flows.csv", "w");
	o->queues_csv = open_in(sim, "queues.csv", "w");
	o->cnps_csv = open_in(sim, "cnps.csv", "w");
	o->fair_csv = open_in(sim, "fairness.csv", "w");
	if (o->flows_csv == NULL || o->queues_csv == NULL || o->cnps_csv == NULL ||
			o->fair_csv == NULL) {
		ret = -errno;
		SIM_LOG(ERR, "%s: cannot create the CSV files: %s", sim->outdir, strerror(errno));
		return ret != 0 ? ret : -EIO;
	}
	fprintf(o->flows_csv, "time_us,flow,name,rate_gbps,thpt_gbps,tx_bytes,rx_bytes,ce,cnps\n");
	fprintf(o->queues_csv, "time_us,queue,name,depth_bytes,max_bytes,tx_gbps,marks,drops\n");
	fprintf(o->cnps_csv, "time_ns,flow,qpn,np,gap_ns\n");
	fprintf(o->fair_csv, "time_us,active,jain,thpt_gbps\n");
	o->enabled = true;
	sim_ev_push(sim, RTE_MIN(s->out.sample_ns, s->duration_ns), SIM_EV_SAMPLE, 0);
	return 0;
}

static void
sample_rows(struct pcc_sim *sim, uint64_t now)
{
	struct sim_out *o = &sim->out;
	uint64_t dt = now - o->last_sample_ns, tot = 0, x;
	double sum = 0, sq = 0;
	uint32_t i, active = 0;

	/* a frame ending now: counted if its end event would have run */
	sim_ports_settle(sim);

	for (i = 0; i < sim->nb_flows; i++) {
		struct sim_flow *f = &sim->flows[i];

		/* fairness over the flows active in the interval: started
		 * before its end, not completed before its start */
		if (f->c.start_ns < now && !(f->st.done && f->st.last_rx_ns <= o->last_sample_ns)) {
			x = mbps(f->st.rx_bytes - f->smp_rx, dt);
			active++;
			tot += x;
			sum += (double)x;
			sq += (double)x * (double)x;
		}
		put_milli(o->flows_csv, now);
		fprintf(o->flows_csv, ",%u,f%u,", i, i);
		put_milli(o->flows_csv, mbps(f->st.tx_bytes - f->smp_tx, dt));
		fputc(',', o->flows_csv);
		put_milli(o->flows_csv, mbps(f->st.rx_bytes - f->smp_rx, dt));
		fprintf(o->flows_csv, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
				f->st.tx_bytes, f->st.rx_bytes, f->st.ce_rx, f->st.cnps);
		f->smp_tx = f->st.tx_bytes;
		f->smp_rx = f->st.rx_bytes;
	}
	/* Jain's index over time (doc/simulator.md, fairness.csv): empty
	 * when no active flow delivered anything */
	put_milli(o->fair_csv, now);
	fprintf(o->fair_csv, ",%u,", active);
	if (active > 0 && sq > 0)
		fprintf(o->fair_csv, "%.6f", sum * sum / ((double)active * sq));
	fputc(',', o->fair_csv);
	put_milli(o->fair_csv, tot);
	fputc('\n', o->fair_csv);
	for (i = 0; i < sim->nb_queues; i++) {
		struct sim_port *p = &sim->ports[sim->queues[i]];

		put_milli(o->queues_csv, now);
		fprintf(o->queues_csv, ",%u,%s,%" PRIu64 ",%" PRIu64 ",", i, p->name, p->q_bytes,
				p->smp_qmax);
		put_milli(o->queues_csv, mbps(p->tx_bytes - p->smp_tx, dt));
		fprintf(o->queues_csv, ",%" PRIu64 ",%" PRIu64 "\n", p->marks - p->smp_marks,
				p->drops - p->smp_drops);
		p->smp_tx = p->tx_bytes;
		p->smp_marks = p->marks;
		p->smp_drops = p->drops;
		p->smp_qmax = p->q_bytes;
	}
	o->last_sample_ns = now;
}

void
sim_out_sample(struct pcc_sim *sim)
{
	uint64_t now = sim_now(sim), next;

	if (!sim->out.enabled)
		return;
	sample_rows(sim, now);
	next = now + sim->scn->out.sample_ns;
	if (next <= sim->end)
		sim_ev_push(sim, next, SIM_EV_SAMPLE, 0);
}

void
sim_out_cnp(struct pcc_sim *sim, uint32_t fi, bool engine)
{
	struct sim_flow *f = &sim->flows[fi];
	uint64_t now = sim_now(sim), gap = 0;
	struct sim_out *o = &sim->out;

	if (f->cnp_seen) {
		gap = now - f->cnp_seen_ns;
		if (gap < f->st.cnp_gap_min_ns)
			f->st.cnp_gap_min_ns = gap;
		if (gap < sim->scn->host.cnp_gap_ns) {
			f->st.cnp_gap_violations++;
			sim->st.cnp_gap_violations++;
		}
	}
	if (o->enabled && o->cnps_csv != NULL) {
		fprintf(o->cnps_csv, "%" PRIu64 ",%u,%u,%s,", now, fi, f->c.qpn,
				engine ? "engine" : "hw");
		if (f->cnp_seen)
			fprintf(o->cnps_csv, "%" PRIu64, gap);
		fputc('\n', o->cnps_csv);
	}
	f->cnp_seen = true;
	f->cnp_seen_ns = now;
}

void
sim_out_window(struct pcc_sim *sim)
{
	uint64_t now = sim_now(sim);
	uint32_t i;

	sim_ports_settle(sim);
	sim->out.window_done = true;
	sim->out.win_start_ns = now;
	for (i = 0; i < sim->nb_flows; i++)
		sim->flows[i].win_rx = sim->flows[i].st.rx_bytes;
	for (i = 0; i < sim->nb_ports; i++) {
		struct sim_port *p = &sim->ports[i];

		p->win_tx_bytes = p->tx_bytes;
		if (p->hist != NULL) {
			memset(p->hist, 0, SIM_HIST_N * sizeof(*p->hist));
			p->hist_t = now;
		}
	}
}

void
sim_out_progress(struct pcc_sim *sim, bool final)
{
	struct sim_out *o = &sim->out;
	uint64_t tsc, now;
	double wall;

	if (!final) {
		if (sim->st.steps - o->steps_at_check < PROGRESS_EVERY_STEPS)
			return;
		o->steps_at_check = sim->st.steps;
	}
	tsc = rte_rdtsc();
	if (!final && tsc - o->prog_tsc < o->prog_hz)
		return;
	o->prog_tsc = tsc;
	now = sim_now(sim);
	wall = (double)(tsc - o->start_tsc) / (double)o->prog_hz;
	/* on a terminal one line, rewritten in place; else a line a second */
	if (o->prog_tty < 0)
		o->prog_tty = isatty(fileno(stderr)) ? 1 : 0;
	fprintf(stderr,
			"%spcc.sim: %s: %.3f / %.3f ms simulated (%.0f%%), %.1f s, %.2f Mpkt/s, "
			"%.2f Mev/s%s",
			o->prog_tty ? "\r" : "", sim->scn->name, (double)now / 1e6,
			(double)sim->end / 1e6,
			sim->end != 0 ? 100.0 * (double)now / (double)sim->end : 100.0, wall,
			wall > 0 ? (double)sim->st.pkts_in / wall / 1e6 : 0.0,
			wall > 0 ? (double)sim->st.events / wall / 1e6 : 0.0,
			o->prog_tty && !final ? "\033[K" : "\n");
	fflush(stderr);
	o->progress_printed = true;
}

/* ---- Summary --------------------------------------------------------------------- */

struct flow_sum {
	uint64_t thpt_mbps; /* window throughput */
	bool in_window;
};

struct queue_sum {
	uint64_t util_ppm;
	uint64_t p50;
	uint64_t p99;
};

static void
fmt_size(char *buf, size_t len, uint64_t size)
{
	if (size == 0)
		snprintf(buf, len, "inf");
	else if (size % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "MB", size / 1000000);
	else if (size % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "KB", size / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "B", size);
}

static void
fmt_milli(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
}

/* Frames lost outside the fabric (the summary's "Lost outside" line). */
static uint64_t
lost_outside(const struct pcc_sim_stats *st)
{
	return st->unroutable + st->unknown_flow + st->bad_pkts + st->pool_empty + st->ifa_dropped;
}

static void
print_table(struct pcc_sim *sim, FILE *out, const struct flow_sum *fs, const struct queue_sum *qs,
		uint64_t jain_ppm, uint32_t jain_n, uint64_t ws)
{
	char a[32], b[32], c[32], d[32];
	uint32_t i;

	fmt_milli(a, sizeof(a), sim->end);
	fmt_milli(b, sizeof(b), ws);
	fprintf(out, "\nSimulation %s (seed %" PRIu64 "): %s us simulated; window %s .. %s us\n",
			sim->scn->name, sim->seed, a, b, a);
	fprintf(out, "%-6s %-8s %-8s %4s %8s %10s %12s %10s %10s %8s %8s %8s %8s %6s\n", "flow",
			"src", "dst", "slot", "size", "start_us", "fct_us", "thpt_gbps", "rx_pkts",
			"ce", "cnps", "acks", "probes", "drops");
	for (i = 0; i < sim->nb_flows; i++) {
		const struct sim_flow *f = &sim->flows[i];
		char name[16];

		snprintf(name, sizeof(name), "f%u", i);
		fmt_size(a, sizeof(a), f->c.size);
		fmt_milli(b, sizeof(b), f->c.start_ns);
		if (f->st.done)
			fmt_milli(c, sizeof(c), f->st.fct_ns);
		else
			snprintf(c, sizeof(c), "%s", f->c.size != 0 ? "unfinished" : "-");
		if (fs[i].in_window)
			fmt_milli(d, sizeof(d), fs[i].thpt_mbps);
		else
			snprintf(d, sizeof(d), "-");
		fprintf(out,
				"%-6s %-8s %-8s %4u %8s %10s %12s %10s %10" PRIu64 " %8" PRIu64
				" %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %6" PRIu64 "\n",
				name, sim->hosts[f->c.src].name, sim->hosts[f->c.dst].name,
				f->c.slot, a, b, c, d, f->st.rx_pkts, f->st.ce_rx, f->st.cnps,
				f->st.acks, f->st.probe_resp, f->st.drops);
	}
	if (jain_ppm == JAIN_NONE)
		fprintf(out, "Jain's fairness index (window, %u flows): n/a (no throughput)\n",
				jain_n);
	else
		fprintf(out,
				"Jain's fairness index (window, %u flows): %" PRIu64 ".%06" PRIu64
				"\n",
				jain_n, jain_ppm / 1000000, jain_ppm % 1000000);
	fprintf(out, "%-20s %6s %8s %10s %10s %10s %10s %8s\n", "queue", "gbps", "util_%",
			"p50_bytes", "p99_bytes", "max_bytes", "marks", "drops");
	for (i = 0; i < sim->nb_queues; i++) {
		const struct sim_port *p = &sim->ports[sim->queues[i]];

		if (p->tx_bytes == 0 && p->drops == 0)
			continue;
		fprintf(out,
				"%-20s %6" PRIu64 " %4" PRIu64 ".%03" PRIu64 " %10" PRIu64
				" %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %8" PRIu64 "\n",
				p->name, p->rate_bps / (uint64_t)1000000000, qs[i].util_ppm / 10000,
				(qs[i].util_ppm % 10000) / 10, qs[i].p50, qs[i].p99, p->q_max,
				p->marks, p->drops);
	}
	fprintf(out,
			"Totals: drops %" PRIu64 ", CE marks %" PRIu64 ", CNPs %" PRIu64
			", ACKs %" PRIu64 ", NAKs %" PRIu64 ", probes %" PRIu64 "/%" PRIu64
			" (req/resp), events %" PRIu64 ", frames %" PRIu64 "\n",
			sim->st.drops, sim->st.marks, sim->st.cnps, sim->st.acks, sim->st.naks,
			sim->st.probe_req, sim->st.probe_resp, sim->st.events, sim->st.pkts_in);
	if (lost_outside(&sim->st) > 0)
		fprintf(out,
				"Lost outside the fabric: unroutable %" PRIu64
				", unknown flow %" PRIu64 ", malformed %" PRIu64
				", pool empty %" PRIu64 ", IFA at hosts %" PRIu64 "\n",
				sim->st.unroutable, sim->st.unknown_flow, sim->st.bad_pkts,
				sim->st.pool_empty, sim->st.ifa_dropped);
	if (sim->st.cnps > 0) {
		uint64_t gmin = UINT64_MAX;

		for (i = 0; i < sim->nb_flows; i++)
			gmin = RTE_MIN(gmin, sim->flows[i].st.cnp_gap_min_ns);
		fmt_milli(a, sizeof(a), sim->scn->host.cnp_gap_ns);
		if (gmin == UINT64_MAX)
			snprintf(b, sizeof(b), "-");
		else
			fmt_milli(b, sizeof(b), gmin);
		fprintf(out,
				"CNPs per QP: shortest gap %s us (hosts.cnp_gap %s us), %" PRIu64
				" closer than the gap\n",
				b, a, sim->st.cnp_gap_violations);
	}
	if (sim->outdir[0] != '\0')
		fprintf(out, "Output: %s\n", sim->outdir);
}

static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static int
write_json(struct pcc_sim *sim, const struct flow_sum *fs, const struct queue_sum *qs,
		uint64_t jain_ppm, uint32_t jain_n, uint64_t ws)
{
	FILE *f = open_in(sim, "summary.json", "w");
	uint32_t i;

	if (f == NULL)
		return -errno;
	fprintf(f, "{\n  \"scenario\": ");
	json_str(f, sim->scn->name);
	fprintf(f,
			",\n  \"seed\": %" PRIu64 ",\n  \"end_ns\": %" PRIu64
			",\n  \"window_start_ns\": %" PRIu64 ",\n",
			sim->seed, sim->end, ws);
	if (jain_ppm == JAIN_NONE)
		fprintf(f, "  \"jain\": null,\n  \"jain_flows\": %u,\n", jain_n);
	else
		fprintf(f, "  \"jain\": %" PRIu64 ".%06" PRIu64 ",\n  \"jain_flows\": %u,\n",
				jain_ppm / 1000000, jain_ppm % 1000000, jain_n);
	fprintf(f, "  \"flows\": [\n");
	for (i = 0; i < sim->nb_flows; i++) {
		const struct sim_flow *fl = &sim->flows[i];
		const struct pcc_sim_flow_stats *st = &fl->st;

		fprintf(f,
				"    {\"name\": \"f%u\", \"src\": \"%s\", \"dst\": \"%s\", "
				"\"slot\": %u, "
				"\"qpn\": %u, \"size\": %" PRIu64 ", \"start_ns\": %" PRIu64
				", \"base_rtt_ns\": %" PRIu64 ", \"link_mbps\": %" PRIu64
				", \"done\": %s, \"fct_ns\": ",
				i, sim->hosts[fl->c.src].name, sim->hosts[fl->c.dst].name,
				fl->c.slot, fl->c.qpn, fl->c.size, fl->c.start_ns, fl->base_rtt_ns,
				sim->ports[sim->hosts[fl->c.src].port].rate_bps / 1000000,
				st->done ? "true" : "false");
		if (st->done)
			fprintf(f, "%" PRIu64, st->fct_ns);
		else
			fprintf(f, "null");
		fprintf(f, ", \"thpt_gbps\": ");
		if (fs[i].in_window)
			put_milli(f, fs[i].thpt_mbps);
		else
			fprintf(f, "null");
		fprintf(f,
				", \"tx_pkts\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
				", \"rx_pkts\": %" PRIu64 ", \"rx_bytes\": %" PRIu64
				", \"rx_payload\": %" PRIu64 ", \"ce\": %" PRIu64
				", \"cnps\": %" PRIu64 ", \"acks\": %" PRIu64 ", \"naks\": %" PRIu64
				", \"probe_req\": %" PRIu64 ", \"probe_resp\": %" PRIu64
				", \"drops\": %" PRIu64 ", \"cnp_gap_violations\": %" PRIu64
				", \"cnp_gap_min_ns\": ",
				st->tx_pkts, st->tx_bytes, st->rx_pkts, st->rx_bytes,
				st->rx_payload, st->ce_rx, st->cnps, st->acks, st->naks,
				st->probe_req, st->probe_resp, st->drops, st->cnp_gap_violations);
		if (st->cnp_gap_min_ns == UINT64_MAX)
			fprintf(f, "null");
		else
			fprintf(f, "%" PRIu64, st->cnp_gap_min_ns);
		fprintf(f, "}%s\n", i + 1 < sim->nb_flows ? "," : "");
	}
	fprintf(f, "  ],\n  \"queues\": [\n");
	for (i = 0; i < sim->nb_queues; i++) {
		const struct sim_port *p = &sim->ports[sim->queues[i]];

		fprintf(f, "    {\"name\": ");
		json_str(f, p->name);
		fprintf(f,
				", \"rate_bps\": %" PRIu64 ", \"util\": %" PRIu64 ".%06" PRIu64
				", \"p50_bytes\": %" PRIu64 ", \"p99_bytes\": %" PRIu64
				", \"max_bytes\": %" PRIu64 ", \"tx_pkts\": %" PRIu64
				", \"tx_bytes\": %" PRIu64 ", \"marks\": %" PRIu64
				", \"drops\": %" PRIu64 ", \"int_hops\": %" PRIu64
				", \"ifa_hops\": %" PRIu64 "}%s\n",
				p->rate_bps, qs[i].util_ppm / 1000000, qs[i].util_ppm % 1000000,
				qs[i].p50, qs[i].p99, p->q_max, p->tx_pkts, p->tx_bytes, p->marks,
				p->drops, p->int_hops, p->ifa_hops,
				i + 1 < sim->nb_queues ? "," : "");
	}
	fprintf(f,
			"  ],\n  \"totals\": {\"events\": %" PRIu64 ", \"frames\": %" PRIu64
			", \"drops\": %" PRIu64 ", \"marks\": %" PRIu64 ", \"cnps\": %" PRIu64
			", \"acks\": %" PRIu64 ", \"naks\": %" PRIu64 ", \"probe_req\": %" PRIu64
			", \"probe_resp\": %" PRIu64 ", \"unroutable\": %" PRIu64
			", \"unknown_flow\": %" PRIu64 ", \"malformed\": %" PRIu64
			", \"pool_empty\": %" PRIu64 ", \"ifa_dropped\": %" PRIu64
			", \"cnp_gap_ns\": %" PRIu64 ", \"cnp_gap_violations\": %" PRIu64 "}\n}\n",
			sim->st.events, sim->st.pkts_in, sim->st.drops, sim->st.marks, sim->st.cnps,
			sim->st.acks, sim->st.naks, sim->st.probe_req, sim->st.probe_resp,
			sim->st.unroutable, sim->st.unknown_flow, sim->st.bad_pkts,
			sim->st.pool_empty, sim->st.ifa_dropped, sim->scn->host.cnp_gap_ns,
			sim->st.cnp_gap_violations);
	if (fclose(f) != 0)
		return -errno;
	return 0;
}

static int
write_plot(struct pcc_sim *sim)
{
	FILE *f = open_in(sim, "plot.gp", "w");
	uint64_t qmax = 0;
	uint32_t i, n;
	bool first;

	if (f == NULL)
		return -errno;
	fprintf(f,
			"# SPDX-License-Identifier: BSD-3-Clause\n"
			"# gnuplot script written by the dpdk-pcc simulator; run it in this\n"
			"# directory: gnuplot plot.gp\n"
			"set datafile separator ','\n"
			"set terminal pngcairo size 1200,600 noenhanced\n"
			"set grid\nset key outside right\nset xlabel 'time (us)'\n");
	fprintf(f,
			"set output 'rate.png'\nset title '%s: rate per flow (sent into the "
			"fabric)'\n"
			"set ylabel 'Gb/s'\n",
			sim->scn->name);
	/* rows are time-major: flow i is every nb_flows-th row from row i */
	fprintf(f, "plot ");
	n = RTE_MIN(sim->nb_flows, 64u);
	for (i = 0; i < n; i++)
		fprintf(f,
				"%s'flows.csv' skip 1 every %u::%u using 1:4 with lines title 'f%u "
				"%s->%s'",
				i ? ", \\\n     " : "", sim->nb_flows, i, i,
				sim->hosts[sim->flows[i].c.src].name,
				sim->hosts[sim->flows[i].c.dst].name);
	fprintf(f,
			"\nset output 'queue.png'\nset title '%s: switch egress queue depth'\n"
			"set ylabel 'KB'\n",
			sim->scn->name);
	/* the queues that held data: above two 1 KB frames at some point */
	for (i = 0; i < sim->nb_queues; i++)
		qmax = RTE_MAX(qmax, sim->ports[sim->queues[i]].q_max);
	fprintf(f, "plot ");
	first = true;
	for (i = 0; i < sim->nb_queues; i++) {
		const struct sim_port *p = &sim->ports[sim->queues[i]];

		if (p->q_max == 0 || (qmax >= 2000 && p->q_max < 2000))
			continue;
		fprintf(f,
				"%s'queues.csv' skip 1 every %u::%u using 1:($4/1000.0) with lines "
				"title '%s'",
				first ? "" : ", \\\n     ", sim->nb_queues, i, p->name);
		first = false;
	}
	if (first)
		fprintf(f, "0 title 'no queue built up'");
	fprintf(f,
			"\nset output 'fairness.png'\nset title \"%s: Jain's index over the "
			"active flows, total throughput\"\n"
			"set ylabel \"Jain's index\"\nset yrange [0:1.05]\nset y2label 'Gb/s'\n"
			"set y2tics\nset ytics nomirror\n"
			"plot 'fairness.csv' skip 1 using 1:3 with lines title 'Jain', \\\n"
			"     'fairness.csv' skip 1 using 1:4 axes x1y2 with lines title 'total "
			"Gb/s'\n",
			sim->scn->name);
	if (fclose(f) != 0)
		return -errno;
	return 0;
}

static bool
have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX], file[PATH_MAX + 16];
	const char *p, *e;

	if (path == NULL)
		path = "/usr/bin:/bin";
	for (p = path; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		size_t n;

		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || n >= sizeof(dir))
			continue;
		memcpy(dir, p, n);
		dir[n] = '\0';
		snprintf(file, sizeof(file), "%s/gnuplot", dir);
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

static int
run_gnuplot(struct pcc_sim *sim)
{
	pid_t pid;
	int status;

	if (!have_gnuplot()) {
		fprintf(stderr,
				"pcc.sim: gnuplot not installed: no plots (apt-get install "
				"gnuplot-nox, then: cd %s && gnuplot plot.gp)\n",
				sim->outdir);
		return 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (fchdir(sim->out.dfd) != 0)
			_exit(127);
		umask(077); /* the plots are 0600 like every output */
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pcc.sim: gnuplot failed in %s (plots not made)\n", sim->outdir);
		return 0;
	}
	return 0;
}

int
sim_out_finish(struct pcc_sim *sim, FILE *out)
{
	struct sim_out *o = &sim->out;
	uint64_t end = sim->end, ws = o->window_done ? o->win_start_ns : 0, w;
	struct flow_sum *fs;
	struct queue_sum *qs;
	double sum = 0, sq = 0;
	uint64_t jain_ppm = JAIN_NONE;
	uint32_t i, jn = 0;
	int ret = 0;

	if (sim_now(sim) < end)
		end = sim_now(sim); /* finished early (the app stopped) */
	sim_ports_settle(sim);      /* now: after every event up to end */
	if (o->enabled && o->last_sample_ns < end)
		sample_rows(sim, end);
	if (o->progress_printed)
		sim_out_progress(sim, true); /* a long run: say how it ended */
	if (o->window_done && ws > end)
		ws = 0;
	w = end - ws;
	for (i = 0; i < sim->nb_ports; i++)
		sim_hist_touch(sim, &sim->ports[i]);
	fs = calloc(RTE_MAX(sim->nb_flows, 1u), sizeof(*fs));
	qs = calloc(RTE_MAX(sim->nb_queues, 1u), sizeof(*qs));
	if (fs == NULL || qs == NULL) {
		free(fs);
		free(qs);
		return -ENOMEM;
	}
	for (i = 0; i < sim->nb_flows; i++) {
		const struct sim_flow *f = &sim->flows[i];
		uint64_t from = RTE_MAX(ws, f->c.start_ns), to = end;

		if (f->st.done && f->st.last_rx_ns < to)
			to = f->st.last_rx_ns;
		if (from >= to)
			continue;
		fs[i].in_window = true;
		fs[i].thpt_mbps = mbps(f->st.rx_bytes - f->win_rx, to - from);
		sum += (double)fs[i].thpt_mbps;
		sq += (double)fs[i].thpt_mbps * (double)fs[i].thpt_mbps;
		jn++;
	}
	if (jn > 0 && sq > 0)
		jain_ppm = (uint64_t)(sum * sum / ((double)jn * sq) * 1e6 + 0.5);
	for (i = 0; i < sim->nb_queues; i++) {
		const struct sim_port *p = &sim->ports[sim->queues[i]];

		if (w > 0)
			qs[i].util_ppm = (uint64_t)(((unsigned __int128)(p->tx_bytes -
								     p->win_tx_bytes) *
								    8 * SIM_NS_PER_S * 1000000) /
					((unsigned __int128)p->rate_bps * w));
		/* a bucket's upper edge, but never above the largest depth seen */
		qs[i].p50 = RTE_MIN(sim_hist_percentile(p->hist, 0.50), p->q_max);
		qs[i].p99 = RTE_MIN(sim_hist_percentile(p->hist, 0.99), p->q_max);
	}
	if (out != NULL)
		print_table(sim, out, fs, qs, jain_ppm, jn, ws);
	if (sim->outdir[0] != '\0') {
		sim_out_close(sim);
		ret = write_json(sim, fs, qs, jain_ppm, jn, ws);
		if (ret == 0)
			ret = write_plot(sim);
		if (ret == 0 && sim->scn->out.plots)
			ret = run_gnuplot(sim);
		if (ret != 0)
			SIM_LOG(ERR, "%s: %s", sim->outdir, strerror(-ret));
	}
	free(fs);
	free(qs);
	return ret;
}

void
sim_out_close(struct pcc_sim *sim)
{
	if (sim->out.flows_csv != NULL)
		fclose(sim->out.flows_csv);
	if (sim->out.queues_csv != NULL)
		fclose(sim->out.queues_csv);
	if (sim->out.cnps_csv != NULL)
		fclose(sim->out.cnps_csv);
	if (sim->out.fair_csv != NULL)
		fclose(sim->out.fair_csv);
	sim->out.fair_csv = NULL;
	sim->out.flows_csv = NULL;
	sim->out.queues_csv = NULL;
	sim->out.cnps_csv = NULL;
	sim->out.enabled = false;
}
