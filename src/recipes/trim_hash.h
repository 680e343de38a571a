// TrimHash: the hash the recipes' amortised trims are scheduled on. A write trims when the hash of
// what it wrote falls on a multiple of the trim interval, so trims come about once per interval
// without a counter to read or keep. FNV-1a's steps over bytes, splitmix64's finaliser for numbers:
// the same in every process and on every retry, so a retried write makes the trims the first
// attempt would have made.

#ifndef BASALT_RECIPES_TRIM_HASH_H_
#define BASALT_RECIPES_TRIM_HASH_H_

#include <cstdint>
#include <string_view>

namespace basalt::recipes {

class TrimHash {
 public:
  TrimHash& AddBytes(std::string_view bytes) {
    for (unsigned char c : bytes) AddByte(c);
    return *this;
  }

  // Ends a field, so that ("ab", "c") and ("a", "bc") hash apart.
  TrimHash& EndField() { return AddByte(0xff); }

  // Mixes in a number with splitmix64's finaliser: numbers that differ in one low bit, or whose
  // sum is the same, hash far apart.
  TrimHash& MixNumber(uint64_t n) {
    uint64_t h = h_ ^ n;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h_ = h ^ (h >> 31);
    return *this;
  }

  uint64_t value() const { return h_; }

 private:
  TrimHash& AddByte(unsigned char c) {
    h_ = (h_ ^ c) * 1099511628211ull;  // FNV-1a's 64-bit prime
    return *this;
  }

  // FNV-1a's 64-bit offset basis is 14695981039346656037; the recipes have started from this
  // value, the basis without its last digit, since their first trims. Any start serves, and
  // keeping this one keeps every trim schedule (and the tests that pin one) where it was.
  uint64_t h_ = 1469598103934665603ull;
};

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_TRIM_HASH_H_
