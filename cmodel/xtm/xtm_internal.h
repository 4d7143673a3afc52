// SPDX-License-Identifier: Apache-2.0
//
// libxtm internals: state layout shared by the model's translation units. Not installed,
// not included by users of the model.

#ifndef XTM_CMODEL_XTM_INTERNAL_H_
#define XTM_CMODEL_XTM_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "cmodel/xtm/xtm.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#define XTM_NIL UINT32_MAX
#define XTM_NEVER UINT64_MAX
#define XTM_VOQ_WORDS (XTM_MAX_VOQS / 64)

// Token bucket of spec section 5.4, kept lazily: `tok` is the value after the refill and
// charges of cycle `u` (u = -1 before cycle 0). Units: 2^-16 byte or cell. `ok` (kept for
// the HBM read bucket and the port shapers: xtm_tb_set_ok after every change of tok, u or
// the rate) is the first cycle from which tokens >= 0, INT64_MAX if never: for t > u the
// bucket conforms in t iff t >= ok (not a state: a cache of what tok, u and R decide).
typedef struct xtm_tb {
  int64_t tok;
  int64_t u;
  int64_t ok;
} xtm_tb_t;

// Descriptor (one per resident packet). Mirrors the RTL descriptor pool entry.
typedef struct xtm_desc {
  uint32_t next;
  uint32_t pkt_id;
  uint64_t enq_cycle;
  uint16_t len;
  uint16_t cells;
  uint8_t in_port;
  uint8_t dscp;
  uint8_t ecn;
  uint8_t pg;
  bool hbm;
  bool tail_marked;
} xtm_desc_t;

enum { kXtmWdMonitor = 0, kXtmWdStalled = 1 };

// Lazily evaluated queue shaper of spec 9.5. The bucket is (tok, u): tokens(c) =
// min(B, tok + (c - u) * R) with the R and B of S(c). The conformance bit is a register
// written by events at known cycles: a charge at tc writes 0 for tc+1 and `ch_x` from tc+2;
// a scan visit at ts (ts = v mod NumVoqs, ts >= INIT_CYCLES) writes tokens(ts+2) >= 0 from
// ts+2 (a charge write wins a tie). Since B >= 0, the sign of tokens depends on tok, u and R
// only, and for a fixed R the scan results are monotone in ts: the bit at any cycle c has a
// closed form (xtm_qs_conform), so the scan costs nothing per cycle. `cf_val` is the bit at
// cycle `cf_t` with every write effective at or before cf_t included; scans at ts >=
// `scan_from` are evaluated on the current (tok, u, R); `pend_*` hold the up to two scan
// results of an older rate still to take effect (a rate write at w: the visits of w-1 and w).
typedef struct xtm_qshaper {
  int64_t tok;
  uint64_t u;
  uint64_t ch_t;  // last charge cycle, XTM_NEVER if none since reset
  uint64_t cf_t;
  uint64_t scan_from;
  uint64_t pend_t[2];  // indexed by effective cycle & 1; XTM_NEVER if empty
  bool ch_x;
  bool cf_val;
  bool pend_v[2];
} xtm_qshaper_t;

// A head or latency marking decision of a selection in cycle s, made in cycle s+3 (spec 6.3).
// The profile code and its operands are those of the selection cycle.
enum { kXtmCodeNever = 0, kXtmCodeAlways = 1, kXtmCodeDraw = 2 };
typedef struct xtm_mark_pend {
  uint64_t due;       // s + 3; XTM_NEVER when the slot is empty
  int64_t mul, thr;   // draw: hit = r * mul < thr
  uint32_t fifo_idx;  // the packet's egress FIFO entry (it cannot leave before s + 5)
  uint16_t voq;
  uint8_t code;
  bool lat;    // latency marking (Q_MARK_LAT) rather than head (Q_MARK_HEAD)
  bool count;  // cleared by a CTRL.CLR_CNT in cycles s .. s+3
} xtm_mark_pend_t;

// Occupancy changes of one cycle (at most one acceptance and one removal), for the S(t-2)
// occupancy the enqueue profile reads (spec 6.2). Each change has its own cycle stamp
// (XTM_NEVER: none), so recording one is three stores, with no test for a new cycle.
typedef struct xtm_occ_log {
  uint64_t enq_cycle, rem_cycle;
  uint32_t enq_v, enq_cells, rem_v, rem_cells;
} xtm_occ_log_t;

