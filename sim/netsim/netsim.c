// SPDX-License-Identifier: Apache-2.0
//
// xtm-netsim engine: event queue, links, RoCEv2 RC NICs around the dcqcn model, routers
// around the xtm model. docs/netsim.md describes the event model and the RC behaviour.

#define _POSIX_C_SOURCE 200809L

#include "sim/netsim/netsim.h"

#include <stdlib.h>
#include <string.h>

#include "firmware/cos/xtm_cos.h"
#include "firmware/dcqcn_fw.h"
#include "firmware/host/xtm_fw_host.h"
#include "firmware/xtm_fw.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.

enum {
  kEvLink = 0,    // head of a link's in-flight FIFO arrives
  kEvNic = 1,     // NIC transmit scheduler wakes
  kEvRouter = 2,  // router model needs to run (xtm_next_event)
  kEvPfc = 3,     // a PFC frame arrives
  kEvRto = 4,     // retransmission timer of a flow
  kEvSample = 5,  // time-series sample
};

#define NS_NIL UINT32_MAX

static ns_status_t uet_init(ns_flow_t *g);
static void uet_free(ns_flow_t *f);
static ns_status_t tcp_flow_init(ns_flow_t *g);
static void tcp_flow_free(ns_flow_t *f);

// ------------------------------------------------------------------ small helpers

__extension__ typedef unsigned __int128 ns_u128;  // exact products of ps and bit rates

uint64_t ns_ser_ps(uint32_t bytes, uint64_t rate_bps) {
  ns_u128 bits = (ns_u128)(bytes + NS_ETH_OVH_BYTES) * 8u * NS_PS_PER_S;
  return (uint64_t)((bits + rate_bps - 1) / rate_bps);
}

static uint64_t quanta_ps(uint16_t quanta, uint64_t rate_bps) {
  ns_u128 bits = (ns_u128)quanta * 512u * NS_PS_PER_S;
  return (uint64_t)((bits + rate_bps - 1) / rate_bps);
}

// ------------------------------------------------------------------ event heap

#define NS_EV_GROUP 8u  // type flag: the event is the first of its node's wake group
#define NS_GROUP_FAR_PS (100ull * NS_PS_PER_US)  // wakes this far ahead may start a group

static inline bool ev_less(const ns_ev_t *a, const ns_ev_t *b) {
  // (t, key) as one 128-bit number: a compare without a data-dependent branch
  return ((ns_u128)a->t << 64 | a->key) < ((ns_u128)b->t << 64 | b->key);
}

#define NS_FAR_PS (NS_PS_PER_S / 1000u)  // 1 ms

static void hpush(ns_heap_t *h, ns_ev_t e) {
  if (h->len == h->cap) {
    uint32_t nc = h->cap ? h->cap * 2 : 256;
    ns_ev_t *q = realloc(h->e, (size_t)nc * sizeof(*q));
    if (q == NULL) {
      abort();
    }
    h->e = q;
    h->cap = nc;
  }
  uint32_t i = h->len++;
  while (i > 0) {
    uint32_t p = (i - 1) / 2;
    if (!ev_less(&e, &h->e[p])) {
      break;
    }
    h->e[i] = h->e[p];
    i = p;
  }
  h->e[i] = e;
}

// Removes the top and inserts `last` in one sift-down from the root (the top's place).
// Always inlined (into heap_insert and hpop): as a call it cost 1 % more instructions.
__attribute__((always_inline)) static inline void hsift_root(ns_heap_t *h, ns_ev_t last) {
  ns_ev_t *e = h->e;
  uint32_t n = h->len, i = 0;
  if (n == 0) {
    return;
  }
  for (;;) {
    uint32_t l = 2 * i + 1;
    if (l + 1 >= n) {  // one child at most
      if (l < n && ev_less(&e[l], &last)) {
        e[i] = e[l];
        i = l;
      }
      break;
    }
    l += ev_less(&e[l + 1], &e[l]);
    if (!ev_less(&e[l], &last)) {
      break;
    }
    e[i] = e[l];
    i = l;
  }
  e[i] = last;
}

static ns_ev_t hpop(ns_heap_t *h) {
  ns_ev_t top = h->e[0];
  h->len--;
  hsift_root(h, h->e[h->len]);
  return top;
}

// The running event stays at its heap's top until its handler schedules the next event:
// if that goes to the same heap it takes the top's place in one sift-down (a pop and a
// push in one); otherwise, or when the handler schedules nothing, the top is popped.
static void pop_resolve(ns_sim_t *s) {
  if (s->pop_pending != NULL) {
    (void)hpop(s->pop_pending);
    s->pop_pending = NULL;
  }
}

static void heap_insert(ns_sim_t *s, uint64_t t, uint64_t key) {
  ns_heap_t *h = t >= s->now_ps + NS_FAR_PS ? &s->far : &s->near;
  ns_ev_t e = {.t = t, .key = key};
  if (s->pop_pending == h) {
    s->pop_pending = NULL;
    hsift_root(h, e);  // the same number of events: the top's slot is the hole
    return;
  }
  pop_resolve(s);
  hpush(h, e);
}

// The next event (NULL when none).
static inline const ns_ev_t *ev_top(const ns_sim_t *s) {
  if (s->far.len > 0 && (s->near.len == 0 || ev_less(&s->far.e[0], &s->near.e[0]))) {
    return &s->far.e[0];
  }
  return s->near.len > 0 ? &s->near.e[0] : NULL;
}

static inline uint64_t ev_key(uint64_t seq, uint32_t type, uint32_t id) {
  return seq << 24 | (uint64_t)type << 20 | id;
}

static void ev_push(ns_sim_t *s, uint64_t t, uint32_t type, uint32_t id) {
  heap_insert(s, t, ev_key(s->seq++, type, id));
}

static void wg_append(ns_wgroup_t *g, uint64_t seq) {
  if (g->head + g->len == g->cap) {
    if (g->head > 0) {
      memmove(g->seq, g->seq + g->head, (size_t)g->len * sizeof(uint64_t));
      g->head = 0;
    } else {
      uint32_t nc = g->cap ? g->cap * 2 : 64;
      uint64_t *q = realloc(g->seq, (size_t)nc * sizeof(uint64_t));
      if (q == NULL) {
        abort();
      }
      g->seq = q;
      g->cap = nc;
    }
  }
  g->seq[g->head + g->len++] = seq;
}

// Schedules a wake of node `n` (kEvNic or kEvRouter) at `t`: a copy of a far wake already
// scheduled joins its group instead of the heap (ns_wgroup_t).
static void wake_push(ns_sim_t *s, uint32_t type, uint32_t n, uint64_t t) {
  ns_wgroup_t *g = &s->nodes[n].wg;
  uint64_t seq = s->seq++;
  if (g->len > 0 && g->t == t) {
    wg_append(g, seq);
    return;
  }
  if (g->len == 0 && t - s->now_ps >= NS_GROUP_FAR_PS) {
    g->t = t;
    g->head = 0;
    wg_append(g, seq);
    type |= NS_EV_GROUP;
  }
  heap_insert(s, t, ev_key(seq, type, n));
}

// ------------------------------------------------------------------ packet pool

static uint32_t pkt_alloc(ns_sim_t *s) {
  if (s->pool_free == NS_NIL) {
    uint32_t nc = s->pool_cap ? s->pool_cap * 2 : 4096;
    ns_pkt_t *p = realloc(s->pool, (size_t)nc * sizeof(*p));
    if (p == NULL) {
      abort();
    }
    for (uint32_t i = s->pool_cap; i < nc; i++) {
      p[i].next_free = (i + 1 < nc) ? i + 1 : NS_NIL;
    }
    s->pool_free = s->pool_cap;
    s->pool = p;
    s->pool_cap = nc;
    s->pool_grows++;
  }
  uint32_t i = s->pool_free;
  s->pool_free = s->pool[i].next_free;
  if (++s->pool_used > s->pool_peak) {
    s->pool_peak = s->pool_used;
  }
  return i;
}

static void pkt_free(ns_sim_t *s, uint32_t i) {
  s->pool[i].next_free = s->pool_free;
  s->pool_free = i;
  s->pool_used--;
}

// ------------------------------------------------------------------ build

ns_status_t ns_sim_init(ns_sim_t *s) {
  if (s == NULL) {
    return kNsBadArg;
  }
  *s = (ns_sim_t){.ack_every = 16,
                  .rto_ps = 67108ull * NS_PS_PER_US,
                  .pool_free = NS_NIL,
                  .ival_link = NS_NIL,
                  .ival_router = NS_NIL,
                  .mark_ps = NS_NEVER};
  return kNsOk;
}

void ns_sim_free(ns_sim_t *s) {
  if (s == NULL) {
    return;
  }
  for (uint32_t i = 0; i < s->nnodes; i++) {
    ns_node_t *n = &s->nodes[i];
    free(n->wg.seq);
    if (n->kind == kNsNodeRouter) {
      xtm_destroy(n->rt.m);
      free(n->rt.in_ring);
    } else {
      if (n->nic.dc != NULL) {
        dcqcn_destroy(n->nic.dc);
      }
      free(n->nic.flows);
      free(n->nic.ready);
      free(n->nic.qp_flow);
    }
  }
  for (uint32_t i = 0; i < s->nlinks; i++) {
    free(s->links[i].ring);
  }
  for (uint32_t i = 0; i < s->nflows; i++) {
    free(s->flows[i].lat_ps);
    uet_free(&s->flows[i]);
    tcp_flow_free(&s->flows[i]);
  }
  free(s->nodes);
  free(s->links);
  free(s->flows);
  free(s->pool);
  free(s->near.e);
  free(s->far.e);
  free(s->pfc_fly);
  free(s->rt_pause_until);
  free(s->iv);
  *s = (ns_sim_t){
      .pool_free = NS_NIL, .ival_link = NS_NIL, .ival_router = NS_NIL, .mark_ps = NS_NEVER};
}

static ns_status_t add_node(ns_sim_t *s, const char *name, uint8_t kind, uint32_t *id) {
  if (s->nnodes >= 256) {
    return kNsBadArg;
  }
  if (s->nnodes == s->nodes_cap) {
    uint32_t nc = s->nodes_cap ? s->nodes_cap * 2 : 16;
    ns_node_t *p = realloc(s->nodes, (size_t)nc * sizeof(*p));
    if (p == NULL) {
      return kNsNoMem;
    }
    s->nodes = p;
    s->nodes_cap = nc;
  }
  ns_node_t *n = &s->nodes[s->nnodes];
  memset(n, 0, sizeof(*n));
  snprintf(n->name, sizeof(n->name), "%s", name);
  n->kind = kind;
  *id = s->nnodes++;
  return kNsOk;
}

ns_status_t ns_add_nic(ns_sim_t *s, const char *name, uint32_t num_qps, uint32_t *id) {
  if (s == NULL || name == NULL || id == NULL || num_qps > DCQCN_MAX_QPS) {
    return kNsBadArg;
  }
  ns_status_t st = add_node(s, name, kNsNodeNic, id);
  if (st != kNsOk) {
    return st;
  }
  ns_nic_t *c = &s->nodes[*id].nic;
  c->link = NS_NIL;
  c->wake_ps = NS_NEVER;
  if (num_qps > 0) {
    dcqcn_params_t p;
    dcqcn_params_default(&p);
    p.num_qps = num_qps;
    if (dcqcn_create(&p, &c->dc) != kDcqcnOk) {
      return kNsNoMem;
    }
  }
  return kNsOk;
}

ns_status_t ns_add_router(ns_sim_t *s, const char *name, const xtm_params_t *p, uint32_t *id) {
  const char *why = NULL;
  if (s == NULL || name == NULL || p == NULL || id == NULL || p->num_ports > NS_MAX_PORTS ||
      !xtm_params_valid(p, &why)) {
    return kNsBadArg;
  }
  ns_status_t st = add_node(s, name, kNsNodeRouter, id);
  if (st != kNsOk) {
    return st;
  }
  ns_router_t *r = &s->nodes[*id].rt;
  if (xtm_create(p, &r->m) != kXtmOk) {
    return kNsNoMem;
  }
  r->fresh = true;
  r->nports = p->num_ports;
  r->cell_bytes = p->cell_bytes;
  r->wake_ps = NS_NEVER;
  r->watch_voq = -1;
  for (uint32_t i = 0; i < NS_MAX_PORTS; i++) {
    r->port_link[i] = NS_NIL;
    r->in_link[i] = NS_NIL;
  }
  r->in_cap = 1024;
  r->in_ring = calloc(r->in_cap, sizeof(*r->in_ring));
  return r->in_ring ? kNsOk : kNsNoMem;
}

static ns_status_t add_link(ns_sim_t *s, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb,
                            uint64_t rate, uint64_t prop, uint32_t *id) {
  if (s->nlinks == s->links_cap) {
    uint32_t nc = s->links_cap ? s->links_cap * 2 : 16;
    ns_link_t *p = realloc(s->links, (size_t)nc * sizeof(*p));
    if (p == NULL) {
      return kNsNoMem;
    }
    s->links = p;
    s->links_cap = nc;
  }
  ns_link_t *l = &s->links[s->nlinks];
  memset(l, 0, sizeof(*l));
  snprintf(l->name, sizeof(l->name), "%s->%s", s->nodes[a].name, s->nodes[b].name);
  l->rate_bps = rate;
  l->prop_ps = prop;
  l->src = (uint16_t)a;
  l->src_port = (uint16_t)pa;
  l->dst = (uint16_t)b;
  l->dst_port = (uint16_t)pb;
  l->pull = s->nodes[b].kind == kNsNodeRouter;
  // The ring is walked cyclically, so its whole size is the working set: it starts small
  // and doubles when full (a 500 km link holds 8,000 frames of 4 KB but would need 400,000
  // slots for minimum frames; 16 MB of ring missed the cache on every frame).
  l->ring_cap = 256;
  l->head_t = NS_NEVER;
  l->ring = malloc((size_t)l->ring_cap * sizeof(*l->ring));
  if (l->ring == NULL) {
    return kNsNoMem;
  }
  l->ps_per_byte = (8u * NS_PS_PER_S) % rate == 0 ? 8u * NS_PS_PER_S / rate : 0;
  *id = s->nlinks++;
  return kNsOk;
}

