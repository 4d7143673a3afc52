// SPDX-License-Identifier: Apache-2.0
//
// TCP sender and receiver of xtm-netsim (tcp.h, docs/netsim.md "TCP transport"). Loss
// recovery after RFC 6675 (SACK scoreboard, IsLost, pipe, NextSeg), the retransmission timer
// after RFC 6298, delivery-rate samples after draft-cheng-iccrg-delivery-rate-estimation (as
// Linux tcp_rate.c), pacing like Linux sch_fq. Only tcp_sender_init allocates.

#include "sim/netsim/tcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tcp_params_default(tcp_params_t *p) {
  *p = (tcp_params_t){0};
  p->mss = 1448;
  p->hdr_bytes = 52 + 38;  // TCP 20 + timestamps 12 + IPv4 20; Ethernet 18 + preamble/IFG 20
  p->init_cwnd = 10;
  p->max_cwnd = 65536;
  p->dupthresh = 3;
  p->min_rto_ps = 200 * TCP_PS_PER_MS;
  p->max_rto_ps = 60 * TCP_PS_PER_S;
  p->init_rto_ps = TCP_PS_PER_S;
  p->clock_g_ps = 1000000;  // 1 us
  p->cc = kTcpCcCubic;
  p->hystart = true;
  p->pacing = true;
  p->seed = 1;
  p->rcv_buf_bytes = 16u << 20;
  p->delayed_ack = false;
  p->delack_ps = 40 * TCP_PS_PER_MS;
}

const char *tcp_params_check(const tcp_params_t *p) {
  if (p->mss < 64 || p->mss > 65495) {
    return "mss must be 64..65495 bytes";
  }
  if (p->init_cwnd < 1 || p->max_cwnd < p->init_cwnd || p->max_cwnd > (1u << 24)) {
    return "init_cwnd must be >= 1 and max_cwnd init_cwnd..16777216 segments";
  }
  if (p->dupthresh < 1) {
    return "dupthresh must be >= 1";
  }
  if (p->min_rto_ps == 0 || p->max_rto_ps < p->min_rto_ps || p->init_rto_ps == 0) {
    return "RTO bounds: 0 < min_rto <= max_rto and init_rto > 0";
  }
  if (p->cc != kTcpCcCubic && p->cc != kTcpCcBbr) {
    return "cc must be cubic or bbr";
  }
  if (p->rcv_buf_bytes < p->mss) {
    return "rcv_buf_bytes must hold one segment";
  }
  if (!(p->max_pacing_Bps >= 0.0 && p->max_pacing_Bps < 1e15) ||
      (p->max_pacing_Bps > 0.0 && !p->pacing)) {
    return "max_pacing_Bps must be 0 (none) or a rate below 1e15 bytes/s, with pacing on";
  }
  if (p->delayed_ack && p->delack_ps == 0) {
    return "delack timeout must be > 0 with delayed ACK";
  }
  return NULL;
}

// ---------------------------------------------------------------- sender helpers
static inline uint64_t seg_lo(const tcp_sender_t *s, uint64_t i) { return i * s->p.mss; }
static inline uint64_t seg_hi(const tcp_sender_t *s, uint64_t i) {
  uint64_t hi = (i + 1) * s->p.mss;
  return hi < s->size ? hi : s->size;
}

uint32_t tcp_sender_pipe(const tcp_sender_t *s) {
  uint64_t out = s->nxt - s->una;
  return (uint32_t)(out - s->sacked_out - s->lost_out + s->retrans_out);
}

uint64_t tcp_sender_rto(const tcp_sender_t *s) {
  uint64_t r = s->rto_ps;
  for (uint32_t i = 0; i < s->backoff && r < s->p.max_rto_ps; i++) {
    r *= 2;
  }
  return r < s->p.max_rto_ps ? r : s->p.max_rto_ps;
}

