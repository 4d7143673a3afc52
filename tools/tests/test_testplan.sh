#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/testplan --check (tests/testplan.md against the specs' headings and the tests'
# citations) and its negative tests: a section added to a spec, a row dropped from the plan,
# a renamed section must each make the check fail. PASS/FAIL lines for tools/run-tests.
set -u
cd "$(dirname "$0")/../.."
tmp=build/test-testplan
rm -rf "$tmp" && mkdir -p "$tmp"
if tools/testplan --check >"$tmp/ok.out" 2>&1; then echo "PASS testplan-current"
else echo "FAIL testplan-current"; cat "$tmp/ok.out"; fi
neg() {  # NAME FILE-KIND SED EXPECTED
  cp docs/spec.md "$tmp/spec.md"; cp docs/spec-dcqcn.md "$tmp/spec-dcqcn.md"; cp tests/testplan.md "$tmp/plan.md"
  sed -i -E "$3" "$tmp/$2"
  if cmp -s "$tmp/$2" "$( [ "$2" = plan.md ] && echo tests/testplan.md || echo "docs/$2")"; then
    echo "FAIL testplan-$1 (the edit did not apply)"; return
  fi
  if tools/testplan --check --spec "$tmp/spec.md" --spec-dcqcn "$tmp/spec-dcqcn.md" --plan "$tmp/plan.md" >"$tmp/$1.out" 2>&1; then
    echo "FAIL testplan-$1 (the check passed)"
  elif grep -qF -- "$4" "$tmp/$1.out"; then echo "PASS testplan-$1"
  else echo "FAIL testplan-$1 (the diff does not name it)"; cat "$tmp/$1.out"; fi
}
neg new-section spec.md 's/^## 8\. PFC watchdog \(step 3\)$/## 8. PFC watchdog (step 3)\n\n### 8.9 A new rule/' '+| 8.9 | A new rule | (no test cites this section) |'
neg renamed-section spec-dcqcn.md 's/^## D8\. The pacer$/## D8. The pacer, renamed/' '+| D8 | The pacer, renamed |'
neg dropped-row plan.md '/^\| 6\.3 \|/d' '+| 6.3 | Marking at dequeue'
