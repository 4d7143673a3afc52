// SPDX-License-Identifier: Apache-2.0
//
// xtm_sv_tb: the SystemVerilog testbench of rtl/xtm/xtm_top with the C model as a DPI-C
// reference (no SystemC, no UVM library; tb/sv/README.md, docs/dpi.md). This module is the
// pin level: clock and reset, the driver (the sequence's inputs and the APB master onto the
// DUT's ports), the monitors (what the DUT's ports carried, in and out) and the run loop;
// the sequence, APB protocol and scoreboard classes are in tb/sv/xtm_sv_pkg.sv.
//
// One cycle: after the rising edge the driver puts cycle t's inputs on the ports and the
// input monitor hands them to the scoreboard, which steps the reference; before the next
// rising edge the output monitor hands the DUT's outputs to the scoreboard, which compares
// them with the reference's outputs of cycle t - latency (spec 15.1: 6). APB transfers are
// compared when pready completes them, whatever the wait states (spec 10.1: 6); the first
// access cycle is the access's logical cycle.
//
// Plusargs: +test=<name> +seed=<n> +cycles=<n> +latency=<L> +max_errors=<n> +out=<dir>
//           +trace [+trace_start=<cycle>] +audit=0 +apb_timeout=<cycles> +list
//           +fault=<xtm_fault_t>@<cycle>   corrupt the reference (negative test of the checks)
//           +dut_delay=<n>  the output monitor sees the DUT's outputs n cycles later still
//                   (a test of the delay line at another latency: passes with
//                   +latency=<6+n>)
// `make sim-sv TEST=<t> SEED=<s> [CFG=default|small]` builds and runs it under Verilator.

