// SPDX-License-Identifier: Apache-2.0
//
// Check suites of the firmware: the driver against the mock (guards, identification,
// timeouts, errors), the bring-up equivalence of the C-model and mock backends, and the
// configuration compiler's conversions (docs/firmware.md section 5).

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cmodel/dcqcn/dcqcn.h"
#include "cmodel/xtm/xtm.h"
#include "firmware/cos/xtm_cos.h"
#include "firmware/dcqcn_fw.h"
#include "firmware/host/xtm_fw_host.h"
#include "firmware/tests/xtm_mmio_mock.h"
#include "firmware/xtm_fw.h"

#include "rtl/dcqcn/autogen/dcqcn_regs.h"  // Generated.
#include "rtl/xtm/autogen/xtm_regs.h"      // Generated.

static xtm_mmio_txn_t g_exp[300000];
static xtm_mmio_txn_t g_rec[300000];

static void expect_identify(xtm_mmio_mock_t *mk) {
  xtm_mock_expect_read32(mk, XTM_BLOCK_TYPE_REG_OFFSET, XTM_BLOCK_TYPE_VALUE);
  xtm_mock_expect_read32(mk, XTM_VERSION_REG_OFFSET, XTM_VERSION_VALUE);
  xtm_mock_expect_read32(mk, XTM_HW_PARAMS_REG_OFFSET, XTM_HW_PARAMS_REG_RESVAL);
  xtm_mock_expect_read32(mk, XTM_HW_NUM_DESC_REG_OFFSET, 4096);
  xtm_mock_expect_read32(mk, XTM_HW_OCB_CELLS_REG_OFFSET, 65536);
  xtm_mock_expect_read32(mk, XTM_HW_HBM_CELLS_REG_OFFSET, 1u << 25);
}

// ------------------------------------------------------------------ driver vs mock

START_TEST(test_init_reads_params) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);
  xtm_fw_t h;
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwOk);
  ck_assert(xtm_mock_done(&mk));
  ck_assert_uint_eq(h.hw.num_ports, 8);
  ck_assert_uint_eq(h.hw.num_tcs, 8);
  ck_assert_uint_eq(h.hw.cell_bytes, 256);
  ck_assert_uint_eq(h.hw.ocb_cells, 65536);
}
END_TEST

START_TEST(test_init_refuses_wrong_block) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_fw_t h;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  xtm_mock_expect_read32(&mk, XTM_BLOCK_TYPE_REG_OFFSET, 0x44435145u);
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwBadBlockType);
  ck_assert(xtm_mock_done(&mk));
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  xtm_mock_expect_read32(&mk, XTM_BLOCK_TYPE_REG_OFFSET, XTM_BLOCK_TYPE_VALUE);
  xtm_mock_expect_read32(&mk, XTM_VERSION_REG_OFFSET, 0x03000000u);  // a later major
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwBadVersion);
  ck_assert(xtm_mock_done(&mk));
  // a block of spec 1.0 (not pipelined, other register map): refused as well
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  xtm_mock_expect_read32(&mk, XTM_BLOCK_TYPE_REG_OFFSET, XTM_BLOCK_TYPE_VALUE);
  xtm_mock_expect_read32(&mk, XTM_VERSION_REG_OFFSET, 0x01000000u);
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwBadVersion);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

START_TEST(test_wait_init_times_out) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_fw_t h;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);
  for (int i = 0; i < 5; i++) {
    xtm_mock_expect_read32(&mk, XTM_STATUS_REG_OFFSET, 0);
  }
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwOk);
  ck_assert_int_eq(xtm_fw_wait_init_done(&h, 5), kXtmFwTimeout);
  ck_assert(xtm_mock_done(&mk));
  ck_assert_int_eq(xtm_fw_wait_init_done(&h, 0), kXtmFwBadArg);
}
END_TEST

START_TEST(test_guards_touch_nothing) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_fw_t h;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwOk);
  // no expectations left: any access would be a mismatch
  xtm_fw_queue_cfg_t q = {.port = 8, .queue = 0, .quantum_bytes = 1};
  ck_assert_int_eq(xtm_fw_queue_set(&h, &q, true), kXtmFwBadArg);
  q.port = 0;
  q.quantum_bytes = 0;
  ck_assert_int_eq(xtm_fw_queue_set(&h, &q, true), kXtmFwBadArg);
  xtm_fw_profile_cfg_t p = {.valid = true, .npoints = 2, .fill_q16 = {40000, 30000}};
  ck_assert_int_eq(xtm_fw_ecn_set_profile(&h, 1, &p), kXtmFwBadArg);
  ck_assert_int_eq(xtm_fw_ecn_set_profile(&h, 8, NULL), kXtmFwBadArg);
  xtm_fw_pg_cfg_t g = {.port = 0, .prio = 3, .xoff_cells = 10, .xon_cells = 11};
  ck_assert_int_eq(xtm_fw_pfc_set_thresholds(&h, &g), kXtmFwBadArg);
  xtm_fw_t un = {.initialised = false};
  ck_assert_int_eq(xtm_fw_pool_set(&un, 1), kXtmFwNotInit);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

START_TEST(test_bringup_refuses_bad_image_before_writing) {
  static xtm_fw_cfg_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.num_queues = 1;
  cfg.queues[0] = (xtm_fw_queue_cfg_t){.port = 0, .queue = 9, .quantum_bytes = 1};
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);  // reads only; then the image is refused: no reset, no write
  xtm_fw_t h;
  xtm_fw_bringup_result_t res;
  xtm_fw_bringup_opts_t o = {.do_reset = true, .init_max_polls = 10};
  ck_assert_int_eq(xtm_fw_bringup(&io, &cfg, &o, &h, &res), kXtmFwBadArg);
  ck_assert_int_eq(res.failed_step, kXtmFwStepValidate);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

