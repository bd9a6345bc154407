/* SPDX-License-Identifier: MIT */
// The core's lock order at a fork: each noun's rank with the fork service (base/fork_service.h).
// A fork takes the locks from the first rank to the last; a child lets go of the parent's from
// the last to the first, so what a rank's child hook destroys is of a higher rank, already let
// go of. A noun may join or leave while it holds locks of lower ranks only.
#pragma once

namespace pmapi {

enum ForkRank : int {
  // A sampling front end's own child hook (SamplingSession::AtForkInChild): last in the child,
  // once the core let go of every session, so it may destroy the sessions it holds.
  kForkRankSamplingFrontEnds = 1,
  // The registry's call locks: every system-wide call and every third-party call.
  kForkRankRegistryCalls = 2,
  // The sampling front ends' call lock (SamplingSession::FrontEndCalls).
  kForkRankSamplingCalls = 3,
  // The registry's contexts and its own lock: the child destroys the parent's contexts.
  kForkRankContexts = 4,
  // Every counting group's lock: the child closes its copies of the group's descriptors.
  kForkRankCountingGroups = 5,
  // Every sampling session's drain: the child forgets the session's rings and descriptors.
  kForkRankSamplingSessions = 6,
  // Nouns with no lock to take, whose child state must be fresh before anything is destroyed:
  // the tracepoint anchors, the multiplexers' rotator.
  kForkRankProcessState = 7,
};

}  // namespace pmapi
