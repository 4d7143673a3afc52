// SPDX-License-Identifier: Apache-2.0
//
// Suite "advance": the three speeds of the model (eager xtm_step, xtm_step with its fast
// path, xtm_advance_to) agree exactly (docs/spec.md section 13) and
// the invariants of section 12 hold every cycle, on random traffic over random legal
// configurations with reconfiguration, PFC frames, MAC back-pressure, HBM eviction and
// the watchdog. Each case prints its seed; XTM_SEED=<n> reruns one seed.
// Negative tests show both checkers fail on an injected fault.

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/xtm_testlib.h"

// ------------------------------------------------------------------ random stimulus

typedef struct gen {
  uint64_t rng;
  uint64_t cycle;  // cycle of the next input
  uint32_t ports, tcs;
  uint32_t n_left;
  uint64_t tx_ready;
  uint64_t pol_rng;  // the policer CSR accesses' own stream (the one above is pre-2.2.0's)
} gen_t;

static uint32_t rnd(gen_t *g, uint32_t n) { return (uint32_t)(tl_rand(&g->rng) % n); }

// Random legal configuration through the backdoor (same for both runs).
static void configure(xtm_t *m, uint64_t seed) {
  gen_t g = {.rng = seed ^ 0xC0FFEEull};
  const xtm_params_t *p = xtm_params(m);
  uint32_t nv = p->num_ports * p->num_tcs;
  for (uint32_t pr = 0; pr < 8; pr++) {
    uint32_t n = rnd(&g, 4);
    uint32_t fill[8], prob[8], f = 0, q = 0;
    for (uint32_t i = 0; i < n; i++) {
      f += 1 + rnd(&g, 20000);
      q += rnd(&g, 30000);
      fill[i] = f > 65536 ? 65536 : f;
      prob[i] = q > 65536 ? 65536 : q;
    }
    tl_profile(m, pr, rnd(&g, 2) != 0, n, fill, prob);
  }
  for (uint32_t v = 0; v < nv; v++) {
    uint32_t cfg = tl_qcfg(rnd(&g, 5) == 0, rnd(&g, 4) == 0, rnd(&g, 2) != 0, rnd(&g, 2) != 0,
                           rnd(&g, 3), rnd(&g, 8));
    cfg |= (rnd(&g, 2) ? 1u : 0u) << XTM_Q_CFG_PFC_RX_EN_OFFSET;
    cfg |= rnd(&g, 8) << XTM_Q_CFG_PFC_PRIO_OFFSET;
    cfg |= (rnd(&g, 2) ? 1u : 0u) << XTM_Q_CFG_WD_EN_OFFSET;
    cfg |= (rnd(&g, 4) == 0 ? 1u : 0u) << XTM_Q_CFG_SHAPER_EN_OFFSET;
    tl_voq_wr(m, v, XTM_Q_CFG_REG_OFFSET, cfg);
    tl_voq_wr(m, v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 8 + rnd(&g, 200));
    tl_voq_wr(m, v, XTM_Q_QUANTUM_REG_OFFSET, 64 + rnd(&g, 12000));
    tl_voq_wr(m, v, XTM_Q_LAT_THRESH_REG_OFFSET, rnd(&g, 3000));
    tl_voq_wr(m, v, XTM_Q_SHAPER_RATE_REG_OFFSET, rnd(&g, 0x40000));
    tl_voq_wr(m, v, XTM_Q_SHAPER_BURST_REG_OFFSET, rnd(&g, 20000));
    tl_voq_wr(m, v, XTM_Q_TARGET_RATE_REG_OFFSET, rnd(&g, 0x200000));
  }
  for (uint32_t pt = 0; pt < p->num_ports; pt++) {
    tl_port_wr(m, pt, XTM_P_SHAPER_CFG_REG_OFFSET, rnd(&g, 2) | rnd(&g, 64) << 8);
    tl_port_wr(m, pt, XTM_P_SHAPER_RATE_REG_OFFSET, 0x8000 + rnd(&g, 0x100000));
    tl_port_wr(m, pt, XTM_P_SHAPER_BURST_REG_OFFSET, rnd(&g, 30000));
    tl_port_wr(m, pt, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x4000 + rnd(&g, 0x7C000));
    tl_port_wr(m, pt, XTM_P_PFC_QUANTA_REG_OFFSET, 1 + rnd(&g, 2000));
    tl_port_wr(m, pt, XTM_P_PFC_REFRESH_REG_OFFSET, 1 + rnd(&g, 3000));
    for (uint32_t pr = 0; pr < 8; pr++) {
      tl_pg_wr(m, pt, pr, XTM_G_CFG_REG_OFFSET, rnd(&g, 4) | rnd(&g, 8) << 4);
      uint32_t xoff = rnd(&g, 300);
      tl_pg_wr(m, pt, pr, XTM_G_XOFF_CELLS_REG_OFFSET, xoff);
      tl_pg_wr(m, pt, pr, XTM_G_XON_CELLS_REG_OFFSET, rnd(&g, xoff + 1));
      tl_pg_wr(m, pt, pr, XTM_G_HDRM_CELLS_REG_OFFSET, rnd(&g, 100));
    }
  }
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 200 + rnd(&g, 2000));
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, rnd(&g, 60));
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, rnd(&g, 30));
  tl_wr(m, XTM_HBM_WR_RATE_REG_OFFSET, rnd(&g, 0x20000));
  tl_wr(m, XTM_HBM_WR_BURST_REG_OFFSET, rnd(&g, 100));
  tl_wr(m, XTM_HBM_RD_RATE_REG_OFFSET, 1 + rnd(&g, 0x20000));
  tl_wr(m, XTM_HBM_RD_BURST_REG_OFFSET, rnd(&g, 100));
  tl_wr(m, XTM_HBM_RD_LAT_REG_OFFSET, 5 + rnd(&g, 800));  // spec 9.4: at least 5
  tl_wr(m, XTM_OCB_RD_LAT_REG_OFFSET, 5 + rnd(&g, 10));
  tl_wr(m, XTM_OCB_ONLY_CYCLES_REG_OFFSET, rnd(&g, 2000));
  tl_wr(m, XTM_WD_CTRL_REG_OFFSET, rnd(&g, 4));
  tl_wr(m, XTM_WD_DETECT_POLLS_REG_OFFSET, 1 + rnd(&g, 3));
  tl_wr(m, XTM_WD_RESTORE_POLLS_REG_OFFSET, 1 + rnd(&g, 3));
  tl_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 64 + rnd(&g, 5000));
  tl_wr(m, XTM_TC_PG_MAP_REG_OFFSET, (uint32_t)tl_rand(&g.rng) & 0x77777777u);
  tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, (uint32_t)tl_rand(&g.rng) | 1u);
  tl_wr(m, XTM_LFSR_HEAD_SEED_REG_OFFSET, (uint32_t)tl_rand(&g.rng) | 1u);
  // ingress policers (spec 4.7), last so the draws above are those of before 2.2.0: port 0
  // and about a quarter of the others police (a random set of classes on the others) (so the other
  // checks still see traffic), every policer gets a rate and burst
  for (uint32_t pt = 0; pt < p->num_ports; pt++) {
    uint32_t map = rnd(&g, 4) == 0 || pt == 0 ? (uint32_t)tl_rand(&g.rng) : 0;
    map |= pt == 0 ? 0x88888888u : 0;  // port 0 polices every class (with random policers)
    tl_port_wr(m, pt, XTM_P_POL_MAP_REG_OFFSET, map);
    for (uint32_t j = 0; j < 8; j++) {
      tl_wr(m, XTM_POL_SEL_REG_OFFSET, pt * 8 + j);
      tl_wr(m, XTM_POL_RATE_REG_OFFSET, rnd(&g, 0x80000));
      tl_wr(m, XTM_POL_BURST_REG_OFFSET, rnd(&g, 20000));
    }
  }
}

