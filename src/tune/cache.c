/*
 * tune/cache.c - the tuning cache: its text format and its files.
 *
 * Plain C and POSIX, no CUDA: the handle's creation and the autotuner
 * call it (tune/tune.c), host-only tests call it, and
 * the libFuzzer target tests/tune/fuzz-tune-cache.c feeds the parser hostile
 * input.  The parser accepts exactly what gr_tune_format() writes, bounded
 * in size and line length; anything else is CORRUPT (or FOREIGN when the
 * file is well formed but made for another device, driver or version),
 * and the caller's table is left untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune/tune.h"

#define GR_TUNE_FORMAT 1
#define GR_GRID_LIMIT 2147483647u

/* ---- the cache file format ------------------------------------------------- */

/*
 *   # comment lines and blank lines are allowed anywhere
 *   gpureduce-tune-cache 1
 *   library 0.1.0
 *   order 1
 *   device-name NVIDIA H200
 *   device-uuid 0123456789abcdef0123456789abcdef
 *   compute-capability 9.0
 *   multiprocessors 132
 *   driver 13000
 *   blocks f32 sum 0 17 924        (type op f64-flag bucket blocks)
 *   ...
 *   end 1                          (the number of blocks lines)
 */

/* Strict decimal: digits only, at most 10, value <= max. */
static int parse_uint(const char *s, size_t len, unsigned long max, unsigned long *out) {
  if (len == 0 || len > 10) return 0;
  unsigned long v = 0;
  for (size_t i = 0; i < len; ++i) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (unsigned long)(s[i] - '0');
  }
  if (v > max) return 0;
  *out = v;
  return 1;
}

/* Split off the next space-separated word of [*p, end). */
static int next_word(const char **p, const char *end, const char **w, size_t *len) {
  while (*p < end && **p == ' ') ++*p;
  if (*p == end) return 0;
  *w = *p;
  while (*p < end && **p != ' ') ++*p;
  *len = (size_t)(*p - *w);
  return 1;
}

static int word_is(const char *w, size_t len, const char *s) {
  return strlen(s) == len && memcmp(w, s, len) == 0;
}

static int find_name(const char *w, size_t len, const char *(*name_of)(int), int count) {
  for (int i = 0; i < count; ++i)
    if (word_is(w, len, name_of(i))) return i;
  return -1;
}

static const char *type_name_i(int i) { return gpureduce_type_name((gpureduce_type_t)i); }
static const char *op_name_i(int i) { return gpureduce_op_name((gpureduce_op_t)i); }

/* The header lines, in order, as they must read for this key. */
static int header_lines(const struct gr_tune_key *key, char lines[8][320]) {
  int k = 0;
  snprintf(lines[k++], 320, "gpureduce-tune-cache %d", GR_TUNE_FORMAT);
  snprintf(lines[k++], 320, "library %s", GPUREDUCE_VERSION_STRING);
  snprintf(lines[k++], 320, "order %d", GPUREDUCE_ORDER_VERSION);
  snprintf(lines[k++], 320, "device-name %s", key->name);
  snprintf(lines[k++], 320, "device-uuid %s", key->uuid);
  snprintf(lines[k++], 320, "compute-capability %d.%d", key->cc_major, key->cc_minor);
  snprintf(lines[k++], 320, "multiprocessors %d", key->sms);
  snprintf(lines[k++], 320, "driver %d", key->driver);
  return k;
}

/* The first word of each header line: a line with the right word and the
 * wrong value is a foreign file, not a corrupt one. */
static const char *const header_words[8] = {
    "gpureduce-tune-cache", "library", "order", "device-name",
    "device-uuid", "compute-capability", "multiprocessors", "driver"};

