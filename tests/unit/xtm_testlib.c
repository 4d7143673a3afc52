// SPDX-License-Identifier: Apache-2.0

#include "tests/unit/xtm_testlib.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/lib/xtm_num.h"

xtm_t *tl_create_params(const xtm_params_t *p) {
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(p, &m), kXtmOk);
  xtm_out_t out;
  while (xtm_cycle(m) < XTM_INIT_CYCLES(p->num_ports)) {
    xtm_step(m, NULL, &out);
  }
  return m;
}

xtm_t *tl_create(uint32_t ports, uint32_t tcs, uint32_t desc) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = ports;
  p.num_tcs = tcs;
  p.num_desc = desc;
  return tl_create_params(&p);
}

void tl_wr(xtm_t *m, uint16_t addr, uint32_t data) {
  bool ok = xtm_csr_write(m, addr, data);
  ck_assert_msg(ok, "CSR write 0x%04x <- 0x%08x failed", addr, data);
}

uint32_t tl_rd(xtm_t *m, uint16_t addr) {
  uint32_t v = 0;
  bool ok = xtm_csr_read(m, addr, &v);
  ck_assert_msg(ok, "CSR read 0x%04x failed", addr);
  return v;
}

void tl_voq_wr(xtm_t *m, uint32_t voq, uint16_t addr, uint32_t data) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  tl_wr(m, addr, data);
}
uint32_t tl_voq_rd(xtm_t *m, uint32_t voq, uint16_t addr) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  return tl_rd(m, addr);
}
void tl_port_wr(xtm_t *m, uint32_t port, uint16_t addr, uint32_t data) {
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, port);
  tl_wr(m, addr, data);
}
void tl_pg_wr(xtm_t *m, uint32_t port, uint32_t prio, uint16_t addr, uint32_t data) {
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, port * 8 + prio);
  tl_wr(m, addr, data);
}
uint32_t tl_pg_rd(xtm_t *m, uint32_t port, uint32_t prio, uint16_t addr) {
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, port * 8 + prio);
  return tl_rd(m, addr);
}

uint64_t tl_rd64(xtm_t *m, uint16_t lo_addr) {
  uint64_t lo = tl_rd(m, lo_addr);
  uint64_t hi = tl_rd(m, (uint16_t)(lo_addr + 4));
  return hi << 32 | lo;
}

void tl_profile(xtm_t *m, uint32_t id, bool interp, uint32_t n, const uint32_t *fill,
                const uint32_t *prob) {
  tl_wr(m, XTM_PROF_SEL_REG_OFFSET, id);
  for (uint32_t i = 0; i < n; i++) {
    tl_wr(m, (uint16_t)(XTM_PR_FILL_0_REG_OFFSET + 4 * i), fill[i]);
    tl_wr(m, (uint16_t)(XTM_PR_PROB_0_REG_OFFSET + 4 * i), prob[i]);
  }
  tl_wr(m, XTM_PR_CFG_REG_OFFSET,
        (interp ? 1u : 0u) << XTM_PR_CFG_INTERP_OFFSET | n << XTM_PR_CFG_NPOINTS_OFFSET);
}

uint32_t tl_qcfg(bool strict, bool no_loss, bool ecn_en, bool nonect_tail_only, uint32_t mark_point,
                 uint32_t profile) {
  return 1u << XTM_Q_CFG_ENABLE_OFFSET | (strict ? 1u : 0u) << XTM_Q_CFG_STRICT_OFFSET |
         (no_loss ? 1u : 0u) << XTM_Q_CFG_NO_LOSS_OFFSET |
         (ecn_en ? 1u : 0u) << XTM_Q_CFG_ECN_EN_OFFSET |
         (nonect_tail_only ? 1u : 0u) << XTM_Q_CFG_NONECT_TAIL_ONLY_OFFSET |
         mark_point << XTM_Q_CFG_MARK_POINT_OFFSET | profile << XTM_Q_CFG_PROFILE_OFFSET;
}

void tl_idle_in(xtm_in_t *in) {
  memset(in, 0, sizeof(*in));
  in->tx_ready = UINT64_MAX;
}

void tl_bus_wr(xtm_t *m, uint16_t addr, uint32_t data, xtm_out_t *out) {
  xtm_in_t in;
  xtm_out_t local;
  tl_idle_in(&in);
  in.csr = (xtm_csr_req_t){.valid = true, .write = true, .addr = addr, .wdata = data};
  xtm_step(m, &in, out != NULL ? out : &local);
  const xtm_out_t *o = out != NULL ? out : &local;
  ck_assert(o->csr_rsp.valid);
  ck_assert(!o->csr_rsp.err);
}

void tl_enq(xtm_t *m, uint8_t in_port, uint8_t eg_port, uint8_t dscp, uint8_t ecn, uint16_t len,
            uint32_t pkt_id, xtm_out_t *out) {
  xtm_in_t in;
  tl_idle_in(&in);
  in.enq = (xtm_enq_in_t){.valid = true,
                          .pkt_id = pkt_id,
                          .in_port = in_port,
                          .eg_port = eg_port,
                          .dscp = dscp,
                          .ecn = ecn,
                          .len = len};
  xtm_step(m, &in, out);
}

void tl_pfc_rx(xtm_t *m, uint32_t port, uint8_t vec, const uint16_t *quanta, xtm_out_t *out) {
  xtm_in_t in;
  tl_idle_in(&in);
  in.pfc_rx_valid = 1ull << port;
  in.pfc_rx[port].vec = vec;
  for (int i = 0; i < 8; i++) {
    in.pfc_rx[port].quanta[i] = quanta != NULL ? quanta[i] : 0;
  }
  xtm_step(m, &in, out);
}

void tl_idle(xtm_t *m, xtm_out_t *out) { xtm_step(m, NULL, out); }

uint32_t tl_run_collect(xtm_t *m, uint64_t cycles, tl_deq_rec_t *rec, uint32_t cap) {
  uint32_t n = 0;
  xtm_out_t out;
  uint64_t end = xtm_cycle(m) + cycles;
  while (xtm_advance_to(m, end, &out)) {
    uint64_t mask = out.deq_valid;
    while (mask != 0) {
      uint32_t p = (uint32_t)__builtin_ctzll(mask);
      mask &= mask - 1;
      if (n < cap && rec != NULL) {
        rec[n] = (tl_deq_rec_t){.cycle = out.cycle, .port = p, .d = out.deq[p]};
      }
      n++;
    }
  }
  return n;
}

void tl_check_invariants(xtm_t *m) {
  char why[256];
  bool ok = xtm_check_invariants(m, why, sizeof(why));
  ck_assert_msg(ok, "invariant broken at cycle %llu: %s", (unsigned long long)xtm_cycle(m), why);
}

uint64_t tl_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int tl_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

uint64_t tl_env_seed(uint64_t dflt) {
  const char *s = getenv("XTM_SEED");
  if (s == NULL) return dflt;
  uint64_t v = 0;
  xtm_num_msg_t msg;
  ck_assert_msg(xtm_num_u64("XTM_SEED", s, 0, UINT64_MAX, &v, &msg) == kXtmNumOk, "%s", msg.text);
  return v;
}
