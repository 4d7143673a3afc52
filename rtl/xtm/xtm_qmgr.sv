// SPDX-License-Identifier: Apache-2.0
//
// xtm_qmgr: the VOQs as linked lists over the descriptor pool (docs/spec.md 4.4, 5.2, 9.4).
// Per VOQ in flops: occupancy (cells, packets, HBM cells), residency mode, watermark, the
// tail descriptor, and a two-entry head cache (head and next packet: descriptor, length,
// HBM bit, PG) so that a VOQ can be selected in consecutive cycles. In RAM: the link RAM
// (link[d] = the packet after d, with its length/HBM/PG, so the cache refills without a
// second read) and the payload RAM (packet id, enqueue cycle, DSCP, ECN, tail mark).
//
// One removal (dequeue or flush, from xtm_sched) and one append (an acceptance) per cycle,
// both applied at the end of the commit stage. A removal from a VOQ with 3+ packets reads
// link[next] to refill the cache; that read's data is the VOQ's "next" in the following
// cycle (forwarded) and is written into the cache at its end.

`default_nettype none

module xtm_qmgr #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned NumDesc   = 4096,
  // derived, do not override
  parameter int unsigned NumVoqs   = NumPorts * NumTcs,
  parameter int unsigned VoqW      = (NumVoqs > 1) ? $clog2(NumVoqs) : 1,
  parameter int unsigned DescIdxW  = (NumDesc > 1) ? $clog2(NumDesc) : 1,
  parameter int unsigned PktW      = $clog2(NumDesc + 1)
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic [63:0] t4_i,
  // the append
  input  xtm_pkg::admit_t   adm_i,
  input  xtm_pkg::enq_req_t req_i,
  input  wire logic [DescIdxW-1:0] alloc_i,
  // the removal chosen this cycle and its head
  input  wire logic         rm_i,
  input  wire logic         rm_flush_i,
  input  wire logic [8:0]   rm_voq_i,
  output logic [DescIdxW-1:0] rm_desc_o,
  output logic [13:0]       rm_len_o,
  output logic              rm_hbm_o,
  output logic [8:0]        rm_pg_o,
  output logic [27:0]       rm_occ_o,     // occupancy before the removal (S(t))
  output logic              rm_last_o,    // the VOQ's last packet
  output logic              rm_ret_o,     // the removal returns the VOQ to OCB mode (5.2)
  input  wire logic [3:0]   cell_log2_i,
  input  wire logic [27:0]  return_cells_i,
  // S(t) views
  output logic [NumVoqs-1:0] ne_o,        // VOQ holds packets
  output logic [NumVoqs-1:0] head_hbm_o,  // its head is in HBM
  output logic [27:0]       enq_occ_o,    // the enqueue's VOQ (commit stage)
  output logic              enq_mode_o,
  input  wire logic [8:0]   prof_voq_i,   // the enqueue profile's VOQ (stage 2)
  output logic [27:0]       prof_occ_o,   // its occupancy: S(t-2) for the descriptor of t
  // payload of the removed packet, one cycle later
  output logic [31:0]       rm_pkt_id_o,
  output logic [31:0]       rm_enq_cycle_o,
  output logic [5:0]        rm_dscp_o,
  output logic [1:0]        rm_ecn_o,
  output logic              rm_tmark_o,
  input  wire logic         clr_i,
  input  xtm_pkg::csr_op_t  op4_i,
  output logic [31:0]       rd4_o
);

  // head-cache entry: {descriptor, length, HBM, PG}
  localparam int unsigned HW = DescIdxW + 14 + 1 + 9;
  localparam int unsigned PW = 32 + 32 + 6 + 2 + 1;

  logic [27:0] occ_q [NumVoqs] /* verilator public_flat_rd */;
  logic [27:0] hbmc_q [NumVoqs] /* verilator public_flat_rd */;
  logic [27:0] wm_q [NumVoqs];
  logic [PktW-1:0] pkts_q [NumVoqs] /* verilator public_flat_rd */;
  logic [HW-1:0] hd_q [NumVoqs];
  logic [HW-1:0] nx_q [NumVoqs];
  logic [DescIdxW-1:0] tl_q [NumVoqs];
  logic [NumVoqs-1:0] ne_q, hh_q;
  logic [NumVoqs-1:0] mode_q /* verilator public_flat_rd */;
  logic lr_q;                    // a link read issued last cycle, for VOQ lr_voq_q
  logic [VoqW-1:0] lr_voq_q;
  logic [HW-1:0] link_rdata;

  logic [VoqW-1:0] vd, ve;
  logic [HW-1:0] nx_d, newe;
  logic [PktW-1:0] n_d, m_e;
  logic acc, same, lr_d, link_we;
  logic [27:0] rm_cells, enq_cells;

  assign vd = VoqW'(rm_voq_i);
  assign ve = VoqW'(req_i.voq);
  assign acc = adm_i.acc;
  assign same = rm_i && acc && vd == ve;

  function automatic logic [HW-1:0] nx_eff(input logic [VoqW-1:0] v);
    nx_eff = (lr_q && lr_voq_q == v) ? link_rdata : nx_q[v];
  endfunction

  // the removal's head and the append's position, each formed only with its event (every
  // use of the removal's fields is under rm_i, of the append's under acc)
  always_comb begin : c_lists
    n_d = '0;
    nx_d = '0;
    lr_d = 1'b0;
    {rm_desc_o, rm_len_o, rm_hbm_o, rm_pg_o} = '0;
    rm_occ_o = '0;
    rm_last_o = 1'b0;
    rm_cells = '0;
    if (rm_i) begin
      n_d = pkts_q[vd];
      nx_d = nx_eff(vd);
      lr_d = rm_i && n_d >= PktW'(3);
      {rm_desc_o, rm_len_o, rm_hbm_o, rm_pg_o} = hd_q[vd];
      rm_occ_o = occ_q[vd];
      rm_last_o = n_d == PktW'(1);
      rm_cells = 28'(xtm_pkg::cells_of(rm_len_o, cell_log2_i));
    end
    m_e = '0;
    newe = '0;
    link_we = 1'b0;
    if (acc) begin
      m_e = pkts_q[ve] - PktW'(same);
      newe = {alloc_i, req_i.len, adm_i.hbm, req_i.pg};
      link_we = m_e >= PktW'(2);
    end
    enq_cells = 28'(req_i.cells);
  end

  xtm_ram_1r1w #(
    .Width(HW),
    .Depth(NumDesc)
  ) u_link (
    .clk_i,
    .rst_ni,
    .we_i   (link_we),
    .waddr_i(tl_q[ve]),
    .wdata_i(newe),
    .wmask_i({HW{1'b1}}),
    .re_i   (lr_d),
    .raddr_i(nx_d[HW-1-:DescIdxW]),
    .rdata_o(link_rdata)
  );

  logic [PW-1:0] pay_rdata;
  xtm_ram_1r1w #(
    .Width(PW),
    .Depth(NumDesc)
  ) u_payload (
    .clk_i,
    .rst_ni,
    .we_i   (acc),
    .waddr_i(alloc_i),
    .wdata_i({req_i.pkt_id, t4_i[31:0], req_i.dscp, adm_i.marked ? 2'b11 : req_i.ecn,
              adm_i.marked}),
    .wmask_i({PW{1'b1}}),
    .re_i   (rm_i),
    .raddr_i(rm_desc_o),
    .rdata_o(pay_rdata)
  );
  assign {rm_pkt_id_o, rm_enq_cycle_o, rm_dscp_o, rm_ecn_o, rm_tmark_o} = pay_rdata;

  // occupancy after this cycle, for the two VOQs it can change
  logic [27:0] occ_vd, occ_ve, hbmc_vd, hbmc_ve;
  logic ret;
  // (each formed only in a cycle that writes it: the removal's under rm_i, the append's
  // under acc)
  always_comb begin : c_occ
    occ_vd = '0;
    hbmc_vd = '0;
    ret = 1'b0;
    if (rm_i) begin
      occ_vd = occ_q[vd] - rm_cells + (same ? enq_cells : '0);
      hbmc_vd = hbmc_q[vd] - (rm_hbm_o ? rm_cells : '0) + (same && adm_i.hbm ? enq_cells : '0);
      // return (5.2): HBM mode in S(t), occupancy after the removal at most HBM_RETURN_CELLS
      ret = mode_q[vd] && (occ_q[vd] - rm_cells) <= return_cells_i;
    end
    occ_ve = '0;
    hbmc_ve = '0;
    if (acc) begin
      occ_ve = occ_q[ve] + enq_cells;
      hbmc_ve = hbmc_q[ve] + (adm_i.hbm ? enq_cells : '0);
    end
  end

  assign rm_ret_o = ret;
  logic rc_read;
  assign rc_read = op4_i.rd && op4_i.id == xtm_reg_pkg::XtmRegQWmCells;

  always_ff @(posedge clk_i or negedge rst_ni) begin : s_state
    if (!rst_ni) begin
      for (int v = 0; v < 32'(NumVoqs); v++) begin
        occ_q[v] <= '0;
        hbmc_q[v] <= '0;
        wm_q[v] <= '0;
        pkts_q[v] <= '0;
      end
      ne_q <= '0;
      mode_q <= '0;
      lr_q <= 1'b0;
      lr_voq_q <= '0;
    end else begin
      lr_q <= lr_d;
      lr_voq_q <= vd;
      // watermarks (spec 10.2): max at the end of every cycle, a read (rc) or a clear
      // restarts from the level; only the VOQs this cycle changes can exceed their mark
      if (clr_i) begin
        for (int v = 0; v < 32'(NumVoqs); v++) begin
          wm_q[v] <= occ_q[v];
        end
      end
      if (rc_read) begin
        wm_q[VoqW'(op4_i.voq)] <= occ_q[VoqW'(op4_i.voq)];
      end
      if (rm_i) begin
        occ_q[vd] <= occ_vd;
        hbmc_q[vd] <= hbmc_vd;
        pkts_q[vd] <= n_d - PktW'(1) + PktW'(same);
        if (rm_last_o && !same) begin
          ne_q[vd] <= 1'b0;
        end
        if (clr_i || (rc_read && VoqW'(op4_i.voq) == vd) || occ_vd > wm_q[vd]) begin
          wm_q[vd] <= occ_vd;
        end
        if (ret) begin
          mode_q[vd] <= 1'b0;
        end
      end
      if (acc && !same) begin
        occ_q[ve] <= occ_ve;
        hbmc_q[ve] <= hbmc_ve;
        pkts_q[ve] <= pkts_q[ve] + 1'b1;
        if (clr_i || (rc_read && VoqW'(op4_i.voq) == ve) || occ_ve > wm_q[ve]) begin
          wm_q[ve] <= occ_ve;
        end
      end
      if (acc) begin
        ne_q[ve] <= 1'b1;
      end
      if (adm_i.evict) begin
        mode_q[ve] <= 1'b1;  // the switch stands even when the placement fails
      end
    end
  end

  // head cache: removal, refill, append (no reset: read only where the VOQ holds packets)
  always_ff @(posedge clk_i) begin : s_cache
    if (lr_q) begin
      nx_q[lr_voq_q] <= link_rdata;
    end
    if (rm_i && n_d >= PktW'(2)) begin
      hd_q[vd] <= nx_d;
      hh_q[vd] <= nx_d[9];
    end
    if (acc && m_e == '0) begin
      hd_q[ve] <= newe;
      hh_q[ve] <= adm_i.hbm;
    end
    if (acc && m_e == PktW'(1)) begin
      nx_q[ve] <= newe;
    end
    if (acc) begin
      tl_q[ve] <= alloc_i;
    end
  end

  assign ne_o = ne_q;
  assign head_hbm_o = hh_q;
  assign enq_occ_o = occ_q[ve];
  assign enq_mode_o = mode_q[ve];
  assign prof_occ_o = occ_q[VoqW'(prof_voq_i)];

  always_comb begin : c_rd4
    rd4_o = '0;
    if (op4_i.rd) begin
      unique case (op4_i.id)
        xtm_reg_pkg::XtmRegQOccCells: rd4_o = {4'd0, occ_q[VoqW'(op4_i.voq)]};
        xtm_reg_pkg::XtmRegQOccPkts: rd4_o = 32'(pkts_q[VoqW'(op4_i.voq)]);
        xtm_reg_pkg::XtmRegQHbmCells: rd4_o = {4'd0, hbmc_q[VoqW'(op4_i.voq)]};
        xtm_reg_pkg::XtmRegQWmCells: rd4_o = {4'd0, wm_q[VoqW'(op4_i.voq)]};
        xtm_reg_pkg::XtmRegQStatus: rd4_o = {31'd0, mode_q[VoqW'(op4_i.voq)]};
        default: ;
      endcase
    end
  end

  logic unused;
  assign unused = ^{rm_flush_i};

endmodule
