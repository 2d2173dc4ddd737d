#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""devtools/check-docs.py [ROOT]

Docs that hold: for README.md and doc/*.md,
  - every relative link resolves (the file, and a #anchor to one of its
    headings, GitHub style);
  - every path of the tree a doc names (lib/..., app/..., tests/...,
    `doc/x.md`, config/..., devtools/..., algos/..., drivers/...) exists
    (globs allowed);
  - no "not yet here/implemented/...", "TODO", "TBD", "coming soon",
    "later issue": a doc states what is, and what is not with its reason;
  - no citation of REFERENCE (a file outside the repository): cite the
    source itself.
One line per problem (file:line: what), exit 1; quiet on success."""

import glob
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
os.chdir(ROOT)

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
PATH = re.compile(r'(?<![\w/.-])((?:lib|app|drivers|algos|tests|devtools|config|doc)/'
                  r'[A-Za-z0-9_.*/-]*[A-Za-z0-9_*])')
BANNED = re.compile(r'\b(not yet (?:here|implemented|supported|available|done|there|written)|'
                    r'TODO|TBD|coming soon|later issues?)\b', re.I)
# a citation of a file outside the repository
OUTSIDE = re.compile(r'\bREFERENCE(?:\.md)?\b(?: ?(?:§|section))')


def anchors(path):
    """GitHub-style anchors of a Markdown file's headings."""
    out = set()
    fence = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
            if fence:
                continue
            m = re.match(r'^#+\s+(.*)$', line)
            if not m:
                continue
            t = m.group(1).strip().lower()
            t = re.sub(r'[^\w\- ]', '', t)
            out.add(t.replace(' ', '-'))
    return out


def main():
    problems = []
    files = ['README.md'] + sorted(glob.glob('doc/*.md'))
    cache = {}
    for path in files:
        base = os.path.dirname(path)
        fence = False
        with open(path, encoding='utf-8') as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            if line.startswith('```'):
                fence = not fence
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r'^[a-z]+:', target):
                    continue  # http:, mailto:
                file_part, _, anchor = target.partition('#')
                tfile = os.path.normpath(os.path.join(base, file_part)) if file_part else path
                if not os.path.exists(tfile):
                    problems.append('%s:%d: link to %s: no such file' % (path, n, target))
                    continue
                if anchor and tfile.endswith('.md'):
                    if tfile not in cache:
                        cache[tfile] = anchors(tfile)
                    if anchor not in cache[tfile]:
                        problems.append('%s:%d: link to %s: no heading #%s in %s'
                                        % (path, n, target, anchor, tfile))
            for m in PATH.finditer(line):
                p = m.group(1).rstrip('.')
                # placeholders: <dir>, NAME.yaml, x.yaml
                if '<' in p or p.endswith('/') or re.search(r'(^|/)([A-Z_]+|x)\.\w+$', p):
                    continue
                if not glob.glob(p) and not glob.glob(p + '*'):
                    problems.append('%s:%d: names %s, which does not exist' % (path, n, p))
            if OUTSIDE.search(line):
                problems.append('%s:%d: cites REFERENCE, which is not in the repository: '
                                'cite the source itself' % (path, n))
            if not fence and BANNED.search(line):
                problems.append('%s:%d: "%s": say what is, or what is not and why'
                                % (path, n, BANNED.search(line).group(1)))
    for p in problems:
        print('check-docs: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
