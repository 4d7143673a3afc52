#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative tests of the checks of the DPI-C layers: single-point bugs in a copy of
# cmodel/dpi/*.c, each linked into the checkers that must catch it:
#   unit  the Check suite tests/unit/test_dpi.c (packing against its own offsets, handles,
#         bad input)
#   api   the SystemVerilog API testbench sim/build/sv-api/Vxtm_dpi_api_tb (relinked)
#   sv:<test>  the SystemVerilog co-simulation sim/build/sv-small/Vxtm_sv_tb (relinked), for
#         the scoreboard's checks that see the DPI layer (the state-register predictions)
# A mutant is caught by a checker when the run exits non-zero (a failed check or a crash).
# Prints PASS (caught by every checker listed) or FAIL (which one let it through) per
# mutant (tools/run-tests --shell).
#   tb/sv/test_dpi_mutants.sh [NAME...]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CC=${CC:-cc}
SVDPI=$(${VERILATOR:-verilator} --getenv VERILATOR_ROOT 2>/dev/null)/include/vltstd
CFLAGS="-std=c11 -Wall -Wextra -Werror -pedantic -O2 -g -I. -I$SVDPI -pthread"
api=sim/build/sv-api
sv=sim/build/sv-small

# name | file | sed expression (must change the file; no '|' in it) | checkers
mutants=(
  "stale-handle|dpi_handle.c|s/atomic_store(\&s->gen, (gen + 1u) \& TOK_GEN_MASK);/atomic_store(\&s->gen, gen);/|unit api"
  "model-tag|dpi_handle.c|s/(v >> (TOK_BITS - 8u)) != (t->kind \& 0xFFu)/(t->kind \& 0u) != 0u/|unit"
  "deq-ecn-width|xtm_dpi.c|s/dpi_put(deq, b + kDqEcn, 2, d->ecn);/dpi_put(deq, b + kDqEcn, 1, d->ecn);/|unit api sv:incast"
  "desc-free-state|xtm_dpi.c|s/dpi_put(state, kGsDescFree, 32, s.desc_free);/dpi_put(state, kGsDescFree, 32, s.desc_free + 1u);/|unit api sv:smoke"
  "voq-index-bound|xtm_dpi.c|s/if (voq >= x->nvoqs) {/if (voq > x->nvoqs) {/|unit api"
  "csr-address-bound|xtm_dpi.c|0,/if (addr > 0xFFFFu) {/s//if (addr > 0x1FFFFu) {/|unit api"
  "stale-deq-entries|xtm_dpi.c|s/memset(deq, 0, DEQ_WORDS \* sizeof(svBitVecVal));//|unit"
  "pfc-rx-quanta|xtm_dpi.c|s/dpi_get(pfc_rx_quanta, 16u \* (8u \* p + k), 16)/dpi_get(pfc_rx_quanta, 16u * (8u * p + k), 15)/|unit"
  "dcqcn-rate-rt|dcqcn_dpi.c|s/dpi_put(rrt, 20u \* k, 20, o->rate\[k\].rt);/dpi_put(rrt, 20u * k, 20, o->rate[k].rc);/|unit"
  "dcqcn-qp-bound|dcqcn_dpi.c|s/if (qp >= x->nqps) {/if (qp > x->nqps) {/|unit api"
)

