# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""The build, installed as a user would have it: `meson install --destdir`
into a staging directory, and its pkg-config files (pcc.pc, pcc-doca.pc)
with their prefix moved into it, so that an out-of-tree build finds the
headers and libraries through pkg-config alone."""

import glob
import os
import subprocess


class StageError(Exception):
    """The install or a .pc file went wrong."""


def staged_pc(stage, name, outdir):
    """Copy the staged NAME.pc into outdir with prefix= pointing into
    stage; returns its path."""
    found = glob.glob(os.path.join(stage, '**', 'pkgconfig', name + '.pc'),
                      recursive=True)
    if len(found) != 1:
        raise StageError('%s.pc installed %d times' % (name, len(found)))
    lines = []
    with open(found[0], encoding='utf-8') as f:
        for line in f:
            if line.startswith('prefix='):
                prefix = line[len('prefix='):].strip()
                line = 'prefix=' + os.path.join(stage, prefix.lstrip('/')) + '\n'
            lines.append(line)
    out = os.path.join(outdir, name + '.pc')
    with open(out, 'w', encoding='utf-8') as f:
        f.writelines(lines)
    return out


def stage_install(meson, build_dir, tmp, names=('pcc', 'pcc-doca')):
    """Install build_dir under tmp/stage; returns an environment whose
    PKG_CONFIG_PATH finds the staged NAME.pc files first."""
    stage = os.path.join(tmp, 'stage')
    pcdir = os.path.join(tmp, 'pkgconfig')
    os.makedirs(pcdir, exist_ok=True)
    p = subprocess.run([meson, 'install', '-C', build_dir, '--no-rebuild', '--quiet',
                        '--destdir', stage], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=False)
    if p.returncode != 0:
        raise StageError('meson install failed:\n' + p.stdout)
    for n in names:
        staged_pc(stage, n, pcdir)
    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = pcdir + (
        ':' + env['PKG_CONFIG_PATH'] if env.get('PKG_CONFIG_PATH') else '')
    return env
