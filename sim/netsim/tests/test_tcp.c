// SPDX-License-Identifier: Apache-2.0
//
// Check suite of the netsim TCP (sim/netsim/tcp.c, tcp_cc.c; docs/netsim.md "TCP
// transport"). Every expected value is derived by hand in the comment next to it from
// RFC 9438 (CUBIC), RFC 9406 (HyStart++), RFC 6675 (SACK loss recovery), RFC 6298 (RTO) and
// Linux tcp_bbr.c v1 (BBR). Senders here use mss 1000 and no header bytes so that sequence
// numbers read as segment numbers x 1000.

#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/netsim/tcp.h"

#define MS TCP_PS_PER_MS
#define S TCP_PS_PER_S

static tcp_params_t base_params(void) {
  tcp_params_t p;
  tcp_params_default(&p);
  p.mss = 1000;
  p.hdr_bytes = 0;
  p.pacing = false;
  p.hystart = false;
  return p;
}

// ---------------------------------------------------------------- CUBIC
// K = cbrt((W_max - cwnd_epoch) / C) = cbrt(30 / 0.4) = cbrt(75) = 4.2171633 s; W(0) is
// cwnd_epoch, W(K) is W_max, W(2K) = W_max + (W_max - cwnd_epoch) = 130.
START_TEST(test_cubic_k_and_w) {
  double k = tcp_cubic_k(100.0, 70.0);
  ck_assert_double_eq_tol(k, 4.2171633265, 1e-9);
  ck_assert_double_eq_tol(tcp_cubic_w(0.0, k, 100.0), 70.0, 1e-9);
  ck_assert_double_eq_tol(tcp_cubic_w(k, k, 100.0), 100.0, 1e-12);
  ck_assert_double_eq_tol(tcp_cubic_w(2 * k, k, 100.0), 130.0, 1e-9);
  // C (t - K)^3 at t = 1: 0.4 x (-3.2171633)^3 = -13.3192362, W = 86.6807638
  ck_assert_double_eq_tol(tcp_cubic_w(1.0, k, 100.0), 86.6807638351, 1e-9);
  ck_assert_double_eq_tol(tcp_cubic_k(50.0, 60.0), 0.0, 1e-12);  // no reduction: K = 0
}
END_TEST

// RFC 9438 4.6 and 4.7: a loss at 100 (W_max 0 before) gives W_max 100, ssthresh 70; a second
// loss at 80 < W_max uses fast convergence: W_max = 80 x (1 + 0.7) / 2 = 68, ssthresh 56.
// A loss at cwnd 2 keeps ssthresh at its floor of 2 (2 x 0.7 = 1.4).
START_TEST(test_cubic_loss_fast_convergence) {
  tcp_cubic_t c;
  tcp_cubic_init(&c);
  ck_assert_double_eq_tol(tcp_cubic_on_loss(&c, 100.0), 70.0, 1e-12);
  ck_assert_double_eq_tol(c.w_max, 100.0, 1e-12);
  ck_assert_double_eq_tol(tcp_cubic_on_loss(&c, 80.0), 56.0, 1e-12);
  ck_assert_double_eq_tol(c.w_max, 68.0, 1e-12);
  ck_assert_double_eq_tol(tcp_cubic_on_loss(&c, 2.0), 2.0, 1e-12);
}
END_TEST

// A congestion-avoidance trace after a loss at 100 (cwnd 70, SRTT 100 ms):
// ACK 1 at t = 0: W_est = 70 + alpha/70 with alpha = 3(1 - 0.7)/(1 + 0.7) = 0.5294118, i.e.
//   70.0075630; W_cubic(0) = 70 < W_est: Reno-friendly region, cwnd = W_est = 70.0075630.
// ACK 2 at t = 1 s: W_est = 70.0151252 < W_cubic(1) = 86.6807638: concave region; target =
//   W_cubic(1.1) = 87.8845747 (inside [cwnd, 1.5 cwnd]); cwnd += (87.8845747 - 70.0075630) /
//   70.0075630 = 70.2629213.
// ACK 3 at t = 10 s: W_cubic(10.1) = 181.44 > 1.5 cwnd: target clamped to 1.5 cwnd, so cwnd
//   grows by 0.5 per segment acked: 70.2629213 x 1.5 ... += 0.5 -> 70.7629213.
START_TEST(test_cubic_trace_concave_convex) {
  tcp_cubic_t c;
  tcp_cubic_init(&c);
  double cwnd = tcp_cubic_on_loss(&c, 100.0);
  uint64_t t0 = 5 * S;
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, t0, 100 * MS);
  ck_assert_double_eq_tol(c.k_s, 4.2171633265, 1e-9);
  ck_assert_double_eq_tol(cwnd, 70.0075630252, 1e-9);
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, t0 + S, 100 * MS);
  ck_assert_double_eq_tol(cwnd, 70.2629213160, 1e-9);
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, t0 + 10 * S, 100 * MS);
  ck_assert_double_eq_tol(cwnd, 70.7629213160, 1e-9);
}
END_TEST

// The Reno-friendly region with a small W_max (10 after a loss at 10, K = cbrt(3/0.4) =
// 1.9574338 s, W_cubic(1) = 9.6489360): with W_est forced to 9.9 and cwnd 9, an ACK at t = 1 s
// sets cwnd = W_est + alpha/9 = 9.9588235 (alpha 0.5294118 while W_est < W_max); with W_est
// 12 >= W_max alpha is 1: cwnd = 12 + 1/9 = 12.1111111.
START_TEST(test_cubic_reno_friendly) {
  tcp_cubic_t c;
  tcp_cubic_init(&c);
  double cwnd = tcp_cubic_on_loss(&c, 10.0);
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, 0, 10 * MS);  // epoch starts at t = 0
  ck_assert_double_eq_tol(c.k_s, 1.9574338206, 1e-9);
  c.w_est = 9.9;
  cwnd = 9.0;
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, S, 10 * MS);
  ck_assert_double_eq_tol(cwnd, 9.9588235294, 1e-9);
  c.w_est = 12.0;
  cwnd = 9.0;
  tcp_cubic_cong_avoid(&c, &cwnd, 1.0, S, 10 * MS);
  ck_assert_double_eq_tol(cwnd, 12.1111111111, 1e-9);
}
END_TEST

// HyStart++ (RFC 9406), one call per segment acked, 8 RTT samples per round:
// round 1 at 100 ms; round 2 at 112 ms: RttThresh = clamp(100/8, 4, 16) = 12.5 ms and
// 112 < 100 + 12.5, so slow start goes on (+1 per segment: 10 -> 18 -> 26). Round 3 at
// 126 ms: RttThresh = 112/8 = 14 ms, 126 >= 112 + 14 but only on the 8th sample (N_RTT_SAMPLE)
// does CSS begin (cwnd 34 then). In CSS cwnd grows by 1/4 per segment: rounds 4..7 add
// 4 x 8 / 4 = 8 (42). The round that entered CSS counts as its first, so the first ACK of
// round 8 completes CSS_ROUNDS = 5 and sets ssthresh = cwnd = 42.
static void hs_round(tcp_cubic_t *c, double *cwnd, double *ss, uint64_t rtt, int n) {
  for (int i = 0; i < n; i++) {
    tcp_hystart_on_ack(c, cwnd, ss, 1.0, rtt, i == 0, 0.0);
  }
}

