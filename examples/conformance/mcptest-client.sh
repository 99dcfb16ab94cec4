#!/bin/sh
# mcptest as the client of the official MCP conformance suite
# (@modelcontextprotocol/conformance). The suite runs
#
#   conformance client --command examples/conformance/mcptest-client.sh --scenario NAME
#
# and calls this script with the URL of the scenario's server as the last
# argument and the scenario's name in MCP_CONFORMANCE_SCENARIO. The script
# runs the suite of the same name beside it against that URL; earlier
# arguments are passed on to `mcptest run` (reporters, for example).
# MCPTEST names the mcptest binary (default: bin/mcptest of this
# checkout); MCPTEST_CONFORMANCE_SUITES names another folder of suites
# (default: the one holding this script).
#
# Scenarios that hand the client credentials (auth/pre-registration, the
# client-credentials and cross-app access ones) pass them as JSON in
# MCP_CONFORMANCE_CONTEXT; each field becomes a variable the suites name,
# MCP_CONFORMANCE_<FIELD> (client_id -> MCP_CONFORMANCE_CLIENT_ID, and
# client_secret also as MCP_CONFORMANCE_CLIENT_ID_SECRET, the name mcptest
# reads a client's secret from). The JSON is read with Node, which runs
# the conformance CLI itself (NODE names another binary).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mcptest=${MCPTEST:-$here/../../bin/mcptest}
suites=${MCPTEST_CONFORMANCE_SUITES:-$here}
if [ $# -lt 1 ]; then
  echo "mcptest-client.sh: no server URL: the conformance runner passes it as the last argument" >&2
  exit 2
fi
scenario=${MCP_CONFORMANCE_SCENARIO:-}
suite=$suites/$scenario.yml
if [ -z "$scenario" ] || [ ! -f "$suite" ]; then
  echo "mcptest-client.sh: no suite for scenario \"$scenario\" in $suites (MCP_CONFORMANCE_SCENARIO)" >&2
  exit 2
fi
if [ -n "${MCP_CONFORMANCE_CONTEXT:-}" ]; then
  exports=$("${NODE:-node}" -e '
    const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT);
    const q = (v) => "\x27" + String(v).replace(/\x27/g, "\x27\\\x27\x27") + "\x27";
    for (const [k, v] of Object.entries(ctx)) {
      if (!/^[A-Za-z0-9_]+$/.test(k) || typeof v === "object") continue;
      console.log("export MCP_CONFORMANCE_" + k.toUpperCase() + "=" + q(v));
      if (k === "client_secret") console.log("export MCP_CONFORMANCE_CLIENT_ID_SECRET=" + q(v));
    }')
  eval "$exports"
fi
# The URL is the last argument; the others go to mcptest run.
n=$#
url=
i=0
for a; do
  i=$((i + 1))
  if [ "$i" -eq "$n" ]; then url=$a; else set -- "$@" "$a"; fi
done
shift "$n"
exec "$mcptest" run --no-color --no-cache --server-url "conformance=$url" "$@" "$suite"
