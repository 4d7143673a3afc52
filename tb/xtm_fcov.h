// SPDX-License-Identifier: Apache-2.0
//
// Functional coverage of the xtm co-simulation (+fcov=<file>): counts, from the C model's
// inputs, outputs and state observed in lockstep, how often each coverage point of the
// nightly regression (tests/regress/README.md) was hit, and writes `point<TAB>count` lines
// at the end of the run. tools/regress sums the files of every run and lists the holes.
// Sampling reads the model only; it never changes what the co-simulation does.

#ifndef XTM_TB_XTM_FCOV_H_
#define XTM_TB_XTM_FCOV_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "cmodel/xtm/xtm.h"
#include "cmodel/xtm/xtm_internal.h"

struct XtmFcov {
  std::map<std::string, uint64_t> hit;
  uint64_t last_sum[8] = {0};

  void inc(const std::string &k, uint64_t n = 1) { hit[k] += n; }

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

  // one cycle: the inputs and outputs of xtm_step, the model after it
  void sample(const xtm_t *m, const xtm_in_t &in, const xtm_out_t &out) {
    static const char *rn[] = {"accept", "tail", "pool", "profile", "headroom", "buf_full",
                               "qdisabled", "wd", "len_zero", "len_max", "bad_port", "bad_tc",
                               "not_ready", "flush"};
    uint32_t nvoq = m->num_voqs;
    if (out.enq_res.valid) {
      uint8_t r = out.enq_res.reason;
      inc(std::string(r == 0 ? "enq_" : "drop_") + (r < 14 ? rn[r] : "other"));
      if (out.enq_res.hdrm) inc("pfc_headroom_in_use");
      if (out.enq_res.hbm) inc("hbm_enq_to_hbm");
      uint16_t v = out.enq_res.voq;
      if (v < nvoq) {
        const xtm_voq_t *q = &m->voq[v];
        if (XTM_F(q->cfg, Q_CFG, ECN_EN) != 0 &&
            XTM_F(q->cfg, Q_CFG, MARK_POINT) == XTM_Q_CFG_MARK_POINT_VALUE_TAIL) {
          mark_zone("tail", zone(m, XTM_F(q->cfg, Q_CFG, PROFILE), q->occ_cells, q->limit));
        }
        if (XTM_F(q->cfg, Q_CFG, ECN_EN) == 0 && XTM_F(q->cfg, Q_CFG, NO_LOSS) == 0) {
          static const char *dz[] = {"drop_profile_below_kmin", "drop_profile_ramp",
                                     "drop_profile_above_kmax"};
          inc(dz[zone(m, XTM_F(q->cfg, Q_CFG, PROFILE), q->occ_cells, q->limit)]);
        }
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
        if ((out.pfc_tx[p].vec >> c) & 1u) inc(out.pfc_tx[p].quanta[c] ? "pfc_tx_xoff" : "pfc_tx_xon");
      }
    }
    for (uint32_t p = 0; p < m->prm.num_ports && in.pfc_rx_valid != 0; p++) {
      if (((in.pfc_rx_valid >> p) & 1u) == 0) continue;
      for (int c = 0; c < 8; c++) {
        if ((in.pfc_rx[p].vec >> c) & 1u) inc(in.pfc_rx[p].quanta[c] ? "pfc_rx_pause" : "pfc_rx_xon");
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
      inc(XTM_F(m->wd_ctrl, WD_CTRL, ACTION) == XTM_WD_CTRL_ACTION_VALUE_DROP ? "wd_stalled_action_drop"
                                                                                : "wd_stalled_action_forward");
    }
    if (hbm_mode) inc("hbm_mode_resident");
    if (xoff) inc("pfc_pg_in_xoff");
    if (hdrm) inc("pfc_headroom_occupied");
    if (paused) inc("pfc_egress_paused");
  }

  bool write(const std::string &path, const xtm_t *m) {
    poll(m);
    FILE *f = fopen(path.c_str(), "w");
    if (f == nullptr) return false;
    for (auto &kv : hit) fprintf(f, "%s\t%llu\n", kv.first.c_str(), (unsigned long long)kv.second);
    fclose(f);
    return true;
  }
};

#endif  // XTM_TB_XTM_FCOV_H_
