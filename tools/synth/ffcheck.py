#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Flip-flop bits: what the declarations give versus what Yosys built.

  tools/synth/ffcheck.py declared XML MACROS OUT.json
      From Verilator's --xml-only output (elaborated with the synthesis parameters and
      SYNTHESIS defined): every variable that is the target of a non-blocking assignment in
      an always block is a register; its bits are the full width of its declared type
      (packed structs, packed and unpacked dimensions multiplied out). Summed per
      declaration (hierarchical path with generate and array indexes removed) over the
      instance tree. Instances of the RAM wrapper modules (MACROS, comma separated) are
      not descended into: they are macros, listed with Width x Depth.
  tools/synth/ffcheck.py compare DECLARED.json YOSYS_FF.il OUT.txt [YOSYS_FF_PROC.il]
      YOSYS_FF.il: `dump` of the flip-flop, latch and memory objects of the flattened
      design right after `proc` (and opt_clean, which only drops flops nobody reads that
      carry no name). Every flop bit is attributed to the wire its Q drives, by the same
      per-declaration key. Fails (exit 1) when a declaration's bits differ, when flop bits
      drive no named wire, or when a latch exists.

This is the check that catches Yosys 0.23 reading an unpacked array of a package struct
as one element (docs/synthesis.md): the declaration says N x W bits, Yosys built W.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

IDX = re.compile(r'\[[^\]]*\]')


def key_of(path):
    """Declaration key: drop array/generate indexes and Verilator's escaped brackets."""
    path = path.replace('__BRA__', '[').replace('__KET__', ']').replace('__DOT__', '.')
    return IDX.sub('', path)


def const_value(el):
    # Verilator const names: 32'h1f, 32'sh0, 1'b1
    name = el.get('name')
    m = re.match(r"(\d+)'s?([hbdo])([0-9a-fA-F_xz]+)$", name)
    if not m:
        raise ValueError(f"unexpected constant {name!r}")
    base = {'h': 16, 'b': 2, 'd': 10, 'o': 8}[m.group(2)]
    return int(m.group(3).replace('_', ''), base)


class Types:
    def __init__(self, table):
        self.el = {t.get('id'): t for t in table}
        self.cache = {}

    def rng(self, t):
        r = t.find('range')
        if r is None:
            return 1
        a, b = (const_value(c) for c in r.findall('const'))
        return abs(a - b) + 1

    def width(self, tid):
        if tid in self.cache:
            return self.cache[tid]
        t = self.el[tid]
        tag = t.tag
        if tag == 'basicdtype':
            if t.get('left') is not None:
                w = abs(int(t.get('left')) - int(t.get('right'))) + 1
            else:
                w = 1
        elif tag in ('structdtype', 'uniondtype'):
            ws = [self.width(m.get('sub_dtype_id')) for m in t.findall('memberdtype')]
            w = sum(ws) if tag == 'structdtype' else max(ws)
            if t.get('packed') == 'false' or t.get('packed') == '0':
                raise ValueError(f"unpacked struct type {t.get('name')}")
        elif tag in ('packarraydtype', 'unpackarraydtype'):
            w = self.rng(t) * self.width(t.get('sub_dtype_id'))
        elif tag in ('refdtype', 'enumdtype', 'memberdtype', 'paramtypedtype'):
            w = self.width(t.get('sub_dtype_id'))
        else:
            raise ValueError(f"ffcheck: type {tag} (id {tid}) not handled")
        self.cache[tid] = w
        return w


def lhs_vars(node, out):
    """Base variables written by an assignment's left-hand side."""
    tag = node.tag
    if tag == 'varref':
        out.append(node.get('name'))
    elif tag in ('sel', 'arraysel', 'structsel', 'membersel', 'wordsel'):
        lhs_vars(list(node)[0], out)
    elif tag == 'concat':
        for c in node:
            lhs_vars(c, out)
    else:
        raise ValueError(f"ffcheck: left-hand side {tag} not handled")


