// A ByteComparator made ready to evaluate: the regular expression compiled once per read.

#ifndef BASALT_FILTER_COMPARATOR_H_
#define BASALT_FILTER_COMPARATOR_H_

#include <memory>
#include <string_view>

#include "basalt/filter.h"
#include "basalt/status.h"
#include "basalt/types.h"

namespace re2 {
class RE2;
}

namespace basalt::filter {

class CompiledComparator {
 public:
  // InvalidArgument for a regular expression RE2 cannot compile, or an operator the comparator
  // cannot answer (regexstring and substring take only kEqual and kNotEqual, as in HBase).
  static Result<CompiledComparator> Compile(const ByteComparator& comparator, CompareOp op);

  CompiledComparator(CompiledComparator&&) noexcept;
  CompiledComparator& operator=(CompiledComparator&&) noexcept;
  ~CompiledComparator();

  // Whether `stored op operand` holds: the filter keeps what passes. kNoOp never passes.
  bool Passes(std::string_view stored) const;

 private:
  CompiledComparator(const ByteComparator& comparator, CompareOp op);

  ByteComparator::Kind kind_;
  CompareOp op_;
  std::string operand_;  // lower-cased for kSubstring
  std::unique_ptr<re2::RE2> regex_;
};

}  // namespace basalt::filter

#endif  // BASALT_FILTER_COMPARATOR_H_
