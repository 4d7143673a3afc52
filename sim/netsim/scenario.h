// SPDX-License-Identifier: Apache-2.0
//
// Scenario files (INI, read with libinih) and the topology builders of the scenario
// families (docs/netsim.md section 4). A scenario declares its family and every key with
// its default; `--set key=value` may only override a declared key.

#ifndef XTM_SIM_NETSIM_SCENARIO_H_
#define XTM_SIM_NETSIM_SCENARIO_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/netsim/netsim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_MAX_KEYS 64
#define NS_MAX_CIRCUITS 16  // policed-circuits: circuits of one run
#define NS_KEY_LEN 48
#define NS_VAL_LEN 256
#define NS_ERR_LEN 1024
#define NS_MAX_LINE 198                   // characters per line (libinih's 200-byte buffer)
#define NS_MAX_SCENARIO_BYTES (1u << 20)  // a scenario file (and a configuration it names)
#define NS_MAX_ROWS 1000000u              // rows of timeseries.csv and intervals.csv per run
#define NS_CSV_MAX_FLOWS 64u              // flow columns of timeseries.csv (the first 64 flows)
#define NS_CSV_MAX_LINKS 64u              // link columns of timeseries.csv (the first 64 links)
#define NS_MAX_CSV_VALUES 20000000u       // rows x columns of timeseries.csv (about 200 MB)

typedef struct ns_kv {
  char key[NS_KEY_LEN];
  char val[NS_VAL_LEN];
  int line;         // line in the scenario file (0: not from the file)
  bool overridden;  // set with --set
} ns_kv_t;

typedef struct ns_scenario {
  char path[NS_VAL_LEN];
  char name[NS_KEY_LEN];
  char family[NS_KEY_LEN];
  char description[NS_VAL_LEN];
  uint32_t nkv;
  ns_kv_t kv[NS_MAX_KEYS];
} ns_scenario_t;

// Reads a scenario file (at most NS_MAX_SCENARIO_BYTES, lines of at most NS_MAX_LINE
// characters, no NUL). On failure returns false with "file:line: message" in err.
NS_WARN_UNUSED bool ns_scenario_load(const char *path, ns_scenario_t *sc, char *err,
                                     size_t err_len);
// The same from a text in memory (`path` names it in messages; the fuzz harness uses it).
NS_WARN_UNUSED bool ns_scenario_load_text(const char *path, const char *text, size_t len,
                                          ns_scenario_t *sc, char *err, size_t err_len);
// Reads at most `max` bytes of a regular file (or stream); NULL with a message when it is a
// directory, unreadable or larger. The caller frees the text (NUL-terminated, *len bytes).
char *ns_read_bounded(const char *path, size_t max, size_t *len, char *err, size_t err_len);
// A scenario name or family: 1..NS_KEY_LEN-1 of A-Z a-z 0-9 . _ -, not starting with . or -
// (it names output directories and appears in plot titles).
bool ns_name_ok(const char *s);
// Applies "key=value"; refuses unknown keys.
NS_WARN_UNUSED bool ns_scenario_set(ns_scenario_t *sc, const char *kv, char *err, size_t err_len);
const char *ns_scenario_get(const ns_scenario_t *sc, const char *key);

// What a built scenario measures (filled by the builder).
typedef struct ns_measure {
  uint32_t bottleneck_router;  // node
  uint32_t bottleneck_port;
  uint32_t bottleneck_link;
  double rtt_us;    // the scenario's base round trip time
  uint64_t end_ps;  // simulated duration
  uint64_t seed;
  uint64_t sample_ps;
  uint32_t victim_flow;      // pfc-victim: the victim; else UINT32_MAX
  uint64_t measure_from_ps;  // start of the latency/throughput window (roce-lab phases)
  uint64_t ival_ps;          // per-interval KPIs (interval_s)
  uint64_t warmup_ps;        // warmup_s
  uint64_t steady_from_ps;   // start of the steady-state window (an interval boundary)
  bool write_failed;         // building could not write an output (exit 2, not 1)
  // policed-circuits (docs/netsim.md 4.5): the circuits are the flow groups c0, c1, ...
  uint32_t ncirc;
  double circ_bps[NS_MAX_CIRCUITS];        // each circuit's rate (the policer's bandwidth-limit)
  double circ_cap_bps[NS_MAX_CIRCUITS];    // its bottleneck capacity in payload bits/s
  double circ_rtt_us[NS_MAX_CIRCUITS];     // its base RTT
  uint32_t circ_rx_link[NS_MAX_CIRCUITS];  // the link into its receiver (random loss there)
  uint64_t circ_bytes;                     // file bytes per circuit (striped over its flows)
  char phase[NS_KEY_LEN];
  char setup[1024];     // the set-up choices of this run, for the summary
  char warnings[1024];  // warnings of the build, one a line (xtm-netsim prints them)
} ns_measure_t;

// Builds the simulation of a loaded scenario: validates every key (an impossible set-up is
// refused with a message naming the key), creates nodes, links and flows, and programs
// every router from its Junos-style configuration and every NIC's DCQCN from the same
// configuration's dcqcn block. `outdir` (may be NULL) receives the generated configurations.
NS_WARN_UNUSED bool ns_scenario_build(const ns_scenario_t *sc, ns_sim_t *s, ns_measure_t *m,
                                      const char *outdir, char *err, size_t err_len);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_SIM_NETSIM_SCENARIO_H_
