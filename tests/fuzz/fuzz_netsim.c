// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer harness: the netsim scenario reader (INI through libinih, names, keys, values)
// and the scenario builder (every family's validation, the generated router configurations,
// the topology), on arbitrary text. The input is a scenario file, optionally followed by a
// line "%%" and one `--set key=value` per line. It must never crash, overrun (ASan), hang or
// leak; every refusal must come with a message; a built scenario must be self-consistent.
// A roce-lab scenario naming another configuration file than the example is not built (the
// harness reads no file the input chooses). The input is read as sim/scenarios/fuzz.ini, so
// that a `config` relative to the scenario file (sim/scenarios/roce-lab.ini's) names the
// example as it does there.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/netsim/netsim.h"
#include "sim/netsim/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) {
    return 0;
  }
  char *text = malloc(size + 1);
  if (text == NULL) {
    return 0;
  }
  memcpy(text, data, size);
  text[size] = '\0';
  size_t len = size;
  char *sets = NULL;
  char *sep = strstr(text, "\n%%\n");
  if (sep != NULL) {
    *sep = '\0';
    len = (size_t)(sep - text);
    sets = sep + 4;
  }
  static ns_scenario_t sc;
  char err[NS_ERR_LEN];
  err[0] = '\0';
  if (!ns_scenario_load_text("sim/scenarios/fuzz.ini", text, len, &sc, err, sizeof(err))) {
    if (err[0] == '\0' || memchr(err, '\0', sizeof(err)) == NULL) abort();
    free(text);
    return 0;
  }
  if (!ns_name_ok(sc.name) || sc.nkv > NS_MAX_KEYS) abort();
  for (char *l = sets; l != NULL && *l != '\0';) {
    char *nl = strchr(l, '\n');
    if (nl != NULL) *nl = '\0';
    err[0] = '\0';
    if (!ns_scenario_set(&sc, l, err, sizeof(err)) && err[0] == '\0') abort();
    l = nl != NULL ? nl + 1 : NULL;
  }
  const char *conf = ns_scenario_get(&sc, "config");
  if (strcmp(sc.family, "roce-lab") == 0 &&
      (conf == NULL || (strcmp(conf, "../../firmware/examples/roce-lab-6g-ecn.conf") != 0 &&
                        strcmp(conf, "firmware/examples/roce-lab-6g-ecn.conf") != 0))) {
    free(text);
    return 0;
  }
  ns_sim_t s;
  ns_measure_t m;
  if (ns_sim_init(&s) != kNsOk) abort();
  err[0] = '\0';
  if (ns_scenario_build(&sc, &s, &m, NULL, err, sizeof(err))) {
    if (m.bottleneck_link >= s.nlinks || m.bottleneck_router >= s.nnodes || s.nflows == 0) abort();
    if (m.ival_ps == 0 || m.end_ps == 0 || m.end_ps / m.ival_ps > NS_MAX_ROWS) abort();
    if (m.sample_ps > 0 && m.end_ps / m.sample_ps > NS_MAX_ROWS) abort();
  } else if (err[0] == '\0') {
    abort();
  }
  ns_sim_free(&s);
  free(text);
  return 0;
}
