// SPDX-License-Identifier: Apache-2.0
//
// xtm-netsim: a discrete-event network simulator with picosecond time (docs/netsim.md).
// Routers are xtm C-model instances (cmodel/xtm) driven with xtm_step/xtm_advance_to and
// programmed through the firmware driver from Junos-style configurations; NICs use the dcqcn
// C model (cmodel/dcqcn) as reaction point, notification point and pacer, with RoCEv2 RC
// behaviour (windows, ACK/NAK, go-back-N, retransmission timeout).
//
// The engine (netsim.c) knows nodes, links, flows and events; scenario.c builds topologies
// from scenario files; main.c is the command line. Nothing in the per-packet path allocates
// except the growth of a packet pool or a link ring past its preallocated size (counted).

#ifndef XTM_SIM_NETSIM_NETSIM_H_
#define XTM_SIM_NETSIM_NETSIM_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "cmodel/xtm/xtm.h"
#include "sim/netsim/tcp.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define NS_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define NS_WARN_UNUSED
#endif

#define NS_PS_PER_NS 1000ull
#define NS_PS_PER_US 1000000ull
#define NS_PS_PER_S 1000000000000ull
#define NS_NEVER UINT64_MAX
#define NS_MAX_PORTS 16
#define NS_NAME_LEN 48
#define NS_ETH_OVH_BYTES 20u  // preamble + SFD + inter-frame gap, per frame on the wire
#define NS_HDR_BYTES 62u      // Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4
#define NS_ACK_BYTES 66u      // headers + AETH 4
#define NS_CNP_BYTES 78u      // headers + 16 reserved bytes
#define NS_PFC_BYTES 64u      // MAC control frame
#define NS_DSCP_CNP 48u
#define NS_ECN_ECT0 2u
#define NS_ECN_CE 3u

typedef enum ns_status {
  kNsOk = 0,
  kNsBadArg = 1,
  kNsNoMem = 2,
  kNsConfig = 3,  // a router configuration did not compile or program
  kNsSpeed = 4,   // a configured port speed is not the rate of the port's link
} ns_status_t;

typedef enum ns_pkt_kind {
  kNsPktData = 0,
  kNsPktAck = 1,
  kNsPktNak = 2,
  kNsPktCnp = 3,
} ns_pkt_kind_t;

typedef enum ns_transport {
  kNsTransportRoce = 0,  // RoCEv2 RC: go-back-N, DCQCN (docs/netsim.md 2)
  kNsTransportUet = 1,   // UET-style: NSCC window, selective retransmission (docs/netsim.md 2.1)
  kNsTransportTcp = 2,   // TCP: SACK, RFC 6298 RTO, CUBIC or BBRv1, pacing (docs/netsim.md 2.2)
} ns_transport_t;

// A TCP flow's two ends (sim/netsim/tcp.h) and what travels between them. An ACK frame on a
// link carries only a serial number; its contents (cumulative ACK, window, SACK blocks) wait
// in `acks`, indexed by serial modulo the ring's size (at least max_cwnd: no more ACKs than
// segments can be in flight).
typedef struct ns_tcp {
  tcp_sender_t snd;
  tcp_receiver_t rcv;
  tcp_ack_t *acks;
  uint32_t *ack_serial;
  uint32_t ack_mask;
  uint32_t ack_next;    // serial of the next ACK
  uint64_t timer_ps;    // the earliest pending timer event of this flow (NS_NEVER: none)
  uint64_t stale_acks;  // ACKs whose contents were overwritten before arrival (counted)
} ns_tcp_t;

