// Tokens of the filter language, and the one place that knows its quoting rule.
//
// The language has no context-dependent tokens once words are delimited the way HBase delimits
// them: a word is a run of bytes other than whitespace (space, TAB), '(', ')', ',' and '\''.
// Filter names, integers, booleans and compare operators are all words; a word that is exactly
// AND, OR, SKIP or WHILE is a keyword. (HBase also requires a keyword to be delimited by a
// space or a parenthesis; words already are, and a keyword is never valid where a filter name
// or an argument is expected, so treating every such word as a keyword only changes which error
// a wrong string gets.)

#ifndef BASALT_FILTER_FILTER_LEXER_H_
#define BASALT_FILTER_FILTER_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt::filter {

struct Token {
  enum class Kind {
    kEnd,         // no more input
    kLeftParen,   // (
    kRightParen,  // )
    kComma,       // ,
    kString,      // '...': `text` holds the bytes between the quotes, '' turned into '
    kWord,        // `text` holds the raw bytes
    kAnd,
    kOr,
    kSkip,
    kWhile,
  };

  Kind kind = Kind::kEnd;
  size_t position = 0;  // 0-based byte offset of the token's first byte in the input
  std::string text;     // kString, kWord; the keyword itself for keywords
};

// Splits a filter string into tokens, skipping whitespace between them.
class Lexer {
 public:
  explicit Lexer(std::string_view input) : input_(input) {}

  // The next token, consumed. After kEnd, kEnd again. Fails (InvalidArgument) only on a quoted
  // string that is never closed.
  Result<Token> Next();

 private:
  std::string_view input_;
  size_t pos_ = 0;
};

// "filter syntax error at position P: <detail>".
Status SyntaxError(size_t position, std::string_view detail);

// How a message names a token: "end of filter", "a quoted string", "'('", "AND", "'word'".
std::string Describe(const Token& token);

// " (the keywords AND, OR, SKIP and WHILE are upper case)" when `word` is a keyword in the wrong
// case, else "".
std::string KeywordCaseHint(std::string_view word);

// Input bytes for a message: HBase's printable form (\xHH), cut to a readable length.
std::string Excerpt(std::string_view bytes);

// `bytes` as a quoted string of the language: '...' with each ' doubled. Any byte may appear.
void AppendQuoted(std::string_view bytes, std::string* out);

}  // namespace basalt::filter

#endif  // BASALT_FILTER_FILTER_LEXER_H_
