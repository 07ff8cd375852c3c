#!/usr/bin/env bash
# Run a command beside a throwaway PostgreSQL cluster: initdb in a temporary directory, the server on
# a free port of 127.0.0.1 (its socket in that directory), FEEDBASE_TEST_PG_URL pointing at it; the
# cluster is stopped and removed when the command ends, however it ends. Its status is the command's.
# The binaries are Debian's (/usr/lib/postgresql/<version>/bin, package postgresql); initdb refuses to
# run as root, so as root (CI runners) the cluster belongs to the `postgres` user the package creates.
# Usage: test/postgres/cluster.sh COMMAND [ARG...]
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "cluster.sh: no PostgreSQL server under /usr/lib/postgresql/*/bin: install Debian's postgresql package" >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/feedbase-pg-XXXXXX")
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  # From the cluster's directory: the caller's may be closed to that user (a clone under /root).
  as_owner() { (cd "$dir" && runuser -u postgres -- "$@"); }
fi

stop() {
  as_owner "$bindir/pg_ctl" stop -D "$dir/data" -m immediate -s >/dev/null 2>&1 || true
  rm -rf "$dir"
}
child=""
trap stop EXIT
# A signal stops the command too (it runs in the background so the trap fires at once).
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 130' INT
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 143' TERM

as_owner "$bindir/initdb" -D "$dir/data" --auth=trust -U feedbase --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }

# A port below Linux's ephemeral range; one taken by someone else makes the start fail: try another.
started=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
  port=$((20000 + RANDOM % 10000))
  if as_owner "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/server.log" -w -t 60 -s \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300" >/dev/null 2>&1; then
    started=1
    break
  fi
done
if [ -z "$started" ]; then
  echo "cluster.sh: the throwaway PostgreSQL server did not start:" >&2
  tail -20 "$dir/server.log" >&2 || true
  exit 1
fi

# Tests of a database that goes away (test/postgres/faults.pg.ts) stop and start this cluster through
# $dir/ctl (stop | start | pid: the postmaster's), as its owner and with the options it started with.
cat >"$dir/ctl" <<CTL
#!/usr/bin/env bash
set -euo pipefail
run() { if [ "\$(id -u)" = 0 ]; then (cd "$dir" && runuser -u postgres -- "\$@"); else "\$@"; fi; }
case "\$1" in
  stop) run "$bindir/pg_ctl" stop -D "$dir/data" -m fast -w -s ;;
  start) run "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/server.log" -w -t 60 -s -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300" ;;
  pid) head -1 "$dir/data/postmaster.pid" ;;
  *) echo "usage: ctl stop|start|pid" >&2; exit 2 ;;
esac
CTL
chmod 755 "$dir/ctl"
export FEEDBASE_TEST_PG_CTL="$dir/ctl"
export FEEDBASE_TEST_BACKEND=postgres
export FEEDBASE_TEST_PG_URL="postgres://feedbase@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $dir, removed afterwards)"
"$@" &
child=$!
status=0
wait "$child" || status=$?
exit "$status"