const char *tcp_sender_init(tcp_sender_t *s, const tcp_params_t *p, uint64_t size_bytes,
                            uint64_t now_ps) {
  memset(s, 0, sizeof(*s));
  const char *err = tcp_params_check(p);
  if (err) {
    return err;
  }
  if (size_bytes == 0) {
    return "transfer size must be > 0 bytes";
  }
  s->p = *p;
  s->size = size_bytes;
  s->nsegs = (size_bytes + p->mss - 1) / p->mss;
  uint64_t cap = 1;
  while (cap < p->max_cwnd) {
    cap <<= 1;
  }
  s->ring = calloc(cap, sizeof(*s->ring));
  if (!s->ring) {
    return "out of memory for the TCP scoreboard";
  }
  s->ring_mask = cap - 1;
  s->rwnd = p->rcv_buf_bytes;
  s->cwnd = p->init_cwnd;
  s->ssthresh = TCP_SSTHRESH_INIT;  // RFC 5681 3.1: arbitrarily high
  s->rto_ps = p->init_rto_ps;
  s->rto_deadline_ps = TCP_NEVER;
  s->done_ps = TCP_NEVER;
  s->delivered_ps = s->first_sent_ps = now_ps;
  tcp_cubic_init(&s->cubic);
  tcp_bbr_init(&s->bbr, p->mss, p->init_cwnd, p->seed);
  s->bbr.min_rtt_stamp_ps = now_ps;
  if (p->pacing && p->cc == kTcpCcBbr) {
    double dummy_cwnd = s->cwnd;
    tcp_rs_t rs = {.now_ps = now_ps, .ca_state = kTcpOpen};
    tcp_bbr_on_ack(&s->bbr, &rs, &dummy_cwnd, &s->pacing_Bps, 0);  // initial pacing rate
  }
  return NULL;
}

void tcp_sender_free(tcp_sender_t *s) {
  free(s->ring);
  s->ring = NULL;
}

// Linux tcp_update_pacing_rate for non-BBR: cwnd x mss / srtt, x2 in slow start while
// cwnd < ssthresh / 2, else x1.2 (tcp_pacing_ss_ratio 200, tcp_pacing_ca_ratio 120).
static void cubic_pacing(tcp_sender_t *s) {
  if (s->srtt_ps == 0) {
    s->pacing_Bps = 0.0;  // no RTT yet: unpaced (Linux paces the initial window at line rate)
    return;
  }
  double ratio = s->cwnd < s->ssthresh / 2.0 ? 2.0 : 1.2;
  double w = s->cwnd > (double)tcp_sender_pipe(s) ? s->cwnd : (double)tcp_sender_pipe(s);
  s->pacing_Bps = ratio * w * s->p.mss / ((double)s->srtt_ps / (double)TCP_PS_PER_S);
}

static void tx_fill(tcp_sender_t *s, uint64_t now_ps, uint64_t i, bool retrans, tcp_tx_t *tx) {
  tcp_seg_t *g = tcp_seg_at(s, i);
  if (s->nxt == s->una) {
    s->first_sent_ps = s->delivered_ps = now_ps;  // nothing in flight: a new send interval
  }
  g->sent_ps = now_ps;
  g->delivered = s->delivered;
  g->delivered_ps = s->delivered_ps;
  g->first_sent_ps = s->first_sent_ps;
  g->flags = (uint8_t)(g->flags & ~TCP_SEG_APP_LIMITED);
  if (s->app_limited) {
    g->flags |= TCP_SEG_APP_LIMITED;
  }
  if (s->ca_state == kTcpRecovery) {
    s->prr_out++;
  }
  if (retrans) {
    g->flags |= TCP_SEG_RETRANS | TCP_SEG_EVER_RETRANS;
    s->retrans_out++;
    s->retrans_segs++;
  }
  tx->seq = seg_lo(s, i);
  tx->len = (uint32_t)(seg_hi(s, i) - tx->seq);
  tx->retrans = retrans;
  s->segs_sent++;
  if (s->rto_deadline_ps == TCP_NEVER) {
    s->rto_deadline_ps = now_ps + tcp_sender_rto(s);  // RFC 6298 (5.1)
  }
  // sch_fq: rate = min(sk_pacing_rate, maxrate) (maxrate applies also before the CC has a
  // rate); time_next_packet = now + len / rate
  double rate = s->pacing_Bps;
  if (s->p.max_pacing_Bps > 0.0 && (rate <= 0.0 || rate > s->p.max_pacing_Bps)) {
    rate = s->p.max_pacing_Bps;
  }
  if (s->p.pacing && rate > 0.0) {
    double ps = (double)(tx->len + s->p.hdr_bytes) * (double)TCP_PS_PER_S / rate;
    s->next_send_ps = now_ps + (uint64_t)ps;
  }
}