ns_status_t ns_connect(ns_sim_t *s, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb,
                       uint64_t rate_bps, uint64_t prop_ps, uint32_t *link_ab) {
  if (s == NULL || a >= s->nnodes || b >= s->nnodes || a == b || rate_bps == 0 ||
      pa >= NS_MAX_PORTS || pb >= NS_MAX_PORTS) {
    return kNsBadArg;
  }
  uint32_t ab, ba;
  ns_status_t st = add_link(s, a, pa, b, pb, rate_bps, prop_ps, &ab);
  if (st == kNsOk) {
    st = add_link(s, b, pb, a, pa, rate_bps, prop_ps, &ba);
  }
  if (st != kNsOk) {
    return st;
  }
  s->links[ab].rev = ba;
  s->links[ba].rev = ab;
  uint32_t ends[2][3] = {{a, pa, ab}, {b, pb, ba}};
  for (int i = 0; i < 2; i++) {
    ns_node_t *n = &s->nodes[ends[i][0]];
    if (n->kind == kNsNodeNic) {
      n->nic.link = ends[i][2];
    } else {
      if (ends[i][1] >= n->rt.nports) {
        return kNsBadArg;
      }
      n->rt.port_link[ends[i][1]] = ends[i][2];
      n->rt.in_link[ends[i][1]] = ends[1 - i][2];
    }
  }
  if (link_ab != NULL) {
    *link_ab = ab;
  }
  return kNsOk;
}

ns_status_t ns_compute_routes(ns_sim_t *s) {
  // BFS from every destination over reversed links; a router forwards to the neighbour
  // with the smallest distance (ties: lowest port).
  uint32_t n = s->nnodes;
  uint32_t *dist = malloc((size_t)n * sizeof(uint32_t));
  uint32_t *q = malloc((size_t)n * sizeof(uint32_t));
  if (dist == NULL || q == NULL) {
    free(dist);
    free(q);
    return kNsNoMem;
  }
  for (uint32_t d = 0; d < n; d++) {
    for (uint32_t i = 0; i < n; i++) {
      dist[i] = UINT32_MAX;
    }
    uint32_t qh = 0, qt = 0;
    dist[d] = 0;
    q[qt++] = d;
    while (qh < qt) {
      uint32_t u = q[qh++];
      if (u != d && s->nodes[u].kind == kNsNodeNic) {
        continue;  // NICs do not forward
      }
      for (uint32_t l = 0; l < s->nlinks; l++) {
        if (s->links[l].dst == u && dist[s->links[l].src] == UINT32_MAX) {
          dist[s->links[l].src] = dist[u] + 1;
          q[qt++] = s->links[l].src;
        }
      }
    }
    for (uint32_t i = 0; i < n; i++) {
      if (s->nodes[i].kind != kNsNodeRouter) {
        continue;
      }
      ns_router_t *r = &s->nodes[i].rt;
      r->route[d] = 0xFFFF;
      uint32_t best = UINT32_MAX;
      for (uint32_t p = 0; p < r->nports; p++) {
        uint32_t l = r->port_link[p];
        if (l != NS_NIL && dist[s->links[l].dst] < best) {
          best = dist[s->links[l].dst];
          r->route[d] = (uint16_t)p;
        }
      }
    }
  }
  free(dist);
  free(q);
  return kNsOk;
}

static void flow_set_limit(ns_flow_t *f);

ns_status_t ns_add_flow(ns_sim_t *s, const ns_flow_t *f, uint32_t *id) {
  if (s == NULL || f == NULL || f->src >= s->nnodes || f->dst >= s->nnodes ||
      s->nodes[f->src].kind != kNsNodeNic || s->nodes[f->dst].kind != kNsNodeNic || f->mtu == 0 ||
      f->mtu + NS_HDR_BYTES > 16000u || f->msg_bytes == 0 || f->window_msgs == 0 || f->prio > 7) {
    return kNsBadArg;
  }
  if (s->nflows == s->flows_cap) {
    uint32_t nc = s->flows_cap ? s->flows_cap * 2 : 16;
    ns_flow_t *p = realloc(s->flows, (size_t)nc * sizeof(*p));
    if (p == NULL) {
      return kNsNoMem;
    }
    s->flows = p;
    s->flows_cap = nc;
  }
  uint32_t fi = s->nflows;
  ns_flow_t *g = &s->flows[fi];
  *g = *f;
  g->pkts_per_msg = (uint32_t)((f->msg_bytes + f->mtu - 1) / f->mtu);
  g->last_msg_psn = NS_NEVER;
  g->last_msg_bytes = f->msg_bytes;
  g->last_msg_pkts = g->pkts_per_msg;
  if (f->total_bytes != 0) {  // exactly total_bytes: the last message carries the rest
    g->total_msgs = (f->total_bytes + f->msg_bytes - 1) / f->msg_bytes;
    g->last_msg_bytes = f->total_bytes - (g->total_msgs - 1) * f->msg_bytes;
    g->last_msg_pkts = (uint32_t)((g->last_msg_bytes + f->mtu - 1) / f->mtu);
    if (g->last_msg_bytes != f->msg_bytes) {
      g->last_msg_psn = (g->total_msgs - 1) * g->pkts_per_msg;
    }
  }
  g->total_pkts = g->last_msg_psn == NS_NEVER ? g->total_msgs * g->pkts_per_msg
                                              : g->last_msg_psn + g->last_msg_pkts;
  g->snd_nxt = g->snd_una = g->snd_max = g->rcv_nxt = 0;
  flow_set_limit(g);
  g->next_send_ps = f->start_ps;
  g->lat_ps = NULL;
  g->lat_n = g->lat_cap = 0;
  g->uet = NULL;
  g->tcp = NULL;
  if (f->transport > kNsTransportTcp) {
    return kNsBadArg;
  }
  if (f->transport == kNsTransportTcp) {
    ns_status_t tst = tcp_flow_init(g);
    if (tst != kNsOk) {
      tcp_flow_free(g);
      return tst;
    }
  }
  if (f->transport == kNsTransportUet) {
    ns_status_t ust = uet_init(g);
    if (ust != kNsOk) {
      uet_free(g);
      return ust;
    }
  }
  if (f->record_latency && g->total_msgs > 0) {
    g->lat_cap = (uint32_t)(g->total_msgs > 1000000 ? 1000000 : g->total_msgs);
    g->lat_ps = malloc((size_t)g->lat_cap * sizeof(uint64_t));
    if (g->lat_ps == NULL) {
      return kNsNoMem;
    }
  }
  ns_nic_t *src = &s->nodes[f->src].nic;
  ns_nic_t *dst = &s->nodes[f->dst].nic;
  uint32_t *nf = realloc(src->flows, (size_t)(src->nflows + 1) * sizeof(uint32_t));
  if (nf == NULL) {
    return kNsNoMem;
  }
  src->flows = nf;
  uint64_t *rd = realloc(src->ready, (size_t)(src->nflows + 1) * sizeof(uint64_t));
  if (rd == NULL) {
    return kNsNoMem;
  }
  src->ready = rd;
  g->qp_src = (uint16_t)(src->nflows);
  src->roce_only = (src->nflows == 0 || src->roce_only) && g->transport == kNsTransportRoce;
  src->flows[src->nflows++] = fi;
  uint32_t *qf = realloc(dst->qp_flow, (size_t)(dst->nqp_rx + 1) * sizeof(uint32_t));
  if (qf == NULL) {
    return kNsNoMem;
  }
  dst->qp_flow = qf;
  g->qp_dst = (uint16_t)dst->nqp_rx;
  dst->qp_flow[dst->nqp_rx++] = fi;
  s->nflows++;
  if (id != NULL) {
    *id = fi;
  }
  return kNsOk;
}

typedef struct ns_warn_ctx {
  FILE *f;
  const char *router;
} ns_warn_ctx_t;

static void ns_warn_line(void *arg, bool warning, const char *text) {
  const ns_warn_ctx_t *w = arg;
  (void)warning;  // only warnings: a configuration with errors is not programmed
  fprintf(w->f, "xtm-netsim: router %s: %s\n", w->router, text);
}

ns_status_t ns_router_program(ns_sim_t *s, uint32_t router, const char *path, const char *text,
                              void *dcqcn_cfg_out, char *err, size_t err_len) {
  if (s == NULL || router >= s->nnodes || s->nodes[router].kind != kNsNodeRouter || text == NULL) {
    return kNsBadArg;
  }
  ns_router_t *r = &s->nodes[router].rt;
  xtm_mmio_model_t mstate;
  xtm_mmio_t mmio;
  xtm_fw_t h;
  if (xtm_mmio_model_init(&mmio, &mstate, r->m) != kXtmFwOk || xtm_fw_init(&mmio, &h) != kXtmFwOk) {
    snprintf(err, err_len, "%s: cannot identify the traffic manager", s->nodes[router].name);
    return kNsConfig;
  }
  xtm_cos_result_t *res = malloc(sizeof(*res));
  if (res == NULL) {
    return kNsNoMem;
  }
  xtm_cos_opts_t opts = {.clock_hz = 1000000000ull};
  if (xtm_cos_compile(path, text, &h.hw, &opts, res) != 0) {
    snprintf(err, err_len, "%s (router %s, %u error%s)", res->errors[0], s->nodes[router].name,
             res->nerrors, res->nerrors == 1 ? "" : "s");
    free(res);
    return kNsConfig;
  }
  // the warnings: printed (with the compiler's repeat notes) and counted, never dropped
  ns_warn_ctx_t wc = {.f = s->warn_out != NULL ? s->warn_out : stderr,
                      .router = s->nodes[router].name};
  (void)xtm_cos_each_message(res, path, ns_warn_line, &wc);
  r->cfg_warnings = res->warnings_dropped;
  for (uint32_t i = 0; i < res->nwarnings; i++) {
    r->cfg_warnings += 1u + res->warning_repeats[i];
  }
  if (res->warnings_dropped > 0) {
    fprintf(wc.f, "xtm-netsim: router %s: %u more warnings not shown\n", wc.router,
            res->warnings_dropped);
  }
  // A model fresh from xtm_create is at reset already (xtm_create ends with xtm_reset) and has
  // seen only the identification reads above, which the bring-up repeats after its reset:
  // its reset (clearing every descriptor again) is skipped then, with the same result.
  xtm_fw_bringup_opts_t bo = {.do_reset = !r->fresh, .init_max_polls = 100000};
  r->fresh = false;
  xtm_fw_bringup_result_t br;
  xtm_fw_status_t st = xtm_fw_bringup(&mmio, &res->cfg, &bo, &h, &br);
  if (st != kXtmFwOk) {
    snprintf(err, err_len, "%s: bring-up failed at step %s: %s", s->nodes[router].name,
             xtm_fw_step_name(br.failed_step), xtm_fw_status_name(st));
    free(res);
    return kNsConfig;
  }
  // every configured port speed must be its link's rate (a 100g port on a 37 Gb/s link is
  // a set-up that cannot do what it says)
  for (uint32_t i = 0; i < res->nqueues; i++) {
    uint32_t p = res->q[i].port;
    uint32_t l = p < NS_MAX_PORTS ? r->port_link[p] : NS_NIL;
    if (l != NS_NIL && s->links[l].rate_bps != res->q[i].port_rate_bps) {
      snprintf(err, err_len,
               "%s: interface %s runs at %g Gb/s in the configuration, but its "
               "link at %g Gb/s",
               path, res->q[i].iface, (double)res->q[i].port_rate_bps / 1e9,
               (double)s->links[l].rate_bps / 1e9);
      free(res);
      return kNsSpeed;
    }
  }
  for (uint32_t i = 0; i < res->npgs; i++) {
    uint32_t p = res->pg[i].port;
    uint32_t l = p < NS_MAX_PORTS ? r->in_link[p] : NS_NIL;
    if (l != NS_NIL && s->links[l].rate_bps != res->pg[i].speed_bps) {
      snprintf(err, err_len,
               "%s: interface %s has speed %g Gb/s in the configuration, but its "
               "link at %g Gb/s",
               path, res->pg[i].iface, (double)res->pg[i].speed_bps / 1e9,
               (double)s->links[l].rate_bps / 1e9);
      free(res);
      return kNsSpeed;
    }
  }
  if (dcqcn_cfg_out != NULL) {
    memcpy(dcqcn_cfg_out, &res->cfg.dcqcn, sizeof(res->cfg.dcqcn));
  }
  // the RDMA VOQ to watch: the first no-loss queue with a scheduler (else the first queue)
  for (uint32_t i = 0; i < res->nqueues; i++) {
    if (res->q[i].no_loss || r->watch_voq < 0) {
      r->watch_voq = (int32_t)res->q[i].voq;
      if (res->q[i].no_loss) {
        break;
      }
    }
  }
  free(res);
  xtm_set_tx_ready(r->m, r->nports >= 64 ? UINT64_MAX : ((1ull << r->nports) - 1u));
  s->nodes[router].rt.cyc_off = xtm_cycle(r->m);
  r->in.tx_ready = r->nports >= 64 ? UINT64_MAX : ((1ull << r->nports) - 1u);
  return kNsOk;
}

