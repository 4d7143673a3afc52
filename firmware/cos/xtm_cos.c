// SPDX-License-Identifier: Apache-2.0
//
// Junos class-of-service -> xtm register image. The front end (cos_tree.c) gives one
// statement tree for the curly or the set form, inactive statements dropped and
// apply-groups expanded; the device part (cos_ports.c) reads port speeds, LAGs and
// breakouts from `interfaces` and `chassis` and maps the Junos ports onto the model's; this
// file interprets `class-of-service` with every check of docs/firmware.md section 7 and
// the compatibility rules of section 4.3: each valid Junos statement is modelled, ignored
// with a warning that names it (when ignoring it changes nothing modelled), or refused
// with "valid Junos, not supported by this hardware model: ...". Messages are
// `file:line:column: message` and name the offending token.

#define _POSIX_C_SOURCE 200809L
#include "firmware/cos/xtm_cos.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "firmware/cos/cos_internal.h"
#include "tools/lib/xtm_num.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

typedef cos_u128 u128;

// ------------------------------------------------------------------ conversions

uint32_t xtm_cos_rate_q16(uint64_t bps, uint64_t clock_hz) {
  // bytes/cycle = bps / 8 / clock; Q8.16 -> x 65536; round to nearest
  u128 num = (u128)bps * 65536u;
  u128 den = (u128)clock_hz * 8u;
  u128 q = (num + den / 2u) / den;
  return q > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)q;
}

uint32_t xtm_cos_pct_q16(uint32_t pct_milli) {
  return (uint32_t)(((uint64_t)pct_milli * 65536u + 50000u) / 100000u);
}

uint64_t xtm_cos_temporal_bytes(uint64_t ns, uint64_t bps) {
  u128 b = (u128)ns * bps / 8000000000ull;
  return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

uint32_t xtm_cos_bytes_to_cells(uint64_t bytes, uint32_t cell_bytes) {
  uint64_t c = (bytes + cell_bytes - 1u) / cell_bytes;
  return c > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)c;
}

uint32_t xtm_cos_pause_quantum_q16(uint64_t speed_bps, uint64_t clock_hz) {
  // 512 bit times at speed_bps, in cycles of clock_hz, Q16.16
  u128 num = (u128)512u * clock_hz * 65536u;
  u128 q = (num + speed_bps / 2u) / speed_bps;
  return q > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)q;
}

// IEEE 802.1Qbb / 802.3 delay components [tm-domain-specs 3.2], in bit times.
typedef struct speed_row {
  uint64_t gbps;
  uint64_t intf_bt;  // D_Intf, one interface
  uint64_t resp_pq;  // D_Resp in pause quanta
} speed_row_t;

static const speed_row_t kSpeeds[] = {
    {10u, 8192u, 60u},     {25u, 6144u, 80u},     {40u, 24576u, 118u},   {50u, 61440u, 147u},
    {100u, 122880u, 394u}, {200u, 245760u, 453u}, {400u, 491520u, 905u}, {800u, 983040u, 905u},
};

static const speed_row_t *speed_row(uint64_t bps) {
  for (size_t i = 0; i < sizeof(kSpeeds) / sizeof(kSpeeds[0]); i++) {
    if (kSpeeds[i].gbps * 1000000000ull == bps) {
      return &kSpeeds[i];
    }
  }
  return NULL;
}

bool xtm_cos_headroom_bits(uint64_t speed_bps, uint32_t cable_m, uint32_t mtu, uint64_t *bits) {
  const speed_row_t *s = speed_row(speed_bps);
  if (s == NULL || bits == NULL) {
    return false;
  }
  uint64_t max_frame = (uint64_t)mtu * 8u + 96u + 64u;  // D_MaxFrame: frame + IFG + preamble
  uint64_t pause = 512u + 160u;                         // D_Pause: 64 B PFC frame + IFG/preamble
  uint64_t intf = 2u * s->intf_bt;                      // D_Intf at both ends
  // D_Cable: 5 ns/m each way -> round trip 10 ns/m; bits = 10e-9 x L x speed (ceil)
  uint64_t cable = ((uint64_t)cable_m * speed_bps + 99999999u) / 100000000u;
  uint64_t resp = s->resp_pq * 512u;  // D_Resp
  uint64_t nodrop = max_frame;        // D_MaxNoDropFrame (same MTU)
  *bits = max_frame + pause + intf + cable + resp + nodrop;
  return true;
}

// ------------------------------------------------------------------ model of the config

#define MAXN 64
#define MAX_IFCFG 256
#define MAX_DPM 10

typedef struct fc {
  const tok_t *name;
  uint32_t queue;
  bool no_loss;
  int pfc_prio;
  const tok_t *queue_tok;
  const tok_t *prio_tok;
  bool implicit;  // a Junos default class (best-effort, expedited-forwarding, ...)
} fc_t;

typedef struct dp {
  const tok_t *name;
  bool interp;
  uint32_t n;
  uint32_t fill[XTM_FW_NUM_POINTS];
  uint32_t prob[XTM_FW_NUM_POINTS];
  int slot;  // hardware profile index once used, else -1
} dp_t;

typedef enum rkind { kRateNone, kRateAbs, kRatePct, kRateRemainder } rkind_t;
typedef struct rate {
  rkind_t kind;
  uint64_t bps;
  uint32_t pct_milli;
  const tok_t *tok;
  const tok_t *limit_tok;  // transmit-rate ... exact | rate-limit
  uint32_t burst;          // shaping-rate ... burst-size B (0: the default 9216)
  const tok_t *burst_tok;
} rate_t;

// Loss priorities: a bit each (low 1, medium-low 2, medium-high 4, high 8); 15 = any.
enum { kLpLow = 1, kLpMedLow = 2, kLpMedHigh = 4, kLpHigh = 8, kLpAny = 15 };
static const char *const kLpNames[] = {"low", "medium-low", "medium-high", "high"};

typedef struct dpm {
  uint8_t lp;     // mask
  uint8_t proto;  // 0 any, 1 tcp, 2 non-tcp
  const tok_t *profile;
  const tok_t *at;
} dpm_t;

// Scheduler priority levels, Junos names; low-latency and strict-high are strict.
enum {
  kPrLow,
  kPrLowMedium,
  kPrLowHigh,
  kPrMedLow,
  kPrMedHigh,
  kPrHigh,
  kPrStrictHigh,
  kPrLowLatency
};
static const char *const kPrNames[] = {"low",         "low-medium", "low-high",    "medium-low",
                                       "medium-high", "high",       "strict-high", "low-latency"};

typedef struct sched {
  const tok_t *name;
  rate_t transmit;
  rate_t shaping;
  rate_t buffer_rate;
  int bsize_kind;  // 0 none, 1 temporal, 2 percent, 3 remainder
  uint64_t bsize_ns;
  uint32_t bsize_pct_milli;
  const tok_t *bsize_tok;
  uint32_t ndpm;
  dpm_t dpm[MAX_DPM];
  const tok_t *dp_ref;  // the map that applies to loss priority low (else the first)
  const tok_t *ecn_tok;
  const tok_t *head_tok;
  const tok_t *lat_tok;
  uint64_t lat_ns;
  bool nonect_tail;
  int prio;  // kPr*; kPrLow without a priority statement
  const tok_t *prio_tok;
  bool strict;
  bool has_excess;
  uint64_t excess_w;  // percent x 1000, or proportion x 1000
  const tok_t *excess_tok;
} sched_t;

typedef struct smap_entry {
  const tok_t *fc;
  const tok_t *sched;
} smap_entry_t;

typedef struct smap {
  const tok_t *name;
  uint32_t n;
  smap_entry_t e[XTM_FW_MAX_TCS * 2];
} smap_t;

// Classifier kinds: the first three give DSCP maps (the hardware's one table), the others
// classify traffic xtm does not model (802.1p-tagged, MPLS).
enum { kClsDscp, kClsDscp6, kClsPrec, kClsIeee, kClsIeeeAd, kClsExp, kClsKinds };
static const char *const kClsNames[] = {"dscp",       "dscp-ipv6",    "inet-precedence",
                                        "ieee-802.1", "ieee-802.1ad", "exp"};

typedef struct ifcls {
  int kind;
  const tok_t *ref;
} ifcls_t;

// One class-of-service interface statement (a port, a LAG, a wildcard, or another kind).
typedef struct ifcfg {
  const tok_t *name;
  cos_ifkind_t kind;
  const tok_t *speed_tok;  // xtm extension: the port speed under class-of-service
  rate_t shaping;
  const tok_t *smap_ref;
  const tok_t *cnp_ref;
  const tok_t *tcp_ref;
  uint32_t ncls;
  ifcls_t cls[16];
  bool replicate;  // member-link-scheduler replicate (default scale)
  bool any;        // it configures anything
} ifcfg_t;

// One model port with the class-of-service that applies to it.
typedef struct iface {
  const tok_t *name;  // the class-of-service interface statement (for positions)
  const char *pname;  // the Junos port
  const ifcfg_t *cfg;
  uint32_t port;
  uint64_t speed_bps;
  char speed_txt[32];
  rate_t shaping;
  const tok_t *smap_ref;
  const tok_t *cnp_ref;
  uint32_t div;  // absolute rates of a LAG in scale mode are divided among its members
} iface_t;

typedef struct acct {
  const tok_t *name;
  uint32_t prio_mask;
  const tok_t *prio_tok[XTM_FW_NUM_PRIOS];
  uint64_t xoff_ns;
  uint64_t xon_ns;
  const tok_t *xoff_tok;
  const tok_t *xon_tok;
  uint32_t mtu[XTM_FW_NUM_PRIOS];  // 0: the profile's
} acct_t;

typedef struct wd {
  bool set;
  const tok_t *tok;
  uint32_t poll_ms, detect, recovery_ms;
  uint8_t action;
} wd_t;

typedef struct cnp {
  const tok_t *name;
  uint32_t nacct;
  acct_t acct[XTM_FW_NUM_PRIOS];
  uint32_t cable_m;
  uint32_t mtu;
  // QFX form: input ieee-802.1 / dscp code-point X { pfc { mru M; } }
  uint32_t ieee_mask;
  uint32_t ieee_mru[XTM_FW_NUM_PRIOS];
  const tok_t *ieee_tok[XTM_FW_NUM_PRIOS];
  uint64_t dscp_mask;
  uint32_t dscp_mru[64];
  const tok_t *dscp_tok[64];
  // output ieee-802.1 code-point P { flow-control-queue [Q ...]; }
  bool has_output;
  int fcq_prio[XTM_FW_MAX_TCS];  // the priority that pauses queue Q, -1 none
  const tok_t *fcq_tok[XTM_FW_MAX_TCS];
  wd_t wd;  // pfc-watchdog under the profile (QFX, EVO)
} cnp_t;

typedef struct cls_entry {
  const tok_t *fc;
  uint32_t ncp;
  uint8_t cp[64];
  uint8_t lp[64];
  const tok_t *cp_tok[64];
} cls_entry_t;

typedef struct classifier {
  const tok_t *name;
  int kind;
  const tok_t *import;  // `import default` or another classifier of its kind
  uint32_t n;
  cls_entry_t e[XTM_FW_MAX_TCS * 2];
} classifier_t;

typedef struct alias {
  const tok_t *name;
  int kind;  // kClsDscp (dscp and dscp-ipv6) or kClsPrec
  uint8_t v;
} alias_t;

typedef struct tcp {
  const tok_t *name;
  const tok_t *smap_ref;
  rate_t shaping;
} tcp_t;

typedef struct fcset {
  const tok_t *name;
} fcset_t;

typedef struct model {
  uint32_t nfc, ndp, nsched, nsmap, nifc, nif, ncnp, ncls, nalias, ntcp, nfcset;
  fc_t fc[MAXN];
  dp_t dp[MAXN];
  sched_t sched[MAXN];
  smap_t smap[MAXN];
  ifcfg_t ifc[MAX_IFCFG];
  iface_t iface[XTM_FW_MAX_PORTS];
  cnp_t cnp[MAXN];
  classifier_t cls[MAXN];
  alias_t alias[MAXN];
  tcp_t tcp[MAXN];
  fcset_t fcset[MAXN];
  wd_t wd;  // class-of-service pfc-watchdog
  bool dcqcn_set;
  cos_dev_t dev;
  cos_police_t *pol;     // firewall policers and where they apply (cos_police.c)
  const tok_t *cos_tok;  // the class-of-service statement
  // classification result: per queue the loss priorities its traffic can have
  uint8_t lpset[XTM_FW_MAX_TCS];
  bool classified;  // some interface has a DSCP classifier
  bool warn_unclassified;
  const tok_t *unclassified_tok;
  char unclassified_msg[XTM_COS_MSG_LEN - 64];
  // per port, set by rank_interfaces: the interface statement that configures it (best), its
  // rank, and the statement naming the port itself (exact)
  int best[COS_MAX_PHYS], rank[COS_MAX_PHYS], exact[COS_MAX_PHYS];
} model_t;

// ------------------------------------------------------------------ small helpers

// Every named struct below starts with `const tok_t *name`.
static int find_name(const void *arr, size_t stride, uint32_t cnt, const tok_t *t) {
  for (uint32_t i = 0; i < cnt; i++) {
    const tok_t *const *name = (const tok_t *const *)((const char *)arr + i * stride);
    if (strcmp((*name)->text, t->text) == 0) {
      return (int)i;
    }
  }
  return -1;
}
#define FIND(arr, cnt, tok) find_name((arr), sizeof((arr)[0]), (cnt), (tok))

// Single-valued statements of a block: a second one used to replace the first silently.
// `keys` (at most ONCE_MAX, NULL-terminated) are the block's single-valued statements,
// `seen` the first of each; true (after the error) for a repeat.
#define ONCE_MAX 12
static const char *const kSchedOnce[] = {"transmit-rate",
                                         "shaping-rate",
                                         "buffer-rate",
                                         "buffer-size",
                                         "explicit-congestion-notification",
                                         "ecn-enhanced",
                                         "latency-ecn",
                                         "priority",
                                         "excess-rate",
                                         "excess-priority",
                                         NULL};
static const char *const kInterpOnce[] = {"fill-level", "drop-probability", NULL};
static const char *const kEcnOnce[] = {"head-marking", "non-ect-tail-drop", NULL};
static const char *const kLatOnce[] = {"threshold", NULL};
static const char *const kIfaceOnce[] = {"speed",
                                         "shaping-rate",
                                         "scheduler-map",
                                         "congestion-notification-profile",
                                         "output-traffic-control-profile",
                                         "member-link-scheduler",
                                         NULL};
static const char *const kInputOnce[] = {"cable-length", "mtu", NULL};
static const char *const kAcctOnce[] = {"pfc-priority", "xoff", "xon", NULL};
static const char *const kWdOnce[] = {"poll-interval", "detection", "recovery-time",
                                      "watchdog-action", NULL};
static const char *const kTcpOnce[] = {"scheduler-map", "shaping-rate", NULL};

static bool once(ctx_t *c, const node_t *n, const char *const *keys, const tok_t **seen,
                 const char *where) {
  for (size_t i = 0; i < ONCE_MAX && keys[i] != NULL; i++) {
    if (strcmp(keys[i], n->w[0]->text) != 0) {
      continue;
    }
    if (seen[i] != NULL) {
      err(c, n->w[0], "duplicate '%s' in %s (first given at line %d)", n->w[0]->text, where,
          seen[i]->line);
      return true;
    }
    seen[i] = n->w[0];
    return false;
  }
  return false;
}

static bool dup_check(ctx_t *c, int idx, const tok_t *first, const tok_t *t, const char *what) {
  if (idx >= 0) {
    err(c, t, "duplicate %s '%s' (first defined at line %d)", what, t->text, first->line);
    return true;
  }
  return false;
}

static bool room(ctx_t *c, uint32_t n, uint32_t cap, const tok_t *t, const char *what) {
  if (n >= cap) {
    err(c, t, "too many %s (at most %u)", what, cap);
    return false;
  }
  return true;
}

static bool in_list(const char *w, const char *const *list) {
  for (size_t i = 0; list[i] != NULL; i++) {
    if (strcmp(w, list[i]) == 0) {
      return true;
    }
  }
  return false;
}

// (RATE | percent P | remainder) [exact | rate-limit] [burst-size B] at word i; `what`
// names the statement ("transmit-rate"), `remainder`/`limit`/`burst` which parts it takes.
static bool parse_rate_or_pct(ctx_t *c, const node_t *n, size_t i, rate_t *r, bool remainder,
                              bool limit, bool burst) {
  if (r->kind != kRateNone) {
    err(c, n->w[0], "duplicate '%s' (first given at line %d)", n->w[0]->text, r->tok->line);
    return false;
  }
  rate_t v = {0};
  while (i < n->nw) {
    const tok_t *t = n->w[i];
    if (t->type != 'w') {
      err(c, t, "unexpected '%s' after '%s'", t->text, n->w[0]->text);
      return false;
    }
    if (limit && (strcmp(t->text, "exact") == 0 || strcmp(t->text, "rate-limit") == 0)) {
      if (v.limit_tok != NULL) {
        err(c, t, "'%s' after '%s' in '%s'", t->text, v.limit_tok->text, n->w[0]->text);
        return false;
      }
      v.limit_tok = t;
      i++;
      continue;
    }
    if (burst && strcmp(t->text, "burst-size") == 0) {
      uint64_t b;
      if (!need_word(c, n, i + 1, "a burst size in bytes")) {
        return false;
      }
      const tok_t *bt = n->w[i + 1];
      uint64_t milli;
      if (!parse_scaled_milli(bt->text, &milli) || milli % 1000u != 0 || milli == 0) {
        err(c, bt, "'%s' is not a burst size in bytes (for 'burst-size')", bt->text);
        return false;
      }
      b = milli / 1000u;
      if (b > XTM_Q_SHAPER_BURST_BYTES_MASK) {
        err(c, bt, "burst-size %s is above the %u-byte shaper bucket of this hardware", bt->text,
            (unsigned)XTM_Q_SHAPER_BURST_BYTES_MASK);
        return false;
      }
      v.burst = (uint32_t)b;
      v.burst_tok = bt;
      i += 2;
      continue;
    }
    if (v.kind != kRateNone) {
      err(c, t, "unexpected '%s' after '%s'", t->text, n->w[0]->text);
      return false;
    }
    if (strcmp(t->text, "percent") == 0) {
      uint64_t m;
      if (!parse_milli(c, n, i + 1, "a percentage", &m)) {
        return false;
      }
      // percent 0 is a transmit-rate without a guarantee; as a shaper it would never send
      if (m > 100000u || (m == 0 && !remainder)) {
        err(c, n->w[i + 1], "percentage '%s' is out of range (%s P <= 100)", n->w[i + 1]->text,
            remainder ? "0 <=" : "0 <");
        return false;
      }
      v.kind = kRatePct;
      v.pct_milli = (uint32_t)m;
      v.tok = n->w[i + 1];
      i += 2;
    } else if (strcmp(t->text, "remainder") == 0) {
      if (!remainder) {
        err(c, t, "'%s' takes a rate or 'percent P', not 'remainder'", n->w[0]->text);
        return false;
      }
      v.kind = kRateRemainder;
      v.tok = t;
      i++;
    } else {
      uint64_t bps;
      if (!parse_rate_str(t->text, &bps)) {
        err(c, t, "'%s' is not a rate (for '%s'; e.g. 100g, 6g, 500m)", t->text, n->w[0]->text);
        return false;
      }
      v.kind = kRateAbs;
      v.bps = bps;
      v.tok = t;
      i++;
    }
  }
  if (v.kind == kRateNone) {
    err(c, n->w[n->nw - 1], "'%s' needs a rate or 'percent P'", n->w[0]->text);
    return false;
  }
  *r = v;
  return true;
}

// ------------------------------------------------------------------ forwarding classes

static void add_fc(ctx_t *c, model_t *m, fc_t f) {
  if (!room(c, m->nfc, MAXN, f.name, "forwarding classes")) {
    return;
  }
  // Junos lets several classes share a queue (up to 16 classes on 8 queues) when they
  // agree on the queue's packet-drop attribute; the hardware keeps one PFC priority per
  // queue (TC_PG_MAP: the TC is the queue)
  for (uint32_t j = 0; j < m->nfc; j++) {
    const fc_t *o = &m->fc[j];
    if (o->queue != f.queue || o->implicit) {
      continue;
    }
    if (o->no_loss != f.no_loss) {
      err(c, f.queue_tok,
          "forwarding classes '%s' and '%s' share queue %u but only '%s' is no-loss (the classes "
          "of one queue have one packet-drop attribute)",
          o->name->text, f.name->text, f.queue, o->no_loss ? o->name->text : f.name->text);
      return;
    }
    if (o->pfc_prio >= 0 && f.pfc_prio >= 0 && o->pfc_prio != f.pfc_prio) {
      junos_refused(c, f.prio_tok,
                    "forwarding classes '%s' and '%s' share queue %u with pfc-priority %d and %d "
                    "(the hardware has one PFC priority per queue)",
                    o->name->text, f.name->text, f.queue, o->pfc_prio, f.pfc_prio);
      return;
    }
  }
  m->fc[m->nfc++] = f;
}