def module_regs(mod, types):
    """-> {var path within module: bits} for the registers of one module."""
    vars_by_name = {}

    def walk(el, scope, in_proc):
        for c in el:
            if c.tag == 'var':
                if not in_proc:
                    vars_by_name.setdefault(c.get('name'), []).append((scope, c))
            elif c.tag == 'begin' and not in_proc and c.get('name'):
                walk(c, scope + [c.get('name')], in_proc)
            elif c.tag in ('always', 'initial', 'final', 'func', 'task'):
                walk(c, scope, True)
            else:
                walk(c, scope, in_proc)

    walk(mod, [], False)
    targets = set()
    for al in mod.iter('always'):
        for ad in al.iter('assigndly'):
            kids = list(ad)
            names = []
            lhs_vars(kids[-1], names)
            targets.update(names)
    regs = {}
    for n in targets:
        cands = vars_by_name.get(n)
        if not cands:
            raise ValueError(f"ffcheck: {mod.get('name')}: assigned variable {n} not declared")
        # the copies of one declaration in the iterations of a generate loop share a key
        keys = {key_of('.'.join(scope + [n])) for scope, _ in cands}
        if len(keys) > 1:
            raise ValueError(f"ffcheck: {mod.get('name')}: {n} declared in several scopes")
        for scope, v in cands:
            k = '.'.join(scope + [n])
            regs[k] = regs.get(k, 0) + types.width(v.get('dtype_id'))
    return regs


def instance_scopes(mod):
    """-> {instance name: [generate scope of each instance of that name, in order]}.

    Verilator's <cells> tree names an instance inside a generate block by its own name
    only (u_bucket, not g_port[0].u_bucket); the module body has the named generate
    blocks around each <instance>, in the order the <cells> tree lists them."""
    out = {}

    def walk(el, scope):
        for c in el:
            if c.tag == 'instance':
                out.setdefault(c.get('name'), []).append(list(scope))
            elif c.tag in ('always', 'initial', 'final', 'func', 'task'):
                continue
            elif c.tag == 'begin' and c.get('name'):
                walk(c, scope + [c.get('name')])
            else:
                walk(c, scope)

    walk(mod, [])
    return out


def param_value(mod, name):
    for v in mod.findall('var'):
        if v.get('name') == name and v.get('param') == 'true':
            c = v.find('const')
            return const_value(c) if c is not None else None
    return None


def declared(xml_path, macros, out_path):
    root = ET.parse(xml_path).getroot()
    netlist = root.find('netlist')
    types = Types(netlist.find('typetable'))
    mods = {m.get('name'): m for m in netlist.findall('module')}
    per_mod = {}
    inst_scopes = {}
    decl = {}
    rams = []
    top_cell = root.find('cells').find('cell')

    def visit(cell, path):
        mname = cell.get('submodname')
        mod = mods[mname]
        orig = mod.get('origName', mname)
        if orig in macros:
            w, d = param_value(mod, 'Width'), param_value(mod, 'Depth')
            mem_bits = None
            for v in mod.iter('var'):
                if v.get('name') == 'mem':
                    mem_bits = types.width(v.get('dtype_id'))
            ports = [{'name': v.get('name'), 'dir': v.get('dir'),
                      'width': types.width(v.get('dtype_id'))}
                     for v in mod.findall('var') if v.get('dir')]
            params = {v.get('name'): param_value(mod, v.get('name'))
                      for v in mod.findall('var') if v.get('param') == 'true'}
            rams.append({'path': '.'.join(path), 'module': orig, 'width': w, 'depth': d,
                         'bits': w * d, 'mem_bits': mem_bits, 'ports': ports,
                         'params': params})
            return
        if mname not in per_mod:
            per_mod[mname] = module_regs(mod, types)
        for n, b in per_mod[mname].items():
            k = key_of('.'.join(path + [n]))
            decl[k] = decl.get(k, 0) + b
        if mname not in inst_scopes:
            inst_scopes[mname] = instance_scopes(mod)
        seen = {}
        for sub in cell.findall('cell'):
            n = sub.get('name')
            scopes = inst_scopes[mname].get(n, [])
            i = seen.get(n, 0)
            seen[n] = i + 1
            scope = scopes[i] if i < len(scopes) else []
            visit(sub, path + scope + [n])

    visit(top_cell, [])
    with open(out_path, 'w') as f:
        json.dump({'top': top_cell.get('submodname'), 'registers': decl, 'rams': rams}, f,
                  indent=1, sort_keys=True)
    total = sum(decl.values())
    print(f"[ffcheck] declared: {total} flip-flop bits in {len(decl)} declarations, "
          f"{len(rams)} RAM macro(s), {sum(r['bits'] for r in rams)} RAM bits")