ns_status_t ns_router_write(ns_sim_t *s, uint32_t router, uint32_t offset, uint32_t value) {
  if (s == NULL || router >= s->nnodes || s->nodes[router].kind != kNsNodeRouter) {
    return kNsBadArg;
  }
  xtm_mmio_model_t mstate;
  xtm_mmio_t mmio;
  s->nodes[router].rt.fresh = false;
  if (xtm_mmio_model_init(&mmio, &mstate, s->nodes[router].rt.m) != kXtmFwOk ||
      xtm_mmio_write32(&mmio, offset, value) != kXtmFwOk) {
    return kNsConfig;
  }
  // the model executed the access: time 0 stays at the model's present cycle
  s->nodes[router].rt.cyc_off = xtm_cycle(s->nodes[router].rt.m);
  return kNsOk;
}

ns_status_t ns_nic_program_dcqcn(ns_sim_t *s, uint32_t nic, const void *dcqcn_cfg, char *err,
                                 size_t err_len) {
  if (s == NULL || nic >= s->nnodes || s->nodes[nic].kind != kNsNodeNic || dcqcn_cfg == NULL) {
    return kNsBadArg;
  }
  ns_nic_t *c = &s->nodes[nic].nic;
  if (c->dc == NULL) {
    return kNsOk;
  }
  dcqcn_mmio_model_t dstate;
  xtm_mmio_t dio;
  dcqcn_fw_t dh;
  uint64_t mbps = c->link != NS_NIL ? s->links[c->link].rate_bps / 1000000u : 100000u;
  if (dcqcn_mmio_model_init(&dio, &dstate, c->dc) != kXtmFwOk ||
      dcqcn_fw_init(&dio, &dh) != kXtmFwOk ||
      dcqcn_fw_set_params(&dh, (const xtm_fw_dcqcn_cfg_t *)dcqcn_cfg, 1000u) != kXtmFwOk ||
      xtm_mmio_write32(&dio, DCQCN_LINE_RATE_REG_OFFSET, (uint32_t)mbps) != kXtmFwOk) {
    snprintf(err, err_len, "%s: programming the dcqcn block failed", s->nodes[nic].name);
    return kNsConfig;
  }
  s->nodes[nic].nic.dc_off = dcqcn_cycle(c->dc);
  return kNsOk;
}