// The admission decision of step 6 (spec 4.4), taken on S(t) before the dequeue slot and
// committed after it.
typedef struct xtm_enq_dec {
  bool accept, evict, hdrm, hbm, marked;
  uint32_t v, gi, cells;
  xtm_enq_in_t e;
  uint8_t pg;
  uint8_t queue;  // v = e.eg_port * NumTcs + queue
} xtm_enq_dec_t;

typedef struct xtm_voq {
  // configuration registers, raw (spec section 10: read back exactly as written)
  uint32_t cfg, limit, quantum, lat_thresh, shaper_rate, shaper_burst, target_rate;
  // state
  uint32_t head, tail;
  uint32_t occ_cells, occ_pkts, hbm_cells;
  bool hbm_mode;
  int32_t deficit;
  uint8_t wd_state, wd_storm, wd_clean;
  bool wd_sent;
  xtm_qshaper_t shaper;
  uint32_t wm;
  uint32_t clr_resident;  // packets resident at the last CTRL.CLR_CNT (spec 12)
  uint64_t cnt[kXtmVcntCount];
} xtm_voq_t;

// Per (port, priority): ingress PG accounting and egress pause reception.
typedef struct xtm_pg {
  uint32_t cfg, xoff_cells, xon_cells, hdrm_cells;
  uint32_t pg_cells, hdrm_used;
  bool xoff;
  bool eval_next;  // a threshold register was written: evaluate at step 7 of the next cycle
  uint32_t wm, hdrm_wm;
  // egress reception
  // pause (spec 7.2): paused in cycle t iff t < pause_end; the quanta and quantum time
  // left as the RTL holds them, (pause_qn, pause_f) at the start of cycle pause_ref (the
  // frame's cycle or the last P_PAUSE_QUANTUM write), for the re-timing at such a write
  uint64_t pause_end;
  uint64_t pause_ref;
  uint64_t pause_f;             // Q16.16 cycles left of the current quantum
  uint32_t pause_qn;            // whole quanta after it
  uint64_t pc_from;             // paused-cycle accrual starts here
  bool wd_rx;                   // frame with quanta > 0 since the last watchdog poll
  uint64_t cnt[kXtmGcntCount];  // kXtmGcntPausedCycles holds the committed part
} xtm_pg_t;

// Ingress policer of spec 4.7 (policer k = in_port * 8 + j): a lazily evaluated byte bucket
// in memory. tokens(c) = B if c - u >= 2^40 and R > 0, else min(B, tok + (c - u) * R), with
// the R = POL_RATE and B = POL_BURST * 65536 of S(c). tok < 2^40 always (it is at most
// some B ever in force, and B <= (2^24 - 1) * 65536); after a lowered POL_BURST it can be
// above the current B * 65536 until the next evaluation clamps it (4.7 says "never above
// POL_BURST * 65536": see the spec question in the commit that added this line).
// Changed only by a policed arrival.
typedef struct xtm_pol {
  uint32_t rate, burst;  // POL_RATE (Q8.16 bytes/cycle), POL_BURST (bytes), raw
  uint64_t tok;          // 2^-16 byte
  uint64_t u;            // cycle of the last evaluation
  uint64_t cnt[kXtmPolcntCount];
} xtm_pol_t;

typedef struct xtm_fifo_ent {
  xtm_deq_out_t d;
  uint64_t ready;
} xtm_fifo_ent_t;

typedef struct xtm_port {
  uint32_t shaper_cfg, shaper_rate, shaper_burst, pause_quantum, pfc_quanta, pfc_refresh;
  uint32_t pol_map;  // P_POL_MAP (spec 4.7): TCn_POL at 4n+2:4n, TCn_EN at 4n+3
  xtm_tb_t shaper;
  uint8_t rr;         // DWRR pointer (queue index)
  uint8_t nonempty;   // bit q: VOQ (p, q) holds packets
  uint8_t xoff_mask;  // PGs of this ingress port in XOFF
  uint64_t refresh_at;
  uint32_t fifo_head, fifo_count;
  uint64_t cnt[kXtmPcntCount];
} xtm_port_t;

typedef struct xtm_profile {
  uint32_t cfg;
  uint32_t fill[8];
  uint32_t prob[8];
} xtm_profile_t;

struct xtm {
  xtm_params_t prm;
  uint32_t num_voqs;
  uint32_t cell_log2;

  // generated register table and address decode
  xtm_reg_desc_t *regs;
  uint32_t nregs;
  int16_t *decode;  // word address -> index into regs, -1 unmapped