// NextSeg rule 1: the lowest segment lost and not retransmitted (they lie in
// [rtx_scan, lost_scan)); advances rtx_scan over segments that need nothing.
static bool next_lost(tcp_sender_t *s, uint64_t *out) {
  if (s->rtx_scan < s->una) {
    s->rtx_scan = s->una;
  }
  while (s->rtx_scan < s->lost_scan) {
    uint8_t f = tcp_seg_at(s, s->rtx_scan)->flags;
    if ((f & TCP_SEG_LOST) && !(f & TCP_SEG_RETRANS)) {
      *out = s->rtx_scan;
      return true;
    }
    s->rtx_scan++;
  }
  return false;
}

bool tcp_sender_can_send(tcp_sender_t *s) {
  if (s->una >= s->nsegs || (double)tcp_sender_pipe(s) + 1.0 > s->cwnd) {
    return false;
  }
  uint64_t i;
  if (s->lost_out > s->retrans_out && next_lost(s, &i)) {
    return true;
  }
  return s->nxt < s->nsegs && seg_hi(s, s->nxt) <= seg_lo(s, s->una) + s->rwnd &&
         s->nxt - s->una <= s->ring_mask;
}

tcp_poll_t tcp_sender_poll(tcp_sender_t *s, uint64_t now_ps, tcp_tx_t *tx) {
  if (s->una >= s->nsegs) {
    return kTcpTxDone;
  }
  if ((double)tcp_sender_pipe(s) + 1.0 > s->cwnd) {
    return kTcpTxIdle;
  }
  uint64_t i;
  bool lost = s->lost_out > s->retrans_out && next_lost(s, &i);
  bool fresh = !lost && s->nxt < s->nsegs && seg_hi(s, s->nxt) <= seg_lo(s, s->una) + s->rwnd &&
               s->nxt - s->una <= s->ring_mask;
  if (!lost && !fresh) {
    if (s->nxt >= s->nsegs) {
      s->app_limited = s->delivered + tcp_sender_pipe(s) + 1;  // nothing left to send
    }
    return kTcpTxIdle;
  }
  if (s->p.pacing && now_ps < s->next_send_ps) {
    return kTcpTxWait;
  }
  if (lost) {
    tx_fill(s, now_ps, i, true, tx);
  } else {
    tcp_seg_t *g = tcp_seg_at(s, s->nxt);
    g->flags = 0;
    tx_fill(s, now_ps, s->nxt, false, tx);
    s->nxt++;
  }
  return kTcpTxSend;
}

// ---------------------------------------------------------------- ACK processing
typedef struct ack_acc {
  uint32_t acked;
  uint64_t rtt_cum_ps, rtt_sack_ps;  // newest never-retransmitted sample (0: none)
  uint64_t rtt_cum_sent, rtt_sack_sent;
  const tcp_seg_t *rs_seg;  // delivered segment sent last (the rate sample's)
  tcp_seg_t rs_copy;
} ack_acc_t;

static void on_delivered(tcp_sender_t *s, uint64_t now_ps, tcp_seg_t *g, bool cum, ack_acc_t *c) {
  s->delivered++;
  s->delivered_ps = now_ps;
  c->acked++;
  if (!(g->flags & TCP_SEG_EVER_RETRANS)) {
    uint64_t *rtt = cum ? &c->rtt_cum_ps : &c->rtt_sack_ps;
    uint64_t *sent = cum ? &c->rtt_cum_sent : &c->rtt_sack_sent;
    if (*rtt == 0 || g->sent_ps >= *sent) {
      *rtt = now_ps - g->sent_ps;
      *rtt = *rtt ? *rtt : 1;
      *sent = g->sent_ps;
    }
  }
  if (!c->rs_seg || g->delivered > c->rs_copy.delivered ||
      (g->delivered == c->rs_copy.delivered && g->sent_ps > c->rs_copy.sent_ps)) {
    c->rs_copy = *g;
    c->rs_seg = &c->rs_copy;
    s->first_sent_ps = g->sent_ps;  // tcp_rate.c: the next interval starts at this send
  }
}