START_TEST(test_field_helpers) {
  uint32_t v =
      xtm_field32_write(0xFFFFFFFFu, XTM_Q_CFG_MARK_POINT_MASK, XTM_Q_CFG_MARK_POINT_OFFSET, 1);
  ck_assert_uint_eq(xtm_field32_read(v, XTM_Q_CFG_MARK_POINT_MASK, XTM_Q_CFG_MARK_POINT_OFFSET), 1);
  ck_assert_uint_eq(v | (XTM_Q_CFG_MARK_POINT_MASK << XTM_Q_CFG_MARK_POINT_OFFSET), 0xFFFFFFFFu);
}
END_TEST

// Policers (spec 4.7): select, rate, burst, then both read back; the port's map likewise.
START_TEST(test_policer_mock_sequence) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_fw_t h;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwOk);
  xtm_fw_policer_cfg_t p = {.port = 5, .index = 2, .rate_q16 = 0x028000u, .burst_bytes = 12500000u};
  xtm_mock_expect_write32(&mk, XTM_POL_SEL_REG_OFFSET, 5u * 8u + 2u);
  xtm_mock_expect_write32(&mk, XTM_POL_RATE_REG_OFFSET, 0x028000u);
  xtm_mock_expect_write32(&mk, XTM_POL_BURST_REG_OFFSET, 12500000u);
  xtm_mock_expect_read32(&mk, XTM_POL_RATE_REG_OFFSET, 0x028000u);
  xtm_mock_expect_read32(&mk, XTM_POL_BURST_REG_OFFSET, 12500000u);
  ck_assert_int_eq(xtm_fw_policer_set(&h, &p), kXtmFwOk);
  // a burst that does not read back (a refused write): the call fails
  xtm_mock_expect_write32(&mk, XTM_POL_SEL_REG_OFFSET, 5u * 8u + 2u);
  xtm_mock_expect_write32(&mk, XTM_POL_RATE_REG_OFFSET, 0x028000u);
  xtm_mock_expect_write32(&mk, XTM_POL_BURST_REG_OFFSET, 12500000u);
  xtm_mock_expect_read32(&mk, XTM_POL_RATE_REG_OFFSET, 0x028000u);
  xtm_mock_expect_read32(&mk, XTM_POL_BURST_REG_OFFSET, 0u);
  ck_assert_int_eq(xtm_fw_policer_set(&h, &p), kXtmFwReadback);
  // TC 3 -> policer 2, TC 7 -> policer 0: TC3_EN|TC3_POL=2 = 0xA << 12, TC7_EN = 1 << 31
  xtm_fw_pol_map_cfg_t m = {.valid = true, .tc_en = 0x88u, .tc_pol = {[3] = 2, [7] = 0}};
  ck_assert_uint_eq(xtm_fw_pol_map_value(&m), 0x8000A000u);
  xtm_mock_expect_write32(&mk, XTM_PORT_SEL_REG_OFFSET, 5u);
  xtm_mock_expect_write32(&mk, XTM_P_POL_MAP_REG_OFFSET, 0x8000A000u);
  xtm_mock_expect_read32(&mk, XTM_P_POL_MAP_REG_OFFSET, 0x8000A000u);
  ck_assert_int_eq(xtm_fw_pol_map_set(&h, 5, &m), kXtmFwOk);
  xtm_mock_expect_write32(&mk, XTM_PORT_SEL_REG_OFFSET, 5u);
  xtm_mock_expect_write32(&mk, XTM_P_POL_MAP_REG_OFFSET, 0x8000A000u);
  xtm_mock_expect_read32(&mk, XTM_P_POL_MAP_REG_OFFSET, 0u);
  ck_assert_int_eq(xtm_fw_pol_map_set(&h, 5, &m), kXtmFwReadback);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

// Images the driver refuses before any access: policer out of range, twice, a map that
// sends a class to a policer the image does not program.
START_TEST(test_policer_guards_touch_nothing) {
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_fw_t h;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  expect_identify(&mk);
  ck_assert_int_eq(xtm_fw_init(&io, &h), kXtmFwOk);
  static xtm_fw_cfg_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.num_policers = 1;
  cfg.policers[0] =
      (xtm_fw_policer_cfg_t){.port = 0, .index = 1, .rate_q16 = 1, .burst_bytes = 1500};
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwOk);
  cfg.policers[0].index = 8;
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  ck_assert_int_eq(xtm_fw_policer_set(&h, &cfg.policers[0]), kXtmFwBadArg);
  cfg.policers[0].index = 1;
  cfg.policers[0].rate_q16 = 0x1000000u;  // above the 24-bit field
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  cfg.policers[0].rate_q16 = 1;
  cfg.policers[0].burst_bytes = 0x1000000u;
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  cfg.policers[0].burst_bytes = 1500;
  cfg.policers[0].port = 8;  // the block has 8 ports
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  cfg.policers[0].port = 0;
  cfg.num_policers = 2;
  cfg.policers[1] = cfg.policers[0];  // the same policer twice
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  cfg.num_policers = 1;
  cfg.pol_map[0] = (xtm_fw_pol_map_cfg_t){.valid = true, .tc_en = 0x01u, .tc_pol = {1}};
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwOk);
  cfg.pol_map[0].tc_pol[0] = 2;  // policer 2 of port 0 is not programmed
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  cfg.pol_map[0].tc_pol[0] = 8;
  ck_assert_int_eq(xtm_fw_pol_map_set(&h, 0, &cfg.pol_map[0]), kXtmFwBadArg);
  ck_assert_int_eq(xtm_fw_pol_map_set(&h, 8, &cfg.pol_map[1]), kXtmFwBadArg);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

// ------------------------------------------------------------------ equivalence

static xtm_fw_hw_t default_hw(void) {
  return (xtm_fw_hw_t){.num_ports = 8,
                       .num_tcs = 8,
                       .cell_log2 = 8,
                       .cell_bytes = 256,
                       .fifo_depth = 8,
                       .num_desc = 4096,
                       .ocb_cells = 65536,
                       .hbm_cells = 1u << 25};
}