// Next timed input: descriptors (some malformed), PFC frames, tx_ready changes, CSR
// reads and writes (reconfiguration under traffic). Returns false when done.
static bool next_input(gen_t *g, uint64_t *cycle, xtm_in_t *in) {
  if (g->n_left == 0) {
    return false;
  }
  g->n_left--;
  uint32_t gap = rnd(g, 10) == 0 ? rnd(g, 4000) : rnd(g, 40);
  g->cycle += 1 + gap;
  *cycle = g->cycle;
  memset(in, 0, sizeof(*in));
  uint32_t kind = rnd(g, 100);
  if (kind < 3) {
    g->tx_ready ^= 1ull << rnd(g, g->ports);
  }
  in->tx_ready = g->tx_ready;
  if (kind >= 3 && kind < 85) {
    in->enq =
        (xtm_enq_in_t){.valid = true,
                       .pkt_id = (uint32_t)tl_rand(&g->rng),
                       .in_port = (uint8_t)rnd(g, g->ports + (kind == 4)),
                       .eg_port = (uint8_t)rnd(g, g->ports),
                       .dscp = (uint8_t)rnd(g, 64),
                       .ecn = (uint8_t)rnd(g, 4),
                       .len = (uint16_t)(kind == 5 ? 0 : 1 + rnd(g, kind == 6 ? 16383 : 9216))};
  }
  if (kind >= 70 && kind < 80) {
    uint32_t p = rnd(g, g->ports);
    in->pfc_rx_valid = 1ull << p;
    in->pfc_rx[p].vec = (uint8_t)rnd(g, 256);
    for (int i = 0; i < 8; i++) {
      in->pfc_rx[p].quanta[i] = (uint16_t)(rnd(g, 3) == 0 ? 0 : rnd(g, 3000));
    }
  }
  if (kind >= 80) {
    static const uint16_t kW[] = {
        XTM_Q_LIMIT_CELLS_REG_OFFSET, XTM_Q_CFG_REG_OFFSET,          XTM_P_SHAPER_RATE_REG_OFFSET,
        XTM_G_XOFF_CELLS_REG_OFFSET,  XTM_POOL_CELLS_REG_OFFSET,     XTM_VOQ_SEL_REG_OFFSET,
        XTM_PG_SEL_REG_OFFSET,        XTM_PORT_SEL_REG_OFFSET,       XTM_Q_SHAPER_BURST_REG_OFFSET,
        XTM_WD_CTRL_REG_OFFSET,       XTM_Q_SHAPER_RATE_REG_OFFSET,  XTM_LFSR_HEAD_SEED_REG_OFFSET,
        XTM_CTRL_REG_OFFSET,          XTM_WD_POLL_CYCLES_REG_OFFSET, XTM_G_CFG_REG_OFFSET};
    static const uint16_t kR[] = {XTM_POOL_WM_REG_OFFSET,
                                  XTM_Q_WM_CELLS_REG_OFFSET,
                                  XTM_G_PAUSED_CYCLES_LO_REG_OFFSET,
                                  XTM_Q_DEQ_PKTS_LO_REG_OFFSET,
                                  XTM_CNT_HI_REG_OFFSET,
                                  XTM_LFSR_STATE_REG_OFFSET,
                                  0x0FF0,
                                  XTM_LFSR_HEAD_STATE_REG_OFFSET,
                                  XTM_Q_MARK_HEAD_LO_REG_OFFSET,
                                  XTM_Q_MARK_LAT_LO_REG_OFFSET,
                                  XTM_Q_STATUS_REG_OFFSET};
    bool wr = rnd(g, 2) != 0;
    uint32_t nv = g->ports * g->tcs;
    in->csr.valid = true;
    in->csr.write = wr;
    if (wr) {
      uint32_t k = rnd(g, sizeof(kW) / sizeof(kW[0]));
      in->csr.addr = kW[k];
      uint32_t data = (uint32_t)tl_rand(&g->rng);
      if (kW[k] == XTM_VOQ_SEL_REG_OFFSET) {
        data = rnd(g, nv + 1);  // sometimes illegal
      } else if (kW[k] == XTM_PG_SEL_REG_OFFSET) {
        data = rnd(g, g->ports * 8);
      } else if (kW[k] == XTM_PORT_SEL_REG_OFFSET) {
        data = rnd(g, g->ports);
      } else if (kW[k] == XTM_Q_SHAPER_RATE_REG_OFFSET) {
        data &= 0x3FFFF;
      } else if (kW[k] == XTM_CTRL_REG_OFFSET) {
        data = 1u << XTM_CTRL_CLR_CNT_BIT;
      } else if (kW[k] == XTM_WD_POLL_CYCLES_REG_OFFSET) {
        data = 64 + rnd(g, 3000);
      } else if (kW[k] == XTM_G_CFG_REG_OFFSET) {
        data &= 0xF3;
      } else if (kW[k] != XTM_Q_CFG_REG_OFFSET && kW[k] != XTM_WD_CTRL_REG_OFFSET &&
                 kW[k] != XTM_LFSR_HEAD_SEED_REG_OFFSET) {
        data &= 0x3FFF;
      }
      in->csr.wdata = data;
    } else {
      in->csr.addr = kR[rnd(g, sizeof(kR) / sizeof(kR[0]))];
    }
  }
  // policer registers under traffic (spec 4.7, 10.2), in a cycle without another access:
  // selects (sometimes illegal), rates, bursts, maps, and reads of POL_TOKENS and counters
  uint64_t *r2 = &g->pol_rng;
  if (!in->csr.valid && tl_rand(r2) % 25 == 0) {
    static const uint16_t kPw[] = {XTM_POL_SEL_REG_OFFSET, XTM_POL_RATE_REG_OFFSET,
                                   XTM_POL_BURST_REG_OFFSET, XTM_P_POL_MAP_REG_OFFSET};
    static const uint16_t kPr[] = {XTM_POL_TOKENS_REG_OFFSET, XTM_POL_PASS_PKTS_LO_REG_OFFSET,
                                   XTM_POL_DROP_BYTES_LO_REG_OFFSET, XTM_Q_DROP_POL_LO_REG_OFFSET};
    uint32_t k = (uint32_t)(tl_rand(r2) % 4);
    bool wr = tl_rand(r2) % 2 != 0;
    uint32_t data = (uint32_t)tl_rand(r2);
    if (wr && k == 0) {
      data %= g->ports * 8 + 1;  // sometimes illegal
    } else if (wr && k == 1) {
      data &= 0xFFFFF;
    } else if (wr && k == 2) {
      data &= 0x7FFF;
    } else if (wr && k == 3 && data % 4 != 0) {
      data = 0;  // most ports stay unpoliced, so the other checks still see traffic
    }
    in->csr =
        (xtm_csr_req_t){.valid = true, .write = wr, .addr = wr ? kPw[k] : kPr[k], .wdata = data};
  }
  return true;
}

