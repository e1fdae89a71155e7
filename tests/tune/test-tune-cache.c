/*
 * test-tune-cache.c - the tuning cache file of the tuning model (the
 * internal gr_tune_* calls): round trip, corrupt, truncated, oversized,
 * foreign and hostile files, two processes writing at once, and where the
 * file lives.  Host only (the cache code has no CUDA); compiles the
 * library's internal sources itself (Makefile.am's GR_TUNE_CACHE_SOURCES).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune/tune.h"
#include "testutil.h"

static const struct gr_tune_key key = {
    "NVIDIA H200", "00112233445566778899aabbccddeeff", 9, 0, 132, 13000};

static char dir[256];
static char path[512];

/* A table with a few entries at the edges of every field. */
static void sample_table(gr_tune_blocks *t, unsigned salt) {
  memset(t, 0, sizeof *t);
  (*t)[GPUREDUCE_F32][GPUREDUCE_SUM][0][0] = 1 + salt;
  (*t)[GPUREDUCE_F32][GPUREDUCE_SUM][0][17] = 924 + salt;
  (*t)[GPUREDUCE_F32][GPUREDUCE_SUM_SQUARES][1][5] = 264 + salt;
  (*t)[GPUREDUCE_U64][GPUREDUCE_ARGMAX][0][GR_BUCKETS - 1] = 2147483647u - salt;
  (*t)[GPUREDUCE_F16][GPUREDUCE_MIN][0][9] = 132 + salt;
}

static size_t sample_text(char *buf, size_t cap) {
  gr_tune_blocks t;
  sample_table(&t, 0);
  return gr_tune_format(&key, &t, buf, cap);
}

static void write_file(const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  check_true(f != NULL, "%s opens for writing", path);
  check_bits(len, fwrite(text, 1, len, f), "all %zu bytes are written to %s", len, path);
  check_true(fclose(f) == 0, "%s is closed without an error", path);
}

/* Parse text and check the state; a rejected file must leave the table
 * exactly as it was. */
static void expect_state(const char *text, size_t len, gpureduce_tune_cache_t want,
                         const char *what) {
  static gr_tune_blocks t, before;
  memset(&t, 0x5A, sizeof t);
  memcpy(&before, &t, sizeof t);
  check_tune_cache(want, gr_tune_parse(text, len, &key, &t), "gr_tune_parse of %s", what);
  check_true(want == GPUREDUCE_TUNE_CACHE_LOADED || memcmp(&t, &before, sizeof t) == 0,
             "gr_tune_parse of %s, rejected, leaves the table as it was", what);
}

static int setup(void **state) {
  (void)state;
  tu_announce_seed();
  if (tu_make_tmpdir(dir, sizeof dir, "test-tune-cache") != 0) return -1;
  snprintf(path, sizeof path, "%s/sub/dir/tune-%s.txt", dir, key.uuid);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  return tu_remove_tmpdir(dir);
}

static void round_trip_through_a_file_keeps_every_entry(void **state) {
  (void)state;
  gr_tune_blocks t, back;
  sample_table(&t, 0);
  char why[200] = "";
  check_true(gr_tune_file_write(path, &key, &t, why, sizeof why),
             "gr_tune_file_write creates %s and the directories above it (%s)", path, why);
  memset(&back, 0, sizeof back);
  check_tune_cache(GPUREDUCE_TUNE_CACHE_LOADED, gr_tune_file_read(path, &key, &back),
                   "gr_tune_file_read of the file just written");
  check_true(memcmp(&t, &back, sizeof t) == 0,
             "the table read back equals the table written, entry for entry");
  struct stat st;
  check_true(stat(path, &st) == 0, "%s exists", path);
  check_bits(0644, st.st_mode & 0777, "the cache file's mode is 0644");
}

static void a_missing_file_is_absent(void **state) {
  (void)state;
  gr_tune_blocks t;
  char missing[600];
  snprintf(missing, sizeof missing, "%s/none/tune.txt", dir);
  check_tune_cache(GPUREDUCE_TUNE_CACHE_ABSENT, gr_tune_file_read(missing, &key, &t),
                   "gr_tune_file_read of %s, which does not exist", missing);
}

static void every_truncation_is_corrupt(void **state) {
  (void)state;
  char text[4096];
  const size_t len = sample_text(text, sizeof text);
  check_true(len > 100, "gr_tune_format writes the sample table (%zu bytes)", len);
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_LOADED, "the whole file");
  for (size_t cut = 0; cut < len; ++cut) {
    char what[64];
    snprintf(what, sizeof what, "the first %zu of %zu bytes", cut, len);
    expect_state(text, cut, GPUREDUCE_TUNE_CACHE_CORRUPT, what);
  }
}

static void an_oversized_file_is_corrupt_even_if_well_formed(void **state) {
  (void)state;
  const size_t cap = GR_TUNE_MAX_FILE_BYTES + 4096;
  char *text = malloc(cap);
  check_true(text != NULL, "%zu bytes of host memory for an oversized file", cap);
  size_t len = 0;
  while (len < GR_TUNE_MAX_FILE_BYTES) len += (size_t)sprintf(text + len, "# padding\n");
  len += sample_text(text + len, cap - len);
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_CORRUPT, "a file over the size limit");
  write_file(text, len);
  gr_tune_blocks t;
  check_tune_cache(GPUREDUCE_TUNE_CACHE_CORRUPT, gr_tune_file_read(path, &key, &t),
                   "gr_tune_file_read of a file over the size limit");
  free(text);
}

