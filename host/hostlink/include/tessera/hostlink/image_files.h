// Firmware images as files: Tinsel's pair of Verilog memory files (objcopy -O verilog, which the
// firmware build writes beside every ELF) read back into memory segments, and segments written
// as an ELF that -M tessera boots. HostLink::boot uses both.
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

namespace tessera::hostlink {

// Bytes that start at a bus address.
struct Segment {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

// True if the file starts with the ELF magic. Throws std::runtime_error if it cannot be read.
bool is_elf_file(const std::string& path);

// Reads "@<hex address>" lines and hex bytes (objcopy -O verilog), joining contiguous runs into
// one segment each, in address order. Throws std::runtime_error naming the file and line of
// anything else, of overlapping bytes, and of a file that cannot be read.
std::vector<Segment> read_verilog_memory(const std::string& path);

// Writes a static little-endian RV32 ELF executable: one PT_LOAD per segment, entry `entry`.
// Throws std::runtime_error if the file cannot be written.
void write_elf(const std::string& path, const std::vector<Segment>& segments, uint32_t entry);

}  // namespace tessera::hostlink
