// SPDX-License-Identifier: Apache-2.0
//
// Suite "profile": the drop/mark profile value (docs/spec.md 6.1), the LFSRs (6.4), and
// what the profile at enqueue reads (6.2: the occupancy of S(t-2), a draw whatever checks
// a-e decide).
// Decisions are observed on the tail-drop path (ECN off, non-ECT: reason PROFILE) or the
// tail-mark path (ECN on, ECT(0), MARK_POINT TAIL: enq_res.marked), and for x = 1 on the
// head-mark path (6.3). Occupancy is held by pausing the egress port (7.2): VOQ 0 (port 0,
// queue 0) has Q_CFG.PFC_RX_EN with PFC_PRIO 0 and a PFC frame of quanta 0xFFFF pauses it
// for ceil(65535 * 5.12) > 3e5 cycles, far longer than any test here. Cells are 256 B.
//
// Every expected value below is derived from the spec by hand; the LFSR reference is the
// spec's step()/draw() coded again here, independent of the model.

#include <string.h>

#include "tests/unit/xtm_testlib.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t kPfcRxEn = 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;  // PFC_PRIO = 0
static const uint32_t kResetSeed = 0xACE1ACE1u;                     // LFSR_SEED reset
static const uint32_t kFillProfile = 7;  // never programmed: NPOINTS 0, segmented: p = 0

// ---------------------------------------------------------------- spec 6.4 reference
static uint32_t ref_step(uint32_t s) { return (s & 1u) ? (s >> 1) ^ 0x80200003u : (s >> 1); }
static uint32_t ref_draw(uint32_t *s) {
  for (int i = 0; i < 16; i++) {
    *s = ref_step(*s);
  }
  return *s & 0xFFFFu;
}
// Inverse of ref_step: an odd predecessor gives bit 31 set after the step (0 ^ 1), an even
// one gives bit 31 clear. Used to build a seed whose next draw is a chosen r.
static uint32_t ref_unstep(uint32_t s) {
  return (s & 0x80000000u) ? ((s ^ 0x80200003u) << 1) | 1u : s << 1;
}
static uint32_t seed_for_r(uint32_t r) {
  uint32_t s = 0x5A5A0000u | r;
  for (int i = 0; i < 16; i++) {
    s = ref_unstep(s);
  }
  uint32_t chk = s;
  ck_assert_uint_eq(ref_draw(&chk), r);  // self-check of the reference
  ck_assert_uint_ne(s, 0);
  return s;
}

// ---------------------------------------------------------------- helpers
static uint32_t lfsr(xtm_t *m) { return tl_rd(m, XTM_LFSR_STATE_REG_OFFSET); }

static void pfc_port0(xtm_t *m, uint16_t quanta0) {
  uint16_t q[8] = {quanta0, 0, 0, 0, 0, 0, 0, 0};
  xtm_out_t out;
  tl_pfc_rx(m, 0, 0x01, q, &out);
}

// A 2x2 model with VOQ 0 paused, limit `limit`, holding `occ` cells (filled in packets of
// at most 36 cells = 9216 B = MAX_FRAME while on kFillProfile, so none is dropped), then
// Q_CFG = qcfg_on_probe (plus PFC_RX_EN).
static xtm_t *setup_voq0_p(const xtm_params_t *prm, uint32_t limit, uint32_t occ,
                           uint32_t qcfg_on_probe) {
  xtm_t *m = tl_create_params(prm);
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, limit);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET,
            tl_qcfg(false, false, false, false, 0, kFillProfile) | kPfcRxEn);
  pfc_port0(m, 0xFFFF);
  uint32_t id = 1000;
  xtm_out_t out;
  uint32_t left = occ;
  while (left > 0) {
    uint32_t c = left > 36 ? 36 : left;
    tl_enq(m, 1, 0, 0, 0, (uint16_t)(c * 256), id++, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    left -= c;
  }
  // two idle cycles: the enqueue profile reads the occupancy of S(t-2) (spec 6.2), which is
  // then the occupancy just filled
  tl_idle(m, &out);
  tl_idle(m, &out);
  xtm_voq_state_t vs;
  xtm_voq_state(m, 0, &vs);
  ck_assert_uint_eq(vs.occ_cells, occ);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, qcfg_on_probe | kPfcRxEn);
  return m;
}

static xtm_t *setup_voq0(uint32_t limit, uint32_t occ, uint32_t qcfg_on_probe) {
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = 2;
  prm.num_tcs = 2;
  prm.num_desc = 64;
  return setup_voq0_p(&prm, limit, occ, qcfg_on_probe);
}

