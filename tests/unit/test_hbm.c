// SPDX-License-Identifier: Apache-2.0
//
// Suite "hbm": OCB/HBM residency of docs/spec.md sections 5.2-5.4, 9.4 and 9.6: the OCB-only
// rule, eviction and return, placement under HBM write bandwidth, HBM read bandwidth and
// latency, output order, the buffer registers, and conservation (section 12) every cycle.
// Every expected value is derived by hand from the spec; the derivation is next to it.
//
// "Hold": VOQs use Q_CFG.PFC_RX_EN on priority 0; a PFC frame with quanta 0xFFFF pauses them
// (> 300000 cycles at the reset pause quantum), and an XON frame (quanta 0) at cycle r sets
// pause_end = r, so they are eligible again from cycle r (reception is step 2, selection 5).

#include <string.h>

#include "tests/unit/xtm_testlib.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))
#define RECCAP 64

static const uint32_t kPfcRx = 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;  // PFC_PRIO = 0

typedef struct rec_buf {
  tl_deq_rec_t r[RECCAP];
  uint32_t n;
} rec_buf_t;

static void record(const xtm_out_t *out, rec_buf_t *rb) {
  if (rb == NULL) return;
  uint64_t mask = out->deq_valid;
  while (mask != 0) {
    uint32_t p = (uint32_t)__builtin_ctzll(mask);
    mask &= mask - 1;
    if (rb->n < RECCAP)
      rb->r[rb->n] = (tl_deq_rec_t){.cycle = out->cycle, .port = p, .d = out->deq[p]};
    rb->n++;
  }
}

// One cycle (optional enqueue, optional PFC frame on port 0), conservation checked after it.
static void cyc(xtm_t *m, bool enq, uint8_t tc, uint16_t len, uint32_t id, bool pfc,
                uint16_t quanta, rec_buf_t *rb, xtm_out_t *out) {
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  if (enq) {
    in.enq = (xtm_enq_in_t){.valid = true,
                            .pkt_id = id,
                            .in_port = 0,
                            .eg_port = 0,
                            .dscp = (uint8_t)(tc * 8),
                            .ecn = 0,
                            .len = len};
  }
  if (pfc) {
    in.pfc_rx_valid = 1;
    in.pfc_rx[0].vec = 1;
    in.pfc_rx[0].quanta[0] = quanta;
  }
  xtm_out_t o;
  xtm_step(m, &in, out != NULL ? out : &o);
  record(out != NULL ? out : &o, rb);
  tl_check_invariants(m);
}

// Enqueue to port 0 queue tc; returns enq_res.hbm, asserts ACCEPT.
static bool enq(xtm_t *m, uint8_t tc, uint16_t len, uint32_t id, rec_buf_t *rb) {
  xtm_out_t out;
  cyc(m, true, tc, len, id, false, 0, rb, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  return out.enq_res.hbm;
}
static void hold(xtm_t *m) { cyc(m, false, 0, 0, 0, true, 0xFFFF, NULL, NULL); }
static void release(xtm_t *m, rec_buf_t *rb) { cyc(m, false, 0, 0, 0, true, 0, rb, NULL); }
static void idle(xtm_t *m, rec_buf_t *rb) { cyc(m, false, 0, 0, 0, false, 0, rb, NULL); }

static uint64_t vcnt(xtm_t *m, uint32_t v, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, v);
  return tl_rd64(m, lo);
}
static uint32_t qstatus(xtm_t *m, uint32_t v) { return tl_voq_rd(m, v, XTM_Q_STATUS_REG_OFFSET); }
static bool hbm_mode(xtm_t *m, uint32_t v) {
  return ((qstatus(m, v) >> XTM_Q_STATUS_HBM_MODE_OFFSET) & 1u) != 0;
}
static bool ocb_only(xtm_t *m, uint32_t v) {
  return ((qstatus(m, v) >> XTM_Q_STATUS_OCB_ONLY_OFFSET) & 1u) != 0;
}

typedef struct exp_out {
  uint32_t dcycle;  // output cycle minus the release cycle r
  uint32_t id;
  bool hbm;
} exp_out_t;

