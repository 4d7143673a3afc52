// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_pkg: widths, the RAM word layouts and the reaction-point arithmetic of
// docs/spec-dcqcn.md (D6). Each function names its C twin in cmodel/dcqcn/dcqcn.c.

package dcqcn_pkg;

  localparam int unsigned RATE_W  = 20;  // Mb/s (D6.1)
  localparam int unsigned ALPHA_W = 10;  // Q10
  localparam int unsigned STAGE_W = 8;
  localparam int unsigned BCNT_W  = 22;
  localparam int unsigned DUE_W   = 35;  // deadlines modulo 2^35 (D3)
  localparam int unsigned PER_W   = 34;  // a period: < 2^33, raised to S
  localparam int unsigned TXS_W   = 32;  // running byte sums (D15)
  localparam int unsigned TIME_W  = 64;  // absolute cycles, pacer (Q56.8), NP
  localparam int unsigned CNT_W   = 64;  // counters

  // Output latencies (spec D2.2, D15; C twins DCQCN_LAT_* in dcqcn.h).
  localparam int unsigned LAT_RATE = 3;
  localparam int unsigned LAT_PACE = 15;
  localparam int unsigned LAT_CSR  = 16;
  // The pacer's pipelined divider (D8): 4 quotient bits per stage, 11 stages for 44 bits.
  localparam int unsigned DIV_BITS   = 4;
  localparam int unsigned DIV_NUM_W  = 44;
  localparam int unsigned DIV_STAGES = DIV_NUM_W / DIV_BITS;
  localparam int unsigned PACE_STAGE = 3 + DIV_STAGES;  // the pacer's execute stage (14)

  typedef logic [RATE_W-1:0]  rate_t;
  typedef logic [ALPHA_W-1:0] alpha_t;
  typedef logic [STAGE_W-1:0] stg_t;
  typedef logic [DUE_W-1:0]   due_t;
  typedef logic [PER_W-1:0]   per_t;

  // Reaction-point context of one QP, one word of the scan-owned RAM `rp` (D15). Field
  // order is the bit layout the testbench decodes (tb/dcqcn_tb.cpp, kRpWord).
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
    due_t               due_alpha;
    due_t               due_dec;
    due_t               due_inc;
    logic [TXS_W-1:0]   tx_seen;
  } rp_word_t;
  // Width of rp_word_t (Yosys 0.23 takes no $bits of a package type).
  localparam int unsigned RP_W = 3 + 2 * RATE_W + ALPHA_W + 2 * STAGE_W + BCNT_W + 3 * DUE_W +
                                 TXS_W;

  // NP word (RAM `np`): the notification point and its two counters.
  typedef struct packed {
    logic              np_sent;
    logic [TIME_W-1:0] np_last;
    logic [CNT_W-1:0]  ce_rx;
    logic [CNT_W-1:0]  cnp_tx;
  } np_word_t;
  localparam int unsigned NP_W = 1 + TIME_W + 2 * CNT_W;

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

  // Global counters kept by dcqcn_gcnt, in register-map order (PACE_EARLY, the 13th, is
  // the pacer's own).
  localparam int unsigned GcCnpRx       = 0;
  localparam int unsigned GcCnpFirst    = 1;
  localparam int unsigned GcCuts        = 2;
  localparam int unsigned GcIncFr       = 3;  // 4, 5: INC_AI, INC_HAI (GcIncFr + class)
  localparam int unsigned GcIncByTimer  = 6;
  localparam int unsigned GcIncByBytes  = 7;
  localparam int unsigned GcCeRx        = 8;
  localparam int unsigned GcCnpTx       = 9;
  localparam int unsigned GcCeCoalesced = 10;
  localparam int unsigned GcBadQp       = 11;
  localparam int unsigned NUM_GCNT      = 12;
  localparam int unsigned GINC_W        = 7;  // one cycle's increment of one counter

  // Increase-event classes (counters INC_FR/AI/HAI).
  localparam logic [1:0] IncFr  = 2'd0;
  localparam logic [1:0] IncAi  = 2'd1;
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
  function automatic per_t period(logic [16:0] us, logic [15:0] cpu, int unsigned scan);
    logic [32:0] c;
    c = 33'(us) * 33'(cpu);
    period = (c < 33'(scan)) ? PER_W'(scan) : PER_W'(c);
  endfunction

  // Deadline d is due at t (D3): t - d modulo 2^35 below 2^34.
  function automatic logic due_le(due_t d, due_t t);
    due_t diff;
    diff = t - d;
    due_le = !diff[DUE_W-1];
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

  // floor(x / 100) for x < 2^27 without a divider: (x * 42949673) >> 32, checked for every
  // x < 2^27 (docs/spec-dcqcn.md D14).
  localparam logic [25:0] DIV100_MAGIC = 26'd42949673;
  function automatic logic [26:0] div100(logic [26:0] x);
    logic [52:0] p;
    p = 53'(x) * 53'(DIV100_MAGIC);
    div100 = 27'(p >> 32);
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
    by_cap = div100(27'(rc) * 27'(keep));
    dec = (by_alpha < 30'(by_cap)) ? by_alpha : 30'(by_cap);
    cut_rc = clamp_rate(lo, hi, 21'(30'(rc) - dec));
  endfunction

  // C twin: byte_counter() (D6.5): sat_22(byte_count + bytes), then at most one threshold
  // crossing. Returns {fired, new byte_count}; b = RPG_BYTE_RESET (64-byte units).
  function automatic logic [BCNT_W:0] bytes_add(logic [BCNT_W-1:0] bc, logic [TXS_W-1:0] bytes,
                                                logic [14:0] b);
    logic [TXS_W:0] sum;
    logic [BCNT_W-1:0] v;
    logic [BCNT_W-1:0] thr;
    sum = {1'b0, bytes} + (TXS_W + 1)'(bc);
    v = (sum > (TXS_W + 1)'({BCNT_W{1'b1}})) ? {BCNT_W{1'b1}} : sum[BCNT_W-1:0];
    thr = {1'b0, b, 6'd0};
    if (v >= thr) begin
      bytes_add = {1'b1, v - thr};
    end else begin
      bytes_add = {1'b0, v};
    end
  endfunction

  function automatic stg_t sat_stage(stg_t v);
    sat_stage = (v == '1) ? v : v + 8'd1;
  endfunction

endpackage
