// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_cnp: the per-QP counter Q_CNP_RX of docs/spec-dcqcn.md D12, counted in the CNP's
// cycle (the CNP's effect on the reaction point is the scan's, D5.1, through dcqcn_pend).
// RAM `cnpc` with a row-valid vector (D15): read at stage 1, written at stage 2, the
// previous cycle's write forwarded; CTRL.CLR_CNT clears the vector. C twin: cnt[] of
// cmodel/dcqcn/dcqcn_internal.h (cnp_rx in dcqcn.c).

`default_nettype none

module dcqcn_cnp #(
  parameter int unsigned NumQps = 64,
  // derived, do not override
  localparam int unsigned QpW = (NumQps > 1) ? $clog2(NumQps) : 1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        cnp1_v_i,   // stage 1: a CNP for a QP < N
  input  wire logic [15:0] cnp1_qp_i,
  input  wire logic        cnp2_v_i,   // stage 2: the same
  input  wire logic [15:0] cnp2_qp_i,
  input  wire logic        clr_i,      // CTRL.CLR_CNT at the end of stage 2
  input  wire logic        csr_re_i,   // stage 2: read Q_CNP_RX of csr_qp_i
  input  wire logic [15:0] csr_qp_i,
  output logic [63:0]      csr_cnt_o   // stage 3
);

  logic v_q [NumQps];  // row valid (CTRL.CLR_CNT clears)
  logic [63:0] a_rdata, b_rdata, cnt_new, old;
  logic last_v_q, csr_v_q;
  logic [15:0] last_qp_q;
  logic [63:0] last_cnt_q;

  xtm_ram_2r1w #(
    .Width        (64),
    .Depth        (NumQps),
    .AllowRdWrSame(1'b1)  // consecutive CNPs of a QP are forwarded; the CSR reads S(t)
  ) u_cnpc (
    .clk_i,
    .rst_ni,
    .we_i     (cnp2_v_i),
    .waddr_i  (QpW'(cnp2_qp_i)),
    .wdata_i  (cnt_new),
    .wmask_i  ({64{1'b1}}),
    .a_re_i   (cnp1_v_i && v_q[QpW'(cnp1_qp_i)]),
    .a_raddr_i(QpW'(cnp1_qp_i)),
    .a_rdata_o(a_rdata),
    .b_re_i   (csr_re_i && v_q[QpW'(csr_qp_i)]),
    .b_raddr_i(QpW'(csr_qp_i)),
    .b_rdata_o(b_rdata)
  );

  // a row that is not valid counts from 0; the read missed the previous cycle's write
  assign old = !v_q[QpW'(cnp2_qp_i)] ? '0 :
               (last_v_q && last_qp_q == cnp2_qp_i) ? last_cnt_q : a_rdata;
  assign cnt_new = old + 64'd1;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_cnp
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQps; q++) begin
        v_q[q] <= 1'b0;
      end
      last_v_q <= 1'b0;
      last_qp_q <= '0;
      last_cnt_q <= '0;
      csr_v_q <= 1'b0;
    end else begin
      if (clr_i) begin
        for (int unsigned q = 0; q < NumQps; q++) begin
          v_q[q] <= 1'b0;
        end
      end else if (cnp2_v_i) begin
        v_q[QpW'(cnp2_qp_i)] <= 1'b1;
      end
      last_v_q <= cnp2_v_i;
      if (cnp2_v_i) begin
        last_qp_q <= cnp2_qp_i;
        last_cnt_q <= cnt_new;
      end
      csr_v_q <= v_q[QpW'(csr_qp_i)];
    end
  end
  assign csr_cnt_o = csr_v_q ? b_rdata : '0;
  logic unused_hi;
  assign unused_hi = ^{cnp1_qp_i, csr_qp_i};

endmodule

`default_nettype wire
