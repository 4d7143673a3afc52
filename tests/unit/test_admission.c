// SPDX-License-Identifier: Apache-2.0
//
// Suite "admission": enqueue admission of docs/spec.md 4.4 (checks a, d-g and their order),
// the enqueue counters of 4.5, cells and pools of 5.1, placement (BUF_FULL) of 5.3, the
// QDISABLED flush of 9.7 and the rc watermark of section 10. Cells are 256 B (default), so
// a packet of len bytes holds ceil(len/256) cells.
//
// Packets are held in their VOQ by pausing the egress port (spec 7.2): the VOQ's Q_CFG has
// PFC_RX_EN with PFC_PRIO 0, and a received PFC frame with quanta 0xFFFF pauses priority 0
// for ceil(65535 * P_PAUSE_QUANTUM / 65536) = ceil(65535 * 5.12) > 3e5 cycles. A frame with
// quanta 0 (XON) sets pause_end = t, so the VOQ is eligible in that same cycle (9.1).
// In a 2-port x 2-TC model, voq = eg_port * 2 + queue; DSCP 0 -> queue 0, DSCP 8 -> queue 1.

#include <string.h>

#include "tests/unit/xtm_testlib.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t kPfcRxEn = 1u << XTM_Q_CFG_PFC_RX_EN_OFFSET;  // PFC_PRIO = 0

// Q_CFG of a plain enabled VOQ (profile 0: NPOINTS 0, never drops) that obeys pause.
static uint32_t held_qcfg(void) { return tl_qcfg(false, false, false, false, 0, 0) | kPfcRxEn; }

// One cycle with any of: an enqueue, a PFC frame for priority 0 on `pfc_port` (< 0: none),
// a CSR access. tx_ready all ones.
static void step_io(xtm_t *m, const xtm_enq_in_t *enq, int pfc_port, uint16_t quanta0,
                    const xtm_csr_req_t *csr, xtm_out_t *out) {
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  if (enq != NULL) {
    in.enq = *enq;
  }
  if (pfc_port >= 0) {
    in.pfc_rx_valid = 1ull << pfc_port;
    in.pfc_rx[pfc_port].vec = 0x01;
    in.pfc_rx[pfc_port].quanta[0] = quanta0;
  }
  if (csr != NULL) {
    in.csr = *csr;
  }
  xtm_step(m, &in, out);
}

static void pause_port(xtm_t *m, uint32_t port) {
  xtm_out_t out;
  step_io(m, NULL, (int)port, 0xFFFF, NULL, &out);
}

static xtm_enq_in_t enq_desc(uint8_t eg, uint8_t dscp, uint16_t len, uint32_t id) {
  return (xtm_enq_in_t){
      .valid = true, .pkt_id = id, .in_port = 0, .eg_port = eg, .dscp = dscp, .ecn = 0, .len = len};
}

static uint64_t vcnt(xtm_t *m, uint32_t voq, xtm_vcnt_t c) { return xtm_voq_counter(m, voq, c); }

// Reads a per-VOQ 64-bit counter through the CSR window.
static uint64_t voq_rd64(xtm_t *m, uint32_t voq, uint16_t lo) {
  tl_wr(m, XTM_VOQ_SEL_REG_OFFSET, voq);
  return tl_rd64(m, lo);
}

// ---------------------------------------------------------------- check d: TAIL

