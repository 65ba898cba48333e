// reboot: the machine resets itself through the exit device and boots again, kBoots times in
// all, and every boot must look like the first (issue 9, reset).
//
// Hart 0 keeps a boot record in .noinit (memory the image does not load, so a reset leaves it)
// and checks that main starts at the same modelled cycle on every boot: time, like every
// device, starts again from its power-on state.
//
// With REBOOT_USES_MAILBOX (TINSEL_API v2, whose start-up gives every slot to hardware), a
// token carrying the boot number visits every thread; each thread then checks in with the number
// of boots still to come, tells hart 0, and sends a stray message that nobody waits for, so that
// each reset finds messages in flight and slots in use. A message from an earlier boot, a fault
// of the start-up's frees, or a check-in the model remembers across a reset (its non-zero
// status would become the exit code) fails the run. Without it, only hart 0 acts
// and the others check in at once.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/cycles.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {

constexpr uint32_t kBoots = 3;
constexpr uint32_t kRecordMagic = 0x424f4f54;  // "BOOT"

struct BootRecord {
  uint32_t magic;
  uint32_t boots;
  uint64_t first_main_cycle;
};

[[gnu::section(".noinit")]] volatile BootRecord record;

#if REBOOT_USES_MAILBOX

enum Kind : uint32_t { kToken = 1, kDone = 2, kStray = 3 };

struct Message {
  uint32_t kind;
  uint32_t boot;
  uint32_t hops;
  uint32_t sender;
};

void send(uint32_t dest, const Message& m) {
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile Message* slot = static_cast<volatile Message*>(tinselSendSlot());
  slot->kind = m.kind;
  slot->boot = m.boot;
  slot->hops = m.hops;
  slot->sender = m.sender;
  tinselSetLen(0);
  tinselSend(dest, slot);
}

Message take() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile Message* slot = static_cast<volatile Message*>(tinselRecv());
  const Message m = {slot->kind, slot->boot, slot->hops, slot->sender};
  tinselFree(slot);
  return m;
}

[[noreturn]] void stray_from_an_earlier_boot(const Message& m, uint32_t boot) {
  tessera::printf("FAIL reboot: thread 0x%" PRIx32 " got a message of boot %" PRIu32
                  " (kind %" PRIu32 ") during boot %" PRIu32 "\n",
                  tinselId(), m.boot, m.kind, boot);
  tessera::exit(3);
}

// Every thread but 0: pass the token on, check in, report, leave a stray in flight, and take
// whatever comes until the reset (or the end of the run).
[[noreturn]] void follow(uint32_t next, uint32_t leader) {
  Message token{};
  uint32_t early_boot = 0;  // of a stray that came before the token, if any
  for (;;) {
    const Message m = take();
    if (m.kind == kToken) {
      token = m;
      break;
    }
    early_boot = m.boot;
  }
  if (early_boot != 0 && early_boot != token.boot) {
    stray_from_an_earlier_boot(Message{kStray, early_boot, 0, 0}, token.boot);
  }
  send(next, Message{kToken, token.boot, token.hops + 1, tinselId()});
  // The boots still to come: only the last boot's check-ins (0) may count.
  tessera::drivers::Sysinfo().check_in(kBoots - token.boot);
  send(leader, Message{kDone, token.boot, 0, tinselId()});
  send(next, Message{kStray, token.boot, 0, tinselId()});
  for (;;) {
    const Message m = take();
    if (m.boot != token.boot) {
      stray_from_an_earlier_boot(m, token.boot);
    }
  }
}

// Hart 0: the token's lap and every other thread's report.
bool lead(uint32_t next, uint32_t threads, uint32_t boot) {
  send(next, Message{kToken, boot, 1, tinselId()});
  bool token_back = false;
  uint32_t done = 0;
  while (!token_back || done < threads - 1) {
    const Message m = take();
    if (m.boot != boot) {
      stray_from_an_earlier_boot(m, boot);
    }
    if (m.kind == kToken) {
      if (m.hops != threads) {
        tessera::printf("FAIL reboot: the token came back after %" PRIu32 " hops of %" PRIu32 "\n",
                        m.hops, threads);
        return false;
      }
      token_back = true;
    } else if (m.kind == kDone) {
      done++;
    }
  }
  return true;
}

#endif  // REBOOT_USES_MAILBOX

}  // namespace

int main() {
  const uint64_t entered = tessera::hal::cycle_count();
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t me = sysinfo.hart_index();
#if REBOOT_USES_MAILBOX
  const TesseraShape shape = sysinfo.shape();
  const uint32_t threads = tessera_num_threads(&shape);
  const uint32_t next = tessera_thread_at(&shape, (me + 1) % threads);
  if (me != 0) {
    follow(next, tessera_thread_at(&shape, 0));
  }
#else
  if (me != 0) {
    return 0;
  }
#endif
  if (record.magic != kRecordMagic) {
    record.magic = kRecordMagic;
    record.boots = 0;
    record.first_main_cycle = entered;
  }
  const uint32_t boot = record.boots + 1;
  record.boots = boot;
  tessera::printf("reboot: boot %" PRIu32 " of %" PRIu32 ", main at cycle %" PRIu64 "\n", boot,
                  kBoots, entered);
  if (entered != record.first_main_cycle) {
    tessera::printf("FAIL reboot: boot 1 entered main at cycle %" PRIu64 "\n",
                    record.first_main_cycle);
    return 4;
  }
#if REBOOT_USES_MAILBOX
  if (threads > 1 && !lead(next, threads, boot)) {
    return 5;
  }
#endif
  if (boot < kBoots) {
    tessera::printf("reboot: resetting\n");
    tessera::reboot();
  }
  tessera::printf("reboot: %" PRIu32 " boots alike\n", kBoots);
  return 0;
}
