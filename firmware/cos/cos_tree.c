// SPDX-License-Identifier: Apache-2.0
//
// Configuration compiler, front end: Junos configuration text -> one statement tree.
//   - tokens with line and column (words, { } ; [ ], quoted strings, # and /* */ comments);
//   - the curly form (`show configuration`), with `inactive:` / `protect:` markers;
//   - the set form (`show configuration | display set`: `set`, `deactivate`, `activate`,
//     `delete` commands, one per line), built into the same tree with a schema of the
//     statements whose shape the set form does not show (which words name a block, which
//     start a leaf, which leaves are lists);
//   - inactive statements removed (one warning each: Junos ignores them too);
//   - apply-groups expanded (Junos inheritance: the group's statements at the same
//     hierarchy path, `<pattern>` wildcards, the configuration itself and earlier groups
//     first), the groups stanza removed.
// docs/firmware.md section 4.1.

#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/cos/cos_internal.h"

// ------------------------------------------------------------------ nodes

static node_t *node_new(void) { return calloc(1, sizeof(node_t)); }

void cos_node_free(node_t *n) {
  if (n == NULL) {
    return;
  }
  for (size_t i = 0; i < n->nkids; i++) {
    cos_node_free(n->kids[i]);  // depth <= XTM_COS_MAX_DEPTH (parse_block, the schema)
  }
  free(n->kids);
  free(n->w);
  free(n);
}

static bool add_word(node_t *n, const tok_t *t) {
  if (!cos_grow((void **)&n->w, &n->wcap, n->nw + 1u, sizeof(tok_t *), 4u)) {
    return false;
  }
  n->w[n->nw++] = t;
  return true;
}

static bool add_kid(node_t *p, node_t *k) {
  if (!cos_grow((void **)&p->kids, &p->kcap, p->nkids + 1u, sizeof(node_t *), 4u)) {
    return false;
  }
  p->kids[p->nkids++] = k;
  return true;
}

tok_t *cos_synth_tok(ctx_t *c, int type, const char *text, int line, int col) {
  tok_t *t = malloc(sizeof(tok_t));
  if (t == NULL ||
      !cos_grow((void **)&c->extra, &c->extracap, c->nextra + 1u, sizeof(tok_t *), 16u)) {
    free(t);
    return NULL;
  }
  *t = (tok_t){.type = type, .text = text, .line = line, .col = col};
  c->extra[c->nextra++] = t;
  return t;
}

// ------------------------------------------------------------------ tokens

static bool push_tok(ctx_t *c, cos_tree_t *ts, int type, const char *text, int line, int col) {
  if (!cos_grow((void **)&ts->v, &ts->cap, ts->n + 1u, sizeof(tok_t), 256u)) {
    err(c, NULL, "out of memory after %zu tokens", ts->n);
    return false;
  }
  ts->v[ts->n++] = (tok_t){.type = type, .text = text, .line = line, .col = col};
  return true;
}

static bool tokenize(ctx_t *c, const char *src, cos_tree_t *ts) {
  size_t len = strlen(src);
  if (len > XTM_COS_MAX_INPUT_BYTES) {
    err(c, NULL, "input is %zu bytes, above the limit of %u bytes", len,
        (unsigned)XTM_COS_MAX_INPUT_BYTES);
    return false;
  }
  ts->store = malloc(2 * len + 16);
  if (ts->store == NULL) {
    err(c, NULL, "out of memory reading %zu bytes", len);
    return false;
  }
  char *out = ts->store;
  int line = 1;
  int col = 1;
  size_t i = 0;
  while (i < len) {
    char ch = src[i];
    if (ch == '\n') {
      line++;
      col = 1;
      i++;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      col++;
      i++;
      continue;
    }
    if (ch == '#') {
      while (i < len && src[i] != '\n') {
        i++;
      }
      continue;
    }
    if (ch == '/' && i + 1 < len && src[i + 1] == '*') {
      int l0 = line;
      int c0 = col;
      i += 2;
      col += 2;
      while (i + 1 < len && !(src[i] == '*' && src[i + 1] == '/')) {
        if (src[i] == '\n') {
          line++;
          col = 1;
        } else {
          col++;
        }
        i++;
      }
      if (i + 1 >= len) {
        tok_t t = {.type = 0, .text = "/*", .line = l0, .col = c0};
        err(c, &t, "unterminated comment '/*'");
        return false;
      }
      i += 2;
      col += 2;
      continue;
    }
    if (strchr("{};[]", ch) != NULL) {
      out[0] = ch;
      out[1] = '\0';
      if (!push_tok(c, ts, ch, out, line, col)) {
        return false;
      }
      out += 2;
      i++;
      col++;
      continue;
    }
    if (ch == '"') {
      // Junos strings escape a quote or a backslash with a backslash
      int c0 = col;
      size_t j = i + 1;
      char *w = out;
      while (j < len && src[j] != '"' && src[j] != '\n') {
        unsigned char b = (unsigned char)src[j];
        if (b < 0x20u || b == 0x7fu) {  // a TAB, ESC, CR ... in a name reaches JSON and terminals
          tok_t t = {.type = 0, .text = "\"", .line = line, .col = col + (int)(j - i)};
          err(c, &t, "control character 0x%02x in a quoted string", (unsigned)b);
          return false;
        }
        if (b == '\\' && j + 1 < len && (src[j + 1] == '"' || src[j + 1] == '\\')) {
          j++;
        }
        *out++ = src[j++];
      }
      if (j >= len || src[j] != '"') {
        tok_t t = {.type = 0, .text = "\"", .line = line, .col = c0};
        err(c, &t, "unterminated string");
        return false;
      }
      *out++ = '\0';
      if (!push_tok(c, ts, 'w', w, line, c0)) {
        return false;
      }
      col += (int)(j + 1 - i);
      i = j + 1;
      continue;
    }
    unsigned char uc = (unsigned char)ch;
    if (uc < 0x80u && !isgraph(uc)) {
      tok_t t = {.type = 0, .text = "?", .line = line, .col = col};
      err(c, &t, "unexpected character 0x%02x", (unsigned)uc);
      return false;
    }
    // a word: printable ASCII but the separators, or bytes above 0x7F (UTF-8 in a
    // description); object names are checked for printable ASCII where they are defined
    int c0 = col;
    char *w = out;
    while (i < len) {
      unsigned char b = (unsigned char)src[i];
      if ((b < 0x80u && !isgraph(b)) || strchr("{};[]\"#", src[i]) != NULL) {
        break;
      }
      *out++ = src[i++];
      col++;
    }
    *out++ = '\0';
    if (!push_tok(c, ts, 'w', w, line, c0)) {
      return false;
    }
  }
  return push_tok(c, ts, 0, "end of file", line, col);
}

