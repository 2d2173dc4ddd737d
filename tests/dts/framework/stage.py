# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""The build, installed as a user would have it: `meson install --destdir`
into a staging directory; its pkg-config files are relocatable
(prefix=${pcfiledir}/../../..), so an out-of-tree build finds the headers
and libraries through PKG_CONFIG_PATH alone."""

import glob
import os
import subprocess


class StageError(Exception):
    """The install or a .pc file went wrong."""


def staged_pcdir(stage, names):
    """The directory of the staged NAME.pc files (one for all names)."""
    dirs = set()
    for name in names:
        found = glob.glob(os.path.join(stage, '**', 'pkgconfig', name + '.pc'),
                          recursive=True)
        if len(found) != 1:
            raise StageError('%s.pc installed %d times' % (name, len(found)))
        with open(found[0], encoding='utf-8') as f:
            if 'prefix=${pcfiledir}/' not in f.read():
                raise StageError('%s.pc is not relocatable' % name)
        dirs.add(os.path.dirname(found[0]))
    if len(dirs) != 1:
        raise StageError('.pc files in several directories: %s' % sorted(dirs))
    return dirs.pop()


def stage_install(meson, build_dir, tmp, names=('pcc', 'pcc-doca')):
    """Install build_dir under tmp/stage; returns an environment whose
    PKG_CONFIG_PATH is the staged pkgconfig directory, as a user of a
    --destdir install sets it (the .pc files are relocatable: no
    --define-prefix, no rewriting)."""
    stage = os.path.join(tmp, 'stage')
    p = subprocess.run([meson, 'install', '-C', build_dir, '--no-rebuild', '--quiet',
                        '--destdir', stage], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=False)
    if p.returncode != 0:
        raise StageError('meson install failed:\n' + p.stdout)
    pcdir = staged_pcdir(stage, names)
    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = pcdir + (
        ':' + env['PKG_CONFIG_PATH'] if env.get('PKG_CONFIG_PATH') else '')
    return env
