// SPDX-License-Identifier: Apache-2.0
//
// Suite "police": the ingress policer of docs/spec.md, version 2.2.0, section 4.7 (check p of 4.4,
// reason POLICE of 4.6, the counters of 4.5), its registers (the POL window through
// POL_SEL, P_POL_MAP of the PORT window, Q_DROP_POL of the VOQ window, section 10.2), the
// initialisation refusal of the POL window (section 3) and CTRL.CLR_CNT.
//
// Every expectation is derived by hand below from the spec's rule:
//   B = POL_BURST * 65536, R = POL_RATE (Q8.16 bytes/cycle), e = t - u,
//   tokens(t) = B if e >= 2^40 and R > 0, else min(B, tok + e * R);
//   conform iff tokens(t) >= len * 65536: tok = tokens(t) - len * 65536, else tok = tokens(t);
//   u = t either way. Reset: tok = 0, u = 0.
// Units below are bytes unless marked: "tok 49.5" means tok = 49.5 * 65536.
//
// The model is 2 ports x 2 TCs (tl_create: cycle 16 = INIT_CYCLES after creation, so the
// first arrival can be at t = 16). DSCP_MAP, TC_QUEUE_MAP and TC_PG_MAP are at reset:
// DSCP 0 -> TC 0 -> queue 0, DSCP 8 -> TC 1 -> queue 1; voq = eg_port * 2 + queue. Arrivals
// go to egress port 1 (VOQ 2 for TC 0, VOQ 3 for TC 1) unless stated.

#include <string.h>

#include "cmodel/xtm/xtm_internal.h"  // white box for the 64-bit wrap test only
#include "tests/unit/xtm_testlib.h"

#define B1 0x10000u  // 1 byte per cycle in Q8.16

// P_POL_MAP value: traffic class tc policed by policer j of the port.
static uint32_t pmap(uint32_t tc, uint32_t j) { return (j | 8u) << (4u * tc); }

static void pol_cfg(xtm_t *m, uint32_t k, uint32_t rate, uint32_t burst) {
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, k);
  tl_wr(m, XTM_POL_RATE_REG_OFFSET, rate);
  tl_wr(m, XTM_POL_BURST_REG_OFFSET, burst);
}
static uint32_t pol_rd(xtm_t *m, uint32_t k, uint16_t off) {
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, k);
  return tl_rd(m, off);
}
// A policer counter through the CSR window (_LO, _HI), checked against the API.
static uint64_t pol_cnt(xtm_t *m, uint32_t k, uint16_t lo, xtm_polcnt_t c) {
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, k);
  uint64_t v = tl_rd64(m, lo);
  ck_assert_uint_eq(v, xtm_pol_counter(m, k, c));
  return v;
}
static void expect_pol(xtm_t *m, uint32_t k, uint64_t pass, uint64_t drop, uint64_t drop_bytes) {
  ck_assert_uint_eq(pol_cnt(m, k, XTM_POL_PASS_PKTS_LO_REG_OFFSET, kXtmPolcntPassPkts), pass);
  ck_assert_uint_eq(pol_cnt(m, k, XTM_POL_DROP_PKTS_LO_REG_OFFSET, kXtmPolcntDropPkts), drop);
  ck_assert_uint_eq(pol_cnt(m, k, XTM_POL_DROP_BYTES_LO_REG_OFFSET, kXtmPolcntDropBytes),
                    drop_bytes);
}
static void expect_state(const xtm_t *m, uint32_t k, uint64_t tok, uint64_t u) {
  xtm_pol_state_t s;
  xtm_pol_state(m, k, &s);
  ck_assert_msg(s.tok == tok && s.u == u, "policer %u: tok %llu u %llu, expected %llu %llu", k,
                (unsigned long long)s.tok, (unsigned long long)s.u, (unsigned long long)tok,
                (unsigned long long)u);
}

// Idle cycles until xtm_cycle(m) == t (advance_to stops early at any output).
static void go(xtm_t *m, uint64_t t) {
  xtm_out_t out;
  ck_assert_uint_le(xtm_cycle(m), t);
  while (xtm_cycle(m) < t) {
    (void)xtm_advance_to(m, t, &out);
  }
}

// One arrival in cycle `at` (reached by idle cycles first) from in_port with dscp, to
// egress port 1; returns its reason.
static uint8_t arrive(xtm_t *m, uint64_t at, uint8_t in_port, uint8_t dscp, uint16_t len) {
  static uint32_t id = 1;
  xtm_out_t out;
  go(m, at);
  tl_enq(m, in_port, 1, dscp, 0, len, id++, &out);
  ck_assert(out.enq_res.valid);
  return out.enq_res.reason;
}

// The LFSR step of spec 6.4, for the expected enqueue LFSR state after a draw.
static uint32_t lfsr_after_draw(uint32_t s) {
  for (int i = 0; i < 16; i++) {
    s = (s & 1u) ? (s >> 1) ^ 0x80200003u : (s >> 1);
  }
  return s;
}

// ---------------------------------------------------------------- conformance