// NSCC and selective-retransmission state of a UET flow (docs/netsim.md 2.1).
typedef struct ns_uet {
  // per PSN: 0 not sent, 1 in flight, 2 acknowledged, 3 lost (waiting for retransmission)
  uint8_t *st;
  uint64_t *sent_ps;                 // last transmission time of each PSN
  uint8_t *rx;                       // responder: PSN received
  uint64_t una;                      // lowest PSN not acknowledged
  uint64_t next_new;                 // next PSN never sent
  uint64_t hsack;                    // highest PSN acknowledged (+1; 0 none)
  uint64_t lscan;                    // loss detection has looked at every PSN below this
  uint64_t rscan;                    // no lost PSN below this
  uint64_t nlost;                    // PSNs waiting for retransmission
  double cwnd, inflight;             // bytes
  double inc, dec, recvd, achieved;  // NSCC accumulators (bytes)
  double avg_delay_ps, avg_ecn;
  double srtt_ps, rttvar_ps;
  uint64_t base_rtt_ps, bdp, maxwnd, mtu_bytes;
  double target_ps, alpha, fi, eta, fi_scale;
  uint64_t last_dec_ps, last_adj_ps, qa_end_ps, fi_count;
  bool trigger_qa, increase;
  uint64_t quick_adapts, fast_losses, rto_losses;
} ns_uet_t;

typedef enum ns_node_kind {
  kNsNodeNic = 0,
  kNsNodeRouter = 1,
} ns_node_kind_t;

// One packet. On a link or in a NIC's control queue it is carried by value; inside a router
// it lives in the pool, whose index is the xtm pkt_id.
typedef struct ns_pkt {
  union {
    uint32_t next_free;  // in the pool's free list
    uint32_t aux;        // on a link: a UET ACK's cumulative PSN (first not received)
  };
  uint8_t kind;  // ns_pkt_kind_t
  uint8_t dscp;
  uint8_t ecn;
  uint8_t prio;
  uint16_t len;  // frame bytes, without NS_ETH_OVH_BYTES
  uint16_t dst;  // destination node
  uint32_t flow;
  uint32_t psn;  // data: its PSN; ACK: last PSN acknowledged; NAK: PSN expected
  bool last;     // data: last packet of a message (AckReq)
} ns_pkt_t;

typedef struct ns_lslot {  // a frame in flight on a link and its arrival time
  uint64_t t;
  ns_pkt_t p;
} ns_lslot_t;

// A unidirectional link: serialisation at `rate_bps` plus `prop_ps`; FIFO delivery.
typedef struct ns_link {
  // hot fields first (one cache line), the name last
  uint64_t busy_until_ps;  // end of the frame being serialised
  uint64_t head_t;         // arrival time of the ring's head (NS_NEVER when empty)
  ns_lslot_t *ring;        // in-flight FIFO: frames and arrival times, capacity a power of 2
  uint32_t ring_cap, ring_head, ring_len;
  uint16_t src, src_port, dst, dst_port;
  uint32_t rev;  // the link in the opposite direction
  // into a router: its data frames have no link event; the router takes them from the ring
  // when it runs (rt_pull) and is woken by the head's arrival at the latest; a control frame
  // at the head has its link event as on any link
  bool pull;
  uint64_t ps_per_byte;  // serialisation ps per byte when exact (else 0: divide)
  uint64_t prop_ps;
  uint64_t rate_bps;
  uint64_t data_busy_ps;  // end of the last data frame a router sent here (PFC waits for it)
  // statistics
  uint64_t tx_bytes;       // frame bytes started (all kinds)
  uint64_t tx_frames;      // frames started (L1 bytes = tx_bytes + 20 x tx_frames)
  uint64_t tx_data_bytes;  // data frame bytes started
  uint64_t pfc_rx_frames;  // PFC frames received by the transmitter of this link
  uint64_t paused_ps;      // time with at least one priority paused (closed intervals)
  uint64_t pz_from_ps, pz_to_ps;
  uint64_t sample_bytes;  // tx_bytes at the last sample
  // non-congestive loss (ns_link_set_loss): each data frame started on the link is lost on
  // the wire with probability loss_rate, drawn from this link's own splitmix64 stream
  double loss_rate;
  uint64_t loss_rng;
  uint64_t random_drops;  // data frames lost so far
  char name[2 * NS_NAME_LEN + 4];
} ns_link_t;

