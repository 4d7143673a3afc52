// SPDX-License-Identifier: Apache-2.0
//
// Handles and bit packing shared by the DPI-C layers of the models (cmodel/dpi/xtm_dpi.c,
// cmodel/dpi/dcqcn_dpi.c). Internal to cmodel/dpi: the SystemVerilog side only sees
// `chandle` values and the svdpi.h canonical bit vectors (IEEE 1800-2017 Annex H).
//
// A handle given to SystemVerilog is a token, never a pointer: kind tag | generation | slot.
// It is looked up in a fixed table of slots and never dereferenced, so a null, stale
// (destroyed), forged or other-model handle is refused with a status code instead of
// crashing. Every call on an instance claims the slot's busy flag for its duration: two
// threads calling into the same instance at once get kDpiBusy instead of corrupting it,
// and destroy cannot free an instance another thread is using.

#ifndef XTM_CMODEL_DPI_DPI_HANDLE_H_
#define XTM_CMODEL_DPI_DPI_HANDLE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "svdpi.h"

#ifdef __cplusplus
extern "C" {
#endif

// Status codes of every DPI function (the SV packages define the same values).
typedef enum dpi_status {
  kDpiOk = 0,
  kDpiFalse = 1,       // a valid "no" answer: CSR error, no output, invariant broken, ...
  kDpiBadHandle = -1,  // null, destroyed, forged, or a handle of the other model
  kDpiBadArg = -2,     // an index or parameter outside its range (see last_error)
  kDpiNoMem = -3,      // allocation failed (create only)
  kDpiFull = -4,       // all DPI_MAX_INSTANCES slots in use
  kDpiBusy = -5,       // the instance is in use by another thread right now
  kDpiAbi = -6,        // the SV package and the C layer disagree (version or layout)
} dpi_status_t;

#define DPI_MAX_INSTANCES 256u

typedef struct dpi_slot {
  _Atomic(uintptr_t) gen;  // odd: live; bumped by create and by destroy
  atomic_bool busy;
  void *obj;  // written only while holding busy (or the table lock at create)
} dpi_slot_t;

typedef struct dpi_table {
  uint32_t kind;     // 8-bit tag in the token's top bits: xtm and dcqcn handles differ
  atomic_bool lock;  // create/destroy only
  atomic_uint live;
  dpi_slot_t slot[DPI_MAX_INSTANCES];
} dpi_table_t;

// Registers obj in a free slot; *tok receives the handle. kDpiFull when none is free.
dpi_status_t dpi_handle_new(dpi_table_t *t, void *obj, void **tok);
// Claims the instance behind tok (busy flag) and returns it in *obj; pair with
// dpi_handle_release. kDpiBadHandle / kDpiBusy otherwise (nothing claimed).
dpi_status_t dpi_handle_acquire(dpi_table_t *t, const void *tok, void **obj, uint32_t *slot);
void dpi_handle_release(dpi_table_t *t, uint32_t slot);
// Unregisters tok and returns its object in *obj for the caller to free.
dpi_status_t dpi_handle_delete(dpi_table_t *t, const void *tok, void **obj);

// The last error message of the calling thread ("" when the last failing call left none).
void dpi_set_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
const char *dpi_last_error(void);
const char *dpi_status_name(int s);
// A status code with its message set: `return dpi_fail(kDpiBadArg, "...", ...)`.
int dpi_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// ------------------------------------------------------------------ canonical bit vectors
// svBitVecVal arrays: word k holds bits 32k+31..32k (IEEE 1800-2017 H.7.7). A packed struct
// argument is its bit vector, first member in the most significant bits. These are
// inline: a step packs some hundred fields.
static inline uint64_t dpi_get(const svBitVecVal *v, uint32_t lsb, uint32_t w) {
  uint32_t wi = lsb >> 5, sh = lsb & 31u;
  uint64_t x = (uint64_t)v[wi] >> sh;
  if (sh + w > 32u) {
    x |= (uint64_t)v[wi + 1] << (32u - sh);
  }
  if (sh + w > 64u) {
    x |= (uint64_t)v[wi + 2] << (64u - sh);
  }
  return w >= 64u ? x : (x & ((1ull << w) - 1u));
}
static inline void dpi_put(svBitVecVal *v, uint32_t lsb, uint32_t w, uint64_t x) {
  uint64_t m = w >= 64u ? ~0ull : ((1ull << w) - 1u);
  x &= m;
  for (uint32_t done = 0; done < w;) {
    uint32_t b = lsb + done, wi = b >> 5, sh = b & 31u;
    uint32_t n = 32u - sh < w - done ? 32u - sh : w - done;
    uint32_t mw = (n >= 32u ? 0xFFFFFFFFu : ((1u << n) - 1u)) << sh;
    v[wi] = (v[wi] & ~mw) | ((uint32_t)((x >> done) << sh) & mw);
    done += n;
  }
}
// Words of a packed vector of `bits` bits.
#define DPI_WORDS(bits) (((bits) + 31u) / 32u)

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // XTM_CMODEL_DPI_DPI_HANDLE_H_
