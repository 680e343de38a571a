// The store's clock: wall-clock milliseconds that never go backwards within a process.

#ifndef BASALT_UTIL_CLOCK_H_
#define BASALT_UTIL_CLOCK_H_

#include <cstdint>

#include "basalt/types.h"

namespace basalt::util {

// Milliseconds since the Unix epoch, never less than a value this function returned before in
// this process (if the system clock steps back, time stands still until it catches up).
// Thread-safe.
int64_t MonotonicWallMillis();

// The raw clock is basalt::SystemWallMillis (basalt/types.h), part of the public API.

}  // namespace basalt::util

#endif  // BASALT_UTIL_CLOCK_H_
