#include "util/secure_random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace basalt::util {

Status FillSecureRandom(void* out, size_t n) {
  auto* bytes = static_cast<unsigned char*>(out);
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(bytes + got, n - got, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(std::string("getrandom: ") + std::strerror(errno));
    }
    got += static_cast<size_t>(r);
  }
  return Status::OK();
}

}  // namespace basalt::util
