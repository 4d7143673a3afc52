// SPDX-License-Identifier: Apache-2.0
//
// Suite "pfc_rx": PFC reception on the egress side (docs/spec.md section 7.2): pause length
// to the cycle, XON, re-arming, G_PAUSED_CYCLES / G_PAUSE_RX / G_XON_RX / P_PFC_RX_FRAMES /
// G_PAUSE_REMAIN, and which queues obey the pause (section 9.1).
//
// Set-up: 4 ports x 8 TCs, reset maps (TC = DSCP >> 3 = queue = PG). The queue under test is
// VOQ 19 = egress port 2, queue 3 (DSCP 24), with Q_CFG.PFC_RX_EN and PFC_PRIO 3. A frame
// received at cycle t with quanta q on priority 3 sets pause_end = t + n,
// n = ceil(q * P_PAUSE_QUANTUM / 65536): cycles t .. t+n-1 are paused, so a packet waiting
// in VOQ 19 is selected at t+n (step 2 precedes step 5) and appears on deq[2] at
// t+n+OCB_RD_LAT = t+n+5 (reset 5; sections 9.4, 9.6; all ports tx_ready, FIFO empty).

#include <string.h>

#include "tests/unit/xtm_testlib.h"

enum { kEg = 2, kPrio = 3, kVoq = kEg * 8 + 3, kIn = 1 };

static uint32_t qcfg_pfc(bool rx_en, uint32_t prio) {
  return 1u << XTM_Q_CFG_ENABLE_OFFSET | (rx_en ? 1u : 0u) << XTM_Q_CFG_PFC_RX_EN_OFFSET |
         prio << XTM_Q_CFG_PFC_PRIO_OFFSET;
}

// One cycle receiving a frame on port 2 with quanta q for priority 3 only (vec = bit 3).
static void rx_prio3(xtm_t *m, uint16_t q, xtm_out_t *out) {
  uint16_t quanta[8] = {0};
  quanta[kPrio] = q;
  tl_pfc_rx(m, kEg, 1u << kPrio, quanta, out);
  ck_assert_uint_eq(out->deq_valid, 0);
}

static xtm_t *setup(void) {
  xtm_t *m = tl_create(4, 8, 256);
  tl_voq_wr(m, kVoq, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(true, kPrio));
  return m;
}

// One cycle with a bus read (step 1 samples S(t)); returns rdata.
static uint32_t bus_rd(xtm_t *m, uint16_t addr) {
  xtm_in_t in;
  tl_idle_in(&in);
  in.csr = (xtm_csr_req_t){.valid = true, .write = false, .addr = addr};
  xtm_out_t out;
  xtm_step(m, &in, &out);
  ck_assert(out.csr_rsp.valid);
  ck_assert(!out.csr_rsp.err);
  return out.csr_rsp.rdata;
}

static uint64_t pg_cnt(xtm_t *m, uint32_t port, uint32_t prio, uint16_t lo) {
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, port * 8 + prio);
  return tl_rd64(m, lo);
}
static uint64_t port_cnt(xtm_t *m, uint32_t port, uint16_t lo) {
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, port);
  return tl_rd64(m, lo);
}

// Runs idle cycles until the first output (at most `limit` cycles on); asserts it is a
// single dequeue on port 2 of `pkt_id` and returns its cycle.
static uint64_t next_deq(xtm_t *m, uint64_t limit, uint32_t pkt_id) {
  xtm_out_t out;
  ck_assert(xtm_advance_to(m, xtm_cycle(m) + limit, &out));
  ck_assert_uint_eq(out.deq_valid, 1u << kEg);
  ck_assert_uint_eq(out.deq[kEg].pkt_id, pkt_id);
  ck_assert_uint_eq(out.deq[kEg].voq, kVoq);
  ck_assert_uint_eq(out.pfc_tx_valid, 0);
  ck_assert(!out.flush.valid);
  return out.cycle;
}

// ------------------------------------------------------------------ pause length

