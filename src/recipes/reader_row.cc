#include "recipes/reader_row.h"

#include "basalt/keys.h"

namespace basalt::recipes {
namespace {

namespace fl = feed_layout;

}  // namespace

std::string LongBytes(int64_t v) {
  return KeyBuilder().AddUint64(static_cast<uint64_t>(v)).Build();
}

int64_t LongFromBytes(std::string_view b) {
  uint64_t v = 0;
  KeyParser(b).ReadUint64(&v).PermitUncheckedError();  // eight bytes are there
  return static_cast<int64_t>(v);
}

ReaderState ParseReader(const RowResult& row) {
  ReaderState st;
  if (auto r = row.Value(fl::kInboxFamily, fl::kLastRead); r && r->size() == 8) {
    st.last_read = LongFromBytes(*r);
  }
  if (auto w = row.Value(fl::kInboxFamily, fl::kBound); w && !w->empty()) st.bound = *w;
  if (auto e = row.Value(fl::kInboxFamily, fl::kEpoch)) st.epoch = *e;
  if (auto s = row.Value(fl::kInboxFamily, fl::kStale)) st.stale = *s;
  st.unfollowed = row.Value(fl::kInboxFamily, fl::kUnfollowed).has_value();
  return st;
}

basalt::Get ReaderGet(std::string_view user) {
  return basalt::Get(fl::ReaderRow(user)).AddFamily(std::string(fl::kInboxFamily));
}

}  // namespace basalt::recipes
