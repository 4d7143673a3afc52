// SPDX-License-Identifier: Apache-2.0
//
// xtm_div_pipe: pipelined restoring unsigned divider, quo = floor(num / den), one division
// entering per cycle. Stage k (k = 0 .. Stages-1) shifts Bits numerator bits into the
// partial remainder and subtracts den where it fits; the inputs feed stage 0 in the cycle
// they are valid (in_v_i) and the quotient is in a register Stages cycles later (out_v_o).
// No `/` operator: Bits chained DenW-bit compare-and-subtract steps per stage. The tag
// travels with the operands; pre_v_o/pre_tag_o show it one cycle before the result (for a
// RAM read issued then). den = 0 gives an all-ones quotient. Used by the dcqcn pacer
// (docs/spec-dcqcn.md D8).

`default_nettype none

module xtm_div_pipe #(
  parameter int unsigned NumW = 44,
  parameter int unsigned DenW = 20,
  parameter int unsigned Bits = 4,
  parameter int unsigned TagW = 1,
  // derived, do not override
  parameter int unsigned Stages = (NumW + Bits - 1) / Bits
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            in_v_i,
  input  wire logic [NumW-1:0] num_i,
  input  wire logic [DenW-1:0] den_i,
  input  wire logic [TagW-1:0] tag_i,
  output logic                 pre_v_o,
  output logic [TagW-1:0]      pre_tag_o,
  output logic                 out_v_o,
  output logic [NumW-1:0]      quo_o,
  output logic [TagW-1:0]      tag_o
);

  if (NumW % Bits != 0 || Stages < 2) begin : g_bad
    $fatal(1, "xtm_div_pipe: NumW must be a multiple of Bits, at least two stages");
  end

  // Stage register k (in its generate block: one register per stage, no wide flat vector):
  // valid, remainder (< den), numerator bits still to shift in (high) followed by the
  // quotient bits produced (low), divisor, tag.

  // Bits restoring steps on (rem, nq) with divisor d
  function automatic logic [DenW+NumW-1:0] steps(logic [DenW-1:0] rem, logic [NumW-1:0] nq,
                                                 logic [DenW-1:0] d);
    logic [DenW:0] r;
    logic [DenW-1:0] rr;
    logic [NumW-1:0] n;
    rr = rem;
    n = nq;
    for (int unsigned i = 0; i < Bits; i++) begin
      r = {rr, n[NumW-1]};
      n = {n[NumW-2:0], 1'b0};
      if (r >= {1'b0, d}) begin
        r = r - {1'b0, d};
        n[0] = 1'b1;
      end
      rr = r[DenW-1:0];
    end
    steps = {rr, n};
  endfunction

  for (genvar k = 0; k < Stages; k++) begin : g_stage
    logic v_q;
    logic [DenW-1:0] rem_q, den_q;
    logic [NumW-1:0] nq_q;
    logic [TagW-1:0] tag_q;
    logic [DenW-1:0] rem_in, den_in;
    logic [NumW-1:0] nq_in;
    logic [TagW-1:0] tag_in;
    logic v_in;
    if (k == 0) begin : g_first
      assign v_in = in_v_i;
      assign rem_in = '0;
      assign nq_in = num_i;
      assign den_in = den_i;
      assign tag_in = tag_i;
    end else begin : g_next
      assign v_in = g_stage[k-1].v_q;
      assign rem_in = g_stage[k-1].rem_q;
      assign nq_in = g_stage[k-1].nq_q;
      assign den_in = g_stage[k-1].den_q;
      assign tag_in = g_stage[k-1].tag_q;
    end
    // the steps are computed in the stage's enable only (a simulator skips idle stages)
    always_ff @(posedge clk_i or negedge rst_ni) begin : s_stage
      if (!rst_ni) begin
        v_q <= 1'b0;
        rem_q <= '0;
        nq_q <= '0;
        den_q <= '0;
        tag_q <= '0;
      end else begin
        v_q <= v_in;
        if (v_in) begin
          {rem_q, nq_q} <= steps(rem_in, nq_in, den_in);
          den_q <= den_in;
          tag_q <= tag_in;
        end
      end
    end
    if (k == Stages - 1) begin : g_last
      assign quo_o = nq_q;
      logic unused_last;
      assign unused_last = ^{rem_q, den_q};
    end
  end

  assign pre_v_o = g_stage[Stages-2].v_q;
  assign pre_tag_o = g_stage[Stages-2].tag_q;
  assign out_v_o = g_stage[Stages-1].v_q;
  assign tag_o = g_stage[Stages-1].tag_q;

endmodule

`default_nettype wire
