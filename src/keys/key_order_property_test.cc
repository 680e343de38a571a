// Property test of the key codec on random tuples: bytewise order of encodings is tuple order,
// decoding gives the tuple back, and field prefixes select exactly the matching keys.
//
// Tuples come in batches, each over a random schema of mixed field types and orders. Values are
// drawn mostly from small pools of edge cases (empty strings, 00 and FF bytes, INT_MIN, -1, 0,
// MAX...) so that tuples often share leading fields, which is where ordering bugs hide. Some
// tuples hold only their schema's first fields (key prefixes), which must sort before their
// extensions.
//
// The seed is fixed and printed on failure; BASALT_KEYS_SEED=<n> replays another.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "basalt/keys.h"

namespace basalt {
namespace {

#ifdef __SANITIZE_ADDRESS__
constexpr size_t kTuples = 200'000;  // ASan is ~10x slower; still every kind of field, many times
#else
constexpr size_t kTuples = 1'000'000;
#endif
constexpr size_t kBatch = 5'000;  // tuples per schema
constexpr uint64_t kDefaultSeed = 0x6261'7361'6c74'6b79;

uint64_t Seed() {
  const char* env = std::getenv("BASALT_KEYS_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 0) : kDefaultSeed;
}

int Sign(int c) {
  return (c > 0) - (c < 0);
}

int CompareBytes(std::string_view a, std::string_view b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return Sign(c);
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// The order the encoding must reproduce: fields compared in turn, each in its own direction
// (strings as unsigned bytes), and a tuple that is a prefix of another first.
int CompareTuples(const KeySchema& schema, const KeyTuple& a, const KeyTuple& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int c = 0;
    if (const auto* u = std::get_if<uint64_t>(&a[i])) {
      const uint64_t v = std::get<uint64_t>(b[i]);
      c = *u < v ? -1 : *u > v ? 1 : 0;
    } else if (const auto* s = std::get_if<int64_t>(&a[i])) {
      const int64_t v = std::get<int64_t>(b[i]);
      c = *s < v ? -1 : *s > v ? 1 : 0;
    } else {
      c = CompareBytes(std::get<std::string>(a[i]), std::get<std::string>(b[i]));
    }
    if (schema.fields()[i].order == KeyOrder::kDescending) c = -c;
    if (c != 0) return c;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

std::string Describe(const KeyTuple& t) {
  std::string out = "{";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i > 0) out += ", ";
    if (const auto* u = std::get_if<uint64_t>(&t[i])) {
      out += std::to_string(*u) + "u";
    } else if (const auto* s = std::get_if<int64_t>(&t[i])) {
      out += std::to_string(*s);
    } else {
      out += '"';
      for (unsigned char c : std::get<std::string>(t[i])) {
        static constexpr char kHex[] = "0123456789abcdef";
        if (c >= 0x20 && c < 0x7f && c != '\\') {
          out += static_cast<char>(c);
        } else {
          out += {'\\', 'x', kHex[c >> 4], kHex[c & 0xf]};
        }
      }
      out += '"';
    }
  }
  return out + "}";
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

  KeySchema Schema() {
    KeySchema schema;
    const size_t n = 1 + Below(6);
    for (size_t i = 0; i < n; ++i) {
      const auto type = static_cast<KeyFieldType>(Below(10));
      const KeyOrder order = Below(2) == 0 ? KeyOrder::kAscending : KeyOrder::kDescending;
      if (type == KeyFieldType::kFixedBytes) {
        schema.AddFixedBytes(1 + Below(3), order);
      } else {
        schema.Add(type, order);
      }
    }
    return schema;
  }

  KeyTuple Tuple(const KeySchema& schema) {
    // One tuple in eight is a key prefix: only its schema's first fields.
    size_t n = schema.size();
    if (Below(8) == 0) n = Below(n);
    KeyTuple t;
    t.reserve(n);
    for (size_t i = 0; i < n; ++i) t.push_back(Value(schema.fields()[i]));
    return t;
  }

 private:
  KeyValue Value(const KeyField& field) {
    switch (field.type) {
      case KeyFieldType::kBytes:
        return String(Below(4) == 0 ? Below(12) : Below(4));
      case KeyFieldType::kFixedBytes:
        return String(field.fixed_size);
      case KeyFieldType::kUint8:
        return Unsigned(8);
      case KeyFieldType::kUint16:
        return Unsigned(16);
      case KeyFieldType::kUint32:
        return Unsigned(32);
      case KeyFieldType::kUint64:
        return Unsigned(64);
      case KeyFieldType::kInt8:
        return Signed(8);
      case KeyFieldType::kInt16:
        return Signed(16);
      case KeyFieldType::kInt32:
        return Signed(32);
      case KeyFieldType::kInt64:
        return Signed(64);
    }
    return std::string();
  }

  uint64_t Unsigned(int bits) {
    const uint64_t max = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    switch (Below(6)) {
      case 0:
        return 0;
      case 1:
        return max;
      case 2:
        return max - Below(2);
      case 3:
        return Below(4);
      default:
        return rng_() & max;
    }
  }

  int64_t Signed(int bits) {
    const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    const int64_t min = -max - 1;
    switch (Below(7)) {
      case 0:
        return min;
      case 1:
        return max;
      case 2:
        return Below(2) == 0 ? min + 1 : max - 1;
      case 3:
        return static_cast<int64_t>(Below(7)) - 3;
      default: {
        // Random bits, sign-extended from `bits`.
        const uint64_t r = rng_();
        return bits == 64 ? static_cast<int64_t>(r)
                          : static_cast<int64_t>(r << (64 - bits)) >> (64 - bits);
      }
    }
  }

  std::string String(size_t size) {
    static constexpr char kAlphabet[] = {'\x00', '\x01', '\xff', '\xfe', 'a', 'b'};
    std::string s(size, '\0');
    for (char& c : s) {
      c = Below(4) == 0 ? static_cast<char>(rng_()) : kAlphabet[Below(sizeof(kAlphabet))];
    }
    return s;
  }

  std::mt19937_64 rng_;
};

// Decodes the first `n` fields of `key` and requires that nothing follows; records the offset
// after each field in `ends`.
Status DecodeFields(const KeySchema& schema, std::string_view key, size_t n, KeyTuple* out,
                    std::vector<size_t>* ends) {
  KeyParser parser(key);
  out->resize(n);
  ends->clear();
  for (size_t i = 0; i < n; ++i) {
    BASALT_RETURN_IF_ERROR(parser.Read(schema.fields()[i], &(*out)[i]));
    ends->push_back(parser.offset());
  }
  return parser.Finish();
}

TEST(KeyOrderPropertyTest, BytewiseOrderIsTupleOrderAndDecodingRoundTrips) {
  const uint64_t seed = Seed();
  SCOPED_TRACE("seed " + std::to_string(seed) +
               " (replay: BASALT_KEYS_SEED=" + std::to_string(seed) + ")");
  Generator gen(seed);
  const auto start = std::chrono::steady_clock::now();

  std::vector<KeyTuple> tuples(kBatch);
  std::vector<std::string> keys(kBatch);
  std::vector<std::vector<size_t>> ends(kBatch);
  std::vector<size_t> order(kBatch);
  KeyTuple decoded;
  size_t checked = 0, prefix_matches = 0;

  for (size_t batch = 0; batch * kBatch < kTuples; ++batch) {
    const KeySchema schema = gen.Schema();
    SCOPED_TRACE("batch " + std::to_string(batch) + ", schema " + schema.ToString());

    for (size_t i = 0; i < kBatch; ++i) {
      tuples[i] = gen.Tuple(schema);
      Result<std::string> key = schema.EncodePrefix(tuples[i]);
      ASSERT_TRUE(key.ok()) << key.status().ToString() << " " << Describe(tuples[i]);
      keys[i] = std::move(*key);
      // Round trip, field by field and (for whole tuples) through Decode.
      Status s = DecodeFields(schema, keys[i], tuples[i].size(), &decoded, &ends[i]);
      ASSERT_TRUE(s.ok()) << s.ToString() << " " << Describe(tuples[i]);
      ASSERT_EQ(decoded, tuples[i]) << Describe(decoded) << " vs " << Describe(tuples[i]);
      if (tuples[i].size() == schema.size()) {
        Result<KeyTuple> whole = schema.Decode(keys[i]);
        ASSERT_TRUE(whole.ok()) << whole.status().ToString();
        ASSERT_EQ(*whole, tuples[i]);
      }
    }

    // Sorted by their bytes, the tuples must come out in tuple order, equal bytes only for equal
    // tuples. Adjacent pairs suffice: tuple order is a total order.
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    for (size_t j = 0; j + 1 < kBatch; ++j) {
      const size_t a = order[j], b = order[j + 1];
      const int by_bytes = CompareBytes(keys[a], keys[b]);
      const int by_tuple = CompareTuples(schema, tuples[a], tuples[b]);
      ASSERT_EQ(by_bytes, by_tuple) << Describe(tuples[a]) << " vs " << Describe(tuples[b]);

      // Prefix scans: the first k fields of `a` prefix `b`'s key exactly when `b` starts with
      // the same k values. Neighbours in order share leading fields often.
      for (size_t k = 0; k <= tuples[a].size(); ++k) {
        const std::string_view prefix =
            std::string_view(keys[a]).substr(0, k == 0 ? 0 : ends[a][k - 1]);
        const bool by_prefix = std::string_view(keys[b]).substr(0, prefix.size()) == prefix;
        const bool by_fields =
            tuples[b].size() >= k &&
            std::equal(tuples[a].begin(), tuples[a].begin() + k, tuples[b].begin());
        ASSERT_EQ(by_prefix, by_fields)
            << "k=" << k << " " << Describe(tuples[a]) << " vs " << Describe(tuples[b]);
        prefix_matches += by_fields ? 1 : 0;
      }
    }

    // And random pairs directly, not only neighbours.
    for (size_t j = 0; j < kBatch; ++j) {
      const size_t a = gen.Below(kBatch), b = gen.Below(kBatch);
      ASSERT_EQ(CompareBytes(keys[a], keys[b]), CompareTuples(schema, tuples[a], tuples[b]))
          << Describe(tuples[a]) << " vs " << Describe(tuples[b]);
    }
    checked += kBatch;
  }

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("tuples", static_cast<int>(checked));
  std::printf("[ keys     ] %zu tuples in %.2f s (seed %llu, %zu prefix matches)\n", checked,
              seconds, static_cast<unsigned long long>(seed), prefix_matches);
  EXPECT_GE(checked, kTuples);
}

}  // namespace
}  // namespace basalt
