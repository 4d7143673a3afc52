// SPDX-License-Identifier: Apache-2.0
//
// TCP transport of xtm-netsim (docs/netsim.md "TCP transport"): a sender and a receiver as
// state machines with picosecond time, fed ACKs, data segments and timer expiries, returning
// what to send and when. They know nothing of the simulator, so the Check suite
// (sim/netsim/tests/test_tcp.c) drives them with scripted ACK sequences.
//
// Sender: byte sequence numbers (64-bit, initial sequence number 0, so no wrap), segments of
// `mss` payload bytes (the last one shorter), cumulative ACK with SACK and the RFC 6675
// scoreboard (IsLost, pipe, NextSeg rules 1 and 2), fast retransmit and recovery, the RFC 6298
// retransmission timer (SRTT/RTTVAR, minimum RTO a parameter, exponential backoff), the
// receive window, pacing like Linux tc-fq (a segment may leave once the previous one's wire
// length at the pacing rate has elapsed), congestion control CUBIC (RFC 9438, HyStart++ of
// RFC 9406 off or on) or BBRv1 (draft-cardwell-iccrg-bbr-congestion-control-00, Linux
// tcp_bbr.c). Windows are counted in segments, like Linux and both RFCs.
// Receiver: cumulative ACK, up to three SACK blocks, delayed ACK off or on, a fixed window.
//
// tcp_sender_init and tcp_receiver_init allocate (the scoreboard ring, the receiver's
// out-of-order ranges); nothing else does.

#ifndef XTM_SIM_NETSIM_TCP_H_
#define XTM_SIM_NETSIM_TCP_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_PS_PER_MS 1000000000ull
#define TCP_PS_PER_S 1000000000000ull
#define TCP_NEVER UINT64_MAX
#define TCP_MAX_SACK 3  // SACK blocks per ACK (RFC 2018 with the timestamp option)
#define TCP_BBR_CYCLE_LEN 8
#define TCP_BBR_BW_RTTS 10  // the max-bandwidth filter's window in round trips
#define TCP_SSTHRESH_INIT 1e18

typedef enum tcp_cc_kind {
  kTcpCcCubic = 0,
  kTcpCcBbr = 1,
} tcp_cc_kind_t;

typedef enum tcp_ca_state {
  kTcpOpen = 0,      // no loss being repaired
  kTcpRecovery = 1,  // fast recovery (RFC 6675) until snd_una passes the recovery point
  kTcpLoss = 2,      // after a retransmission timeout, until the recovery point
} tcp_ca_state_t;

typedef struct tcp_params {
  uint32_t mss;            // payload bytes per segment (1448, or 8948 for 9000-byte jumbo MTU)
  uint32_t hdr_bytes;      // header bytes per segment on the wire (pacing counts mss + hdr)
  uint32_t init_cwnd;      // segments (RFC 6928: 10)
  uint32_t max_cwnd;       // segments: the window clamp and the scoreboard ring's size
  uint32_t dupthresh;      // RFC 6675 DupThresh (3)
  uint64_t min_rto_ps;     // RFC 6298 (2.4) says 1 s; Linux uses 200 ms
  uint64_t max_rto_ps;     // RFC 6298 (2.5): at least 60 s
  uint64_t init_rto_ps;    // RFC 6298 (2.1): 1 s
  uint64_t clock_g_ps;     // RFC 6298 clock granularity G
  tcp_cc_kind_t cc;        // congestion control
  bool hystart;            // CUBIC: HyStart++ (RFC 9406) in slow start
  bool pacing;             // tc-fq-like pacing at the rate the CC gives
  double max_pacing_Bps;   // tc-fq maxrate / SO_MAX_PACING_RATE: a cap on the pacing rate,
                           // bytes/s of (len + hdr_bytes) (0: none; needs pacing)
  uint32_t seed;           // BBR's random start phase of the gain cycle
  uint64_t rcv_buf_bytes;  // receiver: the advertised window (the application reads at once)
  bool delayed_ack;        // receiver: ACK every second full segment or at delack_ps
  uint64_t delack_ps;      // receiver: delayed-ACK timeout (Linux's minimum: 40 ms)
} tcp_params_t;

