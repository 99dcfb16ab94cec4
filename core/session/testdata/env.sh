#!/bin/sh
# Reports its environment and working directory on stderr, then exits 1.
echo "MCPTEST_FOO=$MCPTEST_FOO dir=$(pwd)" >&2
exit 1
