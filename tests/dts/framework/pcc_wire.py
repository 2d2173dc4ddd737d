# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Wrapper of tests/tools/pcc-wire (lib/proto <-> pcap bridge)."""

import json

from .utils import CmdFailed, require_file, run_cmd


def _json_lines(text, what):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError as e:
            raise AssertionError('%s: line %d is not JSON (%s): %r'
                                 % (what, n, e, line[:200]))
    return out


class PccWire:
    """pcc-wire of a build directory."""

    def __init__(self, settings):
        self.path = require_file(settings.pcc_wire, 'pcc-wire')

    def run(self, args, timeout=60):
        """Run pcc-wire with args; returns CmdResult (no exit check)."""
        return run_cmd([self.path] + list(args), timeout=timeout)

    def parse(self, pcap, icrc=False, ip_csum=False, ifa2_proto=None,
              ifa1_marker=None, hexdump=False, timeout=60):
        """`pcc-wire parse`: list of per-packet dicts (see pcc_wire.c)."""
        args = ['parse', pcap]
        if icrc:
            args.append('--icrc')
        if ip_csum:
            args.append('--ip-csum')
        if ifa2_proto is not None:
            args += ['--ifa2-proto', str(ifa2_proto)]
        if ifa1_marker is not None:
            args += ['--ifa1-marker', '%x' % ifa1_marker]
        if hexdump:
            args.append('--hex')
        res = self.run(args, timeout=timeout)
        if res.returncode != 0:
            raise CmdFailed(res.describe())
        return _json_lines(res.stdout, 'pcc-wire parse')

    def build(self, out_pcap, match=(), timeout=60):
        """`pcc-wire build`: writes out_pcap, returns the manifest list."""
        args = ['build', '-o', out_pcap]
        for m in match:
            args += ['--match', m]
        res = self.run(args, timeout=timeout)
        if res.returncode != 0:
            raise CmdFailed(res.describe())
        return _json_lines(res.stdout, 'pcc-wire build')
