// SPDX-License-Identifier: Apache-2.0
//
// xtm_core: the traffic manager of docs/spec.md, one cycle per clock. All state lives
// here; the combinational logic is written in the spec's order of operations
// (section 4.1): CSR read sample, PFC reception, watchdog poll, egress output, dequeue
// slot, enqueue, PFC generation, end-of-cycle CSR effects. Each later step sees the
// earlier steps' results through explicit bypass signals (the *_5 values are "after
// step 5"). The C twin is cmodel/xtm/xtm.c; names follow it.

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
  parameter int unsigned NumPgs    = NumPorts * 8,
  parameter int unsigned CellLog2  = $clog2(CellBytes),
  parameter int unsigned DescW     = $clog2(NumDesc) + 1,
  parameter int unsigned FifoW     = $clog2(FifoDepth) + 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  // enqueue descriptor (spec 2.1)
  input  wire logic        enq_valid_i,
  input  wire logic [31:0] enq_pkt_id_i,
  input  wire logic [5:0]  enq_in_port_i,
  input  wire logic [5:0]  enq_eg_port_i,
  input  wire logic [5:0]  enq_dscp_i,
  input  wire logic [1:0]  enq_ecn_i,
  input  wire logic [13:0] enq_len_i,
  // PFC frames received per egress port
  input  wire logic [NumPorts-1:0]            pfc_rx_valid_i,
  input  wire logic [NumPorts*8-1:0] pfc_rx_vec_i,       // port p at [8p +: 8]
  input  wire logic [NumPorts*128-1:0] pfc_rx_quanta_i,  // port p prio i at [16(8p+i) +: 16]
  input  wire logic [NumPorts-1:0]            tx_ready_i,
  // CSR access (one per cycle; the APB adapter in xtm_top drives it in the access phase)
  input  wire logic        csr_valid_i,
  input  wire logic        csr_write_i,
  input  wire logic [15:0] csr_addr_i,
  input  wire logic [31:0] csr_wdata_i,
  output logic [31:0]      csr_rdata_o,
  output logic             csr_err_o,
  // admission result
  output logic        enq_res_valid_o,
  output logic [31:0] enq_res_pkt_id_o,
  output logic [8:0]  enq_res_voq_o,
  output logic [3:0]  enq_res_reason_o,
  output logic        enq_res_marked_o,
  output logic        enq_res_hdrm_o,
  output logic        enq_res_hbm_o,
  // flush removal
  output logic        flush_valid_o,
  output logic [31:0] flush_pkt_id_o,
  output logic [8:0]  flush_voq_o,
  // egress transmission per port
  output logic [NumPorts-1:0]    deq_valid_o,
  // deq_rec_t records, port p at [p*DEQ_REC_W +: DEQ_REC_W]. Ports are flat vectors: Yosys
  // 0.23 drops the array dimension of a packed array of a package type.
  output logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] deq_o,
  // PFC frames sent per ingress port
  output logic [NumPorts-1:0]            pfc_tx_valid_o,
  output logic [NumPorts*8-1:0] pfc_tx_vec_o,
  output logic [NumPorts*128-1:0] pfc_tx_quanta_o
);

  // index widths of the state arrays (a 9-bit VOQ/PG id or 13-bit descriptor pointer is cast
  // to these where it selects an entry)
  localparam int unsigned VoqIdxW  = (NumVoqs > 1) ? $clog2(NumVoqs) : 1;
  localparam int unsigned PgIdxW   = $clog2(NumPgs);
  localparam int unsigned PortIdxW = (NumPorts > 1) ? $clog2(NumPorts) : 1;
  localparam int unsigned DescIdxW = $clog2(NumDesc);
  localparam int unsigned FifoIdxW = (FifoDepth > 1) ? $clog2(FifoDepth) : 1;
  localparam int unsigned CW = xtm_pkg::CELLW;
  localparam int unsigned TW = xtm_pkg::TOKW;
  localparam logic [DescW-1:0] DNIL = '1;

  if (NumPorts < 1 || NumPorts > 64) begin : g_bad_ports
    $fatal(1, "xtm_core: NumPorts must be 1..64");
  end
  if (NumTcs < 1 || NumTcs > 8) begin : g_bad_tcs
    $fatal(1, "xtm_core: NumTcs must be 1..8");
  end

  // ==================================================================== state
  logic [63:0] cycle_q /* verilator public_flat_rd */;
  // global configuration registers (names as in docs/registers.md)
  logic [13:0] max_frame_q;
  logic [CW-1:0] pool_cells_q, evict_q, return_q;
  logic [23:0] ocb_only_q;
  logic [23:0] hbm_wr_rate_q, hbm_rd_rate_q;
  logic [15:0] hbm_wr_burst_q, hbm_rd_burst_q;
  logic [11:0] hbm_rd_lat_q;
  logic [7:0]  ocb_rd_lat_q;
  logic [31:0] lfsr_seed_q;
  logic [31:0] lfsr_q /* verilator public_flat_rd */;
  logic [1:0]  wd_ctrl_q;
  logic [31:0] wd_poll_q;
  logic [7:0]  wd_detect_q, wd_restore_q;
  logic [31:0] tc_pg_map_q, tc_queue_map_q;
  logic [31:0] dscp_map_q [8];
  logic [8:0]  voq_sel_q, pg_sel_q;
  logic [5:0]  port_sel_q;
  logic [2:0]  prof_sel_q;
  logic [2:0]  err_status_q;
  logic [15:0] err_addr_q;
  logic [31:0] cnt_hi_q;
  logic [CW-1:0] pool_wm_q;
  logic [63:0] ecnt_q [xtm_pkg::NumEcnt];
  // buffer
  logic [CW-1:0] pool_used_q /* verilator public_flat_rd */;
  logic [CW-1:0] ocb_used_q /* verilator public_flat_rd */;
  logic [CW-1:0] hbm_used_q /* verilator public_flat_rd */;
  logic signed [TW-1:0] hbm_wr_tok_q, hbm_rd_tok_q;
  logic [DescW-1:0] free_head_q;       // recycled descriptors (LIFO through d_next)
  logic [DescW-1:0] alloc_ptr_q;       // first never-used descriptor
  logic [DescW-1:0] desc_free_q /* verilator public_flat_rd */;
  logic [63:0] wd_next_poll_q;
  logic [5:0] port_rr_q;
  // descriptor pool (no reset: the allocator never reads an unwritten entry)
  logic [DescW-1:0] d_next   [NumDesc];
  logic [31:0]      d_pkt_id [NumDesc];
  logic [31:0]      d_enq    [NumDesc];   // enqueue cycle, low 32 bits (sojourn is mod 2^32)
  logic [13:0]      d_len    [NumDesc];
  logic [5:0]       d_in     [NumDesc];
  logic [5:0]       d_dscp   [NumDesc];
  logic [1:0]       d_ecn    [NumDesc];
  logic [2:0]       d_pg     [NumDesc];
  logic             d_hbm    [NumDesc];
  logic             d_tmark  [NumDesc];
  // per VOQ
  logic [31:0] q_cfg_q [NumVoqs];
  logic [CW-1:0] q_limit_q [NumVoqs];
  logic [15:0] q_quantum_q [NumVoqs];
  logic [31:0] q_lat_q [NumVoqs];
  logic [23:0] q_srate_q [NumVoqs];
  logic [19:0] q_sburst_q [NumVoqs];
  logic [23:0] q_trate_q [NumVoqs];
  logic [DescW-1:0] q_head_q [NumVoqs];
  logic [DescW-1:0] q_tail_q [NumVoqs];
  logic [CW-1:0] q_occ_q [NumVoqs] /* verilator public_flat_rd */;
  logic [20:0] q_pkts_q [NumVoqs] /* verilator public_flat_rd */;
  logic [CW-1:0] q_hbmc_q [NumVoqs] /* verilator public_flat_rd */;
  logic q_hbm_mode_q [NumVoqs] /* verilator public_flat_rd */;
  logic signed [23:0] q_def_q [NumVoqs] /* verilator public_flat_rd */;
  logic q_wd_st_q [NumVoqs] /* verilator public_flat_rd */;  // 1 = STALLED
  logic [7:0] q_storm_q [NumVoqs];
  logic [7:0] q_clean_q [NumVoqs];
  logic q_sent_q [NumVoqs];
  logic signed [TW-1:0] q_tok_q [NumVoqs];
  logic [CW-1:0] q_wm_q [NumVoqs];
  logic [63:0] q_cnt_q [NumVoqs][xtm_pkg::NumVcnt];
  // per port
  logic [31:0] p_scfg_q [NumPorts];
  logic [23:0] p_srate_q [NumPorts];
  logic [19:0] p_sburst_q [NumPorts];
  logic [31:0] p_pq_q [NumPorts];
  logic [15:0] p_quanta_q [NumPorts];
  logic [31:0] p_refresh_q [NumPorts];
  logic signed [TW-1:0] p_tok_q [NumPorts];
  logic [2:0] p_rr_q [NumPorts];
  logic [63:0] p_refresh_at_q [NumPorts];
  // egress FIFOs, entry k of port p at p*FifoDepth+k (one dimension: Yosys 0.23 cannot select
  // an entry of a two-dimensional array with a run-time index)
  xtm_pkg::deq_rec_t p_fifo_q [NumPorts*FifoDepth];
  logic [63:0] p_fifo_rdy_q [NumPorts*FifoDepth];
  logic [FifoW-1:0] p_fhead_q [NumPorts];
  logic [FifoW-1:0] p_fcount_q [NumPorts];
  logic [63:0] p_cnt_q [NumPorts][xtm_pkg::NumPcnt];
  // per (port, priority)
  logic [31:0] g_cfg_q [NumPgs];
  logic [CW-1:0] g_xoff_q [NumPgs];
  logic [CW-1:0] g_xon_q [NumPgs];
  logic [CW-1:0] g_hdrm_q [NumPgs];
  logic [CW-1:0] g_cells_q [NumPgs] /* verilator public_flat_rd */;
  logic [CW-1:0] g_hused_q [NumPgs] /* verilator public_flat_rd */;
  logic g_xoff_st_q [NumPgs] /* verilator public_flat_rd */;
  logic g_evnext_q [NumPgs];
  logic [CW-1:0] g_wm_q [NumPgs];
  logic [CW-1:0] g_hwm_q [NumPgs];
  logic [63:0] g_pause_end_q [NumPgs] /* verilator public_flat_rd */;
  logic g_wdrx_q [NumPgs];
  logic [63:0] g_cnt_q [NumPgs][xtm_pkg::NumGcnt];
  // profiles
  logic [31:0] pr_cfg_q [8];
  logic [135:0] pr_fill_q [8];   // 8 points of 17 bits, point k at [17*k +: 17]
  logic [135:0] pr_prob_q [8];

  // ==================================================================== helpers
  // VOQ_CFG fields (docs/registers.md)
  localparam int unsigned QCFG_EN = 0;
  localparam int unsigned QCFG_STRICT = 1;
  localparam int unsigned QCFG_NOLOSS = 2;
  localparam int unsigned QCFG_ECN = 3;
  localparam int unsigned QCFG_NTAIL = 4;
  localparam int unsigned QCFG_MP = 5;     // 2 bits
  localparam int unsigned QCFG_PROF = 7;   // 3 bits
  localparam int unsigned QCFG_RXEN = 10;
  localparam int unsigned QCFG_PRIO = 11;  // 3 bits
  localparam int unsigned QCFG_WDEN = 14;
  localparam int unsigned QCFG_SHEN = 15;

  // OCB-only rule (spec 5.2), C twin xtm_voq_ocb_only
  function automatic logic ocb_only(input logic [CW-1:0] limit, input logic [23:0] trate,
                                    input logic [23:0] cyc);
    logic [63:0] lhs, rhs;
    lhs = ({36'd0, limit} << CellLog2) << 16;
    rhs = {40'd0, cyc} * {40'd0, trate};
    ocb_only = lhs <= rhs;
  endfunction

  function automatic logic [CW-1:0] min_cells(input logic [CW-1:0] a, input logic [CW-1:0] b);
    min_cells = (a < b) ? a : b;
  endfunction

  logic wd_drop, wd_fwd;
  assign wd_drop = (wd_ctrl_q[1] == 1'b0);
  assign wd_fwd  = (wd_ctrl_q[1] == 1'b1);

  // ==================================================================== 1. CSR read sample
  logic [31:0] rd_data;
  logic rd_is_lo;
  logic [31:0] rd_lo_hi;   // upper half of a 64-bit counter read through _LO

  // ==================================================================== per-cycle logic
  // (everything below is one always_comb; results feed the always_ff at the end)
  // outputs of the comb block
  logic [63:0] pause_end_2 [NumPgs];
  logic paused_2 [NumPgs];
  logic poll_now;
  logic wdrx_2 [NumPgs];   // frame with quanta > 0 since the last poll, this cycle's included
  logic wd_st_3 [NumVoqs];
  logic [7:0] storm_3 [NumVoqs], clean_3 [NumVoqs];
  logic [NumPorts-1:0] out_v;
  logic [FifoW-1:0] fcount_4 [NumPorts];
  // dequeue slot
  logic deq_do, deq_flush, deq_sched;
  logic [8:0] deq_v;
  logic [5:0] deq_p;
  logic [DescW-1:0] deq_d;
  logic [CW-1:0] deq_cells;
  logic [8:0] deq_pg;
  logic deq_marked_head, deq_marked_lat;
  xtm_pkg::deq_rec_t deq_rec;     // the record a scheduled dequeue pushes to its egress FIFO
  logic [31:0] lfsr_5;
  logic deq_return;
  logic deq_rr_upd;
  logic [2:0] deq_rr_new;
  logic [2:0] deq_qi;             // queue index of the dequeued VOQ
  logic signed [23:0] deq_def_new;  // its deficit after this cycle
  logic deq_strict;
  logic dwrr_round;            // a DWRR round was added at the winning port
  logic [5:0] win_p;
  logic win_valid;
  logic [7:0] win_elig;
  logic [5:0] port_rr_5;
  // enqueue
  logic [3:0] enq_rsn;
  logic enq_acc, enq_marked, enq_hdrm, enq_hbm, enq_evict, enq_classified;
  logic [8:0] enq_v;
  logic [8:0] enq_g;
  logic [CW-1:0] enq_cells;
  logic [DescW-1:0] enq_d;
  logic enq_from_bump;
  logic [DescW-1:0] free_head_6;
  logic [31:0] lfsr_6;
  // PFC generation
  logic g_xoff_7 [NumPgs];
  logic [NumPorts*8-1:0] set_m, rel_m, xmask_7;   // bit p*8+i: port p, priority i
  // flat views of the per-port, per-priority ports: element (p, i) at p*8+i
  logic [NumPorts*8-1:0] rx_vec;
  logic [NumPorts*128-1:0] rx_quanta, tx_quanta;
  assign rx_vec = pfc_rx_vec_i;
  assign rx_quanta = pfc_rx_quanta_i;
  assign pfc_tx_quanta_o = tx_quanta;
  logic [NumPorts-1:0] pfc_send;

  // --- bypass values of step 5 for the enqueue's VOQ / PG / totals
  logic [CW-1:0] pool_used_5, ocb_used_5, hbm_used_5;
  logic [DescW-1:0] desc_free_5, free_head_5;

  always_comb begin : c_cycle
    // ------------------------------------------------------------ locals
    logic [63:0] t;
    logic [63:0] prod;
    logic any_flush;
    logic [8:0] fv;
    logic req [NumPorts];
    logic [7:0] elig [NumPorts];
    logic [5:0] pp;
    logic found;
    int sel;
    logic signed [24:0] dtmp;
    logic [1:0] pe_code;             // xtm_pkg::prof_eval_t, unpacked
    logic signed [63:0] pe_dn, pe_num;
    logic [31:0] r32;
    logic hit;
    logic [CW-1:0] occ_b, occ_a;
    logic [2:0] tc, qq, pg3;
    logic [CW-1:0] e_occ, e_hused;
    logic e_mode;
    logic ect;
    logic drop_elig;
    logic [CW-1:0] free_c, xoff_t, xon_t;
    logic [CW-1:0] pgc_end [NumPgs];
    logic eval;
    logic signed [TW-1:0] tok;

    t = cycle_q;
    prod = '0;
    any_flush = 1'b0; fv = '0; pp = '0; found = 1'b0; sel = 0; dtmp = '0; r32 = '0;
    pe_code = '0; pe_dn = '0; pe_num = '0;
    hit = 1'b0; occ_b = '0; occ_a = '0; tc = '0; qq = '0; pg3 = '0; e_occ = '0;
    e_hused = '0; e_mode = 1'b0; ect = 1'b0; drop_elig = 1'b0; free_c = '0; xoff_t = '0;
    xon_t = '0; eval = 1'b0; tok = '0;
    for (int p = 0; p < NumPorts; p++) begin
      req[p] = 1'b0;
      elig[p] = '0;
    end
    for (int g = 0; g < NumPgs; g++) begin
      pgc_end[g] = '0;
    end

    // ------------------------------------------------------------ 2. PFC reception
    for (int p = 0; p < NumPorts; p++) begin
      for (int i = 0; i < 8; i++) begin
        pause_end_2[p*8+i] = g_pause_end_q[p*8+i];
        if (pfc_rx_valid_i[p] && rx_vec[p*8+i]) begin
          prod = {48'd0, rx_quanta[(p*8+i)*16+:16]} * {32'd0, p_pq_q[p]};
          pause_end_2[p*8+i] = t + ((prod + 64'hFFFF) >> 16);
        end
        paused_2[p*8+i] = t < pause_end_2[p*8+i];
        wdrx_2[p*8+i] = g_wdrx_q[p*8+i] ||
                        (pfc_rx_valid_i[p] && rx_vec[p*8+i] && rx_quanta[(p*8+i)*16+:16] != '0);
      end
    end
    for (int g = $signed(32'(NumPorts)) * 8; g < NumPgs; g++) begin
      pause_end_2[g] = '0;
      paused_2[g] = 1'b0;
      wdrx_2[g] = 1'b0;
    end

    // ------------------------------------------------------------ 3. watchdog poll
    poll_now = (t == wd_next_poll_q);
    for (int v = 0; v < NumVoqs; v++) begin
      wd_st_3[v] = q_wd_st_q[v];
      storm_3[v] = q_storm_q[v];
      clean_3[v] = q_clean_q[v];
      if (poll_now && wd_ctrl_q[0] && q_cfg_q[v][QCFG_WDEN]) begin
        if (!q_wd_st_q[v]) begin
          if (q_cfg_q[v][QCFG_RXEN] && paused_2[(v / NumTcs) * 8 + 32'(q_cfg_q[v][QCFG_PRIO+:3])] &&
              q_pkts_q[v] != '0 && !q_sent_q[v]) begin
            storm_3[v] = (q_storm_q[v] == 8'hFF) ? 8'hFF : q_storm_q[v] + 8'd1;
            if (storm_3[v] >= wd_detect_q) begin
              wd_st_3[v] = 1'b1;
              storm_3[v] = '0;
              clean_3[v] = '0;
            end
          end else begin
            storm_3[v] = '0;
          end
        end else begin
          if (wdrx_2[(v / NumTcs) * 8 + 32'(q_cfg_q[v][QCFG_PRIO+:3])]) begin
            clean_3[v] = '0;
          end else if (q_clean_q[v] != 8'hFF) begin
            clean_3[v] = q_clean_q[v] + 8'd1;
          end
          if (clean_3[v] >= wd_restore_q) begin
            wd_st_3[v] = 1'b0;
            storm_3[v] = '0;
            clean_3[v] = '0;
          end
        end
      end
    end

    // ------------------------------------------------------------ 4. egress output
    for (int p = 0; p < NumPorts; p++) begin
      out_v[p] = (p_fcount_q[p] != '0) && tx_ready_i[p] &&
                 (t >= p_fifo_rdy_q[p*FifoDepth+32'(p_fhead_q[p])]);
      fcount_4[p] = p_fcount_q[p] - FifoW'(out_v[p]);
    end

    // ------------------------------------------------------------ 5. dequeue slot
    deq_do = 1'b0; deq_flush = 1'b0; deq_sched = 1'b0;
    deq_v = '0; deq_p = '0; deq_d = '0; deq_cells = '0; deq_pg = '0;
    deq_marked_head = 1'b0; deq_marked_lat = 1'b0; deq_return = 1'b0;
    deq_rr_upd = 1'b0; deq_rr_new = '0; deq_strict = 1'b0; dwrr_round = 1'b0;
    deq_qi = '0; deq_def_new = '0;
    win_p = '0; win_valid = 1'b0; win_elig = '0;
    port_rr_5 = port_rr_q;
    lfsr_5 = lfsr_q;
    occ_b = '0; occ_a = '0;
    any_flush = 1'b0;
    fv = '0;
    for (int v = $signed(32'(NumVoqs)) - 1; v >= 0; v--) begin
      if (q_pkts_q[v] != '0 && (!q_cfg_q[v][QCFG_EN] || (wd_st_3[v] && wd_drop))) begin
        any_flush = 1'b1;
        fv = 9'(v);
      end
    end
    for (int p = 0; p < NumPorts; p++) begin
      elig[p] = '0;
      for (int q = 0; q < NumTcs; q++) begin
        if (q_pkts_q[p*NumTcs+q] != '0 &&
            q_cfg_q[p*NumTcs+q][QCFG_EN] && !(wd_st_3[p*NumTcs+q] && wd_drop) &&
            !(q_cfg_q[p*NumTcs+q][QCFG_RXEN] &&
              paused_2[p*8+32'(q_cfg_q[p*NumTcs+q][QCFG_PRIO+:3])] &&
              !(wd_st_3[p*NumTcs+q] && wd_fwd)) &&
            !(q_cfg_q[p*NumTcs+q][QCFG_SHEN] &&
              xtm_pkg::tb_refill(q_tok_q[p*NumTcs+q], q_srate_q[p*NumTcs+q],
                                 q_sburst_q[p*NumTcs+q]) < 0) &&
            !(d_hbm[DescIdxW'(q_head_q[p*NumTcs+q])] &&
              xtm_pkg::tb_refill(hbm_rd_tok_q, hbm_rd_rate_q, {4'd0, hbm_rd_burst_q}) < 0)) begin
          elig[p][q] = 1'b1;
        end
      end
      req[p] = (elig[p] != '0) && (fcount_4[p] < FifoW'(FifoDepth)) &&
               !(p_scfg_q[p][0] &&
                 xtm_pkg::tb_refill(p_tok_q[p], p_srate_q[p], p_sburst_q[p]) < 0);
    end
    if (any_flush) begin
      deq_do = 1'b1;
      deq_flush = 1'b1;
      deq_v = fv;
      deq_qi = 3'($signed(32'(fv)) % $signed(32'(NumTcs)));
    end else begin
      found = 1'b0;
      for (int k = 0; k < NumPorts; k++) begin
        pp = 6'(($signed(32'(port_rr_q)) + k) % $signed(32'(NumPorts)));
        if (!found && req[PortIdxW'(pp)]) begin
          found = 1'b1;
          win_p = pp;
        end
      end
      if (found) begin
        win_valid = 1'b1;
        win_elig = elig[PortIdxW'(win_p)];
        port_rr_5 = ({1'b0, win_p} + 7'd1 == 7'(NumPorts)) ? 6'd0 : win_p + 6'd1;  // 7 bits: 64 ports
        sel = -1;
        // strict: highest eligible strict queue
        for (int q = 0; q < NumTcs; q++) begin
          if (win_elig[q] && q_cfg_q[win_p*NumTcs+q][QCFG_STRICT]) begin
            sel = q;
          end
        end
        if (sel >= 0) begin
          deq_strict = 1'b1;
        end else begin
          // DWRR search (spec 9.3)
          for (int k = 0; k < NumTcs; k++) begin
            qq = 3'(($signed(32'(p_rr_q[PortIdxW'(win_p)])) + k) % $signed(32'(NumTcs)));
            if (sel < 0 && win_elig[qq] && q_def_q[win_p*NumTcs+32'(qq)] > 0) begin
              sel = $signed(32'(qq));
            end
          end
          if (sel < 0) begin
            dwrr_round = 1'b1;
            for (int k = 0; k < NumTcs; k++) begin
              qq = 3'(($signed(32'(p_rr_q[PortIdxW'(win_p)])) + k) % $signed(32'(NumTcs)));
              if (sel < 0 && win_elig[qq] &&
                  q_def_q[win_p*NumTcs+32'(qq)] +
                  $signed({8'd0, q_quantum_q[win_p*NumTcs+32'(qq)]}) > 0)
              begin
                sel = $signed(32'(qq));
              end
            end
          end
        end
        if (sel >= 0) begin
          deq_do = 1'b1;
          deq_sched = 1'b1;
          deq_v = 9'($signed(32'(win_p)) * $signed(32'(NumTcs)) + sel);
          deq_p = win_p;
          deq_qi = 3'(sel);
        end
      end
    end
    if (deq_do) begin
      deq_d = q_head_q[VoqIdxW'(deq_v)];
      deq_cells = CW'(({18'd0, d_len[DescIdxW'(deq_d)]} + 32'(CellBytes) - 32'd1) >> CellLog2);
      deq_pg = 9'({d_in[DescIdxW'(deq_d)], d_pg[DescIdxW'(deq_d)]});
      occ_b = q_occ_q[VoqIdxW'(deq_v)];
      occ_a = q_occ_q[VoqIdxW'(deq_v)] - deq_cells;
      deq_return = q_hbm_mode_q[VoqIdxW'(deq_v)] && (occ_a <= return_q);
    end
    if (deq_sched) begin
      // marking at dequeue (spec 6.3)
      if (q_cfg_q[VoqIdxW'(deq_v)][QCFG_ECN] &&
          (d_ecn[DescIdxW'(deq_d)] == 2'b01 || d_ecn[DescIdxW'(deq_d)] == 2'b10)) begin
        if (q_cfg_q[VoqIdxW'(deq_v)][QCFG_MP+:2] == 2'd1) begin
          {pe_code, pe_dn, pe_num} = xtm_pkg::profile_eval(
              pr_cfg_q[q_cfg_q[VoqIdxW'(deq_v)][QCFG_PROF+:3]][0],
                                     pr_cfg_q[q_cfg_q[VoqIdxW'(deq_v)][QCFG_PROF+:3]][7:4],
                                     pr_fill_q[q_cfg_q[VoqIdxW'(deq_v)][QCFG_PROF+:3]],
                                     pr_prob_q[q_cfg_q[VoqIdxW'(deq_v)][QCFG_PROF+:3]],
                                     occ_b, q_limit_q[VoqIdxW'(deq_v)]);
          hit = (pe_code == 2'd1);
          if (pe_code == 2'd2) begin
            lfsr_5 = xtm_pkg::lfsr_draw(lfsr_q);
            hit = $signed({48'd0, lfsr_5[15:0]}) * pe_dn < pe_num;
          end
          deq_marked_head = hit;
        end else if (q_cfg_q[VoqIdxW'(deq_v)][QCFG_MP+:2] == 2'd2) begin
          r32 = t[31:0] - d_enq[DescIdxW'(deq_d)];
          deq_marked_lat = r32 > q_lat_q[VoqIdxW'(deq_v)];
        end
      end
      // DWRR charge and pointer (spec 9.3)
      if (!deq_strict) begin
        dtmp = $signed({q_def_q[VoqIdxW'(deq_v)][23], q_def_q[VoqIdxW'(deq_v)]}) +
               (dwrr_round ? $signed({9'd0, q_quantum_q[VoqIdxW'(deq_v)]}) : 25'sd0) -
               $signed({11'd0, d_len[DescIdxW'(deq_d)]});
        deq_rr_upd = 1'b1;
        if (dtmp <= 0 || q_pkts_q[VoqIdxW'(deq_v)] == 21'd1) begin
          deq_rr_new = (32'(deq_qi) + 1 == NumTcs) ? 3'd0 : deq_qi + 3'd1;
        end else begin
          deq_rr_new = deq_qi;
        end
        deq_def_new = dtmp[23:0];
      end else begin
        deq_def_new = q_def_q[VoqIdxW'(deq_v)];
      end
    end else if (deq_flush) begin
      deq_def_new = q_def_q[VoqIdxW'(deq_v)];
    end
    // a VOQ emptied keeps no positive deficit (spec 9.3)
    if (deq_do && q_pkts_q[VoqIdxW'(deq_v)] == 21'd1 && deq_def_new > 0) begin
      deq_def_new = '0;
    end

    deq_rec = '0;
    if (deq_sched) begin
      deq_rec.pkt_id = d_pkt_id[DescIdxW'(deq_d)];
      deq_rec.voq = deq_v;
      deq_rec.in_port = d_in[DescIdxW'(deq_d)];
      deq_rec.len = d_len[DescIdxW'(deq_d)];
      deq_rec.dscp = d_dscp[DescIdxW'(deq_d)];
      deq_rec.ecn = (deq_marked_head || deq_marked_lat) ? 2'b11 : d_ecn[DescIdxW'(deq_d)];
      deq_rec.marked = deq_marked_head || deq_marked_lat || d_tmark[DescIdxW'(deq_d)];
      deq_rec.hbm = d_hbm[DescIdxW'(deq_d)];
      deq_rec.sojourn = t[31:0] - d_enq[DescIdxW'(deq_d)];
    end

    // step-5 totals for the enqueue
    pool_used_5 = pool_used_q - (deq_do ? deq_cells : '0);
    ocb_used_5 = ocb_used_q - ((deq_do && !d_hbm[DescIdxW'(deq_d)]) ? deq_cells : '0);
    hbm_used_5 = hbm_used_q - ((deq_do && d_hbm[DescIdxW'(deq_d)]) ? deq_cells : '0);
    desc_free_5 = desc_free_q + (deq_do ? DescW'(1) : '0);
    free_head_5 = deq_do ? deq_d : free_head_q;

    // ------------------------------------------------------------ 6. enqueue
    enq_rsn = xtm_pkg::RsnAccept;
    enq_acc = 1'b0; enq_marked = 1'b0; enq_hdrm = 1'b0; enq_hbm = 1'b0; enq_evict = 1'b0;
    enq_classified = 1'b0;
    enq_v = '0; enq_g = '0; enq_cells = '0; enq_d = '0; enq_from_bump = 1'b0;
    free_head_6 = free_head_5;
    lfsr_6 = lfsr_5;
    tc = dscp_map_q[enq_dscp_i[5:3]][4*enq_dscp_i[2:0] +: 3];
    qq = tc_queue_map_q[4*tc +: 3];
    pg3 = tc_pg_map_q[4*tc +: 3];
    e_occ = '0; e_hused = '0; e_mode = 1'b0;
    if (enq_valid_i) begin
      if (t < 64'(NumVoqs)) begin
        enq_rsn = xtm_pkg::RsnNotReady;
      end else if (enq_len_i == '0) begin
        enq_rsn = xtm_pkg::RsnLenZero;
      end else if (enq_len_i > max_frame_q) begin
        enq_rsn = xtm_pkg::RsnLenMax;
      end else if ({1'b0, enq_in_port_i} >= 7'(NumPorts) ||
                   {1'b0, enq_eg_port_i} >= 7'(NumPorts)) begin  // 7 bits: 64 ports
        enq_rsn = xtm_pkg::RsnBadPort;
      end else if (32'(tc) >= NumTcs || 32'(qq) >= NumTcs) begin
        enq_rsn = xtm_pkg::RsnBadTc;
      end else begin
        enq_classified = 1'b1;
        enq_v = 9'($signed(32'(enq_eg_port_i)) * $signed(32'(NumTcs)) + $signed(32'(qq)));
        enq_g = 9'({enq_in_port_i, pg3});
        enq_cells = CW'(({18'd0, enq_len_i} + 32'(CellBytes) - 32'd1) >> CellLog2);
        // post-dequeue views (bypass of step 5)
        e_occ = q_occ_q[VoqIdxW'(enq_v)] - ((deq_do && deq_v == enq_v) ? deq_cells : '0);
        e_mode = q_hbm_mode_q[VoqIdxW'(enq_v)] && !(deq_do && deq_v == enq_v && deq_return);
        e_hused = g_hused_q[PgIdxW'(enq_g)];
        if (deq_do && deq_pg == enq_g) begin
          e_hused = g_hused_q[PgIdxW'(enq_g)] - min_cells(g_hused_q[PgIdxW'(enq_g)], deq_cells);
        end
        if (!q_cfg_q[VoqIdxW'(enq_v)][QCFG_EN]) begin
          enq_rsn = xtm_pkg::RsnQDisabled;
        end else if (wd_st_3[VoqIdxW'(enq_v)] && wd_drop) begin
          enq_rsn = xtm_pkg::RsnWd;
        end else if (g_cfg_q[PgIdxW'(enq_g)][0] && g_xoff_st_q[PgIdxW'(enq_g)]) begin
          if ({4'd0, e_hused} + {4'd0, enq_cells} > {4'd0, g_hdrm_q[PgIdxW'(enq_g)]}) begin
            enq_rsn = xtm_pkg::RsnHeadroom;
          end else begin
            enq_hdrm = 1'b1;
          end
        end else if ({4'd0, e_occ} + {4'd0, enq_cells} > {4'd0, q_limit_q[VoqIdxW'(enq_v)]}) begin
          enq_rsn = xtm_pkg::RsnTail;
        end else if ({4'd0, pool_used_5} + {4'd0, enq_cells} > {4'd0, pool_cells_q}) begin
          enq_rsn = xtm_pkg::RsnPool;
        end else begin
          ect = (enq_ecn_i == 2'b01 || enq_ecn_i == 2'b10);
          drop_elig = !q_cfg_q[VoqIdxW'(enq_v)][QCFG_NOLOSS] &&
                      !(q_cfg_q[VoqIdxW'(enq_v)][QCFG_ECN] && q_cfg_q[VoqIdxW'(enq_v)][QCFG_NTAIL]);
          eval = 1'b0;
          if (q_cfg_q[VoqIdxW'(enq_v)][QCFG_ECN] && ect) begin
            eval = (q_cfg_q[VoqIdxW'(enq_v)][QCFG_MP+:2] == 2'd0);
          end else if (!(q_cfg_q[VoqIdxW'(enq_v)][QCFG_ECN] && enq_ecn_i == 2'b11)) begin
            eval = drop_elig;
          end
          if (eval) begin
            {pe_code, pe_dn, pe_num} = xtm_pkg::profile_eval(
                pr_cfg_q[q_cfg_q[VoqIdxW'(enq_v)][QCFG_PROF+:3]][0],
                                       pr_cfg_q[q_cfg_q[VoqIdxW'(enq_v)][QCFG_PROF+:3]][7:4],
                                       pr_fill_q[q_cfg_q[VoqIdxW'(enq_v)][QCFG_PROF+:3]],
                                       pr_prob_q[q_cfg_q[VoqIdxW'(enq_v)][QCFG_PROF+:3]],
                                       e_occ, q_limit_q[VoqIdxW'(enq_v)]);
            hit = (pe_code == 2'd1);
            if (pe_code == 2'd2) begin
              lfsr_6 = xtm_pkg::lfsr_draw(lfsr_5);
              hit = $signed({48'd0, lfsr_6[15:0]}) * pe_dn < pe_num;
            end
            if (hit) begin
              if (q_cfg_q[VoqIdxW'(enq_v)][QCFG_ECN] && ect) begin
                enq_marked = 1'b1;
              end else begin
                enq_rsn = xtm_pkg::RsnProfile;
              end
            end
          end
        end
        if (enq_rsn == xtm_pkg::RsnAccept) begin
          // eviction (spec 5.2), then placement (5.3)
          if (!e_mode && e_occ >= evict_q &&
              !ocb_only(q_limit_q[VoqIdxW'(enq_v)], q_trate_q[VoqIdxW'(enq_v)], ocb_only_q)) begin
            enq_evict = 1'b1;
          end
          tok = xtm_pkg::tb_refill(hbm_wr_tok_q, hbm_wr_rate_q, {4'd0, hbm_wr_burst_q});
          if (desc_free_5 == '0) begin
            enq_rsn = xtm_pkg::RsnBufFull;
          end else if ((e_mode || enq_evict) && tok >= 0 &&
                       {4'd0, hbm_used_5} + {4'd0, enq_cells} <= 32'(HbmCells)) begin
            enq_hbm = 1'b1;
          end else if ({4'd0, ocb_used_5} + {4'd0, enq_cells} > 32'(OcbCells)) begin
            enq_rsn = xtm_pkg::RsnBufFull;
          end
        end
        if (enq_rsn == xtm_pkg::RsnAccept) begin
          enq_acc = 1'b1;
          if (free_head_5 != DNIL) begin
            enq_d = free_head_5;
            free_head_6 = (deq_do && free_head_5 == deq_d) ? free_head_q :
                          d_next[DescIdxW'(free_head_5)];
          end else begin
            enq_d = alloc_ptr_q;
            enq_from_bump = 1'b1;
          end
        end else begin
          enq_hdrm = 1'b0;
          enq_hbm = 1'b0;
          enq_marked = 1'b0;
        end
      end
    end

    // ------------------------------------------------------------ 7. PFC generation
    free_c = '0;
    for (int g = 0; g < NumPgs; g++) begin
      pgc_end[g] = g_cells_q[g] - ((deq_do && deq_pg == 9'(g)) ? deq_cells : '0) +
                   ((enq_acc && enq_g == 9'(g)) ? enq_cells : '0);
    end
    begin
      logic [CW-1:0] pool_end;
      pool_end = pool_used_5 + (enq_acc ? enq_cells : '0);
      free_c = (pool_cells_q > pool_end) ? pool_cells_q - pool_end : '0;
    end
    set_m = '0;
    rel_m = '0;
    for (int g = 0; g < NumPgs; g++) begin
      g_xoff_7[g] = g_xoff_st_q[g];
      eval = g_evnext_q[g] || (deq_do && deq_pg == 9'(g)) || (enq_acc && enq_g == 9'(g));
      if (g_cfg_q[g][1]) begin
        xoff_t = free_c >> g_cfg_q[g][7:4];
        xon_t = (xoff_t > g_xon_q[g]) ? xoff_t - g_xon_q[g] : '0;
      end else begin
        xoff_t = g_xoff_q[g];
        xon_t = g_xon_q[g];
      end
      if (eval) begin
        if (g_cfg_q[g][0] && !g_xoff_st_q[g] && pgc_end[g] >= xoff_t) begin
          g_xoff_7[g] = 1'b1;
          set_m[g] = 1'b1;
        end else if (g_xoff_st_q[g] && (!g_cfg_q[g][0] || pgc_end[g] <= xon_t)) begin
          g_xoff_7[g] = 1'b0;
          rel_m[g] = 1'b1;
        end
      end
    end
    for (int p = 0; p < NumPorts; p++) begin
      for (int i = 0; i < 8; i++) begin
        xmask_7[p*8+i] = g_xoff_7[p*8+i];
      end
      pfc_send[p] = (set_m[p*8+:8] != '0) || (rel_m[p*8+:8] != '0) ||
                    (xmask_7[p*8+:8] != '0 && t >= p_refresh_at_q[p]);
    end
  end

  // ==================================================================== outputs
  // the transmitted records as one vector (the byte counter reads their len fields)
  logic [NumPorts*xtm_pkg::DEQ_REC_W-1:0] deq_flat;
  assign deq_flat = deq_o;
  always_comb begin : c_out
    enq_res_valid_o  = enq_valid_i;
    enq_res_pkt_id_o = enq_pkt_id_i;
    enq_res_voq_o    = enq_classified ? enq_v : '0;
    enq_res_reason_o = enq_rsn;
    enq_res_marked_o = enq_marked;
    enq_res_hdrm_o   = enq_hdrm;
    enq_res_hbm_o    = enq_hbm;
    flush_valid_o    = deq_flush;
    flush_pkt_id_o   = deq_flush ? d_pkt_id[DescIdxW'(deq_d)] : '0;
    flush_voq_o      = deq_flush ? deq_v : '0;
    for (int p = 0; p < NumPorts; p++) begin
      deq_valid_o[p] = out_v[p];
      deq_o[p*xtm_pkg::DEQ_REC_W+:xtm_pkg::DEQ_REC_W] =
          out_v[p] ? p_fifo_q[p*FifoDepth+32'(p_fhead_q[p])] : '0;
      pfc_tx_valid_o[p] = pfc_send[p];
      pfc_tx_vec_o[p*8+:8] = pfc_send[p] ? (xmask_7[p*8+:8] | rel_m[p*8+:8]) : '0;
      for (int i = 0; i < 8; i++) begin
        tx_quanta[(p*8+i)*16+:16] = (pfc_send[p] && xmask_7[p*8+i]) ? p_quanta_q[p] : '0;
      end
    end
  end

  // ==================================================================== 1. CSR read mux (S(t))
  logic [8:0] vs, gs;
  logic [5:0] ps;
  logic [2:0] fs;
  assign vs = voq_sel_q;
  assign gs = pg_sel_q;
  assign ps = port_sel_q;
  assign fs = prof_sel_q;
  // selector bits above the array index width stay 0 (writes are range-checked, spec 10)
  logic unused_sel;
  assign unused_sel = ^{vs, gs};

  function automatic logic [31:0] sat32(input logic [63:0] v);
    sat32 = (v > 64'hFFFF_FFFF) ? 32'hFFFF_FFFF : v[31:0];
  endfunction

  logic a_mapped, a_ro;     // decode of csr_addr_i
  always_comb begin : c_csr_read
    logic [15:0] a;
    logic [63:0] c64;
    logic [7:0] pm;
    a = csr_addr_i;
    rd_data = '0;
    rd_is_lo = 1'b0;
    rd_lo_hi = '0;
    a_mapped = 1'b1;
    a_ro = 1'b0;
    c64 = '0;
    pm = '0;
    for (int i = 0; i < 8; i++) begin
      pm[i] = cycle_q < g_pause_end_q[$signed(32'(ps))*8+i];
    end
    if (a[1:0] != 2'b00) begin
      a_mapped = 1'b0;
    end else if (a >= 16'h00C0 && a < 16'h00F0) begin
      // global 64-bit counters
      a_ro = 1'b1;
      c64 = ecnt_q[3'((a - 16'h00C0) >> 3)];
      rd_is_lo = !a[2];
      rd_lo_hi = c64[63:32];
      rd_data = a[2] ? cnt_hi_q : c64[31:0];
    end else if (a >= 16'h0240 && a < 16'h02E8) begin
      a_ro = 1'b1;
      c64 = q_cnt_q[VoqIdxW'(vs)][5'((a - 16'h0240) >> 3)];
      rd_is_lo = !a[2];
      rd_lo_hi = c64[63:32];
      rd_data = a[2] ? cnt_hi_q : c64[31:0];
    end else if (a >= 16'h0320 && a < 16'h0340) begin
      a_ro = 1'b1;
      c64 = p_cnt_q[PortIdxW'(ps)][2'((a - 16'h0320) >> 3)];
      rd_is_lo = !a[2];
      rd_lo_hi = c64[63:32];
      rd_data = a[2] ? cnt_hi_q : c64[31:0];
    end else if (a >= 16'h0440 && a < 16'h0468) begin
      a_ro = 1'b1;
      c64 = g_cnt_q[PgIdxW'(gs)][3'((a - 16'h0440) >> 3)];
      rd_is_lo = !a[2];
      rd_lo_hi = c64[63:32];
      rd_data = a[2] ? cnt_hi_q : c64[31:0];
    end else if (a >= 16'h0520 && a < 16'h0540) begin
      rd_data = {15'd0, pr_fill_q[fs][17*32'(3'((a - 16'h0520) >> 2))+:17]};
    end else if (a >= 16'h0540 && a < 16'h0560) begin
      rd_data = {15'd0, pr_prob_q[fs][17*32'(3'((a - 16'h0540) >> 2))+:17]};
    end else if (a >= 16'h0080 && a < 16'h00A0) begin
      rd_data = dscp_map_q[3'((a - 16'h0080) >> 2)];
    end else begin
      unique case (a)
        16'h0000: begin rd_data = xtm_reg_pkg::XTM_BLOCK_TYPE_VALUE; a_ro = 1'b1; end
        16'h0004: begin rd_data = xtm_reg_pkg::XTM_VERSION_RESVAL; a_ro = 1'b1; end
        16'h0008: begin
          rd_data = {8'd0, 8'(FifoDepth), 4'(CellLog2), 4'(NumTcs), 8'(NumPorts)};
          a_ro = 1'b1;
        end
        16'h000C: begin rd_data = 32'(NumDesc); a_ro = 1'b1; end
        16'h0010: begin rd_data = 32'(OcbCells); a_ro = 1'b1; end
        16'h0014: begin rd_data = 32'(HbmCells); a_ro = 1'b1; end
        16'h0018: rd_data = '0;
        16'h001C: begin rd_data = {31'd0, cycle_q >= 64'(NumVoqs)}; a_ro = 1'b1; end
        16'h0020: rd_data = {29'd0, err_status_q};
        16'h0024: begin rd_data = {16'd0, err_addr_q}; a_ro = 1'b1; end
        16'h0028: begin rd_data = cnt_hi_q; a_ro = 1'b1; end
        16'h0030: rd_data = {18'd0, max_frame_q};
        16'h0034: rd_data = {4'd0, pool_cells_q};
        16'h0038: rd_data = {8'd0, ocb_only_q};
        16'h003C: rd_data = {4'd0, evict_q};
        16'h0040: rd_data = {4'd0, return_q};
        16'h0044: rd_data = {8'd0, hbm_wr_rate_q};
        16'h0048: rd_data = {16'd0, hbm_wr_burst_q};
        16'h004C: rd_data = {8'd0, hbm_rd_rate_q};
        16'h0050: rd_data = {16'd0, hbm_rd_burst_q};
        16'h0054: rd_data = {20'd0, hbm_rd_lat_q};
        16'h0058: rd_data = {24'd0, ocb_rd_lat_q};
        16'h005C: rd_data = lfsr_seed_q;
        16'h0060: begin rd_data = lfsr_q; a_ro = 1'b1; end
        16'h0064: rd_data = {30'd0, wd_ctrl_q};
        16'h0068: rd_data = wd_poll_q;
        16'h006C: rd_data = {24'd0, wd_detect_q};
        16'h0070: rd_data = {24'd0, wd_restore_q};
        16'h0074: rd_data = tc_pg_map_q;
        16'h0078: rd_data = tc_queue_map_q;
        16'h00A0: begin rd_data = {4'd0, pool_used_q}; a_ro = 1'b1; end
        16'h00A4: begin rd_data = {4'd0, pool_wm_q}; a_ro = 1'b1; end
        16'h00A8: begin rd_data = {4'd0, ocb_used_q}; a_ro = 1'b1; end
        16'h00AC: begin rd_data = {4'd0, hbm_used_q}; a_ro = 1'b1; end
        16'h00B0: begin rd_data = 32'(desc_free_q); a_ro = 1'b1; end
        16'h0100: rd_data = {23'd0, voq_sel_q};
        16'h0104: rd_data = {26'd0, port_sel_q};
        16'h0108: rd_data = {23'd0, pg_sel_q};
        16'h010C: rd_data = {29'd0, prof_sel_q};
        16'h0200: rd_data = q_cfg_q[VoqIdxW'(vs)];
        16'h0204: rd_data = {4'd0, q_limit_q[VoqIdxW'(vs)]};
        16'h0208: rd_data = {16'd0, q_quantum_q[VoqIdxW'(vs)]};
        16'h020C: rd_data = q_lat_q[VoqIdxW'(vs)];
        16'h0210: rd_data = {8'd0, q_srate_q[VoqIdxW'(vs)]};
        16'h0214: rd_data = {12'd0, q_sburst_q[VoqIdxW'(vs)]};
        16'h0218: rd_data = {8'd0, q_trate_q[VoqIdxW'(vs)]};
        16'h021C: begin
          rd_data = {8'd0, q_clean_q[VoqIdxW'(vs)], q_storm_q[VoqIdxW'(vs)], 4'd0,
                     q_pkts_q[VoqIdxW'(vs)] != '0 && (!q_cfg_q[VoqIdxW'(vs)][QCFG_EN] ||
                                                  (q_wd_st_q[VoqIdxW'(vs)] && wd_drop)),
                     q_wd_st_q[VoqIdxW'(vs)],
                     ocb_only(q_limit_q[VoqIdxW'(vs)], q_trate_q[VoqIdxW'(vs)], ocb_only_q),
                     q_hbm_mode_q[VoqIdxW'(vs)]};
          a_ro = 1'b1;
        end
        16'h0220: begin rd_data = {4'd0, q_occ_q[VoqIdxW'(vs)]}; a_ro = 1'b1; end
        16'h0224: begin rd_data = {11'd0, q_pkts_q[VoqIdxW'(vs)]}; a_ro = 1'b1; end
        16'h0228: begin rd_data = {4'd0, q_hbmc_q[VoqIdxW'(vs)]}; a_ro = 1'b1; end
        16'h022C: begin
          rd_data = {{8{q_def_q[VoqIdxW'(vs)][23]}}, q_def_q[VoqIdxW'(vs)]};
          a_ro = 1'b1;
        end
        16'h0230: begin rd_data = {4'd0, q_wm_q[VoqIdxW'(vs)]}; a_ro = 1'b1; end
        16'h0300: rd_data = p_scfg_q[PortIdxW'(ps)];
        16'h0304: rd_data = {8'd0, p_srate_q[PortIdxW'(ps)]};
        16'h0308: rd_data = {12'd0, p_sburst_q[PortIdxW'(ps)]};
        16'h030C: rd_data = p_pq_q[PortIdxW'(ps)];
        16'h0310: rd_data = {16'd0, p_quanta_q[PortIdxW'(ps)]};
        16'h0314: rd_data = p_refresh_q[PortIdxW'(ps)];
        16'h0318: begin
          rd_data = {8'd0, 8'(p_fcount_q[PortIdxW'(ps)]), pm,
                     g_xoff_st_q[$signed(32'(ps))*8+7], g_xoff_st_q[$signed(32'(ps))*8+6],
                     g_xoff_st_q[$signed(32'(ps))*8+5], g_xoff_st_q[$signed(32'(ps))*8+4],
                     g_xoff_st_q[$signed(32'(ps))*8+3], g_xoff_st_q[$signed(32'(ps))*8+2],
                     g_xoff_st_q[$signed(32'(ps))*8+1], g_xoff_st_q[$signed(32'(ps))*8+0]};
          a_ro = 1'b1;
        end
        16'h0400: rd_data = g_cfg_q[PgIdxW'(gs)];
        16'h0404: rd_data = {4'd0, g_xoff_q[PgIdxW'(gs)]};
        16'h0408: rd_data = {4'd0, g_xon_q[PgIdxW'(gs)]};
        16'h040C: rd_data = {4'd0, g_hdrm_q[PgIdxW'(gs)]};
        16'h0410: begin rd_data = {31'd0, g_xoff_st_q[PgIdxW'(gs)]}; a_ro = 1'b1; end
        16'h0414: begin rd_data = {4'd0, g_cells_q[PgIdxW'(gs)]}; a_ro = 1'b1; end
        16'h0418: begin rd_data = {4'd0, g_hused_q[PgIdxW'(gs)]}; a_ro = 1'b1; end
        16'h041C: begin
          rd_data = (g_pause_end_q[PgIdxW'(gs)] > cycle_q) ?
                    sat32(g_pause_end_q[PgIdxW'(gs)] - cycle_q) : '0;
          a_ro = 1'b1;
        end
        16'h0420: begin rd_data = {4'd0, g_wm_q[PgIdxW'(gs)]}; a_ro = 1'b1; end
        16'h0424: begin rd_data = {4'd0, g_hwm_q[PgIdxW'(gs)]}; a_ro = 1'b1; end
        16'h0500: rd_data = pr_cfg_q[fs];
        default: a_mapped = 1'b0;
      endcase
    end
    if (!a_mapped) begin
      rd_data = '0;
      a_ro = 1'b0;
      rd_is_lo = 1'b0;
    end
  end

  // ---- write legality (spec 10): the whole write is refused if a field is out of range
  logic wr_legal;
  logic [31:0] wmask;
  always_comb begin : c_csr_legal
    logic [31:0] d;
    d = csr_wdata_i;
    wr_legal = 1'b1;
    wmask = 32'hFFFF_FFFF;
    unique case (csr_addr_i)
      16'h0018: wmask = 32'h1;
      16'h0020: wmask = 32'h7;
      16'h0030: begin wmask = 32'h3FFF; wr_legal = d[13:0] >= 14'd64; end
      16'h0034, 16'h003C, 16'h0040: wmask = 32'h0FFF_FFFF;
      16'h0038, 16'h0044, 16'h004C: wmask = 32'h00FF_FFFF;
      16'h0048, 16'h0050: wmask = 32'hFFFF;
      16'h0054: begin wmask = 32'hFFF; wr_legal = d[11:0] != '0; end
      16'h0058: begin wmask = 32'hFF; wr_legal = d[7:0] != '0; end
      16'h005C: wr_legal = d != '0;
      16'h0064: wmask = 32'h3;
      16'h0068: wr_legal = d != '0;
      16'h006C, 16'h0070: begin wmask = 32'hFF; wr_legal = d[7:0] != '0; end
      16'h0074, 16'h0078: wmask = 32'h7777_7777;
      16'h0100: begin wmask = 32'h1FF; wr_legal = 32'(d[8:0]) < NumVoqs; end
      16'h0104: begin wmask = 32'h3F; wr_legal = 32'(d[5:0]) < NumPorts; end
      16'h0108: begin wmask = 32'h1FF; wr_legal = 32'(d[8:0]) < NumPgs; end
      16'h010C: wmask = 32'h7;
      16'h0200: begin wmask = 32'hFFFF; wr_legal = d[6:5] != 2'd3; end
      16'h0204: wmask = 32'h0FFF_FFFF;
      16'h0208: begin wmask = 32'hFFFF; wr_legal = d[15:0] != '0; end
      16'h0210, 16'h0218, 16'h0304: wmask = 32'h00FF_FFFF;
      16'h0214, 16'h0308: wmask = 32'h000F_FFFF;
      16'h0300: wmask = 32'h3F01;
      16'h0310: begin wmask = 32'hFFFF; wr_legal = d[15:0] != '0; end
      16'h0314: wr_legal = d != '0;
      16'h0400: wmask = 32'hF3;
      16'h0404, 16'h0408, 16'h040C: wmask = 32'h0FFF_FFFF;
      16'h0500: begin wmask = 32'hF1; wr_legal = d[7:4] <= 4'd8; end
      default: begin
        if (csr_addr_i >= 16'h0080 && csr_addr_i < 16'h00A0) begin
          wmask = 32'h7777_7777;
        end else if (csr_addr_i >= 16'h0520 && csr_addr_i < 16'h0560) begin
          wmask = 32'h1_FFFF;
          wr_legal = d[16:0] <= 17'd65536;
        end
      end
    endcase
  end

  logic csr_rd, csr_wr, csr_wr_ok;
  logic [31:0] wd;
  assign csr_rd = csr_valid_i && !csr_write_i;
  assign csr_wr = csr_valid_i && csr_write_i;
  assign csr_wr_ok = csr_wr && a_mapped && !a_ro && wr_legal;
  assign wd = csr_wdata_i & wmask;
  assign csr_rdata_o = (csr_rd && a_mapped) ? rd_data : '0;
  assign csr_err_o = csr_valid_i && (!a_mapped || (csr_write_i && (a_ro || !wr_legal)));

  function automatic logic wr_at(input logic [15:0] a);
    wr_at = csr_wr_ok && (csr_addr_i == a);
  endfunction

  // ==================================================================== sequential update
  logic clr;
  assign clr = csr_wr_ok && csr_addr_i == 16'h0018 && csr_wdata_i[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      cycle_q <= '0;
      max_frame_q <= 14'd9216;
      pool_cells_q <= 28'h0FFF_FFFF;
      ocb_only_q <= 24'd40000;
      evict_q <= 28'd4096;
      return_q <= 28'd1024;
      hbm_wr_rate_q <= 24'h01_0000;
      hbm_rd_rate_q <= 24'h01_0000;
      hbm_wr_burst_q <= 16'd64;
      hbm_rd_burst_q <= 16'd64;
      hbm_rd_lat_q <= 12'd500;
      ocb_rd_lat_q <= 8'd2;
      lfsr_seed_q <= 32'hACE1_ACE1;
      lfsr_q <= 32'hACE1_ACE1;
      wd_ctrl_q <= '0;
      wd_poll_q <= 32'd100000000;
      wd_detect_q <= 8'd2;
      wd_restore_q <= 8'd2;
      tc_pg_map_q <= 32'h7654_3210;
      tc_queue_map_q <= 32'h7654_3210;
      for (int k = 0; k < 8; k++) begin
        dscp_map_q[k] <= {8{k[3:0]}};
      end
      voq_sel_q <= '0;
      port_sel_q <= '0;
      pg_sel_q <= '0;
      prof_sel_q <= '0;
      err_status_q <= '0;
      err_addr_q <= '0;
      cnt_hi_q <= '0;
      pool_wm_q <= '0;
      for (int k = 0; k < xtm_pkg::NumEcnt; k++) begin
        ecnt_q[k] <= '0;
      end
      pool_used_q <= '0;
      ocb_used_q <= '0;
      hbm_used_q <= '0;
      hbm_wr_tok_q <= TW'(64) << 16;
      hbm_rd_tok_q <= TW'(64) << 16;
      free_head_q <= DNIL;
      alloc_ptr_q <= '0;
      desc_free_q <= DescW'(NumDesc);
      wd_next_poll_q <= 64'd100000000;
      port_rr_q <= '0;
      for (int v = 0; v < NumVoqs; v++) begin
        q_cfg_q[v] <= 32'h1;
        q_limit_q[v] <= 28'd4096;
        q_quantum_q[v] <= 16'd9216;
        q_lat_q[v] <= 32'hFFFF_FFFF;
        q_srate_q[v] <= '0;
        q_sburst_q[v] <= '0;
        q_trate_q[v] <= '0;
        q_head_q[v] <= DNIL;
        q_tail_q[v] <= DNIL;
        q_occ_q[v] <= '0;
        q_pkts_q[v] <= '0;
        q_hbmc_q[v] <= '0;
        q_hbm_mode_q[v] <= 1'b0;
        q_def_q[v] <= '0;
        q_wd_st_q[v] <= 1'b0;
        q_storm_q[v] <= '0;
        q_clean_q[v] <= '0;
        q_sent_q[v] <= 1'b0;
        q_tok_q[v] <= '0;
        q_wm_q[v] <= '0;
        for (int k = 0; k < xtm_pkg::NumVcnt; k++) begin
          q_cnt_q[v][k] <= '0;
        end
      end
      for (int p = 0; p < NumPorts; p++) begin
        p_scfg_q[p] <= '0;
        p_srate_q[p] <= 24'h0C_8000;
        p_sburst_q[p] <= 20'd9216;
        p_pq_q[p] <= 32'h0005_1EB8;
        p_quanta_q[p] <= 16'hFFFF;
        p_refresh_q[p] <= 32'd167772;
        p_tok_q[p] <= TW'(9216) << 16;
        p_rr_q[p] <= '0;
        p_refresh_at_q[p] <= '0;
        p_fhead_q[p] <= '0;
        p_fcount_q[p] <= '0;
        for (int k = 0; k < FifoDepth; k++) begin
          p_fifo_q[p*FifoDepth+k] <= '0;
          p_fifo_rdy_q[p*FifoDepth+k] <= '0;
        end
        for (int k = 0; k < xtm_pkg::NumPcnt; k++) begin
          p_cnt_q[p][k] <= '0;
        end
      end
      for (int g = 0; g < NumPgs; g++) begin
        g_cfg_q[g] <= '0;
        g_xoff_q[g] <= 28'h0FFF_FFFF;
        g_xon_q[g] <= '0;
        g_hdrm_q[g] <= '0;
        g_cells_q[g] <= '0;
        g_hused_q[g] <= '0;
        g_xoff_st_q[g] <= 1'b0;
        g_evnext_q[g] <= 1'b0;
        g_wm_q[g] <= '0;
        g_hwm_q[g] <= '0;
        g_pause_end_q[g] <= '0;
        g_wdrx_q[g] <= 1'b0;
        for (int k = 0; k < xtm_pkg::NumGcnt; k++) begin
          g_cnt_q[g][k] <= '0;
        end
      end
      for (int f = 0; f < 8; f++) begin
        pr_cfg_q[f] <= '0;
        pr_fill_q[f] <= '0;
        pr_prob_q[f] <= '0;
      end
    end else begin
      cycle_q <= cycle_q + 64'd1;
      lfsr_q <= lfsr_6;
      port_rr_q <= port_rr_5;

      // ---------------- 2. PFC reception: pause ends, counters
      for (int p = 0; p < NumPorts; p++) begin
        if (pfc_rx_valid_i[p]) begin
          p_cnt_q[p][xtm_pkg::PcPfcRx] <= p_cnt_q[p][xtm_pkg::PcPfcRx] + 64'd1;
        end
        for (int i = 0; i < 8; i++) begin
          g_pause_end_q[p*8+i] <= pause_end_2[p*8+i];
          if (pfc_rx_valid_i[p] && rx_vec[p*8+i]) begin
            if (rx_quanta[(p*8+i)*16+:16] != '0) begin
              g_cnt_q[p*8+i][xtm_pkg::GcPauseRx] <= g_cnt_q[p*8+i][xtm_pkg::GcPauseRx] + 64'd1;
            end else begin
              g_cnt_q[p*8+i][xtm_pkg::GcXonRx] <= g_cnt_q[p*8+i][xtm_pkg::GcXonRx] + 64'd1;
            end
          end
          if (paused_2[p*8+i]) begin
            g_cnt_q[p*8+i][xtm_pkg::GcPausedCycles] <=
                g_cnt_q[p*8+i][xtm_pkg::GcPausedCycles] + 64'd1;
          end
        end
      end

      // ---------------- 3. watchdog
      if (poll_now) begin
        wd_next_poll_q <= wd_next_poll_q + {32'd0, wd_poll_q};
      end
      for (int v = 0; v < NumVoqs; v++) begin
        q_wd_st_q[v] <= wd_st_3[v];
        q_storm_q[v] <= storm_3[v];
        q_clean_q[v] <= clean_3[v];
        if (wd_st_3[v] && !q_wd_st_q[v]) begin
          q_cnt_q[v][xtm_pkg::VcWdStall] <= q_cnt_q[v][xtm_pkg::VcWdStall] + 64'd1;
        end
        if (!wd_st_3[v] && q_wd_st_q[v]) begin
          q_cnt_q[v][xtm_pkg::VcWdRestore] <= q_cnt_q[v][xtm_pkg::VcWdRestore] + 64'd1;
        end
        // sent: set by a selection, cleared at a poll (the poll precedes the dequeue)
        if (deq_sched && deq_v == 9'(v)) begin
          q_sent_q[v] <= 1'b1;
        end else if (poll_now) begin
          q_sent_q[v] <= 1'b0;
        end
      end
      for (int g = 0; g < NumPgs; g++) begin
        g_wdrx_q[g] <= poll_now ? 1'b0 : wdrx_2[g];
      end

      // ---------------- token buckets: refill every cycle, charges (spec 5.4)
      begin
        logic signed [TW-1:0] tk;
        tk = xtm_pkg::tb_refill(hbm_rd_tok_q, hbm_rd_rate_q, {4'd0, hbm_rd_burst_q});
        if (deq_sched && d_hbm[DescIdxW'(deq_d)]) begin
          tk = tk - (TW'(deq_cells) << 16);
        end
        if (wr_at(16'h004C) || wr_at(16'h0050)) begin
          if (tk > $signed(TW'({wr_at(16'h0050) ? wd[15:0] : hbm_rd_burst_q}) << 16)) begin  // signed: a negative bucket stays negative
            tk = TW'({wr_at(16'h0050) ? wd[15:0] : hbm_rd_burst_q}) << 16;
          end
        end
        hbm_rd_tok_q <= tk;
        tk = xtm_pkg::tb_refill(hbm_wr_tok_q, hbm_wr_rate_q, {4'd0, hbm_wr_burst_q});
        if (enq_acc && enq_hbm) begin
          tk = tk - (TW'(enq_cells) << 16);
        end
        if (wr_at(16'h0044) || wr_at(16'h0048)) begin
          if (tk > $signed(TW'({wr_at(16'h0048) ? wd[15:0] : hbm_wr_burst_q}) << 16)) begin  // signed: a negative bucket stays negative
            tk = TW'({wr_at(16'h0048) ? wd[15:0] : hbm_wr_burst_q}) << 16;
          end
        end
        hbm_wr_tok_q <= tk;
        for (int p = 0; p < NumPorts; p++) begin
          tk = xtm_pkg::tb_refill(p_tok_q[p], p_srate_q[p], p_sburst_q[p]);
          if (deq_sched && deq_p == 6'(p) && p_scfg_q[p][0]) begin
            tk = tk - ((TW'(d_len[DescIdxW'(deq_d)]) + TW'(p_scfg_q[p][13:8])) << 16);
          end
          if ((wr_at(16'h0304) || wr_at(16'h0308)) && port_sel_q == 6'(p)) begin
            if (tk > $signed(TW'({wr_at(16'h0308) ? wd[19:0] : p_sburst_q[p]}) << 16)) begin  // signed: a negative bucket stays negative
              tk = TW'({wr_at(16'h0308) ? wd[19:0] : p_sburst_q[p]}) << 16;
            end
          end
          p_tok_q[p] <= tk;
        end
        for (int v = 0; v < NumVoqs; v++) begin
          tk = xtm_pkg::tb_refill(q_tok_q[v], q_srate_q[v], q_sburst_q[v]);
          if (deq_sched && deq_v == 9'(v) && q_cfg_q[v][QCFG_SHEN]) begin
            tk = tk - (TW'(d_len[DescIdxW'(deq_d)]) << 16);
          end
          if ((wr_at(16'h0210) || wr_at(16'h0214)) && voq_sel_q == 9'(v)) begin
            if (tk > $signed(TW'({wr_at(16'h0214) ? wd[19:0] : q_sburst_q[v]}) << 16)) begin  // signed: a negative bucket stays negative
              tk = TW'({wr_at(16'h0214) ? wd[19:0] : q_sburst_q[v]}) << 16;
            end
          end
          q_tok_q[v] <= tk;
        end
      end

      // ---------------- 4. egress output
      for (int p = 0; p < NumPorts; p++) begin
        if (out_v[p]) begin
          p_fhead_q[p] <= (32'(p_fhead_q[p]) + 1 == FifoDepth) ? '0 : p_fhead_q[p] + 1'b1;
          p_cnt_q[p][xtm_pkg::PcTxPkts] <= p_cnt_q[p][xtm_pkg::PcTxPkts] + 64'd1;
          p_cnt_q[p][xtm_pkg::PcTxBytes] <=
              p_cnt_q[p][xtm_pkg::PcTxBytes] +
              {50'd0, deq_flat[p*xtm_pkg::DEQ_REC_W+xtm_pkg::DEQ_REC_LEN_LSB+:14]};
        end
        p_fcount_q[p] <= fcount_4[p] + FifoW'(deq_sched && deq_p == 6'(p));
      end

      // ---------------- 5. dequeue slot
      if (win_valid && dwrr_round) begin
        for (int q = 0; q < NumTcs; q++) begin
          if (win_elig[q] && !(deq_do && deq_v == 9'(32'(win_p) * NumTcs + q))) begin
            q_def_q[32'(win_p)*NumTcs+q] <= q_def_q[32'(win_p)*NumTcs+q] +
                $signed({8'd0, q_quantum_q[$signed(32'(win_p))*$signed(32'(NumTcs))+q]});
          end
        end
      end
      if (deq_rr_upd) begin
        p_rr_q[PortIdxW'(deq_p)] <= deq_rr_new;
      end
      if (deq_do) begin
        q_def_q[VoqIdxW'(deq_v)] <= deq_def_new;
        // descriptor back to the recycled list
        d_next[DescIdxW'(deq_d)] <= free_head_q;
        if (deq_flush) begin
          q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDropFlush] <=
              q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDropFlush] + 64'd1;
        end else begin
          q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDeqPkts] <=
              q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDeqPkts] + 64'd1;
          q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDeqBytes] <=
              q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDeqBytes] + {50'd0, d_len[DescIdxW'(deq_d)]};
          if (deq_marked_head) begin
            q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcMarkHead] <=
                q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcMarkHead] + 64'd1;
          end
          if (deq_marked_lat) begin
            q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcMarkLat] <=
                q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcMarkLat] + 64'd1;
          end
          begin
            logic [FifoIdxW-1:0] slot;
            slot = FifoIdxW'((32'(p_fhead_q[PortIdxW'(deq_p)]) +
                              (out_v[PortIdxW'(deq_p)] ? 1 : 0) +
                              32'(fcount_4[PortIdxW'(deq_p)])) % FifoDepth);
            p_fifo_q[32'(deq_p)*FifoDepth+32'(slot)] <= deq_rec;
            p_fifo_rdy_q[32'(deq_p)*FifoDepth+32'(slot)] <= cycle_q +
                (d_hbm[DescIdxW'(deq_d)] ? {52'd0, hbm_rd_lat_q} : {56'd0, ocb_rd_lat_q});
          end
        end
        if (deq_return) begin
          q_hbm_mode_q[VoqIdxW'(deq_v)] <= 1'b0;
          q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcHbmReturn] <=
              q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcHbmReturn] + 64'd1;
        end
      end
      // VOQ list heads and tails
      for (int v = 0; v < NumVoqs; v++) begin
        logic rm, ad;
        rm = deq_do && deq_v == 9'(v);
        ad = enq_acc && enq_v == 9'(v);
        if (rm || ad) begin
          q_occ_q[v] <= q_occ_q[v] - (rm ? deq_cells : '0) + (ad ? enq_cells : '0);
          q_pkts_q[v] <= q_pkts_q[v] - (rm ? 21'd1 : '0) + (ad ? 21'd1 : '0);
          q_hbmc_q[v] <= q_hbmc_q[v] - ((rm && d_hbm[DescIdxW'(deq_d)]) ? deq_cells : '0) +
                         ((ad && enq_hbm) ? enq_cells : '0);
          if (rm && q_pkts_q[v] == 21'd1) begin
            q_head_q[v] <= ad ? enq_d : DNIL;
            q_tail_q[v] <= ad ? enq_d : DNIL;
          end else begin
            if (rm) begin
              q_head_q[v] <= d_next[DescIdxW'(deq_d)];
            end else if (ad && q_pkts_q[v] == '0) begin
              q_head_q[v] <= enq_d;
            end
            if (ad) begin
              q_tail_q[v] <= enq_d;
            end
          end
        end
      end
      pool_used_q <= pool_used_5 + (enq_acc ? enq_cells : '0);
      ocb_used_q <= ocb_used_5 + ((enq_acc && !enq_hbm) ? enq_cells : '0);
      hbm_used_q <= hbm_used_5 + ((enq_acc && enq_hbm) ? enq_cells : '0);
      desc_free_q <= desc_free_5 - (enq_acc ? DescW'(1) : '0);
      free_head_q <= free_head_6;
      if (enq_acc && enq_from_bump) begin
        alloc_ptr_q <= alloc_ptr_q + 1'b1;
      end
      // PG accounting
      for (int g = 0; g < NumPgs; g++) begin
        logic [CW-1:0] hu, cl;
        hu = g_hused_q[g];
        cl = g_cells_q[g];
        if (deq_do && deq_pg == 9'(g)) begin
          hu = hu - min_cells(hu, deq_cells);
          cl = cl - deq_cells;
        end
        if (enq_acc && enq_g == 9'(g)) begin
          cl = cl + enq_cells;
          if (enq_hdrm) begin
            hu = hu + enq_cells;
          end
        end
        g_hused_q[g] <= hu;
        g_cells_q[g] <= cl;
        g_xoff_st_q[g] <= g_xoff_7[g];
        // watermarks: max at end of cycle; an rc read or CLR_CNT restarts from the level
        if (clr || (csr_rd && a_mapped && csr_addr_i == 16'h0420 && pg_sel_q == 9'(g))) begin
          g_wm_q[g] <= cl;
        end else if (cl > g_wm_q[g]) begin
          g_wm_q[g] <= cl;
        end
        if (clr || (csr_rd && a_mapped && csr_addr_i == 16'h0424 && pg_sel_q == 9'(g))) begin
          g_hwm_q[g] <= hu;
        end else if (hu > g_hwm_q[g]) begin
          g_hwm_q[g] <= hu;
        end
        // evaluation request for the next cycle (spec 7.1)
        g_evnext_q[g] <= (wr_at(16'h0400) || wr_at(16'h0404) || wr_at(16'h0408)) &&
                         pg_sel_q == 9'(g);
        // PFC counters
        if (g < NumPorts * 8 && pfc_send[g/8]) begin
          if (xmask_7[g]) begin
            g_cnt_q[g][xtm_pkg::GcXoffSent] <= g_cnt_q[g][xtm_pkg::GcXoffSent] + 64'd1;
          end else if (rel_m[g]) begin
            g_cnt_q[g][xtm_pkg::GcXonSent] <= g_cnt_q[g][xtm_pkg::GcXonSent] + 64'd1;
          end
        end
      end
      for (int p = 0; p < NumPorts; p++) begin
        if (pfc_send[p]) begin
          p_refresh_at_q[p] <= cycle_q + {32'd0, p_refresh_q[p]};
          p_cnt_q[p][xtm_pkg::PcPfcTx] <= p_cnt_q[p][xtm_pkg::PcPfcTx] + 64'd1;
        end
      end

      // ---------------- 6. enqueue: descriptor, counters
      if (enq_acc) begin
        d_pkt_id[DescIdxW'(enq_d)] <= enq_pkt_id_i;
        d_enq[DescIdxW'(enq_d)] <= cycle_q[31:0];
        d_len[DescIdxW'(enq_d)] <= enq_len_i;
        d_in[DescIdxW'(enq_d)] <= enq_in_port_i;
        d_dscp[DescIdxW'(enq_d)] <= enq_dscp_i;
        d_ecn[DescIdxW'(enq_d)] <= enq_marked ? 2'b11 : enq_ecn_i;
        d_pg[DescIdxW'(enq_d)] <= enq_g[2:0];
        d_hbm[DescIdxW'(enq_d)] <= enq_hbm;
        d_tmark[DescIdxW'(enq_d)] <= enq_marked;
        if (q_tail_q[VoqIdxW'(enq_v)] != DNIL &&
            !(deq_do && deq_v == enq_v && q_pkts_q[VoqIdxW'(enq_v)] == 21'd1))
        begin
          d_next[DescIdxW'(q_tail_q[VoqIdxW'(enq_v)])] <= enq_d;
        end
        if (enq_evict) begin
          q_hbm_mode_q[VoqIdxW'(enq_v)] <= 1'b1;
        end
      end
      if (enq_valid_i) begin
        ecnt_q[xtm_pkg::EcArr] <= ecnt_q[xtm_pkg::EcArr] + 64'd1;
        unique case (enq_rsn)
          xtm_pkg::RsnLenZero: ecnt_q[xtm_pkg::EcLenZero] <= ecnt_q[xtm_pkg::EcLenZero] + 64'd1;
          xtm_pkg::RsnLenMax: ecnt_q[xtm_pkg::EcLenMax] <= ecnt_q[xtm_pkg::EcLenMax] + 64'd1;
          xtm_pkg::RsnBadPort: ecnt_q[xtm_pkg::EcBadPort] <= ecnt_q[xtm_pkg::EcBadPort] + 64'd1;
          xtm_pkg::RsnBadTc: ecnt_q[xtm_pkg::EcBadTc] <= ecnt_q[xtm_pkg::EcBadTc] + 64'd1;
          xtm_pkg::RsnNotReady:
            ecnt_q[xtm_pkg::EcNotReady] <= ecnt_q[xtm_pkg::EcNotReady] + 64'd1;
          default: ;
        endcase
      end
      if (enq_classified) begin
        q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcArr] <=
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcArr] + 64'd1;
        if (enq_evict && enq_rsn != xtm_pkg::RsnAccept) begin
          q_hbm_mode_q[VoqIdxW'(enq_v)] <= 1'b1;   // the switch stands even when placement fails
        end
        if (enq_evict) begin
          q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcHbmEvict] <=
              q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcHbmEvict] + 64'd1;
        end
        unique case (enq_rsn)
          xtm_pkg::RsnAccept: begin
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcEnqPkts] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcEnqPkts] + 64'd1;
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcEnqBytes] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcEnqBytes] + {50'd0, enq_len_i};
            if (enq_marked) begin
              q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcMarkTail] <=
                  q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcMarkTail] + 64'd1;
            end
          end
          xtm_pkg::RsnTail:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropTail] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropTail] + 64'd1;
          xtm_pkg::RsnPool:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropPool] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropPool] + 64'd1;
          xtm_pkg::RsnProfile: q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropProfile] <=
              q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropProfile] + 64'd1;
          xtm_pkg::RsnHeadroom:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropHdrm] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropHdrm] + 64'd1;
          xtm_pkg::RsnBufFull:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBuf] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBuf] + 64'd1;
          xtm_pkg::RsnQDisabled:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropQdis] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropQdis] + 64'd1;
          xtm_pkg::RsnWd:
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropWd] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropWd] + 64'd1;
          default: ;
        endcase
      end
      // drop bytes: enqueue drops and flushes of the same VOQ may meet in one cycle
      begin
        logic ed, fd;
        ed = enq_classified && enq_rsn != xtm_pkg::RsnAccept;
        fd = deq_flush;
        if (ed && fd && enq_v == deq_v) begin
          q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBytes] <=
              q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBytes] + {50'd0, enq_len_i} +
              {50'd0, d_len[DescIdxW'(deq_d)]};
        end else begin
          if (ed) begin
            q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBytes] <=
                q_cnt_q[VoqIdxW'(enq_v)][xtm_pkg::VcDropBytes] + {50'd0, enq_len_i};
          end
          if (fd) begin
            q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDropBytes] <=
                q_cnt_q[VoqIdxW'(deq_v)][xtm_pkg::VcDropBytes] + {50'd0, d_len[DescIdxW'(deq_d)]};
          end
        end
      end
      // VOQ watermarks
      for (int v = 0; v < NumVoqs; v++) begin
        logic [CW-1:0] oe;
        oe = q_occ_q[v] - ((deq_do && deq_v == 9'(v)) ? deq_cells : '0) +
             ((enq_acc && enq_v == 9'(v)) ? enq_cells : '0);
        if (clr || (csr_rd && a_mapped && csr_addr_i == 16'h0230 && voq_sel_q == 9'(v))) begin
          q_wm_q[v] <= oe;
        end else if (oe > q_wm_q[v]) begin
          q_wm_q[v] <= oe;
        end
      end
      begin
        logic [CW-1:0] pe_end;
        pe_end = pool_used_5 + (enq_acc ? enq_cells : '0);
        if (clr || (csr_rd && a_mapped && csr_addr_i == 16'h00A4)) begin
          pool_wm_q <= pe_end;
        end else if (pe_end > pool_wm_q) begin
          pool_wm_q <= pe_end;
        end
      end

      // ---------------- 8. CSR effects
      if (csr_valid_i && csr_err_o) begin
        err_status_q <= err_status_q | (!a_mapped ? 3'b001 :
                                         (a_ro ? 3'b100 : 3'b010));
        err_addr_q <= csr_addr_i;
      end
      if (csr_rd && a_mapped && rd_is_lo) begin
        cnt_hi_q <= rd_lo_hi;
      end
      if (csr_wr_ok) begin
        unique case (csr_addr_i)
          16'h0020: err_status_q <= err_status_q & ~wd[2:0];
          16'h0030: max_frame_q <= wd[13:0];
          16'h0034: pool_cells_q <= wd[27:0];
          16'h0038: ocb_only_q <= wd[23:0];
          16'h003C: evict_q <= wd[27:0];
          16'h0040: return_q <= wd[27:0];
          16'h0044: hbm_wr_rate_q <= wd[23:0];
          16'h0048: hbm_wr_burst_q <= wd[15:0];
          16'h004C: hbm_rd_rate_q <= wd[23:0];
          16'h0050: hbm_rd_burst_q <= wd[15:0];
          16'h0054: hbm_rd_lat_q <= wd[11:0];
          16'h0058: ocb_rd_lat_q <= wd[7:0];
          16'h005C: begin lfsr_seed_q <= wd; lfsr_q <= wd; end
          16'h0064: wd_ctrl_q <= wd[1:0];
          16'h0068: begin wd_poll_q <= wd; wd_next_poll_q <= cycle_q + 64'd1 + {32'd0, wd}; end
          16'h006C: wd_detect_q <= wd[7:0];
          16'h0070: wd_restore_q <= wd[7:0];
          16'h0074: tc_pg_map_q <= wd;
          16'h0078: tc_queue_map_q <= wd;
          16'h0100: voq_sel_q <= wd[8:0];
          16'h0104: port_sel_q <= wd[5:0];
          16'h0108: pg_sel_q <= wd[8:0];
          16'h010C: prof_sel_q <= wd[2:0];
          16'h0200: q_cfg_q[VoqIdxW'(vs)] <= wd;
          16'h0204: q_limit_q[VoqIdxW'(vs)] <= wd[27:0];
          16'h0208: q_quantum_q[VoqIdxW'(vs)] <= wd[15:0];
          16'h020C: q_lat_q[VoqIdxW'(vs)] <= wd;
          16'h0210: q_srate_q[VoqIdxW'(vs)] <= wd[23:0];
          16'h0214: q_sburst_q[VoqIdxW'(vs)] <= wd[19:0];
          16'h0218: q_trate_q[VoqIdxW'(vs)] <= wd[23:0];
          16'h0300: p_scfg_q[PortIdxW'(ps)] <= wd;
          16'h0304: p_srate_q[PortIdxW'(ps)] <= wd[23:0];
          16'h0308: p_sburst_q[PortIdxW'(ps)] <= wd[19:0];
          16'h030C: p_pq_q[PortIdxW'(ps)] <= wd;
          16'h0310: p_quanta_q[PortIdxW'(ps)] <= wd[15:0];
          16'h0314: p_refresh_q[PortIdxW'(ps)] <= wd;
          16'h0400: g_cfg_q[PgIdxW'(gs)] <= wd;
          16'h0404: g_xoff_q[PgIdxW'(gs)] <= wd[27:0];
          16'h0408: g_xon_q[PgIdxW'(gs)] <= wd[27:0];
          16'h040C: g_hdrm_q[PgIdxW'(gs)] <= wd[27:0];
          16'h0500: pr_cfg_q[fs] <= wd;
          default: begin
            if (csr_addr_i >= 16'h0080 && csr_addr_i < 16'h00A0) begin
              dscp_map_q[3'((csr_addr_i - 16'h0080) >> 2)] <= wd;
            end else if (csr_addr_i >= 16'h0520 && csr_addr_i < 16'h0540) begin
              for (int k = 0; k < 8; k++) begin
                if (csr_addr_i[4:2] == 3'(k)) begin
                  pr_fill_q[fs][17*k+:17] <= wd[16:0];
                end
              end
            end else if (csr_addr_i >= 16'h0540 && csr_addr_i < 16'h0560) begin
              for (int k = 0; k < 8; k++) begin
                if (csr_addr_i[4:2] == 3'(k)) begin
                  pr_prob_q[fs][17*k+:17] <= wd[16:0];
                end
              end
            end
          end
        endcase
      end
      if (clr) begin
        for (int k = 0; k < xtm_pkg::NumEcnt; k++) begin
          ecnt_q[k] <= '0;
        end
        for (int v = 0; v < NumVoqs; v++) begin
          for (int k = 0; k < xtm_pkg::NumVcnt; k++) begin
            q_cnt_q[v][k] <= '0;
          end
        end
        for (int p = 0; p < NumPorts; p++) begin
          for (int k = 0; k < xtm_pkg::NumPcnt; k++) begin
            p_cnt_q[p][k] <= '0;
          end
        end
        for (int g = 0; g < NumPgs; g++) begin
          for (int k = 0; k < xtm_pkg::NumGcnt; k++) begin
            g_cnt_q[g][k] <= '0;
          end
        end
      end
    end
  end

endmodule