gpureduce_tune_cache_t gr_tune_parse(const char *text, size_t len,
                                     const struct gr_tune_key *key, gr_tune_blocks *out) {
  if (len > GR_TUNE_MAX_FILE_BYTES) return GPUREDUCE_TUNE_CACHE_CORRUPT;
  if (len > 0 && memchr(text, '\0', len)) return GPUREDUCE_TUNE_CACHE_CORRUPT;
  char want[8][320];
  header_lines(key, want);

  gr_tune_blocks *t = calloc(1, sizeof *t);
  if (!t) return GPUREDUCE_TUNE_CACHE_UNREADABLE;
  gpureduce_tune_cache_t result = GPUREDUCE_TUNE_CACHE_CORRUPT;
  int header = 0, foreign = 0, ended = 0;
  unsigned long entries = 0;
  const char *p = text, *end = text + len;

  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line = p, *line_end = nl ? nl : end;
    p = nl ? nl + 1 : end;
    if (!nl) goto done; /* every line ends with a newline: else truncated */
    const size_t n = (size_t)(line_end - line);
    if (n > GR_TUNE_MAX_LINE) goto done;
    if (n == 0 || line[0] == '#') continue;
    if (ended) goto done; /* nothing after "end" */
    const char *q = line, *w;
    size_t wl;
    if (!next_word(&q, line_end, &w, &wl)) goto done;
    if (header < 8) {
      if (!word_is(w, wl, header_words[header])) goto done;
      if (strlen(want[header]) != n || memcmp(want[header], line, n) != 0) foreign = 1;
      ++header;
      continue;
    }
    if (word_is(w, wl, "blocks")) {
      const char *f[5];
      size_t fl[5];
      for (int i = 0; i < 5; ++i)
        if (!next_word(&q, line_end, &f[i], &fl[i])) goto done;
      const char *extra;
      size_t el;
      if (next_word(&q, line_end, &extra, &el)) goto done;
      const int type = find_name(f[0], fl[0], type_name_i, GPUREDUCE_TYPE_COUNT);
      const int op = find_name(f[1], fl[1], op_name_i, GPUREDUCE_OP_COUNT);
      unsigned long f64, bucket, blocks;
      if (type < 0 || op < 0 || !parse_uint(f[2], fl[2], 1, &f64) ||
          !parse_uint(f[3], fl[3], GR_BUCKETS - 1, &bucket) ||
          !parse_uint(f[4], fl[4], GR_GRID_LIMIT, &blocks) || blocks == 0)
        goto done;
      if (gpureduce_result_size((gpureduce_type_t)type, (gpureduce_op_t)op,
                                f64 ? GPUREDUCE_ACCUMULATE_F64 : 0) == 0)
        goto done;
      unsigned *slot = &(*t)[type][op][f64][bucket];
      if (*slot) goto done; /* duplicate */
      *slot = (unsigned)blocks;
      ++entries;
      continue;
    }
    if (word_is(w, wl, "end")) {
      const char *c;
      size_t cl;
      unsigned long count;
      if (!next_word(&q, line_end, &c, &cl) || !parse_uint(c, cl, ULONG_MAX, &count)) goto done;
      if (next_word(&q, line_end, &c, &cl) || count != entries) goto done;
      ended = 1;
      continue;
    }
    goto done;
  }
  if (header == 8 && ended) {
    result = foreign ? GPUREDUCE_TUNE_CACHE_FOREIGN : GPUREDUCE_TUNE_CACHE_LOADED;
    if (!foreign) memcpy(out, t, sizeof *t);
  }
done:
  free(t);
  return result;
}

size_t gr_tune_format(const struct gr_tune_key *key, const gr_tune_blocks *blocks, char *buf,
                      size_t cap) {
  char head[8][320];
  const int lines = header_lines(key, head);
  size_t len = 0, entries = 0;
#define GR_EMIT(...)                                                  \
  do {                                                                \
    const int k_ = snprintf(buf + len, cap - len, __VA_ARGS__);       \
    if (k_ < 0 || (size_t)k_ >= cap - len) return 0;                  \
    len += (size_t)k_;                                                \
  } while (0)
  GR_EMIT("# gpureduce tuning cache, written by gpureduce_autotune(); safe to delete.\n");
  for (int i = 0; i < lines; ++i) GR_EMIT("%s\n", head[i]);
  for (int type = 0; type < GPUREDUCE_TYPE_COUNT; ++type)
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      for (int f = 0; f < 2; ++f)
        for (int b = 0; b < GR_BUCKETS; ++b)
          if ((*blocks)[type][op][f][b]) {
            GR_EMIT("blocks %s %s %d %d %u\n", type_name_i(type), op_name_i(op), f, b,
                    (*blocks)[type][op][f][b]);
            ++entries;
          }
  GR_EMIT("end %zu\n", entries);
#undef GR_EMIT
  return len;
}

/* ---- the cache file on disk ------------------------------------------------- */

int gr_tune_disabled(void) {
  const char *v = getenv("GPUREDUCE_TUNE");
  return v && strcmp(v, "off") == 0;
}