// Defaults: mss 1448, hdr 52 + 38 Ethernet, init_cwnd 10, max_cwnd 65536, dupthresh 3, min RTO
// 200 ms, max RTO 60 s, initial RTO 1 s, G 1 us, CUBIC with HyStart++, pacing on, 16 MB
// receive buffer, delayed ACK off, 40 ms delack.
void tcp_params_default(tcp_params_t *p);
// NULL when valid, else a static message naming the bad field.
const char *tcp_params_check(const tcp_params_t *p);

// ---------------------------------------------------------------- congestion control
// CUBIC state (RFC 9438). Times in seconds as doubles inside the formulas.
typedef struct tcp_cubic {
  double w_max;       // segments, window before the last reduction
  double cwnd_epoch;  // cwnd when the congestion-avoidance epoch began
  double k_s;         // RFC 9438 eq. 2
  double w_est;       // Reno-friendly estimate (RFC 9438 4.3)
  uint64_t epoch_ps;  // start of the epoch; TCP_NEVER: not started
  // HyStart++ (RFC 9406)
  bool css;                    // in conservative slow start
  uint32_t css_rounds;         // rounds spent in CSS
  uint32_t rtt_samples;        // this round
  uint64_t cur_round_min_ps;   // TCP_NEVER: none
  uint64_t last_round_min_ps;  // TCP_NEVER: none
  uint64_t css_baseline_ps;
  uint32_t hystart_css;    // times HyStart++ entered conservative slow start
  uint32_t hystart_exits;  // times HyStart++ ended slow start (CSS_ROUNDS in CSS)
} tcp_cubic_t;

#define TCP_CUBIC_C 0.4
#define TCP_CUBIC_BETA 0.7

// RFC 9438 eq. 2: K = cbrt((w_max - cwnd_epoch) / C), seconds (0 when cwnd_epoch >= w_max).
double tcp_cubic_k(double w_max, double cwnd_epoch);
// RFC 9438 eq. 1: W_cubic(t) = C (t - K)^3 + W_max, t in seconds since the epoch.
double tcp_cubic_w(double t_s, double k_s, double w_max);
void tcp_cubic_init(tcp_cubic_t *c);
// A congestion event (fast retransmit or RTO) at window `cwnd`: returns the new ssthresh
// (cwnd x beta, at least 2) and updates W_max with fast convergence.
double tcp_cubic_on_loss(tcp_cubic_t *c, double cwnd);
// Congestion avoidance on an ACK of `acked` segments at `now_ps` with smoothed RTT srtt_ps.
void tcp_cubic_cong_avoid(tcp_cubic_t *c, double *cwnd, double acked, uint64_t now_ps,
                          uint64_t srtt_ps);
// HyStart++ in slow start: one ACK of `acked` segments; `rtt_ps` a sample or 0; round_start
// when this ACK begins a new round. Raises *cwnd; sets *ssthresh = *cwnd when CSS ends.
// `limit` is L of RFC 9406 (8 unpaced, 0 for no limit when paced).
void tcp_hystart_on_ack(tcp_cubic_t *c, double *cwnd, double *ssthresh, double acked,
                        uint64_t rtt_ps, bool round_start, double limit);

typedef enum tcp_bbr_mode {
  kBbrStartup = 0,
  kBbrDrain = 1,
  kBbrProbeBw = 2,
  kBbrProbeRtt = 3,
} tcp_bbr_mode_t;

// Rate sample and ACK summary handed to BBR (draft-cheng-iccrg-delivery-rate-estimation).
typedef struct tcp_rs {
  uint64_t now_ps;
  uint64_t delivered;        // segments delivered over the sample's interval (0: no sample)
  uint64_t interval_ps;      // max(send elapsed, ack elapsed)
  uint64_t prior_delivered;  // the sender's delivered count when the sampled segment left
  uint64_t tp_delivered;     // the sender's delivered count now
  uint64_t rtt_ps;           // 0: no RTT sample on this ACK
  uint32_t acked;            // segments newly delivered (cumulatively or by SACK)
  uint32_t losses;           // segments newly marked lost
  uint32_t prior_in_flight;  // pipe before this ACK
  uint32_t in_flight;        // pipe after it
  bool is_app_limited;
  tcp_ca_state_t ca_state;
} tcp_rs_t;

