// SPDX-License-Identifier: Apache-2.0
//
// Configuration compiler, ingress policing (docs/firmware.md section 4.5, spec 4.7): the
// Junos `firewall` stanza's single-rate two-colour policers (`policer P { if-exceeding {
// bandwidth-limit BPS; burst-size-limit BYTES; } then discard; }`), the family inet
// filters whose terms apply them by DSCP, and the `interfaces X unit N family inet`
// statements that apply a policer or a filter to an ingress port. Each port has 8 hardware
// policers; P_POL_MAP sends each traffic class of the port to one of them, so a filter
// term's DSCP values police their traffic classes (DSCP_MAP).

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/cos_internal.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#define MAX_POLICERS 256u
#define MAX_FILTERS 4096u  // defined (a real configuration has many; only used ones are read)
#define MAX_TERMS 64u
#define MAX_APPLY COS_MAX_PHYS
// Junos' smallest burst-size-limit (the policer's documented range, 1500 bytes: one
// Ethernet MTU), and the MTU of a port without an `mtu` statement.
#define MIN_BURST 1500u
#define DEFAULT_MTU 1500u

typedef struct pol {
  const tok_t *name;
  const node_t *node;
  uint64_t bps;
  const tok_t *bw_tok;
  uint32_t rate_q16;
  uint64_t burst;
  const tok_t *burst_tok;
  const tok_t *then_tok;
  const tok_t *refused;  // an action or option xtm refuses, reported where the policer is used
  bool filter_specific;
  bool ok;  // complete, every value in range
} pol_t;

typedef struct term {
  const tok_t *name;
  bool match_all;  // no `from`
  uint64_t dscp;   // bit d: matches DSCP d
  const tok_t *dscp_tok[64];
  const tok_t *pol_ref;
  int pol;
} term_t;

typedef struct filt {
  const tok_t *name;
  const node_t *node;
  bool read;  // terms read (when a port first uses it)
  bool ok;
  bool polices;
  bool interface_specific;
  uint32_t nterm;
  term_t *term;             // MAX_TERMS, allocated when the filter is read
  const tok_t *first_port;  // the first port that uses it
} filt_t;

typedef struct apply {
  const tok_t *port;  // the interface statement
  const tok_t *unit;
  const tok_t *pol_ref;
  const tok_t *filt_ref;
  int pol, filt;
  uint32_t mtu;
  const node_t *mtu_node;  // `mtu N` of the interface
} apply_t;

struct cos_police {
  const tok_t *fw_tok;
  uint32_t npol, nfilt, napply;
  pol_t pol[MAX_POLICERS];
  filt_t filt[MAX_FILTERS];
  apply_t ap[MAX_APPLY];
};

cos_police_t *cos_police_new(void) { return calloc(1, sizeof(cos_police_t)); }

void cos_police_free(cos_police_t *p) {
  for (uint32_t i = 0; p != NULL && i < p->nfilt; i++) {
    free(p->filt[i].term);
  }
  free(p);
}

