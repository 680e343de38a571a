// libFuzzer target for HBase's protobuf filters (hbase_proto/filter_codec.h), what Thrift2's
// filterBytes carries. For any input:
//   - DecodeFilter never crashes, and a failure is InvalidArgument;
//   - a filter it returns encodes, and (within the input cap) the encoding decodes to a filter
//     that encodes to the very same bytes: one round trip reaches the fixed point (the first may
//     normalise, e.g. zero a fuzzy pattern under its wildcards, or write absent booleans).
// Any violation traps, so the fuzzer reports it as a crash.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hbase_proto/filter_codec.h"

namespace {

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  basalt::Result<basalt::FilterPtr> decoded = basalt::hbase_proto::DecodeFilter(bytes);
  if (!decoded.ok()) {
    Check(decoded.status().IsInvalidArgument());
    return 0;
  }
  Check(*decoded != nullptr);
  basalt::Result<std::string> encoded = basalt::hbase_proto::EncodeFilter(**decoded);
  Check(encoded.ok());
  if (encoded->size() > basalt::hbase_proto::kMaxFilterBytes) return 0;
  basalt::Result<basalt::FilterPtr> again = basalt::hbase_proto::DecodeFilter(*encoded);
  Check(again.ok() && *again != nullptr);
  basalt::Result<std::string> reencoded = basalt::hbase_proto::EncodeFilter(**again);
  Check(reencoded.ok() && *reencoded == *encoded);
  basalt::Result<basalt::FilterPtr> fixed = basalt::hbase_proto::DecodeFilter(*reencoded);
  Check(fixed.ok() && **fixed == **again);
  return 0;
}
