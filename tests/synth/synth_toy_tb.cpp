// SPDX-License-Identifier: Apache-2.0
//
// Lockstep of tests/synth/synth_toy.sv (the RTL, Verilated with prefix Vrtl) against its
// synthesized netlist (Vgls: gates.v with the Liberty cell models, or coarse.v with Yosys'
// simlib.v; RAM wrappers bound to the behavioural rtl/common models). Both get the same
// seeded random inputs every cycle; every output is compared every cycle. The first
// mismatch prints
//   FAILURE: netlist mismatch at cycle <n>: <output> rtl 0x.. netlist 0x..
// and the run exits 1. Used by tests/synth/test_signoff.sh (and its negative test: the
// toy with an unpacked array of a package struct must fail here when the flip-flop check
// is skipped).
//
// Usage: synth_toy_tb [seed] [cycles]

#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "Vgls.h"
#include "Vrtl.h"

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class A, class B>
static void drive(A *a, B *b, bool valid, uint32_t rec, bool ready, uint32_t addr) {
  a->in_valid_i = b->in_valid_i = valid;
  a->in_rec_i = b->in_rec_i = rec;
  a->out_ready_i = b->out_ready_i = ready;
  a->ram_addr_i = b->ram_addr_i = addr;
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 0) : 1;
  uint64_t cycles = argc > 2 ? strtoull(argv[2], nullptr, 0) : 20000;
  printf("seed: %" PRIu64 "\nreproduce: %s %" PRIu64 " %" PRIu64 "\n", seed, argv[0], seed, cycles);
  auto *ctx = new VerilatedContext;
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed));
  auto *rtl = new Vrtl{ctx, "rtl"};
  auto *gls = new Vgls{ctx, "gls"};
  uint64_t rs = seed;
  // asynchronous reset, then two clocks
  rtl->clk_i = gls->clk_i = 0;
  rtl->rst_ni = gls->rst_ni = 1;
  drive(rtl, gls, false, 0, false, 0);
  rtl->eval();
  gls->eval();
  rtl->rst_ni = gls->rst_ni = 0;
  rtl->eval();
  gls->eval();
  for (int i = 0; i < 2; i++) {
    rtl->clk_i = gls->clk_i = 1;
    rtl->eval();
    gls->eval();
    rtl->clk_i = gls->clk_i = 0;
    rtl->eval();
    gls->eval();
  }
  rtl->rst_ni = gls->rst_ni = 1;
  rtl->eval();
  gls->eval();
  // the RAM contents are not reset (random in each model): compare the read ports once
  // every row of both RAMs has been written (each valid input writes row in_rec.tag)
  uint32_t written = 0;
  bool all_written = false;  // every row written before the last read
  uint64_t errors = 0, pops = 0;
  for (uint64_t c = 0; c < cycles && errors == 0; c++) {
    uint64_t r = splitmix(&rs);
    bool valid = (r & 3) != 0;
    uint32_t rec = static_cast<uint32_t>((r >> 8) & 0xFFF);
    bool ready = ((r >> 20) & 3) != 0;
    uint32_t addr = static_cast<uint32_t>((r >> 24) & 0xF);
    drive(rtl, gls, valid, rec, ready, addr);
    rtl->eval();
    gls->eval();
    struct {
      const char *name;
      uint64_t a, b;
      bool use;
    } o[] = {
        {"out_valid_o", rtl->out_valid_o, gls->out_valid_o, true},
        {"out_rec_o", rtl->out_rec_o, gls->out_rec_o, true},
        {"sum_o", rtl->sum_o, gls->sum_o, pops > 1},
        {"state_o", rtl->state_o, gls->state_o, true},
        {"ram_a_o", rtl->ram_a_o, gls->ram_a_o, all_written},
        // port A writes the low nibble only (wmask 0x0f): the high one is never written
        {"ram_b_o[3:0]", rtl->ram_b_o & 0xFu, gls->ram_b_o & 0xFu, all_written},
        {"lane_o", rtl->lane_o, gls->lane_o, true},
    };
    for (auto &x : o) {
      if (x.use && x.a != x.b) {
        printf("FAILURE: netlist mismatch at cycle %" PRIu64 ": %s rtl 0x%" PRIx64
               " netlist 0x%" PRIx64 "\n",
               c, x.name, x.a, x.b);
        errors++;
      }
    }
    if (rtl->out_valid_o) pops++;
    rtl->clk_i = gls->clk_i = 1;
    rtl->eval();
    gls->eval();
    rtl->clk_i = gls->clk_i = 0;
    all_written = written == 0xFFFFu;
    if (valid) written |= 1u << ((rec >> 8) & 0xF);  // row in_rec.tag of both RAMs
  }
  printf("cycles: %" PRIu64 "\npops: %" PRIu64 "\nmismatches: %" PRIu64 "\n", cycles, pops, errors);
  printf("%s\n", errors == 0 ? "TEST PASSED CHECKS" : "TEST FAILED CHECKS");
  rtl->final();
  gls->final();
  delete rtl;
  delete gls;
  delete ctx;
  return errors == 0 ? 0 : 1;
}
