// SPDX-License-Identifier: Apache-2.0
//
// Check suite of the netsim engine (docs/netsim.md section 7). Every expected time is derived
// in the comment next to it from the link model: a frame of L bytes occupies a link for
// (L + 20) x 8 bits at the link rate, then propagates for the link delay.

#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/netsim/netsim.h"

#define RATE_100G 100000000000ull
#define US NS_PS_PER_US

// Data frame of 1000 B payload: 1000 + 62 header = 1062 B; on the wire 1082 B = 8656 bits =
// 86,560 ps at 100 Gb/s. ACK: 66 + 20 = 86 B = 688 bits = 6,880 ps.
#define DATA_PS 86560ull
#define ACK_PS 6880ull

typedef struct pair {
  ns_sim_t s;
  uint32_t a, b, ab;
} pair_t;

// Two NICs joined back to back by one 100G link of `prop_ps`.
static void pair_init(pair_t *p, uint64_t prop_ps, uint32_t qps) {
  ck_assert_int_eq(ns_sim_init(&p->s), kNsOk);
  ck_assert_int_eq(ns_add_nic(&p->s, "A", qps, &p->a), kNsOk);
  ck_assert_int_eq(ns_add_nic(&p->s, "B", qps, &p->b), kNsOk);
  ck_assert_int_eq(ns_connect(&p->s, p->a, 0, p->b, 0, RATE_100G, prop_ps, &p->ab), kNsOk);
}

static uint32_t flow(pair_t *p, uint32_t msgs, uint32_t window, uint64_t start_ps) {
  ns_flow_t f = {.src = (uint16_t)p->a,
                 .dst = (uint16_t)p->b,
                 .dscp = 26,
                 .prio = 3,
                 .mtu = 1000,
                 .msg_bytes = 1000,
                 .window_msgs = window,
                 .total_msgs = msgs,
                 .start_ps = start_ps};
  snprintf(f.name, sizeof(f.name), "f");
  snprintf(f.group, sizeof(f.group), "g");
  uint32_t id;
  ck_assert_int_eq(ns_add_flow(&p->s, &f, &id), kNsOk);
  return id;
}

START_TEST(test_ser_and_cycles) {
  ck_assert_uint_eq(ns_ser_ps(1062, RATE_100G), DATA_PS);
  ck_assert_uint_eq(ns_ser_ps(66, RATE_100G), ACK_PS);
  // 4096 + 62 = 4158 B + 20 = 4178 B = 33,424 bits = 334,240 ps
  ck_assert_uint_eq(ns_ser_ps(4158, RATE_100G), 334240u);
  // 25G: 1082 B = 8656 bits / 25e9 = 346,240 ps
  ck_assert_uint_eq(ns_ser_ps(1062, 25000000000ull), 346240u);
  // ceil: 1 byte at 3 b/s: 21 x 8 / 3 s = 56 s
  ck_assert_uint_eq(ns_ser_ps(1, 3), 56000000000000ull);
  ck_assert_uint_eq(ns_cycle_of(0), 0);
  ck_assert_uint_eq(ns_cycle_of(1), 1);
  ck_assert_uint_eq(ns_cycle_of(1000), 1);
  ck_assert_uint_eq(ns_cycle_of(1001), 2);
}
END_TEST

// One packet, one ACK: FCT = data ser + prop + ACK ser + prop, to the picosecond.
START_TEST(test_propagation_exact) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  uint32_t f = flow(&p, 1, 1, 0);
  p.s.stop_when_done = true;
  ns_run(&p.s, 10 * US);
  ck_assert(p.s.flows[f].done);
  // 86,560 + 1,000,000 + 6,880 + 1,000,000
  ck_assert_uint_eq(p.s.flows[f].fct_ps, 2093440u);
  ck_assert_uint_eq(p.s.flows[f].rx_bytes, 1000);
  ck_assert_uint_eq(p.s.pkt_hops, 2);
  ns_sim_free(&p.s);
}
END_TEST

