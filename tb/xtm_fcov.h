// SPDX-License-Identifier: Apache-2.0
//
// Functional coverage of the xtm co-simulation (+fcov=<file>): counts, from the C model's
// inputs, outputs and state observed in lockstep, how often each coverage point of the
// nightly regression (tests/regress/README.md) was hit, and writes `point<TAB>count` lines
// at the end of the run. tools/regress sums the files of every run and lists the holes.
// Sampling reads the model only; it never changes what the co-simulation does.

#ifndef XTM_TB_XTM_FCOV_H_
#define XTM_TB_XTM_FCOV_H_

#include <climits>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cmodel/xtm/xtm.h"
#include "cmodel/xtm/xtm_internal.h"

#include "rtl/xtm/autogen/xtm_csr_edges.h"  // Generated: the legal-range edges (issue 21).

// The reason names of the model (xtm_reason_name, cmodel/xtm/xtm.c) in lower case, as the
// coverage points and the summary spell them: "accept", "tail", ..., "flush"; "other" beyond.
static inline std::string xtm_reason_lc(unsigned r) {
  if (r >= kXtmReasonCount) return "other";
  std::string s = xtm_reason_name((xtm_reason_t)r);
  for (char &c : s) c = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

struct XtmFcov {
  std::map<std::string, uint64_t> hit;
  uint64_t last_sum[8] = {0};
  // spec 15 (pipeline and hazards): what pre() saw before the step of cycle t
  xtm_occ_log_t pre_log[2] = {};       // the occupancy changes of t-1 and t-2 (spec 6.2)
  std::vector<uint16_t> pre_head_pg;   // per VOQ: PG of the head packet (when an enqueue came)
  bool pre_mark_in_flight = false;     // a head or latency marking decision pending (6.3)
  std::vector<uint64_t> sel_t;         // per VOQ: the cycle of its last selection
  std::vector<int32_t> pre_last_def;   // per VOQ holding one packet: its deficit (else INT32_MIN)
  std::vector<uint16_t> pre_last_len;  // and that packet's length
  uint64_t last_csr_t = UINT64_MAX;    // the previous CSR access (its access cycle)
  // spec 4.7: the arrival port's 8 policers in S(t) (pre(), only when an arrival comes)
  struct PolPre {
    uint64_t tok, u, evals;
    uint32_t rate, burst;
  } pre_pol[XTM_POLS_PER_PORT] = {};
  bool pre_pol_valid = false;

  std::map<uint32_t, uint8_t>
      edge_seen;  // edge row -> edges written: 1 min-1, 2 min, 4 max, 8 max+1

  void inc(const std::string &k, uint64_t n = 1) { hit[k] += n; }

  // Issue 21: a CSR write of an edge value into a field with a legal range (the model's
  // register table is built by xtm_regs_build, the order the generated edge rows index).
  void edge_sample(const xtm_t *m, uint16_t addr, uint32_t wdata) {
    if ((addr & 3u) != 0 || (addr >> 2) >= 0x4000u) return;
    int16_t r = m->decode[addr >> 2];
    if (r < 0) return;
    for (uint32_t e = 0; e < XTM_CSR_EDGE_COUNT; e++) {
      if (kXtmCsrEdges[e].reg != uint16_t(r)) continue;
      const xtm_reg_field_t &f = m->regs[r].fields[kXtmCsrEdges[e].field];
      uint32_t mask = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
      uint32_t v = (wdata >> f.lsb) & mask;
      uint8_t b = (f.min > 0 && v == f.min - 1)      ? 1
                  : v == f.min                       ? 2
                  : v == f.max                       ? 4
                  : (f.max < mask && v == f.max + 1) ? 8
                                                     : 0;
      if (v == f.min && v == f.max) b = 6;
      edge_seen[e] |= b;
    }
  }
  // At the end: edge_<REG>_<FIELD> is 1 when every edge of the field was written in this
  // run; width_* are the cov-marked registers at their top (widths() below).
  void edges_widths(xtm_t *m) {
    for (uint32_t e = 0; e < XTM_CSR_EDGE_COUNT; e++) {
      const xtm_csr_edge_t &ed = kXtmCsrEdges[e];
      const xtm_reg_desc_t &d = m->regs[ed.reg];
      const xtm_reg_field_t &f = d.fields[ed.field];
      uint32_t mask = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
      uint8_t want =
          2 | 4 | ((ed.has_min && f.min > 0) ? 1 : 0) | ((ed.has_max && f.max < mask) ? 8 : 0);
      auto it = edge_seen.find(e);
      bool all = it != edge_seen.end() && (it->second & want) == want;
      std::string k = std::string("edge_") + d.name + "_" + f.name;
      if (all)
        inc(k);
      else
        hit[k] += 0;
    }
    widths(m);
  }

  // The width points of the registers the TOML marks with cov (generated kXtmCovWidths):
  // at the end of the run every element of each (every VOQ, port or PG of its window) is
  // read through the model's CSR port, _LO then _HI for a counter; the point is hit when
  // one reads within one of the field's maximum (top) or 2^32 or more (carry). The reads
  // change the model (window selects, CNT_HI snapshots, rc watermarks restarted), which is
  // why they come after the run's last comparison and check (tb/xtm_tb.cpp).
  void widths(xtm_t *m) {
    static const uint16_t kSel[kXtmWinCount] = {XTM_VOQ_SEL_REG_OFFSET, XTM_PORT_SEL_REG_OFFSET,
                                                XTM_PG_SEL_REG_OFFSET, XTM_PROF_SEL_REG_OFFSET,
                                                XTM_POL_SEL_REG_OFFSET};
    const uint32_t n_win[kXtmWinCount] = {m->num_voqs, m->prm.num_ports,
                                          m->prm.num_ports * XTM_NUM_PRIOS, 8,
                                          m->prm.num_ports * XTM_POLS_PER_PORT};
    static_assert(kXtmWinCount == 5, "a window without its select register and size here");
    for (uint32_t w = 0; w < XTM_COV_WIDTH_COUNT; w++) {
      const xtm_cov_width_t &cw = kXtmCovWidths[w];
      const xtm_reg_desc_t &d = m->regs[cw.reg];
      const xtm_reg_field_t &f = d.fields[cw.field];
      uint32_t mask = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
      uint32_t n = d.window < 0 ? 1 : n_win[d.window];
      bool hit_w = false;
      for (uint32_t e = 0; e < n && !hit_w; e++) {
        uint32_t lo = 0, hi = 0;
        bool ok = d.window < 0 || xtm_csr_write(m, kSel[d.window], e);
        ok = ok && xtm_csr_read(m, d.offset, &lo);
        if (cw.carry) ok = ok && xtm_csr_read(m, uint16_t(d.offset + 4), &hi);
        if (!ok) break;
        uint32_t v = (lo >> f.lsb) & mask;
        hit_w = cw.carry ? hi != 0 : v + 1 >= mask;
      }
      if (hit_w)
        inc(cw.point);
      else
        hit[cw.point] += 0;
    }
  }

  // Spec 6.1 without the LFSR draw: 0 below Kmin (mark probability 0), 1 on the ramp,
  // 2 at or above Kmax (probability 1).
  static int zone(const xtm_t *m, uint32_t prof, uint32_t occ, uint32_t limit) {
    const xtm_profile_t *pr = &m->prof[prof & 7u];
    uint32_t n = XTM_F(pr->cfg, PR_CFG, NPOINTS);
    bool interp = XTM_F(pr->cfg, PR_CFG, INTERP) != 0;
    int64_t L = limit == 0 ? 1 : limit;
    int64_t O = limit == 0 ? 65536 : 65536 * (int64_t)(occ < limit ? occ : limit);
    int ist = -1;
    for (uint32_t i = 0; i < n && i < 8; i++) {
      if (O >= (int64_t)pr->fill[i] * L) ist = (int)i;
    }
    int64_t pa = ist < 0 ? 0 : pr->prob[ist];
    if (interp) {
      int64_t fa = ist < 0 ? 0 : pr->fill[ist];
      int64_t fb = ist + 1 < (int)n ? pr->fill[ist + 1] : 65536;
      int64_t pb = ist + 1 < (int)n ? pr->prob[ist + 1] : 65536;
      if (fb > fa) {
        int64_t dn = (fb - fa) * L;
        int64_t num = pa * dn + (pb - pa) * (O - fa * L);
        return num <= 0 ? 0 : num >= 65536 * dn ? 2 : 1;
      }
    }
    return pa <= 0 ? 0 : pa >= 65536 ? 2 : 1;
  }

  void mark_zone(const char *point, int z) {
    static const char *zn[] = {"below_kmin", "ramp", "above_kmax"};
    inc(std::string("ecn_") + point + "_" + zn[z]);
  }

  // the model was reset (firmware mode): cycle numbers start again from 0
  void restart() {
    sel_t.clear();
    last_csr_t = UINT64_MAX;
  }

  // Before xtm_step of cycle m->t (the model holds S(t)): what the hazard points of spec 15
  // need from S(t) that the step overwrites. The per-VOQ head PGs only when an enqueue comes
  // (the only case hz_pg_enq_deq_same_cycle can hit), so the loop is not paid every cycle.
  void pre(const xtm_t *m, const xtm_in_t &in) {
    pre_log[0] = m->occ_log[0];
    pre_log[1] = m->occ_log[1];
    pre_mark_in_flight = m->mark_due != XTM_NEVER;
    pre_last_def.assign(m->num_voqs, INT32_MIN);
    pre_last_len.assign(m->num_voqs, 0);
    for (uint32_t v = 0; v < m->num_voqs; v++) {
      const xtm_voq_t *q = &m->voq[v];
      if (q->occ_pkts == 1 && q->head != XTM_NIL) {
        pre_last_def[v] = q->deficit;
        pre_last_len[v] = m->desc[q->head].len;
      }
    }
    pre_pol_valid = in.enq.valid && (in.enq.in_port & 0x3Fu) < m->prm.num_ports;
    if (pre_pol_valid) {
      const xtm_pol_t *p = &m->pol[(in.enq.in_port & 0x3Fu) * XTM_POLS_PER_PORT];
      for (uint32_t j = 0; j < XTM_POLS_PER_PORT; j++) {
        pre_pol[j] = {p[j].tok, p[j].u, p[j].cnt[kXtmPolcntPassPkts] + p[j].cnt[kXtmPolcntDropPkts],
                      p[j].rate, p[j].burst};
      }
    }
    if (in.enq.valid) {
      pre_head_pg.assign(m->num_voqs, 0xFFFF);
      for (uint32_t v = 0; v < m->num_voqs; v++) {
        const xtm_voq_t *q = &m->voq[v];
        if (q->occ_pkts != 0 && q->head != XTM_NIL) {
          const xtm_desc_t *d = &m->desc[q->head];
          pre_head_pg[v] = uint16_t(d->in_port * XTM_NUM_PRIOS + d->pg);
        }
      }
    }
  }

  // Occupancy of VOQ v in S(t-2) from its S(t) value and the changes of t-1 and t-2 (spec
  // 6.2; the same log the model keeps, copied by pre()).
  uint32_t occ_two_back(uint32_t v, uint32_t occ, uint64_t t) const {
    for (uint64_t k = 1; k <= 2 && k <= t; k++) {
      const xtm_occ_log_t &l = pre_log[(t - k) & 1];
      if (l.enq_cycle == t - k && l.enq_v == v) occ -= l.enq_cells;
      if (l.rem_cycle == t - k && l.rem_v == v) occ += l.rem_cells;
    }
    return occ;
  }

  // Spec 6.2's table: 1 when the enqueue profile marks, 2 when it can drop, 0 when it is
  // not evaluated for this packet and VOQ configuration.
  static int enq_profile_case(uint32_t cfg, uint8_t ecn) {
    bool ecn_en = XTM_F(cfg, Q_CFG, ECN_EN) != 0;
    bool ect = ecn == 1 || ecn == 2;
    if (ecn_en && ect)
      return XTM_F(cfg, Q_CFG, MARK_POINT) == XTM_Q_CFG_MARK_POINT_VALUE_TAIL ? 1 : 0;
    if (ecn_en && ecn == 3) return 0;
    bool tail_only = ecn_en && XTM_F(cfg, Q_CFG, NONECT_TAIL_ONLY) != 0;
    return XTM_F(cfg, Q_CFG, NO_LOSS) == 0 && !tail_only ? 2 : 0;
  }

  // Spec 4.7: the policer the arrival of cycle t evaluated (its u became t, or its counters
  // moved), and how: back to back with an evaluation in t-1 (the policer's one loop, 15.4),
  // the refill clamped at the burst, a stored tok above a lowered burst.
  void pol_sample(const xtm_t *m, const xtm_in_t &in, uint64_t t) {
    if (!pre_pol_valid) return;
    const xtm_pol_t *p = &m->pol[(in.enq.in_port & 0x3Fu) * XTM_POLS_PER_PORT];
    for (uint32_t j = 0; j < XTM_POLS_PER_PORT; j++) {
      const PolPre &b = pre_pol[j];
      uint64_t evals = p[j].cnt[kXtmPolcntPassPkts] + p[j].cnt[kXtmPolcntDropPkts];
      if (p[j].u != t || (b.u == t && evals == b.evals)) continue;
      inc("pol_evaluated");
      if (t >= 2 && b.u + 1 == t) inc("pol_back_to_back");
      uint64_t burst = uint64_t(b.burst) << 16, e = t - b.u;
      bool clamp = e >= (1ull << 40) ? b.rate > 0 : b.tok + e * b.rate > burst;
      if (clamp) inc("pol_burst_clamp");
      if (b.tok > burst) inc("pol_tok_above_burst");
    }
  }

  // one cycle: the inputs and outputs of xtm_step, the model after it
  void sample(const xtm_t *m, const xtm_in_t &in, const xtm_out_t &out) {
    if (in.csr.valid && in.csr.write) edge_sample(m, in.csr.addr, in.csr.wdata);
    if (in.enq.valid && in.enq.len == 16383 && out.enq_res.valid && out.enq_res.reason == 0) {
      inc("width_pkt_len_max");  // a packet of MAX_FRAME's maximum accepted
    }
    uint32_t nvoq = m->num_voqs;
    uint64_t t = m->t - 1;  // the cycle just executed
    pol_sample(m, in, t);
    const xtm_occ_log_t &cur = m->occ_log[t & 1];
    uint32_t ev = cur.enq_cycle == t ? cur.enq_v : XTM_NIL;  // accepted into (spec 15.3)
    uint32_t rv = cur.rem_cycle == t ? cur.rem_v : XTM_NIL;  // selected or flushed from
    if (out.enq_res.valid) {
      uint8_t r = out.enq_res.reason;
      inc(std::string(r == 0 ? "enq_" : "drop_") + xtm_reason_lc(r));
      if (out.enq_res.hdrm) inc("pfc_headroom_in_use");
      if (out.enq_res.hbm) inc("hbm_enq_to_hbm");
      uint16_t v = out.enq_res.voq;
      if (v < nvoq && r < kXtmReasonLenZero) {  // classified: the profile may be evaluated
        const xtm_voq_t *q = &m->voq[v];
        // the occupancy the profile saw, S(t-2) (spec 6.2), from S(t+1) and the log
        uint32_t occ_t =
            q->occ_cells - (ev == v ? cur.enq_cells : 0) + (rv == v ? cur.rem_cells : 0);
        uint32_t occ2 = t < 3 ? 0 : occ_two_back(v, occ_t, t);
        uint32_t prof = XTM_F(q->cfg, Q_CFG, PROFILE);
        int pc = enq_profile_case(q->cfg, in.enq.ecn);
        if (pc != 0) {
          int z = zone(m, prof, occ2, q->limit);
          if (pc == 1) {
            mark_zone("tail", z);
          } else {
            static const char *dz[] = {"drop_profile_below_kmin", "drop_profile_ramp",
                                       "drop_profile_above_kmax"};
            inc(dz[z]);
          }
          if (occ2 != occ_t) inc("prof_occ_lagged");
          if (z != zone(m, prof, occ_t, q->limit)) inc("prof_zone_lagged");
        }
      }
    }
    // spec 15.3: same cycle, same queue; back-to-back selections; the shaper's gap
    if (ev != XTM_NIL && ev == rv)
      inc(out.flush.valid ? "hz_enq_flush_same_voq" : "hz_enq_deq_same_voq");
    if (ev != XTM_NIL && rv != XTM_NIL && rv < pre_head_pg.size() &&
        pre_head_pg[rv] == m->enq_dec.gi) {
      inc("hz_pg_enq_deq_same_cycle");
    }
    if (rv != XTM_NIL && !out.flush.valid && rv < nvoq) {
      if (sel_t.size() != nvoq) sel_t.assign(nvoq, UINT64_MAX);
      if (sel_t[rv] + 1 == t) inc("hz_sel_back_to_back");
      if (XTM_F(m->voq[rv].cfg, Q_CFG, SHAPER_EN) != 0 && sel_t[rv] + 2 == t)
        inc("hz_shaper_gap_min");
      // spec 9.3: a DWRR selection empties the VOQ with its deficit still positive after the
      // charge (a round adds the quantum when the deficit was not positive): cleared to 0
      const xtm_voq_t *q = &m->voq[rv];
      if (XTM_F(q->cfg, Q_CFG, STRICT) == 0 && rv < pre_last_def.size() &&
          pre_last_def[rv] != INT32_MIN) {
        int64_t d =
            pre_last_def[rv] > 0 ? pre_last_def[rv] : int64_t(pre_last_def[rv]) + q->quantum;
        if (d - pre_last_len[rv] > 0) inc("dwrr_empty_positive_cleared");
      }
      sel_t[rv] = t;
    }
    // CSR timing (spec 10.1, 10.2, 15.6)
    if (in.csr.valid) {
      uint16_t a = in.csr.addr;
      if (last_csr_t != UINT64_MAX && last_csr_t + 1 + XTM_OUT_LATENCY + 1 == t)
        inc("apb_back_to_back");
      last_csr_t = t;
      bool window = (a >= XTM_Q_CFG_REG_OFFSET && a < XTM_Q_CFG_REG_OFFSET + 0x100) ||
                    (a >= XTM_G_CFG_REG_OFFSET && a < XTM_G_CFG_REG_OFFSET + 0x100);
      if (t < m->init_cycles) {
        inc("csr_during_init");
        if (window && out.csr_rsp.err) inc("csr_window_not_ready");
      }
      if (in.csr.write && a == XTM_CTRL_REG_OFFSET && (in.csr.wdata & XTM_CTRL_CLR_CNT_MASK) != 0) {
        inc(t < m->init_cycles ? "clr_cnt_during_init" : "clr_cnt_after_init");
        if (pre_mark_in_flight) inc("clr_cnt_mark_in_flight");
      }
      if (!in.csr.write && pre_mark_in_flight &&
          (a == XTM_Q_MARK_HEAD_LO_REG_OFFSET || a == XTM_Q_MARK_HEAD_LO_REG_OFFSET + 4 ||
           a == XTM_Q_MARK_LAT_LO_REG_OFFSET || a == XTM_Q_MARK_LAT_LO_REG_OFFSET + 4 ||
           a == XTM_LFSR_HEAD_STATE_REG_OFFSET)) {
        inc("csr_read_mark_in_flight");
      }
    }
    if (out.flush.valid) inc("drop_flush");
    for (uint32_t p = 0; p < m->prm.num_ports && out.deq_valid != 0; p++) {
      if (((out.deq_valid >> p) & 1u) == 0) continue;
      const xtm_deq_out_t &d = out.deq[p];
      if (d.voq >= nvoq) continue;
      const xtm_voq_t *q = &m->voq[d.voq];
      inc(XTM_F(q->cfg, Q_CFG, STRICT) != 0 ? "sched_strict" : "sched_dwrr");
      if (d.hbm) inc("hbm_deq_from_hbm");
      if (d.marked) inc("ecn_marked_out");
      if (XTM_F(q->cfg, Q_CFG, ECN_EN) != 0) {
        uint32_t mp = XTM_F(q->cfg, Q_CFG, MARK_POINT);
        if (mp == XTM_Q_CFG_MARK_POINT_VALUE_HEAD) {
          mark_zone("head", zone(m, XTM_F(q->cfg, Q_CFG, PROFILE), q->occ_cells, q->limit));
        } else if (mp == XTM_Q_CFG_MARK_POINT_VALUE_LATENCY) {
          // latency marking is a step at LAT_THRESH: below it or above it, no ramp
          mark_zone("latency", d.sojourn > q->lat_thresh ? 2 : 0);
        }
      }
    }
    for (uint32_t p = 0; p < m->prm.num_ports && out.pfc_tx_valid != 0; p++) {
      if (((out.pfc_tx_valid >> p) & 1u) == 0) continue;
      for (int c = 0; c < 8; c++) {
        if ((out.pfc_tx[p].vec >> c) & 1u)
          inc(out.pfc_tx[p].quanta[c] ? "pfc_tx_xoff" : "pfc_tx_xon");
      }
    }
    for (uint32_t p = 0; p < m->prm.num_ports && in.pfc_rx_valid != 0; p++) {
      if (((in.pfc_rx_valid >> p) & 1u) == 0) continue;
      for (int c = 0; c < 8; c++) {
        if ((in.pfc_rx[p].vec >> c) & 1u)
          inc(in.pfc_rx[p].quanta[c] ? "pfc_rx_pause" : "pfc_rx_xon");
      }
    }
    if (in.tx_ready != UINT64_MAX) inc("mac_backpressure");
    if (in.csr.valid) inc(in.csr.write ? "csr_write" : "csr_read");
    if ((m->t & 255) == 0) poll(m);
  }

  // every 256 cycles: state occupancy and event counters (their deltas: CTRL.CLR_CNT may
  // clear the counters, then the new value counts as the delta)
  void delta(int i, const char *name, uint64_t sum) {
    inc(name, sum >= last_sum[i] ? sum - last_sum[i] : sum);
    last_sum[i] = sum;
  }
  void poll(const xtm_t *m) {
    uint64_t s[6] = {0};
    bool stalled = false, hbm_mode = false, xoff = false, hdrm = false, paused = false;
    for (uint32_t v = 0; v < m->num_voqs; v++) {
      const xtm_voq_t *q = &m->voq[v];
      s[0] += q->cnt[kXtmVcntHbmEvict];
      s[1] += q->cnt[kXtmVcntHbmReturn];
      s[2] += q->cnt[kXtmVcntWdStall];
      s[3] += q->cnt[kXtmVcntWdRestore];
      stalled |= q->wd_state == kXtmWdStalled;
      hbm_mode |= q->hbm_mode;
    }
    for (uint32_t g = 0; g < m->prm.num_ports * 8; g++) {
      s[4] += m->pg[g].cnt[kXtmGcntXoffSent];
      s[5] += m->pg[g].cnt[kXtmGcntXonSent];
      xoff |= m->pg[g].xoff;
      hdrm |= m->pg[g].hdrm_used != 0;
      paused |= m->pg[g].pause_end > m->t;
    }
    delta(0, "hbm_evict", s[0]);
    delta(1, "hbm_return", s[1]);
    delta(2, "wd_monitor_to_stalled", s[2]);
    delta(3, "wd_stalled_to_monitor", s[3]);
    delta(4, "pfc_xoff_transition", s[4]);
    delta(5, "pfc_xon_transition", s[5]);
    inc(stalled ? "wd_state_stalled" : "wd_state_monitor");
    if (stalled) {
      inc(XTM_F(m->wd_ctrl, WD_CTRL, ACTION) == XTM_WD_CTRL_ACTION_VALUE_DROP
              ? "wd_stalled_action_drop"
              : "wd_stalled_action_forward");
    }
    if (hbm_mode) inc("hbm_mode_resident");
    if (xoff) inc("pfc_pg_in_xoff");
    if (hdrm) inc("pfc_headroom_occupied");
    if (paused) inc("pfc_egress_paused");
  }

  bool write(const std::string &path, xtm_t *m) {
    poll(m);
    edges_widths(m);
    FILE *f = fopen(path.c_str(), "w");
    if (f == nullptr) return false;
    for (auto &kv : hit) fprintf(f, "%s\t%llu\n", kv.first.c_str(), (unsigned long long)kv.second);
    fclose(f);
    return true;
  }
};

#endif  // XTM_TB_XTM_FCOV_H_
