# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Helpers: run commands with a timeout, wait on conditions, find tools."""

import os
import shutil
import signal
import subprocess
import time

from .test_suite import SkipTest


class CmdResult:
    """Outcome of run_cmd()."""

    def __init__(self, args, returncode, stdout, stderr):
        self.args = list(args)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    @property
    def cmdline(self):
        return ' '.join(str(a) for a in self.args)

    def describe(self, max_lines=20):
        """Multi-line summary for diagnostics."""
        lines = ['command: %s' % self.cmdline,
                 'exit status: %s' % self.returncode]
        for name, text in (('stdout', self.stdout), ('stderr', self.stderr)):
            if isinstance(text, bytes):
                text = text.decode('utf-8', 'replace')
            tail = (text or '').splitlines()[-max_lines:]
            if tail:
                lines.append('%s (last %d lines):' % (name, len(tail)))
                lines.extend('  ' + t for t in tail)
        return '\n'.join(lines)


class CmdTimeout(AssertionError):
    """A command did not finish within its timeout."""


class CmdFailed(AssertionError):
    """A command run with check=True exited non-zero."""


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_cmd(args, timeout=60, check=False, input=None, cwd=None, env=None,
            binary=False):
    """Run a command, wait for it at most `timeout` seconds.

    Returns a CmdResult (stdout/stderr as str, or bytes if binary).  On
    timeout the whole process group is killed and CmdTimeout raised.  With
    check=True a non-zero exit raises CmdFailed.
    """
    args = [str(a) for a in args]
    full_env = None
    if env is not None:
        full_env = dict(os.environ)
        full_env.update(env)
    proc = subprocess.Popen(
        args, stdin=subprocess.PIPE if input is not None else
        subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=cwd, env=full_env, start_new_session=True)
    if input is not None and not binary and isinstance(input, str):
        input = input.encode()
    try:
        out, err = proc.communicate(input=input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        res = CmdResult(args, None, out, err)
        raise CmdTimeout('timed out after %ss\n%s' % (timeout,
                                                      res.describe()))
    except BaseException:
        # the test's time limit (or ^C) interrupted us: leave nothing behind
        _kill_group(proc)
        proc.wait()
        raise
    if not binary:
        out = out.decode('utf-8', 'replace')
        err = err.decode('utf-8', 'replace')
    res = CmdResult(args, proc.returncode, out, err)
    if check and res.returncode != 0:
        raise CmdFailed(res.describe())
    return res


def wait_for(predicate, timeout, what='condition', interval=0.02):
    """Poll predicate() until it returns a true value; return that value.

    Raises TimeoutError after `timeout` seconds.  This waits on a
    condition; never use a bare sleep to stand in for synchronisation.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError('timed out after %ss waiting for %s'
                               % (timeout, what))
        time.sleep(interval)


def require_program(name):
    """Absolute path of a program on PATH, or skip the test/suite."""
    path = shutil.which(name)
    if path is None:
        raise SkipTest('%s not installed' % name)
    return path


def require_file(path, what=None):
    """Skip unless path exists (e.g. a binary not built in this config)."""
    if not os.path.exists(path):
        raise SkipTest('%s not built (%s missing)' % (what or
                                                     os.path.basename(path),
                                                     path))
    return path
