#include "tessera/hostlink/hostlink.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "tessera/models/hostlink.h"

namespace tessera::hostlink {

static_assert(sizeof(Message::words) == kMaxFlits * kBytesPerFlit);

// The payload travels as bytes; Message holds it as little-endian words.
std::string encode(const Message& m) {
  if (!tessera_hostlink_flits_valid(m.flits)) {
    throw std::invalid_argument("a message has 1..4 flits, not " + std::to_string(m.flits));
  }
  uint8_t payload[kMaxFlits * kBytesPerFlit];
  for (uint32_t w = 0; w < m.words.size(); w++) {
    for (uint32_t i = 0; i < 4; i++) {
      payload[4 * w + i] = static_cast<uint8_t>(m.words[w] >> (8 * i));
    }
  }
  const TesseraHostlinkHeader header{m.thread, m.flits, m.cycle};
  uint8_t frame[TESSERA_HOSTLINK_MAX_FRAME_BYTES];
  const size_t size = tessera_hostlink_encode(&header, payload, frame);
  return std::string(reinterpret_cast<const char*>(frame), size);
}

std::string encode_end_of_input() {
  uint8_t frame[TESSERA_HOSTLINK_HEADER_BYTES];
  const size_t size = tessera_hostlink_encode_end_of_input(frame);
  return std::string(reinterpret_cast<const char*>(frame), size);
}

size_t decode(const std::string& bytes, Message& out) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  TesseraHostlinkHeader header;
  switch (tessera_hostlink_decode(data, bytes.size(), &header)) {
    case TESSERA_HOSTLINK_PARTIAL:
      return 0;
    case TESSERA_HOSTLINK_BAD_FLITS:
      throw std::invalid_argument("host link frame with " + std::to_string(header.flits) +
                                  " flits");
    case TESSERA_HOSTLINK_WHOLE:
      break;
  }
  out = Message{};
  out.thread = header.thread;
  out.flits = header.flits;
  out.cycle = header.cycle;
  const uint8_t* payload = data + kHeaderBytes;
  for (uint32_t w = 0; w < header.flits * kBytesPerFlit / 4; w++) {
    out.words[w] = static_cast<uint32_t>(payload[4 * w]) |
                   static_cast<uint32_t>(payload[4 * w + 1]) << 8 |
                   static_cast<uint32_t>(payload[4 * w + 2]) << 16 |
                   static_cast<uint32_t>(payload[4 * w + 3]) << 24;
  }
  return tessera_hostlink_frame_bytes(header.flits);
}

namespace {

sockaddr_un unix_address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) {
    throw std::invalid_argument("socket path too long: " + path);
  }
  memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error(what + ": " + strerror(errno));
}

}  // namespace

Listener::Listener(const std::string& path) : path_(path) {
  sockaddr_un addr = unix_address(path);
  fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) {
    throw system_error("socket");
  }
  if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd_, 1) != 0) {
    const std::runtime_error error = system_error("listen on " + path);
    close(fd_);
    throw error;
  }
}

Listener::~Listener() {
  close(fd_);
  unlink(path_.c_str());
}

std::optional<Connection> Listener::accept(int timeout_ms) {
  pollfd p{fd_, POLLIN, 0};
  const int ready = poll(&p, 1, timeout_ms);
  if (ready < 0 && errno != EINTR) {
    throw system_error("poll");
  }
  if (ready <= 0) {
    return std::nullopt;
  }
  const int fd = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) {
    throw system_error("accept");
  }
  return Connection(fd);
}

std::optional<Connection> Connection::connect(const std::string& path, int timeout_ms) {
  sockaddr_un addr = unix_address(path);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      throw std::runtime_error(std::string("socket: ") + strerror(errno));
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
      return Connection(fd);
    }
    close(fd);
    if (std::chrono::steady_clock::now() > deadline) {
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Connection::Connection(Connection&& other) noexcept
    : fd_(other.fd_), pending_(std::move(other.pending_)) {
  other.fd_ = -1;
}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      close(fd_);
    }
    fd_ = other.fd_;
    pending_ = std::move(other.pending_);
    other.fd_ = -1;
  }
  return *this;
}

Connection::~Connection() {
  if (fd_ >= 0) {
    close(fd_);
  }
}

void Connection::send(const Message& m) {
  write_all(encode(m));
}

bool Connection::try_send(const Message& m) {
  pollfd p{fd_, POLLOUT, 0};
  if (poll(&p, 1, 0) <= 0 || (p.revents & POLLOUT) == 0) {
    return false;
  }
  send(m);
  return true;
}

void Connection::write_text(const std::string& text) {
  write_all(text);
}

bool Connection::read_until(const std::string& marker) {
  while (pending_.find(marker) == std::string::npos) {
    char buffer[1024];
    const ssize_t n = read(fd_, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    pending_.append(buffer, static_cast<size_t>(n));
  }
  pending_.erase(0, pending_.find(marker) + marker.size());
  return true;
}

void Connection::finish_sending() {
  write_all(encode_end_of_input());
}

void Connection::write_all(const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    // MSG_NOSIGNAL: a machine that has gone is an error to report, not SIGPIPE.
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      throw std::runtime_error(std::string("host link write: ") + strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
}

std::optional<Message> Connection::receive() {
  Message m;
  while (true) {
    const size_t used = decode(pending_, m);
    if (used > 0) {
      pending_.erase(0, used);
      return m;
    }
    char buffer[4096];
    const ssize_t n = read(fd_, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return std::nullopt;
    }
    pending_.append(buffer, static_cast<size_t>(n));
  }
}

int exit_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

}  // namespace tessera::hostlink
