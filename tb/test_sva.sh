#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make sva / make sva-dcqcn (part of make mutate): negative tests of the bound assertions
# (rtl/xtm/xtm_sva.sv, rtl/dcqcn/dcqcn_sva.sv). Injects a fault into a copy of the RTL,
# builds the co-simulation (as tools/mutate-rtl and tools/mutate-dcqcn do), runs one
# directed test past the co-sim mismatches and expects the named assertion to fire: proof
# that the checker is bound and can fail. Prints PASS/FAIL per fault and exits non-zero on
# any FAIL.
#   tb/test_sva.sh xtm|dcqcn [NAME...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
block=${1:-}
shift || true
case $block in
  xtm) target=sim/build/small/Vxtm_top; opt=VL_OPT=-O0
       libs="build/lib/libxtm.a build/lib/libxtmfw.a build/lib/libdcqcn.a" ;;
  dcqcn) target=sim/build/dcqcn/Vdcqcn_top; opt=DCQCN_COPT=-O1
         libs="build/lib/libdcqcn.a build/lib/libxtmnum.a" ;;
  *) echo "usage: tb/test_sva.sh xtm|dcqcn [NAME...]"; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

want=("$@")
fail=0
cd "$top" || exit 2
# shellcheck disable=SC2086
make -s $libs >/dev/null || exit 2

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
  mkdir -p "$work/tree/build/lib"
  # shellcheck disable=SC2086
  cp $libs "$work/tree/build/lib/"
  touch "$work/tree/build/.deps-ok"
  sed -i "$expr" "$work/tree/$file"
  if cmp -s "$file" "$work/tree/$file"; then
    echo "FAIL sva-$name: the fault did not apply to $file (stale pattern)"; fail=1; return
  fi
  local olibs=()
  for l in $libs; do olibs+=(-o "$l"); done
  if ! make -s -C "$work/tree" "${olibs[@]}" "$opt" "$target" >"$work/build.log" 2>&1; then
    echo "FAIL sva-$name: does not build"; tail -5 "$work/build.log"; fail=1; return
  fi
  out=$(cd "$work/tree" && SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
        "$target" +test="$test" +seed=1 +max_errors=1000000 2>&1)
  if grep -q "ASSERT FAILED.*$assertion" <<<"$out" &&
     grep -q "FAILURE: RTL assertion failed" <<<"$out"; then
    echo "PASS sva-$name: $(grep -m1 "ASSERT FAILED" <<<"$out")"
  else
    echo "FAIL sva-$name: $assertion did not fire in $test.1"
    grep -m3 "ASSERT FAILED\|FAILURE" <<<"$out"
    fail=1
  fi
}

if [ "$block" = xtm ]; then
  core=rtl/xtm/xtm_core.sv
  # an accepted OCB enqueue that is not added to the OCB count: OCB + HBM != pool
  fault ocb-uncounted "$core" smoke OcbPlusHbmIsPool_A \
    "s/ocb_used_q <= ocb_used_5 + ((enq_acc \&\& !enq_hbm) ? enq_cells : '0);/ocb_used_q <= ocb_used_5;/"
  # XOFF set 8 cells late: a PG crosses its static threshold through an arrival, not in XOFF
  fault xoff-late "$core" pfc_gen XoffWhenAboveThreshold_A \
    "s/if (g_cfg_q\[g\]\[0\] \&\& !g_xoff_st_q\[g\] \&\& pgc_end\[g\] >= xoff_t) begin/if (g_cfg_q[g][0] \&\& !g_xoff_st_q[g] \&\& pgc_end[g] >= xoff_t + 28'd8) begin/"
else
  pkg=rtl/dcqcn/dcqcn_pkg.sv
  visit=rtl/dcqcn/dcqcn_visit.sv
  # a cut that skips the clamp: Rc falls below RPG_MIN_RATE (30000 in min_max_rate)
  fault cut-unclamped "$pkg" min_max_rate RcWrittenInLimits_A \
    "s/cut_rc = clamp_rate(lo, hi, 21'(30'(rc) - dec));/cut_rc = 20'(30'(rc) - dec);/"
  # an alpha timer that fires but never advances: its deadline falls behind the scan
  fault alpha-timer-stuck "$visit" smoke NoTimerLate_A \
    "s/due_alpha = due_alpha + dcqcn_pkg::DUE_W'(p_alpha_i);/due_alpha = due_alpha;/"
  # a Q_CTRL.INIT that leaves alpha at 1022: the visit writes an inactive QP that is not the
  # INIT word
  fault init-word "$visit" csr_traffic InactiveAtInit_A \
    "s/      alpha = 10'd1023;/      alpha = 10'd1022;/"
  # a cut that clamps Rt to 0 instead of Rc (CLAMP_TGT_RATE on in clamps): a rate of 0 is
  # written (Rc is untouched, so only the range check can see it)
  fault cut-rt-zero "$visit" clamps RatesInRange_A \
    "s/            rt = rc;/            rt = '0;/"
  # the rate stream's prefix count counts every changed slot twice: n_rate > U once three
  # slots change in one cycle (smoke never has more than two; random has)
  fault rate-count-double rtl/dcqcn/dcqcn_rate.sv random RateStreamFits_A \
    "s/n = n + 5'(ch\[b\]);/n = n + 5'(ch[b]) + 5'(ch[b]);/"
  # the scan reads its context RAM during the first period, before any row was written: the
  # visit ignores the data (reset word), so only the RAM wrapper's check sees it
  fault scan-reads-unwritten rtl/dcqcn/dcqcn_scan.sv smoke RamReadUnwritten_A \
    "s/.a_re_i   (run1_q \&\& exists1 \&\& (swept_q || (run2_q \&\& 32'(g2_q) == ScanPeriod - 1))),/.a_re_i   (run1_q \&\& exists1),/"
fi
exit $fail
