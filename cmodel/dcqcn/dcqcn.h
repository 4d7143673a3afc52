// SPDX-License-Identifier: Apache-2.0
//
// libdcqcn: the bit-accurate, cycle-accurate C reference model of the DCQCN NIC block
// (reaction point, notification point, pacer). It implements docs/spec-dcqcn.md; section
// numbers "D<n>" below refer to it. The RTL top rtl/dcqcn/dcqcn_top.sv has the same
// per-cycle bundles (spec D2).
//
// The model is untimed: the caller owns time. dcqcn_step() executes one cycle;
// dcqcn_advance_to() executes idle cycles until a target cycle or the first output, jumping
// over cycles in which nothing can happen (a heap of per-QP timer visits, spec D13).
// Neither allocates nor does I/O.

#ifndef DCQCN_CMODEL_DCQCN_H_
#define DCQCN_CMODEL_DCQCN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DCQCN_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define DCQCN_WARN_UNUSED
#endif

#define DCQCN_MAX_QPS 4096u
#define DCQCN_MAX_SCAN_WIDTH 16u
// Size of the rate-update array of dcqcn_out_t. Since spec 2.0 a cycle reports at most
// one entry per scan slot (n_rate <= scan_width, D7); the array keeps its version-1 size.
#define DCQCN_MAX_RATE_UPD (DCQCN_MAX_SCAN_WIDTH + 2u)
// Latencies of the RTL's outputs after their logical cycle (spec D2.2, D15): the model
// produces them in the cycle it executes; the RTL drives them this many clock cycles later.
#define DCQCN_LAT_RATE 3u    // rate[], n_rate
#define DCQCN_LAT_CNP_TX 3u  // cnp_tx
#define DCQCN_LAT_PACE 15u   // pace
#define DCQCN_LAT_CSR 16u    // APB completion (pready, prdata, pslverr) after the access
#define DCQCN_DUE_BITS 35u   // the RTL keeps deadlines modulo 2^35 (D3)
#define DCQCN_ALPHA_MAX 1023u
#define DCQCN_STAGE_MAX 255u
#define DCQCN_BYTE_COUNT_MAX 0x3FFFFFu  // 22 bits
#define DCQCN_NEVER UINT64_MAX          // a disarmed timer's deadline

typedef enum dcqcn_status {
  kDcqcnOk = 0,
  kDcqcnBadArg = 1,  // a NULL pointer or a parameter outside its range
  kDcqcnNoMem = 2,   // allocation failed (create only)
} dcqcn_status_t;

// Elaboration parameters (spec D1).
typedef struct dcqcn_params {
  uint32_t num_qps;     // 1..4096, default 64
  uint32_t scan_width;  // U: 1..16 timer-scan slots per cycle, default 4
} dcqcn_params_t;

// ------------------------------------------------------------------ per-cycle bundles (D2)

typedef struct dcqcn_qp_ev {
  bool valid;
  uint16_t qp;
} dcqcn_qp_ev_t;

typedef struct dcqcn_tx_ev {
  bool valid;
  uint16_t qp;
  uint16_t bytes;  // frame bytes that left for this QP this cycle
} dcqcn_tx_ev_t;

typedef struct dcqcn_csr_req {
  bool valid;
  bool write;
  uint16_t addr;
  uint32_t wdata;
} dcqcn_csr_req_t;

typedef struct dcqcn_in {
  dcqcn_qp_ev_t cnp;  // a CNP was received for qp (reaction point)
  dcqcn_tx_ev_t tx;   // qp transmitted `bytes` (byte counter and pacer)
  dcqcn_qp_ev_t ce;   // a CE-marked data packet of qp was received (notification point)
  dcqcn_csr_req_t csr;
} dcqcn_in_t;

typedef struct dcqcn_rate_upd {
  uint16_t qp;
  uint32_t rc;     // Mb/s, 20 bits
  uint32_t rt;     // Mb/s, 20 bits
  uint16_t alpha;  // Q10
} dcqcn_rate_upd_t;

typedef struct dcqcn_pace {
  bool valid;
  uint16_t qp;
  uint64_t next_send;  // first cycle in which qp may transmit again
} dcqcn_pace_t;

typedef struct dcqcn_csr_rsp {
  bool valid;
  bool err;
  uint32_t rdata;
} dcqcn_csr_rsp_t;

