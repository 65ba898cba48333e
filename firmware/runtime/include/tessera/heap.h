// The calling hart's own memory beyond its stack.
//
// Each hart has a partition of PARTITION_SIZE bytes of its board's DRAM (sysinfo): its
// thread-local block at the bottom, its stack growing down from the top. Everything between is
// the hart's to use; there is no allocator and no check that the stack stays out of it.
#pragma once

namespace tessera {

// First byte after the calling hart's thread-local block, 16-byte aligned (Tinsel's
// tinselHeapBase()).
void* heap_base();

}  // namespace tessera
