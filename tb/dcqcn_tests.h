// SPDX-License-Identifier: Apache-2.0
//
// DCQCN co-simulation tests (tb/dcqcn_tb.cpp). A test produces the inputs of every cycle
// (CNP, tx, CE) and a queue of CSR accesses (driven over APB: setup, access, wait states
// until the completion, docs/spec-dcqcn.md D9.1), may look at the C model to aim an input at
// a timer firing, and checks at the end that its scenario really happened (the comparison
// with the model is the testbench's job). Tests work for any NumQps (64 and 1024 are built).

#ifndef XTM_TB_DCQCN_TESTS_H_
#define XTM_TB_DCQCN_TESTS_H_

#include <cstdint>
#include <deque>
#include <string>

extern "C" {
#include "cmodel/dcqcn/dcqcn.h"
}

struct DcqcnCsrOp {
  bool write;
  uint16_t addr;
  uint32_t wdata;
};

struct DcqcnTbOptions {
  std::string test = "smoke";
  uint64_t seed = 1;
  uint64_t cycles = 0;  // 0: the test's default
  bool trace = false;
  uint64_t trace_start = 0;
  uint64_t state_every = 997;
  uint64_t max_errors = 1;
  std::string out;
  bool eager = false;
  int debug_qp = -1;  // run the model in eager mode (default: the skipping fast path)
};

class DcqcnTest {
 public:
  virtual ~DcqcnTest() = default;
  virtual uint64_t default_cycles() const { return 200000; }
  // Inputs of cycle `cycle` (in is zeroed by the caller); m is the model before the cycle.
  virtual void stimulus(uint64_t cycle, const dcqcn_t *m, dcqcn_in_t &in) = 0;
  virtual void observe(uint64_t cycle, const dcqcn_in_t &in, const dcqcn_out_t &out) {
    (void)cycle;
    (void)in;
    (void)out;
  }
  // The model's response to a CSR access of `csr` (its access cycle), in issue order.
  virtual void csr_result(uint64_t cycle, const DcqcnCsrOp &op, uint32_t rdata) {
    (void)cycle;
    (void)op;
    (void)rdata;
  }
  // True when the scenario happened; *why otherwise.
  virtual bool final_check(const dcqcn_t *m, std::string *why) {
    (void)m;
    (void)why;
    return true;
  }
  std::deque<DcqcnCsrOp> csr;  // pending CSR accesses, in order
  std::string name;
  uint64_t seed = 1;
  uint32_t nqps = 64;
};

DcqcnTest *dcqcn_make_test(const std::string &name, uint64_t seed, uint32_t nqps);
void dcqcn_list_tests();

#endif  // XTM_TB_DCQCN_TESTS_H_
