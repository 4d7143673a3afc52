// SPDX-License-Identifier: Apache-2.0
//
// xtm_csr: the CSR access pipeline (docs/spec.md 10, 15.5). An access of logical cycle t
// is decoded in stage 1 by the generated decoder (autogen/xtm_csr_dec.sv: register id,
// mapped, read-only, legal range), travels as an xtm_pkg::csr_op_t through stages 1..5,
// and every block applies a write and answers a read at the stage where its register
// lives, so that a read returns S(t) and a write is seen by every decision of t+1. The
// blocks' read data are ORed into the access as it passes; the response leaves stage 5
// into the output register (ports at t + 6).
//
// Registers held here: stage 1 the classification maps, MAX_FRAME and the window selects
// (POL_SEL too: a POL-window access carries it in csr_op_t.pg, the PG window's entry
// field, since no access is in both windows); stage 2 OCB_ONLY_CYCLES; stage 4 the other
// global configuration, ERR_STATUS, ERR_ADDR; stage 5 the CNT_HI shadow. Constants:
// BLOCK_TYPE, VERSION, HW_*, STATUS. The VOQ, PG and POL windows refuse accesses during
// initialisation (NOT_READY, spec 3).

`default_nettype none

module xtm_csr #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  parameter int unsigned CellBytes = 256,
  parameter int unsigned OcbCells  = 65536,
  parameter int unsigned HbmCells  = 33554432,
  parameter int unsigned FifoDepth = 8,
  // derived, do not override
  parameter int unsigned CellLog2  = $clog2(CellBytes),
  parameter int unsigned InitCycles = 8 * NumPorts
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  // the access of the logical cycle in stage 1 (from the input register)
  input  wire logic        s1_valid_i,
  input  wire logic        s1_write_i,
  input  wire logic [15:0] s1_addr_i,
  input  wire logic [31:0] s1_wdata_i,
  input  wire logic [63:0] t1_i,          // logical cycle in stage 1
  // the access in each stage
  output xtm_pkg::csr_op_t op1_o,
  output xtm_pkg::csr_op_t op2_o,
  output xtm_pkg::csr_op_t op3_o,
  output xtm_pkg::csr_op_t op4_o,
  output xtm_pkg::csr_op_t op5_o,
  // read data of the blocks for the access in that stage (0 when it is not theirs)
  input  wire logic [31:0] rd2_i,
  input  wire logic [31:0] rd3_i,
  input  wire logic [31:0] rd4_i,
  input  wire logic [31:0] rd5_i,
  input  wire logic [63:0] cnt4_i,        // 64-bit counter values (summed)
  input  wire logic [63:0] cnt5_i,
  // registers held here
  output logic [255:0]     dscp_map_o,    // DSCP_MAP_k at [32k +: 32] (stage 1)
  output logic [31:0]      tc_queue_map_o,
  output logic [31:0]      tc_pg_map_o,
  output logic [13:0]      max_frame_o,
  output logic [23:0]      ocb_only_cycles_o,  // stage 2
  output xtm_pkg::glob_cfg_t glob_o,      // stage 4
  output logic             clr4_o,        // CTRL.CLR_CNT in stage 4 / stage 5
  output logic             clr5_o,
  // response of the access leaving stage 5
  output logic             rsp_valid_o,
  output logic             rsp_err_o,
  output logic [31:0]      rsp_rdata_o
);

  if (xtm_reg_pkg::XTM_REG_ID_W > 8) begin : g_bad_id_width
    $fatal(1, "xtm_csr: csr_op_t.id has 8 bits, the register map needs more");
  end

  // ------------------------------------------------------------------ stage 1: decode
  xtm_reg_pkg::csr_dec_t dec;
  xtm_csr_dec #(
    .NumPorts   (NumPorts),
    .NumTcs     (NumTcs),
    .NumPgs     (8),
    .NumProfiles(8)
  ) u_dec (
    .valid_i(s1_valid_i),
    .addr_i (s1_addr_i),
    .wdata_i(s1_wdata_i),
    .dec_o  (dec)
  );

  logic [31:0] dscp_q [8];
  logic [31:0] tcq_q, tcpg_q, maxf_q, voq_sel_q, port_sel_q, pg_sel_q, prof_sel_q;
  logic [31:0] ocb_only_q;
  logic [8:0] pol_sel_q;

  xtm_pkg::csr_op_t op1, op2_q, op3_q, op4_q, op5_q;
  logic [31:0] rdata1, rdata2_q, rdata3_q, rdata4_q, rdata5_q;
  logic [63:0] cnt5_q;
  logic in_init, win_guarded, win_pol;

  // Without an access, op1 is 0 but for the window selects (the decoder's outputs are 0
  // then, and no block reads op.addr or op.write); the decode and error priority are formed
  // only for an access (one test per cycle instead of the windows' compares).
  always_comb begin : c_op1
    in_init = t1_i < 64'(InitCycles);
    win_guarded = 1'b0;
    win_pol = 1'b0;
    op1 = '0;
    op1.voq = voq_sel_q[8:0];
    op1.port = port_sel_q[5:0];
    op1.pg = pg_sel_q[8:0];
    op1.prof = prof_sel_q[2:0];
    if (s1_valid_i) begin
      win_guarded = (s1_addr_i >= xtm_reg_pkg::XTM_WIN_VOQ_BASE &&
                     {1'b0, s1_addr_i} < {1'b0, xtm_reg_pkg::XTM_WIN_VOQ_BASE} +
                                         {1'b0, xtm_reg_pkg::XTM_WIN_VOQ_SIZE}) ||
                    (s1_addr_i >= xtm_reg_pkg::XTM_WIN_PG_BASE &&
                     {1'b0, s1_addr_i} < {1'b0, xtm_reg_pkg::XTM_WIN_PG_BASE} +
                                         {1'b0, xtm_reg_pkg::XTM_WIN_PG_SIZE});
      win_pol = s1_addr_i >= xtm_reg_pkg::XTM_WIN_POL_BASE &&
                {1'b0, s1_addr_i} < {1'b0, xtm_reg_pkg::XTM_WIN_POL_BASE} +
                                    {1'b0, xtm_reg_pkg::XTM_WIN_POL_SIZE};
      win_guarded = win_guarded || win_pol;  // refused during initialisation (3, 15.6)
      op1.valid = 1'b1;
      op1.write = s1_write_i;
      op1.addr = s1_addr_i;
      op1.id = dec.id;
      op1.idx = dec.idx;
      op1.cnt = dec.cnt;
      op1.hi = dec.hi;
      op1.wdata = dec.wdata;
      // first failing of: unmapped, not ready, read-only, illegal (spec 10.2)
      if (!dec.mapped) begin
        op1.err = 4'b0001;
      end else if (win_guarded && in_init) begin
        op1.err = 4'b1000;
      end else if (s1_write_i && dec.ro) begin
        op1.err = 4'b0100;
      end else if (s1_write_i && !dec.legal) begin
        op1.err = 4'b0010;
      end
      op1.wr = s1_write_i && op1.err == '0;
      op1.rd = !s1_write_i && op1.err == '0;
      // a POL-window access carries POL_SEL in the entry field of the PG window (no access
      // is in both windows; one 9-bit field down the CSR pipeline instead of two)
      if (win_pol) begin
        op1.pg = pol_sel_q;
      end
    end
  end

  function automatic logic wr1(input logic [7:0] id);
    wr1 = op1.wr && op1.id == id;
  endfunction

  // stage-1 registers: read (S(t)) and write (seen from t+1 on)
  always_comb begin : c_rd1
    rdata1 = '0;
    if (op1.rd) begin
      unique case (op1.id)
        xtm_reg_pkg::XtmRegBlockType: rdata1 = xtm_reg_pkg::XTM_BLOCK_TYPE_VALUE;
        xtm_reg_pkg::XtmRegVersion: rdata1 = xtm_reg_pkg::XTM_VERSION_VALUE;
        xtm_reg_pkg::XtmRegHwParams:
          rdata1 = {8'd0, 8'(FifoDepth), 4'(CellLog2), 4'(NumTcs), 8'(NumPorts)};
        xtm_reg_pkg::XtmRegHwNumDesc: rdata1 = 32'(NumDesc);
        xtm_reg_pkg::XtmRegHwOcbCells: rdata1 = 32'(OcbCells);
        xtm_reg_pkg::XtmRegHwHbmCells: rdata1 = 32'(HbmCells);
        xtm_reg_pkg::XtmRegStatus: rdata1 = {31'd0, !in_init};
        xtm_reg_pkg::XtmRegMaxFrame: rdata1 = maxf_q;
        xtm_reg_pkg::XtmRegTcPgMap: rdata1 = tcpg_q;
        xtm_reg_pkg::XtmRegTcQueueMap: rdata1 = tcq_q;
        xtm_reg_pkg::XtmRegDscpMap: rdata1 = dscp_q[op1.idx[2:0]];
        xtm_reg_pkg::XtmRegVoqSel: rdata1 = voq_sel_q;
        xtm_reg_pkg::XtmRegPortSel: rdata1 = port_sel_q;
        xtm_reg_pkg::XtmRegPgSel: rdata1 = pg_sel_q;
        xtm_reg_pkg::XtmRegProfSel: rdata1 = prof_sel_q;
        xtm_reg_pkg::XtmRegPolSel: rdata1 = {23'd0, pol_sel_q};
        default: rdata1 = '0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs1
    if (!rst_ni) begin
      dscp_q[0] <= xtm_reg_pkg::XTM_DSCP_MAP_0_RESVAL;
      dscp_q[1] <= xtm_reg_pkg::XTM_DSCP_MAP_1_RESVAL;
      dscp_q[2] <= xtm_reg_pkg::XTM_DSCP_MAP_2_RESVAL;
      dscp_q[3] <= xtm_reg_pkg::XTM_DSCP_MAP_3_RESVAL;
      dscp_q[4] <= xtm_reg_pkg::XTM_DSCP_MAP_4_RESVAL;
      dscp_q[5] <= xtm_reg_pkg::XTM_DSCP_MAP_5_RESVAL;
      dscp_q[6] <= xtm_reg_pkg::XTM_DSCP_MAP_6_RESVAL;
      dscp_q[7] <= xtm_reg_pkg::XTM_DSCP_MAP_7_RESVAL;
      tcq_q <= xtm_reg_pkg::XTM_TC_QUEUE_MAP_RESVAL;
      tcpg_q <= xtm_reg_pkg::XTM_TC_PG_MAP_RESVAL;
      maxf_q <= xtm_reg_pkg::XTM_MAX_FRAME_RESVAL;
      voq_sel_q <= xtm_reg_pkg::XTM_VOQ_SEL_RESVAL;
      port_sel_q <= xtm_reg_pkg::XTM_PORT_SEL_RESVAL;
      pg_sel_q <= xtm_reg_pkg::XTM_PG_SEL_RESVAL;
      prof_sel_q <= xtm_reg_pkg::XTM_PROF_SEL_RESVAL;
      pol_sel_q <= xtm_reg_pkg::XTM_POL_SEL_RESVAL[8:0];
    end else begin
      if (op1.wr) begin  // (no write in most cycles: one test, not one decode per register)
        if (wr1(xtm_reg_pkg::XtmRegDscpMap)) dscp_q[op1.idx[2:0]] <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegTcQueueMap)) tcq_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegTcPgMap)) tcpg_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegMaxFrame)) maxf_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegVoqSel)) voq_sel_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegPortSel)) port_sel_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegPgSel)) pg_sel_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegProfSel)) prof_sel_q <= op1.wdata;
        if (wr1(xtm_reg_pkg::XtmRegPolSel)) pol_sel_q <= op1.wdata[8:0];
      end
    end
  end

  for (genvar k = 0; k < 8; k++) begin : g_dscp
    assign dscp_map_o[32*k+:32] = dscp_q[k];
  end
  assign tc_queue_map_o = tcq_q;
  assign tc_pg_map_o = tcpg_q;
  assign max_frame_o = maxf_q[13:0];

  // ------------------------------------------------------------------ stage 2
  logic [31:0] rdata2;
  always_comb begin : c_rd2
    rdata2 = rdata2_q | rd2_i;
    if (op2_q.rd) begin  // (the decode only for a read)
      if (op2_q.id == xtm_reg_pkg::XtmRegOcbOnlyCycles) begin
        rdata2 = rdata2 | ocb_only_q;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs2
    if (!rst_ni) begin
      ocb_only_q <= xtm_reg_pkg::XTM_OCB_ONLY_CYCLES_RESVAL;
    end else if (op2_q.wr) begin  // (as in stage 1)
      if (op2_q.id == xtm_reg_pkg::XtmRegOcbOnlyCycles) ocb_only_q <= op2_q.wdata;
    end
  end
  assign ocb_only_cycles_o = ocb_only_q[23:0];

  // ------------------------------------------------------------------ stage 4
  // The global configuration is held as its field view (glob_cfg_t, the commit stage's
  // input), each register's fields (the decoder masks the written word to them): no
  // 234-bit struct assembled from 32-bit registers in every Verilated cycle.
  localparam int unsigned CW = xtm_pkg::CELLW;
  xtm_pkg::glob_cfg_t glob_q;
  logic [31:0] errs_q, erra_q;
  logic [31:0] rdata4;

  function automatic logic wr4(input logic [7:0] id);
    wr4 = op4_q.wr && op4_q.id == id;
  endfunction

  always_comb begin : c_rd4
    rdata4 = rdata4_q | rd4_i;
    if (op4_q.rd) begin
      unique case (op4_q.id)
        xtm_reg_pkg::XtmRegPoolCells: rdata4 = rdata4 | 32'(glob_q.pool_cells);
        xtm_reg_pkg::XtmRegHbmEvictCells: rdata4 = rdata4 | 32'(glob_q.evict_cells);
        xtm_reg_pkg::XtmRegHbmReturnCells: rdata4 = rdata4 | 32'(glob_q.return_cells);
        xtm_reg_pkg::XtmRegHbmWrRate: rdata4 = rdata4 | 32'(glob_q.hbm_wr_rate);
        xtm_reg_pkg::XtmRegHbmWrBurst: rdata4 = rdata4 | 32'(glob_q.hbm_wr_burst);
        xtm_reg_pkg::XtmRegHbmRdRate: rdata4 = rdata4 | 32'(glob_q.hbm_rd_rate);
        xtm_reg_pkg::XtmRegHbmRdBurst: rdata4 = rdata4 | 32'(glob_q.hbm_rd_burst);
        xtm_reg_pkg::XtmRegHbmRdLat: rdata4 = rdata4 | 32'(glob_q.hbm_rd_lat);
        xtm_reg_pkg::XtmRegOcbRdLat: rdata4 = rdata4 | 32'(glob_q.ocb_rd_lat);
        xtm_reg_pkg::XtmRegWdCtrl: rdata4 = rdata4 | {30'd0, glob_q.wd_fwd, glob_q.wd_en};
        xtm_reg_pkg::XtmRegWdPollCycles: rdata4 = rdata4 | glob_q.wd_poll;
        xtm_reg_pkg::XtmRegWdDetectPolls: rdata4 = rdata4 | 32'(glob_q.wd_detect);
        xtm_reg_pkg::XtmRegWdRestorePolls: rdata4 = rdata4 | 32'(glob_q.wd_restore);
        xtm_reg_pkg::XtmRegErrStatus: rdata4 = rdata4 | errs_q;
        xtm_reg_pkg::XtmRegErrAddr: rdata4 = rdata4 | erra_q;
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs4
    if (!rst_ni) begin
      glob_q.pool_cells <= xtm_reg_pkg::XTM_POOL_CELLS_RESVAL[CW-1:0];
      glob_q.evict_cells <= xtm_reg_pkg::XTM_HBM_EVICT_CELLS_RESVAL[CW-1:0];
      glob_q.return_cells <= xtm_reg_pkg::XTM_HBM_RETURN_CELLS_RESVAL[CW-1:0];
      glob_q.hbm_wr_rate <= xtm_reg_pkg::XTM_HBM_WR_RATE_RESVAL[23:0];
      glob_q.hbm_wr_burst <= xtm_reg_pkg::XTM_HBM_WR_BURST_RESVAL[15:0];
      glob_q.hbm_rd_rate <= xtm_reg_pkg::XTM_HBM_RD_RATE_RESVAL[23:0];
      glob_q.hbm_rd_burst <= xtm_reg_pkg::XTM_HBM_RD_BURST_RESVAL[15:0];
      glob_q.hbm_rd_lat <= xtm_reg_pkg::XTM_HBM_RD_LAT_RESVAL[11:0];
      glob_q.ocb_rd_lat <= xtm_reg_pkg::XTM_OCB_RD_LAT_RESVAL[7:0];
      glob_q.wd_en <= xtm_reg_pkg::XTM_WD_CTRL_RESVAL[0];
      glob_q.wd_fwd <= xtm_reg_pkg::XTM_WD_CTRL_RESVAL[1];
      glob_q.wd_poll <= xtm_reg_pkg::XTM_WD_POLL_CYCLES_RESVAL;
      glob_q.wd_detect <= xtm_reg_pkg::XTM_WD_DETECT_POLLS_RESVAL[7:0];
      glob_q.wd_restore <= xtm_reg_pkg::XTM_WD_RESTORE_POLLS_RESVAL[7:0];
      errs_q <= xtm_reg_pkg::XTM_ERR_STATUS_RESVAL;
      erra_q <= xtm_reg_pkg::XTM_ERR_ADDR_RESVAL;
    end else begin
      if (op4_q.wr) begin  // (as in stage 1)
        if (wr4(xtm_reg_pkg::XtmRegPoolCells)) glob_q.pool_cells <= op4_q.wdata[CW-1:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmEvictCells)) glob_q.evict_cells <= op4_q.wdata[CW-1:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmReturnCells)) glob_q.return_cells <= op4_q.wdata[CW-1:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmWrRate)) glob_q.hbm_wr_rate <= op4_q.wdata[23:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmWrBurst)) glob_q.hbm_wr_burst <= op4_q.wdata[15:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmRdRate)) glob_q.hbm_rd_rate <= op4_q.wdata[23:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmRdBurst)) glob_q.hbm_rd_burst <= op4_q.wdata[15:0];
        if (wr4(xtm_reg_pkg::XtmRegHbmRdLat)) glob_q.hbm_rd_lat <= op4_q.wdata[11:0];
        if (wr4(xtm_reg_pkg::XtmRegOcbRdLat)) glob_q.ocb_rd_lat <= op4_q.wdata[7:0];
        if (wr4(xtm_reg_pkg::XtmRegWdCtrl)) begin
          glob_q.wd_en <= op4_q.wdata[0];
          glob_q.wd_fwd <= op4_q.wdata[1];
        end
        if (wr4(xtm_reg_pkg::XtmRegWdPollCycles)) glob_q.wd_poll <= op4_q.wdata;
        if (wr4(xtm_reg_pkg::XtmRegWdDetectPolls)) glob_q.wd_detect <= op4_q.wdata[7:0];
        if (wr4(xtm_reg_pkg::XtmRegWdRestorePolls)) glob_q.wd_restore <= op4_q.wdata[7:0];
        // ERR_STATUS: rw1c; an erroneous access sets its bit and ERR_ADDR
        if (wr4(xtm_reg_pkg::XtmRegErrStatus)) begin
          errs_q <= errs_q & ~op4_q.wdata;
        end
      end
      if (op4_q.valid) begin  // (the error test only with an access)
        if (op4_q.err != '0) begin
          errs_q <= errs_q | {28'd0, op4_q.err};
          erra_q <= {16'd0, op4_q.addr};
        end
      end
    end
  end

  always_comb begin : c_clr4  // (the decode only for a write)
    clr4_o = 1'b0;
    if (op4_q.wr) begin
      clr4_o = op4_q.id == xtm_reg_pkg::XtmRegCtrl && op4_q.wdata[0];
    end
  end
  assign glob_o = glob_q;

  // ------------------------------------------------------------------ stage 5: counters, response
  logic [31:0] cnt_hi_q;
  logic [63:0] cnt5;
  logic [31:0] rdata5;
  assign cnt5 = cnt5_q + cnt5_i;
  always_comb begin : c_rd5
    rdata5 = rdata5_q | rd5_i;
    if (op5_q.rd) begin  // (the decode only for a read)
      if (op5_q.cnt) begin
        rdata5 = rdata5 | (op5_q.hi ? cnt_hi_q : cnt5[31:0]);
      end
      if (op5_q.id == xtm_reg_pkg::XtmRegCntHi) begin
        rdata5 = rdata5 | cnt_hi_q;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_regs5
    if (!rst_ni) begin
      cnt_hi_q <= xtm_reg_pkg::XTM_CNT_HI_RESVAL;
    end else if (op5_q.rd && op5_q.cnt && !op5_q.hi) begin
      cnt_hi_q <= cnt5[63:32];
    end
  end
  always_comb begin : c_clr5  // (as clr4_o)
    clr5_o = 1'b0;
    if (op5_q.wr) begin
      clr5_o = op5_q.id == xtm_reg_pkg::XtmRegCtrl && op5_q.wdata[0];
    end
  end

  // ------------------------------------------------------------------ the pipeline
  always_ff @(posedge clk_i or negedge rst_ni) begin : s_pipe
    if (!rst_ni) begin
      op2_q <= '0;
      op3_q <= '0;
      op4_q <= '0;
      op5_q <= '0;
      rdata2_q <= '0;
      rdata3_q <= '0;
      rdata4_q <= '0;
      rdata5_q <= '0;
      cnt5_q <= '0;
      rsp_valid_o <= 1'b0;
      rsp_err_o <= 1'b0;
      rsp_rdata_o <= '0;
    end else begin
      // an access's stages load only while it passes (and once more, back to op1 without
      // an access, which changes only with a select written by an access): a stage's
      // register equals the stage before it in every cycle
      if (op1.valid || op2_q.valid) begin
        op2_q <= op1;
        rdata2_q <= rdata1;
      end
      if (op2_q.valid || op3_q.valid) begin
        op3_q <= op2_q;
        rdata3_q <= rdata2;
      end
      if (op3_q.valid || op4_q.valid) begin
        op4_q <= op3_q;
        rdata4_q <= rdata3_q | rd3_i;
      end
      if (op4_q.valid || op5_q.valid) begin
        op5_q <= op4_q;
        rdata5_q <= rdata4;
        cnt5_q <= cnt4_i;
      end
      rsp_valid_o <= op5_q.valid;
      rsp_err_o <= op5_q.err != '0;
      rsp_rdata_o <= op5_q.rd ? rdata5 : '0;
    end
  end

  assign op1_o = op1;
  assign op2_o = op2_q;
  assign op3_o = op3_q;
  assign op4_o = op4_q;
  assign op5_o = op5_q;

endmodule
