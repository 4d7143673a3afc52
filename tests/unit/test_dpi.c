// SPDX-License-Identifier: Apache-2.0
//
// Suite "dpi": the DPI-C layers (cmodel/dpi/) called from C as a simulator would:
//   - the canonical bit-vector helpers against a bit-by-bit reference;
//   - xtm_dpi_step / xtm_dpi_advance_to against xtm_step / xtm_advance_to on the same random
//     stimulus, every output field unpacked with this file's own offsets (derived from the
//     packed structs of cmodel/dpi/xtm_dpi_pkg.sv, first member most significant);
//   - dcqcn_dpi_step against dcqcn_step the same way;
//   - handles: null, forged, stale, other-model, double destroy, a full table -> status codes;
//   - threads: instances stepped from several threads give the single-thread results; two
//     threads on one instance get OK or BUSY, never a corrupted model; destroy racing a user.
// XTM_SEED=<n> reruns the random cases with that seed.

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "cmodel/dpi/dcqcn_dpi.h"
#include "cmodel/dpi/dpi_handle.h"
#include "cmodel/dpi/xtm_dpi.h"
#include "tests/unit/xtm_testlib.h"

// ------------------------------------------------------------------ bit reference
static uint64_t ref_get(const svBitVecVal *v, uint32_t lsb, uint32_t w) {
  uint64_t x = 0;
  for (uint32_t i = 0; i < w; i++) {
    uint32_t b = lsb + i;
    x |= (uint64_t)((v[b / 32] >> (b % 32)) & 1u) << i;
  }
  return x;
}
static void ref_put(svBitVecVal *v, uint32_t lsb, uint32_t w, uint64_t x) {
  for (uint32_t i = 0; i < w; i++) {
    uint32_t b = lsb + i;
    v[b / 32] = (v[b / 32] & ~(1u << (b % 32))) | ((uint32_t)((x >> i) & 1u) << (b % 32));
  }
}

static uint64_t seed_base(void) {
  const char *s = getenv("XTM_SEED");
  return s != NULL ? strtoull(s, NULL, 0) : 20240101u;
}

START_TEST(test_bits) {
  uint64_t rng = seed_base();
  printf("dpi bits: seed %" PRIu64 " (XTM_SEED=%" PRIu64 " reruns it)\n", rng, rng);
  svBitVecVal a[8], b[8];
  for (int k = 0; k < 20000; k++) {
    for (int i = 0; i < 8; i++) {
      a[i] = b[i] = (uint32_t)tl_rand(&rng);
    }
    uint32_t w = 1 + (uint32_t)(tl_rand(&rng) % 64);
    uint32_t lsb = (uint32_t)(tl_rand(&rng) % (256 - w + 1));
    uint64_t x = tl_rand(&rng);
    ck_assert_uint_eq(dpi_get(a, lsb, w), ref_get(a, lsb, w));
    dpi_put(a, lsb, w, x);
    ref_put(b, lsb, w, x);
    ck_assert_mem_eq(a, b, sizeof(a));  // the other bits are untouched
    ck_assert_uint_eq(dpi_get(a, lsb, w), w == 64 ? x : (x & ((1ull << w) - 1)));
  }
}
END_TEST

// ------------------------------------------------------------------ xtm step equivalence
// Offsets from the package (LSB first): see cmodel/dpi/xtm_dpi_pkg.sv
enum { IN_BITS = 245, OUT_BITS = 317 };
typedef struct {
  svBitVecVal in[8], rvec[16], rq[256], out[10], deq[206], tvec[16], tq[256];
} xvec_t;

static void pack_in(xvec_t *v, const xtm_in_t *in) {
  memset(v->in, 0, sizeof(v->in));
  ref_put(v->in, 0, 64, in->pfc_rx_valid);
  ref_put(v->in, 64, 64, in->tx_ready);
  ref_put(v->in, 128, 32, in->csr.wdata);
  ref_put(v->in, 160, 16, in->csr.addr);
  ref_put(v->in, 176, 1, in->csr.write);
  ref_put(v->in, 177, 1, in->csr.valid);
  ref_put(v->in, 178, 14, in->enq.len);
  ref_put(v->in, 192, 2, in->enq.ecn);
  ref_put(v->in, 194, 6, in->enq.dscp);
  ref_put(v->in, 200, 6, in->enq.eg_port);
  ref_put(v->in, 206, 6, in->enq.in_port);
  ref_put(v->in, 212, 32, in->enq.pkt_id);
  ref_put(v->in, 244, 1, in->enq.valid);
  for (uint32_t p = 0; p < 64; p++) {
    if ((in->pfc_rx_valid >> p) & 1u) {
      ref_put(v->rvec, 8 * p, 8, in->pfc_rx[p].vec);
      for (uint32_t i = 0; i < 8; i++) {
        ref_put(v->rq, 16 * (8 * p + i), 16, in->pfc_rx[p].quanta[i]);
      }
    }
  }
}

// Every field of the packed outputs equals the model's (invalid entries 0).
// zeros: also check that the entries without their valid bit are 0 (bit by bit: slow)
static void check_out(const xvec_t *v, const xtm_out_t *o, bool any, uint32_t nports, bool zeros) {
  ck_assert_uint_eq(ref_get(v->out, 253, 64), o->cycle);
  if (!any) {
    ck_assert_uint_eq(ref_get(v->out, 0, 64) | ref_get(v->out, 64, 64), 0);
    ck_assert_uint_eq(ref_get(v->out, 252, 1) | ref_get(v->out, 203, 1) | ref_get(v->out, 161, 1),
                      0);
    return;
  }
  ck_assert_uint_eq(ref_get(v->out, 252, 1), o->enq_res.valid);
  if (o->enq_res.valid) {
    ck_assert_uint_eq(ref_get(v->out, 220, 32), o->enq_res.pkt_id);
    ck_assert_uint_eq(ref_get(v->out, 211, 9), o->enq_res.voq);
    ck_assert_uint_eq(ref_get(v->out, 207, 4), o->enq_res.reason);
    ck_assert_uint_eq(ref_get(v->out, 206, 1), o->enq_res.marked);
    ck_assert_uint_eq(ref_get(v->out, 205, 1), o->enq_res.hdrm);
    ck_assert_uint_eq(ref_get(v->out, 204, 1), o->enq_res.hbm);
  }
  ck_assert_uint_eq(ref_get(v->out, 203, 1), o->flush.valid);
  if (o->flush.valid) {
    ck_assert_uint_eq(ref_get(v->out, 171, 32), o->flush.pkt_id);
    ck_assert_uint_eq(ref_get(v->out, 162, 9), o->flush.voq);
  }
  ck_assert_uint_eq(ref_get(v->out, 161, 1), o->csr_rsp.valid);
  if (o->csr_rsp.valid) {
    ck_assert_uint_eq(ref_get(v->out, 160, 1), o->csr_rsp.err);
    ck_assert_uint_eq(ref_get(v->out, 128, 32), o->csr_rsp.rdata);
  }
  uint64_t pm = nports >= 64 ? ~0ull : ((1ull << nports) - 1);
  ck_assert_uint_eq(ref_get(v->out, 64, 64), o->deq_valid & pm);
  ck_assert_uint_eq(ref_get(v->out, 0, 64), o->pfc_tx_valid & pm);
  for (uint32_t p = 0; p < 64; p++) {
    uint32_t b = 103 * p;
    if ((o->deq_valid >> p) & 1u) {
      const xtm_deq_out_t *d = &o->deq[p];
      ck_assert_uint_eq(ref_get(v->deq, b + 71, 32), d->pkt_id);
      ck_assert_uint_eq(ref_get(v->deq, b + 62, 9), d->voq);
      ck_assert_uint_eq(ref_get(v->deq, b + 56, 6), d->in_port);
      ck_assert_uint_eq(ref_get(v->deq, b + 42, 14), d->len);
      ck_assert_uint_eq(ref_get(v->deq, b + 36, 6), d->dscp);
      ck_assert_uint_eq(ref_get(v->deq, b + 34, 2), d->ecn);
      ck_assert_uint_eq(ref_get(v->deq, b + 33, 1), d->marked);
      ck_assert_uint_eq(ref_get(v->deq, b + 32, 1), d->hbm);
      ck_assert_uint_eq(ref_get(v->deq, b, 32), d->sojourn);
    } else if (zeros) {
      ck_assert_uint_eq(ref_get(v->deq, b, 64) | ref_get(v->deq, b + 64, 39), 0);
    }
    if ((o->pfc_tx_valid >> p) & 1u) {
      ck_assert_uint_eq(ref_get(v->tvec, 8 * p, 8), o->pfc_tx[p].vec);
      for (uint32_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(ref_get(v->tq, 16 * (8 * p + i), 16), o->pfc_tx[p].quanta[i]);
      }
    } else if (zeros) {
      ck_assert_uint_eq(ref_get(v->tvec, 8 * p, 8), 0);
    }
  }
}