  // global registers
  uint32_t max_frame, pool_cells, ocb_only_cycles, evict_cells, return_cells;
  uint32_t hbm_wr_rate, hbm_wr_burst, hbm_rd_rate, hbm_rd_burst, hbm_rd_lat, ocb_rd_lat;
  uint32_t lfsr_seed, lfsr;                 // enqueue LFSR (spec 6.4)
  uint32_t lfsr_head_seed, lfsr_head;       // head LFSR
  uint32_t lfsr16_lo[256], lfsr16_hi[256];  // 16 LFSR steps of bits 7:0 and 15:8 (xtm_profile.c)
  uint32_t wd_ctrl, wd_poll, wd_detect, wd_restore;
  uint32_t tc_pg_map, tc_queue_map, dscp_map[8];
  uint32_t voq_sel, port_sel, pg_sel, prof_sel, pol_sel;
  uint32_t err_status, err_addr, cnt_hi;
  uint32_t cnt_lo_snap_hi;  // upper half sampled by a _LO read at step 1, latched at step 8
  uint32_t pool_wm;
  uint64_t ecnt[kXtmEcntCount];
  // decoded classification
  uint8_t dscp_tc[64], tc_queue[8], tc_pg[8];

  // buffer
  uint32_t pool_used, ocb_used, hbm_used;
  xtm_tb_t hbm_wr, hbm_rd;
  xtm_desc_t *desc;
  uint32_t free_head, desc_free;
  uint32_t desc_fresh;  // descriptors desc_fresh.. have not been allocated since the reset

  xtm_voq_t *voq;
  xtm_port_t *port;
  xtm_pg_t *pg;    // num_ports * 8
  xtm_pol_t *pol;  // num_ports * 8 ingress policers (spec 4.7)
  xtm_profile_t prof[8];
  xtm_fifo_ent_t *fifo;  // num_ports * fifo_depth
  uint64_t flush_mask[XTM_VOQ_WORDS];
  uint32_t flush_n;  // bits set in flush_mask (checked every cycle)
  // Port sets, so the per-cycle steps visit only the ports they can act on (bit p):
  uint64_t fifo_ports;       // port[p].fifo_count > 0
  uint64_t busy_ports;       // port[p].nonempty != 0
  uint64_t xoff_ports;       // port[p].xoff_mask != 0
  uint64_t pfc_dirty;        // set_mask[p] or rel_mask[p] set in this cycle's step 7
  uint64_t full_fifo_ports;  // port[p].fifo_count == fifo_depth
  uint64_t refresh_min;      // min of port[p].refresh_at over the ports in XOFF (XTM_NEVER: none)
  uint64_t fifo_due;         // min FIFO head ready over fifo_ports & tx_ready (XTM_NEVER: none)

  uint8_t port_rr;
  uint64_t tx_ready;
  uint64_t wd_next_poll;
  uint64_t wd_sweep_t0;      // start of the poll sweep in progress (spec 8), XTM_NEVER if none
  uint32_t pg_eval_pending;  // number of PGs with eval_next set
  uint32_t init_cycles;      // XTM_INIT_CYCLES(NumPorts)

  // pipeline state of spec 2.0 (section 15)
  xtm_mark_pend_t mark[4];   // indexed by due & 3
  uint64_t mark_due;         // earliest due among mark[], XTM_NEVER if none
  xtm_occ_log_t occ_log[2];  // indexed by cycle & 1
  uint64_t touched_cycle;    // cycle whose acceptances/removals touched_pg lists

  // time
  uint64_t t;            // next cycle to execute
  uint64_t next_active;  // no idle cycle before this one does any work: min(next_full, mark_due)
  uint64_t next_full;    // no idle cycle before this one needs more than its marking decision
  bool eager;            // evaluate every cycle (reference mode)
  // no idle cycle before this one needs more than that and its egress FIFOs' outputs
  // (lowered wherever next_full is; egress_only_cycle in xtm.c)
  uint64_t next_nonfifo;

  // per-cycle scratch (no allocation in step)
  uint32_t touched_pg[2];
  uint32_t n_touched;
  uint32_t wd_port;       // port visited this cycle
  uint8_t wd_toggle;      // VOQs of wd_port whose watchdog state changes at the end of the cycle
  xtm_enq_dec_t enq_dec;  // this cycle's admission decision
  uint8_t rel_mask[XTM_MAX_PORTS];
  uint8_t set_mask[XTM_MAX_PORTS];

