// The converter of ./tessera trace on hand-written logs: parsing the
// "key value" lines, the tracks, slices and flow arrows it makes, boots, and
// the JSON text.
#include "tessera/trace/trace.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using tessera::trace::Event;
using tessera::trace::Record;
using tessera::trace::Trace;

// 1 board of 1x1 tiles, 1 core of 2 threads: threads 0x0 and 0x1, host 0x2.
constexpr const char* kInit =
    "tessera_machine_init boards 1x1 tiles 1x1 cores 1 threads 2 clock_mhz 240 harts 2 "
    "dram_mib 1";

Trace Convert(const std::string& log) {
  std::istringstream in(std::string(kInit) + "\n" + log);
  return tessera::trace::convert(tessera::trace::read_log(in, nullptr));
}

std::vector<Event> Named(const Trace& t, const std::string& name) {
  std::vector<Event> out;
  for (const Event& e : t.events) {
    if (e.name == name) out.push_back(e);
  }
  return out;
}

std::vector<Event> Phase(const Trace& t, char phase) {
  std::vector<Event> out;
  for (const Event& e : t.events) {
    if (e.phase == phase) out.push_back(e);
  }
  return out;
}

uint64_t Number(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.args) {
    if (k == key) return std::get<uint64_t>(v);
  }
  ADD_FAILURE() << e.name << " has no numeric arg " << key;
  return 0;
}

bool Has(const Event& e, const std::string& key) {
  for (const auto& [k, v] : e.args) {
    if (k == key) return true;
  }
  return false;
}

TEST(TraceRecord, ReadsKeyValueFields) {
  const auto r = Record::parse("tessera_mbox_send thread 0x1f cycle 4876 msg 5 to 0xac flits 1\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name(), "tessera_mbox_send");
  EXPECT_EQ(r->number("thread"), 0x1fu);
  EXPECT_EQ(r->number("cycle"), 4876u);
  EXPECT_EQ(r->number("to"), 0xacu);
  EXPECT_EQ(r->field("flits"), "1");
  EXPECT_FALSE(r->number("slot"));
  EXPECT_FALSE(r->number("tessera_mbox_send"));  // the name is not a field
}

TEST(TraceRecord, ReadsPairsTextAndTimestampPrefixes) {
  const auto init = Record::parse(kInit);
  ASSERT_TRUE(init);
  EXPECT_EQ(init->pair("boards"), (std::pair<uint32_t, uint32_t>{1, 1}));
  const auto board = Record::parse("tessera_termdet_token board 2,1 round 3 cycle 9 token arrived");
  ASSERT_TRUE(board);
  EXPECT_EQ(board->pair("board"), (std::pair<uint32_t, uint32_t>{2, 1}));
  const auto line =
      Record::parse("tessera_console_line thread 0x0 cycle 7 bytes 12 line a  b \"c\" cycle 1");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->rest("line"), "a  b \"c\" cycle 1");
  const auto stamped =
      Record::parse("4242@1700000000.123456:tessera_mbox_wake thread 0x3 cycle 10 woken");
  ASSERT_TRUE(stamped);
  EXPECT_EQ(stamped->name(), "tessera_mbox_wake");
  EXPECT_EQ(stamped->number("thread"), 3u);
}

TEST(TraceRecord, OtherLinesAreNotEvents) {
  EXPECT_FALSE(Record::parse(""));
  EXPECT_FALSE(Record::parse("   "));
  EXPECT_FALSE(Record::parse("tessera-mailbox: hart 0x0: csrrw 0x808, 0x9: bad destination"));
  EXPECT_FALSE(Record::parse("qemu-system-riscv32: warning: icount sleep disabled"));
  EXPECT_TRUE(Record::parse("verbose_tessera_mbox_handover thread 0x0 cycle 1 slot 0x10040"));
  const auto bad = Record::parse("tessera_mbox_send thread zz cycle 0x");
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->number("thread"));
  EXPECT_FALSE(bad->number("cycle"));
}