// Random traffic that reaches marking, PFC and HBM: congestion into one port, frames,
// stalls, some CSR writes and reads (legal and not).
static void gen_in(uint64_t *rng, uint64_t t, uint32_t P, xtm_in_t *in) {
  memset(in, 0, sizeof(*in));
  in->tx_ready = (t / 3000) % 3 == 0 ? tl_rand(rng) : ~0ull;
  if (tl_rand(rng) % 3 != 0) {
    in->enq = (xtm_enq_in_t){
        .valid = true,
        .pkt_id = (uint32_t)t,
        .in_port = (uint8_t)(tl_rand(rng) % P),
        .eg_port = (uint8_t)(tl_rand(rng) % 4 == 0 ? tl_rand(rng) % (P + 1) : 0),
        .dscp = (uint8_t)(tl_rand(rng) % 64),
        .ecn = (uint8_t)(tl_rand(rng) % 4),
        .len =
            (uint16_t)(tl_rand(rng) % 3 == 0 ? 1 + tl_rand(rng) % 9300 : 64 + tl_rand(rng) % 1500)};
  }
  if (tl_rand(rng) % 200 == 0) {
    uint32_t p = (uint32_t)(tl_rand(rng) % 64);  // also ports >= P: the layer masks them
    in->pfc_rx_valid = 1ull << p;
    in->pfc_rx[p].vec = (uint8_t)tl_rand(rng);
    for (int i = 0; i < 8; i++) {
      uint64_t r = tl_rand(rng);  // zero, short, and near the 16-bit top (every bit used)
      in->pfc_rx[p].quanta[i] = (uint16_t)(r % 4 == 0   ? 0
                                           : r % 8 == 1 ? 0xFFFF - (r >> 8) % 16
                                                        : (r >> 8) % 2000);
    }
  }
  if (tl_rand(rng) % 97 == 0) {
    static const uint16_t kA[] = {XTM_POOL_USED_REG_OFFSET,
                                  XTM_Q_OCC_CELLS_REG_OFFSET,
                                  XTM_VOQ_SEL_REG_OFFSET,
                                  XTM_LFSR_STATE_REG_OFFSET,
                                  0x0FF2,
                                  XTM_G_XOFF_CELLS_REG_OFFSET};
    in->csr = (xtm_csr_req_t){.valid = true,
                              .write = tl_rand(rng) % 2 == 0,
                              .addr = kA[tl_rand(rng) % 6],
                              .wdata = (uint32_t)(tl_rand(rng) % 64)};
  }
}

static void configure(xtm_t *m, uint32_t P, uint32_t T) {
  uint32_t fill[2] = {10000, 30000}, prob[2] = {3000, 65536};
  tl_profile(m, 1, true, 2, fill, prob);
  for (uint32_t v = 0; v < P * T; v++) {
    tl_voq_wr(m, v, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, v % 3 == 0, true, false, 1, 1));
    tl_voq_wr(m, v, XTM_Q_LIMIT_CELLS_REG_OFFSET, 300);
  }
  for (uint32_t p = 0; p < P; p++) {
    tl_pg_wr(m, p, 0, XTM_G_XOFF_CELLS_REG_OFFSET, 60);
    tl_pg_wr(m, p, 0, XTM_G_XON_CELLS_REG_OFFSET, 40);
    tl_pg_wr(m, p, 0, XTM_G_HDRM_CELLS_REG_OFFSET, 30);
    tl_pg_wr(m, p, 0, XTM_G_CFG_REG_OFFSET, 1);
  }
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 40);
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 10);
}

// The same configuration through the DPI backdoor.
static void configure_dpi(void *h, uint32_t P, uint32_t T) {
  uint32_t fill[2] = {10000, 30000}, prob[2] = {3000, 65536};
  ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_PROF_SEL_REG_OFFSET, 1), 0);
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_PR_FILL_0_REG_OFFSET + 4 * i, fill[i]), 0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_PR_PROB_0_REG_OFFSET + 4 * i, prob[i]), 0);
  }
  ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_PR_CFG_REG_OFFSET, 1u | 2u << 4), 0);
  for (uint32_t v = 0; v < P * T; v++) {
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_VOQ_SEL_REG_OFFSET, v), 0);
    ck_assert_int_eq(
        xtm_dpi_csr_write(h, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, v % 3 == 0, true, false, 1, 1)),
        0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_Q_LIMIT_CELLS_REG_OFFSET, 300), 0);
  }
  for (uint32_t pt = 0; pt < P; pt++) {
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_PG_SEL_REG_OFFSET, pt * 8), 0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_G_XOFF_CELLS_REG_OFFSET, 60), 0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_G_XON_CELLS_REG_OFFSET, 40), 0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_G_HDRM_CELLS_REG_OFFSET, 30), 0);
    ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_G_CFG_REG_OFFSET, 1), 0);
  }
  ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_HBM_EVICT_CELLS_REG_OFFSET, 40), 0);
  ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_HBM_RETURN_CELLS_REG_OFFSET, 10), 0);
}

static void xtm_params_vec(uint32_t P, uint32_t T, uint32_t D, svBitVecVal *pv) {
  xtm_dpi_params_default(pv);
  ref_put(pv, 192, 32, P);
  ref_put(pv, 160, 32, T);
  ref_put(pv, 128, 32, D);
}

