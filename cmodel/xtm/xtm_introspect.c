// SPDX-License-Identifier: Apache-2.0
//
// libxtm introspection and invariant checks (docs/spec.md section 12). Read-only.

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmodel/xtm/xtm_internal.h"

void xtm_voq_state(const xtm_t *m, uint32_t v, xtm_voq_state_t *s) {
  const xtm_voq_t *q = &m->voq[v];
  *s = (xtm_voq_state_t){.occ_cells = q->occ_cells,
                         .occ_pkts = q->occ_pkts,
                         .hbm_cells = q->hbm_cells,
                         .hbm_mode = q->hbm_mode,
                         .ocb_only = xtm_voq_ocb_only(m, q),
                         .wd_stalled = q->wd_state == kXtmWdStalled,
                         .flushing = (m->flush_mask[v >> 6] >> (v & 63)) & 1u,
                         .deficit = q->deficit,
                         .head_pkt_id = q->head != XTM_NIL ? m->desc[q->head].pkt_id : 0,
                         .shaper_conform = xtm_qs_conform(m, v, m->t),
                         .wd_storm = q->wd_storm,
                         .wd_clean = q->wd_clean};
}

uint32_t xtm_voq_occ_cells(const xtm_t *m, uint32_t v) { return m->voq[v].occ_cells; }

uint32_t xtm_fifo_pkts(const xtm_t *m, uint32_t port, uint32_t *ids, uint32_t max) {
  if (port >= m->prm.num_ports) {
    return 0;
  }
  const xtm_port_t *pt = &m->port[port];
  uint32_t depth = m->prm.fifo_depth;
  uint32_t n = pt->fifo_count < max ? pt->fifo_count : max;
  for (uint32_t k = 0, i = pt->fifo_head; k < n; k++, i = i + 1 == depth ? 0 : i + 1) {
    ids[k] = m->fifo[port * depth + i].d.pkt_id;
  }
  return n;
}

void xtm_pg_state(const xtm_t *m, uint32_t port, uint32_t prio, xtm_pg_state_t *s) {
  const xtm_pg_t *g = &m->pg[port * XTM_NUM_PRIOS + prio];
  *s = (xtm_pg_state_t){.pg_cells = g->pg_cells,
                        .hdrm_used = g->hdrm_used,
                        .xoff = g->xoff,
                        .pause_remain = g->pause_end > m->t ? g->pause_end - m->t : 0};
}

void xtm_pol_state(const xtm_t *m, uint32_t k, xtm_pol_state_t *s) {
  *s = (xtm_pol_state_t){.tok = m->pol[k].tok, .u = m->pol[k].u};
}

void xtm_global_state(const xtm_t *m, xtm_global_state_t *s) {
  *s = (xtm_global_state_t){.pool_used = m->pool_used,
                            .ocb_used = m->ocb_used,
                            .hbm_used = m->hbm_used,
                            .desc_free = m->desc_free,
                            .lfsr = m->lfsr,
                            .cycle = m->t,
                            .lfsr_head = m->lfsr_head};
}

// ------------------------------------------------------------------ bulk snapshot

static inline void snap_set(uint64_t *set, uint32_t i, bool b) {
  uint64_t bit = 1ull << (i & 63);
  set[i >> 6] = b ? set[i >> 6] | bit : set[i >> 6] & ~bit;
}

// every field of VOQ v but the shaper bit, as xtm_voq_state()
static void snap_voq(const xtm_t *m, xtm_snap_t *s, uint32_t v) {
  const xtm_voq_t *q = &m->voq[v];
  s->occ_cells[v] = q->occ_cells;
  s->occ_pkts[v] = q->occ_pkts;
  s->hbm_cells[v] = q->hbm_cells;
  s->deficit[v] = q->deficit;
  s->head_pkt_id[v] = q->head != XTM_NIL ? m->desc[q->head].pkt_id : 0;
  s->wd_storm[v] = q->wd_storm;
  s->wd_clean[v] = q->wd_clean;
  snap_set(s->hbm_mode, v, q->hbm_mode);
  snap_set(s->ocb_only, v, xtm_voq_ocb_only(m, q));
  snap_set(s->wd_stalled, v, q->wd_state == kXtmWdStalled);
  snap_set(s->flushing, v, (m->flush_mask[v >> 6] >> (v & 63)) & 1u);
  s->voq_changed[v >> 6] |= 1ull << (v & 63);
}

// the shaper bit of VOQ v at cycle t and the next cycle it may change other than by a scan
static void snap_conf(const xtm_t *m, xtm_snap_t *s, uint32_t v, uint64_t t) {
  bool c = xtm_qs_conform(m, v, t);
  if (c != xtm_snap_bit(s->shaper_conform, v)) {
    snap_set(s->shaper_conform, v, c);
    s->voq_changed[v >> 6] |= 1ull << (v & 63);
  }
  uint64_t due = xtm_qs_next_write(m, v, t);
  s->priv.conf_due[v] = due;
  snap_set(s->priv.conf_due_set, v, due != XTM_NEVER);
}

