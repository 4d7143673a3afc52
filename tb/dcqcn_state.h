// SPDX-License-Identifier: Apache-2.0
//
// The one accessor of the dcqcn RTL's internal state for tb/dcqcn_tb.cpp: the RAM arrays and
// flop vectors named in tb/dcqcn_public.vlt, found by scope name at time 0, decoded with the
// word layouts of rtl/dcqcn/dcqcn_pkg.sv (rp_word_t, np_word_t), and compared with a
// snapshot of the C model's state of the same logical cycle (docs/spec-dcqcn.md D15: the
// stage-2 owners after the clock edge of t + 2, the pacer after t + 14).

#ifndef XTM_TB_DCQCN_STATE_H_
#define XTM_TB_DCQCN_STATE_H_

#include <verilated.h>
#include <verilated_syms.h>

#include <array>
#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tb/tb_common.h"

extern "C" {
#include "cmodel/dcqcn/dcqcn.h"
}

// One public array or vector of the Verilated model.
struct DcqcnVar {
  const uint8_t *p = nullptr;
  uint32_t ent = 0;  // bytes per element (little-endian words, as Verilator stores them)
  int width = 0;     // bits per element
  int depth = 1;     // elements (1 for a packed vector)
  uint64_t get(uint32_t row, int lsb, int w) const {
    const uint8_t *e = p + (size_t)row * ent;
    int first = lsb / 8, last = (lsb + w - 1) / 8;  // at most 9 bytes
    unsigned __int128 acc = 0;
    for (int i = last; i >= first; i--) acc = acc << 8 | e[i];
    uint64_t v = (uint64_t)(acc >> (lsb % 8));
    return w >= 64 ? v : v & ((1ull << w) - 1);
  }
  // bit i of a packed vector, or element i of an unpacked array of one-bit elements
  bool bit(uint32_t i) const { return depth > 1 ? get(i, 0, 1) != 0 : get(0, (int)i, 1) != 0; }
};

struct DcqcnSnapshot {
  uint64_t t = 0;  // the logical cycle after which the state was taken (S(t + 1))
  bool main_done = false;
  std::vector<dcqcn_qp_state_t> qs;
  std::vector<std::array<uint64_t, kDcqcnQcntCount>> qc;
  std::array<uint64_t, kDcqcnGcntCount> gc{};
};

// rp_word_t, MSB first: LSB of each field (228 bits)
const int kRpW = 228;  // dcqcn_pkg::RP_W
namespace RpWord {
const int kTxSeen = 0, kDueInc = 32, kDueDec = 67, kDueAlpha = 102, kByteCount = 137,
          kStageBc = 159, kStageT = 167, kAlpha = 175, kRt = 185, kRc = 205, kCnpDec = 225,
          kCnpAlpha = 226, kActive = 227;
}  // namespace RpWord
// np_word_t: np_sent 192, np_last 191:128, ce_rx 127:64, cnp_tx 63:0
namespace NpWord {
const int kCnpTx = 0, kCeRx = 64, kNpLast = 128, kNpSent = 192;
}  // namespace NpWord

class DcqcnState {
 public:
  static DcqcnState *find(VerilatedContext *ctx, const dcqcn_params_t &prm, std::string *why) {
    auto *s = new DcqcnState;
    s->n_ = prm.num_qps;
    s->u_ = prm.scan_width;
    s->rp_.resize(s->u_);
    s->rpc_.resize(s->u_);
    s->prate_.resize(s->u_);
    s->cv_.resize(s->u_);
    s->txb_.resize(s->u_);
    bool ok = true;
    auto need = [&](const std::string &scope, const char *var, DcqcnVar *out) {
      if (!ok) return;
      if (!s->lookup(ctx, scope, var, out)) {
        *why = "no " + scope + "." + var;
        ok = false;
      }
    };
    for (uint32_t b = 0; b < s->u_; b++) {
      std::string bank = fmt("u_scan.g_bank[%u]", b);
      need(bank + ".u_rp", "mem", &s->rp_[b]);
      s->rpc_[b] = s->rp_[b];  // {Q_CUTS, Q_INC} above the context in the same word
      need(bank + ".u_prate", "mem", &s->prate_[b]);
      need(bank, "cv_q", &s->cv_[b]);
      need(fmt("u_tx.g_bank[%u].u_txb", b), "mem", &s->txb_[b]);
    }
    need("u_scan", "t2_q", &s->t2_);
    need("u_pend", "init_q", &s->p_init_);
    need("u_pend", "cnp_q", &s->p_cnp_);
    need("u_pend", "more_q", &s->p_more_);
    need("u_cnp.u_cnpc", "mem", &s->cnpc_);
    need("u_cnp", "v_q", &s->cnpc_v_);
    need("u_np.u_np", "mem", &s->np_);
    need("u_np", "init_q", &s->np_init_);
    need("u_np", "v_q", &s->np_v_);
    need("u_pacer.u_pace", "mem", &s->pace_);
    need("u_pacer", "init_q", &s->pace_init_);
    need("u_pacer", "early_q", &s->early_);
    need("u_gcnt.u_gcnt", "mem", &s->gmem_);
    s->gacc_.resize(kDcqcnGcntPaceEarly);
    for (int k = 0; k < kDcqcnGcntPaceEarly; k++)
      need(fmt("u_gcnt.g_cnt[%d]", k), "acc_q", &s->gacc_[k]);
    need("u_gcnt", "v_q", &s->gv_);
    need("u_gcnt", "fl_v_q", &s->gfl_v_);
    need("u_gcnt", "fl_idx_q", &s->gfl_idx_);
    need("u_gcnt", "fl_snap_q", &s->gfl_snap_);
    if (!ok) {
      delete s;
      return nullptr;
    }
    return s;
  }

