// SPDX-License-Identifier: Apache-2.0
//
// gnuplot without a shell, and the scripts of the run and sweep plots (sim/netsim/plot.h,
// docs/netsim.md 5.1). Every number written into a script is finite (non-finite values
// become 0) and every text has passed through ns_plot_text, so a script can only draw.

#define _POSIX_C_SOURCE 200809L

#include "sim/netsim/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void ns_plot_text(char *dst, size_t n, const char *src) {
  if (n == 0) {
    return;
  }
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)src; *p && k + 1 < n; p++) {
    unsigned char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr(" ._-=,:+/()%>", c) != NULL;
    dst[k++] = ok ? (char)c : '_';
  }
  dst[k] = '\0';
}

int ns_plot_run(const char *dir, const char *name, const char *script) {
  char p[4096];
  if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p)) {
    return -1;
  }
  FILE *f = fopen(p, "w");
  if (f == NULL) {
    return -1;
  }
  bool ok = fputs(script, f) >= 0;
  ok = fclose(f) == 0 && ok;
  if (!ok) {
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    return 1;
  }
  if (pid == 0) {
    if (chdir(dir) != 0) {
      _exit(126);
    }
    int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || nul < 0 || dup2(fd, 2) < 0 || dup2(fd, 1) < 0 || dup2(nul, 0) < 0) {
      _exit(126);
    }
    char *argv[] = {"gnuplot", (char *)name, NULL};
    execvp("gnuplot", argv);
    _exit(127);  // gnuplot is not installed
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      return 1;
    }
  }
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

// ------------------------------------------------------------------ script text

typedef struct sb {
  char *p;
  size_t n, cap;
  bool oom;
} sb_t;

static void sbf(sb_t *b, const char *fmt, ...) {
  if (b->oom) {
    return;
  }
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->oom = true;
      return;
    }
    if ((size_t)k < b->cap - b->n) {
      b->n += (size_t)k;
      return;
    }
    size_t cap = b->cap * 2 + (size_t)k;
    char *q = realloc(b->p, cap);
    if (q == NULL) {
      b->oom = true;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
}

static bool sb_init(sb_t *b) {
  b->cap = 1 << 14;
  b->n = 0;
  b->oom = false;
  b->p = malloc(b->cap);
  if (b->p != NULL) {
    b->p[0] = '\0';
  }
  return b->p != NULL;
}

static double fin(double v) { return isfinite(v) ? v : 0.0; }

// A text for a gnuplot double-quoted string: sanitised, then wrapped at spaces into lines
// of at most `width` characters joined by the two characters \n (gnuplot's newline escape).
static void text_wrapped(char *dst, size_t n, const char *src, size_t width) {
  char t[2048];
  ns_plot_text(t, sizeof(t), src);
  size_t k = 0, col = 0;
  const char *w = t;
  while (*w && k + 4 < n) {
    while (*w == ' ') {
      w++;
    }
    size_t len = strcspn(w, " ");
    if (len == 0) {
      break;
    }
    if (col > 0 && col + 1 + len > width) {
      dst[k++] = '\\';
      dst[k++] = 'n';
      col = 0;
    } else if (col > 0) {
      dst[k++] = ' ';
      col++;
    }
    for (size_t i = 0; i < len && k + 3 < n; i++) {
      dst[k++] = w[i];
    }
    col += len;
    w += len;
  }
  dst[k] = '\0';
}

