#include "shell/parser.h"

#include <cctype>
#include <optional>

#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

enum class TokenKind {
  kString,
  kInteger,
  kWord,       // identifiers, also dotted ones such as org.apache.Foo
  kComma,      // ,
  kArrow,      // =>
  kOpenBrace,  // {
  kCloseBrace,
  kOpenBracket,  // [
  kCloseBracket,
  kOpenParen,  // (
  kCloseParen,
  kEnd,  // ; or a newline that ends a command
  kEof,
};

struct Token {
  TokenKind kind;
  std::string text;  // kString: decoded bytes; kWord: the word; else the source text
  int64_t integer = 0;
  size_t offset = 0;
};

struct SyntaxError {
  size_t offset;
  std::string message;
};

bool IsWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Splits the text into tokens. A newline is a command end only at bracket depth 0 and not
// after ',' or '=>' (those continue the command), as in Ruby.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // All tokens, ending with kEof; or the first error.
  std::optional<SyntaxError> Run(std::vector<Token>* out) {
    while (true) {
      SkipBlanksAndComments();
      if (pos_ >= text_.size()) break;
      const size_t start = pos_;
      const char c = text_[pos_];
      if (c == '\n' || c == ';') {
        ++pos_;
        if (c == ';' || (depth_ == 0 && !Continues(*out))) Push(out, TokenKind::kEnd, start, ";");
        continue;
      }
      if (c == '\'' || c == '"') {
        std::string bytes;
        if (auto err = ReadString(&bytes)) return err;
        Push(out, TokenKind::kString, start, std::move(bytes));
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
          ((c == '-' || c == '+') && pos_ + 1 < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) != 0)) {
        Token t{TokenKind::kInteger, "", 0, start};
        if (auto err = ReadInteger(&t.integer)) return err;
        t.text = std::string(text_.substr(start, pos_ - start));
        out->push_back(std::move(t));
        continue;
      }
      if (IsWordStart(c)) {
        while (pos_ < text_.size() &&
               (IsWordChar(text_[pos_]) ||
                (text_[pos_] == '.' && pos_ + 1 < text_.size() && IsWordStart(text_[pos_ + 1])))) {
          ++pos_;
        }
        // Ruby method names may end in ? or ! (is_enabled?).
        if (pos_ < text_.size() && (text_[pos_] == '?' || text_[pos_] == '!')) ++pos_;
        Push(out, TokenKind::kWord, start, std::string(text_.substr(start, pos_ - start)));
        continue;
      }
      if (c == '=' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
        pos_ += 2;
        Push(out, TokenKind::kArrow, start, "=>");
        continue;
      }
      TokenKind kind;
      switch (c) {
        case ',':
          kind = TokenKind::kComma;
          break;
        case '{':
          kind = TokenKind::kOpenBrace;
          break;
        case '}':
          kind = TokenKind::kCloseBrace;
          break;
        case '[':
          kind = TokenKind::kOpenBracket;
          break;
        case ']':
          kind = TokenKind::kCloseBracket;
          break;
        case '(':
          kind = TokenKind::kOpenParen;
          break;
        case ')':
          kind = TokenKind::kCloseParen;
          break;
        default:
          return SyntaxError{
              start, "unexpected character '" + util::ToStringBinary(text_.substr(start, 1)) + "'"};
      }
      if (kind == TokenKind::kOpenBrace || kind == TokenKind::kOpenBracket ||
          kind == TokenKind::kOpenParen) {
        ++depth_;
      } else if (kind == TokenKind::kCloseBrace || kind == TokenKind::kCloseBracket ||
                 kind == TokenKind::kCloseParen) {
        if (depth_ > 0) --depth_;
      }
      ++pos_;
      Push(out, kind, start, std::string(1, c));
    }
    Push(out, TokenKind::kEof, text_.size(), "");
    return std::nullopt;
  }

  int depth() const { return depth_; }

 private:
  static bool Continues(const std::vector<Token>& tokens) {
    return !tokens.empty() &&
           (tokens.back().kind == TokenKind::kComma || tokens.back().kind == TokenKind::kArrow);
  }

  static void Push(std::vector<Token>* out, TokenKind kind, size_t offset, std::string text) {
    out->push_back(Token{kind, std::move(text), 0, offset});
  }

  void SkipBlanksAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  std::optional<SyntaxError> ReadInteger(int64_t* out) {
    const size_t start = pos_;
    bool negative = false;
    if (text_[pos_] == '-' || text_[pos_] == '+') negative = text_[pos_++] == '-';
    uint64_t magnitude = 0;
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    bool last_underscore = false;
    while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0 ||
                                   (text_[pos_] == '_' && !last_underscore))) {
      last_underscore = text_[pos_] == '_';
      if (!last_underscore) {
        uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
        if (magnitude > (limit - digit) / 10) {
          return SyntaxError{start, "integer out of range (64-bit signed)"};
        }
        magnitude = magnitude * 10 + digit;
      }
      ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '.' && pos_ + 1 < text_.size() &&
        std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) != 0) {
      return SyntaxError{start, "only integers are supported, not decimal numbers"};
    }
    if (pos_ < text_.size() && IsWordChar(text_[pos_])) {
      return SyntaxError{start, "malformed number"};
    }
    *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return std::nullopt;
  }

  std::optional<SyntaxError> ReadString(std::string* out) {
    const size_t start = pos_;
    const char quote = text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      char c = text_[pos_++];
      if (c == quote) return std::nullopt;
      if (c != '\\' || pos_ >= text_.size() || text_[pos_] == '\n') {
        out->push_back(c);
        continue;
      }
      char e = text_[pos_++];
      if (quote == '\'') {
        // Ruby: in single quotes only \\ and \' are escapes.
        if (e != '\\' && e != '\'') out->push_back('\\');
        out->push_back(e);
        continue;
      }
      if (auto err = ReadDoubleQuotedEscape(e, out)) return err;
    }
    return SyntaxError{start, std::string("unterminated string: a ") + quote +
                                  " opened here is not closed on this line"};
  }

  // After a backslash in double quotes; `e` is the character after it.
  std::optional<SyntaxError> ReadDoubleQuotedEscape(char e, std::string* out) {
    switch (e) {
      case 'n':
        out->push_back('\n');
        return std::nullopt;
      case 't':
        out->push_back('\t');
        return std::nullopt;
      case 'r':
        out->push_back('\r');
        return std::nullopt;
      case 'e':
        out->push_back('\x1b');
        return std::nullopt;
      case 's':
        out->push_back(' ');
        return std::nullopt;
      case 'a':
        out->push_back('\a');
        return std::nullopt;
      case 'b':
        out->push_back('\b');
        return std::nullopt;
      case 'f':
        out->push_back('\f');
        return std::nullopt;
      case 'v':
        out->push_back('\v');
        return std::nullopt;
      case 'x': {
        int value = 0, digits = 0;
        while (digits < 2 && pos_ < text_.size() && HexDigit(text_[pos_]) >= 0) {
          value = value * 16 + HexDigit(text_[pos_++]);
          ++digits;
        }
        if (digits == 0) return SyntaxError{pos_ - 2, "invalid hex escape: \\x needs a hex digit"};
        out->push_back(static_cast<char>(value));
        return std::nullopt;
      }
      case 'u': {
        uint32_t cp = 0;
        for (int i = 0; i < 4; ++i) {
          if (pos_ >= text_.size() || HexDigit(text_[pos_]) < 0) {
            return SyntaxError{pos_, "invalid Unicode escape: \\u needs four hex digits"};
          }
          cp = cp * 16 + static_cast<uint32_t>(HexDigit(text_[pos_++]));
        }
        AppendUtf8(cp, out);
        return std::nullopt;
      }
      default:
        break;
    }
    if (e >= '0' && e <= '7') {
      int value = e - '0';
      for (int i = 0; i < 2 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7';
           ++i) {
        value = value * 8 + (text_[pos_++] - '0');
      }
      out->push_back(static_cast<char>(value & 0xFF));
      return std::nullopt;
    }
    out->push_back(e);  // \\, \", \' and any other character: itself
    return std::nullopt;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

std::string Describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::kEof:
      return "end of input";
    case TokenKind::kEnd:
      return "end of command";
    case TokenKind::kString:
      return "string '" + util::ToStringBinary(t.text) + "'";
    default:
      return "'" + t.text + "'";
  }
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  std::optional<SyntaxError> Run(std::vector<Command>* out) {
    while (Peek().kind != TokenKind::kEof) {
      if (Peek().kind == TokenKind::kEnd) {
        ++pos_;
        continue;
      }
      Command command;
      if (auto err = ParseCommand(&command)) return err;
      out->push_back(std::move(command));
      if (Peek().kind != TokenKind::kEnd && Peek().kind != TokenKind::kEof) {
        return Expected("',' or the end of the command");
      }
    }
    return std::nullopt;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }

  SyntaxError Expected(std::string_view what) const {
    return SyntaxError{Peek().offset,
                       "expected " + std::string(what) + ", found " + Describe(Peek())};
  }

  std::optional<SyntaxError> ParseCommand(Command* command) {
    const Token& verb = Peek();
    if (verb.kind != TokenKind::kWord || verb.text.find('.') != std::string::npos) {
      return Expected("a command name");
    }
    command->verb = verb.text;
    command->position = verb.offset;
    ++pos_;
    bool parenthesised = false;
    if (Peek().kind == TokenKind::kOpenParen) {
      parenthesised = true;
      ++pos_;
      if (Peek().kind == TokenKind::kCloseParen) {
        ++pos_;
        return std::nullopt;
      }
    } else if (Peek().kind == TokenKind::kEnd || Peek().kind == TokenKind::kEof) {
      return std::nullopt;
    }
    if (auto err = ParseArguments(&command->args)) return err;
    if (parenthesised) {
      if (Peek().kind != TokenKind::kCloseParen) return Expected("',' or ')'");
      ++pos_;
    }
    return std::nullopt;
  }

  // a, b, K => v, K2 => v2: trailing key => value pairs become one hash, as in Ruby.
  std::optional<SyntaxError> ParseArguments(std::vector<Value>* args) {
    Value* implicit_hash = nullptr;
    while (true) {
      Value v;
      if (auto err = ParseValue(&v)) return err;
      if (Peek().kind == TokenKind::kArrow) {
        ++pos_;
        Value value;
        if (auto err = ParseValue(&value)) return err;
        if (implicit_hash == nullptr) {
          Value hash;
          hash.kind = Value::Kind::kHash;
          hash.position = v.position;
          args->push_back(std::move(hash));
          implicit_hash = &args->back();
        }
        implicit_hash->entries.push_back({std::move(v), std::move(value)});
      } else {
        if (implicit_hash != nullptr) {
          return SyntaxError{v.position, "a plain argument cannot follow key => value pairs"};
        }
        args->push_back(std::move(v));
      }
      if (Peek().kind != TokenKind::kComma) return std::nullopt;
      ++pos_;
    }
  }

  std::optional<SyntaxError> ParseValue(Value* v) {
    const Token& t = Peek();
    v->position = t.offset;
    switch (t.kind) {
      case TokenKind::kString:
        v->kind = Value::Kind::kString;
        v->text = Next().text;
        return std::nullopt;
      case TokenKind::kInteger:
        v->kind = Value::Kind::kInteger;
        v->integer = Next().integer;
        return std::nullopt;
      case TokenKind::kWord:
        return ParseWord(v);
      case TokenKind::kOpenBracket:
        return ParseArray(v);
      case TokenKind::kOpenBrace:
        return ParseHash(v);
      default:
        return Expected("a value");
    }
  }

  std::optional<SyntaxError> ParseWord(Value* v) {
    const Token& t = Peek();
    if (t.text.find('.') != std::string::npos) {
      return SyntaxError{t.offset,
                         "Java and Ruby objects are not supported; write a filter in the filter "
                         "language, e.g. FILTER => \"ColumnPaginationFilter(1, 0)\""};
    }
    if (t.text == "true" || t.text == "false") {
      v->kind = Value::Kind::kBoolean;
      v->boolean = t.text == "true";
    } else if (t.text == "nil") {
      v->kind = Value::Kind::kNil;
    } else if (std::isupper(static_cast<unsigned char>(t.text[0])) != 0) {
      v->kind = Value::Kind::kConstant;
      v->text = t.text;
    } else {
      return SyntaxError{t.offset, "unknown name '" + t.text + "' (quote strings: '" + t.text +
                                       "'; variables are not supported)"};
    }
    ++pos_;
    return std::nullopt;
  }

  std::optional<SyntaxError> ParseArray(Value* v) {
    v->kind = Value::Kind::kArray;
    ++pos_;  // [
    while (Peek().kind != TokenKind::kCloseBracket) {
      Value item;
      if (auto err = ParseValue(&item)) return err;
      v->items.push_back(std::move(item));
      if (Peek().kind == TokenKind::kComma) {
        ++pos_;
      } else if (Peek().kind != TokenKind::kCloseBracket) {
        return Expected("',' or ']'");
      }
    }
    ++pos_;  // ]
    return std::nullopt;
  }

  std::optional<SyntaxError> ParseHash(Value* v) {
    v->kind = Value::Kind::kHash;
    ++pos_;  // {
    while (Peek().kind != TokenKind::kCloseBrace) {
      HashEntry entry;
      if (auto err = ParseValue(&entry.key)) return err;
      if (Peek().kind != TokenKind::kArrow) return Expected("'=>'");
      ++pos_;
      if (auto err = ParseValue(&entry.value)) return err;
      v->entries.push_back(std::move(entry));
      if (Peek().kind == TokenKind::kComma) {
        ++pos_;
      } else if (Peek().kind != TokenKind::kCloseBrace) {
        return Expected("',' or '}'");
      }
    }
    ++pos_;  // }
    return std::nullopt;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

// 1-based column of `offset` on its line.
size_t ColumnOf(std::string_view text, size_t offset) {
  size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  if (offset == 0 || line_start == std::string_view::npos) return offset + 1;
  return offset - line_start;
}

}  // namespace

