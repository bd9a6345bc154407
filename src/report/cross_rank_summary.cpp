// SPDX-License-Identifier: MIT
#include "cross_rank_summary.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <set>

#include "base/clock.h"
#include "csv.h"
#include "json.h"
#include "text_format.h"

namespace pmapi_mpi {
namespace {

using tools::CsvField;
using tools::Fixed;
using tools::JsonString;

// Names WriteAtomically tries for its temporary before it gives up.
constexpr int kTemporaryAttempts = 64;

std::string NotCountedRanks(const EventSet &set) {
  std::string ranks;
  for (const RankCounts &rank : set.ranks) {
    if (!rank.counted) ranks += (ranks.empty() ? "" : ",") + std::to_string(rank.rank);
  }
  return ranks;
}

}  // namespace

std::vector<EventStats> Summarize(const EventSet &set) {
  std::vector<EventStats> all;
  for (size_t e = 0; e < set.events.size(); ++e) {
    EventStats stats;
    stats.event = set.events[e];
    for (const RankCounts &rank : set.ranks) {
      if (!rank.counted || e >= rank.values.size()) continue;
      const long long value = rank.values[e];
      if (stats.counted_ranks == 0 || value < stats.min) {
        stats.min = value;
        stats.min_rank = rank.rank;
      }
      if (stats.counted_ranks == 0 || value > stats.max) {
        stats.max = value;
        stats.max_rank = rank.rank;
      }
      stats.sum += value;
      ++stats.counted_ranks;
    }
    if (stats.counted_ranks > 0) {
      stats.mean = static_cast<double>(stats.sum) / stats.counted_ranks;
      stats.imbalance = stats.mean > 0 ? static_cast<double>(stats.max) / stats.mean : 0;
    }
    all.push_back(stats);
  }
  return all;
}

WallStats SummarizeWall(const EventSet &set) {
  WallStats wall;
  double total = 0;
  for (const RankCounts &rank : set.ranks) {
    if (wall.min_rank < 0 || rank.wall_s < wall.min) {
      wall.min = rank.wall_s;
      wall.min_rank = rank.rank;
    }
    if (wall.max_rank < 0 || rank.wall_s > wall.max) {
      wall.max = rank.wall_s;
      wall.max_rank = rank.rank;
    }
    total += rank.wall_s;
  }
  if (!set.ranks.empty()) wall.mean = total / static_cast<double>(set.ranks.size());
  return wall;
}

std::string FormatBanner(const std::vector<EventSet> &sets, const std::string &title) {
  const std::string rule(78, '#');
  std::string out =
      "##" + title +
      rule.substr(0, rule.size() > title.size() + 2 ? rule.size() - title.size() - 2 : 0) + "\n#\n";
  if (sets.empty()) return out + rule + "\n";
  const EventSet &run = sets.front();
  std::set<std::string> hosts;
  for (const RankCounts &rank : run.ranks) {
    if (!rank.host.empty()) hosts.insert(rank.host);
  }
  char line[512];
  // Hosts unknown (pmcount --merge: the files do not say) are not shown as zero hosts.
  if (hosts.empty()) {
    snprintf(line, sizeof line, "# ranks : %zu\n", run.ranks.size());
  } else {
    snprintf(line, sizeof line, "# ranks : %-8zu hosts : %zu\n", run.ranks.size(), hosts.size());
  }
  out += line;
  const WallStats wall = SummarizeWall(run);
  snprintf(line, sizeof line, "# wall (s) : mean %.6f  min %.6f (rank %d)  max %.6f (rank %d)\n",
           wall.mean, wall.min, wall.min_rank, wall.max, wall.max_rank);
  out += line;
  for (const EventSet &set : sets) {
    out += "#\n";
    if (set.name == "run") {
      out += "# whole run\n";
    } else {
      long long calls = 0;
      for (const RankCounts &rank : set.ranks) calls += rank.calls;
      out += "# region " + set.name + " (entered " + std::to_string(calls) + " times)\n";
    }
    snprintf(line, sizeof line, "# %-32s %16s %16s %6s %16s %6s %16s %9s\n", "event", "sum", "min",
             "rank", "max", "rank", "mean", "imbalance");
    out += line;
    for (const EventStats &stats : Summarize(set)) {
      if (stats.counted_ranks == 0) {
        snprintf(line, sizeof line, "# %-32s %16s\n", stats.event.c_str(), "<not counted>");
      } else {
        snprintf(line, sizeof line, "# %-32s %16lld %16lld %6d %16lld %6d %16.2f %9.2f\n",
                 stats.event.c_str(), stats.sum, stats.min, stats.min_rank, stats.max,
                 stats.max_rank, stats.mean, stats.imbalance);
      }
      out += line;
    }
    const std::string missing = NotCountedRanks(set);
    if (!missing.empty()) {
      out += "# not counted on ranks " + missing + " (each said why on its standard error)\n";
    }
  }
  return out + "#\n" + rule + "\n";
}

std::string FormatJson(const std::vector<EventSet> &sets, int collectives) {
  std::string out =
      "{\n  \"ranks\": " + std::to_string(sets.empty() ? 0 : sets.front().ranks.size()) +
      ",\n  \"collectives\": " + std::to_string(collectives) + ",\n  \"sets\": [";
  for (size_t s = 0; s < sets.size(); ++s) {
    const EventSet &set = sets[s];
    const WallStats wall = SummarizeWall(set);
    out += std::string(s ? "," : "") + "\n    {\n      \"name\": " + JsonString(set.name) +
           ",\n      \"wall_s\": {\"min\": " + Fixed(wall.min, 6) +
           ", \"min_rank\": " + std::to_string(wall.min_rank) + ", \"max\": " + Fixed(wall.max, 6) +
           ", \"max_rank\": " + std::to_string(wall.max_rank) +
           ", \"mean\": " + Fixed(wall.mean, 6) + "},\n      \"summary\": [";
    const std::vector<EventStats> all = Summarize(set);
    for (size_t e = 0; e < all.size(); ++e) {
      const EventStats &stats = all[e];
      out += std::string(e ? "," : "") + "\n        {\"event\": " + JsonString(stats.event) +
             ", \"counted_ranks\": " + std::to_string(stats.counted_ranks);
      if (stats.counted_ranks > 0) {
        out +=
            ", \"sum\": " + std::to_string(stats.sum) + ", \"min\": " + std::to_string(stats.min) +
            ", \"min_rank\": " + std::to_string(stats.min_rank) +
            ", \"max\": " + std::to_string(stats.max) +
            ", \"max_rank\": " + std::to_string(stats.max_rank) +
            ", \"mean\": " + Fixed(stats.mean, 6) + ", \"imbalance\": " + Fixed(stats.imbalance, 6);
      }
      out += "}";
    }
    out += "\n      ],\n      \"per_rank\": [";
    for (size_t r = 0; r < set.ranks.size(); ++r) {
      const RankCounts &rank = set.ranks[r];
      out += std::string(r ? "," : "") + "\n        {\"rank\": " + std::to_string(rank.rank) +
             ", \"host\": " + JsonString(rank.host) + ", \"wall_s\": " + Fixed(rank.wall_s, 6) +
             ", \"counted\": " + (rank.counted ? "true" : "false");
      if (set.name != "run") out += ", \"calls\": " + std::to_string(rank.calls);
      if (rank.library_ms >= 0) out += ", \"library_ms\": " + Fixed(rank.library_ms, 3);
      out += ", \"values\": {";
      for (size_t e = 0; e < set.events.size(); ++e) {
        out += std::string(e ? ", " : "") + JsonString(set.events[e]) + ": " +
               (rank.counted && e < rank.values.size() ? std::to_string(rank.values[e])
                                                       : std::string("null"));
      }
      out += "}}";
    }
    out += "\n      ]\n    }";
  }
  return out + "\n  ]\n}\n";
}

std::string FormatCsv(const std::vector<EventSet> &sets) {
  std::string out = "set,rank,host,wall_s,counted,calls,event,value\n";
  for (const EventSet &set : sets) {
    for (const RankCounts &rank : set.ranks) {
      for (size_t e = 0; e < set.events.size(); ++e) {
        const bool has = rank.counted && e < rank.values.size();
        out += CsvField(set.name) + "," + std::to_string(rank.rank) + "," + CsvField(rank.host) +
               "," + Fixed(rank.wall_s, 6) + "," + (rank.counted ? "1" : "0") + "," +
               std::to_string(rank.calls) + "," + CsvField(set.events[e]) + "," +
               (has ? std::to_string(rank.values[e]) : std::string()) + "\n";
      }
    }
  }
  return out;
}

std::string WriteAtomically(const std::string &path, const std::string &text) {
  // The temporary is made new (O_EXCL, never through a link: O_NOFOLLOW), so that a link or
  // file another user planted at its name in a shared directory is never written through,
  // and the rename replaces a link at `path` itself instead of following it. The name is
  // `path`.tmp.PID first; when something is already there, fresh suffixes are tried so that a
  // planted name cannot stop the write. 0644: the job's results, readable as a plain file is.
  int fd = -1;
  std::string temporary;
  unsigned salt = static_cast<unsigned>(pmapi::MonotonicNanos());
  for (int attempt = 0; attempt < kTemporaryAttempts && fd < 0; ++attempt) {
    temporary = path + ".tmp." + std::to_string(getpid());
    if (attempt > 0) {
      salt = salt * 1103515245u + 12345u + static_cast<unsigned>(attempt);
      temporary += "." + std::to_string(salt);
    }
    fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) return "cannot create " + temporary + ": " + strerror(errno);
  }
  if (fd < 0) {
    return "cannot create a temporary file beside " + path + ": " +
           std::to_string(kTemporaryAttempts) +
           " names were taken (by files or links someone else left there); write to a "
           "directory only you can write to";
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? strerror(errno) : "nothing written";
      close(fd);
      unlink(temporary.c_str());
      return "cannot write " + temporary + ": " + why;
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) {
    const std::string why = strerror(errno);
    unlink(temporary.c_str());
    return "cannot write " + temporary + ": " + why;
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = strerror(errno);
    unlink(temporary.c_str());
    return "cannot rename " + temporary + " to " + path + ": " + why;
  }
  return "";
}

}  // namespace pmapi_mpi