TEST(TraceJson, TimeIsExactMicrosecondsOfCycles) {
  EXPECT_EQ(tessera::trace::microseconds(0), "0.000");
  EXPECT_EQ(tessera::trace::microseconds(5), "0.005");
  EXPECT_EQ(tessera::trace::microseconds(12345), "12.345");
  EXPECT_EQ(tessera::trace::microseconds(1000000000001ull), "1000000000.001");
}

TEST(TraceJson, StringsAreEscapedAndValidUtf8) {
  EXPECT_EQ(tessera::trace::json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(tessera::trace::json_string("tab\there"), "\"tab\\u0009here\"");
  EXPECT_EQ(tessera::trace::json_string("\xe9\x7f"), "\"\\u00e9\\u007f\"");
}

TEST(TraceConvert, NeedsTheMachinesShape) {
  std::istringstream in("tessera_mbox_wake thread 0x0 cycle 1 woken\n");
  EXPECT_THROW(tessera::trace::convert(tessera::trace::read_log(in, nullptr)), std::runtime_error);
}

TEST(TraceConvert, TracksAreBoardsThreadsHostAndMaster) {
  const Trace t = Convert("");
  std::map<std::pair<uint64_t, uint64_t>, std::string> threads;
  std::map<uint64_t, std::string> processes;
  for (const Event& e : Phase(t, 'M')) {
    if (e.name == "thread_name") threads[{e.pid, e.tid}] = std::get<std::string>(e.args[0].second);
    if (e.name == "process_name") processes[e.pid] = std::get<std::string>(e.args[0].second);
  }
  EXPECT_EQ(processes[1], "board (0,0)");
  EXPECT_EQ(processes[2], "host link");
  EXPECT_EQ(processes[3], "termination detection master");
  EXPECT_EQ((threads[{1, 1}]), "0x0: tile (0,0) core 0 thread 0");
  EXPECT_EQ((threads[{1, 2}]), "0x1: tile (0,0) core 0 thread 1");
  EXPECT_EQ((threads[{2, 3}]), "host 0x2");
  EXPECT_EQ((threads[{1, 5}]), "termination detection");
  EXPECT_EQ(t.clock_mhz, 240u);
}

TEST(TraceConvert, AMessageIsASendAReceiveAndOneArrow) {
  const Trace t = Convert(
      "tessera_mbox_block thread 0x1 cycle 5 waits 0x2\n"
      "tessera_mbox_send thread 0x0 cycle 10 msg 1 to 0x1 flits 2\n"
      "tessera_mbox_deliver thread 0x1 cycle 14 msg 1 from 0x0 slot 0x10040 flits 2\n"
      "tessera_mbox_wake thread 0x1 cycle 5 woken\n"
      "tessera_mbox_resume thread 0x1 cycle 14 result 0x2\n"
      "tessera_mbox_receive thread 0x1 cycle 16 msg 1 slot 0x10040\n"
      "tessera_mbox_free thread 0x1 cycle 18 msg 1 slot 0x10040\n");
  const auto send = Named(t, "send to 0x1");
  ASSERT_EQ(send.size(), 1u);
  EXPECT_EQ(send[0].phase, 'X');
  EXPECT_EQ(send[0].pid, 1u);
  EXPECT_EQ(send[0].tid, 1u);
  EXPECT_EQ(send[0].ts, 10u);
  EXPECT_EQ(send[0].dur, 1u);
  EXPECT_EQ(Number(send[0], "msg"), 1u);
  const auto receive = Named(t, "receive from 0x0");
  ASSERT_EQ(receive.size(), 1u);
  EXPECT_EQ(receive[0].tid, 2u);
  EXPECT_EQ(receive[0].ts, 16u);
  const auto wait = Named(t, "wait can-recv");
  ASSERT_EQ(wait.size(), 1u);
  EXPECT_EQ(wait[0].ts, 5u);
  EXPECT_EQ(wait[0].dur, 9u);
  EXPECT_EQ(Named(t, "deliver").size(), 1u);
  EXPECT_EQ(Named(t, "free").size(), 1u);

  const auto starts = Phase(t, 's'), ends = Phase(t, 'f');
  ASSERT_EQ(starts.size(), 1u);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(starts[0].id, ends[0].id);
  EXPECT_EQ((std::tuple(starts[0].pid, starts[0].tid, starts[0].ts)),
            (std::tuple(send[0].pid, send[0].tid, send[0].ts)));
  EXPECT_EQ((std::tuple(ends[0].pid, ends[0].tid, ends[0].ts)),
            (std::tuple(receive[0].pid, receive[0].tid, receive[0].ts)));
  EXPECT_EQ(t.summary.messages, 1u);
  EXPECT_EQ(t.summary.flows, 1u);
  EXPECT_EQ(t.summary.unreceived, 0u);
}

TEST(TraceConvert, AFlowFollowsItsSliceAndTracksStayInTimeOrder) {
  const Trace t = Convert(
      // The send's modelled time is later than the wait that follows it in
      // the log: the wait encloses it.
      "tessera_mbox_send thread 0x0 cycle 30 msg 1 to 0x1 flits 1\n"
      "tessera_mbox_block thread 0x0 cycle 12 waits 0x1\n"
      "tessera_mbox_resume thread 0x0 cycle 40 result 0x1\n"
      "tessera_mbox_receive thread 0x1 cycle 35 msg 1 slot 0x10040\n");
  bool metadata = true;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> last;
  for (size_t i = 0; i < t.events.size(); i++) {
    const Event& e = t.events[i];
    if (e.phase == 'M') {
      EXPECT_TRUE(metadata) << "metadata after events";
      continue;
    }
    metadata = false;
    auto& ts = last[{e.pid, e.tid}];
    EXPECT_GE(e.ts, ts) << e.name;
    ts = e.ts;
    if (e.phase == 's' || e.phase == 'f') {
      ASSERT_GT(i, 0u);
      const Event& slice = t.events[i - 1];
      EXPECT_EQ(slice.phase, 'X');
      EXPECT_EQ((std::tuple(slice.pid, slice.tid, slice.ts)), (std::tuple(e.pid, e.tid, e.ts)));
    }
  }
  // Longest first at one time: the wait (12..40) before the send (30).
  const auto waits = Named(t, "wait can-send");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(waits[0].dur, 28u);
}

TEST(TraceConvert, AMulticastHasAnArrowPerReceivingThread) {
  const Trace t = Convert(
      "tessera_mbox_multicast thread 0x0 cycle 10 msg 7 mailbox_of 0x0 mask 0x3 copies 2 flits 1\n"
      "tessera_mbox_receive thread 0x1 cycle 12 msg 7 slot 0x10040\n"
      "tessera_mbox_receive thread 0x0 cycle 13 msg 7 slot 0x10080\n"
      "tessera_mbox_send thread 0x1 cycle 20 msg 8 to 0x0 flits 1\n");
  const auto multicast = Named(t, "multicast to the mailbox of 0x0");
  ASSERT_EQ(multicast.size(), 1u);
  EXPECT_EQ(Number(multicast[0], "copies"), 2u);
  const auto starts = Phase(t, 's'), ends = Phase(t, 'f');
  ASSERT_EQ(starts.size(), 2u);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_NE(starts[0].id, starts[1].id);
  for (const Event& s : starts) EXPECT_EQ(s.ts, 10u);
  EXPECT_EQ(t.summary.messages, 2u);
  EXPECT_EQ(t.summary.flows, 2u);
  EXPECT_EQ(t.summary.unreceived, 1u);  // msg 8
}

TEST(TraceConvert, MessagesToAndFromTheHostLinkToItsTrack) {
  const Trace t = Convert(
      "tessera_mbox_from_host thread 0x1 cycle 0 msg 1 flits 1\n"
      "tessera_mbox_receive thread 0x1 cycle 160 msg 1 slot 0x10040\n"
      "tessera_mbox_send thread 0x1 cycle 170 msg 2 to 0x2 flits 4\n"
      "tessera_mbox_to_host thread 0x1 cycle 320 msg 2 flits 4\n");
  const auto from = Named(t, "send to 0x1"), to = Named(t, "from 0x1");
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(from[0].pid, 2u);
  ASSERT_EQ(to.size(), 1u);
  EXPECT_EQ(to[0].pid, 2u);
  EXPECT_EQ(to[0].tid, 3u);
  EXPECT_EQ(to[0].ts, 320u);
  EXPECT_EQ(t.summary.flows, 2u);
  EXPECT_EQ(t.summary.unreceived, 0u);
}

TEST(TraceConvert, AResetStartsABootAfterThePreviousOne) {
  const Trace t = Convert(
      "tessera_mbox_block thread 0x0 cycle 100 waits 0x2\n"
      "tessera_mbox_wake thread 0x1 cycle 150 woken\n"
      "tessera_mbox_counts board 0,0 sent 3 received 2\n"
      "tessera_mbox_reset every mailbox back to power-on\n"
      "tessera_machine_reset harts 2 back to power-on\n"
      "tessera_mbox_send thread 0x1 cycle 7 msg 1 to 0x0 flits 1\n"
      "tessera_mbox_receive thread 0x0 cycle 9 msg 1 slot 0x10040\n");
  const auto cut = Named(t, "wait can-recv");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].ts, 100u);
  EXPECT_EQ(cut[0].dur, 50u);  // the boot ended at cycle 150
  EXPECT_TRUE(Has(cut[0], "unfinished"));
  const auto counters = Named(t, "mailbox counters");
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(Number(counters[0], "of_boot"), 0u);
  EXPECT_EQ(Number(counters[0], "sent"), 3u);
  const auto send = Named(t, "send to 0x0");
  ASSERT_EQ(send.size(), 1u);
  EXPECT_EQ(send[0].ts, 151u + 7u);
  EXPECT_EQ(Number(send[0], "boot"), 1u);
  EXPECT_EQ(t.summary.boots, 2u);
  EXPECT_EQ(t.summary.flows, 1u);
}

