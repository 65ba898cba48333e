// The HAL host backend: the facades' CSR and MMIO accesses, sent to the
// machine of the hart bound to the calling thread.
#include "tessera/hal/backend/csr_backend.h"
#include "tessera/hal/backend/dram_backend.h"
#include "tessera/hal/backend/mmio_backend.h"
#include "tessera/hal/backend/scratch_backend.h"
#include "tessera/host/hart.h"
#include "tessera/host/machine.h"

namespace tessera::hal::backend {

uint32_t host_csr_swap(uint16_t csr, uint32_t value) {
  host::Hart& hart = host::current_hart();
  return hart.machine().csr_swap(hart, csr, value);
}

uint32_t host_csr_read(uint16_t csr) {
  host::Hart& hart = host::current_hart();
  return hart.machine().csr_read(hart, csr);
}

uint32_t mmio_read32(uint32_t bus_address) {
  host::Hart& hart = host::current_hart();
  return hart.machine().mmio_read32(hart, bus_address);
}

void mmio_write32(uint32_t bus_address, uint32_t value) {
  host::Hart& hart = host::current_hart();
  hart.machine().mmio_write32(hart, bus_address, value);
}

volatile void* scratch_pointer(uint32_t bus_address) {
  host::Hart& hart = host::current_hart();
  return hart.machine().scratch_pointer(hart, bus_address);
}

uint32_t scratch_bus_address(const volatile void* pointer) {
  host::Hart& hart = host::current_hart();
  return hart.machine().scratch_bus_address(hart, pointer);
}

void* dram_pointer(uint32_t bus_address) {
  host::Hart& hart = host::current_hart();
  return hart.machine().dram_pointer(hart, bus_address);
}

}  // namespace tessera::hal::backend
