// SPDX-License-Identifier: Apache-2.0
//
// libdcqcn core: lifecycle, the cycle (docs/spec-dcqcn.md D4), the reaction point (D5.1, D6,
// D7), the pacer (D8), the notification point (D10). RTL twins: rtl/dcqcn/dcqcn_scan.sv (timer
// scan, D5), dcqcn_visit.sv (per-QP visit datapath), dcqcn_cnp.sv, dcqcn_tx.sv, dcqcn_pacer.sv,
// dcqcn_np.sv, dcqcn_gcnt.sv, dcqcn_pend.sv, dcqcn_rate.sv (block map: docs/dcqcn-rtl.md).
//
// Speed (D13): the RTL visits every QP every S cycles. The model keeps a min-heap of the
// next visit at which each QP has a due *busy* timer; a lazy timer (one whose firings change
// nothing but its own deadline, e.g. the alpha timer once alpha is 0) is not visited, and
// its deadline is brought up to date in closed form when the QP is touched again. A QP with
// only lazy timers is parked (not in the heap). Eager mode runs the RTL's scan instead.

#include "cmodel/dcqcn/dcqcn.h"

#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn_internal.h"

void dcqcn_params_default(dcqcn_params_t *p) {
  *p = (dcqcn_params_t){.num_qps = DCQCN_PARAM_NUM_QPS, .scan_width = DCQCN_PARAM_SCAN_WIDTH};
}

bool dcqcn_params_valid(const dcqcn_params_t *p, const char **why) {
  const char *w = NULL;
  if (p == NULL) {
    w = "params is NULL";
  } else if (p->num_qps < 1 || p->num_qps > DCQCN_MAX_QPS) {
    w = "num_qps must be 1..4096";
  } else if (p->scan_width < 1 || p->scan_width > DCQCN_MAX_SCAN_WIDTH) {
    w = "scan_width must be 1..16";
  }
  if (why != NULL) {
    *why = w;
  }
  return w == NULL;
}

dcqcn_status_t dcqcn_create(const dcqcn_params_t *p, dcqcn_t **out) {
  if (out == NULL || !dcqcn_params_valid(p, NULL)) {
    return kDcqcnBadArg;
  }
  dcqcn_t *m = calloc(1, sizeof(*m));
  if (m == NULL) {
    return kDcqcnNoMem;
  }
  m->prm = *p;
  m->scan_period = (p->num_qps + p->scan_width - 1) / p->scan_width;
  m->scan_mask = (m->scan_period & (m->scan_period - 1)) == 0 ? m->scan_period - 1u : 0;
  m->width_shift = (p->scan_width & (p->scan_width - 1)) == 0 ? __builtin_ctz(p->scan_width) : -1;
  m->qp = calloc(p->num_qps, sizeof(dcqcn_qp_t));
  m->heap = calloc(p->num_qps, sizeof(uint32_t));
  m->plist = malloc(sizeof(int32_t) * m->scan_period);
  if (m->qp == NULL || m->heap == NULL || m->plist == NULL || dcqcn_csr_init(m) != kDcqcnOk) {
    dcqcn_destroy(m);
    return kDcqcnNoMem;
  }
  dcqcn_reset(m);
  *out = m;
  return kDcqcnOk;
}

void dcqcn_destroy(dcqcn_t *m) {
  if (m == NULL) {
    return;
  }
  free(m->qp);
  free(m->heap);
  free(m->plist);
  free(m->regs);
  free(m->decode);
  free(m);
}

const dcqcn_params_t *dcqcn_params(const dcqcn_t *m) { return &m->prm; }
uint64_t dcqcn_cycle(const dcqcn_t *m) { return m->t; }
uint32_t dcqcn_scan_period(const dcqcn_t *m) { return m->scan_period; }

// ------------------------------------------------------------------ derived parameters

// Rate cap Rmax (D6.1): RPG_MAX_RATE, or LINE_RATE when 0 or larger.
uint32_t dcqcn_rate_cap(const dcqcn_t *m) {
  uint32_t line = DCQCN_R(m, LINE_RATE);
  uint32_t mx = DCQCN_R(m, RPG_MAX_RATE);
  return (mx == 0 || mx > line) ? line : mx;
}
// Rate floor Rmin (D6.1): RPG_MIN_RATE saturated to the cap.
static uint32_t rate_floor(const dcqcn_t *m) {
  uint32_t mn = DCQCN_R(m, RPG_MIN_RATE);
  uint32_t cap = dcqcn_rate_cap(m);
  return mn < cap ? mn : cap;
}
static uint32_t clamp_rate(const dcqcn_t *m, uint32_t r) {
  uint32_t lo = rate_floor(m), hi = dcqcn_rate_cap(m);
  return r < lo ? lo : (r > hi ? hi : r);
}

// Timer period in cycles (D3): microseconds x CYCLES_PER_US, raised to the scan period S.
static uint64_t period(const dcqcn_t *m, int k) {
  uint32_t us;
  switch (k) {
    case kTimAlpha:
      us = DCQCN_R(m, DCE_TCP_RTT);
      break;
    case kTimDec:
      us = DCQCN_R(m, RATE_REDUCE_MONITOR_PERIOD);
      break;
    case kTimInc:
      us = DCQCN_R(m, RPG_TIME_RESET);
      break;
    default:
      return DCQCN_NEVER;
  }
  uint64_t c = (uint64_t)us * DCQCN_R(m, CYCLES_PER_US);
  return c < m->scan_period ? m->scan_period : c;
}

// ------------------------------------------------------------------ scan geometry (D5)

static inline uint64_t scan_slot(const dcqcn_t *m, uint32_t q) {
  return m->width_shift >= 0 ? q >> m->width_shift : q / m->prm.scan_width;
}
// t mod S: a mask when S is a power of two (S = 1 gives mask 0 and t mod 1 = 0 alike).
static inline uint64_t slot_of(const dcqcn_t *m, uint64_t t) {
  return (m->scan_period & (m->scan_period - 1)) == 0 ? t & m->scan_mask : t % m->scan_period;
}
// First visit cycle of q at or after d.
static uint64_t visit_at_or_after(const dcqcn_t *m, uint32_t q, uint64_t d) {
  if (d == DCQCN_NEVER) {
    return DCQCN_NEVER;
  }
  uint64_t s = m->scan_period, r = scan_slot(m, q);
  uint64_t x = r + s - slot_of(m, d);  // in [1, 2s - 1] (r < s): one subtraction is the modulo
  return d + (x >= s ? x - s : x);
}
// Last visit cycle of q at or before l; false if there is none.
static bool visit_at_or_before(const dcqcn_t *m, uint32_t q, uint64_t l, uint64_t *v) {
  uint64_t s = m->scan_period, r = scan_slot(m, q);
  uint64_t back = slot_of(m, l) + s - r;  // in [1, 2s - 1] (r < s): one subtraction is the modulo
  back = back >= s ? back - s : back;
  if (back > l) {
    return false;
  }
  *v = l - back;
  return true;
}

