// SPDX-License-Identifier: Apache-2.0
//
// xtm_out5: the stage-5 registers of the commit stage's own outputs (docs/spec.md 15.2):
// the admission result of logical cycle t and the PFC frames generated in it, each frame's
// quanta expanded per priority (the port's P_PFC_QUANTA on the priorities in XOFF, 0 on
// those released). The dequeue records and the flush output have their own stage-5 registers
// in xtm_egress and xtm_deq; xtm_top registers all of them once more for the outputs.

`default_nettype none

module xtm_out5 #(
  parameter int unsigned NumPorts = 8
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  xtm_pkg::admit_t          adm_i,
  input  wire logic [31:0]         pkt_id_i,
  input  wire logic [8:0]          voq_i,
  input  wire logic [NumPorts-1:0] pfc_v_i,
  input  wire logic [8*NumPorts-1:0]  pfc_vec_i,
  input  wire logic [8*NumPorts-1:0]  pfc_xmask_i,
  input  wire logic [16*NumPorts-1:0] pfc_quanta_i,
  output logic                     res_valid_o,
  output logic [31:0]              res_pkt_id_o,
  output logic [8:0]               res_voq_o,
  output logic [3:0]               res_reason_o,
  output logic                     res_marked_o,
  output logic                     res_hdrm_o,
  output logic                     res_hbm_o,
  output logic [NumPorts-1:0]      pfc_valid_o,
  output logic [NumPorts*8-1:0]    pfc_vec_o,
  output logic [NumPorts*128-1:0]  pfc_quanta_o
);

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_res
    if (!rst_ni) begin
      res_valid_o <= 1'b0;
      res_pkt_id_o <= '0;
      res_voq_o <= '0;
      res_reason_o <= '0;
      res_marked_o <= 1'b0;
      res_hdrm_o <= 1'b0;
      res_hbm_o <= 1'b0;
    end else if (adm_i.valid || res_valid_o) begin  // (no result: every field is 0)
      res_valid_o <= adm_i.valid;
      res_pkt_id_o <= adm_i.valid ? pkt_id_i : '0;
      res_voq_o <= adm_i.cls ? voq_i : '0;
      res_reason_o <= adm_i.valid ? adm_i.reason : '0;
      res_marked_o <= adm_i.marked;
      res_hdrm_o <= adm_i.hdrm;
      res_hbm_o <= adm_i.hbm;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pfc
    if (!rst_ni) begin
      pfc_valid_o <= '0;
      pfc_vec_o <= '0;
      pfc_quanta_o <= '0;
    end else if (pfc_v_i != '0 || pfc_valid_o != '0) begin  // (no frame: all stay 0)
      pfc_valid_o <= pfc_v_i;
      pfc_vec_o <= pfc_vec_i;
      for (int p = 0; p < 32'(NumPorts); p++) begin
        for (int i = 0; i < 8; i++) begin
          pfc_quanta_o[16*(8*p+i)+:16] <= pfc_xmask_i[8*p+i] ? pfc_quanta_i[16*p+:16] : '0;
        end
      end
    end
  end

endmodule
