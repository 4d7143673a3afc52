// SPDX-License-Identifier: Apache-2.0
//
// xtm_lowest: index of the lowest set bit of a vector, and whether any bit is set. A binary
// search over halves: at each of log2(N) levels, if the lower half of the window holds no
// set bit the index gets that level's bit and the window moves to the upper half. Depth
// O(log^2 N) gates; Verilator evaluates it with log2(N) word-wide operations.

`default_nettype none

module xtm_lowest #(
  parameter int unsigned N = 8,
  // derived, do not override
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  wire logic [N-1:0]    vec_i,
  output logic                 valid_o,
  output logic [IdxW-1:0]      idx_o
);

  localparam int unsigned Pow = 1 << IdxW;  // N rounded up to a power of two

  always_comb begin : c_search
    logic [Pow-1:0] w, lower, mask;
    w = Pow'(vec_i);
    lower = '0;
    mask = '0;
    idx_o = '1;  // what the search gives for an empty vector (every half empty)
    if (vec_i != '0) begin  // (the common case, nothing requested, skips the search)
      idx_o = '0;
      for (int l = 32'(IdxW) - 1; l >= 0; l--) begin
        mask = (Pow'(1) << (1 << l)) - Pow'(1);
        lower = w & mask;
        if (lower == '0) begin
          idx_o[l] = 1'b1;
          w = w >> (1 << l);
        end else begin
          w = lower;
        end
      end
    end
    valid_o = |vec_i;
  end

endmodule