uint64_t dcqcn_due_at(const dcqcn_t *m, uint32_t q, int k, uint64_t last) {
  uint64_t d = m->qp[q].due[k];
  uint64_t v;
  // An INIT pending: no visit fires a timer before the one that applies it (D5.1).
  if (m->qp[q].init_pend || d == DCQCN_NEVER || d > last || !visit_at_or_before(m, q, last, &v) ||
      v < d) {
    return d;
  }
  // Every visit v' >= d fires once and adds P; with P >= S it is then > v' (D5), so the
  // firings up to `last` are exactly d, d+P, ... <= v.
  uint64_t p = period(m, k);
  uint64_t n = v - d < p ? 1 : (v - d) / p + 1;  // usually one firing: no division
  if (m->fault == kDcqcnFaultCatchUpShort && !m->eager && n > 1) {
    n--;
  }
  return d + n * p;
}

static uint16_t alpha_next(const dcqcn_t *m, uint16_t alpha, bool cnp) {
  // D6.3: Q10, truncating; g <= 1023 so g*alpha < 2^20.
  uint32_t g = DCQCN_R(m, DCE_TCP_G);
  uint32_t a = (g * alpha) >> 10;
  if (cnp) {
    a += 1024u - g;
    a = a > DCQCN_ALPHA_MAX ? DCQCN_ALPHA_MAX : a;
  }
  return (uint16_t)a;
}

// A timer is lazy (D13) when its firings change nothing but its own deadline and the
// increase timer's stage and event counters until the QP is touched by an input or a CSR
// write: the alpha timer at its fixed point with an empty slot, the decrease timer with an
// empty slot, the increase timer once the increase event is a fixed point of (Rc, Rt)
// (recovered, D6.6: Rt = Rmax and clamp((Rc + Rt) >> 1) = Rc). Only an input or a write can
// make it busy again, and both bring it up to date first (catch_up), so the model does not
// visit QPs for lazy timers.
static bool inc_fixed_point(const dcqcn_t *m, const dcqcn_qp_t *s) {
  return s->rt == dcqcn_rate_cap(m) && clamp_rate(m, (s->rc + s->rt) >> 1) == s->rc;
}
static bool lazy(const dcqcn_t *m, const dcqcn_qp_t *s, int k) {
  switch (k) {
    case kTimAlpha:  // rate stream off: its firings, the first with a CNP in the slot if one
                     // is, are applied by catch_up (dcqcn_alpha_at, alpha_slot_at)
      return m->quiet || (!s->cnp_alpha && alpha_next(m, s->alpha, false) == s->alpha);
    case kTimDec:
      return !s->cnp_dec;
    case kTimInc:
      return s->due[kTimInc] == DCQCN_NEVER || inc_fixed_point(m, s);
    default:
      return false;
  }
}

// The n lazy increase-timer firings of q not yet applied up to cycle `last` (D6.5 in closed
// form, D13): each is an increase event that leaves Rc and Rt unchanged, counts one of
// INC_FR/AI/HAI by the stage rule with T before it (T0, T0 + 1, ..., saturating at 255) and
// BC fixed, then T += 1. Fills the counts per class and the final T.
typedef struct inc_pending {
  uint64_t n, fr, ai, hai;
  uint64_t due;  // the increase timer's deadline after them (dcqcn_due_at when lazy)
  uint8_t stage_t;
} inc_pending_t;
static void pending_inc(const dcqcn_t *m, uint32_t q, uint64_t last, inc_pending_t *p) {
  const dcqcn_qp_t *s = &m->qp[q];
  *p = (inc_pending_t){
      .n = 0, .fr = 0, .ai = 0, .hai = 0, .due = s->due[kTimInc], .stage_t = s->stage_t};
  if (m->eager || !s->active || s->init_pend || s->due[kTimInc] == DCQCN_NEVER ||
      s->due[kTimInc] > last || !lazy(m, s, kTimInc)) {
    return;  // (a deadline after `last` has no firing to apply)
  }
  uint64_t d = s->due[kTimInc];
  uint64_t nd = dcqcn_due_at(m, q, kTimInc, last);
  p->due = nd;
  if (nd == d) {
    return;
  }
  uint64_t n = (nd - d) / period(m, kTimInc);
  uint64_t t0 = s->stage_t, f = DCQCN_R(m, RPG_THRESHOLD), bc = s->stage_bc;
  // firings whose T before the event is < x (T_i = min(T0 + i, 255))
#define DCQCN_LT(x) ((x) <= t0 ? 0 : ((x) > DCQCN_STAGE_MAX ? n : ((x)-t0 < n ? (x)-t0 : n)))
  if (bc > f) {  // HAI iff T_i > F
    p->ai = DCQCN_LT(f + 1);
    p->hai = n - p->ai;
  } else if (bc == f) {  // max >= F always, min > F never
    p->ai = n;
  } else {  // min < F: no HAI; AI iff T_i >= F
    p->fr = DCQCN_LT(f);
    p->ai = n - p->fr;
  }
#undef DCQCN_LT
  p->n = n;
  p->stage_t = (uint8_t)(t0 + n > DCQCN_STAGE_MAX ? DCQCN_STAGE_MAX : t0 + n);
}

// n alpha-timer firings without a CNP (D6.3), stopping at the fixed point.
static uint16_t alpha_decay(const dcqcn_t *m, uint16_t a, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    uint16_t b = alpha_next(m, a, false);
    if (b == a) {
      break;
    }
    a = b;
  }
  return a;
}