// VOQ 3 (port 1, queue 1), Q_LIMIT_CELLS = 10, held. Check d: occ + cells > 10 drops.
START_TEST(test_tail_limit) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 3, XTM_Q_LIMIT_CELLS_REG_OFFSET, 10);
  tl_voq_wr(m, 3, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  pause_port(m, 1);
  static const struct {
    uint16_t len;
    xtm_reason_t reason;
    uint32_t occ_after;
  } kCases[] = {
      {2048, kXtmReasonAccept, 8},  // 8 cells: 0 + 8 <= 10
      {513, kXtmReasonTail, 8},     // 3 cells: 8 + 3 = 11 > 10 (one above)
      {256, kXtmReasonAccept, 9},   // 1 cell: 8 + 1 = 9 (one below)
      {257, kXtmReasonTail, 9},     // 2 cells: 9 + 2 = 11
      {1, kXtmReasonAccept, 10},    // 1 cell: 9 + 1 = 10 = limit (at)
      {1, kXtmReasonTail, 10},      // 10 + 1 = 11
      {9216, kXtmReasonTail, 10},   // 36 cells
  };
  xtm_out_t out;
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    tl_enq(m, 0, 1, 8, 0, kCases[i].len, (uint32_t)(100 + i), &out);
    ck_assert(out.enq_res.valid);
    ck_assert_uint_eq(out.enq_res.pkt_id, 100 + i);
    ck_assert_uint_eq(out.enq_res.voq, 3);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    xtm_voq_state_t vs;
    xtm_voq_state(m, 3, &vs);
    ck_assert_uint_eq(vs.occ_cells, kCases[i].occ_after);
    ck_assert_uint_eq(xtm_voq_occ_cells(m, 3), kCases[i].occ_after);
    tl_check_invariants(m);
  }
  ck_assert_uint_eq(tl_voq_rd(m, 3, XTM_Q_OCC_CELLS_REG_OFFSET), 10);
  ck_assert_uint_eq(tl_voq_rd(m, 3, XTM_Q_OCC_PKTS_REG_OFFSET), 3);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ARR_PKTS_LO_REG_OFFSET), 7);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ENQ_PKTS_LO_REG_OFFSET), 3);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ENQ_BYTES_LO_REG_OFFSET), 2305);  // 2048+256+1
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DROP_TAIL_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 9987);  // 513+257+1+9216
  ck_assert_uint_eq(vcnt(m, 3, kXtmVcntDropPool), 0);
  ck_assert_uint_eq(tl_rd64(m, XTM_ARR_PKTS_LO_REG_OFFSET), 7);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 10);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- check e: POOL

// POOL_CELLS = 20 shared by VOQ 0 (port 0) and VOQ 2 (port 1), both held.
START_TEST(test_pool_exhaustion) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  tl_voq_wr(m, 2, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 20);
  pause_port(m, 0);
  pause_port(m, 1);
  static const struct {
    uint8_t eg;
    uint16_t len;
    xtm_reason_t reason;
    uint32_t pool_after;
  } kCases[] = {
      {0, 3072, kXtmReasonAccept, 12},  // 12 cells: 0 + 12 <= 20
      {1, 1792, kXtmReasonAccept, 19},  // 7 cells: 12 + 7 = 19
      {1, 257, kXtmReasonPool, 19},     // 2 cells: 19 + 2 = 21 > 20
      {0, 256, kXtmReasonAccept, 20},   // 1 cell: 19 + 1 = 20 = POOL_CELLS
      {1, 1, kXtmReasonPool, 20},       // 1 cell: 21 > 20
  };
  xtm_out_t out;
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    tl_enq(m, 1, kCases[i].eg, 0, 0, kCases[i].len, (uint32_t)i, &out);
    ck_assert_uint_eq(out.enq_res.voq, kCases[i].eg * 2u);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), kCases[i].pool_after);
    tl_check_invariants(m);
  }
  // TAIL (d) comes before POOL (e): VOQ 2 at its limit 7 and the pool full -> TAIL.
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, 7);
  tl_enq(m, 1, 1, 0, 0, 1, 50, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonTail);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntEnqPkts), 2);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntEnqBytes), 3328);  // 3072 + 256
  ck_assert_uint_eq(vcnt(m, 2, kXtmVcntArr), 4);
  ck_assert_uint_eq(vcnt(m, 2, kXtmVcntEnqPkts), 1);
  ck_assert_uint_eq(voq_rd64(m, 2, XTM_Q_DROP_POOL_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(voq_rd64(m, 2, XTM_Q_DROP_TAIL_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(voq_rd64(m, 2, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 259);  // 257 + 1 + 1
  ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), 20);
  // The admission at t reads the pool of S(t), not after the dequeue of t (4.1, 4.4, 15.3):
  // the XON on port 0 selects VOQ 0's 12-cell head at step 5, but a 2-cell arrival to VOQ 2
  // (limit back to 100) in the same cycle sees pool 20, 20 + 2 > 20: POOL. In the next
  // cycle it sees 20 - 12 = 8, 8 + 2 = 10 <= 20: accepted, while VOQ 0's 1-cell packet
  // leaves: 8 + 2 - 1 = 9 at the end of that cycle.
  tl_voq_wr(m, 2, XTM_Q_LIMIT_CELLS_REG_OFFSET, 100);
  xtm_enq_in_t e = enq_desc(1, 0, 512, 60);
  step_io(m, &e, 0, 0, NULL, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonPool);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 1);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 8);
  e.pkt_id = 61;
  step_io(m, &e, -1, 0, NULL, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 2);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 9);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- check g: BUF_FULL

