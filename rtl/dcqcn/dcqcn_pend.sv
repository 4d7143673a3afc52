// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_pend: the one-bit pending reaction-point records of docs/spec-dcqcn.md D5.1 as flop
// vectors of NumQps bits (D15): `init` (a Q_CTRL.INIT waiting for the visit), `cnp` and
// `more` (a CNP, and a further one, for a QP not visited in the CNP's cycle). All of it
// happens at stage 2: the scan reads and clears row g(t) of every bank, the CNP of cycle t
// sets its QP's bits unless the QP is visited in that cycle, and an INIT of cycle t (the
// end of the cycle, after both) sets `init` and clears `cnp` and `more`. C twin: the
// init_pend, pend_cnp and pend_more fields of cmodel/dcqcn/dcqcn_internal.h.

`default_nettype none

module dcqcn_pend #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth,
  localparam int unsigned RowW = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1,
  localparam int unsigned UShift = $clog2(ScanWidth),
  localparam int unsigned U = ScanWidth,
  localparam int unsigned QpW = (NumQps > 1) ? $clog2(NumQps) : 1
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic [RowW-1:0] g2_i,        // this cycle's scan row
  input  wire logic [U-1:0]    slot_v_i,    // slot b writes QP g2 * U + b back (consumes)
  input  wire logic            cnp_v_i,     // this cycle's CNP, for a QP < N
  input  wire logic [15:0]     cnp_qp_i,
  input  wire logic            init_v_i,    // Q_CTRL.INIT at the end of this cycle
  input  wire logic [15:0]     init_qp_i,
  output logic [U-1:0]         init_o,      // records of row g2, slot b
  output logic [U-1:0]         cnp_o,
  output logic [U-1:0]         more_o,
  input  wire logic [15:0]     csr_qp_i,    // records of one QP for the CSR (stage 2)
  output logic                 csr_init_o,
  output logic                 csr_cnp_o
);

  // one-bit arrays (a simulator updates single elements; synthesis makes them flops)
  logic init_q [NumQps];
  logic cnp_q [NumQps];
  logic more_q [NumQps];
  logic visited;
  logic [QpW-1:0] cq, iq;
  assign visited = RowW'(cnp_qp_i >> UShift) == g2_i;
  assign cq = QpW'(cnp_qp_i);
  assign iq = QpW'(init_qp_i);

  always_comb begin : c_out
    for (int unsigned b = 0; b < U; b++) begin
      init_o[b] = 1'b0;
      cnp_o[b] = 1'b0;
      more_o[b] = 1'b0;
      if ((32'(g2_i) << UShift) + b < NumQps) begin
        init_o[b] = init_q[QpW'((32'(g2_i) << UShift) + b)];
        cnp_o[b] = cnp_q[QpW'((32'(g2_i) << UShift) + b)];
        more_o[b] = more_q[QpW'((32'(g2_i) << UShift) + b)];
      end
    end
  end

  // the scan clears its slots, then a CNP sets its QP, then an INIT (the end of the cycle)
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pend
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQps; q++) begin
        init_q[q] <= 1'b0;
        cnp_q[q] <= 1'b0;
        more_q[q] <= 1'b0;
      end
    end else begin
      for (int unsigned b = 0; b < U; b++) begin
        if (slot_v_i[b]) begin
          init_q[QpW'((32'(g2_i) << UShift) + b)] <= 1'b0;
          cnp_q[QpW'((32'(g2_i) << UShift) + b)] <= 1'b0;
          more_q[QpW'((32'(g2_i) << UShift) + b)] <= 1'b0;
        end
      end
      if (cnp_v_i && !visited) begin
        more_q[cq] <= cnp_q[cq];
        cnp_q[cq] <= 1'b1;
      end
      if (init_v_i) begin
        init_q[iq] <= 1'b1;
        cnp_q[iq] <= 1'b0;
        more_q[iq] <= 1'b0;
      end
    end
  end

  assign csr_init_o = init_q[QpW'(csr_qp_i)];
  assign csr_cnp_o = cnp_q[QpW'(csr_qp_i)];
  logic unused_hi;
  assign unused_hi = ^{init_qp_i, csr_qp_i};

endmodule

`default_nettype wire
