// Tinsel's Verilog memory files in, ELF images out (image_files.h).
#include "tessera/hostlink/image_files.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

using tessera::hostlink::Segment;

class ImageFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/image-files-test.XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { (void)system(("rm -rf " + dir_).c_str()); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string ErrorOf(const std::string& path) {
    try {
      tessera::hostlink::read_verilog_memory(path);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }

  std::string dir_;
};

TEST_F(ImageFilesTest, ReadsObjcopyVerilogIntoContiguousSegments) {
  const auto segments = tessera::hostlink::read_verilog_memory(
      Write("code.v", "@80000000\n6F 00 00 02 54 53\n49 4D\n@80000008\n01 02\n@80001000\nAa\n"));
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].address, 0x80000000u);
  EXPECT_EQ(segments[0].bytes, (std::vector<uint8_t>{0x6f, 0, 0, 2, 0x54, 0x53, 0x49, 0x4d, 1, 2}));
  EXPECT_EQ(segments[1].address, 0x80001000u);
  EXPECT_EQ(segments[1].bytes, std::vector<uint8_t>{0xaa});
}

TEST_F(ImageFilesTest, NamesTheLineOfAnythingElse) {
  EXPECT_NE(ErrorOf(Write("bad.v", "@0\n00 01\nzz\n")).find("line 3: 'zz' is neither"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write("wide.v", "@0\n0001\n")).find("line 2: '0001'"), std::string::npos);
  EXPECT_NE(ErrorOf(Write("twice.v", "@10\n01\n@10\n02\n")).find("a second byte at 0x00000010"),
            std::string::npos);
  EXPECT_NE(ErrorOf(dir_ + "/missing.v").find("No such file"), std::string::npos);
}

TEST_F(ImageFilesTest, WritesAnElfWithOneLoadSegmentEach) {
  const std::string path = dir_ + "/image.elf";
  tessera::hostlink::write_elf(
      path, {Segment{0x80000000u, {1, 2, 3, 4}}, Segment{0x80002000u, {9}}}, 0x80000000u);
  EXPECT_TRUE(tessera::hostlink::is_elf_file(path));
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), sizeof(Elf32_Ehdr) + 2 * sizeof(Elf32_Phdr) + 5);
  Elf32_Ehdr header;
  memcpy(&header, bytes.data(), sizeof header);
  EXPECT_EQ(header.e_machine, EM_RISCV);
  EXPECT_EQ(header.e_entry, 0x80000000u);
  EXPECT_EQ(header.e_phnum, 2);
  Elf32_Phdr second;
  memcpy(&second, bytes.data() + header.e_phoff + sizeof(Elf32_Phdr), sizeof second);
  EXPECT_EQ(second.p_type, static_cast<Elf32_Word>(PT_LOAD));
  EXPECT_EQ(second.p_vaddr, 0x80002000u);
  EXPECT_EQ(second.p_filesz, 1u);
  EXPECT_EQ(bytes[second.p_offset], 9);
  EXPECT_FALSE(tessera::hostlink::is_elf_file(Write("code.v", "@0\n00\n")));
}

}  // namespace
