#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The shared libraries a simulator loads with -sv_lib (make dpi-so) define every function
# the packages import: the names of `import "DPI-C"` in cmodel/dpi/*_dpi_pkg.sv against the
# dynamic symbols of build/lib/lib*_dpi.so. Its negative test: a package with one import
# more than the library defines must be reported. Prints PASS/FAIL lines
# (tools/run-tests --shell).
cd "$(dirname "$0")/../.." || exit 2

# pkg so -> prints "ok N" or "missing NAMES" or "pattern N"
check() {
  local want have n missing
  want=$(tr '\n' ' ' <"$1" | grep -oE 'import "DPI-C" function [a-z ]*[a-z_0-9]+ +[a-z_0-9]+\(' |
         sed -E 's/.* ([a-z_0-9]+)\($/\1/' | sort -u)
  have=$(nm -D --defined-only "$2" | awk '$2 == "T" {print $3}' | sort -u)
  n=$(wc -w <<<"$want")
  missing=$(comm -23 <(tr ' ' '\n' <<<"$want" | sed '/^$/d') <(echo "$have") | tr '\n' ' ')
  if [ "$n" -lt 10 ]; then
    echo "pattern $n"
  elif [ -n "$missing" ]; then
    echo "missing $missing"
  else
    echo "ok $n"
  fi
}

for blk in xtm dcqcn; do
  so=build/lib/lib${blk}_dpi.so
  pkg=cmodel/dpi/${blk}_dpi_pkg.sv
  if [ ! -f "$so" ]; then
    echo "FAIL dpi-exports-$blk: $so missing (make dpi-so)"
    continue
  fi
  read -r verdict rest <<<"$(check "$pkg" "$so")"
  case $verdict in
    ok) echo "PASS dpi-exports-$blk: $rest imported functions defined in $so" ;;
    missing) echo "FAIL dpi-exports-$blk: $so lacks: $rest" ;;
    *) echo "FAIL dpi-exports-$blk: only $rest imports found in $pkg (pattern broken?)" ;;
  esac
done

# negative: an import the library does not define (a package newer than its library)
so=build/lib/libxtm_dpi.so
if [ -f "$so" ]; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  sed 's/^endpackage/  import "DPI-C" function int xtm_dpi_not_in_the_library(input chandle h);\nendpackage/' \
    cmodel/dpi/xtm_dpi_pkg.sv >"$tmp"
  read -r verdict rest <<<"$(check "$tmp" "$so")"
  if [ "$verdict" = missing ] && [ "$rest" = "xtm_dpi_not_in_the_library" ]; then
    echo "PASS dpi-exports-negative: an import the library lacks is reported ($rest)"
  else
    echo "FAIL dpi-exports-negative: an extra import was not reported ($verdict $rest)"
  fi
fi
