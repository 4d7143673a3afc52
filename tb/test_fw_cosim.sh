#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bring-up equivalence (docs/firmware.md section 8, docs/cosim.md "Firmware mode"): the same
# firmware bring-up of a configuration, run on the C model (`xtmctl apply --apb`) and on the
# RTL co-simulation (`Vxtm_top +fw=<conf>`), must give byte-identical CSR transaction traces
# and register dumps.
#   tb/test_fw_cosim.sh            the make test suite: two examples, then negative checks
#                                  showing that the comparison fails when it should (model
#                                  side: other files; RTL side: a master without wait states)
#   tb/test_fw_cosim.sh CONF...    compare these configurations only (make fw-cosim CONF=..)
# Prints PASS/FAIL lines for tools/run-tests; the files stay in sim/out/fw-<name>/.
set -u
XTMCTL=${XTMCTL:-build/bin/xtmctl}
SIM=${SIM:-sim/build/default/Vxtm_top}  # the examples use port 4 and 8 TCs: default config
OUT=${OUT:-sim/out}

# run_rtl CONF DIR: firmware mode of the co-simulation; DIR/rtl.trace.tsv, DIR/rtl.dump.tsv
run_rtl() {
  mkdir -p "$2"
  rm -f "$2/rtl.trace.tsv" "$2/rtl.dump.tsv"
  "$SIM" +fw="$1" +fw_trace="$2/rtl.trace.tsv" +fw_dump="$2/rtl.dump.tsv" +out="$2" \
    >"$2/rtl.log" 2>&1 && grep -q '^TEST PASSED CHECKS' "$2/rtl.log"
}

# run_model CONF DIR TAG [xtmctl options]: the C model with the RTL's descriptor pool (read
# back from the RTL trace's HW_NUM_DESC, so the two blocks have the same HW_* values) and
# APB timing (spec 10.1: setup, access, 6 wait states and the completion, 8 cycles per
# access, so INIT_DONE polls take as many reads as on the RTL)
run_model() {
  local conf=$1 dir=$2 tag=$3
  shift 3
  local nd
  nd=$(awk -F'\t' '$5 == "HW_NUM_DESC" { print $4; exit }' "$dir/rtl.trace.tsv")
  [ -n "$nd" ] || return 1
  "$XTMCTL" apply "$conf" --num-desc "$((nd))" --trace "$dir/$tag.trace.tsv" \
    --dump "$dir/$tag.dump.tsv" "$@" >"$dir/$tag.log" 2>&1
}

# same DIR TAG: model files DIR/TAG.* identical to the RTL's, byte for byte
same() {
  cmp -s "$1/$2.trace.tsv" "$1/rtl.trace.tsv" && cmp -s "$1/$2.dump.tsv" "$1/rtl.dump.tsv"
}

show_diff() {
  for k in trace dump; do
    if ! cmp -s "$1/$2.$k.tsv" "$1/rtl.$k.tsv"; then
      echo "  $k differs (< C model $1/$2.$k.tsv, > RTL $1/rtl.$k.tsv):"
      diff "$1/$2.$k.tsv" "$1/rtl.$k.tsv" | head -8 | sed 's/^/    /'
    fi
  done
}

# equiv CONF: PASS when the model and the RTL agree; leaves DIR in $dir
equiv() {
  local conf=$1 name
  name=$(basename "$conf" .conf)
  dir=$OUT/fw-$name
  if ! run_rtl "$conf" "$dir"; then
    echo "FAIL fw-cosim-eq $name (the co-simulation failed: $dir/rtl.log)"
    grep -m3 -E 'FAILURE|error' "$dir/rtl.log" | sed 's/^/  /'
    return 1
  fi
  if ! run_model "$conf" "$dir" model --apb; then
    echo "FAIL fw-cosim-eq $name (xtmctl apply failed: $dir/model.log)"
    return 1
  fi
  if same "$dir" model; then
    echo "PASS fw-cosim-eq $name ($(($(wc -l <"$dir/rtl.trace.tsv") - 1)) transactions, \
$(($(wc -l <"$dir/rtl.dump.tsv") - 1)) registers identical)"
  else
    echo "FAIL fw-cosim-eq $name"
    show_diff "$dir" model
    return 1
  fi
}

