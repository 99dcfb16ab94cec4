#!/usr/bin/env bash
# bench/peer.sh: mcptest next to mcp-assert (the peer of
# spec/mcp-assert-architecture.txt), command by command, on the demo
# server and on server-everything. `make bench-peer` calls it after
# `make build`; it needs .ci/npm installed (npm install --prefix .ci/npm),
# which brings mcp-assert 0.12.3 and server-everything.
#
# Whole-process wall time of each command, from start to exit, server
# start-up included: PEER_RUNS (default 5) runs of each side after one
# warm-up, A and B in turn (A B A B ...) so that a machine whose speed
# drifts slows both alike; it prints the median of each side and the
# median of the pairwise ratios A/B. Where mcp-assert has no equivalent
# (mock) the yardstick is the floor: the same client against the bare
# server. intercept and mock are reported per call (100 calls a run);
# watch as the time from a suite file's change to the end of its re-run,
# each tool with its default polling or settling delay.
#
# It measures and never judges: the exit status is 0 unless a tool is
# missing. The figures in docs/toolkit.md come from this script.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${PEER_RUNS:-5}
ROOT=$PWD
MCPTEST=$ROOT/bin/mcptest
DEMO=$ROOT/bin/mcptest-demo-server
PEER=$ROOT/.ci/npm/node_modules/.bin/mcp-assert
EVERYTHING_JS=$ROOT/.ci/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js
# server-everything's gzip tool would fetch a URL; nothing may leave the
# machine.
export GZIP_ALLOWED_DOMAINS=mcptest.invalid
CALLS=100

for f in "$MCPTEST" "$DEMO" "$PEER" "$EVERYTHING_JS"; do
	[ -e "$f" ] || { echo "bench/peer.sh: $f is missing (make build; npm install --prefix .ci/npm)" >&2; exit 2; }
done

W=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	rm -rf "$W"
}
trap cleanup EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# once CMD runs CMD (a shell string) and prints its wall milliseconds
# and its exit status.
once() {
	local t0 t1 rc=0
	t0=$(now_ms)
	bash -c "$1" >/dev/null 2>&1 </dev/null || rc=$?
	t1=$(now_ms)
	echo "$((t1 - t0)) $rc"
}

# median reads numbers, one a line, and prints their median.
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "-"; exit} m=(NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; print m}'; }

# pair LABEL A B: RUNS runs of A and B in turn after a warm-up of each.
# Prints LABEL, the medians of A and B in ms, the median ratio A/B, the
# exit statuses of the last runs (a figure of a command that failed is no
# figure) and, with PER set, the median of the pairwise differences A-B
# divided by PER: what one of PER calls costs A over B.
pair() {
	local label=$1 a=$2 b=$3 ta tb ea eb ra="" rb="" rr="" rd="" extra=""
	once "$a" >/dev/null
	once "$b" >/dev/null
	for _ in $(seq "$RUNS"); do
		read -r ta ea < <(once "$a")
		read -r tb eb < <(once "$b")
		ra+="$ta"$'\n'
		rb+="$tb"$'\n'
		rr+=$(awk -v x="$ta" -v y="$tb" 'BEGIN {printf "%.3f", (y > 0 ? x / y : 0)}')$'\n'
		rd+=$((ta - tb))$'\n'
	done
	if [ -n "${PER:-}" ]; then
		extra=$(printf '%s' "$rd" | median | awk -v n="$PER" '{printf "  %+.2f ms/call", $1 / n}')
	fi
	printf '%-44s %9s %9s %7s  exit %s/%s%s\n' "$label" "$(printf '%s' "$ra" | median)" "$(printf '%s' "$rb" | median)" \
		"$(printf '%s' "$rr" | median)" "$ea" "$eb" "$extra"
}

# per_call LABEL A B: pair, with the per-call cost over CALLS calls.
per_call() { PER=$CALLS pair "$@"; }

# calls_suite FILE SERVER-COMMAND-JSON writes a suite of CALLS echo calls,
# each with its own message (so no answer comes from the result cache).
calls_suite() {
	{
		printf 'servers:\n  s:\n    command: %s\n    env: {GZIP_ALLOWED_DOMAINS: mcptest.invalid}\ntools:\n' "$2"
		for i in $(seq "$CALLS"); do
			printf '  - {name: echo %d, server: s, tool: echo, args: {message: m%d}, expect: [{target: result.isError, matcher: {exact: false}}]}\n' "$i" "$i"
		done
	} >"$1"
}

