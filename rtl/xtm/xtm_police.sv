// SPDX-License-Identifier: Apache-2.0
//
// xtm_police: the ingress policers (docs/spec.md 4.7, check p of 4.4). 8 lazy byte buckets
// per ingress port, policer k = in_port * 8 + j, chosen by the port's P_POL_MAP for the
// arrival's traffic class. Everything that scales with ports or policers is in RAM:
//
//   map   P_POL_MAP per port (NumPorts x 32): read in stage 1 by the arrival and the CSR
//         path, written by the CSR path in stage 1; a row-valid vector in flops stands for
//         the reset value 0 (the PORT window is not refused during initialisation, so a
//         sweep would race the writes)
//   cfg   {POL_BURST 24, POL_RATE 24} per policer: read in stage 2 by the arrival and the
//         CSR path, written in stage 2 (CSR write, or the initialisation sweep)
//   state {u 64, tok 40} per policer: read in stage 2 by the arrival, in stage 3 by a
//         POL_TOKENS read; written by the commit (stage 4) and the sweep (stage-2 time)
//   cnt   {PASS_PKTS, DROP_BYTES, DROP_PKTS} per policer, 64 bits each, with a row-valid
//         vector (CTRL.CLR_CNT in one cycle, spec 15.6): read in stage 3, written at the
//         commit
//
// Stage 3 evaluates tokens(t) = min(B, tok + (t - u) * R) (B if t - u >= 2^40 and R > 0)
// of the row read in stage 2, which holds the commits up to t-3. The commit of t-2 (written
// while the row was read) is forwarded from the last-commit register (u = t-2), the commit
// of t-1 (in the commit stage while t is in stage 3) as min(B, tok' + R): the policer's only
// loop, one addition and a clamp (spec 4.7, 15.4). The product e * R is never in the
// commit stage: the commit compares the registered tokens(t) with len * 65536 only.
// Counters forward the last commit's increment (not its row) for the same policer.

