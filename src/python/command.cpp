// SPDX-License-Identifier: MIT
// Session::RunCommand: a child that waits on a pipe until the session counts it, so that its
// exec and everything after it are counted, then waited for without the GIL.
#include "errors.h"
#include "session.h"

#include <pybind11/pybind11.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace py = pybind11;

namespace pmapi_python {
namespace {

[[noreturn]] void ThrowErrno(int error, const std::string &what) {
  errno = error;
  PyErr_SetFromErrnoWithFilename(PyExc_OSError, what.c_str());
  throw py::error_already_set();
}

void CloseBoth(int fds[2]) {
  for (int i = 0; i < 2; ++i)
    if (fds[i] >= 0) close(fds[i]);
}

int ReturnCode(int status) { return WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status); }

}  // namespace

int Session::RunCommand(const std::vector<std::string> &argv) {
  if (argv.empty()) throw py::value_error("the command is empty");
  CheckOpen();
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);

  // go: the parent's word that the child is counted; exec_failed: the child's errno when its
  // exec fails (closed on a successful exec).
  int go[2] = {-1, -1}, exec_failed[2] = {-1, -1};
  if (pipe2(go, O_CLOEXEC) != 0 || pipe2(exec_failed, O_CLOEXEC) != 0) {
    int error = errno;
    CloseBoth(go);
    ThrowErrno(error, "pipe");
  }
  pid_t child = fork();
  if (child < 0) {
    int error = errno;
    CloseBoth(go);
    CloseBoth(exec_failed);
    ThrowErrno(error, "fork");
  }
  if (child == 0) {
    char byte;
    if (read(go[0], &byte, 1) != 1) _exit(126);
    execvp(args[0], args.data());
    int error = errno;
    (void)!write(exec_failed[1], &error, sizeof error);
    _exit(127);
  }
  close(go[0]);
  close(exec_failed[1]);
  auto reap = [&] {
    kill(child, SIGKILL);
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
  };
  try {
    Check(pm_session_add_process(session_, child), "pm_session_add_process");
    Start();
  } catch (...) {
    close(go[1]);
    close(exec_failed[0]);
    reap();
    throw;
  }
  (void)!write(go[1], "g", 1);
  close(go[1]);
  int error = 0;
  ssize_t got;
  while ((got = read(exec_failed[0], &error, sizeof error)) < 0 && errno == EINTR) {
  }
  close(exec_failed[0]);
  if (got == sizeof error) {
    reap();
    Stop();
    ThrowErrno(error, argv[0]);
  }

  int status = 0;
  for (;;) {
    pid_t done;
    {
      py::gil_scoped_release unlocked;
      done = waitpid(child, &status, 0);
    }
    if (done == child) break;
    if (errno != EINTR) {
      int wait_error = errno;
      Stop();
      ThrowErrno(wait_error, "waitpid");
    }
    // A signal (Ctrl-C): Python's handler runs now; an exception from it ends the child too.
    if (PyErr_CheckSignals() != 0) {
      reap();
      Stop();
      throw py::error_already_set();
    }
  }
  Stop();
  return ReturnCode(status);
}

}  // namespace pmapi_python
