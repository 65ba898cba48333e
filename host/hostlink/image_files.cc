// Tinsel's Verilog memory files and ELF images (image_files.h).
#include "tessera/hostlink/image_files.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

namespace tessera::hostlink {
namespace {

std::runtime_error file_error(const std::string& path, const std::string& what) {
  return std::runtime_error("'" + path + "': " + what);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The whole of a hex token, or -1 if it is not one (or does not fit in 32 bits).
int64_t hex_token(const std::string& token) {
  if (token.empty() || token.size() > 8) return -1;
  int64_t value = 0;
  for (const char c : token) {
    const int digit = hex_value(c);
    if (digit < 0) return -1;
    value = value << 4 | digit;
  }
  return value;
}

}  // namespace

bool is_elf_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw file_error(path, strerror(errno));
  }
  char magic[SELFMAG] = {};
  in.read(magic, SELFMAG);
  return in.gcount() == SELFMAG && memcmp(magic, ELFMAG, SELFMAG) == 0;
}

std::vector<Segment> read_verilog_memory(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw file_error(path, strerror(errno));
  }
  std::map<uint32_t, uint8_t> bytes;
  uint64_t address = 0;
  std::string line;
  for (int number = 1; std::getline(in, line); number++) {
    size_t at = 0;
    while (true) {
      at = line.find_first_not_of(" \t\r", at);
      if (at == std::string::npos) break;
      const size_t end = std::min(line.find_first_of(" \t\r", at), line.size());
      const std::string token = line.substr(at, end - at);
      at = end;
      const bool is_address = token[0] == '@';
      const int64_t value = hex_token(is_address ? token.substr(1) : token);
      if (value < 0 || (!is_address && token.size() != 2)) {
        throw file_error(path, "line " + std::to_string(number) + ": '" + token +
                                   "' is neither @<address> nor a hex byte");
      }
      if (is_address) {
        address = static_cast<uint64_t>(value);
        continue;
      }
      if (address > UINT32_MAX) {
        throw file_error(path, "line " + std::to_string(number) + ": bytes past 0xffffffff");
      }
      if (!bytes.emplace(static_cast<uint32_t>(address), static_cast<uint8_t>(value)).second) {
        char where[16];
        snprintf(where, sizeof where, "0x%08llx", static_cast<unsigned long long>(address));
        throw file_error(path, "line " + std::to_string(number) + ": a second byte at " + where);
      }
      address++;
    }
  }
  if (in.bad()) {
    throw file_error(path, strerror(errno));
  }
  std::vector<Segment> segments;
  for (const auto& [at, byte] : bytes) {
    if (segments.empty() ||
        segments.back().address + segments.back().bytes.size() != static_cast<uint64_t>(at)) {
      segments.push_back(Segment{at, {}});
    }
    segments.back().bytes.push_back(byte);
  }
  return segments;
}

void write_elf(const std::string& path, const std::vector<Segment>& segments, uint32_t entry) {
  Elf32_Ehdr header{};
  memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS32;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_EXEC;
  header.e_machine = EM_RISCV;
  header.e_version = EV_CURRENT;
  header.e_entry = entry;
  header.e_phoff = sizeof(Elf32_Ehdr);
  header.e_flags = 0x2;  // EF_RISCV_FLOAT_ABI_SINGLE: the ilp32f ABI of the firmware
  header.e_ehsize = sizeof(Elf32_Ehdr);
  header.e_phentsize = sizeof(Elf32_Phdr);
  header.e_phnum = static_cast<Elf32_Half>(segments.size());

  std::vector<Elf32_Phdr> programs;
  uint32_t offset = sizeof(Elf32_Ehdr) + segments.size() * sizeof(Elf32_Phdr);
  for (const Segment& s : segments) {
    Elf32_Phdr p{};
    p.p_type = PT_LOAD;
    p.p_offset = offset;
    p.p_vaddr = p.p_paddr = s.address;
    p.p_filesz = p.p_memsz = static_cast<Elf32_Word>(s.bytes.size());
    p.p_flags = PF_R | PF_W | PF_X;
    p.p_align = 1;
    programs.push_back(p);
    offset += p.p_filesz;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  out.write(reinterpret_cast<const char*>(programs.data()),
            static_cast<std::streamsize>(programs.size() * sizeof(Elf32_Phdr)));
  for (const Segment& s : segments) {
    out.write(reinterpret_cast<const char*>(s.bytes.data()),
              static_cast<std::streamsize>(s.bytes.size()));
  }
  out.close();
  if (!out) {
    throw file_error(path, std::string("cannot write: ") + strerror(errno));
  }
}

}  // namespace tessera::hostlink