// The same bring-up program on the C model (recorded) and on the mock loaded with that
// recording: identical transaction sequences, and the model ends with the image written.
static void equivalence(const char *conf) {
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_msg(xtm_cos_compile_file(conf, &hw, NULL, &r) == 0, "%s", r.errors[0]);
  xtm_params_t prm;
  xtm_params_default(&prm);
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);
  xtm_mmio_model_t ms;
  xtm_mmio_t mio, tio;
  xtm_mmio_trace_t tr;
  ck_assert_int_eq(xtm_mmio_model_init(&mio, &ms, m), kXtmFwOk);
  ck_assert_int_eq(xtm_mmio_trace_init(&tio, &tr, &mio, g_rec, 300000), kXtmFwOk);
  xtm_fw_bringup_opts_t o = {.do_reset = true, .init_max_polls = 1000};
  xtm_fw_bringup_result_t res;
  xtm_fw_t h;
  ck_assert_int_eq(xtm_fw_bringup(&tio, &r.cfg, &o, &h, &res), kXtmFwOk);
  ck_assert_uint_eq(tr.dropped, 0);
  ck_assert_uint_gt(tr.len, 100);
  // the model: the RDMA/RoCE queue's limit and target rate read back
  for (uint32_t i = 0; i < r.cfg.num_queues; i++) {
    uint32_t v = 0;
    ck_assert(xtm_csr_write(m, XTM_VOQ_SEL_REG_OFFSET, r.q[i].voq));
    ck_assert(xtm_csr_read(m, XTM_Q_LIMIT_CELLS_REG_OFFSET, &v));
    ck_assert_uint_eq(v, r.q[i].limit_cells);
    ck_assert(xtm_csr_read(m, XTM_Q_TARGET_RATE_REG_OFFSET, &v));
    ck_assert_uint_eq(v, r.q[i].target_rate_q16);
  }
  // replay on the mock
  memcpy(g_exp, g_rec, tr.len * sizeof(g_rec[0]));
  xtm_mmio_t kio;
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&kio, &mk, g_exp, 300000);
  mk.len = tr.len;
  xtm_fw_t h2;
  ck_assert_int_eq(xtm_fw_bringup(&kio, &r.cfg, &o, &h2, &res), kXtmFwOk);
  ck_assert_msg(xtm_mock_done(&mk), "mock mismatch at %zu of %zu", mk.mismatch_at, mk.len);
  xtm_destroy(m);
}

START_TEST(test_equiv_dci_500km) { equivalence("firmware/examples/dci-500km-final.conf"); }
END_TEST
START_TEST(test_equiv_roce_lab) { equivalence("firmware/examples/roce-lab-6g-ecn.conf"); }
END_TEST

START_TEST(test_equiv_fabric_policed) { equivalence("firmware/examples/fabric-20g-policed.conf"); }
END_TEST

// The POL window is refused until INIT_DONE (spec 3): a policer written before it fails
// (the model reports the access error), after it reads back.
START_TEST(test_model_policer_after_init_only) {
  xtm_params_t prm;
  xtm_params_default(&prm);
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);
  xtm_mmio_model_t ms;
  xtm_mmio_t mio;
  ck_assert_int_eq(xtm_mmio_model_init(&mio, &ms, m), kXtmFwOk);
  xtm_fw_t h;
  ck_assert_int_eq(xtm_fw_init(&mio, &h), kXtmFwOk);
  xtm_fw_policer_cfg_t p = {.port = 1, .index = 3, .rate_q16 = 0x028000u, .burst_bytes = 90000u};
  ck_assert_int_eq(xtm_fw_policer_set(&h, &p), kXtmFwBusError);
  ck_assert_int_eq(xtm_fw_wait_init_done(&h, 1000), kXtmFwOk);
  ck_assert_int_eq(xtm_fw_policer_set(&h, &p), kXtmFwOk);
  xtm_destroy(m);
}
END_TEST