// splitmix64 (Steele, Lea, Flood 2014), the generator the scenarios use for start times
static uint64_t link_rng_next(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// true with probability loss_rate: the top 53 bits as a uniform double in [0, 1)
static bool link_loss_draw(ns_link_t *l) {
  double u = (double)(link_rng_next(&l->loss_rng) >> 11) * 0x1.0p-53;
  return u < l->loss_rate;
}

ns_status_t ns_link_set_loss(ns_sim_t *s, uint32_t link, double rate, uint64_t seed) {
  if (link >= s->nlinks || !(rate >= 0.0 && rate <= 1.0)) {
    return kNsBadArg;
  }
  s->links[link].loss_rate = rate;
  s->links[link].loss_rng = seed;
  s->wire_faults = s->wire_faults || rate > 0.0;
  return kNsOk;
}

void ns_inject_loss(ns_sim_t *s, uint32_t flow, uint64_t psn) {
  s->loss_flow = flow;
  s->loss_psn = psn;
  s->loss_armed = true;
  s->wire_faults = true;
}

void ns_inject_ce(ns_sim_t *s, uint32_t flow, uint64_t psn) {
  s->ce_flow = flow;
  s->ce_psn = psn;
  s->ce_armed = true;
  s->wire_faults = true;
}

// ------------------------------------------------------------------ interval KPIs

static inline ns_ival_t *iv_at(ns_sim_t *s, uint64_t t) {
  if (s->iv == NULL || t >= s->end_ps) {
    return NULL;
  }
  if (t - s->iv_lo < s->ival_ps && t >= s->iv_lo) {
    return &s->iv[s->iv_idx];  // the interval of the last call: no division
  }
  uint64_t i = t / s->ival_ps;
  if (i >= s->niv) {
    return NULL;
  }
  s->iv_idx = (uint32_t)i;
  s->iv_lo = i * s->ival_ps;
  return &s->iv[i];
}

// ------------------------------------------------------------------ links

// A data frame meets a wire fault (ns_inject_loss, ns_inject_ce, ns_link_set_loss): true
// when it is lost (it occupies the link and never arrives); *ecn CE when marked.
__attribute__((noinline, cold)) static bool link_wire_fault(ns_sim_t *s, ns_link_t *l,
                                                            const ns_pkt_t *p, uint8_t *ecn) {
  if (s->loss_armed && p->flow == s->loss_flow && p->psn == s->loss_psn &&
      s->nodes[l->src].kind == kNsNodeNic) {
    s->loss_armed = false;
    s->injected_losses++;
    return true;
  }
  if (l->loss_rate > 0.0 && link_loss_draw(l)) {
    l->random_drops++;
    return true;
  }
  if (s->ce_armed && p->flow == s->ce_flow && p->psn == s->ce_psn &&
      s->nodes[l->src].kind == kNsNodeNic) {
    s->ce_armed = false;
    *ecn = NS_ECN_CE;
  }
  return false;
}

__attribute__((noinline, cold)) static void link_ring_grow(ns_sim_t *s, ns_link_t *l) {
  uint32_t nc = l->ring_cap * 2;
  ns_lslot_t *q = malloc((size_t)nc * sizeof(*q));
  if (q == NULL) {
    abort();
  }
  for (uint32_t i = 0; i < l->ring_len; i++) {
    q[i] = l->ring[(l->ring_head + i) & (l->ring_cap - 1)];
  }
  free(l->ring);
  l->ring = q;
  l->ring_head = 0;
  l->ring_cap = nc;
  s->ring_grows++;
}

// The ring of link li has a new head: a link event at its arrival, or for a data frame on a
// link into a router, a wake of the router no later than the arrival (it takes the frame).
static void rt_kick(ns_sim_t *s, uint32_t n, uint64_t t);
static void link_head_due(ns_sim_t *s, ns_link_t *l, uint32_t li) {
  if (!l->pull) {
    ev_push(s, l->head_t, kEvLink, li);
    return;
  }
  ns_router_t *r = &s->nodes[l->dst].rt;
  uint32_t bit = 1u << l->dst_port;
  if (l->ring[l->ring_head].p.kind == kNsPktData) {
    r->data_heads |= bit;
    r->ctrl_heads &= ~bit;
    rt_kick(s, l->dst, l->head_t);
  } else {
    r->ctrl_heads |= bit;
    r->data_heads &= ~bit;
    ev_push(s, l->head_t, kEvLink, li);
  }
}

// A pull link's ring is empty: neither head mask has its port.
static inline void link_head_gone(ns_sim_t *s, const ns_link_t *l) {
  ns_router_t *r = &s->nodes[l->dst].rt;
  r->data_heads &= ~(1u << l->dst_port);
  r->ctrl_heads &= ~(1u << l->dst_port);
}

// Puts frame `p` on link `li` at `t` (or when the link is free). Always inlined into its
// five callers (the rare paths are out of line): 0.5 % fewer instructions than a call.
__attribute__((always_inline)) static inline void link_send(ns_sim_t *s, uint32_t li,
                                                            const ns_pkt_t *p, uint64_t t) {
  ns_link_t *l = &s->links[li];
  uint64_t start = t > l->busy_until_ps ? t : l->busy_until_ps;
  l->busy_until_ps =
      start + (l->ps_per_byte != 0 ? (uint64_t)(p->len + NS_ETH_OVH_BYTES) * l->ps_per_byte
                                   : ns_ser_ps(p->len, l->rate_bps));
  if (start <= s->end_ps) {  // a router running ahead may send past the end: not counted
    l->tx_bytes += p->len;
    l->tx_frames++;
    if (p->kind == kNsPktData) {
      l->tx_data_bytes += p->len;
    }
    if (li == s->ival_link) {
      ns_ival_t *v = iv_at(s, start);
      if (v != NULL) {
        v->l2_bytes += p->len;
        v->frames++;
        v->ce_frames += p->kind == kNsPktData && p->ecn == NS_ECN_CE;
      }
    }
  }
  uint8_t ecn = p->ecn;
  if (s->wire_faults && p->kind == kNsPktData && link_wire_fault(s, l, p, &ecn)) {
    return;  // lost on the wire: occupies the link, never arrives
  }
  uint64_t arr = l->busy_until_ps + l->prop_ps;
  if (l->ring_len == l->ring_cap) {
    link_ring_grow(s, l);
  }
  ns_lslot_t *e = &l->ring[(l->ring_head + l->ring_len) & (l->ring_cap - 1)];
  e->t = arr;
  e->p = *p;
  e->p.ecn = ecn;
  if (l->ring_len++ == 0) {
    l->head_t = arr;
    link_head_due(s, l, li);
  }
}

static void pause_account(ns_link_t *l, uint64_t now, uint64_t end) {
  if (now >= l->pz_to_ps) {
    l->paused_ps += l->pz_to_ps - l->pz_from_ps;
    l->pz_from_ps = now;
    l->pz_to_ps = end > now ? end : now;
  } else {
    l->pz_to_ps = end > now ? end : now;
  }
}

static void pfc_send(ns_sim_t *s, uint32_t li, const xtm_pfc_frame_t *f, uint64_t t) {
  ns_link_t *l = &s->links[li];
  // A PFC frame waits for the data frame the router is serialising (not for control frames
  // the router forwards: see docs/netsim.md 1, it keeps the run-ahead exact).
  uint64_t start = t > l->data_busy_ps ? t : l->data_busy_ps;
  uint64_t arr = start + ns_ser_ps(NS_PFC_BYTES, l->rate_bps) + l->prop_ps;
  uint32_t slot = NS_NIL;
  for (uint32_t i = 0; i < s->pfc_fly_cap; i++) {
    if (!s->pfc_fly[i].used) {
      slot = i;
      break;
    }
  }
  if (slot == NS_NIL) {
    uint32_t nc = s->pfc_fly_cap ? s->pfc_fly_cap * 2 : 64;
    void *p = realloc(s->pfc_fly, (size_t)nc * sizeof(*s->pfc_fly));
    if (p == NULL) {
      abort();
    }
    s->pfc_fly = p;
    for (uint32_t i = s->pfc_fly_cap; i < nc; i++) {
      s->pfc_fly[i].used = false;
    }
    slot = s->pfc_fly_cap;
    s->pfc_fly_cap = nc;
  }
  s->pfc_fly[slot].used = true;
  if (s->nodes[l->dst].kind == kNsNodeRouter) {
    s->nodes[l->dst].rt.pfc_inbound++;
  } else {
    s->nodes[l->dst].nic.pfc_inbound++;
  }
  s->pfc_fly[slot].link = li;
  s->pfc_fly[slot].f = *f;
  s->pfc_fly[slot].t = arr;
  ev_push(s, arr, kEvPfc, slot);
}

void ns_send_pfc(ns_sim_t *s, uint32_t link, const xtm_pfc_frame_t *f) {
  if (s->rt_pause_until == NULL) {
    s->rt_pause_until = calloc((size_t)s->nlinks * 8u, sizeof(uint64_t));
    if (s->rt_pause_until == NULL) {
      abort();
    }
  }
  pfc_send(s, link, f, s->now_ps);
}

// ------------------------------------------------------------------ NIC

static void nic_kick(ns_sim_t *s, uint32_t n, uint64_t t);
static void nic_kick_flow(ns_sim_t *s, uint32_t n, const ns_flow_t *f);
static void rt_run(ns_sim_t *s, uint32_t n);
static void rt_pull(ns_sim_t *s, uint32_t n, uint64_t limit);

static void dc_out(ns_sim_t *s, uint32_t n, const dcqcn_out_t *o) {
  if (!o->cnp_tx.valid) {
    return;
  }
  ns_nic_t *c = &s->nodes[n].nic;
  if (o->cnp_tx.qp >= c->nqp_rx) {
    return;
  }
  ns_flow_t *f = &s->flows[c->qp_flow[o->cnp_tx.qp]];
  if (c->ctrl_len == sizeof(c->ctrl_ring) / sizeof(c->ctrl_ring[0])) {
    c->ctrl_drops++;
    return;
  }
  c->ctrl_ring[(c->ctrl_head + c->ctrl_len++) % 1024u] =
      (ns_pkt_t){.kind = kNsPktCnp,
                 .dscp = NS_DSCP_CNP,
                 .ecn = 0,
                 .prio = 6,
                 .len = NS_CNP_BYTES,
                 .dst = f->src,
                 .flow = (uint32_t)(f - s->flows)};
  s->cnps_sent++;
  ns_ival_t *v = iv_at(s, s->now_ps);
  if (v != NULL) {
    v->cnps++;
  }
  nic_kick(s, n, s->now_ps);
}

// Feeds one input to the NIC's dcqcn model at the current time (or the next free cycle).
// Returns the pacer's answer (the next cycle the QP may send; 0 when the model gave none):
// the only output of the input's cycle the engine uses besides cnp_tx (handled here), so
// the model's output bundle is not copied out.
static uint64_t dc_feed(ns_sim_t *s, uint32_t n, const dcqcn_in_t *in) {
  ns_nic_t *c = &s->nodes[n].nic;
  uint64_t cyc = ns_cycle_of(s->now_ps) + s->nodes[n].nic.dc_off;
  if (cyc < dcqcn_cycle(c->dc)) {
    cyc = dcqcn_cycle(c->dc);  // one input per cycle: a second one waits a cycle
  }
  dcqcn_out_t *o = &s->dc_o;
  if (!dcqcn_step_at(c->dc, cyc, in, o)) {  // the rate stream on: idle cycles may output
    while (dcqcn_advance_to(c->dc, cyc, o)) {
      dc_out(s, n, o);
    }
    dcqcn_step(c->dc, in, o);
  }
  uint64_t pace = o->pace.valid ? o->pace.next_send : 0;
  dc_out(s, n, o);
  return pace;
}

static void ctrl_send(ns_sim_t *s, uint32_t n, uint8_t kind, const ns_flow_t *f, uint64_t psn) {
  ns_nic_t *c = &s->nodes[n].nic;
  if (c->ctrl_len == 1024u) {
    c->ctrl_drops++;
    return;
  }
  c->ctrl_ring[(c->ctrl_head + c->ctrl_len++) % 1024u] =
      (ns_pkt_t){.kind = kind,
                 .dscp = f->dscp,
                 .ecn = 0,
                 .prio = f->prio,
                 .len = NS_ACK_BYTES,
                 .dst = f->src,
                 .flow = (uint32_t)(f - s->flows),
                 .psn = (uint32_t)psn};
  nic_kick(s, n, s->now_ps);
}

// PSN n may be sent when msg(n) < msg(snd_una) + t, i.e. n < (msg(snd_una) + t) x pkts_per_msg,
// and n is inside a finite flow.
static void flow_set_limit(ns_flow_t *f) {
  uint64_t lim = (f->snd_una / f->pkts_per_msg + f->window_msgs) * f->pkts_per_msg;
  f->snd_lim = f->total_pkts != 0 && f->total_pkts < lim ? f->total_pkts : lim;
}

static bool uet_can_send(const ns_flow_t *f);

static inline bool flow_can_send(const ns_flow_t *f) {
  if (f->transport == kNsTransportTcp) {
    return tcp_sender_can_send(&f->tcp->snd);
  }
  return f->transport == kNsTransportRoce ? f->snd_nxt < f->snd_lim : uet_can_send(f);
}

// The earliest time RoCE flow f may send (ns_nic_t.ready): NS_NEVER while its window is closed.
static inline uint64_t roce_ready(const ns_nic_t *c, const ns_flow_t *f) {
  if (f->snd_nxt >= f->snd_lim) {
    return NS_NEVER;
  }
  uint64_t r = f->start_ps;
  r = c->paused_until_ps[f->prio] > r ? c->paused_until_ps[f->prio] : r;
  return f->next_send_ps > r ? f->next_send_ps : r;
}

// After a change of f's window, pacer or pause: its entry of its NIC's ready array.
static inline void ready_set(ns_sim_t *s, const ns_flow_t *f) {
  ns_nic_t *c = &s->nodes[f->src].nic;
  if (c->roce_only) {
    c->ready[f->qp_src] = roce_ready(c, f);
  }
}

static void ready_all(ns_sim_t *s, uint32_t n) {
  ns_nic_t *c = &s->nodes[n].nic;
  for (uint32_t k = 0; c->roce_only && k < c->nflows; k++) {
    c->ready[k] = roce_ready(c, &s->flows[c->flows[k]]);
  }
}

static void rto_arm(ns_sim_t *s, ns_flow_t *f, uint64_t at) {
  if (!f->rto_armed) {
    f->rto_armed = true;
    f->rto_at = at;
    ev_push(s, at, kEvRto, (uint32_t)(f - s->flows));
  }
}

// ------------------------------------------------------------------ UET transport (NSCC)
//
// A UET-style reliable unordered transport (docs/netsim.md 2.1), from the UEC specification's
// public description and the htsim implementation (uet-htsim, sim/uec.cpp), written anew:
// the responder accepts packets in any order and acknowledges every packet with a selective
// ACK (the PSN, the cumulative PSN, the CE echo); the requester keeps per-PSN state,
// declares a PSN lost when a PSN sent 3 or more after it has been acknowledged (or at its
// retransmission timeout), and resends only lost PSNs. NSCC sets the window from the
// queueing delay (RTT minus base RTT) and the ECN echo.

#define UET_ST_NONE 0u
#define UET_ST_FLY 1u
#define UET_ST_ACKED 2u
#define UET_ST_LOST 3u
#define UET_DUPTHRESH 3u

static ns_status_t uet_init(ns_flow_t *g) {
  if (g->total_pkts == 0 || g->uet_base_rtt_ps == 0 || g->uet_bdp_bytes == 0) {
    return kNsBadArg;
  }
  ns_uet_t *u = calloc(1, sizeof(*u));
  if (u == NULL) {
    return kNsNoMem;
  }
  u->st = calloc(g->total_pkts, 1);
  u->rx = calloc(g->total_pkts, 1);
  u->sent_ps = calloc(g->total_pkts, sizeof(uint64_t));
  g->uet = u;
  if (u->st == NULL || u->rx == NULL || u->sent_ps == NULL) {
    return kNsNoMem;
  }
  // NSCC's static parameters (htsim initNsccParams): reference network 100 Gb/s and 12 us;
  // target queueing delay = the network RTT (no trimming); the scaling factors a = BDP /
  // reference BDP and b = target / reference RTT
  double ref_bdp = 100e9 / 8.0 * 12e-6;
  double a = (double)g->uet_bdp_bytes / ref_bdp;
  double mss = (double)g->mtu;
  u->base_rtt_ps = g->uet_base_rtt_ps;
  u->bdp = g->uet_bdp_bytes;
  u->target_ps = (double)g->uet_base_rtt_ps;
  double b = u->target_ps / 12e6;
  u->alpha = 4.0 * mss * a * b / u->target_ps;  // bytes per ps of delay headroom
  u->fi = 5.0 * mss * a;
  u->eta = 0.15 * mss * a;
  u->fi_scale = 0.25 * a;
  u->mtu_bytes = g->mtu + NS_HDR_BYTES;
  u->maxwnd = (uint64_t)(1.5 * (double)u->bdp);  // initNscc: max window 1.5 BDP, start at it
  u->cwnd = (double)u->maxwnd;
  u->srtt_ps = (double)u->base_rtt_ps;
  u->rttvar_ps = (double)u->base_rtt_ps / 2.0;
  return kNsOk;
}

static void uet_free(ns_flow_t *f) {
  if (f->uet != NULL) {
    free(f->uet->st);
    free(f->uet->rx);
    free(f->uet->sent_ps);
    free(f->uet);
    f->uet = NULL;
  }
}

static inline uint32_t uet_payload(const ns_flow_t *f, uint64_t psn) {
  if (psn >= f->last_msg_psn) {
    uint64_t k = psn - f->last_msg_psn;
    uint64_t rem = f->last_msg_bytes - k * f->mtu;
    return (uint32_t)(rem < f->mtu ? rem : f->mtu);
  }
  uint64_t k = psn % f->pkts_per_msg;
  uint64_t rem = f->msg_bytes - k * f->mtu;
  return (uint32_t)(rem < f->mtu ? rem : f->mtu);
}

static bool uet_can_send(const ns_flow_t *f) {
  const ns_uet_t *u = f->uet;
  if (u->nlost == 0 && u->next_new >= f->total_pkts) {
    return false;
  }
  return u->inflight <= 0.0 || u->inflight + (double)u->mtu_bytes <= u->cwnd;
}

static uint64_t uet_rto_ps(const ns_uet_t *u) {
  double r = u->srtt_ps + 4.0 * u->rttvar_ps;
  double lo = 2.0 * (double)u->base_rtt_ps;
  return (uint64_t)(r > lo ? r : lo);
}

// Quick adapt (htsim quick_adapt): once per base RTT, after a loss or when the average delay
// passed 4 x the target, the window becomes what was acknowledged in the last period.
static bool uet_quick_adapt(ns_sim_t *s, ns_flow_t *f, bool loss) {
  ns_uet_t *u = f->uet;
  if (s->now_ps > u->qa_end_ps) {
    if (u->qa_end_ps != 0 && (u->trigger_qa || loss || u->avg_delay_ps > 4.0 * u->target_ps)) {
      if (u->cwnd >= u->achieved) {
        double w = u->achieved > (double)u->mtu_bytes ? u->achieved : (double)u->mtu_bytes;
        u->cwnd = w;
        u->trigger_qa = false;
        u->quick_adapts++;
        u->achieved = 0;
        u->qa_end_ps = s->now_ps + u->base_rtt_ps;
        return true;
      }
    }
    u->achieved = 0;
    u->qa_end_ps = s->now_ps + u->base_rtt_ps;
  }
  return false;
}

static void uet_nscc_ack(ns_sim_t *s, ns_flow_t *f, bool ce, double delay, double acked) {
  ns_uet_t *u = f->uet;
  u->avg_delay_ps = 0.0125 * delay + (1.0 - 0.0125) * u->avg_delay_ps;
  u->avg_ecn = 0.125 * (ce ? 1.0 : 0.0) + (1.0 - 0.125) * u->avg_ecn;
  u->achieved += acked;
  if (uet_quick_adapt(s, f, false)) {
    return;
  }
  bool can_decrease = u->avg_ecn > 0.2;
  if (!ce && delay >= u->target_ps) {  // fair increase
    u->inc += u->fi * acked;
  } else if (!ce) {  // proportional increase (fast increase when the path is empty)
    if (delay < 1e6) {
      u->fi_count += (uint64_t)acked;
      if ((double)u->fi_count > u->cwnd || u->increase) {
        u->cwnd += acked * u->fi_scale;
        u->increase = true;
        goto adjust;
      }
    } else {
      u->fi_count = 0;
    }
    u->increase = false;
    double pi = acked * 5000.0 * (u->fi / (5.0 * (double)f->mtu));
    double pr = u->alpha * (u->target_ps - delay);
    u->inc += (pi < pr ? pi : pr) * (double)u->mtu_bytes + u->fi * acked;
  } else if (delay >= u->target_ps) {  // multiplicative decrease
    u->increase = false;
    u->fi_count = 0;
    if (can_decrease && u->avg_delay_ps > u->target_ps) {
      if (s->now_ps - u->last_dec_ps > u->base_rtt_ps) {
        double k = 1.0 - 0.8 * (u->avg_delay_ps - u->target_ps) / u->avg_delay_ps;
        u->cwnd *= k > 0.5 ? k : 0.5;
        u->last_dec_ps = s->now_ps;
      }
      u->dec += 0.8 * acked;
    }
  } else {  // fair decrease
    u->increase = false;
    u->fi_count = 0;
    if (can_decrease) {
      u->dec += 0.8 * acked;
    }
  }
adjust:
  u->recvd += acked;
  if (u->recvd > 8.0 * (double)u->mtu_bytes) {
    u->cwnd += u->inc / u->cwnd - u->dec * u->cwnd / (double)u->bdp;
    u->inc = u->dec = u->recvd = 0;
  }
  if (s->now_ps - u->last_adj_ps > u->base_rtt_ps) {
    u->cwnd += u->eta;
    u->last_adj_ps = s->now_ps;
  }
  if (u->cwnd < (double)u->mtu_bytes) {
    u->cwnd = (double)u->mtu_bytes;
  }
  if (u->cwnd > (double)u->maxwnd) {
    u->cwnd = (double)u->maxwnd;
  }
}

static void uet_mark_lost(ns_flow_t *f, uint64_t psn) {
  ns_uet_t *u = f->uet;
  u->st[psn] = UET_ST_LOST;
  u->inflight -= (double)(uet_payload(f, psn) + NS_HDR_BYTES);
  u->nlost++;
  if (psn < u->rscan) {
    u->rscan = psn;
  }
  u->trigger_qa = true;
}

static void uet_acked(ns_flow_t *f, uint64_t psn, double *newly) {
  ns_uet_t *u = f->uet;
  uint8_t st = u->st[psn];
  if (st == UET_ST_ACKED || st == UET_ST_NONE) {
    return;
  }
  double sz = (double)(uet_payload(f, psn) + NS_HDR_BYTES);
  if (st == UET_ST_FLY) {
    u->inflight -= sz;
  } else {
    u->nlost--;  // a PSN declared lost arrived after all: no retransmission needed
  }
  u->st[psn] = UET_ST_ACKED;
  *newly += sz;
}

// a data packet of flow f (ECT(0), at the flow's class) carrying payload bytes of psn;
// `last` ends its message. Both senders (nic_send_data and uet_send_data) build theirs here.
static inline ns_pkt_t data_pkt(const ns_sim_t *s, const ns_flow_t *f, uint64_t psn,
                                uint32_t payload, bool last) {
  return (ns_pkt_t){.kind = kNsPktData,
                    .dscp = f->dscp,
                    .ecn = NS_ECN_ECT0,
                    .prio = f->prio,
                    .len = (uint16_t)(payload + NS_HDR_BYTES),
                    .dst = f->dst,
                    .flow = (uint32_t)(f - s->flows),
                    .psn = (uint32_t)psn,
                    .last = last};
}

static void uet_send_data(ns_sim_t *s, uint32_t n, ns_flow_t *f) {
  ns_nic_t *c = &s->nodes[n].nic;
  ns_uet_t *u = f->uet;
  uint64_t psn;
  bool retx = false;
  if (u->nlost > 0) {
    while (u->st[u->rscan] != UET_ST_LOST) {
      u->rscan++;
    }
    psn = u->rscan++;
    u->nlost--;
    retx = true;
  } else {
    psn = u->next_new++;
  }
  uint32_t payload = uet_payload(f, psn);
  bool last =
      psn + 1 == f->total_pkts || (psn < f->last_msg_psn && (psn + 1) % f->pkts_per_msg == 0);
  ns_pkt_t p = data_pkt(s, f, psn, payload, last);
  if (u->inflight <= 0.0) {
    f->last_progress_ps = s->now_ps;
  }
  u->st[psn] = UET_ST_FLY;
  u->sent_ps[psn] = s->now_ps;
  u->inflight += (double)(payload + NS_HDR_BYTES);
  if (retx) {
    f->retx_bytes += payload;
  }
  f->tx_bytes += payload;
  link_send(s, c->link, &p, s->now_ps);
  if (!f->rto_armed) {
    f->rto_armed = true;
    ev_push(s, s->now_ps + uet_rto_ps(u), kEvRto, (uint32_t)(f - s->flows));
  }
}

static void uet_rx_data(ns_sim_t *s, uint32_t n, ns_flow_t *f, const ns_pkt_t *p) {
  ns_nic_t *c = &s->nodes[n].nic;
  ns_uet_t *u = f->uet;
  if (p->psn < f->total_pkts && !u->rx[p->psn]) {
    u->rx[p->psn] = 1;
    f->rx_bytes += (uint64_t)(p->len - NS_HDR_BYTES);
    while (f->rcv_nxt < f->total_pkts && u->rx[f->rcv_nxt]) {
      f->rcv_nxt++;
    }
  } else {
    s->ooo_discards++;  // a duplicate (already received)
  }
  if (c->ctrl_len == 1024u) {
    c->ctrl_drops++;
    return;
  }
  c->ctrl_ring[(c->ctrl_head + c->ctrl_len++) % 1024u] =
      (ns_pkt_t){.aux = (uint32_t)f->rcv_nxt,
                 .kind = kNsPktAck,
                 .dscp = f->dscp,
                 .ecn = p->ecn == NS_ECN_CE,
                 .prio = f->prio,
                 .len = NS_ACK_BYTES,
                 .dst = f->src,
                 .flow = (uint32_t)(f - s->flows),
                 .psn = p->psn};
  nic_kick(s, n, s->now_ps);
}

static void uet_rx_ack(ns_sim_t *s, uint32_t n, ns_flow_t *f, const ns_pkt_t *p) {
  ns_uet_t *u = f->uet;
  uint64_t psn = p->psn, cum = p->aux;
  double newly = 0;
  bool fresh = u->st[psn] == UET_ST_FLY;
  uint64_t sent = u->sent_ps[psn];
  uet_acked(f, psn, &newly);
  for (uint64_t q = u->una; q < cum && q < f->total_pkts; q++) {
    uet_acked(f, q, &newly);
  }
  while (u->una < f->total_pkts && u->st[u->una] == UET_ST_ACKED) {
    u->una++;
  }
  if (psn + 1 > u->hsack) {
    u->hsack = psn + 1;
  }
  if (newly > 0) {
    f->last_progress_ps = s->now_ps;
  }
  // RTT sample from the PSN's last transmission (only when it was in flight: a late copy of
  // a retransmitted PSN gives no clean sample)
  if (fresh) {
    double rtt = (double)(s->now_ps - sent);
    if (rtt < (double)u->base_rtt_ps) {
      u->base_rtt_ps = (uint64_t)rtt;
    }
    double err = rtt - u->srtt_ps;
    u->srtt_ps += err / 8.0;
    u->rttvar_ps += ((err < 0 ? -err : err) - u->rttvar_ps) / 4.0;
    double delay = rtt - (double)u->base_rtt_ps;
    uet_nscc_ack(s, f, p->ecn != 0, delay, newly);
  }
  // loss detection: a PSN in flight with UET_DUPTHRESH later PSNs acknowledged
  if (u->lscan < u->una) {
    u->lscan = u->una;
  }
  bool lost = false;
  while (u->lscan + UET_DUPTHRESH < u->hsack) {
    if (u->st[u->lscan] == UET_ST_FLY && u->sent_ps[u->lscan] < u->sent_ps[u->hsack - 1]) {
      uet_mark_lost(f, u->lscan);
      u->fast_losses++;
      lost = true;
    }
    u->lscan++;
  }
  if (lost) {
    uet_quick_adapt(s, f, true);
  }
  if (u->una >= f->total_pkts && !f->done) {
    f->snd_una = f->total_pkts;
    f->done = true;
    f->fct_ps = s->now_ps - f->start_ps;
    f->msgs_done = f->total_msgs;
    if (s->finite_pending > 0) {
      s->finite_pending--;
    }
  }
  f->snd_una = u->una;
  nic_kick_flow(s, n, f);
}

static void uet_rto(ns_sim_t *s, ns_flow_t *f) {
  ns_uet_t *u = f->uet;
  f->rto_armed = false;
  if (f->done || u->inflight <= 0.0) {
    return;  // re-armed by the next transmission
  }
  uint64_t rto = uet_rto_ps(u);
  uint64_t due = f->last_progress_ps + rto;
  if (s->now_ps >= due) {
    f->timeouts++;
    for (uint64_t q = u->una; q < u->next_new; q++) {
      if (u->st[q] == UET_ST_FLY && u->sent_ps[q] + rto <= s->now_ps) {
        uet_mark_lost(f, q);
        u->rto_losses++;
      }
    }
    u->rttvar_ps *= 2.0;  // back off
    f->last_progress_ps = s->now_ps;
    uet_quick_adapt(s, f, true);
    nic_kick(s, f->src, s->now_ps);
    due = s->now_ps + uet_rto_ps(u);
  }
  f->rto_armed = true;
  ev_push(s, due, kEvRto, (uint32_t)(f - s->flows));
}

static void tcp_send_data(ns_sim_t *s, uint32_t n, ns_flow_t *f);
static void tcp_rx(ns_sim_t *s, uint32_t n, ns_flow_t *f, const ns_pkt_t *p);
static void tcp_timer(ns_sim_t *s, ns_flow_t *f);

static void nic_send_data(ns_sim_t *s, uint32_t n, ns_flow_t *f) {
  if (f->transport == kNsTransportUet) {
    uet_send_data(s, n, f);
    return;
  }
  if (f->transport == kNsTransportTcp) {
    tcp_send_data(s, n, f);
    return;
  }
  ns_nic_t *c = &s->nodes[n].nic;
  uint64_t psn = f->snd_nxt;
  uint64_t ppm = f->pkts_per_msg;
  uint64_t k, rem;
  bool last;
  if (psn < f->last_msg_psn) {
    k = (ppm & (ppm - 1)) == 0 ? psn & (ppm - 1) : psn % ppm;  // index in the message
    rem = f->msg_bytes - k * f->mtu;
    last = k + 1 == f->pkts_per_msg;
  } else {  // the shorter last message of a flow of exactly total_bytes
    k = psn - f->last_msg_psn;
    rem = f->last_msg_bytes - k * f->mtu;
    last = k + 1 == f->last_msg_pkts;
  }
  uint32_t payload = (uint32_t)(rem < f->mtu ? rem : f->mtu);
  ns_pkt_t p = data_pkt(s, f, psn, payload, last);
  if (f->snd_una == f->snd_nxt) {
    f->last_progress_ps = s->now_ps;
  }
  if (psn < f->snd_max) {
    f->retx_bytes += payload;
  } else {
    f->snd_max = psn + 1;
    if (f->record_latency && k == 0) {
      f->msg_post_ps = s->now_ps;
    }
  }
  f->tx_bytes += payload;
  f->snd_nxt++;
  link_send(s, c->link, &p, s->now_ps);
  if (c->dc != NULL) {
    dcqcn_in_t in = {
        .tx = {.valid = true, .qp = f->qp_src, .bytes = (uint16_t)(payload + NS_HDR_BYTES)}};
    uint64_t ns = dc_feed(s, n, &in);
    uint64_t base = s->nodes[n].nic.dc_off;
    f->next_send_ps = ns > base ? (ns - base) * NS_PS_PER_NS : 0;
  }
  ready_set(s, f);
  rto_arm(s, f, s->now_ps + s->rto_ps);
}

// The earliest arrival of a PFC frame in flight to node n (NS_NEVER: none); `inbound` is
// the node's count of them (the scan is skipped when it is 0).
static uint64_t pfc_first(const ns_sim_t *s, uint32_t n, uint32_t inbound) {
  uint64_t t = NS_NEVER;
  for (uint32_t i = 0; inbound > 0 && i < s->pfc_fly_cap; i++) {
    if (s->pfc_fly[i].used && s->links[s->pfc_fly[i].link].dst == n && s->pfc_fly[i].t < t) {
      t = s->pfc_fly[i].t;
    }
  }
  return t;
}

// The first time an input could reach NIC n or its senders' state could be read from
// outside: `quick` (a frame on its ingress link, the ring's head, or not yet sent, now plus
// the link's delay: nic_wake_roce's cheap pre-check), a PFC frame in flight to it, one of
// its QPs' timeouts, a sample, the steady-state mark, the end of the run (rx_ahead_lim).
static uint64_t nic_horizon(const ns_sim_t *s, uint32_t n, const ns_nic_t *c, uint64_t quick) {
  uint64_t h = s->rx_ahead_lim < quick ? s->rx_ahead_lim : quick;
  uint64_t pf = pfc_first(s, n, s->nodes[n].nic.pfc_inbound);
  h = pf < h ? pf : h;
  for (uint32_t j = 0; j < c->nflows; j++) {
    const ns_flow_t *f = &s->flows[c->flows[j]];
    h = f->rto_armed && f->rto_at < h ? f->rto_at : h;
  }
  return h;
}

// nic_wake's choice of a QP when every flow is RoCE: the same round robin and the same
// wake times as the general loop below, read from the ready array. The NIC then runs
// ahead: while its next transmission (at the next wake it would schedule) comes before
// anything could reach it (nic_horizon), it makes that transmission now, at its own time,
// instead of scheduling the wake; the same frames at the same times (docs/netsim.md 1).
static void nic_wake_roce(ns_sim_t *s, uint32_t n, ns_nic_t *c, const ns_link_t *l) {
  const uint64_t *rd = c->ready;
  uint32_t nf = c->nflows;
  uint64_t now = s->now_ps;
  uint64_t hz = 0;  // nic_horizon, once needed; never above `quick`, its first terms
  const ns_link_t *in = &s->links[l->rev];
  uint64_t quick = now + in->prop_ps < in->head_t ? now + in->prop_ps : in->head_t;
#ifdef NS_CHECK_READY  // every entry recomputed: a missed update aborts
  for (uint32_t j = 0; j < nf; j++) {
    if (rd[j] != roce_ready(c, &s->flows[c->flows[j]])) {
      abort();
    }
  }
#endif
  for (;;) {
    uint64_t t = s->now_ps;
    uint64_t earliest = NS_NEVER;
    uint32_t k = c->rr >= nf ? c->rr - nf : c->rr;
    uint32_t i = 0;
    for (; i < nf && rd[k] > t; i++, k = k + 1 == nf ? 0 : k + 1) {
      earliest = rd[k] < earliest ? rd[k] : earliest;
    }
    if (i == nf) {
      s->now_ps = now;
      if (earliest != NS_NEVER) {
        nic_kick(s, n, earliest);
      }
      return;
    }
    nic_send_data(s, n, &s->flows[c->flows[k]]);
    c->rr = k + 1;
    uint64_t next = c->ctrl_len > 0 ? l->busy_until_ps : NS_NEVER;
    for (uint32_t j = 0; j < nf; j++) {
      next = rd[j] < next ? rd[j] : next;
    }
    uint64_t at = next > l->busy_until_ps ? next : l->busy_until_ps;  // the wake's time
    if (next != NS_NEVER && c->ctrl_len == 0 && at < quick) {
      if (hz == 0) {
        hz = nic_horizon(s, n, c, quick);
      }
      if (at < hz) {
        s->now_ps = at;
        continue;
      }
    }
    s->now_ps = now;
    if (next != NS_NEVER) {
      nic_kick(s, n, next);  // an ACK, CNP or PFC frame kicks earlier if it changes anything
    }
    return;
  }
}

static void nic_wake(ns_sim_t *s, uint32_t n) {
  ns_nic_t *c = &s->nodes[n].nic;
  uint64_t t = s->now_ps;
  if (c->link == NS_NIL) {
    return;
  }
  ns_link_t *l = &s->links[c->link];
  // A frame or a PFC frame reaching the NIC at this very time is taken before the wake
  // decides anything: the wake goes again after it (docs/netsim.md 1).
  if (s->links[l->rev].head_t == t || pfc_first(s, n, s->nodes[n].nic.pfc_inbound) == t) {
    nic_kick(s, n, t);
    return;
  }
  if (l->busy_until_ps > t) {
    nic_kick(s, n, l->busy_until_ps);
    return;
  }
  if (c->ctrl_len > 0) {  // control frames (ACK, NAK, CNP) first; they are not paused
    ns_pkt_t p = c->ctrl_ring[c->ctrl_head];
    c->ctrl_head = (c->ctrl_head + 1) % 1024u;
    c->ctrl_len--;
    link_send(s, c->link, &p, t);
    if (c->ctrl_len > 0 || c->nflows > 0) {
      nic_kick(s, n, l->busy_until_ps);
    }  // else (a receiver only, nothing queued) that wake would do nothing: the next control
       // frame's ctrl_send kicks the NIC itself
    return;
  }
  if (c->roce_only) {
    nic_wake_roce(s, n, c, l);
    return;
  }
  uint64_t earliest = NS_NEVER;
  // round robin from rr (rr <= nflows: k + 1 of the last sender), without a division per QP
  uint32_t k = c->rr >= c->nflows ? c->rr - c->nflows : c->rr;
  for (uint32_t i = 0; i < c->nflows; i++, k = k + 1 == c->nflows ? 0 : k + 1) {
    ns_flow_t *f = &s->flows[c->flows[k]];
    if (!flow_can_send(f)) {
      continue;
    }
    uint64_t ready = f->start_ps;
    if (c->paused_until_ps[f->prio] > ready) {
      ready = c->paused_until_ps[f->prio];
    }
    if (f->next_send_ps > ready) {
      ready = f->next_send_ps;
    }
    if (ready > t) {
      earliest = ready < earliest ? ready : earliest;
      continue;
    }
    nic_send_data(s, n, f);
    c->rr = k + 1;
    uint64_t next = NS_NEVER;
    if (c->ctrl_len > 0) {
      next = l->busy_until_ps;
    }
    for (uint32_t j = 0; j < c->nflows && next > l->busy_until_ps; j++) {
      const ns_flow_t *g = &s->flows[c->flows[j]];
      if (flow_can_send(g)) {
        uint64_t r = g->start_ps;
        r = c->paused_until_ps[g->prio] > r ? c->paused_until_ps[g->prio] : r;
        r = g->next_send_ps > r ? g->next_send_ps : r;
        next = r < next ? r : next;
      }
    }
    if (next != NS_NEVER) {
      nic_kick(s, n, next);  // an ACK, CNP or PFC frame kicks earlier if it changes anything
    }
    return;
  }
  if (earliest != NS_NEVER) {
    nic_kick(s, n, earliest);
  }
}

static void nic_kick(ns_sim_t *s, uint32_t n, uint64_t t) {
  ns_nic_t *c = &s->nodes[n].nic;
  if (t < s->now_ps) {
    t = s->now_ps;
  }
  if (c->link != NS_NIL && t < s->links[c->link].busy_until_ps) {
    t = s->links[c->link].busy_until_ps;  // nothing can start before the wire is free
  }
  if (t < c->wake_ps) {
    c->wake_ps = t;
    wake_push(s, kEvNic, n, t);
  }
}

// Wakes the NIC when `f` can next send, if it can. The pending wake of a NIC is never later
// than the earliest time any of its other QPs can send, so an ACK or NAK, which changes only
// its own QP, needs a wake only at that QP's own time (docs/netsim.md 1).
static void nic_kick_flow(ns_sim_t *s, uint32_t n, const ns_flow_t *f) {
  const ns_nic_t *c = &s->nodes[n].nic;
  if (c->roce_only && f->src == n) {
    if (c->ready[f->qp_src] != NS_NEVER) {
      nic_kick(s, n, c->ready[f->qp_src]);
    }
    return;
  }
  if (!flow_can_send(f)) {
    return;
  }
  uint64_t r = f->start_ps;
  r = c->paused_until_ps[f->prio] > r ? c->paused_until_ps[f->prio] : r;
  r = f->next_send_ps > r ? f->next_send_ps : r;
  nic_kick(s, n, r);
}

static void flow_acked(ns_sim_t *s, ns_flow_t *f, uint64_t upto) {
  if (upto <= f->snd_una) {
    return;
  }
  uint64_t before = f->snd_una / f->pkts_per_msg;
  f->snd_una = upto;
  flow_set_limit(f);
  if (f->snd_nxt < upto) {
    f->snd_nxt = upto;
  }
  uint64_t msgs = upto / f->pkts_per_msg;
  if (f->total_pkts != 0 && upto >= f->total_pkts) {
    msgs = f->total_msgs;  // the last message may be shorter
  }
  if (msgs > before) {
    if (f->record_latency && f->lat_n < f->lat_cap && f->window_msgs == 1) {
      f->lat_ps[f->lat_n++] = s->now_ps - f->msg_post_ps;
    }
    f->msgs_done = msgs;
  }
  f->last_progress_ps = s->now_ps;
  if (f->total_pkts != 0 && f->snd_una >= f->total_pkts && !f->done) {
    f->done = true;
    f->fct_ps = s->now_ps - f->start_ps;
    if (s->finite_pending > 0) {
      s->finite_pending--;
    }
  }
  ready_set(s, f);
}

static void nic_rx(ns_sim_t *s, uint32_t n, const ns_pkt_t *pp) {
  ns_nic_t *c = &s->nodes[n].nic;
  ns_pkt_t p = *pp;
  ns_flow_t *f = &s->flows[p.flow];
  if (f->transport == kNsTransportTcp && (p.kind == kNsPktData || p.kind == kNsPktAck)) {
    tcp_rx(s, n, f, &p);
    return;
  }
  if (f->transport == kNsTransportUet && (p.kind == kNsPktData || p.kind == kNsPktAck)) {
    if (p.kind == kNsPktData) {
      uet_rx_data(s, n, f, &p);
    } else {
      uet_rx_ack(s, n, f, &p);
    }
    return;
  }
  switch (p.kind) {
    case kNsPktData: {
      if (p.ecn == NS_ECN_CE && c->dc != NULL) {
        dcqcn_in_t in = {.ce = {.valid = true, .qp = f->qp_dst}};
        (void)dc_feed(s, n, &in);
      }
      if (p.psn == f->rcv_nxt) {
        f->rcv_nxt++;
        f->rx_bytes += p.len - NS_HDR_BYTES;
        f->nak_sent = false;
        uint64_t ae = s->ack_every;  // usually a power of two: a mask, not a division
        if (p.last ||
            ((ae & (ae - 1)) == 0 ? (f->rcv_nxt & (ae - 1)) == 0 : f->rcv_nxt % ae == 0)) {
          ctrl_send(s, n, kNsPktAck, f, p.psn);
        }
      } else if (p.psn > f->rcv_nxt) {
        s->ooo_discards++;
        if (!f->nak_sent) {
          f->nak_sent = true;
          ctrl_send(s, n, kNsPktNak, f, f->rcv_nxt);
        }
      } else if (p.last) {  // duplicate of an acknowledged message end: re-ACK
        ctrl_send(s, n, kNsPktAck, f, f->rcv_nxt - 1);
      }
      break;
    }
    case kNsPktAck:
      flow_acked(s, f, (uint64_t)p.psn + 1);
      nic_kick_flow(s, n, f);
      break;
    case kNsPktNak:
      f->naks_rx++;
      flow_acked(s, f, p.psn);
      if (p.psn >= f->snd_una && p.psn < f->snd_nxt) {
        f->snd_nxt = p.psn;  // go-back-N from the first gap
        ready_set(s, f);
      }
      nic_kick_flow(s, n, f);
      break;
    case kNsPktCnp:
      f->cnps_rx++;
      if (c->dc != NULL) {
        dcqcn_in_t in = {.cnp = {.valid = true, .qp = f->qp_src}};
        (void)dc_feed(s, n, &in);
      }
      break;
    default:
      break;
  }
}

static void rto_fire(ns_sim_t *s, uint32_t fi) {
  ns_flow_t *f = &s->flows[fi];
  if (f->transport == kNsTransportUet) {
    uet_rto(s, f);
    return;
  }
  if (f->transport == kNsTransportTcp) {
    tcp_timer(s, f);
    return;
  }
  f->rto_armed = false;
  if (f->snd_una >= f->snd_max) {
    return;  // nothing outstanding; re-armed by the next transmission
  }
  uint64_t due = f->last_progress_ps + s->rto_ps;
  if (s->now_ps >= due) {
    f->timeouts++;
    f->snd_nxt = f->snd_una;
    ready_set(s, f);
    f->last_progress_ps = s->now_ps;
    nic_kick(s, f->src, s->now_ps);
    rto_arm(s, f, s->now_ps + s->rto_ps);
  } else {
    rto_arm(s, f, due);
  }
}

// ------------------------------------------------------------------ TCP transport
//
// The sender and receiver of sim/netsim/tcp.c (docs/netsim.md 2.2) on the engine: a data
// frame carries segment number seq / mss as its PSN, an ACK frame the serial of its contents
// in the flow's ACK ring. One timer event per flow covers the retransmission timer and the
// delayed-ACK timer (the earliest of the two; a later stale event does nothing).

static ns_status_t tcp_flow_init(ns_flow_t *g) {
  if (g->total_bytes == 0) {
    return kNsBadArg;  // finite transfers only
  }
  ns_tcp_t *t = calloc(1, sizeof(*t));
  if (t == NULL) {
    return kNsNoMem;
  }
  g->tcp = t;
  tcp_params_t p = g->tcp_params;
  p.mss = g->mtu;
  p.hdr_bytes = NS_HDR_BYTES + NS_ETH_OVH_BYTES;
  if (tcp_sender_init(&t->snd, &p, g->total_bytes, g->start_ps) != NULL ||
      tcp_receiver_init(&t->rcv, &p) != NULL) {
    return t->snd.ring == NULL && tcp_params_check(&p) == NULL ? kNsNoMem : kNsBadArg;
  }
  uint32_t cap = 1;
  while (cap < p.max_cwnd) {
    cap <<= 1;
  }
  t->acks = calloc(cap, sizeof(*t->acks));
  t->ack_serial = calloc(cap, sizeof(*t->ack_serial));
  if (t->acks == NULL || t->ack_serial == NULL) {
    return kNsNoMem;
  }
  t->ack_mask = cap - 1;
  t->ack_serial[0] = UINT32_MAX;  // no ACK 0 yet
  t->timer_ps = NS_NEVER;
  return kNsOk;
}

static void tcp_flow_free(ns_flow_t *f) {
  if (f->tcp != NULL) {
    tcp_sender_free(&f->tcp->snd);
    tcp_receiver_free(&f->tcp->rcv);
    free(f->tcp->acks);
    free(f->tcp->ack_serial);
    free(f->tcp);
    f->tcp = NULL;
  }
}

static void tcp_arm(ns_sim_t *s, ns_flow_t *f) {
  ns_tcp_t *t = f->tcp;
  uint64_t at = t->snd.rto_deadline_ps < t->rcv.delack_deadline_ps ? t->snd.rto_deadline_ps
                                                                   : t->rcv.delack_deadline_ps;
  if (at != TCP_NEVER && at < t->timer_ps) {
    t->timer_ps = at;
    ev_push(s, at, kEvRto, (uint32_t)(f - s->flows));
  }
}

// The sender's state into the flow's fields the engine and the outputs read.
static void tcp_sync(ns_sim_t *s, ns_flow_t *f) {
  const tcp_sender_t *t = &f->tcp->snd;
  f->snd_una = t->una;
  f->snd_nxt = t->nxt;
  f->next_send_ps = t->p.pacing ? t->next_send_ps : 0;
  f->timeouts = t->rto_count;
  if (t->done_ps != TCP_NEVER && !f->done) {
    f->done = true;
    f->fct_ps = t->done_ps - f->start_ps;
    f->msgs_done = f->total_msgs;
    if (s->finite_pending > 0) {
      s->finite_pending--;
    }
  }
  tcp_arm(s, f);
}

static void tcp_send_data(ns_sim_t *s, uint32_t n, ns_flow_t *f) {
  ns_tcp_t *t = f->tcp;
  tcp_tx_t tx;
  if (tcp_sender_poll(&t->snd, s->now_ps, &tx) != kTcpTxSend) {
    tcp_sync(s, f);  // pacing: the NIC wakes again at next_send_ps
    return;
  }
  bool last = tx.seq + tx.len >= f->total_bytes;
  ns_pkt_t p = data_pkt(s, f, tx.seq / f->mtu, tx.len, last);
  if (tx.retrans) {
    f->retx_bytes += tx.len;
  }
  f->tx_bytes += tx.len;
  f->last_progress_ps = s->now_ps;
  link_send(s, s->nodes[n].nic.link, &p, s->now_ps);
  tcp_sync(s, f);
}

static void tcp_send_ack(ns_sim_t *s, uint32_t n, ns_flow_t *f, const tcp_ack_t *a) {
  ns_tcp_t *t = f->tcp;
  uint32_t k = t->ack_next++;
  t->acks[k & t->ack_mask] = *a;
  t->ack_serial[k & t->ack_mask] = k;
  ctrl_send(s, n, kNsPktAck, f, k);
}

static void tcp_rx(ns_sim_t *s, uint32_t n, ns_flow_t *f, const ns_pkt_t *p) {
  ns_tcp_t *t = f->tcp;
  tcp_ack_t a;
  if (p->kind == kNsPktData) {
    uint64_t before = t->rcv.rcv_nxt;
    uint32_t len = (uint32_t)(p->len - NS_HDR_BYTES);
    if (tcp_receiver_on_data(&t->rcv, s->now_ps, (uint64_t)p->psn * f->mtu, len, &a)) {
      tcp_send_ack(s, n, f, &a);
    }
    f->rx_bytes += t->rcv.rcv_nxt - before;  // in-order bytes delivered to the application
    f->rcv_nxt = t->rcv.rcv_nxt / f->mtu;
    tcp_arm(s, f);
    return;
  }
  uint32_t k = p->psn;
  if (t->ack_serial[k & t->ack_mask] != k) {
    t->stale_acks++;
    return;
  }
  tcp_sender_on_ack(&t->snd, s->now_ps, &t->acks[k & t->ack_mask]);
  tcp_sync(s, f);
  nic_kick_flow(s, n, f);
}

static void tcp_timer(ns_sim_t *s, ns_flow_t *f) {
  ns_tcp_t *t = f->tcp;
  if (s->now_ps >= t->timer_ps) {
    t->timer_ps = NS_NEVER;  // the earliest pending event is this one
  }
  tcp_ack_t a;
  if (tcp_receiver_on_timer(&t->rcv, s->now_ps, &a)) {
    tcp_send_ack(s, f->dst, f, &a);
  }
  if (tcp_sender_on_timer(&t->snd, s->now_ps)) {
    nic_kick(s, f->src, s->now_ps);
  }
  tcp_sync(s, f);
}

// ------------------------------------------------------------------ router

// The outputs of a router cycle other than an acceptance and the dequeue outputs: a
// refused arrival, a flush, PFC frames (rare; kept out of rt_outputs' inlined path).
static void rt_outputs_other(ns_sim_t *s, uint32_t n, const xtm_out_t *o, uint64_t t) {
  ns_router_t *r = &s->nodes[n].rt;
  if (o->enq_res.valid && o->enq_res.reason != kXtmReasonAccept) {
    uint32_t why = o->enq_res.reason < kXtmReasonCount ? o->enq_res.reason : 0;
    r->drops_by_reason[why]++;
    ns_flow_t *df = &s->flows[s->pool[o->enq_res.pkt_id].flow];
    df->tm_drops++;
    df->police_drops += why == kXtmReasonPolice;
    pkt_free(s, o->enq_res.pkt_id);
    ns_ival_t *v = iv_at(s, t);
    if (v != NULL) {
      if (why == kXtmReasonTail || why == kXtmReasonPool || why == kXtmReasonBufFull ||
          why == kXtmReasonProfile) {
        v->tail_drops++;
      } else if (why == kXtmReasonHeadroom) {
        v->lossless_drops++;
      } else {
        v->other_drops++;
      }
    }
  }
  if (o->flush.valid) {
    r->drops_by_reason[kXtmReasonFlush]++;
    pkt_free(s, o->flush.pkt_id);
    ns_ival_t *v = iv_at(s, t);
    if (v != NULL) {
      v->other_drops++;
    }
  }
}

static void rt_outputs_pfc(ns_sim_t *s, uint32_t n, const xtm_out_t *o, uint64_t t) {
  ns_router_t *r = &s->nodes[n].rt;
  for (uint64_t m = o->pfc_tx_valid; m != 0; m &= m - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    r->pfc_tx_frames++;
    ns_ival_t *v = iv_at(s, t);
    if (v != NULL) {
      v->pause_frames++;
    }
    if (r->port_link[p] != NS_NIL) {
      pfc_send(s, r->port_link[p], &o->pfc_tx[p], t);
    }
  }
}

// The outputs of one router cycle, in the order: the arrival's result, a flush, the dequeue
// outputs, the PFC frames.
static inline void rt_outputs(ns_sim_t *s, uint32_t n, const xtm_out_t *o) {
  ns_router_t *r = &s->nodes[n].rt;
#ifdef NS_DEBUG_TRACE
  if (o->enq_res.valid) {
    fprintf(stderr, "E %llu %u %u %u\n", (unsigned long long)o->cycle,
            s->pool[o->enq_res.pkt_id].flow, s->pool[o->enq_res.pkt_id].psn, o->enq_res.reason);
  }
  for (uint64_t m = o->deq_valid; m != 0; m &= m - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    fprintf(stderr, "D %llu %u %u %u\n", (unsigned long long)o->cycle,
            s->pool[o->deq[p].pkt_id].flow, s->pool[o->deq[p].pkt_id].psn, o->deq[p].ecn);
  }
  for (uint64_t m = o->pfc_tx_valid; m != 0; m &= m - 1) {
    fprintf(stderr, "P %llu %u\n", (unsigned long long)o->cycle, (unsigned)__builtin_ctzll(m));
  }
#endif
  uint64_t base = s->nodes[n].rt.cyc_off;
  uint64_t t = (o->cycle - base) * NS_PS_PER_NS;
  if (o->enq_res.valid && o->enq_res.reason == kXtmReasonAccept &&
      (int32_t)o->enq_res.voq == r->watch_voq) {
    uint64_t b = (uint64_t)xtm_voq_occ_cells(r->m, o->enq_res.voq) * r->cell_bytes;
    if (b > r->watch_peak_bytes) {
      r->watch_peak_bytes = b;
    }
    ns_ival_t *iv = n == s->ival_router ? iv_at(s, t) : NULL;
    if (iv != NULL && b > iv->peak_queue_bytes) {
      iv->peak_queue_bytes = b;
    }
  }
  if ((o->enq_res.valid && o->enq_res.reason != kXtmReasonAccept) || o->flush.valid) {
    rt_outputs_other(s, n, o, t);
  }
  for (uint64_t m = o->deq_valid; m != 0; m &= m - 1) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    uint32_t pk = o->deq[p].pkt_id;
    s->pool[pk].ecn = o->deq[p].ecn;
    link_send(s, r->port_link[p], &s->pool[pk], t);
    pkt_free(s, pk);
    s->links[r->port_link[p]].data_busy_ps = s->links[r->port_link[p]].busy_until_ps;
    // The packets the port sends next were accepted long ago (a deep queue): their pool
    // records are cold. Fetch them while they wait in the egress FIFO (a hint only).
    uint32_t next[8];
    for (uint32_t k = 0, nk = xtm_fifo_pkts(r->m, p, next, 8); k < nk; k++) {
      __builtin_prefetch(&s->pool[next[k]]);
    }
  }
  if (o->pfc_tx_valid != 0) {
    rt_outputs_pfc(s, n, o, t);
  }
}