static void seg_clear_counts(tcp_sender_t *s, tcp_seg_t *g) {
  if (g->flags & TCP_SEG_LOST) {
    s->lost_out--;
  }
  if (g->flags & TCP_SEG_RETRANS) {
    s->retrans_out--;
  }
  g->flags = (uint8_t)(g->flags & ~(TCP_SEG_LOST | TCP_SEG_RETRANS));
}

// Marks segments SACKed by [lo, hi); returns true if any was new.
static bool apply_sack(tcp_sender_t *s, uint64_t now_ps, uint64_t lo, uint64_t hi, ack_acc_t *c) {
  uint64_t a = (lo + s->p.mss - 1) / s->p.mss;  // first segment wholly inside
  uint64_t b = hi >= s->size ? s->nsegs : hi / s->p.mss;
  a = a < s->una ? s->una : a;
  b = b > s->nxt ? s->nxt : b;
  bool any = false;
  for (uint64_t i = a; i < b; i++) {
    tcp_seg_t *g = tcp_seg_at(s, i);
    if (g->flags & TCP_SEG_SACKED) {
      continue;
    }
    seg_clear_counts(s, g);
    g->flags |= TCP_SEG_SACKED;
    s->sacked_out++;
    on_delivered(s, now_ps, g, false, c);
    any = true;
  }
  if (b > s->high_sack && any) {
    s->high_sack = b;
  }
  return any;
}

// RFC 6675 IsLost for fixed-size segments: a segment is lost when dupthresh SACKed segments
// lie above it. The boundary (the dupthresh-th highest SACKed segment) only moves up, so every
// unSACKed segment below it is marked once. Returns the number newly marked.
static uint32_t mark_lost(tcp_sender_t *s) {
  if (s->sacked_out < s->p.dupthresh) {
    return 0;
  }
  uint64_t b = s->high_sack;
  uint32_t n = 0;
  while (b > s->una && n < s->p.dupthresh) {
    b--;
    if (tcp_seg_at(s, b)->flags & TCP_SEG_SACKED) {
      n++;
    }
  }
  if (n < s->p.dupthresh) {
    return 0;
  }
  uint32_t marked = 0;
  if (s->lost_scan < s->una) {
    s->lost_scan = s->una;
  }
  for (; s->lost_scan < b; s->lost_scan++) {
    tcp_seg_t *g = tcp_seg_at(s, s->lost_scan);
    if (!(g->flags & (TCP_SEG_SACKED | TCP_SEG_LOST))) {
      g->flags |= TCP_SEG_LOST;
      s->lost_out++;
      marked++;
    }
  }
  return marked;
}

// RFC 6298 (2.2), (2.3), (2.4).
static void rtt_sample(tcp_sender_t *s, uint64_t r) {
  if (s->srtt_ps == 0) {
    s->srtt_ps = r;
    s->rttvar_ps = r / 2;
  } else {
    uint64_t d = s->srtt_ps > r ? s->srtt_ps - r : r - s->srtt_ps;
    s->rttvar_ps = (3 * s->rttvar_ps + d) / 4;
    s->srtt_ps = (7 * s->srtt_ps + r) / 8;
  }
  uint64_t k = 4 * s->rttvar_ps;
  uint64_t rto = s->srtt_ps + (k > s->p.clock_g_ps ? k : s->p.clock_g_ps);
  rto = rto < s->p.min_rto_ps ? s->p.min_rto_ps : rto;
  s->rto_ps = rto > s->p.max_rto_ps ? s->p.max_rto_ps : rto;
  s->backoff = 0;  // Karn: a valid sample from a segment never retransmitted
}