TEST(TraceConvert, TerminationDetectionPhasesAreSlices) {
  const Trace t = Convert(
      "tessera_termdet_round round 1 cycle 0 tokens sent\n"
      "tessera_termdet_token board 0,0 round 1 cycle 150 token arrived\n"
      "tessera_idle_enter thread 0x0 cycle 400 vote 1\n"
      "tessera_idle_enter thread 0x1 cycle 420 vote 1\n"
      "tessera_termdet_return board 0,0 round 1 cycle 570 token back at the master\n"
      "tessera_termdet_round_end round 1 cycle 570 outcome detected\n"
      "tessera_termdet_release board 0,0 round 1 cycle 720 released, sends disabled\n"
      "tessera_idle_leave thread 0x0 cycle 720 why released\n"
      "tessera_termdet_enable_start round 1 cycle 870 every board released\n"
      "tessera_termdet_enable board 0,0 round 1 cycle 1020 sends enabled\n"
      "tessera_termdet_episode_end round 1 cycle 1170 every board enabled\n");
  auto one = [&](const std::string& name) {
    const auto v = Named(t, name);
    EXPECT_EQ(v.size(), 1u) << name;
    return v.empty() ? Event{} : v[0];
  };
  const Event round = one("round 1: detected"), token = one("round 1: token here");
  EXPECT_EQ((std::tuple(round.pid, round.ts, round.dur)), (std::tuple(3u, 0u, 570u)));
  EXPECT_EQ((std::tuple(token.pid, token.tid, token.ts, token.dur)),
            (std::tuple(1u, 5u, 150u, 420u)));
  EXPECT_EQ(one("phase 2: release on its way").ts, 570u);
  EXPECT_EQ(one("phase 3: sends disabled").dur, 300u);
  EXPECT_EQ(one("phase 2: release").dur, 300u);
  EXPECT_EQ(one("phase 3: enable").ts, 870u);
  EXPECT_EQ(one("idle leave: released").tid, 1u);
  EXPECT_EQ(Named(t, "idle enter").size(), 2u);
}

