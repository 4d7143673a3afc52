// SPDX-License-Identifier: Apache-2.0
//
// xtm-netsim command line: run one scenario, or sweep a family on all cores or as one Slurm
// job array (docs/netsim.md sections 5 and 6). Exit status: 0 ok, 1 bad input (nothing ran,
// or a sweep run refused its input), 2 failure (a run failed, or an output was lost).

#define _POSIX_C_SOURCE 200809L

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/netsim/netsim.h"
#include "sim/netsim/plot.h"
#include "sim/netsim/scenario.h"
#include "tools/lib/xtm_num.h"

#include "rtl/xtm/autogen/xtm_regs.h"  // Generated.

#ifndef NETSIM_VERSION
#define NETSIM_VERSION "unknown"
#endif

#define MAX_SETS 32
#define MAX_JSON_INTERVALS 10000u

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Creates a directory and its parents. Returns 0, 1 when a component exists and is not a
// directory (bad input), 2 on another error; errno tells why.
static int mkdir_p(const char *path) {
  char tmp[1024];
  if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp) || tmp[0] == '\0') {
    errno = ENAMETOOLONG;
    return 2;
  }
  struct stat st;
  for (char *p = tmp + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
        return 2;
      }
      if (stat(tmp, &st) != 0) {
        return 2;
      }
      if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return 1;
      }
      *p = c;
      if (c == '\0') {
        break;
      }
    }
  }
  return 0;
}

// ------------------------------------------------------------------ checked outputs

static char g_write_err[1400];  // the first lost output of this process

static void write_failed(const char *path) {
  if (g_write_err[0] == '\0') {
    snprintf(g_write_err, sizeof(g_write_err), "writing %s: %s", path,
             errno != 0 ? strerror(errno) : "write error");
  }
}

static FILE *out_open(const char *dir, const char *name, char *path, size_t n) {
  snprintf(path, n, "%s/%s", dir, name);
  errno = 0;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    write_failed(path);
  }
  return f;
}

// Closes an output; false (and the error recorded) when anything written to it was lost.
static bool out_close(FILE *f, const char *path) {
  if (f == NULL) {
    return false;
  }
  errno = 0;
  bool bad = ferror(f) != 0;
  if (fclose(f) != 0 || bad) {
    write_failed(path);
    return false;
  }
  return true;
}

// ------------------------------------------------------------------ one run

#define MAX_PFC_PGS 128

// The configuration of the bottleneck router that the plots draw against (docs/netsim.md
// 5.1), read back from its registers once it is programmed: the watched VOQ's limit and
// profile, the shared pool, and every lossless (PFC_EN) ingress PG with its thresholds.
typedef struct router_cfg {
  uint32_t q_cfg, q_limit, pool;
  uint32_t pr_cfg, fill[8], prob[8];
  uint32_t npg;
  uint16_t pg_port[MAX_PFC_PGS];
  uint8_t pg_prio[MAX_PFC_PGS];
  uint32_t g_cfg[MAX_PFC_PGS], xoff[MAX_PFC_PGS], xon[MAX_PFC_PGS];
  bool ok;
} router_cfg_t;

typedef struct run_ctx {
  ns_sim_t *s;
  ns_measure_t *m;
  FILE *csv;
  uint64_t last_ps;
  uint64_t last_frames;
  uint32_t ncsv;
  uint32_t nlinks_csv;
  const router_cfg_t *cfg;  // npg > 0: the PG columns are written
} run_ctx_t;

// Reads the configuration through the CSR backdoor (between cycles; the select registers
// are restored, no other register is written). false when a read fails.
static bool read_router_cfg(ns_router_t *r, uint32_t voq, router_cfg_t *c) {
  memset(c, 0, sizeof(*c));
  xtm_t *x = r->m;
  const xtm_params_t *xp = xtm_params(x);
  uint32_t vsel = 0, gsel = 0, psel = 0;
  bool ok = xtm_csr_read(x, XTM_VOQ_SEL_REG_OFFSET, &vsel) &&
            xtm_csr_read(x, XTM_PG_SEL_REG_OFFSET, &gsel) &&
            xtm_csr_read(x, XTM_PROF_SEL_REG_OFFSET, &psel);
  ok = ok && xtm_csr_write(x, XTM_VOQ_SEL_REG_OFFSET, voq) &&
       xtm_csr_read(x, XTM_Q_CFG_REG_OFFSET, &c->q_cfg) &&
       xtm_csr_read(x, XTM_Q_LIMIT_CELLS_REG_OFFSET, &c->q_limit) &&
       xtm_csr_read(x, XTM_POOL_CELLS_REG_OFFSET, &c->pool);
  uint32_t prof = (c->q_cfg >> XTM_Q_CFG_PROFILE_OFFSET) & XTM_Q_CFG_PROFILE_MASK;
  ok = ok && xtm_csr_write(x, XTM_PROF_SEL_REG_OFFSET, prof) &&
       xtm_csr_read(x, XTM_PR_CFG_REG_OFFSET, &c->pr_cfg);
  for (uint32_t i = 0; ok && i < 8; i++) {
    ok = xtm_csr_read(x, (uint16_t)XTM_PR_FILL_REG_OFFSET_N(i), &c->fill[i]) &&
         xtm_csr_read(x, (uint16_t)(XTM_PR_PROB_0_REG_OFFSET + 4u * i), &c->prob[i]);
  }
  for (uint32_t p = 0; ok && p < xp->num_ports; p++) {
    for (uint32_t g = 0; ok && g < 8; g++) {
      uint32_t cfg = 0;
      ok = xtm_csr_write(x, XTM_PG_SEL_REG_OFFSET, p * 8 + g) &&
           xtm_csr_read(x, XTM_G_CFG_REG_OFFSET, &cfg);
      if (ok && (cfg & (1u << XTM_G_CFG_PFC_EN_BIT)) && c->npg < MAX_PFC_PGS) {
        uint32_t k = c->npg++;
        c->pg_port[k] = (uint16_t)p;
        c->pg_prio[k] = (uint8_t)g;
        c->g_cfg[k] = cfg;
        ok = xtm_csr_read(x, XTM_G_XOFF_CELLS_REG_OFFSET, &c->xoff[k]) &&
             xtm_csr_read(x, XTM_G_XON_CELLS_REG_OFFSET, &c->xon[k]);
      }
    }
  }
  ok = xtm_csr_write(x, XTM_VOQ_SEL_REG_OFFSET, vsel) &&
       xtm_csr_write(x, XTM_PG_SEL_REG_OFFSET, gsel) &&
       xtm_csr_write(x, XTM_PROF_SEL_REG_OFFSET, psel) && ok;
  c->ok = ok;
  return ok;
}

// XOFF and XON thresholds (cells) of lossless PG k now (docs/spec.md 7.1).
static void pg_thresholds(const router_cfg_t *c, uint32_t k, uint32_t pool_used, uint64_t *xoff,
                          uint64_t *xon) {
  if (c->g_cfg[k] & (1u << XTM_G_CFG_DYNAMIC_BIT)) {
    uint32_t alpha = (c->g_cfg[k] >> XTM_G_CFG_ALPHA_OFFSET) & XTM_G_CFG_ALPHA_MASK;
    uint64_t free = c->pool > pool_used ? c->pool - pool_used : 0;
    *xoff = free >> alpha;
    *xon = *xoff > c->xon[k] ? *xoff - c->xon[k] : 0;
  } else {
    *xoff = c->xoff[k];
    *xon = c->xon[k];
  }
}