// RoCEv2 RC queue pair, requester side at `src`, responder side at `dst`.
typedef struct ns_flow {
  char name[NS_NAME_LEN];
  char group[NS_NAME_LEN];  // fairness group (e.g. the client)
  uint16_t src, dst;
  uint16_t qp_src, qp_dst;  // QP index in the source and destination NICs' dcqcn models
  uint8_t dscp, prio;
  uint32_t mtu;          // payload bytes per packet
  uint64_t msg_bytes;    // s
  uint32_t window_msgs;  // t
  uint64_t total_msgs;   // 0 = unlimited (runs until the end)
  uint64_t total_bytes;  // non-zero: exactly these bytes (total_msgs derived, the last
                         // message shorter); 0: total_msgs x msg_bytes
  uint64_t start_ps;
  bool record_latency;
  uint8_t transport;         // ns_transport_t
  uint64_t uet_base_rtt_ps;  // UET: the path's base RTT (NSCC's network RTT and target delay)
  uint64_t uet_bdp_bytes;    // UET: the path's BDP at the bottleneck
  uint64_t uet_line_bps;     // UET: the sender's line rate (reference scaling)
  ns_uet_t *uet;             // UET state (allocated by ns_add_flow)
  tcp_params_t tcp_params;   // TCP: mss is taken from `mtu`
  ns_tcp_t *tcp;             // TCP state (allocated by ns_add_flow)
  // derived
  uint32_t pkts_per_msg;
  uint64_t total_pkts;    // 0 = unlimited
  uint64_t last_msg_psn;  // first PSN of a shorter last message (NS_NEVER: none)
  uint64_t last_msg_bytes;
  uint32_t last_msg_pkts;
  // requester state
  uint64_t snd_nxt, snd_una, snd_max;
  uint64_t snd_lim;       // first PSN outside the window (and the flow): snd_nxt < snd_lim
  uint64_t next_send_ps;  // pacer
  uint64_t last_progress_ps;
  bool rto_armed;
  uint64_t rto_at;  // RoCE: the armed timeout's time (nic_horizon)
  uint64_t msgs_done;
  uint64_t fct_ps;  // completion time of the last message (finite flows)
  bool done;
  // responder state
  uint64_t rcv_nxt;
  bool nak_sent;
  // statistics
  uint64_t tx_bytes, retx_bytes, rx_bytes, timeouts, naks_rx, cnps_rx;
  uint64_t tm_drops;      // this flow's packets the routers dropped (any reason)
  uint64_t police_drops;  // of which the ingress policer's (reason POLICE, spec 2.2.0 4.7)
  uint64_t sample_rx_bytes;
  uint64_t mark_rx_bytes, mark_retx_bytes;  // at the steady-state mark (ns_sim_t.mark_ps)
  // message latency (record_latency): post time of the message at the head of the window
  uint64_t *lat_ps;
  uint32_t lat_n, lat_cap;
  uint64_t msg_post_ps;
} ns_flow_t;

typedef struct ns_nic {
  dcqcn_t *dc;      // NULL when DCQCN is off
  uint32_t link;    // transmit link
  uint32_t *flows;  // flows whose requester is here
  uint32_t nflows, rr;
  // When every flow here is RoCE (roce_only): ready[k] is the earliest time flows[k] may send
  // (its start, its priority's pause and its pacer), NS_NEVER while its window is closed;
  // kept up to date wherever those change, so the scheduler reads one array, not the flows
  bool roce_only;
  uint64_t *ready;
  uint64_t paused_until_ps[8];
  ns_pkt_t ctrl_ring[1024];  // control packets waiting (ACK, NAK, CNP)
  uint32_t ctrl_head, ctrl_len;
  uint64_t wake_ps;      // the pending wake event (NS_NEVER: none)
  uint32_t pfc_inbound;  // PFC frames in flight to this NIC (s->pfc_fly)
  uint64_t ctrl_drops;
  uint32_t *qp_flow;  // responder QP -> flow
  uint32_t nqp_rx;
  uint64_t dc_off;       // dcqcn model cycle at simulation time 0
  bool pause_no_expiry;  // a PAUSE holds until XON whatever its quanta (HPCC set-up)
} ns_nic_t;

typedef struct ns_rin {  // a router input waiting for its cycle
  uint64_t cycle;
  uint32_t pkt;
  uint8_t port;
} ns_rin_t;