// ------------------------------------------------------------------ traces

typedef struct trace {
  char *buf;
  size_t len, cap;
  uint64_t events;
} trace_t;

static void tr_add(trace_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void tr_add(trace_t *t, const char *fmt, ...) {
  if (t->cap - t->len < 512) {
    t->cap = t->cap * 2 + 65536;
    t->buf = realloc(t->buf, t->cap);
    ck_assert_ptr_nonnull(t->buf);
  }
  va_list ap;
  va_start(ap, fmt);
  t->len += (size_t)vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
}

// One line per output event, tab-separated (the co-sim trace format).
static void record(trace_t *t, const xtm_out_t *o) {
  if (!xtm_out_any(o)) {
    return;
  }
  t->events++;
  if (o->enq_res.valid) {
    tr_add(t, "%" PRIu64 "\tENQ\t%08x\t%u\t%u\t%d%d%d\n", o->cycle, o->enq_res.pkt_id,
           o->enq_res.voq, o->enq_res.reason, o->enq_res.marked, o->enq_res.hdrm, o->enq_res.hbm);
  }
  if (o->flush.valid) {
    tr_add(t, "%" PRIu64 "\tFLUSH\t%08x\t%u\n", o->cycle, o->flush.pkt_id, o->flush.voq);
  }
  for (uint32_t p = 0; p < 64; p++) {
    if ((o->deq_valid >> p) & 1u) {
      const xtm_deq_out_t *d = &o->deq[p];
      tr_add(t, "%" PRIu64 "\tDEQ\t%u\t%08x\t%u\t%u\t%u\t%u\t%u\t%d%d\t%u\n", o->cycle, p,
             d->pkt_id, d->voq, d->in_port, d->len, d->dscp, d->ecn, d->marked, d->hbm, d->sojourn);
    }
    if ((o->pfc_tx_valid >> p) & 1u) {
      const xtm_pfc_frame_t *f = &o->pfc_tx[p];
      tr_add(t, "%" PRIu64 "\tPFC\t%u\t%02x", o->cycle, p, f->vec);
      for (int i = 0; i < 8; i++) {
        tr_add(t, "\t%u", f->quanta[i]);
      }
      tr_add(t, "\n");
    }
  }
  if (o->csr_rsp.valid) {
    tr_add(t, "%" PRIu64 "\tCSR\t%08x\t%d\n", o->cycle, o->csr_rsp.rdata, o->csr_rsp.err);
  }
}

// The spec 2.0 state both speeds must agree on (spec 12 and the introspection the
// co-simulation compares): LFSRs, per VOQ the shaper conformance bit, the watchdog
// counters and state, and the marking counters (their 3-cycle lag included).
static void record_state(trace_t *t, xtm_t *m) {
  xtm_global_state_t gs;
  xtm_global_state(m, &gs);
  const xtm_params_t *p = xtm_params(m);
  uint64_t h = 0;
  for (uint32_t v = 0; v < p->num_ports * p->num_tcs; v++) {
    xtm_voq_state_t s;
    xtm_voq_state(m, v, &s);
    h = h * 1000003u + ((uint64_t)s.shaper_conform | (uint64_t)s.wd_storm << 1 |
                        (uint64_t)s.wd_clean << 9 | (uint64_t)s.wd_stalled << 17 |
                        (uint64_t)s.hbm_mode << 18 | (uint64_t)s.occ_cells << 20);
    h = h * 1000003u + xtm_voq_counter(m, v, kXtmVcntMarkHead) * 7 +
        xtm_voq_counter(m, v, kXtmVcntMarkLat) * 13 + xtm_voq_counter(m, v, kXtmVcntWdStall);
  }
  for (uint32_t k = 0; k < p->num_ports * 8; k++) {  // the policers (spec 4.7)
    xtm_pol_state_t s;
    xtm_pol_state(m, k, &s);
    h = h * 1000003u + s.tok * 31 + s.u + xtm_pol_counter(m, k, kXtmPolcntPassPkts) * 17 +
        xtm_pol_counter(m, k, kXtmPolcntDropBytes);
  }
  tr_add(t, "%" PRIu64 "\tSTATE\t%08x\t%08x\t%u\t%016" PRIx64 "\n", gs.cycle, gs.lfsr, gs.lfsr_head,
         gs.desc_free, h);
}

// Returns the first differing line number (1-based) or 0 if identical.
static size_t first_diff(const trace_t *a, const trace_t *b, char *ctx, size_t n) {
  size_t line = 1, i = 0;
  size_t la = a->len, lb = b->len;
  while (i < la && i < lb && a->buf[i] == b->buf[i]) {
    if (a->buf[i] == '\n') {
      line++;
    }
    i++;
  }
  if (i == la && i == lb) {
    return 0;
  }
  size_t s = i;
  while (s > 0 && a->buf[s - 1] != '\n') {
    s--;
  }
  snprintf(ctx, n, "step: %.120s | advance: %.120s", a->buf + s, b->buf + s);
  return line;
}

typedef struct run_opts {
  uint64_t seed;
  uint32_t ports, tcs, desc, events;
  bool check_invariants_every_cycle;
  int fault_at_event;  // -1 none
  xtm_fault_t fault;
  bool lazy_step;  // xtm_step without eager mode (its skipping fast path) instead of eager
} run_opts_t;

static xtm_t *make_model(const run_opts_t *o) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = o->ports;
  p.num_tcs = o->tcs;
  p.num_desc = o->desc;
  p.ocb_cells = 600;
  p.hbm_cells = 400;
  p.fifo_depth = 1 + (uint32_t)(o->seed % 4);
  xtm_t *m = tl_create_params(&p);
  configure(m, o->seed);
  return m;
}

