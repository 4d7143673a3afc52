// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_visit: one scan slot's visit of one QP (docs/spec-dcqcn.md D5.1), combinational, in
// the execute stage of the scan (D15): a pending INIT, the pending bytes, a pending CNP, the
// due timers (alpha D6.3, decrease D6.4, increase D6.5), then the visit cycle's own CNP and
// transmission (pacer Rc sampled between them). C twin: visit(), cnp_rx(), tx_sent() and
// byte_counter() in cmodel/dcqcn/dcqcn.c.

`default_nettype none

module dcqcn_visit (
  input  wire dcqcn_pkg::rp_word_t      w_i,           // the stored word (or the reset word)
  input  wire logic                     init_i,        // INIT pending
  input  wire logic                     pend_cnp_i,    // CNP pending
  input  wire logic                     pend_more_i,   // a further CNP pending
  input  wire logic [31:0]              pend_bytes_i,  // bytes since the last visit
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
  output dcqcn_pkg::rate_t              rc_pace_o,     // Rc for this cycle's pacer (D4)
  output logic                          changed_o,     // (Rc, Rt, alpha) changed: D7 entry
  output logic                          first_o,       // CNP_FIRST
  output logic                          cut_o,         // CUTS, Q_CUTS
  output logic [1:0]                    n_fr_o,        // INC_FR, INC_AI, INC_HAI
  output logic [1:0]                    n_ai_o,
  output logic [1:0]                    n_hai_o,
  output logic                          by_timer_o,    // INC_BY_TIMER
  output logic [1:0]                    n_by_bytes_o   // INC_BY_BYTES (Q_INC: the sum)
);

  dcqcn_pkg::rp_word_t s;
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
  logic unused_cfg;
  assign unused_cfg = ^cfg_i;  // the visit uses the RP parameters only

  always_comb begin
    s = w_i;
    cls = dcqcn_pkg::IncFr;
    badd = '0;
    ncls = '0;
    first_o = 1'b0;
    cut_o = 1'b0;
    by_timer_o = 1'b0;
    n_by_bytes_o = '0;
    // 1. INIT (D6.1 word, rates = this cycle's cap); the D7 reference is the word after it
    if (init_i) begin
      s.active = 1'b0;
      s.cnp_alpha = 1'b0;
      s.cnp_dec = 1'b0;
      s.rc = cap_i;
      s.rt = cap_i;
      s.alpha = 10'd1023;
      s.stage_t = '0;
      s.stage_bc = '0;
      s.byte_count = '0;
    end
    ref_rc = s.rc;
    ref_rt = s.rt;
    ref_alpha = s.alpha;
    // 2. pending bytes, counted for an active QP (D6.5, at most one event)
    if (s.active && pend_bytes_i != '0) begin
      badd = dcqcn_pkg::bytes_add(s.byte_count, pend_bytes_i, cfg_i.byte_reset);
      s.byte_count = badd[dcqcn_pkg::BCNT_W-1:0];
      if (badd[dcqcn_pkg::BCNT_W]) begin
        cls = dcqcn_pkg::inc_class(cfg_i.threshold, s.stage_t, s.stage_bc);
        s.rt = dcqcn_pkg::inc_rt(s.rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
        s.rc = dcqcn_pkg::inc_rc(s.rc, s.rt, lo_i, cap_i);
        s.stage_bc = dcqcn_pkg::sat_stage(s.stage_bc);
        ncls = count_class(ncls, cls);
        n_by_bytes_o = n_by_bytes_o + 2'd1;
      end
    end
    // 3. pending CNP: the first (D6.2; a further one sets the flags) or the flags (D6.7)
    if (pend_cnp_i) begin
      if (!s.active) begin
        first_o = 1'b1;
        s.active = 1'b1;
        s.alpha = cfg_i.alpha_init;
        if (cfg_i.rate_first != '0) begin
          s.rc = cfg_i.rate_first;
          s.rt = cfg_i.rate_first;
        end
        s.rc = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, s.rc});
        s.rt = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, s.rt});
        s.cnp_alpha = pend_more_i;
        s.cnp_dec = pend_more_i;
        s.stage_t = '0;
        s.stage_bc = '0;
        s.byte_count = '0;
        s.due_alpha = t_i + dcqcn_pkg::DUE_W'(p_alpha_i);
        s.due_dec = t_i + dcqcn_pkg::DUE_W'(p_dec_i);
        s.due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);
      end else begin
        s.cnp_alpha = 1'b1;
        s.cnp_dec = 1'b1;
      end
    end
    // 4. due timers: alpha, decrease, increase (D5), each at most once
    if (s.active && dcqcn_pkg::due_le(s.due_alpha, t_i)) begin
      s.alpha = dcqcn_pkg::alpha_next(cfg_i.g, s.alpha, s.cnp_alpha);
      s.cnp_alpha = 1'b0;
      s.due_alpha = s.due_alpha + dcqcn_pkg::DUE_W'(p_alpha_i);
    end
    if (s.active && dcqcn_pkg::due_le(s.due_dec, t_i)) begin
      if (s.cnp_dec) begin
        if (cfg_i.clamp_tgt || s.stage_bc != '0 || (cfg_i.clamp_ati && s.stage_t != '0)) begin
          s.rt = s.rc;
        end
        s.rc = dcqcn_pkg::cut_rc(s.rc, s.alpha, cfg_i.gd, cfg_i.min_dec_fac, lo_i, cap_i);
        s.stage_t = '0;
        s.stage_bc = '0;
        s.byte_count = '0;
        s.cnp_dec = 1'b0;
        s.due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);
        cut_o = 1'b1;
      end
      s.due_dec = s.due_dec + dcqcn_pkg::DUE_W'(p_dec_i);
    end
    if (s.active && dcqcn_pkg::due_le(s.due_inc, t_i)) begin
      s.due_inc = s.due_inc + dcqcn_pkg::DUE_W'(p_inc_i);
      cls = dcqcn_pkg::inc_class(cfg_i.threshold, s.stage_t, s.stage_bc);
      s.rt = dcqcn_pkg::inc_rt(s.rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
      s.rc = dcqcn_pkg::inc_rc(s.rc, s.rt, lo_i, cap_i);
      s.stage_t = dcqcn_pkg::sat_stage(s.stage_t);
      ncls = count_class(ncls, cls);
      by_timer_o = 1'b1;
    end
    // 5. this cycle's CNP, then its transmission (D4 steps 3-4)
    if (cnp_now_i) begin
      if (!s.active) begin
        first_o = 1'b1;
        s.active = 1'b1;
        s.alpha = cfg_i.alpha_init;
        if (cfg_i.rate_first != '0) begin
          s.rc = cfg_i.rate_first;
          s.rt = cfg_i.rate_first;
        end
        s.rc = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, s.rc});
        s.rt = dcqcn_pkg::clamp_rate(lo_i, cap_i, {1'b0, s.rt});
        s.cnp_alpha = 1'b0;
        s.cnp_dec = 1'b0;
        s.stage_t = '0;
        s.stage_bc = '0;
        s.byte_count = '0;
        s.due_alpha = t_i + dcqcn_pkg::DUE_W'(p_alpha_i);
        s.due_dec = t_i + dcqcn_pkg::DUE_W'(p_dec_i);
        s.due_inc = t_i + dcqcn_pkg::DUE_W'(p_inc_i);
      end else begin
        s.cnp_alpha = 1'b1;
        s.cnp_dec = 1'b1;
      end
    end
    rc_pace_o = s.rc;
    if (tx_now_i && s.active) begin
      badd = dcqcn_pkg::bytes_add(s.byte_count, 32'(tx_bytes_i), cfg_i.byte_reset);
      s.byte_count = badd[dcqcn_pkg::BCNT_W-1:0];
      if (badd[dcqcn_pkg::BCNT_W]) begin
        cls = dcqcn_pkg::inc_class(cfg_i.threshold, s.stage_t, s.stage_bc);
        s.rt = dcqcn_pkg::inc_rt(s.rt, cls, cfg_i.ai_rate, cfg_i.hai_rate, cap_i);
        s.rc = dcqcn_pkg::inc_rc(s.rc, s.rt, lo_i, cap_i);
        s.stage_bc = dcqcn_pkg::sat_stage(s.stage_bc);
        ncls = count_class(ncls, cls);
        n_by_bytes_o = n_by_bytes_o + 2'd1;
      end
    end
    // every byte up to this cycle is now applied or dropped (D15: tx_seen)
    s.tx_seen = sum_i + (tx_now_i ? 32'(tx_bytes_i) : 32'd0);
    w_o = s;
    n_fr_o = ncls[1:0];
    n_ai_o = ncls[3:2];
    n_hai_o = ncls[5:4];
    changed_o = s.rc != ref_rc || s.rt != ref_rt || s.alpha != ref_alpha;
  end

endmodule

`default_nettype wire
