// SPDX-License-Identifier: Apache-2.0
//
// Congestion controls of the netsim TCP (docs/netsim.md "TCP transport"): CUBIC after
// RFC 9438 with HyStart++ after RFC 9406, and BBRv1 after
// draft-cardwell-iccrg-bbr-congestion-control-00 and Linux net/ipv4/tcp_bbr.c (v1). Written
// from the documents' text; windows in segments, time in picoseconds.

#include <math.h>

#include "sim/netsim/tcp.h"

#define PS_TO_S(x) ((double)(x) / (double)TCP_PS_PER_S)

// ---------------------------------------------------------------- CUBIC (RFC 9438)
double tcp_cubic_k(double w_max, double cwnd_epoch) {
  if (cwnd_epoch >= w_max) {
    return 0.0;
  }
  return cbrt((w_max - cwnd_epoch) / TCP_CUBIC_C);
}

double tcp_cubic_w(double t_s, double k_s, double w_max) {
  double d = t_s - k_s;
  return TCP_CUBIC_C * d * d * d + w_max;
}

void tcp_cubic_init(tcp_cubic_t *c) {
  *c = (tcp_cubic_t){0};
  c->epoch_ps = TCP_NEVER;
  c->cur_round_min_ps = TCP_NEVER;
  c->last_round_min_ps = TCP_NEVER;
  c->css_baseline_ps = TCP_NEVER;
}

// RFC 9438 4.6 (multiplicative decrease) and 4.7 (fast convergence).
double tcp_cubic_on_loss(tcp_cubic_t *c, double cwnd) {
  if (cwnd < c->w_max) {
    c->w_max = cwnd * (1.0 + TCP_CUBIC_BETA) / 2.0;
  } else {
    c->w_max = cwnd;
  }
  c->epoch_ps = TCP_NEVER;
  c->css = false;
  double ss = cwnd * TCP_CUBIC_BETA;
  return ss < 2.0 ? 2.0 : ss;
}

// RFC 9438 4.2 to 4.5: the epoch starts at the first ACK in congestion avoidance; the target
// is W_cubic(t + RTT) clamped to [cwnd, 1.5 cwnd]; the Reno-friendly estimate W_est grows by
// alpha_cubic per window (1 once it passes W_max) and wins when W_cubic(t) is below it.
void tcp_cubic_cong_avoid(tcp_cubic_t *c, double *cwnd, double acked, uint64_t now_ps,
                          uint64_t srtt_ps) {
  double w = *cwnd;
  if (c->epoch_ps == TCP_NEVER) {
    c->epoch_ps = now_ps;
    c->cwnd_epoch = w;
    if (w < c->w_max) {
      c->k_s = tcp_cubic_k(c->w_max, w);
    } else {
      c->k_s = 0.0;
      c->w_max = w;  // RFC 9438 4.8 / 4.10: no reduction known, the curve starts here
    }
    c->w_est = w;
  }
  double t = PS_TO_S(now_ps - c->epoch_ps);
  double alpha = c->w_est >= c->w_max ? 1.0 : 3.0 * (1.0 - TCP_CUBIC_BETA) / (1.0 + TCP_CUBIC_BETA);
  c->w_est += alpha * acked / w;
  double target = tcp_cubic_w(t + PS_TO_S(srtt_ps), c->k_s, c->w_max);
  if (target < w) {
    target = w;
  } else if (target > 1.5 * w) {
    target = 1.5 * w;
  }
  if (tcp_cubic_w(t, c->k_s, c->w_max) < c->w_est) {
    *cwnd = c->w_est > w ? c->w_est : w;  // Reno-friendly region
  } else {
    *cwnd = w + (target - w) / w * acked;  // concave or convex region
  }
}

// RFC 9406 constants.
#define HS_MIN_RTT_THRESH_PS (4ull * TCP_PS_PER_MS)
#define HS_MAX_RTT_THRESH_PS (16ull * TCP_PS_PER_MS)
#define HS_MIN_RTT_DIVISOR 8
#define HS_N_RTT_SAMPLE 8
#define HS_CSS_GROWTH_DIVISOR 4.0
#define HS_CSS_ROUNDS 5

static void hs_new_round(tcp_cubic_t *c) {
  c->last_round_min_ps = c->cur_round_min_ps;
  c->cur_round_min_ps = TCP_NEVER;
  c->rtt_samples = 0;
}