static void check_outputs(const rec_buf_t *rb, uint64_t r, const exp_out_t *e, uint32_t n) {
  ck_assert_uint_eq(rb->n, n);
  for (uint32_t i = 0; i < n; i++) {
    ck_assert_msg(rb->r[i].d.pkt_id == e[i].id && rb->r[i].d.hbm == e[i].hbm &&
                      rb->r[i].cycle == r + e[i].dcycle,
                  "output %u: id %u hbm %d at r+%lld, expected id %u hbm %d at r+%u", i,
                  rb->r[i].d.pkt_id, rb->r[i].d.hbm, (long long)(rb->r[i].cycle - r), e[i].id,
                  e[i].hbm, e[i].dcycle);
  }
}

// ---------------------------------------------------------------- OCB-only rule (5.2)
// OCB-only iff Q_LIMIT_CELLS * C * 65536 <= OCB_ONLY_CYCLES * Q_TARGET_RATE, C = 256, so
// LHS = limit * 16777216.
START_TEST(test_ocb_only_rule) {
  static const struct {
    uint32_t cycles, rate, limit;
    bool ocb_only;
  } kCases[] = {
      // RHS = 40000 * 819200 (12.5 B/cycle) = 32768000000 -> boundary 1953.125 cells
      {40000, 0x0C8000, 1953, true},   // 1953 * 16777216 = 32765902848 <= RHS
      {40000, 0x0C8000, 1954, false},  // 1954 * 16777216 = 32782680064 > RHS
      // RHS = 1024 * 65536 = 2^26 = 4 * 2^24: equality is OCB-only
      {1024, 0x10000, 4, true},
      {1024, 0x0FFFF, 4, false},  // 1024 * 65535 = 67107840 < 67108864
      {1024, 0x10000, 5, false},  // 83886080 > 67108864
      {1024, 0x10000, 3, true},
      {40000, 0, 1, false},  // target rate 0 (reset): 16777216 > 0
      {40000, 0, 0, true},   // limit 0: 0 <= 0
  };
  xtm_t *m = tl_create(1, 1, 16);
  ck_assert(!ocb_only(m, 0));  // reset: limit 4096, target 0
  for (size_t i = 0; i < N_ELEM(kCases); i++) {
    tl_wr(m, XTM_OCB_ONLY_CYCLES_REG_OFFSET, kCases[i].cycles);
    tl_voq_wr(m, 0, XTM_Q_TARGET_RATE_REG_OFFSET, kCases[i].rate);
    tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, kCases[i].limit);
    ck_assert_msg(ocb_only(m, 0) == kCases[i].ocb_only, "case %zu: OCB_ONLY %d, expected %d", i,
                  ocb_only(m, 0), kCases[i].ocb_only);
  }
  xtm_destroy(m);
}
END_TEST

