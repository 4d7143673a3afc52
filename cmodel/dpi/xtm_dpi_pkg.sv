// SPDX-License-Identifier: Apache-2.0
//
// xtm_dpi_pkg: the xtm C model as a DPI-C reference for a SystemVerilog testbench (any
// IEEE 1800 simulator; docs/dpi.md). The C side is cmodel/dpi/xtm_dpi.c (prototypes in
// cmodel/dpi/xtm_dpi.h); it wraps cmodel/xtm/xtm.h, whose behaviour docs/spec.md defines.
//
// The per-cycle bundles of spec section 2 are packed structs (2-state, passed as svBitVecVal
// vectors); the per-port vectors have the layout of rtl/xtm/xtm_top's ports, sized for
// XTM_DPI_MAX_PORTS ports (a NumPorts-wide port vector zero-extends into them):
//   pfc_*_vec     port p at [8p +: 8]
//   pfc_*_quanta  port p priority i at [16(8p+i) +: 16]
//   deq           port p at [103p +: 103], an xtm_dpi_deq_rec_t (= xtm_pkg::deq_rec_t)
// A model instance is a chandle (an opaque token: a null, destroyed or forged handle is
// refused with XTM_DPI_E_HANDLE, never dereferenced). Every function returns a status:
// >= 0 an answer, < 0 an error with a message in xtm_dpi_last_error().