START_TEST(test_pause_expiry) {
  static const struct {
    uint32_t quantum;  // P_PAUSE_QUANTUM, Q16.16
    uint16_t q;
    uint64_t n;  // ceil(q * quantum / 65536)
  } kCases[] = {
      {0x51EB8, 1, 6},           // 335544 / 65536 = 5.12 -> 6
      {0x51EB8, 2, 11},          // 671088 / 65536 = 10.24 -> 11
      {0x51EB8, 3, 16},          // 1006632 / 65536 = 15.36 -> 16
      {0x51EB8, 25, 128},        // 8388600 / 65536 = 127.9998 -> 128
      {0x51EB8, 100, 512},       // 33554400 / 65536 = 511.9995 -> 512
      {0x51EB8, 65535, 335539},  // 21989876040 / 65536 = 335538.88 -> 335539
      {0x20000, 3, 6},           // exactly 2.0 x 3 = 6, no rounding up
      {0x10001, 65535, 65536},   // 65535 * 65537 / 65536 = 65535.99998 -> 65536
      {0x8000, 1, 1},            // 0.5 -> 1
      {0x4000, 1, 1},            // the smallest quantum (spec 7.2): 0.25 -> 1
      {0x4000, 9, 3},            // 2.25 -> 3 (four quanta start in some cycles)
      {0x4001, 65535, 16385},    // 65535 * 16385 / 65536 = 16384.75 -> 16385
  };
  for (size_t c = 0; c < sizeof(kCases) / sizeof(kCases[0]); c++) {
    xtm_t *m = setup();
    if (kCases[c].quantum != 0x51EB8) {
      tl_port_wr(m, kEg, XTM_P_PAUSE_QUANTUM_REG_OFFSET, kCases[c].quantum);
    }
    xtm_out_t out;
    tl_enq(m, kIn, kEg, 24, 0, 256, 7, &out);  // cycle t-1
    ck_assert_uint_eq(out.enq_res.reason, kXtmReasonAccept);
    rx_prio3(m, kCases[c].q, &out);  // cycle t
    const uint64_t t = out.cycle;
    xtm_pg_state_t g;
    xtm_pg_state(m, kEg, kPrio, &g);
    ck_assert_uint_eq(g.pause_remain, kCases[c].n - 1);  // at t+1: pause_end - (t+1)
    uint64_t d = next_deq(m, kCases[c].n + 100, 7);
    ck_assert_msg(d == t + kCases[c].n + 5, "case %zu: deq at t+%llu, expected t+%llu", c,
                  (unsigned long long)(d - t), (unsigned long long)(kCases[c].n + 5));
    xtm_destroy(m);
  }
}
END_TEST

// The sojourn of the first packet after a pause is selection - enqueue = (t+n) - (t-1).
START_TEST(test_pause_sojourn) {
  xtm_t *m = setup();
  xtm_out_t out;
  tl_enq(m, kIn, kEg, 24, 0, 256, 1, &out);
  rx_prio3(m, 100, &out);
  ck_assert(xtm_advance_to(m, xtm_cycle(m) + 1000, &out));
  ck_assert_uint_eq(out.deq[kEg].sojourn, 512 + 1);  // n = 512 (q 100)
  xtm_destroy(m);
}
END_TEST