// Step mode: every cycle, invariants checked each cycle. Returns false at the first
// broken invariant (message in why).
static bool run_step(const run_opts_t *o, trace_t *tr, char *why, size_t wn) {
  xtm_t *m = make_model(o);
  xtm_set_eager(m, !o->lazy_step);  // the reference: every cycle fully evaluated
  gen_t g = {.rng = o->seed,
             .cycle = xtm_cycle(m),
             .ports = o->ports,
             .tcs = o->tcs,
             .n_left = o->events,
             .tx_ready = UINT64_MAX};
  xtm_in_t in;
  xtm_out_t out;
  uint64_t at;
  int ev = 0;
  bool faulted = false;
  bool ok = true;
  while (ok && next_input(&g, &at, &in)) {
    while (xtm_cycle(m) < at) {
      xtm_step(m, NULL, &out);
      record(tr, &out);
      if (o->check_invariants_every_cycle && !xtm_check_invariants(m, why, wn)) {
        ok = false;
        break;
      }
    }
    if (!ok) {
      break;
    }
    if (o->fault_at_event >= 0 && ev++ >= o->fault_at_event && !faulted) {
      faulted = xtm_inject_fault(m, o->fault);  // retried until the fault applies
    }
    xtm_step(m, &in, &out);
    record(tr, &out);
    record_state(tr, m);
    if (o->check_invariants_every_cycle && !xtm_check_invariants(m, why, wn)) {
      ok = false;
    }
  }
  // drain
  for (uint32_t i = 0; ok && i < 20000; i++) {
    xtm_step(m, NULL, &out);
    record(tr, &out);
  }
  xtm_destroy(m);
  return ok;
}

