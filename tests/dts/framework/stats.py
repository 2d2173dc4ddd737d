# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Read the statistics tables dpdk-pcc prints (doc/dpdk-pcc.md,
"Statistics"): a title line, a header line, aligned rows, a blank line."""


def parse_table(text, title, last=True):
    """Rows (dicts by column name) of the table under the line starting
    with `title`; the last such table in text (the final statistics)
    unless last is False.  None if there is none."""
    lines = text.replace('\r', '').splitlines()
    starts = [i for i, line in enumerate(lines)
              if line.strip().startswith(title)]
    if not starts:
        return None
    i = starts[-1] if last else starts[0]
    if i + 1 >= len(lines):
        return None
    header = lines[i + 1].split()
    rows = []
    for line in lines[i + 2:]:
        if not line.strip():
            break
        cells = line.split()
        if len(cells) != len(header):
            # a cell with spaces ("qp 256" in the Flows table): join the
            # first ones so that the rest line up from the right
            extra = len(cells) - len(header)
            if extra <= 0:
                break
            k = header.index('Flow') if 'Flow' in header else 1
            cells = cells[:k] + [' '.join(cells[k:k + extra + 1])] + \
                cells[k + extra + 1:]
        rows.append(dict(zip(header, cells)))
    return rows


def row_by(rows, key, value):
    """The first row whose column key equals value (as text), or None."""
    for r in rows or ():
        if r.get(key) == str(value):
            return r
    return None