`default_nettype none

module xtm_police #(
  parameter int unsigned NumPorts = 8,
  // derived, do not override
  parameter int unsigned NumPols  = 8 * NumPorts,
  parameter int unsigned KW       = $clog2(NumPols),
  parameter int unsigned PortW    = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  parameter int unsigned InitCycles = 8 * NumPorts
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]     t4_i,          // logical cycle of the commit stage
  input  wire logic            cls1_i,        // stage 1: a classified arrival
  input  wire logic [5:0]      in_port1_i,
  input  wire logic [2:0]      tc1_i,
  input  wire logic [5:0]      in_port2_i,
  input  wire logic [13:0]     len4_i,        // commit stage: its length
  output logic                 pol4_o,        // the arrival of the commit stage is policed
  output logic                 drop4_o,       // ... and found non-conforming (POLICE)
  input  wire logic            clr4_i,        // CTRL.CLR_CNT (commit stage)
  input  xtm_pkg::csr_op_t     op1_i,
  input  xtm_pkg::csr_op_t     op2_i,
  input  xtm_pkg::csr_op_t     op3_i,
  input  xtm_pkg::csr_op_t     op4_i,
  output logic [31:0]          rd2_o,         // P_POL_MAP
  output logic [31:0]          rd3_o,         // POL_RATE, POL_BURST
  output logic [31:0]          rd4_o,         // POL_TOKENS
  output logic [63:0]          cnt4_o         // POL_DROP_PKTS, POL_DROP_BYTES, POL_PASS_PKTS
);

  if (NumPols < 2) begin : g_bad_pols
    $fatal(1, "xtm_police: at least 2 policers");
  end

  // the state-changing decisions of this block are made in these comb signals; the
  // always_ff at the end only registers them
  logic [63:0] t2, t3;
  assign t2 = t4_i + 64'd2;
  assign t3 = t4_i + 64'd1;
  logic sweep;
  assign sweep = t2 < 64'(InitCycles);

  // ------------------------------------------------------------------ stage 1: P_POL_MAP
  logic [NumPorts-1:0] mval_q, mval_d;
  logic mv2_q, mv2_d, mb2_q, mb2_d;
  logic [2:0] tc2_q;
  logic cls2_q;
  logic m_we, m_b_re;
  logic [31:0] map_a, map_b;
  // the CSR decodes of this block are formed only with an access (one test per cycle)
  always_comb begin : c_map_op
    m_we = 1'b0;
    m_b_re = 1'b0;
    if (op1_i.valid) begin
      m_we = op1_i.wr && op1_i.id == xtm_reg_pkg::XtmRegPPolMap;
      m_b_re = op1_i.rd && op1_i.id == xtm_reg_pkg::XtmRegPPolMap;
    end
  end

  xtm_ram_2r1w #(
    .Width(32),
    .Depth(NumPorts),
    .AllowRdWrSame(1'b1),   // read-first: the write of t is seen from t+1 (10.2)
    .CheckUnwritten(1'b0)   // a row never written is not valid: its value is not used
  ) u_map (
    .clk_i,
    .rst_ni,
    .we_i     (m_we),
    .waddr_i  (PortW'(op1_i.port)),
    .wdata_i  (op1_i.wdata),
    .wmask_i  ({32{1'b1}}),
    .a_re_i   (cls1_i),
    .a_raddr_i(PortW'(in_port1_i)),
    .a_rdata_o(map_a),
    .b_re_i   (m_b_re),
    .b_raddr_i(PortW'(op1_i.port)),
    .b_rdata_o(map_b)
  );

  always_comb begin : c_map
    mval_d = mval_q;
    if (m_we) begin
      mval_d[PortW'(op1_i.port)] = 1'b1;
    end
    mv2_d = mval_q[PortW'(in_port1_i)];
    mb2_d = mval_q[PortW'(op1_i.port)];
  end

  // ------------------------------------------------------------------ stage 2: the policer
  logic [31:0] pmap;
  logic pol2;
  logic [KW-1:0] k2;
  always_comb begin : c_sel
    pmap = mv2_q ? map_a : '0;
    pol2 = cls2_q && pmap[4*tc2_q+3];
    k2 = KW'({in_port2_i, pmap[4*tc2_q+:3]});
  end
  always_comb begin : c_rd2
    rd2_o = '0;
    if (op2_i.rd) begin
      if (op2_i.id == xtm_reg_pkg::XtmRegPPolMap && mb2_q) rd2_o = map_b;
    end
  end

  // configuration: {burst 24, rate 24}
  logic c_we, c_b_re;
  logic [KW-1:0] c_waddr;
  logic [47:0] c_wdata, c_wmask, cfg_a, cfg_b;
  always_comb begin : c_cfg_wr
    c_we = sweep;
    c_b_re = 1'b0;
    if (op2_i.valid) begin
      c_we = sweep || (op2_i.wr && (op2_i.id == xtm_reg_pkg::XtmRegPolRate ||
                                    op2_i.id == xtm_reg_pkg::XtmRegPolBurst));
      c_b_re = op2_i.rd && (op2_i.id == xtm_reg_pkg::XtmRegPolRate ||
                            op2_i.id == xtm_reg_pkg::XtmRegPolBurst);
    end
    c_waddr = '0;
    c_wdata = '0;
    c_wmask = '0;
    if (c_we) begin  // (the write's address, data and mask only for a write)
      c_waddr = sweep ? KW'(t2) : KW'(op2_i.pg);
      c_wdata = sweep ? {xtm_reg_pkg::XTM_POL_BURST_RESVAL[23:0],
                         xtm_reg_pkg::XTM_POL_RATE_RESVAL[23:0]} :
                        {op2_i.wdata[23:0], op2_i.wdata[23:0]};  // sweep: reset values
      c_wmask = sweep ? '1 : (op2_i.id == xtm_reg_pkg::XtmRegPolBurst) ? {24'hFFFFFF, 24'h0} :
                                                                        {24'h0, 24'hFFFFFF};
    end
  end
  xtm_ram_2r1w #(
    .Width(48),
    .Depth(NumPols),
    .AllowRdWrSame(1'b1)    // read-first: S(t) (10.2)
  ) u_cfg (
    .clk_i,
    .rst_ni,
    .we_i     (c_we),
    .waddr_i  (c_waddr),
    .wdata_i  (c_wdata),
    .wmask_i  (c_wmask),
    .a_re_i   (pol2),
    .a_raddr_i(k2),
    .a_rdata_o(cfg_a),
    .b_re_i   (c_b_re),
    .b_raddr_i(KW'(op2_i.pg)),
    .b_rdata_o(cfg_b)
  );
  always_comb begin : c_rd3
    rd3_o = '0;
    if (op3_i.rd) begin
      if (op3_i.id == xtm_reg_pkg::XtmRegPolRate) rd3_o = {8'd0, cfg_b[23:0]};
      if (op3_i.id == xtm_reg_pkg::XtmRegPolBurst) rd3_o = {8'd0, cfg_b[47:24]};
    end
  end

  // state: {u 64, tok 40}
  logic s_we, s_b_re;
  logic [KW-1:0] s_waddr;
  logic [103:0] s_wdata, s_wmask, st_a, st_b;
  logic v4_q, v1_q, drop1_q;
  logic [KW-1:0] k4_q, k1_q;
  logic [39:0] tok4_q, tok1_q, tok_new;
  logic [13:0] len1_q;
  always_comb begin : c_st_wr
    s_we = sweep || v4_q;
    s_waddr = sweep ? KW'(t2) : k4_q;
    s_wdata = '0;
    if (v4_q && !sweep) begin  // (the row only for a commit)
      s_wdata = {t4_i, tok_new};
    end
    s_wmask = '1;  // both fields, conforming or not (u = t, spec 4.7)
  end
  xtm_ram_2r1w #(
    .Width(104),
    .Depth(NumPols),
    .AllowRdWrSame(1'b1)    // the commits of t-2 and t-1 are forwarded
  ) u_state (
    .clk_i,
    .rst_ni,
    .we_i     (s_we),
    .waddr_i  (s_waddr),
    .wdata_i  (s_wdata),
    .wmask_i  (s_wmask),
    .a_re_i   (pol2),
    .a_raddr_i(k2),
    .a_rdata_o(st_a),
    .b_re_i   (s_b_re),
    .b_raddr_i(KW'(op3_i.pg)),
    .b_rdata_o(st_b)
  );

  // ------------------------------------------------------------------ stage 3: tokens(t)
  logic v3_q;
  logic [KW-1:0] k3_q;
  logic [39:0] tok4_d, burst3;
  logic [23:0] rate3;
  always_comb begin : c_tokens
    logic [63:0] u, e;
    logic [39:0] tok;
    logic [64:0] sum;
    logic [40:0] sum1;
    rate3 = cfg_a[23:0];
    burst3 = {cfg_a[47:24], 16'h0};
    u = '0;
    tok = '0;
    e = '0;
    sum = '0;
    sum1 = '0;
    tok4_d = tok4_q;  // (no product in a cycle without a policed arrival in stage 3)
    if (v3_q) begin
      // the row as of t-1: the commit of t-2 (written while the row was read) forwarded
      u = st_a[103:40];
      tok = st_a[39:0];
      if (v1_q && k1_q == k3_q) begin
        u = t3 - 64'd2;
        tok = tok1_q;
      end
      e = t3 - u;
      sum = 65'(tok) + 65'(e[39:0]) * 65'(rate3);
      if (e[63:40] != '0 && rate3 != '0) begin
        tok4_d = burst3;  // the refill exceeds any burst
      end else begin
        tok4_d = (sum > 65'(burst3)) ? burst3 : sum[39:0];
      end
      // the commit of t-1, in the commit stage now: min(B, tok' + R)
      sum1 = 41'(tok_new) + 41'(rate3);
      if (v4_q && k4_q == k3_q) begin
        tok4_d = (sum1 > 41'(burst3)) ? burst3 : sum1[39:0];
      end
    end
  end

  // ------------------------------------------------------------------ stage 4: commit
  logic [29:0] need;
  logic conform;
  always_comb begin : c_commit
    need = {len4_i, 16'h0};
    conform = {10'd0, tok4_q} >= 50'(need);
    tok_new = conform ? tok4_q - 40'(need) : tok4_q;
  end
  assign pol4_o = v4_q;
  assign drop4_o = v4_q && !conform;

  // POL_TOKENS of S(t): the row read in stage 3 has the commits up to t-2; t-1 forwarded
  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      if (op4_i.id == xtm_reg_pkg::XtmRegPolTokens) begin
        rd4_o = {8'd0, (v1_q && k1_q == KW'(op4_i.pg)) ? tok1_q[39:16] : st_b[39:16]};
      end
    end
  end

  // ------------------------------------------------------------------ counters
  // row: 0 DROP_PKTS 1 DROP_BYTES 2 PASS_PKTS. A row read in stage 3 holds the commits up
  // to t-2; the commit of t-1 to the same row adds its increment (inc1); a row not valid
  // when read is 0, and a row not valid now (a clear since) reads 0.
  logic [NumPols-1:0] cval_q /* verilator public_flat_rd */, cval_d;
  logic cva4_q, cva4_d, cvb4_q, cvb4_d, n_b_re;
  logic [191:0] cnt_a, cnt_b, cnt_new, inc1;
  always_comb begin : c_b_re3  // the stage-3 CSR reads of the state and counter rows
    s_b_re = 1'b0;
    n_b_re = 1'b0;
    if (op3_i.rd) begin
      s_b_re = op3_i.id == xtm_reg_pkg::XtmRegPolTokens;
      n_b_re = op3_i.id == xtm_reg_pkg::XtmRegPolDropPkts ||
               op3_i.id == xtm_reg_pkg::XtmRegPolDropBytes ||
               op3_i.id == xtm_reg_pkg::XtmRegPolPassPkts;
    end
  end
  xtm_ram_2r1w #(
    .Width(192),
    .Depth(NumPols),
    .AllowRdWrSame(1'b1),   // the last commit's increment is forwarded
    .CheckUnwritten(1'b0)   // a row never written is not valid
  ) u_cnt (
    .clk_i,
    .rst_ni,
    .we_i     (v4_q),
    .waddr_i  (k4_q),
    .wdata_i  (cnt_new),
    .wmask_i  ({192{1'b1}}),
    .a_re_i   (v3_q),
    .a_raddr_i(k3_q),
    .a_rdata_o(cnt_a),
    .b_re_i   (n_b_re),
    .b_raddr_i(KW'(op3_i.pg)),
    .b_rdata_o(cnt_b)
  );

  // the counter row of policer k in the commit stage (S(t)), from a stage-3 read
  function automatic logic [191:0] row_now(input logic [191:0] rd, input logic rd_valid,
                                           input logic valid_now, input logic same1,
                                           input logic [191:0] inc);
    logic [191:0] r;
    r = rd_valid ? rd : '0;
    if (same1) begin
      r = {r[191:128] + inc[191:128], r[127:64] + inc[127:64], r[63:0] + inc[63:0]};
    end
    row_now = valid_now ? r : '0;
  endfunction

  logic [1:0] ck;
  logic [191:0] crow, csr_row;
  always_comb begin : c_cnt
    inc1 = '0;  // (the last commit's increment only where a row of its policer is formed)
    if (v1_q) begin
      inc1 = drop1_q ? {64'd0, 64'(len1_q), 64'd1} : {64'd1, 64'd0, 64'd0};
    end
    crow = '0;  // (the row-wide adds only in a cycle that writes the row)
    cnt_new = '0;
    if (v4_q) begin
      crow = row_now(cnt_a, cva4_q, cval_q[k4_q], v1_q && k1_q == k4_q, inc1);
      cnt_new = conform ? {crow[191:128] + 64'd1, crow[127:0]} :
                          {crow[191:128], crow[127:64] + 64'(len4_i), crow[63:0] + 64'd1};
    end
    cval_d = cval_q;
    if (v4_q) begin
      cval_d[k4_q] = 1'b1;
    end
    if (clr4_i) begin
      cval_d = '0;
    end
    cva4_d = cval_q[k3_q];
    cvb4_d = cval_q[KW'(op3_i.pg)];
    ck = 2'd0;
    csr_row = '0;
    cnt4_o = '0;
    if (op4_i.rd) begin  // (the decode only for a read)
      if (op4_i.id == xtm_reg_pkg::XtmRegPolDropBytes) ck = 2'd1;
      if (op4_i.id == xtm_reg_pkg::XtmRegPolPassPkts) ck = 2'd2;
      if (op4_i.id == xtm_reg_pkg::XtmRegPolDropPkts ||
          op4_i.id == xtm_reg_pkg::XtmRegPolDropBytes ||
          op4_i.id == xtm_reg_pkg::XtmRegPolPassPkts) begin
        csr_row = row_now(cnt_b, cvb4_q, cval_q[KW'(op4_i.pg)],
                          v1_q && k1_q == KW'(op4_i.pg), inc1);
        cnt4_o = csr_row[64*ck+:64];
      end
    end
  end

  // ------------------------------------------------------------------ registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs
    if (!rst_ni) begin
      mval_q <= '0;
      mv2_q <= 1'b0;
      mb2_q <= 1'b0;
      tc2_q <= '0;
      cls2_q <= 1'b0;
      v3_q <= 1'b0;
      k3_q <= '0;
      v4_q <= 1'b0;
      k4_q <= '0;
      tok4_q <= '0;
      v1_q <= 1'b0;
      k1_q <= '0;
      tok1_q <= '0;
      drop1_q <= 1'b0;
      len1_q <= '0;
      cval_q <= '0;
      cva4_q <= 1'b0;
      cvb4_q <= 1'b0;
    end else begin
      mval_q <= mval_d;
      mv2_q <= mv2_d;
      mb2_q <= mb2_d;
      tc2_q <= tc1_i;
      cls2_q <= cls1_i;  // stage 2: the same arrival
      v3_q <= pol2;
      k3_q <= k2;
      v4_q <= v3_q;
      k4_q <= k3_q;
      tok4_q <= tok4_d;
      v1_q <= v4_q;
      k1_q <= k4_q;
      tok1_q <= tok_new;
      drop1_q <= !conform;
      len1_q <= len4_i;
      cval_q <= cval_d;
      cva4_q <= cva4_d;
      cvb4_q <= cvb4_d;
    end
  end

  logic unused;
  assign unused = ^{st_b[103:40], st_b[15:0], in_port1_i};

endmodule