// Probe: one 1-cell packet (len 100) to VOQ 0. ect selects ECT(0) (2) or non-ECT (0).
static void probe(xtm_t *m, bool ect, xtm_out_t *out) {
  tl_enq(m, 1, 0, 0, ect ? 2 : 0, 100, 77, out);
  ck_assert(out->enq_res.valid);
  ck_assert_uint_eq(out->enq_res.voq, 0);
}

// ================================================================ LFSR (spec 6.4)

// First draws from the reset seed: segmented profile with one point (F 0, P 32078). F = 0
// is reached at any occupancy (65536*occ >= 0), so every probe draws once; hit = r < 32078.
START_TEST(test_lfsr_reset_draws) {
  xtm_t *m = setup_voq0(1000, 0, tl_qcfg(false, false, false, false, 0, 1));
  ck_assert_uint_eq(tl_rd(m, XTM_LFSR_SEED_REG_OFFSET), kResetSeed);
  ck_assert_uint_eq(lfsr(m), kResetSeed);  // init cycles and the PFC frame drew nothing
  const uint32_t f[1] = {0}, p[1] = {32078};
  tl_profile(m, 1, false, 1, f, p);
  // r_k = low 16 bits after 16k steps from 0xACE1ACE1 (spec 6.4, computed by hand with the
  // formula): r1 0x1223 = 4643, r2 0x6183 = 24963, r3 0x7D4E = 32078, r4 0xBD5C = 48476,
  // r5 0xB8F3 = 47347, r6 0x36A6 = 13990.
  static const struct {
    uint32_t r, state;
    xtm_reason_t reason;
  } kDraws[] = {
      {4643, 0xE2C31223u, kXtmReasonProfile},   // 4643 < 32078: hit
      {24963, 0x060C6183u, kXtmReasonProfile},  // 24963 < 32078: hit
      {32078, 0xCDDE7D4Eu, kXtmReasonAccept},   // 32078 < 32078 false: strict compare
      {48476, 0xC9F0BD5Cu, kXtmReasonAccept},   // 48476 >= 32078
      {47347, 0x89E6B8F3u, kXtmReasonAccept},   // 47347 >= 32078
      {13990, 0x3EF236A6u, kXtmReasonProfile},  // 13990 < 32078
  };
  uint32_t ref = kResetSeed;
  xtm_out_t out;
  for (size_t i = 0; i < ARRAY_LEN(kDraws); i++) {
    uint32_t r = ref_draw(&ref);
    ck_assert_uint_eq(r, kDraws[i].r);  // hand value == in-test reference
    ck_assert_uint_eq(ref, kDraws[i].state);
    probe(m, false, &out);
    ck_assert_msg(out.enq_res.reason == kDraws[i].reason, "draw %zu: reason %s, expected %s", i + 1,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kDraws[i].reason));
    ck_assert_uint_eq(lfsr(m), ref);  // exactly 16 steps per draw
  }
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDropProfile), 3);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// The LFSR moves only on draws: idle cycles, p = 0 and p = 1 decisions leave it alone.
START_TEST(test_lfsr_no_advance_without_draw) {
  xtm_t *m = setup_voq0(1000, 0, tl_qcfg(false, false, false, false, 0, 1));
  const uint32_t f[1] = {0}, p50[1] = {32768}, p0[1] = {0}, p100[1] = {65536};
  tl_profile(m, 1, false, 1, f, p50);
  tl_profile(m, 2, false, 1, f, p0);
  tl_profile(m, 3, false, 1, f, p100);
  xtm_out_t out;
  probe(m, false, &out);  // one draw: r1 = 4643 < 32768 -> PROFILE
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonProfile);
  uint32_t ref = kResetSeed;
  (void)ref_draw(&ref);
  ck_assert_uint_eq(lfsr(m), ref);
  // 5000 idle cycles (closed form and stepping): unchanged.
  ck_assert(!xtm_advance_to(m, xtm_cycle(m) + 4000, &out));
  for (int i = 0; i < 1000; i++) {
    tl_idle(m, &out);
  }
  ck_assert_uint_eq(lfsr(m), ref);
  // p = 0 (P 0): accepted without a draw; p = 1 (P 65536): dropped without a draw.
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 2) | kPfcRxEn);
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(lfsr(m), ref);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 3) | kPfcRxEn);
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonProfile);
  ck_assert_uint_eq(lfsr(m), ref);
  // Same on the tail-mark path (ECN on, ECT(0), TAIL): P 65536 marks without a draw.
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, true, false, 0, 3) | kPfcRxEn);
  probe(m, true, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(out.enq_res.marked);
  ck_assert_uint_eq(lfsr(m), ref);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// LFSR_SEED loads the state; 0 is illegal (ignored, ERR_STATUS.ILLEGAL, ERR_ADDR 0x5C).
START_TEST(test_lfsr_seed_write) {
  xtm_t *m = setup_voq0(1000, 0, tl_qcfg(false, false, false, false, 0, 1));
  const uint32_t f[1] = {0}, p[1] = {32768};
  tl_profile(m, 1, false, 1, f, p);
  tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, 0x12345678u);
  ck_assert_uint_eq(tl_rd(m, XTM_LFSR_SEED_REG_OFFSET), 0x12345678u);
  ck_assert_uint_eq(lfsr(m), 0x12345678u);
  uint32_t ref = 0x12345678u;
  uint32_t r = ref_draw(&ref);
  xtm_out_t out;
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, r < 32768 ? kXtmReasonProfile : kXtmReasonAccept);
  ck_assert_uint_eq(lfsr(m), ref);
  // Illegal 0: the backdoor reports the error; nothing changes.
  ck_assert(!xtm_csr_write(m, XTM_LFSR_SEED_REG_OFFSET, 0));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET) & (1u << XTM_ERR_STATUS_ILLEGAL_BIT),
                    1u << XTM_ERR_STATUS_ILLEGAL_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_LFSR_SEED_REG_OFFSET);
  ck_assert_uint_eq(tl_rd(m, XTM_LFSR_SEED_REG_OFFSET), 0x12345678u);
  ck_assert_uint_eq(lfsr(m), ref);
  // Illegal 0 on the bus: err = 1, state unchanged.
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  in.csr =
      (xtm_csr_req_t){.valid = true, .write = true, .addr = XTM_LFSR_SEED_REG_OFFSET, .wdata = 0};
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid);
  ck_assert(out.csr_rsp.err);
  ck_assert_uint_eq(lfsr(m), ref);
  // A bus write in a cycle with a draw: the draw uses the old state (r from seed_for_r(100)
  // is 100 < 32768: PROFILE), the state at the end of the cycle is the written seed.
  tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, seed_for_r(100));
  in.csr.wdata = 0xCAFEF00Du;
  in.enq = (xtm_enq_in_t){
      .valid = true, .pkt_id = 5, .in_port = 1, .eg_port = 0, .dscp = 0, .ecn = 0, .len = 64};
  xtm_step(m, &in, &out);
  ck_assert(!out.csr_rsp.err);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonProfile);
  ck_assert_uint_eq(lfsr(m), 0xCAFEF00Du);
  // A seed chosen for r = 40000 >= 32768: accepted; then the state is one draw further.
  uint32_t s = seed_for_r(40000);
  tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, s);
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(lfsr(m), 0x5A5A0000u | 40000u);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ================================================================ segmented (spec 6.1)

