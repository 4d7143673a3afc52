// SPDX-License-Identifier: Apache-2.0
//
// libxtm core: lifecycle, the cycle (docs/spec.md section 4.1), admission, buffer,
// scheduler, PFC and watchdog. RTL twins in rtl/xtm/ (block map: rtl/xtm/README.md): xtm_classify,
// xtm_admit, xtm_bufmgr, xtm_qmgr, xtm_sched, xtm_shaper, xtm_deq, xtm_egress, xtm_pfc_tx,
// xtm_pfc_rx, xtm_wd, xtm_stats, under xtm_core.
//
// Spec 2.0 (section 15): the admission, the PFC evaluation and the dequeue slot all read
// S(t). The cycle therefore runs: CSR sample, PFC reception, watchdog visit (its state
// changes kept aside), egress output, the admission decision (on S(t), nothing committed
// but counters), PFC generation (on S(t)), the dequeue slot (applied), the commit of the
// acceptance, the head/latency marking decisions due this cycle, then the end of cycle.
//
// Speed: every timer is an absolute deadline and every bucket is lazy (spec 5.4, 9.5, 13),
// so a cycle with no input before `next_full` changes nothing but time, except a marking
// decision due three cycles after its selection (`mark_due`), which is done alone;
// next_active = min(next_full, mark_due). xtm_step() then costs a compare; xtm_advance_to()
// jumps to min(next_active, target). A cycle before `next_nonfifo` (next_full without the
// egress FIFOs' heads) whose only work is a FIFO output runs that alone (egress_only_cycle).

#include "cmodel/xtm/xtm.h"

#include <stdlib.h>
#include <string.h>

#include "cmodel/xtm/xtm_internal.h"

// A hint only (no effect on state): descriptors of a deep queue were written milliseconds
// before they are read again and miss the cache; fetching the next one early hides it.
#if defined(__GNUC__)
#define XTM_PREFETCH(p) __builtin_prefetch(p)
#else
#define XTM_PREFETCH(p) ((void)(p))
#endif
// Also hints: the admission's decision and commit inlined into the enqueue-only cycle keep
// the decision in registers; the enqueue-only cycle itself is kept out of xtm_step, whose
// idle path (every cycle of a stepped run: xtm-bench, the co-simulation) stays small.
#if defined(__GNUC__)
#define XTM_ALWAYS_INLINE inline __attribute__((always_inline))
#define XTM_NOINLINE __attribute__((noinline))
#else
#define XTM_ALWAYS_INLINE inline
#define XTM_NOINLINE
#endif

static const char *const kReasonNames[kXtmReasonCount] = {
    "ACCEPT",   "TAIL",    "POOL",     "PROFILE", "HEADROOM",  "BUF_FULL", "QDISABLED", "WD",
    "LEN_ZERO", "LEN_MAX", "BAD_PORT", "BAD_TC",  "NOT_READY", "FLUSH",    "POLICE"};

const char *xtm_reason_name(xtm_reason_t r) {
  return (unsigned)r < kXtmReasonCount ? kReasonNames[r] : "?";
}

void xtm_params_default(xtm_params_t *p) {
  *p = (xtm_params_t){.num_ports = XTM_PARAM_NUM_PORTS,
                      .num_tcs = XTM_PARAM_NUM_TCS,
                      .num_desc = XTM_PARAM_NUM_DESC,
                      .cell_bytes = XTM_PARAM_CELL_BYTES,
                      .ocb_cells = XTM_PARAM_OCB_CELLS,
                      .hbm_cells = XTM_PARAM_HBM_CELLS,
                      .fifo_depth = XTM_PARAM_FIFO_DEPTH};
}

bool xtm_params_valid(const xtm_params_t *p, const char **why) {
  const char *w = NULL;
  if (p == NULL) {
    w = "params is NULL";
  } else if (p->num_ports < 1 || p->num_ports > XTM_MAX_PORTS) {
    w = "num_ports must be 1..64";
  } else if (p->num_tcs < 1 || p->num_tcs > XTM_MAX_TCS) {
    w = "num_tcs must be 1..8";
  } else if (p->num_desc < 2 || p->num_desc > (1u << 20)) {
    w = "num_desc must be 2..1048576";
  } else if (p->cell_bytes != 64 && p->cell_bytes != 128 && p->cell_bytes != 256 &&
             p->cell_bytes != 512 && p->cell_bytes != 1024) {
    w = "cell_bytes must be 64, 128, 256, 512 or 1024";
  } else if (p->ocb_cells < 1 || p->ocb_cells > 0x0FFFFFFFu) {
    w = "ocb_cells must be 1..2^28-1";
  } else if (p->hbm_cells > 0x0FFFFFFFu) {
    w = "hbm_cells must be 0..2^28-1";
  } else if ((uint64_t)p->ocb_cells + p->hbm_cells > 0x0FFFFFFFu) {
    w = "ocb_cells + hbm_cells must be at most 2^28-1 (spec 5.1: 28-bit cell counts)";
  } else if (p->fifo_depth < 1 || p->fifo_depth > 64) {
    w = "fifo_depth must be 1..64";
  }
  if (why != NULL) {
    *why = w;
  }
  return w == NULL;
}

xtm_status_t xtm_create(const xtm_params_t *p, xtm_t **out) {
  if (out == NULL || !xtm_params_valid(p, NULL)) {
    return kXtmBadArg;
  }
  xtm_t *m = calloc(1, sizeof(*m));
  if (m == NULL) {
    return kXtmNoMem;
  }
  m->prm = *p;
  m->num_voqs = p->num_ports * p->num_tcs;
  m->init_cycles = XTM_INIT_CYCLES(p->num_ports);
  m->cell_log2 = 0;
  while ((1u << m->cell_log2) < p->cell_bytes) {
    m->cell_log2++;
  }
  m->desc = calloc(p->num_desc, sizeof(xtm_desc_t));
  m->voq = calloc(m->num_voqs, sizeof(xtm_voq_t));
  m->port = calloc(p->num_ports, sizeof(xtm_port_t));
  m->pg = calloc((size_t)p->num_ports * XTM_NUM_PRIOS, sizeof(xtm_pg_t));
  m->fifo = calloc((size_t)p->num_ports * p->fifo_depth, sizeof(xtm_fifo_ent_t));
  m->pol = calloc((size_t)p->num_ports * XTM_POLS_PER_PORT, sizeof(xtm_pol_t));
  if (m->desc == NULL || m->voq == NULL || m->port == NULL || m->pg == NULL || m->fifo == NULL ||
      m->pol == NULL || xtm_csr_init(m) != kXtmOk) {
    xtm_destroy(m);
    return kXtmNoMem;
  }
  xtm_lfsr_tables(m);
  xtm_reset(m);
  *out = m;
  return kXtmOk;
}

void xtm_destroy(xtm_t *m) {
  if (m == NULL) {
    return;
  }
  free(m->desc);
  free(m->voq);
  free(m->port);
  free(m->pg);
  free(m->fifo);
  free(m->pol);
  free(m->regs);
  free(m->decode);
  free(m);
}

const xtm_params_t *xtm_params(const xtm_t *m) { return &m->prm; }

void xtm_reset(xtm_t *m) {
  const xtm_params_t *p = &m->prm;
  memset(m->voq, 0, (size_t)m->num_voqs * sizeof(xtm_voq_t));
  memset(m->port, 0, (size_t)p->num_ports * sizeof(xtm_port_t));
  memset(m->pg, 0, (size_t)p->num_ports * XTM_NUM_PRIOS * sizeof(xtm_pg_t));
  memset(m->fifo, 0, (size_t)p->num_ports * p->fifo_depth * sizeof(xtm_fifo_ent_t));
  // policers (spec 3, 4.7): tok = 0, u = 0, counters 0; POL_RATE/POL_BURST by the table
  memset(m->pol, 0, (size_t)p->num_ports * XTM_POLS_PER_PORT * sizeof(xtm_pol_t));
  memset(m->prof, 0, sizeof(m->prof));
  memset(m->flush_mask, 0, sizeof(m->flush_mask));
  m->flush_n = 0;
  m->fifo_ports = m->busy_ports = m->xoff_ports = m->pfc_dirty = m->full_fifo_ports = 0;
  m->refresh_min = XTM_NEVER;
  m->fifo_due = XTM_NEVER;
  memset(m->ecnt, 0, sizeof(m->ecnt));
  // free list: LIFO, descriptor 0 first (allocation order is not observable). Kept as the
  // freed descriptors (free_head, LIFO) above those never allocated since the reset
  // (desc_fresh, in ascending order): the same order as one list of every descriptor,
  // without writing the whole array here. A descriptor is written in full when allocated.
  m->free_head = XTM_NIL;
  m->desc_fresh = 0;
  m->desc_free = p->num_desc;
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    m->voq[v].head = m->voq[v].tail = XTM_NIL;
  }
  m->pool_used = m->ocb_used = m->hbm_used = 0;
  m->port_rr = 0;
  m->tx_ready = UINT64_MAX;
  m->pg_eval_pending = 0;
  m->n_touched = 0;
  m->touched_cycle = XTM_NEVER;
  m->wd_toggle = 0;
  m->wd_port = 0;
  for (int i = 0; i < 4; i++) {
    m->mark[i].due = XTM_NEVER;
  }
  m->mark_due = XTM_NEVER;
  for (int i = 0; i < 2; i++) {
    m->occ_log[i] = (xtm_occ_log_t){.enq_cycle = XTM_NEVER, .rem_cycle = XTM_NEVER};
  }
  m->t = 0;
  xtm_csr_reset_values(m);  // registers, LFSRs, buckets full, queue shapers
  m->wd_next_poll = m->wd_poll;
  m->wd_sweep_t0 = XTM_NEVER;
  m->next_active = 0;
  m->next_full = 0;
  m->next_nonfifo = 0;
  m->snap_all = true;
}

uint64_t xtm_cycle(const xtm_t *m) { return m->t; }
static void fifo_due_update(xtm_t *m);
void xtm_set_tx_ready(xtm_t *m, uint64_t mask) {
  if (mask != m->tx_ready) {
    m->tx_ready = mask;
    fifo_due_update(m);
    m->next_active = m->next_full = m->next_nonfifo = m->t;
  }
}

// ------------------------------------------------------------------ small helpers

static inline uint32_t voq_port(const xtm_t *m, uint32_t v) { return v / m->prm.num_tcs; }
static inline uint32_t voq_queue(const xtm_t *m, uint32_t v) { return v % m->prm.num_tcs; }

bool xtm_voq_ocb_only(const xtm_t *m, const xtm_voq_t *q) {
  // spec 5.2: limit * C * 65536 <= OCB_ONLY_CYCLES * target_rate (exact; < 2^62)
  uint64_t lhs = ((uint64_t)q->limit << m->cell_log2) << 16;
  uint64_t rhs = (uint64_t)m->ocb_only_cycles * q->target_rate;
  return lhs <= rhs;
}

