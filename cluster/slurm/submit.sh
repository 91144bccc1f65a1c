#!/usr/bin/env bash
# Runs kamisado's long computations as Slurm job arrays: one array task per shard (or
# unit), each writing its own part file, then one merge job that runs only after every
# task succeeded (--dependency=afterok).
#
#   cluster/slurm/submit.sh survey RUN SHARDS SURVEY-ARGS...
#       `kamisado kamon survey SURVEY-ARGS --shard i/SHARDS` per task, then
#       `kamon survey merge` into RUN/result.json
#   cluster/slurm/submit.sh book RUN SHARDS BOOK-ARGS...
#       `kamisado book BOOK-ARGS --shard i/SHARDS` per task, then `book merge` into
#       RUN/result.kdb
#   cluster/slurm/submit.sh whole-match RUN [UNITS-ARGS...] [-- SOLVE-ARGS...]
#       `kamisado whole-match units UNITS-ARGS` lists the units (RUN/units.txt), one
#       `whole-match solve --position UNIT SOLVE-ARGS` per task into its own proof file,
#       then `whole-match merge` into RUN/result.kmp. With KAMISADO_FROM=FILE each unit
#       starts from the proofs of an earlier merged file.
#   cluster/slurm/submit.sh speculate RUN SHARDS --position P [SOLVE-ARGS...]
#       `kamisado whole-match solve --position P --speculate --share i/SHARDS` per task
#       (the same speculative search in each, then share i of the final rounds its proof
#       rests on verified) into its own proof file, then `whole-match merge` into
#       RUN/result.kmp; `whole-match solve --position P --speculate --db RUN/result.kmp`
#       then proves the value, or verifies what the shares' wrong guesses left (for many
#       of those, another run with KAMISADO_FROM=RUN/result.kmp)
#   cluster/slurm/submit.sh kamon-units RUN SPLIT-ARGS... [-- SOLVE-ARGS...]
#       `kamisado kamon units SPLIT-ARGS` lists the units of a Kamon split (RUN/units.txt),
#       one `kamon units solve SPLIT-ARGS SOLVE-ARGS --index i` per task into its own
#       results file (a task whose unit the finished parts make unnecessary searches
#       nothing), then `kamon units merge` into RUN/result.json
#   cluster/slurm/submit.sh kamon-certify RUN RESULTS... [-- PROVE-ARGS...]
#       `kamisado kamon units proof RESULTS...` lists the units a proof of the split's
#       root rests on (RUN/units.txt), one `kamon prove` of each per task into its own
#       certificate, then `kamon pack --root` of them into RUN/result.kwalk, one
#       certificate of the root's value, checked by `kamisado certificate check`
#       (PROVE-ARGS without --threads and --hash-mb, which come from the allocation; the
#       merge's walk may remember KAMISADO_MAX_POSITIONS positions, default 300 million)
#   cluster/slurm/submit.sh resume RUN
#       resubmits the tasks that did not finish (failed, killed, timed out), alone by
#       their index, and a new merge job after them; finished parts are kept as they are
#   cluster/slurm/submit.sh status RUN
#       which tasks finished, the run's jobs still queued, and whether the merge ran
#   cluster/slurm/submit.sh wait RUN
#       waits until none of the run's jobs is queued; exit 0 if the merge finished
#
# RUN is a directory made for the run: RUN/parts (one part per task), RUN/logs (one
# log per task and per merge: task-JOB_INDEX.out, merge-JOB.out), RUN/done (a mark per
# finished task), RUN/jobs (the job ids submitted), RUN/run.env (what resume needs).
# Threads and memory come from the #SBATCH lines of each task script (measured per-unit
# costs, see the README's "Running on a cluster"); the task gives kamisado --threads
# from the CPUs Slurm allotted and --hash-mb from the memory, so SURVEY-ARGS and
# BOOK-ARGS should not hold them. Extra sbatch options (a partition, an account, other
# resources) go in SBATCH_EXTRA, e.g. SBATCH_EXTRA="--partition=long --mem=8G".
# The kamisado binary is $KAMISADO, else `kamisado` on PATH, else target/release/kamisado.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)

die() {
    echo "submit.sh: $*" >&2
    exit 2
}

kamisado_binary() {
    local bin=${KAMISADO:-}
    if [ -z "$bin" ]; then
        bin=$(command -v kamisado || true)
    fi
    if [ -z "$bin" ] && [ -x "$HERE/../../target/release/kamisado" ]; then
        bin=$HERE/../../target/release/kamisado
    fi
    [ -n "$bin" ] && [ -x "$bin" ] || die "no kamisado binary: set KAMISADO=/path/to/kamisado (cargo build --release)"
    (cd "$(dirname "$bin")" && echo "$(pwd)/$(basename "$bin")")
}

