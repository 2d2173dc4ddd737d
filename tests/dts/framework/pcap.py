# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Minimal classic-pcap reader/writer (Ethernet, microsecond stamps).

Independent of scapy so that suites can write exact bytes (including
malformed frames) and read back what a tool produced.
"""

import struct

DLT_EN10MB = 1
_MAGIC = 0xa1b2c3d4
#: default timestamp of the first frame: 2026-01-01T00:00:00Z
DEFAULT_T0 = 1767225600


def write_pcap(path, frames, t0=DEFAULT_T0, snaplen=65535):
    """Write frames (bytes) with timestamps t0 + i ms."""
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', _MAGIC, 2, 4, 0, 0, snaplen,
                            DLT_EN10MB))
        for i, fr in enumerate(frames):
            fr = bytes(fr)
            sec = t0 + i // 1000
            usec = (i % 1000) * 1000
            f.write(struct.pack('<IIII', sec, usec, len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    """List of (ts_sec, ts_usec, wire_len, bytes) of a classic pcap
    (ts_usec holds nanoseconds in a nanosecond pcap: read_pcap_ns())."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError('%s: too short for a pcap header' % path)
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        end = '>'
    else:
        raise ValueError('%s: not a classic pcap (magic 0x%08x)'
                         % (path, magic))
    linktype = struct.unpack(end + 'I', data[20:24])[0]
    if linktype != DLT_EN10MB:
        raise ValueError('%s: link type %d' % (path, linktype))
    out = []
    off = 24
    while off < len(data):
        if off + 16 > len(data):
            raise ValueError('%s: truncated record header' % path)
        sec, usec, caplen, wire = struct.unpack(end + 'IIII',
                                                data[off:off + 16])
        off += 16
        if off + caplen > len(data):
            raise ValueError('%s: truncated record' % path)
        out.append((sec, usec, wire, data[off:off + caplen]))
        off += caplen
    return out


def read_pcap_ns(path):
    """List of (timestamp in ns, bytes) of a classic pcap, microsecond
    (magic a1b2c3d4) or nanosecond (a1b23c4d, e.g. net_pcap's tx_pcap)."""
    with open(path, 'rb') as f:
        magic = f.read(4)
    nano = magic in (bytes.fromhex('4d3cb2a1'), bytes.fromhex('a1b23c4d'))
    scale = 1 if nano else 1000
    return [(sec * 1000000000 + frac * scale, fr)
            for sec, frac, _, fr in read_pcap(path)]


def read_frames(path):
    """Just the frame bytes of a pcap."""
    return [r[3] for r in read_pcap(path)]
