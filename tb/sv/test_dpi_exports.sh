#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The shared libraries a simulator loads with -sv_lib (make dpi-so) define every function
# the packages import: the names of `import "DPI-C"` in cmodel/dpi/*_dpi_pkg.sv against the
# dynamic symbols of build/lib/lib*_dpi.so. Prints PASS/FAIL lines (tools/run-tests --shell).
cd "$(dirname "$0")/../.." || exit 2
for blk in xtm dcqcn; do
  so=build/lib/lib${blk}_dpi.so
  pkg=cmodel/dpi/${blk}_dpi_pkg.sv
  if [ ! -f "$so" ]; then
    echo "FAIL dpi-exports-$blk: $so missing (make dpi-so)"
    continue
  fi
  want=$(tr '\n' ' ' <"$pkg" | grep -oE 'import "DPI-C" function [a-z ]*[a-z_0-9]+ +[a-z_0-9]+\(' |
         sed -E 's/.* ([a-z_0-9]+)\($/\1/' | sort -u)
  have=$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | sort -u)
  n=$(wc -w <<<"$want")
  missing=$(comm -23 <(tr ' ' '\n' <<<"$want" | sed '/^$/d') <(echo "$have"))
  if [ "$n" -lt 10 ]; then
    echo "FAIL dpi-exports-$blk: only $n imports found in $pkg (pattern broken?)"
  elif [ -n "$missing" ]; then
    echo "FAIL dpi-exports-$blk: $so lacks: $missing"
  else
    echo "PASS dpi-exports-$blk: $n imported functions defined in $so"
  fi
done
