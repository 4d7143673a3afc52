// SPDX-License-Identifier: Apache-2.0
//
// Plots of xtm-netsim (docs/netsim.md 5.1 and 6), in one place so that their look can be
// reworked without touching the simulator. gnuplot runs without a shell: fork and exec with
// its working directory set to the output directory, the script and every data and image
// file named relative to it, so no path and no scenario text ever reaches a command line or
// a gnuplot string unchecked (every text passes through ns_plot_text).
//
// The caller (main.c) describes what to draw: which columns of timeseries.csv or
// results.csv, the reference values read from the programmed router, the flows and their
// groups. This file turns that into one gnuplot script per run (plots.gp) or per sweep
// (report.gp) with the conventions of docs/netsim.md 5.1: time in us, ms or s as fits the
// run, queue in MB with a second axis in RTT, labelled reference lines, a whole-run panel
// and a panel zoomed on the window after warm-up, a compact key outside the data, a title
// that fits and a footer with version, scenario, seed and overrides.

#ifndef XTM_SIM_NETSIM_PLOT_H_
#define XTM_SIM_NETSIM_PLOT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NS_PLOT_W 1100  // every PNG: width x height in pixels
#define NS_PLOT_H 850
#define NS_PLOT_MAX_REFS 8
#define NS_PLOT_MAX_FLOWS 64
#define NS_PLOT_MAX_GROUPS 64
#define NS_PLOT_TEXT 200

// Copies `src` into `dst` (size n) keeping only characters that are inert inside a gnuplot
// double-quoted string (A-Z a-z 0-9 space . _ - = , : + / ( ) % >); every other byte
// becomes '_'. Apart from '>' (kept for link names such as "A->B") these are also inert in
// a shell word, though no shell is ever used.
void ns_plot_text(char *dst, size_t n, const char *src);

// Writes `script` to DIR/NAME and runs `gnuplot NAME` in DIR, its stderr to DIR/gnuplot.log.
// Returns 0 when gnuplot exited 0, -1 when the script could not be written, 1 when gnuplot
// could not run or failed (see gnuplot.log). Never uses a shell.
int ns_plot_run(const char *dir, const char *name, const char *script);

// ------------------------------------------------------------------ one run (plots.gp)

typedef enum ns_plot_ref_kind {
  kNsRefKmin = 0,   // ECN (or drop) profile: lowest fill with a non-zero probability
  kNsRefKmax = 1,   // lowest fill with probability 100 %
  kNsRefLimit = 2,  // the VOQ limit (Q_LIMIT_CELLS)
  kNsRefPool = 3,   // the shared pool, when below the VOQ limit
  kNsRefXoff = 4,   // static XOFF threshold of the lossless ingress PGs
  kNsRefXon = 5,
  kNsRefCount = 6,
} ns_plot_ref_kind_t;

// A horizontal line of the queue plot at `bytes`, labelled `label` (plain text).
typedef struct ns_plot_ref {
  ns_plot_ref_kind_t kind;
  double bytes;
  char label[160];
} ns_plot_ref_t;

// A QP whose DCQCN current rate is column `col` (1-based) of timeseries.csv: it counts from
// start_us to end_us (end_us < 0: to the end of the run); outside, it sends nothing and is
// left out of its group's sum and of the per-QP plot.
typedef struct ns_plot_flow {
  uint32_t col;
  uint32_t group;  // index into ns_plot_run_t.group
  double start_us, end_us;
} ns_plot_flow_t;