// XON (quanta 0) at t+10 sets pause_end = t+10: selected at t+10, output at t+15.
START_TEST(test_xon_ends_pause) {
  xtm_t *m = setup();
  xtm_out_t out;
  tl_enq(m, kIn, kEg, 24, 0, 256, 3, &out);
  rx_prio3(m, 0xFFFF, &out);
  const uint64_t t = out.cycle;
  ck_assert(!xtm_advance_to(m, t + 10, &out));  // nothing in t+1 .. t+9
  rx_prio3(m, 0, &out);
  ck_assert_uint_eq(out.cycle, t + 10);
  ck_assert_uint_eq(next_deq(m, 100, 3), t + 15);
  xtm_pg_state_t g;
  xtm_pg_state(m, kEg, kPrio, &g);
  ck_assert_uint_eq(g.pause_remain, 0);
  ck_assert_uint_eq(pg_cnt(m, kEg, kPrio, XTM_G_PAUSE_RX_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(pg_cnt(m, kEg, kPrio, XTM_G_XON_RX_LO_REG_OFFSET), 1);
  ck_assert_uint_eq(port_cnt(m, kEg, XTM_P_PFC_RX_FRAMES_LO_REG_OFFSET), 2);
  // Paused cycles t .. t+9 = 10.
  ck_assert_uint_eq(pg_cnt(m, kEg, kPrio, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 10);
  xtm_destroy(m);
}
END_TEST

// A new frame re-arms: pause_end is overwritten (shorter or longer).
START_TEST(test_rearm) {
  static const struct {
    uint16_t q1;
    uint64_t dt;  // second frame at t + dt
    uint16_t q2;
    uint64_t deq;     // output cycle - t
    uint64_t paused;  // G_PAUSED_CYCLES afterwards
  } kCases[] = {
      // q 100 -> end t+512; at t+100 q 1 -> end t+106: selected t+106, out t+111; t..t+105.
      {100, 100, 1, 111, 106},
      // q 1 -> end t+6; at t+3 q 2 -> end t+3+11 = t+14: out t+19; paused t..t+13 = 14.
      {1, 3, 2, 19, 14},
      // q 1 -> end t+6; at t+6 (already expired at t+6? no: t+6 is not < t+6, so the queue
      // could be selected at t+6, but step 2 re-pauses first) q 1 -> end t+12: out t+17;
      // paused t..t+5 and t+6..t+11 = 12.
      {1, 6, 1, 17, 12},
  };
  for (size_t c = 0; c < sizeof(kCases) / sizeof(kCases[0]); c++) {
    xtm_t *m = setup();
    xtm_out_t out;
    tl_enq(m, kIn, kEg, 24, 0, 256, 5, &out);
    rx_prio3(m, kCases[c].q1, &out);
    const uint64_t t = out.cycle;
    ck_assert(!xtm_advance_to(m, t + kCases[c].dt, &out));
    rx_prio3(m, kCases[c].q2, &out);
    ck_assert_uint_eq(next_deq(m, 1000, 5), t + kCases[c].deq);
    ck_assert_uint_eq(xtm_pg_counter(m, kEg, kPrio, kXtmGcntPausedCycles), kCases[c].paused);
    ck_assert_uint_eq(xtm_pg_counter(m, kEg, kPrio, kXtmGcntPauseRx), 2);
    xtm_destroy(m);
  }
}
END_TEST

// ------------------------------------------------------------------ counters

// G_PAUSED_CYCLES through the CSR bus at S(r): frames q 100 at t (end t+512) and at t+100
// (end t+612). Read at r = t+50: cycles t..t+49 = 50. At t+300: t..t+299 = 300. At t+1000:
// t..t+611 = 612 (the overlap t+100..t+511 counts once, not 512 + 512 = 1024).
// G_PAUSE_REMAIN at S(r) = pause_end - r.
START_TEST(test_paused_cycles_csr) {
  xtm_t *m = setup();
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, kEg * 8 + kPrio);
  xtm_out_t out;
  rx_prio3(m, 100, &out);
  const uint64_t t = out.cycle;
  ck_assert(!xtm_advance_to(m, t + 50, &out));
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 50);
  ck_assert_uint_eq(tl_rd(m, XTM_G_PAUSED_CYCLES_HI_REG_OFFSET), 0);
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSE_REMAIN_REG_OFFSET), 512 - 51);  // read at t+51
  ck_assert(!xtm_advance_to(m, t + 100, &out));
  rx_prio3(m, 100, &out);  // at t+100
  ck_assert(!xtm_advance_to(m, t + 300, &out));
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 300);
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSE_REMAIN_REG_OFFSET), 612 - 301);  // read at t+301
  ck_assert(!xtm_advance_to(m, t + 1000, &out));
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 612);
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSE_REMAIN_REG_OFFSET), 0);  // expired: 0
  ck_assert_uint_eq(pg_cnt(m, kEg, kPrio, XTM_G_PAUSE_RX_LO_REG_OFFSET), 2);
  // Other priorities of the port and the same priority of other ports: nothing.
  ck_assert_uint_eq(xtm_pg_counter(m, kEg, 2, kXtmGcntPausedCycles), 0);
  ck_assert_uint_eq(xtm_pg_counter(m, 1, kPrio, kXtmGcntPausedCycles), 0);
  xtm_destroy(m);
}
END_TEST

// CTRL.CLR_CNT written at cycle c during a pause: counters are 0 at the end of c and
// G_PAUSED_CYCLES counts from c+1: a read at r gives r - (c+1).
START_TEST(test_paused_cycles_clear) {
  xtm_t *m = setup();
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, kEg * 8 + kPrio);
  xtm_out_t out;
  rx_prio3(m, 100, &out);  // t, end t+512
  const uint64_t t = out.cycle;
  ck_assert(!xtm_advance_to(m, t + 20, &out));
  tl_bus_wr(m, XTM_CTRL_REG_OFFSET, 1u << XTM_CTRL_CLR_CNT_OFFSET, NULL);  // c = t+20
  ck_assert(!xtm_advance_to(m, t + 60, &out));
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 39);  // t+21 .. t+59
  ck_assert(!xtm_advance_to(m, t + 600, &out));
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSED_CYCLES_LO_REG_OFFSET), 491);       // t+21 .. t+511
  ck_assert_uint_eq(pg_cnt(m, kEg, kPrio, XTM_G_PAUSE_RX_LO_REG_OFFSET), 0);  // cleared
  xtm_destroy(m);
}
END_TEST

