// SPDX-License-Identifier: Apache-2.0
//
// xtmctl: compile a Junos class-of-service configuration for the xtm traffic manager and
// show, apply or exercise it (docs/firmware.md section 6).
//   xtmctl plan  <conf> [--json] [--clock-hz N]
//   xtmctl apply <conf> [--trace FILE] [--dump FILE] [--clock-hz N]
//   xtmctl stats <conf> [--us N] [--clock-hz N]
// Model options (any command): --num-desc N (the C model's descriptor pool, HW_NUM_DESC;
// default 65536), --apb (each access an 8-cycle APB transfer of spec 10.1, as the co-simulation's
// APB master: `make fw-cosim-eq` compares the two, docs/firmware.md section 8),
// --port-speed G (Gb/s of a port whose speed the configuration does not give).
// Exit status: 0 success, 1 configuration errors (nothing programmed), 2 usage or
// bring-up failure.

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/xtm/xtm.h"
#include "firmware/cos/xtm_cos.h"
#include "firmware/dcqcn_fw.h"
#include "firmware/host/xtm_fw_host.h"
#include "firmware/xtm_fw.h"
#include "tools/lib/xtm_num.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.
#include "rtl/xtm/autogen/xtm_regs.h"      // Generated.

static void usage(void) {
  fprintf(stderr,
          "usage: xtmctl plan <conf> [--json] [--clock-hz N]\n"
          "       xtmctl apply <conf> [--trace FILE] [--dump FILE] [--clock-hz N]\n"
          "       xtmctl stats <conf> [--us N] [--clock-hz N]\n"
          "       model options: [--num-desc N] [--apb] [--port-speed GBPS]\n");
}

static void pct(char *b, size_t n, uint32_t milli) {
  if (milli % 1000u == 0u) {
    snprintf(b, n, "%u", milli / 1000u);
  } else {
    snprintf(b, n, "%u.%03u", milli / 1000u, milli % 1000u);
  }
}