static const char *const kColours[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

// time axis: us below 2 ms, ms below 2 s, else s
static void time_unit(double end_us, double *div, const char **name) {
  if (end_us >= 2e6) {
    *div = 1e6;
    *name = "s";
  } else if (end_us >= 2e3) {
    *div = 1e3;
    *name = "ms";
  } else {
    *div = 1;
    *name = "us";
  }
}

// The footer of every plot: `footer` wrapped, then "reproduce: <repro>" wrapped; returns
// its number of lines.
static int footer_text(char *dst, size_t n, const char *footer, const char *repro) {
  text_wrapped(dst, n, footer, 190);
  if (repro != NULL && repro[0] != '\0') {
    char c[1600], w[2048];
    snprintf(c, sizeof(c), "reproduce: %s", repro);
    text_wrapped(w, sizeof(w), c, 190);
    size_t k = strlen(dst);
    snprintf(dst + k, n - k, "%s%s", k ? "\\n" : "", w);
  }
  int lines = 1;
  for (const char *p = dst; (p = strstr(p, "\\n")) != NULL; p += 2) {
    lines++;
  }
  return lines;
}

#define FOOTER_LINE_PX 11.5
// The bottom of the area above a footer of `lines` lines, as a fraction of the height.
static double footer_top(int lines) {
  double f = (lines * FOOTER_LINE_PX + 12) / NS_PLOT_H;
  return f > 0.06 ? f : 0.06;
}

// The start of every plot; the footer's first line at the top of its area, the others
// below it (gnuplot draws a multi-line label downwards from its position).
static void preamble(sb_t *b, const char *out, const char *footer, int lines) {
  sbf(b,
      "\n# ---- %s\nreset\nset terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
      "set output '%s'\nset datafile separator ','\n"
      "set style textbox opaque fillcolor rgb '#30ffffff' noborder margins 1,1\nset grid\nset "
      "format x '%%g'\n"
      "set format y '%%g'\nset format y2 '%%g'\n"
      "set label 99 \"%s\" at screen 0.01, screen %.4f left font ',8' tc rgb '#404040'\n",
      out, NS_PLOT_W, NS_PLOT_H, out, footer, ((lines - 1) * FOOTER_LINE_PX + 10) / NS_PLOT_H);
}

// ------------------------------------------------------------------ one run

typedef struct run_ctx {
  const ns_plot_run_t *r;
  double div;
  const char *tu;
  bool zoom;
  char footer[4096];
  int footer_lines;
  double bottom;   // the panels start above the footer
  char x[48];      // the x expression: time in the plot's unit
  double zoom_us;  // where the zoomed panel starts (r->zoom_us, or later for a detail)
  char zoom_why[160];
  double w_us;    // rate bin: one base RTT or 10 samples, whichever is longer
  double wa_us;   // the whole-run panel's rate bin: w_us, or a multiple of it so that
                  // a long run has about 200 bins across the panel
  char binv[32];  // w_us and wa_us as text ("10 ms")
  char binva[32];
} run_ctx_t;

// Longest zoomed panel and most bins across the whole-run panel, in rate bins: a 60 s
// run of 10 ms bins with a 0.3 s limit cycle is 6000 bins, 200 cycles: drawn raw, either
// panel is a solid block of colour. The detail shows about 7 cycles of that run.
#define DETAIL_BINS 200u
#define WHOLE_MAX_BINS 400u

// A length as text: us below 1 ms, ms below 1 s ("1.1 ms", not "1.1e+03 us")
static void length_text(char *dst, size_t n, double us) {
  double d = us >= 1e6 ? 1e6 : us >= 1e3 ? 1e3 : 1;
  snprintf(dst, n, "%.3g %s", fin(us / d), d == 1e6 ? "s" : d == 1e3 ? "ms" : "us");
}

// Panel geometry: with a zoomed panel, the whole run on top and the zoom below; the
// footer under both.
static void panel(sb_t *b, const run_ctx_t *c, bool top) {
  const ns_plot_run_t *r = c->r;
  sbf(b, "YL = 0\n");
  if (!c->zoom) {
    sbf(b,
        "set origin 0, %.4f\nset size 1, %.4f\nset title 'whole run' offset 0,-0.5\n"
        "set xlabel 'time (%s)'\nset xrange [0:%.9g]\n",
        c->bottom, 0.94 - c->bottom, c->tu, fin(r->end_us / c->div));
  } else if (top) {
    sbf(b,
        "set origin 0, 0.50\nset size 1, 0.44\nset title 'whole run' offset 0,-0.5\n"
        "unset xlabel\nset xrange [0:%.9g]\n",
        fin(r->end_us / c->div));
  } else {
    char why[192];
    ns_plot_text(why, sizeof(why), c->zoom_why);
    sbf(b,
        "unset label 99\nunset key\nset origin 0, %.4f\nset size 1, %.4f\n"
        "set title 'zoom: from %.3g %s (%s), y scaled to this window' offset 0,-0.5\n"
        "set xlabel 'time (%s)'\nset xrange [%.9g:%.9g]\n",
        c->bottom, 0.50 - c->bottom, fin(c->zoom_us / c->div), c->tu, why, c->tu,
        fin(c->zoom_us / c->div), fin(r->end_us / c->div));
  }
}

// The whole-run panel of a long run draws every rate as its mean per wa_us: its title says so.
static void whole_bins(sb_t *b, const run_ctx_t *c, bool top) {
  if (top && c->wa_us > c->w_us) {
    sbf(b, "set title 'whole run, every line the mean per %s' offset 0,-0.5\n", c->binva);
  }
}

// A labelled horizontal line at value V (in the panel's y unit) when it is inside [0, Y].
static void hline(sb_t *b, int tag, double v, const char *label, const char *colour,
                  const char *dash, double lw, const char *where, bool below) {
  const char *pos = strcmp(where, "left") == 0     ? "graph 0.01"
                    : strcmp(where, "center") == 0 ? "graph 0.5"
                                                   : "graph 0.99";
  sbf(b,
      "if (%.9g >= YL && %.9g <= Y) {\n  set arrow %d from graph 0, first %.9g to graph 1, first "
      "%.9g "
      "nohead lc rgb '%s' dt %s lw %.2g front\n  set label %d \"%s\" at %s, first %.9g %s "
      "offset 0,%s tc rgb '%s' boxed front font ',9'\n}\n",
      fin(v), fin(v), tag, fin(v), fin(v), colour, dash, lw, tag, label, pos, fin(v), where,
      below ? "-0.65" : "0.65", colour);
}

static void clear_lines(sb_t *b) { sbf(b, "unset arrow\ndo for [i=1:20] { unset label i }\n"); }

static const struct {
  const char *colour, *dash, *where;
  double lw;
  bool below;
} kRefStyle[kNsRefCount] = {
    [kNsRefKmin] = {"#d62728", "2", "right", 1.5, false},
    [kNsRefKmax] = {"#ff7f0e", "2", "right", 1.5, false},
    [kNsRefLimit] = {"#000000", "1", "right", 2.0, true},
    [kNsRefPool] = {"#7f7f7f", "1", "center", 1.5, true},
    [kNsRefXoff] = {"#1f77b4", "4", "left", 1.5, false},
    [kNsRefXon] = {"#17becf", "4", "left", 1.5, true},
};

static void queue_plot(sb_t *b, const run_ctx_t *c) {
  const ns_plot_run_t *r = c->r;
  preamble(b, "queue.png", c->footer, c->footer_lines);
  double bmb = r->bdp_bytes / 1e6;
  sbf(b, "mx(a,b) = a > b ? a : b\nstats 'timeseries.csv' using 1:2 nooutput\nYA = STATS_max_y\n");
  if (r->pg_col > 0) {
    sbf(b, "stats 'timeseries.csv' using 1:%u nooutput\nYA = mx(YA, STATS_max_y)\n", r->pg_col);
  }
  if (r->xoff_col > 0) {
    sbf(b, "stats 'timeseries.csv' using 1:%u nooutput\nYA = mx(YA, STATS_max_y)\n", r->xoff_col);
  }
  double refmax = 0;
  for (uint32_t i = 0; i < r->nref; i++) {
    refmax = r->ref[i].bytes > refmax ? r->ref[i].bytes : refmax;
  }
  sbf(b, "YA = mx(YA, %.9g) / 1e6 * 1.08\nYA = YA > 0 ? YA : 1\n", fin(refmax));
  if (c->zoom) {
    sbf(b, "stats [%.9g:*] 'timeseries.csv' using 1:2 nooutput\nYZ = STATS_max_y\n",
        fin(c->zoom_us));
    if (r->pg_col > 0) {
      sbf(b, "stats [%.9g:*] 'timeseries.csv' using 1:%u nooutput\nYZ = mx(YZ, STATS_max_y)\n",
          fin(c->zoom_us), r->pg_col);
    }
    sbf(b, "YZ = YZ / 1e6 * 1.15\nYZ = YZ > 0 ? YZ : YA\n");
  }
  char name[64], q[112], note[96];
  ns_plot_text(name, sizeof(name), r->name);
  ns_plot_text(q, sizeof(q), r->queue);
  ns_plot_text(note, sizeof(note), r->pfc_note);
  sbf(b,
      "set multiplot title \"%s: bottleneck RDMA queue, %s\" font ',12'\n"
      "set lmargin 11\nset rmargin 12\nset ylabel 'queue (MB, 10^6 B)'\nset ytics nomirror\n",
      name, q);
  if (bmb > 0) {
    sbf(b, "set y2tics\nset y2label 'queue (RTT; 1 RTT = %.4g MB = %.4g Gb/s x %.6g us)'\n",
        fin(bmb), fin(r->link_gbps), fin(r->rtt_us));
  }
  sbf(b, "set key outside top left horizontal samplen 2 font ',9'\n");
  char plot[2048];
  int k = snprintf(plot, sizeof(plot),
                   "plot 'timeseries.csv' using %s:($2/1e6) with lines lw 1.5 lc rgb '#6a0dad' "
                   "title 'VOQ occupancy'",
                   c->x);
  if (r->pg_col > 0 && k > 0 && (size_t)k < sizeof(plot)) {
    k += snprintf(plot + k, sizeof(plot) - (size_t)k,
                  ", '' using %s:(column(%u)/1e6) with lines lw 1 lc rgb '#1f77b4' title "
                  "'largest lossless ingress PG (compare with XOFF/XON)'",
                  c->x, r->pg_col);
  }
  if (r->xoff_col > 0 && k > 0 && (size_t)k < sizeof(plot)) {
    k += snprintf(plot + k, sizeof(plot) - (size_t)k,
                  ", '' using %s:(column(%u)/1e6) with lines dt 4 lw 1.5 lc rgb '#1f77b4' title "
                  "'XOFF of that PG (%s)', '' using %s:(column(%u)/1e6) with lines dt 4 lw 1.5 "
                  "lc rgb '#17becf' title 'XON'",
                  c->x, r->xoff_col, note, c->x, r->xon_col);
  }
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    panel(b, c, p == 0);
    sbf(b, "Y = %s\nset yrange [0:Y]\n", p == 0 ? "YA" : "YZ");
    if (bmb > 0) {
      sbf(b, "set y2range [0:Y / %.9g]\n", fin(bmb));
    }
    clear_lines(b);
    for (uint32_t i = 0; i < r->nref; i++) {
      const ns_plot_ref_t *f = &r->ref[i];
      char lab[160];
      ns_plot_text(lab, sizeof(lab), f->label);
      hline(b, (int)i + 1, f->bytes / 1e6, lab, kRefStyle[f->kind].colour, kRefStyle[f->kind].dash,
            kRefStyle[f->kind].lw, kRefStyle[f->kind].where, kRefStyle[f->kind].below);
    }
    sbf(b, "%s\n", plot);
  }
  sbf(b, "unset multiplot\n");
}