typedef struct dcqcn_out {
  uint64_t cycle;                             // the cycle these outputs belong to
  dcqcn_qp_ev_t cnp_tx;                       // the notification point sends a CNP for qp
  uint32_t n_rate;                            // entries of rate[] valid this cycle
  dcqcn_rate_upd_t rate[DCQCN_MAX_RATE_UPD];  // visited QPs whose rc, rt or alpha changed (D7)
  dcqcn_pace_t pace;                          // pacer answer to this cycle's tx
  dcqcn_csr_rsp_t csr_rsp;
} dcqcn_out_t;

static inline bool dcqcn_out_any(const dcqcn_out_t *o) {
  return o->cnp_tx.valid || o->n_rate != 0 || o->pace.valid || o->csr_rsp.valid;
}

// ------------------------------------------------------------------ lifecycle

typedef struct dcqcn dcqcn_t;

void dcqcn_params_default(dcqcn_params_t *p);
// Checks the ranges of spec D1; on failure returns false and sets *why (if not NULL).
DCQCN_WARN_UNUSED bool dcqcn_params_valid(const dcqcn_params_t *p, const char **why);
DCQCN_WARN_UNUSED dcqcn_status_t dcqcn_create(const dcqcn_params_t *p, dcqcn_t **out);
void dcqcn_destroy(dcqcn_t *m);
// Equivalent to asserting rst_ni: every register and QP to its reset value, t = 0.
void dcqcn_reset(dcqcn_t *m);
const dcqcn_params_t *dcqcn_params(const dcqcn_t *m);

// ------------------------------------------------------------------ time

// Executes cycle dcqcn_cycle(m) with the given inputs (NULL: an idle cycle).
void dcqcn_step(dcqcn_t *m, const dcqcn_in_t *in, dcqcn_out_t *out);
// Executes idle cycles while dcqcn_cycle(m) < target. Returns true as soon as a cycle
// produced an output (out holds it); false when target was reached without output
// (out->cycle = target). Exactly equivalent to stepping; the cost depends on the number of
// timer visits that change state, not on the length of the idle stretch.
bool dcqcn_advance_to(dcqcn_t *m, uint64_t target, dcqcn_out_t *out);
uint64_t dcqcn_cycle(const dcqcn_t *m);
// With the rate stream off (dcqcn_set_rate_stream) and no CSR access in `in`: the idle
// cycles before `cycle` (with the stream off they produce no output) and then the cycle
// max(cycle, dcqcn_cycle(m)) with `in`, in one call; exactly dcqcn_advance_to(m, cycle, out)
// followed by dcqcn_step(m, in, out). Returns false, doing nothing, otherwise (stream on,
// eager mode, a CSR access): use those two calls then.
bool dcqcn_step_at(dcqcn_t *m, uint64_t cycle, const dcqcn_in_t *in, dcqcn_out_t *out);
// Earliest cycle >= dcqcn_cycle(m) in which an idle cycle could change anything but time.
uint64_t dcqcn_next_event(const dcqcn_t *m);
// Eager mode: every cycle scans its QPs exactly as the RTL does (spec D5), without the
// heap and without parking quiescent QPs. The reference the fast paths are tested against.
void dcqcn_set_eager(dcqcn_t *m, bool eager);
// Rate-update stream (D7, rate[] and n_rate of dcqcn_out_t) on (the default, the RTL's
// behaviour) or off, for a user that reads only the pacer and the notification point
// (xtm-netsim). Off, every cycle reports n_rate = 0 and the alpha timer is lazy: its
// firings (alpha := g * alpha >> 10 each, the first plus 1024 - g, saturated, when a CNP is
// in its slot) are applied in closed form when the QP is next touched, so a QP whose alpha
// is still decaying, or whose CNP waits for the alpha timer, needs no visit for it. Every
// other output (pace, cnp_tx, csr_rsp), the state (dcqcn_qp_state, CSR reads) and the
// counters stay exactly those of the stream on (tests/unit/test_dcqcn_advance.c checks it
// against the eager reference).
void dcqcn_set_rate_stream(dcqcn_t *m, bool on);

// ------------------------------------------------------------------ CSR backdoor (D9)
// An access between cycles, equivalent to a bus access in a cycle with no other input.
DCQCN_WARN_UNUSED bool dcqcn_csr_read(dcqcn_t *m, uint16_t addr, uint32_t *data);
DCQCN_WARN_UNUSED bool dcqcn_csr_write(dcqcn_t *m, uint16_t addr, uint32_t data);