static void sample(void *ctx, uint64_t t) {
  run_ctx_t *c = ctx;
  ns_sim_t *s = c->s;
  ns_router_t *r = &s->nodes[c->m->bottleneck_router].rt;
  xtm_voq_state_t v = {0};
  if (r->watch_voq >= 0) {
    xtm_voq_state(r->m, (uint32_t)r->watch_voq, &v);
  }
  ns_link_t *l = &s->links[c->m->bottleneck_link];
  double dt = (double)(t - c->last_ps) * 1e-12;
  double util = dt > 0 ? (double)(l->tx_bytes - l->sample_bytes) * 8.0 / dt / 1e9 : 0.0;
  double util1 = dt > 0 ? (double)(l->tx_bytes - l->sample_bytes +
                                   (l->tx_frames - c->last_frames) * NS_ETH_OVH_BYTES) *
                              8.0 / dt / 1e9
                        : 0.0;
  l->sample_bytes = l->tx_bytes;
  c->last_frames = l->tx_frames;
  c->last_ps = t;
  fprintf(c->csv, "%.3f,%" PRIu64 ",%.4f,%.4f", (double)t * 1e-6,
          (uint64_t)v.occ_cells * r->cell_bytes, util, util1);
  for (uint32_t i = 0; i < c->ncsv; i++) {
    ns_flow_t *f = &s->flows[i];
    ns_nic_t *n = &s->nodes[f->src].nic;
    uint32_t rc = 0;
    if (n->dc != NULL) {
      dcqcn_out_t o;
      uint64_t cyc = ns_cycle_of(t) + n->dc_off;
      while (dcqcn_cycle(n->dc) < cyc && dcqcn_advance_to(n->dc, cyc, &o)) {
        // idle cycles only produce rate updates here (no CE input): nothing to route
      }
      dcqcn_qp_state_t q;
      dcqcn_qp_state(n->dc, f->qp_src, &q);
      rc = q.rc;
    } else {
      rc = (uint32_t)(s->links[n->link].rate_bps / 1000000u);
    }
    fprintf(c->csv, ",%u", rc);
  }
  for (uint32_t i = 0; i < c->nlinks_csv; i++) {
    ns_link_t *k = &s->links[i];
    if (i == c->m->bottleneck_link) {
      fprintf(c->csv, ",%.4f", util);  // its sample_bytes were advanced above
      continue;
    }
    fprintf(c->csv, ",%.4f",
            dt > 0 ? (double)(k->tx_bytes - k->sample_bytes) * 8.0 / dt / 1e9 : 0.0);
    k->sample_bytes = k->tx_bytes;
  }
  if (c->cfg != NULL && c->cfg->npg > 0) {  // the largest lossless ingress PG and its thresholds
    const router_cfg_t *g = c->cfg;
    xtm_global_state_t gs;
    xtm_global_state(r->m, &gs);
    uint32_t best = 0, cells = 0;
    for (uint32_t k = 0; k < g->npg; k++) {
      xtm_pg_state_t ps;
      xtm_pg_state(r->m, g->pg_port[k], g->pg_prio[k], &ps);
      if (k == 0 || ps.pg_cells > cells) {
        best = k;
        cells = ps.pg_cells;
      }
    }
    uint64_t xoff = 0, xon = 0;
    pg_thresholds(g, best, gs.pool_used, &xoff, &xon);
    fprintf(c->csv, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, (uint64_t)cells * r->cell_bytes,
            xoff * r->cell_bytes, xon * r->cell_bytes);
  }
  fputc('\n', c->csv);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static cJSON *meta_json(const ns_scenario_t *sc, const ns_measure_t *m) {
  cJSON *meta = cJSON_CreateObject();
  cJSON_AddStringToObject(meta, "tool", "xtm-netsim");
  cJSON_AddStringToObject(meta, "version", NETSIM_VERSION);
  cJSON_AddStringToObject(meta, "scenario", sc->path);
  cJSON_AddStringToObject(meta, "name", sc->name);
  cJSON_AddStringToObject(meta, "family", sc->family);
  cJSON *ov = cJSON_AddObjectToObject(meta, "overrides");
  cJSON *pa = cJSON_AddObjectToObject(meta, "params");
  for (uint32_t i = 0; i < sc->nkv; i++) {
    cJSON_AddStringToObject(pa, sc->kv[i].key, sc->kv[i].val);
    if (sc->kv[i].overridden) {
      cJSON_AddStringToObject(ov, sc->kv[i].key, sc->kv[i].val);
    }
  }
  char seed[32];
  snprintf(seed, sizeof(seed), "%" PRIu64, m->seed);
  cJSON_AddStringToObject(meta, "seed", seed);  // a string: 64-bit seeds do not fit a double
  cJSON_AddStringToObject(meta, "setup", m->setup);
  cJSON *u = cJSON_AddObjectToObject(meta, "units");
  cJSON_AddStringToObject(u, "*_gbps", "Gb/s of frame bytes (L2: without preamble, SFD and IFG)");
  cJSON_AddStringToObject(u, "*_l1_gbps", "Gb/s on the wire (L1: frame bytes + 20 B per frame)");
  cJSON_AddStringToObject(u, "*_us", "microseconds of simulated time");
  cJSON_AddStringToObject(u, "*_bytes", "bytes");
  cJSON_AddStringToObject(u, "peak_queue_rtt", "peak queue bytes / (bottleneck rate x base RTT)");
  cJSON_AddStringToObject(u, "counts", "events (packets, frames, CNPs) over the whole run");
  cJSON_AddStringToObject(u, "intervals", "KPIs per interval_s, counted when each event happened");
  cJSON_AddStringToObject(u, "steady_*", "over the complete intervals from warmup_s to the end");
  return meta;
}

// "xtm-netsim VERSION; scenario PATH (NAME, family F); seed S; overrides: k=v ..."
static void stamp_text(char *dst, size_t n, const ns_scenario_t *sc, uint64_t seed) {
  int k =
      snprintf(dst, n, "xtm-netsim %s; scenario %s (%s, family %s); seed %" PRIu64 "; overrides:",
               NETSIM_VERSION, sc->path, sc->name, sc->family, seed);
  int nov = 0;
  for (uint32_t i = 0; i < sc->nkv && k > 0 && (size_t)k < n; i++) {
    if (sc->kv[i].overridden) {
      k += snprintf(dst + k, n - (size_t)k, " %s=%s", sc->kv[i].key, sc->kv[i].val);
      nov++;
    }
  }
  if (nov == 0 && k > 0 && (size_t)k < n) {
    snprintf(dst + k, n - (size_t)k, " none");
  }
}

static void stamp_line(FILE *f, const char *prefix, const ns_scenario_t *sc, uint64_t seed) {
  char t[NS_MAX_KEYS * (NS_KEY_LEN + NS_VAL_LEN) + 1024];
  stamp_text(t, sizeof(t), sc, seed);
  fprintf(f, "%s%s\n", prefix, t);
}

// Kmin and Kmax of a profile as fills of the VOQ limit (0..1), docs/spec.md 6.1: Kmin the
// lowest fill with a non-zero probability (pmin: the probability there, 0 for a ramp that
// starts there), Kmax the lowest fill where it reaches 100 %. -1: none. Points are taken in
// register order (the compiler writes them in increasing fill).
static void profile_k(const router_cfg_t *c, double *kmin, double *pmin, double *kmax) {
  uint32_t n = (c->pr_cfg >> XTM_PR_CFG_NPOINTS_OFFSET) & XTM_PR_CFG_NPOINTS_MASK;
  n = n > 8 ? 8 : n;
  *kmin = *kmax = -1;
  *pmin = 0;
  if ((c->pr_cfg & (1u << XTM_PR_CFG_INTERP_BIT)) == 0) {  // segmented
    for (uint32_t i = 0; i < n; i++) {
      if (c->prob[i] > 0 && *kmin < 0) {
        *kmin = c->fill[i] / 65536.0;
        *pmin = c->prob[i] / 65536.0;
      }
      if (c->prob[i] >= 65536 && *kmax < 0) {
        *kmax = c->fill[i] / 65536.0;
      }
    }
    return;
  }
  double f[10], q[10];  // interpolated: through (0,0), the points and (1,1)
  uint32_t m = 0;
  f[m] = 0;
  q[m++] = 0;
  for (uint32_t i = 0; i < n; i++) {
    f[m] = c->fill[i] / 65536.0;
    q[m++] = c->prob[i] / 65536.0;
  }
  f[m] = 1;
  q[m++] = 1;
  for (uint32_t j = 0; j + 1 < m; j++) {
    if (*kmin < 0 && (q[j] > 0 || q[j + 1] > 0)) {
      *kmin = f[j];
      *pmin = q[j];
    }
    if (*kmax < 0 && q[j] >= 1) {
      *kmax = f[j];
    } else if (*kmax < 0 && q[j + 1] >= 1 && f[j + 1] > f[j]) {
      *kmax = f[j] + (1 - q[j]) * (f[j + 1] - f[j]) / (q[j + 1] - q[j]);
    }
  }
}

// "48.6 MB = 0.75 RTT" (or without the RTT when there is none)
static void mb_rtt(char *dst, size_t n, double bytes, double bdp) {
  double v = bytes / 1e6;
  const char *f = v >= 100 ? "%.0f MB" : v >= 10 ? "%.1f MB" : v >= 1 ? "%.2f MB" : "%.3g MB";
  int k = snprintf(dst, n, f, v);
  if (bdp > 0 && k > 0 && (size_t)k < n) {
    snprintf(dst + k, n - (size_t)k, " = %.3g RTT", bytes / bdp);
  }
}

// the plots' titles, footer (stamp and reproducing command), time axis, zoom and bottleneck
static void plot_header(ns_plot_run_t *p, const ns_scenario_t *sc, const ns_sim_t *s,
                        const ns_measure_t *m, uint64_t t_end) {
  const ns_router_t *br = &s->nodes[m->bottleneck_router].rt;
  const ns_link_t *bl = &s->links[m->bottleneck_link];
  const xtm_params_t *xp = xtm_params(br->m);
  snprintf(p->name, sizeof(p->name), "%s", sc->name);
  char st[sizeof(p->footer)];
  stamp_text(st, sizeof(st), sc, m->seed);
  for (char *c = st; *c; c++) {
    *c = *c == ';' ? ',' : *c;  // the plot text keeps no ';'
  }
  // and the command that reproduces the run (the overrides as --set, in scenario order)
  snprintf(p->footer, sizeof(p->footer), "%s", st);
  int fk = snprintf(p->repro, sizeof(p->repro), "xtm-netsim run %s", sc->path);
  for (uint32_t i = 0; i < sc->nkv && fk > 0 && (size_t)fk < sizeof(p->repro); i++) {
    if (sc->kv[i].overridden) {
      fk += snprintf(p->repro + fk, sizeof(p->repro) - (size_t)fk, " --set %s=%s", sc->kv[i].key,
                     sc->kv[i].val);
    }
  }
  p->end_us = (double)t_end * 1e-6;
  p->sample_us = (double)s->sample_ps * 1e-6;
  if (m->warmup_ps > 0 && m->warmup_ps < t_end) {
    p->zoom_us = (double)m->warmup_ps * 1e-6;
    snprintf(p->zoom_why, sizeof(p->zoom_why), "warmup_s");
  } else if (m->measure_from_ps > 0 && m->measure_from_ps < t_end) {
    p->zoom_us = (double)m->measure_from_ps * 1e-6;
    snprintf(p->zoom_why, sizeof(p->zoom_why), "start of the measurement");
  } else {
    p->zoom_us = p->end_us / 10;
    snprintf(p->zoom_why, sizeof(p->zoom_why), "no warmup_s: the first 10 %% left out");
  }
  snprintf(p->bottleneck, sizeof(p->bottleneck), "%s", bl->name);
  p->link_gbps = (double)bl->rate_bps / 1e9;
  p->rtt_us = m->rtt_us;
  p->bdp_bytes = (double)bl->rate_bps / 8.0 * m->rtt_us * 1e-6;
  if (br->watch_voq >= 0) {
    snprintf(p->queue, sizeof(p->queue), "%s port %u queue %u", s->nodes[m->bottleneck_router].name,
             (uint32_t)br->watch_voq / xp->num_tcs, (uint32_t)br->watch_voq % xp->num_tcs);
  }
}

// reference lines: the configuration as programmed, read back from the registers
static void plot_refs(ns_plot_run_t *p, const ns_router_t *br, const run_ctx_t *rc,
                      const router_cfg_t *cfg) {
  double bdp = p->bdp_bytes;
  if (cfg->ok) {
    double cell = br->cell_bytes, lim = (double)cfg->q_limit * cell;
    char v[48];
    bool ecn = (cfg->q_cfg & (1u << XTM_Q_CFG_ECN_EN_BIT)) != 0;
    uint32_t mp = (cfg->q_cfg >> XTM_Q_CFG_MARK_POINT_OFFSET) & XTM_Q_CFG_MARK_POINT_MASK;
    bool noloss = (cfg->q_cfg & (1u << XTM_Q_CFG_NO_LOSS_BIT)) != 0;
    if ((ecn && mp != XTM_Q_CFG_MARK_POINT_VALUE_LATENCY) || (!ecn && !noloss)) {
      double kmin, pmin, kmax;
      profile_k(cfg, &kmin, &pmin, &kmax);
      const char *what = ecn ? "ECN marking" : "drop";
      if (kmin > 0 && kmin < 1) {
        ns_plot_ref_t *f = &p->ref[p->nref++];
        f->kind = kNsRefKmin;
        f->bytes = kmin * lim;
        mb_rtt(v, sizeof(v), f->bytes, bdp);
        if (pmin > 0) {
          snprintf(f->label, sizeof(f->label), "Kmin %s: %s from %.2g %%", v, what, pmin * 100);
        } else {
          snprintf(f->label, sizeof(f->label), "Kmin %s: %s ramp starts", v, what);
        }
      }
      if (kmax > 0 && kmax < 1) {
        ns_plot_ref_t *f = &p->ref[p->nref++];
        f->kind = kNsRefKmax;
        f->bytes = kmax * lim;
        mb_rtt(v, sizeof(v), f->bytes, bdp);
        snprintf(f->label, sizeof(f->label), "Kmax %s: %s 100 %%", v, what);
      }
    }
    ns_plot_ref_t *f = &p->ref[p->nref++];
    f->kind = kNsRefLimit;
    f->bytes = lim;
    mb_rtt(v, sizeof(v), lim, bdp);
    snprintf(f->label, sizeof(f->label), "VOQ limit %s", v);
    if ((double)cfg->pool * cell < lim) {
      f = &p->ref[p->nref++];
      f->kind = kNsRefPool;
      f->bytes = (double)cfg->pool * cell;
      mb_rtt(v, sizeof(v), f->bytes, bdp);
      snprintf(f->label, sizeof(f->label), "shared pool %s", v);
    }
    if (cfg->npg > 0) {
      p->pg_col = 5 + rc->ncsv + rc->nlinks_csv;
      bool same = true, dyn = false;
      for (uint32_t k = 0; k < cfg->npg; k++) {
        dyn = dyn || (cfg->g_cfg[k] & (1u << XTM_G_CFG_DYNAMIC_BIT)) != 0;
        same = same && cfg->xoff[k] == cfg->xoff[0] && cfg->xon[k] == cfg->xon[0];
      }
      if (dyn || !same) {
        p->xoff_col = p->pg_col + 1;
        p->xon_col = p->pg_col + 2;
        uint32_t alpha = (cfg->g_cfg[0] >> XTM_G_CFG_ALPHA_OFFSET) & XTM_G_CFG_ALPHA_MASK;
        if (dyn) {
          snprintf(p->pfc_note, sizeof(p->pfc_note), "dynamic: free pool / %u", 1u << alpha);
        } else {
          snprintf(p->pfc_note, sizeof(p->pfc_note), "static, per PG");
        }
      } else {
        f = &p->ref[p->nref++];
        f->kind = kNsRefXoff;
        f->bytes = (double)cfg->xoff[0] * cell;
        mb_rtt(v, sizeof(v), f->bytes, bdp);
        snprintf(f->label, sizeof(f->label), "XOFF %s per ingress PG (%u lossless PG%s)", v,
                 cfg->npg, cfg->npg == 1 ? "" : "s");
        f = &p->ref[p->nref++];
        f->kind = kNsRefXon;
        f->bytes = (double)cfg->xon[0] * cell;
        mb_rtt(v, sizeof(v), f->bytes, bdp);
        snprintf(f->label, sizeof(f->label), "XON %s", v);
      }
    }
  }
}

// rates: the QPs with DCQCN that the CSV holds, grouped by fairness group
static void plot_flows(ns_plot_run_t *p, const ns_scenario_t *sc, const ns_sim_t *s,
                       const run_ctx_t *rc) {
  snprintf(p->group_word, sizeof(p->group_word), "%s",
           strcmp(sc->family, "scale-across") == 0 ? "client" : "source");
  double nic = -1;
  bool link_seen[NS_PLOT_MAX_GROUPS] = {false};
  for (uint32_t i = 0; i < s->nflows; i++) {
    const ns_flow_t *f = &s->flows[i];
    const ns_nic_t *n = &s->nodes[f->src].nic;
    if (i >= rc->ncsv || n->dc == NULL || f->transport != kNsTransportRoce) {
      p->flows_left_out++;
      continue;
    }
    uint32_t g = 0;
    while (g < p->ngroups && strcmp(p->group[g], f->group) != 0) {
      g++;
    }
    if (g == p->ngroups) {
      if (g == NS_PLOT_MAX_GROUPS) {
        p->flows_left_out++;
        continue;
      }
      snprintf(p->group[p->ngroups++], sizeof(p->group[0]), "%s", f->group);
    }
    ns_plot_flow_t *q = &p->flow[p->nflows++];
    q->col = 5 + i;
    q->group = g;
    // the group's own link (its QPs' NIC link when they share one): what it really sent
    uint32_t lc = n->link < rc->nlinks_csv ? 5 + rc->ncsv + n->link : 0;
    if (!link_seen[g]) {
      link_seen[g] = true;
      p->group_link_col[g] = lc;
    } else if (p->group_link_col[g] != lc) {
      p->group_link_col[g] = 0;
    }
    q->start_us = (double)f->start_ps * 1e-6;
    q->end_us = f->done ? (double)(f->start_ps + f->fct_ps) * 1e-6 : -1;
    double r = (double)s->links[n->link].rate_bps / 1e9;
    nic = nic < 0 ? r : nic == r ? nic : 0;
  }
  p->nic_gbps = nic > 0 ? nic : 0;
  // a link two groups share (roce-lab: bulk and probe from host1) is neither's own rate
  for (uint32_t g = 0; g < p->ngroups; g++) {
    for (uint32_t h = g + 1; h < p->ngroups; h++) {
      if (p->group_link_col[g] != 0 && p->group_link_col[g] == p->group_link_col[h]) {
        uint32_t c = p->group_link_col[g];
        for (uint32_t k = 0; k < p->ngroups; k++) {
          p->group_link_col[k] = p->group_link_col[k] == c ? 0 : p->group_link_col[k];
        }
      }
    }
  }
  if (strcmp(sc->family, "scale-across") == 0 && p->ngroups > 0) {
    p->fair_gbps = p->link_gbps / p->ngroups;
  }
}

// The run's plots (docs/netsim.md 5.1): what to draw, from the run and from the bottleneck
// router's registers; sim/netsim/plot.c draws it. Every file named relative to the run
// directory. Returns as ns_plot_write_run.
static int write_plots(const char *dir, const ns_scenario_t *sc, const ns_sim_t *s,
                       const ns_measure_t *m, const run_ctx_t *rc, const router_cfg_t *cfg,
                       uint64_t t_end, char *names, size_t names_len) {
  ns_plot_run_t *p = calloc(1, sizeof(*p));
  if (p == NULL) {
    return -1;
  }
  plot_header(p, sc, s, m, t_end);
  plot_refs(p, &s->nodes[m->bottleneck_router].rt, rc, cfg);
  plot_flows(p, sc, s, rc);
  int r = ns_plot_write_run(dir, p, names, names_len);
  free(p);
  return r;
}

static long peak_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// one interval of intervals.csv as a JSON object
static cJSON *ival_json(const ns_ival_t *v, uint64_t from, double sec, double u2, double u1) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "t_start_s", (double)from * 1e-12);
  cJSON_AddNumberToObject(o, "dur_s", sec);
  cJSON_AddNumberToObject(o, "util_l2_gbps", u2);
  cJSON_AddNumberToObject(o, "util_l1_gbps", u1);
  cJSON_AddNumberToObject(o, "peak_queue_bytes", (double)v->peak_queue_bytes);
  cJSON_AddNumberToObject(o, "tail_drops", (double)v->tail_drops);
  cJSON_AddNumberToObject(o, "lossless_drops", (double)v->lossless_drops);
  cJSON_AddNumberToObject(o, "other_drops", (double)v->other_drops);
  cJSON_AddNumberToObject(o, "ce_marked_frames", (double)v->ce_frames);
  cJSON_AddNumberToObject(o, "pause_frames", (double)v->pause_frames);
  cJSON_AddNumberToObject(o, "cnps_sent", (double)v->cnps);
  return o;
}

// the index of fairness group `name` among the ng named so far, adding it (goodput 0) when
// new and there is room for 64; 64 when it is new and there is none
static uint32_t group_slot(char gname[64][NS_NAME_LEN], double gput[64], uint32_t *ng,
                           const char *name) {
  uint32_t g = 0;
  while (g < *ng && strcmp(gname[g], name) != 0) {
    g++;
  }
  if (g == *ng && *ng < 64) {
    snprintf(gname[*ng], NS_NAME_LEN, "%s", name);
    gput[(*ng)++] = 0;
  }
  return g;
}

// per fairness group goodput over the steady-state window of win seconds, and Jain's index
static void steady_fairness(const ns_sim_t *s, cJSON *sm, double win) {
  char gname[64][NS_NAME_LEN];
  double gput[64];
  uint32_t ng = 0;
  for (uint32_t i = 0; i < s->nflows; i++) {
    const ns_flow_t *f = &s->flows[i];
    uint32_t g = group_slot(gname, gput, &ng, f->group);
    if (g < 64 && win > 0) {
      gput[g] += (double)(f->rx_bytes - f->mark_rx_bytes) * 8.0 / win / 1e9;
    }
  }
  double a = 0, q = 0;
  cJSON *go = cJSON_AddObjectToObject(sm, "steady_goodput_gbps");
  for (uint32_t g = 0; g < ng; g++) {
    a += gput[g];
    q += gput[g] * gput[g];
    cJSON_AddNumberToObject(go, gname[g], gput[g]);
  }
  cJSON_AddNumberToObject(sm, "steady_jain_fairness", q > 0 ? a * a / ((double)ng * q) : 1.0);
}