static void sec_forwarding_classes(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n0 = sec->kids[k];
    node_t tmp;
    const tok_t *buf[64];
    const node_t *n = flat_view(n0, &tmp, buf, 64);  // class NAME { queue-num 3; no-loss; }
    bool queue_form = is_word(n, 0, "queue");        // queue Q NAME (one class per queue)
    if (!is_word(n, 0, "class") && !queue_form) {
      unknown(c, n, "forwarding-classes");
      continue;
    }
    if (!want_leaf(c, n) || !need_word(c, n, 1, queue_form ? "a queue number" : "a class name")) {
      continue;
    }
    if (queue_form && !need_word(c, n, 2, "a class name")) {
      continue;
    }
    const tok_t *name = n->w[queue_form ? 2 : 1];
    if (!check_name(c, name, "forwarding-class")) {
      continue;
    }
    int d = FIND(m->fc, m->nfc, name);
    if (dup_check(c, d, d >= 0 ? m->fc[d].name : NULL, name, "forwarding-class")) {
      continue;
    }
    fc_t f = {.name = name, .pfc_prio = -1};
    bool have_q = false;
    bool have_prio = false;
    bool ok = true;
    size_t i = 2;
    if (queue_form) {
      node_t sub = {.w = n->w, .nw = n->nw};
      uint64_t v;
      ok = parse_uint(c, &sub, 1, 0, c->hw->num_tcs - 1u, &v);
      f.queue = (uint32_t)v;
      f.queue_tok = n->w[1];
      have_q = true;
      i = 3;
    }
    while (i < n->nw && ok) {
      const tok_t *t = n->w[i];
      uint64_t v;
      if ((strcmp(t->text, "queue-num") == 0 && have_q) ||
          (strcmp(t->text, "pfc-priority") == 0 && have_prio)) {
        err(c, t, "duplicate '%s' in forwarding class '%s'", t->text, f.name->text);
        ok = false;
      } else if (strcmp(t->text, "queue-num") == 0) {
        node_t sub = {.w = n->w + i, .nw = n->nw - i};
        uint64_t q;
        if (i + 1 < n->nw && xtm_num_u64(NULL, n->w[i + 1]->text, 0, 11, &q, NULL) == kXtmNumOk &&
            q >= c->hw->num_tcs) {
          // QFX multidestination queues 8..11 are valid Junos
          err(c, n->w[i + 1],
              "queue-num %s is out of range 0..%u (this traffic manager has %u queues per port)",
              n->w[i + 1]->text, c->hw->num_tcs - 1u, c->hw->num_tcs);
          ok = false;
        } else {
          ok = parse_uint(c, &sub, 1, 0, c->hw->num_tcs - 1u, &v);
          if (ok) {  // without a value n->w[i + 1] is past the statement (fuzz_cos)
            f.queue = (uint32_t)v;
            f.queue_tok = n->w[i + 1];
          }
        }
        have_q = true;
        i += 2;
      } else if (strcmp(t->text, "pfc-priority") == 0) {
        have_prio = true;
        node_t sub = {.w = n->w + i, .nw = n->nw - i};
        ok = parse_uint(c, &sub, 1, 0, 7, &v);
        if (ok) {
          f.pfc_prio = (int)v;
          f.prio_tok = n->w[i + 1];
        }
        i += 2;
      } else if (strcmp(t->text, "no-loss") == 0) {
        f.no_loss = true;
        i++;
      } else if (strcmp(t->text, "priority") == 0 || strcmp(t->text, "policing-priority") == 0 ||
                 strcmp(t->text, "spu-priority") == 0) {
        // fabric / policing priorities of other platforms (not applicable on PTX)
        node_t sub = {.w = n->w + i, .nw = n->nw - i};
        if (!need_word(c, &sub, 1, "a priority")) {
          ok = false;
        } else {
          warn(c, t,
               "valid Junos, not modelled by xtm: '%s %s' of forwarding class '%s' is ignored (a "
               "fabric or policing priority: xtm has no fabric queues)",
               t->text, n->w[i + 1]->text, f.name->text);
        }
        i += 2;
      } else {
        err(c, t, "unknown attribute '%s' of forwarding class '%s'", t->text, f.name->text);
        ok = false;
      }
    }
    if (!ok) {
      continue;
    }
    if (!have_q) {
      err(c, name, "forwarding class '%s' needs 'queue-num'", f.name->text);
      continue;
    }
    add_fc(c, m, f);
  }
}

// The Junos default classes keep their queues unless the configuration defines the name or
// gives the queue to another class (which renames it) [Junos "Default Forwarding Classes"].
static void default_fcs(ctx_t *c, model_t *m) {
  static const char *const kDefault[] = {"best-effort", "expedited-forwarding",
                                         "assured-forwarding", "network-control"};
  uint32_t n0 = m->nfc;
  for (uint32_t q = 0; q < 4 && q < c->hw->num_tcs; q++) {
    bool taken = false;
    for (uint32_t j = 0; j < n0; j++) {
      taken |= m->fc[j].queue == q || strcmp(m->fc[j].name->text, kDefault[q]) == 0;
    }
    const tok_t *t = taken ? NULL : cos_synth_tok(c, 'w', kDefault[q], 0, 0);
    if (t != NULL && m->nfc < MAXN) {
      m->fc[m->nfc++] =
          (fc_t){.name = t, .queue = q, .pfc_prio = -1, .implicit = true, .queue_tok = t};
    }
  }
}

static const fc_t *fc_by_name(const model_t *m, const tok_t *t) {
  int i = FIND(m->fc, m->nfc, t);
  return i >= 0 ? &m->fc[i] : NULL;
}

// The class of a queue for Junos default classification: a default-named class if there
// is one on it, else the first class on it.
static const fc_t *fc_of_queue(const model_t *m, uint32_t q) {
  const fc_t *any = NULL;
  for (uint32_t i = 0; i < m->nfc; i++) {
    if (m->fc[i].queue == q) {
      if (m->fc[i].implicit) {
        return &m->fc[i];
      }
      if (any == NULL) {
        any = &m->fc[i];
      }
    }
  }
  return any;
}

// ------------------------------------------------------------------ code points

static bool parse_bits(const char *s, size_t n, uint8_t *out) {
  if (strlen(s) != n || strspn(s, "01") != n) {
    return false;
  }
  *out = (uint8_t)strtoul(s, NULL, 2);
  return true;
}

// A DSCP code point: 6 binary digits, a standard alias, or a code-point-aliases name.
static bool parse_codepoint(const model_t *m, const char *s, int kind, uint8_t *out) {
  static const struct {
    const char *n;
    uint8_t v;
  } kAlias[] = {{"be", 0},    {"ef", 46},   {"af11", 10}, {"af12", 12}, {"af13", 14}, {"af21", 18},
                {"af22", 20}, {"af23", 22}, {"af31", 26}, {"af32", 28}, {"af33", 30}, {"af41", 34},
                {"af42", 36}, {"af43", 38}, {"cs0", 0},   {"cs1", 8},   {"cs2", 16},  {"cs3", 24},
                {"cs4", 32},  {"cs5", 40},  {"cs6", 48},  {"cs7", 56},  {"nc1", 48},  {"nc2", 56}};
  int akind = kind == kClsPrec ? kClsPrec : kClsDscp;
  for (uint32_t i = 0; i < m->nalias; i++) {
    if (m->alias[i].kind == akind && strcmp(m->alias[i].name->text, s) == 0) {
      *out = m->alias[i].v;
      return true;
    }
  }
  if (kind == kClsPrec) {
    return parse_bits(s, 3, out);
  }
  if (kind == kClsIeee || kind == kClsIeeeAd || kind == kClsExp) {
    return parse_bits(s, 3, out) ||
           (strlen(s) == 1 && s[0] >= '0' && s[0] <= '7' && (*out = (uint8_t)(s[0] - '0'), true));
  }
  if (parse_bits(s, 6, out)) {
    return true;
  }
  for (size_t i = 0; i < sizeof(kAlias) / sizeof(kAlias[0]); i++) {
    if (strcmp(s, kAlias[i].n) == 0) {
      *out = kAlias[i].v;
      return true;
    }
  }
  return false;
}

static int cls_kind(const char *w) {
  for (int k = 0; k < kClsKinds; k++) {
    if (strcmp(w, kClsNames[k]) == 0) {
      return k;
    }
  }
  return -1;
}

static void sec_aliases(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    int kind = cls_kind(n->w[0]->text);
    if (kind < 0) {
      unknown(c, n, "code-point-aliases");
      continue;
    }
    if (!want_block(c, n, 1)) {
      continue;
    }
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *a = n->kids[j];
      if (!want_leaf(c, a) || !need_word(c, a, 1, "code-point bits") || !no_more(c, a, 2)) {
        continue;
      }
      if (kind != kClsDscp && kind != kClsDscp6 && kind != kClsPrec) {
        continue;  // aliases of classifier kinds xtm does not model (used by them only)
      }
      uint8_t v;
      bool ok =
          kind == kClsPrec ? parse_bits(a->w[1]->text, 3, &v) : parse_bits(a->w[1]->text, 6, &v);
      if (!ok) {
        err(c, a->w[1], "'%s' is not %s code-point bits (for alias '%s')", a->w[1]->text,
            kind == kClsPrec ? "3" : "6", a->w[0]->text);
        continue;
      }
      if (!check_name(c, a->w[0], "code-point alias") ||
          !room(c, m->nalias, MAXN, a->w[0], "code-point aliases")) {
        continue;
      }
      m->alias[m->nalias++] =
          (alias_t){.name = a->w[0], .kind = kind == kClsPrec ? kClsPrec : kClsDscp, .v = v};
    }
  }
}

static uint8_t lp_of(const char *s) {
  for (int i = 0; i < 4; i++) {
    if (strcmp(s, kLpNames[i]) == 0) {
      return (uint8_t)(1u << i);
    }
  }
  return 0;
}

static void sec_classifiers(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    int kind = cls_kind(n->w[0]->text);
    if (kind < 0) {
      unknown(c, n, "classifiers");
      continue;
    }
    if (!need_word(c, n, 1, "a classifier name") || !want_block(c, n, 2)) {
      continue;
    }
    if (!check_name(c, n->w[1], "classifier")) {
      continue;
    }
    int d = -1;
    for (uint32_t i = 0; i < m->ncls; i++) {
      if (m->cls[i].kind == kind && strcmp(m->cls[i].name->text, n->w[1]->text) == 0) {
        d = (int)i;
      }
    }
    if (dup_check(c, d, d >= 0 ? m->cls[d].name : NULL, n->w[1], "classifier") ||
        !room(c, m->ncls, MAXN, n->w[1], "classifiers")) {
      continue;
    }
    classifier_t *cl = &m->cls[m->ncls++];
    *cl = (classifier_t){.name = n->w[1], .kind = kind};
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (is_word(e, 0, "import")) {
        if (want_leaf(c, e) && need_word(c, e, 1, "'default' or a classifier name") &&
            no_more(c, e, 2)) {
          if (cl->import != NULL) {
            err(c, e->w[0], "duplicate 'import' in classifier '%s' (first given at line %d)",
                cl->name->text, cl->import->line);
          }
          cl->import = e->w[1];
        }
        continue;
      }
      if (!is_word(e, 0, "forwarding-class")) {
        unknown(c, e, "a classifier");
        continue;
      }
      if (!need_word(c, e, 1, "a forwarding class") || !want_block(c, e, 2)) {
        continue;
      }
      if (cl->n >= XTM_FW_MAX_TCS * 2) {
        err(c, e->w[1], "too many forwarding classes in classifier '%s'", cl->name->text);
        continue;
      }
      cls_entry_t *ce = &cl->e[cl->n++];
      *ce = (cls_entry_t){.fc = e->w[1]};
      for (size_t q = 0; q < e->nkids; q++) {
        node_t tmp;
        const tok_t *buf[160];
        const node_t *lp =
            flat_view(e->kids[q], &tmp, buf, 160);  // loss-priority low { code-points ...; }
        if (!is_word(lp, 0, "loss-priority")) {
          unknown(c, lp, "a classifier forwarding-class");
          continue;
        }
        if (!need_word(c, lp, 1, "a loss priority") || !want_leaf(c, lp)) {
          continue;
        }
        const char *lpv = lp->w[1]->text;
        uint8_t lpm = lp_of(lpv);
        if (lpm == 0) {
          err(c, lp->w[1], "unknown loss-priority '%s'", lpv);
          continue;
        }
        // code-points (CP | [ CP ... ]), repeated (the set form gives one per line)
        size_t i = 2;
        if (!is_word(lp, 2, "code-points")) {
          err(c, lp->w[lp->nw > 2 ? 2 : 1], "expected 'code-points' after 'loss-priority %s'", lpv);
          continue;
        }
        while (i < lp->nw) {
          if (!is_word(lp, i, "code-points")) {
            err(c, lp->w[i], "unexpected '%s' in 'loss-priority %s'", lp->w[i]->text, lpv);
            break;
          }
          const tok_t *cps[64];
          size_t next = 0;
          node_t sub = {.w = lp->w + i, .nw = lp->nw - i};
          size_t ncp = word_list(c, &sub, 1, cps, 64, &next);
          if (ncp == 0) {
            break;
          }
          i += next;
          for (size_t x = 0; x < ncp; x++) {
            uint8_t v;
            if (!parse_codepoint(m, cps[x]->text, kind, &v)) {
              if (kind == kClsPrec || kind == kClsIeee || kind == kClsIeeeAd || kind == kClsExp) {
                err(c, cps[x], "'%s' is not a %s code point (3 binary digits)", cps[x]->text,
                    kClsNames[kind]);
              } else {
                err(c, cps[x],
                    "'%s' is not a DSCP code point (6 binary digits or an alias such as af31)",
                    cps[x]->text);
              }
              continue;
            }
            if (ce->ncp < 64) {
              ce->cp_tok[ce->ncp] = cps[x];
              ce->lp[ce->ncp] = lpm;
              ce->cp[ce->ncp++] = v;
            }
          }
        }
      }
    }
  }
}
// A segmented point of a drop-profile (fill-level F drop-probability P); false on an error.
static bool dp_fill_level(ctx_t *c, const node_t *e, dp_t *p, const tok_t **fill_tok) {
  if (p->interp) {
    err(c, e->w[0], "drop-profile '%s' mixes 'interpolate' and segmented points", p->name->text);
    return false;
  }
  uint64_t f, q;
  if (!want_leaf(c, e) || !parse_milli(c, e, 1, "a fill level", &f)) {
    return false;
  }
  if (!is_word(e, 2, "drop-probability")) {
    err(c, e->w[e->nw > 2 ? 2 : 1], "expected 'drop-probability' after 'fill-level %s'",
        e->w[1]->text);
    return false;
  }
  if (!parse_milli(c, e, 3, "a probability", &q) || !no_more(c, e, 4)) {
    return false;
  }
  if (f > 100000u) {
    err(c, e->w[1], "fill-level %s is above 100 percent", e->w[1]->text);
    return false;
  }
  if (q > 100000u) {
    err(c, e->w[3], "drop-probability %s is above 100 percent", e->w[3]->text);
    return false;
  }
  if (p->n >= XTM_FW_NUM_POINTS) {
    err(c, e->w[0], "drop-profile '%s' has more than %u points (the hardware holds %u)",
        p->name->text, XTM_FW_NUM_POINTS, XTM_FW_NUM_POINTS);
    return false;
  }
  p->fill[p->n] = (uint32_t)f;
  p->prob[p->n] = (uint32_t)q;
  fill_tok[p->n] = e->w[1];
  p->n++;
  return true;
}

// interpolate { fill-level [ ... ]; drop-probability [ ... ]; }: the two lists, paired in
// order; false on an error.
static bool dp_interpolate(ctx_t *c, const node_t *e, dp_t *p, const tok_t **fill_tok) {
  if (p->n > 0) {
    err(c, e->w[0], "drop-profile '%s' mixes 'interpolate' and segmented points", p->name->text);
    return false;
  }
  if (!want_block(c, e, 1)) {
    return false;
  }
  p->interp = true;
  const tok_t *ft[XTM_FW_NUM_POINTS + 1];
  const tok_t *pt[XTM_FW_NUM_POINTS + 1];
  size_t nf = 0, np = 0;
  const tok_t *ftok = e->w[0], *ptok = e->w[0];
  const tok_t *seen_interp[ONCE_MAX] = {0};
  bool ok = true;
  for (size_t q = 0; q < e->nkids; q++) {
    const node_t *l = e->kids[q];
    if (once(c, l, kInterpOnce, seen_interp, "interpolate")) {
      continue;
    }
    size_t next = 0;
    if (is_word(l, 0, "fill-level")) {
      nf = word_list(c, l, 1, ft, XTM_FW_NUM_POINTS, &next);
      ftok = l->w[0];
      if (nf == 0 || !no_more(c, l, next)) {
        ok = false;
      }
    } else if (is_word(l, 0, "drop-probability")) {
      np = word_list(c, l, 1, pt, XTM_FW_NUM_POINTS, &next);
      ptok = l->w[0];
      if (np == 0 || !no_more(c, l, next)) {
        ok = false;
      }
    } else {
      unknown(c, l, "interpolate");
      ok = false;
    }
  }
  if (!ok) {
    return false;
  }
  if (nf != np) {
    err(c, np < nf ? ptok : ftok,
        "interpolate in drop-profile '%s' has %zu fill levels but %zu drop probabilities",
        p->name->text, nf, np);
    return false;
  }
  for (size_t q = 0; q < nf && ok; q++) {
    uint64_t f, pr;
    int fst = milli_of(ft[q]->text, &f);
    int pst = fst == kXtmNumOk ? milli_of(pt[q]->text, &pr) : kXtmNumOk;
    if (fst != kXtmNumOk) {
      bad_milli(c, ft[q], fst, "fill-level");
      ok = false;
    } else if (pst != kXtmNumOk) {
      bad_milli(c, pt[q], pst, "drop-probability");
      ok = false;
    } else if (f > 100000u) {
      err(c, ft[q], "fill-level %s is above 100 percent", ft[q]->text);
      ok = false;
    } else if (pr > 100000u) {
      err(c, pt[q], "drop-probability %s is above 100 percent", pt[q]->text);
      ok = false;
    } else {
      p->fill[p->n] = (uint32_t)f;
      p->prob[p->n] = (uint32_t)pr;
      fill_tok[p->n] = ft[q];
      p->n++;
    }
  }
  return ok;
}

// Fill levels must rise (an error); a falling probability is only warned about.
static bool dp_points_in_order(ctx_t *c, const dp_t *p, const tok_t *const *fill_tok) {
  for (uint32_t i = 1; i < p->n; i++) {
    if (p->fill[i] <= p->fill[i - 1]) {
      err(c, fill_tok[i], "fill-level %s of drop-profile '%s' is not above the previous fill level",
          fill_tok[i]->text, p->name->text);
      return false;
    }
  }
  for (uint32_t i = 1; i < p->n; i++) {
    if (p->prob[i] < p->prob[i - 1]) {
      warn(c, fill_tok[i],
           "drop-probability %u.%03u at fill-level %s of drop-profile '%s' is below the previous "
           "point's %u.%03u: marking and dropping get rarer as the queue fills",
           p->prob[i] / 1000u, p->prob[i] % 1000u, fill_tok[i]->text, p->name->text,
           p->prob[i - 1] / 1000u, p->prob[i - 1] % 1000u);
      break;
    }
  }
  return true;
}

static void sec_drop_profiles(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "drop-profile")) {
      continue;
    }
    int d = FIND(m->dp, m->ndp, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->dp[d].name : NULL, n->w[0], "drop-profile") ||
        !room(c, m->ndp, MAXN, n->w[0], "drop profiles")) {
      continue;
    }
    dp_t p = {.name = n->w[0], .slot = -1};
    const tok_t *fill_tok[XTM_FW_NUM_POINTS + 1];
    bool ok = true;
    for (size_t j = 0; j < n->nkids && ok; j++) {
      const node_t *e = n->kids[j];
      if (is_word(e, 0, "fill-level")) {
        ok = dp_fill_level(c, e, &p, fill_tok);
      } else if (is_word(e, 0, "interpolate")) {
        ok = dp_interpolate(c, e, &p, fill_tok);
      } else {
        unknown(c, e, "a drop-profile");
        ok = false;
      }
    }
    if (ok && dp_points_in_order(c, &p, fill_tok)) {
      m->dp[m->ndp++] = p;
    }
  }
}

// ------------------------------------------------------------------ schedulers