static void enter_recovery(tcp_sender_t *s) {
  s->ca_state = kTcpRecovery;
  s->recovery_point = s->nxt;
  s->fast_retransmits++;
  if (s->p.cc == kTcpCcCubic) {
    s->prr_recover_fs = s->cwnd;  // RFC 6937 RecoverFS (Linux: the window before the cut)
    s->prr_delivered = s->prr_out = 0;
    s->ssthresh = tcp_cubic_on_loss(&s->cubic, s->cwnd);
    s->cwnd = s->ssthresh;  // RFC 6675 section 5 step (4.2); PRR shapes it per ACK
  }
  // every segment below the first SACKed one is a hole; the first is lost per (4.1)
  tcp_seg_t *g = tcp_seg_at(s, s->una);
  if (!(g->flags & (TCP_SEG_LOST | TCP_SEG_SACKED))) {
    g->flags |= TCP_SEG_LOST;
    s->lost_out++;
  }
  if (s->lost_scan <= s->una) {
    s->lost_scan = s->una + 1;
  }
}

// Proportional Rate Reduction (RFC 6937, PRR-SSRB) as Linux tcp_cwnd_reduction: during
// recovery cwnd = pipe + sndcnt, so the window falls to ssthresh over one round trip
// instead of in one step, and the retransmissions do not leave in a burst.
static void prr_on_ack(tcp_sender_t *s, uint32_t delivered) {
  s->prr_delivered += delivered;
  double pipe = (double)tcp_sender_pipe(s), snd;
  if (pipe > s->ssthresh) {
    snd = ceil(s->prr_delivered * s->ssthresh / s->prr_recover_fs) - s->prr_out;
  } else {
    double lim = s->prr_delivered - s->prr_out;
    lim = (lim > delivered ? lim : delivered) + 1.0;
    snd = s->ssthresh - pipe < lim ? s->ssthresh - pipe : lim;
  }
  snd = snd > 0.0 ? snd : 0.0;
  if (s->prr_out == 0 && snd < 1.0) {
    snd = 1.0;  // Linux: the fast retransmission leaves at once
  }
  s->cwnd = pipe + snd;
}

static void cc_on_ack(tcp_sender_t *s, uint64_t now_ps, tcp_rs_t *rs) {
  if (s->p.cc == kTcpCcBbr) {
    tcp_bbr_on_ack(&s->bbr, rs, &s->cwnd, &s->pacing_Bps, s->srtt_ps);
    if (s->cwnd > s->p.max_cwnd) {
      s->cwnd = s->p.max_cwnd;
    }
    return;
  }
  if (s->ca_state == kTcpRecovery) {
    prr_on_ack(s, rs->acked);
  } else if (rs->acked > 0) {
    if (s->cwnd < s->ssthresh) {
      // RFC 9406: HyStart++ only in the initial slow start (ssthresh still unset)
      if (s->p.hystart && s->ssthresh >= TCP_SSTHRESH_INIT) {
        double limit = s->p.pacing ? 0.0 : 8.0;  // RFC 9406 L
        tcp_hystart_on_ack(&s->cubic, &s->cwnd, &s->ssthresh, rs->acked, rs->rtt_ps, s->round_start,
                           limit);
      } else {
        s->cwnd += rs->acked;
      }
    } else {
      tcp_cubic_cong_avoid(&s->cubic, &s->cwnd, rs->acked, now_ps, s->srtt_ps);
    }
  }
  if (s->cwnd > s->p.max_cwnd) {
    s->cwnd = s->p.max_cwnd;
  }
  cubic_pacing(s);
}

static void rate_sample(const tcp_sender_t *s, uint64_t now_ps, const ack_acc_t *c, tcp_rs_t *rs) {
  if (!c->rs_seg) {
    return;
  }
  const tcp_seg_t *g = c->rs_seg;
  uint64_t snd = g->sent_ps - g->first_sent_ps;
  uint64_t ack = now_ps - g->delivered_ps;
  rs->prior_delivered = g->delivered;
  rs->delivered = s->delivered - g->delivered;
  rs->interval_ps = snd > ack ? snd : ack;
  rs->is_app_limited = (g->flags & TCP_SEG_APP_LIMITED) != 0;
  uint64_t min_rtt = s->bbr.min_rtt_ps;
  if (min_rtt != TCP_NEVER && rs->interval_ps < min_rtt) {
    rs->delivered = 0;  // tcp_rate.c: an interval shorter than min RTT is not trusted
    rs->interval_ps = 0;
  }
}