static uint64_t rt_next_input(const ns_router_t *r) {
  uint64_t c = r->in_len > 0 ? r->in_ring[r->in_head].cycle : NS_NEVER;
  for (uint32_t m = r->pfc_pending_mask; m != 0; m &= m - 1) {
    uint32_t p = (uint32_t)__builtin_ctz(m);
    if (r->pfc_cycle[p] < c) {
      c = r->pfc_cycle[p];
    }
  }
  return c;
}

static void rt_schedule(ns_sim_t *s, uint32_t n) {
  ns_router_t *r = &s->nodes[n].rt;
  uint64_t base = s->nodes[n].rt.cyc_off;
  uint64_t c = xtm_next_event(r->m);
  uint64_t ci = rt_next_input(r);
  if (ci < xtm_cycle(r->m)) {
    ci = xtm_cycle(r->m);  // an input for a cycle already executed runs in the next one
  }
  if (ci < c) {
    c = ci;
  }
  uint64_t t = c == NS_NEVER || c == UINT64_MAX ? NS_NEVER
               : c > base                       ? (c - base) * NS_PS_PER_NS
                                                : 0;
  for (uint32_t m = r->data_heads; m != 0; m &= m - 1) {  // the data frames at ingress heads
    uint64_t h = s->links[r->in_link[__builtin_ctz(m)]].head_t;
    t = h < t ? h : t;
  }
  rt_kick(s, n, t);
}

