#include "app/api_v1/validation.h"

#include <charconv>

#include "basalt/base64.h"
#include "basalt/recipes/users.h"
#include "server/http/url.h"

namespace basalt::app::api_v1 {

Result<nlohmann::json> ParseJsonObject(std::string_view body, bool empty_ok) {
  if (body.empty()) {
    if (empty_ok) return nlohmann::json::object();
    return Status::InvalidArgument("the request needs a JSON object body");
  }
  nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("the body is not valid JSON");
  if (!j.is_object()) return Status::InvalidArgument("the body must be a JSON object");
  return j;
}

Result<std::string> StringField(const nlohmann::json& body, const char* field) {
  auto it = body.find(field);
  if (it == body.end()) {
    return Status::InvalidArgument(std::string("missing field '") + field + "'");
  }
  if (!it->is_string()) {
    return Status::InvalidArgument(std::string("field '") + field + "' must be a string");
  }
  return it->get<std::string>();
}

Result<std::optional<std::string>> OptionalStringField(const nlohmann::json& body,
                                                       const char* field) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string()) {
    return Status::InvalidArgument(std::string("field '") + field + "' must be a string");
  }
  return std::optional<std::string>(it->get<std::string>());
}

Result<int64_t> IntQuery(const server::http::RequestContext& ctx, const std::string& name,
                         int64_t fallback, int64_t min, int64_t max) {
  std::optional<std::string> text = ctx.Query(name);
  if (!text) return fallback;
  int64_t value = 0;
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (text->empty() || ec != std::errc() || ptr != end || value < min || value > max) {
    return Status::InvalidArgument("query parameter '" + name + "' must be an integer in " +
                                   std::to_string(min) + ".." + std::to_string(max));
  }
  return value;
}

Result<int32_t> PageLimit(const server::http::RequestContext& ctx) {
  BASALT_ASSIGN_OR_RETURN(int64_t limit,
                          IntQuery(ctx, "limit", kDefaultPageLimit, 1, kMaxPageLimit));
  return static_cast<int32_t>(limit);
}

Result<std::string> PageCursor(const server::http::RequestContext& ctx) {
  std::optional<std::string> text = ctx.Query("cursor");
  if (!text || text->empty()) return std::string();
  std::optional<std::string> bytes = Base64UrlDecode(*text);
  if (!bytes || bytes->empty()) return Status::InvalidArgument("malformed cursor");
  return *bytes;
}

nlohmann::json EncodeCursor(std::string_view recipe_cursor) {
  if (recipe_cursor.empty()) return nullptr;
  return Base64UrlEncode(recipe_cursor);
}

Result<std::string> PathParam(const server::http::RequestContext& ctx, const std::string& name) {
  return server::http::PercentDecode(ctx.Param(name));
}

Result<std::string> UserParam(const server::http::RequestContext& ctx) {
  BASALT_ASSIGN_OR_RETURN(std::string user, PathParam(ctx, "user"));
  BASALT_RETURN_IF_ERROR(recipes::ValidateUserName(user));
  return user;
}

namespace {

bool HasControlCharacter(std::string_view text) {
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace

Status ValidateItem(std::string_view item) {
  if (item.empty() || item.size() > kMaxItemBytes || !IsValidUtf8(item) ||
      HasControlCharacter(item)) {
    return Status::InvalidArgument("an item is 1.." + std::to_string(kMaxItemBytes) +
                                   " bytes of UTF-8 without control characters");
  }
  return Status::OK();
}

Status ValidateActivityName(std::string_view name) {
  if (name.empty() || name.size() > kMaxActivityNameBytes || !IsValidUtf8(name) ||
      HasControlCharacter(name)) {
    return Status::InvalidArgument("field 'name' must be 1.." +
                                   std::to_string(kMaxActivityNameBytes) +
                                   " bytes of UTF-8 without control characters");
  }
  return Status::OK();
}

Status ValidateActivityPayload(std::string_view payload) {
  if (payload.size() > kMaxActivityPayloadBytes || !IsValidUtf8(payload)) {
    return Status::InvalidArgument("field 'payload' must be at most " +
                                   std::to_string(kMaxActivityPayloadBytes) + " bytes of UTF-8");
  }
  return Status::OK();
}

Result<std::string> DecodePostId(std::string_view text) {
  std::optional<std::string> bytes = Base64UrlDecode(text);
  if (!bytes || bytes->empty()) return Status::InvalidArgument("malformed post id");
  return *bytes;
}

namespace {

// Decodes the code point at text[*i] into *cp and moves *i past it; false (and *i unchanged) at
// bytes that are not UTF-8 (overlong forms, surrogates, past U+10FFFF, truncated).
bool NextCodePoint(std::string_view text, size_t* i, uint32_t* cp) {
  unsigned char c = static_cast<unsigned char>(text[*i]);
  if (c < 0x80) {
    *cp = c;
    ++*i;
    return true;
  }
  int extra;
  if ((c & 0xE0) == 0xC0) {
    extra = 1;
    *cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2;
    *cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3;
    *cp = c & 0x07;
  } else {
    return false;
  }
  if (*i + extra >= text.size()) return false;
  for (int k = 1; k <= extra; ++k) {
    unsigned char cc = static_cast<unsigned char>(text[*i + k]);
    if ((cc & 0xC0) != 0x80) return false;
    *cp = (*cp << 6) | (cc & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (*cp < kMin[extra] || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF)) return false;
  *i += extra + 1;
  return true;
}

bool IsWhiteSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  uint32_t cp = 0;
  for (size_t i = 0; i < text.size();) {
    if (!NextCodePoint(text, &i, &cp)) return false;
  }
  return true;
}

size_t CodePointCount(std::string_view text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;  // every byte but continuation bytes
  return n;
}

bool IsBlank(std::string_view text) {
  uint32_t cp = 0;
  for (size_t i = 0; i < text.size();) {
    if (!NextCodePoint(text, &i, &cp) || !IsWhiteSpace(cp)) return false;
  }
  return true;
}

Status ValidatePostText(std::string_view text) {
  if (text.size() > kMaxPostBytes || !IsValidUtf8(text) || CodePointCount(text) > kMaxPostChars) {
    return Status::InvalidArgument("field 'text' must be at most " + std::to_string(kMaxPostChars) +
                                   " characters (Unicode code points) of UTF-8");
  }
  if (IsBlank(text)) {
    return Status::InvalidArgument("field 'text' must not be empty or only white space");
  }
  // Line breaks and tabs are text; other control characters (NUL, ESC, ...) are not, and would
  // reach every reader's terminal or log.
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f) {
      return Status::InvalidArgument(
          "field 'text' must not hold control characters other than line breaks and tabs");
    }
  }
  return Status::OK();
}

}  // namespace basalt::app::api_v1
