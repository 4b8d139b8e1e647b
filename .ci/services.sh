#!/usr/bin/env bash
# PostgreSQL and Redis for the test suite, shared by `make test` and `.ci/run`.
#
#   eval "$(.ci/services.sh)"            # make test: use them when they answer, else start them
#                                        # if this machine can, else run embedded (SQLite,
#                                        # in-process tasks): prints the exports to use
#   env=$(.ci/services.sh --require)     # CI: the same, but fail (status 1) when one cannot
#                                        # be had
#
# DATABASE_URL and CELERY_BROKER_URL choose other servers (a PostgreSQL reachable without a
# password, or with it in the URL). Progress goes to stderr; stdout is only `export` lines.
# When a service is missing, HANDFOOT_NO_POSTGRES / HANDFOOT_NO_REDIS say why, and the suite's
# summary names the test groups that did not run because of it.
set -uo pipefail
cd "$(dirname "$0")/.."

REQUIRE=0
[ "${1:-}" = "--require" ] && REQUIRE=1
PYTHON=.venv/bin/python
DEFAULT_DATABASE_URL=postgres://postgres@127.0.0.1:5432/handfoot
DEFAULT_BROKER_URL=redis://127.0.0.1:6379/0
DATABASE_URL=${DATABASE_URL-$DEFAULT_DATABASE_URL}
CELERY_BROKER_URL=${CELERY_BROKER_URL-$DEFAULT_BROKER_URL}

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

is_local() { [[ "$1" =~ @(127\.0\.0\.1|localhost)(:|/) || "$1" =~ ^redis://(127\.0\.0\.1|localhost)(:|/) ]]; }

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
    --appendonly no --dir "$dir" --logfile "$dir/redis.log" >&2 || return 1
  wait_for redis_answers "$CELERY_BROKER_URL"
}

missing=()

if [[ "$DATABASE_URL" != postgres* ]]; then
  NO_POSTGRES="DATABASE_URL is not a PostgreSQL URL: the suite runs on SQLite"
elif postgres_answers "$DATABASE_URL" || { is_local "$DATABASE_URL" && start_postgres; }; then
  NO_POSTGRES=""
else
  NO_POSTGRES="PostgreSQL does not answer at ${DATABASE_URL##*@} and cannot be started here"
fi

if [[ "$CELERY_BROKER_URL" != redis* ]]; then
  NO_REDIS="CELERY_BROKER_URL is not a Redis URL: tasks run in-process"
elif redis_answers "$CELERY_BROKER_URL" || { is_local "$CELERY_BROKER_URL" && start_redis; }; then
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

for line in "${missing[@]}"; do say "services: $line"; done
if [ ${#missing[@]} -gt 0 ] && [ "$REQUIRE" = 1 ]; then
  say "services: CI needs PostgreSQL and Redis"
  exit 1
fi
[ ${#missing[@]} -eq 0 ] && say "services: PostgreSQL ${DATABASE_URL##*@}, Redis ${CELERY_BROKER_URL#redis://}"
exit 0
