// SPDX-License-Identifier: Apache-2.0
//
// Scenario files and family builders (docs/netsim.md section 4).

#define _POSIX_C_SOURCE 200809L

#include "sim/netsim/scenario.h"

#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "firmware/cos/xtm_cos.h"
#include "firmware/xtm_fw.h"
#include "tools/lib/xtm_num.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

// ------------------------------------------------------------------ loading (libinih)

// The file is read into memory first, bounded (NS_MAX_SCENARIO_BYTES), and checked for what
// libinih cannot report correctly: a line longer than its buffer would be split and the
// error reported on the next line, and a NUL byte would end the text early. Then libinih
// parses it from memory.
typedef struct load_ctx {
  ns_scenario_t *sc;
  const char *text;
  size_t pos, len;
  int line;
  char err[NS_ERR_LEN];
  int err_line;
} load_ctx_t;

static char *reader(char *str, int num, void *stream) {
  load_ctx_t *c = stream;
  if (c->pos >= c->len || num < 2) {
    return NULL;
  }
  size_t k = 0;
  while (k + 1 < (size_t)num && c->pos < c->len) {
    char ch = c->text[c->pos++];
    str[k++] = ch;
    if (ch == '\n') {
      break;
    }
  }
  str[k] = '\0';
  c->line++;
  return str;
}

static void fail_at(load_ctx_t *c, const char *fmt, ...) {
  if (c->err[0] != '\0') {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof(c->err), fmt, ap);
  va_end(ap);
  c->err_line = c->line;
}

bool ns_name_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= NS_KEY_LEN || s[0] == '.' || s[0] == '-') {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          ch == '.' || ch == '_' || ch == '-')) {
      return false;
    }
  }
  return true;
}

// A value may hold printable ASCII only (it is written into summaries, CSV stamps, plot
// titles and directory names).
static bool value_ok(const char *v) {
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p < 0x20 || *p > 0x7e) {
      return false;
    }
  }
  return true;
}

static int on_kv(void *user, const char *section, const char *name, const char *value) {
  load_ctx_t *c = user;
  ns_scenario_t *sc = c->sc;
  char q[80];
  if (strcmp(section, "scenario") == 0) {
    if (strcmp(name, "name") == 0) {
      if (!ns_name_ok(value)) {
        xtm_num_quote(q, sizeof(q), value);
        fail_at(c,
                "name '%s': a scenario name is 1..%d characters of A-Z a-z 0-9 . _ - "
                "(not starting with . or -)",
                q, NS_KEY_LEN - 1);
        return 0;
      }
      snprintf(sc->name, sizeof(sc->name), "%s", value);
    } else if (strcmp(name, "family") == 0) {
      if (!ns_name_ok(value)) {
        xtm_num_quote(q, sizeof(q), value);
        fail_at(c, "family '%s' is not a family name", q);
        return 0;
      }
      snprintf(sc->family, sizeof(sc->family), "%s", value);
    } else if (strcmp(name, "description") == 0) {
      if (strlen(value) >= NS_VAL_LEN || !value_ok(value)) {
        fail_at(c, "description: printable text of at most %d characters", NS_VAL_LEN - 1);
        return 0;
      }
      snprintf(sc->description, sizeof(sc->description), "%s", value);
    } else {
      xtm_num_quote(q, sizeof(q), name);
      fail_at(c, "unknown key '%s' in [scenario] (name, family, description)", q);
      return 0;
    }
    return 1;
  }
  if (strcmp(section, "params") != 0) {
    xtm_num_quote(q, sizeof(q), section);
    fail_at(c, "unknown section [%s] (expected [scenario] or [params])", q);
    return 0;
  }
  if (!ns_name_ok(name) || strchr(name, '-') != NULL || strchr(name, '.') != NULL) {
    xtm_num_quote(q, sizeof(q), name);
    fail_at(c, "key '%s': a key is 1..%d characters of A-Z a-z 0-9 _", q, NS_KEY_LEN - 1);
    return 0;
  }
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (strcmp(sc->kv[i].key, name) == 0) {
      fail_at(c, "duplicate key '%s' (first at line %d)", name, sc->kv[i].line);
      return 0;
    }
  }
  if (sc->nkv == NS_MAX_KEYS) {
    fail_at(c, "more than %d keys in [params]", NS_MAX_KEYS);
    return 0;
  }
  if (value[0] == '\0') {
    fail_at(c, "key '%s' has no value", name);
    return 0;
  }
  if (strlen(value) >= NS_VAL_LEN || !value_ok(value)) {
    xtm_num_quote(q, sizeof(q), value);
    fail_at(c, "%s: value '%s' is not printable text of at most %d characters", name, q,
            NS_VAL_LEN - 1);
    return 0;
  }
  ns_kv_t *kv = &sc->kv[sc->nkv++];
  snprintf(kv->key, sizeof(kv->key), "%s", name);
  snprintf(kv->val, sizeof(kv->val), "%s", value);
  kv->line = c->line;
  kv->overridden = false;
  return 1;
}

char *ns_read_bounded(const char *path, size_t max, size_t *len, char *err, size_t err_len) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    snprintf(err, err_len, "%s: is a directory, not a file", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  char *t = malloc(max + 2);
  if (t == NULL) {
    fclose(f);
    snprintf(err, err_len, "%s: out of memory", path);
    return NULL;
  }
  size_t n = fread(t, 1, max + 1, f);  // one byte more than allowed tells "too large"
  bool bad = ferror(f) != 0;
  fclose(f);
  if (bad) {
    snprintf(err, err_len, "%s: read error", path);
    free(t);
    return NULL;
  }
  if (n > max) {
    snprintf(err, err_len, "%s: larger than %zu bytes (not a scenario or configuration file?)",
             path, max);
    free(t);
    return NULL;
  }
  t[n] = '\0';
  *len = n;
  return t;
}

bool ns_scenario_load_text(const char *path, const char *text, size_t len, ns_scenario_t *sc,
                           char *err, size_t err_len) {
  memset(sc, 0, sizeof(*sc));
  snprintf(sc->path, sizeof(sc->path), "%s", path);
  if (strlen(path) >= sizeof(sc->path) || !value_ok(path)) {
    snprintf(err, err_len, "scenario path: printable text of at most %zu characters",
             sizeof(sc->path) - 1);
    return false;
  }
  // lines: no NUL byte, at most NS_MAX_LINE characters (libinih's buffer)
  int line = 1;
  size_t col = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\0') {
      snprintf(err, err_len, "%s:%d: a NUL byte (not a text file?)", path, line);
      return false;
    }
    if (text[i] == '\n') {
      line++;
      col = 0;
    } else if (++col > NS_MAX_LINE) {
      snprintf(err, err_len, "%s:%d: line longer than %d characters", path, line, NS_MAX_LINE);
      return false;
    }
  }
  load_ctx_t c = {.sc = sc, .text = text, .len = len};
  int rc = ini_parse_stream(reader, &c, on_kv, &c);
  if (rc != 0 || c.err[0] != '\0') {
    if (c.err[0] == '\0') {
      snprintf(c.err, sizeof(c.err), "syntax error (expected '[section]' or 'key = value')");
      c.err_line = rc;
    }
    snprintf(err, err_len, "%s:%d: %s", path, c.err_line > 0 ? c.err_line : rc, c.err);
    return false;
  }
  if (sc->family[0] == '\0') {
    snprintf(err, err_len, "%s:1: missing 'family' in [scenario]", path);
    return false;
  }
  if (sc->name[0] == '\0') {
    snprintf(sc->name, sizeof(sc->name), "%s", sc->family);
  }
  return true;
}

bool ns_scenario_load(const char *path, ns_scenario_t *sc, char *err, size_t err_len) {
  size_t len = 0;
  char *t = ns_read_bounded(path, NS_MAX_SCENARIO_BYTES, &len, err, err_len);
  if (t == NULL) {
    memset(sc, 0, sizeof(*sc));
    return false;
  }
  bool ok = ns_scenario_load_text(path, t, len, sc, err, err_len);
  free(t);
  return ok;
}

bool ns_scenario_set(ns_scenario_t *sc, const char *kv, char *err, size_t err_len) {
  char q[80];
  const char *eq = strchr(kv, '=');
  if (eq == NULL || eq == kv || eq[1] == '\0') {
    xtm_num_quote(q, sizeof(q), kv);
    snprintf(err, err_len, "--set '%s': expected key=value", q);
    return false;
  }
  size_t kl = (size_t)(eq - kv);
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (strlen(sc->kv[i].key) == kl && strncmp(sc->kv[i].key, kv, kl) == 0) {
      if (strlen(eq + 1) >= NS_VAL_LEN || !value_ok(eq + 1)) {
        xtm_num_quote(q, sizeof(q), eq + 1);
        snprintf(err, err_len,
                 "--set %s: value '%s' is not printable text of at most %d "
                 "characters",
                 sc->kv[i].key, q, NS_VAL_LEN - 1);
        return false;
      }
      snprintf(sc->kv[i].val, sizeof(sc->kv[i].val), "%s", eq + 1);
      sc->kv[i].overridden = true;
      return true;
    }
  }
  char keys[NS_ERR_LEN / 2] = "";
  for (uint32_t i = 0; i < sc->nkv; i++) {
    size_t n = strlen(keys);
    snprintf(keys + n, sizeof(keys) - n, "%s%s", i ? ", " : "", sc->kv[i].key);
  }
  char kq[NS_KEY_LEN + 8];
  snprintf(kq, sizeof(kq), "%.*s", (int)(kl < NS_KEY_LEN ? kl : NS_KEY_LEN), kv);
  xtm_num_quote(q, sizeof(q), kq);
  snprintf(err, err_len, "--set '%s': unknown key for scenario %s (keys: %s)", q, sc->name, keys);
  return false;
}

const char *ns_scenario_get(const ns_scenario_t *sc, const char *key) {
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (strcmp(sc->kv[i].key, key) == 0) {
      return sc->kv[i].val;
    }
  }
  return NULL;
}

// ------------------------------------------------------------------ typed access

typedef struct bctx {
  const ns_scenario_t *sc;
  char *err;
  size_t err_len;
  bool bad;
  bool write_failed;  // an output (a generated configuration) could not be written
} bctx_t;

static void berr(bctx_t *b, const char *key, const char *fmt, ...) {
  if (b->bad) {
    return;
  }
  b->bad = true;
  char msg[NS_ERR_LEN / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  int line = 0;
  bool ov = false;
  for (uint32_t i = 0; key != NULL && i < b->sc->nkv; i++) {
    if (strcmp(b->sc->kv[i].key, key) == 0) {
      line = b->sc->kv[i].line;
      ov = b->sc->kv[i].overridden;
    }
  }
  if (key != NULL && ov) {
    snprintf(b->err, b->err_len, "--set %s: %s", key, msg);
  } else if (key != NULL) {
    snprintf(b->err, b->err_len, "%s:%d: %s: %s", b->sc->path, line, key, msg);
  } else {
    snprintf(b->err, b->err_len, "%s: %s", b->sc->path, msg);
  }
}

// An error that depends on several keys: blamed on the one the user overrode when exactly
// one of them was (--set K: ...), else on all of them (--set K1, K2: ... or file:line: K1, K2).
static void berr_keys(bctx_t *b, const char *const *keys, const char *fmt, ...) {
  if (b->bad) {
    return;
  }
  char msg[NS_ERR_LEN / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  const char *ov[8];
  uint32_t nov = 0;
  int line = 0;
  for (const char *const *k = keys; *k; k++) {
    for (uint32_t i = 0; i < b->sc->nkv; i++) {
      if (strcmp(b->sc->kv[i].key, *k) == 0) {
        if (b->sc->kv[i].overridden && nov < 8) {
          ov[nov++] = *k;
        } else if (line == 0) {
          line = b->sc->kv[i].line;
        }
      }
    }
  }
  if (nov == 1) {
    berr(b, ov[0], "%s", msg);
    return;
  }
  char names[256] = "";
  const char *const *list = nov > 1 ? ov : keys;
  uint32_t n = nov > 1 ? nov : 0;
  if (nov <= 1) {
    while (keys[n] != NULL) {
      n++;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof(names) - l, "%s%s", i ? ", " : "", list[i]);
  }
  b->bad = true;
  if (nov > 1) {
    snprintf(b->err, b->err_len, "--set %s: %s", names, msg);
  } else {
    snprintf(b->err, b->err_len, "%s:%d: %s: %s", b->sc->path, line, names, msg);
  }
}

static const char *gstr(bctx_t *b, const char *key) {
  const char *v = ns_scenario_get(b->sc, key);
  if (v == NULL) {
    berr(b, NULL, "the %s family needs key '%s' in [params]", b->sc->family, key);
    return "";
  }
  return v;
}

// A file named by a key: a relative path written in the scenario file is taken relative to
// that file's directory (as an #include is), one given with --set relative to the working
// directory (as any command-line path); an absolute path as it is. Into buf; false (with
// an error) when the joined path does not fit.
static bool gpath(bctx_t *b, const char *key, char *buf, size_t size) {
  const char *v = gstr(b, key);
  const ns_kv_t *kv = NULL;
  for (uint32_t i = 0; i < b->sc->nkv; i++) {
    if (strcmp(b->sc->kv[i].key, key) == 0) {
      kv = &b->sc->kv[i];
    }
  }
  const char *slash = strrchr(b->sc->path, '/');
  int n;
  if (kv == NULL || kv->overridden || kv->line == 0 || v[0] == '/' || slash == NULL) {
    n = snprintf(buf, size, "%s", v);
  } else {
    n = snprintf(buf, size, "%.*s/%s", (int)(slash - b->sc->path), b->sc->path, v);
  }
  if (n < 0 || (size_t)n >= size) {
    berr(b, key, "'%s' relative to %s is a path longer than %zu characters", v, b->sc->path,
         size - 1);
    return false;
  }
  return true;
}

// Numbers go through the one strict parser of every tool (tools/lib/xtm_num.h): the whole
// value must be a decimal number of the asked kind inside the range (no hex floats, no
// "1.5" where an integer is meant, nothing truncated).
static double gnum(bctx_t *b, const char *key, double lo, double hi) {
  const char *v = gstr(b, key);
  if (b->bad) {
    return lo;
  }
  double d = lo;
  xtm_num_msg_t msg;
  if (xtm_num_f64(NULL, v, lo, hi, &d, &msg) != kXtmNumOk) {
    berr(b, key, "%s", msg.text);
    return lo;
  }
  return d;
}

static uint64_t gint(bctx_t *b, const char *key, uint64_t lo, uint64_t hi) {
  const char *v = gstr(b, key);
  if (b->bad) {
    return lo;
  }
  uint64_t x = lo;
  xtm_num_msg_t msg;
  if (xtm_num_u64(NULL, v, lo, hi, &x, &msg) != kXtmNumOk) {
    berr(b, key, "%s", msg.text);
    return lo;
  }
  return x;
}

static int64_t gsint(bctx_t *b, const char *key, int64_t lo, int64_t hi) {
  const char *v = gstr(b, key);
  if (b->bad) {
    return lo;
  }
  int64_t x = lo;
  xtm_num_msg_t msg;
  if (xtm_num_i64(NULL, v, lo, hi, &x, &msg) != kXtmNumOk) {
    berr(b, key, "%s", msg.text);
    return lo;
  }
  return x;
}

// One of a list of words.
static const char *gword(bctx_t *b, const char *key, const char *const *words) {
  const char *v = gstr(b, key);
  if (b->bad) {
    return words[0];
  }
  for (const char *const *w = words; *w; w++) {
    if (strcmp(*w, v) == 0) {
      return *w;
    }
  }
  char list[256] = "", q[80];
  for (const char *const *w = words; *w; w++) {
    size_t n = strlen(list);
    snprintf(list + n, sizeof(list) - n, "%s%s", w == words ? "" : (w[1] ? ", " : " or "), *w);
  }
  xtm_num_quote(q, sizeof(q), v);
  berr(b, key, "'%s' is not one of %s", q, list);
  return words[0];
}

static bool gbool(bctx_t *b, const char *key) {
  const char *v = gstr(b, key);
  if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
    return true;
  }
  if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
    return false;
  }
  char q[80];
  xtm_num_quote(q, sizeof(q), v);
  berr(b, key, "'%s' is not on/off", q);
  return false;
}

