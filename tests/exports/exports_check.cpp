// SPDX-License-Identifier: MIT
#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <fstream>
#include <map>
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

// The node of libpmapi.so's version script (src/libpmapi.map) that holds the engine calls of
// the compat libraries: C++, in namespace pmapi, declared in no installed header.
constexpr char kPrivateNode[] = "PMAPI_PRIVATE";

// Every symbol libpmapi.so defines in its dynamic symbol table, with its version node, read from
// the loaded object's own .dynsym (DT_SYMTAB, sized by DT_HASH or DT_GNU_HASH; versions from
// DT_VERSYM and DT_VERDEF): what a client can bind to, exactly as the dynamic linker sees it.
std::map<std::string, std::string> DefinedDynamicSymbols(void *library) {
  link_map *map = nullptr;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) != 0 || !map) return {};
  const ElfW(Sym) *symbols = nullptr;
  const char *strings = nullptr;
  const uint32_t *hash = nullptr, *gnu_hash = nullptr;
  const ElfW(Half) *versions = nullptr;
  const char *definitions = nullptr;
  for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; ++d) {
    auto address = reinterpret_cast<const char *>(d->d_un.d_ptr);
    if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const ElfW(Sym) *>(address);
    if (d->d_tag == DT_STRTAB) strings = address;
    if (d->d_tag == DT_HASH) hash = reinterpret_cast<const uint32_t *>(address);
    if (d->d_tag == DT_GNU_HASH) gnu_hash = reinterpret_cast<const uint32_t *>(address);
    if (d->d_tag == DT_VERSYM) versions = reinterpret_cast<const ElfW(Half) *>(address);
    // The loader relocates the entries it uses itself, not DT_VERDEF: that one is still an
    // offset from the load address.
    if (d->d_tag == DT_VERDEF) {
      definitions = d->d_un.d_ptr < map->l_addr ? address + map->l_addr : address;
    }
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
  // Version index -> node name, from the chain of definitions.
  std::map<ElfW(Half), std::string> nodes;
  for (const char *at = definitions; at && strings;) {
    const auto *definition = reinterpret_cast<const ElfW(Verdef) *>(at);
    const auto *aux = reinterpret_cast<const ElfW(Verdaux) *>(at + definition->vd_aux);
    nodes[definition->vd_ndx] = strings + aux->vda_name;
    at = definition->vd_next ? at + definition->vd_next : nullptr;
  }
  std::map<std::string, std::string> names;
  if (!symbols || !strings) return names;
  for (size_t i = 1; i < count; ++i) {
    const ElfW(Sym) &symbol = symbols[i];
    if (symbol.st_shndx == SHN_UNDEF) continue;  // imported, not defined here
    if (ELF64_ST_BIND(symbol.st_info) == STB_LOCAL) continue;
    names[strings + symbol.st_name] = versions ? nodes[versions[i] & 0x7fff] : "";
  }
  return names;
}

bool IsEngineCall(const std::string &name) {
  return name.rfind("_ZN5pmapi", 0) == 0 || name.rfind("_ZNK5pmapi", 0) == 0;
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
  // The whole public dynamic symbol table against the header: internal C++ symbols (the core,
  // standard-library instances over internal types) stay hidden, so a client's own names never
  // bind to ours, and nothing the header declares is missing. Names come from the header, so a
  // new prototype needs no edit here. The private node is the next test's.
  std::set<std::string> expected = FunctionsDeclaredInHeader();
  expected.insert(kDocumentedExtensions.begin(), kDocumentedExtensions.end());
  std::map<std::string, std::string> exported = DefinedDynamicSymbols(library_);
  ASSERT_GT(exported.size(), 170u) << "could not read libpmapi.so's dynamic symbols";
  for (const auto &[name, node] : exported) {
    if (name.empty() || name == node) continue;  // the version nodes themselves
    if (node == kPrivateNode) continue;
    EXPECT_EQ(node.rfind("LIBPMAPI_", 0), 0u) << name << " is exported in node '" << node << "'";
    EXPECT_TRUE(expected.count(name)) << name << " is exported but is neither in pmapi.h nor "
                                      << "a documented extension";
  }
  for (const std::string &name : expected) {
    EXPECT_TRUE(exported.count(name) && exported[name] != kPrivateNode)
        << name << " is declared but not exported in a public node";
  }
}

TEST_F(Exports, ThePrivateNodeHoldsOnlyEngineCalls) {
  // What libpmc, libperfmon and libzx_sampler call in the engine (src/base/engine_export.h):
  // C++ of namespace pmapi, in the private node only, none of it a header's call.
  const std::set<std::string> declared = FunctionsDeclaredInHeader();
  size_t engine_calls = 0;
  for (const auto &[name, node] : DefinedDynamicSymbols(library_)) {
    if (name == node) continue;
    if (IsEngineCall(name)) {
      EXPECT_EQ(node, kPrivateNode) << name << " is an engine call outside " << kPrivateNode;
    }
    if (node != kPrivateNode) continue;
    ++engine_calls;
    EXPECT_TRUE(IsEngineCall(name))
        << name << " is in " << kPrivateNode << " but is no engine call (namespace pmapi)";
    EXPECT_FALSE(declared.count(name)) << name << " is a public call in " << kPrivateNode;
  }
  EXPECT_GT(engine_calls, 0u) << "the compat libraries link libpmapi.so for the engine";
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
