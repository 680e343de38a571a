// This process's memory as Linux reports it in /proc/self/status, for tests that check a request
// did not make the server (running in the test's process) allocate what it merely declared.

#ifndef BASALT_TESTS_SUPPORT_PROCESS_MEMORY_H_
#define BASALT_TESTS_SUPPORT_PROCESS_MEMORY_H_

#include <cstdint>
#include <fstream>
#include <string>

namespace basalt::testing {

// The value of `field` ("VmRSS", "VmHWM", ...) in KiB; -1 when it is missing.
inline int64_t ProcessStatusKb(const std::string& field) {
  std::ifstream status("/proc/self/status");
  const std::string prefix = field + ":";
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(prefix, 0) == 0) return std::stoll(line.substr(prefix.size()));
  }
  return -1;
}

// Resident now, and the peak so far.
inline int64_t RssKb() {
  return ProcessStatusKb("VmRSS");
}
inline int64_t PeakRssKb() {
  return ProcessStatusKb("VmHWM");
}

// Brings the peak (VmHWM) down to what is resident now, so that PeakRssKb measures what follows
// even after an earlier test of the process peaked higher (Linux's /proc/PID/clear_refs, "5").
// False when the kernel refused.
inline bool ResetPeakRss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace basalt::testing

#endif  // BASALT_TESTS_SUPPORT_PROCESS_MEMORY_H_
