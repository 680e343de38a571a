// Input checks of /api/v1: every field, path parameter and query parameter a handler reads goes
// through one of these, which answer InvalidArgument (400 bad_request) with a message naming
// the field and the rule.

#ifndef BASALT_APP_API_V1_VALIDATION_H_
#define BASALT_APP_API_V1_VALIDATION_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "basalt/status.h"
#include "server/http/http_types.h"

namespace basalt::app::api_v1 {

inline constexpr int32_t kDefaultPageLimit = 20;
inline constexpr int32_t kMaxPageLimit = 100;
inline constexpr int32_t kDefaultTopItems = 10;  // of /clicks/top, at most kMaxPageLimit
inline constexpr size_t kMaxItemBytes = 200;
inline constexpr size_t kMaxActivityNameBytes = 100;
inline constexpr size_t kMaxActivityPayloadBytes = 4096;
inline constexpr int64_t kMaxClicksPerRequest = 1'000'000;
inline constexpr int64_t kMaxSeriesPoints = 1000;
// The longest window of the hourly sketch queries (distinct visitors, approximate top-K).
inline constexpr int64_t kMaxSketchWindowMs = 7 * 24 * 3600 * 1000LL;
// A post's text: at most this many characters (Unicode code points), as a person counts them...
inline constexpr size_t kMaxPostChars = 1000;
// ...and at most this many bytes of UTF-8, the Feed's max_text_bytes: four per code point, so
// a text within kMaxPostChars never reaches it.
inline constexpr size_t kMaxPostBytes = 4 * kMaxPostChars;

// The request body as a JSON object. An empty body is {} when `empty_ok`, else an error; a body
// that is not a JSON object is an error.
Result<nlohmann::json> ParseJsonObject(std::string_view body, bool empty_ok = false);

// body[field] as a string: an error when it is missing or not a string.
Result<std::string> StringField(const nlohmann::json& body, const char* field);
// body[field] as a string, nullopt when missing or null: an error when it is another type.
Result<std::optional<std::string>> OptionalStringField(const nlohmann::json& body,
                                                       const char* field);

// ?limit: 1..kMaxPageLimit, default kDefaultPageLimit.
Result<int32_t> PageLimit(const server::http::RequestContext& ctx);
// ?cursor: the recipe's cursor that EncodeCursor gave out ("" when absent). An error when it is
// not such a string.
Result<std::string> PageCursor(const server::http::RequestContext& ctx);
// A recipe's cursor as the contract's next_cursor: null when there is no next page.
nlohmann::json EncodeCursor(std::string_view recipe_cursor);

// An integer query parameter, `fallback` when absent; an error when it is not a decimal integer
// in [min, max].
Result<int64_t> IntQuery(const server::http::RequestContext& ctx, const std::string& name,
                         int64_t fallback, int64_t min, int64_t max);

// A path parameter, percent-decoded.
Result<std::string> PathParam(const server::http::RequestContext& ctx, const std::string& name);
// A user name path parameter, decoded and checked against the UserStore's rules.
Result<std::string> UserParam(const server::http::RequestContext& ctx);
// A click item: 1..kMaxItemBytes bytes of valid UTF-8 without control characters.
Status ValidateItem(std::string_view item);
// An activity event name: 1..kMaxActivityNameBytes, valid UTF-8, no control characters.
Status ValidateActivityName(std::string_view name);
// An activity payload: at most kMaxActivityPayloadBytes of valid UTF-8.
Status ValidateActivityPayload(std::string_view payload);
// A post's text: valid UTF-8 of 1..kMaxPostChars code points and at most kMaxPostBytes bytes,
// with something besides white space (IsBlank).
Status ValidatePostText(std::string_view text);
// A post id of the contract (base64url) as the Feed's id bytes.
Result<std::string> DecodePostId(std::string_view text);

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool IsValidUtf8(std::string_view text);
// The number of code points of `text`. REQUIRES: IsValidUtf8(text).
size_t CodePointCount(std::string_view text);
// Whether valid UTF-8 `text` holds nothing but white space: Unicode's White_Space characters and
// U+FEFF (the set of JavaScript's \s plus U+0085), so empty text is blank too.
bool IsBlank(std::string_view text);

}  // namespace basalt::app::api_v1

#endif  // BASALT_APP_API_V1_VALIDATION_H_
