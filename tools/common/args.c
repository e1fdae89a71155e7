/*
 * args.c - see args.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <string.h>

#include "gpureduce.h"

#include "args.h"

int args_decimal(const char **p, uint64_t *v) {
  const char *s = *p;
  uint64_t x = 0;
  if (!isdigit((unsigned char)*s)) return -1;
  for (; isdigit((unsigned char)*s); ++s) {
    const unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10) return -1;
    x = x * 10 + d;
  }
  *p = s;
  *v = x;
  return 0;
}

int args_count(const char *s, uint64_t *out) {
  const char *p = s;
  uint64_t v, m;
  if (p[0] == '2' && p[1] == '^') {
    p += 2;
    if (args_decimal(&p, &m) || m > 62) return -1;
    v = (uint64_t)1 << m;
    if (*p == '+' || *p == '-') {
      const char sign = *p++;
      if (args_decimal(&p, &m)) return -1;
      if (sign == '+' ? m > UINT64_MAX - v : m > v) return -1;
      v = sign == '+' ? v + m : v - m;
    }
  } else {
    if (args_decimal(&p, &v)) return -1;
    const char *suffixes = "KMG";
    const char *hit = *p ? strchr(suffixes, toupper((unsigned char)*p)) : NULL;
    if (hit) {
      const unsigned shift = 10u * (unsigned)(hit - suffixes + 1);
      if (v > (UINT64_MAX >> shift)) return -1;
      v <<= shift;
      ++p;
    }
  }
  if (*p) return -1;
  *out = v;
  return 0;
}

int args_type(const char *s) {
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t)
    if (strcmp(s, gpureduce_type_name((gpureduce_type_t)t)) == 0) return t;
  return -1;
}

int args_op(const char *s) {
  for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
    if (strcmp(s, gpureduce_op_name((gpureduce_op_t)op)) == 0) return op;
  return -1;
}
