// SPDX-License-Identifier: Apache-2.0
//
// libxtm: the bit-accurate, cycle-accurate C reference model of the xtm traffic manager.
// It implements docs/spec.md; section numbers below refer to it. The RTL top rtl/xtm/xtm_top
// has the same per-cycle bundles (spec section 2).
//
// The model is untimed: the caller owns time. xtm_step() executes one cycle;
// xtm_advance_to() executes idle cycles until a target cycle or the first output, in closed
// form. Neither allocates nor does I/O.

#ifndef XTM_CMODEL_XTM_H_
#define XTM_CMODEL_XTM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define XTM_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define XTM_WARN_UNUSED
#endif

#define XTM_MAX_PORTS 64
#define XTM_MAX_TCS 8
#define XTM_NUM_PRIOS 8
#define XTM_MAX_VOQS (XTM_MAX_PORTS * XTM_MAX_TCS)
// Spec 4.7: 8 ingress policers per port, policer k = in_port * 8 + j.
#define XTM_POLS_PER_PORT 8
#define XTM_MAX_POLS (XTM_MAX_PORTS * XTM_POLS_PER_PORT)

// Spec 15.1: the RTL shows the outputs of logical cycle t on its ports in physical cycle
// t + XTM_OUT_LATENCY (the APB completion of a CSR access of cycle a comes in cycle a + 6).
#define XTM_OUT_LATENCY 6
// Spec 3, 15.6: STATUS.INIT_DONE is 0 in cycles 0 .. XTM_INIT_CYCLES(P)-1 (one row of every
// per-VOQ, per-PG and per-policer memory per cycle; 8 PGs and 8 policers per port).
#define XTM_INIT_CYCLES(num_ports) (8u * (uint32_t)(num_ports))

typedef enum xtm_status {
  kXtmOk = 0,
  kXtmBadArg = 1,  // a NULL pointer or a parameter outside its range
  kXtmNoMem = 2,   // allocation failed (create only)
} xtm_status_t;

// Elaboration parameters (spec section 1). xtm_params_default() fills the defaults.
typedef struct xtm_params {
  uint32_t num_ports;   // 1..64
  uint32_t num_tcs;     // 1..8
  uint32_t num_desc;    // 2..2^20
  uint32_t cell_bytes;  // 64, 128, 256, 512 or 1024
  uint32_t ocb_cells;   // 1..2^28-1
  uint32_t hbm_cells;   // 0..2^28-1
  uint32_t fifo_depth;  // 1..64
} xtm_params_t;

// Drop reasons (spec section 4.6).
typedef enum xtm_reason {
  kXtmReasonAccept = 0,
  kXtmReasonTail = 1,
  kXtmReasonPool = 2,
  kXtmReasonProfile = 3,
  kXtmReasonHeadroom = 4,
  kXtmReasonBufFull = 5,
  kXtmReasonQDisabled = 6,
  kXtmReasonWd = 7,
  kXtmReasonLenZero = 8,
  kXtmReasonLenMax = 9,
  kXtmReasonBadPort = 10,
  kXtmReasonBadTc = 11,
  kXtmReasonNotReady = 12,
  kXtmReasonFlush = 13,
  kXtmReasonPolice = 14,  // the arrival's ingress policer found it non-conforming (spec 4.7)
  kXtmReasonCount = 15,
} xtm_reason_t;

const char *xtm_reason_name(xtm_reason_t r);

// ------------------------------------------------------------------ per-cycle bundles

typedef struct xtm_enq_in {
  bool valid;
  uint32_t pkt_id;
  uint8_t in_port;  // 6 bits
  uint8_t eg_port;  // 6 bits
  uint8_t dscp;     // 6 bits
  uint8_t ecn;      // 2 bits
  uint16_t len;     // 14 bits
} xtm_enq_in_t;

typedef struct xtm_pfc_frame {
  uint8_t vec;                     // priority-enable vector
  uint16_t quanta[XTM_NUM_PRIOS];  // pause time per priority; 0 = XON
} xtm_pfc_frame_t;

