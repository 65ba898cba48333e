// How a hart's code sleeps in a device's blocking operation when harts are not host threads.
//
// In the unit tests every hart is a host thread, and a blocked hart's thread sleeps on a
// condition variable of its device (HartWaiters). Native mode (native/, docs/native.md) runs
// thousands of harts as user-level fibers over a few worker threads instead: blocking a worker
// would stop every fiber on it, so the devices ask the machine's HartSleeper (MachineParams::
// sleeper) to switch to another fiber, and to make the hart runnable again when it is woken.
#pragma once

#include <stdint.h>

#include "tessera/host/device_mutex.h"

namespace tessera::host {

class Hart;

class HartSleeper {
 public:
  virtual ~HartSleeper() = default;

  // Called by the hart's own code, holding `lock` (its device's): lets go of the lock only once
  // the hart counts as asleep (so a wake made under the lock is never lost), runs other harts
  // until wake(hart) is called, and returns with the lock held again. May return early: the
  // caller checks its condition again.
  virtual void sleep(Hart& hart, DeviceLock& lock) = 0;
  // Makes a sleeping hart runnable; a hart that is not asleep is left alone. Called under the
  // lock the hart sleeps with, from any thread.
  virtual void wake(uint32_t hart_index) = 0;
  // Called before the hart's CSR or MMIO access whose count (Hart::accesses()) reaches
  // Hart::give_way_at(), with no device lock held: a hart that polls a register instead of
  // sleeping must still let the others run. The sleeper sets the next mark.
  virtual void access(Hart& hart) = 0;
  // With mailbox parts (MachineParams::mailbox_parts): another part handed part `part` messages
  // or room, which its exchange takes in (Machine::mailbox_exchange). Called from any thread,
  // under no lock of that part's.
  virtual void mail(uint32_t part) { (void)part; }
};

}  // namespace tessera::host
