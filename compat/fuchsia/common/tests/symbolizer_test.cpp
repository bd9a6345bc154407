// SPDX-License-Identifier: MIT
// The symbolizer on this (PIE) test program, a shared library (libc), and a stripped file.
#include "fuchsia_common/symbolizer.h"

#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

using fuchsia_common::Mapping;
using fuchsia_common::Symbol;
using fuchsia_common::Symbolizer;

extern "C" __attribute__((noinline)) int SymbolizerTestMarker(int x) {
  asm volatile("" ::: "memory");
  return x * 3 + 1;
}

namespace {

uint64_t Address(const void* p) { return reinterpret_cast<uint64_t>(p); }

TEST(Symbolizer, NamesAFunctionOfThisPieProgramWithItsSourceLine) {
  Symbolizer symbolizer;
  std::string error;
  ASSERT_TRUE(symbolizer.AddProcess(getpid(), &error)) << error;
  Symbol s = symbolizer.Resolve(Address(reinterpret_cast<const void*>(&SymbolizerTestMarker)) + 1);
  EXPECT_TRUE(s.in_module);
  EXPECT_EQ(s.function, "SymbolizerTestMarker");
  EXPECT_EQ(s.function_offset, 1u);
  EXPECT_NE(s.file.find("symbolizer_test.cpp"), std::string::npos) << s.file;
  EXPECT_GT(s.line, 0);
  EXPECT_NE(s.module.find("fuchsia_common_test"), std::string::npos) << s.module;
}

TEST(Symbolizer, NamesAFunctionOfASharedLibrary) {
  Symbolizer symbolizer;
  std::string error;
  ASSERT_TRUE(symbolizer.AddProcess(getpid(), &error)) << error;
  // getpid as the program sees it: libc's, through the GOT.
  pid_t (*volatile function)() = &getpid;
  Symbol s = symbolizer.Resolve(Address(reinterpret_cast<const void*>(function)));
  EXPECT_TRUE(s.in_module);
  EXPECT_NE(s.module.find("libc"), std::string::npos) << s.module;
  EXPECT_NE(s.function.find("getpid"), std::string::npos) << s.function;
  EXPECT_EQ(s.function_offset, 0u);
}

TEST(Symbolizer, APcOutsideEveryModuleIsOnlyAnAddress) {
  Symbolizer symbolizer;
  std::string error;
  ASSERT_TRUE(symbolizer.AddProcess(getpid(), &error)) << error;
  Symbol s = symbolizer.Resolve(0x10);
  EXPECT_FALSE(s.in_module);
  EXPECT_TRUE(s.function.empty());
  EXPECT_TRUE(s.module.empty());
}

TEST(Symbolizer, ReportsAProcessThatIsGone) {
  Symbolizer symbolizer;
  std::string error;
  EXPECT_FALSE(symbolizer.AddProcess(0x7ffffff0, &error));
  EXPECT_NE(error.find("/proc/"), std::string::npos) << error;
}

// The executable segment of `path` as if mapped with load bias `bias`; *entry = e_entry.
Mapping ExecutableSegment(const std::string& path, uint64_t bias, uint64_t* entry) {
  Mapping mapping;
  int fd = open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0) << path;
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  GElf_Ehdr ehdr;
  EXPECT_NE(gelf_getehdr(elf, &ehdr), nullptr);
  *entry = ehdr.e_entry;
  for (int i = 0; i < ehdr.e_phnum; ++i) {
    GElf_Phdr phdr;
    gelf_getphdr(elf, i, &phdr);
    if (phdr.p_type != PT_LOAD || !(phdr.p_flags & PF_X)) continue;
    uint64_t offset = phdr.p_offset & ~uint64_t{0xfff};
    mapping.start = bias + phdr.p_vaddr - (phdr.p_offset - offset);
    mapping.end = bias + phdr.p_vaddr + phdr.p_memsz;
    mapping.file_offset = offset;
    mapping.path = path;
  }
  elf_end(elf);
  close(fd);
  return mapping;
}

// Maps `path`'s executable segment at a made-up load address, as a process would, and
// resolves the address `past` bytes after its entry point (e_entry in *entry).
void ResolvePastEntry(const std::string& path, uint64_t past, uint64_t* entry, Symbol* s) {
  const uint64_t bias = 0x7f1200000000;
  Mapping mapping = ExecutableSegment(path, bias, entry);
  ASSERT_FALSE(mapping.path.empty());
  Symbolizer symbolizer;
  symbolizer.AddMapping(mapping);
  *s = symbolizer.Resolve(bias + *entry + past);
}

