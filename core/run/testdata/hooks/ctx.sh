#!/bin/sh
# ctx.sh LOG PATCH: a context hook for the tests. It appends the JSON
# payload it reads on stdin to LOG (one line each) and the phase it got in
# MCPTEST_HOOK_PHASE to LOG.phase, then prints PATCH.
log=$1
patch=$2
{ cat; echo; } >>"$log"
echo "$MCPTEST_HOOK_PHASE" >>"$log.phase"
printf '%s' "$patch"