typedef struct xtm_csr_req {
  bool valid;
  bool write;
  uint16_t addr;
  uint32_t wdata;
} xtm_csr_req_t;

typedef struct xtm_in {
  xtm_enq_in_t enq;
  uint64_t pfc_rx_valid;                  // bit p: pfc_rx[p] is valid
  xtm_pfc_frame_t pfc_rx[XTM_MAX_PORTS];  // read only where pfc_rx_valid has the bit
  uint64_t tx_ready;                      // bit p: MAC of port p ready
  xtm_csr_req_t csr;
} xtm_in_t;

typedef struct xtm_enq_res {
  bool valid;
  uint32_t pkt_id;
  uint16_t voq;
  uint8_t reason;  // xtm_reason_t
  bool marked;
  bool hdrm;
  bool hbm;
} xtm_enq_res_t;

typedef struct xtm_flush_out {
  bool valid;
  uint32_t pkt_id;
  uint16_t voq;
} xtm_flush_out_t;

typedef struct xtm_deq_out {
  uint32_t pkt_id;
  uint16_t voq;
  uint8_t in_port;
  uint16_t len;
  uint8_t dscp;
  uint8_t ecn;
  bool marked;
  bool hbm;
  uint32_t sojourn;
} xtm_deq_out_t;

typedef struct xtm_csr_rsp {
  bool valid;
  bool err;
  uint32_t rdata;
} xtm_csr_rsp_t;

// Outputs of one cycle. Only entries whose bit is set in deq_valid / pfc_tx_valid are
// written; the others keep stale contents.
typedef struct xtm_out {
  uint64_t cycle;  // the cycle these outputs belong to
  xtm_enq_res_t enq_res;
  xtm_flush_out_t flush;
  uint64_t deq_valid;
  xtm_deq_out_t deq[XTM_MAX_PORTS];
  uint64_t pfc_tx_valid;
  xtm_pfc_frame_t pfc_tx[XTM_MAX_PORTS];
  xtm_csr_rsp_t csr_rsp;
} xtm_out_t;

// True when the cycle produced anything an observer outside the block would see.
static inline bool xtm_out_any(const xtm_out_t *o) {
  return o->enq_res.valid || o->flush.valid || o->deq_valid != 0 || o->pfc_tx_valid != 0 ||
         o->csr_rsp.valid;
}

// ------------------------------------------------------------------ lifecycle

typedef struct xtm xtm_t;

void xtm_params_default(xtm_params_t *p);
// Checks every range of spec section 1; returns NULL and sets *why on failure.
XTM_WARN_UNUSED bool xtm_params_valid(const xtm_params_t *p, const char **why);
XTM_WARN_UNUSED xtm_status_t xtm_create(const xtm_params_t *p, xtm_t **out);
void xtm_destroy(xtm_t *m);
// Equivalent to asserting rst_ni: every register and state to its reset value, t = 0.
void xtm_reset(xtm_t *m);
const xtm_params_t *xtm_params(const xtm_t *m);

// ------------------------------------------------------------------ time

// Executes cycle xtm_cycle(m) with the given inputs, then advances. `in` may be NULL (an
// idle cycle with tx_ready as last given; all ports ready after reset).
void xtm_step(xtm_t *m, const xtm_in_t *in, xtm_out_t *out);
// Executes idle cycles (as xtm_step(m, NULL, out)) from xtm_cycle(m) while xtm_cycle(m) <
// target. Returns true as soon as a cycle produced an output (out holds it, out->cycle
// says which); returns false when it reached target without output (out->cycle = target
// and nothing else is valid). Exactly equivalent to stepping.
bool xtm_advance_to(xtm_t *m, uint64_t target, xtm_out_t *out);
// The next cycle xtm_step will execute.
uint64_t xtm_cycle(const xtm_t *m);
// Earliest cycle >= xtm_cycle(m) at which an idle cycle could produce an output or change
// anything but time (a lower bound; the network simulator sleeps until then). A head or
// latency marking decision made 3 cycles after its selection (spec 6.3) counts as such.
uint64_t xtm_next_event(const xtm_t *m);
// Sets the tx_ready mask used by idle cycles (xtm_step with NULL, xtm_advance_to).
void xtm_set_tx_ready(xtm_t *m, uint64_t mask);
// Eager mode: xtm_step evaluates every step of every cycle instead of skipping cycles
// before xtm_next_event(). Slower; it is the reference the skipping paths are tested
// against (tests/unit/test_advance.c).
void xtm_set_eager(xtm_t *m, bool eager);

