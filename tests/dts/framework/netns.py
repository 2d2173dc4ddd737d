# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Two network namespaces joined by a veth pair, and what runs in them.

For suites that connect two dpdk-pcc processes over a real (virtual)
wire: each process runs in its own namespace with net_af_packet on its
end of the veth pair, and tshark captures on either end.  Needs root and
iproute2; VethPair.create() raises SkipTest when namespaces cannot be
made.  Every namespace, process and capture is removed by
VethPair.destroy() (call it from tear_down, it is safe to call twice).
"""

import io
import itertools
import os
import signal

from .app import AppSession, eal_args
from .test_suite import SkipTest
from .utils import require_program, run_cmd

try:
    import pexpect
except ImportError:
    pexpect = None

_seq = itertools.count()


def _ip(args, check=True, timeout=30):
    return run_cmd(['ip'] + list(args), timeout=timeout, check=check)


class Capture:
    """tshark capturing on an interface of a namespace into a classic
    pcap.  start() returns once tshark says it captures; stop() ends it
    with SIGINT and waits until the file is complete."""

    def __init__(self, ns, ifname, path, bpf=None):
        self.ns = ns
        self.ifname = ifname
        self.path = path
        self.bpf = bpf
        self.child = None
        self.log = io.StringIO()

    def start(self, timeout=30):
        tshark = require_program('tshark')
        args = ['netns', 'exec', self.ns, tshark, '-n', '-i', self.ifname,
                '-F', 'pcap', '-w', self.path, '-B', '16']
        if self.bpf is not None:
            args += ['-f', self.bpf]
        self.child = pexpect.spawn('ip', args, encoding='utf-8',
                                   codec_errors='replace')
        self.child.logfile_read = self.log
        self.child.expect('Capturing on', timeout=timeout)
        return self

    def stop(self, timeout=30):
        """Stop the capture; returns tshark's summary (packets seen,
        dropped) as printed."""
        if self.child is None:
            return ''
        if self.child.isalive():
            self.child.kill(signal.SIGINT)
            try:
                self.child.expect(pexpect.EOF, timeout=timeout)
            except pexpect.TIMEOUT:
                self.child.kill(signal.SIGKILL)
                self.child.expect(pexpect.EOF, timeout=timeout)
        self.child.close(force=True)
        self.child = None
        return self.log.getvalue()


class VethPair:
    """Namespaces ns[0], ns[1] with veth ends ifname[0], ifname[1], up,
    IPv6 off (no router or multicast-listener noise on the wire).  With
    one_ns, both ends are in one namespace (ns[0] == ns[1]): one process
    drives both ports of the wire."""

    def __init__(self, tag='dts', one_ns=False):
        n = next(_seq)
        pid = os.getpid() % 100000
        self.ns = ['pcc-%s-%d-%d%s' % (tag, pid, n, s) for s in 'ab']
        if one_ns:
            self.ns[1] = self.ns[0]
        self.ifname = ['pv%d%d%s' % (pid, n, s) for s in 'ab']
        self.created = []
        self.veth_made = False
        self.sessions = []
        self.captures = []

    def create(self):
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        require_program('ip')
        if os.geteuid() != 0:
            raise SkipTest('network namespaces need root')
        for ns in sorted(set(self.ns)):
            res = _ip(['netns', 'add', ns], check=False)
            if res.returncode != 0:
                self.destroy()
                raise SkipTest('cannot create a network namespace: %s'
                               % res.stderr.strip())
            self.created.append(ns)
        a, b = self.ifname
        _ip(['link', 'add', a, 'type', 'veth', 'peer', 'name', b])
        self.veth_made = True
        for ns, ifn in zip(self.ns, self.ifname):
            _ip(['link', 'set', ifn, 'netns', ns])
            for key in ('all', 'default', ifn):
                run_cmd(['ip', 'netns', 'exec', ns, 'sysctl', '-qw',
                         'net.ipv6.conf.%s.disable_ipv6=1' % key],
                        timeout=30)
            _ip(['-n', ns, 'link', 'set', ifn, 'up'])
        self.veth_made = False      # it goes with the namespaces now
        return self

    def vdev(self, side, extra=''):
        """net_af_packet vdev argument for end `side` (0 or 1)."""
        return 'net_af_packet%d,iface=%s%s' % (side, self.ifname[side],
                                               extra)

    def spawn_app(self, app, side, app_args, lcores='0-1', main_lcore=None,
                  wrap=(), timeout=30):
        """dpdk-pcc in namespace `side` on its veth end (port 0), run by
        the command wrap (e.g. ['chrt', '-f', '10']) if given; returns an
        AppSession (closed by destroy())."""
        extra = ['--main-lcore', str(main_lcore)] \
            if main_lcore is not None else []
        cmd = [app.path] + eal_args(lcores=lcores, vdevs=[self.vdev(side)],
                                    extra=extra) + ['--'] + \
            [str(a) for a in app_args]
        log = io.StringIO()
        child = pexpect.spawn('ip', ['netns', 'exec', self.ns[side]] +
                              list(wrap) + cmd,
                              timeout=timeout, encoding='utf-8',
                              codec_errors='replace')
        child.logfile_read = log
        s = AppSession(child, ' '.join(cmd), log)
        self.sessions.append(s)
        return s

    def spawn(self, side, cmd, timeout=30):
        """Any command (a list) in namespace `side`, under pexpect; returns
        an AppSession (closed by destroy())."""
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        log = io.StringIO()
        child = pexpect.spawn('ip', ['netns', 'exec', self.ns[side]] +
                              [str(c) for c in cmd], timeout=timeout,
                              encoding='utf-8', codec_errors='replace')
        child.logfile_read = log
        s = AppSession(child, ' '.join(str(c) for c in cmd), log)
        self.sessions.append(s)
        return s

    def capture(self, side, path, timeout=30, bpf=None):
        """Start tshark on end `side` (only frames the capture filter bpf
        passes, if given); returns the started Capture.  Frames a
        net_af_packet port sends bypass the qdisc: a capture sees them
        only at the other end."""
        c = Capture(self.ns[side], self.ifname[side], path, bpf)
        self.captures.append(c)
        return c.start(timeout=timeout)

    def destroy(self):
        for s in self.sessions:
            try:
                s.close(grace=10)
            except Exception:   # noqa: B902 - clean up whatever is left
                pass
        self.sessions = []
        for c in self.captures:
            try:
                c.stop()
            except Exception:   # noqa: B902
                pass
        self.captures = []
        for ns in self.created:
            _ip(['netns', 'del', ns], check=False)
        self.created = []
        # a pair made but not yet moved into the namespaces
        if self.veth_made:
            _ip(['link', 'del', self.ifname[0]], check=False)
            self.veth_made = False