// ------------------------------------------------------------------ curly form

static bool is_marker(const tok_t *t) {
  return t->type == 'w' && (strcmp(t->text, "inactive:") == 0 || strcmp(t->text, "protect:") == 0 ||
                            strcmp(t->text, "replace:") == 0);
}

// Parses statements until '}' (depth > 0) or EOF; returns false on a syntax error. One
// level of recursion per block, at most XTM_COS_MAX_DEPTH deep.
static bool parse_block(ctx_t *c, const cos_tree_t *ts, size_t *pos, node_t *parent,
                        const tok_t *open, unsigned depth) {
  for (;;) {
    const tok_t *t = &ts->v[*pos];
    if (t->type == 0) {
      if (open != NULL) {
        err(c, open, "missing '}' for the '{' opened here (reached the end of the file)");
        return false;
      }
      return true;
    }
    if (t->type == '}') {
      if (open == NULL) {
        err(c, t, "unexpected '}' (no block is open)");
        return false;
      }
      (*pos)++;
      return true;
    }
    bool inactive = false;
    while (is_marker(t)) {
      inactive = inactive || strcmp(t->text, "inactive:") == 0;
      (*pos)++;
      t = &ts->v[*pos];
    }
    if (t->type != 'w') {
      err(c, t, "unexpected '%s' at the start of a statement", t->text);
      return false;
    }
    node_t *n = node_new();
    if (n == NULL || !add_kid(parent, n)) {
      free(n);
      err(c, t, "out of memory");
      return false;
    }
    n->inactive = inactive;
    int brackets = 0;
    for (;;) {
      t = &ts->v[*pos];
      if (t->type == 'w' || t->type == '[' || t->type == ']') {
        if (t->type == '[') {
          brackets++;
        } else if (t->type == ']') {
          if (brackets == 0) {
            err(c, t, "unexpected ']' without '['");
            return false;
          }
          brackets--;
        }
        if (!add_word(n, t)) {
          err(c, t, "out of memory");
          return false;
        }
        (*pos)++;
        continue;
      }
      if (brackets != 0) {
        err(c, t, "expected ']' before '%s'", t->text);
        return false;
      }
      if (t->type == ';') {
        (*pos)++;
        break;
      }
      if (t->type == '{') {
        if (depth >= XTM_COS_MAX_DEPTH) {
          err(c, t, "blocks nested deeper than %u levels", (unsigned)XTM_COS_MAX_DEPTH);
          return false;
        }
        (*pos)++;
        n->block = true;
        n->open = t;
        if (!parse_block(c, ts, pos, n, t, depth + 1u)) {
          return false;
        }
        break;
      }
      err(c, t, "expected ';' or '{' after '%s', found '%s'", n->w[n->nw - 1]->text, t->text);
      return false;
    }
  }
}

// ------------------------------------------------------------------ set form

// The shapes the set form does not show. A word found in a table names one of:
typedef enum skind {
  K_END = 0,
  K_BLOCK,   // kw { ... }
  K_NAMED,   // kw NAME { ... }
  K_NAMED2,  // kw A B { ... } (chassis port-range A B)
  K_ANY,     // NAME { ... } (any word: a named object)
  K_LEAF,    // kw words;
  K_FLAT,    // kw NAME attributes; (set lines for the same kw NAME add attributes)
  K_LIST,    // kw [ values ]; (set lines add values)
  K_MERGE,   // kw words; (set lines add words: transmit-rate percent 40 + transmit-rate exact)
} skind_t;

typedef struct sch sch_t;
struct sch {
  const char *kw;  // "*": any word (K_ANY)
  skind_t kind;
  const sch_t *kids;  // NULL: every statement inside is a leaf
};

static const sch_t kLeaves[] = {{NULL, K_END, NULL}};
static const sch_t kPfc[] = {{NULL, K_END, NULL}};
static const sch_t kCodePoint[] = {
    {"pfc", K_BLOCK, kPfc}, {"flow-control-queue", K_LIST, NULL}, {NULL, K_END, NULL}};
static const sch_t kCodePoints[] = {{"code-point", K_NAMED, kCodePoint}, {NULL, K_END, NULL}};
static const sch_t kAcct[] = {{"pfc-priority", K_LIST, NULL}, {NULL, K_END, NULL}};
static const sch_t kCnpIn[] = {{"pfc-account", K_NAMED, kAcct},
                               {"ieee-802.1", K_BLOCK, kCodePoints},
                               {"dscp", K_BLOCK, kCodePoints},
                               {NULL, K_END, NULL}};
