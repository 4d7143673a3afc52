// SPDX-License-Identifier: Apache-2.0
//
// XtmProbe: the one place the testbench reads the RTL's internal state (docs/spec.md
// section 12 quantities, for the per-cycle state comparison). It names the RTL registers
// (marked `verilator public_flat_rd` in rtl/xtm) as Verilator mangles them; nothing else in
// tb/ knows the RTL hierarchy. After the clock edge of physical cycle c the registers hold
// S(c - 3), the state after logical cycle c - 4 (the commit stage is physical t + 4).
//
// Two ways in (docs/cosim.md, "The state comparison"):
// - per-field accessors (occ_cells(v), ...), which decode the RTL representation (the
//   deficit's sign, the watchdog RAM row fields); the detailed comparison and its report use
//   them;
// - an Image: the expected RTL state in the RTL's own storage (the Verilated arrays' element
//   types and bit vectors), written from the C model's snapshot (xtm_state_snapshot) for the
//   entries that changed, and compared with the live RTL arrays by memcmp (matches()). An
//   Image entry is written only when the model's value decodes back to itself
//   (representable); otherwise the caller must take the detailed path. So matches() true
//   implies every accessor equals the model's value, and the fast check can only fail
//   where the detailed one would, or where the RTL holds bits no accessor reads (then the
//   detailed comparison decides).
//
// flip() corrupts one RTL register bit, as a hardware upset would, for the negative tests of
// the state comparison (+fault=rtl_<field>).
//
// A gate-level netlist has no such names: build with -DXTM_TB_NETLIST and the probe is
// absent (XtmProbe::kAvailable false; the state comparison is off).

#ifndef XTM_TB_XTM_PROBE_H_
#define XTM_TB_XTM_PROBE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

extern "C" {
#include "cmodel/xtm/xtm.h"
}

#ifndef XTM_TB_NETLIST
#include "Vxtm_top.h"
#include "Vxtm_top___024root.h"

// bit i of a Verilated vector of any width
template <class T>
static inline bool probe_bit(const T &v, uint32_t i) {
  return ((static_cast<uint64_t>(v) >> i) & 1u) != 0;
}
template <std::size_t N>
static inline bool probe_bit(const VlWide<N> &v, uint32_t i) {
  return ((v[i / 32] >> (i % 32)) & 1u) != 0;
}
template <class T>
static inline void probe_flip(T &v, uint32_t i) {
  v = static_cast<T>(v ^ (static_cast<T>(1) << i));
}
template <std::size_t N>
static inline void probe_flip(VlWide<N> &v, uint32_t i) {
  v[i / 32] ^= 1u << (i % 32);
}
// a bit set of the snapshot (64-bit words, bit i of word i / 64) in a Verilated vector
template <class T>
static inline void probe_put_bits(T &v, const uint64_t *w) {
  static_assert(sizeof(T) <= 8, "vector wider than 64 bits is a VlWide");
  v = static_cast<T>(w[0]);
}
template <std::size_t N>
static inline void probe_put_bits(VlWide<N> &v, const uint64_t *w) {
  static_assert(N <= 2 * XTM_SNAP_WORDS, "more bits than the snapshot has");
  for (std::size_t i = 0; i < N; i++) {
    v[i] = static_cast<uint32_t>(w[i / 2] >> (32 * (i % 2)));
  }
}