typedef struct ns_router {
  xtm_t *m;
  uint32_t nports;
  uint32_t cell_bytes;
  uint32_t port_link[NS_MAX_PORTS];  // egress link of each port
  uint32_t in_link[NS_MAX_PORTS];    // ingress link of each port (NS_NIL: none)
  // ports whose ingress ring's head is a data frame (the router takes it: rt_pull) or a
  // control frame (it has its link event and bounds the run-ahead)
  uint32_t data_heads, ctrl_heads;
  uint32_t pfc_pending_mask;  // bit p: pfc_pending[p]
  uint16_t route[256];        // destination node -> egress port
  ns_rin_t *in_ring;
  uint32_t in_cap, in_head, in_len;  // in_cap: a power of two
  bool pfc_pending[NS_MAX_PORTS];
  uint64_t pfc_cycle[NS_MAX_PORTS];
  xtm_pfc_frame_t pfc_frame[NS_MAX_PORTS];
  uint64_t wake_ps;
  uint64_t cyc_off;       // model cycle at simulation time 0 (bring-up ran before)
  uint64_t lookahead_ps;  // smallest delay of an ingress link: no input can arrive sooner
  uint64_t pfc_tx_frames;
  uint32_t pfc_inbound;  // PFC frames in flight to this router (s->pfc_fly)
  uint64_t drops_by_reason[kXtmReasonCount];
  uint64_t lossless_drops;
  uint32_t cfg_warnings;  // warnings of its configuration (ns_router_program)
  bool fresh;             // the model has seen nothing since xtm_create (ns_router_program)
  int32_t watch_voq;      // VOQ whose peak occupancy is tracked (-1: none)
  uint64_t watch_peak_bytes;
  xtm_in_t in;  // preallocated input bundle
  xtm_out_t out;
} ns_router_t;

// Wake events of one node at one far time. A router that goes idle sleeps until its next
// watchdog poll, and is woken earlier by the next arrival: the same far wake is scheduled
// again and again, and every copy but the last is stale. The copies form a group: only the
// first (oldest sequence number) is in the heap, the others wait here in order and enter the
// heap one at a time as their predecessor leaves it. Copies that would leave the heap as
// stale with nothing in between are counted and dropped without entering it. The events,
// their order and their effect are exactly those of pushing every copy (docs/netsim.md 1).
typedef struct ns_wgroup {
  uint64_t t;
  uint64_t *seq;  // sequence numbers, ascending; seq[head] is in the heap (or running)
  uint32_t head, len, cap;
} ns_wgroup_t;

typedef struct ns_node {
  char name[NS_NAME_LEN];
  uint8_t kind;  // ns_node_kind_t
  ns_wgroup_t wg;
  ns_nic_t nic;
  ns_router_t rt;
} ns_node_t;

typedef struct ns_ev {
  uint64_t t;
  uint64_t key;  // seq << 24 | type << 20 | id (unique; ties resolve by insertion order)
} ns_ev_t;

typedef struct ns_heap {  // binary min-heap of events by (t, key)
  ns_ev_t *e;
  uint32_t len, cap;
} ns_heap_t;

typedef void (*ns_sample_fn)(void *ctx, uint64_t t_ps);

// KPIs of one interval [i x ival_ps, (i + 1) x ival_ps), each counted at the time its event
// happens in the network (a frame's first bit on the wire, a router's output cycle), not
// when the simulator gets to it: exact whatever the routers' run-ahead (docs/netsim.md 5).
typedef struct ns_ival {
  uint64_t l2_bytes;          // frame bytes started on the watched link (all kinds)
  uint64_t frames;            // frames started on it (L1 adds NS_ETH_OVH_BYTES each)
  uint64_t ce_frames;         // data frames started on it with CE
  uint64_t peak_queue_bytes;  // largest watched-VOQ occupancy after an accepted enqueue
  uint64_t tail_drops, lossless_drops, other_drops;  // every router, as the summary
  uint64_t pause_frames;                             // PFC frames the routers sent
  uint64_t cnps;                                     // CNPs the notification points sent
} ns_ival_t;