START_TEST(test_xtm_step_equiv) {
  static const uint32_t kCfg[][3] = {{2, 2, 64}, {8, 8, 4096}, {64, 1, 256}};
  uint32_t P = kCfg[_i][0], T = kCfg[_i][1], D = kCfg[_i][2];
  uint64_t seed = seed_base() + (uint64_t)_i;
  printf("dpi xtm step: %ux%ux%u seed %" PRIu64 " (XTM_SEED reruns it)\n", P, T, D, seed);
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = P;
  prm.num_tcs = T;
  prm.num_desc = D;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);  // from cycle 0: the init sweep included
  svBitVecVal pv[7];
  xtm_params_vec(P, T, D, pv);
  void *h = NULL;
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  static xvec_t v;
  memset(&v, 0, sizeof(v));
  uint64_t rng = seed;
  static xtm_in_t in;
  static xtm_out_t o;
  for (uint64_t t = 0; t < 20000; t++) {
    // the VOQ and PG windows refuse accesses during initialisation (spec 3): configured
    // between cycles INIT_CYCLES - 1 and INIT_CYCLES, after descriptors were NOT_READY
    if (t == XTM_INIT_CYCLES(P)) {
      configure(m, P, T);
      configure_dpi(h, P, T);
    }
    if (t % 5000 == 4000) {  // an idle stretch through advance_to on both
      uint64_t target = t + 700;
      for (;;) {
        bool any = xtm_advance_to(m, target, &o);
        int r = xtm_dpi_advance_to(h, target, v.out, v.deq, v.tvec, v.tq);
        ck_assert_int_eq(r, any ? 1 : 0);
        check_out(&v, &o, any, P, true);
        if (!any) {
          break;
        }
      }
      t = target - 1;
      continue;
    }
    gen_in(&rng, t, P, &in);
    pack_in(&v, &in);
    xtm_step(m, &in, &o);
    ck_assert_int_eq(xtm_dpi_step(h, v.in, v.rvec, v.rq, v.out, v.deq, v.tvec, v.tq), 0);
    check_out(&v, &o, true, P, t % 64 == 0);
  }
  // the state accessors agree with the model's
  svBitVecVal gs[8], vs[6], ps[5];
  xtm_global_state_t g;
  xtm_global_state(m, &g);
  ck_assert_int_eq(xtm_dpi_global_state(h, gs), 0);
  ck_assert_uint_eq(ref_get(gs, 192, 32), g.pool_used);
  ck_assert_uint_eq(ref_get(gs, 160, 32), g.ocb_used);
  ck_assert_uint_eq(ref_get(gs, 128, 32), g.hbm_used);
  ck_assert_uint_eq(ref_get(gs, 96, 32), g.desc_free);
  ck_assert_uint_eq(ref_get(gs, 64, 32), g.lfsr);
  ck_assert_uint_eq(ref_get(gs, 0, 64), g.cycle);
  ck_assert_uint_eq(ref_get(gs, 224, 32), g.lfsr_head);
  for (uint32_t q = 0; q < P * T; q++) {
    xtm_voq_state_t s;
    xtm_voq_state(m, q, &s);
    ck_assert_int_eq(xtm_dpi_voq_state(h, q, vs), 0);
    ck_assert_uint_eq(ref_get(vs, 132, 32), s.occ_cells);
    ck_assert_uint_eq(ref_get(vs, 100, 32), s.occ_pkts);
    ck_assert_uint_eq(ref_get(vs, 68, 32), s.hbm_cells);
    ck_assert_uint_eq(ref_get(vs, 67, 1), s.hbm_mode);
    ck_assert_uint_eq(ref_get(vs, 66, 1), s.ocb_only);
    ck_assert_uint_eq(ref_get(vs, 65, 1), s.wd_stalled);
    ck_assert_uint_eq(ref_get(vs, 64, 1), s.flushing);
    ck_assert_uint_eq(ref_get(vs, 32, 32), (uint32_t)s.deficit);
    if (s.occ_pkts > 0) {
      ck_assert_uint_eq(ref_get(vs, 0, 32), s.head_pkt_id);
    }
    ck_assert_uint_eq(ref_get(vs, 164, 1), s.shaper_conform);
    ck_assert_uint_eq(ref_get(vs, 165, 8), s.wd_storm);
    ck_assert_uint_eq(ref_get(vs, 173, 8), s.wd_clean);
    for (uint32_t c = 0; c < kXtmVcntCount; c++) {
      unsigned long long x = 0;
      ck_assert_int_eq(xtm_dpi_voq_counter(h, q, c, &x), 0);
      ck_assert_uint_eq(x, xtm_voq_counter(m, q, (xtm_vcnt_t)c));
    }
  }
  for (uint32_t pt = 0; pt < P; pt++) {
    for (uint32_t pr = 0; pr < 8; pr++) {
      xtm_pg_state_t s;
      xtm_pg_state(m, pt, pr, &s);
      ck_assert_int_eq(xtm_dpi_pg_state(h, pt, pr, ps), 0);
      ck_assert_uint_eq(ref_get(ps, 97, 32), s.pg_cells);
      ck_assert_uint_eq(ref_get(ps, 65, 32), s.hdrm_used);
      ck_assert_uint_eq(ref_get(ps, 64, 1), s.xoff);
      ck_assert_uint_eq(ref_get(ps, 0, 64), s.pause_remain);
    }
  }
  uint64_t arr = xtm_global_counter(m, kXtmEcntArr);
  ck_assert_uint_gt(arr, 10000);  // the traffic was real
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ dcqcn step equivalence
START_TEST(test_dcqcn_step_equiv) {
  uint64_t rng = seed_base() + 77u;
  printf("dpi dcqcn step: seed %" PRIu64 "\n", rng);
  dcqcn_params_t p;
  dcqcn_params_default(&p);
  p.num_qps = 64;
  p.scan_width = 16;  // 18 rate updates possible per cycle: every entry of the vectors
  dcqcn_t *m = NULL;
  ck_assert_int_eq(dcqcn_create(&p, &m), kDcqcnOk);
  svBitVecVal pv[2] = {0, 0};
  ref_put(pv, 32, 32, p.num_qps);
  ref_put(pv, 0, 32, p.scan_width);
  void *h = NULL;
  ck_assert_int_eq(dcqcn_dpi_create(pv, &h), 0);
  ck_assert_int_eq(dcqcn_param_set(m, "RPG_TIME_RESET", 5), kDcqcnOk);
  ck_assert_int_eq(dcqcn_dpi_param_set(h, "RPG_TIME_RESET", 5), 0);
  svBitVecVal in[4], out[7], rq[9], rc[12], rt[12], ra[6];
  dcqcn_in_t di;
  dcqcn_out_t o;
  uint32_t max_n = 0;
  for (uint64_t t = 0; t < 100000; t++) {
    memset(&di, 0, sizeof(di));
    if (tl_rand(&rng) % 20 == 0) {
      di.cnp = (dcqcn_qp_ev_t){true, (uint16_t)(tl_rand(&rng) % 70)};
    }
    if (tl_rand(&rng) % 3 == 0) {
      di.tx = (dcqcn_tx_ev_t){true, (uint16_t)(tl_rand(&rng) % 64),
                              (uint16_t)(64 + tl_rand(&rng) % 4000)};
    }
    if (tl_rand(&rng) % 50 == 0) {
      di.ce = (dcqcn_qp_ev_t){true, (uint16_t)(tl_rand(&rng) % 64)};
    }
    memset(in, 0, sizeof(in));
    ref_put(in, 116, 1, di.cnp.valid);
    ref_put(in, 100, 16, di.cnp.qp);
    ref_put(in, 99, 1, di.tx.valid);
    ref_put(in, 83, 16, di.tx.qp);
    ref_put(in, 67, 16, di.tx.bytes);
    ref_put(in, 66, 1, di.ce.valid);
    ref_put(in, 50, 16, di.ce.qp);
    dcqcn_step(m, &di, &o);
    ck_assert_int_eq(dcqcn_dpi_step(h, in, out, rq, rc, rt, ra), 0);
    ck_assert_uint_eq(ref_get(out, 137, 64), o.cycle);
    ck_assert_uint_eq(ref_get(out, 136, 1), o.cnp_tx.valid);
    if (o.cnp_tx.valid) {
      ck_assert_uint_eq(ref_get(out, 120, 16), o.cnp_tx.qp);
    }
    ck_assert_uint_eq(ref_get(out, 115, 5), o.n_rate);
    for (uint32_t k = 0; k < DCQCN_DPI_MAX_RATE; k++) {
      bool v = k < o.n_rate;
      ck_assert_uint_eq(ref_get(rq, 16 * k, 16), v ? o.rate[k].qp : 0u);
      ck_assert_uint_eq(ref_get(rc, 20 * k, 20), v ? o.rate[k].rc : 0u);
      ck_assert_uint_eq(ref_get(rt, 20 * k, 20), v ? o.rate[k].rt : 0u);
      ck_assert_uint_eq(ref_get(ra, 10 * k, 10), v ? o.rate[k].alpha : 0u);
    }
    max_n = o.n_rate > max_n ? o.n_rate : max_n;
    ck_assert_uint_eq(ref_get(out, 114, 1), o.pace.valid);
    if (o.pace.valid) {
      ck_assert_uint_eq(ref_get(out, 98, 16), o.pace.qp);
      ck_assert_uint_eq(ref_get(out, 34, 64), o.pace.next_send);
    }
  }
  ck_assert_uint_ge(max_n, 2);  // rate updates were reported
  for (uint32_t q = 0; q < p.num_qps; q++) {
    dcqcn_qp_state_t s;
    svBitVecVal st[16];
    dcqcn_qp_state(m, q, &s);
    ck_assert_int_eq(dcqcn_dpi_qp_state(h, q, st), 0);
    ck_assert_uint_eq(ref_get(st, 451, 1), s.active);
    ck_assert_uint_eq(ref_get(st, 417, 32), s.rc);
    ck_assert_uint_eq(ref_get(st, 385, 32), s.rt);
    ck_assert_uint_eq(ref_get(st, 369, 16), s.alpha);
    ck_assert_uint_eq(ref_get(st, 321, 32), s.byte_count);
    ck_assert_uint_eq(ref_get(st, 193, 64), s.dec_due);
    ck_assert_uint_eq(ref_get(st, 65, 64), s.pace_q8);
    ck_assert_uint_eq(ref_get(st, 0, 64), s.np_last);
    ck_assert_uint_eq(ref_get(st, 452, 1), s.init_pend);
    ck_assert_uint_eq(ref_get(st, 453, 1), s.pend_cnp);
    ck_assert_uint_eq(ref_get(st, 454, 1), s.pend_cnp_more);
    ck_assert_uint_eq(ref_get(st, 455, 32), s.pend_bytes);
  }
  for (uint32_t c = 0; c < kDcqcnGcntCount; c++) {
    unsigned long long x = 0;
    ck_assert_int_eq(dcqcn_dpi_counter(h, c, &x), 0);
    ck_assert_uint_eq(x, dcqcn_counter(m, (dcqcn_gcnt_t)c));
  }
  ck_assert_int_eq(dcqcn_dpi_destroy(h), 0);
  dcqcn_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ handles
START_TEST(test_bad_handles) {
  svBitVecVal pv[7];
  xtm_params_vec(2, 2, 64, pv);
  void *h = NULL, *d = NULL;
  unsigned long long c = 0;
  int local = 0;
  void *forged[] = {NULL,
                    (void *)(uintptr_t)1,
                    (void *)(uintptr_t)0x1234,
                    (void *)&local,
                    (void *)(uintptr_t) ~(uintptr_t)0,
                    (void *)test_bad_handles};
  for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
    ck_assert_int_eq(xtm_dpi_cycle(forged[i], &c), kDpiBadHandle);
    ck_assert_int_eq(xtm_dpi_destroy(forged[i]), kDpiBadHandle);
    ck_assert_int_eq(dcqcn_dpi_cycle(forged[i], &c), kDpiBadHandle);
  }
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  // a token with a neighbouring generation or slot is refused
  ck_assert_int_eq(xtm_dpi_cycle((void *)((uintptr_t)h + (1u << 9)), &c), kDpiBadHandle);
  ck_assert_int_eq(xtm_dpi_cycle((void *)((uintptr_t)h + 1u), &c), kDpiBadHandle);
  ck_assert_int_eq(dcqcn_dpi_cycle(h, &c), kDpiBadHandle);  // other model
  ck_assert_int_eq(xtm_dpi_cycle(h, NULL), kDpiBadArg);
  ck_assert_int_eq(xtm_dpi_step(h, NULL, NULL, NULL, NULL, NULL, NULL, NULL), kDpiBadArg);
  ck_assert_int_eq(xtm_dpi_create(NULL, &d), kDpiBadArg);
  ck_assert_int_eq(xtm_dpi_create(pv, NULL), kDpiBadArg);
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
  ck_assert_int_eq(xtm_dpi_destroy(h), kDpiBadHandle);
  ck_assert_int_eq(xtm_dpi_cycle(h, &c), kDpiBadHandle);
  // tokens with the right model tag that name a free slot: the destroyed handle's generation
  // plus one (the slot's generation now), and generation 0 of slots never used
  void *next_gen = (void *)((uintptr_t)h + (1u << 9));
  ck_assert_int_eq(xtm_dpi_cycle(next_gen, &c), kDpiBadHandle);
  ck_assert_int_eq(xtm_dpi_destroy(next_gen), kDpiBadHandle);
  uintptr_t tag = (uintptr_t)h & ~((~(uintptr_t)0) >> 8);
  for (uintptr_t slot = 1; slot <= DPI_MAX_INSTANCES; slot++) {
    for (uintptr_t gen = 0; gen < 4; gen += 2) {
      void *t = (void *)(tag | (gen << 9) | slot);
      ck_assert_int_eq(xtm_dpi_cycle(t, &c), kDpiBadHandle);
      ck_assert_int_eq(xtm_dpi_destroy(t), kDpiBadHandle);
    }
  }
  ck_assert_int_eq(xtm_dpi_instances(), 0);
  ck_assert_int_eq(dcqcn_dpi_instances(), 0);
  ck_assert_str_eq(xtm_dpi_status_name(kDpiBusy), "BUSY");
  ck_assert_str_eq(xtm_dpi_status_name(42), "UNKNOWN_STATUS");
}
END_TEST

