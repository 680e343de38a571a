#include "hbase_rpc/rpc_codec.h"

#include <gtest/gtest.h>

#include <string>

namespace basalt::hbase_rpc {
namespace {

std::string Body(const std::string& framed) {
  return framed.substr(4);
}

TEST(RpcCodecTest, PreambleAcceptsOnlyVersionZeroWithSimpleAuth) {
  EXPECT_FALSE(CheckPreamble(std::string("HBas\x00\x50", 6)).has_value());
  auto wrong_version = CheckPreamble(std::string("HBas\x01\x50", 6));
  ASSERT_TRUE(wrong_version.has_value());
  EXPECT_EQ(wrong_version->exception_class, kWrongVersionException);
  EXPECT_TRUE(wrong_version->fatal);
  auto kerberos = CheckPreamble(std::string("HBas\x00\x51", 6));
  ASSERT_TRUE(kerberos.has_value());
  EXPECT_EQ(kerberos->exception_class, kBadAuthException);
  EXPECT_TRUE(CheckPreamble("GET / ").has_value());
}

TEST(RpcCodecTest, LengthPrefixedWaitsForTheWholeUnitAndRefusesOversizeAtOnce) {
  LengthPrefixed unit;
  std::string framed = std::string("\x00\x00\x00\x03", 4) + "abcX";
  EXPECT_FALSE(NextLengthPrefixed(framed.substr(0, 2), 100, &unit).has_value());
  EXPECT_FALSE(unit.complete);
  EXPECT_FALSE(NextLengthPrefixed(framed.substr(0, 6), 100, &unit).has_value());
  EXPECT_FALSE(unit.complete);
  EXPECT_FALSE(NextLengthPrefixed(framed, 100, &unit).has_value());
  ASSERT_TRUE(unit.complete);
  EXPECT_EQ(unit.body, "abc");
  EXPECT_EQ(unit.consumed, 7u);
  // Only the 4 length bytes have arrived: the cap applies before any body is held.
  auto too_big = NextLengthPrefixed(std::string("\x7f\xff\xff\xff", 4), 1024, &unit);
  ASSERT_TRUE(too_big.has_value());
  EXPECT_EQ(too_big->exception_class, kRequestTooBigException);
  EXPECT_TRUE(too_big->fatal);
}

TEST(RpcCodecTest, ConnectionHeaderRoundTripsAndRefusesOtherCodecs) {
  ::hbase::pb::ConnectionHeader sent;
  sent.mutable_user_info()->set_effective_user("alice");
  sent.set_service_name("ClientService");
  sent.set_cell_block_codec_class(std::string(kKeyValueCodec));
  ::hbase::pb::ConnectionHeader got;
  ASSERT_FALSE(ParseConnectionHeader(Body(EncodeConnectionHeader(sent)), &got).has_value());
  EXPECT_EQ(got.service_name(), "ClientService");
  EXPECT_EQ(got.user_info().effective_user(), "alice");

  sent.set_cell_block_codec_class("org.apache.hadoop.hbase.codec.MessageCodec");
  auto codec = ParseConnectionHeader(Body(EncodeConnectionHeader(sent)), &got);
  ASSERT_TRUE(codec.has_value());
  EXPECT_EQ(codec->exception_class, kUnsupportedCellCodecException);

  sent.set_cell_block_codec_class(std::string(kKeyValueCodec));
  sent.set_cell_block_compressor_class("org.apache.hadoop.io.compress.GzipCodec");
  auto compressor = ParseConnectionHeader(Body(EncodeConnectionHeader(sent)), &got);
  ASSERT_TRUE(compressor.has_value());
  EXPECT_EQ(compressor->exception_class, kUnsupportedCompressionCodecException);

  // user_info without its required effective_user.
  ::hbase::pb::ConnectionHeader partial;
  partial.mutable_user_info()->set_real_user("bob");
  auto invalid = ParseConnectionHeader(partial.SerializePartialAsString(), &got);
  ASSERT_TRUE(invalid.has_value());
  EXPECT_EQ(invalid->exception_class, kFatalConnectionException);
}

TEST(RpcCodecTest, CallDecodesHeaderParamAndCellBlock) {
  ::hbase::pb::RequestHeader header;
  header.set_call_id(7);
  header.set_method_name("Multi");
  ::hbase::pb::CellBlockMeta param;  // any message stands for the request here
  param.set_length(42);
  const std::string frame = Body(EncodeCall(header, &param, "cells"));
  DecodedCall call;
  ASSERT_FALSE(DecodeCall(frame, RpcCaps{}, &call).has_value());
  EXPECT_EQ(call.header.call_id(), 7u);
  EXPECT_EQ(call.header.method_name(), "Multi");
  ASSERT_TRUE(call.has_param);
  EXPECT_EQ(call.param, param.SerializeAsString());
  EXPECT_EQ(call.cell_block, "cells");
}

TEST(RpcCodecTest, MalformedCallsAreErrorsOfTheCallOnceItsIdIsKnown) {
  ::hbase::pb::RequestHeader header;
  header.set_call_id(9);
  header.set_method_name("Get");
  ::hbase::pb::CellBlockMeta param;
  param.set_length(1);
  DecodedCall call;

  // Cut inside the header: no call id to answer, so the connection goes.
  const std::string whole = Body(EncodeCall(header, &param));
  auto cut_header = DecodeCall(whole.substr(0, 3), RpcCaps{}, &call);
  ASSERT_TRUE(cut_header.has_value());
  EXPECT_TRUE(cut_header->fatal);

  // Cut inside the param: an error of call 9.
  auto cut_param = DecodeCall(whole.substr(0, whole.size() - 1), RpcCaps{}, &call);
  ASSERT_TRUE(cut_param.has_value());
  EXPECT_FALSE(cut_param->fatal);
  EXPECT_EQ(cut_param->exception_class, kDoNotRetryIOException);
  EXPECT_EQ(call.header.call_id(), 9u);

  // Trailing bytes, and a cell block over the cap.
  EXPECT_TRUE(DecodeCall(whole + "x", RpcCaps{}, &call).has_value());
  RpcCaps small;
  small.max_cell_block_bytes = 4;
  auto big_cells = DecodeCall(Body(EncodeCall(header, &param, "12345")), small, &call);
  ASSERT_TRUE(big_cells.has_value());
  EXPECT_EQ(big_cells->exception_class, kRequestTooBigException);
  EXPECT_FALSE(big_cells->fatal);

  // No method name.
  ::hbase::pb::RequestHeader nameless;
  nameless.set_call_id(3);
  auto no_method = DecodeCall(Body(EncodeCall(nameless, nullptr)), RpcCaps{}, &call);
  ASSERT_TRUE(no_method.has_value());
  EXPECT_EQ(no_method->exception_class, kDoNotRetryIOException);
}

TEST(RpcCodecTest, ErrorsCarryTheClassNameAndFatalOnesCallIdMinusOne) {
  RpcError error{"org.apache.hadoop.hbase.TableNotFoundException", "t", false};
  LengthPrefixed unit;
  const std::string answer = EncodeError(5, error);
  ASSERT_FALSE(NextLengthPrefixed(answer, UINT32_MAX, &unit).has_value());
  ASSERT_TRUE(unit.complete);
  std::string_view rest = unit.body;
  ASSERT_GT(rest.size(), 1u);
  const auto header_length = static_cast<uint8_t>(rest[0]);
  ::hbase::pb::ResponseHeader header;
  ASSERT_TRUE(header.ParseFromString(std::string(rest.substr(1, header_length))));
  EXPECT_EQ(header.call_id(), 5u);
  EXPECT_EQ(header.exception().exception_class_name(), error.exception_class);
  EXPECT_FALSE(header.exception().do_not_retry());
  EXPECT_EQ(rest.size(), 1u + header_length);  // no message after an exception

  error.fatal = true;
  const std::string fatal = EncodeError(5, error);
  ASSERT_FALSE(NextLengthPrefixed(fatal, UINT32_MAX, &unit).has_value());
  ASSERT_TRUE(header.ParseFromString(std::string(unit.body.substr(1))));
  EXPECT_EQ(static_cast<int32_t>(header.call_id()), -1);
  EXPECT_TRUE(header.exception().do_not_retry());
}

}  // namespace
}  // namespace basalt::hbase_rpc