// R = 0.5 (0x8000), B = 50, policer 0 polices TC 0 of port 0, 50-byte arrivals.
// t = 100: e = 100 from u = 0, tokens = min(50, 0 + 100 * 0.5) = 50 = len: conform, tok 0.
// Every 100 cycles after that: tokens = min(50, 0 + 50) = 50: conform (exactly the rate).
// One arrival 99 cycles after the last: tokens = 49.5 < 50: POLICE, tok 49.5, and
// POL_TOKENS = tok >> 16 = 49 (also 1000 cycles later: the stored value, no refill).
// The next cycle: tokens = 49.5 + 0.5 = 50: conform, tok 0.
START_TEST(test_stream_at_rate) {
  // spec 4.7 (tokens, check p), 10.2 (POL_TOKENS)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, 0x8000, 50);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  uint64_t t = 100;
  for (int i = 0; i < 20; i++, t += 100) {
    ck_assert_uint_eq(arrive(m, t, 0, 0, 50), kXtmReasonAccept);
    expect_state(m, 0, 0, t);
  }
  uint64_t last = t - 100;
  ck_assert_uint_eq(arrive(m, last + 99, 0, 0, 50), kXtmReasonPolice);
  expect_state(m, 0, 49 * 65536 + 32768, last + 99);
  ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), 49);
  expect_pol(m, 0, 20, 1, 50);
  ck_assert_uint_eq(arrive(m, last + 100, 0, 0, 50), kXtmReasonAccept);
  expect_state(m, 0, 0, last + 100);
  ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), 0);
  go(m, last + 1100);  // 1000 idle cycles refill 500 bytes lazily: POL_TOKENS does not show it
  ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), 0);
  expect_pol(m, 0, 21, 1, 50);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// R = 1 byte/cycle, B = 1000, 200-byte arrivals back to back from t = 1000 (tokens(1000) =
// min(1000, 1000 * 1) = 1000: the bucket is just full):
//   t 1000: T 1000 -> pass, tok 800   t 1001: T 801 -> pass, tok 601
//   t 1002: T 602 -> pass, tok 402    t 1003: T 403 -> pass, tok 203
//   t 1004: T 204 -> pass, tok 4      t 1005: T 5 < 200 -> POLICE, tok 5
//   t 1006: T 6 -> POLICE, tok 6      t 1007: T 7 -> POLICE, tok 7
// Five pass (the burst plus the refill), then drops; POL_DROP_BYTES = 3 * 200.
START_TEST(test_burst_then_drop) {
  // spec 4.7, spec 4.6 (POLICE)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  static const uint64_t kTok[8] = {800, 601, 402, 203, 4, 5, 6, 7};
  for (uint32_t i = 0; i < 8; i++) {
    ck_assert_uint_eq(arrive(m, 1000 + i, 0, 0, 200), i < 5 ? kXtmReasonAccept : kXtmReasonPolice);
    expect_state(m, 0, kTok[i] << 16, 1000 + i);
    ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), kTok[i]);
  }
  expect_pol(m, 0, 5, 3, 600);
  xtm_destroy(m);
}
END_TEST

// The boundary T == len * 65536 conforms (check p: T >= len * 65536).
// a) R = 1 byte/cycle, B = 1000: t 1000: T 1000 = len 1000 -> pass, tok 0; t 1001: T 1 =
//    len 1 -> pass, tok 0; t 1002: T 1 < len 2 -> POLICE, tok 1.
// b) in 2^-16 bytes: R = 1 (2^-16 byte/cycle), B = 1 byte = 65536 units, policer 1 on
//    TC 1. t 65535: T = min(65536, 65535 * 1) = 65535 < 65536 -> POLICE, tok 65535 units
//    (POL_TOKENS 0); t 65536: T = 65535 + 1 = 65536 -> pass, tok 0; t 65537: T = 1 unit ->
//    POLICE.
START_TEST(test_exact_boundary) {
  // spec 4.7
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  pol_cfg(m, 1, 1, 1);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0) | pmap(1, 1));
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 1000), kXtmReasonAccept);
  expect_state(m, 0, 0, 1000);
  ck_assert_uint_eq(arrive(m, 1001, 0, 0, 1), kXtmReasonAccept);
  expect_state(m, 0, 0, 1001);
  ck_assert_uint_eq(arrive(m, 1002, 0, 0, 2), kXtmReasonPolice);
  expect_state(m, 0, 65536, 1002);
  ck_assert_uint_eq(arrive(m, 65535, 0, 8, 1), kXtmReasonPolice);
  expect_state(m, 1, 65535, 65535);
  ck_assert_uint_eq(pol_rd(m, 1, XTM_POL_TOKENS_REG_OFFSET), 0);
  ck_assert_uint_eq(arrive(m, 65536, 0, 8, 1), kXtmReasonAccept);
  expect_state(m, 1, 0, 65536);
  ck_assert_uint_eq(arrive(m, 65537, 0, 8, 1), kXtmReasonPolice);
  expect_state(m, 1, 1, 65537);
  expect_pol(m, 0, 2, 1, 2);
  expect_pol(m, 1, 1, 2, 2);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- time

