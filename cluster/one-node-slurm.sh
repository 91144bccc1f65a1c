#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for CI and for trying the job scripts in
# cluster/slurm/ before taking them to a real cluster: Debian's packages, no systemd (the
# daemons are started directly), every configuration file, key, state and log under
# $KAMISADO_SLURM_DIR (default /tmp/kamisado-slurm).
#
#   cluster/one-node-slurm.sh up       install the packages if missing, start munged,
#                                      slurmctld and slurmd, wait until the node is idle
#   cluster/one-node-slurm.sh status   say whether the cluster answers (exit 1 if not)
#   cluster/one-node-slurm.sh down     cancel every job, stop the three daemons by pid,
#                                      remove the directory (KEEP_DIR=1 keeps it)
#
# Clients find the cluster with `source $KAMISADO_SLURM_DIR/env.sh` (it sets SLURM_CONF).
# Ports: SLURMCTLD_PORT (6817) and SLURMD_PORT (6818).
#
# Why each setting: there are no cgroups in a container, so processes are tracked by
# parent pid (proctrack/linuxproc), with no task plugin and no accounting gatherer. Slurm
# 22.05 leaves a job whose dependency can never be met pending forever unless
# DependencyParameters=kill_invalid_depend, which cancels it; `sbatch --wait` still exits
# 0 for such a job, so the final state of every job is written by jobcomp/filetxt to
# $KAMISADO_SLURM_DIR/log/jobcomp.txt for scripts to read. MinJobAge=5 lets `--wait`
# return within seconds of the end. munged wants its socket directory at mode 0755 and
# its key in a private directory.
set -euo pipefail

BASE=${KAMISADO_SLURM_DIR:-/tmp/kamisado-slurm}
NODE=$(hostname -s)
CONF=$BASE/etc/slurm.conf
SOCKET=$BASE/munge/munge.socket.2
export SLURM_CONF=$CONF

log() { echo "[one-node-slurm $(date -u +%T)] $*"; }

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
        command -v sbatch >/dev/null && command -v munged >/dev/null; then
        return
    fi
    log "installing slurmctld slurmd slurm-client munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # Without systemd the packages' scripts start no service (their invoke-rc.d notes are
    # harmless).
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND four times a second.
wait_for() {
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq $((seconds * 4))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.25
    done
    log "timed out waiting for $what"
    return 1
}

node_idle() { [ "$(sinfo -h -n "$NODE" -o %t 2>/dev/null)" = idle ]; }

up() {
    install_packages
    # Pid files whose daemons are gone are left by a session that ended without `down`
    # (CI once failed on them): only a live daemon means a cluster runs.
    if runs "$BASE/run/slurmctld.pid" slurmctld || runs "$BASE/run/slurmd.pid" slurmd ||
        runs "$BASE/munge/munged.pid" munged; then
        log "a cluster already runs from $BASE; run '$0 down' first"
        exit 1
    fi
    if [ -e "$BASE/run/slurmctld.pid" ] || [ -e "$BASE/munge/munged.pid" ]; then
        log "removing $BASE: its pid files name no running daemon (a cluster that was not shut down)"
    fi
    rm -rf "$BASE"
    mkdir -p "$BASE"/{etc,key,munge,state/ctld,state/d,log,run}
    chmod 700 "$BASE/key"
    chmod 755 "$BASE/munge"

    mungekey --create --keyfile="$BASE/key/munge.key" --force
    munged --key-file="$BASE/key/munge.key" --socket="$SOCKET" \
        --pid-file="$BASE/munge/munged.pid" --log-file="$BASE/log/munged.log" \
        --seed-file="$BASE/munge/munged.seed"
    wait_for 15 munged bash -c "munge -n -S '$SOCKET' | unmunge -S '$SOCKET'"

    cat >"$CONF" <<CONF
ClusterName=kamisado
SlurmctldHost=$NODE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$BASE/state/ctld
SlurmdSpoolDir=$BASE/state/d
SlurmctldPidFile=$BASE/run/slurmctld.pid
SlurmdPidFile=$BASE/run/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$BASE/log/jobcomp.txt
MinJobAge=5
DependencyParameters=kill_invalid_depend
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
NodeName=$NODE CPUs=$(nproc) RealMemory=$(free -m | awk '/^Mem:/{print $2}') State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    echo "export SLURM_CONF=$CONF" >"$BASE/env.sh"

    slurmctld -f "$CONF"
    slurmd -f "$CONF"
    if ! wait_for 60 "node $NODE to be idle" node_idle; then
        sinfo -N -l || true
        tail -n 30 "$BASE"/log/*.log
        exit 1
    fi
    log "up: $(sinfo -h -o '%P %a %D %t %N'); clients: source $BASE/env.sh"
}

status() {
    if [ -s "$BASE/run/slurmctld.pid" ] && node_idle_or_busy; then
        log "up: $(sinfo -h -o '%P %a %D %t %N'); clients: source $BASE/env.sh"
    else
        log "no cluster answers from $BASE"
        exit 1
    fi
}

node_idle_or_busy() { sinfo -h -n "$NODE" -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; }

# A process that is gone or a zombie is not alive.
alive() { [ -e /proc/"$1" ] && ! grep -q '^State:.*Z' /proc/"$1"/status 2>/dev/null; }

# runs PIDFILE NAME: the pid file names a live process called NAME.
runs() {
    local pid
    [ -s "$1" ] || return 1
    pid=$(cat "$1")
    [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$2" ] && alive "$pid"
}

# stop PIDFILE NAME: TERM the process the pid file names if it is NAME, KILL after 30 s.
stop() {
    local file=$1 name=$2 pid
    [ -s "$file" ] || return 0
    pid=$(cat "$file")
    if [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$name" ]; then
        kill "$pid"
        for _ in $(seq 120); do
            alive "$pid" || break
            sleep 0.25
        done
        if alive "$pid"; then
            log "$name (pid $pid) ignored TERM; killing it"
            kill -9 "$pid"
        fi
        log "stopped $name (pid $pid)"
    fi
    rm -f "$file"
}

down() {
    if [ -s "$BASE/run/slurmctld.pid" ]; then
        # The cluster is this script's own: every job on it is ours to cancel.
        squeue -h -o %A 2>/dev/null | xargs -r scancel || true
        wait_for 30 "the queue to empty" bash -c '[ -z "$(squeue -h 2>/dev/null)" ]' || true
    fi
    stop "$BASE/run/slurmd.pid" slurmd
    stop "$BASE/run/slurmctld.pid" slurmctld
    stop "$BASE/munge/munged.pid" munged
    [ -n "${KEEP_DIR:-}" ] || rm -rf "$BASE"
}

case "${1:-}" in
up) up ;;
status) status ;;
down) down ;;
*)
    echo "usage: $0 up|status|down" >&2
    exit 2
    ;;
esac