static void util_plot(sb_t *b, const run_ctx_t *c) {
  const ns_plot_run_t *r = c->r;
  preamble(b, "util.png", c->footer, c->footer_lines);
  char name[64], bl[112], lab[96];
  ns_plot_text(name, sizeof(name), r->name);
  ns_plot_text(bl, sizeof(bl), r->bottleneck);
  sbf(b,
      "mx(a,b) = a > b ? a : b\nstats 'timeseries.csv' using 1:4 nooutput\n"
      "YA = mx(STATS_max_y, %.9g) * 1.08\nYA = YA > 0 ? YA : 1\n",
      fin(r->link_gbps));
  if (c->zoom) {  // the zoom: from just below the lowest L2 to just above L1 and the link rate
    sbf(b,
        "stats [%.9g:*] 'timeseries.csv' using 1:3 nooutput\nLO = STATS_min_y\n"
        "stats [%.9g:*] 'timeseries.csv' using 1:4 nooutput\nHI = mx(STATS_max_y, %.9g)\n"
        "PAD = (HI - LO) * 0.15 + HI * 0.002\nZLO = mx(LO - PAD, 0)\nZHI = HI + PAD\n",
        fin(c->zoom_us), fin(c->zoom_us), fin(r->link_gbps));
  }
  sbf(b,
      "set multiplot title \"%s: utilisation of the bottleneck %s, per %.6g us sample\" font "
      "',12'\n"
      "set lmargin 11\nset rmargin 12\nset ylabel 'Gb/s'\nset ytics mirror\n"
      "set key outside top left horizontal samplen 2 font ',9'\n",
      name, bl, fin(r->sample_us));
  snprintf(lab, sizeof(lab), "link rate %.6g Gb/s", fin(r->link_gbps));
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    panel(b, c, p == 0);
    sbf(b, p == 0 ? "Y = YA\nset yrange [0:Y]\n" : "Y = ZHI\nYL = ZLO\nset yrange [ZLO:ZHI]\n");
    clear_lines(b);
    hline(b, 1, r->link_gbps, lab, "#000000", "1", 1.5, "right", true);
    sbf(b,
        "plot 'timeseries.csv' using %s:3 with lines lw 1.5 lc rgb '#1f77b4' title 'L2 (frame "
        "bytes)', '' using %s:4 with lines lw 1 lc rgb '#ff7f0e' title 'L1 (+ preamble, SFD, "
        "IFG)'\n",
        c->x, c->x);
  }
  sbf(b, "unset multiplot\n");
}

