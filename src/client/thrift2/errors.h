// The one place where the remote backend turns what a Thrift call threw into a basalt Status.

#ifndef BASALT_CLIENT_THRIFT2_ERRORS_H_
#define BASALT_CLIENT_THRIFT2_ERRORS_H_

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

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_ERRORS_H_
