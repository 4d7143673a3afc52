// SPDX-License-Identifier: Apache-2.0
//
// xtm_prof_eval: a drop/mark profile evaluation (docs/spec.md 6.1) in two pipeline stages:
// inputs in cycle c, the evaluated profile (code, Dn, N) registered at the end of c+1 (valid
// in c+2). Stage A: the 8 cross-products F_i * L, the highest point reached, the segment;
// stage B: Dn and N. The draw and the hit test (xtm_pkg::prof_hit) belong to the user, who
// owns the LFSR. Instantiated for the enqueue profile and for head marking.

`default_nettype none

module xtm_prof_eval (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        valid_i,     // an evaluation enters (else the stages hold)
  input  wire logic        interp_i,
  input  wire logic [3:0]  npoints_i,
  input  wire logic [135:0] fill_i,
  input  wire logic [135:0] prob_i,
  input  wire logic [27:0] occ_i,
  input  wire logic [27:0] limit_i,
  output logic [xtm_pkg::PROF_B_W-1:0] prof_o   // xtm_pkg::prof_b_t, two cycles later
);

  logic [xtm_pkg::PROF_A_W-1:0] a_d, a_q;
  logic [xtm_pkg::PROF_B_W-1:0] b_d;

  // each stage is formed and loaded only with an evaluation in it (a stage holds otherwise;
  // the result of a cycle without valid_i two cycles before is not used)
  logic v_q;
  always_comb begin : c_stages
    a_d = '0;
    b_d = '0;
    if (valid_i) begin
      a_d = xtm_pkg::prof_stage_a(interp_i, npoints_i, fill_i, prob_i, occ_i, limit_i);
    end
    if (v_q) begin
      b_d = xtm_pkg::prof_stage_b(a_q);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_stages
    if (!rst_ni) begin
      v_q <= 1'b0;
      a_q <= '0;
      prof_o <= '0;
    end else begin
      v_q <= valid_i;
      if (valid_i) begin
        a_q <= a_d;
      end
      if (v_q) begin
        prof_o <= b_d;
      end
    end
  end

endmodule