// The same arrivals on two models: A jumps the idle gaps with xtm_advance_to, B is eager
// and steps every cycle. The policer is lazy (nothing happens per idle cycle), so both
// agree on every result and every policer state. Hand-derived points (R = 0x3000 = 0.1875
// byte/cycle = 12288 units, B = 3000):
//   t 20000: T = min(3000, 20000 * 0.1875 = 3750) = 3000 -> 1500 pass, tok 1500
//   t 24000: T = min(3000, 1500 + 4000 * 0.1875 = 2250) = 2250 -> 2250 pass, tok 0
//   t 24001: T = 12288 units < 1 byte -> POLICE, tok 12288
//   t 24006: T = 12288 + 5 * 12288 = 73728 >= 65536 -> 1 pass, tok 8192
// then random gaps (1 .. 40000 cycles), lengths (1 .. 1500) and classes (TC 0: policer 2
// of port 0, TC 1: not policed), compared between A and B, with the incremental snapshot
// of A against xtm_pol_state for every policer.
static void both(xtm_t *a, xtm_t *b, uint64_t at, uint8_t dscp, uint16_t len, uint32_t id) {
  xtm_out_t oa, ob;
  go(a, at);
  while (xtm_cycle(b) < at) {
    tl_idle(b, &ob);
  }
  tl_enq(a, 0, 1, dscp, 0, len, id, &oa);
  tl_enq(b, 0, 1, dscp, 0, len, id, &ob);
  ck_assert_msg(oa.enq_res.reason == ob.enq_res.reason && oa.enq_res.voq == ob.enq_res.voq,
                "t %llu: advance_to %u, stepping %u", (unsigned long long)at, oa.enq_res.reason,
                ob.enq_res.reason);
  for (uint32_t k = 0; k < 16; k++) {
    xtm_pol_state_t sa, sb;
    xtm_pol_state(a, k, &sa);
    xtm_pol_state(b, k, &sb);
    ck_assert_msg(sa.tok == sb.tok && sa.u == sb.u, "t %llu policer %u", (unsigned long long)at, k);
    for (int c = 0; c < kXtmPolcntCount; c++) {
      ck_assert_uint_eq(xtm_pol_counter(a, k, (xtm_polcnt_t)c),
                        xtm_pol_counter(b, k, (xtm_polcnt_t)c));
    }
  }
}

START_TEST(test_idle_gap_advance_equals_step) {
  // spec 4.7, section 13 (advance_to equals stepping), 12 (snapshot)
  xtm_t *a = tl_create(2, 2, 64);
  xtm_t *b = tl_create(2, 2, 64);
  xtm_set_eager(b, true);
  xtm_t *ms[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    pol_cfg(ms[i], 2, 0x3000, 3000);
    tl_port_wr(ms[i], 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 2));
  }
  static xtm_snap_t snap;
  xtm_snap_init(&snap);
  both(a, b, 20000, 0, 1500, 1);
  expect_state(a, 2, 1500 << 16, 20000);
  both(a, b, 24000, 0, 2250, 2);
  expect_state(a, 2, 0, 24000);
  both(a, b, 24001, 0, 1, 3);
  expect_state(a, 2, 12288, 24001);
  both(a, b, 24006, 0, 1, 4);
  expect_state(a, 2, 8192, 24006);
  expect_pol(a, 2, 3, 1, 1);
  uint64_t seed = tl_env_seed(0x90117CE5ull), st = seed;
  uint64_t t = 24010;
  uint32_t police = 0;
  for (uint32_t i = 0; i < 400; i++) {
    t += 1 + tl_rand(&st) % 40000;
    uint8_t dscp = (tl_rand(&st) & 3) != 0 ? 0 : 8;
    uint16_t len = (uint16_t)(1 + tl_rand(&st) % 1500);
    both(a, b, t, dscp, len, 10 + i);
    xtm_state_snapshot(a, &snap);
    for (uint32_t k = 0; k < 16; k++) {
      xtm_pol_state_t s;
      xtm_pol_state(a, k, &s);
      ck_assert_msg(snap.pol_tok[k] == s.tok && snap.pol_u[k] == s.u,
                    "seed %llu: snapshot of policer %u", (unsigned long long)seed, k);
    }
    if (dscp == 0) {
      ck_assert(xtm_snap_bit(snap.pol_changed, 2));  // the arrival wrote policer 2
      xtm_pol_state_t s;
      xtm_pol_state(a, 2, &s);
      ck_assert_uint_eq(s.u, t);
    }
    police += xtm_pol_counter(a, 2, kXtmPolcntDropPkts) > 0;
  }
  ck_assert_msg(police > 0, "seed %llu: no POLICE drop: the comparison saw only one branch",
                (unsigned long long)seed);
  ck_assert_uint_gt(xtm_pol_counter(a, 2, kXtmPolcntPassPkts), 4);
  tl_check_invariants(a);
  tl_check_invariants(b);
  xtm_destroy(a);
  xtm_destroy(b);
}
END_TEST

// e >= 2^40 with R > 0 gives a full bucket. R = 0x800000 (128 bytes/cycle), B = 1000:
// t 1000: T = min(1000, 1000 * 128) = 1000 -> 1000 pass, tok 0, u = 1000. At t = 1000 +
// 2^41, e * R = 2^41 * 2^23 = 2^64, which a 64-bit product wraps to 0 (tokens 0: a drop);
// the spec's tokens = B = 1000: the 1000-byte arrival conforms, tok 0.
// R = 0 keeps tok whatever e: policer 1 (TC 1), R = 1 byte/cycle, B = 1000: t 1000: T 1000
// -> 400 pass, tok 600; then R = 0. At t = 1001 + 2^41 (e >= 2^40, R = 0): T = min(1000,
// 600) = 600 < 601 -> POLICE, tok 600; t + 1: T = 600 -> 600 pass, tok 0.
START_TEST(test_long_gap_full_bucket) {
  // spec 4.7 (e >= 2^40), spec 14 (formats)
  xtm_t *m = tl_create(2, 2, 64);
  tl_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 0xFFFFFFFFu);  // few poll sweeps on the way
  pol_cfg(m, 0, 0x800000, 1000);
  pol_cfg(m, 1, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0) | pmap(1, 1));
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 1000), kXtmReasonAccept);
  ck_assert_uint_eq(arrive(m, 1001, 0, 8, 400), kXtmReasonAccept);
  expect_state(m, 1, 600 << 16, 1001);  // T = min(1000, 1001) = 1000, minus 400
  pol_cfg(m, 1, 0, 1000);
  uint64_t far = 1000 + (1ull << 41);
  ck_assert_uint_eq(arrive(m, far, 0, 0, 1000), kXtmReasonAccept);
  expect_state(m, 0, 0, far);
  ck_assert_uint_eq(arrive(m, far + 1, 0, 8, 601), kXtmReasonPolice);
  expect_state(m, 1, 600 << 16, far + 1);
  ck_assert_uint_eq(arrive(m, far + 2, 0, 8, 600), kXtmReasonAccept);
  expect_state(m, 1, 0, far + 2);
  expect_pol(m, 0, 2, 0, 0);
  expect_pol(m, 1, 2, 1, 601);
  xtm_destroy(m);
}
END_TEST

