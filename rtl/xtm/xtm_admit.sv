// SPDX-License-Identifier: Apache-2.0
//
// xtm_admit: the admission decision of the commit stage (docs/spec.md 4.4, 5.2 eviction,
// 5.3 placement) on S(t): checks p and a-g in order, first failing wins (check p, the
// ingress policer, is decided by xtm_police and arrives as pol_drop_i). The profile (check f)
// arrives evaluated by the stage-2/3 pipeline on the occupancy of S(t-2); the enqueue LFSR
// draws here whenever the configuration selects the profile and its code is "draw",
// whatever checks a-e decide (6.2), so the LFSR depends on nothing but that.

`default_nettype none

module xtm_admit #(
  parameter int unsigned OcbCells = 65536,
  parameter int unsigned HbmCells = 33554432
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  xtm_pkg::enq_req_t req_i,           // the descriptor of logical cycle t
  input  wire logic [15:0]  cfg_i,           // its VOQ's Q_CFG, Q_LIMIT_CELLS, OCB-only
  input  wire logic [27:0]  limit_i,
  input  wire logic         ocb_only_i,
  input  wire logic [xtm_pkg::PROF_B_W-1:0] prof_i,  // its evaluated profile
  // S(t) of its VOQ, PG and the buffer
  input  wire logic [27:0]  occ_i,
  input  wire logic         hbm_mode_i,
  input  wire logic         stalled_i,
  input  wire logic         wd_fwd_i,
  input  wire logic         pfc_en_i,
  input  wire logic         xoff_i,
  input  wire logic [27:0]  hdrm_used_i,
  input  wire logic [27:0]  hdrm_cells_i,
  input  wire logic [27:0]  pool_used_i,
  input  wire logic [27:0]  pool_cells_i,
  input  wire logic [27:0]  ocb_used_i,
  input  wire logic [27:0]  hbm_used_i,
  input  wire logic         desc_avail_i,    // desc_free > 0
  input  wire logic         hbm_wr_ok_i,     // HBM write bucket conforms (after refill)
  input  wire logic [27:0]  evict_cells_i,
  input  wire logic         pol_drop_i,      // check p: the ingress policer drops it (4.7)
  output xtm_pkg::admit_t   res_o,
  // the enqueue LFSR's registers
  input  xtm_pkg::csr_op_t  op4_i,
  output logic [31:0]       rd4_o
);

  xtm_reg_pkg::q_cfg_t cfg;
  assign cfg = {16'd0, cfg_i};

  logic ect, ce, eval, draw, hit, drop_elig;
  logic [15:0] r;
  logic [31:0] lfsr_state;
  logic [1:0] code;
  assign code = prof_i[xtm_pkg::PROF_B_W-1-:2];

  // (the draw and the hit only for a classified descriptor: eval is 0 otherwise)
  always_comb begin : c_draw
    ect = 1'b0;
    ce = 1'b0;
    drop_elig = 1'b0;
    eval = 1'b0;
    draw = 1'b0;
    if (req_i.cls) begin
      ect = req_i.ecn == 2'b01 || req_i.ecn == 2'b10;
      ce = req_i.ecn == 2'b11;
      drop_elig = !cfg.no_loss && !(cfg.ecn_en && cfg.nonect_tail_only);
      if (cfg.ecn_en && ect) begin
        eval = cfg.mark_point == xtm_reg_pkg::XTM_Q_CFG_MARK_POINT_TAIL;
      end else if (!(cfg.ecn_en && ce)) begin
        eval = drop_elig;
      end
      draw = eval && code == xtm_pkg::ProfDraw;
    end
  end
  // (apart from c_draw: the draw's result r follows draw)
  always_comb begin : c_hit
    hit = 1'b0;
    if (eval) begin
      hit = xtm_pkg::prof_hit(prof_i, r);
    end
  end

  xtm_lfsr #(
    .Seed(xtm_reg_pkg::XTM_LFSR_SEED_RESVAL)
  ) u_lfsr (
    .clk_i,
    .rst_ni,
    .draw_i   (draw),
    .r_o      (r),
    .seed_we_i(op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegLfsrSeed),
    .seed_i   (op4_i.wdata),
    .state_o  (lfsr_state)
  );

  logic [31:0] seed_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_seed
    if (!rst_ni) begin
      seed_q <= xtm_reg_pkg::XTM_LFSR_SEED_RESVAL;
    end else if (op4_i.wr && op4_i.id == xtm_reg_pkg::XtmRegLfsrSeed) begin
      seed_q <= op4_i.wdata;
    end
  end
  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegLfsrSeed) begin
      rd4_o = seed_q;
    end
    if (op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegLfsrState) begin
      rd4_o = lfsr_state;
    end
  end

  logic [28:0] cells;
  assign cells = 29'(req_i.cells);

  always_comb begin : c_admit
    res_o = '0;
    res_o.valid = req_i.valid;
    res_o.cls = req_i.cls;
    res_o.reason = req_i.cls ? xtm_pkg::RsnAccept : req_i.err;
    if (req_i.cls) begin
      if (pol_drop_i) begin
        res_o.reason = xtm_pkg::RsnPolice;
      end else if (!cfg.enable) begin
        res_o.reason = xtm_pkg::RsnQDisabled;
      end else if (stalled_i && !wd_fwd_i) begin
        res_o.reason = xtm_pkg::RsnWd;
      end else if (pfc_en_i && xoff_i) begin
        // lossless path: headroom only, checks d-f skipped
        if ({1'b0, hdrm_used_i} + cells > {1'b0, hdrm_cells_i}) begin
          res_o.reason = xtm_pkg::RsnHeadroom;
        end else begin
          res_o.hdrm = 1'b1;
        end
      end else if ({1'b0, occ_i} + cells > {1'b0, limit_i}) begin
        res_o.reason = xtm_pkg::RsnTail;
      end else if ({1'b0, pool_used_i} + cells > {1'b0, pool_cells_i}) begin
        res_o.reason = xtm_pkg::RsnPool;
      end else if (hit) begin
        if (cfg.ecn_en && ect) begin
          res_o.marked = 1'b1;
        end else begin
          res_o.reason = xtm_pkg::RsnProfile;
        end
      end
      if (res_o.reason == xtm_pkg::RsnAccept) begin
        // eviction (5.2) on S(t), then placement (5.3)
        res_o.evict = !hbm_mode_i && occ_i >= evict_cells_i && !ocb_only_i;
        if (!desc_avail_i) begin
          res_o.reason = xtm_pkg::RsnBufFull;
        end else if ((hbm_mode_i || res_o.evict) && hbm_wr_ok_i &&
                     32'(29'({1'b0, hbm_used_i} + cells)) <= HbmCells) begin
          res_o.hbm = 1'b1;
        end else if (32'(29'({1'b0, ocb_used_i} + cells)) > OcbCells) begin
          res_o.reason = xtm_pkg::RsnBufFull;
        end
      end
      res_o.acc = res_o.reason == xtm_pkg::RsnAccept;
      if (!res_o.acc) begin
        res_o.hdrm = 1'b0;
        res_o.hbm = 1'b0;
        res_o.marked = 1'b0;
      end
    end
  end

  logic unused_cfg;
  assign unused_cfg = ^{cfg.rsvd31, cfg.strict, cfg.profile, cfg.pfc_rx_en, cfg.pfc_prio,
                        cfg.wd_en, cfg.shaper_en};

endmodule