// NumDesc = 4: the fifth resident packet finds no descriptor (check g).
START_TEST(test_buf_full_descriptors) {
  xtm_t *m = tl_create(2, 2, 4);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  const uint32_t f[1] = {0}, p[1] = {65536};  // profile 1: always hit, no draw
  tl_profile(m, 1, false, 1, f, p);
  pause_port(m, 0);
  xtm_out_t out;
  for (uint32_t i = 0; i < 4; i++) {
    tl_enq(m, 1, 0, 0, 0, 64, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  }
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 0);  // 4 - 4
  tl_enq(m, 1, 0, 0, 0, 64, 4, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonBufFull);
  // Earlier checks win over g: TAIL (limit 4 = occ 4), POOL (POOL_CELLS 4 = pool_used),
  // PROFILE (profile 1 hits).
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 4);
  tl_enq(m, 1, 0, 0, 0, 64, 5, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonTail);
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 100);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 4);
  tl_enq(m, 1, 0, 0, 0, 64, 6, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonPool);
  tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, 0x0FFFFFFF);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, tl_qcfg(false, false, false, false, 0, 1) | kPfcRxEn);
  tl_enq(m, 1, 0, 0, 0, 64, 7, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonProfile);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  tl_enq(m, 1, 0, 0, 0, 64, 8, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonBufFull);
  // XON at x: step 5 selects the head and frees its descriptor, but the admission of x reads
  // desc_free of S(x) = 0 (4.4, 15.3: a descriptor freed at x is reusable from x+1) ->
  // BUF_FULL. At x+1 (another selection frees one more): desc_free of S(x+1) = 1 -> accepted;
  // at the end of x+1: 1 + 1 - 1 = 1.
  xtm_enq_in_t e = enq_desc(0, 0, 64, 9);
  step_io(m, &e, 0, 0, NULL, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonBufFull);
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 1);
  e.pkt_id = 10;
  step_io(m, &e, -1, 0, NULL, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntArr), 11);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntEnqPkts), 5);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropBuf), 3);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropTail), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropPool), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropProfile), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropBytes), 6 * 64);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// OcbCells = 10 (HBM never used: the VOQ stays in OCB mode since occ < HBM_EVICT_CELLS).
