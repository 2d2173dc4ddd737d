# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""The dpdk-pcc console (doc/console.md) as an operator meets it: every
command's happy path and a bad argument naming the token, help, tab
completion of command words and algorithm names, an unknown command,
state changes made by traffic, and script mode (--cmdline-file, no tty)
with and without --cmdline-strict.  One interactive session per test."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402

PROMPT = 'pcc> '
APP_ARGS = ['--ring-pair', '--gen-flows', '2', '--gen-ce', '10',
            '--algo', 'dcqcn', '--idle-sleep', '50']

# (command, regex its output must match) with the engine running
OK_RUNNING = [
    ('show config', r'port\s+roles\s+slot\s+algorithm'),
    ('show state', r'engine\s+running'),
    ('set trace-format 7 cnp rate=%u alpha=%u', r'Trace format 7: cnp rate=%u alpha=%u'),
    ('show port stats all', r'\n0\s+RP\s+\d+'),
    ('show port stats 1', r'\n1\s+NP\s+\d+'),
    ('show port fates all', r'port 0 \(RP\): \d+ received, \d+ malformed, -?\d+ unaccounted'),
    ('show port fates 1', r'port 1 \(NP\): \d+ received.*\n\s+fate\s+np_'),
    ('clear port stats', r'Port statistics cleared'),
    ('show lcores', r'\n1\s+\d+'),
    ('show flows', r'Flows: \d+ of \d+'),
    ('show flows top 1', r'Flows: 1 of'),
    ('show flows top', r'Flows: \d+ of \d+, by rate'),
    ('show flow 256', r'\n256\s+0\s+'),
    ('show probe', r'\n0\s+ccmad'),
    ('show algos', r'\ndcqcn\s+0x00000001'),
    ('show slot 0', r'\n0\s+dcqcn\s+on'),
    ('show slot 0 0', r'\n0\s+dcqcn\s+on'),
    ('set new-flow-slot 0 0', r'New flows on port 0 get slot 0 \(dcqcn\)\n'),
    ('show params 0 0', r'\d+\s+min_rate_mbps\s+'),
    ('set param 0 0 min_rate_mbps 500', r'min_rate_mbps = 500'),
    ('set param 0 0 1 1000', r'min_rate_mbps = 1000'),
    ('show counters 0 0', r'cnp_events\s+\d+'),
    ('clear counters 0 0', r'cleared'),
    ('set counters 0 0 off', r'slot 0: off'),
    ('set counters 0 0 on', r'slot 0: on'),
    ('histogram 0 2 linear 0 100 8', r'linear, 8 bins'),
    ('histogram 0 2 enable', r'Histogram 2 of port 0: enable'),
    ('show histogram 0 2', r'8 bins, enabled'),
    ('histogram 0 2 disable', r'disable'),
    ('histogram 0 2 clear', r'clear'),
    ('trace on', r'Trace on'),
    ('trace flush', r'Trace flushed'),
    ('trace off', r'Trace off'),
    ('ppcc 0x0 0 0', r'ppcc 0x00 algo_info: ok, 3 words\n +0x00000001 .*\nname dcqcn'),
    ('ppcc algo_status 0 0', r'algo_status: ok, 1 word\n +0x0000000f'),
    ('ppcc 0x4 0 0', r'params_count: ok, 1 word\n +0x0000000c'),
    ('ppcc param_info 0 0 1', r'param_info: ok, 4 words\n +0x000003e8 .*\nname min_rate_mbps'),
    ('ppcc param_set 0 0 1 2000', r'param_set: ok, 1 word\n +0x000007d0'),
    ('ppcc 0x6 0 0 1', r'param_get: ok, 1 word\n +0x000007d0'),
    ('ppcc params_get 0 0', r'params_get: ok, 12 words'),
    ('ppcc params_set 0 0 1 0 1000 1000', r'params_set: ok, 2 words\n +0x000003e8 0x000003e8'),
    ('ppcc counters_count 0 0', r'counters_count: ok, 2 words\n +0x00000009'),
    ('ppcc 0xF 0 0 0', r'counter_info: ok, 3 words\n.*\nname cnp_events'),
    ('ppcc counters_get 0 0', r'counters_get: ok, 9 words'),
    ('ppcc counters_get_clear 0 0', r'counters_get_clear: ok, 9 words'),
    ('ppcc 0x10 0', r'algo_info_array: ok, 8 words\n +0x00000000 0x00000001'),
    ('ppcc counters_enable 0 0 0 0', r'counters_enable: ok'),
    ('ppcc algo_status 0 0', r'\n +0x0000000b'),
    ('ppcc counters_enable 0 0 0 1', r'counters_enable: ok'),
    ('ppcc hist_set 0 0 11 0 0 4 0 100', r'hist_set: ok, 0 words'),
    ('ppcc hist_ids 0', r'hist_ids: ok, 2 words\n +0x00000[89a-f][0-9a-f]{2}'),
    ('ppcc hist_config 0 0 11', r'hist_config: ok, 12 words\n +0x00000000 0x00000004'),
    ('ppcc hist_desc 0 0 11', r'hist_desc: ok, 0 words'),
    ('ppcc hist_set 0 0 11 1', r'hist_set: ok'),
    ('ppcc hist_bins 0 0 11', r'hist_bins: ok, 4 words'),
    ('ppcc hist_set 0 0 11 2', r'hist_set: ok'),
    ('ppcc algo_enable 0 0 0 1', r'algo_enable: ok'),
    ('mailbox send 0 0 01deadbeef', r'handler returned 4, 4 response bytes\n +deadbeef'),
    ('mailbox send 0 0 0x02', r'handler returned 16, 16 response bytes\n +01000000 01000000 '
     r'[0-9a-f]{4}6463 71636e00'),
    ('mailbox send 0 0 7f', r'handler returned -95 \(Operation not supported\), 0 response'),
    ('help', r'show histogram'),
    ('help algos', r'set slot <port>'),
]

