#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/bench-stamps (every make bench item stamps its output, issue 17) on the tree, and its
# negative tests: an item whose stamp is removed, and a new item without one, must each make
# it fail naming the item. PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-bench-stamps
rm -rf "$tmp" && mkdir -p "$tmp"
if tools/bench-stamps >"$tmp/ok.out" 2>&1; then echo "PASS bench-stamps-current"
else echo "FAIL bench-stamps-current"; cat "$tmp/ok.out"; fi
neg() {  # NAME EDIT-COMMAND EXPECTED
  rm -rf "$tmp/root" && mkdir -p "$tmp/root"
  git ls-files Makefile '*.mk' | while read -r f; do mkdir -p "$tmp/root/$(dirname "$f")"; cp "$f" "$tmp/root/$f"; done
  (cd "$tmp/root" && eval "$2")
  if tools/bench-stamps --root "$tmp/root" >"$tmp/$1.out" 2>&1; then echo "FAIL bench-stamps-$1 (the check passed)"
  elif grep -qF -- "$3" "$tmp/$1.out"; then echo "PASS bench-stamps-$1"
  else echo "FAIL bench-stamps-$1 (the message does not name it)"; cat "$tmp/$1.out"; fi
}
neg removed "sed -i '/tools\/stamp \"bench-netsim:/d' sim/netsim/netsim.mk" "bench-stamps: bench-netsim (sim/netsim/netsim.mk): the recipe does not begin with"
neg new-item "printf '.PHONY: bench-new\nbench-new:\n\techo 1\nBENCH_TARGETS += bench-new\n' >>tb/tb.mk" "bench-stamps: bench-new (tb/tb.mk)"
neg wrong-name "sed -i 's/tools\/stamp \"bench-sv:/tools\/stamp \"bench-xx:/' tb/sv.mk" "bench-stamps: bench-sv (tb/sv.mk)"
