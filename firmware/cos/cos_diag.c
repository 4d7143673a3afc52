// SPDX-License-Identifier: Apache-2.0
//
// Configuration compiler: diagnostics (each distinct text stored once, repeats counted with
// their positions) and the value parsers every part of the compiler shares.

#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/cos_internal.h"
#include "tools/lib/xtm_num.h"

// ------------------------------------------------------------------ diagnostics

static uint32_t text_hash(const char *s) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 16777619u;
  }
  return h;
}

// Stores one message. The same text at a position already seen is nothing new (a dangling
// reference met once per interface that uses it is one error); the same text at another
// position is counted as a repeat of the stored entry, which keeps a few of its positions;
// a new text takes a new entry while there is room, else it is only counted.
static void vdiag(ctx_t *c, const tok_t *t, bool warning, const char *fmt, va_list ap) {
  xtm_cos_result_t *r = c->r;
  char msg[XTM_COS_MSG_LEN - 64];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  char line[XTM_COS_MSG_LEN];
  int ln = t != NULL ? t->line : 0;
  int col = t != NULL ? t->col : 0;
  int off = t != NULL ? snprintf(line, sizeof(line), "%s:%d:%d: ", c->path, ln, col)
                      : snprintf(line, sizeof(line), "%s: ", c->path);
  if (off < 0 || (size_t)off >= sizeof(line) / 2u) {
    off = 0;  // an absurd path: the text is still compared and shown
  }
  snprintf(line + off, sizeof(line) - (size_t)off, "%s%s", warning ? "warning: " : "", msg);
  uint32_t h = text_hash(line + off);
  uint32_t n = warning ? r->nwarnings : r->nerror_msgs;
  char(*store)[XTM_COS_MSG_LEN] = warning ? r->warnings : r->errors;
  diag_slot_t *slots = warning ? c->wslot : c->eslot;
  uint32_t *repeats = warning ? r->warning_repeats : r->error_repeats;
  int(*more)[XTM_COS_MORE][2] = warning ? r->warning_more : r->error_more;
  for (uint32_t i = 0; i < n; i++) {
    diag_slot_t *s = &slots[i];
    if (s->hash != h || strcmp(store[i] + s->msg_off, line + off) != 0) {
      continue;
    }
    if (s->line == ln && s->col == col) {
      return;
    }
    for (uint32_t k = 0; k < s->npos; k++) {
      if (s->pos_line[k] == ln && s->pos_col[k] == col) {
        return;
      }
    }
    if (s->npos < COS_MORE_POS) {
      s->pos_line[s->npos] = ln;
      s->pos_col[s->npos] = col;
      s->npos++;
    }
    if (repeats[i] < XTM_COS_MORE) {
      more[i][repeats[i]][0] = ln;
      more[i][repeats[i]][1] = col;
    }
    repeats[i]++;
    if (!warning) {
      r->nerrors++;
    }
    return;
  }
  uint32_t cap = warning ? XTM_COS_MAX_WARNINGS : XTM_COS_MAX_ERRORS;
  if (n >= cap) {
    if (warning) {
      r->warnings_dropped++;
    } else {
      r->nerrors++;
      r->errors_dropped++;
    }
    return;
  }
  memcpy(store[n], line, sizeof(line));
  slots[n] = (diag_slot_t){.msg_off = (uint16_t)off, .hash = h, .line = ln, .col = col};
  if (warning) {
    r->nwarnings++;
  } else {
    r->nerror_msgs++;
    r->nerrors++;
  }
}

void cos_err(ctx_t *c, const tok_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(c, t, false, fmt, ap);
  va_end(ap);
}

void cos_warn(ctx_t *c, const tok_t *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(c, t, true, fmt, ap);
  va_end(ap);
}

void junos_refused(ctx_t *c, const tok_t *t, const char *fmt, ...) {
  char msg[XTM_COS_MSG_LEN - 120];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  err(c, t, "valid Junos, not supported by this hardware model: %s", msg);
}

void junos_ignored(ctx_t *c, const node_t *n, const char *where, const char *why) {
  warn(c, n->w[0], "valid Junos, not modelled by xtm: '%s' in %s is ignored (%s)", n->w[0]->text,
       where, why);
}

