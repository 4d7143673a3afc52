// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_pacer: the pacer of docs/spec-dcqcn.md D8 with the pipeline of D15. Stage 2 takes
// the transmission's bytes * CYCLES_PER_US and its Rc: the visit's Rc for a QP visited in
// the cycle, the reset cap for a row the scan has not visited yet, else `prate` (read now,
// data at stage 3). Stage 3 enters the exact pipelined divider (xtm_div_pipe, 11 stages);
// stage 14 is the pacer's execute stage: the read-modify-write of RAM `pace` (next-send
// time in 1/256 cycle, the previous cycle's write forwarded, a per-QP INIT flag),
// PACE_EARLY, and the pacer's part of a CSR access; `pace` is driven at stage 15.
// C twin: tx_sent() in cmodel/dcqcn/dcqcn.c.

`default_nettype none

module dcqcn_pacer #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth,
  localparam int unsigned RowW = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1,
  localparam int unsigned BankW = (ScanWidth > 1) ? $clog2(ScanWidth) : 1,
  localparam int unsigned UShift = $clog2(ScanWidth),
  localparam int unsigned QpW = (NumQps > 1) ? $clog2(NumQps) : 1,
  localparam int unsigned U = ScanWidth
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire dcqcn_pkg::cfg_t   cfg_i,      // parameters of stage 2
  input  wire logic [63:0]       t2_i,
  input  wire logic [RowW-1:0]   g2_i,
  input  wire logic              swept_i,
  input  wire logic              tx2_v_i,    // stage 2: a transmission of a QP < N
  input  wire logic [15:0]       tx2_qp_i,
  input  wire logic [15:0]       tx2_bytes_i,
  input  wire logic [U*20-1:0]   rc_pace_i,  // the visits' Rc (dcqcn_scan), stage 2
  output logic                   prate_re_o,
  output logic [BankW-1:0]       prate_bank_o,
  output logic [RowW-1:0]        prate_row_o,
  input  wire dcqcn_pkg::rate_t  prate_i,    // stage 3
  // CSR effects and reads at stage 14 (the CSR block delays them)
  input  wire logic              clr14_i,
  input  wire logic              init14_v_i,
  input  wire logic [15:0]       init14_qp_i,
  input  wire logic              csr14_re_i,
  input  wire logic [15:0]       csr14_qp_i,
  output logic [63:0]            csr_pace_o,   // stage 15: next-send time (0 after INIT)
  output logic [63:0]            csr_early_o,  // stage 15: PACE_EARLY
  output logic                   pace_valid_o, // stage 15
  output logic [15:0]            pace_qp_o,
  output logic [63:0]            pace_next_send_o
);

  localparam dcqcn_pkg::rate_t RST_CAP = dcqcn_pkg::rate_cap(
      dcqcn_pkg::RATE_W'(dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_RESVAL),
      dcqcn_pkg::RATE_W'(dcqcn_reg_pkg::DCQCN_LINE_RATE_RESVAL));
  localparam int unsigned NW = dcqcn_pkg::DIV_NUM_W;

  // ---------------------------------------------------------------- stage 2
  logic [BankW-1:0] bank2;
  logic [RowW-1:0] row2;
  logic visited, unswept;
  assign bank2 = BankW'(tx2_qp_i & 16'(U - 1));
  assign row2 = RowW'(tx2_qp_i >> UShift);
  assign visited = row2 == g2_i;
  assign unswept = !swept_i && row2 > g2_i;
  assign prate_re_o = tx2_v_i && !visited && !unswept;
  assign prate_bank_o = bank2;
  assign prate_row_o = row2;

  logic v3_q, own3_q;
  logic [15:0] qp3_q;
  logic [NW-1:0] num3_q;
  dcqcn_pkg::rate_t rc3_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_st3
    if (!rst_ni) begin
      v3_q <= 1'b0;
      own3_q <= 1'b0;
      qp3_q <= '0;
      num3_q <= '0;
      rc3_q <= '0;
    end else begin
      v3_q <= tx2_v_i;
      if (tx2_v_i) begin
        qp3_q <= tx2_qp_i;
        own3_q <= visited || unswept;
        rc3_q <= visited ? rc_pace_i[32'(bank2)*20 +: 20] : RST_CAP;
        // bytes * 8 * CPU * 256 (43 bits): the 16 x 16-bit product, shifted
        num3_q <= NW'({(32'(tx2_bytes_i) * 32'(cfg_i.cycles_per_us)), 11'd0});
      end
    end
  end

  // ---------------------------------------------------------------- stages 3..13: divider
  logic pre_v, out_v;
  logic [15:0] pre_qp, out_qp;
  logic [NW-1:0] gap;
  xtm_div_pipe #(
    .NumW(NW),
    .DenW(dcqcn_pkg::RATE_W),
    .Bits(dcqcn_pkg::DIV_BITS),
    .TagW(16)
  ) u_div (
    .clk_i,
    .rst_ni,
    .in_v_i   (v3_q),
    .num_i    (num3_q),
    .den_i    (own3_q ? rc3_q : prate_i),
    .tag_i    (qp3_q),
    .pre_v_o  (pre_v),
    .pre_tag_o(pre_qp),
    .out_v_o  (out_v),
    .quo_o    (gap),
    .tag_o    (out_qp)
  );

  // ---------------------------------------------------------------- stage 14: execute
  logic init_q [NumQps];  // the row reads as pace = 0 (reset, Q_CTRL.INIT)
  logic [63:0] a_rdata, b_rdata, old, base, t256, pace_new, early_q, last_q;
  logic [63:0] t14;
  logic last_v_q, csr_init_q, early;
  logic [15:0] last_qp_q;

  xtm_ram_2r1w #(
    .Width        (64),
    .Depth        (NumQps),
    .AllowRdWrSame(1'b1)  // consecutive transmissions of a QP are forwarded; CSR: S(t)
  ) u_pace (
    .clk_i,
    .rst_ni,
    .we_i     (out_v),
    .waddr_i  (QpW'(out_qp)),
    .wdata_i  (pace_new),
    .wmask_i  ({64{1'b1}}),
    .a_re_i   (pre_v && !init_q[QpW'(pre_qp)]),
    .a_raddr_i(QpW'(pre_qp)),
    .a_rdata_o(a_rdata),
    .b_re_i   (csr14_re_i && !init_q[QpW'(csr14_qp_i)]),
    .b_raddr_i(QpW'(csr14_qp_i)),
    .b_rdata_o(b_rdata)
  );

  assign t14 = t2_i - 64'(dcqcn_pkg::PACE_STAGE) + 64'd2;  // the logical cycle of stage 14
  assign t256 = {t14[55:0], 8'd0};
  assign old = init_q[QpW'(out_qp)] ? 64'd0 : (last_v_q && last_qp_q == out_qp) ? last_q : a_rdata;
  assign early = out_v && t256 < old;
  assign base = (t256 > old) ? t256 : old;
  assign pace_new = base + 64'(gap);

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_exec
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQps; q++) begin
        init_q[q] <= 1'b1;
      end
      last_v_q <= 1'b0;
      last_qp_q <= '0;
      last_q <= '0;
      early_q <= '0;
      csr_init_q <= 1'b0;
      csr_early_o <= '0;
      pace_valid_o <= 1'b0;
      pace_qp_o <= '0;
      pace_next_send_o <= '0;
    end else begin
      if (out_v) begin
        init_q[QpW'(out_qp)] <= 1'b0;
      end
      if (init14_v_i) begin  // the end of the cycle: after its transmission
        init_q[QpW'(init14_qp_i)] <= 1'b1;
      end
      last_v_q <= out_v;
      if (out_v) begin
        last_qp_q <= out_qp;
        last_q <= pace_new;
      end
      early_q <= clr14_i ? 64'd0 : early_q + 64'(early);
      csr_init_q <= init_q[QpW'(csr14_qp_i)];
      csr_early_o <= early_q;
      pace_valid_o <= out_v;
      pace_qp_o <= out_v ? out_qp : '0;
      pace_next_send_o <= out_v ? (pace_new + 64'd255) >> 8 : '0;
    end
  end
  assign csr_pace_o = csr_init_q ? 64'd0 : b_rdata;
  logic unused_hi;
  assign unused_hi = ^{cfg_i, init14_qp_i, csr14_qp_i, pre_qp, t14[63:56]};

endmodule

`default_nettype wire