static void a_file_for_another_device_or_version_is_foreign(void **state) {
  (void)state;
  gr_tune_blocks t;
  sample_table(&t, 0);
  struct gr_tune_key other[6];
  for (int i = 0; i < 6; ++i) other[i] = key;
  strcpy(other[0].name, "NVIDIA H100 80GB HBM3");
  other[1].uuid[0] = 'f';
  other[2].cc_minor = 1;
  other[3].sms = 114;
  other[4].driver = 12080;
  other[5].cc_major = 10;
  char text[4096];
  for (int i = 0; i < 6; ++i) {
    const size_t len = gr_tune_format(&other[i], &t, text, sizeof text);
    char what[64];
    snprintf(what, sizeof what, "a file for key variant %d", i);
    expect_state(text, len, GPUREDUCE_TUNE_CACHE_FOREIGN, what);
  }
  /* another library version or order version */
  const size_t len = sample_text(text, sizeof text);
  char *v = strstr(text, "library ");
  check_true(v != NULL, "the sample file has a library line");
  v[8] = v[8] == '9' ? '8' : '9';
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_FOREIGN, "another library version");
  sample_text(text, sizeof text);
  v = strstr(text, "order ");
  check_true(v != NULL, "the sample file has an order line");
  v[6] = '7';
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_FOREIGN, "another order version");
}

/* Replace the first occurrence of `from` in a valid file by `to`. */
static size_t edited(char *out, size_t cap, const char *from, const char *to) {
  char text[4096];
  sample_text(text, sizeof text);
  const char *at = strstr(text, from);
  check_true(at != NULL, "the sample file holds \"%s\"", from);
  const int k = snprintf(out, cap, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  check_true(k > 0 && (size_t)k < cap, "the edited file fits in %zu bytes", cap);
  return (size_t)k;
}

static void hostile_files_are_corrupt(void **state) {
  (void)state;
  static const struct { const char *from, *to, *what; } cases[] = {
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 99999999999\n", "a count over 10 digits"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 2147483648\n", "a count above INT_MAX"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 0\n", "a count of zero"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 -5\n", "a negative count"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 +5\n", "a count with a sign"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 0x10\n", "a hexadecimal count"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 48 924\n", "a bucket past the last"},
      {"blocks f32 sum 0 17 924\n", "blocks f33 sum 0 17 924\n", "an unknown type"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 mean 0 17 924\n", "an unknown operation"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 2 17 924\n", "a flag other than 0 or 1"},
      {"blocks f32 sum 0 17 924\n", "blocks f64 sum 1 17 924\n", "f64 accumulation of f64"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 min 1 17 924\n", "f64 accumulation of min"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 924 7\n", "an extra field"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17\n", "a missing field"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 0 924\n", "a duplicate entry"},
      {"blocks f32 sum 0 17 924\n", "blocks f32 sum 0 17 924\r\n", "a CRLF line ending"},
      {"blocks f32 sum 0 17 924\n", "block f32 sum 0 17 924\n", "an unknown keyword"},
      {"end 5\n", "end 6\n", "an entry count that disagrees"},
      {"end 5\n", "end\n", "an end without a count"},
      {"end 5\n", "end 5\nblocks f32 max 0 1 2\n", "an entry after the end"},
      {"end 5\n", "", "no end line"},
      {"gpureduce-tune-cache 1\n", "", "no format line"},
      {"library ", "libary ", "a misspelt header"},
      {"multiprocessors 132\n", "driver 13000\nmultiprocessors 132\n", "headers out of order"},
  };
  char text[8192];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const size_t len = edited(text, sizeof text, cases[i].from, cases[i].to);
    expect_state(text, len, GPUREDUCE_TUNE_CACHE_CORRUPT, cases[i].what);
  }
  /* a NUL byte, a line over the limit, binary noise */
  size_t len = sample_text(text, sizeof text);
  text[40] = '\0';
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_CORRUPT, "a NUL byte");
  len = edited(text, sizeof text, "# gpureduce", "#");
  memset(text + 1, 'x', 300);
  expect_state(text, len > 301 ? len : 301, GPUREDUCE_TUNE_CACHE_CORRUPT, "a 300-byte line");
  tu_rng r;
  tu_rng_init(&r, "hostile bytes");
  for (int round = 0; round < 200; ++round) {
    for (size_t i = 0; i < 512; ++i) text[i] = (char)(tu_next(&r) >> 56);
    char what[64];
    snprintf(what, sizeof what, "512 random bytes (round %d)", round);
    expect_state(text, 512, GPUREDUCE_TUNE_CACHE_CORRUPT, what);
  }
  expect_state("", 0, GPUREDUCE_TUNE_CACHE_CORRUPT, "an empty file");
}

