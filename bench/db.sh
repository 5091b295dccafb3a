#!/bin/sh
# The db export's read speed: generates a big ascend_pytorch_profiler.db
# with sdperf-gen (--export db, default 4000 steps: about 9.9 million
# kernels, 1.7 GB), then times, each run twice with the second (warm page
# cache) reported:
#   sqlite3    the same join in SQLite's own shell (count + sum): the
#              floor, what SQLite alone takes to step the rows;
#   db_bench   db_open + db_read_kernels: every kernel into sdperf's
#              kernel table (wall and CPU seconds, kernels/s, peak RSS);
#   sdperf     the whole `sdperf report --format json -j 1`: read,
#              stages, steps, Overlap Analysis, verdicts (CPU seconds and
#              peak RSS by /usr/bin/time).
# On a shared machine wall time measures the others too: CPU figures are
# printed beside it.
# The file is deleted afterwards.
#
#   bench/db.sh [BUILD_DIR]        (default: build)
#   env: BENCH_DIR (default /tmp), DB_STEPS (default 4000)
set -eu

BUILD=${1:-build}
GEN=$BUILD/tools/gen/sdperf-gen
BENCH=$BUILD/bench/db_bench
SDPERF=$BUILD/src/sdperf
STEPS=${DB_STEPS:-4000}
PARENT=${BENCH_DIR:-/tmp}

for b in "$GEN" "$BENCH" "$SDPERF"; do
	[ -x "$b" ] || { echo "db.sh: $b missing: build first" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "db.sh: needs the sqlite3 shell" >&2; exit 2; }

# about 175 bytes of db per kernel, 2477 kernels per step
need_kb=$((STEPS * 2477 * 175 / 1024 * 11 / 10))
avail_kb=$(df -Pk "$PARENT" | awk 'NR == 2 { print $4 }')
if [ "$avail_kb" -lt "$need_kb" ]; then
	echo "db.sh: $PARENT has $avail_kb KiB free, needs $need_kb" >&2
	exit 2
fi

DIR=$(mktemp -d "$PARENT/sdperf-db-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM

g0=$(date +%s.%N)
"$GEN" -o "$DIR/gen" --export db --no-truth --steps "$STEPS" 2>"$DIR/gen.log"
g1=$(date +%s.%N)
FILE=$(ls "$DIR"/gen/*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler.db)
SIZE=$(stat -c %s "$FILE")

# seconds of the second of two runs of "$@" (stdout kept in $DIR/out)
time2() {
	"$@" >"$DIR/out"
	t0=$(date +%s.%N)
	"$@" >"$DIR/out"
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

SQL_S=$(time2 sqlite3 "file:$FILE?mode=ro&immutable=1" \
	"SELECT count(*), sum(t.endNs - t.startNs) FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId")
time2 "$BENCH" "$FILE" >/dev/null
DB_OUT=$(cat "$DIR/out")
field() { echo "$DB_OUT" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
KERNELS=$(field kernels)
"$SDPERF" report "$DIR/gen" -o "$DIR/report" -f json -q -j 1
/usr/bin/time -f "%e %M %U %S" -o "$DIR/time" \
	"$SDPERF" report "$DIR/gen" -o "$DIR/report" -f json -q -j 1
REP_S=$(cut -d' ' -f1 "$DIR/time")
REP_KB=$(cut -d' ' -f2 "$DIR/time")
REP_CPU=$(awk '{ print $3 + $4 }' "$DIR/time")

echo "db: $SIZE bytes, $KERNELS kernels ($STEPS steps), generated in" \
	"$(echo "$g0 $g1" | awk '{ printf "%.1f", $2 - $1 }') s"
printf '%-34s %9s %12s %12s %10s\n' what seconds kernels/s cpu_kern/s maxrss_MB
printf '%-34s %9s %12.0f %12s %10s\n' "sqlite3 shell: the join, count+sum" \
	"$SQL_S" "$(echo "$KERNELS $SQL_S" | awk '{ print $1 / $2 }')" - -
printf '%-34s %9s %12s %12s %10.1f\n' "db_bench: db_read_kernels" \
	"$(field seconds)" "$(field kernels/s)" "$(field cpu_kernels/s)" \
	"$(echo "$(field maxrss_kb)" | awk '{ print $1 / 1024 }')"
printf '%-34s %9s %12.0f %12.0f %10.1f\n' "sdperf report -f json -j 1" \
	"$REP_S" "$(echo "$KERNELS $REP_S" | awk '{ print $1 / $2 }')" \
	"$(echo "$KERNELS $REP_CPU" | awk '{ print $1 / $2 }')" \
	"$(echo "$REP_KB" | awk '{ print $1 / 1024 }')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "db_bench: $DB_OUT"
