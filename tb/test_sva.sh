#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make sva-dcqcn (part of make mutate): negative test of the dcqcn assertions
# (rtl/dcqcn/dcqcn_sva.sv). Injects a fault into a copy of the RTL, builds the co-simulation
# (as tools/mutate-dcqcn does), runs one directed test past the first co-sim mismatch and
# expects the named assertion to fire: proof that the checker is bound and can fail.
# Prints PASS/FAIL per fault and exits non-zero on any FAIL.
#   tb/test_dcqcn_sva.sh [NAME...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
core=rtl/dcqcn/dcqcn_core.sv
pkg=rtl/dcqcn/dcqcn_pkg.sv

want=("$@")
fail=0
cd "$top" || exit 2
make -s build/lib/libdcqcn.a >/dev/null || exit 2

# fault NAME FILE TEST ASSERTION SED: inject SED into FILE, run TEST, expect ASSERTION
fault() {
  local name=$1 file=$2 test=$3 assertion=$4 expr=$5 out
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then
    return
  fi
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  tar cf - --exclude=./build --exclude=./.git --exclude=./sim/build --exclude=./sim/out . |
    (cd "$work/tree" && tar xf -)
  mkdir -p "$work/tree/build/lib" && cp build/lib/libdcqcn.a "$work/tree/build/lib/"
  touch "$work/tree/build/.deps-ok"
  sed -i "$expr" "$work/tree/$file"
  if cmp -s "$file" "$work/tree/$file"; then
    echo "FAIL sva-$name: the fault did not apply to $file (stale pattern)"; fail=1; return
  fi
  if ! make -s -C "$work/tree" -o build/lib/libdcqcn.a DCQCN_COPT=-O1 sim/build/dcqcn/Vdcqcn_top \
      >"$work/build.log" 2>&1; then
    echo "FAIL sva-$name: does not build"; tail -5 "$work/build.log"; fail=1; return
  fi
  out=$(cd "$work/tree" && SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
        sim/build/dcqcn/Vdcqcn_top +test="$test" +seed=1 +max_errors=1000000 2>&1)
  if grep -q "ASSERT FAILED.*$assertion" <<<"$out" &&
     grep -q "FAILURE: RTL assertion failed" <<<"$out"; then
    echo "PASS sva-$name: $(grep -m1 "ASSERT FAILED" <<<"$out")"
  else
    echo "FAIL sva-$name: $assertion did not fire in $test.1"
    grep -m3 "ASSERT FAILED\|FAILURE" <<<"$out"
    fail=1
  fi
}

# a cut that skips the clamp: Rc falls below RPG_MIN_RATE (30000 in min_max_rate)
fault cut-unclamped "$pkg" min_max_rate RcWrittenInLimits_A \
  "s/cut_rc = clamp_rate(lo, hi, 21'(30'(rc) - dec));/cut_rc = 20'(30'(rc) - dec);/"
# an alpha timer that fires but never advances: its deadline falls behind the scan
fault alpha-timer-stuck "$core" smoke NoTimerLate_A \
  "s/s.due_alpha = s.due_alpha + p_alpha;/s.due_alpha = s.due_alpha;/"
exit $fail
