// The MSWI on the host machine: each board's msip registers at the QEMU
// machine's addresses, read back through msip and through mip.MSIP.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"
#include "tessera/testing/errors.h"

namespace tessera::host {
namespace {

using tessera::testing::ErrorOf;
using tessera::testing::Mentions;

// 3x2 boards of 2 tiles, 2 cores, 2 threads: 8 harts per board, sparse ids.
constexpr TesseraShape kShape{3, 2, 2, 1, 2, 2};
constexpr uint32_t kPerBoard = 8;

uint32_t MsipAddress(uint32_t board, uint32_t local) {
  return TESSERA_MSWI_BASE + board * TESSERA_MSWI_STRIDE + 4 * local;
}

uint32_t MipOf(Machine& machine, uint32_t index) {
  HartScope scope(machine.hart_at(index));
  return hal::csr_read<TESSERA_CSR_MIP>();
}

TEST(HostMswi, MsipOfABoardLocalHartShowsInItsMipOnly) {
  Machine machine(kShape);
  const uint32_t board = 4;
  const uint32_t local = 5;
  {
    HartScope scope(machine, 0);  // any hart may write any board's msip
    hal::mmio_write32(MsipAddress(board, local), 1);
    EXPECT_EQ(hal::mmio_read32(MsipAddress(board, local)), 1u);
  }
  for (uint32_t i = 0; i < machine.num_harts(); i++) {
    EXPECT_EQ(MipOf(machine, i), i == board * kPerBoard + local ? TESSERA_MIP_MSIP : 0u) << i;
  }
  HartScope scope(machine.hart_at(board * kPerBoard + local));
  hal::mmio_write32(MsipAddress(board, local), 0);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_MIP>(), 0u);
}

TEST(HostMswi, OnlyBitZeroIsKeptAndMipIgnoresWrites) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  hal::mmio_write32(MsipAddress(0, 0), 0xffff'fffeu);
  EXPECT_EQ(hal::mmio_read32(MsipAddress(0, 0)), 0u);
  hal::mmio_write32(MsipAddress(0, 0), 0xffff'ffffu);
  EXPECT_EQ(hal::mmio_read32(MsipAddress(0, 0)), 1u);
  EXPECT_EQ(hal::csr_swap<TESSERA_CSR_MIP>(0), TESSERA_MIP_MSIP);  // clears nothing
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_MIP>(), TESSERA_MIP_MSIP);
}

TEST(HostMswi, MsipOfAHartTheBoardDoesNotHaveFails) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const std::string error = ErrorOf([] { hal::mmio_write32(MsipAddress(1, kPerBoard), 1); });
  EXPECT_TRUE(Mentions(error, "does not have"));
  EXPECT_TRUE(Mentions(error, "mswi"));
  EXPECT_TRUE(
      Mentions(ErrorOf([] { hal::mmio_read32(MsipAddress(1, kPerBoard)); }), "does not have"));
  EXPECT_EQ(MipOf(machine, 2 * kPerBoard), 0u);  // the next board's first hart
}

TEST(HostMswi, BoardsBeyondTheMachineAreUnmapped) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const std::string error = ErrorOf([] { hal::mmio_write32(MsipAddress(6, 0), 1); });
  EXPECT_TRUE(Mentions(error, "no device"));
}

TEST(HostMswi, BoardsTooLargeForAnMswiBlockAreRefused) {
  // 8x8 tiles x 4 cores x 32 threads = 8,192 threads per board: a shape
  // the other models accept.
  try {
    Machine machine({1, 1, 8, 8, 4, 32});
    ADD_FAILURE() << "a board of 8,192 threads was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(Mentions(e.what(), "MSWI block holds at most 4096"));
  }
}

}  // namespace
}  // namespace tessera::host