static const sch_t kCnpOut[] = {{"ieee-802.1", K_BLOCK, kCodePoints}, {NULL, K_END, NULL}};
static const sch_t kCnp[] = {{"input", K_BLOCK, kCnpIn},
                             {"output", K_BLOCK, kCnpOut},
                             {"pfc-watchdog", K_BLOCK, kLeaves},
                             {NULL, K_END, NULL}};
static const sch_t kCnps[] = {{"*", K_ANY, kCnp}, {NULL, K_END, NULL}};
static const sch_t kFcs[] = {{"class", K_FLAT, NULL}, {"queue", K_FLAT, NULL}, {NULL, K_END, NULL}};
static const sch_t kClsFc[] = {{"loss-priority", K_FLAT, NULL}, {NULL, K_END, NULL}};
static const sch_t kCls[] = {{"forwarding-class", K_NAMED, kClsFc}, {NULL, K_END, NULL}};
static const sch_t kClsKinds[] = {{"dscp", K_NAMED, kCls},
                                  {"dscp-ipv6", K_NAMED, kCls},
                                  {"ieee-802.1", K_NAMED, kCls},
                                  {"ieee-802.1ad", K_NAMED, kCls},
                                  {"exp", K_NAMED, kCls},
                                  {"inet-precedence", K_NAMED, kCls},
                                  {NULL, K_END, NULL}};
static const sch_t kRewrite[] = {{"*", K_NAMED, NULL}, {NULL, K_END, NULL}};
static const sch_t kAliasKinds[] = {{"*", K_ANY, kLeaves}, {NULL, K_END, NULL}};
static const sch_t kInterp[] = {
    {"fill-level", K_LIST, NULL}, {"drop-probability", K_LIST, NULL}, {NULL, K_END, NULL}};
static const sch_t kDp[] = {
    {"interpolate", K_BLOCK, kInterp}, {"fill-level", K_FLAT, NULL}, {NULL, K_END, NULL}};
static const sch_t kDps[] = {{"*", K_ANY, kDp}, {NULL, K_END, NULL}};
static const sch_t kSched[] = {
    {"transmit-rate", K_MERGE, NULL},  {"shaping-rate", K_MERGE, NULL},
    {"buffer-size", K_MERGE, NULL},    {"buffer-rate", K_MERGE, NULL},
    {"excess-rate", K_MERGE, NULL},    {"ecn-enhanced", K_BLOCK, kLeaves},
    {"latency-ecn", K_BLOCK, kLeaves}, {NULL, K_END, NULL}};
static const sch_t kScheds[] = {{"*", K_ANY, kSched}, {NULL, K_END, NULL}};
static const sch_t kSmap[] = {{"forwarding-class", K_FLAT, NULL}, {NULL, K_END, NULL}};
static const sch_t kSmaps[] = {{"*", K_ANY, kSmap}, {NULL, K_END, NULL}};
static const sch_t kIfCls[] = {{NULL, K_END, NULL}};
static const sch_t kFcSetOnIf[] = {{NULL, K_END, NULL}};
static const sch_t kCosUnit[] = {{"classifiers", K_BLOCK, kIfCls},
                                 {"rewrite-rules", K_BLOCK, kLeaves},
                                 {"shaping-rate", K_MERGE, NULL},
                                 {NULL, K_END, NULL}};
static const sch_t kCosIf[] = {
    {"unit", K_NAMED, kCosUnit},         {"classifiers", K_BLOCK, kIfCls},
    {"rewrite-rules", K_BLOCK, kLeaves}, {"forwarding-class-set", K_NAMED, kFcSetOnIf},
    {"shaping-rate", K_MERGE, NULL},     {NULL, K_END, NULL}};
static const sch_t kCosIfs[] = {{"*", K_ANY, kCosIf}, {NULL, K_END, NULL}};
static const sch_t kTcp[] = {
    {"shaping-rate", K_MERGE, NULL}, {"guaranteed-rate", K_MERGE, NULL}, {NULL, K_END, NULL}};
static const sch_t kTcps[] = {{"*", K_ANY, kTcp}, {NULL, K_END, NULL}};
static const sch_t kFcSet[] = {{"class", K_FLAT, NULL}, {NULL, K_END, NULL}};
static const sch_t kFcSets[] = {{"*", K_ANY, kFcSet}, {NULL, K_END, NULL}};
static const sch_t kSharedBuf[] = {{"*", K_BLOCK, NULL}, {NULL, K_END, NULL}};
static const sch_t kCos[] = {{"forwarding-classes", K_BLOCK, kFcs},
                             {"classifiers", K_BLOCK, kClsKinds},
                             {"code-point-aliases", K_BLOCK, kAliasKinds},
                             {"drop-profiles", K_BLOCK, kDps},
                             {"schedulers", K_BLOCK, kScheds},
                             {"scheduler-maps", K_BLOCK, kSmaps},
                             {"interfaces", K_BLOCK, kCosIfs},
                             {"congestion-notification-profile", K_BLOCK, kCnps},
                             {"pfc-watchdog", K_BLOCK, kLeaves},
                             {"dcqcn", K_BLOCK, kLeaves},
                             {"traffic-control-profiles", K_BLOCK, kTcps},
                             {"forwarding-class-sets", K_BLOCK, kFcSets},
                             {"rewrite-rules", K_BLOCK, kRewrite},
                             {"shared-buffer", K_BLOCK, kSharedBuf},
                             {"dedicated-buffer", K_BLOCK, kSharedBuf},
                             {NULL, K_END, NULL}};
// the device stanzas: only what the compiler reads has a shape; the rest are leaves
static const sch_t kFamily[] = {
    {"policer", K_BLOCK, kLeaves}, {"filter", K_BLOCK, kLeaves}, {NULL, K_END, NULL}};