static void sched_dpm(ctx_t *c, sched_t *s, const node_t *e) {
  dpm_t d = {.lp = 0, .proto = 0, .at = e->w[0]};
  bool have_lp = false, have_proto = false;
  size_t i = 1;
  while (i < e->nw) {
    if (is_word(e, i, "loss-priority") || is_word(e, i, "protocol") ||
        is_word(e, i, "drop-profile")) {
      if (!need_word(c, e, i + 1, "a value")) {
        return;
      }
      const tok_t *v = e->w[i + 1];
      if (is_word(e, i, "loss-priority")) {
        d.lp = strcmp(v->text, "any") == 0 ? (uint8_t)kLpAny : lp_of(v->text);
        if (d.lp == 0) {
          err(c, v, "unknown loss-priority '%s' (any, low, medium-low, medium-high, high)",
              v->text);
          return;
        }
        have_lp = true;
      } else if (is_word(e, i, "protocol")) {
        if (strcmp(v->text, "any") == 0) {
          d.proto = 0;
        } else if (strcmp(v->text, "tcp") == 0) {
          d.proto = 1;
        } else if (strcmp(v->text, "non-tcp") == 0) {
          d.proto = 2;
        } else {
          err(c, v, "unknown protocol '%s' in drop-profile-map (any, tcp, non-tcp)", v->text);
          return;
        }
        have_proto = true;
      } else {
        d.profile = v;
      }
      i += 2;
    } else {
      err(c, e->w[i], "unexpected '%s' in drop-profile-map", e->w[i]->text);
      return;
    }
  }
  if (d.profile == NULL) {
    err(c, e->w[0], "drop-profile-map needs 'drop-profile NAME'");
    return;
  }
  if (!have_lp) {
    err(c, e->w[0],
        "drop-profile-map needs 'loss-priority (any | low | medium-low | medium-high | high)'");
    return;
  }
  if (!have_proto) {
    err(c, e->w[0], "drop-profile-map needs 'protocol (any | tcp | non-tcp)'");
    return;
  }
  for (uint32_t k = 0; k < s->ndpm; k++) {
    if (s->dpm[k].lp == d.lp && s->dpm[k].proto == d.proto) {
      err(c, e->w[0],
          "second drop-profile-map for the same loss-priority and protocol in scheduler '%s' "
          "(first at line %d)",
          s->name->text, s->dpm[k].at->line);
      return;
    }
  }
  if (s->ndpm >= MAX_DPM) {
    err(c, e->w[0], "too many drop-profile-maps in scheduler '%s' (at most %d)", s->name->text,
        MAX_DPM);
    return;
  }
  s->dpm[s->ndpm++] = d;
}

// buffer-size (temporal US | percent P | remainder) of a scheduler.
static void sched_buffer_size(ctx_t *c, sched_t *s, const node_t *e) {
  if (!want_leaf(c, e)) {
    return;
  }
  uint64_t v;
  if (is_word(e, 1, "temporal")) {
    // microseconds, up to 3 decimals (xtm), with a Junos k/m/g multiplier (4m = 4 s)
    if (need_word(c, e, 2, "microseconds") && no_more(c, e, 3)) {
      if (!parse_scaled_milli(e->w[2]->text, &v)) {
        int st = milli_of(e->w[2]->text, &v);
        bad_milli(c, e->w[2], st == kXtmNumOk ? kXtmNumRange : st, "buffer-size");
      } else if (v == 0) {
        err(c, e->w[2], "buffer-size temporal %s must be above 0", e->w[2]->text);
      } else {
        s->bsize_kind = 1;
        s->bsize_ns = v;  // us x 1000 = ns
        s->bsize_tok = e->w[2];
      }
    }
  } else if (is_word(e, 1, "percent")) {
    if (parse_milli(c, e, 2, "a percentage", &v) && no_more(c, e, 3)) {
      if (v > 100000u || v == 0) {
        err(c, e->w[2], "percentage '%s' is out of range (0 < P <= 100)", e->w[2]->text);
      } else {
        s->bsize_kind = 2;
        s->bsize_pct_milli = (uint32_t)v;
        s->bsize_tok = e->w[2];
      }
    }
  } else if (is_word(e, 1, "remainder")) {
    if (no_more(c, e, 2)) {
      s->bsize_kind = 3;
      s->bsize_tok = e->w[1];
    }
  } else if (is_word(e, 1, "shared")) {
    junos_refused(c, e->w[1],
                  "buffer-size shared of scheduler '%s' (PTX: up to 100 %% of the interface "
                  "buffer while the queue is the only active one; xtm limits are static per "
                  "queue, with one shared pool)",
                  s->name->text);
  } else {
    err(c, e->w[e->nw > 1 ? 1 : 0], "buffer-size needs 'temporal US', 'percent P' or 'remainder'");
  }
}

// ecn-enhanced { head-marking; non-ect-tail-drop; } of a scheduler.
static void sched_ecn_enhanced(ctx_t *c, sched_t *s, const node_t *e) {
  if (!want_block(c, e, 1)) {
    return;
  }
  const tok_t *seen_ecn[ONCE_MAX] = {0};
  for (size_t q = 0; q < e->nkids; q++) {
    const node_t *h = e->kids[q];
    if (once(c, h, kEcnOnce, seen_ecn, "ecn-enhanced")) {
      continue;
    }
    if (is_word(h, 0, "head-marking") && want_leaf(c, h) && no_more(c, h, 1)) {
      s->head_tok = h->w[0];
    } else if (is_word(h, 0, "non-ect-tail-drop") && want_leaf(c, h) && no_more(c, h, 1)) {
      s->nonect_tail = true;
    } else if (!is_word(h, 0, "head-marking") && !is_word(h, 0, "non-ect-tail-drop")) {
      unknown(c, h, "ecn-enhanced");
    }
  }
}

// latency-ecn { threshold NS; } of a scheduler.
static void sched_latency_ecn(ctx_t *c, sched_t *s, const node_t *e) {
  if (!want_block(c, e, 1)) {
    return;
  }
  const tok_t *seen_lat[ONCE_MAX] = {0};
  for (size_t q = 0; q < e->nkids; q++) {
    const node_t *h = e->kids[q];
    if (once(c, h, kLatOnce, seen_lat, "latency-ecn")) {
      continue;
    }
    uint64_t v;
    if (!is_word(h, 0, "threshold")) {
      unknown(c, h, "latency-ecn");
    } else if (want_leaf(c, h) && parse_uint(c, h, 1, 1, 1000000000ull, &v) && no_more(c, h, 2)) {
      s->lat_tok = h->w[1];
      s->lat_ns = v;
    }
  }
  if (s->lat_tok == NULL && e->nkids == 0) {
    err(c, e->w[0], "latency-ecn needs 'threshold NS'");
  }
}

static void sched_priority(ctx_t *c, sched_t *s, const node_t *e) {
  if (!want_leaf(c, e) || !need_word(c, e, 1, "a priority") || !no_more(c, e, 2)) {
    return;
  }
  const char *p = e->w[1]->text;
  int lvl = -1;
  for (int q = 0; q <= kPrLowLatency; q++) {
    if (strcmp(p, kPrNames[q]) == 0) {
      lvl = q;
    }
  }
  if (lvl < 0) {
    err(c, e->w[1],
        "unknown priority '%s' (strict-high, high, medium-high, medium-low, low, "
        "low-latency)",
        p);
  } else {
    s->prio = lvl;
    s->prio_tok = e->w[1];
    s->strict = lvl == kPrStrictHigh || lvl == kPrLowLatency;
  }
}

// excess-rate (percent P | proportion N): the share of the bandwidth beyond the
// transmit-rates (PTX: one excess priority for all queues)
static void sched_excess_rate(ctx_t *c, sched_t *s, const node_t *e) {
  if (!want_leaf(c, e) || !need_word(c, e, 1, "'percent P' or 'proportion N'")) {
    return;
  }
  uint64_t v;
  if (is_word(e, 1, "percent") && parse_milli(c, e, 2, "a percentage", &v) && no_more(c, e, 3)) {
    if (v > 100000u) {
      err(c, e->w[2], "percentage '%s' is out of range (0 <= P <= 100)", e->w[2]->text);
      return;
    }
  } else if (is_word(e, 1, "proportion") && parse_milli(c, e, 2, "a proportion", &v) &&
             no_more(c, e, 3)) {
    if (v > 1000000u) {
      err(c, e->w[2], "proportion '%s' is out of range (0 <= N <= 1000)", e->w[2]->text);
      return;
    }
  } else {
    if (!is_word(e, 1, "percent") && !is_word(e, 1, "proportion")) {
      err(c, e->w[1], "excess-rate needs 'percent P' or 'proportion N'");
    }
    return;
  }
  s->has_excess = true;
  s->excess_w = v;
  s->excess_tok = e->w[2];
}

// After the statements: the scheduler's default drop profile and the checks between statements.
static void sched_finish(ctx_t *c, sched_t *s) {
  // the map of loss priority low (the one traffic without a classifier has)
  for (int pass = 0; pass < 2 && s->dp_ref == NULL; pass++) {
    for (uint32_t q = 0; q < s->ndpm && s->dp_ref == NULL; q++) {
      if ((s->dpm[q].lp & kLpLow) != 0 && (pass == 1 || s->dpm[q].proto == 0)) {
        s->dp_ref = s->dpm[q].profile;
      }
    }
  }
  if (s->dp_ref == NULL && s->ndpm > 0) {
    s->dp_ref = s->dpm[0].profile;
  }
  if (s->head_tok != NULL && s->lat_tok != NULL) {
    err(c, s->lat_tok,
        "scheduler '%s' has both head-marking and latency-ecn (one marking point per queue)",
        s->name->text);
  }
  if (s->ecn_tok != NULL && s->dp_ref == NULL) {
    err(c, s->ecn_tok,
        "explicit-congestion-notification in scheduler '%s' needs a drop-profile-map",
        s->name->text);
  }
  if (s->head_tok != NULL && s->ecn_tok == NULL) {
    err(c, s->head_tok, "head-marking in scheduler '%s' needs explicit-congestion-notification",
        s->name->text);
  }
}

static void sec_schedulers(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "scheduler")) {
      continue;
    }
    int d = FIND(m->sched, m->nsched, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->sched[d].name : NULL, n->w[0], "scheduler") ||
        !room(c, m->nsched, MAXN, n->w[0], "schedulers")) {
      continue;
    }
    sched_t s = {.name = n->w[0], .prio = kPrLow};
    const tok_t *seen_sched[ONCE_MAX] = {0};
    for (size_t j = 0; j < n->nkids; j++) {
      node_t tmp;
      const tok_t *buf[32];
      // transmit-rate { percent 40; exact; }: the block form Junos displays some in
      const char *kw0 = n->kids[j]->w[0]->text;
      bool flat = strcmp(kw0, "transmit-rate") == 0 || strcmp(kw0, "shaping-rate") == 0 ||
                  strcmp(kw0, "buffer-size") == 0 || strcmp(kw0, "buffer-rate") == 0 ||
                  strcmp(kw0, "excess-rate") == 0;
      const node_t *e = flat ? flat_view(n->kids[j], &tmp, buf, 32) : n->kids[j];
      if (once(c, e, kSchedOnce, seen_sched, "a scheduler")) {
        continue;
      }
      const char *w0 = e->w[0]->text;
      if (strcmp(w0, "transmit-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.transmit, true, true, false);
        }
      } else if (strcmp(w0, "shaping-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.shaping, false, false, true);
        }
      } else if (strcmp(w0, "buffer-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.buffer_rate, false, false, false);
        }
      } else if (strcmp(w0, "buffer-size") == 0) {
        sched_buffer_size(c, &s, e);
      } else if (strcmp(w0, "drop-profile-map") == 0) {
        if (want_leaf(c, e)) {
          sched_dpm(c, &s, e);
        }
      } else if (strcmp(w0, "explicit-congestion-notification") == 0) {
        if (want_leaf(c, e) && no_more(c, e, 1)) {
          s.ecn_tok = e->w[0];
        }
      } else if (strcmp(w0, "ecn-enhanced") == 0) {
        sched_ecn_enhanced(c, &s, e);
      } else if (strcmp(w0, "latency-ecn") == 0) {
        sched_latency_ecn(c, &s, e);
      } else if (strcmp(w0, "priority") == 0) {
        sched_priority(c, &s, e);
      } else if (strcmp(w0, "excess-rate") == 0) {
        sched_excess_rate(c, &s, e);
      } else if (strcmp(w0, "excess-priority") == 0) {
        junos_refused(c, e->w[0],
                      "excess-priority of scheduler '%s' (as on PTX, every queue of xtm has the "
                      "one excess priority of its DWRR)",
                      s.name->text);
      } else if (strcmp(w0, "buffer-dynamic-threshold") == 0 || strcmp(w0, "adjust-minimum") == 0 ||
                 strcmp(w0, "adjust-percent") == 0 || strcmp(w0, "shaping-rate-excess-high") == 0 ||
                 strcmp(w0, "shaping-rate-excess-medium-high") == 0) {
        junos_ignored(
            c, e, "a scheduler",
            strcmp(w0, "buffer-dynamic-threshold") == 0
                ? "a shared-buffer threshold of other platforms: the queue's static limit applies"
                : "a rate adjustment of other platforms");
      } else {
        unknown(c, e, "a scheduler");
      }
    }
    sched_finish(c, &s);
    m->sched[m->nsched++] = s;
  }
}

static void sec_scheduler_maps(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "scheduler-map")) {
      continue;
    }
    int d = FIND(m->smap, m->nsmap, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->smap[d].name : NULL, n->w[0], "scheduler-map") ||
        !room(c, m->nsmap, MAXN, n->w[0], "scheduler maps")) {
      continue;
    }
    smap_t *sm = &m->smap[m->nsmap++];
    *sm = (smap_t){.name = n->w[0]};
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (!is_word(e, 0, "forwarding-class")) {
        unknown(c, e, "a scheduler-map");
        continue;
      }
      if (!want_leaf(c, e) || !need_word(c, e, 1, "a forwarding class")) {
        continue;
      }
      if (!is_word(e, 2, "scheduler") || !need_word(c, e, 3, "a scheduler name")) {
        if (!is_word(e, 2, "scheduler")) {
          err(c, e->w[e->nw > 2 ? 2 : 1], "expected 'scheduler NAME' after 'forwarding-class %s'",
              e->w[1]->text);
        }
        continue;
      }
      if (!no_more(c, e, 4)) {
        continue;
      }
      bool dup = false;
      for (uint32_t q = 0; q < sm->n; q++) {
        if (strcmp(sm->e[q].fc->text, e->w[1]->text) == 0) {
          err(c, e->w[1],
              "duplicate forwarding-class '%s' in scheduler-map '%s' (first at line %d)",
              e->w[1]->text, sm->name->text, sm->e[q].fc->line);
          dup = true;
        }
      }
      if (!dup && sm->n < XTM_FW_MAX_TCS * 2) {
        sm->e[sm->n++] = (smap_entry_t){.fc = e->w[1], .sched = e->w[3]};
      }
    }
  }
}

// ------------------------------------------------------------------ interfaces

// `classifiers { dscp C; dscp-ipv6 C; ieee-802.1 C; ... }` of an interface or a unit.
static void if_classifiers(ctx_t *c, ifcfg_t *f, const node_t *e) {
  if (!want_block(c, e, 1)) {
    return;
  }
  for (size_t q = 0; q < e->nkids; q++) {
    const node_t *h = e->kids[q];
    int kind = cls_kind(h->w[0]->text);
    if (kind < 0) {
      unknown(c, h, "interface classifiers");
      continue;
    }
    if (!want_leaf(c, h) || !need_word(c, h, 1, "a classifier name") || !no_more(c, h, 2)) {
      continue;
    }
    for (uint32_t i = 0; i < f->ncls; i++) {
      if (f->cls[i].kind == kind && strcmp(f->cls[i].ref->text, h->w[1]->text) != 0) {
        junos_refused(
            c, h->w[1],
            "%s classifiers '%s' and '%s' on the units of '%s' (the hardware has one DSCP map)",
            kClsNames[kind], f->cls[i].ref->text, h->w[1]->text, f->name->text);
      }
    }
    if (f->ncls < sizeof(f->cls) / sizeof(f->cls[0])) {
      f->cls[f->ncls++] = (ifcls_t){.kind = kind, .ref = h->w[1]};
    }
    f->any = true;
  }
}

// Statements of an interface or its units that program per-unit (logical interface)
// scheduling, ingress scheduling or fixed classification: a tier this hardware lacks.
static bool if_refused(ctx_t *c, const ifcfg_t *f, const node_t *e, bool unit) {
  static const char *const kInput[] = {"input-scheduler-map", "input-shaping-rate",
                                       "input-traffic-control-profile",
                                       "input-excess-bandwidth-share", NULL};
  static const char *const kUnitSched[] = {"scheduler-map",
                                           "shaping-rate",
                                           "output-traffic-control-profile",
                                           "output-traffic-control-profile-remaining",
                                           "per-session-scheduler",
                                           NULL};
  const char *w = e->w[0]->text;
  if (in_list(w, kInput)) {
    junos_refused(c, e->w[0], "'%s' of '%s' (ingress scheduling; xtm schedules at egress only)", w,
                  f->name->text);
    return true;
  }
  if (unit && in_list(w, kUnitSched)) {
    junos_refused(
        c, e->w[0],
        "'%s' on a unit of '%s' (per-unit scheduling: xtm has one set of queues per port)", w,
        f->name->text);
    return true;
  }
  if (strcmp(w, "forwarding-class") == 0) {
    junos_refused(c, e->w[0],
                  "'forwarding-class' on '%s' (a fixed class for all its traffic; the hardware "
                  "classifies by DSCP)",
                  f->name->text);
    return true;
  }
  if (strcmp(w, "forwarding-class-set") == 0) {
    junos_refused(c, e->w[0],
                  "'forwarding-class-set' on '%s' (enhanced transmission selection: a scheduling "
                  "tier between the port and its queues)",
                  f->name->text);
    return true;
  }
  if (strcmp(w, "interface-set") == 0) {
    junos_refused(c, e->w[0], "'interface-set' on '%s' (hierarchical scheduling)", f->name->text);
    return true;
  }
  return false;
}

static void sec_interfaces(ctx_t *c, model_t *m, const node_t *sec) {
  static const char *const kIgnored[] = {"rewrite-rules",
                                         "loss-priority-maps",
                                         "loss-priority-rewrites",
                                         "excess-bandwidth-share",
                                         "exclude-queue-overhead-bytes",
                                         "logical-interface-aggregate-statistics",
                                         "adaptive-shaper",
                                         "virtual-channel-group",
                                         NULL};
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "interface")) {
      continue;
    }
    int d = FIND(m->ifc, m->nifc, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->ifc[d].name : NULL, n->w[0], "interface") ||
        !room(c, m->nifc, MAX_IFCFG, n->w[0], "class-of-service interfaces")) {
      continue;
    }
    ifcfg_t f = {.name = n->w[0]};
    char why[200];
    f.kind = cos_ifname(n->w[0]->text, NULL, why, sizeof(why));
    if (f.kind == kIfBad) {
      err(c, n->w[0], "%s", why);
      continue;
    }
    const tok_t *seen_iface[ONCE_MAX] = {0};
    for (size_t j = 0; j < n->nkids; j++) {
      node_t tmp;
      const tok_t *buf[32];
      const node_t *e = is_word(n->kids[j], 0, "shaping-rate")
                            ? flat_view(n->kids[j], &tmp, buf, 32)
                            : n->kids[j];
      if (once(c, e, kIfaceOnce, seen_iface, "an interface")) {
        continue;
      }
      const char *w0 = e->w[0]->text;
      if (if_refused(c, &f, e, false)) {
        continue;
      }
      if (strcmp(w0, "speed") == 0) {
        // xtm extension (Junos keeps the speed under interfaces or chassis, which are read too)
        if (want_leaf(c, e) && need_word(c, e, 1, "a port speed") && no_more(c, e, 2)) {
          uint64_t bps;
          if (!parse_rate_str(e->w[1]->text, &bps)) {
            err(c, e->w[1], "'%s' is not a rate (for 'speed')", e->w[1]->text);
          } else if (speed_row(bps) == NULL) {
            err(c, e->w[1], "unsupported port speed '%s' (10g 25g 40g 50g 100g 200g 400g 800g)",
                e->w[1]->text);
          } else {
            f.speed_tok = e->w[1];
          }
        }
      } else if (strcmp(w0, "shaping-rate") == 0) {
        if (want_leaf(c, e) && parse_rate_or_pct(c, e, 1, &f.shaping, false, false, false)) {
          f.any = true;
        }
      } else if (strcmp(w0, "scheduler-map") == 0 ||
                 strcmp(w0, "congestion-notification-profile") == 0 ||
                 strcmp(w0, "output-traffic-control-profile") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "a name") && no_more(c, e, 2)) {
          const tok_t **ref = w0[0] == 's' ? &f.smap_ref : w0[0] == 'c' ? &f.cnp_ref : &f.tcp_ref;
          *ref = e->w[1];
          f.any = true;
        }
      } else if (strcmp(w0, "classifiers") == 0) {
        if_classifiers(c, &f, e);
      } else if (strcmp(w0, "member-link-scheduler") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "scale or replicate") && no_more(c, e, 2)) {
          if (is_word(e, 1, "replicate")) {
            f.replicate = true;
          } else if (!is_word(e, 1, "scale")) {
            err(c, e->w[1], "unknown member-link-scheduler '%s' (scale or replicate)",
                e->w[1]->text);
          }
        }
      } else if (strcmp(w0, "unit") == 0) {
        if (!need_word(c, e, 1, "a unit number") || !want_block(c, e, 2)) {
          continue;
        }
        for (size_t q = 0; q < e->nkids; q++) {
          const node_t *u = e->kids[q];
          if (if_refused(c, &f, u, true)) {
            continue;
          }
          if (is_word(u, 0, "classifiers")) {
            if_classifiers(c, &f, u);
          } else if (in_list(u->w[0]->text, kIgnored)) {
            junos_ignored(c, u, "a class-of-service unit",
                          "egress marking or loss-priority maps: the traffic manager's queues, "
                          "limits and marking do not depend on it");
          } else {
            unknown(c, u, "a class-of-service unit");
          }
        }
      } else if (in_list(w0, kIgnored)) {
        junos_ignored(c, e, "a class-of-service interface",
                      "egress marking, loss-priority maps or overhead accounting: the traffic "
                      "manager's queues, limits and marking do not depend on it");
      } else {
        unknown(c, e, "an interface");
      }
    }
    m->ifc[m->nifc++] = f;
  }
}

// ------------------------------------------------------------------ PFC

