#!/bin/bash
# The whole scale run on a bare many-core machine (../shared/perf/README.md), from the project root, with
# perfkit/ filled by kit.sh and bench/scale/pack.sh:   OUT=<folder> bash bench/scale/run-on-bare.sh
# Unpacks node, PostgreSQL and wrk (perfkit/kit-env.sh) and the builds, starts a PostgreSQL of its own pinned to
# the upper half of the cores (the servers get the lower half, one core each), runs bench.mjs (scale, then this
# build against the build before, in turns), pgbench's floor under the writes, stops PostgreSQL. Writes into $OUT: scale.md, scale.json, run.log,
# postgres.log, servers.log. Stops by itself: the bench gets BUDGET_S seconds (default 420), then SIGTERM.
# Knobs (environment): SCALE_ARGS (extra bench.mjs flags, e.g. "--nodes 1,2 --write-sec 2"), BUDGET_S, DK.
set -u
OUT=${OUT:-/tmp/scale-out}; mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1
T0=$(date +%s)
K=${K:-$PWD/perfkit}; export K
. "$K/kit-env.sh" || { echo "kit-env.sh failed"; exit 1; }
# sys.tar.xz was packed from a mktemp folder (mode 700): its top would keep the user postgres out of its binaries.
chmod 755 "$DK" "$DK/sys"
APP=$DK/app; rm -rf "$APP"; mkdir -p "$APP"
tar -xJf "$K/scale.tar.xz" -C "$APP" 2>/dev/null ||
  python3 -c 'import sys,tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$K/scale.tar.xz" "$APP" || { echo "cannot unpack scale.tar.xz"; exit 1; }
. "$APP/meta.env"

P=$(nproc); H=$((P / 2)); [ "$H" -ge 1 ] || H=1; PGCORES="$((P > 1 ? H : 0))-$((P - 1))"
# taskset, or python3 when the machine lacks util-linux (both keep the pid: the command is exec'ed).
pin() {
  local cores=$1; shift
  if command -v taskset >/dev/null; then taskset -c "$cores" "$@"; return; fi
  python3 -c 'import os,sys
c=set()
for p in sys.argv[1].split(","):
    a,_,b=p.partition("-"); c.update(range(int(a),int(b or a)+1))
os.sched_setaffinity(0,c); os.execvp(sys.argv[2],sys.argv[2:])' "$cores" "$@"
}

PGD=$DK/pg; PORT=${PGPORT:-55433}
[ -n "$(ls "$PGD/data" 2>/dev/null)" ] && su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGD/data -m immediate stop" >/dev/null 2>&1
rm -rf "$PGD"; mkdir -p "$PGD"; chown postgres "$PGD"
su postgres -s /bin/sh -c "$PGBIN/initdb -D $PGD/data -U postgres -A trust -E UTF8 --locale=C.UTF-8" >/dev/null || { echo "initdb failed"; exit 1; }
# max_connections: 8 nodes' pools and change-feed listeners, the before/after pair, the harness.
pin "$PGCORES" su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGD/data -l $PGD/postgres.log -o '-p $PORT -c listen_addresses=127.0.0.1 -c max_connections=500' -w start" ||
  { echo "PostgreSQL did not start"; tail -20 "$PGD/postgres.log"; exit 1; }
echo "setup: $(($(date +%s) - T0)) s; nproc $P, PostgreSQL on cores $PGCORES; $(grep -m1 'model name' /proc/cpuinfo); load $(cut -d' ' -f1-3 /proc/loadavg)"

export BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres TMPDIR=$DK/tmp
rm -rf "$TMPDIR"; mkdir -p "$TMPDIR"
# shellcheck disable=SC2086 # SCALE_ARGS is a list of flags
(cd "$APP" && timeout -k 30 "${BUDGET_S:-420}" node bench.mjs --entry after/dist/main.mjs --before before/dist/main.mjs \
  --out "$OUT" --commit "$SCALE_COMMIT" --before-commit "$SCALE_BEFORE_COMMIT" ${SCALE_ARGS:-})
RC=$?

# The floor under the writes: PostgreSQL alone, one-row INSERT transactions (as `BEGIN; INSERT; COMMIT`), and the
# same with a NOTIFY inside (PostgreSQL serialises the commits of notifying transactions), from 4 and 32 clients
# (4 per node at N = 8), pgbench on PostgreSQL's own cores. Appended to scale.md.
PGB=$DK/sys/usr/lib/postgresql/15/bin/pgbench
floor() {
  printf '%s\n' "$3" >"$DK/floor.sql"
  local tps
  tps=$(pin "$PGCORES" timeout 60 env LD_LIBRARY_PATH="$DK/sys/root/lib" "$PGB" -h 127.0.0.1 -p "$PORT" -U postgres -n \
    -f "$DK/floor.sql" -c "$2" -j "$(($2 < 4 ? $2 : 4))" -T "${FLOOR_S:-5}" postgres 2>&1 | sed -n 's/^tps = \([0-9]*\).*/\1/p')
  echo "| $1 | $2 | ${tps:-failed} |"
}
if [ -x "$PGB" ]; then
  psql -q -h 127.0.0.1 -p "$PORT" -U postgres -c 'create table if not exists floor_t (id bigserial primary key, v text not null)' postgres
  {
    echo; echo "## PostgreSQL alone: the floor under the writes (pgbench, ${FLOOR_S:-5} s each, cores $PGCORES)"; echo
    echo '| transaction | clients | transactions/s |'; echo '|---|---:|---:|'
    for c in 4 32; do floor 'one-row INSERT (autocommit)' $c "insert into floor_t (v) values ('x');"; done
    for c in 4 32; do floor 'BEGIN; INSERT; NOTIFY; COMMIT' $c "begin; insert into floor_t (v) values ('x'); select pg_notify('floor', 'x'); commit;"; done
  } | tee -a "$OUT/scale.md"
fi
su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGD/data -m fast stop" >/dev/null
tail -200 "$PGD/postgres.log" >"$OUT/postgres.log"
for f in "$TMPDIR"/addon-pair-bench-*.log; do [ -s "$f" ] && { echo "== $(basename "$f")"; tail -30 "$f"; }; done >"$OUT/servers.log" 2>/dev/null
echo "run-on-bare: bench exit $RC after $(($(date +%s) - T0)) s"
exit $RC
