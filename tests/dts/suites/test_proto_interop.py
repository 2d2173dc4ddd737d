# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""lib/proto against independent implementations: scapy, tshark and the
layouts of REFERENCE.md / doc/wire.md.

(a) scapy-crafted RoCEv2 packets -> pcap -> `pcc-wire parse`: every field
    scapy set must be decoded.
(b) `pcc-wire build` catalog -> tshark: BTH/AETH/RETH/DETH/MAD and L2-L4
    fields must match the builder's manifest.
(c) the catalog's ICRCs must be what scapy (IPv4) and an independent
    implementation (IPv4 and IPv6) compute.
(d) garbage, truncated and corrupted frames give error codes, never a
    crash.
Plus the telemetry headers (IFA 2.0, IFA 1.0, INT) encoded from
doc/wire.md and decoded by lib/proto.
"""

import ipaddress
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework import tlm  # noqa: E402
from framework.pcap import read_frames, write_pcap  # noqa: E402
from framework.roce import (  # noqa: E402
    AETH, BTH, CNPPadding, DETH, Dot1Q, GSI_QKEY, IP, IPOption_NOP,
    IPOption_Router_Alert, IPv6, IPv6ExtHdrHopByHop, MAD, MAD_ATTR_RTT,
    MAD_CLASS, MAD_METHOD_GET, MAD_METHOD_GET_RESP, OP_CNP, OP_RC_ACK,
    OP_RC_RDMA_WRITE_ONLY, OP_RC_SEND_ONLY, OP_UD_SEND_ONLY,
    PROBE_CUSTOM_OFF, PROBE_F_HW_NP, PROBE_F_RESPONSE, PROBE_MAD_LEN, RETH,
    UDP, Ether, ProbeBody, Raw, frame_icrc, icrc_calc, ip_datagram, l2l3,
    l3_offset, probe_tail, raw, scapy_icrc, with_icrc)
from framework.tshark import CSUM_GOOD, CSUM_NOT_PRESENT, to_int  # noqa

# enum pcc_proto_err (pcc_proto.h)
ERR_TRUNCATED = -1
ERR_BAD_VERSION = -2
ERR_BAD_LENGTH = -3
ERR_UNKNOWN_OPCODE = -4
ERR_BAD_CSUM = -8
ERR_BAD_ICRC = -9
ERR_FRAGMENT = -10
ERR_BAD_FIELD = -12
ERR_MIN = -14

KINDS = ('other', 'roce_data', 'ack', 'nak', 'cnp', 'probe_req',
         'probe_resp', 'ifa2', 'ifa1')
ROCE_KINDS = ('roce_data', 'ack', 'nak', 'cnp', 'probe_req', 'probe_resp')
# BTH extension headers (pcc-wire flag names = tshark protocol fields)
EXT_HEADERS = ('aeth', 'reth', 'deth', 'immdt', 'ieth', 'atomiceth',
               'atomicacketh')
EXT_ORDER = (('deth', 8), ('reth', 16), ('atomiceth', 28), ('aeth', 4),
             ('atomicacketh', 8), ('immdt', 4), ('ieth', 4))

# L2/L3 variants of the scapy-crafted packets
VARIANTS = (
    dict(tag='v4', ipv6=False, vlan=None),
    dict(tag='v4-vlan', ipv6=False, vlan=0xb07b),   # PCP 5, DEI 1, VID 123
    dict(tag='v6', ipv6=True, vlan=None),
    dict(tag='v6-vlan', ipv6=True, vlan=0x2005),    # PCP 1, VID 5
)
V4_SRC, V4_DST = '10.1.2.3', '10.4.5.6'
V6_SRC, V6_DST = '2001:db8::1', '2001:db8:0:1::2'


def flatten(d, prefix=''):
    """{'a': {'b': 1}} -> {'a.b': 1}; lists of dicts get an index."""
    out = {}
    for k, v in d.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, key + '.'))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            out[key + '.len'] = len(v)
            for i, e in enumerate(v):
                out.update(flatten(e, '%s.%d.' % (key, i)))
        else:
            out[key] = v
    return out


def l3_expect(v, dscp, ecn, ttl, sport):
    l3 = 18 if v['vlan'] is not None else 14
    l4 = l3 + (40 if v['ipv6'] else 20)
    return dict(
        vlan=v['vlan'] is not None, vlan_tci=v['vlan'] or 0,
        ipv6=v['ipv6'], src=V6_SRC if v['ipv6'] else V4_SRC,
        dst=V6_DST if v['ipv6'] else V4_DST, dscp=dscp, ecn=ecn, ttl=ttl,
        ip_proto=17, udp_sport=sport, udp_dport=4791, l3_off=l3, l4_off=l4,
        bth_off=l4 + 8)


def stack(v, dscp, ecn, ttl, sport, **kw):
    return l2l3(ipv6=v['ipv6'], src=V6_SRC if v['ipv6'] else V4_SRC,
                dst=V6_DST if v['ipv6'] else V4_DST, dscp=dscp, ecn=ecn,
                ttl=ttl, vlan=v['vlan'], sport=sport, **kw)


def bth_expect(e, opcode, pkey, bth_flags, dqpn, psn, ackreq, pad_cnt):
    e.update(opcode=opcode, pkey=pkey, bth_flags=bth_flags,
             fecn=bool(bth_flags & 0x80), becn=bool(bth_flags & 0x40),
             dqpn=dqpn, psn=psn, ackreq=ackreq, pad_cnt=pad_cnt)
    return e


# ---- scapy-crafted cases: each returns [(label, scapy pkt, expected)] ----

def case_rc_send_only(v):
    payload = bytes(range(1, 14))       # 13 bytes: PadCnt 3
    p = stack(v, 63, 3, 1, 0xd001, ip_id=0x4242, flow_label=0xabcde) / \
        BTH(opcode=OP_RC_SEND_ONLY, solicited=1, migreq=1, padcount=3,
            pkey=0x8001, fecn=1, dqpn=0xfedcba, ackreq=1,
            psn=0xffffff) / Raw(payload + b'\0' * 3)
    e = l3_expect(v, 63, 3, 1, 0xd001)
    bth_expect(e, OP_RC_SEND_ONLY, 0x8001, 0x80, 0xfedcba, 0xffffff, 1, 3)
    e.update(kind='roce_data', payload_len=13, payload_off=e['bth_off'] + 12,
             flag_names=[])
    return [('rc-send-only', p, e)]


def case_rdma_write_only(v):
    payload = bytes((i * 5) & 0xff for i in range(64))
    p = stack(v, 26, 3, 64, 0xc123) / \
        BTH(opcode=OP_RC_RDMA_WRITE_ONLY, dqpn=0x000abc, psn=0x123456,
            becn=1) / \
        RETH(va=0xffffeeeeddddcccc, rkey=0xa1b2c3d4, dma_len=64) / \
        Raw(payload)
    e = l3_expect(v, 26, 3, 64, 0xc123)
    bth_expect(e, OP_RC_RDMA_WRITE_ONLY, 0xffff, 0x40, 0xabc, 0x123456, 0, 0)
    e.update(kind='roce_data', payload_len=64, payload_off=e['bth_off'] + 28,
             flag_names=['reth'], reth_va=0xffffeeeeddddcccc,
             reth_rkey=0xa1b2c3d4, reth_dma_len=64)
    return [('rdma-write-only', p, e)]


def case_ack_nak(v):
    out = []
    for label, syn, kind in (('ack', 0x1f, 'ack'),
                             ('ack-credit0', 0x00, 'ack'),
                             ('rnr-nak', 0x2e, 'nak'),
                             ('nak-psn-seq', 0x60, 'nak'),
                             ('nak-invalid-req', 0x61, 'nak'),
                             ('nak-remote-access', 0x62, 'nak'),
                             ('nak-remote-op', 0x63, 'nak'),
                             ('nak-invalid-rd-req', 0x64, 'nak')):
        p = stack(v, 10, 3, 200, 0xe000) / \
            BTH(opcode=OP_RC_ACK, dqpn=0x00cafe, psn=0x00beef) / \
            AETH(syndrome=syn, msn=0xabcdef)
        e = l3_expect(v, 10, 3, 200, 0xe000)
        bth_expect(e, OP_RC_ACK, 0xffff, 0, 0xcafe, 0xbeef, 0, 0)
        e.update(kind=kind, payload_len=0, payload_off=e['bth_off'] + 16,
                 flag_names=['aeth'], aeth_syndrome=syn,
                 aeth_class=(syn >> 5) & 3, aeth_code=syn & 0x1f,
                 aeth_msn=0xabcdef)
        out.append((label, p, e))
    return out


def case_cnp(v):
    p = stack(v, 48, 1, 64, 0xf00f) / \
        BTH(opcode=OP_CNP, becn=1, dqpn=0x0000d2) / CNPPadding()
    e = l3_expect(v, 48, 1, 64, 0xf00f)
    bth_expect(e, OP_CNP, 0xffff, 0x40, 0xd2, 0, 0, 0)
    e.update(kind='cnp', payload_len=16, payload_off=e['bth_off'] + 12,
             flag_names=[])
    return [('cnp', p, e)]


def probe_pkt(v, req, custom=b''):
    tid = 0x0102030405060708
    body = dict(flow_tag=0xcafebabe, slot=7, custom_len=len(custom),
                req_send_ts=1767225600123456789)
    if req:
        # the request flag HW_NP asks for the hardware-NP model
        dqpn, sqpn, method = 1, 0x00abcd, MAD_METHOD_GET
        flags = PROBE_F_HW_NP if custom else 0
    else:
        dqpn, sqpn, method = 0x00abcd, 1, MAD_METHOD_GET_RESP
        flags = PROBE_F_RESPONSE | PROBE_F_HW_NP
        body.update(np_recv_ts=1767225600123460000,
                    np_send_ts=1767225600123470000,
                    user=bytes(range(0xa0, 0xac)), resp_ts=0x1234abcd)
    p = stack(v, 46, 0, 64, 0xc0de) / \
        BTH(opcode=OP_UD_SEND_ONLY, dqpn=dqpn, psn=tid & 0xffffff) / \
        DETH(qkey=GSI_QKEY, sqpn=sqpn) / \
        MAD(base_version=1, mgmt_class=MAD_CLASS, class_version=1,
            method=method, tid=tid, attr_id=MAD_ATTR_RTT) / \
        ProbeBody(flags=flags, **body) / probe_tail(custom)
    e = l3_expect(v, 46, 0, 64, 0xc0de)
    bth_expect(e, OP_UD_SEND_ONLY, 0xffff, 0, dqpn, tid & 0xffffff, 0, 0)
    e.update(kind='probe_req' if req else 'probe_resp',
             payload_len=PROBE_MAD_LEN, payload_off=e['bth_off'] + 20,
             flag_names=['deth', 'mad'], deth_qkey=GSI_QKEY,
             deth_sqpn=sqpn,
             mad=dict(rc=0, base_version=1, mgmt_class=MAD_CLASS,
                      class_version=1, method=method, status=0,
                      class_specific=0, tid=tid, attr_id=MAD_ATTR_RTT,
                      attr_mod=0))
    pe = dict(rc=0, tid=tid, flow_tag=body['flow_tag'], slot=7, flags=flags,
              custom_len=len(custom), req_send_ts=body['req_send_ts'],
              np_recv_ts=body.get('np_recv_ts', 0),
              np_send_ts=body.get('np_send_ts', 0),
              user=body.get('user', bytes(12)).hex(),
              resp_ts=body.get('resp_ts', 0),
              custom=custom.hex() if custom else None)
    if custom:
        pe['custom_off'] = e['payload_off'] + PROBE_CUSTOM_OFF
    e['probe'] = pe
    return p, e


def case_probe_request(v):
    out = []
    for label, custom in (('probe-req', b''),
                          ('probe-req-custom8', bytes(range(0x30, 0x38))),
                          ('probe-req-custom64', bytes(range(64)))):
        p, e = probe_pkt(v, True, custom)
        out.append((label, p, e))
    return out


def case_probe_response(v):
    p, e = probe_pkt(v, False)
    return [('probe-resp', p, e)]


def case_ud_send_only(v):
    p = stack(v, 0, 2, 9, 0xc001) / \
        BTH(opcode=OP_UD_SEND_ONLY, dqpn=0x000777, psn=5, padcount=1) / \
        DETH(qkey=0x12345678, sqpn=0x000999) / Raw(b'1234567\0')
    e = l3_expect(v, 0, 2, 9, 0xc001)
    bth_expect(e, OP_UD_SEND_ONLY, 0xffff, 0, 0x777, 5, 0, 1)
    e.update(kind='roce_data', payload_len=7, payload_off=e['bth_off'] + 20,
             flag_names=['deth'], deth_qkey=0x12345678, deth_sqpn=0x999)
    return [('ud-send-only', p, e)]


def case_pad_counts(v):
    out = []
    for n in range(0, 9):
        pad = (4 - n % 4) % 4
        p = stack(v, 1, 2, 64, 0xc002) / \
            BTH(opcode=OP_RC_SEND_ONLY, dqpn=0x10 + n, psn=n,
                padcount=pad) / Raw(bytes([0x5a] * n) + bytes(pad))
        e = l3_expect(v, 1, 2, 64, 0xc002)
        bth_expect(e, OP_RC_SEND_ONLY, 0xffff, 0, 0x10 + n, n, 0, pad)
        e.update(kind='roce_data', payload_len=n,
                 payload_off=e['bth_off'] + 12, flag_names=[])
        out.append(('send-len%d' % n, p, e))
    return out


# ---- catalog manifest -> expected values ------------------------------

def manifest_parse_expect(m):
    """What `pcc-wire parse --icrc` must report for a catalog entry."""
    e = {k: m[k] for k in ('vlan', 'vlan_tci', 'ipv6', 'src', 'dst', 'dscp',
                           'ecn', 'ttl', 'kind')}
    e['frame_len'] = m['len']
    e['rc'] = 0
    if m['kind'] == 'ifa2':
        e['ip_proto'] = m['ifa2']['ip_proto']
        e['ifa2'] = {k: v for k, v in m['ifa2'].items() if k != 'ip_proto'}
        return e
    e.update(ip_proto=17, udp_sport=m['udp_sport'],
             udp_dport=m['udp_dport'])
    if m['kind'] == 'ifa1':
        e['ifa1'] = m['ifa1']
        return e
    for k in ('opcode', 'pkey', 'bth_flags', 'fecn', 'becn', 'dqpn', 'psn',
              'ackreq', 'pad_cnt', 'payload_len', 'aeth_syndrome',
              'aeth_class', 'aeth_code', 'aeth_msn', 'reth_va', 'reth_rkey',
              'reth_dma_len', 'deth_qkey', 'deth_sqpn', 'immdt', 'mad',
              'probe', 'int'):
        if k in m:
            e[k] = m[k]
    e['flag_names'] = list(m['ext']) + (['mad'] if 'mad' in m else [])
    if m['kind'] == 'cnp':
        e['payload_len'] = m['cnp_pad_len']
    if 'probe' in m:
        e['probe'] = dict(m['probe'], rc=0)
        if 'custom' not in m['probe']:
            e['probe']['custom'] = None
    e['icrc_ok'] = True
    return e


class TestProtoInterop(TestSuite):

    def set_up_suite(self):
        self.wire = self.pcc_wire()
        self.catalog_pcap = self.work_path('catalog.pcap')
        self.manifest = self.wire.build(self.catalog_pcap)
        self.frames = read_frames(self.catalog_pcap)
        self.verify(len(self.frames) == len(self.manifest),
                    'catalog: %d frames, manifest %d lines'
                    % (len(self.frames), len(self.manifest)))
        self.verify(len(self.frames) > 0, 'empty catalog')
        for m, f in zip(self.manifest, self.frames):
            self.verify(m['len'] == len(f), '%s: manifest len %d, frame %d'
                        % (m['name'], m['len'], len(f)))

    # -- helpers ----------------------------------------------------------

    def roce_catalog(self, ipv6=None):
        """(manifest, frame) of the catalog's RoCEv2 entries."""
        return [(m, f) for m, f in zip(self.manifest, self.frames)
                if m['kind'] in ROCE_KINDS and
                (ipv6 is None or m['ipv6'] == ipv6)]

    def parse_frames(self, name, frames, **kw):
        path = self.work_path(name + '.pcap')
        write_pcap(path, frames)
        out = self.wire.parse(path, **kw)
        self.verify(len(out) == len(frames),
                    '%s: %d frames in, %d results out'
                    % (name, len(frames), len(out)))
        for i, r in enumerate(out):
            self.verify(r['index'] == i, '%s: result %d has index %s'
                        % (name, i, r['index']))
        return out

    def compare(self, label, actual, expected):
        """Soft-compare a parse result with an expected (nested) dict."""
        exp = dict(expected)
        act = dict(actual)
        if 'flag_names' in exp:
            want = sorted(exp.pop('flag_names') +
                          (['vlan'] if exp.get('vlan') else []) +
                          (['ipv6'] if exp.get('ipv6') else []) +
                          (['icrc_ok'] if exp.get('icrc_ok') else []))
            got = sorted(act.get('flag_names', []))
            self.check(got == want, '%s: flag_names expected %s, got %s'
                       % (label, want, got))
        if act.get('rc') != exp.get('rc', 0):
            self.check(False, '%s: rc %s (%s), expected %s'
                       % (label, act.get('rc'), act.get('error'),
                          exp.get('rc', 0)))
            return False
        return self.check_fields(flatten(act), flatten(exp), what=label)

    def scapy_cases(self, name, case_fn):
        cases = []
        for v in VARIANTS:
            for label, pkt, e in case_fn(v):
                frame = with_icrc(pkt)
                e = dict(e, rc=0, frame_len=len(frame), icrc_ok=True)
                cases.append(('%s-%s' % (label, v['tag']), frame, e))
        out = self.parse_frames(name, [c[1] for c in cases], icrc=True,
                                ip_csum=True)
        for (label, frame, e), r in zip(cases, out):
            if not self.compare(label, r, e):
                self.log('%s: %s' % (label, frame.hex()))
        self.log('%d packets compared' % len(cases))

    # -- (a) scapy -> pcc-wire parse ----------------------------------------

    def test_icrc_reference_vector(self):
        """REFERENCE section 1 CNP vector: ICRC da fc 1b ef."""
        ip = bytes.fromhex('4589003c98c64000201169271616160816161607'
                           'dbae12b700280000' '8100ffff400000d200000000' +
                           '00' * 16)
        icrc = bytes.fromhex('dafc1bef')
        self.assert_equal(icrc_calc(ip).to_bytes(4, 'little'), icrc,
                          'framework ICRC of the reference vector')
        frame = bytes.fromhex('020000000002020000000001' '0800') + ip + icrc
        self.assert_equal(scapy_icrc(frame).to_bytes(4, 'little'), icrc,
                          'scapy ICRC of the reference vector')
        r = self.parse_frames('ref-vector', [frame], icrc=True,
                              ip_csum=True)[0]
        self.compare('reference-cnp', r, dict(
            rc=0, kind='cnp', icrc_ok=True, opcode=0x81, pkey=0xffff,
            bth_flags=0x40, becn=True, fecn=False, dqpn=0xd2, psn=0,
            src='22.22.22.8', dst='22.22.22.7', udp_sport=56238,
            udp_dport=4791, ttl=0x20, dscp=0x89 >> 2, ecn=1,
            frame_len=len(frame), payload_len=16, flag_names=[]))
        bad = bytearray(frame)
        bad[-1] ^= 0x01
        r = self.parse_frames('ref-vector-bad', [bytes(bad)], icrc=True)[0]
        self.assert_equal(r['rc'], ERR_BAD_ICRC, 'rc with a wrong ICRC')

    def test_scapy_rc_send_only(self):
        self.scapy_cases('scapy-rc-send-only', case_rc_send_only)

    def test_scapy_rdma_write_only(self):
        self.scapy_cases('scapy-rdma-write-only', case_rdma_write_only)

    def test_scapy_ack_nak(self):
        self.scapy_cases('scapy-ack-nak', case_ack_nak)

    def test_scapy_cnp(self):
        self.scapy_cases('scapy-cnp', case_cnp)

    def test_scapy_probe_request(self):
        self.scapy_cases('scapy-probe-req', case_probe_request)

    def test_scapy_probe_response(self):
        self.scapy_cases('scapy-probe-resp', case_probe_response)

    def test_scapy_ud_send_only(self):
        self.scapy_cases('scapy-ud-send-only', case_ud_send_only)

    def test_scapy_pad_counts(self):
        self.scapy_cases('scapy-pad-counts', case_pad_counts)

    def test_scapy_ethernet_padding(self):
        """Frames padded to 60 bytes / with trailing bytes still parse."""
        p = l2l3() / BTH(opcode=OP_RC_ACK, dqpn=3, psn=4) / \
            AETH(syndrome=0, msn=1)
        frame = with_icrc(p)
        frames = [frame + bytes(n) for n in (0, 1, 4, 60)]
        out = self.parse_frames('eth-padding', frames, icrc=True,
                                ip_csum=True)
        for f, r in zip(frames, out):
            self.compare('padded-to-%d' % len(f), r, dict(
                rc=0, kind='ack', icrc_ok=True, frame_len=len(f), dqpn=3,
                psn=4, payload_len=0))

    def test_scapy_ipv4_options(self):
        """IPv4 options (IHL > 5) shift the offsets and are ICRC-covered."""
        cases = []
        for label, opts in (('nop4', [IPOption_NOP()] * 4),
                            ('ra', [IPOption_Router_Alert()]),
                            ('nop40', [IPOption_NOP()] * 40)):
            p = l2l3(ecn=3, dscp=26) / BTH(opcode=OP_RC_SEND_ONLY, dqpn=9,
                                           psn=10) / Raw(b'abcd')
            p[IP].options = opts
            frame = with_icrc(p)
            ihl = (frame[14] & 0xf) * 4
            self.verify(ihl > 20, '%s: scapy built IHL %d' % (label, ihl))
            self.assert_equal(scapy_icrc(frame), frame_icrc(frame)[0],
                              '%s: scapy ICRC vs framework ICRC' % label)
            cases.append((label, frame, dict(
                rc=0, kind='roce_data', icrc_ok=True, l3_off=14,
                l4_off=14 + ihl, bth_off=14 + ihl + 8,
                payload_off=14 + ihl + 20, payload_len=4, dqpn=9, psn=10,
                ecn=3, dscp=26, frame_len=len(frame))))
        out = self.parse_frames('ipv4-options', [c[1] for c in cases],
                                icrc=True, ip_csum=True)
        for (label, _, e), r in zip(cases, out):
            self.compare(label, r, e)

    def test_scapy_classification_edges(self):
        """Frames at the edges of the classification rules of
        doc/wire.md sections 2.4, 3.3, 4.7, 5 and 7.4."""
        ok = 0
        send = BTH(opcode=OP_RC_SEND_ONLY, dqpn=1, psn=1) / Raw(b'data')

        def mad(method=MAD_METHOD_GET, base=1, cv=1, cls=MAD_CLASS,
                attr=MAD_ATTR_RTT, custom_len=0, extra=None):
            # extra: the bytes after the body; default: a full MAD
            if extra is None:
                extra = bytes(PROBE_MAD_LEN - PROBE_CUSTOM_OFF)
            return BTH(opcode=OP_UD_SEND_ONLY, dqpn=1, psn=1) / \
                DETH(qkey=GSI_QKEY, sqpn=0x22) / \
                MAD(base_version=base, mgmt_class=cls, class_version=cv,
                    method=method, tid=7, attr_id=attr) / \
                ProbeBody(custom_len=custom_len) / Raw(extra)

        cases = [
            # (label, frame bytes, rc, kind or None, extra expectations)
            ('udp-other-port', raw(Ether() / IP() / UDP(dport=4792) /
                                   Raw(bytes(20))), 0, 'other',
             {'udp_dport': 4792}),
            ('tcp', raw(Ether() / IP(proto=6) / Raw(bytes(20))), 0,
             'other', {'ip_proto': 6}),
            ('qinq-8100-8100', raw(Ether() / Dot1Q(vlan=1) / Dot1Q(vlan=2) /
                                   IP() / UDP(dport=4791) / Raw(bytes(20))),
             0, 'other', {}),
            ('v4-fragment-mf', with_icrc(
                l2l3() / BTH(opcode=OP_RC_SEND_ONLY) / Raw(b'abcd'))
             [:20] + b'\x20\x00' + with_icrc(
                 l2l3() / BTH(opcode=OP_RC_SEND_ONLY) / Raw(b'abcd'))[22:],
             ERR_FRAGMENT, None, {}),
            ('v6-hop-by-hop', raw(Ether() / IPv6(src=V6_SRC, dst=V6_DST) /
                                  IPv6ExtHdrHopByHop() / UDP(dport=4791) /
                                  send), ERR_FRAGMENT, None, {}),
            ('aeth-class-2', with_icrc(l2l3() / BTH(opcode=OP_RC_ACK) /
                                       AETH(syndrome=0x40)),
             ERR_BAD_FIELD, None, {}),
            ('cnp-short', with_icrc(l2l3() / BTH(opcode=OP_CNP, becn=1) /
                                    Raw(bytes(12))), ERR_BAD_LENGTH, None,
             {}),
            ('cnp-nonzero-pad', with_icrc(l2l3() / BTH(opcode=OP_CNP) /
                                          Raw(b'\xff' * 16)), 0, 'cnp',
             {'payload_len': 16}),
            ('opcode-0x80', with_icrc(l2l3() / BTH(opcode=0x80) /
                                      Raw(bytes(16))), ERR_UNKNOWN_OPCODE,
             None, {}),
            ('rd-opcode', with_icrc(l2l3() / BTH(opcode=0x44) /
                                    Raw(bytes(32))), ERR_UNKNOWN_OPCODE,
             None, {}),
            ('tver-and-bad-opcode', with_icrc(
                l2l3() / BTH(opcode=0x80, version=1) / Raw(bytes(16))),
             ERR_BAD_VERSION, None, {}),
            ('mad-other-method', with_icrc(l2l3() / mad(method=0x02)), 0,
             'roce_data', {'flag_names': ['deth', 'mad']}),
            ('mad-other-class', with_icrc(l2l3() / mad(cls=0x04)), 0,
             'roce_data', {'flag_names': ['deth']}),
            ('mad-other-attr', with_icrc(l2l3() / mad(attr=0x0010)), 0,
             'roce_data', {'flag_names': ['deth']}),
            ('mad-base-version-2', with_icrc(l2l3() / mad(base=2)),
             ERR_BAD_VERSION, None, {}),
            ('mad-class-version-2', with_icrc(l2l3() / mad(cv=2)),
             ERR_BAD_VERSION, None, {}),
            ('probe-truncated-body', with_icrc(
                l2l3() / BTH(opcode=OP_UD_SEND_ONLY, dqpn=1) /
                DETH(qkey=GSI_QKEY, sqpn=3) /
                MAD(mgmt_class=MAD_CLASS, method=1, attr_id=MAD_ATTR_RTT) /
                Raw(bytes(44))), ERR_TRUNCATED, None, {}),
            ('probe-custom-too-long', with_icrc(
                l2l3() / mad(custom_len=65)), 0,
             'probe_req', {'probe': {'rc': ERR_BAD_FIELD}}),
            ('probe-custom-64', with_icrc(
                l2l3() / mad(custom_len=64)), 0,
             'probe_req', {'probe': {'rc': 0, 'custom_len': 64}}),
            # the MAD is 256 bytes: 72 (the pre-256 layout) or 255 bytes
            # are truncated probes, trailing bytes after 256 are ignored
            ('probe-mad-72', with_icrc(l2l3() / mad(extra=b'')),
             ERR_TRUNCATED, None, {}),
            ('probe-mad-255', with_icrc(
                l2l3() / mad(extra=bytes(PROBE_MAD_LEN - 73))),
             ERR_TRUNCATED, None, {}),
            ('probe-resp-mad-255', with_icrc(
                l2l3() / mad(method=MAD_METHOD_GET_RESP,
                             extra=bytes(PROBE_MAD_LEN - 73))),
             ERR_TRUNCATED, None, {}),
            ('probe-mad-260', with_icrc(
                l2l3() / mad(extra=bytes(PROBE_MAD_LEN - 68))), 0,
             'probe_req', {'payload_len': 260, 'probe': {'rc': 0}}),
        ]
        out = self.parse_frames('classification-edges',
                                [c[1] for c in cases])
        for (label, frame, rc, kind, extra), r in zip(cases, out):
            e = dict(rc=rc)
            if kind is not None:
                e['kind'] = kind
            e.update(extra)
            if 'flag_names' in e:
                got = sorted(f for f in r.get('flag_names', []))
                self.check(got == sorted(e.pop('flag_names')),
                           '%s: flag_names %s' % (label, got))
            if self.compare(label, r, e):
                ok += 1
            else:
                self.log('%s: %s' % (label, frame.hex()))
        self.log('%d/%d cases as documented' % (ok, len(cases)))

    def test_pcc_wire_pcapng(self):
        """pcc-wire reads pcapng (tshark-converted catalog) the same."""
        ts = self.tshark()
        ng = self.work_path('catalog.pcapng')
        ts.run(['-r', self.catalog_pcap, '-F', 'pcapng', '-w', ng])
        a = self.wire.parse(self.catalog_pcap, icrc=True)
        b = self.wire.parse(ng, icrc=True)
        self.assert_equal(len(b), len(a), 'frames read from pcapng')
        for x, y in zip(a, b):
            self.check(x == y, 'frame %d differs between pcap and pcapng'
                       % x['index'])

    # -- catalog: lib/proto builder -> lib/proto parser ---------------------

    def test_catalog_roundtrip(self):
        """Every catalog frame parses back to the manifest's values."""
        out = self.wire.parse(self.catalog_pcap, icrc=True, ip_csum=True)
        self.assert_equal(len(out), len(self.manifest), 'parsed frames')
        for m, r in zip(self.manifest, out):
            self.compare(m['name'], r, manifest_parse_expect(m))
        self.log('%d frames compared' % len(out))

    def test_catalog_names(self):
        """The catalog covers what the interop tests rely on."""
        names = {m['name'] for m in self.manifest}
        for base in ('cnp', 'rc-send-only', 'rc-write-only', 'ack',
                     'rnr-nak', 'nak-psn-seq', 'nak-invalid-req',
                     'nak-remote-access', 'nak-remote-op',
                     'nak-invalid-rd-req', 'ud-send-only', 'probe-req',
                     'probe-resp', 'rc-send-imm', 'rc-write-imm',
                     'rc-read-req', 'rc-read-resp-only', 'rc-send-inv',
                     'ud-send-imm', 'rc-fetch-add', 'rc-atomic-ack',
                     'uc-send-only'):
            for v in ('v4', 'v4-vlan', 'v6', 'v6-vlan'):
                self.check('%s-%s' % (base, v) in names,
                           'catalog lacks %s-%s' % (base, v))

    # -- (b) catalog -> tshark ----------------------------------------------

    def test_catalog_tshark_bth(self):
        """tshark decodes BTH/AETH/RETH/DETH as the manifest says."""
        ts = self.tshark()
        fields = ['frame.number', 'infiniband.bth.opcode',
                  'infiniband.bth.se', 'infiniband.bth.m',
                  'infiniband.bth.padcnt', 'infiniband.bth.tver',
                  'infiniband.bth.p_key', 'infiniband.bth.destqp',
                  'infiniband.bth.a', 'infiniband.bth.psn',
                  'infiniband.aeth.syndrome', 'infiniband.aeth.msn',
                  'infiniband.reth.va', 'infiniband.reth.r_key',
                  'infiniband.reth.dmalen', 'infiniband.deth.q_key',
                  'infiniband.deth.srcqp'] + \
            ['infiniband.' + h for h in EXT_HEADERS]
        rows = ts.fields(self.catalog_pcap, fields)
        self.assert_equal(len(rows), len(self.manifest), 'tshark frames')
        key = {'infiniband.bth.opcode': 'opcode',
               'infiniband.bth.se': 'se', 'infiniband.bth.m': 'mig',
               'infiniband.bth.padcnt': 'pad_cnt',
               'infiniband.bth.p_key': 'pkey',
               'infiniband.bth.destqp': 'dqpn',
               'infiniband.bth.a': 'ackreq', 'infiniband.bth.psn': 'psn',
               'infiniband.aeth.syndrome': 'aeth_syndrome',
               'infiniband.aeth.msn': 'aeth_msn',
               'infiniband.reth.va': 'reth_va',
               'infiniband.reth.r_key': 'reth_rkey',
               'infiniband.reth.dmalen': 'reth_dma_len',
               'infiniband.deth.q_key': 'deth_qkey',
               'infiniband.deth.srcqp': 'deth_sqpn'}
        n = 0
        for m, row in zip(self.manifest, rows):
            if m['kind'] not in ROCE_KINDS and 'int' not in m:
                continue
            n += 1
            got = {}
            for f, vals in row.items():
                if f in key and vals:
                    got[key[f]] = to_int(vals[0])
            exp = {k: m[k] for k in key.values() if k in m}
            exp['tver'] = 0
            got['tver'] = to_int(row['infiniband.bth.tver'][0]) \
                if row['infiniband.bth.tver'] else None
            self.check_fields(got, exp, what='%s (tshark)' % m['name'])
            # headers tshark shows must be exactly those the opcode has
            for hdr in EXT_HEADERS:
                shown = bool(row['infiniband.' + hdr])
                self.check(shown == (hdr in m['ext']), '%s: tshark %s %s'
                           % (m['name'], 'shows' if shown else 'lacks',
                              hdr.upper()))
            for hdr in ('immdt', 'ieth'):
                if hdr in m['ext'] and row['infiniband.' + hdr]:
                    self.check(int(row['infiniband.' + hdr][0], 16) ==
                               m['immdt'], '%s: tshark %s %s, expected '
                               '%08x' % (m['name'], hdr,
                                         row['infiniband.' + hdr][0],
                                         m['immdt']))
        self.log('%d frames compared' % n)

    def test_catalog_tshark_l2l3(self):
        """tshark agrees on Ethernet/VLAN/IP/UDP fields and checksums."""
        ts = self.tshark()
        fields = ['frame.len', 'eth.src', 'eth.dst', 'vlan.id',
                  'vlan.priority', 'vlan.dei', 'ip.src', 'ip.dst',
                  'ip.dsfield.dscp', 'ip.dsfield.ecn', 'ip.ttl', 'ip.id',
                  'ip.flags.df', 'ip.proto', 'ip.len',
                  'ip.checksum.status', 'ipv6.src', 'ipv6.dst',
                  'ipv6.tclass.dscp', 'ipv6.tclass.ecn', 'ipv6.flow',
                  'ipv6.hlim', 'ipv6.nxt', 'ipv6.plen', 'udp.srcport',
                  'udp.dstport', 'udp.length', 'udp.checksum.status']
        rows = ts.fields(self.catalog_pcap, fields)
        self.assert_equal(len(rows), len(self.manifest), 'tshark frames')
        for m, row in zip(self.manifest, rows):
            one = {f: (vals[0] if vals else None) for f, vals in row.items()}
            mac = ':'.join(m['src_mac'][i:i + 2] for i in range(0, 12, 2))
            dmac = ':'.join(m['dst_mac'][i:i + 2] for i in range(0, 12, 2))
            l3 = 18 if m['vlan'] else 14
            got = dict(len=int(one['frame.len']), smac=one['eth.src'],
                       dmac=one['eth.dst'])
            exp = dict(len=m['len'], smac=mac, dmac=dmac)
            if m['vlan']:
                got.update(vid=to_int(one['vlan.id']),
                           pcp=to_int(one['vlan.priority']),
                           dei=to_int(one['vlan.dei']))
                exp.update(vid=m['vlan_tci'] & 0xfff,
                           pcp=m['vlan_tci'] >> 13,
                           dei=(m['vlan_tci'] >> 12) & 1)
            proto = 17 if m['kind'] != 'ifa2' else m['ifa2']['ip_proto']
            if m['ipv6']:
                got.update(src=one['ipv6.src'], dst=one['ipv6.dst'],
                           dscp=to_int(one['ipv6.tclass.dscp']),
                           ecn=to_int(one['ipv6.tclass.ecn']),
                           flow=to_int(one['ipv6.flow']),
                           ttl=to_int(one['ipv6.hlim']),
                           proto=to_int(one['ipv6.nxt']),
                           iplen=to_int(one['ipv6.plen']))
                exp.update(flow=m['flow_label'], iplen=m['len'] - l3 - 40)
            else:
                got.update(src=one['ip.src'], dst=one['ip.dst'],
                           dscp=to_int(one['ip.dsfield.dscp']),
                           ecn=to_int(one['ip.dsfield.ecn']),
                           ttl=to_int(one['ip.ttl']),
                           ipid=to_int(one['ip.id']),
                           df=to_int(one['ip.flags.df']),
                           proto=to_int(one['ip.proto']),
                           iplen=to_int(one['ip.len']),
                           ipcsum=to_int(one['ip.checksum.status']))
                exp.update(ipid=m['ip_id'], df=1, iplen=m['len'] - l3,
                           ipcsum=CSUM_GOOD)
            exp.update(src=m['src'], dst=m['dst'], dscp=m['dscp'],
                       ecn=m['ecn'], ttl=m['ttl'], proto=proto)
            if m['kind'] != 'ifa2':
                got.update(sport=to_int(one['udp.srcport']),
                           dport=to_int(one['udp.dstport']),
                           ulen=to_int(one['udp.length']),
                           ucsum=to_int(one['udp.checksum.status']))
                exp.update(sport=m['udp_sport'], dport=4791,
                           ulen=exp['iplen'] - (0 if m['ipv6'] else 20),
                           ucsum=CSUM_GOOD if m['ipv6'] else
                           CSUM_NOT_PRESENT)
            self.check_fields(got, exp, what='%s (tshark)' % m['name'])

    def test_catalog_tshark_icrc(self):
        """tshark finds the ICRC where the frame carries it."""
        ts = self.tshark()
        rows = ts.fields(self.catalog_pcap, ['infiniband.invariant.crc'])
        n = 0
        for m, f, row in zip(self.manifest, self.frames, rows):
            if m['kind'] not in ROCE_KINDS or \
                    not row['infiniband.invariant.crc']:
                continue    # tshark omits it for CNPs and small MADs
            n += 1
            wire = ip_datagram(f)[-4:]
            got = to_int(row['infiniband.invariant.crc'][0])
            self.check(got in (int.from_bytes(wire, 'big'),
                               int.from_bytes(wire, 'little')),
                       '%s: tshark ICRC 0x%08x, frame ends %s'
                       % (m['name'], got, wire.hex()))
        self.check(n > 0, 'tshark showed no ICRC at all')

    def test_catalog_tshark_mad(self):
        """The probes' MAD, as tshark decodes it, from the catalog frames
        exactly as lib/proto builds them (no re-framing).

        tshark decodes a MAD only when a full 256-byte IB MAD follows the
        DETH; our probes carry exactly that (doc/wire.md section 7), so
        tshark must decode the MAD common header of every probe directly:
        requests (to QP1) and responses (to the flow's QP).  (tshark shows
        no ICRC field for MADs; the ICRC tests cover it.)
        """
        ts = self.tshark()
        probes = [(m, f) for m, f in zip(self.manifest, self.frames)
                  if m['kind'] in ('probe_req', 'probe_resp')]
        self.verify(probes, 'no probes in the catalog')
        path = self.work_path('probes.pcap')
        write_pcap(path, [f for _, f in probes])
        fields = ['infiniband.bth.destqp', 'infiniband.mad.baseversion',
                  'infiniband.mad.mgmtclass', 'infiniband.mad.classversion',
                  'infiniband.mad.method', 'infiniband.mad.status',
                  'infiniband.mad.transactionid',
                  'infiniband.mad.attributeid',
                  'infiniband.mad.attributemodifier', 'udp.length']
        rows = ts.fields(path, fields)
        self.assert_equal(len(rows), len(probes), 'tshark frames')
        n = {'probe_req': 0, 'probe_resp': 0}
        for (m, f), row in zip(probes, rows):
            got = {f.split('.')[-1]: (to_int(v[0]) if v else None)
                   for f, v in row.items()}
            mad = m['mad']
            # UDP: header 8, BTH 12, DETH 8, MAD 256, ICRC 4
            exp = dict(length=8 + 12 + 8 + PROBE_MAD_LEN + 4,
                       destqp=m['dqpn'], baseversion=mad['base_version'],
                       mgmtclass=mad['mgmt_class'],
                       classversion=mad['class_version'],
                       method=mad['method'], status=0,
                       transactionid=mad['tid'], attributeid=mad['attr_id'],
                       attributemodifier=0)
            if self.check_fields(got, exp, what='%s (tshark MAD)'
                                 % m['name']):
                n[m['kind']] += 1
        self.verify(n['probe_req'] > 0 and n['probe_resp'] > 0,
                    'tshark decoded no request or no response: %s' % n)
        self.log('decoded by tshark as built: %d requests, %d responses'
                 % (n['probe_req'], n['probe_resp']))

    # -- (c) ICRC -------------------------------------------------------------

    def test_catalog_icrc_scapy(self):
        """scapy recomputes the same ICRC for every IPv4 RoCE frame."""
        n = 0
        for m, f in self.roce_catalog(ipv6=False):
            n += 1
            wire, _ = frame_icrc(f)
            s = scapy_icrc(f)
            self.check(s == wire, '%s: scapy ICRC %08x, frame %08x'
                       % (m['name'], s, wire))
        self.check(n > 0, 'no IPv4 RoCE frames')
        # INT frames: ICRC refreshed after the in-place hop pushes
        for m, f in zip(self.manifest, self.frames):
            if 'int' in m and not m['ipv6']:
                wire, _ = frame_icrc(f)
                self.check(scapy_icrc(f) == wire, '%s: scapy ICRC differs'
                           % m['name'])

    def test_catalog_icrc_independent(self):
        """An ICRC written from REFERENCE section 1 agrees (v4 and v6)."""
        for m, f in zip(self.manifest, self.frames):
            if m['kind'] not in ROCE_KINDS and 'int' not in m:
                continue
            wire, calc = frame_icrc(f)
            self.check(wire == calc, '%s: frame ICRC %08x, computed %08x'
                       % (m['name'], wire, calc))

    def test_icrc_masked_fields(self):
        """Changing fields the ICRC masks keeps the ICRC valid."""
        frames, labels = [], []
        for m, f in self.roce_catalog():
            l3 = l3_offset(f)
            ihl = 40 if m['ipv6'] else 20
            bth = l3 + ihl + 8
            if m['ipv6']:
                spots = {'tclass': [l3, l3 + 1], 'flow': [l3 + 2, l3 + 3],
                         'hlim': [l3 + 7]}
            else:
                spots = {'tos': [l3 + 1], 'ttl': [l3 + 8],
                         'ipcsum': [l3 + 10, l3 + 11]}
            spots['udpcsum'] = [l3 + ihl + 6, l3 + ihl + 7]
            spots['bth4'] = [bth + 4]
            for what, offs in spots.items():
                b = bytearray(f)
                for o in offs:
                    b[o] ^= 0x0f if o == l3 and m['ipv6'] else 0xff
                frames.append(bytes(b))
                labels.append('%s/%s' % (m['name'], what))
        out = self.parse_frames('icrc-masked', frames, icrc=True)
        for lab, r in zip(labels, out):
            self.check(r['rc'] == 0 and r.get('icrc_ok') is True,
                       '%s: rc %s (%s) icrc_ok %s'
                       % (lab, r['rc'], r['error'], r.get('icrc_ok')))
        self.log('%d mutated frames' % len(frames))

    def test_icrc_covered_fields(self):
        """Flipping a bit the ICRC covers is detected with --icrc."""
        frames, labels = [], []
        for m, f in self.roce_catalog():
            l3 = l3_offset(f)
            ihl = 40 if m['ipv6'] else 20
            addr = range(l3 + ihl - (32 if m['ipv6'] else 8), l3 + ihl)
            sport = range(l3 + ihl, l3 + ihl + 2)
            bth = l3 + ihl + 8
            rest = [o for o in range(bth, len(f)) if o != bth + 4]
            for o in list(addr) + list(sport) + rest:
                b = bytearray(f)
                b[o] ^= 0x01
                frames.append(bytes(b))
                labels.append((m['name'], o, o >= bth))
        out = self.parse_frames('icrc-covered', frames, icrc=True)
        for (name, off, in_bth), r in zip(labels, out):
            if in_bth:
                self.check(r['rc'] < 0, '%s: bit flip at %d accepted '
                           '(kind %s)' % (name, off, r.get('kind')))
            else:
                self.check(r['rc'] == ERR_BAD_ICRC, '%s: bit flip at %d: '
                           'rc %s (%s), expected BAD_ICRC'
                           % (name, off, r['rc'], r['error']))
        # without --icrc the same address/port flips are accepted
        out = self.wire.parse(self.work_path('icrc-covered.pcap'))
        for (name, off, in_bth), r in zip(labels, out):
            if not in_bth:
                self.check(r['rc'] == 0, '%s: flip at %d without --icrc: '
                           'rc %s' % (name, off, r['rc']))
        self.log('%d mutated frames' % len(frames))

    def test_ip_checksum_option(self):
        """--ip-csum rejects a bad IPv4 header checksum, else ignored."""
        frames = []
        for m, f in self.roce_catalog(ipv6=False):
            b = bytearray(f)
            b[l3_offset(f) + 11] ^= 0x40
            frames.append(bytes(b))
        out = self.parse_frames('ip-csum', frames, ip_csum=True)
        for r in out:
            self.check(r['rc'] == ERR_BAD_CSUM, 'frame %d: rc %s (%s)'
                       % (r['index'], r['rc'], r['error']))
        out = self.wire.parse(self.work_path('ip-csum.pcap'))
        for r in out:
            self.check(r['rc'] == 0, 'frame %d without --ip-csum: rc %s'
                       % (r['index'], r['rc']))

    # -- scapy dissects the catalog -------------------------------------------

    def test_catalog_scapy_dissect(self):
        """scapy's view of every RoCE catalog frame matches the manifest,
        including the probe body layout of doc/wire.md section 7."""
        for m, f in self.roce_catalog():
            p = Ether(f)
            if not self.check(BTH in p, '%s: scapy found no BTH'
                              % m['name']):
                continue
            b = p[BTH]
            got = dict(opcode=b.opcode, pkey=b.pkey, dqpn=b.dqpn,
                       ackreq=b.ackreq, fecn=bool(b.fecn),
                       becn=bool(b.becn), tver=b.version)
            exp = {k: m[k] for k in ('opcode', 'pkey', 'dqpn', 'ackreq',
                                     'fecn', 'becn') if k in m}
            exp['tver'] = 0
            if 'psn' in m:
                got['psn'] = b.psn
                exp['psn'] = m['psn']
            if 'pad_cnt' in m:
                got['pad_cnt'] = b.padcount
                exp['pad_cnt'] = m['pad_cnt']
            if 'se' in m:
                got.update(se=b.solicited, mig=b.migreq)
                exp.update(se=m['se'], mig=m['mig'])
            # extension headers in IBA order (doc/wire.md 4.6), decoded
            # with scapy's layers from the bytes after the BTH
            data = raw(b.payload)
            for hdr, size in EXT_ORDER:
                if hdr not in m['ext']:
                    continue
                h, data = data[:size], data[size:]
                if hdr == 'deth':
                    d = DETH(h)
                    got.update(deth_qkey=d.qkey, deth_sqpn=d.sqpn)
                elif hdr == 'reth':
                    d = RETH(h)
                    got.update(reth_va=d.va, reth_rkey=d.rkey,
                               reth_dma_len=d.dma_len)
                elif hdr == 'aeth':
                    d = AETH(h)
                    got.update(aeth_syndrome=d.syndrome, aeth_msn=d.msn)
                elif hdr in ('immdt', 'ieth'):
                    got['immdt'] = int.from_bytes(h, 'big')
                else:       # atomics: builders write zeros
                    got[hdr] = h.hex()
                    exp[hdr] = bytes(size).hex()
            for k in ('aeth_syndrome', 'aeth_msn', 'reth_va', 'reth_rkey',
                      'reth_dma_len', 'deth_qkey', 'deth_sqpn', 'immdt'):
                if k in m:
                    exp[k] = m[k]
            if m['kind'] == 'cnp':
                got['cnp_pad'] = data
                exp['cnp_pad'] = bytes(16)
            if 'payload' in m:
                got['payload'] = data[:m['payload_len']].hex()
                got['pad'] = data[m['payload_len']:].hex()
                exp['payload'] = m['payload']
                exp['pad'] = '00' * m['pad_cnt']
            if 'probe' in m:
                mad_bytes = raw(p[DETH].payload)
                mad = MAD(mad_bytes[:24])
                body = ProbeBody(mad_bytes[24:72])
                got.update(mad_base=mad.base_version,
                           mad_class=mad.mgmt_class,
                           mad_cv=mad.class_version, mad_method=mad.method,
                           mad_tid=mad.tid, mad_attr=mad.attr_id)
                mm = m['mad']
                exp.update(mad_base=mm['base_version'],
                           mad_class=mm['mgmt_class'],
                           mad_cv=mm['class_version'],
                           mad_method=mm['method'], mad_tid=mm['tid'],
                           mad_attr=mm['attr_id'])
                pr = m['probe']
                for fld in ('flow_tag', 'slot', 'flags', 'custom_len',
                            'req_send_ts', 'np_recv_ts', 'np_send_ts',
                            'resp_ts'):
                    got['probe_' + fld] = getattr(body, fld)
                    exp['probe_' + fld] = pr[fld]
                got['probe_user'] = bytes(body.user).hex()
                exp['probe_user'] = pr['user']
                if pr['custom_len']:
                    got['probe_custom'] = \
                        mad_bytes[72:72 + pr['custom_len']].hex()
                    exp['probe_custom'] = pr['custom']
                # zero padding to the end of the 256-byte MAD, then ICRC
                got['probe_mad_tail'] = \
                    mad_bytes[72 + pr['custom_len']:PROBE_MAD_LEN].hex()
                exp['probe_mad_tail'] = \
                    bytes(PROBE_MAD_LEN - 72 - pr['custom_len']).hex()
                got['probe_mad_len'] = len(mad_bytes[:PROBE_MAD_LEN])
                exp['probe_mad_len'] = PROBE_MAD_LEN
            self.check_fields(got, exp, what='%s (scapy)' % m['name'])

    # -- telemetry headers encoded from doc/wire.md -----------------------

    def ifa2_frame(self, v, proto, hops, payload=b'hello ifa2',
                   hdr=None, md=None):
        """IFA2 frame encoded from doc/wire.md section 8."""
        udp_len = 8 + 4 + 32 * len(hops) + len(payload)
        stack_ = b''.join(tlm.ifa2_hop(**h) for h in hops)
        hdr = hdr or tlm.ifa2_hdr(flags=0x08, max_len=64)
        md = md or tlm.ifa2_md(req_vector=0x5a, action_vector=0x80,
                               hop_limit=0xfe - len(hops),
                               cur_len=8 * len(hops))
        udp_nock = struct.pack('!HHHH', 0xc0c0, 4791, udp_len, 0) + md + \
            stack_ + payload
        if v['ipv6']:
            s = ipaddress.IPv6Address(V6_SRC).packed
            d = ipaddress.IPv6Address(V6_DST).packed
            ck = tlm.udp6_csum(s, d, udp_nock)
        else:
            ck = 0
        udp = udp_nock[:6] + struct.pack('!H', ck) + udp_nock[8:]
        eth = Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02')
        if v['vlan'] is not None:
            eth = eth / Dot1Q(prio=v['vlan'] >> 13,
                              id=(v['vlan'] >> 12) & 1,
                              vlan=v['vlan'] & 0xfff)
        if v['ipv6']:
            ip = IPv6(src=V6_SRC, dst=V6_DST, nh=proto, hlim=17, tc=0x12)
        else:
            ip = IP(src=V4_SRC, dst=V4_DST, proto=proto, ttl=17, tos=0x12)
        return raw(eth / ip / Raw(hdr + udp))

    def test_ifa2_wire_layout(self):
        """IFA 2.0 frames encoded from doc/wire.md 8 decode correctly
        (protocol 253 by default, 131 as scapy uses, 0 hops to 3)."""
        hop_defs = [
            dict(lns=0xa, device_id=0x12345, ttl=0x40, port_speed=4,
                 congestion=2, queue_id=0x15, rx_sec=0xabcde,
                 egress_port=0x1111, ingress_port=0x2222, rx_ns=0xdeadbeef,
                 residence_ns=0x01020304, profile=bytes(range(12))),
            dict(lns=1, device_id=0xfffff, ttl=255, port_speed=6,
                 congestion=3, queue_id=63, rx_sec=0xfffff,
                 egress_port=0xffff, ingress_port=0, rx_ns=0,
                 residence_ns=0xffffffff, profile=bytes([0xff] * 12)),
            dict(lns=0, device_id=0, ttl=1, port_speed=0, congestion=0,
                 queue_id=0, rx_sec=0, egress_port=7, ingress_port=9,
                 rx_ns=999999999, residence_ns=0, profile=bytes(12)),
        ]
        cases = []
        for proto in (253, 131):
            for v in VARIANTS:
                for n in (0, 1, 3):
                    frame = self.ifa2_frame(v, proto, hop_defs[:n])
                    cases.append((proto, v, n, frame))
        for proto in (253, 131):
            sel = [c for c in cases if c[0] == proto]
            out = self.parse_frames('ifa2-%d' % proto, [c[3] for c in sel],
                                    ifa2_proto=proto)
            for (_, v, n, frame), r in zip(sel, out):
                l3 = 18 if v['vlan'] is not None else 14
                ifa = l3 + (40 if v['ipv6'] else 20)
                hops = [dict(h, rc=0, profile=h['profile'].hex(),
                             port_speed_gbps={0: 10, 4: 100, 6: 400}[
                                 h['port_speed']])
                        for h in hop_defs[:n]]
                exp = dict(rc=0, kind='ifa2', ip_proto=proto,
                           frame_len=len(frame), ttl=17, dscp=0x12 >> 2,
                           ecn=2, ifa2=dict(
                               rc=0, ver=2, gns=15, next_hdr=17, flags=8,
                               max_len=64, req_vector=0x5a,
                               action_vector=0x80, hop_limit=0xfe - n,
                               cur_len=8 * n, ifa_off=ifa, udp_off=ifa + 4,
                               md_off=ifa + 12, stack_off=ifa + 16,
                               n_hops=n, payload_off=ifa + 16 + 32 * n,
                               hops=hops))
                self.compare('ifa2-%d-%s-%dhops' % (proto, v['tag'], n), r,
                             exp)
        # with another protocol configured, IFA2 is not recognised
        out = self.parse_frames('ifa2-off', [c[3] for c in cases
                                             if c[0] == 131],
                                ifa2_proto=0)
        for r in out:
            self.check(r['rc'] != 0 or r['kind'] != 'ifa2',
                       'frame %d: IFA2 recognised with --ifa2-proto 0'
                       % r['index'])

    def test_ifa2_catalog_checksums(self):
        """Catalog IFA2 frames: UDP length = IP payload - 4; IPv6 UDP
        checksum with next header 17 over UDP..end (doc/wire.md 8.4)."""
        n = 0
        for m, f in zip(self.manifest, self.frames):
            if m['kind'] != 'ifa2':
                continue
            n += 1
            ip = ip_datagram(f)
            ihl = 40 if m['ipv6'] else 20
            udp = bytearray(ip[ihl + 4:])
            ulen = struct.unpack('!H', udp[4:6])[0]
            self.check(ulen == len(ip) - ihl - 4, '%s: UDP length %d, IP '
                       'payload %d' % (m['name'], ulen, len(ip) - ihl))
            ck = struct.unpack('!H', udp[6:8])[0]
            if m['ipv6']:
                udp[6:8] = b'\0\0'
                want = tlm.udp6_csum(ipaddress.IPv6Address(m['src']).packed,
                                     ipaddress.IPv6Address(m['dst']).packed,
                                     bytes(udp))
                self.check(ck == want, '%s: UDP checksum %04x, expected '
                           '%04x' % (m['name'], ck, want))
            else:
                self.check(ck == 0, '%s: IPv4 UDP checksum %04x, expected 0'
                           % (m['name'], ck))
                self.check(tlm.inet_csum(ip[:20]) == 0,
                           '%s: bad IPv4 header checksum' % m['name'])
        self.check(n > 0, 'no IFA2 frames in the catalog')

    def test_ifa1_wire_layout(self):
        """IFA 1.0 (doc/wire.md 9) with the default and a custom marker."""
        hop = dict(lns=3, device_id=0x54321, ttl=9, port_speed=5,
                   congestion=1, queue_id=7, rx_sec=0x12345,
                   egress_port=4, ingress_port=5, rx_ns=6,
                   residence_ns=7, profile=bytes(range(12, 24)))
        cases = []
        for marker in (tlm.IFA1_MARKER_DEFAULT, 0x8000000000000001):
            for v in VARIANTS:
                h = tlm.ifa1_hdr(marker=marker, mtype=3, rep=2, c=1, e=1,
                                 flag=9, ctrl=0x77, tlm_request=0x1234,
                                 tlm_action=0x5678, hop_limit=5,
                                 hop_count=1, max_len=28 + 64,
                                 cur_len=28 + 32, sender=0xc0a80001,
                                 seq=0xfeedf00d)
                data = h + tlm.ifa2_hop(**hop) + b'tail'
                p = stack(v, 4, 0, 30, 0xcccc) / Raw(data)
                cases.append((marker, v, raw(p)))
        for marker in (tlm.IFA1_MARKER_DEFAULT, 0x8000000000000001):
            sel = [c for c in cases if c[0] == marker]
            kw = {} if marker == tlm.IFA1_MARKER_DEFAULT else \
                dict(ifa1_marker=marker)
            out = self.parse_frames('ifa1-%x' % marker, [c[2] for c in sel],
                                    **kw)
            for (_, v, frame), r in zip(sel, out):
                l4 = (18 if v['vlan'] is not None else 14) + \
                    (40 if v['ipv6'] else 20)
                exp = dict(rc=0, kind='ifa1', frame_len=len(frame),
                           ifa1=dict(rc=0, off=l4 + 8, marker=marker, ver=1,
                                     mtype=3, rep=2, c=1, e=1, flag=9,
                                     ctrl=0x77, tlm_request=0x1234,
                                     tlm_action=0x5678, hop_limit=5,
                                     hop_count=1, max_len=92, cur_len=60,
                                     sender=0xc0a80001, seq=0xfeedf00d,
                                     hops=[dict(hop, rc=0,
                                                port_speed_gbps=200,
                                                profile=hop['profile']
                                                .hex())]))
                self.compare('ifa1-%x-%s' % (marker, v['tag']), r, exp)
        # a custom-marker frame is not IFA1 under the default marker
        out = self.parse_frames('ifa1-wrong-marker',
                                [c[2] for c in cases
                                 if c[0] != tlm.IFA1_MARKER_DEFAULT])
        for r in out:
            self.check(r.get('kind') != 'ifa1', 'frame %d: IFA1 with the '
                       'wrong marker' % r['index'])

    def test_int_wire_layout(self):
        """HPCC INT (doc/wire.md 10) after the BTH of RC data frames."""
        hops = [(2, 0x123456, 0xabcde, 0x1ffff), (0, 0, 0, 0),
                (4, 0xffffff, 0xfffff, 1), (1, 1, 2, 3), (3, 7, 8, 9)]
        cases = []
        for v in VARIANTS:
            for n in (0, 1, 5):
                payload = tlm.int_hdr(hops[:n]) + b'data'
                pkt = stack(v, 8, 2, 64, 0xc003) / \
                    BTH(opcode=OP_RC_SEND_ONLY, dqpn=0x42, psn=n,
                        resv6=tlm.BTH_INT) / Raw(payload + bytes(2))
                pkt[BTH].padcount = 2
                cases.append((v, n, with_icrc(pkt)))
        out = self.parse_frames('int', [c[2] for c in cases], icrc=True)
        gbps = {0: 25, 1: 50, 2: 100, 3: 200, 4: 400}
        for (v, n, frame), r in zip(cases, out):
            exp = dict(rc=0, kind='roce_data', icrc_ok=True,
                       bth_flags=tlm.BTH_INT, payload_len=46,
                       int=dict(rc=0, n_hops=n, hops=[
                           dict(rate_code=h[0], rate_gbps=gbps[h[0]],
                                time_ns=h[1], tx_bytes=h[2], qlen=h[3])
                           for h in hops[:n]]))
            self.compare('int-%s-%dhops' % (v['tag'], n), r, exp)

    # -- (d) garbage and corrupted input --------------------------------------

    def check_sane(self, label, r):
        """A parse result is well formed: rc in range, kind known."""
        ok = ERR_MIN <= r['rc'] <= 0
        self.check(ok, '%s: rc %s out of range' % (label, r['rc']))
        if r['rc'] == 0:
            self.check(r['kind'] in KINDS, '%s: kind %r' % (label,
                                                            r['kind']))
            self.check(r['frame_len'] == r['caplen'], '%s: frame_len %s, '
                       'caplen %s' % (label, r['frame_len'], r['caplen']))
        return ok

    def test_garbage_frames(self):
        """Random bytes and random data behind valid headers."""
        rnd = random.Random(4791)
        frames = [b'', b'\x00', bytes(13), bytes(14), bytes(60)]
        frames += [bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(
            0, 300))) for _ in range(300)]
        # valid L2-L4 prefixes from the catalog, random rest
        for m, f in zip(self.manifest, self.frames):
            cut = l3_offset(f) + (40 if m['ipv6'] else 20) + 8
            for _ in range(5):
                tail = bytes(rnd.getrandbits(8)
                             for _ in range(len(f) - cut))
                frames.append(f[:cut] + tail)
            # random L3-L4 headers with the real Ethernet header
            for _ in range(3):
                frames.append(f[:l3_offset(f)] + bytes(
                    rnd.getrandbits(8) for _ in range(len(f) -
                                                      l3_offset(f))))
        for opts in (dict(), dict(icrc=True, ip_csum=True),
                     dict(ifa2_proto=17, ifa1_marker=0x8000000000000000),
                     dict(ifa2_proto=0, ifa1_marker=0)):
            out = self.parse_frames('garbage', frames, hexdump=True, **opts)
            for r in out:
                self.check_sane('garbage %d %s' % (r['index'], opts), r)
        self.log('%d frames x 4 option sets' % len(frames))

    def test_truncated_frames(self):
        """Every strict prefix of every catalog frame is an error."""
        frames, labels = [], []
        for m, f in zip(self.manifest, self.frames):
            for n in range(len(f)):
                frames.append(f[:n])
                labels.append('%s[:%d]' % (m['name'], n))
        out = self.parse_frames('truncated', frames, icrc=True)
        for lab, r in zip(labels, out):
            if self.check_sane(lab, r):
                self.check(r['rc'] < 0, '%s: accepted (kind %s)'
                           % (lab, r.get('kind')))
        self.log('%d prefixes' % len(frames))

    def test_length_fields(self):
        """IP/UDP length fields that disagree with the data are errors."""
        frames, labels = [], []
        for m, f in self.roce_catalog():
            l3 = l3_offset(f)
            lo = l3 + (4 if m['ipv6'] else 2)
            ulo = l3 + (40 if m['ipv6'] else 20) + 4
            for what, off, delta in (('ip+1', lo, 1), ('ip-1', lo, -1),
                                     ('ip+4', lo, 4), ('ip-4', lo, -4),
                                     ('udp+1', ulo, 1), ('udp-1', ulo, -1),
                                     ('udp+4', ulo, 4), ('udp-4', ulo, -4),
                                     ('udp0', ulo, None)):
                b = bytearray(f)
                old = struct.unpack('!H', b[off:off + 2])[0]
                new = 0 if delta is None else (old + delta) & 0xffff
                b[off:off + 2] = struct.pack('!H', new)
                frames.append(bytes(b))
                labels.append('%s/%s' % (m['name'], what))
        out = self.parse_frames('lengths', frames)
        for lab, r in zip(labels, out):
            if self.check_sane(lab, r):
                self.check(r['rc'] < 0, '%s: accepted (kind %s, '
                           'payload_len %s)' % (lab, r.get('kind'),
                                                r.get('payload_len')))

    def test_header_fields(self):
        """Bad versions / EtherTypes / fragments are typed errors."""
        cases = []
        for m, f in self.roce_catalog():
            l3 = l3_offset(f)
            b = bytearray(f)
            b[l3] = (b[l3] & 0x0f) | 0x50          # IP version 5
            cases.append(('%s/ipver' % m['name'], bytes(b),
                          ERR_BAD_VERSION))
            b = bytearray(f)
            bth = l3 + (40 if m['ipv6'] else 20) + 8
            b[bth + 1] |= 0x01                      # BTH TVer 1
            cases.append(('%s/tver' % m['name'], bytes(b), ERR_BAD_VERSION))
            if not m['ipv6']:
                b = bytearray(f)
                b[l3] = 0x44                        # IHL 4
                cases.append(('%s/ihl' % m['name'], bytes(b),
                              ERR_BAD_LENGTH))
        frames = [c[1] for c in cases]
        # not IP at all: ok with kind other, not an error
        other = [bytes.fromhex('ffffffffffff020000000001' '0806') +
                 bytes(46)]
        out = self.parse_frames('header-fields', frames + other)
        for (lab, _, want), r in zip(cases, out):
            self.check(r['rc'] == want, '%s: rc %s (%s), expected %s'
                       % (lab, r['rc'], r['error'], want))
        r = out[-1]
        self.check(r['rc'] == 0 and r['kind'] == 'other',
                   'ARP frame: rc %s kind %s' % (r['rc'], r.get('kind')))

    # -- pcc-wire itself --------------------------------------------------

    def test_pcc_wire_cli_errors(self):
        """Bad usage exits 2, unreadable input exits 1, with a message."""
        bad_usage = [[], ['frobnicate'], ['parse'],
                     ['parse', 'a.pcap', 'b.pcap'],
                     ['parse', '--ifa2-proto', '256', 'x.pcap'],
                     ['parse', '--ifa2-proto', 'abc', 'x.pcap'],
                     ['parse', '--ifa1-marker', 'xyz', 'x.pcap'],
                     ['parse', '--bogus', 'x.pcap'],
                     ['build'], ['build', '-o'],
                     ['build', '-o', 'x.pcap', 'extra'],
                     ['build', '--time', '-1', '-o', 'x.pcap']]
        for args in bad_usage:
            res = self.wire.run(args)
            self.check(res.returncode == 2, 'pcc-wire %s: exit %s, '
                       'expected 2' % (' '.join(args), res.returncode))
            self.check(res.stderr.strip() != '', 'pcc-wire %s: no message'
                       % ' '.join(args))
        notpcap = self.work_path('not-a.pcap')
        with open(notpcap, 'wb') as f:
            f.write(b'this is not a pcap file at all\n')
        trunc = self.work_path('truncated-file.pcap')
        with open(self.catalog_pcap, 'rb') as f:
            data = f.read()
        with open(trunc, 'wb') as f:
            f.write(data[:len(data) - 7])
        nonether = self.work_path('linktype.pcap')
        with open(nonether, 'wb') as f:
            f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535,
                                101))
        for args in (['parse', self.work_path('does-not-exist.pcap')],
                     ['parse', notpcap], ['parse', trunc],
                     ['parse', nonether],
                     ['build', '-o', self.work_path('no', 'such', 'dir',
                                                    'x.pcap')]):
            res = self.wire.run(args)
            self.check(res.returncode == 1, 'pcc-wire %s: exit %s, '
                       'expected 1' % (' '.join(args), res.returncode))
            self.check(res.stderr.strip() != '', 'pcc-wire %s: no message'
                       % ' '.join(args))
        for args in (['--help'], ['parse', '--help'], ['build', '--help']):
            res = self.wire.run(args)
            self.check(res.returncode == 0 and 'Usage' in res.stdout,
                       'pcc-wire %s: exit %s' % (' '.join(args),
                                                 res.returncode))

    def test_pcc_wire_build_subset(self):
        """--match selects catalog entries; output is deterministic."""
        path = self.work_path('subset.pcap')
        man = self.wire.build(path, match=['cnp-*', 'probe-req-v6'])
        names = [m['name'] for m in man]
        # catalog order: L2/L3 variant, then entry
        self.assert_equal(names, ['cnp-v4', 'cnp-v4-vlan', 'cnp-v6',
                                  'probe-req-v6', 'cnp-v6-vlan'],
                          'selected names')
        self.assert_equal(len(read_frames(path)), 5, 'frames written')
        again = self.work_path('catalog-again.pcap')
        self.wire.build(again)
        with open(again, 'rb') as a, open(self.catalog_pcap, 'rb') as b:
            self.verify(a.read() == b.read(), 'catalog is not deterministic')