# new_run RUN COMPUTATION SHARDS ARGS...: makes the run directory and its run.env.
new_run() {
    local run=$1 computation=$2 shards=$3
    shift 3
    [ ! -e "$run/run.env" ] || die "$run is the directory of an earlier run: resume it, or give a new directory"
    mkdir -p "$run/parts" "$run/logs" "$run/done"
    {
        echo "COMPUTATION=$computation"
        echo "SHARDS=$shards"
        printf 'KAMISADO=%q\n' "$(kamisado_binary)"
        printf 'KAMISADO_FROM=%q\n' "${KAMISADO_FROM:-}"
        printf 'ARGS=('
        # (printf of no arguments would still print '' once: an empty argument)
        [ $# -eq 0 ] || printf '%q ' "$@"
        echo ')'
    } >"$run/run.env"
}

# submit_jobs RUN INDICES: the array job of those task indices and the merge after it.
submit_jobs() {
    local run=$1 indices=$2 array merge
    # shellcheck disable=SC1091
    . "$run/run.env"
    # shellcheck disable=SC2086
    array=$(sbatch --parsable --array="$indices" --job-name="$COMPUTATION" \
        --output="$run/logs/task-%A_%a.out" --export=ALL,KAMISADO_RUN="$run",KAMISADO_CLUSTER="$HERE" \
        ${SBATCH_EXTRA:-} "$HERE/$COMPUTATION-task.sbatch")
    # shellcheck disable=SC2086
    merge=$(sbatch --parsable --dependency=afterok:"$array" --job-name="$COMPUTATION-merge" \
        --output="$run/logs/merge-%j.out" --export=ALL,KAMISADO_RUN="$run",KAMISADO_CLUSTER="$HERE" \
        ${SBATCH_EXTRA:-} "$HERE/$COMPUTATION-merge.sbatch")
    echo "array $array $indices" >>"$run/jobs"
    echo "merge $merge" >>"$run/jobs"
    echo "submitted: array job $array (tasks $indices), merge job $merge after it; logs in $run/logs"
}

# The indices of the tasks without a finished mark.
unfinished() {
    local run=$1 i list=()
    # shellcheck disable=SC1091
    . "$run/run.env"
    for i in $(seq 1 "$SHARDS"); do
        [ -e "$run/done/$i" ] || list+=("$i")
    done
    (
        IFS=,
        echo "${list[*]}"
    )
}

# The run's jobs still in the queue that may yet run, by job id (an array by its array
# job id): a merge whose dependency failed stays pending as DependencyNeverSatisfied
# where the cluster does not cancel it (no DependencyParameters=kill_invalid_depend), and
# is left out. All of squeue is read and filtered: asked for ids it has forgotten,
# squeue fails.
queued() {
    local run=$1
    [ -s "$run/jobs" ] || return 0
    squeue -h -o '%F %r' 2>/dev/null | awk '$2 != "DependencyNeverSatisfied" {print $1}' |
        sort -u | grep -Fx -f <(awk '{print $2}' "$run/jobs") || true
}

# Cancels the run's merge jobs that can never run (their array had a failed task).
cancel_stuck_merges() {
    local run=$1 id
    for id in $(squeue -h -o '%F %r' 2>/dev/null | awk '$2 == "DependencyNeverSatisfied" {print $1}' |
        grep -Fx -f <(awk '$1 == "merge" {print $2}' "$run/jobs") || true); do
        scancel "$id"
        echo "cancelled merge job $id (a task it waited for had failed)"
    done
}

# split_at_dashes ARGS...: BEFORE=(the arguments before the first lone --), AFTER=(those
# after it; none without one).
split_at_dashes() {
    BEFORE=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        BEFORE+=("$1")
        shift
    done
    [ $# -eq 0 ] || shift
    AFTER=("$@")
}

# The absolute path of a run directory: made for a new run, else it must exist.
absolute() { mkdir -p "$1" && (cd "$1" && pwd); }
existing() {
    [ -e "$1/run.env" ] || die "$1: not a run directory (no run.env)"
    (cd "$1" && pwd)
}

command=${1:-}
case "$command" in
survey | book | speculate)
    [ $# -ge 3 ] || die "usage: $0 $command RUN SHARDS ARGS..."
    run=$(absolute "$2")
    shards=$3
    [[ $shards =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive whole number, not \`$shards\`"
    shift 3
    new_run "$run" "$command" "$shards" "$@"
    submit_jobs "$run" "1-$shards"
    ;;
whole-match)
    [ $# -ge 2 ] || die "usage: $0 whole-match RUN [UNITS-ARGS...] [-- SOLVE-ARGS...]"
    run=$(absolute "$2")
    shift 2
    split_at_dashes "$@"
    units_args=("${BEFORE[@]}")
    set -- "${AFTER[@]}"
    bin=$(kamisado_binary)
    mkdir -p "$run"
    [ ! -e "$run/run.env" ] || die "$run is the directory of an earlier run: resume it, or give a new directory"
    "$bin" whole-match units "${units_args[@]}" >"$run/units.txt"
    shards=$(wc -l <"$run/units.txt")
    [ "$shards" -gt 0 ] || die "whole-match units ${units_args[*]}: no units"
    new_run "$run" whole-match "$shards" "$@"
    submit_jobs "$run" "1-$shards"
    ;;
kamon-units)
    [ $# -ge 2 ] || die "usage: $0 kamon-units RUN SPLIT-ARGS... [-- SOLVE-ARGS...]"
    run=$(absolute "$2")
    shift 2
    split_at_dashes "$@"
    split_args=("${BEFORE[@]}")
    set -- "${AFTER[@]}"
    bin=$(kamisado_binary)
    [ ! -e "$run/run.env" ] || die "$run is the directory of an earlier run: resume it, or give a new directory"
    "$bin" kamon units "${split_args[@]}" >"$run/units.txt"
    shards=$(wc -l <"$run/units.txt")
    [ "$shards" -gt 0 ] || die "kamon units ${split_args[*]}: no units"
    new_run "$run" kamon-units "$shards" "$@"
    {
        printf 'SPLIT_ARGS=('
        printf '%q ' "${split_args[@]}"
        echo ')'
    } >>"$run/run.env"
    submit_jobs "$run" "1-$shards"
    ;;
kamon-certify)
    [ $# -ge 3 ] || die "usage: $0 kamon-certify RUN RESULTS... [-- PROVE-ARGS...]"
    run=$(absolute "$2")
    shift 2
    split_at_dashes "$@"
    results=()
    for file in "${BEFORE[@]}"; do
        [ -f "$file" ] || die "$file: no such results file"
        results+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")")
    done
    set -- "${AFTER[@]}"
    [ ${#results[@]} -gt 0 ] || die "usage: $0 kamon-certify RUN RESULTS... [-- PROVE-ARGS...]: no results file"
    max_positions=${KAMISADO_MAX_POSITIONS:-300000000}
    [[ $max_positions =~ ^[1-9][0-9]*$ ]] || die "KAMISADO_MAX_POSITIONS must be a positive whole number, not \`$max_positions\`"
    bin=$(kamisado_binary)
    [ ! -e "$run/run.env" ] || die "$run is the directory of an earlier run: resume it, or give a new directory"
    "$bin" kamon units proof "${results[@]}" >"$run/units.txt" || die "kamon units proof: the results prove no value to certify"
    shards=$(wc -l <"$run/units.txt")
    [ "$shards" -gt 0 ] || die "kamon units proof: the rules decide the root; no unit to prove"
    # The root's placements (`start` for the empty board), from the root's position text.
    root=$("$bin" kamon units proof "${results[@]}" --json | sed -n 's/^  "root": "\(.*\)",$/\1/p')
    [ -n "$root" ] || die "kamon units proof --json: no root"
    if [[ $root == *" "* ]]; then root=${root#* }; else root=start; fi
    new_run "$run" kamon-certify "$shards" "$@"
    printf 'ROOT=%q\nMAX_POSITIONS=%q\n' "$root" "$max_positions" >>"$run/run.env"
    submit_jobs "$run" "1-$shards"
    ;;
resume)
    [ $# -eq 2 ] || die "usage: $0 resume RUN"
    run=$(existing "$2")
    [ -z "$(queued "$run")" ] || die "$run: jobs of this run are still queued ($(queued "$run" | paste -sd' ' -)); wait, or scancel them first"
    cancel_stuck_merges "$run"
    rm -f "$run/merged"
    todo=$(unfinished "$run")
    if [ -z "$todo" ]; then
        # Every part is there: only the merge is left to do.
        # shellcheck disable=SC1091
        . "$run/run.env"
        # shellcheck disable=SC2086
        merge=$(sbatch --parsable --job-name="$COMPUTATION-merge" \
            --output="$run/logs/merge-%j.out" --export=ALL,KAMISADO_RUN="$run",KAMISADO_CLUSTER="$HERE" \
            ${SBATCH_EXTRA:-} "$HERE/$COMPUTATION-merge.sbatch")
        echo "merge $merge" >>"$run/jobs"
        echo "submitted: merge job $merge (every task had finished)"
    else
        submit_jobs "$run" "$todo"
    fi
    ;;
status)
    [ $# -eq 2 ] || die "usage: $0 status RUN"
    run=$(existing "$2")
    # shellcheck disable=SC1091
    . "$run/run.env"
    todo=$(unfinished "$run")
    echo "$COMPUTATION: $((SHARDS - $(ls "$run/done" | wc -l))) of $SHARDS tasks unfinished${todo:+ ($todo)}"
    echo "queued: $(queued "$run" | paste -sd' ' -)"
    if [ -e "$run/merged" ]; then echo "merged: $(cat "$run/merged")"; else echo "merged: not yet"; fi
    ;;
wait)
    [ $# -eq 2 ] || die "usage: $0 wait RUN"
    run=$(existing "$2")
    while [ -n "$(queued "$run")" ]; do sleep 1; done
    if [ -e "$run/merged" ]; then
        echo "merged: $(cat "$run/merged")"
    else
        echo "not merged: tasks unfinished: $(unfinished "$run"); see $run/logs, then: $0 resume $run" >&2
        exit 1
    fi
    ;;
*)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
