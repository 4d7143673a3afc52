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
#define NS_KEY_LEN 48
#define NS_VAL_LEN 256
#define NS_ERR_LEN 512

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

// Reads a scenario file. On failure returns false with "file:line: message" in err.
NS_WARN_UNUSED bool ns_scenario_load(const char *path, ns_scenario_t *sc, char *err, size_t err_len);
// Applies "key=value"; refuses unknown keys.
NS_WARN_UNUSED bool ns_scenario_set(ns_scenario_t *sc, const char *kv, char *err, size_t err_len);
const char *ns_scenario_get(const ns_scenario_t *sc, const char *key);

// What a built scenario measures (filled by the builder).
typedef struct ns_measure {
  uint32_t bottleneck_router;  // node
  uint32_t bottleneck_port;
  uint32_t bottleneck_link;
  double rtt_us;               // the scenario's base round trip time
  uint64_t end_ps;             // simulated duration
  uint64_t seed;
  uint64_t sample_ps;
  uint32_t victim_flow;        // pfc-victim: the victim; else UINT32_MAX
  uint64_t measure_from_ps;    // start of the latency/throughput window (roce-lab phases)
  char phase[NS_KEY_LEN];
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
