// SPDX-License-Identifier: Apache-2.0
//
// xtm_reset() is rst_ni (spec 3): a model that ran traffic, configuration and CSR traffic
// and was then reset must be indistinguishable from a freshly created one. The fuzzers
// (tests/fuzz) reuse one model per input through xtm_reset, and the co-simulation resets
// the C model with the RTL, so a state reset forgets would make both report nonsense.
// The check drives the reset model and a fresh one with the same random inputs and compares
// every output of every cycle, the introspected state and every counter; a fault injected
// into the reset model must make the comparison fail (the checker's negative test).
// Each case prints its seed; XTM_SEED=<n> reruns one seed.

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/xtm_testlib.h"

enum { kPorts = 4, kTcs = 4, kDesc = 256, kBefore = 20000, kAfter = 20000, kStateEvery = 97 };

// One cycle of random inputs: enqueues most cycles (some malformed), PFC frames, MAC
// back-pressure and CSR accesses anywhere in the map (legal or not: both sides see the
// same, and illegal ones must be counted identically).
static void random_in(uint64_t *rng, xtm_in_t *in) {
  memset(in, 0, sizeof(*in));
  uint64_t r = tl_rand(rng);
  if (r % 4 != 0) {
    in->enq.valid = true;
    in->enq.pkt_id = (uint32_t)tl_rand(rng);
    in->enq.in_port = (uint8_t)(tl_rand(rng) % kPorts);
    in->enq.eg_port = (uint8_t)(tl_rand(rng) % (kPorts + 1));  // now and then a bad port
    in->enq.dscp = (uint8_t)(tl_rand(rng) % 64);
    in->enq.ecn = (uint8_t)(tl_rand(rng) % 4);
    in->enq.len = (uint16_t)(tl_rand(rng) % 9300);  // 0 and above the maximum now and then
  }
  if ((r >> 8) % 16 == 0) {
    uint32_t p = (uint32_t)(tl_rand(rng) % kPorts);
    in->pfc_rx_valid = 1ull << p;
    in->pfc_rx[p].vec = (uint8_t)tl_rand(rng);
    for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
      in->pfc_rx[p].quanta[i] = (uint16_t)(tl_rand(rng) % 3 == 0 ? 0 : tl_rand(rng) % 2000);
    }
  }
  in->tx_ready = ((r >> 16) % 8 == 0) ? tl_rand(rng) : ~0ull;
  if ((r >> 24) % 8 == 0) {
    in->csr.valid = true;
    in->csr.write = ((r >> 32) % 3) == 0;
    in->csr.addr = (uint16_t)(tl_rand(rng) & 0x1ffc);
    in->csr.wdata = (uint32_t)tl_rand(rng);
  }
}

// The first difference between two cycles' outputs, or NULL.
static const char *out_diff(const xtm_out_t *a, const xtm_out_t *b) {
  if (a->cycle != b->cycle) return "cycle";
  if (a->enq_res.valid != b->enq_res.valid) return "enq_res.valid";
  if (a->enq_res.valid &&
      (a->enq_res.pkt_id != b->enq_res.pkt_id || a->enq_res.voq != b->enq_res.voq ||
       a->enq_res.reason != b->enq_res.reason || a->enq_res.marked != b->enq_res.marked ||
       a->enq_res.hdrm != b->enq_res.hdrm || a->enq_res.hbm != b->enq_res.hbm)) {
    return "enq_res";
  }
  if (a->flush.valid != b->flush.valid) return "flush.valid";
  if (a->flush.valid && (a->flush.pkt_id != b->flush.pkt_id || a->flush.voq != b->flush.voq)) {
    return "flush";
  }
  if (a->deq_valid != b->deq_valid) return "deq_valid";
  for (uint32_t p = 0; p < kPorts; p++) {
    if (!(a->deq_valid >> p & 1)) continue;
    const xtm_deq_out_t *x = &a->deq[p], *y = &b->deq[p];
    if (x->pkt_id != y->pkt_id || x->voq != y->voq || x->in_port != y->in_port ||
        x->len != y->len || x->dscp != y->dscp || x->ecn != y->ecn || x->marked != y->marked ||
        x->hbm != y->hbm || x->sojourn != y->sojourn) {
      return "deq";
    }
  }
  if (a->pfc_tx_valid != b->pfc_tx_valid) return "pfc_tx_valid";
  for (uint32_t p = 0; p < kPorts; p++) {
    if (!(a->pfc_tx_valid >> p & 1)) continue;
    if (a->pfc_tx[p].vec != b->pfc_tx[p].vec ||
        memcmp(a->pfc_tx[p].quanta, b->pfc_tx[p].quanta, sizeof(a->pfc_tx[p].quanta)) != 0) {
      return "pfc_tx";
    }
  }
  if (a->csr_rsp.valid != b->csr_rsp.valid) return "csr_rsp.valid";
  if (a->csr_rsp.valid &&
      (a->csr_rsp.err != b->csr_rsp.err || a->csr_rsp.rdata != b->csr_rsp.rdata)) {
    return "csr_rsp";
  }
  return NULL;
}