// Wakes router n at t at the latest.
static void rt_kick(ns_sim_t *s, uint32_t n, uint64_t t) {
  ns_router_t *r = &s->nodes[n].rt;
  if (t == NS_NEVER) {
    return;
  }
  if (t < s->now_ps) {
    t = s->now_ps;
  }
  if (t < r->wake_ps) {
    r->wake_ps = t;
    wake_push(s, kEvRouter, n, t);
  }
}

// Runs router n on a wake, an arrival or a PFC frame: every cycle up to the current time's
// cycle (the outputs xtm_next_event announced come out) and on to its run-ahead horizon,
// the inputs received executed in their cycles. Running ahead at an arrival too (not only
// at the wake the model then asks for, often the next cycle: a packet into an empty VOQ
// is dequeued in the cycle after its acceptance) saves that wake; same results.
static void rt_run(ns_sim_t *s, uint32_t n) {
  ns_router_t *r = &s->nodes[n].rt;
  uint64_t now_c = ns_cycle_of(s->now_ps) + s->nodes[n].rt.cyc_off;
  uint64_t limit = now_c;  // the last cycle this call may execute
  // Run ahead to just before the first cycle a new input could still arrive in: a frame
  // already on an ingress link arrives at its ring time, a frame not yet sent no sooner
  // than the link's delay from now, a PFC frame in flight at its time (docs/netsim.md 1).
  // Inputs already received are executed in their cycles on the way.
  uint64_t hz = s->now_ps + r->lookahead_ps;
  // nor past the next time-series sample, which reads the router's state and its links'
  // byte counts as of the sample's time
  hz = s->next_sample_ps < hz ? s->next_sample_ps : hz;
  for (uint32_t m = r->ctrl_heads; m != 0; m &= m - 1) {  // the data frames are known: rt_pull
    uint64_t h = s->links[r->in_link[__builtin_ctz(m)]].head_t;
    hz = h < hz ? h : hz;
  }
  uint64_t pf = pfc_first(s, n, r->pfc_inbound);
  hz = pf < hz ? pf : hz;
  uint64_t first_new = ns_cycle_of(hz) + r->cyc_off;
  if (first_new > now_c + 1) {
    limit = first_new - 1;
  }
  rt_pull(s, n, limit);
  for (;;) {
    uint64_t ci = rt_next_input(r);
    if (ci == NS_NEVER) {
      break;
    }
    if (ci < xtm_cycle(r->m)) {
      ci = xtm_cycle(r->m);
    }
    if (ci > limit) {
      break;
    }
    while (xtm_advance_to(r->m, ci, &r->out)) {
      rt_outputs(s, n, &r->out);
    }
    r->in.enq.valid = false;
    r->in.pfc_rx_valid = 0;
    if (r->in_len > 0 && r->in_ring[r->in_head].cycle <= ci) {
      ns_rin_t *e = &r->in_ring[r->in_head];
      ns_pkt_t *p = &s->pool[e->pkt];
      r->in.enq = (xtm_enq_in_t){.valid = true,
                                 .pkt_id = e->pkt,
                                 .in_port = e->port,
                                 .eg_port = (uint8_t)r->route[p->dst],
                                 .dscp = p->dscp,
                                 .ecn = p->ecn,
                                 .len = p->len};
      r->in_head = (r->in_head + 1) & (r->in_cap - 1);
      r->in_len--;
    }
    for (uint32_t m = r->pfc_pending_mask; m != 0; m &= m - 1) {
      uint32_t p = (uint32_t)__builtin_ctz(m);
      if (r->pfc_cycle[p] <= ci) {
        r->in.pfc_rx_valid |= 1ull << p;
        r->in.pfc_rx[p] = r->pfc_frame[p];
        r->pfc_pending[p] = false;
        r->pfc_pending_mask &= ~(1u << p);
      }
    }
    xtm_step(r->m, &r->in, &r->out);
    rt_outputs(s, n, &r->out);
  }
  if (xtm_cycle(r->m) <= limit) {
    while (xtm_advance_to(r->m, limit + 1, &r->out)) {
      rt_outputs(s, n, &r->out);
    }
  }
  rt_schedule(s, n);
}