# (command, text its one-line error must contain) with the engine running
BAD_RUNNING = [
    ('show port stats 9', "Bad port '9'"),
    ('show port fates 9', "Bad port '9'"),
    ('show flows top 0', "Bad count '0'"),
    ('show flow 77777', "Bad qpn '77777'"),
    ('show slot 1', "Bad port '1'"),
    ('show slot 0 8', "Bad slot '8'"),
    ('set slot 0 1 nosuch on', "Bad algorithm 'nosuch'"),
    ('set slot 0 1 dcqcn on', 'Engine is running'),
    ('set new-flow-slot 0 3', "Bad slot '3': no algorithm bound"),
    ('set new-flow-slot 1 0', "Bad port '1'"),
    ('load app /nonexistent.so', 'Engine is running'),
    ('show params 0 5', "Bad slot '5'"),
    ('set param 0 0 nosuch 1', "Bad parameter 'nosuch'"),
    ('set param 0 0 min_rate_mbps abc', "Bad value 'abc'"),
    ('set param 0 0 min_rate_mbps 0', "Bad value '0'"),
    ('set param 0 0 99 1', "Bad parameter '99'"),
    ('show counters 0 9', "Bad slot '9'"),
    ('clear counters 7 0', "Bad port '7'"),
    ('set counters 0 3 on', "Bad slot '3'"),
    ('show histogram 0 5', "Bad histogram '5'"),
    ('show histogram 0 15', "Bad histogram '15'"),
    ('histogram 0 9 enable', "Bad histogram '9'"),
    ('histogram 0 2 linear 0 0 8', "Bad step '0'"),
    ('set trace file /nonexistent/dir/t.txt', "Bad path '/nonexistent/dir"),
    ('set trace-format 999 x', "Bad format id '999': 0..255"),
    ('set trace-format 3 rate=%s', "Bad format: trace format 3: 'rate=%s'"),
    ('mailbox send 0 0 xyz', "Bad bytes 'xyz'"),
    ('mailbox send 0 4 0102', "Bad slot '4'"),
    ('ppcc 0x8 0 0', "Bad cmd_type '0x8'"),
    ('ppcc 0x4 5 0', "Bad port '5'"),
    ('ppcc 0x4 0 16', "Bad slot '16'"),
    ('ppcc 0x4 0 4', 'slot 4: no algorithm bound'),
    ('ppcc 0x5 0 0 99', 'index 99: parameter 0..11'),
    ('ppcc param_set 0 0 1 99999999', 'value 99999999 of parameter 1'),
    ('ppcc algo_enable 0 0 0 5', 'value 5: 0 or 1'),
    ('ppcc hist_set 0 0 11 7', 'value 7: 0 config'),
    ('ppcc hist_config 0 0 9', 'histogram 9: not configured'),
    ('ppcc params_set 0 0 11 0 1 2', 'parameters 11..12'),
    ('help nosuch', "Bad topic 'nosuch'"),
    ('start', 'already running'),
    # commands without arguments: an extra word matches no form
    ('start now', 'Bad arguments'),
    ('stop now', 'Bad arguments'),
    ('quit now', 'Bad arguments'),
    ('show config x', 'Bad arguments'),
    ('show state x', 'Bad arguments'),
    ('show lcores x', 'Bad arguments'),
    ('show algos x', 'Bad arguments'),
    ('show probe x', 'Bad arguments'),
    ('clear port stats x', 'Bad arguments'),
    ('trace maybe', 'Bad arguments'),
    ('histogram 0 2 maybe', 'Bad arguments'),
]

