#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Icarus Verilog (iverilog -g2012) as a third front end: a portability report (make iverilog).

  tools/synth/iverilog_report.py [--out build/synth/iverilog.txt] [--iverilog iverilog]
                                 [--extra FILE]

Elaborates every RTL file with Icarus Verilog 11 (Debian 12), one unit per module: the
module as the root (-s) with its block's file list (packages first), -DSYNTHESIS for the
synthesizable RTL as Yosys reads it, without it (and with the assertion macros) for the
bound checkers. A unit that Icarus rejects is elaborated again from a copy with the known
rejected constructs rewritten one after another (REWRITES below), so the report says
exactly which construct stops it and whether anything else would. What no rewrite can
remove (package struct types: Icarus 11 aborts on an internal assertion) is classified by
its message (KNOWN_ABORTS). The run fails only when a unit fails with a message that is not
one of these, i.e. when the RTL starts to use a construct the report does not list yet.
docs/synthesis.md explains why the RTL keeps each construct.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (id, what Icarus 11 rejects, how the copy is rewritten, where the RTL uses it and why)
REWRITES = [
    ('int-unsigned', "the type `int unsigned` (parameters, function arguments): syntax error",
     [(r'\bint unsigned\b', 'int')],
     "STYLE rule 7: typed parameters; unsigned keeps width/compare semantics under "
     "Verilator and Yosys"),
    ('pkg-parameter', "`parameter` declarations inside a package: syntax error",
     'pkg-parameter',
     "IEEE 1800-2017 26.2 allows them (they act as localparam); the register generator "
     "writes them in the generated <blk>_reg_pkg.sv"),
    ('elab-fatal', "elaboration-time `$fatal` in a generate `if` (IEEE 1800-2017 20.11): "
     "\"invalid module item\"", [(r'^(\s*)\$fatal\(', r'\1initial $fatal(')],
     "STYLE rule 9: illegal parameter combinations stop elaboration"),
    ('pkg-typed-param', "a parameter whose type is a package type "
     "(`localparam dcqcn_pkg::rate_t X = ...`): syntax error",
     [(r'\b(localparam|parameter)\s+\w+::\w+\s+', r'\1 ')],
     "STYLE rule 20: typed constants of the block's own widths"),
    ('sva-property', "concurrent assertions with `|->`, `$rose`, `$stable` (the ASSERT "
     "macros of rtl/common/tm_assert.svh), even with -gno-assertions: syntax error",
     'sva-property',
     "STYLE rule 15: the assertions stay on under Verilator; Yosys reads them compiled "
     "out (SYNTHESIS), as Icarus does in the -DSYNTHESIS units"),
    ('bind', "`bind` of a checker module: syntax error",
     [(r'^\s*bind\b.*?\);[ \t]*$', '', re.S)],
     "STYLE rule 16: the block checkers are bound from <blk>_bind.sv"),
]
KNOWN_ABORTS = [
    ('pkg-struct', r"elab_type\.cc:\d+: failed assertion scope|symbol_search\.cc:\d+.*"
     r"Assertion `scope' failed",
     "a packed struct type from a package used in a module (signal, port or function "
     "return type): Icarus aborts on an internal assertion",
     "STYLE rule 12: descriptors and headers are package structs; there is no "
     "equivalent without them short of hand-flattened vectors"),
    ('upward-name', r"Unable to bind wire/reg/memory `u_\w+\.",
     "a bound checker elaborated as its own root: it reads the blocks of its bind target "
     "by upward hierarchical name (IEEE 1800-2017 23.8), which exist only where it is bound",
     "rtl/xtm/xtm_sva.sv reads the block registers in place instead of copying them "
     "through ports (cheaper simulation); its bind unit is the one that matters"),
    ('pkg-vector-array', r"don't know how to elaborate \d*vector_type_t",
     "a packed array of a typedef'd vector from a package: Icarus crashes",
     "Yosys 0.23 needs named element types for packed arrays (rtl/xtm/xtm_pkg.sv)"),
]


def modules_in(path):
    with open(path) as f:
        return re.findall(r'^\s*module\s+(\w+)', f.read(), re.M)


def empty_assert_macros():
    with open('rtl/common/tm_assert.svh') as f:
        names = sorted(set(re.findall(r'^`define (\w+)\(', f.read(), re.M)))
    with open('rtl/common/tm_assert.svh') as f:
        args = dict(re.findall(r'^`define (\w+)(\([^)]*\))', f.read(), re.M))
    return '`define TM_ASSERT_SVH\n' + ''.join(f"`define {n}{args[n]}\n" for n in names)