static inline bool voq_stalled_drop(const xtm_t *m, const xtm_voq_t *q) {
  return q->wd_state == kXtmWdStalled &&
         XTM_F(m->wd_ctrl, WD_CTRL, ACTION) == XTM_WD_CTRL_ACTION_VALUE_DROP;
}
static inline bool voq_stalled_fwd(const xtm_t *m, const xtm_voq_t *q) {
  return q->wd_state == kXtmWdStalled &&
         XTM_F(m->wd_ctrl, WD_CTRL, ACTION) == XTM_WD_CTRL_ACTION_VALUE_FORWARD;
}

void xtm_update_flush(xtm_t *m, uint32_t v) {
  const xtm_voq_t *q = &m->voq[v];
  bool f = q->occ_pkts > 0 && (XTM_F(q->cfg, Q_CFG, ENABLE) == 0 || voq_stalled_drop(m, q));
  uint64_t bit = 1ull << (v & 63);
  bool was = (m->flush_mask[v >> 6] & bit) != 0;
  if (f) {
    m->flush_mask[v >> 6] |= bit;
  } else {
    m->flush_mask[v >> 6] &= ~bit;
  }
  m->flush_n += (uint32_t)f - (uint32_t)was;
  xtm_snap_mark_voq(m, v);
}

static inline xtm_pg_t *pg_of(xtm_t *m, uint32_t port, uint32_t prio) {
  return &m->pg[port * XTM_NUM_PRIOS + prio];
}

// Pause of VOQ v's priority on its egress port, in cycle t (spec 7.2, 9.1).
static inline bool voq_paused(const xtm_t *m, const xtm_voq_t *q, uint32_t port, uint64_t t) {
  if (XTM_F(q->cfg, Q_CFG, PFC_RX_EN) == 0) {
    return false;
  }
  const xtm_pg_t *g = &m->pg[port * XTM_NUM_PRIOS + XTM_F(q->cfg, Q_CFG, PFC_PRIO)];
  return t < g->pause_end;
}

uint64_t xtm_paused_cycles(const xtm_pg_t *g, uint64_t t) {
  uint64_t end = g->pause_end < t ? g->pause_end : t;
  return g->cnt[kXtmGcntPausedCycles] + (end > g->pc_from ? end - g->pc_from : 0);
}

// The pause of g at the start of cycle c (pause_ref <= c < pause_end), quantum q since
// pause_ref: step 2 of spec 7.2 run c - pause_ref times in closed form. The time left of the
// current quantum falls by 65536 per cycle; each time it reaches 0 or below, a whole quantum
// is added to it.
static void pause_at(const xtm_pg_t *g, uint32_t q, uint64_t c, uint32_t *qn, uint64_t *f) {
  uint64_t d = (c - g->pause_ref) << 16;
  if (d < g->pause_f) {
    *qn = g->pause_qn;
    *f = g->pause_f - d;
    return;
  }
  uint64_t n = (d - g->pause_f) / q + 1;  // quanta started since pause_ref (<= pause_qn)
  *qn = g->pause_qn - (uint32_t)n;
  *f = g->pause_f + n * q - d;
}

// A P_PAUSE_QUANTUM write whose first cycle is t_next (spec 7.2, 15.5): every running pause
// of the port keeps the time left of its current quantum, its whole quanta last the new one.
void xtm_pause_quantum_write(xtm_t *m, uint32_t port, uint32_t quantum, uint64_t t_next) {
  xtm_port_t *pt = &m->port[port];
  for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
    xtm_pg_t *g = pg_of(m, port, i);
    if (t_next >= g->pause_end) {
      continue;
    }
    uint32_t qn;
    uint64_t f;
    pause_at(g, pt->pause_quantum, t_next, &qn, &f);
    g->cnt[kXtmGcntPausedCycles] = xtm_paused_cycles(g, t_next);
    g->pc_from = t_next;
    g->pause_ref = t_next;
    g->pause_qn = qn;
    g->pause_f = f;
    g->pause_end = t_next + (((uint64_t)qn * quantum + f + 0xFFFFu) >> 16);
    xtm_snap_mark_pg(m, port * XTM_NUM_PRIOS + i);
  }
  pt->pause_quantum = quantum;
}

// A PG touched by an acceptance or a removal in cycle t is evaluated at step 7 of t+1
// (spec 7.1); at most two per cycle.
// A PG without PFC_EN and out of XOFF cannot change at that evaluation (a G_CFG write that
// enables it asks for its own evaluation), so it is not listed.
static void touch_pg(xtm_t *m, uint32_t idx, uint64_t t) {
  const xtm_pg_t *g = &m->pg[idx];
  if (!g->xoff && XTM_F(g->cfg, G_CFG, PFC_EN) == 0) {
    return;
  }
  if (m->touched_cycle != t) {
    m->touched_cycle = t;
    m->n_touched = 0;
  }
  if (m->n_touched == 0 || m->touched_pg[0] != idx) {
    m->touched_pg[m->n_touched++] = idx;
  }
}

// The occupancy log entry of cycle t (spec 6.2 needs the occupancy of S(t-2)).
static inline xtm_occ_log_t *occ_log_at(xtm_t *m, uint64_t t) { return &m->occ_log[t & 1]; }

// Occupancy of VOQ v in S(t-2), from S(t) and the changes of cycles t-2 and t-1.
static uint32_t occ_two_back(const xtm_t *m, uint32_t v, uint64_t t) {
  uint32_t occ = m->voq[v].occ_cells;
  for (uint64_t k = 1; k <= 2 && k <= t; k++) {
    const xtm_occ_log_t *l = &m->occ_log[(t - k) & 1];
    if (l->enq_cycle == t - k && l->enq_v == v) {
      occ -= l->enq_cells;
    }
    if (l->rem_cycle == t - k && l->rem_v == v) {
      occ += l->rem_cells;
    }
  }
  return occ;
}

// ------------------------------------------------------------------ lazy queue shaper

// tok + (c - u) * R >= 0, i.e. tokens(c) >= 0 whatever the burst (B >= 0). c >= u.
static inline bool qs_nonneg(const xtm_qshaper_t *s, uint64_t c, uint32_t rate) {
  if (s->tok >= 0) {
    return true;
  }
  if (rate == 0) {
    return false;
  }
  uint64_t dt = c - s->u;
  if (dt >= (1ull << 38)) {
    return true;  // dt * R >= 2^38 > -tok (tok >= -2^32)
  }
  return (int64_t)(dt * rate) >= -s->tok;
}

// tokens(c) = min(B, tok + (c - u) * R) (spec 9.5)
static inline int64_t qs_tokens(const xtm_qshaper_t *s, uint64_t c, uint32_t rate, uint32_t burst) {
  uint64_t dt = c - s->u;
  if (dt > (1ull << 38)) {
    dt = 1ull << 38;  // enough to reach any burst (< 2^36)
  }
  int64_t v = s->tok + (int64_t)(dt * rate);
  int64_t cap = (int64_t)burst << 16;
  return v < cap ? v : cap;
}

static inline uint64_t scan_lo(const xtm_t *m, const xtm_qshaper_t *s) {
  return s->scan_from > m->init_cycles ? s->scan_from : m->init_cycles;
}

// The conformance bit of VOQ v at cycle c >= cf_t: the latest write effective at or before c
// (spec 9.5). A charge write wins a tie with a scan write.
bool xtm_qs_conform(const xtm_t *m, uint32_t v, uint64_t c) {
  const xtm_voq_t *q = &m->voq[v];
  const xtm_qshaper_t *s = &q->shaper;
  if (c <= s->cf_t) {
    return s->cf_val;
  }
  uint64_t bt = s->cf_t;
  bool val = s->cf_val;
  for (int i = 0; i < 2; i++) {
    if (s->pend_t[i] != XTM_NEVER && s->pend_t[i] > bt && s->pend_t[i] <= c) {
      bt = s->pend_t[i];
      val = s->pend_v[i];
    }
  }
  uint64_t lo = scan_lo(m, s);
  if (c >= lo + 2) {
    uint64_t hi = c - 2;  // hi >= lo >= INIT_CYCLES >= NumVoqs > v
    uint64_t ts = hi - (hi - v) % m->num_voqs;
    if (ts >= lo && ts + 2 > bt) {
      bt = ts + 2;
      val = qs_nonneg(s, ts + 2, q->shaper_rate);
    }
  }
  if (s->ch_t != XTM_NEVER) {
    if (s->ch_t + 2 <= c && s->ch_t + 2 > s->cf_t && s->ch_t + 2 >= bt) {
      val = s->ch_x;
    } else if (s->ch_t + 1 <= c && s->ch_t + 1 > s->cf_t && s->ch_t + 1 >= bt) {
      val = false;
    }
  }
  return val;
}

uint64_t xtm_qs_next_write(const xtm_t *m, uint32_t v, uint64_t c) {
  const xtm_qshaper_t *s = &m->voq[v].shaper;
  uint64_t cand[5] = {s->cf_t + 1, s->pend_t[0], s->pend_t[1], XTM_NEVER, XTM_NEVER};
  if (s->ch_t != XTM_NEVER) {
    cand[3] = s->ch_t + 1;
    cand[4] = s->ch_t + 2;
  }
  uint64_t best = XTM_NEVER;
  for (int i = 0; i < 5; i++) {
    if (cand[i] > c && cand[i] < best) {
      best = cand[i];
    }
  }
  return best;
}

// Records the bit at cycle c as the new reference; writes effective later are kept.
static void qs_materialize(xtm_t *m, uint32_t v, uint64_t c) {
  xtm_qshaper_t *s = &m->voq[v].shaper;
  if (c <= s->cf_t) {
    return;
  }
  xtm_snap_mark_qs(m, v);
  s->cf_val = xtm_qs_conform(m, v, c);
  s->cf_t = c;
  for (int i = 0; i < 2; i++) {
    if (s->pend_t[i] <= c) {
      s->pend_t[i] = XTM_NEVER;
    }
  }
}

// A selection of v in cycle t with SHAPER_EN (spec 9.5): config of S(t).
static void qs_charge(xtm_t *m, uint32_t v, uint64_t t, uint32_t len) {
  xtm_voq_t *q = &m->voq[v];
  xtm_qshaper_t *s = &q->shaper;
  qs_materialize(m, v, t);
  xtm_snap_mark_qs(m, v);
  s->tok = qs_tokens(s, t, q->shaper_rate, q->shaper_burst) - ((int64_t)len << 16);
  s->u = t;
  s->ch_t = t;
  s->ch_x = s->tok + 2 * (int64_t)q->shaper_rate >= 0;
  s->scan_from = t + 1;
  s->pend_t[0] = s->pend_t[1] = XTM_NEVER;  // at most t+2: the charge wins
}

// Before Q_SHAPER_RATE of v changes, effective from t_next: the visits up to t_next-1 were
// evaluated with the old rate; those taking effect after t_next-1 are kept as explicit writes.
void xtm_qs_rate_write(xtm_t *m, uint32_t v, uint64_t t_next) {
  xtm_qshaper_t *s = &m->voq[v].shaper;
  xtm_snap_mark_qs(m, v);  // the rate itself changes after this call
  if (t_next == 0) {
    return;  // nothing evaluated yet; the scan starts at INIT_CYCLES
  }
  uint64_t w = t_next - 1;
  if (w < s->cf_t) {
    w = s->cf_t;
  }
  qs_materialize(m, v, w);
  uint64_t lo = scan_lo(m, s);
  for (uint64_t ts = w == 0 ? 0 : w - 1; ts <= w; ts++) {
    if (ts >= lo && ts % m->num_voqs == v) {
      s->pend_t[(ts + 2) & 1] = ts + 2;
      s->pend_v[(ts + 2) & 1] = qs_nonneg(s, ts + 2, m->voq[v].shaper_rate);
    }
  }
  if (s->scan_from < w + 1) {
    s->scan_from = w + 1;
  }
}

