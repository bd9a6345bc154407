#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "pmapi.h"

namespace {

std::set<std::string> FunctionsDeclaredIn(const std::string &path) {
  std::ifstream header(path);
  std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
  // "int pm_start(void);", "char *pm_strerror(...", "double pm_cycles(void);"
  std::regex prototype(R"((?:^|\n)(?:int|double|void|char)\s+\*?(\w+)\()");
  std::set<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), prototype), end; it != end; ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

// pmapi.h and the extension headers libpmapi installs beside it (tests/exports/CMakeLists.txt's
// list, colon-separated).
std::set<std::string> FunctionsDeclaredInHeader() {
  std::set<std::string> names;
  std::string paths = PMAPI_EXPORTED_HEADERS;
  for (size_t start = 0, end; start <= paths.size(); start = end + 1) {
    end = paths.find(':', start);
    if (end == std::string::npos) end = paths.size();
    for (const std::string &name : FunctionsDeclaredIn(paths.substr(start, end - start))) {
      names.insert(name);
    }
  }
  return names;
}

// The extensions docs/ documents beyond the headers: the pthread_create
// interposer (docs/counting.md, threads of a counting-group member).
const std::set<std::string> kDocumentedExtensions = {"pthread_create"};

// Every symbol libpmapi.so defines in its dynamic symbol table, read from the
// loaded object's own .dynsym (DT_SYMTAB, sized by DT_HASH or DT_GNU_HASH):
// what a client can bind to, exactly as the dynamic linker sees it.
std::set<std::string> DefinedDynamicSymbols(void *library) {
  link_map *map = nullptr;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) != 0 || !map) return {};
  const ElfW(Sym) *symbols = nullptr;
  const char *strings = nullptr;
  const uint32_t *hash = nullptr, *gnu_hash = nullptr;
  for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; ++d) {
    auto address = reinterpret_cast<const char *>(d->d_un.d_ptr);
    if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const ElfW(Sym) *>(address);
    if (d->d_tag == DT_STRTAB) strings = address;
    if (d->d_tag == DT_HASH) hash = reinterpret_cast<const uint32_t *>(address);
    if (d->d_tag == DT_GNU_HASH) gnu_hash = reinterpret_cast<const uint32_t *>(address);
  }
  size_t count = 0;
  if (hash) {
    count = hash[1];  // nchain: one entry per symbol
  } else if (gnu_hash) {
    // The highest bucket start, then walk its chain to the end marker.
    const uint32_t buckets = gnu_hash[0], offset = gnu_hash[1], bloom = gnu_hash[2];
    const uint32_t *bucket = gnu_hash + 4 + bloom * (sizeof(ElfW(Addr)) / 4);
    const uint32_t *chain = bucket + buckets;
    uint32_t last = 0;
    for (uint32_t b = 0; b < buckets; ++b) last = std::max(last, bucket[b]);
    if (last >= offset) {
      while ((chain[last - offset] & 1) == 0) ++last;
    }
    count = last + 1;
  }
  std::set<std::string> names;
  if (!symbols || !strings) return names;
  for (size_t i = 1; i < count; ++i) {
    const ElfW(Sym) &symbol = symbols[i];
    if (symbol.st_shndx == SHN_UNDEF) continue;  // imported, not defined here
    if (ELF64_ST_BIND(symbol.st_info) == STB_LOCAL) continue;
    names.insert(strings + symbol.st_name);
  }
  return names;
}