static void intervals_out(const ns_sim_t *s, const ns_measure_t *m, uint64_t t_end, cJSON *root,
                          cJSON *sm, const char *outdir, const ns_scenario_t *sc, char *outputs,
                          size_t outputs_len) {
  uint64_t iv = s->ival_ps;
  if (s->iv == NULL || iv == 0) {
    return;
  }
  uint32_t ncomplete = (uint32_t)(t_end / iv);
  if (ncomplete > s->niv) {
    ncomplete = s->niv;
  }
  uint32_t nall = ncomplete + (t_end % iv != 0 && ncomplete < s->niv ? 1u : 0u);
  char p[1300];
  FILE *csv = out_open(outdir, "intervals.csv", p, sizeof(p));
  if (csv != NULL) {
    stamp_line(csv, "# ", sc, m->seed);
    fprintf(csv,
            "# every %g s of simulated time, bottleneck %s; util_*: Gb/s over the interval "
            "(l2: frame bytes; l1: + 20 B of preamble, SFD and IFG per frame); peak_queue_bytes: "
            "largest bottleneck RDMA VOQ after an accepted enqueue; drops and PFC frames of every "
            "router; ce_marked_frames: data frames leaving the bottleneck with CE; cnps_sent: by "
            "the notification points\n",
            (double)iv * 1e-12, s->links[m->bottleneck_link].name);
    fprintf(csv,
            "t_start_s,dur_s,util_l2_gbps,util_l1_gbps,peak_queue_bytes,tail_drops,"
            "lossless_drops,other_drops,ce_marked_frames,pause_frames,cnps_sent\n");
  }
  cJSON *arr = cJSON_CreateArray();
  double mn = INFINITY, mx = -INFINITY, sum = 0, mn1 = INFINITY, mx1 = -INFINITY, sum1 = 0;
  uint32_t k0 = (uint32_t)(m->steady_from_ps / iv);
  double st_sum = 0, st_sum1 = 0, st_mn = INFINITY, st_mx = -INFINITY;
  uint64_t st_tail = 0, st_ll = 0, st_ce = 0, st_pf = 0, st_cnp = 0, st_peak = 0;
  uint32_t st_n = 0;
  for (uint32_t i = 0; i < nall; i++) {
    const ns_ival_t *v = &s->iv[i];
    uint64_t from = (uint64_t)i * iv;
    uint64_t dur = i < ncomplete ? iv : t_end - from;
    double sec = (double)dur * 1e-12;
    double u2 = sec > 0 ? (double)v->l2_bytes * 8.0 / sec / 1e9 : 0;
    double u1 =
        sec > 0 ? (double)(v->l2_bytes + v->frames * NS_ETH_OVH_BYTES) * 8.0 / sec / 1e9 : 0;
    if (csv != NULL) {
      fprintf(csv,
              "%.9g,%.9g,%.4f,%.4f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
              ",%" PRIu64 ",%" PRIu64 "\n",
              (double)from * 1e-12, sec, u2, u1, v->peak_queue_bytes, v->tail_drops,
              v->lossless_drops, v->other_drops, v->ce_frames, v->pause_frames, v->cnps);
    }
    if (i < MAX_JSON_INTERVALS) {
      cJSON_AddItemToArray(arr, ival_json(v, from, sec, u2, u1));
    }
    if (i < ncomplete) {
      mn = u2 < mn ? u2 : mn;
      mx = u2 > mx ? u2 : mx;
      sum += u2;
      mn1 = u1 < mn1 ? u1 : mn1;
      mx1 = u1 > mx1 ? u1 : mx1;
      sum1 += u1;
      if (i >= k0) {
        st_n++;
        st_sum += u2;
        st_sum1 += u1;
        st_mn = u2 < st_mn ? u2 : st_mn;
        st_mx = u2 > st_mx ? u2 : st_mx;
        st_tail += v->tail_drops;
        st_ll += v->lossless_drops;
        st_ce += v->ce_frames;
        st_pf += v->pause_frames;
        st_cnp += v->cnps;
        st_peak = v->peak_queue_bytes > st_peak ? v->peak_queue_bytes : st_peak;
      }
    }
  }
  if (csv != NULL && out_close(csv, p)) {
    size_t n = strlen(outputs);
    snprintf(outputs + n, outputs_len - n, " intervals.csv");
  }
  cJSON_AddItemToObject(root, "intervals", arr);
  cJSON_AddNumberToObject(sm, "interval_s", (double)iv * 1e-12);
  cJSON_AddNumberToObject(sm, "intervals_complete", ncomplete);
  if (nall > MAX_JSON_INTERVALS) {
    cJSON_AddNumberToObject(sm, "intervals_in_json", MAX_JSON_INTERVALS);
  }
  if (ncomplete > 0) {
    cJSON_AddNumberToObject(sm, "util_interval_min_gbps", mn);
    cJSON_AddNumberToObject(sm, "util_interval_mean_gbps", sum / ncomplete);
    cJSON_AddNumberToObject(sm, "util_interval_max_gbps", mx);
    cJSON_AddNumberToObject(sm, "util_l1_interval_min_gbps", mn1);
    cJSON_AddNumberToObject(sm, "util_l1_interval_mean_gbps", sum1 / ncomplete);
    cJSON_AddNumberToObject(sm, "util_l1_interval_max_gbps", mx1);
  }
  double bdp_bytes = (double)s->links[m->bottleneck_link].rate_bps / 8.0 * m->rtt_us * 1e-6;
  if (st_n > 0 && s->mark_ps != NS_NEVER) {
    double win = (double)(t_end - m->steady_from_ps) * 1e-12;
    cJSON_AddNumberToObject(sm, "steady_from_s", (double)m->steady_from_ps * 1e-12);
    cJSON_AddNumberToObject(sm, "steady_intervals", st_n);
    cJSON_AddNumberToObject(sm, "steady_util_gbps", st_sum / st_n);
    cJSON_AddNumberToObject(sm, "steady_util_l1_gbps", st_sum1 / st_n);
    cJSON_AddNumberToObject(sm, "steady_util_min_gbps", st_mn);
    cJSON_AddNumberToObject(sm, "steady_util_max_gbps", st_mx);
    cJSON_AddNumberToObject(sm, "steady_tail_drops", (double)st_tail);
    cJSON_AddNumberToObject(sm, "steady_lossless_drops", (double)st_ll);
    cJSON_AddNumberToObject(sm, "steady_ce_marked_frames", (double)st_ce);
    cJSON_AddNumberToObject(sm, "steady_cnps_sent", (double)st_cnp);
    cJSON_AddNumberToObject(sm, "steady_pause_frames", (double)st_pf);
    cJSON_AddNumberToObject(sm, "steady_peak_queue_bytes", (double)st_peak);
    cJSON_AddNumberToObject(sm, "steady_peak_queue_rtt",
                            bdp_bytes > 0 ? (double)st_peak / bdp_bytes : 0);
    steady_fairness(s, sm, win);
  } else {
    cJSON_AddNullToObject(sm, "steady_from_s");  // the run ended before warmup_s
  }
}

// Runs one scenario; returns the process exit status (0 ok, 1 bad input, 2 failure).
// The totals of a finished run that the summary, the text report and the plots share.
typedef struct run_kpi {
  double dur;  // simulated seconds
  uint64_t tail, lossless, marks, pauses, other_drops;
  uint64_t retx, timeouts, naks, cnp_rx, ce_rx;
  double util, util1, bdp_bytes, jain;
  uint32_t ng;  // fairness groups
  ns_router_t *br;
  ns_link_t *bl;
} run_kpi_t;

// run_one, step 1: timeseries.csv with its header, and the sampler that fills it
static void run_open_timeseries(ns_scenario_t *sc, ns_sim_t *s, ns_measure_t *m, router_cfg_t *cfg,
                                const char *outdir, run_ctx_t *rc, char *csvp, size_t csvp_len) {
  rc->ncsv = s->nflows < NS_CSV_MAX_FLOWS ? s->nflows : NS_CSV_MAX_FLOWS;
  if (s->sample_ps > 0) {
    rc->csv = out_open(outdir, "timeseries.csv", csvp, csvp_len);
  }
  if (rc->csv != NULL) {
    stamp_line(rc->csv, "# ", sc, m->seed);
    fprintf(rc->csv,
            "# every %.3f us; units: time_us = simulated us; queue_bytes = bottleneck RDMA "
            "VOQ occupancy in bytes (cells x cell size); util_gbps = bottleneck link frame "
            "Gb/s (L2) over the last interval; util_l1_gbps = the same with preamble, SFD "
            "and IFG (L1); <flow>_rc_mbps = DCQCN current rate Rc (Mb/s); <link>_gbps = that "
            "link's frame Gb/s (L2) over the last interval\n",
            (double)s->sample_ps * 1e-6);
    fprintf(rc->csv, "time_us,queue_bytes,util_gbps,util_l1_gbps");
    for (uint32_t i = 0; i < rc->ncsv; i++) {
      fprintf(rc->csv, ",%s_rc_mbps", s->flows[i].name);
    }
    rc->nlinks_csv = s->nlinks < NS_CSV_MAX_LINKS ? s->nlinks : NS_CSV_MAX_LINKS;
    for (uint32_t i = 0; i < rc->nlinks_csv; i++) {
      fprintf(rc->csv, ",%s_gbps", s->links[i].name);
    }
    if (cfg->ok && cfg->npg > 0) {
      fprintf(rc->csv, ",pfc_pg_max_bytes,pfc_pg_xoff_bytes,pfc_pg_xon_bytes");
      rc->cfg = cfg;
    }
    fputc('\n', rc->csv);
    s->sample_fn = sample;
    s->sample_ctx = rc;
  } else {
    s->sample_ps = 0;
  }
}

// run_one, step 2: drops, marks and pause frames over the routers; the bottleneck's use
static void run_router_totals(ns_sim_t *s, ns_measure_t *m, run_kpi_t *kpi) {
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind != kNsNodeRouter) {
      continue;
    }
    ns_router_t *r = &s->nodes[i].rt;
    kpi->tail += r->drops_by_reason[kXtmReasonTail] + r->drops_by_reason[kXtmReasonPool] +
                 r->drops_by_reason[kXtmReasonBufFull] + r->drops_by_reason[kXtmReasonProfile];
    kpi->lossless += r->drops_by_reason[kXtmReasonHeadroom];
    for (uint32_t k = 0; k < kXtmReasonCount; k++) {
      if (k != kXtmReasonAccept && k != kXtmReasonTail && k != kXtmReasonPool &&
          k != kXtmReasonBufFull && k != kXtmReasonProfile && k != kXtmReasonHeadroom) {
        kpi->other_drops += r->drops_by_reason[k];
      }
    }
    const xtm_params_t *xp = xtm_params(r->m);
    for (uint32_t v = 0; v < xp->num_ports * xp->num_tcs; v++) {
      kpi->marks += xtm_voq_counter(r->m, v, kXtmVcntMarkTail) +
                    xtm_voq_counter(r->m, v, kXtmVcntMarkHead) +
                    xtm_voq_counter(r->m, v, kXtmVcntMarkLat);
    }
    kpi->pauses += r->pfc_tx_frames;
  }
  kpi->br = &s->nodes[m->bottleneck_router].rt;
  kpi->bl = &s->links[m->bottleneck_link];
  ns_link_t *bl = kpi->bl;
  kpi->util = kpi->dur > 0 ? (double)bl->tx_bytes * 8.0 / kpi->dur / 1e9 : 0;
  kpi->util1 = kpi->dur > 0 ? (double)(bl->tx_bytes + bl->tx_frames * NS_ETH_OVH_BYTES) * 8.0 /
                                  kpi->dur / 1e9
                            : 0;
  kpi->bdp_bytes = (double)bl->rate_bps / 8.0 * m->rtt_us * 1e-6;
}

// run_one, step 3: one object per flow (goodput, FCT, latency percentiles), the flows'
// totals and the Jain fairness over the flow groups; the NICs' CE count
static cJSON *run_flows_json(ns_sim_t *s, run_kpi_t *kpi) {
  // fairness over groups
  char gname[64][NS_NAME_LEN];
  double gput[64];
  uint32_t ng = 0;
  cJSON *flows = cJSON_CreateArray();
  for (uint32_t i = 0; i < s->nflows; i++) {
    ns_flow_t *f = &s->flows[i];
    kpi->retx += f->retx_bytes;
    kpi->timeouts += f->timeouts;
    kpi->naks += f->naks_rx;
    kpi->cnp_rx += f->cnps_rx;
    double span = f->done ? (double)f->fct_ps * 1e-12
                          : (kpi->dur - (double)f->start_ps * 1e-12 > 0
                                 ? kpi->dur - (double)f->start_ps * 1e-12
                                 : kpi->dur);
    double gp = span > 0 ? (double)f->rx_bytes * 8.0 / span / 1e9 : 0;
    uint32_t g = group_slot(gname, gput, &ng, f->group);
    if (g < 64) {
      gput[g] += gp;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", f->name);
    cJSON_AddStringToObject(o, "transport",
                            f->transport == kNsTransportUet   ? "uet"
                            : f->transport == kNsTransportTcp ? "tcp"
                                                              : "roce");
    cJSON_AddNumberToObject(o, "bytes", (double)f->rx_bytes);
    cJSON_AddNumberToObject(o, "start_us", (double)f->start_ps * 1e-6);
    if (f->done) {
      cJSON_AddNumberToObject(o, "fct_us", (double)f->fct_ps * 1e-6);
    } else {
      cJSON_AddNullToObject(o, "fct_us");
    }
    cJSON_AddNumberToObject(o, "goodput_gbps", gp);
    cJSON_AddNumberToObject(o, "retransmitted_bytes", (double)f->retx_bytes);
    cJSON_AddNumberToObject(o, "timeouts", (double)f->timeouts);
    cJSON_AddNumberToObject(o, "cnps_received", (double)f->cnps_rx);
    cJSON_AddNumberToObject(o, "router_drops", (double)f->tm_drops);
    cJSON_AddNumberToObject(o, "policer_drops", (double)f->police_drops);
    if (f->tcp != NULL) {
      const tcp_sender_t *t = &f->tcp->snd;
      cJSON_AddNumberToObject(o, "tcp_retrans_segs", (double)t->retrans_segs);
      cJSON_AddNumberToObject(o, "tcp_fast_retransmits", (double)t->fast_retransmits);
      cJSON_AddNumberToObject(o, "tcp_rto_count", (double)t->rto_count);
      cJSON_AddNumberToObject(o, "tcp_cwnd_segs", t->cwnd);
      cJSON_AddNumberToObject(o, "tcp_srtt_us", (double)t->srtt_ps * 1e-6);
    }
    if (f->uet != NULL) {
      cJSON_AddNumberToObject(o, "uet_fast_losses", (double)f->uet->fast_losses);
      cJSON_AddNumberToObject(o, "uet_rto_losses", (double)f->uet->rto_losses);
      cJSON_AddNumberToObject(o, "uet_quick_adapts", (double)f->uet->quick_adapts);
      cJSON_AddNumberToObject(o, "uet_cwnd_bytes", f->uet->cwnd);
    }
    if (f->record_latency && f->lat_n > 0) {
      qsort(f->lat_ps, f->lat_n, sizeof(uint64_t), cmp_u64);
      cJSON *l = cJSON_AddObjectToObject(o, "latency_us");
      static const struct {
        const char *n;
        double q;
      } kQ[] = {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}, {"max", 1.0}};
      for (size_t k = 0; k < sizeof(kQ) / sizeof(kQ[0]); k++) {
        size_t idx = (size_t)ceil(kQ[k].q * (double)f->lat_n);
        idx = idx == 0 ? 0 : idx - 1;
        cJSON_AddNumberToObject(l, kQ[k].n, (double)f->lat_ps[idx] * 1e-6);
      }
      cJSON_AddNumberToObject(l, "samples", f->lat_n);
    }
    cJSON_AddItemToArray(flows, o);
  }
  double sum = 0, sq = 0;
  for (uint32_t g = 0; g < ng; g++) {
    sum += gput[g];
    sq += gput[g] * gput[g];
  }
  double jain = (ng > 0 && sq > 0) ? sum * sum / ((double)ng * sq) : 1.0;
  kpi->ng = ng;
  kpi->jain = jain;
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind == kNsNodeNic && s->nodes[i].nic.dc != NULL) {
      kpi->ce_rx += dcqcn_counter(s->nodes[i].nic.dc, kDcqcnGcntCeRx);
    }
  }
  return flows;
}

// run_one, step 4: the "summary" object of summary.json
// A run with TCP flows (docs/netsim.md 2.2): the transfer striped over them ends when the last
// one does. "transfer_fct_us" = latest end - earliest start, null while one is unfinished;
// absent from runs without TCP.
static void transfer_fct_json(cJSON *sm, const ns_sim_t *s) {
  uint64_t first = NS_NEVER, last = 0;
  bool tcp = false, all = true;
  for (uint32_t i = 0; i < s->nflows; i++) {
    const ns_flow_t *f = &s->flows[i];
    tcp |= f->transport == kNsTransportTcp;
    all &= f->done;
    first = f->start_ps < first ? f->start_ps : first;
    last = f->done && f->start_ps + f->fct_ps > last ? f->start_ps + f->fct_ps : last;
  }
  if (!tcp) {
    return;
  }
  if (all) {
    cJSON_AddNumberToObject(sm, "transfer_fct_us", (double)(last - first) * 1e-6);
  } else {
    cJSON_AddNullToObject(sm, "transfer_fct_us");
  }
}

