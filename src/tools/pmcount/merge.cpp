// SPDX-License-Identifier: MIT
#include "merge.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>

#include "cross_rank_summary.h"
#include "csv.h"

namespace pmcount {
namespace {

using pmapi_mpi::EventSet;
using pmapi_mpi::RankCounts;

// The kit's CSV reader: pmcount's fields are never quoted, a quoted one reads as written.
using tools::CsvSplit;

// The rank a file is for: the last number in its name (counts.12.csv is rank 12), so that
// the shell's sorting (10 before 2) does not matter; -1 when the name has none.
int RankFromName(const std::string &path) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t last = name.find_last_of("0123456789");
  if (last == std::string::npos) return -1;
  size_t first = last;
  while (first > 0 && isdigit(static_cast<unsigned char>(name[first - 1]))) --first;
  if (last - first > 8) return -1;
  return std::stoi(name.substr(first, last - first + 1));
}

struct FileCounts {
  std::string path;
  std::vector<std::string> events;
  std::vector<long long> values;
  std::vector<int> lines;  // where each value was read, for messages
  bool counted = true;
  double wall_s = 0;
};

// A count as pmcount writes it: decimal digits. A sign, a fraction or a number past what the
// summary's sums hold (2^63-1) is refused with what it is, not wrapped or truncated.
std::string ParseCount(const std::string &text, long long *value) {
  if (!text.empty() && text[0] == '-') return "'" + text + "' is negative: no count ever is";
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    return "'" + text + "' is not a count";
  }
  errno = 0;
  *value = strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE) {
    return "'" + text + "' is past " + std::to_string(LLONG_MAX) +
           ", the largest count the summary can add up";
  }
  return "";
}

// A clock's "12.34" (milliseconds) as whole nanoseconds.
std::string ParseMilliseconds(const std::string &text, long long *value) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos ||
      text.find('.') != text.rfind('.')) {
    return "'" + text + "' is not a time in milliseconds";
  }
  const double ns = strtod(text.c_str(), nullptr) * 1e6;
  if (!(ns < 9.2e18)) return "'" + text + "' is past what the summary can add up";
  *value = static_cast<long long>(ns + 0.5);
  return "";
}

// One pmcount CSV file (the final counts: "value,unit,event,run-time,percent,metric,unit";
// after -I --summary the lines marked "summary"). Returns "" or what is wrong with it.
std::string ReadFile(const std::string &path, FileCounts *counts) {
  std::ifstream file(path);
  if (!file) return "cannot read " + path;
  counts->path = path;
  std::string line;
  int number = 0;
  while (std::getline(file, line)) {
    ++number;
    if (line.empty()) continue;
    char separator = ',';
    for (char candidate : {',', ';', '\t'}) {
      if (CsvSplit(line, candidate).size() >= 7) {
        separator = candidate;
        break;
      }
    }
    std::vector<std::string> fields = CsvSplit(line, separator);
    // After -I --summary perf's format marks the totals "summary", right-aligned.
    if (fields.size() == 8 && fields[0].find_first_not_of(' ') != std::string::npos &&
        fields[0].substr(fields[0].find_first_not_of(' ')) == "summary") {
      fields.erase(fields.begin());
    }
    if (fields.size() != 7) continue;  // interval lines, per-CPU rows
    if (fields[0].empty()) continue;   // a metric line
    const std::string &event = fields[2];
    if (std::find(counts->events.begin(), counts->events.end(), event) != counts->events.end()) {
      continue;  // the first line of an event is its count
    }
    long long value = 0;
    if (fields[0][0] == '<') {
      counts->counted = false;  // <not counted> or <not supported>
    } else {
      // The clocks are milliseconds with decimals, as perf writes them: back to whole ns.
      const std::string error = fields[1] == "msec" ? ParseMilliseconds(fields[0], &value)
                                                    : ParseCount(fields[0], &value);
      if (!error.empty()) {
        return path + ":" + std::to_string(number) + ": the count of " + event + " " + error;
      }
    }
    counts->events.push_back(event);
    counts->values.push_back(value);
    counts->lines.push_back(number);
    // The counters ran as long as the command: the longest running time is its wall time.
    counts->wall_s = std::max(counts->wall_s, strtod(fields[3].c_str(), nullptr) * 1e-9);
  }
  if (counts->events.empty()) {
    return path +
           " has no counts in pmcount's CSV form (write them with -o FILE.csv or -x,; with -I add "
           "--summary)";
  }
  return "";
}