static const sch_t kTopUnit[] = {{"family", K_NAMED, kFamily}, {NULL, K_END, NULL}};
// firewall: policers, filters (cos_police.c)
static const sch_t kPolicer[] = {
    {"if-exceeding", K_BLOCK, kLeaves}, {"then", K_BLOCK, kLeaves}, {NULL, K_END, NULL}};
static const sch_t kFrom[] = {{"dscp", K_LIST, NULL}, {NULL, K_END, NULL}};
static const sch_t kTerm[] = {
    {"from", K_BLOCK, kFrom}, {"then", K_BLOCK, kLeaves}, {NULL, K_END, NULL}};
static const sch_t kFilter[] = {{"term", K_NAMED, kTerm}, {NULL, K_END, NULL}};
static const sch_t kFwFamily[] = {{"filter", K_NAMED, kFilter}, {NULL, K_END, NULL}};
static const sch_t kFirewall[] = {{"policer", K_NAMED, kPolicer},
                                  {"filter", K_NAMED, kFilter},
                                  {"family", K_NAMED, kFwFamily},
                                  {NULL, K_END, NULL}};
static const sch_t kEtherOpts[] = {{"802.3ad", K_LEAF, NULL}, {NULL, K_END, NULL}};
static const sch_t kTopIf[] = {{"unit", K_NAMED, kTopUnit},
                               {"ether-options", K_BLOCK, kEtherOpts},
                               {"gigether-options", K_BLOCK, kEtherOpts},
                               {"aggregated-ether-options", K_BLOCK, kLeaves},
                               {"member", K_LEAF, NULL},
                               {"member-range", K_LEAF, NULL},
                               {NULL, K_END, NULL}};
static const sch_t kTopIfs[] = {
    {"interface-range", K_NAMED, kTopIf}, {"*", K_ANY, kTopIf}, {NULL, K_END, NULL}};
static const sch_t kPort[] = {{NULL, K_END, NULL}};
static const sch_t kPic[] = {
    {"port", K_NAMED, kPort}, {"port-range", K_NAMED2, kPort}, {NULL, K_END, NULL}};
static const sch_t kFpc[] = {{"pic", K_NAMED, kPic}, {NULL, K_END, NULL}};
static const sch_t kChassis[] = {{"fpc", K_NAMED, kFpc}, {NULL, K_END, NULL}};
static const sch_t kRoot[6];
static const sch_t kGroups[] = {{"*", K_ANY, kRoot}, {NULL, K_END, NULL}};
static const sch_t kRoot[6] = {
    {"class-of-service", K_BLOCK, kCos}, {"interfaces", K_BLOCK, kTopIfs},
    {"chassis", K_BLOCK, kChassis},      {"firewall", K_BLOCK, kFirewall},
    {"groups", K_BLOCK, kGroups},        {NULL, K_END, NULL}};

static const sch_t *sch_find(const sch_t *tab, const char *w) {
  if (tab == NULL) {
    return NULL;
  }
  const sch_t *any = NULL;
  for (const sch_t *e = tab; e->kind != K_END; e++) {
    if (strcmp(e->kw, w) == 0) {
      return e;
    }
    if (strcmp(e->kw, "*") == 0) {
      any = e;
    }
  }
  return any;
}

// Nodes by (parent, words): the set form finds the block a line continues without a scan
// of the parent's children (200,000 distinct names under one block would be quadratic).
typedef struct nmap {
  struct nent {
    const node_t *parent;
    node_t *node;
    uint32_t hash;
    uint8_t nkey;  // words of the key
  } * e;
  size_t cap, n;
} nmap_t;

static uint32_t key_hash(const node_t *parent, const tok_t *const *w, size_t nk) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)parent;
  for (size_t i = 0; i < nk; i++) {
    for (const char *s = w[i]->text; *s; s++) {
      h = (h ^ (unsigned char)*s) * 1099511628211ull;
    }
    h = (h ^ 0xffu) * 1099511628211ull;
  }
  return (uint32_t)(h ^ (h >> 32));
}

static bool key_eq(const node_t *n, const tok_t *const *w, size_t nk) {
  if (n->nw < nk) {
    return false;
  }
  for (size_t i = 0; i < nk; i++) {
    if (strcmp(n->w[i]->text, w[i]->text) != 0) {
      return false;
    }
  }
  return true;
}

static node_t *nmap_get(const nmap_t *m, const node_t *parent, const tok_t *const *w, size_t nk) {
  if (m->cap == 0) {
    return NULL;
  }
  uint32_t h = key_hash(parent, w, nk);
  for (size_t i = h & (m->cap - 1u);; i = (i + 1u) & (m->cap - 1u)) {
    const struct nent *e = &m->e[i];
    if (e->node == NULL) {
      return NULL;
    }
    if (e->hash == h && e->parent == parent && e->nkey == nk && key_eq(e->node, w, nk)) {
      return e->node;
    }
  }
}

static bool nmap_put(nmap_t *m, const node_t *parent, node_t *node, size_t nk) {
  if ((m->n + 1u) * 2u > m->cap) {
    size_t nc = m->cap != 0 ? m->cap * 2u : 1024u;
    struct nent *ne = calloc(nc, sizeof(*ne));
    if (ne == NULL) {
      return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
      if (m->e[i].node != NULL) {
        size_t j = m->e[i].hash & (nc - 1u);
        while (ne[j].node != NULL) {
          j = (j + 1u) & (nc - 1u);
        }
        ne[j] = m->e[i];
      }
    }
    free(m->e);
    m->e = ne;
    m->cap = nc;
  }
  uint32_t h = key_hash(parent, (const tok_t *const *)node->w, nk);
  size_t i = h & (m->cap - 1u);
  while (m->e[i].node != NULL) {
    i = (i + 1u) & (m->cap - 1u);
  }
  m->e[i] = (struct nent){.parent = parent, .node = node, .hash = h, .nkey = (uint8_t)nk};
  m->n++;
  return true;
}