package xtm_dpi_pkg;

  // 2: spec 2.0 (the state structs' 2.0 fields, the 2.0 faults, XTM_DPI_OUT_LATENCY)
  localparam int unsigned XTM_DPI_ABI_VERSION = 2;
  // spec 15.1: the RTL shows the outputs of logical cycle t on its ports in cycle t + 6,
  // pready of an access begun in cycle a in cycle a + 6 (C twin XTM_OUT_LATENCY, xtm.h)
  localparam int unsigned XTM_DPI_OUT_LATENCY = 6;
  localparam int unsigned XTM_DPI_MAX_PORTS = 64;
  localparam int unsigned XTM_DPI_NUM_PRIOS = 8;
  localparam int unsigned XTM_DPI_DEQ_REC_W = 103;

  // status codes (C twin dpi_status_t, cmodel/dpi/dpi_handle.h)
  localparam int XTM_DPI_OK = 0;
  localparam int XTM_DPI_FALSE = 1;      // the documented "no": CSR error, broken invariant, ...
  localparam int XTM_DPI_OUTPUT = 1;     // advance_to: stopped on a cycle with an output
  localparam int XTM_DPI_E_HANDLE = -1;  // null, destroyed, forged or a dcqcn handle
  localparam int XTM_DPI_E_ARG = -2;     // an index or parameter out of range
  localparam int XTM_DPI_E_NOMEM = -3;
  localparam int XTM_DPI_E_FULL = -4;    // 256 instances live
  localparam int XTM_DPI_E_BUSY = -5;    // the instance is being called from another thread
  localparam int XTM_DPI_E_ABI = -6;     // this package and the C layer disagree

  // counter indices (C twins xtm_vcnt_t, xtm_gcnt_t, xtm_pcnt_t, xtm_ecnt_t)
  localparam int unsigned XTM_VCNT_ARR = 0, XTM_VCNT_ENQ_PKTS = 1, XTM_VCNT_ENQ_BYTES = 2;
  localparam int unsigned XTM_VCNT_DEQ_PKTS = 3, XTM_VCNT_DEQ_BYTES = 4, XTM_VCNT_DROP_TAIL = 5;
  localparam int unsigned XTM_VCNT_DROP_POOL = 6, XTM_VCNT_DROP_PROFILE = 7;
  localparam int unsigned XTM_VCNT_DROP_HDRM = 8, XTM_VCNT_DROP_BUF = 9, XTM_VCNT_DROP_QDIS = 10;
  localparam int unsigned XTM_VCNT_DROP_WD = 11, XTM_VCNT_DROP_FLUSH = 12;
  localparam int unsigned XTM_VCNT_DROP_BYTES = 13, XTM_VCNT_MARK_TAIL = 14;
  localparam int unsigned XTM_VCNT_MARK_HEAD = 15, XTM_VCNT_MARK_LAT = 16;
  localparam int unsigned XTM_VCNT_HBM_EVICT = 17, XTM_VCNT_HBM_RETURN = 18;
  localparam int unsigned XTM_VCNT_WD_STALL = 19, XTM_VCNT_WD_RESTORE = 20, XTM_VCNT_DROP_POL = 21;
  localparam int unsigned XTM_VCNT_COUNT = 22;
  localparam int unsigned XTM_GCNT_XOFF_SENT = 0, XTM_GCNT_XON_SENT = 1, XTM_GCNT_PAUSE_RX = 2;
  localparam int unsigned XTM_GCNT_XON_RX = 3, XTM_GCNT_PAUSED_CYCLES = 4, XTM_GCNT_COUNT = 5;
  localparam int unsigned XTM_PCNT_TX_PKTS = 0, XTM_PCNT_TX_BYTES = 1;
  localparam int unsigned XTM_PCNT_PFC_TX_FRAMES = 2, XTM_PCNT_PFC_RX_FRAMES = 3;
  localparam int unsigned XTM_PCNT_COUNT = 4;
  localparam int unsigned XTM_ECNT_ARR = 0, XTM_ECNT_LEN_ZERO = 1, XTM_ECNT_LEN_MAX = 2;
  localparam int unsigned XTM_ECNT_BAD_PORT = 3, XTM_ECNT_BAD_TC = 4, XTM_ECNT_NOT_READY = 5;
  localparam int unsigned XTM_ECNT_COUNT = 6;
  // policer counters (C twin xtm_polcnt_t; spec 4.7)
  localparam int unsigned XTM_POLCNT_DROP_PKTS = 0, XTM_POLCNT_DROP_BYTES = 1;
  localparam int unsigned XTM_POLCNT_PASS_PKTS = 2, XTM_POLCNT_COUNT = 3;
  // faults for the negative tests of a checker (C twin xtm_fault_t)
  localparam int unsigned XTM_FAULT_LEAK_POOL_CELL = 0, XTM_FAULT_DROP_VOQ_COUNT = 1;
  localparam int unsigned XTM_FAULT_SKIP_ARR_COUNT = 2, XTM_FAULT_FLIP_LFSR = 3;
  localparam int unsigned XTM_FAULT_LOSE_BUSY_PORT = 4, XTM_FAULT_FLIP_HEAD_LFSR = 5;
  localparam int unsigned XTM_FAULT_FLIP_CONFORM = 6;

  // elaboration parameters (spec section 1)
  typedef struct packed {
    bit [31:0] num_ports;
    bit [31:0] num_tcs;
    bit [31:0] num_desc;
    bit [31:0] cell_bytes;
    bit [31:0] ocb_cells;
    bit [31:0] hbm_cells;
    bit [31:0] fifo_depth;
  } xtm_dpi_params_t;

  // ---------------------------------------------------------------- spec 2.1 inputs
  typedef struct packed {
    bit        valid;
    bit [31:0] pkt_id;
    bit [5:0]  in_port;
    bit [5:0]  eg_port;
    bit [5:0]  dscp;
    bit [1:0]  ecn;
    bit [13:0] len;
  } xtm_dpi_enq_t;

  typedef struct packed {
    bit        valid;
    bit        write;
    bit [15:0] addr;
    bit [31:0] wdata;
  } xtm_dpi_csr_req_t;

  // with pfc_rx_vec / pfc_rx_quanta as separate vectors (the ports' layout)
  typedef struct packed {
    xtm_dpi_enq_t     enq;
    xtm_dpi_csr_req_t csr;
    bit [63:0]        tx_ready;      // bit p: MAC of port p ready
    bit [63:0]        pfc_rx_valid;  // bit p: a PFC frame was received on port p
  } xtm_dpi_in_t;

  // ---------------------------------------------------------------- spec 2.2 outputs
  typedef struct packed {
    bit        valid;
    bit [31:0] pkt_id;
    bit [8:0]  voq;
    bit [3:0]  reason;
    bit        marked;
    bit        hdrm;
    bit        hbm;
  } xtm_dpi_enq_res_t;

  typedef struct packed {
    bit        valid;
    bit [31:0] pkt_id;
    bit [8:0]  voq;
  } xtm_dpi_flush_t;

  typedef struct packed {
    bit        valid;
    bit        err;
    bit [31:0] rdata;
  } xtm_dpi_csr_rsp_t;

  // with deq / pfc_tx_vec / pfc_tx_quanta as separate vectors; entries whose valid bit is
  // clear are 0
  typedef struct packed {
    bit [63:0]        cycle;  // the cycle these outputs belong to
    xtm_dpi_enq_res_t enq_res;
    xtm_dpi_flush_t   flush;
    xtm_dpi_csr_rsp_t csr_rsp;
    bit [63:0]        deq_valid;
    bit [63:0]        pfc_tx_valid;
  } xtm_dpi_out_t;

  typedef struct packed {
    bit [31:0] pkt_id;
    bit [8:0]  voq;
    bit [5:0]  in_port;
    bit [13:0] len;
    bit [5:0]  dscp;
    bit [1:0]  ecn;
    bit        marked;
    bit        hbm;
    bit [31:0] sojourn;
  } xtm_dpi_deq_rec_t;

  typedef bit [XTM_DPI_MAX_PORTS*8-1:0] xtm_dpi_vec_t;
  typedef bit [XTM_DPI_MAX_PORTS*128-1:0] xtm_dpi_quanta_t;
  typedef bit [XTM_DPI_MAX_PORTS*XTM_DPI_DEQ_REC_W-1:0] xtm_dpi_deq_t;

  // ---------------------------------------------------------------- spec 12 state
  // (the spec 2.0 fields are the first members, the top bits, so that the 1.x fields kept
  // their offsets)
  typedef struct packed {
    bit [7:0]         wd_clean;        // watchdog clean poll counter (spec 8)
    bit [7:0]         wd_storm;        // watchdog storm poll counter (spec 8)
    bit               shaper_conform;  // the queue shaper's conformance bit (spec 9.5)
    bit [31:0]        occ_cells;
    bit [31:0]        occ_pkts;
    bit [31:0]        hbm_cells;
    bit               hbm_mode;
    bit               ocb_only;
    bit               wd_stalled;
    bit               flushing;
    bit signed [31:0] deficit;
    bit [31:0]        head_pkt_id;  // 0 when occ_pkts = 0
  } xtm_dpi_voq_state_t;

  typedef struct packed {
    bit [31:0] pg_cells;
    bit [31:0] hdrm_used;
    bit        xoff;
    bit [63:0] pause_remain;  // egress side: cycles of pause still to run
  } xtm_dpi_pg_state_t;

  typedef struct packed {
    bit [31:0] lfsr_head;  // the head LFSR (LFSR_HEAD_STATE, spec 6.3)
    bit [31:0] pool_used;
    bit [31:0] ocb_used;
    bit [31:0] hbm_used;
    bit [31:0] desc_free;
    bit [31:0] lfsr;       // the enqueue LFSR (LFSR_STATE, spec 6.4)
    bit [63:0] cycle;  // the next cycle step will execute
  } xtm_dpi_global_state_t;

  // ---------------------------------------------------------------- lifecycle
  import "DPI-C" function int xtm_dpi_abi_check(
      input int unsigned abi_version, input int unsigned params_bits, input int unsigned in_bits,
      input int unsigned out_bits, input int unsigned voq_state_bits,
      input int unsigned pg_state_bits, input int unsigned global_state_bits);
  import "DPI-C" function void xtm_dpi_params_default(output xtm_dpi_params_t params);
  import "DPI-C" function int xtm_dpi_create(input xtm_dpi_params_t params, output chandle h);
  import "DPI-C" function int xtm_dpi_destroy(input chandle h);
  import "DPI-C" function int xtm_dpi_reset(input chandle h);  // = rst_ni: cycle 0 next
  import "DPI-C" function int xtm_dpi_get_params(input chandle h, output xtm_dpi_params_t params);
  import "DPI-C" function int xtm_dpi_instances();  // live instances (all threads)

  // ---------------------------------------------------------------- time
  // One cycle (spec 4): the inputs of the cycle in, its outputs out.
  import "DPI-C" function int xtm_dpi_step(
      input chandle h, input xtm_dpi_in_t in, input xtm_dpi_vec_t pfc_rx_vec,
      input xtm_dpi_quanta_t pfc_rx_quanta, output xtm_dpi_out_t out, output xtm_dpi_deq_t deq,
      output xtm_dpi_vec_t pfc_tx_vec, output xtm_dpi_quanta_t pfc_tx_quanta);
  // Idle cycles (no enqueue, frame or CSR access; tx_ready as last given) while cycle <
  // target: XTM_DPI_OUTPUT when a cycle produced an output (out holds it, out.cycle says
  // which), XTM_DPI_OK when target was reached without one. Equivalent to stepping.
  import "DPI-C" function int xtm_dpi_advance_to(
      input chandle h, input longint unsigned target, output xtm_dpi_out_t out,
      output xtm_dpi_deq_t deq, output xtm_dpi_vec_t pfc_tx_vec,
      output xtm_dpi_quanta_t pfc_tx_quanta);
  import "DPI-C" function int xtm_dpi_cycle(input chandle h, output longint unsigned cycle);
  import "DPI-C" function int xtm_dpi_next_event(input chandle h, output longint unsigned cycle);
  import "DPI-C" function int xtm_dpi_set_tx_ready(input chandle h, input longint unsigned mask);
  import "DPI-C" function int xtm_dpi_set_eager(input chandle h, input bit eager);

  // ---------------------------------------------------------------- CSR backdoor
  // Between cycles (spec 13): XTM_DPI_OK, or XTM_DPI_FALSE for a CSR error (ERR_STATUS set).
  import "DPI-C" function int xtm_dpi_csr_read(input chandle h, input int unsigned addr,
                                               output int unsigned data);
  import "DPI-C" function int xtm_dpi_csr_write(input chandle h, input int unsigned addr,
                                                input int unsigned data);

  // ---------------------------------------------------------------- state and counters
  import "DPI-C" function int xtm_dpi_voq_state(input chandle h, input int unsigned voq,
                                                output xtm_dpi_voq_state_t state);
  import "DPI-C" function int xtm_dpi_pg_state(input chandle h, input int unsigned port,
                                               input int unsigned prio,
                                               output xtm_dpi_pg_state_t state);
  import "DPI-C" function int xtm_dpi_global_state(input chandle h,
                                                   output xtm_dpi_global_state_t state);
  import "DPI-C" function int xtm_dpi_voq_counter(input chandle h, input int unsigned voq,
                                                  input int unsigned idx,
                                                  output longint unsigned value);
  import "DPI-C" function int xtm_dpi_pg_counter(input chandle h, input int unsigned port,
                                                 input int unsigned prio, input int unsigned idx,
                                                 output longint unsigned value);
  import "DPI-C" function int xtm_dpi_port_counter(input chandle h, input int unsigned port,
                                                   input int unsigned idx,
                                                   output longint unsigned value);
  import "DPI-C" function int xtm_dpi_global_counter(input chandle h, input int unsigned idx,
                                                     output longint unsigned value);
  // ingress policer k = in_port * 8 + j (spec 4.7): the stored bucket (tok in 2^-16 byte,
  // u the cycle of its last evaluation) and its counters
  import "DPI-C" function int xtm_dpi_pol_state(input chandle h, input int unsigned k,
                                                output longint unsigned tok,
                                                output longint unsigned u);
  import "DPI-C" function int xtm_dpi_pol_counter(input chandle h, input int unsigned k,
                                                  input int unsigned idx,
                                                  output longint unsigned value);
  // XTM_DPI_OK, or XTM_DPI_FALSE with the broken identity in xtm_dpi_last_error()
  import "DPI-C" function int xtm_dpi_check_invariants(input chandle h);
  import "DPI-C" function int xtm_dpi_inject_fault(input chandle h, input int unsigned fault);

  import "DPI-C" function string xtm_dpi_last_error();  // of the calling thread
  import "DPI-C" function string xtm_dpi_status_name(input int status);
  import "DPI-C" function string xtm_dpi_reason_name(input int unsigned reason);

  // This package against the linked C layer: XTM_DPI_OK or XTM_DPI_E_ABI. Call it once
  // before creating an instance.
  function automatic int xtm_dpi_abi_ok();
    xtm_dpi_abi_ok = xtm_dpi_abi_check(XTM_DPI_ABI_VERSION, $bits(xtm_dpi_params_t),
                                       $bits(xtm_dpi_in_t), $bits(xtm_dpi_out_t),
                                       $bits(xtm_dpi_voq_state_t), $bits(xtm_dpi_pg_state_t),
                                       $bits(xtm_dpi_global_state_t));
  endfunction

endpackage