// Keys every family understands, and the family's own; anything else in [params] is an error.
static bool check_keys(bctx_t *b, const char *const *known) {
  static const char *const kCommon[] = {"seed", "duration_s", "sample_us", "ack_every", "rto_us",
                                        "mtu",  "interval_s", "warmup_s",  NULL};
  for (uint32_t i = 0; i < b->sc->nkv; i++) {
    bool ok = false;
    for (const char *const *k = kCommon; *k && !ok; k++) {
      ok = strcmp(*k, b->sc->kv[i].key) == 0;
    }
    for (const char *const *k = known; *k && !ok; k++) {
      ok = strcmp(*k, b->sc->kv[i].key) == 0;
    }
    if (!ok) {
      berr(b, b->sc->kv[i].key, "unknown key for family %s", b->sc->family);
      return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------ helpers

static double rtt_of_km(double km) {
  // measured 632 us at 50 km and 5179 us at 500 km, linear in between (shared brief);
  // the same rounding to 0.1 us as firmware/examples/gen-examples.py
  double us = 632.0 + (km - 50.0) * (5179.0 - 632.0) / 450.0;
  return floor(us * 10.0 + 0.5) / 10.0;
}

static bool save_text(bctx_t *b, const char *outdir, const char *name, const char *text) {
  if (outdir == NULL) {
    return true;
  }
  char p[1200];
  snprintf(p, sizeof(p), "%s/%s", outdir, name);
  FILE *f = fopen(p, "w");
  bool ok = f != NULL && fputs(text, f) >= 0;
  if (f != NULL && fclose(f) != 0) {
    ok = false;
  }
  if (!ok) {
    berr(b, NULL, "cannot write %s: %s", p, strerror(errno));
    b->write_failed = true;
  }
  return ok;
}

// Appends printf output to a growing buffer.
typedef struct sbuf {
  char *p;
  size_t n, cap;
  bool oom;
} sbuf_t;

static void sb(sbuf_t *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0 || s->oom) {
    s->oom = true;
    return;
  }
  if (s->n + (size_t)k + 1 > s->cap) {
    size_t nc = (s->cap + (size_t)k + 1) * 2;
    char *q = realloc(s->p, nc);
    if (q == NULL) {
      s->oom = true;
      return;
    }
    s->p = q;
    s->cap = nc;
  }
  va_start(ap, fmt);
  vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
  va_end(ap);
  s->n += (size_t)k;
}

// Compiles and programs a router; `blame` (may be NULL) is the key a port-speed mismatch
// between the configuration and the links is reported on.
static bool program(bctx_t *b, ns_sim_t *s, uint32_t router, const char *name, const char *text,
                    xtm_fw_dcqcn_cfg_t *dc, const char *outdir, const char *blame) {
  if (!save_text(b, outdir, name, text)) {
    return false;
  }
  char e[NS_ERR_LEN / 2];
  ns_status_t st = ns_router_program(s, router, name, text, dc, e, sizeof(e));
  if (st == kNsSpeed && blame != NULL) {
    berr(b, blame, "%s", e);
    return false;
  }
  if (st != kNsOk) {
    berr(b, NULL, "router configuration: %s", e);
    return false;
  }
  return true;
}

static bool program_nics(bctx_t *b, ns_sim_t *s, const xtm_fw_dcqcn_cfg_t *dc) {
  char e[NS_ERR_LEN / 2];
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind == kNsNodeNic && ns_nic_program_dcqcn(s, i, dc, e, sizeof(e)) != kNsOk) {
      berr(b, NULL, "%s", e);
      return false;
    }
  }
  return true;
}

