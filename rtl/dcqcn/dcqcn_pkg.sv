// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_pkg: per-QP state word and the reaction-point arithmetic of docs/spec-dcqcn.md
// (D6). Each function names its C twin in cmodel/dcqcn/dcqcn.c.

package dcqcn_pkg;

  localparam int unsigned RATE_W  = 20;  // Mb/s (D6.1)
  localparam int unsigned ALPHA_W = 10;  // Q10
  localparam int unsigned STAGE_W = 8;
  localparam int unsigned BCNT_W  = 22;
  localparam int unsigned TIME_W  = 64;  // absolute cycles, deadlines, pacer (Q56.8)
  localparam logic [TIME_W-1:0] NEVER = '1;  // a disarmed timer (DCQCN_NEVER)

  typedef logic [RATE_W-1:0]  rate_t;
  typedef logic [ALPHA_W-1:0] alpha_t;
  typedef logic [STAGE_W-1:0] stg_t;
  typedef logic [TIME_W-1:0]  time_t;

  // One word of the QP state memory (D6.1). Field order is the bit layout the testbench
  // decodes (tb/dcqcn_tb.cpp, QpWord): keep both in step.
  typedef struct packed {
    logic               active;
    logic               cnp_alpha;
    logic               cnp_dec;
    rate_t              rc;
    rate_t              rt;
    alpha_t             alpha;
    stg_t               stage_t;
    stg_t               stage_bc;
    logic [BCNT_W-1:0]  byte_count;
    time_t              due_alpha;
    time_t              due_dec;
    time_t              due_inc;
    time_t              pace_q8;
    logic               np_sent;
    time_t              np_last;
  } qp_state_t;

  // Configuration seen by the datapath (the parameter registers, D9).
  typedef struct packed {
    logic [16:0] time_reset_us;
    logic [14:0] byte_reset;
    logic [4:0]  threshold;
    rate_t       ai_rate;
    rate_t       hai_rate;
    logic [3:0]  gd;
    logic [6:0]  min_dec_fac;
    rate_t       min_rate;
    rate_t       max_rate;
    rate_t       rate_first;
    alpha_t      g;
    logic [16:0] rtt_us;
    alpha_t      alpha_init;
    logic        clamp_tgt;
    logic        clamp_ati;
    logic [16:0] rrmp_us;
    logic [16:0] min_cnp_us;
    logic [15:0] cycles_per_us;
    rate_t       line_rate;
  } cfg_t;

  // Increase-event classes (counters INC_FR/AI/HAI).
  localparam logic [1:0] IncFr = 2'd0;
  localparam logic [1:0] IncAi = 2'd1;
  localparam logic [1:0] IncHai = 2'd2;

  // C twin: dcqcn_rate_cap.
  function automatic rate_t rate_cap(cfg_t c);
    rate_cap = (c.max_rate == '0 || c.max_rate > c.line_rate) ? c.line_rate : c.max_rate;
  endfunction

  // C twin: clamp_rate (with rate_floor).
  function automatic rate_t clamp_rate(cfg_t c, logic [RATE_W:0] r);
    rate_t hi;
    rate_t lo;
    hi = rate_cap(c);
    lo = (c.min_rate < hi) ? c.min_rate : hi;
    if (r < {1'b0, lo}) begin
      clamp_rate = lo;
    end else if (r > {1'b0, hi}) begin
      clamp_rate = hi;
    end else begin
      clamp_rate = r[RATE_W-1:0];
    end
  endfunction

  // C twin: period(). Microseconds x CYCLES_PER_US, raised to the scan period (D3).
  function automatic time_t period(logic [16:0] us, logic [15:0] cpu, int unsigned scan);
    logic [32:0] c;
    c = 33'(us) * 33'(cpu);
    period = (c < 33'(scan)) ? TIME_W'(scan) : TIME_W'(c);
  endfunction

  // C twin: alpha_next (D6.3), Q10 truncating.
  function automatic alpha_t alpha_next(cfg_t c, alpha_t a, logic cnp);
    logic [19:0] prod;
    logic [10:0] v;
    prod = 20'(c.g) * 20'(a);
    v = 11'(prod >> 10);
    if (cnp) begin
      v = v + (11'd1024 - 11'(c.g));
      if (v > 11'd1023) begin
        v = 11'd1023;
      end
    end
    alpha_next = v[ALPHA_W-1:0];
  endfunction

  // C twin: increase() class selection (D6.5), with T and BC before the event.
  function automatic logic [1:0] inc_class(cfg_t c, stg_t st, stg_t sb);
    stg_t mn;
    stg_t mx;
    mn = (st < sb) ? st : sb;
    mx = (st < sb) ? sb : st;
    if (mn > 8'(c.threshold)) begin
      inc_class = IncHai;
    end else if (mx >= 8'(c.threshold)) begin
      inc_class = IncAi;
    end else begin
      inc_class = IncFr;
    end
  endfunction

  // C twin: increase() rate part (D6.5): Rt step, cap, Rc := clamp((Rc + Rt) >> 1).
  function automatic qp_state_t inc_rates(cfg_t c, qp_state_t s, logic [1:0] cls);
    logic [RATE_W:0] rt;
    logic [RATE_W:0] sum;
    rate_t cap;
    cap = rate_cap(c);
    rt = {1'b0, s.rt};
    if (cls == IncHai) begin
      rt = rt + {1'b0, c.hai_rate};
    end else if (cls == IncAi) begin
      rt = rt + {1'b0, c.ai_rate};
    end
    inc_rates = s;
    inc_rates.rt = (rt > {1'b0, cap}) ? cap : rt[RATE_W-1:0];
    sum = {1'b0, s.rc} + {1'b0, inc_rates.rt};
    inc_rates.rc = clamp_rate(c, sum >> 1);
  endfunction

  function automatic stg_t sat_stage(stg_t v);
    sat_stage = (v == '1) ? v : v + 8'd1;
  endfunction

  // C twin: cut() (D6.4), without the deadline and counters.
  function automatic qp_state_t cut_rates(cfg_t c, qp_state_t s);
    logic [29:0] by_alpha;
    logic [26:0] by_cap;
    logic [29:0] dec;
    logic        clamp_rt;
    logic [6:0]  keep;
    clamp_rt = c.clamp_tgt || (s.stage_bc != '0) || (c.clamp_ati && (s.stage_t != '0));
    cut_rates = s;
    if (clamp_rt) begin
      cut_rates.rt = s.rc;
    end
    by_alpha = (30'(s.rc) * 30'(s.alpha)) >> c.gd;
    keep = 7'd100 - c.min_dec_fac;
    by_cap = (27'(s.rc) * 27'(keep)) / 27'd100;
    dec = (by_alpha < 30'(by_cap)) ? by_alpha : 30'(by_cap);
    cut_rates.rc = clamp_rate(c, 21'(30'(s.rc) - dec));
    cut_rates.stage_t = '0;
    cut_rates.stage_bc = '0;
    cut_rates.byte_count = '0;
    cut_rates.cnp_dec = 1'b0;
  endfunction

endpackage