START_TEST(test_full_table) {
  svBitVecVal pv[7];
  xtm_params_vec(1, 1, 2, pv);
  static void *hs[DPI_MAX_INSTANCES];
  for (uint32_t i = 0; i < DPI_MAX_INSTANCES; i++) {
    ck_assert_int_eq(xtm_dpi_create(pv, &hs[i]), 0);
  }
  void *h = (void *)1;
  ck_assert_int_eq(xtm_dpi_create(pv, &h), kDpiFull);
  ck_assert_ptr_null(h);
  ck_assert_str_ne(xtm_dpi_last_error(), "");
  for (uint32_t i = 0; i < DPI_MAX_INSTANCES; i++) {
    ck_assert_int_eq(xtm_dpi_destroy(hs[i]), 0);
  }
  ck_assert_int_eq(xtm_dpi_instances(), 0);
}
END_TEST

// ------------------------------------------------------------------ bad input
// Every refusal is a status code and a message in last_error that names the function and
// the offending value; the instance is untouched by a refused call. Check runs each test in
// a child process, so a crash would be an error here, not a pass (make test-asan reruns
// the suite under ASan/UBSan).
#define EXPECT(call, want, needle)                                                           \
  do {                                                                                       \
    dpi_set_error("%s", "");                                                                 \
    int r_ = (call);                                                                         \
    ck_assert_msg(r_ == (want), "%s -> %d (%s), want %d", #call, r_, dpi_last_error(),       \
                  (int)(want));                                                              \
    ck_assert_msg(strstr(dpi_last_error(), (needle)) != NULL, "%s: message '%s' lacks '%s'", \
                  #call, dpi_last_error(), (needle));                                        \
  } while (0)

START_TEST(test_xtm_bad_params) {
  static const struct {
    uint32_t bit, value;
    const char *why;
  } kBad[] = {
      {192, 0, "num_ports"},
      {192, 65, "num_ports"},
      {192, 0xFFFFFFFFu, "num_ports"},
      {160, 0, "num_tcs"},
      {160, 9, "num_tcs"},
      {128, 1, "num_desc"},
      {128, (1u << 20) + 1, "num_desc"},
      {96, 100, "cell_bytes"},
      {96, 0, "cell_bytes"},
      {64, 0, "ocb_cells"},
      {64, 1u << 28, "ocb_cells"},
      {32, 1u << 28, "hbm_cells"},
      {0, 0, "fifo_depth"},
      {0, 65, "fifo_depth"},
  };
  int n0 = xtm_dpi_instances();
  for (size_t k = 0; k < sizeof(kBad) / sizeof(kBad[0]); k++) {
    svBitVecVal pv[7];
    xtm_params_vec(2, 2, 64, pv);
    ref_put(pv, kBad[k].bit, 32, kBad[k].value);
    void *h = (void *)1;
    EXPECT(xtm_dpi_create(pv, &h), kDpiBadArg, kBad[k].why);
    ck_assert_ptr_null(h);  // never a half-made instance
    ck_assert_str_eq(xtm_dpi_status_name(kDpiBadArg), "BAD_ARG");
  }
  ck_assert_int_eq(xtm_dpi_instances(), n0);
  // the edges are accepted: 64 ports x 8 TCs (512 VOQs: the 9-bit VOQ fields are full),
  // and 1 x 1 with 2 descriptors
  svBitVecVal pv[7], got[7];
  void *h = NULL;
  xtm_params_vec(64, 8, 1024, pv);
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  ck_assert_int_eq(xtm_dpi_get_params(h, got), 0);
  ck_assert_mem_eq(got, pv, sizeof(pv));
  svBitVecVal vs[6];
  ck_assert_int_eq(xtm_dpi_voq_state(h, 511, vs), 0);
  EXPECT(xtm_dpi_voq_state(h, 512, vs), kDpiBadArg, "voq 512 >= NumVoqs 512");
  ck_assert_int_eq(xtm_dpi_pg_state(h, 63, 7, vs), 0);
  EXPECT(xtm_dpi_pg_state(h, 64, 0, vs), kDpiBadArg, "port 64");
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
  xtm_params_vec(1, 1, 2, pv);
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
  ck_assert_int_eq(xtm_dpi_instances(), n0);
}
END_TEST

// The package's struct widths are the sizes of the vectors the C side reads and writes: a
// package of another layout (one bit more or less anywhere) is refused at abi_check, with
// both sides' widths in the message.
START_TEST(test_abi_sizes) {
  const unsigned xw[7] = {XTM_DPI_ABI_VERSION, 224, 245, 317, 181, 129, 256};
  ck_assert_int_eq(xtm_dpi_abi_check(xw[0], xw[1], xw[2], xw[3], xw[4], xw[5], xw[6]), 0);
  for (int k = 0; k < 7; k++) {
    for (int d = -1; d <= 1; d += 2) {
      unsigned w[7];
      memcpy(w, xw, sizeof(w));
      w[k] = (unsigned)((int)w[k] + d);
      EXPECT(xtm_dpi_abi_check(w[0], w[1], w[2], w[3], w[4], w[5], w[6]), kDpiAbi,
             "C layer ABI 2 (224/245/317/181/129/256)");
    }
  }
  const unsigned dw[5] = {DCQCN_DPI_ABI_VERSION, 64, 117, 201, 487};
  ck_assert_int_eq(dcqcn_dpi_abi_check(dw[0], dw[1], dw[2], dw[3], dw[4]), 0);
  for (int k = 0; k < 5; k++) {
    unsigned w[5];
    memcpy(w, dw, sizeof(w));
    w[k] += 1;
    EXPECT(dcqcn_dpi_abi_check(w[0], w[1], w[2], w[3], w[4]), kDpiAbi,
           "C layer ABI 2 (64/117/201/487)");
  }
  ck_assert_str_eq(xtm_dpi_status_name(kDpiAbi), "ABI");
}
END_TEST

// Missing output or input vectors, out-of-range indices and addresses: BAD_ARG with the
// function and the value in the message; the model does not move.
START_TEST(test_xtm_bad_args) {
  svBitVecVal pv[7];
  xtm_params_vec(2, 2, 64, pv);
  void *h = NULL;
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  static xvec_t v;
  memset(&v, 0, sizeof(v));
  ck_assert_int_eq(xtm_dpi_step(h, v.in, v.rvec, v.rq, v.out, v.deq, v.tvec, v.tq), 0);
  svBitVecVal gs0[8], gs1[8], st[6];
  ck_assert_int_eq(xtm_dpi_global_state(h, gs0), 0);
  unsigned long long c = 7;
  unsigned int d = 7;
  // a missing vector: each argument of step and advance_to in turn
  const svBitVecVal *ins[3] = {v.in, v.rvec, v.rq};
  svBitVecVal *outs[4] = {v.out, v.deq, v.tvec, v.tq};
  for (int k = 0; k < 7; k++) {
    const svBitVecVal *a[3] = {ins[0], ins[1], ins[2]};
    svBitVecVal *b[4] = {outs[0], outs[1], outs[2], outs[3]};
    if (k < 3) {
      a[k] = NULL;
    } else {
      b[k - 3] = NULL;
    }
    EXPECT(xtm_dpi_step(h, a[0], a[1], a[2], b[0], b[1], b[2], b[3]), kDpiBadArg,
           "xtm_dpi_step: a vector");
    if (k >= 3) {
      EXPECT(xtm_dpi_advance_to(h, 100, b[0], b[1], b[2], b[3]), kDpiBadArg,
             "xtm_dpi_advance_to: a vector");
    }
  }
  EXPECT(xtm_dpi_get_params(h, NULL), kDpiBadArg, "xtm_dpi_get_params: no output");
  EXPECT(xtm_dpi_cycle(h, NULL), kDpiBadArg, "xtm_dpi_cycle: no output");
  EXPECT(xtm_dpi_next_event(h, NULL), kDpiBadArg, "xtm_dpi_next_event: no output");
  EXPECT(xtm_dpi_csr_read(h, 0, NULL), kDpiBadArg, "xtm_dpi_csr_read: no output");
  EXPECT(xtm_dpi_voq_state(h, 0, NULL), kDpiBadArg, "xtm_dpi_voq_state: no output");
  EXPECT(xtm_dpi_pg_state(h, 0, 0, NULL), kDpiBadArg, "xtm_dpi_pg_state: no output");
  EXPECT(xtm_dpi_global_state(h, NULL), kDpiBadArg, "xtm_dpi_global_state: no output");
  EXPECT(xtm_dpi_voq_counter(h, 0, 0, NULL), kDpiBadArg, "xtm_dpi_voq_counter: no output");
  EXPECT(xtm_dpi_pg_counter(h, 0, 0, 0, NULL), kDpiBadArg, "xtm_dpi_pg_counter: no output");
  EXPECT(xtm_dpi_port_counter(h, 0, 0, NULL), kDpiBadArg, "xtm_dpi_port_counter: no output");
  EXPECT(xtm_dpi_global_counter(h, 0, NULL), kDpiBadArg, "xtm_dpi_global_counter: no output");
  EXPECT(xtm_dpi_pol_state(h, 0, NULL, &c), kDpiBadArg, "xtm_dpi_pol_state: no output");
  EXPECT(xtm_dpi_pol_state(h, 0, &c, NULL), kDpiBadArg, "xtm_dpi_pol_state: no output");
  EXPECT(xtm_dpi_pol_counter(h, 0, 0, NULL), kDpiBadArg, "xtm_dpi_pol_counter: no output");
  xtm_dpi_params_default(NULL);  // nothing to fill: no crash
  // out-of-range indices, at the edge and far beyond
  EXPECT(xtm_dpi_voq_state(h, 4, st), kDpiBadArg, "voq 4 >= NumVoqs 4");
  EXPECT(xtm_dpi_voq_state(h, 0xFFFFFFFFu, st), kDpiBadArg, "voq 4294967295");
  EXPECT(xtm_dpi_pg_state(h, 2, 0, st), kDpiBadArg, "port 2 prio 0 outside 2 x 8");
  EXPECT(xtm_dpi_pg_state(h, 0, 8, st), kDpiBadArg, "prio 8");
  EXPECT(xtm_dpi_voq_counter(h, 4, 0, &c), kDpiBadArg, "voq 4 (< 4)");
  ck_assert_uint_eq(c, 0);  // the output is cleared, not left stale
  c = 7;
  EXPECT(xtm_dpi_voq_counter(h, 0, kXtmVcntCount, &c), kDpiBadArg, "counter 22 (< 22)");
  ck_assert_uint_eq(c, 0);
  EXPECT(xtm_dpi_pg_counter(h, 2, 0, 0, &c), kDpiBadArg, "port 2 (< 2)");
  EXPECT(xtm_dpi_pg_counter(h, 0, 8, 0, &c), kDpiBadArg, "prio 8 (< 8)");
  EXPECT(xtm_dpi_pg_counter(h, 0, 0, kXtmGcntCount, &c), kDpiBadArg, "counter 5 (< 5)");
  EXPECT(xtm_dpi_port_counter(h, 2, 0, &c), kDpiBadArg, "port 2 (< 2)");
  EXPECT(xtm_dpi_port_counter(h, 0, kXtmPcntCount, &c), kDpiBadArg, "counter 4 (< 4)");
  EXPECT(xtm_dpi_global_counter(h, kXtmEcntCount, &c), kDpiBadArg, "counter 6 (< 6)");
  EXPECT(xtm_dpi_global_counter(h, 0xFFFFFFFFu, &c), kDpiBadArg, "counter 4294967295");
  unsigned long long u = 7;
  c = 7;
  EXPECT(xtm_dpi_pol_state(h, 16, &c, &u), kDpiBadArg, "policer 16 (< 16)");
  ck_assert(c == 0 && u == 0);
  EXPECT(xtm_dpi_pol_counter(h, 16, 0, &c), kDpiBadArg, "policer 16 (< 16) counter 0");
  EXPECT(xtm_dpi_pol_counter(h, 0, kXtmPolcntCount, &c), kDpiBadArg, "counter 3 (< 3)");
  EXPECT(xtm_dpi_csr_read(h, 0x10000u, &d), kDpiBadArg, "address 0x10000 beyond the 16-bit space");
  ck_assert_uint_eq(d, 0);
  EXPECT(xtm_dpi_csr_write(h, 0xFFFFFFFFu, 1), kDpiBadArg, "address 0xffffffff");
  EXPECT(xtm_dpi_inject_fault(h, 0xFFFFFFFFu), kDpiBadArg, "fault 4294967295 unknown");
  EXPECT(xtm_dpi_inject_fault(h, kXtmFaultFlipConform + 1u), kDpiBadArg, "fault 7 unknown");
  // CSR errors of the spec (misaligned, unmapped, read-only) are answers, not errors
  EXPECT(xtm_dpi_csr_read(h, 0x0003, &d), kDpiFalse, "CSR error at 0x0003");
  EXPECT(xtm_dpi_csr_read(h, 0xFFFC, &d), kDpiFalse, "CSR error at 0xfffc");
  EXPECT(xtm_dpi_csr_write(h, XTM_BLOCK_TYPE_REG_OFFSET, 0), kDpiFalse, "CSR error at 0x0000");
  // out-of-range names: strings, never NULL
  ck_assert_str_eq(xtm_dpi_reason_name(0xFFFFFFFFu), "UNKNOWN_REASON");
  ck_assert_str_eq(xtm_dpi_reason_name(kXtmReasonCount), "UNKNOWN_REASON");
  ck_assert_str_eq(xtm_dpi_status_name(-2147483647 - 1), "UNKNOWN_STATUS");
  // none of it moved the model
  ck_assert_int_eq(xtm_dpi_global_state(h, gs1), 0);
  ck_assert_mem_eq(gs0, gs1, sizeof(gs0));
  ck_assert_int_eq(xtm_dpi_check_invariants(h), 0);
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
}
END_TEST

// Bad traffic inside a legal bundle (a port the instance does not have, zero and oversize
// lengths, frames and MAC readiness for ports >= NumPorts, misaligned CSR addresses) is the
// model's business: the DPI call succeeds and gives exactly the model's answer, a counted
// drop or a CSR error (spec 11).
START_TEST(test_xtm_bad_bundle) {
  const uint32_t P = 2, T = 2;
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = P;
  prm.num_tcs = T;
  prm.num_desc = 64;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);
  svBitVecVal pv[7];
  xtm_params_vec(P, T, 64, pv);
  void *h = NULL;
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  static xvec_t v;
  static xtm_in_t in;
  static xtm_out_t o;
  memset(&v, 0, sizeof(v));
  static const struct {
    uint8_t in_port, eg_port;
    uint16_t len;
    uint64_t pfc, tx;
    uint16_t csr_addr;
  } kCase[] = {
      {63, 0, 100, 0, ~0ull, 0},        {0, 63, 100, 0, ~0ull, 0},  {2, 2, 100, 0, ~0ull, 0},
      {0, 1, 0, 0, ~0ull, 0},           {0, 1, 16383, 0, ~0ull, 0}, {1, 0, 9600, 0, ~0ull, 0},
      {0, 1, 64, 1ull << 40, ~0ull, 0}, {0, 1, 64, ~0ull, 0, 0},    {0, 1, 64, 0, ~0ull, 0x0001},
      {0, 1, 64, 0, ~0ull, 0xFFFE},
  };
  // spec 4.7: port 0 polices TC 1 (DSCP 8..15) by its policer 0, left at R = 0, B = 0, so
  // those arrivals are POLICE drops (P_POL_MAP, in the PORT window, is not refused during
  // initialisation)
  ck_assert(xtm_csr_write(m, XTM_P_POL_MAP_REG_OFFSET, 8u << 4));
  ck_assert_int_eq(xtm_dpi_csr_write(h, XTM_P_POL_MAP_REG_OFFSET, 8u << 4), 0);
  uint64_t reasons = 0;
  for (uint64_t t = 0; t < 400; t++) {
    memset(&in, 0, sizeof(in));
    in.tx_ready = ~0ull;
    if (t >= 64) {
      size_t k = (size_t)(t % (sizeof(kCase) / sizeof(kCase[0])));
      in.enq = (xtm_enq_in_t){.valid = true,
                              .pkt_id = (uint32_t)t,
                              .in_port = kCase[k].in_port,
                              .eg_port = kCase[k].eg_port,
                              .dscp = (uint8_t)(t % 64),
                              .ecn = (uint8_t)(t % 4),
                              .len = kCase[k].len};
      in.tx_ready = kCase[k].tx;
      in.pfc_rx_valid = kCase[k].pfc;
      for (uint32_t p = 0; p < 64; p++) {
        in.pfc_rx[p].vec = 0xFF;
        for (int i = 0; i < 8; i++) {
          in.pfc_rx[p].quanta[i] = 0xFFFF;
        }
      }
      if (kCase[k].csr_addr != 0) {
        in.csr = (xtm_csr_req_t){
            .valid = true, .write = t % 2 == 0, .addr = kCase[k].csr_addr, .wdata = ~0u};
      }
    }
    pack_in(&v, &in);
    xtm_step(m, &in, &o);
    ck_assert_int_eq(xtm_dpi_step(h, v.in, v.rvec, v.rq, v.out, v.deq, v.tvec, v.tq), 0);
    check_out(&v, &o, true, P, true);
    if (o.enq_res.valid) {
      reasons |= 1ull << o.enq_res.reason;
    }
  }
  // the cases reached the drops they are about
  ck_assert_uint_ne(reasons & (1ull << kXtmReasonBadPort), 0);
  ck_assert_uint_ne(reasons & (1ull << kXtmReasonLenZero), 0);
  ck_assert_uint_ne(reasons & (1ull << kXtmReasonLenMax), 0);
  ck_assert_uint_ne(reasons & (1ull << kXtmReasonAccept), 0);
  ck_assert_uint_ne(reasons & (1ull << kXtmReasonPolice), 0);
  for (uint32_t k = 0; k < P * 8; k++) {
    unsigned long long tok = 1, u = 1, x = 1;
    xtm_pol_state_t ps;
    xtm_pol_state(m, k, &ps);
    ck_assert_int_eq(xtm_dpi_pol_state(h, k, &tok, &u), 0);
    ck_assert(tok == ps.tok && u == ps.u);
    for (uint32_t c = 0; c < kXtmPolcntCount; c++) {
      ck_assert_int_eq(xtm_dpi_pol_counter(h, k, c, &x), 0);
      ck_assert_uint_eq(x, xtm_pol_counter(m, k, (xtm_polcnt_t)c));
    }
  }
  ck_assert_uint_gt(xtm_pol_counter(m, 0, kXtmPolcntDropPkts), 0);
  for (uint32_t c = 0; c < kXtmEcntCount; c++) {
    unsigned long long x = 0;
    ck_assert_int_eq(xtm_dpi_global_counter(h, c, &x), 0);
    ck_assert_uint_eq(x, xtm_global_counter(m, (xtm_ecnt_t)c));
  }
  for (uint32_t p = 0; p < P; p++) {
    unsigned long long x = 0;
    ck_assert_int_eq(xtm_dpi_port_counter(h, p, kXtmPcntPfcRxFrames, &x), 0);
    ck_assert_uint_eq(x, xtm_port_counter(m, p, kXtmPcntPfcRxFrames));
  }
  // time: a target in the past moves nothing; a far one on an idle model is one call
  unsigned long long c0 = 0, c1 = 0;
  ck_assert_int_eq(xtm_dpi_cycle(h, &c0), 0);
  bool any = xtm_advance_to(m, 0, &o);
  ck_assert_int_eq(xtm_dpi_advance_to(h, 0, v.out, v.deq, v.tvec, v.tq), any ? 1 : 0);
  ck_assert_int_eq(xtm_dpi_cycle(h, &c1), 0);
  ck_assert_uint_eq(c1, c0);
  ck_assert_uint_eq(c1, xtm_cycle(m));
  for (int k = 0; k < 100000; k++) {  // drain, then idle up to 2^40
    any = xtm_advance_to(m, 1ull << 40, &o);
    ck_assert_int_eq(xtm_dpi_advance_to(h, 1ull << 40, v.out, v.deq, v.tvec, v.tq), any ? 1 : 0);
    check_out(&v, &o, any, P, true);
    if (!any) {
      break;
    }
  }
  ck_assert_int_eq(xtm_dpi_cycle(h, &c1), 0);
  ck_assert_uint_eq(c1, 1ull << 40);
  ck_assert_int_eq(xtm_dpi_check_invariants(h), 0);
  ck_assert_int_eq(xtm_dpi_destroy(h), 0);
  xtm_destroy(m);
}
END_TEST