# Yosys' internal storage cells (after proc only $dff, $adff, $dffsr, $aldff and latches
# appear; the rest are listed so that a different pass order cannot hide a flop)
FF_TYPES = {'$dff', '$dffe', '$adff', '$adffe', '$sdff', '$sdffe', '$sdffce', '$dffsr',
            '$dffsre', '$aldff', '$aldffe', '$ff', '$sr', '$dlatch', '$adlatch', '$dlatchsr'}

SIG_TOKEN = re.compile(r"\{|\}|(\d+)'([01xzm-]+)|(\S+)(?:\s+\[(\d+)(?::(\d+))?\])?")


def wire_widths(text):
    widths = {}
    for m in re.finditer(r'^\s*wire\s+(.*)$', text, re.M):
        toks = m.group(1).split()
        name = toks[-1]
        w = 1
        if 'width' in toks:
            w = int(toks[toks.index('width') + 1])
        widths[name] = w
    return widths


def sig_bits(spec, widths):
    """RTLIL sigspec -> list of (wire or None, nbits)."""
    out = []
    pos = 0
    spec = spec.strip()
    while pos < len(spec):
        while pos < len(spec) and spec[pos] == ' ':
            pos += 1
        if pos >= len(spec):
            break
        m = SIG_TOKEN.match(spec, pos)
        pos = m.end()
        if m.group(0) in '{}':
            continue
        if m.group(1):
            out.append((None, int(m.group(1))))
            continue
        name = m.group(3)
        if m.group(4) is not None:
            hi = int(m.group(4))
            lo = int(m.group(5)) if m.group(5) is not None else hi
            out.append((name, abs(hi - lo) + 1))
        else:
            out.append((name, widths.get(name, 1)))
    return out


def built_bits(text):
    """Flip-flop bits of a Yosys dump per declaration key: (built, unnamed, latches, mems, roms)."""
    widths = wire_widths(text)
    built = {}
    unnamed = 0
    latches = []
    mems = {}
    roms = {}
    for m in re.finditer(r'^\s*memory\s+(.*)$', text, re.M):
        toks = m.group(1).split()
        w = int(toks[toks.index('width') + 1]) if 'width' in toks else 1
        s = int(toks[toks.index('size') + 1]) if 'size' in toks else 1
        # proc_rom turns a case statement of constants into a read-only memory: a
        # combinational table, not storage
        if 'proc_rom' in toks[-1]:
            roms[toks[-1]] = (w, s)
        else:
            mems[toks[-1]] = w * s
    for m in re.finditer(r'^\s*cell\s+(\S+)\s+(\S+)\n(.*?)^\s*end\s*$', text, re.M | re.S):
        ctype, cname, body = m.group(1), m.group(2), m.group(3)
        if ctype not in FF_TYPES:
            continue
        if 'latch' in ctype or ctype == '$sr':
            latches.append(f"{ctype} {cname}")
            continue
        q = re.search(r'^\s*connect\s+\\Q\s+(.*)$', body, re.M)
        if q is None:
            continue
        for wire, n in sig_bits(q.group(1), widths):
            if wire is None or not wire.startswith('\\'):
                unnamed += n
            else:
                k = key_of(wire[1:])
                built[k] = built.get(k, 0) + n
    for name, bits in mems.items():
        if name.startswith('\\'):
            k = key_of(name[1:])
            built[k] = built.get(k, 0) + bits
        else:
            unnamed += bits
    return built, unnamed, latches, mems, roms


