// libFuzzer target for the text decoders of the REST layer that read client bytes on their own:
// the URL decoder (url.h), the query-string parser, base64 (base64.h) and the scanner filter
// parser (filter_json.h: HBase's JSON filter model, or the filter language).
//
// The first byte picks the decoder, the rest is its input. Checked on every input: nothing
// crashes; every failure is InvalidArgument; a percent-decoded text is never longer than its
// input and re-encoding every byte as %HH decodes back to it; base64 that decodes re-encodes to
// bytes that decode to the same value; a parsed filter prints to the filter language and, when
// that text parses, it is an equal filter.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/base64.h"
#include "basalt/filter_language.h"
#include "server/http/url.h"
#include "server/rest/filter_json.h"

namespace {

void Check(bool property) {
  if (!property) __builtin_trap();
}

std::string PercentEncodeAll(std::string_view bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

void FuzzPercentDecode(std::string_view text, bool plus_is_space) {
  auto decoded = basalt::server::http::PercentDecode(text, plus_is_space);
  if (!decoded.ok()) {
    Check(decoded.status().IsInvalidArgument());
    return;
  }
  Check(decoded->size() <= text.size());
  auto again = basalt::server::http::PercentDecode(PercentEncodeAll(*decoded));
  Check(again.ok() && *again == *decoded);
}

void FuzzQuery(std::string_view text) {
  auto query = basalt::server::http::ParseQuery(text);
  if (!query.ok()) Check(query.status().IsInvalidArgument());
}

void FuzzBase64(std::string_view text) {
  auto decoded = basalt::Base64Decode(std::string(text), "fuzz");
  if (!decoded.ok()) {
    Check(decoded.status().IsInvalidArgument());
    return;
  }
  const std::string encoded = basalt::Base64Encode(*decoded);
  auto again = basalt::Base64Decode(encoded, "fuzz");
  Check(again.ok() && *again == *decoded);
}

void FuzzScannerFilter(std::string_view text) {
  auto filter = basalt::server::rest::ParseScannerFilter(std::string(text));
  if (!filter.ok()) {
    Check(filter.status().IsInvalidArgument());
    return;
  }
  if (*filter == nullptr) return;
  const std::string printed = basalt::FilterToString(**filter);
  if (printed.size() > basalt::kMaxFilterStringLength) return;
  // The JSON model reaches filters the language cannot write (docs/filters.md: an empty
  // FilterList prints as text that does not parse); text that does parse is the same filter,
  // up to one-element FilterLists, which print as their element (the language has none): the
  // parsed filter then prints as the same text.
  auto back = basalt::ParseFilter(printed);
  if (!back.ok()) return;
  Check(*back != nullptr && (**back == **filter || basalt::FilterToString(**back) == printed));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      FuzzPercentDecode(text, false);
      break;
    case 1:
      FuzzPercentDecode(text, true);
      break;
    case 2:
      FuzzQuery(text);
      break;
    case 3:
      FuzzBase64(text);
      break;
    default:
      FuzzScannerFilter(text);
      break;
  }
  return 0;
}