static void a_directory_at_the_path_is_unreadable(void **state) {
  (void)state;
  char d[600];
  snprintf(d, sizeof d, "%s/adir", dir);
  check_true(mkdir(d, 0700) == 0, "mkdir %s", d);
  gr_tune_blocks t;
  check_tune_cache(GPUREDUCE_TUNE_CACHE_UNREADABLE, gr_tune_file_read(d, &key, &t),
                   "gr_tune_file_read of a directory at the cache file's path");
}

static void two_processes_writing_at_once_never_tear_the_file(void **state) {
  (void)state;
  gr_tune_blocks a, b, seen;
  sample_table(&a, 0);
  sample_table(&b, 7);
  char why[200] = "";
  check_true(gr_tune_file_write(path, &key, &a, why, sizeof why),
             "gr_tune_file_write of writer A's table before the writers start (%s)", why);
  pid_t child[2];
  for (int c = 0; c < 2; ++c) {
    child[c] = fork();
    check_true(child[c] >= 0, "fork of writer %c", "AB"[c]);
    if (child[c] == 0) {
      for (int i = 0; i < 300; ++i)
        if (!gr_tune_file_write(path, &key, c ? &b : &a, why, sizeof why)) _exit(1);
      _exit(0);
    }
  }
  int reads = 0, as = 0, bs = 0;
  for (; reads < 2000; ++reads) {
    memset(&seen, 0, sizeof seen);
    check_tune_cache(GPUREDUCE_TUNE_CACHE_LOADED, gr_tune_file_read(path, &key, &seen),
                     "read %d of the file while two writers replace it", reads);
    const int is_a = memcmp(&seen, &a, sizeof a) == 0, is_b = memcmp(&seen, &b, sizeof b) == 0;
    check_true(is_a || is_b, "read %d saw the table of writer A or of writer B, whole", reads);
    as += is_a;
    bs += is_b;
  }
  for (int c = 0; c < 2; ++c) {
    int status = 0;
    check_true(waitpid(child[c], &status, 0) == child[c], "writer %c is reaped", "AB"[c]);
    check_true(WIFEXITED(status) && WEXITSTATUS(status) == 0,
               "writer %c wrote its 300 files without an error", "AB"[c]);
  }
  print_message("# %d reads: %d saw writer A's table, %d writer B's\n", reads, as, bs);
  /* no temporary files left behind */
  char sub[600];
  snprintf(sub, sizeof sub, "%s/sub/dir", dir);
  DIR *d = opendir(sub);
  check_true(d != NULL, "%s opens", sub);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') ++files;
  closedir(d);
  check_bits(1, (uint64_t)files, "the writers left no temporary file beside the cache file in %s",
             sub);
}

static void the_cache_path_follows_the_environment(void **state) {
  (void)state;
  char p[4096];
  setenv("GPUREDUCE_TUNE_CACHE", "/opt/cache", 1);
  check_true(gr_tune_cache_path("abc", p, sizeof p), "GPUREDUCE_TUNE_CACHE set: a cache path");
  check_string("/opt/cache/tune-abc.txt", p, "GPUREDUCE_TUNE_CACHE=/opt/cache: the cache path");
  unsetenv("GPUREDUCE_TUNE_CACHE");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  check_true(gr_tune_cache_path("abc", p, sizeof p), "XDG_CACHE_HOME set: a cache path");
  check_string("/xdg/gpureduce/tune-abc.txt", p, "XDG_CACHE_HOME=/xdg: the cache path");
  setenv("XDG_CACHE_HOME", "relative", 1); /* ignored, as the XDG spec says */
  setenv("HOME", "/home/u", 1);
  check_true(gr_tune_cache_path("abc", p, sizeof p), "HOME set: a cache path");
  check_string("/home/u/.cache/gpureduce/tune-abc.txt", p,
               "a relative XDG_CACHE_HOME is ignored: the cache path under HOME=/home/u");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  check_true(!gr_tune_cache_path("abc", p, sizeof p),
             "without GPUREDUCE_TUNE_CACHE, XDG_CACHE_HOME and HOME: no cache path");
  setenv("GPUREDUCE_TUNE", "off", 1);
  check_true(gr_tune_disabled(), "GPUREDUCE_TUNE=off disables the cache");
  setenv("GPUREDUCE_TUNE", "on", 1);
  check_true(!gr_tune_disabled(), "GPUREDUCE_TUNE=on does not disable the cache");
  unsetenv("GPUREDUCE_TUNE");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip_through_a_file_keeps_every_entry),
      cmocka_unit_test(a_missing_file_is_absent),
      cmocka_unit_test(every_truncation_is_corrupt),
      cmocka_unit_test(an_oversized_file_is_corrupt_even_if_well_formed),
      cmocka_unit_test(a_file_for_another_device_or_version_is_foreign),
      cmocka_unit_test(hostile_files_are_corrupt),
      cmocka_unit_test(a_directory_at_the_path_is_unreadable),
      cmocka_unit_test(two_processes_writing_at_once_never_tear_the_file),
      cmocka_unit_test(the_cache_path_follows_the_environment),
  };
  return cmocka_run_group_tests_name("tune-cache", tests, setup, teardown);
}
