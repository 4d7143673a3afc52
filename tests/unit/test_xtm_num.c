// SPDX-License-Identifier: Apache-2.0
//
// Suite "xtm_num": the strict number parser every tool uses (tools/lib/xtm_num.h). Each
// table row is one input with the expected status and value; the messages are checked
// word for word for the forms the tools' bad-input tests rely on.

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tests/unit/xtm_testlib.h"
#include "tools/lib/xtm_num.h"

typedef struct {
  const char *s;
  uint64_t min, max;
  xtm_num_status_t st;
  uint64_t v;
} u_case_t;

START_TEST(test_u64_table) {
  static const u_case_t kCases[] = {
      {"0", 0, 10, kXtmNumOk, 0},
      {"10", 0, 10, kXtmNumOk, 10},
      {"007", 0, 10, kXtmNumOk, 7},  // decimal, not octal
      {"11", 0, 10, kXtmNumRange, 0},
      {"0", 1, 10, kXtmNumRange, 0},
      {"18446744073709551615", 0, UINT64_MAX, kXtmNumOk, UINT64_MAX},
      {"18446744073709551616", 0, UINT64_MAX, kXtmNumRange, 0},  // 2^64: no wrap
      {"4294967297", 0, UINT32_MAX, kXtmNumRange, 0},            // 2^32 + 1: no wrap to 1
      {"99999999999999999999999999", 0, UINT64_MAX, kXtmNumRange, 0},
      {"", 0, 10, kXtmNumEmpty, 0},
      {"4096abc", 0, 1u << 20, kXtmNumSyntax, 0},
      {"1e15", 0, UINT64_MAX, kXtmNumSyntax, 0},
      {"1.5", 0, 10, kXtmNumSyntax, 0},
      {"1.0", 0, 10, kXtmNumSyntax, 0},
      {"0x10", 0, 100, kXtmNumSyntax, 0},
      {"-1", 0, UINT64_MAX, kXtmNumSyntax, 0},  // strtoull would give 2^64 - 1
      {"+1", 0, 10, kXtmNumSyntax, 0},
      {" 1", 0, 10, kXtmNumSyntax, 0},
      {"1 ", 0, 10, kXtmNumSyntax, 0},
      {"1\n", 0, 10, kXtmNumSyntax, 0},
      {"inf", 0, 10, kXtmNumSyntax, 0},
      {"1;", 0, 10, kXtmNumSyntax, 0},
      {"\xc2\xb9", 0, 10, kXtmNumSyntax, 0},  // superscript one
  };
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    const u_case_t *c = &kCases[i];
    uint64_t v = 12345;
    xtm_num_msg_t m;
    xtm_num_status_t st = xtm_num_u64("x", c->s, c->min, c->max, &v, &m);
    ck_assert_msg(st == c->st, "'%s': status %s, expected %s", c->s, xtm_num_status_name(st),
                  xtm_num_status_name(c->st));
    ck_assert_uint_eq(v, c->st == kXtmNumOk ? c->v : 12345u);  // untouched on error
  }
  uint64_t v;
  ck_assert_int_eq(xtm_num_u64("x", NULL, 0, 1, &v, NULL), kXtmNumEmpty);
}
END_TEST

START_TEST(test_i64_table) {
  int64_t v = 0;
  ck_assert_int_eq(xtm_num_i64("x", "-5", -10, 10, &v, NULL), kXtmNumOk);
  ck_assert_int_eq(v, -5);
  ck_assert_int_eq(xtm_num_i64("x", "-9223372036854775808", INT64_MIN, INT64_MAX, &v, NULL),
                   kXtmNumOk);
  ck_assert(v == INT64_MIN);
  ck_assert_int_eq(xtm_num_i64("x", "9223372036854775807", INT64_MIN, INT64_MAX, &v, NULL),
                   kXtmNumOk);
  ck_assert(v == INT64_MAX);
  ck_assert_int_eq(xtm_num_i64("x", "9223372036854775808", INT64_MIN, INT64_MAX, &v, NULL),
                   kXtmNumRange);
  ck_assert_int_eq(xtm_num_i64("x", "-9223372036854775809", INT64_MIN, INT64_MAX, &v, NULL),
                   kXtmNumRange);
  ck_assert_int_eq(xtm_num_i64("x", "-", -10, 10, &v, NULL), kXtmNumSyntax);
  ck_assert_int_eq(xtm_num_i64("x", "--1", -10, 10, &v, NULL), kXtmNumSyntax);
  ck_assert_int_eq(xtm_num_i64("x", "-11", -10, 10, &v, NULL), kXtmNumRange);
  ck_assert_int_eq(xtm_num_i64("x", "2.5", -10, 10, &v, NULL), kXtmNumSyntax);
}
END_TEST