// policed-circuits (docs/netsim.md 4.5): one object per circuit (its flows are the group
// "c<k>") and the summary's circuit KPIs. A circuit's FCT is its last flow's end minus its
// first flow's start; ideal FCT = file bytes x 8 / the circuit's payload capacity
// (m->circ_cap_bps: the header arithmetic is in scenario.c pc_cap); FCT efficiency = ideal /
// measured; retransmission overhead = resent payload bits over the FCT as a percentage of the
// circuit rate; policer drops = the routers' POLICE drops of the circuit's packets.
static void circuits_json(cJSON *sm, const ns_sim_t *s, const ns_measure_t *m) {
  if (m->ncirc == 0) {
    return;
  }
  cJSON *arr = cJSON_AddArrayToObject(sm, "circuits");
  double gmin = INFINITY, gmax = 0, gsum = 0, emin = INFINITY, esum = 0, rmax = 0, rsum = 0;
  uint64_t pol = 0, rnd = 0, tm = 0, rtos = 0, frs = 0;
  uint32_t done = 0;
  for (uint32_t k = 0; k < m->ncirc; k++) {
    char g[16];
    snprintf(g, sizeof(g), "c%u", k);
    uint64_t first = NS_NEVER, last = 0, rx = 0, retx = 0, pd = 0, td = 0;
    bool all = true;
    for (uint32_t i = 0; i < s->nflows; i++) {
      const ns_flow_t *f = &s->flows[i];
      if (strcmp(f->group, g) != 0) {
        continue;
      }
      first = f->start_ps < first ? f->start_ps : first;
      all &= f->done;
      last = f->done && f->start_ps + f->fct_ps > last ? f->start_ps + f->fct_ps : last;
      rx += f->rx_bytes;
      retx += f->retx_bytes;
      pd += f->police_drops;
      td += f->tm_drops;
      if (f->tcp != NULL) {
        rtos += f->tcp->snd.rto_count;
        frs += f->tcp->snd.fast_retransmits;
      }
    }
    uint64_t rd = s->links[m->circ_rx_link[k]].random_drops;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", g);
    cJSON_AddNumberToObject(o, "rate_gbps", m->circ_bps[k] / 1e9);
    cJSON_AddNumberToObject(o, "base_rtt_us", m->circ_rtt_us[k]);
    cJSON_AddNumberToObject(o, "bytes", (double)rx);
    double ideal = (double)m->circ_bytes * 8.0 / m->circ_cap_bps[k];
    cJSON_AddNumberToObject(o, "capacity_payload_gbps", m->circ_cap_bps[k] / 1e9);
    cJSON_AddNumberToObject(o, "ideal_fct_us", ideal * 1e6);
    if (all && last > first) {
      double fct = (double)(last - first) * 1e-12;
      double gp = (double)rx * 8.0 / fct / 1e9;
      double eff = ideal / fct;
      double ro = (double)retx * 8.0 / fct / m->circ_bps[k] * 100.0;
      cJSON_AddNumberToObject(o, "fct_us", fct * 1e6);
      cJSON_AddNumberToObject(o, "goodput_gbps", gp);
      cJSON_AddNumberToObject(o, "fct_efficiency", eff);
      cJSON_AddNumberToObject(o, "retx_overhead_pct", ro);
      gmin = gp < gmin ? gp : gmin;
      gmax = gp > gmax ? gp : gmax;
      gsum += gp;
      emin = eff < emin ? eff : emin;
      esum += eff;
      rmax = ro > rmax ? ro : rmax;
      rsum += ro;
      done++;
    } else {
      cJSON_AddNullToObject(o, "fct_us");
      cJSON_AddNullToObject(o, "goodput_gbps");
      cJSON_AddNullToObject(o, "fct_efficiency");
      cJSON_AddNullToObject(o, "retx_overhead_pct");
    }
    cJSON_AddNumberToObject(o, "retransmitted_bytes", (double)retx);
    cJSON_AddNumberToObject(o, "policer_drops", (double)pd);
    cJSON_AddNumberToObject(o, "router_drops", (double)td);
    cJSON_AddNumberToObject(o, "random_drops", (double)rd);
    cJSON_AddItemToArray(arr, o);
    pol += pd;
    rnd += rd;
    tm += td;
  }
  cJSON_AddNumberToObject(sm, "circuits_done", done);
  if (done == m->ncirc) {  // every circuit finished: the KPIs over the circuits
    cJSON_AddNumberToObject(sm, "circuit_goodput_min_gbps", gmin);
    cJSON_AddNumberToObject(sm, "circuit_goodput_mean_gbps", gsum / done);
    cJSON_AddNumberToObject(sm, "circuit_goodput_max_gbps", gmax);
    cJSON_AddNumberToObject(sm, "fct_efficiency_min", emin);
    cJSON_AddNumberToObject(sm, "fct_efficiency_mean", esum / done);
    cJSON_AddNumberToObject(sm, "retx_overhead_pct_mean", rsum / done);
    cJSON_AddNumberToObject(sm, "retx_overhead_pct_max", rmax);
  }
  cJSON_AddNumberToObject(sm, "policer_drops", (double)pol);
  cJSON_AddNumberToObject(sm, "random_drops", (double)rnd);
  cJSON_AddNumberToObject(sm, "circuit_router_drops", (double)tm);
  cJSON_AddNumberToObject(sm, "tcp_rtos", (double)rtos);
  cJSON_AddNumberToObject(sm, "tcp_fast_retransmits", (double)frs);
}

// One 64-bit counter through the CSR backdoor: _LO, then _HI from the CNT_HI shadow
// (docs/registers.md). false on a CSR error.
static bool csr_read64(xtm_t *x, uint16_t lo, uint64_t *v) {
  uint32_t l = 0, h = 0;
  bool ok = xtm_csr_read(x, lo, &l) && xtm_csr_read(x, (uint16_t)(lo + 4u), &h);
  *v = (uint64_t)h << 32 | l;
  return ok;
}

// summary.policers: every ingress policer of every router that saw a packet, read through
// the POL window (spec 4.7: POL_PASS_PKTS, POL_DROP_PKTS, POL_DROP_BYTES) between cycles,
// POL_SEL restored: the registers firmware would read, beside the per-packet POLICE count
// of drops_by_reason (the two must agree; sim/netsim/tests/test_policed.sh checks it).
static void policers_json(cJSON *sm, ns_sim_t *s) {
  cJSON *po = cJSON_AddObjectToObject(sm, "policers");
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind != kNsNodeRouter) {
      continue;
    }
    xtm_t *x = s->nodes[i].rt.m;
    uint32_t sel = 0;
    bool ok = xtm_csr_read(x, XTM_POL_SEL_REG_OFFSET, &sel);
    uint32_t n = xtm_params(x)->num_ports * 8u;
    for (uint32_t k = 0; ok && k < n; k++) {
      uint64_t pass = 0, drop = 0, bytes = 0;
      ok = xtm_csr_write(x, XTM_POL_SEL_REG_OFFSET, k) &&
           csr_read64(x, XTM_POL_PASS_PKTS_LO_REG_OFFSET, &pass) &&
           csr_read64(x, XTM_POL_DROP_PKTS_LO_REG_OFFSET, &drop) &&
           csr_read64(x, XTM_POL_DROP_BYTES_LO_REG_OFFSET, &bytes);
      if (ok && pass + drop > 0) {
        char nm[96];
        snprintf(nm, sizeof(nm), "%s.p%u.%u", s->nodes[i].name, k / 8u, k % 8u);
        cJSON *o = cJSON_AddObjectToObject(po, nm);
        cJSON_AddNumberToObject(o, "pass_pkts", (double)pass);
        cJSON_AddNumberToObject(o, "drop_pkts", (double)drop);
        cJSON_AddNumberToObject(o, "drop_bytes", (double)bytes);
      }
    }
    if (!xtm_csr_write(x, XTM_POL_SEL_REG_OFFSET, sel) || !ok) {
      fprintf(stderr, "xtm-netsim: router %s: reading the policer counters failed\n",
              s->nodes[i].name);
      cJSON_AddBoolToObject(po, "read_error", true);
    }
  }
}

static cJSON *run_summary_json(ns_sim_t *s, ns_measure_t *m, const run_kpi_t *kpi) {
  const ns_link_t *bl = kpi->bl;
  const ns_router_t *br = kpi->br;
  cJSON *sm = cJSON_CreateObject();
  cJSON_AddNumberToObject(sm, "duration_s", kpi->dur);
  cJSON_AddStringToObject(sm, "bottleneck", bl->name);
  cJSON_AddNumberToObject(sm, "bottleneck_util_gbps", kpi->util);
  cJSON_AddNumberToObject(sm, "bottleneck_util_l1_gbps", kpi->util1);
  cJSON_AddNumberToObject(sm, "tail_drops", (double)kpi->tail);
  cJSON_AddNumberToObject(sm, "lossless_drops", (double)kpi->lossless);
  cJSON_AddNumberToObject(sm, "other_drops", (double)kpi->other_drops);
  cJSON *dr = cJSON_AddObjectToObject(sm, "drops_by_reason");
  for (uint32_t i = 0; i < s->nnodes; i++) {
    if (s->nodes[i].kind != kNsNodeRouter) {
      continue;
    }
    for (uint32_t k = 1; k < kXtmReasonCount; k++) {
      uint64_t v = s->nodes[i].rt.drops_by_reason[k];
      if (v > 0) {
        char nm[96];
        snprintf(nm, sizeof(nm), "%s.%s", s->nodes[i].name, xtm_reason_name((xtm_reason_t)k));
        cJSON_AddNumberToObject(dr, nm, (double)v);
      }
    }
  }
  cJSON_AddNumberToObject(sm, "ecn_marks", (double)kpi->marks);
  cJSON_AddNumberToObject(sm, "ce_received", (double)kpi->ce_rx);
  cJSON_AddNumberToObject(sm, "cnps_sent", (double)s->cnps_sent);
  cJSON_AddNumberToObject(sm, "cnps_handled", (double)kpi->cnp_rx);
  cJSON_AddNumberToObject(sm, "pause_frames", (double)kpi->pauses);
  cJSON_AddNumberToObject(sm, "peak_queue_bytes", (double)br->watch_peak_bytes);
  cJSON_AddNumberToObject(sm, "peak_queue_rtt",
                          kpi->bdp_bytes > 0 ? (double)br->watch_peak_bytes / kpi->bdp_bytes : 0);
  cJSON_AddNumberToObject(sm, "base_rtt_us", m->rtt_us);
  cJSON_AddNumberToObject(sm, "retransmitted_bytes", (double)kpi->retx);
  cJSON_AddNumberToObject(sm, "timeouts", (double)kpi->timeouts);
  cJSON_AddNumberToObject(sm, "naks", (double)kpi->naks);
  cJSON_AddNumberToObject(sm, "out_of_order_discards", (double)s->ooo_discards);
  cJSON_AddNumberToObject(sm, "jain_fairness", kpi->jain);
  cJSON_AddNumberToObject(sm, "fairness_groups", kpi->ng);
  if (m->victim_flow != UINT32_MAX) {
    ns_flow_t *v = &s->flows[m->victim_flow];
    cJSON_AddStringToObject(sm, "victim", v->name);
    if (v->done) {
      cJSON_AddNumberToObject(sm, "victim_fct_us", (double)v->fct_ps * 1e-6);
    } else {
      cJSON_AddNullToObject(sm, "victim_fct_us");
    }
  }
  transfer_fct_json(sm, s);
  circuits_json(sm, s, m);
  policers_json(sm, s);
  return sm;
}

// run_one, step 5: the "links" and "perf" objects of summary.json
static void run_links_perf_json(cJSON *root, ns_sim_t *s, const run_kpi_t *kpi, double wall) {
  double dur = kpi->dur;
  cJSON *links = cJSON_CreateArray();
  for (uint32_t i = 0; i < s->nlinks; i++) {
    ns_link_t *l = &s->links[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON_AddNumberToObject(o, "util_gbps", dur > 0 ? (double)l->tx_bytes * 8.0 / dur / 1e9 : 0);
    cJSON_AddNumberToObject(o, "pause_frames_rx", (double)l->pfc_rx_frames);
    cJSON_AddNumberToObject(o, "paused_us", (double)l->paused_ps * 1e-6);
    cJSON_AddItemToArray(links, o);
  }
  cJSON_AddItemToObject(root, "links", links);
  cJSON *pf = cJSON_AddObjectToObject(root, "perf");
  cJSON_AddNumberToObject(pf, "wall_s", wall);
  cJSON_AddNumberToObject(pf, "sim_s_per_wall_s", wall > 0 ? dur / wall : 0);
  cJSON_AddNumberToObject(pf, "events", (double)s->events);
  cJSON_AddNumberToObject(pf, "packet_hops", (double)s->pkt_hops);
  static const char *const kEv[] = {"link", "nic", "router", "pfc", "rto", "sample"};
  cJSON *evj = cJSON_AddObjectToObject(pf, "events_by_type");
  for (int k = 0; k < 6; k++) {
    cJSON_AddNumberToObject(evj, kEv[k], (double)s->ev_by_type[k]);
  }
  cJSON_AddNumberToObject(evj, "stale_wakes", (double)s->ev_stale);
  cJSON_AddNumberToObject(pf, "packet_hops_per_wall_s", wall > 0 ? (double)s->pkt_hops / wall : 0);
  cJSON_AddNumberToObject(pf, "peak_rss_mib", (double)peak_rss_kb() / 1024.0);
  cJSON_AddNumberToObject(pf, "pool_peak_packets", s->pool_peak);
  cJSON_AddNumberToObject(pf, "pool_grows", (double)s->pool_grows);
}

// run_one, step 6: the text report on standard output (without --json)
static void run_print_text(ns_scenario_t *sc, ns_sim_t *s, ns_measure_t *m, const run_kpi_t *kpi,
                           cJSON *sm, cJSON *flows, uint64_t t_end, double wall, const char *outdir,
                           const char *outputs) {
  const ns_link_t *bl = kpi->bl;
  const ns_router_t *br = kpi->br;
  double dur = kpi->dur;
  stamp_line(stdout, "", sc, m->seed);
  printf("set-up: %s\n", m->setup);
  printf("simulated %.6f s in %.2f s wall (%.3f simulated s per wall s), %" PRIu64
         " packet-hops, peak RSS %.0f MiB\n",
         dur, wall, wall > 0 ? dur / wall : 0, s->pkt_hops, (double)peak_rss_kb() / 1024.0);
  printf("bottleneck %s: %.3f Gb/s L2 (frames), %.3f Gb/s L1 (on the wire)\n", bl->name, kpi->util,
         kpi->util1);
  cJSON *mn = cJSON_GetObjectItem(sm, "util_interval_min_gbps");
  if (mn != NULL) {
    printf("per %g s interval (L2): min %.3f mean %.3f max %.3f Gb/s over %d complete intervals\n",
           (double)s->ival_ps * 1e-12, mn->valuedouble,
           cJSON_GetObjectItem(sm, "util_interval_mean_gbps")->valuedouble,
           cJSON_GetObjectItem(sm, "util_interval_max_gbps")->valuedouble,
           cJSON_GetObjectItem(sm, "intervals_complete")->valueint);
  }
  cJSON *su = cJSON_GetObjectItem(sm, "steady_util_gbps");
  if (su != NULL) {
    printf(
        "steady state from %.3f s: %.3f Gb/s L2 (min %.3f max %.3f), tail drops %.0f, "
        "pause frames %.0f, peak queue %.3f RTT, Jain %.4f\n",
        cJSON_GetObjectItem(sm, "steady_from_s")->valuedouble, su->valuedouble,
        cJSON_GetObjectItem(sm, "steady_util_min_gbps")->valuedouble,
        cJSON_GetObjectItem(sm, "steady_util_max_gbps")->valuedouble,
        cJSON_GetObjectItem(sm, "steady_tail_drops")->valuedouble,
        cJSON_GetObjectItem(sm, "steady_pause_frames")->valuedouble,
        cJSON_GetObjectItem(sm, "steady_peak_queue_rtt")->valuedouble,
        cJSON_GetObjectItem(sm, "steady_jain_fairness")->valuedouble);
  }
  printf("tail_drops %" PRIu64 "  lossless_drops %" PRIu64 "  ecn_marks %" PRIu64
         "  ce_received %" PRIu64 "  cnps_sent %" PRIu64 "  cnps_handled %" PRIu64
         "  pause_frames %" PRIu64 "\n",
         kpi->tail, kpi->lossless, kpi->marks, kpi->ce_rx, s->cnps_sent, kpi->cnp_rx, kpi->pauses);
  cJSON *drp = cJSON_GetObjectItem(sm, "drops_by_reason");
  if (drp != NULL && drp->child != NULL) {
    printf("drops by router.reason:");
    for (cJSON *d = drp->child; d != NULL; d = d->next) {
      printf(" %s=%.0f", d->string, d->valuedouble);
    }
    printf("\n");
  }
  printf("peak_queue %" PRIu64 " bytes = %.3f RTT (base RTT %.1f us)  retransmitted %" PRIu64
         " bytes  timeouts %" PRIu64 "  jain %.4f over %u groups\n",
         br->watch_peak_bytes,
         kpi->bdp_bytes > 0 ? (double)br->watch_peak_bytes / kpi->bdp_bytes : 0, m->rtt_us,
         kpi->retx, kpi->timeouts, kpi->jain, kpi->ng);
  if (m->victim_flow != UINT32_MAX) {
    ns_flow_t *v = &s->flows[m->victim_flow];
    if (v->done) {
      printf("victim %s: fct %.3f us\n", v->name, (double)v->fct_ps * 1e-6);
    } else {
      printf("victim %s: not complete at %.3f us\n", v->name, (double)t_end * 1e-6);
    }
  }
  cJSON *circ = cJSON_GetObjectItem(sm, "circuits");
  if (circ != NULL) {
    printf("%-8s %8s %10s %12s %12s %10s %8s %10s %10s %10s\n", "circuit", "Gb/s", "rtt_us",
           "fct_us", "ideal_us", "goodput", "eff", "retx_%", "policed", "random");
    for (cJSON *o = circ->child; o != NULL; o = o->next) {
      cJSON *fc = cJSON_GetObjectItem(o, "fct_us");
      bool fin = cJSON_IsNumber(fc);
      printf("%-8s %8.3f %10.1f %12.1f %12.1f %10.3f %8.4f %10.4f %10.0f %10.0f\n",
             cJSON_GetObjectItem(o, "name")->valuestring,
             cJSON_GetObjectItem(o, "rate_gbps")->valuedouble,
             cJSON_GetObjectItem(o, "base_rtt_us")->valuedouble, fin ? fc->valuedouble : NAN,
             cJSON_GetObjectItem(o, "ideal_fct_us")->valuedouble,
             fin ? cJSON_GetObjectItem(o, "goodput_gbps")->valuedouble : NAN,
             fin ? cJSON_GetObjectItem(o, "fct_efficiency")->valuedouble : NAN,
             fin ? cJSON_GetObjectItem(o, "retx_overhead_pct")->valuedouble : NAN,
             cJSON_GetObjectItem(o, "policer_drops")->valuedouble,
             cJSON_GetObjectItem(o, "random_drops")->valuedouble);
    }
  }
  printf("%-40s %14s %10s %10s %10s\n", "flow", "bytes", "fct_us", "Gb/s", "retx_B");
  for (uint32_t i = 0; i < s->nflows && i < 40; i++) {
    ns_flow_t *f = &s->flows[i];
    char fct[32] = "-";
    if (f->done) {
      snprintf(fct, sizeof(fct), "%.3f", (double)f->fct_ps * 1e-6);
    }
    cJSON *o = cJSON_GetArrayItem(flows, (int)i);
    printf("%-40s %14" PRIu64 " %10s %10.3f %10" PRIu64 "\n", f->name, f->rx_bytes, fct,
           cJSON_GetObjectItem(o, "goodput_gbps")->valuedouble, f->retx_bytes);
    cJSON *lat = cJSON_GetObjectItem(o, "latency_us");
    if (lat != NULL) {
      printf("    latency_us p50 %.3f p99 %.3f p999 %.3f max %.3f (%d samples)\n",
             cJSON_GetObjectItem(lat, "p50")->valuedouble,
             cJSON_GetObjectItem(lat, "p99")->valuedouble,
             cJSON_GetObjectItem(lat, "p999")->valuedouble,
             cJSON_GetObjectItem(lat, "max")->valuedouble,
             cJSON_GetObjectItem(lat, "samples")->valueint);
    }
  }
  printf("%-48s %10s %10s %12s\n", "link", "Gb/s", "PFC_rx", "paused_us");
  for (uint32_t i = 0; i < s->nlinks; i++) {
    ns_link_t *l = &s->links[i];
    printf("%-48s %10.3f %10" PRIu64 " %12.3f\n", l->name,
           dur > 0 ? (double)l->tx_bytes * 8.0 / dur / 1e9 : 0, l->pfc_rx_frames,
           (double)l->paused_ps * 1e-6);
  }
  printf("outputs in %s:%s (and the generated configurations)\n", outdir, outputs);
}

static int run_one(ns_scenario_t *sc, const char *outdir, bool json, bool quiet, bool plots) {
  int mk = mkdir_p(outdir);
  if (mk != 0) {
    fprintf(stderr, "xtm-netsim: --out %s: %s\n", outdir,
            mk == 1 ? "exists and is not a directory" : strerror(errno));
    return mk;
  }
  ns_sim_t s;
  if (ns_sim_init(&s) != kNsOk) {
    return 2;
  }
  ns_measure_t m;
  char err[NS_ERR_LEN];
  if (!ns_scenario_build(sc, &s, &m, outdir, err, sizeof(err))) {
    fprintf(stderr, "%s\n", err);
    ns_sim_free(&s);
    return m.write_failed ? 2 : 1;
  }
  for (const char *w = m.warnings; *w;) {  // one a line: "--set KEY: not used ..."
    const char *e = strchr(w, '\n');
    int len = e != NULL ? (int)(e - w) : (int)strlen(w);
    fprintf(stderr, "xtm-netsim: warning: %.*s\n", len, w);
    w += len + (e != NULL);
  }
  s.stop_when_done = strcmp(sc->family, "scale-across") != 0;
  s.lookahead_off = getenv("NETSIM_NO_LOOKAHEAD") != NULL;  // reference mode (docs/netsim.md 1)
  s.dcqcn_rate_stream = getenv("NETSIM_DCQCN_RATE_STREAM") != NULL;  // reference (docs/netsim.md 1)
  char outputs[512] = "";
  char csvp[1300];
  run_ctx_t rc = {.s = &s, .m = &m};
  router_cfg_t *cfg = calloc(1, sizeof(*cfg));
  if (cfg == NULL) {
    ns_sim_free(&s);
    return 2;
  }
  ns_router_t *wr = &s.nodes[m.bottleneck_router].rt;
  if (wr->watch_voq >= 0) {
    (void)read_router_cfg(wr, (uint32_t)wr->watch_voq, cfg);  // !ok: the plots go without lines
  }
  run_open_timeseries(sc, &s, &m, cfg, outdir, &rc, csvp, sizeof(csvp));
  double w0 = now_s();
  ns_run(&s, m.end_ps);
  double wall = now_s() - w0;
  uint64_t t_end = s.now_ps > m.end_ps ? m.end_ps : s.now_ps;
  if (s.stop_when_done == false || t_end == 0) {
    t_end = m.end_ps;
  }
  ns_finish(&s, t_end);
  if (rc.csv != NULL && out_close(rc.csv, csvp)) {
    snprintf(outputs + strlen(outputs), sizeof(outputs) - strlen(outputs), " timeseries.csv");
  }
  // ---- KPIs
  run_kpi_t kpi = {.dur = (double)t_end * 1e-12};
  run_router_totals(&s, &m, &kpi);
  cJSON *root = cJSON_CreateObject();
  cJSON_AddItemToObject(root, "meta", meta_json(sc, &m));
  cJSON *flows = run_flows_json(&s, &kpi);
  cJSON *sm = run_summary_json(&s, &m, &kpi);
  cJSON_AddItemToObject(root, "summary", sm);
  intervals_out(&s, &m, t_end, root, sm, outdir, sc, outputs, sizeof(outputs));
  cJSON_AddItemToObject(root, "flows", flows);
  run_links_perf_json(root, &s, &kpi, wall);
  char *txt = cJSON_Print(root);
  char p[1300];
  FILE *jf = txt != NULL ? out_open(outdir, "summary.json", p, sizeof(p)) : NULL;
  if (jf != NULL) {
    fputs(txt, jf);
    fputc('\n', jf);
    if (out_close(jf, p)) {
      snprintf(outputs + strlen(outputs), sizeof(outputs) - strlen(outputs), " summary.json");
    }
  }
  if (plots && s.sample_ps > 0 && rc.csv != NULL && g_write_err[0] == '\0') {
    char names[128] = "";
    int prc = write_plots(outdir, sc, &s, &m, &rc, cfg, t_end, names, sizeof(names));
    if (prc < 0) {
      snprintf(p, sizeof(p), "%s/plots.gp", outdir);
      write_failed(p);
    } else if (prc > 0) {
      fprintf(stderr, "xtm-netsim: gnuplot failed (see %s/gnuplot.log); the CSV is complete\n",
              outdir);
      snprintf(outputs + strlen(outputs), sizeof(outputs) - strlen(outputs), " plots.gp");
    } else {
      snprintf(outputs + strlen(outputs), sizeof(outputs) - strlen(outputs), " plots.gp %s", names);
    }
  }
  if (json && txt != NULL) {
    errno = 0;
    if (puts(txt) < 0 || fflush(stdout) != 0) {
      write_failed("standard output");
    }
  } else if (!quiet) {
    run_print_text(sc, &s, &m, &kpi, sm, flows, t_end, wall, outdir, outputs);
  }
  cJSON_free(txt);
  cJSON_Delete(root);
  free(cfg);
  ns_sim_free(&s);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    write_failed("standard output");
  }
  if (g_write_err[0] != '\0') {
    fprintf(stderr, "xtm-netsim: %s; the run's outputs are incomplete\n", g_write_err);
    return 2;
  }
  return 0;
}

