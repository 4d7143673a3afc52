// SPDX-License-Identifier: Apache-2.0
//
// xtm_pkg: types and the arithmetic both the RTL and the C model must compute bit for bit
// (docs/spec.md). Each function names its C twin.

`default_nettype none

package xtm_pkg;

  localparam int unsigned CELLW = 28;   // cell quantities (spec 5.1)
  localparam int unsigned TOKW = 48;    // token buckets, signed, 2^-16 units (spec 5.4)
  localparam logic [31:0] NIL = 32'hFFFF_FFFF;

  // drop reasons (spec 4.6), C twin xtm_reason_t
  localparam logic [3:0] RsnAccept = 4'd0;
  localparam logic [3:0] RsnTail = 4'd1;
  localparam logic [3:0] RsnPool = 4'd2;
  localparam logic [3:0] RsnProfile = 4'd3;
  localparam logic [3:0] RsnHeadroom = 4'd4;
  localparam logic [3:0] RsnBufFull = 4'd5;
  localparam logic [3:0] RsnQDisabled = 4'd6;
  localparam logic [3:0] RsnWd = 4'd7;
  localparam logic [3:0] RsnLenZero = 4'd8;
  localparam logic [3:0] RsnLenMax = 4'd9;
  localparam logic [3:0] RsnBadPort = 4'd10;
  localparam logic [3:0] RsnBadTc = 4'd11;
  localparam logic [3:0] RsnNotReady = 4'd12;

  // per-VOQ counter indices (register order), C twin xtm_vcnt_t
  localparam int unsigned VcArr = 0;
  localparam int unsigned VcEnqPkts = 1;
  localparam int unsigned VcEnqBytes = 2;
  localparam int unsigned VcDeqPkts = 3;
  localparam int unsigned VcDeqBytes = 4;
  localparam int unsigned VcDropTail = 5;
  localparam int unsigned VcDropPool = 6;
  localparam int unsigned VcDropProfile = 7;
  localparam int unsigned VcDropHdrm = 8;
  localparam int unsigned VcDropBuf = 9;
  localparam int unsigned VcDropQdis = 10;
  localparam int unsigned VcDropWd = 11;
  localparam int unsigned VcDropFlush = 12;
  localparam int unsigned VcDropBytes = 13;
  localparam int unsigned VcMarkTail = 14;
  localparam int unsigned VcMarkHead = 15;
  localparam int unsigned VcMarkLat = 16;
  localparam int unsigned VcHbmEvict = 17;
  localparam int unsigned VcHbmReturn = 18;
  localparam int unsigned VcWdStall = 19;
  localparam int unsigned VcWdRestore = 20;
  localparam int unsigned NumVcnt = 21;

  // per-PG counters, C twin xtm_gcnt_t
  localparam int unsigned GcXoffSent = 0;
  localparam int unsigned GcXonSent = 1;
  localparam int unsigned GcPauseRx = 2;
  localparam int unsigned GcXonRx = 3;
  localparam int unsigned GcPausedCycles = 4;
  localparam int unsigned NumGcnt = 5;

  // per-port counters, C twin xtm_pcnt_t
  localparam int unsigned PcTxPkts = 0;
  localparam int unsigned PcTxBytes = 1;
  localparam int unsigned PcPfcTx = 2;
  localparam int unsigned PcPfcRx = 3;
  localparam int unsigned NumPcnt = 4;

  // global error counters, C twin xtm_ecnt_t
  localparam int unsigned EcArr = 0;
  localparam int unsigned EcLenZero = 1;
  localparam int unsigned EcLenMax = 2;
  localparam int unsigned EcBadPort = 3;
  localparam int unsigned EcBadTc = 4;
  localparam int unsigned EcNotReady = 5;
  localparam int unsigned NumEcnt = 6;

  // Per-port vectors (Yosys 0.23 has no multi-dimensional packed arrays of plain vectors,
  // but accepts packed arrays of these named types; the bit layout is the same).
  typedef logic [7:0] prio_vec_t;                  // one bit per priority
  typedef logic [15:0] pause_quanta_t;             // PFC pause time, 512-bit-time units
  typedef pause_quanta_t [7:0] pause_quanta8_t;    // per priority

  // A packet in the egress in-flight FIFO (spec 9.4) = the deq output record.
  typedef struct packed {
    logic [31:0] pkt_id;
    logic [8:0]  voq;
    logic [5:0]  in_port;
    logic [13:0] len;
    logic [5:0]  dscp;
    logic [1:0]  ecn;
    logic        marked;
    logic        hbm;
    logic [31:0] sojourn;
  } deq_rec_t;
  // bit offset of deq_rec_t.len in a flat vector of records (Yosys 0.23 has no member
  // access on an array entry): sojourn, hbm, marked, ecn and dscp lie below it
  localparam int unsigned DEQ_REC_LEN_LSB = 32 + 1 + 1 + 2 + 6;
  localparam int unsigned DEQ_REC_W = 32 + 9 + 6 + 14 + 6 + 2 + 1 + 1 + 32;  // bits of deq_rec_t

  // One LFSR draw: 16 Galois steps, x^32 + x^22 + x^2 + x + 1 (spec 6.4).
  // C twin: xtm_lfsr_draw (cmodel/xtm/xtm_profile.c).
  function automatic logic [31:0] lfsr_draw(input logic [31:0] s_in);
    logic [31:0] s;
    s = s_in;
    for (int i = 0; i < 16; i++) begin
      s = s[0] ? ((s >> 1) ^ 32'h8020_0003) : (s >> 1);
    end
    lfsr_draw = s;
  endfunction

  // Token bucket refill at the start of a cycle (spec 5.4). C twin: xtm_tb_at.
  function automatic logic signed [TOKW-1:0] tb_refill(input logic signed [TOKW-1:0] tok,
                                                       input logic [23:0] rate,
                                                       input logic [19:0] burst);
    logic signed [TOKW:0] sum;
    logic signed [TOKW:0] cap;
    cap = $signed({{(TOKW - 35) {1'b0}}, burst, 16'h0});
    sum = $signed({tok[TOKW-1], tok}) + $signed({{(TOKW - 23) {1'b0}}, rate});
    if (sum > cap) begin
      sum = cap;
    end
    if ($signed({tok[TOKW-1], tok}) > cap) begin
      sum = $signed({tok[TOKW-1], tok});  // above cap only after a clamp race: never grows
    end
    tb_refill = sum[TOKW-1:0];
  endfunction

  // Where a profile evaluation stands (spec 6.1): prob_code 0 = never, 1 = always, 2 = draw.
  // For a draw, hit = r * dn < num (both fit in 63 bits). C twin: xtm_profile_hit.
  typedef struct packed {
    logic [1:0]         code;
    logic signed [63:0] dn;
    logic signed [63:0] num;
  } prof_eval_t;

  localparam int unsigned PROF_EVAL_W = 2 + 64 + 64;  // bits of prof_eval_t

  // Returns a prof_eval_t as a plain vector: Yosys 0.23 can neither return a struct type nor
  // use a struct-typed local in a function.
  function automatic logic [PROF_EVAL_W-1:0] profile_eval(
      input logic        interp,
      input logic [3:0]  npoints,
      input logic [135:0] fill,  // point k at [17*k +: 17]
      input logic [135:0] prob,  // point k at [17*k +: 17]
      input logic [CELLW-1:0] occ,
      input logic [CELLW-1:0] limit);
    logic [1:0] r_code;
    logic signed [63:0] r_dn, r_num;
    logic signed [63:0] lim, o, fa, pa, fb, pb, dn, num;
    int ist;
    r_code = '0; r_dn = '0; r_num = '0;
    if (limit == '0) begin
      lim = 64'sd1;
      o = 64'sd65536;
    end else begin
      lim = $signed({36'd0, limit});
      o = (occ < limit) ? $signed({20'd0, occ, 16'd0}) : $signed({20'd0, limit, 16'd0});
    end
    ist = -1;
    for (int i = 0; i < 8; i++) begin
      if (i < $signed(32'(npoints)) && o >= $signed({47'd0, fill[17*i+:17]}) * lim) begin
        ist = i;
      end
    end
    if (!interp) begin
      pa = (ist < 0) ? 64'sd0 : $signed({47'd0, prob[17*ist+:17]});
      r_dn = 64'sd1;
      r_num = pa;
      r_code = (pa <= 0) ? 2'd0 : (pa >= 65536) ? 2'd1 : 2'd2;
    end else begin
      fa = (ist < 0) ? 64'sd0 : $signed({47'd0, fill[17*ist+:17]});
      pa = (ist < 0) ? 64'sd0 : $signed({47'd0, prob[17*ist+:17]});
      if (ist + 1 < $signed(32'(npoints))) begin
        fb = $signed({47'd0, fill[17*(ist+1)+:17]});
        pb = $signed({47'd0, prob[17*(ist+1)+:17]});
      end else begin
        fb = 64'sd65536;
        pb = 64'sd65536;
      end
      if (fb <= fa) begin
        r_dn = 64'sd1;
        r_num = pa;
        r_code = (pa <= 0) ? 2'd0 : (pa >= 65536) ? 2'd1 : 2'd2;
      end else begin
        dn = (fb - fa) * lim;
        num = pa * dn + (pb - pa) * (o - fa * lim);
        r_dn = dn;
        r_num = num;
        r_code = (num <= 0) ? 2'd0 : (num >= 64'sd65536 * dn) ? 2'd1 : 2'd2;
      end
    end
    profile_eval = {r_code, r_dn, r_num};
  endfunction

endpackage