// Per-priority counting: a frame with vec {1, 3}, quanta[1] = 0 (XON), quanta[3] = 5,
// quanta[6] = 7 but bit 6 not in vec (ignored). Then an XON for 3 while tx_ready[2] is low
// (still counts), then an empty vector (a frame, no priority).
START_TEST(test_rx_counters) {
  xtm_t *m = setup();
  uint16_t quanta[8] = {0};
  quanta[1] = 0;
  quanta[3] = 5;
  quanta[6] = 7;
  xtm_out_t out;
  tl_pfc_rx(m, kEg, 0x0A, quanta, &out);
  xtm_pg_state_t g;
  xtm_pg_state(m, kEg, 3, &g);
  ck_assert_uint_eq(g.pause_remain, 25);  // ceil(5 * 5.12) = ceil(25.6) = 26, at t+1: 25
  xtm_pg_state(m, kEg, 6, &g);
  ck_assert_uint_eq(g.pause_remain, 0);
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, kEg);
  ck_assert_uint_eq((tl_rd(m, XTM_P_STATUS_REG_OFFSET) >> XTM_P_STATUS_PAUSED_MASK_OFFSET) & 0xFFu,
                    1u << 3);
  xtm_in_t in;
  tl_idle_in(&in);
  in.tx_ready = ~(1ull << kEg);
  in.pfc_rx_valid = 1ull << kEg;
  in.pfc_rx[kEg].vec = 1u << 3;  // quanta all 0: XON for 3
  xtm_step(m, &in, &out);
  tl_idle_in(&in);
  in.pfc_rx_valid = 1ull << kEg;
  in.pfc_rx[kEg].vec = 0;
  in.pfc_rx[kEg].quanta[3] = 9;  // not in vec
  xtm_step(m, &in, &out);
  xtm_pg_state(m, kEg, 3, &g);
  ck_assert_uint_eq(g.pause_remain, 0);  // the XON ended it; the empty vector did not re-arm
  static const struct {
    uint32_t prio;
    uint64_t pause_rx, xon_rx;
  } kExp[] = {{0, 0, 0}, {1, 0, 1}, {3, 1, 1}, {6, 0, 0}, {7, 0, 0}};
  for (size_t i = 0; i < sizeof(kExp) / sizeof(kExp[0]); i++) {
    ck_assert_uint_eq(pg_cnt(m, kEg, kExp[i].prio, XTM_G_PAUSE_RX_LO_REG_OFFSET), kExp[i].pause_rx);
    ck_assert_uint_eq(pg_cnt(m, kEg, kExp[i].prio, XTM_G_XON_RX_LO_REG_OFFSET), kExp[i].xon_rx);
  }
  ck_assert_uint_eq(port_cnt(m, kEg, XTM_P_PFC_RX_FRAMES_LO_REG_OFFSET), 3);
  ck_assert_uint_eq(port_cnt(m, 0, XTM_P_PFC_RX_FRAMES_LO_REG_OFFSET), 0);
  ck_assert_uint_eq(xtm_pg_counter(m, kEg, 3, kXtmGcntPausedCycles), 1);  // only cycle t
  xtm_destroy(m);
}
END_TEST

// G_PAUSE_REMAIN at its largest: P_PAUSE_QUANTUM 0xFFFFFFFF, q 65535:
// ceil(65535 * (2^32-1) / 2^16) = ceil(2^32 - 2^16 - 1 + 2^-16) = 2^32 - 2^16 = 4294901760;
// read at S(t+1): 4294901759 (fits 32 bits; sat_32 never clips).
START_TEST(test_pause_remain_max) {
  xtm_t *m = setup();
  tl_port_wr(m, kEg, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0xFFFFFFFFu);
  tl_wr(m, XTM_PG_SEL_REG_OFFSET, kEg * 8 + kPrio);
  xtm_out_t out;
  rx_prio3(m, 0xFFFF, &out);
  ck_assert_uint_eq(bus_rd(m, XTM_G_PAUSE_REMAIN_REG_OFFSET), 4294901759u);
  xtm_destroy(m);
}
END_TEST