// Frame p reaches router n on `port` at t: a control frame is forwarded (it bypasses the
// traffic manager); a data frame waits in the router's input ring for the model's input in
// its arrival cycle (one descriptor per cycle: a later one waits a cycle).
static void rt_rx(ns_sim_t *s, uint32_t n, uint32_t port, const ns_pkt_t *p, uint64_t t) {
  ns_router_t *r = &s->nodes[n].rt;
  uint16_t eg = r->route[p->dst];
  if (eg == 0xFFFF || r->port_link[eg] == NS_NIL) {
    r->drops_by_reason[kXtmReasonBadPort]++;
    return;
  }
  if (p->kind != kNsPktData) {
    // control frames (ACK, NAK, CNP) bypass the traffic manager (docs/netsim.md)
    link_send(s, r->port_link[eg], p, s->now_ps);
    return;
  }
  uint32_t pi = pkt_alloc(s);
  s->pool[pi] = *p;
  if (r->in_len == r->in_cap) {
    uint32_t nc = r->in_cap * 2;
    ns_rin_t *q = malloc((size_t)nc * sizeof(*q));
    if (q == NULL) {
      abort();
    }
    for (uint32_t i = 0; i < r->in_len; i++) {
      q[i] = r->in_ring[(r->in_head + i) & (r->in_cap - 1)];
    }
    free(r->in_ring);
    r->in_ring = q;
    r->in_head = 0;
    r->in_cap = nc;
    s->ring_grows++;
  }
  uint64_t c = ns_cycle_of(t) + s->nodes[n].rt.cyc_off;
#ifdef NS_DEBUG_TRACE
  fprintf(stderr, "A %llu %u %u %llu %u\n", (unsigned long long)c, p->flow, p->psn,
          (unsigned long long)xtm_cycle(r->m), r->in_len);
#endif
  if (r->in_len > 0) {
    uint64_t lastc = r->in_ring[(r->in_head + r->in_len - 1) & (r->in_cap - 1)].cycle;
    if (c <= lastc) {
      c = lastc + 1;  // one descriptor per cycle
    }
  }
  r->in_ring[(r->in_head + r->in_len) & (r->in_cap - 1)] =
      (ns_rin_t){.cycle = c, .pkt = pi, .port = (uint8_t)port};
  r->in_len++;
}