// Two flows starting at the same instant are served in insertion order (round robin), and
// the second frame queues behind the first on the wire.
START_TEST(test_event_ordering) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  uint32_t f0 = flow(&p, 1, 1, 0), f1 = flow(&p, 1, 1, 0);
  p.s.stop_when_done = true;
  ns_run(&p.s, 10 * US);
  // f0: 2,093,440 as above. f1: its frame ends at 2 x 86,560, arrives 1 us later; the ACK of
  // f0 occupies B's link until 1,086,560 + 6,880 = 1,093,440 < 1,173,120, so f1's ACK starts
  // at 1,173,120: 1,173,120 + 6,880 + 1,000,000 = 2,180,000.
  ck_assert_uint_eq(p.s.flows[f0].fct_ps, 2093440u);
  ck_assert_uint_eq(p.s.flows[f1].fct_ps, 2180000u);
  ns_sim_free(&p.s);
}
END_TEST

// The window: with t = 4 one-packet messages outstanding, exactly 4 frames leave before the
// first ACK returns; after it, one more per ACK.
START_TEST(test_window_limit) {
  pair_t p;
  pair_init(&p, 10 * US, 0);
  p.s.ack_every = 1;
  uint32_t f = flow(&p, 100, 4, 0);
  // first ACK back at 86,560 + 10 us + 6,880 + 10 us = 20,093,440 ps
  ns_run(&p.s, 20093439u);
  ck_assert_uint_eq(p.s.flows[f].snd_nxt, 4);
  ck_assert_uint_eq(p.s.flows[f].snd_una, 0);
  ns_run(&p.s, 20093440u);
  ck_assert_uint_eq(p.s.flows[f].snd_una, 1);
  ck_assert_uint_eq(p.s.flows[f].snd_nxt, 5);
  ns_sim_free(&p.s);
}
END_TEST

// Go-back-N: PSN 3 of 10 is lost. The responder discards 4..9 (6 out of order), sends one
// NAK for 3, and the requester resends 3..9: 7 x 1000 retransmitted payload bytes.
START_TEST(test_go_back_n) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  p.s.ack_every = 1;
  uint32_t f = flow(&p, 10, 10, 0);
  ns_inject_loss(&p.s, f, 3);
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  ck_assert_uint_eq(p.s.injected_losses, 1);
  ck_assert(p.s.flows[f].done);
  ck_assert_uint_eq(p.s.ooo_discards, 6);
  ck_assert_uint_eq(p.s.flows[f].naks_rx, 1);
  ck_assert_uint_eq(p.s.flows[f].retx_bytes, 7000);
  ck_assert_uint_eq(p.s.flows[f].timeouts, 0);
  ck_assert_uint_eq(p.s.flows[f].rx_bytes, 10000);
  ns_sim_free(&p.s);
}
END_TEST

// The last packet lost: no later packet makes a NAK, so the retransmission timer recovers.
// Sent at 9 x 86,560 = 779,040 ps; the last progress is the ACK of PSN 8 at
// 9 x 86,560 + 1 us + 6,880 + 1 us = 2,785,920; the timer (100 us) fires at 102,785,920 and
// the resent frame is acknowledged 86,560 + 1 us + 6,880 + 1 us later: FCT 104,879,360.

// A flow of exactly total_bytes: the last message carries the rest. 1,000,000 B in messages
// of 65,536 B: 15 full messages (983,040 B, 66 packets of at most 1000 B each) and a last one
// of 16,960 B (17 packets: 16 x 1000 + 960), 1,007 packets in all; not 16 whole messages.
START_TEST(test_exact_bytes) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  ns_flow_t f = {.src = (uint16_t)p.a,
                 .dst = (uint16_t)p.b,
                 .dscp = 26,
                 .prio = 3,
                 .mtu = 1000,
                 .msg_bytes = 65536,
                 .window_msgs = 64,
                 .total_bytes = 1000000};
  snprintf(f.name, sizeof(f.name), "f");
  snprintf(f.group, sizeof(f.group), "g");
  uint32_t id;
  ck_assert_int_eq(ns_add_flow(&p.s, &f, &id), kNsOk);
  ck_assert_uint_eq(p.s.flows[id].total_msgs, 16);
  ck_assert_uint_eq(p.s.flows[id].total_pkts, 15u * 66u + 17u);
  p.s.stop_when_done = true;
  ns_run(&p.s, 1000 * US);
  ck_assert(p.s.flows[id].done);
  ck_assert_uint_eq(p.s.flows[id].rx_bytes, 1000000);
  ck_assert_uint_eq(p.s.flows[id].tx_bytes, 1000000);
  ck_assert_uint_eq(p.s.flows[id].msgs_done, 16);
  // frame bytes on the wire: 1,007 headers of 62 B plus the payload
  ck_assert_uint_eq(p.s.links[p.ab].tx_data_bytes, 1000000u + 1007u * 62u);
  ns_sim_free(&p.s);
}
END_TEST

