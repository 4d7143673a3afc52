// SPDX-License-Identifier: Apache-2.0
//
// Scenario files and family builders (docs/netsim.md section 4).

#define _POSIX_C_SOURCE 200809L

#include "sim/netsim/scenario.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/xtm_cos.h"
#include "firmware/xtm_fw.h"

// ------------------------------------------------------------------ loading (libinih)

typedef struct load_ctx {
  ns_scenario_t *sc;
  FILE *f;
  int line;
  char err[NS_ERR_LEN];
  int err_line;
} load_ctx_t;

static char *reader(char *str, int num, void *stream) {
  load_ctx_t *c = stream;
  char *r = fgets(str, num, c->f);
  if (r != NULL) {
    c->line++;
  }
  return r;
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

static int on_kv(void *user, const char *section, const char *name, const char *value) {
  load_ctx_t *c = user;
  ns_scenario_t *sc = c->sc;
  if (strcmp(section, "scenario") == 0) {
    if (strcmp(name, "name") == 0) {
      snprintf(sc->name, sizeof(sc->name), "%s", value);
    } else if (strcmp(name, "family") == 0) {
      snprintf(sc->family, sizeof(sc->family), "%s", value);
    } else if (strcmp(name, "description") == 0) {
      snprintf(sc->description, sizeof(sc->description), "%s", value);
    } else {
      fail_at(c, "unknown key '%s' in [scenario] (name, family, description)", name);
      return 0;
    }
    return 1;
  }
  if (strcmp(section, "params") != 0) {
    fail_at(c, "unknown section [%s] (expected [scenario] or [params])", section);
    return 0;
  }
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (strcmp(sc->kv[i].key, name) == 0) {
      fail_at(c, "duplicate key '%s' (first at line %d)", name, sc->kv[i].line);
      return 0;
    }
  }
  if (sc->nkv == NS_MAX_KEYS || strlen(name) >= NS_KEY_LEN || strlen(value) >= NS_VAL_LEN) {
    fail_at(c, "too many keys or key/value too long");
    return 0;
  }
  if (value[0] == '\0') {
    fail_at(c, "key '%s' has no value", name);
    return 0;
  }
  ns_kv_t *kv = &sc->kv[sc->nkv++];
  snprintf(kv->key, sizeof(kv->key), "%s", name);
  snprintf(kv->val, sizeof(kv->val), "%s", value);
  kv->line = c->line;
  kv->overridden = false;
  return 1;
}

