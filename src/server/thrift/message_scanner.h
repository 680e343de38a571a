// Where one Thrift message ends in the bytes of a buffered (unframed) connection, found before
// the message is decoded.
//
// A buffered connection sends messages back to back with no length in front, so the server
// learns where a request ends only by walking its structure: the message header, then the
// argument struct, field by field, down every nested struct, list, set and map. The scanner does
// that walk over the bytes that have arrived, as Thrift's own skip() would, without decoding a
// value or allocating for one, and stops where the bytes run out; given the same bytes again
// with more behind them, it goes on from where it stopped (so a request arriving in many pieces
// is walked once, not once per piece). The server decodes a request only once it is whole.
//
// The walk refuses, as soon as it sees them, what the server's protocols (growing_protocol.h)
// would refuse while decoding: a bad protocol id or version, a method name over 256 bytes or
// (in an unversioned binary message) one that is not an identifier, a message type other than
// a call, a string or a message over the message cap, a negative size, a list, set or map
// declaring more elements than the list cap or than the rest of the message could hold, a type
// code Thrift does not know, and nesting deeper than 64. So a connection of the wrong protocol,
// or one declaring what it never sends, is refused at once, without waiting for the bytes.
//
// Thread safety: none; one scanner per connection.

#ifndef BASALT_SERVER_THRIFT_MESSAGE_SCANNER_H_
#define BASALT_SERVER_THRIFT_MESSAGE_SCANNER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace basalt::server {

// Longer than any method name of THBaseService (the longest has 32 characters) or Hbase (31).
inline constexpr int32_t kMaxMethodNameBytes = 256;
// Thrift's default recursion limit (TProtocol's recursion_limit_).
inline constexpr size_t kMaxMessageNesting = 64;

struct MessageCaps {
  // The largest message, and so the largest string, in bytes.
  int32_t max_message_bytes = 100 * 1024 * 1024;
  // The most elements one list, set or map may declare.
  int32_t max_list_elements = 100000;
};

class MessageScanner {
 public:
  // `compact`: TCompactProtocol; else TBinaryProtocol (lenient reads: unversioned messages too).
  MessageScanner(bool compact, MessageCaps caps);

  enum class Result {
    kIncomplete,  // every byte so far fits a message that has not ended: wait for more
    kComplete,    // a message ends after length() bytes
    kRefused,     // not a message the server accepts: error() says why
  };

  // `data` holds the `size` bytes of the connection from the start of the message being walked:
  // the bytes given at the last call, and perhaps more after them. The bytes past a complete
  // message are not looked at.
  Result Scan(const uint8_t* data, size_t size);

  // Once complete: the message's bytes.
  size_t length() const { return pos_; }
  // Once refused: why, for the log.
  const std::string& error() const { return error_; }
  // Whether any byte of the message being walked has been taken.
  bool started() const { return pos_ > 0; }

  // Forgets the message walked, for the next one.
  void Reset();

 private:
  // What a walk is inside of.
  struct Frame {
    enum Kind : uint8_t { kStruct, kList, kMap } kind;
    int8_t elem;         // list or set: the element type; map: the key type
    int8_t value;        // map: the value type
    bool key_next;       // map: whether the next element is a key
    uint32_t remaining;  // list, set, map: the elements (map: pairs) still to walk
  };

  Result Refuse(std::string why);
  Result ScanHeader(const uint8_t* data, size_t size);
  Result ScanHeaderBinary(const uint8_t* data, size_t size);
  Result ScanHeaderCompact(const uint8_t* data, size_t size);
  // Takes the start of a value of `type` (Thrift's TType), pushing a frame for a struct or a
  // container and setting skip_ for a string.
  Result StartValue(const uint8_t* data, size_t size, int8_t type);
  Result StartContainer(Frame frame, int64_t elements, int64_t min_element_bytes);
  // The next element of the innermost frame: sets pending_, or pops the frame.
  Result NextInFrame(const uint8_t* data, size_t size);
  // Bytes a value of `type` takes at least (Thrift's getMinSerializedSize); -1 if unknown.
  int MinBytes(int8_t type) const;

  const bool compact_;
  const MessageCaps caps_;
  bool header_done_ = false;
  size_t pos_ = 0;       // bytes of the message taken
  uint64_t skip_ = 0;    // bytes of a string still to pass over
  int8_t pending_ = -1;  // the type of the value to walk next; -1: none
  std::vector<Frame> stack_;
  std::string error_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_THRIFT_MESSAGE_SCANNER_H_
