#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
"""devtools/readme-figures.py [--check] [--build-dir DIR]

The figures of README.md's demo paragraph, from runs: the two scenarios
devtools/demo.sh runs (config/scenarios/incast-8to1.yaml with DCQCN,
incast-8to1-hpcc.yaml with HPCC) on the simulator, deterministic, and the
paragraph between the markers <!-- figures ... --> and <!-- /figures -->
written from their summary.json (receiver queue, last flow's completion).
Without --check it rewrites README.md; with --check it exits 1 and shows
the paragraph when README.md says something else (DTS sim
test_readme_figures).  A few seconds."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
START = re.compile(r'(<!-- figures: [^>]*-->\n)(.*?)(<!-- /figures -->)', re.S)


def run(build, scenario, out):
    prefix = 'readme-fig-%d' % os.getpid()
    cmd = [os.path.join(build, 'app', 'dpdk-pcc', 'dpdk-pcc'), '--no-huge', '-m', '1024',
           '--no-pci', '--no-shconf', '--no-telemetry', '--file-prefix', prefix, '-l', '0-1',
           '--', '--sim', os.path.join(ROOT, 'config', 'scenarios', scenario), '--sim-out',
           out]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    for base in ('/var/run/dpdk', os.path.join(os.environ.get('XDG_RUNTIME_DIR', '/tmp'),
                                               'dpdk')):
        try:
            os.rmdir(os.path.join(base, prefix))
        except OSError:
            pass
    if res.returncode != 0:
        sys.exit('readme-figures: %s failed:\n%s' % (' '.join(cmd), res.stderr[-2000:]))
    with open(os.path.join(out, 'summary.json'), encoding='utf-8') as f:
        d = json.load(f)
    q = [x for x in d['queues'] if x['name'] == 'sw0->r0'][0]
    return max(f['fct_ns'] for f in d['flows']), q


def mb(b):
    return '%.1f MB' % (b / 1e6) if b >= 1e6 else '%.0f KB' % (b / 1e3)


def paragraph(build):
    with tempfile.TemporaryDirectory() as tmp:
        dc_fct, dc_q = run(build, 'incast-8to1.yaml', os.path.join(tmp, 'dcqcn'))
        hp_fct, hp_q = run(build, 'incast-8to1-hpcc.yaml', os.path.join(tmp, 'hpcc'))
    diff = (hp_fct - dc_fct) * 100.0 / dc_fct
    when = ('about %.0f %% %s' % (abs(diff), 'later' if diff > 0 else 'earlier')
            if abs(diff) >= 1 else 'at the same time')
    return ('DCQCN lets the receiver\'s queue grow to %s before the CNPs bring the\n'
            'senders down; HPCC, steering by the queue length and link utilisation its\n'
            'INT reports, peaks at %s and keeps it at %s (median) once the first RTTs\n'
            'are past, and finishes %s (%.0f vs %.0f us for the last flow).\n'
            % (mb(dc_q['max_bytes']), mb(hp_q['max_bytes']),
               '%d bytes' % hp_q['p50_bytes'] if hp_q['p50_bytes'] < 10000
               else mb(hp_q['p50_bytes']), when, hp_fct / 1e3, dc_fct / 1e3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--build-dir', default=os.path.join(ROOT, 'build'))
    a = ap.parse_args()
    path = os.path.join(ROOT, 'README.md')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    m = START.search(text)
    if m is None:
        sys.exit('readme-figures: README.md has no <!-- figures: ... --> markers')
    new = paragraph(os.path.abspath(a.build_dir))
    if a.check:
        if m.group(2) != new:
            print('README.md says:\n%s\nthe runs give:\n%s\n(devtools/readme-figures.py '
                  'rewrites it)' % (m.group(2), new))
            return 1
        return 0
    text = text[:m.start(2)] + new + text[m.end(2):]
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
