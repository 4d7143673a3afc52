#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative tests of the co-simulation's state comparison (docs/cosim.md, "The state
# comparison"): one RTL state bit is flipped after a cycle commits (+state_fault=field:i:c),
# for every field the comparison covers. Each flip must be reported in that cycle with the
# field, the VOQ/PG and the cycle, by the fast path (snapshot image, memcmp) and by the
# field-by-field path (+state_detailed) with the same FAILURE line. A flip the outputs never
# show must pass with outputs compared only (+state_every=0) and fail with the state compared.
# A corrupted image (the fast path's expectation) must fail its consistency check.
#   tb/test_state_check.sh [CFG]      (default: small; the binary must be built)
set -u
cd "$(dirname "$0")/.." || exit 2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cfg=${1:-small}
bin=sim/build/$cfg/Vxtm_top
if [ ! -x "$bin" ]; then
  echo "FAIL: $bin is not built (make $bin)"
  exit 1
fi
case $cfg in
  small) nv=4 ng=16 ;;
  default) nv=64 ng=64 ;;
  *) echo "FAIL: unknown configuration $cfg"; exit 1 ;;
esac
cyc=2000      # the flip, after the initialisation sweep (the watchdog rows are compared then)
len=3000
fails=0
n=0
run() { "$bin" +test=random +seed=1 +cycles=$len +out="sim/out/state-check.$cfg" "$@" 2>&1; }

# field | what the report names | index
cases=(
  "occ_cells|state.voq.occ_cells|voq"  "occ_pkts|state.voq.occ_pkts|voq"
  "hbm_cells|state.voq.hbm_cells|voq"  "hbm_mode|state.voq.hbm_mode|voq"
  "wd_stalled|state.voq.wd_stalled|voq" "deficit|state.voq.deficit|voq"
  "shaper_conform|state.voq.shaper_conform|voq" "wd_storm|state.voq.wd_storm|voq"
  "wd_clean|state.voq.wd_clean|voq"
  "pg_cells|state.pg.cells|pg" "hdrm_used|state.pg.hdrm_used|pg" "xoff|state.pg.xoff|pg"
  "pause_remain|state.pg.pause_remain|pg"
  "pool_used|state.pool_used|-" "ocb_used|state.ocb_used|-" "hbm_used|state.hbm_used|-"
  "desc_free|state.desc_free|-" "lfsr|state.lfsr|-" "lfsr_head|state.lfsr_head|-"
  "pol_tok|state.pol.tok|pol" "pol_u|state.pol.u|pol"
)
for c in "${cases[@]}"; do
  IFS='|' read -r field name kind <<<"$c"
  # two indices per block kind: the first and the last VOQ / PG (the ends of the arrays)
  case $kind in
    voq) idxs="0 $((nv - 1))" ;;
    pg) idxs="1 $((ng - 1))" ;;
    pol) idxs="0 $((ng - 1))" ;;  # as many policers as PGs (spec 4.7)
    *) idxs="0" ;;
  esac
  for i in $idxs; do
    n=$((n + 1))
    case $kind in
      voq) where="voq $i" ;;
      pg) where="port $((i / 8)) prio $((i % 8))" ;;
      pol) where="policer $i" ;;
      *) where="" ;;
    esac
    want="^FAILURE: co-sim mismatch at cycle $cyc: $name expected 0x[0-9a-f]+ dut 0x[0-9a-f]+ \\($where\\)\$"
    fast=$(run +state_fault="$field:$i:$cyc")
    slow=$(run +state_fault="$field:$i:$cyc" +state_detailed)
    f1=$(grep -m1 '^FAILURE' <<<"$fast")
    f2=$(grep -m1 '^FAILURE' <<<"$slow")
    if ! grep -q 'TEST FAILED CHECKS' <<<"$fast" || ! grep -Eq "$want" <<<"$f1"; then
      echo "FAIL $field[$i]: the fast path did not report it as expected: ${f1:-no FAILURE line}"
      fails=$((fails + 1))
    elif [ "$f1" != "$f2" ]; then
      echo "FAIL $field[$i]: the fast and the detailed path disagree:"
      echo "  fast:     $f1"
      echo "  detailed: $f2"
      fails=$((fails + 1))
    else
      echo "PASS $field[$i]: $f1"
    fi
  done
done

# a flip only the state comparison sees: a VOQ's watchdog clean-poll counter is not used in
# the MONITOR state and is cleared when the VOQ enters STALLED (spec 8), so it never reaches
# an output
n=$((n + 1))
outs=$(run +state_fault="wd_clean:0:$cyc" +state_every=0)
if ! grep -q 'TEST PASSED CHECKS' <<<"$outs"; then
  echo "FAIL outputs-only.wd_clean[0]: expected to pass with outputs compared only: $(grep -m1 '^FAILURE' <<<"$outs")"
  fails=$((fails + 1))
else
  echo "PASS outputs-only.wd_clean[0]: invisible at the outputs (+state_every=0 passes), caught by the state comparison above"
fi

# the fast path's own consistency check: an image entry corrupted behind the snapshot's back
# (a stale image, as a snapshot that missed a model change) must fail as state.image
n=$((n + 1))
img=$(run +state_fault="image:1:$cyc")
f1=$(grep -m1 '^FAILURE' <<<"$img")
if ! grep -Eq "^FAILURE: co-sim mismatch at cycle $cyc: state.image " <<<"$f1"; then
  echo "FAIL image[1]: a stale image was not reported: ${f1:-no FAILURE line}"
  fails=$((fails + 1))
else
  echo "PASS image[1]: $f1"
fi

echo "state comparison negative tests: $((n - fails))/$n as expected ($cfg)"
[ "$fails" -eq 0 ]
