// SPDX-License-Identifier: Apache-2.0
//
// Configuration compiler, device part: Junos interface names (type-fpc/pic/port[:channel],
// aeN, wildcards), the port speeds and LAG memberships of the top-level `interfaces` and
// `chassis` stanzas, and the map of the Junos ports onto the model's ports
// (docs/firmware.md section 4.2).

#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/cos_internal.h"
#include "tools/lib/xtm_num.h"

// Ethernet interface types of Junos (the media type is the speed class: ge 1G, xe 10G,
// et 25G and above, mge multi-rate, fte/xle/ce on some platforms).
static const char *const kEthTypes[] = {"et", "xe", "ge", "mge", "fte", "xle", "ce", NULL};

// Numbers of a physical interface name; limits of the widest Junos platforms with room.
#define MAX_FPC 255u
#define MAX_PIC 255u
#define MAX_PORT 65535u
#define MAX_CHAN 255u

// Decimal digits at *s (advanced past them) into *v; a number above 2^64 - 1 reads as
// UINT64_MAX (out of every range below, never wrapped). False without a digit.
static bool num_part(const char **s, uint64_t *v) {
  const char *p = *s;
  size_t l = strspn(p, "0123456789");
  if (l == 0) {
    return false;
  }
  *v = UINT64_MAX;
  if (l <= 24) {
    char buf[32];
    memcpy(buf, p, l);
    buf[l] = '\0';
    if (xtm_num_u64(NULL, buf, 0, UINT64_MAX, v, NULL) != kXtmNumOk) {
      *v = UINT64_MAX;
    }
  }
  *s = p + l;
  return true;
}

cos_ifkind_t cos_ifname(const char *name, cos_phys_t *p, char *why, size_t whylen) {
  if (strcmp(name, "all") == 0 || strpbrk(name, "*?[") != NULL) {
    return kIfWildcard;
  }
  if (name[0] == 'a' && name[1] == 'e' && name[2] != '\0' &&
      strspn(name + 2, "0123456789") == strlen(name + 2)) {
    return kIfLag;
  }
  const char *dash = strchr(name, '-');
  if (dash == NULL) {
    return kIfOther;
  }
  size_t tl = (size_t)(dash - name);
  bool eth = false;
  for (size_t i = 0; kEthTypes[i] != NULL; i++) {
    eth |= strlen(kEthTypes[i]) == tl && strncmp(kEthTypes[i], name, tl) == 0;
  }
  if (!eth) {
    return kIfOther;
  }
  const char *s = dash + 1;
  uint64_t f, pi, po, ch = 0;
  bool has_chan = false;
  if (!num_part(&s, &f) || *s++ != '/' || !num_part(&s, &pi) || *s++ != '/' || !num_part(&s, &po)) {
    return kIfOther;
  }
  if (*s == ':') {
    s++;
    if (!num_part(&s, &ch)) {
      return kIfOther;
    }
    has_chan = true;
  }
  if (*s != '\0') {
    if (*s == '.') {
      snprintf(why, whylen,
               "'%s' is a logical interface: write its class-of-service under "
               "'%.*s { unit %s { ... } }'",
               name, (int)(s - name), name, s + 1);
      return kIfBad;
    }
    return kIfOther;
  }
  const char *field = f > MAX_FPC     ? "FPC"
                      : pi > MAX_PIC  ? "PIC"
                      : po > MAX_PORT ? "port"
                      : ch > MAX_CHAN ? "channel"
                                      : NULL;
  if (field != NULL) {
    uint64_t v = f > MAX_FPC ? f : pi > MAX_PIC ? pi : po > MAX_PORT ? po : ch;
    uint64_t max = f > MAX_FPC     ? MAX_FPC
                   : pi > MAX_PIC  ? MAX_PIC
                   : po > MAX_PORT ? MAX_PORT
                                   : MAX_CHAN;
    if (v == UINT64_MAX) {
      snprintf(why, whylen, "interface '%s': its %s number is out of range 0..%llu", name, field,
               (unsigned long long)max);
    } else {
      snprintf(why, whylen, "interface '%s': %s %llu is out of range 0..%llu", name, field,
               (unsigned long long)v, (unsigned long long)max);
    }
    return kIfBad;
  }
  if (p != NULL) {
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name);
    snprintf(p->type, sizeof(p->type), "%.*s", (int)tl, name);
    p->fpc = (uint32_t)f;
    p->pic = (uint32_t)pi;
    p->port = (uint32_t)po;
    p->chan = has_chan ? (int32_t)ch : -1;
    p->lag = -1;
    p->mport = -1;
  }
  return kIfPhys;
}