// The default output directory: build/netsim/<name>_<key=value>... with every character
// outside A-Z a-z 0-9 . _ = , + - replaced by '-'.
static void default_outdir(const ns_scenario_t *sc, char *out, size_t n) {
  snprintf(out, n, "build/netsim/%s", sc->name);
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (sc->kv[i].overridden) {
      size_t k = strlen(out);
      snprintf(out + k, n - k, "_%s=%s", sc->kv[i].key, sc->kv[i].val);
    }
  }
  for (char *p = out + strlen("build/netsim/"); *p; p++) {
    char c = *p;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          strchr("._=,+-", c) != NULL)) {
      *p = '-';
    }
  }
}

// ------------------------------------------------------------------ sweep

#define MAX_AX_VALS 32
#define MAX_VARIANTS 32

typedef struct axis {
  const char *key;  // NULL ends the list; "-": every value is a comma-separated set of k=v
  const char *vals[MAX_AX_VALS];
} axis_t;

// Whether every one of an axis's n values is a number (a numeric x axis of a sweep plot).
static bool axis_numeric(const axis_t *ax, uint32_t n) {
  for (uint32_t v = 0; v < n; v++) {
    double d;
    if (xtm_num_f64(NULL, ax->vals[v], -1e300, 1e300, &d, NULL) != kXtmNumOk) {
      return false;
    }
  }
  return true;
}

typedef struct variant {
  const char *label;
  const char *sets[4];
} variant_t;

typedef struct family {
  const char *name;
  const char *scenario;
  const char *fixed[8];         // key=value applied to every run
  axis_t ax[6];                 // a cartesian product of axes ...
  variant_t var[MAX_VARIANTS];  // ... or one run per variant (ax[0].key NULL)
  const char *note;
  const char *const *cols;  // the report's columns (NULL: kCols); a last axis "seed" adds
                            // the table of min..max over the seeds (ranges.csv)
} family_t;

// sweep policed-circuits: its report columns (summary.json keys, docs/netsim.md 4.5)
static const char *const kPcCols[] = {"circuit_goodput_min_gbps",
                                      "circuit_goodput_mean_gbps",
                                      "fct_efficiency_min",
                                      "fct_efficiency_mean",
                                      "retx_overhead_pct_mean",
                                      "retx_overhead_pct_max",
                                      "policer_drops",
                                      "random_drops",
                                      "tail_drops",
                                      "tcp_rtos",
                                      "tcp_fast_retransmits",
                                      "transfer_fct_us",
                                      NULL};

static const family_t kFamilies[] = {
    {"scale-across",
     "sim/scenarios/scale-across.ini",
     {"profile=final"},
     {{"load_bdp", {"0.5", "1.0"}}, {"distance_km", {"50", "100", "200", "300", "400", "500"}}},
     {{NULL, {NULL}}},
     "six distances x the two load profiles (0.5 BDP per client = \"2:1\", 1.0 = \"4:1\"), final "
     "buffer/ECN profile",
     NULL},
    {"grid",
     "sim/scenarios/scale-across.ini",
     {"profile=custom", "buffer_rtt=2.5"},
     {{"distance_km", {"50", "100", "200", "300", "400", "500"}},
      {"clients", {"2", "4"}},
      {"load_bdp", {"0.5", "1.0", "1.5", "2.0"}},
      {"-",
       {"kmin_rtt=0.25,kmax_rtt=0.5", "kmin_rtt=0.25,kmax_rtt=0.75", "kmin_rtt=0.25,kmax_rtt=1.0",
        "kmin_rtt=0.5,kmax_rtt=0.75", "kmin_rtt=0.5,kmax_rtt=1.0",   "kmin_rtt=0.5,kmax_rtt=1.25",
        "kmin_rtt=0.75,kmax_rtt=1.0", "kmin_rtt=0.75,kmax_rtt=1.25", "kmin_rtt=0.75,kmax_rtt=1.5",
        "kmin_rtt=1.0,kmax_rtt=1.25", "kmin_rtt=1.0,kmax_rtt=1.5",   "kmin_rtt=1.0,kmax_rtt=1.75",
        "kmin_rtt=1.25,kmax_rtt=1.5", "kmin_rtt=1.25,kmax_rtt=1.75", "kmin_rtt=1.25,kmax_rtt=2.0",
        "kmin_rtt=1.5,kmax_rtt=1.75", "kmin_rtt=1.5,kmax_rtt=2.0",   "kmin_rtt=1.5,kmax_rtt=2.25",
        "kmin_rtt=1.75,kmax_rtt=2.0", "kmin_rtt=1.75,kmax_rtt=2.25", "kmin_rtt=1.75,kmax_rtt=2.5"}},
      {"seed", {"1", "2"}}},
     {{NULL, {NULL}}},
     "grid test: 6 distances x 2 and 4 clients x load 0.5..2 BDP x Kmin 10..70 % of a 2.5 RTT "
     "buffer (0.25..1.75 RTT) x Kmax 10, 20, 30 % above Kmin x 2 repetitions (seeds) = 2,016 runs",
     NULL},
    {"buffer-sweep",
     "sim/scenarios/scale-across.ini",
     {"profile=custom", "distance_km=200", "clients=4", "load_bdp=1.0", "kmax_rtt=1.0"},
     {{"buffer_rtt", {"1.25", "1.5", "1.75", "2.0", "2.25", "2.5", "2.75"}},
      {"kmin_rtt", {"0.25", "0.375", "0.5"}}},
     {{NULL, {NULL}}},
     "buffer sweep at 200 km, 4 clients at 1 BDP",
     NULL},
    {"deep-buffer-sweep",
     "sim/scenarios/deep-buffer-sweep.ini",
     {NULL},
     {{"distance_km", {"10", "30", "100"}},
      {"buffer_bdp", {"3", "1", "0.3", "0.1", "0.03", "0.005"}},
      {"message_mb", {"50", "500"}}},
     {{NULL, {NULL}}},
     "2:1 long haul, RoCE RC with DCQCN (add --set transport=uet for NSCC)",
     NULL},
    {"deep-buffer-sweep-uet",
     "sim/scenarios/deep-buffer-sweep.ini",
     {"transport=uet"},
     {{"distance_km", {"10", "30", "100"}},
      {"buffer_bdp", {"3", "1", "0.3", "0.1", "0.03", "0.005"}},
      {"message_mb", {"50", "500"}}},
     {{NULL, {NULL}}},
     "2:1 long haul, UET transport: NSCC and selective retransmission",
     NULL},
    {"pfc-victim",
     "sim/scenarios/pfc-victim.ini",
     {NULL},
     {{"run", {"alone", "big-buffer", "pfc", "other-priority"}}},
     {{NULL, {NULL}}},
     "the four runs",
     NULL},
    {"pfc-victim-buffers",
     "sim/scenarios/pfc-victim.ini",
     {"run=pfc"},
     {{"buffer_mib", {"1", "2", "4", "8"}}, {"dcqcn", {"on", "off"}}},
     {{NULL, {NULL}}},
     "PAUSE counts for 1, 2, 4, 8 MiB with DCQCN on and off",
     NULL},
    {"pfc-victim-senders",
     "sim/scenarios/pfc-victim.ini",
     {"run=pfc"},
     {{"extra_senders", {"0", "1", "2", "3", "4", "5", "6", "7", "8"}}},
     {{NULL, {NULL}}},
     "victim throughput against the number of senders on B",
     NULL},
    {"roce-lab",
     "sim/scenarios/roce-lab.ini",
     {NULL},
     {{"phase", {"unloaded", "congested", "recovered"}}},
     {{NULL, {NULL}}},
     "the three phases",
     NULL},
    {"sensitivity-4to1",
     "sim/scenarios/scale-across.ini",
     {"distance_km=500", "load_bdp=1.0", "profile=final"},
     {{NULL, {NULL}}},
     {{"base", {NULL}},
      {"start=sync", {"client_start=sync"}},
      {"spread=10ms", {"start_spread_ms=10"}},
      {"spread=100ms", {"start_spread_ms=100"}},
      {"pfc=ptx-default", {"pfc_thresholds=ptx-default"}},
      {"shape=ramp", {"profile_shape=ramp"}},
      {"kmin=0.5RTT", {"profile=custom", "kmin_rtt=0.5"}},
      {"kmin=1.0RTT", {"profile=custom", "kmin_rtt=1.0"}},
      {"RPG_TIME_RESET=5000", {"dcqcn_set=RPG_TIME_RESET=5000"}},
      {"RPG_TIME_RESET=10000", {"dcqcn_set=RPG_TIME_RESET=10000"}},
      {"RPG_MIN_DEC_FAC=50", {"dcqcn_set=RPG_MIN_DEC_FAC=50"}},
      {"RPG_MIN_DEC_FAC=99", {"dcqcn_set=RPG_MIN_DEC_FAC=99"}},
      {"CLAMP_TGT_RATE=0", {"dcqcn_set=CLAMP_TGT_RATE=0"}},
      {"RPG_AI_RATE=10", {"dcqcn_set=RPG_AI_RATE=10"}},
      {"RPG_HAI_RATE=100", {"dcqcn_set=RPG_HAI_RATE=100"}},
      {"RATE_REDUCE_MONITOR_PERIOD=40", {"dcqcn_set=RATE_REDUCE_MONITOR_PERIOD=40"}},
      {"MIN_TIME_BETWEEN_CNPS=40", {"dcqcn_set=MIN_TIME_BETWEEN_CNPS=40"}},
      {"DCE_TCP_RTT=10", {"dcqcn_set=DCE_TCP_RTT=10"}},
      {NULL, {NULL}}},
     "sensitivity of 500 km, 4:1 (load 1.0 BDP per client), final profile: one parameter "
     "changed at a time against the base run",
     NULL},
    {"policed-circuits",
     "sim/scenarios/policed-circuits.ini",
     {NULL},
     {{"-",
       {"part=a,queue_shaper=off", "part=a,queue_shaper=on", "part=b,flows=1,sender_shaping=off",
        "part=b,flows=1,sender_shaping=on", "part=b,flows=10,sender_shaping=off",
        "part=b,flows=10,sender_shaping=on"}},
      {"tcp_cc", {"cubic", "bbr"}},
      {"loss_rate", {"0", "0.0001"}},
      {"seed", {"1", "2", "3"}}},
     {{NULL, {NULL}}},
     "FABRIC policed circuits (experiment 5): part a (one 80 Gb/s circuit, 10 flows, queue "
     "shaper off/on) and part b (eight 20 Gb/s circuits, 1 and 10 flows each, sender shaping "
     "off/on) x CUBIC and BBRv1 x no loss and 1e-4 random loss on the receiver cables x 3 "
     "seeds",
     kPcCols},
};