// The gnuplot expression of a QP's activity, or "" when it counts for the whole run.
static void active(char *dst, size_t n, const ns_plot_flow_t *f) {
  if (f->start_us > 0 && f->end_us >= 0) {
    snprintf(dst, n, "$1 >= %.9g && $1 <= %.9g", fin(f->start_us), fin(f->end_us));
  } else if (f->start_us > 0) {
    snprintf(dst, n, "$1 >= %.9g", fin(f->start_us));
  } else if (f->end_us >= 0) {
    snprintf(dst, n, "$1 <= %.9g", fin(f->end_us));
  } else {
    dst[0] = '\0';
  }
}

// The sum of group g's active QPs in Gb/s; `none` when none is active (NaN: a gap; 0 for
// the range statistics).
static void group_sum(sb_t *b, const ns_plot_run_t *r, uint32_t g, const char *none) {
  sbf(b, "(n=0, s=0");
  for (uint32_t i = 0; i < r->nflows; i++) {
    const ns_plot_flow_t *f = &r->flow[i];
    if (f->group != g) {
      continue;
    }
    char a[96];
    active(a, sizeof(a), f);
    if (a[0] == '\0') {
      sbf(b, ", n=n+1, s=s+column(%u)", f->col);
    } else {
      sbf(b, ", (%s ? (n=n+1, s=s+column(%u)) : 0)", a, f->col);
    }
  }
  sbf(b, ", n > 0 ? s/1000 : %s)", none);
}

static void rate_lines(sb_t *b, const ns_plot_run_t *r) {
  char lab[96];
  if (r->nic_gbps > 0) {
    snprintf(lab, sizeof(lab), "NIC line rate %.6g Gb/s", fin(r->nic_gbps));
    hline(b, 1, r->nic_gbps, lab, "#000000", "1", 1.5, "right", true);
  }
  if (r->fair_gbps > 0) {
    snprintf(lab, sizeof(lab), "fair share %.4g Gb/s (bottleneck / %u)", fin(r->fair_gbps),
             r->ngroups);
    hline(b, 2, r->fair_gbps, lab, "#2ca02c", "2", 1.5, "left", false);
  }
}