// Per-interval KPIs are counted at each frame's first bit: 20 frames of 1062 B back to back at
// 100 Gb/s start every 86,560 ps; the 1 us interval [0, 1 us) holds frames 0..11 (frame 11
// starts at 952,160 ps, frame 12 at 1,038,720 ps), the next one frames 12..19. L1 adds 20 B
// per frame.
START_TEST(test_intervals) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  uint32_t f = flow(&p, 20, 20, 0);
  p.s.ival_ps = 1 * US;
  p.s.ival_link = p.ab;
  ns_run(&p.s, 10 * US);
  ck_assert(p.s.flows[f].done);
  ck_assert_uint_eq(p.s.niv, 10);
  ck_assert_uint_eq(p.s.iv[0].frames, 12);
  ck_assert_uint_eq(p.s.iv[0].l2_bytes, 12u * 1062u);
  ck_assert_uint_eq(p.s.iv[1].frames, 8);
  ck_assert_uint_eq(p.s.iv[1].l2_bytes, 8u * 1062u);
  ck_assert_uint_eq(p.s.iv[2].frames, 0);
  // L1 bits of interval 0 over 1 us: (12 x 1082) x 8 = 103,872 bits = 103.872 Gb/s: above
  // the line rate because frame 11's last bits fall into the next interval
  ck_assert_uint_eq((p.s.iv[0].l2_bytes + p.s.iv[0].frames * NS_ETH_OVH_BYTES) * 8u, 103872u);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < p.s.niv; i++) {
    sum += p.s.iv[i].l2_bytes;
  }
  ck_assert_uint_eq(sum, p.s.links[p.ab].tx_bytes);
  ns_sim_free(&p.s);
}
END_TEST

// UET selective retransmission: the same loss as test_go_back_n (PSN 3 of 10) is repaired
// by resending PSN 3 only (1000 B), detected when PSN 6 is acknowledged (3 later PSNs), with
// no timeout and nothing discarded at the responder (RoCE go-back-N resends 7000 B).
START_TEST(test_uet_selective) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  ns_flow_t fl = {.src = (uint16_t)p.a,
                  .dst = (uint16_t)p.b,
                  .dscp = 26,
                  .prio = 3,
                  .mtu = 1000,
                  .msg_bytes = 10000,
                  .window_msgs = 1,
                  .total_bytes = 10000,
                  .transport = kNsTransportUet,
                  .uet_base_rtt_ps = 2093440,
                  .uet_bdp_bytes = 26168,
                  .uet_line_bps = RATE_100G};
  snprintf(fl.name, sizeof(fl.name), "u");
  snprintf(fl.group, sizeof(fl.group), "g");
  uint32_t f;
  ck_assert_int_eq(ns_add_flow(&p.s, &fl, &f), kNsOk);
  ns_inject_loss(&p.s, f, 3);
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  ck_assert_uint_eq(p.s.injected_losses, 1);
  ck_assert(p.s.flows[f].done);
  ck_assert_uint_eq(p.s.flows[f].rx_bytes, 10000);
  ck_assert_uint_eq(p.s.flows[f].retx_bytes, 1000);
  ck_assert_uint_eq(p.s.flows[f].timeouts, 0);
  ck_assert_uint_eq(p.s.flows[f].uet->fast_losses, 1);
  ck_assert_uint_eq(p.s.ooo_discards, 0);
  // a UET flow needs its path (base RTT, BDP) and a finite size
  fl.total_bytes = 0;
  fl.total_msgs = 0;
  ck_assert_int_eq(ns_add_flow(&p.s, &fl, NULL), kNsBadArg);
  ns_sim_free(&p.s);
}
END_TEST