// The child of `parent` keyed by w[0..nk), made (words w[0..nk)) when absent.
static node_t *child(ctx_t *c, nmap_t *m, node_t *parent, const tok_t *const *w, size_t nk,
                     bool *made) {
  node_t *n = nmap_get(m, parent, w, nk);
  *made = false;
  if (n != NULL) {
    if (n->inactive && n->from_group) {  // deleted by a set-form `delete`, now set again
      n->inactive = n->from_group = false;
      n->nw = nk;
    }
    return n;
  }
  n = node_new();
  if (n == NULL || !add_kid(parent, n)) {
    free(n);
    err(c, w[0], "out of memory");
    return NULL;
  }
  for (size_t i = 0; i < nk; i++) {
    if (!add_word(n, w[i])) {
      err(c, w[0], "out of memory");
      return NULL;
    }
  }
  if (!nmap_put(m, parent, n, nk)) {
    err(c, w[0], "out of memory");
    return NULL;
  }
  parent->block = true;
  *made = true;
  return n;
}

// Adds the values w[0..n) (words; brackets are dropped) to a list leaf, which becomes
// kw '[' old values... new values... ']'.
static bool list_add(ctx_t *c, node_t *leaf, const tok_t *const *w, size_t n) {
  const tok_t *open = leaf->nw > 1 && leaf->w[1]->type == '[' ? leaf->w[1] : NULL;
  const tok_t *close = open != NULL ? leaf->w[leaf->nw - 1] : NULL;
  if (open == NULL) {
    open = cos_synth_tok(c, '[', "[", leaf->w[0]->line, leaf->w[0]->col);
    close = cos_synth_tok(c, ']', "]", leaf->w[0]->line, leaf->w[0]->col);
    if (open == NULL || close == NULL) {
      return false;
    }
  }
  size_t nold = 0;
  const tok_t **old = malloc((leaf->nw + 1u) * sizeof(tok_t *));
  if (old == NULL) {
    return false;
  }
  for (size_t i = 1; i < leaf->nw; i++) {
    if (leaf->w[i]->type == 'w') {
      old[nold++] = leaf->w[i];
    }
  }
  leaf->nw = 1;
  bool ok = add_word(leaf, open);
  for (size_t i = 0; ok && i < nold; i++) {
    ok = add_word(leaf, old[i]);
  }
  for (size_t i = 0; ok && i < n; i++) {
    if (w[i]->type == 'w') {
      ok = add_word(leaf, w[i]);
    }
  }
  free(old);
  return ok && add_word(leaf, close);
}

// One `set` command (words w[0..n), after `set`) into the tree.
static bool set_line(ctx_t *c, nmap_t *m, node_t *root, const tok_t *const *w, size_t n) {
  node_t *cur = root;
  const sch_t *tab = kRoot;
  size_t i = 0;
  bool made;
  unsigned depth = 0;  // `groups G groups H ...` nests without end: bounded as the curly form
  while (i < n) {
    const tok_t *t = w[i];
    if (++depth > XTM_COS_MAX_DEPTH) {
      err(c, t, "blocks nested deeper than %u levels", (unsigned)XTM_COS_MAX_DEPTH);
      return false;
    }
    if (t->type != 'w') {
      err(c, t, "unexpected '%s' in a set command", t->text);
      return false;
    }
    const sch_t *e = NULL;
    skind_t kind = K_LEAF;
    if (strcmp(t->text, "apply-groups") == 0 || strcmp(t->text, "apply-groups-except") == 0) {
      kind = K_LIST;
    } else {
      e = sch_find(tab, t->text);
      kind = e != NULL ? e->kind : K_LEAF;
    }
    size_t nk = kind == K_NAMED || kind == K_FLAT ? 2u : kind == K_NAMED2 ? 3u : 1u;
    if (kind == K_NAMED || kind == K_NAMED2 || kind == K_FLAT) {
      if (i + nk > n) {
        kind = K_LEAF;  // `set ... pic 0` without a name: a leaf the interpretation reports
        nk = 1;
      }
    }
    switch (kind) {
      case K_BLOCK:
      case K_NAMED:
      case K_NAMED2:
      case K_ANY: {
        node_t *k = child(c, m, cur, w + i, nk, &made);
        if (k == NULL) {
          return false;
        }
        cur = k;
        tab = e->kids;
        i += nk;
        continue;
      }
      case K_FLAT:
      case K_LIST:
      case K_MERGE: {
        node_t *k = nmap_get(m, cur, w + i, nk);
        if (k != NULL && k->inactive && k->from_group) {  // deleted, now set again
          k->inactive = k->from_group = false;
          k->nw = nk;
        }
        if (k != NULL && !k->block) {
          bool ok = kind == K_LIST ? list_add(c, k, w + i + 1, n - i - 1) : true;
          for (size_t j = i + nk; ok && kind != K_LIST && j < n; j++) {
            ok = add_word(k, w[j]);
          }
          if (!ok) {
            err(c, t, "out of memory");
          }
          return ok;
        }
        k = child(c, m, cur, w + i, nk, &made);
        if (k == NULL) {
          return false;
        }
        for (size_t j = i + nk; j < n; j++) {
          if (!add_word(k, w[j])) {
            err(c, t, "out of memory");
            return false;
          }
        }
        return true;
      }
      case K_LEAF:
      case K_END:
      default: {
        node_t *k = node_new();
        if (k == NULL || !add_kid(cur, k)) {
          free(k);
          err(c, t, "out of memory");
          return false;
        }
        cur->block = true;
        for (size_t j = i; j < n; j++) {
          if (!add_word(k, w[j])) {
            err(c, t, "out of memory");
            return false;
          }
        }
        return true;
      }
    }
  }
  return true;
}

