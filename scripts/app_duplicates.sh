#!/usr/bin/env bash
# Where the app code repeats itself: `scripts/app_duplicates.sh [duplicates options]` (`make duplicates`).
#
# "App code" is the tracked .py files outside tests/, bench/, research/, scripts/, docs/, .ci/
# and any migrations/ folder. They are copied into a temporary folder (removed on exit) and the
# `duplicates` command lists the pairs of places there that share 6 or more lines of the same
# shape; its first line counts the pairs (issue 43 tracks that count). Options given to this
# script go to `duplicates` after the defaults (--most 200 --seconds 120), e.g. --min-lines 8.
# Without the `duplicates` command on PATH this says so and exits 0: it is a reading aid, not a check.
set -euo pipefail

if ! command -v duplicates >/dev/null 2>&1; then
    echo "app_duplicates: the 'duplicates' command is not installed on this machine (not on PATH); nothing measured."
    exit 0
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/app_duplicates.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

cd "$root"
# A tracked file deleted in the working tree (not yet committed) is skipped, as git would.
git ls-files -z -- '*.py' \
    | grep -z -v -E '^(tests|bench|research|scripts|docs|\.ci)/|(^|/)migrations/' \
    | while IFS= read -r -d '' path; do
        if [ -f "$path" ]; then cp --parents -- "$path" "$tmp/"; fi
    done

duplicates --repo "$tmp" --most 200 --seconds 120 "$@"
