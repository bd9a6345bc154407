#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "pmapi.h"

namespace {

std::set<std::string> FunctionsDeclaredInHeader() {
  std::ifstream header(PMAPI_HEADER);
  std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
  // "int pm_start(void);", "char *pm_strerror(...", "double pm_cycles(void);"
  std::regex prototype(R"((?:^|\n)(?:int|double|void|char)\s+\*?(\w+)\()");
  std::set<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), prototype), end; it != end; ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

class Exports : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = dlopen(PMAPI_SHARED_LIBRARY, RTLD_NOW | RTLD_LOCAL);
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

TEST_F(Exports, OnlyTheApiIsExported) {
  // Internal C++ symbols stay hidden: no clash with a client's own names.
  EXPECT_EQ(dlsym(library_, "_ZN5pmapi6ReportERKNS_6StatusE"), nullptr);
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
