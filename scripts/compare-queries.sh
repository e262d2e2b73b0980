#!/usr/bin/env bash
# Compares `journal query` output of two binaries, each on its own copy of a journal:
#   scripts/compare-queries.sh BIN_A DB_A BIN_B DB_B
# Every query × window × format; prints the differing cases and a summary line; exit 1 on any
# difference. Each binary builds (or rebuilds) its own read models on first use.
set -u
a_bin=$1 a_db=$2 b_bin=$3 b_db=$4
queries="otp timeouts funnel challenges errors idv latency"
windows=(
  ""
  "--since 2026-11-29 --until 2026-11-30"
  "--since 2026-11-29T07:30:00.000Z --until 2026-11-29T09:30:00.000Z"
  "--since 2026-11-29T08:00:00.000Z --until 2026-11-29T09:00:00.000Z"
  "--since 2026-11-29T18:00:00.000Z --until 2026-11-29T19:00:00.000Z"
  "--since 2026-11-29T08:10:00.000Z --until 2026-11-29T08:50:00.000Z"
  "--since 2026-11-29T08:17:23.456Z --until 2026-11-29T08:42:00.001Z"
  "--since 2026-11-30T10:17:23.456Z --until 2026-11-30T11:02:00.001Z"
  "--since 2026-11-29T08:20:59.999Z --until 2026-11-29T08:21:00.001Z"
  "--since 2026-11-29T08:30:00.000Z --until 2026-11-29T08:31:00.000Z"
  "--since 2026-11-29T08:30:00.000Z --until 2026-11-29T08:30:00.000Z"
  "--since 2026-11-29T08:22:33.444Z"
  "--until 2026-11-29T08:11:05.432Z"
  "--since 2026-11-28 --until 2026-12-10"
)
same=0 diff=0
for q in $queries; do
  for w in "${windows[@]}"; do
    for f in json text csv; do
      # shellcheck disable=SC2086
      out_a=$("$a_bin" query "$q" $w --format "$f" --db "$a_db" 2>&1)
      # shellcheck disable=SC2086
      out_b=$("$b_bin" query "$q" $w --format "$f" --db "$b_db" 2>&1)
      if [ "$out_a" == "$out_b" ]; then
        same=$((same + 1))
      else
        diff=$((diff + 1))
        echo "DIFFERENT: $q $w --format $f"
      fi
    done
  done
done
echo "$same identical, $diff different"
[ "$diff" -eq 0 ]
