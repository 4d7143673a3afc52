// SPDX-License-Identifier: Apache-2.0
//
// Junos class-of-service subset -> xtm register image. Three passes: tokens with line and
// column, a generic statement tree (words, then ';' or a '{ ... }' block), then the
// interpretation of the tree with every check of docs/firmware.md section 7 (error
// catalogue). Messages are `file:line:column: message` and name the offending token.

#define _POSIX_C_SOURCE 200809L
#include "firmware/cos/xtm_cos.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/lib/xtm_num.h"

__extension__ typedef unsigned __int128 u128;

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
  uint64_t intf_bt;   // D_Intf, one interface
  uint64_t resp_pq;   // D_Resp in pause quanta
} speed_row_t;

static const speed_row_t kSpeeds[] = {
    {10u, 8192u, 60u},      {25u, 6144u, 80u},      {40u, 24576u, 118u},
    {50u, 61440u, 147u},    {100u, 122880u, 394u},  {200u, 245760u, 453u},
    {400u, 491520u, 905u},  {800u, 983040u, 905u},
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
  uint64_t resp = s->resp_pq * 512u;                    // D_Resp
  uint64_t nodrop = max_frame;                          // D_MaxNoDropFrame (same MTU)
  *bits = max_frame + pause + intf + cable + resp + nodrop;
  return true;
}

// ------------------------------------------------------------------ diagnostics

typedef struct tok {
  int type;  // 'w' word, '{', '}', ';', '[', ']', 0 EOF
  const char *text;
  int line;
  int col;
} tok_t;

typedef struct ctx {
  const char *path;
  xtm_cos_result_t *r;
  const xtm_fw_hw_t *hw;
  uint64_t clock_hz;
} ctx_t;

// Stores one message. An identical message (same position and text) already stored is not
// repeated nor counted again: a dangling reference met once per interface that uses it
// is one error. Once the store is full, errors are only counted (not formatted).
static void verr(ctx_t *c, const tok_t *t, bool warning, const char *fmt, va_list ap) {
  uint32_t *count = warning ? &c->r->nwarnings : &c->r->nerrors;
  const uint32_t cap = warning ? XTM_COS_MAX_WARNINGS : XTM_COS_MAX_ERRORS;
  if (*count >= cap) {
    (*(warning ? &c->r->warnings_dropped : count))++;
    return;
  }
  char msg[XTM_COS_MSG_LEN - 64];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  char line[XTM_COS_MSG_LEN];
  if (t != NULL) {
    snprintf(line, sizeof(line), "%s:%d:%d: %s%s", c->path, t->line, t->col,
             warning ? "warning: " : "", msg);
  } else {
    snprintf(line, sizeof(line), "%s: %s%s", c->path, warning ? "warning: " : "", msg);
  }
  char(*store)[XTM_COS_MSG_LEN] = warning ? c->r->warnings : c->r->errors;
  for (uint32_t i = 0; i < *count; i++) {
    if (strcmp(store[i], line) == 0) {
      return;
    }
  }
  memcpy(store[(*count)++], line, sizeof(line));
}

static void err(ctx_t *c, const tok_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(c, t, false, fmt, ap);
  va_end(ap);
}

static void warn(ctx_t *c, const tok_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(c, t, true, fmt, ap);
  va_end(ap);
}

// ------------------------------------------------------------------ tokens

typedef struct toks {
  tok_t *v;
  size_t n;
  size_t cap;
  char *store;
} toks_t;

// Doubles *cap (from `first`) until it holds `need` elements of `size` bytes; false when
// the allocation fails (the caller reports it: no abort on hostile input).
static bool grow(void **p, size_t *cap, size_t need, size_t size, size_t first) {
  if (need <= *cap) {
    return true;
  }
  size_t n = *cap != 0 ? *cap : first;
  while (n < need) {
    if (n > SIZE_MAX / 2u / size) {
      return false;
    }
    n *= 2u;
  }
  void *q = realloc(*p, n * size);
  if (q == NULL) {
    return false;
  }
  *p = q;
  *cap = n;
  return true;
}

static bool push_tok(ctx_t *c, toks_t *ts, int type, const char *text, int line, int col) {
  if (!grow((void **)&ts->v, &ts->cap, ts->n + 1u, sizeof(tok_t), 256u)) {
    err(c, NULL, "out of memory after %zu tokens", ts->n);
    return false;
  }
  ts->v[ts->n++] = (tok_t){.type = type, .text = text, .line = line, .col = col};
  return true;
}

static bool tokenize(ctx_t *c, const char *src, toks_t *ts) {
  size_t len = strlen(src);
  if (len > XTM_COS_MAX_INPUT_BYTES) {
    err(c, NULL, "input is %zu bytes, above the limit of %u bytes", len,
        (unsigned)XTM_COS_MAX_INPUT_BYTES);
    return false;
  }
  ts->store = malloc(2 * len + 16);
  if (ts->store == NULL) {
    err(c, NULL, "out of memory reading %zu bytes", len);
    return false;
  }
  char *out = ts->store;
  int line = 1;
  int col = 1;
  size_t i = 0;
  while (i < len) {
    char ch = src[i];
    if (ch == '\n') {
      line++;
      col = 1;
      i++;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      col++;
      i++;
      continue;
    }
    if (ch == '#') {
      while (i < len && src[i] != '\n') {
        i++;
      }
      continue;
    }
    if (ch == '/' && i + 1 < len && src[i + 1] == '*') {
      int l0 = line;
      int c0 = col;
      i += 2;
      col += 2;
      while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) {
        if (src[i] == '\n') {
          line++;
          col = 1;
        } else {
          col++;
        }
        i++;
      }
      if (i + 1 >= len) {
        tok_t t = {.type = 0, .text = "/*", .line = l0, .col = c0};
        err(c, &t, "unterminated comment '/*'");
        return false;
      }
      i += 2;
      col += 2;
      continue;
    }
    if (strchr("{};[]", ch) != NULL) {
      out[0] = ch;
      out[1] = '\0';
      if (!push_tok(c, ts, ch, out, line, col)) {
        return false;
      }
      out += 2;
      i++;
      col++;
      continue;
    }
    if (ch == '"') {
      int c0 = col;
      size_t j = i + 1;
      char *w = out;
      while (j < len && src[j] != '"' && src[j] != '\n') {
        unsigned char b = (unsigned char)src[j];
        if (b < 0x20u || b == 0x7fu) {  // a TAB, ESC, CR ... in a name reaches JSON and terminals
          tok_t t = {.type = 0, .text = "\"", .line = line, .col = col + (int)(j - i)};
          err(c, &t, "control character 0x%02x in a quoted string", (unsigned)b);
          return false;
        }
        *out++ = src[j++];
      }
      if (j >= len || src[j] != '"') {
        tok_t t = {.type = 0, .text = "\"", .line = line, .col = c0};
        err(c, &t, "unterminated string");
        return false;
      }
      *out++ = '\0';
      if (!push_tok(c, ts, 'w', w, line, c0)) {
        return false;
      }
      col += (int)(j + 1 - i);
      i = j + 1;
      continue;
    }
    if (!isgraph((unsigned char)ch)) {
      tok_t t = {.type = 0, .text = "?", .line = line, .col = col};
      err(c, &t, "unexpected character 0x%02x", (unsigned)(unsigned char)ch);
      return false;
    }
    int c0 = col;
    char *w = out;
    while (i < len && isgraph((unsigned char)src[i]) && strchr("{};[]\"#", src[i]) == NULL) {
      *out++ = src[i++];
      col++;
    }
    *out++ = '\0';
    if (!push_tok(c, ts, 'w', w, line, c0)) {
      return false;
    }
  }
  return push_tok(c, ts, 0, "end of file", line, col);
}

// ------------------------------------------------------------------ statement tree

typedef struct node node_t;
struct node {
  const tok_t **w;  // words, '[' and ']' included
  size_t nw;
  size_t wcap;
  node_t **kids;
  size_t nkids;
  size_t kcap;
  bool block;
  const tok_t *open;
};

static void node_free(node_t *n) {
  if (n == NULL) {
    return;
  }
  for (size_t i = 0; i < n->nkids; i++) {
    node_free(n->kids[i]);  // depth <= XTM_COS_MAX_DEPTH (parse_block)
  }
  free(n->kids);
  free(n->w);
  free(n);
}

// Parses statements until '}' (depth > 0) or EOF; returns false on a syntax error. One
// level of recursion per block, at most XTM_COS_MAX_DEPTH deep.
static bool parse_block(ctx_t *c, const toks_t *ts, size_t *pos, node_t *parent, const tok_t *open,
                        unsigned depth) {
  for (;;) {
    const tok_t *t = &ts->v[*pos];
    if (t->type == 0) {
      if (open != NULL) {
        err(c, open, "missing '}' for the '{' opened here (reached the end of the file)");
        return false;
      }
      return true;
    }
    if (t->type == '}') {
      if (open == NULL) {
        err(c, t, "unexpected '}' (no block is open)");
        return false;
      }
      (*pos)++;
      return true;
    }
    if (t->type != 'w') {
      err(c, t, "unexpected '%s' at the start of a statement", t->text);
      return false;
    }
    node_t *n = calloc(1, sizeof(node_t));
    if (n == NULL || !grow((void **)&parent->kids, &parent->kcap, parent->nkids + 1u,
                           sizeof(node_t *), 4u)) {
      free(n);
      err(c, t, "out of memory");
      return false;
    }
    parent->kids[parent->nkids++] = n;
    int brackets = 0;
    for (;;) {
      t = &ts->v[*pos];
      if (t->type == 'w' || t->type == '[' || t->type == ']') {
        if (t->type == '[') {
          brackets++;
        } else if (t->type == ']') {
          if (brackets == 0) {
            err(c, t, "unexpected ']' without '['");
            return false;
          }
          brackets--;
        }
        if (!grow((void **)&n->w, &n->wcap, n->nw + 1u, sizeof(tok_t *), 4u)) {
          err(c, t, "out of memory");
          return false;
        }
        n->w[n->nw++] = t;
        (*pos)++;
        continue;
      }
      if (brackets != 0) {
        err(c, t, "expected ']' before '%s'", t->text);
        return false;
      }
      if (t->type == ';') {
        (*pos)++;
        break;
      }
      if (t->type == '{') {
        if (depth >= XTM_COS_MAX_DEPTH) {
          err(c, t, "blocks nested deeper than %u levels", (unsigned)XTM_COS_MAX_DEPTH);
          return false;
        }
        (*pos)++;
        n->block = true;
        n->open = t;
        if (!parse_block(c, ts, pos, n, t, depth + 1u)) {
          return false;
        }
        break;
      }
      err(c, t, "expected ';' or '{' after '%s', found '%s'", n->w[n->nw - 1]->text, t->text);
      return false;
    }
  }
}

