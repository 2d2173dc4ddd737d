# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""tshark helpers.

tshark (4.0 here) decodes RoCEv2 on UDP 4791 (BTH, AETH, RETH, DETH and,
on QP1 with >= 256 bytes after the DETH, the MAD common header) but not
CNP (opcode 129 is shown without its padding), IFA or INT, and it never
checks the ICRC.  rpcordma is disabled: it claims small RoCE payloads.
"""

from .utils import CmdFailed, require_program, run_cmd

BASE_ARGS = ['--disable-protocol', 'rpcordma',
             '-o', 'ip.check_checksum:TRUE',
             '-o', 'udp.check_checksum:TRUE']

# expert "checksum status" values (epan/proto.h)
CSUM_BAD = 0
CSUM_GOOD = 1
CSUM_UNVERIFIED = 2
CSUM_NOT_PRESENT = 3


class Tshark:
    def __init__(self):
        self.path = require_program('tshark')

    def run(self, args, timeout=120):
        res = run_cmd([self.path] + BASE_ARGS + list(args), timeout=timeout)
        if res.returncode != 0:
            raise CmdFailed(res.describe())
        return res

    def fields(self, pcap, fields, display_filter=None, timeout=120):
        """One dict per frame: field -> list of string values (empty list
        when the field is absent; several values if it occurs repeatedly).
        """
        args = ['-r', pcap, '-T', 'fields', '-E', 'separator=/t',
                '-E', 'occurrence=a', '-E', 'aggregator=\x1f']
        if display_filter:
            args += ['-Y', display_filter]
        for f in fields:
            args += ['-e', f]
        res = self.run(args, timeout=timeout)
        frames = []
        for line in res.stdout.splitlines():
            cols = line.split('\t')
            cols += [''] * (len(fields) - len(cols))
            frames.append({f: (c.split('\x1f') if c != '' else [])
                           for f, c in zip(fields, cols)})
        return frames

    def verbose(self, pcap, display_filter=None, timeout=120):
        """`tshark -V` text."""
        args = ['-r', pcap, '-V']
        if display_filter:
            args += ['-Y', display_filter]
        return self.run(args, timeout=timeout).stdout


def to_int(value):
    """tshark field text ('17', '0x000101', 'True') to int."""
    if value in ('True', 'False'):
        return int(value == 'True')
    return int(value, 0)