// input ieee-802.1 | dscp { code-point X { pfc { mru M; } } } (QFX form)
static void cnp_code_points(ctx_t *c, model_t *m, cnp_t *p, const node_t *e, bool dscp) {
  if (!want_block(c, e, 1)) {
    return;
  }
  for (size_t q = 0; q < e->nkids; q++) {
    const node_t *cp = e->kids[q];
    if (!is_word(cp, 0, "code-point")) {
      unknown(c, cp,
              dscp ? "congestion-notification-profile input dscp"
                   : "congestion-notification-profile input ieee-802.1");
      continue;
    }
    if (!need_word(c, cp, 1, "code-point bits")) {
      continue;
    }
    const tok_t *vals[64];
    size_t next = 0;
    size_t nv = word_list(c, cp, 1, vals, 64, &next);  // code-point [ 011 100 ] { pfc; }
    if (nv == 0 || !no_more(c, cp, next)) {
      continue;
    }
    bool pfc = false;
    uint32_t mru = 0;
    for (size_t r = 0; r < cp->nkids; r++) {
      const node_t *s = cp->kids[r];
      if (!is_word(s, 0, "pfc")) {
        if (is_word(s, 0, "xon") || is_word(s, 0, "xoff")) {
          junos_ignored(
              c, s, "a congestion-notification code point",
              "a shared-buffer cell offset of QFX: xtm's XON follows the thresholds below");
        } else {
          unknown(c, s, "a congestion-notification code point");
        }
        continue;
      }
      pfc = true;
      for (size_t t = 0; t < s->nkids; t++) {
        const node_t *x = s->kids[t];
        uint64_t v;
        if (is_word(x, 0, "mru")) {
          if (want_leaf(c, x) && parse_uint(c, x, 1, 64, 16383, &v) && no_more(c, x, 2)) {
            mru = (uint32_t)v;
          }
        } else if (is_word(x, 0, "xon") || is_word(x, 0, "xoff")) {
          junos_ignored(
              c, x, "pfc",
              "a shared-buffer cell offset of QFX: xtm's XON follows the thresholds below");
        } else {
          unknown(c, x, "pfc");
        }
      }
    }
    if (!pfc) {
      continue;  // a code point without pfc enables nothing
    }
    for (size_t x = 0; x < nv; x++) {
      uint8_t v;
      bool ok = dscp ? parse_codepoint(m, vals[x]->text, kClsDscp, &v)
                     : parse_codepoint(m, vals[x]->text, kClsIeee, &v);
      if (!ok) {
        err(c, vals[x], "'%s' is not %s", vals[x]->text,
            dscp ? "a DSCP code point (6 binary digits or an alias)"
                 : "an IEEE 802.1p code point (3 binary digits)");
        continue;
      }
      if (dscp) {
        p->dscp_mask |= 1ull << v;
        p->dscp_mru[v] = mru;
        p->dscp_tok[v] = vals[x];
      } else {
        p->ieee_mask |= 1u << v;
        p->ieee_mru[v] = mru;
        p->ieee_tok[v] = vals[x];
      }
    }
  }
}

static void parse_wd(ctx_t *c, wd_t *wd, const node_t *sec);

// flow-control-queue [ Q ... ] of output code point PRIO: the queues that PFC priority pauses.
static void cnp_flow_control_queues(ctx_t *c, cnp_t *p, const node_t *x, uint8_t prio) {
  const tok_t *qs[XTM_FW_MAX_TCS];
  size_t next = 0;
  size_t nq = want_leaf(c, x) ? word_list(c, x, 1, qs, XTM_FW_MAX_TCS, &next) : 0;
  if (nq == 0 || !no_more(c, x, next)) {
    return;
  }
  p->has_output = true;
  for (size_t y = 0; y < nq; y++) {
    uint64_t qn;
    if (xtm_num_u64(NULL, qs[y]->text, 0, c->hw->num_tcs - 1u, &qn, NULL) != kXtmNumOk) {
      err(c, qs[y], "flow-control-queue '%s' is not a queue 0..%u", qs[y]->text,
          c->hw->num_tcs - 1u);
      continue;
    }
    if (p->fcq_prio[qn] >= 0 && p->fcq_prio[qn] != prio) {
      junos_refused(c, qs[y],
                    "queue %llu paused by PFC priorities %d and %u in '%s' (a queue "
                    "obeys one priority)",
                    (unsigned long long)qn, p->fcq_prio[qn], prio, p->name->text);
      continue;
    }
    p->fcq_prio[qn] = prio;
    p->fcq_tok[qn] = qs[y];
  }
}

// output { ieee-802.1 { code-point B { flow-control-queue [ ... ]; } } } of a profile.
static void cnp_output(ctx_t *c, const model_t *m, cnp_t *p, const node_t *in) {
  if (!want_block(c, in, 1)) {
    return;
  }
  for (size_t q = 0; q < in->nkids; q++) {
    const node_t *ie = in->kids[q];
    if (!is_word(ie, 0, "ieee-802.1")) {
      unknown(c, ie, "congestion-notification-profile output");
      continue;
    }
    if (!want_block(c, ie, 1)) {
      continue;
    }
    for (size_t r = 0; r < ie->nkids; r++) {
      const node_t *cp = ie->kids[r];
      uint8_t prio;
      if (!is_word(cp, 0, "code-point")) {
        unknown(c, cp, "congestion-notification-profile output ieee-802.1");
        continue;
      }
      if (!need_word(c, cp, 1, "code-point bits") || !want_block(c, cp, 2)) {
        continue;
      }
      if (!parse_codepoint(m, cp->w[1]->text, kClsIeee, &prio)) {
        err(c, cp->w[1], "'%s' is not an IEEE 802.1p code point (3 binary digits)", cp->w[1]->text);
        continue;
      }
      for (size_t t = 0; t < cp->nkids; t++) {
        const node_t *x = cp->kids[t];
        if (!is_word(x, 0, "flow-control-queue")) {
          unknown(c, x, "an output code point");
          continue;
        }
        cnp_flow_control_queues(c, p, x, prio);
      }
    }
  }
}

// pfc-priority [ P ... ] of a pfc-account; false on an error.
static bool acct_priorities(ctx_t *c, const node_t *s, acct_t *a) {
  const tok_t *pt[8];
  size_t next = 0;
  size_t np = want_leaf(c, s) ? word_list(c, s, 1, pt, 8, &next) : 0;
  if (np == 0 || !no_more(c, s, next)) {
    return false;
  }
  bool ok = true;
  for (size_t x = 0; x < np; x++) {
    uint64_t pr;
    if (xtm_num_u64(NULL, pt[x]->text, 0, 7, &pr, NULL) != kXtmNumOk) {
      err(c, pt[x], "pfc-priority '%s' is not a priority 0..7", pt[x]->text);
      ok = false;
      continue;
    }
    a->prio_mask |= 1u << pr;
    a->prio_tok[pr] = pt[x];
  }
  return ok;
}

// xoff US or xon US of a pfc-account; false when the value is refused.
static bool acct_threshold(ctx_t *c, const node_t *s, acct_t *a) {
  uint64_t v;
  bool xoff = is_word(s, 0, "xoff");
  if (!want_leaf(c, s) || !parse_milli(c, s, 1, "microseconds", &v) || !no_more(c, s, 2)) {
    return false;
  }
  if (v == 0 || v > 1000000000u) {
    err(c, s->w[1], "%s %s us is out of range (0 < us <= 1000000)", s->w[0]->text, s->w[1]->text);
    return false;
  }
  if (xoff) {
    a->xoff_ns = v;
    a->xoff_tok = s->w[1];
  } else {
    a->xon_ns = v;
    a->xon_tok = s->w[1];
  }
  return true;
}

// xon against xoff of account A (named by E), and A's priorities against the profile's
// accounts so far.
static void acct_check(ctx_t *c, const cnp_t *p, const node_t *e, const acct_t *a,
                       bool bad_threshold) {
  const tok_t *xt = a->xon_tok != NULL ? a->xon_tok : e->w[1];
  if (bad_threshold) {
    // already reported; comparing with a default would blame the wrong value
  } else if (a->xon_ns > a->xoff_ns) {
    err(c, xt, "xon %s us is above xoff (%llu.%03llu us) in pfc-account '%s'", xt->text,
        (unsigned long long)(a->xoff_ns / 1000u), (unsigned long long)(a->xoff_ns % 1000u),
        a->name->text);
  } else if (a->xon_ns * 2u < a->xoff_ns) {
    err(c, xt, "xon %s us is below 50 percent of xoff (%llu.%03llu us) in pfc-account '%s'",
        xt->text, (unsigned long long)(a->xoff_ns / 1000u),
        (unsigned long long)(a->xoff_ns % 1000u), a->name->text);
  }
  for (uint32_t b = 0; b < p->nacct; b++) {
    uint32_t both = p->acct[b].prio_mask & a->prio_mask;
    if (both != 0) {
      int pr = __builtin_ctz(both);
      err(c, a->prio_tok[pr], "pfc-priority %d is in pfc-accounts '%s' and '%s'", pr,
          p->acct[b].name->text, a->name->text);
    }
  }
}

// pfc-account NAME { pfc-priority [ ... ]; xoff US; xon US; } of a profile's input (PTX).
static void cnp_pfc_account(ctx_t *c, cnp_t *p, const node_t *e) {
  if (!need_word(c, e, 1, "an account name") || !want_block(c, e, 2)) {
    return;
  }
  if (p->nacct >= XTM_FW_NUM_PRIOS) {
    err(c, e->w[1], "too many pfc-accounts (at most 8)");
    return;
  }
  bool dupa = false;
  for (uint32_t a = 0; a < p->nacct; a++) {
    if (strcmp(p->acct[a].name->text, e->w[1]->text) == 0) {
      err(c, e->w[1], "duplicate pfc-account '%s' (first defined at line %d)", e->w[1]->text,
          p->acct[a].name->line);
      dupa = true;
    }
  }
  if (dupa || !check_name(c, e->w[1], "pfc-account")) {
    return;
  }
  acct_t a = {.name = e->w[1], .xoff_ns = 5000000u, .xon_ns = 3750000u};
  bool bad_threshold = false;  // a refused xoff/xon: no ordering check against a default
  bool ok = true;
  const tok_t *seen_acct[ONCE_MAX] = {0};
  for (size_t r = 0; r < e->nkids; r++) {
    const node_t *s = e->kids[r];
    if (once(c, s, kAcctOnce, seen_acct, "a pfc-account")) {
      continue;
    }
    if (is_word(s, 0, "pfc-priority")) {
      if (!acct_priorities(c, s, &a)) {
        ok = false;
      }
    } else if (is_word(s, 0, "xoff") || is_word(s, 0, "xon")) {
      if (!acct_threshold(c, s, &a)) {
        bad_threshold = true;
      }
    } else {
      unknown(c, s, "a pfc-account");
    }
  }
  if (a.prio_mask == 0) {
    if (ok) {
      err(c, e->w[1], "pfc-account '%s' needs 'pfc-priority'", e->w[1]->text);
    }
    return;
  }
  acct_check(c, p, e, &a, bad_threshold);
  p->acct[p->nacct++] = a;
}

// input { cable-length M; mtu B; ieee-802.1 | dscp code points; pfc-account ...; } of a profile.
static void cnp_input(ctx_t *c, model_t *m, cnp_t *p, const node_t *in) {
  if (!want_block(c, in, 1)) {
    return;
  }
  const tok_t *seen_input[ONCE_MAX] = {0};
  for (size_t q = 0; q < in->nkids; q++) {
    const node_t *e = in->kids[q];
    if (once(c, e, kInputOnce, seen_input, "congestion-notification-profile input")) {
      continue;
    }
    uint64_t v;
    if (is_word(e, 0, "cable-length")) {
      if (want_leaf(c, e) && parse_uint(c, e, 1, 1, 100000, &v) && no_more(c, e, 2)) {
        p->cable_m = (uint32_t)v;
      }
    } else if (is_word(e, 0, "mtu")) {
      if (want_leaf(c, e) && parse_uint(c, e, 1, 64, 16383, &v) && no_more(c, e, 2)) {
        p->mtu = (uint32_t)v;
      }
    } else if (is_word(e, 0, "ieee-802.1") || is_word(e, 0, "dscp")) {
      bool dscp = is_word(e, 0, "dscp");
      cnp_code_points(c, m, p, e, dscp);
      if (p->dscp_mask != 0 && p->ieee_mask != 0) {
        err(c, e->w[0],
            "congestion-notification-profile '%s' has both DSCP-based and IEEE 802.1p PFC "
            "(Junos allows one of them per profile)",
            p->name->text);
      }
    } else if (is_word(e, 0, "pfc-account")) {
      cnp_pfc_account(c, p, e);
    } else {
      unknown(c, e, "congestion-notification-profile input");
    }
  }
}

static void sec_cnp(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "congestion-notification-profile")) {
      continue;
    }
    int d = FIND(m->cnp, m->ncnp, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->cnp[d].name : NULL, n->w[0],
                  "congestion-notification-profile") ||
        !room(c, m->ncnp, MAXN, n->w[0], "congestion notification profiles")) {
      continue;
    }
    cnp_t *p = &m->cnp[m->ncnp++];
    *p = (cnp_t){.name = n->w[0], .cable_m = 100, .mtu = 9216};
    for (uint32_t q = 0; q < XTM_FW_MAX_TCS; q++) {
      p->fcq_prio[q] = -1;
    }
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *in = n->kids[j];
      if (is_word(in, 0, "pfc-watchdog")) {
        parse_wd(c, &p->wd, in);
      } else if (is_word(in, 0, "output")) {
        cnp_output(c, m, p, in);
      } else if (is_word(in, 0, "input")) {
        cnp_input(c, m, p, in);
      } else {
        unknown(c, in, "a congestion-notification-profile (input, output, pfc-watchdog)");
      }
    }
    if (p->nacct > 0 && (p->ieee_mask != 0 || p->dscp_mask != 0)) {
      err(c, p->name,
          "congestion-notification-profile '%s' has both pfc-account (PTX) and code-point pfc "
          "(QFX) input: give one of the two",
          p->name->text);
    }
  }
}

// pfc-watchdog { poll-interval MS; detection N; recovery-time MS; watchdog-action A; },
// or a bare `pfc-watchdog;` (the Junos defaults).
static void parse_wd(ctx_t *c, wd_t *wd, const node_t *sec) {
  if (wd->set) {
    err(c, sec->w[0], "duplicate 'pfc-watchdog' (first at line %d)", wd->tok->line);
    return;
  }
  *wd = (wd_t){.set = true,
               .tok = sec->w[0],
               .poll_ms = 100,
               .detect = 2,
               .recovery_ms = 200,
               .action = kXtmFwWdActionDrop};
  if (!no_more(c, sec, 1)) {
    return;
  }
  const tok_t *seen_wd[ONCE_MAX] = {0};
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (once(c, n, kWdOnce, seen_wd, "pfc-watchdog")) {
      continue;
    }
    uint64_t v;
    if (is_word(n, 0, "poll-interval")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 4000, &v) && no_more(c, n, 2)) {
        wd->poll_ms = (uint32_t)v;
      }
    } else if (is_word(n, 0, "detection")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 255, &v) && no_more(c, n, 2)) {
        wd->detect = (uint32_t)v;
      }
    } else if (is_word(n, 0, "recovery-time")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 100000, &v) && no_more(c, n, 2)) {
        wd->recovery_ms = (uint32_t)v;
      }
    } else if (is_word(n, 0, "watchdog-action")) {
      if (want_leaf(c, n) && need_word(c, n, 1, "drop or forward") && no_more(c, n, 2)) {
        if (strcmp(n->w[1]->text, "drop") == 0) {
          wd->action = kXtmFwWdActionDrop;
        } else if (strcmp(n->w[1]->text, "forward") == 0) {
          wd->action = kXtmFwWdActionForward;
        } else {
          err(c, n->w[1], "unknown watchdog-action '%s' (drop or forward)", n->w[1]->text);
        }
      }
    } else {
      unknown(c, n, "pfc-watchdog");
    }
  }
}

// ------------------------------------------------------------------ traffic-control-profiles

static void sec_tcps(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1) || !check_name(c, n->w[0], "traffic-control-profile")) {
      continue;
    }
    int d = FIND(m->tcp, m->ntcp, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->tcp[d].name : NULL, n->w[0], "traffic-control-profile") ||
        !room(c, m->ntcp, MAXN, n->w[0], "traffic-control-profiles")) {
      continue;
    }
    tcp_t t = {.name = n->w[0]};
    const tok_t *seen[ONCE_MAX] = {0};
    for (size_t j = 0; j < n->nkids; j++) {
      node_t tmp;
      const tok_t *buf[32];
      const node_t *e = flat_view(n->kids[j], &tmp, buf, 32);
      if (once(c, e, kTcpOnce, seen, "a traffic-control-profile")) {
        continue;
      }
      const char *w0 = e->w[0]->text;
      if (strcmp(w0, "scheduler-map") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "a scheduler-map name") && no_more(c, e, 2)) {
          t.smap_ref = e->w[1];
        }
      } else if (strcmp(w0, "shaping-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &t.shaping, false, false, false);
        }
      } else if (strcmp(w0, "guaranteed-rate") == 0 || strcmp(w0, "delay-buffer-rate") == 0 ||
                 strcmp(w0, "excess-rate") == 0 || strcmp(w0, "excess-rate-high") == 0 ||
                 strcmp(w0, "excess-rate-low") == 0 ||
                 strcmp(w0, "shaping-rate-priority-high") == 0 ||
                 strcmp(w0, "shaping-rate-priority-medium") == 0 ||
                 strcmp(w0, "shaping-rate-priority-low") == 0) {
        junos_refused(c, e->w[0],
                      "'%s' in traffic-control-profile '%s' (a rate of a scheduling level above "
                      "the queues; xtm has the port shaper only)",
                      w0, t.name->text);
      } else if (strcmp(w0, "overhead-accounting") == 0 || strcmp(w0, "adjust-minimum") == 0) {
        junos_ignored(
            c, e, "a traffic-control-profile",
            "overhead accounting: the port shaper counts 20 bytes of preamble and gap per packet");
      } else {
        unknown(c, e, "a traffic-control-profile");
      }
    }
    m->tcp[m->ntcp++] = t;
  }
}

static void sec_fcsets(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1) || !check_name(c, n->w[0], "forwarding-class-set")) {
      continue;
    }
    int d = FIND(m->fcset, m->nfcset, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->fcset[d].name : NULL, n->w[0], "forwarding-class-set") ||
        !room(c, m->nfcset, MAXN, n->w[0], "forwarding-class-sets")) {
      continue;
    }
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (!is_word(e, 0, "class")) {
        unknown(c, e, "a forwarding-class-set");
      } else if (want_leaf(c, e) && need_word(c, e, 1, "a class name") && no_more(c, e, 2) &&
                 fc_by_name(m, e->w[1]) == NULL) {
        err(c, e->w[1], "forwarding-class-set '%s' refers to undefined forwarding-class '%s'",
            n->w[0]->text, e->w[1]->text);
      }
    }
    m->fcset[m->nfcset++] = (fcset_t){.name = n->w[0]};
  }
}

static void sec_dcqcn(ctx_t *c, model_t *m, const node_t *sec) {
  xtm_fw_dcqcn_cfg_t *d = &c->r->cfg.dcqcn;
  if (m->dcqcn_set) {
    err(c, sec->w[0], "duplicate 'dcqcn' stanza");
    return;
  }
  m->dcqcn_set = true;
  d->valid = true;
  const tok_t *first[kXtmFwDcqcnCount] = {0};
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    int which = -1;
    for (int p = 0; p < kXtmFwDcqcnCount; p++) {
      if (strcmp(xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)p)->name, n->w[0]->text) == 0) {
        which = p;
      }
    }
    if (which < 0) {
      err(c, n->w[0], "unknown mlxconfig parameter '%s' in dcqcn", n->w[0]->text);
      continue;
    }
    const xtm_fw_dcqcn_info_t *info = xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)which);
    uint64_t v;
    if (!want_leaf(c, n) || !parse_uint(c, n, 1, info->min, info->max, &v) || !no_more(c, n, 2)) {
      continue;
    }
    if (first[which] != NULL) {
      err(c, n->w[0], "duplicate dcqcn parameter '%s' (first at line %d)", n->w[0]->text,
          first[which]->line);
      continue;
    }
    first[which] = n->w[0];
    d->set[which] = true;
    d->value[which] = (uint32_t)v;
  }
  // Combinations no field range excludes; the hardware saturates them (docs/spec-dcqcn.md
  // D6.1, D6.2), which a configuration should not rely on without a word.
  const int kMin = kXtmFwDcqcnRpgMinRate, kMax = kXtmFwDcqcnRpgMaxRate;
  const int kFirst = kXtmFwDcqcnRateToSetOnFirstCnp;
  uint32_t rmin = d->set[kMin] ? d->value[kMin] : xtm_fw_dcqcn_info(kXtmFwDcqcnRpgMinRate)->dflt;
  uint32_t rmax = d->set[kMax] ? d->value[kMax] : 0u;
  if (rmax != 0u && rmin > rmax) {
    err(c, first[kMin] != NULL ? first[kMin] : first[kMax],
        "RPG_MIN_RATE %u Mb/s is above RPG_MAX_RATE %u Mb/s: a rate floor above the cap (the "
        "hardware would saturate it to the cap, docs/spec-dcqcn.md D6.1)",
        rmin, rmax);
  }
  if (d->set[kFirst] && d->value[kFirst] != 0u &&
      (d->value[kFirst] < rmin || (rmax != 0u && d->value[kFirst] > rmax))) {
    warn(c, first[kFirst],
         "RATE_TO_SET_ON_FIRST_CNP %u Mb/s is outside [RPG_MIN_RATE, RPG_MAX_RATE]: the hardware "
         "clamps it",
         d->value[kFirst]);
  }
}