// Cumulative part: segments below the new snd_una.
static void ack_cumulative(tcp_sender_t *s, uint64_t now_ps, uint64_t new_una, ack_acc_t *c) {
  for (; s->una < new_una; s->una++) {
    tcp_seg_t *g = tcp_seg_at(s, s->una);
    if (g->flags & TCP_SEG_SACKED) {
      s->sacked_out--;
    } else {
      seg_clear_counts(s, g);
      on_delivered(s, now_ps, g, true, c);
    }
    g->flags = 0;
  }
  if (s->high_sack < s->una) {
    s->high_sack = 0;
  }
  if (s->app_limited && s->delivered > s->app_limited) {
    s->app_limited = 0;
  }
}

static void loss_state(tcp_sender_t *s, bool advanced, bool new_sack, uint32_t nsack) {
  if (s->ca_state != kTcpOpen && s->una >= s->recovery_point) {
    if (s->ca_state == kTcpRecovery && s->p.cc == kTcpCcCubic) {
      s->cwnd = s->ssthresh;  // RFC 6675 / RFC 5681: deflate to ssthresh at the exit
    }
    s->ca_state = kTcpOpen;
    s->dupacks = 0;
  }
  if (advanced) {
    s->dupacks = 0;
  } else if (s->nxt > s->una && (new_sack || nsack == 0)) {
    s->dupacks++;  // RFC 6675 section 2: a duplicate ACK carries new SACK information
  }
  if (s->ca_state == kTcpOpen && s->una < s->nxt) {
    bool head_lost = s->lost_scan > s->una && (tcp_seg_at(s, s->una)->flags & TCP_SEG_LOST);
    if (s->dupacks >= s->p.dupthresh || head_lost) {
      enter_recovery(s);
    }
  }
}

void tcp_sender_on_ack(tcp_sender_t *s, uint64_t now_ps, const tcp_ack_t *a) {
  if (a->ack > (s->nxt ? seg_hi(s, s->nxt - 1) : 0)) {
    s->spurious_sack_ignored++;  // acknowledges data never sent
    return;
  }
  uint32_t prior_pipe = tcp_sender_pipe(s);
  uint64_t prior_lost = s->lost_out;
  ack_acc_t c = {0};
  uint64_t new_una = a->ack >= s->size ? s->nsegs : a->ack / s->p.mss;
  bool advanced = new_una > s->una;
  s->rwnd = a->wnd;
  bool new_sack = false;
  for (uint32_t k = 0; k < a->nsack && k < TCP_MAX_SACK; k++) {
    if (a->sack[k][1] > a->sack[k][0] && a->sack[k][0] >= a->ack) {
      new_sack |= apply_sack(s, now_ps, a->sack[k][0], a->sack[k][1], &c);
    }
  }
  ack_cumulative(s, now_ps, new_una, &c);
  uint64_t rtt = c.rtt_cum_ps ? c.rtt_cum_ps : c.rtt_sack_ps;
  if (rtt) {
    rtt_sample(s, rtt);
  }
  uint32_t newly_lost = mark_lost(s);
  loss_state(s, advanced, new_sack, a->nsack);
  tcp_rs_t rs = {.now_ps = now_ps,
                 .tp_delivered = s->delivered,
                 .rtt_ps = rtt,
                 .acked = c.acked,
                 .prior_in_flight = prior_pipe,
                 .in_flight = tcp_sender_pipe(s),
                 .ca_state = s->ca_state};
  rs.losses = (uint32_t)(s->lost_out > prior_lost ? s->lost_out - prior_lost : 0);
  rs.losses = rs.losses > newly_lost ? rs.losses : newly_lost;
  rate_sample(s, now_ps, &c, &rs);
  s->round_start = c.rs_seg && c.rs_copy.delivered >= s->next_round_delivered;
  if (s->round_start) {
    s->next_round_delivered = s->delivered;
    s->round_count++;
  }
  cc_on_ack(s, now_ps, &rs);
  if (s->una >= s->nsegs) {
    s->rto_deadline_ps = TCP_NEVER;  // RFC 6298 (5.2)
    if (s->done_ps == TCP_NEVER) {
      s->done_ps = now_ps;
    }
  } else if (advanced) {
    s->rto_deadline_ps = now_ps + tcp_sender_rto(s);  // (5.3)
  }
}