static void run_advance(const run_opts_t *o, trace_t *tr) {
  xtm_t *m = make_model(o);
  gen_t g = {.rng = o->seed,
             .cycle = xtm_cycle(m),
             .ports = o->ports,
             .tcs = o->tcs,
             .n_left = o->events,
             .tx_ready = UINT64_MAX};
  xtm_in_t in;
  xtm_out_t out;
  uint64_t at;
  int ev = 0;
  bool faulted = false;
  while (next_input(&g, &at, &in)) {
    while (xtm_advance_to(m, at, &out)) {
      record(tr, &out);
    }
    if (o->fault_at_event >= 0 && ev++ >= o->fault_at_event && !faulted) {
      faulted = xtm_inject_fault(m, o->fault);  // retried until the fault applies
    }
    xtm_step(m, &in, &out);
    record(tr, &out);
    record_state(tr, m);
  }
  uint64_t end = xtm_cycle(m) + 20000;
  while (xtm_advance_to(m, end, &out)) {
    record(tr, &out);
  }
  xtm_destroy(m);
}

static void differential(uint64_t seed, uint32_t ports, uint32_t tcs, uint32_t desc) {
  run_opts_t o = {.seed = tl_env_seed(seed),
                  .ports = ports,
                  .tcs = tcs,
                  .desc = desc,
                  .events = 3000,
                  .check_invariants_every_cycle = true,
                  .fault_at_event = -1};
  printf("advance: seed %" PRIu64 " (%ux%u, %u desc); rerun: XTM_SEED=%" PRIu64
         " CK_RUN_CASE=core ./build/tests/test_advance\n",
         o.seed, ports, tcs, desc, o.seed);
  trace_t a = {0}, b = {0};
  char why[512];
  bool inv = run_step(&o, &a, why, sizeof(why));
  ck_assert_msg(inv, "seed %" PRIu64 ": invariant broken: %s", o.seed, why);
  run_advance(&o, &b);
  char ctx[512] = "";
  size_t line = first_diff(&a, &b, ctx, sizeof(ctx));
  ck_assert_msg(line == 0, "seed %" PRIu64 ": traces differ at line %zu: %s", o.seed, line, ctx);
  // the third speed: xtm_step with its fast path for cycles before the next event
  trace_t c = {0};
  o.lazy_step = true;
  o.check_invariants_every_cycle = false;
  ck_assert(run_step(&o, &c, why, sizeof(why)));
  line = first_diff(&a, &c, ctx, sizeof(ctx));
  ck_assert_msg(line == 0, "seed %" PRIu64 ": eager and lazy xtm_step differ at line %zu: %s",
                o.seed, line, ctx);
  free(c.buf);
  // the run exercised something: many outputs of several kinds
  ck_assert_uint_gt(a.events, 3000);
  ck_assert_ptr_nonnull(strstr(a.buf, "\tDEQ\t"));
  ck_assert_ptr_nonnull(strstr(a.buf, "\tPFC\t"));
  ck_assert_ptr_nonnull(strstr(a.buf, "\t14\t000\n"));  // an ENQ line with reason POLICE
  free(a.buf);
  free(b.buf);
}

START_TEST(test_diff_small) { differential(1000 + (uint64_t)_i, 2, 2, 64); }
END_TEST
START_TEST(test_diff_default) { differential(2000 + (uint64_t)_i, 8, 8, 512); }
END_TEST
START_TEST(test_diff_odd) { differential(3000 + (uint64_t)_i, 5, 3, 128); }
END_TEST

// Negative: the invariant checker catches a leaked cell, a miscounted VOQ, a skipped
// arrival count and a step-path port mask out of step with the ports.
START_TEST(test_invariants_catch_faults) {
  static const xtm_fault_t kF[] = {kXtmFaultLeakPoolCell, kXtmFaultDropVoqCount,
                                   kXtmFaultSkipArrCount, kXtmFaultLoseBusyPort};
  for (size_t i = 0; i < sizeof(kF) / sizeof(kF[0]); i++) {
    run_opts_t o = {.seed = 77,
                    .ports = 2,
                    .tcs = 2,
                    .desc = 64,
                    .events = 400,
                    .check_invariants_every_cycle = true,
                    .fault_at_event = 200,
                    .fault = kF[i]};
    trace_t a = {0};
    char why[512] = "";
    bool ok = run_step(&o, &a, why, sizeof(why));
    ck_assert_msg(!ok, "fault %zu not detected", i);
    printf("advance: injected fault %zu detected: %s\n", i, why);
    free(a.buf);
  }
}
END_TEST