static void print_text(const xtm_cos_result_t *r) {
  printf("xtm plan: %u ports x %u TCs, %u B cells, clock %" PRIu64 " Hz, pool %u cells\n\n",
         r->hw.num_ports, r->hw.num_tcs, r->hw.cell_bytes, r->clock_hz, r->cfg.pool_cells);
  printf("port map (model port = %s):\n", r->port_rule);
  for (uint32_t i = 0; i < r->nports; i++) {
    const xtm_cos_port_plan_t *p = &r->ports[i];
    char line[32] = "";
    if (p->speed_line > 0) {
      snprintf(line, sizeof(line), ", line %d", p->speed_line);
    }
    printf("  port %-3u %-16s %6" PRIu64 " Gb/s  (%s%s)", p->port, p->name,
           p->speed_bps / 1000000000u, p->speed_src, line);
    if (p->lag[0] != '\0') {
      printf("  member of %s", p->lag);
    }
    if (strcmp(p->cos_iface, p->name) != 0 && strcmp(p->cos_iface, p->lag) != 0) {
      printf("  class-of-service from '%s'", p->cos_iface);
    }
    printf("\n");
  }
  printf("\n");
  for (uint32_t i = 0; i < r->nqueues; i++) {
    const xtm_cos_queue_plan_t *q = &r->q[i];
    printf("queue %s %s (port %u queue %u, VOQ %u), scheduler %s\n", q->iface, q->fclass, q->port,
           q->queue, q->voq, q->scheduler);
    printf("  target rate     %" PRIu64 " b/s (%s; Q8.16 0x%06x)\n", q->target_rate_bps,
           q->target_rule, q->target_rate_q16);
    printf("  buffer limit    %" PRIu64 " bytes = %u cells", q->limit_bytes, q->limit_cells);
    if (q->temporal_ns != 0) {
      printf(" (temporal %" PRIu64 ".%03" PRIu64 " us)", q->temporal_ns / 1000u,
             q->temporal_ns % 1000u);
    }
    printf("\n  profile         %s%s\n", q->npoints ? q->profile : "(none)",
           q->npoints ? (q->interp ? " (interpolated)" : " (segmented)") : "");
    printf("    %8s %14s %10s %10s %10s\n", "fill %", "bytes", "hw cells", "prob %", "prob Q0.16");
    for (uint32_t p = 0; p < q->npoints; p++) {
      char f[16], pr[16];
      pct(f, sizeof(f), q->points[p].fill_milli);
      pct(pr, sizeof(pr), q->points[p].prob_milli);
      printf("    %8s %14" PRIu64 " %10u %10s %10u\n", f, q->points[p].bytes, q->points[p].hw_cells,
             pr, q->points[p].prob_q16);
    }
    printf("  marking         %s%s, no-loss %s, %s\n", q->mark, q->ecn ? " (ECN)" : "",
           q->no_loss ? "yes" : "no", q->strict ? "strict-high" : "DWRR");
    if (q->pfc_prio >= 0) {
      if (q->pfc_known) {
        printf("  PFC priority %d  xoff %" PRIu64 " bytes, xon %" PRIu64 " bytes, headroom %" PRIu64
               " bytes (per ingress port)\n",
               q->pfc_prio, q->xoff_bytes, q->xon_bytes, q->hdrm_bytes);
      } else {
        printf("  PFC priority %d  (no ingress port has a congestion-notification-profile)\n",
               q->pfc_prio);
      }
    }
    printf("\n");
  }
  if (r->npgs > 0) {
    printf("%-14s %4s %4s %12s %12s %9s %9s %8s %6s %10s %8s\n", "ingress", "port", "prio",
           "xoff bytes", "xon bytes", "xoff cel", "xon cel", "cable m", "mtu", "hdrm bytes",
           "hdrm cel");
    for (uint32_t i = 0; i < r->npgs; i++) {
      const xtm_cos_pg_plan_t *g = &r->pg[i];
      printf("%-14s %4u %4u %12" PRIu64 " %12" PRIu64 " %9u %9u %8u %6u %10" PRIu64 " %8u\n",
             g->iface, g->port, g->prio, g->xoff_bytes, g->xon_bytes, g->xoff_cells, g->xon_cells,
             g->cable_m, g->mtu, g->hdrm_bytes, g->hdrm_cells);
    }
  }
  if (r->npols > 0) {
    printf(
        "\ningress policers (spec 4.7; POL_SEL = port x 8 + index; P_POL_MAP sends each TC to "
        "one):\n");
    printf("%-14s %4s %5s %-20s %14s %9s %11s %-16s %s\n", "ingress", "port", "index", "policer",
           "rate b/s", "Q8.16", "burst bytes", "TCs", "from");
    for (uint32_t i = 0; i < r->npols; i++) {
      const xtm_cos_pol_plan_t *p = &r->pol[i];
      char tcs[24] = "";
      size_t o = 0;
      for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
        if ((p->tcs >> t & 1u) != 0u) {
          o += (size_t)snprintf(tcs + o, sizeof(tcs) - o, "%s%u", o ? "," : "", t);
        }
      }
      printf("%-14s %4u %5u %-20s %14" PRIu64 " 0x%06x %11u %-16s %s\n", p->iface, p->port,
             p->index, p->policer, p->rate_bps, p->rate_q16, p->burst_bytes, tcs, p->source);
    }
  }
  if (r->cfg.dcqcn.valid) {
    printf("\nDCQCN (NIC block, mlxconfig names):");
    for (int p = 0; p < kXtmFwDcqcnCount; p++) {
      if (r->cfg.dcqcn.set[p]) {
        printf(" %s=%u", xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)p)->name, r->cfg.dcqcn.value[p]);
      }
    }
    printf("\n");
  }
}

// A JSON string (RFC 8259 section 7): quote and backslash escaped, every control character
// as \u00XX, and bytes above 0x7E as \u00XX too, so the output is valid JSON (ASCII) for
// any name (the compiler only lets printable ASCII names through; this does not rely on it).
static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char b = (unsigned char)*s;
    if (b == '"' || b == '\\') {
      putchar('\\');
      putchar(b);
    } else if (b < 0x20u || b > 0x7eu) {
      printf("\\u%04x", (unsigned)b);
    } else {
      putchar(b);
    }
  }
  putchar('"');
}

static void json_pct(uint32_t milli) {
  char b[16];
  pct(b, sizeof(b), milli);
  fputs(b, stdout);
}

