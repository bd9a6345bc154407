/* SPDX-License-Identifier: MIT */
// How long a context has been counting since set or reset, by the wall clock (ns of
// CLOCK_MONOTONIC). The kernel's time_enabled for a CPU's counters should never be less: when it
// is, the kernel switched them off behind our back, which it does when the CPU goes offline (and
// it does not switch them on again when the CPU returns). Timestamps are taken so that this clock
// can only under-count the kernel's: after an enable, before a disable, before a read.
#pragma once

#include <stdint.h>

namespace pmapi {

class EnabledClock {
 public:
  // Counting went on (after the enable returned); a no-op if it already was.
  void Started(uint64_t now) {
    if (on_) return;
    on_ = true;
    since_ = now;
  }
  // Counting went off (`now` taken before the disable).
  void Stopped(uint64_t now) {
    if (!on_) return;
    accumulated_ += now > since_ ? now - since_ : 0;
    on_ = false;
  }
  // The baselines moved (`now` taken after the reset read them).
  void Reset(uint64_t now) {
    accumulated_ = 0;
    if (on_) since_ = now;
  }
  void Clear() { *this = EnabledClock(); }

  // Counting time since set/reset as of `now`.
  uint64_t At(uint64_t now) const {
    return accumulated_ + (on_ && now > since_ ? now - since_ : 0);
  }

 private:
  bool on_ = false;
  uint64_t since_ = 0;
  uint64_t accumulated_ = 0;
};

}  // namespace pmapi
