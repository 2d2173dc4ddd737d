# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Independent encoders of the telemetry headers of doc/wire.md
(IFA 2.0 section 8, IFA 1.0 section 9, HPCC INT section 10), written from
the documented layouts, not from lib/proto, to cross-check the library."""

import struct

IFA2_PROTO_DEFAULT = 253
IFA1_MARKER_DEFAULT = 0xAAAAAAAABBBBBBBB
BTH_INT = 0x20


def ifa2_hdr(ver=2, gns=0xf, next_hdr=17, flags=0, max_len=0xff):
    return bytes([(ver << 4) | gns, next_hdr, flags, max_len])


def ifa2_md(req_vector=0, action_vector=0, hop_limit=0xfe, cur_len=0):
    return bytes([req_vector, action_vector, hop_limit, cur_len])


def ifa2_hop(lns=0, device_id=0, ttl=0, port_speed=0, congestion=0,
             queue_id=0, rx_sec=0, egress_port=0, ingress_port=0, rx_ns=0,
             residence_ns=0, profile=bytes(12)):
    """32-byte per-hop metadata (section 8.3)."""
    w0 = (lns << 28) | (device_id << 8) | ttl
    w1 = (port_speed << 28) | (congestion << 26) | (queue_id << 20) | rx_sec
    w2 = (egress_port << 16) | ingress_port
    return struct.pack('!IIIII', w0, w1, w2, rx_ns, residence_ns) + \
        bytes(profile)


def ifa1_hdr(marker=IFA1_MARKER_DEFAULT, ver=1, mtype=0, rep=0, c=0, e=0,
             flag=0, ctrl=0, tlm_request=0, tlm_action=0, hop_limit=0,
             hop_count=0, max_len=28, cur_len=28, sender=0, seq=0):
    """28-byte IFA 1.0 header (section 9.1)."""
    b8 = (ver << 4) | mtype
    b9 = (rep << 6) | (c << 5) | (e << 4) | flag
    return struct.pack('!QBBBBHHBBBBII', marker, b8, b9, ctrl, 0,
                       tlm_request, tlm_action, hop_limit, hop_count,
                       max_len, cur_len, sender, seq)


def int_hop_word(rate_code, time_ns, tx_bytes, qlen):
    """64-bit hop word (section 10.2), fields already encoded."""
    w = (rate_code << 61) | (time_ns << 37) | (tx_bytes << 17) | qlen
    return struct.pack('!Q', w)


def int_hdr(hops):
    """42-byte INT header from a list of (rate, time, bytes, qlen)."""
    out = b''.join(int_hop_word(*h) for h in hops)
    out += bytes(8 * (5 - len(hops)))
    return out + struct.pack('!H', len(hops))


def inet_csum(data):
    if len(data) & 1:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp6_csum(src16, dst16, udp):
    """IPv6 UDP checksum (next header 17) of a UDP header+payload whose
    checksum field is zero; 0 is sent as 0xffff."""
    pseudo = src16 + dst16 + struct.pack('!IxxxB', len(udp), 17)
    c = inet_csum(pseudo + udp)
    return c or 0xffff
