// SPDX-License-Identifier: Apache-2.0
//
// xtm_lfsr: one of the two marking LFSRs (docs/spec.md 6.4): 32-bit Galois, x^32 + x^22 +
// x^2 + x + 1, 16 steps per draw, advancing only on a draw; a seed write loads the state at
// the end of the cycle, after that cycle's draw. The draw result is combinational (r = low
// 16 bits of the state after the draw, valid with draw_i); the loop is this register alone.

`default_nettype none

module xtm_lfsr #(
  parameter logic [31:0] Seed = 32'hACE1_ACE1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        draw_i,
  output logic [15:0]      r_o,
  input  wire logic        seed_we_i,
  input  wire logic [31:0] seed_i,
  output logic [31:0]      state_o    // S(t)
);

  logic [31:0] state_q /* verilator public_flat_rd */;
  // the draw is formed only in a cycle that draws (r_o is used only then: 0 otherwise)
  logic [31:0] next;
  always_comb begin : c_draw
    next = '0;
    if (draw_i) begin
      next = xtm_pkg::lfsr_draw(state_q);
    end
  end
  assign r_o = next[15:0];
  assign state_o = state_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      state_q <= Seed;
    end else if (seed_we_i) begin
      state_q <= seed_i;
    end else if (draw_i) begin
      state_q <= next;
    end
  end

endmodule