// Keys of every family: the seed, the run length, the time series (bounded: at most
// NS_MAX_ROWS rows), the per-interval KPIs and the steady-state window, the RC knobs.
static void common(bctx_t *b, ns_sim_t *s, ns_measure_t *m, uint32_t *mtu) {
  m->seed = gint(b, "seed", 0, UINT64_MAX);
  double dur = gnum(b, "duration_s", 1e-6, 3600);
  m->end_ps = (uint64_t)llround(dur * 1e12);
  double su = gnum(b, "sample_us", 0, 3.6e9);
  m->sample_ps = (uint64_t)llround(su * 1e6);
  static const char *const kSample[] = {"sample_us", "duration_s", NULL};
  static const char *const kIval[] = {"interval_s", "duration_s", NULL};
  if (!b->bad && su > 0 && dur * 1e6 / su > NS_MAX_ROWS) {
    berr_keys(b, kSample,
              "%g us over %g s is %.0f rows of timeseries.csv, above the limit of "
              "%u (raise sample_us, or 0 for no time series)",
              su, dur, ceil(dur * 1e6 / su), NS_MAX_ROWS);
  }
  if (!b->bad && su > 0 && m->sample_ps == 0) {
    berr(b, "sample_us", "%g us is below one picosecond", su);
  }
  double iv = gnum(b, "interval_s", 1e-6, 3600);
  m->ival_ps = (uint64_t)llround(iv * 1e12);
  if (!b->bad && dur / iv > NS_MAX_ROWS) {
    berr_keys(b, kIval, "%g s over %g s is %.0f intervals, above the limit of %u", iv, dur,
              ceil(dur / iv), NS_MAX_ROWS);
  }
  double wu = gnum(b, "warmup_s", 0, 3600);
  m->warmup_ps = (uint64_t)llround(wu * 1e12);
  s->ack_every = gint(b, "ack_every", 1, 1u << 20);
  s->rto_ps = (uint64_t)llround(gnum(b, "rto_us", 1, 1e8) * 1e6);
  *mtu = (uint32_t)gint(b, "mtu", 64, 9000);
  m->victim_flow = UINT32_MAX;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void note(ns_measure_t *m, const char *fmt, ...) {
  size_t n = strlen(m->setup);
  if (n + 4 >= sizeof(m->setup)) {
    return;
  }
  if (n > 0) {
    snprintf(m->setup + n, sizeof(m->setup) - n, "; ");
    n += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->setup + n, sizeof(m->setup) - n, fmt, ap);
  va_end(ap);
}

// An override of a key the set-up does not use (it applies only when another key has a
// value): a warning and a note in the summary, so the outputs record what ran. A warning,
// not an error: a sweep applies one --set to runs of different set-ups.
static void unused_override(bctx_t *b, ns_measure_t *m, const char *key, const char *only) {
  for (uint32_t i = 0; i < b->sc->nkv; i++) {
    if (b->sc->kv[i].overridden && strcmp(b->sc->kv[i].key, key) == 0) {
      size_t n = strlen(m->warnings);
      snprintf(m->warnings + n, sizeof(m->warnings) - n,
               "--set %s: not used by this run (it applies only with %s)\n", key, only);
      note(m, "%s not used (only with %s)", key, only);
    }
  }
}

// The DCI router configuration in the form of firmware/examples/gen-examples.py (including
// its pfc-watchdog block), for any number of clients, buffer, thresholds and PFC xoff/xon.
static char *dci_config(uint32_t clients, double rtt, double buf_rtt, double kmin_rtt,
                        double kmax_rtt, uint32_t rpg_time_reset, double xoff_us, double xon_us,
                        double dci_gbps, double host_gbps, bool ramp, const char *dcqcn_extra) {
  sbuf_t s = {0};
  double kmin = 100.0 * kmin_rtt / buf_rtt, kmax = 100.0 * kmax_rtt / buf_rtt;
  sb(&s,
     "# Generated by xtm-netsim: %u clients, RTT %.1f us, buffer %.3f RTT, Kmin %.3f RTT "
     "(%.3f %%), Kmax %.3f RTT (%.3f %%), PFC xoff %.3f us xon %.3f us\n",
     clients, rtt, buf_rtt, kmin_rtt, kmin, kmax_rtt, kmax, xoff_us, xon_us);
  sb(&s,
     "class-of-service {\n forwarding-classes {\n  class best-effort queue-num 0;\n"
     "  class rdma-data queue-num 3 no-loss pfc-priority 3;\n  class cnp queue-num 6;\n }\n");
  sb(&s,
     " classifiers { dscp dci-dscp {\n  forwarding-class best-effort { loss-priority low "
     "code-points be; }\n  forwarding-class rdma-data { loss-priority low code-points 011010; }\n"
     "  forwarding-class cnp { loss-priority low code-points 110000; }\n } }\n");
  if (ramp) {  // piecewise linear from (Kmin, 1 %) to (Kmax, 100 %)
    sb(&s,
       " drop-profiles { dci-prof { interpolate {\n  fill-level [ %.3f %.3f ];\n  "
       "drop-probability [ 1 100 ];\n } } }\n",
       kmin, kmax > 100.0 ? 100.0 : kmax);
  } else {  // staircase: 1 % from Kmin, 100 % from Kmax (the testbed's Junos form)
    sb(&s,
       " drop-profiles { dci-prof {\n  fill-level %.3f drop-probability 1;\n  fill-level %.3f "
       "drop-probability 100;\n } }\n",
       kmin, kmax > 100.0 ? 100.0 : kmax);
  }
  sb(&s,
     " schedulers {\n  rdma-sched {\n   buffer-rate percent 100;\n   buffer-size temporal %.3f;\n"
     "   drop-profile-map loss-priority any protocol any drop-profile dci-prof;\n"
     "   explicit-congestion-notification;\n   ecn-enhanced { head-marking; }\n  }\n"
     "  cnp-sched { buffer-size temporal 100; priority strict-high; }\n"
     "  be-sched { transmit-rate percent 10; buffer-size temporal 1000; }\n }\n",
     buf_rtt * rtt);
  sb(&s,
     " scheduler-maps { dci-map {\n  forwarding-class best-effort scheduler be-sched;\n"
     "  forwarding-class rdma-data scheduler rdma-sched;\n  forwarding-class cnp scheduler "
     "cnp-sched;\n } }\n");
  sb(&s,
     " congestion-notification-profile { client-pfc { input {\n  pfc-account rdma { "
     "pfc-priority 3; xoff %.3f; xon %.3f; }\n  cable-length 100;\n  mtu 9216;\n } } }\n",
     xoff_us, xon_us);
  sb(&s, " interfaces {\n");
  for (uint32_t i = 0; i < clients; i++) {
    sb(&s,
       "  et-0/0/%u { speed %.0fg; congestion-notification-profile client-pfc; classifiers "
       "{ dscp dci-dscp; } }\n",
       i, host_gbps);
  }
  sb(&s, "  et-0/0/%u { speed %.0fg; scheduler-map dci-map; }\n }\n", clients, dci_gbps);
  sb(&s,
     " pfc-watchdog { poll-interval 100; detection 2; recovery-time 200; watchdog-action drop; "
     "}\n");
  sb(&s, " dcqcn {\n  RPG_MIN_DEC_FAC 95;\n  CLAMP_TGT_RATE 1;\n  RPG_TIME_RESET %u;\n%s }\n}\n",
     rpg_time_reset, dcqcn_extra);
  if (s.oom) {
    free(s.p);
    return NULL;
  }
  return s.p;
}

// ------------------------------------------------------------------ scale-across

// The set-up of one scale-across run, from its parameters; build_scale_across's steps
// share it.
typedef struct sa {
  double km, rtt, load, gbps, host_prop, spread_ms;
  uint32_t clients, qps, mtu, t;
  uint64_t msg, bps;
  bool dcqcn, rtt_given;
  const char *prof, *start, *pfcm, *shape, *dset;
  char dextra[512];                   // dcqcn_set as lines of the configuration's dcqcn block
  double buf, kmin, kmax, xoff, xon;  // buffer and ECN profile (RTTs), PFC thresholds (us)
  uint32_t r, rx, dl;                 // the router, the server NIC, the DCI link
  char conf[512];                     // the configuration's file name
} sa_t;

static bool sa_params(bctx_t *b, ns_sim_t *s, ns_measure_t *m, sa_t *a) {
  static const char *const kKeys[] = {"distance_km",    "rtt_us",       "clients",
                                      "load_bdp",       "profile",      "qps",
                                      "msg_bytes",      "dcqcn",        "link_gbps",
                                      "buffer_rtt",     "kmin_rtt",     "kmax_rtt",
                                      "host_prop_us",   "client_start", "start_spread_ms",
                                      "pfc_thresholds", "pfc_xoff_us",  "pfc_xon_us",
                                      "profile_shape",  "dcqcn_set",    NULL};
  static const char *const kShapes[] = {"staircase", "ramp", NULL};
  static const char *const kProfiles[] = {"final", "low-kmin", "deep-buffer", "custom", NULL};
  static const char *const kStarts[] = {"staggered", "sync", NULL};
  static const char *const kPfc[] = {"half-rtt", "ptx-default", "custom", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  common(b, s, m, &a->mtu);
  a->km = gnum(b, "distance_km", 0, 20000);
  a->rtt = gnum(b, "rtt_us", 0, 1e6);
  a->clients = (uint32_t)gint(b, "clients", 1, 12);
  a->load = gnum(b, "load_bdp", 0, 100);
  a->prof = gword(b, "profile", kProfiles);
  a->qps = (uint32_t)gint(b, "qps", 1, 256);
  a->msg = gint(b, "msg_bytes", 1, 1000000000);
  a->dcqcn = gbool(b, "dcqcn");
  a->gbps = gnum(b, "link_gbps", 1e-3, 800);
  a->host_prop = gnum(b, "host_prop_us", 0, 1e6);
  a->start = gword(b, "client_start", kStarts);
  a->spread_ms = gnum(b, "start_spread_ms", 0, 3.6e6);
  a->pfcm = gword(b, "pfc_thresholds", kPfc);
  a->shape =
      ns_scenario_get(b->sc, "profile_shape") ? gword(b, "profile_shape", kShapes) : "staircase";
  return !b->bad;
}

// dcqcn_set: "none" or NAME=VALUE[,NAME=VALUE...]: DCQCN parameters (mlxconfig names, integer
// values) that replace or add to the configuration's dcqcn block (the sensitivity report)
static bool sa_dcqcn_set(bctx_t *b, sa_t *a) {
  a->dextra[0] = '\0';
  a->dset = ns_scenario_get(b->sc, "dcqcn_set");
  if (a->dset == NULL || strcmp(a->dset, "none") == 0) {
    return true;
  }
  char buf[NS_VAL_LEN];
  snprintf(buf, sizeof(buf), "%s", a->dset);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    bool name_ok = eq != NULL && eq != tok;
    for (char *q = tok; name_ok && q < eq; q++) {
      name_ok = (*q >= 'A' && *q <= 'Z') || *q == '_';
    }
    uint64_t v = 0;
    xtm_num_msg_t msg;
    if (!name_ok) {
      char q[80];
      xtm_num_quote(q, sizeof(q), tok);
      berr(b, "dcqcn_set", "'%s' is not NAME=VALUE (an mlxconfig name in capitals)", q);
      return false;
    }
    *eq = '\0';
    if (xtm_num_u64(NULL, eq + 1, 0, 1000000, &v, &msg) != kXtmNumOk) {
      berr(b, "dcqcn_set", "%s: %s", tok, msg.text);
      return false;
    }
    size_t n = strlen(a->dextra);
    snprintf(a->dextra + n, sizeof(a->dextra) - n, "  %s %" PRIu64 ";\n", tok, v);
  }
  return true;
}

// the window, the RTT (given, or from the distance) and what they must allow
static bool sa_path(bctx_t *b, sa_t *a) {
  if (a->load <= 0) {
    berr(b, "load_bdp", "an empty window (load_bdp must be > 0)");
    return false;
  }
  a->rtt_given = a->rtt != 0;
  if (!a->rtt_given) {
    if (a->km < 1) {
      berr(b, "distance_km", "%g km: give distance_km >= 1 or rtt_us", a->km);
      return false;
    }
    a->rtt = rtt_of_km(a->km);
  }
  if (a->rtt / 2 <= a->host_prop) {
    static const char *const kK[] = {"host_prop_us", "rtt_us", "distance_km", NULL};
    berr_keys(b, kK, "the host cable (%g us one way) is not shorter than half the RTT (%.1f us)",
              a->host_prop, a->rtt);
    return false;
  }
  if (a->clients * a->qps > DCQCN_MAX_QPS) {
    static const char *const kK[] = {"clients", "qps", NULL};
    berr_keys(b, kK, "%u clients x %u QPs is above the server NIC's %u QPs", a->clients, a->qps,
              DCQCN_MAX_QPS);
    return false;
  }
  return true;
}

// the buffer and ECN profile, then the PFC thresholds per client port
static bool sa_profile(bctx_t *b, ns_measure_t *m, sa_t *a) {
  // the keys of profile=custom and pfc_thresholds=custom are checked whatever the profile (a
  // careless value is refused, not ignored); an override of them that does not apply is
  // warned about (unused_override)
  double cbuf = 2.5, ckmin = 0.75, ckmax = 1.5, cxoff = 0, cxon = 0;
  if (ns_scenario_get(b->sc, "buffer_rtt") != NULL) {
    cbuf = gnum(b, "buffer_rtt", 1e-4, 1000);
  }
  if (ns_scenario_get(b->sc, "kmin_rtt") != NULL) {
    ckmin = gnum(b, "kmin_rtt", 0, 1000);
  }
  if (ns_scenario_get(b->sc, "kmax_rtt") != NULL) {
    ckmax = gnum(b, "kmax_rtt", 0, 1000);
  }
  if (ns_scenario_get(b->sc, "pfc_xoff_us") != NULL) {
    cxoff = gnum(b, "pfc_xoff_us", 0.001, 1e6);
  }
  if (ns_scenario_get(b->sc, "pfc_xon_us") != NULL) {
    cxon = gnum(b, "pfc_xon_us", 0, 1e6);
  }
  if (b->bad) {
    return false;
  }
  if (strcmp(a->prof, "custom") != 0) {
    unused_override(b, m, "buffer_rtt", "profile=custom");
    unused_override(b, m, "kmin_rtt", "profile=custom");
    unused_override(b, m, "kmax_rtt", "profile=custom");
  }
  if (strcmp(a->pfcm, "custom") != 0) {
    unused_override(b, m, "pfc_xoff_us", "pfc_thresholds=custom");
    unused_override(b, m, "pfc_xon_us", "pfc_thresholds=custom");
  }
  a->buf = 2.5;
  a->kmin = 0.75;
  a->kmax = 1.5;
  if (strcmp(a->prof, "low-kmin") == 0) {
    a->kmin = 0.25;
    a->kmax = 1.0;
  } else if (strcmp(a->prof, "deep-buffer") == 0) {
    a->buf = 10;
    a->kmin = 0.8;
    a->kmax = 1.5;
  } else if (strcmp(a->prof, "custom") == 0) {
    (void)gstr(b, "buffer_rtt");  // the three are needed with profile=custom
    (void)gstr(b, "kmin_rtt");
    (void)gstr(b, "kmax_rtt");
    a->buf = cbuf;
    a->kmin = ckmin;
    a->kmax = ckmax;
    if (b->bad) {
      return false;
    }
    if (!(a->kmin < a->kmax)) {
      static const char *const kK[] = {"kmin_rtt", "kmax_rtt", NULL};
      berr_keys(b, kK, "Kmin %g RTT is not below Kmax %g RTT", a->kmin, a->kmax);
      return false;
    }
  }
  // PFC thresholds per client port: the project's assumption (0.5 / 0.375 RTT), the PTX
  // defaults of the brief (5000 / 3750 us), or given
  a->xoff = 0.5 * a->rtt;
  a->xon = 0.375 * a->rtt;
  if (strcmp(a->pfcm, "ptx-default") == 0) {
    a->xoff = 5000;
    a->xon = 3750;
  } else if (strcmp(a->pfcm, "custom") == 0) {
    (void)gstr(b, "pfc_xoff_us");  // both needed with pfc_thresholds=custom
    (void)gstr(b, "pfc_xon_us");
    a->xoff = cxoff;
    a->xon = cxon;
    if (b->bad) {
      return false;
    }
  }
  return true;
}

// the window t (messages per QP), then the router, the NICs and the links
static bool sa_topology(bctx_t *b, ns_sim_t *s, sa_t *a) {
  a->bps = (uint64_t)llround(a->gbps * 1e9);
  double bdp = (double)a->bps / 8.0 * a->rtt * 1e-6;
  a->t = (uint32_t)floor(a->load * bdp / ((double)a->qps * (double)a->msg) + 0.5);
  if (a->t == 0) {
    static const char *const kK[] = {"load_bdp",    "link_gbps", "qps", "msg_bytes",
                                     "distance_km", "rtt_us",    NULL};
    berr_keys(b, kK,
              "the window load_bdp x BDP / (qps x msg_bytes) = %g x %.0f B / (%u x %" PRIu64
              " B) rounds to t = 0 messages per QP",
              a->load, bdp, a->qps, a->msg);
    return false;
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = a->clients + 1;
  p.num_desc = 1u << 20;
  if (ns_add_router(s, "dci", &p, &a->r) != kNsOk ||
      ns_add_nic(s, "server", a->dcqcn ? a->clients * a->qps : 0, &a->rx) != kNsOk) {
    berr(b, NULL, "cannot create the router or the server NIC");
    return false;
  }
  uint64_t hp = (uint64_t)llround(a->host_prop * 1e6);
  uint64_t dci_prop = (uint64_t)llround((a->rtt / 2 - a->host_prop) * 1e6);
  for (uint32_t c = 0; c < a->clients; c++) {
    char nm[32];
    snprintf(nm, sizeof(nm), "client%u", c);
    uint32_t id;
    if (ns_add_nic(s, nm, a->dcqcn ? a->qps : 0, &id) != kNsOk ||
        ns_connect(s, id, 0, a->r, c, a->bps, hp, NULL) != kNsOk) {
      berr(b, NULL, "cannot create client %u", c);
      return false;
    }
  }
  if (ns_connect(s, a->r, a->clients, a->rx, 0, a->bps, dci_prop, &a->dl) != kNsOk ||
      ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the links");
    return false;
  }
  snprintf(s->links[a->dl].name, sizeof(s->links[a->dl].name), "dci (router port %u -> server)",
           a->clients);
  return true;
}

// configuration: the example file of firmware/examples when one matches exactly, else the
// same generated; compiled and programmed into the router and the NICs
static bool sa_program(bctx_t *b, ns_sim_t *s, sa_t *a, const char *outdir) {
  char path[512];
  snprintf(path, sizeof(path), "firmware/examples/dci-%gkm-%s.conf", a->km, a->prof);
  char *text = NULL;
  bool ramp = strcmp(a->shape, "ramp") == 0;
  bool example = a->clients == 4 && a->bps == 100000000000ull && !a->rtt_given &&
                 strcmp(a->prof, "custom") != 0 && strcmp(a->pfcm, "half-rtt") == 0 && !ramp &&
                 a->dextra[0] == '\0';
  if (example) {
    size_t len;
    char e[NS_ERR_LEN / 2];
    text = ns_read_bounded(path, NS_MAX_SCENARIO_BYTES, &len, e, sizeof(e));
  }
  if (text == NULL) {
    snprintf(path, sizeof(path), "dci-generated.conf");
    text = dci_config(a->clients, a->rtt, a->buf, a->kmin, a->kmax, a->km > 400 ? 7000 : 5000,
                      a->xoff, a->xon, a->gbps, a->gbps, ramp, a->dextra);
  }
  xtm_fw_dcqcn_cfg_t dc;
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(a->conf, sizeof(a->conf), "%s", base);
  bool ok = text != NULL && program(b, s, a->r, a->conf, text, &dc, outdir, "link_gbps") &&
            program_nics(b, s, &dc);
  free(text);
  return ok;
}

// Start: staggered (the testbed's automation launched the ib_write_bw clients one by one,
// docs/netsim.md 4): client c starts at c x start_spread_ms; sync: all at 0. The QPs of
// one client start within 10 us of its start (seeded).
static bool sa_flows(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const sa_t *a) {
  bool stag = strcmp(a->start, "staggered") == 0;
  uint64_t spread_ps = (uint64_t)llround(a->spread_ms * 1e9);
  uint64_t rng = m->seed;
  for (uint32_t c = 0; c < a->clients; c++) {
    for (uint32_t q = 0; q < a->qps; q++) {
      ns_flow_t f = {.src = (uint16_t)(2 + c),
                     .dst = (uint16_t)a->rx,
                     .dscp = 26,
                     .prio = 3,
                     .mtu = a->mtu,
                     .msg_bytes = a->msg,
                     .window_msgs = a->t,
                     .start_ps = (stag ? c * spread_ps : 0) + splitmix(&rng) % (10 * NS_PS_PER_US)};
      snprintf(f.name, sizeof(f.name), "client%u.qp%u", c, q);
      snprintf(f.group, sizeof(f.group), "client%u", c);
      if (ns_add_flow(s, &f, NULL) != kNsOk) {
        berr(b, "mtu", "flow refused (mtu %u)", a->mtu);
        return false;
      }
    }
  }
  note(m, "client_start %s%s", a->start, stag ? "" : " (all QPs within 10 us)");
  if (stag) {
    note(m, "client c starts at c x %g ms", a->spread_ms);
  }
  return true;
}

static bool build_scale_across(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  sa_t a = {0};
  if (!sa_params(b, s, m, &a) || !sa_dcqcn_set(b, &a) || !sa_path(b, &a) || !sa_profile(b, m, &a) ||
      !sa_topology(b, s, &a) || !sa_program(b, s, &a, outdir) || !sa_flows(b, s, m, &a)) {
    return false;
  }
  note(m, "PFC %s: xoff %.3f us, xon %.3f us per client port%s", a.pfcm, a.xoff, a.xon,
       strcmp(a.pfcm, "half-rtt") == 0 ? " (the project's assumption, not the testbed's)" : "");
  if (strcmp(a.shape, "ramp") == 0 || a.dextra[0] != '\0') {
    note(m, "ECN profile %s%s%s", a.shape, a.dextra[0] ? ", dcqcn_set " : "",
         a.dextra[0] ? a.dset : "");
  }
  note(m, "configuration %s", a.conf);
  note(m, "t = %u messages of %" PRIu64 " B per QP, %u QPs per client", a.t, a.msg, a.qps);
  m->bottleneck_router = a.r;
  m->bottleneck_port = a.clients;
  m->bottleneck_link = a.dl;
  m->rtt_us = a.rtt;
  return true;
}

// ------------------------------------------------------------------ deep-buffer-sweep

// deep-buffer-sweep's router configuration (Junos text) compiled and programmed into the
// switch r and the NICs
static bool db_program(bctx_t *b, ns_sim_t *s, uint32_t r, const char *outdir, double km,
                       double rtt, double bufb, double bdp, double lg, double sg, double kmin,
                       double kmax) {
  double buf_us = bufb * rtt;
  sbuf_t c = {0};
  sb(&c,
     "# Generated by xtm-netsim: deep-buffer-sweep, %g km, RTT %.1f us, buffer %g BDP = %.3f us "
     "at %g Gb/s (%.0f bytes), ECN %g..%g %%, lossy (no PFC)\n",
     km, rtt, bufb, buf_us, lg, bufb * bdp, kmin, kmax);
  sb(&c,
     "class-of-service {\n forwarding-classes { class best-effort queue-num 0; class rdma "
     "queue-num 3; class cnp queue-num 6; }\n classifiers { dscp d { forwarding-class rdma { "
     "loss-priority low code-points 011010; } forwarding-class cnp { loss-priority low "
     "code-points 110000; } } }\n drop-profiles { p { fill-level %.3f drop-probability 1; "
     "fill-level %.3f drop-probability 100; } }\n",
     kmin, kmax);
  sb(&c,
     " schedulers { rs { buffer-rate percent 100; buffer-size temporal %.3f; drop-profile-map "
     "loss-priority any protocol any drop-profile p; explicit-congestion-notification; } cs { "
     "priority strict-high; } bs { transmit-rate percent 10; } }\n",
     buf_us < 0.001 ? 0.001 : buf_us);
  sb(&c,
     " scheduler-maps { m { forwarding-class best-effort scheduler bs; forwarding-class rdma "
     "scheduler rs; forwarding-class cnp scheduler cs; } }\n interfaces { et-0/0/0 { speed "
     "%gg; classifiers { dscp d; } } et-0/0/1 { speed %gg; scheduler-map m; } }\n dcqcn { "
     "RPG_MIN_DEC_FAC 50; }\n}\n",
     sg, lg);
  xtm_fw_dcqcn_cfg_t dc;
  bool ok = !c.oom && c.p != NULL &&
            program(b, s, r, "deep-buffer-generated.conf", c.p, &dc, outdir, "sender_gbps") &&
            program_nics(b, s, &dc);
  free(c.p);
  return ok;
}

// transport = tcp (docs/netsim.md 2.2): tcp_flows parallel flows (default 1) stripe the
// message, bytes / N each (the first ones one byte more); tcp_cc cubic (default, HyStart++ on)
// or bbr; tcp_min_rto_ms the minimum RTO (default 200, Linux's); window clamp and receive
// buffer 4 BDP (at least 64 segments); seeds seed + i.
typedef struct db_tcp {
  const char *cc;
  uint64_t n;
  double rto_ms;
} db_tcp_t;

// The TCP keys, read and checked whatever the transport (a bad value is an error even when
// transport is not tcp).
static db_tcp_t db_tcp_keys(bctx_t *b) {
  static const char *const kCc[] = {"cubic", "bbr", NULL};
  db_tcp_t k = {"cubic", 1, 200};
  if (ns_scenario_get(b->sc, "tcp_cc") != NULL) {
    k.cc = gword(b, "tcp_cc", kCc);
  }
  if (ns_scenario_get(b->sc, "tcp_flows") != NULL) {
    k.n = gint(b, "tcp_flows", 1, 256);
  }
  if (ns_scenario_get(b->sc, "tcp_min_rto_ms") != NULL) {
    k.rto_ms = gnum(b, "tcp_min_rto_ms", 0.001, 60000);
  }
  return k;
}

static bool db_tcp_flows(bctx_t *b, ns_sim_t *s, ns_measure_t *m, ns_flow_t *f, double bdp,
                         const db_tcp_t *k) {
  const char *cc = k->cc;
  uint64_t n = k->n;
  double rto_ms = k->rto_ms;
  uint64_t total = f->total_bytes;
  if (total < n) {
    berr(b, "tcp_flows", "%" PRIu64 " flows cannot share a message of %" PRIu64 " bytes", n, total);
    return false;
  }
  f->transport = kNsTransportTcp;
  tcp_params_default(&f->tcp_params);
  f->tcp_params.cc = strcmp(cc, "bbr") == 0 ? kTcpCcBbr : kTcpCcCubic;
  f->tcp_params.min_rto_ps = (uint64_t)llround(rto_ms * 1e9);
  double segs = ceil(4.0 * bdp / f->mtu);
  f->tcp_params.max_cwnd = (uint32_t)(segs < 64 ? 64 : segs > (1u << 22) ? (1u << 22) : segs);
  f->tcp_params.rcv_buf_bytes = (uint64_t)f->tcp_params.max_cwnd * f->mtu;
  if ((double)n * f->tcp_params.max_cwnd > (double)(1u << 22)) {  // about 0.5 GB of state
    static const char *const kK[] = {"tcp_flows", "distance_km", NULL};
    berr_keys(b, kK,
              "%" PRIu64
              " flows x a window of 4 BDP (%u segments) is above the limit of %u "
              "segments of TCP state",
              n, f->tcp_params.max_cwnd, 1u << 22);
    return false;
  }
  for (uint64_t i = 0; i < n; i++) {
    ns_flow_t g = *f;
    g.total_bytes = g.msg_bytes = total / n + (i < total % n ? 1 : 0);
    g.tcp_params.seed = (uint32_t)(m->seed + i);
    snprintf(g.name, sizeof(g.name), n == 1 ? "message" : "message.%" PRIu64, i);
    snprintf(g.group, sizeof(g.group), "sender");
    if (ns_add_flow(s, &g, NULL) != kNsOk) {
      berr(b, "mtu", "TCP flow refused");
      return false;
    }
  }
  note(m, "transport tcp: %s, %" PRIu64 " parallel flow%s, SACK, pacing (docs/netsim.md 2.2)", cc,
       n, n == 1 ? "" : "s");
  return true;
}

static bool build_deep_buffer(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"distance_km", "buffer_bdp", "message_mb",     "dcqcn",
                                      "sender_gbps", "kmin_pct",   "kmax_pct",       "transport",
                                      "tcp_cc",      "tcp_flows",  "tcp_min_rto_ms", NULL};
  static const char *const kTransports[] = {"roce", "uet", "tcp", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  uint32_t mtu;
  common(b, s, m, &mtu);
  double km = gnum(b, "distance_km", 0, 20000);
  double bufb = gnum(b, "buffer_bdp", 0, 1000);
  double mb = gnum(b, "message_mb", 0, 100000);
  bool dcqcn = gbool(b, "dcqcn");
  double sg = gnum(b, "sender_gbps", 1, 800);
  double kmin = gnum(b, "kmin_pct", 0, 100);
  double kmax = gnum(b, "kmax_pct", 0, 100);
  const char *tr =
      ns_scenario_get(b->sc, "transport") != NULL ? gword(b, "transport", kTransports) : "roce";
  db_tcp_t tk = db_tcp_keys(b);
  if (b->bad) {
    return false;
  }
  bool uet = strcmp(tr, "uet") == 0, tcp = strcmp(tr, "tcp") == 0;
  if (bufb <= 0 || mb <= 0) {
    berr(b, bufb <= 0 ? "buffer_bdp" : "message_mb", "must be > 0");
    return false;
  }
  if (km <= 0) {
    berr(b, "distance_km", "%g km: the long-haul link needs a positive length", km);
    return false;
  }
  if (!(kmin < kmax)) {
    static const char *const kK[] = {"kmin_pct", "kmax_pct", NULL};
    berr_keys(b, kK, "Kmin %g %% is not below Kmax %g %%", kmin, kmax);
    return false;
  }
  double lg = sg / 2;  // the long-haul link runs at half the sender port rate (2:1)
  double rtt = 2.0 * (5.0 * km + 1.0);  // 5 us/km one way plus 1 us of host links per way
  double bdp = lg * 1e9 / 8 * rtt * 1e-6;
  if (bufb * bdp < (double)(mtu + NS_HDR_BYTES)) {
    berr(b, "buffer_bdp",
         "%g BDP is %.0f bytes at %g km, below one %u-byte frame: every "
         "frame would be dropped",
         bufb, bufb * bdp, km, mtu + NS_HDR_BYTES);
    return false;
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_desc = 1u << 20;
  uint32_t r, tx, rx;
  if (ns_add_router(s, "sw", &p, &r) != kNsOk ||
      ns_add_nic(s, "sender", (dcqcn && !uet && !tcp) ? 1 : 0, &tx) != kNsOk ||
      ns_add_nic(s, "receiver", (dcqcn && !uet && !tcp) ? 1 : 0, &rx) != kNsOk) {
    berr(b, NULL, "cannot create nodes");
    return false;
  }
  uint32_t dl;
  if (ns_connect(s, tx, 0, r, 0, (uint64_t)llround(sg * 1e9), NS_PS_PER_US, NULL) != kNsOk ||
      ns_connect(s, r, 1, rx, 0, (uint64_t)llround(lg * 1e9), (uint64_t)llround(5.0 * km * 1e6),
                 &dl) != kNsOk ||
      ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the links");
    return false;
  }
  snprintf(s->links[dl].name, sizeof(s->links[dl].name), "long-haul (sw port 1 -> receiver)");
  if (!db_program(b, s, r, outdir, km, rtt, bufb, bdp, lg, sg, kmin, kmax)) {
    return false;
  }
  uint64_t bytes = (uint64_t)llround(mb * 1e6);
  ns_flow_t f = {.src = (uint16_t)tx,
                 .dst = (uint16_t)rx,
                 .dscp = 26,
                 .prio = 3,
                 .mtu = mtu,
                 .msg_bytes = bytes,
                 .window_msgs = 1,
                 .total_bytes = bytes};
  if (tcp) {
    if (!db_tcp_flows(b, s, m, &f, bdp, &tk)) {
      return false;
    }
  } else if (uet) {
    f.transport = kNsTransportUet;
    f.uet_base_rtt_ps = (uint64_t)llround(rtt * 1e6);
    f.uet_bdp_bytes = (uint64_t)llround(bdp);
    f.uet_line_bps = (uint64_t)llround(sg * 1e9);
    note(m,
         "transport uet: NSCC congestion control, selective retransmission (docs/netsim.md 2.1)");
  } else {
    note(m, "transport roce: RC go-back-N%s", dcqcn ? ", DCQCN" : ", no congestion control");
  }
  snprintf(f.name, sizeof(f.name), "message");
  snprintf(f.group, sizeof(f.group), "sender");
  if (!tcp && ns_add_flow(s, &f, NULL) != kNsOk) {
    berr(b, "mtu", "flow refused");
    return false;
  }
  m->bottleneck_router = r;
  m->bottleneck_port = 1;
  m->bottleneck_link = dl;
  m->rtt_us = rtt;
  return true;
}

// ------------------------------------------------------------------ pfc-victim

// Switch set-ups (docs/netsim.md 4.3). express5: the project's Express5/ConnectX mode
// (percent-of-buffer ECN profile marked at enqueue, static XOFF, compiler headroom, ConnectX
// DCQCN). hpcc: the HPCC ns-3 simulator's shared-buffer switch and DCQCN NIC as its public
// configuration sets them (alibaba-edu/High-Precision-Congestion-Control, simulation/run.py,
// scratch/third.cc, src/point-to-point/model/switch-mmu.cc): ECN decided at dequeue from a
// RED ramp on the egress queue's bytes (Kmin 4 KB and Kmax 16 KB per Gb/s of the port,
// Pmax 0.2), a dynamic PFC threshold of 1/8 of the free shared buffer with a 3 KB resume
// offset, headroom 3 x the link's one-way BDP per port, PAUSE that holds until resumed;
// DCQCN alpha every 1 us, cut check every 4 us, increase timer 300 us, g = 1/256, AI 5 and
// HAI 50 Mb/s per 25 Gb/s, minimum rate 1000 Mb/s, no target clamp, ACK per packet, and a
// window of the largest BDP.
// The set-up of one pfc-victim run, from its parameters; build_pfc_victim's steps share it.
typedef struct pv {
  const char *run, *mode;
  double bmib, mb, gbps, dly;
  bool dcqcn, hpcc, alone;
  uint32_t mtu, vprio;
  int senders;
  uint64_t bps, prop;  // link rate (b/s) and propagation delay (ps)
  uint32_t A, B, S, VS, R, VR, sid[8];
  double buf_us, cable_m;  // buffer-size in us of the port rate; cable length, m
  uint64_t hdrm_bits;      // the compiler's PFC headroom of a PG
  // hpcc: headroom 3 x one-way BDP of the port's link, 4 KB reserve per port (switch-mmu.cc)
  double hpcc_hdrm, hpcc_kmin, hpcc_kmax, hpcc_pmax;
} pv_t;

// the parameters of the run and what follows from them
static bool pv_params(bctx_t *b, ns_sim_t *s, ns_measure_t *m, pv_t *v) {
  static const char *const kKeys[] = {"run",           "buffer_mib",  "dcqcn",
                                      "extra_senders", "flow_mb",     "link_gbps",
                                      "delay_us",      "switch_mode", NULL};
  static const char *const kRuns[] = {"alone", "big-buffer", "pfc", "other-priority", NULL};
  static const char *const kModes[] = {"express5", "hpcc", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  common(b, s, m, &v->mtu);
  v->run = gword(b, "run", kRuns);
  v->bmib = gnum(b, "buffer_mib", 0, 65536);
  v->dcqcn = gbool(b, "dcqcn");
  int extra = (int)gsint(b, "extra_senders", -1, 8);
  v->mb = gnum(b, "flow_mb", 0, 1e6);
  v->gbps = gnum(b, "link_gbps", 0, 800);
  v->dly = gnum(b, "delay_us", -1e9, 1e6);
  v->mode =
      ns_scenario_get(b->sc, "switch_mode") != NULL ? gword(b, "switch_mode", kModes) : "express5";
  if (b->bad) {
    return false;
  }
  v->hpcc = strcmp(v->mode, "hpcc") == 0;
  if (v->gbps <= 0) {
    berr(b, "link_gbps", "a zero link rate");
    return false;
  }
  if (v->dly < 0) {
    berr(b, "delay_us", "a negative delay");
    return false;
  }
  if (v->mb <= 0) {
    berr(b, "flow_mb", "an empty flow");
    return false;
  }
  v->vprio = 3;
  v->senders = 6;
  v->alone = strcmp(v->run, "alone") == 0;
  if (v->alone) {
    v->senders = 0;
    v->bmib = v->bmib == 0 ? 32 : v->bmib;
  } else if (strcmp(v->run, "big-buffer") == 0) {
    v->bmib = v->bmib == 0 ? 32 : v->bmib;
  } else if (strcmp(v->run, "pfc") == 0) {
    v->bmib = v->bmib == 0 ? 1 : v->bmib;
  } else {
    v->bmib = v->bmib == 0 ? 1 : v->bmib;
    v->vprio = 1;
  }
  if (extra >= 0 && v->alone && extra > 0) {
    berr(b, "extra_senders", "run=alone is the victim by itself (no incast senders)");
    return false;
  }
  if (extra >= 0 && !v->alone) {
    v->senders = extra;
  }
  v->bps = (uint64_t)llround(v->gbps * 1e9);
  v->prop = (uint64_t)llround(v->dly * 1e6);
  return true;
}

// A: port 1 S, port 2 VS, port 3 -> B.  B: port 1 R, port 2 VR, port 3 A, ports 4.. S1..Sn
static bool pv_topology(bctx_t *b, ns_sim_t *s, pv_t *v) {
  uint32_t buf_cells = (uint32_t)(v->bmib * 1048576.0 / 256.0);
  xtm_params_t pa, pb;
  xtm_params_default(&pa);
  pa.num_ports = 4;
  pa.ocb_cells = buf_cells;
  pa.hbm_cells = 0;
  pa.num_desc = 1u << 16;
  pb = pa;
  pb.num_ports = (uint32_t)(4 + (v->senders > 0 ? v->senders : 0));
  if (ns_add_router(s, "A", &pa, &v->A) != kNsOk || ns_add_router(s, "B", &pb, &v->B) != kNsOk) {
    berr(b, "buffer_mib", "cannot create the switches with %g MiB", v->bmib);
    return false;
  }
  uint32_t nq = v->dcqcn ? 16 : 0;
  const uint64_t bps = v->bps, prop = v->prop;
  bool ok = ns_add_nic(s, "S", nq, &v->S) == kNsOk && ns_add_nic(s, "VS", nq, &v->VS) == kNsOk &&
            ns_add_nic(s, "R", nq, &v->R) == kNsOk && ns_add_nic(s, "VR", nq, &v->VR) == kNsOk &&
            ns_connect(s, v->S, 0, v->A, 1, bps, prop, NULL) == kNsOk &&
            ns_connect(s, v->VS, 0, v->A, 2, bps, prop, NULL) == kNsOk &&
            ns_connect(s, v->A, 3, v->B, 3, bps, prop, NULL) == kNsOk &&
            ns_connect(s, v->B, 1, v->R, 0, bps, prop, NULL) == kNsOk &&
            ns_connect(s, v->B, 2, v->VR, 0, bps, prop, NULL) == kNsOk;
  for (int i = 0; ok && i < v->senders; i++) {
    char nm[8];
    snprintf(nm, sizeof(nm), "S%d", i + 1);
    ok = ns_add_nic(s, nm, nq, &v->sid[i]) == kNsOk &&
         ns_connect(s, v->sid[i], 0, v->B, (uint32_t)(4 + i), bps, prop, NULL) == kNsOk;
  }
  if (!ok || ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the topology");
    return false;
  }
  return true;
}

// PFC (a congestion-notification-profile) on the ports where lossless data enters, with
// the priorities that enter there, and on A's port to B so that A honours B's PAUSE.
// B's ports to R and VR carry only ACKs into B: no PFC there. Returns the number of PGs.
static uint32_t pv_profiles(const pv_t *v, int sw, uint32_t nports,
                            const char *prof[NS_MAX_PORTS]) {
  uint32_t npgs = 0;
  for (uint32_t p = 1; p <= nports; p++) {
    if (sw == 1 && p <= 2) {
      continue;
    }
    bool victim_in = (sw == 0 && p == 2) || (sw == 1 && p == 3);
    bool both = victim_in && v->vprio == 1 && sw == 1;  // c13: priorities 1 and 3, two PGs
    if (victim_in && v->vprio == 1) {
      prof[p] = (sw == 1) ? "c13" : "c1";
    } else {
      prof[p] = "c3";
    }
    // counted from the flag, not by strcmp(prof[p], "c13"): GCC 12's -O3 -flto folded
    // that compare wrongly (7 PGs for 8 on B in run=other-priority; right with
    // -fno-optimize-strlen)
    npgs += both ? 2u : 1u;
  }
  return npgs;
}

// the XOFF threshold of every PG, us of the port rate
static bool pv_xoff(bctx_t *b, const pv_t *v, uint32_t nports, uint32_t npgs, double *xoff) {
  if (!v->hpcc) {
    // every PG's headroom comes out of the buffer first; the rest is shared, and each PG's
    // XOFF point is half of its even share of it (XON at 0.75 x XOFF, the Junos ratio)
    double hdrm_bytes = (double)v->hdrm_bits / 8.0 + 512.0;
    double shared = v->bmib * 1048576.0 - npgs * hdrm_bytes;
    if (shared < 4.0 * npgs * (v->mtu + NS_HDR_BYTES)) {
      berr(b, "buffer_mib",
           "%g MiB leaves no shared buffer after the PFC headroom of %u "
           "priority groups (%.0f bytes each)",
           v->bmib, npgs, hdrm_bytes);
      return false;
    }
    *xoff = shared / (2.0 * npgs) * 8.0 / (double)v->bps * 1e6;
  } else {
    // a placeholder static threshold: the PGs are switched to the dynamic one below
    double shared = v->bmib * 1048576.0 - nports * (v->hpcc_hdrm + 4096.0);
    if (shared < 4.0 * npgs * (v->mtu + NS_HDR_BYTES)) {
      berr(b, "buffer_mib",
           "%g MiB leaves no shared buffer after %u ports of headroom "
           "(%.0f bytes) and reserve (4096 bytes)",
           v->bmib, nports, v->hpcc_hdrm);
      return false;
    }
    *xoff = shared / 8.0 * 8.0 / (double)v->bps * 1e6;
  }
  return true;
}

// the drop profile and schedulers of one switch's configuration: express5's ECN at
// enqueue, or hpcc's RED ramp with head marking
static bool pv_conf_queues(bctx_t *b, const pv_t *v, sbuf_t *c) {
  if (!v->hpcc) {
    sb(c,
       " drop-profiles { e { fill-level 5 drop-probability 1; fill-level 20 drop-probability "
       "100; } }\n schedulers { rs { buffer-size temporal %.3f; drop-profile-map loss-priority "
       "any protocol any drop-profile e; explicit-congestion-notification; } cs { priority "
       "strict-high; } bs { transmit-rate percent 10; } }\n",
       v->buf_us);
    return true;
  }
  // the RED ramp in percent of the queue's buffer (the whole buffer): 0 at Kmin, Pmax at
  // Kmax, then 100 (a step just above Kmax); Kmax beyond the buffer: the ramp's value at it
  double lim = v->bmib * 1048576.0;
  double f1 = 100.0 * v->hpcc_kmin / lim, f2 = 100.0 * v->hpcc_kmax / lim;
  if (f1 >= 99.99) {
    berr(b, "buffer_mib", "%g MiB is below the HPCC set-up's Kmin of %.0f bytes", v->bmib,
         v->hpcc_kmin);
    return false;
  }
  if (f2 < 99.99) {
    sb(c,
       " drop-profiles { e { interpolate { fill-level [ %.3f %.3f %.3f ]; drop-probability "
       "[ 0 %.3f 100 ]; } } }\n",
       f1, f2, f2 + 0.1, 100.0 * v->hpcc_pmax);
  } else {
    double p = v->hpcc_pmax * (99.99 * lim / 100.0 - v->hpcc_kmin) / (v->hpcc_kmax - v->hpcc_kmin);
    sb(c,
       " drop-profiles { e { interpolate { fill-level [ %.3f 99.99 ]; drop-probability "
       "[ 0 %.3f ]; } } }\n",
       f1, 100.0 * p);
  }
  sb(c,
     " schedulers { rs { buffer-size temporal %.3f; drop-profile-map loss-priority "
     "any protocol any drop-profile e; explicit-congestion-notification; ecn-enhanced { "
     "head-marking; } } cs { priority strict-high; } bs { transmit-rate percent 10; } }\n",
     v->buf_us);
  return true;
}

// one switch's configuration text: one lossless class per priority in use; queues take the
// whole buffer (buffer-size in us of the port rate)
static bool pv_conf(bctx_t *b, const pv_t *v, int sw, uint32_t nports,
                    const char *const prof[NS_MAX_PORTS], uint32_t npgs, double xoff, sbuf_t *c) {
  sb(c,
     "# Generated by xtm-netsim: pfc-victim switch %s, run %s, switch_mode %s, buffer %g "
     "MiB, victim priority %u, %u PFC priority groups\n",
     sw == 0 ? "A" : "B", v->run, v->mode, v->bmib, v->vprio, npgs);
  sb(c,
     "class-of-service {\n forwarding-classes { class be queue-num 0; class p1 queue-num 1 "
     "no-loss pfc-priority 1; class rdma queue-num 3 no-loss pfc-priority 3; class cnp "
     "queue-num 6; }\n classifiers { dscp d { forwarding-class p1 { loss-priority low "
     "code-points 001010; } forwarding-class rdma { loss-priority low code-points 011010; } "
     "forwarding-class cnp { loss-priority low code-points 110000; } } }\n");
  if (!pv_conf_queues(b, v, c)) {
    return false;
  }
  sb(c,
     " scheduler-maps { m { forwarding-class be scheduler bs; forwarding-class p1 scheduler "
     "rs; forwarding-class rdma scheduler rs; forwarding-class cnp scheduler cs; } }\n");
  static const char *const kPrio[3][2] = {{"c3", "3"}, {"c1", "1"}, {"c13", "1 3"}};
  sb(c, " congestion-notification-profile {\n");
  for (int k = 0; k < 3; k++) {
    sb(c,
       "  %s { input { pfc-account a { pfc-priority [ %s ]; xoff %.3f; xon %.3f; } "
       "cable-length %.0f; mtu %u; } }\n",
       kPrio[k][0], kPrio[k][1], xoff, 0.75 * xoff, v->cable_m, v->mtu + NS_HDR_BYTES);
  }
  sb(c, " }\n interfaces {\n");
  for (uint32_t p = 1; p <= nports; p++) {
    if (prof[p] != NULL) {
      sb(c,
         "  et-0/0/%u { speed %gg; scheduler-map m; congestion-notification-profile %s; "
         "classifiers { dscp d; } }\n",
         p, v->gbps, prof[p]);
    } else {
      sb(c, "  et-0/0/%u { speed %gg; scheduler-map m; classifiers { dscp d; } }\n", p, v->gbps);
    }
  }
  if (!v->hpcc) {
    sb(c, " }\n dcqcn { RPG_MIN_DEC_FAC 50; }\n}\n");
  } else {
    sb(c,
       " }\n dcqcn { DCE_TCP_G 1020; DCE_TCP_RTT 1; RATE_REDUCE_MONITOR_PERIOD 4; "
       "RPG_TIME_RESET 300; RPG_BYTE_RESET 32767; RPG_THRESHOLD 1; RPG_AI_RATE %.0f; "
       "RPG_HAI_RATE %.0f; RPG_MIN_RATE 1000; CLAMP_TGT_RATE 0; "
       "CLAMP_TGT_RATE_AFTER_TIME_INC 1; RPG_MIN_DEC_FAC 50; RPG_GD 11; "
       "MIN_TIME_BETWEEN_CNPS 0; }\n}\n",
       5.0 * v->gbps / 25.0, 50.0 * v->gbps / 25.0);
  }
  return true;
}

// hpcc: the dynamic threshold through the registers (the compiler has no syntax for it):
// XOFF = free pool >> 3, XON = XOFF - 3 KB, headroom 3 x BDP; pool = buffer minus every
// port's headroom and reserve (switch-mmu.cc GetPfcThreshold, ConfigHdrm, ConfigNPort)
static bool pv_dynamic_pfc(bctx_t *b, ns_sim_t *s, const pv_t *v, int sw, uint32_t rid,
                           uint32_t nports, const char *const prof[NS_MAX_PORTS]) {
  uint32_t hcells = (uint32_t)ceil(v->hpcc_hdrm / 256.0);
  double pool = v->bmib * 1048576.0 - nports * (v->hpcc_hdrm + 4096.0);
  bool ok = ns_router_write(s, rid, XTM_POOL_CELLS_REG_OFFSET, (uint32_t)(pool / 256.0)) == kNsOk;
  for (uint32_t p = 1; ok && p <= nports; p++) {
    for (uint32_t pr = 0; ok && prof[p] != NULL && pr < 8; pr++) {
      bool has = (pr == 3 && strcmp(prof[p], "c1") != 0) || (pr == 1 && strcmp(prof[p], "c3") != 0);
      if (!has) {
        continue;
      }
      ok = ns_router_write(s, rid, XTM_PG_SEL_REG_OFFSET, p * 8 + pr) == kNsOk &&
           ns_router_write(s, rid, XTM_G_XON_CELLS_REG_OFFSET, 12) == kNsOk &&
           ns_router_write(s, rid, XTM_G_HDRM_CELLS_REG_OFFSET, hcells) == kNsOk &&
           ns_router_write(s, rid, XTM_G_CFG_REG_OFFSET,
                           1u | 1u << XTM_G_CFG_DYNAMIC_OFFSET | 3u << XTM_G_CFG_ALPHA_OFFSET) ==
               kNsOk;
    }
  }
  if (!ok) {
    berr(b, NULL, "switch %s: programming the dynamic PFC thresholds failed", sw == 0 ? "A" : "B");
  }
  return ok;
}

// one switch (0 = A, 1 = B): its configuration compiled and programmed; B's NICs after it
static bool pv_switch(bctx_t *b, ns_sim_t *s, const pv_t *v, int sw, const char *outdir) {
  uint32_t nports = sw == 0 ? 3u : (uint32_t)(3 + v->senders);
  const char *prof[NS_MAX_PORTS] = {NULL};
  uint32_t npgs = pv_profiles(v, sw, nports, prof);
  double xoff;
  if (!pv_xoff(b, v, nports, npgs, &xoff)) {
    return false;
  }
  sbuf_t c = {0};
  if (!pv_conf(b, v, sw, nports, prof, npgs, xoff, &c)) {
    free(c.p);
    return false;
  }
  xtm_fw_dcqcn_cfg_t dc;
  uint32_t rid = sw == 0 ? v->A : v->B;
  bool ok = !c.oom && c.p != NULL &&
            program(b, s, rid, sw == 0 ? "pfc-victim-A.conf" : "pfc-victim-B.conf", c.p, &dc,
                    outdir, "link_gbps");
  free(c.p);
  if (ok && v->hpcc) {
    ok = pv_dynamic_pfc(b, s, v, sw, rid, nports, prof);
  }
  return ok && !(sw == 1 && !program_nics(b, s, &dc));
}

// the flows: S -> R unless alone, the victim VS -> VR, and the incast senders to R; the
// hpcc set-up's NIC window
static bool pv_flows(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const pv_t *v) {
  const uint32_t mtu = v->mtu;
  uint64_t bytes = (uint64_t)llround(v->mb * 1e6);
  uint64_t msg = bytes < 65536 ? bytes : 65536;
  uint32_t window = 64;
  if (v->hpcc) {
    // window of the largest BDP (GLOBAL_T): the longest path (VS -> A -> B -> VR, 3 links)
    // twice plus one frame's serialisation per hop (third.cc maxBdp), messages of one MTU
    double rtt_ps =
        2.0 * 3.0 * (double)v->prop + 3.0 * (double)ns_ser_ps(mtu + NS_HDR_BYTES, v->bps);
    double bdp = rtt_ps * 1e-12 * (double)v->bps / 8.0;
    msg = mtu;
    window = (uint32_t)ceil(bdp / mtu);
    s->ack_every = 1;
    for (uint32_t i = 0; i < s->nnodes; i++) {
      if (s->nodes[i].kind == kNsNodeNic) {
        s->nodes[i].nic.pause_no_expiry = true;
      }
    }
    note(m,
         "switch_mode hpcc: RED at dequeue Kmin %.0f B Kmax %.0f B Pmax %.2f, dynamic PFC "
         "threshold free/8 with 3 KB resume offset, headroom %.0f B per PG, PAUSE until resumed; "
         "NIC window %u x %u B (max BDP %.0f B), ACK every packet (ack_every ignored)",
         v->hpcc_kmin, v->hpcc_kmax, v->hpcc_pmax, v->hpcc_hdrm, window, mtu, bdp);
  } else {
    note(m, "switch_mode express5: ECN profile 5..20 %% of the buffer at enqueue, static XOFF");
  }
  note(m, "run %s: %s", v->run,
       v->alone ? "the victim by itself on an idle path"
                : "S -> R, the victim, and the incast senders on B");
  ns_flow_t base = {.dscp = 26,
                    .prio = 3,
                    .mtu = mtu,
                    .msg_bytes = msg,
                    .window_msgs = window,
                    .total_bytes = bytes};
  ns_flow_t f = base;
  bool ok = true;
  if (!v->alone) {
    f.src = (uint16_t)v->S;
    f.dst = (uint16_t)v->R;
    snprintf(f.name, sizeof(f.name), "S->R");
    snprintf(f.group, sizeof(f.group), "S");
    ok = ns_add_flow(s, &f, NULL) == kNsOk;
  }
  f = base;
  f.src = (uint16_t)v->VS;
  f.dst = (uint16_t)v->VR;
  if (v->vprio == 1) {
    f.prio = 1;
    f.dscp = 10;
  }
  snprintf(f.name, sizeof(f.name), "VS->VR (victim)");
  snprintf(f.group, sizeof(f.group), "VS");
  ok = ok && ns_add_flow(s, &f, &m->victim_flow) == kNsOk;
  for (int i = 0; ok && i < v->senders; i++) {
    f = base;
    f.src = (uint16_t)v->sid[i];
    f.dst = (uint16_t)v->R;
    snprintf(f.name, sizeof(f.name), "S%d->R", i + 1);
    snprintf(f.group, sizeof(f.group), "S%d", i + 1);
    ok = ns_add_flow(s, &f, NULL) == kNsOk;
  }
  if (!ok) {
    berr(b, "mtu", "flow refused");
  }
  return ok;
}

static bool build_pfc_victim(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  pv_t v = {0};
  if (!pv_params(b, s, m, &v) || !pv_topology(b, s, &v)) {
    return false;
  }
  v.buf_us = v.bmib * 1048576.0 * 8.0 / (double)v.bps * 1e6;
  v.cable_m = v.dly * 200.0 > 1 ? v.dly * 200.0 : 1.0;  // 5 ns/m one way
  if (!xtm_cos_headroom_bits(v.bps, (uint32_t)v.cable_m, v.mtu + NS_HDR_BYTES, &v.hdrm_bits)) {
    berr(b, "link_gbps", "%g Gb/s is not a port speed the configuration compiler supports", v.gbps);
    return false;
  }
  v.hpcc_hdrm = (double)v.bps * (double)v.prop * 1e-12 / 8.0 * 3.0;
  v.hpcc_kmin = 4000.0 * v.gbps;
  v.hpcc_kmax = 16000.0 * v.gbps;
  v.hpcc_pmax = 0.2;
  for (int sw = 0; sw < 2; sw++) {
    if (!pv_switch(b, s, &v, sw, outdir)) {
      return false;
    }
  }
  if (!pv_flows(b, s, m, &v)) {
    return false;
  }
  m->bottleneck_router = v.B;
  m->bottleneck_port = 1;
  m->bottleneck_link = s->nodes[v.B].rt.port_link[1];
  m->rtt_us = 6 * v.dly;
  return true;
}

// ------------------------------------------------------------------ roce-lab

// roce-lab's router configuration: the file `config` names, read (bounded), compiled and
// programmed into the switch r and the NICs
static bool rl_program(bctx_t *b, ns_sim_t *s, uint32_t r, const char *conf, const char *outdir) {
  size_t len = 0;
  char e[NS_ERR_LEN / 2];
  char *text = ns_read_bounded(conf, NS_MAX_SCENARIO_BYTES, &len, e, sizeof(e));
  if (text == NULL) {
    berr(b, "config", "%s", e);
    return false;
  }
  if (strlen(text) != len) {
    free(text);
    berr(b, "config", "'%s' holds a NUL byte (not a configuration file?)", conf);
    return false;
  }
  xtm_fw_dcqcn_cfg_t dc;
  const char *base = strrchr(conf, '/') ? strrchr(conf, '/') + 1 : conf;
  char cname[NS_KEY_LEN + 8];
  // a name ns_name_ok accepts is shorter than NS_KEY_LEN: the precision only tells the
  // compiler so (conf is a buffer of 2 x NS_VAL_LEN)
  snprintf(cname, sizeof(cname), "%.*s", NS_KEY_LEN, ns_name_ok(base) ? base : "roce-lab.conf");
  bool ok = program(b, s, r, cname, text, &dc, outdir, "host_gbps") && program_nics(b, s, &dc);
  free(text);
  return ok;
}

static bool build_roce_lab(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"phase",     "iterations", "host_gbps", "config",
                                      "bulk_ms",   "recover_ms", "dcqcn",     "nic_tx_ns",
                                      "nic_rx_ns", NULL};
  static const char *const kPhases[] = {"unloaded", "congested", "recovered", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  uint32_t mtu;
  common(b, s, m, &mtu);
  const char *phase = gword(b, "phase", kPhases);
  uint32_t iters = (uint32_t)gint(b, "iterations", 1, 1000000);
  double hg = gnum(b, "host_gbps", 0, 800);
  char conf[2 * NS_VAL_LEN];
  if (!gpath(b, "config", conf, sizeof(conf))) {
    return false;
  }
  double bulk_ms = gnum(b, "bulk_ms", 0, 1e6);
  double rec_ms = gnum(b, "recover_ms", 0, 1e6);
  bool dcqcn = gbool(b, "dcqcn");
  double tx_ns = ns_scenario_get(b->sc, "nic_tx_ns") ? gnum(b, "nic_tx_ns", 0, 1e6) : 0;
  double rx_ns = ns_scenario_get(b->sc, "nic_rx_ns") ? gnum(b, "nic_rx_ns", 0, 1e6) : 0;
  if (b->bad) {
    return false;
  }
  if (hg <= 0) {
    berr(b, "host_gbps", "a zero link rate");
    return false;
  }
  bool bulk = strcmp(phase, "unloaded") != 0;
  bool probe_after = strcmp(phase, "recovered") == 0;
  if (!bulk) {
    unused_override(b, m, "bulk_ms", "phase=congested or phase=recovered");
  }
  if (!probe_after) {
    unused_override(b, m, "recover_ms", "phase=recovered");
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  uint32_t r, h1, h2, l1, l2;
  uint64_t bps = (uint64_t)llround(hg * 1e9);
  if (ns_add_router(s, "z9100", &p, &r) != kNsOk ||
      ns_add_nic(s, "host1", dcqcn ? 4 : 0, &h1) != kNsOk ||
      ns_add_nic(s, "host2", dcqcn ? 4 : 0, &h2) != kNsOk ||
      ns_connect(s, h1, 0, r, 0, bps, 15 * NS_PS_PER_NS, &l1) != kNsOk ||
      ns_connect(s, r, 1, h2, 0, bps, 15 * NS_PS_PER_NS, &l2) != kNsOk ||
      ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the lab");
    return false;
  }
  // NIC pipeline and PCIe latency per direction (docs/netsim.md 4.4): a frame leaves the wire
  // side of the NIC nic_tx_ns after the NIC decides to send it, and takes effect nic_rx_ns
  // after its last bit arrived: added to the host cables, NIC side
  uint64_t txp = (uint64_t)llround(tx_ns * 1e3), rxp = (uint64_t)llround(rx_ns * 1e3);
  s->links[l1].prop_ps += txp;                // host1 -> switch
  s->links[s->links[l1].rev].prop_ps += rxp;  // switch -> host1
  s->links[l2].prop_ps += rxp;                // switch -> host2
  s->links[s->links[l2].rev].prop_ps += txp;  // host2 -> switch
  if (!rl_program(b, s, r, conf, outdir)) {
    return false;
  }
  bool ok = true;
  uint64_t probe_start = 0;
  if (bulk) {
    ns_flow_t f = {.src = (uint16_t)h1,
                   .dst = (uint16_t)h2,
                   .dscp = 26,
                   .prio = 3,
                   .mtu = mtu,
                   .msg_bytes = 65536,
                   .window_msgs = 16};
    if (probe_after) {
      f.total_msgs = (uint64_t)(bulk_ms * 1e-3 * 6e9 / 8 / 65536);  // about bulk_ms at 6 Gb/s
      if (f.total_msgs == 0) {
        f.total_msgs = 1;
      }
      probe_start = (uint64_t)llround((bulk_ms + rec_ms) * 1e9);
    } else {
      probe_start = (uint64_t)llround(bulk_ms * 1e9);  // probe once the queue is congested
    }
    snprintf(f.name, sizeof(f.name), "write-65536");
    snprintf(f.group, sizeof(f.group), "bulk");
    ok = ns_add_flow(s, &f, NULL) == kNsOk;
  }
  ns_flow_t pr = {.src = (uint16_t)h1,
                  .dst = (uint16_t)h2,
                  .dscp = 26,
                  .prio = 3,
                  .mtu = mtu,
                  .msg_bytes = 64,
                  .window_msgs = 1,
                  .total_msgs = iters,
                  .start_ps = probe_start,
                  .record_latency = true};
  snprintf(pr.name, sizeof(pr.name), "send-64-latency");
  snprintf(pr.group, sizeof(pr.group), "probe");
  ok = ok && ns_add_flow(s, &pr, &m->victim_flow) == kNsOk;
  if (!ok) {
    berr(b, "mtu", "flow refused");
    return false;
  }
  note(m, "NIC latency %g ns transmit, %g ns receive per NIC", tx_ns, rx_ns);
  m->bottleneck_router = r;
  m->bottleneck_port = 1;
  m->bottleneck_link = s->nodes[r].rt.port_link[1];
  m->rtt_us = 0.1;
  m->measure_from_ps = probe_start;
  snprintf(m->phase, sizeof(m->phase), "%s", phase);
  return true;
}

// ------------------------------------------------------------------ policed-circuits

// Policed long-haul circuits (shared/brief/domain.md experiment 5, FABRIC; docs/netsim.md
// 4.5). part a: the system limit, one circuit of system_gbps from one sender to one receiver
// through one router over a path of system_rtt_ms. part b: eight circuits of circuit_gbps,
// two per (source site, destination site) pair with the pair's base RTT, through a central
// site; every site link link_gbps, the circuits' queue of the central site's egress shaped to
// expedited_gbps when queue_shaper is on. Every circuit enters its source site's router on a
// port of its own, policed there (a whole-port policer, Junos `policer input`) at the circuit
// rate with a burst of policer_burst_ms at that rate; its TCP flows (tcp_cc, flows per
// circuit striping file_mb) are paced at most at the circuit rate / flows when
// sender_shaping is on (tc-fq maxrate); loss_rate drops data frames at random on the link
// into each receiver.
typedef struct pc {
  bool part_b, policer, qshaper, sshaper;
  const char *cc;
  uint64_t flows;
  double file_mb, sys_file_mb, burst_ms, loss, sys_gbps, sys_rtt_ms, circ_gbps, link_gbps, exp_gbps,
      buf_ms, rto_ms;
  double pair_rtt_ms[4];
  uint32_t mtu;
} pc_t;

#define PC_HOST_PROP_PS NS_PS_PER_US             // sender and receiver cables: 1 us each way
#define PC_SITE_PROP_PS (100ull * NS_PS_PER_US)  // site-to-central links: 100 us each way

static bool pc_rtts(bctx_t *b, pc_t *c) {
  const char *v = gstr(b, "pair_rtts_ms");
  char buf[NS_VAL_LEN];
  snprintf(buf, sizeof(buf), "%s", v);
  uint32_t n = 0;
  for (char *save = NULL, *t = strtok_r(buf, " ,", &save); t != NULL && !b->bad;
       t = strtok_r(NULL, " ,", &save)) {
    xtm_num_msg_t msg;
    double d = 0;
    if (n == 4) {
      berr(b, "pair_rtts_ms", "more than four RTTs (one per site pair)");
      return false;
    }
    if (xtm_num_f64(NULL, t, 0.001, 10000, &d, &msg) != kXtmNumOk) {
      berr(b, "pair_rtts_ms", "%s", msg.text);
      return false;
    }
    c->pair_rtt_ms[n++] = d;
  }
  if (!b->bad && n != 4) {
    berr(b, "pair_rtts_ms", "%u RTTs: four are needed (S1-D1 S1-D2 S2-D1 S2-D2)", n);
  }
  return !b->bad;
}

static bool pc_params(bctx_t *b, ns_sim_t *s, ns_measure_t *m, pc_t *c) {
  static const char *const kKeys[] = {"part",
                                      "tcp_cc",
                                      "flows",
                                      "file_mb",
                                      "policer",
                                      "policer_burst_ms",
                                      "queue_shaper",
                                      "sender_shaping",
                                      "loss_rate",
                                      "system_gbps",
                                      "system_rtt_ms",
                                      "circuit_gbps",
                                      "pair_rtts_ms",
                                      "link_gbps",
                                      "expedited_gbps",
                                      "buffer_ms",
                                      "tcp_min_rto_ms",
                                      "system_file_mb",
                                      NULL};
  static const char *const kParts[] = {"a", "b", NULL};
  static const char *const kCc[] = {"cubic", "bbr", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  common(b, s, m, &c->mtu);
  c->part_b = strcmp(gword(b, "part", kParts), "b") == 0;
  c->cc = gword(b, "tcp_cc", kCc);
  c->flows = gint(b, "flows", 1, 256);
  c->file_mb = gnum(b, "file_mb", 1e-6, 100000);
  c->sys_file_mb = gnum(b, "system_file_mb", 1e-6, 100000);
  c->policer = gbool(b, "policer");
  c->burst_ms = gnum(b, "policer_burst_ms", 0, 1000);
  c->qshaper = gbool(b, "queue_shaper");
  c->sshaper = gbool(b, "sender_shaping");
  c->loss = gnum(b, "loss_rate", 0, 1);
  c->sys_gbps = gnum(b, "system_gbps", 0.001, 800);
  c->sys_rtt_ms = gnum(b, "system_rtt_ms", 0.01, 10000);
  c->circ_gbps = gnum(b, "circuit_gbps", 0.001, 800);
  c->link_gbps = gnum(b, "link_gbps", 1, 800);
  c->exp_gbps = gnum(b, "expedited_gbps", 0.001, 800);
  c->buf_ms = gnum(b, "buffer_ms", 0.001, 1000);
  c->rto_ms = gnum(b, "tcp_min_rto_ms", 0.001, 60000);
  if (b->bad || !pc_rtts(b, c)) {
    return false;
  }
  double cg = c->part_b ? c->circ_gbps : c->sys_gbps;
  if (cg > c->link_gbps) {
    static const char *const kK[2][3] = {{"system_gbps", "link_gbps", NULL},
                                         {"circuit_gbps", "link_gbps", NULL}};
    berr_keys(b, kK[c->part_b], "a circuit of %g Gb/s is above the link rate of %g Gb/s", cg,
              c->link_gbps);
    return false;
  }
  if (c->part_b && c->exp_gbps > c->link_gbps) {
    static const char *const kK[] = {"expedited_gbps", "link_gbps", NULL};
    berr_keys(b, kK, "an expedited queue shaped to %g Gb/s is above the link rate of %g Gb/s",
              c->exp_gbps, c->link_gbps);
    return false;
  }
  double burst = cg * 1e9 / 8 * c->burst_ms * 1e-3;
  if (c->policer && burst < (double)(c->mtu + NS_HDR_BYTES)) {
    static const char *const kK[] = {"policer_burst_ms", "mtu", NULL};
    berr_keys(b, kK,
              "a burst of %g ms at %g Gb/s is %.0f bytes, below one %u-byte frame: every "
              "frame would be dropped (Junos' minimum burst-size-limit is the MTU)",
              c->burst_ms, cg, burst, c->mtu + NS_HDR_BYTES);
    return false;
  }
  double min_rtt = c->part_b ? 1e9 : c->sys_rtt_ms;
  for (int i = 0; c->part_b && i < 4; i++) {
    min_rtt = c->pair_rtt_ms[i] < min_rtt ? c->pair_rtt_ms[i] : min_rtt;
  }
  double fixed_us = c->part_b ? 2.0 * (1.0 + 100.0 + 100.0 + 1.0) : 2.0 * (1.0 + 1.0);
  if (min_rtt * 1000.0 <= fixed_us) {
    berr(b, c->part_b ? "pair_rtts_ms" : "system_rtt_ms",
         "%g ms is not above the %g us the path's fixed links take", min_rtt, fixed_us);
    return false;
  }
  return true;
}

// One router's configuration: ports [0, nports) at link_gbps, each classifying DSCP 46 into
// the circuits' class (queue 3); port i is policed by policer pol (NULL: none) and, when
// out, schedules with the circuits' queue shaped to shape_gbps (0: no shaper).
typedef struct pc_port {
  const char *pol;
  double shape_gbps;
  bool out;
} pc_port_t;

static char *pc_config(const pc_t *c, const char *rname, const pc_port_t *pt, uint32_t np,
                       double pol_gbps, double burst_bytes) {
  sbuf_t t = {0};
  sb(&t,
     "# Generated by xtm-netsim: policed-circuits part %s, router %s; circuits' class DSCP 46 "
     "(EF) in queue 3, buffer %g ms at %g Gb/s; policers %g Gb/s, burst-size-limit %.0f "
     "bytes\n",
     c->part_b ? "b" : "a", rname, c->buf_ms, c->link_gbps, pol_gbps, burst_bytes);
  sb(&t,
     "class-of-service {\n forwarding-classes { class best-effort queue-num 0; class circuit "
     "queue-num 3; }\n classifiers { dscp d { forwarding-class circuit { loss-priority low "
     "code-points 101110; } } }\n schedulers {\n  bs { transmit-rate percent 10; }\n");
  bool plain = false;  // some port schedules without a shaper (map m, scheduler cs)
  for (uint32_t i = 0; i < np; i++) {
    plain |= pt[i].out && pt[i].shape_gbps <= 0;
  }
  if (plain) {
    sb(&t, "  cs { buffer-rate percent 100; buffer-size temporal %.3f; }\n", c->buf_ms * 1000.0);
  }
  for (uint32_t i = 0; i < np; i++) {
    if (pt[i].shape_gbps > 0) {
      sb(&t, "  cs%u { buffer-rate percent 100; buffer-size temporal %.3f; shaping-rate %gg; }\n",
         i, c->buf_ms * 1000.0, pt[i].shape_gbps);
    }
  }
  sb(&t, " }\n scheduler-maps {\n");
  if (plain) {
    sb(&t,
       "  m { forwarding-class best-effort scheduler bs; forwarding-class circuit scheduler "
       "cs; }\n");
  }
  for (uint32_t i = 0; i < np; i++) {
    if (pt[i].shape_gbps > 0) {
      sb(&t,
         "  m%u { forwarding-class best-effort scheduler bs; forwarding-class circuit scheduler "
         "cs%u; }\n",
         i, i);
    }
  }
  sb(&t, " }\n interfaces {\n");
  for (uint32_t i = 0; i < np; i++) {
    // every port classifies (the hardware has one DSCP map; naming it avoids the warning)
    sb(&t, "  et-0/0/%u { speed %gg; classifiers { dscp d; }", i, c->link_gbps);
    if (pt[i].out) {
      if (pt[i].shape_gbps > 0) {
        sb(&t, " scheduler-map m%u;", i);
      } else {
        sb(&t, " scheduler-map m;");
      }
    }
    sb(&t, " }\n");
  }
  sb(&t, " }\n}\n");
  bool any = false;
  for (uint32_t i = 0; i < np; i++) {
    any |= pt[i].pol != NULL;
  }
  if (any) {
    sb(&t, "firewall {\n");
    for (uint32_t i = 0; i < np; i++) {
      if (pt[i].pol != NULL) {
        sb(&t,
           " policer %s { if-exceeding { bandwidth-limit %gg; burst-size-limit %.0f; } then "
           "discard; }\n",
           pt[i].pol, pol_gbps, burst_bytes);
      }
    }
    sb(&t, "}\ninterfaces {\n");
    for (uint32_t i = 0; i < np; i++) {
      if (pt[i].pol != NULL) {
        sb(&t, " et-0/0/%u { unit 0 { family inet { policer { input %s; } } } }\n", i, pt[i].pol);
      }
    }
    sb(&t, "}\n");
  }
  if (t.oom) {
    free(t.p);
    return NULL;
  }
  return t.p;
}

// The policer's burst-size-limit in bytes: policer_burst_ms at the rate, at most what the
// 24-bit POL_BURST register holds (spec 4.7: 16,777,215 B, 1.68 ms at 80 Gb/s). Above that
// the device cannot be programmed as asked, so the run uses the register's maximum and
// says so (a note in the run's output; docs/netsim.md 4.5).
static double pc_burst(const pc_t *c, double gbps) {
  double want = gbps * 1e9 / 8 * c->burst_ms * 1e-3;
  return want > (double)XTM_POL_BURST_BYTES_MASK ? (double)XTM_POL_BURST_BYTES_MASK : want;
}

static bool pc_program(bctx_t *b, ns_sim_t *s, uint32_t r, const pc_t *c, const char *rname,
                       const pc_port_t *pt, uint32_t np, double pol_gbps, const char *outdir) {
  double burst = pc_burst(c, pol_gbps);
  char *text = pc_config(c, rname, pt, np, pol_gbps, burst);
  if (text == NULL) {
    berr(b, NULL, "out of memory");
    return false;
  }
  char name[NS_NAME_LEN + 24];
  snprintf(name, sizeof(name), "%s-generated.conf", rname);
  bool ok = program(b, s, r, name, text, NULL, outdir, "link_gbps");
  free(text);
  return ok;
}

// One circuit's TCP flows from snd to rcv: `flows` of them striping the circuit's file.
static bool pc_flows(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const pc_t *c, uint32_t k,
                     uint32_t snd, uint32_t rcv, double gbps, double rtt_us, uint64_t *rng) {
  uint64_t total = (uint64_t)llround((c->part_b ? c->file_mb : c->sys_file_mb) * 1e6);
  if (total < c->flows) {
    static const char *const kK[2][3] = {{"flows", "system_file_mb", NULL},
                                         {"flows", "file_mb", NULL}};
    berr_keys(b, kK[c->part_b], "%" PRIu64 " flows cannot share a file of %" PRIu64 " bytes",
              c->flows, total);
    return false;
  }
  ns_flow_t f = {.src = (uint16_t)snd,
                 .dst = (uint16_t)rcv,
                 .dscp = 46,
                 .prio = 3,
                 .mtu = c->mtu,
                 .window_msgs = 1,
                 .transport = kNsTransportTcp};
  tcp_params_default(&f.tcp_params);
  f.tcp_params.cc = strcmp(c->cc, "bbr") == 0 ? kTcpCcBbr : kTcpCcCubic;
  f.tcp_params.min_rto_ps = (uint64_t)llround(c->rto_ms * 1e9);
  double bdp = gbps * 1e9 / 8 * rtt_us * 1e-6;
  double segs = ceil(4.0 * bdp / c->mtu);
  f.tcp_params.max_cwnd = (uint32_t)(segs < 64 ? 64 : segs > (1u << 22) ? (1u << 22) : segs);
  f.tcp_params.rcv_buf_bytes = (uint64_t)f.tcp_params.max_cwnd * c->mtu;
  if (c->sshaper) {
    f.tcp_params.max_pacing_Bps = gbps * 1e9 / 8.0 / (double)c->flows;
  }
  for (uint64_t i = 0; i < c->flows; i++) {
    ns_flow_t g = f;
    g.total_bytes = g.msg_bytes = total / c->flows + (i < total % c->flows ? 1 : 0);
    g.tcp_params.seed = (uint32_t)(m->seed + k * 1000u + i);
    g.start_ps = splitmix(rng) % (10u * NS_PS_PER_US);  // staggered by up to 10 us (seeded)
    snprintf(g.name, sizeof(g.name), "c%u.%" PRIu64, k, i);
    snprintf(g.group, sizeof(g.group), "c%u", k);
    if (ns_add_flow(s, &g, NULL) != kNsOk) {
      berr(b, "mtu", "TCP flow refused");
      return false;
    }
  }
  return true;
}

// Every circuit's bottleneck capacity in payload bits/s: a frame is payload + NS_HDR_BYTES
// on L2, + NS_ETH_OVH_BYTES more on the wire. The policer and the queue shaper count L2
// bytes (spec 4.7, 5.4), the links L1; shared links and the shared shaped queue count at
// their fair share per circuit.
static double pc_cap(const pc_t *c, double circ_gbps, uint32_t sharing) {
  double l2 = (double)c->mtu / (double)(c->mtu + NS_HDR_BYTES);
  double l1 = (double)c->mtu / (double)(c->mtu + NS_HDR_BYTES + NS_ETH_OVH_BYTES);
  double cap = c->link_gbps * 1e9 / sharing * l1;
  if (c->policer && circ_gbps * 1e9 * l2 < cap) {
    cap = circ_gbps * 1e9 * l2;
  }
  double sh = c->part_b ? c->exp_gbps / sharing : c->sys_gbps;
  if (c->qshaper && sh * 1e9 * l2 < cap) {
    cap = sh * 1e9 * l2;
  }
  return cap;
}

static bool pc_part_a(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const pc_t *c, const char *outdir,
                      uint32_t *rx_link) {
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_desc = 1u << 20;
  uint32_t r, tx, rx, dl;
  uint64_t lbps = (uint64_t)llround(c->link_gbps * 1e9);
  double rtt_us = c->sys_rtt_ms * 1000.0;
  uint64_t far_ps = (uint64_t)llround(rtt_us / 2.0 * 1e6) - PC_HOST_PROP_PS;
  if (ns_add_router(s, "site", &p, &r) != kNsOk || ns_add_nic(s, "sender", 0, &tx) != kNsOk ||
      ns_add_nic(s, "receiver", 0, &rx) != kNsOk ||
      ns_connect(s, tx, 0, r, 0, lbps, far_ps, NULL) != kNsOk ||
      ns_connect(s, r, 1, rx, 0, lbps, PC_HOST_PROP_PS, &dl) != kNsOk ||
      ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the topology");
    return false;
  }
  snprintf(s->links[dl].name, sizeof(s->links[dl].name), "site port 1 -> receiver");
  pc_port_t pt[2] = {{.pol = c->policer ? "circuit" : NULL},
                     {.out = true, .shape_gbps = c->qshaper ? c->sys_gbps : 0}};
  if (!pc_program(b, s, r, c, "site", pt, 2, c->sys_gbps, outdir)) {
    return false;
  }
  uint64_t rng = m->seed;
  if (!pc_flows(b, s, m, c, 0, tx, rx, c->sys_gbps, rtt_us, &rng)) {
    return false;
  }
  m->ncirc = 1;
  m->circ_bps[0] = c->sys_gbps * 1e9;
  m->circ_cap_bps[0] = pc_cap(c, c->sys_gbps, 1);
  m->circ_rtt_us[0] = rtt_us;
  m->bottleneck_router = r;
  m->bottleneck_port = 1;
  m->bottleneck_link = dl;
  m->rtt_us = rtt_us;
  rx_link[0] = dl;
  return true;
}

// part b: sites src1 src2 (ports 0-3 the circuits' senders, 4 the uplink), central (0, 1
// from the sources, 2, 3 to the destinations), dst1 dst2 (0 the uplink, 1-4 the receivers).
// Circuit k (0..7) is pair k / 2: S1-D1, S1-D2, S2-D1, S2-D2; the pair's RTT less the fixed
// links lies on the sender's cable (so every circuit has its own RTT on shared site links).
static bool pc_part_b(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const pc_t *c, const char *outdir,
                      uint32_t *rx_link) {
  xtm_params_t p5, p4;
  xtm_params_default(&p5);
  p5.num_ports = 5;
  p5.num_desc = 1u << 20;
  p4 = p5;
  p4.num_ports = 4;
  uint32_t src[2], dst[2], ctr, snd[8], rcv[8];
  bool ok = ns_add_router(s, "src1", &p5, &src[0]) == kNsOk &&
            ns_add_router(s, "src2", &p5, &src[1]) == kNsOk &&
            ns_add_router(s, "central", &p4, &ctr) == kNsOk &&
            ns_add_router(s, "dst1", &p5, &dst[0]) == kNsOk &&
            ns_add_router(s, "dst2", &p5, &dst[1]) == kNsOk;
  char nm[NS_NAME_LEN];
  for (uint32_t k = 0; k < 8 && ok; k++) {
    snprintf(nm, sizeof(nm), "snd%u", k);
    ok = ns_add_nic(s, nm, 0, &snd[k]) == kNsOk;
    snprintf(nm, sizeof(nm), "rcv%u", k);
    ok = ok && ns_add_nic(s, nm, 0, &rcv[k]) == kNsOk;
  }
  uint64_t lbps = (uint64_t)llround(c->link_gbps * 1e9);
  uint32_t ctr_link[2];
  for (uint32_t i = 0; i < 2 && ok; i++) {
    ok = ns_connect(s, src[i], 4, ctr, i, lbps, PC_SITE_PROP_PS, NULL) == kNsOk &&
         ns_connect(s, ctr, 2 + i, dst[i], 0, lbps, PC_SITE_PROP_PS, &ctr_link[i]) == kNsOk;
  }
  uint32_t dport[2] = {1, 1};
  for (uint32_t k = 0; k < 8 && ok; k++) {
    uint32_t pair = k / 2, si = pair / 2, di = pair % 2;
    double rtt_us = c->pair_rtt_ms[pair] * 1000.0;
    uint64_t fixed = 2 * PC_SITE_PROP_PS + 2 * PC_HOST_PROP_PS;
    uint64_t cable = (uint64_t)llround(rtt_us / 2.0 * 1e6) - fixed + PC_HOST_PROP_PS;
    uint32_t dp = dport[di]++;
    ok = ns_connect(s, snd[k], 0, src[si], (k % 2) + 2 * di, lbps, cable, NULL) == kNsOk &&
         ns_connect(s, dst[di], dp, rcv[k], 0, lbps, PC_HOST_PROP_PS, &rx_link[k]) == kNsOk;
    if (ok) {
      snprintf(s->links[rx_link[k]].name, sizeof(s->links[rx_link[k]].name),
               "dst%u port %u -> rcv%u", di + 1, dp, k);
      m->circ_rtt_us[k] = rtt_us;
    }
  }
  if (!ok || ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the topology");
    return false;
  }
  static const char *const kPol[4] = {"circuit0", "circuit1", "circuit2", "circuit3"};
  for (uint32_t i = 0; i < 2; i++) {
    pc_port_t pt[5] = {{0}};
    for (uint32_t j = 0; j < 4; j++) {
      pt[j] = (pc_port_t){.pol = c->policer ? kPol[j] : NULL};
    }
    pt[4] = (pc_port_t){.out = true};
    snprintf(nm, sizeof(nm), "src%u", i + 1);
    if (!pc_program(b, s, src[i], c, nm, pt, 5, c->circ_gbps, outdir)) {
      return false;
    }
  }
  pc_port_t cp[4] = {{.out = false},
                     {.out = false},
                     {.out = true, .shape_gbps = c->qshaper ? c->exp_gbps : 0},
                     {.out = true, .shape_gbps = c->qshaper ? c->exp_gbps : 0}};
  if (!pc_program(b, s, ctr, c, "central", cp, 4, c->circ_gbps, outdir)) {
    return false;
  }
  for (uint32_t i = 0; i < 2; i++) {
    pc_port_t pt[5] = {{.out = false}, {.out = true}, {.out = true}, {.out = true}, {.out = true}};
    snprintf(nm, sizeof(nm), "dst%u", i + 1);
    if (!pc_program(b, s, dst[i], c, nm, pt, 5, c->circ_gbps, outdir)) {
      return false;
    }
  }
  uint64_t rng = m->seed;
  for (uint32_t k = 0; k < 8; k++) {
    if (!pc_flows(b, s, m, c, k, snd[k], rcv[k], c->circ_gbps, m->circ_rtt_us[k], &rng)) {
      return false;
    }
    m->circ_bps[k] = c->circ_gbps * 1e9;
    m->circ_cap_bps[k] = pc_cap(c, c->circ_gbps, 4);
  }
  m->ncirc = 8;
  m->bottleneck_router = ctr;
  m->bottleneck_port = 2;
  m->bottleneck_link = ctr_link[0];
  m->rtt_us = m->circ_rtt_us[0];
  return true;
}

static bool build_policed_circuits(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  pc_t c;
  if (!pc_params(b, s, m, &c)) {
    return false;
  }
  uint32_t rx_link[8];
  if (!(c.part_b ? pc_part_b(b, s, m, &c, outdir, rx_link)
                 : pc_part_a(b, s, m, &c, outdir, rx_link))) {
    return false;
  }
  m->circ_bytes = (uint64_t)llround((c.part_b ? c.file_mb : c.sys_file_mb) * 1e6);
  for (uint32_t k = 0; k < m->ncirc; k++) {
    // each receiver's cable its own seeded stream (splitmix of seed and circuit)
    uint64_t x = m->seed ^ (0xC1C0ull << 32) ^ k;
    m->circ_rx_link[k] = rx_link[k];
    if (ns_link_set_loss(s, rx_link[k], c.loss, splitmix(&x)) != kNsOk) {
      berr(b, "loss_rate", "%g is not a probability", c.loss);
      return false;
    }
  }
  double pg = c.part_b ? c.circ_gbps : c.sys_gbps;
  double burst = pc_burst(&c, pg);
  if (c.policer && burst < pg * 1e9 / 8 * c.burst_ms * 1e-3) {
    note(m,
         "policer burst: %g ms at %g Gb/s is %.0f B, above the 24-bit POL_BURST register: "
         "capped at %.0f B (%.3g ms)",
         c.burst_ms, pg, pg * 1e9 / 8 * c.burst_ms * 1e-3, burst, burst * 8 / (pg * 1e9) * 1e3);
  }
  note(m,
       "part %s: %u circuit%s of %g Gb/s, %s x %" PRIu64
       " flow%s per circuit, %g MB per circuit, policer %s (burst %.0f B), queue shaper %s, "
       "sender shaping %s, loss %g on the receiver cables",
       c.part_b ? "b" : "a", m->ncirc, m->ncirc == 1 ? "" : "s",
       c.part_b ? c.circ_gbps : c.sys_gbps, c.cc, c.flows, c.flows == 1 ? "" : "s",
       c.part_b ? c.file_mb : c.sys_file_mb, c.policer ? "on" : "off", burst,
       c.qshaper ? "on" : "off", c.sshaper ? "on" : "off", c.loss);
  return true;
}

bool ns_scenario_build(const ns_scenario_t *sc, ns_sim_t *s, ns_measure_t *m, const char *outdir,
                       char *err, size_t err_len) {
  bctx_t b = {.sc = sc, .err = err, .err_len = err_len};
  memset(m, 0, sizeof(*m));
  bool ok;
  if (strcmp(sc->family, "scale-across") == 0) {
    ok = build_scale_across(&b, s, m, outdir);
  } else if (strcmp(sc->family, "deep-buffer-sweep") == 0) {
    ok = build_deep_buffer(&b, s, m, outdir);
  } else if (strcmp(sc->family, "pfc-victim") == 0) {
    ok = build_pfc_victim(&b, s, m, outdir);
  } else if (strcmp(sc->family, "roce-lab") == 0) {
    ok = build_roce_lab(&b, s, m, outdir);
  } else if (strcmp(sc->family, "policed-circuits") == 0) {
    ok = build_policed_circuits(&b, s, m, outdir);
  } else {
    berr(&b, NULL,
         "unknown family '%s' (scale-across, deep-buffer-sweep, pfc-victim, roce-lab, "
         "policed-circuits)",
         sc->family);
    ok = false;
  }
  m->write_failed = b.write_failed;
  if (ok && !b.bad && m->sample_ps > 0) {
    // the time series is bounded in size, not only in rows: its columns grow with the flows
    // and links of the topology (time, queue, two utilisations, the flows, the links, 3 PFC)
    uint64_t rows = m->end_ps / m->sample_ps + 1;
    uint64_t cols = 4u + (s->nflows < NS_CSV_MAX_FLOWS ? s->nflows : NS_CSV_MAX_FLOWS) +
                    (s->nlinks < NS_CSV_MAX_LINKS ? s->nlinks : NS_CSV_MAX_LINKS) + 3u;
    if (rows * cols > NS_MAX_CSV_VALUES) {
      static const char *const kK[] = {"sample_us", "duration_s", NULL};
      berr_keys(&b, kK,
                "%g us over %g s is %llu rows x %llu columns of timeseries.csv, "
                "above the limit of %u values (raise sample_us, or 0 for no time series)",
                (double)m->sample_ps * 1e-6, (double)m->end_ps * 1e-12, (unsigned long long)rows,
                (unsigned long long)cols, NS_MAX_CSV_VALUES);
      ok = false;
    }
  }
  if (ok && s->nodes[m->bottleneck_router].rt.watch_voq >= 0) {
    // watch the RDMA queue of the bottleneck port
    ns_router_t *r = &s->nodes[m->bottleneck_router].rt;
    const xtm_params_t *xp = xtm_params(r->m);
    r->watch_voq = (int32_t)(m->bottleneck_port * xp->num_tcs + 3u);
  }
  if (ok) {
    s->sample_ps = m->sample_ps;
    s->ival_ps = m->ival_ps;
    s->ival_link = m->bottleneck_link;
    s->ival_router = m->bottleneck_router;
    // the steady-state window starts at the first interval boundary at or after warmup_s
    uint64_t k = (m->warmup_ps + m->ival_ps - 1) / m->ival_ps;
    m->steady_from_ps = k * m->ival_ps;
    s->mark_ps = m->steady_from_ps < m->end_ps ? m->steady_from_ps : NS_NEVER;
  }
  return ok && !b.bad;
}
