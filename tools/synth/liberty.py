# SPDX-License-Identifier: Apache-2.0
"""A small Liberty (.lib) reader, Python standard library only.

Enough of the format for what the sign-off scripts need from a standard-cell library:
groups `name (args) { ... }`, simple attributes `name : value ;` and complex attributes
`name (args) ;`. Comments and line continuations are handled; values keep their quotes
stripped. Used by tools/synth/fo4.py (FO4 delay from the inverter's tables),
tools/synth/lib2v.py (simulation models of the cells from their `function`/`ff` groups)
and tools/synth/macros.py (input capacitance for the RAM macro models).
"""

import re

_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([{}();:,])|([^\s{}();:,"]+))', re.S)


class Group:
    """One Liberty group: `kind (args) { attrs; subgroups }`."""

    def __init__(self, kind, args):
        self.kind = kind
        self.args = args
        self.attrs = {}      # simple attribute name -> value (last one wins)
        self.complex = {}    # complex attribute name -> list of arg lists
        self.groups = []

    def sub(self, kind, name=None):
        """Subgroups of a kind, optionally with first argument `name`."""
        return [g for g in self.groups
                if g.kind == kind and (name is None or (g.args and g.args[0] == name))]

    def one(self, kind, name=None):
        found = self.sub(kind, name)
        if len(found) != 1:
            raise KeyError(f"{self.kind}({','.join(self.args)}): expected one {kind}"
                           f"{'(' + name + ')' if name else ''}, found {len(found)}")
        return found[0]

    def __repr__(self):
        return f"Group({self.kind}, {self.args})"


def _tokens(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = text.replace('\\\n', ' ')
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == '':
                return
            raise ValueError(f"liberty: cannot tokenize at offset {pos}: {text[pos:pos + 40]!r}")
        pos = m.end()
        if m.group(1) is not None:
            yield ('str', m.group(1)[1:-1])
        elif m.group(2) is not None:
            yield ('punct', m.group(2))
        elif m.group(3) is not None:
            yield ('word', m.group(3))


def parse(text):
    """Parse Liberty text; returns the top `library` group."""
    toks = list(_tokens(text))
    i = 0

    def value(t):
        return t[1]

    def parse_args():
        nonlocal i
        # after '('
        args = []
        cur = []
        while True:
            t = toks[i]
            i += 1
            if t == ('punct', ')'):
                if cur:
                    args.append(' '.join(cur))
                return args
            if t == ('punct', ','):
                args.append(' '.join(cur))
                cur = []
            else:
                cur.append(value(t))

    def parse_body(group):
        nonlocal i
        while True:
            t = toks[i]
            if t == ('punct', '}'):
                i += 1
                return
            name = value(t)
            i += 1
            t = toks[i]
            if t == ('punct', ':'):
                # a simple attribute has one value token; the ';' may be left out
                i += 1
                group.attrs[name] = value(toks[i])
                i += 1
                if toks[i] == ('punct', ';'):
                    i += 1
            elif t == ('punct', '('):
                i += 1
                args = parse_args()
                if toks[i] == ('punct', '{'):
                    i += 1
                    g = Group(name, args)
                    parse_body(g)
                    group.groups.append(g)
                else:
                    if toks[i] == ('punct', ';'):
                        i += 1
                    group.complex.setdefault(name, []).append(args)
            else:
                raise ValueError(f"liberty: unexpected {t} after {name}")

    t = toks[i]
    if value(t) != 'library':
        raise ValueError("liberty: file does not start with library(...)")
    i += 1
    if toks[i] != ('punct', '('):
        raise ValueError("liberty: library without (name)")
    i += 1
    lib = Group('library', parse_args())
    if toks[i] != ('punct', '{'):
        raise ValueError("liberty: library without body")
    i += 1
    parse_body(lib)
    return lib


def read(path):
    with open(path, encoding='ascii', errors='replace') as f:
        return parse(f.read())


def numbers(s):
    """'0.1, 0.2' -> [0.1, 0.2]"""
    return [float(x) for x in s.replace(',', ' ').split()]


class Table:
    """A 2-D lookup table (index_1 x index_2), bilinear interpolation and linear
    extrapolation outside the grid, as static timing tools do."""

    def __init__(self, group, template=None):
        idx1 = group.complex.get('index_1', [[None]])[0][0]
        idx2 = group.complex.get('index_2', [[None]])[0][0]
        if template is not None:
            idx1 = idx1 or template.complex['index_1'][0][0]
            idx2 = idx2 or template.complex.get('index_2', [[None]])[0][0]
        self.var1 = template.attrs.get('variable_1') if template is not None else None
        self.var2 = template.attrs.get('variable_2') if template is not None else None
        self.i1 = numbers(idx1)
        self.i2 = numbers(idx2) if idx2 else [0.0]
        rows = group.complex['values'][0]
        self.v = [numbers(r) for r in rows]
        if len(self.v) != len(self.i1) or any(len(r) != len(self.i2) for r in self.v):
            raise ValueError(f"liberty: table shape does not match its indexes in {group}")

    @staticmethod
    def _seg(axis, x):
        if len(axis) == 1:
            return 0, 0, 0.0
        k = 0
        while k < len(axis) - 2 and x > axis[k + 1]:
            k += 1
        t = (x - axis[k]) / (axis[k + 1] - axis[k])
        return k, k + 1, t

    def lookup(self, x1, x2=0.0):
        a, b, t = self._seg(self.i1, x1)
        c, d, u = self._seg(self.i2, x2)
        v = self.v
        top = v[a][c] + (v[a][d] - v[a][c]) * u
        bot = v[b][c] + (v[b][d] - v[b][c]) * u
        return top + (bot - top) * t

    def value(self, load, slew):
        """Look up by (output load, input slew) whatever the template's axis order."""
        if self.var1 == 'input_net_transition':
            return self.lookup(slew, load)
        return self.lookup(load, slew)


def cells(lib):
    return {c.args[0]: c for c in lib.sub('cell')}


def templates(lib):
    return {g.args[0]: g for g in lib.sub('lu_table_template')}