// R = 0 never refills, and the refill is lazy: the interval since the last evaluation is
// refilled at the rate in force when it is evaluated (4.7). R = 1 byte/cycle, B = 1000 from
// cycle 16, R = 0 from cycle 500, nothing evaluated before: at t 2000, T = min(1000, 0 +
// 2000 * 0) = 0 -> POLICE (an eager bucket would hold 484 + bytes), tok 0, u 2000. R = 1
// again from 2001: t 2101: T = min(1000, 0 + 101) = 101 -> 1 pass, tok 100. R = 0 from 2102:
// t 10^6: T = 100 -> 100 pass, tok 0; t 2 * 10^6: T = 0 -> POLICE; POL_TOKENS 0 throughout.
START_TEST(test_zero_rate_never_refills) {
  // spec 4.7
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  go(m, 500);
  pol_cfg(m, 0, 0, 1000);
  ck_assert_uint_eq(arrive(m, 2000, 0, 0, 1), kXtmReasonPolice);
  expect_state(m, 0, 0, 2000);
  tl_wr(m, XTM_POL_RATE_REG_OFFSET, B1);  // POL_SEL is still 0
  ck_assert_uint_eq(arrive(m, 2101, 0, 0, 1), kXtmReasonAccept);
  expect_state(m, 0, 100 << 16, 2101);
  tl_wr(m, XTM_POL_RATE_REG_OFFSET, 0);
  ck_assert_uint_eq(arrive(m, 1000000, 0, 0, 100), kXtmReasonAccept);
  expect_state(m, 0, 0, 1000000);
  ck_assert_uint_eq(arrive(m, 2000000, 0, 0, 1), kXtmReasonPolice);
  ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), 0);
  expect_pol(m, 0, 2, 2, 2);
  xtm_destroy(m);
}
END_TEST

// A lowered burst clamps at the next evaluation, a raised one fills from the stored value.
// R = 1 byte/cycle, B = 1000: t 1000: T 1000 -> 100 pass, tok 900. B = 500 written (backdoor
// at cycle 1001): POL_TOKENS still 900 (no clamp at the write). t 1001: T = min(500, 900 +
// 1) = 500 -> 1 pass, tok 499. B = 2000 at 1002: t 1011: T = min(2000, 499 + 10) = 509 -> 1
// pass, tok 508 (not 2000). t 5000: T = min(2000, 508 + 3989) = 2000 -> 2000 pass, tok 0.
START_TEST(test_burst_write) {
  // spec 4.7
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 100), kXtmReasonAccept);
  pol_cfg(m, 0, B1, 500);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_TOKENS_REG_OFFSET), 900);
  expect_state(m, 0, 900 << 16, 1000);
  ck_assert_uint_eq(arrive(m, 1001, 0, 0, 1), kXtmReasonAccept);
  expect_state(m, 0, 499 << 16, 1001);
  ck_assert_uint_eq(pol_rd(m, 0, XTM_POL_TOKENS_REG_OFFSET), 499);
  pol_cfg(m, 0, B1, 2000);
  ck_assert_uint_eq(arrive(m, 1011, 0, 0, 1), kXtmReasonAccept);
  expect_state(m, 0, 508 << 16, 1011);
  ck_assert_uint_eq(arrive(m, 5000, 0, 0, 2000), kXtmReasonAccept);
  expect_state(m, 0, 0, 5000);
  xtm_destroy(m);
}
END_TEST