// L = 1000 cells; points (F, P): (16384 = 25 %, 65536), (19661 = 30 %, 0),
// (39322 = 60 %, 65536), (52429 = 80 %, 0). Point i is reached iff 65536*occ >= F*L:
//   pt0: F*L = 16,384,000 = 65536*250 exactly          -> reached from occ 250
//   pt1: F*L = 19,661,000; 65536*300 = 19,660,800 <    -> reached from occ 301
//   pt2: F*L = 39,322,000; 65536*600 = 39,321,600 <    -> reached from occ 601
//   pt3: F*L = 52,429,000; 65536*800 = 52,428,800 <    -> reached from occ 801
// P is 0 or 65536 everywhere, so no decision draws (LFSR stays at the seed).
// The probe is 1 cell, so occ + 1 <= 1000 passes the TAIL check for occ <= 999.
START_TEST(test_segmented_thresholds) {
  static const uint32_t kF[4] = {16384, 19661, 39322, 52429};
  static const uint32_t kP[4] = {65536, 0, 65536, 0};
  static const struct {
    uint32_t occ;
    bool hit;
  } kCases[] = {
      {0, false},    // no point reached: P = 0
      {249, false},  // 65536*249 = 16,318,464 < 16,384,000: none reached
      {250, true},   // pt0 reached (equality): P0 = 65536
      {251, true},   // pt0
      {300, true},   // pt1 not yet (19,660,800 < 19,661,000): still pt0
      {301, false},  // pt1 reached: P1 = 0
      {302, false},  // pt1
      {600, false},  // pt2 not yet (39,321,600 < 39,322,000): pt1
      {601, true},   // pt2 reached: P2 = 65536
      {602, true},   // pt2
      {800, true},   // pt3 not yet: pt2
      {801, false},  // pt3 reached: P3 = 0
      {802, false},  // pt3
      {999, false},  // pt3 (last occupancy admitting a 1-cell probe under L = 1000)
  };
  for (int path = 0; path < 2; path++) {  // 0: tail drop, 1: tail mark
    for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
      uint32_t qcfg = tl_qcfg(false, false, path == 1, false, XTM_Q_CFG_MARK_POINT_VALUE_TAIL, 1);
      xtm_t *m = setup_voq0(1000, kCases[i].occ, qcfg);
      tl_profile(m, 1, false, 4, kF, kP);
      xtm_out_t out;
      probe(m, path == 1, &out);
      if (path == 0) {
        xtm_reason_t want = kCases[i].hit ? kXtmReasonProfile : kXtmReasonAccept;
        ck_assert_msg(out.enq_res.reason == want, "drop path occ %u: reason %s, expected %s",
                      kCases[i].occ, xtm_reason_name(out.enq_res.reason), xtm_reason_name(want));
      } else {
        ck_assert_msg(out.enq_res.reason == kXtmReasonAccept && out.enq_res.marked == kCases[i].hit,
                      "mark path occ %u: reason %s marked %d, expected marked %d", kCases[i].occ,
                      xtm_reason_name(out.enq_res.reason), out.enq_res.marked, kCases[i].hit);
      }
      ck_assert_uint_eq(lfsr(m), kResetSeed);  // P in {0, 65536}: no draw
      tl_check_invariants(m);
      xtm_destroy(m);
    }
  }
}
END_TEST