// ------------------------------------------------------------------ CSR backdoor
// An access between cycles: equivalent to a CSR access in a cycle in which nothing else
// happens, without consuming a cycle. Returns true on success, false on a CSR error
// (ERR_STATUS is then updated exactly as the bus access would).
XTM_WARN_UNUSED bool xtm_csr_read(xtm_t *m, uint16_t addr, uint32_t *data);
XTM_WARN_UNUSED bool xtm_csr_write(xtm_t *m, uint16_t addr, uint32_t data);

// ------------------------------------------------------------------ introspection
// For tests, the scoreboard and the network simulator; none of this changes state.

typedef struct xtm_voq_state {
  uint32_t occ_cells;
  uint32_t occ_pkts;
  uint32_t hbm_cells;
  bool hbm_mode;
  bool ocb_only;
  bool wd_stalled;
  bool flushing;
  int32_t deficit;
  uint32_t head_pkt_id;  // valid when occ_pkts > 0
  // spec 2.0 additions
  bool shaper_conform;  // the queue shaper's conformance bit in S(t) (spec 9.5)
  uint8_t wd_storm;     // watchdog storm poll counter (spec 8)
  uint8_t wd_clean;     // watchdog clean poll counter (spec 8)
} xtm_voq_state_t;

typedef struct xtm_pg_state {
  uint32_t pg_cells;
  uint32_t hdrm_used;
  bool xoff;
  uint64_t pause_remain;  // egress side: cycles of pause still to run at xtm_cycle()
} xtm_pg_state_t;

// An ingress policer (spec 4.7): the lazy bucket as stored in S(t), without the refill since
// its last evaluation (tok is what POL_TOKENS shows, << 16 and with the fraction).
typedef struct xtm_pol_state {
  uint64_t tok;  // 2^-16 byte, 40 bits
  uint64_t u;    // cycle of the last evaluation (0 after reset)
} xtm_pol_state_t;

typedef struct xtm_global_state {
  uint32_t pool_used;
  uint32_t ocb_used;
  uint32_t hbm_used;
  uint32_t desc_free;
  uint32_t lfsr;  // the enqueue LFSR (LFSR_STATE, spec 6.4)
  uint64_t cycle;
  uint32_t lfsr_head;  // the head LFSR (its state at S(t); a draw lags its selection by 3 cycles)
} xtm_global_state_t;

typedef enum xtm_vcnt {
  kXtmVcntArr,
  kXtmVcntEnqPkts,
  kXtmVcntEnqBytes,
  kXtmVcntDeqPkts,
  kXtmVcntDeqBytes,
  kXtmVcntDropTail,
  kXtmVcntDropPool,
  kXtmVcntDropProfile,
  kXtmVcntDropHdrm,
  kXtmVcntDropBuf,
  kXtmVcntDropQdis,
  kXtmVcntDropWd,
  kXtmVcntDropFlush,
  kXtmVcntDropBytes,
  kXtmVcntMarkTail,
  kXtmVcntMarkHead,
  kXtmVcntMarkLat,
  kXtmVcntHbmEvict,
  kXtmVcntHbmReturn,
  kXtmVcntWdStall,
  kXtmVcntWdRestore,
  kXtmVcntDropPol,  // Q_DROP_POL (spec 2.2.0, 4.6): POLICE drops attributed to the VOQ
  kXtmVcntCount
} xtm_vcnt_t;

typedef enum xtm_gcnt {
  kXtmGcntXoffSent,
  kXtmGcntXonSent,
  kXtmGcntPauseRx,
  kXtmGcntXonRx,
  kXtmGcntPausedCycles,
  kXtmGcntCount
} xtm_gcnt_t;