// Per group: what it sent on its own link (solid; Gb/s of frame bytes, L2, the mean over
// bins of one base RTT or 10 samples, whichever is longer: a link that PFC pauses and
// resumes alternates between 0 and line rate from one sample to the next, which drawn raw
// is a solid block of colour) and the sum of its QPs' DCQCN Rc (dashed, every sample: the
// rate DCQCN allows). The y range follows what was sent and
// the NIC line rate, not the Rc sums: every QP starts at the line rate, so the sum of a
// client's Rc is QPs x line rate until the first CNP; above the top, DCQCN is not what
// limits the client, which a label then says.
static void rates_plot(sb_t *b, const run_ctx_t *c) {
  const ns_plot_run_t *r = c->r;
  preamble(b, "rates.png", c->footer, c->footer_lines);
  char name[64], gw[16];
  ns_plot_text(name, sizeof(name), r->name);
  ns_plot_text(gw, sizeof(gw), r->group_word);
  bool sent = false;
  for (uint32_t g = 0; g < r->ngroups; g++) {
    sent = sent || r->group_link_col[g] > 0;
  }
  // the largest Rc sum (R) and the largest sent rate (S) over the whole run (A) and after
  // the zoom start (Z), one pass each
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    const char *pn = p == 0 ? "A" : "Z";
    char range[64] = "";
    if (p == 1) {
      snprintf(range, sizeof(range), "[%.9g:*] ", fin(c->zoom_us));
    }
    sbf(b, "stats %s'timeseries.csv' using 1:(m=0", range);
    for (uint32_t g = 0; g < r->ngroups; g++) {
      sbf(b, ", v=");
      group_sum(b, r, g, "0");
      sbf(b, ", m = v > m ? v : m");
    }
    sbf(b, ", m) nooutput\nR%s = STATS_max_y\nS%s = 0\n", pn, pn);
    if (sent) {
      sbf(b, "stats %s'timeseries.csv' using 1:(m=0", range);
      for (uint32_t g = 0; g < r->ngroups; g++) {
        if (r->group_link_col[g] > 0) {
          sbf(b, ", v=column(%u), m = v > m ? v : m", r->group_link_col[g]);
        }
      }
      sbf(b, ", m) nooutput\nS%s = STATS_max_y\n", pn);
    }
  }
  sbf(b,
      "mx(a,b) = a > b ? a : b\nmn(a,b) = a < b ? a : b\nNIC = %.9g\nFAIR = %.9g\nW = %.9g\n"
      "WA = %.9g\n",
      fin(r->nic_gbps), fin(r->fair_gbps), fin(c->w_us), fin(c->wa_us));
  // with the sent rates drawn, an Rc sum counts up to the NIC line rate; without, in full
  const char *rcap = sent && r->nic_gbps > 0 ? "mn(%s, NIC)" : "%s";
  char ra[32], rz[32];
  snprintf(ra, sizeof(ra), rcap, "RA");
  snprintf(rz, sizeof(rz), rcap, "RZ");
  sbf(b, "YA = mx(mx(SA, %s), mx(NIC, FAIR)) * 1.08\nYA = YA > 0 ? YA : 1\n", ra);
  if (c->zoom) {
    sbf(b, "YZ = mx(mx(SZ, %s), FAIR) * 1.15\nYZ = YZ > 0 ? YZ : YA\n", rz);
  }
  if (sent) {
    sbf(b,
        "set multiplot title \"%s: per %s, the rate sent on its link (solid, L2) and the sum of "
        "its QPs' DCQCN rate Rc (dashed)\" font ',12'\n",
        name, gw);
  } else {
    sbf(b,
        "set multiplot title \"%s: DCQCN rate per %s (sum of the current rate Rc of its QPs)\" "
        "font ',12'\n",
        name, gw);
  }
  sbf(b,
      "set lmargin 11\nset rmargin 12\nset ylabel 'Gb/s'\nset ytics mirror\n"
      "set key outside top left horizontal samplen 2 font ',9'\n");
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    panel(b, c, p == 0);
    whole_bins(b, c, p == 0);
    sbf(b, "Y = %s\nR = %s\nset yrange [0:Y]\n", p == 0 ? "YA" : "YZ", p == 0 ? "RA" : "RZ");
    clear_lines(b);
    rate_lines(b, r);
    if (sent) {  // an Rc sum off the top: say so, and what the top is
      char top[64];
      if (p == 0 && r->nic_gbps > 0) {
        snprintf(top, sizeof(top), "the NIC line rate %.4g Gb/s", fin(r->nic_gbps));
      } else {
        snprintf(top, sizeof(top), "this window");
      }
      sbf(b,
          "if (R > Y) {\n  set label 3 \"dashed above the top: the sum of Rc exceeds %s, DCQCN "
          "is not the limit there\" at graph 0.5, graph 0.96 center tc rgb '#404040' boxed "
          "front font ',9'\n}\n",
          top);
    }
    // the whole-run panel of a long run: every series as the mean per WA (about 200 bins)
    bool coarse = p == 0 && c->wa_us > c->w_us;
    const char *wv = coarse ? "WA" : "W";
    char rcx[96];
    if (p == 0 && c->wa_us > c->w_us) {
      snprintf(rcx, sizeof(rcx), "((floor($1/WA) + 0.5) * WA / %.9g)", c->div);
    } else {
      snprintf(rcx, sizeof(rcx), "%s", c->x);
    }
    const char *rcs = p == 0 && c->wa_us > c->w_us ? " smooth unique" : "";
    sbf(b, "plot");
    for (uint32_t g = 0; g < r->ngroups; g++) {
      uint32_t nq = 0;
      for (uint32_t i = 0; i < r->nflows; i++) {
        nq += r->flow[i].group == g;
      }
      char gname[64];
      ns_plot_text(gname, sizeof(gname), r->group[g]);
      const char *col = kColours[g % 10];
      if (r->group_link_col[g] > 0) {
        sbf(b,
            "%s 'timeseries.csv' using ((floor($1/%s) + 0.5) * %s / %.9g):(column(%u)) smooth "
            "unique with lines lw 1.8 lc rgb '%s' dt 1 title '%s (%u QP%s)', '' using %s:",
            g ? "," : "", wv, wv, c->div, r->group_link_col[g], col, gname, nq, nq == 1 ? "" : "s",
            rcx);
        group_sum(b, r, g, "NaN");
        sbf(b, "%s with lines lw 1 lc rgb '%s' dt 2 notitle", rcs, col);
      } else {
        sbf(b, "%s 'timeseries.csv' using %s:", g ? "," : "", rcx);
        group_sum(b, r, g, "NaN");
        sbf(b, "%s with lines lw 1.5 lc rgb '%s' dt %s title '%s (%u QP%s%s)'", rcs, col,
            sent ? "2" : "1", gname, nq, nq == 1 ? "" : "s", sent ? ", Rc only" : "");
      }
    }
    if (sent) {
      sbf(b,
          ", NaN with lines lw 1.8 lc rgb '#000000' dt 1 title 'solid: sent (L2), mean per %s', "
          "NaN with lines lw 1 lc rgb '#000000' dt 2 title 'dashed: sum of Rc, per sample'",
          c->binv);
    }
    sbf(b, "\n");
  }
  sbf(b, "unset multiplot\n");
}