START_TEST(test_buf_full_ocb) {
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = 2;
  prm.num_tcs = 2;
  prm.num_desc = 64;
  prm.ocb_cells = 10;
  xtm_t *m = tl_create_params(&prm);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  pause_port(m, 0);
  static const struct {
    uint16_t len;
    xtm_reason_t reason;
    uint32_t ocb_after;
  } kCases[] = {
      {1536, kXtmReasonAccept, 6},   // 6 cells: 0 + 6 <= 10
      {1025, kXtmReasonBufFull, 6},  // 5 cells: 6 + 5 = 11 > 10
      {1024, kXtmReasonAccept, 10},  // 4 cells: 6 + 4 = 10 = OcbCells
      {1, kXtmReasonBufFull, 10},    // 1 cell: 11 > 10
  };
  xtm_out_t out;
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    tl_enq(m, 1, 0, 0, 0, kCases[i].len, (uint32_t)i, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert(!out.enq_res.hbm);
    ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), kCases[i].ocb_after);
    tl_check_invariants(m);
  }
  ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 10);
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 62);  // 64 - 2 resident
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_DROP_BUF_LO_REG_OFFSET), 2);
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 1026);  // 1025 + 1
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_ENQ_BYTES_LO_REG_OFFSET), 2560);   // 1536 + 1024
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// Placement (5.3) with an HBM-mode VOQ: OcbCells 20, HbmCells 10, HBM_EVICT_CELLS 2.
// VOQ 0 is not OCB-only (Q_TARGET_RATE 0: 4096*256*65536 <= 40000*0 fails). The HBM write
// bucket starts full (64 cells) and is charged 4+4+2 = 10 cells: tokens stay >= 0.
START_TEST(test_placement_hbm_then_ocb) {
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_ports = 2;
  prm.num_tcs = 2;
  prm.num_desc = 64;
  prm.ocb_cells = 20;
  prm.hbm_cells = 10;
  xtm_t *m = tl_create_params(&prm);
  tl_wr(m, XTM_HBM_EVICT_CELLS_REG_OFFSET, 2);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  pause_port(m, 0);
  static const struct {
    uint16_t len;
    xtm_reason_t reason;
    bool hbm;
    uint32_t ocb, hbm_used;
  } kCases[] = {
      {1024, kXtmReasonAccept, false, 4, 0},    // occ 0 < 2: stays OCB mode; OCB 0+4
      {1024, kXtmReasonAccept, true, 4, 4},     // occ 4 >= 2: evicted; HBM 0+4 <= 10
      {1024, kXtmReasonAccept, true, 4, 8},     // HBM 4+4
      {1024, kXtmReasonAccept, false, 8, 8},    // HBM 8+4 > 10 -> OCB 4+4
      {512, kXtmReasonAccept, true, 8, 10},     // HBM 8+2 = 10 (at capacity)
      {3072, kXtmReasonAccept, false, 20, 10},  // HBM full -> OCB 8+12 = 20
      {1, kXtmReasonBufFull, false, 20, 10},    // HBM 11 > 10 and OCB 21 > 20
  };
  xtm_out_t out;
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    tl_enq(m, 1, 0, 0, 0, kCases[i].len, (uint32_t)i, &out);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason && out.enq_res.hbm == kCases[i].hbm,
                  "case %zu: %s hbm %d, expected %s hbm %d", i, xtm_reason_name(out.enq_res.reason),
                  out.enq_res.hbm, xtm_reason_name(kCases[i].reason), kCases[i].hbm);
    ck_assert_uint_eq(tl_rd(m, XTM_OCB_USED_REG_OFFSET), kCases[i].ocb);
    ck_assert_uint_eq(tl_rd(m, XTM_HBM_USED_REG_OFFSET), kCases[i].hbm_used);
    tl_check_invariants(m);
  }
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 30);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_HBM_CELLS_REG_OFFSET), 10);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_STATUS_REG_OFFSET) & 1u, 1);  // HBM_MODE
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntHbmEvict), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropBuf), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDropBytes), 1);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- check a: QDISABLED, flush