// Shell-style match: * any run, ? any character, [a-z] a class ([!..] negated).
bool cos_glob(const char *pat, const char *s) {
  // iterative with one backtrack point: linear in practice, no recursion
  const char *bp = NULL, *bs = NULL;
  while (*s != '\0') {
    if (*pat == '*') {
      bp = ++pat;
      bs = s;
      continue;
    }
    bool ok = false;
    const char *next = pat + 1;
    if (*pat == '?') {
      ok = true;
    } else if (*pat == '[') {
      const char *q = pat + 1;
      bool neg = *q == '!' || *q == '^';
      q += neg;
      bool in = false;
      while (*q != '\0' && *q != ']') {
        if (q[1] == '-' && q[2] != '\0' && q[2] != ']') {
          in |= *s >= q[0] && *s <= q[2];
          q += 3;
        } else {
          in |= *s == *q;
          q++;
        }
      }
      if (*q == ']') {
        ok = in != neg;
        next = q + 1;
      } else {
        ok = *s == '[';  // no closing bracket: a literal
      }
    } else {
      ok = *pat == *s;
    }
    if (ok && *pat != '\0') {
      pat = next;
      s++;
    } else if (bp != NULL) {
      pat = bp;
      s = ++bs;
    } else {
      return false;
    }
  }
  while (*pat == '*') {
    pat++;
  }
  return *pat == '\0';
}