// Segmented with n = 0: probability 0 everywhere, no draw.
START_TEST(test_segmented_no_points) {
  xtm_t *m = setup_voq0(1000, 999, tl_qcfg(false, false, false, false, 0, 1));
  tl_profile(m, 1, false, 0, NULL, NULL);
  xtm_out_t out;
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(lfsr(m), kResetSeed);
  xtm_destroy(m);
}
END_TEST

// Points out of fill order: i* is the highest INDEX reached (6.1), not the highest fill.
// L = 1000; pt0 (52429 = 80 %, P 0) reached from occ 801 (65536*800 = 52,428,800 <
// 52,429,000); pt1 (16384 = 25 %, P 65536) reached from occ 250 (65536*250 = 16,384,000).
START_TEST(test_segmented_unordered_points) {
  static const uint32_t kF[2] = {52429, 16384};
  static const uint32_t kP[2] = {0, 65536};
  static const struct {
    uint32_t occ;
    xtm_reason_t reason;
  } kCases[] = {
      {249, kXtmReasonAccept},   // none reached
      {300, kXtmReasonProfile},  // pt1 only (pt0 not reached does not stop the scan)
      {900, kXtmReasonProfile},  // both reached: i* = 1 (P1 = 65536), not pt0 (higher fill)
  };
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = setup_voq0(1000, kCases[i].occ, tl_qcfg(false, false, false, false, 0, 1));
    tl_profile(m, 1, false, 2, kF, kP);
    xtm_out_t out;
    probe(m, false, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "occ %u: %s, expected %s", kCases[i].occ,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_uint_eq(lfsr(m), kResetSeed);
    xtm_destroy(m);
  }
}
END_TEST