static int pol_find(const cos_police_t *p, const char *name) {
  for (uint32_t i = 0; i < p->npol; i++) {
    if (strcmp(p->pol[i].name->text, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

static int filt_find(const cos_police_t *p, const char *name) {
  for (uint32_t i = 0; i < p->nfilt; i++) {
    if (strcmp(p->filt[i].name->text, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

// ------------------------------------------------------------------ policers

// The statements of `then` (a leaf `then discard;` or a block `then { discard; }`), each
// as a node whose words are the action; `tmp` holds the leaf form.
static size_t then_actions(const node_t *n, const node_t **out, size_t cap, node_t *tmp,
                           const tok_t **buf) {
  if (!n->block) {
    if (n->nw < 2) {
      return 0;
    }
    size_t k = 0;
    for (size_t i = 1; i < n->nw && k < 8; i++) {
      buf[k++] = n->w[i];
    }
    *tmp = (node_t){.w = buf, .nw = k};
    out[0] = tmp;
    return 1;
  }
  size_t k = 0;
  for (size_t i = 0; i < n->nkids && k < cap; i++) {
    out[k++] = n->kids[i];
  }
  return k;
}

static void pol_bandwidth(ctx_t *c, pol_t *q, const node_t *e) {
  if (q->bw_tok != NULL) {
    err(c, e->w[0], "duplicate 'bandwidth-limit' in policer '%s' (first given at line %d)",
        q->name->text, q->bw_tok->line);
    return;
  }
  if (!want_leaf(c, e) || !need_word(c, e, 1, "a rate in bits per second") || !no_more(c, e, 2)) {
    return;
  }
  const tok_t *t = e->w[1];
  q->bw_tok = t;
  uint64_t milli;
  if (parse_scaled_milli(t->text, &milli) && milli == 0) {
    err(c, t, "bandwidth-limit %s of policer '%s' is 0 b/s (a policer rate is above 0)", t->text,
        q->name->text);
    return;
  }
  if (!parse_rate_str(t->text, &q->bps)) {
    err(c, t, "'%s' is not a rate (for 'bandwidth-limit'; bits per second, e.g. 20g, 500m, 64k)",
        t->text);
    return;
  }
  uint32_t q16 = xtm_cos_rate_q16(q->bps, c->clock_hz);
  if (q16 > XTM_POL_RATE_RATE_MASK) {
    uint64_t max = (uint64_t)((cos_u128)XTM_POL_RATE_RATE_MASK * 8u * c->clock_hz / 65536u);
    err(c, t,
        "bandwidth-limit %s of policer '%s' is above the 24-bit Q8.16 rate register POL_RATE at a "
        "%llu Hz clock (at most %llu b/s)",
        t->text, q->name->text, (unsigned long long)c->clock_hz, (unsigned long long)max);
    return;
  }
  char what[160];
  snprintf(what, sizeof(what), "bandwidth-limit %s of policer '%s'", t->text, q->name->text);
  q->rate_q16 = cos_rate_reg(c, t, what, q->bps, "the policer would pass nothing");
}

static void pol_burst(ctx_t *c, pol_t *q, const node_t *e) {
  if (q->burst_tok != NULL) {
    err(c, e->w[0], "duplicate 'burst-size-limit' in policer '%s' (first given at line %d)",
        q->name->text, q->burst_tok->line);
    return;
  }
  if (!want_leaf(c, e) || !need_word(c, e, 1, "a size in bytes") || !no_more(c, e, 2)) {
    return;
  }
  const tok_t *t = e->w[1];
  q->burst_tok = t;
  uint64_t milli;
  if (!parse_scaled_milli(t->text, &milli) || milli % 1000u != 0) {
    err(c, t, "'%s' is not a size in bytes (for 'burst-size-limit'; e.g. 15000, 625k, 12m)",
        t->text);
    return;  // given, but wrong: no follow-on "has no burst-size-limit"
  }
  q->burst = milli / 1000u;
  if (q->burst > XTM_POL_BURST_BYTES_MASK) {
    err(c, t,
        "burst-size-limit %s of policer '%s' is above the 24-bit POL_BURST register (at most %u "
        "bytes)",
        t->text, q->name->text, (unsigned)XTM_POL_BURST_BYTES_MASK);
  } else if (q->burst < MIN_BURST) {
    err(c, t,
        "burst-size-limit %s of policer '%s' is below %u bytes, the Junos minimum (one Ethernet "
        "MTU: a packet longer than the burst never conforms)",
        t->text, q->name->text, MIN_BURST);
  }
}

static void pol_if_exceeding(ctx_t *c, pol_t *q, const node_t *n) {
  if (!want_block(c, n, 1)) {
    return;
  }
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    const char *w = e->w[0]->text;
    if (strcmp(w, "bandwidth-limit") == 0) {
      pol_bandwidth(c, q, e);
    } else if (strcmp(w, "burst-size-limit") == 0) {
      pol_burst(c, q, e);
    } else if (strcmp(w, "bandwidth-percent") == 0) {
      junos_refused(c, e->w[0],
                    "bandwidth-percent of policer '%s' (a share of the interface's rate: give "
                    "'bandwidth-limit' in bits per second)",
                    q->name->text);
    } else {
      unknown(c, e, "if-exceeding");
    }
  }
}

static void pol_then(ctx_t *c, pol_t *q, const node_t *n) {
  if (q->then_tok != NULL) {
    err(c, n->w[0], "duplicate 'then' in policer '%s' (first given at line %d)", q->name->text,
        q->then_tok->line);
    return;
  }
  q->then_tok = n->w[0];
  const node_t *act[16];
  node_t tmp;
  const tok_t *buf[8];
  size_t na = then_actions(n, act, 16, &tmp, buf);
  if (na == 0) {
    err(c, n->w[0], "'then' of policer '%s' needs an action (xtm supports 'then discard')",
        q->name->text);
    return;
  }
  for (size_t i = 0; i < na; i++) {
    const tok_t *a = act[i]->w[0];
    if (strcmp(a->text, "discard") == 0) {
      continue;
    }
    if (strcmp(a->text, "loss-priority") == 0 || strcmp(a->text, "forwarding-class") == 0 ||
        strcmp(a->text, "out-of-profile") == 0) {
      if (q->refused == NULL) {
        q->refused = a;
      }
    } else {
      err(c, a,
          "unknown action '%s' of policer '%s' (Junos: discard, loss-priority, "
          "forwarding-class)",
          a->text, q->name->text);
    }
  }
}

static void read_policer(ctx_t *c, cos_police_t *p, const node_t *n) {
  if (!want_block(c, n, 2) || !check_name(c, n->w[1], "policer")) {
    return;
  }
  int dup = pol_find(p, n->w[1]->text);
  if (dup >= 0) {
    err(c, n->w[1], "duplicate policer '%s' (first defined at line %d)", n->w[1]->text,
        p->pol[dup].name->line);
    return;
  }
  if (p->npol >= MAX_POLICERS) {
    err(c, n->w[1], "too many policers (at most %u)", MAX_POLICERS);
    return;
  }
  pol_t *q = &p->pol[p->npol++];
  *q = (pol_t){.name = n->w[1], .node = n};
  uint32_t nerr = c->r->nerrors;
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    const char *w = e->w[0]->text;
    if (strcmp(w, "if-exceeding") == 0) {
      pol_if_exceeding(c, q, e);
    } else if (strcmp(w, "then") == 0) {
      pol_then(c, q, e);
    } else if (strcmp(w, "filter-specific") == 0) {
      q->filter_specific = want_leaf(c, e) && no_more(c, e, 1);
    } else if (strcmp(w, "logical-interface-policer") == 0 ||
               strcmp(w, "physical-interface-policer") == 0 ||
               strcmp(w, "shared-bandwidth-policer") == 0 ||
               strcmp(w, "logical-bandwidth-policer") == 0) {
      if (q->refused == NULL) {
        q->refused = e->w[0];
      }
    } else {
      unknown(c, e, "a policer");
    }
  }
  // what is missing, unless a statement of the policer was wrong already (a misspelt
  // `if-exceeding` is one error, not also its two limits)
  if (q->bw_tok == NULL && c->r->nerrors == nerr) {
    err(c, q->name,
        "policer '%s' has no bandwidth-limit (if-exceeding { bandwidth-limit BPS; "
        "burst-size-limit BYTES; })",
        q->name->text);
  }
  if (q->burst_tok == NULL && c->r->nerrors == nerr) {
    err(c, q->name,
        "policer '%s' has no burst-size-limit (if-exceeding { bandwidth-limit BPS; "
        "burst-size-limit BYTES; })",
        q->name->text);
  }
  if (q->then_tok == NULL && c->r->nerrors == nerr) {
    err(c, q->name, "policer '%s' has no action (xtm supports 'then discard')", q->name->text);
  }
  q->ok = c->r->nerrors == nerr;
}

// ------------------------------------------------------------------ filters

static void add_filter(ctx_t *c, cos_police_t *p, const node_t *n) {
  if (!want_block(c, n, 2) || !check_name(c, n->w[1], "filter")) {
    return;
  }
  int dup = filt_find(p, n->w[1]->text);
  if (dup >= 0) {
    err(c, n->w[1], "duplicate filter '%s' (first defined at line %d)", n->w[1]->text,
        p->filt[dup].name->line);
    return;
  }
  if (p->nfilt >= MAX_FILTERS) {
    err(c, n->w[1], "too many filters (at most %u)", MAX_FILTERS);
    return;
  }
  p->filt[p->nfilt++] = (filt_t){.name = n->w[1], .node = n};
}

void cos_police_firewall(ctx_t *c, cos_police_t *p, const node_t *fw) {
  if (p->fw_tok != NULL) {
    err(c, fw->w[0], "duplicate 'firewall' (first given at line %d)", p->fw_tok->line);
    return;
  }
  p->fw_tok = fw->w[0];
  if (!want_block(c, fw, 1)) {
    return;
  }
  for (size_t k = 0; k < fw->nkids; k++) {
    const node_t *e = fw->kids[k];
    const char *w = e->w[0]->text;
    if (strcmp(w, "policer") == 0) {
      read_policer(c, p, e);
    } else if (strcmp(w, "filter") == 0) {
      add_filter(c, p, e);  // `firewall filter F` is a family inet filter
    } else if (strcmp(w, "family") == 0 && e->nw == 2 && e->block && is_word(e, 1, "inet")) {
      for (size_t j = 0; j < e->nkids; j++) {
        const node_t *f = e->kids[j];
        if (strcmp(f->w[0]->text, "filter") == 0) {
          add_filter(c, p, f);
        } else {
          junos_ignored(c, f, "firewall family inet",
                        "xtm models the policers of family inet filters");
        }
      }
    } else if (strcmp(w, "family") == 0) {
      junos_ignored(c, e, "firewall",
                    "filters of other families: xtm models the policers of family inet filters");
    } else if (strcmp(w, "three-color-policer") == 0 || strcmp(w, "hierarchical-policer") == 0 ||
               strcmp(w, "interface-set") == 0 || strcmp(w, "load-balance-group") == 0 ||
               strcmp(w, "atm-policer") == 0) {
      junos_ignored(c, e, "firewall",
                    "xtm models single-rate two-color policers ('policer'); a port that uses this "
                    "one is refused");
    } else {
      unknown(c, e, "firewall");
    }
  }
}

// A DSCP value of a filter: 0..63 or a Junos keyword (be, ef, afXY, csN, nc1, nc2).
static bool dscp_value(const char *s, uint8_t *out) {
  static const struct {
    const char *kw;
    uint8_t v;
  } kKw[] = {{"be", 0},    {"ef", 46},   {"af11", 10}, {"af12", 12}, {"af13", 14}, {"af21", 18},
             {"af22", 20}, {"af23", 22}, {"af31", 26}, {"af32", 28}, {"af33", 30}, {"af41", 34},
             {"af42", 36}, {"af43", 38}, {"cs0", 0},   {"cs1", 8},   {"cs2", 16},  {"cs3", 24},
             {"cs4", 32},  {"cs5", 40},  {"cs6", 48},  {"cs7", 56},  {"nc1", 48},  {"nc2", 56}};
  for (size_t i = 0; i < sizeof(kKw) / sizeof(kKw[0]); i++) {
    if (strcmp(s, kKw[i].kw) == 0) {
      *out = kKw[i].v;
      return true;
    }
  }
  size_t l = strlen(s);
  if (l == 0 || l > 2 || strspn(s, "0123456789") != l) {
    return false;
  }
  unsigned v = (unsigned)atoi(s);
  if (v > 63u) {
    return false;
  }
  *out = (uint8_t)v;
  return true;
}

static void term_from(ctx_t *c, const filt_t *f, term_t *t, const node_t *n) {
  if (!want_block(c, n, 1)) {
    return;
  }
  t->match_all = false;
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    if (strcmp(e->w[0]->text, "dscp") != 0) {
      junos_refused(c, e->w[0],
                    "term '%s' of filter '%s' matches on '%s' (the hardware chooses a policer by "
                    "traffic class: xtm models 'from dscp' only)",
                    t->name->text, f->name->text, e->w[0]->text);
      continue;
    }
    const tok_t *v[64];
    size_t next = 1;
    size_t nv = word_list(c, e, 1, v, 64, &next);
    if (nv > 0 && !no_more(c, e, next)) {
      continue;
    }
    for (size_t i = 0; i < nv; i++) {
      uint8_t d;
      if (!dscp_value(v[i]->text, &d)) {
        err(c, v[i], "'%s' is not a DSCP value (0..63, or be ef af11..af43 cs0..cs7 nc1 nc2)",
            v[i]->text);
        continue;
      }
      if ((t->dscp >> d & 1u) == 0u) {
        t->dscp |= 1ull << d;
        t->dscp_tok[d] = v[i];
      }
    }
  }
}

static void term_then(ctx_t *c, cos_police_t *p, const filt_t *f, term_t *t, const node_t *n) {
  const node_t *act[16];
  node_t tmp;
  const tok_t *buf[8];
  size_t na = then_actions(n, act, 16, &tmp, buf);
  for (size_t i = 0; i < na; i++) {
    const node_t *a = act[i];
    const char *w = a->w[0]->text;
    if (strcmp(w, "policer") == 0) {
      if (!need_word(c, a, 1, "a policer name") || !no_more(c, a, 2)) {
        continue;
      }
      t->pol_ref = a->w[1];
      t->pol = pol_find(p, a->w[1]->text);
      if (t->pol < 0) {
        err(c, a->w[1], "term '%s' of filter '%s' refers to undefined policer '%s'", t->name->text,
            f->name->text, a->w[1]->text);
      }
    } else if (strcmp(w, "accept") == 0) {
      continue;
    } else if (strcmp(w, "count") == 0 || strcmp(w, "log") == 0 || strcmp(w, "syslog") == 0 ||
               strcmp(w, "sample") == 0 || strcmp(w, "port-mirror") == 0) {
      junos_ignored(c, a, "a filter term", "counting and logging change no forwarding");
    } else {
      junos_refused(c, a->w[0],
                    "'then %s' in term '%s' of filter '%s' (xtm models a filter term's policer: "
                    "'then policer P', 'accept', 'count')",
                    w, t->name->text, f->name->text);
    }
  }
}

static void read_term(ctx_t *c, cos_police_t *p, filt_t *f, const node_t *n) {
  if (!want_block(c, n, 2) || !check_name(c, n->w[1], "term")) {
    return;
  }
  for (uint32_t i = 0; i < f->nterm; i++) {
    if (strcmp(f->term[i].name->text, n->w[1]->text) == 0) {
      err(c, n->w[1], "duplicate term '%s' in filter '%s' (first defined at line %d)",
          n->w[1]->text, f->name->text, f->term[i].name->line);
      return;
    }
  }
  if (f->nterm >= MAX_TERMS) {
    err(c, n->w[1], "too many terms in filter '%s' (at most %u)", f->name->text, MAX_TERMS);
    return;
  }
  term_t *t = &f->term[f->nterm++];
  *t = (term_t){.name = n->w[1], .match_all = true, .pol = -1};
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    if (strcmp(e->w[0]->text, "from") == 0) {
      term_from(c, f, t, e);
    } else if (strcmp(e->w[0]->text, "then") == 0) {
      term_then(c, p, f, t, e);
    } else {
      unknown(c, e, "a filter term");
    }
  }
  f->polices |= t->pol_ref != NULL;
}

// The terms of a filter, read once, when the first port uses it.
static void read_filter(ctx_t *c, cos_police_t *p, filt_t *f) {
  if (f->read) {
    return;
  }
  f->read = true;
  f->term = calloc(MAX_TERMS, sizeof(term_t));
  if (f->term == NULL) {
    err(c, f->name, "out of memory reading filter '%s'", f->name->text);
    return;
  }
  uint32_t nerr = c->r->nerrors;
  for (size_t k = 0; k < f->node->nkids; k++) {
    const node_t *e = f->node->kids[k];
    const char *w = e->w[0]->text;
    if (strcmp(w, "term") == 0) {
      read_term(c, p, f, e);
    } else if (strcmp(w, "interface-specific") == 0) {
      f->interface_specific = want_leaf(c, e) && no_more(c, e, 1);
    } else if (strcmp(w, "accounting-profile") == 0) {
      junos_ignored(c, e, "a firewall filter", "counter accounting changes no forwarding");
    } else {
      unknown(c, e, "a firewall filter");
    }
  }
  f->ok = c->r->nerrors == nerr;
}

// Whether a filter's statement tree has a `then policer` (read without checking the rest:
// a filter that polices nothing is not interpreted).
static bool node_polices(const node_t *n) {
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *t = n->kids[k];
    if (strcmp(t->w[0]->text, "term") != 0) {
      continue;
    }
    for (size_t j = 0; j < t->nkids; j++) {
      const node_t *th = t->kids[j];
      if (strcmp(th->w[0]->text, "then") != 0) {
        continue;
      }
      if (!th->block && th->nw >= 2 && strcmp(th->w[1]->text, "policer") == 0) {
        return true;
      }
      for (size_t i = 0; i < th->nkids; i++) {
        if (strcmp(th->kids[i]->w[0]->text, "policer") == 0) {
          return true;
        }
      }
    }
  }
  return false;
}

// ------------------------------------------------------------------ interfaces

static void if_policer(ctx_t *c, apply_t *a, const node_t *s, const node_t *u, bool inet) {
  for (size_t k = 0; k < s->nkids; k++) {
    const node_t *x = s->kids[k];
    const char *w = x->w[0]->text;
    if (strcmp(w, "arp") == 0) {
      junos_ignored(c, x, "an interface policer", "ARP packets are not traffic-manager traffic");
    } else if (strcmp(w, "output") == 0) {
      junos_refused(c, x->w[0],
                    "'policer output' on '%s' (egress policing: the hardware polices at ingress)",
                    a->port->text);
    } else if (strcmp(w, "input") != 0) {
      unknown(c, x, "an interface policer");
    } else if (!need_word(c, x, 1, "a policer name") || !no_more(c, x, 2)) {
      continue;
    } else if (!inet) {
      junos_refused(c, x->w[0],
                    "'policer input' in family '%s' of '%s' (xtm models the policing of family "
                    "inet)",
                    u->w[1]->text, a->port->text);
    } else if (a->pol_ref != NULL) {
      err(c, x->w[0], "duplicate 'policer input' on '%s' (first given at line %d)", a->port->text,
          a->pol_ref->line);
    } else {
      a->pol_ref = x->w[1];
    }
  }
}

static void if_filter(ctx_t *c, cos_police_t *p, apply_t *a, const node_t *s, const node_t *fam) {
  bool inet = is_word(fam, 1, "inet");
  for (size_t k = 0; k < s->nkids; k++) {
    const node_t *x = s->kids[k];
    const char *w = x->w[0]->text;
    bool in = strcmp(w, "input") == 0;
    if (strcmp(w, "input-list") == 0 || strcmp(w, "output-list") == 0) {
      junos_refused(c, x->w[0], "'filter %s' on '%s' (lists of filters)", w, a->port->text);
      continue;
    }
    if (!in && strcmp(w, "output") != 0 && strcmp(w, "group") != 0) {
      unknown(c, x, "an interface filter");
      continue;
    }
    if (strcmp(w, "group") == 0 || !need_word(c, x, 1, "a filter name") || !no_more(c, x, 2)) {
      continue;
    }
    int fi = inet ? filt_find(p, x->w[1]->text) : -1;
    bool polices = fi >= 0 && node_polices(p->filt[fi].node);
    if (!inet || !in) {
      if (polices && !in) {
        junos_refused(c, x->w[1],
                      "'filter output %s' on '%s' polices (egress policing: the hardware polices "
                      "at ingress)",
                      x->w[1]->text, a->port->text);
      } else {
        junos_ignored(c, x, "an interface",
                      inet ? "an output filter: xtm models the policers of input filters"
                           : "a filter of another family: xtm models the policers of family inet");
      }
    } else if (fi < 0) {
      err(c, x->w[1], "interface '%s' refers to undefined filter '%s'", a->port->text,
          x->w[1]->text);
    } else if (a->filt_ref != NULL) {
      err(c, x->w[0], "duplicate 'filter input' on '%s' (first given at line %d)", a->port->text,
          a->filt_ref->line);
    } else if (!polices) {
      warn(c, x->w[1],
           "valid Junos, not modelled by xtm: filter '%s' on '%s' is ignored (it has no 'then "
           "policer': xtm models the policers of filters, not their other actions)",
           x->w[1]->text, a->port->text);
    } else {
      a->filt_ref = x->w[1];
      a->filt = fi;
    }
  }
}

// Whether an interface statement has a `policer` or a `filter` that polices, in any unit and
// family.
static bool if_polices(const cos_police_t *p, const node_t *n) {
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *u = n->kids[k];
    for (size_t j = 0; strcmp(u->w[0]->text, "unit") == 0 && j < u->nkids; j++) {
      const node_t *fam = u->kids[j];
      for (size_t i = 0; strcmp(fam->w[0]->text, "family") == 0 && i < fam->nkids; i++) {
        const node_t *s = fam->kids[i];
        bool filter = strcmp(s->w[0]->text, "filter") == 0;
        if (strcmp(s->w[0]->text, "policer") == 0) {
          return true;
        }
        for (size_t x = 0; filter && x < s->nkids; x++) {
          int fi = s->kids[x]->nw >= 2 ? filt_find(p, s->kids[x]->w[1]->text) : -1;
          if (fi >= 0 && node_polices(p->filt[fi].node)) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

// The policing statements of one interface (a port, a LAG, a range, lo0, ...).
static void scan_interface(ctx_t *c, cos_police_t *p, const node_t *n, const tok_t *name,
                           bool range) {
  cos_ifkind_t kind = range ? kIfWildcard : cos_ifname(name->text, NULL, NULL, 0);
  if (kind == kIfOther || kind == kIfBad) {
    // lo0, irb, em0, ...: not a port of the traffic manager; their filters are not read
    if (if_polices(p, n)) {
      warn(c, name,
           "valid Junos, not modelled by xtm: the policing of '%s' is ignored (not a port of the "
           "traffic manager)",
           name->text);
    }
    return;
  }
  apply_t a = {.port = name, .pol = -1, .filt = -1, .mtu = DEFAULT_MTU};
  for (size_t k = 0; k < n->nkids; k++) {
    const node_t *u = n->kids[k];
    if (strcmp(u->w[0]->text, "mtu") == 0 && u->nw == 2 && !u->block) {
      a.mtu_node = u;
    }
    if (strcmp(u->w[0]->text, "unit") != 0 || u->nw != 2 || !u->block) {
      continue;
    }
    apply_t ua = {.port = name, .pol = -1, .filt = -1};  // this unit's policing
    for (size_t j = 0; j < u->nkids; j++) {
      const node_t *fam = u->kids[j];
      if (strcmp(fam->w[0]->text, "family") != 0 || fam->nw != 2 || !fam->block) {
        continue;
      }
      for (size_t i = 0; i < fam->nkids; i++) {
        const node_t *s = fam->kids[i];
        if (strcmp(s->w[0]->text, "policer") == 0 && s->block) {
          if_policer(c, &ua, s, fam, is_word(fam, 1, "inet"));
        } else if (strcmp(s->w[0]->text, "filter") == 0 && s->block) {
          if_filter(c, p, &ua, s, fam);
        }
      }
    }
    if (ua.pol_ref == NULL && ua.filt_ref == NULL) {
      continue;
    }
    if (a.unit != NULL) {
      junos_refused(c, u->w[1],
                    "policing on units %s and %s of '%s' (the hardware polices per ingress port, "
                    "not per unit)",
                    a.unit->text, u->w[1]->text, name->text);
      return;
    }
    a.unit = u->w[1];
    a.pol_ref = ua.pol_ref;
    a.filt_ref = ua.filt_ref;
    a.filt = ua.filt;
  }
  if (a.pol_ref == NULL && a.filt_ref == NULL) {
    return;
  }
  if (kind != kIfPhys) {
    junos_refused(c, a.pol_ref != NULL ? a.pol_ref : a.filt_ref,
                  "policing on '%s' (an aggregated interface or interface-range: give it on each "
                  "member port)",
                  name->text);
    return;
  }
  if (a.pol_ref != NULL && a.filt_ref != NULL) {
    junos_refused(c, a.filt_ref,
                  "'policer input' and a 'filter input' that polices on '%s' (two policers for "
                  "one packet: the hardware has one per traffic class)",
                  name->text);
    return;
  }
  if (a.pol_ref != NULL) {
    a.pol = pol_find(p, a.pol_ref->text);
    if (a.pol < 0) {
      err(c, a.pol_ref, "interface '%s' refers to undefined policer '%s'", name->text,
          a.pol_ref->text);
      return;
    }
  }
  if (a.mtu_node != NULL) {
    uint64_t m;
    if (!parse_uint(c, a.mtu_node, 1, 256, 65535, &m)) {
      return;
    }
    a.mtu = (uint32_t)m;
  }
  if (a.filt >= 0) {
    filt_t *f = &p->filt[a.filt];
    read_filter(c, p, f);
    if (f->first_port != NULL && !f->interface_specific) {
      junos_refused(c, a.filt_ref,
                    "filter '%s' polices on '%s' and '%s' without 'interface-specific' (Junos "
                    "shares the filter's policers among its interfaces; the hardware's are per "
                    "ingress port)",
                    f->name->text, f->first_port->text, name->text);
      return;
    }
    if (f->first_port == NULL) {
      f->first_port = name;
    }
  }
  if (p->napply >= MAX_APPLY) {
    err(c, name, "too many policed interfaces (at most %u)", MAX_APPLY);
    return;
  }
  p->ap[p->napply++] = a;
}

void cos_police_interfaces(ctx_t *c, cos_police_t *p, const node_t *root) {
  for (size_t i = 0; i < root->nkids; i++) {
    const node_t *s = root->kids[i];
    if (!s->block || s->nw != 1 || strcmp(s->w[0]->text, "interfaces") != 0) {
      continue;
    }
    for (size_t k = 0; k < s->nkids; k++) {
      const node_t *n = s->kids[k];
      if (!n->block) {
        continue;
      }
      if (n->nw == 2 && strcmp(n->w[0]->text, "interface-range") == 0) {
        scan_interface(c, p, n, n->w[1], true);
      } else if (n->nw == 1) {
        scan_interface(c, p, n, n->w[0], false);
      }
    }
  }
}

bool cos_police_port(const cos_police_t *p, const char *name) {
  for (uint32_t i = 0; i < p->napply; i++) {
    if (strcmp(p->ap[i].port->text, name) == 0) {
      return true;
    }
  }
  return false;
}

void cos_police_want(const cos_police_t *p, cos_dev_t *d) {
  for (uint32_t i = 0; i < d->nphys; i++) {
    if (d->phys[i].mport == -1 && cos_police_port(p, d->phys[i].name)) {
      d->phys[i].mport = -2;
    }
  }
}

// ------------------------------------------------------------------ hardware policers

// One hardware policer of a port: the interface policer, a term's policer (term-specific,
// the Junos default) or a filter-specific policer shared by the terms of its filter.
typedef struct inst {
  int pol;
  int key;  // -1: interface policer; term index; MAX_TERMS + policer: filter-specific
  const term_t *term;
  uint8_t tcs;
} inst_t;

typedef struct port_work {
  const apply_t *a;
  inst_t in[XTM_FW_POLICERS_PER_PORT];
  uint32_t ni;
  int claim[XTM_FW_MAX_TCS];  // instance, -2 accepted without a policer, -1 free
  const term_t *claim_term[XTM_FW_MAX_TCS];
  int dscp_inst[64];  // instance of the first term matching the DSCP (-2 no policer, -3 no
                      // term, -4 a policer that got no class)
} port_work_t;

static int inst_of(port_work_t *w, int pol, int key, const term_t *t) {
  for (uint32_t i = 0; i < w->ni; i++) {
    if (w->in[i].key == key && w->in[i].pol == pol) {
      return (int)i;
    }
  }
  // at most 8: every policer takes one of the port's traffic classes for itself (a class
  // taken by another policer is the conflict error), so a 9th is never made
  if (w->ni >= XTM_FW_POLICERS_PER_PORT) {
    return -1;
  }
  w->in[w->ni] = (inst_t){.pol = pol, .key = key, .term = t};
  return (int)w->ni++;
}

// The traffic classes of a filter term's DSCP values (spec 4.7: the DSCP chooses the
// policer through DSCP_MAP), first match first as Junos evaluates terms.
static void filter_classes(ctx_t *c, const cos_police_t *p, port_work_t *w, const filt_t *f) {
  const xtm_fw_class_cfg_t *cls = &c->r->cfg.cls;
  uint64_t matched = 0;
  for (uint32_t ti = 0; ti < f->nterm; ti++) {
    const term_t *t = &f->term[ti];
    uint64_t s = (t->match_all ? ~0ull : t->dscp) & ~matched;
    int key = t->pol >= 0 && p->pol[t->pol].filter_specific ? (int)MAX_TERMS + t->pol : (int)ti;
    bool took = false;
    for (uint32_t d = 0; d < 64; d++) {
      if ((s >> d & 1u) == 0u) {
        continue;
      }
      matched |= 1ull << d;
      uint32_t tc = cls->dscp_tc[d];
      int have = w->claim[tc];
      int mine = -2;  // accepted without a policer
      if (t->pol >= 0) {
        mine = -4;  // its policer, not made yet
        for (uint32_t i = 0; i < w->ni; i++) {
          mine = w->in[i].key == key && w->in[i].pol == t->pol ? (int)i : mine;
        }
        mine = mine == -4 && have == -1 ? inst_of(w, t->pol, key, t) : mine;
      }
      w->dscp_inst[d] = mine;
      if (have == -1) {
        w->claim[tc] = mine;
        w->claim_term[tc] = t;
        took = true;
        if (mine >= 0) {
          w->in[mine].tcs = (uint8_t)(w->in[mine].tcs | 1u << tc);
        }
      } else if (have != mine && !t->match_all) {
        const term_t *o = w->claim_term[tc];
        char by[96];
        if (have >= 0) {
          snprintf(by, sizeof(by), "gives to policer '%s'", p->pol[w->in[have].pol].name->text);
        } else {
          snprintf(by, sizeof(by), "accepts without a policer");
        }
        err(c, t->dscp_tok[d],
            "DSCP %u of term '%s' (filter '%s' on '%s') is traffic class %u, which term '%s' %s "
            "(the hardware has one policer per traffic class of a port)",
            d, t->name->text, f->name->text, w->a->port->text, tc, o->name->text, by);
        return;
      }
    }
    if (t->pol >= 0 && !took && t->match_all) {
      warn(c, t->name,
           "term '%s' of filter '%s' polices nothing on '%s': every traffic class is taken by an "
           "earlier term (the hardware polices per traffic class)",
           t->name->text, f->name->text, w->a->port->text);
    }
  }
  const term_t *last = f->nterm > 0 ? &f->term[f->nterm - 1] : NULL;
  if (last != NULL && !last->match_all) {
    warn(c, f->name,
         "filter '%s' has no last term without 'from': Junos discards what no term matches, xtm "
         "does not model filter discards (that traffic is not policed)",
         f->name->text);
  }
}

// A policer polices whole traffic classes: the DSCP values of its classes that its term
// does not match are policed too.
static void warn_partial(ctx_t *c, const cos_police_t *p, const port_work_t *w) {
  const xtm_fw_class_cfg_t *cls = &c->r->cfg.cls;
  for (uint32_t i = 0; i < w->ni; i++) {
    if (w->in[i].term == NULL) {
      continue;
    }
    char list[128] = "";
    size_t o = 0;
    uint32_t n = 0;
    for (uint32_t d = 0; d < 64; d++) {
      if ((w->in[i].tcs >> cls->dscp_tc[d] & 1u) != 0u && w->dscp_inst[d] != (int)i) {
        if (n < 8 && o < sizeof(list)) {
          o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%u", n ? " " : "", d);
        }
        n++;
      }
    }
    if (n > 0) {
      warn(c, w->in[i].term->pol_ref,
           "policer '%s' of term '%s' on '%s' polices whole traffic classes, so also DSCP %s%s, "
           "which the term does not match (the hardware chooses the policer by traffic class)",
           p->pol[w->in[i].pol].name->text, w->in[i].term->name->text, w->a->port->text, list,
           n > 8 ? " ..." : "");
    }
  }
}

// The policer's own limits at this port: refused options, the burst against the MTU.
static bool check_policer(ctx_t *c, const pol_t *q, const apply_t *a) {
  if (!q->ok) {
    return false;
  }
  if (q->refused != NULL) {
    bool action = strcmp(q->refused->text, "loss-priority") == 0 ||
                  strcmp(q->refused->text, "forwarding-class") == 0 ||
                  strcmp(q->refused->text, "out-of-profile") == 0;
    if (action) {
      junos_refused(c, q->refused,
                    "'then %s' of policer '%s' (the hardware policer discards what exceeds its "
                    "bucket, spec 4.7: xtm supports 'then discard')",
                    q->refused->text, q->name->text);
    } else {
      junos_refused(c, q->refused,
                    "'%s' of policer '%s' (a policer shared among units, families or links: the "
                    "hardware's policers are per ingress port)",
                    q->refused->text, q->name->text);
    }
    return false;
  }
  if (q->burst < a->mtu) {
    err(c, q->burst_tok,
        "burst-size-limit %s of policer '%s' is below the MTU %u of '%s': a packet longer than the "
        "burst never conforms (spec 4.7)",
        q->burst_tok->text, q->name->text, a->mtu, a->port->text);
    return false;
  }
  if (q->burst < 10u * (uint64_t)a->mtu) {
    warn(c, q->burst_tok,
         "burst-size-limit %s of policer '%s' on '%s' is below 10 x its MTU (%u bytes; Junos "
         "guideline: at least 10 MTUs, and 5 ms at the line rate)",
         q->burst_tok->text, q->name->text, a->port->text, a->mtu);
  }
  return true;
}

static void port_policers(ctx_t *c, const cos_police_t *p, const apply_t *a, uint32_t mport) {
  port_work_t w = {.a = a};
  for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
    w.claim[t] = -1;
  }
  for (uint32_t d = 0; d < 64; d++) {
    w.dscp_inst[d] = -3;
  }
  uint32_t nerr = c->r->nerrors;
  const filt_t *f = a->filt >= 0 ? &p->filt[a->filt] : NULL;
  if (a->pol >= 0) {
    w.in[0] = (inst_t){.pol = a->pol, .key = -1};
    w.ni = 1;
    w.in[0].tcs = (uint8_t)((1u << c->hw->num_tcs) - 1u);
  } else if (f != NULL && f->ok) {
    filter_classes(c, p, &w, f);
  }
  for (uint32_t i = 0; i < w.ni; i++) {
    (void)check_policer(c, &p->pol[w.in[i].pol], a);
  }
  if (c->r->nerrors != nerr || (f != NULL && !f->ok)) {
    return;
  }
  warn_partial(c, p, &w);
  xtm_fw_cfg_t *cfg = &c->r->cfg;
  xtm_fw_pol_map_cfg_t *m = &cfg->pol_map[mport];
  for (uint32_t i = 0; i < w.ni; i++) {
    const pol_t *q = &p->pol[w.in[i].pol];
    cfg->policers[cfg->num_policers++] = (xtm_fw_policer_cfg_t){.port = (uint8_t)mport,
                                                                .index = (uint8_t)i,
                                                                .rate_q16 = q->rate_q16,
                                                                .burst_bytes = (uint32_t)q->burst};
    m->valid = true;
    m->tc_en = (uint8_t)(m->tc_en | w.in[i].tcs);
    for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
      if ((w.in[i].tcs >> t & 1u) != 0u) {
        m->tc_pol[t] = (uint8_t)i;
      }
    }
    xtm_cos_pol_plan_t *pp = &c->r->pol[c->r->npols++];
    memset(pp, 0, sizeof(*pp));
    snprintf(pp->iface, sizeof(pp->iface), "%s", a->port->text);
    snprintf(pp->policer, sizeof(pp->policer), "%s", q->name->text);
    if (w.in[i].term == NULL) {
      snprintf(pp->source, sizeof(pp->source), "policer input (unit %s)", a->unit->text);
    } else if (w.in[i].key >= (int)MAX_TERMS) {
      snprintf(pp->source, sizeof(pp->source), "filter %s (filter-specific)", f->name->text);
    } else {
      snprintf(pp->source, sizeof(pp->source), "filter %s term %s", f->name->text,
               w.in[i].term->name->text);
    }
    pp->port = mport;
    pp->index = i;
    pp->rate_bps = q->bps;
    pp->rate_q16 = q->rate_q16;
    pp->burst_bytes = (uint32_t)q->burst;
    pp->tcs = w.in[i].tcs;
  }
}

void cos_police_resolve(ctx_t *c, cos_police_t *p, const cos_dev_t *d) {
  // in model port order, so that the image and the plan list the policers by POL_SEL
  for (uint32_t port = 0; port < c->hw->num_ports; port++) {
    for (uint32_t i = 0; i < p->napply; i++) {
      for (uint32_t k = 0; k < d->nphys; k++) {
        if (d->phys[k].mport == (int)port && strcmp(d->phys[k].name, p->ap[i].port->text) == 0) {
          port_policers(c, p, &p->ap[i], port);
        }
      }
    }
  }
}