# watch_latency LABEL WATCHER-CMD FILE MARKER: starts the watcher, then
# RUNS times appends a comment to FILE and times until the watcher's
# output has one more line matching MARKER (a finished run). Prints the
# median in ms.
watch_latency() {
	local label=$1 cmd=$2 file=$3 marker=$4 out=$W/watch.$RANDOM n t0 deadline times=""
	bash -c "exec $cmd" >"$out" 2>&1 </dev/null &
	PIDS+=($!)
	local pid=$!
	deadline=$(($(now_ms) + 60000))
	until [ "$(grep -c -- "$marker" "$out" || true)" -ge 1 ] || [ "$(now_ms)" -gt "$deadline" ]; do sleep 0.02; done
	for _ in $(seq "$RUNS"); do
		n=$(grep -c -- "$marker" "$out" || true)
		sleep 0.3
		t0=$(now_ms)
		echo "# changed $t0" >>"$file"
		deadline=$((t0 + 30000))
		until [ "$(grep -c -- "$marker" "$out" || true)" -gt "$n" ] || [ "$(now_ms)" -gt "$deadline" ]; do sleep 0.01; done
		times+="$(($(now_ms) - t0))"$'\n'
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	printf '%-44s %9s\n' "$label" "$(printf '%s' "$times" | median)"
}

echo "bench/peer.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs a side"
echo "mcptest $("$MCPTEST" version 2>/dev/null | head -1), mcp-assert $("$PEER" --version 2>/dev/null | head -1 || echo 0.12.3)"

for srv in demo everything; do
	if [ "$srv" = demo ]; then S=$DEMO; SJSON="[\"$DEMO\"]"; else S="node $EVERYTHING_JS"; SJSON="[node, \"$EVERYTHING_JS\"]"; fi
	echo
	echo "== $srv server: A = mcptest, B = mcp-assert (ms, medians; ratio A/B)"
	printf '%-44s %9s %9s %7s\n' "" A B "A/B"
	pair "lint" "$MCPTEST lint --server '$S'" "$PEER lint --server '$S'"
	# mcptest calls every tool and expects its answer; mcp-assert writes
	# stubs from tools/list.
	pair "generate" "$MCPTEST generate --server '$S' -o $W/gen.yml" "rm -rf $W/gen-peer && $PEER generate --server '$S' --output $W/gen-peer"
	# coverage reads the suites generate just wrote, each tool its own.
	pair "coverage" "$MCPTEST coverage --server '$S' $W/gen.yml" "$PEER coverage --suite $W/gen-peer --server '$S'"
	pair "init (with --server: a suite from the server)" "rm -rf $W/init && $MCPTEST init $W/init --server '$S'" "rm -rf $W/init-peer && $PEER init --server '$S' $W/init-peer"

	echo "-- $CALLS echo calls by mcptest run: A through the proxy, B straight to the server"
	calls_suite "$W/bare.yml" "$SJSON"
	calls_suite "$W/icp.yml" "[\"$MCPTEST\", intercept, -o, \"$W/trace.jsonl\", --, ${SJSON:1:-1}]"
	printf 'name: echo seen\ntrajectory:\n  - type: presence\n    tools: [echo]\n' >"$W/traj.yaml"
	calls_suite "$W/icp-peer.yml" "[\"$PEER\", intercept, --server, \"$S\", --trajectory, \"$W/traj.yaml\"]"
	per_call "intercept, mcptest" "$MCPTEST run $W/icp.yml" "$MCPTEST run $W/bare.yml"
	per_call "intercept, mcp-assert" "$MCPTEST run $W/icp-peer.yml" "$MCPTEST run $W/bare.yml"
done

echo
echo "-- mock (mcp-assert has none): $CALLS calls by mcptest run, A to mcptest mock, B to the demo server (the floor)"
cat >"$W/mock.yml" <<'YAML'
name: bench-mock
tools:
  - name: echo
    input_schema: {type: object, properties: {message: {type: string}}}
    annotations: {readOnlyHint: true}
    result: {text: "{{.args.message}}"}
YAML
calls_suite "$W/mock-suite.yml" "[\"$MCPTEST\", mock, \"$W/mock.yml\"]"
calls_suite "$W/demo-suite.yml" "[\"$DEMO\"]"
per_call "mock" "$MCPTEST run $W/mock-suite.yml" "$MCPTEST run $W/demo-suite.yml"

echo
echo "-- watch: ms from a suite file's change to the end of the re-run (one echo test, demo server; defaults: mcptest settles 200 ms, mcp-assert polls every 2 s)"
calls_suite "$W/watch.yml" "[\"$DEMO\"]"
head -6 "$W/watch.yml" >"$W/watch1.yml"
mkdir -p "$W/watch-peer"
printf 'name: echo\nserver:\n  command: %s\nassert:\n  tool: echo\n  args: {message: hi}\n  expect:\n    not_error: true\n' "$DEMO" >"$W/watch-peer/echo.yaml"
watch_latency "watch, mcptest" "$MCPTEST watch $W/watch1.yml" "$W/watch1.yml" "waiting for changes"
watch_latency "watch, mcp-assert" "$PEER watch --suite $W/watch-peer" "$W/watch-peer/echo.yaml" "assertions,"
