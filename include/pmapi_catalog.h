/* SPDX-License-Identifier: MIT */
/* pmapi_catalog.h: libpmapi's extension to the event catalog (AIX has no
 * such call). Include it after <pmapi.h>; link with -lpmapi.
 *
 * pm_catalog_add_event(encoding, &id)
 *   The id of the event `encoding` names, for pm_set_program* (events[] takes
 *   it like any other id). `encoding` is what the catalog understands:
 *     - any short name it lists or knows ("PM_CYC", "cpu-clock",
 *       "perf::PERF_COUNT_SW_TASK_CLOCK", "syscalls:sys_enter_getppid",
 *       "msr/tsc"), exactly or ignoring case: the id it already has;
 *     - a kernel tracepoint "subsystem:name" created after the catalog was
 *       built (a kprobe, say): added;
 *     - a libpfm4 event string with umasks or attributes
 *       ("INST_RETIRED:ANY_P", "amd64_fam19h_zen3::RETIRED_OPS:c=2"): added.
 *   An added event gets the next id after every other one, so no id a client
 *   already holds changes and pm_initialize's lists stay as they are (the id
 *   is past maxevents, like every event counted by name only). Its status is
 *   probed as pm_initialize's are; programming it follows the filter in
 *   force, as for any id. Adding the same string again returns the same id.
 *   Added events last until the process exits; they are never listed.
 *
 *   Returns 0, or Pmapi_NoInit before pm_initialize/pm_init succeeded,
 *   Pmapi_InvalidArg for a NULL argument or an empty string,
 *   Pmapi_InvalidEvent when no tracepoint has that name and libpfm4 cannot
 *   encode it (pm_strerror's detail gives libpfm4's reason), Pmapi_Malloc_Err
 *   when memory runs out. *event_id is written only on success.
 *   Safe to call from any thread, concurrently with every other pm_* call.
 *
 * Searching the catalog, as pmlist and pmcount -e do (docs/catalog.md,
 * "Searching events"): a query is one or more words separated by blanks,
 * each matched ignoring case. A word with a shell wildcard ('*', '?', '[')
 * is a pattern over the event's short name, whole or after its PMU or
 * subsystem ("sys_enter_getpp*" finds "syscalls:sys_enter_getppid"); any
 * other word must occur in the name, the long name or the description.
 * An event matches when every word does.
 *
 * pm_catalog_is_pattern(text)
 *   1 when `text` holds a shell wildcard, else 0 (0 for NULL).
 *
 * pm_catalog_query_matches(query, name, long_name, description)
 *   1 when every word of `query` matches these texts by the rule above,
 *   else 0: the rule alone, for a list a client keeps (a NULL text is "").
 *   A query of no words matches everything. Needs no pm_initialize.
 *
 * pm_catalog_match(query, matches, max_matches, &nmatches)
 *   Every event the catalog lists whose texts `query` matches, in id order:
 *   the first max_matches of them into matches[] (NULL when max_matches is
 *   0), their number into *nmatches, so that a caller can size an array and
 *   ask again. Each match says whether the event can be counted here and,
 *   when not, why. Returns 0 (no match is 0 with *nmatches 0),
 *   Pmapi_NoInit before pm_initialize, Pmapi_InvalidArg for a NULL query or
 *   nmatches, a negative max_matches, or a NULL matches with a positive
 *   max_matches.
 *
 * pm_catalog_suggest(word, flags, &suggestions)
 *   For a word nothing matches, what the user may have meant, closest first,
 *   at most PM_CATALOG_SUGGESTIONS: for a pattern, the same pattern with its
 *   start spelt as a name spells it ("syscalls:sys_entr_*" ->
 *   "syscalls:sys_enter_*"), else the names closest to its letters; for a
 *   plain word, the names and the words of the descriptions closest to it,
 *   each once. Among the events, or with PM_CATALOG_GROUPS among the groups;
 *   with PM_CATALOG_NAMES_ONLY the names alone, for a word that must be a
 *   name (a group given to hpmcount -g). `hidden` says why tracepoints
 *   cannot be seen when tracefs cannot be read by this user and the word has
 *   a tracepoint's shape ("subsystem:event") or PM_CATALOG_HIDDEN_ANY is
 *   given (a plain word such as "getppid" may name a hidden tracepoint);
 *   else "" (always "" with PM_CATALOG_GROUPS). Returns 0, Pmapi_NoInit, or
 *   Pmapi_InvalidArg (a NULL argument, unknown flags).
 *
 * Safe to call from any thread, concurrently with every other pm_* call.
 * docs/catalog.md ("Adding events by name") has the details. */
#ifndef PMAPI_CATALOG_H
#define PMAPI_CATALOG_H

#include <pmapi.h>

#ifdef __cplusplus
extern "C" {
#endif

int pm_catalog_add_event(const char *encoding, int *event_id);

#define PM_CATALOG_NAME_MAX 256  /* a name's bytes with its NUL */
#define PM_CATALOG_TEXT_MAX 1024 /* a sentence's bytes with its NUL */
#define PM_CATALOG_SUGGESTIONS 4 /* "did you mean" names at most */

/* pm_catalog_suggest's flags */
#define PM_CATALOG_GROUPS 0x1     /* among the groups' names and descriptions */
#define PM_CATALOG_NAMES_ONLY 0x2 /* names only, no word of a description */
#define PM_CATALOG_HIDDEN_ANY 0x4 /* `hidden` for any word, not only "subsystem:event" */

/* One event a query matched. */
typedef struct {
  int event_id;                            /* its catalog id */
  char name[PM_CATALOG_NAME_MAX];          /* its short name, as pmlist lists it */
  int countable;                           /* 0 when the catalog knows it cannot count here */
  char not_countable[PM_CATALOG_NAME_MAX]; /* then why, in a few words; else "" */
} pm_catalog_match_t;

typedef struct {
  int nsuggestions;
  char suggestions[PM_CATALOG_SUGGESTIONS][PM_CATALOG_NAME_MAX]; /* closest first */
  char hidden[PM_CATALOG_TEXT_MAX]; /* why tracepoints are hidden from this user, or "" */
} pm_catalog_suggestions_t;

int pm_catalog_is_pattern(const char *text);
int pm_catalog_query_matches(const char *query, const char *name, const char *long_name,
                             const char *description);
int pm_catalog_match(const char *query, pm_catalog_match_t *matches, int max_matches,
                     int *nmatches);
int pm_catalog_suggest(const char *word, int flags, pm_catalog_suggestions_t *suggestions);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_CATALOG_H */