static void snap_pg(const xtm_t *m, xtm_snap_t *s, uint32_t gi, uint64_t t) {
  const xtm_pg_t *g = &m->pg[gi];
  s->pg_cells[gi] = g->pg_cells;
  s->hdrm_used[gi] = g->hdrm_used;
  snap_set(s->xoff, gi, g->xoff);
  uint64_t rem = g->pause_end > t ? g->pause_end - t : 0;
  s->pause_remain[gi] = rem;
  snap_set(s->priv.paused, gi, rem != 0);
  s->pg_changed[gi >> 6] |= 1ull << (gi & 63);
}

static void snap_pol(const xtm_t *m, xtm_snap_t *s, uint32_t k) {
  s->pol_tok[k] = m->pol[k].tok;
  s->pol_u[k] = m->pol[k].u;
  s->pol_changed[k >> 6] |= 1ull << (k & 63);
}

void xtm_snap_init(xtm_snap_t *s) { memset(s, 0, sizeof(*s)); }

// Between two calls a field changes only where the model wrote (its change record) or with
// time (never a policer's: its bucket is lazy, spec 4.7): pause_remain of a PG in pause, and the
// shaper bit (spec 9.5) at the scan visit of VOQ (c - 2) mod NumVoqs taking effect in cycle c, or
// at the next charge or rate-write effect (xtm_qs_next_write). Those are the entries rewritten.
void xtm_state_snapshot(xtm_t *m, xtm_snap_t *s) {
  uint64_t t = m->t;
  uint32_t nv = m->num_voqs, ng = m->prm.num_ports * XTM_NUM_PRIOS;
  uint32_t wv = (nv + 63) / 64, wg = (ng + 63) / 64;
  bool full = !s->priv.valid || s->priv.model != m || m->snap_owner != (const void *)s ||
              m->snap_all || t < s->priv.t;
  if (full) {
    memset(s->voq_changed, 0, sizeof(s->voq_changed));
    memset(s->pg_changed, 0, sizeof(s->pg_changed));
    memset(s->pol_changed, 0, sizeof(s->pol_changed));
    for (uint32_t k = 0; k < ng; k++) {
      snap_pol(m, s, k);  // as many policers as PGs
    }
    for (uint32_t v = 0; v < nv; v++) {
      snap_voq(m, s, v);
      snap_conf(m, s, v, t);
    }
    for (uint32_t g = 0; g < ng; g++) {
      snap_pg(m, s, g, t);
    }
  } else {
    // the words past wv / wg stay 0: nothing beyond the model's VOQs and PGs is ever set
    for (uint32_t w = 0; w < wv; w++) {
      s->voq_changed[w] = 0;
    }
    for (uint32_t w = 0; w < wg; w++) {
      s->pg_changed[w] = 0;
      s->pol_changed[w] = 0;
      for (uint64_t b = m->snap_pol[w]; b != 0; b &= b - 1) {
        snap_pol(m, s, w * 64 + (uint32_t)__builtin_ctzll(b));
      }
    }
    uint64_t conf[XTM_SNAP_WORDS];
    for (uint32_t w = 0; w < wv; w++) {
      for (uint64_t b = m->snap_voq[w]; b != 0; b &= b - 1) {
        snap_voq(m, s, w * 64 + (uint32_t)__builtin_ctzll(b));
      }
      conf[w] = m->snap_qs[w];
      for (uint64_t b = s->priv.conf_due_set[w]; b != 0; b &= b - 1) {
        uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(b);
        if (s->priv.conf_due[v] <= t) {
          conf[w] |= 1ull << (v & 63);
        }
      }
    }
    if (t - s->priv.t >= nv) {
      for (uint32_t w = 0; w < wv; w++) {
        conf[w] = ~0ull;
      }
    } else {
      for (uint64_t c = s->priv.t + 1; c <= t; c++) {
        if (c >= 2) {
          uint32_t v = (uint32_t)((c - 2) % nv);
          conf[v >> 6] |= 1ull << (v & 63);
        }
      }
    }
    for (uint32_t w = 0; w < wv; w++) {
      for (uint64_t b = conf[w]; b != 0; b &= b - 1) {
        uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(b);
        if (v < nv) {
          snap_conf(m, s, v, t);
        }
      }
    }
    for (uint32_t w = 0; w < wg; w++) {
      for (uint64_t b = m->snap_pg[w] | s->priv.paused[w]; b != 0; b &= b - 1) {
        snap_pg(m, s, w * 64 + (uint32_t)__builtin_ctzll(b), t);
      }
    }
  }
  xtm_global_state(m, &s->global);
  s->full = full;
  for (uint32_t w = 0; w < wv; w++) {
    m->snap_voq[w] = m->snap_qs[w] = 0;
  }
  for (uint32_t w = 0; w < wg; w++) {
    m->snap_pg[w] = m->snap_pol[w] = 0;
  }
  m->snap_all = false;
  m->snap_owner = s;
  s->priv.model = m;
  s->priv.t = t;
  s->priv.valid = true;
}