// The first difference of introspected state and counters, or NULL.
static const char *state_diff(const xtm_t *a, const xtm_t *b) {
  xtm_global_state_t ga, gb;
  xtm_global_state(a, &ga);
  xtm_global_state(b, &gb);
  if (ga.pool_used != gb.pool_used || ga.ocb_used != gb.ocb_used || ga.hbm_used != gb.hbm_used ||
      ga.desc_free != gb.desc_free || ga.lfsr != gb.lfsr || ga.cycle != gb.cycle ||
      ga.lfsr_head != gb.lfsr_head) {
    return "global state";
  }
  for (uint32_t q = 0; q < kPorts * kTcs; q++) {
    xtm_voq_state_t va, vb;
    xtm_voq_state(a, q, &va);
    xtm_voq_state(b, q, &vb);
    if (va.occ_cells != vb.occ_cells || va.occ_pkts != vb.occ_pkts ||
        va.hbm_cells != vb.hbm_cells || va.hbm_mode != vb.hbm_mode || va.ocb_only != vb.ocb_only ||
        va.wd_stalled != vb.wd_stalled || va.flushing != vb.flushing || va.deficit != vb.deficit ||
        (va.occ_pkts > 0 && va.head_pkt_id != vb.head_pkt_id) ||
        va.shaper_conform != vb.shaper_conform || va.wd_storm != vb.wd_storm ||
        va.wd_clean != vb.wd_clean) {
      return "VOQ state";
    }
    for (int c = 0; c < kXtmVcntCount; c++) {
      if (xtm_voq_counter(a, q, (xtm_vcnt_t)c) != xtm_voq_counter(b, q, (xtm_vcnt_t)c)) {
        return "VOQ counter";
      }
    }
  }
  for (uint32_t p = 0; p < kPorts; p++) {
    for (uint32_t i = 0; i < XTM_NUM_PRIOS; i++) {
      xtm_pg_state_t pa, pb;
      xtm_pg_state(a, p, i, &pa);
      xtm_pg_state(b, p, i, &pb);
      if (pa.pg_cells != pb.pg_cells || pa.hdrm_used != pb.hdrm_used || pa.xoff != pb.xoff ||
          pa.pause_remain != pb.pause_remain) {
        return "PG state";
      }
      for (int c = 0; c < kXtmGcntCount; c++) {
        if (xtm_pg_counter(a, p, i, (xtm_gcnt_t)c) != xtm_pg_counter(b, p, i, (xtm_gcnt_t)c)) {
          return "PG counter";
        }
      }
    }
    for (int c = 0; c < kXtmPcntCount; c++) {
      if (xtm_port_counter(a, p, (xtm_pcnt_t)c) != xtm_port_counter(b, p, (xtm_pcnt_t)c)) {
        return "port counter";
      }
    }
  }
  for (int c = 0; c < kXtmEcntCount; c++) {
    if (xtm_global_counter(a, (xtm_ecnt_t)c) != xtm_global_counter(b, (xtm_ecnt_t)c)) {
      return "global counter";
    }
  }
  return NULL;
}

static xtm_t *create(void) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = kPorts;
  p.num_tcs = kTcs;
  p.num_desc = kDesc;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
  return m;
}

