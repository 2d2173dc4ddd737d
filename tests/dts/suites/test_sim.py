# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""dpdk-pcc on the fabric simulator (--sim), closed loop: the real engine
and the reference algorithms against the modelled fabric, in
deterministic mode.  The acceptance of the simulator (issue 5), each
checked from the run directory the app writes (summary.json, queues.csv,
cnps.csv), plus the command line around --sim.

Numbers checked (doc/simulator.md, "Closed-loop results", has the
measured values):

* HPCC, 2 long flows, 100G (hpcc.yaml): each flow 47.5 +- 1.5 Gb/s,
  median bottleneck queue < 2 data frames, total 95.1 +- 1 % of the
  link (REFERENCE.md section 3).
* DCQCN, 2 flows, the second 1 ms later (dcqcn.yaml): Jain's index >= 0.95
  over the last half, utilisation >= 90 %, no buffer drop.
* DCTCP (dctcp.yaml, K = 300 KB step marking): bottleneck queue maximum
  over the last half <= K + N packets + one data frame per flow (N = 2),
  utilisation >= 95 %.
* TIMELY (timely.yaml, T_low 50 us, T_high 500 us): over the last half
  the queueing delay never exceeds T_high and its p99 stays within
  1.25 x T_low (the rate is cut once the RTT passes T_low).
* Swift (swift.yaml, target 20 us): RTT = base (6 us of propagation) +
  queueing delay; its median over the last half within 16..22 us (target
  -20 % .. +10 %), its p99 at most 25 us.
* 16:1 incast with each reference algorithm: no drop with the default
  32 MB buffer, all 16 flows finish, FCTs reported (summary.json and the
  table).
* The NP never sends two CNPs to one QP within hosts.cnp_gap: every gap
  in cnps.csv, and the cnp_gap_violations counters; for the hardware-NP
  model and for the engine's NP runner (hosts.np: engine).
* One scenario and seed run twice: byte-identical flows.csv, queues.csv,
  cnps.csv, summary.json and plot.gp.