void xtm_qs_reset(xtm_t *m, uint32_t v) {
  xtm_snap_mark_qs(m, v);
  m->voq[v].shaper = (xtm_qshaper_t){.tok = 0,  // the reset burst (Q_SHAPER_BURST = 0)
                                     .u = 0,
                                     .ch_t = XTM_NEVER,
                                     .cf_t = 0,
                                     .scan_from = 0,
                                     .pend_t = {XTM_NEVER, XTM_NEVER},
                                     .ch_x = false,
                                     .cf_val = true,
                                     .pend_v = {false, false}};
}

// First cycle >= t1 at which the bit can be 1 with no further charge or rate write
// (exact: XTM_NEVER if never).
static uint64_t qs_next_on(const xtm_t *m, uint32_t v, uint64_t t1) {
  if (xtm_qs_conform(m, v, t1)) {
    return t1;
  }
  const xtm_voq_t *q = &m->voq[v];
  const xtm_qshaper_t *s = &q->shaper;
  uint64_t best = XTM_NEVER;
  for (int i = 0; i < 2; i++) {
    if (s->pend_t[i] != XTM_NEVER && s->pend_v[i] && s->pend_t[i] >= t1 && s->pend_t[i] < best) {
      best = s->pend_t[i];
    }
  }
  if (s->ch_t != XTM_NEVER && s->ch_x && s->ch_t + 2 >= t1 && s->ch_t + 2 < best) {
    best = s->ch_t + 2;
  }
  uint64_t ok;
  if (s->tok >= 0) {
    ok = s->u;
  } else if (q->shaper_rate == 0) {
    return best;
  } else {
    ok = s->u + ((uint64_t)(-s->tok) + q->shaper_rate - 1) / q->shaper_rate;
  }
  uint64_t a = scan_lo(m, s);
  if (ok >= 2 && ok - 2 > a) {
    a = ok - 2;
  }
  if (t1 >= 2 && t1 - 2 > a) {
    a = t1 - 2;
  }
  uint64_t N = m->num_voqs;
  uint64_t ts = a + ((uint64_t)v + N - a % N) % N;
  if (ts + 2 < best) {
    best = ts + 2;
  }
  return best;
}

// ------------------------------------------------------------------ marking pipeline

static void mark_due_update(xtm_t *m) {
  uint64_t d = XTM_NEVER;
  for (int i = 0; i < 4; i++) {
    if (m->mark[i].due < d) {
      d = m->mark[i].due;
    }
  }
  m->mark_due = d;
}

// The head/latency marking decision of the selection of cycle t-3 (spec 6.3): draw from
// the head LFSR, count, and set the packet's ECN in its egress FIFO entry.
static void marks_process(xtm_t *m, uint64_t t) {
  xtm_mark_pend_t *pe = &m->mark[t & 3];
  if (pe->due == t) {
    uint32_t r = pe->code == kXtmCodeDraw ? xtm_lfsr_draw(m, &m->lfsr_head) : 0;
    if (xtm_profile_decide(pe->code, pe->mul, pe->thr, r)) {
      xtm_fifo_ent_t *e = &m->fifo[pe->fifo_idx];
      e->d.ecn = 3;
      e->d.marked = true;
      if (pe->count) {
        m->voq[pe->voq].cnt[pe->lat ? kXtmVcntMarkLat : kXtmVcntMarkHead]++;
      }
    }
    pe->due = XTM_NEVER;
  }
  mark_due_update(m);
  m->next_active = m->next_full < m->mark_due ? m->next_full : m->mark_due;
}

// CTRL.CLR_CNT in cycles s .. s+3 clears the count of the mark of a selection in s
// (spec 6.3); the draw and the packet's ECN are not affected.
void xtm_marks_clear_counts(xtm_t *m) {
  for (int i = 0; i < 4; i++) {
    m->mark[i].count = false;
  }
}

// ------------------------------------------------------------------ descriptor list

// VOQ v = port * NumTcs + queue.
static XTM_ALWAYS_INLINE void voq_remove_head(xtm_t *m, uint32_t v, uint32_t port, uint32_t queue,
                                              uint64_t t, xtm_desc_t **out_d) {
  xtm_voq_t *q = &m->voq[v];
  uint32_t di = q->head;
  xtm_desc_t *d = &m->desc[di];
  xtm_snap_mark_voq(m, v);
  q->head = d->next;
  if (q->head == XTM_NIL) {
    q->tail = XTM_NIL;
  }
  q->occ_cells -= d->cells;
  q->occ_pkts -= 1;
  m->pool_used -= d->cells;
  if (d->hbm) {
    q->hbm_cells -= d->cells;
    m->hbm_used -= d->cells;
  } else {
    m->ocb_used -= d->cells;
  }
  xtm_occ_log_t *l = occ_log_at(m, t);
  l->rem_cycle = t;
  l->rem_v = v;
  l->rem_cells = d->cells;
  uint32_t pgi = (uint32_t)d->in_port * XTM_NUM_PRIOS + d->pg;
  xtm_pg_t *g = &m->pg[pgi];
  // spec 4.4: a PG drains its headroom first
  g->hdrm_used -= g->hdrm_used < d->cells ? g->hdrm_used : d->cells;
  g->pg_cells -= d->cells;
  xtm_snap_mark_pg(m, pgi);
  touch_pg(m, pgi, t);
  if (q->occ_pkts == 0) {
    m->port[port].nonempty &= (uint8_t) ~(1u << queue);
    if (m->port[port].nonempty == 0) {
      m->busy_ports &= ~(1ull << port);
    }
  }
  // return rule (spec 5.2): mode of S(t) (an eviction of this cycle is committed later),
  // occupancy after the removal
  if (q->hbm_mode && q->occ_cells <= m->return_cells) {
    q->hbm_mode = false;
    q->cnt[kXtmVcntHbmReturn]++;
  }
  // free the descriptor (contents stay readable until the commit of this cycle's arrival)
  d->next = m->free_head;
  m->free_head = di;
  m->desc_free++;
  *out_d = d;
}

// The flush state of a VOQ depends on occ_pkts > 0, ENABLE and the watchdog state
// (xtm_update_flush). A dequeue takes a packet from a VOQ that is not flushing, and an
// acceptance adds one to a VOQ that is enabled and not stalled with DROP: neither changes
// its flush state (the caller has marked the VOQ for the snapshot), only a flush can. Eager
// mode (the reference) updates it anyway.
static inline void flush_unchanged(xtm_t *m, uint32_t v) {
#ifdef XTM_CHECK_FAST
  const xtm_voq_t *q = &m->voq[v];
  bool f = q->occ_pkts > 0 && (XTM_F(q->cfg, Q_CFG, ENABLE) == 0 || voq_stalled_drop(m, q));
  if (f != (((m->flush_mask[v >> 6] >> (v & 63)) & 1u) != 0)) {
    abort();
  }
#endif
  if (m->eager) {
    xtm_update_flush(m, v);  // the reference updates it as before
  }
}

// ------------------------------------------------------------------ step 2: PFC reception

static void pfc_receive(xtm_t *m, const xtm_in_t *in, uint64_t t) {
  uint64_t valid = in->pfc_rx_valid;
  if (m->prm.num_ports < 64) {
    valid &= (1ull << m->prm.num_ports) - 1;
  }
  while (valid != 0) {
    uint32_t p = (uint32_t)__builtin_ctzll(valid);
    valid &= valid - 1;
    const xtm_pfc_frame_t *f = &in->pfc_rx[p];
    xtm_port_t *pt = &m->port[p];
    pt->cnt[kXtmPcntPfcRxFrames]++;
    for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
      if (((f->vec >> i) & 1u) == 0) {
        continue;
      }
      xtm_pg_t *g = pg_of(m, p, i);
      xtm_snap_mark_pg(m, p * XTM_NUM_PRIOS + i);
      g->cnt[kXtmGcntPausedCycles] = xtm_paused_cycles(g, t);
      g->pc_from = t;
      uint64_t prod = (uint64_t)f->quanta[i] * pt->pause_quantum;
      g->pause_end = t + ((prod + 0xFFFFu) >> 16);
      // R(t) = quanta x Q as (quanta - 1) whole quanta and the first one (spec 7.2, step 1)
      g->pause_ref = t;
      g->pause_qn = f->quanta[i] != 0 ? f->quanta[i] - 1u : 0;
      g->pause_f = f->quanta[i] != 0 ? pt->pause_quantum : 0;
      if (f->quanta[i] != 0) {
        g->cnt[kXtmGcntPauseRx]++;
        g->wd_rx = true;
      } else {
        g->cnt[kXtmGcntXonRx]++;
      }
    }
  }
}

// ------------------------------------------------------------------ step 3: watchdog

// The visit of egress port `port` in cycle t (spec 8): decisions on S(t) (pause after step
// 2, rx with the frames of t); the state changes are applied at the end of the cycle.
static void watchdog_visit(xtm_t *m, uint32_t port, uint64_t t) {
  bool en = XTM_F(m->wd_ctrl, WD_CTRL, EN) != 0;
  uint32_t T = m->prm.num_tcs;
  uint8_t toggle = 0;
  for (uint32_t qi = 0; qi < T; qi++) {
    uint32_t v = port * T + qi;
    xtm_voq_t *q = &m->voq[v];
    if (en && XTM_F(q->cfg, Q_CFG, WD_EN) != 0) {
      xtm_snap_mark_voq(m, v);  // the poll counters
      if (q->wd_state == kXtmWdMonitor) {
        bool storm = voq_paused(m, q, port, t) && q->occ_pkts > 0 && !q->wd_sent;
        if (storm) {
          if (q->wd_storm < 255) {
            q->wd_storm++;
          }
          if (q->wd_storm >= m->wd_detect) {
            toggle |= (uint8_t)(1u << qi);
            q->wd_storm = q->wd_clean = 0;
            q->cnt[kXtmVcntWdStall]++;
          }
        } else {
          q->wd_storm = 0;
        }
      } else {
        const xtm_pg_t *g = &m->pg[port * XTM_NUM_PRIOS + XTM_F(q->cfg, Q_CFG, PFC_PRIO)];
        if (g->wd_rx) {
          q->wd_clean = 0;
        } else if (q->wd_clean < 255) {
          q->wd_clean++;
        }
        if (q->wd_clean >= m->wd_restore) {
          toggle |= (uint8_t)(1u << qi);
          q->wd_storm = q->wd_clean = 0;
          q->cnt[kXtmVcntWdRestore]++;
        }
      }
    }
    q->wd_sent = false;
  }
  for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
    m->pg[port * XTM_NUM_PRIOS + i].wd_rx = false;
  }
  m->wd_port = port;
  m->wd_toggle = toggle;
}

