// SPDX-License-Identifier: Apache-2.0
//
// libxtm core: lifecycle, the cycle (docs/spec.md section 4.1), admission, buffer,
// scheduler, PFC and watchdog. The RTL mirrors each step in rtl/xtm/ (one module per step).
//
// Speed: every timer is an absolute deadline and every bucket is lazy (spec 5.4, 13), so a
// cycle with no input before `next_active` changes nothing but time. xtm_step() then costs
// a compare; xtm_advance_to() jumps to min(next_active, target).

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

static const char *const kReasonNames[kXtmReasonCount] = {
    "ACCEPT",   "TAIL",    "POOL",    "PROFILE",  "HEADROOM", "BUF_FULL",  "QDISABLED",
    "WD",       "LEN_ZERO", "LEN_MAX", "BAD_PORT", "BAD_TC",   "NOT_READY", "FLUSH"};

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
  m->cell_log2 = 0;
  while ((1u << m->cell_log2) < p->cell_bytes) {
    m->cell_log2++;
  }
  m->desc = calloc(p->num_desc, sizeof(xtm_desc_t));
  m->voq = calloc(m->num_voqs, sizeof(xtm_voq_t));
  m->port = calloc(p->num_ports, sizeof(xtm_port_t));
  m->pg = calloc((size_t)p->num_ports * XTM_NUM_PRIOS, sizeof(xtm_pg_t));
  m->fifo = calloc((size_t)p->num_ports * p->fifo_depth, sizeof(xtm_fifo_ent_t));
  if (m->desc == NULL || m->voq == NULL || m->port == NULL || m->pg == NULL ||
      m->fifo == NULL || xtm_csr_init(m) != kXtmOk) {
    xtm_destroy(m);
    return kXtmNoMem;
  }
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
  free(m->regs);
  free(m->decode);
  free(m);
}

const xtm_params_t *xtm_params(const xtm_t *m) { return &m->prm; }

void xtm_reset(xtm_t *m) {
  const xtm_params_t *p = &m->prm;
  memset(m->desc, 0, (size_t)p->num_desc * sizeof(xtm_desc_t));
  memset(m->voq, 0, (size_t)m->num_voqs * sizeof(xtm_voq_t));
  memset(m->port, 0, (size_t)p->num_ports * sizeof(xtm_port_t));
  memset(m->pg, 0, (size_t)p->num_ports * XTM_NUM_PRIOS * sizeof(xtm_pg_t));
  memset(m->fifo, 0, (size_t)p->num_ports * p->fifo_depth * sizeof(xtm_fifo_ent_t));
  memset(m->prof, 0, sizeof(m->prof));
  memset(m->flush_mask, 0, sizeof(m->flush_mask));
  m->flush_n = 0;
  m->fifo_ports = m->busy_ports = m->xoff_ports = m->pfc_dirty = 0;
  memset(m->ecnt, 0, sizeof(m->ecnt));
  // free list: LIFO, descriptor 0 first (allocation order is not observable)
  for (uint32_t i = 0; i < p->num_desc; i++) {
    m->desc[i].next = (i + 1 < p->num_desc) ? i + 1 : XTM_NIL;
  }
  m->free_head = 0;
  m->desc_free = p->num_desc;
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    m->voq[v].head = m->voq[v].tail = XTM_NIL;
  }
  m->pool_used = m->ocb_used = m->hbm_used = 0;
  m->port_rr = 0;
  m->tx_ready = UINT64_MAX;
  m->pg_eval_pending = 0;
  m->n_touched = 0;
  m->t = 0;
  xtm_csr_reset_values(m);  // registers, LFSR, buckets full
  m->wd_next_poll = m->wd_poll;
  m->next_active = 0;
}

