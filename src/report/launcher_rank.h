/* SPDX-License-Identifier: MIT */
// Which task of a parallel job this process is, as its launcher says in the environment: the
// one list of the launchers' rank (and size) variables that libhpm, pmcount and hpmcount read.
// An MPI's own variables come before Slurm's: an mpirun inside a Slurm allocation leaves
// SLURM_PROCID at the allocation's value in every rank it starts.
#pragma once

#include <stddef.h>

#include <string>

namespace tools {

struct Launcher {
  const char *name;  // "Open MPI", for messages
  const char *rank;  // "OMPI_COMM_WORLD_RANK"
  const char *size;  // "OMPI_COMM_WORLD_SIZE", or nullptr where the launcher exports none
};

// Every launcher known, in the order they are asked.
inline constexpr Launcher kLaunchers[] = {
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
    {"PMIx", "PMIX_RANK", nullptr},
    {"MPICH's Hydra (PMI)", "PMI_RANK", "PMI_SIZE"},
    {"MVAPICH", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"},
    {"IBM POE", "MP_CHILD", "MP_PROCS"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS"},
};

// The largest rank or size taken from the environment.
constexpr int kMaxLauncherTasks = 1 << 20;

// The rank of the first launcher whose rank variable is set, if it is a whole number from 0 to
// kMaxLauncherTasks - 1; false when none is set (or the first one set is not such a number).
bool LauncherRank(int *rank, const Launcher **from = nullptr);

// The rank and size of the first launcher that sets both (a rank below the size); false when
// none does.
bool LauncherTask(int *rank, int *size, const Launcher **from = nullptr);

// The variables, for a message: "OMPI_COMM_WORLD_RANK, PMIX_RANK, ... or SLURM_PROCID", or
// with `sizes` "OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE, ..., or SLURM_PROCID and
// SLURM_NTASKS" (the launchers that export a size).
std::string LauncherVariables(bool sizes = false);

}  // namespace tools