START_TEST(test_hystart_css_and_exit) {
  tcp_cubic_t c;
  tcp_cubic_init(&c);
  double cwnd = 10.0, ss = TCP_SSTHRESH_INIT;
  hs_round(&c, &cwnd, &ss, 100 * MS, 8);
  ck_assert_double_eq_tol(cwnd, 18.0, 1e-12);
  hs_round(&c, &cwnd, &ss, 112 * MS, 8);
  ck_assert(!c.css);  // negative: an increase below RttThresh
  ck_assert_double_eq_tol(cwnd, 26.0, 1e-12);
  hs_round(&c, &cwnd, &ss, 126 * MS, 7);
  ck_assert(!c.css);  // 7 samples are not enough
  tcp_hystart_on_ack(&c, &cwnd, &ss, 1.0, 126 * MS, false, 0.0);
  ck_assert(c.css);
  ck_assert_double_eq_tol(cwnd, 34.0, 1e-12);
  for (int r = 0; r < 4; r++) {
    hs_round(&c, &cwnd, &ss, 126 * MS, 8);
  }
  ck_assert(c.css);
  ck_assert_double_eq_tol(cwnd, 42.0, 1e-12);
  ck_assert(ss >= TCP_SSTHRESH_INIT);
  tcp_hystart_on_ack(&c, &cwnd, &ss, 1.0, 126 * MS, true, 0.0);
  ck_assert(!c.css);
  ck_assert_double_eq_tol(ss, 42.0, 1e-12);
  ck_assert_uint_eq(c.hystart_exits, 1);
  ck_assert_uint_eq(c.hystart_css, 1);
}
END_TEST

// CSS is left for slow start when a round's minimum RTT falls below the CSS baseline (126 ms
// here): a round at 110 ms. The limit L caps the increase per ACK (8 when unpaced).
START_TEST(test_hystart_css_back_and_limit) {
  tcp_cubic_t c;
  tcp_cubic_init(&c);
  double cwnd = 10.0, ss = TCP_SSTHRESH_INIT;
  hs_round(&c, &cwnd, &ss, 100 * MS, 8);
  hs_round(&c, &cwnd, &ss, 112 * MS, 8);
  hs_round(&c, &cwnd, &ss, 126 * MS, 8);
  ck_assert(c.css);
  hs_round(&c, &cwnd, &ss, 110 * MS, 8);
  ck_assert(!c.css);
  double w = cwnd;
  tcp_hystart_on_ack(&c, &cwnd, &ss, 20.0, 0, false, 8.0);
  ck_assert_double_eq_tol(cwnd, w + 8.0, 1e-12);
}
END_TEST

// ---------------------------------------------------------------- loss recovery
static int send_all(tcp_sender_t *s, uint64_t now, tcp_tx_t *tx, int max) {
  int n = 0;
  while (n < max && tcp_sender_poll(s, now, &tx[n]) == kTcpTxSend) {
    n++;
  }
  return n;
}

static void deliver(tcp_receiver_t *r, tcp_sender_t *s, const tcp_tx_t *t, uint64_t now) {
  tcp_ack_t a;
  if (tcp_receiver_on_data(r, now, t->seq, t->len, &a)) {
    tcp_sender_on_ack(s, now, &a);
  }
}

// Ten segments leave (initial window 10); segment 0 is lost. Each of segments 1, 2, 3 makes
// the receiver send ACK 0 with a SACK block, a duplicate ACK with new SACK information
// (RFC 6675 section 2). After two, no retransmission (pipe 8 < cwnd 10 lets new segment 10
// go, as RFC 6675 allows); the third enters fast recovery. Slow start grew cwnd by the two
// segments SACKed before (Linux raises cwnd on SACKed delivery outside recovery): 12, so
// ssthresh = cwnd = 12 x 0.7 = 8.4; the next segment sent is the retransmission of byte 0.
START_TEST(test_three_dupacks_fast_retransmit) {
  tcp_params_t p = base_params();
  tcp_sender_t s;
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  tcp_tx_t tx[16], t;
  ck_assert_int_eq(send_all(&s, 0, tx, 16), 10);
  ck_assert_uint_eq(tx[9].seq, 9000);
  deliver(&r, &s, &tx[1], 10 * MS);
  deliver(&r, &s, &tx[2], 10 * MS);
  ck_assert_uint_eq(s.dupacks, 2);
  ck_assert_int_eq(s.ca_state, kTcpOpen);
  ck_assert_int_eq(tcp_sender_poll(&s, 10 * MS, &t), kTcpTxSend);
  ck_assert(!t.retrans);
  ck_assert_uint_eq(t.seq, 10000);
  deliver(&r, &s, &tx[3], 10 * MS);
  ck_assert_int_eq(s.ca_state, kTcpRecovery);
  ck_assert_uint_eq(s.fast_retransmits, 1);
  ck_assert_double_eq_tol(s.ssthresh, 8.4, 1e-12);
  ck_assert_double_eq_tol(s.cwnd, 8.4, 1e-12);
  ck_assert_int_eq(tcp_sender_poll(&s, 10 * MS, &t), kTcpTxSend);
  ck_assert(t.retrans);
  ck_assert_uint_eq(t.seq, 0);
  ck_assert_uint_eq(t.len, 1000);
  tcp_sender_free(&s);
  tcp_receiver_free(&r);
}
END_TEST

// Without SACK (nsack 0) three duplicate ACKs trigger fast retransmit too; two do not.
START_TEST(test_dupacks_without_sack) {
  tcp_params_t p = base_params();
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  tcp_tx_t tx[16], t;
  ck_assert_int_eq(send_all(&s, 0, tx, 16), 10);
  tcp_ack_t a = {.ack = 0, .wnd = p.rcv_buf_bytes, .nsack = 0};
  tcp_sender_on_ack(&s, MS, &a);
  tcp_sender_on_ack(&s, MS, &a);
  ck_assert_int_eq(s.ca_state, kTcpOpen);
  ck_assert_int_eq(tcp_sender_poll(&s, MS, &t), kTcpTxIdle);  // pipe 10 = cwnd: nothing
  tcp_sender_on_ack(&s, MS, &a);
  ck_assert_int_eq(s.ca_state, kTcpRecovery);
  // PRR (RFC 6937): pipe 10 - 1 lost = 9 > ssthresh 7, sndcnt = ceil(0 x 7 / 10) - 0 = 0,
  // raised to 1 for the fast retransmission: cwnd = 10, byte 0 leaves, then nothing
  ck_assert_double_eq_tol(s.cwnd, 10.0, 1e-12);
  ck_assert_int_eq(tcp_sender_poll(&s, MS, &t), kTcpTxSend);
  ck_assert(t.retrans && t.seq == 0);
  ck_assert_int_eq(tcp_sender_poll(&s, MS, &t), kTcpTxIdle);
  tcp_sender_free(&s);
}
END_TEST

