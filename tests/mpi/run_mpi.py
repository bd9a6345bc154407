#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The MPI tests (docs/mpi.md), with real mpirun at 4 ranks against the installed tree.

  run_mpi.py SECTION PREFIX LIBDIR PLAIN_APP

PREFIX is a scratch install of the project; PLAIN_APP is tests/mpi/getppid_ranks.c built
without libpmapi-mpi (for LD_PRELOAD and pmcount). Sections: linked preload regions bad_rank
abort pmcount. Exits 77 (skipped) when this machine cannot run them (no mpirun, no tracefs).
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

EVENT = "syscalls:sys_enter_getppid"
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "getppid_ranks.c")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def skip(message):
    print("SKIP: " + message)
    sys.exit(77)


def mpirun(args, env_extra, timeout=120):
    env = dict(os.environ)
    env.update(env_extra)
    command = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "4"] + args
    print("$ " + " ".join("%s=%s" % kv for kv in env_extra.items()) + " " + " ".join(command))
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    return run


def banner_row(stdout, set_title, event):
    """The numbers of `event` in the banner section `set_title` ("whole run", "region inner")."""
    in_set = False
    for line in stdout.splitlines():
        if line.startswith("# whole run") or line.startswith("# region "):
            in_set = line.startswith("# " + set_title)
            continue
        fields = line.split()
        if in_set and len(fields) == 9 and fields[1] == event:
            return {"sum": int(fields[2]), "min": int(fields[3]), "min_rank": int(fields[4]),
                    "max": int(fields[5]), "max_rank": int(fields[6]),
                    "mean": float(fields[7]), "imbalance": float(fields[8])}
    fail("no line for %s in the banner's %s section" % (event, set_title))


def expect_stats(where, stats, total, low, low_rank, high, high_rank, mean, imbalance):
    got = (stats["sum"], stats["min"], stats["min_rank"], stats["max"], stats["max_rank"])
    want = (total, low, low_rank, high, high_rank)
    if got != want:
        fail("%s: sum, min, min rank, max, max rank are %s, expected %s" % (where, got, want))
    if abs(stats["mean"] - mean) > 0.01 or abs(stats["imbalance"] - imbalance) > 0.01:
        fail("%s: mean %.2f imbalance %.2f, expected %.2f and %.2f" %
             (where, stats["mean"], stats["imbalance"], mean, imbalance))


def json_summary(document, set_name):
    for event_set in document["sets"]:
        if event_set["name"] == set_name:
            return event_set["summary"][0], event_set
    fail("no set %r in the JSON file" % set_name)


def linked_app(prefix, libdir, scratch):
    """The workload built against the installed tree, as a user would: mpicc + pkg-config."""
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, libdir, "pkgconfig")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "pmapi-mpi"], env=env,
                           capture_output=True, text=True)
    if flags.returncode != 0:
        fail("pkg-config pmapi-mpi: " + flags.stderr)
    app = os.path.join(scratch, "getppid_ranks_linked")
    command = (["mpicc", "-DWITH_REGIONS", SOURCE, "-o", app, "-pthread"] + flags.stdout.split() +
               ["-Wl,-rpath," + os.path.join(prefix, libdir)])
    build = subprocess.run(command, capture_output=True, text=True)
    if build.returncode != 0:
        fail("building against the installed tree: " + " ".join(command) + "\n" + build.stderr)
    return app


def check_whole_run(run, document):
    expect_stats("banner", banner_row(run.stdout, "whole run", EVENT),
                 10000, 1000, 0, 4000, 3, 2500, 1.6)
    stats, _ = json_summary(document, "run")
    expect_stats("JSON", stats, 10000, 1000, 0, 4000, 3, 2500, 1.6)
    if document["collectives"] != 1:
        fail("the whole run took %d collectives, expected 1" % document["collectives"])


