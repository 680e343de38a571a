#include "server/http/url.h"

#include "util/bytes_format.h"

namespace basalt::server::http {

Result<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      int hi = i + 2 < text.size() ? util::HexDigitValue(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? util::HexDigitValue(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return Status::InvalidArgument("bad percent-encoding in '" + std::string(text) + "'");
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> ParseQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (part.empty()) continue;
    size_t eq = part.find('=');
    BASALT_ASSIGN_OR_RETURN(std::string name, PercentDecode(part.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      BASALT_ASSIGN_OR_RETURN(value, PercentDecode(part.substr(eq + 1), true));
    }
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

}  // namespace basalt::server::http
