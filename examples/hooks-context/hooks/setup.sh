#!/bin/sh
# beforeAll, mode: context.
#
# Reads the run context on stdin (not needed here), creates a scratch
# directory and prints a patch: env reaches every later hook of the run,
# vars reach every later context hook's payload.
set -eu
cat >/dev/null
dir=$(mktemp -d "${TMPDIR:-/tmp}/mcptest-hooks-context.XXXXXX")
printf '{"env": {"HOOKS_CONTEXT_DIR": "%s"}, "vars": {"scratch": "%s"}}\n' "$dir" "$dir"
