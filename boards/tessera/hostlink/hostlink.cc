#include "tessera/hostlink/hostlink.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace tessera::hostlink {
namespace {

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; i++) {
    out.push_back(static_cast<char>(value >> (8 * i)));
  }
}

uint64_t get_le(const std::string& in, size_t at, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; i--) {
    value = value << 8 | static_cast<uint8_t>(in[at + i]);
  }
  return value;
}

}  // namespace

std::string encode(const Message& m) {
  if (m.flits < 1 || m.flits > kMaxFlits) {
    throw std::invalid_argument("a message has 1..4 flits, not " + std::to_string(m.flits));
  }
  std::string out;
  put_le(out, m.thread, 4);
  put_le(out, m.flits, 4);
  put_le(out, m.cycle, 8);
  for (uint32_t w = 0; w < m.flits * kBytesPerFlit / 4; w++) {
    put_le(out, m.words[w], 4);
  }
  return out;
}

size_t decode(const std::string& bytes, Message& out) {
  if (bytes.size() < kHeaderBytes) {
    return 0;
  }
  const uint32_t flits = static_cast<uint32_t>(get_le(bytes, 4, 4));
  if (flits < 1 || flits > kMaxFlits) {
    throw std::invalid_argument("host link frame with " + std::to_string(flits) + " flits");
  }
  const size_t size = kHeaderBytes + flits * kBytesPerFlit;
  if (bytes.size() < size) {
    return 0;
  }
  out = Message{};
  out.thread = static_cast<uint32_t>(get_le(bytes, 0, 4));
  out.flits = flits;
  out.cycle = get_le(bytes, 8, 8);
  for (uint32_t w = 0; w < flits * kBytesPerFlit / 4; w++) {
    out.words[w] = static_cast<uint32_t>(get_le(bytes, kHeaderBytes + 4 * w, 4));
  }
  return size;
}

std::optional<Connection> Connection::connect(const std::string& path, int timeout_ms) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) {
    throw std::invalid_argument("socket path too long: " + path);
  }
  memcpy(addr.sun_path, path.c_str(), path.size() + 1);
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
  const std::string bytes = encode(m);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
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

}  // namespace tessera::hostlink