static void print_json(const xtm_cos_result_t *r) {
  printf(
      "{\n  \"hw\": {\"num_ports\": %u, \"num_tcs\": %u, \"cell_bytes\": %u, \"clock_hz\": %" PRIu64
      "},\n  \"pool_cells\": %u,\n  \"port_rule\": \"%s\",\n  \"ports\": [",
      r->hw.num_ports, r->hw.num_tcs, r->hw.cell_bytes, r->clock_hz, r->cfg.pool_cells,
      r->port_rule);
  for (uint32_t i = 0; i < r->nports; i++) {
    const xtm_cos_port_plan_t *p = &r->ports[i];
    printf("%s\n    {\"port\": %u, \"name\": ", i ? "," : "", p->port);
    json_str(p->name);
    printf(", \"lag\": ");
    json_str(p->lag);
    printf(", \"cos_interface\": ");
    json_str(p->cos_iface);
    printf(", \"speed_bps\": %" PRIu64 ", \"speed_source\": ", p->speed_bps);
    json_str(p->speed_src);
    printf(", \"speed_line\": %d}", p->speed_line);
  }
  printf("\n  ],\n  \"queues\": [");
  for (uint32_t i = 0; i < r->nqueues; i++) {
    const xtm_cos_queue_plan_t *q = &r->q[i];
    printf("%s\n    {\"name\": ", i ? "," : "");
    json_str(q->fclass);
    printf(", \"interface\": ");
    json_str(q->iface);
    printf(", \"scheduler\": ");
    json_str(q->scheduler);
    printf(", \"port\": %u, \"queue\": %u, \"voq\": %u,\n     \"target_rate_bps\": %" PRIu64
           ", \"target_rule\": \"%s\", \"target_rate_q16\": %u, \"temporal_us\": %" PRIu64
           ".%03" PRIu64 ",\n     \"limit_bytes\": %" PRIu64
           ", \"limit_cells\": %u, \"profile_name\": ",
           q->port, q->queue, q->voq, q->target_rate_bps, q->target_rule, q->target_rate_q16,
           q->temporal_ns / 1000u, q->temporal_ns % 1000u, q->limit_bytes, q->limit_cells);
    json_str(q->profile);
    printf(", \"interpolate\": %s, \"profile\": [", q->interp ? "true" : "false");
    for (uint32_t p = 0; p < q->npoints; p++) {
      const xtm_cos_point_t *pt = &q->points[p];
      printf("%s\n       {\"fill_pct\": ", p ? "," : "");
      json_pct(pt->fill_milli);
      printf(", \"bytes\": %" PRIu64 ", \"prob_pct\": ", pt->bytes);
      json_pct(pt->prob_milli);
      printf(", \"fill_q16\": %u, \"prob_q16\": %u, \"hw_cells\": %u}", pt->fill_q16, pt->prob_q16,
             pt->hw_cells);
    }
    printf(
        "],\n     \"ecn\": %s, \"marking_point\": \"%s\", \"no_loss\": %s, \"strict\": %s, "
        "\"pfc_priority\": %d",
        q->ecn ? "true" : "false", q->mark, q->no_loss ? "true" : "false",
        q->strict ? "true" : "false", q->pfc_prio);
    // the register values of the queue (r->cfg.queues[i] is the queue of r->q[i])
    const xtm_fw_queue_cfg_t *qc = &r->cfg.queues[i];
    printf(
        ",\n     \"quantum\": %u, \"shaper\": %s, \"shaper_rate_q16\": %u, \"shaper_burst\": %u, "
        "\"pfc_rx\": %s, \"pfc_rx_priority\": %u, \"watchdog\": %s",
        qc->quantum_bytes, qc->shaper_en ? "true" : "false", qc->shaper_rate_q16,
        qc->shaper_burst_bytes, qc->pfc_rx_en ? "true" : "false", qc->pfc_prio,
        qc->wd_en ? "true" : "false");
    if (q->pfc_known) {
      printf(", \"pfc\": {\"xoff_bytes\": %" PRIu64 ", \"xon_bytes\": %" PRIu64
             ", \"headroom_bytes\": %" PRIu64 "}",
             q->xoff_bytes, q->xon_bytes, q->hdrm_bytes);
    } else {
      printf(", \"pfc\": null");
    }
    printf("}");
  }
  printf("\n  ],\n  \"pgs\": [");
  for (uint32_t i = 0; i < r->npgs; i++) {
    const xtm_cos_pg_plan_t *g = &r->pg[i];
    printf("%s\n    {\"interface\": ", i ? "," : "");
    json_str(g->iface);
    printf(", \"port\": %u, \"priority\": %u, \"speed_bps\": %" PRIu64 ", \"xoff_bytes\": %" PRIu64
           ", \"xon_bytes\": %" PRIu64
           ", \"xoff_cells\": %u, \"xon_cells\": %u, \"cable_m\": %u, "
           "\"mtu\": %u, \"headroom_bits\": %" PRIu64 ", \"headroom_bytes\": %" PRIu64
           ", \"headroom_cells\": %u}",
           g->port, g->prio, g->speed_bps, g->xoff_bytes, g->xon_bytes, g->xoff_cells, g->xon_cells,
           g->cable_m, g->mtu, g->hdrm_bits, g->hdrm_bytes, g->hdrm_cells);
  }
  printf("\n  ],\n  \"port_shaper_q16\": [");
  for (uint32_t p = 0; p < r->hw.num_ports && p < XTM_FW_MAX_PORTS; p++) {
    printf("%s%u", p ? ", " : "", r->cfg.ports[p].valid ? r->cfg.ports[p].shaper_rate_q16 : 0u);
  }
  printf("],\n  \"policers\": [");
  for (uint32_t i = 0; i < r->npols; i++) {
    const xtm_cos_pol_plan_t *p = &r->pol[i];
    printf("%s\n    {\"interface\": ", i ? "," : "");
    json_str(p->iface);
    printf(", \"policer\": ");
    json_str(p->policer);
    printf(", \"source\": ");
    json_str(p->source);
    printf(", \"port\": %u, \"index\": %u, \"pol_sel\": %u, \"rate_bps\": %" PRIu64
           ", \"rate_q16\": %u, \"burst_bytes\": %u, \"tcs\": [",
           p->port, p->index, p->port * XTM_FW_POLICERS_PER_PORT + p->index, p->rate_bps,
           p->rate_q16, p->burst_bytes);
    bool first_tc = true;
    for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
      if ((p->tcs >> t & 1u) != 0u) {
        printf("%s%u", first_tc ? "" : ", ", t);
        first_tc = false;
      }
    }
    printf("]}");
  }
  printf("\n  ],\n  \"pol_map\": [");
  for (uint32_t p = 0; p < r->hw.num_ports && p < XTM_FW_MAX_PORTS; p++) {
    printf("%s%u", p ? ", " : "",
           r->cfg.pol_map[p].valid ? xtm_fw_pol_map_value(&r->cfg.pol_map[p]) : 0u);
  }
  printf("],\n  \"dscp_tc\": [");
  for (uint32_t d = 0; d < 64; d++) {
    printf("%s%u", d ? ", " : "", r->cfg.cls.dscp_tc[d]);
  }
  printf("],\n  \"tc_pg\": [");
  for (uint32_t t = 0; t < XTM_FW_MAX_TCS; t++) {
    printf("%s%u", t ? ", " : "", r->cfg.cls.tc_pg[t]);
  }
  printf("],\n  \"watchdog\": ");
  if (r->cfg.wd.valid) {
    printf("{\"poll_cycles\": %u, \"detect_polls\": %u, \"restore_polls\": %u, \"action\": \"%s\"}",
           r->cfg.wd.poll_cycles, r->cfg.wd.detect_polls, r->cfg.wd.restore_polls,
           r->cfg.wd.action == kXtmFwWdActionForward ? "forward" : "drop");
  } else {
    printf("null");
  }
  printf(",\n  \"dcqcn\": {");
  bool first = true;
  for (int p = 0; p < kXtmFwDcqcnCount; p++) {
    if (r->cfg.dcqcn.set[p]) {
      printf("%s\"%s\": %u", first ? "" : ", ", xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)p)->name,
             r->cfg.dcqcn.value[p]);
      first = false;
    }
  }
  printf("}\n}\n");
}

