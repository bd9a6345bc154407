// SPDX-License-Identifier: MIT
#include "task_aggregate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <sstream>

#include "base/small_file.h"
#include "cross_rank_summary.h"
#include "launcher_rank.h"

namespace aix {
namespace {

const char *Env(const char *name) {
  const char *value = getenv(name);
  return value && *value ? value : nullptr;
}

bool Number(const char *text, int low, int high, int *out) {
  if (!text) return false;
  char *end = nullptr;
  errno = 0;
  const long value = strtol(text, &end, 10);
  if (errno || end == text || *end != '\0' || value < low || value > high) return false;
  *out = static_cast<int>(value);
  return true;
}

// The task's file: one line per event, "name<TAB>count" or "name<TAB>-" when not counted,
// after "wall<TAB>seconds". Multiplexed sets prefix their events with "set<k>/".
std::string TaskFile(const HpmReport &report) {
  std::ostringstream out;
  out.precision(9);
  out << "wall\t" << report.wall_seconds << "\n";
  for (size_t k = 0; k < report.sets.size(); ++k) {
    for (const EventLine &event : report.sets[k].events) {
      if (report.multiplexed) out << "set" << k + 1 << "/";
      out << event.name << "\t";
      if (event.counted) {
        out << event.value << "\n";
      } else {
        out << "-\n";
      }
    }
  }
  return out.str();
}

bool ReadTask(const std::string &path, int rank, pmapi_mpi::EventSet *set) {
  // Read as the claim is: a FIFO or a link planted among the task files is no task.
  std::string text, why;
  if (pmapi::ReadSmallFile(AT_FDCWD, path.c_str(), 1u << 20, "a task file", &text, &why,
                           O_NOFOLLOW) != pmapi::SmallFile::kRead) {
    return false;
  }
  std::istringstream file(text);
  std::string line;
  pmapi_mpi::RankCounts counts;
  counts.rank = rank;
  counts.counted = true;
  std::vector<std::string> events;
  while (std::getline(file, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) return false;
    const std::string key = line.substr(0, tab), value = line.substr(tab + 1);
    if (key == "wall") {
      counts.wall_s = atof(value.c_str());
      continue;
    }
    events.push_back(key);
    // A task that could not count an event: the MPI layer's rule for a rank that did not
    // count, so that no zero pulls the minimum down.
    if (value == "-") counts.counted = false;
    counts.values.push_back(value == "-" ? 0 : atoll(value.c_str()));
  }
  if (set->events.empty()) set->events = events;
  if (events != set->events) return false;
  set->ranks.push_back(counts);
  return true;
}

// The task files of one run, as a claim names them: each one's rank, file (device, inode) and
// modification time. A later run of the same job writes new files (rename: new inodes), so its
// list differs. "" when a file is gone.
std::string TaskFilesSeen(const std::map<int, std::string> &tasks) {
  std::string seen;
  for (const auto &[rank, path] : tasks) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0) return "";
    char line[160];
    snprintf(line, sizeof line, "%d %llu:%llu %lld.%09ld\n", rank,
             static_cast<unsigned long long>(info.st_dev),
             static_cast<unsigned long long>(info.st_ino),
             static_cast<long long>(info.st_mtim.tv_sec), info.st_mtim.tv_nsec);
    seen += line;
  }
  return seen;
}

// What `path` holds, if it is a regular file of at most 1 MiB (never waiting on a FIFO, nor
// following a link, planted there); "" otherwise.
std::string ReadClaim(const std::string &path) {
  std::string text, why;
  pmapi::ReadSmallFile(AT_FDCWD, path.c_str(), 1u << 20, "a claim", &text, &why, O_NOFOLLOW);
  return text;
}

// Claims the sum of the task files `seen` lists: true when this task is the one to write it.
// The claim is made whole (a new file linked into place, which fails if one is there), so a
// task that finds one reads what it was made for: these files (another task of this run
// claimed first) or others (an earlier run of the job, or a file planted there), which is said
// in *error.
bool Claim(const std::string &claim, const std::string &seen, const std::string &job,
           std::string *error) {
  std::string temporary = claim + ".XXXXXX";
  const int fd = mkostemp(&temporary[0], O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot claim " + claim + ": " + strerror(errno);
    return false;
  }
  // 0644: the job's other tasks read it.
  const bool written = fchmod(fd, 0644) == 0 &&
                       write(fd, seen.data(), seen.size()) == static_cast<ssize_t>(seen.size());
  close(fd);
  const int linked = written ? link(temporary.c_str(), claim.c_str()) : -1;
  const int link_errno = errno;
  unlink(temporary.c_str());
  if (linked == 0) return true;
  if (!written || link_errno != EEXIST) {
    *error = "cannot claim " + claim + ": " + strerror(written ? link_errno : EIO);
  } else if (ReadClaim(claim) != seen) {
    *error = claim + " is there already, from another run of job " + job +
             " (a job name used twice, or a file left in the directory): remove it, or give "
             "each job its own name";
  }
  return false;
}

