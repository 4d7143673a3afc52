// SPDX-License-Identifier: Apache-2.0
//
// xtm firmware driver (DIF style, STYLE rules 25-31). Freestanding C11: the core uses
// stdint.h, stddef.h and stdbool.h only, allocates nothing and reaches the block only
// through the MMIO seam (firmware/xtm_mmio.h). Every call checks all its arguments before
// its first register access and returns an xtm_fw_status_t. docs/firmware.md describes the
// API, the bring-up sequence and its timeouts.

#ifndef XTM_FIRMWARE_XTM_FW_H_
#define XTM_FIRMWARE_XTM_FW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/xtm_mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

#define XTM_FW_MAX_PORTS 64u
#define XTM_FW_MAX_TCS 8u
#define XTM_FW_NUM_PRIOS 8u
#define XTM_FW_NUM_PROFILES 8u
#define XTM_FW_NUM_POINTS 8u
// The smallest legal WD_POLL_CYCLES: the `min` of its CYCLES field in
// rtl/xtm/data/xtm_regs.toml, the one source of register limits. The driver refuses a
// smaller value (xtm_fw_cfg_validate) and the compiler a poll-interval that gives one;
// test_fw checks this value against the table generated from the TOML, so a TOML change
// that moves the limit fails that test until it is moved here too.
#define XTM_FW_WD_POLL_MIN_CYCLES 64u
// The smallest legal P_PAUSE_QUANTUM (Q16.16 cycles, a quarter cycle: spec 7.2), the `min`
// of its CYCLES field in the TOML, kept equal to it by test_fw as the poll limit above.
#define XTM_FW_PAUSE_QUANTUM_MIN_Q16 0x4000u
#define XTM_FW_MAX_QUEUES (XTM_FW_MAX_PORTS * XTM_FW_MAX_TCS)
#define XTM_FW_MAX_PGS (XTM_FW_MAX_PORTS * XTM_FW_NUM_PRIOS)
// Ingress policers (spec 4.7): 8 per ingress port, POL_SEL = port * 8 + index.
#define XTM_FW_POLICERS_PER_PORT 8u
#define XTM_FW_MAX_POLICERS (XTM_FW_MAX_PORTS * XTM_FW_POLICERS_PER_PORT)
#define XTM_FW_Q16_ONE 65536u

// Elaboration parameters, read from HW_PARAMS, HW_NUM_DESC, HW_OCB_CELLS, HW_HBM_CELLS.
typedef struct xtm_fw_hw {
  uint32_t num_ports;
  uint32_t num_tcs;
  uint32_t cell_log2;
  uint32_t cell_bytes;
  uint32_t fifo_depth;
  uint32_t num_desc;
  uint32_t ocb_cells;
  uint32_t hbm_cells;
} xtm_fw_hw_t;

typedef struct xtm_fw {
  xtm_mmio_t mmio;
  xtm_fw_hw_t hw;
  bool initialised;
} xtm_fw_t;

// ------------------------------------------------------------------ configuration image
// Register-level values (already converted to cells, Q8.16, Q0.16, cycles). The host-side
// configuration compiler (firmware/cos/) produces it; the driver validates and writes it.

typedef struct xtm_fw_class_cfg {
  bool valid;
  uint8_t dscp_tc[64];               // DSCP -> traffic class
  uint8_t tc_queue[XTM_FW_MAX_TCS];  // traffic class -> queue
  uint8_t tc_pg[XTM_FW_MAX_TCS];     // traffic class -> priority group (PFC priority)
} xtm_fw_class_cfg_t;

typedef enum xtm_fw_mark_point {
  kXtmFwMarkPointTail = 0,
  kXtmFwMarkPointHead = 1,
  kXtmFwMarkPointLatency = 2,
} xtm_fw_mark_point_t;