// The lazy alpha firings of q up to cycle `last` (rate stream off, D13): their number (0:
// alpha and its slot are up to date).
static uint64_t alpha_firings(const dcqcn_t *m, uint32_t q, uint64_t last) {
  const dcqcn_qp_t *s = &m->qp[q];
  if (!m->quiet || m->eager || !s->active || s->init_pend || s->due[kTimAlpha] == DCQCN_NEVER) {
    return 0;
  }
  uint64_t d = s->due[kTimAlpha];
  uint64_t nd = dcqcn_due_at(m, q, kTimAlpha, last);
  uint64_t p = period(m, kTimAlpha);
  return nd == d ? 0 : (nd - d == p ? 1 : (nd - d) / p);
}

// alpha after n firings of its timer, the first with the slot's CNP if there is one (D6.3).
static uint16_t alpha_fired(const dcqcn_t *m, const dcqcn_qp_t *s, uint64_t n) {
  if (n == 0) {
    return s->alpha;
  }
  return s->cnp_alpha ? alpha_decay(m, alpha_next(m, s->alpha, true), n - 1)
                      : alpha_decay(m, s->alpha, n);
}

uint16_t dcqcn_alpha_at(const dcqcn_t *m, uint32_t q, uint64_t last) {
  return alpha_fired(m, &m->qp[q], alpha_firings(m, q, last));
}

// The alpha slot's CNP flag after every visit up to `last` (a lazy firing clears it).
static bool alpha_slot_at(const dcqcn_t *m, uint32_t q, uint64_t last) {
  return m->qp[q].cnp_alpha && alpha_firings(m, q, last) == 0;
}

// Unlisted pending bytes whose visit lies at or before `last` (see pend_visit).
static inline bool bytes_due(const dcqcn_t *m, const dcqcn_qp_t *s, uint64_t last) {
  return !m->eager && s->pend_bytes != 0 && !s->listed && s->pend_visit <= last;
}

uint32_t dcqcn_byte_count_at(const dcqcn_t *m, uint32_t q, uint64_t last, bool *pending) {
  const dcqcn_qp_t *s = &m->qp[q];
  *pending = s->pend_bytes != 0;
  if (!bytes_due(m, s, last)) {
    return s->byte_count;
  }
  *pending = false;  // below the threshold (else listed): the visit only added them
  uint64_t bc = (uint64_t)s->byte_count + s->pend_bytes;
  return bc > DCQCN_BYTE_COUNT_MAX ? DCQCN_BYTE_COUNT_MAX : (uint32_t)bc;
}

static void byte_counter(dcqcn_t *m, uint32_t q, uint32_t bytes);

// Deadlines of q's lazy timers as the RTL holds them after its visits up to cycle `last`,
// with the lazy increase firings' effects (T and the counters) applied, and with the rate
// stream off the lazy alpha firings' (alpha).
static void catch_up(dcqcn_t *m, uint32_t q, uint64_t last) {
  dcqcn_qp_t *s = &m->qp[q];
  if (m->eager || !s->active || s->init_pend) {
    return;
  }
  if (bytes_due(m, s, last)) {  // the visit that applied them has passed
    uint32_t b = s->pend_bytes;
    s->pend_bytes = 0;
    byte_counter(m, q, b);  // below the threshold: no increase event
  }
  inc_pending_t p;
  pending_inc(m, q, last, &p);
  if (p.n != 0) {
    s->stage_t = p.stage_t;
    m->gcnt[kDcqcnGcntIncFr] += p.fr;
    m->gcnt[kDcqcnGcntIncAi] += p.ai;
    m->gcnt[kDcqcnGcntIncHai] += p.hai;
    m->gcnt[kDcqcnGcntIncByTimer] += p.n;
    s->cnt[kDcqcnQcntInc] += p.n;
  }
  if (lazy(m, s, kTimAlpha)) {
    uint64_t d = s->due[kTimAlpha], nd = dcqcn_due_at(m, q, kTimAlpha, last);
    if (m->quiet && nd != d) {  // the lazy alpha firings (dcqcn_alpha_at)
      uint64_t per = period(m, kTimAlpha);
      s->alpha = alpha_fired(m, s, nd - d == per ? 1 : (nd - d) / per);
      s->cnp_alpha = false;
    }
    s->due[kTimAlpha] = nd;
  }
  if (lazy(m, s, kTimDec)) {
    s->due[kTimDec] = dcqcn_due_at(m, q, kTimDec, last);
  }
  s->due[kTimInc] = p.due;  // by pending_inc: unchanged unless lazy firings were applied
}

// ------------------------------------------------------------------ heap of visits (D13)

