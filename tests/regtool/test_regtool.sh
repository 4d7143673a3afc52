#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tests for tools/regtool/regtool.py. Prints "PASS <case>" / "FAIL <case>" per case and exits
# non-zero if any case fails. Never modifies the tree: all writes go to a temporary directory.
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REGTOOL=(python3 "$ROOT/tools/regtool/regtool.py")
TOML="$ROOT/rtl/xtm/data/xtm_regs.toml"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
failures=0

pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
}

# regtool TOML OUTDIR [extra args...]: run with every output under OUTDIR; output in $TMP/log.
regtool() {
  local toml="$1" out="$2"
  shift 2
  "${REGTOOL[@]}" "$toml" --sv-out "$out" --c-out "$out" --doc-out "$out/registers.md" "$@" \
    >"$TMP/log" 2>&1
}

# expect_invalid NAME MESSAGE: $TMP/bad/xtm_regs.toml must exit 2 printing MESSAGE.
expect_invalid() {
  local name="$1" msg="$2" rc
  regtool "$TMP/bad/xtm_regs.toml" "$TMP/bad/out"
  rc=$?
  if [[ $rc -ne 2 ]]; then
    fail "$name" "exit $rc, expected 2: $(head -3 "$TMP/log")"
  elif ! grep -qF -- "$msg" "$TMP/log"; then
    fail "$name" "message '$msg' not in: $(head -3 "$TMP/log")"
  else
    pass "$name"
  fi
}

# A minimal valid register description; each malformed case appends one bad register.
write_bad() {
  mkdir -p "$TMP/bad"
  cat >"$TMP/bad/xtm_regs.toml" <<'EOF'
[block]
name = "xtm"
type = 0x58544D35
version = 0x00010000
addr_width = 16
data_width = 32

[[param]]
name = "NumPorts"
default = 8

[[reg]]
name = "GOOD"
offset = 0x0000
swaccess = "rw"
fields = [{ name = "VALUE", bits = "7:0", resval = "NumPorts" }]
EOF
  cat >>"$TMP/bad/xtm_regs.toml"
}

# 1. The generated files in the tree are up to date.
if "${REGTOOL[@]}" "$TOML" --sv-out "$ROOT/rtl/xtm/autogen" --c-out "$ROOT/rtl/xtm/autogen" \
  --doc-out "$ROOT/docs/registers.md" --check >"$TMP/log" 2>&1 &&
  grep -q "regs-check: 7 files up to date" "$TMP/log"; then
  pass check_tree
else
  fail check_tree "$(tail -3 "$TMP/log")"
fi

# 2. Two generations are byte-identical (no timestamps or paths leak in).
regtool "$TOML" "$TMP/gen1" && regtool "$TOML" "$TMP/gen2"
if diff -r "$TMP/gen1" "$TMP/gen2" >/dev/null; then
  pass deterministic
else
  fail deterministic "two runs differ"
fi

# 3. --check detects a hand edit of a copy of the generated files (exit 1 with a diff).
mkdir -p "$TMP/copy"
cp "$ROOT/rtl/xtm/autogen/xtm_reg_pkg.sv" "$ROOT/rtl/xtm/autogen/xtm_csr_dec.sv" \
  "$ROOT/rtl/xtm/autogen/xtm_regs.h" "$ROOT/rtl/xtm/autogen/xtm_regs_table.c" \
  "$ROOT/rtl/xtm/autogen/xtm_csr_edges.h" "$ROOT/rtl/xtm/autogen/xtm_fcov_points.tsv" \
  "$ROOT/docs/registers.md" "$TMP/copy/"
regtool "$TOML" "$TMP/copy" --check
rc_clean=$?
sed -i 's/^#define XTM_REG_COUNT .*/#define XTM_REG_COUNT 1u/' "$TMP/copy/xtm_regs.h"
regtool "$TOML" "$TMP/copy" --check
rc_dirty=$?
if [[ $rc_clean -eq 0 && $rc_dirty -eq 1 ]] && grep -q '^-#define XTM_REG_COUNT 1u' "$TMP/log" &&
  grep -q "regs-check: 1 of 7 files out of date" "$TMP/log"; then
  pass check_drift
else
  fail check_drift "clean copy exit $rc_clean (want 0), edited copy exit $rc_dirty (want 1)"
fi

# 3a. ... and a hand edit of the csr_edges stimulus table (issue 21): a dropped edge row.
cp "$ROOT/rtl/xtm/autogen/xtm_regs.h" "$TMP/copy/xtm_regs.h"
sed -i '0,/MAX_FRAME.BYTES/{/MAX_FRAME.BYTES/d}' "$TMP/copy/xtm_csr_edges.h"
regtool "$TOML" "$TMP/copy" --check
rc_edges=$?
if [[ $rc_edges -eq 1 ]] && grep -q '^+  { .*MAX_FRAME.BYTES' "$TMP/log" &&
  grep -q "regs-check: 1 of 7 files out of date" "$TMP/log"; then
  pass check_drift_edges
else
  fail check_drift_edges "edited edge table: exit $rc_edges (want 1)"
fi