bool xtm_cos_repeat_note(const xtm_cos_result_t *r, bool warning, uint32_t i, const char *path,
                         char *buf, size_t len) {
  uint32_t n = warning ? r->nwarnings : r->nerror_msgs;
  if (i >= n || len == 0) {
    return false;
  }
  uint32_t rep = warning ? r->warning_repeats[i] : r->error_repeats[i];
  if (rep == 0) {
    return false;
  }
  const int(*more)[2] = warning ? r->warning_more[i] : r->error_more[i];
  size_t o = (size_t)snprintf(buf, len, "%s: note: the %s above is repeated %u more time%s (at",
                              path, warning ? "warning" : "error", rep, rep == 1 ? "" : "s");
  for (uint32_t k = 0; k < rep && k < XTM_COS_MORE && o < len; k++) {
    o += (size_t)snprintf(buf + o, len - o, "%s %d:%d", k == 0 ? "" : ",", more[k][0], more[k][1]);
  }
  if (o < len) {
    if (rep > XTM_COS_MORE) {
      snprintf(buf + o, len - o, " and %u more)", rep - XTM_COS_MORE);
    } else {
      snprintf(buf + o, len - o, ")");
    }
  }
  return true;
}

uint32_t xtm_cos_each_message(const xtm_cos_result_t *r, const char *path,
                              void (*line)(void *arg, bool warning, const char *text), void *arg) {
  uint32_t lines = 0;
  char note[XTM_COS_MSG_LEN];
  for (int pass = 0; pass < 2; pass++) {
    bool w = pass == 0;
    uint32_t n = w ? r->nwarnings : r->nerror_msgs;
    for (uint32_t i = 0; i < n; i++) {
      line(arg, w, w ? r->warnings[i] : r->errors[i]);
      lines++;
      if (xtm_cos_repeat_note(r, w, i, path, note, sizeof(note))) {
        line(arg, w, note);
        lines++;
      }
    }
  }
  return lines;
}

bool cos_grow(void **p, size_t *cap, size_t need, size_t size, size_t first) {
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

// ------------------------------------------------------------------ value parsing

bool is_word(const node_t *n, size_t i, const char *s) {
  return i < n->nw && n->w[i]->type == 'w' && strcmp(n->w[i]->text, s) == 0;
}

// Decimal with up to 3 fractional digits -> value x 1000 (tools/lib/xtm_num: the whole
// word, no sign, exponent, hex or lost digits).
int milli_of(const char *s, uint64_t *out) {
  return (int)xtm_num_fixed(NULL, s, 3, 0, UINT64_MAX, out, NULL);
}

bool parse_scaled_milli(const char *s, uint64_t *out) {
  size_t l = strlen(s);
  if (l == 0 || l > 40) {
    return false;
  }
  char buf[48];
  memcpy(buf, s, l + 1);
  uint64_t mul = 1;
  char last = (char)tolower((unsigned char)buf[l - 1]);
  if (last == 'k' || last == 'm' || last == 'g') {
    mul = last == 'k' ? 1000ull : last == 'm' ? 1000000ull : 1000000000ull;
    buf[l - 1] = '\0';
  }
  uint64_t milli;
  if (milli_of(buf, &milli) != kXtmNumOk) {
    return false;
  }
  cos_u128 v = (cos_u128)milli * mul;
  if (v > UINT64_MAX) {
    return false;
  }
  *out = (uint64_t)v;
  return true;
}

bool need_word(ctx_t *c, const node_t *n, size_t i, const char *what) {
  if (i < n->nw && n->w[i]->type == 'w') {
    return true;
  }
  const tok_t *t = i < n->nw ? n->w[i] : n->w[n->nw - 1];
  err(c, t, "'%s' needs %s", n->w[0]->text, what);
  return false;
}

bool parse_uint(ctx_t *c, const node_t *n, size_t i, uint64_t min, uint64_t max, uint64_t *out) {
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
    err(c, t, "%s %s is out of range %llu..%llu", n->w[0]->text, t->text, (unsigned long long)min,
        (unsigned long long)max);
    return false;
  }
  *out = m;
  return true;
}