// The policed example on the model, then traffic: 9000-byte packets back to back on the
// policed port 0 (to port 4, DSCP 46) are passed and dropped as the bucket of spec 4.7
// (computed here from the registers the plan gives) says; port 5 is not policed.
START_TEST(test_model_policed_example_polices) {
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_uint_eq(
      xtm_cos_compile_file("firmware/examples/fabric-20g-policed.conf", &hw, NULL, &r), 0);
  ck_assert_uint_eq(r.npols, 4);
  ck_assert_uint_eq(r.cfg.num_policers, 4);
  xtm_params_t prm;
  xtm_params_default(&prm);
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);
  xtm_mmio_model_t ms;
  xtm_mmio_t mio;
  ck_assert_int_eq(xtm_mmio_model_init(&mio, &ms, m), kXtmFwOk);
  xtm_fw_bringup_opts_t o = {.do_reset = true, .init_max_polls = 1000};
  xtm_fw_bringup_result_t res;
  xtm_fw_t h;
  ck_assert_int_eq(xtm_fw_bringup(&mio, &r.cfg, &o, &h, &res), kXtmFwOk);
  const uint64_t rate = r.pol[0].rate_q16;
  const uint64_t burst = (uint64_t)r.pol[0].burst_bytes << 16;
  ck_assert_uint_eq(rate, 0x028000u);  // 20 Gb/s at 1 GHz = 2.5 bytes/cycle
  // the bucket is empty at reset and untouched since (tok = 0, u = 0): start where it holds
  // two packets and a half
  uint64_t t0 = 9000u * 5u / 2u * 65536u / rate + 1u;
  ck_assert_uint_gt(t0, xtm_cycle(m));
  xtm_out_t out;
  (void)xtm_advance_to(m, t0, &out);
  uint64_t tok = 0;
  uint64_t u = 0;
  uint32_t pass = 0;
  uint32_t drop = 0;
  xtm_in_t in;
  memset(&in, 0, sizeof(in));
  in.tx_ready = UINT64_MAX;
  for (uint32_t k = 0; k < 12; k++) {
    uint64_t c = xtm_cycle(m);
    uint64_t t = tok + (c - u) * rate;
    t = t < burst ? t : burst;
    bool conform = t >= 9000u * 65536u;
    tok = conform ? t - 9000u * 65536u : t;
    u = c;
    pass += conform;
    drop += !conform;
    in.enq = (xtm_enq_in_t){
        .valid = true, .pkt_id = k, .in_port = 0, .eg_port = 4, .dscp = 46, .len = 9000};
    xtm_step(m, &in, &out);
    ck_assert_int_eq(out.enq_res.reason, conform ? kXtmReasonAccept : kXtmReasonPolice);
  }
  ck_assert_uint_eq(pass, 2);
  ck_assert_uint_eq(drop, 10);
  in.enq = (xtm_enq_in_t){
      .valid = true, .pkt_id = 99, .in_port = 5, .eg_port = 4, .dscp = 46, .len = 9000};
  xtm_step(m, &in, &out);
  ck_assert_int_eq(out.enq_res.reason, kXtmReasonAccept);  // port 5: no policer
  (void)xtm_advance_to(m, xtm_cycle(m) + 16, &out);
  uint64_t v = 0;
  ck_assert_int_eq(
      xtm_fw_counter(&h, XTM_POL_SEL_REG_OFFSET, 0, XTM_POL_PASS_PKTS_LO_REG_OFFSET, &v), kXtmFwOk);
  ck_assert_uint_eq(v, pass);
  ck_assert_int_eq(
      xtm_fw_counter(&h, XTM_POL_SEL_REG_OFFSET, 0, XTM_POL_DROP_PKTS_LO_REG_OFFSET, &v), kXtmFwOk);
  ck_assert_uint_eq(v, drop);
  ck_assert_int_eq(
      xtm_fw_counter(&h, XTM_POL_SEL_REG_OFFSET, 0, XTM_POL_DROP_BYTES_LO_REG_OFFSET, &v),
      kXtmFwOk);
  ck_assert_uint_eq(v, 9000u * drop);
  ck_assert_int_eq(xtm_fw_voq_counter(&h, 4u * 8u + 3u, XTM_Q_DROP_POL_LO_REG_OFFSET, &v),
                   kXtmFwOk);
  ck_assert_uint_eq(v, drop);
  ck_assert_int_eq(
      xtm_fw_counter(&h, XTM_POL_SEL_REG_OFFSET, 5u * 8u, XTM_POL_PASS_PKTS_LO_REG_OFFSET, &v),
      kXtmFwOk);
  ck_assert_uint_eq(v, 0);
  xtm_destroy(m);
}
END_TEST

START_TEST(test_model_bringup_timeout_reported) {
  // a model whose INIT_DONE needs INIT_CYCLES = 8 * NumPorts cycles (spec 3): a budget of 3
  // polls must time out
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_uint_eq(xtm_cos_compile_file("firmware/examples/roce-lab-6g-ecn.conf", &hw, NULL, &r),
                    0);
  xtm_params_t prm;
  xtm_params_default(&prm);
  xtm_t *m = NULL;
  ck_assert_int_eq(xtm_create(&prm, &m), kXtmOk);
  xtm_mmio_model_t ms;
  xtm_mmio_t mio;
  ck_assert_int_eq(xtm_mmio_model_init(&mio, &ms, m), kXtmFwOk);
  xtm_fw_bringup_opts_t o = {.do_reset = true, .init_max_polls = 3};
  xtm_fw_bringup_result_t res;
  xtm_fw_t h;
  ck_assert_int_eq(xtm_fw_bringup(&mio, &r.cfg, &o, &h, &res), kXtmFwTimeout);
  ck_assert_int_eq(res.failed_step, kXtmFwStepWaitInit);
  xtm_destroy(m);
}
END_TEST

// ------------------------------------------------------------------ conversions

START_TEST(test_conversions) {
  ck_assert_uint_eq(xtm_cos_rate_q16(100000000000ull, 1000000000ull), 0x0C8000u);  // 12.5 B/cycle
  ck_assert_uint_eq(xtm_cos_rate_q16(6000000000ull, 1000000000ull), 0x00C000u);    // 0.75
  ck_assert_uint_eq(xtm_cos_rate_q16(100000000000ull, 1250000000ull), 0x0A0000u);  // 10 B/cycle
  ck_assert_uint_eq(xtm_cos_pct_q16(30000), 19661u);  // 19660.8 rounds up
  ck_assert_uint_eq(xtm_cos_pct_q16(1000), 655u);     // 655.36 rounds down
  ck_assert_uint_eq(xtm_cos_pct_q16(100000), 65536u);
  ck_assert_uint_eq(xtm_cos_temporal_bytes(12947500ull, 100000000000ull), 161843750ull);
  ck_assert_uint_eq(xtm_cos_temporal_bytes(1ull, 100000000000ull), 12ull);  // 12.5 floors
  ck_assert_uint_eq(xtm_cos_bytes_to_cells(161843750ull, 256), 632203u);
  ck_assert_uint_eq(xtm_cos_bytes_to_cells(512ull, 256), 2u);
  ck_assert_uint_eq(xtm_cos_pause_quantum_q16(100000000000ull, 1000000000ull), 0x00051EB8u);
  uint64_t bits = 0;
  ck_assert(xtm_cos_headroom_bits(100000000000ull, 100, 9216, &bits));
  // 73888 + 672 + 2 x 122880 + 100000 + 394 x 512 + 73888
  ck_assert_uint_eq(bits, 695936u);
  ck_assert(!xtm_cos_headroom_bits(30000000000ull, 100, 9216, &bits));
}
END_TEST

