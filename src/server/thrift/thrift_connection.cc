#include "server/thrift/thrift_connection.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

#include "server/thrift/thrift_server.h"

namespace basalt::server {

namespace {

// Reads one connection may take in one turn before the thread serves another: a client that
// keeps sending cannot keep a thread to itself.
constexpr int kReadsPerTurn = 8;
// Answers of pipelined requests are sent once they add up to this, and at the end of a read.
constexpr size_t kSendAtBytes = 1024 * 1024;

int32_t FrameLength(const uint8_t* p) {
  return static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) |
                              (uint32_t{p[2]} << 8) | uint32_t{p[3]});
}

void PutFrameLength(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

}  // namespace

ServingThread::ServingThread(const ConnectionSetup& setup)
    : read_buffer_(new uint8_t[kReadBytes]),
      request_(std::make_shared<RequestTransport>(setup.config)),
      answers_(std::make_shared<AnswerTransport>()),
      in_(setup.protocols->getProtocol(request_)),
      out_(setup.protocols->getProtocol(answers_)) {}

uint8_t* ThriftConnection::Held::Reserve(size_t n) {
  if (start_ + size_ + n <= capacity_) return data_.get() + start_ + size_;
  if (size_ + n <= capacity_) {
    std::memmove(data_.get(), data_.get() + start_, size_);
  } else {
    // Grows with what arrives, never with what a request declares.
    const size_t capacity = std::max(size_ + n, capacity_ * 2);
    std::unique_ptr<uint8_t[]> bigger(new uint8_t[capacity]);
    if (size_ > 0) std::memcpy(bigger.get(), data_.get() + start_, size_);
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  start_ = 0;
  return data_.get() + size_;
}

void ThriftConnection::Held::Consume(size_t n) {
  start_ += n;
  size_ -= n;
  if (size_ == 0) {
    data_.reset();
    start_ = 0;
    capacity_ = 0;
  }
}

ThriftConnection::ThriftConnection(int fd, std::string client, const ConnectionSetup& setup,
                                   ConnectionTable& table)
    : ServedConnection(fd, std::move(client)),
      setup_(setup),
      table_(table),
      scanner_(setup.compact, setup.caps) {}

ThriftConnection::~ThriftConnection() = default;

ThriftConnection::Next ThriftConnection::Serve(ServingThreadState& state) {
  // The only state this server's threads have (ThriftServer's NewThreadState).
  auto& thread = static_cast<ServingThread&>(state);
  bool failed = false;
  while (true) {
    if (closing()) {
      // Answers already made still go out if the socket takes them now (a graceful stop).
      if (!unsent_.empty()) SendUnsent(&failed);
      return Next::kClose;
    }
    if (!unsent_.empty() && !SendUnsent(&failed)) {
      ReportHeld();
      return failed ? Next::kClose : Next::kWrite;
    }
    if (answers_waiting_) {
      // Requests read in an earlier turn, whose answering stopped for the socket to drain.
      answers_waiting_ = false;
      size_t used = 0;
      const Answered answered = AnswerRequests(thread, unread_.data(), unread_.size(), &used);
      unread_.Consume(used);
      if (!SendAnswers(thread) || answered == Answered::kClose) return Next::kClose;
      if (answered == Answered::kSendBlocked || !unsent_.empty()) {
        answers_waiting_ = answered == Answered::kSendBlocked;
        ReportHeld();
        return Next::kWrite;
      }
    }
    for (int reads = 0;; ++reads) {
      if (reads == kReadsPerTurn) {
        ReportHeld();
        return Next::kRead;  // the socket is still ready: epoll hands it out again
      }
      uint8_t* buffer = thread.read_buffer_.get();
      const ssize_t n = ::recv(fd(), buffer, ServingThread::kReadBytes, 0);
      if (n == 0) return Next::kClose;
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        return Next::kClose;
      }
      last_io_ns.store(SteadyNowNs(), std::memory_order_relaxed);
      if (setup_.spin != nullptr) setup_.spin->NoteCall(this);
      // The bytes from the start of the first request not yet answered.
      const uint8_t* data = buffer;
      size_t size = static_cast<size_t>(n);
      const bool held = !unread_.empty();
      if (held) {
        unread_.Append(buffer, size);
        data = unread_.data();
        size = unread_.size();
      }
      size_t used = 0;
      const Answered answered = AnswerRequests(thread, data, size, &used);
      if (answered == Answered::kClose) {
        SendAnswers(thread);  // the answers before the bad request
        return Next::kClose;
      }
      if (held) {
        unread_.Consume(used);
      } else if (used < size) {
        unread_.Append(data + used, size - used);
      }
      if (!SendAnswers(thread)) return Next::kClose;
      if (answered == Answered::kSendBlocked || !unsent_.empty()) {
        answers_waiting_ = answered == Answered::kSendBlocked;
        ReportHeld();
        return Next::kWrite;
      }
      if (closing()) return Next::kClose;
      if (static_cast<size_t>(n) < ServingThread::kReadBytes) break;  // drained, most likely
    }
    ReportHeld();
    // Idle: a client that has just been answered usually calls again within microseconds.
    if (setup_.spin != nullptr && unread_.empty() && setup_.spin->AwaitData(fd(), this)) {
      continue;
    }
    return Next::kRead;
  }
}