void tcp_hystart_on_ack(tcp_cubic_t *c, double *cwnd, double *ssthresh, double acked,
                        uint64_t rtt_ps, bool round_start, double limit) {
  if (round_start) {
    hs_new_round(c);
    if (c->css && ++c->css_rounds >= HS_CSS_ROUNDS) {
      *ssthresh = *cwnd;  // RFC 9406 4.2: CSS_ROUNDS rounds in CSS: enter congestion avoidance
      c->css = false;
      c->hystart_exits++;
      return;
    }
  }
  double inc = limit > 0.0 && acked > limit ? limit : acked;
  *cwnd += c->css ? inc / HS_CSS_GROWTH_DIVISOR : inc;
  if (rtt_ps == 0) {
    return;
  }
  if (rtt_ps < c->cur_round_min_ps) {
    c->cur_round_min_ps = rtt_ps;
  }
  c->rtt_samples++;
  if (c->rtt_samples < HS_N_RTT_SAMPLE || c->cur_round_min_ps == TCP_NEVER ||
      c->last_round_min_ps == TCP_NEVER) {
    return;
  }
  if (!c->css) {
    uint64_t thr = c->last_round_min_ps / HS_MIN_RTT_DIVISOR;
    thr = thr < HS_MIN_RTT_THRESH_PS ? HS_MIN_RTT_THRESH_PS : thr;
    thr = thr > HS_MAX_RTT_THRESH_PS ? HS_MAX_RTT_THRESH_PS : thr;
    if (c->cur_round_min_ps >= c->last_round_min_ps + thr) {
      c->css = true;
      c->hystart_css++;
      c->css_rounds = 0;
      c->css_baseline_ps = c->cur_round_min_ps;
    }
  } else if (c->cur_round_min_ps < c->css_baseline_ps) {
    c->css = false;  // the delay increase was spurious: back to slow start
    c->css_baseline_ps = TCP_NEVER;
  }
}

// ---------------------------------------------------------------- BBRv1
const double tcp_bbr_pacing_gain[TCP_BBR_CYCLE_LEN] = {1.25, 0.75, 1, 1, 1, 1, 1, 1};

#define BBR_DRAIN_GAIN (1.0 / TCP_BBR_HIGH_GAIN)
#define BBR_CWND_GAIN 2.0
#define BBR_FULL_BW_THRESH 1.25
#define BBR_FULL_BW_CNT 3
#define BBR_PACING_MARGIN 0.99  // Linux bbr_pacing_margin_percent = 1
#define BBR_QUANTUM_SEGS 3.0    // Linux adds 3 x TSO goal; one segment per send here

static uint32_t bbr_rand(tcp_bbr_t *b) {  // xorshift32
  uint32_t x = b->rng;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  b->rng = x;
  return x;
}

void tcp_bbr_init(tcp_bbr_t *b, uint32_t mss, uint32_t init_cwnd, uint32_t seed) {
  *b = (tcp_bbr_t){0};
  b->mss = mss;
  b->init_cwnd = init_cwnd;
  b->rng = seed ? seed : 0x9e3779b9u;
  b->min_rtt_ps = TCP_NEVER;
  b->mode = kBbrStartup;
  b->pacing_gain = TCP_BBR_HIGH_GAIN;
  b->cwnd_gain = TCP_BBR_HIGH_GAIN;
  b->prev_ca_state = kTcpOpen;
}

double tcp_bbr_max_bw(const tcp_bbr_t *b) {
  double m = 0.0;
  for (int i = 0; i < TCP_BBR_BW_RTTS; i++) {
    m = b->bw_round[i] > m ? b->bw_round[i] : m;
  }
  return m;
}

double tcp_bbr_bdp(const tcp_bbr_t *b, double bw, double gain) {
  if (b->min_rtt_ps == TCP_NEVER) {
    return (double)b->init_cwnd;
  }
  return ceil(bw * PS_TO_S(b->min_rtt_ps) * gain);
}

// Linux bbr_inflight: BDP x gain plus the quantization budget, rounded up to even, plus 2 in
// the 5/4 phase.
static double bbr_inflight(const tcp_bbr_t *b, double bw, double gain) {
  double w = tcp_bbr_bdp(b, bw, gain) + BBR_QUANTUM_SEGS;
  w = 2.0 * ceil(w / 2.0);
  if (b->mode == kBbrProbeBw && b->cycle_idx == 0) {
    w += 2.0;
  }
  return w;
}

static void bbr_update_gains(tcp_bbr_t *b) {
  switch (b->mode) {
    case kBbrStartup:
      b->pacing_gain = TCP_BBR_HIGH_GAIN;
      b->cwnd_gain = TCP_BBR_HIGH_GAIN;
      break;
    case kBbrDrain:
      b->pacing_gain = BBR_DRAIN_GAIN;
      b->cwnd_gain = TCP_BBR_HIGH_GAIN;
      break;
    case kBbrProbeBw:
      b->pacing_gain = tcp_bbr_pacing_gain[b->cycle_idx];
      b->cwnd_gain = BBR_CWND_GAIN;
      break;
    case kBbrProbeRtt:
      b->pacing_gain = 1.0;
      b->cwnd_gain = 1.0;
      break;
  }
}

