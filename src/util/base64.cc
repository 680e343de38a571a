#include "basalt/base64.h"

#include <array>
#include <cstdint>

namespace basalt {
namespace {

constexpr char kStandardAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::array<int8_t, 256> MakeDecodeTable(const char* alphabet) {
  std::array<int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(alphabet[i])] = static_cast<int8_t>(i);
  return table;
}

constexpr std::array<int8_t, 256> kStandardDecode = MakeDecodeTable(kStandardAlphabet);
constexpr std::array<int8_t, 256> kUrlDecode = MakeDecodeTable(kUrlAlphabet);

// Both dialects encode the same way; they differ in the alphabet and in padding the last group.
std::string Encode(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8 |
                 static_cast<uint8_t>(bytes[i + 2]);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
  if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
  out += alphabet[v >> 18];
  out += alphabet[(v >> 12) & 63];
  if (rest == 2) {
    out += alphabet[(v >> 6) & 63];
  } else if (pad) {
    out += '=';
  }
  if (pad) out += '=';
  return out;
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  return Encode(bytes, kStandardAlphabet, true);
}

Result<std::string> Base64Decode(std::string_view text, std::string_view what) {
  auto bad = [&] { return Status::InvalidArgument("bad base64 in " + std::string(what)); };
  if (text.size() % 4 != 0) return bad();
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int pad = 0;
    std::array<int, 4> d{};
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && last && k >= 2) {
        ++pad;
        continue;
      }
      if (pad > 0) return bad();
      d[k] = kStandardDecode[static_cast<uint8_t>(c)];
      if (d[k] < 0) return bad();
    }
    uint32_t v = (d[0] << 18) | (d[1] << 12) | (d[2] << 6) | d[3];
    out.push_back(static_cast<char>((v >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(v & 0xFF));
  }
  return out;
}

std::string Base64UrlEncode(std::string_view bytes) {
  return Encode(bytes, kUrlAlphabet, false);
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int8_t v = kUrlDecode[static_cast<uint8_t>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  // The 2 or 4 bits left over from a final partial group must be zero in the canonical form.
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace basalt
