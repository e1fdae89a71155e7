/*
 * fuzz-tune-cache.c - libFuzzer target for the tuning cache parser.
 *
 * Build and run (clang; see `make fuzz` in Makefile.am):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     tests/tune/fuzz-tune-cache.c src/tune/cache.c src/core/names.c -o fuzz-tune-cache
 *   ./fuzz-tune-cache -max_total_time=300 tests/tune/fuzz-corpus
 *
 * The parser must never crash, leak or read out of bounds, whatever the
 * bytes; on anything but a valid file for the key it must leave the table
 * untouched, and a LOADED table must format back to a file that parses to
 * the same table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune.h"

static const struct gr_tune_key key = {
    "NVIDIA H200", "0123456789abcdef0123456789abcdef", 9, 0, 132, 13000};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static gr_tune_blocks table, again;
  memset(&table, 0xA5, sizeof table);
  const gpureduce_tune_cache_t state = gr_tune_parse((const char *)data, size, &key, &table);
  if (state != GPUREDUCE_TUNE_CACHE_LOADED) {
    const unsigned char *b = (const unsigned char *)&table;
    for (size_t i = 0; i < sizeof table; ++i)
      if (b[i] != 0xA5) abort(); /* a rejected file changed the table */
    return 0;
  }
  static char text[GR_TUNE_MAX_FILE_BYTES];
  const size_t len = gr_tune_format(&key, &table, text, sizeof text);
  if (len == 0) abort();
  if (gr_tune_parse(text, len, &key, &again) != GPUREDUCE_TUNE_CACHE_LOADED) abort();
  if (memcmp(&table, &again, sizeof table) != 0) abort();
  return 0;
}
