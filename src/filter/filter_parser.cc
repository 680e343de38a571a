// The grammar of the filter language, by recursive descent:
//
//   filter  := or EOF
//   or      := and { OR and }           two or more: one FilterList(kMustPassOne)
//   and     := unary { AND unary }      two or more: one FilterList(kMustPassAll)
//   unary   := SKIP unary | WHILE unary | primary
//   primary := '(' or ')' | term
//   term    := Name '(' [ argument { ',' argument } ] ')'
//
// This gives HBase's precedence (parentheses, then SKIP = WHILE, then AND, then OR) and its
// flattening: an unparenthesised chain of one operator is one list, while a parenthesised list
// stays a child of the list around it, as in HBase's ParseFilter.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "basalt/filter_language.h"
#include "filter/filter_lexer.h"
#include "filter/filter_registry.h"

namespace basalt {
namespace {

using filter::SyntaxError;
using filter::Token;

// "found <token>", with a hint for a keyword written in lower case.
std::string Found(const Token& token) {
  std::string found = "found " + filter::Describe(token);
  if (token.kind == Token::Kind::kWord) found += filter::KeywordCaseHint(token.text);
  return found;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text) {}

  Result<FilterPtr> Parse() {
    BASALT_RETURN_IF_ERROR(Advance());
    BASALT_ASSIGN_OR_RETURN(FilterPtr result, ParseOr(0));
    if (token_.kind == Token::Kind::kRightParen) {
      return Status::InvalidArgument("mismatched parenthesis at position " +
                                     std::to_string(token_.position) + ": ')' has no matching '('");
    }
    if (token_.kind != Token::Kind::kEnd) {
      return SyntaxError(token_.position,
                         "expected AND, OR or the end of the filter, " + Found(token_));
    }
    return result;
  }

 private:
  Status Advance() {
    BASALT_ASSIGN_OR_RETURN(token_, lexer_.Next());
    return Status::OK();
  }

  // `depth` counts the parentheses and SKIP / WHILE around the current position.
  Result<FilterPtr> ParseOr(int depth) {
    return ParseChain(depth, Token::Kind::kOr, FilterList::Operator::kMustPassOne);
  }

  Result<FilterPtr> ParseAnd(int depth) {
    return ParseChain(depth, Token::Kind::kAnd, FilterList::Operator::kMustPassAll);
  }

  Result<FilterPtr> ParseOperand(int depth, Token::Kind keyword) {
    return keyword == Token::Kind::kOr ? ParseAnd(depth) : ParseUnary(depth);
  }

  // operand { keyword operand }, flattened into one list.
  Result<FilterPtr> ParseChain(int depth, Token::Kind keyword, FilterList::Operator op) {
    BASALT_ASSIGN_OR_RETURN(FilterPtr first, ParseOperand(depth, keyword));
    if (token_.kind != keyword) return first;
    std::vector<FilterPtr> operands{std::move(first)};
    while (token_.kind == keyword) {
      BASALT_RETURN_IF_ERROR(Advance());
      BASALT_ASSIGN_OR_RETURN(FilterPtr next, ParseOperand(depth, keyword));
      operands.push_back(std::move(next));
    }
    return FilterPtr(std::make_shared<FilterList>(op, std::move(operands)));
  }

  Result<FilterPtr> ParseUnary(int depth) {
    if (token_.kind != Token::Kind::kSkip && token_.kind != Token::Kind::kWhile) {
      return ParsePrimary(depth);
    }
    const bool skip = token_.kind == Token::Kind::kSkip;
    BASALT_RETURN_IF_ERROR(Nest(depth));
    BASALT_RETURN_IF_ERROR(Advance());
    BASALT_ASSIGN_OR_RETURN(FilterPtr operand, ParseUnary(depth + 1));
    if (skip) return FilterPtr(std::make_shared<SkipFilter>(std::move(operand)));
    return FilterPtr(std::make_shared<WhileMatchFilter>(std::move(operand)));
  }

  Result<FilterPtr> ParsePrimary(int depth) {
    if (token_.kind == Token::Kind::kLeftParen) {
      const size_t open = token_.position;
      BASALT_RETURN_IF_ERROR(Nest(depth));
      BASALT_RETURN_IF_ERROR(Advance());
      BASALT_ASSIGN_OR_RETURN(FilterPtr inner, ParseOr(depth + 1));
      if (token_.kind == Token::Kind::kEnd) {
        return Status::InvalidArgument("mismatched parenthesis at position " +
                                       std::to_string(open) + ": '(' is never closed");
      }
      if (token_.kind != Token::Kind::kRightParen) {
        return SyntaxError(token_.position, "expected AND, OR or ')', " + Found(token_));
      }
      BASALT_RETURN_IF_ERROR(Advance());
      return inner;
    }
    if (token_.kind == Token::Kind::kWord) return ParseTerm();
    return SyntaxError(token_.position, "expected a filter, SKIP, WHILE or '(', " + Found(token_));
  }

  // Name '(' [argument {',' argument}] ')'; the registry checks the arguments.
  Result<FilterPtr> ParseTerm() {
    const Token name = std::move(token_);
    BASALT_RETURN_IF_ERROR(filter::CheckFilterName(name));
    BASALT_RETURN_IF_ERROR(Advance());
    if (token_.kind != Token::Kind::kLeftParen) {
      return SyntaxError(token_.position, "expected '(' after " + name.text + ", " + Found(token_));
    }
    BASALT_RETURN_IF_ERROR(Advance());
    std::vector<Token> args;
    if (token_.kind != Token::Kind::kRightParen) {
      while (true) {
        if (!IsArgument(token_)) {
          return SyntaxError(token_.position, "expected argument " +
                                                  std::to_string(args.size() + 1) + " of " +
                                                  name.text + ", " + Found(token_));
        }
        args.push_back(std::move(token_));
        BASALT_RETURN_IF_ERROR(Advance());
        if (token_.kind == Token::Kind::kRightParen) break;
        if (token_.kind != Token::Kind::kComma) {
          return SyntaxError(token_.position, "expected ',' or ')' after argument " +
                                                  std::to_string(args.size()) + " of " + name.text +
                                                  ", " + Found(token_));
        }
        BASALT_RETURN_IF_ERROR(Advance());
      }
    }
    BASALT_RETURN_IF_ERROR(Advance());  // past ')'
    return filter::BuildFilter(name, args);
  }

  // Keywords are plain words inside an argument list (where they are invalid anyway, so the
  // registry reports them with the argument's expected type).
  static bool IsArgument(Token& token) {
    switch (token.kind) {
      case Token::Kind::kString:
      case Token::Kind::kWord:
        return true;
      case Token::Kind::kAnd:
      case Token::Kind::kOr:
      case Token::Kind::kSkip:
      case Token::Kind::kWhile:
        token.kind = Token::Kind::kWord;
        return true;
      default:
        return false;
    }
  }

  Status Nest(int depth) const {
    if (depth < kMaxFilterNesting) return Status::OK();
    return Status::InvalidArgument(
        "filter nested too deeply at position " + std::to_string(token_.position) + ": at most " +
        std::to_string(kMaxFilterNesting) + " levels of parentheses, SKIP and WHILE");
  }

  filter::Lexer lexer_;
  Token token_;  // the current token, not yet consumed
};

}  // namespace

Result<FilterPtr> ParseFilter(std::string_view text) {
  if (text.size() > kMaxFilterStringLength) {
    return Status::InvalidArgument("filter string too long: " + std::to_string(text.size()) +
                                   " bytes, at most " + std::to_string(kMaxFilterStringLength));
  }
  return Parser(text).Parse();
}

}  // namespace basalt
