/* SPDX-License-Identifier: MIT */
/* pmapi_select.h: libpmapi's extension that turns an event spec, the text a
 * user writes, into a program (AIX's pmapi has no such call). Include it
 * after <pmapi.h> or instead of it; link with -lpmapi.
 *
 *   pm_selection_t s;
 *   if (pm_select_events("PM_CYC,PM_INST_CMPL", 0, &s) != 0)
 *     fprintf(stderr, "%s\n", s.why);          says which event and why
 *   else
 *     pm_set_program_mythread(&s.prog);
 *
 * The spec is a comma-separated list of events, or one group. An event is
 * written as pmlist lists it ("PM_CYC", "task-clock", "msr/tsc"), by perf's
 * generic name ("cycles", "instructions", "branch-misses"), as its pmlist id
 * ("1000"), as a libpfm4 string with umasks and attributes
 * ("INST_RETIRED:ANY_P", "amd64_fam19h_zen3::RETIRED_OPS:c=2"), as a bare
 * libpfm4 name ("RETIRED_INSTRUCTIONS": the machine's PMU first), in perf's
 * "pmu/event/" or "pmu/term=value,.../" form, or as a kernel tracepoint
 * "subsystem:name". Each may end in privilege modifiers: ":u", ":k", ":uk",
 * ":u=0", ":k=1", or letters after perf's closing slash ("msr/tsc/u").
 * A group is named alone, by its short name ("pm_sw_basic"); it cannot be
 * one name of a list. NULL or "" selects the default set: the group
 * pm_basic (cycles and instructions) where cycles count, else the software
 * group pm_sw_basic, with a note saying why.
 *
 * pm_parse_event_list(list, specs, max_specs, &nspecs, why) splits a list
 * the way pm_select_events does, before any catalog is asked: for a caller
 * that holds more events than one program (pmcount splits them into sets,
 * expands patterns). It needs no pm_initialize.
 *
 * docs/catalog.md ("Selecting events by spec") has the details. */
#ifndef PMAPI_SELECT_H
#define PMAPI_SELECT_H

#include <pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_SELECT_NAME_MAX 256  /* a name's bytes with its NUL */
#define PM_SELECT_TEXT_MAX 1024 /* a sentence's bytes with its NUL */
#define PM_SELECT_SUGGESTIONS 4 /* "did you mean" names at most */

/* flags */
/* The spec names one group: short name or id (pmlist -g). */
#define PM_SELECT_GROUP 0x1
/* A number is a group's id (the HPM Toolkit's way), not an event's. */
#define PM_SELECT_GROUP_NUMBERS 0x2
/* Blanks and line ends separate names as commas do. */
#define PM_SELECT_BLANKS 0x4
/* Where cycles count, the default is perf stat's list (not a group): task-clock,
 * context-switches, cpu-migrations, page-faults, PM_CYC, PM_INST_CMPL, PM_BR_CMPL,
 * PM_BR_MPRED_CMPL. */
#define PM_SELECT_WIDE_DEFAULT 0x8

/* Why a spec was refused (pm_selection_t.refusal). */
enum pm_select_refusal {
  PM_SELECT_OK = 0,
  PM_SELECT_SYNTAX = 1,         /* malformed: an empty name, a blank, bad modifiers */
  PM_SELECT_UNKNOWN_EVENT = 2,  /* no event of this machine has that name or id */
  PM_SELECT_UNKNOWN_GROUP = 3,  /* no group has that name or id */
  PM_SELECT_GROUP_IN_LIST = 4,  /* a group among other names */
  PM_SELECT_REPEATED = 5,       /* the same event twice */
  PM_SELECT_TOO_MANY = 6,       /* more than MAX_COUNTERS events */
  PM_SELECT_GROUP_NOT_HERE = 7, /* a group one of whose members this machine lacks */
  PM_SELECT_NO_GROUPS = 8       /* a groups/ table failed to load */
};