std::string_view Value::KindName() const {
  switch (kind) {
    case Kind::kString:
      return "a string";
    case Kind::kInteger:
      return "an integer";
    case Kind::kBoolean:
      return "a boolean";
    case Kind::kNil:
      return "nil";
    case Kind::kConstant:
      return "a constant";
    case Kind::kArray:
      return "an array";
    case Kind::kHash:
      return "a hash";
  }
  return "a value";
}

Result<std::vector<Command>> ParseCommands(std::string_view text, size_t* error_offset) {
  std::vector<Token> tokens;
  Lexer lexer(text);
  std::optional<SyntaxError> err = lexer.Run(&tokens);
  std::vector<Command> commands;
  if (!err) err = Parser(std::move(tokens)).Run(&commands);
  if (err) {
    if (error_offset != nullptr) *error_offset = err->offset;
    return Status::InvalidArgument("syntax error at column " +
                                   std::to_string(ColumnOf(text, err->offset)) + ": " +
                                   err->message);
  }
  return commands;
}

bool NeedsMoreInput(std::string_view text) {
  std::vector<Token> tokens;
  Lexer lexer(text);
  if (lexer.Run(&tokens)) return false;
  if (lexer.depth() > 0) return true;
  // tokens ends with kEof; the one before it decides.
  if (tokens.size() < 2) return false;
  TokenKind last = tokens[tokens.size() - 2].kind;
  return last == TokenKind::kComma || last == TokenKind::kArrow;
}

}  // namespace basalt::shell