#define XTM_PROBE_SIG(name) (r_->xtm_top__DOT__u_core__DOT__##name)
#define XTM_PROBE_T(name)  \
  std::remove_reference_t< \
      decltype(std::declval<Vxtm_top___024root>().xtm_top__DOT__u_core__DOT__##name)>
// the ingress policers sit beside the core, in xtm_top (check p feeds its admission)
#define XTM_PROBE_POL(name) (r_->xtm_top__DOT__u_police__DOT__##name)
#define XTM_PROBE_POL_T(name) \
  std::remove_reference_t<    \
      decltype(std::declval<Vxtm_top___024root>().xtm_top__DOT__u_police__DOT__##name)>

class XtmProbe {
 public:
  static constexpr bool kAvailable = true;
  XtmProbe(Vxtm_top *dut, uint32_t ntcs) : r_(dut->rootp), ntcs_(ntcs) {}
  // the RTL's (port, priority) pairs
  static constexpr uint32_t kPgs = sizeof(XTM_PROBE_T(u_pfc_rx__DOT__qn_q)) / sizeof(uint16_t);

  // per VOQ
  uint32_t occ_cells(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__occ_q)[v]; }
  uint32_t occ_pkts(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__pkts_q)[v]; }
  uint32_t hbm_cells(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__hbmc_q)[v]; }
  bool hbm_mode(uint32_t v) const { return probe_bit(XTM_PROBE_SIG(u_qmgr__DOT__mode_q), v); }
  bool wd_stalled(uint32_t v) const { return probe_bit(XTM_PROBE_SIG(u_wd__DOT__stalled_q), v); }
  int32_t deficit(uint32_t v) const { return sext_def(XTM_PROBE_SIG(u_sched__DOT__def_q)[v]); }
  bool shaper_conform(uint32_t v) const {
    return probe_bit(XTM_PROBE_SIG(u_shaper__DOT__conf_q), v);
  }
  // the watchdog's poll counters: RAM row of the VOQ's port, 144 bits per queue
  // {restore 64, stall 64, clean 8, storm 8} (rtl/xtm/xtm_wd.sv)
  uint32_t wd_storm(uint32_t v) const { return wd_pair(v) & 0xFFu; }
  uint32_t wd_clean(uint32_t v) const { return wd_pair(v) >> 8; }
  // per (port, priority): g = port * 8 + priority
  uint32_t pg_cells(uint32_t g) const { return XTM_PROBE_SIG(u_pfc_tx__DOT__cells_q)[g]; }
  uint32_t hdrm_used(uint32_t g) const { return XTM_PROBE_SIG(u_pfc_tx__DOT__hused_q)[g]; }
  bool xoff(uint32_t g) const { return probe_bit(XTM_PROBE_SIG(u_pfc_tx__DOT__xoff_q), g); }
  // ceil((quanta left x quantum + time left) / 65536), as G_PAUSE_REMAIN (spec 7.2)
  uint64_t pause_remain(uint32_t g) const {
    uint64_t qn = XTM_PROBE_SIG(u_pfc_rx__DOT__qn_q)[g];
    uint64_t ph = XTM_PROBE_SIG(u_pfc_rx__DOT__ph_q)[g];
    return (qn * XTM_PROBE_SIG(u_pfc_rx__DOT__quantum_q)[g / 8] + ph + 0xFFFFu) >> 16;
  }
  // global
  uint32_t pool_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__pool_q); }
  uint32_t ocb_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__ocb_q); }
  uint32_t hbm_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__hbm_q); }
  uint32_t desc_free() const { return XTM_PROBE_SIG(u_bufmgr__DOT__free_q); }
  uint32_t lfsr() const { return XTM_PROBE_SIG(u_admit__DOT__u_lfsr__DOT__state_q); }
  uint32_t lfsr_head() const { return XTM_PROBE_SIG(u_deq__DOT__u_lfsr__DOT__state_q); }
  // per policer k = in_port * 8 + j (spec 4.7): the stored bucket, row {u 64, tok 40} of
  // xtm_police's state RAM (written by the initialisation sweep: compare from INIT_CYCLES),
  // and the counters, row {PASS_PKTS, DROP_BYTES, DROP_PKTS} of its counter RAM behind the
  // row-valid vector (a row not valid is 0)
  uint64_t pol_tok(uint32_t k) const {
    const auto &row = XTM_PROBE_POL(u_state__DOT__mem)[k];
    return row[0] | (uint64_t(row[1]) & 0xFFu) << 32;
  }
  uint64_t pol_u(uint32_t k) const {
    const auto &row = XTM_PROBE_POL(u_state__DOT__mem)[k];
    return (row[1] >> 8) | uint64_t(row[2]) << 24 | (uint64_t(row[3]) & 0xFFu) << 56;
  }
  uint64_t pol_counter(uint32_t k, xtm_polcnt_t c) const {
    if (!probe_bit(XTM_PROBE_POL(cval_q), k)) return 0;
    const auto &row = XTM_PROBE_POL(u_cnt__DOT__mem)[k];
    uint32_t w = 2 * static_cast<uint32_t>(c);
    return row[w] | uint64_t(row[w + 1]) << 32;
  }

  // ---- the expected RTL state in the RTL's representation
  struct Image {
    XTM_PROBE_T(u_qmgr__DOT__occ_q) occ;
    XTM_PROBE_T(u_qmgr__DOT__pkts_q) pkts;
    XTM_PROBE_T(u_qmgr__DOT__hbmc_q) hbmc;
    XTM_PROBE_T(u_sched__DOT__def_q) def;
    XTM_PROBE_T(u_qmgr__DOT__mode_q) mode;
    XTM_PROBE_T(u_wd__DOT__stalled_q) stalled;
    XTM_PROBE_T(u_shaper__DOT__conf_q) conf;
    XTM_PROBE_T(u_pfc_tx__DOT__cells_q) cells;
    XTM_PROBE_T(u_pfc_tx__DOT__hused_q) hused;
    XTM_PROBE_T(u_pfc_tx__DOT__xoff_q) xoff;
    uint32_t rem[kPgs];         // pause_remain(): the RTL holds quanta and time, not cycles
    uint16_t wd[XTM_MAX_VOQS];  // {clean, storm} of the watchdog row, as wd_pair()
    XTM_PROBE_POL_T(u_state__DOT__mem) pol;  // the policers' state RAM rows
  };
  // Entry v / g of the image from the snapshot; false if a model value has no RTL encoding
  // that decodes back to it (the image entry is then left unspecified).
  bool put_voq(Image &im, uint32_t v, const xtm_snap_t &s) const {
    bool ok = put(im.occ[v], s.occ_cells[v]) && put(im.pkts[v], s.occ_pkts[v]) &&
              put(im.hbmc[v], s.hbm_cells[v]);
    uint32_t d = static_cast<uint32_t>(s.deficit[v]) & 0xFFFFFFu;
    ok = ok && sext_def(d) == s.deficit[v] && put(im.def[v], d);
    im.wd[v] = static_cast<uint16_t>(s.wd_storm[v] | s.wd_clean[v] << 8);
    return ok;
  }
  bool put_pg(Image &im, uint32_t g, const xtm_snap_t &s) const {
    return put(im.cells[g], s.pg_cells[g]) && put(im.hused[g], s.hdrm_used[g]) &&
           put(im.rem[g], s.pause_remain[g]);
  }
  // policer k's state row {u 64, tok 40}; false if tok does not fit its 40 bits
  bool put_pol(Image &im, uint32_t k, const xtm_snap_t &s) const {
    uint64_t tok = s.pol_tok[k], u = s.pol_u[k];
    auto &row = im.pol[k];
    row[0] = static_cast<uint32_t>(tok);
    row[1] = static_cast<uint32_t>((tok >> 32) & 0xFFu) | static_cast<uint32_t>(u << 8);
    row[2] = static_cast<uint32_t>(u >> 24);
    row[3] = static_cast<uint32_t>(u >> 56);
    return tok < (1ull << 40);
  }
  // the bit vectors (cheap: a few words), from the snapshot's bit sets
  void put_bits(Image &im, const xtm_snap_t &s) const {
    probe_put_bits(im.mode, s.hbm_mode);
    probe_put_bits(im.stalled, s.wd_stalled);
    probe_put_bits(im.conf, s.shaper_conform);
    probe_put_bits(im.xoff, s.xoff);
  }
  // The live RTL state equals the image (nv VOQs; the watchdog rows and the policer rows,
  // both written by the initialisation sweep, only if with_wd).
  bool matches(const Image &im, uint32_t nv, bool with_wd) const {
    bool same = eq(im.occ, XTM_PROBE_SIG(u_qmgr__DOT__occ_q)) &
                eq(im.pkts, XTM_PROBE_SIG(u_qmgr__DOT__pkts_q)) &
                eq(im.hbmc, XTM_PROBE_SIG(u_qmgr__DOT__hbmc_q)) &
                eq(im.def, XTM_PROBE_SIG(u_sched__DOT__def_q)) &
                eq(im.mode, XTM_PROBE_SIG(u_qmgr__DOT__mode_q)) &
                eq(im.stalled, XTM_PROBE_SIG(u_wd__DOT__stalled_q)) &
                eq(im.conf, XTM_PROBE_SIG(u_shaper__DOT__conf_q)) &
                eq(im.cells, XTM_PROBE_SIG(u_pfc_tx__DOT__cells_q)) &
                eq(im.hused, XTM_PROBE_SIG(u_pfc_tx__DOT__hused_q)) &
                eq(im.xoff, XTM_PROBE_SIG(u_pfc_tx__DOT__xoff_q));
    uint64_t rdiff = 0;
    for (uint32_t g = 0; g < kPgs; g++) {
      rdiff |= pause_remain(g) ^ im.rem[g];
    }
    same = same && rdiff == 0;
    if (same && with_wd) {
      uint32_t diff = 0;
      const auto &rows = XTM_PROBE_SIG(u_wd__DOT__u_rows__DOT__mem);
      if (ntcs_ % 2 == 0) {
        // queues 2k and 2k+1 at bits 288 k and 288 k + 144: the low half of word 9 k and
        // the high half of word 9 k + 4, i.e. im.wd[v] and im.wd[v + 1] as one 32-bit word
        for (uint32_t p = 0, v = 0; v < nv; p++) {
          const auto &row = rows[p];
          for (uint32_t k = 0; k < ntcs_ / 2; k++, v += 2) {
            uint32_t want;
            static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pairs read as one word");
            std::memcpy(&want, &im.wd[v], sizeof(want));
            diff |= ((row[9 * k] & 0xFFFFu) | (row[9 * k + 4] & 0xFFFF0000u)) ^ want;
          }
        }
      } else {
        for (uint32_t p = 0, v = 0; v < nv; p++) {
          const auto &row = rows[p];
          for (uint32_t q = 0; q < ntcs_; q++, v++) {
            uint32_t h = 9 * q;  // 16-bit half-word of {clean, storm}: bit 144 q
            diff |= ((row[h / 2] >> (16 * (h % 2))) & 0xFFFFu) ^ im.wd[v];
          }
        }
      }
      same = diff == 0 && eq(im.pol, XTM_PROBE_POL(u_state__DOT__mem));
    }
    return same;
  }

  // corrupts the image's occupancy of VOQ v (+state_fault=image:v:c: a negative test of the
  // check that the fast and the detailed comparison agree)
  static void corrupt(Image &im, uint32_t v) { im.occ[v] ^= 1u; }

  // ---- fault injection: flips bit 0 of one field of VOQ/PG i (index ignored for the global
  // fields); false if the name is unknown. fault_kind(): which index a field takes.
  enum FaultKind { kFaultUnknown, kFaultVoq, kFaultPg, kFaultGlobal, kFaultPol };
  static FaultKind fault_kind(const std::string &f) {
    if (f == "pol_tok" || f == "pol_u") return kFaultPol;
    static const char *const kVoq[] = {"occ_cells",      "occ_pkts",   "hbm_cells",
                                       "hbm_mode",       "wd_stalled", "deficit",
                                       "shaper_conform", "wd_storm",   "wd_clean"};
    static const char *const kPg[] = {"pg_cells", "hdrm_used", "xoff", "pause_remain"};
    static const char *const kGlobal[] = {"pool_used", "ocb_used", "hbm_used",
                                          "desc_free", "lfsr",     "lfsr_head"};
    for (const char *n : kVoq)
      if (f == n) return kFaultVoq;
    for (const char *n : kPg)
      if (f == n) return kFaultPg;
    for (const char *n : kGlobal)
      if (f == n) return kFaultGlobal;
    return kFaultUnknown;
  }
  bool flip(const std::string &f, uint32_t i) {
    if (f == "occ_cells")
      probe_flip(XTM_PROBE_SIG(u_qmgr__DOT__occ_q)[i], 0);
    else if (f == "occ_pkts")
      probe_flip(XTM_PROBE_SIG(u_qmgr__DOT__pkts_q)[i], 0);
    else if (f == "hbm_cells")
      probe_flip(XTM_PROBE_SIG(u_qmgr__DOT__hbmc_q)[i], 0);
    else if (f == "hbm_mode")
      probe_flip(XTM_PROBE_SIG(u_qmgr__DOT__mode_q), i);
    else if (f == "wd_stalled")
      probe_flip(XTM_PROBE_SIG(u_wd__DOT__stalled_q), i);
    else if (f == "deficit")
      probe_flip(XTM_PROBE_SIG(u_sched__DOT__def_q)[i], 0);
    else if (f == "shaper_conform")
      probe_flip(XTM_PROBE_SIG(u_shaper__DOT__conf_q), i);
    else if (f == "wd_storm")
      probe_flip(XTM_PROBE_SIG(u_wd__DOT__u_rows__DOT__mem)[i / ntcs_], 144 * (i % ntcs_));
    else if (f == "wd_clean")
      probe_flip(XTM_PROBE_SIG(u_wd__DOT__u_rows__DOT__mem)[i / ntcs_], 144 * (i % ntcs_) + 8);
    else if (f == "pg_cells")
      probe_flip(XTM_PROBE_SIG(u_pfc_tx__DOT__cells_q)[i], 0);
    else if (f == "hdrm_used")
      probe_flip(XTM_PROBE_SIG(u_pfc_tx__DOT__hused_q)[i], 0);
    else if (f == "xoff")
      probe_flip(XTM_PROBE_SIG(u_pfc_tx__DOT__xoff_q), i);
    else if (f == "pause_remain")  // one cycle more or less of the current quantum's time
      probe_flip(XTM_PROBE_SIG(u_pfc_rx__DOT__ph_q)[i], 16);
    else if (f == "pool_used")
      probe_flip(XTM_PROBE_SIG(u_bufmgr__DOT__pool_q), 0);
    else if (f == "ocb_used")
      probe_flip(XTM_PROBE_SIG(u_bufmgr__DOT__ocb_q), 0);
    else if (f == "hbm_used")
      probe_flip(XTM_PROBE_SIG(u_bufmgr__DOT__hbm_q), 0);
    else if (f == "desc_free")
      probe_flip(XTM_PROBE_SIG(u_bufmgr__DOT__free_q), 0);
    else if (f == "lfsr")
      probe_flip(XTM_PROBE_SIG(u_admit__DOT__u_lfsr__DOT__state_q), 0);
    else if (f == "lfsr_head")
      probe_flip(XTM_PROBE_SIG(u_deq__DOT__u_lfsr__DOT__state_q), 0);
    else if (f == "pol_tok")  // one byte of tokens (POL_TOKENS shows it)
      probe_flip(XTM_PROBE_POL(u_state__DOT__mem)[i], 16);
    else if (f == "pol_u")
      probe_flip(XTM_PROBE_POL(u_state__DOT__mem)[i], 40);
    else
      return false;
    return true;
  }

 private:
  static int32_t sext_def(uint32_t raw) { return static_cast<int32_t>(raw << 8) >> 8; }
  // the {clean, storm} half-word of VOQ v's watchdog row (8-bit fields never straddle words)
  uint32_t wd_pair(uint32_t v) const {
    const auto &row = XTM_PROBE_SIG(u_wd__DOT__u_rows__DOT__mem)[v / ntcs_];
    uint32_t bit = 144 * (v % ntcs_);
    return (row[bit / 32] >> (bit % 32)) & 0xFFFFu;
  }
  // stores x if the element type holds it unchanged
  template <class E, class X>
  static bool put(E &e, X x) {
    e = static_cast<E>(x);
    return static_cast<X>(e) == x;
  }
  template <class T>
  static bool eq(const T &a, const T &b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
  Vxtm_top___024root *r_;
  uint32_t ntcs_;
};
#undef XTM_PROBE_SIG
#undef XTM_PROBE_T

