// libFuzzer target for the Thrift2 request path: Thrift2 messages on one connection, processed
// by the generated THBaseServiceProcessor with basalt's Thrift2Handler (thrift_request_fuzz.h
// says how an input is read and what is checked: no crash or UB, and no exception the IDL does
// not declare; bad arguments must come back as TIOError / TIllegalArgument).
//
// The seeds (make_seeds.py) call the data methods, the admin methods and the table name pattern
// methods, hostile patterns included (nested, backtracking, back references): a pattern that
// stalls trips libFuzzer's -timeout.

#include <cstddef>
#include <cstdint>

#include "server/thrift2/handler.h"
#include "thrift_request_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Never destroyed: lives as long as the process.
  static auto* fuzzer =
      new basalt::fuzz::ThriftRequestFuzzer<basalt::server::Thrift2Handler,
                                            basalt::thrift2::THBaseServiceProcessor>();
  return fuzzer->Run(data, size);
}