// Every function that takes a handle refuses each kind of bad one with BAD_HANDLE and its
// own name in the message: null, forged, destroyed, and a handle of the other model.
START_TEST(test_every_fn_bad_handle) {
  svBitVecVal xp[7], dp[2] = {0, 0};
  xtm_params_vec(2, 2, 64, xp);
  dcqcn_dpi_params_default(dp);
  void *xh = NULL, *dh = NULL, *xdead = NULL, *ddead = NULL;
  ck_assert_int_eq(xtm_dpi_create(xp, &xdead), 0);
  ck_assert_int_eq(xtm_dpi_destroy(xdead), 0);
  ck_assert_int_eq(dcqcn_dpi_create(dp, &ddead), 0);
  ck_assert_int_eq(dcqcn_dpi_destroy(ddead), 0);
  ck_assert_int_eq(xtm_dpi_create(xp, &xh), 0);
  ck_assert_int_eq(dcqcn_dpi_create(dp, &dh), 0);
  static xvec_t v;
  memset(&v, 0, sizeof(v));
  svBitVecVal st[16], din[4], dout[7], rq[9], rc[12], rt[12], ra[6];
  memset(din, 0, sizeof(din));
  unsigned long long c = 0;
  unsigned int d = 0;
  void *xbad[] = {NULL, (void *)(uintptr_t)0xDEADBEEFu, xdead, dh};
  void *dbad[] = {NULL, (void *)(uintptr_t)0xDEADBEEFu, ddead, xh};
  for (int k = 0; k < 4; k++) {
    void *h = xbad[k];
    EXPECT(xtm_dpi_destroy(h), kDpiBadHandle, "xtm_dpi_destroy: bad handle");
    EXPECT(xtm_dpi_reset(h), kDpiBadHandle, "xtm_dpi_reset: bad handle");
    EXPECT(xtm_dpi_get_params(h, st), kDpiBadHandle, "xtm_dpi_get_params: bad handle");
    EXPECT(xtm_dpi_step(h, v.in, v.rvec, v.rq, v.out, v.deq, v.tvec, v.tq), kDpiBadHandle,
           "xtm_dpi_step: bad handle");
    EXPECT(xtm_dpi_advance_to(h, 10, v.out, v.deq, v.tvec, v.tq), kDpiBadHandle,
           "xtm_dpi_advance_to: bad handle");
    EXPECT(xtm_dpi_cycle(h, &c), kDpiBadHandle, "xtm_dpi_cycle: bad handle");
    EXPECT(xtm_dpi_next_event(h, &c), kDpiBadHandle, "xtm_dpi_next_event: bad handle");
    EXPECT(xtm_dpi_set_tx_ready(h, 1), kDpiBadHandle, "xtm_dpi_set_tx_ready: bad handle");
    EXPECT(xtm_dpi_set_eager(h, 1), kDpiBadHandle, "xtm_dpi_set_eager: bad handle");
    EXPECT(xtm_dpi_csr_read(h, 0, &d), kDpiBadHandle, "xtm_dpi_csr_read: bad handle");
    EXPECT(xtm_dpi_csr_write(h, XTM_VOQ_SEL_REG_OFFSET, 0), kDpiBadHandle,
           "xtm_dpi_csr_write: bad handle");
    EXPECT(xtm_dpi_voq_state(h, 0, st), kDpiBadHandle, "xtm_dpi_voq_state: bad handle");
    EXPECT(xtm_dpi_pg_state(h, 0, 0, st), kDpiBadHandle, "xtm_dpi_pg_state: bad handle");
    EXPECT(xtm_dpi_global_state(h, st), kDpiBadHandle, "xtm_dpi_global_state: bad handle");
    EXPECT(xtm_dpi_voq_counter(h, 0, 0, &c), kDpiBadHandle, "xtm_dpi_voq_counter: bad handle");
    EXPECT(xtm_dpi_pg_counter(h, 0, 0, 0, &c), kDpiBadHandle, "xtm_dpi_pg_counter: bad handle");
    EXPECT(xtm_dpi_port_counter(h, 0, 0, &c), kDpiBadHandle, "xtm_dpi_port_counter: bad handle");
    EXPECT(xtm_dpi_global_counter(h, 0, &c), kDpiBadHandle, "xtm_dpi_global_counter: bad handle");
    EXPECT(xtm_dpi_pol_state(h, 0, &c, &c), kDpiBadHandle, "xtm_dpi_pol_state: bad handle");
    EXPECT(xtm_dpi_pol_counter(h, 0, 0, &c), kDpiBadHandle, "xtm_dpi_pol_counter: bad handle");
    EXPECT(xtm_dpi_check_invariants(h), kDpiBadHandle, "xtm_dpi_check_invariants: bad handle");
    EXPECT(xtm_dpi_inject_fault(h, 0), kDpiBadHandle, "xtm_dpi_inject_fault: bad handle");
    h = dbad[k];
    EXPECT(dcqcn_dpi_destroy(h), kDpiBadHandle, "dcqcn_dpi_destroy: bad handle");
    EXPECT(dcqcn_dpi_reset(h), kDpiBadHandle, "dcqcn_dpi_reset: bad handle");
    EXPECT(dcqcn_dpi_get_params(h, st), kDpiBadHandle, "dcqcn_dpi_get_params: bad handle");
    EXPECT(dcqcn_dpi_step(h, din, dout, rq, rc, rt, ra), kDpiBadHandle,
           "dcqcn_dpi_step: bad handle");
    EXPECT(dcqcn_dpi_advance_to(h, 10, dout, rq, rc, rt, ra), kDpiBadHandle,
           "dcqcn_dpi_advance_to: bad handle");
    EXPECT(dcqcn_dpi_cycle(h, &c), kDpiBadHandle, "dcqcn_dpi_cycle: bad handle");
    EXPECT(dcqcn_dpi_next_event(h, &c), kDpiBadHandle, "dcqcn_dpi_next_event: bad handle");
    EXPECT(dcqcn_dpi_set_eager(h, 1), kDpiBadHandle, "dcqcn_dpi_set_eager: bad handle");
    EXPECT(dcqcn_dpi_scan_period(h, &d), kDpiBadHandle, "dcqcn_dpi_scan_period: bad handle");
    EXPECT(dcqcn_dpi_csr_read(h, 0, &d), kDpiBadHandle, "dcqcn_dpi_csr_read: bad handle");
    EXPECT(dcqcn_dpi_csr_write(h, 0, 0), kDpiBadHandle, "dcqcn_dpi_csr_write: bad handle");
    EXPECT(dcqcn_dpi_param_set(h, "RPG_TIME_RESET", 300), kDpiBadHandle,
           "dcqcn_dpi_param_set: bad handle");
    EXPECT(dcqcn_dpi_qp_state(h, 0, st), kDpiBadHandle, "dcqcn_dpi_qp_state: bad handle");
    EXPECT(dcqcn_dpi_counter(h, 0, &c), kDpiBadHandle, "dcqcn_dpi_counter: bad handle");
    EXPECT(dcqcn_dpi_qp_counter(h, 0, 0, &c), kDpiBadHandle, "dcqcn_dpi_qp_counter: bad handle");
  }
  // the live instances were not touched by all that
  ck_assert_int_eq(xtm_dpi_cycle(xh, &c), 0);
  ck_assert_uint_eq(c, 0);
  ck_assert_int_eq(dcqcn_dpi_cycle(dh, &c), 0);
  ck_assert_uint_eq(c, 0);
  ck_assert_int_eq(xtm_dpi_destroy(xh), 0);
  ck_assert_int_eq(dcqcn_dpi_destroy(dh), 0);
}
END_TEST

