// The approximate click counters' sketches, kept apart from their tables so that their error can
// be tested on millions of inputs without a store: a seeded 64-bit hash, HyperLogLog registers
// and their estimate, and the Count-Min column of an item. ClickCounters stores what these
// compute (docs/recipes.md, "Distinct visitors and heavy hitters").
//
// The hash is part of the stored format: a register index, a rank or a Count-Min column written
// by one build is read by the next. Hash64 must never change (click_sketches_test pins it).

#ifndef BASALT_RECIPES_CLICK_SKETCHES_H_
#define BASALT_RECIPES_CLICK_SKETCHES_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace basalt::recipes::sketch {

// A 64-bit hash of `bytes` for `seed`: 8-byte little-endian words mixed as in MurmurHash64A,
// finished with MurmurHash3's fmix64. Distinct seeds give hashes that behave as independent.
uint64_t Hash64(std::string_view bytes, uint64_t seed);

// HyperLogLog with 2^kPrecision registers (Flajolet et al. 2007) on a 64-bit hash, estimated
// with Ertl's improved raw estimator (2017), which has no bias to correct from small counts to
// 2^64.
inline constexpr int kPrecision = 12;
inline constexpr int kRegisters = 1 << kPrecision;
// 1.04 / sqrt(m): the relative standard error of the estimate.
inline constexpr double kRelativeStandardError = 1.04 / 64.0;
static_assert(kRegisters == 64 * 64, "kRelativeStandardError assumes m = 4096");
// Ranks run 1..kMaxRank: the leading zeros of the hash bits below the index, plus one.
inline constexpr int kMaxRank = 64 - kPrecision + 1;

// The register a visitor's hash selects, and the rank it offers that register.
struct RegisterUpdate {
  uint16_t index;
  uint8_t rank;
};
RegisterUpdate HllUpdate(std::string_view visitor);

class HyperLogLog {
 public:
  // Raises register `index` to `rank` if it is lower (registers only ever grow; merging two
  // sketches is the register-wise max). REQUIRES: index < kRegisters, rank <= kMaxRank.
  void Raise(uint16_t index, uint8_t rank) {
    if (registers_[index] < rank) registers_[index] = rank;
  }
  void Add(std::string_view visitor) {
    const RegisterUpdate u = HllUpdate(visitor);
    Raise(u.index, u.rank);
  }
  // The estimated number of distinct visitors added, rounded to the nearest integer.
  int64_t Estimate() const;

  const std::array<uint8_t, kRegisters>& registers() const { return registers_; }

 private:
  std::array<uint8_t, kRegisters> registers_{};
};

// Count-Min (Cormode and Muthukrishnan 2005) of depth d and width w: an item's count is
// overestimated by at most e/w of the stream's total with probability >= 1 - e^-d.
inline constexpr int kSketchDepth = 4;
inline constexpr int kSketchWidth = 2048;
// The column of `item` in row `depth` (0..kSketchDepth-1), in 0..kSketchWidth-1.
uint16_t CountMinColumn(std::string_view item, int depth);
// e / w, the bound on an estimate's excess as a fraction of the total.
inline constexpr double kCountMinEpsilon = 2.718281828459045 / kSketchWidth;

// Heavy-hitter summaries are kept in kShards rows per hour; an item's shard.
inline constexpr int kShards = 8;
uint8_t ShardOf(std::string_view item);

}  // namespace basalt::recipes::sketch

#endif  // BASALT_RECIPES_CLICK_SKETCHES_H_