// ------------------------------------------------------------------ ports

static void speed_txt(char *b, size_t n, uint64_t bps, const tok_t *t) {
  if (t != NULL) {
    snprintf(b, n, "%s", t->text);
  } else if (bps % 1000000000ull == 0) {
    snprintf(b, n, "%llug", (unsigned long long)(bps / 1000000000ull));
  } else {
    fmt_rate(b, n, bps);
  }
}

// For each port, the interface statement that configures it: best[] is the most specific
// match (a port's own name, then its LAG, then the longest pattern, then "all"), exact[] the
// statement naming the port itself.
static void rank_interfaces(ctx_t *c, model_t *m, const cos_dev_t *d) {
  int *best = m->best, *rank = m->rank, *exact = m->exact;
  for (uint32_t p = 0; p < d->nphys; p++) {
    best[p] = -1;
    rank[p] = 0;
    exact[p] = -1;
  }
  for (uint32_t i = 0; i < m->nifc; i++) {
    const ifcfg_t *f = &m->ifc[i];
    if (f->kind == kIfOther) {
      if (f->any) {
        warn(c, f->name,
             "valid Junos, not modelled by xtm: the class-of-service of '%s' is ignored (not a "
             "port of the traffic manager)",
             f->name->text);
      }
      continue;
    }
    int li = f->kind == kIfLag ? cos_dev_lag(d, f->name->text) : -1;
    if (f->kind == kIfLag && (li < 0 || d->lag[li].nmembers == 0)) {
      err(c, f->name,
          "aggregated interface '%s' has no member links in this configuration (interfaces <port> "
          "ether-options 802.3ad %s)",
          f->name->text, f->name->text);
      continue;
    }
    bool matched = false;
    for (uint32_t p = 0; p < d->nphys; p++) {
      int r = 0;
      if (f->kind == kIfPhys) {
        r = strcmp(d->phys[p].name, f->name->text) == 0 ? 100000 : 0;
      } else if (f->kind == kIfLag) {
        r = d->phys[p].lag == li ? 90000 : 0;
      } else if (strcmp(f->name->text, "all") == 0) {
        r = 1;
      } else if (cos_glob(f->name->text, d->phys[p].name)) {
        r = 1000 + (int)strlen(f->name->text);  // the longer pattern is the more specific
      }
      if (r == 0) {
        continue;
      }
      matched = true;
      if (r == 100000) {
        exact[p] = (int)i;
      }
      if (r > rank[p]) {
        rank[p] = r;
        best[p] = (int)i;
      }
    }
    if (!matched && f->kind == kIfWildcard) {
      warn(c, f->name, "interface pattern '%s' matches no port of this configuration",
           f->name->text);
    }
  }
}

// A LAG member configured by its own name while its LAG has a statement is an error (and
// unbound); every bound port gets a model port (mport -2: to be numbered by cos_dev_map).
static void check_lag_members(ctx_t *c, model_t *m, cos_dev_t *d) {
  int *best = m->best, *exact = m->exact;
  for (uint32_t p = 0; p < d->nphys; p++) {
    if (exact[p] >= 0 && d->phys[p].lag >= 0 && cos_dev_lag(d, d->lag[d->phys[p].lag].name) >= 0) {
      for (uint32_t i = 0; i < m->nifc; i++) {
        if (m->ifc[i].kind == kIfLag &&
            strcmp(m->ifc[i].name->text, d->lag[d->phys[p].lag].name) == 0) {
          err(c, m->ifc[exact[p]].name,
              "interface '%s' is a member of '%s', whose class-of-service applies to it (give it "
              "there)",
              d->phys[p].name, m->ifc[i].name->text);
          best[p] = -1;
        }
      }
    }
    if (best[p] >= 0) {
      d->phys[p].mport = -2;
    }
  }
}

// The speed of each bound port; a speed the PFC headroom table lacks is refused.
static void bind_speeds(ctx_t *c, const model_t *m, cos_dev_t *d) {
  for (uint32_t p = 0; p < d->nphys; p++) {
    if (m->best[p] < 0) {
      continue;
    }
    const ifcfg_t *f = &m->ifc[m->best[p]];
    cos_dev_speed(c, d, (int)p, 0, f->speed_tok);
    if (d->phys[p].speed_bps != 0 && speed_row(d->phys[p].speed_bps) == NULL) {
      char sb[32];
      fmt_rate(sb, sizeof(sb), d->phys[p].speed_bps);
      const tok_t *t = d->phys[p].speed_tok != NULL ? d->phys[p].speed_tok : f->name;
      junos_refused(c, t,
                    "port speed %s of '%s' (%s; the PFC headroom table of this model has 10g 25g "
                    "40g 50g 100g 200g 400g 800g)",
                    sb, d->phys[p].name, d->phys[p].speed_src);
      d->phys[p].speed_bps = 0;
    }
  }
}

// Model port PORT, bound to physical port P: its m->iface[] entry (with its
// traffic-control-profile resolved) and its r->ports[] row.
static void add_port(ctx_t *c, model_t *m, const cos_dev_t *d, uint32_t p, uint32_t port) {
  const ifcfg_t *f = &m->ifc[m->best[p]];
  const cos_phys_t *ph = &d->phys[p];
  iface_t *o = &m->iface[m->nif++];
  *o = (iface_t){.name = f->name,
                 .pname = ph->name,
                 .cfg = f,
                 .port = port,
                 .speed_bps = ph->speed_bps,
                 .shaping = f->shaping,
                 .smap_ref = f->smap_ref,
                 .cnp_ref = f->cnp_ref,
                 .div = 1};
  speed_txt(o->speed_txt, sizeof(o->speed_txt), ph->speed_bps, ph->speed_tok);
  if (f->kind == kIfLag && !f->replicate) {
    o->div = d->lag[ph->lag].nmembers;  // scale: absolute rates divided among the members
  }
  if (f->tcp_ref != NULL) {
    int ti = FIND(m->tcp, m->ntcp, f->tcp_ref);
    if (ti < 0) {
      err(c, f->tcp_ref, "interface '%s' refers to undefined traffic-control-profile '%s'",
          f->name->text, f->tcp_ref->text);
    } else if (f->smap_ref != NULL || f->shaping.kind != kRateNone) {
      err(c, f->tcp_ref,
          "interface '%s' has output-traffic-control-profile and a scheduler-map or "
          "shaping-rate of its own (Junos refuses both)",
          f->name->text);
    } else {
      o->smap_ref = m->tcp[ti].smap_ref;
      o->shaping = m->tcp[ti].shaping;
    }
  }
  xtm_cos_port_plan_t *pp = &c->r->ports[c->r->nports++];
  memset(pp, 0, sizeof(*pp));
  snprintf(pp->name, sizeof(pp->name), "%s", ph->name);
  snprintf(pp->lag, sizeof(pp->lag), "%s", ph->lag >= 0 ? d->lag[ph->lag].name : "");
  snprintf(pp->cos_iface, sizeof(pp->cos_iface), "%s", f->name->text);
  pp->port = port;
  pp->speed_bps = ph->speed_bps;
  snprintf(pp->speed_src, sizeof(pp->speed_src), "%s", ph->speed_src);
  pp->speed_line = ph->speed_tok != NULL ? ph->speed_tok->line : 0;
}

// A port that only ingress policing uses (no class-of-service): its r->ports[] row; its
// speed is not needed (a policer's rate is its own).
static void add_policed_port(ctx_t *c, const cos_dev_t *d, uint32_t p, uint32_t port) {
  const cos_phys_t *ph = &d->phys[p];
  xtm_cos_port_plan_t *pp = &c->r->ports[c->r->nports++];
  memset(pp, 0, sizeof(*pp));
  snprintf(pp->name, sizeof(pp->name), "%s", ph->name);
  snprintf(pp->lag, sizeof(pp->lag), "%s", ph->lag >= 0 ? d->lag[ph->lag].name : "");
  pp->port = port;
  pp->speed_bps = ph->speed_bps;
  snprintf(pp->speed_src, sizeof(pp->speed_src), "not read: ingress policing only");
}

// Which class-of-service interface statement configures each port, the port speeds, and
// the model ports (docs/firmware.md section 4.2). Fills m->iface[] and r->ports[].
static void bind_ports(ctx_t *c, model_t *m, const node_t *root) {
  cos_dev_t *d = &m->dev;
  cos_dev_read(c, d, root);
  for (uint32_t i = 0; i < m->nifc; i++) {
    if (m->ifc[i].kind == kIfPhys) {
      (void)cos_dev_phys(c, d, m->ifc[i].name->text, m->ifc[i].name, true);
    }
  }
  rank_interfaces(c, m, d);
  check_lag_members(c, m, d);
  cos_police_want(m->pol, d);  // a policed ingress port is a port of the map too
  bind_speeds(c, m, d);
  if (c->r->nerrors > 0 || !cos_dev_map(c, d, m->cos_tok)) {
    return;
  }
  // iface[] in model port order
  for (uint32_t port = 0; port < c->hw->num_ports; port++) {
    for (uint32_t p = 0; p < d->nphys; p++) {
      if (m->best[p] >= 0 && d->phys[p].mport == (int)port) {
        add_port(c, m, d, p, port);
      } else if (d->phys[p].mport == (int)port) {
        add_policed_port(c, d, p, port);
      }
    }
  }
  c->r->port_rule = d->identity ? "Junos port number" : "in (fpc, pic, port, channel) order";
}

// ------------------------------------------------------------------ classification

typedef struct table {
  int16_t q[64];  // queue, -1 unset
  uint8_t lp[64];
} table_t;

static const classifier_t *cls_find(const model_t *m, int kind, const char *name) {
  for (uint32_t i = 0; i < m->ncls; i++) {
    if (m->cls[i].kind == kind && strcmp(m->cls[i].name->text, name) == 0) {
      return &m->cls[i];
    }
  }
  return NULL;
}

// The Junos default DSCP classifier [Junos "Default DSCP and DSCP IPv6 Classifiers"]:
// af11 -> assured-forwarding low, af12/af13 high, ef expedited-forwarding, cs6/cs7
// network-control, every other code point best-effort (loss priority low).
static void default_table(const model_t *m, table_t *t) {
  const fc_t *be = fc_of_queue(m, 0), *ef = fc_of_queue(m, 1), *af = fc_of_queue(m, 2),
             *nc = fc_of_queue(m, 3);
  for (int d = 0; d < 64; d++) {
    t->q[d] = (int16_t)(be != NULL ? (int)be->queue : 0);
    t->lp[d] = kLpLow;
  }
  if (af != NULL) {
    t->q[10] = t->q[12] = t->q[14] = (int16_t)af->queue;
    t->lp[12] = t->lp[14] = kLpHigh;
  }
  if (ef != NULL) {
    t->q[46] = (int16_t)ef->queue;
  }
  if (nc != NULL) {
    t->q[48] = t->q[56] = (int16_t)nc->queue;
  }
}

static bool build_table(ctx_t *c, const model_t *m, const classifier_t *cl, table_t *t, int depth) {
  for (int d = 0; d < 64; d++) {
    t->q[d] = -1;
    t->lp[d] = kLpLow;
  }
  if (cl->import != NULL) {
    if (strcmp(cl->import->text, "default") == 0) {
      if (cl->kind == kClsPrec) {
        junos_refused(c, cl->import,
                      "'import default' in inet-precedence classifier '%s' (the default IP "
                      "precedence classifier is not modelled; list the code points)",
                      cl->name->text);
        return false;
      }
      default_table(m, t);
    } else {
      const classifier_t *o = cls_find(m, cl->kind, cl->import->text);
      if (o == NULL) {
        err(c, cl->import, "classifier '%s' imports undefined %s classifier '%s'", cl->name->text,
            kClsNames[cl->kind], cl->import->text);
        return false;
      }
      if (depth >= 8) {
        err(c, cl->import, "classifier '%s': imports nested deeper than 8 (a loop?)",
            cl->name->text);
        return false;
      }
      if (!build_table(c, m, o, t, depth + 1)) {
        return false;
      }
    }
  }
  int owner_line[64] = {0};
  bool ok = true;
  for (uint32_t e = 0; e < cl->n; e++) {
    const fc_t *fc = fc_by_name(m, cl->e[e].fc);
    if (fc == NULL) {
      err(c, cl->e[e].fc, "classifier '%s' refers to undefined forwarding-class '%s'",
          cl->name->text, cl->e[e].fc->text);
      ok = false;
      continue;
    }
    for (uint32_t x = 0; x < cl->e[e].ncp; x++) {
      uint8_t cp = cl->e[e].cp[x];
      int lo = cl->kind == kClsPrec ? cp << 3 : cp;
      int hi = cl->kind == kClsPrec ? lo + 7 : cp;
      if (owner_line[cp & 63] != 0) {
        err(c, cl->e[e].fc, "code point %u is mapped twice in classifier '%s' (first at line %d)",
            cp, cl->name->text, owner_line[cp & 63]);
      }
      owner_line[cp & 63] = cl->e[e].fc->line;
      for (int d = lo; d <= hi; d++) {
        t->q[d] = (int16_t)fc->queue;
        t->lp[d] = cl->e[e].lp[x];
      }
    }
  }
  return ok;
}

// The hardware's one DSCP map from every DSCP-family classifier the ports use (they must
// agree), and per queue the loss priorities its traffic gets.
static void classify(ctx_t *c, model_t *m) {
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  for (uint32_t q = 0; q < XTM_FW_MAX_TCS; q++) {
    m->lpset[q] = kLpLow;
  }
  const tok_t *first = NULL;
  const char *first_port = NULL;
  table_t ref;
  char without[160] = "";
  size_t nwithout = 0;
  const tok_t *without_tok = NULL;
  for (uint32_t i = 0; i < m->nif; i++) {
    const iface_t *f = &m->iface[i];
    bool has = false;
    for (uint32_t k = 0; k < f->cfg->ncls; k++) {
      const ifcls_t *ic = &f->cfg->cls[k];
      bool is_default = strcmp(ic->ref->text, "default") == 0;
      const classifier_t *cl = is_default ? NULL : cls_find(m, ic->kind, ic->ref->text);
      if (!is_default && cl == NULL) {
        err(c, ic->ref, "interface '%s' refers to undefined classifier '%s'", f->name->text,
            ic->ref->text);
        continue;
      }
      if (ic->kind == kClsIeee || ic->kind == kClsIeeeAd || ic->kind == kClsExp) {
        warn(c, ic->ref,
             "valid Junos, not modelled by xtm: %s classifier '%s' of '%s' is ignored (xtm "
             "classifies IP traffic by DSCP; %s traffic is not modelled)",
             kClsNames[ic->kind], ic->ref->text, f->name->text,
             ic->kind == kClsExp ? "MPLS" : "VLAN-tagged non-IP");
        continue;
      }
      table_t t;
      if (is_default) {
        if (ic->kind == kClsPrec) {
          junos_refused(c, ic->ref,
                        "the default inet-precedence classifier on '%s' (list the code points in a "
                        "classifier)",
                        f->name->text);
          continue;
        }
        default_table(m, &t);
      } else if (!build_table(c, m, cl, &t, 0)) {
        continue;
      }
      for (int d = 0; d < 64; d++) {  // unlisted code points: queue 0, loss priority low
        if (t.q[d] < 0) {
          t.q[d] = 0;
          t.lp[d] = kLpLow;
        }
      }
      has = true;
      if (first == NULL) {
        first = ic->ref;
        first_port = f->pname;
        ref = t;
        continue;
      }
      for (int d = 0; d < 64; d++) {
        if (t.q[d] != ref.q[d] || t.lp[d] != ref.lp[d]) {
          junos_refused(
              c, ic->ref,
              "%s classifier '%s' of '%s' classifies DSCP %d to queue %d, classifier '%s' of '%s' "
              "to queue %d (the hardware has one DSCP map for all ports and both IP versions)",
              kClsNames[ic->kind], ic->ref->text, f->pname, d, t.q[d], first->text, first_port,
              ref.q[d]);
          break;
        }
      }
    }
    if (!has) {
      if (nwithout < 4) {
        size_t o = strlen(without);
        snprintf(without + o, sizeof(without) - o, "%s%s", nwithout ? " " : "", f->pname);
      }
      nwithout++;
      without_tok = without_tok != NULL ? without_tok : f->name;
    }
  }
  if (first == NULL) {
    m->classified = false;
    m->warn_unclassified = m->nif > 0;
    return;  // the reset map (DSCP >> 3) stays, as resolve set it
  }
  m->classified = true;
  for (int d = 0; d < 64; d++) {
    cfg->cls.dscp_tc[d] = (uint8_t)(ref.q[d] < (int)c->hw->num_tcs ? ref.q[d] : 0);
  }
  for (uint32_t q = 0; q < XTM_FW_MAX_TCS; q++) {
    m->lpset[q] = 0;
  }
  for (int d = 0; d < 64; d++) {
    m->lpset[ref.q[d] & 7] |= ref.lp[d];
  }
  if (nwithout > 0) {
    snprintf(m->unclassified_msg, sizeof(m->unclassified_msg),
             "%s%s %s no DSCP classifier: the hardware's one DSCP map ('%s') classifies %s ingress "
             "traffic too (Junos would apply its default classifier)",
             without, nwithout > 4 ? " ..." : "", nwithout == 1 ? "has" : "have", first->text,
             nwithout == 1 ? "its" : "their");
    m->unclassified_tok = without_tok;
  }
}

// After the other messages: a configuration's own problems come first.
static void classify_warn(ctx_t *c, const model_t *m) {
  if (m->warn_unclassified) {
    warn(c, m->cos_tok,
         "no interface has a DSCP classifier: the hardware's reset map (TC = DSCP >> 3) classifies "
         "all traffic (Junos would apply its default classifier)");
  }
  if (m->unclassified_tok != NULL) {
    warn(c, m->unclassified_tok, "%s", m->unclassified_msg);
  }
}
// A rate's b/s: absolute (divided by `div`: a LAG's members share it in scale mode), or a
// percentage of `base`.
static uint64_t rate_of(const rate_t *r, uint64_t base, uint32_t div) {
  if (r->kind == kRateAbs) {
    return r->bps / (div != 0 ? div : 1u);
  }
  return (uint64_t)((u128)base * r->pct_milli / 100000u);
}

// The Q8.16 bytes/cycle register value of a rate (section 5.4). `what` describes the rate
// for the messages ("shaping-rate 1k of scheduler 'x'"), `never` what a rate of 0 would do
// ("the queue would never send"): an error when it rounds to 0, a warning when the
// register is more than 1 % off the rate. Shapers and policers (cos_police.c) share it.
uint32_t cos_rate_reg(ctx_t *c, const tok_t *t, const char *what, uint64_t bps, const char *never) {
  uint32_t q = xtm_cos_rate_q16(bps, c->clock_hz);
  // one register step in b/s: 8 x clock / 65536; the smallest rate that rounds to 1 is half
  uint64_t smallest = (4u * c->clock_hz + 65535u) / 65536u;
  if (q == 0) {
    err(c, t,
        "%s rounds to 0 in the Q8.16 rate register at a %llu Hz clock (%s; the smallest rate is "
        "%llu b/s)",
        what, (unsigned long long)c->clock_hz, never, (unsigned long long)smallest);
    return 0;
  }
  uint64_t prog = (uint64_t)(((u128)q * 8u * c->clock_hz) / 65536u);
  uint64_t diff = prog > bps ? prog - bps : bps - prog;
  if ((u128)diff * 100u > (u128)bps) {
    warn(c, t, "%s is programmed as %llu b/s, %.1f %% off (Q8.16 steps of %.0f b/s at this clock)",
         what, (unsigned long long)prog, 100.0 * (double)diff / (double)bps,
         8.0 * (double)c->clock_hz / 65536.0);
  }
  return q;
}

static uint32_t rate_reg(ctx_t *c, const tok_t *t, const char *what, uint64_t bps) {
  return cos_rate_reg(c, t, what, bps, "the queue would never send");
}

// A drop profile that gives probability 0 at every fill level (spec 6.1): segmented with
// no point or only 0 % points; interpolated with only 0 % points ending at 100 % fill.
static bool never_marks(const dp_t *p) {
  for (uint32_t i = 0; i < p->n; i++) {
    if (p->prob[i] != 0) {
      return false;
    }
  }
  return !p->interp || (p->n > 0 && p->fill[p->n - 1] == 100000u);
}

// The target rate of a scheduler when it needs no port rate (all rates involved absolute).
static bool abs_target(const sched_t *s, uint64_t *bps) {
  if (s->buffer_rate.kind != kRateNone) {
    if (s->buffer_rate.kind != kRateAbs || s->shaping.kind == kRatePct) {
      return false;
    }
    *bps = s->buffer_rate.bps;
    if (s->shaping.kind == kRateAbs && s->shaping.bps < *bps) {
      *bps = s->shaping.bps;
    }
    return true;
  }
  const rate_t *r = s->transmit.kind != kRateNone ? &s->transmit : &s->shaping;
  if (r->kind != kRateAbs || s->bsize_kind == 3) {
    return false;
  }
  *bps = r->bps;
  return true;
}

