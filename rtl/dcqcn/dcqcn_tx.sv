// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_tx: the byte sums of docs/spec-dcqcn.md D15. Per QP a running sum of its
// transmitted bytes modulo 2^32, in U banks (bank q mod U, row q / U) of RAM `txb`: the
// transmission of cycle t reads its row at stage 1 and writes sum + bytes at stage 2 (the
// write of cycle t - 1 to the same QP, which the read missed, is forwarded). The scan reads
// row g(t) of every bank on the second port at stage 1 and gets the last write for its own
// forwarding; the difference to the sum it stored at the QP's previous visit is the pending
// bytes of D5.1. C twin: pend_bytes in cmodel/dcqcn/dcqcn.c (tx_sent, visit).

`default_nettype none

module dcqcn_tx #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth,
  localparam int unsigned RowW = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1,
  localparam int unsigned BankW = (ScanWidth > 1) ? $clog2(ScanWidth) : 1,
  localparam int unsigned UShift = $clog2(ScanWidth),
  localparam int unsigned U = ScanWidth
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            tx1_v_i,     // stage 1: the transmission (QP < N)
  input  wire logic [15:0]     tx1_qp_i,
  input  wire logic            tx2_v_i,     // stage 2: the same, one cycle later
  input  wire logic [15:0]     tx2_qp_i,
  input  wire logic [15:0]     tx2_bytes_i,
  // the scan's port: row g at stage 1, sums at stage 2
  input  wire logic            scan_re_i,
  input  wire logic [RowW-1:0] scan_row_i,
  output logic [U*32-1:0]      scan_sum_o,
  output logic                 wr_v_o,      // the write of the previous cycle (stage 2)
  output logic [15:0]          wr_qp_o,
  output logic [31:0]          wr_sum_o
);

  logic [BankW-1:0] bank1, bank2;
  logic [RowW-1:0] row1, row2;
  assign bank1 = BankW'(tx1_qp_i & 16'(U - 1));
  assign row1 = RowW'(tx1_qp_i >> UShift);
  assign bank2 = BankW'(tx2_qp_i & 16'(U - 1));
  assign row2 = RowW'(tx2_qp_i >> UShift);

  logic [U*32-1:0] a_rdata;
  logic [31:0] sum_new;
  logic last_v_q;
  logic [15:0] last_qp_q;
  logic [31:0] last_sum_q;

  for (genvar b = 0; b < U; b++) begin : g_bank
    xtm_ram_2r1w #(
      .Width         (32),
      .Depth         (ScanPeriod),
      .AllowRdWrSame (1'b1),  // consecutive transmissions of a QP: forwarded
      .CheckUnwritten(1'b0)   // a sum is only used as a difference (D15, reset)
    ) u_txb (
      .clk_i,
      .rst_ni,
      .we_i     (tx2_v_i && bank2 == BankW'(b)),
      .waddr_i  (row2),
      .wdata_i  (sum_new),
      .wmask_i  ({32{1'b1}}),
      .a_re_i   (tx1_v_i && bank1 == BankW'(b)),
      .a_raddr_i(row1),
      .a_rdata_o(a_rdata[b*32 +: 32]),
      .b_re_i   (scan_re_i && (32'(scan_row_i) << UShift) + b < NumQps),
      .b_raddr_i(scan_row_i),
      .b_rdata_o(scan_sum_o[b*32 +: 32])
    );
  end

  // stage 2: read-modify-write with forwarding of the previous cycle's write
  logic [31:0] old;
  assign old = (last_v_q && last_qp_q == tx2_qp_i) ? last_sum_q : a_rdata[32'(bank2)*32 +: 32];
  assign sum_new = old + 32'(tx2_bytes_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_last
    if (!rst_ni) begin
      last_v_q <= 1'b0;
      last_qp_q <= '0;
      last_sum_q <= '0;
    end else begin
      last_v_q <= tx2_v_i;
      if (tx2_v_i) begin
        last_qp_q <= tx2_qp_i;
        last_sum_q <= sum_new;
      end
    end
  end
  assign wr_v_o = last_v_q;
  assign wr_qp_o = last_qp_q;
  assign wr_sum_o = last_sum_q;

endmodule

`default_nettype wire