// TCP on the engine (docs/netsim.md 2.2): ten 1000-byte segments leave in the initial window;
// segment 3 is lost. Segments 4, 5, 6 arrive out of order, each ACKed at once with a SACK
// block: the third duplicate ACK starts fast recovery and only segment 3 is sent again
// (1000 B), no timeout. BBR on a lossless transfer resends nothing. Refused: no size, a bad
// congestion control.
START_TEST(test_tcp_flow) {
  for (int k = 0; k < 2; k++) {
    pair_t p;
    pair_init(&p, 1 * US, 0);
    ns_flow_t fl = {.src = (uint16_t)p.a,
                    .dst = (uint16_t)p.b,
                    .dscp = 26,
                    .prio = 3,
                    .mtu = 1000,
                    .msg_bytes = k == 0 ? 10000 : 1000000,
                    .window_msgs = 1,
                    .total_bytes = k == 0 ? 10000 : 1000000,
                    .transport = kNsTransportTcp};
    tcp_params_default(&fl.tcp_params);
    fl.tcp_params.cc = k == 0 ? kTcpCcCubic : kTcpCcBbr;
    snprintf(fl.name, sizeof(fl.name), "t");
    snprintf(fl.group, sizeof(fl.group), "g");
    uint32_t f;
    ck_assert_int_eq(ns_add_flow(&p.s, &fl, &f), kNsOk);
    if (k == 0) {
      ns_inject_loss(&p.s, f, 3);
    }
    p.s.stop_when_done = true;
    ns_run(&p.s, 10000 * US);
    const ns_flow_t *g = &p.s.flows[f];
    ck_assert(g->done);
    ck_assert_uint_eq(g->rx_bytes, fl.total_bytes);
    ck_assert_uint_eq(g->retx_bytes, k == 0 ? 1000 : 0);
    ck_assert_uint_eq(g->timeouts, 0);
    ck_assert_uint_eq(g->tcp->snd.fast_retransmits, k == 0 ? 1 : 0);
    ck_assert_uint_eq(g->tcp->stale_acks, 0);
    ck_assert_uint_eq(p.s.injected_losses, k == 0 ? 1 : 0);
    fl.total_bytes = 0;
    fl.total_msgs = 1;
    ck_assert_int_eq(ns_add_flow(&p.s, &fl, NULL), kNsBadArg);
    fl.total_bytes = 1000;
    fl.tcp_params.cc = (tcp_cc_kind_t)7;
    ck_assert_int_eq(ns_add_flow(&p.s, &fl, NULL), kNsBadArg);
    ns_sim_free(&p.s);
  }
}
END_TEST

// The TCP flow's one timer event on the engine: (a) delayed ACK on, one segment: its ACK
// waits for the 40 ms delayed-ACK timer (only the receiver arms it: the sender's RTO is 1 s),
// so the transfer ends 40 ms (plus a few us of wire) after it started; (b) the last of ten segments
// lost: no duplicate ACK follows, the RTO (the 200 ms minimum; SRTT is a few us) resends it: one
// timeout, 1000 B resent, FCT just above 200 ms.
START_TEST(test_tcp_timers) {
  for (int k = 0; k < 2; k++) {
    pair_t p;
    pair_init(&p, 1 * US, 0);
    uint64_t bytes = k == 0 ? 1000 : 10000;
    ns_flow_t fl = {.src = (uint16_t)p.a,
                    .dst = (uint16_t)p.b,
                    .dscp = 26,
                    .prio = 3,
                    .mtu = 1000,
                    .msg_bytes = bytes,
                    .window_msgs = 1,
                    .total_bytes = bytes,
                    .transport = kNsTransportTcp};
    tcp_params_default(&fl.tcp_params);
    fl.tcp_params.delayed_ack = k == 0;
    snprintf(fl.name, sizeof(fl.name), "t");
    snprintf(fl.group, sizeof(fl.group), "g");
    uint32_t f;
    ck_assert_int_eq(ns_add_flow(&p.s, &fl, &f), kNsOk);
    if (k == 1) {
      ns_inject_loss(&p.s, f, 9);
    }
    p.s.stop_when_done = true;
    ns_run(&p.s, 1000000 * US);
    const ns_flow_t *g = &p.s.flows[f];
    ck_assert(g->done);
    ck_assert_uint_eq(g->rx_bytes, bytes);
    uint64_t base = k == 0 ? 40000 * US : 200000 * US;
    ck_assert_uint_gt(g->fct_ps, base);
    ck_assert_uint_lt(g->fct_ps, base + 100 * US);
    ck_assert_uint_eq(g->timeouts, k == 0 ? 0 : 1);
    ck_assert_uint_eq(g->retx_bytes, k == 0 ? 0 : 1000);
    ns_sim_free(&p.s);
  }
}
END_TEST

