// SPDX-License-Identifier: Apache-2.0
//
// xtm-netsim command line: run one scenario, or sweep a family on all cores
// (docs/netsim.md section 6).

#define _POSIX_C_SOURCE 200809L

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/netsim/netsim.h"
#include "sim/netsim/scenario.h"

#ifndef NETSIM_VERSION
#define NETSIM_VERSION "unknown"
#endif

#define MAX_SETS 32
#define MAX_CSV_FLOWS 64

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int mkdir_p(const char *path) {
  char tmp[1024];
  snprintf(tmp, sizeof(tmp), "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      *p = '/';
    }
  }
  return (mkdir(tmp, 0777) != 0 && errno != EEXIST) ? -1 : 0;
}

// ------------------------------------------------------------------ one run

typedef struct run_ctx {
  ns_sim_t *s;
  ns_measure_t *m;
  FILE *csv;
  uint64_t last_ps;
  uint32_t ncsv;
  uint32_t nlinks_csv;
} run_ctx_t;

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
  l->sample_bytes = l->tx_bytes;
  c->last_ps = t;
  fprintf(c->csv, "%.3f,%" PRIu64 ",%.4f", (double)t * 1e-6, (uint64_t)v.occ_cells * r->cell_bytes,
          util);
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
    fprintf(c->csv, ",%.4f", dt > 0 ? (double)(k->tx_bytes - k->sample_bytes) * 8.0 / dt / 1e9 : 0.0);
    k->sample_bytes = k->tx_bytes;
  }
  fputc('\n', c->csv);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static cJSON *meta_json(const ns_scenario_t *sc, uint64_t seed) {
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
  cJSON_AddNumberToObject(meta, "seed", (double)seed);
  cJSON *u = cJSON_AddObjectToObject(meta, "units");
  cJSON_AddStringToObject(u, "*_gbps", "Gb/s of frame bytes (L2, without preamble and IFG)");
  cJSON_AddStringToObject(u, "*_us", "microseconds of simulated time");
  cJSON_AddStringToObject(u, "*_bytes", "bytes");
  cJSON_AddStringToObject(u, "peak_queue_rtt", "peak queue bytes / (bottleneck rate x base RTT)");
  cJSON_AddStringToObject(u, "counts", "events (packets, frames, CNPs) over the whole run");
  return meta;
}

static void stamp_line(FILE *f, const char *prefix, const ns_scenario_t *sc, uint64_t seed) {
  fprintf(f, "%sxtm-netsim %s; scenario %s (%s, family %s); seed %" PRIu64 "; overrides:", prefix,
          NETSIM_VERSION, sc->path, sc->name, sc->family, seed);
  int n = 0;
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (sc->kv[i].overridden) {
      fprintf(f, " %s=%s", sc->kv[i].key, sc->kv[i].val);
      n++;
    }
  }
  fprintf(f, "%s\n", n ? "" : " none");
}

static void write_plots(const char *dir, const ns_scenario_t *sc, uint64_t seed, uint32_t ncsv) {
  char p[1200];
  snprintf(p, sizeof(p), "%s/plots.gp", dir);
  FILE *g = fopen(p, "w");
  if (g == NULL) {
    return;
  }
  fprintf(g, "# ");
  stamp_line(g, "", sc, seed);
  char title[600];
  snprintf(title, sizeof(title), "%s seed %" PRIu64 " (xtm-netsim %s)", sc->name, seed,
           NETSIM_VERSION);
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (sc->kv[i].overridden) {
      size_t n = strlen(title);
      snprintf(title + n, sizeof(title) - n, " %s=%s", sc->kv[i].key, sc->kv[i].val);
    }
  }
  fprintf(g, "set terminal pngcairo size 1000,600 noenhanced\nset datafile separator ','\n"
             "set key outside right\nset grid\nset xlabel 'time (us)'\n");
  fprintf(g, "set output '%s/queue.png'\nset title \"%s\\nbottleneck RDMA queue\"\n"
             "set ylabel 'queue (bytes)'\nplot '%s/timeseries.csv' using 1:2 with lines title 'queue_bytes'\n",
          dir, title, dir);
  fprintf(g, "set output '%s/util.png'\nset title \"%s\\nbottleneck link utilisation\"\n"
             "set ylabel 'Gb/s'\nplot '%s/timeseries.csv' using 1:3 with lines title 'util_gbps'\n",
          dir, title, dir);
  if (ncsv > 0) {
    fprintf(g, "set output '%s/rates.png'\nset title \"%s\\nDCQCN current rate per QP\"\n"
               "set ylabel 'Mb/s'\nplot for [i=4:%u] '%s/timeseries.csv' using 1:i with lines "
               "title columnheader(i)\n", dir, title, 3 + ncsv, dir);
  }
  fclose(g);
  char cmd[2400];
  snprintf(cmd, sizeof(cmd), "gnuplot '%s/plots.gp' 2>'%s/gnuplot.log'", dir, dir);
  if (system(cmd) != 0) {
    fprintf(stderr, "xtm-netsim: gnuplot failed (see %s/gnuplot.log); CSV is complete\n", dir);
  }
}

