#!/bin/sh
# afterAll, a plain hook: it gets the environment (HOOKS_CONTEXT_DIR
# included) but no payload, and its output only lands in the report.
set -eu
case ${HOOKS_CONTEXT_DIR:-} in
*/mcptest-hooks-context.*) ;;
*)
	echo "HOOKS_CONTEXT_DIR is not the scratch directory setup.sh made" >&2
	exit 1
	;;
esac
echo "verdicts recorded in $HOOKS_CONTEXT_DIR:"
cat "$HOOKS_CONTEXT_DIR/verdicts.tsv"
rm -rf "$HOOKS_CONTEXT_DIR"
