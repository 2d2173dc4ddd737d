# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""The dpdk-pcc binary as a user meets it: --help, --version, bad
arguments (exit 2, one line naming the bad value), a real run on a ring
pair whose statistics add up, a clean stop on SIGINT, and malformed packets
from a pcap counted by reason while the engine keeps running."""

import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework.pcap import write_pcap  # noqa: E402
from framework.roce import (  # noqa: E402
    BTH, IP, OP_RC_RDMA_WRITE_ONLY, RETH, UDP, Ether, Raw, with_icrc)

SRC_DIR = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


def long_options_in_source():
    """Long option names of dpdk-pcc: its own table (app_opts[] in
    app/dpdk-pcc/args_opts.c) and lib/host's engine options (host_opts[] in
    lib/host/host_opts.c), each stated once there."""
    names = []
    for path, table in ((('app', 'dpdk-pcc', 'args_opts.c'), 'app_opts[] = {'),
                        (('lib', 'host', 'host_opts.c'), 'host_opts[] = {')):
        with open(os.path.join(SRC_DIR, *path)) as f:
            text = f.read()
        body = text[text.index(table):]
        body = body[:body.index('\n};')]
        names += re.findall(
            r'(?:\b(?:U64|FLAG|STR|FN|NUM_P|NUM_NP|OPT|OPT_R)\(|\.name = )'
            r'"([a-z0-9-]+)"', body)
    return names


def parse_table(text, title):
    """Rows (dicts by column name) of the aligned table under `title`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(title):
            break
    else:
        return None
    header = lines[i + 1].split()
    rows = []
    for line in lines[i + 2:]:
        if not line.strip():
            break
        cells = line.split()
        if len(cells) != len(header):
            break
        rows.append(dict(zip(header, cells)))
    return rows


