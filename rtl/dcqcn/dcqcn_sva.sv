// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_sva: input-only checker bound into dcqcn_scan (rtl/dcqcn/dcqcn_bind.sv). Every cycle
// it checks every word the scan writes back (docs/spec-dcqcn.md D15): the rate limits of
// D6.1/D12, that a visit leaves every deadline of an active QP after t (D5: no timer falls
// behind), that an inactive QP is written as its INIT word (D6.1), and n_rate <= U (D7).
// Kept ON under Verilator (--assert); compiled out by Yosys.

`default_nettype none
`include "tm_assert.svh"

module dcqcn_sva #(
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  parameter int unsigned W = dcqcn_pkg::RP_W
) (
  input wire logic                    clk_i,
  input wire logic                    rst_ni,
  input wire logic [ScanWidth-1:0]    slot_v,   // slot b writes its row this cycle
  input wire logic [ScanWidth*W-1:0]  vis_in,   // the words before the visits
  input wire logic [ScanWidth*W-1:0]  vis_out,  // and after them
  input wire dcqcn_pkg::cfg_t         cfg_i,    // the parameters of this cycle
  input wire logic [63:0]             t2_q,     // this cycle
  input wire logic [4:0]              n_rate_d  // the rate stream of this cycle
);

  localparam dcqcn_pkg::rate_t RATE_LIMIT = 20'd1000000;  // LINE_RATE's legal maximum (D9)

  // Rmax and Rmin of this cycle, from the formulas of D6.1 (not the datapath's functions).
  dcqcn_pkg::rate_t rmax, rmin;
  assign rmax = (cfg_i.max_rate == '0 || cfg_i.max_rate > cfg_i.line_rate) ? cfg_i.line_rate :
                                                                               cfg_i.max_rate;
  assign rmin = (cfg_i.min_rate < rmax) ? cfg_i.min_rate : rmax;
  dcqcn_pkg::due_t t;
  assign t = t2_q[dcqcn_pkg::DUE_W-1:0];

  logic unused_cfg;
  assign unused_cfg = ^{cfg_i, t2_q[63:dcqcn_pkg::DUE_W]};

  `ASSERT(RateStreamFits_A, 32'(n_rate_d) <= ScanWidth, clk_i, rst_ni)

  for (genvar b = 0; b < int'(ScanWidth); b++) begin : g_slot
    dcqcn_pkg::rp_word_t s, n;
    assign s = vis_in[b*W +: W];
    assign n = vis_out[b*W +: W];
    logic rates_ok, rc_write_ok, idle_ok, late_ok;
    logic unused_state;
    assign unused_state = ^{s, n.tx_seen};
    // Whatever the parameter history: Rc and Rt are in 1..LINE_RATE's maximum (the pacer
    // divides by Rc; every limit is at least 1 Mb/s since RPG_MIN_RATE and LINE_RATE are).
    assign rates_ok = n.rc != '0 && n.rc <= RATE_LIMIT && n.rt != '0 && n.rt <= RATE_LIMIT;
    // Rc is clamped by every event that writes it, with the limits of that cycle (D6.1):
    // an Rc the visit changes goes to [Rmin, Rmax] of this cycle.
    assign rc_write_ok = n.rc == s.rc || (n.rc >= rmin && n.rc <= rmax);
    // An inactive QP is written as the INIT word (D6.1), its byte sum apart.
    assign idle_ok = n.active || (!n.cnp_alpha && !n.cnp_dec && n.rc == n.rt &&
                     n.alpha == 10'd1023 && n.stage_t == '0 && n.stage_bc == '0 &&
                     n.byte_count == '0);
    // After the visit every deadline of an active QP is after t (D5: fired deadlines move
    // by P >= S, so none is ever a visit behind).
    assign late_ok = !n.active || (!dcqcn_pkg::due_le(n.due_alpha, t) &&
                     !dcqcn_pkg::due_le(n.due_dec, t) && !dcqcn_pkg::due_le(n.due_inc, t));
    `ASSERT(RatesInRange_A, !slot_v[b] || rates_ok, clk_i, rst_ni)
    `ASSERT(RcWrittenInLimits_A, !slot_v[b] || rc_write_ok, clk_i, rst_ni)
    `ASSERT(InactiveAtInit_A, !slot_v[b] || idle_ok, clk_i, rst_ni)
    `ASSERT(NoTimerLate_A, !slot_v[b] || late_ok, clk_i, rst_ni)
  end

endmodule

`default_nettype wire