def rewrite(text, rule):
    if rule == 'sva-property':
        if '`include "tm_assert.svh"' not in text:
            return text
        return text.replace('`include "tm_assert.svh"', empty_assert_macros(), 1)
    if rule == 'pkg-parameter':
        out = []
        inpkg = False
        for ln in text.splitlines(keepends=True):
            if re.match(r'^\s*package\b', ln):
                inpkg = True
            if re.match(r'^\s*endpackage\b', ln):
                inpkg = False
            if inpkg:
                ln = re.sub(r'^(\s*)parameter\b', r'\1localparam', ln)
            out.append(ln)
        return ''.join(out)
    for r in rule:
        pat, rep = r[0], r[1]
        text = re.sub(pat, rep, text, flags=re.M | (r[2] if len(r) > 2 else 0))
    return text


def run_iv(iverilog, files, top, defines, incdirs, extra):
    cmd = [iverilog, '-g2012', '-o', os.devnull, '-s', top] + extra + \
          [f'-D{d}' for d in defines] + [f'-I{i}' for i in incdirs] + files
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    msg = (r.stdout + r.stderr).strip()
    # Icarus exits 0 with only warnings; "I give up" / "error" / aborts are failures
    ok = r.returncode == 0
    return ok, msg


def first_error(msg):
    for ln in msg.splitlines():
        if re.search(r'error|sorry|assert|give up|Segmentation|Abort', ln, re.I) and \
                'warning' not in ln:
            return ln.strip()
    return msg.splitlines()[0] if msg else ''


