// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_sva: input-only checker bound into dcqcn_core (rtl/dcqcn/dcqcn_bind.sv). It checks
// the rate limits of docs/spec-dcqcn.md D6.1/D12 and the timer-scan guarantee of D5 on the
// per-QP state every cycle. Kept ON under Verilator (--assert); compiled out by Yosys.
// (alpha <= 1023 needs no assertion: alpha is a 10-bit field.)

`default_nettype none
`include "tm_assert.svh"

module dcqcn_sva #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  parameter int unsigned QpBits    = dcqcn_pkg::QP_STATE_W
) (
  input wire logic                     clk_i,
  input wire logic                     rst_ni,
  input wire logic [NumQps*QpBits-1:0] qp_q,   // S(t)
  input wire logic [NumQps*QpBits-1:0] qp_d,   // S(t+1)
  input wire dcqcn_pkg::cfg_t          cfg_q,  // the parameters of cycle t
  input wire dcqcn_pkg::time_t         t_q,
  input wire logic [4:0]               n_rate_o,
  input wire logic                     cnp_tx_valid_o,
  input wire logic                     pace_valid_o,
  input wire logic                     csr_rsp_err_o
);

  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth;
  localparam dcqcn_pkg::rate_t RATE_LIMIT = 20'd1000000;  // LINE_RATE's legal maximum (D9)

  // Rmax and Rmin of this cycle, from the formulas of D6.1 (not the core's functions).
  dcqcn_pkg::rate_t rmax, rmin;
  assign rmax = (cfg_q.max_rate == '0 || cfg_q.max_rate > cfg_q.line_rate) ? cfg_q.line_rate :
                                                                               cfg_q.max_rate;
  assign rmin = (cfg_q.min_rate < rmax) ? cfg_q.min_rate : rmax;

  logic unused_cfg;
  assign unused_cfg = ^{cfg_q.time_reset_us, cfg_q.byte_reset, cfg_q.threshold, cfg_q.ai_rate,
                        cfg_q.hai_rate, cfg_q.gd, cfg_q.min_dec_fac, cfg_q.rate_first, cfg_q.g,
                        cfg_q.rtt_us, cfg_q.alpha_init, cfg_q.clamp_tgt, cfg_q.clamp_ati,
                        cfg_q.rrmp_us, cfg_q.min_cnp_us, cfg_q.cycles_per_us};

  `ASSERT(RateStreamFits_A, 32'(n_rate_o) <= ScanWidth + 2, clk_i, rst_ni)
  `ASSERT_KNOWN(CnpTxValidKnown_A, cnp_tx_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(PaceValidKnown_A, pace_valid_o, clk_i, rst_ni)
  `ASSERT_KNOWN(NRateKnown_A, n_rate_o, clk_i, rst_ni)
  `ASSERT_KNOWN(CsrErrKnown_A, csr_rsp_err_o, clk_i, rst_ni)

  for (genvar i = 0; i < int'(NumQps); i++) begin : g_qp
    dcqcn_pkg::qp_state_t s, n;
    assign s = qp_q[i * QpBits +: QpBits];
    assign n = qp_d[i * QpBits +: QpBits];
    logic rates_ok, rc_write_ok, idle_ok, armed_ok, late_ok;
    logic unused_state;
    assign unused_state = ^{s.pace_q8, s.np_sent, s.np_last, n.active, n.cnp_alpha, n.cnp_dec,
                            n.rt, n.alpha, n.stage_t, n.stage_bc, n.byte_count, n.due_alpha,
                            n.due_dec, n.due_inc, n.pace_q8, n.np_sent, n.np_last};
    // Whatever the parameter history: Rc and Rt are in 1..LINE_RATE's maximum (the pacer
    // divides by Rc; every limit is at least 1 Mb/s since RPG_MIN_RATE and LINE_RATE are).
    assign rates_ok = s.rc != '0 && s.rc <= RATE_LIMIT && s.rt != '0 && s.rt <= RATE_LIMIT;
    // Rc is clamped by every event that writes it, with the limits of that cycle (D6.1):
    // an Rc that changes goes to [Rmin, Rmax] of this cycle.
    assign rc_write_ok = n.rc == s.rc || (n.rc >= rmin && n.rc <= rmax);
    // An inactive QP holds the reset / INIT word, apart from the pacer and the NP (D6.1).
    assign idle_ok = s.active || (!s.cnp_alpha && !s.cnp_dec && s.rc == s.rt &&
                     s.alpha == 10'd1023 && s.stage_t == '0 && s.stage_bc == '0 &&
                     s.byte_count == '0 && s.due_alpha == dcqcn_pkg::NEVER &&
                     s.due_dec == dcqcn_pkg::NEVER && s.due_inc == dcqcn_pkg::NEVER);
    // An active QP's three timers are armed, and the scan (D5) visits each due deadline
    // within one scan period: no deadline is ever a full period behind.
    assign armed_ok = !s.active || (s.due_alpha != dcqcn_pkg::NEVER &&
                      s.due_dec != dcqcn_pkg::NEVER && s.due_inc != dcqcn_pkg::NEVER);
    assign late_ok = !s.active || !armed_ok ||
                     (s.due_alpha + 64'(ScanPeriod) > t_q && s.due_dec + 64'(ScanPeriod) > t_q &&
                      s.due_inc + 64'(ScanPeriod) > t_q);
    `ASSERT(RatesInRange_A, rates_ok, clk_i, rst_ni)
    `ASSERT(RcWrittenInLimits_A, rc_write_ok, clk_i, rst_ni)
    `ASSERT(InactiveAtInit_A, idle_ok, clk_i, rst_ni)
    `ASSERT(ActiveTimersArmed_A, armed_ok, clk_i, rst_ni)
    `ASSERT(NoTimerLate_A, late_ok, clk_i, rst_ni)
  end

endmodule

`default_nettype wire