  // change record for xtm_state_snapshot() (not architectural state): what was written
  // since the last snapshot; set where the step, CSR writes, reset and faults write
  uint64_t snap_voq[XTM_VOQ_WORDS];      // VOQ fields of xtm_voq_state() but the shaper bit
  uint64_t snap_qs[XTM_VOQ_WORDS];       // queue shaper state (the inputs of xtm_qs_conform)
  uint64_t snap_pg[XTM_MAX_PGS / 64];    // PG fields of xtm_pg_state()
  uint64_t snap_pol[XTM_MAX_POLS / 64];  // policer state of xtm_pol_state()
  bool snap_all;                         // everything (reset, CSR write, fault)
  const void *snap_owner;                // the snapshot the record was last consumed by
};

// the change record (xtm_state_snapshot)
static inline void xtm_snap_mark_voq(xtm_t *m, uint32_t v) {
  m->snap_voq[v >> 6] |= 1ull << (v & 63);
}
static inline void xtm_snap_mark_qs(xtm_t *m, uint32_t v) {
  m->snap_qs[v >> 6] |= 1ull << (v & 63);
}
static inline void xtm_snap_mark_pg(xtm_t *m, uint32_t g) {
  m->snap_pg[g >> 6] |= 1ull << (g & 63);
}
static inline void xtm_snap_mark_pol(xtm_t *m, uint32_t k) {
  m->snap_pol[k >> 6] |= 1ull << (k & 63);
}

// ---- helpers shared between translation units

static inline uint32_t xtm_field(uint32_t reg, uint32_t off, uint32_t mask) {
  return (reg >> off) & mask;
}
#define XTM_F(reg, R, F) xtm_field((reg), XTM_##R##_##F##_OFFSET, XTM_##R##_##F##_MASK)

// token bucket (spec 5.4): tokens after the refill of cycle t (t >= u)
static inline int64_t xtm_tb_at(const xtm_tb_t *b, int64_t t, uint32_t rate, uint32_t burst) {
  int64_t cap = (int64_t)burst << 16;
  if (t <= b->u) {
    return b->tok;
  }
  if (b->tok >= cap) {
    return b->tok;  // cannot grow (only a burst write can leave tok above cap; it clamps)
  }
  uint64_t dt = (uint64_t)(t - b->u);
  uint64_t need = (uint64_t)(cap - b->tok);
  if (rate == 0) {
    return b->tok;
  }
  if (dt >> 32 == 0) {  // dt * rate < 2^64: full when dt > need / rate, i.e. dt * rate > need
    uint64_t g = dt * rate;
    return g > need ? cap : b->tok + (int64_t)g;
  }
  if (dt >= need / rate + 1) {
    return cap;
  }
  int64_t v = b->tok + (int64_t)(dt * rate);
  return v < cap ? v : cap;
}
static inline void xtm_tb_sync(xtm_tb_t *b, int64_t t, uint32_t rate, uint32_t burst) {
  if (t > b->u) {
    b->tok = xtm_tb_at(b, t, rate, burst);
    b->u = t;
  }
}
// The `ok` of a bucket at the given rate: tokens(t) = min(B, tok + (t - u) * R) >= 0 for
// t > u iff tok >= 0 or (t - u) * R >= -tok (B >= 0).
static inline void xtm_tb_set_ok(xtm_tb_t *b, uint32_t rate) {
  if (b->tok >= 0) {
    b->ok = b->u;
  } else if (rate == 0) {
    b->ok = INT64_MAX;
  } else {
    b->ok = b->u + (int64_t)(((uint64_t)(-b->tok) + rate - 1) / rate);
  }
}
// First cycle >= t at which the bucket conforms (tokens >= 0), XTM_NEVER if never.
static inline uint64_t xtm_tb_ok_time(const xtm_tb_t *b, uint64_t t, uint32_t rate,
                                      uint32_t burst) {
  int64_t v = xtm_tb_at(b, (int64_t)t, rate, burst);
  if (v >= 0) {
    return t;
  }
  if (rate == 0) {
    return XTM_NEVER;
  }
  uint64_t deficit = (uint64_t)(-v);
  return t + (deficit + rate - 1) / rate;
}

// xtm_profile.c
// One draw (16 steps) of the LFSR whose state is *s; returns r (16 bits).
uint32_t xtm_lfsr_draw(const xtm_t *m, uint32_t *s);
// Fills the tables xtm_lfsr_draw uses (xtm_create).
void xtm_lfsr_tables(xtm_t *m);
// Drop/mark profile evaluation (spec 6.1). The evaluation yields a code (never, always,
// draw) and the draw's operands; the caller draws from the enqueue LFSR at once (6.2) or
// from the head LFSR three cycles later (6.3). RTL twin: rtl/xtm/xtm_prof_eval.sv (codes
// ProfNever/ProfAlways/ProfDraw of xtm_pkg). xtm_profile_eval evaluates profile `prof` for
// occupancy/limit: returns the code; for kXtmCodeDraw the decision is hit = r * *mul < *thr.
// A probability p in Q0.16 compared with r: hit = r * 1 < p.
static inline uint8_t xtm_code_of_p(int64_t p, int64_t *mul, int64_t *thr) {
  *mul = 1;
  *thr = p;
  if (p <= 0) {
    return kXtmCodeNever;
  }
  return p >= 65536 ? kXtmCodeAlways : kXtmCodeDraw;
}

