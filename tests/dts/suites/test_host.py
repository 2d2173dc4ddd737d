# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""dpdk-pcc with lib/host (app/dpdk-pcc/host.c): /pcc/ telemetry of a
running engine through its socket and the stock dpdk-telemetry.py, a
faulting plug-in that produces the crash report and exit status 3, and an
active/standby pair where the standby takes over after SIGKILL of the
active.  Telemetry needs the EAL's socket, so these runs use their own
EAL arguments without --no-shconf (doc/telemetry.md)."""

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402
from framework.app import AppSession, unique_file_prefix  # noqa: E402
from framework.telemetry import tlm_error, tlm_query, tlm_wait  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402

try:
    import pexpect
except ImportError:
    pexpect = None

TELEMETRY_PY = '/usr/bin/dpdk-telemetry.py'
# two processes may share the 2 cores: sleep when idle, paced generator
TRAFFIC = ['--ring-pair', '--algo', 'dcqcn', '--gen-flows', '4',
           '--gen-qpn', '0x100', '--gen-rate', '1000', '--idle-sleep', '50',
           '--stats-period', '0']


def stat_mode(path):
    return os.stat(path).st_mode & 0o7777


def stat(reply, name):
    return reply.get(name, 0) if isinstance(reply, dict) else 0


class TestHost(TestSuite):

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        self.plugins = os.path.join(self.build_dir, 'tests', 'unit',
                                    'plugins')
        self.sessions = []

    def tear_down(self):
        for s in self.sessions:
            s.close(grace=5)
        self.sessions = []

    def spawn(self, prefix, app_args, lcores='0-1', timeout=30):
        """dpdk-pcc with the telemetry socket (no --no-shconf)."""
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        cmd = [self.app.path, '--no-huge', '-m', '1024', '--no-pci',
               '--file-prefix', prefix, '-l', lcores, '--'] + \
            [str(a) for a in app_args]
        log = io.StringIO()
        child = pexpect.spawn(cmd[0], cmd[1:], timeout=timeout,
                              encoding='utf-8', codec_errors='replace')
        child.logfile_read = log
        s = AppSession(child, ' '.join(cmd), log)
        self.sessions.append(s)
        return s

    def expect_usage_error(self, args, token):
        res = self.app.run(args, timeout=60)
        self.verify(res.returncode == 2, 'exit status %s for %s, expected 2'
                    '\n%s' % (res.returncode, args, res.describe()))
        first = [l for l in res.stderr.splitlines()
                 if l.startswith('dpdk-pcc:')]
        self.verify(first and token in first[0],
                    'no "dpdk-pcc: ..." line naming %r:\n%s'
                    % (token, res.stderr))

    # ---- telemetry ----------------------------------------------------

    def test_telemetry(self):
        prefix = unique_file_prefix('host-tlm')
        s = self.spawn(prefix, TRAFFIC + ['--gen-ce', '10'])
        s.expect(r'dpdk-pcc \S+: ports', timeout=30)
        cnt = tlm_wait(prefix, '/pcc/counters,0,0',
                       lambda r: isinstance(r, dict) and
                       sum(r.get('values', [])) > 0)
        self.verify(cnt is not None and sum(cnt['values']) > 0,
                    '/pcc/counters,0,0: no counter grew: %s' % cnt)
        slots = tlm_query(prefix, '/pcc/slots,0')
        self.log('/pcc/slots,0 -> %s' % slots)
        i = slots['slots'].index(slots['active_slot'])
        self.assert_equal(slots['algo_name'][i], 'dcqcn', 'active algorithm')
        algo = tlm_query(prefix, '/pcc/algo,0,%d' % slots['active_slot'])
        self.assert_equal(algo['algo_id'], slots['algo_id'][i], 'algo_id')
        self.assert_equal(algo['name'], 'dcqcn', '/pcc/algo name')
        # management commands (doc/telemetry.md /pcc/ppcc)
        info = tlm_query(prefix, '/pcc/ppcc,algo_info,0,0')
        self.log('/pcc/ppcc,algo_info,0,0 -> %s' % info)
        self.assert_equal((info['status'], info['name'], info['words'][0]),
                          (0, 'dcqcn', 1), '/pcc/ppcc algo_info')
        pid = [p['name'] for p in [tlm_query(prefix, '/pcc/param,0,0,min_rate_mbps')]]
        self.verify(pid == ['min_rate_mbps'], '/pcc/param min_rate_mbps')
        st = tlm_query(prefix, '/pcc/ppcc,0x7,0,0,1,1234')
        self.assert_equal((st['status'], st['cmd'], st['words']),
                          (0, 'param_set', [1234]), '/pcc/ppcc param_set')
        cur = tlm_query(prefix, '/pcc/param,0,0,min_rate_mbps')
        self.assert_equal(cur['value'], 1234, 'parameter after /pcc/ppcc set')
        bad = tlm_query(prefix, '/pcc/ppcc,param_set,0,0,1,99999999')
        self.log('/pcc/ppcc bad value -> %s' % bad)
        self.verify(bad['status'] == -34 and 'value 99999999' in bad['error'],
                    '/pcc/ppcc out of range: %s' % bad)
        bad = tlm_query(prefix, '/pcc/ppcc,nosuch,0,0')
        self.verify(bad['status'] == -22 and "cmd_type 'nosuch'" in bad['error'],
                    '/pcc/ppcc unknown command: %s' % bad)
        # the condition checked below: four flows, each with bytes sent
        # (a flow exists before its first byte on a loaded machine)
        top = tlm_wait(prefix, '/pcc/flows_top',
                       lambda r: isinstance(r, dict) and r.get('n') == 4 and
                       all(b > 0 for b in r.get('tx_bytes', [])))
        self.log('/pcc/flows_top -> %s' % top)
        self.verify(top is not None and top['n'] == 4,
                    '/pcc/flows_top: expected 4 flows: %s' % top)
        self.assert_equal(sorted(top['qpn']), [256, 257, 258, 259], 'qpns')
        self.verify(all(b > 0 for b in top['tx_bytes']),
                    'a flow without bytes: %s' % top)
        # the two rate fields say the same rate (line rate 100 Gb/s, 2^20)
        for r, bps in zip(top['rate'], top['rate_bps']):
            self.verify(r > 0 and abs(r * 100e9 / (1 << 20) - bps) <= 100e9 / (1 << 20),
                        'rate %d vs rate_bps %d: %s' % (r, bps, top))
        # every value named: counters beside /pcc/counters_info's names
        cnt = tlm_query(prefix, '/pcc/counters,0,0')
        names = tlm_query(prefix, '/pcc/counters_info,0,0')['names']
        self.assert_equal(cnt['names'], names, '/pcc/counters names')
        self.assert_equal(len(cnt['values']), len(names), 'one value per name')
        # every refusal carries a reason
        for cmd, reason in (('/pcc/flow,0,5', 'no flow with port_id 0 qpn 5'),
                            ('/pcc/algo,0,3', 'port 0 slot 3: no algorithm bound'),
                            ('/pcc/counters,0,9', 'slot 9: slots are 0..7 and 15'),
                            ('/pcc/param,0,0,nosuch', "parameter 'nosuch'"),
                            ('/pcc/stats,7', 'port_id 7: not a port'),
                            ('/pcc/stats,7,xstats', 'port_id 7: not a port'),
                            ('/pcc/stats,x,xstats', "port_id 'x': 0.."),
                            ('/pcc/flows_top,99', "n '99': 1..64")):
            bad = tlm_query(prefix, cmd)
            self.verify(tlm_error(bad) is not None and reason in tlm_error(bad) and
                        bad['status'] < 0, '%s: %s' % (cmd, bad))
        st = tlm_query(prefix, '/pcc/stats')
        self.verify(stat(st, 'gen_pkts') > 0 and stat(st, 'ev_cnp') > 0,
                    '/pcc/stats: no packets or CNP events: %s' % st)
        # as /ethdev/xstats: the PMD's names, then the engine's as pcc_<name>
        xs = tlm_query(prefix, '/pcc/stats,0,xstats')
        eth = tlm_query(prefix, '/ethdev/xstats,0')
        self.check(set(eth) <= set(xs), '/ethdev/xstats names missing from /pcc/xstats')
        st0 = tlm_query(prefix, '/pcc/stats,0')
        self.check(set('pcc_' + k for k in st0) <= set(xs) and xs['pcc_gen_pkts'] > 0,
                   '/pcc/stats,0,xstats: %s' % sorted(xs)[:20])
        state = tlm_query(prefix, '/pcc/state')
        self.assert_fields(state, {'process_state': 0,
                                   'process_state_name': 'active',
                                   'ctx_port': [0, 1],
                                   'ctx_role': ['rp', 'np'],
                                   'ctx_state': ['running', 'running']},
                           what='/pcc/state')
        # the stock client
        if os.path.exists(TELEMETRY_PY):
            res = subprocess.run(['/usr/bin/python3', TELEMETRY_PY, '-f',
                                  prefix], input='/pcc/state\n',
                                 capture_output=True, text=True, timeout=30)
            replies = [json.loads(l[l.index('{'):])
                       for l in res.stdout.splitlines()
                       if '"/pcc/state"' in l]
            self.verify(replies, 'dpdk-telemetry.py: no /pcc/state reply:'
                        '\n%s%s' % (res.stdout, res.stderr))
            self.assert_equal(replies[-1]['/pcc/state']['process_state'], 0,
                              'dpdk-telemetry.py /pcc/state')
        self.assert_equal(s.close(), 0, 'exit status after SIGINT')

    # ---- crash report -------------------------------------------------

    def test_crash_report(self):
        plugin = os.path.join(self.plugins, 'plug_fault.so')
        if not os.path.exists(plugin):
            self.skip('plug_fault.so not built')
        report = self.work_path('crash-report.txt')
        if os.path.exists(report):
            os.unlink(report)
        res = self.app.run(TRAFFIC + ['--gen-ce', '50', '--plugin', plugin,
                                      '--crash-file', report,
                                      '--run-time', '60'],
                           lcores='0-1', timeout=90)
        self.log(res.describe())
        self.assert_equal(res.returncode, 3, 'exit status')
        self.verify('crash report in %s' % report in res.stderr,
                    'no line naming the report:\n%s' % res.stderr)
        self.verify('plug_fault_algo' in res.stdout,
                    'the plug-in layout was not applied:\n%s' % res.stdout)
        with open(report) as f:
            text = f.read()
        self.log(text)
        for field in ('algorithm: plug_fault_algo', 'algorithm_id: 0x0000fa17',
                      'slot: 0', 'in_algorithm: yes', 'signal: SIGSEGV',
                      'backtrace:'):
            self.check(field in text, 'report lacks %r' % field)
        self.check(re.search(r'^event: (CNP|RTT)$', text, re.M),
                   'report: the event is not CNP or RTT')
        bt = text[text.index('backtrace:'):] if 'backtrace:' in text else ''
        self.check(len([l for l in bt.splitlines() if '0x' in l]) >= 2,
                   'backtrace has fewer than 2 frames')
        # the main lcore alone polls (-l 0): the same guard holds there
        os.unlink(report)
        res = self.app.run(TRAFFIC + ['--gen-ce', '50', '--plugin', plugin,
                                      '--crash-file', report,
                                      '--run-time', '60'],
                           lcores='0', timeout=90)
        self.assert_equal(res.returncode, 3, 'exit status with -l 0')
        with open(report) as f:
            text = f.read()
        self.check('in_algorithm: yes' in text and 'signal: SIGSEGV' in text and
                   'algorithm: plug_fault_algo' in text,
                   'report with -l 0:\n%s' % text)

    # ---- watchdog -------------------------------------------------------

    def hang_report(self, report, limit_ms, what):
        """The watchdog's report: crash-report style, within the limit."""
        with open(report) as f:
            text = f.read()
        self.log(text)
        m = re.search(r'^watchdog: lcore (\d+) made no poll round for (\d+) ms '
                      r'\(limit (\d+) ms\)$', text, re.M)
        self.verify(m, 'no watchdog line in the report:\n%s' % text)
        took = int(m.group(2))
        self.note('%s: detected after %d ms without a poll round (limit %d ms)'
                  % (what, took, limit_ms))
        # the watchdog judges only time it saw: at most the limit plus a
        # period plus half the limit (doc/host.md)
        self.check(limit_ms <= took < 2 * limit_ms,
                   'detected after %d ms, limit %d' % (took, limit_ms))
        for field in ('registers:', 'backtrace:', 'end'):
            self.check(field in text, 'report lacks %r' % field)
        bt = text[text.index('backtrace:'):] if 'backtrace:' in text else ''
        self.check('/proc/self/fd/' in bt,
                   'the plug-in is not in the hung thread\'s backtrace:\n%s' % bt)
        self.assert_equal(stat_mode(report), 0o600, 'mode of the report')
        return text

    def test_watchdog_hung_algorithm(self):
        """An algorithm whose on_event never returns: reported by the hung
        thread (algorithm, flow, event), exit status 4."""
        plugin = os.path.join(self.plugins, 'plug_hang.so')
        if not os.path.exists(plugin):
            self.skip('plug_hang.so not built')
        report = self.work_path('watchdog-algo.txt')
        res = self.app.run(TRAFFIC + ['--gen-ce', '50', '--plugin', plugin,
                                      '--crash-file', report, '--watchdog-ms', '500',
                                      '--run-time', '60'],
                           lcores='0-1', timeout=90)
        self.log(res.describe())
        self.assert_equal(res.returncode, 4, 'exit status')
        self.verify(re.search(r'dpdk-pcc: lcore \d+ hung: no poll round for 500 ms '
                              r'\(watchdog\); report in ' + re.escape(report),
                              res.stderr), 'no line naming the hang:\n%s' % res.stderr)
        text = self.hang_report(report, 500, 'hung on_event')
        for field in ('in_algorithm: yes', 'algorithm: plug_hang_algo',
                      'algorithm_id: 0x00004a96', 'event: CNP', 'flow_tag: ',
                      'in_np_handler: no'):
            self.check(field in text, 'report lacks %r' % field)

    def test_watchdog_hung_np_handler(self):
        """An NP handler that never returns (probe requests of the rtt
        algorithm): reported with the NP port, exit status 4."""
        plugin = os.path.join(self.plugins, 'plug_hang_np.so')
        if not os.path.exists(plugin):
            self.skip('plug_hang_np.so not built')
        report = self.work_path('watchdog-np.txt')
        args = [a for a in TRAFFIC if a != 'dcqcn']
        args[args.index('--algo') + 1:args.index('--algo') + 1] = ['rtt']
        res = self.app.run(args + ['--np-app', plugin, '--crash-file', report,
                                   '--watchdog-ms', '400', '--run-time', '60'],
                           lcores='0-1', timeout=90)
        self.log(res.describe())
        self.assert_equal(res.returncode, 4, 'exit status')
        text = self.hang_report(report, 400, 'hung NP handler')
        for field in ('in_np_handler: yes', 'np_port: 1', 'in_algorithm: no'):
            self.check(field in text, 'report lacks %r' % field)

    def test_watchdog_ha_takeover(self):
        """With --ha, the ACTIVE whose lcore hangs hands over: the STANDBY
        becomes ACTIVE and its engine runs.  The hang is armed through the
        plug-in's mailbox once the STANDBY waits."""
        plugin = os.path.join(self.plugins, 'plug_hang.so')
        if not os.path.exists(plugin):
            self.skip('plug_hang.so not built')
        name = 'dts-wd-%d' % os.getpid()
        lock_dir = self.work_path('wd-ha')
        os.makedirs(lock_dir, exist_ok=True)
        os.chmod(lock_dir, 0o700)
        for f in os.listdir(lock_dir):
            os.unlink(os.path.join(lock_dir, f))
        ha = ['--ha', '%s:%s' % (name, lock_dir), '--ha-heartbeat-ms', '20',
              '--ha-stale-ms', '100']
        pa, pb = unique_file_prefix('host-wd-a'), unique_file_prefix('host-wd-b')
        report = self.work_path('watchdog-ha.txt')
        a = self.spawn(pa, TRAFFIC + ha + ['--plugin', plugin, '--crash-file', report,
                                           '--watchdog-ms', '300', '-i'])
        a.expect(r'HA \S+: ACTIVE \(generation', timeout=30)
        a.expect_exact('pcc> ', timeout=30)
        b = self.spawn(pb, TRAFFIC + ha)
        b.expect(r'HA \S+: STANDBY: waiting', timeout=30)
        tlm_wait(pa, '/pcc/stats', lambda r: stat(r, 'gen_pkts') > 0)
        a.sendline('mailbox send 0 0 01')
        a.expect(r'lcore \d+ hung: no poll round for 300 ms', timeout=30)
        self.assert_equal(a.wait_exit(30), 4, 'A exit status')
        b.expect(r'HA \S+: ACTIVE \(generation', timeout=10)
        self.hang_report(report, 300, 'hung ACTIVE')
        s1 = tlm_wait(pb, '/pcc/stats', lambda r: stat(r, 'gen_pkts') > 0)
        self.verify(stat(s1, 'gen_pkts') > 0, 'B sends nothing: %s' % s1)
        self.assert_equal(b.close(), 0, 'B exit status')

    def test_trace_reader(self):
        """--trace=pcc\\..*: a flow's CNP -> the algorithm's record (with
        the format its plug-in set) -> rate change -> RTT probe, rendered by
        dpdk-pcc-trace from the CTF trace; babeltrace reads the same."""
        plugin = os.path.join(self.plugins, 'plug_trace.so')
        if not os.path.exists(plugin):
            self.skip('plug_trace.so not built')
        reader = os.path.join(self.build_dir, 'app', 'dpdk-pcc-trace', 'dpdk-pcc-trace')
        tdir = os.path.join(self.work_dir, 'trace')
        shutil.rmtree(tdir, ignore_errors=True)
        res = self.app.run(['--ring-pair', '--flows', '4096', '--gen-flows', '2',
                            '--gen-rate', '100', '--gen-ce', '5', '--plugin', plugin,
                            '--algo', 'plug_trace_algo', '--run-time', '1',
                            '--stats-period', '0'],
                           lcores='0-1', extra=['--trace=pcc\\..*', '--trace-dir', tdir],
                           timeout=60)
        self.assert_equal(res.returncode, 0, res.describe())
        out = run_cmd(['/usr/bin/python3', reader, tdir, '--port', '0', '--qpn', '0x100'],
                      timeout=120)
        self.assert_equal(out.returncode, 0, out.describe())
        lines = [l.split('  ', 1)[1].strip() for l in out.stdout.splitlines() if '  ' in l]
        seq = None
        for i, l in enumerate(lines):
            if not l.endswith('CNP event'):
                continue
            nxt = lines[max(0, i - 2):i + 6]
            rec = [x for x in nxt if x.startswith('algorithm: cnp: rate ')]
            rate = [x for x in nxt if '-> ' in x and x.endswith('Gb/s') and 'rate' in x]
            probe = [x for x in nxt if x.endswith('RTT probe sent (slot 0)')]
            if rec and rate and probe:
                seq = nxt
                break
        self.verify(seq is not None, 'no CNP -> record -> rate -> probe in:\n' +
                    '\n'.join(out.stdout.splitlines()[:60]))
        self.log('\n'.join(seq))
        bt = run_cmd(['babeltrace', tdir], timeout=120)
        self.check(bt.returncode == 0 and 'pcc.engine.rp_rate' in bt.stdout and
                   'fmt = "cnp: rate %u -> %u"' in bt.stdout, 'babeltrace: ' + bt.stderr[-500:])

    def test_plugin_errors(self):
        self.expect_usage_error(TRAFFIC + ['--plugin', '/nonexistent/x.so'],
                                "'/nonexistent/x.so' for --plugin")
        crash = os.path.join(self.plugins, 'plug_crash.so')
        if os.path.exists(crash):
            self.expect_usage_error(TRAFFIC + ['--plugin', crash],
                                    "'%s' for --plugin" % crash)

    # ---- active/standby -----------------------------------------------

    def test_ha_failover(self):
        name = 'dts-host-%d' % os.getpid()
        lock_dir = self.work_path()
        for f in ('pcc-ha-%s.lock' % name,):
            if os.path.exists(os.path.join(lock_dir, f)):
                os.unlink(os.path.join(lock_dir, f))
        ha = ['--ha', '%s:%s' % (name, lock_dir), '--ha-heartbeat-ms', '20',
              '--ha-stale-ms', '100']
        pa, pb = unique_file_prefix('host-ha-a'), unique_file_prefix(
            'host-ha-b')
        a = self.spawn(pa, TRAFFIC + ha)
        a.expect(r'HA \S+: ACTIVE \(generation', timeout=30)
        b = self.spawn(pb, TRAFFIC + ha)
        b.expect(r'HA \S+: STANDBY: waiting', timeout=30)
        st_a = tlm_wait(pa, '/pcc/state', lambda r: True)
        st_b = tlm_wait(pb, '/pcc/state', lambda r: True)
        self.assert_equal(st_a['process_state'], 0, 'A /pcc/state')
        self.assert_equal(st_b['process_state'], 1, 'B /pcc/state')
        self.assert_equal(st_b['ctx_state'], ['created', 'created'],
                          'B contexts')
        gen_b = tlm_query(pb, '/pcc/stats')
        self.assert_equal(stat(gen_b, 'gen_pkts'), 0, 'B packets as STANDBY')
        tlm_wait(pa, '/pcc/stats', lambda r: stat(r, 'gen_pkts') > 0)
        # a parameter changed on the ACTIVE at run time survives failover
        # (the HA journal, doc/host.md)
        st = tlm_query(pa, '/pcc/ppcc,param_set,0,0,1,1234')
        self.assert_equal(st['status'], 0, 'A /pcc/ppcc param_set')
        self.assert_equal(tlm_query(pb, '/pcc/param,0,0,min_rate_mbps')['value'],
                          1000, 'B min_rate_mbps as STANDBY')

        t0 = time.monotonic()
        a.child.kill(signal.SIGKILL)
        # B's first packet, seen through its telemetry (polled, ~1 ms a
        # query): the failover as the wire sees it
        first = None
        while time.monotonic() - t0 < 10:
            try:
                if stat(tlm_query(pb, '/pcc/stats'), 'gen_pkts') > 0:
                    first = time.monotonic() - t0
                    break
            except (OSError, ValueError, KeyError):
                pass
        b.expect(r'HA \S+: ACTIVE \(generation', timeout=10)
        self.verify(first is not None, 'B sent nothing within 10 s of the SIGKILL')
        self.note('failover under traffic: SIGKILL of the ACTIVE to the STANDBY\'s first '
                  'packet %.0f ms (heartbeat 20 ms)' % (first * 1e3))
        # issue 20: at most 100 ms (a warm STANDBY: its engine exists,
        # it only starts); kept as a check with room for a loaded machine
        self.check(first <= 0.25, 'failover took %.0f ms' % (first * 1e3))
        st_b = tlm_wait(pb, '/pcc/state',
                        lambda r: r.get('ctx_state') == ['running', 'running'])
        self.assert_equal(st_b['process_state'], 0, 'B /pcc/state after')
        self.assert_equal(st_b['ctx_state'], ['running', 'running'],
                          'B contexts after')
        self.assert_equal(tlm_query(pb, '/pcc/param,0,0,min_rate_mbps')['value'],
                          1234, 'B min_rate_mbps after failover (journal)')
        s1 = tlm_wait(pb, '/pcc/stats', lambda r: stat(r, 'gen_pkts') > 0)
        self.verify(stat(s1, 'gen_pkts') > 0, 'B sends nothing: %s' % s1)
        s2 = tlm_wait(pb, '/pcc/stats',
                      lambda r: stat(r, 'gen_pkts') > stat(s1, 'gen_pkts'))
        self.verify(stat(s2, 'gen_pkts') > stat(s1, 'gen_pkts'),
                    'B counters do not grow: %s then %s' % (s1, s2))
        self.assert_equal(b.close(), 0, 'B exit status')

    def test_ha_sigint_both_no_takeover(self):
        """SIGINT to the ACTIVE and the STANDBY at once: the STANDBY,
        shutting down, never takes over (no journal replay, no engine
        start on its way out); both exit 0."""
        name = 'dts-int-%d' % os.getpid()
        lock_dir = self.work_path('ha-int')
        os.makedirs(lock_dir, exist_ok=True)
        os.chmod(lock_dir, 0o700)
        ha = ['--ha', '%s:%s' % (name, lock_dir), '--ha-heartbeat-ms', '20',
              '--ha-stale-ms', '100']
        a = self.spawn(unique_file_prefix('host-int-a'), TRAFFIC + ha)
        a.expect(r'HA \S+: ACTIVE \(generation', timeout=30)
        b = self.spawn(unique_file_prefix('host-int-b'), TRAFFIC + ha)
        b.expect(r'HA \S+: STANDBY: waiting', timeout=30)
        b.child.kill(signal.SIGINT)
        a.child.kill(signal.SIGINT)
        self.assert_equal(a.wait_exit(30), 0, 'A exit status')
        self.assert_equal(b.wait_exit(30), 0, 'B exit status')
        self.log(b.output)
        self.verify('ACTIVE (generation' not in b.output,
                    'the STANDBY took over while shutting down:\n%s' % b.output)

    def test_ha_bad_values(self):
        for args, token in (
                (['--ha', ''], "'' for --ha"),
                (['--ha', 'a/b'], "'a/b' for --ha"),
                (['--ha', 'x:'], "'x:' for --ha"),
                (['--ha', 'x' * 64], "for --ha"),
                (['--ha', 'x', '--ha-heartbeat-ms', '0'],
                 "'0' for --ha-heartbeat-ms"),
                (['--ha', 'x', '--ha-stale-ms', 'abc'],
                 "'abc' for --ha-stale-ms"),
                (['--ha', 'x', '--ha-heartbeat-ms', '20', '--ha-stale-ms',
                  '20'], '--ha-stale-ms'),
                (['--ha-heartbeat-ms', '20'], '--ha-heartbeat-ms needs --ha'),
                (['--ha', 'x:/nonexistent/dir'], '/nonexistent/dir'),
                (['--crash-file', ''], "'' for --crash-file")):
            self.expect_usage_error(['--ring-pair'] + args, token)
