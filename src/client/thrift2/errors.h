// The one place where the remote backend turns what a Thrift call threw into a basalt Status.

#ifndef BASALT_CLIENT_THRIFT2_ERRORS_H_
#define BASALT_CLIENT_THRIFT2_ERRORS_H_

#include <string_view>

#include "basalt/status.h"

namespace basalt::client::remote {

struct CallFailure {
  Status status;
  // False when the connection can no longer be trusted (transport or protocol failure).
  bool connection_usable;
};

// REQUIRES: called inside a catch block. Maps:
//   TIOError          -> the Status class named at the start of the message by a basalt server
//                        ("NotFound: ..."), or guessed from HBase's exception names
//                        (TableNotFoundException -> NotFound, ...); otherwise IOError;
//   TIllegalArgument  -> InvalidArgument;
//   TApplicationException -> NotSupported for an unknown method, else IOError;
//   transport and protocol failures, anything else -> IOError.
CallFailure TranslateCurrentException();

// Whether `s` is what TranslateCurrentException made of a TApplicationException other than an
// unknown method: the server failed on the request without saying why (HBase's gateway answers
// so when converting the request threw, e.g. on a filter string its parser refuses).
bool IsServerFailure(const Status& s);

// Whether `s` is a failure of the connection (transport, protocol, connecting) rather than an
// answer of the server.
bool IsTransportFailure(const Status& s);

// Whether `s` is a basalt server's refusal of the Thrift2 call `method` (getMultiple,
// getScannerResults) because the rows asked for pass its cap on one call's results
// (server/thrift2/handler.cc); fewer rows per call, or a server-side scanner, succeed.
bool IsTooLargeForOneCall(const Status& s, std::string_view method);

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_ERRORS_H_
