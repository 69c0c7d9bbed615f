"""sim/slurm/submit.py - what sim/regress --slurm and synth/synth.py --slurm share: the
checks before anything is submitted, sbatch, the state of a job array, and waiting.

A run is a folder RUN (made before submitting; the shards' and the merge's logs and
results go there) with run.json, what the merge needs to know. The array job runs one
task per shard (SLURM_ARRAY_TASK_ID 1..N); the merge job depends on the whole array with
afterany, so that it runs after every task ended, failed or was stopped, and names the
shards that did not finish. Only the Slurm commands (sbatch, scontrol, squeue, scancel)
are used, so that any Slurm with them on PATH works; no accounting (sacct) is needed.

Errors before submission are raised as SlurmError with a message for the user; nothing
is written before every check passed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Slurm's end states of a job (squeue --help, "JOB STATE CODES") that mean the task was
# stopped from outside, not that its own command ended: its results are incomplete.
STOPPED_STATES = ("TIMEOUT", "CANCELLED", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
                  "BOOT_FAIL", "DEADLINE")


class SlurmError(Exception):
    """A check or a Slurm command failed; the message says which and why."""


def slurm_cmd(args, what):
    """Runs a Slurm client command; its stderr becomes the message when it fails."""
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise SlurmError(f"{args[0]} is not on PATH ({what})")
    except subprocess.TimeoutExpired:
        raise SlurmError(f"{args[0]} did not answer in 120 s ({what}): is slurmctld up?")
    if p.returncode != 0:
        msg = (p.stderr or p.stdout).strip().replace("\n", "; ")
        raise SlurmError(f"{what}: {msg or f'{args[0]} exited {p.returncode}'}")
    return p.stdout


def check_client(partition):
    """sbatch on PATH, the controller answering, and the partition (when given) known."""
    missing = [c for c in ("sbatch", "scontrol", "squeue") if not shutil.which(c)]
    if missing:
        raise SlurmError(f"--slurm: {', '.join(missing)} not on PATH: install Slurm's "
                         "client (Debian: slurm-client) or run without --slurm")
    names = slurm_cmd(["sinfo", "-h", "-o", "%R"] if shutil.which("sinfo") else
                      ["scontrol", "-o", "show", "partition"], "listing the partitions")
    parts = sorted(set(re.findall(r"PartitionName=(\S+)", names) or names.split()))
    if partition and partition not in parts:
        raise SlurmError(f"--partition {partition}: no such partition on this cluster "
                         f"(it has: {', '.join(parts) or 'none'})")


def new_run_dir(parent, kind):
    """parent/slurm/KIND-YYYYmmdd-HHMMSS[-n]: a fresh folder for one submission."""
    base = os.path.join(parent, "slurm", time.strftime(f"{kind}-%Y%m%d-%H%M%S"))
    run, n = base, 1
    while True:
        try:
            os.makedirs(run)
            return run
        except FileExistsError:
            n += 1
            run = f"{base}-{n}"


def write_json(path, doc):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def sbatch(options, script, args):
    """Submits script with args; returns the job id (sbatch --parsable: "id[;cluster]")."""
    out = slurm_cmd(["sbatch", "--parsable"] + options + [script] + args,
                    f"sbatch {os.path.basename(script)}")
    jid = out.strip().split(";")[0]
    if not jid.isdigit():
        raise SlurmError(f"sbatch {os.path.basename(script)}: unexpected answer '{out.strip()}'")
    return jid


def submit(run, kind, tasks, common, array_args, merge_args, time_limit=None):
    """The array (tasks tasks of sim/slurm/KIND_shard.sbatch) and its merge job
    (KIND_merge.sbatch, afterany). common: sbatch options of both (the partition).
    Returns (array id, merge id). When the merge cannot be submitted the array is
    cancelled, so that no result without a merge is left running."""
    opts = common + [f"--array=1-{tasks}", f"--output={run}/shard-%a.out"]
    if time_limit:
        opts.append(f"--time={time_limit}")
    array = sbatch(opts, os.path.join(HERE, f"{kind}_shard.sbatch"), array_args)
    try:
        merge = sbatch(common + [f"--dependency=afterany:{array}", "--kill-on-invalid-dep=yes",
                                 f"--output={run}/merge.out"],
                       os.path.join(HERE, f"{kind}_merge.sbatch"), merge_args)
    except SlurmError:
        subprocess.run(["scancel", array], capture_output=True)
        raise
    return array, merge


def task_states(array):
    """{task id: Slurm state} of the array's tasks that scontrol still knows (finished
    jobs are kept MinJobAge seconds, 300 by default); {} when it knows none."""
    p = subprocess.run(["scontrol", "-o", "show", "job", array], capture_output=True,
                       text=True)
    states = {}
    for line in p.stdout.splitlines():
        m = re.search(r"\bArrayTaskId=(\d+)\b.*?\bJobState=(\S+)", line)
        if m:
            states[int(m.group(1))] = m.group(2)
    return states


def queued(jobs):
    """The ids among jobs that squeue still lists (pending, running or ending)."""
    p = subprocess.run(["squeue", "-h", "-o", "%F %T", "-j", ",".join(jobs)],
                       capture_output=True, text=True)
    if p.returncode != 0:   # an id that already left the queue: ask one by one
        return [j for j in jobs if subprocess.run(
            ["squeue", "-h", "-j", j], capture_output=True, text=True).stdout.strip()]
    return sorted({ln.split()[0] for ln in p.stdout.splitlines() if ln.strip()})


def wait(jobs, poll=2.0):
    """Until none of jobs is queued; a line on stderr whenever what is queued changes."""
    last = None
    while True:
        left = queued(jobs)
        if not left:
            return
        if left != last:
            print(f"slurm: waiting for job(s) {', '.join(left)}", file=sys.stderr, flush=True)
            last = left
        time.sleep(poll)


def wait_for_result(run, array, merge, prog):
    """--wait: until the merge ended; prints RUN/summary.txt and returns RUN/status (the
    run's exit status), 1 when the merge left none, 130 on Ctrl-C (the jobs go on)."""
    try:
        wait([array, merge])
    except KeyboardInterrupt:
        print(f"\n{prog}: stopped waiting; the jobs go on (scancel {array} {merge} stops "
              "them)", file=sys.stderr)
        return 130
    try:
        with open(os.path.join(run, "summary.txt"), encoding="utf-8") as f:
            print(f.read(), end="")
        with open(os.path.join(run, "status"), encoding="utf-8") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        print(f"{prog}: the merge job {merge} ended without a result: see {run}/merge.out",
              file=sys.stderr)
        return 1


def record_result(run, text, status):
    """The merge's end: its summary printed (the merge job's log) and kept as
    RUN/summary.txt, its exit status in RUN/status, both for --wait."""
    print(text, end="")
    with open(os.path.join(run, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(run, "status"), "w", encoding="utf-8") as f:
        f.write(f"{status}\n")
    return status