TEST(TraceConvert, WaitsInTheBusTheSwitchesAndTheControllerAreSlices) {
  const Trace t = Convert(
      "tessera_ocbus_block thread 0x0 cycle 100 mask 0x1 value 0x1\n"
      "tessera_reflex_block thread 0x1 cycle 110 csr 0x817\n"
      "tessera_ocbus_wake thread 0x0 cycle 130\n"
      "tessera_ocbus_wait thread 0x0 cycle 140 mask 0x1 value 0x1 global 0xff\n"
      "tessera_reflex_send thread 0x0 cycle 150 flit 0x2a\n"
      "tessera_reflex_recv thread 0x1 cycle 160 flit 0x2a\n"
      "tessera_reflex_recv thread 0x0 cycle 170 flit 0x7\n"  // no wait: an instant
      "tessera_barrier_enter thread 0x1 cycle 200 uid 255 count 4\n"
      "tessera_barrier_release thread 0x1 cycle 260 uid 255 status 0\n"
      "tessera_mbox_resume thread 0x1 cycle 270 result 0x2\n");  // not its wait
  auto one = [&](const std::string& name) {
    const auto v = Named(t, name);
    EXPECT_EQ(v.size(), 1u) << name;
    return v.empty() ? Event{} : v[0];
  };
  const Event bus = one("ocbus wait: lines 0x1 read 0x1");
  EXPECT_EQ((std::tuple(bus.tid, bus.ts, bus.dur)), (std::tuple(1u, 100u, 40u)));
  EXPECT_TRUE(Has(bus, "global"));
  const Event recv = one("reflex receive (inbound empty)");
  EXPECT_EQ((std::tuple(recv.tid, recv.ts, recv.dur)), (std::tuple(2u, 110u, 50u)));
  EXPECT_EQ(one("reflex receive").phase, 'i');
  EXPECT_EQ(one("reflex send").ts, 150u);
  const Event barrier = one("barrier uid 255 (count 4)");
  EXPECT_EQ((std::tuple(barrier.ts, barrier.dur)), (std::tuple(200u, 60u)));
  EXPECT_EQ(t.summary.unknown, 0u);
  EXPECT_EQ(t.summary.skipped, 0u);
}