TEST(Symbolizer, AStrippedModuleGivesItsNameAndOffsetButNoFunction) {
  const std::string path = std::string(SYMBOLIZE_TARGET) + ".stripped";
  uint64_t entry = 0;
  Symbol s;
  ASSERT_NO_FATAL_FAILURE(ResolvePastEntry(path, 2, &entry, &s));
  EXPECT_TRUE(s.in_module);
  EXPECT_EQ(s.module, path);
  EXPECT_EQ(s.module_offset, entry + 2);
  EXPECT_TRUE(s.function.empty()) << s.function;
  EXPECT_TRUE(s.file.empty()) << s.file;
}

TEST(Symbolizer, TheSameFileUnstrippedNamesItsEntryPoint) {
  const std::string path = SYMBOLIZE_TARGET;
  uint64_t entry = 0;
  Symbol s;
  ASSERT_NO_FATAL_FAILURE(ResolvePastEntry(path, 0, &entry, &s));
  EXPECT_EQ(s.function, "_start");
  EXPECT_EQ(s.module_offset, entry);
  EXPECT_EQ(s.build_id.size() % 2, 0u);
}

TEST(Symbolizer, AMappingOfAFileThatIsNotElfKeepsItsFileOffset) {
  Symbolizer symbolizer;
  symbolizer.AddMapping(Mapping{0x5000, 0x9000, 0x2000, "/proc/self/status"});
  Symbol s = symbolizer.Resolve(0x5010);
  EXPECT_TRUE(s.in_module);
  EXPECT_EQ(s.module, "/proc/self/status");
  EXPECT_EQ(s.module_offset, 0x2010u);
  EXPECT_TRUE(s.function.empty());
}

TEST(Symbolizer, ProcessesMappingOneFileShareItsTableIndexedOnce) {
  // 20 address spaces (20 processes of one program), each with the file at its own address.
  auto files = std::make_shared<fuchsia_common::SymbolFiles>();
  for (int i = 0; i < 20; ++i) {
    const uint64_t bias = 0x7f1200000000 + static_cast<uint64_t>(i) * 0x1000000;
    uint64_t entry = 0;
    Mapping mapping = ExecutableSegment(SYMBOLIZE_TARGET, bias, &entry);
    ASSERT_FALSE(mapping.path.empty());
    Symbolizer symbolizer(files);
    symbolizer.AddMapping(mapping);
    Symbol s = symbolizer.Resolve(bias + entry);
    EXPECT_EQ(s.function, "_start") << i;
    EXPECT_EQ(s.module_offset, entry) << i;
  }
  EXPECT_EQ(files->files_indexed(), 1u);
}

TEST(Symbolizer, AMappingOverAnotherRetiresIt) {
  // Another file mapped where the program was (at the same start): its PCs are the new file's.
  const uint64_t bias = 0x7f1200000000;
  uint64_t entry = 0;
  Symbolizer symbolizer;
  Mapping program = ExecutableSegment(SYMBOLIZE_TARGET, bias, &entry);
  symbolizer.AddMapping(program);
  EXPECT_EQ(symbolizer.Resolve(bias + entry).function, "_start");
  symbolizer.AddMapping(Mapping{program.start, program.end, 0, "/proc/self/status"});
  Symbol s = symbolizer.Resolve(bias + entry);
  EXPECT_EQ(s.module, "/proc/self/status");
  EXPECT_TRUE(s.function.empty()) << s.function;
}

TEST(Symbolizer, AFifoAtAMappedFilesPathIsNotWaitedOn) {
  char dir[] = "/tmp/symbolizer_fifo_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string fifo = std::string(dir) + "/libgone.so";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Symbolizer symbolizer;
  symbolizer.AddMapping(Mapping{0x5000, 0x9000, 0, fifo});  // would block in open
  Symbol s = symbolizer.Resolve(0x5010);
  EXPECT_TRUE(s.in_module);
  EXPECT_EQ(s.module_offset, 0x10u);
  EXPECT_TRUE(s.function.empty());
  unlink(fifo.c_str());
  rmdir(dir);
}

}  // namespace