static inline bool hless(const dcqcn_t *m, uint32_t a, uint32_t b) {
  const dcqcn_qp_t *x = &m->qp[a], *y = &m->qp[b];
  return x->hkey < y->hkey || (x->hkey == y->hkey && a < b);
}
static void hswap(dcqcn_t *m, uint32_t i, uint32_t j) {
  uint32_t a = m->heap[i], b = m->heap[j];
  m->heap[i] = b;
  m->heap[j] = a;
  m->qp[b].hpos = (int32_t)i;
  m->qp[a].hpos = (int32_t)j;
}
// Sift with a hole: the moving QP is written once at its final position. The order of
// (hkey, qp) is total, so the heap ends exactly as with pairwise swaps.
static void hup(dcqcn_t *m, uint32_t i) {
  uint32_t q = m->heap[i];
  while (i > 0) {
    uint32_t p = (i - 1) / 2;
    if (!hless(m, q, m->heap[p])) {
      break;
    }
    m->heap[i] = m->heap[p];
    m->qp[m->heap[i]].hpos = (int32_t)i;
    i = p;
  }
  m->heap[i] = q;
  m->qp[q].hpos = (int32_t)i;
}
static void hdown(dcqcn_t *m, uint32_t i) {
  uint32_t q = m->heap[i];
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1;
    if (l >= m->heap_n) {
      break;
    }
    uint32_t c = (r < m->heap_n && hless(m, m->heap[r], m->heap[l])) ? r : l;
    if (!hless(m, m->heap[c], q)) {
      break;
    }
    m->heap[i] = m->heap[c];
    m->qp[m->heap[i]].hpos = (int32_t)i;
    i = c;
  }
  m->heap[i] = q;
  m->qp[q].hpos = (int32_t)i;
}
static void heap_remove(dcqcn_t *m, uint32_t q) {
  int32_t i = m->qp[q].hpos;
  if (i < 0) {
    return;
  }
  uint32_t last = --m->heap_n;
  if ((uint32_t)i != last) {
    hswap(m, (uint32_t)i, last);
    hdown(m, (uint32_t)i);
    hup(m, (uint32_t)i);
  }
  m->qp[q].hpos = -1;
}
// Puts q in the heap with key = its next visit with a due busy timer, or removes it when
// every timer is lazy (the QP is parked).
// A pending event makes the QP busy for its next visit (D5.1, D13): it joins the list of its
// scan slot, which the cycles of that slot visit (O(1), no heap key to change per input).
static bool has_pending(const dcqcn_qp_t *s) {
  return s->init_pend || s->pend_cnp || s->pend_bytes != 0;
}
static void pend_list(dcqcn_t *m, uint32_t q) {
  dcqcn_qp_t *s = &m->qp[q];
  if (m->eager || s->listed) {
    return;
  }
  uint32_t r = (uint32_t)scan_slot(m, q);
  s->listed = true;
  s->pnext = m->plist[r];
  m->plist[r] = (int32_t)q;
  m->n_listed++;
}
static void plist_clear(dcqcn_t *m) {
  for (uint32_t r = 0; r < m->scan_period; r++) {
    m->plist[r] = -1;
  }
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    m->qp[q].listed = false;
  }
  m->n_listed = 0;
}
// First cycle >= t that visits a listed QP (DCQCN_NEVER: none listed).
static uint64_t plist_next(const dcqcn_t *m, uint64_t t) {
  if (m->n_listed == 0) {
    return DCQCN_NEVER;
  }
  uint64_t r = slot_of(m, t);
  for (uint64_t off = 0; off < m->scan_period; off++) {
    if (m->plist[r] >= 0) {
      return t + off;
    }
    r = r + 1 == m->scan_period ? 0 : r + 1;
  }
  return DCQCN_NEVER;
}
static uint32_t byte_threshold(const dcqcn_t *m);
static void heap_set(dcqcn_t *m, uint32_t q) {
  dcqcn_qp_t *s = &m->qp[q];
  if (s->pend_bytes != 0 && !s->listed &&
      (uint64_t)s->byte_count + s->pend_bytes >= byte_threshold(m)) {
    pend_list(m, q);  // a lower threshold (a parameter write): its visit may increase
  }
  uint64_t d = DCQCN_NEVER;
  for (int k = 0; k < kTimCount && s->active && !s->init_pend; k++) {
    if (s->due[k] < d && !lazy(m, s, k)) {
      d = s->due[k];
    }
  }
  uint64_t key = visit_at_or_after(m, q, d);
  if (key == DCQCN_NEVER) {
    heap_remove(m, q);
    return;
  }
  if (s->hpos >= 0 && s->hkey == key) {
    return;  // the common case of an input that moved no deadline
  }
  if (s->hpos < 0) {
    s->hkey = key;
    s->hpos = (int32_t)m->heap_n;
    m->heap[m->heap_n++] = q;
    hup(m, (uint32_t)s->hpos);
  } else if (key > s->hkey) {  // a later key only moves down, an earlier one only up
    s->hkey = key;
    hdown(m, (uint32_t)s->hpos);
  } else {
    s->hkey = key;
    hup(m, (uint32_t)s->hpos);
  }
}

// ------------------------------------------------------------------ reset

void dcqcn_qp_init(dcqcn_t *m, uint32_t q) {
  dcqcn_qp_t *s = &m->qp[q];
  uint32_t cap = dcqcn_rate_cap(m);
  s->rc = s->rt = cap;
  s->byte_count = 0;
  s->alpha = DCQCN_ALPHA_MAX;
  s->stage_t = s->stage_bc = 0;
  s->active = s->cnp_alpha = s->cnp_dec = false;
  for (int k = 0; k < kTimCount; k++) {
    s->due[k] = DCQCN_NEVER;
  }
  s->init_pend = false;
  s->pend_bytes = 0;
}

void dcqcn_qp_init_request(dcqcn_t *m, uint32_t q, uint64_t t_next) {
  dcqcn_qp_t *s = &m->qp[q];
  catch_up(m, q, t_next == 0 ? 0 : t_next - 1);  // lazy firings up to now; counters kept
  s->init_pend = true;
  s->pend_cnp = s->pend_more = false;  // CNPs before the INIT are undone by it
  s->pend_bytes = 0;
  s->pace_q8 = 0;  // the pacer and the NP take the INIT at once (D9)
  s->np_sent = false;
  s->np_last = 0;
  if (!m->eager) {
    heap_set(m, q);  // parked: the INIT's visit comes from the pending list
    pend_list(m, q);
  }
}

void dcqcn_clear_counters(dcqcn_t *m) {
  memset(m->gcnt, 0, sizeof(m->gcnt));
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    memset(m->qp[q].cnt, 0, sizeof(m->qp[q].cnt));
  }
}

void dcqcn_reset(dcqcn_t *m) {
  m->t = 0;
  m->heap_n = 0;
  m->fault = kDcqcnFaultNone;
  for (uint32_t r = 0; r < m->scan_period; r++) {
    m->plist[r] = -1;
  }
  m->n_listed = 0;
  dcqcn_csr_reset_values(m);
  memset(m->gcnt, 0, sizeof(m->gcnt));
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    dcqcn_qp_t *s = &m->qp[q];
    *s = (dcqcn_qp_t){.hpos = -1};
    dcqcn_qp_init(m, q);
  }
}

void dcqcn_set_rate_stream(dcqcn_t *m, bool on) {
  if (on == !m->quiet) {
    return;
  }
  if (on && m->t > 0) {
    dcqcn_unpark_all(m, m->t - 1);  // the lazy alpha firings applied while still quiet
  }
  m->quiet = !on;
  dcqcn_resettle_all(m);  // the alpha timer's laziness changed: re-key every QP
}

void dcqcn_set_eager(dcqcn_t *m, bool eager) {
  if (eager == m->eager) {
    return;
  }
  // Leaving either mode: bring every QP's deadlines up to date and rebuild the heap, so the
  // other path starts from the exact RTL state.
  uint64_t last = m->t == 0 ? 0 : m->t - 1;
  if (m->t > 0) {
    dcqcn_unpark_all(m, last);  // lazy increase firings: stage and counters
  }
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    dcqcn_qp_t *s = &m->qp[q];
    if (m->t > 0) {
      for (int k = 0; k < kTimCount; k++) {
        s->due[k] = dcqcn_due_at(m, q, k, last);
      }
    }
    s->hpos = -1;
  }
  m->heap_n = 0;
  m->eager = eager;
  plist_clear(m);
  if (!eager) {
    for (uint32_t q = 0; q < m->prm.num_qps; q++) {
      heap_set(m, q);
      if (has_pending(&m->qp[q])) {
        pend_list(m, q);
      }
    }
  }
}