// Products above 2^32 (6.1: exact below 2^62). L = 100000, occ 80000 or 80001, held in a
// model with OcbCells = 2^20 (some cells may go to HBM after eviction: occupancy counts
// cells wherever they are, 5.1).
//   segmented (52429, 65536): F*L = 5,242,900,000; 65536*80000 = 5,242,880,000 < it ->
//     not reached (accept); 65536*80001 = 5,242,945,536 -> reached (drop, no draw).
//   interpolated (32768, 16384) at occ 80000: pt0 reached (5,242,880,000 >= 3,276,800,000),
//     segment (32768,16384)->(65536,65536): Dn = 32768*100000 = 3,276,800,000,
//     N = 16384*Dn + 49152*(5,242,880,000 - 3,276,800,000) = 150,323,855,360,000;
//     N/Dn = 45875.2 -> r 45875 hits, r 45876 does not.
START_TEST(test_large_products) {
  static const struct {
    bool interp;
    uint32_t occ, r;  // r = 0: no draw expected
    xtm_reason_t reason;
  } kCases[] = {
      {false, 80000, 0, kXtmReasonAccept},
      {false, 80001, 0, kXtmReasonProfile},
      {true, 80000, 45875, kXtmReasonProfile},
      {true, 80000, 45876, kXtmReasonAccept},
  };
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = 2;
  prm.num_tcs = 2;
  prm.ocb_cells = 1u << 20;
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = setup_voq0_p(&prm, 100000, kCases[i].occ, tl_qcfg(false, false, false, false, 0, 1));
    const uint32_t fs[1] = {52429}, ps[1] = {65536};
    const uint32_t fi[1] = {32768}, pi[1] = {16384};
    if (kCases[i].interp) {
      tl_profile(m, 1, true, 1, fi, pi);
    } else {
      tl_profile(m, 1, false, 1, fs, ps);
    }
    uint32_t seed = kCases[i].r != 0 ? seed_for_r(kCases[i].r) : kResetSeed;
    tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, seed);
    uint32_t ref = seed;
    if (kCases[i].r != 0) {
      (void)ref_draw(&ref);
    }
    xtm_out_t out;
    probe(m, false, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_uint_eq(lfsr(m), ref);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// The enqueue evaluation uses the occupancy of S(t-2) (6.2, 15.4). L = 1000, point
// (16384, 65536) reached from occ 250 (65536*250 = 16,384,000 = 16384*1000), always (no
// draw). VOQ 0 (paused) holds 214 cells; A (36 cells) is accepted in cycle a (occ 250 from
// S(a+1) on). 1-cell probes: at a+1 (reads S(a-1): 214) ACCEPT, at a+2 (S(a): 214) ACCEPT,
// at a+3 (S(a+1): 250) PROFILE.
START_TEST(test_enqueue_profile_two_cycles_old) {
  const uint32_t f[1] = {16384}, p[1] = {65536};
  xtm_t *m = setup_voq0(1000, 214, tl_qcfg(false, false, false, false, 0, 1));
  tl_profile(m, 1, false, 1, f, p);
  xtm_out_t out;
  tl_enq(m, 1, 0, 0, 0, 36 * 256, 50, &out);  // a: S(a-2) = 214, not reached
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  static const xtm_reason_t kProbe[3] = {kXtmReasonAccept, kXtmReasonAccept, kXtmReasonProfile};
  for (uint32_t k = 0; k < 3; k++) {
    probe(m, false, &out);  // a+1+k
    ck_assert_msg(out.enq_res.reason == kProbe[k], "probe at a+%u: %s, expected %s", k + 1,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kProbe[k]));
  }
  ck_assert_uint_eq(lfsr(m), kResetSeed);  // p = 0 or 1: no draw
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Nor is the dequeue of the same cycle seen (4.4, 6.2): VOQ 0 holds A (36 cells, head) +
// 214 = 250 cells, steady for two cycles. A probe in a plain cycle sees 250: PROFILE; a
// probe in the XON cycle (A selected at step 5) also sees 250 (S(t-2)): PROFILE. (Version 1
// read the occupancy after the dequeue, 214: ACCEPT.)
START_TEST(test_enqueue_profile_ignores_same_cycle_dequeue) {
  const uint32_t f[1] = {16384}, p[1] = {65536};
  for (int xon = 0; xon < 2; xon++) {
    xtm_t *m = setup_voq0(1000, 250, tl_qcfg(false, false, false, false, 0, 1));
    tl_profile(m, 1, false, 1, f, p);
    xtm_in_t in;
    memset(&in, 0, sizeof(in));
    in.tx_ready = UINT64_MAX;
    in.enq = (xtm_enq_in_t){
        .valid = true, .pkt_id = 9, .in_port = 1, .eg_port = 0, .dscp = 0, .ecn = 0, .len = 100};
    if (xon) {
      in.pfc_rx_valid = 1;
      in.pfc_rx[0].vec = 0x01;  // quanta[0] = 0: XON
    }
    xtm_out_t out;
    xtm_step(m, &in, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonProfile);
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDeqPkts), xon ? 1 : 0);
    ck_assert_uint_eq(lfsr(m), kResetSeed);
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// The enqueue evaluation and its draw happen for every classified arrival the 6.2 table
// selects, whatever checks a-e decide (6.2, 15.4). Profile 1 = (F 0, P 32768): a draw for
// any occupancy; r1 = 4643 < 32768 would hit. Non-ECT packets, ECN off (the drop row).
// Validation failures (4.2) and packets the table does not select draw nothing.
START_TEST(test_draw_independent_of_checks) {
  enum { kQdis, kHdrmDrop, kHdrmAcc, kTailC, kPoolC, kProf, kLenMax, kCe, kNoLoss };
  static const struct {
    int what;
    xtm_reason_t reason;
    bool draw;
  } kCases[] = {
      {kQdis, kXtmReasonQDisabled, true},     // check a
      {kHdrmDrop, kXtmReasonHeadroom, true},  // check c, headroom 0
      {kHdrmAcc, kXtmReasonAccept, true},     // check c, into headroom: hit ignored
      {kTailC, kXtmReasonTail, true},         // check d, limit 0
      {kPoolC, kXtmReasonPool, true},         // check e, POOL_CELLS 0
      {kProf, kXtmReasonProfile, true},       // check f uses the hit
      {kLenMax, kXtmReasonLenMax, false},     // validation: not classified
      {kCe, kXtmReasonAccept, false},         // CE with ECN_EN: not in the table
      {kNoLoss, kXtmReasonAccept, false},     // NO_LOSS: not in the table
  };
  const uint32_t f[1] = {0}, p[1] = {32768};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_profile(m, 1, false, 1, f, p);
    int w = kCases[i].what;
    uint32_t cfg = tl_qcfg(false, w == kNoLoss, w == kCe, false, 0, 1);
    if (w == kQdis) {
      cfg &= ~(1u << XTM_Q_CFG_ENABLE_OFFSET);
    }
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, cfg);
    if (w == kTailC) {
      tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0);
    }
    if (w == kPoolC) {
      tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 0);
    }
    xtm_out_t out;
    if (w == kHdrmDrop || w == kHdrmAcc) {
      // PG (in_port 1, prio 0): PFC_EN, XOFF_T 0 -> set at the evaluation the threshold write
      // asks for (next cycle): pg_cells 0 >= 0
      tl_pg_wr(m, 1, 0, XTM_G_CFG_REG_OFFSET, 1u << XTM_G_CFG_PFC_EN_OFFSET);
      tl_pg_wr(m, 1, 0, XTM_G_XOFF_CELLS_REG_OFFSET, 0);
      tl_pg_wr(m, 1, 0, XTM_G_HDRM_CELLS_REG_OFFSET, w == kHdrmAcc ? 10 : 0);
      tl_idle(m, &out);
      ck_assert_uint_eq(tl_pg_rd(m, 1, 0, XTM_G_STATUS_REG_OFFSET), 1);
    }
    uint16_t len = w == kLenMax ? 9217 : 100;
    tl_enq(m, 1, 0, 0, w == kCe ? 3 : 0, len, 5, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_msg(lfsr(m) == (kCases[i].draw ? 0xE2C31223u : kResetSeed), "case %zu: LFSR 0x%08x",
                  i, lfsr(m));
    xtm_destroy(m);
  }
}
END_TEST

