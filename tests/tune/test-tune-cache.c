/*
 * test-tune-cache.c - the tuning cache file: round trip, corrupt, truncated,
 * oversized, foreign and hostile files, and two processes writing at once.
 * Host only (the cache code has no CUDA); links the library's internals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"

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
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

/* Parse text and check the state; a rejected file must leave the table
 * exactly as it was. */
static void expect_state(const char *text, size_t len, gpureduce_tune_cache_t want,
                         const char *what) {
  static gr_tune_blocks t, before;
  memset(&t, 0x5A, sizeof t);
  memcpy(&before, &t, sizeof t);
  const gpureduce_tune_cache_t got = gr_tune_parse(text, len, &key, &t);
  if (got != want) print_error("%s: state %d, wanted %d\n", what, (int)got, (int)want);
  assert_int_equal(got, want);
  if (want != GPUREDUCE_TUNE_CACHE_LOADED && memcmp(&t, &before, sizeof t) != 0) {
    print_error("%s: a rejected file changed the table\n", what);
    fail();
  }
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/gpureduce-test-tune-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  snprintf(path, sizeof path, "%s/sub/dir/tune-%s.txt", dir, key.uuid);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static void round_trip_through_a_file_keeps_every_entry(void **state) {
  (void)state;
  gr_tune_blocks t, back;
  sample_table(&t, 0);
  char why[200] = "";
  assert_true(gr_tune_file_write(path, &key, &t, why, sizeof why)); /* creates sub/dir */
  memset(&back, 0, sizeof back);
  assert_int_equal(gr_tune_file_read(path, &key, &back), GPUREDUCE_TUNE_CACHE_LOADED);
  assert_memory_equal(&t, &back, sizeof t);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
}

static void a_missing_file_is_absent(void **state) {
  (void)state;
  gr_tune_blocks t;
  char missing[600];
  snprintf(missing, sizeof missing, "%s/none/tune.txt", dir);
  assert_int_equal(gr_tune_file_read(missing, &key, &t), GPUREDUCE_TUNE_CACHE_ABSENT);
}

static void every_truncation_is_corrupt(void **state) {
  (void)state;
  char text[4096];
  const size_t len = sample_text(text, sizeof text);
  assert_true(len > 100);
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
  assert_non_null(text);
  size_t len = 0;
  while (len < GR_TUNE_MAX_FILE_BYTES) len += (size_t)sprintf(text + len, "# padding\n");
  len += sample_text(text + len, cap - len);
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_CORRUPT, "a file over the size limit");
  write_file(text, len);
  gr_tune_blocks t;
  assert_int_equal(gr_tune_file_read(path, &key, &t), GPUREDUCE_TUNE_CACHE_CORRUPT);
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
  assert_non_null(v);
  v[8] = v[8] == '9' ? '8' : '9';
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_FOREIGN, "another library version");
  sample_text(text, sizeof text);
  v = strstr(text, "order ");
  v[6] = '7';
  expect_state(text, len, GPUREDUCE_TUNE_CACHE_FOREIGN, "another order version");
}

/* Replace the first occurrence of `from` in a valid file by `to`. */
static size_t edited(char *out, size_t cap, const char *from, const char *to) {
  char text[4096];
  sample_text(text, sizeof text);
  const char *at = strstr(text, from);
  assert_non_null(at);
  const int k = snprintf(out, cap, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  assert_true(k > 0 && (size_t)k < cap);
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
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int round = 0; round < 200; ++round) {
    for (size_t i = 0; i < 512; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      text[i] = (char)(x >> 56);
    }
    expect_state(text, 512, GPUREDUCE_TUNE_CACHE_CORRUPT, "random bytes");
  }
  expect_state("", 0, GPUREDUCE_TUNE_CACHE_CORRUPT, "an empty file");
}

static void a_directory_at_the_path_is_unreadable(void **state) {
  (void)state;
  char d[600];
  snprintf(d, sizeof d, "%s/adir", dir);
  assert_int_equal(mkdir(d, 0700), 0);
  gr_tune_blocks t;
  assert_int_equal(gr_tune_file_read(d, &key, &t), GPUREDUCE_TUNE_CACHE_UNREADABLE);
}

static void two_processes_writing_at_once_never_tear_the_file(void **state) {
  (void)state;
  gr_tune_blocks a, b, seen;
  sample_table(&a, 0);
  sample_table(&b, 7);
  char why[200];
  assert_true(gr_tune_file_write(path, &key, &a, why, sizeof why));
  pid_t child[2];
  for (int c = 0; c < 2; ++c) {
    child[c] = fork();
    assert_true(child[c] >= 0);
    if (child[c] == 0) {
      for (int i = 0; i < 300; ++i)
        if (!gr_tune_file_write(path, &key, c ? &b : &a, why, sizeof why)) _exit(1);
      _exit(0);
    }
  }
  int reads = 0, as = 0, bs = 0;
  for (; reads < 2000; ++reads) {
    memset(&seen, 0, sizeof seen);
    const gpureduce_tune_cache_t s = gr_tune_file_read(path, &key, &seen);
    if (s != GPUREDUCE_TUNE_CACHE_LOADED) {
      print_error("read %d saw state %d while two writers ran\n", reads, (int)s);
      fail();
    }
    if (memcmp(&seen, &a, sizeof a) == 0) ++as;
    else if (memcmp(&seen, &b, sizeof b) == 0) ++bs;
    else fail_msg("read %d saw a table that neither writer wrote", reads);
  }
  for (int c = 0; c < 2; ++c) {
    int status = 0;
    assert_int_equal(waitpid(child[c], &status, 0), child[c]);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  print_message("# %d reads: %d saw writer A's table, %d writer B's\n", reads, as, bs);
  /* no temporary files left behind */
  char sub[600];
  snprintf(sub, sizeof sub, "%s/sub/dir", dir);
  DIR *d = opendir(sub);
  assert_non_null(d);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') ++files;
  closedir(d);
  assert_int_equal(files, 1);
}

static void the_cache_path_follows_the_environment(void **state) {
  (void)state;
  char p[4096];
  setenv("GPUREDUCE_TUNE_CACHE", "/opt/cache", 1);
  assert_true(gr_tune_cache_path("abc", p, sizeof p));
  assert_string_equal(p, "/opt/cache/tune-abc.txt");
  unsetenv("GPUREDUCE_TUNE_CACHE");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  assert_true(gr_tune_cache_path("abc", p, sizeof p));
  assert_string_equal(p, "/xdg/gpureduce/tune-abc.txt");
  setenv("XDG_CACHE_HOME", "relative", 1); /* ignored, as the XDG spec says */
  setenv("HOME", "/home/u", 1);
  assert_true(gr_tune_cache_path("abc", p, sizeof p));
  assert_string_equal(p, "/home/u/.cache/gpureduce/tune-abc.txt");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  assert_false(gr_tune_cache_path("abc", p, sizeof p));
  setenv("GPUREDUCE_TUNE", "off", 1);
  assert_true(gr_tune_disabled());
  setenv("GPUREDUCE_TUNE", "on", 1);
  assert_false(gr_tune_disabled());
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