// ------------------------------------------------------------------ model of the config

#define MAXN 64

typedef struct fc {
  const tok_t *name;
  uint32_t queue;
  bool no_loss;
  int pfc_prio;
  const tok_t *queue_tok;
  const tok_t *prio_tok;
} fc_t;

typedef struct dp {
  const tok_t *name;
  bool interp;
  uint32_t n;
  uint32_t fill[XTM_FW_NUM_POINTS];
  uint32_t prob[XTM_FW_NUM_POINTS];
  int slot;  // hardware profile index once used, else -1
} dp_t;

typedef enum rkind { kRateNone, kRateAbs, kRatePct } rkind_t;
typedef struct rate {
  rkind_t kind;
  uint64_t bps;
  uint32_t pct_milli;
  const tok_t *tok;
} rate_t;

typedef struct sched {
  const tok_t *name;
  rate_t transmit;
  rate_t shaping;
  rate_t buffer_rate;
  int bsize_kind;  // 0 none, 1 temporal, 2 percent
  uint64_t bsize_ns;
  uint32_t bsize_pct_milli;
  const tok_t *bsize_tok;
  const tok_t *dp_ref;
  const tok_t *ecn_tok;
  const tok_t *head_tok;
  const tok_t *lat_tok;
  uint64_t lat_ns;
  bool nonect_tail;
  bool strict;
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

typedef struct iface {
  const tok_t *name;
  uint32_t port;
  uint64_t speed_bps;
  const tok_t *speed_tok;
  rate_t shaping;
  const tok_t *smap_ref;
  const tok_t *cnp_ref;
  const tok_t *cls_ref;
} iface_t;

typedef struct acct {
  const tok_t *name;
  uint32_t prio_mask;
  const tok_t *prio_tok[XTM_FW_NUM_PRIOS];
  uint64_t xoff_ns;
  uint64_t xon_ns;
  const tok_t *xoff_tok;
  const tok_t *xon_tok;
} acct_t;

typedef struct cnp {
  const tok_t *name;
  uint32_t nacct;
  acct_t acct[XTM_FW_NUM_PRIOS];
  uint32_t cable_m;
  uint32_t mtu;
} cnp_t;

typedef struct cls_entry {
  const tok_t *fc;
  uint32_t ncp;
  uint8_t cp[64];
} cls_entry_t;

typedef struct classifier {
  const tok_t *name;
  uint32_t n;
  cls_entry_t e[XTM_FW_MAX_TCS * 2];
} classifier_t;

typedef struct model {
  uint32_t nfc, ndp, nsched, nsmap, nif, ncnp, ncls;
  fc_t fc[MAXN];
  dp_t dp[MAXN];
  sched_t sched[MAXN];
  smap_t smap[MAXN];
  iface_t iface[MAXN];
  cnp_t cnp[MAXN];
  classifier_t cls[MAXN];
  bool wd_set;
  const tok_t *wd_tok;
  uint32_t wd_poll_ms, wd_detect, wd_recovery_ms;
  uint8_t wd_action;
  bool dcqcn_set;
} model_t;

// ------------------------------------------------------------------ value parsing

static bool is_word(const node_t *n, size_t i, const char *s) {
  return i < n->nw && n->w[i]->type == 'w' && strcmp(n->w[i]->text, s) == 0;
}

// Decimal with up to 3 fractional digits -> value x 1000 (tools/lib/xtm_num: the whole
// word, no sign, exponent, hex or lost digits).
static xtm_num_status_t milli_of(const char *s, uint64_t *out) {
  return xtm_num_fixed(NULL, s, 3, 0, UINT64_MAX, out, NULL);
}

static bool parse_milli_str(const char *s, uint64_t *out) {
  return milli_of(s, out) == kXtmNumOk;
}

static bool need_word(ctx_t *c, const node_t *n, size_t i, const char *what) {
  if (i < n->nw && n->w[i]->type == 'w') {
    return true;
  }
  const tok_t *t = i < n->nw ? n->w[i] : n->w[n->nw - 1];
  err(c, t, "'%s' needs %s", n->w[0]->text, what);
  return false;
}

static bool parse_uint(ctx_t *c, const node_t *n, size_t i, uint64_t min, uint64_t max,
                       uint64_t *out) {
  if (!need_word(c, n, i, "a value")) {
    return false;
  }
  const tok_t *t = n->w[i];
  uint64_t m;
  xtm_num_status_t st = xtm_num_u64(NULL, t->text, min, max, &m, NULL);
  if (st == kXtmNumSyntax || st == kXtmNumEmpty) {
    err(c, t, "'%s' is not an integer (for '%s')", t->text, n->w[0]->text);
    return false;
  }
  if (st != kXtmNumOk) {
    err(c, t, "%s %s is out of range %llu..%llu", n->w[0]->text, t->text,
        (unsigned long long)min, (unsigned long long)max);
    return false;
  }
  *out = m;
  return true;
}

// Reports a number word that milli_of refused; `what` names the statement.
static void bad_milli(ctx_t *c, const tok_t *t, xtm_num_status_t st, const char *what) {
  if (st == kXtmNumPrecision) {
    err(c, t, "'%s' has more than 3 decimals (for '%s')", t->text, what);
  } else if (st == kXtmNumRange) {
    err(c, t, "'%s' is too large (for '%s')", t->text, what);
  } else {
    err(c, t, "'%s' is not a number (for '%s'; at most 3 decimals)", t->text, what);
  }
}

static bool parse_milli(ctx_t *c, const node_t *n, size_t i, const char *what, uint64_t *out) {
  if (!need_word(c, n, i, what)) {
    return false;
  }
  xtm_num_status_t st = milli_of(n->w[i]->text, out);
  if (st != kXtmNumOk) {
    bad_milli(c, n->w[i], st, n->w[0]->text);
    return false;
  }
  return true;
}

static bool parse_rate_str(const char *s, uint64_t *bps) {
  size_t l = strlen(s);
  if (l == 0 || l > 40) {
    return false;
  }
  char buf[48];
  memcpy(buf, s, l + 1);
  uint64_t mul = 1;
  char last = (char)tolower((unsigned char)buf[l - 1]);
  if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
    mul = last == 'k' ? 1000ull : last == 'm' ? 1000000ull : last == 'g' ? 1000000000ull
                                                                        : 1000000000000ull;
    buf[l - 1] = '\0';
  }
  uint64_t milli;
  if (!parse_milli_str(buf, &milli)) {
    return false;
  }
  u128 v = (u128)milli * mul / 1000u;
  if (v == 0 || v > 10000000000000ull) {
    return false;
  }
  *bps = (uint64_t)v;
  return true;
}

// (RATE | percent P) at word i
static bool parse_rate_or_pct(ctx_t *c, const node_t *n, size_t i, rate_t *r) {
  if (r->kind != kRateNone) {
    err(c, n->w[0], "duplicate '%s' (first given at line %d)", n->w[0]->text, r->tok->line);
    return false;
  }
  if (!need_word(c, n, i, "a rate or 'percent P'")) {
    return false;
  }
  if (is_word(n, i, "percent")) {
    uint64_t m;
    if (!parse_milli(c, n, i + 1, "a percentage", &m)) {
      return false;
    }
    if (m > 100000u || m == 0u) {
      err(c, n->w[i + 1], "percentage '%s' is out of range (0 < P <= 100)", n->w[i + 1]->text);
      return false;
    }
    *r = (rate_t){.kind = kRatePct, .pct_milli = (uint32_t)m, .tok = n->w[i + 1]};
    i += 2;
  } else {
    uint64_t bps;
    if (!parse_rate_str(n->w[i]->text, &bps)) {
      err(c, n->w[i], "'%s' is not a rate (for '%s'; e.g. 100g, 6g, 500m)", n->w[i]->text,
          n->w[0]->text);
      return false;
    }
    *r = (rate_t){.kind = kRateAbs, .bps = bps, .tok = n->w[i]};
    i += 1;
  }
  if (i < n->nw) {
    err(c, n->w[i], "unexpected '%s' after '%s'", n->w[i]->text, n->w[0]->text);
    return false;
  }
  return true;
}

static bool no_more(ctx_t *c, const node_t *n, size_t i) {
  if (i < n->nw) {
    err(c, n->w[i], "unexpected '%s' in '%s'", n->w[i]->text, n->w[0]->text);
    return false;
  }
  return true;
}

static bool want_block(ctx_t *c, const node_t *n, size_t nwords) {
  if (n->nw != nwords) {
    const tok_t *t = n->nw > nwords ? n->w[nwords] : n->w[n->nw - 1];
    err(c, t, "'%s' expects %zu word%s before its block", n->w[0]->text, nwords,
        nwords == 1 ? "" : "s");
    return false;
  }
  if (!n->block) {
    err(c, n->w[0], "'%s' needs a '{ ... }' block", n->w[0]->text);
    return false;
  }
  return true;
}

static bool want_leaf(ctx_t *c, const node_t *n) {
  if (n->block) {
    err(c, n->w[0], "'%s' takes no block", n->w[0]->text);
    return false;
  }
  return true;
}

// list of words: either one word at i or '[' words ']'; returns count, fills toks
static size_t word_list(ctx_t *c, const node_t *n, size_t i, const tok_t **out, size_t cap,
                        size_t *next) {
  size_t k = 0;
  if (i >= n->nw) {
    err(c, n->w[n->nw - 1], "'%s' needs a value or a list '[ ... ]'", n->w[0]->text);
    return 0;
  }
  if (n->w[i]->type == '[') {
    i++;
    while (i < n->nw && n->w[i]->type == 'w') {
      if (k < cap) {
        out[k] = n->w[i];
      }
      k++;
      i++;
    }
    if (i >= n->nw || n->w[i]->type != ']') {
      err(c, n->w[i < n->nw ? i : n->nw - 1], "expected ']' in '%s'", n->w[0]->text);
      return 0;
    }
    i++;
    if (k == 0) {
      err(c, n->w[i - 1], "empty list in '%s'", n->w[0]->text);
    }
  } else {
    out[0] = n->w[i];
    k = 1;
    i++;
  }
  *next = i;
  if (k > cap) {
    err(c, out[cap - 1], "too many values in '%s' (at most %zu)", n->w[0]->text, cap);
    return 0;
  }
  return k;
}

