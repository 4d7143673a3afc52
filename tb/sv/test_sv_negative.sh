#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative tests of the SystemVerilog testbench (tb/sv/): every check must be able to fail,
# and each must fail through the check it is about (the FAILURE line is matched).
#   - RTL mutants (defined below on the RTL 2.0 blocks, applied to a copy of the tree, built
#     -O1 in the configuration $SV_NEG_CFG, default small): the per-cycle output comparison
#     of `incast` must catch shaper (the port shaper of xtm_shaper.sv forgets the inter-frame
#     gap), the end-of-test register audit of `smoke` must catch counter (Q_DEQ_PKTS of
#     xtm_stats_voq.sv counting by 2)
#   - a corrupted reference (+fault: one pool cell leaked in the C model): caught by the
#     register audit of incast (POOL_USED), and with no register audit (smoke +audit=0) by
#     the scoreboard's invariant check alone; a +fault that cannot be applied fails the run
#   - a wrong output latency (+latency=5 and 7 against spec 15.1's 6); the delay line at
#     another latency (+dut_delay=6 +latency=12 passes, +latency=11 fails); the APB timeout
#     at spec 10.1's 6 wait states (+apb_timeout=6 passes, 5 fails); the removed stand-in
#     +apb_wait is refused
# The DPI layer's own checks have their negative tests in tb/sv/test_dpi_mutants.sh.
# Prints PASS/FAIL lines (tools/run-tests --shell); each FAIL says what survived.
#   tb/sv/test_sv_negative.sh [--no-mutants]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
cfg=${SV_NEG_CFG:-small}
sv=sim/build/sv-$cfg/Vxtm_sv_tb

expect_fail() {  # name, pattern of the FAILURE line, command...: the run must end with TEST
  local name=$1 pat=$2  # FAILED CHECKS and its first FAILURE line must match the pattern
  shift 2
  local out rc first
  out=$("$@" 2>&1)
  rc=$?
  first=$(grep -m1 '^FAILURE' <<<"$out")
  if [ $rc -ne 0 ] && grep -q "^TEST FAILED CHECKS" <<<"$out" && grep -qE "$pat" <<<"$first"; then
    echo "PASS $name: caught: $first"
  elif [ $rc -ne 0 ] && [ -n "$first" ]; then
    echo "FAIL $name: failed, but not through /$pat/: $first"
  else
    echo "FAIL $name: not caught (exit $rc): $(grep -E '^(mismatches|TEST)' <<<"$out" | tr '\n' ' ')"
  fi
}
expect_pass() {
  local name=$1
  shift
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^TEST PASSED CHECKS" <<<"$out"; then
    echo "PASS $name: $(grep -E '^(mismatches|csr_transfers)' <<<"$out" | tr '\n' ' ')"
  else
    echo "FAIL $name (exit $rc): $(grep -m1 '^FAILURE' <<<"$out")"
  fi
}

if [ ! -x $sv ]; then
  echo "FAIL sv-negative: $sv not built (make $sv)"
  exit 0
fi
o=sim/out/ci-sv-negative
expect_fail sv-fault-leak-pool-cell 'mismatch' $sv +test=incast +seed=1 +cycles=20000 +fault=0@5000 +out=$o/fault
expect_fail sv-invariant-check 'C model: invariant broken' $sv +test=smoke +seed=1 +cycles=20000 +fault=0@5000 \
  +audit=0 +out=$o/invariant
expect_fail sv-wrong-latency-5 'co-sim mismatch' $sv +test=incast +seed=1 +cycles=20000 +latency=5 +out=$o/lat5
expect_fail sv-wrong-latency-7 'co-sim mismatch' $sv +test=incast +seed=1 +cycles=20000 +latency=7 +out=$o/lat7
expect_pass sv-delay-line $sv +test=random +seed=2 +cycles=30000 +dut_delay=6 +latency=12 +out=$o/delay6
expect_fail sv-delay-line-off-by-one 'co-sim mismatch' $sv +test=random +seed=2 +cycles=30000 +dut_delay=6 \
  +latency=11 +out=$o/delay6-11
expect_fail sv-fault-not-applied 'fault 99 not injected' $sv +test=smoke +seed=1 +cycles=2000 +fault=99@100 \
  +out=$o/fault99
expect_fail sv-bad-plusarg '[+]fault=<n>@<cycle> expected' $sv +test=smoke +seed=1 +cycles=2000 +fault=3 +out=$o/fault-arg
expect_fail sv-removed-plusarg '[+]apb_wait was the stand-in' $sv +test=smoke +seed=1 +cycles=2000 +apb_wait=6 \
  +out=$o/apb-wait
expect_pass sv-apb-timeout-6 $sv +test=smoke +seed=1 +cycles=5000 +apb_timeout=6 +out=$o/apb-timeout6
expect_fail sv-apb-timeout-5 'APB: no pready for 5 cycles' $sv +test=smoke +seed=1 +cycles=5000 +apb_timeout=5 \
  +out=$o/apb-timeout5
[ "${1:-}" = "--no-mutants" ] && exit 0

# RTL mutants: name|file|sed expression|test seed cycles FAILURE pattern. (tools/mutate-rtl,
# whose definitions this script used to take by name, still has RTL 1.x's xtm_core.sv
# patterns; these are written against the RTL 2.0 blocks.)
mutants=(
  "shaper|rtl/xtm/xtm_shaper.sv|s/amount = 24'(sel_len_i) + 24'(pcfg_q\[sp\]);/amount = 24'(sel_len_i);/|incast 1 100000 co-sim.mismatch"
  "counter|rtl/xtm/xtm_stats_voq.sv|s/d_new\[0+:64\] = d_row\[0+:64\] + 64'd1;/d_new[0+:64] = d_row[0+:64] + 64'd2;/|smoke 1 20000 csr.rdata|state.counter"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -s build/lib/libxtm.a build/lib/libxtm_dpi.a build/obj/tb/sv/xtm_sv_util.o >/dev/null || exit 2
for def in "${mutants[@]}"; do
  IFS='|' read -r name file expr run <<<"$def"
  read -r test seed cycles pat <<<"$run"
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  tar cf - --exclude=./build --exclude=./.git --exclude=./sim/build --exclude=./sim/out . |
    (cd "$work/tree" && tar xf -)
  mkdir -p "$work/tree/build/lib" "$work/tree/build/obj/tb/sv"
  cp build/lib/libxtm.a build/lib/libxtm_dpi.a "$work/tree/build/lib/"
  cp build/obj/tb/sv/xtm_sv_util.o "$work/tree/build/obj/tb/sv/"
  touch "$work/tree/build/.deps-ok"
  sed -i "$expr" "$work/tree/$file"
  if cmp -s "$file" "$work/tree/$file"; then
    echo "FAIL sv-mutant-$name: the mutation did not apply to $file (stale pattern)"
    continue
  fi
  # the prerequisites exist and are newer: make rebuilds only the testbench
  if ! make -s -C "$work/tree" -o build/lib/libxtm.a -o build/lib/libxtm_dpi.a -o build/obj/tb/sv/xtm_sv_util.o \
      SV_COPT=-O1 $sv >"$work/build.log" 2>&1; then
    echo "FAIL sv-mutant-$name: the mutant does not build"
    tail -5 "$work/build.log"
    continue
  fi
  expect_fail "sv-mutant-$name-$cfg-$test.$seed" "$pat" "$work/tree/$sv" +test="$test" +seed="$seed" \
    +cycles="$cycles" +out="$work/out"
done