static void bbr_advance_cycle(tcp_bbr_t *b, uint64_t now_ps) {
  b->cycle_idx = (b->cycle_idx + 1) % TCP_BBR_CYCLE_LEN;
  b->cycle_stamp_ps = now_ps;
}

// Linux bbr_reset_probe_bw_mode: a random phase other than 3/4, then the next one.
static void bbr_enter_probe_bw(tcp_bbr_t *b, uint64_t now_ps) {
  b->mode = kBbrProbeBw;
  b->cycle_idx = TCP_BBR_CYCLE_LEN - 1 - bbr_rand(b) % (TCP_BBR_CYCLE_LEN - 1);
  bbr_advance_cycle(b, now_ps);
}

static void bbr_reset_mode(tcp_bbr_t *b, uint64_t now_ps) {
  if (!b->full_bw_reached) {
    b->mode = kBbrStartup;
  } else {
    bbr_enter_probe_bw(b, now_ps);
  }
}

static void bbr_save_cwnd(tcp_bbr_t *b, double cwnd) {
  if (b->prev_ca_state < kTcpRecovery && b->mode != kBbrProbeRtt) {
    b->prior_cwnd = cwnd;
  } else if (cwnd > b->prior_cwnd) {
    b->prior_cwnd = cwnd;
  }
}

static void bbr_update_bw(tcp_bbr_t *b, const tcp_rs_t *rs) {
  b->round_start = false;
  if (rs->delivered == 0 || rs->interval_ps == 0) {
    return;
  }
  if (rs->prior_delivered >= b->next_rtt_delivered) {
    b->next_rtt_delivered = rs->tp_delivered;
    b->round_count++;
    b->round_start = true;
    b->packet_conservation = false;
    b->bw_round[b->round_count % TCP_BBR_BW_RTTS] = 0.0;
  }
  double bw = (double)rs->delivered / PS_TO_S(rs->interval_ps);
  double *slot = &b->bw_round[b->round_count % TCP_BBR_BW_RTTS];
  if ((!rs->is_app_limited || bw >= tcp_bbr_max_bw(b)) && bw > *slot) {
    *slot = bw;
  }
}

static bool bbr_is_next_cycle_phase(const tcp_bbr_t *b, const tcp_rs_t *rs) {
  bool full_length = rs->now_ps - b->cycle_stamp_ps > b->min_rtt_ps;
  if (b->pacing_gain == 1.0) {
    return full_length;
  }
  double inflight = (double)rs->prior_in_flight;
  double bw = tcp_bbr_max_bw(b);
  if (b->pacing_gain > 1.0) {
    return full_length && (rs->losses > 0 || inflight >= bbr_inflight(b, bw, b->pacing_gain));
  }
  return full_length || inflight <= bbr_inflight(b, bw, 1.0);
}

static void bbr_check_full_bw(tcp_bbr_t *b, const tcp_rs_t *rs) {
  if (b->full_bw_reached || !b->round_start || rs->is_app_limited) {
    return;
  }
  double bw = tcp_bbr_max_bw(b);
  if (bw >= b->full_bw * BBR_FULL_BW_THRESH) {
    b->full_bw = bw;
    b->full_bw_cnt = 0;
    return;
  }
  b->full_bw_reached = ++b->full_bw_cnt >= BBR_FULL_BW_CNT;
}

static void bbr_update_min_rtt(tcp_bbr_t *b, const tcp_rs_t *rs, double *cwnd) {
  bool expired = rs->now_ps > b->min_rtt_stamp_ps + TCP_BBR_MIN_RTT_WIN_PS;
  if (rs->rtt_ps > 0 && (rs->rtt_ps < b->min_rtt_ps || expired)) {
    b->min_rtt_ps = rs->rtt_ps;
    b->min_rtt_stamp_ps = rs->now_ps;
  }
  if (expired && b->mode != kBbrProbeRtt) {
    b->mode = kBbrProbeRtt;
    b->probe_rtts++;
    bbr_save_cwnd(b, *cwnd);
    b->probe_rtt_done_ps = 0;
  }
  if (b->mode != kBbrProbeRtt) {
    return;
  }
  if (b->probe_rtt_done_ps == 0 && rs->in_flight <= TCP_BBR_CWND_MIN) {
    b->probe_rtt_done_ps = rs->now_ps + TCP_BBR_PROBE_RTT_PS;
    b->probe_rtt_round_done = false;
    b->next_rtt_delivered = rs->tp_delivered;
  } else if (b->probe_rtt_done_ps != 0) {
    if (b->round_start) {
      b->probe_rtt_round_done = true;
    }
    if (b->probe_rtt_round_done && rs->now_ps > b->probe_rtt_done_ps) {
      b->min_rtt_stamp_ps = rs->now_ps;
      if (b->prior_cwnd > *cwnd) {
        *cwnd = b->prior_cwnd;
      }
      bbr_reset_mode(b, rs->now_ps);
    }
  }
}