static void watchdog_apply(xtm_t *m) {
  uint32_t base = m->wd_port * m->prm.num_tcs;
  for (uint8_t b = m->wd_toggle; b != 0; b &= (uint8_t)(b - 1)) {
    uint32_t v = base + (uint32_t)__builtin_ctz(b);
    m->voq[v].wd_state ^= 1u;
    xtm_update_flush(m, v);
  }
  m->wd_toggle = 0;
}

// ------------------------------------------------------------------ step 4: egress output

// fifo_due: the earliest head of the egress FIFOs of the ready ports, XTM_NEVER if none
// (after a head or tx_ready changed).
static void fifo_due_update(xtm_t *m) {
  uint32_t depth = m->prm.fifo_depth;
  uint64_t due = XTM_NEVER;
  for (uint64_t pm = m->fifo_ports & m->tx_ready; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    uint64_t r = m->fifo[p * depth + m->port[p].fifo_head].ready;
    due = r < due ? r : due;
  }
  m->fifo_due = due;
}

// The outputs, and fifo_due from the heads the same loop sees (the ports outside the
// loop's set have no head to count).
static XTM_ALWAYS_INLINE void egress_output_ports(xtm_t *m, uint64_t t, xtm_out_t *out) {
  uint32_t depth = m->prm.fifo_depth;
  uint64_t due = XTM_NEVER;
  for (uint64_t pm = m->fifo_ports & m->tx_ready; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);  // ascending, as a loop over all ports
    xtm_port_t *pt = &m->port[p];
    xtm_fifo_ent_t *e = &m->fifo[p * depth + pt->fifo_head];
    if (t < e->ready) {
      due = e->ready < due ? e->ready : due;
      continue;
    }
    out->deq[p] = e->d;
    out->deq_valid |= 1ull << p;
    pt->cnt[kXtmPcntTxPkts]++;
    pt->cnt[kXtmPcntTxBytes] += e->d.len;
    pt->fifo_head = (pt->fifo_head + 1 == depth) ? 0 : pt->fifo_head + 1;
    if (pt->fifo_count == depth) {
      m->full_fifo_ports &= ~(1ull << p);
    }
    pt->fifo_count--;
    if (pt->fifo_count == 0) {
      m->fifo_ports &= ~(1ull << p);
    } else {
      uint64_t r = m->fifo[p * depth + pt->fifo_head].ready;  // the new head
      due = r < due ? r : due;
    }
  }
  m->fifo_due = due;
#ifdef XTM_CHECK_FAST  // debug builds: the loop's minimum is fifo_due_update's
  fifo_due_update(m);
  if (m->fifo_due != due) {
    abort();
  }
#endif
}

// Step 4: the ready ports whose FIFO head is due send it (none before fifo_due).
static inline void egress_output(xtm_t *m, uint64_t t, xtm_out_t *out) {
  if (t >= m->fifo_due || m->eager) {  // eager mode (the reference) visits every FIFO port
    egress_output_ports(m, t, out);
  }
}

// ------------------------------------------------------------------ step 5: dequeue slot

static void flush_one(xtm_t *m, uint64_t t, xtm_out_t *out) {
  uint32_t v = 0;
  for (uint32_t w = 0; w < XTM_VOQ_WORDS; w++) {
    if (m->flush_mask[w] != 0) {
      v = w * 64 + (uint32_t)__builtin_ctzll(m->flush_mask[w]);
      break;
    }
  }
  xtm_desc_t *d;
  voq_remove_head(m, v, voq_port(m, v), voq_queue(m, v), t, &d);
  xtm_update_flush(m, v);
  xtm_voq_t *q = &m->voq[v];
  q->cnt[kXtmVcntDropFlush]++;
  q->cnt[kXtmVcntDropBytes] += d->len;
  if (q->occ_pkts == 0 && q->deficit > 0) {
    q->deficit = 0;  // spec 9.3: a VOQ emptied by a flush keeps no positive deficit
  }
  out->flush = (xtm_flush_out_t){.valid = true, .pkt_id = d->pkt_id, .voq = (uint16_t)v};
}

// The HBM read bucket conforms in cycle t (after its last change: t > u), from its `ok`
// (eager mode, the reference: from the bucket itself).
static inline bool hbm_rd_conform(const xtm_t *m, uint64_t t) {
  bool c = (int64_t)t >= m->hbm_rd.ok;
#ifdef XTM_CHECK_FAST
  if (c != (xtm_tb_at(&m->hbm_rd, (int64_t)t, m->hbm_rd_rate, m->hbm_rd_burst) >= 0)) {
    abort();
  }
#endif
  if (m->eager) {  // the reference: the bucket itself
    c = xtm_tb_at(&m->hbm_rd, (int64_t)t, m->hbm_rd_rate, m->hbm_rd_burst) >= 0;
  }
  return c;
}

// xtm_tb_ok_time of a bucket with its `ok` kept, from cycle t1 > u.
static inline uint64_t tb_ok_from(const xtm_tb_t *b, uint64_t t1) {
  if (b->ok == INT64_MAX) {
    return XTM_NEVER;
  }
  return (int64_t)t1 > b->ok ? t1 : (uint64_t)b->ok;
}

// Eligibility of VOQ v in cycle t (spec 9.1), for a VOQ holding packets and not flushing.
static bool voq_eligible(xtm_t *m, uint32_t v, uint32_t port, uint64_t t) {
  xtm_voq_t *q = &m->voq[v];
  if (voq_paused(m, q, port, t) && !voq_stalled_fwd(m, q)) {
    return false;
  }
  if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0 && !xtm_qs_conform(m, v, t)) {
    return false;
  }
  if (m->desc[q->head].hbm && !hbm_rd_conform(m, t)) {
    return false;
  }
  return true;
}

// Bit q set: VOQ (port, q) eligible.
static uint8_t port_eligible(xtm_t *m, uint32_t p, uint64_t t) {
  uint8_t cand = m->port[p].nonempty;
  uint8_t e = 0;
  uint32_t base = p * m->prm.num_tcs;
  while (cand != 0) {
    uint32_t q = (uint32_t)__builtin_ctz(cand);
    cand &= (uint8_t)(cand - 1);
    uint32_t v = base + q;
    if ((m->flush_mask[v >> 6] >> (v & 63)) & 1u) {
      continue;
    }
    if (voq_eligible(m, v, p, t)) {
      e |= (uint8_t)(1u << q);
    }
  }
  return e;
}

// The port shaper conforms in cycle t (after its last change: t > u): from its `ok`, or in
// eager mode (the reference) from the bucket itself.
static inline bool port_shaper_conform(const xtm_t *m, const xtm_port_t *pt, uint64_t t) {
  bool c = (int64_t)t >= pt->shaper.ok;
#ifdef XTM_CHECK_FAST
  if (c != (xtm_tb_at(&pt->shaper, (int64_t)t, pt->shaper_rate, pt->shaper_burst) >= 0)) {
    abort();
  }
#endif
  if (m->eager) {
    c = xtm_tb_at(&pt->shaper, (int64_t)t, pt->shaper_rate, pt->shaper_burst) >= 0;
  }
  return c;
}

static bool port_gate(xtm_t *m, uint32_t p, uint64_t t) {
  xtm_port_t *pt = &m->port[p];
  if (pt->fifo_count >= m->prm.fifo_depth) {
    return false;
  }
  if (XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0 && !port_shaper_conform(m, pt, t)) {
    return false;
  }
  return true;
}

// The first eligible VOQ with a positive deficit in the order rr, rr+1, .., T-1, 0, ..,
// rr-1 (e holds bits below T only): the set bits from rr upwards, then those below rr.
static int dwrr_search(const xtm_t *m, uint32_t base, uint8_t e, uint32_t rr) {
  uint32_t order[2] = {(uint32_t)e & (~0u << rr), (uint32_t)e & ((1u << rr) - 1u)};
  for (int h = 0; h < 2; h++) {
    for (uint32_t c = order[h]; c != 0; c &= c - 1) {
      uint32_t q = (uint32_t)__builtin_ctz(c);
      if (m->voq[base + q].deficit > 0) {
        return (int)q;
      }
    }
  }
  return -1;
}

static void select_and_dequeue(xtm_t *m, uint32_t p, uint8_t elig, uint64_t t) {
  uint32_t T = m->prm.num_tcs;
  uint32_t base = p * T;
  uint8_t strict = 0;
  for (uint32_t c = elig; c != 0; c &= c - 1) {
    uint32_t q = (uint32_t)__builtin_ctz(c);
    if (XTM_F(m->voq[base + q].cfg, Q_CFG, STRICT) != 0) {
      strict |= (uint8_t)(1u << q);
    }
  }
  xtm_port_t *pt = &m->port[p];
  int sel;
  bool is_strict = strict != 0;
  if (is_strict) {
    sel = 31 - __builtin_clz((unsigned)strict);
  } else {
    uint8_t e = elig;
    sel = dwrr_search(m, base, e, pt->rr);
    if (sel < 0) {
      for (uint32_t c = e; c != 0; c &= c - 1) {
        uint32_t q = (uint32_t)__builtin_ctz(c);
        m->voq[base + q].deficit += (int32_t)m->voq[base + q].quantum;
        xtm_snap_mark_voq(m, base + q);
      }
      sel = dwrr_search(m, base, e, pt->rr);
    }
    if (sel < 0) {
      return;  // spec 9.3 b: the win is spent
    }
  }
  uint32_t v = base + (uint32_t)sel;
  xtm_voq_t *q = &m->voq[v];
  uint32_t occ_before = q->occ_cells;
  xtm_desc_t *d;
  voq_remove_head(m, v, p, (uint32_t)sel, t, &d);
  flush_unchanged(m, v);
  q->cnt[kXtmVcntDeqPkts]++;
  q->cnt[kXtmVcntDeqBytes] += d->len;
  q->wd_sent = true;
  if (!is_strict) {
    q->deficit -= d->len;
    if (q->deficit <= 0 || q->occ_pkts == 0) {
      pt->rr = (uint8_t)((uint32_t)sel + 1 == T ? 0 : (uint32_t)sel + 1);
    } else {
      pt->rr = (uint8_t)sel;
    }
  }
  if (q->occ_pkts == 0 && q->deficit > 0) {
    q->deficit = 0;  // spec 9.3: emptied, after the charge
  }
  // charges (spec 5.4, 9.5)
  if (XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0) {
    xtm_tb_sync(&pt->shaper, (int64_t)t, pt->shaper_rate, pt->shaper_burst);
    pt->shaper.tok -= ((int64_t)d->len + XTM_F(pt->shaper_cfg, P_SHAPER_CFG, OVH_BYTES)) << 16;
    xtm_tb_set_ok(&pt->shaper, pt->shaper_rate);
  }
  if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0) {
    qs_charge(m, v, t, d->len);
  }
  if (d->hbm) {
    xtm_tb_sync(&m->hbm_rd, (int64_t)t, m->hbm_rd_rate, m->hbm_rd_burst);
    m->hbm_rd.tok -= (int64_t)d->cells << 16;
    xtm_tb_set_ok(&m->hbm_rd, m->hbm_rd_rate);
  }
  // into the in-flight FIFO (spec 9.4, 9.6)
  uint32_t depth = m->prm.fifo_depth;
  uint32_t slot = pt->fifo_head + pt->fifo_count;
  if (slot >= depth) {
    slot -= depth;
  }
  uint32_t fidx = p * depth + slot;
  xtm_fifo_ent_t *e = &m->fifo[fidx];
  e->ready = t + (d->hbm ? m->hbm_rd_lat : m->ocb_rd_lat);
  e->d.pkt_id = d->pkt_id;  // field by field, as the descriptor in enqueue_commit
  e->d.voq = (uint16_t)v;
  e->d.in_port = d->in_port;
  e->d.len = d->len;
  e->d.dscp = d->dscp;
  e->d.ecn = d->ecn;
  e->d.marked = d->tail_marked;
  e->d.hbm = d->hbm;
  e->d.sojourn = (uint32_t)(t - d->enq_cycle);
  pt->fifo_count++;
  m->fifo_ports |= 1ull << p;
  if (pt->fifo_count == 1 && ((m->tx_ready >> p) & 1u) && e->ready < m->fifo_due) {
    m->fifo_due = e->ready;  // a new head
  }
  if (pt->fifo_count == depth) {
    m->full_fifo_ports |= 1ull << p;
  }
  // marking at dequeue (spec 6.3): evaluated on S(t) now, decided in cycle t+3
  if (XTM_F(q->cfg, Q_CFG, ECN_EN) != 0 && (d->ecn == 1 || d->ecn == 2)) {
    uint32_t mp = XTM_F(q->cfg, Q_CFG, MARK_POINT);
    uint8_t code = kXtmCodeNever;
    int64_t mul = 1, thr = 0;
    bool lat = false;
    if (mp == XTM_Q_CFG_MARK_POINT_VALUE_HEAD) {
      code = xtm_profile_eval(m, XTM_F(q->cfg, Q_CFG, PROFILE), occ_before, q->limit, &mul, &thr);
    } else if (mp == XTM_Q_CFG_MARK_POINT_VALUE_LATENCY) {
      lat = true;
      code = (uint32_t)(t - d->enq_cycle) > q->lat_thresh ? kXtmCodeAlways : kXtmCodeNever;
    }
    if (code != kXtmCodeNever) {
      m->mark[(t + 3) & 3] = (xtm_mark_pend_t){.due = t + 3,
                                               .mul = mul,
                                               .thr = thr,
                                               .fifo_idx = fidx,
                                               .voq = (uint16_t)v,
                                               .code = code,
                                               .lat = lat,
                                               .count = true};
      if (t + 3 < m->mark_due) {
        m->mark_due = t + 3;
      }
    }
  }
}