// A bus write of POL_RATE, POL_BURST or P_POL_MAP in cycle t takes effect from t+1 (4.7,
// 10.2): the arrival of cycle t still sees the old value. R = 1 byte/cycle, B = 1000,
// policer 0 on TC 0.
//   t 1000, with POL_RATE = 0 written: T = min(1000, 1000 * 1) = 1000 (old rate) -> 1000
//     pass, tok 0
//   t 1100: R = 0 now: T = 0 -> POLICE (with the old rate it would be 100)
//   t 1101, with P_POL_MAP = 0 written: still policed (T = 0 -> POLICE)
//   t 1102: not policed -> accepted, the policer unchanged (u 1101)
//   POL_BURST = 0 written at t 1200 (P_POL_MAP back and R = 1 byte/cycle before): the
//     arrival of 1200 sees B = 1000: T = min(1000, 0 + 99 * 1) = 99 -> 99 pass; t 1201:
//     B = 0: T = 0 < 1 -> POLICE
START_TEST(test_write_next_cycle) {
  // spec 4.7, spec 10.2, spec 4.1 (a write takes effect at t+1)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  go(m, 1000);
  xtm_in_t in;
  xtm_out_t out;
  tl_idle_in(&in);
  in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = 1, .in_port = 0, .eg_port = 1, .len = 1000};
  in.csr = (xtm_csr_req_t){.valid = true, .write = true, .addr = XTM_POL_RATE_REG_OFFSET};
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(!out.csr_rsp.err);
  expect_state(m, 0, 0, 1000);
  ck_assert_uint_eq(arrive(m, 1100, 0, 0, 1), kXtmReasonPolice);
  go(m, 1101);
  in.enq.len = 1;
  in.csr.addr = XTM_P_POL_MAP_REG_OFFSET;  // PORT_SEL is 0
  in.csr.wdata = 0;
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonPolice);
  ck_assert_uint_eq(arrive(m, 1102, 0, 0, 1), kXtmReasonAccept);
  expect_state(m, 0, 0, 1101);
  tl_wr(m, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  tl_wr(m, XTM_POL_RATE_REG_OFFSET, B1);
  go(m, 1200);
  in.enq.len = 99;
  in.csr.addr = XTM_POL_BURST_REG_OFFSET;
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(arrive(m, 1201, 0, 0, 1), kXtmReasonPolice);
  expect_pol(m, 0, 2, 3, 3);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- mapping

// Two classes of port 0 share policer 3 (k = 0 * 8 + 3); R = 1 byte/cycle, B = 300.
//   t 1000 TC 0: T = min(300, 1000) = 300 -> 200 pass, tok 100
//   t 1001 TC 1: T = 101 < 200 -> POLICE (its own bucket would have been full), tok 101
//   t 1002 TC 1: T = 102 -> 102 pass, tok 0
// Policer 0, the one TC 1 would use with TCn_POL = 0, is untouched. Port 1's map is 0, so
// its TC 0 arrivals are not policed and change no policer. Then port 1 maps TC 0 to its
// policer 3, k = 1 * 8 + 3 = 11 (R = 0: every arrival dropped): only policer 11 counts.
START_TEST(test_shared_policer_and_ports) {
  // spec 4.7 (P_POL_MAP, k = in_port * 8 + j)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 3, B1, 300);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 3) | pmap(1, 3));
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 200), kXtmReasonAccept);
  ck_assert_uint_eq(arrive(m, 1001, 0, 8, 200), kXtmReasonPolice);
  ck_assert_uint_eq(arrive(m, 1002, 0, 8, 102), kXtmReasonAccept);
  expect_state(m, 3, 0, 1002);
  expect_pol(m, 3, 2, 1, 200);
  ck_assert_uint_eq(arrive(m, 1003, 1, 0, 500), kXtmReasonAccept);
  expect_state(m, 3, 0, 1002);
  for (uint32_t k = 0; k < 16; k++) {
    if (k != 3) {
      expect_state(m, k, 0, 0);
      expect_pol(m, k, 0, 0, 0);
    }
  }
  tl_port_wr(m, 1, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 3));
  ck_assert_uint_eq(arrive(m, 1004, 1, 0, 64), kXtmReasonPolice);
  expect_state(m, 11, 0, 1004);
  expect_pol(m, 11, 0, 1, 64);
  expect_state(m, 3, 0, 1002);
  expect_pol(m, 3, 2, 1, 200);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Only TC 0 of port 0 is policed (policer 0: R = 0, B = 0, so a policed arrival never
// conforms). TC 1 arrivals of the same port are accepted and leave every policer alone;
// a TC 0 arrival is dropped.
START_TEST(test_unpoliced_class_untouched) {
  // spec 4.7
  xtm_t *m = tl_create(2, 2, 64);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  for (uint32_t i = 0; i < 5; i++) {
    ck_assert_uint_eq(arrive(m, 100 + i, 0, 8, 1500), kXtmReasonAccept);
  }
  for (uint32_t k = 0; k < 16; k++) {
    expect_state(m, k, 0, 0);
    expect_pol(m, k, 0, 0, 0);
  }
  ck_assert_uint_eq(arrive(m, 200, 0, 0, 64), kXtmReasonPolice);
  expect_state(m, 0, 0, 200);
  expect_pol(m, 0, 0, 1, 64);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- position in admission

// The policer sits in front of the queueing: a conforming arrival has consumed its tokens
// even if a later check drops it. R = 1 byte/cycle, B = 1000, TCs 0 and 1 of port 0 share
// policer 0. VOQ 2 (TC 0) has Q_LIMIT_CELLS 0, VOQ 3 (TC 1) is disabled.
//   t 1000 TC 0 600 bytes: T 1000 -> pass (tok 400), then check d: TAIL
//   t 1001 TC 0 600 bytes: T 401 -> POLICE (the TAIL-dropped packet took 600)
//   t 2000 TC 1 800 bytes: T = min(1000, 401 + 999) = 1000 -> pass (tok 200), check a: QDISABLED
//   t 2001 TC 1 300 bytes: T 201 -> POLICE
START_TEST(test_conform_then_later_drop) {
  // spec 4.7, spec 4.4 (check p ahead of a-g)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0) | pmap(1, 0));
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, 0);
  tl_voq_wr(m, 3, XTM_Q_CFG_REG_OFFSET, 0);
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 600), kXtmReasonTail);
  expect_state(m, 0, 400 << 16, 1000);
  ck_assert_uint_eq(arrive(m, 1001, 0, 0, 600), kXtmReasonPolice);
  ck_assert_uint_eq(arrive(m, 2000, 0, 8, 800), kXtmReasonQDisabled);
  expect_state(m, 0, 200 << 16, 2000);
  ck_assert_uint_eq(arrive(m, 2001, 0, 8, 300), kXtmReasonPolice);
  expect_pol(m, 0, 2, 2, 900);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntDropTail), 1);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntDropPol), 1);
  ck_assert_uint_eq(xtm_voq_counter(m, 3, kXtmVcntDropQdis), 1);
  ck_assert_uint_eq(xtm_voq_counter(m, 3, kXtmVcntDropPol), 1);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// A POLICE drop touches no VOQ, PG or buffer state (4.7) but takes the enqueue profile's
