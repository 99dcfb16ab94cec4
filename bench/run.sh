#!/usr/bin/env bash
# bench/run.sh runs the performance-budget benchmarks (DESIGN.md,
# "Performance budgets") against the binaries of `make build` and prints a
# table of medians with verdicts. `make bench` calls it after the build.
#
# Each budget is judged against a floor measured in the same run, because
# the machine is shared and absolute times drift. For the same reason a
# verdict of OVER does not fail: the script exits non-zero only when a
# benchmark cannot run (build error, missing binaries, a failed call).
#
# Environment: GO (default go), BENCH_COUNT (runs of each benchmark whose
# median is reported, default 3).
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
COUNT=${BENCH_COUNT:-3}
RAW=$(mktemp)
trap 'rm -f "$RAW"' EXIT

# run_bench PATTERN BENCHTIME PACKAGE runs one benchmark, streaming its
# output and keeping it for the table. The benchtimes keep the whole script
# under two minutes on a 2-vCPU machine.
run_bench() {
	echo "== $3: $1 (-benchtime $2 -count $COUNT)"
	if ! "$GO" test -run '^$' -bench "$1" -benchtime "$2" -count "$COUNT" "$3" 2>&1 | tee -a "$RAW"; then
		echo "bench/run.sh: $1 in $3 failed to run" >&2
		exit 1
	fi
}

run_bench '^BenchmarkDispatch$/^(batch|cold|single)$' 2s ./plugins/matchers/text/
# The 100,000-assertion budget: the runner's judging path with the plugin
# process, then the floor, the same items through direct calls. They are
# separate packages, so they run one after the other, back to back.
run_bench '^BenchmarkJudge100k$' 5x ./core/assert/
run_bench '^BenchmarkDirect100k$' 10x ./plugins/matchers/text/
run_bench '^BenchmarkColdStart$' 50x ./bench/
# Process start-up: `mcptest version` and the text and json plugins to
# their handshake line, against a hello world built in the same run.
run_bench '^BenchmarkStartup$' 40x ./bench/
run_bench '^BenchmarkThroughput$' 8x ./bench/
# The real-server shape: 12 tests against a server that takes 350 ms to
# start, against one start + initialize + the 12 calls by a bare client.
run_bench '^BenchmarkRealServer$' 6x ./bench/
# The same 12 checks in mcp-assert's format, run by mcp-assert itself and
# by mcptest on the imported suite (skipped without .ci/npm).
run_bench '^BenchmarkVsMcpAssert$' 1x ./bench/
run_bench '^BenchmarkMemory$' 1x ./bench/
run_bench '^BenchmarkValidate10k$' 3x ./cmd/mcptest/
run_bench '^BenchmarkValidateHuge$' 1x ./bench/
# One compliance run per server and count: each takes seconds, and a
# server that is not installed skips (the table says so).
run_bench '^BenchmarkCompliance$' 1x ./bench/
# The agent loop against the stub provider plugin and the demo server, and
# the same requests and tool calls made raw (the floor), alternating.
run_bench '^BenchmarkAgentLoop$' 20x ./bench/

# metric NAME UNIT prints the median of UNIT over the runs of benchmark
# NAME (without the -GOMAXPROCS suffix); it fails when there is none, e.g.
# because the benchmark skipped.
metric() {
	awk -v name="$1" -v unit="$2" '
		{ sub(/-[0-9]+$/, "", $1) }
		$1 == name { for (i = 3; i < NF; i++) if ($(i+1) == unit) v[n++] = $i }
		END {
			if (n == 0) exit 1
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			print (n % 2) ? v[int(n/2)] : (v[n/2-1] + v[n/2]) / 2
		}' "$RAW" || { echo "bench/run.sh: no $2 result for $1 (did it skip?)" >&2; exit 1; }
}