// The statement a `deactivate`/`activate`/`delete` path names: the blocks along it, then
// a statement whose words start with what remains. NULL when there is none.
static node_t *find_path(node_t *root, const tok_t *const *w, size_t n) {
  node_t *cur = root;
  const sch_t *tab = kRoot;
  size_t i = 0;
  while (i < n) {
    const sch_t *e = sch_find(tab, w[i]->text);
    size_t nk = e == NULL                                   ? 0u
                : (e->kind == K_BLOCK || e->kind == K_ANY)  ? 1u
                : (e->kind == K_NAMED || e->kind == K_FLAT) ? 2u
                : e->kind == K_NAMED2                       ? 3u
                                                            : 0u;
    if (nk == 0 || i + nk > n || e->kind == K_FLAT) {
      nk = n - i;  // a leaf: its words start with the rest of the path
    }
    node_t *next = NULL;
    for (size_t k = 0; k < cur->nkids && next == NULL; k++) {
      node_t *kid = cur->kids[k];
      bool same = kid->nw >= nk && !(kid->inactive && kid->from_group);
      for (size_t j = 0; j < nk && same; j++) {
        same = strcmp(kid->w[j]->text, w[i + j]->text) == 0;
      }
      if (same) {
        next = kid;
      }
    }
    if (next == NULL) {
      return NULL;
    }
    i += nk;
    cur = next;
    tab = e != NULL ? e->kids : NULL;
    if (!cur->block && i < n) {
      return NULL;
    }
  }
  return cur == root ? NULL : cur;
}

static void mark_deleted(node_t *n) {
  n->inactive = true;
  n->from_group = true;
  for (size_t k = 0; k < n->nkids; k++) {
    mark_deleted(n->kids[k]);  // depth bounded by the schema
  }
}

static bool parse_set(ctx_t *c, const cos_tree_t *ts, node_t *root) {
  nmap_t m = {0};
  bool ok = true;
  size_t i = 0;
  while (ok && ts->v[i].type != 0) {
    // one command: the tokens of one line
    size_t j = i;
    int line = ts->v[i].line;
    while (ts->v[j].type != 0 && ts->v[j].line == line) {
      j++;
    }
    const tok_t *cmd = &ts->v[i];
    const tok_t *w[1024];
    size_t n = 0;
    for (size_t k = i + 1; k < j; k++) {
      const tok_t *t = &ts->v[k];
      if (t->type == ';' || t->type == '{' || t->type == '}') {
        err(c, t, "unexpected '%s' in a set command (the set form has one command per line)",
            t->text);
        ok = false;
        break;
      }
      if (n >= sizeof(w) / sizeof(w[0])) {
        err(c, t, "set command of more than %zu words", sizeof(w) / sizeof(w[0]));
        ok = false;
        break;
      }
      w[n++] = t;
    }
    if (!ok) {
      break;
    }
    if (cmd->type != 'w') {
      err(c, cmd, "unexpected '%s' at the start of a set command", cmd->text);
      ok = false;
    } else if (n == 0) {
      err(c, cmd, "'%s' needs a statement", cmd->text);
      ok = false;
    } else if (strcmp(cmd->text, "set") == 0) {
      ok = set_line(c, &m, root, w, n);
    } else if (strcmp(cmd->text, "deactivate") == 0 || strcmp(cmd->text, "activate") == 0 ||
               strcmp(cmd->text, "delete") == 0) {
      node_t *t = find_path(root, w, n);
      if (t == NULL) {
        err(c, w[0], "'%s': no such statement (it must follow the set command that makes it)",
            cmd->text);
        ok = false;
      } else if (strcmp(cmd->text, "delete") == 0) {
        // marked with everything below it (the map still finds them): dropped silently at
        // the end, each revived with fresh words if a later set makes it again
        mark_deleted(t);
      } else {
        t->inactive = strcmp(cmd->text, "deactivate") == 0;
      }
    } else {
      err(c, cmd, "unknown command '%s' in the set form (set, deactivate, activate, delete)",
          cmd->text);
      ok = false;
    }
    i = j;
  }
  free(m.e);
  return ok;
}

// ------------------------------------------------------------------ inactive

// Removes inactive statements (a warning for each: Junos ignores them as well).
static void drop_inactive(ctx_t *c, node_t *n) {
  size_t o = 0;
  for (size_t i = 0; i < n->nkids; i++) {
    node_t *k = n->kids[i];
    if (k->inactive) {
      if (!k->from_group) {  // from_group here: deleted by a set-form `delete`
        char what[XTM_COS_NAME_LEN * 2 + 8];
        snprintf(what, sizeof(what), "%s%s%s", k->w[0]->text,
                 k->nw > 1 && k->w[1]->type == 'w' ? " " : "",
                 k->nw > 1 && k->w[1]->type == 'w' ? k->w[1]->text : "");
        warn(c, k->w[0], "inactive: '%s' is ignored (as Junos ignores inactive statements)", what);
      }
      cos_node_free(k);
      continue;
    }
    drop_inactive(c, k);
    n->kids[o++] = k;
  }
  n->nkids = o;
}

// ------------------------------------------------------------------ apply-groups

