// SPDX-License-Identifier: Apache-2.0
//
// xtm_top: the traffic manager (docs/spec.md), a skewed pipeline (section 15): the inputs of
// logical cycle t are registered in physical cycle t, classified in t+1, meet their VOQ's
// configuration and profile in t+2 and t+3, and commit in t+4 (the "commit stage", where
// every loop of the design closes: scheduler, admission, PFC state, LFSRs, counters); the
// outputs of t leave registers in t+6. An APB access is the CSR access of the cycle its
// access phase begins; PREADY rises 6 cycles later.
//
// Blocks (rtl/xtm/README.md): xtm_csr (access pipeline, global registers), xtm_classify,
// xtm_voqcfg, xtm_proftab + xtm_prof_eval, xtm_admit, xtm_bufmgr, xtm_qmgr, xtm_sched,
// xtm_shaper, xtm_egress, xtm_deq, xtm_pfc_rx, xtm_pfc_tx, xtm_wd, xtm_stats.

`default_nettype none

module xtm_top #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned CellBytes = 256,
  parameter int unsigned OcbCells  = 65536,
  parameter int unsigned HbmCells  = 33554432,
  parameter int unsigned FifoDepth = 8,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic        enq_valid_i,
  input  wire logic [31:0] enq_pkt_id_i,
  input  wire logic [5:0]  enq_in_port_i,
  input  wire logic [5:0]  enq_eg_port_i,
  input  wire logic [5:0]  enq_dscp_i,
  input  wire logic [1:0]  enq_ecn_i,
  input  wire logic [13:0] enq_len_i,
  input  wire logic [NumPorts-1:0]     pfc_rx_valid_i,
  input  wire logic [NumPorts*8-1:0]   pfc_rx_vec_i,     // port p at [8p +: 8]
  input  wire logic [NumPorts*128-1:0] pfc_rx_quanta_i,  // port p prio i at [16(8p+i) +: 16]
  input  wire logic [NumPorts-1:0]     tx_ready_i,
  // APB completer
  input  wire logic        psel_i,
  input  wire logic        penable_i,
  input  wire logic        pwrite_i,
  input  wire logic [15:0] paddr_i,
  input  wire logic [31:0] pwdata_i,
  output logic             pready_o,
  output logic [31:0]      prdata_o,
  output logic             pslverr_o,
  // outputs of logical cycle t, in cycle t + 6
  output logic        enq_res_valid_o,
  output logic [31:0] enq_res_pkt_id_o,
  output logic [8:0]  enq_res_voq_o,
  output logic [3:0]  enq_res_reason_o,
  output logic        enq_res_marked_o,
  output logic        enq_res_hdrm_o,
  output logic        enq_res_hbm_o,
  output logic        flush_valid_o,
  output logic [31:0] flush_pkt_id_o,
  output logic [8:0]  flush_voq_o,
  output logic [NumPorts-1:0]    deq_valid_o,
  output logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] deq_o,  // deq_rec_t per port, port 0 lowest
  output logic [NumPorts-1:0]     pfc_tx_valid_o,
  output logic [NumPorts*8-1:0]   pfc_tx_vec_o,
  output logic [NumPorts*128-1:0] pfc_tx_quanta_o
);

  if (NumPorts < 1 || NumPorts > 64) begin : g_bad_ports
    $fatal(1, "xtm_top: NumPorts must be 1..64");
  end
  if (NumTcs < 1 || NumTcs > 8) begin : g_bad_tcs
    $fatal(1, "xtm_top: NumTcs must be 1..8");
  end
  // spec 5.1: every cell quantity counts resident cells, at most OcbCells + HbmCells
  if (64'(OcbCells) + 64'(HbmCells) > 64'h0FFF_FFFF) begin : g_bad_cells
    $fatal(1, "xtm_top: OcbCells + HbmCells must be at most 2^28-1");
  end

  // ------------------------------------------------------------------ time and inputs
  logic [63:0] t4_q;                    // logical cycle of the commit stage (-4 at reset)
  // APB: an access in flight until PREADY; the access phase of a transfer not in flight
  // starts one. (No combinational logic of the inputs: a Verilated cycle then has no input
  // region to evaluate, in either of its two evals.)
  logic busy_q;

  xtm_pkg::enq_req_t req2_q, req3_q, req4_q, req1;
  logic s1_csr_v_q, s1_csr_w_q, s1_enq_v_q;
  logic [15:0] s1_addr_q;
  logic [31:0] s1_wdata_q, s1_pkt_q;
  logic [5:0] s1_in_q, s1_eg_q, s1_dscp_q;
  logic [1:0] s1_ecn_q;
  logic [13:0] s1_len_q;
  // a PFC frame input: its valid bits every cycle, its vector and quanta (used only with a
  // valid bit, spec 8.2) loaded only in a cycle with a frame (a per-stage enable)
  localparam int unsigned PfcW = NumPorts * (8 + 128);
  logic [NumPorts-1:0] pfv1_q, pfv2_q, pfv3_q, pfv4_q;
  logic [PfcW-1:0] pfc1_q, pfc2_q, pfc3_q, pfc4_q;
  logic [NumPorts-1:0] txr1_q, txr2_q, txr3_q, txr4_q;
  logic [15:0] cfg3_q, cfg4_q;
  logic [27:0] lim3_q, lim4_q;
  logic ocb3_q, ocb4_q;

  // ------------------------------------------------------------------ CSR
  xtm_pkg::csr_op_t op1, op2, op3, op4, op5;
  xtm_pkg::glob_cfg_t glob;
  logic [255:0] dscp_map;
  logic [31:0] tcq_map, tcpg_map;
  logic [13:0] max_frame;
  logic [23:0] ocb_only_cycles;
  logic clr4, clr5, rsp_v;
  logic [31:0] rd2_cfg, rd2_prof, rd2_pol, rd3_pol, rd4_core, rd4_pol;
  logic [63:0] cnt4_core, cnt5_core, cnt4_pol;

  xtm_csr #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .NumDesc  (NumDesc),
    .CellBytes(CellBytes),
    .OcbCells (OcbCells),
    .HbmCells (HbmCells),
    .FifoDepth(FifoDepth)
  ) u_csr (
    .clk_i,
    .rst_ni,
    .s1_valid_i       (s1_csr_v_q),
    .s1_write_i       (s1_csr_w_q),
    .s1_addr_i        (s1_addr_q),
    .s1_wdata_i       (s1_wdata_q),
    .t1_i             (t4_q + 64'd3),
    .op1_o            (op1),
    .op2_o            (op2),
    .op3_o            (op3),
    .op4_o            (op4),
    .op5_o            (op5),
    .rd2_i            (rd2_cfg | rd2_prof | rd2_pol),
    .rd3_i            (rd3_pol),
    .rd4_i            (rd4_core | rd4_pol),
    .rd5_i            ('0),
    .cnt4_i           (cnt4_core | cnt4_pol),
    .cnt5_i           (cnt5_core),
    .dscp_map_o       (dscp_map),
    .tc_queue_map_o   (tcq_map),
    .tc_pg_map_o      (tcpg_map),
    .max_frame_o      (max_frame),
    .ocb_only_cycles_o(ocb_only_cycles),
    .glob_o           (glob),
    .clr4_o           (clr4),
    .clr5_o           (clr5),
    .rsp_valid_o      (rsp_v),
    .rsp_err_o        (pslverr_o),
    .rsp_rdata_o      (prdata_o)
  );
  assign pready_o = rsp_v;

  // ------------------------------------------------------------------ stages 1-3: enqueue
  logic [2:0] tc1;
  xtm_classify #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .CellBytes(CellBytes)
  ) u_classify (
    .valid_i       (s1_enq_v_q),
    .pkt_id_i      (s1_pkt_q),
    .in_port_i     (s1_in_q),
    .eg_port_i     (s1_eg_q),
    .dscp_i        (s1_dscp_q),
    .ecn_i         (s1_ecn_q),
    .len_i         (s1_len_q),
    .t1_i          (t4_q + 64'd3),
    .dscp_map_i    (dscp_map),
    .tc_queue_map_i(tcq_map),
    .tc_pg_map_i   (tcpg_map),
    .max_frame_i   (max_frame),
    .req_o         (req1),
    .tc_o          (tc1)
  );

  logic [15:0] cfg2, deq_cfg;
  logic [27:0] lim2, deq_lim;
  logic ocb2;
  logic [31:0] deq_lat;
  logic [23:0] deq_srate, scan_srate;
  logic [19:0] deq_sburst, scan_sburst;
  logic [NumVoqs-1:0] en_v, strict_v, rxen_v, wden_v, shen_v;
  logic [3*NumVoqs-1:0] prio_v;
  logic [16*NumVoqs-1:0] quantum_v;
  logic scan_rd;
  logic [8:0] scan_voq;

  // the removal of the commit stage (its VOQ's configuration is read for the dequeue side)
  logic rm;
  logic [8:0] rm_voq;

  xtm_voqcfg #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .CellBytes(CellBytes)
  ) u_voqcfg (
    .clk_i,
    .rst_ni,
    .t1_i             (t4_q + 64'd3),
    .t4_i             (t4_q),
    .enq_rd_i         (req1.cls),
    .enq_voq_i        (req1.voq),
    .enq_cfg_o        (cfg2),
    .enq_limit_o      (lim2),
    .enq_ocb_only_o   (ocb2),
    .ocb_only_cycles_i(ocb_only_cycles),
    .deq_rd_i         (rm),
    .deq_voq_i        (rm_voq),
    .deq_cfg_o        (deq_cfg),
    .deq_limit_o      (deq_lim),
    .deq_lat_o        (deq_lat),
    .deq_srate_o      (deq_srate),
    .deq_sburst_o     (deq_sburst),
    .scan_rd_i        (scan_rd),
    .scan_voq_i       (scan_voq),
    .scan_srate_o     (scan_srate),
    .scan_sburst_o    (scan_sburst),
    .en_o             (en_v),
    .strict_o         (strict_v),
    .rxen_o           (rxen_v),
    .prio_o           (prio_v),
    .wden_o           (wden_v),
    .shen_o           (shen_v),
    .quantum_o        (quantum_v),
    .op1_i            (op1),
    .op2_i            (op2),
    .op4_i            (op4),
    .rd2_o            (rd2_cfg)
  );

  // the enqueue profile: stage 2 (occupancy of S(t-2)) and stage 3, result in the commit stage
  logic e_interp, d_interp;
  logic [3:0] e_np, d_np;
  logic [135:0] e_fill, e_prob, d_fill, d_prob;
  logic [2:0] d_pidx;
  logic [27:0] prof_occ;
  logic [xtm_pkg::PROF_B_W-1:0] prof4;
  xtm_reg_pkg::q_cfg_t cfg2_t;
  assign cfg2_t = {16'd0, cfg2};
  logic unused_cfg2;
  assign unused_cfg2 = ^{cfg2_t.rsvd31, cfg2_t.pfc_rx_en, cfg2_t.pfc_prio, cfg2_t.wd_en,
                         cfg2_t.shaper_en, cfg2_t.mark_point, cfg2_t.nonect_tail_only,
                         cfg2_t.ecn_en, cfg2_t.no_loss, cfg2_t.strict, cfg2_t.enable};

  xtm_proftab u_proftab (
    .clk_i,
    .rst_ni,
    .enq_idx_i    (cfg2_t.profile),
    .enq_interp_o (e_interp),
    .enq_npoints_o(e_np),
    .enq_fill_o   (e_fill),
    .enq_prob_o   (e_prob),
    .deq_idx_i    (d_pidx),
    .deq_interp_o (d_interp),
    .deq_npoints_o(d_np),
    .deq_fill_o   (d_fill),
    .deq_prob_o   (d_prob),
    .op2_i        (op2),
    .op5_i        (op5),
    .rd2_o        (rd2_prof)
  );
  xtm_prof_eval u_enq_prof (
    .clk_i,
    .rst_ni,
    .valid_i  (req2_q.cls),
    .interp_i (e_interp),
    .npoints_i(e_np),
    .fill_i   (e_fill),
    .prob_i   (e_prob),
    .occ_i    (prof_occ),
    .limit_i  (lim2),
    .prof_o   (prof4)
  );

  // ------------------------------------------------------------------ commit stage
  logic [8:0] s5_voq;
  logic [3:0] s5_reason;
  logic s5_valid, s5_marked, s5_hdrm, s5_hbm, f5_valid;
  logic [31:0] s5_pkt, f5_pkt;
  logic [8:0] f5_voq;
  logic [NumPorts-1:0] d5_valid, p5_valid;
  logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] d5_rec;
  logic [NumPorts*8-1:0] p5_vec;
  logic [NumPorts*128-1:0] p5_quanta;

  // check p (spec 4.7): the ingress policers, stage 1 (P_POL_MAP) to the commit stage
  logic pol4, pol_drop4, unused_pol;
  assign unused_pol = pol4;  // (the block says whether the arrival was policed: SVA, waves)
  xtm_police #(.NumPorts(NumPorts)) u_police (
    .clk_i,
    .rst_ni,
    .t4_i      (t4_q),
    .cls1_i    (req1.cls),
    .in_port1_i(req1.in_port),
    .tc1_i     (tc1),
    .in_port2_i(req2_q.in_port),
    .len4_i    (req4_q.len),
    .pol4_o    (pol4),
    .drop4_o   (pol_drop4),
    .clr4_i    (clr4),
    .op1_i     (op1),
    .op2_i     (op2),
    .op3_i     (op3),
    .op4_i     (op4),
    .rd2_o     (rd2_pol),
    .rd3_o     (rd3_pol),
    .rd4_o     (rd4_pol),
    .cnt4_o    (cnt4_pol)
  );

  xtm_core #(
    .NumPorts (NumPorts),
    .NumTcs   (NumTcs),
    .NumDesc  (NumDesc),
    .CellBytes(CellBytes),
    .OcbCells (OcbCells),
    .HbmCells (HbmCells),
    .FifoDepth(FifoDepth)
  ) u_core (
    .clk_i,
    .rst_ni,
    .t4_i        (t4_q),
    .pol_drop4_i (pol_drop4),
    .req3_i      (req3_q),
    .req4_i      (req4_q),
    .cfg4_i      (cfg4_q),
    .lim4_i      (lim4_q),
    .ocb4_i      (ocb4_q),
    .prof4_i     (prof4),
    .pfv4_i      (pfv4_q),
    .pfc4_i      (pfc4_q),
    .txr4_i      (txr4_q),
    .prof_voq_i  (req2_q.voq),
    .prof_occ_o  (prof_occ),
    .glob_i      (glob),
    .clr4_i      (clr4),
    .clr5_i      (clr5),
    .en_i        (en_v),
    .strict_i    (strict_v),
    .rxen_i      (rxen_v),
    .prio_i      (prio_v),
    .wden_i      (wden_v),
    .shen_i      (shen_v),
    .quantum_i   (quantum_v),
    .rm_o        (rm),
    .rm_voq_o    (rm_voq),
    .deq_cfg_i   (deq_cfg),
    .deq_limit_i (deq_lim),
    .deq_lat_i   (deq_lat),
    .deq_srate_i (deq_srate),
    .deq_sburst_i(deq_sburst),
    .scan_rd_o   (scan_rd),
    .scan_voq_o  (scan_voq),
    .scan_srate_i(scan_srate),
    .scan_sburst_i(scan_sburst),
    .prof_idx_o  (d_pidx),
    .prof_interp_i(d_interp),
    .prof_npoints_i(d_np),
    .prof_fill_i (d_fill),
    .prof_prob_i (d_prob),
    .op3_i       (op3),
    .op4_i       (op4),
    .op5_i       (op5),
    .rd4_o       (rd4_core),
    .cnt4_o      (cnt4_core),
    .cnt5_o      (cnt5_core),
    .res_valid_o (s5_valid),
    .res_pkt_id_o(s5_pkt),
    .res_voq_o   (s5_voq),
    .res_reason_o(s5_reason),
    .res_marked_o(s5_marked),
    .res_hdrm_o  (s5_hdrm),
    .res_hbm_o   (s5_hbm),
    .flush_valid_o(f5_valid),
    .flush_pkt_id_o(f5_pkt),
    .flush_voq_o (f5_voq),
    .deq_valid_o (d5_valid),
    .deq_o       (d5_rec),
    .pfc_valid_o (p5_valid),
    .pfc_vec_o   (p5_vec),
    .pfc_quanta_o(p5_quanta)
  );

  // ------------------------------------------------------------------ output registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_out
    if (!rst_ni) begin
      enq_res_valid_o <= 1'b0;
      enq_res_pkt_id_o <= '0;
      enq_res_voq_o <= '0;
      enq_res_reason_o <= '0;
      enq_res_marked_o <= 1'b0;
      enq_res_hdrm_o <= 1'b0;
      enq_res_hbm_o <= 1'b0;
      flush_valid_o <= 1'b0;
      flush_pkt_id_o <= '0;
      flush_voq_o <= '0;
      deq_valid_o <= '0;
      deq_o <= '0;
      pfc_tx_valid_o <= '0;
      pfc_tx_vec_o <= '0;
      pfc_tx_quanta_o <= '0;
    end else begin
      enq_res_valid_o <= s5_valid;
      enq_res_pkt_id_o <= s5_pkt;
      enq_res_voq_o <= s5_voq;
      enq_res_reason_o <= s5_reason;
      enq_res_marked_o <= s5_marked;
      enq_res_hdrm_o <= s5_hdrm;
      enq_res_hbm_o <= s5_hbm;
      flush_valid_o <= f5_valid;
      flush_pkt_id_o <= f5_pkt;
      flush_voq_o <= f5_voq;
      deq_valid_o <= d5_valid;
      // a record and the quanta are 0 without their valid bit (xtm_egress, xtm_out5): loaded
      // in a cycle with one and in the cycle after it (back to 0), else they stay 0
      if (d5_valid != '0 || deq_valid_o != '0) deq_o <= d5_rec;
      pfc_tx_valid_o <= p5_valid;
      pfc_tx_vec_o <= p5_vec;
      if (p5_valid != '0 || pfc_tx_valid_o != '0) pfc_tx_quanta_o <= p5_quanta;
    end
  end

  // ------------------------------------------------------------------ pipeline registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pipe
    if (!rst_ni) begin
      t4_q <= 64'hFFFF_FFFF_FFFF_FFFC;  // -4: logical cycle 0 commits in physical cycle 4
      busy_q <= 1'b0;
      s1_csr_v_q <= 1'b0;
      s1_csr_w_q <= 1'b0;
      s1_addr_q <= '0;
      s1_wdata_q <= '0;
      s1_enq_v_q <= 1'b0;
      s1_pkt_q <= '0;
      s1_in_q <= '0;
      s1_eg_q <= '0;
      s1_dscp_q <= '0;
      s1_ecn_q <= '0;
      s1_len_q <= '0;
      pfv1_q <= '0;
      pfv2_q <= '0;
      pfv3_q <= '0;
      pfv4_q <= '0;
      pfc1_q <= '0;
      pfc2_q <= '0;
      pfc3_q <= '0;
      pfc4_q <= '0;
      txr1_q <= '0;
      txr2_q <= '0;
      txr3_q <= '0;
      txr4_q <= '0;
      req2_q <= '0;
      req3_q <= '0;
      req4_q <= '0;
      cfg3_q <= '0;
      cfg4_q <= '0;
      lim3_q <= '0;
      lim4_q <= '0;
      ocb3_q <= 1'b0;
      ocb4_q <= 1'b0;
    end else begin
      t4_q <= t4_q + 64'd1;
      busy_q <= (busy_q && !rsp_v) || (psel_i && penable_i && !busy_q);
      s1_csr_v_q <= psel_i && penable_i && !busy_q;
      s1_csr_w_q <= pwrite_i;
      s1_addr_q <= paddr_i;
      s1_wdata_q <= pwdata_i;
      s1_enq_v_q <= enq_valid_i;
      s1_pkt_q <= enq_pkt_id_i;
      s1_in_q <= enq_in_port_i;
      s1_eg_q <= enq_eg_port_i;
      s1_dscp_q <= enq_dscp_i;
      s1_ecn_q <= enq_ecn_i;
      s1_len_q <= enq_len_i;
      pfv1_q <= pfc_rx_valid_i;
      pfv2_q <= pfv1_q;
      pfv3_q <= pfv2_q;
      pfv4_q <= pfv3_q;
      if (pfc_rx_valid_i != '0) pfc1_q <= {pfc_rx_vec_i, pfc_rx_quanta_i};
      if (pfv1_q != '0) pfc2_q <= pfc1_q;
      if (pfv2_q != '0) pfc3_q <= pfc2_q;
      if (pfv3_q != '0) pfc4_q <= pfc3_q;
      txr1_q <= tx_ready_i;
      txr2_q <= txr1_q;
      txr3_q <= txr2_q;
      txr4_q <= txr3_q;
      req2_q <= req1;
      req3_q <= req2_q;
      req4_q <= req3_q;
      cfg3_q <= cfg2;
      cfg4_q <= cfg3_q;
      lim3_q <= lim2;
      lim4_q <= lim3_q;
      ocb3_q <= ocb2;
      ocb4_q <= ocb3_q;
    end
  end

endmodule