typedef struct ns_sim {
  uint64_t now_ps;
  uint64_t seq;
  // Pending events: those due within NS_FAR_PS of their scheduling in `near`, the others
  // (retransmission timers, far wakes) in `far`; the next event is the smaller top.
  ns_heap_t near, far;
  ns_heap_t *pop_pending;  // heap whose top is the running event, not yet removed
  ns_node_t *nodes;
  uint32_t nnodes, nodes_cap;
  ns_link_t *links;
  uint32_t nlinks, links_cap;
  ns_flow_t *flows;
  uint32_t nflows, flows_cap;
  ns_pkt_t *pool;
  uint32_t pool_cap, pool_free, pool_used, pool_peak;
  uint64_t pool_grows, ring_grows;
  // PFC frames in flight (few): a small array
  struct {
    uint32_t link;
    xtm_pfc_frame_t f;
    bool used;
    uint64_t t;
  } * pfc_fly;
  uint32_t pfc_fly_cap;
  uint64_t *rt_pause_until;  // per (link, priority): pause end seen by a router transmitter
  // loss injection (tests)
  bool wire_faults;  // any of loss_armed, ce_armed, a link's loss_rate was ever set
  bool loss_armed;
  uint32_t loss_flow;
  uint64_t loss_psn;
  uint64_t injected_losses;
  bool ce_armed;
  uint32_t ce_flow;
  uint64_t ce_psn;
  // options
  uint64_t ack_every;  // responder ACKs every N packets and each message's last
  uint64_t rto_ps;
  uint64_t end_ps;
  bool stop_when_done;     // stop once every finite flow has completed
  FILE *warn_out;          // where ns_router_program prints configuration warnings (NULL: stderr)
  bool dcqcn_rate_stream;  // keep the NICs' dcqcn rate-update stream on (reference for the
                           // tests; off by default: the engine reads only pace and cnp_tx)
  bool lookahead_off;  // nothing runs ahead of its event: routers, NIC transmit and receive (tests)
  uint32_t finite_pending;
  uint64_t sample_ps;  // 0: no sampling
  ns_sample_fn sample_fn;
  void *sample_ctx;
  // per-interval KPIs (ns_ival_t): ival_ps 0 = off; the watched link and router (NS_NIL-like
  // UINT32_MAX: none); iv[niv] allocated by ns_run for [0, end)
  uint64_t ival_ps;
  uint32_t ival_link, ival_router;
  ns_ival_t *iv;
  uint32_t niv;
  uint32_t iv_idx;  // the interval iv_at found last, [iv_lo, iv_lo + ival_ps)
  uint64_t iv_lo;
  uint64_t mark_ps;  // snapshot of every flow's rx/retx bytes at this time (NS_NEVER: none)
  // ns_run: frames reaching a NIC before this time may be received ahead of their event when
  // their reception changes nothing but their flow's receive state (rx_ahead in netsim.c)
  uint64_t rx_ahead_lim;
  uint64_t next_sample_ps;  // the pending time-series sample (NS_NEVER: none)
  bool mark_pending;        // the steady-state mark's event is scheduled
  dcqcn_out_t dc_o;         // scratch output bundle of the NICs' dcqcn models (dc_feed)
  // statistics
  uint64_t events;
  uint64_t ev_by_type[8];  // link, nic, router, pfc, rto, sample (docs/netsim.md section 8)
  uint64_t ev_stale;       // wake events superseded by an earlier one
  uint64_t pkt_hops;       // packets delivered over a link (all kinds)
  uint64_t cnps_sent;
  uint64_t ooo_discards;
} ns_sim_t;

// ------------------------------------------------------------------ building
NS_WARN_UNUSED ns_status_t ns_sim_init(ns_sim_t *s);
void ns_sim_free(ns_sim_t *s);
// Adds a NIC; `num_qps` > 0 creates its dcqcn model (dcqcn on), 0 means no DCQCN.
NS_WARN_UNUSED ns_status_t ns_add_nic(ns_sim_t *s, const char *name, uint32_t num_qps,
                                      uint32_t *id);
