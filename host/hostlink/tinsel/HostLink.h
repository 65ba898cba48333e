// Tinsel's HostLink on Tessera: the host side of a Tinsel program (its run.cpp) builds and runs
// unchanged. A HostLink starts and owns the emulated machine underneath, a QEMU process of
// -M tessera in the deterministic mode, with its host link and console wired to this object.
// docs/tinsel.md has what is compatible and what differs.
//
//   HostLink hostLink;                    // the machine of config.h's shape (one Tinsel box)
//   hostLink.boot("code.v", "data.v");    // Tinsel's memory files, or an ELF and nullptr
//   hostLink.go();                        // the threads start
//   hostLink.send(dest, 1, msg);          // messages both ways, 16-byte flits
//   hostLink.recv(msg);
//   hostLink.dumpStdOut();                // console lines as "x:y:c:t: text"
//
// The shape comes from the program's config.h (tessera_add_tinsel_app writes it): a box is the
// whole mesh of that shape, so HostLink() and HostLink(1, 1) start it and more boxes are refused.
// Errors (no such file, a shape that does not fit, the machine ending early) print one line
// starting "HostLink:" on stderr and exit, as Tinsel's HostLink exits on its errors. When the
// program ends, however it ends, the machine ends with it.
#ifndef TESSERA_TINSEL_HOSTLINK_H
#define TESSERA_TINSEL_HOSTLINK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include <memory>

// The library itself is built once for every shape: only programs see config.h.
#ifndef TESSERA_HOSTLINK_LIBRARY
#include <config.h>
#endif

// Where the SDK's CMake package or Makefile fragment put QEMU and its command-line script;
// the environment variable TESSERA_QEMU overrides the first at run time.
#ifndef TESSERA_HOSTLINK_QEMU
#define TESSERA_HOSTLINK_QEMU "qemu-system-riscv32"
#endif
#ifndef TESSERA_HOSTLINK_QEMU_CMD
#define TESSERA_HOSTLINK_QEMU_CMD "qemu-cmd.sh"
#endif

// Max line length of the console, as Tinsel's (Tessera's console lines hold 256 bytes).
#define MaxLineLen 128

struct HostLinkParams {
  uint32_t numBoxesX = 1;
  uint32_t numBoxesY = 1;
  // Tinsel's request to keep each thread's slot 1 back for tinselSendSlotExtra(). Accepted and
  // not needed: an image that calls tinselSendSlotExtra keeps the slot back by itself.
  bool useExtraSendSlot = false;
  // Tinsel's retries when connecting to its daemon; the emulated machine needs none.
  int max_connection_attempts = 5;
};

// What the program was built for, from its config.h (see the constructors).
struct TesseraHostLinkBuild {
  const char* machine_properties;  // TesseraConfigProperties
  const char* qemu;                // TESSERA_HOSTLINK_QEMU
  const char* qemu_cmd;            // TESSERA_HOSTLINK_QEMU_CMD
};

class HostLink {
 public:
  // Dimensions of the board mesh.
  int meshXLen = 0;
  int meshYLen = 0;

  // Boxes from HOSTLINK_BOXES_X and HOSTLINK_BOXES_Y (default 1 each), as Tinsel's.
  HostLink();
  HostLink(uint32_t numBoxesX, uint32_t numBoxesY);
  explicit HostLink(HostLinkParams params);
  HostLink(HostLinkParams params, TesseraHostLinkBuild build);
  HostLink(const HostLink&) = delete;
  HostLink& operator=(const HostLink&) = delete;
  // Stops the machine.
  ~HostLink();

  // ---- Messages (a flit is 16 bytes, a message 1..4 flits) ----

  // Sends numFlits flits of msg to thread dest. Always true: the link takes every message.
  bool send(uint32_t dest, uint32_t numFlits, void* msg, bool block = true);
  // Sends if the link can take the message now (true), or does nothing (false).
  bool trySend(uint32_t dest, uint32_t numFlits, void* msg);
  // The next message a thread sent to the host, as 64 bytes (unused flits zero).
  void recv(void* msg);
  // True if recv() would not wait.
  bool canRecv();
  // The first numBytes of the next message.
  void recvMsg(void* msg, uint32_t numBytes);
  // numMsgs messages of 64 bytes each, in arrival order.
  void recvBulk(int numMsgs, void* msgs);
  // numMsgs messages, the first msgSize bytes of each, packed.
  void recvMsgs(int numMsgs, int msgSize, void* msgs);
  // When set, send() buffers messages until flush() (blocking sends only, as Tinsel's).
  bool useSendBuffer = false;
  void flush();

