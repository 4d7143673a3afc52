#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Gate-level synthesis of one block to a standard-cell library (make synth; docs/synthesis.md).

  tools/synth/synth.py --block xtm --top xtm_top --filelist rtl/xtm/xtm.f \\
      --param NumPorts=2 ... --liberty LIB --out build/synth/xtm [--level gates|coarse]
      [--macros xtm_ram_1r1w,xtm_ram_2p,xtm_ram_2r1w] [--macro-dir rtl/common]
      [--timeout 900] [--abc-delay-ps 1000] [--files extra.sv ...]

Steps (each one's log in OUT/):
  0. (no log)       the RAM wrapper instances of the sources: a port connected to an unbased
                    unsized fill ('1, 'x, 'z) stops the run: Yosys 0.23 reads it as 1'b1
                    zero-extended to the black box's port width (wmask '1 became 64'h1 and
                    the netlist wrote bit 0 of every RAM; docs/synthesis.md).
  1. declared.json  Verilator --xml-only of the same sources and parameters with SYNTHESIS
                    defined: the register bits the declarations give (tools/synth/ffcheck.py)
                    and the RAM wrapper instances with their Width x Depth and ports.
  2. front.log      Yosys: read (-defer), the RAM wrappers read as black boxes (-lib),
                    hierarchy with the parameters, proc, flatten, opt_clean; fails on any
                    latch; dumps the flip-flops (ff.il) and writes proc.il.
  3. ffcheck.txt    declared vs built flip-flop bits per declaration; the run stops here if
                    they differ (the Yosys 0.23 unpacked-array-of-struct bug class).
  4. back.log       Yosys from proc.il: synth -flatten coarse (coarse.v: word-level netlist,
                    simulated with simlib.v), then fine, dfflibmap + abc to the Liberty,
                    stat -liberty (cells.json, report.txt), gates.v (the netlist make gls
                    simulates; RAM wrappers stay parameterised instances), gates_sta.v (the
                    same netlist with each RAM instance renamed to its macro cell for STA)
                    and macros.lib (a timing model per RAM macro, tools/synth/macros.py).
--level coarse stops after the coarse netlist (for RTL that does not map in time).
Prints `key: value` lines and writes them to OUT/summary.txt.
"""

import argparse
import json
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ffcheck  # noqa: E402
import macros as macro_lib  # noqa: E402


def log(msg):
    print(f"[synth] {msg}", flush=True)


def cpu_children():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


CPU = {}  # what -> CPU seconds of the step (the tool and the children it waited for)


def run(cmd, logf, timeout, what):
    t0 = time.time()
    c0 = cpu_children()
    with open(logf, 'w') as f:
        # its own process group: on a timeout the tool's children (Yosys runs ABC as a
        # separate process) are stopped with it, not left running
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            log(f"FAIL {what}: no result within {timeout} s wall, "
                f"{cpu_children() - c0:.0f} s CPU, load average "
                f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} (log {logf})")
            sys.exit(3)
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            raise
    dt = time.time() - t0
    CPU[what] = cpu_children() - c0
    if rc != 0:
        with open(logf) as f:
            tail = f.read().splitlines()[-25:]
        print('\n'.join(tail))
        log(f"FAIL {what}: exit {rc} (log {logf})")
        sys.exit(1)
    return dt


def run_all(jobs, timeout, what):
    """Runs [(cmd, logf)] at once; fails as run() does. Returns the wall time of the set."""
    t0 = time.time()
    c0 = cpu_children()
    procs = []
    for cmd, logf in jobs:
        f = open(logf, 'w')
        procs.append((subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT,
                                       start_new_session=True), f, logf))
    failed = None
    try:
        for p, f, logf in procs:
            left = max(1.0, timeout - (time.time() - t0))
            try:
                rc = p.wait(timeout=left)
            except subprocess.TimeoutExpired:
                log(f"FAIL {what}: no result within {timeout} s wall, load average "
                    f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} (log {logf})")
                failed = 3
                break
            f.close()
            if rc != 0 and failed is None:
                with open(logf) as lf:
                    print('\n'.join(lf.read().splitlines()[-25:]))
                log(f"FAIL {what}: exit {rc} (log {logf})")
                failed = 1
                break
    finally:
        for p, f, _ in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            f.close()
    if failed:
        sys.exit(failed)
    CPU[what] = cpu_children() - c0
    return time.time() - t0


def module_weights(stat_txt):
    """{module: weight} from `stat -width`: the bits of each word-level cell summed (a
    product counts A x B bits), a proxy for the module's gates after techmap."""
    w, mod = {}, None
    for line in open(stat_txt):
        m = re.match(r'^=== (.*) ===$', line.strip())
        if m:
            mod = m.group(1)
            w[mod] = 0
            continue
        m = re.match(r'^\s+(\$\w+?)_(\d+)(?:_(\d+))?\s+(\d+)$', line)
        if mod and m:
            a_bits = int(m.group(2))
            b_bits = int(m.group(3) or 1)
            mult = a_bits * b_bits if m.group(1) in ('$mul', '$macc') else a_bits
            w[mod] += mult * int(m.group(4))
    w.pop('design hierarchy', None)
    return w


def yosys_pattern(name):
    """A select pattern for exactly this module name: every character a Yosys selection
    might read (backslash, =, ', $) as `?` (the length pins it to this module)."""
    return ''.join(c if c.isalnum() or c == '_' else '?' for c in name)


def back_parallel(a, back, macro_files, inc):
    """--hier --jobs N: the back end script `back` in three steps. (1) coarse synthesis of
    the hierarchy, as in one process; (2) N processes at once, each with the derived
    modules of the other groups (and the RAM macros) as black boxes, through fine
    synthesis, dfflibmap and ABC, keeping only its own mapped modules; (3) the groups read
    back together with the macros and the rest of `back` (statistics, flatten, checks,
    netlist). The passes of (2) are those of one process, run module by module; ABC may
    still map a module a few cells differently (the toy: 893 cells against 892), so the
    netlist is checked like any other (flip-flops, make gls). Returns the wall time."""
    i_fine = next(i for i, c in enumerate(back) if '-run fine:check' in c)
    i_join = next(i for i, c in enumerate(back) if 'cells_hier.stat' in c)
    coarse_il = os.path.join(a.out, 'coarse_hier.il')
    widths = os.path.join(a.out, 'coarse_width.stat')
    step1 = back[:i_fine] + [f"tee -q -o {widths} stat -width", f"write_rtlil {coarse_il}"]
    ys = os.path.join(a.out, 'back.ys')
    with open(ys, 'w') as f:
        f.write('\n'.join(step1) + '\n')
    dt = run([a.yosys, '-q', '-l', os.path.join(a.out, 'back.log'), '-s', ys],
             os.path.join(a.out, 'back.out'), a.timeout, 'yosys back end (coarse)')
    weights = module_weights(widths)
    groups = [[] for _ in range(a.jobs)]
    load = [0] * a.jobs
    for m in sorted(weights, key=lambda m: (-weights[m], m)):  # largest first, to the lightest
        g = load.index(min(load))
        groups[g].append(m)
        load[g] += weights[m] + 1
    jobs, parts = [], []
    for g, mods in enumerate(groups):
        if not mods:
            continue
        others = [yosys_pattern(m) for h in groups if h is not mods for m in h]
        part = os.path.join(a.out, f'part{g}.il')
        script = [f"read_rtlil {coarse_il}"]
        if others:
            script.append(f"blackbox {' '.join(others)}")
        script += back[i_fine:i_join] + ["delete =A:blackbox", f"write_rtlil {part}"]
        gys = os.path.join(a.out, f'back{g}.ys')
        with open(gys, 'w') as f:
            f.write('\n'.join(script) + '\n')
        jobs.append(([a.yosys, '-q', '-l', os.path.join(a.out, f'back{g}.log'), '-s', gys],
                     os.path.join(a.out, f'back{g}.out')))
        parts.append(part)
        log(f"back end group {g}: {len(mods)} modules, weight {load[g]}")
    dt += run_all(jobs, a.timeout, 'yosys back end (fine, dfflibmap, abc; groups)')
    join = [f"read_rtlil {p}" for p in parts]
    if macro_files:
        join.append(f"read_verilog -sv -lib {inc} {' '.join(macro_files)}")
    join += [f"hierarchy -top {a.top}"] + back[i_join:]
    jys = os.path.join(a.out, 'back_join.ys')
    with open(jys, 'w') as f:
        f.write('\n'.join(join) + '\n')
    dt += run([a.yosys, '-q', '-l', os.path.join(a.out, 'back_join.log'), '-s', jys],
              os.path.join(a.out, 'back_join.out'), a.timeout, 'yosys back end (join)')
    return dt


def module_of(path):
    with open(path) as f:
        m = re.search(r'^\s*(module|package)\s+(\w+)', f.read(), re.M)
    return m.group(2) if m else None


def unsized_macro_ports(paths, macros):
    """file:line: text of every RAM wrapper instance port connected to '1, 'x or 'z.

    Yosys 0.23 sizes such a literal as one bit and zero-extends it to the width of a black
    box's port, so `.wmask_i('1)` synthesizes as ...0001 (SystemVerilog fills every bit).
    '0 is the same either way and allowed."""
    found = []
    inst = re.compile(r'\b(' + '|'.join(map(re.escape, macros)) + r')\b\s*(#\s*\(|\w+\s*\()')
    fill = re.compile(r"\.\s*(\w+)\s*\(\s*'[1xXzZ]\s*\)")
    for path in paths:
        with open(path) as f:
            text = f.read()
        for m in inst.finditer(text):
            end = text.find(');', m.end())
            body = text[m.start():end if end >= 0 else len(text)]
            for p in fill.finditer(body):
                line = text.count('\n', 0, m.start() + p.start()) + 1
                found.append(f"{path}:{line}: {m.group(1)} port {p.group(1)} connected to "
                             f"'{p.group(0).split(chr(39))[1][0]}: write an explicit width, "
                             f"e.g. {{Width{{1'b1}}}}")
    return found


def ys_quote(s):
    return s.replace('\\', '\\\\')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--block', required=True)
    ap.add_argument('--top', required=True)
    ap.add_argument('--filelist')
    ap.add_argument('--files', nargs='*', default=[])
    ap.add_argument('--param', action='append', default=[])
    ap.add_argument('--liberty', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--level', choices=('gates', 'coarse'), default='gates')
    ap.add_argument('--macros', default='xtm_ram_1r1w,xtm_ram_2p,xtm_ram_2r1w')
    ap.add_argument('--macro-dir', default='rtl/common')
    ap.add_argument('--incdir', action='append', default=['rtl/common'])
    ap.add_argument('--timeout', type=int, default=900)
    ap.add_argument('--abc-delay-ps', type=int, default=0)
    ap.add_argument('--abc-drive', default='BUFX4',
                    help='cell that drives the inputs in ABC\'s buffering model')
    ap.add_argument('--fo4-cell', default='INVX1')
    ap.add_argument('--no-abc-buffer', action='store_true',
                    help='map without ABC\'s buffering and sizing (no -constr)')
    ap.add_argument('--abc-fast', action='store_true',
                    help="ABC's fast script for the library mapping (abc -fast: no fraiging or "
                         "choice computation; buffering and sizing kept)")
    ap.add_argument('--ram-tcq-ns', type=float, default=macro_lib.DEFAULT_TCQ_NS)
    ap.add_argument('--ram-tsu-ns', type=float, default=macro_lib.DEFAULT_TSU_NS)
    ap.add_argument('--share', action='store_true',
                    help="run Yosys' SAT-based SHARE pass (off: it did not finish in 10 minutes "
                         "on today's RTL)")
    ap.add_argument('--hier', action='store_true',
                    help="map module by module (coarse, fine, dfflibmap and abc on the design "
                         "before flatten; every derived module once), then flatten the mapped "
                         "netlist; the flip-flop check still runs on the flattened front end")
    ap.add_argument('--jobs', type=int, default=1,
                    help="with --hier: map the derived modules in this many Yosys processes at "
                         "once (groups balanced by the word-level cells' bit widths), then "
                         "join the mapped modules and flatten")
    ap.add_argument('--skip-ffcheck', action='store_true',
                    help='report a flip-flop mismatch but go on (negative tests only)')
    ap.add_argument('--allow-unsized-fill', action='store_true',
                    help="report an unbased unsized fill on a RAM macro port but go on "
                         "(negative tests only)")
    ap.add_argument('--yosys', default='yosys')
    ap.add_argument('--verilator', default='verilator')
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    t_start = time.time()
    files = []
    if a.filelist:
        with open(a.filelist) as f:
            files += [ln.strip() for ln in f if ln.strip() and not ln.startswith(('#', '//'))]
    files += a.files
    macros = [m for m in a.macros.split(',') if m]
    macro_files = [os.path.join(a.macro_dir, m + '.sv') for m in macros
                   if os.path.exists(os.path.join(a.macro_dir, m + '.sv'))]
    # a RAM wrapper in the block's file list is read as a black box, not as logic
    rtl = [f for f in files if module_of(f) not in macros]
    params = []
    for p in a.param:
        k, v = p.split('=', 1)
        params.append((k, v))
    summary = {'block': a.block, 'top': a.top,
               'config': ' '.join(f"{k}={v}" for k, v in params) or 'defaults',
               'level': a.level}

    # ---- 0. RAM wrapper ports that Yosys 0.23 would size wrongly
    bad = unsized_macro_ports(rtl, macros) if macros else []
    if bad:
        print('\n'.join(bad))
        log(f"FAIL unsized fill literal on a RAM macro port ({len(bad)}): Yosys 0.23 "
            "zero-extends it as 1'b1 (docs/synthesis.md)")
        if not a.allow_unsized_fill:
            return 1

    # ---- 1. declarations (Verilator)
    xml = os.path.join(a.out, 'declared.xml')
    cmd = [a.verilator, '--xml-only', '-DSYNTHESIS', '-Wno-fatal', '-Wno-lint', '-Wno-style',
           '--top-module', a.top, '--xml-output', xml] + [f'-I{d}' for d in a.incdir] + \
          [f'-G{k}={v}' for k, v in params] + rtl + macro_files
    dt = run(cmd, os.path.join(a.out, 'declared.log'), a.timeout, 'verilator --xml-only')
    decl = os.path.join(a.out, 'declared.json')
    ffcheck.declared(xml, set(macros), decl)
    os.remove(xml)
    log(f"declarations elaborated by Verilator in {dt:.0f} s")

    # ---- 2. front end (Yosys): proc, flatten, latch check, flip-flop dump
    inc = ' '.join(f'-I{d}' for d in a.incdir)
    # the top's parameters by `chparam` before `hierarchy`, not `hierarchy -chparam`: Yosys
    # 0.23 reprocesses a module whose instance ports take expressions once the instantiated
    # module is derived, and reprocessing a top derived by -chparam ($paramod..\xtm_top) adds
    # it a second time (assertion in kernel/rtlil.cc:663). chparam keeps the top's name.
    chparam = ' '.join(f'-set {k} {v}' for k, v in params)
    ffil = os.path.join(a.out, 'ff.il')
    ffil_proc = os.path.join(a.out, 'ff_proc.il')
    procil = os.path.join(a.out, 'proc.il')
    prochier = os.path.join(a.out, 'proc_hier.il')
    front = [
        f"read_verilog -defer -sv {inc} {' '.join(rtl)}",
    ]
    if macro_files:
        front.append(f"read_verilog -sv -lib {inc} {' '.join(macro_files)}")
    if params:
        front.append(f"chparam {chparam} {a.top}")
    front += [
        f"hierarchy -check -top {a.top}",
        "proc",
    ]
    if a.hier:
        # the design before flatten, for the module-by-module back end (--hier)
        front.append(f"write_rtlil {prochier}")
    front += [
        "flatten",
        # the flops before opt_clean: proc also makes flops of always_ff temporaries, which
        # opt_clean removes with any flop nobody reads; ffcheck accepts a declaration
        # opt_clean shortened only if it had all its bits here
        "select -set ffs0 t:$*dff* t:$ff",
        f"tee -q -o {ffil_proc} dump @ffs0 @ffs0 %co1",
        "opt_clean",
        "select -set ffs t:$*dff* t:$ff t:$*dlatch* t:$sr",
        f"tee -q -o {ffil} dump @ffs @ffs %co1 m:*",
        "select -assert-none t:$*dlatch* t:$sr",
        f"write_rtlil {procil}",
    ]
    ys = os.path.join(a.out, 'front.ys')
    with open(ys, 'w') as f:
        f.write('\n'.join(front) + '\n')
    dt = run([a.yosys, '-q', '-l', os.path.join(a.out, 'front.log'), '-s', ys],
             os.path.join(a.out, 'front.out'), a.timeout, 'yosys front end (latch or elaboration)')
    # Yosys 0.23 reads some constructs wrongly with only a warning (a part-select of an array
    # element declared [13:8], a member of a struct declared in a generate block): the bits
    # become undef and the netlist is not the RTL. Fail on them.
    misread = []
    for logname in ('front.log', 'front.out'):
        path = os.path.join(a.out, logname)
        if os.path.exists(path):
            with open(path) as f:
                misread += [ln.rstrip() for ln in f
                            if 'out of bounds on signal' in ln or 'is implicitly declared' in ln]
    if misread:
        print('\n'.join(sorted(set(misread))[:20]))
        log(f"FAIL yosys front end: Yosys misread the RTL ({len(misread)} warnings above, "
            f"log {os.path.join(a.out, 'front.log')})")
        sys.exit(1)
    summary['front_s'] = round(dt)
    summary['front_cpu_s'] = round(CPU['yosys front end (latch or elaboration)'])
    log(f"front end (read, hierarchy, proc, flatten; no latches) in {dt:.0f} s "
        f"({summary['front_cpu_s']} s CPU)")

    # ---- 3. flip-flop bits: declarations vs Yosys
    rc = ffcheck.compare(decl, ffil, os.path.join(a.out, 'ffcheck.txt'), ffil_proc)
    with open(decl) as f:
        d = json.load(f)
    summary['ff_declared'] = sum(d['registers'].values())
    summary['ram_macros'] = len(d['rams'])
    summary['ram_bits'] = sum(r['bits'] for r in d['rams'])
    summary['ffcheck'] = 'PASS' if rc == 0 else 'FAIL'
    if rc != 0 and a.skip_ffcheck:
        log("flip-flop bits differ; going on because of --skip-ffcheck (negative test)")
    elif rc != 0:
        log(f"FAIL flip-flop bits: the netlist would not match the RTL (OUT {a.out}/ffcheck.txt)")
        sys.exit(1)

    # ---- 4. back end
    lib = a.liberty
    coarse_v = os.path.join(a.out, 'coarse.v')
    gates_v = os.path.join(a.out, 'gates.v')
    flat = '' if a.hier else '-flatten '
    back = [
        f"read_rtlil {prochier if a.hier else procil}",
        f"synth -top {a.top} {flat}{'' if a.share else '-noshare '}-run coarse:fine",
        f"tee -q -o {os.path.join(a.out, 'coarse.stat')} stat",
        f"write_verilog -noattr {coarse_v}",
    ]
    if a.level == 'gates':
        # ABC's buffering and gate sizing (`buffer; upsize; dnsize` of its -constr script):
        # without them one INVX1 drives every fanout of a net (10 pF on a RAM's address
        # decoder: 17 ns for one gate). Inputs driven by ABC_DRIVE, outputs loaded with an
        # FO4 load (four inputs of the FO4 inverter).
        lcells = macro_lib.library_cells(lib)
        cin = float([p for p in lcells[a.fo4_cell].sub('pin')
                     if p.attrs.get('direction') == 'input'][0].attrs['capacitance'])
        constr = os.path.join(a.out, 'abc.constr')
        with open(constr, 'w') as f:
            f.write(f"set_driving_cell {a.abc_drive}\nset_load {4 * cin:.5f}\n")
        abc = f"abc {'-fast ' if a.abc_fast else ''}-liberty {lib}" + \
            (f" -D {a.abc_delay_ps}" if a.abc_delay_ps else '') + \
            (f" -constr {constr}" if not a.no_abc_buffer else '')
        if a.abc_fast and not a.no_abc_buffer:
            # Yosys' fast script with buffering (strash; dretime; map; buffer; upsize;
            # dnsize) with `topo` before `buffer`: ABC 'buffer' stops with "node N has no
            # fanout" on a mapped network not in topological order (xtm_proftab, --hier);
            # -p also buffers the primary inputs, which are a module's ports with --hier
            dly = f" -D {a.abc_delay_ps}" if a.abc_delay_ps else ''
            script = os.path.join(a.out, 'abc_fast.script')
            with open(script, 'w') as f:
                f.write(f"read_constr -v {os.path.abspath(constr)}\nstrash\ndretime\n"
                        f"map{dly}\ntopo\nbuffer -p\nupsize{dly}\ndnsize{dly}\nstime -p\n")
            abc = f"abc -liberty {lib} -script {os.path.abspath(script)}"
        back += [
            f"synth -top {a.top} {flat}{'' if a.share else '-noshare '}-run fine:check",
            f"dfflibmap -liberty {lib}",
            abc,
            "opt_clean",
        ]
        if a.hier:
            # one flat netlist of library cells and RAM macros, as without --hier
            back += [f"tee -q -o {os.path.join(a.out, 'cells_hier.stat')} stat -liberty {lib}",
                     "flatten", f"hierarchy -top {a.top}", "opt_clean"]
        back += [
            "setundef -zero",
            "select -assert-none t:$*dlatch* t:$sr t:$_DLATCH_* t:$_SR_* t:LATCH",
            "select -assert-none t:$_*",
            f"read_liberty -lib {lib}",  # port directions of the cells, for check
            "check -assert",
            f"tee -q -o {os.path.join(a.out, 'cells.json')} stat -json -liberty {lib}",
            f"tee -q -o {os.path.join(a.out, 'cells.stat')} stat -liberty {lib}",
            f"write_verilog -noattr -noexpr {gates_v}",
        ]
    if a.hier and a.jobs > 1 and a.level == 'gates':
        dt = back_parallel(a, back, macro_files, inc)
    else:
        ys = os.path.join(a.out, 'back.ys')
        with open(ys, 'w') as f:
            f.write('\n'.join(back) + '\n')
        dt = run([a.yosys, '-q', '-l', os.path.join(a.out, 'back.log'), '-s', ys],
                 os.path.join(a.out, 'back.out'), a.timeout,
                 'yosys back end (coarse' + (', fine, dfflibmap, abc)' if a.level == 'gates' else ')'))
    summary['back_s'] = round(dt)
    summary['back_cpu_s'] = round(sum(v for k, v in CPU.items() if k.startswith('yosys back')))
    log(f"back end ({a.level}) in {dt:.0f} s ({summary['back_cpu_s']} s CPU)")

    if a.level == 'gates':
        with open(os.path.join(a.out, 'cells.json')) as f:
            st = json.load(f)
        mod = st['modules'].get('\\' + a.top) or st['modules'][a.top]
        cells = mod['num_cells_by_type']
        lib_cells = macro_lib.library_cells(lib)
        seq = {n for n, c in lib_cells.items() if c.sub('ff') or c.sub('latch')}
        ffs = sum(n for t, n in cells.items() if t in seq)
        latches = sum(n for t, n in cells.items() if t in lib_cells and lib_cells[t].sub('latch'))
        unknown = [t for t in cells if t not in lib_cells and t not in macros]
        if latches or unknown:
            log(f"FAIL mapped netlist: {latches} latch cells, cells not in the library: {unknown}")
            sys.exit(1)
        # RAM macros: STA netlist and timing models
        rams = macro_lib.make_sta_netlist(gates_v, os.path.join(a.out, 'gates_sta.v'), d['rams'],
                                          macros)
        macro_lib.write_liberty(os.path.join(a.out, 'macros.lib'), rams, lib,
                                a.ram_tcq_ns, a.ram_tsu_ns)
        summary.update({
            'cells': sum(n for t, n in cells.items()),
            'area_um2': round(sum(float(lib_cells[t].attrs.get('area', 0)) * n
                                  for t, n in cells.items() if t in lib_cells), 1),
            'flip_flops': ffs,
            'latches': 0,
        })
        rep = [f"block: {a.block} ({a.top}), configuration {summary['config']}",
               f"library: {lib}", '',
               f"{'cell':<28}{'count':>10}{'area um2':>14}"]
        for t in sorted(cells, key=lambda x: -cells[x]):
            area = float(lib_cells[t].attrs.get('area', 0)) * cells[t] if t in lib_cells else 0
            rep.append(f"{t:<28}{cells[t]:>10}{area:>14.1f}")
        rep.append(f"{'total':<28}{summary['cells']:>10}{summary['area_um2']:>14.1f}")
        rep.append('')
        rep.append(f"flip-flops (cells with an ff group): {ffs}; latches: 0")
        rep.append(f"RAM macros (black boxes, area not included): {len(d['rams'])}, "
                   f"{summary['ram_bits']} bits")
        for r in d['rams']:
            rep.append(f"  {r['path']}: {r['module']} {r['width']} x {r['depth']} = {r['bits']} bits")
        if not d['rams']:
            rep.append("  none: every array of the block is flip-flops")
        with open(os.path.join(a.out, 'report.txt'), 'w') as f:
            f.write('\n'.join(rep) + '\n')
    summary['total_s'] = round(time.time() - t_start)
    summary['total_cpu_s'] = round(cpu_children())
    summary['load_avg'] = ' '.join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"{k}: {v}" for k, v in summary.items()]
    with open(os.path.join(a.out, 'summary.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    for ln in lines:
        print(ln)
    if a.level == 'gates':
        log(f"report {a.out}/report.txt, netlist {gates_v}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