// A P_PAUSE_QUANTUM write re-times a running pause (spec 7.2): Q 5.12, q 10 at t: R(t) =
// 51.2 cycles, 9 whole quanta after a first one of 5.12. The write before cycle t+4 (a
// backdoor write acts as one of cycle t+3) finds 9 quanta and 5.12 - 4 = 1.12 cycles left;
// at Q 2.0 that is 19.12 cycles: pause to t+23, G_PAUSE_REMAIN 20 at t+4, the packet
// selected at t+24 and out 5 cycles later (at Q 5.12 it would have been t+52).
START_TEST(test_quantum_write_retimes) {
  xtm_t *m = setup();
  xtm_out_t out;
  tl_enq(m, kIn, kEg, 24, 0, 256, 7, &out);
  rx_prio3(m, 10, &out);
  const uint64_t t = out.cycle;
  for (int i = 0; i < 3; i++) {
    tl_idle(m, &out);
    ck_assert_uint_eq(out.deq_valid, 0);
  }
  ck_assert_uint_eq(xtm_cycle(m), t + 4);
  tl_port_wr(m, kEg, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x20000);
  xtm_pg_state_t g;
  xtm_pg_state(m, kEg, kPrio, &g);
  ck_assert_uint_eq(g.pause_remain, 20);
  ck_assert_uint_eq(next_deq(m, 100, 7), t + 24 + 5);
  xtm_destroy(m);
}
END_TEST

// P_PAUSE_QUANTUM below a quarter cycle is ILLEGAL (spec 7.2, 10.2): the write is ignored.
START_TEST(test_quantum_min) {
  xtm_t *m = setup();
  tl_wr(m, XTM_PORT_SEL_REG_OFFSET, kEg);
  ck_assert(!xtm_csr_write(m, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x3FFF));
  ck_assert_uint_ne(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET) & (1u << XTM_ERR_STATUS_ILLEGAL_BIT), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_P_PAUSE_QUANTUM_REG_OFFSET), 0x51EB8);
  tl_wr(m, XTM_ERR_STATUS_REG_OFFSET, 0xFFFFFFFFu);
  tl_port_wr(m, kEg, XTM_P_PAUSE_QUANTUM_REG_OFFSET, 0x4000);
  ck_assert_uint_eq(tl_rd(m, XTM_ERR_STATUS_REG_OFFSET), 0);
  ck_assert_uint_eq(tl_rd(m, XTM_P_PAUSE_QUANTUM_REG_OFFSET), 0x4000);
  xtm_destroy(m);
}
END_TEST