static void unknown(ctx_t *c, const node_t *n, const char *where) {
  err(c, n->w[0], "unknown statement '%s' in %s", n->w[0]->text, where);
}

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

// A defined object's name: 1..XTM_COS_MAX_NAME printable ASCII characters (quoted names
// may hold spaces). Longer names used to be cut to 63 in the plan, so two classes could
// print as one; other bytes would reach the JSON plan and terminals raw.
static bool check_name(ctx_t *c, const tok_t *t, const char *what) {
  size_t l = strlen(t->text);
  if (l == 0) {
    err(c, t, "empty %s name", what);
    return false;
  }
  if (l > XTM_COS_MAX_NAME) {
    err(c, t, "%s name '%.20s...' is %zu characters long, above the limit of %d", what, t->text, l,
        XTM_COS_MAX_NAME);
    return false;
  }
  for (size_t i = 0; i < l; i++) {
    unsigned char b = (unsigned char)t->text[i];
    if (b < 0x20u || b > 0x7eu) {
      char q[XTM_COS_NAME_LEN * 4 + 8];
      xtm_num_quote(q, sizeof(q), t->text);
      err(c, t, "%s name '%s' holds byte 0x%02x (names are printable ASCII)", what, q, (unsigned)b);
      return false;
    }
  }
  return true;
}

// Single-valued statements of a block: a second one used to replace the first silently.
// `keys` (at most ONCE_MAX, NULL-terminated) are the block's single-valued statements,
// `seen` the first of each; true (after the error) for a repeat. O(ONCE_MAX) per statement.
#define ONCE_MAX 8
static const char *const kSchedOnce[] = {"transmit-rate", "shaping-rate", "buffer-rate", "buffer-size",
                                         "explicit-congestion-notification", "ecn-enhanced",
                                         "latency-ecn", "priority", NULL};
static const char *const kInterpOnce[] = {"fill-level", "drop-probability", NULL};
static const char *const kEcnOnce[] = {"head-marking", "non-ect-tail-drop", NULL};
static const char *const kLatOnce[] = {"threshold", NULL};
static const char *const kIfaceOnce[] = {"speed", "shaping-rate", "scheduler-map",
                                         "congestion-notification-profile", "classifiers", NULL};
static const char *const kIfClsOnce[] = {"dscp", NULL};
static const char *const kInputOnce[] = {"cable-length", "mtu", NULL};
static const char *const kAcctOnce[] = {"pfc-priority", "xoff", "xon", NULL};
static const char *const kWdOnce[] = {"poll-interval", "detection", "recovery-time",
                                      "watchdog-action", NULL};

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

static bool room(ctx_t *c, uint32_t n, const tok_t *t, const char *what) {
  if (n >= MAXN) {
    err(c, t, "too many %s (at most %d)", what, MAXN);
    return false;
  }
  return true;
}

// ------------------------------------------------------------------ sections

static void sec_forwarding_classes(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!is_word(n, 0, "class")) {
      unknown(c, n, "forwarding-classes");
      continue;
    }
    if (!need_word(c, n, 1, "a class name") || !want_leaf(c, n)) {
      continue;
    }
    if (!check_name(c, n->w[1], "forwarding-class")) {
      continue;
    }
    int d = FIND(m->fc, m->nfc, n->w[1]);
    if (dup_check(c, d, d >= 0 ? m->fc[d].name : NULL, n->w[1], "forwarding-class") ||
        !room(c, m->nfc, n->w[1], "forwarding classes")) {
      continue;
    }
    fc_t f = {.name = n->w[1], .pfc_prio = -1};
    bool have_q = false;
    bool have_prio = false;
    bool ok = true;
    for (size_t i = 2; i < n->nw && ok;) {
      const tok_t *t = n->w[i];
      uint64_t v;
      if ((strcmp(t->text, "queue-num") == 0 && have_q) ||
          (strcmp(t->text, "pfc-priority") == 0 && have_prio)) {
        err(c, t, "duplicate '%s' in forwarding class '%s'", t->text, f.name->text);
        ok = false;
      } else if (strcmp(t->text, "queue-num") == 0) {
        node_t sub = {.w = n->w + i, .nw = n->nw - i};
        ok = parse_uint(c, &sub, 1, 0, c->hw->num_tcs - 1u, &v);
        if (ok) {  // without a value n->w[i + 1] is past the statement (fuzz_cos)
          f.queue = (uint32_t)v;
          f.queue_tok = n->w[i + 1];
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
      } else {
        err(c, t, "unknown attribute '%s' of forwarding class '%s'", t->text, f.name->text);
        ok = false;
      }
    }
    if (!ok) {
      continue;
    }
    if (!have_q) {
      err(c, n->w[1], "forwarding class '%s' needs 'queue-num'", f.name->text);
      continue;
    }
    for (uint32_t j = 0; j < m->nfc; j++) {
      if (m->fc[j].queue == f.queue) {
        err(c, f.queue_tok, "queue-num %u of class '%s' is already used by class '%s' (one class per queue)",
            f.queue, f.name->text, m->fc[j].name->text);
        ok = false;
        break;
      }
    }
    if (ok) {
      m->fc[m->nfc++] = f;
    }
  }
}

