#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Every co-simulation summary is stamped (issue 17): the xtm and dcqcn C++ co-sims and the
# SystemVerilog testbench print `spec: <the spec's Version>`, `git: <git describe --always
# --dirty>` and `config: <configuration>`. Each is run briefly and its three lines checked
# against tools/stamp; XTM_GIT_DESCRIBE=stamp-probe must come through (the line is
# computed, not fixed). PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-summary-stamps
rm -rf "$tmp" && mkdir -p "$tmp"
spec=$(tools/stamp --value spec); specd=$(tools/stamp --value spec-dcqcn); gitd=$(tools/stamp --value git)
check() {  # NAME SPEC CONFIG-PREFIX COMMAND...
  local name=$1 want_spec=$2 cfg=$3; shift 3
  "$@" >"$tmp/$name.out" 2>&1
  XTM_GIT_DESCRIBE=stamp-probe "$@" >"$tmp/$name.probe" 2>&1
  if grep -qxF "spec: $want_spec" "$tmp/$name.out" && grep -qxF "git: $gitd" "$tmp/$name.out" &&
     grep -q "^config: $cfg" "$tmp/$name.out" && grep -qxF "git: stamp-probe" "$tmp/$name.probe"; then
    echo "PASS summary-stamp $name"
  else
    echo "FAIL summary-stamp $name (want spec: $want_spec, git: $gitd, config: $cfg...)"
    grep -E '^(spec|git|config): ' "$tmp/$name.out" | head -3
  fi
}
check xtm-cosim "$spec" "small" sim/build/small/Vxtm_top +test=smoke +seed=1 +cycles=2000 +out="$tmp/x"
check dcqcn-cosim "$specd" "dcqcn" sim/build/dcqcn/Vdcqcn_top +test=smoke +seed=1 +cycles=2000 +out="$tmp/d"
check sv-testbench "$spec" "sv-small" sim/build/sv-small/Vxtm_sv_tb +test=smoke +seed=1 +cycles=2000 +out="$tmp/s"
