// libFuzzer target for the filter language (filter_language.h). For any input:
//   - ParseFilter never crashes, and a failure is InvalidArgument naming a position (or the
//     length limit);
//   - a filter it returns prints to text that parses back to an equal filter, and printing that
//     again gives the same text.
// Any violation traps, so the fuzzer reports it as a crash.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/filter_language.h"

namespace {

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  basalt::Result<basalt::FilterPtr> parsed = basalt::ParseFilter(text);
  if (!parsed.ok()) {
    const basalt::Status status = parsed.status();
    const std::string& message = status.message();
    Check(status.IsInvalidArgument());
    Check(message.find(" at position ") != std::string::npos ||
          message.rfind("filter string too long", 0) == 0);
    return 0;
  }
  Check(*parsed != nullptr);
  const std::string printed = basalt::FilterToString(**parsed);
  // Round trip is promised for text within the length limit (filter_language.h).
  if (printed.size() > basalt::kMaxFilterStringLength) return 0;
  basalt::Result<basalt::FilterPtr> back = basalt::ParseFilter(printed);
  Check(back.ok());
  Check(*back != nullptr && **back == **parsed);
  Check(basalt::FilterToString(**back) == printed);
  return 0;
}