def unit(iverilog, files, top, defines, incdirs, extra, tmp):
    ok, msg = run_iv(iverilog, files, top, defines, incdirs, extra)
    if ok:
        return 'clean', [], '', ''
    first = first_error(msg)
    applied = []
    texts = {}
    for f in files:
        with open(f) as fh:
            texts[f] = fh.read()
    last = first_error(msg)
    for rid, _, rule, _ in REWRITES:
        new = {f: rewrite(t, rule) for f, t in texts.items()}
        if new == texts:
            continue
        texts = new
        applied.append(rid)
        paths = []
        for k, f in enumerate(files):
            p = os.path.join(tmp, f"{k}_{os.path.basename(f)}")
            with open(p, 'w') as fh:
                fh.write(texts[f])
            paths.append(p)
        ok, msg = run_iv(iverilog, paths, top, defines, incdirs, extra)
        if ok:
            return 'rewritten', applied, '', first
        last = first_error(msg)
    for aid, pat, _, _ in KNOWN_ABORTS:
        if re.search(pat, msg):
            return 'known', applied + [aid], last, first
    return 'UNKNOWN', applied, last, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default='build/synth/iverilog.txt')
    ap.add_argument('--iverilog', default='iverilog')
    ap.add_argument('--quiet', action='store_true', help='print the summary lines only')
    ap.add_argument('--extra', action='append', default=[],
                    help='one more file to report on (its modules; the negative test '
                         'passes a construct the report does not know)')
    a = ap.parse_args()
    if shutil.which(a.iverilog) is None:
        raise SystemExit(f"[iverilog] FAIL: {a.iverilog} not found (make deps installs iverilog)")
    ver = subprocess.run([a.iverilog, '-V'], capture_output=True, text=True).stdout.splitlines()
    units = []
    for blk in ('xtm', 'dcqcn'):
        fl = f'rtl/{blk}/{blk}.f'
        if not os.path.exists(fl):
            continue
        with open(fl) as f:
            files = [ln.strip() for ln in f if ln.strip()]
        common = sorted(p for p in (os.path.join('rtl/common', x) for x in os.listdir('rtl/common'))
                        if p.endswith('.sv'))
        text = ''.join(open(x).read() for x in files)
        used = [c for c in common if c not in files and
                any(re.search(rf'\b{m}\b', text) for m in modules_in(c))]
        rtl = used + files  # the rtl/common cells the block instantiates, then its list
        for f in files:
            for m in modules_in(f):
                units.append((f, m, rtl, ['SYNTHESIS'], []))
        for extra in (f'rtl/{blk}/{blk}_sva.sv', f'rtl/{blk}/{blk}_bind.sv'):
            if os.path.exists(extra):
                for m in modules_in(extra):
                    units.append((extra, m, rtl + [extra], [], ['-gno-assertions']))
                if not modules_in(extra):  # a bind file: no module of its own
                    sva = f'rtl/{blk}/{blk}_sva.sv'
                    top = [x for x in files if x.endswith('_top.sv')]
                    topm = modules_in(top[0])[0] if top else blk + '_top'
                    units.append((extra, topm, rtl + [sva, extra], [], ['-gno-assertions']))
    # a generic cell of rtl/common with what it needs: the packages it names (pkg::) and
    # the cells it instantiates, transitively (xtm_rr_arb -> xtm_lowest, xtm_fifo ->
    # xtm_ram_1r1w, xtm_tbucket -> xtm_pkg -> xtm_reg_pkg)
    pkg_file, mod_file, order = {}, {}, []
    for blk in ('xtm', 'dcqcn'):
        fl = f'rtl/{blk}/{blk}.f'
        if os.path.exists(fl):
            with open(fl) as fh:
                order += [ln.strip() for ln in fh if ln.strip() and ln.strip() not in order]
    for x in sorted(os.listdir('rtl/common')):
        if x.endswith('.sv') and os.path.join('rtl/common', x) not in order:
            order.append(os.path.join('rtl/common', x))
    for x in order:
        with open(x) as fh:
            for pk in re.findall(r'^\s*package\s+(\w+)', fh.read(), re.M):
                pkg_file[pk] = x
        for m in modules_in(x):
            mod_file.setdefault(m, x)

    def needs(path):
        need, todo = {path}, [path]
        while todo:
            with open(todo.pop()) as fh:
                text = re.sub(r'//.*', '', fh.read())
            deps = [pkg_file[pk] for pk in re.findall(r'\b(\w+)::', text) if pk in pkg_file]
            deps += [mod_file[m] for m in re.findall(r'^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()', text, re.M)
                     if m in mod_file]
            for d in deps:
                if d not in need:
                    need.add(d)
                    todo.append(d)
        pkgs = [x for x in order if x in need and x in pkg_file.values()]
        return pkgs + [x for x in order if x in need and x not in pkgs]

    for f in sorted(os.listdir('rtl/common')):
        p = os.path.join('rtl/common', f)
        if p.endswith('.sv'):
            for m in modules_in(p):
                units.append((p, m, needs(p), ['SYNTHESIS'], []))
                units.append((p, m, needs(p), [], ['-gno-assertions']))
    for p in a.extra:
        for m in modules_in(p):
            units.append((p, m, [p], ['SYNTHESIS'], []))
    rows = []
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f, m, files, defs, extra in units:
            st, applied, err, first = unit(a.iverilog, files, m, defs, ['rtl/common'], extra, tmp)
            mode = '-DSYNTHESIS' if defs else 'checks on'
            rows.append((f, m, mode, st, applied, err, first))
            if st == 'UNKNOWN':
                bad += 1
    lines = [f"Icarus Verilog: {ver[0] if ver else '?'} (iverilog -g2012)", '',
             "Constructs Icarus rejects, rewritten in a copy to see past them:"]
    for rid, what, _, why in REWRITES:
        lines.append(f"  {rid}: {what}. Kept because: {why}.")
    lines.append("Aborts no rewrite removes:")
    for aid, _, what, why in KNOWN_ABORTS:
        lines.append(f"  {aid}: {what}. Kept because: {why}.")
    lines.append('')
    lines.append("result: clean = elaborates as it is; rewritten = elaborates once the listed "
                 "constructs are rewritten in a copy; known = the copy still stops at the "
                 "listed abort; UNKNOWN = a rejection this report does not explain (fails).")
    lines.append("The last column lists what the copy rewrote (everything of the table present "
                 "in the unit's files), then the abort; under it, Icarus' first message on the "
                 "file as it is.")
    lines.append('')
    lines.append(f"{'file':<34}{'module (root)':<18}{'mode':<13}{'result':<11}rewritten / abort")
    for f, m, mode, st, applied, err, first in rows:
        lines.append(f"{f:<34}{m:<18}{mode:<13}{st:<11}{', '.join(applied) or '-'}"
                     + (f"   [{err}]" if st == 'UNKNOWN' else ''))
        if first:
            lines.append(f"{'':<34}as it is: {re.sub(r'^.*/', '', first)}")
    n = {k: sum(1 for r in rows if r[3] == k) for k in ('clean', 'rewritten', 'known', 'UNKNOWN')}
    lines.append('')
    lines.append(f"units: {len(rows)}; elaborate as they are: {n['clean']}; after the listed "
                 f"rewrites: {n['rewritten']}; stopped by a listed abort: {n['known']}; "
                 f"unexplained: {n['UNKNOWN']}")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    print('\n'.join(lines[-1:] if a.quiet else lines))
    print(f"[iverilog] report {a.out}: " + ("PASS (every rejection is a listed construct)"
                                           if bad == 0 else f"FAIL ({bad} unexplained)"))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
