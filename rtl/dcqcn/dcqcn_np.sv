// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_np: the notification point of docs/spec-dcqcn.md D10. RAM `np` (np_sent, np_last,
// Q_CE_RX, Q_CNP_TX) read at stage 1 and written at stage 2 (D15), the previous cycle's
// write forwarded; a per-QP INIT flag (Q_CTRL.INIT and reset: the row reads as np_sent = 0)
// and a row-valid vector of the two counters (CTRL.CLR_CNT). cnp_tx is driven at stage 3.
// C twin: ce_rx() in cmodel/dcqcn/dcqcn.c.

`default_nettype none

module dcqcn_np #(
  parameter int unsigned NumQps = 64,
  // derived, do not override
  localparam int unsigned QpW = (NumQps > 1) ? $clog2(NumQps) : 1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire dcqcn_pkg::cfg_t cfg_i,
  input  wire logic [63:0] t2_i,        // logical cycle of stage 2
  input  wire logic        ce1_v_i,     // stage 1: a CE-marked packet of a QP < N
  input  wire logic [15:0] ce1_qp_i,
  input  wire logic        ce2_v_i,     // stage 2: the same
  input  wire logic [15:0] ce2_qp_i,
  input  wire logic        clr_i,       // CTRL.CLR_CNT at the end of stage 2
  input  wire logic        init_v_i,    // Q_CTRL.INIT at the end of stage 2
  input  wire logic [15:0] init_qp_i,
  output logic             ce_rx_o,     // counter increments, stage 2
  output logic             cnp_tx_o,
  output logic             coalesced_o,
  output logic             cnp_tx_valid_o,  // stage 3
  output logic [15:0]      cnp_tx_qp_o,
  input  wire logic        csr_re_i,    // stage 2: the counters of csr_qp_i
  input  wire logic [15:0] csr_qp_i,
  output logic [63:0]      csr_ce_rx_o, // stage 3
  output logic [63:0]      csr_cnp_tx_o
);

  logic init_q [NumQps];  // the NP fields read as reset (reset, Q_CTRL.INIT)
  logic v_q [NumQps];     // the counters are valid (CTRL.CLR_CNT)
  dcqcn_pkg::np_word_t a_rdata, b_rdata, old, wnew, last_q;
  logic last_v_q, csr_v_q;
  logic [15:0] last_qp_q;
  logic [63:0] min_gap;
  logic send;

  xtm_ram_2r1w #(
    .Width        (dcqcn_pkg::NP_W),
    .Depth        (NumQps),
    .AllowRdWrSame(1'b1)  // consecutive CEs of a QP are forwarded; the CSR reads S(t)
  ) u_np (
    .clk_i,
    .rst_ni,
    .we_i     (ce2_v_i),
    .waddr_i  (QpW'(ce2_qp_i)),
    .wdata_i  (wnew),
    .wmask_i  ({(dcqcn_pkg::NP_W){1'b1}}),
    .a_re_i   (ce1_v_i && !(init_q[QpW'(ce1_qp_i)] && !v_q[QpW'(ce1_qp_i)])),  // a row ever written
    .a_raddr_i(QpW'(ce1_qp_i)),
    .a_rdata_o(a_rdata),
    .b_re_i   (csr_re_i && v_q[QpW'(csr_qp_i)]),
    .b_raddr_i(QpW'(csr_qp_i)),
    .b_rdata_o(b_rdata)
  );

  assign min_gap = 64'(cfg_i.min_cnp_us) * 64'(cfg_i.cycles_per_us);
  // the word's fields as scalars (cheaper for Verilator than a 193-bit struct)
  logic o_sent;
  logic [63:0] o_last, o_ce, o_tx;
  always_comb begin : c_np
    old = (last_v_q && last_qp_q == ce2_qp_i) ? last_q : a_rdata;
    o_sent = old.np_sent && !init_q[QpW'(ce2_qp_i)];
    o_last = init_q[QpW'(ce2_qp_i)] ? 64'd0 : old.np_last;
    o_ce = v_q[QpW'(ce2_qp_i)] ? old.ce_rx : 64'd0;
    o_tx = v_q[QpW'(ce2_qp_i)] ? old.cnp_tx : 64'd0;
    send = !o_sent || (t2_i - o_last) >= min_gap;  // D10
    wnew.np_sent = o_sent || send;
    wnew.np_last = send ? t2_i : o_last;
    wnew.ce_rx = o_ce + 64'd1;
    wnew.cnp_tx = o_tx + (send ? 64'd1 : 64'd0);
  end
  assign ce_rx_o = ce2_v_i;
  assign cnp_tx_o = ce2_v_i && send;
  assign coalesced_o = ce2_v_i && !send;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_np
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQps; q++) begin
        init_q[q] <= 1'b1;
      end
      for (int unsigned q = 0; q < NumQps; q++) begin
        v_q[q] <= 1'b0;
      end
      last_v_q <= 1'b0;
      last_qp_q <= '0;
      last_q <= '0;
      csr_v_q <= 1'b0;
      cnp_tx_valid_o <= 1'b0;
      cnp_tx_qp_o <= '0;
    end else begin
      if (ce2_v_i) begin
        init_q[QpW'(ce2_qp_i)] <= 1'b0;
      end
      if (init_v_i) begin  // after this cycle's CE (D4 step 7)
        init_q[QpW'(init_qp_i)] <= 1'b1;
      end
      if (clr_i) begin
        for (int unsigned q = 0; q < NumQps; q++) begin
          v_q[q] <= 1'b0;
        end
      end else if (ce2_v_i) begin
        v_q[QpW'(ce2_qp_i)] <= 1'b1;
      end
      last_v_q <= ce2_v_i;
      if (ce2_v_i) begin
        last_qp_q <= ce2_qp_i;
        last_q <= wnew;
      end
      csr_v_q <= v_q[QpW'(csr_qp_i)];
      cnp_tx_valid_o <= ce2_v_i && send;
      cnp_tx_qp_o <= (ce2_v_i && send) ? ce2_qp_i : '0;
    end
  end
  assign csr_ce_rx_o = csr_v_q ? b_rdata.ce_rx : '0;
  assign csr_cnp_tx_o = csr_v_q ? b_rdata.cnp_tx : '0;
  logic unused_b;
  assign unused_b = ^{b_rdata.np_sent, b_rdata.np_last, cfg_i, ce1_qp_i, init_qp_i, csr_qp_i};

endmodule

`default_nettype wire