def main():
    section, prefix, libdir, plain_app = sys.argv[1:5]
    if subprocess.run(["which", "mpirun"], capture_output=True).returncode != 0:
        skip("no mpirun (scripts/setup-deps installs openmpi-bin)")
    if not os.access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid", os.R_OK):
        skip("tracefs is not readable here: the tests count a tracepoint")
    library = os.path.join(prefix, libdir, "libpmapi-mpi.so")
    scratch = tempfile.mkdtemp(prefix="pmapi-mpi-test.")
    events = {"PMAPI_MPI_EVENTS": EVENT}

    if section == "linked":
        output = os.path.join(scratch, "job.json")
        run = mpirun([linked_app(prefix, libdir, scratch)], dict(events, PMAPI_MPI_OUTPUT=output))
        if run.returncode != 0:
            fail("the job exited %d" % run.returncode)
        check_whole_run(run, json.load(open(output)))
        # A tracepoint the lists leave out by default (syscalls:sys_exit_*) is found by name too.
        both = EVENT + ",syscalls:sys_exit_getppid"
        run = mpirun([linked_app(prefix, libdir, scratch)],
                     {"PMAPI_MPI_EVENTS": both, "PMAPI_MPI_OUTPUT": output})
        summary = json.load(open(output))["sets"][0]["summary"]
        if run.returncode != 0 or [stats.get("sum") for stats in summary] != [10000, 10000]:
            fail("%s: exit %d, summary %s (expected 10000 each)" % (both, run.returncode, summary))
    elif section == "preload":
        output = os.path.join(scratch, "job.json")
        run = mpirun(["-x", "LD_PRELOAD", plain_app],
                     dict(events, PMAPI_MPI_OUTPUT=output, LD_PRELOAD=library))
        if run.returncode != 0:
            fail("the job exited %d" % run.returncode)
        check_whole_run(run, json.load(open(output)))
        # The default group (several events): still one collective for the whole set.
        run = mpirun(["-x", "LD_PRELOAD", plain_app],
                     {"PMAPI_MPI_OUTPUT": output, "LD_PRELOAD": library})
        document = json.load(open(output))
        summary = document["sets"][0]["summary"]
        if run.returncode != 0 or len(summary) < 2 or document["collectives"] != 1:
            fail("the default group: exit %d, %d events, %d collectives (expected 0, >= 2, 1)" %
                 (run.returncode, len(summary), document["collectives"]))
        if any(stats["counted_ranks"] != 4 for stats in summary):
            fail("the default group is not counted on every rank: %s" % summary)
        names = [stats["event"] for stats in summary]
        if len(set(names)) != len(names):
            fail("the default group's events are its members, each once: %s" % names)
        csv_output = os.path.join(scratch, "job.csv")
        run = mpirun(["-x", "LD_PRELOAD", plain_app],
                     dict(events, PMAPI_MPI_OUTPUT=csv_output, LD_PRELOAD=library))
        rows = open(csv_output).read().splitlines()
        if rows[0] != "set,rank,host,wall_s,counted,calls,event,value":
            fail("CSV header: " + rows[0])
        values = [int(row.split(",")[7]) for row in rows[1:]]
        if values != [1000, 2000, 3000, 4000]:
            fail("CSV per-rank values %s, expected 1000..4000" % values)
    elif section == "regions":
        output = os.path.join(scratch, "job.json")
        run = mpirun([linked_app(prefix, libdir, scratch), "regions"],
                     dict(events, PMAPI_MPI_OUTPUT=output))
        if run.returncode != 0:
            fail("the job exited %d" % run.returncode)
        document = json.load(open(output))
        # The region holds 100 (r+1) of each rank's calls; the whole run still has them all.
        expect_stats("banner run", banner_row(run.stdout, "whole run", EVENT),
                     10000, 1000, 0, 4000, 3, 2500, 1.6)
        expect_stats("banner region", banner_row(run.stdout, "region inner", EVENT),
                     1000, 100, 0, 400, 3, 250, 1.6)
        stats, region = json_summary(document, "inner")
        expect_stats("JSON region", stats, 1000, 100, 0, 400, 3, 250, 1.6)
        if [rank["calls"] for rank in region["per_rank"]] != [2, 2, 2, 2]:
            fail("each rank entered the region twice: %s" % region["per_rank"])
        if document["collectives"] != 2:
            fail("whole run plus regions took %d collectives, expected 2" %
                 document["collectives"])
    elif section == "bad_rank":
        output = os.path.join(scratch, "job.json")
        run = mpirun([linked_app(prefix, libdir, scratch)],
                     dict(events, PMAPI_MPI_OUTPUT=output, PMAPI_MPI_TEST_BAD_RANK="2"))
        if run.returncode != 0:
            fail("a rank with a bad event name made the job exit %d" % run.returncode)
        said = [line for line in run.stderr.splitlines() if line.startswith("pmapi-mpi: rank 2:")]
        if len(said) != 1 or "sys_enter_no_such_call" not in said[0]:
            fail("rank 2 should say once why it cannot count; stderr has %s" % said)
        stats, run_set = json_summary(json.load(open(output)), "run")
        if stats["counted_ranks"] != 3 or run_set["per_rank"][2]["counted"]:
            fail("rank 2 should be the one rank not counted: %s" % run_set["per_rank"])
        expect_stats("JSON", stats, 7000, 1000, 0, 4000, 3, 7000 / 3, 4000 / (7000 / 3))
        if "not counted on ranks 2" not in run.stdout:
            fail("the banner does not say rank 2 was not counted")
    elif section == "abort":
        app = linked_app(prefix, libdir, scratch)
        for how in ("abort", "kill"):  # MPI_Abort on rank 1; rank 1 killed by SIGKILL
            output = os.path.join(scratch, "job.json")
            run = mpirun([app, how], dict(events, PMAPI_MPI_OUTPUT=output), timeout=60)
            if run.returncode == 0:
                fail("%s on rank 1 should make the job fail" % how)
            left = os.listdir(scratch)
            if any(name.startswith("job.json") for name in left):
                fail("a job ended by %s left output behind: %s" % (how, left))
    elif section == "pmcount":
        pmcount = os.path.join(prefix, "bin", "pmcount")
        pattern = os.path.join(scratch, "counts.%r.csv")
        run = mpirun([pmcount, "-e", EVENT, "-o", pattern, "--", plain_app], {})
        if run.returncode != 0:
            fail("the job under pmcount exited %d" % run.returncode)
        files = sorted(glob.glob(os.path.join(scratch, "counts.*.csv")))
        if [os.path.basename(f) for f in files] != ["counts.%d.csv" % r for r in range(4)]:
            fail("expected counts.0.csv .. counts.3.csv, found %s" % files)
        merge = subprocess.run([pmcount, "--merge"] + files, capture_output=True, text=True)
        print(merge.stdout, end="")
        print(merge.stderr, end="", file=sys.stderr)
        if merge.returncode != 0:
            fail("pmcount --merge exited %d" % merge.returncode)
        expect_stats("pmcount --merge", banner_row(merge.stdout, "whole run", EVENT),
                     10000, 1000, 0, 4000, 3, 2500, 1.6)
        # Outside a launcher %r has no rank: a usage error before anything runs.
        env = {k: v for k, v in os.environ.items()
               if k not in ("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK",
                            "MP_CHILD", "SLURM_PROCID")}
        marker = os.path.join(scratch, "ran")
        alone = subprocess.run([pmcount, "-e", EVENT, "-o", pattern, "--", "touch", marker],
                               env=env, capture_output=True, text=True)
        if alone.returncode != 2 or "OMPI_COMM_WORLD_RANK" not in alone.stderr:
            fail("-o %%r without a rank: exit %d, %r" % (alone.returncode, alone.stderr))
        if os.path.exists(marker):
            fail("-o %r without a rank ran the command")
        # Without -o the ranks' tables share the terminal: every line says its rank.
        shared = mpirun([pmcount, "-e", EVENT, "--", plain_app], {})
        table = [l for l in shared.stderr.splitlines() if l.startswith("[rank ")]
        for rank in range(4):
            mine = [l for l in table if l.startswith("[rank %d]" % rank)]
            if not any(" %s" % EVENT in l for l in mine):
                fail("no [rank %d] count of %s in the shared output" % (rank, EVENT))
        unlabelled = [l for l in shared.stderr.splitlines()
                      if l.strip() and EVENT in l and not l.startswith("[rank ")]
        if unlabelled:
            fail("table lines without a rank: %r" % unlabelled)
        # A file that is not pmcount's CSV is refused with its name, not summed as zeros.
        human = os.path.join(scratch, "human.txt")
        open(human, "w").write("Performance counter stats\n")
        refused = subprocess.run([pmcount, "--merge", files[0], human], capture_output=True,
                                 text=True)
        if refused.returncode != 125 or human not in refused.stderr:
            fail("--merge of a non-CSV file: exit %d, %r" % (refused.returncode, refused.stderr))
    else:
        fail("unknown section " + section)
    shutil.rmtree(scratch)  # kept when a check fails, for a look
    print("PASS: " + section)


if __name__ == "__main__":
    main()
