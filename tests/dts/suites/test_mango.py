# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""libmango's RDMA PCC API on dpdk-pcc (issue 18, part 1).

The suite installs the build into a staging directory and builds, out
of tree, against the installed headers and pkg-config files alone:

- tests/mango/example_pcc.cc, the example at the top of libmango's
  documentation (its typos corrected, its "..." filled with a window
  algorithm and a main thread watching the per-QP views), as C with gcc
  and clang and as C++ with g++ and clang++ (pkg-config pcc-mango);
- tests/mango/mango_window.c, an event-style libmango plug-in, with gcc
  and clang (pkg-config pcc-mango-plugin).

Then:

- the example on the simulator (PCC_SIM, its "roce0" the scenario's
  sender s0): its QP's window changes, CNPs are counted for it, the
  scenario's summary is written, and every build gives the same summary
  (the simulator is deterministic, so is the layer);
- the example on a ring pair with the generator (PCC_RING_PAIR,
  PCC_ENGINE_OPTS, and the plug-in loaded beside it with PCC_PLUGINS):
  the main thread sees the four QPs active, counting CNPs and window
  updates; with no name for "roce0" or too few lcores it
  is refused with libmango's codes and log lines, and every later call
  on the handle it did not get is refused too, without a crash;
- the plug-in in dpdk-pcc: --plugin and --algo on a ring pair (its
  counters against the flows'), and a scenario's plugins: and
  algorithms: in --sim (the same summary for both compilers' builds).
"""

import glob
import os
import re
import shutil
import stat
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402
from framework.app import EAL_NO_HUGE, unique_file_prefix  # noqa: E402
from framework.stage import StageError, stage_install  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402

PROMPT = 'pcc> '
WINDOW_INIT = 65536
# the example's lines as libmango's documentation gives them (typos
# corrected): they must be in tests/mango/example_pcc.cc unchanged
EXAMPLE_LINES = [
    '#include <libmango.h>',
    'void',
    'my_algo (void *params)',
    'my_algo_params *p = (my_algo_params *) params;',
    'unsigned int cnp = mango_pcc_event_cnp_cnt ();',
    'unsigned int cwnd = mango_pcc_window_current ();',
    'unsigned int nwnd;',
    '// calculate new window size',
    'mango_pcc_window_update (nwnd);',
    'int main() {',
    '// Create a PCC handle',
    'mango_pcc_h pcc;',
    'mango_pcc_create ("roce0", &pcc);',
    '// Configure PCC parameters',
    'mango_pcc_config_t config;',
    'config.option = MANGO_PCC_CONFIG_INTERVAL;',
    'config.value.interval_us = 60;',
    'mango_pcc_ctrl_config (pcc, &config);',
    '// Register PCC algorithm',
    'mango_pcc_ctrl_reg_algo (pcc, 1, my_algo, &initial_params, sizeof (initial_params));',
    '// Run PCC engine with 4 threads',
    'mango_pcc_ctrl_run (pcc, 4);',
    '// Stop PCC engine',
    'mango_pcc_ctrl_stop (pcc);',
    'mango_pcc_destroy (pcc);',
    'return 0;',
]
# (name, compiler, extra flags): the example's builds
EXAMPLE_BUILDS = [('gcc-c', 'gcc', ['-x', 'c']),
                  ('clang-c', 'clang', ['-x', 'c']),
                  ('gxx', 'g++', ['-std=c++17']),
                  ('clangxx', 'clang++', ['-std=c++17'])]
PLUGIN_BUILDS = [('gcc', 'gcc'), ('clang', 'clang')]
GEN = 'gen-flows=4 gen-ce=5 gen-rate=100 idle-sleep=50 flows=1024'


def counters(out):
    """name -> value of a `show counters` table."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^\d+\s+(\w+)\s+(\d+)\s*$', out, re.M)}


def example_qps(out):
    """qpn -> (cnp, window, updates) of the example's report."""
    return {int(m.group(1), 16): tuple(int(x) for x in m.group(2, 3, 4))
            for m in re.finditer(r'^example: qp 0x([0-9a-f]+) cnp (\d+) window (\d+) '
                                 r'updates (\d+)$', out, re.M)}


def summary(out):
    """The simulator's summary: from its first line to the queue table's
    end (the lines a run writes after it are left out)."""
    m = re.search(r'^Simulation .*?^Totals: [^\n]*\n', out, re.M | re.S)
    return m.group(0) if m else ''


class TestMango(TestSuite):

    time_limit = 300

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        meson = shutil.which('meson')
        if meson is None or shutil.which('pkg-config') is None:
            raise SkipTest('meson or pkg-config not found')
        try:
            self.env = stage_install(meson, self.build_dir,
                                     os.path.join(self.work_dir, 'install'),
                                     names=('pcc-mango', 'pcc-mango-plugin'))
        except StageError as e:
            raise AssertionError(str(e))
        stage = os.path.join(self.work_dir, 'install', 'stage')
        libs = glob.glob(os.path.join(stage, '**', 'libpcc_mango.so'), recursive=True)
        self.verify(len(libs) == 1, 'libpcc_mango.so installed %d times' % len(libs))
        self.stage = stage
        self.libdir = os.path.dirname(libs[0])
        # the staged libraries, where a system's loader would find them
        self.env['LD_LIBRARY_PATH'] = self.libdir + (
            ':' + self.env['LD_LIBRARY_PATH'] if self.env.get('LD_LIBRARY_PATH') else '')
        self.src = os.path.join(self.source_dir, 'tests', 'mango')
        self.scenarios = os.path.join(self.source_dir, 'config', 'scenarios')
        self.examples = {}
        self.plugins = {}
        cpus = sorted(os.sched_getaffinity(0))
        # the main lcore and four workers (the example runs 4 threads)
        self.lcores = '0@%d,(1-4)@%d' % (cpus[0], cpus[-1])

    # ---- helpers ---------------------------------------------------------

    def pkg(self, what, name):
        res = run_cmd(['pkg-config', what, name], env=self.env)
        self.verify(res.returncode == 0, 'pkg-config %s %s:\n%s' % (what, name, res.describe()))
        return res.stdout.split()

    def example(self, tag):
        """The example built with build tag (cached); its path."""
        if tag in self.examples:
            return self.examples[tag]
        cc, flags = [(c, f) for t, c, f in EXAMPLE_BUILDS if t == tag][0]
        if shutil.which(cc) is None:
            raise SkipTest('%s not found' % cc)
        out = self.work_path('example-' + tag)
        cmd = ([cc] + flags + ['-Wall', '-Wextra', '-Werror'] +
               self.pkg('--cflags', 'pcc-mango') +
               [os.path.join(self.src, 'example_pcc.cc'), '-o', out, '-x', 'none'] +
               self.pkg('--libs', 'pcc-mango'))
        res = run_cmd(cmd, timeout=120, env=self.env)
        self.verify(res.returncode == 0, '%s failed:\n%s' % (' '.join(cmd), res.describe()))
        self.examples[tag] = out
        return out

    def plugin(self, tag):
        """The plug-in built with compiler tag (cached); its path."""
        if tag in self.plugins:
            return self.plugins[tag]
        cc = dict(PLUGIN_BUILDS)[tag]
        if shutil.which(cc) is None:
            raise SkipTest('%s not found' % cc)
        out = self.work_path('mango_window-%s.so' % tag)
        cmd = ([cc, '-shared', '-fPIC', '-Wall', '-Wextra', '-Werror'] +
               self.pkg('--cflags', 'pcc-mango-plugin') +
               [os.path.join(self.src, 'mango_window.c'), '-o', out] +
               self.pkg('--libs', 'pcc-mango-plugin'))
        res = run_cmd(cmd, timeout=120, env=self.env)
        self.verify(res.returncode == 0, '%s failed:\n%s' % (' '.join(cmd), res.describe()))
        # the loader refuses objects others may write
        os.chmod(out, stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        self.plugins[tag] = out
        return out

    def run_example(self, tag, env, lcores=None, timeout=120):
        eal = EAL_NO_HUGE + ['--file-prefix', unique_file_prefix('mango'),
                             '--lcores', lcores or self.lcores]
        full = dict(self.env, PCC_EAL_ARGS=' '.join(eal), **env)
        for k in ('PCC_SIM', 'PCC_RING_PAIR', 'PCC_DEVICES', 'PCC_ENGINE_OPTS',
                  'PCC_PLUGINS', 'PCC_COMPAT_CONF'):
            if k not in env:
                full.pop(k, None)
        return run_cmd([self.example(tag)], timeout=timeout, env=full)

    def console(self, args):
        s = self.app.spawn(list(args) + ['--idle-sleep', '50', '-i'], lcores='0-1',
                           timeout=60)
        s.expect_exact(PROMPT, timeout=60)
        return s

    def cmd(self, s, line, timeout=20):
        return s.command(line, PROMPT, timeout=timeout)

    def sim(self, scenario, extra=()):
        res = self.app.run(['--sim', scenario, '--sim-out', 'none', '--stats-period', '0'] +
                           list(extra), lcores='0', timeout=300)
        self.verify(res.returncode == 0, 'simulator run of %s:\n%s' % (scenario, res.describe()))
        return res.stdout + res.stderr

    # ---- tests -----------------------------------------------------------

    def test_install_and_build(self):
        """ninja install puts libmango.h and its pkg-config files in place;
        the example builds as C and C++ with both compilers, the plug-in
        with both, exporting the plug-in's symbols only."""
        for h in ('libmango.h', 'mango_common.h'):
            found = glob.glob(os.path.join(self.stage, '**', 'pcc', 'mango', h), recursive=True)
            self.check(len(found) == 1, '%s installed %d times' % (h, len(found)))
        with open(os.path.join(self.src, 'example_pcc.cc'), encoding='utf-8') as f:
            text = f.read().split('\n')
        for line in EXAMPLE_LINES:
            self.check(line in text, 'the example lost the line %r' % line)
        self.check('typedef struct {' in text and 'static const my_algo_params initial_params = {'
                   in text, 'the example lost its typedef or initial_params')
        for tag, _, _ in EXAMPLE_BUILDS:
            self.check(os.access(self.example(tag), os.X_OK), 'example %s not built' % tag)
        for tag, _ in PLUGIN_BUILDS:
            so = self.plugin(tag)
            if shutil.which('nm') is None:
                continue
            res = run_cmd(['nm', '-D', '--defined-only', so])
            syms = sorted(set(l.split()[-1] for l in res.stdout.splitlines()
                              if l.split() and l.split()[-2] in 'TDRBtdrb'))
            self.check(syms == ['mango_pcc_algo_plugin', 'pcc_plugin_abi_version',
                                'pcc_plugin_fini', 'pcc_plugin_init'],
                       '%s exports %s' % (tag, syms))

    def test_example_sim(self):
        """The example on the simulator: s0 is "roce0"; its QP's window
        changes, CNPs are counted, the summary is written; every build of
        the example gives the same summary."""
        ref = None
        for tag, _, _ in EXAMPLE_BUILDS:
            res = self.run_example(tag, {
                'PCC_SIM': os.path.join(self.scenarios, 'dcqcn.yaml'),
                'PCC_SIM_OUT': 'none', 'PCC_DEVICES': 'roce0=sim:s0'})
            self.verify(res.returncode == 0, 'example %s:\n%s' % (tag, res.describe()))
            out = res.stdout
            self.verify('example: done' in out, '%s: %s' % (tag, out))
            qps = example_qps(out)
            self.verify(len(qps) == 1, '%s: QPs %s' % (tag, qps))
            (qpn, (cnp, window, updates)), = qps.items()
            self.check(cnp > 0 and updates > 0 and window != WINDOW_INIT,
                       '%s: qp 0x%x: %d CNPs, window %d, %d updates' %
                       (tag, qpn, cnp, window, updates))
            self.check('first interval' in res.stderr, '%s: the algorithm never logged' % tag)
            s = summary(out)
            self.verify(s, '%s: no summary:\n%s' % (tag, out))
            m = re.search(r'^f0\s+s0\s+r0\s+\d+\s+inf\s+[\d.]+\s+-\s+[\d.]+\s+\d+\s+\d+\s+(\d+)',
                          s, re.M)
            self.verify(m, '%s: no row of f0 in\n%s' % (tag, s))
            # the view was read during the run: at most the run's total
            self.check(0 < cnp <= int(m.group(1)),
                       '%s: %d CNPs counted, the simulator sent %s' % (tag, cnp, m.group(1)))
            if ref is None:
                ref = s
            self.check(s == ref, '%s: another summary:\n%s\nthan\n%s' % (tag, s, ref))

    def test_example_ring_pair(self):
        """The example on a ring pair with the generator: four QPs active,
        each counting CNPs and window updates, its window moved.  With a
        mango plug-in loaded beside it (PCC_PLUGINS): each keeps its own
        runtime."""
        for tag in ('gcc-c', 'clangxx'):
            env = {'PCC_RING_PAIR': '1', 'PCC_DEVICES': 'roce0=port:0', 'PCC_ENGINE_OPTS': GEN}
            if tag == 'gcc-c':
                env['PCC_PLUGINS'] = self.plugin('gcc')
            res = self.run_example(tag, env)
            self.verify(res.returncode == 0, 'example %s:\n%s' % (tag, res.describe()))
            if tag == 'gcc-c':
                self.check(re.search(r'loaded plug-in \S+ from .*mango_window-gcc\.so: 1 '
                                     r'algorithm', res.stderr), res.stderr[-3000:])
            self.verify('example: done' in res.stdout and '4 active QPs' in res.stdout,
                        '%s: %s\n%s' % (tag, res.stdout, res.stderr[-3000:]))
            qps = example_qps(res.stdout)
            self.check(sorted(qps) == [0x100, 0x101, 0x102, 0x103], '%s: QPs %s' % (tag, qps))
            for qpn, (cnp, window, updates) in qps.items():
                self.check(cnp > 0 and updates > 0 and window != WINDOW_INIT,
                           '%s: qp 0x%x: %d CNPs, window %d, %d updates' %
                           (tag, qpn, cnp, window, updates))
            self.check(re.search(r'pcc\.mango\[poller \d qp 0x10[0-3]\]: first interval',
                                 res.stderr), '%s: no log line of the algorithm' % tag)

    def test_example_refused(self):
        """A device name nobody mapped, then too few lcores: the calls are
        refused with libmango's codes and a log line each, nothing
        crashes, the program ends normally."""
        res = self.run_example('gcc-c', {'PCC_RING_PAIR': '1', 'PCC_ENGINE_OPTS': GEN})
        self.verify(res.returncode == 0, res.describe())
        err = res.stderr
        self.check("mango_pcc_create: no device 'roce0' (known: net_ring_pcc_compatA, "
                   "net_ring_pcc_compatB" in err, err[-3000:])
        for call in ('mango_pcc_ctrl_config', 'mango_pcc_ctrl_reg_algo', 'mango_pcc_ctrl_run',
                     'mango_pcc_active_qp_list', 'mango_pcc_ctrl_stop', 'mango_pcc_destroy'):
            self.check(re.search(r'%s: \(nil\) is not a handle' % call, err),
                       'no refusal of %s on the handle it did not get' % call)
        self.check('example: gave up after 0 polls: 0 active QPs' in res.stdout, res.stdout)
        cpus = sorted(os.sched_getaffinity(0))
        res = self.run_example('gcc-c', {'PCC_RING_PAIR': '1', 'PCC_DEVICES': 'roce0=port:0',
                                         'PCC_ENGINE_OPTS': GEN},
                               lcores='0@%d,1@%d' % (cpus[0], cpus[-1]))
        self.verify(res.returncode == 0, res.describe())
        self.check('mango_pcc_ctrl_run: 4 threads, the EAL has 1 worker lcores' in res.stderr,
                   res.stderr[-3000:])
        self.check('mango_pcc_ctrl_stop: device \'roce0\' does not run' in res.stderr,
                   res.stderr[-3000:])

    def test_plugin_live(self):
        """The plug-in on a ring pair: dpdk-pcc --plugin, --algo; its
        counters count calls, CNPs (the flows' own count), RTT samples,
        window updates and probes for the two QPs; windows moved."""
        for tag, _ in PLUGIN_BUILDS:
            s = self.console(['--ring-pair', '--plugin', self.plugin(tag),
                              '--algo', 'mango_window', '--timer-us', '50',
                              '--gen-flows', '2', '--gen-ce', '5', '--gen-rate', '100',
                              '--flows', '1024'])
            try:
                c = {}
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    c = counters(self.cmd(s, 'show counters 0 0'))
                    if all(c.get(k, 0) >= 20 for k in ('calls', 'cnp', 'rtt_samples',
                                                        'window_updates', 'rtt_probes')):
                        break
                    time.sleep(0.1)  # poll interval, not a synchronisation
                self.verify(all(c.get(k, 0) >= 20 for k in (
                    'calls', 'cnp', 'rtt_samples', 'window_updates', 'rtt_probes')),
                    '%s: counters %s' % (tag, c))
                self.check(c.get('qps') == 2 and c.get('untracked') == 0,
                           '%s: counters %s' % (tag, c))
                out = self.cmd(s, 'show flows')
                rows = re.findall(r'^(\d+)\s+0\s+\d+\s+0\s+[\d.]+\s+(\d+)\s+\d+\s+\d+\s+(\d+)\s',
                                  out, re.M)
                self.verify(len(rows) == 2, '%s: flows: %s' % (tag, out))
                self.check(all(int(w) not in (0, WINDOW_INIT) for _, w, _ in rows),
                           '%s: windows %s' % (tag, rows))
                # the plug-in's CNPs, read first, are the flows' (read after)
                self.check(c['cnp'] <= sum(int(n) for _, _, n in rows),
                           '%s: %d CNPs counted, flows %s' % (tag, c['cnp'], rows))
                self.check('mango_window: first call' in s.output,
                           '%s: no log line of the plug-in' % tag)
                s.sendline('quit')
                self.assert_equal(s.wait_exit(timeout=30), 0, 'exit status after quit')
            finally:
                s.close()

    def test_plugin_sim(self):
        """The plug-in named by a scenario (plugins:, algorithms:) in
        dpdk-pcc --sim --timer-us: every flow windowed, probes sent and
        answered, the same summary for both compilers' builds."""
        with open(os.path.join(self.scenarios, 'dcqcn.yaml'), encoding='utf-8') as f:
            base = f.read()
        ref = None
        for tag, _ in PLUGIN_BUILDS:
            text = base.replace('algorithms:\n  - {slot: 0, name: dcqcn}',
                                'plugins: [%s]\nalgorithms:\n  - {slot: 0, name: mango_window}'
                                % self.plugin(tag))
            self.verify(text != base, 'dcqcn.yaml changed: no algorithms line to replace')
            os.makedirs(self.work_path(tag), exist_ok=True)
            path = self.work_path(tag, 'mango.yaml')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
            out = self.sim(path, ['--timer-us', '50'])
            s = summary(out)
            self.verify(s, '%s: no summary:\n%s' % (tag, out))
            m = re.search(r'probes (\d+)/(\d+) \(req/resp\)', s)
            self.check(m and int(m.group(1)) > 0 and m.group(1) == m.group(2),
                       '%s: probes %s' % (tag, m.group(0) if m else None))
            wins = re.findall(r'^\s+\d+\s+qp \d+\s+\d+\s+0\s+[\d.]+\s+(\d+)\s', out, re.M)
            self.check(len(wins) == 2 and all(int(w) not in (0, WINDOW_INIT) for w in wins),
                       '%s: windows %s' % (tag, wins))
            self.check(out.count('mango_window: first call') == 2,
                       '%s: the plug-in did not log once per QP' % tag)
            if ref is None:
                ref = s
            self.check(s == ref, '%s: another summary:\n%s\nthan\n%s' % (tag, s, ref))
