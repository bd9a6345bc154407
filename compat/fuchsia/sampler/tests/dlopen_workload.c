/* SPDX-License-Identifier: MIT */
/* Libraries loaded and unloaded while sampled, for pmsample's tests.
 *   dlopen_workload swap LIBA LIBB SECONDS  loads LIBA, burns SECONDS in its run_hot, unloads
 *                                          it, loads LIBB (where LIBA was, as a rule) and burns
 *                                          SECONDS in its run_hot; prints both addresses
 *   dlopen_workload fifo LIB SECONDS        loads LIB, removes it, puts a FIFO at its path,
 *                                          prints "planted", then burns SECONDS in its run_hot */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef void (*run_hot_fn)(double);

static run_hot_fn load(const char* path, void** handle) {
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!*handle) {
    fprintf(stderr, "dlopen_workload: %s\n", dlerror());
    exit(2);
  }
  run_hot_fn run = (run_hot_fn)dlsym(*handle, "run_hot");
  if (!run) {
    fprintf(stderr, "dlopen_workload: %s has no run_hot\n", path);
    exit(2);
  }
  return run;
}

int main(int argc, char** argv) {
  void* handle = NULL;
  if (argc == 5 && strcmp(argv[1], "swap") == 0) {
    double seconds = atof(argv[4]);
    run_hot_fn a = load(argv[2], &handle);
    a(seconds);
    dlclose(handle);
    run_hot_fn b = load(argv[3], &handle);
    printf("run_hot: %p then %p\n", (void*)a, (void*)b);
    fflush(stdout);
    b(seconds);
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "fifo") == 0) {
    run_hot_fn run = load(argv[2], &handle);
    if (unlink(argv[2]) != 0 || mkfifo(argv[2], 0600) != 0) {
      perror("dlopen_workload: planting the FIFO");
      return 2;
    }
    printf("planted\n");
    fflush(stdout);
    run(atof(argv[3]));
    return 0;
  }
  fprintf(stderr, "usage: dlopen_workload swap LIBA LIBB SECONDS | fifo LIB SECONDS\n");
  return 2;
}
