// FilterToString: the inverse of ParseFilter (see filter_language.h for the contract).
//
// Lists are parenthesised only where the grammar needs it: any list inside an AND list (an AND
// chain would flatten into it, an OR chain would bind looser), an OR list inside an OR list, and
// a list under SKIP or WHILE. An AND list inside an OR list needs none. So the text is never
// nested deeper than the string it was parsed from.

#include <cstdint>
#include <string>

#include "basalt/filter_language.h"
#include "filter/filter_lexer.h"

namespace basalt {
namespace {

using filter::AppendQuoted;

// Where a filter appears, for the parenthesis rule.
enum class Context { kTop, kAndOperand, kOrOperand, kUnaryOperand };

// A one-element list prints as its element (the language has no one-element list).
const Filter* Unwrap(const Filter* f) {
  while (f != nullptr && f->type() == Filter::Type::kFilterList) {
    const auto& list = static_cast<const FilterList&>(*f);
    if (list.filters().size() != 1) break;
    f = list.filters()[0].get();
  }
  return f;
}

class Printer {
 public:
  std::string Finish() { return std::move(out_); }

  void Print(const Filter* f, Context context) {
    f = Unwrap(f);
    if (f == nullptr) {
      out_ += "<null>";
      return;
    }
    switch (f->type()) {
      case Filter::Type::kFilterList:
        PrintList(static_cast<const FilterList&>(*f), context);
        return;
      case Filter::Type::kSkip:
        out_ += "SKIP ";
        Print(static_cast<const SkipFilter&>(*f).filter().get(), Context::kUnaryOperand);
        return;
      case Filter::Type::kWhileMatch:
        out_ += "WHILE ";
        Print(static_cast<const WhileMatchFilter&>(*f).filter().get(), Context::kUnaryOperand);
        return;
      default:
        PrintTerm(*f);
        return;
    }
  }

 private:
  void PrintList(const FilterList& list, Context context) {
    if (list.filters().empty()) {
      out_ += "FilterList()";
      return;
    }
    const bool is_or = list.op() == FilterList::Operator::kMustPassOne;
    const bool parens = context == Context::kAndOperand || context == Context::kUnaryOperand ||
                        (context == Context::kOrOperand && is_or);
    if (parens) out_ += '(';
    const Context operand = is_or ? Context::kOrOperand : Context::kAndOperand;
    for (size_t i = 0; i < list.filters().size(); ++i) {
      if (i > 0) out_ += is_or ? " OR " : " AND ";
      Print(list.filters()[i].get(), operand);
    }
    if (parens) out_ += ')';
  }

  void PrintTerm(const Filter& f) {
    out_ += Filter::TypeName(f.type());
    out_ += '(';
    first_argument_ = true;
    switch (f.type()) {
      case Filter::Type::kPrefix:
        String(static_cast<const PrefixFilter&>(f).prefix());
        break;
      case Filter::Type::kPage:
        Integer(static_cast<const PageFilter&>(f).page_size());
        break;
      case Filter::Type::kColumnPrefix:
        String(static_cast<const ColumnPrefixFilter&>(f).prefix());
        break;
      case Filter::Type::kMultipleColumnPrefix:
        for (const auto& p : static_cast<const MultipleColumnPrefixFilter&>(f).prefixes()) {
          String(p);
        }
        break;
      case Filter::Type::kColumnCountGet:
        Integer(static_cast<const ColumnCountGetFilter&>(f).limit());
        break;
      case Filter::Type::kColumnPagination: {
        const auto& p = static_cast<const ColumnPaginationFilter&>(f);
        Integer(p.limit());
        Integer(p.offset());
        break;
      }
      case Filter::Type::kColumnRange: {
        const auto& r = static_cast<const ColumnRangeFilter&>(f);
        String(r.min());
        Bool(r.min_inclusive());
        String(r.max());
        Bool(r.max_inclusive());
        break;
      }
      case Filter::Type::kFirstKeyOnly:
        break;
      case Filter::Type::kKeyOnly:
        if (static_cast<const KeyOnlyFilter&>(f).length_as_value()) Bool(true);
        break;
      case Filter::Type::kInclusiveStop:
        String(static_cast<const InclusiveStopFilter&>(f).stop_row());
        break;
      case Filter::Type::kTimestamps:
        for (int64_t ts : static_cast<const TimestampsFilter&>(f).timestamps()) Integer(ts);
        break;
      case Filter::Type::kRow:
      case Filter::Type::kFamily:
      case Filter::Type::kQualifier:
      case Filter::Type::kValue: {
        const auto& c = static_cast<const CompareFilter&>(f);
        Op(c.op());
        Comparator(c.comparator());
        break;
      }
      case Filter::Type::kSingleColumnValue:
      case Filter::Type::kSingleColumnValueExclude: {
        const auto& s = static_cast<const SingleColumnValueFilter&>(f);
        String(s.family());
        String(s.qualifier());
        Op(s.op());
        Comparator(s.comparator());
        if (s.filter_if_missing() || !s.latest_version_only()) {
          Bool(s.filter_if_missing());
          Bool(s.latest_version_only());
        }
        break;
      }
      case Filter::Type::kDependentColumn: {
        const auto& d = static_cast<const DependentColumnFilter&>(f);
        String(d.family());
        String(d.qualifier());
        if (d.comparator().has_value()) {
          Bool(d.drop_dependent_column());
          Op(d.op());
          Comparator(*d.comparator());
        } else if (d.drop_dependent_column()) {
          Bool(true);
        }
        break;
      }
      case Filter::Type::kFuzzyRow:
        for (const auto& key : static_cast<const FuzzyRowFilter&>(f).keys()) {
          String(key.pattern);
          String(key.mask);
        }
        break;
      case Filter::Type::kSkip:
      case Filter::Type::kWhileMatch:
      case Filter::Type::kFilterList:
        break;  // printed by Print
    }
    out_ += ')';
  }

  void Separate() {
    if (!first_argument_) out_ += ", ";
    first_argument_ = false;
  }

  void String(const std::string& bytes) {
    Separate();
    AppendQuoted(bytes, &out_);
  }

  void Integer(int64_t v) {
    Separate();
    out_ += std::to_string(v);
  }

  void Bool(bool v) {
    Separate();
    out_ += v ? "true" : "false";
  }

  void Op(CompareOp op) {
    Separate();
    std::string_view symbol = CompareOpSymbol(op);
    out_ += symbol.empty() ? "NO_OP" : symbol;
  }

  void Comparator(const ByteComparator& c) {
    Separate();
    std::string text(ByteComparator::TypeName(c.kind()));
    text += ':';
    if (c.kind() == ByteComparator::Kind::kLong) {
      text += std::to_string(c.long_operand());
    } else {
      text += c.operand();
    }
    AppendQuoted(text, &out_);
  }

  std::string out_;
  bool first_argument_ = true;
};

}  // namespace

std::string FilterToString(const Filter& filter) {
  Printer printer;
  printer.Print(&filter, Context::kTop);
  return printer.Finish();
}

}  // namespace basalt
