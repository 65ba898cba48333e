// The host machine: the Tessera memory map and CSRs backed by the same
// plain-C device models as the QEMU machine (DESIGN 2.5), with host threads
// standing in for harts. Each Machine owns its models, so tests that build
// their own machines share no state.
#pragma once

#include <stdint.h>

#include <array>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/host/device.h"
#include "tessera/host/hart.h"
#include "tessera/hw/regs.h"

namespace tessera::host {

// One whole console line of one hart, without its newline.
struct ConsoleLine {
  uint32_t hart_id;
  uint32_t hart_index;
  std::string text;
};

// Defaults are those of the QEMU machine (-M tessera).
struct MachineParams {
  uint32_t clock_mhz = 240;
  // Bytes per board; 0: just enough for the image and the partitions,
  // rounded up to whole MiB.
  uint32_t dram_size = 0;
  uint32_t partition_size = 16u << 10;  // bytes of stack and heap per hart
  // Called with every console line as it is emitted, besides recording it
  // (e.g. to echo the guest's output). Called under the console's lock.
  std::function<void(const ConsoleLine&)> console_sink;
};

// Thrown on the hart that ends the run through the exit device: on the
// real machine nothing after that write executes. Machine::run_on_harts
// catches it; the code is in Machine::exit_code().
class MachineExit : public std::exception {
 public:
  explicit MachineExit(int code) : code_(code) {}
  int code() const { return code_; }
  const char* what() const noexcept override { return "tessera: the machine has exited"; }

 private:
  int code_;
};

class ConsoleDevice;

class Machine {
 public:
  // Throws std::invalid_argument for a shape or parameters the machine
  // cannot have (see tessera_sysinfo_new).
  explicit Machine(const TesseraShape& shape, MachineParams params = {});
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  const TesseraShape& shape() const { return shape_; }
  const MachineParams& params() const { return params_; }
  uint32_t num_harts() const { return static_cast<uint32_t>(harts_.size()); }

  // Throws std::out_of_range for an id that names no thread of the shape.
  Hart& hart(uint32_t thread_id);
  Hart& hart_at(uint32_t dense_index) { return *harts_.at(dense_index); }
  // Every thread id, in dense-index order.
  std::vector<uint32_t> thread_ids() const;

  // Adds a device to the bus. Only before any hart runs: the dispatch
  // tables are read without a lock. Throws std::logic_error if the device
  // claims an address or a CSR that another device has.
  void attach(std::unique_ptr<Device> device);

  // The bus as seen by `hart`. Each access costs the hart one cycle.
  // Unmapped or unaligned addresses and unimplemented CSRs throw
  // std::logic_error naming the address or CSR and the hart.
  uint32_t mmio_read32(Hart& hart, uint32_t address);
  void mmio_write32(Hart& hart, uint32_t address, uint32_t value);
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value);

  // Runs `program` on one new host thread per listed hart, each inside a
  // HartScope, and waits for all of them. A hart that ends the run through
  // the exit device stops there; the first other exception is rethrown
  // once every thread has finished.
  void run_on_harts(std::span<const uint32_t> thread_ids,
                    const std::function<void(Hart&)>& program);
  void run_on_all_harts(const std::function<void(Hart&)>& program);

  // Every console line emitted so far, in emission order.
  std::vector<ConsoleLine> console_lines() const;
  // Emits every hart's partial console line (as at machine exit).
  void flush_console();

  // Ends the run with `code` (0 = success). The first call wins; later ones
  // are ignored, as if the process had ended. Called by devices.
  void end_run(int code);
  // The run's exit code, once a device has ended it.
  std::optional<int> exit_code() const;

 private:
  Device& device_at(Hart& hart, uint32_t address, uint32_t& offset);

  TesseraShape shape_;
  MachineParams params_;
  std::vector<std::unique_ptr<Hart>> harts_;  // by dense index
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::pair<MmioWindow, Device*>> mmio_map_;  // sorted by base
  std::array<Device*, 4096> csr_map_{};                   // by CSR number
  ConsoleDevice* console_ = nullptr;

  mutable std::mutex exit_mutex_;
  std::optional<int> exit_code_;
};

}  // namespace tessera::host