  // ---- Thread ids (coreId counts the cores of a board) ----
  uint32_t toAddr(uint32_t meshX, uint32_t meshY, uint32_t coreId, uint32_t threadId);
  void fromAddr(uint32_t addr, uint32_t* meshX, uint32_t* meshY, uint32_t* coreId,
                uint32_t* threadId);

  // ---- Starting the machine ----

  // Starts the machine with the image: Tinsel's code and data memory files (the build writes
  // them beside every ELF: <app>.code.v, <app>.data.v), or an ELF file (dataFilename nullptr or
  // ignored). The threads stay stopped until go().
  void boot(const char* codeFilename, const char* dataFilename);
  void go();

  // ---- Console: lines as "x:y:c:t: text" (board x, y; core of the board; thread) ----

  // Prints the lines that arrived (non-blocking); true if there were any.
  bool pollStdOut(FILE* outFile, uint32_t* lineCount);
  bool pollStdOut(FILE* outFile);
  bool pollStdOut();
  // Prints lines as they come until the machine ends. Tinsel's never returns; this one returns
  // when the machine ends with status 0 and exits with the machine's status otherwise.
  void dumpStdOut(FILE* outFile);
  void dumpStdOut();
  // Prints the next `lines` lines, waiting for them.
  void dumpStdOut(FILE* outFile, uint32_t lines);

  // ---- Tessera: memory the machine starts with ----

  // Bytes for a thread's "SRAM" heap (tinselHeapBaseSRAM(), a quarter of its partition from the
  // middle), written when boot() starts the machine, before any thread runs: how PGraph::write
  // gives the vertex runtime its graph (docs/vertex-api.md). Only before boot().
  void tesseraLoadHeapSRAM(uint32_t threadId, const void* data, uint32_t numBytes);

  // Tinsel calls that need hardware Tessera does not model: each is a compile error that says why.
  [[gnu::error(
      "HostLink::keySend: Tessera has no programmable routers, so no routing keys; "
      "send to thread ids (docs/tinsel.md)")]] bool
  keySend(uint32_t key, uint32_t numFlits, void* msg, bool block = true);
  [[gnu::error(
      "HostLink::keyTrySend: Tessera has no programmable routers, so no routing keys "
      "(docs/tinsel.md)")]] bool
  keyTrySend(uint32_t key, uint32_t numFlits, void* msg);
  [[gnu::error(
      "HostLink::powerOnSelfTest: there is no FPGA to test; boot() reports a machine "
      "that does not start (docs/tinsel.md)")]] bool
  powerOnSelfTest();

  struct Machine;

 private:
  static HostLinkParams paramsFromEnvironment() {
    HostLinkParams params;
    const char* x = getenv("HOSTLINK_BOXES_X");
    const char* y = getenv("HOSTLINK_BOXES_Y");
    params.numBoxesX = x ? static_cast<uint32_t>(atoi(x)) : 1;
    params.numBoxesY = y ? static_cast<uint32_t>(atoi(y)) : 1;
    return params;
  }
  static HostLinkParams boxes(uint32_t x, uint32_t y) {
    HostLinkParams params;
    params.numBoxesX = x;
    params.numBoxesY = y;
    return params;
  }

  std::unique_ptr<Machine> machine_;
};

// Defined in the program, with its config.h: the machine of the shape it was built for.
#ifndef TESSERA_HOSTLINK_LIBRARY
inline HostLink::HostLink() : HostLink(paramsFromEnvironment()) {}
inline HostLink::HostLink(uint32_t numBoxesX, uint32_t numBoxesY)
    : HostLink(boxes(numBoxesX, numBoxesY)) {}
inline HostLink::HostLink(HostLinkParams params)
    : HostLink(params, TesseraHostLinkBuild{TesseraConfigProperties, TESSERA_HOSTLINK_QEMU,
                                            TESSERA_HOSTLINK_QEMU_CMD}) {}
#endif

#endif  // TESSERA_TINSEL_HOSTLINK_H
