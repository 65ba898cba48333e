// libFuzzer target: the mailbox and router model (models/mailbox.c)
// driven CSR by CSR by every hart of an arbitrary small machine, plus the
// host port, with the invariants of mailbox_harness.h (docs/fuzzing.md).
//
// Input: a machine (mailbox_harness.h, decode_mailbox_setup), then one
// operation after another until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include "fuzz_input.h"
#include "mailbox_harness.h"

namespace {
// Long inputs add little but time: libFuzzer keeps inputs short anyway.
constexpr int kMaxOperations = 2000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const fuzz::MailboxSetup setup = fuzz::decode_mailbox_setup(in);
  if (setup.probe_config) {
    fuzz::probe_mailbox_config(in);
  }
  fuzz::MailboxHarness harness(setup);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    harness.step(in);
  }
  harness.finish();
  return 0;
}