typedef struct tcp_bbr {
  tcp_bbr_mode_t mode;
  double pacing_gain, cwnd_gain;
  // max-bandwidth filter: per-round maxima of the last TCP_BBR_BW_RTTS rounds (segments/s)
  double bw_round[TCP_BBR_BW_RTTS];
  uint64_t round_count;
  uint64_t next_rtt_delivered;
  bool round_start;
  uint64_t min_rtt_ps;  // TCP_NEVER until the first sample
  uint64_t min_rtt_stamp_ps;
  uint64_t probe_rtt_done_ps;  // 0: not yet armed
  bool probe_rtt_round_done;
  double prior_cwnd;
  bool packet_conservation;
  tcp_ca_state_t prev_ca_state;
  bool full_bw_reached;
  double full_bw;
  uint32_t full_bw_cnt;
  uint32_t cycle_idx;
  uint64_t cycle_stamp_ps;
  uint32_t rng;
  double mss;  // payload bytes (pacing rate in bytes/s = segments/s x mss)
  uint32_t init_cwnd;
  bool has_pacing_rate;
  uint32_t probe_rtts;  // times PROBE_RTT was entered
} tcp_bbr_t;

// Linux tcp_bbr.c v1 constants.
#define TCP_BBR_HIGH_GAIN 2.885  // 2/ln(2), rounded as Linux's BBR_UNIT * 2885 / 1000
#define TCP_BBR_MIN_RTT_WIN_PS (10ull * TCP_PS_PER_S)
#define TCP_BBR_PROBE_RTT_PS (200ull * TCP_PS_PER_MS)
#define TCP_BBR_CWND_MIN 4
extern const double tcp_bbr_pacing_gain[TCP_BBR_CYCLE_LEN];

void tcp_bbr_init(tcp_bbr_t *b, uint32_t mss, uint32_t init_cwnd, uint32_t seed);
// The windowed maximum bandwidth (segments/s).
double tcp_bbr_max_bw(const tcp_bbr_t *b);
// BDP x gain in segments (init_cwnd until min RTT is known).
double tcp_bbr_bdp(const tcp_bbr_t *b, double bw, double gain);
// One ACK: updates the model and sets *cwnd (segments) and *pacing_Bps (bytes/s; unchanged
// when BBR leaves it). srtt_ps seeds the first pacing rate.
void tcp_bbr_on_ack(tcp_bbr_t *b, const tcp_rs_t *rs, double *cwnd, double *pacing_Bps,
                    uint64_t srtt_ps);
// A retransmission timeout (Linux bbr_set_state(TCP_CA_Loss)).
void tcp_bbr_on_rto(tcp_bbr_t *b, double cwnd);

// ---------------------------------------------------------------- sender
typedef struct tcp_seg {
  uint64_t sent_ps;        // last transmission
  uint64_t delivered;      // sender's delivered count when sent
  uint64_t delivered_ps;   // time of that delivery
  uint64_t first_sent_ps;  // start of the send interval
  uint8_t flags;           // TCP_SEG_*
} tcp_seg_t;

#define TCP_SEG_SACKED 1u
#define TCP_SEG_LOST 2u
#define TCP_SEG_RETRANS 4u  // a retransmission is in flight
#define TCP_SEG_EVER_RETRANS 8u
#define TCP_SEG_APP_LIMITED 16u

typedef struct tcp_ack {
  uint64_t ack;  // next byte expected
  uint64_t wnd;  // bytes the receiver accepts beyond `ack`
  uint32_t nsack;
  uint64_t sack[TCP_MAX_SACK][2];  // [start, end) byte ranges held above `ack`
} tcp_ack_t;

typedef struct tcp_tx {
  uint64_t seq;
  uint32_t len;
  bool retrans;
} tcp_tx_t;

typedef enum tcp_poll {
  kTcpTxSend = 0,  // send *tx now
  kTcpTxWait = 1,  // pacing: call again at tcp_sender_t.next_send_ps
  kTcpTxIdle = 2,  // window-limited or nothing to send: wait for an ACK or the timer
  kTcpTxDone = 3,  // every byte acknowledged
} tcp_poll_t;

