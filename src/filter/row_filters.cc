// Filters that decide on the row key alone: PrefixFilter, PageFilter, InclusiveStopFilter,
// RowFilter and FuzzyRowFilter.

#include <algorithm>
#include <optional>

#include "filter/comparator.h"
#include "filter/states.h"
#include "util/coding.h"

namespace basalt::filter {
namespace {

// Seeks to the prefix and ends the scan once past it.
class PrefixState final : public FilterState {
 public:
  PrefixState(std::string prefix, bool reversed)
      : prefix_(std::move(prefix)),
        successor_(util::PrefixSuccessor(prefix_)),
        reversed_(reversed) {}

  bool FilterAllRemaining() override { return passed_; }

  RowVerdict FilterRowKey(std::string_view row, RowHint* hint) override {
    if (row.starts_with(prefix_)) return RowVerdict::kInclude;
    const bool before = row < std::string_view(prefix_);  // and does not start with it
    if (before != reversed_) {
      // Not there yet in the scan's direction.
      if (!reversed_) {
        *hint = {prefix_, true};
      } else {
        *hint = {successor_, false};  // the last row below every row with the prefix
      }
      return RowVerdict::kSeek;
    }
    passed_ = true;
    return RowVerdict::kSkip;
  }

 private:
  std::string prefix_;
  std::string successor_;
  bool reversed_;
  bool passed_ = false;
};

// HBase counts accepted rows in filterRow, so only rows that reach the end count.
class PageState final : public FilterState {
 public:
  explicit PageState(int64_t page_size) : page_size_(page_size) {}

  bool FilterAllRemaining() override { return accepted_ >= page_size_; }
  RowVerdict FilterRowKey(std::string_view, RowHint*) override {
    return FilterAllRemaining() ? RowVerdict::kSkip : RowVerdict::kInclude;
  }
  bool HasFilterRow() const override { return true; }
  bool FilterRow() override { return ++accepted_ > page_size_; }

 private:
  int64_t page_size_;
  int64_t accepted_ = 0;
};

class InclusiveStopState final : public FilterState {
 public:
  InclusiveStopState(std::string stop_row, bool reversed)
      : stop_row_(std::move(stop_row)), reversed_(reversed) {}

  bool FilterAllRemaining() override { return done_; }
  RowVerdict FilterRowKey(std::string_view row, RowHint*) override {
    int cmp = row.compare(stop_row_);
    done_ = reversed_ ? cmp < 0 : cmp > 0;
    return done_ ? RowVerdict::kSkip : RowVerdict::kInclude;
  }

 private:
  std::string stop_row_;
  bool reversed_;
  bool done_ = false;
};

class RowCompareState final : public FilterState {
 public:
  explicit RowCompareState(CompiledComparator c) : comparator_(std::move(c)) {}

  RowVerdict FilterRowKey(std::string_view row, RowHint*) override {
    return comparator_.Passes(row) ? RowVerdict::kInclude : RowVerdict::kSkip;
  }

 private:
  CompiledComparator comparator_;
};

// A fuzzy key: `fixed[i]` says whether row byte i must equal pattern byte i.
struct FuzzyRule {
  std::string pattern;
  std::vector<bool> fixed;

  bool Matches(std::string_view row) const {
    if (row.size() < pattern.size()) return false;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (fixed[i] && row[i] != pattern[i]) return false;
    }
    return true;
  }

  // Fills positions from `from` with the smallest (or largest) bytes the rule allows.
  void Fill(std::string* t, size_t from, bool largest) const {
    for (size_t i = from; i < pattern.size(); ++i) {
      (*t)[i] = fixed[i] ? pattern[i] : static_cast<char>(largest ? 0xff : 0x00);
    }
  }

  // The smallest row > `row` that matches. REQUIRES: !Matches(row). Every row that starts
  // with a matching pattern-length string matches, so the answer is such a string.
  std::optional<std::string> NextAfter(std::string_view row) const {
    std::string t(pattern.size(), '\0');
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (i >= row.size()) {  // row is a proper prefix of t: t > row
        Fill(&t, i, false);
        return t;
      }
      auto r = static_cast<uint8_t>(row[i]);
      if (!fixed[i]) {
        t[i] = row[i];
        continue;
      }
      auto p = static_cast<uint8_t>(pattern[i]);
      if (p > r) {
        Fill(&t, i, false);
        return t;
      }
      if (p < r) return Carry(row, &t, i, /*up=*/true);
      t[i] = row[i];
    }
    return std::nullopt;  // t equals row's first bytes: row matches
  }