static void rates_qp_plot(sb_t *b, const run_ctx_t *c) {
  const ns_plot_run_t *r = c->r;
  preamble(b, "rates-qp.png", c->footer, c->footer_lines);
  char name[64], gw[16];
  ns_plot_text(name, sizeof(name), r->name);
  ns_plot_text(gw, sizeof(gw), r->group_word);
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    if (p == 0) {
      sbf(b, "stats 'timeseries.csv' using 1:(m=0");
    } else {
      sbf(b, "stats [%.9g:*] 'timeseries.csv' using 1:(m=0", fin(c->zoom_us));
    }
    for (uint32_t i = 0; i < r->nflows; i++) {
      char a[96];
      active(a, sizeof(a), &r->flow[i]);
      sbf(b, ", v=(%s ? column(%u)/1000 : 0), m = v > m ? v : m", a[0] ? a : "1", r->flow[i].col);
    }
    sbf(b, ", m) nooutput\n%s = STATS_max_y\n", p == 0 ? "YA" : "YZ");
  }
  sbf(b, "mx(a,b) = a > b ? a : b\nYA = mx(YA, %.9g) * 1.05\nYA = YA > 0 ? YA : 1\n",
      fin(r->nic_gbps));
  if (c->zoom) {
    sbf(b, "YZ = YZ * 1.15\nYZ = YZ > 0 ? YZ : YA\n");
  }
  sbf(b,
      "set multiplot title \"%s: DCQCN current rate Rc of each QP (%u QPs%s), coloured by %s\" "
      "font ',12'\nset lmargin 11\nset rmargin 12\nset ylabel 'Gb/s'\nset ytics mirror\n"
      "set key outside top left horizontal samplen 2 font ',9'\n",
      name, r->nflows, r->flows_left_out ? " drawn" : "", gw);
  for (int p = 0; p < (c->zoom ? 2 : 1); p++) {
    panel(b, c, p == 0);
    whole_bins(b, c, p == 0);
    sbf(b, "Y = %s\nset yrange [0:Y]\n", p == 0 ? "YA" : "YZ");
    clear_lines(b);
    if (r->nic_gbps > 0) {
      char lab[96];
      snprintf(lab, sizeof(lab), "NIC line rate %.6g Gb/s", fin(r->nic_gbps));
      hline(b, 1, r->nic_gbps, lab, "#000000", "1", 1.5, "right", true);
    }
    sbf(b, "plot");
    bool titled[NS_PLOT_MAX_GROUPS] = {false};
    for (uint32_t i = 0; i < r->nflows; i++) {
      const ns_plot_flow_t *f = &r->flow[i];
      char a[96];
      active(a, sizeof(a), f);
      if (p == 0 && c->wa_us > c->w_us) {  // a long run: the mean per WA
        sbf(b,
            "%s 'timeseries.csv' using ((floor($1/%.9g) + 0.5) * %.9g / %.9g):(%s ? "
            "column(%u)/1000 : NaN) smooth unique with lines lw 0.8 lc rgb '%s' dt %u",
            i ? "," : "", fin(c->wa_us), fin(c->wa_us), c->div, a[0] ? a : "1", f->col,
            kColours[f->group % 10], 1 + f->group / 10);
      } else {
        sbf(b,
            "%s 'timeseries.csv' using %s:(%s ? column(%u)/1000 : NaN) with lines lw 0.8 "
            "lc rgb '%s' dt %u",
            i ? "," : "", c->x, a[0] ? a : "1", f->col, kColours[f->group % 10], 1 + f->group / 10);
      }
      if (f->group < NS_PLOT_MAX_GROUPS && !titled[f->group]) {
        char gname[64];
        ns_plot_text(gname, sizeof(gname), r->group[f->group]);
        sbf(b, " title '%s'", gname);
        titled[f->group] = true;
      } else {
        sbf(b, " notitle");
      }
    }
    sbf(b, "\n");
  }
  sbf(b, "unset multiplot\n");
}