// RFC 6298 (5.4)-(5.6); the scoreboard after RFC 6675 section 5.1 and Linux tcp_enter_loss:
// every unSACKed segment in flight is lost, no retransmission is in flight.
bool tcp_sender_on_timer(tcp_sender_t *s, uint64_t now_ps) {
  if (s->rto_deadline_ps == TCP_NEVER || now_ps < s->rto_deadline_ps || s->una >= s->nsegs) {
    return false;
  }
  if (s->p.cc == kTcpCcBbr) {
    tcp_bbr_on_rto(&s->bbr, s->cwnd);
  } else if (s->ca_state == kTcpOpen) {  // Linux tcp_enter_loss: not again within recovery
    s->ssthresh = tcp_cubic_on_loss(&s->cubic, s->cwnd);
  }
  s->cwnd = 1.0;
  for (uint64_t i = s->una; i < s->nxt; i++) {
    tcp_seg_t *g = tcp_seg_at(s, i);
    g->flags = (uint8_t)(g->flags & ~TCP_SEG_RETRANS);
    if (!(g->flags & (TCP_SEG_SACKED | TCP_SEG_LOST))) {
      g->flags |= TCP_SEG_LOST;
      s->lost_out++;
    }
  }
  s->retrans_out = 0;
  s->lost_scan = s->nxt;
  s->rtx_scan = s->una;
  s->recovery_point = s->nxt;
  s->ca_state = kTcpLoss;
  s->dupacks = 0;
  s->rto_count++;
  s->backoff++;                                     // (5.5)
  s->rto_deadline_ps = now_ps + tcp_sender_rto(s);  // (5.6)
  s->next_send_ps = now_ps;                         // the retransmission is not held back by pacing
  return true;
}

// ---------------------------------------------------------------- receiver
const char *tcp_receiver_init(tcp_receiver_t *r, const tcp_params_t *p) {
  memset(r, 0, sizeof(*r));
  const char *err = tcp_params_check(p);
  if (err) {
    return err;
  }
  r->p = *p;
  r->delack_deadline_ps = TCP_NEVER;
  // every range holds at least one whole segment inside the window (only the transfer's last
  // one is shorter), and a gap of at least one separates two
  r->max_ranges = (uint32_t)(p->rcv_buf_bytes / p->mss / 2 + 2);
  r->lo = calloc(r->max_ranges, sizeof(*r->lo));
  r->hi = calloc(r->max_ranges, sizeof(*r->hi));
  if (!r->lo || !r->hi) {
    tcp_receiver_free(r);
    return "out of memory for the TCP receiver";
  }
  return NULL;
}

void tcp_receiver_free(tcp_receiver_t *r) {
  free(r->lo);
  free(r->hi);
  r->lo = r->hi = NULL;
}

// SACK blocks (RFC 2018 section 4): the first holds the most recent segment, then the others
// from the highest down (RFC 2018 asks for the most recently reported ones; deviation noted in
// docs/netsim.md).
static void make_ack(tcp_receiver_t *r, tcp_ack_t *a) {
  a->ack = r->rcv_nxt;
  a->wnd = r->p.rcv_buf_bytes;
  a->nsack = 0;
  int first = -1;
  for (uint32_t i = 0; i < r->nranges; i++) {
    if (r->lo[i] == r->last_lo) {
      first = (int)i;
    }
  }
  if (first >= 0) {
    a->sack[0][0] = r->lo[first];
    a->sack[0][1] = r->hi[first];
    a->nsack = 1;
  }
  for (int i = (int)r->nranges - 1; i >= 0 && a->nsack < TCP_MAX_SACK; i--) {
    if (i != first) {
      a->sack[a->nsack][0] = r->lo[i];
      a->sack[a->nsack][1] = r->hi[i];
      a->nsack++;
    }
  }
  r->unacked = 0;
  r->delack_deadline_ps = TCP_NEVER;
  r->acks++;
}