typedef struct ns_plot_run {
  char name[64];               // scenario name: the titles
  char footer[1400];           // version, scenario, seed, overrides (plain text, wrapped here)
  char repro[1400];            // the command that reproduces the run (the footer's last line)
  double end_us;               // simulated length
  double sample_us;            // time-series period
  double zoom_us;              // the zoomed panels start here (0: whole run only)
  char zoom_why[64];           // why there, e.g. "warmup_s"
  char bottleneck[112];        // bottleneck link name
  double link_gbps;            // its rate
  double rtt_us;               // base RTT
  double bdp_bytes;            // link rate x base RTT: the RTT axis (0: none)
  char queue[112];             // the watched VOQ, e.g. "dci port 4 queue 3"
  uint32_t pg_col;             // largest lossless ingress PG, bytes (0: no lossless PG)
  uint32_t xoff_col, xon_col;  // that PG's thresholds, bytes, drawn when they are not constant
  char pfc_note[96];           // how the thresholds are set, e.g. "dynamic: free pool / 2^3"
  ns_plot_ref_t ref[NS_PLOT_MAX_REFS];
  uint32_t nref;
  char group[NS_PLOT_MAX_GROUPS][48];  // the rate plots' lines (clients)
  uint32_t ngroups;
  char group_word[16];  // what a group is, e.g. "client"
  double nic_gbps;      // the groups' NIC line rate (0: they differ)
  double fair_gbps;     // the bottleneck's fair share per group (0: not meaningful)
  uint32_t group_link_col[NS_PLOT_MAX_GROUPS];  // Gb/s the group sent on its own link (0: none)
  ns_plot_flow_t flow[NS_PLOT_MAX_FLOWS];
  uint32_t nflows;          // QPs with DCQCN in the CSV (0: no rate plots)
  uint32_t flows_left_out;  // QPs of the run not drawn (no DCQCN, or beyond the CSV's 64)
} ns_plot_run_t;

// Writes DIR/plots.gp and runs it: queue.png, util.png and, with nflows > 0, rates.png
// (per group: what it sent on its own link, solid, and the sum of its QPs' Rc, dashed) and
// rates-qp.png (every QP, coloured by group). Returns as ns_plot_run. `names` receives the
// PNG names written, space-separated.
int ns_plot_write_run(const char *dir, const ns_plot_run_t *r, char *names, size_t names_len);

// ------------------------------------------------------------------ one sweep (report.gp)

typedef enum ns_plot_unit {
  kNsUnitPlain = 0,   // as in the table (Gb/s, RTT, an index)
  kNsUnitTimeUs = 1,  // microseconds: drawn in us, ms or s as fits the largest value
  kNsUnitBytes = 2,   // bytes: drawn in kB, MB or GB as fits
  kNsUnitCount = 3,   // events: SI-prefixed tics (12k, 3.4M)
} ns_plot_unit_t;

typedef struct ns_plot_kpi {
  const char *file;  // PNG name without .png
  const char *what;  // what it is, without unit ("victim FCT")
  const char *unit;  // unit of kNsUnitPlain values ("Gb/s"), else ignored
  ns_plot_unit_t kind;
  uint32_t col;     // 1-based column in results.csv (ranges: the minimum's in ranges.csv)
  uint32_t col_hi;  // ranges: the maximum's column
  double max;       // largest value over the runs (chooses the unit)
} ns_plot_kpi_t;

typedef struct ns_plot_sweep {
  char family[64];
  char footer[1400];   // version, family, scenario, runs, fixed settings, overrides, seeds
  char repro[1400];    // the command that reproduces the sweep
  bool bars;           // one bar per row (a variant family, or a single axis)
  bool ranges;         // bars from ranges.csv: one bar from min (col) to max (col_hi) per row
  const char *xlabel;  // bars: what a bar is; lines: the x axis
  uint32_t xcol;       // lines: column of the x axis
  bool xnumeric;       // lines: x values are numbers (else xvals, in order, as tics)
  const char *xvals[32];
  uint32_t nxvals;
  const char *series_key;  // lines: one line per value of this axis (column series_col)
  uint32_t series_col;     // lines: 1-based column of the series axis in results.csv
  const char *series[32];
  uint32_t nseries;
  ns_plot_kpi_t kpi[12];
  uint32_t nkpi;
} ns_plot_sweep_t;

// Writes DIR/report.gp and runs it: one PNG per KPI. Returns as ns_plot_run.
int ns_plot_write_sweep(const char *dir, const ns_plot_sweep_t *s);
// The same into DIR/<script> (the sweep's range plots go to ranges.gp).
int ns_plot_write_sweep_file(const char *dir, const ns_plot_sweep_t *s, const char *script);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_SIM_NETSIM_PLOT_H_
