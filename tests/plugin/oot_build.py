#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Out-of-tree plug-in test (meson test 'plugin_oot', suite unit).

1. Install this build into a temporary staging directory
   (meson install --destdir) and point pkg-config at the staged pcc.pc
   and pcc-doca.pc (their prefix rewritten to the staging directory).
2. Build doc/examples/first-algo out of tree against it, exactly as the
   guide says (meson setup + compile), and run load_plugin on the result:
   it loads the plug-in, dispatches events and checks the numbers.  The
   guide (doc/algorithms.md) must embed the two template files verbatim.
3. Build the DOCA-style test algorithm (tests/doca/rp_algo.c and
   np_handler.c) out of tree against pcc-doca.pc and load it.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'dts'))

from framework.stage import StageError, stage_install  # noqa: E402

DOCA_MESON = """\
project('doca-oot', 'c', default_options: ['c_std=gnu11', 'warning_level=2', 'werror=true'])
shared_module('doca_oot', 'rp_algo.c', 'np_handler.c',
	dependencies: dependency('pcc-doca'), name_prefix: '')
"""


def run(cmd, env=None):
    print('# ' + ' '.join(cmd), flush=True)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=False)
    for line in p.stdout.splitlines():
        print('#   ' + line)
    if p.returncode != 0:
        print(f'not ok - {os.path.basename(cmd[0])} failed ({p.returncode})')
        sys.exit(1)
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', required=True)
    ap.add_argument('--build-root', required=True)
    ap.add_argument('--source-root', required=True)
    ap.add_argument('--harness', required=True)
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix='pcc-oot-')
    try:
        try:
            env = stage_install(a.meson, a.build_root, tmp)
        except StageError as e:
            print('not ok - %s' % e)
            sys.exit(1)
        print('ok 1 - installed into a staging directory')

        plugins = os.path.join(tmp, 'plugins')
        os.mkdir(plugins, 0o755)

        # the guide's template, which the guide embeds verbatim
        example = os.path.join(a.source_root, 'doc', 'examples', 'first-algo')
        with open(os.path.join(a.source_root, 'doc', 'algorithms.md'),
                  encoding='utf-8') as f:
            guide = f.read()
        for name in ('first_algo.c', 'meson.build'):
            with open(os.path.join(example, name), encoding='utf-8') as f:
                if f.read() not in guide:
                    print(f'not ok - doc/algorithms.md does not embed {name} as it is')
                    sys.exit(1)
        bdir = os.path.join(tmp, 'first-algo-build')
        run([a.meson, 'setup', bdir, example], env)
        run([a.meson, 'compile', '-C', bdir], env)
        so = os.path.join(plugins, 'first_algo.so')
        shutil.copy(os.path.join(bdir, 'first_algo.so'), so)
        os.chmod(so, 0o644)
        print('ok 2 - doc/examples/first-algo built out of tree')
        run([a.harness, so])
        print('ok 3 - first_algo.so loads and runs')

        # a DOCA application, unchanged, against pcc-doca.pc
        src = os.path.join(tmp, 'doca-src')
        os.mkdir(src)
        for f in ('rp_algo.c', 'np_handler.c'):
            shutil.copy(os.path.join(a.source_root, 'tests', 'doca', f), src)
        with open(os.path.join(src, 'meson.build'), 'w', encoding='utf-8') as f:
            f.write(DOCA_MESON)
        bdir = os.path.join(tmp, 'doca-build')
        run([a.meson, 'setup', bdir, src], env)
        run([a.meson, 'compile', '-C', bdir], env)
        so = os.path.join(plugins, 'doca_oot.so')
        shutil.copy(os.path.join(bdir, 'doca_oot.so'), so)
        os.chmod(so, 0o644)
        print('ok 4 - DOCA-style plug-in built out of tree with pcc-doca')
        run([a.harness, '--load-only', so])
        print('ok 5 - DOCA-style plug-in loads')
        print('1..5')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