// How many words identify a leaf among its siblings (a group's leaf is inherited when the
// configuration has none with the same key): named list entries by two, the rest by one.
static size_t leaf_key(const node_t *n) {
  static const char *const kTwo[] = {"class",         "queue",      "forwarding-class",
                                     "loss-priority", "fill-level", "code-point",
                                     "member",        "802.3ad",    NULL};
  if (strcmp(n->w[0]->text, "drop-profile-map") == 0) {
    return n->nw;
  }
  for (size_t i = 0; kTwo[i] != NULL; i++) {
    if (strcmp(n->w[0]->text, kTwo[i]) == 0) {
      return n->nw >= 2 ? 2u : 1u;
    }
  }
  return 1;
}

static bool words_eq(const node_t *a, const node_t *b, size_t nk) {
  if (a->nw < nk || b->nw < nk) {
    return false;
  }
  for (size_t i = 0; i < nk; i++) {
    if (strcmp(a->w[i]->text, b->w[i]->text) != 0) {
      return false;
    }
  }
  return true;
}

// A group block's words match a configuration block's: equal, or `<pattern>` globs.
static bool group_match(const node_t *g, const node_t *k, bool *wild) {
  *wild = false;
  if (g->nw != k->nw) {
    return false;
  }
  for (size_t i = 0; i < g->nw; i++) {
    const char *p = g->w[i]->text;
    size_t l = strlen(p);
    if (l >= 2 && p[0] == '<' && p[l - 1] == '>') {
      char pat[XTM_COS_NAME_LEN * 2];
      if (l - 2 >= sizeof(pat)) {
        return false;
      }
      memcpy(pat, p + 1, l - 2);
      pat[l - 2] = '\0';
      if (!cos_glob(pat, k->w[i]->text)) {
        return false;
      }
      *wild = true;
    } else if (strcmp(p, k->w[i]->text) != 0) {
      return false;
    }
  }
  return true;
}

static bool has_wild(const node_t *g) {
  for (size_t i = 0; i < g->nw; i++) {
    size_t l = strlen(g->w[i]->text);
    if (l >= 2 && g->w[i]->text[0] == '<' && g->w[i]->text[l - 1] == '>') {
      return true;
    }
  }
  return false;
}

static node_t *node_copy(const node_t *s) {
  node_t *n = node_new();
  if (n == NULL) {
    return NULL;
  }
  n->block = s->block;
  n->open = s->open;
  n->from_group = true;
  for (size_t i = 0; i < s->nw; i++) {
    if (!add_word(n, s->w[i])) {
      cos_node_free(n);
      return NULL;
    }
  }
  for (size_t i = 0; i < s->nkids; i++) {
    if (strcmp(s->kids[i]->w[0]->text, "apply-groups") == 0 ||
        strcmp(s->kids[i]->w[0]->text, "apply-groups-except") == 0) {
      continue;
    }
    node_t *k = node_copy(s->kids[i]);
    if (k == NULL || !add_kid(n, k)) {
      cos_node_free(k);
      cos_node_free(n);
      return NULL;
    }
  }
  return n;
}

typedef struct gcur {
  int group;
  const node_t *node;
} gcur_t;

typedef struct gctx {
  const node_t *groups;  // the groups stanza
  uint64_t work;         // comparisons made; bounded (hostile input)
  bool failed;
} gctx_t;

#define GROUP_WORK_MAX 50000000ull
#define GROUP_CUR_MAX 64