/* The cache directory into dir (capacity cap); 0 if none is known. */
static int cache_dir(char *dir, size_t cap) {
  const char *v;
  int k;
  if ((v = getenv("GPUREDUCE_TUNE_CACHE")) && *v)
    k = snprintf(dir, cap, "%s", v);
  else if ((v = getenv("XDG_CACHE_HOME")) && *v == '/')
    k = snprintf(dir, cap, "%s/gpureduce", v);
  else if ((v = getenv("HOME")) && *v)
    k = snprintf(dir, cap, "%s/.cache/gpureduce", v);
  else
    return 0;
  return k > 0 && (size_t)k < cap;
}

int gr_tune_cache_path(const char *uuid, char *path, size_t cap) {
  char dir[3900];
  if (!cache_dir(dir, sizeof dir)) return 0;
  const int k = snprintf(path, cap, "%s/tune-%s.txt", dir, uuid);
  return k > 0 && (size_t)k < cap;
}

gpureduce_tune_cache_t gr_tune_file_read(const char *path, const struct gr_tune_key *key,
                                         gr_tune_blocks *blocks) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? GPUREDUCE_TUNE_CACHE_ABSENT : GPUREDUCE_TUNE_CACHE_UNREADABLE;
  gpureduce_tune_cache_t state = GPUREDUCE_TUNE_CACHE_UNREADABLE;
  struct stat st;
  char *buf = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) goto out;
  if (st.st_size > (off_t)GR_TUNE_MAX_FILE_BYTES) {
    state = GPUREDUCE_TUNE_CACHE_CORRUPT;
    goto out;
  }
  /* read at most one byte more than allowed: the file may grow meanwhile */
  buf = malloc(GR_TUNE_MAX_FILE_BYTES + 1);
  if (!buf) goto out;
  size_t len = 0;
  for (;;) {
    const ssize_t k = read(fd, buf + len, GR_TUNE_MAX_FILE_BYTES + 1 - len);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) goto out;
    if (k == 0) break;
    len += (size_t)k;
    if (len > GR_TUNE_MAX_FILE_BYTES) break;
  }
  state = gr_tune_parse(buf, len, key, blocks);
out:
  free(buf);
  close(fd);
  return state;
}

void gr_tune_load(struct gr_tune *t) {
  if (!gr_tune_cache_path(t->key.uuid, t->path, sizeof t->path)) t->path[0] = '\0';
  t->state = gr_tune_disabled() ? GPUREDUCE_TUNE_CACHE_DISABLED
             : t->path[0]        ? gr_tune_file_read(t->path, &t->key, &t->blocks)
                                 : GPUREDUCE_TUNE_CACHE_ABSENT;
}

/* mkdir -p for the cache directory (the parent of t->path). */
static int make_dirs(const char *file) {
  char d[4096];
  snprintf(d, sizeof d, "%s", file);
  char *slash = strrchr(d, '/');
  if (!slash || slash == d) return 1;
  *slash = '\0';
  for (char *s = d + 1; *s; ++s) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(d, 0755) != 0 && errno != EEXIST) return 0;
    *s = '/';
  }
  return mkdir(d, 0755) == 0 || errno == EEXIST;
}

/* A temporary file in the same directory, then rename over the old one:
 * readers see the old file or the new one, never a mixture. */
int gr_tune_file_write(const char *path, const struct gr_tune_key *key,
                       const gr_tune_blocks *blocks, char *why, size_t why_cap) {
  char *buf = malloc(GR_TUNE_MAX_FILE_BYTES);
  if (!buf) {
    snprintf(why, why_cap, "out of host memory");
    return 0;
  }
  const size_t len = gr_tune_format(key, blocks, buf, GR_TUNE_MAX_FILE_BYTES);
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
  int fd = -1, ok = len > 0 && make_dirs(path) && (fd = mkstemp(tmp)) >= 0;
  for (size_t done = 0; ok && done < len;) {
    const ssize_t k = write(fd, buf + done, len - done);
    if (k < 0 && errno == EINTR) continue;
    ok = k > 0;
    if (ok) done += (size_t)k;
  }
  if (fd >= 0) {
    ok = ok && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
  }
  const int saved_errno = errno;
  free(buf);
  if (!ok) snprintf(why, why_cap, "%s", len ? strerror(saved_errno) : "table too large");
  return ok;
}

