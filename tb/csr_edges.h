// SPDX-License-Identifier: Apache-2.0
//
// The csr_edges stimulus and its checker, shared by the xtm and dcqcn co-simulations
// (issue 21). The rows come from the generated table rtl/<blk>/autogen/<blk>_csr_edges.h
// (every field with a legal range in the TOML), the values from <blk>_regs_build() for the
// configuration under test. For each field: min-1 (when min > 0), min, max and max+1 (when
// it fits the field), each as
//   write ERR_STATUS <- all ones (clear), write the register (other fields at reset),
//   read the register, read ERR_STATUS, read ERR_ADDR,
// and each read is checked against the rule of spec 3 / spec-dcqcn D9 (a write with a field
// outside its range is ignored as a whole, sets ERR_STATUS.ILLEGAL and ERR_ADDR): the field
// reads back the value written when legal and the value before otherwise, ERR_STATUS is
// exactly ILLEGAL or 0, ERR_ADDR is this write's address or unchanged. The lockstep
// comparison with the C model runs as in every test; these checks hold even where model
// and RTL would agree on a wrong answer.

#ifndef XTM_TB_CSR_EDGES_H_
#define XTM_TB_CSR_EDGES_H_

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <string>
#include <vector>

struct CsrEdgeOp {
  bool write;
  uint16_t addr;
  uint32_t wdata;
};

// Desc/Field: <blk>_reg_desc_t / <blk>_reg_field_t; Edge: <blk>_csr_edge_t.
template <class Desc, class Edge>
class CsrEdgeChecker {
 public:
  // select(window) returns the accesses that select the last entry of that window.
  void build(const std::vector<Desc> &regs, const Edge *edges, uint32_t n, uint16_t err_status,
             uint16_t err_addr, uint32_t illegal, uint32_t clear_all,
             const std::function<std::vector<CsrEdgeOp>(int)> &select) {
    regs_ = regs;
    edges_ = edges;
    n_ = n;
    illegal_ = illegal;
    rdx(err_addr, {kErrAddrBase, 0, 0, false, 0, 0});
    for (uint32_t e = 0; e < n; e++) {
      const Desc &d = regs_[edges[e].reg];
      const auto &f = d.fields[edges[e].field];
      uint32_t mask = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
      std::vector<uint32_t> vals;
      if (edges[e].has_min && f.min > 0) vals.push_back(f.min - 1);
      vals.push_back(f.min);
      if (f.max != f.min) vals.push_back(f.max);
      if (edges[e].has_max && f.max < mask) vals.push_back(f.max + 1);
      if (d.window >= 0) {
        for (const CsrEdgeOp &op : select(d.window)) ops.push_back(op);
      }
      rdx(d.offset, {kBase, e, 0, false, 0, 0});
      for (uint32_t v : vals) {
        bool legal = v >= f.min && v <= f.max;
        uint32_t w = (d.resval & ~(mask << f.lsb)) | (v << f.lsb);
        ops.push_back({true, err_status, clear_all});
        ops.push_back({true, d.offset, w});
        rdx(d.offset, {kValue, e, v, legal, 0, 0});
        rdx(err_status, {kErrStatus, e, v, legal, 0, 0});
        rdx(err_addr, {kErrAddr, e, v, legal, d.offset, 0});
        if (v + 1 == f.min)
          kinds_[0]++;
        else if (v == f.min)
          kinds_[1]++;
        else if (v == f.max)
          kinds_[2]++;
        else
          kinds_[3]++;
      }
      hits_.push_back(0);
      want_.push_back(uint32_t(vals.size()));
    }
    ops.push_back({true, err_status, clear_all});
  }
  // One completed read, in issue order.
  void result(uint64_t t, uint16_t addr, uint32_t rdata) {
    if (exp_.empty()) return;
    Exp x = exp_.front();
    exp_.pop_front();
    done_++;
    if (x.addr != addr) {
      fail(t, "read order", addr, x.addr, rdata, UINT32_MAX, 0);
      return;
    }
    if (x.kind == kErrAddrBase) {
      err_addr_ = rdata & 0xFFFFu;
      return;
    }
    const auto &f = regs_[edges_[x.edge].reg].fields[edges_[x.edge].field];
    uint32_t mask = f.width >= 32 ? 0xFFFFFFFFu : (1u << f.width) - 1u;
    uint32_t fv = (rdata >> f.lsb) & mask;
    switch (x.kind) {
      case kBase:
        cur_ = fv;
        break;
      case kValue:
        if (x.legal) cur_ = x.v;
        if (fv != cur_) fail(t, "field value", addr, cur_, fv, x.edge, x.v);
        break;
      case kErrStatus: {
        uint32_t want = x.legal ? 0u : illegal_;
        if (rdata != want) fail(t, "ERR_STATUS", addr, want, rdata, x.edge, x.v);
        break;
      }
      case kErrAddr:
        if (!x.legal) err_addr_ = x.err_addr;
        if ((rdata & 0xFFFFu) != err_addr_) {
          fail(t, "ERR_ADDR", addr, err_addr_, rdata, x.edge, x.v);
        } else {
          hits_[x.edge]++;
        }
        break;
      default:
        break;
    }
  }
  // Prints the summary line; true when every read was checked and every edge passed.
  bool final_check(const char *blk) {
    uint32_t full = 0;
    for (size_t e = 0; e < hits_.size(); e++) full += hits_[e] == want_[e];
    printf(
        "csr_edges: %s: %u fields, %u with every edge checked (min-1 %u, min %u, max %u, "
        "max+1 %u writes), %" PRIu64 " of %" PRIu64 " reads checked, %" PRIu64 " failures\n",
        blk, n_, full, kinds_[0], kinds_[1], kinds_[2], kinds_[3], done_, total_, fails_);
    if (done_ != total_) {
      printf("FAILURE: csr_edges: %" PRIu64 " of %" PRIu64 " reads done: raise +cycles\n", done_,
             total_);
    }
    return fails_ == 0 && done_ == total_ && full == n_;
  }
  // Functional coverage lines `<prefix><REG>_<FIELD>: 0|1` (1: every edge of the field
  // written and checked), which tools/regress adds to the nightly's table.
  void print_points(const char *prefix) const {
    for (uint32_t e = 0; e < n_ && e < hits_.size(); e++) {
      const Desc &d = regs_[edges_[e].reg];
      printf("%s%s_%s: %u\n", prefix, d.name, d.fields[edges_[e].field].name,
             hits_[e] == want_[e] ? 1u : 0u);
    }
  }
  std::vector<CsrEdgeOp> ops;  // the stimulus, in order

