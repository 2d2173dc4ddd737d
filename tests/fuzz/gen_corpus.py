#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""(Re)generate the seed corpora of tests/fuzz/corpus/<entry>/.

    gen_corpus.py --pcc-wire BUILD/tests/tools/pcc-wire [--out DIR]

Seeds are frames of the `pcc-wire build` catalog and hand-made headers,
prefixed with the control bytes each harness expects (fuzz_proto.c).  Run
once and commit the output; the smoke runs only read it.  Deterministic.
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'dts'))

from framework import tlm  # noqa: E402
from framework.pcap import read_frames  # noqa: E402

# catalog entries used as frame seeds (all L2/L3 variants of these)
FRAME_SEEDS = ('cnp', 'rc-send-only', 'rc-write-only', 'ack', 'nak-psn-seq',
               'ud-send-only', 'probe-req', 'probe-req-custom', 'probe-resp',
               'int', 'ifa2', 'ifa1', 'rc-write-imm', 'rc-send-inv',
               'ud-send-imm', 'rc-atomic-ack', 'rc-fetch-add')


def catalog(pcc_wire):
    with tempfile.TemporaryDirectory() as d:
        pcap = os.path.join(d, 'catalog.pcap')
        out = subprocess.run([pcc_wire, 'build', '-o', pcap], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        man = [json.loads(line) for line in out.splitlines() if line]
        frames = read_frames(pcap)
    return list(zip(man, frames))


def l3_off(frame):
    return 18 if frame[12:14] == b'\x81\x00' else 14


def write(out, entry, name, data):
    d = os.path.join(out, entry)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(bytes(data))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pcc-wire', required=True)
    ap.add_argument('--out', default=os.path.join(HERE, 'corpus'))
    args = ap.parse_args()
    cat = catalog(args.pcc_wire)
    shutil.rmtree(args.out, ignore_errors=True)
    out = args.out

    def base(name):
        for suffix in ('-v4-vlan', '-v6-vlan', '-v4', '-v6'):
            if name.endswith(suffix):
                return name[:-len(suffix)]
        return name

    sel = [(m, f) for m, f in cat
           if base(m['name']) in FRAME_SEEDS and
           m['name'].endswith(('-v4', '-v6-vlan'))]
    # control bytes cycling through the option combinations
    for i, (m, f) in enumerate(sel):
        n = m['name']
        opts = (0x00, 0x01, 0x03, 0x05, 0x0b, 0x10, 0x21, 0x40)[i % 8]
        write(out, 'parse', n, bytes([opts, (i * 37) & 0xff]) + f)
        write(out, 'frame_ecn_set', n, bytes([3, 46, opts & 0x3f]) + f)
        if m['kind'] in ('probe_req', 'probe_resp'):
            write(out, 'probe', n, bytes([opts & 0x3d]) + f)
        if m['kind'] == 'ifa2':
            write(out, 'ifa2', n, b'\x00' + f)
            hop = tlm.ifa2_hop(lns=1, device_id=2, ttl=3, port_speed=4,
                               rx_ns=5)
            write(out, 'ifa2_push_hop', n, bytes([0x80]) + hop + f)
        if m['kind'] == 'ifa1':
            off = l3_off(f) + (40 if m['ipv6'] else 20) + 8
            write(out, 'ifa1', n, b'\x00' + f[off:])
            hop = tlm.ifa2_hop(lns=7, device_id=8, ttl=9)
            write(out, 'ifa1_push_hop', n, bytes([0x80]) + hop + f[off:])
        if m['kind'] in ('roce_data',) and 'int' not in m and \
                'reth_va' not in m and 'deth_qkey' not in m:
            # a plain UDP frame for IFA2 insertion
            write(out, 'ifa2_insert', n, bytes([0x40, 0x2f, 0, 17, 0x08,
                                                0x40, 0xff, 0x80, 0xfe,
                                                0]) + f)
        if 'int' in m:
            bth = l3_off(f) + (40 if m['ipv6'] else 20) + 8
            hdr = f[bth + 12:bth + 12 + 42]
            write(out, 'int', n, hdr)
            write(out, 'int_push_hop', n, bytes([2]) +
                  struct.pack('!QQQ', 123456, 1 << 20, 8000) + hdr)
        if m['kind'] in ('cnp', 'roce_data', 'ack', 'nak', 'probe_req',
                         'probe_resp'):
            ip = f[l3_off(f):]
            write(out, 'icrc', n, ip[:-4])
            bth = l3_off(f) + (40 if m['ipv6'] else 20) + 8
            write(out, 'bth', n, f[bth:bth + 12])
            if 'aeth_syndrome' in m:
                write(out, 'aeth', n, f[bth + 12:bth + 16])
            if 'reth_va' in m:
                write(out, 'reth', n, f[bth + 12:bth + 28])
            if 'deth_qkey' in m:
                write(out, 'deth', n, f[bth + 12:bth + 20])
            if 'mad' in m:
                write(out, 'mad_hdr', n, f[bth + 20:bth + 44])

    # hand-made headers
    write(out, 'bth', 'tver1', bytes([0x04, 0x01, 0xff, 0xff]) + bytes(8))
    write(out, 'bth', 'unknown-op', bytes([0x1f]) + bytes(11))
    write(out, 'bth', 'short', bytes([0x11, 0, 0xff]))
    for syn in (0x00, 0x1f, 0x2e, 0x40, 0x60, 0x64, 0x7f):
        write(out, 'aeth', 'syn-%02x' % syn, bytes([syn, 1, 2, 3]))
    write(out, 'reth', 'max', b'\xff' * 16)
    write(out, 'deth', 'gsi', struct.pack('!IBBH', 0x80010000, 0, 0, 1))
    write(out, 'mad_hdr', 'get', struct.pack('!BBBBHHQHHI', 1, 0x0a, 1, 1,
                                             0, 0, 1, 0xff10, 0, 0))
    write(out, 'mad_hdr', 'short', bytes(23))
    for n in (0, 1, 5, 6):
        hops = [(i % 5, i * 1000, i * 7, i * 3) for i in range(min(n, 5))]
        h = tlm.int_hdr(hops)
        if n == 6:
            h = h[:-2] + struct.pack('!H', 6)
        write(out, 'int', 'hops%d' % n, h)
        write(out, 'int_push_hop', 'hops%d' % n,
              bytes([0x84]) + struct.pack('!QQQ', 1 << 30, 1 << 40, 1 << 24) +
              h)
    ifa1 = tlm.ifa1_hdr(hop_limit=3, max_len=28 + 64, cur_len=28)
    write(out, 'ifa1', 'empty', b'\x00' + ifa1)
    write(out, 'ifa1', 'custom-marker', b'\x01' +
          tlm.ifa1_hdr(marker=0x8000000000000001, max_len=60, cur_len=28))
    write(out, 'ifa1_push_hop', 'empty', bytes([0x80]) + bytes(32) + ifa1)
    write(out, 'ifa2', 'hdr-only', b'\x01' + tlm.ifa2_hdr())
    write(out, 'ifa2', 'hop-only', b'\x01' + tlm.ifa2_hop(lns=0xf,
                                                          device_id=0xfffff))
    write(out, 'icrc', 'v4-hdr', bytes([0x45]) + bytes(19))
    write(out, 'icrc', 'v6-hdr', bytes([0x60]) + bytes(39))
    write(out, 'frame_ecn_set', 'arp', bytes([1, 0, 0]) + b'\xff' * 6 +
          b'\x02' * 6 + b'\x08\x06' + bytes(28))
    total = sum(len(files) for _, _, files in os.walk(out))
    print('%d seeds in %s' % (total, out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