typedef enum xtm_pcnt {
  kXtmPcntTxPkts,
  kXtmPcntTxBytes,
  kXtmPcntPfcTxFrames,
  kXtmPcntPfcRxFrames,
  kXtmPcntCount
} xtm_pcnt_t;

// Per-policer counters (spec 4.7; the POL window, policer k = in_port * 8 + j).
typedef enum xtm_polcnt {
  kXtmPolcntDropPkts,   // POL_DROP_PKTS
  kXtmPolcntDropBytes,  // POL_DROP_BYTES
  kXtmPolcntPassPkts,   // POL_PASS_PKTS
  kXtmPolcntCount
} xtm_polcnt_t;

typedef enum xtm_ecnt {
  kXtmEcntArr,
  kXtmEcntLenZero,
  kXtmEcntLenMax,
  kXtmEcntBadPort,
  kXtmEcntBadTc,
  kXtmEcntNotReady,
  kXtmEcntCount
} xtm_ecnt_t;

void xtm_voq_state(const xtm_t *m, uint32_t voq, xtm_voq_state_t *s);
// occ_cells of xtm_voq_state() alone (a per-packet probe without the whole record).
uint32_t xtm_voq_occ_cells(const xtm_t *m, uint32_t voq);
// The pkt_ids of the packets in port `port`'s egress FIFO (selected, not yet output), oldest
// first, at most `max`; returns their number. For a caller that keeps per-packet data of
// its own and wants it fetched before the packet comes out (xtm-netsim).
uint32_t xtm_fifo_pkts(const xtm_t *m, uint32_t port, uint32_t *ids, uint32_t max);
void xtm_pg_state(const xtm_t *m, uint32_t port, uint32_t prio, xtm_pg_state_t *s);
void xtm_global_state(const xtm_t *m, xtm_global_state_t *s);
uint64_t xtm_voq_counter(const xtm_t *m, uint32_t voq, xtm_vcnt_t c);
uint64_t xtm_pg_counter(const xtm_t *m, uint32_t port, uint32_t prio, xtm_gcnt_t c);
uint64_t xtm_port_counter(const xtm_t *m, uint32_t port, xtm_pcnt_t c);
uint64_t xtm_global_counter(const xtm_t *m, xtm_ecnt_t c);
// Policer k = in_port * 8 + j, k < NumPorts * 8 (spec 4.7).
void xtm_pol_state(const xtm_t *m, uint32_t k, xtm_pol_state_t *s);
uint64_t xtm_pol_counter(const xtm_t *m, uint32_t k, xtm_polcnt_t c);
// Bulk snapshot: the values of xtm_voq_state(), xtm_pg_state(), xtm_pol_state() and
// xtm_global_state() for every VOQ, PG and policer at once, as arrays (struct of arrays),
// for a checker that compares them every cycle (the co-simulation, docs/cosim.md). It is
// incremental: the model records which VOQs, PGs and policers its cycles, CSR writes,
// resets and injected faults touched, and xtm_state_snapshot() rewrites only those
// entries, plus the fields that move with time alone (the remaining pause of paused PGs;
// the queue-shaper conformance bit of the VOQ whose scan visit takes effect, and of those
// with a charge or rate-write effect due, spec 9.5; a policer's stored bucket never moves
// with time, spec 4.7), so a call costs in proportion to what changed, not to NumVoqs.
// After every call the whole snapshot equals what the per-VOQ/PG/policer functions return
// at xtm_cycle().
//
// A snapshot belongs to the last model it was taken of: taking it of another model, or
// taking another snapshot of this model in between, makes the next call a full one (the
// model keeps one change record, consumed by each call; not architectural state). Call
// xtm_snap_init() before the first use. The snapshot does not allocate.
#define XTM_MAX_PGS (XTM_MAX_PORTS * XTM_NUM_PRIOS)
#define XTM_SNAP_WORDS (XTM_MAX_VOQS / 64)  // 64-bit words of a per-VOQ or per-PG bit set