typedef struct xtm_fw_queue_cfg {
  uint8_t port;
  uint8_t queue;
  bool strict;
  bool no_loss;
  bool ecn_en;
  bool nonect_tail_only;
  uint8_t mark_point;  // xtm_fw_mark_point_t
  uint8_t profile;     // 0..7
  bool pfc_rx_en;
  uint8_t pfc_prio;  // 0..7
  bool wd_en;
  bool shaper_en;
  uint32_t limit_cells;    // 28 bits
  uint32_t quantum_bytes;  // 1..65535
  uint32_t lat_thresh_cycles;
  uint32_t shaper_rate_q16;     // bytes/cycle Q8.16, 24 bits
  uint32_t shaper_burst_bytes;  // 20 bits
  uint32_t target_rate_q16;     // bytes/cycle Q8.16, 24 bits
} xtm_fw_queue_cfg_t;

typedef struct xtm_fw_profile_cfg {
  bool valid;
  bool interp;
  uint8_t npoints;                       // 0..8
  uint32_t fill_q16[XTM_FW_NUM_POINTS];  // Q0.16, 65536 = 100 %
  uint32_t prob_q16[XTM_FW_NUM_POINTS];
} xtm_fw_profile_cfg_t;

typedef struct xtm_fw_port_cfg {
  bool valid;
  bool shaper_en;
  uint8_t ovh_bytes;            // 0..63
  uint32_t shaper_rate_q16;     // 24 bits
  uint32_t shaper_burst_bytes;  // 20 bits
  uint32_t pause_quantum_q16;   // cycles per pause quantum, Q16.16
  uint32_t pfc_quanta;          // 1..65535
  uint32_t pfc_refresh_cycles;  // >= 1
} xtm_fw_port_cfg_t;

typedef struct xtm_fw_pg_cfg {
  uint8_t port;
  uint8_t prio;
  bool pfc_en;
  uint32_t xoff_cells;
  uint32_t xon_cells;
  uint32_t hdrm_cells;
} xtm_fw_pg_cfg_t;

// One ingress policer (spec 4.7, the POL window): a byte token bucket at rate_q16 with
// depth burst_bytes; non-conforming arrivals are dropped (POLICE).
typedef struct xtm_fw_policer_cfg {
  uint8_t port;          // ingress port
  uint8_t index;         // 0..7, the port's policer: POL_SEL = port * 8 + index
  uint32_t rate_q16;     // POL_RATE, bytes/cycle Q8.16, 24 bits
  uint32_t burst_bytes;  // POL_BURST, 24 bits
} xtm_fw_policer_cfg_t;

// P_POL_MAP of one ingress port: which traffic classes are policed, and by which of the
// port's policers (several classes may share one).
typedef struct xtm_fw_pol_map_cfg {
  bool valid;
  uint8_t tc_en;                   // bit t: TC<t>_EN
  uint8_t tc_pol[XTM_FW_MAX_TCS];  // TC<t>_POL, 0..7
} xtm_fw_pol_map_cfg_t;

typedef enum xtm_fw_wd_action {
  kXtmFwWdActionDrop = 0,
  kXtmFwWdActionForward = 1,
} xtm_fw_wd_action_t;

typedef struct xtm_fw_wd_cfg {
  bool valid;
  bool en;
  uint8_t action;  // xtm_fw_wd_action_t
  uint32_t poll_cycles;
  uint32_t detect_polls;   // 1..255
  uint32_t restore_polls;  // 1..255
} xtm_fw_wd_cfg_t;

