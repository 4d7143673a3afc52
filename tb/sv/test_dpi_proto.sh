#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Negative test of tb/sv/dpi_proto_check.cpp (the C headers cmodel/dpi/*_dpi.h against the
# prototypes Verilator derives from the packages' imports): the check compiles with the
# headers as they are, and stops compiling when a header drifts from its package (one
# argument type changed in a copy of each header). Needs the API testbench's generated
# Vxtm_dpi_api_tb__Dpi.h (make sim-sv-api). Also: cmodel/dpi/*.c compile against an svdpi.h
# of the standard's types alone, and a copy calling an svdpi.h helper function does not.
# Prints PASS/FAIL lines (tools/run-tests --shell).
cd "$(dirname "$0")/../.." || exit 2
gen=sim/build/sv-api
vroot=$(${VERILATOR:-verilator} --getenv VERILATOR_ROOT 2>/dev/null)
if [ ! -f $gen/Vxtm_dpi_api_tb__Dpi.h ] || [ -z "$vroot" ]; then
  echo "FAIL dpi-proto: $gen/Vxtm_dpi_api_tb__Dpi.h or Verilator missing (make sim-sv-api)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compile() {  # extra include folder first -> exit status of the syntax check
  ${CXX:-g++} -fsyntax-only -I"$1" -I. -I$gen -I"$vroot/include" -I"$vroot/include/vltstd" \
    tb/sv/dpi_proto_check.cpp 2>"$work/err"
}
mkdir -p "$work/none"
if compile "$work/none"; then
  echo "PASS dpi-proto: the headers agree with the packages' imports"
else
  echo "FAIL dpi-proto: the headers disagree with the packages: $(grep -m1 error "$work/err")"
fi
# name | header | sed expression (must change the header)
for spec in "xtm-cycle-type|xtm_dpi.h|s/int xtm_dpi_cycle(void \*h, unsigned long long \*cycle);/int xtm_dpi_cycle(void *h, unsigned int *cycle);/" \
            "dcqcn-csr-write-arg|dcqcn_dpi.h|s/int dcqcn_dpi_csr_write(void \*h, unsigned int addr, unsigned int data);/int dcqcn_dpi_csr_write(void *h, unsigned int addr, unsigned long long data);/"; do
  IFS='|' read -r name hdr expr <<<"$spec"
  rm -rf "$work/t"
  mkdir -p "$work/t/cmodel/dpi"
  sed "$expr" "cmodel/dpi/$hdr" >"$work/t/cmodel/dpi/$hdr"
  if cmp -s "cmodel/dpi/$hdr" "$work/t/cmodel/dpi/$hdr"; then
    echo "FAIL dpi-proto-$name: the drift did not apply to $hdr (stale pattern)"
  elif compile "$work/t"; then
    echo "FAIL dpi-proto-$name: a drifted $hdr still compiles against the packages"
  else
    echo "PASS dpi-proto-$name: caught: $(grep -m1 -oE 'error: .*' "$work/err")"
  fi
done

# The C layers need nothing of a simulator's svdpi.h but its types (docs/dpi.md): they
# compile against a header holding only the typedefs of IEEE 1800-2017 Annex I that they
# use (svBit, svBitVecVal), and a copy that calls one of the svdpi.h helper functions
# (which would need the simulator's run-time library) does not.
mkdir -p "$work/svdpi"
cat >"$work/svdpi/svdpi.h" <<'HDR'
#ifndef SVDPI_H_TYPES_ONLY
#define SVDPI_H_TYPES_ONLY
#include <stdint.h>
typedef uint8_t svScalar;
typedef svScalar svBit;
typedef uint32_t svBitVecVal;
#endif
HDR
portable() {  # source files... -> exit status
  local f ok=0
  for f in "$@"; do
    ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$work/svdpi" -I. "$f" 2>>"$work/err" || ok=1
  done
  return $ok
}
: >"$work/err"
if portable cmodel/dpi/xtm_dpi.c cmodel/dpi/dcqcn_dpi.c cmodel/dpi/dpi_handle.c; then
  echo "PASS dpi-svdpi-types-only: cmodel/dpi/*.c compile with the svdpi.h types alone"
else
  echo "FAIL dpi-svdpi-types-only: $(grep -m1 -E 'error' "$work/err")"
fi
sed 's/^int xtm_dpi_set_eager(void \*h, svBit eager) {/&\n  (void)svGetBitselBit(NULL, 0);/' cmodel/dpi/xtm_dpi.c >"$work/xtm_dpi_helper.c"
: >"$work/err"
if cmp -s cmodel/dpi/xtm_dpi.c "$work/xtm_dpi_helper.c"; then
  echo "FAIL dpi-svdpi-helper-call: the change did not apply to cmodel/dpi/xtm_dpi.c (stale pattern)"
elif portable "$work/xtm_dpi_helper.c"; then
  echo "FAIL dpi-svdpi-helper-call: a call of svGetBitselBit compiled against the types-only svdpi.h"
else
  echo "PASS dpi-svdpi-helper-call: caught: $(grep -m1 -oE 'error: .*' "$work/err")"
fi
