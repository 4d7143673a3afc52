// SPDX-License-Identifier: Apache-2.0
//
// xtm_proftab: the 8 drop/mark profiles (PR_CFG, PR_FILL_k, PR_PROB_k; docs/spec.md 6.1) in
// the two copies their readers need (15.5): the enqueue copy is written and read in stage 2
// (the enqueue profile's first stage), the dequeue copy in stage 5 (the head-marking
// profile's first stage, one cycle after the selection). CSR reads come from stage 2.

`default_nettype none

module xtm_proftab (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [2:0]   enq_idx_i,     // stage 2
  output logic              enq_interp_o,
  output logic [3:0]        enq_npoints_o,
  output logic [135:0]      enq_fill_o,    // point k at [17k +: 17]
  output logic [135:0]      enq_prob_o,
  input  wire logic [2:0]   deq_idx_i,     // stage 5
  output logic              deq_interp_o,
  output logic [3:0]        deq_npoints_o,
  output logic [135:0]      deq_fill_o,
  output logic [135:0]      deq_prob_o,
  input  xtm_pkg::csr_op_t  op2_i,
  input  xtm_pkg::csr_op_t  op5_i,
  output logic [31:0]       rd2_o
);

  // one profile: {prob 136, fill 136, npoints 4, interp 1}
  localparam int unsigned PW = 277;

  logic [PW-1:0] enq_q [8];
  logic [PW-1:0] deq_q [8];

  // A CSR write changes one field of a row: written as a part-select of the row (the whole
  // row through a function made Verilator form and clear three 277-bit temporaries and a
  // 277-bit delayed value per copy in every cycle)
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_tables
    if (!rst_ni) begin
      for (int f = 0; f < 8; f++) begin
        enq_q[f] <= '0;
        deq_q[f] <= '0;
      end
    end else begin
      if (op2_i.wr) begin
        if (op2_i.id == xtm_reg_pkg::XtmRegPrCfg) begin
          enq_q[op2_i.prof][4:0] <= {op2_i.wdata[7:4], op2_i.wdata[0]};
        end
        if (op2_i.id == xtm_reg_pkg::XtmRegPrFill) begin
          enq_q[op2_i.prof][5+17*op2_i.idx[2:0]+:17] <= op2_i.wdata[16:0];
        end
        if (op2_i.id == xtm_reg_pkg::XtmRegPrProb) begin
          enq_q[op2_i.prof][141+17*op2_i.idx[2:0]+:17] <= op2_i.wdata[16:0];
        end
      end
      if (op5_i.wr) begin
        if (op5_i.id == xtm_reg_pkg::XtmRegPrCfg) begin
          deq_q[op5_i.prof][4:0] <= {op5_i.wdata[7:4], op5_i.wdata[0]};
        end
        if (op5_i.id == xtm_reg_pkg::XtmRegPrFill) begin
          deq_q[op5_i.prof][5+17*op5_i.idx[2:0]+:17] <= op5_i.wdata[16:0];
        end
        if (op5_i.id == xtm_reg_pkg::XtmRegPrProb) begin
          deq_q[op5_i.prof][141+17*op5_i.idx[2:0]+:17] <= op5_i.wdata[16:0];
        end
      end
    end
  end

  logic [PW-1:0] e, d, r;
  assign e = enq_q[enq_idx_i];
  assign d = deq_q[deq_idx_i];
  assign {enq_prob_o, enq_fill_o, enq_npoints_o, enq_interp_o} = e;
  assign {deq_prob_o, deq_fill_o, deq_npoints_o, deq_interp_o} = d;

  always_comb begin : c_rd2
    rd2_o = '0;
    r = '0;
    if (op2_i.rd) begin  // (the row of the read only for a read)
      r = enq_q[op2_i.prof];
      unique case (op2_i.id)
        xtm_reg_pkg::XtmRegPrCfg: rd2_o = {24'd0, r[4:1], 3'd0, r[0]};
        xtm_reg_pkg::XtmRegPrFill: rd2_o = {15'd0, r[5+17*op2_i.idx[2:0]+:17]};
        xtm_reg_pkg::XtmRegPrProb: rd2_o = {15'd0, r[141+17*op2_i.idx[2:0]+:17]};
        default: ;
      endcase
    end
  end

endmodule