// Negative: the trace comparison catches a divergence (one LFSR bit flipped in one run).
START_TEST(test_diff_catches_divergence) {
  run_opts_t o = {.seed = 4242,
                  .ports = 4,
                  .tcs = 4,
                  .desc = 256,
                  .events = 3000,
                  .check_invariants_every_cycle = false,
                  .fault_at_event = -1};
  trace_t a = {0}, b = {0};
  ck_assert(run_step(&o, &a, NULL, 0));
  o.fault_at_event = 10;
  o.fault = kXtmFaultFlipLfsr;
  run_advance(&o, &b);
  char ctx[512];
  size_t line = first_diff(&a, &b, ctx, sizeof(ctx));
  ck_assert_msg(line != 0, "an LFSR fault left the traces identical");
  printf("advance: injected LFSR fault caught at trace line %zu\n", line);
  free(a.buf);
  free(b.buf);
}
END_TEST

// ------------------------------------------------------------------ bulk snapshot

// The incremental snapshot (xtm_state_snapshot) against the per-VOQ/PG functions after every
// call, and its change sets against the previous call's values: an entry that changed must
// be among those the call reports rewritten.
typedef struct snap_ck {
  xtm_snap_t cur, prev, other;
  uint64_t calls, full_calls, rewritten;
} snap_ck_t;

static bool snap_verify(xtm_t *m, snap_ck_t *k, char *why, size_t n) {
  const xtm_params_t *p = xtm_params(m);
  uint32_t nv = p->num_ports * p->num_tcs, ng = p->num_ports * 8;
  memcpy(&k->prev, &k->cur, sizeof(k->cur));
  xtm_state_snapshot(m, &k->cur);
  const xtm_snap_t *s = &k->cur, *o = &k->prev;
  k->calls++;
  k->full_calls += s->full;
  uint64_t t = xtm_cycle(m);
  for (uint32_t v = 0; v < nv; v++) {
    xtm_voq_state_t q;
    xtm_voq_state(m, v, &q);
    const char *bad = NULL;
    if (s->occ_cells[v] != q.occ_cells) bad = "occ_cells";
    if (s->occ_pkts[v] != q.occ_pkts) bad = "occ_pkts";
    if (s->hbm_cells[v] != q.hbm_cells) bad = "hbm_cells";
    if (s->deficit[v] != q.deficit) bad = "deficit";
    if (s->head_pkt_id[v] != q.head_pkt_id) bad = "head_pkt_id";
    if (s->wd_storm[v] != q.wd_storm) bad = "wd_storm";
    if (s->wd_clean[v] != q.wd_clean) bad = "wd_clean";
    if (xtm_snap_bit(s->hbm_mode, v) != q.hbm_mode) bad = "hbm_mode";
    if (xtm_snap_bit(s->ocb_only, v) != q.ocb_only) bad = "ocb_only";
    if (xtm_snap_bit(s->wd_stalled, v) != q.wd_stalled) bad = "wd_stalled";
    if (xtm_snap_bit(s->flushing, v) != q.flushing) bad = "flushing";
    if (xtm_snap_bit(s->shaper_conform, v) != q.shaper_conform) bad = "shaper_conform";
    bool changed = s->occ_cells[v] != o->occ_cells[v] || s->occ_pkts[v] != o->occ_pkts[v] ||
                   s->hbm_cells[v] != o->hbm_cells[v] || s->deficit[v] != o->deficit[v] ||
                   s->head_pkt_id[v] != o->head_pkt_id[v] || s->wd_storm[v] != o->wd_storm[v] ||
                   s->wd_clean[v] != o->wd_clean[v];
    const uint64_t *const sets[][2] = {{s->hbm_mode, o->hbm_mode},
                                       {s->ocb_only, o->ocb_only},
                                       {s->wd_stalled, o->wd_stalled},
                                       {s->flushing, o->flushing},
                                       {s->shaper_conform, o->shaper_conform}};
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
      changed |= xtm_snap_bit(sets[i][0], v) != xtm_snap_bit(sets[i][1], v);
    }
    if (bad == NULL && changed && !xtm_snap_bit(s->voq_changed, v)) bad = "change not reported";
    if (bad != NULL) {
      snprintf(why, n, "cycle %" PRIu64 " voq %u: snapshot %s differs (call %" PRIu64 ", %s)", t, v,
               bad, k->calls, s->full ? "full" : "incremental");
      return false;
    }
    k->rewritten += xtm_snap_bit(s->voq_changed, v);
  }
  for (uint32_t g = 0; g < ng; g++) {
    xtm_pg_state_t q;
    xtm_pg_state(m, g / 8, g % 8, &q);
    const char *bad = NULL;
    if (s->pg_cells[g] != q.pg_cells) bad = "pg_cells";
    if (s->hdrm_used[g] != q.hdrm_used) bad = "hdrm_used";
    if (xtm_snap_bit(s->xoff, g) != q.xoff) bad = "xoff";
    if (s->pause_remain[g] != q.pause_remain) bad = "pause_remain";
    bool changed = s->pg_cells[g] != o->pg_cells[g] || s->hdrm_used[g] != o->hdrm_used[g] ||
                   s->pause_remain[g] != o->pause_remain[g] ||
                   xtm_snap_bit(s->xoff, g) != xtm_snap_bit(o->xoff, g);
    if (bad == NULL && changed && !xtm_snap_bit(s->pg_changed, g)) bad = "change not reported";
    if (bad != NULL) {
      snprintf(why, n, "cycle %" PRIu64 " pg %u: snapshot %s differs (call %" PRIu64 ")", t, g, bad,
               k->calls);
      return false;
    }
  }
  for (uint32_t i = 0; i < ng; i++) {  // as many policers as PGs
    xtm_pol_state_t q;
    xtm_pol_state(m, i, &q);
    bool changed = s->pol_tok[i] != o->pol_tok[i] || s->pol_u[i] != o->pol_u[i];
    const char *bad = s->pol_tok[i] != q.tok || s->pol_u[i] != q.u  ? "tok/u"
                      : changed && !xtm_snap_bit(s->pol_changed, i) ? "change not reported"
                                                                    : NULL;
    if (bad != NULL) {
      snprintf(why, n, "cycle %" PRIu64 " policer %u: snapshot %s differs (call %" PRIu64 ")", t, i,
               bad, k->calls);
      return false;
    }
  }
  xtm_global_state_t gs;
  xtm_global_state(m, &gs);
  if (s->global.pool_used != gs.pool_used || s->global.ocb_used != gs.ocb_used ||
      s->global.hbm_used != gs.hbm_used || s->global.desc_free != gs.desc_free ||
      s->global.lfsr != gs.lfsr || s->global.lfsr_head != gs.lfsr_head ||
      s->global.cycle != gs.cycle) {
    snprintf(why, n, "cycle %" PRIu64 ": snapshot global state differs", t);
    return false;
  }
  return true;
}