#else  // XTM_TB_NETLIST

class Vxtm_top;
class XtmProbe {
 public:
  static constexpr bool kAvailable = false;
  XtmProbe(Vxtm_top *, uint32_t) {}
  uint32_t occ_cells(uint32_t) const { return 0; }
  uint32_t occ_pkts(uint32_t) const { return 0; }
  uint32_t hbm_cells(uint32_t) const { return 0; }
  bool hbm_mode(uint32_t) const { return false; }
  bool wd_stalled(uint32_t) const { return false; }
  int32_t deficit(uint32_t) const { return 0; }
  bool shaper_conform(uint32_t) const { return false; }
  uint32_t wd_storm(uint32_t) const { return 0; }
  uint32_t wd_clean(uint32_t) const { return 0; }
  uint32_t pg_cells(uint32_t) const { return 0; }
  uint32_t hdrm_used(uint32_t) const { return 0; }
  bool xoff(uint32_t) const { return false; }
  uint64_t pause_remain(uint32_t) const { return 0; }
  uint32_t pool_used() const { return 0; }
  uint32_t ocb_used() const { return 0; }
  uint32_t hbm_used() const { return 0; }
  uint32_t desc_free() const { return 0; }
  uint32_t lfsr() const { return 0; }
  uint32_t lfsr_head() const { return 0; }
  uint64_t pol_tok(uint32_t) const { return 0; }
  uint64_t pol_u(uint32_t) const { return 0; }
  uint64_t pol_counter(uint32_t, xtm_polcnt_t) const { return 0; }
  struct Image {};
  bool put_voq(Image &, uint32_t, const xtm_snap_t &) const { return true; }
  bool put_pg(Image &, uint32_t, const xtm_snap_t &) const { return true; }
  bool put_pol(Image &, uint32_t, const xtm_snap_t &) const { return true; }
  void put_bits(Image &, const xtm_snap_t &) const {}
  bool matches(const Image &, uint32_t, bool) const { return true; }
  enum FaultKind { kFaultUnknown, kFaultVoq, kFaultPg, kFaultGlobal, kFaultPol };
  static FaultKind fault_kind(const std::string &) { return kFaultUnknown; }
  static void corrupt(Image &, uint32_t) {}
  bool flip(const std::string &, uint32_t) { return false; }
};

#endif  // XTM_TB_NETLIST

#endif  // XTM_TB_XTM_PROBE_H_
