# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""What `ninja install` gives a user (issue 22): a man page, bash
completion, relocatable pkg-config files.

The suite installs the build into a staging directory (meson install
--destdir), then:

- `man dpdk-pcc` (MANPATH into the stage) renders the page generated from
  doc/dpdk-pcc.md: every option of --help is in it, and groff reports no
  warning;
- the installed completion script completes option names, NAME|NAME
  alternatives, the algorithms --algo lists and file names;
- a program built against the staged pcc.pc with PKG_CONFIG_PATH alone
  (no --define-prefix) compiles and links: the .pc files are relocatable.
"""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402
from framework.stage import StageError, stage_install  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402


class TestInstall(TestSuite):

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        meson = shutil.which('meson')
        if meson is None:
            raise SkipTest('meson not found')
        self.tmp = os.path.join(self.work_dir, 'install')
        shutil.rmtree(self.tmp, ignore_errors=True)
        try:
            self.env = stage_install(meson, self.build_dir, self.tmp)
        except StageError as e:
            raise AssertionError(str(e))
        self.stage = os.path.join(self.tmp, 'stage')
        self.share = None
        for root, dirs, _ in os.walk(self.stage):
            if 'man' in dirs and 'bash-completion' in dirs:
                self.share = root
        self.verify(self.share is not None, 'no share/man and share/bash-completion staged')
        res = self.app.run(['--help'], eal=False)
        self.help = res.stdout
        self.options = sorted(set(re.findall(r'^ +(?:-[a-z], )?(--[a-z0-9][a-z0-9-]*)',
                                             self.help, re.M)))
        self.verify(len(self.options) > 40, 'options in --help: %d' % len(self.options))

    def test_man_page(self):
        if shutil.which('man') is None:
            raise SkipTest('man not installed')
        page = os.path.join(self.share, 'man', 'man1', 'dpdk-pcc.1')
        self.verify(os.path.exists(page), 'no %s' % page)
        env = dict(os.environ, MANPATH=os.path.join(self.share, 'man'), MANWIDTH='200',
                   MAN_KEEP_FORMATTING='0')
        res = run_cmd(['man', 'dpdk-pcc'], env=env, timeout=60)
        self.verify(res.returncode == 0, res.describe())
        text = re.sub(r'.\x08', '', res.stdout)
        self.check('DPDK-PCC(1)' in text and 'programmable congestion control' in text,
                   text[:500])
        for o in self.options:
            self.check(o in text, '%s missing from the man page' % o)
        if shutil.which('groff') is not None:
            res = run_cmd(['groff', '-man', '-ww', '-z', page], timeout=60)
            self.check(res.returncode == 0 and res.stderr.strip() == '',
                       'groff warnings:\n%s' % res.stderr[-2000:])

    def complete(self, words):
        """COMPREPLY of the installed completion for the words typed."""
        script = os.path.join(self.share, 'bash-completion', 'completions', 'dpdk-pcc')
        words = [self.app.path] + words
        prog = ('source %s\nCOMP_WORDS=(%s)\nCOMP_CWORD=%d\n_dpdk_pcc\n'
                'printf "%%s\\n" "${COMPREPLY[@]}"\n'
                % (script, ' '.join("'%s'" % w for w in words), len(words) - 1))
        p = subprocess.run(['bash', '-c', prog], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60, check=False)
        self.verify(p.returncode == 0, 'completion: %s' % p.stderr)
        return [l for l in p.stdout.splitlines() if l]

    def test_bash_completion(self):
        self.assert_equal(self.complete(['--', '--gen-f']), ['--gen-file', '--gen-flows'],
                          'option names')
        self.assert_equal(self.complete(['--', '--pacer', '']), ['wheel', 'txpp', 'mtr'],
                          '--pacer values')
        self.assert_equal(self.complete(['--', '--np-cnp', '']), ['on', 'off'],
                          '--np-cnp values')
        algos = self.complete(['--', '--algo', ''])
        self.check({'rtt', 'dcqcn', 'hpcc', 'timely', 'swift', 'dctcp'} <= set(algos),
                   '--algo: %s' % algos)
        scn = os.path.join(self.source_dir, 'config', 'scenarios', 'hpc')
        self.check(scn + 'c.yaml' in self.complete(['--', '--sim', scn]), '--sim file')
        self.check('--no-huge' in self.complete(['--no-h']), 'EAL options before --')
        # every option of --help is offered
        offered = set(self.complete(['--', '--']))
        self.check(set(self.options) <= offered, 'not offered: %s'
                   % sorted(set(self.options) - offered))

    def test_relocatable_pkg_config(self):
        src = os.path.join(self.work_dir, 'prog.c')
        with open(src, 'w', encoding='utf-8') as f:
            f.write('#include <pcc_host.h>\n#include <pcc_dev.h>\n'
                    'int main(void) { return pcc_host_process_state() < 0; }\n')
        res = run_cmd(['pkg-config', '--cflags', '--libs', 'pcc'], env=self.env, timeout=60)
        self.verify(res.returncode == 0, res.describe())
        flags = res.stdout.split()
        for f in flags:
            if f.startswith(('-I', '-L')) and 'pcc' in f:
                self.check(f[2:].startswith(self.stage) and os.path.isdir(f[2:]),
                           '%s is not in the stage' % f)
        res = run_cmd(['cc', src, '-o', os.path.join(self.work_dir, 'prog')] + flags,
                      timeout=120)
        self.check(res.returncode == 0, 'build against the staged pcc.pc:\n%s'
                   % res.describe())
