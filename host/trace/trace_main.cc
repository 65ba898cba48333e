// tessera-trace: runs a QEMU command with the Tessera trace events on, then
// converts QEMU's log into the Chrome / Perfetto trace-event JSON format on
// the modelled time axis (docs/tracing.md). Exits with the command's status,
// which is the guest's verdict; the JSON is written whatever the verdict.
//
//   tessera-trace -o OUT.json [--events PATTERN]... [--log FILE] -- COMMAND...
//   tessera-trace -o OUT.json --log FILE
//
// The first form appends `-trace PATTERN ... -D LOG` to COMMAND (a QEMU
// command line, or one ending in one: qemu-cmd.sh, tessera-host ...), with
// one log per QEMU process: a run over ranks (qemu-cmd.sh --ranks N) writes
// one each, merged into one trace (tessera/trace/ranks.h); --log keeps them
// one after another. The second converts a log QEMU already wrote, or such
// a kept one.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/trace/ranks.h"
#include "tessera/trace/trace.h"

namespace {

constexpr const char* kDefaultEvents = "tessera_*";

[[noreturn]] void usage(const std::string& why) {
  fprintf(stderr,
          "tessera-trace: %s\n"
          "usage: tessera-trace -o OUT.json [--events PATTERN]... [--log FILE] -- COMMAND...\n"
          "       tessera-trace -o OUT.json --log FILE\n",
          why.c_str());
  exit(2);
}

int exit_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

pid_t child = -1;

// A stop request for this process stops the command; its log is still
// converted.
void forward(int sig) {
  if (child > 0) kill(child, sig);
}

int run(std::vector<std::string> args) {
  struct sigaction forward_action {};
  forward_action.sa_handler = forward;
  sigaction(SIGTERM, &forward_action, nullptr);
  sigaction(SIGHUP, &forward_action, nullptr);
  // Ctrl-C reaches the command through the terminal; this process waits.
  signal(SIGINT, SIG_IGN);
  child = fork();
  if (child < 0) {
    perror("tessera-trace: fork");
    return 1;
  }
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    std::vector<char*> cargs;
    for (std::string& a : args) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    execvp(cargs[0], cargs.data());
    perror(("tessera-trace: " + args[0]).c_str());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      perror("tessera-trace: waitpid");
      return 1;
    }
  }
  return exit_status(status);
}

// Writes `trace` to `path` whole or not at all.
bool write_trace(const std::string& path, const tessera::trace::Trace& trace) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (out) tessera::trace::write_json(out, trace);
    out.flush();
    if (!out) {
      fprintf(stderr, "tessera-trace: cannot write %s\n", tmp.c_str());
      remove(tmp.c_str());
      return false;
    }
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    perror(("tessera-trace: " + path).c_str());
    remove(tmp.c_str());
    return false;
  }
  return true;
}

void report(const std::string& path, const tessera::trace::Trace& trace, uint64_t lines) {
  const tessera::trace::Summary& s = trace.summary;
  fprintf(stderr,
          "tessera-trace: %s: %zu trace events from %llu log lines (%llu Tessera events); "
          "%llu messages, %llu send->receive arrows\n",
          path.c_str(), trace.events.size(), static_cast<unsigned long long>(lines),
          static_cast<unsigned long long>(s.events), static_cast<unsigned long long>(s.messages),
          static_cast<unsigned long long>(s.flows));
  if (s.unreceived) {
    fprintf(stderr, "tessera-trace: %llu message copies were not received by the end\n",
            static_cast<unsigned long long>(s.unreceived));
  }
  if (s.unmatched) {
    fprintf(stderr, "tessera-trace: %llu receives have no send in the log\n",
            static_cast<unsigned long long>(s.unmatched));
  }
  if (s.skipped || s.unknown) {
    fprintf(stderr,
            "tessera-trace: ignored %llu events with missing fields and %llu unknown events\n",
            static_cast<unsigned long long>(s.skipped), static_cast<unsigned long long>(s.unknown));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string output, log;
  std::vector<std::string> events;
  int i = 1;
  bool command = false;
  for (; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--") {
      i++;
      command = true;
      break;
    }
    if ((arg == "-o" || arg == "--output") && i + 1 < argc) {
      output = argv[++i];
    } else if (arg == "--events" && i + 1 < argc) {
      events.push_back(argv[++i]);
    } else if (arg == "--log" && i + 1 < argc) {
      log = argv[++i];
    } else {
      usage("unknown option '" + arg + "'");
    }
  }
  if (output.empty()) usage("no output file (-o OUT.json)");
  if (command && i >= argc) usage("no command after --");
  if (!command && log.empty()) usage("neither a command (-- COMMAND...) nor a log (--log FILE)");
  if (!command && !events.empty()) usage("--events needs a command to run");

  int status = 0;
  uint64_t lines = 0;
  std::vector<std::vector<tessera::trace::Record>> logs;
  if (command) {
    // A folder for the processes' logs: QEMU puts its pid where -D has %d.
    char name[] = "/tmp/tessera-trace.XXXXXX";
    if (mkdtemp(name) == nullptr) {
      perror("tessera-trace: mkdtemp");
      return 1;
    }
    const std::filesystem::path folder = name;
    std::vector<std::string> args(argv + i, argv + argc);
    if (events.empty()) events.push_back(kDefaultEvents);
    for (const std::string& e : events) {
      args.push_back("-trace");
      args.push_back(e);
    }
    args.push_back("-D");
    args.push_back((folder / "qemu.%d.log").string());
    status = run(args);

    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    std::ofstream kept;
    if (!log.empty()) kept.open(log, std::ios::binary | std::ios::trunc);
    for (const auto& path : paths) {
      std::ifstream in(path, std::ios::binary);
      uint64_t n = 0;
      logs.push_back(tessera::trace::read_log(in, &n));
      lines += n;
      if (kept.is_open()) {
        in.clear();
        in.seekg(0);
        kept << in.rdbuf();
      }
    }
    std::filesystem::remove_all(folder);
    if (kept.is_open() && !kept) {
      fprintf(stderr, "tessera-trace: cannot write the log %s\n", log.c_str());
    }
    if (logs.empty()) {
      fprintf(stderr, "tessera-trace: the command wrote no log\n");
      return status ? status : 1;
    }
  } else {
    std::ifstream in(log, std::ios::binary);
    if (!in) {
      fprintf(stderr, "tessera-trace: cannot read the log %s\n", log.c_str());
      return 1;
    }
    logs = tessera::trace::split_ranks(tessera::trace::read_log(in, &lines));
  }
  try {
    const tessera::trace::Trace trace = tessera::trace::convert(tessera::trace::merge_ranks(logs));
    if (!write_trace(output, trace)) return status ? status : 1;
    report(output, trace, lines);
  } catch (const std::exception& e) {
    fprintf(stderr, "tessera-trace: no trace written: %s\n", e.what());
    return status ? status : 1;
  }
  return status;
}
