# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""DTS-style test framework for dpdk-pcc.

Suites live in tests/dts/suites/test_<name>.py and subclass
framework.TestSuite; tests/dts/run.py discovers and runs them and prints
TAP.  See doc/testing.md.
"""

from .settings import Settings
from .test_suite import SkipTest, TestSuite, TestTimeout
from .utils import CmdResult, require_program, run_cmd, wait_for

__all__ = [
    'CmdResult', 'Settings', 'SkipTest', 'TestSuite', 'TestTimeout',
    'require_program', 'run_cmd', 'wait_for',
]