// VOQ 3 (port 1, queue 1) holds 3 packets; at cycle tw a bus write sets Q_CFG.ENABLE = 0
// (effective from tw+1) while a 4th packet arrives (still admitted). From tw+1 the flush
// engine removes one head per cycle (lowest flushing VOQ), pause notwithstanding; arrivals
// are QDISABLED. The flush takes the dequeue slot: VOQ 0's packet (unpaused) waits.
START_TEST(test_qdisabled_flush) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 3, XTM_Q_CFG_REG_OFFSET, held_qcfg());  // leaves VOQ_SEL = 3
  pause_port(m, 1);
  static const uint16_t kLen[4] = {100, 300, 600, 700};
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    tl_enq(m, 0, 1, 8, 0, kLen[i], 10 + i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  }
  uint64_t tw = xtm_cycle(m);
  xtm_csr_req_t wr = {.valid = true,
                      .write = true,
                      .addr = XTM_Q_CFG_REG_OFFSET,
                      .wdata = held_qcfg() & ~(1u << XTM_Q_CFG_ENABLE_OFFSET)};
  xtm_enq_in_t e = enq_desc(1, 8, kLen[3], 13);
  step_io(m, &e, -1, 0, &wr, &out);  // cycle tw: old ENABLE = 1 still used
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert(!out.flush.valid);
  ck_assert(!out.csr_rsp.err);
  // tw+1: flush 10; arrival 14 (len 50) -> QDISABLED, attributed to VOQ 3.
  e = enq_desc(1, 8, 50, 14);
  step_io(m, &e, -1, 0, NULL, &out);
  ck_assert_uint_eq(out.cycle, tw + 1);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 10);
  ck_assert_uint_eq(out.flush.voq, 3);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonQDisabled);
  ck_assert_uint_eq(out.enq_res.voq, 3);
  ck_assert_uint_eq(tl_voq_rd(m, 3, XTM_Q_STATUS_REG_OFFSET) & (1u << XTM_Q_STATUS_FLUSHING_BIT),
                    1u << XTM_Q_STATUS_FLUSHING_BIT);  // holds 3 packets, ENABLE = 0
  // tw+2: flush 11; arrival 20 to VOQ 0 (port 0, unpaused, len 64).
  e = enq_desc(0, 0, 64, 20);
  step_io(m, &e, -1, 0, NULL, &out);
  ck_assert(out.flush.valid);
  ck_assert_uint_eq(out.flush.pkt_id, 11);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  // tw+3: flush 12; tw+4: flush 13 (the packet admitted at tw); no selection meanwhile.
  static const uint32_t kFlushed[2] = {12, 13};
  for (int i = 0; i < 2; i++) {
    tl_idle(m, &out);
    ck_assert(out.flush.valid);
    ck_assert_uint_eq(out.flush.pkt_id, kFlushed[i]);
    ck_assert_uint_eq(out.flush.voq, 3);
    ck_assert_uint_eq(out.deq_valid, 0);
  }
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 0);  // no selection during tw+2..tw+4
  // tw+5: no flush (VOQ 3 empty); VOQ 0's packet selected; output at tw+5+OCB_RD_LAT(5).
  tl_idle(m, &out);
  ck_assert(!out.flush.valid);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 1);
  for (int i = 0; i < 4; i++) {
    tl_idle(m, &out);
    ck_assert_uint_eq(out.deq_valid, 0);
  }
  tl_idle(m, &out);
  ck_assert_uint_eq(out.cycle, tw + 10);
  ck_assert_uint_eq(out.deq_valid, 1);
  ck_assert_uint_eq(out.deq[0].pkt_id, 20);
  ck_assert_uint_eq(out.deq[0].sojourn, 3);  // selected tw+5, enqueued tw+2
  ck_assert_uint_eq(tl_voq_rd(m, 3, XTM_Q_STATUS_REG_OFFSET) & (1u << XTM_Q_STATUS_FLUSHING_BIT),
                    0);
  // Counters of VOQ 3 (4.5, 9.7).
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ARR_PKTS_LO_REG_OFFSET), 5);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ENQ_PKTS_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_ENQ_BYTES_LO_REG_OFFSET), 1700);  // 100+300+600+700
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DROP_FLUSH_LO_REG_OFFSET), 4);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DROP_QDIS_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DROP_BYTES_LO_REG_OFFSET), 1750);  // 1700 + 50
  ck_assert_uint_eq(voq_rd64(m, 3, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_voq_rd(m, 3, XTM_Q_OCC_CELLS_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_USED_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_DESC_FREE_REG_OFFSET), 64);
  tl_check_invariants(m);
  // Re-enabled: accepted again.
  tl_voq_wr(m, 3, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  tl_enq(m, 0, 1, 8, 0, 64, 30, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- watermark (section 10)

// Q_WM_CELLS (rc): a read returns the peak since the previous read; the watermark then
// restarts from the occupancy at the end of the reading cycle.
START_TEST(test_watermark_rc) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  pause_port(m, 0);
  xtm_out_t out;
  tl_enq(m, 1, 0, 0, 0, 768, 1, &out);                               // A: 3 cells, occ 3
  tl_enq(m, 1, 0, 0, 0, 1280, 2, &out);                              // B: 5 cells, occ 8
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 8);  // peak since reset
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 8);  // restarted at occ 8
  // XON: A selected (occ 5); next cycle pause again: B stays.
  step_io(m, NULL, 0, 0, NULL, &out);
  step_io(m, NULL, 0, 0xFFFF, NULL, &out);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 5);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 8);  // restart value 8
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 5);  // restarted at 5
  tl_enq(m, 1, 0, 0, 0, 1, 3, &out);                                 // 1 cell: occ 6
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 6);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 6);
  // A read on the bus at cycle t returns S(t); the restart happens at the end of t, from
  // the occupancy after t's enqueue: read + 2-cell arrival in one cycle -> 6, then 8.
  xtm_csr_req_t rd = {.valid = true, .write = false, .addr = XTM_Q_WM_CELLS_REG_OFFSET};
  xtm_enq_in_t e = enq_desc(0, 0, 512, 4);
  step_io(m, &e, -1, 0, &rd, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(out.csr_rsp.rdata, 6);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 8);
  // XON: B (5 cells) selected, occ 8 - 5 = 3; pause again. POOL_WM never read: peak 8.
  step_io(m, NULL, 0, 0, NULL, &out);
  step_io(m, NULL, 0, 0xFFFF, NULL, &out);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 3);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), 8);
  ck_assert_uint_eq(tl_rd(m, XTM_POOL_WM_REG_OFFSET), 3);
  // CTRL.CLR_CNT: counters to 0, watermarks restart from the current occupancy (3).
  ck_assert_uint_eq(xtm_voq_counter(m, 0, kXtmVcntEnqPkts), 4);  // A, B, ids 3, 4
  tl_wr(m, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_BIT);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 3);
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_ENQ_PKTS_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_ARR_PKTS_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(voq_rd64(m, 0, XTM_Q_DEQ_PKTS_LO_REG_OFFSET), 0);
  // (Invariants after a clear with residents: see test_clr_cnt_invariants.)
  xtm_destroy(m);
}
END_TEST

