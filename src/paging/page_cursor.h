// The page cursor: a small versioned binary record, handed to callers as base64url text
// (docs/paging.md, "Cursor format"). The byte layout below is a stable format: cursors are
// held by clients across requests and across basalt upgrades, so never reorder or reuse fields;
// a new layout takes a new version byte.
//
//   offset  size  field
//   0       1     format version: 1
//   1       1     kind: 1 = rows (paging.h), 2 = columns of one row
//   2       1     flags: bit 0 = reversed scan; other bits must be zero
//   3       8     fingerprint of the walk's fixed parameters, big-endian (see Fingerprint)
//   11      8     rows the walk may still return, big-endian; 0 = unlimited
//   19      4     length N of the last key, big-endian
//   23      N     the last key returned (a row key, or a qualifier)
//   23+N    4     check: the low 32 bits of XXH3-64 of bytes [0, 23+N), big-endian
//
// The check catches truncated or mangled cursors; it is not a signature. A caller can build a
// cursor by hand, which is harmless: the pager re-applies the scan's own bounds to whatever key
// a cursor holds.

#ifndef BASALT_PAGING_PAGE_CURSOR_H_
#define BASALT_PAGING_PAGE_CURSOR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt::paging {

// Never renumber: stored in cursors that clients keep.
enum class CursorKind : uint8_t { kRows = 1, kColumns = 2 };

struct PageCursor {
  CursorKind kind = CursorKind::kRows;
  bool reversed = false;
  uint64_t fingerprint = 0;
  uint64_t remaining = 0;  // 0: unlimited
  std::string last_key;

  friend bool operator==(const PageCursor&, const PageCursor&) = default;
};

inline constexpr uint8_t kCursorVersion = 1;

// The text form (base64url, no padding).
std::string EncodeCursor(const PageCursor& cursor);

// Parses a cursor's text form. InvalidArgument, with a message that says what is wrong, for
// anything that is not a well-formed version-1 cursor (bad characters, truncation, a failed
// check, an unknown version, kind or flag).
Result<PageCursor> DecodeCursor(std::string_view text);

// InvalidArgument unless `cursor` was made by a walk of this kind, direction and fingerprint.
Status CheckCursorMatches(const PageCursor& cursor, CursorKind kind, bool reversed,
                          uint64_t fingerprint);

// Accumulates the parameters that a cursor must be replayed with into a 64-bit fingerprint.
// Each value is framed (a type tag, and a length for strings), so distinct sequences of values
// do not collide by concatenation.
class Fingerprint {
 public:
  Fingerprint& AddBytes(std::string_view bytes);
  Fingerprint& AddInt(int64_t value);
  Fingerprint& AddBool(bool value);
  uint64_t Finish() const;

 private:
  std::string buf_;
};

}  // namespace basalt::paging

#endif  // BASALT_PAGING_PAGE_CURSOR_H_