// mode 0: eager xtm_step, 1: xtm_step with its fast path, 2: xtm_advance_to (a snapshot
// after each call). Faults that write state behind the step's back are injected on the way.
static void snapshot_run(uint64_t seed, uint32_t ports, uint32_t tcs, int mode) {
  // fewer events when every cycle is a call (modes 0, 1): the verification of every entry
  // after every call is what costs here (the suite also runs once per tools/mutate-cmodel mutant)
  run_opts_t o = {
      .seed = seed, .ports = ports, .tcs = tcs, .desc = 128, .events = mode == 2 ? 1500 : 700};
  xtm_t *m = make_model(&o);
  xtm_set_eager(m, mode == 0);
  static snap_ck_t k;
  xtm_snap_init(&k.cur);
  xtm_snap_init(&k.other);
  k.calls = k.full_calls = k.rewritten = 0;
  gen_t g = {.rng = o.seed,
             .cycle = xtm_cycle(m),
             .ports = ports,
             .tcs = tcs,
             .n_left = o.events,
             .tx_ready = UINT64_MAX};
  static const xtm_fault_t kF[] = {kXtmFaultFlipConform, kXtmFaultFlipLfsr, kXtmFaultFlipHeadLfsr};
  xtm_in_t in;
  xtm_out_t out;
  uint64_t at;
  char why[256] = "";
  bool ok = snap_verify(m, &k, why, sizeof(why));
  for (uint32_t ev = 0; ok && next_input(&g, &at, &in); ev++) {
    if (mode == 2) {
      while (ok && xtm_advance_to(m, at, &out)) {
        ok = snap_verify(m, &k, why, sizeof(why));
      }
    } else {
      while (ok && xtm_cycle(m) < at) {
        xtm_step(m, NULL, &out);
        ok = snap_verify(m, &k, why, sizeof(why));
      }
    }
    if (ev % 97 == 50) {
      ck_assert(xtm_inject_fault(m, kF[(ev / 97) % 3]));
    }
    if (ev % 401 == 200) {
      xtm_state_snapshot(m, &k.other);  // another snapshot takes the change record
    }
    xtm_step(m, &in, &out);
    ok = ok && snap_verify(m, &k, why, sizeof(why));
  }
  for (uint32_t i = 0; ok && i < 3000; i++) {
    xtm_step(m, NULL, &out);
    ok = snap_verify(m, &k, why, sizeof(why));
  }
  if (ok) {
    xtm_reset(m);
    ok = snap_verify(m, &k, why, sizeof(why));
  }
  ck_assert_msg(ok, "seed %" PRIu64 " mode %d: %s", seed, mode, why);
  // incremental calls were the rule, and they rewrote a small part of the VOQs
  ck_assert_uint_gt(k.calls, 3000);
  ck_assert_uint_lt(k.full_calls * 20, k.calls);
  ck_assert_uint_lt(k.rewritten, k.calls * ports * tcs / 2);
  printf("snapshot: seed %" PRIu64 " %ux%u mode %d: %" PRIu64 " calls, %" PRIu64
         " full, %.2f VOQs rewritten per call\n",
         seed, ports, tcs, mode, k.calls, k.full_calls, (double)k.rewritten / (double)k.calls);
  xtm_destroy(m);
}

START_TEST(test_snapshot_incremental) {
  uint64_t seed = tl_env_seed(5000 + (uint64_t)_i);
  static const uint32_t kDims[][2] = {{2, 2}, {4, 4}, {8, 8}, {5, 3}};
  snapshot_run(seed, kDims[_i % 4][0], kDims[_i % 4][1], _i % 3);
}
END_TEST