int cos_dev_lag(const cos_dev_t *d, const char *name) {
  for (uint32_t i = 0; i < d->nlag; i++) {
    if (strcmp(d->lag[i].name, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

static int add_lag(ctx_t *c, cos_dev_t *d, const char *name, const tok_t *where) {
  int i = cos_dev_lag(d, name);
  if (i >= 0) {
    return i;
  }
  if (d->nlag >= sizeof(d->lag) / sizeof(d->lag[0])) {
    err(c, where, "too many aggregated interfaces (at most %zu)",
        sizeof(d->lag) / sizeof(d->lag[0]));
    return -1;
  }
  cos_lag_t *l = &d->lag[d->nlag];
  memset(l, 0, sizeof(*l));
  snprintf(l->name, sizeof(l->name), "%s", name);
  l->where = where;
  return (int)d->nlag++;
}

int cos_dev_phys(ctx_t *c, cos_dev_t *d, const char *name, const tok_t *where, bool create) {
  for (uint32_t i = 0; i < d->nphys; i++) {
    if (strcmp(d->phys[i].name, name) == 0) {
      return (int)i;
    }
  }
  if (!create) {
    return -1;
  }
  cos_phys_t p;
  char why[160];
  if (strlen(name) > XTM_COS_MAX_NAME || cos_ifname(name, &p, why, sizeof(why)) != kIfPhys) {
    return -1;
  }
  if (d->nphys >= COS_MAX_PHYS) {
    err(c, where, "too many physical interfaces (at most %u)", COS_MAX_PHYS);
    return -1;
  }
  p.where = where;
  d->phys[d->nphys] = p;
  return (int)d->nphys++;
}

// `802.3ad aeN` (leaf or block) inside ether-options / gigether-options.
static void read_lag_member(ctx_t *c, cos_dev_t *d, int pi, const node_t *opts) {
  for (size_t k = 0; k < opts->nkids; k++) {
    const node_t *e = opts->kids[k];
    if (strcmp(e->w[0]->text, "802.3ad") != 0) {
      continue;
    }
    const tok_t *ae = NULL;
    if (e->nw >= 2 && e->w[1]->type == 'w') {
      ae = e->w[1];
    }
    for (size_t q = 0; ae == NULL && q < e->nkids; q++) {  // 802.3ad { bundle ae0; }
      if (e->kids[q]->nw >= 2 && strcmp(e->kids[q]->w[0]->text, "bundle") == 0) {
        ae = e->kids[q]->w[1];
      }
    }
    if (ae == NULL || cos_ifname(ae->text, NULL, NULL, 0) != kIfLag) {
      err(c, e->w[0], "'802.3ad' needs an aggregated interface name (aeN)");
      continue;
    }
    int li = add_lag(c, d, ae->text, ae);
    if (li < 0 || pi < 0) {
      continue;
    }
    cos_phys_t *p = &d->phys[pi];
    if (p->lag >= 0 && p->lag != li) {
      err(c, ae, "interface '%s' is a member of both '%s' and '%s'", p->name, d->lag[p->lag].name,
          ae->text);
      continue;
    }
    if (p->lag != li) {
      p->lag = li;
      p->lag_tok = ae;
      d->lag[li].nmembers++;
    }
  }
}

// The members of an interface-range: `member NAME` (a name, or a glob over the names the
// configuration defines) and `member-range A to B` (same type, FPC and PIC; ports A..B).
static size_t range_members(ctx_t *c, cos_dev_t *d, const node_t *r, int *out, size_t cap) {
  size_t n = 0;
  for (size_t k = 0; k < r->nkids; k++) {
    const node_t *e = r->kids[k];
    if (strcmp(e->w[0]->text, "member") == 0 && e->nw >= 2) {
      const char *m = e->w[1]->text;
      if (strpbrk(m, "*?[") == NULL) {
        int pi = cos_dev_phys(c, d, m, e->w[1], true);
        if (pi >= 0 && n < cap) {
          out[n++] = pi;
        }
      } else {
        for (uint32_t i = 0; i < d->nphys && n < cap; i++) {
          if (cos_glob(m, d->phys[i].name)) {
            out[n++] = (int)i;
          }
        }
      }
    } else if (strcmp(e->w[0]->text, "member-range") == 0 && e->nw >= 4 && is_word(e, 2, "to")) {
      cos_phys_t a, b;
      char why[160];
      if (cos_ifname(e->w[1]->text, &a, why, sizeof(why)) != kIfPhys ||
          cos_ifname(e->w[3]->text, &b, why, sizeof(why)) != kIfPhys ||
          strcmp(a.type, b.type) != 0 || a.fpc != b.fpc || a.pic != b.pic || a.chan >= 0 ||
          b.chan >= 0 || a.port > b.port || b.port - a.port > COS_MAX_PHYS) {
        err(c, e->w[1],
            "member-range %s to %s: expected two ports of one type, FPC and PIC, the first not "
            "above the second",
            e->w[1]->text, e->w[3]->text);
        continue;
      }
      for (uint32_t p = a.port; p <= b.port && n < cap; p++) {
        char name[XTM_COS_NAME_LEN];
        snprintf(name, sizeof(name), "%s-%u/%u/%u", a.type, a.fpc, a.pic, p);
        int pi = cos_dev_phys(c, d, name, e->w[1], true);
        if (pi >= 0) {
          out[n++] = pi;
        }
      }
    }
  }
  return n;
}

void cos_dev_read(ctx_t *c, cos_dev_t *d, const node_t *root) {
  for (size_t i = 0; i < root->nkids; i++) {
    const node_t *s = root->kids[i];
    if (s->block && s->nw == 1 && strcmp(s->w[0]->text, "interfaces") == 0) {
      d->interfaces = s;  // speeds are looked up later (cos_dev_speed)
    } else if (s->block && s->nw == 1 && strcmp(s->w[0]->text, "chassis") == 0) {
      d->chassis = s;
    }
  }
  if (d->interfaces == NULL) {
    return;
  }
  // every physical port named, then the LAG memberships (of ports and of ranges)
  for (size_t k = 0; k < d->interfaces->nkids; k++) {
    const node_t *n = d->interfaces->kids[k];
    if (!n->block || n->nw != 1) {
      continue;
    }
    cos_ifkind_t kind = cos_ifname(n->w[0]->text, NULL, NULL, 0);
    if (kind == kIfPhys) {
      (void)cos_dev_phys(c, d, n->w[0]->text, n->w[0], true);
    } else if (kind == kIfLag) {
      (void)add_lag(c, d, n->w[0]->text, n->w[0]);
    }
  }
  for (size_t k = 0; k < d->interfaces->nkids; k++) {
    const node_t *n = d->interfaces->kids[k];
    if (!n->block) {
      continue;
    }
    int members[COS_MAX_PHYS];
    size_t nm = 0;
    if (n->nw == 2 && strcmp(n->w[0]->text, "interface-range") == 0) {
      nm = range_members(c, d, n, members, COS_MAX_PHYS);
    } else if (n->nw == 1) {
      int pi = cos_dev_phys(c, d, n->w[0]->text, n->w[0], false);
      if (pi >= 0) {
        members[nm++] = pi;
      }
    }
    for (size_t q = 0; q < n->nkids; q++) {
      const node_t *e = n->kids[q];
      if (e->block && (strcmp(e->w[0]->text, "ether-options") == 0 ||
                       strcmp(e->w[0]->text, "gigether-options") == 0)) {
        for (size_t m = 0; m < nm; m++) {
          read_lag_member(c, d, members[m], e);
        }
      }
    }
  }
}

// ------------------------------------------------------------------ speeds

static const node_t *kid_named(const node_t *n, const char *kw, const char *name) {
  for (size_t k = 0; n != NULL && k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    if (e->block && e->nw == 2 && strcmp(e->w[0]->text, kw) == 0 &&
        strcmp(e->w[1]->text, name) == 0) {
      return e;
    }
  }
  return NULL;
}

static const node_t *leaf_of(const node_t *n, const char *kw) {
  for (size_t k = 0; n != NULL && k < n->nkids; k++) {
    const node_t *e = n->kids[k];
    if (!e->block && e->nw >= 2 && strcmp(e->w[0]->text, kw) == 0) {
      return e;
    }
  }
  return NULL;
}

// Whether an interface-range names the port (member NAME or glob, member-range A to B).
static bool range_has(const node_t *r, const cos_phys_t *p) {
  for (size_t k = 0; k < r->nkids; k++) {
    const node_t *e = r->kids[k];
    if (strcmp(e->w[0]->text, "member") == 0 && e->nw >= 2 && cos_glob(e->w[1]->text, p->name)) {
      return true;
    }
    cos_phys_t a, b;
    char why[160];
    if (strcmp(e->w[0]->text, "member-range") == 0 && e->nw >= 4 && p->chan < 0 &&
        cos_ifname(e->w[1]->text, &a, why, sizeof(why)) == kIfPhys &&
        cos_ifname(e->w[3]->text, &b, why, sizeof(why)) == kIfPhys &&
        strcmp(a.type, p->type) == 0 && a.fpc == p->fpc && a.pic == p->pic && p->port >= a.port &&
        p->port <= b.port) {
      return true;
    }
  }
  return false;
}

// One place a speed is given: keeps the first, reports a second that differs.
typedef struct speed_pick {
  uint64_t bps;
  const tok_t *tok;
  char src[160];
} speed_pick_t;

static void pick(ctx_t *c, const cos_phys_t *p, speed_pick_t *s, const node_t *leaf,
                 const char *src) {
  if (leaf == NULL) {
    return;
  }
  uint64_t bps;
  const tok_t *t = leaf->w[1];
  if (!parse_rate_str(t->text, &bps)) {
    err(c, t, "'%s' is not a port speed (for '%s' of '%s'; e.g. 100g)", t->text, leaf->w[0]->text,
        p->name);
    return;
  }
  if (s->tok == NULL) {
    s->bps = bps;
    s->tok = t;
    snprintf(s->src, sizeof(s->src), "%.159s", src);
  } else if (s->bps != bps) {
    char a[32], b[32];
    fmt_rate(a, sizeof(a), s->bps);
    fmt_rate(b, sizeof(b), bps);
    err(c, t, "the speed of '%s' is %s here (%s) but %s in %s at line %d", p->name, b, src, a,
        s->src, s->tok->line);
  }
}

void cos_dev_speed(ctx_t *c, cos_dev_t *d, int pi, uint64_t cos_speed, const tok_t *cos_tok) {
  cos_phys_t *p = &d->phys[pi];
  speed_pick_t s = {0};
  char src[160];
  // interfaces NAME { speed S; }
  const node_t *ifn = NULL;
  for (size_t k = 0; d->interfaces != NULL && k < d->interfaces->nkids && ifn == NULL; k++) {
    const node_t *n = d->interfaces->kids[k];
    if (n->block && n->nw == 1 && strcmp(n->w[0]->text, p->name) == 0) {
      ifn = n;
    }
  }
  snprintf(src, sizeof(src), "interfaces %s speed", p->name);
  pick(c, p, &s, leaf_of(ifn, "speed"), src);
  for (size_t k = 0; d->interfaces != NULL && k < d->interfaces->nkids; k++) {
    const node_t *n = d->interfaces->kids[k];
    if (n->block && n->nw == 2 && strcmp(n->w[0]->text, "interface-range") == 0 &&
        range_has(n, p)) {
      snprintf(src, sizeof(src), "interfaces interface-range %s speed", n->w[1]->text);
      pick(c, p, &s, leaf_of(n, "speed"), src);
    }
  }
  // a LAG member: interfaces aeN { aggregated-ether-options { link-speed S; } }
  if (p->lag >= 0) {
    for (size_t k = 0; d->interfaces != NULL && k < d->interfaces->nkids; k++) {
      const node_t *n = d->interfaces->kids[k];
      if (n->block && n->nw == 1 && strcmp(n->w[0]->text, d->lag[p->lag].name) == 0) {
        for (size_t q = 0; q < n->nkids; q++) {
          if (n->kids[q]->block &&
              strcmp(n->kids[q]->w[0]->text, "aggregated-ether-options") == 0) {
            snprintf(src, sizeof(src), "interfaces %s aggregated-ether-options link-speed",
                     n->w[0]->text);
            pick(c, p, &s, leaf_of(n->kids[q], "link-speed"), src);
          }
        }
      }
    }
  }
  // a channel: interfaces PARENT { number-of-sub-ports K; speed S; } (speed per sub-port)
  char parent[XTM_COS_NAME_LEN];
  snprintf(parent, sizeof(parent), "%s-%u/%u/%u", p->type, p->fpc, p->pic, p->port);
  if (p->chan >= 0) {
    for (size_t k = 0; d->interfaces != NULL && k < d->interfaces->nkids; k++) {
      const node_t *n = d->interfaces->kids[k];
      if (n->block && n->nw == 1 && strcmp(n->w[0]->text, parent) == 0 &&
          leaf_of(n, "number-of-sub-ports") != NULL) {
        snprintf(src, sizeof(src), "interfaces %s number-of-sub-ports, speed", parent);
        pick(c, p, &s, leaf_of(n, "speed"), src);
      }
    }
  }
  // chassis fpc F pic P port N { speed S; channel-speed S; } and port-range A B { ... }
  char fs[16], ps[16], ns[16];
  snprintf(fs, sizeof(fs), "%u", p->fpc);
  snprintf(ps, sizeof(ps), "%u", p->pic);
  snprintf(ns, sizeof(ns), "%u", p->port);
  const node_t *pic = kid_named(kid_named(d->chassis, "fpc", fs), "pic", ps);
  const node_t *port = kid_named(pic, "port", ns);
  const char *kw = p->chan >= 0 ? "channel-speed" : "speed";
  snprintf(src, sizeof(src), "chassis fpc %u pic %u port %u %s", p->fpc, p->pic, p->port, kw);
  pick(c, p, &s, leaf_of(port, kw), src);
  if (p->chan >= 0 && leaf_of(port, "number-of-sub-ports") != NULL) {
    snprintf(src, sizeof(src), "chassis fpc %u pic %u port %u number-of-sub-ports, speed", p->fpc,
             p->pic, p->port);
    pick(c, p, &s, leaf_of(port, "speed"), src);
  }
  for (size_t k = 0; pic != NULL && k < pic->nkids; k++) {
    const node_t *r = pic->kids[k];
    uint64_t a, b;
    if (r->block && r->nw == 3 && strcmp(r->w[0]->text, "port-range") == 0 &&
        xtm_num_u64(NULL, r->w[1]->text, 0, MAX_PORT, &a, NULL) == kXtmNumOk &&
        xtm_num_u64(NULL, r->w[2]->text, 0, MAX_PORT, &b, NULL) == kXtmNumOk && p->port >= a &&
        p->port <= b) {
      snprintf(src, sizeof(src), "chassis fpc %u pic %u port-range %llu %llu %s", p->fpc, p->pic,
               (unsigned long long)a, (unsigned long long)b, kw);
      pick(c, p, &s, leaf_of(r, kw), src);
    }
  }
  // the class-of-service `speed` (xtm extension, before Junos' own places were read)
  if (cos_tok != NULL) {
    node_t tmp = {0};
    const tok_t *w[2] = {cos_tok, cos_tok};
    tmp.w = w;
    tmp.nw = 2;
    (void)cos_speed;
    snprintf(src, sizeof(src), "class-of-service interfaces %s speed", p->name);
    pick(c, p, &s, &tmp, src);
  }
  if (s.tok != NULL) {
    p->speed_bps = s.bps;
    p->speed_tok = s.tok;
    snprintf(p->speed_src, sizeof(p->speed_src), "%.95s", s.src);
    return;
  }
  if (c->default_speed_bps != 0) {
    p->speed_bps = c->default_speed_bps;
    snprintf(p->speed_src, sizeof(p->speed_src), "the default speed (xtmctl --port-speed)");
    return;
  }
  if (strcmp(p->type, "xe") == 0) {
    p->speed_bps = 10000000000ull;
    snprintf(p->speed_src, sizeof(p->speed_src), "the xe- interface type");
    return;
  }
  if (strcmp(p->type, "ge") == 0) {
    p->speed_bps = 1000000000ull;
    snprintf(p->speed_src, sizeof(p->speed_src), "the ge- interface type");
    return;
  }
  err(c, p->where,
      "the speed of '%s' is not in the configuration (Junos takes the optic's native speed): give "
      "'speed' under 'interfaces %s', under 'chassis fpc %u pic %u port %u', or xtmctl "
      "--port-speed",
      p->name, p->name, p->fpc, p->pic, p->port);
}

// ------------------------------------------------------------------ the port map

static int phys_cmp(const void *a, const void *b) {
  const cos_phys_t *x = *(const cos_phys_t *const *)a;
  const cos_phys_t *y = *(const cos_phys_t *const *)b;
  if (x->fpc != y->fpc) {
    return x->fpc < y->fpc ? -1 : 1;
  }
  if (x->pic != y->pic) {
    return x->pic < y->pic ? -1 : 1;
  }
  if (x->port != y->port) {
    return x->port < y->port ? -1 : 1;
  }
  if (x->chan != y->chan) {
    return x->chan < y->chan ? -1 : 1;
  }
  return strcmp(x->type, y->type);
}

bool cos_dev_map(ctx_t *c, cos_dev_t *d, const tok_t *where) {
  cos_phys_t *want[COS_MAX_PHYS];
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->nphys; i++) {
    if (d->phys[i].mport == -2) {
      want[n++] = &d->phys[i];
    }
  }
  if (n == 0) {
    d->identity = true;
    return true;
  }
  qsort(want, n, sizeof(want[0]), phys_cmp);
  // the rule of earlier versions (et-0/0/4 -> port 4) when it is unambiguous
  bool identity = true;
  for (uint32_t i = 0; i < n && identity; i++) {
    identity = want[i]->chan < 0 && want[i]->fpc == want[0]->fpc && want[i]->pic == want[0]->pic &&
               want[i]->port < c->hw->num_ports && (i == 0 || want[i]->port != want[i - 1]->port);
  }
  d->identity = identity;
  if (!identity && n > c->hw->num_ports) {
    char list[256];
    size_t o = 0;
    for (uint32_t i = 0; i < n && o < sizeof(list) - 8; i++) {
      o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? " " : "", want[i]->name);
    }
    if (o >= sizeof(list) - 8) {
      snprintf(list + sizeof(list) - 8, 8, " ...");
    }
    const tok_t *at = want[c->hw->num_ports]->where != NULL ? want[c->hw->num_ports]->where : where;
    junos_refused(c, at,
                  "the configuration gives class-of-service to %u ports (%s), this traffic manager "
                  "has %u (HW_PARAMS)",
                  n, list, c->hw->num_ports);
    return false;
  }
  for (uint32_t i = 0; i < n; i++) {
    want[i]->mport = identity ? (int)want[i]->port : (int)i;
  }
  return true;
}