START_TEST(test_dcqcn_bad_args) {
  static const struct {
    uint32_t qps, scan;
    const char *why;
  } kBad[] = {{0, 4, "num_qps"},
              {4097, 4, "num_qps"},
              {0xFFFFFFFFu, 4, "num_qps"},
              {64, 0, "scan_width"},
              {64, 17, "scan_width"}};
  int n0 = dcqcn_dpi_instances();
  svBitVecVal pv[2];
  void *h = (void *)1;
  for (size_t k = 0; k < sizeof(kBad) / sizeof(kBad[0]); k++) {
    ref_put(pv, 32, 32, kBad[k].qps);
    ref_put(pv, 0, 32, kBad[k].scan);
    EXPECT(dcqcn_dpi_create(pv, &h), kDpiBadArg, kBad[k].why);
    ck_assert_ptr_null(h);
  }
  EXPECT(dcqcn_dpi_create(NULL, &h), kDpiBadArg, "dcqcn_dpi_create: no parameters");
  EXPECT(dcqcn_dpi_create(pv, NULL), kDpiBadArg, "dcqcn_dpi_create: no handle argument");
  ck_assert_int_eq(dcqcn_dpi_instances(), n0);
  dcqcn_dpi_params_default(NULL);
  // a model and its DPI twin, 8 QPs
  dcqcn_params_t p;
  dcqcn_params_default(&p);
  p.num_qps = 8;
  dcqcn_t *m = NULL;
  ck_assert_int_eq(dcqcn_create(&p, &m), kDcqcnOk);
  ref_put(pv, 32, 32, 8);
  ref_put(pv, 0, 32, p.scan_width);
  ck_assert_int_eq(dcqcn_dpi_create(pv, &h), 0);
  svBitVecVal in[4], out[7], rq[9], rc[12], rt[12], ra[6], st[16];
  memset(in, 0, sizeof(in));
  unsigned long long c = 7;
  unsigned int d = 7;
  svBitVecVal *o4[5] = {out, rq, rc, rt, ra};
  for (int k = 0; k < 6; k++) {
    svBitVecVal *b[5] = {o4[0], o4[1], o4[2], o4[3], o4[4]};
    const svBitVecVal *a = in;
    if (k == 5) {
      a = NULL;
    } else {
      b[k] = NULL;
      EXPECT(dcqcn_dpi_advance_to(h, 100, b[0], b[1], b[2], b[3], b[4]), kDpiBadArg,
             "dcqcn_dpi_advance_to: a vector");
    }
    EXPECT(dcqcn_dpi_step(h, a, b[0], b[1], b[2], b[3], b[4]), kDpiBadArg,
           "dcqcn_dpi_step: a vector");
  }
  EXPECT(dcqcn_dpi_get_params(h, NULL), kDpiBadArg, "dcqcn_dpi_get_params: no output");
  EXPECT(dcqcn_dpi_cycle(h, NULL), kDpiBadArg, "dcqcn_dpi_cycle: no output");
  EXPECT(dcqcn_dpi_next_event(h, NULL), kDpiBadArg, "dcqcn_dpi_next_event: no output");
  EXPECT(dcqcn_dpi_scan_period(h, NULL), kDpiBadArg, "dcqcn_dpi_scan_period: no output");
  EXPECT(dcqcn_dpi_csr_read(h, 0, NULL), kDpiBadArg, "dcqcn_dpi_csr_read: no output");
  EXPECT(dcqcn_dpi_qp_state(h, 0, NULL), kDpiBadArg, "dcqcn_dpi_qp_state: no output");
  EXPECT(dcqcn_dpi_counter(h, 0, NULL), kDpiBadArg, "dcqcn_dpi_counter: no output");
  EXPECT(dcqcn_dpi_qp_counter(h, 0, 0, NULL), kDpiBadArg, "dcqcn_dpi_qp_counter: no output");
  EXPECT(dcqcn_dpi_qp_state(h, 8, st), kDpiBadArg, "qp 8 >= NumQps 8");
  EXPECT(dcqcn_dpi_qp_state(h, 0xFFFFFFFFu, st), kDpiBadArg, "qp 4294967295");
  EXPECT(dcqcn_dpi_counter(h, kDcqcnGcntCount, &c), kDpiBadArg, "counter 13 (< 13)");
  ck_assert_uint_eq(c, 0);
  EXPECT(dcqcn_dpi_qp_counter(h, 8, 0, &c), kDpiBadArg, "qp 8 (< 8)");
  EXPECT(dcqcn_dpi_qp_counter(h, 0, kDcqcnQcntCount, &c), kDpiBadArg, "counter 5 (< 5)");
  EXPECT(dcqcn_dpi_csr_read(h, 0x10000u, &d), kDpiBadArg,
         "address 0x10000 beyond the 16-bit space");
  ck_assert_uint_eq(d, 0);
  EXPECT(dcqcn_dpi_csr_write(h, 0xFFFFFFFFu, 0), kDpiBadArg, "address 0xffffffff");
  EXPECT(dcqcn_dpi_csr_read(h, 0x0002, &d), kDpiFalse, "CSR error at 0x0002");
  EXPECT(dcqcn_dpi_param_set(h, NULL, 1), kDpiBadArg, "dcqcn_dpi_param_set: no name");
  EXPECT(dcqcn_dpi_param_set(h, "", 1), kDpiBadArg, "rejected");
  EXPECT(dcqcn_dpi_param_set(h, "NO_SUCH_PARAMETER", 1), kDpiBadArg,
         "NO_SUCH_PARAMETER = 1 rejected");
  EXPECT(dcqcn_dpi_param_set(h, "RPG_TIME_RESET", 0xFFFFFFFFu), kDpiBadArg,
         "RPG_TIME_RESET = 4294967295 rejected");
  ck_assert_int_eq(dcqcn_dpi_cycle(h, &c), 0);
  ck_assert_uint_eq(c, 0);  // nothing of it moved the model
  // events for QPs the instance does not have and CSR accesses off the map: the model's
  // answer (counted as BAD_QP, CSR errors), the call succeeds
  uint64_t rng = seed_base() + 99u;
  dcqcn_in_t di;
  dcqcn_out_t o;
  for (uint64_t t = 0; t < 3000; t++) {
    memset(&di, 0, sizeof(di));
    uint64_t r = tl_rand(&rng);
    di.cnp = (dcqcn_qp_ev_t){r % 5 == 0, (uint16_t)(r % 3 == 0 ? 0xFFFF : (r >> 8) % 10)};
    di.tx = (dcqcn_tx_ev_t){r % 2 == 0, (uint16_t)((r >> 16) % 12), (uint16_t)(r >> 24)};
    di.ce = (dcqcn_qp_ev_t){r % 7 == 0, (uint16_t)((r >> 40) % 9)};
    if (r % 11 == 0) {
      di.csr = (dcqcn_csr_req_t){true, (r >> 50) % 2 == 0, (uint16_t)(r >> 32), (uint32_t)r};
    }
    memset(in, 0, sizeof(in));
    ref_put(in, 116, 1, di.cnp.valid);
    ref_put(in, 100, 16, di.cnp.qp);
    ref_put(in, 99, 1, di.tx.valid);
    ref_put(in, 83, 16, di.tx.qp);
    ref_put(in, 67, 16, di.tx.bytes);
    ref_put(in, 66, 1, di.ce.valid);
    ref_put(in, 50, 16, di.ce.qp);
    ref_put(in, 49, 1, di.csr.valid);
    ref_put(in, 48, 1, di.csr.write);
    ref_put(in, 32, 16, di.csr.addr);
    ref_put(in, 0, 32, di.csr.wdata);
    dcqcn_step(m, &di, &o);
    ck_assert_int_eq(dcqcn_dpi_step(h, in, out, rq, rc, rt, ra), 0);
    ck_assert_uint_eq(ref_get(out, 137, 64), o.cycle);
    ck_assert_uint_eq(ref_get(out, 115, 5), o.n_rate);
    ck_assert_uint_eq(ref_get(out, 33, 1), o.csr_rsp.valid);
    if (o.csr_rsp.valid) {
      ck_assert_uint_eq(ref_get(out, 32, 1), o.csr_rsp.err);
      ck_assert_uint_eq(ref_get(out, 0, 32), o.csr_rsp.rdata);
    }
  }
  ck_assert_uint_gt(dcqcn_counter(m, kDcqcnGcntBadQp), 0);
  for (uint32_t k = 0; k < kDcqcnGcntCount; k++) {
    ck_assert_int_eq(dcqcn_dpi_counter(h, k, &c), 0);
    ck_assert_uint_eq(c, dcqcn_counter(m, (dcqcn_gcnt_t)k));
  }
  ck_assert_int_eq(dcqcn_dpi_destroy(h), 0);
  dcqcn_destroy(m);
  ck_assert_int_eq(dcqcn_dpi_instances(), n0);
}
END_TEST

