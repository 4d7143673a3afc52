// SPDX-License-Identifier: Apache-2.0
//
// xtm_dpi_api_tb: the DPI-C layers (cmodel/dpi/) alone, without RTL.
//   +mode=api    (default) every function of xtm_dpi_pkg and dcqcn_dpi_pkg on good and bad
//                handles and arguments: status codes, field packing (values derived from
//                docs/spec.md and docs/spec-dcqcn.md), several instances; one line per check,
//                then TEST PASSED CHECKS / TEST FAILED CHECKS
//   +mode=bench  +cycles=<n> [+bench=xtm|dcqcn]: the DPI path's speed: the incast sequence of xtm_sv_pkg driving
//                the xtm reference through xtm_dpi_step, one call per cycle, and the dcqcn
//                reference stepped with CNP / tx / CE events; prints cycles/s (make bench)

`default_nettype none

module xtm_dpi_api_tb;

  import xtm_dpi_pkg::*;
  import dcqcn_dpi_pkg::*;

  // One DPI call with side effects per statement: Verilator 5.006 evaluates the DPI calls of
  // one expression in no particular order and without short-circuit (docs/dpi.md).
  int unsigned nchecks = 0;
  int unsigned nfail = 0;

  function automatic void check(bit ok, string what);
    nchecks++;
    if (!ok) nfail++;
    $display("%s %s", ok ? "PASS" : "FAIL", what);
  endfunction

  // ---------------------------------------------------------------- xtm
  task automatic api_xtm();
    xtm_dpi_params_t prm, sm, got;
    chandle h, h2, hs[$], dead, hd;
    xtm_dpi_in_t in;
    xtm_dpi_vec_t vec, tv;
    xtm_dpi_quanta_t qv, tq;
    xtm_dpi_out_t out;
    xtm_dpi_deq_t deq;
    xtm_dpi_deq_rec_t rec;
    xtm_dpi_voq_state_t vs;
    xtm_dpi_pg_state_t ps;
    xtm_dpi_global_state_t gs;
    longint unsigned c, v, c2;
    int unsigned d, d2, nv, voq;
    int st, n0, n;
    bit got_out;
    string e;

    check(xtm_dpi_abi_ok() == XTM_DPI_OK, "xtm: package and C layer agree (ABI, struct widths)");
    check(xtm_dpi_abi_check(XTM_DPI_ABI_VERSION + 1, $bits(xtm_dpi_params_t), $bits(xtm_dpi_in_t),
                            $bits(xtm_dpi_out_t), $bits(xtm_dpi_voq_state_t),
                            $bits(xtm_dpi_pg_state_t), $bits(xtm_dpi_global_state_t)) == XTM_DPI_E_ABI,
          "xtm: another ABI version is refused");
    check(xtm_dpi_abi_check(XTM_DPI_ABI_VERSION, $bits(xtm_dpi_params_t), $bits(xtm_dpi_in_t) - 1,
                            $bits(xtm_dpi_out_t), $bits(xtm_dpi_voq_state_t),
                            $bits(xtm_dpi_pg_state_t), $bits(xtm_dpi_global_state_t)) == XTM_DPI_E_ABI,
          "xtm: a different input bundle width is refused");
    n0 = xtm_dpi_instances();
    xtm_dpi_params_default(prm);
    check(prm.num_ports == 8 && prm.num_tcs == 8 && prm.num_desc == 4096 && prm.cell_bytes == 256 &&
          prm.fifo_depth == 8, "xtm: default parameters are spec section 1's");
    // bad parameters: no instance, a message
    sm = prm;
    sm.num_ports = 0;
    h = null;
    st = xtm_dpi_create(sm, h);
    e = xtm_dpi_last_error();
    check(st == XTM_DPI_E_ARG && h == null && e.len() > 0, {"xtm: create with NumPorts 0 -> BAD_ARG: ", e});
    sm = prm;
    sm.cell_bytes = 100;
    st = xtm_dpi_create(sm, h);
    check(st == XTM_DPI_E_ARG, "xtm: create with CellBytes 100 -> BAD_ARG");
    // bad handles
    h = null;
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    check(st == XTM_DPI_E_HANDLE, "xtm: step on a null handle -> BAD_HANDLE");
    st = xtm_dpi_csr_read(h, 0, d);
    check(st == XTM_DPI_E_HANDLE, "xtm: csr_read on a null handle -> BAD_HANDLE");
    st = xtm_dpi_destroy(h);
    check(st == XTM_DPI_E_HANDLE, "xtm: destroy a null handle -> BAD_HANDLE");
    // a sm instance: 2 ports x 2 TCs x 64 descriptors
    sm = prm;
    sm.num_ports = 2;
    sm.num_tcs = 2;
    sm.num_desc = 64;
    st = xtm_dpi_create(sm, h);
    check(st == XTM_DPI_OK && h != null, "xtm: create 2x2x64");
    st = xtm_dpi_instances();
    check(st == n0 + 1, "xtm: instances counts it");
    st = xtm_dpi_get_params(h, got);
    check(st == XTM_DPI_OK && got == sm, "xtm: get_params returns the parameters");
    st = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_BLOCK_TYPE_OFFSET, d);
    check(st == XTM_DPI_OK && d == 32'h5854_4D35,
          "xtm: BLOCK_TYPE reads 'XTM5'");
    st = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_HW_PARAMS_OFFSET, d);
    check(st == XTM_DPI_OK && d[7:0] == 2 &&
          d[11:8] == 2, "xtm: HW_PARAMS shows 2 ports, 2 TCs");
    st = xtm_dpi_csr_read(h, 16'h0FF0, d);
    check(st == XTM_DPI_FALSE && d == 0,
          "xtm: an unmapped read -> FALSE (CSR error), data 0 (spec 10)");
    st = xtm_dpi_csr_read(h, 32'h1_0000, d);
    check(st == XTM_DPI_E_ARG, "xtm: an address beyond 16 bits -> BAD_ARG");
    st = xtm_dpi_csr_write(h, xtm_reg_pkg::XTM_BLOCK_TYPE_OFFSET, 0);
    check(st == XTM_DPI_FALSE,
          "xtm: a write to a read-only register -> FALSE");
    st = xtm_dpi_voq_state(h, 4, vs);
    check(st == XTM_DPI_E_ARG, "xtm: voq_state(4) of 4 VOQs -> BAD_ARG");
    st = xtm_dpi_pg_state(h, 2, 0, ps);
    check(st == XTM_DPI_E_ARG, "xtm: pg_state(port 2) of 2 ports -> BAD_ARG");
    st = xtm_dpi_pg_state(h, 0, 8, ps);
    check(st == XTM_DPI_E_ARG, "xtm: pg_state(prio 8) -> BAD_ARG");
    st = xtm_dpi_voq_counter(h, 0, XTM_VCNT_COUNT, v);
    check(st == XTM_DPI_E_ARG, "xtm: voq counter index 21 -> BAD_ARG");
    st = xtm_dpi_pg_counter(h, 0, 0, XTM_GCNT_COUNT, v);
    check(st == XTM_DPI_E_ARG, "xtm: pg counter index 5 -> BAD_ARG");
    st = xtm_dpi_port_counter(h, 2, 0, v);
    check(st == XTM_DPI_E_ARG, "xtm: port counter of port 2 -> BAD_ARG");
    st = xtm_dpi_global_counter(h, XTM_ECNT_COUNT, v);
    check(st == XTM_DPI_E_ARG, "xtm: global counter index 6 -> BAD_ARG");
    st = xtm_dpi_inject_fault(h, 99);
    check(st == XTM_DPI_E_ARG, "xtm: fault 99 -> BAD_ARG");
    // cycle 0: a descriptor during initialisation is NOT_READY (spec 3)
    in = '0;
    in.tx_ready = '1;
    vec = '0;
    qv = '0;
    in.enq = '{valid: 1'b1, pkt_id: 32'hCAFE_0001, in_port: 6'd0, eg_port: 6'd1, dscp: 6'd0, ecn: 2'd2,
               len: 14'd100};
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    check(st == XTM_DPI_OK && out.cycle == 0 && out.enq_res.valid && out.enq_res.pkt_id == 32'hCAFE_0001 &&
          out.enq_res.reason == 12 && out.enq_res.voq == 0,
          $sformatf("xtm: cycle 0 enqueue -> NOT_READY (reason %0d, voq %0d, cycle %0d)",
                    out.enq_res.reason, out.enq_res.voq, out.cycle));
    e = xtm_dpi_reason_name(12);
    check(e.len() > 0 && e != "UNKNOWN_REASON", {"xtm: reason_name(12) = ", e});
    e = xtm_dpi_reason_name(99);
    check(e == "UNKNOWN_REASON", {"xtm: reason_name(99) = ", e});
    // spec 2.0 section 3: INIT_DONE at INIT_CYCLES = 8 * NumPorts = 16, not at NumVoqs = 4
    // (spec 1.x): at cycle 4 a descriptor is still NOT_READY, the VOQ and PG windows refuse
    // accesses (ERR_STATUS.NOT_READY, read data 0), a global register answers
    st = xtm_dpi_advance_to(h, 4, out, deq, tv, tq);
    check(st == XTM_DPI_OK && out.cycle == 4,
          "xtm: advance_to(4) with nothing to output -> OK at cycle 4");
    st = xtm_dpi_cycle(h, c);
    check(st == XTM_DPI_OK && c == 4, "xtm: cycle() = 4");
    st = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_STATUS_OFFSET, d);
    check(st == XTM_DPI_OK && d[xtm_reg_pkg::XTM_STATUS_INIT_DONE_LSB] == 1'b0,
          $sformatf("xtm: STATUS.INIT_DONE = 0 at cycle 4 (STATUS %08h)", d));
    st = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_Q_LIMIT_CELLS_OFFSET, d);
    n = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_ERR_STATUS_OFFSET, d2);
    check(st == XTM_DPI_FALSE && d == 0 && n == XTM_DPI_OK &&
          d2[xtm_reg_pkg::XTM_ERR_STATUS_NOT_READY_LSB] == 1'b1,
          $sformatf("xtm: a VOQ-window read during initialisation -> FALSE, data 0, ERR_STATUS.NOT_READY (%08h)", d2));
    st = xtm_dpi_csr_write(h, xtm_reg_pkg::XTM_PG_SEL_OFFSET, 0);
    n = xtm_dpi_csr_write(h, xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, 100);
    check(st == XTM_DPI_OK && n == XTM_DPI_FALSE,
          "xtm: during initialisation PG_SEL (global) is written, a PG-window write is refused");
    st = xtm_dpi_csr_write(h, xtm_reg_pkg::XTM_ERR_STATUS_OFFSET, 32'hFFFF_FFFF);  // rw1c
    check(st == XTM_DPI_OK, "xtm: ERR_STATUS cleared");
    in.enq.pkt_id = 32'hCAFE_0002;
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    check(st == XTM_DPI_OK && out.enq_res.valid && out.enq_res.reason == 12 && out.enq_res.pkt_id == 32'hCAFE_0002,
          $sformatf("xtm: cycle 4 (< INIT_CYCLES 16) enqueue -> NOT_READY (reason %0d)", out.enq_res.reason));
    st = xtm_dpi_advance_to(h, 16, out, deq, tv, tq);
    n = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_STATUS_OFFSET, d);
    check(st == XTM_DPI_OK && out.cycle == 16 && n == XTM_DPI_OK && d[xtm_reg_pkg::XTM_STATUS_INIT_DONE_LSB] == 1'b1,
          $sformatf("xtm: STATUS.INIT_DONE = 1 at cycle 16 = 8 * NumPorts (STATUS %08h)", d));
    st = xtm_dpi_csr_write(h, xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, 100);
    n = xtm_dpi_csr_read(h, xtm_reg_pkg::XTM_G_XOFF_CELLS_OFFSET, d);
    check(st == XTM_DPI_OK && n == XTM_DPI_OK && d == 100, "xtm: after INIT_DONE the PG window is written");
    // an accepted packet 0 -> 1, DSCP 0 -> TC 0: VOQ 1*T + 0 = 2
    in.enq.pkt_id = 32'hCAFE_0003;
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    check(st == XTM_DPI_OK && out.enq_res.valid && out.enq_res.reason == 0 && out.enq_res.voq == 2 &&
          out.enq_res.pkt_id == 32'hCAFE_0003, $sformatf("xtm: cycle 16 enqueue accepted into VOQ 2 (reason %0d voq %0d)",
                                               out.enq_res.reason, out.enq_res.voq));
    st = xtm_dpi_global_counter(h, XTM_ECNT_ARR, v);
    check(st == XTM_DPI_OK && v == 3, "xtm: ARR_PKTS = 3");
    st = xtm_dpi_global_counter(h, XTM_ECNT_NOT_READY, v);
    check(st == XTM_DPI_OK && v == 2, "xtm: ERR_NOT_READY = 2 (cycles 0 and 4)");
    // where is it now: resident, or already selected (dequeue happens in the same cycle at the
    // earliest); find the dequeue with advance_to
    got_out = 0;
    c2 = 0;
    if (out.deq_valid[1]) begin
      got_out = 1;
      c2 = out.cycle;
    end
    for (int k = 0; k < 10 && !got_out; k++) begin
      st = xtm_dpi_advance_to(h, 100000, out, deq, tv, tq);
      if (st == XTM_DPI_OUTPUT && out.deq_valid[1]) begin
        got_out = 1;
        c2 = out.cycle;
      end
    end
    rec = deq[1*XTM_DPI_DEQ_REC_W+:XTM_DPI_DEQ_REC_W];
    check(got_out && rec.pkt_id == 32'hCAFE_0003 && rec.voq == 2 && rec.len == 100 && rec.in_port == 0 &&
          rec.ecn == 2 && out.deq_valid == 64'h2, $sformatf("xtm: the packet leaves port 1 (cycle %0d, pkt %08h, len %0d)",
                                                             c2, rec.pkt_id, rec.len));
    st = xtm_dpi_voq_counter(h, 2, XTM_VCNT_DEQ_PKTS, v);
    check(st == XTM_DPI_OK && v == 1, "xtm: Q_DEQ_PKTS(2) = 1");
    st = xtm_dpi_port_counter(h, 1, XTM_PCNT_TX_BYTES, v);
    check(st == XTM_DPI_OK && v == 100, "xtm: P_TX_BYTES(1) = 100");
    st = xtm_dpi_global_state(h, gs);
    check(st == XTM_DPI_OK && gs.desc_free == 64 && gs.pool_used == 0,
          $sformatf("xtm: global state after it left: desc_free %0d pool_used %0d", gs.desc_free, gs.pool_used));
    // a resident packet: the MAC of port 1 is not ready (tx_ready only for port 0)
    in = '0;
    in.tx_ready = 64'h1;
    in.enq = '{valid: 1'b1, pkt_id: 32'hCAFE_0004, in_port: 6'd0, eg_port: 6'd1, dscp: 6'd0, ecn: 2'd0,
               len: 14'd1000};
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    st = xtm_dpi_voq_state(h, 2, vs);
    check(st == XTM_DPI_OK && vs.occ_pkts == 1 && vs.occ_cells == 4 && vs.head_pkt_id == 32'hCAFE_0004,
          $sformatf("xtm: voq_state(2): occ_pkts %0d occ_cells %0d (1000 B = 4 cells of 256)", vs.occ_pkts, vs.occ_cells));
    st = xtm_dpi_set_tx_ready(h, '1);
    check(st == XTM_DPI_OK, "xtm: set_tx_ready");
    st = xtm_dpi_next_event(h, c);
    check(st == XTM_DPI_OK, "xtm: next_event");
    st = xtm_dpi_set_eager(h, 1'b1);
    check(st == XTM_DPI_OK, "xtm: set_eager");
    // a PFC frame on port 1 pausing priority 3 for 100 quanta
    in = '0;
    in.tx_ready = '1;
    in.pfc_rx_valid = 64'h2;
    vec = '0;
    qv = '0;
    vec[8*1+:8] = 8'h08;
    qv[16*(8*1+3)+:16] = 16'd100;
    st = xtm_dpi_step(h, in, vec, qv, out, deq, tv, tq);
    st = xtm_dpi_pg_state(h, 1, 3, ps);
    // spec 7.2: pause cycles = ceil(100 * P_PAUSE_QUANTUM / 65536) = ceil(100 * 0x51EB8 / 65536)
    // = 512 from the receiving cycle, so 511 remain at the start of the next
    check(st == XTM_DPI_OK && ps.pause_remain == 511,
          $sformatf("xtm: PFC frame on port 1 prio 3: pause_remain %0d", ps.pause_remain));
    st = xtm_dpi_pg_state(h, 1, 2, ps);
    check(st == XTM_DPI_OK && ps.pause_remain == 0, "xtm: prio 2 not paused");
    st = xtm_dpi_port_counter(h, 1, XTM_PCNT_PFC_RX_FRAMES, v);
    check(st == XTM_DPI_OK && v == 1, "xtm: P_PFC_RX_FRAMES(1) = 1");
    st = xtm_dpi_pg_counter(h, 1, 3, XTM_GCNT_PAUSE_RX, v);
    check(st == XTM_DPI_OK && v == 1, "xtm: G_PAUSE_RX(1,3) = 1");
    // invariants and the fault injection that breaks them
    st = xtm_dpi_check_invariants(h);
    check(st == XTM_DPI_OK, "xtm: invariants hold");
    st = xtm_dpi_inject_fault(h, XTM_FAULT_LEAK_POOL_CELL);
    check(st == XTM_DPI_OK, "xtm: inject LEAK_POOL_CELL");
    st = xtm_dpi_check_invariants(h);
    e = xtm_dpi_last_error();
    check(st == XTM_DPI_FALSE && e.len() > 0, {"xtm: invariant broken is reported: ", e});
    // reset: cycle 0, all state at reset
    st = xtm_dpi_reset(h);
    n = xtm_dpi_cycle(h, c);
    check(st == XTM_DPI_OK && n == XTM_DPI_OK && c == 0, $sformatf("xtm: reset -> cycle 0 (%0d %0d %0d %s)", st, n, c, xtm_dpi_last_error()));
    st = xtm_dpi_check_invariants(h);
    check(st == XTM_DPI_OK, "xtm: invariants hold after reset");
    // the spec 2.0 state fields at reset (spec 3): queue shapers conform, watchdog poll
    // counters 0, the head LFSR at LFSR_HEAD_SEED's reset value; the 2.0 faults move them
    st = xtm_dpi_voq_state(h, 0, vs);
    check(st == XTM_DPI_OK && vs.shaper_conform && vs.wd_storm == 0 && vs.wd_clean == 0,
          $sformatf("xtm: voq_state(0) at reset: shaper_conform %0d wd_storm %0d wd_clean %0d",
                    vs.shaper_conform, vs.wd_storm, vs.wd_clean));
    st = xtm_dpi_global_state(h, gs);
    check(st == XTM_DPI_OK && gs.lfsr_head == xtm_reg_pkg::XTM_LFSR_HEAD_SEED_RESVAL &&
          gs.lfsr == 32'hACE1_ACE1, $sformatf("xtm: global_state at reset: lfsr %08h lfsr_head %08h", gs.lfsr, gs.lfsr_head));
    st = xtm_dpi_inject_fault(h, XTM_FAULT_FLIP_HEAD_LFSR);
    n = xtm_dpi_global_state(h, gs);
    check(st == XTM_DPI_OK && n == XTM_DPI_OK && gs.lfsr_head == (xtm_reg_pkg::XTM_LFSR_HEAD_SEED_RESVAL ^ 32'd1),
          $sformatf("xtm: inject FLIP_HEAD_LFSR -> lfsr_head %08h", gs.lfsr_head));
    st = xtm_dpi_inject_fault(h, XTM_FAULT_FLIP_CONFORM);
    n = xtm_dpi_voq_state(h, 0, vs);
    check(st == XTM_DPI_OK && n == XTM_DPI_OK && !vs.shaper_conform, "xtm: inject FLIP_CONFORM -> VOQ 0 not conforming");
    st = xtm_dpi_inject_fault(h, XTM_FAULT_FLIP_CONFORM + 1);
    check(st == XTM_DPI_E_ARG, "xtm: fault 7 (one past the last) -> BAD_ARG");
    st = xtm_dpi_reset(h);
    check(st == XTM_DPI_OK, "xtm: reset again");
    // several instances are independent
    st = xtm_dpi_create(sm, h2);
    check(st == XTM_DPI_OK && h2 != h, "xtm: a second instance");
    st = xtm_dpi_advance_to(h2, 1000, out, deq, tv, tq);
    st = xtm_dpi_cycle(h, c);
    n = xtm_dpi_cycle(h2, c2);
    check(st == XTM_DPI_OK && c == 0 && n == XTM_DPI_OK && c2 == 1000,
          "xtm: instances keep their own time");
    // destroy; the stale handle is refused, also after its slot is reused
    dead = h2;
    st = xtm_dpi_destroy(h2);
    check(st == XTM_DPI_OK, "xtm: destroy");
    st = xtm_dpi_destroy(dead);
    check(st == XTM_DPI_E_HANDLE, "xtm: destroy twice -> BAD_HANDLE");
    st = xtm_dpi_cycle(dead, c);
    check(st == XTM_DPI_E_HANDLE, "xtm: a destroyed handle -> BAD_HANDLE");
    st = xtm_dpi_create(sm, h2);
    n = xtm_dpi_cycle(dead, c);
    check(st == XTM_DPI_OK && n == XTM_DPI_E_HANDLE, "xtm: a destroyed handle stays refused when its slot is reused");
    st = xtm_dpi_destroy(h2);
    check(st == XTM_DPI_OK, "xtm: destroy the reuse");
    // all slots
    for (int k = 0; k < 300; k++) begin
      st = xtm_dpi_create(sm, hd);
      if (st != XTM_DPI_OK) break;
      hs.push_back(hd);
    end
    check(st == XTM_DPI_E_FULL && xtm_dpi_instances() == 256,
          $sformatf("xtm: instance %0d -> FULL (%s)", hs.size() + 1, xtm_dpi_status_name(st)));
    foreach (hs[k]) st = xtm_dpi_destroy(hs[k]);
    st = xtm_dpi_destroy(h);
    check(st == XTM_DPI_OK && xtm_dpi_instances() == n0, $sformatf("xtm: every instance destroyed (%0d, %0d live)", st, xtm_dpi_instances()));
    check(xtm_dpi_status_name(XTM_DPI_E_HANDLE) == "BAD_HANDLE", "xtm: status_name(-1) = BAD_HANDLE");
  endtask

  // ---------------------------------------------------------------- dcqcn
  task automatic api_dcqcn();
    dcqcn_dpi_params_t prm, got;
    chandle h, dead;
    chandle xh;
    xtm_dpi_params_t xp;
    dcqcn_dpi_in_t in;
    dcqcn_dpi_out_t out;
    dcqcn_dpi_rate_qp_t rq;
    dcqcn_dpi_rate_mbps_t rc, rt;
    dcqcn_dpi_rate_alpha_t ra;
    dcqcn_dpi_qp_state_t qs;
    longint unsigned c, v;
    int unsigned d, per;
    int st, n0, n;
    bit seen;

    check(dcqcn_dpi_abi_ok() == DCQCN_DPI_OK, "dcqcn: package and C layer agree");
    n0 = dcqcn_dpi_instances();
    dcqcn_dpi_params_default(prm);
    check(prm.num_qps == 64 && prm.scan_width == 4, "dcqcn: default parameters 64 QPs, 4 slots (D1)");
    got = prm;
    got.num_qps = 0;
    st = dcqcn_dpi_create(got, h);
    check(st == DCQCN_DPI_E_ARG && h == null, "dcqcn: create with 0 QPs -> BAD_ARG");
    st = dcqcn_dpi_create(prm, h);
    check(st == DCQCN_DPI_OK && h != null, "dcqcn: create");
    st = dcqcn_dpi_get_params(h, got);
    check(st == DCQCN_DPI_OK && got == prm, "dcqcn: get_params");
    // a handle of the other model is refused by both
    xtm_dpi_params_default(xp);
    xp.num_ports = 2;
    xp.num_tcs = 2;
    xp.num_desc = 64;
    st = xtm_dpi_create(xp, xh);
    st = dcqcn_dpi_cycle(xh, c);
    check(st == DCQCN_DPI_E_HANDLE, "dcqcn: an xtm handle -> BAD_HANDLE");
    st = xtm_dpi_cycle(h, c);
    check(st == XTM_DPI_E_HANDLE, "xtm: a dcqcn handle -> BAD_HANDLE");
    st = xtm_dpi_destroy(xh);
    st = dcqcn_dpi_csr_read(h, dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_OFFSET, d);
    check(st == DCQCN_DPI_OK &&
          d == dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_VALUE, $sformatf("dcqcn: BLOCK_TYPE = %08h", d));
    st = dcqcn_dpi_csr_read(h, 16'h0FF0, d);
    check(st == DCQCN_DPI_FALSE, "dcqcn: unmapped read -> FALSE");
    st = dcqcn_dpi_param_set(h, "NO_SUCH_PARAM", 1);
    check(st == DCQCN_DPI_E_ARG, "dcqcn: param_set of an unknown name -> BAD_ARG");
    st = dcqcn_dpi_param_set(h, "RPG_TIME_RESET", 0);
    check(st == DCQCN_DPI_E_ARG, "dcqcn: RPG_TIME_RESET 0 (min 1) -> BAD_ARG");
    st = dcqcn_dpi_param_set(h, "RPG_TIME_RESET", 300);
    check(st == DCQCN_DPI_OK, "dcqcn: RPG_TIME_RESET 300");
    st = dcqcn_dpi_qp_state(h, 64, qs);
    check(st == DCQCN_DPI_E_ARG, "dcqcn: qp_state(64) of 64 -> BAD_ARG");
    st = dcqcn_dpi_counter(h, DCQCN_GCNT_COUNT, v);
    check(st == DCQCN_DPI_E_ARG, "dcqcn: counter 13 -> BAD_ARG");
    st = dcqcn_dpi_qp_counter(h, 0, DCQCN_QCNT_COUNT, v);
    check(st == DCQCN_DPI_E_ARG, "dcqcn: qp counter 5 -> BAD_ARG");
    st = dcqcn_dpi_scan_period(h, per);
    check(st == DCQCN_DPI_OK && per == 16, $sformatf("dcqcn: scan period ceil(64/4) = %0d", per));
    // the first CNP of QP 5 (D6.2) sets Rc = Rt = RATE_TO_SET_ON_FIRST_CNP. Spec-dcqcn 2.0
    // D5.1: QP 5 is in scan group 5 / 4 = 1, visited in the cycles t mod 16 == 1; a CNP in
    // cycle 0 is pending (nothing reported, the QP still inactive) and applied at the visit
    // in cycle 1, which reports the rate update of QP 5 with those rates (D7)
    st = dcqcn_dpi_param_set(h, "RATE_TO_SET_ON_FIRST_CNP", 40000);
    check(st == DCQCN_DPI_OK,
          "dcqcn: RATE_TO_SET_ON_FIRST_CNP 40000");
    in = '0;
    in.cnp = '{valid: 1'b1, qp: 16'd5};
    st = dcqcn_dpi_step(h, in, out, rq, rc, rt, ra);
    seen = 0;
    for (int k = 0; k < int'(out.n_rate); k++) begin
      if (rq[16*k+:16] == 5) seen = 1;
    end
    check(st == DCQCN_DPI_OK && out.cycle == 0 && !seen,
          $sformatf("dcqcn: first CNP of QP 5 in cycle 0 (QP 5 not visited) -> no rate update of QP 5 yet (n_rate %0d)", out.n_rate));
    st = dcqcn_dpi_qp_state(h, 5, qs);
    check(st == DCQCN_DPI_OK && !qs.active && qs.pend_cnp && !qs.pend_cnp_more,
          $sformatf("dcqcn: QP 5 inactive with its CNP pending after cycle 0 (active %0d pend_cnp %0d)", qs.active, qs.pend_cnp));
    in = '0;
    st = dcqcn_dpi_step(h, in, out, rq, rc, rt, ra);
    seen = 0;
    for (int k = 0; k < int'(out.n_rate); k++) begin
      if (rq[16*k+:16] == 5 && rc[20*k+:20] == 40000 && rt[20*k+:20] == 40000) seen = 1;
    end
    check(st == DCQCN_DPI_OK && out.cycle == 1 && seen,
          $sformatf("dcqcn: its visit in cycle 1 -> rate update QP 5 Rc = Rt = 40000 (n_rate %0d, cycle %0d)",
                    out.n_rate, out.cycle));
    st = dcqcn_dpi_qp_state(h, 5, qs);
    check(st == DCQCN_DPI_OK && qs.active && !qs.pend_cnp && qs.rc == 40000,
          "dcqcn: QP 5 active after the visit that applied its first CNP, nothing pending");
    st = dcqcn_dpi_counter(h, DCQCN_GCNT_CNP_RX, v);
    check(st == DCQCN_DPI_OK && v == 1, "dcqcn: CNP_RX = 1");
    st = dcqcn_dpi_qp_counter(h, 5, DCQCN_QCNT_CNP_RX, v);
    check(st == DCQCN_DPI_OK && v == 1, "dcqcn: QP 5 CNP_RX = 1");
    // a CE-marked packet of QP 7 at the notification point: a CNP goes out for it
    in = '0;
    in.ce = '{valid: 1'b1, qp: 16'd7};
    st = dcqcn_dpi_step(h, in, out, rq, rc, rt, ra);
    check(st == DCQCN_DPI_OK && out.cnp_tx.valid && out.cnp_tx.qp == 7, "dcqcn: CE of QP 7 -> CNP for QP 7");
    // tx bytes: the pacer answers
    in = '0;
    in.tx = '{valid: 1'b1, qp: 16'd5, bytes: 16'd4096};
    st = dcqcn_dpi_step(h, in, out, rq, rc, rt, ra);
    check(st == DCQCN_DPI_OK && out.pace.valid && out.pace.qp == 5 && out.pace.next_send > out.cycle,
          $sformatf("dcqcn: 4096 B of QP 5 -> pace next_send %0d at cycle %0d", out.pace.next_send, out.cycle));
    // a CSR write through step and its response
    in = '0;
    in.csr = '{valid: 1'b1, write: 1'b0, addr: dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_OFFSET, wdata: 32'd0};
    st = dcqcn_dpi_step(h, in, out, rq, rc, rt, ra);
    check(out.csr_rsp.valid && !out.csr_rsp.err && out.csr_rsp.rdata == dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_VALUE,
          "dcqcn: a CSR read in step answers in csr_rsp");
    st = dcqcn_dpi_advance_to(h, 10000000, out, rq, rc, rt, ra);
    check(st == DCQCN_DPI_OUTPUT || st == DCQCN_DPI_OK, $sformatf("dcqcn: advance_to -> %0d at cycle %0d", st, out.cycle));
    st = dcqcn_dpi_next_event(h, c);
    n = dcqcn_dpi_set_eager(h, 1);
    check(st == DCQCN_DPI_OK && n == DCQCN_DPI_OK,
          "dcqcn: next_event, set_eager");
    st = dcqcn_dpi_reset(h);
    n = dcqcn_dpi_cycle(h, c);
    check(st == DCQCN_DPI_OK && n == DCQCN_DPI_OK && c == 0, "dcqcn: reset -> cycle 0");
    dead = h;
    st = dcqcn_dpi_destroy(h);
    n = dcqcn_dpi_destroy(dead);
    check(st == DCQCN_DPI_OK && n == DCQCN_DPI_E_HANDLE, "dcqcn: destroy, then destroy again -> BAD_HANDLE");
    st = dcqcn_dpi_step(dead, in, out, rq, rc, rt, ra);
    check(st == DCQCN_DPI_E_HANDLE, "dcqcn: step on a destroyed handle -> BAD_HANDLE");
    st = dcqcn_dpi_instances();
    check(st == n0, "dcqcn: every instance destroyed");
  endtask

  // ---------------------------------------------------------------- bench
  task automatic bench(longint unsigned cycles, string which);
    xtm_sv_pkg::xtm_sv_test seq;
    xtm_dpi_params_t prm;
    chandle h, dh;
    xtm_dpi_in_t in;
    xtm_dpi_vec_t vec;
    xtm_dpi_quanta_t q;
    xtm_dpi_out_t rout;  // separate variables, not one packed struct: the bench measures the
    xtm_dpi_deq_t rdeq;  // call, not Verilator's concatenation of wide struct members
    xtm_dpi_vec_t rvec;
    xtm_dpi_quanta_t rq8;
    xtm_sv_pkg::xtm_sv_csr_op_t op;
    dcqcn_dpi_params_t dp;
    dcqcn_dpi_in_t di;
    dcqcn_dpi_out_t dout;
    dcqcn_dpi_rate_qp_t rq;
    dcqcn_dpi_rate_mbps_t rc, rt;
    dcqcn_dpi_rate_alpha_t ra;
    longint unsigned s, pending;
    real t0, secs;
    int st;
    bit access;
    int unsigned busy;

    if (which != "dcqcn") begin
    xtm_dpi_params_default(prm);
    st = xtm_dpi_create(prm, h);
    seq = xtm_sv_pkg::xtm_sv_make_test("incast", 1, prm.num_ports, prm.num_tcs);
    $display("DPI bench: xtm reference (8 ports x 8 TCs, 4096 descriptors), incast sequence, %0d cycles, one xtm_dpi_step per cycle", cycles);
    access = 0;
    busy = 0;
    t0 = xtm_sv_pkg::xtm_sv_wall_seconds();
    for (longint unsigned t = 0; t < cycles; t++) begin
      in = '0;
      in.tx_ready = '1;
      vec = '0;
      q = '0;
      seq.stimulus(t, in, vec, q);
      // CSR ops as the APB master drives spec 2.0's completer (10.1): setup cycle, the
      // access (the model's csr of that cycle), XTM_DPI_OUT_LATENCY wait cycles up to pready
      if (access) begin
        in.csr = '{valid: 1'b1, write: op.write, addr: op.addr, wdata: op.wdata};
        access = 0;
        busy = XTM_DPI_OUT_LATENCY;
      end else if (busy != 0) begin
        busy--;
      end else if (seq.next_csr(t, op)) begin
        access = 1;
      end
      st = xtm_dpi_step(h, in, vec, q, rout, rdeq, rvec, rq8);
      seq.observe(t, rout, rvec, rq8);
    end
    secs = xtm_sv_pkg::xtm_sv_wall_seconds() - t0;
    $display("xtm_dpi_cycles_per_s: %0d", longint'(cycles / secs));
    st = xtm_dpi_destroy(h);
    end
    if (which == "xtm") return;

    dcqcn_dpi_params_default(dp);
    st = dcqcn_dpi_create(dp, dh);
    s = 64'd12345;
    pending = 0;
    $display("DPI bench: dcqcn reference (64 QPs, 4 slots), a CNP every ~500 cycles, tx and CE events, %0d cycles, one dcqcn_dpi_step per cycle", cycles);
    t0 = xtm_sv_pkg::xtm_sv_wall_seconds();
    for (longint unsigned t = 0; t < cycles; t++) begin
      di = '0;
      pending = xtm_sv_pkg::xtm_sv_splitmix(s);
      if (pending[8:0] == 0) di.cnp = '{valid: 1'b1, qp: {10'd0, pending[20:15]}};
      if (pending[12:11] == 0) di.tx = '{valid: 1'b1, qp: {10'd0, pending[26:21]}, bytes: 16'd1024};
      if (pending[40:33] == 0) di.ce = '{valid: 1'b1, qp: {10'd0, pending[46:41]}};
      st = dcqcn_dpi_step(dh, di, dout, rq, rc, rt, ra);
    end
    secs = xtm_sv_pkg::xtm_sv_wall_seconds() - t0;
    $display("dcqcn_dpi_cycles_per_s: %0d", longint'(cycles / secs));
    st = dcqcn_dpi_destroy(dh);
  endtask

  initial begin
    string mode, which;
    longint unsigned cycles;
    mode = "api";
    which = "both";
    void'($value$plusargs("bench=%s", which));
    cycles = 1000000;
    void'($value$plusargs("mode=%s", mode));
    void'($value$plusargs("cycles=%d", cycles));
    // (no statement after $finish: Verilator 5.006 runs the rest of the block)
    if (mode == "bench") begin
      bench(cycles, which);
    end else begin
      api_xtm();
      api_dcqcn();
      $display("%0d checks, %0d failed", nchecks, nfail);
      $display("%s", nfail == 0 ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
      xtm_sv_pkg::xtm_sv_exit_code(nfail == 0 ? 0 : 1);
    end
    $finish;
  end

endmodule