typedef struct xtm_snap {
  // per VOQ v < NumPorts * NumTcs; bit sets: bit v % 64 of word v / 64
  uint32_t occ_cells[XTM_MAX_VOQS];
  uint32_t occ_pkts[XTM_MAX_VOQS];
  uint32_t hbm_cells[XTM_MAX_VOQS];
  int32_t deficit[XTM_MAX_VOQS];
  uint32_t head_pkt_id[XTM_MAX_VOQS];  // 0 when the VOQ is empty
  uint8_t wd_storm[XTM_MAX_VOQS];
  uint8_t wd_clean[XTM_MAX_VOQS];
  uint64_t hbm_mode[XTM_SNAP_WORDS];
  uint64_t ocb_only[XTM_SNAP_WORDS];
  uint64_t wd_stalled[XTM_SNAP_WORDS];
  uint64_t flushing[XTM_SNAP_WORDS];
  uint64_t shaper_conform[XTM_SNAP_WORDS];
  // per PG g = port * 8 + prio, g < NumPorts * 8
  uint32_t pg_cells[XTM_MAX_PGS];
  uint32_t hdrm_used[XTM_MAX_PGS];
  uint64_t pause_remain[XTM_MAX_PGS];
  uint64_t xoff[XTM_SNAP_WORDS];
  // per policer k = in_port * 8 + j, k < NumPorts * 8 (spec 4.7, 2.2.0): the stored lazy
  // bucket, as xtm_pol_state(); it changes only at a policed arrival and at reset
  uint64_t pol_tok[XTM_MAX_POLS];
  uint64_t pol_u[XTM_MAX_POLS];
  xtm_global_state_t global;
  // written by each call: the VOQs, PGs and policers whose entries it rewrote (every entry
  // whose value differs from the previous call's is among them); all of them after a full
  // call
  uint64_t voq_changed[XTM_SNAP_WORDS];
  uint64_t pg_changed[XTM_SNAP_WORDS];
  uint64_t pol_changed[XTM_MAX_POLS / 64];
  bool full;  // the last call rewrote everything
  // bookkeeping of the incremental calls (read by nobody else)
  struct {
    const xtm_t *model;
    uint64_t t;                       // xtm_cycle() at the last call
    uint64_t conf_due[XTM_MAX_VOQS];  // next charge/rate-write effect of the shaper bit
    uint64_t conf_due_set[XTM_SNAP_WORDS];
    uint64_t paused[XTM_SNAP_WORDS];  // PGs with pause_remain > 0
    bool valid;
  } priv;
} xtm_snap_t;

void xtm_snap_init(xtm_snap_t *s);
// Brings *s to the state at xtm_cycle(m). Changes nothing architectural in m (it clears the
// model's change record). No allocation, no I/O.
void xtm_state_snapshot(xtm_t *m, xtm_snap_t *s);
static inline bool xtm_snap_bit(const uint64_t *set, uint32_t i) {
  return ((set[i >> 6] >> (i & 63)) & 1u) != 0;
}

// Checks the invariants of spec section 12; on failure returns false and writes a
// one-line explanation into why (if not NULL).
bool xtm_check_invariants(const xtm_t *m, char *why, size_t why_len);

// Fault injection for the negative tests of the checkers (spec 12 invariants, the
// co-simulation scoreboard): corrupts one piece of state the way a hardware bug would.
typedef enum xtm_fault {
  kXtmFaultLeakPoolCell,  // pool_used one cell too high (a lost free)
  kXtmFaultDropVoqCount,  // one VOQ's packet count one too low
  kXtmFaultSkipArrCount,  // ARR_PKTS one too low
  kXtmFaultFlipLfsr,      // enqueue LFSR state bit 0 flipped (changes later draws)
  kXtmFaultLoseBusyPort,  // the lowest port with packets forgotten by the busy-port mask
  kXtmFaultFlipHeadLfsr,  // head LFSR state bit 0 flipped (changes later head draws)
  kXtmFaultFlipConform,   // the lowest VOQ's queue-shaper conformance bit inverted
} xtm_fault_t;
// Returns false if the fault cannot be applied (e.g. no packet resident).
bool xtm_inject_fault(xtm_t *m, xtm_fault_t f);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_CMODEL_XTM_H_