// draw (4.7, 6.2) and counts as 4.5 says: ARR_PKTS, Q_ARR_PKTS, Q_DROP_POL and
// Q_DROP_BYTES (+ len) of the VOQ it classified to, nothing else. VOQ 2 holds one packet
// (egress port 1 paused), then gets profile 1 (one point (0, 32768): at occupancy 0 the
// point is reached, probability 0.5, a draw for a non-ECT packet with ECN_EN = 0). Policer 0
// (R = 0, B = 0) on TC 0 drops the next arrival: enq_res says POLICE with voq 2, the
// enqueue LFSR advanced by exactly one draw, and every state of S(t+1) equals S(t).
START_TEST(test_police_drop_leaves_state) {
  // spec 4.7, spec 4.5, spec 4.6, spec 6.2 (the draw), spec 12
  xtm_t *m = tl_create(2, 2, 64);
  uint32_t held = tl_qcfg(false, false, false, false, 0, 0) | 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;
  tl_voq_wr(m, 2, XTM_Q_CFG_REG_OFFSET, held);
  uint16_t quanta[8] = {0xFFFF};
  xtm_out_t out;
  tl_pfc_rx(m, 1, 0x01, quanta, &out);
  ck_assert_uint_eq(arrive(m, 100, 0, 0, 700), kXtmReasonAccept);
  static const uint32_t kFill[1] = {0}, kProb[1] = {32768};
  tl_profile(m, 1, false, 1, kFill, kProb);
  tl_voq_wr(m, 2, XTM_Q_CFG_REG_OFFSET, held | 1u << XTM_Q_CFG_PROFILE_OFFSET);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  go(m, 200);
  xtm_voq_state_t v0, v1;
  xtm_pg_state_t g0, g1;
  xtm_global_state_t s0, s1;
  xtm_voq_state(m, 2, &v0);
  xtm_pg_state(m, 0, 0, &g0);
  xtm_global_state(m, &s0);
  uint64_t c0[kXtmVcntCount];
  for (int c = 0; c < kXtmVcntCount; c++) {
    c0[c] = xtm_voq_counter(m, 2, (xtm_vcnt_t)c);
  }
  uint64_t arr0 = xtm_global_counter(m, kXtmEcntArr);
  ck_assert_uint_eq(v0.occ_pkts, 1);
  tl_enq(m, 0, 1, 0, 0, 900, 77, &out);
  ck_assert(out.enq_res.valid);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonPolice);
  ck_assert_str_eq(xtm_reason_name(kXtmReasonPolice), "POLICE");
  ck_assert_uint_eq(out.enq_res.voq, 2);
  ck_assert(!out.enq_res.marked && !out.enq_res.hdrm && !out.enq_res.hbm);
  xtm_voq_state(m, 2, &v1);
  xtm_pg_state(m, 0, 0, &g1);
  xtm_global_state(m, &s1);
  ck_assert(v0.occ_cells == v1.occ_cells && v0.occ_pkts == v1.occ_pkts &&
            v0.hbm_cells == v1.hbm_cells && v0.hbm_mode == v1.hbm_mode &&
            v0.deficit == v1.deficit && v0.head_pkt_id == v1.head_pkt_id &&
            v0.flushing == v1.flushing && v0.wd_stalled == v1.wd_stalled &&
            v0.shaper_conform == v1.shaper_conform);
  ck_assert_uint_eq(g0.pg_cells, g1.pg_cells);
  ck_assert_uint_eq(g0.hdrm_used, g1.hdrm_used);
  ck_assert(g0.xoff == g1.xoff);
  ck_assert_uint_eq(s1.pool_used, s0.pool_used);
  ck_assert_uint_eq(s1.ocb_used, s0.ocb_used);
  ck_assert_uint_eq(s1.hbm_used, s0.hbm_used);
  ck_assert_uint_eq(s1.desc_free, s0.desc_free);
  ck_assert_uint_eq(s1.lfsr, lfsr_after_draw(s0.lfsr));  // the profile's draw was taken
  ck_assert_uint_ne(s1.lfsr, s0.lfsr);
  ck_assert_uint_eq(xtm_global_counter(m, kXtmEcntArr), arr0 + 1);
  for (int c = 0; c < kXtmVcntCount; c++) {
    uint64_t d = c == kXtmVcntArr || c == kXtmVcntDropPol ? 1 : c == kXtmVcntDropBytes ? 900 : 0;
    ck_assert_msg(xtm_voq_counter(m, 2, (xtm_vcnt_t)c) == c0[c] + d, "VOQ counter %d", c);
  }
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_POL_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 900);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_ARR_PKTS_LO_REG_OFFSET), 2);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- registers