typedef struct sweep_run {
  char sets[MAX_SETS][NS_KEY_LEN + NS_VAL_LEN];
  uint32_t nsets;
  char label[256];   // the run's axis values (report rows)
  char val[6][128];  // value per axis (or the variant label in val[0])
  char dir[1500];
  int status;
} sweep_run_t;

static void progress(uint32_t done, uint32_t total, double t0) {
  double el = now_s() - t0;
  double eta = done > 0 ? el / done * (total - done) : 0;
  int w = 30, fill = total ? (int)(w * done / total) : w;
  fprintf(stderr, "\r[%.*s%.*s] %u/%u  elapsed %.0fs  ETA %.0fs   ", fill,
          "##############################", w - fill, "..............................", done, total,
          el, eta);
  fflush(stderr);
}

static cJSON *load_json(const char *path) {
  size_t n = 0;
  char e[NS_ERR_LEN];
  char *t = ns_read_bounded(path, 256u << 20, &n, e, sizeof(e));
  cJSON *j = t != NULL ? cJSON_Parse(t) : NULL;
  free(t);
  return j;
}

static double jnum(cJSON *o, const char *k) {
  cJSON *v = cJSON_GetObjectItem(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

typedef struct sweep_opts {
  char **sets;
  int nsets;
  int jobs;
  const char *out;
  bool report_only;
  bool slurm;
  int64_t task;      // -1: all runs
  const char *self;  // argv[0]
} sweep_opts_t;

static const family_t *find_family(const char *name) {
  for (size_t i = 0; i < sizeof(kFamilies) / sizeof(kFamilies[0]); i++) {
    if (strcmp(kFamilies[i].name, name) == 0) {
      return &kFamilies[i];
    }
  }
  return NULL;
}

// Splits "k=v,k=v" (a grid axis value of key "-") into sets.
static void add_multi(sweep_run_t *x, const char *v) {
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", v);
  for (char *tok = strtok(buf, ","); tok != NULL && x->nsets < MAX_SETS; tok = strtok(NULL, ",")) {
    snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", tok);
  }
}

static uint32_t build_runs(const family_t *fam, const sweep_opts_t *o, const char *outdir,
                           sweep_run_t **out, uint32_t *nax_out, uint32_t *len) {
  uint32_t nax = 0, total = 1;
  bool variants = fam->ax[0].key == NULL;
  if (variants) {
    total = 0;
    while (total < MAX_VARIANTS && fam->var[total].label != NULL) {
      total++;
    }
    nax = 1;
    len[0] = total;
  } else {
    while (nax < 6 && fam->ax[nax].key != NULL) {
      len[nax] = 0;
      while (len[nax] < MAX_AX_VALS && fam->ax[nax].vals[len[nax]] != NULL) {
        len[nax]++;
      }
      total *= len[nax];
      nax++;
    }
  }
  sweep_run_t *runs = calloc(total, sizeof(*runs));
  if (runs == NULL) {
    return 0;
  }
  for (uint32_t r = 0; r < total; r++) {
    sweep_run_t *x = &runs[r];
    for (int i = 0; i < 8 && fam->fixed[i] != NULL; i++) {
      snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", fam->fixed[i]);
    }
    for (int i = 0; i < o->nsets; i++) {
      snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", o->sets[i]);
    }
    if (variants) {
      const variant_t *v = &fam->var[r];
      for (int i = 0; i < 4 && v->sets[i] != NULL; i++) {
        snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", v->sets[i]);
      }
      snprintf(x->val[0], sizeof(x->val[0]), "%s", v->label);
      snprintf(x->label, sizeof(x->label), "%s", v->label);
    } else {
      uint32_t idx = r;
      uint32_t vi[6];
      for (int a = (int)nax - 1; a >= 0; a--) {
        vi[a] = idx % len[a];
        idx /= len[a];
      }
      x->label[0] = '\0';
      for (uint32_t a = 0; a < nax; a++) {
        const char *v = fam->ax[a].vals[vi[a]];
        if (strcmp(fam->ax[a].key, "-") == 0) {
          add_multi(x, v);
        } else {
          snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s=%s", fam->ax[a].key, v);
        }
        snprintf(x->val[a], sizeof(x->val[a]), "%s", v);
        size_t k = strlen(x->label);
        if (strcmp(fam->ax[a].key, "-") == 0) {
          snprintf(x->label + k, sizeof(x->label) - k, "%s%s", a ? "_" : "", v);
        } else {
          snprintf(x->label + k, sizeof(x->label) - k, "%s%s=%s", a ? "_" : "", fam->ax[a].key, v);
        }
      }
    }
    char tag[256];
    ns_plot_text(tag, sizeof(tag), x->label);
    for (char *p = tag; *p; p++) {
      if (*p == '/' || *p == ' ' || *p == '(' || *p == ')' || *p == ':' || *p == '%') {
        *p = '-';
      }
    }
    snprintf(x->dir, sizeof(x->dir), "%s/%s", outdir, tag);
  }
  *out = runs;
  *nax_out = nax;
  return total;
}

// One run of a sweep in this process (a forked child or a Slurm array task).
static int sweep_task(const ns_scenario_t *base, sweep_run_t *x) {
  char old[1700];
  snprintf(old, sizeof(old), "%s/summary.json", x->dir);
  (void)remove(old);  // a failed run must not leave an earlier result behind
  ns_scenario_t sc = *base;
  char err[NS_ERR_LEN];
  for (uint32_t i = 0; i < x->nsets; i++) {
    if (!ns_scenario_set(&sc, x->sets[i], err, sizeof(err))) {
      fprintf(stderr, "\n%s\n", err);
      return 1;
    }
  }
  if (freopen("/dev/null", "w", stdout) == NULL) {
    return 2;
  }
  return run_one(&sc, x->dir, false, true, true);
}

static bool safe_path(const char *p) {
  for (; *p; p++) {
    char c = *p;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          strchr("._-/+=,", c) != NULL)) {
      return false;
    }
  }
  return true;
}

// Submits every run as one Slurm job array and waits for it (sbatch --wait): the batch script
// runs "$@" --task $SLURM_ARRAY_TASK_ID, its arguments passed by sbatch as a vector (no text of
// the user's reaches a shell). Each task writes its run directory and exit_status.
static int slurm_submit(const family_t *fam, const sweep_opts_t *o, const char *outdir,
                        uint32_t total) {
  char sdir[1100], script[1200], logs[1300], self[PATH_MAX], cwd[PATH_MAX], arr[64];
  snprintf(sdir, sizeof(sdir), "%s/slurm", outdir);
  if (mkdir_p(sdir) != 0) {
    fprintf(stderr, "xtm-netsim: cannot create %s: %s\n", sdir, strerror(errno));
    return 2;
  }
  FILE *f = out_open(sdir, "array.sh", script, sizeof(script));
  if (f == NULL) {
    fprintf(stderr, "xtm-netsim: %s\n", g_write_err);
    return 2;
  }
  fprintf(f,
          "#!/bin/sh\n# xtm-netsim sweep %s: one run per array task (arguments from sbatch)\n"
          "exec \"$@\" --task \"$SLURM_ARRAY_TASK_ID\"\n",
          fam->name);
  if (!out_close(f, script) || chmod(script, 0755) != 0) {
    fprintf(stderr, "xtm-netsim: %s\n", g_write_err[0] ? g_write_err : "cannot chmod array.sh");
    return 2;
  }
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0 || getcwd(cwd, sizeof(cwd)) == NULL) {
    fprintf(stderr, "xtm-netsim: cannot find my own path or the working directory\n");
    return 2;
  }
  self[n] = '\0';
  snprintf(logs, sizeof(logs), "--output=%s/task-%%a.log", sdir);
  snprintf(arr, sizeof(arr), "--array=0-%u", total - 1);
  char chd[PATH_MAX + 16], name[128];
  snprintf(chd, sizeof(chd), "--chdir=%s", cwd);
  snprintf(name, sizeof(name), "--job-name=xtm-netsim-%s", fam->name);
  char *argv[16 + 2 * MAX_SETS];
  int k = 0;
  argv[k++] = "sbatch";
  argv[k++] = "--wait";
  argv[k++] = "--parsable";
  argv[k++] = arr;
  argv[k++] = chd;
  argv[k++] = name;
  argv[k++] = logs;
  argv[k++] = "--ntasks=1";
  argv[k++] = "--cpus-per-task=1";
  argv[k++] = script;
  argv[k++] = self;
  argv[k++] = "sweep";
  argv[k++] = (char *)fam->name;
  argv[k++] = "--out";
  argv[k++] = (char *)outdir;
  for (int i = 0; i < o->nsets; i++) {
    argv[k++] = "--set";
    argv[k++] = o->sets[i];
  }
  argv[k] = NULL;
  fprintf(stderr, "xtm-netsim sweep %s: submitting %u runs as one Slurm job array\n", fam->name,
          total);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    execvp("sbatch", argv);
    fprintf(stderr, "xtm-netsim: cannot run sbatch: %s\n", strerror(errno));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) {
    fprintf(stderr, "xtm-netsim: fork failed\n");
    return 2;
  }
  int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 2;
  if (rc == 127) {
    return 2;
  }
  if (rc != 0) {
    fprintf(stderr, "xtm-netsim: sbatch exited %d (some array tasks failed: see %s/task-*.log)\n",
            rc, sdir);
  }
  return 0;
}

// sweep: the columns of report.md and results.csv, from each run's summary.json
static const char *const kCols[] = {"bottleneck_util_gbps",
                                    "bottleneck_util_l1_gbps",
                                    "steady_util_gbps",
                                    "steady_util_min_gbps",
                                    "steady_util_max_gbps",
                                    "tail_drops",
                                    "lossless_drops",
                                    "ecn_marks",
                                    "cnps_sent",
                                    "pause_frames",
                                    "peak_queue_rtt",
                                    "retransmitted_bytes",
                                    "jain_fairness",
                                    "victim_fct_us",
                                    "fct_us",
                                    "timeouts"};
#define MAX_COLS 24
// the columns of the sweep being reported (sweep(): the family's or kCols)
static const char *const *g_cols = kCols;
static size_t g_ncols = sizeof(kCols) / sizeof(kCols[0]);
_Static_assert(sizeof(kCols) / sizeof(kCols[0]) <= MAX_COLS, "MAX_COLS");

// sweep, one Slurm array task: runs[task] and its exit_status file
static int sweep_task_one(const ns_scenario_t *base, sweep_run_t *runs, uint32_t total,
                          const family_t *fam, const sweep_opts_t *o) {
  if ((uint64_t)o->task >= total) {
    fprintf(stderr, "xtm-netsim: --task %" PRId64 " is not below the %u runs of %s\n", o->task,
            total, fam->name);
    free(runs);
    return 1;
  }
  sweep_run_t *x = &runs[o->task];
  int mk = mkdir_p(x->dir);
  int rc = mk != 0 ? 2 : sweep_task(base, x);
  char p[1700];
  snprintf(p, sizeof(p), "%s/exit_status", x->dir);
  FILE *f = fopen(p, "w");
  if (f != NULL) {
    fprintf(f, "%d\n", rc);
    if (fclose(f) != 0) {
      rc = 2;
    }
  }
  free(runs);
  return rc;
}

// sweep: the user's overrides and the first run are checked before anything is forked or
// submitted; false (message printed) when they are refused
static bool sweep_precheck(const ns_scenario_t *base, const sweep_run_t *runs) {
  char err[NS_ERR_LEN];
  ns_scenario_t chk = *base;
  for (uint32_t i = 0; i < runs[0].nsets; i++) {
    if (!ns_scenario_set(&chk, runs[0].sets[i], err, sizeof(err))) {
      fprintf(stderr, "%s\n", err);
      return false;
    }
  }
  ns_sim_t s;
  ns_measure_t m;
  bool ok = ns_sim_init(&s) == kNsOk && ns_scenario_build(&chk, &s, &m, NULL, err, sizeof(err));
  ns_sim_free(&s);
  if (!ok) {
    fprintf(stderr, "%s\n", err);
    return false;
  }
  return true;
}

// sweep --slurm: each task's exit_status file (2 when a task did not run)
static void sweep_slurm_status(sweep_run_t *runs, uint32_t total) {
  for (uint32_t r = 0; r < total; r++) {
    char p[1700], t[32] = "";
    snprintf(p, sizeof(p), "%s/exit_status", runs[r].dir);
    FILE *f = fopen(p, "r");
    runs[r].status = 2;  // no status: the task did not run
    if (f != NULL && fgets(t, sizeof(t), f) != NULL) {
      int64_t v = 2;
      t[strcspn(t, "\n")] = '\0';
      if (xtm_num_i64(NULL, t, 0, 255, &v, NULL) == kXtmNumOk) {
        runs[r].status = (int)v;
      }
    }
    if (f != NULL) {
      fclose(f);
    }
  }
}

// sweep, local: the runs on o->jobs forked processes, with a progress line; 2 if fork failed
static int sweep_run_local(const ns_scenario_t *base, sweep_run_t *runs, uint32_t total,
                           const family_t *fam, const sweep_opts_t *o, const char *outdir,
                           double t0) {
  fprintf(stderr, "xtm-netsim sweep %s: %u runs on %d parallel jobs -> %s\n", fam->name, total,
          o->jobs, outdir);
  uint32_t next = 0, done = 0, running = 0;
  pid_t *pids = calloc(total, sizeof(pid_t));
  if (pids == NULL) {
    return 2;
  }
  progress(0, total, t0);
  while (done < total) {
    while (running < (uint32_t)o->jobs && next < total) {
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
        _exit(sweep_task(base, &runs[next]));
      }
      if (pid < 0) {
        fprintf(stderr, "xtm-netsim: fork failed\n");
        free(pids);
        return 2;
      }
      pids[next++] = pid;
      running++;
    }
    int st = 0;
    pid_t w = wait(&st);
    if (w < 0) {
      break;
    }
    for (uint32_t i = 0; i < next; i++) {
      if (pids[i] == w) {
        runs[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : 2;
      }
    }
    running--;
    done++;
    progress(done, total, t0);
  }
  fputc('\n', stderr);
  free(pids);
  return 0;
}

// sweep report: what the rows leave for the plots
typedef struct sweep_rep {
  uint32_t failed, refused;
  bool has_col[MAX_COLS];
  double col_max[MAX_COLS];
  char seeds[96];  // the runs' seeds, for the plots' footer: "1" or "1 2" (first 8)
  uint32_t nseeds;
} sweep_rep_t;