static void print_message(void *arg, bool warning, const char *text) {
  (void)arg;
  (void)warning;
  fprintf(stderr, "%s\n", text);
}

// The option's value, or NULL after a message when it is missing.
static const char *value_of(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "xtmctl: %s needs a value\n", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

// Strict integer option (tools/lib/xtm_num): the whole word, decimal, in min..max.
static bool num_opt(int argc, char **argv, int *i, uint64_t min, uint64_t max, uint64_t *out) {
  const char *opt = argv[*i];
  const char *v = value_of(argc, argv, i);
  if (v == NULL) {
    return false;
  }
  xtm_num_msg_t msg;
  if (xtm_num_u64(opt, v, min, max, out, &msg) != kXtmNumOk) {
    fprintf(stderr, "xtmctl: %s\n", msg.text);
    return false;
  }
  return true;
}

// Flushes stdout; a failed write (a full disk, /dev/full, a closed pipe) is an error exit,
// never a success with lost output.
static int finish(int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "xtmctl: cannot write the output: %s\n", strerror(errno));
    return rc == 0 ? 2 : rc;
  }
  return rc;
}

// Closes a file written by `apply`; false (after a message) when any write failed.
static bool close_checked(FILE *f, const char *what, const char *path) {
  bool bad = ferror(f) != 0;
  int e = errno;
  if (fclose(f) != 0) {
    bad = true;
    e = errno;
  }
  if (bad) {
    fprintf(stderr, "xtmctl: cannot write the %s %s: %s\n", what, path, strerror(e));
  }
  return !bad;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    usage();
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error (checked), not a silent death
  const char *cmd = argv[1];
  const char *conf = argv[2];
  bool json = false;
  const char *trace_path = NULL;
  const char *dump_path = NULL;
  uint64_t clock_hz = 1000000000ull;
  uint64_t us = 200;
  uint64_t num_desc = 65536u;
  uint64_t port_gbps = 0;
  bool apb = false;
  bool is_plan = strcmp(cmd, "plan") == 0;
  bool is_apply = strcmp(cmd, "apply") == 0;
  bool is_stats = strcmp(cmd, "stats") == 0;
  if (!is_plan && !is_apply && !is_stats) {
    usage();
    return 2;
  }
  // Each option belongs to the commands of the usage text and is given at most once: an
  // option the command does not use (`plan --trace FILE` wrote no trace and exited 0) or
  // a repeated one (`--us 5 --us 7` ran 7) is a usage error, not silently dropped.
  enum { kPlan = 1, kApply = 2, kStats = 4, kAll = 7 };
  static const struct {
    const char *name;
    unsigned cmds;
  } kOpts[] = {{"--json", kPlan}, {"--trace", kApply},  {"--dump", kApply}, {"--clock-hz", kAll},
               {"--us", kStats},  {"--num-desc", kAll}, {"--apb", kAll},    {"--port-speed", kAll}};
  bool seen[sizeof(kOpts) / sizeof(kOpts[0])] = {false};
  unsigned this_cmd = is_plan ? kPlan : is_apply ? kApply : kStats;
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i];
    bool ok = true;
    size_t k = 0;
    while (k < sizeof(kOpts) / sizeof(kOpts[0]) && strcmp(a, kOpts[k].name) != 0) {
      k++;
    }
    if (k == sizeof(kOpts) / sizeof(kOpts[0])) {
      char q[256];
      xtm_num_quote(q, sizeof(q), a);
      fprintf(stderr, "xtmctl: unknown option '%s'\n", q);
      usage();
      return 2;
    }
    if ((kOpts[k].cmds & this_cmd) == 0) {
      fprintf(stderr, "xtmctl: %s is not an option of '%s'\n", a, cmd);
      usage();
      return 2;
    }
    if (seen[k]) {
      fprintf(stderr, "xtmctl: option given twice '%s'\n", a);
      return 2;
    }
    seen[k] = true;
    if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--trace") == 0) {
      ok = (trace_path = value_of(argc, argv, &i)) != NULL;
    } else if (strcmp(a, "--dump") == 0) {
      ok = (dump_path = value_of(argc, argv, &i)) != NULL;
    } else if (strcmp(a, "--clock-hz") == 0) {
      ok = num_opt(argc, argv, &i, 1000000u, 10000000000ull, &clock_hz);
    } else if (strcmp(a, "--us") == 0) {
      ok = num_opt(argc, argv, &i, 1, 1000000u, &us);
    } else if (strcmp(a, "--num-desc") == 0) {
      ok = num_opt(argc, argv, &i, 2, 1u << 20, &num_desc);
    } else if (strcmp(a, "--apb") == 0) {
      apb = true;
    } else {  // --port-speed
      ok = num_opt(argc, argv, &i, 1, 800, &port_gbps);
    }
    if (!ok) {
      return 2;
    }
  }
  // The hardware parameters come from the block itself (HW_PARAMS), here a C model.
  xtm_params_t prm;
  xtm_params_default(&prm);
  prm.num_desc = (uint32_t)num_desc;
  xtm_t *model = NULL;
  if (xtm_create(&prm, &model) != kXtmOk) {
    fprintf(stderr, "xtmctl: cannot create the C model\n");
    return 2;
  }
  xtm_mmio_model_t mstate;
  xtm_mmio_t mmio;
  xtm_fw_t h;
  bool ok = xtm_mmio_model_init(&mmio, &mstate, model) == kXtmFwOk;
  mstate.apb = apb;
  if (!ok || xtm_fw_init(&mmio, &h) != kXtmFwOk) {
    fprintf(stderr, "xtmctl: cannot identify the traffic manager\n");
    xtm_destroy(model);
    return 2;
  }
  static xtm_cos_result_t r;
  xtm_cos_opts_t opts = {.clock_hz = clock_hz, .default_speed_bps = port_gbps * 1000000000ull};
  uint32_t nerr = xtm_cos_compile_file(conf, &h.hw, &opts, &r);
  // warnings then errors, each distinct text once with a note of its repeats
  (void)xtm_cos_each_message(&r, conf, print_message, NULL);
  if (r.warnings_dropped > 0) {
    fprintf(stderr, "xtmctl: %u more warning%s not shown\n", r.warnings_dropped,
            r.warnings_dropped == 1 ? "" : "s");
  }
  if (nerr > 0) {
    if (r.errors_dropped > 0) {
      fprintf(stderr,
              "xtmctl: %u more error%s not shown (the first %u distinct messages are shown)\n",
              r.errors_dropped, r.errors_dropped == 1 ? "" : "s", XTM_COS_MAX_ERRORS);
    }
    fprintf(stderr, "xtmctl: %u error%s; nothing programmed\n", nerr, nerr == 1 ? "" : "s");
    xtm_destroy(model);
    return 1;
  }
  if (is_plan) {
    if (json) {
      print_json(&r);
    } else {
      print_text(&r);
    }
    xtm_destroy(model);
    return finish(0);
  }
  // apply / stats: bring the model up through the driver, recording every transaction
  static xtm_mmio_txn_t txns[200000];
  xtm_mmio_trace_t tstate;
  xtm_mmio_t traced;
  if (xtm_mmio_trace_init(&traced, &tstate, &mmio, txns, sizeof(txns) / sizeof(txns[0])) !=
      kXtmFwOk) {
    xtm_destroy(model);
    return 2;
  }
  xtm_fw_bringup_opts_t bo = {.do_reset = true, .init_max_polls = 100000};
  xtm_fw_bringup_result_t br;
  xtm_fw_status_t st = xtm_fw_bringup(&traced, &r.cfg, &bo, &h, &br);
  if (is_apply) {
    xtm_fw_trace_write_tsv(stdout, txns, tstate.len, true);
  }
  if (st != kXtmFwOk) {
    fprintf(stderr, "xtmctl: bring-up failed at step %s: %s (ERR_STATUS 0x%x, ERR_ADDR 0x%04x)\n",
            xtm_fw_step_name(br.failed_step), xtm_fw_status_name(st), br.err_status, br.err_addr);
    xtm_destroy(model);
    return 2;
  }
  if (br.dcqcn_pending) {
    // The NIC block is a separate block with its own driver and its own C model.
    dcqcn_params_t dprm;
    dcqcn_params_default(&dprm);
    dcqcn_t *dm = NULL;
    dcqcn_mmio_model_t dstate;
    xtm_mmio_t dio;
    dcqcn_fw_t dh;
    uint64_t cpu = clock_hz / 1000000u;
    if (dcqcn_create(&dprm, &dm) != kDcqcnOk ||
        dcqcn_mmio_model_init(&dio, &dstate, dm) != kXtmFwOk ||
        dcqcn_fw_init(&dio, &dh) != kXtmFwOk || cpu == 0 || cpu > 65535u ||
        dcqcn_fw_set_params(&dh, &r.cfg.dcqcn, (uint32_t)cpu) != kXtmFwOk) {
      fprintf(stderr, "xtmctl: programming the dcqcn block failed\n");
      if (dm != NULL) {
        dcqcn_destroy(dm);
      }
      xtm_destroy(model);
      return 2;
    }
    if (is_apply) {
      printf("# dcqcn block (C model)\tW\t0x%04x\t0x%08x\tCYCLES_PER_US\n",
             DCQCN_CYCLES_PER_US_REG_OFFSET, (unsigned)cpu);
      for (int p = 0; p < kXtmFwDcqcnCount; p++) {
        if (r.cfg.dcqcn.set[p]) {
          printf("# dcqcn block (C model)\tW\t0x%04x\t0x%08x\t%s\n",
                 dcqcn_fw_param_offset((xtm_fw_dcqcn_param_t)p), r.cfg.dcqcn.value[p],
                 xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)p)->name);
        }
      }
    }
    dcqcn_destroy(dm);
  }
  if (trace_path != NULL) {
    if (tstate.dropped != 0) {
      fprintf(stderr, "xtmctl: the trace lost %zu transactions (buffer of %zu)\n",
              (size_t)tstate.dropped, sizeof(txns) / sizeof(txns[0]));
      xtm_destroy(model);
      return 2;
    }
    FILE *f = fopen(trace_path, "w");
    if (f == NULL) {
      fprintf(stderr, "xtmctl: cannot write the trace %s: %s\n", trace_path, strerror(errno));
      xtm_destroy(model);
      return 2;
    }
    xtm_fw_trace_write_tsv(f, txns, tstate.len, false);
    if (!close_checked(f, "trace", trace_path)) {
      xtm_destroy(model);
      return 2;
    }
  }
  if (dump_path != NULL) {
    FILE *f = fopen(dump_path, "w");
    if (f == NULL) {
      fprintf(stderr, "xtmctl: cannot write the register dump %s: %s\n", dump_path,
              strerror(errno));
      xtm_destroy(model);
      return 2;
    }
    xtm_fw_status_t dst = xtm_fw_regdump(f, &h);
    bool closed = close_checked(f, "register dump", dump_path);
    if (dst != kXtmFwOk || !closed) {
      if (dst != kXtmFwOk) {
        fprintf(stderr, "xtmctl: register dump failed: %s\n", xtm_fw_status_name(dst));
      }
      xtm_destroy(model);
      return 2;
    }
  }
  if (is_stats) {
    // A deterministic load: every interface without a scheduler-map sends line-rate 4096 B
    // ECT(0) packets on the DSCP of the first no-loss queue's class (else DSCP 0) to the
    // first interface with a scheduler-map, for `us` microseconds, then 2x as long drain.
    int eg = -1;
    uint8_t dscp = 0;
    for (uint32_t i = 0; i < r.nqueues && eg < 0; i++) {
      eg = (int)r.q[i].port;
    }
    for (uint32_t i = 0; i < r.nqueues; i++) {
      if (r.q[i].no_loss) {
        for (uint32_t d = 0; d < 64; d++) {
          if (r.cfg.cls.dscp_tc[d] == r.q[i].queue) {
            dscp = (uint8_t)d;
            break;
          }
        }
        break;
      }
    }
    uint32_t src[XTM_FW_MAX_PORTS];
    uint32_t nsrc = 0;
    for (uint32_t p = 0; p < h.hw.num_ports; p++) {
      // the ports with class of service, and the policed ingress ports (spec 4.7)
      if ((r.cfg.ports[p].valid || r.cfg.pol_map[p].valid) && (int)p != eg) {
        src[nsrc++] = p;
      }
    }
    if (eg < 0 || nsrc == 0) {
      fprintf(stderr,
              "xtmctl stats: needs one interface with a scheduler-map and at least one other "
              "interface\n");
      xtm_destroy(model);
      return 2;
    }
    uint64_t t0 = xtm_cycle(model);
    uint64_t stop = t0 + us * clock_hz / 1000000u;
    uint64_t gap = (uint64_t)(4096 + 20) * 8u * clock_hz / 100000000000ull;  // 100G per source
    uint64_t next = t0;
    uint32_t id = 0;
    xtm_in_t in;
    memset(&in, 0, sizeof(in));
    in.tx_ready = UINT64_MAX;
    xtm_out_t out;
    while (xtm_cycle(model) < stop) {
      if (xtm_cycle(model) >= next) {
        for (uint32_t s = 0; s < nsrc && xtm_cycle(model) < stop; s++) {
          in.enq = (xtm_enq_in_t){.valid = true,
                                  .pkt_id = id++,
                                  .in_port = (uint8_t)src[s],
                                  .eg_port = (uint8_t)eg,
                                  .dscp = dscp,
                                  .ecn = 2,
                                  .len = 4096};
          xtm_step(model, &in, &out);
        }
        next += gap ? gap : 1;
      } else {
        (void)xtm_advance_to(model, next < stop ? next : stop, &out);
      }
    }
    uint64_t end = stop + 2 * (stop - t0);
    while (xtm_advance_to(model, end, &out)) {
    }
    printf("xtmctl stats: %u sources -> port %d, DSCP %u, %" PRIu64 " us of load + %" PRIu64
           " us drain, %u packets offered\n",
           nsrc, eg, dscp, us, 2 * us, id);
    static const struct {
      const char *name;
      uint32_t lo;
    } kRows[] = {
        {"arrivals", XTM_Q_ARR_PKTS_LO_REG_OFFSET},
        {"enqueued", XTM_Q_ENQ_PKTS_LO_REG_OFFSET},
        {"dequeued", XTM_Q_DEQ_PKTS_LO_REG_OFFSET},
        {"drop tail", XTM_Q_DROP_TAIL_LO_REG_OFFSET},
        {"drop profile", XTM_Q_DROP_PROFILE_LO_REG_OFFSET},
        {"drop headroom", XTM_Q_DROP_HDRM_LO_REG_OFFSET},
        {"drop police", XTM_Q_DROP_POL_LO_REG_OFFSET},
        {"mark tail", XTM_Q_MARK_TAIL_LO_REG_OFFSET},
        {"mark head", XTM_Q_MARK_HEAD_LO_REG_OFFSET},
        {"mark latency", XTM_Q_MARK_LAT_LO_REG_OFFSET},
    };
    printf("%-24s", "queue");
    for (size_t k = 0; k < sizeof(kRows) / sizeof(kRows[0]); k++) {
      printf(" %13s", kRows[k].name);
    }
    printf("\n");
    for (uint32_t i = 0; i < r.nqueues; i++) {
      printf("%-24s", r.q[i].fclass);
      for (size_t k = 0; k < sizeof(kRows) / sizeof(kRows[0]); k++) {
        uint64_t v = 0;
        if (xtm_fw_voq_counter(&h, r.q[i].voq, kRows[k].lo, &v) != kXtmFwOk) {
          fprintf(stderr, "xtmctl stats: counter read failed\n");
          xtm_destroy(model);
          return 2;
        }
        printf(" %13" PRIu64, v);
      }
      printf("\n");
    }
    for (uint32_t s = 0; s < nsrc; s++) {
      uint64_t x = 0;
      for (uint32_t g = 0; g < r.cfg.num_pgs; g++) {
        if (r.cfg.pgs[g].port == src[s]) {
          uint64_t v = 0;
          if (xtm_fw_counter(&h, XTM_PG_SEL_REG_OFFSET, src[s] * 8u + r.cfg.pgs[g].prio,
                             XTM_G_XOFF_SENT_LO_REG_OFFSET, &v) == kXtmFwOk) {
            x += v;
          }
        }
      }
      printf("ingress port %u: PFC XOFF frames sent %" PRIu64 "\n", src[s], x);
    }
    // the policers' counters (the POL window, spec 4.7)
    for (uint32_t i = 0; i < r.npols; i++) {
      static const uint32_t kPol[3] = {XTM_POL_PASS_PKTS_LO_REG_OFFSET,
                                       XTM_POL_DROP_PKTS_LO_REG_OFFSET,
                                       XTM_POL_DROP_BYTES_LO_REG_OFFSET};
      uint64_t v[3] = {0, 0, 0};
      for (int k = 0; k < 3; k++) {
        if (xtm_fw_counter(&h, XTM_POL_SEL_REG_OFFSET,
                           r.pol[i].port * XTM_FW_POLICERS_PER_PORT + r.pol[i].index, kPol[k],
                           &v[k]) != kXtmFwOk) {
          fprintf(stderr, "xtmctl stats: counter read failed\n");
          xtm_destroy(model);
          return 2;
        }
      }
      printf("policer %s on %s (port %u, %u): passed %" PRIu64 " packets, dropped %" PRIu64
             " packets, %" PRIu64 " bytes\n",
             r.pol[i].policer, r.pol[i].iface, r.pol[i].port, r.pol[i].index, v[0], v[1], v[2]);
    }
  }
  xtm_destroy(model);
  return finish(0);
}