static void dequeue_slot(xtm_t *m, uint64_t t, xtm_out_t *out) {
  if (m->flush_n != 0) {
    flush_one(m, t, out);
    return;
  }
  uint32_t P = m->prm.num_ports;
  // ports with packets, in round-robin order: port_rr upwards, then from port 0
  uint64_t busy = m->busy_ports;
  uint64_t order[2] = {busy & (~0ull << m->port_rr), busy & ((1ull << m->port_rr) - 1u)};
  for (int h = 0; h < 2; h++) {
    for (uint64_t pm = order[h]; pm != 0; pm &= pm - 1) {
      uint32_t p = (uint32_t)__builtin_ctzll(pm);
      if (!port_gate(m, p, t)) {
        continue;
      }
      uint8_t elig = port_eligible(m, p, t);
      if (elig == 0) {
        continue;
      }
      m->port_rr = (uint8_t)((p + 1 == P) ? 0 : p + 1);
      select_and_dequeue(m, p, elig, t);
      return;
    }
  }
}

// ------------------------------------------------------------------ step 6: enqueue

static void enq_drop(xtm_t *m, uint32_t v, const xtm_enq_in_t *e, xtm_reason_t r, xtm_out_t *out) {
  static const xtm_vcnt_t kCnt[] = {
      [kXtmReasonTail] = kXtmVcntDropTail,       [kXtmReasonPool] = kXtmVcntDropPool,
      [kXtmReasonProfile] = kXtmVcntDropProfile, [kXtmReasonHeadroom] = kXtmVcntDropHdrm,
      [kXtmReasonBufFull] = kXtmVcntDropBuf,     [kXtmReasonQDisabled] = kXtmVcntDropQdis,
      [kXtmReasonWd] = kXtmVcntDropWd,           [kXtmReasonPolice] = kXtmVcntDropPol};
  xtm_voq_t *q = &m->voq[v];
  q->cnt[kCnt[r]]++;
  q->cnt[kXtmVcntDropBytes] += e->len;
  out->enq_res.voq = (uint16_t)v;
  out->enq_res.reason = (uint8_t)r;
}

// validation (spec 4.2) of a masked arrival of class tc and queue: the reason it is
// refused, or kXtmReasonAccept
static xtm_reason_t enq_validate(const xtm_t *m, const xtm_enq_in_t *e, uint64_t t, uint32_t tc,
                                 uint32_t queue) {
  if (t < m->init_cycles) {
    return kXtmReasonNotReady;
  }
  if (e->len == 0) {
    return kXtmReasonLenZero;
  }
  if (e->len > m->max_frame) {
    return kXtmReasonLenMax;
  }
  if (e->in_port >= m->prm.num_ports || e->eg_port >= m->prm.num_ports) {
    return kXtmReasonBadPort;
  }
  if (tc >= m->prm.num_tcs || queue >= m->prm.num_tcs) {
    return kXtmReasonBadTc;
  }
  return kXtmReasonAccept;
}

// profile at enqueue (spec 6.2): occupancy of S(t-2), configuration of S(t); evaluated
// and drawn for every classified arrival the table selects, whatever checks a-e decide.
// *pf_mark / *pf_drop: the profile would mark / drop this frame; returns its hit
static XTM_ALWAYS_INLINE bool enq_profile(xtm_t *m, const xtm_voq_t *q, uint32_t v,
                                          const xtm_enq_in_t *e, uint64_t t, bool *pf_mark,
                                          bool *pf_drop) {
  bool ecn_en = XTM_F(q->cfg, Q_CFG, ECN_EN) != 0;
  bool ect = e->ecn == 1 || e->ecn == 2;
  *pf_mark = ecn_en && ect && XTM_F(q->cfg, Q_CFG, MARK_POINT) == XTM_Q_CFG_MARK_POINT_VALUE_TAIL;
  *pf_drop = !(ecn_en && ect) && !(ecn_en && e->ecn == 3) && XTM_F(q->cfg, Q_CFG, NO_LOSS) == 0 &&
             !(ecn_en && XTM_F(q->cfg, Q_CFG, NONECT_TAIL_ONLY) != 0);
  if (!*pf_mark && !*pf_drop) {
    return false;
  }
  int64_t mul, thr;
  uint8_t code = xtm_profile_eval(m, XTM_F(q->cfg, Q_CFG, PROFILE), occ_two_back(m, v, t), q->limit,
                                  &mul, &thr);
  uint32_t r = code == kXtmCodeDraw ? xtm_lfsr_draw(m, &m->lfsr) : 0;
  return xtm_profile_decide(code, mul, thr, r);
}

// ------------------------------------------------------------------ check p: ingress policer

_Static_assert(XTM_P_POL_MAP_TC1_POL_OFFSET == 4 && XTM_P_POL_MAP_TC7_POL_OFFSET == 28 &&
                   XTM_P_POL_MAP_TC0_EN_BIT == 3 && XTM_P_POL_MAP_TC0_POL_MASK == 7u,
               "P_POL_MAP: TCn_POL at 4n+2:4n, TCn_EN at 4n+3");
_Static_assert(XTM_POL_BURST_BYTES_MASK == 0xFFFFFFu && XTM_POL_RATE_RATE_MASK == 0xFFFFFFu,
               "pol_tokens' overflow argument assumes 24-bit POL_BURST and POL_RATE");

// tokens(c) of spec 4.7 for a policer whose configuration is that of S(c), c >= u:
// B if c - u >= 2^40 and R > 0, else min(B, tok + (c - u) * R).
// Overflow: below 2^40 cycles, e * R <= (2^40 - 1)(2^24 - 1) = 2^64 - 2^40 - 2^24 + 1, and
// tok <= (2^24 - 1) * 65536 = 2^40 - 2^16 (tok is always some tokens(c) or less, so at most
// the largest B ever in force), so tok + e * R <= 2^64 - 2^24 - 2^16 + 1 < 2^64: the sum is
// exact in 64 unsigned bits. From 2^40 cycles on e * R could wrap, which is why the spec
// gives B outright there (any R >= 1 has then refilled more than any B < 2^40); for R = 0
// the product is 0 whatever e.
static uint64_t pol_tokens(const xtm_pol_t *p, uint64_t c) {
  uint64_t b = (uint64_t)p->burst << 16;
  uint64_t e = c - p->u;
  if (e >= (1ull << 40)) {
    if (p->rate > 0) {
      return b;
    }
    e = 0;  // R = 0: tok + e * 0
  }
  uint64_t v = p->tok + e * p->rate;
  return v < b ? v : b;  // a lowered burst clamps here, at the next evaluation
}

// Check p (spec 4.7) of a validated arrival of class tc in cycle t, on S(t): true when it
// is not policed or conforms (admission goes on with check a), false for a POLICE drop.
// Either way a policed arrival's policer is written: tok, u = t and its counters.
static XTM_ALWAYS_INLINE bool pol_check(xtm_t *m, const xtm_enq_in_t *e, uint32_t tc, uint64_t t) {
  uint32_t map = m->port[e->in_port].pol_map >> (4u * tc);
  if (((map >> XTM_P_POL_MAP_TC0_EN_BIT) & 1u) == 0) {
    return true;  // not policed: no policer changes
  }
  uint32_t k = (uint32_t)e->in_port * XTM_POLS_PER_PORT + (map & XTM_P_POL_MAP_TC0_POL_MASK);
  xtm_pol_t *p = &m->pol[k];
  uint64_t tk = pol_tokens(p, t);
  uint64_t need = (uint64_t)e->len << 16;
  bool conform = tk >= need;
  p->tok = conform ? tk - need : tk;
  p->u = t;
  if (conform) {
    p->cnt[kXtmPolcntPassPkts]++;
  } else {
    p->cnt[kXtmPolcntDropPkts]++;
    p->cnt[kXtmPolcntDropBytes] += e->len;
  }
  xtm_snap_mark_pol(m, k);
  return conform;
}

