# SPDX-License-Identifier: Apache-2.0
"""RAM wrapper black boxes for static timing (used by tools/synth/synth.py).

The synthesized netlist keeps every RAM wrapper (rtl/common/xtm_ram_*) as a parameterised
instance: that is what make gls simulates, with the behavioural wrapper bound to it. For
OpenSTA each distinct (wrapper, parameters) becomes one macro cell: make_sta_netlist()
renames the instances in a copy of the netlist, and write_liberty() writes a Liberty timing
model per macro cell:

  - clk_i is the clock pin; every other input (enables, addresses, data, masks) has a
    setup and a hold constraint to the rising clock edge;
  - every output (read data) changes DEFAULT_TCQ_NS after the rising clock edge;
  - rst_ni (simulation checks only inside the wrapper) has no timing.

The numbers are assumptions, not a foundry macro's datasheet (Debian ships no SRAM compiler
for the OSU libraries): a small 0.18 um register file or SRAM has an access time of the
order of a nanosecond. Override with make sta RAM_TCQ_NS=... RAM_TSU_NS=...; the report
names the values used (docs/synthesis.md).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liberty  # noqa: E402

DEFAULT_TCQ_NS = 1.2
DEFAULT_TSU_NS = 0.25
DEFAULT_HOLD_NS = 0.05
DEFAULT_OUT_SLEW_NS = 0.15

_cache = {}


def library_cells(path):
    if path not in _cache:
        _cache[path] = liberty.read(path)
    return liberty.cells(_cache[path])


INST = re.compile(r'^(\s*)(\\?[A-Za-z_][\w$]*)\s+#\(\s*(.*?)\)\s*(\S+)\s*\(', re.M | re.S)
PARAM = re.compile(r"\.(\w+)\(\s*(\d+'s?[bdh][0-9a-fA-F_]+|-?\d+)\s*\)")


def vnum(text):
    """Verilog literal as write_verilog prints it (32'sd16, 1'h1, 8) -> int."""
    m = re.fullmatch(r"\d+'s?([bdh])([0-9a-fA-F_]+)", text)
    if not m:
        return int(text)
    return int(m.group(2).replace('_', ''), {'b': 2, 'd': 10, 'h': 16}[m.group(1)])


def cell_name(module, params):
    return module + '__' + '_'.join(f"{k}{params[k]}" for k in sorted(params))


_CONCAT_ASSIGN = re.compile(r'^(\s*)assign\s+\{(.*)\}\s*=\s*(.*);\s*$', re.M)
_WIRE_DECL = re.compile(r'^\s*(?:wire|input|output|inout|reg)\s+\[(\d+):(\d+)\]\s+(\S+)\s*;', re.M)
_CONST = re.compile(r"^(\d+)'([hbdo])([0-9a-fA-FxXzZ_]+)$")
_NET = re.compile(r'^(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[(\d+)(?::(\d+))?\])?$')


def _bits(item, widths):
    """The bits of one concatenation item, MSB first, or None if not understood."""
    item = item.strip()
    m = _CONST.match(item)
    if m:
        w, base, digits = int(m.group(1)), m.group(2), m.group(3).replace('_', '')
        if any(c in 'xXzZ' for c in digits):
            return None
        v = int(digits, {'h': 16, 'b': 2, 'd': 10, 'o': 8}[base])
        return [f"1'b{(v >> i) & 1}" for i in range(w - 1, -1, -1)]
    m = _NET.match(item)
    if not m:
        return None
    name = m.group(1)
    if m.group(2) is None:
        if name not in widths:
            return [name]
        hi, lo = widths[name]
    elif m.group(3) is None:
        return [f"{name} [{m.group(2)}]"]
    else:
        hi, lo = int(m.group(2)), int(m.group(3))
    step = -1 if hi >= lo else 1
    return [f"{name} [{i}]" for i in range(hi, lo + step, step)]


def split_concat_assigns(text):
    """OpenSTA 2.0.17 does not read `assign { a [3:2], b [0] } = ...;` (a concatenation on the
    left, which Yosys writes for partly constant vectors): one assign per bit instead."""
    widths = {m.group(3): (int(m.group(1)), int(m.group(2))) for m in _WIRE_DECL.finditer(text)}

    def split(s):
        return [x for x in s.split(',')]

    def repl(m):
        lhs = [b for x in split(m.group(2)) for b in (_bits(x, widths) or [None])]
        r = m.group(3).strip()
        r_items = split(r[1:-1]) if r.startswith('{') and r.endswith('}') else [r]
        rhs = [b for x in r_items for b in (_bits(x, widths) or [None])]
        if None in lhs or None in rhs or len(lhs) != len(rhs):
            raise ValueError(f"cannot split for OpenSTA: {m.group(0).strip()[:200]}")
        # a space before the semicolon: it would end an escaped identifier
        return "\n".join(f"{m.group(1)}assign {a} = {b} ;" for a, b in zip(lhs, rhs))

    return _CONCAT_ASSIGN.sub(repl, text)


def make_sta_netlist(src, dst, rams, macros):
    """Rename parameterised macro instances to one cell per (module, parameters)."""
    with open(src) as f:
        text = f.read()
    found = {}

    def repl(m):
        mod = m.group(2).lstrip('\\')
        if mod not in macros:
            return m.group(0)
        params = {k: vnum(v) for k, v in PARAM.findall(m.group(3))}
        name = cell_name(mod, params)
        if name not in found:
            match = [r for r in rams if r['module'] == mod and
                     all(r['params'].get(k) == v for k, v in params.items())]
            if not match:
                raise ValueError(f"macro instance {m.group(4)} ({mod} {params}) has no "
                                 "declared counterpart in Verilator's elaboration")
            found[name] = {'cell': name, 'module': mod, 'params': params,
                           'ports': match[0]['ports'], 'instances': []}
        found[name]['instances'].append(m.group(4))
        return f"{m.group(1)}{name} {m.group(4)} ("

    out = split_concat_assigns(INST.sub(repl, text))
    n_inst = sum(len(v['instances']) for v in found.values())
    if n_inst != len(rams):
        raise ValueError(f"netlist has {n_inst} RAM macro instances, the declarations {len(rams)}")
    with open(dst, 'w') as f:
        f.write(out)
    return list(found.values())


def write_liberty(path, cells, std_lib, tcq, tsu, hold=DEFAULT_HOLD_NS, slew=DEFAULT_OUT_SLEW_NS):
    std = library_cells(std_lib)
    dff = std.get('DFFPOSX1')
    cin = 0.01
    if dff is not None:
        cin = float(dff.one('pin', 'D').attrs.get('capacitance', cin))
    out = ["/* Generated by tools/synth/macros.py: timing models of the RAM wrappers kept as",
           f"   black boxes. Assumed, not from a datasheet: clk->q {tcq} ns, setup {tsu} ns,",
           f"   hold {hold} ns, output slew {slew} ns, input pin capacitance {cin} pF. */",
           "library (xtm_ram_macros) {",
           "  delay_model : table_lookup;",
           '  time_unit : "1ns";', '  voltage_unit : "1V";', '  current_unit : "1uA";',
           '  capacitive_load_unit (1,pf);', '  pulling_resistance_unit : "1kohm";',
           '  leakage_power_unit : "1nW";',
           '  nom_process : 1; nom_voltage : 1.8; nom_temperature : 25;',
           '  input_threshold_pct_rise : 50; input_threshold_pct_fall : 50;',
           '  output_threshold_pct_rise : 50; output_threshold_pct_fall : 50;',
           '  slew_lower_threshold_pct_rise : 20; slew_upper_threshold_pct_rise : 80;',
           '  slew_lower_threshold_pct_fall : 20; slew_upper_threshold_pct_fall : 80;']
    widths = sorted({p['width'] for c in cells for p in c['ports'] if p['width'] > 1})
    for w in widths:
        out.append(f"  type (bus{w}) {{ base_type : array; data_type : bit; bit_width : {w}; "
                   f"bit_from : {w - 1}; bit_to : 0; downto : true; }}")

    def timing_in():
        return [f"      timing () {{ related_pin : \"clk_i\"; timing_type : setup_rising; "
                f"rise_constraint (scalar) {{ values (\"{tsu}\"); }} "
                f"fall_constraint (scalar) {{ values (\"{tsu}\"); }} }}",
                f"      timing () {{ related_pin : \"clk_i\"; timing_type : hold_rising; "
                f"rise_constraint (scalar) {{ values (\"{hold}\"); }} "
                f"fall_constraint (scalar) {{ values (\"{hold}\"); }} }}"]

    def timing_out():
        return [f"      timing () {{ related_pin : \"clk_i\"; timing_type : rising_edge; "
                f"cell_rise (scalar) {{ values (\"{tcq}\"); }} "
                f"cell_fall (scalar) {{ values (\"{tcq}\"); }} "
                f"rise_transition (scalar) {{ values (\"{slew}\"); }} "
                f"fall_transition (scalar) {{ values (\"{slew}\"); }} }}"]

    for c in cells:
        out.append(f"  cell ({c['cell']}) {{")
        out.append("    area : 0;")
        out.append("    dont_touch : true; dont_use : true;")
        for p in c['ports']:
            kind = 'bus' if p['width'] > 1 else 'pin'
            direction = {'input': 'input', 'output': 'output'}.get(p['dir'], p['dir'])
            out.append(f"    {kind} ({p['name']}) {{")
            if kind == 'bus':
                out.append(f"      bus_type : bus{p['width']};")
            out.append(f"      direction : {direction};")
            if direction == 'input':
                out.append(f"      capacitance : {cin};")
                if p['name'] == 'clk_i':
                    out.append("      clock : true;")
                elif p['name'] != 'rst_ni':
                    out += timing_in()
            else:
                out += timing_out()
            out.append("    }")
        out.append("  }")
    out.append("}")
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
