// The serving machinery of a socket server, whatever its protocol: the listening socket, one
// epoll set of every connection, a fixed pool of threads serving whichever socket is ready,
// accepting, the idle timeout, and a graceful stop. A protocol (Thrift's, thrift/thrift_server.h;
// HBase's native RPC) says what a connection does with the bytes that arrive; this layer knows
// nothing of them.
//
// A connection holds no thread. Every serving thread waits on the whole epoll set; a ready
// socket goes to one thread at a time (EPOLLONESHOT), which calls the connection's Serve and,
// as Serve says, hands the socket back to epoll to wait for bytes in or room out, or closes it.
// A long call holds its one thread while the others serve every other connection.
//
// The connections are held in a ConnectionTable (connection_table.h), which applies the caps
// (in all, per client address, bytes held), makes room when full, and closes those idle past
// read_timeout. When the process is out of file descriptors, accepting pauses for a moment
// instead of waking a thread without end. Polling a socket for the next request before going
// back to epoll (arrival_spin.h) is the protocol's business: its connections share an ArrivalSpin
// it owns.

#ifndef BASALT_SERVER_NET_EVENT_SERVER_H_
#define BASALT_SERVER_NET_EVENT_SERVER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "basalt/status.h"
#include "server/net/connection_table.h"

namespace basalt::server {

struct EventServerOptions {
  // Prefixes errors, log lines and the serving threads' names ("thrift2").
  std::string name;
  // Address to listen on, a name or numeric ("::" takes IPv4 clients too); empty: the wildcard.
  std::string bind_address = "0.0.0.0";
  // TCP port; 0 picks a free one (read it with port()).
  int port = 0;
  // Threads serving connections: the most Serve calls in progress at once. At least one.
  int worker_threads = 1;
  // The connection table's caps (connection_table.h); 0 means none.
  size_t max_connections = 0;
  size_t max_connections_per_client = 0;
  size_t max_buffered_bytes = 0;
  // A connection with no byte in or out for this long, and not being served, is closed. Zero:
  // never.
  std::chrono::milliseconds read_timeout{0};
  // How often the reaper closes idle connections, calls ConnectionProtocol::OnReap and takes up
  // accepting again after a pause: the idle timeout's precision.
  std::chrono::milliseconds reap_period{1000};
};

// What one serving thread lends every connection it serves (read buffers, encoders): made once
// per thread, used by that thread only, destroyed when the thread ends (in Stop).
class ServingThreadState {
 public:
  virtual ~ServingThreadState() = default;
};

// One accepted connection. The server owns it from NewConnection on and deletes it after
// closing its socket.
class ServedConnection : public TrackedConnection {
 public:
  using TrackedConnection::TrackedConnection;
  virtual ~ServedConnection() = default;

  // What the connection waits for next.
  enum class Next { kRead, kWrite, kClose };

  // Serves the ready socket without blocking: reads what arrived, answers, sends; says what to
  // wait for. kClose: the server removes the connection from the table, closes the socket and
  // deletes it. Called by one thread at a time (never concurrently for one connection), with
  // the state of the calling thread; the server marks the connection busy meanwhile, so the
  // table neither sheds it nor closes it as idle. A connection the table marks closing is
  // closed once Serve returns. Serve keeps last_io_ns and last_request_ns up to date: the idle
  // timeout and the table's shedding read them.
  virtual Next Serve(ServingThreadState& thread) = 0;
};

// What one protocol gives the server. Must outlive the server's Stop.
class ConnectionProtocol {
 public:
  virtual ~ConnectionProtocol() = default;

  // Called once on each serving thread as it starts, before it serves anything.
  virtual std::unique_ptr<ServingThreadState> NewThreadState() = 0;
  // A connection for the accepted socket `fd` (non-blocking, TCP_NODELAY) of `client_address`
  // (numeric; an IPv4 peer of a dual-stack socket as IPv4). `table` holds the server's
  // connections; the connection reports the bytes it holds to it. Called on a serving thread;
  // never null. The table may then refuse it (the server closes and deletes it, unserved).
  virtual std::unique_ptr<ServedConnection> NewConnection(int fd, std::string client_address,
                                                          ConnectionTable& table) = 0;
  // Called by the reaper thread every reap_period, while the server runs (e.g. to expire
  // scanners).
  virtual void OnReap() {}
};

// Thread safety: Listen, Start and Stop from one thread; port(), connections() and
// connections_shed() from any.
class EventServer {
 public:
  EventServer(EventServerOptions options, ConnectionProtocol& protocol);
  // Stops the server if it is running.
  ~EventServer();

  EventServer(const EventServer&) = delete;
  EventServer& operator=(const EventServer&) = delete;

  // Binds and listens; port() is known from then on, but nothing is accepted before Start.
  // IOError when the address cannot be bound. Optional: Start listens if this was not called.
  Status Listen();
  // Starts serving on background threads and returns. IOError when the socket cannot be bound
  // or epoll set up; FailedPrecondition when already started. One Start per server.
  Status Start();
  // Graceful: stops accepting, closes the idle connections, waits up to 5 s for those being
  // served to finish their Serve (each is closed once it returns), then closes the rest; returns
  // when every thread has ended and every connection is closed and deleted, and the port is
  // free. OnReap is not called after. Idempotent; does nothing before Start (a port Listen bound is
  // freed by the destructor).
  void Stop();

  // The bound port (the chosen one when options.port is 0); 0 before Listen and after Stop.
  int port() const;
  // Connections open now; those closed to make room or for the bytes cap since Start.
  size_t connections() const;
  uint64_t connections_shed() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace basalt::server

#endif  // BASALT_SERVER_NET_EVENT_SERVER_H_
