// Base64 (RFC 4648, standard alphabet, padded), as HBase's REST JSON carries bytes.

#ifndef BASALT_SERVER_REST_BASE64_H_
#define BASALT_SERVER_REST_BASE64_H_

#include <string>
#include <string_view>

#include "basalt/status.h"

namespace basalt::server::rest {

std::string Base64Encode(std::string_view bytes);

// Strict: standard alphabet, length a multiple of 4, '=' only as padding. InvalidArgument
// otherwise, naming `what` ("row key", "value", ...).
Result<std::string> Base64Decode(std::string_view text, std::string_view what);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_BASE64_H_