class Exports : public ::testing::Test {
 protected:
  void SetUp() override {
    // RTLD_NODELETE: the library's process-wide objects (the registry, never destroyed by design)
    // stay mapped and reachable after dlclose, as in a program that linked it.
    library_ = dlopen(PMAPI_SHARED_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    ASSERT_NE(library_, nullptr) << dlerror();
  }
  void TearDown() override {
    if (library_) dlclose(library_);
  }
  template <typename F>
  F Symbol(const char *name) {
    return reinterpret_cast<F>(dlsym(library_, name));
  }
  void *library_ = nullptr;
};

TEST_F(Exports, EveryPrototypeInTheHeaderIsExportedByName) {
  std::set<std::string> names = FunctionsDeclaredInHeader();
  EXPECT_GT(names.size(), 170u) << "the header declares the whole API";
  for (const std::string &name : names) {
    EXPECT_NE(dlsym(library_, name.c_str()), nullptr) << name << " is not exported";
  }
}

TEST_F(Exports, OnlyTheApiAndDocumentedExtensionsAreExported) {
  // The whole dynamic symbol table against the header: internal C++ symbols
  // (the core, standard-library instances over internal types) stay hidden,
  // so a client's own names never bind to ours, and nothing the header
  // declares is missing. Names come from the header, so a new prototype
  // needs no edit here.
  std::set<std::string> expected = FunctionsDeclaredInHeader();
  expected.insert(kDocumentedExtensions.begin(), kDocumentedExtensions.end());
  std::set<std::string> exported = DefinedDynamicSymbols(library_);
  ASSERT_GT(exported.size(), 170u) << "could not read libpmapi.so's dynamic symbols";
  for (const std::string &name : exported) {
    if (name.rfind("LIBPMAPI", 0) == 0 || name.empty()) continue;  // version nodes
    EXPECT_TRUE(expected.count(name)) << name << " is exported but is neither in pmapi.h nor "
                                      << "a documented extension";
  }
  for (const std::string &name : expected) {
    EXPECT_TRUE(exported.count(name)) << name << " is declared but not exported";
  }
}

TEST_F(Exports, FamiliesLinuxCannotOfferAnswerUnsupported) {
  pm_prog_t prog = {};
  pm_data_t data = {};
  pm_prog_mx_t prog_mx = {};
  pm_data_mx_t data_mx = {};
  timebasestruct_t time = {};
  int size = 0;
  EXPECT_EQ(Symbol<int (*)(cid_t, pm_prog_t *)>("pm_set_program_wp")(1, &prog), Pmapi_Unsupported);
  EXPECT_EQ(Symbol<int (*)(pm_wp_handle_t, pm_data_t *)>("pm_get_data_wp")(1, &data),
            Pmapi_Unsupported);
  EXPECT_EQ(Symbol<int (*)(const char *, pm_wpar_ctx_info_t *, int *)>("pm_get_wplist")(
                nullptr, nullptr, &size),
            Pmapi_Unsupported);
  // _mx/_mm are real now: an empty program is bad input, and nothing is programmed.
  EXPECT_EQ(Symbol<int (*)(pm_prog_mx_t *)>("pm_set_program_mythread_mx")(&prog_mx),
            Pmapi_InvalidArg);
  EXPECT_EQ(Symbol<int (*)(pm_data_mx_t *, timebasestruct_t *)>("pm_get_tdata_mx")(&data_mx, &time),
            Pmapi_NoSetProg);
  EXPECT_EQ(Symbol<int (*)(void *, void *)>("pm_set_ebb_handler")(nullptr, nullptr),
            Pmapi_Unsupported);
  EXPECT_EQ(Symbol<int (*)(void)>("pm_disable_bhrb")(), Pmapi_Unsupported);
  EXPECT_EQ(Symbol<int (*)(void *)>("mmcr_read")(nullptr), Pmapi_Unsupported);
  errno = 0;
  EXPECT_EQ(Symbol<int (*)(void *)>("pmc_read_1to4")(nullptr), -1);
  EXPECT_EQ(errno, ENOSYS);
  auto strerror_fn = Symbol<char *(*)(const char *, int)>("pm_strerror");
  std::string message = strerror_fn("pm_set_program_wp", Pmapi_Unsupported);
  EXPECT_NE(message.find("not supported on Linux"), std::string::npos) << message;
}

}  // namespace