// DCQCN reaction/notification point parameters by their mlxconfig names (docs/firmware.md
// has the ranges). The driver validates them; programming needs the dcqcn block.
typedef enum xtm_fw_dcqcn_param {
  kXtmFwDcqcnDceTcpG,
  kXtmFwDcqcnDceTcpRtt,
  kXtmFwDcqcnInitialAlphaValue,
  kXtmFwDcqcnRateToSetOnFirstCnp,
  kXtmFwDcqcnRpgMinDecFac,
  kXtmFwDcqcnRpgMinRate,
  kXtmFwDcqcnRpgMaxRate,
  kXtmFwDcqcnRpgGd,
  kXtmFwDcqcnRateReduceMonitorPeriod,
  kXtmFwDcqcnRpgTimeReset,
  kXtmFwDcqcnRpgByteReset,
  kXtmFwDcqcnRpgThreshold,
  kXtmFwDcqcnRpgAiRate,
  kXtmFwDcqcnRpgHaiRate,
  kXtmFwDcqcnClampTgtRate,
  kXtmFwDcqcnClampTgtRateAfterTimeInc,
  kXtmFwDcqcnMinTimeBetweenCnps,
  kXtmFwDcqcnCount,
} xtm_fw_dcqcn_param_t;

typedef struct xtm_fw_dcqcn_cfg {
  bool valid;
  bool set[kXtmFwDcqcnCount];
  uint32_t value[kXtmFwDcqcnCount];
} xtm_fw_dcqcn_cfg_t;

// The mlxconfig name, the legal range and the ConnectX default of a parameter.
typedef struct xtm_fw_dcqcn_info {
  const char *name;
  uint32_t min;
  uint32_t max;
  uint32_t dflt;
  const char *unit;
} xtm_fw_dcqcn_info_t;
const xtm_fw_dcqcn_info_t *xtm_fw_dcqcn_info(xtm_fw_dcqcn_param_t p);

typedef struct xtm_fw_cfg {
  xtm_fw_class_cfg_t cls;
  uint32_t num_queues;
  xtm_fw_queue_cfg_t queues[XTM_FW_MAX_QUEUES];
  xtm_fw_profile_cfg_t profiles[XTM_FW_NUM_PROFILES];
  xtm_fw_port_cfg_t ports[XTM_FW_MAX_PORTS];
  uint32_t num_pgs;
  xtm_fw_pg_cfg_t pgs[XTM_FW_MAX_PGS];
  bool pool_valid;
  uint32_t pool_cells;
  xtm_fw_wd_cfg_t wd;
  xtm_fw_dcqcn_cfg_t dcqcn;
  uint32_t num_policers;
  xtm_fw_policer_cfg_t policers[XTM_FW_MAX_POLICERS];
  xtm_fw_pol_map_cfg_t pol_map[XTM_FW_MAX_PORTS];
} xtm_fw_cfg_t;

// ------------------------------------------------------------------ lifecycle

// Reads BLOCK_TYPE and VERSION (refuses a mismatched build) and the HW_* parameters.
// Writes nothing.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_init(const xtm_mmio_t *mmio, xtm_fw_t *h);
// Polls STATUS.INIT_DONE at most max_polls times (max_polls >= 1).
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_wait_init_done(const xtm_fw_t *h, uint32_t max_polls);

// Checks a configuration image against the hardware parameters; touches nothing.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_cfg_validate(const xtm_fw_t *h, const xtm_fw_cfg_t *cfg);

// ------------------------------------------------------------------ feature calls
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_classify_set(const xtm_fw_t *h,
                                                       const xtm_fw_class_cfg_t *c);
// Writes a queue's configuration; `enable` gives Q_CFG.ENABLE.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_queue_set(const xtm_fw_t *h, const xtm_fw_queue_cfg_t *q,
                                                    bool enable);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_queue_enable(const xtm_fw_t *h,
                                                       const xtm_fw_queue_cfg_t *q);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_ecn_set_profile(const xtm_fw_t *h, uint32_t index,
                                                          const xtm_fw_profile_cfg_t *p);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_port_set_pfc(const xtm_fw_t *h, uint32_t port,
                                                       const xtm_fw_port_cfg_t *p);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_port_enable(const xtm_fw_t *h, uint32_t port,
                                                      const xtm_fw_port_cfg_t *p);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_pfc_set_thresholds(const xtm_fw_t *h,
                                                             const xtm_fw_pg_cfg_t *g);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_pool_set(const xtm_fw_t *h, uint32_t pool_cells);
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_watchdog_set(const xtm_fw_t *h, const xtm_fw_wd_cfg_t *w);
// POL_SEL, POL_RATE, POL_BURST, then reads POL_RATE and POL_BURST back: a value that does
// not read back as written (a write refused during initialisation, spec 3, or a block
// without the POL window) is kXtmFwReadback. Only after STATUS.INIT_DONE (the POL window is refused
// before).
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_policer_set(const xtm_fw_t *h,
                                                      const xtm_fw_policer_cfg_t *p);
