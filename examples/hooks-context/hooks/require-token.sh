#!/bin/sh
# beforeEach, mode: context.
#
# Skips a test tagged needs-token when DEMO_API_TOKEN is unset. The tags
# arrive in the payload's test object; the phase and the test's name are
# also in the environment (MCPTEST_HOOK_PHASE, MCPTEST_TEST_NAME). No
# output at all means "carry on".
set -eu
payload=$(cat)
case $payload in
*'"tags":['*'"needs-token"'*)
	if [ -z "${DEMO_API_TOKEN:-}" ]; then
		printf '{"skip": {"reason": "DEMO_API_TOKEN is not set"}}\n'
	fi
	;;
esac