int ns_plot_write_run(const char *dir, const ns_plot_run_t *r, char *names, size_t names_len) {
  run_ctx_t c = {.r = r};
  time_unit(r->end_us, &c.div, &c.tu);
  snprintf(c.x, sizeof(c.x), "($1/%.9g)", c.div);
  // rate bins: one base RTT or 10 samples, whichever is longer, a whole number of samples
  double smp = r->sample_us > 0 ? r->sample_us : 1;
  double want = r->rtt_us > 10 * smp ? r->rtt_us : 10 * smp;
  c.w_us = smp * ceil(want / smp - 1e-9);
  double nbins = r->end_us / c.w_us;
  c.wa_us = nbins > WHOLE_MAX_BINS ? c.w_us * ceil(nbins / DETAIL_BINS - 1e-9) : c.w_us;
  length_text(c.binv, sizeof(c.binv), c.w_us);
  length_text(c.binva, sizeof(c.binva), c.wa_us);
  // a zoomed panel only when the window after the zoom start holds samples to draw; at most
  // DETAIL_BINS rate bins long (the end of the run), so that a limit cycle stays readable
  c.zoom_us = r->zoom_us;
  snprintf(c.zoom_why, sizeof(c.zoom_why), "%s", r->zoom_why);
  double detail = DETAIL_BINS * c.w_us;
  if (r->zoom_us > 0 && r->end_us - r->zoom_us > detail) {
    c.zoom_us = r->end_us - detail;
    snprintf(c.zoom_why, sizeof(c.zoom_why), "detail: the last %u rate bins of %s, later than %s",
             DETAIL_BINS, c.binv, r->zoom_why);
  }
  c.zoom = c.zoom_us > 0 && r->sample_us > 0 && r->end_us - c.zoom_us >= 10 * r->sample_us;
  c.footer_lines = footer_text(c.footer, sizeof(c.footer), r->footer, r->repro);
  c.bottom = footer_top(c.footer_lines);
  sb_t b;
  if (!sb_init(&b)) {
    return -1;
  }
  sbf(&b,
      "# generated by xtm-netsim (sim/netsim/plot.c); run in this directory: gnuplot plots.gp\n"
      "# conventions: docs/netsim.md 5.1\n");
  queue_plot(&b, &c);
  util_plot(&b, &c);
  snprintf(names, names_len, "queue.png util.png");
  if (r->nflows > 0 && r->ngroups > 0) {
    rates_plot(&b, &c);
    rates_qp_plot(&b, &c);
    size_t k = strlen(names);
    snprintf(names + k, names_len - k, " rates.png rates-qp.png");
  }
  int rc = b.oom ? -1 : ns_plot_run(dir, "plots.gp", b.p);
  free(b.p);
  return rc;
}

// ------------------------------------------------------------------ one sweep

int ns_plot_write_sweep(const char *dir, const ns_plot_sweep_t *s) {
  return ns_plot_write_sweep_file(dir, s, "report.gp");
}