  // The model's state after cycle t (call right after dcqcn_step of cycle t).
  DcqcnSnapshot snapshot(const dcqcn_t *m, uint64_t t) const {
    DcqcnSnapshot s;
    s.t = t;
    s.qs.resize(n_);
    s.qc.resize(n_);
    for (uint32_t q = 0; q < n_; q++) {
      dcqcn_qp_state(m, q, &s.qs[q]);
      for (int k = 0; k < kDcqcnQcntCount; k++)
        s.qc[q][k] = dcqcn_qp_counter(m, q, (dcqcn_qcnt_t)k);
    }
    for (int k = 0; k < kDcqcnGcntCount; k++) s.gc[k] = dcqcn_counter(m, (dcqcn_gcnt_t)k);
    return s;
  }

  // Everything but the pacer, after the clock edge of cycle s.t + 2.
  bool compare_main(const DcqcnSnapshot &s, std::string *f, uint64_t *e, uint64_t *a,
                    std::string *w) const {
    auto chk = [&](const char *name, uint64_t exp, uint64_t act, uint32_t q) {
      if (exp == act) return true;
      *f = std::string("state.") + name;
      *e = exp;
      *a = act;
      *w = q == UINT32_MAX ? "" : fmt("qp %u", q);
      return false;
    };
    const uint64_t due_mask = (1ull << DCQCN_DUE_BITS) - 1;
    if (!chk("cycle", s.t + 1, t2_.get(0, 0, 64), UINT32_MAX)) return false;
    for (uint32_t q = 0; q < n_; q++) {
      const dcqcn_qp_state_t &m = s.qs[q];
      uint32_t b = q % u_, r = q / u_;
      const DcqcnVar &rp = rp_[b];
      if (!chk("init_pend", m.init_pend, p_init_.bit(q), q)) return false;
      if (!m.init_pend) {
        bool act = rp.get(r, RpWord::kActive, 1);
        bool pc = p_cnp_.bit(q);
        if (!chk("active", m.active, act, q)) return false;
        if (!chk("cnp_alpha", m.cnp_alpha, rp.get(r, RpWord::kCnpAlpha, 1) | (pc && act), q) ||
            !chk("cnp_dec", m.cnp_dec, rp.get(r, RpWord::kCnpDec, 1) | (pc && act), q) ||
            !chk("rc", m.rc, rp.get(r, RpWord::kRc, 20), q) ||
            !chk("rt", m.rt, rp.get(r, RpWord::kRt, 20), q) ||
            !chk("alpha", m.alpha, rp.get(r, RpWord::kAlpha, 10), q) ||
            !chk("stage_t", m.stage_timer, rp.get(r, RpWord::kStageT, 8), q) ||
            !chk("stage_bc", m.stage_byte, rp.get(r, RpWord::kStageBc, 8), q) ||
            !chk("byte_count", m.byte_count, rp.get(r, RpWord::kByteCount, 22), q) ||
            !chk("prate", m.rc, prate_[b].get(r, 0, 20), q))
          return false;
        if (act) {
          uint64_t pend = (txb_[b].get(r, 0, 32) - rp.get(r, RpWord::kTxSeen, 32)) & 0xFFFFFFFFu;
          if (!chk("due_alpha", m.alpha_due & due_mask, rp.get(r, RpWord::kDueAlpha, 35), q) ||
              !chk("due_dec", m.dec_due & due_mask, rp.get(r, RpWord::kDueDec, 35), q) ||
              !chk("due_inc", m.inc_due & due_mask, rp.get(r, RpWord::kDueInc, 35), q) ||
              !chk("pend_bytes", m.pend_bytes, pend, q) || !chk("pend_cnp", 0, m.pend_cnp, q))
            return false;
        } else if (!chk("pend_cnp", m.pend_cnp, pc, q) ||
                   !chk("pend_cnp_more", m.pend_cnp && m.pend_cnp_more, pc && p_more_.bit(q), q) ||
                   !chk("due_alpha", DCQCN_NEVER, m.alpha_due, q)) {
          return false;
        }
      }
      bool np_rst = np_init_.bit(q), np_v = np_v_.bit(q);
      if (!chk("np_sent", m.np_sent, np_rst ? 0 : np_.get(q, NpWord::kNpSent, 1), q) ||
          !chk("np_last", m.np_last, np_rst ? 0 : np_.get(q, NpWord::kNpLast, 64), q))
        return false;
      uint64_t qc[kDcqcnQcntCount] = {cnpc_v_.bit(q) ? cnpc_.get(q, 0, 64) : 0,
                                      cv_[b].bit(r) ? rpc_[b].get(r, kRpW + 64, 64) : 0,
                                      cv_[b].bit(r) ? rpc_[b].get(r, kRpW, 64) : 0,
                                      np_v ? np_.get(q, NpWord::kCeRx, 64) : 0,
                                      np_v ? np_.get(q, NpWord::kCnpTx, 64) : 0};
      static const char *const kQc[kDcqcnQcntCount] = {"Q_CNP_RX", "Q_CUTS", "Q_INC", "Q_CE_RX",
                                                       "Q_CNP_TX"};
      for (int k = 0; k < kDcqcnQcntCount; k++) {
        if (!chk(kQc[k], s.qc[q][k], qc[k], q)) return false;
      }
    }
    for (int k = 0; k < kDcqcnGcntPaceEarly; k++) {
      uint64_t v = gv_.bit(k) ? gmem_.get(k, 0, 64) : 0;
      v += gacc_[k].get(0, 0, gacc_[k].width);
      if (gfl_v_.bit(0) && gfl_idx_.get(0, 0, gfl_idx_.width) == (uint64_t)k) {
        v += gfl_snap_.get(0, 0, gfl_snap_.width);
      }
      if (!chk("counter", s.gc[k], v, UINT32_MAX)) {
        *w = fmt("counter %d", k);
        return false;
      }
    }
    return true;
  }