def compare(decl_path, dump_path, out_path, proc_dump_path=None):
    """Declared bits (decl_path) against the flops of the dump after opt_clean (dump_path).
    proc_dump_path: the dump right after proc and flatten, before opt_clean. A declaration
    with fewer bits after opt_clean is accepted only if it had exactly its declared bits
    before: opt_clean removed flops nobody reads (an unread pipeline tail, a flop kept for
    an `unused` lint sink); a collapsed array has too few bits already after proc."""
    with open(decl_path) as f:
        d = json.load(f)
    decl = d['registers']
    with open(dump_path) as f:
        text = f.read()
    built, unnamed, latches, mems, roms = built_bits(text)
    built_proc = None
    if proc_dump_path:
        with open(proc_dump_path) as f:
            built_proc = built_bits(f.read())[0]
    unread = []
    if built_proc is not None:
        for k, n in decl.items():
            if built.get(k, 0) < n and built_proc.get(k, 0) == n:
                unread.append((k, n, built.get(k, 0)))
        for k, n, b in unread:
            built[k] = n
    keys = sorted(set(decl) | set(built))
    bad = [(k, decl.get(k, 0), built.get(k, 0)) for k in keys if decl.get(k, 0) != built.get(k, 0)]
    lines = []
    td, tb = sum(decl.values()), sum(built.values())
    lines.append(f"flip-flop bits declared (Verilator --xml-only): {td} in {len(decl)} declarations")
    lines.append(f"flip-flop bits after proc (Yosys, named):       {tb}")
    lines.append(f"flip-flop bits after proc (Yosys, unnamed):     {unnamed}")
    for k, n, b in unread:
        lines.append(f"unread, removed by opt_clean (declared = built after proc): {k}: "
                     f"{n} declared, {n} after proc, {b} kept")
    if mems:
        lines.append(f"of which Yosys memories (mapped to flops later): {sum(mems.values())} bits "
                     f"in {len(mems)}")
    for name, (w, sz) in roms.items():
        lines.append(f"ROM (a case statement of constants, combinational; not counted): "
                     f"{name} {w} x {sz}")
    for r in d['rams']:
        lines.append(f"RAM macro {r['path']}: {r['module']} {r['width']} x {r['depth']} = {r['bits']} bits"
                     + ('' if r['mem_bits'] in (None, r['bits']) else
                        f" (behavioural array {r['mem_bits']} bits: MISMATCH)"))
    ok = not bad and unnamed == 0 and not latches and \
        all(r['mem_bits'] in (None, r['bits']) for r in d['rams'])
    if bad:
        lines.append("declarations whose flip-flop bits differ (declared vs built):")
        for k, a, b in bad[:50]:
            lines.append(f"  {k}: declared {a}, built {b}")
        if len(bad) > 50:
            lines.append(f"  ... {len(bad) - 50} more")
    if latches:
        lines.append(f"latches: {len(latches)}: " + ', '.join(latches[:10]))
    lines.append("ffcheck: " + ("PASS" if ok else "FAIL"))
    with open(out_path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join('[ffcheck] ' + x for x in lines))
    return 0 if ok else 1


def main(argv):
    if len(argv) == 5 and argv[1] == 'declared':
        declared(argv[2], set(x for x in argv[3].split(',') if x), argv[4])
        return 0
    if len(argv) in (5, 6) and argv[1] == 'compare':
        return compare(argv[2], argv[3], argv[4], argv[5] if len(argv) == 6 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
