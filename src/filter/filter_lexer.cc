#include "filter/filter_lexer.h"

#include <cctype>
#include <utility>

#include "util/bytes_format.h"

namespace basalt::filter {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t';
}

bool EndsWord(char c) {
  return IsSpace(c) || c == '(' || c == ')' || c == ',' || c == '\'';
}

Token::Kind WordKind(std::string_view word) {
  if (word == "AND") return Token::Kind::kAnd;
  if (word == "OR") return Token::Kind::kOr;
  if (word == "SKIP") return Token::Kind::kSkip;
  if (word == "WHILE") return Token::Kind::kWhile;
  return Token::Kind::kWord;
}

// Messages quote at most this many input bytes, so a huge argument cannot flood a log line.
constexpr size_t kMaxExcerpt = 40;

}  // namespace

Result<Token> Lexer::Next() {
  while (pos_ < input_.size() && IsSpace(input_[pos_])) ++pos_;
  Token token;
  token.position = pos_;
  if (pos_ == input_.size()) return token;

  const char c = input_[pos_];
  if (c == '(' || c == ')' || c == ',') {
    token.kind = c == '('   ? Token::Kind::kLeftParen
                 : c == ')' ? Token::Kind::kRightParen
                            : Token::Kind::kComma;
    ++pos_;
    return token;
  }
  if (c == '\'') {
    token.kind = Token::Kind::kString;
    for (size_t i = pos_ + 1; i < input_.size(); ++i) {
      if (input_[i] != '\'') {
        token.text.push_back(input_[i]);
      } else if (i + 1 < input_.size() && input_[i + 1] == '\'') {
        token.text.push_back('\'');
        ++i;
      } else {
        pos_ = i + 1;
        return token;
      }
    }
    return SyntaxError(token.position,
                       "quoted string is never closed (a quote inside a string is written '')");
  }
  size_t end = pos_;
  while (end < input_.size() && !EndsWord(input_[end])) ++end;
  token.text.assign(input_.substr(pos_, end - pos_));
  token.kind = WordKind(token.text);
  pos_ = end;
  return token;
}

Status SyntaxError(size_t position, std::string_view detail) {
  return Status::InvalidArgument("filter syntax error at position " + std::to_string(position) +
                                 ": " + std::string(detail));
}

std::string Describe(const Token& token) {
  switch (token.kind) {
    case Token::Kind::kEnd:
      return "end of filter";
    case Token::Kind::kLeftParen:
      return "'('";
    case Token::Kind::kRightParen:
      return "')'";
    case Token::Kind::kComma:
      return "','";
    case Token::Kind::kString:
      return "a quoted string";
    case Token::Kind::kWord:
      return "'" + Excerpt(token.text) + "'";
    case Token::Kind::kAnd:
    case Token::Kind::kOr:
    case Token::Kind::kSkip:
    case Token::Kind::kWhile:
      return token.text;
  }
  return "?";
}

std::string KeywordCaseHint(std::string_view word) {
  if (WordKind(word) != Token::Kind::kWord) return "";
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (WordKind(upper) == Token::Kind::kWord) return "";
  return " (the keywords AND, OR, SKIP and WHILE are upper case)";
}

std::string Excerpt(std::string_view bytes) {
  if (bytes.size() <= kMaxExcerpt) return util::ToStringBinary(bytes);
  return util::ToStringBinary(bytes.substr(0, kMaxExcerpt)) + "...";
}

void AppendQuoted(std::string_view bytes, std::string* out) {
  out->push_back('\'');
  for (char c : bytes) {
    if (c == '\'') out->push_back('\'');
    out->push_back(c);
  }
  out->push_back('\'');
}

}  // namespace basalt::filter