batch=$(metric BenchmarkDispatch/batch ns/assert)
inproc=$(metric BenchmarkDispatch/batch inproc-ns/assert)
direct=$(metric BenchmarkDispatch/batch direct-ns/assert)
overhead=$(metric BenchmarkDispatch/batch overhead-ns/assert)
single=$(metric BenchmarkDispatch/single ns/assert)
cold_over=$(metric BenchmarkDispatch/cold overhead-ns/assert)
cold_plugin=$(metric BenchmarkDispatch/cold ns/assert)
cs_run=$(metric BenchmarkColdStart ms-run)
cs_floor=$(metric BenchmarkColdStart ms-floor)
cs_over=$(metric BenchmarkColdStart ms-overhead)
cs_plugins=$(metric BenchmarkColdStart ms-run-plugins)
cs_plugins_over=$(metric BenchmarkColdStart ms-overhead-plugins)
tp_run=$(metric BenchmarkThroughput ms-run)
tp_bare=$(metric BenchmarkThroughput ms-bare)
tp_ratio=$(metric BenchmarkThroughput x-bare)
rs_run=$(metric BenchmarkRealServer ms-run)
rs_floor=$(metric BenchmarkRealServer ms-floor)
rs_ratio=$(metric BenchmarkRealServer x-floor)
mem_floor=$(metric BenchmarkMemory MB-floor)
mem_10k=$(metric BenchmarkMemory MB-10k-tests)
mem_huge=$(metric BenchmarkMemory MB-50MB-response)
mem_x=$(metric BenchmarkMemory x-response)
mem_fail=$(metric BenchmarkMemory MB-50MB-failing)
mem_fail_x=$(metric BenchmarkMemory x-failing)
validate_ns=$(metric BenchmarkValidate10k ns/op)
vh_mb=$(metric BenchmarkValidateHuge MB-validate-50MB)
vh_s=$(metric BenchmarkValidateHuge s-validate-50MB)
vh_tests=$(metric BenchmarkValidateHuge tests)
k100_pipeline=$(metric BenchmarkJudge100k ns/assert)
k100_direct=$(metric BenchmarkDirect100k ns/assert)
k100_over=$(awk -v p="$k100_pipeline" -v d="$k100_direct" 'BEGIN { print p - d }')
agent_loop=$(metric BenchmarkAgentLoop us-loop/turn)
agent_raw=$(metric BenchmarkAgentLoop us-raw/turn)
agent_over=$(metric BenchmarkAgentLoop us-overhead/turn)

# verdict VALUE LIMIT prints PASS when VALUE <= LIMIT, else OVER.
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "PASS" : "OVER" }'; }

echo
echo "Performance budgets (median of $COUNT runs; floors measured in the same run)"
awk -v batch="$batch" -v single="$single" -v cold_over="$cold_over" -v cold_plugin="$cold_plugin" -v inproc="$inproc" -v direct="$direct" -v overhead="$overhead" \
	-v cs_run="$cs_run" -v cs_floor="$cs_floor" -v cs_over="$cs_over" \
	-v cs_plugins="$cs_plugins" -v cs_plugins_over="$cs_plugins_over" \
	-v tp_run="$tp_run" -v tp_bare="$tp_bare" -v tp_ratio="$tp_ratio" \
	-v v_dispatch="$(verdict "$overhead" 1000)" \
	-v v_cs="$(verdict "$cs_over" 15)" \
	-v rs_run="$rs_run" -v rs_floor="$rs_floor" -v rs_ratio="$rs_ratio" -v v_rs="$(verdict "$rs_ratio" 1.1)" \
	-v v_tp="$(verdict "$tp_ratio" 1.1)" '