// Driver-facing parameter access by mlxconfig name (RPG_TIME_RESET, ..., also
// CYCLES_PER_US and LINE_RATE). Unknown names and values outside the legal range are
// rejected (kDcqcnBadArg) before anything is written.
DCQCN_WARN_UNUSED dcqcn_status_t dcqcn_param_lookup(const char *name, uint16_t *addr, uint32_t *min,
                                                    uint32_t *max);
DCQCN_WARN_UNUSED dcqcn_status_t dcqcn_param_set(dcqcn_t *m, const char *name, uint32_t value);
// Name of the i-th settable parameter (NULL past the end), for help texts.
const char *dcqcn_param_name(uint32_t i);

// ------------------------------------------------------------------ introspection

typedef struct dcqcn_qp_state {
  bool active;          // seen_first_cnp
  bool cnp_alpha;       // cnp_in_alpha_slot
  bool cnp_dec;         // cnp_in_decrease_slot
  uint32_t rc, rt;      // Mb/s
  uint16_t alpha;       // Q10
  uint8_t stage_timer;  // T
  uint8_t stage_byte;   // BC
  uint32_t byte_count;
  uint64_t alpha_due;  // absolute deadlines (DCQCN_NEVER: disarmed), as the RTL holds
  uint64_t dec_due;    // them at the start of cycle dcqcn_cycle()
  uint64_t inc_due;
  uint64_t pace_q8;  // pacer next-send time, 1/256 cycle
  bool np_sent;      // the NP has sent a CNP for this QP
  uint64_t np_last;  // cycle of that CNP
  // pending RP events (spec D5.1), applied at the QP's next visit; while init_pend is set
  // the fields above from active to inc_due read as the INIT word with the current cap (as
  // the QP window shows them; the RTL still holds the old word, which the INIT replaces)
  bool init_pend;       // Q_CTRL.INIT of the reaction point
  bool pend_cnp;        // a CNP for a QP that is inactive (or has an INIT pending)
  bool pend_cnp_more;   // a further CNP after it
  uint32_t pend_bytes;  // bytes of an active QP sent since its last visit
} dcqcn_qp_state_t;

typedef enum dcqcn_gcnt {
  kDcqcnGcntCnpRx,
  kDcqcnGcntCnpFirst,
  kDcqcnGcntCuts,
  kDcqcnGcntIncFr,
  kDcqcnGcntIncAi,
  kDcqcnGcntIncHai,
  kDcqcnGcntIncByTimer,
  kDcqcnGcntIncByBytes,
  kDcqcnGcntCeRx,
  kDcqcnGcntCnpTx,
  kDcqcnGcntCeCoalesced,
  kDcqcnGcntBadQp,
  kDcqcnGcntPaceEarly,
  kDcqcnGcntCount
} dcqcn_gcnt_t;

typedef enum dcqcn_qcnt {
  kDcqcnQcntCnpRx,
  kDcqcnQcntCuts,
  kDcqcnQcntInc,
  kDcqcnQcntCeRx,
  kDcqcnQcntCnpTx,
  kDcqcnQcntCount
} dcqcn_qcnt_t;

void dcqcn_qp_state(const dcqcn_t *m, uint32_t qp, dcqcn_qp_state_t *s);
uint64_t dcqcn_counter(const dcqcn_t *m, dcqcn_gcnt_t c);
uint64_t dcqcn_qp_counter(const dcqcn_t *m, uint32_t qp, dcqcn_qcnt_t c);
// Scan geometry (spec D5): S = ceil(NumQps / U); QP q is visited in cycles t with
// t mod S == q / U.
uint32_t dcqcn_scan_period(const dcqcn_t *m);

// Fault injection for the negative test of the step/advance_to differential check: a bug
// in the skipping path only (eager mode is unaffected).
typedef enum dcqcn_fault {
  kDcqcnFaultNone = 0,
  kDcqcnFaultCatchUpShort,  // waking a parked QP moves its timers one period too few
} dcqcn_fault_t;
bool dcqcn_inject_fault(dcqcn_t *m, dcqcn_fault_t f);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DCQCN_CMODEL_DCQCN_H_
