# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Issue 20's bad-packet test: every frame counted exactly once.

Every frame of the `pcc-wire build` catalog (every packet kind: data of
every opcode family, ACK, every NAK, CNP, CCMAD probe request and
response, INT, IFA2, IFA1; IPv4 and IPv6, with and without a VLAN tag)
and, for each, its truncations, bad IP and UDP lengths, bad IP and BTH
versions, a bad ICRC, and for IFA frames bad IFA versions and lengths,
is fed through net_pcap to dpdk-pcc with the port in the RP role, in the
NP role, and in both.  Expected classes come from `pcc-wire parse`
(lib/proto, the parser the engine uses; with --icrc for the ICRC).  The
checks: RX-packets is the number of frames; malformed ones are in
Parse-drop, by reason; every other frame is in exactly one fate
(doc/engine.md, "Every frame counted") and the sum of all of them is
RX-packets, in the final statistics, in the console's `show port fates`
and in telemetry's /pcc/stats (rx_unaccounted 0); the fates a frame's
kind and ICRC determine are exactly as expected."""

import collections
import io
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework.app import AppSession, unique_file_prefix  # noqa: E402
from framework.pcap import read_frames, write_pcap  # noqa: E402
from framework.stats import parse_table  # noqa: E402
from framework.telemetry import tlm_query  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402
from framework.utils import wait_for  # noqa: E402

try:
    import pexpect
except ImportError:
    pexpect = None

FATE_TITLE = 'What became of the other received packets'
CC_ICRC = {'cnp': 'icrc_bad_cnp', 'ack': 'icrc_bad_ack', 'nak': 'icrc_bad_nak',
           'probe_resp': 'icrc_bad_probe_resp'}


def put16(b, off, v):
    b[off:off + 2] = struct.pack('!H', v & 0xffff)


def mutants(f, p):
    """(name, bytes) mutations of frame f, parsed as p (pcc-wire)."""
    out = []
    n = len(f)
    l3, l4 = p['l3_off'], p['l4_off']
    v6 = p['ipv6']
    # truncations: inside Ethernet, IP, UDP, the headers after it, the end
    for cut in sorted({13, l3 + 10, l4 + 4, l4 + 12, l4 + 20, n - 5, n - 1}):
        if 0 < cut < n:
            out.append(('cut%d' % cut, f[:cut]))
    # IP length longer than the frame, shorter than the headers
    b = bytearray(f)
    if v6:
        put16(b, l3 + 4, struct.unpack('!H', f[l3 + 4:l3 + 6])[0] + 64)
    else:
        put16(b, l3 + 2, struct.unpack('!H', f[l3 + 2:l3 + 4])[0] + 64)
    out.append(('iplen+', bytes(b)))
    # the UDP (or, for IFA2, IFA) length field off by 2
    u = l4 if p['kind'] != 'ifa2' else l4
    if u + 6 <= n:
        b = bytearray(f)
        put16(b, u + 4, struct.unpack('!H', f[u + 4:u + 6])[0] + 2)
        out.append(('udplen+', bytes(b)))
    # IP version
    b = bytearray(f)
    b[l3] = (b[l3] & 0x0f) | (0x50 if not v6 else 0x70)
    out.append(('ipver', bytes(b)))
    if p.get('bth_off', 0):
        bo = p['bth_off']
        b = bytearray(f)
        b[bo + 1] |= 0x01          # BTH TVer 1
        out.append(('tver', bytes(b)))
    # a bad ICRC: the last byte of the IP datagram (for a RoCEv2 frame,
    # the ICRC's); Ethernet padding left as it is
    if v6:
        end = l3 + 40 + struct.unpack('!H', f[l3 + 4:l3 + 6])[0]
    else:
        end = l3 + struct.unpack('!H', f[l3 + 2:l3 + 4])[0]
    b = bytearray(f)
    b[end - 1] ^= 0x5a
    out.append(('icrc', bytes(b)))
    if p['kind'] == 'ifa2':
        ifa = l4 - 4
        b = bytearray(f)
        b[ifa] = 0x1f               # IFA version 1
        out.append(('ifaver', bytes(b)))
        b = bytearray(f)
        b[l4 + 8 + 3] += 8          # cur_len: one hop more than there is
        out.append(('curlen', bytes(b)))
        b = bytearray(f)
        b[ifa + 3] = 0              # max_len below cur_len
        out.append(('maxlen', bytes(b)))
    if p['kind'] == 'ifa1':
        h = l4 + 8
        b = bytearray(f)
        b[h + 8] = 0x20             # version 2
        out.append(('ifaver', bytes(b)))
        b = bytearray(f)
        b[h + 19] = b[h + 18] + 32  # cur_len above max_len
        out.append(('curlen', bytes(b)))
    return out


class TestBadpkt(TestSuite):

    def set_up_suite(self):
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        self.app = self.dpdk_pcc()
        self.wire = self.pcc_wire()
        catalog = self.work_path('catalog.pcap')
        self.wire.build(catalog)
        frames = read_frames(catalog)
        parsed = self.wire.parse(catalog)
        self.frames = []
        for f, p in zip(frames, parsed):
            self.verify(p['rc'] == 0, 'catalog frame %d does not parse' % p['index'])
            self.frames.append(f)
            self.frames += [m for _, m in mutants(f, p)]
        self.pcap = self.work_path('badpkt.pcap')
        write_pcap(self.pcap, self.frames)
        self.plain = self.wire.parse(self.pcap)
        self.icrc = self.wire.parse(self.pcap, icrc=True)
        self.assert_equal(len(self.plain), len(self.frames), 'frames parsed')
        kinds = collections.Counter(p.get('kind', 'malformed') if p['rc'] == 0
                                    else 'malformed' for p in self.plain)
        self.note('%d frames from %d catalog frames: %s'
                  % (len(self.frames), len(frames), dict(sorted(kinds.items()))))
        self.sessions = []

    def tear_down(self):
        for s in self.sessions:
            s.close(grace=5)
        self.sessions = []

    # ---- expectations --------------------------------------------------

    def expected(self, role):
        """(malformed by reason, exact fates, groups of fates with their
        expected sum) for the pcap on a port of role."""
        bad = collections.Counter()
        exact = collections.Counter()
        groups = collections.defaultdict(int)
        for p, q in zip(self.plain, self.icrc):
            if p['rc'] != 0:
                bad[p['error']] += 1
                continue
            k = p['kind']
            icrc_bad = q['rc'] != 0     # only BAD_ICRC can differ
            ce = p.get('ecn') == 3
            if role == 'rp':
                if k in CC_ICRC and icrc_bad:
                    exact[CC_ICRC[k]] += 1
                elif k in ('cnp', 'ack', 'nak'):
                    exact['cc_event'] += 1
                elif k == 'probe_resp':
                    groups[('rtt_event', 'probe_resp_bad')] += 1
                elif k in ('ifa1', 'ifa2'):
                    groups[('rtt_event', 'not_mine')] += 1
                else:
                    exact['not_mine'] += 1
            elif role == 'np':
                if k == 'roce_data' and not ce:
                    exact['np_data'] += 1
                elif k == 'roce_data' and icrc_bad:
                    exact['icrc_bad_data'] += 1
                elif k == 'roce_data':
                    groups[('np_cnp', 'np_cnp_suppressed', 'np_tx_err')] += 1
                elif k in ('ack', 'nak') and icrc_bad:
                    exact[CC_ICRC[k]] += 1
                elif k in ('ack', 'nak'):
                    exact['np_learn'] += 1
                elif k == 'probe_req':
                    # the fast path answers with the ICRC patched (a bad
                    # one stays bad); the slow path verifies first
                    groups[('np_probe_answered', 'icrc_bad_probe_req',
                            'np_probe_dropped', 'np_tx_err')] += 1
                elif k in ('ifa1', 'ifa2'):
                    groups[('np_probe_answered', 'np_probe_dropped',
                            'np_ifa_other', 'np_cnp', 'np_cnp_suppressed',
                            'np_tx_err')] += 1
                else:
                    exact['not_mine'] += 1
        return bad, exact, groups

    def check_fates(self, where, fates, rx, bad_total, role):
        """fates: fate -> count as one view shows them."""
        bad, exact, groups = self.expected(role)
        self.check(rx == len(self.frames), '%s: %d frames received of %d'
                   % (where, rx, len(self.frames)))
        self.check(bad_total == sum(bad.values()), '%s: %d malformed, expected %d'
                   % (where, bad_total, sum(bad.values())))
        self.check(sum(fates.values()) + bad_total == rx,
                   '%s: fates %d + malformed %d != received %d'
                   % (where, sum(fates.values()), bad_total, rx))
        if role == 'both':
            return
        # groups sharing a fate are one group: their frames may end in any
        # fate of the union, whose total is known
        merged = []
        for g, n in groups.items():
            g = set(g)
            for m in [m for m in merged if m[0] & g]:
                merged.remove(m)
                g |= m[0]
                n += m[1]
            merged.append((g, n))
        grouped = set(f for g, _ in merged for f in g)
        for name, n in exact.items():
            if name not in grouped:
                self.check(fates.get(name, 0) == n, '%s: %s %d, expected %d'
                           % (where, name, fates.get(name, 0), n))
        for g, n in merged:
            n += sum(exact.get(f, 0) for f in g)
            got = sum(fates.get(f, 0) for f in g)
            self.check(got == n, '%s: %s add up to %d, expected %d'
                       % (where, '+'.join(sorted(g)), got, n))
        for name in fates:
            self.check(name in exact or name in grouped,
                       '%s: unexpected fate %s (%d)' % (where, name, fates[name]))

    # ---- runs ------------------------------------------------------------

    def role_args(self, role):
        return {'rp': ['--rp-ports', '0'], 'np': ['--np-ports', '0'],
                'both': ['--rp-ports', '0', '--np-ports', '0']}[role]

    def final_statistics(self, role):
        out = self.work_path('out-%s.pcap' % role)
        res = self.app.run(self.role_args(role) + ['--run-time', '2', '--stats-period', '0'],
                           lcores='0-1', timeout=60,
                           vdevs=['net_pcap0,rx_pcap=%s,tx_pcap=%s' % (self.pcap, out)])
        self.log(res.describe(60))
        self.assert_equal(res.returncode, 0, 'exit status')
        eng = parse_table(res.stdout, 'Engine per port')
        fates = parse_table(res.stdout, FATE_TITLE) or []
        reasons = parse_table(res.stdout, 'Malformed packets dropped') or []
        self.verify(eng, 'no engine table:\n%s' % res.stdout)
        self.check(not any(r['Fate'] == 'unaccounted' for r in fates),
                   'final statistics: a port with unaccounted frames')
        got = {r['Fate']: int(r['Packets']) for r in fates}
        bad, _, _ = self.expected(role)
        # the reason table's Reason column holds spaces: read it by lines
        text = res.stdout[res.stdout.rindex('Malformed packets dropped'):] if \
            reasons else ''
        for reason, n in bad.items():
            self.check(re.search(r'\n\s*0\s+%s\s+%d\n' % (re.escape(reason), n), text),
                       'final statistics: %d x "%s" not shown' % (n, reason))
        self.check_fates('final statistics (%s)' % role, got, int(eng[0]['RX-packets']),
                         int(eng[0]['Parse-drop']), role)
        self.note('%s port: %s received, %s malformed; fates %s'
                  % (role, eng[0]['RX-packets'], eng[0]['Parse-drop'],
                     ' '.join('%s=%d' % kv for kv in sorted(got.items()))))

    def console_and_telemetry(self, role):
        prefix = unique_file_prefix('badpkt')
        out = self.work_path('out-i-%s.pcap' % role)
        cmd = [self.app.path, '--no-huge', '-m', '1024', '--no-pci', '--file-prefix',
               prefix, '-l', '0-1', '--vdev',
               'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (self.pcap, out), '--'] + \
            self.role_args(role) + ['-i', '--stats-period', '0']
        log = io.StringIO()
        child = pexpect.spawn(cmd[0], cmd[1:], timeout=30, encoding='utf-8',
                              codec_errors='replace')
        child.logfile_read = log
        s = AppSession(child, ' '.join(cmd), log)
        self.sessions.append(s)
        s.expect('pcc> ', timeout=60)
        state = {}

        def all_in():
            state['out'] = s.command('show port fates 0')
            m = re.search(r'port 0 \(\S+\): (\d+) received', state['out'])
            return m and int(m.group(1)) == len(self.frames)

        wait_for(all_in, timeout=30)
        text = state['out']
        self.log(text)
        m = re.search(r'(\d+) received, (\d+) malformed, (-?\d+) unaccounted', text)
        self.verify(m, 'show port fates 0:\n%s' % text)
        self.assert_equal(int(m.group(3)), 0, 'console: unaccounted frames')
        got = {f: int(n) for f, n in re.findall(r'\n\s+fate\s+(\S+)\s+(\d+)', text)}
        self.check_fates('console (%s)' % role, got, int(m.group(1)), int(m.group(2)), role)
        tlm = tlm_query(prefix, '/pcc/stats,0')
        self.assert_equal(tlm['rx_unaccounted'], 0, 'telemetry rx_unaccounted')
        tfates = {k[len('fate_'):]: v for k, v in tlm.items()
                  if k.startswith('fate_') and v != 0}
        self.check(tfates == got, 'telemetry fates %s != console %s' % (tfates, got))
        self.check_fates('telemetry (%s)' % role, tfates, tlm['rx_pkts'],
                         tlm['parse_drops'], role)
        s.sendline('quit')
        self.assert_equal(s.wait_exit(30), 0, 'exit status')

    def test_rp_port(self):
        self.final_statistics('rp')
        self.console_and_telemetry('rp')

    def test_np_port(self):
        self.final_statistics('np')
        self.console_and_telemetry('np')

    def test_both_roles(self):
        self.final_statistics('both')
