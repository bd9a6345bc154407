/* SPDX-License-Identifier: MIT */
/*
 * pmc - count an event while a command runs, in the manner of NetBSD's pmc(1),
 * over <sys/pmc.h> on Linux.
 *
 *   pmc list [text]              list the events (ids and names) [containing text]
 *   pmc -h                       the same as `pmc list`
 *   pmc -c <event> command [args]
 *                                run command; print "<event>: user N kernel M"
 *   pmc --help, pmc --version    as every libpmapi tool
 *
 * <event> is a catalog name (`pmc list`) or a numeric id. Counter 0 counts the
 * event in user mode and counter 1 in kernel mode, as NetBSD's tool did; the
 * numbers are the command's (and its children's), not this tool's own: they
 * are read as the accumulated value of the exited child.
 *
 * Exit status: the command's when it ran; 2 usage or unknown event (as every
 * libpmapi tool, docs/tools.md); 3 no counter support or no catalog; 4/5
 * counter 0/1 could not be configured or started; 6 the counters could not be
 * read; 7 the command could not be started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmc_events.h>
#include <sys/pmc.h>

/* A usage error (a bad command line or an unknown event) exits 2, as in every
 * libpmapi tool (docs/tools.md). */
enum { EXIT_USAGE = 2, EXIT_NO_SUPPORT = 3 };

/* The largest id pmc_evid_t holds: int on most machines, unsigned long on arm
 * (sys/pmc.h). Chosen by type: testing (pmc_evid_t)-1 < 0 is a comparison
 * that is always false for the unsigned one, an error under -Wtype-limits. */
static unsigned long long evid_max(void) {
  return _Generic((pmc_evid_t)0, unsigned long : ULONG_MAX, default : INT_MAX);
}

#ifndef PMC_VERSION
#error "PMC_VERSION is the project's version, defined by the build"
#endif

/* The words of every libpmapi tool's usage error (src/tools/common/tool_messages.h): what is
 * wrong, then where the usage is. Returns EXIT_USAGE. */