static bool parse_codepoint(const char *s, uint8_t *out) {
  static const struct {
    const char *n;
    uint8_t v;
  } kAlias[] = {{"be", 0},   {"ef", 46},  {"af11", 10}, {"af12", 12}, {"af13", 14}, {"af21", 18},
                {"af22", 20}, {"af23", 22}, {"af31", 26}, {"af32", 28}, {"af33", 30}, {"af41", 34},
                {"af42", 36}, {"af43", 38}, {"cs0", 0},   {"cs1", 8},   {"cs2", 16},  {"cs3", 24},
                {"cs4", 32},  {"cs5", 40},  {"cs6", 48},  {"cs7", 56}};
  if (strlen(s) == 6 && strspn(s, "01") == 6) {
    *out = (uint8_t)strtoul(s, NULL, 2);
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

static void sec_classifiers(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!is_word(n, 0, "dscp")) {
      unknown(c, n, "classifiers (only 'dscp' classifiers)");
      continue;
    }
    if (!need_word(c, n, 1, "a classifier name") || !want_block(c, n, 2)) {
      continue;
    }
    if (!check_name(c, n->w[1], "classifier")) {
      continue;
    }
    int d = FIND(m->cls, m->ncls, n->w[1]);
    if (dup_check(c, d, d >= 0 ? m->cls[d].name : NULL, n->w[1], "classifier") ||
        !room(c, m->ncls, n->w[1], "classifiers")) {
      continue;
    }
    classifier_t *cl = &m->cls[m->ncls++];
    *cl = (classifier_t){.name = n->w[1]};
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (!is_word(e, 0, "forwarding-class")) {
        unknown(c, e, "a dscp classifier");
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
        const node_t *lp = e->kids[q];
        if (!is_word(lp, 0, "loss-priority")) {
          unknown(c, lp, "a classifier forwarding-class");
          continue;
        }
        if (!need_word(c, lp, 1, "a loss priority") || !want_leaf(c, lp)) {
          continue;
        }
        const char *lpv = lp->w[1]->text;
        if (strcmp(lpv, "low") != 0 && strcmp(lpv, "high") != 0 && strcmp(lpv, "medium-low") != 0 &&
            strcmp(lpv, "medium-high") != 0) {
          err(c, lp->w[1], "unknown loss-priority '%s'", lpv);
          continue;
        }
        if (!is_word(lp, 2, "code-points")) {
          err(c, lp->w[lp->nw > 2 ? 2 : 1], "expected 'code-points' after 'loss-priority %s'", lpv);
          continue;
        }
        const tok_t *cps[64];
        size_t next = 0;
        size_t ncp = word_list(c, lp, 3, cps, 64, &next);
        if (ncp == 0 || !no_more(c, lp, next)) {
          continue;
        }
        for (size_t x = 0; x < ncp; x++) {
          uint8_t v;
          if (!parse_codepoint(cps[x]->text, &v)) {
            err(c, cps[x], "'%s' is not a DSCP code point (6 binary digits or an alias such as af31)",
                cps[x]->text);
            continue;
          }
          if (ce->ncp < 64) {
            ce->cp[ce->ncp++] = v;
          }
        }
      }
    }
  }
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
        !room(c, m->ndp, n->w[0], "drop profiles")) {
      continue;
    }
    dp_t p = {.name = n->w[0], .slot = -1};
    const tok_t *fill_tok[XTM_FW_NUM_POINTS + 1];
    bool ok = true;
    for (size_t j = 0; j < n->nkids && ok; j++) {
      const node_t *e = n->kids[j];
      if (is_word(e, 0, "fill-level")) {
        if (p.interp) {
          err(c, e->w[0], "drop-profile '%s' mixes 'interpolate' and segmented points", p.name->text);
          ok = false;
          break;
        }
        uint64_t f, q;
        if (!want_leaf(c, e) || !parse_milli(c, e, 1, "a fill level", &f)) {
          ok = false;
          break;
        }
        if (!is_word(e, 2, "drop-probability")) {
          err(c, e->w[e->nw > 2 ? 2 : 1], "expected 'drop-probability' after 'fill-level %s'",
              e->w[1]->text);
          ok = false;
          break;
        }
        if (!parse_milli(c, e, 3, "a probability", &q) || !no_more(c, e, 4)) {
          ok = false;
          break;
        }
        if (f > 100000u) {
          err(c, e->w[1], "fill-level %s is above 100 percent", e->w[1]->text);
          ok = false;
          break;
        }
        if (q > 100000u) {
          err(c, e->w[3], "drop-probability %s is above 100 percent", e->w[3]->text);
          ok = false;
          break;
        }
        if (p.n >= XTM_FW_NUM_POINTS) {
          err(c, e->w[0], "drop-profile '%s' has more than %u points (the hardware holds %u)",
              p.name->text, XTM_FW_NUM_POINTS, XTM_FW_NUM_POINTS);
          ok = false;
          break;
        }
        p.fill[p.n] = (uint32_t)f;
        p.prob[p.n] = (uint32_t)q;
        fill_tok[p.n] = e->w[1];
        p.n++;
      } else if (is_word(e, 0, "interpolate")) {
        if (p.n > 0) {
          err(c, e->w[0], "drop-profile '%s' mixes 'interpolate' and segmented points", p.name->text);
          ok = false;
          break;
        }
        if (!want_block(c, e, 1)) {
          ok = false;
          break;
        }
        p.interp = true;
        const tok_t *ft[XTM_FW_NUM_POINTS + 1];
        const tok_t *pt[XTM_FW_NUM_POINTS + 1];
        size_t nf = 0, np = 0;
        const tok_t *ftok = e->w[0], *ptok = e->w[0];
        const tok_t *seen_interp[ONCE_MAX] = {0};
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
          break;
        }
        if (nf != np) {
          err(c, np < nf ? ptok : ftok,
              "interpolate in drop-profile '%s' has %zu fill levels but %zu drop probabilities",
              p.name->text, nf, np);
          ok = false;
          break;
        }
        for (size_t q = 0; q < nf && ok; q++) {
          uint64_t f, pr;
          xtm_num_status_t fst = milli_of(ft[q]->text, &f);
          xtm_num_status_t pst = fst == kXtmNumOk ? milli_of(pt[q]->text, &pr) : kXtmNumOk;
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
            p.fill[p.n] = (uint32_t)f;
            p.prob[p.n] = (uint32_t)pr;
            fill_tok[p.n] = ft[q];
            p.n++;
          }
        }
      } else {
        unknown(c, e, "a drop-profile");
        ok = false;
      }
    }
    for (uint32_t i = 1; ok && i < p.n; i++) {
      if (p.fill[i] <= p.fill[i - 1]) {
        err(c, fill_tok[i], "fill-level %s of drop-profile '%s' is not above the previous fill level",
            fill_tok[i]->text, p.name->text);
        ok = false;
      }
    }
    for (uint32_t i = 1; ok && i < p.n; i++) {
      if (p.prob[i] < p.prob[i - 1]) {
        warn(c, fill_tok[i], "drop-probability %u.%03u at fill-level %s of drop-profile '%s' is below the previous point's %u.%03u: marking and dropping get rarer as the queue fills",
             p.prob[i] / 1000u, p.prob[i] % 1000u, fill_tok[i]->text, p.name->text,
             p.prob[i - 1] / 1000u, p.prob[i - 1] % 1000u);
        break;
      }
    }
    if (ok) {
      m->dp[m->ndp++] = p;
    }
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
        !room(c, m->nsched, n->w[0], "schedulers")) {
      continue;
    }
    sched_t s = {.name = n->w[0]};
    const tok_t *seen_sched[ONCE_MAX] = {0};
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (once(c, e, kSchedOnce, seen_sched, "a scheduler")) {
        continue;
      }
      const char *w0 = e->w[0]->text;
      if (strcmp(w0, "transmit-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.transmit);
        }
      } else if (strcmp(w0, "shaping-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.shaping);
        }
      } else if (strcmp(w0, "buffer-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &s.buffer_rate);
        }
      } else if (strcmp(w0, "buffer-size") == 0) {
        if (!want_leaf(c, e)) {
          continue;
        }
        if (s.bsize_kind != 0) {
          err(c, e->w[0], "duplicate 'buffer-size' (first given at line %d)", s.bsize_tok->line);
          continue;
        }
        uint64_t v;
        if (is_word(e, 1, "temporal")) {
          if (parse_milli(c, e, 2, "microseconds", &v) && no_more(c, e, 3)) {
            if (v == 0) {
              err(c, e->w[2], "buffer-size temporal %s must be above 0", e->w[2]->text);
            } else {
              s.bsize_kind = 1;
              s.bsize_ns = v;  // us x 1000 = ns
              s.bsize_tok = e->w[2];
            }
          }
        } else if (is_word(e, 1, "percent")) {
          if (parse_milli(c, e, 2, "a percentage", &v) && no_more(c, e, 3)) {
            if (v > 100000u || v == 0) {
              err(c, e->w[2], "percentage '%s' is out of range (0 < P <= 100)", e->w[2]->text);
            } else {
              s.bsize_kind = 2;
              s.bsize_pct_milli = (uint32_t)v;
              s.bsize_tok = e->w[2];
            }
          }
        } else {
          err(c, e->w[e->nw > 1 ? 1 : 0], "buffer-size needs 'temporal US' or 'percent P'");
        }
      } else if (strcmp(w0, "drop-profile-map") == 0) {
        if (!want_leaf(c, e)) {
          continue;
        }
        if (s.dp_ref != NULL) {
          err(c, e->w[0], "second 'drop-profile-map' in scheduler '%s' (the hardware has one profile per queue)",
              s.name->text);
          continue;
        }
        size_t i = 1;
        bool ok = true;
        while (i < e->nw && ok) {
          if (is_word(e, i, "loss-priority") || is_word(e, i, "protocol")) {
            ok = need_word(c, e, i + 1, "a value");
            i += 2;
          } else if (is_word(e, i, "drop-profile")) {
            ok = need_word(c, e, i + 1, "a drop-profile name");
            if (ok) {
              s.dp_ref = e->w[i + 1];
            }
            i += 2;
          } else {
            err(c, e->w[i], "unexpected '%s' in drop-profile-map", e->w[i]->text);
            ok = false;
          }
        }
        if (ok && s.dp_ref == NULL) {
          err(c, e->w[0], "drop-profile-map needs 'drop-profile NAME'");
        }
      } else if (strcmp(w0, "explicit-congestion-notification") == 0) {
        if (want_leaf(c, e) && no_more(c, e, 1)) {
          s.ecn_tok = e->w[0];
        }
      } else if (strcmp(w0, "ecn-enhanced") == 0) {
        if (!want_block(c, e, 1)) {
          continue;
        }
        const tok_t *seen_ecn[ONCE_MAX] = {0};
        for (size_t q = 0; q < e->nkids; q++) {
          const node_t *h = e->kids[q];
          if (once(c, h, kEcnOnce, seen_ecn, "ecn-enhanced")) {
            continue;
          }
          if (is_word(h, 0, "head-marking") && want_leaf(c, h) && no_more(c, h, 1)) {
            s.head_tok = h->w[0];
          } else if (is_word(h, 0, "non-ect-tail-drop") && want_leaf(c, h) && no_more(c, h, 1)) {
            s.nonect_tail = true;
          } else if (!is_word(h, 0, "head-marking") && !is_word(h, 0, "non-ect-tail-drop")) {
            unknown(c, h, "ecn-enhanced");
          }
        }
      } else if (strcmp(w0, "latency-ecn") == 0) {
        if (!want_block(c, e, 1)) {
          continue;
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
          } else if (want_leaf(c, h) && parse_uint(c, h, 1, 1, 1000000000ull, &v) &&
                     no_more(c, h, 2)) {
            s.lat_tok = h->w[1];
            s.lat_ns = v;
          }
        }
        if (s.lat_tok == NULL && e->nkids == 0) {
          err(c, e->w[0], "latency-ecn needs 'threshold NS'");
        }
      } else if (strcmp(w0, "priority") == 0) {
        if (!want_leaf(c, e) || !need_word(c, e, 1, "a priority") || !no_more(c, e, 2)) {
          continue;
        }
        const char *p = e->w[1]->text;
        if (strcmp(p, "strict-high") == 0) {
          s.strict = true;
        } else if (strcmp(p, "high") != 0 && strcmp(p, "medium-high") != 0 &&
                   strcmp(p, "medium-low") != 0 && strcmp(p, "low") != 0) {
          err(c, e->w[1], "unknown priority '%s' (strict-high, high, medium-high, medium-low, low)", p);
        }
      } else {
        unknown(c, e, "a scheduler");
      }
    }
    if (s.head_tok != NULL && s.lat_tok != NULL) {
      err(c, s.lat_tok, "scheduler '%s' has both head-marking and latency-ecn (one marking point per queue)",
          s.name->text);
    }
    if (s.ecn_tok != NULL && s.dp_ref == NULL) {
      err(c, s.ecn_tok, "explicit-congestion-notification in scheduler '%s' needs a drop-profile-map",
          s.name->text);
    }
    if (s.head_tok != NULL && s.ecn_tok == NULL) {
      err(c, s.head_tok, "head-marking in scheduler '%s' needs explicit-congestion-notification",
          s.name->text);
    }
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
        !room(c, m->nsmap, n->w[0], "scheduler maps")) {
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
          err(c, e->w[1], "duplicate forwarding-class '%s' in scheduler-map '%s' (first at line %d)",
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

// The port is the interface name's trailing decimal number (et-0/0/4 -> 4), after '/' or
// '-'. 0: no number; 1: *port set; 2: a number too large for any port (no wrap: the
// old strtoul cast read et-0/0/4294967297 as port 1).
static int iface_port(const char *name, uint64_t *port) {
  const char *p = name + strlen(name);
  while (p > name && isdigit((unsigned char)p[-1])) {
    p--;
  }
  if (*p == '\0' || (p > name && p[-1] != '/' && p[-1] != '-')) {
    return 0;
  }
  return xtm_num_u64(NULL, p, 0, UINT32_MAX, port, NULL) == kXtmNumOk ? 1 : 2;
}

static void sec_interfaces(ctx_t *c, model_t *m, const node_t *sec) {
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (!want_block(c, n, 1)) {
      continue;
    }
    if (!check_name(c, n->w[0], "interface")) {
      continue;
    }
    int d = FIND(m->iface, m->nif, n->w[0]);
    if (dup_check(c, d, d >= 0 ? m->iface[d].name : NULL, n->w[0], "interface") ||
        !room(c, m->nif, n->w[0], "interfaces")) {
      continue;
    }
    iface_t f = {.name = n->w[0]};
    uint64_t port = 0;
    int pk = iface_port(f.name->text, &port);
    if (pk == 0) {
      err(c, f.name, "interface name '%s' does not end in a port number (e.g. et-0/0/4)", f.name->text);
      continue;
    }
    if (pk == 2 || port >= c->hw->num_ports) {
      const char *digits = f.name->text + strlen(f.name->text);
      while (digits > f.name->text && isdigit((unsigned char)digits[-1])) {
        digits--;
      }
      err(c, f.name, "interface '%s' is port %s, but this traffic manager has %u ports (HW_PARAMS)",
          f.name->text, digits, c->hw->num_ports);
      continue;
    }
    f.port = (uint32_t)port;
    for (uint32_t j = 0; j < m->nif; j++) {
      if (m->iface[j].port == f.port) {
        err(c, f.name, "interface '%s' is port %u, already used by '%s'", f.name->text, f.port,
            m->iface[j].name->text);
      }
    }
    const tok_t *seen_iface[ONCE_MAX] = {0};
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *e = n->kids[j];
      if (once(c, e, kIfaceOnce, seen_iface, "an interface")) {
        continue;
      }
      const char *w0 = e->w[0]->text;
      if (strcmp(w0, "speed") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "a port speed") && no_more(c, e, 2)) {
          if (!parse_rate_str(e->w[1]->text, &f.speed_bps)) {
            err(c, e->w[1], "'%s' is not a rate (for 'speed')", e->w[1]->text);
          } else if (speed_row(f.speed_bps) == NULL) {
            err(c, e->w[1], "unsupported port speed '%s' (10g 25g 40g 50g 100g 200g 400g 800g)",
                e->w[1]->text);
            f.speed_bps = 0;
          } else {
            f.speed_tok = e->w[1];
          }
        }
      } else if (strcmp(w0, "shaping-rate") == 0) {
        if (want_leaf(c, e)) {
          (void)parse_rate_or_pct(c, e, 1, &f.shaping);
        }
      } else if (strcmp(w0, "scheduler-map") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "a scheduler-map name") && no_more(c, e, 2)) {
          f.smap_ref = e->w[1];
        }
      } else if (strcmp(w0, "congestion-notification-profile") == 0) {
        if (want_leaf(c, e) && need_word(c, e, 1, "a profile name") && no_more(c, e, 2)) {
          f.cnp_ref = e->w[1];
        }
      } else if (strcmp(w0, "classifiers") == 0) {
        if (!want_block(c, e, 1)) {
          continue;
        }
        const tok_t *seen_ifcls[ONCE_MAX] = {0};
        for (size_t q = 0; q < e->nkids; q++) {
          const node_t *h = e->kids[q];
          if (once(c, h, kIfClsOnce, seen_ifcls, "interface classifiers")) {
            continue;
          }
          if (!is_word(h, 0, "dscp")) {
            unknown(c, h, "interface classifiers (only 'dscp')");
          } else if (want_leaf(c, h) && need_word(c, h, 1, "a classifier name") && no_more(c, h, 2)) {
            f.cls_ref = h->w[1];
          }
        }
      } else {
        unknown(c, e, "an interface");
      }
    }
    if (f.speed_bps == 0) {
      if (f.speed_tok == NULL) {
        err(c, f.name, "interface '%s' needs 'speed' (the port speed, e.g. speed 100g;)", f.name->text);
      }
      continue;
    }
    m->iface[m->nif++] = f;
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
    if (dup_check(c, d, d >= 0 ? m->cnp[d].name : NULL, n->w[0], "congestion-notification-profile") ||
        !room(c, m->ncnp, n->w[0], "congestion notification profiles")) {
      continue;
    }
    cnp_t p = {.name = n->w[0], .cable_m = 100, .mtu = 9216};
    bool ok = true;
    for (size_t j = 0; j < n->nkids; j++) {
      const node_t *in = n->kids[j];
      if (!is_word(in, 0, "input")) {
        unknown(c, in, "a congestion-notification-profile (only 'input')");
        ok = false;
        continue;
      }
      if (!want_block(c, in, 1)) {
        ok = false;
        continue;
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
            p.cable_m = (uint32_t)v;
          } else {
            ok = false;
          }
        } else if (is_word(e, 0, "mtu")) {
          if (want_leaf(c, e) && parse_uint(c, e, 1, 64, 16383, &v) && no_more(c, e, 2)) {
            p.mtu = (uint32_t)v;
          } else {
            ok = false;
          }
        } else if (is_word(e, 0, "pfc-account")) {
          if (!need_word(c, e, 1, "an account name") || !want_block(c, e, 2)) {
            ok = false;
            continue;
          }
          if (p.nacct >= XTM_FW_NUM_PRIOS) {
            err(c, e->w[1], "too many pfc-accounts (at most 8)");
            ok = false;
            continue;
          }
          for (uint32_t a = 0; a < p.nacct; a++) {
            if (strcmp(p.acct[a].name->text, e->w[1]->text) == 0) {
              err(c, e->w[1], "duplicate pfc-account '%s' (first defined at line %d)", e->w[1]->text,
                  p.acct[a].name->line);
              ok = false;
            }
          }
          if (!check_name(c, e->w[1], "pfc-account")) {
            ok = false;
            continue;
          }
          acct_t a = {.name = e->w[1], .xoff_ns = 5000000u, .xon_ns = 3750000u};
          bool bad_threshold = false;  // a refused xoff/xon: no ordering check against a default
          const tok_t *seen_acct[ONCE_MAX] = {0};
          for (size_t r = 0; r < e->nkids; r++) {
            const node_t *s = e->kids[r];
            if (once(c, s, kAcctOnce, seen_acct, "a pfc-account")) {
              continue;
            }
            if (is_word(s, 0, "pfc-priority")) {
              const tok_t *pt[8];
              size_t next = 0;
              size_t np = want_leaf(c, s) ? word_list(c, s, 1, pt, 8, &next) : 0;
              if (np == 0 || !no_more(c, s, next)) {
                ok = false;
                continue;
              }
              for (size_t x = 0; x < np; x++) {
                uint64_t pr;
                if (xtm_num_u64(NULL, pt[x]->text, 0, 7, &pr, NULL) != kXtmNumOk) {
                  err(c, pt[x], "pfc-priority '%s' is not a priority 0..7", pt[x]->text);
                  ok = false;
                  continue;
                }
                a.prio_mask |= 1u << pr;
                a.prio_tok[pr] = pt[x];
              }
            } else if (is_word(s, 0, "xoff") || is_word(s, 0, "xon")) {
              bool xoff = is_word(s, 0, "xoff");
              if (!want_leaf(c, s) || !parse_milli(c, s, 1, "microseconds", &v) || !no_more(c, s, 2)) {
                ok = false;
                bad_threshold = true;
                continue;
              }
              if (v == 0 || v > 1000000000u) {
                err(c, s->w[1], "%s %s us is out of range (0 < us <= 1000000)", s->w[0]->text,
                    s->w[1]->text);
                ok = false;
                bad_threshold = true;
                continue;
              }
              if (xoff) {
                a.xoff_ns = v;
                a.xoff_tok = s->w[1];
              } else {
                a.xon_ns = v;
                a.xon_tok = s->w[1];
              }
            } else {
              unknown(c, s, "a pfc-account");
              ok = false;
            }
          }
          if (a.prio_mask == 0) {
            err(c, e->w[1], "pfc-account '%s' needs 'pfc-priority'", e->w[1]->text);
            ok = false;
            continue;
          }
          const tok_t *xt = a.xon_tok != NULL ? a.xon_tok : e->w[1];
          if (bad_threshold) {
            // already reported; comparing with a default would blame the wrong value
          } else if (a.xon_ns > a.xoff_ns) {
            err(c, xt, "xon %s us is above xoff (%llu.%03llu us) in pfc-account '%s'", xt->text,
                (unsigned long long)(a.xoff_ns / 1000u), (unsigned long long)(a.xoff_ns % 1000u),
                a.name->text);
            ok = false;
          } else if (a.xon_ns * 2u < a.xoff_ns) {
            err(c, xt, "xon %s us is below 50 percent of xoff (%llu.%03llu us) in pfc-account '%s'",
                xt->text, (unsigned long long)(a.xoff_ns / 1000u),
                (unsigned long long)(a.xoff_ns % 1000u), a.name->text);
            ok = false;
          }
          for (uint32_t b = 0; b < p.nacct; b++) {
            uint32_t both = p.acct[b].prio_mask & a.prio_mask;
            if (both != 0) {
              int pr = __builtin_ctz(both);
              err(c, a.prio_tok[pr], "pfc-priority %d is in pfc-accounts '%s' and '%s'", pr,
                  p.acct[b].name->text, a.name->text);
              ok = false;
            }
          }
          p.acct[p.nacct++] = a;
        } else {
          unknown(c, e, "congestion-notification-profile input");
          ok = false;
        }
      }
    }
    (void)ok;
    m->cnp[m->ncnp++] = p;
  }
}

