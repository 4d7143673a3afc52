// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_top: the DCQCN NIC block of docs/spec-dcqcn.md, pipelined as in D15: the inputs of
// logical cycle t are registered (stage 1, stage 2), every state change of t happens at
// stage 2, the outputs of t are driven at t + 3 (rate stream, cnp_tx) and t + 15 (pace),
// the APB access of cycle a completes at a + 16 (D2.2, D9.1). Blocks, one responsibility
// each: dcqcn_csr (registers, APB), dcqcn_scan (the timer scan and its RAM banks, with
// dcqcn_visit and dcqcn_rate), dcqcn_pend (pending records), dcqcn_tx (byte sums),
// dcqcn_cnp (Q_CNP_RX), dcqcn_np (notification point), dcqcn_pacer (pacer and its
// divider), dcqcn_gcnt (global counters). C twin: cmodel/dcqcn/.

`default_nettype none

module dcqcn_top #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  localparam int unsigned NumRate  = ScanWidth  // derived, do not override (D7: <= U)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        cnp_valid_i,
  input  wire logic [15:0] cnp_qp_i,
  input  wire logic        tx_valid_i,
  input  wire logic [15:0] tx_qp_i,
  input  wire logic [15:0] tx_bytes_i,
  input  wire logic        ce_valid_i,
  input  wire logic [15:0] ce_qp_i,
  // APB slave
  input  wire logic        psel_i,
  input  wire logic        penable_i,
  input  wire logic        pwrite_i,
  input  wire logic [15:0] paddr_i,
  input  wire logic [31:0] pwdata_i,
  output logic             pready_o,
  output logic [31:0]      prdata_o,
  output logic             pslverr_o,
  // outputs (latency: dcqcn_pkg::LAT_*)
  output logic                              cnp_tx_valid_o,
  output logic [15:0]                       cnp_tx_qp_o,
  output logic [4:0]                        n_rate_o,
  output logic [NumRate*16-1:0]             rate_qp_o,
  output logic [NumRate*20-1:0]             rate_rc_o,
  output logic [NumRate*20-1:0]             rate_rt_o,
  output logic [NumRate*10-1:0]             rate_alpha_o,
  output logic                              pace_valid_o,
  output logic [15:0]                       pace_qp_o,
  output logic [63:0]                       pace_next_send_o
);

  if (NumQps < 1 || NumQps > 4096) begin : g_bad_qps
    $fatal(1, "dcqcn_top: NumQps must be 1..4096");
  end

  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth;
  localparam int unsigned RowW = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1;
  localparam int unsigned BankW = (ScanWidth > 1) ? $clog2(ScanWidth) : 1;
  localparam int unsigned U = ScanWidth;
  localparam int unsigned GW = dcqcn_pkg::GINC_W;
  localparam int unsigned NG = dcqcn_pkg::NUM_GCNT;

  // ---------------------------------------------------------------- input registers
  // stage 1 and 2 copies; valid only for a QP < N (the others count as BAD_QP, D11)
  logic cnp1_q, tx1_q, ce1_q, cnp2_q, tx2_q, ce2_q;
  logic [15:0] cnp1_qp_q, tx1_qp_q, tx1_bytes_q, ce1_qp_q;
  logic [15:0] cnp2_qp_q, tx2_qp_q, tx2_bytes_q, ce2_qp_q;
  logic [1:0] bad1_q, bad2_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_in
    if (!rst_ni) begin
      {cnp1_q, tx1_q, ce1_q, cnp2_q, tx2_q, ce2_q} <= '0;
      {cnp1_qp_q, tx1_qp_q, tx1_bytes_q, ce1_qp_q} <= '0;
      {cnp2_qp_q, tx2_qp_q, tx2_bytes_q, ce2_qp_q} <= '0;
      bad1_q <= '0;
      bad2_q <= '0;
    end else begin
      cnp1_q <= cnp_valid_i && 32'(cnp_qp_i) < NumQps;
      tx1_q <= tx_valid_i && 32'(tx_qp_i) < NumQps;
      ce1_q <= ce_valid_i && 32'(ce_qp_i) < NumQps;
      cnp1_qp_q <= cnp_qp_i;
      tx1_qp_q <= tx_qp_i;
      tx1_bytes_q <= tx_bytes_i;
      ce1_qp_q <= ce_qp_i;
      bad1_q <= 2'(cnp_valid_i && 32'(cnp_qp_i) >= NumQps) +
                2'(tx_valid_i && 32'(tx_qp_i) >= NumQps) +
                2'(ce_valid_i && 32'(ce_qp_i) >= NumQps);
      {cnp2_q, tx2_q, ce2_q} <= {cnp1_q, tx1_q, ce1_q};
      {cnp2_qp_q, tx2_qp_q, tx2_bytes_q, ce2_qp_q} <= {cnp1_qp_q, tx1_qp_q, tx1_bytes_q, ce1_qp_q};
      bad2_q <= bad1_q;
    end
  end

  // ---------------------------------------------------------------- CSR block
  dcqcn_pkg::cfg_t cfg;
  logic [63:0] t2;
  logic clr2, init2, clr14, init14, rd2_qp, rd2_g, rd14;
  logic [15:0] qp_sel;
  logic [$clog2(NG)-1:0] rd2_gidx;
  logic csr_pend_init, csr_pend_cnp, csr_rp_reset, csr_rpc_v;
  logic [U*dcqcn_pkg::RP_W-1:0] csr_rp;
  logic [U*128-1:0] csr_rpc;
  logic [63:0] csr_q_cnp_rx, csr_q_ce_rx, csr_q_cnp_tx, csr_gcnt, csr_pace, csr_early;
  // the pacer's INIT and clear, and its read, 12 cycles after stage 2 (dcqcn_csr holds the
  // access; the QP does not change while it is in flight)
  dcqcn_csr #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_csr (
    .clk_i,
    .rst_ni,
    .psel_i,
    .penable_i,
    .pwrite_i,
    .paddr_i,
    .pwdata_i,
    .pready_o,
    .prdata_o,
    .pslverr_o,
    .cfg_o       (cfg),
    .t2_i        (t2),
    .clr2_o      (clr2),
    .init2_o     (init2),
    .clr14_o     (clr14),
    .init14_o    (init14),
    .qp_sel_o    (qp_sel),
    .rd2_qp_o    (rd2_qp),
    .rd2_g_o     (rd2_g),
    .rd2_gidx_o  (rd2_gidx),
    .pend_init_i (csr_pend_init),
    .pend_cnp_i  (csr_pend_cnp),
    .rp_i        (csr_rp),
    .rp_reset_i  (csr_rp_reset),
    .rpc_i       (csr_rpc),
    .rpc_v_i     (csr_rpc_v),
    .q_cnp_rx_i  (csr_q_cnp_rx),
    .q_ce_rx_i   (csr_q_ce_rx),
    .q_cnp_tx_i  (csr_q_cnp_tx),
    .gcnt_i      (csr_gcnt),
    .rd14_o      (rd14),
    .pace_i      (csr_pace),
    .early_i     (csr_early)
  );

  // ---------------------------------------------------------------- scan and pending records
  logic [RowW-1:0] g2, txb_row;
  logic run2, swept, txb_re, txb_wr_v;
  logic [U-1:0] slot_v, p_init, p_cnp, p_more;
  logic [U*32-1:0] txb_sum;
  logic [15:0] txb_wr_qp;
  logic [31:0] txb_wr_sum;
  logic [U*20-1:0] rc_pace;
  logic [NG*GW-1:0] ginc_scan, ginc;
  logic prate_re;
  logic [BankW-1:0] prate_bank;
  logic [RowW-1:0] prate_row;
  dcqcn_pkg::rate_t prate;

  dcqcn_scan #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_scan (
    .clk_i,
    .rst_ni,
    .cfg_i         (cfg),
    .clr_i         (clr2),
    .cnp_v_i       (cnp2_q),
    .cnp_qp_i      (cnp2_qp_q),
    .tx_v_i        (tx2_q),
    .tx_qp_i       (tx2_qp_q),
    .tx_bytes_i    (tx2_bytes_q),
    .pend_init_i   (p_init),
    .pend_cnp_i    (p_cnp),
    .pend_more_i   (p_more),
    .txb_re_o      (txb_re),
    .txb_row_o     (txb_row),
    .txb_sum_i     (txb_sum),
    .txb_wr_v_i    (txb_wr_v),
    .txb_wr_qp_i   (txb_wr_qp),
    .txb_wr_sum_i  (txb_wr_sum),
    .t2_o          (t2),
    .g2_o          (g2),
    .run2_o        (run2),
    .swept_o       (swept),
    .slot_v_o      (slot_v),
    .rc_pace_o     (rc_pace),
    .ginc_o        (ginc_scan),
    .prate_re_i    (prate_re),
    .prate_bank_i  (prate_bank),
    .prate_row_i   (prate_row),
    .prate_o       (prate),
    .csr_re_i      (rd2_qp),
    .csr_qp_i      (qp_sel),
    .csr_rp_o      (csr_rp),
    .csr_rp_reset_o(csr_rp_reset),
    .csr_rpc_o     (csr_rpc),
    .csr_rpc_v_o   (csr_rpc_v),
    .n_rate_o,
    .rate_qp_o,
    .rate_rc_o,
    .rate_rt_o,
    .rate_alpha_o
  );

  dcqcn_pend #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_pend (
    .clk_i,
    .rst_ni,
    .g2_i      (g2),
    .slot_v_i  (slot_v),
    .cnp_v_i   (cnp2_q),
    .cnp_qp_i  (cnp2_qp_q),
    .init_v_i  (init2),
    .init_qp_i (qp_sel),
    .init_o    (p_init),
    .cnp_o     (p_cnp),
    .more_o    (p_more),
    .csr_qp_i  (qp_sel),
    .csr_init_o(csr_pend_init),
    .csr_cnp_o (csr_pend_cnp)
  );

  dcqcn_tx #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_tx (
    .clk_i,
    .rst_ni,
    .tx1_v_i    (tx1_q),
    .tx1_qp_i   (tx1_qp_q),
    .tx2_v_i    (tx2_q),
    .tx2_qp_i   (tx2_qp_q),
    .tx2_bytes_i(tx2_bytes_q),
    .scan_re_i  (txb_re),
    .scan_row_i (txb_row),
    .scan_sum_o (txb_sum),
    .wr_v_o     (txb_wr_v),
    .wr_qp_o    (txb_wr_qp),
    .wr_sum_o   (txb_wr_sum)
  );

  // ---------------------------------------------------------------- CNP, NP, pacer
  dcqcn_cnp #(
    .NumQps(NumQps)
  ) u_cnp (
    .clk_i,
    .rst_ni,
    .cnp1_v_i (cnp1_q),
    .cnp1_qp_i(cnp1_qp_q),
    .cnp2_v_i (cnp2_q),
    .cnp2_qp_i(cnp2_qp_q),
    .clr_i    (clr2),
    .csr_re_i (rd2_qp),
    .csr_qp_i (qp_sel),
    .csr_cnt_o(csr_q_cnp_rx)
  );

  logic np_ce_rx, np_cnp_tx, np_coalesced;
  dcqcn_np #(
    .NumQps(NumQps)
  ) u_np (
    .clk_i,
    .rst_ni,
    .cfg_i         (cfg),
    .t2_i          (t2),
    .ce1_v_i       (ce1_q),
    .ce1_qp_i      (ce1_qp_q),
    .ce2_v_i       (ce2_q),
    .ce2_qp_i      (ce2_qp_q),
    .clr_i         (clr2),
    .init_v_i      (init2),
    .init_qp_i     (qp_sel),
    .ce_rx_o       (np_ce_rx),
    .cnp_tx_o      (np_cnp_tx),
    .coalesced_o   (np_coalesced),
    .cnp_tx_valid_o,
    .cnp_tx_qp_o,
    .csr_re_i      (rd2_qp),
    .csr_qp_i      (qp_sel),
    .csr_ce_rx_o   (csr_q_ce_rx),
    .csr_cnp_tx_o  (csr_q_cnp_tx)
  );

  dcqcn_pacer #(
    .NumQps   (NumQps),
    .ScanWidth(ScanWidth)
  ) u_pacer (
    .clk_i,
    .rst_ni,
    .cfg_i           (cfg),
    .t2_i            (t2),
    .g2_i            (g2),
    .swept_i         (swept),
    .tx2_v_i         (tx2_q),
    .tx2_qp_i        (tx2_qp_q),
    .tx2_bytes_i     (tx2_bytes_q),
    .rc_pace_i       (rc_pace),
    .prate_re_o      (prate_re),
    .prate_bank_o    (prate_bank),
    .prate_row_o     (prate_row),
    .prate_i         (prate),
    .clr14_i         (clr14),
    .init14_v_i      (init14),
    .init14_qp_i     (qp_sel),
    .csr14_re_i      (rd14),
    .csr14_qp_i      (qp_sel),
    .csr_pace_o      (csr_pace),
    .csr_early_o     (csr_early),
    .pace_valid_o,
    .pace_qp_o,
    .pace_next_send_o
  );

  // ---------------------------------------------------------------- global counters
  always_comb begin : c_ginc
    ginc = ginc_scan;
    ginc[dcqcn_pkg::GcCnpRx*GW +: GW] = GW'(cnp2_q);
    ginc[dcqcn_pkg::GcCeRx*GW +: GW] = GW'(np_ce_rx);
    ginc[dcqcn_pkg::GcCnpTx*GW +: GW] = GW'(np_cnp_tx);
    ginc[dcqcn_pkg::GcCeCoalesced*GW +: GW] = GW'(np_coalesced);
    ginc[dcqcn_pkg::GcBadQp*GW +: GW] = GW'(bad2_q);
  end
  dcqcn_gcnt #(
    .MaxInc(3 * ScanWidth)
  ) u_gcnt (
    .clk_i,
    .rst_ni,
    .inc_i    (ginc),
    .clr_i    (clr2),
    .csr_re_i (rd2_g),
    .csr_idx_i(rd2_gidx),
    .csr_cnt_o(csr_gcnt)
  );
  logic unused_run;
  assign unused_run = run2;

endmodule

`default_nettype wire
