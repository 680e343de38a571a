// libFuzzer target for the Thrift2 request path: the input's first byte picks the protocol
// (even: TBinaryProtocol, odd: TCompactProtocol, as `basalt serve --thrift-compact`), the rest is
// what a client would send on one connection: Thrift messages one after another, each processed
// by the generated THBaseServiceProcessor with basalt's Thrift2Handler over a TMemoryBuffer, on
// an in-memory store. No socket is opened.
//
// Checked on every input: nothing crashes or trips ASan/UBSan, and the handler never lets an
// exception out that the IDL does not declare (the processor would turn it into an
// "internal error" TApplicationException and report it through handlerError): bad arguments
// must come back as TIOError / TIllegalArgument. A malformed message may throw a Thrift
// protocol or transport exception from the processor; the server then closes the connection,
// and so does this target.
//
// The seeds (make_seeds.py) call the data methods, the admin methods and the table name pattern
// methods, hostile patterns included (nested, backtracking, back references): a pattern that
// stalls trips libFuzzer's -timeout.
//
// The store lives across inputs (fuzz_store.h).

#include <thrift/TProcessor.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "basalt/connection.h"
#include "fuzz_store.h"
#include "server/thrift/growing_protocol.h"
#include "server/thrift/scanner_registry.h"
#include "server/thrift2/handler.h"
#include "server/thrift2/thrift2_server.h"

namespace {

using apache::thrift::TException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

void Check(bool property) {
  if (!property) __builtin_trap();
}

// Counts exceptions the handler threw that the IDL does not declare.
class UndeclaredErrors : public apache::thrift::TProcessorEventHandler {
 public:
  void handlerError(void*, const char*) override { ++count; }
  int count = 0;
};

struct ThriftStack {
  ThriftStack()
      : conn(basalt::fuzz::OpenFuzzStore()),
        scanners(std::chrono::milliseconds(0)),
        // `app` reserved, as `basalt serve` does: the refusals are fuzzed too.
        handler(std::make_shared<basalt::server::Thrift2Handler>(
            *conn, scanners, "localhost", &port, std::vector<std::string>{"app"})),
        processor(std::make_shared<basalt::thrift2::THBaseServiceProcessor>(handler)),
        errors(std::make_shared<UndeclaredErrors>()) {
    processor->setEventHandler(errors);
    // Thrift prints a line for every malformed message; the fuzzer makes millions.
    apache::thrift::GlobalOutput.setOutputFunction([](const char*) {});
  }

  std::atomic<int> port{9090};
  std::unique_ptr<basalt::Connection> conn;
  basalt::server::ScannerRegistry scanners;
  std::shared_ptr<basalt::server::Thrift2Handler> handler;
  std::shared_ptr<basalt::thrift2::THBaseServiceProcessor> processor;
  std::shared_ptr<UndeclaredErrors> errors;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ThriftStack* stack = new ThriftStack();  // never destroyed: lives as long as the process
  if (size == 0) return 0;
  const bool compact = (data[0] & 1) != 0;
  auto in = std::make_shared<TMemoryBuffer>(
      const_cast<uint8_t*>(data + 1), static_cast<uint32_t>(size - 1), TMemoryBuffer::OBSERVE);
  auto out = std::make_shared<TMemoryBuffer>();
  std::shared_ptr<TProtocol> iprot, oprot;
  // The server's protocols and limits (Thrift2Server): strings up to the message size, grown
  // as they arrive (growing_protocol.h), lists up to max_list_elements.
  const basalt::server::Thrift2ServerOptions limits;
  iprot = basalt::server::GrowingProtocolFactory(compact, limits.max_message_bytes,
                                                 limits.max_list_elements)
              ->getProtocol(in);
  if (compact) {
    oprot = std::make_shared<TCompactProtocol>(out);
  } else {
    oprot = std::make_shared<TBinaryProtocol>(out);
  }
  stack->errors->count = 0;
  // One connection: messages until the input ends or one is malformed (the server would close).
  for (int calls = 0; calls < 16 && in->available_read() > 0; ++calls) {
    try {
      if (!stack->processor->process(iprot, oprot, nullptr)) break;
    } catch (const TException&) {
      break;
    }
    out->resetBuffer();
  }
  Check(stack->errors->count == 0);
  stack->scanners.ExpireIdle();  // idle timeout 0: every scanner is closed between inputs
  basalt::fuzz::TrimFuzzStore(*stack->conn);
  return 0;
}
