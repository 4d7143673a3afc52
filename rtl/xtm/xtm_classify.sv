// SPDX-License-Identifier: Apache-2.0
//
// xtm_classify: stage 1 of the enqueue (docs/spec.md 4.2, 4.3). Validation (first failing
// check wins: not ready, length 0, above MAX_FRAME, bad port, bad TC or queue) and
// classification (DSCP -> TC -> queue and priority group, VOQ, cells), combinational on the
// input register; the result is registered by the caller into stage 2.

`default_nettype none

module xtm_classify #(
  parameter int unsigned NumPorts  = 8,
  parameter int unsigned NumTcs    = 8,
  parameter int unsigned CellBytes = 256,
  // derived, do not override
  parameter int unsigned CellLog2  = $clog2(CellBytes),
  parameter int unsigned InitCycles = 8 * NumPorts
) (
  input  wire logic        valid_i,
  input  wire logic [31:0] pkt_id_i,
  input  wire logic [5:0]  in_port_i,
  input  wire logic [5:0]  eg_port_i,
  input  wire logic [5:0]  dscp_i,
  input  wire logic [1:0]  ecn_i,
  input  wire logic [13:0] len_i,
  input  wire logic [63:0] t1_i,           // logical cycle of the descriptor
  input  wire logic [255:0] dscp_map_i,    // DSCP_MAP_k at [32k +: 32]
  input  wire logic [31:0] tc_queue_map_i,
  input  wire logic [31:0] tc_pg_map_i,
  input  wire logic [13:0] max_frame_i,
  output xtm_pkg::enq_req_t req_o,
  output logic [2:0]       tc_o           // the traffic class (for the policer, 4.7)
);

  logic [2:0] tc, queue, pg;
  logic [31:0] dmap;

  // (formed only for a descriptor: without one the request is all 0, valid and cls low)
  always_comb begin : c_classify
    dmap = '0;
    tc = '0;
    queue = '0;
    pg = '0;
    tc_o = '0;
    req_o = '0;
    if (valid_i) begin
      dmap = dscp_map_i[32*dscp_i[5:3]+:32];
      tc = dmap[4*dscp_i[2:0]+:3];
      queue = tc_queue_map_i[4*tc+:3];
      pg = tc_pg_map_i[4*tc+:3];
      tc_o = tc;
      req_o.valid = 1'b1;
      req_o.pkt_id = pkt_id_i;
      req_o.in_port = in_port_i;
      req_o.eg_port = eg_port_i;
      req_o.dscp = dscp_i;
      req_o.ecn = ecn_i;
      req_o.len = len_i;
      req_o.err = xtm_pkg::RsnAccept;
      if (t1_i < 64'(InitCycles)) begin
        req_o.err = xtm_pkg::RsnNotReady;
      end else if (len_i == '0) begin
        req_o.err = xtm_pkg::RsnLenZero;
      end else if (len_i > max_frame_i) begin
        req_o.err = xtm_pkg::RsnLenMax;
      end else if ({1'b0, in_port_i} >= 7'(NumPorts) || {1'b0, eg_port_i} >= 7'(NumPorts)) begin
        req_o.err = xtm_pkg::RsnBadPort;
      end else if (32'(tc) >= NumTcs || 32'(queue) >= NumTcs) begin
        req_o.err = xtm_pkg::RsnBadTc;
      end
      req_o.cls = req_o.err == xtm_pkg::RsnAccept;
      if (req_o.cls) begin
        req_o.voq = 9'(32'(eg_port_i) * NumTcs + 32'(queue));
        req_o.pg = {in_port_i, pg};
        req_o.cells = xtm_pkg::cells_of(len_i, 4'(CellLog2));
      end
    end
  end

endmodule