class TestApp(TestSuite):

    def set_up_suite(self):
        self.app = self.dpdk_pcc()

    def run_app(self, app_args, eal=True, timeout=60, **kw):
        return self.app.run(app_args, eal=eal, timeout=timeout, **kw)

    def expect_usage_error(self, res, token):
        """Exit 2, a first stderr line naming token, a usage hint."""
        self.verify(res.returncode == 2,
                    'exit status %s, expected 2\n%s' %
                    (res.returncode, res.describe()))
        errs = [l for l in res.stderr.splitlines() if l.strip()]
        self.verify(errs, 'nothing on stderr')
        first = [l for l in errs if l.startswith('dpdk-pcc:')]
        self.verify(first and token in first[0],
                    'no "dpdk-pcc: ..." line naming %r in stderr:\n%s' %
                    (token, res.stderr))
        self.verify('--help' in res.stderr,
                    'no usage hint in stderr:\n%s' % res.stderr)

    # ---- help and version ------------------------------------------

    def test_help_documents_every_option(self):
        res = self.run_app(['--help'], eal=False)
        self.assert_equal(res.returncode, 0, 'exit status of --help')
        opts = long_options_in_source()
        self.verify(len(opts) >= 20, 'option table not found: %r' % opts)
        with open(os.path.join(SRC_DIR, 'doc', 'dpdk-pcc.md')) as f:
            guide = f.read()
        for o in opts:
            self.check('--' + o in res.stdout,
                       '--%s missing from --help' % o)
            self.check('--' + o in guide,
                       '--%s missing from doc/dpdk-pcc.md' % o)

    def test_help_needs_no_eal(self):
        # before '--' and after it, without any EAL argument
        for args in (['--help'], ['--', '--help']):
            res = self.run_app(args, eal=False)
            self.assert_equal(res.returncode, 0, 'exit status of %s' % args)
            self.verify('Usage: dpdk-pcc' in res.stdout,
                        'no usage text for %s' % args)
            self.verify('EAL:' not in res.stdout + res.stderr,
                        'EAL was initialised for %s' % args)

    def test_version(self):
        res = self.run_app(['--version'], eal=False)
        self.assert_equal(res.returncode, 0, 'exit status of --version')
        self.verify(re.match(r'dpdk-pcc \d+\.\d+\.\d+ \(DPDK 22\.11',
                             res.stdout),
                    'unexpected version line %r' % res.stdout)

    # ---- bad arguments ---------------------------------------------

    def test_unknown_option(self):
        res = self.run_app(['--bogus-option'])
        self.expect_usage_error(res, "'--bogus-option'")

    def test_bad_values(self):
        cases = (
            (['--run-time', 'abc'], "'abc'"),
            (['--run-time', '-1'], "'-1'"),
            (['--stats-period', '99999999'], "'99999999'"),
            (['--burst', '0'], "'0'"),
            (['--burst', '513'], "'513'"),
            (['--rxq', '0'], '--rxq'),
            (['--gen-flows', '2', '--gen-ce', '101'], "'101'"),
            (['--np-cnp', 'maybe'], "'maybe'"),
            (['--config', '(0,0)'], '(0,0)'),
            (['--rp-ports', '1-x'], "'1-x'"),
            (['--gen-src-ip', '300.1.1.1'], "'300.1.1.1'"),
            (['--gen-dst-mac', 'zz:00:00:00:00:00'], "'zz:00:00:00:00:00'"),
        )
        for args, token in cases:
            res = self.run_app(args)
            self.check(res.returncode == 2,
                       '%s: exit status %s, expected 2' % (args, res.returncode))
            self.check(token in res.stderr,
                       '%s: stderr does not name %s:\n%s' %
                       (args, token, res.stderr))

    def test_missing_argument(self):
        res = self.run_app(['--run-time'])
        self.expect_usage_error(res, '--run-time')

    def test_bad_eal_argument(self):
        res = self.app.run(['--run-time', '1'], eal=True,
                           extra=['--bogus-eal-flag'])
        self.assert_equal(res.returncode, 2, 'exit status for a bad EAL arg')
        self.verify('EAL' in res.stderr,
                    'stderr does not say the EAL arguments are bad:\n%s' %
                    res.stderr)

    # ---- real runs ---------------------------------------------------

    def test_ring_pair_cnps_per_flow(self):
        # --np-cnp-gap-us 0: one CNP per mark (the default 50 us per-QP
        # gap would hold back marks the generator sends in a burst)
        res = self.run_app(['--ring-pair', '--gen-flows', '4',
                            '--gen-rate', '200', '--gen-ce', '10',
                            '--np-cnp-gap-us', '0',
                            '--run-time', '1', '--stats-period', '0'],
                           lcores='0-1')
        self.assert_equal(res.returncode, 0, 'exit status')
        self.verify('final statistics' in res.stdout,
                    'no final statistics:\n%s' % res.describe())
        flows = parse_table(res.stdout, 'Generator flows')
        self.verify(flows is not None and len(flows) == 4,
                    'expected 4 generator flows:\n%s' % res.stdout)
        for f in flows:
            sent = int(f['TX-packets'])
            ce = int(f['CE-sent'])
            self.check(sent > 0, 'flow %s sent nothing' % f['QPN'])
            # the CE pattern is deterministic: every 10th packet
            self.check(abs(ce - sent // 10) <= 1,
                       'flow %s: %d CE of %d packets' % (f['QPN'], ce, sent))
            # every CE mark produced exactly one CNP back to this QPN
            self.check(int(f['CNP-rx']) == ce,
                       'flow %s: %s CNPs for %d CE marks' %
                       (f['QPN'], f['CNP-rx'], ce))
        eng = parse_table(res.stdout, 'Engine per port')
        self.verify(eng is not None and len(eng) == 2,
                    'no engine port table:\n%s' % res.stdout)
        np_row = [r for r in eng if r['Port'] == '1'][0]
        self.check(np_row['CE-rx'] == np_row['CNP-tx'],
                   'NP: %s CE received, %s CNPs sent' %
                   (np_row['CE-rx'], np_row['CNP-tx']))
        self.check(int(np_row['Parse-drop']) == 0, 'NP dropped packets')

    def test_probes_bounded_by_data(self):
        """The default rtt algorithm on a ring pair (an RTT of a few us):
        at most one probe per data packet by default, many more with
        --probe-with-data off."""
        counts = {}
        for mode in ('on', 'off'):
            res = self.run_app(['--ring-pair', '--gen-flows', '2', '--gen-rate', '100',
                                '--probe-with-data', mode, '--run-time', '1',
                                '--stats-period', '0'], lcores='0-1')
            self.assert_equal(res.returncode, 0, res.describe())
            flows = parse_table(res.stdout, 'Generator flows')
            rp = parse_table(res.stdout, 'Reaction point per port')
            self.verify(flows and rp, 'no tables:\n' + res.stdout)
            data = sum(int(f['TX-packets']) for f in flows)
            probes = sum(int(r['Probe-tx']) for r in rp)
            counts[mode] = (probes, data)
            self.log('--probe-with-data %s: %d probes, %d data packets' % (mode, probes, data))
        probes, data = counts['on']
        self.check(0 < probes <= data, 'on: %d probes for %d data packets' % (probes, data))
        probes, data = counts['off']
        self.check(probes > 2 * data, 'off: %d probes for %d data packets' % (probes, data))

    def test_stats_json_and_csv(self):
        """--stats-format json: every record validates against
        doc/stats-schema.json, counters only grow, the last is final;
        csv: one header, one row per port per print, the same columns."""
        try:
            import jsonschema
        except ImportError:
            self.skip('python3-jsonschema not installed')
        schema_path = os.path.join(self.source_dir, 'doc', 'stats-schema.json')
        with open(schema_path, encoding='utf-8') as f:
            schema = json.load(f)
        out = os.path.join(self.work_dir, 'stats.jsonl')
        res = self.run_app(['--ring-pair', '--gen-flows', '2', '--gen-rate', '100',
                            '--gen-ce', '5', '--run-time', '3', '--stats-period', '1',
                            '--stats-format', 'json', '--stats-file', out], lcores='0-1')
        self.assert_equal(res.returncode, 0, res.describe())
        self.check('==== dpdk-pcc' not in res.stdout, 'tables on stdout with --stats-file')
        with open(out, encoding='utf-8') as f:
            recs = [json.loads(line) for line in f]
        self.verify(len(recs) >= 2, '%d records' % len(recs))
        for r in recs:
            jsonschema.validate(r, schema)
        self.check([r['final'] for r in recs] == [False] * (len(recs) - 1) + [True],
                   'final flags %s' % [r['final'] for r in recs])
        for a, b in zip(recs, recs[1:-1]):
            for pa, pb in zip(a['ports'], b['ports']):
                self.check(all(pb['engine'][k] >= v for k, v in pa['engine'].items()),
                           'a counter went down on port %d' % pa['port_id'])
        last = recs[-1]
        np_port = [p for p in last['ports'] if p['roles'] == 'np'][0]
        self.check(np_port['engine']['cnp_tx'] > 0 and np_port['rx_bps'] > 0,
                   'NP port: %s' % np_port)
        self.check(sum(f['cnp_rx'] for f in last['flows']) > 0, 'no CNP in the flows')
        self.log('%d JSON records, schema %s: valid' % (len(recs), schema_path))
        out = os.path.join(self.work_dir, 'stats.csv')
        res = self.run_app(['--ring-pair', '--gen-flows', '2', '--run-time', '2',
                            '--stats-period', '1', '--stats-format', 'csv',
                            '--stats-file', out], lcores='0-1')
        self.assert_equal(res.returncode, 0, res.describe())
        with open(out, encoding='utf-8') as f:
            rows = list(csv.reader(f))
        hdr = rows[0]
        self.check(hdr[:6] == ['time_s', 'interval_s', 'final', 'port_id', 'name', 'roles'],
                   'header %s' % hdr[:6])
        self.check(all(len(r) == len(hdr) for r in rows[1:]), 'ragged rows')
        self.check(len(rows) - 1 >= 4 and (len(rows) - 1) % 2 == 0,
                   '%d rows for 2 ports' % (len(rows) - 1))
        self.check([r[2] for r in rows[-2:]] == ['1', '1'], 'last rows not final')
        self.log('CSV: %d columns, %d rows' % (len(hdr), len(rows) - 1))
        res = self.run_app(['--ring-pair', '--stats-format', 'yaml'], lcores='0')
        self.check(res.returncode == 2 and "'yaml' for --stats-format" in res.stderr,
                   res.describe())

    def test_sigint_stops_cleanly(self):
        s = self.app.spawn(['--ring-pair', '--gen-flows', '1',
                            '--gen-rate', '10', '--stats-period', '0'],
                           lcores='0-1')
        try:
            s.expect_exact('stop with SIGINT or SIGTERM', timeout=30)
        finally:
            status = s.close()
        self.assert_equal(status, 0, 'exit status after SIGINT')
        self.verify('final statistics' in s.output,
                    'no final statistics after SIGINT:\n%s' % s.output)

    def test_bad_input_before_start(self):
        """Issue 20 item 6: each exits 2 with one line naming the value,
        before the EAL starts (no 'EAL:' line), and never hangs."""
        work = self.work_path('item6')
        os.makedirs(work, exist_ok=True)
        os.chmod(work, 0o700)
        fifo = os.path.join(work, 'fifo.yaml')
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        with open(os.path.join(SRC_DIR, 'config', 'scenarios', 'hpcc.yaml')) as f:
            scn = f.read()
        scenarios = {}
        for name, extra in (('escape', 'name: ../../x\n'),
                            ('two-docs', '---\nseed: 2\n'),
                            ('outdir', None)):
            path = os.path.join(work, name + '.yaml')
            text = scn + extra if extra is not None else scn.replace(
                '\noutput:\n', '\noutput:\n  dir: /etc/passwd/x\n', 1)
            with open(path, 'w') as f:
                f.write(text)
            scenarios[name] = path
        long_path = '/nonexistent' + '/x' * 400
        ring = ['--ring-pair', '--run-time', '1', '--stats-period', '0']
        cases = (
            (ring + ['--crash-file', '/nonexistent/dir/x'],
             "'/nonexistent/dir/x' for --crash-file (directory /nonexistent/dir"),
            (ring + ['--crash-file', '/tmp'], "'/tmp' for --crash-file (/tmp is a directory"),
            (ring + ['--algo', ''], "'' for --algo"),
            (ring + ['--cmdline-file', os.path.join(work, 'missing')],
             "for --cmdline-file (%s: No such file" % os.path.join(work, 'missing')),
            (['--sim', fifo], 'is not a regular file (a FIFO)'),
            (['--sim', '/dev/zero'], '/dev/zero is not a regular file (a character device)'),
            (['--sim', scenarios['escape']], "name '../../x'"),
            (['--sim', scenarios['two-docs']], 'a second YAML document'),
            (['--sim', scenarios['outdir']],
             'output.dir: directory /etc/passwd/x: /etc/passwd is not a directory'),
            (['--sim', os.path.join(SRC_DIR, 'config', 'scenarios', 'hpcc.yaml'),
              '--sim-out', '/etc/passwd/x'], '/etc/passwd is not a directory'),
            # a value longer than the old 511-byte line: the option is named
            (ring + ['--crash-file', long_path], "' for --crash-file ("),
        )
        for args, token in cases:
            res = self.run_app(args, timeout=30)
            self.log(res.describe(5))
            self.check(res.returncode == 2, 'exit %s for %s' % (res.returncode, args[-1][:60]))
            first = [l for l in res.stderr.splitlines() if l.startswith('dpdk-pcc:')]
            self.check(first and token in first[0],
                       'no line naming %r:\n%s' % (token, res.stderr[:600]))
            self.check('EAL:' not in res.stdout + res.stderr,
                       'the EAL started for %s' % args[-1][:60])
            if first:
                self.note('exit 2: %s' % (first[0] if len(first[0]) < 300 else
                                          first[0][:150] + ' ... ' + first[0][-120:]))

    def test_flows_out_of_memory(self):
        """The default flow table does not fit in -m 256: the error says
        to lower --flows and which value fits, and that value runs."""
        res = self.app.run(['--ring-pair', '--run-time', '1'], lcores='0-1',
                           extra=['-m', '256'], timeout=60)
        out = res.stdout + res.stderr
        self.verify(res.returncode != 0, 'ran with 1 Mi flows in 256 MB:\n' + res.describe())
        self.check('lower it or give the EAL more memory (-m)' in out, res.describe())
        m = re.search(r'--flows (\d+) fits', out)
        self.verify(m is not None, 'no --flows suggestion:\n' + res.describe())
        self.log('suggested --flows %s' % m.group(1))
        res = self.app.run(['--ring-pair', '--flows', m.group(1), '--run-time', '1'],
                           lcores='0-1', extra=['-m', '256'], timeout=60)
        self.assert_equal(res.returncode, 0, 'with the suggested --flows: ' + res.describe())

    def test_offered_load_not_met(self):
        """8 flows offering 100 Gbit/s each: no lcore sends 800 Gbit/s, and
        dpdk-pcc says so, naming the port, the rates and what to change."""
        res = self.app.run(['--ring-pair', '--flows', '4096', '--gen-flows', '8',
                            '--gen-rate', '100000', '--run-time', '4', '--stats-period', '0'],
                           lcores='0-1', timeout=60)
        self.assert_equal(res.returncode, 0, res.describe())
        line = [l for l in (res.stdout + res.stderr).splitlines()
                if 'does not meet its offered load' in l]
        self.verify(line, 'no warning:\n' + res.describe())
        self.log(line[0])
        self.check('port 0' in line[0] and '8 flows offer 800000 Mbit/s' in line[0]
                   and '--gen-rate' in line[0], line[0])

    def test_malformed_packets_counted(self):
        """A pcap of good and bad frames through net_pcap: bad ones are
        counted by reason, good CE-marked data still gets its CNP."""
        good = with_icrc(Ether() / IP(src='10.0.0.1', dst='10.0.0.2', tos=3) /
                         UDP(sport=49152, dport=4791) /
                         BTH(opcode=OP_RC_RDMA_WRITE_ONLY, dqpn=0x100, psn=7) /
                         RETH(dma_len=16) / Raw(b'\x00' * 16))
        frames = [good]
        # every header cut short: Ethernet, IP, UDP, BTH, RETH
        for cut in (10, 20, 40, 45, 55):
            frames.append(good[:cut])
        # IPv4 total length larger than the frame
        bad_len = bytearray(good)
        bad_len[16:18] = (len(good) + 100).to_bytes(2, 'big')
        frames.append(bytes(bad_len))
        # unknown BTH opcode (0x1f is reserved for RC)
        bad_op = bytearray(good)
        bad_op[42] = 0x1f
        frames.append(bytes(bad_op))
        # IP version 5
        bad_ver = bytearray(good)
        bad_ver[14] = 0x55
        frames.append(bytes(bad_ver))
        # random junk and an empty-ish frame
        frames.append(bytes(range(64)))
        frames.append(b'\xff' * 14)
        rx = self.work_path('bad_in.pcap')
        tx = self.work_path('bad_out.pcap')
        write_pcap(rx, frames)
        res = self.run_app(['--np-ports', '0', '--run-time', '1',
                            '--stats-period', '0'],
                           lcores='0-1',
                           vdevs=['net_pcap0,rx_pcap=%s,tx_pcap=%s' %
                                  (rx, tx)])
        self.assert_equal(res.returncode, 0, 'exit status')
        eng = parse_table(res.stdout, 'Engine per port')
        self.verify(eng, 'no engine table:\n%s' % res.stdout)
        row = eng[0]
        self.assert_equal(int(row['RX-packets']), len(frames), 'RX packets')
        # all but the good frame and the two non-IP junk frames, which are
        # valid Ethernet of another EtherType (kind "other")
        self.assert_equal(int(row['Parse-drop']), len(frames) - 3,
                          'parse drops')
        self.assert_equal(int(row['CE-rx']), 1, 'CE-marked data received')
        self.assert_equal(int(row['CNP-tx']), 1, 'CNPs sent')
        self.verify('Malformed packets dropped, by reason' in res.stdout,
                    'drop reasons not shown:\n%s' % res.stdout)
        self.verify('unknown BTH opcode' in res.stdout and
                    'data ends inside a header' in res.stdout,
                    'expected drop reasons missing:\n%s' % res.stdout)