// Reports a number word that milli_of refused; `what` names the statement.
void bad_milli(ctx_t *c, const tok_t *t, int st, const char *what) {
  if (st == kXtmNumPrecision) {
    err(c, t, "'%s' has more than 3 decimals (for '%s')", t->text, what);
  } else if (st == kXtmNumRange) {
    err(c, t, "'%s' is too large (for '%s')", t->text, what);
  } else {
    err(c, t, "'%s' is not a number (for '%s'; at most 3 decimals)", t->text, what);
  }
}

bool parse_milli(ctx_t *c, const node_t *n, size_t i, const char *what, uint64_t *out) {
  if (!need_word(c, n, i, what)) {
    return false;
  }
  int st = milli_of(n->w[i]->text, out);
  if (st != kXtmNumOk) {
    bad_milli(c, n->w[i], st, n->w[0]->text);
    return false;
  }
  return true;
}

bool parse_rate_str(const char *s, uint64_t *bps) {
  size_t l = strlen(s);
  if (l == 0 || l > 40) {
    return false;
  }
  char buf[48];
  memcpy(buf, s, l + 1);
  uint64_t mul = 1;
  char last = (char)tolower((unsigned char)buf[l - 1]);
  if (last == 'k' || last == 'm' || last == 'g' || last == 't') {
    mul = last == 'k'   ? 1000ull
          : last == 'm' ? 1000000ull
          : last == 'g' ? 1000000000ull
                        : 1000000000000ull;
    buf[l - 1] = '\0';
  }
  uint64_t milli;
  if (milli_of(buf, &milli) != kXtmNumOk) {
    return false;
  }
  cos_u128 v = (cos_u128)milli * mul / 1000u;
  if (v == 0 || v > 10000000000000ull) {
    return false;
  }
  *bps = (uint64_t)v;
  return true;
}

bool no_more(ctx_t *c, const node_t *n, size_t i) {
  if (i < n->nw) {
    err(c, n->w[i], "unexpected '%s' in '%s'", n->w[i]->text, n->w[0]->text);
    return false;
  }
  return true;
}

bool want_block(ctx_t *c, const node_t *n, size_t nwords) {
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

bool want_leaf(ctx_t *c, const node_t *n) {
  if (n->block) {
    err(c, n->w[0], "'%s' takes no block", n->w[0]->text);
    return false;
  }
  return true;
}

// A list of words: one word at i, or '[' words ']'; returns the count, fills out[].
size_t word_list(ctx_t *c, const node_t *n, size_t i, const tok_t **out, size_t cap, size_t *next) {
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
  } else if (n->w[i]->type == 'w') {
    out[0] = n->w[i];
    k = 1;
    i++;
  } else {
    err(c, n->w[i], "unexpected '%s' in '%s'", n->w[i]->text, n->w[0]->text);
    return 0;
  }
  *next = i;
  if (k > cap) {
    err(c, out[cap - 1], "too many values in '%s' (at most %zu)", n->w[0]->text, cap);
    return 0;
  }
  return k;
}

void unknown(ctx_t *c, const node_t *n, const char *where) {
  err(c, n->w[0], "unknown statement '%s' in %s", n->w[0]->text, where);
}

// A defined object's name: 1..XTM_COS_MAX_NAME printable ASCII characters (quoted names
// may hold spaces). Longer names used to be cut to 63 in the plan, so two classes could
// print as one; other bytes would reach the JSON plan and terminals raw.
bool check_name(ctx_t *c, const tok_t *t, const char *what) {
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

void fmt_rate(char *b, size_t n, uint64_t bps) {
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

const node_t *flat_view(const node_t *n, node_t *tmp, const tok_t **buf, size_t cap) {
  if (!n->block || n->nkids == 0) {
    return n;
  }
  size_t k = 0;
  for (size_t i = 0; i < n->nw && k < cap; i++) {
    buf[k++] = n->w[i];
  }
  for (size_t j = 0; j < n->nkids; j++) {
    const node_t *e = n->kids[j];
    if (e->block) {
      return n;
    }
    for (size_t i = 0; i < e->nw; i++) {
      if (k >= cap) {
        return n;
      }
      buf[k++] = e->w[i];
    }
  }
  *tmp = (node_t){.w = buf, .nw = k, .wcap = cap, .inactive = n->inactive};
  return tmp;
}
