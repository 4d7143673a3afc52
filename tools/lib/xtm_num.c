// SPDX-License-Identifier: Apache-2.0
//
// xtm_num: strict number parsing for every xtm tool (tools/lib/xtm_num.h has the grammar).

#include "tools/lib/xtm_num.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUOTE_MAX 48  // characters of the offending text a message shows

const char *xtm_num_status_name(xtm_num_status_t st) {
  switch (st) {
    case kXtmNumOk:
      return "ok";
    case kXtmNumEmpty:
      return "empty";
    case kXtmNumSyntax:
      return "not a number";
    case kXtmNumRange:
      return "out of range";
    case kXtmNumPrecision:
      return "too many decimals";
    default:
      return "unknown status";
  }
}

void xtm_num_quote(char *buf, size_t n, const char *s) {
  if (buf == NULL || n == 0) {
    return;
  }
  size_t o = 0;
  size_t shown = 0;
  buf[0] = '\0';
  if (s == NULL) {
    s = "";
  }
  for (; *s != '\0'; s++) {
    unsigned char ch = (unsigned char)*s;
    char tmp[8];
    if (shown >= QUOTE_MAX) {
      snprintf(tmp, sizeof(tmp), "...");
    } else if (ch >= 0x20 && ch < 0x7f && ch != '\\') {
      tmp[0] = (char)ch;
      tmp[1] = '\0';
    } else {
      snprintf(tmp, sizeof(tmp), "\\x%02x", ch);
    }
    size_t l = strlen(tmp);
    if (o + l + 1 > n) {
      break;
    }
    memcpy(buf + o, tmp, l + 1);
    o += l;
    shown++;
    if (shown > QUOTE_MAX) {
      break;
    }
  }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The end of a run of at least one decimal digit starting at p, or NULL if p holds none.
static const char *digit_run(const char *p) {
  if (!is_digit(*p)) {
    return NULL;
  }
  while (is_digit(*p)) {
    p++;
  }
  return p;
}

// "what 'text'" (or "'text'" without a name), the start of every message.
static int lead(char *b, size_t n, const char *what, const char *s) {
  char q[QUOTE_MAX * 4 + 8];
  xtm_num_quote(q, sizeof(q), s);
  return snprintf(b, n, "%s%s'%s'", what != NULL ? what : "", (what != NULL && *what) ? " " : "",
                  q);
}

static void fmt_fixed(char *b, size_t n, uint64_t v, unsigned decimals) {
  uint64_t scale = 1;
  for (unsigned i = 0; i < decimals; i++) {
    scale *= 10u;
  }
  uint64_t ip = v / scale;
  uint64_t fp = v % scale;
  if (fp == 0) {
    snprintf(b, n, "%llu", (unsigned long long)ip);
    return;
  }
  unsigned d = decimals;
  while (fp % 10u == 0) {
    fp /= 10u;
    d--;
  }
  snprintf(b, n, "%llu.%0*llu", (unsigned long long)ip, (int)d, (unsigned long long)fp);
}

// Writes the message for a failed parse. `kind` says what was expected, `range` the bounds.
static xtm_num_status_t fail(xtm_num_msg_t *msg, xtm_num_status_t st, const char *what,
                             const char *s, const char *kind, const char *range) {
  if (msg == NULL) {
    return st;
  }
  char *b = msg->text;
  size_t n = sizeof(msg->text);
  if (st == kXtmNumEmpty) {
    snprintf(b, n, "%s%sneeds a value (%s %s)", what != NULL ? what : "",
             (what != NULL && *what) ? " " : "", kind, range);
    return st;
  }
  int l = lead(b, n, what, s);
  if (l < 0 || (size_t)l >= n) {
    return st;
  }
  if (st == kXtmNumSyntax) {
    snprintf(b + l, n - (size_t)l, " is not %s (expected %s)", kind, range);
  } else if (st == kXtmNumRange) {
    snprintf(b + l, n - (size_t)l, " is out of range %s", range);
  } else {  // kXtmNumPrecision: `kind` is "N decimals"
    snprintf(b + l, n - (size_t)l, " has more than %s (expected %s)", kind, range);
  }
  return st;
}

static void range_u64(char *b, size_t n, uint64_t min, uint64_t max) {
  snprintf(b, n, "%llu..%llu", (unsigned long long)min, (unsigned long long)max);
}

xtm_num_status_t xtm_num_u64(const char *what, const char *s, uint64_t min, uint64_t max,
                             uint64_t *out, xtm_num_msg_t *msg) {
  char rng[48];
  range_u64(rng, sizeof(rng), min, max);
  if (s == NULL || *s == '\0') {
    return fail(msg, kXtmNumEmpty, what, s, "an integer", rng);
  }
  for (const char *p = s; *p != '\0'; p++) {
    if (!is_digit(*p)) {
      return fail(msg, kXtmNumSyntax, what, s, "an integer", rng);
    }
  }
  uint64_t v = 0;
  for (const char *p = s; *p != '\0'; p++) {
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10u) {
      return fail(msg, kXtmNumRange, what, s, "an integer", rng);
    }
    v = v * 10u + d;
  }
  if (v < min || v > max) {
    return fail(msg, kXtmNumRange, what, s, "an integer", rng);
  }
  *out = v;
  return kXtmNumOk;
}