// The model's closed form against step 2 of spec 7.2 run literally, cycle by cycle: random
// frames (quanta 0..40, some XON) and random P_PAUSE_QUANTUM writes (0x4000 .. 0x80000, so
// one to four quanta start in a cycle) during pauses; G_PAUSE_REMAIN compared every cycle.
START_TEST(test_quantum_rewrites_random) {
  const uint64_t seed0 = tl_env_seed(0x5eed7a2u);
  uint64_t seed = seed0;
  xtm_t *m = setup();
  uint64_t qn = 0, f = 0, quantum = 0x51EB8;
  xtm_out_t out;
  for (int c = 0; c < 20000; c++) {
    uint64_t r = tl_rand(&seed);
    if (r % 97 == 0) {  // a write that cycle c (the next one) sees
      quantum = 0x4000 + (tl_rand(&seed) % 0x7C001);
      tl_port_wr(m, kEg, XTM_P_PAUSE_QUANTUM_REG_OFFSET, (uint32_t)quantum);
    }
    xtm_pg_state_t g;
    xtm_pg_state(m, kEg, kPrio, &g);
    uint64_t want = (qn * quantum + f + 0xFFFFu) >> 16;
    ck_assert_msg(g.pause_remain == want, "seed %llu cycle %d: remain %llu, spec %llu",
                  (unsigned long long)seed0, c, (unsigned long long)g.pause_remain,
                  (unsigned long long)want);
    if (r % 53 == 1) {  // step 1
      uint16_t quanta[8] = {0};
      quanta[kPrio] = (uint16_t)(tl_rand(&seed) % 41);
      qn = quanta[kPrio] != 0 ? quanta[kPrio] - 1u : 0;
      f = quanta[kPrio] != 0 ? quantum : 0;
      tl_pfc_rx(m, kEg, 1u << kPrio, quanta, &out);
    } else {
      tl_idle(m, &out);
    }
    int64_t ph = (int64_t)f - 65536;  // step 2
    while (ph <= 0 && qn > 0) {
      ph += (int64_t)quantum;
      qn--;
    }
    f = ph > 0 ? (uint64_t)ph : 0;
    qn = ph > 0 ? qn : 0;
  }
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ who obeys

// Port 2: VOQ 19 (PFC_RX_EN, prio 3), VOQ 20 (prio 3 but no PFC_RX_EN), VOQ 18 (PFC_RX_EN,
// prio 2). Pause prio 3 at p (q 0xFFFF: 335539 cycles). Arrivals: 19 at p+1, 20 at p+2,
// 18 at p+3, 19 at p+4. Only VOQ 19 is paused: VOQ 20 is selected at p+3 (out p+8, OCB_RD_LAT
// 5), VOQ 18 at p+4 (out p+9); VOQ 19 waits until p+335539 (out p+335544, then its second
// packet at p+335545).
START_TEST(test_who_obeys) {
  xtm_t *m = setup();
  tl_voq_wr(m, kEg * 8 + 4, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(false, 3));
  tl_voq_wr(m, kEg * 8 + 2, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(true, 2));
  xtm_out_t out;
  rx_prio3(m, 0xFFFF, &out);
  const uint64_t p = out.cycle;
  tl_enq(m, kIn, kEg, 24, 0, 256, 190, &out);  // VOQ 19
  tl_enq(m, kIn, kEg, 32, 0, 256, 200, &out);  // VOQ 20
  tl_enq(m, kIn, kEg, 16, 0, 256, 180, &out);  // VOQ 18
  tl_enq(m, kIn, kEg, 24, 0, 256, 191, &out);  // VOQ 19
  static const struct {
    uint64_t dt;
    uint32_t pkt, voq;
  } kExp[] = {{8, 200, 20}, {9, 180, 18}, {335544, 190, 19}, {335545, 191, 19}};
  for (size_t i = 0; i < sizeof(kExp) / sizeof(kExp[0]); i++) {
    ck_assert(xtm_advance_to(m, p + 400000, &out));
    ck_assert_uint_eq(out.cycle, p + kExp[i].dt);
    ck_assert_uint_eq(out.deq_valid, 1u << kEg);
    ck_assert_uint_eq(out.deq[kEg].pkt_id, kExp[i].pkt);
    ck_assert_uint_eq(out.deq[kEg].voq, kExp[i].voq);
  }
  tl_check_invariants(m);
  xtm_destroy(m);
}
END_TEST

// A pause on port 2 does not pause queue 3 of port 1 (pause is per egress port).
START_TEST(test_other_port_not_paused) {
  xtm_t *m = setup();
  tl_voq_wr(m, 1 * 8 + 3, XTM_Q_CFG_REG_OFFSET, qcfg_pfc(true, kPrio));
  xtm_out_t out;
  rx_prio3(m, 0xFFFF, &out);
  const uint64_t p = out.cycle;
  tl_enq(m, 0, 1, 24, 0, 256, 42, &out);  // VOQ 11 at p+1, selected p+2, out p+7
  ck_assert(xtm_advance_to(m, p + 100, &out));
  ck_assert_uint_eq(out.cycle, p + 7);
  ck_assert_uint_eq(out.deq_valid, 1u << 1);
  ck_assert_uint_eq(out.deq[1].pkt_id, 42);
  xtm_destroy(m);
}
END_TEST

static Suite *pfc_rx_suite(void) {
  Suite *s = suite_create("pfc_rx");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_pause_expiry);
  tcase_add_test(tc, test_pause_sojourn);
  tcase_add_test(tc, test_xon_ends_pause);
  tcase_add_test(tc, test_rearm);
  tcase_add_test(tc, test_paused_cycles_csr);
  tcase_add_test(tc, test_paused_cycles_clear);
  tcase_add_test(tc, test_rx_counters);
  tcase_add_test(tc, test_pause_remain_max);
  tcase_add_test(tc, test_quantum_write_retimes);
  tcase_add_test(tc, test_quantum_min);
  tcase_add_test(tc, test_quantum_rewrites_random);
  tcase_add_test(tc, test_who_obeys);
  tcase_add_test(tc, test_other_port_not_paused);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(pfc_rx_suite()); }
