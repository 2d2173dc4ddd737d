# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""A client of the EAL's telemetry socket (dpdk_telemetry.v2), as the
stock dpdk-telemetry.py speaks it: one command, one JSON reply.  The
process must run without --no-shconf, with its own --file-prefix."""

import json
import os
import socket
import time


def runtime_dir(prefix):
    if os.geteuid() == 0:
        base = '/var/run/dpdk'
    else:
        base = os.path.join(os.environ.get('XDG_RUNTIME_DIR', '/tmp'),
                            'dpdk')
    return os.path.join(base, prefix)


def tlm_query(prefix, cmd, timeout=5):
    """One command over the telemetry socket (SOCK_SEQPACKET, v2)."""
    path = os.path.join(runtime_dir(prefix), 'dpdk_telemetry.v2')
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(timeout)
    try:
        s.connect(path)
        info = json.loads(s.recv(1024).decode())
        s.send(cmd.encode())
        reply = json.loads(s.recv(info['max_output_len']).decode())
    finally:
        s.close()
    return reply[cmd.split(',')[0]]


def tlm_error(reply):
    """The reason of a refusal ({"status": -errno, "error": ...}), or None."""
    if isinstance(reply, dict) and 'error' in reply and 'status' in reply:
        return reply['error']
    return None


def tlm_wait(prefix, cmd, cond, timeout=20):
    """Query until cond(reply) holds; returns the last reply (or None).
    A refusal (no engine yet, no such flow) counts as not yet."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = tlm_query(prefix, cmd)
        except (OSError, ValueError, KeyError):
            last = None
        if last is not None and tlm_error(last) is None and cond(last):
            return last
        time.sleep(0.05)    # poll interval, not a synchronisation
    return last