// sweep report, step 1: report.md's preamble and the table header of both files
static void sweep_report_header(FILE *f, FILE *csv, const family_t *fam, const sweep_opts_t *o,
                                uint32_t total, uint32_t nax, double t0) {
  bool variants = fam->ax[0].key == NULL;
  fprintf(f, "# xtm-netsim sweep: %s\n\n", fam->name);
  fprintf(f, "%s. Scenario `%s`; version %s; %u runs%s; %.1f s wall. Fixed overrides:%s", fam->note,
          fam->scenario, NETSIM_VERSION, total,
          o->report_only ? " (report rewritten from existing runs)"
          : o->slurm     ? " as one Slurm job array"
                         : "",
          now_s() - t0, fam->fixed[0] == NULL && o->nsets == 0 ? " none" : "");
  for (int i = 0; i < 8 && fam->fixed[i] != NULL; i++) {
    fprintf(f, " `%s`", fam->fixed[i]);
  }
  for (int i = 0; i < o->nsets; i++) {
    fprintf(f, " `%s`", o->sets[i]);
  }
  fprintf(f, ". Reproduce with `xtm-netsim sweep %s", fam->name);
  for (int i = 0; i < o->nsets; i++) {
    fprintf(f, " --set %s", o->sets[i]);
  }
  fprintf(f,
          "`. Every run's directory holds its summary.json (stamped with scenario, overrides, "
          "seed, set-up and version), time series, intervals.csv and plots. Units: Gb/s of "
          "frame bytes (L2) unless the column says l1; queue in units of the base RTT x "
          "bottleneck rate; times in us; steady_* over the complete intervals after warmup_s.\n\n");
  fprintf(csv, "# xtm-netsim %s sweep %s; units as in report.md\n", NETSIM_VERSION, fam->name);
  fprintf(f, "|");
  for (uint32_t a = 0; a < nax; a++) {
    const char *k = variants ? "variant"
                    : strcmp(fam->ax[a].key, "-") == 0
                        ? (fam->cols != NULL ? "set-up" : "thresholds")
                        : fam->ax[a].key;
    fprintf(f, " %s |", k);
    fprintf(csv, "%s,", k);
  }
  for (size_t k = 0; k < g_ncols; k++) {
    fprintf(f, " %s |", g_cols[k]);
    fprintf(csv, "%s%s", g_cols[k], k + 1 < g_ncols ? "," : "\n");
  }
  fprintf(f, "\n|");
  for (size_t k = 0; k < nax + g_ncols; k++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
}

// sweep report, step 2: one row per run in report.md and results.csv
static void sweep_report_rows(FILE *f, FILE *csv, const sweep_run_t *runs, uint32_t total,
                              uint32_t nax, sweep_rep_t *rp) {
  char p[1700];
  for (uint32_t r = 0; r < total; r++) {
    snprintf(p, sizeof(p), "%s/summary.json", runs[r].dir);
    cJSON *j = runs[r].status == 0 ? load_json(p) : NULL;
    cJSON *sm = j ? cJSON_GetObjectItem(j, "summary") : NULL;
    fprintf(f, "|");
    for (uint32_t a = 0; a < nax; a++) {
      fprintf(f, " %s |", runs[r].val[a]);
      fprintf(csv, strchr(runs[r].val[a], ',') != NULL ? "\"%s\"," : "%s,", runs[r].val[a]);
    }
    if (sm == NULL) {
      if (runs[r].status == 1) {
        rp->refused++;
        fprintf(f, " refused its input (exit 1) |\n");
        fprintf(csv, "refused\n");
      } else {
        rp->failed++;
        fprintf(f, " run failed (exit %d) |\n", runs[r].status);
        fprintf(csv, "failed\n");
      }
      cJSON_Delete(j);
      continue;
    }
    cJSON *sd = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "meta"), "seed");
    if (cJSON_IsString(sd) && rp->nseeds < 8) {
      char w[32];
      snprintf(w, sizeof(w), " %.24s ", sd->valuestring);
      char have[sizeof(rp->seeds) + 2];
      snprintf(have, sizeof(have), " %s ", rp->seeds);
      if (strstr(have, w) == NULL) {
        size_t k = strlen(rp->seeds);
        snprintf(rp->seeds + k, sizeof(rp->seeds) - k, "%s%.24s", k ? " " : "", sd->valuestring);
        rp->nseeds++;
      }
    }
    // the fct_us column: the message's FCT. A TCP transfer is striped over tcp_flows flows
    // and ends with the last of them (transfer_fct_us, null while one is unfinished); any
    // other run sends its message on its first flow
    double fct = NAN, tmo = jnum(sm, "timeouts");
    cJSON *fl = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "flows"), 0);
    if (cJSON_GetObjectItem(sm, "transfer_fct_us") != NULL) {
      fct = jnum(sm, "transfer_fct_us");
    } else if (fl != NULL) {
      fct = jnum(fl, "fct_us");
    }
    for (size_t k = 0; k < g_ncols; k++) {
      double v = strcmp(g_cols[k], "fct_us") == 0     ? fct
                 : strcmp(g_cols[k], "timeouts") == 0 ? tmo
                                                      : jnum(sm, g_cols[k]);
      if (isnan(v)) {
        fprintf(f, " - |");
        fprintf(csv, "%s", k + 1 < g_ncols ? "," : "\n");
      } else {
        rp->has_col[k] = true;
        rp->col_max[k] = fabs(v) > rp->col_max[k] ? fabs(v) : rp->col_max[k];
        fprintf(f, " %.4g |", v);
        fprintf(csv, "%.6g%s", v, k + 1 < g_ncols ? "," : "\n");
      }
    }
    fprintf(f, "\n");
    cJSON_Delete(j);
  }
}

// a plot footer's override list: " KEY=V ..." (the --set values of the sweep) or " none",
// appended at k of buf (n bytes); returns the new end (snprintf's convention)
static int put_overrides(char *buf, size_t n, int k, const sweep_opts_t *o) {
  for (int i = 0; i < o->nsets && k > 0 && (size_t)k < n; i++) {
    k += snprintf(buf + k, n - (size_t)k, " %s", o->sets[i]);
  }
  if (o->nsets == 0 && k > 0 && (size_t)k < n) {
    k += snprintf(buf + k, n - (size_t)k, " none");
  }
  return k;
}

// the command that reproduces the sweep: its family and --set overrides
static void put_repro(ns_plot_sweep_t *ps, const family_t *fam, const sweep_opts_t *o) {
  int k = snprintf(ps->repro, sizeof(ps->repro), "xtm-netsim sweep %s", fam->name);
  for (int i = 0; i < o->nsets && k > 0 && (size_t)k < sizeof(ps->repro); i++) {
    k += snprintf(ps->repro + k, sizeof(ps->repro) - (size_t)k, " --set %s", o->sets[i]);
  }
}

// sweep report, step 3: the KPIs against the last axis, one line per value of the first axis;
// a variant family or a single axis: one bar per run (sim/netsim/plot.c draws them)
static void sweep_plots(FILE *f, const family_t *fam, const sweep_opts_t *o, const char *outdir,
                        uint32_t total, uint32_t nax, const uint32_t *len, const sweep_rep_t *rp) {
  bool variants = fam->ax[0].key == NULL;
  char p[1700];
  static const struct {
    const char *k, *col, *what, *unit;
    ns_plot_unit_t kind;
  } kPl[] = {{"util", "bottleneck_util_gbps", "bottleneck utilisation, whole run (L2)", "Gb/s",
              kNsUnitPlain},
             {"steady", "steady_util_gbps", "steady-state utilisation (L2)", "Gb/s", kNsUnitPlain},
             {"peakq", "peak_queue_rtt", "peak queue", "RTT", kNsUnitPlain},
             {"cnps", "cnps_sent", "CNPs sent", NULL, kNsUnitCount},
             {"pauses", "pause_frames", "PAUSE frames", NULL, kNsUnitCount},
             {"victim", "victim_fct_us", "victim FCT", NULL, kNsUnitTimeUs},
             {"fct", "fct_us", "FCT of the message", NULL, kNsUnitTimeUs},
             {"retx", "retransmitted_bytes", "retransmitted bytes", NULL, kNsUnitBytes}};
  ns_plot_sweep_t *ps = calloc(1, sizeof(*ps));
  if (ps != NULL && nax >= 1) {
    // lines: x is the last axis, one line per value of the first; but with two axes of
    // which only the first holds numbers (pfc-victim-buffers: buffer_mib x dcqcn on/off)
    // the numbers go on x and the text values become the lines (a line from "on" to "off"
    // says nothing)
    uint32_t xa = nax - 1, sa = 0;
    if (nax == 2 && !axis_numeric(&fam->ax[1], len[1]) && axis_numeric(&fam->ax[0], len[0])) {
      xa = 0;
      sa = 1;
    }
    snprintf(ps->family, sizeof(ps->family), "%s", fam->name);
    int k = snprintf(ps->footer, sizeof(ps->footer),
                     "xtm-netsim %s, sweep %s of scenario %s, %u runs, fixed:", NETSIM_VERSION,
                     fam->name, fam->scenario, total);
    for (int i = 0; i < 8 && fam->fixed[i] != NULL && k > 0 && (size_t)k < sizeof(ps->footer);
         i++) {
      k += snprintf(ps->footer + k, sizeof(ps->footer) - (size_t)k, " %s", fam->fixed[i]);
    }
    if (k > 0 && (size_t)k < sizeof(ps->footer)) {
      k += snprintf(ps->footer + k, sizeof(ps->footer) - (size_t)k,
                    "%s, overrides:", fam->fixed[0] == NULL ? " none" : "");
    }
    k = put_overrides(ps->footer, sizeof(ps->footer), k, o);
    if (k > 0 && (size_t)k < sizeof(ps->footer)) {
      snprintf(ps->footer + k, sizeof(ps->footer) - (size_t)k, ", seed%s %s",
               rp->nseeds == 1 ? "" : "s", rp->nseeds ? rp->seeds : "-");
    }
    put_repro(ps, fam, o);
    ps->bars = variants || nax == 1;
    if (ps->bars) {
      ps->xlabel = variants ? "variant" : fam->ax[0].key;
    } else {
      ps->xlabel = strcmp(fam->ax[xa].key, "-") == 0 ? "thresholds" : fam->ax[xa].key;
      ps->xcol = xa + 1;
      ps->xnumeric = axis_numeric(&fam->ax[xa], len[xa]);
      for (uint32_t v = 0; v < len[xa] && v < 32; v++) {
        ps->xvals[ps->nxvals++] = fam->ax[xa].vals[v];
      }
      ps->series_key = fam->ax[sa].key;
      ps->series_col = sa + 1;
      for (uint32_t v = 0; v < len[sa] && v < 32; v++) {
        ps->series[ps->nseries++] = fam->ax[sa].vals[v];
      }
    }
    for (size_t j = 0; j < sizeof(kPl) / sizeof(kPl[0]); j++) {
      size_t col = 0;
      while (col < g_ncols && strcmp(g_cols[col], kPl[j].col) != 0) {
        col++;
      }
      if (col == g_ncols || !rp->has_col[col]) {
        continue;  // no run has this KPI (e.g. no victim flow)
      }
      ns_plot_kpi_t *q = &ps->kpi[ps->nkpi++];
      q->file = kPl[j].k;
      q->what = kPl[j].what;
      q->unit = kPl[j].unit;
      q->kind = kPl[j].kind;
      q->col = nax + (uint32_t)col + 1;
      q->max = rp->col_max[col];
    }
    int prc = ns_plot_write_sweep(outdir, ps);
    if (prc == 0) {
      fprintf(f, "\n## Plots\n\n");
      for (uint32_t j = 0; j < ps->nkpi; j++) {
        fprintf(f, "![%s](%s.png)\n\n", ps->kpi[j].what, ps->kpi[j].file);
      }
    } else if (prc < 0) {
      snprintf(p, sizeof(p), "%s/report.gp", outdir);
      write_failed(p);
    } else {
      fprintf(f, "\n(gnuplot failed: see gnuplot.log)\n");
    }
  }
  free(ps);
}

// A short plot label for an axis value: a "-" axis's "queue_shaper=off,part=a" becomes
// "qs=off p=a" (each key by the initials of its words), another axis's value stays as it is.
static void range_label(char *lab, size_t n, const char *v, bool multi) {
  size_t k = strlen(lab);
  if (k > 0 && k + 1 < n) {
    lab[k++] = ' ';
    lab[k] = '\0';
  }
  if (!multi) {
    snprintf(lab + k, n - k, "%s", v);
    return;
  }
  bool start = true, in_val = false;
  for (const char *c = v; *c && k + 1 < n; c++) {
    if (*c == ',') {
      lab[k++] = ' ';
      start = true;
      in_val = false;
    } else if (*c == '=') {
      lab[k++] = '=';
      in_val = true;
    } else if (in_val) {
      lab[k++] = *c;
    } else if (*c == '_') {
      start = true;
    } else if (start) {
      lab[k++] = *c;
      start = false;
    }
  }
  lab[k] = '\0';
}

// one row of sweep_ranges: min..max over the runs of set-up g, into report.md (f) and
// ranges.csv (csv); has/gmax collect, per column, whether any value exists and the largest |max|
static void range_row(FILE *f, FILE *csv, const family_t *fam, const sweep_run_t *runs, uint32_t g,
                      uint32_t per, uint32_t nax, bool *has, double *gmax) {
  char p[1700];
  double lo[MAX_COLS], hi[MAX_COLS];
  uint32_t nok = 0;
  for (size_t k = 0; k < g_ncols; k++) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (uint32_t r = g * per; r < (g + 1) * per; r++) {
    snprintf(p, sizeof(p), "%s/summary.json", runs[r].dir);
    cJSON *j = runs[r].status == 0 ? load_json(p) : NULL;
    cJSON *sm = j ? cJSON_GetObjectItem(j, "summary") : NULL;
    nok += sm != NULL;
    for (size_t k = 0; sm != NULL && k < g_ncols; k++) {
      double v = jnum(sm, g_cols[k]);
      if (!isnan(v)) {
        lo[k] = v < lo[k] ? v : lo[k];
        hi[k] = v > hi[k] ? v : hi[k];
      }
    }
    cJSON_Delete(j);
  }
  fprintf(f, "|");
  char lab[512] = "";
  for (uint32_t a = 0; a + 1 < nax; a++) {
    fprintf(f, " %s |", runs[g * per].val[a]);
    range_label(lab, sizeof(lab), runs[g * per].val[a], strcmp(fam->ax[a].key, "-") == 0);
  }
  fprintf(csv, "\"%s\"", lab);
  for (size_t k = 0; k < g_ncols; k++) {
    if (lo[k] > hi[k]) {
      fprintf(f, " - |");
      fprintf(csv, ",,");
    } else {
      has[k] = true;
      gmax[k] = fabs(hi[k]) > gmax[k] ? fabs(hi[k]) : gmax[k];
      if (lo[k] == hi[k]) {
        fprintf(f, " %.4g |", lo[k]);
      } else {
        fprintf(f, " %.4g..%.4g |", lo[k], hi[k]);
      }
      fprintf(csv, ",%.6g,%.6g", lo[k], hi[k]);
    }
  }
  fprintf(f, " %u |\n", nok);
  fprintf(csv, ",%u\n", nok);
}

// the range plots of sweep_ranges (ranges.gp from ranges.csv) and their links in report.md
static void range_plots(FILE *f, const family_t *fam, const sweep_opts_t *o, const char *outdir,
                        uint32_t total, uint32_t per, const bool *has, const double *gmax) {
  char p[1700];
  // the range plots: one bar from min to max per set-up
  static const struct {
    const char *k, *col, *what, *unit;
    ns_plot_unit_t kind;
  } kPl[] = {
      {"range-goodput", "circuit_goodput_mean_gbps", "mean circuit goodput", "Gb/s", kNsUnitPlain},
      {"range-goodput-min", "circuit_goodput_min_gbps", "lowest circuit goodput", "Gb/s",
       kNsUnitPlain},
      {"range-fcteff", "fct_efficiency_mean", "mean FCT efficiency", "ideal / measured",
       kNsUnitPlain},
      {"range-retx", "retx_overhead_pct_mean", "retransmission overhead", "% of circuit rate",
       kNsUnitPlain},
      {"range-policed", "policer_drops", "policer drops", NULL, kNsUnitCount}};
  ns_plot_sweep_t *ps = calloc(1, sizeof(*ps));
  if (ps == NULL) {
    return;
  }
  snprintf(ps->family, sizeof(ps->family), "%s", fam->name);
  int k = snprintf(ps->footer, sizeof(ps->footer),
                   "xtm-netsim %s, sweep %s of scenario %s, %u runs, min..max over %u seeds, "
                   "overrides:",
                   NETSIM_VERSION, fam->name, fam->scenario, total, per);
  (void)put_overrides(ps->footer, sizeof(ps->footer), k, o);
  put_repro(ps, fam, o);
  ps->bars = true;
  ps->ranges = true;
  ps->xlabel = "set-up";
  for (size_t j = 0; j < sizeof(kPl) / sizeof(kPl[0]); j++) {
    size_t col = 0;
    while (col < g_ncols && strcmp(g_cols[col], kPl[j].col) != 0) {
      col++;
    }
    if (col == g_ncols || !has[col]) {
      continue;
    }
    ns_plot_kpi_t *q = &ps->kpi[ps->nkpi++];
    q->file = kPl[j].k;
    q->what = kPl[j].what;
    q->unit = kPl[j].unit;
    q->kind = kPl[j].kind;
    q->col = 2 + 2 * (uint32_t)col;  // ranges.csv: setup, then min and max of each column
    q->col_hi = q->col + 1;
    q->max = gmax[col];
  }
  int prc = ps->nkpi > 0 ? ns_plot_write_sweep_file(outdir, ps, "ranges.gp") : 0;
  if (prc == 0) {
    for (uint32_t j = 0; j < ps->nkpi; j++) {
      fprintf(f, "\n![%s, min..max over the seeds](%s.png)\n", ps->kpi[j].what, ps->kpi[j].file);
    }
  } else if (prc < 0) {
    snprintf(p, sizeof(p), "%s/ranges.gp", outdir);
    write_failed(p);
  } else {
    fprintf(f, "\n(gnuplot failed on ranges.gp: see gnuplot.log)\n");
  }
  free(ps);
}