TEST(TraceConvert, CountsWhatItCannotUse) {
  const Trace t = Convert(
      "tessera_mbox_send thread 0x0 cycle 10\n"                          // no msg
      "tessera_mbox_wake thread 0x9 cycle 1 woken\n"                     // no such thread
      "tessera_frobnicate thread 0x0 cycle 1\n"                          // unknown
      "tessera_mbox_receive thread 0x1 cycle 4 msg 99 slot 0x10040\n");  // no send
  EXPECT_EQ(t.summary.skipped, 2u);
  EXPECT_EQ(t.summary.unknown, 1u);
  EXPECT_EQ(t.summary.unmatched, 1u);
  EXPECT_EQ(t.summary.flows, 0u);
}

TEST(TraceJson, WritesOneEventPerLineWithFlowsBoundToSlices) {
  const Trace t = Convert(
      "tessera_mbox_send thread 0x0 cycle 1234 msg 1 to 0x1 flits 1\n"
      "tessera_mbox_receive thread 0x1 cycle 2000 msg 1 slot 0x10040\n"
      "tessera_console_line thread 0x0 cycle 3000 bytes 5 line h\xe9llo\n");
  std::ostringstream out;
  tessera::trace::write_json(out, t);
  const std::string json = out.str();
  EXPECT_EQ(json.rfind("{\"traceEvents\":[\n", 0), 0u);
  EXPECT_NE(json.find("{\"ph\":\"X\",\"name\":\"send to 0x1\",\"cat\":\"mailbox\",\"pid\":1,"
                      "\"tid\":1,\"ts\":1.234,\"dur\":0.001,\"args\":{\"msg\":1,\"flits\":1,"
                      "\"copies\":1}},\n{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"mailbox\","
                      "\"pid\":1,\"tid\":1,\"ts\":1.234,\"id\":1,\"args\":{\"msg\":1}}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"ph\":\"f\",\"name\":\"message\",\"cat\":\"mailbox\",\"pid\":1,\"tid\":2,"
                      "\"ts\":2.000,\"id\":1,\"bp\":\"e\",\"args\":{\"msg\":1}"),
            std::string::npos);
  EXPECT_NE(json.find("\"line\":\"h\\u00e9llo\""), std::string::npos);
  EXPECT_NE(json.find("\"otherData\":{\"generator\":\"tessera-trace\""), std::string::npos);
}

}  // namespace