bool dcqcn_inject_fault(dcqcn_t *m, dcqcn_fault_t f) {
  if (f != kDcqcnFaultCatchUpShort) {
    return false;
  }
  m->fault = f;
  return true;
}

// ------------------------------------------------------------------ the reaction point

static inline uint8_t sat_stage(uint8_t v) { return v == DCQCN_STAGE_MAX ? v : (uint8_t)(v + 1); }

// Increase event (D6.5). by_timer selects the stage counter incremented afterwards.
static void increase(dcqcn_t *m, uint32_t q, bool by_timer) {
  dcqcn_qp_t *s = &m->qp[q];
  uint32_t f = DCQCN_R(m, RPG_THRESHOLD);
  uint32_t mn = s->stage_t < s->stage_bc ? s->stage_t : s->stage_bc;
  uint32_t mx = s->stage_t < s->stage_bc ? s->stage_bc : s->stage_t;
  uint32_t cap = dcqcn_rate_cap(m);
  uint32_t rt = s->rt;
  if (mn > f) {
    rt += DCQCN_R(m, RPG_HAI_RATE);
    m->gcnt[kDcqcnGcntIncHai]++;
  } else if (mx >= f) {
    rt += DCQCN_R(m, RPG_AI_RATE);
    m->gcnt[kDcqcnGcntIncAi]++;
  } else {
    m->gcnt[kDcqcnGcntIncFr]++;
  }
  s->rt = rt > cap ? cap : rt;  // 21-bit sum, then the cap
  s->rc = clamp_rate(m, (s->rc + s->rt) >> 1);
  s->cnt[kDcqcnQcntInc]++;
  if (by_timer) {
    s->stage_t = sat_stage(s->stage_t);
    m->gcnt[kDcqcnGcntIncByTimer]++;
  } else {
    s->stage_bc = sat_stage(s->stage_bc);
    m->gcnt[kDcqcnGcntIncByBytes]++;
  }
}

// Decrease-monitor firing with a CNP in the slot (D6.4).
static void cut(dcqcn_t *m, uint32_t q, uint64_t t) {
  dcqcn_qp_t *s = &m->qp[q];
  bool clamp = DCQCN_R(m, CLAMP_TGT_RATE) != 0 || s->stage_bc > 0 ||
               (DCQCN_R(m, CLAMP_TGT_RATE_AFTER_TIME_INC) != 0 && s->stage_t > 0);
  if (clamp) {
    s->rt = s->rc;
  }
  uint64_t by_alpha = ((uint64_t)s->rc * s->alpha) >> DCQCN_R(m, RPG_GD);
  uint64_t by_cap = (uint64_t)s->rc * (100u - DCQCN_R(m, RPG_MIN_DEC_FAC)) / 100u;
  uint64_t dec = by_alpha < by_cap ? by_alpha : by_cap;
  s->rc = clamp_rate(m, (uint32_t)(s->rc - dec));
  s->stage_t = s->stage_bc = 0;
  s->byte_count = 0;
  s->cnp_dec = false;
  s->due[kTimInc] = t + period(m, kTimInc);
  m->gcnt[kDcqcnGcntCuts]++;
  s->cnt[kDcqcnQcntCuts]++;
}

// Records q's values the first time the cycle touches it, at the start of its visit after
// a pending INIT (D7). Touched QPs are visited ones, kept in increasing QP order.
static void touch(dcqcn_t *m, uint32_t q) {
  if (m->quiet) {
    return;  // no rate-update stream: nothing to compare against at the end of the cycle
  }
  uint32_t pos = 0;
  while (pos < m->n_touch && m->touch_qp[pos] < q) {
    pos++;
  }
  if (pos < m->n_touch && m->touch_qp[pos] == q) {
    return;
  }
  for (uint32_t i = m->n_touch; i > pos; i--) {
    m->touch_qp[i] = m->touch_qp[i - 1];
    m->touch_rc[i] = m->touch_rc[i - 1];
    m->touch_rt[i] = m->touch_rt[i - 1];
    m->touch_alpha[i] = m->touch_alpha[i - 1];
  }
  m->touch_qp[pos] = q;
  m->touch_rc[pos] = m->qp[q].rc;
  m->touch_rt[pos] = m->qp[q].rt;
  m->touch_alpha[pos] = m->qp[q].alpha;
  m->n_touch++;
}

static inline bool visited_at(const dcqcn_t *m, uint32_t q, uint64_t t) {
  return slot_of(m, t) == scan_slot(m, q);
}

// D6.2: the first CNP of an inactive QP, applied in cycle t.
static void first_cnp(dcqcn_t *m, uint32_t q, uint64_t t) {
  dcqcn_qp_t *s = &m->qp[q];
  s->active = true;
  s->alpha = (uint16_t)DCQCN_R(m, INITIAL_ALPHA_VALUE);
  uint32_t r = DCQCN_R(m, RATE_TO_SET_ON_FIRST_CNP);
  if (r != 0) {
    s->rc = s->rt = r;
  }
  s->rc = clamp_rate(m, s->rc);  // saturated to [Rmin, Rmax] in both cases
  s->rt = clamp_rate(m, s->rt);
  s->cnp_alpha = s->cnp_dec = false;
  s->stage_t = s->stage_bc = 0;
  s->byte_count = 0;
  for (int k = 0; k < kTimCount; k++) {
    s->due[k] = t + period(m, k);
  }
  m->gcnt[kDcqcnGcntCnpFirst]++;
}

static uint32_t byte_threshold(const dcqcn_t *m) { return DCQCN_R(m, RPG_BYTE_RESET) * 64u; }

// D6.5 byte counter of an active QP: at most one increase event per application.
static void byte_counter(dcqcn_t *m, uint32_t q, uint32_t bytes) {
  dcqcn_qp_t *s = &m->qp[q];
  uint64_t bc = (uint64_t)s->byte_count + bytes;
  s->byte_count = bc > DCQCN_BYTE_COUNT_MAX ? DCQCN_BYTE_COUNT_MAX : (uint32_t)bc;
  uint32_t b = DCQCN_R(m, RPG_BYTE_RESET) * 64u;
  if (s->byte_count >= b) {
    s->byte_count -= b;
    increase(m, q, false);
  }
}