function row(label, value, verdict) {
	line = sprintf("  %-44s %16s  %s", label, value, verdict)
	sub(/ +$/, "", line)
	print line
}
BEGIN {
	print "matcher dispatch (exact, text plugin)"
	row("plugin, batches of 1,000", sprintf("%.0f ns/assert", batch), "")
	row("plugin, one item per call", sprintf("%.0f ns/assert", single), "")
	row("same SDK in-process (no process boundary)", sprintf("%.0f ns/assert", inproc), "")
	row("direct Go call (floor)", sprintf("%.0f ns/assert", direct), "")
	row("dispatch overhead, batched (budget 1,000)", sprintf("%.0f ns/assert", overhead), v_dispatch)
	row("same, one batch after a forced collection", sprintf("%.0f ns/assert", cold_over), sprintf("info (plugin %.0f)", cold_plugin))
	print "cold start, one-test suite"
	row("mcptest run", sprintf("%.1f ms", cs_run), "")
	row("bare mcp-go client, one call (floor)", sprintf("%.1f ms", cs_floor), "")
	row("overhead over the floor (budget 15 ms)", sprintf("%.1f ms", cs_over), v_cs)
	row("contains + junit: both plugins start", sprintf("%.1f ms", cs_plugins), sprintf("info (%.1f ms over the floor)", cs_plugins_over))
	print "real-server shape: 12 tests, server starting in 350 ms"
	row("mcptest run", sprintf("%.1f ms", rs_run), "")
	row("one start + initialize + 12 calls (floor)", sprintf("%.1f ms", rs_floor), "")
	row("ratio (budget 1.1x)", sprintf("%.3fx", rs_ratio), v_rs)
	print "1,000 echo tests"
	row("mcptest run", sprintf("%.1f ms", tp_run), "")
	row("bare mcp-go client loop (floor)", sprintf("%.1f ms", tp_bare), "")
	row("ratio (budget 1.1x)", sprintf("%.3fx", tp_ratio), v_tp)
}'
awk -v f="$(metric BenchmarkStartup ms-floor)" -v ver="$(metric BenchmarkStartup ms-version)" -v vo="$(metric BenchmarkStartup ms-version-over)" \
	-v th="$(metric BenchmarkStartup ms-text-handshake)" -v to="$(metric BenchmarkStartup ms-text-over)" \
	-v jh="$(metric BenchmarkStartup ms-json-handshake)" -v jo="$(metric BenchmarkStartup ms-json-over)" \
	-v vv="$(verdict "$(metric BenchmarkStartup ms-version-over)" 5)" -v vt="$(verdict "$(metric BenchmarkStartup ms-text-over)" 5)" \
	-v vj="$(verdict "$(metric BenchmarkStartup ms-json-over)" 5)" 'BEGIN {
	print "process start-up (median of the runs in each benchmark run)"
	printf "  %-44s %13.1f ms\n", "Go hello world, exec to exit (floor)", f
	printf "  %-44s %13.1f ms  (%.1f ms over, budget 5 ms) %s\n", "mcptest version, exec to exit", ver, vo, vv
	printf "  %-44s %13.1f ms  (%.1f ms over, budget 5 ms) %s\n", "text plugin, exec to handshake", th, to, vt
	printf "  %-44s %13.1f ms  (%.1f ms over, budget 5 ms) %s\n", "json plugin, exec to handshake", jh, jo, vj
}'
awk -v run="$tp_run" -v bare="$tp_bare" -v v="$validate_ns" \
	-v vo="$(verdict "$(awk -v r="$tp_run" -v b="$tp_bare" 'BEGIN { print r - b }')" 50)" \
	-v vv="$(verdict "$validate_ns" 1000000000)" 'BEGIN {
	print "core overhead"
	# (run - bare) ms over 1,000 tests is that many microseconds a test,
	# start-up included.
	printf "  %-44s %13.1f us  %s\n", "per test over the bare loop (budget 50 us)", run - bare, vo
	printf "  %-44s %13.2f s   %s\n", "validate, 10,000 tests (budget 1 s)", v / 1e9, vv
}'
awk -v mb="$vh_mb" -v s="$vh_s" -v n="$vh_tests" -v vm="$(verdict "$vh_mb" 600)" -v vs="$(verdict "$vh_s" 10)" 'BEGIN {
	printf "validate, 50 MB suite of %d tests\n", n
	printf "  %-44s %13.1f MB  %s\n", "peak resident set (budget 600 MB)", mb, vm
	printf "  %-44s %13.2f s   %s\n", "wall time (budget 10 s)", s, vs
}'
awk -v f="$mem_floor" -v t="$mem_10k" -v h="$mem_huge" -v x="$mem_x" -v vt="$(verdict "$mem_10k" 200)" -v vx="$(verdict "$mem_x" 4)" \
	-v hf="$mem_fail" -v xf="$mem_fail_x" -v vxf="$(verdict "$mem_fail_x" 4)" 'BEGIN {
	print "memory, peak resident set of mcptest"
	printf "  %-44s %13.1f MB\n", "one-test suite (floor)", f
	printf "  %-44s %13.1f MB  %s\n", "10,000 tests (budget 200 MB)", t, vt
	printf "  %-44s %13.1f MB\n", "one 50 MB response, passing", h
	printf "  %-44s %15.2fx  %s\n", "above the floor, in responses (budget 4x)", x, vx
	printf "  %-44s %13.1f MB\n", "one 50 MB response, failing", hf
	printf "  %-44s %15.2fx  %s\n", "above the floor, in responses (budget 4x)", xf, vxf
}'
awk -v p="$k100_pipeline" -v d="$k100_direct" -v o="$k100_over" -v v="$(verdict "$k100_over" 1000)" 'BEGIN {
	printf "100,000 assertions through the text plugin: pipeline %.0f ns/assert, direct %.0f ns/assert, overhead %.0f ns/assert (budget 1,000) %s\n", p, d, o, v
}'

