// What the Thrift request fuzzers share (thrift2_request_fuzzer.cc, thrift1_request_fuzzer.cc):
// the input's first byte picks the protocol (even: TBinaryProtocol, odd: TCompactProtocol, as
// `basalt serve --thrift-compact` / `--thrift1-compact`), the rest is what a client would send on
// one buffered connection: Thrift messages one after another, split as the server splits them
// (message_scanner.h walks each to its end, or refuses it), each processed by the service's
// generated processor with basalt's handler on the request's bytes in memory, read through the
// server's own transports, protocols and limits (message_transports.h, growing_protocol.h), on an
// in-memory store (fuzz_store.h). No socket is opened.
//
// Checked on every input: nothing crashes or trips ASan/UBSan, and the handler never lets an
// exception out that the IDL does not declare (the processor would turn it into an
// "internal error" TApplicationException and report it through handlerError): bad arguments
// must come back as the IDL's exceptions. A message the scanner refuses, or one that throws a
// Thrift protocol or transport exception from the processor, makes the server close the
// connection, and so does the fuzzer.

#ifndef BASALT_TESTS_FUZZ_THRIFT_REQUEST_FUZZ_H_
#define BASALT_TESTS_FUZZ_THRIFT_REQUEST_FUZZ_H_

#include <thrift/TProcessor.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "fuzz_store.h"
#include "server/thrift/growing_protocol.h"
#include "server/thrift/message_scanner.h"
#include "server/thrift/message_transports.h"
#include "server/thrift/scanner_registry.h"
#include "server/thrift/thrift_server.h"

namespace basalt::fuzz {

// One store, handler and processor for the whole run (inputs build on each other's writes).
template <class Handler, class Processor>
class ThriftRequestFuzzer {
 public:
  ThriftRequestFuzzer()
      : conn_(OpenFuzzStore()),
        scanners_(std::chrono::milliseconds(0)),
        // `app` reserved, as `basalt serve` does: the refusals are fuzzed too.
        handler_(std::make_shared<Handler>(*conn_, scanners_, "localhost", &port_,
                                           std::vector<std::string>{"app"})),
        processor_(std::make_shared<Processor>(handler_)),
        errors_(std::make_shared<UndeclaredErrors>()) {
    processor_->setEventHandler(errors_);
    // Thrift prints a line for every malformed message; the fuzzer makes millions.
    apache::thrift::GlobalOutput.setOutputFunction([](const char*) {});
  }

  int Run(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const bool compact = (data[0] & 1) != 0;
    // The servers' caps: strings up to the message size, lists up to max_list_elements.
    const server::ThriftServerOptions limits;
    auto request = std::make_shared<server::RequestTransport>(
        std::make_shared<apache::thrift::TConfiguration>(limits.max_message_bytes));
    auto answers = std::make_shared<server::AnswerTransport>();
    std::shared_ptr<apache::thrift::protocol::TProtocolFactory> protocols =
        server::GrowingProtocolFactory(compact, limits.max_message_bytes, limits.max_list_elements);
    std::shared_ptr<apache::thrift::protocol::TProtocol> iprot = protocols->getProtocol(request);
    std::shared_ptr<apache::thrift::protocol::TProtocol> oprot = protocols->getProtocol(answers);
    server::MessageScanner scanner(
        compact, server::MessageCaps{limits.max_message_bytes, limits.max_list_elements});
    errors_->count = 0;
    // One connection: messages until the input ends or one is refused or malformed (the server
    // would close).
    const uint8_t* at = data + 1;
    size_t left = size - 1;
    for (int calls = 0; calls < 16 && left > 0; ++calls) {
      scanner.Reset();
      if (scanner.Scan(at, left) != server::MessageScanner::Result::kComplete) break;
      const size_t length = scanner.length();
      if (length == 0 || length > left) __builtin_trap();  // the scanner's contract
      request->Reset(at, length);
      try {
        if (!processor_->process(iprot, oprot, nullptr)) break;
      } catch (const apache::thrift::TException&) {
        break;
      }
      answers->Clear();
      at += length;
      left -= length;
    }
    if (errors_->count != 0) __builtin_trap();
    scanners_.ExpireIdle();  // idle timeout 0: every scanner is closed between inputs
    TrimFuzzStore(*conn_);
    return 0;
  }

 private:
  // Counts exceptions the handler threw that the IDL does not declare.
  class UndeclaredErrors : public apache::thrift::TProcessorEventHandler {
   public:
    void handlerError(void*, const char*) override { ++count; }
    int count = 0;
  };

  std::atomic<int> port_{9090};
  std::unique_ptr<Connection> conn_;
  server::ScannerRegistry scanners_;
  std::shared_ptr<Handler> handler_;
  std::shared_ptr<Processor> processor_;
  std::shared_ptr<UndeclaredErrors> errors_;
};

}  // namespace basalt::fuzz

#endif  // BASALT_TESTS_FUZZ_THRIFT_REQUEST_FUZZ_H_
