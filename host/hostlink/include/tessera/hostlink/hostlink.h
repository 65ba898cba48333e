// The host end of the tessera machine's host link: messages that threads
// send to tinselHostId() leave QEMU on a chardev in the framing of
// docs/mailbox.md ("Host link"), and messages the host writes there are
// delivered to threads. The framing itself is the model library's codec
// (tessera/models/hostlink.h), shared with the QEMU wrapper.
#pragma once

#include <stdint.h>

#include <array>
#include <optional>
#include <string>

#include "tessera/hw/regs.h"

namespace tessera::hostlink {

inline constexpr uint32_t kBytesPerFlit = TESSERA_BYTES_PER_FLIT;
inline constexpr uint32_t kMaxFlits = TESSERA_MAX_FLITS;
inline constexpr uint32_t kHeaderBytes = TESSERA_HOSTLINK_HEADER_BYTES;

struct Message {
  uint32_t thread = 0;  // source (to the host) or destination (from it)
  uint32_t flits = 1;   // 1..4
  uint64_t cycle = 0;   // modelled cycle of the send (0 from the host)
  std::array<uint32_t, kMaxFlits * kBytesPerFlit / 4> words{};
};

// Encodes a message as it travels on the link.
std::string encode(const Message& m);

// Decodes one message from the start of `bytes`; returns how many bytes it
// used, or 0 if `bytes` does not hold a whole message yet. Throws
// std::invalid_argument for a header no machine would send.
size_t decode(const std::string& bytes, Message& out);

// The control frame that says the host has finished sending.
std::string encode_end_of_input();

class Connection;

// A Unix socket the machine connects to: QEMU with
// -chardev socket,id=hostlink,path=<path>,server=off (tessera-host's way:
// QEMU then prints nothing while it waits for the host).
class Listener {
 public:
  // Listens at `path` (which must not exist). Throws std::runtime_error.
  explicit Listener(const std::string& path);
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  ~Listener();  // closes the socket and removes `path`

  // The machine's connection, or std::nullopt if none came within timeout_ms.
  std::optional<Connection> accept(int timeout_ms);

 private:
  std::string path_;
  int fd_;
};

// A connection to the machine's host link.
class Connection {
 public:
  // Connects to a QEMU chardev socket server (server=on) at `path`,
  // retrying for up to `timeout_ms`.
  static std::optional<Connection> connect(const std::string& path, int timeout_ms);
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  void send(const Message& m);
  // Sends m if the connection can take it now without waiting; false if it cannot.
  bool try_send(const Message& m);
  // Writes text as it is (a monitor command, on a connection to QEMU's monitor).
  void write_text(const std::string& text);
  // Reads until `marker` has arrived (true), or the peer has gone (false).
  bool read_until(const std::string& marker);
  // Says the host has finished sending, so that a machine whose harts all
  // wait for the host reports a deadlock instead of waiting forever
  // (docs/debugging.md). Sending again afterwards is allowed.
  void finish_sending();
  // Blocks for the next message; std::nullopt once the machine has gone.
  std::optional<Message> receive();

 private:
  friend class Listener;
  explicit Connection(int fd) : fd_(fd) {}
  void write_all(const std::string& bytes);
  int fd_;
  std::string pending_;
};

// The exit status of the machine's process from waitpid's status: its exit code, or 128 plus
// the signal that killed it, as a shell reports it.
int exit_status(int wait_status);

}  // namespace tessera::hostlink
