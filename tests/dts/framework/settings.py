# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Where things are: source tree, build tree, scratch space."""

import os
import shutil


class Settings:
    """Paths shared by the runner and the suites.

    build_dir: the meson build directory (--build-dir).
    source_dir: the repository root (found from this file).
    work_root: scratch space, <build_dir>/tests/dts-work; each suite gets
    a fresh sub-directory (TestSuite.work_dir) that is left in place after
    the run for post-mortem inspection.
    """

    def __init__(self, build_dir, verbose=False):
        self.build_dir = os.path.abspath(build_dir)
        here = os.path.dirname(os.path.abspath(__file__))
        self.dts_dir = os.path.dirname(here)
        self.source_dir = os.path.dirname(os.path.dirname(self.dts_dir))
        self.work_root = os.path.join(self.build_dir, 'tests', 'dts-work')
        self.verbose = verbose

    def build_path(self, *parts):
        """Path of a file in the build tree."""
        return os.path.join(self.build_dir, *parts)

    def source_path(self, *parts):
        """Path of a file in the source tree."""
        return os.path.join(self.source_dir, *parts)

    @property
    def pcc_wire(self):
        """The tests/tools/pcc-wire executable."""
        return self.build_path('tests', 'tools', 'pcc-wire')

    @property
    def dpdk_pcc(self):
        """The dpdk-pcc executable: <build>/app/dpdk-pcc/dpdk-pcc, or
        <build>/app/dpdk-pcc when app/meson.build defines it directly."""
        nested = self.build_path('app', 'dpdk-pcc', 'dpdk-pcc')
        flat = self.build_path('app', 'dpdk-pcc')
        if not os.path.isfile(nested) and os.path.isfile(flat):
            return flat
        return nested

    def suite_work_dir(self, suite_name):
        """Create (empty) and return the scratch directory of a suite."""
        path = os.path.join(self.work_root, suite_name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path