`default_nettype none

module xtm_sv_tb #(
  parameter int unsigned NumPorts   = 8,
  parameter int unsigned NumTcs     = 8,
  parameter int unsigned NumDesc    = 4096,
  parameter int unsigned CellBytes  = 256,
  parameter int unsigned OcbCells   = 65536,
  parameter int unsigned HbmCells   = 33554432,
  parameter int unsigned FifoDepth  = 8,
  // cycles from a logical cycle's inputs to its outputs at the ports: spec 2.0 section 15.1's
  // XTM_OUT_LATENCY = 6 (+latency=<L> overrides it)
  parameter int unsigned OutLatency = xtm_dpi_pkg::XTM_DPI_OUT_LATENCY,
  parameter string       CfgName    = "default"
);
  localparam int unsigned P = NumPorts;
  localparam int unsigned RecW = xtm_dpi_pkg::XTM_DPI_DEQ_REC_W;

  logic clk_i = 1'b0;
  logic rst_ni = 1'b1;
  logic        enq_valid_i;
  logic [31:0] enq_pkt_id_i;
  logic [5:0]  enq_in_port_i, enq_eg_port_i, enq_dscp_i;
  logic [1:0]  enq_ecn_i;
  logic [13:0] enq_len_i;
  logic [P-1:0]     pfc_rx_valid_i;
  logic [P*8-1:0]   pfc_rx_vec_i;
  logic [P*128-1:0] pfc_rx_quanta_i;
  logic [P-1:0]     tx_ready_i;
  logic        psel_i, penable_i, pwrite_i;
  // the APB master's side of the bus
  logic        m_psel, m_penable, m_pready, m_pslverr;
  logic [31:0] m_prdata;
  bit apb_in_access = 1'b0;  // an access phase is running (pready not seen yet)
  logic [15:0] paddr_i;
  logic [31:0] pwdata_i;
  logic        pready_o, pslverr_o;
  logic [31:0] prdata_o;
  logic        enq_res_valid_o, enq_res_marked_o, enq_res_hdrm_o, enq_res_hbm_o;
  logic [31:0] enq_res_pkt_id_o;
  logic [8:0]  enq_res_voq_o;
  logic [3:0]  enq_res_reason_o;
  logic        flush_valid_o;
  logic [31:0] flush_pkt_id_o;
  logic [8:0]  flush_voq_o;
  logic [P-1:0]      deq_valid_o;
  logic [P*RecW-1:0] deq_o;
  logic [P-1:0]      pfc_tx_valid_o;
  logic [P*8-1:0]    pfc_tx_vec_o;
  logic [P*128-1:0]  pfc_tx_quanta_o;

  xtm_top #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .NumDesc  (NumDesc),
    .CellBytes(CellBytes),
    .OcbCells (OcbCells),
    .HbmCells (HbmCells),
    .FifoDepth(FifoDepth)
  ) dut (
    .clk_i,
    .rst_ni,
    .enq_valid_i,
    .enq_pkt_id_i,
    .enq_in_port_i,
    .enq_eg_port_i,
    .enq_dscp_i,
    .enq_ecn_i,
    .enq_len_i,
    .pfc_rx_valid_i,
    .pfc_rx_vec_i,
    .pfc_rx_quanta_i,
    .tx_ready_i,
    .psel_i,
    .penable_i,
    .pwrite_i,
    .paddr_i,
    .pwdata_i,
    .pready_o,
    .prdata_o,
    .pslverr_o,
    .enq_res_valid_o,
    .enq_res_pkt_id_o,
    .enq_res_voq_o,
    .enq_res_reason_o,
    .enq_res_marked_o,
    .enq_res_hdrm_o,
    .enq_res_hbm_o,
    .flush_valid_o,
    .flush_pkt_id_o,
    .flush_voq_o,
    .deq_valid_o,
    .deq_o,
    .pfc_tx_valid_o,
    .pfc_tx_vec_o,
    .pfc_tx_quanta_o
  );

  always #5 clk_i = ~clk_i;  // one period (10 time units) = one spec cycle

  // ---------------------------------------------------------------- driver
  task automatic drive_idle();
    enq_valid_i = 1'b0;
    enq_pkt_id_i = '0;
    enq_in_port_i = '0;
    enq_eg_port_i = '0;
    enq_dscp_i = '0;
    enq_ecn_i = '0;
    enq_len_i = '0;
    pfc_rx_valid_i = '0;
    tx_ready_i = '1;
    psel_i = 1'b0;
    penable_i = 1'b0;
    pwrite_i = 1'b0;
    paddr_i = '0;
    pwdata_i = '0;
    m_psel = 1'b0;
    m_penable = 1'b0;
  endtask

  // The sequence's inputs of one cycle onto the ports. Frame fields are written for the
  // ports that carry a frame and otherwise keep the last frame's values (they only matter
  // with their valid bit, as the reference ignores them likewise).
  task automatic drive(xtm_dpi_pkg::xtm_dpi_in_t in, xtm_dpi_pkg::xtm_dpi_vec_t vec,
                       xtm_dpi_pkg::xtm_dpi_quanta_t q, xtm_sv_pkg::xtm_sv_apb_master apb);
    enq_valid_i = in.enq.valid;
    enq_pkt_id_i = in.enq.pkt_id;
    enq_in_port_i = in.enq.in_port;
    enq_eg_port_i = in.enq.eg_port;
    enq_dscp_i = in.enq.dscp;
    enq_ecn_i = in.enq.ecn;
    enq_len_i = in.enq.len;
    tx_ready_i = in.tx_ready[P-1:0];
    pfc_rx_valid_i = in.pfc_rx_valid[P-1:0];
    for (int unsigned p = 0; p < P; p++) begin
      if (in.pfc_rx_valid[p]) begin
        pfc_rx_vec_i[8*p+:8] = vec[8*p+:8];
        pfc_rx_quanta_i[128*p+:128] = q[128*p+:128];
      end
    end
    m_psel = apb.psel;
    m_penable = apb.penable;
    pwrite_i = apb.pwrite;
    paddr_i = apb.paddr;
    pwdata_i = apb.pwdata;
    psel_i = m_psel;
    penable_i = m_penable;
  endtask

  // the completer's answer (pready, prdata, pslverr) on the master's side
  task automatic apb_slave_answer();
    m_pready = pready_o;
    m_prdata = prdata_o;
    m_pslverr = pslverr_o;
  endtask

  // ---------------------------------------------------------------- monitors

  // What the DUT's input ports carry this cycle, as the reference's input bundle. A CSR
  // access is the first cycle of an APB access phase (psel && penable).
  function automatic void monitor_in(output xtm_dpi_pkg::xtm_dpi_in_t in,
                                     output xtm_dpi_pkg::xtm_dpi_vec_t vec,
                                     output xtm_dpi_pkg::xtm_dpi_quanta_t q);
    in = '0;
    vec = '0;
    q = '0;
    in.enq.valid = enq_valid_i;
    in.enq.pkt_id = enq_pkt_id_i;
    in.enq.in_port = enq_in_port_i;
    in.enq.eg_port = enq_eg_port_i;
    in.enq.dscp = enq_dscp_i;
    in.enq.ecn = enq_ecn_i;
    in.enq.len = enq_len_i;
    in.tx_ready[P-1:0] = tx_ready_i;
    in.pfc_rx_valid[P-1:0] = pfc_rx_valid_i;
    vec[P*8-1:0] = pfc_rx_vec_i;
    q[P*128-1:0] = pfc_rx_quanta_i;
    in.csr.valid = m_psel && m_penable && !apb_in_access;
    in.csr.write = pwrite_i;
    in.csr.addr = paddr_i;
    in.csr.wdata = pwdata_i;
  endfunction

  function automatic void monitor_out(output xtm_sv_pkg::xtm_sv_obs_t o);
    o = '0;
    o.out.enq_res.valid = enq_res_valid_o;
    o.out.enq_res.pkt_id = enq_res_pkt_id_o;
    o.out.enq_res.voq = enq_res_voq_o;
    o.out.enq_res.reason = enq_res_reason_o;
    o.out.enq_res.marked = enq_res_marked_o;
    o.out.enq_res.hdrm = enq_res_hdrm_o;
    o.out.enq_res.hbm = enq_res_hbm_o;
    o.out.flush.valid = flush_valid_o;
    o.out.flush.pkt_id = flush_pkt_id_o;
    o.out.flush.voq = flush_voq_o;
    o.out.deq_valid[P-1:0] = deq_valid_o;
    o.out.pfc_tx_valid[P-1:0] = pfc_tx_valid_o;
    o.deq[P*RecW-1:0] = deq_o;
    o.pfc_vec[P*8-1:0] = pfc_tx_vec_o;
    o.pfc_quanta[P*128-1:0] = pfc_tx_quanta_o;
  endfunction

  // +dut_delay: what the output ports of cycle t show when they are registered n times
  // (a ring, not a queue: a queue of these wide structs in this block read back zeros
  // under Verilator 5.006)
  localparam int unsigned MaxDelay = 16;
  xtm_sv_pkg::xtm_sv_obs_t delay_ring[MaxDelay];
  function automatic void delayed(longint unsigned t, int unsigned n, inout xtm_sv_pkg::xtm_sv_obs_t o);
    delay_ring[t%MaxDelay] = o;
    if (t >= n) begin
      o = delay_ring[(t-n)%MaxDelay];
    end else begin
      o = '0;  // nothing at the ports yet
    end
  endfunction

  // ---------------------------------------------------------------- run
  initial begin : run
    xtm_sv_pkg::xtm_sv_test seq;
    xtm_sv_pkg::xtm_sv_apb_master apb;
    xtm_sv_pkg::xtm_sv_scoreboard sb;
    xtm_dpi_pkg::xtm_dpi_params_t prm;
    xtm_dpi_pkg::xtm_dpi_in_t in, min;
    xtm_dpi_pkg::xtm_dpi_vec_t vec, mvec;
    xtm_dpi_pkg::xtm_dpi_quanta_t q, mq;
    xtm_sv_pkg::xtm_sv_obs_t robs, dobs;
    string test_name, out_dir;
    longint unsigned seed, cycles, max_errors, trace_start, apb_timeout, t, total, fault_at;
    int unsigned latency, audit, dut_delay, fault;
    int fst;
    string fault_arg;
    bit trace, tracing, audit_started, ok, bad_arg;
    real t0, secs;

    if ($test$plusargs("list")) begin
      xtm_sv_pkg::xtm_sv_list_tests();
      $finish;
    end
    test_name = "smoke";
    seed = 1;
    cycles = 0;
    max_errors = 1;
    trace_start = 0;
    latency = OutLatency;
    audit = 1;
    apb_timeout = 1000;
    out_dir = "";
    void'($value$plusargs("test=%s", test_name));
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("cycles=%d", cycles));
    void'($value$plusargs("max_errors=%d", max_errors));
    void'($value$plusargs("latency=%d", latency));
    void'($value$plusargs("trace_start=%d", trace_start));
    void'($value$plusargs("audit=%d", audit));
    void'($value$plusargs("apb_timeout=%d", apb_timeout));
    dut_delay = 0;
    void'($value$plusargs("dut_delay=%d", dut_delay));
    bad_arg = 1'b0;
    if ($test$plusargs("apb_wait")) begin  // a run that silently ignored it would mean nothing
      $display("FAILURE: +apb_wait was the stand-in for RTL 2.0's APB wait states; the RTL has them now (spec 10.1)");
      bad_arg = 1'b1;
    end
    if (dut_delay >= MaxDelay) begin
      $display("FAILURE: +dut_delay=%0d: at most %0d", dut_delay, MaxDelay - 1);
      bad_arg = 1'b1;
    end
    fault = 0;
    fault_at = '1;
    if ($value$plusargs("fault=%s", fault_arg)) begin
      // a negative test that silently runs without its fault would pass for the wrong reason
      if ($sscanf(fault_arg, "%d@%d", fault, fault_at) != 2) begin
        $display("FAILURE: +fault=<n>@<cycle> expected, got '%s'", fault_arg);
        bad_arg = 1'b1;
      end
    end
    trace = $test$plusargs("trace");
    $display("seed: %0d", seed);
    $display("reproduce: make sim-sv TEST=%s SEED=%0d CFG=%s", test_name, seed, CfgName);
    // the stamp (issue 17, the lines tb/tb_common.h tb_print_stamp prints for the C++
    // co-sims): the spec version the register map encodes, git describe, the configuration
    $display("spec: %0d.%0d.%0d", xtm_reg_pkg::XTM_VERSION_VALUE[31:24],
             xtm_reg_pkg::XTM_VERSION_VALUE[23:16], xtm_reg_pkg::XTM_VERSION_VALUE[15:0]);
    $display("git: %s", xtm_sv_pkg::xtm_sv_git_describe());
    $display("config: sv-%s (%0d ports x %0d TCs x %0d descriptors)", CfgName, NumPorts, NumTcs,
             NumDesc);
    if (!$value$plusargs("out=%s", out_dir)) out_dir = $sformatf("sim/out/sv-%s.%0d", test_name, seed);
    if (xtm_sv_pkg::xtm_sv_mkdir(out_dir) != 0) $display("cannot create %s", out_dir);

    seq = xtm_sv_pkg::xtm_sv_make_test(test_name, seed, NumPorts, NumTcs);
    if (seq == null || bad_arg) begin
      if (seq == null) $display("FAILURE: unknown test '%s'; +list shows the tests", test_name);
      $display("TEST FAILED CHECKS");
      xtm_sv_pkg::xtm_sv_exit_code(2);
      $finish;
    end
    if (cycles == 0) cycles = seq.default_cycles();

    // the reference with the DUT's parameters
    prm.num_ports = NumPorts;
    prm.num_tcs = NumTcs;
    prm.num_desc = NumDesc;
    prm.cell_bytes = CellBytes;
    prm.ocb_cells = OcbCells;
    prm.hbm_cells = HbmCells;
    prm.fifo_depth = FifoDepth;
    sb = new("sb");
    if (sb.build_phase(prm, latency, max_errors, test_name, seed, CfgName, out_dir, 1'b0) != 0) begin
      $display("TEST FAILED CHECKS");
      xtm_sv_pkg::xtm_sv_exit_code(2);
      $finish;
    end
    apb = new(apb_timeout);

    // reset: rst_ni low (asynchronous) for two clocks, released between edges; the
    // reference is created in its reset state, so the next cycle is cycle 0 of both
    drive_idle();
    #1 rst_ni = 1'b0;
    repeat (2) @(posedge clk_i);
    #1 rst_ni = 1'b1;

    t0 = xtm_sv_pkg::xtm_sv_wall_seconds();
    tracing = 1'b0;
    audit_started = audit == 0;
    t = 0;
    forever begin
      if (trace && !tracing && t >= trace_start) begin
        $dumpfile({out_dir, "/waves.fst"});
        $dumpvars(0, dut);
        tracing = 1'b1;
      end
      // end of the test's cycles: the register audit (reads predicted from the reference's
      // state) replaces any CSR activity still queued; the traffic goes on meanwhile
      if (t == cycles && !audit_started) begin
        seq.csr_q.delete();
        seq.audit(t);
        audit_started = 1'b1;
      end
      if (t >= cycles && audit_started && !seq.csr_pending() && !apb.busy()) break;
      if (t == fault_at) begin
        fst = xtm_dpi_pkg::xtm_dpi_inject_fault(sb.ref_h, fault);
        $display("injecting fault %0d into the reference at cycle %0d: %s", fault, t,
                 xtm_dpi_pkg::xtm_dpi_status_name(fst));
        // not applied: the run could not do what it was asked (a pass would mean nothing)
        if (fst != xtm_dpi_pkg::XTM_DPI_OK)
          sb.fail(t, $sformatf("fault %0d not injected: %s", fault, xtm_dpi_pkg::xtm_dpi_last_error()));
      end
      // driver
      in = '0;
      in.tx_ready = '1;
      vec = '0;
      q = '0;
      seq.stimulus(t, in, vec, q);
      apb.drive(t, seq);
      drive(in, vec, q, apb);
      // input monitor -> scoreboard (the reference executes cycle t)
      monitor_in(min, mvec, mq);
      sb.write_in(t, min, mvec, mq, robs);
      seq.observe(t, robs.out, robs.pfc_vec, robs.pfc_quanta);
      @(negedge clk_i);
      // output monitors -> scoreboard
      monitor_out(dobs);
      delayed(t, dut_delay, dobs);
      sb.write_out(t, dobs);
      apb_slave_answer();
      if (m_psel && m_penable) begin
        if (m_pready) sb.write_csr_rsp(t, m_prdata, m_pslverr);
        apb_in_access = !m_pready;
      end
      void'(apb.sample(m_pready));
      if (apb.timed_out()) begin
        sb.fail(t, $sformatf("APB: no pready for %0d cycles (addr 0x%04h)", apb_timeout, paddr_i));
        sb.done = 1'b1;
      end
      t++;
      if (sb.done) break;
      @(posedge clk_i);
      #1;
    end
    total = t;
    // drain: the DUT's outputs of the last `latency` logical cycles, idle inputs. The loop
    // left just after the rising edge that starts physical cycle t (= total).
    for (int unsigned k = 0; k < latency && !sb.done; k++) begin
      drive_idle();
      @(negedge clk_i);
      monitor_out(dobs);
      delayed(t, dut_delay, dobs);
      sb.write_out(t, dobs);
      t++;
      @(posedge clk_i);
      #1;
    end
    secs = xtm_sv_pkg::xtm_sv_wall_seconds() - t0;
    if (!sb.done) sb.check_phase(total);
    sb.report_phase(total, secs);
    if (tracing) begin
      $dumpflush;
      $display("waves: %s/waves.fst", out_dir);
      $display("gtkwave: gtkwave %s/waves.fst", out_dir);
    end else begin
      $display("waves: rerun with WAVES=1 (make sim-sv TEST=%s SEED=%0d CFG=%s CYCLES=%0d WAVES=1)",
               test_name, seed, CfgName, cycles);
    end
    ok = sb.errors == 0;
    $display("%s", ok ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
    sb.final_phase();
    xtm_sv_pkg::xtm_sv_exit_code(ok ? 0 : 1);
    $finish;
  end

endmodule