static void sec_watchdog(ctx_t *c, model_t *m, const node_t *sec) {
  if (m->wd_set) {
    err(c, sec->w[0], "duplicate 'pfc-watchdog' (first at line %d)", m->wd_tok->line);
    return;
  }
  m->wd_set = true;
  m->wd_tok = sec->w[0];
  m->wd_poll_ms = 100;
  m->wd_detect = 2;
  m->wd_recovery_ms = 200;
  m->wd_action = kXtmFwWdActionDrop;
  const tok_t *seen_wd[ONCE_MAX] = {0};
  for (size_t k = 0; k < sec->nkids; k++) {
    const node_t *n = sec->kids[k];
    if (once(c, n, kWdOnce, seen_wd, "pfc-watchdog")) {
      continue;
    }
    uint64_t v;
    if (is_word(n, 0, "poll-interval")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 4000, &v) && no_more(c, n, 2)) {
        m->wd_poll_ms = (uint32_t)v;
      }
    } else if (is_word(n, 0, "detection")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 255, &v) && no_more(c, n, 2)) {
        m->wd_detect = (uint32_t)v;
      }
    } else if (is_word(n, 0, "recovery-time")) {
      if (want_leaf(c, n) && parse_uint(c, n, 1, 1, 100000, &v) && no_more(c, n, 2)) {
        m->wd_recovery_ms = (uint32_t)v;
      }
    } else if (is_word(n, 0, "watchdog-action")) {
      if (want_leaf(c, n) && need_word(c, n, 1, "drop or forward") && no_more(c, n, 2)) {
        if (strcmp(n->w[1]->text, "drop") == 0) {
          m->wd_action = kXtmFwWdActionDrop;
        } else if (strcmp(n->w[1]->text, "forward") == 0) {
          m->wd_action = kXtmFwWdActionForward;
        } else {
          err(c, n->w[1], "unknown watchdog-action '%s' (drop or forward)", n->w[1]->text);
        }
      }
    } else {
      unknown(c, n, "pfc-watchdog");
    }
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
        "RPG_MIN_RATE %u Mb/s is above RPG_MAX_RATE %u Mb/s: a rate floor above the cap (the hardware would saturate it to the cap, docs/spec-dcqcn.md D6.1)",
        rmin, rmax);
  }
  if (d->set[kFirst] && d->value[kFirst] != 0u &&
      (d->value[kFirst] < rmin || (rmax != 0u && d->value[kFirst] > rmax))) {
    warn(c, first[kFirst], "RATE_TO_SET_ON_FIRST_CNP %u Mb/s is outside [RPG_MIN_RATE, RPG_MAX_RATE]: the hardware clamps it",
         d->value[kFirst]);
  }
}