typedef struct {
  int event_id;                           /* its catalog id, as events[] of a program takes it */
  char name[PM_SELECT_NAME_MAX];          /* as the spec wrote it, modifiers too; an id shows as
                                             its event's name; a group's member as pmlist names it */
  int has_mode;                           /* 1 if the spec chose its modes (":u"), else 0 */
  int user, kernel;                       /* the modes it chose, when has_mode */
  int countable;                          /* 0 when the catalog knows it cannot count here */
  char not_countable[PM_SELECT_NAME_MAX]; /* then why, in a few words; else "" */
} pm_selected_event_t;

typedef struct {
  /* The program: event i on counter i, or for a group events[0] = its id with
   * mode.b.is_group; mode PM_USER | PM_KERNEL | PM_COUNT. Adjust the mode
   * (PM_PROCESS, one event's modifiers) before programming. */
  pm_prog_t prog;
  int nevents; /* events[0..nevents-1], one a counter */
  pm_selected_event_t events[MAX_COUNTERS];
  int group_id; /* the group's id when one was selected, else -1 */
  char group_name[PM_SELECT_NAME_MAX];
  int is_default;                /* 1 when the spec was NULL or "" */
  char note[PM_SELECT_TEXT_MAX]; /* why the default is the software set, else "" */
  /* When refused: */
  int refusal;                      /* enum pm_select_refusal */
  char refused[PM_SELECT_NAME_MAX]; /* the name refused, "" when no one name is */
  char why[PM_SELECT_TEXT_MAX];     /* the sentence, naming it, with "did you mean" */
  int nsuggestions;
  char suggestions[PM_SELECT_SUGGESTIONS][PM_SELECT_NAME_MAX]; /* closest names first */
} pm_selection_t;

/* Fills *selection from `spec` under `flags` (PM_SELECT_*, or 0). Needs
 * pm_initialize (or pm_init) first. An event the catalog does not list (a
 * libpfm4 string with attributes, a tracepoint made since) is added to it as
 * pm_catalog_add_event does. Returns 0; Pmapi_InvalidEvent or
 * Pmapi_InvalidGroup when the spec is refused (refusal, refused and why say
 * which name and why; pm_strerror's detail is `why` too); Pmapi_BadCatalog
 * when the groups cannot be read; Pmapi_NoInit before pm_initialize;
 * Pmapi_InvalidArg for a NULL selection or unknown flags; Pmapi_Malloc_Err.
 * *selection is written in full whatever the return. Safe from any thread. */
int pm_select_events(const char *spec, int flags, pm_selection_t *selection);

/* One event of a list as written. */
typedef struct {
  char text[PM_SELECT_NAME_MAX]; /* as written, modifiers too: "cycles:u" */
  char name[PM_SELECT_NAME_MAX]; /* without its privilege modifiers: "cycles" */
  int has_mode;                  /* 1 if the text chose its modes, else 0 */
  int user, kernel;              /* the modes it chose, when has_mode */
} pm_event_spec_t;

/* Splits `list` at its commas (a comma inside perf's "pmu/term,term/" does
 * not split) and takes each event's privilege modifiers off its name, as
 * pm_select_events reads a spec. Writes the first max_specs events into
 * specs[] (NULL when max_specs is 0) and their number into *nspecs, so that a
 * caller can size an array and ask again. Returns 0; Pmapi_InvalidEvent for
 * a malformed list (an empty name, a blank, bad modifiers, a name of
 * PM_SELECT_NAME_MAX bytes or more), with the sentence naming the event in
 * why (PM_SELECT_TEXT_MAX bytes; may be NULL) and in pm_strerror's detail;
 * Pmapi_InvalidArg for a NULL list or nspecs, a negative max_specs, or a
 * NULL specs with a positive max_specs. Safe from any thread. */
int pm_parse_event_list(const char *list, pm_event_spec_t *specs, int max_specs, int *nspecs,
                        char *why);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_SELECT_H */