START_TEST(test_rto) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  p.s.ack_every = 1;
  p.s.rto_ps = 100 * US;
  uint32_t f = flow(&p, 10, 10, 0);
  ns_inject_loss(&p.s, f, 9);
  p.s.stop_when_done = true;
  ns_run(&p.s, 1000 * US);
  ck_assert(p.s.flows[f].done);
  ck_assert_uint_eq(p.s.flows[f].timeouts, 1);
  ck_assert_uint_eq(p.s.flows[f].retx_bytes, 1000);
  ck_assert_uint_eq(p.s.flows[f].naks_rx, 0);
  ck_assert_uint_eq(p.s.flows[f].fct_ps, 104879360u);
  ns_sim_free(&p.s);
}
END_TEST

// PFC on a NIC port: B pauses priority 3 for 1000 quanta at t = 0. The frame (64 B + 20)
// takes 6,720 ps and 1 us: it arrives at 1,006,720; 1000 x 512 bits at 100G = 5,120,000 ps,
// so A may not send priority 3 before 6,126,720. The flow (start 2 us) sends exactly then.
START_TEST(test_pfc_nic) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  uint32_t f = flow(&p, 1, 1, 2 * US);
  xtm_pfc_frame_t fr = {.vec = 1u << 3};
  fr.quanta[3] = 1000;
  uint32_t ba = p.s.links[p.ab].rev;
  ns_send_pfc(&p.s, ba, &fr);
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  ns_finish(&p.s, p.s.now_ps);
  ck_assert(p.s.flows[f].done);
  // sent at 6,126,720; + 86,560 + 1 us + 6,880 + 1 us = 8,220,160; minus start 2,000,000
  ck_assert_uint_eq(p.s.flows[f].fct_ps, 6220160u);
  ck_assert_uint_eq(p.s.links[p.ab].pfc_rx_frames, 1);
  ck_assert_uint_eq(p.s.links[p.ab].paused_ps, 5120000u);
  ns_sim_free(&p.s);
}
END_TEST

// A pause for priority 3 does not hold priority 1 (per-priority PFC), and XON (quanta 0)
// ends a pause at once.
START_TEST(test_pfc_per_priority_and_xon) {
  pair_t p;
  pair_init(&p, 1 * US, 0);
  ns_flow_t g = {.src = (uint16_t)p.a,
                 .dst = (uint16_t)p.b,
                 .dscp = 10,
                 .prio = 1,
                 .mtu = 1000,
                 .msg_bytes = 1000,
                 .window_msgs = 1,
                 .total_msgs = 1,
                 .start_ps = 2 * US};
  uint32_t f1;
  ck_assert_int_eq(ns_add_flow(&p.s, &g, &f1), kNsOk);
  xtm_pfc_frame_t fr = {.vec = 1u << 3};
  fr.quanta[3] = 65535;
  ns_send_pfc(&p.s, p.s.links[p.ab].rev, &fr);
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  // priority 1 unaffected: 86,560 + 1 us + 6,880 + 1 us
  ck_assert_uint_eq(p.s.flows[f1].fct_ps, 2093440u);
  ns_sim_free(&p.s);

  pair_init(&p, 1 * US, 0);
  uint32_t f = flow(&p, 1, 1, 2 * US);
  ns_send_pfc(&p.s, p.s.links[p.ab].rev, &fr);  // pause 65535 quanta (335.5 us)
  ns_run(&p.s, 3 * US);
  p.s.now_ps = 3 * US;  // ns_run stops at the last event before 3 us; the XON leaves at 3 us
  xtm_pfc_frame_t xon = {.vec = 1u << 3};
  ns_send_pfc(&p.s, p.s.links[p.ab].rev, &xon);  // at 3 us, arrives 4,006,720
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  ck_assert(p.s.flows[f].done);
  // sent at 4,006,720; + 2,093,440 - start 2,000,000
  ck_assert_uint_eq(p.s.flows[f].fct_ps, 4100160u);
  ns_sim_free(&p.s);
}
END_TEST