// CTRL.CLR_CNT clears POL_DROP_PKTS, POL_DROP_BYTES, POL_PASS_PKTS and Q_DROP_POL and
// leaves tok and u (4.7). R = 1 byte/cycle, B = 1000: t 1000: 300 pass (tok 700); t 1001:
// T = 701 < 800 -> POLICE (tok 701). Clear. t 1002: T = 702 -> 702 pass, tok 0: the kept
// state (with u = 0 it would be 1000). A clear in the cycle of an arrival (bus write of
// CTRL with the arrival): the arrival's counts are cleared with the rest at the end of the
// cycle, its tok/u update stays: t 1100: T = 98 -> 50 pass, tok 48, POL_PASS_PKTS 0.
START_TEST(test_clr_cnt_keeps_bucket) {
  // spec 4.7, 10.2 (CTRL.CLR_CNT)
  xtm_t *m = tl_create(2, 2, 64);
  pol_cfg(m, 0, B1, 1000);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  ck_assert_uint_eq(arrive(m, 1000, 0, 0, 300), kXtmReasonAccept);
  ck_assert_uint_eq(arrive(m, 1001, 0, 0, 800), kXtmReasonPolice);
  expect_pol(m, 0, 1, 1, 800);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntDropPol), 1);
  tl_wr(m, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_BIT);
  expect_pol(m, 0, 0, 0, 0);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntDropPol), 0);
  expect_state(m, 0, 701 << 16, 1001);
  ck_assert_uint_eq(arrive(m, 1002, 0, 0, 702), kXtmReasonAccept);
  expect_state(m, 0, 0, 1002);
  go(m, 1100);
  xtm_in_t in;
  xtm_out_t out;
  tl_idle_in(&in);
  in.enq = (xtm_enq_in_t){.valid = true, .pkt_id = 9, .in_port = 0, .eg_port = 1, .len = 50};
  in.csr = (xtm_csr_req_t){.valid = true,
                           .write = true,
                           .addr = XTM_CTRL_REG_OFFSET,
                           .wdata = 1u << XTM_CTRL_CLR_CNT_BIT};
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  expect_state(m, 0, 48 << 16, 1100);
  expect_pol(m, 0, 0, 0, 0);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// One bus cycle with a CSR access; returns rdata, *err the response's err.
static uint32_t bus(xtm_t *m, bool write, uint16_t addr, uint32_t data, bool *err) {
  xtm_in_t in;
  xtm_out_t out;
  tl_idle_in(&in);
  in.csr = (xtm_csr_req_t){.valid = true, .write = write, .addr = addr, .wdata = data};
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid);
  *err = out.csr_rsp.err;
  return out.csr_rsp.rdata;
}

START_TEST(test_init_refusal) {
  // During initialisation (cycles 0 .. INIT_CYCLES-1 = 15 for 2 ports) the POL window is
  // refused (spec 3, 10.2, 15.6): a read returns 0, a write is ignored, ERR_STATUS.NOT_READY and
  // ERR_ADDR are set. POL_SEL (a global register) and P_POL_MAP (PORT window) are not
  // refused. The last refused bus cycle is 15, the first answered one 16.
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_tcs = 2;
  p.num_desc = 64;
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&p, &m), kXtmOk);
  bool err;
  uint32_t v = 1;
  static const uint16_t kRefused[] = {
      XTM_POL_RATE_REG_OFFSET,          XTM_POL_BURST_REG_OFFSET,
      XTM_POL_TOKENS_REG_OFFSET,        XTM_POL_DROP_PKTS_LO_REG_OFFSET,
      XTM_POL_DROP_BYTES_HI_REG_OFFSET, XTM_POL_PASS_PKTS_LO_REG_OFFSET};
  for (size_t i = 0; i < sizeof(kRefused) / sizeof(kRefused[0]); i++) {
    v = 1;
    ck_assert(!xtm_csr_read(m, kRefused[i], &v));
    ck_assert_uint_eq(v, 0);
    ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
    ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), kRefused[i]);
    tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  }
  // a write to the read-only POL_TOKENS is NOT_READY first (10.2 precedence)
  ck_assert(!xtm_csr_write(m, XTM_POL_TOKENS_REG_OFFSET, 1));
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, 13);  // allowed
  tl_wr(m, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 5));
  ck_assert_uint_eq(tl_rd(m, XTM_P_POL_MAP_REG_OFFSET), pmap(0, 5));
  (void)bus(m, true, XTM_POL_BURST_REG_OFFSET, 777, &err);
  ck_assert(err);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_NOT_READY_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_POL_BURST_REG_OFFSET);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  xtm_out_t out;
  while (xtm_cycle(m) < 15) {
    tl_idle(m, &out);
  }
  ck_assert_uint_eq(bus(m, true, XTM_POL_RATE_REG_OFFSET, 0x1234, &err), 0);
  ck_assert(err);  // cycle 15
  ck_assert_uint_eq(bus(m, true, XTM_POL_RATE_REG_OFFSET, 0x4321, &err), 0);
  ck_assert(!err);  // cycle 16
  ck_assert_uint_eq(tl_rd(m, XTM_POL_SEL_REG_OFFSET), 13);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_RATE_REG_OFFSET), 0x4321);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_BURST_REG_OFFSET), 0);  // the refused 777 was ignored
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_RATE_REG_OFFSET), 0);  // the write went to entry 13
  xtm_destroy(m);
}
END_TEST

