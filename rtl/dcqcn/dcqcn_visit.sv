// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_visit: one scan slot's visit of one QP (docs/spec-dcqcn.md D5.1), combinational, in
// the execute stage of the scan (D15): a pending INIT, the pending bytes, a pending CNP, the
// due timers (alpha D6.3, decrease D6.4, increase D6.5), then the visit cycle's own CNP and
// transmission (pacer Rc sampled between them). C twin: visit(), cnp_rx(), tx_sent() and
// byte_counter() in cmodel/dcqcn/dcqcn.c.

`default_nettype none

module dcqcn_visit (
  // clock, reset and slot valid: only for the bound checker (dcqcn_sva), the visit is
  // combinational
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  input  wire logic                     v_i,           // the slot visits an existing QP
  input  wire dcqcn_pkg::rp_word_t      w_i,           // the stored word (or the reset word)
  input  wire logic                     init_i,        // INIT pending
  input  wire logic                     pend_cnp_i,    // CNP pending
  input  wire logic                     pend_more_i,   // a further CNP pending
  input  wire logic [31:0]              sum_i,         // byte sum after the previous cycle
  input  wire logic                     cnp_now_i,     // this cycle's CNP is for this QP
  input  wire logic                     tx_now_i,      // this cycle's transmission is
  input  wire logic [15:0]              tx_bytes_i,
  input  wire dcqcn_pkg::cfg_t          cfg_i,
  input  wire dcqcn_pkg::due_t          t_i,           // this cycle, modulo 2^35
  input  wire dcqcn_pkg::rate_t         cap_i,         // Rmax
  input  wire dcqcn_pkg::rate_t         lo_i,          // Rmin
  input  wire dcqcn_pkg::per_t          p_alpha_i,
  input  wire dcqcn_pkg::per_t          p_dec_i,
  input  wire dcqcn_pkg::per_t          p_inc_i,
  output dcqcn_pkg::rp_word_t           w_o,
  output dcqcn_pkg::rate_t              rc_o,          // w_o's Rc, Rt, alpha
  output dcqcn_pkg::rate_t              rt_o,
  output dcqcn_pkg::alpha_t             alpha_o,
  output dcqcn_pkg::rate_t              rc_pace_o,     // Rc for this cycle's pacer (D4)
  output logic                          changed_o,     // (Rc, Rt, alpha) changed: D7 entry
  output logic                          first_o,       // CNP_FIRST
  output logic                          cut_o,         // CUTS, Q_CUTS
  output logic [1:0]                    n_fr_o,        // INC_FR, INC_AI, INC_HAI
  output logic [1:0]                    n_ai_o,
  output logic [1:0]                    n_hai_o,
  output logic                          by_timer_o,    // INC_BY_TIMER
  output logic [1:0]                    n_by_bytes_o,  // INC_BY_BYTES (Q_INC: the sum)
  output logic                          busy_o         // the visit changes the word (a write)
);

  // The word's fields as scalars (a 228-bit struct updated field by field costs Verilator
  // a multi-word masked operation per assignment).
  logic active, cnp_alpha, cnp_dec;
  dcqcn_pkg::rate_t rc, rt;
  dcqcn_pkg::alpha_t alpha;
  dcqcn_pkg::stg_t stage_t, stage_bc;
  logic [dcqcn_pkg::BCNT_W-1:0] byte_count;
  dcqcn_pkg::due_t due_alpha, due_dec, due_inc;
  dcqcn_pkg::rate_t ref_rc, ref_rt;
  dcqcn_pkg::alpha_t ref_alpha;
  logic [1:0] cls;
  logic [dcqcn_pkg::BCNT_W:0] badd;

  // class counts of the (up to three) increase events of this visit
  function automatic logic [5:0] count_class(logic [5:0] n, logic [1:0] c);
    count_class = n;
    if (c == dcqcn_pkg::IncFr) begin
      count_class[1:0] = n[1:0] + 2'd1;
    end else if (c == dcqcn_pkg::IncAi) begin
      count_class[3:2] = n[3:2] + 2'd1;
    end else begin
      count_class[5:4] = n[5:4] + 2'd1;
    end
  endfunction
  logic [5:0] ncls;
  logic [31:0] pend_bytes;  // bytes since the last visit (D5.1): the two running sums' difference
  assign pend_bytes = sum_i - w_i.tx_seen;
  logic unused_cfg;
  assign unused_cfg = ^{cfg_i, v_i, clk_i, rst_ni};  // the visit uses the RP parameters only

  // Something to do: a pending record, bytes, this cycle's input or a due timer. Otherwise
  // the word stays as it is and the scan need not write it back (nor a simulator compute it).
  logic busy;
  assign busy = init_i || pend_cnp_i || pend_bytes != '0 || cnp_now_i || tx_now_i ||
                (w_i.active && (dcqcn_pkg::due_le(w_i.due_alpha, t_i) ||
                 dcqcn_pkg::due_le(w_i.due_dec, t_i) || dcqcn_pkg::due_le(w_i.due_inc, t_i)));
  assign busy_o = busy;

  always_comb begin
    active = w_i.active;
    cnp_alpha = w_i.cnp_alpha;
    cnp_dec = w_i.cnp_dec;
    rc = w_i.rc;
    rt = w_i.rt;
    alpha = w_i.alpha;
    stage_t = w_i.stage_t;
    stage_bc = w_i.stage_bc;
    byte_count = w_i.byte_count;
    due_alpha = w_i.due_alpha;
    due_dec = w_i.due_dec;
    due_inc = w_i.due_inc;
    cls = dcqcn_pkg::IncFr;
    badd = '0;
    ncls = '0;
    first_o = 1'b0;
    cut_o = 1'b0;
    by_timer_o = 1'b0;
    n_by_bytes_o = '0;
    ref_rc = w_i.rc;
    ref_rt = w_i.rt;
    ref_alpha = w_i.alpha;
    rc_pace_o = w_i.rc;
    w_o = w_i;
    if (busy) begin
      // 1. INIT (D6.1 word, rates = this cycle's cap); the D7 reference is the word after it
      if (init_i) begin
        active = 1'b0;
        cnp_alpha = 1'b0;
        cnp_dec = 1'b0;
        rc = cap_i;
        rt = cap_i;
        alpha = 10'd1023;
        stage_t = '0;
        stage_bc = '0;
        byte_count = '0;
      end
      ref_rc = rc;
      ref_rt = rt;
      ref_alpha = alpha;
      // 2. pending bytes, counted for an active QP (D6.5, at most one event)
      if (active && pend_bytes != '0) begin
        badd = dcqcn_pkg::bytes_add(byte_count, pend_bytes, cfg_i.byte_reset);
        byte_count = badd[dcqcn_pkg::BCNT_W-1:0];
        if (badd[dcqcn_pkg::BCNT_W]) begin
          cls = dcqcn_pkg::inc_class(cfg_i.threshold, stage_t, stage_bc);
          rt = dcqcn_pkg::inc_rt(rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
          rc = dcqcn_pkg::inc_rc(rc, rt, lo_i, cap_i);
          stage_bc = dcqcn_pkg::sat_stage(stage_bc);
          ncls = count_class(ncls, cls);
          n_by_bytes_o = n_by_bytes_o + 2'd1;
        end
      end
      // 3. pending CNP: the first (D6.2; a further one sets the flags) or the flags (D6.7)
      if (pend_cnp_i) begin
        if (!active) begin
          first_o = 1'b1;
          active = 1'b1;
          alpha = cfg_i.alpha_init;
          if (cfg_i.rate_first != '0) begin
            rc = cfg_i.rate_first;
            rt = cfg_i.rate_first;
          end
          rc = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, rc});
          rt = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, rt});
          cnp_alpha = pend_more_i;
          cnp_dec = pend_more_i;
          stage_t = '0;
          stage_bc = '0;
          byte_count = '0;
          due_alpha = t_i + dcqcn_pkg::DUE_W'(p_alpha_i);
          due_dec = t_i + dcqcn_pkg::DUE_W'(p_dec_i);
          due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);
        end else begin
          cnp_alpha = 1'b1;
          cnp_dec = 1'b1;
        end
      end
      // 4. due timers: alpha, decrease, increase (D5), each at most once
      if (active && dcqcn_pkg::due_le(due_alpha, t_i)) begin
        alpha = dcqcn_pkg::alpha_next(cfg_i.g, alpha, cnp_alpha);
        cnp_alpha = 1'b0;
        due_alpha = due_alpha + dcqcn_pkg::DUE_W'(p_alpha_i);
      end
      if (active && dcqcn_pkg::due_le(due_dec, t_i)) begin
        if (cnp_dec) begin
          if (cfg_i.clamp_tgt || stage_bc != '0 || (cfg_i.clamp_ati && stage_t != '0)) begin
            rt = rc;
          end
          rc = dcqcn_pkg::cut_rc(rc, alpha, cfg_i.gd, cfg_i.min_dec_fac, lo_i, cap_i);
          stage_t = '0;
          stage_bc = '0;
          byte_count = '0;
          cnp_dec = 1'b0;
          due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);  // a cut restarts the increase timer
          cut_o = 1'b1;
        end
        due_dec = due_dec + dcqcn_pkg::DUE_W'(p_dec_i);
      end
      if (active && dcqcn_pkg::due_le(due_inc, t_i)) begin
        due_inc = due_inc + dcqcn_pkg::DUE_W'(p_inc_i);
        cls = dcqcn_pkg::inc_class(cfg_i.threshold, stage_t, stage_bc);
        rt = dcqcn_pkg::inc_rt(rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
        rc = dcqcn_pkg::inc_rc(rc, rt, lo_i, cap_i);
        stage_t = dcqcn_pkg::sat_stage(stage_t);
        ncls = count_class(ncls, cls);
        by_timer_o = 1'b1;
      end
      // 5. this cycle's CNP, then its transmission (D4 steps 3-4)
      if (cnp_now_i) begin
        if (!active) begin
          first_o = 1'b1;
          active = 1'b1;
          alpha = cfg_i.alpha_init;
          if (cfg_i.rate_first != '0) begin
            rc = cfg_i.rate_first;
            rt = cfg_i.rate_first;
          end
          rc = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, rc});
          rt = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, rt});
          cnp_alpha = 1'b0;
          cnp_dec = 1'b0;
          stage_t = '0;
          stage_bc = '0;
          byte_count = '0;
          due_alpha = t_i + dcqcn_pkg::DUE_W'(p_alpha_i);
          due_dec = t_i + dcqcn_pkg::DUE_W'(p_dec_i);
          due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);
        end else begin
          cnp_alpha = 1'b1;
          cnp_dec = 1'b1;
        end
      end
      rc_pace_o = rc;
      if (tx_now_i && active) begin
        badd = dcqcn_pkg::bytes_add(byte_count, 32'(tx_bytes_i), cfg_i.byte_reset);
        byte_count = badd[dcqcn_pkg::BCNT_W-1:0];
        if (badd[dcqcn_pkg::BCNT_W]) begin
          cls = dcqcn_pkg::inc_class(cfg_i.threshold, stage_t, stage_bc);
          rt = dcqcn_pkg::inc_rt(rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
          rc = dcqcn_pkg::inc_rc(rc, rt, lo_i, cap_i);
          stage_bc = dcqcn_pkg::sat_stage(stage_bc);
          ncls = count_class(ncls, cls);
          n_by_bytes_o = n_by_bytes_o + 2'd1;
        end
      end
      // every byte up to this cycle is now applied or dropped (D15: tx_seen)
      w_o.active = active;
      w_o.cnp_alpha = cnp_alpha;
      w_o.cnp_dec = cnp_dec;
      w_o.rc = rc;
      w_o.rt = rt;
      w_o.alpha = alpha;
      w_o.stage_t = stage_t;
      w_o.stage_bc = stage_bc;
      w_o.byte_count = byte_count;
      w_o.due_alpha = due_alpha;
      w_o.due_dec = due_dec;
      w_o.due_inc = due_inc;
      w_o.tx_seen = sum_i + (tx_now_i ? 32'(tx_bytes_i) : 32'd0);
    end
    rc_o = rc;
    rt_o = rt;
    alpha_o = alpha;
    n_fr_o = ncls[1:0];
    n_ai_o = ncls[3:2];
    n_hai_o = ncls[5:4];
    changed_o = rc != ref_rc || rt != ref_rt || alpha != ref_alpha;
  end

endmodule

`default_nettype wire
