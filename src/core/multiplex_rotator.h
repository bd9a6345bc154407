/* SPDX-License-Identifier: MIT */
// The one thread per process that switches multiplexed event sets: it sleeps until the
// earliest multiplexer's slice ends, switches every multiplexer that is due, and sleeps again.
// One thread serves every multiplexed context (the calling thread's, other threads', CPUs',
// counting groups'), so a process with many multiplexed threads still has one switcher.
#pragma once

namespace pmapi {

class Multiplexer;

// Starts `mx`'s rotation (the thread is started on first use). Fails only when the thread
// cannot be created.
bool AddToRotation(Multiplexer *mx);
// After this returns, the rotator is not switching `mx` and never will.
void RemoveFromRotation(Multiplexer *mx);
// `mx`'s next switch time changed (counting started): the rotator recomputes its sleep.
void WakeRotator();

}  // namespace pmapi