// Each rank once: two files that name the same rank (counts.1.csv and counts.01.csv, or a
// file left from an earlier run in another directory) would count it twice. `files` is
// sorted by rank. Returns "" or the first such pair.
std::string EachRankOnce(const std::vector<std::pair<int, FileCounts>> &files) {
  for (size_t i = 1; i < files.size(); ++i) {
    if (files[i].first != files[i - 1].first) continue;
    return files[i - 1].second.path + " and " + files[i].second.path + " are both rank " +
           std::to_string(files[i].first) +
           " (the last number in a file's name is its rank): the rank would be counted twice; "
           "leave out the stale file";
  }
  return "";
}

// The sum over the ranks of every event must fit the summary's 64 bits: a wrapped sum would
// print a negative total. Returns "" or the event and the file whose count passes the bound.
std::string SumsFit(const std::vector<std::pair<int, FileCounts>> &files) {
  const std::vector<std::string> &events = files.front().second.events;
  for (size_t e = 0; e < events.size(); ++e) {
    long long sum = 0;
    for (const auto &[rank, counts] : files) {
      if (!counts.counted || counts.events != events) continue;  // left out of the sums
      if (__builtin_add_overflow(sum, counts.values[e], &sum)) {
        return "the sum of " + events[e] + " over the ranks passes " + std::to_string(LLONG_MAX) +
               " at " + counts.path + ":" + std::to_string(counts.lines[e]) + " (rank " +
               std::to_string(rank) + "); no run counts that much: is a file damaged?";
      }
    }
  }
  return "";
}

}  // namespace

int RunMerge(const std::vector<std::string> &args) {
  if (args.empty()) {
    fprintf(stderr,
            "pmcount: --merge needs the per-rank CSV files (pmcount --merge counts.*.csv)\n");
    return 2;
  }
  EventSet run;
  run.name = "run";
  std::vector<std::pair<int, FileCounts>> files;
  for (size_t i = 0; i < args.size(); ++i) {
    FileCounts counts;
    const std::string error = ReadFile(args[i], &counts);
    if (!error.empty()) {
      fprintf(stderr, "pmcount: --merge: %s\n", error.c_str());
      return 125;
    }
    const int rank = RankFromName(args[i]);
    files.emplace_back(rank >= 0 ? rank : static_cast<int>(i), counts);
  }
  std::stable_sort(files.begin(), files.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const std::string &error : {EachRankOnce(files), SumsFit(files)}) {
    if (!error.empty()) {
      fprintf(stderr, "pmcount: --merge: %s\n", error.c_str());
      return 125;
    }
  }
  run.events = files.front().second.events;
  for (const auto &[rank, counts] : files) {
    RankCounts entry;
    entry.rank = rank;
    entry.wall_s = counts.wall_s;
    // A file counting other events cannot be summed with the first one's.
    entry.counted = counts.counted && counts.events == run.events;
    if (counts.events != run.events) {
      fprintf(stderr, "pmcount: --merge: rank %d counted other events than rank %d; left out\n",
              rank, files.front().first);
    }
    entry.values = counts.values;
    run.ranks.push_back(entry);
  }
  const std::string banner = pmapi_mpi::FormatBanner({run}, "PMCOUNT-MERGE");
  fputs(banner.c_str(), stdout);
  return 0;
}

}  // namespace pmcount