// Validation, classification, admission and placement on S(t) (spec 4.2-5.3). A drop is
// complete here (counters, enq_res); an acceptance and an eviction are left in *dec for
// enqueue_commit, after the dequeue slot.
static XTM_ALWAYS_INLINE void enqueue_decide(xtm_t *m, const xtm_enq_in_t *in_e, uint64_t t,
                                             xtm_out_t *out, xtm_enq_dec_t *dec) {
  // inputs are masked to their field widths (spec 2)
  xtm_enq_in_t e = {.valid = true,
                    .pkt_id = in_e->pkt_id,
                    .in_port = in_e->in_port & 0x3Fu,
                    .eg_port = in_e->eg_port & 0x3Fu,
                    .dscp = in_e->dscp & 0x3Fu,
                    .ecn = in_e->ecn & 0x3u,
                    .len = in_e->len & 0x3FFFu};
  out->enq_res = (xtm_enq_res_t){.valid = true, .pkt_id = e.pkt_id};
  m->ecnt[kXtmEcntArr]++;
  // validation (spec 4.2)
  uint32_t tc = m->dscp_tc[e.dscp];
  uint32_t queue = tc < 8 ? m->tc_queue[tc] : 0;
  xtm_reason_t err = enq_validate(m, &e, t, tc, queue);
  if (err != kXtmReasonAccept) {
    static const xtm_ecnt_t kE[] = {[kXtmReasonNotReady] = kXtmEcntNotReady,
                                    [kXtmReasonLenZero] = kXtmEcntLenZero,
                                    [kXtmReasonLenMax] = kXtmEcntLenMax,
                                    [kXtmReasonBadPort] = kXtmEcntBadPort,
                                    [kXtmReasonBadTc] = kXtmEcntBadTc};
    m->ecnt[kE[err]]++;
    out->enq_res.reason = (uint8_t)err;
    return;
  }
  uint32_t v = e.eg_port * m->prm.num_tcs + queue;
  uint32_t pg = m->tc_pg[tc];
  uint32_t cells = ((uint32_t)e.len + m->prm.cell_bytes - 1) >> m->cell_log2;
  xtm_voq_t *q = &m->voq[v];
  uint32_t gi = (uint32_t)e.in_port * XTM_NUM_PRIOS + pg;
  xtm_pg_t *g = &m->pg[gi];
  q->cnt[kXtmVcntArr]++;
  out->enq_res.voq = (uint16_t)v;
  // the profile's decision (spec 6.2), drawn before the admission checks
  bool pf_mark, pf_drop;
  bool pf_hit = enq_profile(m, q, v, &e, t, &pf_mark, &pf_drop);
  // admission (spec 4.4), all on S(t); check p first: a POLICE drop touches no VOQ, PG or
  // buffer state (4.7) but is counted per VOQ like every other drop (4.5: Q_ARR_PKTS above,
  // Q_DROP_POL and Q_DROP_BYTES in enq_drop)
  if (!pol_check(m, &e, tc, t)) {
    enq_drop(m, v, &e, kXtmReasonPolice, out);
    return;
  }
  if (XTM_F(q->cfg, Q_CFG, ENABLE) == 0) {
    enq_drop(m, v, &e, kXtmReasonQDisabled, out);
    return;
  }
  if (voq_stalled_drop(m, q)) {
    enq_drop(m, v, &e, kXtmReasonWd, out);
    return;
  }
  bool hdrm = false;
  bool marked = false;
  if (XTM_F(g->cfg, G_CFG, PFC_EN) != 0 && g->xoff) {
    if ((uint64_t)g->hdrm_used + cells > g->hdrm_cells) {
      enq_drop(m, v, &e, kXtmReasonHeadroom, out);
      return;
    }
    hdrm = true;
  } else {
    if ((uint64_t)q->occ_cells + cells > q->limit) {
      enq_drop(m, v, &e, kXtmReasonTail, out);
      return;
    }
    if ((uint64_t)m->pool_used + cells > m->pool_cells) {
      enq_drop(m, v, &e, kXtmReasonPool, out);
      return;
    }
    if (pf_hit && pf_drop) {
      enq_drop(m, v, &e, kXtmReasonProfile, out);
      return;
    }
    marked = pf_hit && pf_mark;
  }
  // eviction (spec 5.2): mode and occupancy of S(t); committed after the dequeue slot
  dec->evict = !q->hbm_mode && q->occ_cells >= m->evict_cells && !xtm_voq_ocb_only(m, q);
  dec->v = v;
  // placement (spec 5.3): S(t), the HBM write bucket after this cycle's refill
  bool hbm = false;
  if (m->desc_free == 0) {
    enq_drop(m, v, &e, kXtmReasonBufFull, out);
    return;
  }
  int64_t wr_tok = 0;
  if ((q->hbm_mode || dec->evict) &&
      (wr_tok = xtm_tb_at(&m->hbm_wr, (int64_t)t, m->hbm_wr_rate, m->hbm_wr_burst)) >= 0 &&
      (uint64_t)m->hbm_used + cells <= m->prm.hbm_cells) {
    hbm = true;
    if ((int64_t)t > m->hbm_wr.u) {  // xtm_tb_sync to t, then the charge
      m->hbm_wr.tok = wr_tok;
      m->hbm_wr.u = (int64_t)t;
    }
    m->hbm_wr.tok -= (int64_t)cells << 16;
  } else if ((uint64_t)m->ocb_used + cells > m->prm.ocb_cells) {
    enq_drop(m, v, &e, kXtmReasonBufFull, out);
    return;
  }
  dec->accept = true;
  dec->hdrm = hdrm;
  dec->hbm = hbm;
  dec->marked = marked;
  dec->gi = gi;
  dec->cells = cells;
  dec->e = e;
  dec->pg = (uint8_t)pg;
  dec->queue = (uint8_t)queue;
  out->enq_res.marked = marked;
  out->enq_res.hdrm = hdrm;
  out->enq_res.hbm = hbm;
}

static XTM_ALWAYS_INLINE void enqueue_commit(xtm_t *m, const xtm_enq_dec_t *dec, uint64_t t) {
  xtm_voq_t *q = &m->voq[dec->v];
  xtm_snap_mark_voq(m, dec->v);
  if (dec->evict) {
    q->hbm_mode = true;
    q->cnt[kXtmVcntHbmEvict]++;
  }
  if (!dec->accept) {
    return;
  }
  const xtm_enq_in_t *e = &dec->e;
  uint32_t cells = dec->cells;
  xtm_pg_t *g = &m->pg[dec->gi];
  uint32_t di = m->free_head;
  if (di != XTM_NIL) {
    m->free_head = m->desc[di].next;
  } else {
    di = m->desc_fresh++;  // desc_free > 0: below num_desc
  }
  xtm_desc_t *d = &m->desc[di];
  m->desc_free--;
  XTM_PREFETCH(&m->desc[m->free_head != XTM_NIL ? m->free_head : m->desc_fresh]);  // the next one
  // every field, one store each (a compound literal is built aside and copied: twice the
  // instructions on every acceptance)
  d->next = XTM_NIL;
  d->pkt_id = e->pkt_id;
  d->enq_cycle = t;
  d->len = e->len;
  d->cells = (uint16_t)cells;
  d->in_port = e->in_port;
  d->dscp = e->dscp;
  d->ecn = dec->marked ? 3 : e->ecn;
  d->pg = dec->pg;
  d->hbm = dec->hbm;
  d->tail_marked = dec->marked;
  if (q->tail == XTM_NIL) {
    q->head = di;
  } else {
    m->desc[q->tail].next = di;
  }
  q->tail = di;
  if (q->occ_pkts == 0) {
    m->port[e->eg_port].nonempty |= (uint8_t)(1u << dec->queue);
    m->busy_ports |= 1ull << e->eg_port;
  }
  q->occ_pkts++;
  q->occ_cells += cells;
  m->pool_used += cells;
  g->pg_cells += cells;
  xtm_occ_log_t *l = occ_log_at(m, t);
  l->enq_cycle = t;
  l->enq_v = dec->v;
  l->enq_cells = cells;
  if (dec->hdrm) {
    g->hdrm_used += cells;
    if (g->hdrm_used > g->hdrm_wm) {
      g->hdrm_wm = g->hdrm_used;
    }
  }
  if (dec->hbm) {
    q->hbm_cells += cells;
    m->hbm_used += cells;
  } else {
    m->ocb_used += cells;
  }
  // watermarks of the end of the cycle (the removal of this cycle is already applied)
  if (q->occ_cells > q->wm) {
    q->wm = q->occ_cells;
  }
  if (g->pg_cells > g->wm) {
    g->wm = g->pg_cells;
  }
  if (m->pool_used > m->pool_wm) {
    m->pool_wm = m->pool_used;
  }
  q->cnt[kXtmVcntEnqPkts]++;
  q->cnt[kXtmVcntEnqBytes] += e->len;
  if (dec->marked) {
    q->cnt[kXtmVcntMarkTail]++;
  }
  xtm_snap_mark_pg(m, dec->gi);
  touch_pg(m, dec->gi, t);
  flush_unchanged(m, dec->v);
}

// ------------------------------------------------------------------ step 7: PFC generation

// +1 set, -1 release, 0 no change: the evaluation of spec 7.1 on the current state.
static XTM_ALWAYS_INLINE int pg_decide(const xtm_t *m, const xtm_pg_t *g) {
  bool en = XTM_F(g->cfg, G_CFG, PFC_EN) != 0;
  if (!en && !g->xoff) {
    return 0;
  }
  uint32_t xoff_t, xon_t;
  if (XTM_F(g->cfg, G_CFG, DYNAMIC) != 0) {
    uint32_t free = m->pool_cells > m->pool_used ? m->pool_cells - m->pool_used : 0;
    xoff_t = free >> XTM_F(g->cfg, G_CFG, ALPHA);
    xon_t = xoff_t > g->xon_cells ? xoff_t - g->xon_cells : 0;
  } else {
    xoff_t = g->xoff_cells;
    xon_t = g->xon_cells;
  }
  if (en && !g->xoff && g->pg_cells >= xoff_t) {
    return 1;
  }
  if (g->xoff && (!en || g->pg_cells <= xon_t)) {
    return -1;
  }
  return 0;
}

static void pg_evaluate(xtm_t *m, uint32_t gi) {
  xtm_pg_t *g = &m->pg[gi];
  uint32_t port = gi / XTM_NUM_PRIOS;
  uint32_t prio = gi % XTM_NUM_PRIOS;
  int d = pg_decide(m, g);
  if (d != 0) {
    xtm_snap_mark_pg(m, gi);
  }
  if (d > 0) {
    g->xoff = true;
    m->set_mask[port] |= (uint8_t)(1u << prio);
    m->port[port].xoff_mask |= (uint8_t)(1u << prio);
    m->pfc_dirty |= 1ull << port;
    m->xoff_ports |= 1ull << port;
  } else if (d < 0) {
    g->xoff = false;
    m->rel_mask[port] |= (uint8_t)(1u << prio);
    m->port[port].xoff_mask &= (uint8_t) ~(1u << prio);
    m->pfc_dirty |= 1ull << port;
    if (m->port[port].xoff_mask == 0) {
      m->xoff_ports &= ~(1ull << port);
    }
  }
}

