#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative test of the post-synthesis flow on the real blocks (make gls-mutant; nightly):
# for each line of tests/synth/gls_mutants.list, a copy of the block's RTL with an unpacked
# array of a package struct (reintroduced by a sed, or already there) must
#   1. fail the flip-flop check of the synthesis (declared bits != built bits), and
#   2. synthesized anyway (--skip-ffcheck), fail the lockstep co-simulation of its netlist
#      against the C model (a FAILURE: co-sim mismatch line).
# Prints PASS/FAIL lines; exit 1 on any FAIL. Heavy: one synthesis and one netlist build
# per line (minutes to tens of minutes on today's RTL); output in build/synth/mutant-<blk>/.
set -u
cd "$(dirname "$0")/../.."
LIB=${SIGNOFF_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
LEVEL=${GLS_MUTANT_LEVEL:-coarse}
TIMEOUT=${SYNTH_TIMEOUT:-1800}
BLOCKS=${GLS_MUTANT_BLOCKS:-xtm dcqcn}  # the blocks whose lines run (make gls-mutant GLS_MUTANT_BLOCKS=dcqcn)
nfail=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; nfail=$((nfail + 1)); shift; [ $# -gt 0 ] && tail -30 "$@"; }

while IFS='|' read -r blk file mut test; do
  blk=$(echo $blk); file=$(echo $file); test=$(echo $test)
  mut=$(echo "$mut" | sed -E 's/^ +//; s/ +$//')
  case " $BLOCKS " in *" $blk "*) ;; *) echo "SKIP gls-mutant-$blk (GLS_MUTANT_BLOCKS=$BLOCKS)"; continue ;; esac
  name=gls-mutant-$blk
  d=build/synth/mutant-$blk
  rm -rf "$d"; mkdir -p "$d/rtl"
  cp -r rtl/"$blk" rtl/common "$d/rtl/"
  copy=$d/$file
  case "$mut" in
    sed:*) sed -i "${mut#sed:}" "$copy"
           if cmp -s "$file" "$copy"; then fail "$name (the mutation did not apply to $file)"; continue; fi ;;
    present:*) if ! grep -qF "${mut#present:}" "$copy"; then
                 fail "$name ('${mut#present:}' is no longer in $file: write the sed that reintroduces it)"
                 continue; fi ;;
    *) fail "$name (bad mutation '$mut')"; continue ;;
  esac
  # the file list of the copy
  sed "s|^rtl/|$d/rtl/|" rtl/$blk/$blk.f > "$d/$blk.f"
  case $blk in
    xtm) top=xtm_top; params="--param NumPorts=2 --param NumTcs=2 --param NumDesc=64" ;;
    dcqcn) top=dcqcn_top; params="--param NumQps=4 --param ScanWidth=2" ;;
  esac
  syn() { nice -n 10 tools/synth/synth.py --block "$blk" --top $top --filelist "$d/$blk.f" $params \
            --liberty "$LIB" --out "$d/synth" --level "$LEVEL" --incdir "$d/rtl/common" \
            --macro-dir "$d/rtl/common" --timeout "$TIMEOUT" "$@"; }
  if syn > "$d/synth.log" 2>&1; then
    fail "$name-ffcheck (the copy passed the flip-flop check)" "$d/synth.log"
  elif grep -q '^ffcheck: FAIL' "$d/synth/ffcheck.txt" 2>/dev/null; then
    pass "$name-ffcheck ($(grep -m1 'declared .*, built' "$d/synth/ffcheck.txt" | sed 's/^ *//'))"
  else
    fail "$name-ffcheck (failed, but not on the flip-flop check)" "$d/synth.log"
  fi
  if ! syn --skip-ffcheck > "$d/synth2.log" 2>&1; then
    fail "$name-gls (synthesis with --skip-ffcheck)" "$d/synth2.log"; continue
  fi
  # build the lockstep testbench on the copy's netlist, as tb/tb_gls.mk does
  if ! make --no-print-directory -s GLS_MUTANT_DIR="$d" gls-mutant-build-$blk > "$d/build.log" 2>&1; then
    fail "$name-gls (netlist build)" "$d/build.log"; continue
  fi
  exe=$d/sim/V${top}
  if "$exe" +test="$test" +seed=1 +cycles=30000 +out="$d/run" > "$d/run.log" 2>&1; then
    fail "$name-gls (the netlist with the collapsed array matched the C model)" "$d/run.log"
  elif grep -q '^FAILURE: co-sim mismatch' "$d/run.log"; then
    pass "$name-gls ($(grep -m1 '^FAILURE' "$d/run.log" | cut -c10-))"
  else
    fail "$name-gls (failed, but not by a mismatch)" "$d/run.log"
  fi
done < <(grep -v -E '^\s*(#|$)' tests/synth/gls_mutants.list)
exit $((nfail > 0))