// Inserts [lo, hi) into the sorted out-of-order ranges, merging neighbours. False if full.
static bool ooo_insert(tcp_receiver_t *r, uint64_t lo, uint64_t hi) {
  uint32_t i = 0;
  while (i < r->nranges && r->hi[i] < lo) {
    i++;
  }
  if (i < r->nranges && r->lo[i] <= hi) {  // overlaps or touches range i: grow it
    r->lo[i] = lo < r->lo[i] ? lo : r->lo[i];
    r->hi[i] = hi > r->hi[i] ? hi : r->hi[i];
    while (i + 1 < r->nranges && r->lo[i + 1] <= r->hi[i]) {
      r->hi[i] = r->hi[i + 1] > r->hi[i] ? r->hi[i + 1] : r->hi[i];
      memmove(&r->lo[i + 1], &r->lo[i + 2], (r->nranges - i - 2) * sizeof(r->lo[0]));
      memmove(&r->hi[i + 1], &r->hi[i + 2], (r->nranges - i - 2) * sizeof(r->hi[0]));
      r->nranges--;
    }
    r->last_lo = r->lo[i];
    return true;
  }
  if (r->nranges == r->max_ranges) {
    return false;
  }
  memmove(&r->lo[i + 1], &r->lo[i], (r->nranges - i) * sizeof(r->lo[0]));
  memmove(&r->hi[i + 1], &r->hi[i], (r->nranges - i) * sizeof(r->hi[0]));
  r->lo[i] = lo;
  r->hi[i] = hi;
  r->nranges++;
  r->last_lo = lo;
  return true;
}

// rcv_nxt moved: absorb the ranges it reached. Returns true if a hole was filled.
static bool ooo_absorb(tcp_receiver_t *r) {
  uint32_t k = 0;
  while (k < r->nranges && r->lo[k] <= r->rcv_nxt) {
    r->rcv_nxt = r->hi[k] > r->rcv_nxt ? r->hi[k] : r->rcv_nxt;
    k++;
  }
  if (k == 0) {
    return false;
  }
  memmove(&r->lo[0], &r->lo[k], (r->nranges - k) * sizeof(r->lo[0]));
  memmove(&r->hi[0], &r->hi[k], (r->nranges - k) * sizeof(r->hi[0]));
  r->nranges -= k;
  return true;
}

bool tcp_receiver_on_data(tcp_receiver_t *r, uint64_t now_ps, uint64_t seq, uint32_t len,
                          tcp_ack_t *a) {
  r->segs++;
  uint64_t end = seq + len;
  if (end <= r->rcv_nxt) {
    r->dup_segs++;
    make_ack(r, a);  // RFC 5681 4.2: a duplicate segment is acknowledged at once
    return true;
  }
  if (end > r->rcv_nxt + r->p.rcv_buf_bytes) {
    r->dropped_segs++;  // beyond the advertised window
    make_ack(r, a);
    return true;
  }
  if (seq > r->rcv_nxt) {
    r->ooo_segs++;
    if (!ooo_insert(r, seq, end)) {
      r->dropped_segs++;
    }
    make_ack(r, a);  // out of order: immediate ACK with SACK (RFC 5681 4.2)
    return true;
  }
  bool had_holes = r->nranges > 0;
  r->rcv_nxt = end;
  ooo_absorb(r);
  r->unacked++;
  if (!r->p.delayed_ack || had_holes || r->unacked >= 2) {
    make_ack(r, a);  // in order: every second full segment, or a filled hole at once
    return true;
  }
  if (r->delack_deadline_ps == TCP_NEVER) {
    r->delack_deadline_ps = now_ps + r->p.delack_ps;
  }
  return false;
}

bool tcp_receiver_on_timer(tcp_receiver_t *r, uint64_t now_ps, tcp_ack_t *a) {
  if (r->delack_deadline_ps == TCP_NEVER || now_ps < r->delack_deadline_ps) {
    return false;
  }
  make_ack(r, a);
  return true;
}
