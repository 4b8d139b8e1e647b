#!/usr/bin/env bash
# PostgreSQL and Redis for the test suite, shared by `make test` and `.ci/run`.
#
#   eval "$(.ci/services.sh)"            # make test: use them when they answer, else start them
#                                        # if this machine can, else run embedded (SQLite,
#                                        # in-process tasks): prints the exports to use
#   env=$(.ci/services.sh --require)     # CI: the same, but fail (status 1) when one cannot
#                                        # be had
#   .ci/services.sh --stop               # stop the redis-server the first form started
#
# DATABASE_URL and CELERY_BROKER_URL choose other servers (a PostgreSQL reachable without a
# password, or with it in the URL); a server chosen that way is used when it answers and never
# started. Only the defaults (127.0.0.1:5432 and :6379) are started when they do not answer. Progress goes to stderr; stdout is only `export` lines.
# When a service is missing, HANDFOOT_NO_POSTGRES / HANDFOOT_NO_REDIS say why, and the suite's
# summary names the test groups that did not run because of it.
set -uo pipefail
cd "$(dirname "$0")/.."

REQUIRE=0
[ "${1:-}" = "--require" ] && REQUIRE=1
if [ "${1:-}" = "--stop" ]; then  # stop the redis-server this script started (its pid file)
  pidfile=${HANDFOOT_STARTED_REDIS:-}
  if [ -n "$pidfile" ] && [ -f "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null && printf 'services: stopped the Redis started for the tests\n' >&2
    rm -rf "$(dirname "$pidfile")"
  fi
  exit 0
fi
PYTHON=.venv/bin/python
DEFAULT_DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot
DEFAULT_BROKER_URL=redis://127.0.0.1:6379/0
# A server the user named is used or not, never started: starting "the machine's PostgreSQL" or a
# new redis-server on a port the user chose would start something they did not ask for.
CHOSEN_DATABASE=${DATABASE_URL+yes}
CHOSEN_BROKER=${CELERY_BROKER_URL+yes}
DATABASE_URL=${DATABASE_URL-$DEFAULT_DATABASE_URL}
CELERY_BROKER_URL=${CELERY_BROKER_URL-$DEFAULT_BROKER_URL}
STARTED_REDIS=""

say() { printf '%s\n' "$*" >&2; }

postgres_answers() {
  # The maintenance database: the test database itself is created by the suite.
  "$PYTHON" - "$1" <<'EOF' 2>/dev/null
import sys, psycopg
psycopg.connect(sys.argv[1], dbname="postgres", connect_timeout=3).close()
EOF
}

redis_answers() {
  "$PYTHON" - "$1" <<'EOF' 2>/dev/null
import sys, redis
sys.exit(0 if redis.Redis.from_url(sys.argv[1], socket_connect_timeout=3).ping() else 1)
EOF
}


wait_for() {  # wait_for CHECK URL
  for _ in $(seq 30); do "$1" "$2" && return 0; sleep 1; done
  return 1
}

start_postgres() {
  local version
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ] \
      && version=$(ls /etc/postgresql | sort -V | tail -n 1) && [ -n "$version" ]; then
    say "starting PostgreSQL $version (pg_ctlcluster)"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 2>&1 || return 1
    wait_for postgres_answers "$DATABASE_URL"
  else
    return 1
  fi
}

start_redis() {
  command -v redis-server >/dev/null 2>&1 || return 1
  local port dir
  port=$(sed -E 's#^redis://[^:/]*:?([0-9]*).*#\1#' <<<"$CELERY_BROKER_URL")
  dir=$(mktemp -d "${TMPDIR:-/tmp}/handfoot-redis.XXXXXX")
  say "starting Redis on port ${port:-6379} (redis-server, data in $dir)"
  redis-server --daemonize yes --bind 127.0.0.1 --port "${port:-6379}" --save "" \
    --appendonly no --dir "$dir" --logfile "$dir/redis.log" --pidfile "$dir/redis.pid" >&2 \
    || return 1
  wait_for redis_answers "$CELERY_BROKER_URL" || return 1
  # `make test` stops it again when the tests are done (.ci/services.sh --stop).
  STARTED_REDIS="$dir/redis.pid"
}

missing=()

if [[ "$DATABASE_URL" != postgres* ]]; then
  NO_POSTGRES="DATABASE_URL is not a PostgreSQL URL: the suite runs on SQLite"
elif postgres_answers "$DATABASE_URL"; then
  NO_POSTGRES=""
elif [ -n "$CHOSEN_DATABASE" ]; then
  NO_POSTGRES="PostgreSQL does not answer at ${DATABASE_URL##*@} (DATABASE_URL); nothing was started"
elif start_postgres; then
  NO_POSTGRES=""
else
  NO_POSTGRES="PostgreSQL does not answer at ${DATABASE_URL##*@} and cannot be started here"
fi

if [[ "$CELERY_BROKER_URL" != redis* ]]; then
  NO_REDIS="CELERY_BROKER_URL is not a Redis URL: tasks run in-process"
elif redis_answers "$CELERY_BROKER_URL"; then
  NO_REDIS=""
elif [ -n "$CHOSEN_BROKER" ]; then
  NO_REDIS="Redis does not answer at ${CELERY_BROKER_URL#redis://} (CELERY_BROKER_URL); nothing was started"
elif start_redis; then
  NO_REDIS=""
else
  NO_REDIS="Redis does not answer at ${CELERY_BROKER_URL#redis://} and cannot be started here"
fi

if [ -n "$NO_POSTGRES" ]; then
  missing+=("PostgreSQL: $NO_POSTGRES")
  DATABASE_URL=""
fi
if [ -n "$NO_REDIS" ]; then
  missing+=("Redis: $NO_REDIS")
  CELERY_BROKER_URL=""
fi

printf 'export DATABASE_URL=%q CELERY_BROKER_URL=%q\n' "$DATABASE_URL" "$CELERY_BROKER_URL"
printf 'export HANDFOOT_NO_POSTGRES=%q HANDFOOT_NO_REDIS=%q\n' "$NO_POSTGRES" "$NO_REDIS"
printf 'export HANDFOOT_STARTED_REDIS=%q\n' "$STARTED_REDIS"

for line in "${missing[@]}"; do say "services: $line"; done
if [ ${#missing[@]} -gt 0 ] && [ "$REQUIRE" = 1 ]; then
  say "services: CI needs PostgreSQL and Redis"
  exit 1
fi
[ ${#missing[@]} -eq 0 ] && say "services: PostgreSQL ${DATABASE_URL##*@}, Redis ${CELERY_BROKER_URL#redis://}"
exit 0
