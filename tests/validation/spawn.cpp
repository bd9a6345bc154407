// SPDX-License-Identifier: MIT
#include "spawn.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

namespace {

std::string ReadAll(FILE *file) {
  std::string text;
  rewind(file);
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, got);
  fclose(file);
  return text;
}

// Echoes every byte back until the workload closes its end.
void Partner(int read_fd, int write_fd) {
  char byte;
  while (read(read_fd, &byte, 1) == 1) {
    if (write(write_fd, &byte, 1) != 1) break;
  }
}

}  // namespace

Output Spawn(const std::vector<std::string> &argv, bool with_partner) {
  Output result;
  // Files rather than pipes, so that a chatty child cannot block on a full pipe.
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  int to_partner[2] = {-1, -1}, from_partner[2] = {-1, -1};
  if (!out || !err) return result;
  if (with_partner && (pipe(to_partner) != 0 || pipe(from_partner) != 0)) return result;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    dup2(fileno(out), 1);
    dup2(fileno(err), 2);
    if (with_partner) {
      dup2(from_partner[0], 3);
      dup2(to_partner[1], 4);
      for (int fd : {to_partner[0], to_partner[1], from_partner[0], from_partner[1]}) {
        if (fd > 4) close(fd);
      }
    }
    std::vector<char *> args;
    for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  std::thread partner;
  if (with_partner) {
    close(to_partner[1]);
    close(from_partner[0]);
    partner = std::thread(Partner, to_partner[0], from_partner[1]);
  }
  int status = 0;
  if (child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status)) {
    result.status = WEXITSTATUS(status);
  }
  if (with_partner) {
    partner.join();  // the child's exit closed its ends: the partner saw EOF
    close(to_partner[0]);
    close(from_partner[1]);
  }
  result.out = ReadAll(out);
  result.err = ReadAll(err);
  return result;
}