// Spec 12: after CTRL.CLR_CNT "the identities then hold for the traffic after it plus what
// was resident at the clear". VOQ 0 holds 2 packets at the clear; 1 more arrives; all 3
// leave: Q_ARR_PKTS (1) + resident at clear (2) = Q_DEQ_PKTS (3) + drops (0) + occ (0).
// The model's checker (tl_check_invariants -> xtm_check_invariants) must accept this state.
START_TEST(test_clr_cnt_invariants) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  pause_port(m, 0);
  xtm_out_t out;
  tl_enq(m, 1, 0, 0, 0, 100, 1, &out);
  tl_enq(m, 1, 0, 0, 0, 100, 2, &out);
  tl_check_invariants(m);
  tl_wr(m, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_BIT);
  tl_enq(m, 1, 0, 0, 0, 100, 3, &out);
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  step_io(m, NULL, 0, 0, NULL, &out);  // XON: selections at t, t+1, t+2
  tl_idle(m, &out);
  tl_idle(m, &out);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntArr), 1);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 3);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_PKTS_REG_OFFSET), 0);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntArr) + 2,
                    vcnt(m, 0, kXtmVcntDeqPkts) + tl_voq_rd(m, 0, XTM_Q_OCC_PKTS_REG_OFFSET));
  tl_check_invariants(m);  // spec 12 holds (asserted above); the checker must agree
  xtm_destroy(m);
}
END_TEST

// ---------------------------------------------------------------- order of checks (4.4)

// A probe to VOQ 1 (port 0, queue 1) that fails several of checks a, d, e, f, g gets the
// first reason in the order a, d, e, f, g. Setup per case: VOQ 2 (port 1, held) takes
// 1 packet (or 2 = NumDesc when `buf`); then VOQ 1 gets ENABLE = !qdis,
// Q_LIMIT_CELLS = tail ? 0 : 100 (0 + 1 > 0), POOL_CELLS = pool ? pool_used : 2^28-1
// (pool_used + 1 > pool_used), profile 1 (one point F 0, P 65536: always hit, no draw)
// when `prof`.
START_TEST(test_check_order) {
  static const struct {
    bool qdis, tail, pool, prof, buf;
    xtm_reason_t reason;
  } kCases[] = {
      {true, true, true, true, true, kXtmReasonQDisabled},
      {false, true, true, true, true, kXtmReasonTail},
      {false, false, true, true, true, kXtmReasonPool},
      {false, false, false, true, true, kXtmReasonProfile},
      {false, false, false, false, true, kXtmReasonBufFull},
      {false, false, false, false, false, kXtmReasonAccept},
      {true, false, false, false, true, kXtmReasonQDisabled},
      {false, true, false, false, true, kXtmReasonTail},
      {false, false, true, false, true, kXtmReasonPool},
      {false, true, false, true, false, kXtmReasonTail},
      {false, false, true, true, false, kXtmReasonPool},
      {true, false, false, true, false, kXtmReasonQDisabled},
  };
  static const struct {
    xtm_reason_t r;
    xtm_vcnt_t c;
  } kCnt[] = {{kXtmReasonTail, kXtmVcntDropTail},       {kXtmReasonPool, kXtmVcntDropPool},
              {kXtmReasonProfile, kXtmVcntDropProfile}, {kXtmReasonBufFull, kXtmVcntDropBuf},
              {kXtmReasonQDisabled, kXtmVcntDropQdis},  {kXtmReasonAccept, kXtmVcntEnqPkts}};
  for (size_t i = 0; i < ARRAY_LEN(kCases); i++) {
    xtm_t *m = tl_create(2, 2, 2);
    tl_voq_wr(m, 2, XTM_Q_CFG_REG_OFFSET, held_qcfg());
    const uint32_t f[1] = {0}, p[1] = {65536};
    tl_profile(m, 1, false, 1, f, p);
    pause_port(m, 1);
    xtm_out_t out;
    uint32_t filled = kCases[i].buf ? 2 : 1;
    for (uint32_t k = 0; k < filled; k++) {
      tl_enq(m, 0, 1, 0, 0, 256, 100 + k, &out);
      ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    }
    uint32_t qcfg = tl_qcfg(false, false, false, false, 0, kCases[i].prof ? 1 : 0);
    if (kCases[i].qdis) {
      qcfg &= ~(1u << XTM_Q_CFG_ENABLE_OFFSET);
    }
    tl_voq_wr(m, 1, XTM_Q_CFG_REG_OFFSET, qcfg);
    tl_voq_wr(m, 1, XTM_Q_LIMIT_CELLS_REG_OFFSET, kCases[i].tail ? 0 : 100);
    tl_wr(m, XTM_POOL_CELLS_REG_OFFSET, kCases[i].pool ? filled : 0x0FFFFFFFu);
    tl_enq(m, 0, 0, 8, 0, 200, 7, &out);  // DSCP 8 -> queue 1 -> VOQ 1; 1 cell
    ck_assert_uint_eq(out.enq_res.voq, 1);
    ck_assert_msg(out.enq_res.reason == kCases[i].reason, "case %zu: %s, expected %s", i,
                  xtm_reason_name(out.enq_res.reason), xtm_reason_name(kCases[i].reason));
    ck_assert_uint_eq(vcnt(m, 1, kXtmVcntArr), 1);
    for (size_t k = 0; k < ARRAY_LEN(kCnt); k++) {
      ck_assert_uint_eq(vcnt(m, 1, kCnt[k].c), kCnt[k].r == kCases[i].reason ? 1 : 0);
    }
    ck_assert_uint_eq(vcnt(m, 1, kXtmVcntDropBytes),
                      kCases[i].reason == kXtmReasonAccept ? 0 : 200);
    ck_assert_uint_eq(tl_rd(m, XTM_LFSR_STATE_REG_OFFSET), 0xACE1ACE1u);  // P 65536: no draw
    tl_check_invariants(m);
    xtm_destroy(m);
  }
}
END_TEST