// Checks of one scheduler that need no port, for every scheduler, used by a scheduler-map
// or not: the drop profile exists and can mark when the scheduler marks ECN, an absolute
// shaping rate fits the register, an absolute target rate's buffer fits the per-queue cap,
// the latency threshold fits 32 bits. The per-queue checks give the same messages for a
// used scheduler (stored once).
static void check_sched(ctx_t *c, const model_t *m, const sched_t *s) {
  for (uint32_t k = 0; k < s->ndpm; k++) {
    if (s->dpm[k].profile != s->dp_ref && FIND(m->dp, m->ndp, s->dpm[k].profile) < 0) {
      err(c, s->dpm[k].profile, "scheduler '%s' refers to undefined drop-profile '%s'",
          s->name->text, s->dpm[k].profile->text);
    }
  }
  if (s->dp_ref != NULL) {
    int di = FIND(m->dp, m->ndp, s->dp_ref);
    if (di < 0) {
      err(c, s->dp_ref, "scheduler '%s' refers to undefined drop-profile '%s'", s->name->text,
          s->dp_ref->text);
    } else if (s->ecn_tok != NULL && s->lat_tok == NULL && never_marks(&m->dp[di])) {
      err(c, s->ecn_tok,
          "scheduler '%s' marks ECN through drop-profile '%s', whose probability is 0 at every "
          "fill level: the queue can never mark",
          s->name->text, m->dp[di].name->text);
    }
  }
  if (s->shaping.kind == kRateAbs) {
    char what[XTM_COS_NAME_LEN + 96];
    snprintf(what, sizeof(what), "shaping-rate %s of scheduler '%s'", s->shaping.tok->text,
             s->name->text);
    (void)rate_reg(c, s->shaping.tok, what, s->shaping.bps);
  }
  uint64_t target;
  if (s->bsize_kind != 2 && abs_target(s, &target)) {
    uint64_t ns = s->bsize_kind == 1 ? s->bsize_ns : 100000u;
    uint64_t bytes = xtm_cos_temporal_bytes(ns, target);
    if (bytes > XTM_COS_PER_QUEUE_CAP_BYTES) {
      const tok_t *bt = s->bsize_tok != NULL ? s->bsize_tok : s->name;
      char rb[32];
      fmt_rate(rb, sizeof(rb), target);
      uint64_t max_us = (uint64_t)((u128)XTM_COS_PER_QUEUE_CAP_BYTES * 8000000u / target);
      err(c, bt,
          "buffer-size %s us gives %llu bytes at %s, above the 2.5 GB per-queue cap (at most %llu "
          "us at this rate)",
          bt->text, (unsigned long long)bytes, rb, (unsigned long long)max_us);
    }
  }
  if (s->lat_tok != NULL && (s->lat_ns * c->clock_hz + 999999999u) / 1000000000u > 0xFFFFFFFFu) {
    err(c, s->lat_tok, "latency-ecn threshold %s ns does not fit 32 bits of cycles",
        s->lat_tok->text);
  }
}