# neg NAME DIR TAG: the comparison must fail for this pair
neg() {
  if [ ! -f "$2/$3.trace.tsv" ] || [ ! -f "$2/$3.dump.tsv" ]; then
    echo "FAIL fw-cosim-neg $1 (no model files)"
  elif same "$2" "$3"; then
    echo "FAIL fw-cosim-neg $1 (the comparison passed; it must fail)"
  else
    echo "PASS fw-cosim-neg $1 (the comparison fails as it must)"
  fi
}

if [ $# -gt 0 ]; then
  rc=0
  for c in "$@"; do equiv "$c" || rc=1; done
  exit $rc
fi

equiv firmware/examples/dci-500km-final.conf
equiv firmware/examples/fabric-20g-policed.conf  # ingress policers (spec 4.7)
if equiv firmware/examples/roce-lab-6g-ecn.conf; then
  # the RTL ran roce-lab; each model-side variation below must be caught
  run_model firmware/examples/dci-500km-final.conf "$dir" neg-conf --apb
  neg other-configuration "$dir" neg-conf
  run_model firmware/examples/roce-lab-6g-ecn.conf "$dir" neg-timing  # no --apb: 1 cycle/access
  neg bus-timing "$dir" neg-timing
  if cmp -s "$dir/neg-timing.dump.tsv" "$dir/rtl.dump.tsv"; then
    echo "PASS fw-cosim-timing-dump-equal (without --apb only the INIT_DONE poll count differs)"
  else
    echo "FAIL fw-cosim-timing-dump-equal"
  fi
  "$XTMCTL" apply firmware/examples/roce-lab-6g-ecn.conf --num-desc 65536 --apb \
    --trace "$dir/neg-hw.trace.tsv" --dump "$dir/neg-hw.dump.tsv" >/dev/null 2>&1
  neg other-hw-params "$dir" neg-hw
  # one register value of the dump corrupted (Q_LIMIT_CELLS[11] + 1), trace kept
  v=$(awk -F'\t' '$2 == "Q_LIMIT_CELLS[11]" { print $3; exit }' "$dir/model.dump.tsv")
  cp "$dir/model.trace.tsv" "$dir/neg-dump.trace.tsv"
  awk -F'\t' -v OFS='\t' -v nv="$(printf '0x%08x' $((${v:-0} + 1)))" \
    '$2 == "Q_LIMIT_CELLS[11]" { $3 = nv } 1' "$dir/model.dump.tsv" >"$dir/neg-dump.dump.tsv"
  neg corrupted-dump-line "$dir" neg-dump
  # the first Q_LIMIT_CELLS[11] write of the trace corrupted (data + 1), dump kept
  v=$(awk -F'\t' '$2 == "W" && $5 == "Q_LIMIT_CELLS[11]" { print $4; exit }' "$dir/model.trace.tsv")
  cp "$dir/model.dump.tsv" "$dir/neg-trace.dump.tsv"
  awk -F'\t' -v OFS='\t' -v nv="$(printf '0x%08x' $((${v:-0} + 1)))" \
    '!done && $2 == "W" && $5 == "Q_LIMIT_CELLS[11]" { $4 = nv; done = 1 } 1' \
    "$dir/model.trace.tsv" >"$dir/neg-trace.trace.tsv"
  neg corrupted-trace-line "$dir" neg-trace
  # the RTL side: a master that ignores the wait states (a spec-1.0 APB master, answer taken
  # in the first access cycle) must fail: its first read returns the idle PRDATA (0), so the
  # firmware cannot identify the block, and any next access would come while the DUT still
  # serves the previous one (the lockstep check on PREADY; spec 10.1)
  nd=$OUT/fw-neg-apb-no-wait
  mkdir -p "$nd"
  "$SIM" +fw=firmware/examples/roce-lab-6g-ecn.conf +apb_no_wait +out="$nd" >"$nd/rtl.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] || grep -q '^TEST PASSED CHECKS' "$nd/rtl.log"; then
    echo "FAIL fw-cosim-neg apb-no-wait (a master without wait states passed: $nd/rtl.log)"
  elif grep -qE 'co-sim mismatch at cycle [0-9]*: csr.valid \(pready\)|cannot identify the traffic manager: wrong block type' "$nd/rtl.log"; then
    echo "PASS fw-cosim-neg apb-no-wait ($(grep -m1 -E 'co-sim mismatch|cannot identify' "$nd/rtl.log" | sed 's/^FAILURE: //'))"
  else
    echo "FAIL fw-cosim-neg apb-no-wait (failed, but not for the wait states: $nd/rtl.log)"
    grep -m3 FAILURE "$nd/rtl.log" | sed 's/^/  /'
  fi
fi
