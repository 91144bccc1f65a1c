# Sourced by the task and merge scripts: the run's settings and the resources Slurm gave.
# shellcheck shell=bash
set -euo pipefail
: "${KAMISADO_RUN:?not set: submit with cluster/slurm/submit.sh}"
RUN=$KAMISADO_RUN
# shellcheck disable=SC1091
. "$RUN/run.env"
# Threads: the CPUs of the allocation; the table: three quarters of its memory (MiB).
THREADS=${SLURM_CPUS_PER_TASK:-1}
HASH_MB=$(((${SLURM_MEM_PER_NODE:-1024} * 3 / 4) > 16 ? (${SLURM_MEM_PER_NODE:-1024} * 3 / 4) : 16))
TASK=${SLURM_ARRAY_TASK_ID:-}

# The task is done: its part is complete (resume skips it, the merge may read it).
finished() { touch "$RUN/done/$TASK"; }

# The merge is done: RUN/merged says what was written.
merged() { echo "$1 $(date -u +%FT%TZ)" >"$RUN/merged"; }

# Every part the tasks promised exists (the merge's dependency says they all succeeded).
all_parts() {
    local i missing=()
    for i in $(seq 1 "$SHARDS"); do
        [ -e "$RUN/done/$i" ] || missing+=("$i")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "merge: tasks ${missing[*]} have not finished; run cluster/slurm/submit.sh resume $RUN" >&2
        exit 2
    fi
}