// ------------------------------------------------------------------ resolution

static const fc_t *fc_by_name(const model_t *m, const tok_t *t) {
  int i = FIND(m->fc, m->nfc, t);
  return i >= 0 ? &m->fc[i] : NULL;
}

static uint64_t rate_of(const rate_t *r, uint64_t base) {
  if (r->kind == kRateAbs) {
    return r->bps;
  }
  return (uint64_t)((u128)base * r->pct_milli / 100000u);
}

static void fmt_rate(char *b, size_t n, uint64_t bps) {
  if (bps % 1000000000ull == 0) {
    snprintf(b, n, "%llu Gb/s", (unsigned long long)(bps / 1000000000ull));
  } else if (bps >= 1000000000ull) {
    snprintf(b, n, "%.3f Gb/s", (double)bps / 1e9);
  } else if (bps >= 1000000ull) {
    snprintf(b, n, "%.3f Mb/s", (double)bps / 1e6);
  } else {
    snprintf(b, n, "%llu b/s", (unsigned long long)bps);
  }
}

// The Q8.16 bytes/cycle register value of a rate (section 5.4). `what` describes the rate
// for the messages ("shaping-rate 1k of scheduler 'x'"): an error when it rounds to 0 (a
// shaper that never sends), a warning when the register is more than 1 % off the rate.
static uint32_t rate_reg(ctx_t *c, const tok_t *t, const char *what, uint64_t bps) {
  uint32_t q = xtm_cos_rate_q16(bps, c->clock_hz);
  // one register step in b/s: 8 x clock / 65536; the smallest rate that rounds to 1 is half
  uint64_t smallest = (4u * c->clock_hz + 65535u) / 65536u;
  if (q == 0) {
    err(c, t, "%s rounds to 0 in the Q8.16 rate register at a %llu Hz clock (the queue would never send; the smallest rate is %llu b/s)",
        what, (unsigned long long)c->clock_hz, (unsigned long long)smallest);
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
  if (r->kind != kRateAbs) {
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
  if (s->dp_ref != NULL) {
    int di = FIND(m->dp, m->ndp, s->dp_ref);
    if (di < 0) {
      err(c, s->dp_ref, "scheduler '%s' refers to undefined drop-profile '%s'", s->name->text,
          s->dp_ref->text);
    } else if (s->ecn_tok != NULL && s->lat_tok == NULL && never_marks(&m->dp[di])) {
      err(c, s->ecn_tok, "scheduler '%s' marks ECN through drop-profile '%s', whose probability is 0 at every fill level: the queue can never mark",
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
      err(c, bt, "buffer-size %s us gives %llu bytes at %s, above the 2.5 GB per-queue cap (at most %llu us at this rate)",
          bt->text, (unsigned long long)bytes, rb, (unsigned long long)max_us);
    }
  }
  if (s->lat_tok != NULL && (s->lat_ns * c->clock_hz + 999999999u) / 1000000000u > 0xFFFFFFFFu) {
    err(c, s->lat_tok, "latency-ecn threshold %s ns does not fit 32 bits of cycles", s->lat_tok->text);
  }
}

// Objects nothing refers to: a scheduler no scheduler-map uses is checked only on its own
// (check_sched), without a port; the others are simply idle. One warning each.
static void warn_unused(ctx_t *c, const model_t *m) {
  for (uint32_t i = 0; i < m->ndp; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nsched && !used; k++) {
      used = m->sched[k].dp_ref != NULL && strcmp(m->sched[k].dp_ref->text, m->dp[i].name->text) == 0;
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
      warn(c, m->sched[i].name, "scheduler '%s' is not used by any scheduler-map (checked without a port)",
           m->sched[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->nsmap; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nif && !used; k++) {
      used = m->iface[k].smap_ref != NULL && strcmp(m->iface[k].smap_ref->text, m->smap[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->smap[i].name, "scheduler-map '%s' is not used by any interface", m->smap[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->ncnp; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nif && !used; k++) {
      used = m->iface[k].cnp_ref != NULL && strcmp(m->iface[k].cnp_ref->text, m->cnp[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->cnp[i].name, "congestion-notification-profile '%s' is not used by any interface",
           m->cnp[i].name->text);
    }
  }
  for (uint32_t i = 0; i < m->ncls; i++) {
    bool used = false;
    for (uint32_t k = 0; k < m->nif && !used; k++) {
      used = m->iface[k].cls_ref != NULL && strcmp(m->iface[k].cls_ref->text, m->cls[i].name->text) == 0;
    }
    if (!used) {
      warn(c, m->cls[i].name, "classifier '%s' is not used by any interface", m->cls[i].name->text);
    }
  }
}

static void resolve(ctx_t *c, model_t *m) {
  xtm_cos_result_t *r = c->r;
  xtm_fw_cfg_t *cfg = &r->cfg;
  const uint32_t C = c->hw->cell_bytes;
  // classification: TC = queue-num; TC -> queue identity; TC -> PG = pfc-priority
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
  // the DSCP classifier (one map in hardware)
  const iface_t *cls_owner = NULL;
  for (uint32_t i = 0; i < m->nif; i++) {
    const iface_t *f = &m->iface[i];
    if (f->cls_ref == NULL) {
      continue;
    }
    int ci = FIND(m->cls, m->ncls, f->cls_ref);
    if (ci < 0) {
      err(c, f->cls_ref, "interface '%s' refers to undefined classifier '%s'", f->name->text,
          f->cls_ref->text);
      continue;
    }
    if (cls_owner != NULL && strcmp(cls_owner->cls_ref->text, f->cls_ref->text) != 0) {
      err(c, f->cls_ref, "classifier '%s' differs from '%s' bound at line %d (the hardware has one DSCP map)",
          f->cls_ref->text, cls_owner->cls_ref->text, cls_owner->cls_ref->line);
      continue;
    }
    if (cls_owner == NULL) {
      cls_owner = f;
      const classifier_t *cl = &m->cls[ci];
      memset(cfg->cls.dscp_tc, 0, sizeof(cfg->cls.dscp_tc));
      int owner_line[64] = {0};
      for (uint32_t e = 0; e < cl->n; e++) {
        const fc_t *fc = fc_by_name(m, cl->e[e].fc);
        if (fc == NULL) {
          err(c, cl->e[e].fc, "classifier '%s' refers to undefined forwarding-class '%s'",
              cl->name->text, cl->e[e].fc->text);
          continue;
        }
        for (uint32_t x = 0; x < cl->e[e].ncp; x++) {
          uint8_t cp = cl->e[e].cp[x];
          if (owner_line[cp] != 0) {
            err(c, cl->e[e].fc, "code point %u is mapped twice in classifier '%s' (first at line %d)",
                cp, cl->name->text, owner_line[cp]);
          }
          owner_line[cp] = cl->e[e].fc->line;
          cfg->cls.dscp_tc[cp] = (uint8_t)fc->queue;
        }
      }
    }
  }
  // congestion notification profiles -> PGs (ingress) and port pause parameters
  uint64_t hdrm_total = 0;
  for (uint32_t i = 0; i < m->nif; i++) {
    const iface_t *f = &m->iface[i];
    uint64_t port_rate = f->speed_bps;
    if (f->shaping.kind != kRateNone) {
      uint64_t s = rate_of(&f->shaping, f->speed_bps);
      port_rate = s < port_rate ? s : port_rate;
    }
    xtm_fw_port_cfg_t *pc = &cfg->ports[f->port];
    uint32_t pq = xtm_cos_pause_quantum_q16(f->speed_bps, c->clock_hz);
    uint32_t port_q16 = xtm_cos_rate_q16(port_rate, c->clock_hz);
    if (f->shaping.kind != kRateNone) {
      char what[XTM_COS_NAME_LEN + 96];
      snprintf(what, sizeof(what), "shaping-rate %s of interface '%s'", f->shaping.tok->text,
               f->name->text);
      port_q16 = rate_reg(c, f->shaping.tok, what, port_rate);
      if (f->shaping.kind == kRateAbs && f->shaping.bps > f->speed_bps) {
        warn(c, f->shaping.tok, "%s is above its speed %s: the speed applies", what,
             f->speed_tok->text);
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
      err(c, f->speed_tok, "port rate of '%s' does not fit the Q8.16 rate register at this clock",
          f->name->text);
    }
    if (f->cnp_ref == NULL) {
      continue;
    }
    int pi = FIND(m->cnp, m->ncnp, f->cnp_ref);
    if (pi < 0) {
      err(c, f->cnp_ref, "interface '%s' refers to undefined congestion-notification-profile '%s'",
          f->name->text, f->cnp_ref->text);
      continue;
    }
    const cnp_t *p = &m->cnp[pi];
    acct_t dflt = {.name = p->name, .xoff_ns = 5000000u, .xon_ns = 3750000u};
    const acct_t *accts = p->acct;
    uint32_t nacct = p->nacct;
    if (nacct == 0) {  // Junos defaults for the no-loss classes' priorities
      for (uint32_t q = 0; q < m->nfc; q++) {
        if (m->fc[q].no_loss) {
          dflt.prio_mask |= 1u << (m->fc[q].pfc_prio >= 0 ? (uint32_t)m->fc[q].pfc_prio : m->fc[q].queue);
        }
      }
      accts = &dflt;
      nacct = dflt.prio_mask ? 1u : 0u;
    }
    for (uint32_t a = 0; a < nacct; a++) {
      for (uint32_t pr = 0; pr < XTM_FW_NUM_PRIOS; pr++) {
        if (((accts[a].prio_mask >> pr) & 1u) == 0 || cfg->num_pgs >= XTM_FW_MAX_PGS) {
          continue;
        }
        bool used = false;
        for (uint32_t q = 0; q < m->nfc; q++) {
          int fp = m->fc[q].pfc_prio >= 0 ? m->fc[q].pfc_prio : (int)m->fc[q].queue;
          used |= m->fc[q].no_loss && fp == (int)pr;
        }
        if (!used && accts[a].prio_tok[pr] != NULL) {
          warn(c, accts[a].prio_tok[pr], "pfc-priority %u of pfc-account '%s' is not the priority of any no-loss class",
               pr, accts[a].name->text);
        }
        xtm_cos_pg_plan_t *g = &r->pg[r->npgs++];
        memset(g, 0, sizeof(*g));
        snprintf(g->iface, sizeof(g->iface), "%s", f->name->text);
        snprintf(g->account, sizeof(g->account), "%s", accts[a].name->text);
        g->port = f->port;
        g->prio = pr;
        g->speed_bps = f->speed_bps;
        g->xoff_bytes = xtm_cos_temporal_bytes(accts[a].xoff_ns, f->speed_bps);
        g->xon_bytes = xtm_cos_temporal_bytes(accts[a].xon_ns, f->speed_bps);
        g->xoff_cells = xtm_cos_bytes_to_cells(g->xoff_bytes, C);
        g->xon_cells = g->xon_bytes ? xtm_cos_bytes_to_cells(g->xon_bytes, C) - 1u : 0u;
        g->cable_m = p->cable_m;
        g->mtu = p->mtu;
        (void)xtm_cos_headroom_bits(f->speed_bps, p->cable_m, p->mtu, &g->hdrm_bits);
        g->hdrm_bytes = (g->hdrm_bits + 7u) / 8u;
        g->hdrm_cells = xtm_cos_bytes_to_cells(g->hdrm_bytes, C);
        const tok_t *xt = accts[a].xoff_tok != NULL ? accts[a].xoff_tok : f->cnp_ref;
        if (g->xoff_cells > 0xFFFFFFFu) {
          err(c, xt, "xoff of pfc-account '%s' is %llu cells, above the 28-bit threshold register",
              accts[a].name->text, (unsigned long long)g->xoff_cells);
        }
        hdrm_total += g->hdrm_cells;
        cfg->pgs[cfg->num_pgs++] = (xtm_fw_pg_cfg_t){
            .port = (uint8_t)f->port,
            .prio = (uint8_t)pr,
            .pfc_en = true,
            .xoff_cells = g->xoff_cells,
            .xon_cells = g->xon_cells,
            .hdrm_cells = g->hdrm_cells,
        };
      }
    }
  }
  uint64_t buffer = (uint64_t)c->hw->ocb_cells + c->hw->hbm_cells;
  if (hdrm_total >= buffer) {
    err(c, NULL, "PFC headroom (%llu cells) leaves no shared pool in a buffer of %llu cells",
        (unsigned long long)hdrm_total, (unsigned long long)buffer);
  } else {
    cfg->pool_valid = true;
    uint64_t pool = buffer - hdrm_total;
    cfg->pool_cells = (uint32_t)(pool > 0xFFFFFFFu ? 0xFFFFFFFu : pool);
  }
  // watchdog
  if (m->wd_set) {
    uint64_t poll = (uint64_t)m->wd_poll_ms * c->clock_hz / 1000u;
    uint32_t restore = (m->wd_recovery_ms + m->wd_poll_ms - 1u) / m->wd_poll_ms;
    if (poll == 0 || poll > 0xFFFFFFFFu) {
      err(c, m->wd_tok, "pfc-watchdog poll-interval %u ms is %llu cycles, outside the 32-bit register",
          m->wd_poll_ms, (unsigned long long)poll);
    } else if (restore > 255u) {
      err(c, m->wd_tok, "pfc-watchdog recovery-time %u ms is %u polls, above 255", m->wd_recovery_ms,
          restore);
    } else {
      cfg->wd = (xtm_fw_wd_cfg_t){.valid = true, .en = true, .action = m->wd_action,
                                  .poll_cycles = (uint32_t)poll, .detect_polls = m->wd_detect,
                                  .restore_polls = restore};
    }
  }
  // queues from scheduler maps
  int next_slot = 1;
  cfg->profiles[0] = (xtm_fw_profile_cfg_t){.valid = true, .interp = false, .npoints = 0};
  for (uint32_t i = 0; i < m->nif; i++) {
    const iface_t *f = &m->iface[i];
    if (f->smap_ref == NULL) {
      continue;
    }
    int si = FIND(m->smap, m->nsmap, f->smap_ref);
    if (si < 0) {
      err(c, f->smap_ref, "interface '%s' refers to undefined scheduler-map '%s'", f->name->text,
          f->smap_ref->text);
      continue;
    }
    const smap_t *sm = &m->smap[si];
    uint64_t tx_sum = 0;  // guaranteed (transmit) rates on this port
    uint64_t port_rate = f->speed_bps;
    if (f->shaping.kind != kRateNone) {
      uint64_t s = rate_of(&f->shaping, f->speed_bps);
      port_rate = s < port_rate ? s : port_rate;
    }
    if (xtm_cos_rate_q16(port_rate, c->clock_hz) == 0) {
      continue;  // the port shaper rounds to 0: reported above, its queues would all follow
    }
    for (uint32_t e = 0; e < sm->n; e++) {
      const fc_t *fc = fc_by_name(m, sm->e[e].fc);
      int sci = FIND(m->sched, m->nsched, sm->e[e].sched);
      if (fc == NULL) {
        err(c, sm->e[e].fc, "scheduler-map '%s' refers to undefined forwarding-class '%s'",
            sm->name->text, sm->e[e].fc->text);
      }
      if (sci < 0) {
        err(c, sm->e[e].sched, "scheduler-map '%s' refers to undefined scheduler '%s'", sm->name->text,
            sm->e[e].sched->text);
      }
      if (fc == NULL || sci < 0) {
        continue;
      }
      const sched_t *s = &m->sched[sci];
      xtm_cos_queue_plan_t *qp = &r->q[r->nqueues];
      memset(qp, 0, sizeof(*qp));
      snprintf(qp->iface, sizeof(qp->iface), "%s", f->name->text);
      snprintf(qp->fclass, sizeof(qp->fclass), "%s", fc->name->text);
      snprintf(qp->scheduler, sizeof(qp->scheduler), "%s", s->name->text);
      qp->port = f->port;
      qp->queue = fc->queue;
      qp->voq = f->port * c->hw->num_tcs + fc->queue;
      qp->port_rate_bps = port_rate;
      char prb[32];
      fmt_rate(prb, sizeof(prb), port_rate);
      // a guaranteed rate the port cannot carry would also size the buffer from it
      if (s->transmit.kind == kRateAbs && s->transmit.bps > port_rate) {
        err(c, s->transmit.tok, "transmit-rate %s of scheduler '%s' is above the rate of '%s' (%s)",
            s->transmit.tok->text, s->name->text, f->name->text, prb);
        continue;
      }
      tx_sum += s->transmit.kind != kRateNone ? rate_of(&s->transmit, port_rate) : 0u;
      // calculated shaping rate, then the target-rate rule [tm-domain-specs 1.1]
      uint64_t shaping = port_rate;
      if (s->shaping.kind != kRateNone) {
        uint64_t v = rate_of(&s->shaping, port_rate);
        shaping = v < port_rate ? v : port_rate;
        if (s->shaping.kind == kRateAbs && v > port_rate) {
          warn(c, s->shaping.tok, "shaping-rate %s of scheduler '%s' is above the rate of '%s' (%s): the port rate applies",
               s->shaping.tok->text, s->name->text, f->name->text, prb);
        }
      }
      qp->shaping_rate_bps = shaping;
      // the shaper register before anything sized from the rate (a 0 would also give a 0 buffer)
      uint32_t shaper_q16 = 0;
      if (s->shaping.kind != kRateNone) {
        char what[3 * XTM_COS_NAME_LEN + 96];
        if (s->shaping.kind == kRateAbs && s->shaping.bps == shaping) {
          snprintf(what, sizeof(what), "shaping-rate %s of scheduler '%s'", s->shaping.tok->text,
                   s->name->text);
        } else {
          snprintf(what, sizeof(what), "shaping-rate of scheduler '%s' on '%s' (%llu b/s)",
                   s->name->text, f->name->text, (unsigned long long)shaping);
        }
        shaper_q16 = rate_reg(c, s->shaping.tok, what, shaping);
        if (shaper_q16 == 0) {
          continue;
        }
      }
      if (s->buffer_rate.kind != kRateNone) {
        uint64_t b = rate_of(&s->buffer_rate, shaping);
        if (s->buffer_rate.kind == kRateAbs && b > shaping) {
          char srb[32];
          fmt_rate(srb, sizeof(srb), shaping);
          warn(c, s->buffer_rate.tok, "buffer-rate %s of scheduler '%s' is above its shaping rate on '%s' (%s): the shaping rate sizes the buffer",
               s->buffer_rate.tok->text, s->name->text, f->name->text, srb);
        }
        qp->target_rate_bps = b < shaping ? b : shaping;
        qp->target_rule = "min(buffer-rate, shaping-rate)";
      } else if (s->transmit.kind != kRateNone) {
        qp->target_rate_bps = rate_of(&s->transmit, port_rate);
        qp->target_rule = "transmit-rate";
      } else {
        qp->target_rate_bps = shaping;
        qp->target_rule = "shaping-rate";
      }
      if (qp->target_rate_bps == 0) {
        err(c, s->name, "scheduler '%s' gives queue %u of '%s' a target rate of 0", s->name->text,
            fc->queue, f->name->text);
        continue;
      }
      qp->target_rate_q16 = xtm_cos_rate_q16(qp->target_rate_bps, c->clock_hz);
      // buffer limit
      char rb[32];
      fmt_rate(rb, sizeof(rb), qp->target_rate_bps);
      if (s->bsize_kind == 2) {
        uint64_t port_buf = buffer * C / c->hw->num_ports;
        qp->limit_bytes = (uint64_t)((u128)port_buf * s->bsize_pct_milli / 100000u);
      } else {
        qp->temporal_ns = s->bsize_kind == 1 ? s->bsize_ns : 100000u;  // default 100 us
        qp->limit_bytes = xtm_cos_temporal_bytes(qp->temporal_ns, qp->target_rate_bps);
      }
      if (qp->limit_bytes > XTM_COS_PER_QUEUE_CAP_BYTES) {
        const tok_t *bt = s->bsize_tok != NULL ? s->bsize_tok : s->name;
        uint64_t max_us = (uint64_t)((u128)XTM_COS_PER_QUEUE_CAP_BYTES * 8000000u / qp->target_rate_bps);
        err(c, bt, "buffer-size %s%s gives %llu bytes at %s, above the 2.5 GB per-queue cap (at most %llu us at this rate)",
            bt->text, s->bsize_kind == 2 ? " percent" : " us", (unsigned long long)qp->limit_bytes, rb,
            (unsigned long long)max_us);
        continue;
      }
      qp->limit_cells = xtm_cos_bytes_to_cells(qp->limit_bytes, C);
      if (qp->limit_bytes == 0) {
        err(c, s->bsize_tok != NULL ? s->bsize_tok : s->name, "scheduler '%s' gives a buffer of 0 bytes",
            s->name->text);
        continue;
      }
      // drop profile
      int slot = 0;
      if (s->dp_ref != NULL) {
        int di = FIND(m->dp, m->ndp, s->dp_ref);
        if (di < 0) {
          err(c, s->dp_ref, "scheduler '%s' refers to undefined drop-profile '%s'", s->name->text,
              s->dp_ref->text);
          continue;
        }
        dp_t *p = &m->dp[di];
        if (p->slot < 0) {
          if (next_slot >= (int)XTM_FW_NUM_PROFILES) {
            err(c, s->dp_ref, "drop-profile '%s' does not fit: the hardware holds %u profiles (slot 0 is the empty one)",
                p->name->text, XTM_FW_NUM_PROFILES);
            continue;
          }
          p->slot = next_slot++;
          xtm_fw_profile_cfg_t *pc = &cfg->profiles[p->slot];
          *pc = (xtm_fw_profile_cfg_t){.valid = true, .interp = p->interp, .npoints = (uint8_t)p->n};
          for (uint32_t x = 0; x < p->n; x++) {
            pc->fill_q16[x] = xtm_cos_pct_q16(p->fill[x]);
            pc->prob_q16[x] = xtm_cos_pct_q16(p->prob[x]);
          }
        }
        slot = p->slot;
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
      }
      qp->ecn = s->ecn_tok != NULL || s->lat_tok != NULL;
      qp->no_loss = fc->no_loss;
      qp->strict = s->strict;
      qp->mark = s->lat_tok != NULL ? "latency" : s->head_tok != NULL ? "head" : qp->ecn ? "tail" : "none";
      qp->latency_ns = s->lat_ns;
      qp->pfc_prio = fc->no_loss ? (fc->pfc_prio >= 0 ? fc->pfc_prio : (int)fc->queue) : -1;
      for (uint32_t g = 0; g < r->npgs && qp->pfc_prio >= 0; g++) {
        if (r->pg[g].prio == (uint32_t)qp->pfc_prio) {
          qp->pfc_known = true;
          qp->xoff_bytes = r->pg[g].xoff_bytes;
          qp->xon_bytes = r->pg[g].xon_bytes;
          qp->hdrm_bytes = r->pg[g].hdrm_bytes;
          break;
        }
      }
      uint64_t lat_cycles = (s->lat_ns * c->clock_hz + 999999999u) / 1000000000u;
      if (lat_cycles > 0xFFFFFFFFu) {
        err(c, s->lat_tok, "latency-ecn threshold %s ns does not fit 32 bits of cycles", s->lat_tok->text);
        continue;
      }
      uint32_t quantum = 9216;
      if (s->transmit.kind != kRateNone) {
        uint64_t tx = rate_of(&s->transmit, port_rate);
        uint64_t qv = (tx * 65535u + port_rate / 2u) / port_rate;
        quantum = (uint32_t)(qv < 1u ? 1u : qv > 65535u ? 65535u : qv);
      }
      bool pfc_rx = f->cnp_ref != NULL && fc->no_loss;
      xtm_fw_queue_cfg_t qc = {
          .port = (uint8_t)f->port,
          .queue = (uint8_t)fc->queue,
          .strict = s->strict,
          .no_loss = fc->no_loss,
          .ecn_en = qp->ecn,
          .nonect_tail_only = s->nonect_tail,
          .mark_point = (uint8_t)(s->lat_tok != NULL ? kXtmFwMarkPointLatency
                                  : s->head_tok != NULL ? kXtmFwMarkPointHead
                                                        : kXtmFwMarkPointTail),
          .profile = (uint8_t)slot,
          .pfc_rx_en = pfc_rx,
          .pfc_prio = (uint8_t)(qp->pfc_prio >= 0 ? qp->pfc_prio : 0),
          .wd_en = pfc_rx && m->wd_set,
          .shaper_en = s->shaping.kind != kRateNone,
          .limit_cells = qp->limit_cells,
          .quantum_bytes = quantum,
          .lat_thresh_cycles = s->lat_tok != NULL ? (uint32_t)lat_cycles : 0xFFFFFFFFu,
          .shaper_rate_q16 = shaper_q16,
          .shaper_burst_bytes = s->shaping.kind != kRateNone ? 9216u : 0u,
          .target_rate_q16 = qp->target_rate_q16,
      };
      if (qc.target_rate_q16 > 0xFFFFFFu || qc.shaper_rate_q16 > 0xFFFFFFu) {
        err(c, s->name, "a rate of scheduler '%s' does not fit the Q8.16 register at this clock", s->name->text);
        continue;
      }
      if (qp->no_loss) {
        uint64_t sum = 0;
        for (uint32_t g = 0; g < r->npgs; g++) {
          if (r->pg[g].prio == (uint32_t)qp->pfc_prio) {
            sum += r->pg[g].xoff_bytes + r->pg[g].hdrm_bytes;
          }
        }
        if (sum > qp->limit_bytes) {
          warn(c, s->name, "no-loss queue %u of '%s': the ingress XOFF thresholds plus headroom (%llu bytes) exceed its limit (%llu bytes), so it can tail-drop before PFC acts",
               qp->queue, qp->iface, (unsigned long long)sum, (unsigned long long)qp->limit_bytes);
        }
      }
      cfg->queues[cfg->num_queues++] = qc;
      r->nqueues++;
    }
    if (tx_sum > port_rate) {
      char tb[32];
      fmt_rate(tb, sizeof(tb), tx_sum);
      char pb[32];
      fmt_rate(pb, sizeof(pb), port_rate);
      warn(c, f->smap_ref, "the transmit-rates of scheduler-map '%s' on '%s' add up to %s, above the port rate (%s): the guarantees cannot all be met",
           sm->name->text, f->name->text, tb, pb);
    }
  }
  // every scheduler, used or not, then what nothing uses (it is checked only on its own)
  for (uint32_t i = 0; i < m->nsched; i++) {
    check_sched(c, m, &m->sched[i]);
  }
  warn_unused(c, m);
}

// ------------------------------------------------------------------ top level

uint32_t xtm_cos_compile(const char *path, const char *text, const xtm_fw_hw_t *hw,
                         const xtm_cos_opts_t *opts, xtm_cos_result_t *r) {
  memset(r, 0, sizeof(*r));
  ctx_t c = {.path = path, .r = r, .hw = hw,
             .clock_hz = (opts != NULL && opts->clock_hz != 0) ? opts->clock_hz : 1000000000ull};
  r->hw = *hw;
  r->clock_hz = c.clock_hz;
  toks_t ts = {0};
  node_t *root = calloc(1, sizeof(node_t));
  model_t *m = calloc(1, sizeof(model_t));
  if (root == NULL || m == NULL) {
    err(&c, NULL, "out of memory");
  } else if (tokenize(&c, text, &ts)) {
    size_t pos = 0;
    if (parse_block(&c, &ts, &pos, root, NULL, 0)) {
      bool seen = false;
      for (size_t k = 0; k < root->nkids; k++) {
        const node_t *top = root->kids[k];
        if (!is_word(top, 0, "class-of-service")) {
          err(&c, top->w[0], "unknown top-level statement '%s' (expected 'class-of-service')",
              top->w[0]->text);
          continue;
        }
        if (seen) {
          err(&c, top->w[0], "duplicate 'class-of-service'");
          continue;
        }
        seen = true;
        if (!want_block(&c, top, 1)) {
          continue;
        }
        // forwarding classes first: everything else refers to them
        for (int pass = 0; pass < 2; pass++) {
          for (size_t j = 0; j < top->nkids; j++) {
            const node_t *s = top->kids[j];
            const char *w = s->w[0]->text;
            bool fcs = strcmp(w, "forwarding-classes") == 0;
            if ((pass == 0) != fcs) {
              continue;
            }
            static const char *const kSections[] = {
                "forwarding-classes", "classifiers", "drop-profiles", "schedulers",
                "scheduler-maps", "interfaces", "congestion-notification-profile",
                "pfc-watchdog", "dcqcn"};
            bool known = false;
            for (size_t q = 0; q < sizeof(kSections) / sizeof(kSections[0]); q++) {
              known = known || strcmp(w, kSections[q]) == 0;
            }
            if (!known) {
              unknown(&c, s, "class-of-service");  // before its shape: the word is the mistake
              continue;
            }
            if (!want_block(&c, s, 1)) {
              continue;
            }
            if (fcs) {
              sec_forwarding_classes(&c, m, s);
            } else if (strcmp(w, "classifiers") == 0) {
              sec_classifiers(&c, m, s);
            } else if (strcmp(w, "drop-profiles") == 0) {
              sec_drop_profiles(&c, m, s);
            } else if (strcmp(w, "schedulers") == 0) {
              sec_schedulers(&c, m, s);
            } else if (strcmp(w, "scheduler-maps") == 0) {
              sec_scheduler_maps(&c, m, s);
            } else if (strcmp(w, "interfaces") == 0) {
              sec_interfaces(&c, m, s);
            } else if (strcmp(w, "congestion-notification-profile") == 0) {
              sec_cnp(&c, m, s);
            } else if (strcmp(w, "pfc-watchdog") == 0) {
              sec_watchdog(&c, m, s);
            } else if (strcmp(w, "dcqcn") == 0) {
              sec_dcqcn(&c, m, s);
            } else {
              unknown(&c, s, "class-of-service");
            }
          }
        }
      }
      if (!seen && r->nerrors == 0) {
        err(&c, NULL, "no 'class-of-service' stanza");
      }
      if (r->nerrors == 0) {
        resolve(&c, m);
      }
    }
  }
  node_free(root);
  free(m);
  free(ts.v);
  free(ts.store);
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
