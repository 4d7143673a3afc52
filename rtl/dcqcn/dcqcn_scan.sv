// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_scan: the timer scan of docs/spec-dcqcn.md D5 over U banks of reaction-point RAM
// (D15). Bank b holds QPs q = row * U + b; every cycle row g(t) = t mod S of every bank is
// read at stage 1, visited (dcqcn_visit) and written back at stage 2 (the execute stage),
// and the rate-update stream of D7 (dcqcn_rate) is driven at stage 3. Owns the RAMs `rp`
// (context, with Q_CUTS and Q_INC above it; their row-valid bits in flops) and `prate` (Rc
// for the pacer), and the logical time of the execute stage. C twin: visit() and the eager
// scan of full_cycle() in cmodel/dcqcn/dcqcn.c.

`default_nettype none

module dcqcn_scan #(
  parameter int unsigned NumQps    = 64,
  parameter int unsigned ScanWidth = 4,
  // derived, do not override
  localparam int unsigned ScanPeriod = (NumQps + ScanWidth - 1) / ScanWidth,
  localparam int unsigned RowW = (ScanPeriod > 1) ? $clog2(ScanPeriod) : 1,
  localparam int unsigned BankW = (ScanWidth > 1) ? $clog2(ScanWidth) : 1,
  localparam int unsigned UShift = $clog2(ScanWidth),
  localparam int unsigned U = ScanWidth
) (
  input  wire logic                        clk_i,
  input  wire logic                        rst_ni,
  input  wire dcqcn_pkg::cfg_t             cfg_i,         // parameters of the execute stage
  input  wire logic                        clr_i,         // CTRL.CLR_CNT, end of stage 2
  // this cycle's inputs at stage 2 (valid only for a QP < N)
  input  wire logic                        cnp_v_i,
  input  wire logic [15:0]                 cnp_qp_i,
  input  wire logic                        tx_v_i,
  input  wire logic [15:0]                 tx_qp_i,
  input  wire logic [15:0]                 tx_bytes_i,
  // pending records of row g(t) (dcqcn_pend), stage 2
  input  wire logic [U-1:0]                pend_init_i,
  input  wire logic [U-1:0]                pend_cnp_i,
  input  wire logic [U-1:0]                pend_more_i,
  // byte sums (dcqcn_tx): read of row g at stage 1, data and the last write at stage 2
  output logic                             txb_re_o,
  output logic [RowW-1:0]                  txb_row_o,
  input  wire logic [U*32-1:0]             txb_sum_i,
  input  wire logic                        txb_wr_v_i,    // the tx of the previous cycle
  input  wire logic [15:0]                 txb_wr_qp_i,
  input  wire logic [31:0]                 txb_wr_sum_i,
  // time
  output logic [63:0]                      t2_o,          // logical cycle of stage 2
  output logic [RowW-1:0]                  g2_o,          // its scan row
  output logic                             run2_o,        // stage 2 holds a cycle >= 0
  output logic                             swept_o,       // first scan period over
  // visit results of stage 2
  output logic [U-1:0]                     slot_v_o,      // slot b visits an existing QP
  output logic [U*20-1:0]                  rc_pace_o,     // per bank (dcqcn_pacer)
  output logic [dcqcn_pkg::NUM_GCNT*dcqcn_pkg::GINC_W-1:0] ginc_o,  // CNP_FIRST, CUTS, INC_*
  // prate read port (dcqcn_pacer), stage 2 -> 3
  input  wire logic                        prate_re_i,
  input  wire logic [BankW-1:0]            prate_bank_i,
  input  wire logic [RowW-1:0]             prate_row_i,
  output dcqcn_pkg::rate_t                 prate_o,
  // CSR reads at stage 2, data at stage 3
  input  wire logic                        csr_re_i,
  input  wire logic [15:0]                 csr_qp_i,
  output logic [U*dcqcn_pkg::RP_W-1:0]     csr_rp_o,        // every bank's port B (the CSR
  output logic                             csr_rp_reset_o,  // selects); row not yet visited
  output logic [U*128-1:0]                 csr_rpc_o,       // {Q_CUTS, Q_INC} per bank
  output logic                             csr_rpc_v_o,     // the counter row is valid
  // rate-update stream (D7), stage 3
  output logic [4:0]                       n_rate_o,
  output logic [U*16-1:0]                  rate_qp_o,
  output logic [U*20-1:0]                  rate_rc_o,
  output logic [U*20-1:0]                  rate_rt_o,
  output logic [U*10-1:0]                  rate_alpha_o
);

  if (ScanWidth != 1 && ScanWidth != 2 && ScanWidth != 4 && ScanWidth != 8 &&
      ScanWidth != 16) begin : g_bad_u
    $fatal(1, "dcqcn_scan: ScanWidth must be 1, 2, 4, 8 or 16 (docs/spec-dcqcn.md D1)");
  end

  // ---------------------------------------------------------------- time and rows
  logic run1_q, run2_q, swept_q;
  logic [RowW-1:0] g1_q, g2_q;
  logic [63:0] t2_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_time
    if (!rst_ni) begin
      run1_q <= 1'b0;
      run2_q <= 1'b0;
      swept_q <= 1'b0;
      g1_q <= '0;
      g2_q <= '0;
      t2_q <= '0;
    end else begin
      run1_q <= 1'b1;
      run2_q <= run1_q;
      if (run1_q) begin
        g1_q <= (32'(g1_q) == ScanPeriod - 1) ? '0 : g1_q + 1'b1;
      end
      g2_q <= g1_q;
      if (run2_q) begin
        t2_q <= t2_q + 64'd1;
        if (32'(g2_q) == ScanPeriod - 1) begin
          swept_q <= 1'b1;
        end
      end
    end
  end
  assign t2_o = t2_q;
  assign g2_o = g2_q;
  assign run2_o = run2_q;
  assign swept_o = swept_q;
  assign txb_re_o = run1_q;
  assign txb_row_o = g1_q;

  // periods and limits of this cycle (D3, D6.1)
  dcqcn_pkg::per_t p_alpha, p_dec, p_inc;
  dcqcn_pkg::rate_t cap, lo;
  assign p_alpha = dcqcn_pkg::period(cfg_i.rtt_us, cfg_i.cycles_per_us, ScanPeriod);
  assign p_dec = dcqcn_pkg::period(cfg_i.rrmp_us, cfg_i.cycles_per_us, ScanPeriod);
  assign p_inc = dcqcn_pkg::period(cfg_i.time_reset_us, cfg_i.cycles_per_us, ScanPeriod);
  assign cap = dcqcn_pkg::rate_cap(cfg_i.max_rate, cfg_i.line_rate);
  assign lo = (cfg_i.min_rate < cap) ? cfg_i.min_rate : cap;

  // the reset word of D6.1 (reset value of the cap), used for rows not yet visited
  localparam dcqcn_pkg::rate_t RST_CAP = dcqcn_pkg::rate_cap(
      dcqcn_pkg::RATE_W'(dcqcn_reg_pkg::DCQCN_RPG_MAX_RATE_RESVAL),
      dcqcn_pkg::RATE_W'(dcqcn_reg_pkg::DCQCN_LINE_RATE_RESVAL));
  dcqcn_pkg::rp_word_t rst_word;
  always_comb begin
    rst_word = '0;
    rst_word.rc = RST_CAP;
    rst_word.rt = RST_CAP;
    rst_word.alpha = '1;
  end

  // CSR read: bank and row of the selected QP
  logic [BankW-1:0] csr_bank;
  logic [RowW-1:0] csr_row;
  assign csr_bank = BankW'(csr_qp_i & 16'(U - 1));
  assign csr_row = RowW'(csr_qp_i >> UShift);
  logic [U-1:0] csr_rpc_v;
  logic [U*dcqcn_pkg::RP_W-1:0] csr_rp_all;
  logic [U*128-1:0] csr_rpc_all;
  logic csr_rpc_v_q, csr_reset_q;
  logic [U-1:0] prate_v_q, prate_v_d;
  logic [U*20-1:0] prate_all;

  // ---------------------------------------------------------------- banks
  logic [U-1:0] changed;
  logic [U*16-1:0] slot_qp;
  logic [U*20-1:0] slot_rc, slot_rt;  // flat: no packed arrays of package types (Yosys)
  logic [U*10-1:0] slot_alpha;
  logic [U-1:0] s_first, s_cut, s_timer;
  logic [U*2-1:0] s_fr, s_ai, s_hai, s_bytes;

  for (genvar b = 0; b < U; b++) begin : g_bank
    logic [15:0] q2;
    logic exists1, exists2;
    assign q2 = 16'((32'(g2_q) << UShift) + b);
    assign exists1 = (32'(g1_q) << UShift) + b < NumQps;
    assign exists2 = 32'(q2) < NumQps;
    assign slot_qp[b*16 +: 16] = q2;

    // one RAM word per QP: {Q_CUTS, Q_INC, context}; the counters have a row-valid bit
    localparam int unsigned W = dcqcn_pkg::RP_W + 128;
    logic [W-1:0] rdata, b_rdata, wdata, fwd_q;
    logic we, fwd_v_q;
    // plain vectors: Yosys 0.23 mis-reads member selects of a struct declared in a generate
    // block (it takes g_bank[b] for an undeclared signal); dcqcn_visit unpacks the fields
    logic [dcqcn_pkg::RP_W-1:0] w_in, w_out;
    dcqcn_pkg::rate_t v_rc, v_rt;
    dcqcn_pkg::alpha_t v_alpha;
    logic [127:0] c_in;
    // written back when the visit changes it (and in the first period: the reset word)
    logic busy;
    assign we = run2_q && exists2 && (busy || !swept_q);
    assign wdata = {c_in[127:64] + 64'(s_cut[b]),
                    c_in[63:0] + 64'(s_bytes[b*2 +: 2]) + 64'(s_timer[b]), w_out};

    xtm_ram_2r1w #(
      .Width        (W),
      .Depth        (ScanPeriod),
      .AllowRdWrSame(1'b1)  // the CSR reads S(t) while row g(t) is written; S = 1 forwards
    ) u_rp (
      .clk_i,
      .rst_ni,
      .we_i     (we),
      .waddr_i  (g2_q),
      .wdata_i  (wdata),
      .wmask_i  ({W{1'b1}}),
      .a_re_i   (run1_q && exists1 && (swept_q || (run2_q && 32'(g2_q) == ScanPeriod - 1))),
      .a_raddr_i(g1_q),
      .a_rdata_o(rdata),
      .b_re_i   (csr_re_i && csr_bank == BankW'(b) && (swept_q || csr_row < g2_q)),
      .b_raddr_i(csr_row),
      .b_rdata_o(b_rdata)
    );

    xtm_ram_1r1w #(
      .Width(20),
      .Depth(ScanPeriod)
    ) u_prate (
      .clk_i,
      .rst_ni,
      .we_i   (we),
      .waddr_i(g2_q),
      .wdata_i(v_rc),
      .wmask_i({20{1'b1}}),
      .re_i   (prate_re_i && prate_bank_i == BankW'(b)),
      .raddr_i(prate_row_i),
      .rdata_o(prate_all[b*20 +: 20])
    );

    // row-valid bits of the counters (D15): CLR_CNT clears them, a visit's write sets its row
    logic cv_q [ScanPeriod];
    always_ff @(posedge clk_i or negedge rst_ni) begin : s_cv
      if (!rst_ni) begin
        for (int unsigned r = 0; r < ScanPeriod; r++) begin
          cv_q[r] <= 1'b0;
        end
      end else if (clr_i) begin
        for (int unsigned r = 0; r < ScanPeriod; r++) begin
          cv_q[r] <= 1'b0;
        end
      end else if (we) begin
        cv_q[g2_q] <= 1'b1;
      end
    end
    assign csr_rpc_v[b] = cv_q[csr_row];

    // The word of this visit: the reset word in the first period; with S = 1 the word written
    // in the previous cycle (the read of this cycle's row missed it); else the RAM.
    if (ScanPeriod == 1) begin : g_fwd
      always_ff @(posedge clk_i or negedge rst_ni) begin : s_fwd
        if (!rst_ni) begin
          fwd_v_q <= 1'b0;
          fwd_q <= '0;
        end else begin
          fwd_v_q <= we;
          if (we) begin
            fwd_q <= wdata;
          end
        end
      end
    end else begin : g_nofwd
      assign fwd_v_q = 1'b0;
      assign fwd_q = '0;
    end
    logic [W-1:0] word;
    assign word = fwd_v_q ? fwd_q : rdata;
    assign w_in = !swept_q ? rst_word : word[dcqcn_pkg::RP_W-1:0];
    assign c_in = !cv_q[g2_q] ? '0 : word[W-1:dcqcn_pkg::RP_W];

    // byte sum after the previous cycle: the RAM read, or the write it missed (D15)
    logic [31:0] sum;
    assign sum = (txb_wr_v_i && txb_wr_qp_i == q2) ? txb_wr_sum_i : txb_sum_i[b*32 +: 32];

    logic cnp_now, tx_now;
    assign cnp_now = cnp_v_i && cnp_qp_i == q2;
    assign tx_now = tx_v_i && tx_qp_i == q2;
    dcqcn_pkg::rate_t rc_pace;

    dcqcn_visit u_visit (
      .clk_i,
      .rst_ni,
      .v_i         (we),
      .w_i         (w_in),
      .init_i      (pend_init_i[b]),
      .pend_cnp_i  (pend_cnp_i[b]),
      .pend_more_i (pend_more_i[b]),
      .sum_i       (sum),
      .cnp_now_i   (cnp_now),
      .tx_now_i    (tx_now),
      .tx_bytes_i,
      .cfg_i,
      .t_i         (t2_q[dcqcn_pkg::DUE_W-1:0]),
      .cap_i       (cap),
      .lo_i        (lo),
      .p_alpha_i   (p_alpha),
      .p_dec_i     (p_dec),
      .p_inc_i     (p_inc),
      .w_o         (w_out),
      .rc_o        (v_rc),
      .rt_o        (v_rt),
      .alpha_o     (v_alpha),
      .rc_pace_o   (rc_pace),
      .changed_o   (changed[b]),
      .first_o     (s_first[b]),
      .cut_o       (s_cut[b]),
      .n_fr_o      (s_fr[b*2 +: 2]),
      .n_ai_o      (s_ai[b*2 +: 2]),
      .n_hai_o     (s_hai[b*2 +: 2]),
      .by_timer_o  (s_timer[b]),
      .n_by_bytes_o(s_bytes[b*2 +: 2]),
      .busy_o      (busy)
    );
    assign slot_v_o[b] = we;
    assign rc_pace_o[b*20 +: 20] = rc_pace;
    assign slot_rc[b*20 +: 20] = v_rc;
    assign slot_rt[b*20 +: 20] = v_rt;
    assign slot_alpha[b*10 +: 10] = v_alpha;
    assign csr_rp_all[b*dcqcn_pkg::RP_W +: dcqcn_pkg::RP_W] = b_rdata[dcqcn_pkg::RP_W-1:0];
    assign csr_rpc_all[b*128 +: 128] = b_rdata[W-1:dcqcn_pkg::RP_W];
  end

  // ---------------------------------------------------------------- counters of the visits
  localparam int unsigned GW = dcqcn_pkg::GINC_W;
  logic [GW-1:0] n_first, n_cut, n_fr, n_ai, n_hai, n_timer, n_bytes;
  always_comb begin : c_ginc
    n_first = '0;
    n_cut = '0;
    n_fr = '0;
    n_ai = '0;
    n_hai = '0;
    n_timer = '0;
    n_bytes = '0;
    for (int unsigned b = 0; b < U; b++) begin
      if (slot_v_o[b]) begin
        n_first = n_first + GW'(s_first[b]);
        n_cut = n_cut + GW'(s_cut[b]);
        n_fr = n_fr + GW'(s_fr[b*2 +: 2]);
        n_ai = n_ai + GW'(s_ai[b*2 +: 2]);
        n_hai = n_hai + GW'(s_hai[b*2 +: 2]);
        n_timer = n_timer + GW'(s_timer[b]);
        n_bytes = n_bytes + GW'(s_bytes[b*2 +: 2]);
      end
    end
    ginc_o = '0;
    ginc_o[dcqcn_pkg::GcCnpFirst*GW +: GW] = n_first;
    ginc_o[dcqcn_pkg::GcCuts*GW +: GW] = n_cut;
    ginc_o[dcqcn_pkg::GcIncFr*GW +: GW] = n_fr;
    ginc_o[(dcqcn_pkg::GcIncFr+1)*GW +: GW] = n_ai;
    ginc_o[(dcqcn_pkg::GcIncFr+2)*GW +: GW] = n_hai;
    ginc_o[dcqcn_pkg::GcIncByTimer*GW +: GW] = n_timer;
    ginc_o[dcqcn_pkg::GcIncByBytes*GW +: GW] = n_bytes;
  end

  // ---------------------------------------------------------------- rate stream (D7)
  dcqcn_rate #(
    .ScanWidth(ScanWidth)
  ) u_rate (
    .clk_i,
    .rst_ni,
    .slot_v_i    (slot_v_o),
    .changed_i   (changed),
    .slot_qp_i   (slot_qp),
    .slot_rc_i   (slot_rc),
    .slot_rt_i   (slot_rt),
    .slot_alpha_i(slot_alpha),
    .n_rate_o,
    .rate_qp_o,
    .rate_rc_o,
    .rate_rt_o,
    .rate_alpha_o
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_out
    if (!rst_ni) begin
      csr_rpc_v_q <= 1'b0;
      csr_reset_q <= 1'b0;
      prate_v_q <= '0;
    end else begin
      if (csr_re_i) begin
        csr_rpc_v_q <= csr_rpc_v[csr_bank];
        csr_reset_q <= !swept_q && csr_row >= g2_q;
      end
      prate_v_q <= prate_v_d;
    end
  end
  assign csr_rp_o = csr_rp_all;
  assign csr_rp_reset_o = csr_reset_q;
  assign csr_rpc_o = csr_rpc_all;
  assign csr_rpc_v_o = csr_rpc_v_q;
  always_comb begin : c_prate
    for (int unsigned b = 0; b < U; b++) begin
      prate_v_d[b] = prate_re_i && prate_bank_i == BankW'(b);
    end
    prate_o = '0;
    for (int unsigned b = 0; b < U; b++) begin
      if (prate_v_q[b]) begin
        prate_o = prate_all[b*20 +: 20];
      end
    end
  end

endmodule

`default_nettype wire
