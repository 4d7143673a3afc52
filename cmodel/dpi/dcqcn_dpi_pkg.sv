// SPDX-License-Identifier: Apache-2.0
//
// dcqcn_dpi_pkg: the DCQCN C model as a DPI-C reference for a SystemVerilog testbench (any
// IEEE 1800 simulator; docs/dpi.md). The C side is cmodel/dpi/dcqcn_dpi.c (prototypes in
// cmodel/dpi/dcqcn_dpi.h); it wraps cmodel/dcqcn/dcqcn.h, whose behaviour
// docs/spec-dcqcn.md defines (section numbers D<n>).
//
// The D2 bundles are packed structs; the rate updates of a cycle come as four vectors in
// the layout of rtl/dcqcn/dcqcn_top's ports, with DCQCN_DPI_MAX_RATE entries (entries at
// and above n_rate are 0):
//   rate_qp [16k +: 16], rate_rc [20k +: 20], rate_rt [20k +: 20], rate_alpha [10k +: 10]
// Handles and status codes as in xtm_dpi_pkg (an xtm handle is refused here, and the
// other way round).

package dcqcn_dpi_pkg;

  // 2: spec-dcqcn 2.0 (the pending RP events of D5.1 in the QP state)
  localparam int unsigned DCQCN_DPI_ABI_VERSION = 2;
  localparam int unsigned DCQCN_DPI_MAX_RATE = 18;  // DCQCN_MAX_SCAN_WIDTH + 2

  localparam int DCQCN_DPI_OK = 0;
  localparam int DCQCN_DPI_FALSE = 1;
  localparam int DCQCN_DPI_OUTPUT = 1;
  localparam int DCQCN_DPI_E_HANDLE = -1;
  localparam int DCQCN_DPI_E_ARG = -2;
  localparam int DCQCN_DPI_E_NOMEM = -3;
  localparam int DCQCN_DPI_E_FULL = -4;
  localparam int DCQCN_DPI_E_BUSY = -5;
  localparam int DCQCN_DPI_E_ABI = -6;

  // counters (C twins dcqcn_gcnt_t, dcqcn_qcnt_t)
  localparam int unsigned DCQCN_GCNT_CNP_RX = 0, DCQCN_GCNT_CNP_FIRST = 1, DCQCN_GCNT_CUTS = 2;
  localparam int unsigned DCQCN_GCNT_INC_FR = 3, DCQCN_GCNT_INC_AI = 4, DCQCN_GCNT_INC_HAI = 5;
  localparam int unsigned DCQCN_GCNT_INC_BY_TIMER = 6, DCQCN_GCNT_INC_BY_BYTES = 7;
  localparam int unsigned DCQCN_GCNT_CE_RX = 8, DCQCN_GCNT_CNP_TX = 9;
  localparam int unsigned DCQCN_GCNT_CE_COALESCED = 10, DCQCN_GCNT_BAD_QP = 11;
  localparam int unsigned DCQCN_GCNT_PACE_EARLY = 12, DCQCN_GCNT_COUNT = 13;
  localparam int unsigned DCQCN_QCNT_CNP_RX = 0, DCQCN_QCNT_CUTS = 1, DCQCN_QCNT_INC = 2;
  localparam int unsigned DCQCN_QCNT_CE_RX = 3, DCQCN_QCNT_CNP_TX = 4, DCQCN_QCNT_COUNT = 5;

  typedef struct packed {
    bit [31:0] num_qps;     // 1..4096
    bit [31:0] scan_width;  // 1..16
  } dcqcn_dpi_params_t;

  typedef struct packed {
    bit        valid;
    bit [15:0] qp;
  } dcqcn_dpi_qp_ev_t;

  typedef struct packed {
    bit        valid;
    bit [15:0] qp;
    bit [15:0] bytes;
  } dcqcn_dpi_tx_ev_t;

  typedef struct packed {
    bit        valid;
    bit        write;
    bit [15:0] addr;
    bit [31:0] wdata;
  } dcqcn_dpi_csr_req_t;

  typedef struct packed {
    dcqcn_dpi_qp_ev_t   cnp;  // a CNP was received for qp (reaction point)
    dcqcn_dpi_tx_ev_t   tx;   // qp transmitted `bytes` (byte counter and pacer)
    dcqcn_dpi_qp_ev_t   ce;   // a CE-marked packet of qp was received (notification point)
    dcqcn_dpi_csr_req_t csr;
  } dcqcn_dpi_in_t;

  typedef struct packed {
    bit        valid;
    bit [15:0] qp;
    bit [63:0] next_send;  // first cycle in which qp may transmit again
  } dcqcn_dpi_pace_t;

  typedef struct packed {
    bit        valid;
    bit        err;
    bit [31:0] rdata;
  } dcqcn_dpi_csr_rsp_t;

  typedef struct packed {
    bit [63:0]          cycle;
    dcqcn_dpi_qp_ev_t   cnp_tx;  // the notification point sends a CNP for qp
    bit [4:0]           n_rate;  // rate updates this cycle (D7)
    dcqcn_dpi_pace_t    pace;
    dcqcn_dpi_csr_rsp_t csr_rsp;
  } dcqcn_dpi_out_t;

  typedef bit [DCQCN_DPI_MAX_RATE*16-1:0] dcqcn_dpi_rate_qp_t;
  typedef bit [DCQCN_DPI_MAX_RATE*20-1:0] dcqcn_dpi_rate_mbps_t;
  typedef bit [DCQCN_DPI_MAX_RATE*10-1:0] dcqcn_dpi_rate_alpha_t;

  // (the spec 2.0 fields are the first members, the top bits, so that the 1.x fields kept
  // their offsets)
  typedef struct packed {
    bit [31:0] pend_bytes;     // D5.1 pending: bytes of an active QP since its last visit
    bit        pend_cnp_more;  // D5.1 pending: a further CNP after pend_cnp
    bit        pend_cnp;       // D5.1 pending: a CNP of an inactive QP (or one with an INIT pending)
    bit        init_pend;      // D5.1 pending: Q_CTRL.INIT of the reaction point
    bit        active;       // seen_first_cnp
    bit        cnp_alpha;
    bit        cnp_dec;
    bit [31:0] rc;           // Mb/s
    bit [31:0] rt;           // Mb/s
    bit [15:0] alpha;        // Q10
    bit [7:0]  stage_timer;
    bit [7:0]  stage_byte;
    bit [31:0] byte_count;
    bit [63:0] alpha_due;    // absolute deadlines, all ones = disarmed
    bit [63:0] dec_due;
    bit [63:0] inc_due;
    bit [63:0] pace_q8;      // pacer next-send time, 1/256 cycle
    bit        np_sent;
    bit [63:0] np_last;
  } dcqcn_dpi_qp_state_t;

  import "DPI-C" function int dcqcn_dpi_abi_check(input int unsigned abi_version,
                                                  input int unsigned params_bits,
                                                  input int unsigned in_bits,
                                                  input int unsigned out_bits,
                                                  input int unsigned qp_state_bits);
  import "DPI-C" function void dcqcn_dpi_params_default(output dcqcn_dpi_params_t params);
  import "DPI-C" function int dcqcn_dpi_create(input dcqcn_dpi_params_t params, output chandle h);
  import "DPI-C" function int dcqcn_dpi_destroy(input chandle h);
  import "DPI-C" function int dcqcn_dpi_reset(input chandle h);
  import "DPI-C" function int dcqcn_dpi_get_params(input chandle h,
                                                   output dcqcn_dpi_params_t params);
  import "DPI-C" function int dcqcn_dpi_instances();

  import "DPI-C" function int dcqcn_dpi_step(
      input chandle h, input dcqcn_dpi_in_t in, output dcqcn_dpi_out_t out,
      output dcqcn_dpi_rate_qp_t rate_qp, output dcqcn_dpi_rate_mbps_t rate_rc,
      output dcqcn_dpi_rate_mbps_t rate_rt, output dcqcn_dpi_rate_alpha_t rate_alpha);
  // DCQCN_DPI_OUTPUT when a cycle produced an output, DCQCN_DPI_OK at target without one
  import "DPI-C" function int dcqcn_dpi_advance_to(
      input chandle h, input longint unsigned target, output dcqcn_dpi_out_t out,
      output dcqcn_dpi_rate_qp_t rate_qp, output dcqcn_dpi_rate_mbps_t rate_rc,
      output dcqcn_dpi_rate_mbps_t rate_rt, output dcqcn_dpi_rate_alpha_t rate_alpha);
  import "DPI-C" function int dcqcn_dpi_cycle(input chandle h, output longint unsigned cycle);
  import "DPI-C" function int dcqcn_dpi_next_event(input chandle h,
                                                   output longint unsigned cycle);
  import "DPI-C" function int dcqcn_dpi_set_eager(input chandle h, input bit eager);
  import "DPI-C" function int dcqcn_dpi_scan_period(input chandle h,
                                                    output int unsigned period);

  import "DPI-C" function int dcqcn_dpi_csr_read(input chandle h, input int unsigned addr,
                                                 output int unsigned data);
  import "DPI-C" function int dcqcn_dpi_csr_write(input chandle h, input int unsigned addr,
                                                  input int unsigned data);
  // by mlxconfig name (RPG_TIME_RESET, ...): DCQCN_DPI_E_ARG for an unknown name or value
  import "DPI-C" function int dcqcn_dpi_param_set(input chandle h, input string name,
                                                  input int unsigned value);

  import "DPI-C" function int dcqcn_dpi_qp_state(input chandle h, input int unsigned qp,
                                                 output dcqcn_dpi_qp_state_t state);
  import "DPI-C" function int dcqcn_dpi_counter(input chandle h, input int unsigned idx,
                                                output longint unsigned value);
  import "DPI-C" function int dcqcn_dpi_qp_counter(input chandle h, input int unsigned qp,
                                                   input int unsigned idx,
                                                   output longint unsigned value);

  import "DPI-C" function string dcqcn_dpi_last_error();
  import "DPI-C" function string dcqcn_dpi_status_name(input int status);

  function automatic int dcqcn_dpi_abi_ok();
    dcqcn_dpi_abi_ok = dcqcn_dpi_abi_check(DCQCN_DPI_ABI_VERSION, $bits(dcqcn_dpi_params_t),
                                           $bits(dcqcn_dpi_in_t), $bits(dcqcn_dpi_out_t),
                                           $bits(dcqcn_dpi_qp_state_t));
  endfunction

endpackage