// Dense traffic and no CSR write: a descriptor in most cycles, PFC frames, MAC back-pressure,
// so queues fill, shapers charge, PGs go XOFF and pause, the watchdog polls, and only the
// change record (never a CSR write's full call) tells the snapshot what to rewrite.
START_TEST(test_snapshot_dense) {
  uint64_t seed = tl_env_seed(6000 + (uint64_t)_i);
  static const uint32_t kDims[][2] = {{2, 2}, {8, 8}, {5, 3}};
  uint32_t ports = kDims[_i % 3][0], tcs = kDims[_i % 3][1];
  run_opts_t o = {.seed = seed, .ports = ports, .tcs = tcs, .desc = 256, .events = 0};
  xtm_t *m = make_model(&o);
  xtm_set_eager(m, _i % 2 == 0);
  static snap_ck_t k;
  xtm_snap_init(&k.cur);
  k.calls = k.full_calls = k.rewritten = 0;
  gen_t g = {.rng = seed, .ports = ports, .tcs = tcs, .tx_ready = UINT64_MAX};
  xtm_out_t out;
  char why[256] = "";
  bool ok = snap_verify(m, &k, why, sizeof(why));
  for (uint32_t c = 0; ok && c < 15000; c++) {
    xtm_in_t in;
    memset(&in, 0, sizeof(in));
    if (rnd(&g, 200) == 0) {
      g.tx_ready ^= 1ull << rnd(&g, ports);
    }
    in.tx_ready = g.tx_ready;
    if (rnd(&g, 10) < 8) {
      in.enq = (xtm_enq_in_t){.valid = true,
                              .pkt_id = (uint32_t)tl_rand(&g.rng),
                              .in_port = (uint8_t)rnd(&g, ports),
                              .eg_port = (uint8_t)rnd(&g, ports),
                              .dscp = (uint8_t)rnd(&g, 64),
                              .ecn = (uint8_t)rnd(&g, 4),
                              .len = (uint16_t)(64 + rnd(&g, 4000))};
    }
    if (rnd(&g, 60) == 0) {
      uint32_t p = rnd(&g, ports);
      in.pfc_rx_valid = 1ull << p;
      in.pfc_rx[p].vec = (uint8_t)rnd(&g, 256);
      for (int i = 0; i < 8; i++) {
        in.pfc_rx[p].quanta[i] = (uint16_t)rnd(&g, 2000);
      }
    }
    xtm_step(m, &in, &out);
    ok = snap_verify(m, &k, why, sizeof(why));
  }
  ck_assert_msg(ok, "seed %" PRIu64 " %ux%u: %s", seed, ports, tcs, why);
  ck_assert_uint_le(k.full_calls, 2);           // the first call (and none forced by a write)
  ck_assert_uint_gt(k.rewritten, k.calls / 4);  // the traffic did change VOQ state
  printf("snapshot dense: seed %" PRIu64 " %ux%u %s: %" PRIu64 " calls, %" PRIu64
         " full, %.2f VOQs rewritten per call\n",
         seed, ports, tcs, _i % 2 == 0 ? "eager" : "fast path", k.calls, k.full_calls,
         (double)k.rewritten / (double)k.calls);
  xtm_destroy(m);
}
END_TEST

// Negative: the snapshot check fails when the snapshot misses a change (one entry corrupted
// behind the incremental update's back).
START_TEST(test_snapshot_check_fails) {
  run_opts_t o = {.seed = 9, .ports = 2, .tcs = 2, .desc = 64, .events = 10};
  xtm_t *m = make_model(&o);
  static snap_ck_t k;
  xtm_snap_init(&k.cur);
  char why[256] = "";
  ck_assert(snap_verify(m, &k, why, sizeof(why)));
  k.cur.deficit[1] ^= 1;  // an entry the next incremental call has no reason to rewrite
  ck_assert(!snap_verify(m, &k, why, sizeof(why)));
  printf("snapshot: corrupted entry detected: %s\n", why);
  // the same for a policer entry (spec 4.7): nothing rewrites policer 5 incrementally
  xtm_snap_init(&k.cur);  // a fresh snapshot: a full call, then an incremental one
  ck_assert(snap_verify(m, &k, why, sizeof(why)));
  ck_assert(snap_verify(m, &k, why, sizeof(why)));
  ck_assert(!k.cur.full);
  k.cur.pol_u[5] ^= 1;
  ck_assert(!snap_verify(m, &k, why, sizeof(why)));
  ck_assert_ptr_nonnull(strstr(why, "policer 5"));
  printf("snapshot: corrupted policer entry detected: %s\n", why);
  xtm_destroy(m);
}
END_TEST

static Suite *advance_suite(void) {
  Suite *s = suite_create("advance");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_diff_small, 0, 6);
  tcase_add_loop_test(tc, test_diff_default, 0, 4);
  tcase_add_loop_test(tc, test_diff_odd, 0, 4);
  tcase_add_test(tc, test_invariants_catch_faults);
  tcase_add_test(tc, test_diff_catches_divergence);
  tcase_add_loop_test(tc, test_snapshot_incremental, 0, 12);
  tcase_add_loop_test(tc, test_snapshot_dense, 0, 6);
  tcase_add_test(tc, test_snapshot_check_fails);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(advance_suite()); }