// Segments 2 and 5 of 0..9 are lost; the receiver gets 0, 1, 3, 4, 6, 7, 8, 9.
// Slow start: 0, 1, 3, 4 raise cwnd to 14. The SACK of 6 makes three SACKed segments above
// segment 2 (IsLost): fast recovery, RecoverFS 14, ssthresh = 14 x 0.7 = 9.8. PRR-SSRB per
// ACK (pipe <= ssthresh, so sndcnt = min(ssthresh - pipe, max(prr_delivered - prr_out,
// delivered) + 1), cwnd = pipe + sndcnt):
//   SACK 6: pipe = 8 out - 3 SACKed - 1 lost = 4, sndcnt = min(5.8, 2) = 2, cwnd 6
//   SACK 7: pipe 3, sndcnt min(6.8, 3) = 3, cwnd 6
//   SACK 8: segment 5 now has three SACKed above: lost; pipe = 8 - 5 - 2 = 1, sndcnt 4, cwnd 5
//   SACK 9: pipe 0, sndcnt min(9.8, 5) = 5, cwnd 5
// So five segments leave: the two holes first (NextSeg rule 1), then new data 10, 11, 12
// (rule 2), never a SACKed segment. The two retransmissions repair everything: ACK 10000
// passes the recovery point, cwnd = ssthresh 9.8, and that ACK's segment starts the CUBIC
// epoch in the Reno-friendly region (W_cubic(0) = 9.8 < W_est): cwnd = 9.8 + 0.5294118 / 9.8
// = 9.8540216.
START_TEST(test_sack_retransmits_only_holes) {
  tcp_params_t p = base_params();
  tcp_sender_t s;
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  tcp_tx_t tx[16], rt[16];
  ck_assert_int_eq(send_all(&s, 0, tx, 16), 10);
  for (int i = 0; i < 10; i++) {
    if (i != 2 && i != 5) {
      deliver(&r, &s, &tx[i], 10 * MS);
    }
  }
  ck_assert_uint_eq(r.rcv_nxt, 2000);
  ck_assert_uint_eq(r.nranges, 2);
  ck_assert_int_eq(s.ca_state, kTcpRecovery);
  ck_assert_uint_eq(s.sacked_out, 6);
  ck_assert_uint_eq(s.lost_out, 2);
  ck_assert_uint_eq(tcp_sender_pipe(&s), 0);
  int n = send_all(&s, 10 * MS, rt, 16);
  ck_assert_int_eq(n, 5);
  ck_assert(rt[0].retrans && rt[0].seq == 2000);
  ck_assert(rt[1].retrans && rt[1].seq == 5000);
  for (int i = 2; i < 5; i++) {
    ck_assert(!rt[i].retrans);
    ck_assert_uint_eq(rt[i].seq, 10000 + 1000 * (uint64_t)(i - 2));
  }
  ck_assert_uint_eq(s.retrans_segs, 2);
  deliver(&r, &s, &rt[0], 20 * MS);
  ck_assert_uint_eq(r.rcv_nxt, 5000);
  deliver(&r, &s, &rt[1], 20 * MS);
  ck_assert_uint_eq(r.rcv_nxt, 10000);
  ck_assert_uint_eq(s.una, 10);
  ck_assert_int_eq(s.ca_state, kTcpOpen);
  ck_assert_double_eq_tol(s.cwnd, 9.8 + 0.9 / 1.7 / 9.8, 1e-9);
  tcp_sender_free(&s);
  tcp_receiver_free(&r);
}
END_TEST

// RFC 6298: first sample R = 100 ms: SRTT 100, RTTVAR 50, RTO = 100 + 4 x 50 = 300 ms.
// Second R = 200 ms: RTTVAR = 3/4 x 50 + 1/4 x |100 - 200| = 62.5, SRTT = 7/8 x 100 + 1/8 x
// 200 = 112.5, RTO = 112.5 + 250 = 362.5 ms, and the timer restarts at that ACK.
START_TEST(test_rto_estimator) {
  tcp_params_t p = base_params();
  p.init_cwnd = 1;
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 10000, 0));
  tcp_tx_t tx[4];
  ck_assert_int_eq(send_all(&s, 0, tx, 4), 1);
  ck_assert_uint_eq(s.rto_deadline_ps, S);  // initial RTO 1 s
  tcp_ack_t a = {.ack = 1000, .wnd = p.rcv_buf_bytes};
  tcp_sender_on_ack(&s, 100 * MS, &a);
  ck_assert_uint_eq(s.srtt_ps, 100 * MS);
  ck_assert_uint_eq(s.rttvar_ps, 50 * MS);
  ck_assert_uint_eq(s.rto_ps, 300 * MS);
  ck_assert_int_eq(send_all(&s, 100 * MS, tx, 4), 2);  // slow start: cwnd 2
  a.ack = 2000;
  tcp_sender_on_ack(&s, 300 * MS, &a);
  ck_assert_uint_eq(s.rttvar_ps, 62500 * 1000000ull);
  ck_assert_uint_eq(s.srtt_ps, 112500 * 1000000ull);
  ck_assert_uint_eq(s.rto_ps, 362500 * 1000000ull);
  ck_assert_uint_eq(s.rto_deadline_ps, 300 * MS + 362500 * 1000000ull);
  tcp_sender_free(&s);
}
END_TEST

// The minimum RTO is a parameter: steady 1 ms samples give SRTT -> 1 ms and RTTVAR -> 0, so
// SRTT + max(G, 4 RTTVAR) is about 1 ms and the RTO sits at min_rto (200 ms, then 5 ms).
START_TEST(test_rto_min_parameter) {
  for (int k = 0; k < 2; k++) {
    tcp_params_t p = base_params();
    p.min_rto_ps = k == 0 ? 200 * MS : 5 * MS;
    p.init_cwnd = 1;
    tcp_sender_t s;
    ck_assert_ptr_null(tcp_sender_init(&s, &p, 1000000, 0));
    uint64_t now = 0;
    tcp_tx_t t;
    for (int i = 0; i < 200; i++) {
      while (tcp_sender_poll(&s, now, &t) == kTcpTxSend) {
      }
      now += MS;
      tcp_ack_t a = {.ack = s.nxt * 1000, .wnd = p.rcv_buf_bytes};
      tcp_sender_on_ack(&s, now, &a);
    }
    ck_assert_uint_eq(s.rto_ps, p.min_rto_ps);
    ck_assert_uint_lt(s.srtt_ps, 2 * MS);
    tcp_sender_free(&s);
  }
}
END_TEST