int ns_plot_write_sweep_file(const char *dir, const ns_plot_sweep_t *s, const char *script) {
  sb_t b;
  if (!sb_init(&b)) {
    return -1;
  }
  char footer[4096], fam[64], xl[96], sk[64];
  int flines = footer_text(footer, sizeof(footer), s->footer, s->repro);
  // the bottom margin (character lines of 10 pt, about 15 px): the x label, the rotated
  // tics and the footer
  int bmargin = 5 + (int)ceil(flines * FOOTER_LINE_PX / 15.0);
  ns_plot_text(fam, sizeof(fam), s->family);
  ns_plot_text(xl, sizeof(xl), s->xlabel != NULL ? s->xlabel : "");
  ns_plot_text(sk, sizeof(sk), s->series_key != NULL ? s->series_key : "");
  sbf(&b,
      "# generated by xtm-netsim (sim/netsim/plot.c); run in this directory: gnuplot report.gp\n"
      "# conventions: docs/netsim.md 5.1\n");
  for (uint32_t k = 0; k < s->nkpi; k++) {
    const ns_plot_kpi_t *p = &s->kpi[k];
    char out[80], what[96], unit[32];
    double div = 1;
    snprintf(out, sizeof(out), "%s.png", p->file);
    ns_plot_text(what, sizeof(what), p->what);
    const char *fmt = "%g";
    switch (p->kind) {
      case kNsUnitTimeUs: {
        const char *tu;
        time_unit(p->max, &div, &tu);
        snprintf(unit, sizeof(unit), "%s", tu);
        break;
      }
      case kNsUnitBytes:
        div = p->max >= 2e9 ? 1e9 : p->max >= 2e6 ? 1e6 : p->max >= 2e3 ? 1e3 : 1;
        snprintf(unit, sizeof(unit), "%s",
                 div == 1e9   ? "GB"
                 : div == 1e6 ? "MB"
                 : div == 1e3 ? "kB"
                              : "B");
        break;
      case kNsUnitCount:  // SI-prefixed tics (12.5k) once plain ones would be long
        fmt = p->max >= 1e4 ? "%.1s%c" : "%g";
        snprintf(unit, sizeof(unit), "count");
        break;
      default:
        ns_plot_text(unit, sizeof(unit), p->unit != NULL ? p->unit : "");
        break;
    }
    // preamble() writes the footer label; report plots have one panel
    preamble(&b, out, footer, flines);
    sbf(&b,
        "set datafile columnheaders\nset format y '%s'\nset bmargin %d\nset tmargin %d\n"
        "set lmargin 11\nset rmargin 6\nset title \"%s: %s\" font ',12'\nset ylabel '%s (%s)'\n"
        "set yrange [0:%s]\nD = %.9g\n",
        fmt, bmargin, s->bars ? 4 : 6, fam, what, what, unit, p->max > 0 ? "*" : "1", fin(div));
    if (s->ranges) {  // a box from min to max per row of ranges.csv, its label the setup
      sbf(&b,
          "unset key\nset xlabel '%s'\nset xtics rotate by -30 nomirror font ',8'\n"
          "set style fill solid 0.5 border -1\nset boxwidth 0.6\nset offsets 0.5, 0.5, 0, 0\n"
          "plot 'ranges.csv' using 0:(column(%u)/D):(column(%u)/D):(column(%u)/D):"
          "(column(%u)/D):xtic(1) with candlesticks lc rgb '#1f77b4' notitle, '' using "
          "0:(column(%u)/D):(sprintf('%%.4g', column(%u)/D)) with labels offset 0,0.7 font ',7' "
          "notitle\n",
          xl, p->col, p->col, p->col_hi, p->col_hi, p->col_hi, p->col_hi);
    } else if (s->bars) {
      sbf(&b,
          "unset key\nset xlabel '%s'\nset xtics rotate by -30 nomirror font ',9'\n"
          "set style fill solid 0.7 border -1\nset boxwidth 0.6\nset offsets 0.5, 0.5, 0, 0\n"
          "plot 'results.csv' using 0:(column(%u)/D):xtic(1) with boxes lc rgb '#1f77b4' "
          "notitle, '' using 0:(column(%u)/D):(sprintf('%%.4g', column(%u)/D)) with labels "
          "offset 0,0.7 font ',8' notitle\n",
          xl, p->col, p->col, p->col);
    } else {
      // the key between the title and the data ("outside top" would put it above the title)
      sbf(&b,
          "set key at graph 0.5, graph 1.01 center bottom horizontal samplen 2 font ',9'\n"
          "set title offset 0,1.6\nset xlabel '%s'\n",
          xl);
      char xexpr[4096];
      if (s->xnumeric) {
        snprintf(xexpr, sizeof(xexpr), "column(%u)", s->xcol);
        sbf(&b, "set offsets graph 0.04, graph 0.04, 0, 0\n");  // no point on the border
      } else {  // a text axis: its values in order at 0, 1, 2, ...
        sbf(&b, "set xtics (");
        int n = 0;
        for (uint32_t v = 0; v < s->nxvals; v++) {
          char vt[128];
          ns_plot_text(vt, sizeof(vt), s->xvals[v]);
          sbf(&b, "%s'%s' %u", v ? ", " : "", vt, v);
          if (n >= 0 && (size_t)n < sizeof(xexpr)) {
            n += snprintf(xexpr + n, sizeof(xexpr) - (size_t)n,
                          "strcol(%u) eq '%s' ? %u : ", s->xcol, vt, v);
          }
        }
        if (n >= 0 && (size_t)n < sizeof(xexpr)) {
          snprintf(xexpr + n, sizeof(xexpr) - (size_t)n, "NaN");
        }
        sbf(&b, ")\nset offsets 0.3, 0.3, 0, 0\n");
      }
      sbf(&b, "plot");
      for (uint32_t v = 0; v < s->nseries; v++) {
        char vt[128];
        ns_plot_text(vt, sizeof(vt), s->series[v]);
        // a series axis after the first (two axes): results.csv lists the runs first-axis
        // major, so series v's rows are every nseries-th from row v; selected by `every`
        // so that the other series' rows do not break the line (gnuplot breaks a line at
        // an undefined point), and still by value, so a row out of place is not drawn
        char every[48] = "";
        if (s->series_col > 1) {
          snprintf(every, sizeof(every), " every %u::%u", s->nseries, v);
        }
        sbf(&b,
            "%s 'results.csv'%s using (strcol(%u) eq '%s' ? (%s) : NaN):(column(%u)/D) "
            "with linespoints lw 1.5 pt 7 ps 0.8 lc rgb '%s' title '%s=%s'",
            v ? "," : "", every, s->series_col > 1 ? s->series_col : 1, vt, xexpr, p->col,
            kColours[v % 10], sk, vt);
      }
      sbf(&b, "\n");
    }
  }
  int rc = b.oom ? -1 : ns_plot_run(dir, script, b.p);
  free(b.p);
  return rc;
}
