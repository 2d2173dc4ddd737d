# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Run app/dpdk-pcc: one-shot (run) or interactive under pexpect (spawn).

Every EAL instance gets the no-hugepage arguments of REFERENCE section 4
(--no-huge -m 1024 --no-pci --no-shconf) and a unique --file-prefix, so
suites may run concurrently with each other and with other users.
"""

import io
import itertools
import os
import re
import signal

from .test_suite import SkipTest
from .utils import require_file, run_cmd

try:
    import pexpect
except ImportError:     # suites that spawn the app skip without it
    pexpect = None

EAL_NO_HUGE = ['--no-huge', '-m', '1024', '--no-pci', '--no-shconf']

_prefix_counter = itertools.count()


def unique_file_prefix(tag='dts'):
    """A --file-prefix no other process on this machine uses."""
    return '%s-%d-%d' % (tag, os.getpid(), next(_prefix_counter))


def eal_args(lcores=None, vdevs=(), extra=(), file_prefix=None):
    """Standard EAL argument list (without the trailing '--')."""
    args = list(EAL_NO_HUGE)
    args += ['--file-prefix', file_prefix or unique_file_prefix()]
    if lcores is not None:
        args += ['-l', str(lcores)]
    for v in vdevs:
        args += ['--vdev', v]
    args += list(extra)
    return args


class AppSession:
    """An interactive dpdk-pcc under pexpect.

    expect()/expect_exact() wait for output with a timeout (never sleep);
    close() asks the process to stop (SIGINT, then SIGKILL after
    `grace` seconds) and returns its exit status.
    """

    def __init__(self, child, cmdline, log):
        self.child = child
        self.cmdline = cmdline
        self._log = log
        self.logged = []

    @property
    def output(self):
        """Everything read so far (str)."""
        return self._log.getvalue()

    def expect(self, pattern, timeout=30):
        """Wait for a regex (or list of them); returns the index matched."""
        return self.child.expect(pattern, timeout=timeout)

    def expect_exact(self, text, timeout=30):
        return self.child.expect_exact(text, timeout=timeout)

    def sendline(self, line=''):
        return self.child.sendline(line)

    # A line of lib/host's logger ("TS [RANK] text", "TS [load] text"), or
    # dpdk-pcc's offered-load warning (from the EAL's alarm thread while
    # the console runs): it comes from another thread and may land
    # anywhere in the console's output, even inside the prompt.
    LOGGER_LINE = (r'(?:\d+ \[(?:\d+|load)\] |pcc\.app: generator: port \d+ does not meet)'
                   r'[^\r\n]*\r?\n')

    def command(self, line, prompt='pcc> ', timeout=20):
        """Send a console command and wait for the next prompt; returns
        the command's output ('\r' removed) without the logger lines that
        interleaved with it, which are appended to self.logged."""
        sep = '(?:%s)*' % self.LOGGER_LINE
        pattern = re.compile(sep.join(re.escape(c) for c in prompt))
        self.child.sendline(line)
        self.child.expect(pattern, timeout=timeout)
        text = self.child.before + self.child.after
        self.logged.extend(l.rstrip('\r\n') for l in re.findall(self.LOGGER_LINE, text))
        text = re.sub(self.LOGGER_LINE, '', text)
        return text[:-len(prompt)].replace('\r', '')

    @property
    def match(self):
        return self.child.match

    @property
    def before(self):
        return self.child.before

    def wait_exit(self, timeout=30):
        """Wait for the process to exit on its own; returns exit status
        (negative signal number if killed by a signal)."""
        self.child.expect(pexpect.EOF, timeout=timeout)
        self.child.close()
        if self.child.signalstatus is not None:
            return -self.child.signalstatus
        return self.child.exitstatus

    def close(self, grace=10):
        """Stop the process (if still running) and return exit status."""
        if self.child.isalive():
            self.child.kill(signal.SIGINT)
            try:
                self.child.expect(pexpect.EOF, timeout=grace)
            except pexpect.TIMEOUT:
                self.child.kill(signal.SIGKILL)
                self.child.expect(pexpect.EOF, timeout=grace)
        self.child.close(force=True)
        if self.child.signalstatus is not None:
            return -self.child.signalstatus
        return self.child.exitstatus


class DpdkPcc:
    """app/dpdk-pcc of the build directory under test."""

    def __init__(self, settings):
        self.settings = settings
        self.path = require_file(settings.dpdk_pcc, 'dpdk-pcc')

    def cmdline(self, app_args=(), eal=True, **eal_kw):
        """[dpdk-pcc, EAL args..., '--', app args...] (no EAL part and no
        '--' when eal is False, e.g. for --help/--version)."""
        cmd = [self.path]
        if eal:
            cmd += eal_args(**eal_kw) + ['--']
        return cmd + [str(a) for a in app_args]

    def run(self, app_args=(), eal=True, timeout=60, **eal_kw):
        """Run to completion; returns a CmdResult."""
        return run_cmd(self.cmdline(app_args, eal, **eal_kw),
                       timeout=timeout)

    def spawn(self, app_args=(), eal=True, timeout=30, **eal_kw):
        """Start interactively; returns an AppSession (close() it)."""
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        cmd = self.cmdline(app_args, eal, **eal_kw)
        log = io.StringIO()
        child = pexpect.spawn(cmd[0], cmd[1:], timeout=timeout,
                              encoding='utf-8', codec_errors='replace')
        child.logfile_read = log
        return AppSession(child, ' '.join(cmd), log)
