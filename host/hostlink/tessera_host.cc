// tessera-host: boots a tessera machine with its host link on a private
// Unix socket, sends the messages given with --send to threads, then says
// it has finished sending (so that a machine left waiting for the host
// reports a deadlock), and prints every message threads send to the host.
// Exits with QEMU's status, which is the guest's verdict.
//
//   tessera-host [--send THREAD:WORD,WORD,...]... [--every MS] -- qemu-system-riscv32 ARGS...
//
// --every MS waits MS milliseconds of host time before each message, as a
// host that sends at intervals would.
//
// Each printed line: host <- thread 0x<id> cycle <n>: <words in hex>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tessera/hostlink/hostlink.h"

namespace {

using tessera::hostlink::Connection;
using tessera::hostlink::exit_status;
using tessera::hostlink::Listener;
using tessera::hostlink::Message;

[[noreturn]] void usage(const std::string& why) {
  fprintf(stderr,
          "tessera-host: %s\n"
          "usage: tessera-host [--send THREAD:WORD,WORD,...]... [--every MS] -- "
          "QEMU_COMMAND...\n",
          why.c_str());
  exit(2);
}

Message parse_send(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    usage("--send wants THREAD:WORD,..., not '" + spec + "'");
  }
  Message m;
  std::vector<uint32_t> words;
  try {
    m.thread = static_cast<uint32_t>(std::stoul(spec.substr(0, colon), nullptr, 0));
    size_t at = colon + 1;
    while (at <= spec.size()) {
      const size_t comma = spec.find(',', at);
      const std::string word = spec.substr(at, comma == std::string::npos ? comma : comma - at);
      words.push_back(static_cast<uint32_t>(std::stoul(word, nullptr, 0)));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  } catch (const std::exception&) {
    usage("cannot read numbers in --send " + spec);
  }
  if (words.empty() || words.size() > m.words.size()) {
    usage("--send carries 1..16 words, not " + std::to_string(words.size()));
  }
  m.flits = static_cast<uint32_t>((words.size() + 3) / 4);
  for (size_t i = 0; i < words.size(); i++) m.words[i] = words[i];
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Message> to_send;
  std::chrono::milliseconds every{0};
  int i = 1;
  for (; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--") {
      i++;
      break;
    }
    if (arg == "--send" && i + 1 < argc) {
      to_send.push_back(parse_send(argv[++i]));
    } else if (arg == "--every" && i + 1 < argc) {
      const std::string ms = argv[++i];
      if (ms.empty() || ms.find_first_not_of("0123456789") != std::string::npos || ms.size() > 7) {
        usage("--every wants milliseconds (0..9999999), not '" + ms + "'");
      }
      every = std::chrono::milliseconds(std::stoul(ms));
    } else {
      usage("unknown option '" + arg + "'");
    }
  }
  if (i >= argc) usage("no QEMU command after --");

  char dir_template[] = "/tmp/tessera-host.XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (!dir) {
    perror("tessera-host: mkdtemp");
    return 1;
  }
  const std::string socket_path = std::string(dir) + "/hostlink.sock";
  // The host listens and QEMU connects: QEMU then has nothing to say while
  // it waits for its peer (a listening QEMU prints "waiting for connection").
  std::optional<Listener> listener;
  try {
    listener.emplace(socket_path);
  } catch (const std::exception& e) {
    fprintf(stderr, "tessera-host: %s\n", e.what());
    rmdir(dir);
    return 1;
  }
  std::vector<std::string> args(argv + i, argv + argc);
  args.push_back("-chardev");
  args.push_back("socket,id=hostlink,path=" + socket_path + ",server=off");
  args.push_back("-machine");
  args.push_back("hostlink=hostlink");

  const pid_t qemu = fork();
  if (qemu == 0) {
    std::vector<char*> cargs;
    for (std::string& a : args) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    execvp(cargs[0], cargs.data());
    perror("tessera-host: exec");
    _exit(127);
  }

  int status = 0;
  std::optional<Connection> link;
  while (!link) {
    if (waitpid(qemu, &status, WNOHANG) == qemu) {
      listener.reset();
      rmdir(dir);
      return exit_status(status);  // QEMU refused to start; it said why
    }
    link = listener->accept(100);
  }
  listener.reset();
  rmdir(dir);

  // Sending on its own thread: the machine's messages are read meanwhile,
  // however long the sends take.
  std::thread sender([&] {
    try {
      for (const Message& m : to_send) {
        std::this_thread::sleep_for(every);
        link->send(m);
      }
      link->finish_sending();
    } catch (const std::exception& e) {
      // The machine has gone (it ended the run early): its status says why.
      (void)e;
    }
  });
  try {
    while (std::optional<Message> m = link->receive()) {
      printf("host <- thread 0x%x cycle %llu:", m->thread,
             static_cast<unsigned long long>(m->cycle));
      for (uint32_t w = 0; w < m->flits * 4; w++) printf(" 0x%08x", m->words[w]);
      printf("\n");
      fflush(stdout);
    }
  } catch (const std::exception& e) {
    fprintf(stderr, "tessera-host: %s\n", e.what());
    kill(qemu, SIGTERM);
  }
  sender.join();
  waitpid(qemu, &status, 0);
  return exit_status(status);
}