std::string Aggregate(const pmapi_mpi::EventSet &set, const HpmReport &report,
                      const TaskIdentity &task) {
  const pmapi_mpi::WallStats wall = pmapi_mpi::SummarizeWall(set);
  std::map<std::string, std::string> long_names;
  for (size_t k = 0; k < report.sets.size(); ++k) {
    for (const EventLine &event : report.sets[k].events) {
      const std::string key =
          (report.multiplexed ? "set" + std::to_string(k + 1) + "/" : std::string()) + event.name;
      long_names[key] = event.long_name;
    }
  }
  char line[512];
  std::string text;
  snprintf(line, sizeof line, " Aggregate of %d tasks (job %s)\n", task.size, task.job.c_str());
  text += line;
  snprintf(line, sizeof line, " Execution time (wall clock time): %.6f seconds\n", wall.max);
  text += line;
  text += " Counting mode: " + report.mode + "\n";
  for (const pmapi_mpi::EventStats &stats : pmapi_mpi::Summarize(set)) {
    std::string label = stats.event;
    if (!long_names[stats.event].empty()) label += " (" + long_names[stats.event] + ")";
    if (stats.counted_ranks == 0) {
      snprintf(line, sizeof line, "  %-58s:  not counted by any task\n", label.c_str());
    } else {
      snprintf(line, sizeof line, "  %-58s: %15lld\n", label.c_str(), stats.sum);
    }
    text += line;
    if (stats.counted_ranks > 0) {
      snprintf(line, sizeof line,
               "    tasks %d, min %lld (task %d), max %lld (task %d), max/mean %.3f\n",
               stats.counted_ranks, stats.min, stats.min_rank, stats.max, stats.max_rank,
               stats.imbalance);
      text += line;
    }
  }
  return text;
}

}  // namespace

TaskIdentity IdentifyTask() {
  TaskIdentity task;
  if (!tools::LauncherTask(&task.rank, &task.size)) {
    task.rank = -1;
    task.size = 0;
  }
  if (const char *id = Env("HPM_AGGREGATE_ID")) {
    task.job = id;
  } else if (const char *partition = Env("MP_PARTITION")) {
    task.job = partition;
  } else if (const char *job = Env("SLURM_JOB_ID")) {
    task.job = job;
    if (const char *step = Env("SLURM_STEP_ID")) task.job += std::string(".") + step;
  }
  if (task.rank < 0) {
    task.why = "no task rank and size in the environment (" + tools::LauncherVariables(true) + ")";
  } else if (task.job.empty() || task.job.find('/') != std::string::npos) {
    task.why =
        "no job name for the tasks to share (MP_PARTITION, SLURM_JOB_ID or "
        "HPM_AGGREGATE_ID, without '/')";
  }
  return task;
}

std::string AddToAggregate(const std::string &dir, const TaskIdentity &task,
                           const HpmReport &report, std::string *aggregate) {
  const std::string base = dir + "/hpm_log." + task.job;
  std::string error =
      pmapi_mpi::WriteAtomically(base + ".task" + std::to_string(task.rank), TaskFile(report));
  if (!error.empty()) return error;
  // After our own file is in place: the last task to finish always sees every file.
  const std::string prefix = "hpm_log." + task.job + ".task";
  std::map<int, std::string> tasks;
  DIR *listing = opendir(dir.c_str());
  if (!listing) return "cannot list " + dir + ": " + strerror(errno);
  while (const struct dirent *entry = readdir(listing)) {
    const std::string name = entry->d_name;
    int rank = -1;
    if (name.compare(0, prefix.size(), prefix) == 0 &&
        Number(name.c_str() + prefix.size(), 0, task.size - 1, &rank)) {
      tasks[rank] = dir + "/" + name;
    }
  }
  closedir(listing);
  if (static_cast<int>(tasks.size()) < task.size) return "";
  // Two tasks ending together may both see every file: the one that makes the claim sums.
  const std::string seen = TaskFilesSeen(tasks);
  if (seen.empty()) return "a task file of job " + task.job + " went away while being summed";
  if (!Claim(base + ".claim", seen, task.job, &error)) return error;
  pmapi_mpi::EventSet set;
  set.name = "run";
  for (const auto &entry : tasks) {
    if (!ReadTask(entry.second, entry.first, &set)) {
      return entry.second + " does not hold the events of this task's (another job's file?)";
    }
  }
  error = pmapi_mpi::WriteAtomically(base, Aggregate(set, report, task));
  if (error.empty()) *aggregate = base;
  return error;
}

}  // namespace aix
