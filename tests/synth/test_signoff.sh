#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The sign-off flow end to end on a toy design (tests/synth/synth_toy.sv, a few seconds per
# step), and the negative tests of its checkers. Prints PASS/FAIL lines (tools/run-tests
# --shell). Run by make test and make synth-selftest. Output in build/synth/selftest/.
#   lib2v-models        the Liberty-derived cell models equal the vendor's (Icarus, all cells)
#   lib2v-negative      a model with one wrong function or flip-flop preset must be caught
#   toy-synth           Yosys to the OSU cells (the parameter set through the flow's chparam):
#                       no latches, declared = built flip-flop bits (including the registers
#                       of a generate loop's instances), 2 RAM macros (256 bits), a netlist
#   toy-sta             OpenSTA: FO4 from the tables and from a chain agree, a worst slack
#   toy-gls-gates       mapped netlist (cell models, behavioural RAMs) vs RTL, every output
#                       every cycle, 20000 cycles, two seeds
#   toy-gls-coarse      Yosys' word-level netlist (simlib.v) vs RTL, same
#   neg-latch           a copy with an incomplete always_comb must fail synthesis
#   neg-misread         a copy whose array is declared [13:2] and read by a part-select of
#                       an element (Yosys 0.23 warns "out of bounds", makes undef bits) must
#                       fail synthesis
#   neg-struct-ffcheck  a copy whose FIFO is an unpacked array of a package struct (the
#                       Yosys 0.23 bug class) must fail the flip-flop check
#   neg-struct-gls      the same copy synthesized anyway (--skip-ffcheck) must fail the
#                       netlist-vs-RTL lockstep
#   iverilog-report     every rejection of the RTL by Icarus is a listed construct
#   neg-fill-check      a copy with wmask_i('1) on a RAM macro must fail synthesis (Yosys
#                       0.23 sizes the fill as 1'b1, zero-extended)
#   neg-fill-gls        the same copy synthesized anyway must fail the lockstep
#   neg-iverilog        a file with a construct the report does not list (`let`) must fail it
set -u
cd "$(dirname "$0")/../.."
LIB=${SIGNOFF_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
VENDOR=${SIGNOFF_VENDOR_V:-/usr/share/qflow/tech/osu018/osu018_stdcells.v}
OUT=build/synth/selftest
SIMLIB=$(yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/simlib.v
RAMS="rtl/common/xtm_ram_1r1w.sv rtl/common/xtm_ram_2p.sv"
rm -rf "$OUT"
mkdir -p "$OUT"
nfail=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; nfail=$((nfail + 1)); shift; [ $# -gt 0 ] && tail -30 "$@"; }

cat > "$OUT/toy.sdc" <<'EOF'
create_clock -name clk_i -period 1.000 [get_ports clk_i]
set_false_path -from [get_ports rst_ni]
set ins [all_inputs]
foreach p [list [get_ports clk_i] [get_ports rst_ni]] {
  set k [lsearch $ins $p]
  set ins [lreplace $ins $k $k]
}
set_input_delay -clock clk_i 0.2 $ins
set_output_delay -clock clk_i 0.2 [all_outputs]
EOF

# ---- cell models
CELLS=$OUT/osu018_cells.v
if tools/synth/lib2v.py "$LIB" "$CELLS" --check "$VENDOR" > "$OUT/lib2v.log" 2>&1; then
  pass "lib2v-models ($(grep -c ^PASS "$OUT/lib2v.log") cells equal the vendor's models)"
else
  fail lib2v-models "$OUT/lib2v.log"
fi
cp "$CELLS" "$OUT/cells_mut.v"
sed -i '/^module OAI21X1 /,/^endmodule/s/assign Y = (~((A | B) \& C));/assign Y = (~((A | B) | C));/' "$OUT/cells_mut.v"
sed -i "/^module DFFSR /,/^endmodule/s/else if ((~S)) P0002 <= 1'b1;/else if ((~S)) P0002 <= 1'b0;/" "$OUT/cells_mut.v"
if cmp -s "$CELLS" "$OUT/cells_mut.v"; then
  fail "lib2v-negative (the mutation did not apply)"
else
  tools/synth/lib2v.py "$LIB" "$OUT/cells_mut.v" --check "$VENDOR" --no-generate > "$OUT/lib2v_mut.log" 2>&1
  if grep -q '^FAIL lib2v-OAI21X1' "$OUT/lib2v_mut.log" && grep -q '^FAIL lib2v-DFFSR' "$OUT/lib2v_mut.log"; then
    pass "lib2v-negative (wrong OAI21X1 function and DFFSR preset caught)"
  else
    fail lib2v-negative "$OUT/lib2v_mut.log"
  fi
fi

# ---- synthesis
synth() {  # synth <name> <filelist> [extra args]
  local n=$1 f=$2
  shift 2
  tools/synth/synth.py --block "$n" --top synth_toy --filelist "$f" --liberty "$LIB" \
    --param Depth=4 --out "$OUT/$n" --abc-delay-ps 1000 "$@" > "$OUT/$n.log" 2>&1
}
if synth toy tests/synth/synth_toy.f && grep -q '^ffcheck: PASS' "$OUT/toy/ffcheck.txt" &&
   grep -q '^ram_bits: 256$' "$OUT/toy/summary.txt" && grep -q '^latches: 0$' "$OUT/toy/summary.txt" &&
   [ -s "$OUT/toy/gates.v" ]; then
  pass "toy-synth ($(grep -E '^(cells|area_um2|flip_flops|ff_declared):' "$OUT/toy/summary.txt" | tr '\n' ' '))"
else
  fail toy-synth "$OUT/toy.log"
fi
# the module-by-module back end with ABC's fast script in two Yosys processes (make
# synth-xtm's SYNTH_OPTS_xtm); its netlist goes through the lockstep below too
if synth toyhier tests/synth/synth_toy.f --hier --abc-fast --jobs 2 &&
   grep -q 'back end group 1:' "$OUT/toyhier.log" &&
   grep -q '^ffcheck: PASS' "$OUT/toyhier/ffcheck.txt" && grep -q '^latches: 0$' "$OUT/toyhier/summary.txt" &&
   grep -q '^ram_bits: 256$' "$OUT/toyhier/summary.txt" && [ -s "$OUT/toyhier/cells_hier.stat" ] &&
   ! grep -q '^module synth_toy_cnt' "$OUT/toyhier/gates.v"; then
  pass "toy-synth-hier ($(grep -E '^(cells|area_um2|flip_flops):' "$OUT/toyhier/summary.txt" | tr '\n' ' ')flattened after mapping)"
else
  fail toy-synth-hier "$OUT/toyhier.log"
fi

# ---- static timing
if tools/synth/sta.py --dir "$OUT/toy" --top synth_toy --sdc "$OUT/toy.sdc" --liberty "$LIB" \
     > "$OUT/sta.log" 2>&1 && grep -q '^worst_slack_ns: ' "$OUT/sta.log"; then
  pass "toy-sta ($(grep -E '^(fo4_ns|fo4_sta_ns|worst_slack_ns|critical_path_fo4|max_transition_violations):' "$OUT/sta.log" | tr '\n' ' '))"
else
  fail toy-sta "$OUT/sta.log"
fi

# ---- netlist against RTL, in lockstep
VFLAGS="--cc --build -j 2 -Wno-fatal -Wno-lint -Wno-style -Wno-MULTIDRIVEN --x-assign unique --x-initial unique -Irtl/common --top-module synth_toy"
rtl_model() {  # rtl_model <dir> <filelist>
  verilator $VFLAGS --prefix Vrtl -Mdir "$1/vrtl" $(cat "$2") $RAMS > "$1/vrtl.log" 2>&1
}
gls_model() {  # gls_model <dir> <netlist files...>: links the lockstep harness
  local d=$1
  shift
  verilator $VFLAGS --exe --prefix Vgls -Mdir "$d/vgls" -o toy_tb \
    -CFLAGS "-std=c++17 -O1 -I$PWD/$d/vrtl" -LDFLAGS "$PWD/$d/vrtl/Vrtl__ALL.a" \
    "$@" $RAMS "$PWD/tests/synth/synth_toy_tb.cpp" > "$d/vgls.log" 2>&1
}
lockstep() {  # lockstep <name> <dir>: two seeds
  local ok=1
  for s in 1 2; do
    "$2/vgls/toy_tb" $s 20000 > "$2/run.$s.log" 2>&1 || ok=0
  done
  if [ $ok = 1 ]; then pass "$1 (seeds 1 2, 20000 cycles each, every output every cycle)"
  else fail "$1" "$2/run.1.log" "$2/run.2.log"; fi
}
if rtl_model "$OUT/toy" tests/synth/synth_toy.f; then
  if gls_model "$OUT/toy" "$OUT/toy/gates.v" "$CELLS"; then lockstep toy-gls-gates "$OUT/toy"
  else fail "toy-gls-gates (build)" "$OUT/toy/vgls.log"; fi
  mkdir -p "$OUT/toy-coarse"
  cp -r "$OUT/toy/vrtl" "$OUT/toy-coarse/"
  if gls_model "$OUT/toy-coarse" "$OUT/toy/coarse.v" "$SIMLIB"; then lockstep toy-gls-coarse "$OUT/toy-coarse"
  else fail "toy-gls-coarse (build)" "$OUT/toy-coarse/vgls.log"; fi
  mkdir -p "$OUT/toyhier-gls"
  cp -r "$OUT/toy/vrtl" "$OUT/toyhier-gls/"
  if gls_model "$OUT/toyhier-gls" "$OUT/toyhier/gates.v" "$CELLS"; then lockstep toy-gls-hier-jobs "$OUT/toyhier-gls"
  else fail "toy-gls-hier-jobs (build)" "$OUT/toyhier-gls/vgls.log"; fi
else
  fail "toy-gls (RTL build)" "$OUT/toy/vrtl.log"
fi

# ---- negative tests: mutants of the design that the flow must reject
mutant() {  # mutant <name> <sed expression>: a copy of the toy with one change
  local d=$OUT/$1/src
  mkdir -p "$d"
  cp tests/synth/synth_toy_pkg.sv "$d/"
  sed "$2" tests/synth/synth_toy.sv > "$d/synth_toy.sv"
  printf '%s\n%s\n' "$d/synth_toy_pkg.sv" "$d/synth_toy.sv" > "$d/toy.f"
  ! cmp -s tests/synth/synth_toy.sv "$d/synth_toy.sv"
}
neg_gls() {  # neg_gls <mutant> <synth flag that lets it through> <what the netlist does>:
  # the mutant synthesized anyway must fail the netlist-vs-RTL lockstep with a mismatch
  local n=$1 d=$OUT/$1
  if synth "$n" "$d/src/toy.f" "$2" && rtl_model "$d" "$d/src/toy.f" &&
     gls_model "$d" "$d/gates.v" "$CELLS"; then
    if "$d/vgls/toy_tb" 1 20000 > "$d/run.log" 2>&1; then
      fail "neg-$n-gls (the netlist $3 matched the RTL)" "$d/run.log"
    elif grep -q '^FAILURE: netlist mismatch' "$d/run.log"; then
      pass "neg-$n-gls ($(grep -m1 '^FAILURE' "$d/run.log" | cut -c10-))"
    else
      fail "neg-$n-gls (failed, but not by a mismatch)" "$d/run.log"
    fi
  else
    fail "neg-$n-gls (build)" "$OUT/$n.log" "$d/vgls.log"
  fi
}
if ! mutant latch '/^    st_d = st_q;$/d'; then
  fail "neg-latch (the mutation did not apply)"
elif synth latch "$OUT/latch/src/toy.f"; then
  fail "neg-latch (an always_comb without its default synthesized)" "$OUT/latch.log"
elif grep -q 'latch' "$OUT/latch.log"; then
  pass "neg-latch (synthesis fails on the latch)"
else
  fail "neg-latch (failed, but not on the latch)" "$OUT/latch.log"
fi
if ! mutant misread 's/^  logic \[11:0\] fifo_q \[Depth\];$/  logic [13:2] fifo_q [Depth];/; s/^  assign head = fifo_q\[rd_q\];$/  assign head = fifo_q[rd_q][13:2];/'; then
  fail "neg-misread (the mutation did not apply)"
elif synth misread "$OUT/misread/src/toy.f"; then
  fail "neg-misread (a part-select Yosys reads as undef bits synthesized)" "$OUT/misread.log"
elif grep -q 'Yosys misread the RTL' "$OUT/misread.log"; then
  pass "neg-misread (synthesis fails on Yosys' out-of-bounds reading)"
else
  fail "neg-misread (failed, but not on the misreading)" "$OUT/misread.log"
fi
if ! mutant struct 's/^  logic \[11:0\] fifo_q \[Depth\];$/  synth_toy_pkg::rec_t fifo_q [Depth];/'; then
  fail "neg-struct (the mutation did not apply)"
else
  if synth struct "$OUT/struct/src/toy.f"; then
    fail "neg-struct-ffcheck (the unpacked array of a package struct passed)" "$OUT/struct.log"
  elif grep -q 'fifo_q: declared 48, built 12' "$OUT/struct/ffcheck.txt"; then
    pass "neg-struct-ffcheck (fifo_q: declared 48, built 12)"
  else
    fail "neg-struct-ffcheck (failed, but not on fifo_q)" "$OUT/struct.log"
  fi
  neg_gls struct --skip-ffcheck 'with a one-entry FIFO'
fi
# an unbased unsized fill on a RAM macro port: Yosys 0.23 sizes wmask_i('1) as 1'b1 and
# zero-extends it, so the netlist's RAM writes bit 0 only; synth.py refuses it, and the
# netlist synthesized anyway must fail the lockstep
if ! mutant fill "s/\.wmask_i(8'hff)/.wmask_i('1)/"; then
  fail "neg-fill (the mutation did not apply)"
else
  if synth fill "$OUT/fill/src/toy.f"; then
    fail "neg-fill-check (a '1 on a RAM macro port passed)" "$OUT/fill.log"
  elif grep -q "port wmask_i connected to '1" "$OUT/fill.log"; then
    pass "neg-fill-check (synth.py refuses wmask_i('1) on xtm_ram_1r1w)"
  else
    fail "neg-fill-check (failed, but not on the fill literal)" "$OUT/fill.log"
  fi
  neg_gls fill --allow-unsized-fill 'writing bit 0 only'
fi
# ---- the Icarus portability report and its negative test
if tools/synth/iverilog_report.py --out "$OUT/iverilog.txt" > "$OUT/iverilog.log" 2>&1; then
  pass "iverilog-report ($(grep '^units:' "$OUT/iverilog.txt"))"
else
  fail iverilog-report "$OUT/iverilog.log"
fi
printf 'module synth_let (input wire logic [3:0] x_i, output logic [3:0] y_o);\n  let inc(a) = a + 4%sd1;\n  assign y_o = inc(x_i);\nendmodule\n' "'" > "$OUT/synth_let.sv"
if tools/synth/iverilog_report.py --out "$OUT/iverilog_neg.txt" --extra "$OUT/synth_let.sv" > "$OUT/iverilog_neg.log" 2>&1; then
  fail "neg-iverilog (an unlisted construct passed the report)" "$OUT/iverilog_neg.log"
elif grep -q 'synth_let.*UNKNOWN' "$OUT/iverilog_neg.txt"; then
  pass "neg-iverilog (the unlisted 'let' construct fails the report)"
else
  fail "neg-iverilog (failed, but not on the new file)" "$OUT/iverilog_neg.log"
fi
exit $((nfail > 0))