static void pfc_send(xtm_t *m, uint32_t p, uint8_t rel, uint64_t t, xtm_out_t *out) {
  xtm_port_t *pt = &m->port[p];
  xtm_pfc_frame_t *f = &out->pfc_tx[p];
  uint8_t mask = pt->xoff_mask;
  f->vec = (uint8_t)(mask | rel);
  for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
    bool x = (mask >> i) & 1u;
    f->quanta[i] = x ? (uint16_t)pt->pfc_quanta : 0;
    if (x) {
      m->pg[p * XTM_NUM_PRIOS + i].cnt[kXtmGcntXoffSent]++;
    } else if ((rel >> i) & 1u) {
      m->pg[p * XTM_NUM_PRIOS + i].cnt[kXtmGcntXonSent]++;
    }
  }
  out->pfc_tx_valid |= 1ull << p;
  pt->cnt[kXtmPcntPfcTxFrames]++;
  pt->refresh_at = t + pt->pfc_refresh;
}

// Step 7 of cycle t, run before the removal and the acceptance of t are applied, so the
// evaluation reads S(t): the PGs touched in t-1 (acceptance, removal, threshold write).
static void pfc_generate(xtm_t *m, uint64_t t, xtm_out_t *out) {
  uint32_t P = m->prm.num_ports;
  if (m->n_touched != 0 && m->touched_cycle + 1 == t) {
    // each PG is evaluated at most once per cycle (spec 7.1, 15.3)
    for (uint32_t k = 0; k < m->n_touched; k++) {
      xtm_pg_t *g = &m->pg[m->touched_pg[k]];
      if (g->eval_next) {
        g->eval_next = false;
        m->pg_eval_pending--;
      }
      pg_evaluate(m, m->touched_pg[k]);
    }
  }
  m->n_touched = 0;
  if (m->pg_eval_pending != 0) {
    for (uint32_t gi = 0; gi < P * XTM_NUM_PRIOS && m->pg_eval_pending != 0; gi++) {
      if (m->pg[gi].eval_next) {
        m->pg[gi].eval_next = false;
        m->pg_eval_pending--;
        pg_evaluate(m, gi);
      }
    }
  }
  // only ports with a PG change this cycle or in XOFF (refresh) can send (ascending); with
  // no change, none before the earliest refresh of a port in XOFF (refresh_min)
  if (m->pfc_dirty == 0 && t < m->refresh_min && !m->eager) {  // eager: the reference
    return;
  }
  uint64_t rmin = XTM_NEVER;
  for (uint64_t pm = m->pfc_dirty | m->xoff_ports; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    xtm_port_t *pt = &m->port[p];
    uint8_t set = m->set_mask[p], rel = m->rel_mask[p];
    if (set != 0 || rel != 0 || (pt->xoff_mask != 0 && t >= pt->refresh_at)) {
      pfc_send(m, p, rel, t, out);
    }
    m->set_mask[p] = m->rel_mask[p] = 0;
    if (pt->xoff_mask != 0 && pt->refresh_at < rmin) {
      rmin = pt->refresh_at;
    }
  }
  m->refresh_min = rmin;
  m->pfc_dirty = 0;
}

// ------------------------------------------------------------------ next activity

// The first cycle >= t1 at which VOQ v (holding packets) of port p can be eligible as far
// as its pause, its queue shaper and its head's HBM read bucket go (compute_next_active).
static inline uint64_t voq_bound(const xtm_t *m, uint32_t p, uint32_t v, uint64_t t1) {
  const xtm_voq_t *q = &m->voq[v];
  uint64_t tq = t1;
  if (XTM_F(q->cfg, Q_CFG, PFC_RX_EN) != 0 && !voq_stalled_fwd(m, q)) {
    const xtm_pg_t *g = &m->pg[p * XTM_NUM_PRIOS + XTM_F(q->cfg, Q_CFG, PFC_PRIO)];
    if (g->pause_end > tq) {
      tq = g->pause_end;
    }
  }
  if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0) {
    uint64_t ok = qs_next_on(m, v, t1);
    if (ok > tq) {
      tq = ok;
    }
  }
  const xtm_desc_t *hd = &m->desc[q->head];
  if (hd->next != XTM_NIL) {
    XTM_PREFETCH(&m->desc[hd->next]);  // the next head, read when this one leaves
  }
  if (hd->hbm) {
    uint64_t ok = tb_ok_from(&m->hbm_rd, t1);
#ifdef XTM_CHECK_FAST
    if (ok != xtm_tb_ok_time(&m->hbm_rd, t1, m->hbm_rd_rate, m->hbm_rd_burst)) {
      abort();
    }
#endif
    if (ok > tq) {
      tq = ok;
    }
  }
  return tq;
}

// The bound qbest of a port's VOQs (XTM_NEVER: none) with the port shaper: not before its
// first conforming cycle.
static inline uint64_t port_shaped(const xtm_t *m, const xtm_port_t *pt, uint64_t qbest,
                                   uint64_t t1) {
  (void)m;
  if (qbest != XTM_NEVER && XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0) {
    uint64_t ok = tb_ok_from(&pt->shaper, t1);
#ifdef XTM_CHECK_FAST
    if (ok != xtm_tb_ok_time(&pt->shaper, t1, pt->shaper_rate, pt->shaper_burst)) {
      abort();
    }
#endif
    if (ok > qbest) {
      qbest = ok;
    }
  }
  return qbest;
}

// Earliest cycle > t at which an idle cycle could change state or output (spec 13); the
// marking decisions (mark_due) are handled apart. Also sets next_nonfifo: the same bound
// without the egress FIFOs' heads (egress_only_cycle).
static XTM_ALWAYS_INLINE uint64_t next_active_inline(xtm_t *m, uint64_t t) {
  uint64_t t1 = t + 1;
  m->next_nonfifo = t1;
  if (m->flush_n != 0 || m->pg_eval_pending != 0 || m->wd_sweep_t0 != XTM_NEVER) {
    return t1;
  }
  // a PG touched in t is evaluated in t+1: only an evaluation that changes it matters
  if (m->touched_cycle == t) {
    for (uint32_t k = 0; k < m->n_touched; k++) {
      if (pg_decide(m, &m->pg[m->touched_pg[k]]) != 0) {
        return t1;
      }
    }
  }
  uint64_t best = m->wd_next_poll;  // every source but the FIFO heads
  uint64_t fbest = XTM_NEVER;       // the FIFO heads
  uint32_t T = m->prm.num_tcs;
  uint32_t depth = m->prm.fifo_depth;
  // the ports in XOFF: their earliest refresh (pfc_generate keeps it)
  if (m->refresh_min < best) {
    best = m->refresh_min < t1 ? t1 : m->refresh_min;
  }
  // the FIFO heads (fifo_due); the ports with packets (the result is a minimum)
  if (m->fifo_due != XTM_NEVER) {
    fbest = m->fifo_due < t1 ? t1 : m->fifo_due;
  }
  for (uint64_t pm = m->busy_ports; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    xtm_port_t *pt = &m->port[p];
    if (pt->fifo_count >= depth) {
      continue;
    }
    uint64_t qbest = XTM_NEVER;
    uint8_t cand = pt->nonempty;
    while (cand != 0) {
      uint32_t qi = (uint32_t)__builtin_ctz(cand);
      cand &= (uint8_t)(cand - 1);
      uint64_t tq = voq_bound(m, p, p * T + qi, t1);
      if (tq < qbest) {
        qbest = tq;
      }
    }
    qbest = port_shaped(m, pt, qbest, t1);
    if (qbest < best) {
      best = qbest;
    }
    if (best <= t1) {
      return t1;
    }
  }
  best = best < t1 ? t1 : best;
  m->next_nonfifo = best;
  return best < fbest ? best : fbest;
}

// Out of line for the rare callers; full_cycle (one per dequeue) has it inlined: the call
// and its register saves were an eighth of its cost.
static uint64_t compute_next_active(xtm_t *m, uint64_t t) { return next_active_inline(m, t); }

uint64_t xtm_next_event(const xtm_t *m) { return m->next_active > m->t ? m->next_active : m->t; }

// ------------------------------------------------------------------ the cycle

static inline void clear_out(xtm_out_t *out, uint64_t t) {
  out->cycle = t;
  out->enq_res.valid = false;
  out->flush.valid = false;
  out->deq_valid = 0;
  out->pfc_tx_valid = 0;
  out->csr_rsp.valid = false;
}

static void full_cycle(xtm_t *m, const xtm_in_t *in, xtm_out_t *out) {
  uint64_t t = m->t;
  clear_out(out, t);
  if (in != NULL && in->tx_ready != m->tx_ready) {
    m->tx_ready = in->tx_ready;
    fifo_due_update(m);
  }
  // 1. CSR read sample (S(t))
  int16_t csr_idx = -1;
  if (in != NULL && in->csr.valid) {
    bool err = false;
    out->csr_rsp.valid = true;
    if (!in->csr.write) {
      out->csr_rsp.rdata = xtm_csr_sample(m, in->csr.addr, &err, &csr_idx);
    } else {
      out->csr_rsp.rdata = 0;
    }
    out->csr_rsp.err = err;
  }
  // 2. PFC reception
  if (in != NULL && in->pfc_rx_valid != 0) {
    pfc_receive(m, in, t);
  }
  // 3. watchdog: a poll starts a sweep, one egress port per cycle (effects from t+1)
  if (t == m->wd_next_poll) {
    m->wd_sweep_t0 = t;
    m->wd_next_poll += m->wd_poll;
  }
  if (m->wd_sweep_t0 != XTM_NEVER) {
    uint64_t k = t - m->wd_sweep_t0;
    watchdog_visit(m, (uint32_t)k, t);
    if (k + 1 >= m->prm.num_ports) {
      m->wd_sweep_t0 = XTM_NEVER;
    }
  }
  // 4. egress output
  egress_output(m, t, out);
  // 6 (decision). enqueue: validation, admission and placement on S(t)
  xtm_enq_dec_t *dec = &m->enq_dec;
  bool enq = in != NULL && in->enq.valid;
  if (enq) {
    dec->accept = dec->evict = false;
    enqueue_decide(m, &in->enq, t, out, dec);
  }
  // 7. PFC generation on S(t) (the PGs touched in t-1)
  pfc_generate(m, t, out);
  // 5. dequeue slot, applied
  dequeue_slot(m, t, out);
  // 6 (commit). the eviction and the acceptance
  if (enq) {
    enqueue_commit(m, dec, t);
  }
  // head and latency marking decisions of the selection of t-3 (spec 6.3)
  if (m->mark_due == t) {
    marks_process(m, t);
  }
  // 8. end of cycle: watchdog states, CSR effects
  if (m->wd_toggle != 0) {
    watchdog_apply(m);
  }
  if (in != NULL && in->csr.valid) {
    if (in->csr.write) {
      if (!xtm_csr_write_apply(m, in->csr.addr, in->csr.wdata, t + 1)) {
        out->csr_rsp.err = true;
      }
    } else if (csr_idx >= 0) {
      xtm_csr_read_effects(m, csr_idx, t + 1);
    }
  }
  m->t = t + 1;
  m->next_full = next_active_inline(m, t);
  m->next_active = m->next_full < m->mark_due ? m->next_full : m->mark_due;
}