// CNP round trip: a CE mark on PSN 0 makes B's notification point send one CNP at once
// (first CE of the QP); A's reaction point handles it (first CNP: alpha := 1023, active).
START_TEST(test_cnp_round_trip) {
  pair_t p;
  pair_init(&p, 1 * US, 4);
  uint32_t f = flow(&p, 4, 4, 0);
  ns_inject_ce(&p.s, f, 0);
  p.s.stop_when_done = true;
  ns_run(&p.s, 100 * US);
  ck_assert(p.s.flows[f].done);
  ck_assert_uint_eq(p.s.cnps_sent, 1);
  ck_assert_uint_eq(p.s.flows[f].cnps_rx, 1);
  ck_assert_uint_eq(dcqcn_counter(p.s.nodes[p.b].nic.dc, kDcqcnGcntCeRx), 1);
  ck_assert_uint_eq(dcqcn_counter(p.s.nodes[p.b].nic.dc, kDcqcnGcntCnpTx), 1);
  ck_assert_uint_eq(dcqcn_counter(p.s.nodes[p.a].nic.dc, kDcqcnGcntCnpRx), 1);
  dcqcn_qp_state_t q;
  dcqcn_qp_state(p.s.nodes[p.a].nic.dc, p.s.flows[f].qp_src, &q);
  ck_assert(q.active);
  ns_sim_free(&p.s);
}
END_TEST

// Through a router programmed from a Junos-style configuration: a 2:1 incast into a
// lossless class with small XOFF: PFC frames reach both senders, nothing is dropped, both
// flows complete, the model's own counters agree with the simulator's.
static const char *kConf =
    "class-of-service {\n"
    " forwarding-classes { class be queue-num 0; class rdma queue-num 3 no-loss pfc-priority 3; }\n"
    " classifiers { dscp d { forwarding-class rdma { loss-priority low code-points 011010; } } }\n"
    " schedulers { rs { buffer-size temporal 1000; } bs { transmit-rate percent 10; } }\n"
    " scheduler-maps { m { forwarding-class be scheduler bs; forwarding-class rdma scheduler rs; } "
    "}\n"
    " congestion-notification-profile { c { input { pfc-account a { pfc-priority 3; xoff 2; xon "
    "1.5; }"
    " cable-length 10; mtu 1100; } } }\n"
    " interfaces {\n"
    "  et-0/0/0 { speed 100g; congestion-notification-profile c; classifiers { dscp d; } }\n"
    "  et-0/0/1 { speed 100g; congestion-notification-profile c; classifiers { dscp d; } }\n"
    "  et-0/0/2 { speed 100g; scheduler-map m; }\n"
    " }\n"
    "}\n";

// Router r (3 ports, kConf) with NICs a and b sending to c: a on port pa, b on port pb, c on
// port 2, 100G links of 50 ns; a flow a -> c and a flow b -> c (flows 0 and 1) of `msgs`
// messages of msg_bytes in 1000-byte packets, window `msgs`. Runs until both are done.
typedef struct star {
  ns_sim_t s;
  uint32_t r, a, b, c, la, lb;
} star_t;

static void star_run(star_t *t, uint32_t pa, uint32_t pb, uint32_t msgs, uint32_t msg_bytes) {
  ns_sim_t *s = &t->s;
  ck_assert_int_eq(ns_sim_init(s), kNsOk);
  xtm_params_t xp;
  xtm_params_default(&xp);
  xp.num_ports = 3;
  uint32_t lc;
  ck_assert_int_eq(ns_add_router(s, "r", &xp, &t->r), kNsOk);
  ck_assert_int_eq(ns_add_nic(s, "a", 0, &t->a), kNsOk);
  ck_assert_int_eq(ns_add_nic(s, "b", 0, &t->b), kNsOk);
  ck_assert_int_eq(ns_add_nic(s, "c", 0, &t->c), kNsOk);
  ck_assert_int_eq(ns_connect(s, t->a, 0, t->r, pa, RATE_100G, 50000, &t->la), kNsOk);
  ck_assert_int_eq(ns_connect(s, t->b, 0, t->r, pb, RATE_100G, 50000, &t->lb), kNsOk);
  ck_assert_int_eq(ns_connect(s, t->r, 2, t->c, 0, RATE_100G, 50000, &lc), kNsOk);
  ck_assert_int_eq(ns_compute_routes(s), kNsOk);
  char err[256];
  ck_assert_int_eq(ns_router_program(s, t->r, "t.conf", kConf, NULL, err, sizeof(err)), kNsOk);
  for (uint32_t i = 0; i < 2; i++) {
    ns_flow_t f = {.src = (uint16_t)(i == 0 ? t->a : t->b),
                   .dst = (uint16_t)t->c,
                   .dscp = 26,
                   .prio = 3,
                   .mtu = 1000,
                   .msg_bytes = msg_bytes,
                   .window_msgs = msgs,
                   .total_msgs = msgs};
    ck_assert_int_eq(ns_add_flow(s, &f, NULL), kNsOk);
  }
  s->stop_when_done = true;
  ns_run(s, 10000 * US);
}