// An OCB-only VOQ never evicts; the rule reads the current limit (10, "Derived state is
// refreshed on write"). HBM_EVICT_CELLS = 2, target 12.5 B/cycle, limit 1953 (OCB-only, see
// above): 5 one-cell arrivals (occ before 0..4, >= 2 from the third) all stay in OCB.
// Limit 1954 (not OCB-only): the next arrival, occ 5 >= 2, evicts and goes to HBM.
START_TEST(test_ocb_only_never_evicts) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 2);
  tl_voq_wr(m, 0, XTM_Q_TARGET_RATE_REG_OFFSET, 0x0C8000);
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 1953);
  hold(m);
  for (uint32_t i = 0; i < 5; i++) ck_assert(!enq(m, 0, 256, i, NULL));
  ck_assert(!hbm_mode(m, 0));
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 5);
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 1954);
  ck_assert(!ocb_only(m, 0));
  ck_assert(enq(m, 0, 256, 5, NULL));
  ck_assert(hbm_mode(m, 0));
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 1);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- eviction and return
// HBM_EVICT_CELLS = 4, HBM_RETURN_CELLS = 2, HBM_RD_LAT = 20; reset HBM buckets (1 cell per
// cycle, burst 64: always conforming here). Loaded while held (occ before -> placement):
//   id1 512 B (2 cells): occ 0 -> OCB;  id2 256 B (1): occ 2 -> OCB;
//   id3 1 B (1): occ 3 (one below) -> OCB;  id4 256 B (1): occ 4 (at) -> evict, HBM;
//   id5, id6 (1 each): mode HBM -> HBM.     OCB 4, HBM 3, pool 7 cells.
// Released at r, one selection per cycle, occupancy after each removal and the mode:
//   r id1 -> 5, r+1 id2 -> 4, r+2 id3 -> 3 (one above, stays HBM), r+3 id4 -> 2 -> return,
//   r+4 id5 -> 1, r+5 id6 -> 0 (already OCB: no second return).
// Outputs: OCB at selection + OCB_RD_LAT 5 (r+5, r+6, r+7); HBM at selection + 20
// (r+23, r+24, r+25).
START_TEST(test_evict_and_return) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 4);
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 2);
  tl_wr(m, XTM_HBM_RD_LAT_REG_OFFSET, 20);
  hold(m);
  static const struct {
    uint16_t len;
    bool hbm;
    uint64_t evict;  // Q_HBM_EVICT after the arrival
  } kArr[] = {{512, false, 0}, {256, false, 0}, {1, false, 0},
              {256, true, 1},  {256, true, 1},  {256, true, 1}};
  for (uint32_t i = 0; i < N_ELEM(kArr); i++) {
    bool h = enq(m, 0, kArr[i].len, i + 1, NULL);
    ck_assert_msg(h == kArr[i].hbm, "arrival id%u: hbm %d, expected %d", i + 1, h, kArr[i].hbm);
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), kArr[i].evict);
    ck_assert(hbm_mode(m, 0) == (kArr[i].evict != 0));
  }
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 4);
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 3);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 7);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 3);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 7);
  static const struct {
    uint32_t occ, hbm_cells, ocb_used;
    bool mode;
    uint64_t ret;
  } kRem[] = {{5, 3, 2, true, 0},  {4, 3, 1, true, 0},  {3, 3, 0, true, 0},
              {2, 2, 0, false, 1}, {1, 1, 0, false, 1}, {0, 0, 0, false, 1}};
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  for (uint32_t k = 0; k < N_ELEM(kRem); k++) {
    if (k == 0) {
      release(m, &rb);
    } else {
      idle(m, &rb);
    }
    ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), kRem[k].occ);
    ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), kRem[k].hbm_cells);
    ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), kRem[k].hbm_cells);
    ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), kRem[k].ocb_used);
    ck_assert_msg(hbm_mode(m, 0) == kRem[k].mode, "r+%u: HBM mode %d, expected %d", k,
                  hbm_mode(m, 0), kRem[k].mode);
    ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_RETURN_LO_REG_OFFSET), kRem[k].ret);
  }
  for (int i = 0; i < 30; i++) idle(m, &rb);
  static const exp_out_t kExp[] = {{5, 1, false}, {6, 2, false}, {7, 3, false},
                                   {23, 4, true}, {24, 5, true}, {25, 6, true}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- HBM write bandwidth (5.3)
// HBM_EVICT_CELLS = 0 (the first arrival evicts: occ 0 >= 0), HBM_RETURN_CELLS = 0,
// HBM_WR_RATE 0x4000 (0.25 cell/cycle), HBM_WR_BURST 2 (tokens clamped to 2 cells at the
// write). 12 one-cell arrivals at a .. a+11 while held. Tokens (cells) after the refill of
// each cycle -> placement (HBM iff tokens >= 0, then -1):
//   a: 2 -> H (1); a+1: 1.25 -> H (0.25); a+2: 0.5 -> H (-0.5); a+3: -0.25 -> O;
//   a+4: 0 -> H (-1); a+5..a+7: -0.75, -0.5, -0.25 -> O; a+8: 0 -> H (-1); a+9..a+11 -> O.
// HBM: ids 0, 1, 2, 4, 8 (5 cells); OCB: 7 cells.
static const bool kMixedHbm[12] = {true,  true,  true, false, true,  false,
                                   false, false, true, false, false, false};

static xtm_t *load_mixed(void) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_WR_RATE_REG_OFFSET, 0x4000);
  tl_wr(m, XTM_HBM_WR_BURST_REG_OFFSET, 2);
  tl_wr(m, XTM_HBM_RD_LAT_REG_OFFSET, 10);
  hold(m);
  for (uint32_t i = 0; i < 12; i++) {
    bool h = enq(m, 0, 256, i, NULL);
    ck_assert_msg(h == kMixedHbm[i], "arrival %u: hbm %d, expected %d", i, h, kMixedHbm[i]);
  }
  return m;
}

