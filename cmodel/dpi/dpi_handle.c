// SPDX-License-Identifier: Apache-2.0
//
// Handle table and error messages of the DPI-C layers (dpi_handle.h explains the design).

#include "cmodel/dpi/dpi_handle.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

// token = kind (8 bits, top) | generation | slot + 1 (9 bits, bottom)
#define TOK_BITS (sizeof(uintptr_t) * CHAR_BIT)
#define TOK_SLOT_BITS 9u
#define TOK_GEN_BITS (TOK_BITS - 8u - TOK_SLOT_BITS)
#define TOK_GEN_MASK ((((uintptr_t)1) << TOK_GEN_BITS) - 1u)

static _Thread_local char g_err[256];

void dpi_set_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof(g_err), fmt, ap);
  va_end(ap);
}

int dpi_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof(g_err), fmt, ap);
  va_end(ap);
  return status;
}

const char *dpi_last_error(void) { return g_err; }

const char *dpi_status_name(int s) {
  switch (s) {
    case kDpiOk:
      return "OK";
    case kDpiFalse:
      return "FALSE";
    case kDpiBadHandle:
      return "BAD_HANDLE";
    case kDpiBadArg:
      return "BAD_ARG";
    case kDpiNoMem:
      return "NO_MEM";
    case kDpiFull:
      return "FULL";
    case kDpiBusy:
      return "BUSY";
    case kDpiAbi:
      return "ABI";
    default:
      return "UNKNOWN_STATUS";
  }
}

static void table_lock(dpi_table_t *t) {
  while (atomic_exchange(&t->lock, true)) {
    // create/destroy are rare; a spin is enough and needs no thread library
  }
}
static void table_unlock(dpi_table_t *t) { atomic_store(&t->lock, false); }

static uintptr_t tok_make(const dpi_table_t *t, uintptr_t gen, uint32_t slot) {
  return ((uintptr_t)(t->kind & 0xFFu) << (TOK_BITS - 8u)) |
         ((gen & TOK_GEN_MASK) << TOK_SLOT_BITS) | (uintptr_t)(slot + 1u);
}

// Decodes tok into its slot; false when it cannot be one of this table's handles.
static bool tok_slot(const dpi_table_t *t, const void *tok, uint32_t *slot, uintptr_t *gen) {
  uintptr_t v = (uintptr_t)tok;
  uintptr_t s = v & ((((uintptr_t)1) << TOK_SLOT_BITS) - 1u);
  if (tok == NULL || (v >> (TOK_BITS - 8u)) != (t->kind & 0xFFu) || s == 0u ||
      s > DPI_MAX_INSTANCES) {
    return false;
  }
  *slot = (uint32_t)(s - 1u);
  *gen = (v >> TOK_SLOT_BITS) & TOK_GEN_MASK;
  // a live slot's generation is odd: an even one is a free slot's (never used, or destroyed),
  // which a forged or stale-plus-one token could otherwise match
  return (*gen & 1u) != 0u;
}

dpi_status_t dpi_handle_new(dpi_table_t *t, void *obj, void **tok) {
  table_lock(t);
  for (uint32_t i = 0; i < DPI_MAX_INSTANCES; i++) {
    dpi_slot_t *s = &t->slot[i];
    uintptr_t g = atomic_load(&s->gen);
    if ((g & 1u) == 0u && !atomic_load(&s->busy)) {
      uintptr_t ng = g + 1u;  // odd; even g <= TOK_GEN_MASK - 1, so it stays in the field
      s->obj = obj;
      atomic_store(&s->gen, ng);
      atomic_fetch_add(&t->live, 1u);
      table_unlock(t);
      *tok = (void *)tok_make(t, ng, i);
      return kDpiOk;
    }
  }
  table_unlock(t);
  return kDpiFull;
}

dpi_status_t dpi_handle_acquire(dpi_table_t *t, const void *tok, void **obj, uint32_t *slot) {
  uintptr_t gen;
  if (!tok_slot(t, tok, slot, &gen)) {
    return kDpiBadHandle;
  }
  dpi_slot_t *s = &t->slot[*slot];
  if (atomic_load(&s->gen) != gen) {
    return kDpiBadHandle;
  }
  if (atomic_exchange(&s->busy, true)) {
    return kDpiBusy;
  }
  // destroyed between the check and the claim?
  if (atomic_load(&s->gen) != gen) {
    atomic_store(&s->busy, false);
    return kDpiBadHandle;
  }
  *obj = s->obj;
  return kDpiOk;
}

void dpi_handle_release(dpi_table_t *t, uint32_t slot) { atomic_store(&t->slot[slot].busy, false); }

dpi_status_t dpi_handle_delete(dpi_table_t *t, const void *tok, void **obj) {
  uint32_t slot;
  uintptr_t gen;
  if (!tok_slot(t, tok, &slot, &gen)) {
    return kDpiBadHandle;
  }
  table_lock(t);
  dpi_slot_t *s = &t->slot[slot];
  if (atomic_load(&s->gen) != gen) {
    table_unlock(t);
    return kDpiBadHandle;
  }
  if (atomic_exchange(&s->busy, true)) {
    table_unlock(t);
    return kDpiBusy;
  }
  *obj = s->obj;
  s->obj = NULL;
  atomic_store(&s->gen, (gen + 1u) & TOK_GEN_MASK);  // even: free
  atomic_store(&s->busy, false);
  atomic_fetch_sub(&t->live, 1u);
  table_unlock(t);
  return kDpiOk;
}