// sweep report, step 4 (a family whose last axis is "seed"): the runs of one set-up differ
// only in their seed and are consecutive (the last axis varies fastest); report.md gets
// min..max over them per column, ranges.csv the same numbers, and report.gp the range plots
// (a bar from min to max per set-up). Returns false when ranges.csv could not be written.
static bool sweep_ranges(FILE *f, const family_t *fam, const sweep_opts_t *o, const char *outdir,
                         const sweep_run_t *runs, uint32_t total, uint32_t nax,
                         const uint32_t *len) {
  if (nax < 2 || fam->ax[0].key == NULL || strcmp(fam->ax[nax - 1].key, "seed") != 0) {
    return true;
  }
  uint32_t per = len[nax - 1], ngroups = total / per;
  char p[1700];
  FILE *csv = out_open(outdir, "ranges.csv", p, sizeof(p));
  if (csv == NULL) {
    return false;
  }
  fprintf(csv, "# xtm-netsim %s sweep %s: min and max over the %u seeds of each set-up\nsetup",
          NETSIM_VERSION, fam->name, per);
  fprintf(f, "\n## Over the seeds: min..max of the %u runs of each set-up\n\n|", per);
  for (uint32_t a = 0; a + 1 < nax; a++) {
    fprintf(f, " %s |", strcmp(fam->ax[a].key, "-") == 0 ? "set-up" : fam->ax[a].key);
  }
  for (size_t k = 0; k < g_ncols; k++) {
    fprintf(f, " %s |", g_cols[k]);
    fprintf(csv, ",%s_min,%s_max", g_cols[k], g_cols[k]);
  }
  fprintf(f, " runs |\n|");
  fprintf(csv, ",runs\n");
  for (size_t k = 0; k < nax - 1 + g_ncols + 1; k++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
  double gmax[MAX_COLS] = {0};
  bool has[MAX_COLS] = {false};
  for (uint32_t g = 0; g < ngroups; g++) {
    range_row(f, csv, fam, runs, g, per, nax, has, gmax);
  }
  if (!out_close(csv, p)) {
    return false;
  }
  range_plots(f, fam, o, outdir, total, per, has, gmax);
  return true;
}

static int sweep(const char *fam_name, const sweep_opts_t *o) {
  const family_t *fam = find_family(fam_name);
  if (fam == NULL) {
    char q[80];
    xtm_num_quote(q, sizeof(q), fam_name);
    fprintf(stderr, "xtm-netsim sweep: unknown family '%s'; families:", q);
    for (size_t i = 0; i < sizeof(kFamilies) / sizeof(kFamilies[0]); i++) {
      fprintf(stderr, " %s", kFamilies[i].name);
    }
    fputc('\n', stderr);
    return 1;
  }
  ns_scenario_t base;
  char err[NS_ERR_LEN];
  if (!ns_scenario_load(fam->scenario, &base, err, sizeof(err))) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  char outdir[900];
  snprintf(outdir, sizeof(outdir), "%s", o->out != NULL ? o->out : "");
  if (o->out == NULL) {
    snprintf(outdir, sizeof(outdir), "build/netsim/sweep-%s", fam->name);
  }
  if (o->slurm && !safe_path(outdir)) {
    fprintf(stderr,
            "xtm-netsim sweep --slurm: --out may hold only A-Z a-z 0-9 . _ - / + = , "
            "(it is passed to sbatch)\n");
    return 1;
  }
  if (fam->cols != NULL) {
    g_cols = fam->cols;
    g_ncols = 0;
    while (g_ncols < MAX_COLS && fam->cols[g_ncols] != NULL) {
      g_ncols++;
    }
  }
  uint32_t nax = 0, len[6] = {0};
  sweep_run_t *runs = NULL;
  uint32_t total = build_runs(fam, o, outdir, &runs, &nax, len);
  if (total == 0) {
    return 2;
  }
  if (o->task >= 0) {  // one Slurm array task
    return sweep_task_one(&base, runs, total, fam, o);
  }
  if (!o->report_only && !sweep_precheck(&base, runs)) {
    free(runs);
    return 1;
  }
  int mk = mkdir_p(outdir);
  if (mk != 0) {
    fprintf(stderr, "xtm-netsim: --out %s: %s\n", outdir,
            mk == 1 ? "exists and is not a directory" : strerror(errno));
    free(runs);
    return mk;
  }
  double t0 = now_s();
  if (o->slurm && !o->report_only) {
    int rc = slurm_submit(fam, o, outdir, total);
    if (rc != 0) {
      free(runs);
      return rc;
    }
    sweep_slurm_status(runs, total);
  } else if (!o->report_only) {
    if (sweep_run_local(&base, runs, total, fam, o, outdir, t0) != 0) {
      free(runs);
      return 2;
    }
  }
  // ---- report (the same for local, Slurm and --report-only)
  char p[1700], pr[1700];
  FILE *f = out_open(outdir, "report.md", pr, sizeof(pr));
  FILE *csv = out_open(outdir, "results.csv", p, sizeof(p));
  char pcsv[1700];
  snprintf(pcsv, sizeof(pcsv), "%s", p);
  if (f == NULL || csv == NULL) {
    fprintf(stderr, "xtm-netsim: %s\n", g_write_err);
    if (f) fclose(f);
    if (csv) fclose(csv);
    free(runs);
    return 2;
  }
  sweep_report_header(f, csv, fam, o, total, nax, t0);
  sweep_rep_t rp = {0};
  sweep_report_rows(f, csv, runs, total, nax, &rp);
  bool csv_ok = out_close(csv, pcsv);
  if (csv_ok) {
    sweep_plots(f, fam, o, outdir, total, nax, len, &rp);
    if (!sweep_ranges(f, fam, o, outdir, runs, total, nax, len)) {
      write_failed(pcsv);
    }
  }
  uint32_t failed = rp.failed, refused = rp.refused;
  out_close(f, pr);
  free(runs);
  errno = 0;
  if (g_write_err[0] != '\0') {
    fprintf(stderr, "xtm-netsim: %s; the sweep report is incomplete\n", g_write_err);
    return 2;
  }
  printf("report: %s/report.md (%u runs, %u failed, %u refused their input)\n", outdir, total,
         failed, refused);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "xtm-netsim: writing standard output: %s\n", strerror(errno));
    return 2;
  }
  return failed ? 2 : refused ? 1 : 0;
}

// ------------------------------------------------------------------ main

static void usage_to(FILE *o) {
  fprintf(o,
          "usage:\n"
          "  xtm-netsim run <scenario.ini> [--set key=value]... [--json] [--out DIR] [--no-plots]\n"
          "  xtm-netsim sweep <family> [--set key=value]... [--jobs N] [--out DIR] [--slurm]\n"
          "                   [--report-only]\n"
          "  xtm-netsim keys <scenario.ini>     list the keys and their defaults\n"
          "  xtm-netsim [run|sweep|keys] --help this text (sweep: the families)\n"
          "families:");
  for (size_t i = 0; i < sizeof(kFamilies) / sizeof(kFamilies[0]); i++) {
    fprintf(o, " %s", kFamilies[i].name);
  }
  fprintf(o,
          "\nexit status: 0 ok, 1 bad input (scenario, override, impossible set-up), "
          "2 failure (a run failed or an output was lost)\n");
}

static void usage(void) { usage_to(stderr); }

// `sweep --help`: the options and every family with its scenario and runs (docs/netsim.md 6)
static void sweep_usage(FILE *o) {
  fprintf(o,
          "usage: xtm-netsim sweep <family> [--set key=value]... [--jobs N] [--out DIR] "
          "[--slurm] [--report-only]\n"
          "  --set key=value  override a key of the family's scenario in every run (xtm-netsim "
          "keys <scenario.ini> lists them)\n"
          "  --jobs N         runs at a time, 1..1024 (default: the online cores)\n"
          "  --out DIR        output directory (default build/netsim/sweep-<family>)\n"
          "  --slurm          submit the runs as one Slurm job array (sbatch --wait)\n"
          "  --report-only    rewrite report.md and results.csv from the run directories\n"
          "families:\n");
  for (size_t i = 0; i < sizeof(kFamilies) / sizeof(kFamilies[0]); i++) {
    fprintf(o, "  %-22s %s: %s\n", kFamilies[i].name, kFamilies[i].scenario, kFamilies[i].note);
  }
  fprintf(o,
          "exit status: 0 ok, 1 bad input (family, override), 2 failure (a run failed or an "
          "output was lost)\n");
}

static bool is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

// --help (or -h) as the command or among its arguments (not as the value of --set, --out,
// --jobs, --task): the usage on standard output and the exit code; -1 when not asked for
static int help_asked(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      if (i > 1 && strcmp(argv[1], "sweep") == 0) {
        sweep_usage(stdout);
      } else {
        usage_to(stdout);
      }
      return fflush(stdout) != 0 || ferror(stdout) ? 2 : 0;
    }
    if (i > 1 && (strcmp(argv[i], "--set") == 0 || strcmp(argv[i], "--out") == 0 ||
                  strcmp(argv[i], "--jobs") == 0 || strcmp(argv[i], "--task") == 0)) {
      i++;
    }
  }
  return -1;
}

// Each option belongs to the commands of the usage text and is given once (--set once per
// key): an option the command does not use (`run --slurm` ran locally, `sweep --no-plots`
// drew the plots) or a repeated one (the last --out won) is refused, never dropped.
enum { kCmdRun = 1, kCmdSweep = 2, kCmdKeys = 4 };
static const struct {
  const char *name;
  unsigned cmds;
} kCliOpts[] = {
    {"--json", kCmdRun},          {"--no-plots", kCmdRun}, {"--out", kCmdRun | kCmdSweep},
    {"--report-only", kCmdSweep}, {"--slurm", kCmdSweep},  {"--jobs", kCmdSweep},
    {"--task", kCmdSweep}};
#define N_CLI_OPTS (sizeof(kCliOpts) / sizeof(kCliOpts[0]))

// the command line after the command and its target
typedef struct {
  const char *cmd, *target;
  unsigned this_cmd;  // kCmd*
  char *sets[MAX_SETS];
  int nsets;
  sweep_opts_t so;
  bool json, plots;
  const char *out;
  bool seen[N_CLI_OPTS];
} cli_t;

// one --set KEY=VALUE: 0, or the exit code after the message
static int cli_set(cli_t *c, const char *setv) {
  if (c->this_cmd == kCmdKeys) {
    fprintf(stderr, "xtm-netsim: --set is not an option of 'keys'\n");
    return 1;
  }
  if (c->nsets == MAX_SETS) {
    fprintf(stderr, "xtm-netsim: more than %d --set options\n", MAX_SETS);
    return 1;
  }
  const char *eq = strchr(setv, '=');
  size_t kl = eq != NULL ? (size_t)(eq - setv) : strlen(setv);
  for (int j = 0; j < c->nsets; j++) {
    if (strncmp(c->sets[j], setv, kl) == 0 && c->sets[j][kl] == '=' && eq != NULL) {
      char q[80], kq[64];
      snprintf(kq, sizeof(kq), "%.*s", (int)(kl < 63 ? kl : 63), setv);
      xtm_num_quote(q, sizeof(q), kq);
      fprintf(stderr, "xtm-netsim: --set given twice for '%s'\n", q);
      return 1;
    }
  }
  c->sets[c->nsets++] = (char *)setv;
  return 0;
}

// the option at argv[*i] (not --set; *i moves past its value): 0, or the exit code
static int cli_option(cli_t *c, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  xtm_num_msg_t msg;
  size_t k = 0;
  while (k < N_CLI_OPTS && strcmp(a, kCliOpts[k].name) != 0) {
    k++;
  }
  if (k == N_CLI_OPTS) {
    char q[80];
    xtm_num_quote(q, sizeof(q), a);
    fprintf(stderr, "xtm-netsim: unknown argument '%s'\n", q);
    usage();
    return 1;
  }
  if ((kCliOpts[k].cmds & c->this_cmd) == 0) {
    fprintf(stderr, "xtm-netsim: %s is not an option of '%s'\n", a, c->cmd);
    usage();
    return 1;
  }
  if (c->seen[k]) {
    fprintf(stderr, "xtm-netsim: option given twice '%s'\n", a);
    return 1;
  }
  c->seen[k] = true;
  if (strcmp(a, "--json") == 0) {
    c->json = true;
  } else if (strcmp(a, "--report-only") == 0) {
    c->so.report_only = true;
  } else if (strcmp(a, "--slurm") == 0) {
    c->so.slurm = true;
  } else if (strcmp(a, "--no-plots") == 0) {
    c->plots = false;
  } else if (strcmp(a, "--out") == 0 && *i + 1 < argc) {
    c->out = argv[++*i];
    if (c->out[0] == '\0') {
      fprintf(stderr, "xtm-netsim: --out needs a directory\n");
      return 1;
    }
  } else if ((strcmp(a, "--jobs") == 0 || strcmp(a, "--task") == 0) && *i + 1 < argc) {
    bool jobs = strcmp(a, "--jobs") == 0;
    uint64_t v = 0;
    if (xtm_num_u64(a, argv[*i + 1], jobs ? 1 : 0, jobs ? 1024 : 1000000, &v, &msg) != kXtmNumOk) {
      fprintf(stderr, "xtm-netsim: %s\n", msg.text);
      return 1;
    }
    ++*i;
    if (jobs) {
      c->so.jobs = (int)v;
    } else {
      c->so.task = (int64_t)v;
    }
  } else {
    fprintf(stderr, "xtm-netsim: %s needs a value\n", a);
    return 1;
  }
  return 0;
}

// argv[3..]: 0, or the exit code after the message
static int cli_parse(cli_t *c, int argc, char **argv) {
  for (int i = 3; i < argc; i++) {
    const char *setv = NULL;
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      setv = argv[++i];
    } else if (strncmp(argv[i], "--set=", 6) == 0) {
      setv = argv[i] + 6;
    } else if (strcmp(argv[i], "--set") == 0) {
      fprintf(stderr, "xtm-netsim: --set needs a value\n");
      return 1;
    }
    int rc = setv != NULL ? cli_set(c, setv) : cli_option(c, argc, argv, &i);
    if (rc != 0) {
      return rc;
    }
  }
  if (c->so.jobs < 1) {
    c->so.jobs = 1;
  }
  return 0;
}

// `keys`: every key of the scenario with its value and line
static int print_keys(const ns_scenario_t *sc) {
  for (uint32_t i = 0; i < sc->nkv; i++) {
    printf("%-16s %-24s (%s:%d)\n", sc->kv[i].key, sc->kv[i].val, sc->path, sc->kv[i].line);
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "xtm-netsim: writing standard output: %s\n", strerror(errno));
    return 2;
  }
  return 0;
}

// `run`: the scenario with the --set overrides, into --out or the default directory
static int run_cmd(cli_t *c, ns_scenario_t *sc) {
  char err[NS_ERR_LEN];
  for (int i = 0; i < c->nsets; i++) {
    if (!ns_scenario_set(sc, c->sets[i], err, sizeof(err))) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
  }
  char dir[1024];
  if (c->out != NULL) {
    if (snprintf(dir, sizeof(dir), "%s", c->out) >= (int)sizeof(dir)) {
      fprintf(stderr, "xtm-netsim: --out is longer than %zu characters\n", sizeof(dir) - 1);
      return 1;
    }
  } else {
    default_outdir(sc, dir, sizeof(dir));
  }
  return run_one(sc, dir, c->json, false, c->plots);
}

int main(int argc, char **argv) {
  int help = help_asked(argc, argv);
  if (help >= 0) {
    return help;
  }
  if (argc < 3) {
    usage();
    return 1;
  }
  cli_t c = {.cmd = argv[1],
             .target = argv[2],
             .so = {.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), .task = -1, .self = argv[0]},
             .plots = true};
  c.this_cmd = strcmp(c.cmd, "run") == 0     ? kCmdRun
               : strcmp(c.cmd, "sweep") == 0 ? kCmdSweep
               : strcmp(c.cmd, "keys") == 0  ? kCmdKeys
                                             : 0;
  if (c.this_cmd == 0) {
    usage();
    return 1;
  }
  int rc = cli_parse(&c, argc, argv);
  if (rc != 0) {
    return rc;
  }
  if (c.this_cmd == kCmdSweep) {
    c.so.sets = c.sets;
    c.so.nsets = c.nsets;
    c.so.out = c.out;
    return sweep(c.target, &c.so);
  }
  ns_scenario_t sc;
  char err[NS_ERR_LEN];
  if (!ns_scenario_load(c.target, &sc, err, sizeof(err))) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  return c.this_cmd == kCmdKeys ? print_keys(&sc) : run_cmd(&c, &sc);
}