// RTO backoff doubles: initial RTO 1 s, no ACK: fires at 1 s (next RTO 2 s, deadline 3 s), at
// 3 s (4 s, deadline 7 s), at 7 s (8 s); capped at max_rto. Before the deadline it does not
// fire. After each timeout cwnd is 1 and only byte 0 is retransmitted. An ACK of the
// retransmission gives no RTT sample (Karn) and keeps the backoff.
START_TEST(test_rto_backoff_doubles) {
  tcp_params_t p = base_params();
  p.max_rto_ps = 10 * S;
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  tcp_tx_t tx[16], t;
  ck_assert_int_eq(send_all(&s, 0, tx, 16), 10);
  ck_assert(!tcp_sender_on_timer(&s, S - 1));
  uint64_t at = S, expect[] = {2 * S, 4 * S, 8 * S, 10 * S, 10 * S};
  for (int i = 0; i < 5; i++) {
    ck_assert(tcp_sender_on_timer(&s, at));
    ck_assert_uint_eq(tcp_sender_rto(&s), expect[i]);
    ck_assert_uint_eq(s.rto_deadline_ps, at + expect[i]);
    ck_assert_double_eq_tol(s.cwnd, 1.0, 1e-12);
    ck_assert_int_eq(s.ca_state, kTcpLoss);
    ck_assert_int_eq(tcp_sender_poll(&s, at, &t), kTcpTxSend);
    ck_assert(t.retrans && t.seq == 0);
    ck_assert_int_eq(tcp_sender_poll(&s, at, &t), kTcpTxIdle);
    at += expect[i];
  }
  ck_assert_uint_eq(s.rto_count, 5);
  ck_assert_double_eq_tol(s.ssthresh, 7.0, 1e-12);  // reduced once, at the first timeout
  tcp_ack_t a = {.ack = 1000, .wnd = p.rcv_buf_bytes};
  tcp_sender_on_ack(&s, at, &a);
  ck_assert_uint_eq(s.srtt_ps, 0);  // Karn: no sample from a retransmitted segment
  ck_assert_uint_eq(s.backoff, 5);
  tcp_sender_free(&s);
}
END_TEST

// The receive window: a 5000-byte buffer lets five of the ten-segment initial window go; the
// receiver drops (and ACKs) a segment beyond its window.
START_TEST(test_receive_window) {
  tcp_params_t p = base_params();
  p.rcv_buf_bytes = 5000;
  tcp_sender_t s;
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  tcp_tx_t tx[16];
  ck_assert_int_eq(send_all(&s, 0, tx, 16), 5);
  tcp_ack_t a;
  ck_assert(tcp_receiver_on_data(&r, 0, 5000, 1000, &a));
  ck_assert_uint_eq(r.dropped_segs, 1);
  ck_assert_uint_eq(a.nsack, 0);
  deliver(&r, &s, &tx[0], MS);
  ck_assert_int_eq(send_all(&s, MS, tx, 16), 1);  // window slid by one segment
  tcp_sender_free(&s);
  tcp_receiver_free(&r);
}
END_TEST

// Delayed ACK on: the first in-order segment waits (deadline now + 40 ms), the second is
// ACKed at once; a lone segment is ACKed by the timer; out-of-order data is ACKed at once
// with a SACK block. Off: every segment is ACKed.
START_TEST(test_delayed_ack) {
  tcp_params_t p = base_params();
  p.delayed_ack = true;
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  tcp_ack_t a;
  ck_assert(!tcp_receiver_on_data(&r, 0, 0, 1000, &a));
  ck_assert_uint_eq(r.delack_deadline_ps, 40 * MS);
  ck_assert(tcp_receiver_on_data(&r, MS, 1000, 1000, &a));
  ck_assert_uint_eq(a.ack, 2000);
  ck_assert(!tcp_receiver_on_data(&r, 2 * MS, 2000, 1000, &a));
  ck_assert(!tcp_receiver_on_timer(&r, 42 * MS - 1, &a));
  ck_assert(tcp_receiver_on_timer(&r, 42 * MS, &a));
  ck_assert_uint_eq(a.ack, 3000);
  ck_assert(tcp_receiver_on_data(&r, 43 * MS, 5000, 1000, &a));
  ck_assert_uint_eq(a.nsack, 1);
  ck_assert_uint_eq(a.sack[0][0], 5000);
  ck_assert_uint_eq(a.sack[0][1], 6000);
  p.delayed_ack = false;
  tcp_receiver_free(&r);
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  ck_assert(tcp_receiver_on_data(&r, 0, 0, 1000, &a));
  ck_assert_uint_eq(a.ack, 1000);
  tcp_receiver_free(&r);
}
END_TEST

// SACK blocks: the first holds the most recent segment (RFC 2018), at most three.
START_TEST(test_sack_blocks) {
  tcp_params_t p = base_params();
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_receiver_init(&r, &p));
  tcp_ack_t a;
  uint64_t segs[] = {0, 2, 4, 6, 8};
  for (int i = 0; i < 5; i++) {
    tcp_receiver_on_data(&r, 0, segs[i] * 1000, 1000, &a);
  }
  ck_assert_uint_eq(a.ack, 1000);
  ck_assert_uint_eq(a.nsack, 3);
  ck_assert_uint_eq(a.sack[0][0], 8000);
  ck_assert_uint_eq(a.sack[1][0], 6000);
  ck_assert_uint_eq(a.sack[2][0], 4000);
  tcp_receiver_on_data(&r, 0, 3000, 1000, &a);  // joins [2000,3000) and [4000,5000)
  ck_assert_uint_eq(a.sack[0][0], 2000);
  ck_assert_uint_eq(a.sack[0][1], 5000);
  ck_assert_uint_eq(a.sack[1][0], 8000);
  tcp_receiver_on_data(&r, 0, 1000, 1000, &a);  // fills the hole: ACK 5000
  ck_assert_uint_eq(a.ack, 5000);
  ck_assert_uint_eq(a.sack[0][0], 8000);
  ck_assert_uint_eq(a.sack[1][0], 6000);
  tcp_receiver_free(&r);
}
END_TEST

// Pacing like tc-fq: BBR's initial rate is high_gain x init_cwnd x mss / 1 ms x 0.99 =
// 2.885 x 10 x 1000 / 0.001 x 0.99 = 28,561,500 B/s, so a 1000-byte segment holds the next
// one back for 1000 / 28,561,500 s = 35,012,166.97 ps, truncated to 35,012,166.
START_TEST(test_pacing_gap) {
  tcp_params_t p = base_params();
  p.cc = kTcpCcBbr;
  p.pacing = true;
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  ck_assert_double_eq_tol(s.pacing_Bps, 28561500.0, 1e-3);
  tcp_tx_t t;
  ck_assert_int_eq(tcp_sender_poll(&s, 0, &t), kTcpTxSend);
  ck_assert_int_eq(tcp_sender_poll(&s, 0, &t), kTcpTxWait);
  ck_assert_uint_eq(s.next_send_ps, 35012166ull);
  ck_assert_int_eq(tcp_sender_poll(&s, 35012165ull, &t), kTcpTxWait);
  ck_assert_int_eq(tcp_sender_poll(&s, 35012166ull, &t), kTcpTxSend);
  ck_assert_uint_eq(t.seq, 1000);
  tcp_sender_free(&s);
}
END_TEST

