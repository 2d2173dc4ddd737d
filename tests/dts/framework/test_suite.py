# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Base class of DTS-style suites.

A suite is a subclass of TestSuite in tests/dts/suites/test_<name>.py:

    class TestFoo(TestSuite):
        def set_up_suite(self):      # once, before the first test
        def tear_down_suite(self):   # once, after the last test
        def set_up(self):            # before each test
        def tear_down(self):         # after each test
        def test_bar(self):          # one TAP line each

Tests fail by raising (AssertionError from verify()/assert_*(), or any
other exception), or by recording soft failures with check()/
check_fields() (the test goes on and fails at the end with all of them).
skip(reason) (or raising SkipTest) skips a test; in set_up_suite it skips
the whole suite.
"""

import os


class SkipTest(Exception):
    """Raised to skip a test (or, from set_up_suite, the whole suite)."""


class TestTimeout(AssertionError):
    """A test ran longer than its suite's time_limit."""


def _fmt(v):
    if isinstance(v, int) and not isinstance(v, bool) and v > 9:
        return '%d (0x%x)' % (v, v)
    return repr(v)


class TestSuite:
    """Base class; see the module docstring."""

    #: seconds a single test (set_up + test + tear_down) may take; a
    #: safety net only (not named test_* so it cannot clash with a test)
    time_limit = 300

    def __init__(self, settings, name, work_dir):
        self.settings = settings
        self.name = name
        self.work_dir = work_dir
        self.build_dir = settings.build_dir
        self.source_dir = settings.source_dir
        self._log = []
        self._soft = []

    # -- hooks --------------------------------------------------------

    def set_up_suite(self):
        pass

    def tear_down_suite(self):
        pass

    def set_up(self):
        pass

    def tear_down(self):
        pass

    # -- runner interface ---------------------------------------------

    def _begin_test(self):
        self._log = []
        self._soft = []

    def _take_log(self):
        log, self._log = self._log, []
        return log

    def _take_soft_failures(self):
        soft, self._soft = self._soft, []
        return soft

    # -- helpers for tests --------------------------------------------

    def log(self, msg):
        """Diagnostic text, printed as '# ' lines if the test fails (or
        always with run.py -v)."""
        self._log.extend(str(msg).splitlines() or [''])

    def note(self, msg):
        """A TAP comment ('# ...') printed now, whether the test passes
        or not: results a reader of the run wants to see (measurements,
        refusals and their reasons)."""
        for line in str(msg).splitlines() or ['']:
            print('# ' + line, flush=True)

    def skip(self, reason):
        raise SkipTest(reason)

    def verify(self, condition, msg):
        """Hard assertion: fail the test now unless condition holds."""
        if not condition:
            raise AssertionError(msg)

    def assert_equal(self, actual, expected, what='value'):
        if actual != expected:
            raise AssertionError('%s: expected %s, got %s'
                                 % (what, _fmt(expected), _fmt(actual)))

    @staticmethod
    def diff_fields(actual, expected, keys=None):
        """List of 'key: expected X, got Y' for keys (default: all keys of
        expected) whose values differ; a key missing from actual counts."""
        out = []
        for k in (keys if keys is not None else expected.keys()):
            if k not in expected:
                continue
            if k not in actual:
                out.append('%s: expected %s, missing' % (k,
                                                         _fmt(expected[k])))
            elif actual[k] != expected[k]:
                out.append('%s: expected %s, got %s'
                           % (k, _fmt(expected[k]), _fmt(actual[k])))
        return out

    def assert_fields(self, actual, expected, keys=None, what=''):
        """Hard assertion that every field of expected matches actual."""
        diffs = self.diff_fields(actual, expected, keys)
        if diffs:
            raise AssertionError('%s: %d field(s) differ:\n  %s'
                                 % (what or 'fields', len(diffs),
                                    '\n  '.join(diffs)))

    def check(self, condition, msg):
        """Soft assertion: record a failure and continue."""
        if not condition:
            self._soft.append(str(msg))
        return bool(condition)

    def check_fields(self, actual, expected, keys=None, what=''):
        """Soft assert_fields(); returns True if all matched."""
        diffs = self.diff_fields(actual, expected, keys)
        for d in diffs:
            self._soft.append('%s: %s' % (what, d) if what else d)
        return not diffs

    def work_path(self, *parts):
        """A path in this suite's scratch directory."""
        return os.path.join(self.work_dir, *parts)

    # -- tools of the build under test (skip if not built/installed) ---

    def dpdk_pcc(self):
        """framework.app.DpdkPcc for build/app/dpdk-pcc/dpdk-pcc."""
        from .app import DpdkPcc
        return DpdkPcc(self.settings)

    def pcc_wire(self):
        """framework.pcc_wire.PccWire for build/tests/tools/pcc-wire."""
        from .pcc_wire import PccWire
        return PccWire(self.settings)

    def tshark(self):
        """framework.tshark.Tshark (skips if tshark is missing)."""
        from .tshark import Tshark
        return Tshark()