START_TEST(test_target_rate_rule) {
  static const char kConf[] =
      "class-of-service {\n"
      " forwarding-classes { class a queue-num 0; class b queue-num 1; class c queue-num 2; class "
      "d queue-num 3; }\n"
      " schedulers {\n"
      "  sa { buffer-rate percent 50; shaping-rate 40g; buffer-size temporal 100; }\n"
      "  sb { transmit-rate 30g; buffer-size temporal 100; }\n"
      "  sc { shaping-rate percent 20; buffer-size temporal 100; }\n"
      "  sd { buffer-rate 80g; shaping-rate 40g; buffer-size percent 1; }\n"
      " }\n"
      " scheduler-maps { m { forwarding-class a scheduler sa; forwarding-class b scheduler sb;\n"
      "   forwarding-class c scheduler sc; forwarding-class d scheduler sd; } }\n"
      " interfaces { et-0/0/2 { speed 100g; scheduler-map m; } }\n"
      "}\n";
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_uint_eq(xtm_cos_compile("t.conf", kConf, &hw, NULL, &r), 0);
  ck_assert_uint_eq(r.nqueues, 4);
  ck_assert_uint_eq(r.q[0].target_rate_bps, 20000000000ull);  // min(50 % of 40g, 40g)
  ck_assert_uint_eq(r.q[1].target_rate_bps, 30000000000ull);  // transmit-rate
  ck_assert_uint_eq(r.q[2].target_rate_bps, 20000000000ull);  // shaping 20 % of 100g
  ck_assert_uint_eq(r.q[3].target_rate_bps, 40000000000ull);  // min(80g, 40g)
  ck_assert_uint_eq(r.q[0].limit_bytes, 250000u);             // 100 us at 20 Gb/s
  // percent buffer: 1 % of (OCB + HBM) x 256 B / 8 ports
  ck_assert_uint_eq(r.q[3].limit_bytes, ((65536ull + (1ull << 25)) * 256u / 8u) / 100u);
}
END_TEST

// ------------------------------------------------------------------ hostile input (issue 14)

// A minimal valid configuration around one scheduler body (`sched`) and extra text.
static void conf_with(char *buf, size_t n, const char *sched, const char *extra) {
  snprintf(buf, n,
           "class-of-service {\n"
           " forwarding-classes { class a queue-num 0; }\n"
           " classifiers { dscp d { forwarding-class a { loss-priority low code-points be; } } }\n"
           " schedulers { s { %s } }\n"
           " scheduler-maps { m { forwarding-class a scheduler s; } }\n"
           " interfaces { et-0/0/1 { speed 100g; scheduler-map m; classifiers { dscp d; } } }\n"
           "%s}\n",
           sched, extra);
}

// Eight term-specific policers, one per traffic class (the reset DSCP map: csN -> TC N), fill
// the port's 8 policers in term order; on a 4-TC block cs4..cs7 are TC 0 too, so the fifth
// term's class is cs0's: the conflict error. An interface policer on a 4-TC block polices
// TCs 0-3 only.
START_TEST(test_policer_plan_per_port) {
  static char conf[4096];
  size_t o = (size_t)snprintf(conf, sizeof(conf), "firewall {\n");
  for (int i = 0; i < 8; i++) {
    o += (size_t)snprintf(conf + o, sizeof(conf) - o,
                          " policer p%d { if-exceeding { bandwidth-limit %dg; burst-size-limit "
                          "100k; } then discard; }\n",
                          i, i + 1);
  }
  o += (size_t)snprintf(conf + o, sizeof(conf) - o, " filter f { interface-specific;\n");
  for (int i = 0; i < 8; i++) {
    o += (size_t)snprintf(conf + o, sizeof(conf) - o,
                          "  term t%d { from { dscp cs%d; } then policer p%d; }\n", i, i, i);
  }
  snprintf(conf + o, sizeof(conf) - o,
           " }\n}\ninterfaces {\n et-0/0/0 { unit 0 { family inet { filter { input f; } } } }\n"
           " et-0/0/1 { unit 0 { family inet { policer { input p7; } } } }\n}\n"
           "class-of-service {\n forwarding-classes { class be queue-num 0; }\n"
           " schedulers { s { transmit-rate percent 10; } }\n"
           " scheduler-maps { m { forwarding-class be scheduler s; } }\n"
           " interfaces { et-0/0/2 { speed 100g; scheduler-map m; } }\n}\n");
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_msg(xtm_cos_compile("p.conf", conf, &hw, NULL, &r) == 0, "%s", r.errors[0]);
  ck_assert_uint_eq(r.npols, 9);
  ck_assert_uint_eq(r.cfg.num_policers, 9);
  for (uint32_t i = 0; i < 8; i++) {
    ck_assert_uint_eq(r.pol[i].port, 0);
    ck_assert_uint_eq(r.pol[i].index, i);
    ck_assert_uint_eq(r.pol[i].tcs, 1u << i);
    ck_assert_uint_eq(r.pol[i].rate_bps, (i + 1) * 1000000000ull);
    ck_assert_uint_eq(r.cfg.pol_map[0].tc_pol[i], i);
  }
  ck_assert_uint_eq(r.cfg.pol_map[0].tc_en, 0xFF);
  ck_assert_uint_eq(xtm_fw_pol_map_value(&r.cfg.pol_map[0]), 0xFEDCBA98u);
  ck_assert_uint_eq(r.pol[8].port, 1);
  ck_assert_uint_eq(r.pol[8].index, 0);
  ck_assert_uint_eq(r.pol[8].tcs, 0xFF);
  // a 4-TC block
  hw.num_tcs = 4;
  ck_assert_uint_eq(xtm_cos_compile("p.conf", conf, &hw, NULL, &r), 1);
  ck_assert_str_eq(r.errors[0],
                   "p.conf:15:25: DSCP 32 of term 't4' (filter 'f' on 'et-0/0/0') is traffic class "
                   "0, which term 't0' gives to policer 'p0' (the hardware has one policer per "
                   "traffic class of a port)");
  char *f = strstr(conf, "filter { input f; }");
  ck_assert_ptr_nonnull(f);
  memcpy(f, "policer{input p0;}", 18);  // same length: the filter is now unused
  f[18] = ' ';
  ck_assert_msg(xtm_cos_compile("p.conf", conf, &hw, NULL, &r) == 0, "%s", r.errors[0]);
  ck_assert_uint_eq(r.npols, 2);
  ck_assert_uint_eq(r.pol[0].tcs, 0x0F);
  ck_assert_uint_eq(r.cfg.pol_map[0].tc_en, 0x0F);
}
END_TEST

