#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/wave-time-check on small hand-made VCDs: 1 ns per cycle passes; the old 2 ps per
# cycle, a 1 ns timescale, an uneven clock and a missing clock fail. And both saved views
# open at the zoom their comment states (a `*-7` line). PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-wave-time
rm -rf "$tmp" && mkdir -p "$tmp"
vcd() {  # FILE TIMESCALE STEP [CLOCKNAME]: 8 clock edges STEP apart
  { echo "\$timescale $2 \$end"; echo "\$scope module TOP \$end"
    echo "\$var wire 1 ! ${4:-clk_i} \$end"; echo "\$upscope \$end"; echo "\$enddefinitions \$end"
    for i in 0 1 2 3 4 5 6 7; do echo "#$((i * $3))"; echo "$((i % 2))!"; done; } >"$1"
}
expect() {  # NAME want(0|1) FILE
  if tools/wave-time-check "$3" clk_i >"$tmp/$1.out" 2>&1; then rc=0; else rc=1; fi
  if [ $rc = "$2" ]; then echo "PASS wave-time-$1"; else echo "FAIL wave-time-$1 (exit $rc)"; cat "$tmp/$1.out"; fi
}
vcd "$tmp/ok.vcd" 1ps 500;        expect one-ns 0 "$tmp/ok.vcd"
vcd "$tmp/old.vcd" 1ps 1;         expect two-ps-per-cycle 1 "$tmp/old.vcd"
vcd "$tmp/ns.vcd" 1ns 500;        expect ns-timescale 1 "$tmp/ns.vcd"
vcd "$tmp/noclk.vcd" 1ps 500 clk; expect no-clock 1 "$tmp/noclk.vcd"
sed 's/^#1500$/#1400/' "$tmp/ok.vcd" >"$tmp/uneven.vcd"; expect uneven 1 "$tmp/uneven.vcd"
for v in sim/waves/xtm.gtkw sim/waves/dcqcn.gtkw; do
  if grep -q '^\*-7\.000000 ' "$v"; then echo "PASS wave-zoom $(basename "$v")"
  else echo "FAIL wave-zoom $(basename "$v") (no *-7 zoom line)"; fi
done
