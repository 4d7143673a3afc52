// SPDX-License-Identifier: Apache-2.0
//
// xtm_voqcfg: the per-VOQ configuration (Q_CFG, Q_LIMIT_CELLS, Q_QUANTUM, Q_LAT_THRESH,
// Q_SHAPER_RATE, Q_SHAPER_BURST, Q_TARGET_RATE; docs/spec.md 4.4, 5.2, 6, 9) in the copies
// each reader needs, each written by the CSR access at the stage where it is read (15.5):
//
//   copy A  xtm_ram_2p, stage 1: port A the enqueue's VOQ, port B the CSR access (every
//           register, the source of CSR reads) and the initialisation sweep;
//   copy B  xtm_ram_2r1w, stage 4 (commit): read A the dequeued VOQ, read B the shaper scan;
//   flops   stage 4: the bits every scheduling decision needs for all VOQs at once
//           (enable, strict, pause obedience and priority, watchdog, shaper) and the
//           DWRR quanta (a DWRR round adds a quantum to every eligible VOQ of a port).
//
// Stage 2 turns copy A's row into the OCB-only bit (5.2) for the enqueue and for Q_STATUS.

`default_nettype none

module xtm_voqcfg #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned CellBytes = 256,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs,
  parameter int unsigned VoqW      = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned CellLog2  = $clog2(CellBytes)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0] t1_i,              // logical cycle in stage 1
  input  wire logic [63:0] t4_i,              // logical cycle in stage 4
  // stage 1: the enqueue's VOQ
  input  wire logic            enq_rd_i,
  input  wire logic [8:0]      enq_voq_i,
  // stage 2: its configuration
  output logic [15:0]          enq_cfg_o,
  output logic [27:0]          enq_limit_o,
  output logic                 enq_ocb_only_o,
  input  wire logic [23:0]     ocb_only_cycles_i,  // OCB_ONLY_CYCLES (stage 2)
  // stage 4 reads, data in stage 5
  input  wire logic            deq_rd_i,
  input  wire logic [8:0]      deq_voq_i,
  output logic [15:0]          deq_cfg_o,
  output logic [27:0]          deq_limit_o,
  output logic [31:0]          deq_lat_o,
  output logic [23:0]          deq_srate_o,
  output logic [19:0]          deq_sburst_o,
  input  wire logic            scan_rd_i,
  input  wire logic [8:0]      scan_voq_i,
  output logic [23:0]          scan_srate_o,
  output logic [19:0]          scan_sburst_o,
  // stage 4: every VOQ
  output logic [NumVoqs-1:0]   en_o,
  output logic [NumVoqs-1:0]   strict_o,
  output logic [NumVoqs-1:0]   rxen_o,
  output logic [3*NumVoqs-1:0] prio_o,        // VOQ v at [3v +: 3]
  output logic [NumVoqs-1:0]   wden_o,
  output logic [NumVoqs-1:0]   shen_o,
  output logic [16*NumVoqs-1:0] quantum_o,    // VOQ v at [16v +: 16]
  // CSR
  input  xtm_pkg::csr_op_t op1_i,
  input  xtm_pkg::csr_op_t op2_i,
  input  xtm_pkg::csr_op_t op4_i,
  output logic [31:0]      rd2_o
);

  // row of copy A: {trate 24, sburst 20, srate 24, lat 32, quantum 16, limit 28, cfg 16}
  localparam int unsigned AW = 160;
  localparam int unsigned ACfg = 0, ALim = 16, AQnt = 44, ALat = 60, ASr = 92, ASb = 116,
                          ATr = 136;
  // row of copy B: {sburst 20, srate 24, lat 32, limit 28, cfg 16}
  localparam int unsigned BW = 120;
  localparam int unsigned BCfg = 0, BLim = 16, BLat = 44, BSr = 76, BSb = 100;

  localparam logic [AW-1:0] ARst = {xtm_reg_pkg::XTM_Q_TARGET_RATE_RESVAL[23:0],
                                    xtm_reg_pkg::XTM_Q_SHAPER_BURST_RESVAL[19:0],
                                    xtm_reg_pkg::XTM_Q_SHAPER_RATE_RESVAL[23:0],
                                    xtm_reg_pkg::XTM_Q_LAT_THRESH_RESVAL,
                                    xtm_reg_pkg::XTM_Q_QUANTUM_RESVAL[15:0],
                                    xtm_reg_pkg::XTM_Q_LIMIT_CELLS_RESVAL[27:0],
                                    xtm_reg_pkg::XTM_Q_CFG_RESVAL[15:0]};
  localparam logic [BW-1:0] BRst = {ARst[ASb+:20], ARst[ASr+:24], ARst[ALat+:32],
                                    ARst[ALim+:28], ARst[ACfg+:16]};

  // field of a register in a row: returns {lsb, width} of the register id in copy A
  function automatic logic [AW-1:0] a_mask(input logic [7:0] id);
    logic [AW-1:0] m;
    m = '0;
    unique case (id)
      xtm_reg_pkg::XtmRegQCfg: m[ACfg+:16] = '1;
      xtm_reg_pkg::XtmRegQLimitCells: m[ALim+:28] = '1;
      xtm_reg_pkg::XtmRegQQuantum: m[AQnt+:16] = '1;
      xtm_reg_pkg::XtmRegQLatThresh: m[ALat+:32] = '1;
      xtm_reg_pkg::XtmRegQShaperRate: m[ASr+:24] = '1;
      xtm_reg_pkg::XtmRegQShaperBurst: m[ASb+:20] = '1;
      xtm_reg_pkg::XtmRegQTargetRate: m[ATr+:24] = '1;
      default: ;
    endcase
    a_mask = m;
  endfunction

  function automatic logic ocb_only(input logic [27:0] limit, input logic [23:0] trate,
                                    input logic [23:0] cyc);
    // spec 5.2: limit * C * 65536 <= OCB_ONLY_CYCLES * target rate (exact, 64-bit).
    // C twin: xtm_voq_ocb_only
    ocb_only = (({36'd0, limit} << CellLog2) << 16) <= ({40'd0, cyc} * {40'd0, trate});
  endfunction

  // ------------------------------------------------------------------ copy A (stage 1)
  logic sweep1, sweep4;
  assign sweep1 = t1_i < 64'(NumVoqs);
  assign sweep4 = t4_i < 64'(NumVoqs);

  logic [AW-1:0] a_rdata, b_rdata, a_wdata, a_wmask;
  logic a_b_req, a_b_we, a_csr;
  logic [VoqW-1:0] a_b_addr;
  // Without the sweep or an access, port B is idle (no request) and its write data and mask
  // are 0; the decode of the access is formed only with one (one test per cycle)
  always_comb begin : c_a_port_b
    a_csr = 1'b0;
    a_b_req = sweep1;
    a_b_we = sweep1;
    a_b_addr = sweep1 ? VoqW'(t1_i) : VoqW'(op1_i.voq);
    a_wmask = '0;
    a_wdata = '0;
    if (sweep1) begin
      a_wmask = '1;
      a_wdata = ARst;
    end else if (op1_i.valid) begin
      a_csr = op1_i.id >= xtm_reg_pkg::XtmRegQCfg && op1_i.id <= xtm_reg_pkg::XtmRegQStatus;
      a_b_req = a_csr && (op1_i.rd || (op1_i.wr && op1_i.id != xtm_reg_pkg::XtmRegQStatus));
      a_b_we = op1_i.wr;
      if (op1_i.wr) begin  // (the write data and mask only for a write)
        a_wmask = a_mask(op1_i.id);
        // the written word at every field position (the mask picks one)
        a_wdata[ACfg+:16] = op1_i.wdata[15:0];
        a_wdata[ALim+:28] = op1_i.wdata[27:0];
        a_wdata[AQnt+:16] = op1_i.wdata[15:0];
        a_wdata[ALat+:32] = op1_i.wdata;
        a_wdata[ASr+:24] = op1_i.wdata[23:0];
        a_wdata[ASb+:20] = op1_i.wdata[19:0];
        a_wdata[ATr+:24] = op1_i.wdata[23:0];
      end
    end
  end

  // read-first: the enqueue of cycle t reads S(t) in the cycle the write of t lands
  xtm_ram_2p #(
    .Width(AW),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1)
  ) u_copy_a (
    .clk_i,
    .rst_ni,
    .a_req_i  (enq_rd_i),
    .a_we_i   (1'b0),
    .a_addr_i (VoqW'(enq_voq_i)),
    .a_wdata_i('0),
    .a_wmask_i('0),
    .a_rdata_o(a_rdata),
    .b_req_i  (a_b_req),
    .b_we_i   (a_b_we),
    .b_addr_i (a_b_addr),
    .b_wdata_i(a_wdata),
    .b_wmask_i(a_wmask),
    .b_rdata_o(b_rdata)
  );

  // stage 2: the enqueue's row, and the CSR read of the row
  assign enq_cfg_o = a_rdata[ACfg+:16];
  assign enq_limit_o = a_rdata[ALim+:28];
  assign enq_ocb_only_o = ocb_only(a_rdata[ALim+:28], a_rdata[ATr+:24], ocb_only_cycles_i);

  always_comb begin : c_rd2
    rd2_o = '0;
    if (op2_i.rd) begin
      unique case (op2_i.id)
        xtm_reg_pkg::XtmRegQCfg: rd2_o = {16'd0, b_rdata[ACfg+:16]};
        xtm_reg_pkg::XtmRegQLimitCells: rd2_o = {4'd0, b_rdata[ALim+:28]};
        xtm_reg_pkg::XtmRegQQuantum: rd2_o = {16'd0, b_rdata[AQnt+:16]};
        xtm_reg_pkg::XtmRegQLatThresh: rd2_o = b_rdata[ALat+:32];
        xtm_reg_pkg::XtmRegQShaperRate: rd2_o = {8'd0, b_rdata[ASr+:24]};
        xtm_reg_pkg::XtmRegQShaperBurst: rd2_o = {12'd0, b_rdata[ASb+:20]};
        xtm_reg_pkg::XtmRegQTargetRate: rd2_o = {8'd0, b_rdata[ATr+:24]};
        // Q_STATUS.OCB_ONLY (the other fields come from the commit stage)
        xtm_reg_pkg::XtmRegQStatus:
          rd2_o = {30'd0, ocb_only(b_rdata[ALim+:28], b_rdata[ATr+:24], ocb_only_cycles_i), 1'b0};
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------ copy B (stage 4)
  logic b_we, b_csr;
  logic [BW-1:0] b_wdata, b_wmask;
  always_comb begin : c_b_write
    b_csr = 1'b0;
    if (op4_i.wr) begin  // (the register decode only for a write)
      b_csr = op4_i.id == xtm_reg_pkg::XtmRegQCfg || op4_i.id == xtm_reg_pkg::XtmRegQLimitCells ||
              op4_i.id == xtm_reg_pkg::XtmRegQLatThresh ||
              op4_i.id == xtm_reg_pkg::XtmRegQShaperRate ||
              op4_i.id == xtm_reg_pkg::XtmRegQShaperBurst;
    end
    b_we = sweep4 || b_csr;
    b_wmask = '0;
    b_wdata = '0;
    if (sweep4) begin
      b_wmask = '1;
      b_wdata = BRst;
    end else if (b_csr) begin  // (as a_wdata)
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegQCfg: b_wmask[BCfg+:16] = '1;
        xtm_reg_pkg::XtmRegQLimitCells: b_wmask[BLim+:28] = '1;
        xtm_reg_pkg::XtmRegQLatThresh: b_wmask[BLat+:32] = '1;
        xtm_reg_pkg::XtmRegQShaperRate: b_wmask[BSr+:24] = '1;
        xtm_reg_pkg::XtmRegQShaperBurst: b_wmask[BSb+:20] = '1;
        default: ;
      endcase
      b_wdata = {op4_i.wdata[19:0], op4_i.wdata[23:0], op4_i.wdata, op4_i.wdata[27:0],
                 op4_i.wdata[15:0]};
    end
  end

  logic [BW-1:0] bd_rdata, bs_rdata;
  xtm_ram_2r1w #(
    .Width(BW),
    .Depth(NumVoqs),
    .AllowRdWrSame(1'b1)
  ) u_copy_b (
    .clk_i,
    .rst_ni,
    .we_i     (b_we),
    .waddr_i  (sweep4 ? VoqW'(t4_i) : VoqW'(op4_i.voq)),
    .wdata_i  (b_wdata),
    .wmask_i  (b_wmask),
    .a_re_i   (deq_rd_i),
    .a_raddr_i(VoqW'(deq_voq_i)),
    .a_rdata_o(bd_rdata),
    .b_re_i   (scan_rd_i),
    .b_raddr_i(VoqW'(scan_voq_i)),
    .b_rdata_o(bs_rdata)
  );
  assign deq_cfg_o = bd_rdata[BCfg+:16];
  assign deq_limit_o = bd_rdata[BLim+:28];
  assign deq_lat_o = bd_rdata[BLat+:32];
  assign deq_srate_o = bd_rdata[BSr+:24];
  assign deq_sburst_o = bd_rdata[BSb+:20];
  assign scan_srate_o = bs_rdata[BSr+:24];
  assign scan_sburst_o = bs_rdata[BSb+:20];

  // ------------------------------------------------------------------ scheduling flops
  xtm_reg_pkg::q_cfg_t rst_cfg, wr_cfg;
  assign rst_cfg = xtm_reg_pkg::XTM_Q_CFG_RESVAL;
  assign wr_cfg = op4_i.wdata;
  // the quanta as one vector (VOQ v at [16v +: 16]), the port it leaves: an array of 16-bit
  // registers was gathered into quantum_o in every Verilated cycle
  logic [16*NumVoqs-1:0] quantum_q;
  logic wr_cfg4, wr_qnt4;
  always_comb begin : c_wr4
    wr_cfg4 = 1'b0;
    wr_qnt4 = 1'b0;
    if (op4_i.wr) begin  // (the decode only for a write)
      wr_cfg4 = op4_i.id == xtm_reg_pkg::XtmRegQCfg;
      wr_qnt4 = op4_i.id == xtm_reg_pkg::XtmRegQQuantum;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_sched_bits
    if (!rst_ni) begin
      en_o <= {NumVoqs{rst_cfg.enable}};
      strict_o <= {NumVoqs{rst_cfg.strict}};
      rxen_o <= {NumVoqs{rst_cfg.pfc_rx_en}};
      prio_o <= {NumVoqs{rst_cfg.pfc_prio}};
      wden_o <= {NumVoqs{rst_cfg.wd_en}};
      shen_o <= {NumVoqs{rst_cfg.shaper_en}};
      quantum_q <= {NumVoqs{xtm_reg_pkg::XTM_Q_QUANTUM_RESVAL[15:0]}};
    end else begin
      if (wr_cfg4) begin
        en_o[VoqW'(op4_i.voq)] <= wr_cfg.enable;
        strict_o[VoqW'(op4_i.voq)] <= wr_cfg.strict;
        rxen_o[VoqW'(op4_i.voq)] <= wr_cfg.pfc_rx_en;
        prio_o[3*op4_i.voq+:3] <= wr_cfg.pfc_prio;
        wden_o[VoqW'(op4_i.voq)] <= wr_cfg.wd_en;
        shen_o[VoqW'(op4_i.voq)] <= wr_cfg.shaper_en;
      end
      if (wr_qnt4) begin
        quantum_q[16*VoqW'(op4_i.voq)+:16] <= op4_i.wdata[15:0];
      end
    end
  end
  assign quantum_o = quantum_q;

  logic unused_cfg;
  assign unused_cfg = ^{rst_cfg.rsvd31, rst_cfg.no_loss, rst_cfg.ecn_en, rst_cfg.nonect_tail_only,
                        rst_cfg.mark_point, rst_cfg.profile, wr_cfg.rsvd31, wr_cfg.no_loss,
                        wr_cfg.ecn_en, wr_cfg.nonect_tail_only, wr_cfg.mark_point,
                        wr_cfg.profile, b_rdata[AQnt+:16], a_rdata[AQnt+:92],
                        bs_rdata[75:0]};

endmodule