// tc-fq maxrate: the cap 1,000,000 B/s is below BBR's initial 28,561,500 B/s, so it sets the
// gap: (1000 + hdr_bytes) / 1e6 s. base_params' hdr_bytes is read back, not assumed. A cap
// above the CC's rate changes nothing (35,012,166 ps as test_pacing_gap); a cap without
// pacing, or a negative one, is refused.
START_TEST(test_pacing_maxrate) {
  tcp_params_t p = base_params();
  p.cc = kTcpCcBbr;
  p.pacing = true;
  p.max_pacing_Bps = 1e6;
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  tcp_tx_t t;
  ck_assert_int_eq(tcp_sender_poll(&s, 0, &t), kTcpTxSend);
  ck_assert_uint_eq(s.next_send_ps, (uint64_t)(1000u + p.hdr_bytes) * 1000000ull);
  tcp_sender_free(&s);
  p.max_pacing_Bps = 1e9;
  ck_assert_ptr_null(tcp_sender_init(&s, &p, 100000, 0));
  ck_assert_int_eq(tcp_sender_poll(&s, 0, &t), kTcpTxSend);
  ck_assert_uint_eq(s.next_send_ps, 35012166ull);
  tcp_sender_free(&s);
  p.pacing = false;
  ck_assert_ptr_nonnull(tcp_params_check(&p));
  p.pacing = true;
  p.max_pacing_Bps = -1;
  ck_assert_ptr_nonnull(tcp_params_check(&p));
}
END_TEST

START_TEST(test_bad_params) {
  tcp_params_t p = base_params();
  tcp_sender_t s;
  ck_assert_ptr_null(tcp_params_check(&p));
  p.mss = 10;
  ck_assert_ptr_nonnull(tcp_sender_init(&s, &p, 1000, 0));
  p = base_params();
  p.min_rto_ps = 0;
  ck_assert_ptr_nonnull(tcp_params_check(&p));
  p = base_params();
  ck_assert_ptr_nonnull(tcp_sender_init(&s, &p, 0, 0));
  p.rcv_buf_bytes = 10;
  ck_assert_ptr_nonnull(tcp_params_check(&p));
}
END_TEST

// ---------------------------------------------------------------- BBR
// One call = one round trip: `n` segments delivered over `interval`, so bw = n / interval.
static void bbr_round(tcp_bbr_t *b, double *cwnd, double *rate, uint64_t now, uint64_t *deliv,
                      uint64_t n, uint64_t interval, uint64_t rtt, uint32_t inflight) {
  tcp_rs_t rs = {.now_ps = now,
                 .delivered = n,
                 .interval_ps = interval,
                 .rtt_ps = rtt,
                 .acked = (uint32_t)n,
                 .prior_in_flight = inflight,
                 .in_flight = inflight,
                 .ca_state = kTcpOpen};
  rs.prior_delivered = *deliv;
  *deliv += n;
  rs.tp_delivered = *deliv;
  tcp_bbr_on_ack(b, &rs, cwnd, rate, 10 * MS);
}

// Startup gains 2.885 / 2.885. bw 1000 segments/s (10 per 10 ms): round 1 sets full_bw 1000;
// rounds 2, 3, 4 grow less than 25 %, so the third of them ends Startup: Drain, pacing gain
// 1/2.885 (rate 1/2.885 x 1000 x 1000 B x 0.99 = 343,154 B/s). Drain ends when inflight <=
// BDP + quantization = ceil(1000 x 0.01) + 3 = 13, rounded up to even 14: 100 stays, 14 goes
// to ProbeBW. A bandwidth that keeps growing by >= 25 % per round stays in Startup.
START_TEST(test_bbr_startup_drain) {
  tcp_bbr_t b;
  tcp_bbr_init(&b, 1000, 10, 1);
  ck_assert_int_eq(b.mode, kBbrStartup);
  double cwnd = 10, rate = 0;
  uint64_t d = 0, now = 0;
  for (int i = 0; i < 3; i++) {
    now += 10 * MS;
    bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 100);
    ck_assert_int_eq(b.mode, kBbrStartup);
    ck_assert_double_eq_tol(b.pacing_gain, TCP_BBR_HIGH_GAIN, 1e-12);
  }
  ck_assert_uint_eq(b.full_bw_cnt, 2);
  now += 10 * MS;
  bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 100);
  ck_assert(b.full_bw_reached);
  ck_assert_int_eq(b.mode, kBbrDrain);
  ck_assert_double_eq_tol(b.pacing_gain, 1.0 / TCP_BBR_HIGH_GAIN, 1e-12);
  ck_assert_double_eq_tol(b.cwnd_gain, TCP_BBR_HIGH_GAIN, 1e-12);
  ck_assert_double_eq_tol(rate, 1000.0 * 1000.0 * 0.99 / TCP_BBR_HIGH_GAIN, 1e-6);
  now += 10 * MS;
  bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 15);
  ck_assert_int_eq(b.mode, kBbrDrain);
  now += 10 * MS;
  bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 14);
  ck_assert_int_eq(b.mode, kBbrProbeBw);
  ck_assert_uint_ne(b.cycle_idx, 1);
  ck_assert_double_eq_tol(b.pacing_gain, tcp_bbr_pacing_gain[b.cycle_idx], 1e-12);
  ck_assert_double_eq_tol(b.cwnd_gain, 2.0, 1e-12);
  // growth of 25 % per round: no exit
  tcp_bbr_init(&b, 1000, 10, 1);
  d = 0;
  uint64_t n = 8;
  for (int i = 0; i < 8; i++) {
    bbr_round(&b, &cwnd, &rate, (uint64_t)(i + 1) * 10 * MS, &d, n, 10 * MS, 10 * MS, 100);
    n = n * 5 / 4 + 1;
  }
  ck_assert_int_eq(b.mode, kBbrStartup);
}
END_TEST

// ProbeBW's random start (Linux bbr_reset_probe_bw_mode) is never the 3/4 phase, and over
// many seeds every other phase occurs.
START_TEST(test_bbr_cycle_start_phase) {
  int seen[TCP_BBR_CYCLE_LEN] = {0};
  for (uint32_t seed = 1; seed <= 400; seed++) {
    tcp_bbr_t b;
    tcp_bbr_init(&b, 1000, 10, seed);
    double cwnd = 10, rate = 0;
    uint64_t d = 0;
    for (int i = 0; i < 5; i++) {
      bbr_round(&b, &cwnd, &rate, (uint64_t)(i + 1) * 10 * MS, &d, 10, 10 * MS, 10 * MS, 10);
    }
    ck_assert_int_eq(b.mode, kBbrProbeBw);
    seen[b.cycle_idx]++;
  }
  ck_assert_int_eq(seen[1], 0);
  for (int i = 0; i < TCP_BBR_CYCLE_LEN; i++) {
    ck_assert(i == 1 || seen[i] > 0);
  }
}
END_TEST