  // The start of the matching rows just below `row`, as an exclusive upper bound: every row
  // < the returned key that starts with the largest matching string < row. REQUIRES:
  // !Matches(row).
  std::optional<std::string> PrevBefore(std::string_view row) const {
    std::string t(pattern.size(), '\0');
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (i >= row.size()) return Carry(row, &t, i, /*up=*/false);  // t would exceed row
      auto r = static_cast<uint8_t>(row[i]);
      if (!fixed[i]) {
        t[i] = row[i];
        continue;
      }
      auto p = static_cast<uint8_t>(pattern[i]);
      if (p < r) {
        Fill(&t, i, true);
        return util::PrefixSuccessor(t);
      }
      if (p > r) return Carry(row, &t, i, /*up=*/false);
      t[i] = row[i];
    }
    return std::nullopt;
  }

 private:
  // t[0, i) equals row[0, i) but no byte at i works: change the last free byte before i by
  // one (up or down) and fill the rest with the extreme the direction wants.
  std::optional<std::string> Carry(std::string_view row, std::string* t, size_t i, bool up) const {
    for (size_t j = i; j-- > 0;) {
      if (fixed[j]) continue;
      auto r = static_cast<uint8_t>(row[j]);
      if (up ? r == 0xff : r == 0x00) continue;
      (*t)[j] = static_cast<char>(up ? r + 1 : r - 1);
      Fill(t, j + 1, !up);
      if (up) return *t;
      return util::PrefixSuccessor(*t);
    }
    return std::nullopt;
  }
};

class FuzzyRowState final : public FilterState {
 public:
  FuzzyRowState(std::vector<FuzzyRule> rules, bool reversed)
      : rules_(std::move(rules)), reversed_(reversed) {}

  bool FilterAllRemaining() override { return done_; }

  RowVerdict FilterRowKey(std::string_view row, RowHint* hint) override {
    std::optional<std::string> best;
    for (const FuzzyRule& rule : rules_) {
      if (rule.Matches(row)) return RowVerdict::kInclude;
      std::optional<std::string> next = reversed_ ? rule.PrevBefore(row) : rule.NextAfter(row);
      if (!next) continue;
      // An empty exclusive bound (all 0xFF successor) means "anything below": unbounded.
      if (reversed_ && next->empty()) next = std::string(row);
      if (!best || (reversed_ ? *next > *best : *next < *best)) best = std::move(next);
    }
    if (!best) {
      done_ = true;
      return RowVerdict::kSkip;
    }
    *hint = {std::move(*best), !reversed_};
    return RowVerdict::kSeek;
  }

 private:
  std::vector<FuzzyRule> rules_;
  bool reversed_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<FilterState> NewPrefixState(const PrefixFilter& f, bool reversed) {
  return std::make_unique<PrefixState>(f.prefix(), reversed);
}

std::unique_ptr<FilterState> NewPageState(const PageFilter& f) {
  return std::make_unique<PageState>(f.page_size());
}

std::unique_ptr<FilterState> NewInclusiveStopState(const InclusiveStopFilter& f, bool reversed) {
  return std::make_unique<InclusiveStopState>(f.stop_row(), reversed);
}

Result<std::unique_ptr<FilterState>> NewRowCompareState(const RowFilter& f) {
  BASALT_ASSIGN_OR_RETURN(CompiledComparator c,
                          CompiledComparator::Compile(f.comparator(), f.op()));
  return std::unique_ptr<FilterState>(std::make_unique<RowCompareState>(std::move(c)));
}

Result<std::unique_ptr<FilterState>> NewFuzzyRowState(const FuzzyRowFilter& f, bool reversed) {
  std::vector<FuzzyRule> rules;
  for (size_t k = 0; k < f.keys().size(); ++k) {
    const auto& key = f.keys()[k];
    if (key.pattern.size() != key.mask.size()) {
      return Status::InvalidArgument("FuzzyRowFilter key " + std::to_string(k + 1) +
                                     ": the mask must be as long as the pattern");
    }
    FuzzyRule rule{key.pattern, {}};
    for (char m : key.mask) {
      if (m != 0 && m != 1) {
        return Status::InvalidArgument("FuzzyRowFilter key " + std::to_string(k + 1) +
                                       ": mask bytes must be 0 (fixed) or 1 (any)");
      }
      rule.fixed.push_back(m == 0);
    }
    rules.push_back(std::move(rule));
  }
  if (rules.empty()) return Status::InvalidArgument("FuzzyRowFilter needs at least one key");
  return std::unique_ptr<FilterState>(std::make_unique<FuzzyRowState>(std::move(rules), reversed));
}

}  // namespace basalt::filter
