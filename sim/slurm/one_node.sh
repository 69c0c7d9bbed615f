#!/usr/bin/env bash
# one_node.sh start DIR | stop DIR - a one-node Slurm cluster on this machine, for the
# test of sim/regress --slurm (and to try it by hand): munged, slurmctld and slurmd
# (Debian 12: slurm-wlm, munge), run as root, with every file in DIR.
#
# Nothing system-wide is used or changed: the munge key, socket, pid, log and seed files,
# slurm.conf, the controller's state and slurmd's spool are all in DIR; the daemons
# listen on 127.0.0.1 only, on two free ports; the node is this host (its short name),
# with 2 CPUs, in the partition "debug". Then:
#
#   export SLURM_CONF=DIR/slurm.conf      (what `start` prints last)
#
# start: exit 0 when the node is idle; 1 with the reason and the daemons' logs when they
# did not start (what it started is stopped again). stop: stops the daemons whose pid
# files are in DIR, and waits until they are gone (exit 1 if one stays).
set -u
usage() { sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# = 2 ] && { [ "$1" = start ] || [ "$1" = stop ]; } || { usage >&2; exit 2; }
dir=$2
[ -d "$dir" ] || { echo "one_node.sh: $dir is not a folder" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
conf=$dir/slurm.conf

# A daemon is gone when its pid is free or a zombie (a container's pid 1 may not reap).
running() { case $(ps -o stat= -p "$1" 2>/dev/null) in ""|Z*) return 1;; esac; }

stop() {
    local f pid pids="" ok=0
    # The pids first: each daemon removes its pid file on the way out. Only a process of
    # the file's name: a stale file's pid may belong to another process by now.
    for f in slurmd slurmctld munge/munged; do
        pid=$(cat "$dir/$f.pid" 2>/dev/null) && [ -n "$pid" ] && running "$pid" \
            && [ "$(ps -o comm= -p "$pid")" = "${f#munge/}" ] && pids="$pids $pid"
    done
    for pid in $pids; do kill "$pid" 2>/dev/null; done
    for pid in $pids; do
        for _ in $(seq 100); do running "$pid" || break; sleep 0.1; done
        running "$pid" && { echo "one_node.sh: pid $pid still runs 10 s after SIGTERM" >&2; ok=1; }
    done
    return $ok
}

if [ "$1" = stop ]; then stop; exit; fi

for t in munged slurmctld slurmd; do
    command -v $t >/dev/null || { echo "one_node.sh: $t is not installed (Debian: slurm-wlm, munge)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "one_node.sh: slurmd runs jobs as their user: it needs root"; exit 1; }

failed() {
    echo "one_node.sh: $*"
    local log
    for log in "$dir/munge/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log"; do
        [ -s "$log" ] && { echo "--- $log"; tail -5 "$log"; }
    done
    stop
    exit 1
}

# munged checks that its socket's folders can be searched by all (clients, sbatch run by
# any user, reach the socket) and that the key's folder is writable by its owner only.
chmod 755 "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 755 "$dir/munge"
head -c 1024 /dev/urandom > "$dir/munge/munge.key" && chmod 600 "$dir/munge/munge.key"
sock=$dir/munge/munge.socket
munged --socket="$sock" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    || failed "munged did not start"

read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])') || failed "no free ports"
host=$(hostname -s)
cat > "$conf" <<EOF
# A one-node cluster for sim/regress --slurm's test (sim/slurm/one_node.sh).
ClusterName=tcsim
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups (containers often have none writable): processes tracked by parentage.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
# A task past its time limit: SIGTERM, then SIGKILL 2 s later (default 30 s).
KillWait=2
OverTimeLimit=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$conf" || failed "slurmctld did not start"
slurmd -f "$conf" || failed "slurmd did not start"
export SLURM_CONF=$conf
for _ in $(seq 60); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && { echo "export SLURM_CONF=$conf"; exit 0; }
    sleep 0.5
done
failed "the node is not idle after 30 s (sinfo: $(sinfo -h -o '%T %E' 2>&1))"