START_TEST(test_fixed_table) {
  static const struct {
    const char *s;
    unsigned dec;
    xtm_num_status_t st;
    uint64_t v;
  } kCases[] = {
      {"12947.5", 3, kXtmNumOk, 12947500},
      {"1", 3, kXtmNumOk, 1000},
      {"0.001", 3, kXtmNumOk, 1},
      {"1.2500", 3, kXtmNumOk, 1250},  // extra zeros lose nothing
      {"1.2345", 3, kXtmNumPrecision, 0},
      {"0.0001", 3, kXtmNumPrecision, 0},
      {"1.", 3, kXtmNumSyntax, 0},
      {".5", 3, kXtmNumSyntax, 0},
      {"1e3", 3, kXtmNumSyntax, 0},
      {"1.2.3", 3, kXtmNumSyntax, 0},
      {"0x1p5", 3, kXtmNumSyntax, 0},
      {"-1", 3, kXtmNumSyntax, 0},
      {"18446744073709551.615", 3, kXtmNumOk, UINT64_MAX},
      {"18446744073709551.616", 3, kXtmNumRange, 0},
      {"18446744073709552", 3, kXtmNumRange, 0},
      {"7", 0, kXtmNumOk, 7},
      {"7.0", 0, kXtmNumOk, 7},
      {"7.5", 0, kXtmNumPrecision, 0},
  };
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    uint64_t v = 99;
    xtm_num_status_t st = xtm_num_fixed("x", kCases[i].s, kCases[i].dec, 0, UINT64_MAX, &v, NULL);
    ck_assert_msg(st == kCases[i].st, "'%s': status %s, expected %s", kCases[i].s,
                  xtm_num_status_name(st), xtm_num_status_name(kCases[i].st));
    ck_assert_uint_eq(v, kCases[i].st == kXtmNumOk ? kCases[i].v : 99u);
  }
  uint64_t v;
  ck_assert_int_eq(xtm_num_fixed("x", "0", 3, 1, 1000000, &v, NULL), kXtmNumRange);
}
END_TEST

START_TEST(test_f64_table) {
  static const struct {
    const char *s;
    xtm_num_status_t st;
    double v;
  } kCases[] = {
      {"1", kXtmNumOk, 1.0},          {"102.5", kXtmNumOk, 102.5},   {"-2.25", kXtmNumOk, -2.25},
      {"1e3", kXtmNumOk, 1000.0},     {"1.5E-3", kXtmNumOk, 0.0015}, {"1e+2", kXtmNumOk, 100.0},
      {"0x1p5", kXtmNumSyntax, 0},  // hex float: not in the grammar
      {"0x10", kXtmNumSyntax, 0},     {"inf", kXtmNumSyntax, 0},     {"nan", kXtmNumSyntax, 0},
      {"infinity", kXtmNumSyntax, 0}, {".5", kXtmNumSyntax, 0},      {"5.", kXtmNumSyntax, 0},
      {"+5", kXtmNumSyntax, 0},       {"1e", kXtmNumSyntax, 0},      {"1e+", kXtmNumSyntax, 0},
      {"1,5", kXtmNumSyntax, 0},      {"1 ", kXtmNumSyntax, 0},      {"", kXtmNumEmpty, 0},
      {"1e400", kXtmNumRange, 0},   // overflows a double
      {"1e-400", kXtmNumRange, 0},  // underflows to 0: not silently 0
      {"1e20", kXtmNumRange, 0},    // above max below
  };
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); i++) {
    double v = 42.0;
    xtm_num_status_t st = xtm_num_f64("x", kCases[i].s, -1e6, 1e6, &v, NULL);
    ck_assert_msg(st == kCases[i].st, "'%s': status %s, expected %s", kCases[i].s,
                  xtm_num_status_name(st), xtm_num_status_name(kCases[i].st));
    if (kCases[i].st == kXtmNumOk) {
      ck_assert_double_eq_tol(v, kCases[i].v, 1e-12);
    } else {
      ck_assert_double_eq(v, 42.0);
    }
  }
}
END_TEST