// Adds a router; its xtm model is created with `p` and left at reset (program it with
// ns_router_program).
NS_WARN_UNUSED ns_status_t ns_add_router(ns_sim_t *s, const char *name, const xtm_params_t *p,
                                         uint32_t *id);
// A full-duplex link between (a, pa) and (b, pb); NIC ports are 0. Returns the a->b link.
NS_WARN_UNUSED ns_status_t ns_connect(ns_sim_t *s, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb,
                                      uint64_t rate_bps, uint64_t prop_ps, uint32_t *link_ab);
// Routes: shortest paths over the links (hop count), ties to the lowest port.
NS_WARN_UNUSED ns_status_t ns_compute_routes(ns_sim_t *s);
NS_WARN_UNUSED ns_status_t ns_add_flow(ns_sim_t *s, const ns_flow_t *f, uint32_t *id);
// Compiles the Junos-style configuration `text` (named `path` in messages) and brings the
// router up through the firmware driver; when `dcqcn_out` is not NULL the configuration's
// dcqcn block is copied there for the NICs. Errors are written to `err`; the compiler's
// warnings (a configuration that compiles but may not do what it says) are printed to
// s->warn_out (stderr when NULL), each as "xtm-netsim: router NAME: <warning>", and
// counted in the router's cfg_warnings.
NS_WARN_UNUSED ns_status_t ns_router_program(ns_sim_t *s, uint32_t router, const char *path,
                                             const char *text, void *dcqcn_cfg_out, char *err,
                                             size_t err_len);
// Writes one register of a programmed router through its MMIO interface (for settings the
// configuration compiler has no syntax for, e.g. dynamic PFC thresholds).
NS_WARN_UNUSED ns_status_t ns_router_write(ns_sim_t *s, uint32_t router, uint32_t offset,
                                           uint32_t value);
// Programs every NIC's dcqcn model with the driver from a compiled configuration's dcqcn
// block (xtm_fw_dcqcn_cfg_t*), line rate from the NIC's link.
NS_WARN_UNUSED ns_status_t ns_nic_program_dcqcn(ns_sim_t *s, uint32_t nic, const void *dcqcn_cfg,
                                                char *err, size_t err_len);

// ------------------------------------------------------------------ running
// Runs until `end_ps` (or until nothing is left to do). Returns the number of events.
uint64_t ns_run(ns_sim_t *s, uint64_t end_ps);
// Closes the paused-time intervals at `t_ps` (for reporting).
void ns_finish(ns_sim_t *s, uint64_t t_ps);

// ------------------------------------------------------------------ helpers (also tested)
// Serialisation time of a frame of `bytes` (plus NS_ETH_OVH_BYTES) at `rate_bps`, ceil.
uint64_t ns_ser_ps(uint32_t bytes, uint64_t rate_bps);
// ps -> the first model cycle (1 GHz) at or after it: ceil(ps / 1000).
static inline uint64_t ns_cycle_of(uint64_t ps) { return (ps + NS_PS_PER_NS - 1) / NS_PS_PER_NS; }
// Non-congestive loss on `link`: every data frame started on it is lost on the wire (it
// occupies the link and never arrives) with probability `rate` (0..1), from a splitmix64
// stream seeded with `seed` (one stream per link: the draws follow the link's frames in
// order, so a run stays a function of its inputs). kNsBadArg for a rate outside [0, 1].
NS_WARN_UNUSED ns_status_t ns_link_set_loss(ns_sim_t *s, uint32_t link, double rate, uint64_t seed);
// Test hook: drop the next data packet of `flow` with PSN `psn` on its first transmission.
void ns_inject_loss(ns_sim_t *s, uint32_t flow, uint64_t psn);
// Test hook: mark the first transmission of `psn` of `flow` CE as it leaves the NIC.
void ns_inject_ce(ns_sim_t *s, uint32_t flow, uint64_t psn);
// Test hook: the transmitter of `link` sends PFC frame `f` now (as a router's pfc_tx would).
void ns_send_pfc(ns_sim_t *s, uint32_t link, const xtm_pfc_frame_t *f);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_SIM_NETSIM_NETSIM_H_