// ================================================================ interpolated (spec 6.1)

// L = 1024 cells, points (32768, 16384) and (49152, 49152), lines through (0,0) and
// (65536, 65536). O = 65536*occ. pt0 reached iff 65536*occ >= 32768*1024 <=> occ >= 512;
// pt1 iff occ >= 768. hit = r*Dn < N, which simplifies per segment to r < T(occ):
//   none (occ < 512): (0,0)->(32768,16384): Dn = 2^25, N = 16384*65536*occ = 2^30*occ
//                     -> r < 32*occ
//   i*=0 (512..767):  (32768,16384)->(49152,49152): Dn = 2^24,
//                     N = 16384*2^24 + 32768*65536*(occ-512) -> r < 16384 + 128*(occ-512)
//   i*=1 (768..1023): (49152,49152)->(65536,65536): Dn = 2^24,
//                     N = 49152*2^24 + 16384*65536*(occ-768) -> r < 49152 + 64*(occ-768)
// r is forced by seeding the LFSR so that its next draw is r (seed_for_r; r = 4643 is the
// first draw from the reset seed). Every case with occ > 0 has 0 < N < 65536*Dn: one draw.
START_TEST(test_interpolated_values) {
  static const uint32_t kF[2] = {32768, 49152};
  static const uint32_t kP[2] = {16384, 49152};
  static const struct {
    uint32_t occ, r;
    bool reset_seed, hit, draw;
  } kCases[] = {
      {0, 0, true, false, false},        // N = 0: p = 0, no draw (implicit (0,0) start)
      {1, 31, false, true, true},        // T = 32
      {1, 32, false, false, true},       // T = 32, strict
      {145, 4643, true, false, true},    // T = 4640
      {146, 4643, true, true, true},     // T = 4672
      {511, 16351, false, true, true},   // T = 16352 (still the first segment)
      {511, 16352, false, false, true},  // T = 16352
      {512, 16383, false, true, true},   // pt0 reached: T = 16384
      {512, 16384, false, false, true},  // T = 16384
      {600, 27647, false, true, true},   // T = 16384 + 128*88 = 27648
      {600, 27648, false, false, true},
      {767, 49023, false, true, true},  // T = 16384 + 128*255 = 49024
      {767, 49024, false, false, true},
      {768, 49151, false, true, true},  // pt1 reached: T = 49152
      {768, 49152, false, false, true},
      {1023, 65471, false, true, true},  // T = 49152 + 64*255 = 65472 (towards (1,1))
      {1023, 65472, false, false, true},
  };
  for (int path = 0; path < 2; path++) {
    for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
      uint32_t qcfg = tl_qcfg(false, false, path == 1, false, XTM_Q_CFG_MARK_POINT_VALUE_TAIL, 1);
      xtm_t *m = setup_voq0(1024, kCases[i].occ, qcfg);
      tl_profile(m, 1, true, 2, kF, kP);
      uint32_t seed = kCases[i].reset_seed ? kResetSeed : seed_for_r(kCases[i].r);
      tl_wr(m, XTM_LFSR_SEED_REG_OFFSET, seed);
      uint32_t ref = seed;
      if (kCases[i].draw) {
        ck_assert_uint_eq(ref_draw(&ref), kCases[i].r);
      }
      xtm_out_t out;
      probe(m, path == 1, &out);
      bool hit = path == 0 ? out.enq_res.reason == kXtmReasonProfile : out.enq_res.marked;
      if (path == 1) {
        ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
      } else {
        ck_assert(out.enq_res.reason == kXtmReasonProfile ||
                  out.enq_res.reason == kXtmReasonAccept);
      }
      ck_assert_msg(hit == kCases[i].hit, "path %d occ %u r %u: hit %d, expected %d", path,
                    kCases[i].occ, kCases[i].r, hit, kCases[i].hit);
      ck_assert_msg(lfsr(m) == ref, "path %d occ %u: LFSR 0x%08x, expected 0x%08x", path,
                    kCases[i].occ, lfsr(m), ref);
      tl_check_invariants(m);
      xtm_destroy(m);
    }
  }
}
END_TEST

