#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Static timing of a synthesized block with OpenSTA (make sta; docs/synthesis.md).

  tools/synth/sta.py --dir build/synth/<blk> --top TOP --sdc constraints/<blk>.sdc \\
      --liberty LIB [--paths 10] [--sta sta]

Reads OUT/gates_sta.v (tools/synth/synth.py), the library and OUT/macros.lib (RAM macro
timing models), links TOP, applies the SDC and writes OUT/timing.rpt:
  - the FO4 inverter delay of the library two ways: computed from the inverter's tables
    (tools/synth/fo4.py) and timed by OpenSTA on a chain of inverters each driving four
    copies of itself (the mean of two consecutive middle stages, one rising and one
    falling output); the two must agree within 5 % or the run fails;
  - worst slack (setup) at the constrained clock, total negative slack, the achieved
    period (constrained period minus worst slack: every path's requirement grows one for
    one with the period, since the SDC's input/output delays are absolute), the critical
    path's delay in FO4 and its number of cell stages;
  - the top --paths paths to distinct endpoints (start, end, slack, stages) and the full
    report of the worst one;
  - max transition violations against the largest input slew the library's tables are
    characterised for (1.2 ns for OSU 0.18 um): a slower net is timed by extrapolation
    (there is no placement, wire load or buffering beyond ABC's).
Prints `key: value` lines (OUT/sta_summary.txt).
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fo4 as fo4mod  # noqa: E402
import liberty  # noqa: E402


def run_sta(sta, tcl, logf, timeout):
    with open(logf, 'w') as f:
        r = subprocess.run([sta, '-no_init', '-no_splash', '-exit', tcl], stdout=f,
                           stderr=subprocess.STDOUT, timeout=timeout)
    with open(logf) as f:
        text = f.read()
    if r.returncode != 0 or re.search(r'^Error', text, re.M):
        print(text[-3000:])
        print(f"[sta] FAIL: OpenSTA exit {r.returncode} (log {logf})")
        sys.exit(1)
    return text


def fo4_chain(out, lib_path, cell, sta, stages=11):
    lib = liberty.read(lib_path)
    c = liberty.cells(lib)[cell]
    cin = float([p for p in c.sub('pin') if p.attrs.get('direction') == 'input'][0]
                .attrs['capacitance'])
    v = ["module fo4_chain (input a, output y);"]
    v.append("  wire " + ', '.join(f"n{k}" for k in range(stages + 1)) + ";")
    v.append("  assign n0 = a;")
    for k in range(stages):
        v.append(f"  {cell} u{k} (.A(n{k}), .Y(n{k + 1}));")
        for j in range(3):  # three more copies of the inverter load every stage
            v.append(f"  {cell} l{k}_{j} (.A(n{k + 1}), .Y());")
    v.append(f"  assign y = n{stages};")
    v.append("endmodule")
    vp = os.path.join(out, 'fo4_chain.v')
    with open(vp, 'w') as f:
        f.write('\n'.join(v) + '\n')
    tcl = os.path.join(out, 'fo4_chain.tcl')
    with open(tcl, 'w') as f:
        f.write(f"""read_liberty {lib_path}
read_verilog {vp}
link_design fo4_chain
create_clock -name vclk -period 100
set_input_delay 0 -clock vclk [get_ports a]
set_output_delay 0 -clock vclk [get_ports y]
set_load {3 * cin} [get_ports y]
report_checks -from [get_ports a] -rise_from [get_ports a] -fields {{slew cap}} -digits 5
report_checks -from [get_ports a] -fall_from [get_ports a] -fields {{slew cap}} -digits 5
""")
    text = run_sta(sta, tcl, os.path.join(out, 'fo4_chain.log'), 120)
    # incremental delay of the output pins of the middle stages
    mids = [stages // 2, stages // 2 + 1]
    delays = []
    for m in mids:
        for line in text.splitlines():
            mm = re.match(r'\s*(?:\S+\s+)*?(-?[\d.]+)\s+(-?[\d.]+)\s+[\^v]\s+u%d/Y\s' % m, line)
            if mm:
                delays.append(float(mm.group(1)))
    if len(delays) != 4:
        print(text)
        raise SystemExit("[sta] FAIL: could not read the FO4 chain's stage delays")
    return sum(delays) / len(delays)


PATH_HDR = re.compile(r'^Startpoint: (\S+)(?: \((.*)\))?\s*$')


def parse_paths(text):
    """report_checks (full format) -> list of dicts."""
    paths = []
    cur = None
    section = None
    for line in text.splitlines():
        m = PATH_HDR.match(line)
        if m:
            cur = {'start': m.group(1), 'start_kind': m.group(2) or '', 'stages': 0,
                   'cells': [], 'arrival': None, 'required': None, 'slack': None}
            paths.append(cur)
            section = 'head'
            continue
        if cur is None:
            continue
        m = re.match(r'^Endpoint: (\S+)(?: \((.*)\))?', line)
        if m:
            cur['end'], cur['end_kind'] = m.group(1), m.group(2) or ''
            continue
        m = re.match(r'^Path Group: (\S+)', line)
        if m:
            cur['group'] = m.group(1)
            continue
        if re.match(r'^\s*-+\s*$', line) and section == 'head':
            section = 'data'
            continue
        m = re.match(r'^\s*(?:\S+\s+)*?(-?[\d.]+)\s+data arrival time', line)
        if m and section == 'data':
            cur['arrival'] = float(m.group(1))
            section = 'req'
            continue
        m = re.match(r'^\s*(?:\S+\s+)*?(-?[\d.]+)\s+data required time', line)
        if m and section == 'req':
            cur['required'] = float(m.group(1))
            continue
        m = re.match(r'^\s*(-?[\d.]+)\s+slack \((MET|VIOLATED)\)', line)
        if m:
            cur['slack'] = float(m.group(1))
            section = None
            continue
        if section == 'data':
            m = re.search(r'\s[\^v]\s+(\S+)\s+\((\w+)\)\s*$', line)
            if m and m.group(2) not in ('in', 'out', 'inout'):
                cur['cells'].append((m.group(1), m.group(2)))
    for p in paths:
        # every pin line is a cell output except the endpoint's input pin
        n = len(p['cells'])
        if p['cells'] and p['cells'][-1][0] == p.get('end'):
            n -= 1
        p['stages'] = n
    return paths


def register_names(netlist):
    """Flip-flop instance -> the register bit its Q drives (the names Yosys kept)."""
    names = {}
    with open(netlist) as f:
        text = f.read()
    for m in re.finditer(r'^\s*(\w+)\s+(\S+)\s*\((.*?)\);', text, re.M | re.S):
        q = re.search(r'\.Q\((.*?)\)\s*(?:,|$)', m.group(3), re.S)
        if q:
            names[m.group(2)] = re.sub(r'\s+', '', q.group(1)).lstrip('\\')
    return names


def label(pin, names):
    inst = pin.split('/')[0]
    return f"{names[inst]} ({pin})" if inst in names else pin


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dir', required=True)
    ap.add_argument('--top', required=True)
    ap.add_argument('--sdc', required=True)
    ap.add_argument('--liberty', required=True)
    ap.add_argument('--fo4-cell', default='INVX1')
    ap.add_argument('--paths', type=int, default=10)
    ap.add_argument('--sta', default='sta')
    ap.add_argument('--timeout', type=int, default=1800)
    a = ap.parse_args()
    d = a.dir
    net = os.path.join(d, 'gates_sta.v')
    if not os.path.exists(net):
        raise SystemExit(f"[sta] FAIL: {net} missing: run make synth first")
    t0 = time.time()
    f = fo4mod.fo4(liberty.read(a.liberty), a.fo4_cell)
    fo4_lib = f['fo4']
    fo4_sta = fo4_chain(d, a.liberty, a.fo4_cell, a.sta)
    if abs(fo4_sta - fo4_lib) > 0.05 * fo4_lib:
        raise SystemExit(f"[sta] FAIL: FO4 from the tables {fo4_lib:.4f} ns and from OpenSTA "
                         f"{fo4_sta:.4f} ns differ by more than 5 %")
    # the largest input slew the library is characterised for (its tables' transition
    # index): a net slower than that is timed by extrapolation; reported as a violation
    inv = liberty.cells(liberty.read(a.liberty))[a.fo4_cell]
    tmpl = liberty.templates(liberty.read(a.liberty))
    arc = [p for p in inv.sub('pin') if p.attrs.get('direction') == 'output'][0].one('timing')
    tab = liberty.Table(arc.one('cell_rise'), tmpl.get(arc.one('cell_rise').args[0]))
    max_slew = max(tab.i1 if tab.var1 == 'input_net_transition' else tab.i2)
    macros = os.path.join(d, 'macros.lib')
    tcl = os.path.join(d, 'sta.tcl')
    with open(tcl, 'w') as fh:
        fh.write(f"""read_liberty {a.liberty}
{'read_liberty ' + macros if os.path.exists(macros) else ''}
read_verilog {net}
link_design {a.top}
read_sdc {a.sdc}
set_max_transition {max_slew} [current_design]
puts "==== clocks"
report_clock_properties
puts "==== worst slack"
report_worst_slack -digits 3
report_tns -digits 3
puts "==== paths"
report_checks -path_delay max -group_count {a.paths} -endpoint_count 1 -unique_paths_to_endpoint -fields {{capacitance slew}} -digits 3
puts "==== hold"
report_checks -path_delay min -group_count 1 -digits 3
puts "==== design rule violations"
report_check_types -max_transition -all_violators
puts "==== end"
""")
    text = run_sta(a.sta, tcl, os.path.join(d, 'sta.log'), a.timeout)
    m = re.search(r'^\s*clk_i\s+([\d.]+)', text.split('==== clocks')[1], re.M)
    period = float(m.group(1)) if m else None
    m = re.search(r'worst slack (-?[\d.]+)', text)
    wns = float(m.group(1)) if m else None
    m = re.search(r'^tns (-?[\d.]+)', text, re.M)
    tns = float(m.group(1)) if m else None
    paths = parse_paths(text.split('==== paths')[1].split('==== hold')[0])
    if period is None or wns is None or not paths:
        print(text[-3000:])
        raise SystemExit("[sta] FAIL: could not read the clock, the worst slack or the paths")
    regs = register_names(net)
    for p in paths:
        p['start'] = label(p['start'], regs)
        p['end'] = label(p['end'], regs)
    crit = min(paths, key=lambda p: p['slack'])
    achieved = period - crit['slack']
    drv = text.split('==== design rule violations')[1].split('==== end')[0]
    n_drv = len(re.findall(r'\(VIOLATED\)', drv))
    summary = [
        ('fo4_ns', f"{fo4_lib:.4f}"),
        ('fo4_sta_ns', f"{fo4_sta:.4f}"),
        ('clock_period_ns', f"{period:.3f}"),
        ('worst_slack_ns', f"{crit['slack']:.3f}"),
        ('tns_ns', f"{tns:.3f}" if tns is not None else 'n/a'),
        ('achieved_period_ns', f"{achieved:.3f}"),
        ('achieved_mhz', f"{1000.0 / achieved:.1f}"),
        ('critical_path_fo4', f"{achieved / fo4_lib:.1f}"),
        ('critical_path_stages', f"{crit['stages']}"),
        ('critical_path', f"{crit['start']} -> {crit['end']}"),
        ('max_transition_ns', f"{max_slew}"),
        ('max_transition_violations', f"{n_drv}"),
        ('sta_s', f"{time.time() - t0:.0f}"),
    ]
    rpt = [f"Static timing of {a.top} (OpenSTA {a.sta}), netlist {net}",
           f"constraints {a.sdc}; library {a.liberty}"
           + (f"; RAM macro models {macros}" if os.path.exists(macros) else ''), '',
           f"FO4 ({a.fo4_cell} driving 4 x its input capacitance, input slew of such a stage):",
           f"  from the Liberty tables  {fo4_lib:.4f} ns (rise {f['delay_rise']:.4f}, fall "
           f"{f['delay_fall']:.4f}, load {f['load']:.5f} pF)",
           f"  OpenSTA on a FO4 chain   {fo4_sta:.4f} ns", '',
           "Summary:"] + [f"  {k}: {v}" for k, v in summary] + ['',
           f"Top {len(paths)} setup paths (one per endpoint, worst first):",
           f"  {'slack ns':>9} {'delay ns':>9} {'FO4':>6} {'stages':>6}  start -> end"]
    for p in sorted(paths, key=lambda p: p['slack']):
        delay = period - p['slack']
        rpt.append(f"  {p['slack']:>9.3f} {delay:>9.3f} {delay / fo4_lib:>6.1f} {p['stages']:>6}  "
                   f"{p['start']} -> {p['end']}")
    rpt += ['', "OpenSTA output:", text]
    with open(os.path.join(d, 'timing.rpt'), 'w') as fh:
        fh.write('\n'.join(rpt) + '\n')
    with open(os.path.join(d, 'sta_summary.txt'), 'w') as fh:
        fh.write('\n'.join(f"{k}: {v}" for k, v in summary) + '\n')
    for k, v in summary:
        print(f"{k}: {v}")
    print(f"[sta] report {os.path.join(d, 'timing.rpt')}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
