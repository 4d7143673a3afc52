// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_csr: the CSR block of docs/spec-dcqcn.md D9 behind an APB3 completer (D9.1): the
// generated decoder (autogen/dcqcn_csr_dec.sv) classifies the access, this block keeps the
// parameter registers, ERR_STATUS/ERR_ADDR, QP_SEL and CNT_HI, applies writes at the end of
// stage 2 (stage 14 for the pacer's INIT and clear), reads S(a) from the owners (stage 2,
// data at 3; the pacer at 14, data at 15) and completes the access in cycle a + 16. One
// access at a time: a new access phase is taken only when none is in flight.
// C twin: cmodel/dcqcn/dcqcn_csr.c.

`default_nettype none

module dcqcn_csr #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // APB3 completer
  input  wire logic                 psel_i,
  input  wire logic                 penable_i,
  input  wire logic                 pwrite_i,
  input  wire logic [15:0]          paddr_i,
  input  wire logic [31:0]          pwdata_i,
  output logic                      pready_o,
  output logic [31:0]               prdata_o,
  output logic                      pslverr_o,
  // to the datapath
  output dcqcn_pkg::cfg_t           cfg_o,
  input  wire logic [63:0]          t2_i,
  output logic                      clr2_o,       // CTRL.CLR_CNT, end of stage 2
  output logic                      init2_o,      // Q_CTRL.INIT of qp_sel_o, end of stage 2
  output logic                      clr14_o,      // the same at stage 14 (pacer)
  output logic                      init14_o,
  output logic [15:0]               qp_sel_o,
  // reads of stage 2 (requests) and 3 (data)
  output logic                      rd2_qp_o,     // a QP-window or per-QP counter read
  output logic                      rd2_g_o,      // a global counter read (dcqcn_gcnt)
  output logic [$clog2(dcqcn_pkg::NUM_GCNT)-1:0] rd2_gidx_o,
  input  wire logic                 pend_init_i,  // dcqcn_pend, stage 2
  input  wire logic                 pend_cnp_i,
  input  wire logic [ScanWidth*dcqcn_pkg::RP_W-1:0] rp_i,  // dcqcn_scan, every bank, stage 3
  input  wire logic                 rp_reset_i,
  input  wire logic [ScanWidth*128-1:0] rpc_i,    // {Q_CUTS, Q_INC} per bank
  input  wire logic                 rpc_v_i,      // the selected QP's counter row is valid
  input  wire logic [63:0]          q_cnp_rx_i,   // dcqcn_cnp
  input  wire logic [63:0]          q_ce_rx_i,    // dcqcn_np
  input  wire logic [63:0]          q_cnp_tx_i,
  input  wire logic [63:0]          gcnt_i,       // dcqcn_gcnt
  // the pacer's reads: stage 14 (request) and 15 (data)
  output logic                      rd14_o,
  input  wire logic [63:0]          pace_i,
  input  wire logic [63:0]          early_i
);

  localparam int unsigned LAT = dcqcn_pkg::LAT_CSR;
  localparam int unsigned PS = dcqcn_pkg::PACE_STAGE;
  localparam int unsigned GIW = $clog2(dcqcn_pkg::NUM_GCNT);

  // ---------------------------------------------------------------- the access in flight
  logic busy_q, wr_q, start;
  logic [4:0] stage_q;  // k in cycle a + k
  logic [15:0] addr_q;
  logic [31:0] wdata_q;
  dcqcn_reg_pkg::csr_dec_t dec, dec_q;
  logic ok_q, err_q;   // a legal access / its err response (decided at stage 2)
  logic [63:0] t_a_q;  // the logical cycle a of the access
  logic [31:0] rdata_q;
  assign start = psel_i && penable_i && !busy_q;

  // the decoder's output is taken in the access's cycle a + 1 only (dec_q below)
  dcqcn_csr_dec #(
    .NumQps(NumQps)
  ) u_dec (
    .valid_i(busy_q && stage_q == 5'd1),
    .addr_i (addr_q),
    .wdata_i(wdata_q),
    .dec_o  (dec)
  );

  // registers of the block
  dcqcn_pkg::cfg_t cfg_q, cfg_rst;
  dcqcn_reg_pkg::err_status_t err_status_q;
  logic [15:0] err_addr_q;
  logic [31:0] cnt_hi_q;
  logic [12:0] qp_sel_q;
  logic [dcqcn_reg_pkg::DCQCN_REG_ID_W-1:0] id;  // a reg_id_e value
  assign id = dec_q.id;
  assign cfg_o = cfg_q;
  assign qp_sel_o = 16'(qp_sel_q);

  always_comb begin : c_rst
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

  // ---------------------------------------------------------------- stage 2: execute
  logic at2, at3, at14, at15;
  assign at2 = busy_q && stage_q == 5'd2;
  assign at3 = busy_q && stage_q == 5'd3;
  assign at14 = busy_q && 32'(stage_q) == PS;
  assign at15 = busy_q && 32'(stage_q) == PS + 1;
  logic e_unmapped, e_ro, e_illegal, wr_ok, rd_ok;
  assign e_unmapped = !dec_q.mapped;
  assign e_ro = dec_q.mapped && wr_q && dec_q.ro;
  assign e_illegal = dec_q.mapped && wr_q && !dec_q.ro && !dec_q.legal;
  assign wr_ok = wr_q && dec_q.mapped && !dec_q.ro && dec_q.legal;
  assign rd_ok = !wr_q && dec_q.mapped;
  logic is_qp_read, is_g_read, is_pacer_read;
  assign is_qp_read = rd_ok && id >= dcqcn_reg_pkg::DcqcnRegQCtrl && !dec_q.hi;
  // a global counter's _LO word held by dcqcn_gcnt (PACE_EARLY is the pacer's)
  assign is_g_read = rd_ok && dec_q.cnt && !dec_q.hi && id < dcqcn_reg_pkg::DcqcnRegQCtrl &&
                     id != dcqcn_reg_pkg::DcqcnRegPaceEarly;
  assign is_pacer_read = rd_ok && !dec_q.hi && (id == dcqcn_reg_pkg::DcqcnRegQNextSend ||
                         id == dcqcn_reg_pkg::DcqcnRegPaceEarly);
  assign rd2_qp_o = at2 && is_qp_read;
  assign rd2_g_o = at2 && is_g_read;
  assign rd2_gidx_o = GIW'(32'(id) - 32'(dcqcn_reg_pkg::DcqcnRegCnpRx));
  assign clr2_o = at2 && wr_ok && id == dcqcn_reg_pkg::DcqcnRegCtrl &&
                  dec_q.wdata[dcqcn_reg_pkg::DCQCN_CTRL_CLR_CNT_LSB];
  assign init2_o = at2 && wr_ok && id == dcqcn_reg_pkg::DcqcnRegQCtrl &&
                   dec_q.wdata[dcqcn_reg_pkg::DCQCN_Q_CTRL_INIT_LSB];
  logic clr_w_q, init_w_q;  // remembered for stage 14
  assign clr14_o = at14 && clr_w_q;
  assign init14_o = at14 && init_w_q;
  assign rd14_o = at14 && is_pacer_read;

  dcqcn_reg_pkg::hw_params_t hw;
  always_comb begin : c_hw
    hw = '0;
    hw.num_qps = 13'(NumQps);
    hw.scan_width = 5'(ScanWidth);
  end

  // ---------------------------------------------------------------- stages 3-4: owners' data
  // Stage 3 captures the owners' read data, stage 4 turns it into the register's value
  // (both in enabled registers: nothing of the read path runs in cycles without an access).
  logic p_init_q, p_cnp_q, w_reset_q;
  dcqcn_pkg::rate_t cap_q;
  dcqcn_pkg::rp_word_t w3_q;
  logic [63:0] cnt3_q;
  logic is_cnt;
  logic at4;
  assign at4 = busy_q && stage_q == 5'd4;
  assign is_cnt = (is_qp_read && dec_q.cnt) || is_g_read;  // a counter's _LO word
  logic [ScanWidth-1:0] bank_sel;
  always_comb begin : c_bank
    for (int unsigned b = 0; b < ScanWidth; b++) begin
      bank_sel[b] = (32'(qp_sel_q) & (ScanWidth - 1)) == b;
    end
  end

  function automatic logic [31:0] remain(dcqcn_pkg::due_t d, dcqcn_pkg::due_t t);
    dcqcn_pkg::due_t diff;
    diff = d - t;  // the deadline is within 2^34 of t (D3)
    if (diff == '0 || diff[dcqcn_pkg::DUE_W-1]) begin
      remain = '0;
    end else if (diff > dcqcn_pkg::DUE_W'(32'hFFFF_FFFF)) begin
      remain = '1;
    end else begin
      remain = diff[31:0];
    end
  endfunction
  dcqcn_reg_pkg::q_status_t st;
  logic pend_flags, init_view;
  dcqcn_pkg::due_t t_a;
  assign t_a = t_a_q[dcqcn_pkg::DUE_W-1:0];
  assign init_view = w_reset_q || p_init_q;  // not yet visited / INIT pending: the INIT word
  assign pend_flags = p_cnp_q && w3_q.active && !init_view;  // pending CNP, active QP (D9)
  always_comb begin : c_st
    st = '0;
    st.active = w3_q.active && !init_view;
    st.cnp_alpha = (w3_q.cnp_alpha && !init_view) || pend_flags;
    st.cnp_dec = (w3_q.cnp_dec && !init_view) || pend_flags;
    st.stage_t = init_view ? '0 : w3_q.stage_t;
    st.stage_bc = init_view ? '0 : w3_q.stage_bc;
  end

  // stage 15 (= LAT - 1): the pacer's data goes straight to the response register
  logic [63:0] ns;
  logic [31:0] pace_rd, final_rd;
  logic is_next_send;
  assign is_next_send = id == dcqcn_reg_pkg::DcqcnRegQNextSend;
  always_comb begin : c_pace
    ns = (pace_i + 64'd255) >> 8;
    pace_rd = (ns > t_a_q) ? ((ns - t_a_q > 64'hFFFF_FFFF) ? '1 : 32'(ns - t_a_q)) : '0;
    final_rd = !is_pacer_read ? rdata_q : is_next_send ? pace_rd : early_i[31:0];
  end
  if (dcqcn_pkg::PACE_STAGE + 2 != LAT) begin : g_bad_lat
    $fatal(1, "dcqcn_csr: the response register must follow the pacer's stage");
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_csr
    if (!rst_ni) begin
      busy_q <= 1'b0;
      stage_q <= '0;
      wr_q <= 1'b0;
      addr_q <= '0;
      wdata_q <= '0;
      dec_q <= '0;
      ok_q <= 1'b0;
      err_q <= 1'b0;
      t_a_q <= '0;
      rdata_q <= '0;
      cfg_q <= cfg_rst;
      err_status_q <= '0;
      err_addr_q <= '0;
      cnt_hi_q <= '0;
      qp_sel_q <= '0;
      clr_w_q <= 1'b0;
      init_w_q <= 1'b0;
      p_init_q <= 1'b0;
      p_cnp_q <= 1'b0;
      cap_q <= '0;
      w_reset_q <= 1'b0;
      w3_q <= '0;
      cnt3_q <= '0;
      pready_o <= 1'b0;
      prdata_o <= '0;
      pslverr_o <= 1'b0;
    end else begin
      pready_o <= 1'b0;
      prdata_o <= '0;
      pslverr_o <= 1'b0;
      if (start) begin
        busy_q <= 1'b1;
        stage_q <= 5'd1;
        wr_q <= pwrite_i;
        addr_q <= paddr_i;
        wdata_q <= pwdata_i;
      end else if (busy_q) begin
        stage_q <= stage_q + 5'd1;
        if (32'(stage_q) == LAT) begin
          busy_q <= 1'b0;
          stage_q <= '0;
        end
      end
      if (busy_q && stage_q == 5'd1) begin
        dec_q <= dec;
      end
      if (at2) begin
        t_a_q <= t2_i;
        ok_q <= wr_ok || rd_ok;
        err_q <= e_unmapped || e_ro || e_illegal;
        rdata_q <= '0;
        if (rd_ok) begin
          unique case (id)
            dcqcn_reg_pkg::DcqcnRegBlockType: rdata_q <= dcqcn_reg_pkg::DCQCN_BLOCK_TYPE_VALUE;
            dcqcn_reg_pkg::DcqcnRegVersion: rdata_q <= dcqcn_reg_pkg::DCQCN_VERSION_VALUE;
            dcqcn_reg_pkg::DcqcnRegHwParams: rdata_q <= hw;
            dcqcn_reg_pkg::DcqcnRegErrStatus: rdata_q <= err_status_q;
            dcqcn_reg_pkg::DcqcnRegErrAddr: rdata_q <= 32'(err_addr_q);
            dcqcn_reg_pkg::DcqcnRegCntHi: rdata_q <= cnt_hi_q;
            dcqcn_reg_pkg::DcqcnRegQpSel: rdata_q <= 32'(qp_sel_q);
            dcqcn_reg_pkg::DcqcnRegCyclesPerUs: rdata_q <= 32'(cfg_q.cycles_per_us);
            dcqcn_reg_pkg::DcqcnRegLineRate: rdata_q <= 32'(cfg_q.line_rate);
            dcqcn_reg_pkg::DcqcnRegRpgTimeReset: rdata_q <= 32'(cfg_q.time_reset_us);
            dcqcn_reg_pkg::DcqcnRegRpgByteReset: rdata_q <= 32'(cfg_q.byte_reset);
            dcqcn_reg_pkg::DcqcnRegRpgThreshold: rdata_q <= 32'(cfg_q.threshold);
            dcqcn_reg_pkg::DcqcnRegRpgAiRate: rdata_q <= 32'(cfg_q.ai_rate);
            dcqcn_reg_pkg::DcqcnRegRpgHaiRate: rdata_q <= 32'(cfg_q.hai_rate);
            dcqcn_reg_pkg::DcqcnRegRpgGd: rdata_q <= 32'(cfg_q.gd);
            dcqcn_reg_pkg::DcqcnRegRpgMinDecFac: rdata_q <= 32'(cfg_q.min_dec_fac);
            dcqcn_reg_pkg::DcqcnRegRpgMinRate: rdata_q <= 32'(cfg_q.min_rate);
            dcqcn_reg_pkg::DcqcnRegRpgMaxRate: rdata_q <= 32'(cfg_q.max_rate);
            dcqcn_reg_pkg::DcqcnRegRateToSetOnFirstCnp: rdata_q <= 32'(cfg_q.rate_first);
            dcqcn_reg_pkg::DcqcnRegDceTcpG: rdata_q <= 32'(cfg_q.g);
            dcqcn_reg_pkg::DcqcnRegDceTcpRtt: rdata_q <= 32'(cfg_q.rtt_us);
            dcqcn_reg_pkg::DcqcnRegInitialAlphaValue: rdata_q <= 32'(cfg_q.alpha_init);
            dcqcn_reg_pkg::DcqcnRegClampTgtRate: rdata_q <= 32'(cfg_q.clamp_tgt);
            dcqcn_reg_pkg::DcqcnRegClampTgtRateAfterTimeInc: rdata_q <= 32'(cfg_q.clamp_ati);
            dcqcn_reg_pkg::DcqcnRegRateReduceMonitorPeriod: rdata_q <= 32'(cfg_q.rrmp_us);
            dcqcn_reg_pkg::DcqcnRegMinTimeBetweenCnps: rdata_q <= 32'(cfg_q.min_cnp_us);
            default: ;  // CTRL, Q_CTRL (wo1p) read 0; the owners' registers follow
          endcase
          if (dec_q.hi) begin
            rdata_q <= cnt_hi_q;  // every _HI word reads the shadow
          end
        end
        clr_w_q <= clr2_o;
        init_w_q <= init2_o;
        p_init_q <= pend_init_i;
        p_cnp_q <= pend_cnp_i;
        cap_q <= dcqcn_pkg::rate_cap(cfg_q.max_rate, cfg_q.line_rate);
        if (e_unmapped) begin
          err_status_q.unmapped <= 1'b1;
          err_addr_q <= addr_q;
        end else if (e_ro) begin
          err_status_q.ro_write <= 1'b1;
          err_addr_q <= addr_q;
        end else if (e_illegal) begin
          err_status_q.illegal <= 1'b1;
          err_addr_q <= addr_q;
        end
        if (wr_ok) begin
          unique case (id)
            dcqcn_reg_pkg::DcqcnRegErrStatus: err_status_q <= err_status_q & ~dec_q.wdata;
            dcqcn_reg_pkg::DcqcnRegQpSel: qp_sel_q <= dec_q.wdata[12:0];
            dcqcn_reg_pkg::DcqcnRegCyclesPerUs: cfg_q.cycles_per_us <= dec_q.wdata[15:0];
            dcqcn_reg_pkg::DcqcnRegLineRate: cfg_q.line_rate <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegRpgTimeReset: cfg_q.time_reset_us <= dec_q.wdata[16:0];
            dcqcn_reg_pkg::DcqcnRegRpgByteReset: cfg_q.byte_reset <= dec_q.wdata[14:0];
            dcqcn_reg_pkg::DcqcnRegRpgThreshold: cfg_q.threshold <= dec_q.wdata[4:0];
            dcqcn_reg_pkg::DcqcnRegRpgAiRate: cfg_q.ai_rate <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegRpgHaiRate: cfg_q.hai_rate <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegRpgGd: cfg_q.gd <= dec_q.wdata[3:0];
            dcqcn_reg_pkg::DcqcnRegRpgMinDecFac: cfg_q.min_dec_fac <= dec_q.wdata[6:0];
            dcqcn_reg_pkg::DcqcnRegRpgMinRate: cfg_q.min_rate <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegRpgMaxRate: cfg_q.max_rate <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegRateToSetOnFirstCnp: cfg_q.rate_first <= dec_q.wdata[19:0];
            dcqcn_reg_pkg::DcqcnRegDceTcpG: cfg_q.g <= dec_q.wdata[9:0];
            dcqcn_reg_pkg::DcqcnRegDceTcpRtt: cfg_q.rtt_us <= dec_q.wdata[16:0];
            dcqcn_reg_pkg::DcqcnRegInitialAlphaValue: cfg_q.alpha_init <= dec_q.wdata[9:0];
            dcqcn_reg_pkg::DcqcnRegClampTgtRate: cfg_q.clamp_tgt <= dec_q.wdata[0];
            dcqcn_reg_pkg::DcqcnRegClampTgtRateAfterTimeInc: cfg_q.clamp_ati <= dec_q.wdata[0];
            dcqcn_reg_pkg::DcqcnRegRateReduceMonitorPeriod: cfg_q.rrmp_us <= dec_q.wdata[16:0];
            dcqcn_reg_pkg::DcqcnRegMinTimeBetweenCnps: cfg_q.min_cnp_us <= dec_q.wdata[16:0];
            default: ;
          endcase
        end
      end
      if (at3 && (is_qp_read || is_g_read)) begin
        w_reset_q <= rp_reset_i;
        for (int unsigned b = 0; b < ScanWidth; b++) begin
          if (bank_sel[b]) begin
            w3_q <= rp_i[b*dcqcn_pkg::RP_W +: dcqcn_pkg::RP_W];
            unique case (id)
              dcqcn_reg_pkg::DcqcnRegQCuts: cnt3_q <= rpc_v_i ? rpc_i[b*128+64 +: 64] : '0;
              dcqcn_reg_pkg::DcqcnRegQInc: cnt3_q <= rpc_v_i ? rpc_i[b*128 +: 64] : '0;
              default: ;
            endcase
          end
        end
        unique case (id)
          dcqcn_reg_pkg::DcqcnRegQCnpRx: cnt3_q <= q_cnp_rx_i;
          dcqcn_reg_pkg::DcqcnRegQCeRx: cnt3_q <= q_ce_rx_i;
          dcqcn_reg_pkg::DcqcnRegQCnpTx: cnt3_q <= q_cnp_tx_i;
          dcqcn_reg_pkg::DcqcnRegQCuts, dcqcn_reg_pkg::DcqcnRegQInc: ;
          default: cnt3_q <= gcnt_i;
        endcase
      end
      if (at4 && is_cnt) begin
        rdata_q <= cnt3_q[31:0];
        cnt_hi_q <= cnt3_q[63:32];  // the _LO read's snapshot (D9)
      end
      if (at4 && is_qp_read && !is_cnt) begin
        unique case (id)
          dcqcn_reg_pkg::DcqcnRegQStatus: rdata_q <= st;
          dcqcn_reg_pkg::DcqcnRegQRc: rdata_q <= init_view ? 32'(cap_q) : 32'(w3_q.rc);
          dcqcn_reg_pkg::DcqcnRegQRt: rdata_q <= init_view ? 32'(cap_q) : 32'(w3_q.rt);
          dcqcn_reg_pkg::DcqcnRegQAlpha: rdata_q <= init_view ? 32'd1023 : 32'(w3_q.alpha);
          dcqcn_reg_pkg::DcqcnRegQByteCount: rdata_q <= init_view ? '0 : 32'(w3_q.byte_count);
          dcqcn_reg_pkg::DcqcnRegQAlphaRemain:
            rdata_q <= (init_view || !w3_q.active) ? '0 : remain(w3_q.due_alpha, t_a);
          dcqcn_reg_pkg::DcqcnRegQDecRemain:
            rdata_q <= (init_view || !w3_q.active) ? '0 : remain(w3_q.due_dec, t_a);
          dcqcn_reg_pkg::DcqcnRegQIncRemain:
            rdata_q <= (init_view || !w3_q.active) ? '0 : remain(w3_q.due_inc, t_a);
          default: ;  // Q_CTRL reads 0; Q_NEXT_SEND at stage 15
        endcase
      end
      if (at15 && is_pacer_read && !is_next_send) begin
        cnt_hi_q <= early_i[63:32];  // PACE_EARLY_LO's snapshot
      end
      if (at15) begin
        pready_o <= 1'b1;
        prdata_o <= final_rd;
        pslverr_o <= err_q;
      end
    end
  end
  logic unused_ok;
  assign unused_ok = ^{ok_q, dec_q.idx, dec_q.wdata[31:20], w3_q.tx_seen};

endmodule

`default_nettype wire
