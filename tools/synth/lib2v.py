#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Simulation models of a Liberty library's cells, written from the Liberty itself.

  tools/synth/lib2v.py LIB OUT.sv
  tools/synth/lib2v.py LIB OUT.sv --check VENDOR.v [--iverilog iverilog] [--no-generate]

The vendor's Verilog models (osu018_stdcells.v) describe the flip-flops with user-defined
primitives, which Verilator 5.006 does not read. This writes a model per cell from the
same Liberty groups static timing uses: `function` of each output pin (combinational),
`ff (IQ, IQN)` with `next_state`, `clocked_on`, `clear`, `preset` (edge-triggered, with
asynchronous clear/preset). Latches and three-state cells are not modelled (listed in the
header): the flow fails on a latch and maps no three-state logic, and a netlist that used
one would not elaborate.

--check compiles the generated models and the vendor's models with Icarus Verilog and
compares them: every combinational cell on all input combinations, every flip-flop on a
seeded random sequence of data, clock, clear and preset changes (outputs sampled after
each change). Prints `PASS cell` / `FAIL cell` lines; exit 1 on any failure.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liberty  # noqa: E402


class Expr:
    """Liberty boolean expression -> SystemVerilog expression."""
    TOK = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_\[\]\.]*|[()!'+|&*^01])")

    def __init__(self, text):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = self.TOK.match(text, pos)
            if not m:
                if text[pos:].strip() == '':
                    break
                raise ValueError(f"function {text!r}: cannot parse at {text[pos:]!r}")
            self.toks.append(m.group(1))
            pos = m.end()
        self.i = 0
        self.names = set()
        self.sv = self.or_expr()
        if self.i != len(self.toks):
            raise ValueError(f"function {text!r}: trailing {self.toks[self.i:]}")

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def or_expr(self):
        parts = [self.and_expr()]
        while self.peek() in ('+', '|'):
            self.take()
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else '(' + ' | '.join(parts) + ')'

    def and_expr(self):
        parts = [self.xor_expr()]
        while True:
            p = self.peek()
            if p in ('&', '*'):
                self.take()
                parts.append(self.xor_expr())
            elif p is not None and p not in (')', '+', '|', '^', "'"):
                parts.append(self.xor_expr())  # juxtaposition is AND
            else:
                break
        return parts[0] if len(parts) == 1 else '(' + ' & '.join(parts) + ')'

    def xor_expr(self):
        parts = [self.unary()]
        while self.peek() == '^':
            self.take()
            parts.append(self.unary())
        return parts[0] if len(parts) == 1 else '(' + ' ^ '.join(parts) + ')'

    def unary(self):
        if self.peek() == '!':
            self.take()
            return '(~' + self.unary() + ')'
        e = self.primary()
        while self.peek() == "'":
            self.take()
            e = '(~' + e + ')'
        return e

    def primary(self):
        t = self.take()
        if t == '(':
            e = self.or_expr()
            if self.take() != ')':
                raise ValueError("unbalanced parentheses")
            return e
        if t in ('0', '1'):
            return "1'b" + t
        if not re.match(r'[A-Za-z_]', t):
            raise ValueError(f"unexpected {t!r}")
        self.names.add(t)
        return t


def edge_of(expr_text, what):
    """'CLK' -> ('posedge', 'CLK'); '(!R)' -> ('negedge', 'R')."""
    e = expr_text.replace(' ', '')
    m = re.fullmatch(r'\(?(!?)([A-Za-z_][A-Za-z0-9_]*)(\'?)\)?', e)
    if not m:
        raise ValueError(f"{what} {expr_text!r}: only a pin or its inverse is supported")
    inv = bool(m.group(1)) != bool(m.group(3))
    return ('negedge' if inv else 'posedge'), m.group(2)


def cell_model(name, cell):
    pins = cell.sub('pin')
    ins = [p.args[0] for p in pins if p.attrs.get('direction') == 'input']
    outs = [p for p in pins if p.attrs.get('direction') == 'output']
    if cell.sub('latch') or cell.sub('statetable'):
        return None, 'latch'
    if any('three_state' in p.attrs for p in outs):
        return None, 'three-state'
    ffs = cell.sub('ff')
    lines = [f"module {name} ("]
    ports = [f"  input  wire {p}" for p in ins] + [f"  output wire {p.args[0]}" for p in outs]
    lines.append(',\n'.join(ports))
    lines.append(');')
    if len(ffs) > 1:
        raise ValueError(f"{name}: more than one ff group")
    if ffs:
        ff = ffs[0]
        iq, iqn = ff.args[0], ff.args[1]
        ck_edge, ck = edge_of(ff.attrs['clocked_on'], 'clocked_on')
        d = Expr(ff.attrs['next_state']).sv
        sens = [f"{ck_edge} {ck}"]
        clr = pre = None
        if 'clear' in ff.attrs:
            ce, cp = edge_of(ff.attrs['clear'], 'clear')
            sens.append(f"{ce} {cp}")
            clr = Expr(ff.attrs['clear']).sv
        if 'preset' in ff.attrs:
            pe, pp = edge_of(ff.attrs['preset'], 'preset')
            sens.append(f"{pe} {pp}")
            pre = Expr(ff.attrs['preset']).sv
        both = ff.attrs.get('clear_preset_var1', 'L')
        both_v = {"L": "1'b0", "H": "1'b1"}.get(both)
        if clr and pre and both_v is None:
            raise ValueError(f"{name}: clear_preset_var1 {both} not supported")
        lines.append(f"  reg {iq};")
        lines.append(f"  wire {iqn} = ~{iq};")
        lines.append(f"  always @({' or '.join(sens)}) begin")
        cond = []
        if clr and pre:
            cond.append(f"if ({clr} && {pre}) {iq} <= {both_v};")
        if clr:
            cond.append(f"if ({clr}) {iq} <= 1'b0;")
        if pre:
            cond.append(f"if ({pre}) {iq} <= 1'b1;")
        cond.append(f"{iq} <= {d};")
        for k, c in enumerate(cond):
            lines.append("    " + ("" if k == 0 else "else ") + c)
        lines.append("  end")
    for p in outs:
        fn = p.attrs.get('function')
        if fn is None:
            raise ValueError(f"{name}.{p.args[0]}: output without function")
        lines.append(f"  assign {p.args[0]} = {Expr(fn).sv};")
    lines.append("endmodule\n")
    return '\n'.join(lines), None


def generate(lib_path, out_path):
    lib = liberty.read(lib_path)
    body = []
    skipped = []
    names = []
    for name, cell in liberty.cells(lib).items():
        text, why = cell_model(name, cell)
        if text is None:
            skipped.append(f"{name} ({why})")
            continue
        body.append(text)
        names.append(name)
    hdr = [
        "// Generated by tools/synth/lib2v.py from " + os.path.basename(lib_path) + ". Do not edit.",
        f"// command: tools/synth/lib2v.py {lib_path} {out_path}",
        "// One model per cell from the Liberty `function` and `ff` groups (simulation of the",
        "// mapped netlist under Verilator; docs/synthesis.md). Not modelled: " +
        (', '.join(skipped) if skipped else 'none') + '.',
        "/* verilator lint_off UNOPTFLAT */",
        "`timescale 1ns/10ps",
        "",
    ]
    with open(out_path, 'w') as f:
        f.write('\n'.join(hdr) + '\n'.join(body))
    return lib, names


def check(lib, names, model_path, vendor_path, iverilog, seed=1):
    cells = liberty.cells(lib)
    rnd = random.Random(seed)
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        # rename the generated modules so both sets coexist
        with open(model_path) as f:
            gen = f.read()
        for n in names:
            gen = re.sub(rf'\bmodule {n} \(', f'module gen_{n} (', gen)
        gp = os.path.join(tmp, 'gen.v')
        with open(gp, 'w') as f:
            f.write(gen)
        for n in names:
            cell = cells[n]
            pins = cell.sub('pin')
            ins = [p.args[0] for p in pins if p.attrs.get('direction') == 'input']
            outs = [p.args[0] for p in pins if p.attrs.get('direction') == 'output']
            seq = bool(cell.sub('ff'))
            tb = ["`timescale 1ns/10ps", "module tb;"]
            tb.append("  reg " + ', '.join(ins) + ";")
            tb.append("  wire " + ', '.join(f"v_{o}, g_{o}" for o in outs) + ";")
            conn = lambda pfx: ', '.join([f".{i}({i})" for i in ins] +
                                         [f".{o}({pfx}_{o})" for o in outs])
            tb.append(f"  {n} u_v ({conn('v')});")
            tb.append(f"  gen_{n} u_g ({conn('g')});")
            tb.append("  integer errs = 0;")
            tb.append("  task chk; begin #2;")
            for o in outs:
                tb.append(f"    if (v_{o} !== g_{o}) begin errs = errs + 1; "
                          f"$display(\"mismatch {o}: vendor %b generated %b (inputs %b)\", "
                          f"v_{o}, g_{o}, {{{', '.join(ins)}}}); end")
            tb.append("  end endtask")
            tb.append("  initial begin")
            if not seq:
                for v in range(1 << len(ins)):
                    bits = ' '.join(f"{i} = 1'b{(v >> k) & 1};" for k, i in enumerate(ins))
                    tb.append(f"    {bits} chk;")
            else:
                ff = cell.sub('ff')[0]
                _, ck = edge_of(ff.attrs['clocked_on'], 'clocked_on')
                asyncs = []
                for a in ('clear', 'preset'):
                    if a in ff.attrs:
                        e, p = edge_of(ff.attrs[a], a)
                        asyncs.append((p, 1 if e == 'negedge' else 0))
                # start: asyncs inactive, known state through an async or a clock edge
                init = {i: 0 for i in ins}
                for p, act_low in asyncs:
                    init[p] = 1 if act_low else 0
                tb.append("    " + ' '.join(f"{i} = 1'b{v};" for i, v in init.items()) + " #5;")
                if asyncs:
                    p, act_low = asyncs[0]
                    tb.append(f"    {p} = 1'b{0 if act_low else 1}; #5; {p} = 1'b{act_low}; #5;")
                else:
                    tb.append(f"    {ck} = ~{ck}; #5; {ck} = ~{ck}; #5;")
                tb.append("    chk;")
                state = dict(init)
                for _ in range(400):
                    pin = rnd.choice(ins + [ck] * 3)
                    # one change at a time, never two asyncs active together
                    if any(pin == p for p, _ in asyncs):
                        others_active = any(state[q] == (0 if al else 1)
                                            for q, al in asyncs if q != pin)
                        if others_active:
                            continue
                    # data changes only away from a clock edge (no setup race)
                    state[pin] ^= 1
                    tb.append(f"    {pin} = 1'b{state[pin]}; #3; chk;")
            tb.append("    if (errs == 0) $display(\"PASS\"); else $display(\"FAIL %0d\", errs);")
            tb.append("    $finish;")
            tb.append("  end")
            tb.append("endmodule")
            tp = os.path.join(tmp, f'tb_{n}.v')
            with open(tp, 'w') as f:
                f.write('\n'.join(tb) + '\n')
            exe = os.path.join(tmp, f'tb_{n}')
            r = subprocess.run([iverilog, '-g2005', '-o', exe, '-s', 'tb', tp, gp, vendor_path],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL lib2v-{n} (iverilog: {r.stderr.strip()[:300]})")
                fails += 1
                continue
            r = subprocess.run(['vvp', '-n', exe], capture_output=True, text=True)
            last = [ln for ln in r.stdout.splitlines() if ln.strip()]
            if last and last[-1] == 'PASS':
                print(f"PASS lib2v-{n}")
            else:
                print(f"FAIL lib2v-{n}")
                print('\n'.join(last[:10]))
                fails += 1
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('lib')
    ap.add_argument('out')
    ap.add_argument('--check', metavar='VENDOR_V')
    ap.add_argument('--iverilog', default='iverilog')
    ap.add_argument('--no-generate', action='store_true',
                    help='check OUT as it is (the negative test edits a model first)')
    a = ap.parse_args()
    if a.no_generate:
        lib = liberty.read(a.lib)
        with open(a.out) as f:
            names = re.findall(r'^module (\w+) \(', f.read(), re.M)
    else:
        lib, names = generate(a.lib, a.out)
    if a.check:
        return 1 if check(lib, names, a.out, a.check, a.iverilog) else 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
