# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""DOCA PCC host programs and DOCA Telemetry PCC tools, unchanged (issue 18).

tests/doca/host holds a host program written from the DOCA PCC guide's
host API text (host_prog: device by ibdev name, context, application,
threads, probes, tracer, coredump file, mailbox, start, state and wait
loop) and a telemetry tool written from DOCA Telemetry PCC's text
(tlm_tool).  Both include DOCA headers only.  The suite installs the
build into a staging directory and builds them, with the device
applications of tests/doca/apps, out of tree with gcc and with clang
exactly as doc/compat-doca-host.md says (pkg-config pcc-doca-host,
pcc-doca-telemetry, pcc-doca), then runs them:

- on a ring pair (PCC_RING_PAIR, PCC_DEVICES names the ports mlx5_0 and
  mlx5_1): an RP context with the RTT template and an NP context with the
  echo application in one program, the NP mailbox answered; tlm_tool in
  another process (PCC_TELEMETRY_PREFIX) lists the slots and counters
  exactly as /pcc/ telemetry does, and clears them;
- tlm_tool against dpdk-pcc itself (DCQCN): every line as /pcc/ shows it;
- on the simulator (PCC_SIM): the RTT template gives the summary of
  dpdk-pcc --sim with the same probe handler setting, and a telemetry RP
  + NP pair gets its NP hop limit through the program's NP mailbox;
- active/standby (PCC_HA): a second program is STANDBY and becomes ACTIVE
  when the first is killed;
- refusals: an unknown device, a bad PCC_DEVICES entry, a dpdk-pcc that
  is not there, each with its DOCA error and a line naming it.
"""

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
from framework.app import unique_file_prefix  # noqa: E402
from framework.stage import StageError, stage_install  # noqa: E402
from framework.telemetry import tlm_query  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402

COMPILERS = ('gcc', 'clang')
PCS = ('pcc', 'pcc-doca', 'pcc-doca-host', 'pcc-doca-telemetry')
EAL = '-l 0-1 --no-huge -m 1024 --no-pci --file-prefix %s'


class Proc:
    """A program in the background, its output in a file."""

    def __init__(self, args, env, path):
        self.path = path
        self.f = open(path, 'w', encoding='utf-8')
        self.p = subprocess.Popen(args, env=env, stdout=self.f,
                                  stderr=subprocess.STDOUT,
                                  start_new_session=True)

    def text(self):
        with open(self.path, encoding='utf-8', errors='replace') as f:
            return f.read()

    def wait_for(self, pattern, timeout=30):
        """Wait until the output matches pattern (or the program ends)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.text())
            if m:
                return m
            if self.p.poll() is not None:
                return re.search(pattern, self.text())
            time.sleep(0.05)  # poll interval, not a synchronisation
        return None

    def stop(self, sig=signal.SIGINT, timeout=30):
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self.f.close()
        return rc