// A configuration far from reset: ECN profiles, thresholds, PFC, shapers, watchdog.
static void configure(xtm_t *m, uint64_t *rng) {
  for (uint32_t q = 0; q < kPorts * kTcs; q++) {
    tl_voq_wr(m, q, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(q % 3 == 0, q % 2 == 0, true, false, (uint32_t)(tl_rand(rng) % 3), q % 4));
  }
  for (uint32_t id = 0; id < 4; id++) {
    const uint32_t fill[2] = {10000, 40000}, prob[2] = {0, 30000};
    tl_profile(m, id, id % 2 == 1, 2, fill, prob);
  }
}

// Runs `cycles` identical random cycles on a and b from seed `s`; returns the first
// difference (and writes the cycle) or NULL.
static const char *lockstep(xtm_t *a, xtm_t *b, uint64_t s, uint64_t cycles, uint64_t *at) {
  uint64_t rng = s;
  for (uint64_t i = 0; i < cycles; i++) {
    xtm_in_t in;
    xtm_out_t oa, ob;
    memset(&oa, 0, sizeof(oa));
    memset(&ob, 0, sizeof(ob));
    random_in(&rng, &in);
    xtm_step(a, &in, &oa);
    xtm_step(b, &in, &ob);
    *at = oa.cycle;
    const char *d = out_diff(&oa, &ob);
    if (d == NULL && (i % kStateEvery == 0 || i + 1 == cycles)) d = state_diff(a, b);
    if (d != NULL) return d;
  }
  return NULL;
}

static uint64_t seed_of(int i) { return tl_env_seed(0x5eed0000u + (uint64_t)i); }

// Drives `used` through configuration and traffic, resets it; `fresh` is new.
static void prepare(uint64_t seed, xtm_t **used, xtm_t **fresh) {
  uint64_t rng = seed ^ 0xa5a5a5a5ull;
  xtm_t *a = create();
  xtm_out_t out;
  while (xtm_cycle(a) < XTM_INIT_CYCLES(kPorts)) xtm_step(a, NULL, &out);
  configure(a, &rng);
  uint64_t drv = seed * 7 + 1;
  for (uint32_t i = 0; i < kBefore; i++) {
    xtm_in_t in;
    random_in(&drv, &in);
    xtm_step(a, &in, &out);
  }
  xtm_global_state_t g;
  xtm_global_state(a, &g);
  ck_assert_msg(g.cycle > (uint64_t)kBefore, "the used model did not run");
  xtm_reset(a);
  *used = a;
  *fresh = create();
}

START_TEST(test_reset_equals_create) {
  uint64_t seed = seed_of(_i);
  printf("reset: seed %" PRIu64 "; rerun: XTM_SEED=%" PRIu64 " build/tests/test_reset\n", seed,
         seed);
  xtm_t *a, *b;
  prepare(seed, &a, &b);
  uint64_t at = 0;
  const char *d = state_diff(a, b);
  ck_assert_msg(d == NULL, "seed %" PRIu64 ": right after reset, %s differs", seed, d);
  d = lockstep(a, b, seed, kAfter, &at);
  ck_assert_msg(d == NULL,
                "seed %" PRIu64 ": reset model and fresh model differ in %s at cycle %" PRIu64,
                seed, d, at);
  xtm_destroy(a);
  xtm_destroy(b);
}
END_TEST

// The negative test: the same comparison must notice one state bit a reset forgot.
START_TEST(test_reset_compare_catches_a_fault) {
  static const xtm_fault_t faults[] = {kXtmFaultFlipLfsr, kXtmFaultFlipHeadLfsr,
                                       kXtmFaultFlipConform};
  uint64_t seed = seed_of(0);
  xtm_t *a, *b;
  prepare(seed, &a, &b);
  ck_assert(xtm_inject_fault(a, faults[_i]));
  uint64_t at = 0;
  const char *d = lockstep(a, b, seed, kAfter, &at);
  ck_assert_msg(d != NULL, "fault %d after reset went unnoticed for %d cycles", _i, kAfter);
  printf("reset: fault %d noticed as %s at cycle %" PRIu64 "\n", _i, d, at);
  xtm_destroy(a);
  xtm_destroy(b);
}
END_TEST

static Suite *reset_suite(void) {
  Suite *s = suite_create("reset");
  TCase *tc = tcase_create("reset");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_reset_equals_create, 0, getenv("XTM_SEED") ? 1 : 4);
  tcase_add_loop_test(tc, test_reset_compare_catches_a_fault, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(reset_suite()); }
