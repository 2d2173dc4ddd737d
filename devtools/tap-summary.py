#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
"""Count test cases in meson test logs (meson-logs/testlog.json).

Tests that speak TAP (cmocka, the DTS runner, fuzz smoke runs) count one
case per 'ok'/'not ok' line; other tests count once by their result.  A
TAP test that failed without a 'not ok' line (crash, timeout, plan
mismatch) counts one extra failure.  Prints the names of failed cases and
ends with 'N passed, N failed, N skipped'.  Exit status 1 if any failed.
"""

import json
import re
import sys

WHY_MAX = 30
TAP_RE = re.compile(r'^(not ok|ok)\b\s*\d*\s*-?\s*(.*)$')


def why(lines, i):
    """The diagnostics a TAP producer wrote after a 'not ok' at lines[i]
    (comment lines, a YAML block): at most WHY_MAX lines, so that a CI log
    says why without the whole log."""
    after = []
    for l in lines[i + 1:]:
        if TAP_RE.match(l):
            break
        if l.startswith('#') or l.startswith(' ') or l.startswith('---'):
            after.append(l)
    out = after
    if len(out) > WHY_MAX:
        out = out[:WHY_MAX // 2] + ['[...]'] + out[-WHY_MAX // 2:]
    return out


def count(logfile, totals, failures):
    with open(logfile, encoding='utf-8', errors='replace') as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            name = t.get('name', '?')
            result = t.get('result', 'ERROR')
            out = t.get('stdout') or ''
            lines = out.splitlines()
            cases = [(i, TAP_RE.match(l)) for i, l in enumerate(lines)]
            cases = [(i, m) for i, m in cases if m]
            bad = 0
            for i, m in cases:
                desc = m.group(2)
                if m.group(1) == 'not ok':
                    if '# TODO' in desc:
                        totals['skipped'] += 1
                    else:
                        totals['failed'] += 1
                        failures.append('%s: %s' % (name, desc) +
                                        ''.join('\n    ' + l for l in why(lines, i)))
                        bad += 1
                elif '# SKIP' in desc.upper():
                    totals['skipped'] += 1
                else:
                    totals['passed'] += 1
            if not cases:
                if result == 'SKIP':
                    totals['skipped'] += 1
                elif result in ('OK', 'EXPECTEDFAIL'):
                    totals['passed'] += 1
                else:
                    totals['failed'] += 1
                    failures.append('%s: %s' % (name, result))
            elif result not in ('OK', 'SKIP', 'EXPECTEDFAIL') and bad == 0:
                totals['failed'] += 1
                failures.append('%s: %s after %d cases' %
                                (name, result, len(cases)))


def main():
    totals = {'passed': 0, 'failed': 0, 'skipped': 0}
    failures = []
    for logfile in sys.argv[1:]:
        count(logfile, totals, failures)
    for f in failures:
        print('FAILED ' + f)
    line = '%d passed, %d failed' % (totals['passed'], totals['failed'])
    if totals['skipped']:
        line += ', %d skipped' % totals['skipped']
    print(line)
    return 1 if totals['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