// The gain cycle 5/4, 3/4, 1 x 6 with min RTT 10 ms and bw 1000/s. Phase 5/4 ends only after
// a full min RTT and once inflight reaches bbr_inflight(bw, 5/4) = ceil(12.5) + 3 = 16 (even)
// + 2 in that phase = 18: at +5 ms no, at +11 ms with inflight 10 no, at +12 ms with 18 yes.
// Phase 3/4 ends early once inflight <= bbr_inflight(bw, 1) = 14: 20 no, 14 yes. Each 1.0
// phase lasts one min RTT: 10 ms after its start no, 11 ms yes.
START_TEST(test_bbr_gain_cycle) {
  tcp_bbr_t b;
  tcp_bbr_init(&b, 1000, 10, 1);
  double cwnd = 10, rate = 0;
  uint64_t d = 0, now = 0;
  for (int i = 0; i < 5; i++) {
    now += 10 * MS;
    bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 10);
  }
  ck_assert_int_eq(b.mode, kBbrProbeBw);
  b.cycle_idx = 0;  // start the walk at the 5/4 phase
  b.pacing_gain = 1.25;
  b.cycle_stamp_ps = now;
  uint64_t st = now;
  bbr_round(&b, &cwnd, &rate, st + 5 * MS, &d, 10, 10 * MS, 10 * MS, 30);
  ck_assert_uint_eq(b.cycle_idx, 0);
  ck_assert_double_eq_tol(b.pacing_gain, 1.25, 1e-12);
  bbr_round(&b, &cwnd, &rate, st + 11 * MS, &d, 10, 10 * MS, 10 * MS, 10);
  ck_assert_uint_eq(b.cycle_idx, 0);
  bbr_round(&b, &cwnd, &rate, st + 12 * MS, &d, 10, 10 * MS, 10 * MS, 18);
  ck_assert_uint_eq(b.cycle_idx, 1);
  ck_assert_double_eq_tol(b.pacing_gain, 0.75, 1e-12);
  bbr_round(&b, &cwnd, &rate, st + 13 * MS, &d, 10, 10 * MS, 10 * MS, 20);
  ck_assert_uint_eq(b.cycle_idx, 1);
  bbr_round(&b, &cwnd, &rate, st + 14 * MS, &d, 10, 10 * MS, 10 * MS, 14);
  ck_assert_uint_eq(b.cycle_idx, 2);
  st += 14 * MS;
  for (uint32_t ph = 2; ph < 8; ph++) {
    ck_assert_double_eq_tol(b.pacing_gain, 1.0, 1e-12);
    bbr_round(&b, &cwnd, &rate, st + 10 * MS, &d, 10, 10 * MS, 10 * MS, 14);
    ck_assert_uint_eq(b.cycle_idx, ph);
    st += 11 * MS;
    bbr_round(&b, &cwnd, &rate, st, &d, 10, 10 * MS, 10 * MS, 14);
    ck_assert_uint_eq(b.cycle_idx, (ph + 1) % 8);
  }
  ck_assert_double_eq_tol(b.pacing_gain, 1.25, 1e-12);
  // round two: 5/4 ends at a full min RTT with inflight 18; the 3/4 phase, inflight kept at
  // 20 > 14, ends by its length alone: 10 ms after its start no, 11 ms yes
  bbr_round(&b, &cwnd, &rate, st + 11 * MS, &d, 10, 10 * MS, 10 * MS, 18);
  ck_assert_uint_eq(b.cycle_idx, 1);
  bbr_round(&b, &cwnd, &rate, st + 21 * MS, &d, 10, 10 * MS, 10 * MS, 20);
  ck_assert_uint_eq(b.cycle_idx, 1);
  bbr_round(&b, &cwnd, &rate, st + 22 * MS, &d, 10, 10 * MS, 10 * MS, 20);
  ck_assert_uint_eq(b.cycle_idx, 2);
}
END_TEST

// Probe RTT: the min-RTT filter (10 s) expires at 10 s after its stamp: PROBE_RTT, cwnd 4
// (saved before); the 200 ms timer starts once inflight <= 4, and PROBE_RTT ends after it and
// one round trip, restoring the saved cwnd, back in ProbeBW (bandwidth already full). Not
// before the 200 ms.
START_TEST(test_bbr_probe_rtt) {
  tcp_bbr_t b;
  tcp_bbr_init(&b, 1000, 10, 1);
  double cwnd = 10, rate = 0;
  uint64_t d = 0, now = 0;
  for (int i = 0; i < 8; i++) {
    now += 10 * MS;
    bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 10 * MS, 10);
  }
  ck_assert_int_eq(b.mode, kBbrProbeBw);
  ck_assert_uint_eq(b.min_rtt_stamp_ps, 10 * MS);  // the first 10 ms sample
  double before = cwnd;
  ck_assert_double_gt(before, 4.0);
  bbr_round(&b, &cwnd, &rate, 10 * S + 10 * MS, &d, 10, 10 * MS, 12 * MS, 30);
  ck_assert_int_eq(b.mode, kBbrProbeBw);  // not expired yet: 10 s + 10 ms is not after
  now = 10 * S + 11 * MS;
  bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 12 * MS, 30);
  ck_assert_int_eq(b.mode, kBbrProbeRtt);
  ck_assert_uint_eq(b.probe_rtts, 1);
  ck_assert_uint_eq(b.min_rtt_ps, 12 * MS);  // expired: the new sample replaces 10 ms
  ck_assert_double_eq_tol(cwnd, 4.0, 1e-12);
  ck_assert_uint_eq(b.probe_rtt_done_ps, 0);  // inflight 30 > 4: the timer waits
  now += 2 * MS;
  bbr_round(&b, &cwnd, &rate, now, &d, 10, 10 * MS, 12 * MS, 4);
  ck_assert_uint_eq(b.probe_rtt_done_ps, now + 200 * MS);
  uint64_t done = b.probe_rtt_done_ps;
  bbr_round(&b, &cwnd, &rate, done - MS, &d, 4, 10 * MS, 12 * MS, 4);
  ck_assert_int_eq(b.mode, kBbrProbeRtt);
  ck_assert(b.probe_rtt_round_done);
  bbr_round(&b, &cwnd, &rate, done + MS, &d, 4, 10 * MS, 12 * MS, 4);
  ck_assert_int_eq(b.mode, kBbrProbeBw);
  ck_assert_uint_eq(b.min_rtt_stamp_ps, done + MS);
  ck_assert_double_ge(cwnd, before);
}
END_TEST

