#include "keys/md5.h"

#include <gtest/gtest.h>

#include <string>

namespace basalt::keys {
namespace {

std::string Hex(const Md5::Digest& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xf]);
  }
  return out;
}

// RFC 1321, appendix A.5 ("MD5 test suite").
TEST(Md5Test, Rfc1321TestSuite) {
  EXPECT_EQ(Hex(Md5Digest("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex(Md5Digest("a")), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Hex(Md5Digest("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Hex(Md5Digest("message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Hex(Md5Digest("abcdefghijklmnopqrstuvwxyz")), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Hex(Md5Digest("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Hex(Md5Digest("1234567890123456789012345678901234567890"
                          "1234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a");
}

// Lengths around the padding boundaries (55/56 bytes fit the length in one block, 56..63 need a
// second) and the block size; expected digests from coreutils md5sum.
TEST(Md5Test, PaddingBoundaries) {
  const struct {
    size_t size;
    const char* digest;
  } kCases[] = {
      {55, "52c0e574e1198de5fe3f8f11440dcb1b"},  {56, "46c9907fc908ee68b1e7b8e71286a518"},
      {57, "1c805dd236c35cab25fcb1bc73802c51"},  {63, "a62f6d59e837867693f042f5b8f5a236"},
      {64, "7160b8fb5e9e4023d549c3971fbaeead"},  {65, "70bd662e7aefbda85a0f7244167b7897"},
      {119, "e84905d4214f4d1ca56c2cdcc152b143"}, {120, "e3eb5a6c8669ea01a8c185b8abc8a5dc"},
      {127, "acce2474d6cc8302120d09c818d17ef7"}, {128, "10b2da1a82f16d99a81a7203fe9f02cb"},
      {129, "03fefbbcebe2959cf2270241aafe0250"},
  };
  for (const auto& c : kCases) {
    std::string data(c.size, '\0');
    for (size_t i = 0; i < c.size; ++i) data[i] = static_cast<char>((i * 7 + 3) & 0xff);
    EXPECT_EQ(Hex(Md5Digest(data)), c.digest) << c.size << " bytes";
  }
}

TEST(Md5Test, IncrementalUpdatesGiveTheOneShotDigest) {
  std::string data(1000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 131 + 7);
  const Md5::Digest expected = Md5Digest(data);
  for (size_t chunk : {1, 3, 63, 64, 65, 200}) {
    Md5 md5;
    for (size_t pos = 0; pos < data.size(); pos += chunk) {
      md5.Update(std::string_view(data).substr(pos, chunk));
      md5.Update("");
    }
    EXPECT_EQ(md5.Finish(), expected) << "chunks of " << chunk;
  }
}

TEST(Md5Test, MillionAs) {
  Md5 md5;
  const std::string block(1000, 'a');
  for (int i = 0; i < 1000; ++i) md5.Update(block);
  EXPECT_EQ(Hex(md5.Finish()), "7707d6ae4e027c70eea2a935c2296f21");
}

}  // namespace
}  // namespace basalt::keys
