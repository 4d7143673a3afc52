#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative tests of the SystemVerilog testbench (tb/sv/): every check must be able to fail.
#   - RTL mutants (taken by name from tools/mutate-rtl, applied to a copy of the tree, built
#     -O1 in the configuration $SV_NEG_CFG, default small): `incast` must catch shaper (the
#     port shaper forgets the inter-frame gap) and the end-of-test register audit of `smoke`
#     must catch counter (Q_DEQ_PKTS counting by 2)
#   - a corrupted reference (+fault: one pool cell leaked in the C model): the state-register
#     predictions and the outputs must disagree with the RTL
#   - a wrong output latency (+latency=1 on today's latency-0 RTL), and the delay line and
#     APB wait states working (+dut_delay=5 +latency=5 +apb_wait=3 passes, +latency=4 fails)
# Prints PASS/FAIL lines (tools/run-tests --shell); each FAIL says what survived.
#   tb/sv/test_sv_negative.sh [--no-mutants]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
cfg=${SV_NEG_CFG:-small}
sv=sim/build/sv-$cfg/Vxtm_sv_tb

expect_fail() {  # name, command...: the run must end with TEST FAILED CHECKS and a FAILURE
  local name=$1
  shift
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && grep -q "^TEST FAILED CHECKS" <<<"$out" && grep -q "^FAILURE" <<<"$out"; then
    echo "PASS $name: caught: $(grep -m1 '^FAILURE' <<<"$out")"
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
expect_fail sv-fault-leak-pool-cell $sv +test=incast +seed=1 +cycles=20000 +fault=0@5000 +out=$o/fault
expect_fail sv-wrong-latency $sv +test=incast +seed=1 +cycles=20000 +latency=1 +out=$o/lat1
expect_pass sv-delay-line-and-apb-wait $sv +test=random +seed=2 +cycles=30000 +dut_delay=5 +latency=5 \
  +apb_wait=3 +out=$o/delay5
expect_fail sv-delay-line-off-by-one $sv +test=random +seed=2 +cycles=30000 +dut_delay=5 +latency=4 \
  +out=$o/delay5-4
[ "${1:-}" = "--no-mutants" ] && exit 0

# RTL mutants: the definitions of tools/mutate-rtl (name|file|sed expression)
core=rtl/xtm/xtm_core.sv
pkg=rtl/xtm/xtm_pkg.sv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -s build/lib/libxtm.a build/lib/libxtm_dpi.a build/obj/tb/sv/xtm_sv_util.o >/dev/null || exit 2
for spec in "shaper incast 1 100000" "counter smoke 1 20000"; do
  read -r name test seed cycles <<<"$spec"
  line=$(grep -F "\"$name|" tools/mutate-rtl | head -1 | sed 's/^[[:space:]]*//')
  if [ -z "$line" ]; then
    echo "FAIL sv-mutant-$name: no mutant '$name' in tools/mutate-rtl"
    continue
  fi
  eval "def=$line"
  IFS='|' read -r _ file expr <<<"$def"
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
  expect_fail "sv-mutant-$name-$cfg-$test.$seed" "$work/tree/$sv" +test="$test" +seed="$seed" \
    +cycles="$cycles" +out="$work/out"
done