// One scan visit of QP q in cycle t (D5.1): its pending INIT, bytes and CNPs, then its due
// timers in the order alpha, decrease, increase, each at most once.
static void visit(dcqcn_t *m, uint32_t q, uint64_t t) {
  dcqcn_qp_t *s = &m->qp[q];
  if (s->init_pend) {
    dcqcn_qp_init(m, q);  // rates = the cap of this cycle; pending bytes dropped
  }
  if (!s->active && !s->pend_cnp) {
    return;
  }
  // Lazy firings before this visit in closed form; those due now fire below, in the order
  // of D5 (a cut in this visit moves the increase deadline before it could fire).
  if (t > 0) {
    catch_up(m, q, t - 1);
  }
  bool any = s->pend_cnp || s->pend_bytes != 0;
  for (int k = 0; k < kTimCount; k++) {
    any = any || (s->active && s->due[k] <= t);
  }
  if (!any) {
    return;
  }
  touch(m, q);
  if (s->pend_bytes != 0) {  // only ever pending for an active QP
    uint32_t b = s->pend_bytes;
    s->pend_bytes = 0;
    byte_counter(m, q, b);
  }
  if (s->pend_cnp) {  // only ever pending for an inactive QP
    first_cnp(m, q, t);
    s->cnp_alpha = s->cnp_dec = s->pend_more;
    s->pend_cnp = s->pend_more = false;
  }
  if (s->due[kTimAlpha] <= t) {
    s->alpha = alpha_next(m, s->alpha, s->cnp_alpha);
    s->cnp_alpha = false;
    s->due[kTimAlpha] += period(m, kTimAlpha);
  }
  if (s->due[kTimDec] <= t) {
    if (s->cnp_dec) {
      cut(m, q, t);  // restarts the increase timer: due[inc] = t + P > t
    }
    s->due[kTimDec] += period(m, kTimDec);
  }
  if (s->due[kTimInc] <= t) {
    uint64_t p = period(m, kTimInc);
    uint64_t d = s->due[kTimInc];
    s->due[kTimInc] = d + p;
    increase(m, q, true);
  }
}

// q is about to be changed by an input in cycle t: its lazy timers' deadlines up to date
// (its visit of cycle t, if any, included: the scan, step 2, comes before the inputs).
// A lazy timer that fires in q's visit of cycle t is a touch by the scan (D7).
static void wake(dcqcn_t *m, uint32_t q, uint64_t t) {
  dcqcn_qp_t *s = &m->qp[q];
  if (!m->eager && !m->quiet && s->active && !s->init_pend && visited_at(m, q, t)) {
    bool due = false;
    for (int k = 0; k < kTimCount; k++) {
      due = due || (t == 0 ? s->due[k] : dcqcn_due_at(m, q, k, t - 1)) <= t;
    }
    if (due) {
      touch(m, q);
    }
  }
  catch_up(m, q, t);
}

// After a parameter write: a rate limit may have made a recovered QP's increase timer busy
// again (or lazy), so every QP is re-keyed.
void dcqcn_resettle_all(dcqcn_t *m) {
  if (m->eager) {
    return;
  }
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    heap_set(m, q);
  }
}

void dcqcn_catch_up_qp(dcqcn_t *m, uint32_t q, uint64_t last) { catch_up(m, q, last); }

void dcqcn_unpark_all(dcqcn_t *m, uint64_t last) {
  if (m->eager) {
    return;
  }
  for (uint32_t q = 0; q < m->prm.num_qps; q++) {
    catch_up(m, q, last);
  }
}

// After q changed (non-eager): re-key it by its busy timers, or park it.
static void settle(dcqcn_t *m, uint32_t q) {
  if (!m->eager) {
    heap_set(m, q);
  }
}

// A CNP (D4 step 3): applied now for a QP visited in cycle t, else pending (D5.1); for an
// active QP without INIT pending the pending CNP only sets the slot flags, done at once.
static void cnp_rx(dcqcn_t *m, uint32_t q, uint64_t t) {
  dcqcn_qp_t *s = &m->qp[q];
  m->gcnt[kDcqcnGcntCnpRx]++;
  s->cnt[kDcqcnQcntCnpRx]++;
  if (visited_at(m, q, t) && !s->init_pend) {
    wake(m, q, t);
    touch(m, q);
    if (!s->active) {
      first_cnp(m, q, t);
    } else {
      s->cnp_alpha = s->cnp_dec = true;
    }
  } else if (s->active && !s->init_pend) {
    wake(m, q, t);
    s->cnp_alpha = s->cnp_dec = true;
  } else if (s->pend_cnp) {
    s->pend_more = true;
  } else {
    s->pend_cnp = true;
    pend_list(m, q);
  }
  settle(m, q);
}

static void tx_sent(dcqcn_t *m, uint32_t q, uint32_t bytes, uint64_t t, dcqcn_out_t *out) {
  dcqcn_qp_t *s = &m->qp[q];
  bool now = visited_at(m, q, t) && !s->init_pend;
  // Rate stream off, an active QP whose byte counter stays below the threshold: the input
  // changes only byte_count (and the pacer). Its lazy timers are not brought up to date:
  // they stay lazy (nothing here makes a timer busy), and a later catch_up applies the
  // same firings from the older deadlines (the closed forms compose), so neither the
  // heap key nor any output or state read differs (D13).
  bool only_bytes = false;
  if (now && m->quiet && !m->eager && s->active) {
    if (bytes_due(m, s, t)) {  // an earlier group's visit has passed: add it first
      uint32_t b = s->pend_bytes;
      s->pend_bytes = 0;
      byte_counter(m, q, b);  // below the threshold (else listed): no increase event
    }
    only_bytes = (uint64_t)s->byte_count + bytes < byte_threshold(m);
  }
  if (now && !only_bytes) {
    wake(m, q, t);
    touch(m, q);
  }
  // D8 pacer: next-send time in 1/256 cycle, with Rc after steps 2-3 of this cycle.
  uint64_t base_t = t << 8;
  if (base_t < s->pace_q8) {
    m->gcnt[kDcqcnGcntPaceEarly]++;
  }
  uint64_t base = base_t > s->pace_q8 ? base_t : s->pace_q8;
  uint64_t gap = (((uint64_t)bytes * 8u * DCQCN_R(m, CYCLES_PER_US)) << 8) / s->rc;
  s->pace_q8 = base + gap;
  out->pace =
      (dcqcn_pace_t){.valid = true, .qp = (uint16_t)q, .next_send = (s->pace_q8 + 255u) >> 8};
  // D6.5 byte counter (active QPs only): now for a visited QP, else at the next visit.
  if (s->active && !s->init_pend) {
    if (only_bytes) {
      s->byte_count += bytes;  // below the threshold: no increase event, no saturation
    } else if (now) {
      byte_counter(m, q, bytes);
      settle(m, q);
    } else if (bytes != 0) {
      if (bytes_due(m, s, t)) {  // an earlier group's visit has passed: add it first
        uint32_t b = s->pend_bytes;
        s->pend_bytes = 0;
        byte_counter(m, q, b);
      }
      if (s->pend_bytes == 0) {
        s->pend_visit = visit_at_or_after(m, q, t + 1);
      }
      s->pend_bytes += bytes;  // the lazy timers' deadlines are kept: the key is unchanged
      if ((uint64_t)s->byte_count + s->pend_bytes >= byte_threshold(m)) {
        pend_list(m, q);  // its visit may raise an increase event: it must run
      }
    }
  }
}

