# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""DOCA PCC applications, unchanged, live and in the simulator (issue 17).

tests/doca/apps holds four applications written against DOCA's device
headers only, the way NVIDIA's public samples write them: rtt_tmpl (an
RTT-template reaction point with dpdk-pcc's rtt equations), echo_np (an
NP application echoing the probe custom header), telem_rp and telem_np
(a switch-telemetry pair on IFA2 per-hop metadata).  Between them they use
permission 2 for counters, non-static ALWAYS_INLINE functions in a shared
header called from FORCE_INLINE ones, printf and trace from user_init,
the port-info callback with NIC counters, the memory declaration calls,
doca_pcc_dev_custom_header_set(), and the NP mailbox.

The suite installs the build into a staging directory and builds the
applications out of tree with gcc and with clang exactly as
doc/doca-compat.md says (meson, dependency('pcc-doca')), then:

- live, on a ring pair: rtt_tmpl with echo_np, through the console: the
  load-time printf and trace, the NP and RP mailboxes, the port-info
  callback, every answer echoing the flow's custom header, counters
  counting and rates rising from NEW_FLOW_RATE; telem_np's hop limit set
  through its NP mailbox;
- in the simulator: rtt_tmpl gives the same summary as the built-in rtt
  on config/scenarios/rtt.yaml (both compilers); the telemetry pair, its
  hop limit set through the host API (hosts.np_mailbox), keeps a 2:1
  incast's queue short without ECN where no congestion control fills the
  buffer and drops.
"""

import json
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402
from framework.stage import StageError, stage_install  # noqa: E402
from framework.stats import parse_table, row_by  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402

PROMPT = 'pcc> '
COMPILERS = ('gcc', 'clang')
MODULES = ('rtt_tmpl', 'echo_np', 'telem_rp', 'telem_np')
NEW_FLOW_RATE = 104857          # 10 % of line rate (fxp20)
LINE_MBPS = 100000


def counters(out):
    """name -> value of a `show counters` table."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^\d+\s+(\w+)\s+(\d+)\s*$', out, re.M)}


