// SPDX-License-Identifier: Apache-2.0
//
// libdcqcn internals shared by dcqcn.c (the cycle) and dcqcn_csr.c (the CSR interface).
// Not part of the API.

#ifndef DCQCN_CMODEL_DCQCN_INTERNAL_H_
#define DCQCN_CMODEL_DCQCN_INTERNAL_H_

#include "cmodel/dcqcn/dcqcn.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

enum { kTimAlpha = 0, kTimDec = 1, kTimInc = 2, kTimCount = 3 };

// Per-QP state: one word of the RTL's QP memory (spec D6.1) plus the model's heap index.
typedef struct dcqcn_qp {
  uint32_t rc, rt;      // Mb/s, 20 bits
  uint32_t byte_count;  // 22 bits
  uint16_t alpha;       // Q10, 10 bits
  uint8_t stage_t, stage_bc;
  bool active, cnp_alpha, cnp_dec, np_sent;
  uint64_t due[kTimCount];  // absolute deadlines, DCQCN_NEVER when disarmed
  uint64_t pace_q8;         // next-send time, 1/256 cycle
  uint64_t np_last;
  uint64_t cnt[kDcqcnQcntCount];
  // RP events waiting for the next visit (spec D5.1). A CNP of an active QP sets the slot
  // flags at once (no timer can tell), so pend_cnp is only ever set for a QP that is
  // inactive or has an INIT pending; pend_bytes only for an active QP without INIT pending
  // (other bytes are never counted).
  bool init_pend, pend_cnp, pend_more;
  uint32_t pend_bytes;  // < S * 65536 < 2^28
  // the visit that applies pend_bytes (D5.1). While byte_count + pend_bytes stays below the
  // byte threshold that visit changes nothing but byte_count, so the QP is not listed for it
  // (non-eager): the bytes are added when the QP is next touched (a later visit, an input,
  // catch_up) or shown added by the state and CSR reads once the visit has passed
  uint64_t pend_visit;
  bool listed;  // in the pending list of its scan slot (pnext links it)
  int32_t pnext;
  int32_t hpos;   // heap position; -1: not in the heap (inactive or parked)
  uint64_t hkey;  // heap key: the next visit cycle with a due timer
} dcqcn_qp_t;

struct dcqcn {
  dcqcn_params_t prm;
  uint32_t scan_period;  // S = ceil(N / U)
  // S - 1 when S is a power of two (t mod S is a mask), else 0; log2(U) when U is a power
  // of two (q / U is a shift), else -1: the scan geometry without a division per cycle
  uint64_t scan_mask;
  int32_t width_shift;
  uint64_t t;  // next cycle to execute
  bool eager;
  bool quiet;  // rate-update stream off (dcqcn_set_rate_stream): the alpha timer is lazy
  dcqcn_fault_t fault;
  dcqcn_qp_t *qp;
  uint32_t *heap;  // QP indices ordered by (hkey, qp)
  uint32_t heap_n;
  // QPs with a pending event, one list per scan slot (its next visit, D5.1); the timers'
  // heap does not hold them for that
  int32_t *plist;  // head per slot, -1: empty
  uint32_t n_listed;
  // registers (storage for every rw global register, by word index 0..63)
  uint32_t greg[64];
  uint32_t qp_sel;
  uint32_t err_status, err_addr, cnt_hi, cnt_lo_snap_hi;
  uint64_t gcnt[kDcqcnGcntCount];
  // CSR table
  dcqcn_reg_desc_t *regs;
  uint32_t nregs;
  int16_t *decode;  // word index -> descriptor index, -1 unmapped
  // per-cycle scratch: visited QPs touched this cycle (ascending) and their values (spec D7)
  uint32_t n_touch;
  uint32_t touch_qp[DCQCN_MAX_RATE_UPD];
  uint32_t touch_rc[DCQCN_MAX_RATE_UPD], touch_rt[DCQCN_MAX_RATE_UPD];
  uint16_t touch_alpha[DCQCN_MAX_RATE_UPD];
};

// Register value by generated offset (global rw registers only).
#define DCQCN_R(m, NAME) ((m)->greg[DCQCN_##NAME##_REG_OFFSET >> 2])

dcqcn_status_t dcqcn_csr_init(dcqcn_t *m);
void dcqcn_csr_reset_values(dcqcn_t *m);
// Step 1 of the cycle: the read data of a bus read at S(t). *idx < 0 on error.
uint32_t dcqcn_csr_sample(dcqcn_t *m, uint16_t addr, bool *err, int16_t *idx);
void dcqcn_csr_read_effects(dcqcn_t *m, int16_t idx);
// End of cycle t_next - 1: a write becomes visible from cycle t_next. False on error.
bool dcqcn_csr_write_apply(dcqcn_t *m, uint16_t addr, uint32_t data, uint64_t t_next);

// Cycle-side helpers used by the CSR code.
// Reset of one QP's reaction point (the INIT word, rates = the current cap), keeping its
// counters and its pending CNPs.
void dcqcn_qp_init(dcqcn_t *m, uint32_t q);
// Q_CTRL.INIT at the end of cycle t_next - 1 (spec D9): pacer and NP at once, the reaction
// point at the next visit.
void dcqcn_qp_init_request(dcqcn_t *m, uint32_t q, uint64_t t_next);
void dcqcn_clear_counters(dcqcn_t *m);
// Brings every lazy timer's deadline up to the end of cycle `last` (lazy firings change
// nothing else). Called before a parameter changes, so that past firings use the old period.
void dcqcn_unpark_all(dcqcn_t *m, uint64_t last);
void dcqcn_resettle_all(dcqcn_t *m);
// catch_up of one QP (its lazy timers and lazy increase firings up to cycle `last`).
void dcqcn_catch_up_qp(dcqcn_t *m, uint32_t q, uint64_t last);
// Deadline of timer k of QP q as the RTL holds it after every visit up to cycle `last`.
uint64_t dcqcn_due_at(const dcqcn_t *m, uint32_t q, int k, uint64_t last);
uint32_t dcqcn_rate_cap(const dcqcn_t *m);
// Alpha of QP q as the RTL holds it after every visit up to cycle `last` (with the rate
// stream off, the alpha timer's firings without a CNP are applied lazily).
uint16_t dcqcn_alpha_at(const dcqcn_t *m, uint32_t q, uint64_t last);
// byte_count of QP q as the RTL holds it after every visit up to cycle `last` (pending
// bytes whose visit has passed added), and whether those bytes are still pending.
uint32_t dcqcn_byte_count_at(const dcqcn_t *m, uint32_t q, uint64_t last, bool *pending);

#endif  // DCQCN_CMODEL_DCQCN_INTERNAL_H_
