#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# tools/testplan --check (tests/testplan.md against the specs' headings and the tests'
# citations) and its negative tests: a section added to a spec, a row dropped from the plan,
# a renamed section must each make the check fail; and of tests/testplan-map.tsv: a test that
# does not exist, a gap for a section that has a test, a coverage point without a section,
# a map row for a section that is not a heading. PASS/FAIL lines for tools/run-tests.
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
neg_map() {  # NAME MAP-EDIT (a shell command on $tmp/map.tsv and $tmp/fcov.tsv) EXPECTED
  cp tests/testplan-map.tsv "$tmp/map.tsv"; cp tests/regress/fcov_points.tsv "$tmp/fcov.tsv"
  eval "$2"
  if cmp -s "$tmp/map.tsv" tests/testplan-map.tsv && cmp -s "$tmp/fcov.tsv" tests/regress/fcov_points.tsv; then
    echo "FAIL testplan-$1 (the edit did not apply)"; return
  fi
  if tools/testplan --check --map "$tmp/map.tsv" --fcov "$tmp/fcov.tsv" >"$tmp/$1.out" 2>&1; then
    echo "FAIL testplan-$1 (the check passed)"
  elif grep -qF -- "$3" "$tmp/$1.out"; then echo "PASS testplan-$1"
  else echo "FAIL testplan-$1 (the message does not name it)"; cat "$tmp/$1.out"; fi
}
neg_map map-missing-test "sed -i 's/test_input_masking/test_no_such_test/' \"\$tmp/map.tsv\"" 'test tests/unit/test_classify.c:test_no_such_test does not exist'
neg_map map-gap-with-test "printf 'gap\t4.3\t-\tnothing checks it\n' >>\"\$tmp/map.tsv\"" 'gap 4.3: it has a test'
neg_map map-bad-section "printf 'test\t4.99\ttests/unit/test_classify.c:test_not_ready\tx\n' >>\"\$tmp/map.tsv\"" 'section 4.99 is not a heading of the specs'
neg_map fcov-point-unmapped "printf 'zz_new_point\ta point nobody placed\n' >>\"\$tmp/fcov.tsv\"" 'coverage point zz_new_point: its description cites no section'
neg_map fcov-rule-unused "printf 'fcov\tzz_\t9.5\tnothing\n' >>\"\$tmp/map.tsv\"" 'fcov row zz_ -> 9.5: no coverage point needs it'
neg_map map-gap-dropped "sed -i '/^gap\t16\t/d' \"\$tmp/map.tsv\"" '+| 16 | Changes from version 1.0 | (no test cites this section) |'
