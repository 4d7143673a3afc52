// SPDX-License-Identifier: Apache-2.0
//
// xtm_core: the commit stage of the traffic manager and the dequeue pipeline behind it
// (docs/spec.md 4.1, 15.2). Logical cycle t commits here in physical cycle t+4: PFC
// reception (xtm_pfc_rx), the watchdog visit (xtm_wd), egress transmission (xtm_egress),
// the dequeue slot (xtm_sched over the head cache of xtm_qmgr), the admission (xtm_admit
// over S(t)), PFC generation (xtm_pfc_tx), the buffer and counters (xtm_bufmgr, xtm_stats).
// Outputs are presented in stage 5 (xtm_out5 and the blocks' own registers) to xtm_top's
// output registers.

`default_nettype none

module xtm_core #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned CellBytes = 256,
  parameter int unsigned OcbCells  = 65536,
  parameter int unsigned HbmCells  = 33554432,
  parameter int unsigned FifoDepth = 8,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs,
  parameter int unsigned NumPgs    = 8 * NumPorts,
  parameter int unsigned VoqW      = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned CellLog2  = $clog2(CellBytes),
  parameter int unsigned DescIdxW  = (NumDesc > 1) ? $clog2(NumDesc) : 1,
  parameter int unsigned DescCntW  = $clog2(NumDesc + 1),
  parameter int unsigned SlotW     = (FifoDepth > 1) ? $clog2(FifoDepth) : 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0]              t4_i,
  input  wire logic                     pol_drop4_i, // check p (xtm_police): POLICE
  input  xtm_pkg::enq_req_t             req3_i,     // stage 3 (counter row read)
  input  xtm_pkg::enq_req_t             req4_i,     // the descriptor of logical cycle t
  input  wire logic [15:0]              cfg4_i,
  input  wire logic [27:0]              lim4_i,
  input  wire logic                     ocb4_i,
  input  wire logic [xtm_pkg::PROF_B_W-1:0] prof4_i,
  input  wire logic [NumPorts-1:0]      pfv4_i,     // PFC frames of cycle t: valid
  input  wire logic [NumPorts*136-1:0]  pfc4_i,     // {vec, quanta} (with a valid bit only)
  input  wire logic [NumPorts-1:0]      txr4_i,
  input  wire logic [8:0]               prof_voq_i, // stage 2
  output logic [27:0]                   prof_occ_o,
  input  xtm_pkg::glob_cfg_t            glob_i,
  input  wire logic                     clr4_i,
  input  wire logic                     clr5_i,
  input  wire logic [NumVoqs-1:0]       en_i,
  input  wire logic [NumVoqs-1:0]       strict_i,
  input  wire logic [NumVoqs-1:0]       rxen_i,
  input  wire logic [3*NumVoqs-1:0]     prio_i,
  input  wire logic [NumVoqs-1:0]       wden_i,
  input  wire logic [NumVoqs-1:0]       shen_i,
  input  wire logic [16*NumVoqs-1:0]    quantum_i,
  output logic                          rm_o,       // the removal, for the config read
  output logic [8:0]                    rm_voq_o,
  input  wire logic [15:0]              deq_cfg_i,  // stage 5
  input  wire logic [27:0]              deq_limit_i,
  input  wire logic [31:0]              deq_lat_i,
  input  wire logic [23:0]              deq_srate_i,
  input  wire logic [19:0]              deq_sburst_i,
  output logic                          scan_rd_o,
  output logic [8:0]                    scan_voq_o,
  input  wire logic [23:0]              scan_srate_i,
  input  wire logic [19:0]              scan_sburst_i,
  output logic [2:0]                    prof_idx_o,
  input  wire logic                     prof_interp_i,
  input  wire logic [3:0]               prof_npoints_i,
  input  wire logic [135:0]             prof_fill_i,
  input  wire logic [135:0]             prof_prob_i,
  input  xtm_pkg::csr_op_t              op3_i,
  input  xtm_pkg::csr_op_t              op4_i,
  input  xtm_pkg::csr_op_t              op5_i,
  output logic [31:0]                   rd4_o,
  output logic [63:0]                   cnt4_o,
  output logic [63:0]                   cnt5_o,
  // stage 5 outputs
  output logic                          res_valid_o,
  output logic [31:0]                   res_pkt_id_o,
  output logic [8:0]                    res_voq_o,
  output logic [3:0]                    res_reason_o,
  output logic                          res_marked_o,
  output logic                          res_hdrm_o,
  output logic                          res_hbm_o,
  output logic                          flush_valid_o,
  output logic [31:0]                   flush_pkt_id_o,
  output logic [8:0]                    flush_voq_o,
  output logic [NumPorts-1:0]           deq_valid_o,
  output logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] deq_o,
  output logic [NumPorts-1:0]           pfc_valid_o,
  output logic [NumPorts*8-1:0]         pfc_vec_o,
  output logic [NumPorts*128-1:0]       pfc_quanta_o
);

  logic [NumPorts-1:0] rxv;
  logic [NumPorts*8-1:0] rxvec;
  logic [NumPorts*128-1:0] rxq;
  assign rxv = pfv4_i;
  assign {rxvec, rxq} = pfc4_i;

  logic [31:0] rd_adm, rd_buf, rd_q, rd_sch, rd_shp, rd_egr, rd_deq, rd_rx, rd_tx, rd_wd;
  logic [63:0] cnt_wd, cnt_st;
  // the read data of the commit stage's blocks (each is 0 without a read of its registers)
  always_comb begin : c_rd4
    rd4_o = '0;
    cnt4_o = '0;
    if (op4_i.rd) begin
      rd4_o = rd_adm | rd_buf | rd_q | rd_sch | rd_shp | rd_egr | rd_deq | rd_rx | rd_tx | rd_wd;
      cnt4_o = cnt_wd | cnt_st;
    end
  end

  // ------------------------------------------------------------------ S(t) everywhere
  logic [NumPgs-1:0] paused, pause_rx, xon_rx, xoff_sent, xon_sent;
  logic [NumVoqs-1:0] ne, head_hbm, stalled, conform;
  logic [NumPorts-1:0] room, port_ok, shp_ok;
  logic [27:0] pool_used, ocb_used, hbm_used, enq_occ;
  logic desc_avail, hbm_wr_ok, hbm_rd_ok, enq_mode;
  logic [DescCntW-1:0] desc_free;
  logic pfc_en, xoff;
  logic [27:0] hdrm_used, hdrm_cells;

  xtm_pfc_rx #(.NumPorts(NumPorts)) u_pfc_rx (
    .clk_i,
    .rst_ni,
    .valid_i   (rxv),
    .vec_i     (rxvec),
    .quanta_i  (rxq),
    .paused_o  (paused),
    .pause_rx_o(pause_rx),
    .xon_rx_o  (xon_rx),
    .op4_i,
    .rd4_o     (rd_rx)
  );

  // ------------------------------------------------------------------ dequeue slot
  logic rm, rm_flush, rm_hbm, rm_last, sched;
  logic [8:0] rm_voq, rm_pg;
  logic [5:0] rm_port;
  logic [DescIdxW-1:0] rm_desc;
  logic [13:0] rm_len;
  logic [27:0] rm_occ;
  assign port_ok = room & shp_ok;
  assign sched = rm && !rm_flush;

  xtm_sched #(.NumPorts(NumPorts), .NumTcs(NumTcs)) u_sched (
    .clk_i,
    .rst_ni,
    .ne_i       (ne),
    .en_i,
    .stalled_i  (stalled),
    .wd_fwd_i   (glob_i.wd_fwd),
    .strict_i,
    .rxen_i,
    .prio_i,
    .paused_i   (paused),
    .shen_i,
    .conform_i  (conform),
    .head_hbm_i (head_hbm),
    .hbm_rd_ok_i(hbm_rd_ok),
    .port_ok_i  (port_ok),
    .quantum_i,
    .rm_o       (rm),
    .flush_o    (rm_flush),
    .voq_o      (rm_voq),
    .port_o     (rm_port),
    .len_i      (rm_len),
    .last_i     (rm_last),
    .op4_i,
    .rd4_o      (rd_sch)
  );
  assign rm_o = rm;
  assign rm_voq_o = rm_voq;

  // ------------------------------------------------------------------ admission (after check p)
  xtm_pkg::admit_t adm;
  logic [DescIdxW-1:0] alloc;
  xtm_admit #(.OcbCells(OcbCells), .HbmCells(HbmCells)) u_admit (
    .clk_i,
    .rst_ni,
    .req_i        (req4_i),
    .cfg_i        (cfg4_i),
    .limit_i      (lim4_i),
    .ocb_only_i   (ocb4_i),
    .prof_i       (prof4_i),
    .occ_i        (enq_occ),
    .hbm_mode_i   (enq_mode),
    .stalled_i    (stalled[VoqW'(req4_i.voq)]),
    .wd_fwd_i     (glob_i.wd_fwd),
    .pfc_en_i     (pfc_en),
    .xoff_i       (xoff),
    .hdrm_used_i  (hdrm_used),
    .hdrm_cells_i (hdrm_cells),
    .pool_used_i  (pool_used),
    .pool_cells_i (glob_i.pool_cells),
    .ocb_used_i   (ocb_used),
    .hbm_used_i   (hbm_used),
    .desc_avail_i (desc_avail),
    .hbm_wr_ok_i  (hbm_wr_ok),
    .evict_cells_i(glob_i.evict_cells),
    .pol_drop_i   (pol_drop4_i),
    .res_o        (adm),
    .op4_i,
    .rd4_o        (rd_adm)
  );

  xtm_pkg::deq_sel_t dsel;
  logic [8:0] rm_cells;
  always_comb begin : c_dsel
    rm_cells = xtm_pkg::cells_of(rm_len, 4'(CellLog2));
    dsel = '0;  // (0 without a removal: the buffer manager reads its fields with valid)
    if (rm) begin
      dsel.valid = 1'b1;
      dsel.flush = rm_flush;
      dsel.voq = rm_voq;
      dsel.port = rm_port;
      dsel.desc = 20'(rm_desc);
      dsel.len = rm_len;
      dsel.cells = rm_cells;
      dsel.hbm = rm_hbm;
      dsel.pg = rm_pg;
      dsel.occ = rm_occ;
      dsel.last = rm_last;
    end
  end

  xtm_bufmgr #(.NumDesc(NumDesc)) u_bufmgr (
    .clk_i,
    .rst_ni,
    .adm_i       (adm),
    .enq_cells_i (req4_i.cells),
    .alloc_o     (alloc),
    .deq_i       (dsel),
    .glob_i,
    .clr_i       (clr4_i),
    .pool_used_o (pool_used),
    .ocb_used_o  (ocb_used),
    .hbm_used_o  (hbm_used),
    .desc_avail_o(desc_avail),
    .desc_free_o (desc_free),
    .hbm_wr_ok_o (hbm_wr_ok),
    .hbm_rd_ok_o (hbm_rd_ok),
    .op4_i,
    .rd4_o       (rd_buf)
  );

  logic [31:0] pay_pkt, pay_enq;
  logic [5:0] pay_dscp;
  logic [1:0] pay_ecn;
  logic pay_tmark, rm_ret;
  xtm_qmgr #(.NumPorts(NumPorts), .NumTcs(NumTcs), .NumDesc(NumDesc)) u_qmgr (
    .clk_i,
    .rst_ni,
    .t4_i,
    .adm_i         (adm),
    .req_i         (req4_i),
    .alloc_i       (alloc),
    .rm_i          (rm),
    .rm_flush_i    (rm_flush),
    .rm_voq_i      (rm_voq),
    .rm_desc_o     (rm_desc),
    .rm_len_o      (rm_len),
    .rm_hbm_o      (rm_hbm),
    .rm_pg_o       (rm_pg),
    .rm_occ_o      (rm_occ),
    .rm_last_o     (rm_last),
    .rm_ret_o      (rm_ret),
    .cell_log2_i   (4'(CellLog2)),
    .return_cells_i(glob_i.return_cells),
    .ne_o          (ne),
    .head_hbm_o    (head_hbm),
    .enq_occ_o     (enq_occ),
    .enq_mode_o    (enq_mode),
    .prof_voq_i,
    .prof_occ_o,
    .rm_pkt_id_o   (pay_pkt),
    .rm_enq_cycle_o(pay_enq),
    .rm_dscp_o     (pay_dscp),
    .rm_ecn_o      (pay_ecn),
    .rm_tmark_o    (pay_tmark),
    .clr_i         (clr4_i),
    .op4_i,
    .rd4_o         (rd_q)
  );

  // ------------------------------------------------------------------ shapers, egress
  xtm_shaper #(.NumPorts(NumPorts), .NumTcs(NumTcs)) u_shaper (
    .clk_i,
    .rst_ni,
    .t4_i,
    .sel_i       (sched),
    .sel_voq_i   (rm_voq),
    .sel_port_i  (rm_port),
    .sel_len_i   (rm_len),
    .shen_i,
    .port_ok_o   (shp_ok),
    .conform_o   (conform),
    .scan_rd_o,
    .scan_voq_o,
    .chg_rate_i  (deq_srate_i),
    .chg_burst_i (deq_sburst_i),
    .scan_rate_i (scan_srate_i),
    .scan_burst_i(scan_sburst_i),
    .op4_i,
    .rd4_o       (rd_shp)
  );

  logic [SlotW-1:0] slot, rec_slot;
  logic rec_we;
  logic [5:0] rec_port;
  logic [xtm_pkg::DEQ_REC_W-1:0] rec;
  xtm_egress #(.NumPorts(NumPorts), .FifoDepth(FifoDepth)) u_egress (
    .clk_i,
    .rst_ni,
    .t4_i,
    .tx_ready_i (txr4_i),
    .room_o     (room),
    .push_i     (sched),
    .push_port_i(rm_port),
    .push_hbm_i (rm_hbm),
    .hbm_lat_i  (glob_i.hbm_rd_lat),
    .ocb_lat_i  (glob_i.ocb_rd_lat),
    .push_slot_o(slot),
    .rec_we_i   (rec_we),
    .rec_port_i (rec_port),
    .rec_slot_i (rec_slot),
    .rec_i      (rec),
    .tx_valid_o (deq_valid_o),
    .tx_rec_o   (deq_o),
    .op4_i,
    .rd4_o      (rd_egr)
  );

  logic mark_rd, mark, mark_head, mark_lat;
  logic [8:0] mark_rd_voq, mark_voq;
  xtm_deq #(.FifoDepth(FifoDepth)) u_deq (
    .clk_i,
    .rst_ni,
    .rm_i          (rm),
    .flush_i       (rm_flush),
    .voq_i         (rm_voq),
    .port_i        (rm_port),
    .len_i         (rm_len),
    .hbm_i         (rm_hbm),
    .pg_i          (rm_pg),
    .occ_i         (rm_occ),
    .slot_i        (slot),
    .t4_i,
    .clr4_i,
    .pkt_id_i      (pay_pkt),
    .enq_cycle_i   (pay_enq),
    .dscp_i        (pay_dscp),
    .ecn_i         (pay_ecn),
    .tmark_i       (pay_tmark),
    .cfg_i         (deq_cfg_i),
    .limit_i       (deq_limit_i),
    .lat_i         (deq_lat_i),
    .prof_idx_o,
    .prof_interp_i,
    .prof_npoints_i,
    .prof_fill_i,
    .prof_prob_i,
    .flush_valid_o,
    .flush_pkt_id_o,
    .flush_voq_o,
    .rec_we_o      (rec_we),
    .rec_port_o    (rec_port),
    .rec_slot_o    (rec_slot),
    .rec_o         (rec),
    .mark_rd_o     (mark_rd),
    .mark_rd_voq_o (mark_rd_voq),
    .mark_o        (mark),
    .mark_voq_o    (mark_voq),
    .mark_head_o   (mark_head),
    .mark_lat_o    (mark_lat),
    .op4_i,
    .rd4_o         (rd_deq)
  );

  // ------------------------------------------------------------------ PFC, watchdog
  logic [NumPorts-1:0] ptx_v;
  logic [8*NumPorts-1:0] ptx_vec, ptx_xm;
  logic [16*NumPorts-1:0] ptx_q;
  xtm_pfc_tx #(.NumPorts(NumPorts)) u_pfc_tx (
    .clk_i,
    .rst_ni,
    .t4_i,
    .adm_i            (adm),
    .enq_pg_i         (req4_i.pg),
    .enq_cells_i      (req4_i.cells),
    .rm_i             (rm),
    .rm_pg_i          (rm_pg),
    .rm_cells_i       (rm_cells),
    .pool_used_i      (pool_used),
    .pool_cells_i     (glob_i.pool_cells),
    .clr_i            (clr4_i),
    .enq_pfc_en_o     (pfc_en),
    .enq_xoff_o       (xoff),
    .enq_hdrm_used_o  (hdrm_used),
    .enq_hdrm_cells_o (hdrm_cells),
    .tx_valid_o       (ptx_v),
    .tx_vec_o         (ptx_vec),
    .tx_xmask_o       (ptx_xm),
    .tx_quanta_o      (ptx_q),
    .xoff_sent_o      (xoff_sent),
    .xon_sent_o       (xon_sent),
    .op4_i,
    .rd4_o            (rd_tx)
  );

  xtm_wd #(.NumPorts(NumPorts), .NumTcs(NumTcs)) u_wd (
    .clk_i,
    .rst_ni,
    .t4_i,
    .glob_i,
    .ne_i      (ne),
    .wden_i,
    .rxen_i,
    .prio_i,
    .paused_i  (paused),
    .pause_rx_i(pause_rx),
    .sel_i     (sched),
    .sel_voq_i (rm_voq),
    .stalled_o (stalled),
    .clr_i     (clr4_i),
    .op3_i,
    .op4_i,
    .rd4_o     (rd_wd),
    .cnt4_o    (cnt_wd)
  );

  xtm_stats #(.NumPorts(NumPorts), .NumTcs(NumTcs)) u_stats (
    .clk_i,
    .rst_ni,
    .t4_i,
    .req3_i,
    .req4_i,
    .adm_i        (adm),
    .rm_i         (rm),
    .rm_flush_i   (rm_flush),
    .rm_voq_i     (rm_voq),
    .rm_len_i     (rm_len),
    .rm_ret_i     (rm_ret),
    .mark_rd_i    (mark_rd),
    .mark_rd_voq_i(mark_rd_voq),
    .mark_i       (mark),
    .mark_voq_i   (mark_voq),
    .mark_head_i  (mark_head),
    .mark_lat_i   (mark_lat),
    .xoff_sent_i  (xoff_sent),
    .xon_sent_i   (xon_sent),
    .pause_rx_i   (pause_rx),
    .xon_rx_i     (xon_rx),
    .paused_i     (paused),
    .pfc_tx_i     (ptx_v),
    .pfc_rx_i     (rxv),
    .tx_i         (deq_valid_o),
    .tx_rec_i     (deq_o),
    .clr4_i,
    .clr5_i,
    .op3_i,
    .op4_i,
    .op5_i,
    .cnt4_o       (cnt_st),
    .cnt5_o
  );

  // ------------------------------------------------------------------ stage 5 registers
  xtm_out5 #(.NumPorts(NumPorts)) u_out5 (
    .clk_i,
    .rst_ni,
    .adm_i       (adm),
    .pkt_id_i    (req4_i.pkt_id),
    .voq_i       (req4_i.voq),
    .pfc_v_i     (ptx_v),
    .pfc_vec_i   (ptx_vec),
    .pfc_xmask_i (ptx_xm),
    .pfc_quanta_i(ptx_q),
    .res_valid_o,
    .res_pkt_id_o,
    .res_voq_o,
    .res_reason_o,
    .res_marked_o,
    .res_hdrm_o,
    .res_hbm_o,
    .pfc_valid_o,
    .pfc_vec_o,
    .pfc_quanta_o
  );

  logic unused;
  assign unused = ^{desc_free};

endmodule
