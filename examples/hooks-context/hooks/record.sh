#!/bin/sh
# afterEach, mode: context.
#
# The payload's result carries the test's verdict (pass, fail, error or
# skip). HOOKS_CONTEXT_DIR came from setup.sh's patch.
set -eu
verdict=$(sed -n 's/.*"result":{"verdict":"\([a-z]*\)".*/\1/p')
printf '%s\t%s\n' "${verdict:-unknown}" "$MCPTEST_TEST_NAME" >>"$HOOKS_CONTEXT_DIR/verdicts.tsv"
