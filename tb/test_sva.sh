#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make sva / make sva-dcqcn (part of make mutate): negative tests of the bound assertions
# (rtl/xtm/xtm_sva.sv, rtl/dcqcn/dcqcn_sva.sv) and, for xtm, of the blocks' own assertions
# (the RAM wrappers, the FIFO of rtl/common, the buffer manager). Injects a fault into a
# copy of the RTL, builds the co-simulation (as tools/mutate-rtl and tools/mutate-dcqcn
# do), runs one directed test past the co-sim mismatches and expects the named
# assertion(s) to fire: proof that the checker is bound and can fail. Prints PASS/FAIL per
# fault and exits non-zero on any FAIL.
#   tb/test_sva.sh xtm|dcqcn [NAME...]
#   tb/test_sva.sh xtm --check   no build: every fault applies to exactly one line, and every
#                                assertion of the xtm sources has a fault that must fire it
#   tb/test_sva.sh xtm --list    the xtm fault names
# The xtm run first runs every test it uses on the unmutated RTL: no assertion may fire
# there. A full xtm run (no NAME) ends by checking that every assertion did fire.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
block=${1:-}
shift || true
case $block in
  xtm) target=sim/build/small/Vxtm_top; opt=VL_OPT=-O0
       libs="build/lib/libxtm.a build/lib/libxtmfw.a build/lib/libdcqcn.a" ;;
  dcqcn) target=sim/build/dcqcn/Vdcqcn_top; opt=DCQCN_COPT=-O1
         libs="build/lib/libdcqcn.a build/lib/libxtmnum.a" ;;
  *) echo "usage: tb/test_sva.sh xtm|dcqcn [NAME...]"; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

want=("$@")
fail=0
cd "$top" || exit 2
# shellcheck disable=SC2086
make -s $libs >/dev/null || exit 2

# fault NAME FILE TEST ASSERTION SED: inject SED into FILE, run TEST, expect ASSERTION
fault() {
  local name=$1 file=$2 test=$3 assertion=$4 expr=$5 out
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then
    return
  fi
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  tar cf - --exclude=./build --exclude=./.git --exclude=./sim/build --exclude=./sim/out . |
    (cd "$work/tree" && tar xf -)
  mkdir -p "$work/tree/build/lib"
  # shellcheck disable=SC2086
  cp $libs "$work/tree/build/lib/"
  touch "$work/tree/build/.deps-ok"
  sed -i "$expr" "$work/tree/$file"
  if cmp -s "$file" "$work/tree/$file"; then
    echo "FAIL sva-$name: the fault did not apply to $file (stale pattern)"; fail=1; return
  fi
  local olibs=()
  for l in $libs; do olibs+=(-o "$l"); done
  if ! make -s -C "$work/tree" "${olibs[@]}" "$opt" "$target" >"$work/build.log" 2>&1; then
    echo "FAIL sva-$name: does not build"; tail -5 "$work/build.log"; fail=1; return
  fi
  out=$(cd "$work/tree" && SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
        "$target" +test="$test" +seed=1 +max_errors=1000000 2>&1)
  if grep -q "ASSERT FAILED.*$assertion" <<<"$out" &&
     grep -q "FAILURE: RTL assertion failed" <<<"$out"; then
    echo "PASS sva-$name: $(grep -m1 "ASSERT FAILED" <<<"$out")"
  else
    echo "FAIL sva-$name: $assertion did not fire in $test.1"
    grep -m3 "ASSERT FAILED\|FAILURE" <<<"$out"
    fail=1
  fi
}