// The max-bandwidth filter spans 10 round trips: 2000/s in round 1 and 1000/s after it stays
// the maximum through round 10 and is gone in round 11.
START_TEST(test_bbr_bw_filter) {
  tcp_bbr_t b;
  tcp_bbr_init(&b, 1000, 10, 1);
  double cwnd = 10, rate = 0;
  uint64_t d = 0;
  bbr_round(&b, &cwnd, &rate, 10 * MS, &d, 20, 10 * MS, 10 * MS, 10);
  ck_assert_double_eq_tol(tcp_bbr_max_bw(&b), 2000.0, 1e-9);
  for (int r = 2; r <= 10; r++) {
    bbr_round(&b, &cwnd, &rate, (uint64_t)r * 10 * MS, &d, 10, 10 * MS, 10 * MS, 10);
    ck_assert_double_eq_tol(tcp_bbr_max_bw(&b), 2000.0, 1e-9);
  }
  ck_assert_uint_eq(b.round_count, 10);
  bbr_round(&b, &cwnd, &rate, 110 * MS, &d, 10, 10 * MS, 10 * MS, 10);
  ck_assert_double_eq_tol(tcp_bbr_max_bw(&b), 1000.0, 1e-9);
}
END_TEST

// Loss recovery under BBR (Linux bbr_set_cwnd_to_recover_or_restore): entering recovery sets
// cwnd = inflight + acked (20 + 2) for one round (packet conservation); leaving restores the
// window saved at the entry, then bbr_set_cwnd applies min(cwnd + acked, target) with target
// bbr_inflight(1000/s, 2) = ceil(20) + 3 = 23, even 24 (+2 in the 5/4 phase).
START_TEST(test_bbr_recovery_conservation) {
  tcp_bbr_t b;
  tcp_bbr_init(&b, 1000, 10, 1);
  double cwnd = 10, rate = 0;
  uint64_t d = 0;
  for (int i = 0; i < 8; i++) {
    bbr_round(&b, &cwnd, &rate, (uint64_t)(i + 1) * 10 * MS, &d, 10, 10 * MS, 10 * MS, 10);
  }
  double saved = cwnd;
  ck_assert_double_gt(saved, 22.0);
  tcp_rs_t rs = {.now_ps = 100 * MS,
                 .delivered = 10,
                 .interval_ps = 10 * MS,
                 .prior_delivered = d - 5,
                 .tp_delivered = d + 2,
                 .rtt_ps = 10 * MS,
                 .acked = 2,
                 .prior_in_flight = 22,
                 .in_flight = 20,
                 .ca_state = kTcpRecovery};
  tcp_bbr_on_ack(&b, &rs, &cwnd, &rate, 10 * MS);
  ck_assert_double_eq_tol(cwnd, 22.0, 1e-12);
  ck_assert(b.packet_conservation);
  ck_assert_double_eq_tol(b.prior_cwnd, saved, 1e-12);
  rs.ca_state = kTcpOpen;
  rs.now_ps += MS;
  tcp_bbr_on_ack(&b, &rs, &cwnd, &rate, 10 * MS);
  ck_assert(!b.packet_conservation);
  double target = b.cycle_idx == 0 ? 26.0 : 24.0;
  ck_assert_double_eq_tol(cwnd, saved + 2 < target ? saved + 2 : target, 1e-12);
}
END_TEST

// ---------------------------------------------------------------- end to end
// A dumbbell without the simulator: the sender's segments cross one bottleneck (rate, a
// drop-tail queue of `qlim` segments, optional seeded random loss) and a one-way delay; ACKs
// return over the same delay without queueing. Events are taken in time order from two FIFOs
// (constant delay keeps them sorted), the pacing wake-up and the two timers.
#define E2E_RING 65536u

typedef struct e2e {
  uint64_t rate_bps, delay_ps, size;
  uint32_t qlim;
  double loss;
  uint32_t seed;
  // results
  uint64_t fct_ps, drops, rlost, rx_dropped;
} e2e_t;

typedef struct fifo_ent {
  uint64_t at, dep, a, b;
  tcp_ack_t ack;
} fifo_ent_t;

static fifo_ent_t g_rx[E2E_RING], g_ak[E2E_RING];

static uint32_t xs32(uint32_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return *x;
}

static void e2e_send(e2e_t *e, const tcp_params_t *p, uint64_t now, const tcp_tx_t *t, uint64_t *rh,
                     uint64_t rt, uint64_t *link_free, uint32_t *rng) {
  uint32_t q = 0;
  for (uint64_t i = *rh; i > rt && g_rx[(i - 1) % E2E_RING].dep > now; i--) {
    q++;
  }
  if (q >= e->qlim) {
    e->drops++;
    return;
  }
  uint64_t ser = (uint64_t)(t->len + p->hdr_bytes) * 8 * TCP_PS_PER_S / e->rate_bps;
  uint64_t dep = (*link_free > now ? *link_free : now) + ser;
  *link_free = dep;
  if (e->loss > 0 && (double)xs32(rng) / 4294967296.0 < e->loss) {
    e->rlost++;
    return;
  }
  g_rx[*rh % E2E_RING] =
      (fifo_ent_t){.at = dep + e->delay_ps, .dep = dep, .a = t->seq, .b = t->len};
  (*rh)++;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t m = a < b ? a : b;
  return m < c ? m : c;
}

static void e2e_run(e2e_t *e, const tcp_params_t *p, tcp_sender_t *s) {
  tcp_receiver_t r;
  ck_assert_ptr_null(tcp_sender_init(s, p, e->size, 0));
  tcp_receiver_init(&r, p);
  uint64_t rh = 0, rt = 0, ah = 0, at = 0, link_free = 0, now = 0;
  uint32_t rng = e->seed;
  while (s->done_ps == TCP_NEVER && now < 600 * S) {
    tcp_tx_t t;
    tcp_poll_t st;
    while ((st = tcp_sender_poll(s, now, &t)) == kTcpTxSend) {
      e2e_send(e, p, now, &t, &rh, rt, &link_free, &rng);
    }
    uint64_t wake = st == kTcpTxWait ? s->next_send_ps : TCP_NEVER;
    uint64_t next = min3(wake, rt < rh ? g_rx[rt % E2E_RING].at : TCP_NEVER,
                         at < ah ? g_ak[at % E2E_RING].at : TCP_NEVER);
    next = min3(next, s->rto_deadline_ps, r.delack_deadline_ps);
    ck_assert_uint_ne(next, TCP_NEVER);  // a stuck transfer fails here
    now = next;
    tcp_ack_t a;
    for (; rt < rh && g_rx[rt % E2E_RING].at <= now; rt++) {
      const fifo_ent_t *f = &g_rx[rt % E2E_RING];
      if (tcp_receiver_on_data(&r, now, f->a, (uint32_t)f->b, &a)) {
        g_ak[ah++ % E2E_RING] = (fifo_ent_t){.at = now + e->delay_ps, .ack = a};
      }
    }
    if (tcp_receiver_on_timer(&r, now, &a)) {
      g_ak[ah++ % E2E_RING] = (fifo_ent_t){.at = now + e->delay_ps, .ack = a};
    }
    for (; at < ah && g_ak[at % E2E_RING].at <= now; at++) {
      tcp_sender_on_ack(s, now, &g_ak[at % E2E_RING].ack);
    }
    tcp_sender_on_timer(s, now);
  }
  ck_assert_uint_eq(r.rcv_nxt, e->size);
  e->fct_ps = s->done_ps;
  e->rx_dropped = r.dropped_segs;
  tcp_receiver_free(&r);
}

