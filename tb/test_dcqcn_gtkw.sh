#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The saved GTKWave view sim/waves/dcqcn.gtkw against a real FST of the co-simulation: runs
# the 64-QP build with +trace for a few hundred cycles, lists the FST's signals (fst2vcd
# header: scopes and vars) and checks that every signal the view names exists with that
# exact name and bit range, so a renamed or moved RTL signal cannot leave the view with
# silent holes. Also checks that the view names at least one signal of every group. The
# check itself is tested: a name that is not in the FST must be reported.
# Prints PASS/FAIL lines for tools/run-tests.
#   tb/test_dcqcn_gtkw.sh [path/to/Vdcqcn_top] [view.gtkw]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=$(realpath "${1:-$top/sim/build/dcqcn/Vdcqcn_top}")
view=$(realpath "${2:-$top/sim/waves/dcqcn.gtkw}")
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# the run's verdict does not matter here (300 cycles end before smoke's scenario): its FST does
"$B" +test=smoke +seed=1 +cycles=300 +trace +out=w >run.log 2>&1
if [ ! -s w/waves.fst ]; then
  echo "FAIL dcqcn-gtkw fst-written"; tail -5 run.log; exit 0
fi
echo "PASS dcqcn-gtkw fst-written"
fst2vcd -f w/waves.fst 2>/dev/null | sed -n '/\$enddefinitions/q;p' >hdr.vcd
# one clock = 1 ns: the time axis in ns is the cycle the mismatch report prints
if "$top/tools/wave-time-check" w/waves.fst clk_i >time.txt 2>&1; then
  echo "PASS dcqcn-gtkw time-1ns ($(sed 's/^ok: //' time.txt))"
else
  echo "FAIL dcqcn-gtkw time-1ns"; cat time.txt
fi

# check VIEW: prints one line per signal of VIEW missing from hdr.vcd, and per empty group
check() {
  python3 - hdr.vcd "$1" <<'EOF'
import re, sys
hdr, view = sys.argv[1], sys.argv[2]
have, scope = set(), []
for line in open(hdr):
    t = line.split()
    if not t:
        continue
    if t[0] == "$scope":
        scope.append(t[2])
    elif t[0] == "$upscope":
        scope.pop()
    elif t[0] == "$var":
        # $var wire 16 ! name [15:0] $end  ->  scope.name[15:0] (as GTKWave names it)
        name = t[4] + (t[5] if len(t) > 6 and t[5].startswith("[") else "")
        have.add(".".join(scope + [name]))
group, count, bad = None, {}, 0
for line in open(view):
    s = line.strip()
    if not s or s[0] in "[*@":
        continue
    if s[0] == "-":
        if group is None:
            group = s[1:]
            count[group] = 0
        else:
            group = None
        continue
    if s not in have:
        print(f"missing: {s}")
        bad += 1
    elif group is not None:
        count[group] += 1
for g, n in count.items():
    if n == 0:
        print(f"empty group: {g}")
        bad += 1
if not count:
    print("no groups")
EOF
}
out=$(check "$view")
n=$(grep -cv '^\s*\([[*@-]\|$\)' "$view")
if [ -z "$out" ]; then
  echo "PASS dcqcn-gtkw view-signals-exist ($n signals of $(basename "$view"))"
else
  echo "FAIL dcqcn-gtkw view-signals-exist"; echo "$out" | head -20
fi
# negative test of the check: a signal that is not in the RTL must be reported
sed 's/dut\.dcqcn_top\.u_scan\.t2_q\[63:0\]/dut.dcqcn_top.u_scan.t2_gone[63:0]/' "$view" >bad.gtkw
if cmp -s "$view" bad.gtkw; then
  echo "FAIL dcqcn-gtkw check-can-fail (the view has no u_scan.t2_q to rename)"
elif check bad.gtkw >bad.out; grep -q 'missing: dut.dcqcn_top.u_scan.t2_gone\[63:0\]' bad.out; then
  echo "PASS dcqcn-gtkw check-can-fail"
else
  echo "FAIL dcqcn-gtkw check-can-fail"
fi