xtm_num_status_t xtm_num_i64(const char *what, const char *s, int64_t min, int64_t max,
                             int64_t *out, xtm_num_msg_t *msg) {
  char rng[48];
  snprintf(rng, sizeof(rng), "%lld..%lld", (long long)min, (long long)max);
  if (s == NULL || *s == '\0') {
    return fail(msg, kXtmNumEmpty, what, s, "an integer", rng);
  }
  const char *p = s;
  bool neg = *p == '-';
  if (neg) {
    p++;
  }
  if (*p == '\0') {
    return fail(msg, kXtmNumSyntax, what, s, "an integer", rng);
  }
  for (const char *q = p; *q != '\0'; q++) {
    if (!is_digit(*q)) {
      return fail(msg, kXtmNumSyntax, what, s, "an integer", rng);
    }
  }
  const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
  uint64_t mag = 0;
  for (; *p != '\0'; p++) {
    uint64_t d = (uint64_t)(*p - '0');
    if (mag > (lim - d) / 10u) {
      return fail(msg, kXtmNumRange, what, s, "an integer", rng);
    }
    mag = mag * 10u + d;
  }
  int64_t v;
  if (neg) {
    v = mag == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)mag;
  } else {
    v = (int64_t)mag;
  }
  if (v < min || v > max) {
    return fail(msg, kXtmNumRange, what, s, "an integer", rng);
  }
  *out = v;
  return kXtmNumOk;
}

xtm_num_status_t xtm_num_fixed(const char *what, const char *s, unsigned decimals, uint64_t min,
                               uint64_t max, uint64_t *out, xtm_num_msg_t *msg) {
  char lo[32], hi[32], rng[80], kind[48], places[24];
  if (decimals > 9u) {
    decimals = 9u;  // a caller's mistake; 10^9 still leaves 64-bit headroom
  }
  fmt_fixed(lo, sizeof(lo), min, decimals);
  fmt_fixed(hi, sizeof(hi), max, decimals);
  snprintf(rng, sizeof(rng), "%s..%s", lo, hi);
  snprintf(kind, sizeof(kind), "a number with at most %u decimal%s", decimals,
           decimals == 1 ? "" : "s");
  snprintf(places, sizeof(places), "%u decimal%s", decimals, decimals == 1 ? "" : "s");
  if (decimals == 0) {
    snprintf(kind, sizeof(kind), "an integer");
  }
  if (s == NULL || *s == '\0') {
    return fail(msg, kXtmNumEmpty, what, s, kind, rng);
  }
  const char *p = s;
  size_t nint = 0;
  while (is_digit(p[nint])) {
    nint++;
  }
  const char *frac = NULL;
  size_t nfrac = 0;
  if (p[nint] == '.') {
    frac = p + nint + 1;
    while (is_digit(frac[nfrac])) {
      nfrac++;
    }
    if (frac[nfrac] != '\0' || nfrac == 0) {
      return fail(msg, kXtmNumSyntax, what, s, kind, rng);
    }
  } else if (p[nint] != '\0') {
    return fail(msg, kXtmNumSyntax, what, s, kind, rng);
  }
  if (nint == 0) {
    return fail(msg, kXtmNumSyntax, what, s, kind, rng);
  }
  // digits beyond `decimals` must be zeros (nothing is rounded away)
  for (size_t i = decimals; i < nfrac; i++) {
    if (frac[i] != '0') {
      return fail(msg, kXtmNumPrecision, what, s, places, rng);
    }
  }
  uint64_t v = 0;
  bool over = false;
  for (size_t i = 0; i < nint; i++) {
    uint64_t d = (uint64_t)(p[i] - '0');
    if (v > (UINT64_MAX - d) / 10u) {
      over = true;
      break;
    }
    v = v * 10u + d;
  }
  for (unsigned i = 0; i < decimals && !over; i++) {
    uint64_t d = i < nfrac ? (uint64_t)(frac[i] - '0') : 0u;
    if (v > (UINT64_MAX - d) / 10u) {
      over = true;
      break;
    }
    v = v * 10u + d;
  }
  if (over || v < min || v > max) {
    return fail(msg, kXtmNumRange, what, s, kind, rng);
  }
  *out = v;
  return kXtmNumOk;
}

xtm_num_status_t xtm_num_f64(const char *what, const char *s, double min, double max, double *out,
                             xtm_num_msg_t *msg) {
  char rng[80];
  snprintf(rng, sizeof(rng), "%.15g..%.15g", min, max);
  if (s == NULL || *s == '\0') {
    return fail(msg, kXtmNumEmpty, what, s, "a decimal number", rng);
  }
  const char *p = s;
  if (*p == '-') {
    p++;
  }
  // digits, then optionally '.' digits, then optionally e[+-] digits; every run non-empty
  p = digit_run(p);
  if (p != NULL && *p == '.') {
    p = digit_run(p + 1);
  }
  if (p != NULL && (*p == 'e' || *p == 'E')) {
    p++;
    if (*p == '+' || *p == '-') {
      p++;
    }
    p = digit_run(p);
  }
  if (p == NULL || *p != '\0') {
    return fail(msg, kXtmNumSyntax, what, s, "a decimal number", rng);
  }
  errno = 0;
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == NULL || *end != '\0') {
    return fail(msg, kXtmNumSyntax, what, s, "a decimal number", rng);  // not reached
  }
  if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
    return fail(msg, kXtmNumRange, what, s, "a decimal number", rng);
  }
  *out = v;
  return kXtmNumOk;
}
