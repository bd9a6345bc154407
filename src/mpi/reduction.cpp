// SPDX-License-Identifier: MIT
#include "reduction.h"

#include <mpi.h>
#include <pmapi.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <set>
#include <sstream>

namespace pmapi_mpi {
namespace {

constexpr size_t kNameBytes = 64;

// What each rank sends about the whole run: fixed size, so one MPI_Allgather of bytes moves
// every rank's record (every rank learns whether any rank has regions to send).
struct WireRecord {
  double wall_s;
  double library_ms;
  int32_t counted;
  int32_t nevents;
  int64_t region_bytes;
  int64_t values[MAX_COUNTERS];
  char names[MAX_COUNTERS][kNameBytes];
  char host[kNameBytes];
};

void CopyName(const std::string &from, char (&to)[kNameBytes]) {
  strncpy(to, from.c_str(), kNameBytes - 1);
  to[kNameBytes - 1] = '\0';
}

// A region name as one field of a tab-separated line.
std::string Field(const std::string &name) {
  std::string out = name;
  for (char &c : out) {
    if (c == '\t' || c == '\n') c = '_';
  }
  return out;
}

// Regions as text lines: name, calls, wall seconds, then the values ("-" when not counted).
std::string EncodeRegions(const RankReport &mine) {
  std::string out;
  for (const auto &[name, totals] : mine.regions) {
    out += Field(name) + "\t" + std::to_string(totals.calls) + "\t" + std::to_string(totals.wall_s);
    if (totals.values.size() == mine.events.size() && mine.counted) {
      for (long long value : totals.values) out += "\t" + std::to_string(value);
    } else {
      out += "\t-";
    }
    out += "\n";
  }
  return out;
}

struct DecodedRegion {
  long long calls = 0;
  double wall_s = 0;
  bool counted = false;
  std::vector<long long> values;
};

std::map<std::string, DecodedRegion> DecodeRegions(const std::string &text) {
  std::map<std::string, DecodedRegion> regions;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
      const size_t tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (fields.size() < 4) continue;
    DecodedRegion &region = regions[fields[0]];
    region.calls = strtoll(fields[1].c_str(), nullptr, 10);
    region.wall_s = strtod(fields[2].c_str(), nullptr);
    region.counted = fields[3] != "-";
    if (region.counted) {
      for (size_t f = 3; f < fields.size(); ++f) {
        region.values.push_back(strtoll(fields[f].c_str(), nullptr, 10));
      }
    }
  }
  return regions;
}

std::vector<std::string> Names(const WireRecord &record) {
  std::vector<std::string> names;
  for (int e = 0; e < record.nevents && e < MAX_COUNTERS; ++e) names.push_back(record.names[e]);
  return names;
}

}  // namespace

int Reduce(const RankReport &mine, std::vector<EventSet> *sets) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);

  WireRecord record;
  memset(&record, 0, sizeof record);
  record.wall_s = mine.wall_s;
  const double reduction_start_s = MonotonicSeconds();
  record.counted = mine.counted;
  record.nevents = static_cast<int32_t>(mine.events.size());
  for (size_t e = 0; e < mine.events.size() && e < MAX_COUNTERS; ++e) {
    CopyName(mine.events[e], record.names[e]);
    if (e < mine.values.size()) record.values[e] = mine.values[e];
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  CopyName(host, record.host);
  // Every rank must reach the collective whatever happens here, or the others would wait in
  // it forever: regions that cannot be encoded are dropped, the rank still takes part.
  std::string region_text;
  try {
    region_text = EncodeRegions(mine);
  } catch (...) {
    region_text.clear();
  }
  record.region_bytes = static_cast<int64_t>(region_text.size());

  std::vector<WireRecord> all(static_cast<size_t>(size));
  // What the library took on this rank, up to the collective (the collective itself
  // mostly waits for the slowest rank: not the library's cost).
  record.library_ms = mine.library_ms + (MonotonicSeconds() - reduction_start_s) * 1e3;
  PMPI_Allgather(&record, sizeof record, MPI_BYTE, all.data(), sizeof record, MPI_BYTE,
                 MPI_COMM_WORLD);
  int collectives = 1;

  bool any_regions = false;
  for (const WireRecord &each : all) any_regions = any_regions || each.region_bytes > 0;
  std::vector<std::string> region_texts(static_cast<size_t>(size));
  if (any_regions) {
    std::vector<int> counts(static_cast<size_t>(size)), displacements(static_cast<size_t>(size));
    int total = 0;
    for (int r = 0; r < size; ++r) {
      counts[static_cast<size_t>(r)] = static_cast<int>(all[static_cast<size_t>(r)].region_bytes);
      displacements[static_cast<size_t>(r)] = total;
      total += counts[static_cast<size_t>(r)];
    }
    std::vector<char> gathered(static_cast<size_t>(total) + 1);
    PMPI_Gatherv(region_text.data(), static_cast<int>(region_text.size()), MPI_CHAR,
                 gathered.data(), counts.data(), displacements.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    ++collectives;
    if (rank == 0) {
      for (int r = 0; r < size; ++r) {
        region_texts[static_cast<size_t>(r)].assign(
            gathered.data() + displacements[static_cast<size_t>(r)],
            static_cast<size_t>(counts[static_cast<size_t>(r)]));
      }
    }
  }
  if (rank != 0) return collectives;

  // The event names: those of the first rank that counted (a rank that could not count may
  // have none). A rank counting other events than those (its own PMAPI_MPI_EVENTS) cannot be
  // summed with them: it is marked not counted.
  std::vector<std::string> events;
  for (const WireRecord &each : all) {
    if (each.counted) {
      events = Names(each);
      break;
    }
  }
  if (events.empty()) events = Names(all.front());

  EventSet run;
  run.name = "run";
  run.events = events;
  std::set<std::string> region_names;
  std::vector<std::map<std::string, DecodedRegion>> decoded(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    const WireRecord &each = all[static_cast<size_t>(r)];
    RankCounts counts;
    counts.rank = r;
    counts.host = each.host;
    counts.wall_s = each.wall_s;
    counts.library_ms = each.library_ms;
    counts.counted = each.counted && Names(each) == events;
    counts.values.assign(each.values, each.values + std::min<int>(each.nevents, MAX_COUNTERS));
    run.ranks.push_back(counts);
    decoded[static_cast<size_t>(r)] = DecodeRegions(region_texts[static_cast<size_t>(r)]);
    for (const auto &entry : decoded[static_cast<size_t>(r)]) region_names.insert(entry.first);
  }
  sets->push_back(run);
  for (const std::string &name : region_names) {
    EventSet set;
    set.name = name;
    set.events = events;
    for (int r = 0; r < size; ++r) {
      RankCounts counts;
      counts.rank = r;
      counts.host = run.ranks[static_cast<size_t>(r)].host;
      const auto found = decoded[static_cast<size_t>(r)].find(name);
      // A rank that never entered the region counted nothing in it.
      counts.counted = run.ranks[static_cast<size_t>(r)].counted;
      counts.values.assign(events.size(), 0);
      if (found != decoded[static_cast<size_t>(r)].end()) {
        counts.calls = found->second.calls;
        counts.wall_s = found->second.wall_s;
        if (found->second.counted && found->second.values.size() == events.size()) {
          counts.values = found->second.values;
        } else {
          counts.counted = false;
        }
      }
      set.ranks.push_back(counts);
    }
    sets->push_back(set);
  }
  return collectives;
}

}  // namespace pmapi_mpi
