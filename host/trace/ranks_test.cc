// Merging the logs of a ranked run (tessera/trace/ranks.h) on hand-written
// logs: which rank's copy of each event is kept, the order window by window,
// the checks that the logs are one run's, and a kept log split back.
#include "tessera/trace/ranks.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using tessera::trace::Record;

// 2x1 boards of 1 thread each: thread 0x0 on board (0,0), 0x1 on (1,0).
constexpr const char* kInit =
    "tessera_machine_init boards 2x1 tiles 1x1 cores 1 threads 1 clock_mhz 240 harts 2 "
    "dram_mib 1";

std::vector<Record> Log(const std::string& text) {
  std::istringstream in(text);
  return tessera::trace::read_log(in, nullptr);
}

std::vector<std::string> Names(const std::vector<Record>& records) {
  std::vector<std::string> out;
  for (const Record& r : records) {
    std::string name = r.name();
    if (const auto thread = r.field("thread")) name += " " + std::string(*thread);
    if (const auto board = r.field("board")) name += " board " + std::string(*board);
    out.push_back(name);
  }
  return out;
}

// What each rank writes: its own threads' events, every copy's machine-wide
// ones, the window ends alike.
std::string Rank(int rank) {
  const std::string own = rank == 0 ? "0x0" : "0x1";
  const std::string other = rank == 0 ? "0x1" : "0x0";
  return "tessera_ranks_init rank " + std::to_string(rank) + " of 2: boards from " +
         std::to_string(rank) + ",0 to " + std::to_string(rank) + ",0\n" + kInit + "\n" +
         "tessera_mbox_send thread " + own + " cycle 10 msg 2 to " + other + " flits 1\n" +
         "tessera_termdet_token board 1,0 round 1 cycle 20\n"
         "tessera_window_end window 1 ended: 1 messages between boards; the next ends at "
         "cycle 300\n"
         "tessera_mbox_deliver thread " +
         own + " cycle 160 msg 3 from " + other + " slot 0x100c0 flits 1\n" +
         "tessera_mbox_counts board " + std::to_string(rank) + ",0 sent 1 received 1\n";
}

TEST(TraceRanks, EachEventComesFromTheRankThatRunsItsBoardTheRestFromRankZero) {
  const auto merged = tessera::trace::merge_ranks({Log(Rank(1)), Log(Rank(0))});
  EXPECT_EQ(Names(merged), (std::vector<std::string>{
                               // window 1: rank 0's, then rank 1's, then its end
                               "tessera_ranks_init",
                               "tessera_machine_init",
                               "tessera_mbox_send 0x0",
                               "tessera_mbox_send 0x1",
                               "tessera_termdet_token board 1,0",
                               "tessera_window_end",
                               "tessera_mbox_deliver 0x0",
                               "tessera_mbox_counts board 0,0",
                               "tessera_mbox_deliver 0x1",
                               "tessera_mbox_counts board 1,0",
                           }));
}

TEST(TraceRanks, OneLogComesBackWhole) {
  const auto one = Log(std::string(kInit) +
                       "\ntessera_mbox_send thread 0x1 cycle 1 msg 2 to 0x0 "
                       "flits 1\n");
  EXPECT_EQ(Names(tessera::trace::merge_ranks({one})), Names(one));
  EXPECT_TRUE(tessera::trace::merge_ranks({}).empty());
}

TEST(TraceRanks, RefusesLogsThatAreNotOneRunsRanks) {
  using tessera::trace::merge_ranks;
  EXPECT_THROW(merge_ranks({Log(Rank(0)), Log(Rank(0))}), std::runtime_error);
  EXPECT_THROW(merge_ranks({Log(Rank(1)), Log(std::string(kInit) + "\n")}), std::runtime_error);
  // Rank 1 saw one window fewer.
  std::string short_one = Rank(1);
  short_one.erase(short_one.find("tessera_window_end"),
                  short_one.find("tessera_mbox_deliver") - short_one.find("tessera_window_end"));
  EXPECT_THROW(merge_ranks({Log(Rank(0)), Log(short_one)}), std::runtime_error);
}

TEST(TraceRanks, AKeptLogSplitsBackIntoItsRanks) {
  const auto logs =
      tessera::trace::split_ranks(Log("qemu: a line of QEMU's own\n" + Rank(0) + Rank(1)));
  ASSERT_EQ(logs.size(), 2u);
  EXPECT_EQ(Names(logs[0]), Names(Log(Rank(0))));
  EXPECT_EQ(Names(logs[1]), Names(Log(Rank(1))));
  EXPECT_EQ(Names(tessera::trace::merge_ranks(logs)),
            Names(tessera::trace::merge_ranks({Log(Rank(0)), Log(Rank(1))})));
  // One process's log is one log.
  EXPECT_EQ(tessera::trace::split_ranks(Log(std::string(kInit) + "\n")).size(), 1u);
}

}  // namespace
