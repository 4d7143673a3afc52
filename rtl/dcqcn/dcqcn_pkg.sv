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
  typedef logic [15:0]        qp_id_t;
  typedef logic [63:0]        cnt_t;

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

  // Width of qp_state_t (Yosys 0.23 takes no $bits of a package type).
  localparam int unsigned QP_STATE_W = 3 + 2 * RATE_W + ALPHA_W + 2 * STAGE_W + BCNT_W +
                                       5 * TIME_W + 1;

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

  // Functions take scalars only: Yosys 0.23 cannot select a member of a struct argument.

  // C twin: dcqcn_rate_cap (D6.1).
  function automatic rate_t rate_cap(rate_t max_rate, rate_t line_rate);
    rate_cap = (max_rate == '0 || max_rate > line_rate) ? line_rate : max_rate;
  endfunction

  // C twin: clamp_rate (D6.1), lo = Rmin (already saturated to the cap), hi = Rmax.
  function automatic rate_t clamp_rate(rate_t lo, rate_t hi, logic [RATE_W:0] r);
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

  // C twin: alpha_next (D6.3), Q10 truncating; g = DCE_TCP_G.
  function automatic alpha_t alpha_next(alpha_t g, alpha_t a, logic cnp);
    logic [19:0] prod;
    logic [10:0] v;
    prod = 20'(g) * 20'(a);
    v = 11'(prod >> 10);
    if (cnp) begin
      v = v + (11'd1024 - 11'(g));
      if (v > 11'd1023) begin
        v = 11'd1023;
      end
    end
    alpha_next = v[ALPHA_W-1:0];
  endfunction

  // C twin: increase() class selection (D6.5), with T and BC before the event; f = F.
  function automatic logic [1:0] inc_class(logic [4:0] f, stg_t st, stg_t sb);
    stg_t mn;
    stg_t mx;
    mn = (st < sb) ? st : sb;
    mx = (st < sb) ? sb : st;
    if (mn > 8'(f)) begin
      inc_class = IncHai;
    end else if (mx >= 8'(f)) begin
      inc_class = IncAi;
    end else begin
      inc_class = IncFr;
    end
  endfunction

  // C twin: increase() target rate (D6.5): Rt + step (21-bit sum), then the cap.
  function automatic rate_t inc_rt(rate_t rt, logic [1:0] cls, rate_t ai, rate_t hai,
                                   rate_t cap);
    logic [RATE_W:0] v;
    v = {1'b0, rt};
    if (cls == IncHai) begin
      v = v + {1'b0, hai};
    end else if (cls == IncAi) begin
      v = v + {1'b0, ai};
    end
    inc_rt = (v > {1'b0, cap}) ? cap : v[RATE_W-1:0];
  endfunction

  // C twin: increase() current rate (D6.5): clamp((Rc + Rt') >> 1).
  function automatic rate_t inc_rc(rate_t rc, rate_t rt, rate_t lo, rate_t hi);
    logic [RATE_W:0] sum;
    sum = {1'b0, rc} + {1'b0, rt};
    inc_rc = clamp_rate(lo, hi, sum >> 1);
  endfunction

  // C twin: cut() rate (D6.4): Rc - min((Rc * alpha) >> GD, Rc * (100 - MIN_DEC_FAC) / 100),
  // clamped.
  function automatic rate_t cut_rc(rate_t rc, alpha_t alpha, logic [3:0] gd,
                                   logic [6:0] min_dec_fac, rate_t lo, rate_t hi);
    logic [29:0] by_alpha;
    logic [26:0] by_cap;
    logic [29:0] dec;
    logic [6:0]  keep;
    by_alpha = (30'(rc) * 30'(alpha)) >> gd;
    keep = 7'd100 - min_dec_fac;
    by_cap = (27'(rc) * 27'(keep)) / 27'd100;
    dec = (by_alpha < 30'(by_cap)) ? by_alpha : 30'(by_cap);
    cut_rc = clamp_rate(lo, hi, 21'(30'(rc) - dec));
  endfunction

  function automatic stg_t sat_stage(stg_t v);
    sat_stage = (v == '1) ? v : v + 8'd1;
  endfunction

endpackage