# Commands other tests of this suite run (test_commands runs the lists
# above): what each covers, success or a bad argument.
OTHER_OK = ['set slot 0 1 timely off', 'load app plug_good.so', 'stop', 'start', 'quit',
            'set trace file trace.txt', 'set flow 256 rate 1234', 'set probe 2 ifa2 hw gns 3 hop 9']
OTHER_BAD = ['set slot 0 1 dcqcn maybe', 'load app /nonexistent/x.so', 'stop',
             'set flow 999999 rate 10', 'set probe 8 ccmad']


class TestConsole(TestSuite):

    time_limit = 120

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        self.plugin = os.path.join(self.build_dir, 'tests', 'unit', 'plugins',
                                   'plug_good.so')

    def spawn(self):
        s = self.app.spawn(APP_ARGS + ['-i'], lcores='0-1')
        s.expect_exact(PROMPT, timeout=30)
        return s

    def cmd(self, s, line, timeout=15):
        """Run one command; returns its output (without the echo)."""
        # without the log lines of other threads (AppSession.command)
        out = s.command(line, prompt=PROMPT, timeout=timeout)
        first, _, rest = out.partition('\n')
        self.verify(line in first, 'echo of %r missing: %r' % (line, out))
        return '\n' + rest

    def quit(self, s):
        s.sendline('quit')
        rc = s.wait_exit(timeout=20)
        self.assert_equal(rc, 0, 'exit status after quit')

    def test_commands(self):
        s = self.spawn()
        try:
            for line, pattern in OK_RUNNING:
                out = self.cmd(s, line)
                self.check(re.search(pattern, out) is not None and
                           'Bad ' not in out,
                           '%r: output does not match %r:\n%s' %
                           (line, pattern, out))
            for line, token in BAD_RUNNING:
                out = self.cmd(s, line)
                # log lines (pcc.<type>: ...) go to stderr, not counted
                lines = [l for l in out.splitlines()
                         if l.strip() and not l.startswith('pcc.')]
                self.check(len(lines) == 1 and token in lines[0],
                           '%r: expected one line with %r:\n%s' %
                           (line, token, out))
            # engine stopped: set slot, load app, then bad arguments
            self.check('Engine stopped' in self.cmd(s, 'stop'), 'stop')
            self.check('already stopped' in self.cmd(s, 'stop'),
                       'stop twice')
            self.check('engine    ' in self.cmd(s, 'show state') and
                       'stopped' in self.cmd(s, 'show state'), 'state')
            out = self.cmd(s, 'set slot 0 1 timely off')
            self.check('Port 0 slot 1: timely off' in out, out)
            out = self.cmd(s, 'show slot 0 1')
            self.check(re.search(r'\n1\s+timely\s+off', out), out)
            out = self.cmd(s, 'set slot 0 1 dctcp on')
            self.check('Port 0 slot 1: dctcp on' in out, out)
            out = self.cmd(s, 'set new-flow-slot 0 1')
            self.check('get slot 1 (dctcp); disabled slot 0' in out, out)
            out = self.cmd(s, 'show slot 0')
            self.check(re.search(r'\n0\s+dcqcn\s+off', out) and
                       'New flows on port 0 get slot 1' in out, out)
            out = self.cmd(s, 'set new-flow-slot 0 0')
            self.check('get slot 0 (dcqcn)' in out, out)
            self.check('get slot 0' in self.cmd(s, 'show slot 0'), 'slot 0')
            out = self.cmd(s, 'set slot 0 1 dcqcn maybe')
            self.check('Bad arguments' in out, out)
            out = self.cmd(s, 'load app /nonexistent/x.so')
            self.check("Bad plug-in '/nonexistent/x.so'" in out, out)
            if os.path.exists(self.plugin):
                out = self.cmd(s, 'load app %s' % self.plugin, timeout=30)
                self.check('Loaded plug-in' in out and 'plug_good_algo' in out,
                           out)
                out = self.cmd(s, 'show algos')
                self.check(re.search(r'plug_good_algo .* plug_good', out),
                           out)
            out = self.cmd(s, 'set trace file %s' %
                           os.path.join(self.work_dir, 'trace.txt'))
            self.check('Trace output:' in out, out)
            self.check('Engine started' in self.cmd(s, 'start'), 'start')
            self.quit(s)
        finally:
            s.close()

    def test_ctrl_d_quits(self):
        """End of input (Ctrl-D) at the prompt ends the run as quit does:
        the engine stops and the exit status is 0 (doc/console.md)."""
        s = self.spawn()
        try:
            s.child.sendeof()
            rc = s.wait_exit(timeout=20)
            self.assert_equal(rc, 0, 'exit status after Ctrl-D')
        finally:
            self.log(s.output)
            s.close()

    def test_offered_load_warning(self):
        """The offered-load check runs beside the console too: 64 flows
        offering 40 Gb/s each on a ring pair cannot all leave, and the
        warning names the port while the prompt waits."""
        s = self.app.spawn(['--ring-pair', '--gen-flows', '64', '--gen-rate', '40000',
                            '-i'], lcores='0-1')
        try:
            s.expect_exact(PROMPT, timeout=30)
            # the check needs two short one-second windows
            s.expect_exact('port 0 does not meet its offered load', timeout=30)
            self.quit(s)
        finally:
            self.log(s.output)
            s.close()

    def test_help_completion_unknown(self):
        s = self.spawn()
        try:
            out = self.cmd(s, 'help')
            for topic in ('control', 'ports', 'flows', 'algos', 'params',
                          'counters', 'trace', 'ppcc'):
                self.check('(help %s)' % topic in out, 'help: no %s' % topic)
            with open(os.path.join(self.source_dir, 'doc', 'console.md')) as f:
                doc = f.read()
            for cmd in re.findall(r'^### `([^`]+)`', doc, re.M):
                word = cmd.split()[0]
                self.check(word in out, 'help lacks %r' % cmd)
            # tab completion: a command word, then an algorithm name
            s.child.send('sho\t')
            s.expect_exact('show ', timeout=10)
            s.child.send('alg\t')
            s.expect_exact('algos', timeout=10)
            s.sendline('')
            s.expect(r'dcqcn\s+0x00000001', timeout=10)
            s.expect_exact(PROMPT, timeout=10)
            s.child.send('set slot 0 1 dcq\t')
            s.expect_exact('dcqcn ', timeout=10)
            s.sendline('on')
            s.expect_exact('Engine is running', timeout=10)
            s.expect_exact(PROMPT, timeout=10)
            # an unknown command: one line, and the prompt returns
            out = self.cmd(s, 'frobnicate now')
            lines = [l for l in out.splitlines() if l.strip()]
            self.assert_equal(lines, ['Command not found'], 'unknown command')
            self.quit(s)
        finally:
            s.close()

    def test_traffic_reflected(self):
        s = self.spawn()
        try:
            def cnp_events():
                out = self.cmd(s, 'show counters 0 0')
                m = re.search(r'cnp_events\s+(\d+)', out)
                self.verify(m, out)
                return int(m.group(1))

            def rates():
                out = self.cmd(s, 'show flows')
                return re.findall(r'\n(\d+)\s+0\s+\d+\s+\d+\s+([\d.]+)', out)

            first, r1 = cnp_events(), rates()
            # CE-marked data makes CNPs; wait on output, not on time
            for _ in range(200):
                if cnp_events() > first and rates() != r1:
                    break
            self.verify(cnp_events() > first, 'cnp_events did not grow')
            self.verify(rates() != r1, 'flow rates did not change: %s' % r1)
            # a rate counter shows its value in Gb/s beside the raw one
            out = self.cmd(s, 'show counters 0 0')
            m = re.search(r'rate_min\s+(\d+)\s+([\d.]+) Gb/s', out)
            self.verify(m, 'rate_min in Gb/s: %s' % out)
            self.check(abs(int(m.group(1)) * 100.0 / (1 << 20) -
                           float(m.group(2))) < 0.01, out)
            out = self.cmd(s, 'show port stats 0')
            m = re.search(r'\n0\s+RP\s+\d+\s+\d+\s+(\d+)', out)
            self.verify(m and int(m.group(1)) > 0, out)
            # throughput since the previous show, as testpmd shows it
            out = self.cmd(s, 'show port stats 0')
            m = re.search(r'port 0: Rx-pps\s+(\d+)\s+Rx-bps\s+(\d+)\s+Tx-pps\s+(\d+)\s+'
                          r'Tx-bps\s+(\d+)', out)
            self.verify(m and int(m.group(3)) > 0 and int(m.group(4)) > 8 * int(m.group(3)),
                        out)
            self.quit(s)
        finally:
            s.close()

    def test_every_command_covered(self):
        """Every command of doc/console.md has a success and an error case."""
        with open(os.path.join(self.source_dir, 'doc', 'console.md')) as f:
            doc = f.read()
        ok = [l for l, _ in OK_RUNNING] + OTHER_OK
        bad = [l for l, _ in BAD_RUNNING] + OTHER_BAD
        for cmd in re.findall(r'^### `([^`]+)`', doc, re.M):
            words = []
            for w in cmd.split():
                if w[0] in '<[' or '|' in w:
                    break
                words.append(w)
            prefix = ' '.join(words)
            for what, lines in (('success', ok), ('bad argument', bad)):
                self.check(any(l == prefix or l.startswith(prefix + ' ')
                               for l in lines),
                           '%r (doc/console.md) has no %s test' % (cmd, what))

    def test_flow_rate_and_probe(self):
        s = self.spawn()
        try:
            def flow():
                out = self.cmd(s, 'show flow 256')
                m = re.search(r'\n256\s+0\s+\d+\s+\d+\s+([\d.]+)\s+\d+\s+\d+'
                              r'\s+\d+\s+(\d+)\s+[\d.]+\s+(yes|no)', out)
                return (float(m.group(1)), int(m.group(2)), m.group(3)) \
                    if m else None

            for _ in range(200):
                if flow() is not None:
                    break
            self.verify(flow() is not None, 'flow 256 never appeared')
            out = self.cmd(s, 'set flow 256 rate 1234')
            self.verify(re.search(r'Flow 256 on port 0: rate pinned at 123[34]\.\d',
                                  out), out)
            rate, cnp0, pinned = flow()
            self.assert_equal(pinned, 'yes', 'pinned column')
            # CNPs keep coming (CE marks): the algorithm's results do not
            # move a pinned rate
            for _ in range(200):
                if flow()[1] >= cnp0 + 3:
                    break
            r2, cnp1, _ = flow()
            self.verify(cnp1 >= cnp0 + 3, 'no CNPs while pinned')
            self.assert_equal(r2, rate, 'pinned rate after %d CNPs' % (cnp1 - cnp0))
            out = self.cmd(s, 'set flow 256 rate auto')
            self.verify('rate back to the algorithm' in out, out)
            for _ in range(200):
                if flow()[0] != rate:
                    break
            r3, _, pinned = flow()
            self.verify(r3 != rate and pinned == 'no',
                        'the algorithm did not take the rate back: %s' % (flow(),))
            for line, token in (
                    ('set flow 999999 rate 10', "Bad qpn '999999'"),
                    ('set flow 256 rate fast', "Bad rate 'fast'"),
                    ('set flow 256 rate 0', "Bad rate '0'"),
                    ('set probe 8 ccmad', "Bad probe slot '8'"),
                    ('set probe 2 ifa2 gns 16', "Bad gns '16'"),
                    ('set probe 2 ifa2 custom 4', "Bad option 'custom'"),
                    ('set probe 2 ifa1 marker 0x1234', "Bad marker '0x1234'"),
                    ('set probe 2 ifa1 marker 0x8000000000000001', 'Bad probe: ifa1'),
                    ('set probe 2 ccmad custom', "Missing value after 'custom'"),
                    ('set probe 2 ccmad custom 65', "Bad custom '65'")):
                out = self.cmd(s, line)
                self.verify(token in out, '%r: no %r in %r' % (line, token, out))
            out = self.cmd(s, 'set probe 2 ifa2 hw gns 3 hop 9')
            self.verify(re.search(r'\n2\s+ifa2\s+yes\s+0\s+3\s+9\s', out), out)
            out = self.cmd(s, 'set probe 3 ccmad custom 8 pattern 0xdeadbeef')
            self.verify(re.search(r'\n3\s+ccmad\s+no\s+8\s', out), out)
            out = self.cmd(s, 'show probe')
            self.verify(re.search(r'\n2\s+ifa2\s+yes\s+0\s+3\s+9\s', out) and
                        re.search(r'\n3\s+ccmad\s+no\s+8\s', out), out)
            self.quit(s)
        finally:
            s.close()
        # the probes the rtt algorithm sends change format at run time
        args = [a if a != 'dcqcn' else 'rtt' for a in APP_ARGS]
        s = self.app.spawn(args + ['-i'], lcores='0-1')
        s.expect_exact(PROMPT, timeout=30)
        try:
            def answered():
                out = self.cmd(s, 'show probe')
                m = re.search(r'\n1\s+(?:\d+\s+){5}(\d+)\s+(\d+)\s+(\d+)', out)
                self.verify(m, out)
                return tuple(int(x) for x in m.groups())

            for _ in range(200):
                if answered()[0] > 0:
                    break
            self.verify(answered()[0] > 0, 'no CCMAD probe answered')
            out = self.cmd(s, 'set probe 0 ifa2')
            self.verify(re.search(r'\n0\s+ifa2\s', out), out)
            before = answered()
            for _ in range(200):
                if answered()[2] > before[2]:
                    break
            self.verify(answered()[2] > before[2],
                        'no IFA2 probe answered after set probe: %s' % (answered(),))
            self.quit(s)
        finally:
            s.close()

    def test_algo_profile(self):
        """--algo-profile sets the algorithm's whole named parameter set,
        the --algo-params over it; unknown profiles are named."""
        path = os.path.join(self.work_dir, 'profile.pcc')
        with open(path, 'w') as f:
            f.write('show params 0 0\nquit\n')
        res = self.app.run(APP_ARGS + ['--algo-profile', 'paper',
                                       '--algo-param', 'rai_mbps=30',
                                       '--cmdline-file', path,
                                       '--cmdline-strict'], lcores='0-1')
        self.assert_equal(res.returncode, 0, 'exit status\n' + res.describe())
        for name, value in (('t_alpha_ns', 55000), ('t_dec_ns', 50000),
                            ('t_inc_ns', 55000), ('fast_recovery_steps', 5),
                            ('byte_counter_kb', 10240),
                            ('clamp_target_rate', 1), ('rai_mbps', 30)):
            self.check(re.search(r'\n\d+\s+%s\s+%d\s' % (name, value),
                                 res.stdout),
                       '%s is not %d:\n%s' % (name, value, res.stdout))
        res = self.app.run(APP_ARGS + ['--algo-profile', 'nosuch'],
                           lcores='0-1')
        self.check(res.returncode == 2 and "invalid value 'nosuch' for "
                   "--algo-profile (algorithm dcqcn has no profile 'nosuch' "
                   "(profiles: ns3, paper))" in res.stderr, res.describe())

    def test_script(self):
        path = os.path.join(self.work_dir, 'session.pcc')
        with open(path, 'w') as f:
            f.write('# a complete session\n'
                    'stop\n'
                    'set slot 0 1 timely on\n'
                    'set slot 0 1 dcqcn on\n'
                    'set param 0 1 min_rate_mbps 500\n'
                    'show params 0 1\n'
                    'start\n'
                    'show port stats all\n'
                    'show counters 0 1\n'
                    'quit\n'
                    'show state\n')
        res = self.app.run(APP_ARGS + ['--cmdline-file', path,
                                       '--cmdline-strict'], lcores='0-1')
        self.assert_equal(res.returncode, 0, 'exit status\n' + res.describe())
        out = res.stdout
        for line in ('set slot 0 1 dcqcn on', 'show counters 0 1', 'quit'):
            self.check(PROMPT + line in out, 'not echoed: %r' % line)
        self.check('Port 0 slot 1: dcqcn on' in out, out)
        self.check('min_rate_mbps = 500' in out, out)
        self.check(re.search(r'\n1\s+min_rate_mbps\s+500\s', out), out)
        self.check('cnp_events' in out, out)
        self.check(PROMPT + 'show state' not in out, 'ran past quit')
        # a failing command: non-zero with --cmdline-strict, 0 without
        with open(path, 'w') as f:
            f.write('show state\nset param 0 0 nosuch 1\nshow algos\n')
        res = self.app.run(APP_ARGS + ['--cmdline-file', path,
                                       '--cmdline-strict'], lcores='0-1')
        self.check(res.returncode == 1, 'strict: exit %s' % res.returncode)
        self.check("Bad parameter 'nosuch'" in res.stdout, res.stdout)
        self.check(PROMPT + 'show algos' not in res.stdout,
                   'strict went on after the failure')
        res = self.app.run(APP_ARGS + ['--cmdline-file', path], lcores='0-1')
        self.check(res.returncode == 0, 'lenient: exit %s' % res.returncode)
        self.check(PROMPT + 'show algos' in res.stdout, 'lenient stopped')
        # a missing file is a bad argument: exit 2 before the EAL starts
        res = self.app.run(APP_ARGS + ['--cmdline-file', '/nonexistent/f',
                                       '--cmdline-strict'], lcores='0-1')
        self.check(res.returncode == 2 and
                   "invalid value '/nonexistent/f' for --cmdline-file" in res.stderr and
                   'EAL:' not in res.stdout + res.stderr,
                   'missing file: exit %s\n%s' % (res.returncode, res.stderr))