START_TEST(test_input_bounds) {
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  // one byte above the input limit: one error, before any token is made
  size_t n = XTM_COS_MAX_INPUT_BYTES + 1u;
  char *big = malloc(n + 1u);
  ck_assert_ptr_nonnull(big);
  memset(big, '#', n);
  big[n] = '\0';
  ck_assert_uint_eq(xtm_cos_compile("big.conf", big, &hw, NULL, &r), 1);
  ck_assert_str_eq(r.errors[0],
                   "big.conf: input is 4194305 bytes, above the limit of 4194304 bytes");
  free(big);
  // 64 nested blocks parse (the error is about meaning, not depth); 65 stop at the 65th '{'
  char deep[1024];
  for (unsigned depth = 64; depth <= 65; depth++) {
    size_t o = 0;
    for (unsigned i = 0; i < depth; i++) {
      o += (size_t)snprintf(deep + o, sizeof(deep) - o, "a {");
    }
    for (unsigned i = 0; i < depth; i++) {
      deep[o++] = '}';
    }
    deep[o] = '\0';
    ck_assert_uint_ge(xtm_cos_compile("d.conf", deep, &hw, NULL, &r), 1);
    bool depth_err = strstr(r.errors[0], "blocks nested deeper than 64 levels") != NULL;
    ck_assert_msg(depth_err == (depth == 65), "depth %u: %s", depth, r.errors[0]);
    if (depth == 65) {
      // the 65th "a {": column 64 x 3 + 3
      ck_assert_str_eq(r.errors[0], "d.conf:1:195: blocks nested deeper than 64 levels");
    }
  }
}
END_TEST

START_TEST(test_messages_counted_once_and_bounded) {
  static xtm_cos_result_t r;
  static char buf[8192];
  xtm_fw_hw_t hw = default_hw();
  // a dangling drop profile met by two interfaces: one error, not two
  snprintf(
      buf, sizeof(buf),
      "class-of-service {\n"
      " forwarding-classes { class a queue-num 0; }\n"
      " schedulers { s { drop-profile-map loss-priority any protocol any drop-profile nope; } }\n"
      " scheduler-maps { m { forwarding-class a scheduler s; } }\n"
      " interfaces { et-0/0/1 { speed 100g; scheduler-map m; } et-0/0/2 { speed 100g; "
      "scheduler-map m; } }\n"
      "}\n");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 1);
  ck_assert_str_eq(r.errors[0],
                   "t.conf:3:80: scheduler 's' refers to undefined drop-profile 'nope'");
  // 64 unused drop profiles (the most a configuration holds) and 8 unused schedulers: 72
  // distinct warnings, 64 stored, 8 counted as dropped
  char extra[8192] = " drop-profiles {";
  for (int i = 0; i < 64; i++) {
    char one[48];
    snprintf(one, sizeof(one), " p%d { fill-level 10 drop-probability 1; }", i);
    strcat(extra, one);
  }
  strcat(extra, " }\n schedulers {");
  for (int i = 0; i < 8; i++) {
    char one[48];
    snprintf(one, sizeof(one), " u%d { transmit-rate 1g; }", i);
    strcat(extra, one);
  }
  strcat(extra, " }\n");
  conf_with(buf, sizeof(buf), "transmit-rate 10g;", extra);
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 0);
  ck_assert_uint_eq(r.nwarnings, XTM_COS_MAX_WARNINGS);
  ck_assert_uint_eq(r.warnings_dropped, 72u - XTM_COS_MAX_WARNINGS);
  // one text at three positions: stored once, counted three times, the note names them
  snprintf(buf, sizeof(buf), "class-of-service {\n bogus;\n bogus;\n  bogus;\n}\n");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 3);
  ck_assert_uint_eq(r.nerror_msgs, 1);
  ck_assert_str_eq(r.errors[0], "t.conf:2:2: unknown statement 'bogus' in class-of-service");
  ck_assert_uint_eq(r.error_repeats[0], 2);
  char note[XTM_COS_MSG_LEN];
  ck_assert(xtm_cos_repeat_note(&r, false, 0, "t.conf", note, sizeof(note)));
  ck_assert_str_eq(note, "t.conf: note: the error above is repeated 2 more times (at 3:2, 4:3)");
  ck_assert(!xtm_cos_repeat_note(&r, true, 0, "t.conf", note, sizeof(note)));
  // two distinct texts stay two messages
  snprintf(buf, sizeof(buf), "class-of-service {\n bogus;\n other;\n}\n");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 2);
  ck_assert_uint_eq(r.nerror_msgs, 2);
}
END_TEST

START_TEST(test_rate_register_bounds) {
  static xtm_cos_result_t r;
  static char buf[4096];
  xtm_fw_hw_t hw = default_hw();
  // Q8.16 at 1 GHz: q = round(bps x 65536 / 8e9) (section 5.4) is 0 up to 61035 b/s and
  // 1 from 61036 b/s: the smallest shaper that sends
  conf_with(buf, sizeof(buf), "shaping-rate 61035; buffer-size temporal 100000000;", "");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 1);
  ck_assert_ptr_nonnull(strstr(
      r.errors[0], "shaping-rate 61035 of scheduler 's' rounds to 0 in the Q8.16 rate register"));
  ck_assert_ptr_nonnull(strstr(r.errors[0], "the smallest rate is 61036 b/s"));
  conf_with(buf, sizeof(buf), "shaping-rate 61036; buffer-size temporal 100000000;", "");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 0);
  ck_assert_uint_eq(r.cfg.queues[0].shaper_rate_q16, 1u);
  ck_assert(r.cfg.queues[0].shaper_en);
  // ... and is 61.9 % away from one step (122070.3 b/s): a warning
  ck_assert_uint_ge(r.nwarnings, 1);
  ck_assert_ptr_nonnull(strstr(r.warnings[0], "is programmed as 122070 b/s"));
  // 1 % is the warning threshold: 6g is exact (0x00C000), no warning
  conf_with(buf, sizeof(buf), "shaping-rate 6g;", "");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 0);
  ck_assert_uint_eq(r.cfg.queues[0].shaper_rate_q16, 0x00C000u);
  ck_assert_uint_eq(r.nwarnings, 0);
  // transmit-rate at the port rate passes, above it is refused
  conf_with(buf, sizeof(buf), "transmit-rate 100g;", "");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 0);
  conf_with(buf, sizeof(buf), "transmit-rate 100.001g;", "");
  ck_assert_uint_eq(xtm_cos_compile("t.conf", buf, &hw, NULL, &r), 1);
  ck_assert_ptr_nonnull(
      strstr(r.errors[0],
             "transmit-rate 100.001g of scheduler 's' is above the rate of 'et-0/0/1' (100 Gb/s)"));
}
END_TEST