static void ce_rx(dcqcn_t *m, uint32_t q, uint64_t t, dcqcn_out_t *out) {
  // D10 notification point.
  dcqcn_qp_t *s = &m->qp[q];
  m->gcnt[kDcqcnGcntCeRx]++;
  s->cnt[kDcqcnQcntCeRx]++;
  uint64_t gap = (uint64_t)DCQCN_R(m, MIN_TIME_BETWEEN_CNPS) * DCQCN_R(m, CYCLES_PER_US);
  if (!s->np_sent || t - s->np_last >= gap) {
    s->np_sent = true;
    s->np_last = t;
    out->cnp_tx = (dcqcn_qp_ev_t){.valid = true, .qp = (uint16_t)q};
    m->gcnt[kDcqcnGcntCnpTx]++;
    s->cnt[kDcqcnQcntCnpTx]++;
  } else {
    m->gcnt[kDcqcnGcntCeCoalesced]++;
  }
}

// ------------------------------------------------------------------ the cycle (D4)

static void clear_out(dcqcn_out_t *out, uint64_t t) {
  out->cycle = t;
  out->cnp_tx.valid = false;
  out->n_rate = 0;
  out->pace.valid = false;
  out->csr_rsp = (dcqcn_csr_rsp_t){.valid = false, .err = false, .rdata = 0};
}

static bool has_input(const dcqcn_in_t *in) {
  return in != NULL && (in->cnp.valid || in->tx.valid || in->ce.valid || in->csr.valid);
}

// Steps 3-5 of cycle t (D4): the CNP, the transmission, the CE mark.
static inline void cycle_inputs(dcqcn_t *m, const dcqcn_in_t *in, uint64_t t, dcqcn_out_t *out) {
  uint32_t n = m->prm.num_qps;
  // 3. CNP received
  if (in->cnp.valid) {
    if (in->cnp.qp < n) {
      cnp_rx(m, in->cnp.qp, t);
    } else {
      m->gcnt[kDcqcnGcntBadQp]++;
    }
  }
  // 4. bytes transmitted: pacer, then byte counter
  if (in->tx.valid) {
    if (in->tx.qp < n) {
      tx_sent(m, in->tx.qp, in->tx.bytes, t, out);
    } else {
      m->gcnt[kDcqcnGcntBadQp]++;
    }
  }
  // 5. CE-marked packet: notification point
  if (in->ce.valid) {
    if (in->ce.qp < n) {
      ce_rx(m, in->ce.qp, t, out);
    } else {
      m->gcnt[kDcqcnGcntBadQp]++;
    }
  }
}

static void full_cycle(dcqcn_t *m, const dcqcn_in_t *in, dcqcn_out_t *out) {
  uint64_t t = m->t;
  uint32_t n = m->prm.num_qps;
  clear_out(out, t);
  m->n_touch = 0;
  // 1. CSR read sample at S(t)
  int16_t csr_idx = -1;
  bool csr_err = false;
  if (in != NULL && in->csr.valid) {
    out->csr_rsp.valid = true;
    if (!in->csr.write) {
      out->csr_rsp.rdata = dcqcn_csr_sample(m, in->csr.addr, &csr_err, &csr_idx);
    }
  }
  // 2. timer scan: slots 0..U-1 of this cycle, ascending QP
  if (m->eager) {
    uint64_t base = slot_of(m, t) * m->prm.scan_width;
    for (uint32_t i = 0; i < m->prm.scan_width; i++) {
      if (base + i < n) {
        visit(m, (uint32_t)(base + i), t);
      }
    }
  } else {
    int32_t *head = &m->plist[slot_of(m, t)];
    while (*head >= 0) {  // the pending events of this slot's QPs (D5.1)
      uint32_t q = (uint32_t)*head;
      *head = m->qp[q].pnext;
      m->qp[q].listed = false;
      m->n_listed--;
      visit(m, q, t);
      settle(m, q);
    }
    while (m->heap_n > 0 && m->qp[m->heap[0]].hkey == t) {
      uint32_t q = m->heap[0];
      visit(m, q, t);
      settle(m, q);
    }
  }
  if (in != NULL) {
    cycle_inputs(m, in, t, out);  // 3.-5.
  }
  // 6. rate-update stream (D7): touched QPs whose rc, rt or alpha changed, in touch order
  for (uint32_t i = 0; i < m->n_touch; i++) {
    const dcqcn_qp_t *s = &m->qp[m->touch_qp[i]];
    if (s->rc != m->touch_rc[i] || s->rt != m->touch_rt[i] || s->alpha != m->touch_alpha[i]) {
      out->rate[out->n_rate++] = (dcqcn_rate_upd_t){
          .qp = (uint16_t)m->touch_qp[i], .rc = s->rc, .rt = s->rt, .alpha = s->alpha};
    }
  }
  // 7. end of cycle: CSR write / read side effects
  if (in != NULL && in->csr.valid) {
    if (in->csr.write) {
      csr_err = !dcqcn_csr_write_apply(m, in->csr.addr, in->csr.wdata, t + 1);
    } else if (!csr_err) {
      dcqcn_csr_read_effects(m, csr_idx);
    }
    out->csr_rsp.err = csr_err;
  }
  m->t = t + 1;
}