bool ns_scenario_load(const char *path, ns_scenario_t *sc, char *err, size_t err_len) {
  memset(sc, 0, sizeof(*sc));
  snprintf(sc->path, sizeof(sc->path), "%s", path);
  load_ctx_t c = {.sc = sc};
  c.f = fopen(path, "r");
  if (c.f == NULL) {
    snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
    return false;
  }
  int rc = ini_parse_stream(reader, &c, on_kv, &c);
  fclose(c.f);
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

bool ns_scenario_set(ns_scenario_t *sc, const char *kv, char *err, size_t err_len) {
  const char *eq = strchr(kv, '=');
  if (eq == NULL || eq == kv || eq[1] == '\0') {
    snprintf(err, err_len, "--set '%s': expected key=value", kv);
    return false;
  }
  size_t kl = (size_t)(eq - kv);
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (strlen(sc->kv[i].key) == kl && strncmp(sc->kv[i].key, kv, kl) == 0) {
      if (strlen(eq + 1) >= NS_VAL_LEN) {
        snprintf(err, err_len, "--set '%s': value too long", kv);
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
  snprintf(err, err_len, "--set '%.*s': unknown key for scenario %s (keys: %s)", (int)kl, kv,
           sc->name, keys);
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

static const char *gstr(bctx_t *b, const char *key) {
  const char *v = ns_scenario_get(b->sc, key);
  if (v == NULL) {
    berr(b, NULL, "the %s family needs key '%s' in [params]", b->sc->family, key);
    return "";
  }
  return v;
}

static double gnum(bctx_t *b, const char *key, double lo, double hi) {
  const char *v = gstr(b, key);
  if (b->bad) {
    return lo;
  }
  char *end = NULL;
  errno = 0;
  double d = strtod(v, &end);
  if (end == v || *end != '\0' || errno != 0 || !isfinite(d)) {
    berr(b, key, "'%s' is not a number", v);
    return lo;
  }
  if (d < lo || d > hi) {
    berr(b, key, "%g is out of range %g..%g", d, lo, hi);
    return lo;
  }
  return d;
}

static bool gbool(bctx_t *b, const char *key) {
  const char *v = gstr(b, key);
  if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
    return true;
  }
  if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
    return false;
  }
  berr(b, key, "'%s' is not on/off", v);
  return false;
}

// Keys every family understands, and the family's own; anything else in [params] is an error.
static bool check_keys(bctx_t *b, const char *const *known) {
  static const char *const kCommon[] = {"seed", "duration_s", "sample_us", "ack_every", "rto_us",
                                        "mtu", NULL};
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

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  if (t != NULL && fread(t, 1, (size_t)n, f) == (size_t)n) {
    t[n] = '\0';
  } else {
    free(t);
    t = NULL;
  }
  fclose(f);
  return t;
}

static void save_text(const char *outdir, const char *name, const char *text) {
  if (outdir == NULL) {
    return;
  }
  char p[1024];
  snprintf(p, sizeof(p), "%s/%s", outdir, name);
  FILE *f = fopen(p, "w");
  if (f != NULL) {
    fputs(text, f);
    fclose(f);
  }
}

// Appends printf output to a growing buffer.
typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf_t;

static void sb(sbuf_t *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0) {
    return;
  }
  if (s->n + (size_t)k + 1 > s->cap) {
    size_t nc = (s->cap + (size_t)k + 1) * 2;
    char *q = realloc(s->p, nc);
    if (q == NULL) {
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

static bool program(bctx_t *b, ns_sim_t *s, uint32_t router, const char *name, const char *text,
                    xtm_fw_dcqcn_cfg_t *dc, const char *outdir) {
  save_text(outdir, name, text);
  char e[NS_ERR_LEN];
  if (ns_router_program(s, router, name, text, dc, e, sizeof(e)) != kNsOk) {
    berr(b, NULL, "router configuration: %s", e);
    return false;
  }
  return true;
}

static bool program_nics(bctx_t *b, ns_sim_t *s, const xtm_fw_dcqcn_cfg_t *dc) {
  char e[NS_ERR_LEN];
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind == kNsNodeNic && ns_nic_program_dcqcn(s, i, dc, e, sizeof(e)) != kNsOk) {
      berr(b, NULL, "%s", e);
      return false;
    }
  }
  return true;
}

static void common(bctx_t *b, ns_sim_t *s, ns_measure_t *m, uint32_t *mtu) {
  m->seed = (uint64_t)gnum(b, "seed", 0, 1e15);
  double dur = gnum(b, "duration_s", 1e-6, 3600);
  m->end_ps = (uint64_t)(dur * 1e12);
  double su = gnum(b, "sample_us", 0, 1e9);
  m->sample_ps = (uint64_t)(su * 1e6);
  s->ack_every = (uint64_t)gnum(b, "ack_every", 1, 1 << 20);
  s->rto_ps = (uint64_t)(gnum(b, "rto_us", 1, 1e8) * 1e6);
  *mtu = (uint32_t)gnum(b, "mtu", 64, 9000);
  m->victim_flow = UINT32_MAX;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The DCI router configuration in the form of firmware/examples/gen-examples.py, for any
// number of clients, buffer and thresholds (used when no example file matches).
static char *dci_config(uint32_t clients, double rtt, double buf_rtt, double kmin_rtt,
                        double kmax_rtt, uint32_t rpg_time_reset, bool pfc, double dci_gbps,
                        double host_gbps) {
  sbuf_t s = {0};
  double kmin = 100.0 * kmin_rtt / buf_rtt, kmax = 100.0 * kmax_rtt / buf_rtt;
  sb(&s, "# Generated by xtm-netsim: %u clients, RTT %.1f us, buffer %.3f RTT, Kmin %.3f RTT "
         "(%.3f %%), Kmax %.3f RTT (%.3f %%)\n", clients, rtt, buf_rtt, kmin_rtt, kmin, kmax_rtt,
     kmax);
  sb(&s, "class-of-service {\n forwarding-classes {\n  class best-effort queue-num 0;\n"
         "  class rdma-data queue-num 3 no-loss pfc-priority 3;\n  class cnp queue-num 6;\n }\n");
  sb(&s, " classifiers { dscp dci-dscp {\n  forwarding-class best-effort { loss-priority low "
         "code-points be; }\n  forwarding-class rdma-data { loss-priority low code-points 011010; }\n"
         "  forwarding-class cnp { loss-priority low code-points 110000; }\n } }\n");
  sb(&s, " drop-profiles { dci-prof {\n  fill-level %.3f drop-probability 1;\n  fill-level %.3f "
         "drop-probability 100;\n } }\n", kmin, kmax > 100.0 ? 100.0 : kmax);
  sb(&s, " schedulers {\n  rdma-sched {\n   buffer-rate percent 100;\n   buffer-size temporal %.3f;\n"
         "   drop-profile-map loss-priority any protocol any drop-profile dci-prof;\n"
         "   explicit-congestion-notification;\n   ecn-enhanced { head-marking; }\n  }\n"
         "  cnp-sched { buffer-size temporal 100; priority strict-high; }\n"
         "  be-sched { transmit-rate percent 10; buffer-size temporal 1000; }\n }\n",
     buf_rtt * rtt);
  sb(&s, " scheduler-maps { dci-map {\n  forwarding-class best-effort scheduler be-sched;\n"
         "  forwarding-class rdma-data scheduler rdma-sched;\n  forwarding-class cnp scheduler "
         "cnp-sched;\n } }\n");
  if (pfc) {
    sb(&s, " congestion-notification-profile { client-pfc { input {\n  pfc-account rdma { "
           "pfc-priority 3; xoff %.3f; xon %.3f; }\n  cable-length 100;\n  mtu 9216;\n } } }\n",
       0.5 * rtt, 0.375 * rtt);
  }
  sb(&s, " interfaces {\n");
  for (uint32_t i = 0; i < clients; i++) {
    sb(&s, "  et-0/0/%u { speed %.0fg; %s classifiers { dscp dci-dscp; } }\n", i, host_gbps,
       pfc ? "congestion-notification-profile client-pfc;" : "");
  }
  sb(&s, "  et-0/0/%u { speed %.0fg; scheduler-map dci-map; }\n }\n", clients, dci_gbps);
  sb(&s, " dcqcn {\n  RPG_MIN_DEC_FAC 95;\n  CLAMP_TGT_RATE 1;\n  RPG_TIME_RESET %u;\n }\n}\n",
     rpg_time_reset);
  return s.p;
}

// ------------------------------------------------------------------ scale-across

static bool build_scale_across(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"distance_km", "rtt_us", "clients", "load_bdp", "profile",
                                      "qps", "msg_bytes", "dcqcn", "link_gbps", "buffer_rtt",
                                      "kmin_rtt", "kmax_rtt", "host_prop_us", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  uint32_t mtu;
  common(b, s, m, &mtu);
  double km = gnum(b, "distance_km", 0, 20000);
  double rtt = gnum(b, "rtt_us", 0, 1e6);
  uint32_t clients = (uint32_t)gnum(b, "clients", 1, 12);
  double load = gnum(b, "load_bdp", 0, 100);
  const char *prof = gstr(b, "profile");
  uint32_t qps = (uint32_t)gnum(b, "qps", 1, 256);
  double msg = gnum(b, "msg_bytes", 1, 1e9);
  bool dcqcn = gbool(b, "dcqcn");
  double gbps = gnum(b, "link_gbps", 1e-3, 800);
  double host_prop = gnum(b, "host_prop_us", 0, 1e6);
  if (b->bad) {
    return false;
  }
  if (load <= 0) {
    berr(b, "load_bdp", "an empty window (load_bdp must be > 0)");
    return false;
  }
  if (rtt == 0) {
    if (km < 1) {
      berr(b, "distance_km", "%g km: give distance_km >= 1 or rtt_us", km);
      return false;
    }
    rtt = rtt_of_km(km);
  }
  if (rtt / 2 <= host_prop) {
    berr(b, "rtt_us", "RTT %.1f us is not above twice the host link delay", rtt);
    return false;
  }
  double buf = 2.5, kmin = 0.75, kmax = 1.5;
  if (strcmp(prof, "final") == 0) {
  } else if (strcmp(prof, "low-kmin") == 0) {
    kmin = 0.25;
    kmax = 1.0;
  } else if (strcmp(prof, "deep-buffer") == 0) {
    buf = 10;
    kmin = 0.8;
    kmax = 1.5;
  } else if (strcmp(prof, "custom") == 0) {
    buf = gnum(b, "buffer_rtt", 1e-4, 1000);
    kmin = gnum(b, "kmin_rtt", 0, 1000);
    kmax = gnum(b, "kmax_rtt", 0, 1000);
    if (b->bad) {
      return false;
    }
    if (!(kmin < kmax)) {
      berr(b, "kmin_rtt", "Kmin %g RTT is not below Kmax %g RTT", kmin, kmax);
      return false;
    }
  } else {
    berr(b, "profile", "'%s' is not one of low-kmin, final, deep-buffer, custom", prof);
    return false;
  }
  uint64_t bps = (uint64_t)(gbps * 1e9);
  double bdp = (double)bps / 8.0 * rtt * 1e-6;
  uint32_t t = (uint32_t)floor(load * bdp / ((double)qps * msg) + 0.5);
  if (t == 0) {
    berr(b, "load_bdp", "%g BDP gives an empty window (t = 0 messages of %g B per QP)", load, msg);
    return false;
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = clients + 1;
  p.num_desc = 1u << 20;
  uint32_t r, rx;
  if (ns_add_router(s, "dci", &p, &r) != kNsOk || ns_add_nic(s, "server", dcqcn ? clients * qps : 0, &rx) != kNsOk) {
    berr(b, NULL, "cannot create the router or the server NIC");
    return false;
  }
  uint64_t hp = (uint64_t)(host_prop * 1e6);
  uint64_t dci_prop = (uint64_t)((rtt / 2 - host_prop) * 1e6);
  for (uint32_t c = 0; c < clients; c++) {
    char nm[32];
    snprintf(nm, sizeof(nm), "client%u", c);
    uint32_t id;
    if (ns_add_nic(s, nm, dcqcn ? qps : 0, &id) != kNsOk || ns_connect(s, id, 0, r, c, bps, hp, NULL) != kNsOk) {
      berr(b, NULL, "cannot create client %u", c);
      return false;
    }
  }
  uint32_t dl;
  if (ns_connect(s, r, clients, rx, 0, bps, dci_prop, &dl) != kNsOk || ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the links");
    return false;
  }
  snprintf(s->links[dl].name, sizeof(s->links[dl].name), "dci (router port %u -> server)", clients);
  // configuration: the example file of firmware/examples when one matches
  char path[512];
  snprintf(path, sizeof(path), "firmware/examples/dci-%gkm-%s.conf", km, prof);
  char *text = NULL;
  bool example = clients == 4 && gbps == 100 && ns_scenario_get(b->sc, "rtt_us") != NULL &&
                 strcmp(ns_scenario_get(b->sc, "rtt_us"), "0") == 0 && strcmp(prof, "custom") != 0;
  if (example) {
    text = read_file(path);
  }
  if (text == NULL) {
    snprintf(path, sizeof(path), "dci-generated.conf");
    text = dci_config(clients, rtt, buf, kmin, kmax, km > 400 ? 7000 : 5000, true, gbps, gbps);
  }
  xtm_fw_dcqcn_cfg_t dc;
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  bool ok = text != NULL && program(b, s, r, base, text, &dc, outdir) && program_nics(b, s, &dc);
  free(text);
  if (!ok) {
    return false;
  }
  uint64_t rng = m->seed;
  for (uint32_t c = 0; c < clients; c++) {
    for (uint32_t q = 0; q < qps; q++) {
      ns_flow_t f = {.src = (uint16_t)(2 + c), .dst = (uint16_t)rx, .dscp = 26, .prio = 3,
                     .mtu = mtu, .msg_bytes = (uint64_t)msg, .window_msgs = t,
                     .start_ps = splitmix(&rng) % (10 * NS_PS_PER_US)};
      snprintf(f.name, sizeof(f.name), "client%u.qp%u", c, q);
      snprintf(f.group, sizeof(f.group), "client%u", c);
      if (ns_add_flow(s, &f, NULL) != kNsOk) {
        berr(b, "mtu", "flow refused (mtu %u)", mtu);
        return false;
      }
    }
  }
  m->bottleneck_router = r;
  m->bottleneck_port = clients;
  m->bottleneck_link = dl;
  m->rtt_us = rtt;
  return true;
}

// ------------------------------------------------------------------ deep-buffer-sweep

static bool build_deep_buffer(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"distance_km", "buffer_bdp", "message_mb", "dcqcn",
                                      "sender_gbps", "kmin_pct", "kmax_pct", NULL};
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
  if (b->bad) {
    return false;
  }
  if (bufb <= 0 || mb <= 0) {
    berr(b, bufb <= 0 ? "buffer_bdp" : "message_mb", "must be > 0");
    return false;
  }
  if (km <= 0) {
    berr(b, "distance_km", "%g km: the long-haul link needs a positive length", km);
    return false;
  }
  double lg = sg / 2;  // the long-haul link runs at half the sender port rate (2:1)
  double rtt = 2.0 * (5.0 * km + 1.0);  // 5 us/km one way plus 1 us of host links per way
  double bdp = lg * 1e9 / 8 * rtt * 1e-6;
  double buf_us = bufb * rtt;
  if (bufb * bdp < (double)(mtu + NS_HDR_BYTES)) {
    berr(b, "buffer_bdp", "%g BDP is %.0f bytes at %g km, below one %u-byte frame: every "
         "frame would be dropped", bufb, bufb * bdp, km, mtu + NS_HDR_BYTES);
    return false;
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  p.num_desc = 1u << 20;
  uint32_t r, tx, rx;
  if (ns_add_router(s, "sw", &p, &r) != kNsOk || ns_add_nic(s, "sender", dcqcn ? 1 : 0, &tx) != kNsOk ||
      ns_add_nic(s, "receiver", dcqcn ? 1 : 0, &rx) != kNsOk) {
    berr(b, NULL, "cannot create nodes");
    return false;
  }
  uint32_t dl;
  if (ns_connect(s, tx, 0, r, 0, (uint64_t)(sg * 1e9), NS_PS_PER_US, NULL) != kNsOk ||
      ns_connect(s, r, 1, rx, 0, (uint64_t)(lg * 1e9), (uint64_t)(5.0 * km * 1e6), &dl) != kNsOk ||
      ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the links");
    return false;
  }
  snprintf(s->links[dl].name, sizeof(s->links[dl].name), "long-haul (sw port 1 -> receiver)");
  sbuf_t c = {0};
  sb(&c, "# Generated by xtm-netsim: deep-buffer-sweep, %g km, RTT %.1f us, buffer %g BDP = %.3f us "
         "at %g Gb/s (%.0f bytes), ECN %g..%g %%, lossy (no PFC)\n", km, rtt, bufb, buf_us, lg,
     bufb * bdp, kmin, kmax);
  sb(&c, "class-of-service {\n forwarding-classes { class best-effort queue-num 0; class rdma "
         "queue-num 3; class cnp queue-num 6; }\n classifiers { dscp d { forwarding-class rdma { "
         "loss-priority low code-points 011010; } forwarding-class cnp { loss-priority low "
         "code-points 110000; } } }\n drop-profiles { p { fill-level %.3f drop-probability 1; "
         "fill-level %.3f drop-probability 100; } }\n", kmin, kmax);
  sb(&c, " schedulers { rs { buffer-rate percent 100; buffer-size temporal %.3f; drop-profile-map "
         "loss-priority any protocol any drop-profile p; explicit-congestion-notification; } cs { "
         "priority strict-high; } bs { transmit-rate percent 10; } }\n", buf_us < 0.001 ? 0.001 : buf_us);
  sb(&c, " scheduler-maps { m { forwarding-class best-effort scheduler bs; forwarding-class rdma "
         "scheduler rs; forwarding-class cnp scheduler cs; } }\n interfaces { et-0/0/0 { speed "
         "%gg; classifiers { dscp d; } } et-0/0/1 { speed %gg; scheduler-map m; } }\n dcqcn { "
         "RPG_MIN_DEC_FAC 50; }\n}\n", sg, lg);
  xtm_fw_dcqcn_cfg_t dc;
  bool ok = c.p != NULL && program(b, s, r, "deep-buffer-generated.conf", c.p, &dc, outdir) &&
            program_nics(b, s, &dc);
  free(c.p);
  if (!ok) {
    return false;
  }
  ns_flow_t f = {.src = (uint16_t)tx, .dst = (uint16_t)rx, .dscp = 26, .prio = 3, .mtu = mtu,
                 .msg_bytes = (uint64_t)(mb * 1e6), .window_msgs = 1, .total_msgs = 1};
  snprintf(f.name, sizeof(f.name), "message");
  snprintf(f.group, sizeof(f.group), "sender");
  if (ns_add_flow(s, &f, NULL) != kNsOk) {
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

static bool build_pfc_victim(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"run", "buffer_mib", "dcqcn", "extra_senders", "flow_mb",
                                      "link_gbps", "delay_us", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  uint32_t mtu;
  common(b, s, m, &mtu);
  const char *run = gstr(b, "run");
  double bmib = gnum(b, "buffer_mib", 0, 65536);
  bool dcqcn = gbool(b, "dcqcn");
  int extra = (int)gnum(b, "extra_senders", -1, 8);
  double mb = gnum(b, "flow_mb", 0, 1e6);
  double gbps = gnum(b, "link_gbps", 0, 800);
  double dly = gnum(b, "delay_us", -1e9, 1e6);
  if (b->bad) {
    return false;
  }
  if (gbps <= 0) {
    berr(b, "link_gbps", "a zero link rate");
    return false;
  }
  if (dly < 0) {
    berr(b, "delay_us", "a negative delay");
    return false;
  }
  if (mb <= 0) {
    berr(b, "flow_mb", "an empty flow");
    return false;
  }
  uint32_t vprio = 3;
  int senders = 6;
  if (strcmp(run, "alone") == 0) {
    senders = 0;
    if (bmib == 0) {
      bmib = 32;
    }
  } else if (strcmp(run, "big-buffer") == 0) {
    if (bmib == 0) {
      bmib = 32;
    }
  } else if (strcmp(run, "pfc") == 0) {
    if (bmib == 0) {
      bmib = 1;
    }
  } else if (strcmp(run, "other-priority") == 0) {
    if (bmib == 0) {
      bmib = 1;
    }
    vprio = 1;
  } else {
    berr(b, "run", "'%s' is not one of alone, big-buffer, pfc, other-priority", run);
    return false;
  }
  if (extra >= 0 && strcmp(run, "alone") != 0) {
    senders = extra;
  }
  uint64_t bps = (uint64_t)(gbps * 1e9);
  uint64_t prop = (uint64_t)(dly * 1e6);
  uint32_t buf_cells = (uint32_t)(bmib * 1048576.0 / 256.0);
  // A: port 1 S, port 2 VS, port 3 -> B.  B: port 1 R, port 2 VR, port 3 A, ports 4.. S1..Sn
  xtm_params_t pa, pb;
  xtm_params_default(&pa);
  pa.num_ports = 4;
  pa.ocb_cells = buf_cells;
  pa.hbm_cells = 0;
  pa.num_desc = 1u << 16;
  pb = pa;
  pb.num_ports = (uint32_t)(4 + (senders > 0 ? senders : 0));
  uint32_t A, B;
  if (ns_add_router(s, "A", &pa, &A) != kNsOk || ns_add_router(s, "B", &pb, &B) != kNsOk) {
    berr(b, "buffer_mib", "cannot create the switches with %g MiB", bmib);
    return false;
  }
  uint32_t nq = dcqcn ? 16 : 0;
  uint32_t S, VS, R, VR, ab;
  bool ok = ns_add_nic(s, "S", nq, &S) == kNsOk && ns_add_nic(s, "VS", nq, &VS) == kNsOk &&
            ns_add_nic(s, "R", nq, &R) == kNsOk && ns_add_nic(s, "VR", nq, &VR) == kNsOk &&
            ns_connect(s, S, 0, A, 1, bps, prop, NULL) == kNsOk &&
            ns_connect(s, VS, 0, A, 2, bps, prop, NULL) == kNsOk &&
            ns_connect(s, A, 3, B, 3, bps, prop, &ab) == kNsOk &&
            ns_connect(s, B, 1, R, 0, bps, prop, NULL) == kNsOk &&
            ns_connect(s, B, 2, VR, 0, bps, prop, NULL) == kNsOk;
  uint32_t sid[8];
  for (int i = 0; ok && i < senders; i++) {
    char nm[8];
    snprintf(nm, sizeof(nm), "S%d", i + 1);
    ok = ns_add_nic(s, nm, nq, &sid[i]) == kNsOk &&
         ns_connect(s, sid[i], 0, B, (uint32_t)(4 + i), bps, prop, NULL) == kNsOk;
  }
  if (!ok || ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the topology");
    return false;
  }
  // Configurations: one lossless class per priority in use; queues take the whole buffer
  // (buffer-size in us of the port rate); PFC xoff = buffer / (2 x PFC ingress ports),
  // xon = 0.75 x xoff (the Junos default ratio 3750/5000).
  double buf_us = bmib * 1048576.0 * 8.0 / (double)bps * 1e6;
  double cable_m = dly * 200.0 > 1 ? dly * 200.0 : 1.0;  // 5 ns/m one way
  uint64_t hdrm_bits = 0;
  if (!xtm_cos_headroom_bits(bps, (uint32_t)cable_m, mtu + NS_HDR_BYTES, &hdrm_bits)) {
    berr(b, "link_gbps", "%g Gb/s is not a port speed the configuration compiler supports", gbps);
    return false;
  }
  for (int sw = 0; sw < 2; sw++) {
    uint32_t nports = sw == 0 ? 3u : (uint32_t)(3 + senders);
    // PFC (a congestion-notification-profile) on the ports where lossless data enters, with
    // the priorities that enter there, and on A's port to B so that A honours B's PAUSE.
    // B's ports to R and VR carry only ACKs into B: no PFC there.
    const char *prof[NS_MAX_PORTS] = {NULL};
    uint32_t npgs = 0;
    for (uint32_t p = 1; p <= nports; p++) {
      if (sw == 1 && p <= 2) {
        continue;
      }
      bool victim_in = (sw == 0 && p == 2) || (sw == 1 && p == 3);
      if (victim_in && vprio == 1) {
        prof[p] = (sw == 1) ? "c13" : "c1";
      } else {
        prof[p] = "c3";
      }
      npgs += strcmp(prof[p], "c13") == 0 ? 2u : 1u;
    }
    // every PG's headroom comes out of the buffer first; the rest is shared, and each PG's
    // XOFF point is half of its even share of it (XON at 0.75 x XOFF, the Junos ratio)
    double hdrm_bytes = (double)hdrm_bits / 8.0 + 512.0;
    double shared = bmib * 1048576.0 - npgs * hdrm_bytes;
    if (shared < 4.0 * npgs * (mtu + NS_HDR_BYTES)) {
      berr(b, "buffer_mib", "%g MiB leaves no shared buffer after the PFC headroom of %u "
           "priority groups (%.0f bytes each)", bmib, npgs, hdrm_bytes);
      return false;
    }
    double xoff = shared / (2.0 * npgs) * 8.0 / (double)bps * 1e6;
    sbuf_t c = {0};
    sb(&c, "# Generated by xtm-netsim: pfc-victim switch %s, run %s, buffer %g MiB, victim "
           "priority %u, %u PFC priority groups\n", sw == 0 ? "A" : "B", run, bmib, vprio, npgs);
    sb(&c, "class-of-service {\n forwarding-classes { class be queue-num 0; class p1 queue-num 1 "
           "no-loss pfc-priority 1; class rdma queue-num 3 no-loss pfc-priority 3; class cnp "
           "queue-num 6; }\n classifiers { dscp d { forwarding-class p1 { loss-priority low "
           "code-points 001010; } forwarding-class rdma { loss-priority low code-points 011010; } "
           "forwarding-class cnp { loss-priority low code-points 110000; } } }\n");
    sb(&c, " drop-profiles { e { fill-level 5 drop-probability 1; fill-level 20 drop-probability "
           "100; } }\n schedulers { rs { buffer-size temporal %.3f; drop-profile-map loss-priority "
           "any protocol any drop-profile e; explicit-congestion-notification; } cs { priority "
           "strict-high; } bs { transmit-rate percent 10; } }\n", buf_us);
    sb(&c, " scheduler-maps { m { forwarding-class be scheduler bs; forwarding-class p1 scheduler "
           "rs; forwarding-class rdma scheduler rs; forwarding-class cnp scheduler cs; } }\n");
    static const char *const kPrio[3][2] = {{"c3", "3"}, {"c1", "1"}, {"c13", "1 3"}};
    sb(&c, " congestion-notification-profile {\n");
    for (int k = 0; k < 3; k++) {
      sb(&c, "  %s { input { pfc-account a { pfc-priority [ %s ]; xoff %.3f; xon %.3f; } "
             "cable-length %.0f; mtu %u; } }\n", kPrio[k][0], kPrio[k][1], xoff, 0.75 * xoff,
         cable_m, mtu + NS_HDR_BYTES);
    }
    sb(&c, " }\n interfaces {\n");
    for (uint32_t p = 1; p <= nports; p++) {
      if (prof[p] != NULL) {
        sb(&c, "  et-0/0/%u { speed %gg; scheduler-map m; congestion-notification-profile %s; "
               "classifiers { dscp d; } }\n", p, gbps, prof[p]);
      } else {
        sb(&c, "  et-0/0/%u { speed %gg; scheduler-map m; classifiers { dscp d; } }\n", p, gbps);
      }
    }
    sb(&c, " }\n dcqcn { RPG_MIN_DEC_FAC 50; }\n}\n");
    xtm_fw_dcqcn_cfg_t dc;
    ok = c.p != NULL && program(b, s, sw == 0 ? A : B, sw == 0 ? "pfc-victim-A.conf" : "pfc-victim-B.conf",
                                c.p, &dc, outdir);
    free(c.p);
    if (!ok || (sw == 1 && !program_nics(b, s, &dc))) {
      return false;
    }
  }
  uint64_t bytes = (uint64_t)(mb * 1e6);
  uint64_t msg = bytes < 65536 ? bytes : 65536;
  ns_flow_t base = {.dscp = 26, .prio = 3, .mtu = mtu, .msg_bytes = msg, .window_msgs = 64,
                    .total_msgs = (bytes + msg - 1) / msg};
  ns_flow_t f = base;
  f.src = (uint16_t)S;
  f.dst = (uint16_t)R;
  snprintf(f.name, sizeof(f.name), "S->R");
  snprintf(f.group, sizeof(f.group), "S");
  ok = ns_add_flow(s, &f, NULL) == kNsOk;
  f = base;
  f.src = (uint16_t)VS;
  f.dst = (uint16_t)VR;
  if (vprio == 1) {
    f.prio = 1;
    f.dscp = 10;
  }
  snprintf(f.name, sizeof(f.name), "VS->VR (victim)");
  snprintf(f.group, sizeof(f.group), "VS");
  ok = ok && ns_add_flow(s, &f, &m->victim_flow) == kNsOk;
  for (int i = 0; ok && i < senders; i++) {
    f = base;
    f.src = (uint16_t)sid[i];
    f.dst = (uint16_t)R;
    snprintf(f.name, sizeof(f.name), "S%d->R", i + 1);
    snprintf(f.group, sizeof(f.group), "S%d", i + 1);
    ok = ns_add_flow(s, &f, NULL) == kNsOk;
  }
  if (!ok) {
    berr(b, "mtu", "flow refused");
    return false;
  }
  m->bottleneck_router = B;
  m->bottleneck_port = 1;
  m->bottleneck_link = s->nodes[B].rt.port_link[1];
  m->rtt_us = 6 * dly;
  (void)ab;
  return true;
}

// ------------------------------------------------------------------ roce-lab

static bool build_roce_lab(bctx_t *b, ns_sim_t *s, ns_measure_t *m, const char *outdir) {
  static const char *const kKeys[] = {"phase", "iterations", "host_gbps", "config", "bulk_ms",
                                      "recover_ms", "dcqcn", NULL};
  if (!check_keys(b, kKeys)) {
    return false;
  }
  uint32_t mtu;
  common(b, s, m, &mtu);
  const char *phase = gstr(b, "phase");
  uint32_t iters = (uint32_t)gnum(b, "iterations", 1, 1e6);
  double hg = gnum(b, "host_gbps", 0, 800);
  const char *conf = gstr(b, "config");
  double bulk_ms = gnum(b, "bulk_ms", 0, 1e6);
  double rec_ms = gnum(b, "recover_ms", 0, 1e6);
  bool dcqcn = gbool(b, "dcqcn");
  if (b->bad) {
    return false;
  }
  if (hg <= 0) {
    berr(b, "host_gbps", "a zero link rate");
    return false;
  }
  bool bulk, probe_after;
  if (strcmp(phase, "unloaded") == 0) {
    bulk = false;
    probe_after = false;
  } else if (strcmp(phase, "congested") == 0) {
    bulk = true;
    probe_after = false;
  } else if (strcmp(phase, "recovered") == 0) {
    bulk = true;
    probe_after = true;
  } else {
    berr(b, "phase", "'%s' is not one of unloaded, congested, recovered", phase);
    return false;
  }
  xtm_params_t p;
  xtm_params_default(&p);
  p.num_ports = 2;
  uint32_t r, h1, h2;
  uint64_t bps = (uint64_t)(hg * 1e9);
  if (ns_add_router(s, "z9100", &p, &r) != kNsOk || ns_add_nic(s, "host1", dcqcn ? 4 : 0, &h1) != kNsOk ||
      ns_add_nic(s, "host2", dcqcn ? 4 : 0, &h2) != kNsOk ||
      ns_connect(s, h1, 0, r, 0, bps, 15 * NS_PS_PER_NS, NULL) != kNsOk ||
      ns_connect(s, r, 1, h2, 0, bps, 15 * NS_PS_PER_NS, NULL) != kNsOk || ns_compute_routes(s) != kNsOk) {
    berr(b, NULL, "cannot build the lab");
    return false;
  }
  char *text = read_file(conf);
  if (text == NULL) {
    berr(b, "config", "cannot read '%s'", conf);
    return false;
  }
  xtm_fw_dcqcn_cfg_t dc;
  const char *base = strrchr(conf, '/') ? strrchr(conf, '/') + 1 : conf;
  bool ok = program(b, s, r, base, text, &dc, outdir) && program_nics(b, s, &dc);
  free(text);
  if (!ok) {
    return false;
  }
  uint64_t probe_start = 0;
  if (bulk) {
    ns_flow_t f = {.src = (uint16_t)h1, .dst = (uint16_t)h2, .dscp = 26, .prio = 3, .mtu = mtu,
                   .msg_bytes = 65536, .window_msgs = 16};
    if (probe_after) {
      f.total_msgs = (uint64_t)(bulk_ms * 1e-3 * 6e9 / 8 / 65536);  // about bulk_ms at 6 Gb/s
      probe_start = (uint64_t)((bulk_ms + rec_ms) * 1e9);
    } else {
      probe_start = (uint64_t)(bulk_ms * 1e9);  // probe once the queue is congested
    }
    snprintf(f.name, sizeof(f.name), "write-65536");
    snprintf(f.group, sizeof(f.group), "bulk");
    ok = ns_add_flow(s, &f, NULL) == kNsOk;
  }
  ns_flow_t pr = {.src = (uint16_t)h1, .dst = (uint16_t)h2, .dscp = 26, .prio = 3, .mtu = mtu,
                  .msg_bytes = 64, .window_msgs = 1, .total_msgs = iters,
                  .start_ps = probe_start, .record_latency = true};
  snprintf(pr.name, sizeof(pr.name), "send-64-latency");
  snprintf(pr.group, sizeof(pr.group), "probe");
  ok = ok && ns_add_flow(s, &pr, &m->victim_flow) == kNsOk;
  if (!ok) {
    berr(b, "mtu", "flow refused");
    return false;
  }
  m->bottleneck_router = r;
  m->bottleneck_port = 1;
  m->bottleneck_link = s->nodes[r].rt.port_link[1];
  m->rtt_us = 0.1;
  m->measure_from_ps = probe_start;
  snprintf(m->phase, sizeof(m->phase), "%s", phase);
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
  } else {
    berr(&b, NULL, "unknown family '%s' (scale-across, deep-buffer-sweep, pfc-victim, roce-lab)",
         sc->family);
    ok = false;
  }
  if (ok && s->nodes[m->bottleneck_router].rt.watch_voq >= 0) {
    // watch the RDMA queue of the bottleneck port
    ns_router_t *r = &s->nodes[m->bottleneck_router].rt;
    const xtm_params_t *xp = xtm_params(r->m);
    r->watch_voq = (int32_t)(m->bottleneck_port * xp->num_tcs + 3u);
  }
  s->sample_ps = m->sample_ps;
  return ok && !b.bad;
}