// The legal minimum of the CYCLES field (field 0) of the register at `offset`, from the
// table generated from the TOML (the one source of register limits).
static uint32_t toml_cycles_min(uint16_t offset) {
  xtm_reg_params_t p;
  xtm_reg_params_default(&p);
  static xtm_reg_desc_t d[XTM_REG_COUNT];
  ck_assert_uint_eq(xtm_regs_build(&p, d, XTM_REG_COUNT), XTM_REG_COUNT);
  for (size_t i = 0; i < XTM_REG_COUNT; i++) {
    if (d[i].offset == offset) {
      ck_assert_str_eq(d[i].fields[0].name, "CYCLES");
      return d[i].fields[0].min;
    }
  }
  ck_abort_msg("no register at 0x%04x", offset);
  return 0;
}

// The watchdog poll limit has one source, the TOML (issue 14): XTM_FW_WD_POLL_MIN_CYCLES
// must equal the min of WD_POLL_CYCLES.CYCLES in the table generated from it, the driver
// refuses one cycle less, and the compiler refuses a poll-interval that gives fewer cycles.
START_TEST(test_wd_poll_limit_is_the_tomls) {
  ck_assert_uint_eq(toml_cycles_min(XTM_WD_POLL_CYCLES_REG_OFFSET), XTM_FW_WD_POLL_MIN_CYCLES);
  // the driver: the limit passes, one cycle less is refused before any access
  static xtm_fw_cfg_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  xtm_fw_t h = {.hw = default_hw(), .initialised = true};
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&h.mmio, &mk, g_exp, 4);
  cfg.wd = (xtm_fw_wd_cfg_t){.valid = true,
                             .en = true,
                             .action = kXtmFwWdActionDrop,
                             .poll_cycles = XTM_FW_WD_POLL_MIN_CYCLES,
                             .detect_polls = 2,
                             .restore_polls = 2};
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwOk);
  cfg.wd.poll_cycles = XTM_FW_WD_POLL_MIN_CYCLES - 1u;
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &cfg), kXtmFwBadArg);
  // the compiler: poll-interval 1 ms at a clock of MIN x 1000 Hz is MIN cycles; 1 Hz less
  // gives MIN - 1 cycles
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  const char *conf = "class-of-service { pfc-watchdog { poll-interval 1; recovery-time 1; } }\n";
  xtm_cos_opts_t o = {.clock_hz = XTM_FW_WD_POLL_MIN_CYCLES * 1000ull};
  ck_assert_uint_eq(xtm_cos_compile("t.conf", conf, &hw, &o, &r), 0);
  ck_assert_uint_eq(r.cfg.wd.poll_cycles, XTM_FW_WD_POLL_MIN_CYCLES);
  o.clock_hz -= 1u;
  ck_assert_uint_eq(xtm_cos_compile("t.conf", conf, &hw, &o, &r), 1);
  ck_assert_ptr_nonnull(strstr(r.errors[0], "pfc-watchdog poll-interval 1 ms is"));
  ck_assert_ptr_nonnull(strstr(r.errors[0], "outside the register's range"));
}
END_TEST

// The pause quantum limit has one source, the TOML (spec 7.2, 2.1.0): the driver refuses a
// P_PAUSE_QUANTUM below XTM_FW_PAUSE_QUANTUM_MIN_Q16, the min of its field, and the compiler
// a port speed and clock that give one (800g: 0.64 ns, 0.2496 cycles at 390 MHz).
START_TEST(test_pause_quantum_limit_is_the_tomls) {
  ck_assert_uint_eq(toml_cycles_min(XTM_P_PAUSE_QUANTUM_REG_OFFSET), XTM_FW_PAUSE_QUANTUM_MIN_Q16);
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  const char *conf = "class-of-service { interfaces { et-0/0/1 { speed 800g; } } }\n";
  xtm_cos_opts_t o = {.clock_hz = 400000000ull};
  ck_assert_uint_eq(xtm_cos_compile("t.conf", conf, &hw, &o, &r), 0);
  ck_assert_uint_ge(r.cfg.ports[1].pause_quantum_q16, XTM_FW_PAUSE_QUANTUM_MIN_Q16);
  xtm_fw_t h = {.hw = default_hw(), .initialised = true};
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&h.mmio, &mk, g_exp, 4);
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &r.cfg), kXtmFwOk);
  r.cfg.ports[1].pause_quantum_q16 = XTM_FW_PAUSE_QUANTUM_MIN_Q16 - 1u;
  ck_assert_int_eq(xtm_fw_cfg_validate(&h, &r.cfg), kXtmFwBadArg);
  o.clock_hz = 390000000ull;
  // the port rate register (Q8.16 bytes per cycle, below 256) has the same bound, 2048 bits
  // per cycle: both are reported
  ck_assert_uint_eq(xtm_cos_compile("t.conf", conf, &hw, &o, &r), 2);
  ck_assert_ptr_nonnull(strstr(r.errors[0], "below the register's minimum of 0.25"));
}
END_TEST

// ------------------------------------------------------------------ dcqcn driver