// POL_SEL beyond NumPorts * 8 - 1 is ILLEGAL (ignored); reserved bits of POL_RATE and
// POL_BURST are ignored (24-bit fields); POL_TOKENS and the counters are read-only; the
// window shows the selected entry only; POL_TOKENS = tok >> 16.
START_TEST(test_registers) {
  // spec 10.2 (ILLEGAL, RO_WRITE, reserved bits), 4.7 (POL_TOKENS)
  xtm_t *m = tl_create(2, 2, 64);
  ck_assert(!xtm_csr_write(m, XTM_POL_SEL_REG_OFFSET, 16));  // 2 ports: 0..15
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_ILLEGAL_BIT);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_ADDR_REG_OFFSET), XTM_POL_SEL_REG_OFFSET);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_SEL_REG_OFFSET), 0);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, 15);
  tl_wr(m, XTM_POL_RATE_REG_OFFSET, 0xFF123456u);
  tl_wr(m, XTM_POL_BURST_REG_OFFSET, 0xFFFFFFFFu);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_RATE_REG_OFFSET), 0x123456u);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_BURST_REG_OFFSET), 0xFFFFFFu);
  static const uint16_t kRo[] = {XTM_POL_TOKENS_REG_OFFSET, XTM_POL_DROP_PKTS_LO_REG_OFFSET,
                                 XTM_POL_DROP_BYTES_HI_REG_OFFSET, XTM_POL_PASS_PKTS_LO_REG_OFFSET,
                                 XTM_Q_DROP_POL_LO_REG_OFFSET};
  for (size_t i = 0; i < sizeof(kRo) / sizeof(kRo[0]); i++) {
    ck_assert(!xtm_csr_write(m, kRo[i], 5));
    ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 1u << XTM_ERR_STATUS_RO_WRITE_BIT);
    tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xF);
  }
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, 14);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_RATE_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_BURST_REG_OFFSET), 0);
  // policer 15 = port 1, j = 7, on TC 1: R = 0x123456, B = 2^24 - 1 (the largest, so tok
  // reaches 2^40 - 2^16 and POL_TOKENS its 24-bit maximum). At t 10^9 - 1:
  // T = min(B, 0 + (10^9 - 1) * 0x123456) = B (the product is 1.19e15 > 2^40) -> 1 byte
  // passes, tok = B - 65536, POL_TOKENS = 2^24 - 2.
  tl_port_wr(m, 1, XTM_P_POL_MAP_REG_OFFSET, pmap(1, 7));
  tl_wr(m, XTM_WD_POLL_CYCLES_REG_OFFSET, 0xFFFFFFFFu);
  ck_assert_uint_eq(arrive(m, 999999999, 1, 8, 1), kXtmReasonAccept);
  expect_state(m, 15, ((uint64_t)0xFFFFFF << 16) - 65536, 999999999);
  ck_assert_uint_eq(pol_rd(m, 15, XTM_POL_TOKENS_REG_OFFSET), 0xFFFFFEu);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// The counters are 64 bits (14: counters wrap modulo 2^64). POL_DROP_BYTES past 2^32 is
// read whole through _LO/_HI: 262200 drops of 16383 bytes (R = 0, B = 0) = 4295622600 =
// 2^32 + 655304: _HI 1, _LO 655304. The wrap at 2^64 itself is out of reach of traffic:
// the counter is preset (white box) to 2^64 - 1 and the next drop wraps it to 0.
START_TEST(test_counter_width) {
  // spec 10.2 (64-bit counters), spec 14
  xtm_t *m = tl_create(2, 2, 64);
  tl_wr(m, XTM_MAX_FRAME_REG_OFFSET, 16383);
  tl_port_wr(m, 0, XTM_P_POL_MAP_REG_OFFSET, pmap(0, 0));
  xtm_in_t in;
  xtm_out_t out;
  tl_idle_in(&in);
  in.enq = (xtm_enq_in_t){.valid = true, .in_port = 0, .eg_port = 1, .len = 16383};
  for (uint32_t i = 0; i < 262200; i++) {
    in.enq.pkt_id = i;
    xtm_step(m, &in, &out);
    ck_assert(out.enq_res.reason == kXtmReasonPolice);
  }
  tl_wr(m, XTM_POL_SEL_REG_OFFSET, 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_DROP_BYTES_LO_REG_OFFSET), 655304);
  ck_assert_uint_eq(tl_rd(m, XTM_POL_DROP_BYTES_HI_REG_OFFSET), 1);
  ck_assert_uint_eq(xtm_pol_counter(m, 0, kXtmPolcntDropBytes), 4295622600ull);
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, 2);
  ck_assert_uint_eq(tl_rd64(m, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 4295622600ull);
  m->pol[0].cnt[kXtmPolcntDropPkts] = UINT64_MAX;
  m->voq[2].cnt[kXtmVcntDropPol] = UINT64_MAX;
  xtm_step(m, &in, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonPolice);
  ck_assert_uint_eq(xtm_pol_counter(m, 0, kXtmPolcntDropPkts), 0);
  ck_assert_uint_eq(xtm_voq_counter(m, 2, kXtmVcntDropPol), 0);
  ck_assert_uint_eq(pol_cnt(m, 0, XTM_POL_DROP_PKTS_LO_REG_OFFSET, kXtmPolcntDropPkts), 0);
  xtm_destroy(m);
}
END_TEST

static Suite *police_suite(void) {
  Suite *s = suite_create("police");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_stream_at_rate);
  tcase_add_test(tc, test_burst_then_drop);
  tcase_add_test(tc, test_exact_boundary);
  tcase_add_test(tc, test_idle_gap_advance_equals_step);
  tcase_add_test(tc, test_long_gap_full_bucket);
  tcase_add_test(tc, test_zero_rate_never_refills);
  tcase_add_test(tc, test_burst_write);
  tcase_add_test(tc, test_write_next_cycle);
  tcase_add_test(tc, test_shared_policer_and_ports);
  tcase_add_test(tc, test_unpoliced_class_untouched);
  tcase_add_test(tc, test_conform_then_later_drop);
  tcase_add_test(tc, test_police_drop_leaves_state);
  tcase_add_test(tc, test_clr_cnt_keeps_bucket);
  tcase_add_test(tc, test_init_refusal);
  tcase_add_test(tc, test_registers);
  tcase_add_test(tc, test_counter_width);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(police_suite()); }
