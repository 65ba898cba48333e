// Tinsel's HostLink on a real machine: it boots Tinsel's memory files and ELFs, prints console
// lines in Tinsel's x:y:c:t form, carries messages both ways, and fails clearly, leaving no QEMU
// behind. Built with the config.h of apps/tinsel_dialect/mesh-3x1.props, the shape of the
// tinsel_encodings image; the apps come from the firmware build (TESSERA_TEST_APPS).
#include <HostLink.h>
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

namespace {

std::string App(const std::string& file) {
  return std::string(TESSERA_TEST_APPS) + "/" + file;
}

std::string Slurp(FILE* f) {
  rewind(f);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  return text;
}

// Processes whose environment holds marker (the machines a death test's child started).
int ProcessesWithMarker(const std::string& marker) {
  int found = 0;
  DIR* proc = opendir("/proc");
  while (dirent* entry = readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    std::ifstream env(std::string("/proc/") + entry->d_name + "/environ", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
    if (text.find(marker) != std::string::npos) found++;
  }
  closedir(proc);
  return found;
}

TEST(TinselHostLink, BootsMemoryFilesAndPrintsConsoleLinesInTinselsForm) {
  HostLink hostLink;
  EXPECT_EQ(hostLink.meshXLen, 3);
  EXPECT_EQ(hostLink.meshYLen, 1);
  hostLink.boot(App("tinsel_encodings.code.v").c_str(), App("tinsel_encodings.data.v").c_str());
  hostLink.go();
  FILE* out = tmpfile();
  hostLink.dumpStdOut(out);  // returns: every thread returned 0
  const std::string text = Slurp(out);
  fclose(out);
  EXPECT_NE(text.find("0:0:0:0: emit 0x00007e57\n"), std::string::npos) << text;
  // Thread 0x2f: board (2,0), tile (1,1), core 1 -> core 7 of its board, thread 1.
  EXPECT_NE(text.find("2:0:7:1: tinsel dialect: thread 0x0000002f board 00000002 ok\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("FAILED"), std::string::npos) << text;
}

TEST(TinselHostLink, DumpsExactlyTheLinesAskedFor) {
  HostLink hostLink;
  hostLink.boot(App("tinsel_encodings.code.v").c_str(), App("tinsel_encodings.data.v").c_str());
  hostLink.go();
  FILE* first = tmpfile();
  hostLink.dumpStdOut(first, 2);
  const std::string two = Slurp(first);
  fclose(first);
  EXPECT_EQ(std::count(two.begin(), two.end(), '\n'), 2) << two;
  FILE* rest = tmpfile();
  hostLink.dumpStdOut(rest);
  const std::string text = Slurp(rest);
  fclose(rest);
  EXPECT_EQ(text.find(two), std::string::npos) << "lines printed twice";
  EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 40) << text;
}

TEST(TinselHostLink, CarriesMessagesBothWaysAndConvertsAddresses) {
  HostLink hostLink;
  EXPECT_EQ(hostLink.toAddr(2, 0, 7, 1), 0x2fu);
  uint32_t x, y, core, thread;
  hostLink.fromAddr(0x2f, &x, &y, &core, &thread);
  EXPECT_EQ(x * 1000 + y * 100 + core * 10 + thread, 2071u);
  hostLink.boot(App("hostlink_echo.elf").c_str(), nullptr);  // an ELF boots as it is
  hostLink.go();
  // Every thread reports {id, id * id, magic}.
  std::set<uint32_t> seen;
  for (int i = 0; i < 48; i++) {
    uint32_t msg[16];
    hostLink.recv(msg);
    EXPECT_EQ(msg[1], msg[0] * msg[0]);
    EXPECT_EQ(msg[2], 0x7e55e7a0u);
    EXPECT_EQ(msg[4], 0u);  // one flit sent: the rest reads 0
    seen.insert(msg[0]);
  }
  EXPECT_EQ(seen.size(), 48u) << "one report from every thread";
  EXPECT_FALSE(hostLink.canRecv());
  uint32_t ping[4] = {10, 20, 30, 40};
  EXPECT_TRUE(hostLink.send(0, 1, ping));
  uint32_t pong[4];
  hostLink.recvMsg(pong, sizeof pong);
  EXPECT_EQ(pong[0], 11u);
  EXPECT_EQ(pong[3], 41u);
}

using TinselHostLinkDeathTest = ::testing::Test;

TEST_F(TinselHostLinkDeathTest, AMissingFileIsNamed) {
  EXPECT_EXIT(
      {
        HostLink hostLink;
        hostLink.boot("no-such-code.v", "no-such-data.v");
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "HostLink: cannot boot: 'no-such-code.v': No such file or directory");
}

TEST_F(TinselHostLinkDeathTest, MoreBoxesThanTheProgramWasBuiltForAreRefused) {
  EXPECT_EXIT({ HostLink hostLink(2, 1); }, ::testing::ExitedWithCode(EXIT_FAILURE),
              "HostLink: 2x1 boxes requested, but this program was built for one box of 3x1 "
              "boards");
}

TEST_F(TinselHostLinkDeathTest, ExtraPropertiesMayNotChangeTheShape) {
  EXPECT_EXIT(
      {
        setenv("TESSERA_HOSTLINK_PROPERTIES", "cpi=4,tiles-x=4", 1);
        HostLink hostLink;
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "HostLink: TESSERA_HOSTLINK_PROPERTIES sets tiles-x, which the program's config.h or "
      "HostLink decides");
}

TEST_F(TinselHostLinkDeathTest, AnImageOfAnotherShapeDoesNotStart) {
  // The same image on a machine of another shape: QEMU refuses it with its one line.
  EXPECT_EXIT(
      {
        HostLinkParams params;
        HostLink hostLink(params,
                          TesseraHostLinkBuild{"boards-x=2,tiles-x=2,tiles-y=2,cores-per-tile=2,"
                                               "threads-per-core=2",
                                               TESSERA_HOSTLINK_QEMU, TESSERA_HOSTLINK_QEMU_CMD});
        hostLink.boot(App("tinsel_encodings.elf").c_str(), nullptr);
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "was built for boards-x=3.*\n.*HostLink: the machine did not start \\(QEMU exited with "
      "status 1");
}

// Before go() the machine is stopped, so it would never end: both HostLinks say so.
TEST_F(TinselHostLinkDeathTest, DumpingTheConsoleUntilTheEndBeforeGoIsRefused) {
  EXPECT_EXIT(
      {
        HostLink hostLink;
        hostLink.boot(App("hello.elf").c_str(), nullptr);
        hostLink.dumpStdOut(stdout);
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "HostLink: dumpStdOut\\(\\) before go\\(\\): the machine would never end");
}

// Boots `app` and waits for a message that never comes: the machine ends first.
void BootAndWaitForAMessage(const char* app) {
  HostLink hostLink;
  hostLink.boot(App(app).c_str(), nullptr);
  hostLink.go();
  uint32_t msg[16];
  hostLink.recv(msg);
}

TEST_F(TinselHostLinkDeathTest, AMachineThatEndsWhileTheHostWaitsIsReported) {
  // exitcode's threads end the run with status 42 at once: nothing will ever arrive.
  EXPECT_EXIT(BootAndWaitForAMessage("exitcode.elf"), ::testing::ExitedWithCode(42),
      "HostLink: the machine ended \\(status 42\\) while recv\\(\\) waited for a message");
}

// A machine that ends unasked said why on its console: the error carries its last lines.
TEST_F(TinselHostLinkDeathTest, AMachineThatTrapsWhileTheHostWaitsIsReportedWithItsTrapLine) {
  EXPECT_EXIT(BootAndWaitForAMessage("trap.elf"), ::testing::ExitedWithCode(130),
      "HostLink: the machine ended \\(status 130\\) while recv\\(\\) waited for a message; "
      "its console's last unread lines:\n  .*TRAP hart 0x0 cause 2 \\(illegal instruction\\)");
}

TEST_F(TinselHostLinkDeathTest, AProgramThatExitsLeavesNoMachineBehind) {
  const std::string marker = "TESSERA_HOSTLINK_TEST_MARKER=" + std::to_string(getpid());
  EXPECT_EXIT(
      {
        putenv(const_cast<char*>(marker.c_str()));
        HostLink hostLink;
        hostLink.boot(App("hostlink_echo.elf").c_str(), nullptr);
        hostLink.go();
        uint32_t msg[16];
        hostLink.recv(msg);  // the machine is running
        fprintf(stderr, "machines running: %d\n", ProcessesWithMarker(marker));
        exit(3);  // no destructor runs
      },
      ::testing::ExitedWithCode(3), "machines running: 1");
  // The child has been reaped; its machine died with it (a moment later, for a SIGKILL).
  for (int tries = 0; tries < 500 && ProcessesWithMarker(marker) > 0; tries++) usleep(10000);
  EXPECT_EQ(ProcessesWithMarker(marker), 0);
}

}  // namespace
