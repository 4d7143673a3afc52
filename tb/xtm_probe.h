// SPDX-License-Identifier: Apache-2.0
//
// XtmProbe: the one place the testbench reads the RTL's internal state (docs/spec.md
// section 12 quantities, for the per-cycle state comparison). It names the RTL registers
// (marked `verilator public_flat_rd` in rtl/xtm) as Verilator mangles them; nothing else in
// tb/ knows the RTL hierarchy. After the clock edge of physical cycle c the registers hold
// S(c - 3), the state after logical cycle c - 4 (the commit stage is physical t + 4).
//
// A gate-level netlist has no such names: build with -DXTM_TB_NETLIST and the probe is
// absent (XtmProbe::kAvailable false; the state comparison is off).

#ifndef XTM_TB_XTM_PROBE_H_
#define XTM_TB_XTM_PROBE_H_

#include <cstdint>

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

#define XTM_PROBE_SIG(name) (r_->xtm_top__DOT__u_core__DOT__##name)

class XtmProbe {
 public:
  static constexpr bool kAvailable = true;
  XtmProbe(Vxtm_top *dut, uint32_t ntcs) : r_(dut->rootp), ntcs_(ntcs) {}

  // per VOQ
  uint32_t occ_cells(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__occ_q)[v]; }
  uint32_t occ_pkts(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__pkts_q)[v]; }
  uint32_t hbm_cells(uint32_t v) const { return XTM_PROBE_SIG(u_qmgr__DOT__hbmc_q)[v]; }
  bool hbm_mode(uint32_t v) const { return probe_bit(XTM_PROBE_SIG(u_qmgr__DOT__mode_q), v); }
  bool wd_stalled(uint32_t v) const {
    return probe_bit(XTM_PROBE_SIG(u_wd__DOT__stalled_q), v);
  }
  int32_t deficit(uint32_t v) const {
    return static_cast<int32_t>(XTM_PROBE_SIG(u_sched__DOT__def_q)[v] << 8) >> 8;
  }
  bool shaper_conform(uint32_t v) const {
    return probe_bit(XTM_PROBE_SIG(u_shaper__DOT__conf_q), v);
  }
  // the watchdog's poll counters: RAM row of the VOQ's port, 144 bits per queue
  // {restore 64, stall 64, clean 8, storm 8} (rtl/xtm/xtm_wd.sv)
  uint32_t wd_storm(uint32_t v) const { return wd_field(v, 0); }
  uint32_t wd_clean(uint32_t v) const { return wd_field(v, 8); }
  // per (port, priority): g = port * 8 + priority
  uint32_t pg_cells(uint32_t g) const { return XTM_PROBE_SIG(u_pfc_tx__DOT__cells_q)[g]; }
  uint32_t hdrm_used(uint32_t g) const { return XTM_PROBE_SIG(u_pfc_tx__DOT__hused_q)[g]; }
  bool xoff(uint32_t g) const { return probe_bit(XTM_PROBE_SIG(u_pfc_tx__DOT__xoff_q), g); }
  uint64_t pause_remain(uint32_t g) const { return XTM_PROBE_SIG(u_pfc_rx__DOT__rem_q)[g]; }
  // global
  uint32_t pool_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__pool_q); }
  uint32_t ocb_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__ocb_q); }
  uint32_t hbm_used() const { return XTM_PROBE_SIG(u_bufmgr__DOT__hbm_q); }
  uint32_t desc_free() const { return XTM_PROBE_SIG(u_bufmgr__DOT__free_q); }
  uint32_t lfsr() const { return XTM_PROBE_SIG(u_admit__DOT__u_lfsr__DOT__state_q); }
  uint32_t lfsr_head() const { return XTM_PROBE_SIG(u_deq__DOT__u_lfsr__DOT__state_q); }

 private:
  uint32_t wd_field(uint32_t v, uint32_t off) const {
    const auto &row = XTM_PROBE_SIG(u_wd__DOT__u_rows__DOT__mem)[v / ntcs_];
    uint32_t bit = 144 * (v % ntcs_) + off;
    return (row[bit / 32] >> (bit % 32)) & 0xFFu;  // 8-bit fields never straddle words here
  }
  const Vxtm_top___024root *r_;
  uint32_t ntcs_;
};
#undef XTM_PROBE_SIG

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
};

#endif  // XTM_TB_NETLIST

#endif  // XTM_TB_XTM_PROBE_H_