uint64_t dcqcn_next_event(const dcqcn_t *m) {
  if (m->eager) {
    return m->t;
  }
  uint64_t k = m->heap_n == 0 ? DCQCN_NEVER : m->qp[m->heap[0]].hkey;
  uint64_t p = plist_next(m, m->t);
  k = p < k ? p : k;
  return k == DCQCN_NEVER ? k : (k > m->t ? k : m->t);
}

void dcqcn_step(dcqcn_t *m, const dcqcn_in_t *in, dcqcn_out_t *out) {
  bool no_visit = !m->eager && (m->heap_n == 0 || m->qp[m->heap[0]].hkey > m->t) &&
                  (m->n_listed == 0 || m->plist[slot_of(m, m->t)] < 0);
  if (no_visit && !has_input(in)) {
    clear_out(out, m->t);
    m->t++;
    return;
  }
  if (no_visit && m->quiet && !in->csr.valid) {
    // no visit, no CSR access, no rate stream (touch records nothing): the cycle is its
    // inputs (steps 3-5)
    clear_out(out, m->t);
    m->n_touch = 0;
    cycle_inputs(m, in, m->t, out);
    m->t++;
    return;
  }
  full_cycle(m, has_input(in) ? in : NULL, out);
}

bool dcqcn_step_at(dcqcn_t *m, uint64_t cycle, const dcqcn_in_t *in, dcqcn_out_t *out) {
  if (!m->quiet || m->eager || in == NULL || in->csr.valid) {
    return false;
  }
  for (;;) {
    uint64_t next = m->heap_n == 0 ? DCQCN_NEVER : m->qp[m->heap[0]].hkey;
    if (m->n_listed != 0) {
      uint64_t p = plist_next(m, m->t);
      next = p < next ? p : next;
    }
    if (m->t < cycle && next < cycle) {  // a visit before the input's cycle (no output)
      m->t = next > m->t ? next : m->t;
      full_cycle(m, NULL, out);
      continue;
    }
    m->t = m->t < cycle ? cycle : m->t;
    if (next > m->t) {  // nothing visited in the input's cycle: its inputs only (dcqcn_step)
      clear_out(out, m->t);
      m->n_touch = 0;
      cycle_inputs(m, in, m->t, out);
      m->t++;
    } else {
      full_cycle(m, in, out);
    }
    return true;
  }
}

bool dcqcn_advance_to(dcqcn_t *m, uint64_t target, dcqcn_out_t *out) {
  while (m->t < target) {
    if (!m->eager) {
      uint64_t next = m->heap_n == 0 ? DCQCN_NEVER : m->qp[m->heap[0]].hkey;
      uint64_t p = plist_next(m, m->t);
      next = p < next ? p : next;
      if (next > m->t) {
        m->t = next < target ? next : target;
        continue;
      }
    }
    full_cycle(m, NULL, out);
    if (dcqcn_out_any(out)) {
      return true;
    }
  }
  clear_out(out, m->t);
  return false;
}

// ------------------------------------------------------------------ introspection

void dcqcn_qp_state(const dcqcn_t *m, uint32_t qp, dcqcn_qp_state_t *st) {
  const dcqcn_qp_t *s = &m->qp[qp];
  uint64_t last = m->t == 0 ? 0 : m->t - 1;
  inc_pending_t p;
  pending_inc(m, qp, last, &p);  // lazy increase firings not yet applied (D13)
  bool bytes_pending;
  *st = (dcqcn_qp_state_t){
      .active = s->active,
      .cnp_alpha = alpha_slot_at(m, qp, last),
      .cnp_dec = s->cnp_dec,
      .rc = s->rc,
      .rt = s->rt,
      .alpha = dcqcn_alpha_at(m, qp, last),
      .stage_timer = p.stage_t,
      .stage_byte = s->stage_bc,
      .byte_count = dcqcn_byte_count_at(m, qp, last, &bytes_pending),
      .alpha_due = m->t == 0 ? s->due[kTimAlpha] : dcqcn_due_at(m, qp, kTimAlpha, last),
      .dec_due = m->t == 0 ? s->due[kTimDec] : dcqcn_due_at(m, qp, kTimDec, last),
      .inc_due = m->t == 0 ? s->due[kTimInc] : dcqcn_due_at(m, qp, kTimInc, last),
      .pace_q8 = s->pace_q8,
      .np_sent = s->np_sent,
      .np_last = s->np_last,
      .init_pend = s->init_pend,
      .pend_cnp = s->pend_cnp,
      .pend_cnp_more = s->pend_more,
      .pend_bytes = bytes_pending ? s->pend_bytes : 0};
  if (s->init_pend) {  // what the QP window shows: the INIT word with the current cap (D9)
    uint32_t cap = dcqcn_rate_cap(m);
    st->active = st->cnp_alpha = st->cnp_dec = false;
    st->rc = st->rt = cap;
    st->alpha = DCQCN_ALPHA_MAX;
    st->stage_timer = st->stage_byte = 0;
    st->byte_count = 0;
    st->alpha_due = st->dec_due = st->inc_due = DCQCN_NEVER;
  }
}

// Counters as the RTL holds them: plus the lazy increase firings not yet applied (D13).
uint64_t dcqcn_counter(const dcqcn_t *m, dcqcn_gcnt_t c) {
  if ((unsigned)c >= kDcqcnGcntCount) {
    return 0;
  }
  uint64_t v = m->gcnt[c];
  if (m->t > 0 && (c == kDcqcnGcntIncFr || c == kDcqcnGcntIncAi || c == kDcqcnGcntIncHai ||
                   c == kDcqcnGcntIncByTimer)) {
    for (uint32_t q = 0; q < m->prm.num_qps; q++) {
      inc_pending_t p;
      pending_inc(m, q, m->t - 1, &p);
      v += c == kDcqcnGcntIncFr    ? p.fr
           : c == kDcqcnGcntIncAi  ? p.ai
           : c == kDcqcnGcntIncHai ? p.hai
                                   : p.n;
    }
  }
  return v;
}
uint64_t dcqcn_qp_counter(const dcqcn_t *m, uint32_t qp, dcqcn_qcnt_t c) {
  if (qp >= m->prm.num_qps || (unsigned)c >= kDcqcnQcntCount) {
    return 0;
  }
  uint64_t v = m->qp[qp].cnt[c];
  if (c == kDcqcnQcntInc && m->t > 0) {
    inc_pending_t p;
    pending_inc(m, qp, m->t - 1, &p);
    v += p.n;
  }
  return v;
}