 private:
  enum Kind { kErrAddrBase, kBase, kValue, kErrStatus, kErrAddr };
  struct Exp {
    Kind kind;
    uint32_t edge;
    uint32_t v;
    bool legal;
    uint16_t err_addr;
    uint16_t addr;
  };
  void rdx(uint16_t a, Exp x) {
    x.addr = a;
    ops.push_back({false, a, 0});
    exp_.push_back(x);
    total_++;
  }
  void fail(uint64_t t, const char *what, uint16_t addr, uint32_t want, uint32_t got, uint32_t edge,
            uint32_t v) {
    if (fails_++ < 10) {
      std::string nm = "-";
      if (edge != UINT32_MAX) {
        nm = std::string(regs_[edges_[edge].reg].name) + "." +
             regs_[edges_[edge].reg].fields[edges_[edge].field].name;
      }
      printf("FAILURE: csr_edges: cycle %" PRIu64
             ": %s after writing %s = 0x%x: read 0x%04x "
             "expected 0x%x, got 0x%x\n",
             t, what, nm.c_str(), v, addr, want, got);
    }
  }
  std::vector<Desc> regs_;
  const Edge *edges_ = nullptr;
  uint32_t n_ = 0, illegal_ = 0, cur_ = 0, err_addr_ = 0;
  uint32_t kinds_[4] = {0, 0, 0, 0};
  std::deque<Exp> exp_;
  std::vector<uint32_t> hits_, want_;
  uint64_t done_ = 0, total_ = 0, fails_ = 0;
};

#endif  // XTM_TB_CSR_EDGES_H_