class TestDocaApps(TestSuite):

    time_limit = 300

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        meson = shutil.which('meson')
        if meson is None:
            raise SkipTest('meson not found')
        self.src = os.path.join(self.source_dir, 'tests', 'doca', 'apps')
        try:
            self.env = stage_install(meson, self.build_dir,
                                     os.path.join(self.work_dir, 'install'))
        except StageError as e:
            raise AssertionError(str(e))
        self.meson = meson
        self.built = {}

    # ---- helpers ---------------------------------------------------------

    def build(self, cc):
        """The applications built out of tree with compiler cc; the build
        directory (cached)."""
        if cc in self.built:
            return self.built[cc]
        if shutil.which(cc) is None:
            raise SkipTest('%s not found' % cc)
        bdir = os.path.join(self.work_dir, 'apps-' + cc)
        shutil.rmtree(bdir, ignore_errors=True)
        env = dict(self.env, CC=cc)
        for cmd in ([self.meson, 'setup', bdir, self.src], [self.meson, 'compile', '-C', bdir]):
            res = run_cmd(cmd, timeout=300, env=env)
            self.verify(res.returncode == 0, '%s failed with %s:\n%s'
                        % (' '.join(cmd), cc, res.describe()))
        self.built[cc] = bdir
        return bdir

    def so(self, cc, name):
        return os.path.join(self.build(cc), name + '.so')

    def console(self, args):
        s = self.app.spawn(list(args) + ['--idle-sleep', '50', '-i'], lcores='0-1',
                           timeout=60)
        s.expect_exact(PROMPT, timeout=60)
        return s

    def cmd(self, s, line, timeout=20):
        return s.command(line, PROMPT, timeout=timeout)

    def quit(self, s):
        s.sendline('quit')
        self.assert_equal(s.wait_exit(timeout=30), 0, 'exit status after quit')

    def sim(self, scenario, extra=(), out='none'):
        res = self.app.run(['--sim', scenario, '--sim-out', out, '--stats-period', '0'] +
                           list(extra), lcores='0', timeout=300)
        self.verify(res.returncode == 0, 'simulator run of %s:\n%s'
                    % (scenario, res.describe()))
        return res.stdout + res.stderr

    def scenario(self, name, text):
        path = os.path.join(self.work_dir, name + '.yaml')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path

    # ---- tests -----------------------------------------------------------

    def test_build_out_of_tree(self):
        """gcc and clang build every application with -Werror against the
        installed pcc-doca.pc, as doc/doca-compat.md shows."""
        with open(os.path.join(self.source_dir, 'doc', 'doca-compat.md'),
                  encoding='utf-8') as f:
            guide = f.read()
        with open(os.path.join(self.src, 'meson.build'), encoding='utf-8') as f:
            ours = f.read()
        for token in ("dependency('pcc-doca')", "name_prefix: ''"):
            self.check(token in guide and token in ours,
                       'the guide and tests/doca/apps/meson.build both use %s' % token)
        for cc in COMPILERS:
            for m in MODULES:
                path = self.so(cc, m)
                self.check(os.path.isfile(path), '%s: %s not built' % (cc, path))

    def test_live_rtt_tmpl_echo_np(self):
        """rtt_tmpl + echo_np on a ring pair, through the console, for
        both compilers' builds."""
        for cc in COMPILERS:
            s = self.console(['--ring-pair', '--plugin', self.so(cc, 'rtt_tmpl'),
                              '--algo', 'rtt_tmpl_0',
                              '--algo-param', 'NEW_FLOW_RATE=%d' % NEW_FLOW_RATE,
                              '--np-app', self.so(cc, 'echo_np'),
                              '--probe', '0:ccmad:custom=4',
                              '--gen-flows', '2', '--gen-rate', '0'])
            try:
                self.live_rtt_tmpl(cc, s)
                self.quit(s)
            finally:
                s.close()

    def live_rtt_tmpl(self, cc, s):
        # printf and trace made by doca_pcc_dev_user_init() while loading
        self.check('[load] rtt_tmpl: algorithm 0xb0f1 in slot 0' in s.output,
                   '%s: no load-time printf:\n%s' % (cc, s.output[-2000:]))
        self.check(re.search(r'\[load\] fmt#0 0xb0f1 0x6 0xa', s.output),
                   '%s: no load-time trace record' % cc)
        # the NP application's mailbox (new tag; answer: old tag, requests)
        out = self.cmd(s, 'mailbox send 1 0 44332211')
        self.check('handler returned 8, 8 response bytes' in out, '%s: %s' % (cc, out))
        # the RP mailbox: id, port_info calls, port 0 speed, logical ports
        out = self.cmd(s, 'mailbox send 0 0 01000000')
        m = re.search(r'\n\s+f1b00000 ([0-9a-f]{8}) 64000000 01000000', out)
        self.verify(m, '%s: RP mailbox: %s' % (cc, out))
        calls = int.from_bytes(bytes.fromhex(m.group(1)), 'little')
        self.check(calls >= 1, '%s: port_info_changed calls %d' % (cc, calls))
        # counters count; every answer echoes the flow's custom header
        c = {}
        for _ in range(300):
            c = counters(self.cmd(s, 'show counters 0 0'))
            if c.get('RTT_EVENTS', 0) >= 50:
                break
            time.sleep(0.05)  # poll interval, not a synchronisation
        self.verify(c.get('RTT_EVENTS', 0) >= 50, '%s: counters %s' % (cc, c))
        self.check(c.get('HDR_ECHO') == c.get('RTT_EVENTS') or
                   c.get('RTT_EVENTS', 0) - c.get('HDR_ECHO', 0) <= 1,
                   '%s: %s answers of %s echoed the custom header' %
                   (cc, c.get('HDR_ECHO'), c.get('RTT_EVENTS')))
        self.check(c.get('INC', 0) > 0, '%s: no increase: %s' % (cc, c))
        # rates rose from NEW_FLOW_RATE (10 % of line rate)
        out = self.cmd(s, 'show flows')
        rates = [float(r) for r in
                 re.findall(r'^\d+\s+0\s+\d+\s+0\s+([\d.]+)\s', out, re.M)]
        self.verify(len(rates) == 2, '%s: flows: %s' % (cc, out))
        for r in rates:
            self.check(r > LINE_MBPS * NEW_FLOW_RATE // (1 << 20),
                       '%s: rate %.1f Mb/s did not rise from %d' %
                       (cc, r, LINE_MBPS * NEW_FLOW_RATE // (1 << 20)))

    def test_live_telem_np_mailbox(self):
        """telem_np's hop limit through its NP mailbox from the console."""
        cc = COMPILERS[-1]
        s = self.console(['--ring-pair', '--plugin', self.so(cc, 'telem_rp'),
                          '--algo', 'telem_rp_0',
                          '--np-app', self.so(cc, 'telem_np'), '--probe', '0:ifa2',
                          '--gen-flows', '1', '--gen-rate', '1000'])
        try:
            out = self.cmd(s, 'mailbox send 1 0 fe000000')
            self.check(re.search(r'handler returned 8, 8 response bytes\n\s+fe000000', out),
                       out)
            # the handler's printf, through the logger thread
            if not any('telem_np: hop limit 254' in l for l in s.logged):
                s.expect_exact('telem_np: hop limit 254', timeout=20)
            # 4 bytes exactly, as the sample takes it: FAIL otherwise
            out = self.cmd(s, 'mailbox send 1 0 fe')
            self.check('handler returned -5' in out, out)
            self.quit(s)
        finally:
            s.close()

    def test_sim_rtt_tmpl_same_as_rtt(self):
        """rtt_tmpl (a plug-in, both compilers) and the built-in rtt give
        the same simulator summary on config/scenarios/rtt.yaml."""
        base = os.path.join(self.source_dir, 'config', 'scenarios', 'rtt.yaml')
        with open(base, encoding='utf-8') as f:
            text = f.read()
        self.verify('  - {slot: 0, name: rtt}' in text, 'rtt.yaml changed shape')
        runs = {'rtt': base}
        for cc in COMPILERS:
            mine = text.replace('algorithms:', 'plugins: [%s]\n\nalgorithms:'
                                % self.so(cc, 'rtt_tmpl'))
            mine = mine.replace('{slot: 0, name: rtt}', '{slot: 0, name: rtt_tmpl_0}')
            runs['rtt_tmpl-' + cc] = self.scenario('rtt_tmpl_' + cc, mine)
        summaries = {}
        for name, path in runs.items():
            out = os.path.join(self.work_dir, 'sim-' + name)
            shutil.rmtree(out, ignore_errors=True)
            log = self.sim(path, out=out)
            with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
                summaries[name] = json.load(f)
            summaries[name].pop('scenario')
            self.log('%s: %s' % (name, [l for l in log.splitlines()
                                        if l.startswith('Totals')]))
        for name, s in summaries.items():
            self.check(s == summaries['rtt'], '%s: summary differs from rtt' % name)
        flows = summaries['rtt']['flows']
        self.check(all(f['probe_resp'] > 100 for f in flows), 'probes: %s' % flows)

    def test_sim_telemetry_loop(self):
        """telem_rp + telem_np close their loop on IFA2 switch metadata
        (the doca profile): a 2:1 incast without ECN keeps a short queue
        and no drops; without congestion control it fills the buffer."""
        cc = COMPILERS[-1]
        text = '''
description: telemetry pair, 2:1 incast, no ECN
duration: 4ms
topology: {type: incast, senders: 2, receivers: 1, host_link: {rate: 100G, delay: 1us}}
switch: {ecn: {mode: off}, ifa2: true, ifa2_profile: doca}
hosts: {np: engine, np_app: %s, np_mailbox: "fe000000"}
plugins: [%s]
algorithms:
  - {slot: 0, name: %s}
flows:
  - {src: [s0, s1], dst: r0, size: infinite}
'''
        results = {}
        for algo in ('telem_rp_0', 'noop'):
            path = self.scenario('telem-' + algo, text % (
                self.so(cc, 'telem_np'), self.so(cc, 'telem_rp'), algo))
            out = os.path.join(self.work_dir, 'sim-' + algo)
            shutil.rmtree(out, ignore_errors=True)
            log = self.sim(path, ['--probe', '0:ifa2'], out=out)
            with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
                results[algo] = (json.load(f), log)
        summary, log = results['telem_rp_0']
        # the hop limit went to telem_np through the host API
        self.check('NP mailbox request of 4 bytes, handler returned 8' in log, log[-3000:])
        self.check('telem_np: hop limit 254' in log, 'no hop limit printf')
        rp = row_by(parse_table(log, 'Reaction point per port'), 'Port', 0)
        self.verify(rp is not None, 'no reaction point table:\n%s' % log[-3000:])
        ev_rtt, probe_tx, rate_upd = (int(rp[k]) for k in ('Ev-RTT', 'Probe-tx', 'Rate-upd'))
        self.log('port 0: %d RTT events, %d probes, %d rate updates'
                 % (ev_rtt, probe_tx, rate_upd))
        self.check(ev_rtt > 100 and rate_upd > 100, 'the loop did not run')
        queue = {q['name']: q for q in summary['queues']}['sw0->r0']
        thpt = [f['thpt_gbps'] for f in summary['flows']]
        self.log('telem_rp: %s Gb/s, queue p99 %d B, drops %d'
                 % (thpt, queue['p99_bytes'], queue['drops']))
        self.check(queue['drops'] == 0 and queue['p99_bytes'] < 1000000,
                   'telem_rp: queue %s' % queue)
        self.check(sum(thpt) > 85 and all(30 < t < 70 for t in thpt),
                   'telem_rp: throughput %s' % thpt)
        noop = {q['name']: q for q in results['noop'][0]['queues']}['sw0->r0']
        self.log('noop: queue p99 %d B, drops %d' % (noop['p99_bytes'], noop['drops']))
        self.check(noop['drops'] > 0 and noop['p99_bytes'] > 10 * queue['p99_bytes'],
                   'noop: queue %s' % noop)