// 20 MB over 1 Gb/s with a 10 ms RTT and a 400-segment queue, jumbo frames (mss 8948) and
// standard ones, CUBIC with and without HyStart++ and BBR, delayed ACK off and on, with and
// without 0.1 % random loss (seeded): every transfer completes, every lost segment is
// retransmitted, and without a timeout nothing else is (SACK retransmits only holes). The
// bound is loose on purpose: without random loss the FCT is within 4 x the ideal size / rate
// + RTT (160 ms + 10 ms). Random loss of 0.1 % caps the window (Reno-friendly region) far
// below the BDP, so no FCT bound there. The figures are printed with the seed.
START_TEST(test_e2e_transfers) {
  static const struct {
    tcp_cc_kind_t cc;
    bool hystart, delack;
    uint32_t mss;
    double loss;
    uint32_t qlim;
  } cases[] = {
      {kTcpCcCubic, false, false, 1448, 0.0, 400}, {kTcpCcCubic, true, false, 1448, 0.0, 400},
      {kTcpCcCubic, true, true, 8948, 0.0, 400},   {kTcpCcBbr, false, false, 1448, 0.0, 400},
      {kTcpCcBbr, false, true, 8948, 0.0, 400},    {kTcpCcCubic, true, false, 1448, 0.001, 400},
      {kTcpCcBbr, false, false, 1448, 0.001, 400}, {kTcpCcCubic, false, false, 1448, 0.0, 2000},
      {kTcpCcCubic, true, false, 1448, 0.0, 2000},
  };
  uint64_t drops[16] = {0}, exits[16] = {0};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    tcp_params_t p;
    tcp_params_default(&p);
    p.cc = cases[i].cc;
    p.hystart = cases[i].hystart;
    p.delayed_ack = cases[i].delack;
    p.mss = cases[i].mss;
    p.seed = 7;
    e2e_t e = {.rate_bps = 1000000000ull,
               .delay_ps = 5 * MS,
               .size = 20000000ull,
               .qlim = cases[i].qlim,
               .loss = cases[i].loss,
               .seed = 12345};
    tcp_sender_t s;
    e2e_run(&e, &p, &s);
    double ideal = (double)e.size * 8 / 1e9 + 0.010;
    double fct = (double)e.fct_ps / (double)S;
    printf(
        "e2e %s hystart=%d delack=%d mss=%u loss=%g seed=%u: fct %.3f s (ideal %.3f), "
        "retrans %llu, fast %llu, rto %llu, queue drops %llu, random losses %llu\n",
        p.cc == kTcpCcBbr ? "bbr" : "cubic", p.hystart, p.delayed_ack, p.mss, e.loss, e.seed, fct,
        ideal, (unsigned long long)s.retrans_segs, (unsigned long long)s.fast_retransmits,
        (unsigned long long)s.rto_count, (unsigned long long)e.drops, (unsigned long long)e.rlost);
    ck_assert_uint_eq(e.rx_dropped, 0);
    ck_assert_uint_ge(s.retrans_segs, e.drops + e.rlost);  // every loss was repaired
    if (s.rto_count == 0) {
      ck_assert_uint_eq(s.retrans_segs, e.drops + e.rlost);  // and nothing else was resent
    }
    if (e.loss == 0) {
      ck_assert_double_lt(fct, 4 * ideal);
    }
    drops[i] = e.drops;
    exits[i] = s.cubic.hystart_css;
    tcp_sender_free(&s);
  }
  // A 2000-segment queue (24 ms, more than the 4 ms RttThresh floor; the 400-segment one holds
  // under 5 ms and stays below it for a round's first samples): HyStart++ leaves slow start
  // enters CSS before the queue overflows, so fewer drops than plain slow start (the loss
  // then comes within CSS_ROUNDS, so CSS ends by the loss, not by HyStart++'s own exit).
  ck_assert_uint_eq(exits[7], 0);
  ck_assert_uint_ge(exits[8], 1);
  ck_assert_uint_lt(drops[8], drops[7]);
}
END_TEST

// ---------------------------------------------------------------- main
int main(void) {
  Suite *su = suite_create("tcp");
  TCase *tc = tcase_create("cc");
  tcase_add_test(tc, test_cubic_k_and_w);
  tcase_add_test(tc, test_cubic_loss_fast_convergence);
  tcase_add_test(tc, test_cubic_trace_concave_convex);
  tcase_add_test(tc, test_cubic_reno_friendly);
  tcase_add_test(tc, test_hystart_css_and_exit);
  tcase_add_test(tc, test_hystart_css_back_and_limit);
  suite_add_tcase(su, tc);
  TCase *tl = tcase_create("loss");
  tcase_add_test(tl, test_three_dupacks_fast_retransmit);
  tcase_add_test(tl, test_dupacks_without_sack);
  tcase_add_test(tl, test_sack_retransmits_only_holes);
  tcase_add_test(tl, test_rto_estimator);
  tcase_add_test(tl, test_rto_min_parameter);
  tcase_add_test(tl, test_rto_backoff_doubles);
  tcase_add_test(tl, test_receive_window);
  tcase_add_test(tl, test_delayed_ack);
  tcase_add_test(tl, test_sack_blocks);
  tcase_add_test(tl, test_pacing_gap);
  tcase_add_test(tl, test_pacing_maxrate);
  tcase_add_test(tl, test_bad_params);
  suite_add_tcase(su, tl);
  TCase *tb = tcase_create("bbr");
  tcase_add_test(tb, test_bbr_startup_drain);
  tcase_add_test(tb, test_bbr_cycle_start_phase);
  tcase_add_test(tb, test_bbr_gain_cycle);
  tcase_add_test(tb, test_bbr_probe_rtt);
  tcase_add_test(tb, test_bbr_bw_filter);
  tcase_add_test(tb, test_bbr_recovery_conservation);
  suite_add_tcase(su, tb);
  TCase *te = tcase_create("e2e");
  tcase_set_timeout(te, 120);
  tcase_add_test(te, test_e2e_transfers);
  suite_add_tcase(su, te);
  SRunner *sr = srunner_create(su);
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
