// Bytes from the kernel's CSPRNG, for identifiers a client must not be able to guess (scanner
// ids handed to unauthenticated peers).

#ifndef BASALT_UTIL_SECURE_RANDOM_H_
#define BASALT_UTIL_SECURE_RANDOM_H_

#include <cstddef>

#include "basalt/status.h"

namespace basalt::util {

// Fills `out[0, n)` from getrandom(2), retrying interrupted and short reads. Fails (IOError)
// only when the kernel refuses, never with fewer bytes filled.
Status FillSecureRandom(void* out, size_t n);

}  // namespace basalt::util

#endif  // BASALT_UTIL_SECURE_RANDOM_H_
