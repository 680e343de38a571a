#include "paging/page_cursor.h"

#include <xxhash.h>

#include "basalt/base64.h"
#include "util/coding.h"

namespace basalt::paging {
namespace {

constexpr size_t kHeaderBytes = 23;  // version .. key length
constexpr size_t kCheckBytes = 4;
constexpr uint8_t kReversedFlag = 0x01;

uint32_t Check(std::string_view bytes) {
  return static_cast<uint32_t>(XXH3_64bits(bytes.data(), bytes.size()));
}

Status Invalid(std::string_view what) {
  return Status::InvalidArgument("page cursor: " + std::string(what));
}

}  // namespace

std::string EncodeCursor(const PageCursor& cursor) {
  std::string bytes;
  bytes.reserve(kHeaderBytes + cursor.last_key.size() + kCheckBytes);
  bytes += static_cast<char>(kCursorVersion);
  bytes += static_cast<char>(cursor.kind);
  bytes += static_cast<char>(cursor.reversed ? kReversedFlag : 0);
  util::PutFixed64BE(&bytes, cursor.fingerprint);
  util::PutFixed64BE(&bytes, cursor.remaining);
  util::PutFixed32BE(&bytes, static_cast<uint32_t>(cursor.last_key.size()));
  bytes += cursor.last_key;
  util::PutFixed32BE(&bytes, Check(bytes));
  return Base64UrlEncode(bytes);
}

Result<PageCursor> DecodeCursor(std::string_view text) {
  std::optional<std::string> decoded = Base64UrlDecode(text);
  if (!decoded) return Invalid("not base64url text (was it copied whole?)");
  const std::string& bytes = *decoded;
  if (bytes.empty()) return Invalid("empty");
  // The version comes first so that a cursor from a newer basalt gets a message saying so.
  uint8_t version = static_cast<uint8_t>(bytes[0]);
  if (version != kCursorVersion) {
    return Invalid("format version " + std::to_string(version) + " is not supported (expected " +
                   std::to_string(kCursorVersion) + ")");
  }
  if (bytes.size() < kHeaderBytes + kCheckBytes) return Invalid("truncated");
  uint32_t key_size = util::DecodeFixed32BE(bytes.data() + 19);
  if (bytes.size() - kHeaderBytes - kCheckBytes != key_size) return Invalid("truncated or padded");
  std::string_view body(bytes.data(), bytes.size() - kCheckBytes);
  if (util::DecodeFixed32BE(bytes.data() + body.size()) != Check(body)) {
    return Invalid("check failed (the cursor was altered or cut)");
  }
  PageCursor c;
  uint8_t kind = static_cast<uint8_t>(bytes[1]);
  if (kind != static_cast<uint8_t>(CursorKind::kRows) &&
      kind != static_cast<uint8_t>(CursorKind::kColumns)) {
    return Invalid("unknown kind " + std::to_string(kind));
  }
  c.kind = static_cast<CursorKind>(kind);
  uint8_t flags = static_cast<uint8_t>(bytes[2]);
  if ((flags & ~kReversedFlag) != 0) return Invalid("unknown flags");
  c.reversed = (flags & kReversedFlag) != 0;
  c.fingerprint = util::DecodeFixed64BE(bytes.data() + 3);
  c.remaining = util::DecodeFixed64BE(bytes.data() + 11);
  c.last_key.assign(bytes.data() + kHeaderBytes, key_size);
  return c;
}

Status CheckCursorMatches(const PageCursor& cursor, CursorKind kind, bool reversed,
                          uint64_t fingerprint) {
  if (cursor.kind != kind) {
    return Invalid(cursor.kind == CursorKind::kRows
                       ? "this is a row cursor; column paging needs a column cursor"
                       : "this is a column cursor; row paging needs a row cursor");
  }
  if (cursor.reversed != reversed) {
    return Invalid(cursor.reversed ? "made by a reversed scan, replayed on a forward scan"
                                   : "made by a forward scan, replayed on a reversed scan");
  }
  if (cursor.fingerprint != fingerprint) {
    return Invalid(kind == CursorKind::kRows
                       ? "made by a different scan (table, bounds, prefix or limit differ); pass "
                         "the same scan with each page"
                       : "made for a different row (table, row, family or columns differ); pass "
                         "the same Get with each page");
  }
  return Status::OK();
}

Fingerprint& Fingerprint::AddBytes(std::string_view bytes) {
  buf_ += 's';
  util::PutFixed32BE(&buf_, static_cast<uint32_t>(bytes.size()));
  buf_ += bytes;
  return *this;
}

Fingerprint& Fingerprint::AddInt(int64_t value) {
  buf_ += 'i';
  util::PutFixed64BE(&buf_, static_cast<uint64_t>(value));
  return *this;
}

Fingerprint& Fingerprint::AddBool(bool value) {
  buf_ += value ? 'T' : 'F';
  return *this;
}

uint64_t Fingerprint::Finish() const {
  return XXH3_64bits(buf_.data(), buf_.size());
}

}  // namespace basalt::paging