// Interpolated with n = 0: the diagonal (0,0)->(65536,65536), p = occ/L. L = 1024:
// Dn = 65536*1024 = 2^26, N = 65536*65536*occ = 2^32*occ, hit iff r < 64*occ.
// r1 = 4643 (reset seed): occ 72 -> T 4608 miss; occ 73 -> T 4672 hit.
START_TEST(test_interpolated_no_points) {
  static const struct {
    uint32_t occ;
    xtm_reason_t reason;
  } kCases[] = {{72, kXtmReasonAccept}, {73, kXtmReasonProfile}};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = setup_voq0(1024, kCases[i].occ, tl_qcfg(false, false, false, false, 0, 1));
    tl_profile(m, 1, true, 0, NULL, NULL);
    xtm_out_t out;
    probe(m, false, &out);
    ck_assert_uint_eq(out.enq_res.reason, kCases[i].reason);
    ck_assert_uint_eq(lfsr(m), 0xE2C31223u);  // one draw from the reset seed
    xtm_destroy(m);
  }
}
END_TEST

// ================================================================ limit 0 (x = 1)

// At enqueue, L = 0 fails the TAIL check (occ + cells > 0), which comes before the profile;
// the profile (x = 1: p = P0 = 32768, a draw) is still evaluated and draws (6.2): one draw.
START_TEST(test_limit_zero_enqueue_tail) {
  xtm_t *m = setup_voq0(0, 0, tl_qcfg(false, false, false, false, 0, 1));
  const uint32_t f[1] = {0}, p[1] = {32768};
  tl_profile(m, 1, false, 1, f, p);
  xtm_out_t out;
  probe(m, false, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonTail);
  ck_assert_uint_eq(lfsr(m), 0xE2C31223u);
  xtm_destroy(m);
}
END_TEST