"""

import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402

SRC_DIR = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
SCENARIOS = os.path.join(SRC_DIR, 'config', 'scenarios')
LINK_BPS = 100e9
ALGOS = ('rtt', 'dcqcn', 'timely', 'swift', 'hpcc', 'dctcp')
OUTPUT_FILES = ('flows.csv', 'queues.csv', 'cnps.csv', 'summary.json',
                'plot.gp')


def scenario(name):
    return os.path.join(SCENARIOS, name + '.yaml')


def delay_us(nbytes):
    """Queueing delay of nbytes at the 100G bottleneck, us."""
    return nbytes * 8 / LINK_BPS * 1e6


class Run:
    """A finished simulator run: its directory and what it holds."""

    def __init__(self, res, out_dir):
        self.res = res
        self.dir = out_dir
        with open(os.path.join(out_dir, 'summary.json')) as f:
            self.summary = json.load(f)

    def queue(self, name):
        for q in self.summary['queues']:
            if q['name'] == name:
                return q
        raise KeyError(name)

    def flows(self):
        return self.summary['flows']

    def csv_rows(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return list(csv.DictReader(f))

    def window_queue_max(self, qname):
        """Largest depth of queue qname over the summary's window (the
        last half): the per-sample maxima of queues.csv."""
        ws = self.summary['window_start_ns'] / 1000.0
        return max(int(r['max_bytes']) for r in self.csv_rows('queues.csv')
                   if r['name'] == qname and float(r['time_us']) > ws)

    def data_frame(self):
        """The largest data frame of the run (bytes): tx_bytes/tx_pkts of
        the flows, rounded up."""
        return max(-(-f['tx_bytes'] // f['tx_pkts'])
                   for f in self.flows() if f['tx_pkts'] > 0)


class TestSim(TestSuite):

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        self.runs = {}

    def sim(self, scen, tag, extra=(), lcores='0-1', timeout=120,
            expect_ok=True):
        """Run dpdk-pcc --sim scen into work_dir/tag; returns a Run."""
        out = self.work_path(tag)
        args = ['--sim', scen, '--sim-out', out] + list(extra)
        res = self.app.run(args, lcores=lcores, timeout=timeout)
        if expect_ok:
            self.verify(res.returncode == 0,
                        'dpdk-pcc --sim %s: exit %s\n%s' %
                        (os.path.basename(scen), res.returncode,
                         res.describe()))
            return Run(res, out)
        return res

    def cached(self, name):
        """The run of a shipped scenario (once per suite)."""
        if name not in self.runs:
            self.runs[name] = self.sim(scenario(name), name)
        return self.runs[name]

    def derived(self, base, tag, edit):
        """A scenario file derived from a shipped one by edit(text)."""
        with open(scenario(base)) as f:
            text = f.read()
        text = edit(text)
        path = self.work_path(tag + '.yaml')
        with open(path, 'w') as f:
            f.write(text)
        return path

    # ---- the command line ------------------------------------------

    def test_bad_scenario_names_file_line_column(self):
        path = self.derived('hpcc', 'bad', lambda t: t.replace(
            'topology:', 'topology:\n  bandwith: 100G', 1))
        res = self.sim(path, 'bad-run', expect_ok=False)
        self.assert_equal(res.returncode, 2, 'exit status for a bad file')
        self.verify(re.search(re.escape(path) + r':\d+:\d+: ', res.stderr),
                    'no FILE:LINE:COLUMN in stderr:\n%s' % res.stderr)
        self.verify("'bandwith'" in res.stderr,
                    'the unknown key is not named:\n%s' % res.stderr)

    def test_conflicting_options_refused(self):
        cases = (
            (['--sim', scenario('hpcc'), '--ring-pair'], '--ring-pair'),
            (['--sim', scenario('hpcc'), '--algo', 'dcqcn'], '--algo'),
            (['--sim', scenario('hpcc'), '--gen-flows', '2'], '--gen-flows'),
            (['--sim', scenario('hpcc'), '--np-cnp-gap-us', '5'],
             '--np-cnp-gap-us'),
            (['--seed', '3'], '--sim'),
            (['--sim', scenario('hpcc'), '--sim-mode', 'fast'], "'fast'"),
            (['--sim', scenario('hpcc'), '--sim-quantum', '0'], "'0'"),
            (['--sim', scenario('hpcc'), '-i'], '--interactive with --sim'),
            (['--sim', scenario('hpcc'), '--cmdline-file', '/dev/null'],
             '--cmdline-file with --sim'),
        )
        for args, token in cases:
            res = self.app.run(args, eal=True, timeout=60)
            self.check(res.returncode == 2, '%s: exit %s, expected 2' %
                       (args, res.returncode))
            self.check(token in res.stderr, '%s: stderr does not name %s:\n%s'
                       % (args, token, res.stderr))

    def test_profiles_never_mixed(self):
        """DCQCN's default profile (ns3) with the paper's 50 us CNP gap is
        refused, naming the value; profile: paper takes that gap and its
        parameters; an unknown profile lists the known ones."""
        base = 'dumbbell-2flow'
        mix = self.derived(base, 'mix', lambda t: t.replace(
            '  ack_every: 1\n', '  ack_every: 1\n  cnp_gap: 50us\n'))
        res = self.sim(mix, 'mix-run', expect_ok=False)
        self.check(res.returncode == 2, 'a mixed profile: exit %s, expected '
                   '2' % res.returncode)
        self.check('hosts.cnp_gap 50000ns mixes profiles: dcqcn profile ns3'
                   in res.stderr, 'the mix is not named:\n%s' % res.stderr)
        bad = self.derived(base, 'badprof', lambda t: t.replace(
            'name: dcqcn}', 'name: dcqcn, profile: nosuch}'))
        res = self.sim(bad, 'badprof-run', expect_ok=False)
        self.check(res.returncode == 2 and "algorithm dcqcn has no profile "
                   "'nosuch' (profiles: ns3, paper, none)" in res.stderr,
                   'unknown profile: exit %s\n%s' % (res.returncode,
                                                      res.stderr))

        def paper(t):
            t = t.replace('name: dcqcn}', 'name: dcqcn, profile: paper}')
            return t.replace('duration: 10ms', 'duration: 2ms')
        run = self.sim(self.derived(base, 'paper', paper), 'paper-run')
        self.check('slot 0: dcqcn, profile paper, base RTT 6273 ns (topology)'
                   in run.res.stdout and 'NP CNP gap 50000 ns' in
                   run.res.stdout, 'profile paper not applied:\n%s' %
                   run.res.stdout)
        self.check(run.summary['totals']['cnp_gap_ns'] == 50000,
                   'paper profile: hosts.cnp_gap %s ns' %
                   run.summary['totals']['cnp_gap_ns'])
        run = self.sim(self.derived(base, 'ns3', lambda t: t.replace(
            'duration: 10ms', 'duration: 2ms')), 'ns3-run')
        self.check(run.summary['totals']['cnp_gap_ns'] == 0,
                   'ns3 profile: hosts.cnp_gap %s ns' %
                   run.summary['totals']['cnp_gap_ns'])

    def test_summary_table_and_files(self):
        run = self.cached('hpcc')
        out = run.res.stdout
        for token in ('Simulation hpcc (seed 1)', "Jain's fairness index",
                      'sw0->sw1', 'Output: ' + run.dir):
            self.check(token in out, '%r missing from stdout:\n%s' %
                       (token, out))
        for name in OUTPUT_FILES:
            self.check(os.path.getsize(os.path.join(run.dir, name)) > 0,
                       '%s missing or empty' % name)

    # ---- acceptance: algorithms ---------------------------------------

    def test_hpcc_two_flows(self):
        run = self.cached('hpcc')
        flows = [float(f['thpt_gbps']) for f in run.flows()]
        total = sum(flows) * 1e9 / LINK_BPS
        q = run.queue('sw0->sw1')
        mtu = run.data_frame()
        self.log('HPCC: flows %s Gb/s, total %.4f of the link, median queue '
                 '%d B (2 frames = %d B), max %d B' %
                 (flows, total, q['p50_bytes'], 2 * mtu, q['max_bytes']))
        for i, g in enumerate(flows):
            self.check(abs(g - 47.5) <= 1.5,
                       'flow f%d: %.3f Gb/s, expected 47.5 +- 1.5' % (i, g))
        self.check(0.941 <= total <= 0.961,
                   'total %.4f of the link, expected 0.951 +- 0.01' % total)
        self.check(q['p50_bytes'] < 2 * mtu, 'median queue %d B, 2 frames %d B'
                   % (q['p50_bytes'], 2 * mtu))

    def test_dcqcn_staggered(self):
        run = self.cached('dcqcn')
        s = run.summary
        q = run.queue('sw0->sw1')
        self.log('DCQCN: Jain %s over the last half, utilisation %s, drops %d'
                 % (s['jain'], q['util'], s['totals']['drops']))
        self.check(s['jain'] is not None and s['jain'] >= 0.95,
                   "Jain's index %s, expected >= 0.95" % s['jain'])
        self.check(q['util'] >= 0.90, 'utilisation %s, expected >= 0.90'
                   % q['util'])
        self.check(s['totals']['drops'] == 0, '%d buffer drops'
                   % s['totals']['drops'])

    def test_dctcp_queue_near_k(self):
        # a 16 us window (200 KB at line rate): two flows fill the queue
        # to K; with the topology's 6.27 us they stay below it (dctcp.yaml,
        # the fidelity suite)
        run = self.sim(self.derived('dctcp', 'dctcp-k', lambda t: t.replace(
            '    name: dctcp\n', '    name: dctcp\n    params: {rtt_ns: 16000}\n')),
            'dctcp-k')
        k, n = 300000, len(run.flows())
        mtu = run.data_frame()
        qmax = run.window_queue_max('sw0->sw1')
        bound = k + n * mtu + n * mtu
        q = run.queue('sw0->sw1')
        self.log('DCTCP: queue max %d B over the last half (K + N packets + '
                 'N frames = %d B), run max %d B, utilisation %s' %
                 (qmax, bound, q['max_bytes'], q['util']))
        self.check(qmax <= bound, 'queue max %d B over the last half, bound '
                   '%d B' % (qmax, bound))
        self.check(qmax > k, 'the queue never reached K (%d B): no marking'
                   % qmax)
        self.check(q['util'] >= 0.95, 'utilisation %s, expected >= 0.95'
                   % q['util'])

    def test_timely_delay_within_targets(self):
        run = self.cached('timely')
        t_low, t_high = 50.0, 500.0
        q = run.queue('sw0->sw1')
        dmax = delay_us(run.window_queue_max('sw0->sw1'))
        d99 = delay_us(q['p99_bytes'])
        self.log('TIMELY: queueing delay over the last half: p99 %.1f us, '
                 'max %.1f us (T_low %.0f, T_high %.0f); utilisation %s' %
                 (d99, dmax, t_low, t_high, q['util']))
        self.check(dmax <= t_high, 'max queueing delay %.1f us > T_high'
                   % dmax)
        self.check(d99 <= 1.25 * t_low, 'p99 queueing delay %.1f us > 1.25 '
                   'T_low' % d99)

    def test_swift_delay_at_target(self):
        run = self.cached('swift')
        target, base = 20.0, 6.0
        q = run.queue('sw0->sw1')
        r50 = base + delay_us(q['p50_bytes'])
        r99 = base + delay_us(q['p99_bytes'])
        self.log('Swift: RTT over the last half: median %.1f us, p99 %.1f us '
                 '(target %.0f us); utilisation %s' %
                 (r50, r99, target, q['util']))
        self.check(0.8 * target <= r50 <= 1.1 * target,
                   'median RTT %.1f us, expected 16..22 us' % r50)
        self.check(r99 <= 1.25 * target, 'p99 RTT %.1f us > 25 us' % r99)

    def test_incast_16to1_each_algorithm(self):
        """16 x 1 MB into one 100G port, with every reference algorithm."""
        def variant(algo):
            def edit(t):
                sw = '  ecn: {mode: red}'
                hosts, params = '', ''
                if algo == 'hpcc':
                    sw = '  int: true\n  ecn: {mode: off}'
                    params = ', params: {fast_react: 0}'
                elif algo == 'dctcp':
                    sw = '  ecn: {mode: step}'
                    hosts = 'hosts:\n  cnp_gap: 0\n\n'
                    params = ''
                t = t.replace('  ecn: {mode: red}', sw)
                return t.replace('algorithms:\n  - {slot: 0, name: dcqcn}',
                                 '%salgorithms:\n  - {slot: 0, name: %s%s}'
                                 % (hosts, algo, params))
            return edit

        for algo in ALGOS:
            path = self.derived('incast-16to1', 'incast-' + algo,
                                variant(algo))
            run = self.sim(path, 'incast-' + algo + '-out')
            flows = run.flows()
            done = [f for f in flows if f['done']]
            fcts = [f['fct_ns'] / 1000.0 for f in done]
            self.log('incast 16:1 %s: %d/16 done, FCT %.1f .. %.1f us, drops '
                     '%d, queue max %d B' %
                     (algo, len(done), min(fcts or [0]), max(fcts or [0]),
                      run.summary['totals']['drops'],
                      run.queue('sw0->r0')['max_bytes']))
            self.check(len(flows) == 16 and len(done) == 16,
                       '%s: %d of %d flows finished' %
                       (algo, len(done), len(flows)))
            self.check(run.summary['totals']['drops'] == 0, '%s: %d drops' %
                       (algo, run.summary['totals']['drops']))
            self.check(all(f['fct_ns'] for f in done), '%s: an FCT missing'
                       % algo)
            rows = [l for l in run.res.stdout.splitlines()
                    if re.match(r'f\d+\s', l)]
            self.check(len(rows) == 16 and all(
                re.search(r'\s\d+\.\d{3}\s', l.split(None, 6)[6])
                for l in rows),
                '%s: the table lacks FCTs:\n%s' % (algo, '\n'.join(rows)))

    # ---- acceptance: NP, determinism ----------------------------------

    def check_cnp_gaps(self, run, what):
        gap_ns = run.summary['totals']['cnp_gap_ns']
        rows = run.csv_rows('cnps.csv')
        last, short = {}, 0
        for r in rows:
            t, qpn = int(r['time_ns']), r['qpn']
            if qpn in last and t - last[qpn] < gap_ns:
                short += 1
            last[qpn] = t
        self.log('%s: %d CNPs to %d QPs, hosts.cnp_gap %d ns, %d closer; '
                 'counter %d' % (what, len(rows), len(last), gap_ns, short,
                                 run.summary['totals']['cnp_gap_violations']))
        self.check(len(rows) > 0, '%s: no CNP at all' % what)
        self.check(len(rows) == run.summary['totals']['cnps'],
                   '%s: %d rows in cnps.csv, %d CNPs in the summary' %
                   (what, len(rows), run.summary['totals']['cnps']))
        self.check(short == 0, '%s: %d CNPs within %d ns of the previous one '
                   'to their QP' % (what, short, gap_ns))
        self.check(run.summary['totals']['cnp_gap_violations'] == 0,
                   '%s: cnp_gap_violations %d' %
                   (what, run.summary['totals']['cnp_gap_violations']))
        for f in run.flows():
            self.check(f['cnp_gap_min_ns'] is None or
                       f['cnp_gap_min_ns'] >= gap_ns,
                       '%s: %s shortest CNP gap %s ns' %
                       (what, f['name'], f['cnp_gap_min_ns']))

    # DCQCN's paper profile: at most one CNP per QP per 50 us
    PAPER = staticmethod(lambda t: t.replace('name: dcqcn}',
                                             'name: dcqcn, profile: paper}'))

    def test_np_cnp_gap_hardware_model(self):
        path = self.derived('incast-16to1', 'incast-paper', self.PAPER)
        run = self.sim(path, 'cnp-hw')
        self.check(run.summary['totals']['cnp_gap_ns'] == 50000,
                   'profile paper: cnp_gap %s ns'
                   % run.summary['totals']['cnp_gap_ns'])
        self.check_cnp_gaps(run, 'hardware NP, 16:1 incast')

    def test_np_cnp_gap_engine_np(self):
        """The receiver's NP is the engine's NP runner on r0's port: its
        CNPs, routed back by the simulator, are logged the same way."""
        path = self.derived('incast-16to1', 'incast-engine-np',
                            lambda t: self.PAPER(t).replace(
                                'algorithms:', 'hosts:\n  np: engine\n\n'
                                'algorithms:'))
        self.check_cnp_gaps(self.sim(path, 'cnp-engine'),
                            'engine NP runner, 16:1 incast')

    def test_same_seed_same_files(self):
        path = self.derived('dcqcn', 'det', lambda t: t.replace(
            'duration: 20ms', 'duration: 3ms'))
        a = self.sim(path, 'det-a')
        b = self.sim(path, 'det-b', lcores='0')
        for name in OUTPUT_FILES:
            with open(os.path.join(a.dir, name), 'rb') as fa, \
                    open(os.path.join(b.dir, name), 'rb') as fb:
                self.check(fa.read() == fb.read(),
                           '%s differs between two runs' % name)

        def table(run):
            return [l for l in run.res.stdout.splitlines()
                    if not l.startswith('Output:') and
                    not l.startswith('dpdk-pcc')]
        self.check(table(a) == table(b), 'the summary tables differ')
        c = self.sim(path, 'det-c', extra=['--seed', '7'])
        with open(os.path.join(a.dir, 'queues.csv'), 'rb') as fa, \
                open(os.path.join(c.dir, 'queues.csv'), 'rb') as fc:
            self.check(fa.read() != fc.read(),
                       'another seed gave the same RED marks')

    def test_service_mode_runs(self):
        path = self.derived('dcqcn', 'svc', lambda t: t.replace(
            'duration: 20ms', 'duration: 2ms'))
        run = self.sim(path, 'svc-out', extra=['--sim-mode', 'service'])
        self.check('service (free-running)' in run.res.stdout,
                   'the mode is not said:\n%s' % run.res.stdout)
        self.check(run.summary['end_ns'] == 2000000, 'ended at %s ns' %
                   run.summary['end_ns'])
        # Free-running: virtual time advances on the service lcore whatever
        # the engine does, so how much traffic fits into 2 ms of virtual
        # time depends on scheduling (a loaded machine can deliver none).
        # Only what does not depend on it is checked: the run ends at the
        # scenario's end and writes its per-flow output.
        self.check(len(run.flows()) > 0, 'no per-flow output')

    def test_readme_figures(self):
        """README.md's demo paragraph says what the demo's two runs give
        (devtools/readme-figures.py --check; it rewrites the paragraph)."""
        res = run_cmd(['/usr/bin/python3',
                       os.path.join(self.source_dir, 'devtools', 'readme-figures.py'),
                       '--check', '--build-dir', self.build_dir], timeout=300)
        self.verify(res.returncode == 0, res.describe())
