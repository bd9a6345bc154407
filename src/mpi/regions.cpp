// SPDX-License-Identifier: MIT
#include "regions.h"

#include "base/clock.h"

namespace pmapi_mpi {

double MonotonicSeconds() { return static_cast<double>(pmapi::MonotonicNanos()) * 1e-9; }

int Regions::Begin(const char *name) {
  if (!name || !*name) return -1;
  Open region;
  region.name = name;
  if (counters_->counting() && !counters_->Read(&region.start)) region.start.clear();
  region.start_s = MonotonicSeconds();
  std::lock_guard<std::mutex> lock(mutex_);
  open_.push_back(std::move(region));
  return 0;
}

int Regions::End(const char *name) {
  if (!name || !*name) return -1;
  std::vector<long long> now;
  const bool read = counters_->counting() && counters_->Read(&now);
  const double end_s = MonotonicSeconds();
  std::lock_guard<std::mutex> lock(mutex_);
  // The innermost open region of that name: regions of other names may be open around it.
  for (size_t i = open_.size(); i-- > 0;) {
    if (open_[i].name != name) continue;
    RegionTotals &totals = totals_[open_[i].name];
    ++totals.calls;
    totals.wall_s += end_s - open_[i].start_s;
    if (read && open_[i].start.size() == now.size()) {
      totals.values.resize(now.size(), 0);
      for (size_t e = 0; e < now.size(); ++e) totals.values[e] += now[e] - open_[i].start[e];
    }
    open_.erase(open_.begin() + static_cast<long>(i));
    return 0;
  }
  return -1;
}

std::map<std::string, RegionTotals> Regions::Totals() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return totals_;
}

}  // namespace pmapi_mpi