// x = 1 for L = 0, observed with head marking (6.3, the head LFSR, decided 3 cycles after
// the selection, output OCB_RD_LAT = 5 after it): one ECT(0) packet of 1 cell is held
// under limit 1000, then Q_LIMIT_CELLS = 0, ECN_EN, MARK_POINT HEAD, and the pause ends
// (XON, quanta 0: pause_end = t, so the packet is selected in that very cycle, 7.2/9.1).
// For L = 0: O = 65536, L taken as 1, so point i is reached iff 65536 >= F_i (all points).
START_TEST(test_limit_zero_head) {
  static const struct {
    bool interp;
    uint32_t n, f[2], p[2];
    uint32_t r;  // forced next draw (0: no seeding)
    bool marked, draw;
  } kCases[] = {
      // segmented, both reached: P1 = 65536 -> marked, no draw.
      {false, 2, {32768, 65536}, {0, 65536}, 0, true, false},
      // segmented, both reached: P1 = 0 -> not marked, no draw (P0 = 65536 is not i*).
      {false, 2, {0, 65536}, {65536, 0}, 0, false, false},
      // interpolated, n = 0: diagonal at x = 1: N = 65536*65536 = 65536*Dn -> p = 1.
      {true, 0, {0, 0}, {0, 0}, 0, true, false},
      // interpolated, point (65536, 20000) reached, end (65536,65536): Fb <= Fa, p = Pa =
      // 20000, draw: r 19999 < 20000 -> marked; r 20000 -> not.
      {true, 1, {65536, 0}, {20000, 0}, 19999, true, true},
      {true, 1, {65536, 0}, {20000, 0}, 20000, false, true},
      // interpolated, point (32768, 0): reached, segment (32768,0)->(65536,65536):
      // Dn = 32768*1, N = 0 + 65536*(65536 - 32768) = 65536*Dn -> p = 1, no draw.
      {true, 1, {32768, 0}, {0, 0}, 0, true, false},
  };
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 64);
    tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 1000);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(false, false, false, false, 0, kFillProfile) | kPfcRxEn);
    pfc_port0(m, 0xFFFF);
    xtm_out_t out;
    tl_enq(m, 1, 0, 0, 2, 200, 42, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    tl_profile(m, 1, kCases[i].interp, kCases[i].n, kCases[i].f, kCases[i].p);
    tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0);
    tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET,
              tl_qcfg(false, false, true, false, XTM_Q_CFG_MARK_POINT_VALUE_HEAD, 1) | kPfcRxEn);
    uint32_t seed = kCases[i].r != 0 ? seed_for_r(kCases[i].r) : 0x5EED1E55u;
    tl_wr(m, XTM_LFSR_HEAD_SEED_REG_OFFSET, seed);
    uint32_t ref = seed;
    if (kCases[i].draw) {
      ck_assert_uint_eq(ref_draw(&ref), kCases[i].r);
    }
    pfc_port0(m, 0);  // selected now; OCB_RD_LAT = 5 -> output five cycles later
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntDeqPkts), 1);
    for (int k = 0; k < 5; k++) {
      tl_idle(m, &out);
    }
    ck_assert_uint_eq(out.deq_valid, 1);
    ck_assert_uint_eq(out.deq[0].pkt_id, 42);
    ck_assert_msg(out.deq[0].marked == kCases[i].marked, "case %zu: marked %d, expected %d", i,
                  out.deq[0].marked, kCases[i].marked);
    ck_assert_uint_eq(out.deq[0].ecn, kCases[i].marked ? 3 : 2);
    ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntMarkHead), kCases[i].marked ? 1 : 0);
    uint32_t h = tl_rd(m, XTM_LFSR_HEAD_STATE_REG_OFFSET);
    ck_assert_msg(h == ref, "case %zu: head LFSR 0x%08x, expected 0x%08x", i, h, ref);
    ck_assert_uint_eq(lfsr(m), kResetSeed);  // the enqueue LFSR never draws here
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

static Suite *profile_suite(void) {
  Suite *s = suite_create("profile");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_lfsr_reset_draws);
  tcase_add_test(tc, test_lfsr_no_advance_without_draw);
  tcase_add_test(tc, test_lfsr_seed_write);
  tcase_add_test(tc, test_segmented_thresholds);
  tcase_add_test(tc, test_segmented_no_points);
  tcase_add_test(tc, test_segmented_unordered_points);
  tcase_add_test(tc, test_large_products);
  tcase_add_test(tc, test_enqueue_profile_two_cycles_old);
  tcase_add_test(tc, test_enqueue_profile_ignores_same_cycle_dequeue);
  tcase_add_test(tc, test_draw_independent_of_checks);
  tcase_add_test(tc, test_interpolated_values);
  tcase_add_test(tc, test_interpolated_no_points);
  tcase_add_test(tc, test_limit_zero_enqueue_tail);
  tcase_add_test(tc, test_limit_zero_head);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(profile_suite()); }
