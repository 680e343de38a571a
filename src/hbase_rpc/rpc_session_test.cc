#include "hbase_rpc/rpc_session.h"

#include "hbase_proto/proto/Registry.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace basalt::hbase_rpc {
namespace {

// Answers "Echo" with its param's bytes and cell block, and refuses any other method.
class EchoService : public RpcService {
 public:
  std::variant<CallAnswer, RpcError> Call(const DecodedCall& call,
                                          const Caller& /*caller*/) override {
    if (call.header.method_name() != "Echo") {
      return RpcError{std::string(kDoNotRetryIOException), "no such method", false};
    }
    return CallAnswer{std::string(call.param), std::string(call.cell_block)};
  }
};

struct Answer {
  ::hbase::pb::ResponseHeader header;
  std::string message;
};

// Splits a server's output into answers.
std::vector<Answer> Answers(std::string_view out) {
  std::vector<Answer> answers;
  LengthPrefixed unit;
  while (!NextLengthPrefixed(out, UINT32_MAX, &unit).has_value() && unit.complete) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(unit.body.data()),
                                              static_cast<int>(unit.body.size()));
    Answer answer;
    uint32_t length = 0;
    EXPECT_TRUE(in.ReadVarint32(&length));
    std::string bytes;
    EXPECT_TRUE(in.ReadString(&bytes, static_cast<int>(length)));
    EXPECT_TRUE(answer.header.ParseFromString(bytes));
    if (in.ReadVarint32(&length)) {
      EXPECT_TRUE(in.ReadString(&answer.message, static_cast<int>(length)));
    }
    answers.push_back(std::move(answer));
    out.remove_prefix(unit.consumed);
  }
  EXPECT_TRUE(out.empty());
  return answers;
}

class RpcSessionTest : public ::testing::Test {
 protected:
  RpcSession NewSession() {
    return RpcSession(RpcCaps{}, [this](std::string_view name) -> RpcService* {
      return name == "ClientService" ? &echo_ : nullptr;
    });
  }

  static std::string Opening(const std::string& service) {
    ::hbase::pb::ConnectionHeader header;
    header.set_service_name(service);
    header.set_cell_block_codec_class(std::string(kKeyValueCodec));
    return std::string("HBas\x00\x50", 6) + EncodeConnectionHeader(header);
  }

  static std::string Call(uint32_t id, const std::string& method, const std::string& text,
                          std::string_view cells = {}) {
    ::hbase::pb::RequestHeader header;
    header.set_call_id(id);
    header.set_method_name(method);
    ::hbase::pb::NameBytesPair param;
    param.set_name(text);
    return EncodeCall(header, &param, cells);
  }

  EchoService echo_;
};

TEST_F(RpcSessionTest, AnswersPipelinedCallsInOrderWhateverTheReadBoundaries) {
  const std::string input = Opening("ClientService") + Call(1, "Echo", "a") + Call(2, "Nope", "b") +
                            Call(3, "Echo", "c", "cells");
  // Byte by byte, and all at once: the same answers.
  for (size_t step : {size_t{1}, input.size()}) {
    RpcSession session = NewSession();
    std::string out;
    for (size_t at = 0; at < input.size(); at += step) {
      ASSERT_TRUE(session.Feed(std::string_view(input).substr(at, step), &out));
    }
    EXPECT_EQ(session.buffered(), 0u);
    EXPECT_EQ(session.calls(), 3u);
    EXPECT_EQ(session.connection_header().service_name(), "ClientService");
    std::vector<Answer> answers = Answers(out);
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[0].header.call_id(), 1u);
    ::hbase::pb::NameBytesPair echoed;
    ASSERT_TRUE(echoed.ParseFromString(answers[0].message));
    EXPECT_EQ(echoed.name(), "a");
    EXPECT_EQ(answers[1].header.call_id(), 2u);
    EXPECT_EQ(answers[1].header.exception().exception_class_name(), kDoNotRetryIOException);
    EXPECT_TRUE(answers[1].message.empty());
    EXPECT_EQ(answers[2].header.call_id(), 3u);
    EXPECT_EQ(answers[2].header.cell_block_meta().length(), 5u);
  }
}

TEST_F(RpcSessionTest, CallsPastTheAnswerBudgetWaitUntilFedAgain) {
  std::string input = Opening("ClientService");
  for (uint32_t id = 1; id <= 10; ++id) input += Call(id, "Echo", std::string(100, 'x'));
  RpcSession session = NewSession();
  std::string out;
  // Room for about two answers: the rest wait in the session, unanswered.
  ASSERT_TRUE(session.Feed(input, &out, 200));
  const size_t first = Answers(out).size();
  EXPECT_GE(first, 1u);
  EXPECT_LT(first, 4u);
  EXPECT_GT(session.buffered(), 0u);
  size_t answered = first;
  for (int turn = 0; turn < 20 && answered < 10; ++turn) {
    out.clear();  // sent
    ASSERT_TRUE(session.Feed({}, &out, 200));
    answered += Answers(out).size();
  }
  EXPECT_EQ(answered, 10u);
  EXPECT_EQ(session.buffered(), 0u);
}

TEST_F(RpcSessionTest, RegistryPreambleIsAnsweredTheClusterIdThenClosed) {
  RpcSession session(RpcCaps{}, nullptr, "client", "the-cluster");
  std::string out;
  EXPECT_FALSE(session.Feed("Regist", &out));
  std::vector<Answer> answers = Answers(out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(static_cast<int32_t>(answers[0].header.call_id()), -1);
  ::hbase::pb::GetConnectionRegistryResponse response;
  ASSERT_TRUE(response.ParseFromString(answers[0].message));
  EXPECT_EQ(response.cluster_id(), "the-cluster");
  // Without a cluster id the preamble is an unknown one.
  RpcSession plain = NewSession();
  out.clear();
  EXPECT_FALSE(plain.Feed("Regist", &out));
  EXPECT_EQ(Answers(out).at(0).header.exception().exception_class_name(), kWrongVersionException);
}

TEST_F(RpcSessionTest, UnknownServiceIsFatal) {
  RpcSession session = NewSession();
  std::string out;
  EXPECT_FALSE(session.Feed(Opening("RegionServerStatusService"), &out));
  std::vector<Answer> answers = Answers(out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(static_cast<int32_t>(answers[0].header.call_id()), -1);
  EXPECT_EQ(answers[0].header.exception().exception_class_name(), kUnknownServiceException);
  EXPECT_FALSE(session.Feed(Call(1, "Echo", "a"), &out));  // closed: nothing more is read
}

TEST_F(RpcSessionTest, BadPreambleAndOversizeFramesCloseWithoutHoldingTheFrame) {
  {
    RpcSession session = NewSession();
    std::string out;
    EXPECT_FALSE(session.Feed("GET / HTTP/1.1\r\n", &out));
    EXPECT_EQ(Answers(out).at(0).header.exception().exception_class_name(), kWrongVersionException);
  }
  RpcSession session = NewSession();
  std::string out;
  ASSERT_TRUE(session.Feed(Opening("ClientService"), &out));
  // A frame declaring 1 GiB: refused from its 4 length bytes.
  EXPECT_FALSE(session.Feed(std::string("\x40\x00\x00\x00", 4), &out));
  EXPECT_EQ(session.buffered(), 0u);
  EXPECT_EQ(Answers(out).at(0).header.exception().exception_class_name(), kRequestTooBigException);
}

}  // namespace
}  // namespace basalt::hbase_rpc
