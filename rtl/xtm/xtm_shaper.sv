// SPDX-License-Identifier: Apache-2.0
//
// xtm_shaper: the shapers (docs/spec.md 5.4, 9.5).
//
// Port shapers: one eager token bucket per port (the arithmetic of xtm_tbucket, the buckets
// in one array), charged len + OVH_BYTES by a selection from the port; P_SHAPER_* registers
// (commit stage).
//
// Queue shapers: lazily evaluated buckets, state (tokens, cycle of the last charge) in an
// xtm_ram_2r1w, the scheduler reads one conformance bit per VOQ. A charge in cycle t reads
// the bucket in the commit stage, evaluates tokens(t) = min(B, tok + (t - u) * R) in the
// next stage and writes it back; the VOQ is not eligible in t+1 and from t+2 conforms iff
// tok' + 2R >= 0. A scan visits VOQ (t mod NumVoqs) from cycle INIT_CYCLES on and sets its
// bit from t+2 to tokens(t+2) >= 0; a charge in t or t+1 wins over the visit.

`default_nettype none

module xtm_shaper #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumTcs   = 8,
  // derived, do not override
  parameter int unsigned NumVoqs  = NumPorts * NumTcs,
  parameter int unsigned VoqW     = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned InitCycles = 8 * NumPorts
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0] t4_i,
  // the selection of this cycle (commit stage)
  input  wire logic            sel_i,        // scheduled (not a flush)
  input  wire logic [8:0]      sel_voq_i,
  input  wire logic [5:0]      sel_port_i,
  input  wire logic [13:0]     sel_len_i,
  input  wire logic [NumVoqs-1:0] shen_i,
  output logic [NumPorts-1:0]  port_ok_o,    // port shaper conforms (or disabled)
  output logic [NumVoqs-1:0]   conform_o,    // queue shaper conformance bits
  // queue shaper configuration of the charged and the scanned VOQ (stage 5, xtm_voqcfg)
  output logic                 scan_rd_o,
  output logic [8:0]           scan_voq_o,
  input  wire logic [23:0]     chg_rate_i,
  input  wire logic [19:0]     chg_burst_i,
  input  wire logic [23:0]     scan_rate_i,
  input  wire logic [19:0]     scan_burst_i,
  input  xtm_pkg::csr_op_t     op4_i,
  output logic [31:0]          rd4_o
);

  // ------------------------------------------------------------------ port shapers
  // P_SHAPER_* registers: the fields only (CFG.OVH_BYTES 13:8 and CFG.EN as a vector over the
  // ports, RATE 23:0, BURST 19:0). OVH_BYTES zero-based: Yosys 0.23 reads a part-select of
  // an array element declared [13:8] as out of bounds (undef bits).
  logic [5:0] pcfg_q [NumPorts];
  logic [NumPorts-1:0] pen_q;
  logic [23:0] prate_q [NumPorts];
  logic [19:0] pburst_q [NumPorts];
  logic [PortW-1:0] ps;
  assign ps = PortW'(op4_i.port);

  // one selection and at most one register write per cycle: the charged port's amount, the
  // written port's clamp burst and the two one-hot vectors are formed once, not per port
  logic [PortW-1:0] sp;
  logic [NumPorts-1:0] charge, clamp;
  logic [23:0] amount;
  logic [19:0] cburst;
  assign sp = PortW'(sel_port_i);
  always_comb begin : c_port
    charge = '0;
    amount = '0;
    if (sel_i && 32'(sel_port_i) < NumPorts) begin
      charge[sp] = pen_q[sp];
      amount = 24'(sel_len_i) + 24'(pcfg_q[sp]);
    end
    clamp = '0;
    cburst = '0;
    if (op4_i.wr && 32'(op4_i.port) < NumPorts &&
        (op4_i.id == xtm_reg_pkg::XtmRegPShaperRate ||
         op4_i.id == xtm_reg_pkg::XtmRegPShaperBurst)) begin
      clamp[ps] = 1'b1;
      cburst = op4_i.id == xtm_reg_pkg::XtmRegPShaperBurst ? op4_i.wdata[19:0] : pburst_q[ps];
    end
  end

  // The buckets, one per port: the eager token bucket of spec 5.4 (the arithmetic of
  // xtm_tbucket: refill up to the burst at the start of the cycle, conforming when the
  // refilled tokens are >= 0, a charge subtracts, a rate or burst write clamps to the new
  // burst at the end of the cycle). A bucket at its burst (pfull_q, a flag beside the
  // tokens) refills to itself and conforms; neither charged nor clamped it keeps its value.
  // So the refill is formed only for the buckets below their burst and the update only for
  // the active ones (below the burst, charged or clamped: pact), not for every port every
  // cycle. (The refill and the update are two blocks: the conformance feeds the selection
  // that decides the charge.)
  localparam logic [47:0] PTokRst = {12'd0, xtm_reg_pkg::XTM_P_SHAPER_BURST_RESVAL[19:0], 16'h0};
  logic signed [47:0] ptok_q [NumPorts];
  logic signed [47:0] prefill [NumPorts];  // refilled tokens (of the buckets below the burst)
  logic signed [47:0] ptok_d [NumPorts];
  logic [NumPorts-1:0] pfull_q, pfull_d, pact, pconf;
  always_comb begin : c_prefill
    pconf = '1;  // (a bucket at its burst conforms)
    for (int p = 0; p < 32'(NumPorts); p++) begin
      prefill[p] = '0;
    end
    if (pfull_q != '1) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (!pfull_q[p]) begin
          prefill[p] = xtm_pkg::tb_refill(ptok_q[p], prate_q[p], pburst_q[p]);
          pconf[p] = !prefill[p][47];
        end
      end
    end
  end

  always_comb begin : c_pbucket
    logic signed [47:0] full, tok, cap;
    logic [19:0] nburst;
    full = '0;
    tok = '0;
    cap = '0;
    nburst = '0;
    pact = ~pfull_q | charge | clamp;
    pfull_d = '0;
    for (int p = 0; p < 32'(NumPorts); p++) begin
      ptok_d[p] = '0;
    end
    if (pact != '0) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        if (pact[p]) begin
          tok = pfull_q[p] ? ptok_q[p] : prefill[p];
          if (charge[p]) begin
            tok = tok - $signed({8'd0, amount, 16'h0});
          end
          nburst = pburst_q[p];
          if (clamp[p]) begin
            nburst = cburst;
            cap = $signed({12'd0, cburst, 16'h0});
            // signed tok > cap (cap >= 0): the sign bit and an unsigned compare
            if (!tok[47] && $unsigned(tok) > $unsigned(cap)) begin
              tok = cap;  // signed: a negative bucket stays negative
            end
          end
          ptok_d[p] = tok;
          full = $signed({12'd0, nburst, 16'h0});
          pfull_d[p] = tok == full;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pbucket
    if (!rst_ni) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin
        ptok_q[p] <= $signed(PTokRst);
      end
      pfull_q <= '1;
    end else if (pact != '0) begin
      for (int p = 0; p < 32'(NumPorts); p++) begin  // (loaded together, each holds if idle)
        ptok_q[p] <= pact[p] ? ptok_d[p] : ptok_q[p];
      end
      pfull_q <= (pfull_q & ~pact) | pfull_d;
    end
  end
  assign port_ok_o = pconf | ~pen_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pregs
    if (!rst_ni) begin
      pen_q <= {NumPorts{xtm_reg_pkg::XTM_P_SHAPER_CFG_RESVAL[0]}};
      for (int p = 0; p < 32'(NumPorts); p++) begin
        pcfg_q[p] <= xtm_reg_pkg::XTM_P_SHAPER_CFG_RESVAL[13:8];
        prate_q[p] <= xtm_reg_pkg::XTM_P_SHAPER_RATE_RESVAL[23:0];
        pburst_q[p] <= xtm_reg_pkg::XTM_P_SHAPER_BURST_RESVAL[19:0];
      end
    end else if (op4_i.wr) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegPShaperCfg: begin
          pcfg_q[ps] <= op4_i.wdata[13:8];
          pen_q[ps] <= op4_i.wdata[0];
        end
        xtm_reg_pkg::XtmRegPShaperRate: prate_q[ps] <= op4_i.wdata[23:0];
        xtm_reg_pkg::XtmRegPShaperBurst: pburst_q[ps] <= op4_i.wdata[19:0];
        default: ;
      endcase
    end
  end

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegPShaperCfg: rd4_o = {18'd0, pcfg_q[ps], 7'd0, pen_q[ps]};
        xtm_reg_pkg::XtmRegPShaperRate: rd4_o = 32'(prate_q[ps]);
        xtm_reg_pkg::XtmRegPShaperBurst: rd4_o = 32'(pburst_q[ps]);
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------ queue shapers
  // bucket row: {u 64, tok 48}
  localparam int unsigned SW = 112;
  logic sweep, chg4, scan4;
  logic [VoqW-1:0] scan_q;
  assign sweep = t4_i < 64'(NumVoqs);
  assign chg4 = sel_i && shen_i[VoqW'(sel_voq_i)];
  assign scan4 = t4_i >= 64'(InitCycles) && t4_i[63] == 1'b0;
  // the scan reads the bucket (and its rate) only of a bucket stored negative after this
  // cycle's write: a bucket whose stored tokens are not negative conforms at any later cycle
  // (tokens(c) >= tok >= 0: the refill adds a non-negative amount)
  logic [NumVoqs-1:0] neg_q, neg_d;  // the row's stored tokens are negative
  logic scan_neg4, scan5_neg_q;
  assign scan_neg4 = scan4 && neg_d[scan_q];
  assign scan_rd_o = scan_neg4;
  assign scan_voq_o = 9'(scan_q);

  logic [SW-1:0] chg_rdata, scan_rdata, wdata;
  logic we;
  logic [VoqW-1:0] waddr;

  // stage 5 registers: the charge and the scan of the previous cycle
  logic chg5_q, scan5_q;
  logic [VoqW-1:0] chg5_v_q, scan5_v_q;
  logic [13:0] chg5_len_q;
  logic [63:0] t5_q;
  // the write of the previous cycle, forwarded to stage 5 reads of the same row
  logic lw_q;
  logic [VoqW-1:0] lw_row_q;
  logic [SW-1:0] lw_data_q;

  xtm_ram_2r1w #(
    .Width(SW),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1)   // the row written back in stage 5 is forwarded (lw_*)
  ) u_buckets (
    .clk_i,
    .rst_ni,
    .we_i     (we),
    .waddr_i  (waddr),
    .wdata_i  (wdata),
    .wmask_i  ({SW{1'b1}}),
    .a_re_i   (chg4),
    .a_raddr_i(VoqW'(sel_voq_i)),
    .a_rdata_o(chg_rdata),
    .b_re_i   (scan_neg4),
    .b_raddr_i(scan_q),
    .b_rdata_o(scan_rdata)
  );

  // tokens at cycle c of a bucket {u, tok}: min(B, tok + sat(c - u) * R) (no cap for >= 0)
  function automatic logic signed [63:0] tokens_at(input logic [SW-1:0] row,
                                                   input logic [63:0] c,
                                                   input logic [23:0] rate);
    logic [63:0] dt;
    logic [36:0] dsat;
    dt = c - row[SW-1-:64];
    dsat = (dt >= 64'h20_0000_0000) ? 37'h10_0000_0000 : dt[36:0];
    tokens_at = $signed({{16{row[47]}}, row[47:0]}) + $signed({3'd0, dsat * 61'(rate)});
  endfunction

  logic [SW-1:0] chg_row, scan_row;
  logic signed [63:0] chg_tok, cap_chg, tok_after, scan_tok, chg_sum;
  logic chg_conf, scan_conf;
  always_comb begin : c_eval
    // the scan: tokens(t+2) only for a bucket stored negative (read in the cycle before);
    // one stored not negative conforms
    scan_row = '0;
    scan_tok = '0;
    scan_conf = 1'b1;
    if (scan5_neg_q) begin
      scan_row = (lw_q && lw_row_q == scan5_v_q) ? lw_data_q : scan_rdata;
      scan_tok = tokens_at(scan_row, t5_q + 64'd2, scan_rate_i);
      scan_conf = !scan_tok[63];  // >= 0
    end
    // the charge's evaluation only in a cycle with a charge (its results are used only then)
    chg_row = '0;
    cap_chg = '0;
    chg_tok = '0;
    tok_after = '0;
    chg_sum = '0;
    chg_conf = 1'b0;
    if (chg5_q) begin
      chg_row = (lw_q && lw_row_q == chg5_v_q) ? lw_data_q : chg_rdata;
      cap_chg = $signed({28'd0, chg_burst_i, 16'h0});
      chg_tok = tokens_at(chg_row, t5_q, chg_rate_i);
      // signed compares as sign bit + unsigned compare (cap_chg >= 0)
      if (!chg_tok[63] && chg_tok[62:0] > cap_chg[62:0]) begin
        chg_tok = cap_chg;
      end
      tok_after = chg_tok - $signed({34'd0, chg5_len_q, 16'h0});
      chg_sum = tok_after + $signed({39'd0, chg_rate_i, 1'b0});
      chg_conf = !chg_sum[63];  // >= 0
    end
    we = sweep || chg5_q;
    waddr = sweep ? VoqW'(t4_i) : chg5_v_q;
    wdata = sweep ? '0 : {t5_q, tok_after[47:0]};
    neg_d = neg_q;
    if (we) begin
      neg_d[waddr] = wdata[47];
    end
  end

  logic unused_q;
  assign unused_q = ^{scan_burst_i, tok_after[63:48], scan_tok[62:0], chg_sum[62:0]};

  logic [NumVoqs-1:0] conf_q /* verilator public_flat_rd */;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_queue
    if (!rst_ni) begin
      conf_q <= '1;
      scan_q <= '0;
      chg5_q <= 1'b0;
      scan5_q <= 1'b0;
      scan5_neg_q <= 1'b0;
      neg_q <= '0;
      chg5_v_q <= '0;
      scan5_v_q <= '0;
      chg5_len_q <= '0;
      t5_q <= '0;
      lw_q <= 1'b0;
      lw_row_q <= '0;
      lw_data_q <= '0;
    end else begin
      chg5_q <= chg4;
      scan5_q <= scan4;
      scan5_neg_q <= scan_neg4;
      if (we) begin
        neg_q <= neg_d;
      end
      chg5_v_q <= VoqW'(sel_voq_i);
      scan5_v_q <= scan_q;
      chg5_len_q <= sel_len_i;
      t5_q <= t4_i;
      lw_q <= we;
      if (we) begin  // the last write (used only with lw_q)
        lw_row_q <= waddr;
        lw_data_q <= wdata;
      end
      if (!t4_i[63]) begin  // scan_q = t mod NumVoqs from logical cycle 0 on
        scan_q <= (32'(scan_q) + 1 == NumVoqs) ? '0 : scan_q + 1'b1;
      end
      // conformance: the scan of t, then the charge of t, then the gap of t+1 (latest wins)
      if (scan5_q) begin
        conf_q[scan5_v_q] <= scan_conf;
      end
      if (chg5_q) begin
        conf_q[chg5_v_q] <= chg_conf;
      end
      if (chg4) begin
        conf_q[VoqW'(sel_voq_i)] <= 1'b0;
      end
    end
  end
  assign conform_o = conf_q;

endmodule