START_TEST(test_router_pfc_incast) {
  star_t t;
  star_run(&t, 0, 1, 16, 64000);
  ns_sim_t *s = &t.s;
  uint32_t r = t.r, la = t.la, lb = t.lb;
  ck_assert(s->flows[0].done && s->flows[1].done);
  ck_assert_uint_eq(s->flows[0].rx_bytes, 1024000);
  ck_assert_uint_eq(s->flows[0].retx_bytes + s->flows[1].retx_bytes, 0);
  ck_assert_uint_gt(s->links[la].pfc_rx_frames, 0);
  ck_assert_uint_gt(s->links[lb].pfc_rx_frames, 0);
  ns_router_t *rt = &s->nodes[r].rt;
  for (uint32_t k = 1; k < kXtmReasonCount; k++) {
    ck_assert_uint_eq(rt->drops_by_reason[k], 0);
  }
  // the frames the simulator delivered are the frames the model sent
  ck_assert_uint_eq(s->links[la].pfc_rx_frames + s->links[lb].pfc_rx_frames, rt->pfc_tx_frames);
  ck_assert_uint_eq(xtm_port_counter(rt->m, 0, kXtmPcntPfcTxFrames) +
                        xtm_port_counter(rt->m, 1, kXtmPcntPfcTxFrames),
                    rt->pfc_tx_frames);
  // 2 x 16 x 64 one-kilobyte frames left on port 2
  ck_assert_uint_eq(xtm_port_counter(rt->m, 2, kXtmPcntTxPkts), 2048);
  ns_sim_free(s);
}
END_TEST

// Frames reaching a router at the same time enter its traffic manager in port order, not in
// the order the engine happens to handle their arrivals (docs/netsim.md 1): NIC a (added
// first, so it sends first at t = 0) is on port 1, NIC b on port 0; both frames arrive at
// 86,560 + 50,000 = 136,560 ps, b's enters in cycle 137 and a's in 138, so b's leaves first
// and its message completes first.
START_TEST(test_router_simultaneous_arrivals) {
  star_t t;
  star_run(&t, 1, 0, 1, 1000);
  ck_assert(t.s.flows[0].done && t.s.flows[1].done);
  ck_assert_uint_lt(t.s.flows[1].fct_ps, t.s.flows[0].fct_ps);
  ns_sim_free(&t.s);
}
END_TEST

// Compiler warnings of a router's configuration are printed and counted (they used to be
// dropped): one unused drop profile gives one warning line naming the router; a
// configuration without warnings prints nothing.
static void replace(char *out, size_t n, const char *in, const char *from, const char *to) {
  const char *p = strstr(in, from);
  ck_assert_ptr_nonnull(p);
  snprintf(out, n, "%.*s%s%s", (int)(p - in), in, to, p + strlen(from));
}

static int count_lines(FILE *f, const char *want, int *lines) {
  char line[512];
  int found = 0;
  *lines = 0;
  rewind(f);
  while (fgets(line, sizeof(line), f) != NULL) {
    (*lines)++;
    found += strstr(line, want) != NULL;
  }
  return found;
}