static int group_index(const gctx_t *g, const char *name) {
  for (size_t i = 0; g->groups != NULL && i < g->groups->nkids; i++) {
    const node_t *k = g->groups->kids[i];
    if (k->block && k->nw == 1 && strcmp(k->w[0]->text, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

// The names of an apply-groups leaf into names[]; returns their count.
static size_t group_names(const node_t *n, const tok_t **names, size_t cap) {
  size_t k = 0;
  for (size_t i = 1; i < n->nw && k < cap; i++) {
    if (n->w[i]->type == 'w') {
      names[k++] = n->w[i];
    }
  }
  return k;
}

static void expand(ctx_t *c, gctx_t *g, node_t *n, const node_t *const *path, size_t depth,
                   const gcur_t *in, size_t nin) {
  if (g->failed || depth >= XTM_COS_MAX_DEPTH) {
    return;
  }
  gcur_t cur[GROUP_CUR_MAX];
  size_t ncur = 0;
  // this level's apply-groups first (in their order), then the inherited ones not excluded
  const tok_t *except[16];
  size_t nexcept = 0;
  for (size_t i = 0; i < n->nkids; i++) {
    const node_t *k = n->kids[i];
    if (strcmp(k->w[0]->text, "apply-groups-except") == 0) {
      nexcept += group_names(k, except + nexcept, 16 - nexcept);
    }
  }
  for (size_t i = 0; i < n->nkids; i++) {
    const node_t *k = n->kids[i];
    if (strcmp(k->w[0]->text, "apply-groups") != 0) {
      continue;
    }
    const tok_t *names[16];
    size_t nn = group_names(k, names, 16);
    for (size_t j = 0; j < nn; j++) {
      int gi = group_index(g, names[j]->text);
      if (gi < 0) {
        err(c, names[j], "apply-groups: no group '%s' in 'groups'", names[j]->text);
        continue;
      }
      // the group's statements at this hierarchy path
      const node_t *gn = g->groups->kids[gi];
      for (size_t d = 0; d < depth && gn != NULL; d++) {
        const node_t *next = NULL;
        for (size_t q = 0; q < gn->nkids && next == NULL; q++) {
          bool wild;
          g->work++;
          if (gn->kids[q]->block && group_match(gn->kids[q], path[d], &wild)) {
            next = gn->kids[q];
          }
        }
        gn = next;
      }
      if (gn != NULL && ncur < GROUP_CUR_MAX) {
        cur[ncur++] = (gcur_t){.group = gi, .node = gn};
      }
    }
  }
  for (size_t i = 0; i < nin && ncur < GROUP_CUR_MAX; i++) {
    bool excluded = false;
    for (size_t j = 0; j < nexcept; j++) {
      excluded |= group_index(g, except[j]->text) == in[i].group;
    }
    if (!excluded) {
      cur[ncur++] = in[i];
    }
  }
  // inherit: a leaf whose key the configuration lacks, a block it lacks (named exactly)
  for (size_t a = 0; a < ncur; a++) {
    const node_t *gn = cur[a].node;
    for (size_t q = 0; q < gn->nkids; q++) {
      const node_t *gk = gn->kids[q];
      if (strcmp(gk->w[0]->text, "apply-groups") == 0 ||
          strcmp(gk->w[0]->text, "apply-groups-except") == 0 || (gk->block && has_wild(gk))) {
        continue;
      }
      bool present = false;
      size_t nk = gk->block ? gk->nw : leaf_key(gk);
      for (size_t k = 0; k < n->nkids && !present; k++) {
        g->work++;
        present = n->kids[k]->block == gk->block && words_eq(n->kids[k], gk, nk) &&
                  (!gk->block || n->kids[k]->nw == gk->nw);
      }
      if (present) {
        continue;
      }
      node_t *copy = node_copy(gk);
      if (copy == NULL || !add_kid(n, copy)) {
        cos_node_free(copy);
        err(c, gk->w[0], "out of memory");
        g->failed = true;
        return;
      }
      n->block = true;
    }
  }
  if (g->work > GROUP_WORK_MAX) {
    err(c, n->nw > 0 ? n->w[0] : NULL,
        "apply-groups: the expansion is too large (more than %llu comparisons)",
        (unsigned long long)GROUP_WORK_MAX);
    g->failed = true;
    return;
  }
  // then every block below, with the group statements that correspond to it
  const node_t *sub[XTM_COS_MAX_DEPTH + 1];
  for (size_t d = 0; d < depth; d++) {
    sub[d] = path[d];
  }
  for (size_t k = 0; k < n->nkids && !g->failed; k++) {
    node_t *kid = n->kids[k];
    if (!kid->block) {
      continue;
    }
    gcur_t kc[GROUP_CUR_MAX];
    size_t nkc = 0;
    for (size_t a = 0; a < ncur; a++) {
      // exact names first, then wildcards
      for (int pass = 0; pass < 2; pass++) {
        for (size_t q = 0; q < cur[a].node->nkids && nkc < GROUP_CUR_MAX; q++) {
          const node_t *gk = cur[a].node->kids[q];
          bool wild;
          g->work++;
          if (gk->block && group_match(gk, kid, &wild) && wild == (pass == 1)) {
            kc[nkc++] = (gcur_t){.group = cur[a].group, .node = gk};
          }
        }
      }
    }
    sub[depth] = kid;
    expand(c, g, kid, sub, depth + 1u, kc, nkc);
  }
  // the apply-groups statements have done their work
  size_t o = 0;
  for (size_t i = 0; i < n->nkids; i++) {
    node_t *k = n->kids[i];
    if (!k->block && (strcmp(k->w[0]->text, "apply-groups") == 0 ||
                      strcmp(k->w[0]->text, "apply-groups-except") == 0)) {
      cos_node_free(k);
      continue;
    }
    n->kids[o++] = k;
  }
  n->nkids = o;
}

static void apply_groups(ctx_t *c, node_t *root) {
  gctx_t g = {0};
  size_t gi = root->nkids;
  for (size_t i = 0; i < root->nkids; i++) {
    if (root->kids[i]->block && root->kids[i]->nw == 1 &&
        strcmp(root->kids[i]->w[0]->text, "groups") == 0) {
      if (g.groups != NULL) {
        err(c, root->kids[i]->w[0], "duplicate 'groups' (first at line %d)", g.groups->w[0]->line);
        return;
      }
      g.groups = root->kids[i];
      gi = i;
    }
  }
  // detach the groups: they are not configuration themselves
  if (g.groups != NULL) {
    memmove(&root->kids[gi], &root->kids[gi + 1], (root->nkids - gi - 1u) * sizeof(node_t *));
    root->nkids--;
  }
  expand(c, &g, root, NULL, 0, NULL, 0);
  cos_node_free((node_t *)g.groups);
}

// ------------------------------------------------------------------ entry

bool cos_tree_parse(ctx_t *c, const char *text, cos_tree_t *t) {
  memset(t, 0, sizeof(*t));
  t->root = node_new();
  if (t->root == NULL) {
    err(c, NULL, "out of memory");
    return false;
  }
  t->root->block = true;
  if (!tokenize(c, text, t)) {
    return false;
  }
  const tok_t *first = &t->v[0];
  bool set_form = first->type == 'w' &&
                  (strcmp(first->text, "set") == 0 || strcmp(first->text, "deactivate") == 0 ||
                   strcmp(first->text, "delete") == 0 || strcmp(first->text, "activate") == 0);
  size_t pos = 0;
  if (set_form ? !parse_set(c, t, t->root) : !parse_block(c, t, &pos, t->root, NULL, 0)) {
    return false;
  }
  drop_inactive(c, t->root);
  apply_groups(c, t->root);
  return true;
}

void cos_tree_free(ctx_t *c, cos_tree_t *t) {
  cos_node_free(t->root);
  free(t->v);
  free(t->store);
  for (size_t i = 0; i < c->nextra; i++) {
    free(c->extra[i]);
  }
  free(c->extra);
  c->extra = NULL;
  c->nextra = c->extracap = 0;
  memset(t, 0, sizeof(*t));
}
