// Tinsel's HostLink over the emulated machine: a QEMU child process started through
// boards/tessera/qemu-cmd.sh (the one place that forms its command line), its host link on a
// private Unix socket (tessera/hostlink/hostlink.h), its console on a pipe (console-ids=on gives
// each line its thread id), and its monitor on a second socket, for go().
//
// Or, with TESSERA_HOSTLINK_BOARD=<board>, over a dev board's QEMU model (docs/boards.md): the
// preload file goes into the image (its .tessera_preload section), the board runs from the start,
// and its threads' messages to the host come on its console, one line each. With
// TESSERA_HOSTLINK_BOARD_PORT=<serial port> as well, over the real board: the image is flashed
// (boards/board.sh flash), and the console is read from the board's serial port.
#define TESSERA_HOSTLINK_LIBRARY
#include "HostLink.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "host_side.h"
#include "hostlink_internal.h"
#include "tessera/hostlink/hostlink.h"
#include "tessera/hostlink/image_files.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"

using tessera::tinsel_hostlink::fail;
using tessera::tinsel_hostlink::kBytesPerFlit;
using tessera::tinsel_hostlink::kBytesPerMsg;

namespace {

using tessera::hostlink::Connection;
using tessera::hostlink::exit_status;
using tessera::hostlink::Listener;
using tessera::hostlink::Message;

constexpr int kStartTimeoutMs = 120000;

// QEMU processes of live HostLinks: a program that calls exit() skips the destructors of its
// objects, and its machines must still end with it.
std::mutex live_mutex;
std::set<pid_t> live_machines;

void stop_live_machines() {
  std::lock_guard lock(live_mutex);
  for (const pid_t pid : live_machines) {
    kill(pid, SIGKILL);
  }
}

}  // namespace

struct HostLink::Machine final : tessera::tinsel_hostlink::HostSide {
  std::string qemu, qemu_cmd;

  std::string board;     // a dev board's name (TESSERA_HOSTLINK_BOARD), or empty: -M tessera
  std::string board_sh;  // boards/board.sh
  std::string port;      // the real board's serial port (TESSERA_HOSTLINK_BOARD_PORT), or empty
  std::string ranks;     // QEMU processes under mpirun (TESSERA_RANKS), or empty: one
  std::atomic<bool> stopping{false};

  std::string dir;  // private directory: sockets, the image
  pid_t pid = -1;
  std::optional<Connection> link;
  std::optional<Connection> monitor;
  int console_fd = -1;
  std::thread receiver, console_reader;
  std::vector<Message> send_buffer;
  // Bytes for threads' partitions (tesseraLoadHeapSRAM), handed to the machine as a preload file
  // (tessera/models/preload.h) when it starts.
  struct Preload {
    uint32_t thread_id;
    uint32_t offset;
    std::string bytes;
  };
  std::vector<Preload> preload;

  // Under mutex (HostSide's):
  bool link_closed = false, console_closed = false;
  std::optional<int> status;  // the machine's exit status, once it has ended

  ~Machine() override { stop(); }

  // "0x<id>: text" as the machine prints it with console-ids=on.
  std::string tinsel_line(const std::string& line) const {
    const size_t colon = line.find(": ");
    if (line.compare(0, 2, "0x") == 0 && colon != std::string::npos) {
      try {
        return tinsel_prefix(
                   static_cast<uint32_t>(std::stoul(line.substr(2, colon - 2), nullptr, 16))) +
               line.substr(colon + 2);
      } catch (const std::exception&) {
      }
    }
    return line;
  }

  void receive_messages() {
    std::optional<Message> m;
    try {
      while ((m = link->receive())) {
        std::lock_guard lock(mutex);
        take_message(m->flits, m->words.data());
      }
    } catch (const std::exception& e) {
      fprintf(stderr, "HostLink: %s\n", e.what());
    }
    std::lock_guard lock(mutex);
    link_closed = true;
    changed.notify_all();
  }

