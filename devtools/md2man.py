#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""md2man.py IN.md OUT.1 NAME SECTION VERSION "ONE LINE SUMMARY"

Turn one of dpdk-pcc's guides (the Markdown subset doc/ uses: headings,
paragraphs, lists, fenced code, tables, `code`, **bold**, [links](x))
into a man page, so `man dpdk-pcc` is doc/dpdk-pcc.md and they cannot
drift apart.  Tables of two or more columns become tagged paragraphs:
the first cell is the tag, the other cells its text."""

import re
import sys


def esc(s):
    """roff-escape plain text; characters beyond ASCII as \\[uXXXX]."""
    s = s.replace('\\', '\\e')
    s = s.replace('-', '\\-')
    sup = dict(zip('\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079',
                   '0123456789'))
    return ''.join(c if ord(c) < 128 else
                   ('^' + sup[c]) if c in sup else '\\[u%04X]' % ord(c) for c in s)


def inline(s):
    """Markdown inline markup -> roff."""
    out = []
    pos = 0
    # code, bold, links
    pat = re.compile(r'`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)]+)\)')
    for m in pat.finditer(s):
        out.append(esc(s[pos:m.start()]))
        if m.group(1) is not None:
            out.append('\\fB' + esc(m.group(1)) + '\\fR')
        elif m.group(2) is not None:
            out.append('\\fB' + esc(m.group(2)) + '\\fR')
        else:
            out.append(esc(m.group(3)))
        pos = m.end()
    out.append(esc(s[pos:]))
    return ''.join(out)


def line(s):
    """A text line that roff will not take for a request."""
    s = s.strip()
    if s.startswith('.') or s.startswith("'"):
        s = '\\&' + s
    return s


def cells(row):
    row = row.strip()
    if row.startswith('|'):
        row = row[1:]
    if row.endswith('|'):
        row = row[:-1]
    # '\|' inside a cell is a literal bar
    parts = re.split(r'(?<!\\)\|', row)
    return [p.strip().replace('\\|', '|') for p in parts]


def convert(md, name, section, version, summary):
    out = ['.\\" Generated from doc/%s.md by devtools/md2man.py; do not edit.' % name,
           '.TH %s %s "" "dpdk-pcc %s" "dpdk-pcc manual"' % (name.upper(), section, version),
           '.SH NAME', '%s \\- %s' % (esc(name), esc(summary))]
    lines = md.splitlines()
    i = 0
    para = []

    def flush():
        if para:
            out.append('.PP')
            out.append(line(inline(' '.join(p.strip() for p in para))))
            para.clear()

    while i < len(lines):
        ln = lines[i]
        if ln.startswith('<!--'):
            while i < len(lines) and '-->' not in lines[i]:
                i += 1
            i += 1
            continue
        if ln.startswith('```'):
            flush()
            out.append('.PP')
            out.append('.RS 4')
            out.append('.nf')
            i += 1
            while i < len(lines) and not lines[i].startswith('```'):
                out.append(line(esc(lines[i])) if lines[i].strip() else '')
                i += 1
            out.append('.fi')
            out.append('.RE')
            i += 1
            continue
        m = re.match(r'^(#+)\s+(.*)$', ln)
        if m:
            flush()
            level, title = len(m.group(1)), m.group(2)
            if level == 1:
                pass  # the title is .TH/NAME
            elif level == 2:
                out.append('.SH ' + inline(title).upper())
            else:
                out.append('.SS ' + inline(title))
            i += 1
            continue
        if ln.startswith('|'):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith('|'):
                rows.append(cells(lines[i]))
                i += 1
            head = rows[0]
            body = [r for r in rows[1:] if not all(re.match(r'^:?-+:?$', c) for c in r)]
            for r in body:
                out.append('.TP')
                out.append(line(inline(r[0])))
                rest = []
                for h, c in zip(head[1:], r[1:]):
                    if c:
                        rest.append('%s: %s' % (h, c) if len(head) > 2 else c)
                out.append(line(inline('; '.join(rest))))
            continue
        m = re.match(r'^(\s*)([*-]|\d+\.)\s+(.*)$', ln)
        if m:
            flush()
            item = [m.group(3)]
            i += 1
            while i < len(lines) and lines[i].strip() and \
                    not re.match(r'^\s*([*-]|\d+\.)\s+', lines[i]) and \
                    not lines[i].startswith(('#', '|', '```')):
                item.append(lines[i].strip())
                i += 1
            out.append('.IP \\(bu 2')
            out.append(line(inline(' '.join(item))))
            continue
        if not ln.strip():
            flush()
            i += 1
            continue
        para.append(ln)
        i += 1
    flush()
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) != 7:
        sys.stderr.write(__doc__.split('\n')[0] + '\n')
        return 2
    src, dst, name, section, version, summary = sys.argv[1:]
    with open(src, encoding='utf-8') as f:
        md = f.read()
    with open(dst, 'w', encoding='utf-8') as f:
        f.write(convert(md, name, section, version, summary))
    return 0


if __name__ == '__main__':
    sys.exit(main())