  // The pacer, after the clock edge of cycle s.t + 14.
  bool compare_pacer(const DcqcnSnapshot &s, std::string *f, uint64_t *e, uint64_t *a,
                     std::string *w) const {
    for (uint32_t q = 0; q < n_; q++) {
      uint64_t v = pace_init_.bit(q) ? 0 : pace_.get(q, 0, 64);
      if (v != s.qs[q].pace_q8) {
        *f = "state.pace_q8";
        *e = s.qs[q].pace_q8;
        *a = v;
        *w = fmt("qp %u", q);
        return false;
      }
    }
    uint64_t ep = early_.get(0, 0, 64);
    if (ep != s.gc[kDcqcnGcntPaceEarly]) {
      *f = "state.counter";
      *e = s.gc[kDcqcnGcntPaceEarly];
      *a = ep;
      *w = "PACE_EARLY";
      return false;
    }
    return true;
  }

 private:
  bool lookup(VerilatedContext *ctx, const std::string &suffix, const char *var, DcqcnVar *out) {
    const VerilatedScopeNameMap *m = ctx->scopeNameMap();
    std::string tail = "." + suffix;
    for (const auto &kv : *m) {
      std::string name = kv.first;
      if (name.size() < tail.size() ||
          name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
        continue;
      const VerilatedVar *v = kv.second->varFind(var);
      if (v == nullptr) continue;
      out->p = static_cast<const uint8_t *>(v->datap());
      out->ent = v->entSize();
      out->width = v->elements(0);
      out->depth = v->udims() > 0 ? v->elements(1) : 1;
      if (v->udims() == 0 && (uint32_t)out->width > 8 * out->ent) {
        // Verilator 5.006 describes `logic x [N]` (one-bit elements) as N packed bits of a
        // one-byte element: it is an array of N bytes
        out->depth = out->width;
        out->width = 1;
      }
      return true;
    }
    return false;
  }

  uint32_t n_ = 0, u_ = 1;
  std::vector<DcqcnVar> rp_, rpc_, prate_, cv_, txb_, gacc_;
  DcqcnVar t2_, p_init_, p_cnp_, p_more_, cnpc_, cnpc_v_, np_, np_init_, np_v_, pace_, pace_init_,
      early_, gmem_, gv_, gfl_v_, gfl_idx_, gfl_snap_;
};

#endif  // XTM_TB_DCQCN_STATE_H_
