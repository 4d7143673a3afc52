#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The saved waveform view must match the RTL (docs/cosim.md, "Waves"): `make sim ... WAVES=1`
# writes an FST, and every signal of sim/waves/xtm.gtkw must be in it (tools/gtkw-check),
# since GTKWave silently leaves out a signal it does not find.
#   tb/test_waves.sh     the make test suite: the view against a default-configuration FST
#                        (the configuration it is written for), against a small one (signals
#                        of VOQs, PGs or ports the small configuration does not have are
#                        allowed to be absent), against a large one (the same, for the
#                        widths of per-port and per-VOQ vectors), and the negative checks:
#                        a view with a bogus signal, a bogus array element, a renamed scope
#                        or a stale alias must fail
# Prints PASS/FAIL lines for tools/run-tests.
set -u
VIEW=${VIEW:-sim/waves/xtm.gtkw}
OUT=${OUT:-sim/out/ci-waves}
CHECK=tools/gtkw-check
mkdir -p "$OUT"

# waves CFG TEST: a short run through the make target itself; prints the FST path
waves() {
  local dir=$OUT/$1-$2
  rm -rf "$dir"
  if make -s --no-print-directory sim CFG="$1" TEST="$2" SEED=1 CYCLES=400 WAVES=1 \
      PLUSARGS="+out=$dir" >"$dir.log" 2>&1 && [ -s "$dir/waves.fst" ]; then
    echo "$dir/waves.fst"
  fi
}

fst=$(waves default incast)
if [ -z "$fst" ]; then
  echo "FAIL waves-default (make sim CFG=default TEST=incast WAVES=1 wrote no FST: $OUT/default-incast.log)"
  exit 0
fi
if python3 "$CHECK" "$VIEW" "$fst" >"$OUT/check-default.txt" 2>&1; then
  echo "PASS waves-view-default ($(tail -1 "$OUT/check-default.txt" | sed 's/^gtkw-check: //'))"
else
  echo "FAIL waves-view-default"; cat "$OUT/check-default.txt"
fi

# one clock = 1 ns (docs/cosim.md, "Waves"): the time axis in ns is the physical cycle
if tools/wave-time-check "$fst" clk_i >"$OUT/time-default.txt" 2>&1; then
  echo "PASS waves-time-1ns ($(sed 's/^ok: //' "$OUT/time-default.txt"))"
else
  echo "FAIL waves-time-1ns"; cat "$OUT/time-default.txt"
fi

fsts=$(waves small smoke)
if [ -z "$fsts" ]; then
  echo "FAIL waves-small (make sim CFG=small TEST=smoke WAVES=1 wrote no FST: $OUT/small-smoke.log)"
elif python3 "$CHECK" "$VIEW" "$fsts" --allow-smaller >"$OUT/check-small.txt" 2>&1; then
  echo "PASS waves-view-small ($(tail -1 "$OUT/check-small.txt" | sed 's/^gtkw-check: //'))"
else
  echo "FAIL waves-view-small"; cat "$OUT/check-small.txt"
fi

# CFG=large (32 ports, 256 VOQs): the hierarchy is the same; vectors sized by the
# configuration (per-port and per-VOQ bit vectors) have other widths than in the view, so
# they are absent in this configuration as in small; every other signal must be there
fstl=$(waves large incast)
if [ -z "$fstl" ]; then
  echo "FAIL waves-large (make sim CFG=large TEST=incast WAVES=1 wrote no FST: $OUT/large-incast.log)"
elif python3 "$CHECK" "$VIEW" "$fstl" --allow-smaller >"$OUT/check-large.txt" 2>&1; then
  echo "PASS waves-view-large ($(tail -1 "$OUT/check-large.txt" | sed 's/^gtkw-check: //'))"
else
  echo "FAIL waves-view-large"; cat "$OUT/check-large.txt"
fi

# negative checks: each corrupted view must be rejected
neg() {  # NAME SED-EXPRESSION [OPTION]
  local v=$OUT/neg-$1.gtkw
  sed -e "$2" "$VIEW" >"$v"
  if cmp -s "$v" "$VIEW"; then
    echo "FAIL waves-neg-$1 (the corruption did not apply)"
  elif python3 "$CHECK" "$v" "$fst" ${3:-} >"$OUT/neg-$1.txt" 2>&1; then
    echo "FAIL waves-neg-$1 (gtkw-check accepted a view with a signal the FST lacks)"
  elif grep -q 'missing in' "$OUT/neg-$1.txt"; then
    echo "PASS waves-neg-$1 ($(grep -m1 'missing in' "$OUT/neg-$1.txt" | sed 's/.*: //'))"
  else
    echo "FAIL waves-neg-$1 (gtkw-check failed without naming the signal)"; cat "$OUT/neg-$1.txt"
  fi
}
# a signal that does not exist, added to the first group
neg bogus-signal '0,/^-APB$/s//-APB\n@28\ndut.xtm_top.u_core.u_qmgr.no_such_signal_q/'
# an element beyond the default configuration's 64 VOQs (checked without --allow-smaller:
# default is the configuration the view is written for)
neg bogus-index 's/occ_q\[35\]/occ_q[99]/'
# a block renamed in the RTL (the view still names the old instance)
neg renamed-scope 's/u_core\.u_pfc_tx\./u_core.u_pfc_gen./' --allow-smaller
# an alias whose signal is gone
neg bogus-alias 's/+{free descriptors} dut.xtm_top.u_core.u_bufmgr.free_q/+{free descriptors} dut.xtm_top.u_core.u_bufmgr.nfree_q/'
