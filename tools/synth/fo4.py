#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""FO4 inverter delay of a Liberty library, from the inverter's own timing tables.

  tools/synth/fo4.py LIB [--cell INVX1] [--json]

Definition used (docs/synthesis.md): the delay of an inverter that drives four copies of
itself, in a long chain of such stages, so that its input slew is the slew such a stage
produces. The load is 4 x the input pin capacitance of the same cell (no wire load). A
rising input gives a falling output, so the chain alternates: with L = 4 * C_in,
    s_fall = fall_transition(L, s_rise),  s_rise = rise_transition(L, s_fall)
iterated to the fixed point, and
    FO4 = (cell_fall(L, s_rise) + cell_rise(L, s_fall)) / 2.
Tables are interpolated bilinearly (extrapolated linearly), as static timing does.
make sta cross-checks the figure with OpenSTA on a netlist of such a chain
(tools/synth/fo4_chain.py).
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liberty  # noqa: E402


def fo4(lib, cell_name='INVX1', fanout=4):
    cells = liberty.cells(lib)
    tmpl = liberty.templates(lib)
    cell = cells[cell_name]
    inp = [p for p in cell.sub('pin') if p.attrs.get('direction') == 'input']
    out = [p for p in cell.sub('pin') if p.attrs.get('direction') == 'output']
    if len(inp) != 1 or len(out) != 1 or out[0].attrs.get('function', '').replace(' ', '') \
            not in ('(!A)', '!A', "A'", '(A\')'):
        raise ValueError(f"{cell_name} is not a one-input inverter")
    cin = float(inp[0].attrs['capacitance'])
    load = fanout * cin
    arc = out[0].one('timing')

    def table(kind):
        g = arc.one(kind)
        return liberty.Table(g, tmpl.get(g.args[0]) if g.args else None)

    cf, cr, tf, tr = (table(k) for k in ('cell_fall', 'cell_rise', 'fall_transition',
                                         'rise_transition'))
    s_rise = s_fall = 0.1
    for _ in range(200):
        nf = tf.value(load, s_rise)
        nr = tr.value(load, nf)
        if abs(nf - s_fall) < 1e-9 and abs(nr - s_rise) < 1e-9:
            break
        s_fall, s_rise = nf, nr
    d_fall = cf.value(load, s_rise)
    d_rise = cr.value(load, s_fall)
    unit = lib.attrs.get('time_unit', '1ns')
    return {
        'cell': cell_name, 'input_cap': cin, 'load': load, 'slew_rise': s_rise,
        'slew_fall': s_fall, 'delay_fall': d_fall, 'delay_rise': d_rise,
        'fo4': (d_fall + d_rise) / 2, 'time_unit': unit,
        'cap_unit': ' '.join(lib.complex.get('capacitive_load_unit', [['?']])[0]),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('lib')
    ap.add_argument('--cell', default='INVX1')
    ap.add_argument('--json', action='store_true')
    a = ap.parse_args()
    r = fo4(liberty.read(a.lib), a.cell)
    if a.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"fo4_cell: {r['cell']}\nfo4_load_pf: {r['load']:.5f}\n"
              f"fo4_slew_rise_ns: {r['slew_rise']:.4f}\nfo4_slew_fall_ns: {r['slew_fall']:.4f}\n"
              f"fo4_delay_rise_ns: {r['delay_rise']:.4f}\nfo4_delay_fall_ns: {r['delay_fall']:.4f}\n"
              f"fo4_ns: {r['fo4']:.4f}")


if __name__ == '__main__':
    main()