// ------------------------------------------------------------------ threads
typedef struct run {
  void *h;
  uint64_t seed;
  svBitVecVal gs[8];
  int status;
} run_t;

static void *run_thread(void *arg) {
  run_t *r = (run_t *)arg;
  static _Thread_local xvec_t v;
  static _Thread_local xtm_in_t in;
  uint64_t rng = r->seed;
  memset(&v, 0, sizeof(v));
  r->status = 0;
  for (uint64_t t = 0; t < 20000 && r->status == 0; t++) {
    gen_in(&rng, t, 4, &in);
    pack_in(&v, &in);
    r->status = xtm_dpi_step(r->h, v.in, v.rvec, v.rq, v.out, v.deq, v.tvec, v.tq);
  }
  if (r->status == 0) {
    r->status = xtm_dpi_global_state(r->h, r->gs);
  }
  return NULL;
}

START_TEST(test_threads_instances) {
  svBitVecVal pv[7];
  xtm_params_vec(4, 4, 256, pv);
  run_t ref = {.seed = seed_base() + 5u}, rs[4];
  ck_assert_int_eq(xtm_dpi_create(pv, &ref.h), 0);
  run_thread(&ref);
  ck_assert_int_eq(ref.status, 0);
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    rs[i] = (run_t){.seed = ref.seed};
    ck_assert_int_eq(xtm_dpi_create(pv, &rs[i].h), 0);
    ck_assert_int_eq(pthread_create(&th[i], NULL, run_thread, &rs[i]), 0);
  }
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    ck_assert_int_eq(rs[i].status, 0);
    ck_assert_mem_eq(rs[i].gs, ref.gs, sizeof(ref.gs));  // same state as the single thread
    ck_assert_int_eq(xtm_dpi_destroy(rs[i].h), 0);
  }
  ck_assert_int_eq(xtm_dpi_destroy(ref.h), 0);
}
END_TEST