START_TEST(test_router_warnings_surface) {
  ns_sim_t s;
  ck_assert_int_eq(ns_sim_init(&s), kNsOk);
  xtm_params_t xp;
  xtm_params_default(&xp);
  xp.num_ports = 3;
  uint32_t r;
  ck_assert_int_eq(ns_add_router(&s, "r1", &xp, &r), kNsOk);
  static char conf0[4096], conf1[4096];
  replace(conf0, sizeof(conf0), kConf, "et-0/0/2 { speed 100g; scheduler-map m; }",
          "et-0/0/2 { speed 100g; scheduler-map m; classifiers { dscp d; } }");
  replace(conf1, sizeof(conf1), conf0, " interfaces {",
          " drop-profiles { spare { fill-level 50 drop-probability 10; } }\n interfaces {");
  char err[256];
  int lines;
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  s.warn_out = f;
  ck_assert_int_eq(ns_router_program(&s, r, "t.conf", conf0, NULL, err, sizeof(err)), kNsOk);
  ck_assert_uint_eq(s.nodes[r].rt.cfg_warnings, 0);
  ck_assert_int_eq(count_lines(f, "", &lines), 0);
  fclose(f);
  f = tmpfile();
  ck_assert_ptr_nonnull(f);
  s.warn_out = f;
  ck_assert_int_eq(ns_router_program(&s, r, "w.conf", conf1, NULL, err, sizeof(err)), kNsOk);
  ck_assert_uint_eq(s.nodes[r].rt.cfg_warnings, 1);
  ck_assert_int_eq(count_lines(f, "xtm-netsim: router r1: w.conf:", &lines), 1);
  ck_assert_int_eq(lines, 1);
  ck_assert_int_eq(
      count_lines(f, "warning: drop-profile 'spare' is not used by any scheduler", &lines), 1);
  fclose(f);
  ns_sim_free(&s);
}
END_TEST

START_TEST(test_bad_setups) {
  ns_sim_t s;
  ck_assert_int_eq(ns_sim_init(&s), kNsOk);
  uint32_t a, b;
  ck_assert_int_eq(ns_add_nic(&s, "a", 0, &a), kNsOk);
  ck_assert_int_eq(ns_add_nic(&s, "b", 0, &b), kNsOk);
  ck_assert_int_eq(ns_connect(&s, a, 0, b, 0, 0, 1000, NULL), kNsBadArg);  // zero rate
  ck_assert_int_eq(ns_connect(&s, a, 0, a, 0, RATE_100G, 1000, NULL), kNsBadArg);
  ck_assert_int_eq(ns_connect(&s, a, 0, b, 0, RATE_100G, 1000, NULL), kNsOk);
  ns_flow_t f = {
      .src = (uint16_t)a, .dst = (uint16_t)b, .mtu = 1000, .msg_bytes = 1000, .window_msgs = 0};
  ck_assert_int_eq(ns_add_flow(&s, &f, NULL), kNsBadArg);  // empty window
  f.window_msgs = 1;
  f.mtu = 0;
  ck_assert_int_eq(ns_add_flow(&s, &f, NULL), kNsBadArg);
  char err[256];
  ck_assert_int_eq(ns_router_program(&s, a, "x", "", NULL, err, sizeof(err)), kNsBadArg);
  ns_sim_free(&s);
}
END_TEST

// The same scenario twice gives identical results (determinism).
START_TEST(test_deterministic) {
  uint64_t fct[2];
  for (int k = 0; k < 2; k++) {
    pair_t p;
    pair_init(&p, 3 * US, 8);
    p.s.ack_every = 4;
    uint32_t f = flow(&p, 200, 8, 0);
    ns_inject_loss(&p.s, f, 17);
    ns_inject_ce(&p.s, f, 5);
    p.s.stop_when_done = true;
    ns_run(&p.s, 10000 * US);
    ck_assert(p.s.flows[f].done);
    fct[k] = p.s.flows[f].fct_ps;
    ns_sim_free(&p.s);
  }
  ck_assert_uint_eq(fct[0], fct[1]);
}
END_TEST

int main(void) {
  Suite *su = suite_create("netsim");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_ser_and_cycles);
  tcase_add_test(tc, test_propagation_exact);
  tcase_add_test(tc, test_event_ordering);
  tcase_add_test(tc, test_window_limit);
  tcase_add_test(tc, test_go_back_n);
  tcase_add_test(tc, test_rto);
  tcase_add_test(tc, test_pfc_nic);
  tcase_add_test(tc, test_pfc_per_priority_and_xon);
  tcase_add_test(tc, test_cnp_round_trip);
  tcase_add_test(tc, test_router_pfc_incast);
  tcase_add_test(tc, test_router_simultaneous_arrivals);
  tcase_add_test(tc, test_bad_setups);
  tcase_add_test(tc, test_router_warnings_surface);
  tcase_add_test(tc, test_deterministic);
  tcase_add_test(tc, test_exact_bytes);
  tcase_add_test(tc, test_intervals);
  tcase_add_test(tc, test_uet_selective);
  tcase_add_test(tc, test_tcp_flow);
  tcase_add_test(tc, test_tcp_timers);
  suite_add_tcase(su, tc);
  SRunner *sr = srunner_create(su);
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