START_TEST(test_hbm_write_bandwidth) {
  xtm_t *m = load_mixed();
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), 1);  // first arrival only
  ck_assert(hbm_mode(m, 0));
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 5);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 7);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 12);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 5);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 12);
  xtm_destroy(m);
}
END_TEST

// Per-VOQ order in the mixed sequence above (5.2, 9.6), HBM_RD_LAT 10, OCB_RD_LAT 5, read
// bucket at reset (1 cell/cycle, burst 64: conforming). Released at r: selections r .. r+7
// (ids 0..7) fill the FIFO (8); id 0 (HBM, ready r+10) blocks the head, so no selection at
// r+8, r+9. From r+10 each cycle transmits one and selects one (ids 8..11 at r+10..r+13).
// Outputs (the head waits for its ready; ids behind wait for the head):
//   id0 H r+10, id1 H r+11 (ready r+11), id2 H r+12, id3 O r+13, id4 H r+14 (ready r+14),
//   id5..7 O r+15..17, id8 H (selected r+10, ready r+20) r+20, id9..11 O r+21..23.
// The last removal (id 11 at r+13) leaves occ 0 <= 0: one return.
START_TEST(test_mixed_order) {
  xtm_t *m = load_mixed();
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, &rb);
  for (int i = 0; i < 40; i++) idle(m, &rb);
  static const uint32_t kOut[12] = {10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23};
  exp_out_t exp[12];
  for (uint32_t i = 0; i < 12; i++) exp[i] = (exp_out_t){kOut[i], i, kMixedHbm[i]};
  check_outputs(&rb, r, exp, 12);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_RETURN_LO_REG_OFFSET), 1);
  ck_assert(!hbm_mode(m, 0));
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 0);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- HBM read (9.1, 9.4)
// 6 one-cell HBM packets (EVICT 0; write bucket at reset, 64 cells). HBM_RD_RATE 0x4000
// (0.25 cell/cycle), HBM_RD_BURST 1 (clamped to 1 cell), HBM_RD_LAT 10. Released at r:
//   r: 1 -> select (0); r+1: 0.25 -> select (-0.75); r+2, r+3: -0.5, -0.25 wait;
//   r+4: 0 -> select (-1); then every 4 cycles: r+8, r+12, r+16.
// Outputs at selection + 10.
START_TEST(test_hbm_read_bandwidth) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_RD_RATE_REG_OFFSET, 0x4000);
  tl_wr(m, XTM_HBM_RD_BURST_REG_OFFSET, 1);
  tl_wr(m, XTM_HBM_RD_LAT_REG_OFFSET, 10);
  hold(m);
  for (uint32_t i = 0; i < 6; i++) ck_assert(enq(m, 0, 256, i, NULL));
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 6);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  // Selections so far after each cycle r .. r+16.
  static const uint64_t kDeq[17] = {1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6};
  for (uint32_t k = 0; k < 17; k++) {
    if (k == 0) {
      release(m, &rb);
    } else {
      idle(m, &rb);
    }
    ck_assert_msg(vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET) == kDeq[k],
                  "r+%u: %llu selections, expected %llu", k,
                  (unsigned long long)vcnt(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET),
                  (unsigned long long)kDeq[k]);
  }
  for (int i = 0; i < 20; i++) idle(m, &rb);
  static const exp_out_t kExp[] = {{10, 0, true}, {11, 1, true}, {14, 2, true},
                                   {18, 3, true}, {22, 4, true}, {26, 5, true}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  xtm_destroy(m);
}
END_TEST