uint64_t xtm_voq_counter(const xtm_t *m, uint32_t v, xtm_vcnt_t c) { return m->voq[v].cnt[c]; }
uint64_t xtm_pg_counter(const xtm_t *m, uint32_t port, uint32_t prio, xtm_gcnt_t c) {
  const xtm_pg_t *g = &m->pg[port * XTM_NUM_PRIOS + prio];
  return c == kXtmGcntPausedCycles ? xtm_paused_cycles(g, m->t) : g->cnt[c];
}
uint64_t xtm_port_counter(const xtm_t *m, uint32_t port, xtm_pcnt_t c) {
  return m->port[port].cnt[c];
}
uint64_t xtm_global_counter(const xtm_t *m, xtm_ecnt_t c) { return m->ecnt[c]; }
uint64_t xtm_pol_counter(const xtm_t *m, uint32_t k, xtm_polcnt_t c) { return m->pol[k].cnt[c]; }

bool xtm_check_invariants(const xtm_t *m, char *why, size_t n) {
  uint64_t sum_cells = 0, sum_pkts = 0, sum_hbm = 0, arr_total = 0;
  for (uint32_t v = 0; v < m->num_voqs; v++) {
    const xtm_voq_t *q = &m->voq[v];
    const uint64_t *c = q->cnt;
    uint64_t drops = c[kXtmVcntDropTail] + c[kXtmVcntDropPool] + c[kXtmVcntDropProfile] +
                     c[kXtmVcntDropHdrm] + c[kXtmVcntDropBuf] + c[kXtmVcntDropQdis] +
                     c[kXtmVcntDropWd] + c[kXtmVcntDropFlush] + c[kXtmVcntDropPol];
    if (c[kXtmVcntArr] + q->clr_resident != c[kXtmVcntDeqPkts] + drops + q->occ_pkts) {
      if (why != NULL) {
        snprintf(why, n,
                 "voq %u: arrivals %" PRIu64 " + resident at clear %u != dequeued %" PRIu64
                 " + dropped %" PRIu64 " + resident %u",
                 v, c[kXtmVcntArr], q->clr_resident, c[kXtmVcntDeqPkts], drops, q->occ_pkts);
      }
      return false;
    }
    // walk the list: packets and cells must match the counters
    uint32_t pk = 0, ce = 0, hb = 0;
    for (uint32_t d = q->head; d != XTM_NIL; d = m->desc[d].next) {
      pk++;
      ce += m->desc[d].cells;
      hb += m->desc[d].hbm ? m->desc[d].cells : 0;
      if (pk > m->prm.num_desc) {
        break;
      }
    }
    if (pk != q->occ_pkts || ce != q->occ_cells || hb != q->hbm_cells) {
      if (why != NULL) {
        snprintf(why, n, "voq %u: list holds %u pkts %u cells (%u hbm), counters %u/%u/%u", v, pk,
                 ce, hb, q->occ_pkts, q->occ_cells, q->hbm_cells);
      }
      return false;
    }
    arr_total += c[kXtmVcntArr];
    sum_cells += q->occ_cells;
    sum_pkts += q->occ_pkts;
    sum_hbm += q->hbm_cells;
  }
  const uint64_t *e = m->ecnt;
  uint64_t errs = e[kXtmEcntLenZero] + e[kXtmEcntLenMax] + e[kXtmEcntBadPort] + e[kXtmEcntBadTc] +
                  e[kXtmEcntNotReady];
  uint64_t sum_pg = 0;
  for (uint32_t i = 0; i < m->prm.num_ports * XTM_NUM_PRIOS; i++) {
    sum_pg += m->pg[i].pg_cells;
    if (m->pg[i].hdrm_used > m->pg[i].pg_cells) {
      if (why != NULL) {
        snprintf(why, n, "pg %u: hdrm_used %u > pg_cells %u", i, m->pg[i].hdrm_used,
                 m->pg[i].pg_cells);
      }
      return false;
    }
  }
  const char *bad = NULL;
  if (e[kXtmEcntArr] != arr_total + errs) {
    bad = "ARR_PKTS != sum of VOQ arrivals + error drops";
  } else if (sum_cells != m->pool_used) {
    bad = "pool_used != sum of VOQ occupancy";
  } else if (m->ocb_used + m->hbm_used != m->pool_used) {
    bad = "ocb_used + hbm_used != pool_used";
  } else if (sum_hbm != m->hbm_used) {
    bad = "hbm_used != sum of VOQ HBM cells";
  } else if (sum_pg != m->pool_used) {
    bad = "sum of PG cells != pool_used";
  } else if (m->desc_free + sum_pkts != m->prm.num_desc) {
    bad = "desc_free + resident packets != NumDesc";
  } else if (m->desc_fresh > m->prm.num_desc || m->prm.num_desc - m->desc_fresh > m->desc_free) {
    bad = "descriptors never allocated since the reset outnumber the free ones";
  }
  // the step path's summaries of per-port and per-VOQ state must equal what they summarise
  uint64_t busy = 0, fifo = 0, xoff = 0, full = 0, rmin = XTM_NEVER, due = XTM_NEVER;
  for (uint32_t p = 0; p < m->prm.num_ports; p++) {
    busy |= (uint64_t)(m->port[p].nonempty != 0) << p;
    fifo |= (uint64_t)(m->port[p].fifo_count != 0) << p;
    xoff |= (uint64_t)(m->port[p].xoff_mask != 0) << p;
    full |= (uint64_t)(m->port[p].fifo_count >= m->prm.fifo_depth) << p;
    if (m->port[p].xoff_mask != 0 && m->port[p].refresh_at < rmin) {
      rmin = m->port[p].refresh_at;
    }
    const xtm_fifo_ent_t *h = &m->fifo[p * m->prm.fifo_depth + m->port[p].fifo_head];
    if (m->port[p].fifo_count != 0 && ((m->tx_ready >> p) & 1u) && h->ready < due) {
      due = h->ready;
    }
  }
  uint32_t nflush = 0;
  for (uint32_t w = 0; w < XTM_VOQ_WORDS; w++) {
    nflush += (uint32_t)__builtin_popcountll(m->flush_mask[w]);
  }
  // spec 4.7: a policer's tok is 40 bits (at most the largest burst ever in force)
  for (uint32_t k = 0; k < m->prm.num_ports * XTM_POLS_PER_PORT && bad == NULL; k++) {
    if (m->pol[k].tok > ((uint64_t)XTM_POL_BURST_BYTES_MASK << 16) || m->pol[k].u > m->t) {
      bad = "a policer's tok exceeds 40 bits or its u lies in the future";
    }
  }
  if (bad == NULL && (busy != m->busy_ports || fifo != m->fifo_ports || xoff != m->xoff_ports ||
                      full != m->full_fifo_ports || rmin != m->refresh_min || due != m->fifo_due)) {
    bad = "port masks, refresh_min or fifo_due differ from the ports' state";
  } else if (bad == NULL && nflush != m->flush_n) {
    bad = "flush_n != VOQs marked for flushing";
  }
  if (bad != NULL) {
    if (why != NULL) {
      snprintf(why, n, "%s (pool %u ocb %u hbm %u desc_free %u resident %" PRIu64 ")", bad,
               m->pool_used, m->ocb_used, m->hbm_used, m->desc_free, sum_pkts);
    }
    return false;
  }
  return true;
}

