// The console driver on the host machine: many harts printing at once, each
// through the real console model, as on the emulator.
#include "tessera/drivers/console.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tessera/host/machine.h"

namespace tessera::drivers {
namespace {

using host::ConsoleLine;
using host::Hart;
using host::Machine;

// 2 boards of 2x2 tiles, 2 cores, 2 threads: 32 harts, 32 host threads.
constexpr TesseraShape kShape{2, 1, 2, 2, 2, 2};
constexpr int kLinesPerHart = 300;

// Line n of a hart: its identity, then n-dependent filler of 0..199 bytes
// so that lines differ in length and a cut or a mix-up shows.
std::string LineText(uint32_t hart_id, int n) {
  std::string text = "hart " + std::to_string(hart_id) + " line " + std::to_string(n) + " ";
  text.append(static_cast<size_t>((n * 37 + hart_id) % 200), static_cast<char>('a' + n % 26));
  return text;
}

TEST(ConsoleDriver, LinesOfManyConcurrentHartsNeverInterleaveAndNoneIsLostOrCut) {
  Machine machine(kShape);
  ASSERT_GE(machine.num_harts(), 8u);
  machine.run_on_all_harts([](Hart& hart) {
    const Console console;
    for (int n = 0; n < kLinesPerHart; n++) {
      const std::string text = LineText(hart.id(), n);
      // Both ways of writing, a byte at a time underneath.
      if (n % 2 == 0) {
        console.write(text.c_str());
      } else {
        console.write(text.data(), text.size());
      }
      console.put('\n');
    }
  });

  const std::vector<ConsoleLine> lines = machine.console_lines();
  EXPECT_EQ(lines.size(), machine.num_harts() * kLinesPerHart);
  std::map<uint32_t, int> next_line_of;  // by hart id
  for (const ConsoleLine& line : lines) {
    const int n = next_line_of[line.hart_id]++;
    ASSERT_EQ(line.text, LineText(line.hart_id, n)) << "hart " << line.hart_id;
  }
  for (const uint32_t id : machine.thread_ids()) {
    EXPECT_EQ(next_line_of[id], kLinesPerHart) << "hart " << id;
  }
}

TEST(ConsoleDriver, LongLinesOfConcurrentHartsAreSplitAtLineMax) {
  Machine machine(kShape);
  const size_t length = 2 * TESSERA_CONSOLE_LINE_MAX + 188;
  machine.run_on_all_harts([&](Hart& hart) {
    const Console console;
    const std::string text(length, static_cast<char>('A' + hart.index() % 26));
    console.write(text.c_str());
    console.put('\n');
  });

  std::map<uint32_t, std::vector<std::string>> pieces_of;
  for (const ConsoleLine& line : machine.console_lines()) {
    pieces_of[line.hart_index].push_back(line.text);
  }
  ASSERT_EQ(pieces_of.size(), machine.num_harts());
  for (const auto& [index, pieces] : pieces_of) {
    const std::string text(length, static_cast<char>('A' + index % 26));
    ASSERT_EQ(pieces.size(), 3u) << "hart index " << index;
    EXPECT_EQ(pieces[0], text.substr(0, TESSERA_CONSOLE_LINE_MAX));
    EXPECT_EQ(pieces[1], text.substr(TESSERA_CONSOLE_LINE_MAX, TESSERA_CONSOLE_LINE_MAX));
    EXPECT_EQ(pieces[2], text.substr(2 * TESSERA_CONSOLE_LINE_MAX));
  }
}

TEST(ConsoleDriver, FlushPrintsThePartialLineWithoutANewline) {
  Machine machine(kShape);
  host::HartScope scope(machine, machine.thread_ids()[3]);
  const Console console;
  console.write("progress: 50%");
  EXPECT_TRUE(machine.console_lines().empty());
  console.flush();
  const std::vector<ConsoleLine> lines = machine.console_lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text, "progress: 50%");
  EXPECT_EQ(lines[0].hart_index, 3u);
}

}  // namespace
}  // namespace tessera::drivers