// Takes the data frames at the heads of router n's ingress rings that arrive in cycles up
// to `limit`, in arrival order (the lower port first at the same time), into its input
// ring: they are the inputs of those cycles, and no other input can reach them (the
// run-ahead horizon). A control frame at a head keeps its link event (link_head_due).
static void rt_pull(ns_sim_t *s, uint32_t n, uint64_t limit) {
  ns_router_t *r = &s->nodes[n].rt;
  while (r->data_heads != 0) {
    uint32_t best = NS_NIL;
    uint64_t bt = NS_NEVER;
    for (uint32_t m = r->data_heads; m != 0; m &= m - 1) {  // ascending ports
      uint32_t li = r->in_link[__builtin_ctz(m)];
      if (s->links[li].head_t < bt) {
        bt = s->links[li].head_t;
        best = li;
      }
    }
    if (ns_cycle_of(bt) + r->cyc_off > limit) {
      return;
    }
    ns_link_t *l = &s->links[best];
    ns_pkt_t pk = l->ring[l->ring_head].p;
    l->ring_head = (l->ring_head + 1) & (l->ring_cap - 1);
    l->ring_len--;
    l->head_t = l->ring_len > 0 ? l->ring[l->ring_head].t : NS_NEVER;
    if (l->ring_len == 0) {
      link_head_gone(s, l);
    } else if (l->ring[l->ring_head].p.kind != kNsPktData) {
      link_head_due(s, l, best);
    }
    s->pkt_hops++;
    rt_rx(s, n, l->dst_port, &pk, bt);
  }
}

// ------------------------------------------------------------------ PFC reception

static void pfc_arrive(ns_sim_t *s, uint32_t slot) {
  uint32_t li = s->pfc_fly[slot].link;
  xtm_pfc_frame_t f = s->pfc_fly[slot].f;
  s->pfc_fly[slot].used = false;
  ns_link_t *l = &s->links[li];
  ns_link_t *rev = &s->links[l->rev];  // the link the receiver of the frame transmits on
  rev->pfc_rx_frames++;
  ns_node_t *nd = &s->nodes[l->dst];
  uint64_t end = 0;
  if (nd->kind == kNsNodeNic) {
    nd->nic.pfc_inbound--;
    for (uint32_t i = 0; i < 8; i++) {
      if ((f.vec >> i) & 1u) {
        nd->nic.paused_until_ps[i] = f.quanta[i] == 0 ? s->now_ps
                                     : nd->nic.pause_no_expiry
                                         ? NS_NEVER
                                         : s->now_ps + quanta_ps(f.quanta[i], rev->rate_bps);
      }
    }
    for (uint32_t i = 0; i < 8; i++) {
      end = nd->nic.paused_until_ps[i] > end ? nd->nic.paused_until_ps[i] : end;
    }
    pause_account(rev, s->now_ps, end);
    ready_all(s, l->dst);
    nic_kick(s, l->dst, s->now_ps);
    return;
  }
  ns_router_t *r = &nd->rt;
  r->pfc_inbound--;
  uint32_t port = l->dst_port;
  uint64_t c = ns_cycle_of(s->now_ps) + s->nodes[l->dst].rt.cyc_off;
  if (r->pfc_pending[port] && r->pfc_cycle[port] >= c) {
    c = r->pfc_cycle[port];  // a newer frame supersedes one not yet taken
  }
  r->pfc_pending[port] = true;
  r->pfc_pending_mask |= 1u << port;
  r->pfc_cycle[port] = c;
  r->pfc_frame[port] = f;
  // the paused interval as the transmitter sees it (the model keeps its own timers)
  for (uint32_t i = 0; i < 8; i++) {
    if ((f.vec >> i) & 1u) {
      uint64_t e = f.quanta[i] == 0 ? s->now_ps : s->now_ps + quanta_ps(f.quanta[i], rev->rate_bps);
      s->rt_pause_until[li * 8 + i] = e;
    }
  }
  for (uint32_t i = 0; i < 8; i++) {
    end = s->rt_pause_until[li * 8 + i] > end ? s->rt_pause_until[li * 8 + i] : end;
  }
  pause_account(rev, s->now_ps, end);
  rt_run(s, l->dst);
}

// ------------------------------------------------------------------ main loop

// The frames behind the one just received on NIC ingress link `l` whose reception would only
// advance their RoCE flow's receive state (in order, not the last of a message, no ACK due,
// no CE for the NIC's notification point) are received now, ahead of their arrival, in FIFO
// order, up to the first frame that would do more; that one keeps its link event. Only the
// NIC's own reception reads or writes that state, and the frames on the wire cannot change,
// so the state each later reception sees is the same; the readers from outside (samples,
// the steady-state mark, the end of the run) run no earlier than rx_ahead_lim, which bounds
// the arrival times taken (docs/netsim.md 8). One event per ACK group instead of per frame.
static void rx_ahead(ns_sim_t *s, ns_link_t *l) {
  const ns_nic_t *c = &s->nodes[l->dst].nic;
  uint64_t ae = s->ack_every;
  uint64_t amask = (ae & (ae - 1)) == 0 ? ae - 1 : 0;
  while (l->ring_len > 0 && l->head_t < s->rx_ahead_lim) {
    const ns_pkt_t *p = &l->ring[l->ring_head].p;
    ns_flow_t *f = &s->flows[p->flow];
    uint64_t nx = f->rcv_nxt + 1;
    if (p->kind != kNsPktData || f->transport != kNsTransportRoce || p->psn != f->rcv_nxt ||
        p->last || (p->ecn == NS_ECN_CE && c->dc != NULL) ||
        (amask != 0 || ae == 1 ? (nx & amask) == 0 : nx % ae == 0)) {
      return;
    }
    f->rcv_nxt = nx;
    f->rx_bytes += p->len - NS_HDR_BYTES;
    f->nak_sent = false;
    s->pkt_hops++;
    l->ring_head = (l->ring_head + 1) & (l->ring_cap - 1);
    l->ring_len--;
    l->head_t = l->ring_len > 0 ? l->ring[l->ring_head].t : NS_NEVER;
  }
}

// rx_ahead's bound: the next time anything outside a NIC reads a flow's receive state.
static void rx_ahead_bound(ns_sim_t *s, bool any_finite) {
  uint64_t lim = s->end_ps == UINT64_MAX ? UINT64_MAX : s->end_ps + 1;
  lim = s->next_sample_ps < lim ? s->next_sample_ps : lim;
  lim = s->mark_pending && s->mark_ps < lim ? s->mark_ps : lim;
  // a run that stops when its finite flows are done stops at an event, not at a time; the
  // reference mode (lookahead_off) takes nothing ahead of its event either
  s->rx_ahead_lim = (s->stop_when_done && any_finite) || s->lookahead_off ? 0 : lim;
}

uint64_t ns_run(ns_sim_t *s, uint64_t end_ps) {
  s->end_ps = end_ps;
  if (s->rt_pause_until == NULL) {
    s->rt_pause_until = calloc((size_t)s->nlinks * 8u, sizeof(uint64_t));
    if (s->rt_pause_until == NULL) {
      abort();
    }
  }
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind == kNsNodeNic) {
      if (s->nodes[i].nic.dc != NULL) {
        // the engine uses the pacer and the notification point only: without the rate
        // stream the model skips the alpha timer's visits (dcqcn.h; same results)
        dcqcn_set_rate_stream(s->nodes[i].nic.dc, s->dcqcn_rate_stream);
      }
      ready_all(s, i);
      nic_kick(s, i, s->now_ps);
    } else {
      ns_router_t *r = &s->nodes[i].rt;
      r->lookahead_ps = s->lookahead_off ? 0 : NS_NEVER;
      for (uint32_t p = 0; p < r->nports; p++) {
        if (r->port_link[p] != NS_NIL) {
          uint64_t d = s->links[s->links[r->port_link[p]].rev].prop_ps;
          r->lookahead_ps = d < r->lookahead_ps ? d : r->lookahead_ps;
        }
      }
      if (r->lookahead_ps == NS_NEVER) {
        r->lookahead_ps = 0;
      }
    }
  }
  s->next_sample_ps = NS_NEVER;
  if (s->sample_ps > 0 && s->sample_fn != NULL) {
    ev_push(s, s->now_ps, kEvSample, 0);
    s->next_sample_ps = s->now_ps;
  }
  if (s->ival_ps > 0 && s->iv == NULL && end_ps > 0) {
    uint64_t n = (end_ps + s->ival_ps - 1) / s->ival_ps;
    s->niv = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    s->iv = calloc(s->niv, sizeof(*s->iv));
    if (s->iv == NULL) {
      abort();
    }
  }
  if (s->mark_ps != NS_NEVER && s->mark_ps <= end_ps) {
    ev_push(s, s->mark_ps, kEvSample, 1);
    s->mark_pending = true;
  }
  s->finite_pending = 0;
  for (uint32_t i = 0; i < s->nflows; i++) {
    s->finite_pending += s->flows[i].total_pkts != 0 && !s->flows[i].done;
  }
  bool any_finite = s->finite_pending > 0;
  rx_ahead_bound(s, any_finite);
  uint64_t nev = 0;
  for (;;) {
    const ns_ev_t *top = ev_top(s);
    if (top == NULL || top->t > end_ps ||
        (s->stop_when_done && any_finite && s->finite_pending == 0)) {
      break;
    }
    ns_heap_t *th = top == s->far.e ? &s->far : &s->near;
    ns_ev_t e = *top;
    s->pop_pending = th;  // removed by the handler's first push, or below
    s->now_ps = e.t;
    nev++;
    uint32_t type = (uint32_t)(e.key >> 20) & 0xFu;
    uint32_t id = (uint32_t)e.key & 0xFFFFFu;
    bool grouped = false;  // copies of this wake wait in its group
    if ((type & NS_EV_GROUP) != 0) {
      ns_wgroup_t *g = &s->nodes[id].wg;
      g->head++;  // this copy leaves the group; the next one enters the heap below
      g->len--;
      grouped = g->len > 0;  // if so, no other group can start while this event runs
    }
    type &= 7u;
    s->ev_by_type[type]++;
    switch (type) {
      case kEvLink: {
        ns_link_t *l = &s->links[id];
        ns_pkt_t pk = l->ring[l->ring_head].p;
        l->ring_head = (l->ring_head + 1) & (l->ring_cap - 1);
        l->ring_len--;
        l->head_t = l->ring_len > 0 ? l->ring[l->ring_head].t : NS_NEVER;
        s->pkt_hops++;
        if (s->nodes[l->dst].kind == kNsNodeNic) {
          nic_rx(s, l->dst, &pk);
          rx_ahead(s, l);
          if (l->ring_len > 0) {
            ev_push(s, l->head_t, kEvLink, id);
          }
        } else {  // a control frame (a data frame's router takes it: rt_pull)
          if (l->ring_len > 0) {
            link_head_due(s, l, id);
          } else {
            link_head_gone(s, l);
          }
          rt_rx(s, l->dst, l->dst_port, &pk, s->now_ps);
        }
        break;
      }
      case kEvNic:
        if (s->nodes[id].nic.wake_ps == e.t) {
          s->nodes[id].nic.wake_ps = NS_NEVER;
          nic_wake(s, id);
        } else {
          s->ev_stale++;
        }
        break;
      case kEvRouter:
        if (s->nodes[id].rt.wake_ps == e.t) {
          s->nodes[id].rt.wake_ps = NS_NEVER;
          rt_run(s, id);
        } else {
          s->ev_stale++;
        }
        break;
      case kEvPfc:
        pfc_arrive(s, id);
        break;
      case kEvRto:
        rto_fire(s, id);
        break;
      case kEvSample:
        if (id == 1) {  // the steady-state mark
          for (uint32_t i = 0; i < s->nflows; i++) {
            s->flows[i].mark_rx_bytes = s->flows[i].rx_bytes;
            s->flows[i].mark_retx_bytes = s->flows[i].retx_bytes;
          }
          s->mark_pending = false;
          rx_ahead_bound(s, any_finite);
          break;
        }
        s->sample_fn(s->sample_ctx, s->now_ps);
        s->next_sample_ps = NS_NEVER;
        if (s->now_ps + s->sample_ps <= end_ps) {
          ev_push(s, s->now_ps + s->sample_ps, kEvSample, 0);
          s->next_sample_ps = s->now_ps + s->sample_ps;
        }
        rx_ahead_bound(s, any_finite);
        break;
      default:
        break;
    }
    pop_resolve(s);
    if (grouped) {
      // The next copy of the group would leave the heap right now if no event lies before
      // it; then, if the node's wake is elsewhere, it is stale and nothing changes: count it
      // without the heap. Otherwise it enters the heap.
      ns_wgroup_t *g = &s->nodes[id].wg;
      uint64_t wake = type == kEvNic ? s->nodes[id].nic.wake_ps : s->nodes[id].rt.wake_ps;
      while (g->len > 0) {
        ns_ev_t nx = {.t = g->t, .key = ev_key(g->seq[g->head], type | NS_EV_GROUP, id)};
        if (wake != g->t && !(s->stop_when_done && any_finite && s->finite_pending == 0) &&
            (ev_top(s) == NULL || ev_less(&nx, ev_top(s)))) {
          g->head++;
          g->len--;
          nev++;
          s->ev_by_type[type]++;
          s->ev_stale++;
          continue;
        }
        heap_insert(s, nx.t, nx.key);
        break;
      }
    }
  }
  s->events += nev;
  return nev;
}

void ns_finish(ns_sim_t *s, uint64_t t_ps) {
  for (uint32_t i = 0; i < s->nlinks; i++) {
    ns_link_t *l = &s->links[i];
    uint64_t to = l->pz_to_ps < t_ps ? l->pz_to_ps : t_ps;
    if (to > l->pz_from_ps) {
      l->paused_ps += to - l->pz_from_ps;
    }
    l->pz_from_ps = l->pz_to_ps = t_ps;
  }
}