ThriftConnection::Answered ThriftConnection::AnswerRequests(ServingThread& thread,
                                                            const uint8_t* data, size_t size,
                                                            size_t* used) {
  size_t at = 0;
  *used = 0;
  while (at < size) {
    const uint8_t* p = data + at;
    const size_t left = size - at;
    size_t begin = 0, length = 0, total = 0;
    if (setup_.framed) {
      if (left < 4) break;
      const int32_t frame = FrameLength(p);
      if (frame <= 0 || frame > setup_.max_frame_bytes) {
        spdlog::debug("{}: closed a connection of {}: a frame of {} bytes (at most {})",
                      setup_.server, client(), frame, setup_.max_frame_bytes);
        return Answered::kClose;
      }
      if (left < 4 + static_cast<size_t>(frame)) break;
      begin = 4;
      length = static_cast<size_t>(frame);
      total = 4 + length;
    } else {
      const MessageScanner::Result r = scanner_.Scan(p, left);
      if (r == MessageScanner::Result::kIncomplete) break;
      if (r == MessageScanner::Result::kRefused) {
        spdlog::debug("{}: closed a connection of {}: {}", setup_.server, client(),
                      scanner_.error());
        return Answered::kClose;
      }
      length = total = scanner_.length();
      scanner_.Reset();
    }
    if (!Process(thread, p + begin, length)) return Answered::kClose;
    at += total;
    *used = at;
    last_request_ns.store(SteadyNowNs(), std::memory_order_relaxed);
    if (closing()) return Answered::kAll;
    if (thread.answers_->size() >= kSendAtBytes) {
      if (!SendAnswers(thread)) return Answered::kClose;
      if (!unsent_.empty()) return Answered::kSendBlocked;
    }
  }
  return Answered::kAll;
}

bool ThriftConnection::Process(ServingThread& thread, const uint8_t* request, size_t size) {
  if (processor_ == nullptr) {
    apache::thrift::TConnectionInfo info;
    info.transport = std::make_shared<ClientAddressTransport>(client(), setup_.config);
    processor_ = setup_.processors->getProcessor(info);
  }
  thread.request_->Reset(request, size);
  AnswerTransport& answers = *thread.answers_;
  const size_t mark = answers.size();
  if (setup_.framed) {
    const uint8_t length[4] = {0, 0, 0, 0};
    answers.write(length, 4);
  }
  try {
    if (!processor_->process(thread.in_, thread.out_, nullptr)) {
      answers.Truncate(mark);
      return false;
    }
  } catch (const std::exception& e) {
    // A malformed message (Thrift's protocol or transport errors): the connection ends, as
    // Thrift's own servers end it.
    spdlog::debug("{}: closed a connection of {}: {}", setup_.server, client(), e.what());
    answers.Truncate(mark);
    return false;
  }
  if (setup_.framed) {
    const size_t answer = answers.size() - mark - 4;
    if (answer == 0) {
      answers.Truncate(mark);  // a oneway call
    } else {
      PutFrameLength(answers.mutable_data() + mark, static_cast<uint32_t>(answer));
    }
  }
  return true;
}

bool ThriftConnection::SendAnswers(ServingThread& thread) {
  AnswerTransport& answers = *thread.answers_;
  const size_t total = answers.size();
  if (total == 0) return true;
  size_t sent = 0;
  bool ok = true;
  if (unsent_.empty()) {
    while (sent < total) {
      const ssize_t n = ::send(fd(), answers.data() + sent, total - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<size_t>(n);
        setup_.answer_writes->fetch_add(1, std::memory_order_relaxed);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        break;
      } else {
        ok = false;
        break;
      }
    }
    if (sent > 0) last_io_ns.store(SteadyNowNs(), std::memory_order_relaxed);
  }
  if (ok && sent < total) unsent_.Append(answers.data() + sent, total - sent);
  answers.Clear();
  return ok;
}

bool ThriftConnection::SendUnsent(bool* failed) {
  *failed = false;
  while (!unsent_.empty()) {
    const ssize_t n = ::send(fd(), unsent_.data(), unsent_.size(), MSG_NOSIGNAL);
    if (n > 0) {
      unsent_.Consume(static_cast<size_t>(n));
      setup_.answer_writes->fetch_add(1, std::memory_order_relaxed);
      last_io_ns.store(SteadyNowNs(), std::memory_order_relaxed);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return false;
    } else {
      *failed = true;
      return false;
    }
  }
  return true;
}

void ThriftConnection::ReportHeld() {
  const size_t held = unread_.capacity() + unsent_.capacity();
  if (held == reported_held_) return;
  reported_held_ = held;
  table_.NoteBuffered(this, held);
}

}  // namespace basalt::server
