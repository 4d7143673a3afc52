// SPDX-License-Identifier: Apache-2.0
//
// Configuration compiler: a Junos device configuration (curly braces or `set` commands;
// docs/firmware.md section 4 and its compatibility table, section 4.3) -> an xtm_fw_cfg_t
// register image plus a plan (the numbers a person checks, and the map of Junos ports onto
// the model's ports). Host side (uses the C library); the image is what the freestanding
// driver writes. Any error means the image must not be programmed: xtmctl programs nothing
// when nerrors > 0.

#ifndef XTM_FIRMWARE_COS_XTM_COS_H_
#define XTM_FIRMWARE_COS_XTM_COS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/xtm_fw.h"

#ifdef __cplusplus
extern "C" {
#endif

// Distinct messages kept (an identical text at another position is counted, not stored).
#define XTM_COS_MAX_ERRORS 64
#define XTM_COS_MAX_WARNINGS 64
#define XTM_COS_MORE 4  // further positions of a repeated message kept for the note
#define XTM_COS_MSG_LEN 320
#define XTM_COS_NAME_LEN 64
// Input bounds: a larger file, or deeper '{' nesting, is one clear error (no unbounded
// read, no unbounded recursion). A Junos class-of-service stanza is a few kB and 5 levels.
#define XTM_COS_MAX_INPUT_BYTES (4u << 20)
#define XTM_COS_MAX_DEPTH 64u
// Object names (classes, schedulers, profiles, maps, interfaces, ...): at most this many
// printable-ASCII characters, so that the plan never cuts or garbles one.
#define XTM_COS_MAX_NAME (XTM_COS_NAME_LEN - 1)
#define XTM_COS_PER_QUEUE_CAP_BYTES 2500000000ull  // 2.5 GB [tm-domain-specs 1.1]

typedef struct xtm_cos_opts {
  uint64_t clock_hz;  // core clock; 0 = 1 GHz (docs/spec.md section 1)
  // speed of a port the configuration gives none for (Junos takes the optic's native
  // speed, which a configuration does not show); 0 = none: such a port is an error
  uint64_t default_speed_bps;
} xtm_cos_opts_t;

// One model port and the Junos port it stands for (docs/firmware.md section 4.2).
typedef struct xtm_cos_port_plan {
  char name[XTM_COS_NAME_LEN];       // et-0/1/0:2
  char lag[XTM_COS_NAME_LEN];        // its aggregated interface (ae0), else ""
  char cos_iface[XTM_COS_NAME_LEN];  // the class-of-service interface that configures it
  uint32_t port;                     // model port
  uint64_t speed_bps;
  char speed_src[96];  // where the speed comes from
  int speed_line;      // its line (0: a default)
} xtm_cos_port_plan_t;

typedef struct xtm_cos_point {
  uint32_t fill_milli;  // percent x 1000 as written
  uint32_t prob_milli;
  uint32_t fill_q16;
  uint32_t prob_q16;
  uint64_t bytes;     // floor(fill % x limit_bytes)
  uint32_t hw_cells;  // smallest occupancy the hardware treats as reaching the point
} xtm_cos_point_t;

typedef struct xtm_cos_queue_plan {
  char iface[XTM_COS_NAME_LEN];
  char fclass[XTM_COS_NAME_LEN];
  char scheduler[XTM_COS_NAME_LEN];
  char profile[XTM_COS_NAME_LEN];
  uint32_t port;
  uint32_t queue;
  uint32_t voq;
  uint64_t port_rate_bps;
  uint64_t shaping_rate_bps;  // the calculated shaping rate
  uint64_t target_rate_bps;
  const char *target_rule;
  uint32_t target_rate_q16;
  uint64_t temporal_ns;  // 0 unless buffer-size temporal
  uint64_t limit_bytes;
  uint32_t limit_cells;
  bool ecn;
  bool no_loss;
  bool strict;
  const char *mark;  // "tail", "head", "latency" or "none"
  uint64_t latency_ns;
  bool interp;
  uint32_t npoints;
  xtm_cos_point_t points[XTM_FW_NUM_POINTS];
  int pfc_prio;    // -1: none
  bool pfc_known;  // an ingress PG with this priority exists
  uint64_t xoff_bytes;
  uint64_t xon_bytes;
  uint64_t hdrm_bytes;
} xtm_cos_queue_plan_t;

typedef struct xtm_cos_pg_plan {
  char iface[XTM_COS_NAME_LEN];
  char account[XTM_COS_NAME_LEN];
  uint32_t port;
  uint32_t prio;
  uint64_t speed_bps;
  uint64_t xoff_bytes;
  uint64_t xon_bytes;
  uint32_t xoff_cells;
  uint32_t xon_cells;
  uint32_t cable_m;
  uint32_t mtu;
  uint64_t hdrm_bits;  // sum of the components (docs/firmware.md 5.5)
  uint64_t hdrm_bytes;
  uint32_t hdrm_cells;
} xtm_cos_pg_plan_t;

// One hardware policer (docs/firmware.md section 4.5): a Junos firewall policer applied to
// an ingress port, directly (`family inet policer input P`) or by a filter term (`filter
// input F`, `term T { from { dscp ...; } then policer P; }`).
typedef struct xtm_cos_pol_plan {
  char iface[XTM_COS_NAME_LEN];    // the policed ingress port (Junos name)
  char policer[XTM_COS_NAME_LEN];  // the firewall policer
  char source[160];      // "policer input", "filter F term T", "filter F (filter-specific)"
  uint32_t port;         // model port
  uint32_t index;        // 0..7 of the port: POL_SEL = port * 8 + index
  uint64_t rate_bps;     // bandwidth-limit
  uint32_t rate_q16;     // POL_RATE
  uint32_t burst_bytes;  // POL_BURST = burst-size-limit
  uint8_t tcs;           // the traffic classes it polices (bit t), P_POL_MAP
} xtm_cos_pol_plan_t;

typedef struct xtm_cos_result {
  xtm_fw_cfg_t cfg;
  xtm_fw_hw_t hw;
  uint64_t clock_hz;
  uint32_t nqueues;
  xtm_cos_queue_plan_t q[XTM_FW_MAX_QUEUES];
  uint32_t npgs;
  xtm_cos_pg_plan_t pg[XTM_FW_MAX_PGS];
  uint32_t nports;  // model ports used, in model port order
  xtm_cos_port_plan_t ports[XTM_FW_MAX_PORTS];
  const char *port_rule;  // "Junos port number" or "in (fpc, pic, port, channel) order"
  uint32_t npols;         // hardware policers, in (port, index) order
  xtm_cos_pol_plan_t pol[XTM_FW_MAX_POLICERS];
  // Messages `file:line:col: text`. A text met again at another position is not stored
  // again: its entry counts the repeats (error_repeats) and keeps the first XTM_COS_MORE
  // further positions; the same text at the same position is counted once.
  uint32_t nerrors;         // every error found (each position once)
  uint32_t nerror_msgs;     // distinct texts stored in errors[] (at most XTM_COS_MAX_ERRORS)
  uint32_t errors_dropped;  // errors not stored (the store was full)
  char errors[XTM_COS_MAX_ERRORS][XTM_COS_MSG_LEN];
  uint32_t error_repeats[XTM_COS_MAX_ERRORS];
  int error_more[XTM_COS_MAX_ERRORS][XTM_COS_MORE][2];  // line, column
  uint32_t nwarnings;         // distinct warning texts stored (at most XTM_COS_MAX_WARNINGS) ...
  uint32_t warnings_dropped;  // ... and how many more warnings there were
  char warnings[XTM_COS_MAX_WARNINGS][XTM_COS_MSG_LEN];
  uint32_t warning_repeats[XTM_COS_MAX_WARNINGS];
  int warning_more[XTM_COS_MAX_WARNINGS][XTM_COS_MORE][2];
} xtm_cos_result_t;

// Compiles `text` (named `path` in messages) for hardware `hw`. Returns r->nerrors.
uint32_t xtm_cos_compile(const char *path, const char *text, const xtm_fw_hw_t *hw,
                         const xtm_cos_opts_t *opts, xtm_cos_result_t *r);
// Reads the file, then compiles it; an unreadable file is one error.
uint32_t xtm_cos_compile_file(const char *path, const xtm_fw_hw_t *hw, const xtm_cos_opts_t *opts,
                              xtm_cos_result_t *r);

// The note that follows message i when it was repeated at other positions:
// "<file>: note: the message above is repeated N more times (at 3:5, 9:5, ...)"; returns
// false (and writes nothing) when it was not. `warning` selects the warnings.
bool xtm_cos_repeat_note(const xtm_cos_result_t *r, bool warning, uint32_t i, const char *path,
                         char *buf, size_t len);
// Every warning then every error, each followed by its repeat note, one per line, to a
// callback (xtmctl prints them; netsim prints and counts them). Returns the lines written.
uint32_t xtm_cos_each_message(const xtm_cos_result_t *r, const char *path,
                              void (*line)(void *arg, bool warning, const char *text), void *arg);

// Conversions (docs/firmware.md section 5), exposed for the unit tests.
uint32_t xtm_cos_rate_q16(uint64_t bps, uint64_t clock_hz);                 // round to nearest
uint32_t xtm_cos_pct_q16(uint32_t pct_milli);                               // round to nearest
uint64_t xtm_cos_temporal_bytes(uint64_t ns, uint64_t bps);                 // floor
uint32_t xtm_cos_bytes_to_cells(uint64_t bytes, uint32_t cell_bytes);       // ceil
uint32_t xtm_cos_pause_quantum_q16(uint64_t speed_bps, uint64_t clock_hz);  // round to nearest
// Headroom in bits for a port speed, cable length and MTU; false for an unsupported speed.
bool xtm_cos_headroom_bits(uint64_t speed_bps, uint32_t cable_m, uint32_t mtu, uint64_t *bits);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_FIRMWARE_COS_XTM_COS_H_
