// The helpers the bench programs share (failing fast, timing an operation, medians) live in the
// harness; this header is kept for the programs that include it by this name.

#ifndef BASALT_BENCH_BENCH_UTIL_H_
#define BASALT_BENCH_BENCH_UTIL_H_

#include "harness.h"

#endif  // BASALT_BENCH_BENCH_UTIL_H_
