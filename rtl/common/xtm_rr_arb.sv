// SPDX-License-Identifier: Apache-2.0
//
// xtm_rr_arb: round-robin pick "the first request at or above the pointer, else the lowest
// request" (docs/spec.md 9.2 for the ports, 9.3 for the DWRR search), as OpenTitan's
// prim_arbiter_ppc does: mask the requests below the pointer, take the lowest set bit of
// the masked vector, or of the whole vector if the mask is empty. Combinational; the
// caller keeps the pointer.

`default_nettype none

module xtm_rr_arb #(
  parameter int unsigned N = 8,
  // derived, do not override
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  wire logic [N-1:0]    req_i,
  input  wire logic [IdxW-1:0] ptr_i,   // first index to consider (< N)
  output logic                 valid_o,
  output logic [IdxW-1:0]      idx_o
);

  logic [N-1:0] above;
  logic [IdxW-1:0] lo_above, lo_all;
  logic any_above, any_all;

  // requests at or above ptr_i: clear the bits below it
  assign above = req_i & ~((N'(1) << ptr_i) - N'(1));

  xtm_lowest #(.N(N)) u_lo_above (.vec_i(above), .valid_o(any_above), .idx_o(lo_above));
  xtm_lowest #(.N(N)) u_lo_all (.vec_i(req_i), .valid_o(any_all), .idx_o(lo_all));

  assign valid_o = any_all;
  assign idx_o = any_above ? lo_above : lo_all;

endmodule