// Spec 6.1. All products stay below 2^62.
static inline uint8_t xtm_profile_eval(const xtm_t *m, uint32_t prof, uint32_t occ, uint32_t limit,
                                       int64_t *mul, int64_t *thr) {
  const xtm_profile_t *pr = &m->prof[prof & 7u];
  uint32_t n = XTM_F(pr->cfg, PR_CFG, NPOINTS);
  bool interp = XTM_F(pr->cfg, PR_CFG, INTERP) != 0;
  int64_t L, O;
  if (limit == 0) {
    L = 1;
    O = 65536;
  } else {
    L = limit;
    O = 65536 * (int64_t)(occ < limit ? occ : limit);
  }
  int ist = -1;
  for (uint32_t i = 0; i < n && i < 8; i++) {
    if (O >= (int64_t)pr->fill[i] * L) {
      ist = (int)i;
    }
  }
  if (!interp) {
    return xtm_code_of_p(ist < 0 ? 0 : pr->prob[ist], mul, thr);
  }
  int64_t fa = ist < 0 ? 0 : pr->fill[ist];
  int64_t pa = ist < 0 ? 0 : pr->prob[ist];
  int64_t fb, pb;
  if (ist + 1 < (int)n) {
    fb = pr->fill[ist + 1];
    pb = pr->prob[ist + 1];
  } else {
    fb = 65536;
    pb = 65536;
  }
  if (fb <= fa) {
    return xtm_code_of_p(pa, mul, thr);
  }
  int64_t dn = (fb - fa) * L;
  int64_t num = pa * dn + (pb - pa) * (O - fa * L);
  *mul = dn;
  *thr = num;
  if (num <= 0) {
    return kXtmCodeNever;
  }
  return num >= 65536 * dn ? kXtmCodeAlways : kXtmCodeDraw;
}
static inline bool xtm_profile_decide(uint8_t code, int64_t mul, int64_t thr, uint32_t r) {
  return code == kXtmCodeAlways || (code == kXtmCodeDraw && (int64_t)r * mul < thr);
}

// xtm.c: the lazy queue shaper (spec 9.5)
bool xtm_qs_conform(const xtm_t *m, uint32_t v, uint64_t c);
// The first cycle > c at which xtm_qs_conform(m, v, .) can change other than at a scan
// visit (those take effect at ts + 2 for ts = v mod NumVoqs) while no charge or rate write
// happens: the reference cycle, the pending scan results and the charge's two writes.
// XTM_NEVER if none.
uint64_t xtm_qs_next_write(const xtm_t *m, uint32_t v, uint64_t c);
void xtm_qs_rate_write(xtm_t *m, uint32_t v, uint64_t t_next);
void xtm_qs_reset(xtm_t *m, uint32_t v);
void xtm_marks_clear_counts(xtm_t *m);

// xtm_csr.c
xtm_status_t xtm_csr_init(xtm_t *m);
void xtm_csr_reset_values(xtm_t *m);
uint32_t xtm_csr_sample(xtm_t *m, uint16_t addr, bool *err, int16_t *idx);
void xtm_csr_read_effects(xtm_t *m, int16_t idx, uint64_t t_next);
bool xtm_csr_write_apply(xtm_t *m, uint16_t addr, uint32_t data, uint64_t t_next);
void xtm_rebuild_class_maps(xtm_t *m);

// xtm.c (shared with xtm_csr.c and xtm_introspect.c)
void xtm_update_flush(xtm_t *m, uint32_t v);
bool xtm_voq_ocb_only(const xtm_t *m, const xtm_voq_t *q);
uint64_t xtm_paused_cycles(const xtm_pg_t *g, uint64_t t);
void xtm_pause_quantum_write(xtm_t *m, uint32_t port, uint32_t quantum, uint64_t t_next);
void xtm_clear_counters(xtm_t *m, uint64_t t_next);

#endif  // XTM_CMODEL_XTM_INTERNAL_H_
