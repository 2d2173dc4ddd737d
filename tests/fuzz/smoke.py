#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Deterministic smoke run of one libFuzzer harness; prints TAP (1 test).

    smoke.py --harness EXE --name NAME --corpus SEEDS --work DIR
             [--runs N] [--max-len N] [--seed S]

Copies the committed seeds (SEEDS, read only) to DIR/corpus, runs
EXE -runs=N -seed=S over it with artifacts in DIR/artifacts, and reports
`ok 1 - fuzz_NAME` or `not ok 1 - fuzz_NAME` with the harness's report and
the crashing input as '# ' lines.  Pass/fail never depends on time: the
run is a fixed number of iterations from a fixed seed.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys


def tap(ok, name, lines=()):
    print('1..1')
    print('%s 1 - %s' % ('ok' if ok else 'not ok', name))
    for line in lines:
        print('# ' + line)
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--harness', required=True)
    ap.add_argument('--name', required=True)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--runs', type=int, default=20000)
    ap.add_argument('--max-len', type=int, default=512)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    name = 'fuzz_' + args.name

    if not os.path.isdir(args.corpus) or not os.listdir(args.corpus):
        tap(False, name, ['no seed corpus in %s' % args.corpus])
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    corpus = os.path.join(args.work, 'corpus')
    artifacts = os.path.join(args.work, 'artifacts')
    shutil.copytree(args.corpus, corpus)
    os.makedirs(artifacts)
    n_seeds = len(os.listdir(corpus))

    cmd = [os.path.abspath(args.harness), '-runs=%d' % args.runs,
           '-seed=%d' % args.seed, '-max_len=%d' % args.max_len,
           '-timeout=60', '-rss_limit_mb=2048', '-print_final_stats=1',
           '-artifact_prefix=' + artifacts + os.sep, corpus]
    log_path = os.path.join(args.work, 'fuzz.log')
    env = dict(os.environ)
    env.setdefault('ASAN_OPTIONS', 'abort_on_error=0:detect_leaks=1')
    env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1')
    with open(log_path, 'w') as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT,
                             cwd=args.work, env=env)
    with open(log_path, errors='replace') as f:
        text = f.read().splitlines()

    stats = [t for t in text if t.startswith('stat::')]
    done = next((t.split(':')[-1].strip() for t in stats
                 if t.startswith('stat::number_of_executed_units')), '?')
    crashes = sorted(glob.glob(os.path.join(artifacts, '*')))
    if rc == 0 and not crashes:
        tap(True, name + ' (%s runs, %d seeds, corpus now %d)'
            % (done, n_seeds, len(os.listdir(corpus))))
        return 0

    lines = ['command: ' + ' '.join(cmd), 'exit status: %d' % rc,
             'log: ' + log_path]
    # the sanitizer / property report, without libFuzzer's progress lines
    report = [t for t in text if not t.startswith(('#', 'INFO:', 'stat::'))]
    lines += report[-60:]
    for c in crashes[:3]:
        with open(c, 'rb') as f:
            data = f.read()
        lines.append('artifact %s (%d bytes): %s%s'
                     % (c, len(data), data[:512].hex(),
                        '...' if len(data) > 512 else ''))
    tap(False, name, lines)
    return 1


if __name__ == '__main__':
    sys.exit(main())
