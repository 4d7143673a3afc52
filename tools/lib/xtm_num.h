// SPDX-License-Identifier: Apache-2.0
//
// xtm_num: the one strict number parser of every xtm tool (xtmctl, dcqcn-trace, xtm-demo,
// xtm-bench, xtm-netsim, the configuration compiler). A value is accepted only when the
// whole string is a number of the asked kind and inside the asked range; nothing is
// truncated, wrapped, rounded to an integer or read in another base behind the user's back.
//
// Grammar (docs/firmware.md "Bad input"):
//   integer  [0-9]+                         decimal only: no sign, no spaces, no 0x, no
//                                           octal (007 is 7), no exponent, no fraction
//   signed   -?[0-9]+                       (xtm_num_i64)
//   fixed    [0-9]+(\.[0-9]{1,D})?          at most D decimals, value x 10^D exactly
//   real     -?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?   decimal only: no hex floats (0x1p5),
//                                           no inf/nan, no leading '.' or '+', finite
// Every function returns kXtmNumOk and writes *out, or an error status and leaves *out
// unchanged; with a non-NULL `msg` it also writes one line naming the option or key `what`
// and the text as typed (non-printable bytes shown as \xNN, long text cut with "..."):
//   --us '1e15' is not an integer (expected 1..1000000)
//   --num-desc '4096abc' is not an integer (expected 2..1048576)
//   clients '0' is out of range 1..64
//   --every-us '0.0000001' is out of range 0.001..1000000
//   buffer-size '1.2345' has more than 3 decimals
// Thread-safe and allocation-free; C11, hosted (uses strtod for the real grammar only after
// the text has been validated, in the C locale's '.' decimal point).

#ifndef XTM_TOOLS_LIB_XTM_NUM_H_
#define XTM_TOOLS_LIB_XTM_NUM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XTM_NUM_MSG_LEN 256

typedef enum xtm_num_status {
  kXtmNumOk = 0,
  kXtmNumEmpty,      // NULL or ""
  kXtmNumSyntax,     // not a number of the asked kind (trailing junk, sign, hex, ...)
  kXtmNumRange,      // a number, but outside min..max (also: too large for 64 bits)
  kXtmNumPrecision,  // fixed: more decimals than the field holds
} xtm_num_status_t;

typedef struct xtm_num_msg {
  char text[XTM_NUM_MSG_LEN];
} xtm_num_msg_t;

// Unsigned decimal integer in min..max.
__attribute__((warn_unused_result)) xtm_num_status_t xtm_num_u64(const char *what, const char *s,
                                                                 uint64_t min, uint64_t max,
                                                                 uint64_t *out, xtm_num_msg_t *msg);
// Signed decimal integer in min..max.
__attribute__((warn_unused_result)) xtm_num_status_t xtm_num_i64(const char *what, const char *s,
                                                                 int64_t min, int64_t max,
                                                                 int64_t *out, xtm_num_msg_t *msg);
// Decimal fixed point with at most `decimals` (0..9) fraction digits: *out = value x
// 10^decimals, exactly; the range is in the same scaled unit (e.g. decimals 3, "12.5" -> 12500).
__attribute__((warn_unused_result)) xtm_num_status_t xtm_num_fixed(const char *what, const char *s,
                                                                   unsigned decimals, uint64_t min,
                                                                   uint64_t max, uint64_t *out,
                                                                   xtm_num_msg_t *msg);
// Decimal real number (finite) in min..max, both inclusive.
__attribute__((warn_unused_result)) xtm_num_status_t xtm_num_f64(const char *what, const char *s,
                                                                 double min, double max,
                                                                 double *out, xtm_num_msg_t *msg);

// The text as a message shows it: printable ASCII kept, other bytes as \xNN, cut to about
// 48 characters with "..." (also for names in other messages: hostile text never reaches
// a terminal raw).
void xtm_num_quote(char *buf, size_t n, const char *s);

// "ok", "empty", "not a number", "out of range", "too many decimals".
const char *xtm_num_status_name(xtm_num_status_t st);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_TOOLS_LIB_XTM_NUM_H_