class TestDocaHost(TestSuite):

    time_limit = 300

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        meson = shutil.which('meson')
        if meson is None:
            raise SkipTest('meson not found')
        try:
            self.env = stage_install(meson, self.build_dir,
                                     os.path.join(self.work_dir, 'install'), PCS)
        except StageError as e:
            raise AssertionError(str(e))
        libdirs = []
        for root, _, files in os.walk(os.path.join(self.work_dir, 'install', 'stage')):
            if 'libpcc_doca_host.so' in files:
                libdirs.append(root)
        self.verify(len(libdirs) == 1, 'staged libraries: %s' % libdirs)
        self.env['LD_LIBRARY_PATH'] = libdirs[0]
        self.meson = meson
        self.built = {}
        self.procs = []

    def tear_down(self):
        for p in self.procs:
            p.stop(signal.SIGKILL)
        self.procs = []

    # ---- helpers ---------------------------------------------------------

    def build(self, cc):
        """tests/doca/apps and tests/doca/host built out of tree with cc;
        {apps: dir, host: dir} (cached)."""
        if cc in self.built:
            return self.built[cc]
        if shutil.which(cc) is None:
            raise SkipTest('%s not found' % cc)
        env = dict(self.env, CC=cc)
        out = {}
        for name in ('apps', 'host'):
            bdir = os.path.join(self.work_dir, '%s-%s' % (name, cc))
            shutil.rmtree(bdir, ignore_errors=True)
            src = os.path.join(self.source_dir, 'tests', 'doca', name)
            for cmd in ([self.meson, 'setup', bdir, src], [self.meson, 'compile', '-C', bdir]):
                res = run_cmd(cmd, timeout=300, env=env)
                self.verify(res.returncode == 0, '%s failed with %s:\n%s'
                            % (' '.join(cmd), cc, res.describe()))
            out[name] = bdir
        self.built[cc] = out
        return out

    def penv(self, cc, prefix, **kw):
        """Environment of a program: staged libraries, device applications."""
        env = dict(self.env)
        env['PCC_APP_DIR'] = self.build(cc)['apps']
        env['PCC_EAL_ARGS'] = EAL % prefix
        for k, v in kw.items():
            env['PCC_' + k] = v
        return env

    def prog(self, cc, name):
        return os.path.join(self.build(cc)['host'], name)

    def start(self, cc, args, env, tag):
        p = Proc([self.prog(cc, 'host_prog')] + args, env,
                 os.path.join(self.work_dir, tag + '.log'))
        self.procs.append(p)
        return p

    def tool(self, cc, args, env):
        return run_cmd([self.prog(cc, 'tlm_tool')] + args, env=env, timeout=60)

    # ---- tests -----------------------------------------------------------

    def test_build_out_of_tree(self):
        """Both programs and the device applications build with gcc and
        clang against the installed pkg-config files alone."""
        for cc in COMPILERS:
            b = self.build(cc)
            for exe in ('host_prog', 'tlm_tool'):
                self.check(os.access(os.path.join(b['host'], exe), os.X_OK),
                           '%s: no %s' % (cc, exe))

    def test_ring_pair_and_telemetry(self):
        """RP + NP contexts on a ring pair, the NP mailbox answered;
        tlm_tool beside it shows what /pcc/ telemetry shows."""
        cc = COMPILERS[-1]
        prefix = unique_file_prefix('dts-dh')
        env = self.penv(cc, prefix, RING_PAIR='1', DEVICES='mlx5_0=port:0,mlx5_1=port:1',
                        ENGINE_OPTS='gen-flows=2 gen-rate=1000 idle-sleep=50')
        p = self.start(cc, ['-d', 'mlx5_0', '-a', 'rtt_template', '-D', 'mlx5_1',
                            '-A', 'echo', '-m', '44332211', '-w', '1'], env, 'ring')
        m = p.wait_for(r'mailbox mlx5_1: request 0x44332211, response (\d+) bytes, '
                       r'first word 0x([0-9a-f]+), callback (\d+)')
        self.verify(m is not None, 'no mailbox answer:\n%s' % p.text()[-3000:])
        self.check(m.group(1) == '8' and m.group(3) == '0', m.group(0))
        self.check(p.wait_for('process state ACTIVE') is not None, 'not ACTIVE')
        # counters counting, read from /pcc/ telemetry
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            c = tlm_query(prefix, '/pcc/counters,0,0')
            if c is not None and c['values'][0] >= 50:
                break
            time.sleep(0.1)  # poll interval, not a synchronisation
        self.verify(c is not None and c['values'][0] >= 50, 'counters: %s' % c)
        tenv = dict(self.env, PCC_TELEMETRY_PREFIX=prefix, PCC_DEVICES='mlx5_0=port:0')
        res = self.tool(cc, ['-d', 'mlx5_0'], tenv)
        self.verify(res.returncode == 0, 'tlm_tool:\n%s' % res.describe())
        after = tlm_query(prefix, '/pcc/counters,0,0')['values']
        out = res.stdout
        self.log(out)
        algo = tlm_query(prefix, '/pcc/algo,0,0')
        info = tlm_query(prefix, '/pcc/counters_info,0,0')
        self.check('slots 8' in out, 'slots')
        m = re.search(r'^slot 0 id 0x([0-9a-f]+) version (\d+)\.(\d+) info (.*)$', out, re.M)
        self.verify(m is not None, 'slot 0: %s' % out)
        self.check((int(m.group(1), 16), int(m.group(2)), int(m.group(3)), m.group(4)) ==
                   (algo['algo_id'], algo['major'], algo['minor'], algo['description']),
                   'slot 0 %s vs /pcc/algo %s' % (m.groups(), algo))
        for s in range(1, 8):
            self.check('slot %d empty' % s in out, 'slot %d not empty' % s)
        self.check('slot 0 algo enabled counters enabled' in out, 'enable status')
        rows = re.findall(r'^slot 0 counter (\d+) value (\d+) info (.*)$', out, re.M)
        self.check(len(rows) == info['n_counters'],
                   '%d counters vs %d' % (len(rows), info['n_counters']))
        for i, v, text in rows:
            i, v = int(i), int(v)
            self.check(text == info['descriptions'][i], 'counter %d: %r vs %r'
                       % (i, text, info['descriptions'][i]))
            # read before /pcc/ telemetry's later read: accumulating
            # counters only grow (RTT_MAX, index 8, is a maximum)
            self.check(v <= after[i] or i == 8, 'counter %d: %d then %d' % (i, v, after[i]))
        # get-and-clear: the next read starts again from zero
        res = self.tool(cc, ['-d', 'mlx5_0', '-c'], tenv)
        self.verify(res.returncode == 0, 'tlm_tool -c:\n%s' % res.describe())
        cleared = tlm_query(prefix, '/pcc/counters,0,0')['values']
        self.check(cleared[0] < after[0], 'RTT_EVENTS %d after clearing, %d before'
                   % (cleared[0], after[0]))
        self.assert_equal(p.stop(), 0, 'exit status after SIGINT')

    def test_tool_reads_dpdk_pcc(self):
        """The telemetry tool against dpdk-pcc itself (DCQCN with its
        counters, CE marks so CNPs come): every line as /pcc/ shows it."""
        cc = COMPILERS[0]
        prefix = unique_file_prefix('dts-dh')
        s = self.app.spawn(['--ring-pair', '--algo', 'dcqcn', '--gen-flows', '2',
                            '--gen-rate', '1000', '--gen-ce', '10', '--idle-sleep', '50',
                            '-i'], lcores='0-1', file_prefix=prefix, timeout=60)
        try:
            s.expect_exact('pcc> ', timeout=60)
            deadline = time.monotonic() + 30
            c = None
            while time.monotonic() < deadline:
                c = tlm_query(prefix, '/pcc/counters,0,0')
                if c is not None and sum(c['values']) > 0:
                    break
                time.sleep(0.1)  # poll interval, not a synchronisation
            self.verify(c is not None and sum(c['values']) > 0, 'counters: %s' % c)
            tenv = dict(self.env, PCC_TELEMETRY_PREFIX=prefix)
            # without PCC_DEVICES a device is named as its ethdev
            name = tlm_query(prefix, '/ethdev/info,0')['name']
            res = self.tool(cc, ['-d', name], tenv)
            self.verify(res.returncode == 0, 'tlm_tool:\n%s' % res.describe())
            out = res.stdout
            self.log(out)
            algo = tlm_query(prefix, '/pcc/algo,0,0')
            info = tlm_query(prefix, '/pcc/counters_info,0,0')
            m = re.search(r'^slot 0 id 0x([0-9a-f]+) version (\d+)\.(\d+) info (.*)$', out,
                          re.M)
            self.verify(m is not None, 'slot 0: %s' % out)
            self.check((int(m.group(1), 16), int(m.group(2)), int(m.group(3)), m.group(4))
                       == (algo['algo_id'], algo['major'], algo['minor'],
                           algo['description'][:127]),
                       'slot 0 %s vs /pcc/algo %s' % (m.groups(), algo))
            rows = re.findall(r'^slot 0 counter (\d+) value (\d+) info (.*)$', out, re.M)
            self.check(len(rows) == info['n_counters'] and len(rows) > 0,
                       '%d counters vs %d' % (len(rows), info['n_counters']))
            for i, _, text in rows:
                want = info['descriptions'][int(i)] or info['names'][int(i)]
                self.check(text == want, 'counter %s: %r vs %r' % (i, text, want))
            s.sendline('quit')
            self.assert_equal(s.wait_exit(timeout=30), 0, 'dpdk-pcc exit status')
        finally:
            s.close()

    def sim_summary(self, path, extra=()):
        out = os.path.join(self.work_dir, 'sim-ref')
        shutil.rmtree(out, ignore_errors=True)
        res = self.app.run(['--sim', path, '--sim-out', out, '--stats-period', '0'] +
                           list(extra), lcores='0-1', timeout=300)
        self.verify(res.returncode == 0, res.describe())
        with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
            s = json.load(f)
        s.pop('scenario')
        return s

    def test_sim_rtt_template(self):
        """On the simulator the program's RTT template gives dpdk-pcc
        --sim's summary, with either remote handler setting."""
        scn = os.path.join(self.source_dir, 'config', 'scenarios', 'rtt.yaml')
        for cc in COMPILERS:
            for sw, probe in ((True, '0:ccmad:np=sw'), (False, '0:ccmad:np=hw')):
                out = os.path.join(self.work_dir, 'sim-%s-%d' % (cc, sw))
                shutil.rmtree(out, ignore_errors=True)
                env = self.penv(cc, unique_file_prefix('dts-dh'), SIM=scn, SIM_OUT=out)
                args = ['-d', 's0', '-a', 'rtt_template'] + (['-s'] if sw else [])
                p = self.start(cc, args, env, 'sim-%s-%d' % (cc, sw))
                rc = p.p.wait(300)
                text = p.text()
                self.check(rc == 0, '%s: exit %d:\n%s' % (cc, rc, text[-3000:]))
                self.check('finished: process state DEACTIVATED' in text,
                           'the run did not end DEACTIVATED')
                with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
                    mine = json.load(f)
                mine.pop('scenario')
                ref = self.sim_summary(scn, ['--probe', probe])
                self.check(mine == ref, '%s, remote sw handler %s: summary differs from '
                           'dpdk-pcc --sim --probe %s' % (cc, sw, probe))
                self.log('%s sw=%s: %s' % (cc, sw, [l for l in text.splitlines()
                                                    if l.startswith('Totals')]))

    def test_sim_np_mailbox(self):
        """A telemetry RP + NP pair on the simulator: the NP context's
        application gets its hop limit through the program's mailbox, and
        the loop keeps the incast's queue short."""
        cc = COMPILERS[0]
        text = '''
description: telemetry pair, 2:1 incast, no ECN, apps from a DOCA host program
duration: 3ms
topology: {type: incast, senders: 2, receivers: 1, host_link: {rate: 100G, delay: 1us}}
switch: {ecn: {mode: off}, ifa2: true, ifa2_profile: doca}
hosts: {np: engine}
flows:
  - {src: [s0, s1], dst: r0, size: infinite}
'''
        path = os.path.join(self.work_dir, 'telem.yaml')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        out = os.path.join(self.work_dir, 'sim-telem')
        shutil.rmtree(out, ignore_errors=True)
        # the program configures its own contexts (s0, r0); the other
        # sender (s1, the scenario's) probes with IFA2 through the options
        env = self.penv(cc, unique_file_prefix('dts-dh'), SIM=path, SIM_OUT=out,
                        ENGINE_OPTS='probe=0:ifa2')
        p = self.start(cc, ['-d', 's0', '-a', 'switch_telemetry', '-p', 'ifa2', '-D', 'r0',
                            '-A', 'switch_telemetry', '-m', 'fe'], env, 'sim-telem')
        rc = p.p.wait(300)
        log = p.text()
        self.check(rc == 0, 'exit %d:\n%s' % (rc, log[-3000:]))
        m = re.search(r'mailbox r0: request 0x000000fe, response (\d+) bytes, first word '
                      r'0x([0-9a-f]+), callback (\d+)', log)
        self.verify(m is not None, 'no mailbox:\n%s' % log[-3000:])
        self.check(m.group(3) == '0', m.group(0))
        self.check('telem_np: hop limit 254' in log, 'no hop limit printf')
        with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
            summary = json.load(f)
        queue = {q['name']: q for q in summary['queues']}['sw0->r0']
        thpt = [fl['thpt_gbps'] for fl in summary['flows']]
        self.log('flows %s Gb/s, queue p99 %d B, drops %d'
                 % (thpt, queue['p99_bytes'], queue['drops']))
        self.check(queue['drops'] == 0 and queue['p99_bytes'] < 1000000, 'queue %s' % queue)
        self.check(sum(thpt) > 85, 'throughput %s' % thpt)

    def test_ha_failover(self):
        """Two programs of one PCC_HA name: ACTIVE and STANDBY; the STANDBY
        becomes ACTIVE when the ACTIVE is killed."""
        cc = COMPILERS[0]
        lockdir = os.path.join(self.work_dir, 'ha')
        shutil.rmtree(lockdir, ignore_errors=True)
        os.makedirs(lockdir, mode=0o700)
        procs = []
        for i in range(2):
            env = self.penv(cc, unique_file_prefix('dts-dh'), RING_PAIR='1',
                            DEVICES='mlx5_0=port:0', HA='dh:' + lockdir,
                            ENGINE_OPTS='gen-flows=1 gen-rate=100 idle-sleep=100')
            procs.append(self.start(cc, ['-d', 'mlx5_0', '-a', 'rtt_template', '-w', '1'],
                                    env, 'ha%d' % i))
            want = 'process state ACTIVE' if i == 0 else 'process state STANDBY'
            self.verify(procs[i].wait_for(want) is not None,
                        'program %d: no %s:\n%s' % (i, want, procs[i].text()[-2000:]))
        self.check('process state ACTIVE' not in procs[1].text(), 'two ACTIVE programs')
        procs[0].stop(signal.SIGKILL)
        self.verify(procs[1].wait_for('process state ACTIVE', timeout=20) is not None,
                    'the STANDBY did not take over:\n%s' % procs[1].text()[-2000:])
        self.assert_equal(procs[1].stop(), 0, 'exit status of the new ACTIVE')

    def test_refusals(self):
        """Bad names and a missing dpdk-pcc: DOCA errors naming them."""
        cc = COMPILERS[0]
        env = self.penv(cc, unique_file_prefix('dts-dh'), RING_PAIR='1')
        res = run_cmd([self.prog(cc, 'host_prog'), '-d', 'mlx5_9'], env=env, timeout=60)
        self.check(res.returncode != 0 and 'No usable DOCA device named mlx5_9' in
                   res.stdout + res.stderr, res.describe())
        env = self.penv(cc, unique_file_prefix('dts-dh'), RING_PAIR='1',
                        DEVICES='mlx5_0=port:7')
        res = run_cmd([self.prog(cc, 'host_prog'), '-d', 'mlx5_0'], env=env, timeout=60)
        out = res.stdout + res.stderr
        self.check(res.returncode != 0 and "PCC_DEVICES: 'port:7': no such ethdev port" in out
                   and 'DOCA_ERROR_NOT_FOUND' in out, res.describe())
        env = self.penv(cc, unique_file_prefix('dts-dh'), SIM='/nonexistent.yaml')
        res = run_cmd([self.prog(cc, 'host_prog'), '-d', 's0'], env=env, timeout=60)
        self.check(res.returncode != 0 and '/nonexistent.yaml' in res.stdout + res.stderr,
                   res.describe())
        tenv = dict(self.env, PCC_TELEMETRY_PREFIX='dts-no-such-prefix')
        res = self.tool(cc, ['-d', 'mlx5_0'], tenv)
        out = res.stdout + res.stderr
        self.check(res.returncode != 0 and 'cannot connect' in out and
                   'DOCA_ERROR_NOT_CONNECTED' in out, res.describe())
