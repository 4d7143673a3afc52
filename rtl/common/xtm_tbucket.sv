// SPDX-License-Identifier: Apache-2.0
//
// xtm_tbucket: the eager token bucket of docs/spec.md 5.4 (port shapers, HBM write and read
// bandwidth). Tokens in 2^-16 units, refilled at the start of every cycle up to the burst;
// conforming when the refilled value is >= 0; a charge subtracts (no lower clamp); a write
// of the rate or burst takes effect from the next cycle and clamps the tokens to the new
// burst at the end of the writing cycle. C twin: xtm_tb_at / xtm_tb_sync (lazy form, equal).

`default_nettype none

module xtm_tbucket #(
  parameter int unsigned TokW = 48,
  parameter int unsigned BurstW = 20,
  parameter logic [BurstW-1:0] BurstRst = '0   // reset tokens = BurstRst * 65536 (full)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic [23:0]       rate_i,        // Q8.16 per cycle, S(t)
  input  wire logic [BurstW-1:0] burst_i,       // S(t)
  input  wire logic              charge_i,
  input  wire logic [23:0]       amount_i,      // whole units (bytes or cells)
  input  wire logic              clamp_i,       // rate or burst written this cycle
  input  wire logic [BurstW-1:0] clamp_burst_i, // the burst in force from the next cycle
  output logic                   conform_o      // tokens after this cycle's refill >= 0
);

  logic signed [TokW-1:0] tok_q, tok_d, refilled, cap, full;
  logic at_full, idle;

  // The refill of a bucket at its burst is the burst: it is formed only below it. A full
  // bucket neither charged nor clamped is idle and its register keeps its value. (The
  // refill and the update are two blocks: the conformance feeds the charge's decision.)
  always_comb begin : c_refill
    full = $signed({{(TokW - BurstW - 16) {1'b0}}, burst_i, 16'h0});
    at_full = tok_q == full;
    refilled = tok_q;
    if (!at_full) begin
      refilled = xtm_pkg::tb_refill(tok_q, rate_i, 20'(burst_i));
    end
  end
  always_comb begin : c_bucket
    idle = at_full && !charge_i && !clamp_i;
    tok_d = tok_q;
    cap = '0;
    if (!idle) begin
      tok_d = refilled;
      if (charge_i) begin
        tok_d = tok_d - $signed({{(TokW - 40) {1'b0}}, amount_i, 16'h0});
      end
      if (clamp_i) begin
        cap = $signed({{(TokW - BurstW - 16) {1'b0}}, clamp_burst_i, 16'h0});
        // signed tok_d > cap (cap >= 0): the sign bit and an unsigned compare
        if (!tok_d[TokW-1] && $unsigned(tok_d) > $unsigned(cap)) begin
          tok_d = cap;  // signed: a negative bucket stays negative
        end
      end
    end
  end
  assign conform_o = !refilled[TokW-1];

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_tok
    if (!rst_ni) begin
      tok_q <= $signed({{(TokW - BurstW - 16) {1'b0}}, BurstRst, 16'h0});
    end else if (!idle) begin
      tok_q <= tok_d;
    end
  end

endmodule