uint64_t xtm_cycle(const xtm_t *m) { return m->t; }
void xtm_set_tx_ready(xtm_t *m, uint64_t mask) {
  if (mask != m->tx_ready) {
    m->tx_ready = mask;
    m->next_active = m->t;
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
  bool f = q->occ_pkts > 0 &&
           (XTM_F(q->cfg, Q_CFG, ENABLE) == 0 || voq_stalled_drop(m, q));
  uint64_t bit = 1ull << (v & 63);
  bool was = (m->flush_mask[v >> 6] & bit) != 0;
  if (f) {
    m->flush_mask[v >> 6] |= bit;
  } else {
    m->flush_mask[v >> 6] &= ~bit;
  }
  m->flush_n += (uint32_t)f - (uint32_t)was;
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

static void touch_pg(xtm_t *m, uint32_t idx) {
  if (m->n_touched == 0 || m->touched_pg[0] != idx) {
    m->touched_pg[m->n_touched++] = idx;
  }
}

// ------------------------------------------------------------------ descriptor list

static void voq_remove_head(xtm_t *m, uint32_t v, xtm_desc_t **out_d) {
  xtm_voq_t *q = &m->voq[v];
  uint32_t di = q->head;
  xtm_desc_t *d = &m->desc[di];
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
  uint32_t port = voq_port(m, v);
  uint32_t pgi = (uint32_t)d->in_port * XTM_NUM_PRIOS + d->pg;
  xtm_pg_t *g = &m->pg[pgi];
  // spec 4.4: a PG drains its headroom first
  g->hdrm_used -= g->hdrm_used < d->cells ? g->hdrm_used : d->cells;
  g->pg_cells -= d->cells;
  touch_pg(m, pgi);
  if (q->occ_pkts == 0) {
    m->port[port].nonempty &= (uint8_t) ~(1u << voq_queue(m, v));
    if (m->port[port].nonempty == 0) {
      m->busy_ports &= ~(1ull << port);
    }
  }
  // return rule (spec 5.2)
  if (q->hbm_mode && q->occ_cells <= m->return_cells) {
    q->hbm_mode = false;
    q->cnt[kXtmVcntHbmReturn]++;
  }
  // free the descriptor (contents stay readable until the next allocation in this cycle)
  d->next = m->free_head;
  m->free_head = di;
  m->desc_free++;
  *out_d = d;
  xtm_update_flush(m, v);
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
      g->cnt[kXtmGcntPausedCycles] = xtm_paused_cycles(g, t);
      g->pc_from = t;
      uint64_t prod = (uint64_t)f->quanta[i] * pt->pause_quantum;
      g->pause_end = t + ((prod + 0xFFFFu) >> 16);
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

static void watchdog_poll(xtm_t *m, uint64_t t) {
  m->wd_next_poll += m->wd_poll;
  bool en = XTM_F(m->wd_ctrl, WD_CTRL, EN) != 0;
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    xtm_voq_t *q = &m->voq[v];
    uint32_t port = voq_port(m, v);
    if (en && XTM_F(q->cfg, Q_CFG, WD_EN) != 0) {
      if (q->wd_state == kXtmWdMonitor) {
        bool storm = voq_paused(m, q, port, t) && q->occ_pkts > 0 && !q->wd_sent;
        if (storm) {
          if (q->wd_storm < 255) {
            q->wd_storm++;
          }
          if (q->wd_storm >= m->wd_detect) {
            q->wd_state = kXtmWdStalled;
            q->wd_storm = q->wd_clean = 0;
            q->cnt[kXtmVcntWdStall]++;
            xtm_update_flush(m, v);
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
          q->wd_state = kXtmWdMonitor;
          q->wd_storm = q->wd_clean = 0;
          q->cnt[kXtmVcntWdRestore]++;
          xtm_update_flush(m, v);
        }
      }
    }
    q->wd_sent = false;
  }
  uint32_t npg = m->prm.num_ports * XTM_NUM_PRIOS;
  for (uint32_t i = 0; i < npg; i++) {
    m->pg[i].wd_rx = false;
  }
}

// ------------------------------------------------------------------ step 4: egress output

static void egress_output(xtm_t *m, uint64_t t, xtm_out_t *out) {
  uint32_t depth = m->prm.fifo_depth;
  for (uint64_t pm = m->fifo_ports & m->tx_ready; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);  // ascending, as a loop over all ports
    xtm_port_t *pt = &m->port[p];
    xtm_fifo_ent_t *e = &m->fifo[p * depth + pt->fifo_head];
    if (t < e->ready) {
      continue;
    }
    out->deq[p] = e->d;
    out->deq_valid |= 1ull << p;
    pt->cnt[kXtmPcntTxPkts]++;
    pt->cnt[kXtmPcntTxBytes] += e->d.len;
    pt->fifo_head = (pt->fifo_head + 1 == depth) ? 0 : pt->fifo_head + 1;
    pt->fifo_count--;
    if (pt->fifo_count == 0) {
      m->fifo_ports &= ~(1ull << p);
    }
  }
}

// ------------------------------------------------------------------ step 5: dequeue slot

static void flush_one(xtm_t *m, xtm_out_t *out) {
  uint32_t v = 0;
  for (uint32_t w = 0; w < XTM_VOQ_WORDS; w++) {
    if (m->flush_mask[w] != 0) {
      v = w * 64 + (uint32_t)__builtin_ctzll(m->flush_mask[w]);
      break;
    }
  }
  xtm_desc_t *d;
  voq_remove_head(m, v, &d);
  xtm_voq_t *q = &m->voq[v];
  q->cnt[kXtmVcntDropFlush]++;
  q->cnt[kXtmVcntDropBytes] += d->len;
  if (q->occ_pkts == 0 && q->deficit > 0) {
    q->deficit = 0;  // spec 9.3: a VOQ emptied by a flush keeps no positive deficit
  }
  out->flush = (xtm_flush_out_t){.valid = true, .pkt_id = d->pkt_id, .voq = (uint16_t)v};
}

// Eligibility of VOQ v in cycle t (spec 9.1), for a VOQ holding packets and not flushing.
static bool voq_eligible(xtm_t *m, uint32_t v, uint32_t port, uint64_t t) {
  xtm_voq_t *q = &m->voq[v];
  if (voq_paused(m, q, port, t) && !voq_stalled_fwd(m, q)) {
    return false;
  }
  if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0 &&
      xtm_tb_at(&q->shaper, (int64_t)t, q->shaper_rate, q->shaper_burst) < 0) {
    return false;
  }
  if (m->desc[q->head].hbm &&
      xtm_tb_at(&m->hbm_rd, (int64_t)t, m->hbm_rd_rate, m->hbm_rd_burst) < 0) {
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

static bool port_gate(xtm_t *m, uint32_t p, uint64_t t) {
  xtm_port_t *pt = &m->port[p];
  if (pt->fifo_count >= m->prm.fifo_depth) {
    return false;
  }
  if (XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0 &&
      xtm_tb_at(&pt->shaper, (int64_t)t, pt->shaper_rate, pt->shaper_burst) < 0) {
    return false;
  }
  return true;
}

static int dwrr_search(const xtm_t *m, uint32_t base, uint8_t e, uint32_t rr) {
  uint32_t T = m->prm.num_tcs;
  for (uint32_t k = 0; k < T; k++) {
    uint32_t q = rr + k;
    if (q >= T) {
      q -= T;
    }
    if (((e >> q) & 1u) && m->voq[base + q].deficit > 0) {
      return (int)q;
    }
  }
  return -1;
}

static void select_and_dequeue(xtm_t *m, uint32_t p, uint8_t elig, uint64_t t) {
  uint32_t T = m->prm.num_tcs;
  uint32_t base = p * T;
  uint8_t strict = 0;
  for (uint32_t q = 0; q < T; q++) {
    if (((elig >> q) & 1u) && XTM_F(m->voq[base + q].cfg, Q_CFG, STRICT) != 0) {
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
      for (uint32_t q = 0; q < T; q++) {
        if ((e >> q) & 1u) {
          m->voq[base + q].deficit += (int32_t)m->voq[base + q].quantum;
        }
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
  voq_remove_head(m, v, &d);
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
  // charges (spec 5.4)
  if (XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0) {
    xtm_tb_sync(&pt->shaper, (int64_t)t, pt->shaper_rate, pt->shaper_burst);
    pt->shaper.tok -= ((int64_t)d->len + XTM_F(pt->shaper_cfg, P_SHAPER_CFG, OVH_BYTES)) << 16;
  }
  if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0) {
    xtm_tb_sync(&q->shaper, (int64_t)t, q->shaper_rate, q->shaper_burst);
    q->shaper.tok -= (int64_t)d->len << 16;
  }
  if (d->hbm) {
    xtm_tb_sync(&m->hbm_rd, (int64_t)t, m->hbm_rd_rate, m->hbm_rd_burst);
    m->hbm_rd.tok -= (int64_t)d->cells << 16;
  }
  // marking at dequeue (spec 6.3)
  uint8_t ecn = d->ecn;
  bool marked = false;
  if (XTM_F(q->cfg, Q_CFG, ECN_EN) != 0 && (ecn == 1 || ecn == 2)) {
    uint32_t mp = XTM_F(q->cfg, Q_CFG, MARK_POINT);
    if (mp == XTM_Q_CFG_MARK_POINT_VALUE_HEAD) {
      if (xtm_profile_hit(m, XTM_F(q->cfg, Q_CFG, PROFILE), occ_before, q->limit)) {
        marked = true;
        q->cnt[kXtmVcntMarkHead]++;
      }
    } else if (mp == XTM_Q_CFG_MARK_POINT_VALUE_LATENCY) {
      uint32_t soj = (uint32_t)(t - d->enq_cycle);
      if (soj > q->lat_thresh) {
        marked = true;
        q->cnt[kXtmVcntMarkLat]++;
      }
    }
  }
  if (marked) {
    ecn = 3;
  }
  // into the in-flight FIFO (spec 9.4, 9.6)
  uint32_t depth = m->prm.fifo_depth;
  uint32_t slot = pt->fifo_head + pt->fifo_count;
  if (slot >= depth) {
    slot -= depth;
  }
  xtm_fifo_ent_t *e = &m->fifo[p * depth + slot];
  e->ready = t + (d->hbm ? m->hbm_rd_lat : m->ocb_rd_lat);
  e->d = (xtm_deq_out_t){.pkt_id = d->pkt_id,
                         .voq = (uint16_t)v,
                         .in_port = d->in_port,
                         .len = d->len,
                         .dscp = d->dscp,
                         .ecn = ecn,
                         .marked = marked || d->tail_marked,
                         .hbm = d->hbm,
                         .sojourn = (uint32_t)(t - d->enq_cycle)};
  pt->fifo_count++;
  m->fifo_ports |= 1ull << p;
}

static void dequeue_slot(xtm_t *m, uint64_t t, xtm_out_t *out) {
  if (m->flush_n != 0) {
    flush_one(m, out);
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

static void enq_drop(xtm_t *m, uint32_t v, const xtm_enq_in_t *e, xtm_reason_t r,
                     xtm_out_t *out) {
  static const xtm_vcnt_t kCnt[] = {
      [kXtmReasonTail] = kXtmVcntDropTail,      [kXtmReasonPool] = kXtmVcntDropPool,
      [kXtmReasonProfile] = kXtmVcntDropProfile, [kXtmReasonHeadroom] = kXtmVcntDropHdrm,
      [kXtmReasonBufFull] = kXtmVcntDropBuf,     [kXtmReasonQDisabled] = kXtmVcntDropQdis,
      [kXtmReasonWd] = kXtmVcntDropWd};
  xtm_voq_t *q = &m->voq[v];
  q->cnt[kCnt[r]]++;
  q->cnt[kXtmVcntDropBytes] += e->len;
  out->enq_res.voq = (uint16_t)v;
  out->enq_res.reason = (uint8_t)r;
}

static void enqueue(xtm_t *m, const xtm_enq_in_t *in_e, uint64_t t, xtm_out_t *out) {
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
  xtm_reason_t err = kXtmReasonAccept;
  uint32_t tc = m->dscp_tc[e.dscp];
  uint32_t queue = tc < 8 ? m->tc_queue[tc] : 0;
  if (t < m->num_voqs) {
    err = kXtmReasonNotReady;
  } else if (e.len == 0) {
    err = kXtmReasonLenZero;
  } else if (e.len > m->max_frame) {
    err = kXtmReasonLenMax;
  } else if (e.in_port >= m->prm.num_ports || e.eg_port >= m->prm.num_ports) {
    err = kXtmReasonBadPort;
  } else if (tc >= m->prm.num_tcs || queue >= m->prm.num_tcs) {
    err = kXtmReasonBadTc;
  }
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
  // admission (spec 4.4)
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
    // profile at enqueue (spec 6.2)
    bool ecn_en = XTM_F(q->cfg, Q_CFG, ECN_EN) != 0;
    bool ect = e.ecn == 1 || e.ecn == 2;
    if (ecn_en && ect) {
      if (XTM_F(q->cfg, Q_CFG, MARK_POINT) == XTM_Q_CFG_MARK_POINT_VALUE_TAIL &&
          xtm_profile_hit(m, XTM_F(q->cfg, Q_CFG, PROFILE), q->occ_cells, q->limit)) {
        marked = true;
      }
    } else if (!(ecn_en && e.ecn == 3)) {
      bool drop_eligible = XTM_F(q->cfg, Q_CFG, NO_LOSS) == 0 &&
                           !(ecn_en && XTM_F(q->cfg, Q_CFG, NONECT_TAIL_ONLY) != 0);
      if (drop_eligible &&
          xtm_profile_hit(m, XTM_F(q->cfg, Q_CFG, PROFILE), q->occ_cells, q->limit)) {
        enq_drop(m, v, &e, kXtmReasonProfile, out);
        return;
      }
    }
  }
  // eviction (spec 5.2)
  if (!q->hbm_mode && q->occ_cells >= m->evict_cells && !xtm_voq_ocb_only(m, q)) {
    q->hbm_mode = true;
    q->cnt[kXtmVcntHbmEvict]++;
  }
  // placement (spec 5.3)
  bool hbm = false;
  if (m->desc_free == 0) {
    enq_drop(m, v, &e, kXtmReasonBufFull, out);
    return;
  }
  if (q->hbm_mode &&
      xtm_tb_at(&m->hbm_wr, (int64_t)t, m->hbm_wr_rate, m->hbm_wr_burst) >= 0 &&
      (uint64_t)m->hbm_used + cells <= m->prm.hbm_cells) {
    hbm = true;
    xtm_tb_sync(&m->hbm_wr, (int64_t)t, m->hbm_wr_rate, m->hbm_wr_burst);
    m->hbm_wr.tok -= (int64_t)cells << 16;
  } else if ((uint64_t)m->ocb_used + cells > m->prm.ocb_cells) {
    enq_drop(m, v, &e, kXtmReasonBufFull, out);
    return;
  }
  // accept
  uint32_t di = m->free_head;
  xtm_desc_t *d = &m->desc[di];
  m->free_head = d->next;
  m->desc_free--;
  if (m->free_head != XTM_NIL) {
    XTM_PREFETCH(&m->desc[m->free_head]);  // the next enqueue's descriptor
  }
  *d = (xtm_desc_t){.next = XTM_NIL,
                    .pkt_id = e.pkt_id,
                    .enq_cycle = t,
                    .len = e.len,
                    .cells = (uint16_t)cells,
                    .in_port = e.in_port,
                    .dscp = e.dscp,
                    .ecn = marked ? 3 : e.ecn,
                    .pg = (uint8_t)pg,
                    .hbm = hbm,
                    .tail_marked = marked};
  if (q->tail == XTM_NIL) {
    q->head = di;
  } else {
    m->desc[q->tail].next = di;
  }
  q->tail = di;
  if (q->occ_pkts == 0) {
    m->port[e.eg_port].nonempty |= (uint8_t)(1u << queue);
    m->busy_ports |= 1ull << e.eg_port;
  }
  q->occ_pkts++;
  q->occ_cells += cells;
  m->pool_used += cells;
  g->pg_cells += cells;
  if (hdrm) {
    g->hdrm_used += cells;
    if (g->hdrm_used > g->hdrm_wm) {
      g->hdrm_wm = g->hdrm_used;
    }
  }
  if (hbm) {
    q->hbm_cells += cells;
    m->hbm_used += cells;
  } else {
    m->ocb_used += cells;
  }
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
  q->cnt[kXtmVcntEnqBytes] += e.len;
  if (marked) {
    q->cnt[kXtmVcntMarkTail]++;
  }
  touch_pg(m, gi);
  xtm_update_flush(m, v);
  out->enq_res.marked = marked;
  out->enq_res.hdrm = hdrm;
  out->enq_res.hbm = hbm;
}

// ------------------------------------------------------------------ step 7: PFC generation

static void pg_evaluate(xtm_t *m, uint32_t gi) {
  xtm_pg_t *g = &m->pg[gi];
  uint32_t port = gi / XTM_NUM_PRIOS;
  uint32_t prio = gi % XTM_NUM_PRIOS;
  bool en = XTM_F(g->cfg, G_CFG, PFC_EN) != 0;
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
    g->xoff = true;
    m->set_mask[port] |= (uint8_t)(1u << prio);
    m->port[port].xoff_mask |= (uint8_t)(1u << prio);
    m->pfc_dirty |= 1ull << port;
    m->xoff_ports |= 1ull << port;
  } else if (g->xoff && (!en || g->pg_cells <= xon_t)) {
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

static void pfc_generate(xtm_t *m, uint64_t t, xtm_out_t *out) {
  uint32_t P = m->prm.num_ports;
  // ports whose frame state may change: those of the touched PGs, or all when a CSR write
  // asked for an evaluation or a refresh is due
  // each PG is evaluated at most once per cycle (spec 7.1)
  for (uint32_t k = 0; k < m->n_touched; k++) {
    xtm_pg_t *g = &m->pg[m->touched_pg[k]];
    if (g->eval_next) {
      g->eval_next = false;
      m->pg_eval_pending--;
    }
    pg_evaluate(m, m->touched_pg[k]);
  }
  if (m->pg_eval_pending != 0) {
    for (uint32_t gi = 0; gi < P * XTM_NUM_PRIOS && m->pg_eval_pending != 0; gi++) {
      if (m->pg[gi].eval_next) {
        m->pg[gi].eval_next = false;
        m->pg_eval_pending--;
        pg_evaluate(m, gi);
      }
    }
  }
  // only ports with a PG change this cycle or in XOFF (refresh) can send (ascending)
  for (uint64_t pm = m->pfc_dirty | m->xoff_ports; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    xtm_port_t *pt = &m->port[p];
    uint8_t set = m->set_mask[p], rel = m->rel_mask[p];
    if (set != 0 || rel != 0 || (pt->xoff_mask != 0 && t >= pt->refresh_at)) {
      pfc_send(m, p, rel, t, out);
    }
    m->set_mask[p] = m->rel_mask[p] = 0;
  }
  m->pfc_dirty = 0;
}

// ------------------------------------------------------------------ next activity

// Earliest cycle > t at which an idle cycle could change state or output (spec 13).
static uint64_t compute_next_active(xtm_t *m, uint64_t t) {
  uint64_t t1 = t + 1;
  if (m->flush_n != 0) {
    return t1;
  }
  if (m->pg_eval_pending != 0) {
    return t1;
  }
  uint64_t best = m->wd_next_poll;
  uint32_t T = m->prm.num_tcs;
  uint32_t depth = m->prm.fifo_depth;
  // a port with no XOFF, an empty FIFO and empty VOQs adds nothing (ascending order kept)
  for (uint64_t pm = m->xoff_ports | m->fifo_ports | m->busy_ports; pm != 0; pm &= pm - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(pm);
    xtm_port_t *pt = &m->port[p];
    if (pt->xoff_mask != 0 && pt->refresh_at < best) {
      best = pt->refresh_at < t1 ? t1 : pt->refresh_at;
    }
    if (pt->fifo_count > 0 && ((m->tx_ready >> p) & 1u)) {
      uint64_t r = m->fifo[p * depth + pt->fifo_head].ready;
      r = r < t1 ? t1 : r;
      if (r < best) {
        best = r;
      }
    }
    if (pt->nonempty == 0 || pt->fifo_count >= depth) {
      continue;
    }
    uint64_t qbest = XTM_NEVER;
    uint8_t cand = pt->nonempty;
    while (cand != 0) {
      uint32_t qi = (uint32_t)__builtin_ctz(cand);
      cand &= (uint8_t)(cand - 1);
      xtm_voq_t *q = &m->voq[p * T + qi];
      uint64_t tq = t1;
      if (XTM_F(q->cfg, Q_CFG, PFC_RX_EN) != 0 && !voq_stalled_fwd(m, q)) {
        const xtm_pg_t *g = &m->pg[p * XTM_NUM_PRIOS + XTM_F(q->cfg, Q_CFG, PFC_PRIO)];
        if (g->pause_end > tq) {
          tq = g->pause_end;
        }
      }
      if (XTM_F(q->cfg, Q_CFG, SHAPER_EN) != 0) {
        uint64_t ok = xtm_tb_ok_time(&q->shaper, t1, q->shaper_rate, q->shaper_burst);
        if (ok > tq) {
          tq = ok;
        }
      }
      const xtm_desc_t *hd = &m->desc[q->head];
      if (hd->next != XTM_NIL) {
        XTM_PREFETCH(&m->desc[hd->next]);  // the next head, read when this one leaves
      }
      if (hd->hbm) {
        uint64_t ok = xtm_tb_ok_time(&m->hbm_rd, t1, m->hbm_rd_rate, m->hbm_rd_burst);
        if (ok > tq) {
          tq = ok;
        }
      }
      if (tq < qbest) {
        qbest = tq;
      }
    }
    if (qbest != XTM_NEVER && XTM_F(pt->shaper_cfg, P_SHAPER_CFG, EN) != 0) {
      uint64_t ok = xtm_tb_ok_time(&pt->shaper, t1, pt->shaper_rate, pt->shaper_burst);
      if (ok > qbest) {
        qbest = ok;
      }
    }
    if (qbest < best) {
      best = qbest;
    }
    if (best == t1) {
      return t1;
    }
  }
  return best < t1 ? t1 : best;
}

uint64_t xtm_next_event(const xtm_t *m) { return m->next_active > m->t ? m->next_active : m->t; }

// ------------------------------------------------------------------ the cycle

static void full_cycle(xtm_t *m, const xtm_in_t *in, xtm_out_t *out) {
  uint64_t t = m->t;
  out->cycle = t;
  out->enq_res.valid = false;
  out->flush.valid = false;
  out->deq_valid = 0;
  out->pfc_tx_valid = 0;
  out->csr_rsp.valid = false;
  m->n_touched = 0;
  if (in != NULL) {
    m->tx_ready = in->tx_ready;
  }
  // 1. CSR read sample
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
  // 3. watchdog poll
  if (t == m->wd_next_poll) {
    watchdog_poll(m, t);
  }
  // 4. egress output
  egress_output(m, t, out);
  // 5. dequeue slot
  dequeue_slot(m, t, out);
  // 6. enqueue
  if (in != NULL && in->enq.valid) {
    enqueue(m, &in->enq, t, out);
  }
  // 7. PFC generation
  pfc_generate(m, t, out);
  // 8. end of cycle: CSR effects
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
  m->next_active = compute_next_active(m, t);
}

static inline bool has_input(const xtm_t *m, const xtm_in_t *in) {
  return in != NULL && (in->enq.valid || in->pfc_rx_valid != 0 || in->csr.valid ||
                        in->tx_ready != m->tx_ready);
}

void xtm_set_eager(xtm_t *m, bool eager) { m->eager = eager; }

void xtm_step(xtm_t *m, const xtm_in_t *in, xtm_out_t *out) {
  if (!m->eager && !has_input(m, in) && m->t < m->next_active) {
    out->cycle = m->t;
    out->enq_res.valid = false;
    out->flush.valid = false;
    out->deq_valid = 0;
    out->pfc_tx_valid = 0;
    out->csr_rsp.valid = false;
    m->t++;
    return;
  }
  full_cycle(m, in, out);
}

bool xtm_advance_to(xtm_t *m, uint64_t target, xtm_out_t *out) {
  while (m->t < target) {
    if (m->next_active > m->t) {
      m->t = m->next_active < target ? m->next_active : target;
      continue;
    }
    full_cycle(m, NULL, out);
    if (xtm_out_any(out)) {
      return true;
    }
  }
  out->cycle = target;
  out->enq_res.valid = false;
  out->flush.valid = false;
  out->deq_valid = 0;
  out->pfc_tx_valid = 0;
  out->csr_rsp.valid = false;
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
  for (uint32_t i = 0; i < m->prm.num_ports * XTM_NUM_PRIOS; i++) {
    xtm_pg_t *g = &m->pg[i];
    memset(g->cnt, 0, sizeof(g->cnt));
    g->pc_from = t_next;
    g->wm = g->pg_cells;
    g->hdrm_wm = g->hdrm_used;
  }
  memset(m->ecnt, 0, sizeof(m->ecnt));
  m->pool_wm = m->pool_used;
}
