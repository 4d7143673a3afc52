// SPDX-License-Identifier: Apache-2.0
//
// xtm_deq: the dequeue pipeline behind the scheduler (docs/spec.md 6.3, 9.4, 15.4). For the
// packet removed in logical cycle t (commit stage, physical t+4):
//   D1 (t+5)  the payload and the VOQ's configuration arrive from RAM; the flush output;
//             the sojourn and the latency mark; the head-marking profile enters its
//             evaluator with the occupancy of S(t) (including the packet);
//   D2 (t+6)  profile stage B;
//   D3 (t+7)  = the commit stage of logical t+3: the head LFSR draws (before a seed write
//             of that cycle), the marks are decided and counted, and the egress record is
//             written into the slot reserved at the selection.
// A CTRL.CLR_CNT in cycles t .. t+3 cancels the count of the packet's mark (its count bit
// travels with it); the draw and the record are unaffected (spec 6.3).

`default_nettype none

module xtm_deq #(
  parameter int unsigned FifoDepth = 8,
  // derived, do not override
  parameter int unsigned SlotW = (FifoDepth > 1) ? $clog2(FifoDepth) : 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  // the removal of the commit stage (logical t)
  input  wire logic              rm_i,
  input  wire logic              flush_i,
  input  wire logic [8:0]        voq_i,
  input  wire logic [5:0]        port_i,
  input  wire logic [13:0]       len_i,
  input  wire logic              hbm_i,
  input  wire logic [8:0]        pg_i,
  input  wire logic [27:0]       occ_i,
  input  wire logic [SlotW-1:0]  slot_i,
  input  wire logic [63:0]       t4_i,
  input  wire logic              clr4_i,        // CTRL.CLR_CNT of the commit stage
  // D1: payload and configuration (read in the commit stage)
  input  wire logic [31:0]       pkt_id_i,
  input  wire logic [31:0]       enq_cycle_i,
  input  wire logic [5:0]        dscp_i,
  input  wire logic [1:0]        ecn_i,
  input  wire logic              tmark_i,
  input  wire logic [15:0]       cfg_i,
  input  wire logic [27:0]       limit_i,
  input  wire logic [31:0]       lat_i,
  output logic [2:0]             prof_idx_o,    // to the dequeue copy of the profiles
  input  wire logic              prof_interp_i,
  input  wire logic [3:0]        prof_npoints_i,
  input  wire logic [135:0]      prof_fill_i,
  input  wire logic [135:0]      prof_prob_i,
  // D1: the flush output
  output logic                   flush_valid_o,
  output logic [31:0]            flush_pkt_id_o,
  output logic [8:0]             flush_voq_o,
  // D3: the record and the marks
  output logic                   rec_we_o,
  output logic [5:0]             rec_port_o,
  output logic [SlotW-1:0]       rec_slot_o,
  output logic [xtm_pkg::DEQ_REC_W-1:0] rec_o,
  output logic                   mark_rd_o,     // D2: a marking decision follows (counter read)
  output logic [8:0]             mark_rd_voq_o,
  output logic                   mark_o,        // a marking decision to count
  output logic [8:0]             mark_voq_o,
  output logic                   mark_head_o,
  output logic                   mark_lat_o,
  // the head LFSR's registers (commit stage)
  input  xtm_pkg::csr_op_t       op4_i,
  output logic [31:0]            rd4_o
);

  // ------------------------------------------------------------------ D1
  logic d1_q, d1_flush_q, d1_hbm_q;
  logic [8:0] d1_voq_q, d1_pg_q;
  logic [5:0] d1_port_q;
  logic [13:0] d1_len_q;
  logic [27:0] d1_occ_q;
  logic [SlotW-1:0] d1_slot_q;
  logic [31:0] d1_t_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_d1
    if (!rst_ni) begin
      d1_q <= 1'b0;
      d1_flush_q <= 1'b0;
      d1_hbm_q <= 1'b0;
      d1_voq_q <= '0;
      d1_pg_q <= '0;
      d1_port_q <= '0;
      d1_len_q <= '0;
      d1_occ_q <= '0;
      d1_slot_q <= '0;
      d1_t_q <= '0;
    end else begin
      d1_q <= rm_i;
      d1_flush_q <= flush_i;
      if (rm_i) begin  // the packet's fields travel only with a removal (used under d1_q)
        d1_hbm_q <= hbm_i;
        d1_voq_q <= voq_i;
        d1_pg_q <= pg_i;
        d1_port_q <= port_i;
        d1_len_q <= len_i;
        d1_occ_q <= occ_i;
        d1_slot_q <= slot_i;
        d1_t_q <= t4_i[31:0];
      end
    end
  end

  xtm_reg_pkg::q_cfg_t cfg;
  assign cfg = {16'd0, cfg_i};
  logic sched1, ect, head_eval, lat_mark;
  logic [31:0] sojourn;
  xtm_pkg::deq_rec_t rec1;
  always_comb begin : c_d1
    sched1 = d1_q && !d1_flush_q;
    ect = 1'b0;
    sojourn = '0;
    head_eval = 1'b0;
    lat_mark = 1'b0;
    rec1 = '0;
    if (sched1) begin  // (a scheduled packet's marks and record; every use is under sched1)
      ect = ecn_i == 2'b01 || ecn_i == 2'b10;
      sojourn = d1_t_q - enq_cycle_i;
      head_eval = cfg.ecn_en && ect && cfg.mark_point == xtm_reg_pkg::XTM_Q_CFG_MARK_POINT_HEAD;
      lat_mark = cfg.ecn_en && ect &&
                 cfg.mark_point == xtm_reg_pkg::XTM_Q_CFG_MARK_POINT_LATENCY && sojourn > lat_i;
      rec1.pkt_id = pkt_id_i;
      rec1.voq = d1_voq_q;
      rec1.in_port = d1_pg_q[8:3];
      rec1.len = d1_len_q;
      rec1.dscp = dscp_i;
      rec1.ecn = ecn_i;
      rec1.marked = tmark_i;
      rec1.hbm = d1_hbm_q;
      rec1.sojourn = sojourn;
    end
  end
  assign prof_idx_o = cfg.profile;
  assign flush_valid_o = d1_q && d1_flush_q;
  assign flush_pkt_id_o = flush_valid_o ? pkt_id_i : '0;
  assign flush_voq_o = flush_valid_o ? d1_voq_q : '0;

  logic [xtm_pkg::PROF_B_W-1:0] prof3;
  xtm_prof_eval u_eval (
    .clk_i,
    .rst_ni,
    .valid_i  (head_eval),
    .interp_i (prof_interp_i),
    .npoints_i(prof_npoints_i),
    .fill_i   (prof_fill_i),
    .prob_i   (prof_prob_i),
    .occ_i    (d1_occ_q),
    .limit_i  (limit_i),
    .prof_o   (prof3)
  );

  // ------------------------------------------------------------------ D2, D3
  localparam int unsigned RW = xtm_pkg::DEQ_REC_W;
  logic d2_q, d3_q, h2_q, h3_q, l2_q, l3_q, c1_q, c2_q, c3_q;
  logic [RW-1:0] r2_q, r3_q;
  logic [5:0] p2_q, p3_q;
  logic [SlotW-1:0] s2_q, s3_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_d23
    if (!rst_ni) begin
      d2_q <= 1'b0;
      d3_q <= 1'b0;
      c1_q <= 1'b0;
      c2_q <= 1'b0;
      c3_q <= 1'b0;
      h2_q <= 1'b0;
      h3_q <= 1'b0;
      l2_q <= 1'b0;
      l3_q <= 1'b0;
      r2_q <= '0;
      r3_q <= '0;
      p2_q <= '0;
      p3_q <= '0;
      s2_q <= '0;
      s3_q <= '0;
    end else begin
      c1_q <= rm_i && !flush_i && !clr4_i;
      c2_q <= c1_q && !clr4_i;
      c3_q <= c2_q && !clr4_i;
      d2_q <= sched1;
      h2_q <= head_eval;
      l2_q <= lat_mark;
      d3_q <= d2_q;
      h3_q <= h2_q;
      l3_q <= l2_q;
      // the record, its port and slot move only with a scheduled packet (every use of
      // them is under d2_q / d3_q or a bit implied by them)
      if (sched1) begin
        r2_q <= rec1;
        p2_q <= d1_port_q;
        s2_q <= d1_slot_q;
      end
      if (d2_q) begin
        r3_q <= r2_q;
        p3_q <= p2_q;
        s3_q <= s2_q;
      end
    end
  end

  logic [15:0] r;
  logic [31:0] lfsr_state;
  logic draw, mh;
  assign draw = h3_q && prof3[xtm_pkg::PROF_B_W-1-:2] == xtm_pkg::ProfDraw;
  always_comb begin : c_mh  // (the hit test only for a head evaluation)
    mh = 1'b0;
    if (h3_q) begin
      mh = xtm_pkg::prof_hit(prof3, r);
    end
  end

  xtm_lfsr #(
    .Seed(xtm_reg_pkg::XTM_LFSR_HEAD_SEED_RESVAL)
  ) u_lfsr (
    .clk_i,
    .rst_ni,
    .draw_i   (draw),
    .r_o      (r),
    .seed_we_i(op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegLfsrHeadSeed),
    .seed_i   (op4_i.wdata),
    .state_o  (lfsr_state)
  );

  xtm_pkg::deq_rec_t rec3;
  always_comb begin : c_d3
    rec3 = '0;
    if (d3_q) begin  // (the record is written, and its fields used, only with d3_q)
      rec3 = r3_q;
    end
    if (mh || l3_q) begin
      rec3.ecn = 2'b11;
      rec3.marked = 1'b1;
    end
  end
  assign mark_rd_o = c2_q && (h2_q || l2_q);
  assign mark_rd_voq_o = r2_q[RW-33-:9];
  assign rec_we_o = d3_q;
  assign rec_port_o = p3_q;
  assign rec_slot_o = s3_q;
  assign rec_o = rec3;
  assign mark_o = c3_q && (mh || l3_q);
  assign mark_voq_o = rec3.voq;
  assign mark_head_o = mh;
  assign mark_lat_o = l3_q;

  logic [31:0] seed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_seed
    if (!rst_ni) begin
      seed_q <= xtm_reg_pkg::XTM_LFSR_HEAD_SEED_RESVAL;
    end else if (op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegLfsrHeadSeed) begin
      seed_q <= op4_i.wdata;
    end
  end
  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegLfsrHeadSeed) begin
      rd4_o = seed_q;
    end
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegLfsrHeadState) begin
      rd4_o = lfsr_state;
    end
  end

  logic unused;
  assign unused = ^{d1_pg_q[2:0], cfg.rsvd31, cfg.enable, cfg.strict, cfg.no_loss, cfg.nonect_tail_only,
                    cfg.pfc_rx_en, cfg.pfc_prio, cfg.wd_en, cfg.shaper_en};

endmodule