# the final link command of a Verilated binary, from its build log, with the DPI libraries
# replaced by the mutant's
relink() {  # build_dir binary out
  local line
  line=$(grep -E "^g\+\+ .* -o $2\$" "$1.log" | tail -1)
  if [ -z "$line" ]; then
    return 1
  fi
  line=${line//$top\/build\/lib\/libxtm_dpi.a/$work\/lib\/libxtm_dpi.a}
  line=${line//$top\/build\/lib\/libdcqcn_dpi.a/$work\/lib\/libdcqcn_dpi.a}
  (cd "$1" && eval "${line% -o $2} -o $3") >"$work/link.log" 2>&1
}

make -s build/lib/libxtm.a build/lib/libdcqcn.a build/lib/libxtmnum.a >/dev/null || exit 2
for f in $api/Vxtm_dpi_api_tb $sv/Vxtm_sv_tb; do
  if [ ! -x "$f" ] || [ ! -f "$(dirname "$f").log" ]; then
    echo "FAIL dpi-mutants: $f or its build log missing (make $f)"
    exit 0
  fi
done
want=("$@")
for spec in "${mutants[@]}"; do
  IFS='|' read -r name file expr checkers <<<"$spec"
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then
    continue
  fi
  rm -rf "$work/src" "$work/lib"
  mkdir -p "$work/src" "$work/lib"
  cp cmodel/dpi/*.c "$work/src/"
  sed -i "$expr" "$work/src/$file"
  if cmp -s "cmodel/dpi/$file" "$work/src/$file"; then
    echo "FAIL dpi-mutant-$name: the mutation did not apply to cmodel/dpi/$file (stale pattern)"
    continue
  fi
  ok=1
  for c in xtm_dpi dcqcn_dpi dpi_handle; do
    $CC $CFLAGS -c "$work/src/$c.c" -o "$work/lib/$c.o" 2>"$work/cc.log" || ok=0
  done
  if [ $ok = 0 ]; then
    echo "FAIL dpi-mutant-$name: the mutant does not compile: $(grep -m1 error "$work/cc.log")"
    continue
  fi
  ar rcs "$work/lib/libxtm_dpi.a" "$work/lib/xtm_dpi.o" "$work/lib/dpi_handle.o"
  ar rcs "$work/lib/libdcqcn_dpi.a" "$work/lib/dcqcn_dpi.o" "$work/lib/dpi_handle.o"
  survived=""
  caught_by=""
  for c in $checkers; do
    rc=0
    case $c in
      unit)
        # shellcheck disable=SC2046
        $CC $CFLAGS $(pkg-config --cflags check) tests/unit/test_dpi.c tests/unit/xtm_testlib.c -o "$work/test_dpi" \
          "$work/lib/libxtm_dpi.a" "$work/lib/libdcqcn_dpi.a" build/lib/libxtm.a build/lib/libdcqcn.a build/lib/libxtmnum.a \
          $(pkg-config --libs check) -lm -pthread 2>"$work/cc.log" || { survived="$survived unit(link)"; continue; }
        (timeout 600 "$work/test_dpi" >"$work/run.log" 2>&1; exit $?) 2>/dev/null || rc=$?
        ;;
      api)
        relink $api Vxtm_dpi_api_tb "$work/api_tb" || { survived="$survived api(link)"; continue; }
        (timeout 300 "$work/api_tb" >"$work/run.log" 2>&1; exit $?) 2>/dev/null || rc=$?
        ;;
      sv:*)
        relink $sv Vxtm_sv_tb "$work/sv_tb" || { survived="$survived $c(link)"; continue; }
        (timeout 600 "$work/sv_tb" +test="${c#sv:}" +seed=1 +cycles=20000 +out="$work/out" >"$work/run.log" 2>&1
          exit $?) 2>/dev/null || rc=$?
        ;;
    esac
    if [ $rc -gt 128 ] && [ $rc -ne 124 ]; then
      caught_by="$caught_by $c(crash: signal $((rc - 128)))"
    elif [ $rc -ne 0 ]; then
      caught_by="$caught_by $c($(grep -m1 -E '^FAIL|FAILURE|:[0-9]+:[EF]:' "$work/run.log" | cut -c1-90))"
    else
      survived="$survived $c"
    fi
  done
  if [ -z "$survived" ]; then
    echo "PASS dpi-mutant-$name: caught by$caught_by"
  else
    echo "FAIL dpi-mutant-$name: survived$survived"
  fi
done