// Linux bbr_set_cwnd_to_recover_or_restore: packet conservation for the first round of
// recovery, the saved window back when recovery ends.
static bool bbr_recover_or_restore(tcp_bbr_t *b, const tcp_rs_t *rs, double *cwnd) {
  tcp_ca_state_t prev = b->prev_ca_state, st = rs->ca_state;
  double w = *cwnd;
  double floor_w = (double)rs->in_flight + (double)rs->acked;
  if (rs->losses > 0) {
    w = w - rs->losses > 1.0 ? w - rs->losses : 1.0;
  }
  if (st == kTcpRecovery && prev != kTcpRecovery) {
    bbr_save_cwnd(b, *cwnd);
    b->packet_conservation = true;
    b->next_rtt_delivered = rs->tp_delivered;
    w = floor_w;
  } else if (prev >= kTcpRecovery && st < kTcpRecovery) {
    w = w > b->prior_cwnd ? w : b->prior_cwnd;
    b->packet_conservation = false;
  }
  b->prev_ca_state = st;
  if (b->packet_conservation) {
    *cwnd = w > floor_w ? w : floor_w;
    return true;
  }
  *cwnd = w;
  return false;
}

static void bbr_set_cwnd(tcp_bbr_t *b, const tcp_rs_t *rs, double *cwnd) {
  if (rs->acked > 0 && !bbr_recover_or_restore(b, rs, cwnd)) {
    double target = bbr_inflight(b, tcp_bbr_max_bw(b), b->cwnd_gain);
    double w = *cwnd + rs->acked;
    if (b->full_bw_reached) {
      *cwnd = w < target ? w : target;
    } else if (*cwnd < target || rs->tp_delivered < b->init_cwnd) {
      *cwnd = w;
    }
    if (*cwnd < TCP_BBR_CWND_MIN) {
      *cwnd = TCP_BBR_CWND_MIN;
    }
  }
  if (b->mode == kBbrProbeRtt && *cwnd > TCP_BBR_CWND_MIN) {
    *cwnd = TCP_BBR_CWND_MIN;
  }
}

static void bbr_set_pacing(tcp_bbr_t *b, double *pacing_Bps, uint64_t srtt_ps) {
  if (!b->has_pacing_rate) {
    // Linux bbr_init_pacing_rate_from_rtt: high_gain x init_cwnd / RTT (1 ms if unknown)
    double rtt = srtt_ps ? PS_TO_S(srtt_ps) : 1e-3;
    *pacing_Bps = TCP_BBR_HIGH_GAIN * b->init_cwnd / rtt * b->mss * BBR_PACING_MARGIN;
    b->has_pacing_rate = srtt_ps != 0;
  }
  double rate = b->pacing_gain * tcp_bbr_max_bw(b) * b->mss * BBR_PACING_MARGIN;
  if (rate > 0.0 && (b->full_bw_reached || rate > *pacing_Bps)) {
    *pacing_Bps = rate;
  }
}

void tcp_bbr_on_ack(tcp_bbr_t *b, const tcp_rs_t *rs, double *cwnd, double *pacing_Bps,
                    uint64_t srtt_ps) {
  bbr_update_bw(b, rs);
  if (b->mode == kBbrProbeBw && bbr_is_next_cycle_phase(b, rs)) {
    bbr_advance_cycle(b, rs->now_ps);
  }
  bbr_check_full_bw(b, rs);
  if (b->mode == kBbrStartup && b->full_bw_reached) {
    b->mode = kBbrDrain;
  }
  if (b->mode == kBbrDrain && (double)rs->in_flight <= bbr_inflight(b, tcp_bbr_max_bw(b), 1.0)) {
    bbr_enter_probe_bw(b, rs->now_ps);
  }
  bbr_update_min_rtt(b, rs, cwnd);
  bbr_update_gains(b);
  bbr_set_pacing(b, pacing_Bps, srtt_ps);
  bbr_set_cwnd(b, rs, cwnd);
}

void tcp_bbr_on_rto(tcp_bbr_t *b, double cwnd) {
  bbr_save_cwnd(b, cwnd);
  b->prev_ca_state = kTcpLoss;
  b->full_bw = 0.0;
  b->round_start = true;
}
