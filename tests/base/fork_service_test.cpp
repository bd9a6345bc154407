// SPDX-License-Identifier: MIT
// The fork service (base/fork_service.h): hooks run in rank order before a fork and in the
// reverse order after it, in the parent and in the child; a hook that left is not called; a
// child hook may make hooks of higher ranks leave; one pthread_atfork handler however many join.
#include "base/fork_service.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "base/engine_counts.h"

namespace {

// What the hooks did, in order: a fixed buffer, written in the child without allocating.
struct Journal {
  char entries[64] = {};
  int count = 0;
  void Add(char what, char who) {
    if (count + 2 < static_cast<int>(sizeof entries)) {
      entries[count++] = what;
      entries[count++] = who;
    }
  }
  std::string Text() const { return std::string(entries, static_cast<size_t>(count)); }
};

Journal g_journal;

// A noun with a name (one letter) and a rank; its hooks write "<p|a|c><name>".
struct Noun {
  char name;
  pmapi::ForkHook hook;
  Noun(char n, int rank) : name(n), hook(rank, this, &Prepare, &Parent, &Child) {}
  static void Prepare(void *self) { g_journal.Add('p', static_cast<Noun *>(self)->name); }
  static void Parent(void *self) { g_journal.Add('a', static_cast<Noun *>(self)->name); }
  static void Child(void *self) { g_journal.Add('c', static_cast<Noun *>(self)->name); }
};

// Forks; the child writes its journal to a pipe and exits. Returns the child's journal.
std::string ForkAndReadChildsJournal() {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return "pipe failed";
  g_journal = Journal();
  const pid_t pid = fork();
  if (pid == 0) {
    (void)!write(pipe_fds[1], g_journal.entries, static_cast<size_t>(g_journal.count));
    _exit(0);
  }
  close(pipe_fds[1]);
  char buffer[64];
  const ssize_t got = pid > 0 ? read(pipe_fds[0], buffer, sizeof buffer) : -1;
  close(pipe_fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  return got < 0 ? "no child" : std::string(buffer, static_cast<size_t>(got));
}

TEST(ForkService, HooksPrepareInRankOrderAndRunAfterTheForkInTheReverseOrder) {
  Noun late('L', 12), early('E', 3), middle('M', 9), middle_too('N', 9);
  late.hook.Join();
  early.hook.Join();
  middle.hook.Join();
  middle_too.hook.Join();
  const std::string child = ForkAndReadChildsJournal();
  // Each rank's hooks in the order they joined before the fork, the reverse after it.
  EXPECT_EQ(g_journal.Text(), "pEpMpNpLaLaNaMaE");
  EXPECT_EQ(child, "pEpMpNpLcLcNcMcE");
}

TEST(ForkService, AHookThatLeftIsNotCalledAndOneThatNeverJoinedNeither) {
  Noun kept('K', 5), gone('G', 5), never('X', 5);
  kept.hook.Join();
  gone.hook.Join();
  gone.hook.Leave();
  const std::string child = ForkAndReadChildsJournal();
  EXPECT_EQ(g_journal.Text(), "pKaK");
  EXPECT_EQ(child, "pKcK");
}

// A lower rank's child hook destroys a noun of a higher rank (as a front end destroys its
// sessions in the child): that noun's child hook has run, and leaving does not deadlock.
Noun *g_owned = nullptr;

TEST(ForkService, AChildHookMayMakeAHigherRankLeave) {
  g_owned = new Noun('H', 7);
  g_owned->hook.Join();
  pmapi::ForkHook owner(2, nullptr, nullptr, nullptr, [](void *) {
    g_journal.Add('d', 'H');
    delete g_owned;
    g_owned = nullptr;
  });
  owner.Join();
  const std::string child = ForkAndReadChildsJournal();
  EXPECT_EQ(child, "pHcHdH");
  EXPECT_EQ(g_journal.Text(), "pHaH");
  delete g_owned;
}

TEST(ForkService, OneForkHandlerForEveryHook) {
  Noun a('A', 0), b('B', pmapi::kForkRanks - 1);
  a.hook.Join();
  b.hook.Join();
  EXPECT_EQ(pmapi::EngineEventCount(pmapi::EngineEvent::kForkHandlerRegistered), 1u);
  const unsigned long prepared = pmapi::EngineEventCount(pmapi::EngineEvent::kForkPrepared);
  ForkAndReadChildsJournal();
  EXPECT_EQ(pmapi::EngineEventCount(pmapi::EngineEvent::kForkPrepared), prepared + 1);
}

}  // namespace