static long peak_rss_kb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

// Runs one scenario; returns the process exit status (0 ok, 1 bad input, 2 failure).
static int run_one(ns_scenario_t *sc, const char *outdir, bool json, bool quiet, bool plots) {
  if (mkdir_p(outdir) != 0) {
    fprintf(stderr, "xtm-netsim: cannot create %s: %s\n", outdir, strerror(errno));
    return 2;
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
    return 1;
  }
  s.stop_when_done = strcmp(sc->family, "scale-across") != 0;
  s.lookahead_off = getenv("NETSIM_NO_LOOKAHEAD") != NULL;  // reference mode (docs/netsim.md 1)
  char p[1100];
  snprintf(p, sizeof(p), "%s/timeseries.csv", outdir);
  run_ctx_t rc = {.s = &s, .m = &m, .csv = fopen(p, "w")};
  rc.ncsv = s.nflows < MAX_CSV_FLOWS ? s.nflows : MAX_CSV_FLOWS;
  if (rc.csv != NULL && s.sample_ps > 0) {
    stamp_line(rc.csv, "# ", sc, m.seed);
    fprintf(rc.csv, "# every %.3f us; units: time_us = simulated us; queue_bytes = bottleneck RDMA "
                    "VOQ occupancy in bytes (cells x cell size); util_gbps = bottleneck link frame "
                    "Gb/s over the last interval; <flow>_rc_mbps = DCQCN current rate Rc (Mb/s); "
                    "<link>_gbps = that link's frame Gb/s over the last interval\n",
            (double)s.sample_ps * 1e-6);
    fprintf(rc.csv, "time_us,queue_bytes,util_gbps");
    for (uint32_t i = 0; i < rc.ncsv; i++) {
      fprintf(rc.csv, ",%s_rc_mbps", s.flows[i].name);
    }
    rc.nlinks_csv = s.nlinks < 64 ? s.nlinks : 64;
    for (uint32_t i = 0; i < rc.nlinks_csv; i++) {
      fprintf(rc.csv, ",%s_gbps", s.links[i].name);
    }
    fputc('\n', rc.csv);
    s.sample_fn = sample;
    s.sample_ctx = &rc;
  } else {
    s.sample_ps = 0;
  }
  double w0 = now_s();
  ns_run(&s, m.end_ps);
  double wall = now_s() - w0;
  uint64_t t_end = s.now_ps > m.end_ps ? m.end_ps : s.now_ps;
  if (s.stop_when_done == false || t_end == 0) {
    t_end = m.end_ps;
  }
  ns_finish(&s, t_end);
  if (rc.csv != NULL) {
    fclose(rc.csv);
  }
  // ---- KPIs
  double dur = (double)t_end * 1e-12;
  uint64_t tail = 0, lossless = 0, marks = 0, pauses = 0, other_drops = 0;
  for (uint32_t i = 0; i < s.nnodes; i++) {
    if (s.nodes[i].kind != kNsNodeRouter) {
      continue;
    }
    ns_router_t *r = &s.nodes[i].rt;
    tail += r->drops_by_reason[kXtmReasonTail] + r->drops_by_reason[kXtmReasonPool] +
            r->drops_by_reason[kXtmReasonBufFull] + r->drops_by_reason[kXtmReasonProfile];
    lossless += r->drops_by_reason[kXtmReasonHeadroom];
    for (uint32_t k = 0; k < kXtmReasonCount; k++) {
      if (k != kXtmReasonAccept && k != kXtmReasonTail && k != kXtmReasonPool &&
          k != kXtmReasonBufFull && k != kXtmReasonProfile && k != kXtmReasonHeadroom) {
        other_drops += r->drops_by_reason[k];
      }
    }
    const xtm_params_t *xp = xtm_params(r->m);
    for (uint32_t v = 0; v < xp->num_ports * xp->num_tcs; v++) {
      marks += xtm_voq_counter(r->m, v, kXtmVcntMarkTail) + xtm_voq_counter(r->m, v, kXtmVcntMarkHead) +
               xtm_voq_counter(r->m, v, kXtmVcntMarkLat);
    }
    pauses += r->pfc_tx_frames;
  }
  ns_router_t *br = &s.nodes[m.bottleneck_router].rt;
  ns_link_t *bl = &s.links[m.bottleneck_link];
  double util = dur > 0 ? (double)bl->tx_bytes * 8.0 / dur / 1e9 : 0;
  double bdp_bytes = (double)bl->rate_bps / 8.0 * m.rtt_us * 1e-6;
  uint64_t retx = 0, timeouts = 0, naks = 0, cnp_rx = 0, ce_rx = 0;
  // fairness over groups
  char gname[64][NS_NAME_LEN];
  double gput[64];
  uint32_t ng = 0;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddItemToObject(root, "meta", meta_json(sc, m.seed));
  cJSON *flows = cJSON_CreateArray();
  for (uint32_t i = 0; i < s.nflows; i++) {
    ns_flow_t *f = &s.flows[i];
    retx += f->retx_bytes;
    timeouts += f->timeouts;
    naks += f->naks_rx;
    cnp_rx += f->cnps_rx;
    double span = f->done ? (double)f->fct_ps * 1e-12
                          : (dur - (double)f->start_ps * 1e-12 > 0 ? dur - (double)f->start_ps * 1e-12 : dur);
    double gp = span > 0 ? (double)f->rx_bytes * 8.0 / span / 1e9 : 0;
    uint32_t g = 0;
    while (g < ng && strcmp(gname[g], f->group) != 0) {
      g++;
    }
    if (g == ng && ng < 64) {
      snprintf(gname[ng], NS_NAME_LEN, "%s", f->group);
      gput[ng++] = 0;
    }
    if (g < 64) {
      gput[g] += gp;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", f->name);
    cJSON_AddNumberToObject(o, "bytes", (double)f->rx_bytes);
    if (f->done) {
      cJSON_AddNumberToObject(o, "fct_us", (double)f->fct_ps * 1e-6);
    } else {
      cJSON_AddNullToObject(o, "fct_us");
    }
    cJSON_AddNumberToObject(o, "goodput_gbps", gp);
    cJSON_AddNumberToObject(o, "retransmitted_bytes", (double)f->retx_bytes);
    cJSON_AddNumberToObject(o, "timeouts", (double)f->timeouts);
    cJSON_AddNumberToObject(o, "cnps_received", (double)f->cnps_rx);
    if (f->record_latency && f->lat_n > 0) {
      qsort(f->lat_ps, f->lat_n, sizeof(uint64_t), cmp_u64);
      cJSON *l = cJSON_AddObjectToObject(o, "latency_us");
      static const struct { const char *n; double q; } kQ[] = {
          {"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}, {"max", 1.0}};
      for (size_t k = 0; k < sizeof(kQ) / sizeof(kQ[0]); k++) {
        size_t idx = (size_t)ceil(kQ[k].q * (double)f->lat_n);
        idx = idx == 0 ? 0 : idx - 1;
        cJSON_AddNumberToObject(l, kQ[k].n, (double)f->lat_ps[idx] * 1e-6);
      }
      cJSON_AddNumberToObject(l, "samples", f->lat_n);
    }
    cJSON_AddItemToArray(flows, o);
  }
  for (uint32_t i = 0; i < s.nnodes; i++) {
    if (s.nodes[i].kind == kNsNodeNic && s.nodes[i].nic.dc != NULL) {
      ce_rx += dcqcn_counter(s.nodes[i].nic.dc, kDcqcnGcntCeRx);
    }
  }
  double sum = 0, sq = 0;
  for (uint32_t g = 0; g < ng; g++) {
    sum += gput[g];
    sq += gput[g] * gput[g];
  }
  double jain = (ng > 0 && sq > 0) ? sum * sum / ((double)ng * sq) : 1.0;
  cJSON *sm = cJSON_CreateObject();
  cJSON_AddNumberToObject(sm, "duration_s", dur);
  cJSON_AddStringToObject(sm, "bottleneck", bl->name);
  cJSON_AddNumberToObject(sm, "bottleneck_util_gbps", util);
  cJSON_AddNumberToObject(sm, "tail_drops", (double)tail);
  cJSON_AddNumberToObject(sm, "lossless_drops", (double)lossless);
  cJSON_AddNumberToObject(sm, "other_drops", (double)other_drops);
  cJSON *dr = cJSON_AddObjectToObject(sm, "drops_by_reason");
  for (uint32_t i = 0; i < s.nnodes; i++) {
    if (s.nodes[i].kind != kNsNodeRouter) {
      continue;
    }
    for (uint32_t k = 1; k < kXtmReasonCount; k++) {
      uint64_t v = s.nodes[i].rt.drops_by_reason[k];
      if (v > 0) {
        char nm[96];
        snprintf(nm, sizeof(nm), "%s.%s", s.nodes[i].name, xtm_reason_name((xtm_reason_t)k));
        cJSON_AddNumberToObject(dr, nm, (double)v);
      }
    }
  }
  cJSON_AddNumberToObject(sm, "ecn_marks", (double)marks);
  cJSON_AddNumberToObject(sm, "ce_received", (double)ce_rx);
  cJSON_AddNumberToObject(sm, "cnps_sent", (double)s.cnps_sent);
  cJSON_AddNumberToObject(sm, "cnps_handled", (double)cnp_rx);
  cJSON_AddNumberToObject(sm, "pause_frames", (double)pauses);
  cJSON_AddNumberToObject(sm, "peak_queue_bytes", (double)br->watch_peak_bytes);
  cJSON_AddNumberToObject(sm, "peak_queue_rtt", bdp_bytes > 0 ? (double)br->watch_peak_bytes / bdp_bytes : 0);
  cJSON_AddNumberToObject(sm, "base_rtt_us", m.rtt_us);
  cJSON_AddNumberToObject(sm, "retransmitted_bytes", (double)retx);
  cJSON_AddNumberToObject(sm, "timeouts", (double)timeouts);
  cJSON_AddNumberToObject(sm, "naks", (double)naks);
  cJSON_AddNumberToObject(sm, "out_of_order_discards", (double)s.ooo_discards);
  cJSON_AddNumberToObject(sm, "jain_fairness", jain);
  cJSON_AddNumberToObject(sm, "fairness_groups", ng);
  if (m.victim_flow != UINT32_MAX) {
    ns_flow_t *v = &s.flows[m.victim_flow];
    cJSON_AddStringToObject(sm, "victim", v->name);
    if (v->done) {
      cJSON_AddNumberToObject(sm, "victim_fct_us", (double)v->fct_ps * 1e-6);
    } else {
      cJSON_AddNullToObject(sm, "victim_fct_us");
    }
  }
  cJSON_AddItemToObject(root, "summary", sm);
  cJSON_AddItemToObject(root, "flows", flows);
  cJSON *links = cJSON_CreateArray();
  for (uint32_t i = 0; i < s.nlinks; i++) {
    ns_link_t *l = &s.links[i];
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
  cJSON_AddNumberToObject(pf, "events", (double)s.events);
  cJSON_AddNumberToObject(pf, "packet_hops", (double)s.pkt_hops);
  static const char *const kEv[] = {"link", "nic", "router", "pfc", "rto", "sample"};
  cJSON *evj = cJSON_AddObjectToObject(pf, "events_by_type");
  for (int k = 0; k < 6; k++) {
    cJSON_AddNumberToObject(evj, kEv[k], (double)s.ev_by_type[k]);
  }
  cJSON_AddNumberToObject(evj, "stale_wakes", (double)s.ev_stale);
  cJSON_AddNumberToObject(pf, "packet_hops_per_wall_s", wall > 0 ? (double)s.pkt_hops / wall : 0);
  cJSON_AddNumberToObject(pf, "peak_rss_mib", (double)peak_rss_kb() / 1024.0);
  cJSON_AddNumberToObject(pf, "pool_peak_packets", s.pool_peak);
  cJSON_AddNumberToObject(pf, "pool_grows", (double)s.pool_grows);
  char *txt = cJSON_Print(root);
  snprintf(p, sizeof(p), "%s/summary.json", outdir);
  FILE *jf = fopen(p, "w");
  if (jf != NULL && txt != NULL) {
    fputs(txt, jf);
    fputc('\n', jf);
    fclose(jf);
  }
  if (json && txt != NULL) {
    puts(txt);
  } else if (!quiet) {
    stamp_line(stdout, "", sc, m.seed);
    printf("simulated %.6f s in %.2f s wall (%.3f simulated s per wall s), %" PRIu64
           " packet-hops, peak RSS %.0f MiB\n", dur, wall, wall > 0 ? dur / wall : 0, s.pkt_hops,
           (double)peak_rss_kb() / 1024.0);
    printf("bottleneck %s: %.3f Gb/s\n", bl->name, util);
    printf("tail_drops %" PRIu64 "  lossless_drops %" PRIu64 "  ecn_marks %" PRIu64 "  ce_received %" PRIu64
           "  cnps_sent %" PRIu64 "  cnps_handled %" PRIu64 "  pause_frames %" PRIu64 "\n", tail, lossless,
           marks, ce_rx, s.cnps_sent, cnp_rx, pauses);
    cJSON *drp = cJSON_GetObjectItem(sm, "drops_by_reason");
    if (drp != NULL && drp->child != NULL) {
      printf("drops by router.reason:");
      for (cJSON *d = drp->child; d != NULL; d = d->next) {
        printf(" %s=%.0f", d->string, d->valuedouble);
      }
      printf("\n");
    }
    printf("peak_queue %" PRIu64 " bytes = %.3f RTT (base RTT %.1f us)  retransmitted %" PRIu64
           " bytes  timeouts %" PRIu64 "  jain %.4f over %u groups\n", br->watch_peak_bytes,
           bdp_bytes > 0 ? (double)br->watch_peak_bytes / bdp_bytes : 0, m.rtt_us, retx, timeouts,
           jain, ng);
    if (m.victim_flow != UINT32_MAX) {
      ns_flow_t *v = &s.flows[m.victim_flow];
      if (v->done) {
        printf("victim %s: fct %.3f us\n", v->name, (double)v->fct_ps * 1e-6);
      } else {
        printf("victim %s: not complete at %.3f us\n", v->name, (double)t_end * 1e-6);
      }
    }
    printf("%-40s %14s %10s %10s %10s\n", "flow", "bytes", "fct_us", "Gb/s", "retx_B");
    for (uint32_t i = 0; i < s.nflows && i < 40; i++) {
      ns_flow_t *f = &s.flows[i];
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
               cJSON_GetObjectItem(lat, "p50")->valuedouble, cJSON_GetObjectItem(lat, "p99")->valuedouble,
               cJSON_GetObjectItem(lat, "p999")->valuedouble, cJSON_GetObjectItem(lat, "max")->valuedouble,
               cJSON_GetObjectItem(lat, "samples")->valueint);
      }
    }
    printf("%-48s %10s %10s %12s\n", "link", "Gb/s", "PFC_rx", "paused_us");
    for (uint32_t i = 0; i < s.nlinks; i++) {
      ns_link_t *l = &s.links[i];
      printf("%-48s %10.3f %10" PRIu64 " %12.3f\n", l->name,
             dur > 0 ? (double)l->tx_bytes * 8.0 / dur / 1e9 : 0, l->pfc_rx_frames,
             (double)l->paused_ps * 1e-6);
    }
    printf("outputs: %s/{summary.json,timeseries.csv,*.png,*.conf}\n", outdir);
  }
  cJSON_free(txt);
  cJSON_Delete(root);
  if (plots && s.sample_ps > 0) {
    write_plots(outdir, sc, m.seed, rc.ncsv);
  }
  ns_sim_free(&s);
  return 0;
}

static void default_outdir(const ns_scenario_t *sc, char *out, size_t n) {
  snprintf(out, n, "build/netsim/%s", sc->name);
  for (uint32_t i = 0; i < sc->nkv; i++) {
    if (sc->kv[i].overridden) {
      size_t k = strlen(out);
      snprintf(out + k, n - k, "_%s=%s", sc->kv[i].key, sc->kv[i].val);
    }
  }
  for (char *p = out + strlen("build/netsim/"); *p; p++) {
    if (*p == '/' || *p == ' ') {
      *p = '-';
    }
  }
}

// ------------------------------------------------------------------ sweep

typedef struct axis {
  const char *key;
  const char *vals[16];
} axis_t;

typedef struct family {
  const char *name;
  const char *scenario;
  const char *fixed[8];  // key=value applied to every run
  axis_t ax[6];
  const char *note;
} family_t;

static const family_t kFamilies[] = {
    {"scale-across", "sim/scenarios/scale-across.ini", {"profile=final"},
     {{"load_bdp", {"0.5", "1.0"}}, {"distance_km", {"50", "100", "200", "300", "400", "500"}}},
     "six distances x the two load profiles (0.5 BDP per client = \"2:1\", 1.0 = \"4:1\"), final "
     "buffer/ECN profile"},
    {"grid", "sim/scenarios/scale-across.ini", {"profile=custom", "buffer_rtt=2.5", "kmax_rtt=1.5"},
     {{"distance_km", {"50", "100", "200", "300", "400", "500"}},
      {"clients", {"2", "4"}},
      {"load_bdp", {"0.5", "1.0", "1.5", "2.0"}},
      {"kmin_rtt", {"0.25", "0.75", "1.25"}}},
     "grid test (reduced: Kmin 10/30/50 % of a 2.5 RTT buffer, Kmax fixed at 1.5 RTT, one repeat)"},
    {"buffer-sweep", "sim/scenarios/scale-across.ini",
     {"profile=custom", "distance_km=200", "clients=4", "load_bdp=1.0", "kmax_rtt=1.0"},
     {{"buffer_rtt", {"1.25", "1.5", "1.75", "2.0", "2.25", "2.5", "2.75"}},
      {"kmin_rtt", {"0.25", "0.375", "0.5"}}},
     "buffer sweep at 200 km, 4 clients at 1 BDP"},
    {"deep-buffer-sweep", "sim/scenarios/deep-buffer-sweep.ini", {NULL},
     {{"distance_km", {"10", "30", "100"}},
      {"buffer_bdp", {"3", "1", "0.3", "0.1", "0.03", "0.005"}},
      {"message_mb", {"50", "500"}}},
     "2:1 long haul, DCQCN on"},
    {"pfc-victim", "sim/scenarios/pfc-victim.ini", {NULL},
     {{"run", {"alone", "big-buffer", "pfc", "other-priority"}}},
     "the four runs"},
    {"pfc-victim-buffers", "sim/scenarios/pfc-victim.ini", {"run=pfc"},
     {{"buffer_mib", {"1", "2", "4", "8"}}, {"dcqcn", {"on", "off"}}},
     "PAUSE counts for 1, 2, 4, 8 MiB with DCQCN on and off"},
    {"pfc-victim-senders", "sim/scenarios/pfc-victim.ini", {"run=pfc"},
     {{"extra_senders", {"0", "1", "2", "3", "4", "5", "6", "7", "8"}}},
     "victim throughput against the number of senders on B"},
    {"roce-lab", "sim/scenarios/roce-lab.ini", {NULL},
     {{"phase", {"unloaded", "congested", "recovered"}}},
     "the three phases"},
};

typedef struct sweep_run {
  char sets[MAX_SETS][NS_KEY_LEN + NS_VAL_LEN];
  uint32_t nsets;
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
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  cJSON *j = NULL;
  if (t != NULL && fread(t, 1, (size_t)n, f) == (size_t)n) {
    t[n] = '\0';
    j = cJSON_Parse(t);
  }
  free(t);
  fclose(f);
  return j;
}

static double jnum(cJSON *o, const char *k) {
  cJSON *v = cJSON_GetObjectItem(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static bool g_report_only;  // sweep --report-only: rewrite the report from existing runs

static int sweep(const char *fam_name, char **sets, int nsets, int jobs, const char *outdir_arg) {
  const family_t *fam = NULL;
  for (size_t i = 0; i < sizeof(kFamilies) / sizeof(kFamilies[0]); i++) {
    if (strcmp(kFamilies[i].name, fam_name) == 0) {
      fam = &kFamilies[i];
    }
  }
  if (fam == NULL) {
    fprintf(stderr, "xtm-netsim sweep: unknown family '%s'; families:", fam_name);
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
  // validate the user's overrides once, before forking anything
  ns_scenario_t chk = base;
  for (int i = 0; i < nsets; i++) {
    if (!ns_scenario_set(&chk, sets[i], err, sizeof(err))) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
  }
  uint32_t nax = 0, total = 1, len[6];
  while (nax < 6 && fam->ax[nax].key != NULL) {
    len[nax] = 0;
    while (len[nax] < 16 && fam->ax[nax].vals[len[nax]] != NULL) {
      len[nax]++;
    }
    total *= len[nax];
    nax++;
  }
  char outdir[900];
  if (outdir_arg != NULL) {
    snprintf(outdir, sizeof(outdir), "%s", outdir_arg);
  } else {
    snprintf(outdir, sizeof(outdir), "build/netsim/sweep-%s", fam->name);
  }
  if (mkdir_p(outdir) != 0) {
    fprintf(stderr, "xtm-netsim: cannot create %s\n", outdir);
    return 2;
  }
  sweep_run_t *runs = calloc(total, sizeof(*runs));
  if (runs == NULL) {
    return 2;
  }
  for (uint32_t r = 0; r < total; r++) {
    uint32_t idx = r;
    sweep_run_t *x = &runs[r];
    for (int i = 0; i < 8 && fam->fixed[i] != NULL; i++) {
      snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", fam->fixed[i]);
    }
    for (int i = 0; i < nsets; i++) {
      snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s", sets[i]);
    }
    char tag[512] = "";
    for (int a = (int)nax - 1; a >= 0; a--) {
      uint32_t v = idx % len[a];
      idx /= len[a];
      snprintf(x->sets[x->nsets++], sizeof(x->sets[0]), "%s=%s", fam->ax[a].key, fam->ax[a].vals[v]);
    }
    for (uint32_t a = 0; a < nax; a++) {
      size_t k = strlen(tag);
      const char *kv = x->sets[x->nsets - 1 - (nax - 1 - a)];
      snprintf(tag + k, sizeof(tag) - k, "%s%s", a ? "_" : "", kv);
    }
    snprintf(x->dir, sizeof(x->dir), "%s/%s", outdir, tag);
  }
  fprintf(stderr, "xtm-netsim sweep %s: %u runs on %d parallel jobs -> %s\n", fam->name, total, jobs,
          outdir);
  double t0 = now_s();
  uint32_t next = 0, done = 0, running = 0;
  pid_t *pids = calloc(total, sizeof(pid_t));
  progress(0, total, t0);
  if (g_report_only) {
    done = total;  // every run's directory is already there
  }
  while (done < total) {
    while (running < (uint32_t)jobs && next < total) {
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
        char old[1700];
        snprintf(old, sizeof(old), "%s/summary.json", runs[next].dir);
        (void)remove(old);  // a failed run must not leave an earlier result behind
        ns_scenario_t sc = base;
        for (uint32_t i = 0; i < runs[next].nsets; i++) {
          if (!ns_scenario_set(&sc, runs[next].sets[i], err, sizeof(err))) {
            fprintf(stderr, "\n%s\n", err);
            _exit(1);
          }
        }
        if (freopen("/dev/null", "w", stdout) == NULL) {
          _exit(2);
        }
        _exit(run_one(&sc, runs[next].dir, false, true, true));
      }
      if (pid < 0) {
        fprintf(stderr, "xtm-netsim: fork failed\n");
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
  // ---- report
  char p[1700];
  snprintf(p, sizeof(p), "%s/report.md", outdir);
  FILE *f = fopen(p, "w");
  snprintf(p, sizeof(p), "%s/results.csv", outdir);
  FILE *csv = fopen(p, "w");
  if (f == NULL || csv == NULL) {
    return 2;
  }
  fprintf(f, "# xtm-netsim sweep: %s\n\n", fam->name);
  fprintf(f, "%s. Scenario `%s`; version %s; %u runs; %.1f s wall on %d jobs. Fixed overrides:",
          fam->note, fam->scenario, NETSIM_VERSION, total, now_s() - t0, jobs);
  for (int i = 0; i < 8 && fam->fixed[i] != NULL; i++) {
    fprintf(f, " `%s`", fam->fixed[i]);
  }
  for (int i = 0; i < nsets; i++) {
    fprintf(f, " `%s`", sets[i]);
  }
  fprintf(f, ". Every run's directory holds its summary.json (stamped with scenario, overrides, "
             "seed and version), time series and plots. Units: Gb/s of frame bytes; queue in "
             "bytes and in units of the base RTT x bottleneck rate; times in us.\n\n");
  fprintf(csv, "# xtm-netsim %s sweep %s; units as in report.md\n", NETSIM_VERSION, fam->name);
  fprintf(f, "|");
  for (uint32_t a = 0; a < nax; a++) {
    fprintf(f, " %s |", fam->ax[a].key);
    fprintf(csv, "%s,", fam->ax[a].key);
  }
  static const char *const kCols[] = {"bottleneck_util_gbps", "tail_drops", "lossless_drops",
                                      "ecn_marks", "cnps_sent", "pause_frames", "peak_queue_rtt",
                                      "retransmitted_bytes", "jain_fairness", "victim_fct_us"};
  for (size_t k = 0; k < sizeof(kCols) / sizeof(kCols[0]); k++) {
    fprintf(f, " %s |", kCols[k]);
    fprintf(csv, "%s%s", kCols[k], k + 1 < sizeof(kCols) / sizeof(kCols[0]) ? "," : "\n");
  }
  fprintf(f, "\n|");
  for (size_t k = 0; k < nax + sizeof(kCols) / sizeof(kCols[0]); k++) {
    fprintf(f, "---|");
  }
  fprintf(f, "\n");
  uint32_t failed = 0;
  bool has_col[16] = {false};
  for (uint32_t r = 0; r < total; r++) {
    snprintf(p, sizeof(p), "%s/summary.json", runs[r].dir);
    cJSON *j = runs[r].status == 0 ? load_json(p) : NULL;
    cJSON *sm = j ? cJSON_GetObjectItem(j, "summary") : NULL;
    fprintf(f, "|");
    for (uint32_t a = 0; a < nax; a++) {
      const char *kv = runs[r].sets[runs[r].nsets - nax + (nax - 1 - a)];
      fprintf(f, " %s |", strchr(kv, '=') + 1);
      fprintf(csv, "%s,", strchr(kv, '=') + 1);
    }
    if (sm == NULL) {
      failed++;
      fprintf(f, " run failed (exit %d) |\n", runs[r].status);
      fprintf(csv, "failed\n");
      cJSON_Delete(j);
      continue;
    }
    for (size_t k = 0; k < sizeof(kCols) / sizeof(kCols[0]); k++) {
      double v = jnum(sm, kCols[k]);
      if (isnan(v)) {
        fprintf(f, " - |");
        fprintf(csv, "%s", k + 1 < sizeof(kCols) / sizeof(kCols[0]) ? "," : "\n");
      } else {
        has_col[k] = true;
        fprintf(f, " %.4g |", v);
        fprintf(csv, "%.6g%s", v, k + 1 < sizeof(kCols) / sizeof(kCols[0]) ? "," : "\n");
      }
    }
    fprintf(f, "\n");
    cJSON_Delete(j);
  }
  fclose(csv);
  // plots: the KPIs against the last axis, one line per value of the first axis
  if (nax >= 1) {
    snprintf(p, sizeof(p), "%s/report.gp", outdir);
    FILE *g = fopen(p, "w");
    if (g != NULL) {
      uint32_t xa = nax - 1;
      int xcol = (int)xa + 1;
      fprintf(g, "set terminal pngcairo size 900,550 noenhanced\nset datafile separator ','\n"
                 "set grid\nset key outside right\nset xlabel '%s'\n", fam->ax[xa].key);
      static const struct { const char *k; int col; const char *y; } kPl[] = {
          {"util", 1, "bottleneck utilisation (Gb/s)"},
          {"peakq", 7, "peak queue (RTT)"},
          {"cnps", 5, "CNPs sent"},
          {"pauses", 6, "PAUSE frames"},
          {"victim", 10, "victim FCT (us)"}};
      bool drawn[8] = {false};
      for (size_t k = 0; k < sizeof(kPl) / sizeof(kPl[0]); k++) {
        if (!has_col[kPl[k].col - 1]) {
          continue;  // no run has this KPI (e.g. no victim flow)
        }
        drawn[k] = true;
        fprintf(g, "set output '%s/%s.png'\nset ylabel '%s'\nset title \"%s (xtm-netsim %s)\"\n",
                outdir, kPl[k].k, kPl[k].y, fam->name, NETSIM_VERSION);
        if (nax >= 2) {
          fprintf(g, "plot");
          for (uint32_t v = 0; v < len[0]; v++) {
            fprintf(g, "%s '%s/results.csv' using (strcol(1) eq '%s' ? $%d : NaN):%d with "
                       "linespoints title '%s=%s'", v ? "," : "", outdir, fam->ax[0].vals[v], xcol,
                    (int)nax + kPl[k].col, fam->ax[0].key, fam->ax[0].vals[v]);
          }
          fprintf(g, "\n");
        } else {
          fprintf(g, "set style data histogram\nset style fill solid\nplot '%s/results.csv' "
                     "using %d:xtic(1) title '%s'\n", outdir, (int)nax + kPl[k].col, kPl[k].y);
        }
      }
      fclose(g);
      char cmd[2000];
      snprintf(cmd, sizeof(cmd), "gnuplot '%s/report.gp' 2>'%s/gnuplot.log'", outdir, outdir);
      if (system(cmd) == 0) {
        fprintf(f, "\n## Plots\n\n");
        for (size_t k = 0; k < sizeof(kPl) / sizeof(kPl[0]); k++) {
          if (drawn[k]) {
            fprintf(f, "![%s](%s.png)\n\n", kPl[k].y, kPl[k].k);
          }
        }
      } else {
        fprintf(f, "\n(gnuplot failed: see gnuplot.log)\n");
      }
    }
  }
  fclose(f);
  printf("report: %s/report.md (%u runs, %u failed)\n", outdir, total, failed);
  free(runs);
  free(pids);
  return failed ? 2 : 0;
}

// ------------------------------------------------------------------ main

static void usage(void) {
  fprintf(stderr,
          "usage:\n"
          "  xtm-netsim run <scenario.ini> [--set key=value]... [--json] [--out DIR] [--no-plots]\n"
          "  xtm-netsim sweep <family> [--set key=value]... [--jobs N] [--out DIR] [--report-only]\n"
          "  xtm-netsim keys <scenario.ini>     list the keys and their defaults\n"
          "families: scale-across grid buffer-sweep deep-buffer-sweep pfc-victim\n"
          "          pfc-victim-buffers pfc-victim-senders roce-lab\n"
          "exit status: 0 ok, 1 bad input (scenario, override, impossible set-up), 2 failure\n");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    usage();
    return 1;
  }
  const char *cmd = argv[1], *target = argv[2];
  char *sets[MAX_SETS];
  int nsets = 0, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
  bool json = false, plots = true;
  const char *out = NULL;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc && nsets < MAX_SETS) {
      sets[nsets++] = argv[++i];
    } else if (strncmp(argv[i], "--set=", 6) == 0 && nsets < MAX_SETS) {
      sets[nsets++] = argv[i] + 6;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (strcmp(argv[i], "--report-only") == 0) {
      g_report_only = true;
    } else if (strcmp(argv[i], "--no-plots") == 0) {
      plots = false;
    } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
      jobs = atoi(argv[++i]);
      if (jobs < 1) {
        fprintf(stderr, "xtm-netsim: --jobs must be >= 1\n");
        return 1;
      }
    } else {
      fprintf(stderr, "xtm-netsim: unknown argument '%s'\n", argv[i]);
      usage();
      return 1;
    }
  }
  if (jobs < 1) {
    jobs = 1;
  }
  if (strcmp(cmd, "sweep") == 0) {
    return sweep(target, sets, nsets, jobs, out);
  }
  if (strcmp(cmd, "run") != 0 && strcmp(cmd, "keys") != 0) {
    usage();
    return 1;
  }
  ns_scenario_t sc;
  char err[NS_ERR_LEN];
  if (!ns_scenario_load(target, &sc, err, sizeof(err))) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (strcmp(cmd, "keys") == 0) {
    for (uint32_t i = 0; i < sc.nkv; i++) {
      printf("%-16s %-24s (%s:%d)\n", sc.kv[i].key, sc.kv[i].val, sc.path, sc.kv[i].line);
    }
    return 0;
  }
  for (int i = 0; i < nsets; i++) {
    if (!ns_scenario_set(&sc, sets[i], err, sizeof(err))) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
  }
  char dir[1024];
  if (out != NULL) {
    snprintf(dir, sizeof(dir), "%s", out);
  } else {
    default_outdir(&sc, dir, sizeof(dir));
  }
  return run_one(&sc, dir, json, false, plots);
}