# 3c. ... and a hand edit of the generated coverage points (issue 21): a width point dropped
# from the TSV tools/regress reads, and a TOML cov mark removed (its point and table row go).
cp "$ROOT/rtl/xtm/autogen/xtm_csr_edges.h" "$TMP/copy/xtm_csr_edges.h"
sed -i '/^width_POOL_USED_CELLS_top/d' "$TMP/copy/xtm_fcov_points.tsv"
regtool "$TOML" "$TMP/copy" --check
rc_fcov=$?
if [[ $rc_fcov -eq 1 ]] && grep -q '^+width_POOL_USED_CELLS_top' "$TMP/log" &&
  grep -q "regs-check: 1 of 7 files out of date" "$TMP/log"; then
  pass check_drift_fcov
else
  fail check_drift_fcov "edited coverage points: exit $rc_fcov (want 1)"
fi
mkdir -p "$TMP/nocov"
awk '/^name = "POOL_USED"$/ {print; getline; if ($0 ~ /^cov = /) next} {print}' "$TOML" >"$TMP/nocov/xtm_regs.toml"
regtool "$TMP/nocov/xtm_regs.toml" "$TMP/nocov"
if ! grep -q 'width_POOL_USED_CELLS_top' "$TMP/nocov/xtm_fcov_points.tsv" "$TMP/nocov/xtm_csr_edges.h" &&
  grep -q 'width_OCB_USED_CELLS_top' "$TMP/nocov/xtm_fcov_points.tsv" &&
  grep -q '"width_OCB_USED_CELLS_top"' "$TMP/nocov/xtm_csr_edges.h"; then
  pass cov_from_toml
else
  fail cov_from_toml "removing POOL_USED's cov mark did not remove exactly its point"
fi

# 3b. The generated CSR decoder of every block elaborates lint-clean (Verilator -Wall) with
# its package, and a decoder whose legal-range check was edited away no longer matches.
for toml in "$ROOT"/rtl/*/data/*_regs.toml; do
  blk=$(basename "$toml" _regs.toml)
  dir="$ROOT/rtl/$blk/autogen"
  if verilator --lint-only -Wall "$ROOT/rtl/lint/xtm.vlt" "$dir/${blk}_reg_pkg.sv" "$dir/${blk}_csr_dec.sv" \
    --top-module "${blk}_csr_dec" >"$TMP/lint.log" 2>&1; then
    pass "decoder_lint_$blk"
  else
    fail "decoder_lint_$blk" "$(head -3 "$TMP/lint.log")"
  fi
done
mkdir -p "$TMP/copy2"
cp "$ROOT/rtl/xtm/autogen/"* "$ROOT/docs/registers.md" "$TMP/copy2/"
sed -i '0,/dec_o.legal = 32/s/dec_o.legal = 32/dec_o.legal = 1 || 32/' "$TMP/copy2/xtm_csr_dec.sv"
regtool "$TOML" "$TMP/copy2" --check
if [[ $? -eq 1 ]] && grep -q "xtm_csr_dec.sv" "$TMP/log"; then
  pass decoder_drift
else
  fail decoder_drift "an edited decoder was not reported: $(tail -2 "$TMP/log")"
fi

# 4. Overlapping offsets.
write_bad <<'EOF'
[[reg]]
name = "CLASH"
offset = 0x0000
swaccess = "ro"
fields = [{ name = "VALUE", bits = "0", resval = 0 }]
EOF
expect_invalid invalid_overlap "xtm_regs.toml: CLASH: offset 0x0000 (CLASH) overlaps GOOD"

# 5. A field beyond bit 31.
write_bad <<'EOF'
[[reg]]
name = "WIDE"
offset = 0x0004
swaccess = "rw"
fields = [{ name = "VALUE", bits = "32:0", resval = 0 }]
EOF
expect_invalid invalid_wide_field \
  "xtm_regs.toml: WIDE: field VALUE: bits 32:0 exceed the 32-bit register"

# 6. A reset value that does not fit its field.
write_bad <<'EOF'
[[reg]]
name = "BIG"
offset = 0x0004
swaccess = "rw"
fields = [{ name = "VALUE", bits = "3:0", resval = 16 }]
EOF
expect_invalid invalid_resval "xtm_regs.toml: BIG: field VALUE: resval 0x10 does not fit in 4 bits"

# 7. A cov mark that does not fit its register (issue 21).
write_bad <<'EOF'
[[reg]]
name = "NOTCNT"
offset = 0x0004
swaccess = "ro"
cov = "carry"
fields = [{ name = "VALUE", bits = "3:0", resval = 0 }]
EOF
expect_invalid invalid_cov_carry 'xtm_regs.toml: NOTCNT: cov = "carry" needs counter = true'
write_bad <<'EOF'
[[reg]]
name = "BADCOV"
offset = 0x0004
swaccess = "ro"
cov = "max"
fields = [{ name = "VALUE", bits = "3:0", resval = 0 }]
EOF
expect_invalid invalid_cov_kind "xtm_regs.toml: BADCOV: cov 'max' is not one of top|carry"

if [[ $failures -ne 0 ]]; then
  echo "$failures case(s) failed"
  exit 1
fi
