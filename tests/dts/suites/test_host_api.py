# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""The host API drives the engine (issue 16, acceptance).

tests/tools/pcc-host-example is a program that uses lib/host/pcc_host.h
alone: an RP context on port 0 (a built-in algorithm, CCMAD probes, its
thread pinned to lcore 2) and an NP context on port 1 (an NP plug-in,
IFA2 GNS ignore 0xf:0x5, its thread on lcore 1).  Both ports are the two
ends of one veth pair in one network namespace (net_af_packet), so every
probe and answer crosses a wire tshark captures.  The program starts,
sends mailbox requests to the NP application (its new setting) and to
the RP's algorithm (echo, info), switches probe slot 0 to IFA2 with an
ignored GNS, then with an answered one, and stops; between its steps it
waits for counters, never for time.

Checked on the wire (struct over tshark's capture): the order of the
request formats, no answer to an ignored GNS, the NP handler's data and
DSCP in every answer, the mailbox's setting in the answers after it and
in none before.  Checked in /pcc/ telemetry: the configuration (roles,
lcores, algorithm, probes, NP settings, application), what each lcore
polled, the counters.  And the same settings given to dpdk-pcc on its
command line give the same /pcc/config dump.
"""

import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework.app import unique_file_prefix  # noqa: E402
from framework.netns import VethPair  # noqa: E402
from framework.pcap import read_frames  # noqa: E402
from framework.roce import (MAD_METHOD_GET, MAD_METHOD_GET_RESP,  # noqa
                            PROBE_F_RESPONSE, l3_offset, probe_of)
from framework.telemetry import tlm_query  # noqa: E402
from framework.utils import require_file  # noqa: E402

RP_PORT, NP_PORT = 0, 1
RP_LCORE, NP_LCORE = 2, 1
LCORES = '0@0,1@1,2@1'        # main lcore idle; workers share the CPUs
ALGO = 'rtt'
GNS_IGNORE = (0xf, 0x5)
GNS_ANSWERED = 3
NP_SETTING = 0x5a             # what the program's NP mailbox request sets
NP_TAG = 1                    # plug_np's tag (tests/unit/plugins/plug_np.c)
COUNT = 50
GEN = ['--gen-flows', '4', '--gen-rate', '100', '--idle-sleep', '50']
IFA2_PROTO = 253
IFA2_F_TA = 0x02
GEN_DSCP = 26
TLM_QUERIES = ['/pcc/config', '/pcc/stats,%d' % RP_PORT,
               '/pcc/stats,%d' % NP_PORT, '/pcc/lcores', '/pcc/state']
# probes only: IFA2, and RoCEv2 UD SEND_ONLY (BTH opcode 0x64), not data
PROBES_BPF = 'ip proto %d or (udp dst port 4791 and udp[8] == 0x64)' % 253


def events(output):
    """The program's JSON lines, by event name (lists, in order)."""
    ev = collections.defaultdict(list)
    for line in output.splitlines():
        line = line.strip()
        if line.startswith('{"event"'):
            o = json.loads(line)
            ev[o['event']].append(o)
    return ev


def request_kind(fr):
    """('ccmad', None) or ('ifa2', GNS) of a probe frame; None if neither
    (doc/wire.md 7 and 8.7: IPv4 here, IFA header right after it)."""
    l3 = l3_offset(fr)
    if fr[l3 + 9] == IFA2_PROTO:
        return ('ifa2', fr[l3 + 20] & 0xf)
    if fr[l3 + 9] == 17:
        return ('ccmad', None)
    return None


class TestHostApi(TestSuite):

    time_limit = 240

    def set_up_suite(self):
        self.prog = require_file(self.settings.build_path(
            'tests', 'tools', 'pcc-host-example'), 'pcc-host-example')
        self.plugin = require_file(self.settings.build_path(
            'tests', 'unit', 'plugins', 'plug_np.so'), 'plug_np.so')
        self.app = self.dpdk_pcc()

    def set_up(self):
        self.wire = None

    def tear_down(self):
        if self.wire is not None:
            self.wire.destroy()
            self.wire = None

    # ---- helpers ---------------------------------------------------------

    def eal(self, prefix):
        """EAL arguments with the telemetry socket (no --no-shconf)."""
        return ['--no-huge', '-m', '1024', '--no-pci', '--file-prefix',
                prefix, '--lcores', LCORES,
                '--vdev', self.wire.vdev(RP_PORT),
                '--vdev', self.wire.vdev(NP_PORT)]

    def prog_args(self):
        return ['--rp-port', RP_PORT, '--np-port', NP_PORT,
                '--rp-lcore', RP_LCORE, '--np-lcore', NP_LCORE,
                '--algo', ALGO, '--np-app', self.plugin,
                '--gns-ignore', '%#x:%#x' % GNS_IGNORE,
                '--gns-answered', GNS_ANSWERED, '--count', COUNT] + GEN

    def dpdk_pcc_args(self):
        """dpdk-pcc's command line for what the program sets."""
        return ['--rp-ports', RP_PORT, '--np-ports', NP_PORT,
                '--config', '(%d,0,%d),(%d,0,%d)' % (RP_PORT, RP_LCORE,
                                                     NP_PORT, NP_LCORE),
                '--algo', ALGO, '--probe', '0:ccmad',
                '--np-app', self.plugin,
                '--np-ifa2-gns-ignore', '%#x:%#x' % GNS_IGNORE,
                '--stats-period', '0'] + GEN

    def query(self, prefix, cmds):
        out = {}
        for c in cmds:
            out[c] = tlm_query(prefix, c)
            self.verify(out[c] is not None, '%s: no reply' % c)
        return out

    def run_program(self, capture=None):
        """Run the program through its two stops: returns (events,
        telemetry at 'started', telemetry at 'done', exit status)."""
        prefix = unique_file_prefix('hapi')
        s = self.wire.spawn(0, [self.prog] + self.eal(prefix) + ['--'] +
                            [str(a) for a in self.prog_args()])
        s.expect_exact('"event": "started"', timeout=60)
        first = self.query(prefix, ['/pcc/config', '/pcc/lcores'])
        s.sendline('go')
        idx = s.expect([r'"event": "done"', r'pcc-host-example: .*\n'],
                       timeout=120)
        self.verify(idx == 0, 'the program failed:\n%s' % s.output[-3000:])
        last = self.query(prefix, TLM_QUERIES)
        s.sendline('stop')
        s.expect_exact('"event": "stopped"', timeout=60)
        status = s.wait_exit(timeout=60)
        self.log(s.output[-1500:])
        return events(s.output), first, last, status

    # ---- tests -----------------------------------------------------------

    def test_program_settings_take_effect(self):
        """Every setting of the program shows on the wire and in
        telemetry."""
        self.wire = VethPair('hapi', one_ns=True).create()
        # requests at the NP's end, answers at the RP's (net_af_packet's
        # own frames bypass the capture on its end)
        req_pcap = os.path.join(self.work_dir, 'requests.pcap')
        resp_pcap = os.path.join(self.work_dir, 'answers.pcap')
        caps = [self.wire.capture(NP_PORT, req_pcap, bpf=PROBES_BPF),
                self.wire.capture(RP_PORT, resp_pcap, bpf=PROBES_BPF)]
        ev, first, last, status = self.run_program()
        for c in caps:
            self.log(c.stop())
        self.assert_equal(status, 0, 'exit status')

        # capabilities and the mailboxes, as the program saw them
        caps = ev['caps'][0]
        self.check_fields(caps, {'min_threads': 1, 'max_threads': 2,
                                 'rp_supported': 1, 'np_supported': 1}, what='capabilities')
        npm = ev['np_mailbox'][0]
        self.check_fields(npm, {'handler_rc': 2, 'tag': NP_TAG, 'old': 0,
                                'new': NP_SETTING}, what='NP mailbox')
        echo, info = ev['rp_mailbox']
        self.check_fields(echo, {'op': 'echo', 'handler_rc': 5,
                                 'resp': 'hello'}, what='RP mailbox echo')
        self.check_fields(info, {'op': 'info', 'name': ALGO}, what='RP mailbox info')

        # telemetry: configuration at the start and at the end
        cfg = first['/pcc/config']
        p0, p1 = cfg['port%d' % RP_PORT], cfg['port%d' % NP_PORT]
        self.check_fields(p0, {'roles': 'rp', 'rxq_lcores': '0:%d' % RP_LCORE,
                               'slot0': ALGO, 'active_slot': 0}, what='RP port configuration')
        self.check(p0['probe0'].startswith('ccmad:np=sw'),
                   'probe0 at the start: %s' % p0['probe0'])
        self.check_fields(p1, {'roles': 'np', 'rxq_lcores': '0:%d' % NP_LCORE,
                               'np_ifa2_gns_ignore': '%#x:%#x' % GNS_IGNORE,
                               'np_app': 'plug_np', 'np_handler': 1}, what='NP port configuration')
        self.check_fields(cfg['process'], {'gen_flows': 4, 'gen_rate_mbps': 100,
                                           'idle_sleep_us': 50}, what='process configuration')
        end = last['/pcc/config']['port%d' % RP_PORT]['probe0']
        self.check(end.startswith('ifa2:') and 'gns=%#x' % GNS_ANSWERED in end,
                   'probe0 at the end: %s' % end)
        self.check_fields(last['/pcc/state'],
                          {'process_state_name': 'active',
                           'ctx_role': ['rp', 'np'],
                           'ctx_state': ['running', 'running']},
                          what='/pcc/state')

        # telemetry: each lcore polled its own port and did the work
        lc = last['/pcc/lcores']
        by = {l: i for i, l in enumerate(lc['lcore'])}
        self.verify(sorted(by) == sorted([RP_LCORE, NP_LCORE]),
                    'polling lcores %s' % lc['lcore'])
        r, n = by[RP_LCORE], by[NP_LCORE]
        self.check_fields({'rp': lc['rxqs'][r], 'np': lc['rxqs'][n]},
                          {'rp': '%d:0' % RP_PORT, 'np': '%d:0' % NP_PORT}, what='RX queues of the pinned lcores')
        self.assert_equal(info['rank'], lc['rank'][r],
                          'rank of the worker that ran the RP mailbox')
        st0, st1 = last['/pcc/stats,%d' % RP_PORT], \
            last['/pcc/stats,%d' % NP_PORT]
        self.check(lc['rx_pkts'][n] > 0 and lc['rx_pkts'][r] > 0 and
                   st0['rx_pkts'] > 0 and st1['rx_pkts'] > 0,
                   'received: NP lcore %d, RP lcore %d, NP port %d, RP '
                   'port %d' % (lc['rx_pkts'][n], lc['rx_pkts'][r],
                                st1['rx_pkts'], st0['rx_pkts']))
        self.check(st1['np_ifa2_ignored'] >= COUNT,
                   'np_ifa2_ignored %d' % st1['np_ifa2_ignored'])
        self.check(st1['np_probe_ifa2'] >= COUNT and
                   st1['np_probe_ccmad'] >= 2 * COUNT,
                   'answers: %d IFA2, %d CCMAD'
                   % (st1['np_probe_ifa2'], st1['np_probe_ccmad']))
        self.check_fields(st1, {'np_no_handler': 0, 'np_handler_err': 0,
                                'np_probe_bad': 0,
                                'np_probe_sw': st1['np_probe_req']}, what='NP counters')
        self.check(st0['ev_rtt'] > 0 and st0['probe_bad'] == 0,
                   'RP: %d RTT events, %d bad' % (st0['ev_rtt'],
                                                  st0['probe_bad']))

        # the wire
        seq, bad = [], collections.Counter()
        answers = collections.Counter()
        settings = []
        ignored_on_wire = 0
        for fr in read_frames(req_pcap):
            p = probe_of(fr)
            if p is None or p.method != MAD_METHOD_GET:
                bad['not a probe request at the NP end'] += 1
                continue
            kind = request_kind(fr)
            if not seq or seq[-1] != kind:
                seq.append(kind)
            ignored_on_wire += kind == ('ifa2', GNS_IGNORE[1])
            bad['request DSCP not %d' % GEN_DSCP] += \
                fr[l3_offset(fr) + 1] >> 2 != GEN_DSCP
        for fr in read_frames(resp_pcap):
            p = probe_of(fr)
            if p is None or p.method != MAD_METHOD_GET_RESP:
                bad['not a probe answer at the RP end'] += 1
                continue
            kind = request_kind(fr)
            l3 = l3_offset(fr)
            dscp = fr[l3 + 1] >> 2
            answers[kind] += 1
            bad['answer without the response flag'] += \
                not p.flags & PROBE_F_RESPONSE
            # plug_np: [request TTL, port, tag, setting], DSCP 0xff -> 63
            u = p.user
            bad['answer: handler data'] += (u[0], u[1], u[2]) != \
                (64, NP_PORT, NP_TAG)
            bad['answer: DSCP not 63'] += dscp != 63
            settings.append(u[3])
            if kind[0] == 'ifa2':
                bad['IFA2 answer without TA'] += not fr[l3 + 22] & IFA2_F_TA
                bad['IFA2 answer to the ignored GNS'] += \
                    kind[1] == GNS_IGNORE[1]
        self.log('request formats in order: %s; answers %s'
                 % (seq, dict(answers)))
        self.assert_equal(seq, [('ccmad', None), ('ifa2', GNS_IGNORE[1]),
                                ('ifa2', GNS_ANSWERED)],
                          'request formats on the wire, in order')
        # the setting: 0 before the mailbox, 0x5a after, never back
        runs = [v for i, v in enumerate(settings)
                if i == 0 or settings[i - 1] != v]
        self.assert_equal(runs, [0, NP_SETTING],
                          'NP setting in the answers, in order')
        self.check(settings.count(0) >= COUNT and
                   settings.count(NP_SETTING) >= 2 * COUNT,
                   'answers with setting 0: %d, with %#x: %d'
                   % (settings.count(0), NP_SETTING,
                      settings.count(NP_SETTING)))
        self.assert_equal(ignored_on_wire, st1['np_ifa2_ignored'],
                          'IFA2 requests with the ignored GNS on the wire')
        for what, k in sorted(bad.items()):
            self.check(k == 0, '%d frames: %s' % (k, what))

    def test_config_same_as_dpdk_pcc(self):
        """The program and dpdk-pcc with the same settings on its command
        line dump the same /pcc/config."""
        self.wire = VethPair('hapi', one_ns=True).create()
        ev, first, last, status = self.run_program()
        self.assert_equal(status, 0, 'exit status of the program')
        prog_cfg = first['/pcc/config']

        prefix = unique_file_prefix('hapi')
        cmd = [self.app.path] + self.eal(prefix) + ['--'] + \
            [str(a) for a in self.dpdk_pcc_args()]
        s = self.wire.spawn(0, cmd)
        s.expect_exact('stop with SIGINT or SIGTERM', timeout=60)
        app_cfg = self.query(prefix, ['/pcc/config'])['/pcc/config']
        self.log('dpdk-pcc exit status %s' % s.close())
        diff = []
        for sect in sorted(set(prog_cfg) | set(app_cfg)):
            a, b = prog_cfg.get(sect, {}), app_cfg.get(sect, {})
            for k in sorted(set(a) | set(b)):
                if a.get(k) != b.get(k):
                    diff.append('%s.%s: program %r, dpdk-pcc %r'
                                % (sect, k, a.get(k), b.get(k)))
        self.log('%d keys compared' % sum(len(v) for v in prog_cfg.values()))
        self.verify(not diff, 'the dumps differ:\n  ' + '\n  '.join(diff))