static int usage_error(const char *format, const char *text) {
  fputs("pmc: ", stderr);
  fprintf(stderr, format, text);
  fputs("\nTry 'pmc --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

static void print_usage(void) {
  printf(
      "usage: pmc list [text]     list the events (ids and names) [containing text]\n"
      "       pmc -h              the same as pmc list\n"
      "       pmc -c <event> command [args ...]\n"
      "                           run command; print \"<event>: user N kernel M\"\n"
      "       pmc --help          this text\n"
      "       pmc --version       the version\n");
}

static int list_events(const char *filter) {
  int count = pmc_event_count();
  if (count < 0) {
    perror("pmc: cannot read the event catalog");
    return EXIT_NO_SUPPORT;
  }
  printf("Supported performance counter events:\n");
  for (int i = 0; i < count; ++i) {
    pmc_evid_t id;
    const char *name;
    if (pmc_event_get(i, &id, &name, NULL) != 0) continue;
    if (filter && !strstr(name, filter)) continue;
    printf("%10lld  %s\n", (long long)id, name);
  }
  return 0;
}

/* Whether `id` is one of the catalog's ids (`pmc list`). */
static int known_id(pmc_evid_t id) {
  int count = pmc_event_count();
  for (int i = 0; i < count; ++i) {
    pmc_evid_t listed;
    if (pmc_event_get(i, &listed, NULL, NULL) == 0 && listed == id) return 1;
  }
  return 0;
}

/* A numeric id as given, or the id of a catalog name. Returns 0, or 1 with the
 * reason printed (a usage error). A number is checked against pmc_evid_t's range before the
 * cast: 999999999999 must not become some other id (or none) by truncation. */
static int parse_event(const char *text, pmc_evid_t *id) {
  if (*text >= '0' && *text <= '9') {
    char *end = NULL;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 0);
    if (*end != '\0') {
      usage_error("'%s' is neither an event id nor an event name (see pmc list)", text);
      return 1;
    }
    if (errno == ERANGE || number > evid_max()) {
      char range[96];
      snprintf(range, sizeof range,
               "event id %%s is out of range (ids are 0 to %llu; see pmc list)", evid_max());
      usage_error(range, text);
      return 1;
    }
    *id = (pmc_evid_t)number;
    if (!known_id(*id)) {
      usage_error("no event has the id %s (see pmc list)", text);
      return 1;
    }
    return 0;
  }
  if (pmc_event_lookup(text, id) != 0) {
    usage_error("unknown event %s (see pmc list)", text);
    return 1;
  }
  return 0;
}

static void setup_counter(int ctr, pmc_evid_t id, uint32_t flags, const char *event,
                          int exit_code) {
  struct pmc_counter_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.event_id = id;
  cfg.flags = flags;
  if (pmc_control(ctr, PMC_OP_CONFIGURE, &cfg) != 0 || pmc_control(ctr, PMC_OP_START, NULL) != 0) {
    fprintf(stderr, "pmc: cannot count %s on counter %d: %s\n", event, ctr, strerror(errno));
    exit(exit_code);
  }
}

static int count_command(const char *event, char **command) {
  int ncounters = 0;
  if (pmc_get_info(0, PMC_INFO_NCOUNTERS, &ncounters) != 0 || ncounters < 2) {
    fprintf(stderr, "pmc: no performance counter support\n");
    return EXIT_NO_SUPPORT;
  }
  pmc_evid_t id;
  if (parse_event(event, &id) != 0) return EXIT_USAGE;
  setup_counter(0, id, PMC_CFG_USER, event, 4);
  setup_counter(1, id, PMC_CFG_KERNEL, event, 5);

  /* vfork: the child runs no fork handlers, so it does nothing between here
   * and exec that its counts (which become ours at its exit) would include. */
  /* A close-on-exec pipe tells us whether exec failed (it stays open and
   * carries errno) or succeeded (it closes), whatever the command returns. */
  int exec_report[2];
  if (pipe2(exec_report, O_CLOEXEC) != 0) {
    perror("pmc: pipe");
    return 7;
  }
  pid_t pid = vfork();
  if (pid < 0) {
    perror("pmc: fork");
    return 7;
  }
  if (pid == 0) {
    execvp(command[0], command);
    int err = errno;
    ssize_t ignored = write(exec_report[1], &err, sizeof err);
    (void)ignored; /* nothing more a vforked child can do */
    _exit(127);
  }
  close(exec_report[1]);
  int exec_errno = 0;
  ssize_t reported = read(exec_report[0], &exec_errno, sizeof exec_errno);
  close(exec_report[0]);
  /* Like NetBSD's tool: ^C and ^\ go to the command, not to us. */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      perror("pmc: waitpid");
      return 7;
    }
  }
  if (reported == (ssize_t)sizeof exec_errno) {
    fprintf(stderr, "pmc: cannot run %s: %s\n", command[0], strerror(exec_errno));
    return 7;
  }
  if (!WIFEXITED(status)) return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);

  uint64_t user = 0, kernel = 0;
  if (pmc_get_info(0, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &user) != 0 ||
      pmc_get_info(1, PMC_INFO_ACCUMULATED_COUNTER_VALUE, &kernel) != 0) {
    perror("pmc: cannot read the counters");
    return 6;
  }
  pmc_control(0, PMC_OP_STOP, NULL);
  pmc_control(1, PMC_OP_STOP, NULL);
  printf("%s: user %" PRIu64 " kernel %" PRIu64 "\n", event, user, kernel);
  return WEXITSTATUS(status);
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "list") == 0) {
    if (argc > 3) return usage_error("list takes one text at most, not %s", argv[3]);
    return list_events(argc == 3 ? argv[2] : NULL);
  }
  if (argc == 2 && strcmp(argv[1], "-h") == 0) return list_events(NULL);
  if (argc == 2 && strcmp(argv[1], "--help") == 0) {
    print_usage();
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("pmc (libpmapi) %s\n", PMC_VERSION);
    return 0;
  }
  if (argc >= 4 && strcmp(argv[1], "-c") == 0) return count_command(argv[2], argv + 3);
  if (argc < 2) return usage_error("%s", "no command: pmc list, pmc -h or pmc -c EVENT COMMAND");
  if (strcmp(argv[1], "-c") == 0) return usage_error("%s", "-c takes an event and a command");
  return usage_error("unknown command or option '%s'", argv[1]);
}