bool xtm_inject_fault(xtm_t *m, xtm_fault_t f) {
  m->snap_all = true;  // the fault writes state behind the change record's back
  switch (f) {
    case kXtmFaultLeakPoolCell:
      m->pool_used++;
      return true;
    case kXtmFaultDropVoqCount:
      for (uint32_t v = 0; v < m->num_voqs; v++) {
        if (m->voq[v].occ_pkts > 0) {
          m->voq[v].occ_pkts--;
          return true;
        }
      }
      return false;
    case kXtmFaultSkipArrCount:
      if (m->ecnt[kXtmEcntArr] == 0) {
        return false;
      }
      m->ecnt[kXtmEcntArr]--;
      return true;
    case kXtmFaultFlipLfsr:
      m->lfsr ^= 1u;
      return true;
    case kXtmFaultFlipHeadLfsr:
      m->lfsr_head ^= 1u;
      return true;
    case kXtmFaultFlipConform: {
      xtm_qshaper_t *s = &m->voq[0].shaper;
      bool c = xtm_qs_conform(m, 0, m->t);
      s->cf_val = !c;
      s->cf_t = m->t;
      s->pend_t[0] = s->pend_t[1] = XTM_NEVER;
      if (s->ch_t != XTM_NEVER && s->ch_t + 2 <= m->t) {
        s->ch_t = XTM_NEVER;
      }
      if (s->scan_from < m->t) {
        s->scan_from = m->t;  // the next visits still apply
      }
      m->next_active = m->next_full = m->next_nonfifo = m->t;
      return true;
    }
    case kXtmFaultLoseBusyPort:
      if (m->busy_ports == 0) {
        return false;
      }
      m->busy_ports &= m->busy_ports - 1;
      return true;
    default:
      return false;
  }
}