// The guard shared by the cheap cycles below: a cycle before next_nonfifo needs no flush,
// PG evaluation that changes a PG (those touched in t-1 decide no change:
// compute_next_active), watchdog sweep or poll, PFC refresh or dequeue; wd_toggle and
// pfc_dirty are 0 at the start of every cycle. Not taken when an egress output would free a
// slot of a full FIFO (the dequeue slot may then use it in the same cycle).
static inline bool cheap_cycle_ok(const xtm_t *m, uint64_t t) {
  if (t >= m->next_nonfifo || m->eager) {
    return false;
  }
  uint32_t depth = m->prm.fifo_depth;
  for (uint64_t pm = m->full_fifo_ports & m->tx_ready; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    if (m->fifo[p * depth + m->port[p].fifo_head].ready <= t) {
      return false;
    }
  }
#ifdef XTM_CHECK_FAST  // debug builds: the state the guard relies on
  if (m->wd_toggle != 0 || m->pfc_dirty != 0 || m->flush_n != 0 || m->pg_eval_pending != 0 ||
      m->wd_sweep_t0 != XTM_NEVER || t >= m->wd_next_poll) {
    abort();
  }
#endif
  return true;
}

// min(next_nonfifo, the FIFO heads from t1 on): what compute_next_active(m, t1 - 1) returns
// when none of its other terms changed since it last ran (its terms are absolute deadlines).
static inline uint64_t fifo_bound(const xtm_t *m, uint64_t t1) {
  uint64_t r = m->fifo_due < t1 ? t1 : m->fifo_due;
  return r < m->next_nonfifo ? r : m->next_nonfifo;
}

#ifdef XTM_CHECK_FAST  // debug builds: the shortcut's bounds equal the full ones
static void check_bound(xtm_t *m, uint64_t t, uint64_t nf) {
  uint64_t saved_nf = m->next_nonfifo;
  if (compute_next_active(m, t) != nf || m->next_nonfifo != saved_nf) {
    abort();
  }
}
#else
#define check_bound(m, t, nf) ((void)0)
#endif

// A cycle without input before next_nonfifo whose only work is the egress FIFOs' outputs
// (and a marking decision due in it) runs those alone: the CSR, PFC, watchdog, admission
// and dequeue steps of full_cycle would change nothing (cheap_cycle_ok). The PGs touched in
// t-1 decide no change, so their evaluation only empties the list. next_full is then
// fifo_bound. Returns false (nothing done) when not taken.
static bool egress_only_cycle(xtm_t *m, xtm_out_t *out) {
  uint64_t t = m->t;
  if (!cheap_cycle_ok(m, t)) {
    return false;
  }
  clear_out(out, t);
  egress_output(m, t, out);
  m->n_touched = 0;
  if (m->mark_due == t) {
    marks_process(m, t);
  }
  uint64_t t1 = t + 1;
  uint64_t nf = fifo_bound(m, t1);
  check_bound(m, t, nf);
  m->t = t1;
  m->next_full = nf;
  m->next_active = m->next_full < m->mark_due ? m->next_full : m->mark_due;
  return true;
}

// A cycle before next_nonfifo whose only input is an arrival (no CSR access, PFC frame or
// tx_ready change) runs the egress outputs, the admission and its commit, and a marking
// decision due: the PFC generation and the dequeue slot of full_cycle would change nothing
// (cheap_cycle_ok; an arrival is not eligible in its own cycle). An acceptance into a VOQ
// that held packets changes none of compute_next_active's terms but the PG it touches
// (evaluated in t+1); one into an empty VOQ (a new head) adds that VOQ's term to its
// port's (the bound is a minimum of terms, each an absolute deadline). So next_nonfifo
// takes the new term and next_full is fifo_bound, unless the PG's evaluation would change
// it: then the bound is computed in full. Returns false (nothing done) when not taken.
static XTM_NOINLINE bool enqueue_only_cycle(xtm_t *m, const xtm_in_t *in, xtm_out_t *out) {
  uint64_t t = m->t;
  if (!cheap_cycle_ok(m, t)) {
    return false;
  }
  clear_out(out, t);
  egress_output(m, t, out);
  xtm_enq_dec_t dec_local = {.accept = false, .evict = false};
  xtm_enq_dec_t *dec = &dec_local;
  enqueue_decide(m, &in->enq, t, out, dec);
#ifdef XTM_CHECK_FAST  // debug builds: the skipped steps change nothing
  uint32_t free_before = m->desc_free;
  uint32_t pending_before = m->pg_eval_pending;
  pfc_generate(m, t, out);
  dequeue_slot(m, t, out);
  if (out->pfc_tx_valid != 0 || m->pg_eval_pending != pending_before ||
      m->desc_free != free_before || out->flush.valid) {
    abort();
  }
#endif
  m->n_touched = 0;
  bool new_head = dec->accept && m->voq[dec->v].occ_pkts == 0;
  enqueue_commit(m, dec, t);
  if (m->mark_due == t) {
    marks_process(m, t);
  }
  uint64_t t1 = t + 1;
  uint64_t nf;
  if (m->n_touched != 0 && pg_decide(m, &m->pg[m->touched_pg[0]]) != 0) {  // touched in t
    nf = compute_next_active(m, t);
  } else {
    if (new_head) {  // the new VOQ's term of compute_next_active (its port's other terms stay)
      uint32_t p = dec->e.eg_port;
      const xtm_port_t *pt = &m->port[p];
      if (pt->fifo_count < m->prm.fifo_depth) {
        uint64_t b = port_shaped(m, pt, voq_bound(m, p, dec->v, t1), t1);
        m->next_nonfifo = b < m->next_nonfifo ? b : m->next_nonfifo;
      }
    }
    nf = fifo_bound(m, t1);
    check_bound(m, t, nf);
  }
  m->t = t1;
  m->next_full = nf;
  m->next_active = m->next_full < m->mark_due ? m->next_full : m->mark_due;
  return true;
}

// The guard of dequeue_only_cycle: a cycle without input at or after next_nonfifo needs
// no CSR, PFC reception or watchdog work when no sweep runs or starts (t < wd_next_poll),
// and its PFC generation does nothing when no PG evaluation is pending, no port in XOFF
// is due a refresh (t < refresh_min) and the PGs touched in t-1 decide no change (the
// evaluation of a PG that does not change leaves it as it is). No flush: the dequeue slot
// is the scheduler's.
static inline bool dequeue_cycle_ok(const xtm_t *m, uint64_t t) {
  if (m->eager || m->flush_n != 0 || m->pg_eval_pending != 0 || m->wd_sweep_t0 != XTM_NEVER ||
      t >= m->wd_next_poll || t >= m->refresh_min) {
    return false;
  }
  if (m->touched_cycle + 1 == t) {
    for (uint32_t k = 0; k < m->n_touched; k++) {
      if (pg_decide(m, &m->pg[m->touched_pg[k]]) != 0) {
        return false;
      }
    }
  }
  return true;
}

// A cycle without input whose work is the egress outputs, the dequeue slot and a marking
// decision due (dequeue_cycle_ok): full_cycle without its input, watchdog and PFC steps,
// which would change nothing. The bound is computed in full (the dequeue changed its
// port's terms). Returns false (nothing done) when not taken.
static bool dequeue_only_cycle(xtm_t *m, xtm_out_t *out) {
  uint64_t t = m->t;
  if (!dequeue_cycle_ok(m, t)) {
    return false;
  }
  clear_out(out, t);
  egress_output(m, t, out);
#ifdef XTM_CHECK_FAST  // debug builds: the skipped PFC generation changes nothing
  uint32_t pending_before = m->pg_eval_pending;
  uint64_t xoff_before = m->xoff_ports;
  pfc_generate(m, t, out);
  if (out->pfc_tx_valid != 0 || m->pg_eval_pending != pending_before ||
      m->xoff_ports != xoff_before || m->pfc_dirty != 0) {
    abort();
  }
#endif
  m->n_touched = 0;
  dequeue_slot(m, t, out);
  if (m->mark_due == t) {
    marks_process(m, t);
  }
  m->t = t + 1;
  m->next_full = next_active_inline(m, t);
  m->next_active = m->next_full < m->mark_due ? m->next_full : m->mark_due;
  return true;
}

static inline bool has_input(const xtm_t *m, const xtm_in_t *in) {
  return in != NULL &&
         (in->enq.valid || in->pfc_rx_valid != 0 || in->csr.valid || in->tx_ready != m->tx_ready);
}

void xtm_set_eager(xtm_t *m, bool eager) { m->eager = eager; }

void xtm_step(xtm_t *m, const xtm_in_t *in, xtm_out_t *out) {
  if (!m->eager) {
    if (!has_input(m, in)) {
      if (m->t < m->next_active) {
        clear_out(out, m->t);
        m->t++;
        return;
      }
      if (m->t < m->next_full) {
        clear_out(out, m->t);
        marks_process(m, m->t);  // a cycle whose only work is a marking decision
        m->t++;
        return;
      }
      if (egress_only_cycle(m, out) || dequeue_only_cycle(m, out)) {
        return;
      }
    } else if (in->enq.valid && !in->csr.valid && in->pfc_rx_valid == 0 &&
               in->tx_ready == m->tx_ready && enqueue_only_cycle(m, in, out)) {
      return;
    }
  }
  full_cycle(m, in, out);
}

bool xtm_advance_to(xtm_t *m, uint64_t target, xtm_out_t *out) {
  while (m->t < target) {
    if (m->next_active > m->t) {  // idle up to next_active: jump, then run it at once
      if (m->next_active >= target) {
        m->t = target;
        break;
      }
      m->t = m->next_active;
    }
    if (m->next_full > m->t) {
      marks_process(m, m->t);  // a cycle whose only work is a marking decision: no output
      m->t++;
      continue;
    }
    // egress_only_cycle's first test here: the dequeue cycles (t >= next_nonfifo) go to
    // dequeue_only_cycle without the call; full_cycle when neither shortcut applies
    if (!(m->t < m->next_nonfifo && egress_only_cycle(m, out)) && !dequeue_only_cycle(m, out)) {
      full_cycle(m, NULL, out);
    }
    if (xtm_out_any(out)) {
      return true;
    }
  }
  clear_out(out, target);
  return false;
}

// ------------------------------------------------------------------ counters

void xtm_clear_counters(xtm_t *m, uint64_t t_next) {
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    memset(m->voq[v].cnt, 0, sizeof(m->voq[v].cnt));
    m->voq[v].wm = m->voq[v].occ_cells;
    m->voq[v].clr_resident = m->voq[v].occ_pkts;
  }
  for (uint32_t p = 0; p < m->prm.num_ports; p++) {
    memset(m->port[p].cnt, 0, sizeof(m->port[p].cnt));
  }
  // the policer counters; tok and u stay (spec 4.7)
  for (uint32_t k = 0; k < m->prm.num_ports * XTM_POLS_PER_PORT; k++) {
    memset(m->pol[k].cnt, 0, sizeof(m->pol[k].cnt));
  }
  for (uint32_t i = 0; i < m->prm.num_ports * XTM_NUM_PRIOS; i++) {
    xtm_pg_t *g = &m->pg[i];
    memset(g->cnt, 0, sizeof(g->cnt));
    g->pc_from = t_next;
    g->wm = g->pg_cells;
    g->hdrm_wm = g->hdrm_used;
  }
  memset(m->ecnt, 0, sizeof(m->ecnt));
  m->pool_wm = m->pool_used;
  xtm_marks_clear_counts(m);
}