  void read_console() {
    std::string pending;
    char buffer[4096];
    while (true) {
      const ssize_t n = read(console_fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      pending.append(buffer, static_cast<size_t>(n));
      size_t newline;
      while ((newline = pending.find('\n')) != std::string::npos) {
        take_console_line(tinsel_line(pending.substr(0, newline)));
        pending.erase(0, newline + 1);
      }
    }
    // Both outputs are closed: the machine has ended; collect its status.
    int wait_status = 0;
    const int result = waitpid(pid, &wait_status, 0);
    std::lock_guard lock(mutex);
    if (!pending.empty()) take_line(tinsel_line(pending));
    console_closed = true;
    status = result == pid ? exit_status(wait_status) : 1;
    changed.notify_all();
  }

  // One console line: a board thread's message to the host, or text for pollStdOut.
  void take_console_line(std::string line) {
    std::lock_guard lock(mutex);
    if (Message message; !board.empty() && board_message(line, &message)) {
      take_message(message.flits, message.words.data());
      return;
    }
    take_line(std::move(line));
  }

  // A real board's serial port never closes: its run ends with the services' last line,
  // "tessera-board: exit status N" (boards/services/sifive_board.cc).
  void read_port() {
    static const std::string kExit = "tessera-board: exit status ";
    std::string pending;
    char buffer[4096];
    while (!stopping) {
      pollfd ready{console_fd, POLLIN, 0};
      if (poll(&ready, 1, 100) <= 0) continue;
      const ssize_t n = read(console_fd, buffer, sizeof buffer);
      if (n <= 0) {
        if (n < 0 && errno != EINTR && errno != EAGAIN) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // no writer yet
        continue;
      }
      pending.append(buffer, static_cast<size_t>(n));
      size_t newline;
      while ((newline = pending.find('\n')) != std::string::npos) {
        std::string line = pending.substr(0, newline);
        pending.erase(0, newline + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.compare(0, kExit.size(), kExit) == 0) {
          std::lock_guard lock(mutex);
          status = atoi(line.c_str() + kExit.size());
          console_closed = true;
          changed.notify_all();
          return;
        }
        take_console_line(std::move(line));
      }
    }
    std::lock_guard lock(mutex);
    console_closed = true;
    changed.notify_all();
  }

  bool ended() const override { return console_closed && link_closed; }
  bool running() const override { return started || !board.empty(); }  // a board runs at once

  int final_status() override {
    std::lock_guard lock(mutex);
    return status.value_or(1);
  }

  void write_preload(const std::string& path) const {
    std::string file;
    const auto word = [&](uint32_t w) {
      for (int i = 0; i < 4; i++) file.push_back(static_cast<char>(w >> (8 * i)));
    };
    word(TESSERA_PRELOAD_MAGIC);
    word(TESSERA_PRELOAD_VERSION);
    word(static_cast<uint32_t>(preload.size()));
    for (const Preload& p : preload) {
      word(p.thread_id);
      word(p.offset);
      word(static_cast<uint32_t>(p.bytes.size()));
      file += p.bytes;
      file.append((4 - p.bytes.size() % 4) % 4, '\0');
    }
    FILE* f = fopen(path.c_str(), "wb");
    if (f == nullptr || fwrite(file.data(), 1, file.size(), f) != file.size() || fclose(f) != 0) {
      fail("cannot write the preload file " + path + ": " + strerror(errno));
    }
  }

  void start(const std::string& elf) {
    char dir_template[] = "/tmp/hostlink.XXXXXX";
    if (!mkdtemp(dir_template)) fail(std::string("mkdtemp: ") + strerror(errno));
    dir = dir_template;
    Listener link_listener(dir + "/hostlink.sock");
    Listener monitor_listener(dir + "/monitor.sock");
    int console[2];
    if (pipe2(console, O_CLOEXEC) != 0) fail(std::string("pipe: ") + strerror(errno));

    std::string machine_properties = properties + ",console-ids=on,hostlink=hostlink";
    if (!preload.empty()) {
      write_preload(dir + "/preload.bin");
      machine_properties += ",preload=" + dir + "/preload.bin";
    }
    std::vector<std::string> args = {qemu_cmd};
    if (!ranks.empty()) {
      args.insert(args.end(), {"--ranks", ranks});
    }
    args.insert(args.end(), {
        qemu, elf, machine_properties, "--",
        // Stopped until go(), which continues it through the monitor.
        "-S", "-chardev", "socket,id=hostlink,path=" + dir + "/hostlink.sock,server=off",
        "-chardev", "socket,id=monitor,path=" + dir + "/monitor.sock,server=off", "-mon",
        "chardev=monitor,mode=readline"});
    pid = spawn(args, console[1]);
    close(console[1]);
    console_fd = console[0];

    for (int waited = 0; !link || !monitor; waited += 100) {
      int wait_status = 0;
      if (waitpid(pid, &wait_status, WNOHANG) == pid) {
        forget_pid();
        fail("the machine did not start (QEMU exited with status " +
                 std::to_string(exit_status(wait_status)) + "; its reason is above)",
             EXIT_FAILURE);
      }
      if (waited > kStartTimeoutMs) fail("the machine did not connect within 120 s");
      if (!link) link = link_listener.accept(50);
      if (!monitor) monitor = monitor_listener.accept(50);
    }
    // The monitor answers only once the machine is built: an image it refuses ends QEMU first.
    bool up = false;
    try {
      monitor->write_text("info status\n");
      up = monitor->read_until("VM status");
    } catch (const std::exception&) {
    }
    if (!up) {
      int wait_status = 0;
      waitpid(pid, &wait_status, 0);
      forget_pid();
      fail("the machine did not start (QEMU exited with status " +
           std::to_string(exit_status(wait_status)) + "; its reason is above)");
    }
    receiver = std::thread([this] { receive_messages(); });
    console_reader = std::thread([this] { read_console(); });
  }

  // A dev board (docs/boards.md): the image with the preload file in its .tessera_preload
  // section, booted on the board's QEMU model through boards/board.sh, which runs it at once. The
  // boards' models are in the normal QEMU build, beside the sanitizer one.
  void start_board(const std::string& elf) {
    char dir_template[] = "/tmp/hostlink.XXXXXX";
    if (!mkdtemp(dir_template)) fail(std::string("mkdtemp: ") + strerror(errno));
    dir = dir_template;
    std::string image = elf;
    if (!preload.empty()) {
      write_preload(dir + "/preload.bin");
      image = dir + "/image.elf";
      run({"riscv64-unknown-elf-objcopy", "--update-section",
           ".tessera_preload=" + dir + "/preload.bin", elf, image},
          "build the preload into " + elf);
    }
    if (!port.empty()) {
      start_on_board(image);
      return;
    }
    std::string qemu_dir = std::filesystem::path(qemu).parent_path().string();
    if (std::filesystem::path(qemu_dir).filename() == "qemu-asan") {
      qemu_dir = (std::filesystem::path(qemu_dir).parent_path() / "qemu").string();
    }
    int console[2];
    if (pipe2(console, O_CLOEXEC) != 0) fail(std::string("pipe: ") + strerror(errno));
    pid = spawn({board_sh, "qemu", board, qemu_dir, image}, console[1]);
    close(console[1]);
    console_fd = console[0];
    link_closed = true;  // a board's messages come on its console
    console_reader = std::thread([this] { read_console(); });
  }

  // The real board on `port`: its console is opened first, so that nothing it prints after the
  // flash's reset is lost; then the image is flashed, which prints the OpenOCD invocation.
  void start_on_board(const std::string& image) {
    console_fd = open(port.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (console_fd < 0) {
      fail("cannot open the " + board + " board's serial port " + port + ": " + strerror(errno) +
           " (docs/boards.md)");
    }
    if (isatty(console_fd)) configure_port();
    run({board_sh, "flash", board, image}, "flash the image onto the " + board + " board");
    link_closed = true;  // a board's messages come on its console
    console_reader = std::thread([this] { read_port(); });
  }

  // Raw input at the board's baud rate (its board.env, through boards/board.sh serial), with
  // what arrived before the flash dropped.
  void configure_port() {
    const std::string serial = output_of(quoted(board_sh) + " serial " + quoted(board));
    const unsigned long baud = strtoul(serial.substr(serial.find(' ') + 1).c_str(), nullptr, 10);
    static const std::map<unsigned long, speed_t> kSpeeds = {
        {9600, B9600},     {19200, B19200},   {38400, B38400},   {57600, B57600},
        {115200, B115200}, {230400, B230400}, {460800, B460800}, {921600, B921600}};
    const auto speed = kSpeeds.find(baud);
    termios tty{};
    if (speed == kSpeeds.end() || tcgetattr(console_fd, &tty) != 0) {
      fail("cannot set up the serial port " + port + " at '" + serial + "'");
    }
    cfmakeraw(&tty);
    tty.c_cflag |= CLOCAL | CREAD;
    cfsetispeed(&tty, speed->second);
    cfsetospeed(&tty, speed->second);
    if (tcsetattr(console_fd, TCSANOW, &tty) != 0) {
      fail("cannot set up the serial port " + port + ": " + strerror(errno));
    }
    tcflush(console_fd, TCIFLUSH);
  }

  // `text` as one word for the shell.
  static std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }

  static std::string output_of(const std::string& command) {
    std::string out;
    if (FILE* p = popen(command.c_str(), "r")) {
      char buffer[256];
      while (fgets(buffer, sizeof buffer, p)) out += buffer;
      pclose(p);
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  // Runs a command to its end; fails with what it was for if it does not succeed.
  void run(std::vector<std::string> args, const std::string& what) {
    const pid_t child = spawn(args, STDERR_FILENO);
    int wait_status = 0;
    waitpid(child, &wait_status, 0);
    forget(child);
    if (exit_status(wait_status) != 0) fail("cannot " + what + " (" + args[0] + " failed)");
  }

  // Starts args with stdin from /dev/null and stdout on out; never outlives this program.
  pid_t spawn(std::vector<std::string> args, int out) {
    std::lock_guard lock(live_mutex);
    const pid_t child = fork();
    if (child < 0) fail(std::string("fork: ") + strerror(errno));
    if (child == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // the machine never outlives its host program
      const int null = open("/dev/null", O_RDONLY);
      dup2(null, STDIN_FILENO);
      dup2(out, STDOUT_FILENO);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp(argv[0], argv.data());
      fprintf(stderr, "HostLink: cannot run %s: %s\n", argv[0], strerror(errno));
      _exit(127);
    }
    live_machines.insert(child);
    return child;
  }

  void forget(pid_t child) {
    std::lock_guard lock(live_mutex);
    live_machines.erase(child);
  }

  // "tessera-board: host 0x<sender> <flits> <word>..." (boards/services/mailbox_service.cc): a
  // board thread's message to the host. False for any other line.
  static bool board_message(const std::string& line, Message* message) {
    static const std::string kPrefix = "tessera-board: host ";
    if (line.compare(0, kPrefix.size(), kPrefix) != 0) return false;
    const char* at = line.c_str() + kPrefix.size();
    char* end = nullptr;
    message->thread = static_cast<uint32_t>(strtoul(at, &end, 16));
    message->flits = static_cast<uint32_t>(strtoul(end, &end, 10));
    if (message->flits < 1 || message->flits > TESSERA_MAX_FLITS) return false;
    for (uint32_t k = 0; k < message->flits * kBytesPerFlit / 4; k++) {
      message->words[k] = static_cast<uint32_t>(strtoul(end, &end, 16));
    }
    return true;
  }

  void forget_pid() {
    std::lock_guard lock(live_mutex);
    live_machines.erase(pid);
  }

  void stop() {
    stopping = true;
    if (!port.empty() && console_reader.joinable()) console_reader.join();
    if (pid > 0) {
      // Over ranks the script passes the signal on to mpirun, which ends every rank.
      kill(pid, ranks.empty() ? SIGKILL : SIGTERM);
      if (console_reader.joinable()) {
        console_reader.join();  // it reaps the process
      } else {
        waitpid(pid, nullptr, 0);
      }
      forget_pid();
      pid = -1;
    }
    link.reset();  // ends the receiver's read
    monitor.reset();
    if (receiver.joinable()) receiver.join();
    if (console_fd >= 0) close(console_fd);
    console_fd = -1;
    if (!dir.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
      dir.clear();
    }
  }

  // Waits until the machine has ended.
  void wait_for_end() {
    std::unique_lock lock(mutex);
    wait_for(lock, [] { return false; });
  }

  // A machine that ended unasked usually said why last (a TRAP line, say): the console lines
  // nobody read are the reason, so the last few go with the error.
  [[noreturn]] void ended_while(const std::string& doing) override {
    std::unique_lock lock(mutex);
    const int code = status.value_or(1);
    std::string why = "the machine ended (status " + std::to_string(code) + ") while " + doing;
    constexpr size_t kLastLines = 8;
    if (!lines.empty()) {
      why += "; its console's last unread lines:";
      for (size_t i = lines.size() > kLastLines ? lines.size() - kLastLines : 0; i < lines.size();
           i++)
        why += "\n  " + lines[i];
    }
    // Not held through exit(): a HostLink destroyed at exit joins threads that take it.
    lock.unlock();
    fail(why, code == 0 ? EXIT_FAILURE : code);
  }
};

HostLink::HostLink(HostLinkParams params, TesseraHostLinkBuild build)
    : machine_(std::make_unique<Machine>()) {
  static const bool registered = atexit(stop_live_machines) == 0;
  (void)registered;
  Machine& m = *machine_;
  m.configure(params, build.machine_properties);
  meshXLen = static_cast<int>(m.shape.boards_x);
  meshYLen = static_cast<int>(m.shape.boards_y);
  if (const char* ranks = getenv("TESSERA_RANKS"); ranks && *ranks && strcmp(ranks, "1") != 0) {
    char* end = nullptr;
    const unsigned long n = strtoul(ranks, &end, 10);
    if (*end != '\0' || n < 1 || n > 65536) {
      fail(std::string("TESSERA_RANKS=") + ranks + ": a number of QEMU processes, 1 or more");
    }
    m.ranks = std::to_string(n);
  }
  const char* qemu = getenv("TESSERA_QEMU");
  m.qemu = qemu && *qemu ? qemu : build.qemu;
  m.qemu_cmd = build.qemu_cmd;
  if (const char* board = getenv("TESSERA_HOSTLINK_BOARD"); board && *board) {
    m.board = board;
    // boards/tessera/qemu-cmd.sh -> boards/board.sh
    m.board_sh =
        (std::filesystem::path(m.qemu_cmd).parent_path().parent_path() / "board.sh").string();
    if (const char* port = getenv("TESSERA_HOSTLINK_BOARD_PORT"); port && *port) m.port = port;
  }
}

void HostLink::tesseraLoadHeapSRAM(uint32_t threadId, const void* data, uint32_t numBytes) {
  Machine& m = *machine_;
  m.check_heap_load(threadId, numBytes);
  m.preload.push_back(
      {threadId, m.partition_bytes / 2, std::string(static_cast<const char*>(data), numBytes)});
}

HostLink::~HostLink() = default;

void HostLink::boot(const char* codeFilename, const char* dataFilename) {
  Machine& m = *machine_;
  if (m.booted) fail("boot() called twice: one HostLink boots one machine");
  m.booted = true;
  if (codeFilename == nullptr) fail("boot() needs a code file");
  std::string elf;
  try {
    if (!m.board.empty()) {
      // A board boots its ELF, which has the section the preload goes into (app.code.v beside
      // app.elf).
      std::string code = codeFilename;
      const std::string suffix = ".code.v";
      if (code.size() > suffix.size() &&
          code.compare(code.size() - suffix.size(), suffix.size(), suffix) == 0) {
        code = code.substr(0, code.size() - suffix.size()) + ".elf";
      }
      if (!tessera::hostlink::is_elf_file(code.c_str())) {
        fail("cannot boot '" + code + "' on the " + m.board + " board: not an ELF image");
      }
      m.start_board(code);
      return;
    }
    if (tessera::hostlink::is_elf_file(codeFilename)) {
      elf = codeFilename;
    } else {
      if (dataFilename == nullptr) fail("boot() needs the data file beside the code file");
      std::vector<tessera::hostlink::Segment> image =
          tessera::hostlink::read_verilog_memory(codeFilename);
      if (image.empty()) fail(std::string("'") + codeFilename + "' holds no code");
      // Harts begin at the lowest code address: the image base, where _start is.
      const uint32_t entry = image.front().address;
      for (auto& s : tessera::hostlink::read_verilog_memory(dataFilename)) {
        image.push_back(std::move(s));
      }
      char dir_template[] = "/tmp/hostlink-image.XXXXXX";
      if (!mkdtemp(dir_template)) fail(std::string("mkdtemp: ") + strerror(errno));
      elf = std::string(dir_template) + "/image.elf";
      tessera::hostlink::write_elf(elf, image, entry);
      m.start(elf);
      std::error_code ignored;
      std::filesystem::remove_all(dir_template, ignored);  // QEMU has loaded it
      return;
    }
  } catch (const std::exception& e) {
    fail(std::string("cannot boot: ") + e.what());
  }
  m.start(elf);
}

void HostLink::go() {
  Machine& m = *machine_;
  if (!m.booted) fail("go() before boot()");
  if (m.started) return;
  m.started = true;
  if (!m.board.empty()) return;  // a board runs from the start
  try {
    m.monitor->write_text("cont\n");
  } catch (const std::exception&) {
    m.wait_for_end();
    m.ended_while("go() started it");
  }
}

bool HostLink::send(uint32_t dest, uint32_t numFlits, void* msg, bool block) {
  Machine& m = *machine_;
  if (numFlits < 1 || numFlits > TESSERA_MAX_FLITS) {
    fail("send() of " + std::to_string(numFlits) + " flits: a message is 1..4 flits");
  }
  if (!m.booted) fail("send() before boot()");
  if (!m.board.empty()) {
    fail("send(): the " + m.board + " board takes no messages from the host (docs/boards.md)");
  }
  Message message;
  message.thread = dest;
  message.flits = numFlits;
  memcpy(message.words.data(), msg, numFlits * kBytesPerFlit);
  if (useSendBuffer) {
    if (!block) fail("trySend() with useSendBuffer set: buffered sends are blocking only");
    m.send_buffer.push_back(message);
    return true;
  }
  try {
    if (!block) return m.link->try_send(message);
    m.link->send(message);
  } catch (const std::exception&) {
    m.wait_for_end();
    m.ended_while("send() wrote to it");
  }
  return true;
}

void HostLink::flush() {
  Machine& m = *machine_;
  std::vector<Message> buffered;
  buffered.swap(m.send_buffer);
  for (const Message& message : buffered) {
    try {
      m.link->send(message);
    } catch (const std::exception&) {
      m.wait_for_end();
      m.ended_while("flush() wrote to it");
    }
  }
}

namespace tessera::tinsel_hostlink {

HostSide& host_side_of(HostLink::Machine& machine) {
  return machine;
}

}  // namespace tessera::tinsel_hostlink
