#include "ring_machine.h"

#include <HostLink.h>

#include <chrono>
#include <cstring>

namespace tessera::shake {

namespace {

bool powerOfTwo(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

RingShape ringShape(uint32_t threads, const MachineOptions& options) {
  RingShape r;
  // Boards in a row, the fewest from 2 up whose share is a power of two: the ring then crosses
  // from board to board, and each board's threads fill whole cores of 4 where they can.
  for (uint32_t boards = 2; boards <= 8; boards++) {
    if (threads % boards != 0 || !powerOfTwo(threads / boards)) continue;
    uint32_t left = threads / boards;
    const uint32_t perCore = std::min<uint32_t>(left, 4);
    left /= perCore;
    const uint32_t cores = std::min<uint32_t>(left, 4);
    left /= cores;
    uint32_t tilesX = 1, tilesY = 1;
    while (left > 1) {
      (tilesX <= tilesY ? tilesX : tilesY) *= 2;
      left /= 2;
    }
    if (tilesX > 8 || tilesY > 8) break;
    const uint32_t cpi = options.cpiIsThreadsPerCore ? perCore : 1;
    r.shape = TesseraShape{boards, 1, tilesX, tilesY, cores, perCore};
    r.properties =
        "boards-x=" + std::to_string(boards) + ",boards-y=1,tiles-x=" + std::to_string(tilesX) +
        ",tiles-y=" + std::to_string(tilesY) + ",cores-per-tile=" + std::to_string(cores) +
        ",threads-per-core=" + std::to_string(perCore) +
        ",partition-kib=" + std::to_string(options.partitionKib) + ",cpi=" + std::to_string(cpi);
    return r;
  }
  r.error = "a ring of " + std::to_string(threads) +
            " threads: the ring is every hart of a machine of 2 to 8 boards in a row with a power "
            "of two threads each (up to 1,024), so its size must be such a product";
  return r;
}

uint32_t imageCapacity(const MachineOptions& options) {
  return options.partitionKib * 1024 / 4;
}

MachineRun runOnMachine(const FixedMolecule& m, const RingLayout& layout, const RingImages& images,
                        const MachineOptions& options) {
  MachineRun out;
  const uint32_t P = static_cast<uint32_t>(layout.threads.size());
  const RingShape ring = ringShape(P, options);
  out.shape = ring.properties;
  if (!ring.error.empty()) {
    out.run.error = ring.error;
    return out;
  }
  HostLink hostLink(HostLinkParams{}, TesseraHostLinkBuild{out.shape.c_str(), TESSERA_HOSTLINK_QEMU,
                                                           TESSERA_HOSTLINK_QEMU_CMD});
  // The ring is the machine's harts in dense order, as the firmware numbers its neighbours.
  for (uint32_t t = 0; t < P; t++) {
    const std::vector<uint8_t>& bytes = images.threads[t].bytes;
    hostLink.tesseraLoadHeapSRAM(tessera_thread_at(&ring.shape, t), bytes.data(),
                                 static_cast<uint32_t>(bytes.size()));
  }
  const auto start = std::chrono::steady_clock::now();
  hostLink.boot(options.image.c_str(), nullptr);
  hostLink.go();
  RingCollector collector(m, layout, images);
  while (!collector.complete()) {
    ring::Message message;
    hostLink.recvMsg(&message, sizeof message);
    if (!collector.add(message)) {
      out.run.error = errorAt(m.name, 0,
                              "the ring sent a message no run expects (kind " +
                                  std::to_string(static_cast<uint32_t>(message.kind)) + ")");
      hostLink.dumpStdOut();
      return out;
    }
  }
  out.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  hostLink.dumpStdOut();  // waits for the end: status 0, or HostLink reports it and exits
  out.run = collector.result();
  return out;
}

}  // namespace tessera::shake