// Same cycle, same VOQ (spec 15.3): the admission uses the VOQ's S(t) occupancy, the
// departing packet still counts; the end of the cycle applies both. VOQ 0 limit 3, holds
// three 1-cell packets. x (XON: head leaves): a 1-cell arrival sees 3 + 1 > 3 -> TAIL; occ
// at the end 3 - 1 = 2. x+1 (next head leaves): 2 + 1 <= 3 -> accepted; occ 2 - 1 + 1 = 2.
START_TEST(test_same_cycle_same_voq) {
  xtm_t *m = tl_create(2, 2, 64);
  tl_voq_wr(m, 0, XTM_Q_CFG_REG_OFFSET, held_qcfg());
  tl_voq_wr(m, 0, XTM_Q_LIMIT_CELLS_REG_OFFSET, 3);
  pause_port(m, 0);
  xtm_out_t out;
  for (uint32_t i = 0; i < 3; i++) {
    tl_enq(m, 1, 0, 0, 0, 100, i, &out);
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  }
  xtm_enq_in_t e = enq_desc(0, 0, 100, 10);
  step_io(m, &e, 0, 0, NULL, &out);  // x
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonTail);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 1);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 2);
  e.pkt_id = 11;
  step_io(m, &e, -1, 0, NULL, &out);  // x+1
  ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
  ck_assert_uint_eq(vcnt(m, 0, kXtmVcntDeqPkts), 2);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_OCC_CELLS_REG_OFFSET), 2);
  ck_assert_uint_eq(tl_voq_rd(m, 0, XTM_Q_WM_CELLS_REG_OFFSET), 3);  // end-of-cycle peak
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

static Suite *admission_suite(void) {
  Suite *s = suite_create("admission");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_tail_limit);
  tcase_add_test(tc, test_pool_exhaustion);
  tcase_add_test(tc, test_buf_full_descriptors);
  tcase_add_test(tc, test_buf_full_ocb);
  tcase_add_test(tc, test_placement_hbm_then_ocb);
  tcase_add_test(tc, test_qdisabled_flush);
  tcase_add_test(tc, test_same_cycle_same_voq);
  tcase_add_test(tc, test_watermark_rc);
  tcase_add_test(tc, test_clr_cnt_invariants);
  tcase_add_test(tc, test_check_order);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(admission_suite()); }
