// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_core: the DCQCN NIC block of docs/spec-dcqcn.md: reaction point (D6), rate-update
// stream (D7), pacer (D8), CSR block (D9), notification point (D10). One cycle of the spec
// (D4) per clock: the outputs are combinational from the inputs and the state at the start
// of the cycle S(t), and the state at the clock edge is S(t+1). C twin: cmodel/dcqcn/dcqcn.c
// and dcqcn_csr.c (eager mode).
//
// Per-QP state is one word per QP (dcqcn_pkg::qp_state_t) in a register file qp_q. Every
// cycle the scan group g = t mod S (U consecutive QPs, D5) is read, updated and written
// back; then the CNP, tx and CE inputs update their QP with forwarding from the earlier
// steps, in the order of D4. Deadlines, pacer and NP times are 64-bit absolute cycles
// exactly as in the model (D3 allows fewer bits; kept wide so that state compares 1:1).

`default_nettype none

module dcqcn_core #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth,
  localparam int unsigned NumRate    = ScanWidth + 2,
  localparam int unsigned GrpW       = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // inputs (D2.1)
  input  wire logic        cnp_valid_i,
  input  wire logic [15:0] cnp_qp_i,
  input  wire logic        tx_valid_i,
  input  wire logic [15:0] tx_qp_i,
  input  wire logic [15:0] tx_bytes_i,
  input  wire logic        ce_valid_i,
  input  wire logic [15:0] ce_qp_i,
  input  wire logic        csr_valid_i,
  input  wire logic        csr_write_i,
  input  wire logic [15:0] csr_addr_i,
  input  wire logic [31:0] csr_wdata_i,
  // outputs (D2.2)
  output logic                              cnp_tx_valid_o,
  output logic [15:0]                       cnp_tx_qp_o,
  output logic [4:0]                        n_rate_o,
  output logic [NumRate*16-1:0]             rate_qp_o,
  output logic [NumRate*20-1:0]             rate_rc_o,
  output logic [NumRate*20-1:0]             rate_rt_o,
  output logic [NumRate*10-1:0]             rate_alpha_o,
  output logic                              pace_valid_o,
  output logic [15:0]                       pace_qp_o,
  output logic [63:0]                       pace_next_send_o,
  output logic                              csr_rsp_valid_o,
  output logic                              csr_rsp_err_o,
  output logic [31:0]                       csr_rsp_rdata_o
);

  if (NumQps < 1 || NumQps > 4096) begin : g_bad_qps
    $fatal(1, "dcqcn_core: NumQps must be 1..4096");
  end
  if (ScanWidth < 1 || ScanWidth > 16) begin : g_bad_scan
    $fatal(1, "dcqcn_core: ScanWidth must be 1..16");
  end

  // global counters (D12), register-map order
  localparam int unsigned GcCnpRx = 0;
  localparam int unsigned GcCnpFirst = 1;
  localparam int unsigned GcCuts = 2;
  localparam int unsigned GcIncFr = 3;
  // 4, 5: INC_AI, INC_HAI (GcIncFr + the class of the event)
  localparam int unsigned GcIncByTimer = 6;
  localparam int unsigned GcIncByBytes = 7;
  localparam int unsigned GcCeRx = 8;
  localparam int unsigned GcCnpTx = 9;
  localparam int unsigned GcCeCoalesced = 10;
  localparam int unsigned GcBadQp = 11;
  localparam int unsigned GcPaceEarly = 12;
  localparam int unsigned NumGcnt = 13;
  // per-QP counters
  localparam int unsigned QcCnpRx = 0;
  localparam int unsigned QcCuts = 1;
  localparam int unsigned QcInc = 2;
  localparam int unsigned QcCeRx = 3;
  localparam int unsigned QcCnpTx = 4;
  localparam int unsigned NumQcnt = 5;

  localparam logic [15:0] NUM_QPS_16 = 16'(NumQps);

  // ---------------------------------------------------------------- state
  // Arrays are flat vectors with indexed part-selects: Yosys 0.23 parses no `logic [a][b]`
  // and silently drops the array dimension of a packed array of a package type. A state
  // word is copied to a struct variable before a member is used.
  localparam int unsigned QpBits = dcqcn_pkg::QP_STATE_W;
  logic [NumQps*QpBits-1:0] qp_q /* verilator public_flat_rd */;
  logic [NumQps*QpBits-1:0] qp_d;
  logic [NumQps*NumQcnt*64-1:0] qcnt_q /* verilator public_flat_rd */;
  logic [NumQps*NumQcnt*64-1:0] qcnt_d;
  logic [NumGcnt*64-1:0] gcnt_q /* verilator public_flat_rd */;
  logic [NumGcnt*64-1:0] gcnt_d;
  dcqcn_pkg::cfg_t cfg_q, cfg_d;
  dcqcn_pkg::time_t t_q /* verilator public_flat_rd */;
  logic [GrpW-1:0] grp_q, grp_d;
  logic [12:0] qp_sel_q, qp_sel_d;
  logic [2:0]  err_status_q, err_status_d;
  logic [15:0] err_addr_q, err_addr_d;
  logic [31:0] cnt_hi_q, cnt_hi_d;

  // Reset values of the parameter registers (generated package).
  dcqcn_pkg::cfg_t cfg_rst;
  always_comb begin
    cfg_rst = '0;
    cfg_rst.time_reset_us = 17'(dcqcn_reg_pkg::DCQCN_RPG_TIME_RESET_RESVAL);
    cfg_rst.byte_reset = 15'(dcqcn_reg_pkg::DCQCN_RPG_BYTE_RESET_RESVAL);
    cfg_rst.threshold = 5'(dcqcn_reg_pkg::DCQCN_RPG_THRESHOLD_RESVAL);
    cfg_rst.ai_rate = 20'(dcqcn_reg_pkg::DCQCN_RPG_AI_RATE_RESVAL);
    cfg_rst.hai_rate = 20'(dcqcn_reg_pkg::DCQCN_RPG_HAI_RATE_RESVAL);
    cfg_rst.gd = 4'(dcqcn_reg_pkg::DCQCN_RPG_GD_RESVAL);
    cfg_rst.min_dec_fac = 7'(dcqcn_reg_pkg::DCQCN_RPG_MIN_DEC_FAC_RESVAL);
    cfg_rst.min_rate = 20'(dcqcn_reg_pkg::DCQCN_RPG_MIN_RATE_RESVAL);
    cfg_rst.max_rate = 20'(dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_RESVAL);
    cfg_rst.rate_first = 20'(dcqcn_reg_pkg::DCQCN_RATE_TO_SET_ON_FIRST_CNP_RESVAL);
    cfg_rst.g = 10'(dcqcn_reg_pkg::DCQCN_DCE_TCP_G_RESVAL);
    cfg_rst.rtt_us = 17'(dcqcn_reg_pkg::DCQCN_DCE_TCP_RTT_RESVAL);
    cfg_rst.alpha_init = 10'(dcqcn_reg_pkg::DCQCN_INITIAL_ALPHA_VALUE_RESVAL);
    cfg_rst.clamp_tgt = 1'(dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_RESVAL);
    cfg_rst.clamp_ati = 1'(dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_RESVAL);
    cfg_rst.rrmp_us = 17'(dcqcn_reg_pkg::DCQCN_RATE_REDUCE_MONITOR_PERIOD_RESVAL);
    cfg_rst.min_cnp_us = 17'(dcqcn_reg_pkg::DCQCN_MIN_TIME_BETWEEN_CNPS_RESVAL);
    cfg_rst.cycles_per_us = 16'(dcqcn_reg_pkg::DCQCN_CYCLES_PER_US_RESVAL);
    cfg_rst.line_rate = 20'(dcqcn_reg_pkg::DCQCN_LINE_RATE_RESVAL);
  end

  // Reset / Q_CTRL.INIT word (D6.1): rates at the cap of that moment, timers disarmed.
  // (Built from scalars: Yosys 0.23 takes no member select on a function's struct.)
  function automatic dcqcn_pkg::qp_state_t init_word(dcqcn_pkg::rate_t cap);
    init_word = {3'b000, cap, cap, 10'd1023, 8'd0, 8'd0, 22'd0, dcqcn_pkg::NEVER,
                 dcqcn_pkg::NEVER, dcqcn_pkg::NEVER, 64'd0, 1'b0, 64'd0};
  endfunction

  // ---------------------------------------------------------------- the cycle (D4)
  dcqcn_pkg::qp_state_t s;
  dcqcn_pkg::time_t p_alpha, p_dec, p_inc, min_cnp_cycles, now_q8, base_q8, gap_q8;
  logic [42:0] pace_num;
  logic [1:0] cls;
  logic [22:0] bsum;
  logic [20:0] bthr;
  logic [15:0] q;
  logic [ScanWidth-1:0] slot_touch;
  logic [ScanWidth*16-1:0] slot_qp;
  logic cnp_touch, tx_touch, cnp_new, tx_new;
  logic [4:0] nr;
  // CSR decode
  logic csr_mapped, csr_wr_ok, csr_legal, csr_ro, csr_is_cnt, csr_cnt_lo, csr_err;
  logic [63:0] csr_cnt_val;
  logic [31:0] csr_rd;
  logic [15:0] a, a_off;
  logic [42:0] gap43;
  logic unused_bits;
  assign unused_bits = ^{csr_wdata_i[31:20], sel.np_sent, sel.np_last, a_off[15:7], a_off[2:0],
                         sn, so};
  dcqcn_pkg::qp_state_t sel, sn, so;
  dcqcn_pkg::rate_t cap_c, lo_c;  // Rmax and Rmin of this cycle (D6.1)
  dcqcn_pkg::qp_state_t init_c;   // the INIT word with this cycle's cap
  assign cap_c = dcqcn_pkg::rate_cap(cfg_q.max_rate, cfg_q.line_rate);
  assign lo_c = (cfg_q.min_rate < cap_c) ? cfg_q.min_rate : cap_c;
  assign init_c = init_word(cap_c);
  dcqcn_pkg::time_t ns;

  // Cycles from t until an absolute deadline, 0 when due or disarmed, saturated to 32 bits.
  function automatic logic [31:0] remain(dcqcn_pkg::time_t due, dcqcn_pkg::time_t t);
    dcqcn_pkg::time_t d;
    d = due - t;
    if (due == dcqcn_pkg::NEVER || due <= t) begin
      remain = '0;
    end else if (d > 64'hFFFF_FFFF) begin
      remain = '1;
    end else begin
      remain = d[31:0];
    end
  endfunction

  always_comb begin
    qp_d = qp_q;
    qcnt_d = qcnt_q;
    gcnt_d = gcnt_q;
    cfg_d = cfg_q;
    grp_d = (32'(grp_q) == ScanPeriod - 1) ? '0 : grp_q + 1'b1;
    qp_sel_d = qp_sel_q;
    err_status_d = err_status_q;
    err_addr_d = err_addr_q;
    cnt_hi_d = cnt_hi_q;
    cnp_tx_valid_o = 1'b0;
    cnp_tx_qp_o = '0;
    n_rate_o = '0;
    rate_qp_o = '0;
    rate_rc_o = '0;
    rate_rt_o = '0;
    rate_alpha_o = '0;
    pace_valid_o = 1'b0;
    pace_qp_o = '0;
    pace_next_send_o = '0;
    csr_rsp_valid_o = csr_valid_i;
    csr_rsp_err_o = 1'b0;
    csr_rsp_rdata_o = '0;
    s = '0;
    cls = dcqcn_pkg::IncFr;
    bsum = '0;
    bthr = '0;
    q = '0;
    slot_touch = '0;
    slot_qp = '0;
    sn = '0;
    so = '0;
    cnp_touch = 1'b0;
    tx_touch = 1'b0;
    cnp_new = 1'b0;
    tx_new = 1'b0;
    nr = '0;
    now_q8 = '0;
    base_q8 = '0;
    gap_q8 = '0;
    pace_num = '0;
    ns = '0;
    p_alpha = dcqcn_pkg::period(cfg_q.rtt_us, cfg_q.cycles_per_us, ScanPeriod);
    p_dec = dcqcn_pkg::period(cfg_q.rrmp_us, cfg_q.cycles_per_us, ScanPeriod);
    p_inc = dcqcn_pkg::period(cfg_q.time_reset_us, cfg_q.cycles_per_us, ScanPeriod);
    min_cnp_cycles = 64'(cfg_q.min_cnp_us) * 64'(cfg_q.cycles_per_us);

    // ---- 1. CSR read sample from S(t) (D9)
    a = csr_addr_i;
    a_off = '0;
    gap43 = '0;
    sel = qp_q[32'(qp_sel_q) * QpBits +: QpBits];
    csr_mapped = 1'b1;
    csr_ro = 1'b0;
    csr_legal = 1'b1;
    csr_is_cnt = 1'b0;
    csr_cnt_lo = 1'b0;
    csr_cnt_val = '0;
    csr_rd = '0;
    if (a >= 16'h0100 && a < 16'h0168) begin
      csr_is_cnt = 1'b1;
      csr_ro = 1'b1;
      csr_cnt_lo = !a[2];
      a_off = a - 16'h0100;
      csr_cnt_val = gcnt_q[32'(a_off[6:3]) * 64 +: 64];
    end else if (a >= dcqcn_reg_pkg::DCQCN_Q_CNP_RX_LO_OFFSET && a < 16'h0268) begin
      csr_is_cnt = 1'b1;
      csr_ro = 1'b1;
      csr_cnt_lo = !a[2];
      a_off = a - 16'h0240;
      csr_cnt_val = qcnt_q[(32'(qp_sel_q) * NumQcnt + 32'(a_off[5:3])) * 64 +: 64];
    end else begin
      unique case (a)
        dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_RESVAL;
        end
        dcqcn_reg_pkg::DCQCN_VERSION_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = dcqcn_reg_pkg::DCQCN_VERSION_RESVAL;
        end
        dcqcn_reg_pkg::DCQCN_HW_PARAMS_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {11'd0, 5'(ScanWidth), 3'd0, 13'(NumQps)};
        end
        dcqcn_reg_pkg::DCQCN_CTRL_OFFSET: csr_rd = '0;
        dcqcn_reg_pkg::DCQCN_ERR_STATUS_OFFSET: csr_rd = {29'd0, err_status_q};
        dcqcn_reg_pkg::DCQCN_ERR_ADDR_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {16'd0, err_addr_q};
        end
        dcqcn_reg_pkg::DCQCN_CNT_HI_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = cnt_hi_q;
        end
        dcqcn_reg_pkg::DCQCN_QP_SEL_OFFSET: begin
          csr_rd = {19'd0, qp_sel_q};
          csr_legal = csr_wdata_i[12:0] < 13'(NumQps);
        end
        dcqcn_reg_pkg::DCQCN_CYCLES_PER_US_OFFSET: begin
          csr_rd = {16'd0, cfg_q.cycles_per_us};
          csr_legal = csr_wdata_i[15:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_LINE_RATE_OFFSET: begin
          csr_rd = {12'd0, cfg_q.line_rate};
          csr_legal = csr_wdata_i[19:0] != '0 && csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_RPG_TIME_RESET_OFFSET: begin
          csr_rd = {15'd0, cfg_q.time_reset_us};
          csr_legal = csr_wdata_i[16:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_RPG_BYTE_RESET_OFFSET: begin
          csr_rd = {17'd0, cfg_q.byte_reset};
          csr_legal = csr_wdata_i[14:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_RPG_THRESHOLD_OFFSET: begin
          csr_rd = {27'd0, cfg_q.threshold};
          csr_legal = csr_wdata_i[4:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_RPG_AI_RATE_OFFSET: begin
          csr_rd = {12'd0, cfg_q.ai_rate};
          csr_legal = csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_RPG_HAI_RATE_OFFSET: begin
          csr_rd = {12'd0, cfg_q.hai_rate};
          csr_legal = csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_RPG_GD_OFFSET: csr_rd = {28'd0, cfg_q.gd};
        dcqcn_reg_pkg::DCQCN_RPG_MIN_DEC_FAC_OFFSET: begin
          csr_rd = {25'd0, cfg_q.min_dec_fac};
          csr_legal = csr_wdata_i[6:0] <= 7'd100;
        end
        dcqcn_reg_pkg::DCQCN_RPG_MIN_RATE_OFFSET: begin
          csr_rd = {12'd0, cfg_q.min_rate};
          csr_legal = csr_wdata_i[19:0] != '0 && csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_OFFSET: begin
          csr_rd = {12'd0, cfg_q.max_rate};
          csr_legal = csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_RATE_TO_SET_ON_FIRST_CNP_OFFSET: begin
          csr_rd = {12'd0, cfg_q.rate_first};
          csr_legal = csr_wdata_i[19:0] <= 20'd1000000;
        end
        dcqcn_reg_pkg::DCQCN_DCE_TCP_G_OFFSET: csr_rd = {22'd0, cfg_q.g};
        dcqcn_reg_pkg::DCQCN_DCE_TCP_RTT_OFFSET: begin
          csr_rd = {15'd0, cfg_q.rtt_us};
          csr_legal = csr_wdata_i[16:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_INITIAL_ALPHA_VALUE_OFFSET: csr_rd = {22'd0, cfg_q.alpha_init};
        dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_OFFSET: csr_rd = {31'd0, cfg_q.clamp_tgt};
        dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_OFFSET:
          csr_rd = {31'd0, cfg_q.clamp_ati};
        dcqcn_reg_pkg::DCQCN_RATE_REDUCE_MONITOR_PERIOD_OFFSET: begin
          csr_rd = {15'd0, cfg_q.rrmp_us};
          csr_legal = csr_wdata_i[16:0] != '0;
        end
        dcqcn_reg_pkg::DCQCN_MIN_TIME_BETWEEN_CNPS_OFFSET: csr_rd = {15'd0, cfg_q.min_cnp_us};
        dcqcn_reg_pkg::DCQCN_Q_CTRL_OFFSET: csr_rd = '0;
        dcqcn_reg_pkg::DCQCN_Q_STATUS_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {8'd0, sel.stage_bc, sel.stage_t, 5'd0, sel.cnp_dec, sel.cnp_alpha,
                    sel.active};
        end
        dcqcn_reg_pkg::DCQCN_Q_RC_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {12'd0, sel.rc};
        end
        dcqcn_reg_pkg::DCQCN_Q_RT_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {12'd0, sel.rt};
        end
        dcqcn_reg_pkg::DCQCN_Q_ALPHA_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {22'd0, sel.alpha};
        end
        dcqcn_reg_pkg::DCQCN_Q_BYTE_COUNT_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = {10'd0, sel.byte_count};
        end
        dcqcn_reg_pkg::DCQCN_Q_ALPHA_REMAIN_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = remain(sel.due_alpha, t_q);
        end
        dcqcn_reg_pkg::DCQCN_Q_DEC_REMAIN_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = remain(sel.due_dec, t_q);
        end
        dcqcn_reg_pkg::DCQCN_Q_INC_REMAIN_OFFSET: begin
          csr_ro = 1'b1;
          csr_rd = remain(sel.due_inc, t_q);
        end
        dcqcn_reg_pkg::DCQCN_Q_NEXT_SEND_OFFSET: begin
          csr_ro = 1'b1;
          ns = (sel.pace_q8 + 64'd255) >> 8;
          csr_rd = (ns > t_q) ? remain(ns, t_q) : '0;
        end
        default: csr_mapped = 1'b0;
      endcase
    end
    csr_mapped = csr_mapped && (a[1:0] == 2'd0);
    if (csr_is_cnt) begin
      csr_rd = a[2] ? cnt_hi_q : csr_cnt_val[31:0];
    end
    if (!csr_mapped) begin
      csr_rd = '0;
    end
    if (csr_valid_i && !csr_write_i) begin
      csr_rsp_rdata_o = csr_rd;
    end

    // ---- 2. timer scan (D5): U slots of group g, ascending QP
    for (int unsigned i = 0; i < ScanWidth; i++) begin
      q = 16'(32'(grp_q) * ScanWidth + i);
      slot_qp[i * 16 +: 16] = q;
      if (q < NUM_QPS_16) begin
        s = qp_d[32'(q) * QpBits +: QpBits];
        if (s.active && (s.due_alpha <= t_q || s.due_dec <= t_q || s.due_inc <= t_q)) begin
          slot_touch[i] = 1'b1;
          if (s.due_alpha <= t_q) begin  // D6.3
            s.alpha = dcqcn_pkg::alpha_next(cfg_q.g, s.alpha, s.cnp_alpha);
            s.cnp_alpha = 1'b0;
            s.due_alpha = s.due_alpha + p_alpha;
          end
          if (s.due_dec <= t_q) begin  // D6.4
            if (s.cnp_dec) begin
              if (cfg_q.clamp_tgt || s.stage_bc != '0 || (cfg_q.clamp_ati && s.stage_t != '0))
              begin
                s.rt = s.rc;
              end
              s.rc = dcqcn_pkg::cut_rc(s.rc, s.alpha, cfg_q.gd, cfg_q.min_dec_fac, lo_c, cap_c);
              s.stage_t = '0;
              s.stage_bc = '0;
              s.byte_count = '0;
              s.cnp_dec = 1'b0;
              s.due_inc = t_q + p_inc;
              gcnt_d[GcCuts * 64 +: 64] = gcnt_d[GcCuts * 64 +: 64] + 64'd1;
              qcnt_d[(32'(q) * NumQcnt + QcCuts) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcCuts) * 64 +: 64] + 64'd1;
            end
            s.due_dec = s.due_dec + p_dec;
          end
          if (s.due_inc <= t_q) begin  // D6.5 timer increase
            s.due_inc = s.due_inc + p_inc;
            cls = dcqcn_pkg::inc_class(cfg_q.threshold, s.stage_t, s.stage_bc);
            s.rt = dcqcn_pkg::inc_rt(s.rt, cls, cfg_q.ai_rate, cfg_q.hai_rate, cap_c);
            s.rc = dcqcn_pkg::inc_rc(s.rc, s.rt, lo_c, cap_c);
            s.stage_t = dcqcn_pkg::sat_stage(s.stage_t);
            gcnt_d[(GcIncFr + 32'(cls)) * 64 +: 64] = gcnt_d[(GcIncFr + 32'(cls)) * 64 +: 64] + 64'd1;
            gcnt_d[GcIncByTimer * 64 +: 64] = gcnt_d[GcIncByTimer * 64 +: 64] + 64'd1;
            qcnt_d[(32'(q) * NumQcnt + QcInc) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcInc) * 64 +: 64] + 64'd1;
          end
          qp_d[32'(q) * QpBits +: QpBits] = s;
        end
      end
    end

    // ---- 3. CNP received (D6.2, D6.7)
    if (cnp_valid_i) begin
      if (cnp_qp_i < NUM_QPS_16) begin
        q = cnp_qp_i;
        cnp_touch = 1'b1;
        s = qp_d[32'(q) * QpBits +: QpBits];
        gcnt_d[GcCnpRx * 64 +: 64] = gcnt_d[GcCnpRx * 64 +: 64] + 64'd1;
        qcnt_d[(32'(q) * NumQcnt + QcCnpRx) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcCnpRx) * 64 +: 64] + 64'd1;
        if (!s.active) begin
          s.active = 1'b1;
          s.alpha = cfg_q.alpha_init;
          if (cfg_q.rate_first != '0) begin
            s.rc = cfg_q.rate_first;
            s.rt = cfg_q.rate_first;
          end
          s.rc = dcqcn_pkg::clamp_rate(lo_c, cap_c, {1'b0, s.rc});
          s.rt = dcqcn_pkg::clamp_rate(lo_c, cap_c, {1'b0, s.rt});
          s.cnp_alpha = 1'b0;
          s.cnp_dec = 1'b0;
          s.stage_t = '0;
          s.stage_bc = '0;
          s.byte_count = '0;
          s.due_alpha = t_q + p_alpha;
          s.due_dec = t_q + p_dec;
          s.due_inc = t_q + p_inc;
          gcnt_d[GcCnpFirst * 64 +: 64] = gcnt_d[GcCnpFirst * 64 +: 64] + 64'd1;
        end else begin
          s.cnp_alpha = 1'b1;
          s.cnp_dec = 1'b1;
        end
        qp_d[32'(q) * QpBits +: QpBits] = s;
      end else begin
        gcnt_d[GcBadQp * 64 +: 64] = gcnt_d[GcBadQp * 64 +: 64] + 64'd1;
      end
    end

    // ---- 4. bytes transmitted: pacer (D8), then byte counter (D6.5)
    if (tx_valid_i) begin
      if (tx_qp_i < NUM_QPS_16) begin
        q = tx_qp_i;
        tx_touch = 1'b1;
        s = qp_d[32'(q) * QpBits +: QpBits];
        now_q8 = {t_q[55:0], 8'd0};
        if (now_q8 < s.pace_q8) begin
          gcnt_d[GcPaceEarly * 64 +: 64] = gcnt_d[GcPaceEarly * 64 +: 64] + 64'd1;
        end
        base_q8 = (now_q8 > s.pace_q8) ? now_q8 : s.pace_q8;
        pace_num = 43'(({24'd0, tx_bytes_i, 3'd0} * {27'd0, cfg_q.cycles_per_us}) << 8);
        gap43 = pace_num / 43'(s.rc);  // the exact 43/20-bit divider (D8)
        gap_q8 = 64'(gap43);
        s.pace_q8 = base_q8 + gap_q8;
        pace_valid_o = 1'b1;
        pace_qp_o = q;
        pace_next_send_o = (s.pace_q8 + 64'd255) >> 8;
        if (s.active) begin
          bsum = 23'(s.byte_count) + 23'(tx_bytes_i);
          s.byte_count = (bsum > 23'h3FFFFF) ? 22'h3FFFFF : bsum[21:0];
          bthr = {cfg_q.byte_reset, 6'd0};
          if (23'(s.byte_count) >= 23'(bthr)) begin
            s.byte_count = s.byte_count - 22'(bthr);
            cls = dcqcn_pkg::inc_class(cfg_q.threshold, s.stage_t, s.stage_bc);
            s.rt = dcqcn_pkg::inc_rt(s.rt, cls, cfg_q.ai_rate, cfg_q.hai_rate, cap_c);
            s.rc = dcqcn_pkg::inc_rc(s.rc, s.rt, lo_c, cap_c);
            s.stage_bc = dcqcn_pkg::sat_stage(s.stage_bc);
            gcnt_d[(GcIncFr + 32'(cls)) * 64 +: 64] = gcnt_d[(GcIncFr + 32'(cls)) * 64 +: 64] + 64'd1;
            gcnt_d[GcIncByBytes * 64 +: 64] = gcnt_d[GcIncByBytes * 64 +: 64] + 64'd1;
            qcnt_d[(32'(q) * NumQcnt + QcInc) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcInc) * 64 +: 64] + 64'd1;
          end
        end
        qp_d[32'(q) * QpBits +: QpBits] = s;
      end else begin
        gcnt_d[GcBadQp * 64 +: 64] = gcnt_d[GcBadQp * 64 +: 64] + 64'd1;
      end
    end

    // ---- 5. CE received: the notification point (D10)
    if (ce_valid_i) begin
      if (ce_qp_i < NUM_QPS_16) begin
        q = ce_qp_i;
        s = qp_d[32'(q) * QpBits +: QpBits];
        gcnt_d[GcCeRx * 64 +: 64] = gcnt_d[GcCeRx * 64 +: 64] + 64'd1;
        qcnt_d[(32'(q) * NumQcnt + QcCeRx) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcCeRx) * 64 +: 64] + 64'd1;
        if (!s.np_sent || (t_q - s.np_last) >= min_cnp_cycles) begin
          s.np_sent = 1'b1;
          s.np_last = t_q;
          cnp_tx_valid_o = 1'b1;
          cnp_tx_qp_o = q;
          gcnt_d[GcCnpTx * 64 +: 64] = gcnt_d[GcCnpTx * 64 +: 64] + 64'd1;
          qcnt_d[(32'(q) * NumQcnt + QcCnpTx) * 64 +: 64] = qcnt_d[(32'(q) * NumQcnt + QcCnpTx) * 64 +: 64] + 64'd1;
        end else begin
          gcnt_d[GcCeCoalesced * 64 +: 64] = gcnt_d[GcCeCoalesced * 64 +: 64] + 64'd1;
        end
        qp_d[32'(q) * QpBits +: QpBits] = s;
      end else begin
        gcnt_d[GcBadQp * 64 +: 64] = gcnt_d[GcBadQp * 64 +: 64] + 64'd1;
      end
    end

    // ---- 6. rate-update stream (D7): touched QPs in first-touch order, changed ones only
    for (int unsigned i = 0; i < ScanWidth; i++) begin
      if (slot_touch[i]) begin
        q = slot_qp[i * 16 +: 16];
        sn = qp_d[32'(q) * QpBits +: QpBits];
        so = qp_q[32'(q) * QpBits +: QpBits];
        if (sn.rc != so.rc || sn.rt != so.rt || sn.alpha != so.alpha) begin
          rate_qp_o[32'(nr) * 16 +: 16] = q;
          rate_rc_o[32'(nr) * 20 +: 20] = sn.rc;
          rate_rt_o[32'(nr) * 20 +: 20] = sn.rt;
          rate_alpha_o[32'(nr) * 10 +: 10] = sn.alpha;
          nr = nr + 5'd1;
        end
      end
    end
    cnp_new = cnp_touch;
    for (int unsigned i = 0; i < ScanWidth; i++) begin
      if (slot_touch[i] && slot_qp[i * 16 +: 16] == cnp_qp_i) begin
        cnp_new = 1'b0;
      end
    end
    if (cnp_new) begin
      q = cnp_qp_i;
      sn = qp_d[32'(q) * QpBits +: QpBits];
      so = qp_q[32'(q) * QpBits +: QpBits];
      if (sn.rc != so.rc || sn.rt != so.rt || sn.alpha != so.alpha) begin
        rate_qp_o[32'(nr) * 16 +: 16] = q;
        rate_rc_o[32'(nr) * 20 +: 20] = sn.rc;
        rate_rt_o[32'(nr) * 20 +: 20] = sn.rt;
        rate_alpha_o[32'(nr) * 10 +: 10] = sn.alpha;
        nr = nr + 5'd1;
      end
    end
    tx_new = tx_touch && !(cnp_touch && cnp_qp_i == tx_qp_i);
    for (int unsigned i = 0; i < ScanWidth; i++) begin
      if (slot_touch[i] && slot_qp[i * 16 +: 16] == tx_qp_i) begin
        tx_new = 1'b0;
      end
    end
    if (tx_new) begin
      q = tx_qp_i;
      sn = qp_d[32'(q) * QpBits +: QpBits];
      so = qp_q[32'(q) * QpBits +: QpBits];
      if (sn.rc != so.rc || sn.rt != so.rt || sn.alpha != so.alpha) begin
        rate_qp_o[32'(nr) * 16 +: 16] = q;
        rate_rc_o[32'(nr) * 20 +: 20] = sn.rc;
        rate_rt_o[32'(nr) * 20 +: 20] = sn.rt;
        rate_alpha_o[32'(nr) * 10 +: 10] = sn.alpha;
        nr = nr + 5'd1;
      end
    end
    n_rate_o = nr;

    // ---- 7. end of cycle: CSR write, read side effects (D9)
    csr_err = 1'b0;
    csr_wr_ok = 1'b0;
    if (csr_valid_i) begin
      if (!csr_mapped) begin
        csr_err = 1'b1;
        err_status_d[0] = 1'b1;  // UNMAPPED
        err_addr_d = a;
      end else if (csr_write_i && csr_ro) begin
        csr_err = 1'b1;
        err_status_d[2] = 1'b1;  // RO_WRITE
        err_addr_d = a;
      end else if (csr_write_i && !csr_legal) begin
        csr_err = 1'b1;
        err_status_d[1] = 1'b1;  // ILLEGAL
        err_addr_d = a;
      end else if (csr_write_i) begin
        csr_wr_ok = 1'b1;
      end else if (csr_is_cnt && csr_cnt_lo) begin
        cnt_hi_d = csr_cnt_val[63:32];
      end
    end
    csr_rsp_err_o = csr_err;
    if (csr_wr_ok) begin
      unique case (a)
        dcqcn_reg_pkg::DCQCN_CTRL_OFFSET: begin
          if (csr_wdata_i[0]) begin
            for (int unsigned i = 0; i < NumQps * NumQcnt; i++) begin
              qcnt_d[i * 64 +: 64] = '0;
            end
            for (int unsigned i = 0; i < NumGcnt; i++) begin
              gcnt_d[i * 64 +: 64] = '0;
            end
          end
        end
        dcqcn_reg_pkg::DCQCN_ERR_STATUS_OFFSET:
          err_status_d = err_status_d & ~csr_wdata_i[2:0];
        dcqcn_reg_pkg::DCQCN_QP_SEL_OFFSET: qp_sel_d = csr_wdata_i[12:0];
        dcqcn_reg_pkg::DCQCN_CYCLES_PER_US_OFFSET: cfg_d.cycles_per_us = csr_wdata_i[15:0];
        dcqcn_reg_pkg::DCQCN_LINE_RATE_OFFSET: cfg_d.line_rate = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_RPG_TIME_RESET_OFFSET: cfg_d.time_reset_us = csr_wdata_i[16:0];
        dcqcn_reg_pkg::DCQCN_RPG_BYTE_RESET_OFFSET: cfg_d.byte_reset = csr_wdata_i[14:0];
        dcqcn_reg_pkg::DCQCN_RPG_THRESHOLD_OFFSET: cfg_d.threshold = csr_wdata_i[4:0];
        dcqcn_reg_pkg::DCQCN_RPG_AI_RATE_OFFSET: cfg_d.ai_rate = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_RPG_HAI_RATE_OFFSET: cfg_d.hai_rate = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_RPG_GD_OFFSET: cfg_d.gd = csr_wdata_i[3:0];
        dcqcn_reg_pkg::DCQCN_RPG_MIN_DEC_FAC_OFFSET: cfg_d.min_dec_fac = csr_wdata_i[6:0];
        dcqcn_reg_pkg::DCQCN_RPG_MIN_RATE_OFFSET: cfg_d.min_rate = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_OFFSET: cfg_d.max_rate = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_RATE_TO_SET_ON_FIRST_CNP_OFFSET:
          cfg_d.rate_first = csr_wdata_i[19:0];
        dcqcn_reg_pkg::DCQCN_DCE_TCP_G_OFFSET: cfg_d.g = csr_wdata_i[9:0];
        dcqcn_reg_pkg::DCQCN_DCE_TCP_RTT_OFFSET: cfg_d.rtt_us = csr_wdata_i[16:0];
        dcqcn_reg_pkg::DCQCN_INITIAL_ALPHA_VALUE_OFFSET: cfg_d.alpha_init = csr_wdata_i[9:0];
        dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_OFFSET: cfg_d.clamp_tgt = csr_wdata_i[0];
        dcqcn_reg_pkg::DCQCN_CLAMP_TGT_RATE_AFTER_TIME_INC_OFFSET:
          cfg_d.clamp_ati = csr_wdata_i[0];
        dcqcn_reg_pkg::DCQCN_RATE_REDUCE_MONITOR_PERIOD_OFFSET:
          cfg_d.rrmp_us = csr_wdata_i[16:0];
        dcqcn_reg_pkg::DCQCN_MIN_TIME_BETWEEN_CNPS_OFFSET:
          cfg_d.min_cnp_us = csr_wdata_i[16:0];
        dcqcn_reg_pkg::DCQCN_Q_CTRL_OFFSET: begin
          if (csr_wdata_i[0]) begin
            qp_d[32'(qp_sel_q) * QpBits +: QpBits] = init_c;
          end
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < NumQps; i++) begin
        qp_q[i * QpBits +: QpBits] <= init_word(dcqcn_pkg::rate_cap(
            20'(dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_RESVAL),
            20'(dcqcn_reg_pkg::DCQCN_LINE_RATE_RESVAL)));
      end
      for (int unsigned i = 0; i < NumQps * NumQcnt; i++) begin
        qcnt_q[i * 64 +: 64] <= '0;
      end
      for (int unsigned i = 0; i < NumGcnt; i++) begin
        gcnt_q[i * 64 +: 64] <= '0;
      end
      cfg_q <= cfg_rst;
      t_q <= '0;
      grp_q <= '0;
      qp_sel_q <= '0;
      err_status_q <= '0;
      err_addr_q <= '0;
      cnt_hi_q <= '0;
    end else begin
      qp_q <= qp_d;
      qcnt_q <= qcnt_d;
      gcnt_q <= gcnt_d;
      cfg_q <= cfg_d;
      t_q <= t_q + 64'd1;
      grp_q <= grp_d;
      qp_sel_q <= qp_sel_d;
      err_status_q <= err_status_d;
      err_addr_q <= err_addr_d;
      cnt_hi_q <= cnt_hi_d;
    end
  end

endmodule

`default_nettype wire