START_TEST(test_messages) {
  xtm_num_msg_t m;
  uint64_t u;
  double d;
  ck_assert_int_eq(xtm_num_u64("--us", "1e15", 1, 1000000, &u, &m), kXtmNumSyntax);
  ck_assert_str_eq(m.text, "--us '1e15' is not an integer (expected 1..1000000)");
  ck_assert_int_eq(xtm_num_u64("--num-desc", "4096abc", 2, 1048576, &u, &m), kXtmNumSyntax);
  ck_assert_str_eq(m.text, "--num-desc '4096abc' is not an integer (expected 2..1048576)");
  ck_assert_int_eq(xtm_num_u64("clients", "0", 1, 64, &u, &m), kXtmNumRange);
  ck_assert_str_eq(m.text, "clients '0' is out of range 1..64");
  ck_assert_int_eq(xtm_num_u64("--us", "", 1, 10, &u, &m), kXtmNumEmpty);
  ck_assert_str_eq(m.text, "--us needs a value (an integer 1..10)");
  ck_assert_int_eq(xtm_num_f64("--every-us", "0.0000001", 0.001, 1e6, &d, &m), kXtmNumRange);
  ck_assert_str_eq(m.text, "--every-us '0.0000001' is out of range 0.001..1000000");
  ck_assert_int_eq(xtm_num_f64("distance_km", "0x1p5", 0, 20000, &d, &m), kXtmNumSyntax);
  ck_assert_str_eq(m.text, "distance_km '0x1p5' is not a decimal number (expected 0..20000)");
  ck_assert_int_eq(xtm_num_fixed("buffer-size", "1.2345", 3, 1, 1000000000, &u, &m),
                   kXtmNumPrecision);
  ck_assert_str_eq(m.text,
                   "buffer-size '1.2345' has more than 3 decimals (expected 0.001..1000000)");
  ck_assert_int_eq(xtm_num_fixed("k", "x", 2, 150, 250, &u, &m), kXtmNumSyntax);
  ck_assert_str_eq(m.text, "k 'x' is not a number with at most 2 decimals (expected 1.5..2.5)");
  ck_assert_int_eq(xtm_num_u64(NULL, "x", 0, 1, &u, &m), kXtmNumSyntax);
  ck_assert_str_eq(m.text, "'x' is not an integer (expected 0..1)");
}
END_TEST

START_TEST(test_quote_hostile_text) {
  char b[256];
  xtm_num_quote(b, sizeof(b), "a\tb\x1b[2J'\\");
  ck_assert_str_eq(b, "a\\x09b\\x1b[2J'\\x5c");
  char big[400];
  memset(big, '7', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  xtm_num_quote(b, sizeof(b), big);
  ck_assert_uint_eq(strlen(b), 48 + 3);  // cut, and says so
  ck_assert_str_eq(b + 48, "...");
  xtm_num_quote(b, 5, "abcdefgh");  // never overruns a small buffer
  ck_assert_str_eq(b, "abcd");
  xtm_num_msg_t m;
  uint64_t u;
  ck_assert_int_eq(xtm_num_u64("--us", big, 1, 10, &u, &m), kXtmNumRange);
  ck_assert_ptr_nonnull(strstr(m.text, "...' is out of range 1..10"));
}
END_TEST

static Suite *num_suite(void) {
  Suite *s = suite_create("xtm_num");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_u64_table);
  tcase_add_test(tc, test_i64_table);
  tcase_add_test(tc, test_fixed_table);
  tcase_add_test(tc, test_f64_table);
  tcase_add_test(tc, test_messages);
  tcase_add_test(tc, test_quote_hostile_text);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tl_run_suite(num_suite()); }