typedef struct tcp_sender {
  tcp_params_t p;
  uint64_t size;  // bytes to transfer
  uint64_t nsegs;
  tcp_seg_t *ring;  // max_cwnd rounded up to a power of two
  uint64_t ring_mask;
  // scoreboard, in segment numbers (segment i holds bytes [i*mss, min((i+1)*mss, size)))
  uint64_t una, nxt;   // lowest unacknowledged; next never sent (HighData)
  uint64_t high_sack;  // one past the highest SACKed segment (0: none)
  uint64_t lost_scan;  // every segment below it has been tested by IsLost
  uint64_t rtx_scan;   // no segment below it waits for retransmission (HighRxt)
  uint64_t recovery_point;
  uint32_t sacked_out, lost_out, retrans_out;
  uint32_t dupacks;
  tcp_ca_state_t ca_state;
  uint64_t rwnd;
  // congestion control
  double cwnd, ssthresh;                          // segments
  double pacing_Bps;                              // bytes/s (0: unpaced)
  double prr_recover_fs, prr_delivered, prr_out;  // RFC 6937 (CUBIC's recovery)
  uint64_t next_send_ps;
  tcp_cubic_t cubic;
  tcp_bbr_t bbr;
  // delivery rate estimation
  uint64_t delivered, delivered_ps, first_sent_ps, app_limited;
  // round trips (BBR's definition: a round ends when a segment sent after its start is acked)
  uint64_t round_count, next_round_delivered;
  bool round_start;  // the last ACK began a round
  // RFC 6298
  uint64_t srtt_ps, rttvar_ps, rto_ps;  // srtt 0: no sample yet
  uint32_t backoff;
  uint64_t rto_deadline_ps;  // TCP_NEVER: timer off
  // counters
  uint64_t segs_sent, retrans_segs, fast_retransmits, rto_count, spurious_sack_ignored;
  uint64_t done_ps;  // when the last byte was acknowledged (TCP_NEVER before)
} tcp_sender_t;

// Allocates the scoreboard. Returns NULL on success, else a message.
const char *tcp_sender_init(tcp_sender_t *s, const tcp_params_t *p, uint64_t size_bytes,
                            uint64_t now_ps);
void tcp_sender_free(tcp_sender_t *s);
// Whether a segment may leave once pacing allows (at next_send_ps when pacing is on); no
// other effect than advancing a scan pointer.
bool tcp_sender_can_send(tcp_sender_t *s);
// What to send at now_ps (NextSeg; new data limited by cwnd, rwnd and the ring).
tcp_poll_t tcp_sender_poll(tcp_sender_t *s, uint64_t now_ps, tcp_tx_t *tx);
void tcp_sender_on_ack(tcp_sender_t *s, uint64_t now_ps, const tcp_ack_t *a);
// The retransmission timer: call at rto_deadline_ps. Returns true if it fired.
bool tcp_sender_on_timer(tcp_sender_t *s, uint64_t now_ps);
// Segments in flight (RFC 6675 pipe, Linux tcp_packets_in_flight).
uint32_t tcp_sender_pipe(const tcp_sender_t *s);
// The RTO in use, backoff included.
uint64_t tcp_sender_rto(const tcp_sender_t *s);
static inline tcp_seg_t *tcp_seg_at(const tcp_sender_t *s, uint64_t i) {
  return &s->ring[i & s->ring_mask];
}

// ---------------------------------------------------------------- receiver
typedef struct tcp_receiver {
  tcp_params_t p;
  uint64_t rcv_nxt;
  uint64_t *lo, *hi;  // out-of-order ranges, sorted, disjoint (room for rcv_buf / mss / 2 + 2)
  uint32_t nranges, max_ranges;
  uint64_t last_lo;  // start of the range holding the most recent segment (first SACK block)
  uint32_t unacked;  // full segments received since the last ACK
  uint64_t delack_deadline_ps;  // TCP_NEVER: no ACK pending
  uint64_t segs, dup_segs, ooo_segs, dropped_segs, acks;
} tcp_receiver_t;

// Allocates the out-of-order range table. Returns NULL on success, else a message.
const char *tcp_receiver_init(tcp_receiver_t *r, const tcp_params_t *p);
void tcp_receiver_free(tcp_receiver_t *r);
// A data segment arrives. Returns true with *a filled when an ACK leaves now; otherwise an
// ACK may be pending until delack_deadline_ps.
bool tcp_receiver_on_data(tcp_receiver_t *r, uint64_t now_ps, uint64_t seq, uint32_t len,
                          tcp_ack_t *a);
// The delayed-ACK timer. Returns true with *a filled if an ACK was pending.
bool tcp_receiver_on_timer(tcp_receiver_t *r, uint64_t now_ps, tcp_ack_t *a);

#ifdef __cplusplus
}
#endif

#endif  // XTM_SIM_NETSIM_TCP_H_
