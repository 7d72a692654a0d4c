#!/usr/bin/env bash
# The 3-digit octal census on one machine with many cores: one `sgscope census` process per
# shard, run by GNU parallel (or `xargs -P` where it is missing), then one merge.
#
#   deploy/gnu-parallel.sh                 # N = nproc shards, outputs in the current folder
#   SHARDS=16 DIGITS=2 deploy/gnu-parallel.sh
#   SGSCOPE=target/release/sgscope OUT=runs/census deploy/gnu-parallel.sh
#
# Rerunning resumes: each shard file is a journal of finished codes (atomic, checksummed), so
# a shard killed or stopped part way goes on from its last finished code, and a finished one
# returns at once. The merge refuses a census with a code missing or present twice.
#
# Environment (all optional):
#   SGSCOPE      the sgscope binary            (default: sgscope on PATH)
#   SHARDS       N, the number of shards       (default: nproc)
#   JOBS         shards run at once            (default: SHARDS)
#   DIGITS       code digits of the census     (default: 3)
#   OUT          folder of shards/ and outputs (default: .)
#   RUNNER       parallel or xargs             (default: parallel when installed)
#   EXTRA_ARGS   more census options, e.g. "--max 131072 --sparse-max 4194304"
#                (give the same ones on every rerun: a shard of another configuration is
#                refused)
set -euo pipefail

SGSCOPE=${SGSCOPE:-sgscope}
SHARDS=${SHARDS:-$(nproc)}
JOBS=${JOBS:-$SHARDS}
DIGITS=${DIGITS:-3}
OUT=${OUT:-.}
EXTRA_ARGS=${EXTRA_ARGS:-}

# RUNNER=xargs uses `xargs -P` (findutils, on every Linux) instead; so does a machine without
# GNU parallel, with a note. Same shards and files, only without the `shard K` output tags.
RUNNER=${RUNNER:-parallel}
if [ "$RUNNER" = parallel ] && ! command -v parallel >/dev/null 2>&1; then
    echo "note: GNU parallel is not installed (apt-get install parallel); running the shards with xargs -P $JOBS" >&2
    RUNNER=xargs
fi
if ! command -v "$SGSCOPE" >/dev/null 2>&1; then
    echo "error: no sgscope binary at '$SGSCOPE': set SGSCOPE=path/to/sgscope" >&2
    exit 1
fi

mkdir -p "$OUT/shards"
# One thread per shard: the census runs games in parallel itself, and N processes of N
# threads each would only fight over the cores.
# shellcheck disable=SC2086 # EXTRA_ARGS is a list of options, split on purpose
if [ "$RUNNER" = parallel ]; then
    parallel --jobs "$JOBS" --halt now,fail=1 --line-buffer --tagstring 'shard {}' \
        "$SGSCOPE" --threads 1 census octal --digits "$DIGITS" $EXTRA_ARGS \
        --shard "{}/$SHARDS" --shard-file "$OUT/shards/octal-$DIGITS-{}-of-$SHARDS.jsonl" \
        ::: $(seq 1 "$SHARDS")
else
    # xargs exits non-zero when a shard failed, and `set -e` then stops before the merge.
    seq 1 "$SHARDS" | xargs -P "$JOBS" -I{} \
        "$SGSCOPE" --threads 1 census octal --digits "$DIGITS" $EXTRA_ARGS \
        --shard "{}/$SHARDS" --shard-file "$OUT/shards/octal-$DIGITS-{}-of-$SHARDS.jsonl"
fi

"$SGSCOPE" census merge "$OUT"/shards/octal-"$DIGITS"-*-of-"$SHARDS".jsonl \
    --format csv -o "$OUT/census.csv" --report "$OUT/census.md"
echo "census: $OUT/census.csv, report: $OUT/census.md"