typedef struct hammer {
  void *h;
  long ok, busy, bad, other;
  int stop_on_bad;
} hammer_t;

static void *hammer_thread(void *arg) {
  hammer_t *x = (hammer_t *)arg;
  for (long i = 0; i < 200000; i++) {
    unsigned int d = 0;
    int r = xtm_dpi_csr_read(x->h, XTM_LFSR_STATE_REG_OFFSET, &d);
    if (r == kDpiOk) {
      x->ok++;
    } else if (r == kDpiBusy) {
      x->busy++;
    } else if (r == kDpiBadHandle) {
      x->bad++;
      if (x->stop_on_bad) {
        break;
      }
    } else {
      x->other++;
    }
  }
  return NULL;
}

START_TEST(test_threads_one_instance) {
  svBitVecVal pv[7];
  xtm_params_vec(2, 2, 64, pv);
  void *h = NULL;
  ck_assert_int_eq(xtm_dpi_create(pv, &h), 0);
  hammer_t a = {.h = h}, b = {.h = h};
  pthread_t ta, tb;
  ck_assert_int_eq(pthread_create(&ta, NULL, hammer_thread, &a), 0);
  ck_assert_int_eq(pthread_create(&tb, NULL, hammer_thread, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  printf("dpi threads on one instance: ok %ld + %ld, busy %ld + %ld\n", a.ok, b.ok, a.busy, b.busy);
  ck_assert_int_eq(a.other + b.other + a.bad + b.bad, 0);
  ck_assert_int_eq(a.ok + a.busy, 200000);
  ck_assert_int_eq(b.ok + b.busy, 200000);
  ck_assert_int_eq(xtm_dpi_check_invariants(h), 0);
  // destroy while another thread uses it: that thread sees OK/BUSY, then BAD_HANDLE
  hammer_t c = {.h = h, .stop_on_bad = 1};
  ck_assert_int_eq(pthread_create(&ta, NULL, hammer_thread, &c), 0);
  int r;
  while ((r = xtm_dpi_destroy(h)) == kDpiBusy) {
  }
  ck_assert_int_eq(r, 0);
  pthread_join(ta, NULL);
  ck_assert_int_eq(c.other, 0);
  ck_assert_int_eq(xtm_dpi_instances(), 0);
}
END_TEST

static Suite *dpi_suite(void) {
  Suite *s = suite_create("dpi");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);  // ASan builds on a loaded machine
  tcase_add_test(tc, test_bits);
  tcase_add_loop_test(tc, test_xtm_step_equiv, 0, 3);
  tcase_add_test(tc, test_dcqcn_step_equiv);
  tcase_add_test(tc, test_bad_handles);
  tcase_add_test(tc, test_full_table);
  tcase_add_test(tc, test_xtm_bad_params);
  tcase_add_test(tc, test_abi_sizes);
  tcase_add_test(tc, test_xtm_bad_args);
  tcase_add_test(tc, test_xtm_bad_bundle);
  tcase_add_test(tc, test_every_fn_bad_handle);
  tcase_add_test(tc, test_dcqcn_bad_args);
  tcase_add_test(tc, test_threads_instances);
  tcase_add_test(tc, test_threads_one_instance);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(dpi_suite()); }