if [ "$block" = xtm ]; then
  x=rtl/xtm
  c=rtl/common
  # name | file | test | assertions that must fire (file:name, space-separated) | sed
  # expression (must change exactly one line of the file). The assertion's file is where
  # it is written; a RAM wrapper's or the FIFO's check fires in the instance named below.
  xfaults=(
    # ---- xtm_sva.sv (bound into xtm_core)
    # buffer (xtm_bufmgr): an accepted OCB enqueue not added to the OCB count
    "ocb-uncounted|$x/xtm_bufmgr.sv|smoke|xtm_sva.sv:OcbPlusHbmIsPool_A|s/ocb_q <= ocb_q + (adm_i.acc \&\& !adm_i.hbm ? ec : '0)/ocb_q <= ocb_q/"
    # queue manager (xtm_qmgr): an HBM placement not added to its VOQ's HBM cells
    "hbm-voq-uncounted|$x/xtm_qmgr.sv|hbm|xtm_sva.sv:HbmIsSumOfVoqs_A|s/hbmc_ve = hbmc_q\[ve\] + (adm_i.hbm ? enq_cells : '0);/hbmc_ve = hbmc_q[ve];/"
    # PG accounting (xtm_pfc_tx): an arrival at a PG that also loses a packet in the cycle
    # is left out of the PG's cells: the PGs no longer add up to the pool
    "pg-cells-same|$x/xtm_pfc_tx.sv|counters|xtm_sva.sv:PgSumIsPool_A|s/cl_d = cl_d + ec;/cl_d = cl_d;/"
    # free descriptors (xtm_bufmgr): a flushed packet's descriptor is not counted free again
    "desc-flush-lost|$x/xtm_bufmgr.sv|counters|xtm_sva.sv:DescConserved_A|s/free_q <= free_q + DescCntW'(deq_i.valid) - DescCntW'(adm_i.acc);/free_q <= free_q + DescCntW'(deq_i.valid \&\& !deq_i.flush) - DescCntW'(adm_i.acc);/"
    # queue manager (xtm_qmgr): an arrival at a VOQ that also loses a packet in the cycle is
    # left out of the VOQ's occupancy: the VOQs no longer add up to the pool
    "voq-occ-same|$x/xtm_qmgr.sv|counters|xtm_sva.sv:PoolIsSumOfVoqs_A|s/occ_vd = occ_q\[vd\] - rm_cells + (same ? enq_cells : '0);/occ_vd = occ_q[vd] - rm_cells;/"
    # headroom (xtm_pfc_tx): a removal does not drain the PG's headroom first
    "hdrm-not-drained|$x/xtm_pfc_tx.sv|pfc_gen|xtm_sva.sv:HdrmWithinPg_A|s/hu_d = hused_q\[gd\] - ((hused_q\[gd\] < dc) ? hused_q\[gd\] : dc);/hu_d = hused_q[gd];/"
    # PFC generation (xtm_pfc_tx): the static XOFF compare 8 cells late
    "xoff-late|$x/xtm_pfc_tx.sv|pfc_gen|xtm_sva.sv:XoffWhenAboveThreshold_A|s/if (gcfg_q\[g\]\[0\] \&\& !xoff_q\[g\] \&\& cells_q\[g\] >= xoff_t) begin/if (gcfg_q[g][0] \&\& !xoff_q[g] \&\& cells_q[g] >= xoff_t + 28'd8) begin/"
    # egress (xtm_egress): a port with FifoDepth packets after its transmission still has room
    "fifo-overfill|$x/xtm_egress.sv|strict_arb|xtm_sva.sv:FifoWithinDepth_A|s/room_o = ~full_q | out_v;/room_o = '1;/"
    # policers (xtm_police): the refill not clamped at the burst
    "pol-unclamped|$x/xtm_police.sv|police_burst|xtm_sva.sv:PolTokWithinBurst_A|s/      tok4_d = (sum > 65'(burst3)) ? burst3 : sum\[39:0\];/      tok4_d = sum[39:0];/"
    # an arrival that is not classified (NOT_READY during the sweep) policed all the same: the
    # stage-1 flag, so the map row is read (P_POL_MAP, written during the sweep, polices it);
    # a fault at stage 2 alone read a row the RAM was not asked for (its power-up value decided)
    "pol-in-init|$x/xtm_top.sv|police_reconfig|xtm_sva.sv:PolNoCommitInInit_A|s/    .cls1_i    (req1.cls),/    .cls1_i    (req1.valid),/"
    # ---- rtl/common/xtm_ram_1r1w.sv
    # qmgr u_link: the head cache refills from the link RAM of a VOQ with 2 packets too,
    # reading the link row of the tail, which was never written
    "link-read-unwritten|$x/xtm_qmgr.sv|counters|xtm_ram_1r1w.sv:RamReadUnwritten_A|s/lr_d = rm_i \&\& n_d >= PktW'(3);/lr_d = rm_i \&\& n_d >= PktW'(2);/"
    # qmgr u_payload: the descriptor a removal frees is handed to an arrival in the same
    # cycle (spec 15.3: only in the next one), so its payload row is written while read.
    # Needs an arrival accepted from the free-list FIFO in a removal's cycle: counters has
    # one at physical cycle 422; smoke (131 packets) and incast (the pool full, free_q = 0,
    # whenever a removal frees one) have none, the fault changes nothing there
    "desc-reuse-same-cycle|$x/xtm_bufmgr.sv|counters|xtm_ram_1r1w.sv:RamRdWrSameRow_A|s/assign alloc_o = from_bump ? DescIdxW'(bump_q) : fifo_head;/assign alloc_o = from_bump ? DescIdxW'(bump_q) : (deq_i.valid ? DescIdxW'(deq_i.desc) : fifo_head);/"
    # qmgr u_payload: the payload RAM one row short of the descriptor pool
    "payload-row-short|$x/xtm_qmgr.sv|smoke|xtm_ram_1r1w.sv:RamAddrInRange_A|/\.Width(PW),/{n;s/\.Depth(NumDesc)/.Depth(NumDesc - 1)/}"
    # ---- rtl/common/xtm_ram_2p.sv (voqcfg u_copy_a, the only 2-port RAM)
    # one row short of the VOQs: the initialisation sweep writes past it
    "cfg-row-short|$x/xtm_voqcfg.sv|smoke|xtm_ram_2p.sv:RamAddrInRange_A|/\.Width(AW),/{n;s/\.Depth(NumVoqs),/.Depth(NumVoqs - 1),/}"
    # copy A relies on read-first (an enqueue reads S(t) while a CSR write of t lands); the
    # instance declared without it, as for a macro that does not guarantee read-first
    "cfg-read-first-undeclared|$x/xtm_voqcfg.sv|reconfig|xtm_ram_2p.sv:RamRdWrSameRow_A|/\.Width(AW),/,/AllowRdWrSame/s/\.AllowRdWrSame(1'b1)/.AllowRdWrSame(1'b0)/"
    # port A (the enqueue's read port) also writes: two writers of one row in a cycle
    "cfg-two-writers|$x/xtm_voqcfg.sv|reconfig|xtm_ram_2p.sv:RamWrWrSameRow_A|s/\.a_we_i   (1'b0),/.a_we_i   (enq_rd_i),/"
    # the initialisation sweep stops one VOQ short: that VOQ's row is read unwritten by the
    # enqueue path (strict_arb sends to it unconfigured; csr_all writes before it reads, and
    # fired only while a CSR stage held a stale read that the gated op1 of issue 11 no longer has)
    "cfg-sweep-short|$x/xtm_voqcfg.sv|strict_arb|xtm_ram_2p.sv:RamReadUnwritten_A|s/assign sweep1 = t1_i < 64'(NumVoqs);/assign sweep1 = t1_i < 64'(NumVoqs - 1);/"
    # ---- rtl/common/xtm_ram_2r1w.sv
    # watchdog rows (xtm_wd u_rows) one row short of the ports
    "wd-row-short|$x/xtm_wd.sv|smoke|xtm_ram_2r1w.sv:RamAddrInRange_A|s/\.Depth(NumPorts),/.Depth(NumPorts - 1),/"
    # enqueue counters (xtm_stats_voq u_enq) rely on forwarding the row written last cycle;
    # the instance declared without it (back-to-back arrivals read the row being written)
    "cnt-forward-undeclared|$x/xtm_stats_voq.sv|counters|xtm_ram_2r1w.sv:RamRdWrSameRow_A|/\.Width(64\*EN),/,/AllowRdWrSame/s/\.AllowRdWrSame(1'b1),/.AllowRdWrSame(1'b0),/"
    # watchdog rows not initialised by the INIT sweep: the first visit reads them unwritten
    # (a test that polls: the rows are read only in the cycle before a visit, and smoke
    # keeps the reset poll interval of 10^8 cycles)
    "wd-sweep-skipped|$x/xtm_wd.sv|watchdog_drop|xtm_ram_2r1w.sv:RamReadUnwritten_A|s/\.we_i     (init_sweep || visit),/.we_i     (visit),/"
    # ---- rtl/common/xtm_fifo.sv (bufmgr u_free, the free-descriptor FIFO)
    # an allocation from the bump pointer pops the (empty) FIFO too
    "free-pop-while-bump|$x/xtm_bufmgr.sv|smoke|xtm_fifo.sv:FifoPopEmpty_A|s/\.pop_i      (adm_i.acc \&\& !from_bump),/.pop_i      (adm_i.acc),/"
    # the FIFO sized for half the descriptors: freeing more overflows its RAM (a push
    # without a pop then also exceeds its capacity)
    "free-fifo-half|$x/xtm_bufmgr.sv|smoke|xtm_fifo.sv:FifoRamOverflow_A xtm_fifo.sv:FifoPushFull_A|s/\.Depth(NumDesc)\$/.Depth(NumDesc \/ 2)/"
    # ---- xtm_bufmgr.sv
    # the bump pointer stops one descriptor early: free_q counts one the FIFO never holds
    "free-bump-short|$x/xtm_bufmgr.sv|tail_pool,incast,random|xtm_bufmgr.sv:FreeFifoHeadMissing_A|s/assign from_bump = 32'(bump_q) < NumDesc;/assign from_bump = 32'(bump_q) < NumDesc - 1;/"
    # the admission is told a descriptor is free when none is
    "desc-avail-always|$x/xtm_bufmgr.sv|tail_pool,incast,random|xtm_bufmgr.sv:AllocWithoutFree_A|s/assign desc_avail_o = free_q != '0;/assign desc_avail_o = 1'b1;/"
  )
  # assertions no fault can fire under Verilator: it is two-state (--x-assign/--x-initial
  # unique turn every X into a value), so $isunknown() of a signal is constant 0. They only
  # guard a four-state simulator. Reported, not counted as failures.
  untestable=(xtm_sva.sv:DeqValidKnown_A xtm_sva.sv:PfcValidKnown_A
              xtm_sva.sv:EnqResValidKnown_A xtm_sva.sv:FlushValidKnown_A)
  untestable_why="Verilator is two-state: \$isunknown() of a signal never holds"

  xmode=run
  case ${want[0]:-} in
    --check) xmode=check; want=("${want[@]:1}") ;;
    --list) for f in "${xfaults[@]}"; do echo "${f%%|*}"; done; exit 0 ;;
  esac
  for w in "${want[@]}"; do
    ok=0
    for f in "${xfaults[@]}"; do [ "${f%%|*}" = "$w" ] && ok=1; done
    [ $ok = 1 ] || { echo "tb/test_sva.sh: no xtm fault named $w (--list)"; exit 2; }
  done

  # every assertion of the xtm sources, as file:name (concurrent ones and the immediate
  # checks that print "[ASSERT FAILED] %m: name")
  inventory=()
  for f in $(cat $x/xtm.f) $x/xtm_sva.sv $x/xtm_bind.sv; do
    while read -r n; do inventory+=("$(basename "$f"):$n"); done < <(
      { grep -oE '`ASSERT[A-Z_]*\([[:space:]]*[A-Za-z0-9_]+' "$f" | sed 's/.*(\s*//'
        grep -oE 'ASSERT FAILED\] %m: [A-Za-z0-9_]+' "$f" | sed 's/.*: //'; } | sort -u)
  done
  in_list() { local k=$1; shift; [[ " $* " == *" $k "* ]]; }

  # the static part: patterns and the assertion map (also what --check does)
  expected=()
  for f in "${xfaults[@]}"; do
    IFS='|' read -r name file test asserts expr <<<"$f"
    if [ ${#want[@]} -gt 0 ] && ! in_list "$name" "${want[@]}"; then continue; fi
    sed "$expr" "$file" >"$work/chk" 2>/dev/null || { echo "FAIL sva-$name: bad sed expression"; fail=1; continue; }
    n=$(diff "$file" "$work/chk" | grep -c '^>')
    if [ "$n" -ne 1 ]; then
      echo "FAIL sva-$name: the fault changes $n lines of $file (stale or ambiguous pattern)"; fail=1
    fi
    for a in $asserts; do
      expected+=("$a")
      in_list "$a" "${inventory[@]}" || { echo "FAIL sva-$name: no assertion $a in the xtm sources"; fail=1; }
    done
  done
  for u in "${untestable[@]}"; do
    in_list "$u" "${inventory[@]}" || { echo "FAIL sva: $u (untestable list) no longer exists"; fail=1; }
  done
  if [ ${#want[@]} -eq 0 ]; then
    for a in "${inventory[@]}"; do
      if in_list "$a" "${untestable[@]}"; then
        echo "NOTE sva: $a has no negative test: $untestable_why"
      elif ! in_list "$a" "${expected[@]}"; then
        echo "FAIL sva: $a: no fault is expected to fire it (add one to tb/test_sva.sh)"; fail=1
      fi
    done
  fi
  if [ $xmode = check ]; then
    [ $fail = 0 ] && echo "PASS sva-check: ${#xfaults[@]} faults apply; ${#expected[@]} of ${#inventory[@]} assertions have a negative test, ${#untestable[@]} cannot fire under Verilator"
    exit $fail
  fi
  [ $fail = 0 ] || exit 1

  # the unmutated RTL passes every test the faults use, with no assertion firing
  make -s "$target" >/dev/null || { echo "FAIL sva: the unmutated $target does not build"; exit 1; }
  clean=()
  for f in "${xfaults[@]}"; do
    IFS='|' read -r name file test asserts expr <<<"$f"
    if [ ${#want[@]} -gt 0 ] && ! in_list "$name" "${want[@]}"; then continue; fi
    for t in ${test//,/ }; do in_list "$t" "${clean[@]}" || clean+=("$t"); done
  done
  for t in "${clean[@]}"; do
    out=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$target" +test="$t" +seed=1 +max_errors=1000000 \
          +out="$work/clean" 2>&1)
    if grep -q "ASSERT FAILED" <<<"$out" || ! grep -q "TEST PASSED CHECKS" <<<"$out"; then
      echo "FAIL sva-clean-$t: the unmutated RTL fails $t.1"; grep -m3 "ASSERT FAILED\|FAILURE" <<<"$out"
      fail=1
    else
      echo "PASS sva-clean-$t: unmutated RTL, $t.1 passes with no assertion firing"
    fi
  done

  fired_all=()
  for f in "${xfaults[@]}"; do
    IFS='|' read -r name file test asserts expr <<<"$f"
    if [ ${#want[@]} -gt 0 ] && ! in_list "$name" "${want[@]}"; then continue; fi
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    tar cf - --exclude=./build --exclude=./.git --exclude=./sim/build --exclude=./sim/out . |
      (cd "$work/tree" && tar xf -)
    mkdir -p "$work/tree/build/lib"
    # shellcheck disable=SC2086
    cp $libs "$work/tree/build/lib/"
    touch "$work/tree/build/.deps-ok"
    sed -i "$expr" "$work/tree/$file"
    olibs=()
    for l in $libs; do olibs+=(-o "$l"); done
    if ! make -s -C "$work/tree" "${olibs[@]}" "$opt" "$target" >"$work/build.log" 2>&1; then
      echo "FAIL sva-$name: does not build"; tail -5 "$work/build.log"; fail=1; continue
    fi
    got=""
    for t in ${test//,/ }; do
      out=$(cd "$work/tree" && SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 timeout 900 \
            "$target" +test="$t" +seed=1 +max_errors=1000000 2>&1)
      # the assertions that fired, as file:name (Verilator prints "%Error: <file>:<line>:
      # ... [ASSERT FAILED] <scope>: <name>")
      fired=$(grep "ASSERT FAILED" <<<"$out" |
              sed -n 's/.*%Error: \([^:]*\):[0-9]*:.*ASSERT FAILED\] [^:]*: \([A-Za-z0-9_]*\).*/\1 \2/p' |
              while read -r fl nm; do echo "$(basename "$fl"):$nm"; done | sort -u | tr '\n' ' ')
      miss=""
      for a in $asserts; do in_list "$a" $fired || miss="$miss $a"; done
      if [ -z "$miss" ] && grep -q "FAILURE: RTL assertion failed" <<<"$out"; then got=$t; break; fi
    done
    if [ -n "$got" ]; then
      for a in $fired; do in_list "$a" "${fired_all[@]}" || fired_all+=("$a"); done
      echo "PASS sva-$name: $got.1: $(grep -m1 "ASSERT FAILED" <<<"$out" | sed 's/^.*%Error: //')"
      others=""
      for a in $fired; do in_list "$a" $asserts || others="$others $a"; done
      [ -n "$others" ] && echo "     sva-$name: also fired in that cycle:$others"
    else
      echo "FAIL sva-$name: $asserts did not fire in ${test//,/.1, }.1 (fired: ${fired:-none})"
      grep -m3 "ASSERT FAILED\|FAILURE" <<<"$out"
      fail=1
    fi
  done
  if [ ${#want[@]} -eq 0 ]; then
    for a in "${inventory[@]}"; do
      if ! in_list "$a" "${untestable[@]}" && ! in_list "$a" "${fired_all[@]}"; then
        echo "FAIL sva: $a never fired"; fail=1
      fi
    done
    [ $fail = 0 ] && echo "PASS sva-xtm: every assertion fired ($(( ${#inventory[@]} - ${#untestable[@]} )) of ${#inventory[@]}; ${#untestable[@]} cannot fire under Verilator)"
  fi
else
  pkg=rtl/dcqcn/dcqcn_pkg.sv
  visit=rtl/dcqcn/dcqcn_visit.sv
  # a cut that skips the clamp: Rc falls below RPG_MIN_RATE (30000 in min_max_rate)
  fault cut-unclamped "$pkg" min_max_rate RcWrittenInLimits_A \
    "s/cut_rc = clamp_rate(lo, hi, 21'(30'(rc) - dec));/cut_rc = 20'(30'(rc) - dec);/"
  # an alpha timer that fires but never advances: its deadline falls behind the scan
  fault alpha-timer-stuck "$visit" smoke NoTimerLate_A \
    "s/due_alpha = due_alpha + dcqcn_pkg::DUE_W'(p_alpha_i);/due_alpha = due_alpha;/"
  # a Q_CTRL.INIT that leaves alpha at 1022: the visit writes an inactive QP that is not the
  # INIT word
  fault init-word "$visit" csr_traffic InactiveAtInit_A \
    "s/      alpha = 10'd1023;/      alpha = 10'd1022;/"
  # a cut that clamps Rt to 0 instead of Rc (CLAMP_TGT_RATE on in clamps): a rate of 0 is
  # written (Rc is untouched, so only the range check can see it)
  fault cut-rt-zero "$visit" clamps RatesInRange_A \
    "s/            rt = rc;/            rt = '0;/"
  # the rate stream's prefix count counts every changed slot twice: n_rate > U once three
  # slots change in one cycle (smoke never has more than two; random has)
  fault rate-count-double rtl/dcqcn/dcqcn_rate.sv random RateStreamFits_A \
    "s/n = n + 5'(ch\[b\]);/n = n + 5'(ch[b]) + 5'(ch[b]);/"
  # the scan reads its context RAM during the first period, before any row was written: the
  # visit ignores the data (reset word), so only the RAM wrapper's check sees it
  fault scan-reads-unwritten rtl/dcqcn/dcqcn_scan.sv smoke RamReadUnwritten_A \
    "s/.a_re_i   (run1_q \&\& exists1 \&\& (swept_q || (run2_q \&\& 32'(g2_q) == ScanPeriod - 1))),/.a_re_i   (run1_q \&\& exists1),/"
fi
exit $fail
