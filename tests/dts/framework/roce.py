# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""RoCEv2 helpers on top of scapy.contrib.roce.

scapy has BTH (with ICRC for IPv4 only), AETH and the CNP padding; this
module adds RETH, DETH, the MAD common header and dpdk-pcc's probe body
(doc/wire.md section 7), an independent ICRC implementation (IPv4 and
IPv6, REFERENCE section 1) and a frame builder that fills in the ICRC.
"""

import collections
import logging
import struct
import zlib

logging.getLogger('scapy.runtime').setLevel(logging.ERROR)

from scapy.compat import raw  # noqa: E402
from scapy.contrib.roce import AETH, BTH, CNPPadding  # noqa: E402
from scapy.fields import (ByteField, IntField, LongField,  # noqa: E402
                          ShortField, StrFixedLenField, X3BytesField,
                          XByteField, XIntField, XLongField, XShortField)
from scapy.layers.inet import (IP, UDP, IPOption_NOP,  # noqa: E402
                               IPOption_Router_Alert)
from scapy.layers.inet6 import IPv6, IPv6ExtHdrHopByHop  # noqa: E402
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402
from scapy.packet import Packet, Raw, bind_layers  # noqa: E402

__all__ = [
    # re-exported scapy layers
    'AETH', 'BTH', 'CNPPadding', 'Dot1Q', 'Ether', 'IP', 'IPOption_NOP',
    'IPOption_Router_Alert', 'IPv6', 'IPv6ExtHdrHopByHop', 'Raw', 'UDP',
    'raw',
    # ours
    'DETH', 'MAD', 'ProbeBody', 'RETH', 'frame_icrc', 'icrc_calc',
    'ip_datagram', 'l2l3', 'l3_offset', 'scapy_icrc', 'with_icrc',
    'GSI_QKEY', 'MAD_ATTR_RTT', 'MAD_CLASS', 'MAD_CLASS_VERSION',
    'MAD_METHOD_GET', 'MAD_METHOD_GET_RESP', 'OP_CNP', 'OP_RC_ACK',
    'OP_RC_RDMA_WRITE_ONLY', 'OP_RC_SEND_ONLY', 'OP_UD_SEND_ONLY',
    'PROBE_F_HW_NP', 'PROBE_F_RESPONSE', 'ROCE_PORT', 'PROBE_MAD_LEN',
    'PROBE_BODY_OFF', 'PROBE_CUSTOM_OFF', 'probe_tail',
]

ROCE_PORT = 4791
GSI_QKEY = 0x80010000

OP_RC_SEND_ONLY = 0x04
OP_RC_RDMA_WRITE_ONLY = 0x0a
OP_RC_ACK = 0x11
OP_UD_SEND_ONLY = 0x64
OP_CNP = 0x81

MAD_CLASS = 0x0a
MAD_CLASS_VERSION = 1
MAD_METHOD_GET = 0x01
MAD_METHOD_GET_RESP = 0x81
MAD_ATTR_RTT = 0xff10
PROBE_F_RESPONSE = 0x01
PROBE_F_HW_NP = 0x02


class RETH(Packet):
    name = 'RETH'
    fields_desc = [XLongField('va', 0), XIntField('rkey', 0),
                   IntField('dma_len', 0)]


class DETH(Packet):
    name = 'DETH'
    fields_desc = [XIntField('qkey', 0), ByteField('reserved', 0),
                   X3BytesField('sqpn', 0)]


class MAD(Packet):
    """MAD common header (24 bytes)."""
    name = 'MAD'
    fields_desc = [ByteField('base_version', 1), XByteField('mgmt_class', 0),
                   ByteField('class_version', 1), XByteField('method', 0),
                   XShortField('status', 0), XShortField('class_specific', 0),
                   XLongField('tid', 0), XShortField('attr_id', 0),
                   ShortField('reserved', 0), XIntField('attr_mod', 0)]


# doc/wire.md section 7: a probe carries one full 256-byte MAD: header
# (24), body (48), custom header (0..64), zeros up to byte 256.
PROBE_MAD_LEN = 256
PROBE_BODY_OFF = 24
PROBE_CUSTOM_OFF = 72


def probe_tail(custom=b''):
    """What follows the ProbeBody in a probe MAD: the custom header and
    the zero padding to PROBE_MAD_LEN bytes."""
    return Raw(bytes(custom) + bytes(PROBE_MAD_LEN - PROBE_CUSTOM_OFF -
                                     len(custom)))


class ProbeBody(Packet):
    """dpdk-pcc RTT probe body (48 bytes, doc/wire.md section 7)."""
    name = 'PccProbe'
    fields_desc = [XIntField('flow_tag', 0), ByteField('slot', 0),
                   XByteField('flags', 0), ShortField('custom_len', 0),
                   LongField('req_send_ts', 0), LongField('np_recv_ts', 0),
                   LongField('np_send_ts', 0),
                   StrFixedLenField('user', b'\0' * 12, 12),
                   XIntField('resp_ts', 0)]


bind_layers(BTH, RETH, opcode=OP_RC_RDMA_WRITE_ONLY)
bind_layers(BTH, DETH, opcode=OP_UD_SEND_ONLY)


def icrc_calc(ip):
    """ICRC of an IP datagram (bytes from the IP header up to, not
    including, the ICRC), masked per REFERENCE section 1.  Returns the
    CRC value; the wire carries icrc.to_bytes(4, 'little')."""
    b = bytearray(ip)
    ver = b[0] >> 4
    if ver == 4:
        ihl = (b[0] & 0xf) * 4
        b[1] = 0xff                 # TOS
        b[8] = 0xff                 # TTL
        b[10:12] = b'\xff\xff'      # header checksum
    elif ver == 6:
        ihl = 40
        b[0] |= 0x0f                # traffic class (high nibble)
        b[1:4] = b'\xff\xff\xff'    # traffic class (low), flow label
        b[7] = 0xff                 # hop limit
    else:
        raise ValueError('not IPv4/IPv6')
    b[ihl + 6:ihl + 8] = b'\xff\xff'    # UDP checksum
    b[ihl + 8 + 4] = 0xff               # BTH byte 4 (FECN/BECN/resv)
    return zlib.crc32(b'\xff' * 8 + bytes(b)) & 0xffffffff


def l3_offset(frame):
    """Offset of the IP header in an Ethernet frame (one VLAN tag)."""
    et = struct.unpack('!H', frame[12:14])[0]
    return 18 if et == 0x8100 else 14


def ip_datagram(frame):
    """The IP datagram of a frame (Ethernet padding removed)."""
    off = l3_offset(frame)
    ver = frame[off] >> 4
    if ver == 4:
        tot = struct.unpack('!H', frame[off + 2:off + 4])[0]
    else:
        tot = 40 + struct.unpack('!H', frame[off + 4:off + 6])[0]
    return frame[off:off + tot]


def frame_icrc(frame):
    """(ICRC on the wire, ICRC computed) of a RoCEv2 frame, as ints."""
    ip = ip_datagram(frame)
    wire = int.from_bytes(ip[-4:], 'little')
    return wire, icrc_calc(ip[:-4])


def l2l3(ipv6=False, src=None, dst=None, dscp=0, ecn=0, ttl=64, vlan=None,
         sport=0xc000, ip_id=1, flow_label=0):
    """Ether[/Dot1Q]/IP|IPv6/UDP(dport 4791) scapy stack.

    vlan: None or the 16-bit TCI.  IPv4 UDP checksum is 0 (RoCEv2).
    """
    eth = Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02')
    if vlan is not None:
        eth = eth / Dot1Q(prio=vlan >> 13, id=(vlan >> 12) & 1,
                          vlan=vlan & 0xfff)
    tos = (dscp << 2) | ecn
    if ipv6:
        ip = IPv6(src=src or 'fd00::1', dst=dst or 'fd00::2', tc=tos,
                  hlim=ttl, fl=flow_label)
        udp = UDP(sport=sport, dport=ROCE_PORT)
    else:
        ip = IP(src=src or '10.0.0.1', dst=dst or '10.0.0.2', tos=tos,
                ttl=ttl, id=ip_id, flags='DF')
        udp = UDP(sport=sport, dport=ROCE_PORT, chksum=0)
    return eth / ip / udp


def with_icrc(pkt):
    """Bytes of a scapy RoCEv2 packet with a correct ICRC (v4 and v6).

    The ICRC is computed independently of scapy (icrc_calc); the IPv6
    UDP checksum is then computed by scapy over the final bytes.
    """
    p = pkt.copy()
    p[BTH].icrc = 0
    frame = raw(p)
    crc = icrc_calc(ip_datagram(frame)[:-4])
    # An explicit BTH.icrc is packed big endian; the wire carries the CRC
    # least-significant byte first, so store it byte-swapped.
    p[BTH].icrc = int.from_bytes(crc.to_bytes(4, 'little'), 'big')
    frame = raw(p)
    wire, calc = frame_icrc(frame)
    assert wire == calc, 'ICRC placement: wire %08x calc %08x' % (wire, calc)
    return frame


def scapy_icrc(frame):
    """ICRC scapy computes for an IPv4 RoCEv2 frame (as an int, same
    convention as icrc_calc), by dissecting and rebuilding with
    icrc=None."""
    p = Ether(frame)
    if BTH not in p:
        raise ValueError('scapy did not dissect a BTH')
    p[BTH].icrc = None
    rebuilt = raw(p)
    return int.from_bytes(ip_datagram(rebuilt)[-4:], 'little')


# MAD header signature: base version 1, class 0x0A, class version 1
MAD_SIG = b'\x01\x0a\x01'
MAD_ATTR = b'\xff\x10'


def find_mad(frame):
    """Offset of the probe MAD in a frame (CCMAD after the DETH, IFA
    after the hop stack), found by its header; None if there is none."""
    off = frame.find(MAD_SIG)
    while off >= 0:
        if frame[off + 16:off + 18] == MAD_ATTR and \
                len(frame) - off >= 72:
            return off
        off = frame.find(MAD_SIG, off + 1)
    return None


Probe = collections.namedtuple('Probe', 'method tid tag slot flags req_send '
                               'np_recv np_send user')


def probe_of(frame):
    """The probe MAD's fields (doc/wire.md 7.2, 7.3) of a probe frame, or
    None.  struct, not scapy: a run captures tens of thousands."""
    off = find_mad(frame)
    if off is None:
        return None
    tid = struct.unpack_from('!Q', frame, off + 8)[0]
    tag, slot, flags, _, req, rcv, snd = struct.unpack_from('!IBBHQQQ',
                                                            frame, off + 24)
    return Probe(frame[off + 3], tid, tag, slot, flags, req, rcv, snd,
                 bytes(frame[off + 56:off + 68]))
