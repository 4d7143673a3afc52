// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_sva: input-only checker bound into every dcqcn_visit (rtl/dcqcn/dcqcn_bind.sv): on
// each word a scan slot writes back (docs/spec-dcqcn.md D15) it checks the rate limits of
// D6.1/D12, that the visit leaves every deadline of an active QP after t (D5: no timer
// falls behind), and that an inactive QP is written as its INIT word (D6.1). Kept on under
// --assert, compiled out by Yosys. (n_rate <= U: dcqcn_rate, RateStreamFits_A.)

`default_nettype none
`include "tm_assert.svh"

module dcqcn_sva (
  input wire logic                clk_i,
  input wire logic                rst_ni,
  input wire logic                v_i,    // the slot writes its row this cycle
  input wire dcqcn_pkg::rp_word_t w_i,    // the word before the visit
  input wire dcqcn_pkg::rp_word_t w_o,    // and after it
  input wire dcqcn_pkg::cfg_t     cfg_i,  // the parameters of this cycle
  input wire dcqcn_pkg::due_t     t_i     // this cycle, modulo 2^35
);

  localparam dcqcn_pkg::rate_t RATE_LIMIT = 20'd1000000;  // LINE_RATE's legal maximum (D9)

  // Rmax and Rmin of this cycle, from the formulas of D6.1 (not the datapath's functions).
  dcqcn_pkg::rate_t rmax, rmin;
  assign rmax = (cfg_i.max_rate == '0 || cfg_i.max_rate > cfg_i.line_rate) ? cfg_i.line_rate :
                                                                               cfg_i.max_rate;
  assign rmin = (cfg_i.min_rate < rmax) ? cfg_i.min_rate : rmax;

  logic unused_in;
  assign unused_in = ^{cfg_i, w_i, w_o.tx_seen};

  logic rates_ok, rc_write_ok, idle_ok, late_ok;
  // Whatever the parameter history: Rc and Rt are in 1..LINE_RATE's maximum (the pacer
  // divides by Rc; every limit is at least 1 Mb/s since RPG_MIN_RATE and LINE_RATE are).
  assign rates_ok = w_o.rc != '0 && w_o.rc <= RATE_LIMIT && w_o.rt != '0 && w_o.rt <= RATE_LIMIT;
  // Rc is clamped by every event that writes it, with the limits of that cycle (D6.1): an
  // Rc the visit changes goes to [Rmin, Rmax] of this cycle.
  assign rc_write_ok = w_o.rc == w_i.rc || (w_o.rc >= rmin && w_o.rc <= rmax);
  // An inactive QP is written as the INIT word (D6.1), its byte sum apart.
  assign idle_ok = w_o.active || (!w_o.cnp_alpha && !w_o.cnp_dec && w_o.rc == w_o.rt &&
                   w_o.alpha == 10'd1023 && w_o.stage_t == '0 && w_o.stage_bc == '0 &&
                   w_o.byte_count == '0);
  // After the visit every deadline of an active QP is after t (D5: fired deadlines move by
  // P >= S, so none is ever a visit behind).
  assign late_ok = !w_o.active || (!dcqcn_pkg::due_le(w_o.due_alpha, t_i) &&
                   !dcqcn_pkg::due_le(w_o.due_dec, t_i) && !dcqcn_pkg::due_le(w_o.due_inc, t_i));
  `ASSERT(RatesInRange_A, !v_i || rates_ok, clk_i, rst_ni)
  `ASSERT(RcWrittenInLimits_A, !v_i || rc_write_ok, clk_i, rst_ni)
  `ASSERT(InactiveAtInit_A, !v_i || idle_ok, clk_i, rst_ni)
  `ASSERT(NoTimerLate_A, !v_i || late_ok, clk_i, rst_ni)

endmodule

`default_nettype wire