// PORT_SEL, P_POL_MAP, read back as above.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_pol_map_set(const xtm_fw_t *h, uint32_t port,
                                                      const xtm_fw_pol_map_cfg_t *m);
// The P_POL_MAP register value of a map.
uint32_t xtm_fw_pol_map_value(const xtm_fw_pol_map_cfg_t *m);
// Reads ERR_STATUS and ERR_ADDR.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_err_status(const xtm_fw_t *h, uint32_t *status,
                                                     uint32_t *addr);
// Reads a 64-bit counter of the VOQ window (lo_offset = XTM_Q_*_LO_REG_OFFSET).
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_voq_counter(const xtm_fw_t *h, uint32_t voq,
                                                      uint32_t lo_offset, uint64_t *value);
// Reads a 64-bit counter of the PORT, PG or POL window or a global one (sel_offset =
// XTM_PORT_SEL/XTM_PG_SEL/XTM_POL_SEL_REG_OFFSET, or 0 for a global counter).
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_counter(const xtm_fw_t *h, uint32_t sel_offset,
                                                  uint32_t index, uint32_t lo_offset,
                                                  uint64_t *value);

// ------------------------------------------------------------------ bring-up

typedef enum xtm_fw_step {
  kXtmFwStepNone = 0,
  kXtmFwStepValidate,
  kXtmFwStepReset,
  kXtmFwStepIdentify,
  kXtmFwStepWaitInit,
  kXtmFwStepClassify,
  kXtmFwStepQueues,
  kXtmFwStepProfiles,
  kXtmFwStepPfc,
  kXtmFwStepWatchdog,
  kXtmFwStepPolice,
  kXtmFwStepDcqcn,
  kXtmFwStepEnable,
  kXtmFwStepCheck,
  kXtmFwStepCount,
} xtm_fw_step_t;

const char *xtm_fw_step_name(xtm_fw_step_t s);
const char *xtm_fw_status_name(xtm_fw_status_t s);

typedef struct xtm_fw_bringup_opts {
  bool do_reset;            // assert reset through the backend first
  uint32_t init_max_polls;  // STATUS.INIT_DONE poll budget (>= 1)
} xtm_fw_bringup_opts_t;

typedef struct xtm_fw_bringup_result {
  xtm_fw_step_t failed_step;  // kXtmFwStepNone on success
  uint32_t err_status;        // ERR_STATUS at the check step
  uint32_t err_addr;
  bool dcqcn_pending;  // the image carried DCQCN parameters the xtm block cannot take
} xtm_fw_bringup_result_t;

// The whole sequence of docs/firmware.md: identify (type/version, parameters; reads only)
// and validate the image before anything is written, reset and identify again, wait for
// INIT_DONE, classification, queues (disabled), profiles, PFC, watchdog, policers (each
// read back), DCQCN, enable ports and queues, check ERR_STATUS.
XTM_FW_WARN_UNUSED xtm_fw_status_t xtm_fw_bringup(const xtm_mmio_t *mmio, const xtm_fw_cfg_t *cfg,
                                                  const xtm_fw_bringup_opts_t *opts, xtm_fw_t *h,
                                                  xtm_fw_bringup_result_t *res);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_FIRMWARE_XTM_FW_H_