// HBM read latency and order across VOQs of one port (9.4, 9.6): port 0, T = 2. q0 evicts on
// its first arrival (EVICT 0) -> A in HBM; q1 is OCB-only (limit 100, target 12.5 B/cycle:
// 100 * 16777216 <= 40000 * 819200) -> B in OCB. HBM_RD_LAT 20. Released at r: DWRR round,
// q0 A at r (q0 empty -> rr = 1), q1 B at r+1. A ready r+20; B ready r+6 but behind A:
// outputs A (hbm 1) at r+20, B (hbm 0) at r+21.
START_TEST(test_hbm_latency_blocks_ocb) {
  xtm_t *m = tl_create(1, 2, 64);
  for (uint32_t q = 0; q < 2; q++) {
    tl_voq_wr(m, q, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  }
  tl_voq_wr(m, 1, XTM_Q_TARGET_RATE_REG_OFFSET, 0x0C8000);
  tl_voq_wr(m, 1, XTM_Q_LIMIT_CELLS_REG_OFFSET, 100);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 0);
  tl_wr(m, XTM_HBM_RD_LAT_REG_OFFSET, 20);
  hold(m);
  ck_assert(enq(m, 0, 1000, 0xA, NULL));
  ck_assert(!enq(m, 1, 1000, 0xB, NULL));
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 4);  // ceil(1000 / 256)
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 4);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 4);
  ck_assert_uint_eq(tl_voq_rd(m, 1, XTM_Q_HBM_CELLS_REG_OFFSET), 0);
  rec_buf_t rb = {.n = 0};
  uint64_t r = xtm_cycle(m);
  release(m, &rb);
  for (int i = 0; i < 30; i++) idle(m, &rb);
  static const exp_out_t kExp[] = {{20, 0xA, true}, {21, 0xB, false}};
  check_outputs(&rb, r, kExp, N_ELEM(kExp));
  ck_assert_uint_eq(rb.r[0].d.sojourn, 2);  // A enqueued at r-2, selected at r
  ck_assert_uint_eq(rb.r[1].d.sojourn, 2);  // B enqueued at r-1, selected at r+1
  xtm_destroy(m);
}
END_TEST

// Eviction and return of one VOQ in the cycle of a removal (spec 5.2, 15.3): both read the
// mode of S(t); the eviction reads the occupancy of S(t) (the departing packet counted), the
// return the occupancy after the removal; an arrival is placed with the mode of S(t).
// HBM_EVICT_CELLS 3, HBM_RETURN_CELLS 2, 1-cell packets, reset HBM write bucket (conforms).
// Loaded while held: id0..id2 (occ 0, 1, 2 < 3: OCB), id3 (occ 3 >= 3: evict, HBM).
//   r   (release): removal of id0 -> occ 3 > 2, mode stays HBM.
//   r+1 (arrival X): removal of id1 -> occ 2 <= 2: return at the end of r+1; X placed with
//        the mode of S(r+1) = HBM -> X in HBM; no eviction (mode HBM in S(r+1)).
//   r+2 (arrival Y): mode OCB, occ of S(r+2) = 2 + 1 = 3 >= 3 -> evict, Y in HBM, although
//        the removal of id2 in r+2 leaves 2 (not seen); no return (mode OCB in S(r+2)).
// (Spec 1.0 would have placed X in OCB and not evicted at Y.)
START_TEST(test_same_cycle_mode) {
  xtm_t *m = tl_create(1, 1, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 0) | kPfcRx);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 3);
  tl_wr(m, XTM_HBM_RETURN_CELLS_REG_OFFSET, 2);
  hold(m);
  for (uint32_t i = 0; i < 4; i++) ck_assert(enq(m, 0, 256, i, NULL) == (i == 3));
  ck_assert(hbm_mode(m, 0));
  release(m, NULL);  // r
  ck_assert(hbm_mode(m, 0));
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_RETURN_LO_REG_OFFSET), 0);
  ck_assert(enq(m, 0, 256, 0x10, NULL));  // r+1: X in HBM
  ck_assert(!hbm_mode(m, 0));
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_RETURN_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 3);
  ck_assert(enq(m, 0, 256, 0x11, NULL));  // r+2: Y evicts, in HBM
  ck_assert(hbm_mode(m, 0));
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_EVICT_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(vcnt(m, 0, XTM_Q_HBM_RETURN_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 3);  // id3, X, Y
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 3);
  xtm_destroy(m);
}
END_TEST

static Suite *hbm_suite(void) {
  Suite *s = suite_create("hbm");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_ocb_only_rule);
  tcase_add_test(tc, test_ocb_only_never_evicts);
  tcase_add_test(tc, test_evict_and_return);
  tcase_add_test(tc, test_hbm_write_bandwidth);
  tcase_add_test(tc, test_mixed_order);
  tcase_add_test(tc, test_hbm_read_bandwidth);
  tcase_add_test(tc, test_hbm_latency_blocks_ocb);
  tcase_add_test(tc, test_same_cycle_mode);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(hbm_suite()); }