// Objects nothing refers to: a scheduler no scheduler-map uses is checked only on its own
// (check_sched), without a port; the others are simply idle. One warning each.
static void warn_unused(ctx_t *c, const model_t *m) {
  for (uint32_t i = 0; i < m->ndp; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nsched && !used; k++) {
      for (uint32_t q = 0; q < m->sched[k].ndpm && !used; q++) {
        used = strcmp(m->sched[k].dpm[q].profile->text, m->dp[i].name->text) == 0;
      }
    }
    if (!used) {
      warn(c, m->dp[i].name, "drop-profile '%s' is not used by any scheduler", m->dp[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->nsched; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nsmap && !used; k++) {
      for (uint32_t e = 0; e < m->smap[k].n && !used; e++) {
        used = strcmp(m->smap[k].e[e].sched->text, m->sched[i].name->text) == 0;
      }
    }
    if (!used) {
      warn(c, m->sched[i].name,
           "scheduler '%s' is not used by any scheduler-map (checked without a port)",
           m->sched[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->nsmap; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nifc && !used; k++) {
      used = m->ifc[k].smap_ref != NULL &&
             strcmp(m->ifc[k].smap_ref->text, m->smap[i].name->text) == 0;
    }
    for (uint32_t k = 0; k < m->ntcp && !used; k++) {
      used = m->tcp[k].smap_ref != NULL &&
             strcmp(m->tcp[k].smap_ref->text, m->smap[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->smap[i].name, "scheduler-map '%s' is not used by any interface",
           m->smap[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->ncnp; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nifc && !used; k++) {
      used =
          m->ifc[k].cnp_ref != NULL && strcmp(m->ifc[k].cnp_ref->text, m->cnp[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->cnp[i].name, "congestion-notification-profile '%s' is not used by any interface",
           m->cnp[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->ncls; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nifc && !used; k++) {
      for (uint32_t q = 0; q < m->ifc[k].ncls && !used; q++) {
        used = m->ifc[k].cls[q].kind == m->cls[i].kind &&
               strcmp(m->ifc[k].cls[q].ref->text, m->cls[i].name->text) == 0;
      }
    }
    for (uint32_t k = 0; k < m->ncls && !used; k++) {
      used = m->cls[k].import != NULL && m->cls[k].kind == m->cls[i].kind &&
             strcmp(m->cls[k].import->text, m->cls[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->cls[i].name, "classifier '%s' is not used by any interface", m->cls[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->ntcp; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nifc && !used; k++) {
      used =
          m->ifc[k].tcp_ref != NULL && strcmp(m->ifc[k].tcp_ref->text, m->tcp[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->tcp[i].name, "traffic-control-profile '%s' is not used by any interface",
           m->tcp[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->nfcset; i++) {
    warn(c, m->fcset[i].name,
         "valid Junos, not modelled by xtm: forwarding-class-set '%s' is ignored (not used by an "
         "interface; applied, it would be refused)",
         m->fcset[i].name->text);
  }
}

// ------------------------------------------------------------------ resolution

// One PG (ingress port, PFC priority) of a congestion notification profile.
static void add_pg(ctx_t *c, const iface_t *f, uint32_t pr, const char *acct, uint64_t xoff_ns,
                   uint64_t xon_ns, const tok_t *xt, uint32_t cable_m, uint32_t mtu,
                   uint64_t *hdrm_total) {
  xtm_cos_result_t *r = c->r;
  xtm_fw_cfg_t *cfg = &r->cfg;
  const uint32_t C = c->hw->cell_bytes;
  for (uint32_t g = 0; g < cfg->num_pgs; g++) {
    if (cfg->pgs[g].port == f->port && cfg->pgs[g].prio == pr) {
      return;  // DSCP-based PFC: several code points of one priority
    }
  }
  if (cfg->num_pgs >= XTM_FW_MAX_PGS) {
    return;
  }
  xtm_cos_pg_plan_t *g = &r->pg[r->npgs++];
  memset(g, 0, sizeof(*g));
  snprintf(g->iface, sizeof(g->iface), "%s", f->pname);
  snprintf(g->account, sizeof(g->account), "%s", acct);
  g->port = f->port;
  g->prio = pr;
  g->speed_bps = f->speed_bps;
  g->xoff_bytes = xtm_cos_temporal_bytes(xoff_ns, f->speed_bps);
  g->xon_bytes = xtm_cos_temporal_bytes(xon_ns, f->speed_bps);
  g->xoff_cells = xtm_cos_bytes_to_cells(g->xoff_bytes, C);
  g->xon_cells = g->xon_bytes ? xtm_cos_bytes_to_cells(g->xon_bytes, C) - 1u : 0u;
  g->cable_m = cable_m;
  g->mtu = mtu;
  (void)xtm_cos_headroom_bits(f->speed_bps, cable_m, mtu, &g->hdrm_bits);
  g->hdrm_bytes = (g->hdrm_bits + 7u) / 8u;
  g->hdrm_cells = xtm_cos_bytes_to_cells(g->hdrm_bytes, C);
  if (g->xoff_cells > 0xFFFFFFFu) {
    err(c, xt, "xoff of pfc-account '%s' is %llu cells, above the 28-bit threshold register", acct,
        (unsigned long long)g->xoff_cells);
  }
  *hdrm_total += g->hdrm_cells;
  cfg->pgs[cfg->num_pgs++] = (xtm_fw_pg_cfg_t){
      .port = (uint8_t)f->port,
      .prio = (uint8_t)pr,
      .pfc_en = true,
      .xoff_cells = g->xoff_cells,
      .xon_cells = g->xon_cells,
      .hdrm_cells = g->hdrm_cells,
  };
}

// The PGs of one interface's congestion notification profile.
static void iface_pgs(ctx_t *c, const model_t *m, const iface_t *f, const cnp_t *p,
                      uint64_t *hdrm_total) {
  const xtm_fw_cfg_t *cfg = &c->r->cfg;
  if (p->nacct > 0) {
    for (uint32_t a = 0; a < p->nacct; a++) {
      const acct_t *ac = &p->acct[a];
      for (uint32_t pr = 0; pr < XTM_FW_NUM_PRIOS; pr++) {
        if (((ac->prio_mask >> pr) & 1u) == 0) {
          continue;
        }
        bool used = false;
        for (uint32_t q = 0; q < m->nfc; q++) {
          int fp = m->fc[q].pfc_prio >= 0 ? m->fc[q].pfc_prio : (int)m->fc[q].queue;
          used |= m->fc[q].no_loss && fp == (int)pr;
        }
        if (!used && ac->prio_tok[pr] != NULL) {
          warn(c, ac->prio_tok[pr],
               "pfc-priority %u of pfc-account '%s' is not the priority of any no-loss class", pr,
               ac->name->text);
        }
        add_pg(c, f, pr, ac->name->text, ac->xoff_ns, ac->xon_ns,
               ac->xoff_tok != NULL ? ac->xoff_tok : f->cnp_ref, p->cable_m, p->mtu, hdrm_total);
      }
    }
    return;
  }
  if (p->ieee_mask != 0 || p->dscp_mask != 0) {
    // QFX form: the priorities of the code points; QFX takes XOFF from its shared-buffer
    // threshold, which xtm does not model: the Junos (PTX) account defaults apply
    warn(c, p->name,
         "congestion-notification-profile '%s' enables PFC by code point (QFX): xtm gives each "
         "priority the Junos pfc-account defaults xoff 5000 us and xon 3750 us of the port speed "
         "(QFX derives XOFF from its shared-buffer threshold, which xtm does not model)",
         p->name->text);
    for (uint32_t pr = 0; pr < XTM_FW_NUM_PRIOS; pr++) {
      if ((p->ieee_mask >> pr) & 1u) {
        add_pg(c, f, pr, "ieee-802.1", 5000000u, 3750000u, p->ieee_tok[pr], p->cable_m,
               p->ieee_mru[pr] != 0 ? p->ieee_mru[pr] : p->mtu, hdrm_total);
      }
    }
    for (uint32_t d = 0; d < 64; d++) {
      if (((p->dscp_mask >> d) & 1u) == 0) {
        continue;
      }
      // DSCP-based PFC: the code point's class must be no-loss; its pfc-priority is the
      // priority of the pause frames
      uint32_t q = cfg->cls.dscp_tc[d];
      const fc_t *nl = NULL;
      for (uint32_t i = 0; i < m->nfc && nl == NULL; i++) {
        if (m->fc[i].queue == q && m->fc[i].no_loss) {
          nl = &m->fc[i];
        }
      }
      if (nl == NULL) {
        err(c, p->dscp_tok[d],
            "DSCP-based PFC on code point %s of '%s': the DSCP map sends it to queue %u, which has "
            "no no-loss class (the pause priority is a no-loss class's pfc-priority)",
            p->dscp_tok[d]->text, p->name->text, q);
        continue;
      }
      uint32_t pr = nl->pfc_prio >= 0 ? (uint32_t)nl->pfc_prio : nl->queue;
      add_pg(c, f, pr, "dscp", 5000000u, 3750000u, p->dscp_tok[d], p->cable_m,
             p->dscp_mru[d] != 0 ? p->dscp_mru[d] : p->mtu, hdrm_total);
    }
    return;
  }
  // no accounts: the Junos defaults for the no-loss classes' priorities
  uint32_t mask = 0;
  for (uint32_t q = 0; q < m->nfc; q++) {
    if (m->fc[q].no_loss) {
      mask |= 1u << (m->fc[q].pfc_prio >= 0 ? (uint32_t)m->fc[q].pfc_prio : m->fc[q].queue);
    }
  }
  for (uint32_t pr = 0; pr < XTM_FW_NUM_PRIOS; pr++) {
    if ((mask >> pr) & 1u) {
      add_pg(c, f, pr, p->name->text, 5000000u, 3750000u, f->cnp_ref, p->cable_m, p->mtu,
             hdrm_total);
    }
  }
}

static bool wd_same(const wd_t *a, const wd_t *b) {
  return a->poll_ms == b->poll_ms && a->detect == b->detect && a->recovery_ms == b->recovery_ms &&
         a->action == b->action;
}

// The drop profile of a queue: the drop-profile-map of each loss priority its traffic has
// (the classifier tells them); they must agree, the hardware holding one per queue.
// Returns the profile's index, -1 for none, -2 after an error.
static int queue_profile(ctx_t *c, const model_t *m, const sched_t *s, uint32_t q,
                         const iface_t *f) {
  if (s->ndpm == 0) {
    return -1;
  }
  uint8_t lps = m->lpset[q] != 0 ? m->lpset[q] : (uint8_t)kLpLow;
  const tok_t *chosen = NULL;
  const tok_t *chosen_at = NULL;
  int chosen_lp = -1;
  for (int b = 0; b < 4; b++) {
    if (((lps >> b) & 1u) == 0) {
      continue;
    }
    // the exact loss priority before `any`; protocol any before tcp/non-tcp, which must agree
    const tok_t *prof = NULL;
    const tok_t *at = NULL;
    for (int pass = 0; pass < 2 && prof == NULL; pass++) {
      const tok_t *tcp = NULL, *non = NULL;
      for (uint32_t k = 0; k < s->ndpm; k++) {
        const dpm_t *d = &s->dpm[k];
        bool lp_ok = pass == 0 ? d->lp == (1u << b) : d->lp == kLpAny;
        if (!lp_ok) {
          continue;
        }
        if (d->proto == 0) {
          prof = d->profile;
          at = d->at;
        } else if (d->proto == 1) {
          tcp = d->profile;
          at = at != NULL ? at : d->at;
        } else {
          non = d->profile;
          at = at != NULL ? at : d->at;
        }
      }
      if (prof == NULL && (tcp != NULL || non != NULL)) {
        if (tcp != NULL && non != NULL && strcmp(tcp->text, non->text) != 0) {
          junos_refused(c, at,
                        "scheduler '%s' gives TCP and non-TCP packets of loss priority %s "
                        "different drop profiles (the hardware does not tell the protocols apart)",
                        s->name->text, kLpNames[b]);
          return -2;
        }
        prof = tcp != NULL ? tcp : non;
      }
    }
    if (prof == NULL) {
      continue;
    }
    if (chosen != NULL && strcmp(chosen->text, prof->text) != 0) {
      junos_refused(
          c, at,
          "queue %u of '%s' gets packets of loss priority %s and %s, which scheduler '%s' gives "
          "drop profiles '%s' and '%s' (the hardware has one profile per queue)",
          q, f->pname, kLpNames[chosen_lp], kLpNames[b], s->name->text, chosen->text, prof->text);
      return -2;
    }
    chosen = prof;
    chosen_at = at;
    chosen_lp = b;
  }
  // maps for loss priorities this queue's traffic never has
  for (uint32_t k = 0; k < s->ndpm; k++) {
    const dpm_t *d = &s->dpm[k];
    if ((d->lp & lps) == 0 && (chosen == NULL || strcmp(d->profile->text, chosen->text) != 0)) {
      char have[48] = "";
      for (int b = 0; b < 4; b++) {
        if ((lps >> b) & 1u) {
          size_t o = strlen(have);
          snprintf(have + o, sizeof(have) - o, "%s%s", o ? ", " : "", kLpNames[b]);
        }
      }
      warn(c, d->at,
           "drop-profile-map of scheduler '%s' for loss priority %s applies to no packet of queue "
           "%u (%s gives its traffic loss priority %s only)",
           s->name->text, d->lp == kLpAny ? "any" : kLpNames[__builtin_ctz(d->lp)], q,
           m->classified ? "the classifier" : "without a classifier, Junos", have);
    }
  }
  (void)chosen_at;
  if (chosen == NULL) {
    return -1;
  }
  int di = FIND(m->dp, m->ndp, chosen);
  if (di < 0) {
    err(c, chosen, "scheduler '%s' refers to undefined drop-profile '%s'", s->name->text,
        chosen->text);
    return -2;
  }
  return di;
}

typedef struct qwork {
  const fc_t *fc;
  const sched_t *s;
  uint64_t tx;  // transmit rate, b/s (remainder resolved)
  bool has_tx;
  uint64_t shaping;  // the calculated shaping rate
  uint64_t limit;
  bool ok;
} qwork_t;

// resolve() turns the model into the plan in steps, each a function below: the
// classification, the ports and their PGs, the shared pool, the watchdog, the queues of
// each interface's scheduler map, then the checks of what is defined but unused.

// classification: TC = queue-num; TC -> queue identity; TC -> PG = pfc-priority
static void resolve_classes(ctx_t *c, model_t *m) {
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  cfg->cls.valid = true;
  for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
    cfg->cls.tc_queue[t] = (uint8_t)(t < c->hw->num_tcs ? t : 0u);
    cfg->cls.tc_pg[t] = (uint8_t)t;
  }
  for (uint32_t i = 0; i < m->nfc; i++) {
    if (m->fc[i].pfc_prio >= 0) {
      cfg->cls.tc_pg[m->fc[i].queue] = (uint8_t)m->fc[i].pfc_prio;
    }
  }
  for (uint32_t d = 0; d < 64; d++) {
    uint32_t t = d >> 3;
    cfg->cls.dscp_tc[d] = (uint8_t)(t < c->hw->num_tcs ? t : 0u);
  }
  classify(c, m);
}

// the rate of an interface's port: its speed, or its shaping-rate where that is lower
static uint64_t iface_rate(const iface_t *f) {
  uint64_t port_rate = f->speed_bps;
  if (f->shaping.kind != kRateNone) {
    uint64_t s = rate_of(&f->shaping, f->speed_bps, f->div);
    port_rate = s < port_rate ? s : port_rate;
  }
  return port_rate;
}

// the whole buffer, cells
static uint64_t buffer_cells(const ctx_t *c) {
  return (uint64_t)c->hw->ocb_cells + c->hw->hbm_cells;
}

// one interface's port registers, then the PGs of its congestion notification profile
// (ingress), whose headroom is added to *hdrm_total
static void resolve_port(ctx_t *c, model_t *m, const iface_t *f, uint64_t *hdrm_total) {
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  uint64_t port_rate = iface_rate(f);
  xtm_fw_port_cfg_t *pc = &cfg->ports[f->port];
  uint32_t pq = xtm_cos_pause_quantum_q16(f->speed_bps, c->clock_hz);
  if (pq < XTM_FW_PAUSE_QUANTUM_MIN_Q16) {
    err(c, f->name,
        "interface '%s': a pause quantum (512 bit times) at %s is %.4f cycles of the %llu Hz "
        "clock, below the register's minimum of 0.25 (spec 7.2)",
        f->name->text, f->speed_txt, pq / 65536.0, (unsigned long long)c->clock_hz);
  }
  uint32_t port_q16 = xtm_cos_rate_q16(port_rate, c->clock_hz);
  if (f->shaping.kind != kRateNone) {
    char what[XTM_COS_NAME_LEN + 96];
    snprintf(what, sizeof(what), "shaping-rate %s of interface '%s'", f->shaping.tok->text,
             f->name->text);
    port_q16 = rate_reg(c, f->shaping.tok, what, port_rate);
    if (f->shaping.kind == kRateAbs && f->shaping.bps / f->div > f->speed_bps) {
      warn(c, f->shaping.tok, "%s is above its speed %s: the speed applies", what, f->speed_txt);
    }
  }
  *pc = (xtm_fw_port_cfg_t){
      .valid = true,
      .shaper_en = true,
      .ovh_bytes = 20,
      .shaper_rate_q16 = port_q16,
      .shaper_burst_bytes = 9216,
      .pause_quantum_q16 = pq,
      .pfc_quanta = 0xFFFF,
      .pfc_refresh_cycles = (uint32_t)(((uint64_t)0xFFFF * pq / 65536u) / 2u),
  };
  if (pc->shaper_rate_q16 > 0xFFFFFFu) {
    err(c, f->name, "port rate of '%s' does not fit the Q8.16 rate register at this clock",
        f->pname);
  }
  if (f->cnp_ref == NULL) {
    return;
  }
  int pi = FIND(m->cnp, m->ncnp, f->cnp_ref);
  if (pi < 0) {
    err(c, f->cnp_ref, "interface '%s' refers to undefined congestion-notification-profile '%s'",
        f->name->text, f->cnp_ref->text);
    return;
  }
  iface_pgs(c, m, f, &m->cnp[pi], hdrm_total);
}

// the shared pool: the buffer less the PFC headroom of every PG
static void resolve_pool(ctx_t *c, uint64_t hdrm_total) {
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  uint64_t buffer = buffer_cells(c);
  if (hdrm_total >= buffer) {
    err(c, NULL, "PFC headroom (%llu cells) leaves no shared pool in a buffer of %llu cells",
        (unsigned long long)hdrm_total, (unsigned long long)buffer);
  } else {
    cfg->pool_valid = true;
    uint64_t pool = buffer - hdrm_total;
    cfg->pool_cells = (uint32_t)(pool > 0xFFFFFFFu ? 0xFFFFFFFu : pool);
  }
}

// watchdog: class-of-service pfc-watchdog, or that of the profiles in use (one
// configuration in hardware, as Junos has one action for all ports [tm-domain-specs 1.7])
static void resolve_watchdog(ctx_t *c, model_t *m) {
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  wd_t wd = m->wd;
  for (uint32_t i = 0; i < m->nif; i++) {
    int pi = m->iface[i].cnp_ref != NULL ? FIND(m->cnp, m->ncnp, m->iface[i].cnp_ref) : -1;
    if (pi < 0 || !m->cnp[pi].wd.set) {
      continue;
    }
    if (!wd.set) {
      wd = m->cnp[pi].wd;
    } else if (!wd_same(&wd, &m->cnp[pi].wd)) {
      junos_refused(c, m->cnp[pi].wd.tok,
                    "pfc-watchdog of '%s' differs from the one at line %d (the hardware has one "
                    "watchdog configuration)",
                    m->cnp[pi].name->text, wd.tok->line);
    }
  }
  if (!wd.set) {
    return;
  }
  uint64_t poll = (uint64_t)wd.poll_ms * c->clock_hz / 1000u;
  uint32_t restore = (wd.recovery_ms + wd.poll_ms - 1u) / wd.poll_ms;
  if (poll < XTM_FW_WD_POLL_MIN_CYCLES || poll > 0xFFFFFFFFu) {
    err(c, wd.tok,
        "pfc-watchdog poll-interval %u ms is %llu cycles, outside the register's range "
        "%u..4294967295",
        wd.poll_ms, (unsigned long long)poll, (unsigned)XTM_FW_WD_POLL_MIN_CYCLES);
  } else if (restore > 255u) {
    err(c, wd.tok, "pfc-watchdog recovery-time %u ms is %u polls, above 255", wd.recovery_ms,
        restore);
  } else {
    cfg->wd = (xtm_fw_wd_cfg_t){.valid = true,
                                .en = true,
                                .action = wd.action,
                                .poll_cycles = (uint32_t)poll,
                                .detect_polls = wd.detect,
                                .restore_polls = restore};
  }
}

// the queues of one interface's scheduler map while they are resolved
typedef struct smap_work {
  const iface_t *f;
  const smap_t *sm;
  const cnp_t *cnp;  // the interface's congestion notification profile, or NULL
  uint64_t port_rate;
  char prb[32];  // port_rate, formatted
  qwork_t qs[XTM_FW_MAX_TCS];
  uint32_t nq;
  bool excess;  // the DWRR weights come from excess-rate
  uint64_t excess_sum;
  int strict_high, low_latency;
  int levels;  // bit per non-strict priority level of queues with a transmit-rate
} smap_work_t;

// one scheduler per queue (classes may share a queue)
static void smap_collect(ctx_t *c, model_t *m, smap_work_t *w) {
  const smap_t *sm = w->sm;
  for (uint32_t e = 0; e < sm->n; e++) {
    const fc_t *fc = fc_by_name(m, sm->e[e].fc);
    int sci = FIND(m->sched, m->nsched, sm->e[e].sched);
    if (fc == NULL) {
      err(c, sm->e[e].fc, "scheduler-map '%s' refers to undefined forwarding-class '%s'",
          sm->name->text, sm->e[e].fc->text);
    }
    if (sci < 0) {
      err(c, sm->e[e].sched, "scheduler-map '%s' refers to undefined scheduler '%s'",
          sm->name->text, sm->e[e].sched->text);
    }
    if (fc == NULL || sci < 0) {
      continue;
    }
    bool dup = false;
    for (uint32_t q = 0; q < w->nq; q++) {
      if (w->qs[q].fc->queue != fc->queue) {
        continue;
      }
      dup = true;
      if (w->qs[q].s != &m->sched[sci]) {
        junos_refused(c, sm->e[e].sched,
                      "forwarding classes '%s' and '%s' share queue %u but scheduler-map '%s' "
                      "gives them schedulers '%s' and '%s' (one scheduler per queue)",
                      w->qs[q].fc->name->text, fc->name->text, fc->queue, sm->name->text,
                      w->qs[q].s->name->text, m->sched[sci].name->text);
      }
    }
    if (!dup && w->nq < XTM_FW_MAX_TCS) {
      w->qs[w->nq++] = (qwork_t){.fc = fc, .s = &m->sched[sci], .ok = true};
    }
  }
}

// transmit rates, `remainder` = what the others leave, shared evenly [PTX scheduling]
static void smap_tx_rates(ctx_t *c, smap_work_t *w) {
  const iface_t *f = w->f;
  const uint64_t port_rate = w->port_rate;
  uint64_t tx_sum = 0;
  uint32_t nrem = 0;
  for (uint32_t q = 0; q < w->nq; q++) {
    const sched_t *s = w->qs[q].s;
    w->excess |= s->has_excess;
    if (s->transmit.kind == kRateNone) {
      continue;
    }
    w->qs[q].has_tx = true;
    if (s->transmit.kind == kRateRemainder) {
      nrem++;
      continue;
    }
    w->qs[q].tx = rate_of(&s->transmit, port_rate, f->div);
    // a guaranteed rate the port cannot carry would also size the buffer from it
    if (s->transmit.kind == kRateAbs && w->qs[q].tx > port_rate) {
      err(c, s->transmit.tok, "transmit-rate %s of scheduler '%s' is above the rate of '%s' (%s)",
          s->transmit.tok->text, s->name->text, f->pname, w->prb);
      w->qs[q].ok = false;
      continue;
    }
    tx_sum += w->qs[q].tx;
  }
  if (nrem > 0) {
    uint64_t left = tx_sum < port_rate ? port_rate - tx_sum : 0;
    for (uint32_t q = 0; q < w->nq; q++) {
      if (w->qs[q].s->transmit.kind != kRateRemainder) {
        continue;
      }
      if (left == 0) {
        err(c, w->qs[q].s->transmit.tok,
            "transmit-rate remainder of scheduler '%s' on '%s' is 0: the other transmit-rates "
            "take the whole port rate (%s)",
            w->qs[q].s->name->text, f->pname, w->prb);
        w->qs[q].ok = false;
      }
      w->qs[q].tx = left / nrem;
    }
    tx_sum = tx_sum < port_rate ? port_rate : tx_sum;
  }
  if (tx_sum > port_rate) {
    char tb[32];
    fmt_rate(tb, sizeof(tb), tx_sum);
    warn(c, f->smap_ref,
         "the transmit-rates of scheduler-map '%s' on '%s' add up to %s, above the port rate "
         "(%s): the guarantees cannot all be met",
         w->sm->name->text, f->pname, tb, w->prb);
  }
}

// excess-rate: the DWRR weights when no queue has a guaranteed rate (PTX shares the
// excess by excess-rate; with transmit-rates as well the two are one weight here)
static void smap_excess(ctx_t *c, smap_work_t *w) {
  if (!w->excess) {
    return;
  }
  for (uint32_t q = 0; q < w->nq; q++) {
    const sched_t *s = w->qs[q].s;
    if (s->strict) {
      continue;
    }
    if (w->qs[q].has_tx || !s->has_excess) {
      const sched_t *x = NULL;
      for (uint32_t k = 0; k < w->nq && x == NULL; k++) {
        x = w->qs[k].s->has_excess ? w->qs[k].s : NULL;
      }
      junos_refused(c, x->excess_tok,
                    "excess-rate of scheduler '%s' on '%s' with %s '%s' (one DWRR weight per "
                    "queue: excess-rates on every non-strict queue, no transmit-rate)",
                    x->name->text, w->f->pname,
                    w->qs[q].has_tx ? "a transmit-rate in" : "no excess-rate in", s->name->text);
      w->excess = false;
      break;
    }
    w->excess_sum += s->excess_w;
  }
}

// the calculated shaping rate of a queue and its target rate, into qp; false (and the
// queue dropped) when the target rate is 0
static bool queue_target(ctx_t *c, const smap_work_t *w, qwork_t *qw, xtm_cos_queue_plan_t *qp) {
  const iface_t *f = w->f;
  const sched_t *s = qw->s;
  const uint64_t port_rate = w->port_rate;
  uint64_t shaping = port_rate;
  if (s->shaping.kind != kRateNone) {
    uint64_t v = rate_of(&s->shaping, port_rate, f->div);
    shaping = v < port_rate ? v : port_rate;
    if (s->shaping.kind == kRateAbs && v > port_rate) {
      warn(c, s->shaping.tok,
           "shaping-rate %s of scheduler '%s' is above the rate of '%s' (%s): the port rate "
           "applies",
           s->shaping.tok->text, s->name->text, f->pname, w->prb);
    }
  }
  qw->shaping = shaping;
  memset(qp, 0, sizeof(*qp));
  if (s->buffer_rate.kind != kRateNone) {
    uint64_t b = rate_of(&s->buffer_rate, shaping, f->div);
    if (s->buffer_rate.kind == kRateAbs && b > shaping) {
      char srb[32];
      fmt_rate(srb, sizeof(srb), shaping);
      warn(c, s->buffer_rate.tok,
           "buffer-rate %s of scheduler '%s' is above its shaping rate on '%s' (%s): the "
           "shaping rate sizes the buffer",
           s->buffer_rate.tok->text, s->name->text, f->pname, srb);
    }
    qp->target_rate_bps = b < shaping ? b : shaping;
    qp->target_rule = "min(buffer-rate, shaping-rate)";
  } else if (qw->has_tx) {
    qp->target_rate_bps = qw->tx;
    qp->target_rule =
        s->transmit.kind == kRateRemainder ? "transmit-rate remainder" : "transmit-rate";
  } else {
    qp->target_rate_bps = shaping;
    qp->target_rule = "shaping-rate";
  }
  if (qp->target_rate_bps == 0) {
    err(c, s->name, "scheduler '%s' gives queue %u of '%s' a target rate of 0%s", s->name->text,
        qw->fc->queue, f->pname,
        s->transmit.kind == kRatePct ? " (transmit-rate percent 0 with no buffer-rate)" : "");
    qw->ok = false;
    return false;
  }
  return true;
}

// the calculated shaping rate, the target rate and the buffer limit of each queue
static void smap_limits(ctx_t *c, smap_work_t *w) {
  xtm_cos_result_t *r = c->r;
  // the port's share of the whole buffer, xtm's basis of `percent`
  const uint64_t port_buf = buffer_cells(c) * c->hw->cell_bytes / c->hw->num_ports;
  uint64_t buf_sum = 0;
  uint32_t nbrem = 0;
  for (uint32_t q = 0; q < w->nq; q++) {
    qwork_t *qw = &w->qs[q];
    const sched_t *s = qw->s;
    if (!qw->ok) {
      continue;
    }
    xtm_cos_queue_plan_t *qp = &r->q[r->nqueues];
    if (!queue_target(c, w, qw, qp)) {
      continue;
    }
    if (s->bsize_kind == 3) {
      nbrem++;
      continue;
    }
    if (s->bsize_kind == 2) {
      qw->limit = (uint64_t)((u128)port_buf * s->bsize_pct_milli / 100000u);
    } else {
      uint64_t ns = s->bsize_kind == 1 ? s->bsize_ns : 100000u;  // default 100 us
      qw->limit = xtm_cos_temporal_bytes(ns, qp->target_rate_bps);
    }
    buf_sum += qw->limit;
  }
  for (uint32_t q = 0; q < w->nq; q++) {
    const qwork_t *qw = &w->qs[q];
    if (qw->ok && qw->s->bsize_kind == 3) {
      uint64_t left = buf_sum < port_buf ? port_buf - buf_sum : 0;
      w->qs[q].limit = left / nbrem;
    }
    if (qw->ok && (qw->s->bsize_kind == 2 || qw->s->bsize_kind == 3)) {
      warn(c, qw->s->bsize_tok,
           "buffer-size %s%s of scheduler '%s' is taken of the port's share of the whole buffer "
           "(%llu bytes = (OCB + HBM) / %u ports), not of a platform delay buffer (not modelled; "
           "'temporal' sizes by time)",
           qw->s->bsize_kind == 2 ? "percent " : "", qw->s->bsize_tok->text, qw->s->name->text,
           (unsigned long long)port_buf, c->hw->num_ports);
    }
  }
}

// the shaper register of a queue before anything sized from the rate (a 0 would also give
// a 0 buffer): shaping-rate, and transmit-rate exact / rate-limit (a cap at the rate);
// false when it rounds to 0 (reported)
static bool queue_shaper(ctx_t *c, const smap_work_t *w, const qwork_t *qw, bool *shaper,
                         uint32_t *shaper_q16) {
  const sched_t *s = qw->s;
  uint64_t shaper_bps = 0;
  *shaper = false;
  *shaper_q16 = 0;
  if (s->shaping.kind != kRateNone) {
    *shaper = true;
    shaper_bps = qw->shaping;
  }
  if (s->transmit.limit_tok != NULL && qw->has_tx && (!*shaper || qw->tx < shaper_bps)) {
    *shaper = true;
    shaper_bps = qw->tx;
  }
  if (!*shaper) {
    return true;
  }
  char what[3 * XTM_COS_NAME_LEN + 96];
  const tok_t *st = s->shaping.kind != kRateNone && shaper_bps == qw->shaping
                        ? s->shaping.tok
                        : s->transmit.limit_tok;
  if (st == s->shaping.tok && s->shaping.kind == kRateAbs && s->shaping.bps == shaper_bps) {
    snprintf(what, sizeof(what), "shaping-rate %s of scheduler '%s'", s->shaping.tok->text,
             s->name->text);
  } else if (st == s->transmit.limit_tok) {
    snprintf(what, sizeof(what), "transmit-rate %s %s of scheduler '%s' on '%s' (%llu b/s)",
             s->transmit.tok->text, st->text, s->name->text, w->f->pname,
             (unsigned long long)shaper_bps);
  } else {
    snprintf(what, sizeof(what), "shaping-rate of scheduler '%s' on '%s' (%llu b/s)", s->name->text,
             w->f->pname, (unsigned long long)shaper_bps);
  }
  *shaper_q16 = rate_reg(c, st, what, shaper_bps);
  return *shaper_q16 != 0;
}

// the buffer limit of a queue, bytes and cells; false when it is 0 or above the per-queue
// cap (reported)
static bool queue_limit(ctx_t *c, const qwork_t *qw, xtm_cos_queue_plan_t *qp) {
  const sched_t *s = qw->s;
  char rb[32];
  fmt_rate(rb, sizeof(rb), qp->target_rate_bps);
  if (s->bsize_kind == 1 || s->bsize_kind == 0) {
    qp->temporal_ns = s->bsize_kind == 1 ? s->bsize_ns : 100000u;
  }
  qp->limit_bytes = qw->limit;
  if (qp->limit_bytes > XTM_COS_PER_QUEUE_CAP_BYTES) {
    const tok_t *bt = s->bsize_tok != NULL ? s->bsize_tok : s->name;
    uint64_t max_us =
        (uint64_t)((u128)XTM_COS_PER_QUEUE_CAP_BYTES * 8000000u / qp->target_rate_bps);
    err(c, bt,
        "buffer-size %s%s gives %llu bytes at %s, above the 2.5 GB per-queue cap (at most %llu "
        "us at this rate)",
        bt->text, s->bsize_kind >= 2 ? (s->bsize_kind == 2 ? " percent" : "") : " us",
        (unsigned long long)qp->limit_bytes, rb, (unsigned long long)max_us);
    return false;
  }
  qp->limit_cells = xtm_cos_bytes_to_cells(qp->limit_bytes, c->hw->cell_bytes);
  if (qp->limit_bytes == 0) {
    err(c, s->bsize_tok != NULL ? s->bsize_tok : s->name,
        "scheduler '%s' gives a buffer of 0 bytes%s", s->name->text,
        s->bsize_kind == 3
            ? " (buffer-size remainder: the other queues take the port's whole share)"
            : "");
    return false;
  }
  return true;
}

// drop profile: the one of the loss priorities this queue's traffic has, given a hardware
// slot at its first use (slot 0 is the empty profile). Returns the slot, or -1 when the
// queue is dropped (reported)
static int queue_drop_profile(ctx_t *c, model_t *m, const smap_work_t *w, const qwork_t *qw,
                              xtm_cos_queue_plan_t *qp, int *next_slot) {
  const sched_t *s = qw->s;
  int di = queue_profile(c, m, s, qw->fc->queue, w->f);
  if (di == -2) {
    return -1;
  }
  if (di < 0) {
    // ECN without a profile for its loss priorities: reported with its map
    return s->ecn_tok != NULL ? -1 : 0;
  }
  dp_t *p = &m->dp[di];
  if (p->slot < 0) {
    if (*next_slot >= (int)XTM_FW_NUM_PROFILES) {
      err(c, s->dp_ref != NULL ? s->dp_ref : s->name,
          "drop-profile '%s' does not fit: the hardware holds %u profiles (slot 0 is the "
          "empty one)",
          p->name->text, XTM_FW_NUM_PROFILES);
      return -1;
    }
    p->slot = (*next_slot)++;
    xtm_fw_profile_cfg_t *pc = &c->r->cfg.profiles[p->slot];
    *pc = (xtm_fw_profile_cfg_t){.valid = true, .interp = p->interp, .npoints = (uint8_t)p->n};
    for (uint32_t x = 0; x < p->n; x++) {
      pc->fill_q16[x] = xtm_cos_pct_q16(p->fill[x]);
      pc->prob_q16[x] = xtm_cos_pct_q16(p->prob[x]);
    }
  }
  snprintf(qp->profile, sizeof(qp->profile), "%s", p->name->text);
  qp->interp = p->interp;
  qp->npoints = p->n;
  for (uint32_t x = 0; x < p->n; x++) {
    xtm_cos_point_t *pt = &qp->points[x];
    pt->fill_milli = p->fill[x];
    pt->prob_milli = p->prob[x];
    pt->fill_q16 = xtm_cos_pct_q16(p->fill[x]);
    pt->prob_q16 = xtm_cos_pct_q16(p->prob[x]);
    pt->bytes = (uint64_t)((u128)qp->limit_bytes * p->fill[x] / 100000u);
    pt->hw_cells = (uint32_t)(((uint64_t)pt->fill_q16 * qp->limit_cells + 65535u) / 65536u);
  }
  return p->slot;
}

// marking, loss and PFC of a queue's plan; *pfc_rx and *rx_prio say whether and at which
// priority the queue obeys received pause: the profile's output flow-control-queue list
// (QFX), else the no-loss queues at their class's priority
static void queue_flags(ctx_t *c, const smap_work_t *w, const qwork_t *qw, xtm_cos_queue_plan_t *qp,
                        bool *pfc_rx, int *rx_prio) {
  const xtm_cos_result_t *r = c->r;
  const sched_t *s = qw->s;
  const fc_t *fc = qw->fc;
  const cnp_t *cnp = w->cnp;
  qp->ecn = s->ecn_tok != NULL || s->lat_tok != NULL;
  qp->no_loss = fc->no_loss;
  qp->strict = s->strict;
  qp->mark = s->lat_tok != NULL    ? "latency"
             : s->head_tok != NULL ? "head"
             : qp->ecn             ? "tail"
                                   : "none";
  qp->latency_ns = s->lat_ns;
  qp->pfc_prio = fc->no_loss ? (fc->pfc_prio >= 0 ? fc->pfc_prio : (int)fc->queue) : -1;
  *pfc_rx = cnp != NULL && fc->no_loss;
  *rx_prio = qp->pfc_prio;
  if (cnp != NULL && cnp->has_output) {
    *pfc_rx = cnp->fcq_prio[fc->queue] >= 0;
    *rx_prio = cnp->fcq_prio[fc->queue];
    if (*pfc_rx && !fc->no_loss) {
      warn(c, cnp->fcq_tok[fc->queue],
           "flow-control-queue %u of '%s' is queue of '%s', which is not no-loss: it obeys "
           "pause but may drop",
           fc->queue, cnp->name->text, fc->name->text);
    }
  }
  for (uint32_t g = 0; g < r->npgs && qp->pfc_prio >= 0; g++) {
    if (r->pg[g].prio == (uint32_t)qp->pfc_prio) {
      qp->pfc_known = true;
      qp->xoff_bytes = r->pg[g].xoff_bytes;
      qp->xon_bytes = r->pg[g].xon_bytes;
      qp->hdrm_bytes = r->pg[g].hdrm_bytes;
      break;
    }
  }
}

// the DWRR quantum of a queue: its share of the excess-rates, else of the port rate by
// its transmit-rate, else one jumbo frame
static uint32_t queue_quantum(const smap_work_t *w, const qwork_t *qw) {
  const sched_t *s = qw->s;
  if (w->excess && !s->strict) {
    uint64_t qv =
        w->excess_sum != 0 ? (s->excess_w * 65535u + w->excess_sum / 2u) / w->excess_sum : 65535u;
    return (uint32_t)(qv < 1u ? 1u : qv > 65535u ? 65535u : qv);
  }
  if (qw->has_tx) {
    uint64_t qv = (qw->tx * 65535u + w->port_rate / 2u) / w->port_rate;
    return (uint32_t)(qv < 1u ? 1u : qv > 65535u ? 65535u : qv);
  }
  return 9216;
}

// the strict queues of the interface (one of each kind) and the priority levels of the
// others with a transmit-rate, for the checks of smap_finish
static void queue_strict(ctx_t *c, smap_work_t *w, const qwork_t *qw) {
  const sched_t *s = qw->s;
  if (s->strict) {
    int *slotp = s->prio == kPrLowLatency ? &w->low_latency : &w->strict_high;
    if (*slotp >= 0) {
      junos_refused(c, s->prio_tok,
                    "two %s queues on '%s' (%d and %u; xtm serves strict queues by queue "
                    "index, Junos allows one per interface)",
                    kPrNames[s->prio], w->f->pname, *slotp, qw->fc->queue);
    }
    *slotp = (int)qw->fc->queue;
  } else if (qw->has_tx) {
    w->levels |= 1 << s->prio;
  }
}

// a no-loss queue whose limit is below the XOFF thresholds plus headroom of its PGs
static void queue_noloss_check(ctx_t *c, const sched_t *s, const xtm_cos_queue_plan_t *qp) {
  const xtm_cos_result_t *r = c->r;
  uint64_t sum = 0;
  for (uint32_t g = 0; g < r->npgs; g++) {
    if (r->pg[g].prio == (uint32_t)qp->pfc_prio) {
      sum += r->pg[g].xoff_bytes + r->pg[g].hdrm_bytes;
    }
  }
  if (sum > qp->limit_bytes) {
    warn(c, s->name,
         "no-loss queue %u of '%s': the ingress XOFF thresholds plus headroom (%llu bytes) "
         "exceed its limit (%llu bytes), so it can tail-drop before PFC acts",
         qp->queue, qp->iface, (unsigned long long)sum, (unsigned long long)qp->limit_bytes);
  }
}

// the rest of one queue: its plan and its queue registers, appended unless an error drops
// it
static void smap_queue(ctx_t *c, model_t *m, smap_work_t *w, const qwork_t *qw, int *next_slot) {
  xtm_cos_result_t *r = c->r;
  xtm_fw_cfg_t *cfg = &r->cfg;
  const iface_t *f = w->f;
  const sched_t *s = qw->s;
  const fc_t *fc = qw->fc;
  xtm_cos_queue_plan_t *qp = &r->q[r->nqueues];
  uint64_t target = 0;
  const char *rule = NULL;
  if (s->buffer_rate.kind != kRateNone) {
    uint64_t b = rate_of(&s->buffer_rate, qw->shaping, f->div);
    target = b < qw->shaping ? b : qw->shaping;
    rule = "min(buffer-rate, shaping-rate)";
  } else if (qw->has_tx) {
    target = qw->tx;
    rule = s->transmit.kind == kRateRemainder ? "transmit-rate remainder" : "transmit-rate";
  } else {
    target = qw->shaping;
    rule = "shaping-rate";
  }
  memset(qp, 0, sizeof(*qp));
  snprintf(qp->iface, sizeof(qp->iface), "%s", f->pname);
  snprintf(qp->fclass, sizeof(qp->fclass), "%s", fc->name->text);
  snprintf(qp->scheduler, sizeof(qp->scheduler), "%s", s->name->text);
  qp->port = f->port;
  qp->queue = fc->queue;
  qp->voq = f->port * c->hw->num_tcs + fc->queue;
  qp->port_rate_bps = w->port_rate;
  qp->shaping_rate_bps = qw->shaping;
  qp->target_rate_bps = target;
  qp->target_rule = rule;
  bool shaper;
  uint32_t shaper_q16;
  if (!queue_shaper(c, w, qw, &shaper, &shaper_q16)) {
    return;
  }
  qp->target_rate_q16 = xtm_cos_rate_q16(qp->target_rate_bps, c->clock_hz);
  if (!queue_limit(c, qw, qp)) {
    return;
  }
  int slot = queue_drop_profile(c, m, w, qw, qp, next_slot);
  if (slot < 0) {
    return;
  }
  bool pfc_rx;
  int rx_prio;
  queue_flags(c, w, qw, qp, &pfc_rx, &rx_prio);
  uint64_t lat_cycles = (s->lat_ns * c->clock_hz + 999999999u) / 1000000000u;
  if (lat_cycles > 0xFFFFFFFFu) {
    err(c, s->lat_tok, "latency-ecn threshold %s ns does not fit 32 bits of cycles",
        s->lat_tok->text);
    return;
  }
  uint32_t quantum = queue_quantum(w, qw);
  queue_strict(c, w, qw);
  const cnp_t *cnp = w->cnp;
  xtm_fw_queue_cfg_t qc = {
      .port = (uint8_t)f->port,
      .queue = (uint8_t)fc->queue,
      .strict = s->strict,
      .no_loss = fc->no_loss,
      .ecn_en = qp->ecn,
      .nonect_tail_only = s->nonect_tail,
      .mark_point = (uint8_t)(s->lat_tok != NULL    ? kXtmFwMarkPointLatency
                              : s->head_tok != NULL ? kXtmFwMarkPointHead
                                                    : kXtmFwMarkPointTail),
      .profile = (uint8_t)slot,
      .pfc_rx_en = pfc_rx,
      .pfc_prio = (uint8_t)(pfc_rx && rx_prio >= 0 ? rx_prio
                            : qp->pfc_prio >= 0    ? qp->pfc_prio
                                                   : 0),
      .wd_en = pfc_rx && (m->wd.set || (cnp != NULL && cnp->wd.set)) && cfg->wd.valid,
      .shaper_en = shaper,
      .limit_cells = qp->limit_cells,
      .quantum_bytes = quantum,
      .lat_thresh_cycles = s->lat_tok != NULL ? (uint32_t)lat_cycles : 0xFFFFFFFFu,
      .shaper_rate_q16 = shaper_q16,
      .shaper_burst_bytes = shaper ? (s->shaping.burst != 0 ? s->shaping.burst : 9216u) : 0u,
      .target_rate_q16 = qp->target_rate_q16,
  };
  if (qc.target_rate_q16 > 0xFFFFFFu || qc.shaper_rate_q16 > 0xFFFFFFu) {
    err(c, s->name, "a rate of scheduler '%s' does not fit the Q8.16 register at this clock",
        s->name->text);
    return;
  }
  if (qp->no_loss) {
    queue_noloss_check(c, s, qp);
  }
  cfg->queues[cfg->num_queues++] = qc;
  r->nqueues++;
}

// what the interface's queues allow only together: the strict queues' order, the
// priorities of queues with transmit-rates
static void smap_finish(ctx_t *c, const smap_work_t *w) {
  const iface_t *f = w->f;
  if (w->low_latency >= 0 && w->strict_high >= 0 && w->low_latency < w->strict_high) {
    junos_refused(c, f->smap_ref,
                  "low-latency queue %d below strict-high queue %d on '%s' (xtm serves strict "
                  "queues by queue index: the low-latency one must have the higher queue number)",
                  w->low_latency, w->strict_high, f->pname);
  }
  if ((w->levels & (w->levels - 1)) != 0) {
    warn(c, f->smap_ref,
         "scheduler-map '%s' on '%s' gives queues with transmit-rates different priorities: PTX "
         "serves the higher first within their transmit-rates, xtm all by one DWRR (the same "
         "long-run shares, not the same order)",
         w->sm->name->text, f->pname);
  }
}

// the queues of one interface, from its scheduler map
static void resolve_smap(ctx_t *c, model_t *m, const iface_t *f, int *next_slot) {
  if (f->smap_ref == NULL) {
    return;
  }
  int si = FIND(m->smap, m->nsmap, f->smap_ref);
  if (si < 0) {
    err(c, f->smap_ref, "interface '%s' refers to undefined scheduler-map '%s'", f->name->text,
        f->smap_ref->text);
    return;
  }
  smap_work_t w = {.f = f, .sm = &m->smap[si], .strict_high = -1, .low_latency = -1};
  int pi = f->cnp_ref != NULL ? FIND(m->cnp, m->ncnp, f->cnp_ref) : -1;
  w.cnp = pi >= 0 ? &m->cnp[pi] : NULL;
  w.port_rate = iface_rate(f);
  if (xtm_cos_rate_q16(w.port_rate, c->clock_hz) == 0) {
    return;  // the port shaper rounds to 0: reported above, its queues would all follow
  }
  fmt_rate(w.prb, sizeof(w.prb), w.port_rate);
  smap_collect(c, m, &w);
  smap_tx_rates(c, &w);
  smap_excess(c, &w);
  smap_limits(c, &w);
  for (uint32_t q = 0; q < w.nq; q++) {
    if (w.qs[q].ok) {
      smap_queue(c, m, &w, &w.qs[q], next_slot);
    }
  }
  smap_finish(c, &w);
}

static void resolve(ctx_t *c, model_t *m) {
  resolve_classes(c, m);
  uint64_t hdrm_total = 0;
  for (uint32_t i = 0; i < m->nif; i++) {
    resolve_port(c, m, &m->iface[i], &hdrm_total);
  }
  resolve_pool(c, hdrm_total);
  resolve_watchdog(c, m);
  int next_slot = 1;
  c->r->cfg.profiles[0] = (xtm_fw_profile_cfg_t){.valid = true, .interp = false, .npoints = 0};
  for (uint32_t i = 0; i < m->nif; i++) {
    resolve_smap(c, m, &m->iface[i], &next_slot);
  }
  // every scheduler, used or not, then what nothing uses (it is checked only on its own)
  for (uint32_t i = 0; i < m->nsched; i++) {
    check_sched(c, m, &m->sched[i]);
  }
  warn_unused(c, m);
  classify_warn(c, m);
}

// ------------------------------------------------------------------ top level

// Top-level stanzas of a Junos device configuration; xtm reads class-of-service,
// interfaces and chassis and ignores the others (one warning each).
static const char *const kJunosTop[] = {"access",
                                        "access-profile",
                                        "accounting-options",
                                        "applications",
                                        "bridge-domains",
                                        "diameter",
                                        "dynamic-profiles",
                                        "event-options",
                                        "ethernet-switching-options",
                                        "fabric",
                                        "forwarding-options",
                                        "jsrc",
                                        "jsrc-partition",
                                        "logical-systems",
                                        "multi-chassis",
                                        "multicast-snooping-options",
                                        "poe",
                                        "policy-options",
                                        "protection-group",
                                        "protocols",
                                        "routing-instances",
                                        "routing-options",
                                        "security",
                                        "services",
                                        "session-limit-group",
                                        "smtp",
                                        "snmp",
                                        "switch-options",
                                        "system",
                                        "tenants",
                                        "vlans",
                                        "virtual-chassis",
                                        "vmhost",
                                        "wlan",
                                        "schedulers",
                                        "rcsid",
                                        "unified-edge",
                                        NULL};

typedef struct cos_stmt {
  const char *kw;
  const char *why;  // ignored with a warning: why it does not change what xtm models
} cos_stmt_t;

static const cos_stmt_t kCosIgnored[] = {
    {"rewrite-rules",
     "egress re-marking of DSCP, 802.1p or EXP: the traffic manager's queues, limits and marking "
     "do not depend on it"},
    {"host-outbound-traffic", "the class of the routing engine's own packets"},
    {"tri-color",
     "a third loss priority for policers: the drop profile follows the loss priorities the "
     "classifiers give"},
    {"shared-buffer",
     "QFX buffer partitions: xtm has per-queue limits and one shared pool (POOL_CELLS)"},
    {"dedicated-buffer",
     "QFX per-port reserved buffer: xtm has per-queue limits and one shared pool (POOL_CELLS)"},
    {"traceoptions", "software tracing"},
    {"system-defaults", "software defaults of other platforms"},
    {"loss-priority-maps", "loss priorities from another header field"},
    {"loss-priority-rewrites", "egress re-marking"},
    {"multi-destination", "QFX multicast classification: xtm models unicast queues"},
    {"fabric", "fabric queues (PTX has none)"},
    {"translation-table", "code-point translation at ingress of other platforms"},
    {"adaptive-shapers", "frame-relay shaping"},
    {"virtual-channels", "virtual channels of other platforms"},
    {"virtual-channel-groups", "virtual channels of other platforms"},
    {"application-traffic-control", "services-card classification"},
    {"copy-plp", "loss-priority copy for MPLS"},
    {"forwarding-policy", "next-hop selection by class"},
    {"fragmentation-maps", "link fragmentation of other platforms"},
    {"drop-congestion-notification", "CNP drop on other platforms"},
    {"mpls-ecn-map", "ECN in MPLS labels"},
    {NULL, NULL}};

static const cos_stmt_t kCosRefused[] = {
    {"restricted-queues", "a class-to-queue remapping per interface type"},
    {"forwarding-classes-interface-specific", "a class-to-queue map per interface"},
    {"interfaces-set", "hierarchical scheduling"},
    {"interface-set", "hierarchical scheduling"},
    {NULL, NULL}};

static const cos_stmt_t *stmt_find(const cos_stmt_t *t, const char *w) {
  for (; t->kw != NULL; t++) {
    if (strcmp(t->kw, w) == 0) {
      return t;
    }
  }
  return NULL;
}

static void sec_cos(ctx_t *c, model_t *m, const node_t *top) {
  static const char *const kSections[] = {"forwarding-classes",
                                          "code-point-aliases",
                                          "classifiers",
                                          "drop-profiles",
                                          "schedulers",
                                          "scheduler-maps",
                                          "interfaces",
                                          "congestion-notification-profile",
                                          "pfc-watchdog",
                                          "dcqcn",
                                          "traffic-control-profiles",
                                          "forwarding-class-sets",
                                          NULL};
  // forwarding classes and code-point aliases first: everything else refers to them
  for (int pass = 0; pass < 2; pass++) {
    for (size_t j = 0; j < top->nkids; j++) {
      const node_t *s = top->kids[j];
      const char *w = s->w[0]->text;
      bool first = strcmp(w, "forwarding-classes") == 0 || strcmp(w, "code-point-aliases") == 0;
      if ((pass == 0) != first) {
        continue;
      }
      const cos_stmt_t *ig = stmt_find(kCosIgnored, w);
      const cos_stmt_t *rf = stmt_find(kCosRefused, w);
      if (ig != NULL) {
        junos_ignored(c, s, "class-of-service", ig->why);
        continue;
      }
      if (rf != NULL) {
        junos_refused(c, s->w[0], "'%s' in class-of-service (%s)", w, rf->why);
        continue;
      }
      if (!in_list(w, kSections)) {
        unknown(c, s, "class-of-service");  // before its shape: the word is the mistake
        continue;
      }
      if (strcmp(w, "pfc-watchdog") == 0) {
        parse_wd(c, &m->wd, s);
        continue;
      }
      if (!want_block(c, s, 1)) {
        continue;
      }
      if (strcmp(w, "forwarding-classes") == 0) {
        sec_forwarding_classes(c, m, s);
      } else if (strcmp(w, "code-point-aliases") == 0) {
        sec_aliases(c, m, s);
      } else if (strcmp(w, "classifiers") == 0) {
        sec_classifiers(c, m, s);
      } else if (strcmp(w, "drop-profiles") == 0) {
        sec_drop_profiles(c, m, s);
      } else if (strcmp(w, "schedulers") == 0) {
        sec_schedulers(c, m, s);
      } else if (strcmp(w, "scheduler-maps") == 0) {
        sec_scheduler_maps(c, m, s);
      } else if (strcmp(w, "interfaces") == 0) {
        sec_interfaces(c, m, s);
      } else if (strcmp(w, "congestion-notification-profile") == 0) {
        sec_cnp(c, m, s);
      } else if (strcmp(w, "dcqcn") == 0) {
        sec_dcqcn(c, m, s);
      } else if (strcmp(w, "traffic-control-profiles") == 0) {
        sec_tcps(c, m, s);
      } else if (strcmp(w, "forwarding-class-sets") == 0) {
        sec_fcsets(c, m, s);
      }
    }
    if (pass == 0) {
      default_fcs(c, m);
    }
  }
}

uint32_t xtm_cos_compile(const char *path, const char *text, const xtm_fw_hw_t *hw,
                         const xtm_cos_opts_t *opts, xtm_cos_result_t *r) {
  memset(r, 0, sizeof(*r));
  ctx_t *c = calloc(1, sizeof(ctx_t));
  model_t *m = calloc(1, sizeof(model_t));
  if (c == NULL || m == NULL) {
    free(c);
    free(m);
    snprintf(r->errors[0], XTM_COS_MSG_LEN, "%s: out of memory", path);
    r->nerrors = r->nerror_msgs = 1;
    return 1;
  }
  *c = (ctx_t){.path = path,
               .r = r,
               .hw = hw,
               .clock_hz = (opts != NULL && opts->clock_hz != 0) ? opts->clock_hz : 1000000000ull,
               .default_speed_bps = opts != NULL ? opts->default_speed_bps : 0};
  r->hw = *hw;
  r->clock_hz = c->clock_hz;
  r->port_rule = "Junos port number";
  m->pol = cos_police_new();
  if (m->pol == NULL) {
    free(c);
    free(m);
    snprintf(r->errors[0], XTM_COS_MSG_LEN, "%s: out of memory", path);
    r->nerrors = r->nerror_msgs = 1;
    return 1;
  }
  cos_tree_t t;
  if (cos_tree_parse(c, text, &t) && r->nerrors == 0) {
    const node_t *root = t.root;
    const node_t *cos = NULL;
    for (size_t k = 0; k < root->nkids; k++) {
      const node_t *top = root->kids[k];
      const char *w = top->w[0]->text;
      if (strcmp(w, "class-of-service") == 0) {
        if (cos != NULL) {
          err(c, top->w[0], "duplicate 'class-of-service'");
          continue;
        }
        cos = top;
        if (!want_block(c, top, 1)) {
          continue;
        }
        m->cos_tok = top->w[0];
        sec_cos(c, m, top);
      } else if (strcmp(w, "interfaces") == 0 || strcmp(w, "chassis") == 0) {
        if (!want_block(c, top, 1)) {
          continue;  // read with the ports (cos_dev_read)
        }
      } else if (strcmp(w, "firewall") == 0) {
        cos_police_firewall(c, m->pol, top);  // policers (docs/firmware.md section 4.5)
      } else if (strcmp(w, "version") == 0) {
        // the software version of the configuration: nothing to model
      } else if (in_list(w, kJunosTop)) {
        warn(c, top->w[0],
             "valid Junos, not modelled by xtm: '%s' at the top level is ignored (xtm reads "
             "class-of-service, interfaces and chassis)",
             w);
      } else {
        err(c, top->w[0], "unknown top-level statement '%s' (expected 'class-of-service')", w);
      }
    }
    if (cos == NULL && r->nerrors == 0) {
      err(c, NULL, "no 'class-of-service' stanza");
    }
    if (r->nerrors == 0) {
      cos_police_interfaces(c, m->pol, root);
    }
    if (r->nerrors == 0) {
      bind_ports(c, m, root);
    }
    if (r->nerrors == 0) {
      resolve(c, m);
    }
    if (r->nerrors == 0) {
      cos_police_resolve(c, m->pol, &m->dev);
    }
  }
  cos_tree_free(c, &t);
  cos_police_free(m->pol);
  free(m);
  free(c);
  if (r->nerrors > 0) {
    // an image with errors must never be programmed
    memset(&r->cfg, 0, sizeof(r->cfg));
  }
  return r->nerrors;
}

// One error for the whole file, before any compilation.
static uint32_t file_error(const char *path, xtm_cos_result_t *r, const char *fmt, ...) {
  memset(r, 0, sizeof(*r));
  char msg[XTM_COS_MSG_LEN - 64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  snprintf(r->errors[0], XTM_COS_MSG_LEN, "%s: %s", path, msg);
  r->nerrors = 1;
  r->nerror_msgs = 1;
  return 1;
}

// Reads at most XTM_COS_MAX_INPUT_BYTES (one byte more tells that the file is larger: a
// device such as /dev/zero is never read to the end), refuses directories, read errors and
// NUL bytes, then compiles.
uint32_t xtm_cos_compile_file(const char *path, const xtm_fw_hw_t *hw, const xtm_cos_opts_t *opts,
                              xtm_cos_result_t *r) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return file_error(path, r, "cannot open: %s", strerror(errno));
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    return file_error(path, r, "is a directory, not a configuration file");
  }
  const size_t limit = XTM_COS_MAX_INPUT_BYTES;
  char *buf = malloc(limit + 2u);
  if (buf == NULL) {
    fclose(f);
    return file_error(path, r, "out of memory");
  }
  size_t n = 0;
  size_t got;
  errno = 0;
  while (n <= limit && (got = fread(buf + n, 1, limit + 1u - n, f)) > 0) {
    n += got;
  }
  int rd_errno = errno;
  bool rd_err = ferror(f) != 0;
  fclose(f);
  uint32_t e;
  if (rd_err) {
    e = file_error(path, r, "cannot read: %s", rd_errno != 0 ? strerror(rd_errno) : "read error");
  } else if (n > limit) {
    e = file_error(path, r, "is larger than %zu bytes (the configuration compiler's input limit)",
                   limit);
  } else {
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul != NULL) {
      e = file_error(path, r, "contains a NUL byte at offset %zu (not a text file)",
                     (size_t)(nul - buf));
    } else {
      e = xtm_cos_compile(path, buf, hw, opts, r);
    }
  }
  free(buf);
  return e;
}