START_TEST(test_dcqcn_mock_sequence) {
  static xtm_cos_result_t r;
  xtm_fw_hw_t hw = default_hw();
  ck_assert_uint_eq(xtm_cos_compile_file("firmware/examples/dci-500km-final.conf", &hw, NULL, &r),
                    0);
  xtm_mmio_t io;
  xtm_mmio_mock_t mk;
  xtm_mmio_mock_init(&io, &mk, g_exp, 64);
  xtm_mock_expect_read32(&mk, DCQCN_BLOCK_TYPE_REG_OFFSET, DCQCN_BLOCK_TYPE_VALUE);
  xtm_mock_expect_read32(&mk, DCQCN_VERSION_REG_OFFSET, DCQCN_VERSION_VALUE);
  xtm_mock_expect_read32(&mk, DCQCN_HW_PARAMS_REG_OFFSET, 64);
  xtm_mock_expect_write32(&mk, DCQCN_CYCLES_PER_US_REG_OFFSET, 1000);
  // parameter order of xtm_fw_dcqcn_param_t: RPG_MIN_DEC_FAC, RPG_TIME_RESET, CLAMP_TGT_RATE
  xtm_mock_expect_write32(&mk, DCQCN_RPG_MIN_DEC_FAC_REG_OFFSET, 95);
  xtm_mock_expect_write32(&mk, DCQCN_RPG_TIME_RESET_REG_OFFSET, 7000);
  xtm_mock_expect_write32(&mk, DCQCN_CLAMP_TGT_RATE_REG_OFFSET, 1);
  xtm_mock_expect_read32(&mk, DCQCN_ERR_STATUS_REG_OFFSET, 0);
  dcqcn_fw_t d;
  ck_assert_int_eq(dcqcn_fw_init(&io, &d), kXtmFwOk);
  ck_assert_uint_eq(d.num_qps, 64);
  ck_assert_int_eq(dcqcn_fw_set_params(&d, &r.cfg.dcqcn, 1000), kXtmFwOk);
  ck_assert(xtm_mock_done(&mk));
  // out of range: refused before any access (no expectation left)
  xtm_fw_dcqcn_cfg_t bad = r.cfg.dcqcn;
  bad.value[kXtmFwDcqcnRpgMinDecFac] = 101;
  ck_assert_int_eq(dcqcn_fw_set_params(&d, &bad, 1000), kXtmFwBadArg);
  ck_assert_int_eq(dcqcn_fw_set_params(&d, &r.cfg.dcqcn, 0), kXtmFwBadArg);
  ck_assert(xtm_mock_done(&mk));
}
END_TEST

START_TEST(test_dcqcn_model_programmed) {
  // every parameter at its maximum, then read back through the dcqcn C model
  dcqcn_params_t prm;
  dcqcn_params_default(&prm);
  dcqcn_t *m = NULL;
  ck_assert_int_eq(dcqcn_create(&prm, &m), kDcqcnOk);
  dcqcn_mmio_model_t ms;
  xtm_mmio_t io;
  ck_assert_int_eq(dcqcn_mmio_model_init(&io, &ms, m), kXtmFwOk);
  dcqcn_fw_t d;
  ck_assert_int_eq(dcqcn_fw_init(&io, &d), kXtmFwOk);
  xtm_fw_dcqcn_cfg_t p = {.valid = true};
  for (int i = 0; i < kXtmFwDcqcnCount; i++) {
    p.set[i] = true;
    p.value[i] = xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)i)->max;
  }
  ck_assert_int_eq(dcqcn_fw_set_params(&d, &p, 1250), kXtmFwOk);
  for (int i = 0; i < kXtmFwDcqcnCount; i++) {
    uint32_t v = 0;
    ck_assert_int_eq(xtm_mmio_read32(&io, dcqcn_fw_param_offset((xtm_fw_dcqcn_param_t)i), &v),
                     kXtmFwOk);
    ck_assert_uint_eq(v, p.value[i]);
    p.value[i] = xtm_fw_dcqcn_info((xtm_fw_dcqcn_param_t)i)->min;
  }
  ck_assert_int_eq(dcqcn_fw_set_params(&d, &p, 1), kXtmFwOk);
  dcqcn_destroy(m);
}
END_TEST

Suite *fw_suite(void) {
  Suite *s = suite_create("firmware");
  TCase *d = tcase_create("driver-mock");
  tcase_add_test(d, test_init_reads_params);
  tcase_add_test(d, test_init_refuses_wrong_block);
  tcase_add_test(d, test_wait_init_times_out);
  tcase_add_test(d, test_guards_touch_nothing);
  tcase_add_test(d, test_bringup_refuses_bad_image_before_writing);
  tcase_add_test(d, test_field_helpers);
  tcase_add_test(d, test_policer_mock_sequence);
  tcase_add_test(d, test_policer_guards_touch_nothing);
  suite_add_tcase(s, d);
  TCase *e = tcase_create("equivalence");
  tcase_set_timeout(e, 60);
  tcase_add_test(e, test_equiv_dci_500km);
  tcase_add_test(e, test_equiv_roce_lab);
  tcase_add_test(e, test_model_bringup_timeout_reported);
  tcase_add_test(e, test_equiv_fabric_policed);
  tcase_add_test(e, test_model_policer_after_init_only);
  tcase_add_test(e, test_model_policed_example_polices);
  suite_add_tcase(s, e);
  TCase *c = tcase_create("compiler");
  tcase_add_test(c, test_conversions);
  tcase_add_test(c, test_target_rate_rule);
  tcase_add_test(c, test_policer_plan_per_port);
  tcase_add_test(c, test_input_bounds);
  tcase_add_test(c, test_messages_counted_once_and_bounded);
  tcase_add_test(c, test_rate_register_bounds);
  tcase_add_test(c, test_wd_poll_limit_is_the_tomls);
  tcase_add_test(c, test_pause_quantum_limit_is_the_tomls);
  suite_add_tcase(s, c);
  TCase *q = tcase_create("dcqcn-driver");
  tcase_add_test(q, test_dcqcn_mock_sequence);
  tcase_add_test(q, test_dcqcn_model_programmed);
  suite_add_tcase(s, q);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(fw_suite());
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
