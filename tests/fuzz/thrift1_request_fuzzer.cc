// libFuzzer target for the Thrift1 request path (HBase's `Hbase` service, happybase's): Thrift1
// messages on one connection, processed by the generated HbaseProcessor with basalt's
// Thrift1Handler (thrift_request_fuzz.h says how an input is read and what is checked: no crash
// or UB, and no exception the IDL does not declare; bad arguments must come back as IOError /
// IllegalArgument / AlreadyExists where the IDL declares them).
//
// The seeds (make_seeds.py) call every method family: table admin, the reads with columns and
// timestamps, mutateRow(s), counters, append, checkAndPut, the scanners with TScan's fields, and
// the app's reserved namespace.

#include <cstddef>
#include <cstdint>

#include "server/thrift1/handler.h"
#include "thrift_request_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Never destroyed: lives as long as the process.
  static auto* fuzzer = new basalt::fuzz::ThriftRequestFuzzer<basalt::server::Thrift1Handler,
                                                              basalt::thrift1::HbaseProcessor>();
  return fuzzer->Run(data, size);
}