# mcptest against mcp-assert on the same checks in mcp-assert's format
# (budget: at least 15x faster); a server not installed is skipped. The
# import's default (after_write) and --share-servers are judged; the
# --strict-isolation line (a process per test, like mcp-assert) is shown
# for information. On the demo server the budget is min(15, ceiling/1.1):
# the ceiling, mcp-assert's time over the floor of one server start and
# the 12 calls measured in the same run, is the best any tool that starts
# the server even once can reach, and issue #19 asks a run of this shape
# to be within 1.1x of that floor (docs/performance.md).
echo "12 checks in mcp-assert's format: mcp-assert run vs mcptest run of the imported suite (budget >= 15x)"
for srv in demo-350ms everything-stdio; do
	name="BenchmarkVsMcpAssert/$srv"
	if ! ours=$(metric "$name" ms-mcptest 2>/dev/null); then
		printf "  %-44s %16s\n" "$srv" "skipped"
		continue
	fi
	theirs=$(metric "$name" ms-mcp-assert)
	x=$(metric "$name" x-mcp-assert)
	strict=$(metric "$name" ms-mcptest-strict)
	xst=$(metric "$name" x-mcp-assert-strict)
	shared=$(metric "$name" ms-mcptest-shared)
	xs=$(metric "$name" x-mcp-assert-shared)
	floor=$(metric "$name" ms-floor)
	ceiling=$(metric "$name" x-ceiling)
	budget=15
	if [ "$srv" = demo-350ms ]; then
		budget=$(awk -v c="$ceiling" 'BEGIN { c /= 1.1; print (c < 15) ? c : 15 }')
	fi
	atleast() { awk -v x="$1" -v b="$2" 'BEGIN { print (x >= b) ? "PASS" : "OVER" }'; }
	awk -v srv="$srv" -v o="$ours" -v st="$strict" -v sh="$shared" -v t="$theirs" -v f="$floor" \
		-v x="$x" -v xst="$xst" -v xs="$xs" -v c="$ceiling" -v b="$budget" \
		-v v="$(atleast "$x" "$budget")" -v vs="$(atleast "$xs" "$budget")" 'BEGIN {
		printf "  %-44s %14.1fx  %s  (mcptest %.0f ms, mcp-assert %.0f ms; budget %.1fx)\n", srv ", as imported (after_write)", x, v, o, t, b
		printf "  %-44s %14.1fx  %s  (mcptest %.0f ms)\n", srv ", one server for the run", xs, vs, sh
		printf "  %-44s %14.1fx  info  (mcptest %.0f ms: a server per test)\n", srv ", --strict-isolation (per_test)", xst, st
		printf "  %-44s %14.1fx  info  (floor %.0f ms: one start + 12 calls)\n", srv ", ceiling (mcp-assert / floor)", c, f
	}'
done

awk -v l="$agent_loop" -v r="$agent_raw" -v o="$agent_over" -v v="$(verdict "$agent_over" 1000)" 'BEGIN {
	print "agent loop, 20 turns against the stub provider plugin and the demo server"
	printf "  %-44s %13.0f us\n", "loop, budget and report trace, per turn", l
	printf "  %-44s %13.0f us\n", "same model and tool calls raw (floor)", r
	printf "  %-44s %13.0f us  %s\n", "overhead per turn (budget 1,000 us)", o, v
}'

# The compliance budget: every interop server checked in at most 4 s. The
# floor over stdio is the same number of server starts (the starts column)
# made by a minimal client, one per CPU at once, each answering initialize
# and a ping; over HTTP it is the official conformance suite's server
# scenarios against the same server (or one initialize when .ci/conformance
# is not installed). The errored column counts checks a loaded machine
# made miss a wait.
echo "mcptest compliance run, every check (budget 4 s a server)"
for srv in everything-stdio filesystem-stdio memory-stdio everything-http mcp-go-everything go-sdk-everything; do
	name="BenchmarkCompliance/$srv"
	if ! run=$(metric "$name" ms-run 2>/dev/null); then
		printf "  %-44s %16s\n" "$srv" "skipped"
		continue
	fi
	floor=$(metric "$name" ms-floor)
	errored=$(metric "$name" errored)
	starts=$(metric "$name" starts)
	official=$(metric "$name" official-floor)
	awk -v s="$srv" -v r="$run" -v f="$floor" -v e="$errored" -v n="$starts" -v o="$official" -v v="$(verdict "$run" 4000)" 'BEGIN {
		if (o > 0) what = "official conformance suite"
		else if (n > 0) what = sprintf("%.0f server starts", n)
		else what = "one initialize"
		printf "  %-44s %13.0f ms  %s  (floor %.0f ms: %s; %.2fx; %.1f errored)\n", s, r, v, f, what, r / f, e
	}'
done
