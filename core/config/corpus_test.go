package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// invalidCases is the corpus of invalid suites: every file of
// testdata/invalid with the errors Load must report. An entry gives either
// want, the exact errors in order ("line:col: pointer: message (hint)",
// without the file name), or line and fragment: some error must be on that
// line and contain the fragment. loaderOnly marks files whose problem the
// JSON Schema cannot see (a cross-reference, a semantic rule); the schema
// test expects every other file to be rejected by the schema too.
var invalidCases = []struct {
	file       string
	want       []string
	line       int
	fragment   string
	loaderOnly bool
}{
	{file: "unknown_key.yml", want: []string{
		`4:5: /servers/local/cmd: unknown key "cmd" in a server (valid keys here: command, env, url, auth, headers, http, wait_for_ready, cassette, client, restart_policy, fixture)`,
		`5:1: /varables: unknown key "varables" in the suite (did you mean "variables"?)`,
		`11:5: /tools/0/expects: unknown key "expects" in a tool test (did you mean "expect"?)`,
		`17:9: /tools/0/expect/0/mesage: unknown key "mesage" in an assertion (did you mean "message"?)`,
	}},
	{file: "missing_servers.yml", want: []string{
		`2:1: missing required key "servers" in the suite (declare the servers under test, or import a file that does)`,
	}},
	{file: "missing_fields.yml", want: []string{
		`3:5: /servers/local: a server needs one of "command", "url" or "cassette"`,
		`7:5: /tools/0: missing required key "server" in a tool test`,
		`7:5: /tools/0: missing required key "tool" in a tool test`,
		`12:9: /tools/1/expect/0: missing required key "matcher" in an assertion`,
	}},
	{file: "wrong_type.yml", want: []string{
		`3:14: /servers/local/command: expected command (an array of strings), found a string ("./server --verbose") (write it as an array: ["./server", "--verbose"])`,
		`5:13: /servers/local/env/PORT: expected the value of PORT (a string), found an integer (8080) (quote it to make it a string: "8080")`,
		`7:14: /servers/empty/command: expected command (an array of strings) with at least one element, found an empty array (the first element is the executable to start)`,
		`9:11: /tools/0/name: expected the test name (a string), found an integer (42) (quote it to make it a string: "42")`,
		`12:11: /tools/0/args: expected args (an object of tool arguments), found an array`,
		`13:17: /tools/0/timeout_ms: expected timeout_ms (an integer ≥ 1), found a string ("5000") (write the number without quotes: 5000)`,
		`14:11: /tools/0/tags: expected tags (an array of strings), found a string ("smoke")`,
		`18:17: /tools/1/timeout_ms: expected timeout_ms (an integer ≥ 1), found an integer (0)`,
		`20:7: /tools/1/expect: expected expect (an array of assertions), found an object (start each assertion with "- ")`,
		`21:5: /tools/2: expected a tool test (an object), found a string ("not a test")`,
	}},
	{file: "bad_server_ref.yml", loaderOnly: true, want: []string{
		`8:13: /tools/0/server: unknown server "locl" (did you mean "local"?)`,
		`11:13: /tools/1/server: unknown server "production" (declared servers: local, remote)`,
	}},
	{file: "matcher_zero_keys.yml", want: []string{
		`10:18: /tools/0/expect/0/matcher: a matcher needs exactly one key, found none (for example: matcher: {contains: "hello"})`,
	}},
	{file: "matcher_two_keys.yml", want: []string{
		`11:11: /tools/0/expect/0/matcher: a matcher has exactly one key, found 2: "exact" and "regex" (write one assertion per matcher, or combine them with allOf)`,
	}},
	{file: "duplicate_key.yml", want: []string{
		`8:5: /tools/0/tool: duplicate key "tool" (first defined at line 7)`,
		`11:7: /tools/0/args/path: duplicate key "path" (first defined at line 10)`,
	}},
	{file: "syntax_error.yml", want: []string{
		`7:4: invalid YAML: did not find expected '-' indicator (check the indentation of this line)`,
	}},
	{file: "several_errors.yml", want: []string{
		`5:13: /tools/0/server: unknown server "lcoal" (did you mean "local"?)`,
		`9:18: /tools/0/expect/0/matcher: a matcher needs exactly one key, found none (for example: matcher: {contains: "hello"})`,
		`10:5: /tools/1: missing required key "tool" in a tool test`,
		`12:5: /tools/1/tol: unknown key "tol" in a tool test (did you mean "tool"?)`,
		`13:17: /tools/1/timeout_ms: expected timeout_ms (an integer ≥ 1), found an integer (-5)`,
		`15:23: /performance/default_timeout_ms: expected default_timeout_ms (an integer ≥ 1), found a string ("soon") (fields ending in _ms take a plain number of milliseconds)`,
		`19:5: /servers/local/enviroment: unknown key "enviroment" in a server (did you mean "env"?)`,
	}},
	{file: "empty.yml", want: []string{
		`1:1: the suite is empty (a suite needs at least a servers block)`,
	}},
	{file: "not_an_object.yml", want: []string{
		`1:1: expected the suite (an object), found an array`,
	}},
	{file: "second_document.yml", want: []string{
		`4:1: a suite file holds one YAML document, found a second one (remove the --- separator or split the file)`,
	}},
	{file: "bad_args.yml", want: []string{
		`9:7: /tools/0/args: object keys must be strings, found an integer (1) (quote the key: "1")`,
		`10:14: /tools/0/args/ratio: .inf has no JSON form`,
		`11:13: /tools/0/args/flag: invalid boolean "maybe" (use true or false)`,
		`12:13: /tools/0/args/when: unsupported YAML tag !custom (only the core tags (!!str, !!int, !!float, !!bool, !!null, !!binary, !!timestamp) have a JSON form)`,
	}},
	{file: "server_two_shapes.yml", line: 4, fragment: "a server takes only one of \"command\", \"url\" or \"cassette\", found \"command\" and \"url\""},
	{file: "server_three_shapes.yml", line: 5, fragment: "found \"command\", \"url\" and \"cassette\""},
	{file: "server_no_shape.yml", line: 3, fragment: "a server needs one of \"command\", \"url\" or \"cassette\""},
	{file: "server_env_on_url.yml", line: 4, fragment: "\"env\" does not apply to a url: server"},
	{file: "server_auth_on_command.yml", line: 4, fragment: "\"auth\" does not apply to a command: server"},
	{file: "server_bad_scheme.yml", line: 3, fragment: "the scheme must be http or https"},
	{file: "server_url_no_host.yml", line: 3, fragment: "no host"},
	{file: "auth_both.yml", line: 6, fragment: "the auth block takes only one of \"bearer_token_env\" or \"oauth\""},
	{file: "auth_empty.yml", line: 4, fragment: "the auth block needs one of \"bearer_token_env\" or \"oauth\""},
	{file: "oauth_missing_token_url.yml", line: 6, fragment: "missing required key \"token_url\" in the oauth block"},
	{file: "oauth_bad_flow.yml", want: []string{
		`6:15: /servers/api/auth/oauth/flow: unknown flow "implicit" (one of: client_credentials, authorization_code, identity_assertion)`,
		`7:24: /servers/api/auth/oauth/redirect_port: expected redirect_port (an integer from 0 to 65535), found an integer (70000)`,
	}},
	{file: "oauth_identity_incomplete.yml", line: 6, fragment: `missing required key "idp_token_url" in the oauth block`},
	{file: "oauth_two_keys.yml", want: []string{
		`9:9: /servers/api/auth/oauth/private_key_file: the oauth block takes only one of "private_key_env" or "private_key_file"`,
	}},
	{file: "oauth_jwt_without_key.yml", loaderOnly: true, want: []string{
		`8:9: /servers/api/auth/oauth/token_endpoint_auth: token_endpoint_auth private_key_jwt needs the client's key (set private_key_env or private_key_file)`,
	}},
	{file: "header_authorization.yml", line: 5, fragment: "the Authorization header cannot be set in headers"},
	{file: "header_proxy_authorization.yml", line: 5, fragment: "the proxy-authorization header cannot be set in headers"},
	{file: "header_space.yml", line: 5, fragment: "invalid header name \"X Tenant\""},
	{file: "header_colon.yml", line: 5, fragment: "invalid header name \"X-Tenant:\""},
	{file: "header_env_typo.yml", line: 5, fragment: "unknown key \"envv\" in an env-backed header"},
	{file: "http_bare_timeout.yml", line: 5, fragment: "timeout needs a unit, found the bare number 30"},
	{file: "http_bad_duration.yml", line: 5, fragment: "invalid connect_timeout \"5 seconds\""},
	{file: "http_max_redirects.yml", line: 5, fragment: "expected max_redirects (an integer from 0 to 50)"},
	{file: "tls_min_version_float.yml", line: 5, fragment: "found the number 1.2"},
	{file: "tls_min_version_old.yml", line: 6, fragment: "unknown TLS min_version \"1.1\""},
	{file: "cassette_empty.yml", line: 3, fragment: "expected cassette (the path of a recording) (a non-empty string)"},
	{file: "variable_both.yml", line: 7, fragment: "a variable takes only one of \"value\" or \"from_env\", found \"value\" and \"from_env\""},
	{file: "variable_neither.yml", line: 6, fragment: "a variable needs one of \"value\" or \"from_env\""},
	{file: "variable_bad_name.yml", line: 5, fragment: "invalid variable name \"api-base\""},
	{file: "variable_scalar.yml", line: 5, fragment: "expected a variable (an object with value: or from_env:)"},
	{file: "variable_default_with_value.yml", line: 7, fragment: "default only applies to a from_env variable"},
	{file: "var_required_missing.yml", line: 9, fragment: "variable MCPTEST_CORPUS_UNSET_TOKEN is required here", loaderOnly: true},
	{file: "var_unterminated.yml", line: 9, fragment: "has no closing \"}\"", loaderOnly: true},
	{file: "var_empty_ref.yml", line: 9, fragment: "names no variable", loaderOnly: true},
	{file: "var_bad_operator.yml", line: 9, fragment: "write :-default or :?message", loaderOnly: true},
	{file: "var_bad_name_in_ref.yml", line: 9, fragment: "invalid variable name \"1DIR\"", loaderOnly: true},
	{file: "import_missing.yml", line: 1, fragment: "cannot import \"./does-not-exist.yml\": file not found", loaderOnly: true},
	{file: "import_not_list.yml", line: 1, fragment: "expected imports (an array)"},
	{file: "import_self.yml", line: 2, fragment: "import cycle: testdata/invalid/import_self.yml → testdata/invalid/import_self.yml", loaderOnly: true},
	{file: "import_cycle.yml", line: 2, fragment: "import cycle: testdata/invalid/import_cycle.yml → testdata/invalid/imports/cycle_b.yml → testdata/invalid/import_cycle.yml", loaderOnly: true},
	{file: "import_no_servers.yml", line: 1, fragment: "missing required key \"servers\" in the suite", loaderOnly: true},
	{file: "tool_cassette_key.yml", line: 8, fragment: "cassette replay is set on a server"},
	{file: "inject_error_dangling.yml", line: 11, fragment: "unknown fixture \"throtled\" (did you mean \"throttled\"?)", loaderOnly: true},
	{file: "inject_error_no_fixtures.yml", line: 8, fragment: "no fixture is declared; declare it under fixtures.errors", loaderOnly: true},
	{file: "profile_unknown.yml", line: 8, fragment: "unknown profile \"slow\""},
	{file: "threshold_above_one.yml", line: 8, fragment: "threshold must be between 0 and 1, found 1.5"},
	{file: "threshold_percent.yml", line: 8, fragment: "scores are fractions: write 0.8 for 80%"},
	{file: "threshold_negative.yml", line: 10, fragment: "threshold must be between 0 and 1, found -0.1"},
	{file: "weight_zero.yml", line: 11, fragment: "expected weight (a number > 0)"},
	{file: "transform_empty.yml", line: 8, fragment: "a transform needs \"request\", \"response\" or both"},
	{file: "transform_bad_quotes.yml", line: 9, fragment: "cannot split a transform command into words", loaderOnly: true},
	{file: "timeout_ms_duration.yml", line: 8, fragment: "fields ending in _ms take a plain number of milliseconds: write 30000"},
	{file: "data_not_objects.yml", line: 8, fragment: "expected a data row (an object), found an integer (1)"},
	{file: "tags_not_strings.yml", line: 8, fragment: "expected an element of tags (a string), found an object"},
	{file: "regex_invalid.yml", line: 10, fragment: "invalid regular expression: missing closing )", loaderOnly: true},
	{file: "regex_lookahead.yml", line: 11, fragment: "lookarounds are not supported", loaderOnly: true},
	{file: "anyof_empty.yml", line: 10, fragment: "anyOf needs at least one matcher, found an empty array"},
	{file: "allof_empty.yml", line: 11, fragment: "allOf needs at least one matcher, found an empty array"},
	{file: "oneof_not_array.yml", line: 11, fragment: "expected oneOf (an array of matchers), found an object"},
	{file: "not_wraps_snapshot.yml", line: 11, fragment: "not cannot wrap snapshot", loaderOnly: true},
	{file: "anyof_wraps_judge.yml", line: 13, fragment: "anyOf cannot wrap llm-judge", loaderOnly: true},
	{file: "nested_matcher_two_keys.yml", line: 11, fragment: "a matcher has exactly one key, found 2: \"exact\" and \"regex\""},
	{file: "matcher_renamed.yml", line: 10, fragment: "\"equals\" is not a v1 matcher (it is \"exact\" in v1)"},
	{file: "llm_judge_no_rubric.yml", line: 11, fragment: "missing required key \"rubric\" in an llm-judge argument"},
	{file: "llm_judge_threshold.yml", line: 11, fragment: "threshold must be between 0 and 1, found 7"},
	{file: "jury_no_jurors.yml", line: 11, fragment: "expected jurors (an array) with at least one element"},
	{file: "levenshtein_negative.yml", line: 11, fragment: "expected max (an integer ≥ 0), found an integer (-1)"},
	{file: "is_sql_options.yml", line: 11, fragment: "is-sql takes no options"},
	{file: "schema_string.yml", line: 10, fragment: "expected a JSON Schema (an object), found a string (\"array\")"},
	{file: "icontains_number.yml", line: 10, fragment: "expected the icontains argument (a string) (a string), found an integer (5)"},
	{file: "snapshot_bad_update.yml", line: 11, fragment: "expected update (true or false)"},
	{file: "similar_unknown_field.yml", line: 11, fragment: "unknown key \"treshold\" in a similar argument (did you mean \"threshold\"?)"},
	{file: "assert_set_nested.yml", line: 11, fragment: "assert-sets do not nest", loaderOnly: true},
	{file: "assert_set_with_target.yml", line: 9, fragment: "\"target\" does not go beside assert-set"},
	{file: "expect_long_no_assertions.yml", line: 9, fragment: "missing required key \"assertions\" in the long form of expect"},
	{file: "header_check_two_predicates.yml", line: 11, fragment: "a header check takes only one of \"regex\", \"schema\", \"exists\" or \"contains\", found \"regex\" and \"exists\""},
	{file: "max_duration_in_assertion.yml", line: 11, fragment: "step budgets go in the long form of expect"},
	{file: "response_headers_absent_bad.yml", line: 10, fragment: "invalid header name \"set cookie\""},
	{file: "metric_self.yml", line: 14, fragment: "derived metric \"m\" refers to itself", loaderOnly: true},
	{file: "metric_later.yml", line: 10, fragment: "derived metric \"first\" refers to \"second\", which is declared after it", loaderOnly: true},
	{file: "metric_bad_aggregation.yml", line: 10, fragment: "unknown key \"weighted_avg\" in a derived metric value (did you mean \"weighted_average\"?)"},
	{file: "fixture_duplicate.yml", line: 7, fragment: "duplicate fixture name \"expired\"", loaderOnly: true},
	{file: "fixture_tool_and_applies_to.yml", line: 10, fragment: "a fixture takes only one of \"tool\" or \"applies_to\", found \"tool\" and \"applies_to\""},
	{file: "fixture_no_scope.yml", line: 6, fragment: "a fixture needs one of \"tool\" or \"applies_to\""},
	{file: "fixture_applies_to_bad.yml", line: 6, fragment: "unknown applies_to \"all\""},
	{file: "fixture_code_string.yml", line: 6, fragment: "expected code (a JSON-RPC error code) (an integer)"},
	{file: "rubric_unknown_ref.yml", line: 10, fragment: "unknown rubric \"helpfull\" (did you mean \"helpful\"?)", loaderOnly: true},
	{file: "rubric_unknown_preset.yml", line: 8, fragment: "unknown rubric preset \"kindness\""},
	{file: "rubric_unknown_aggregation.yml", line: 9, fragment: "unknown aggregation \"average\""},
	{file: "rubric_unknown_scale.yml", line: 9, fragment: "unknown scale \"stars\""},
	{file: "rubric_criteria_and_tree.yml", line: 10, fragment: "a rubric takes criteria or tree, not both"},
	{file: "rubric_empty.yml", line: 8, fragment: "a rubric needs criteria or tree"},
	{file: "rubric_tree_aggregation.yml", line: 9, fragment: "a tree rubric takes no aggregation"},
	{file: "rubric_tree_ask_and_score.yml", line: 9, fragment: "a tree node is a question (ask) or a leaf (score), not both"},
	{file: "rubric_tree_missing_no.yml", line: 10, fragment: "a question node needs \"no\""},
	{file: "rubric_ref_with_criteria.yml", line: 12, fragment: "\"criteria\" does not go beside ref"},
	{file: "rubric_named_ref.yml", line: 6, fragment: "a named rubric cannot refer to another", loaderOnly: true},
	{file: "likert_reversed.yml", line: 9, fragment: "a likert scale needs max > min", loaderOnly: true},
	{file: "criterion_when_both.yml", line: 12, fragment: "a when predicate takes only one of \"contains\" or \"regex\""},
	{file: "judge_aggregate_without_panel.yml", line: 9, fragment: "aggregate only applies to a panel"},
	{file: "eval_unknown_server.yml", line: 6, fragment: "unknown server \"remote\" (declared servers: local)", loaderOnly: true},
	{file: "matrix_empty.yml", line: 9, fragment: "a matrix needs \"models\", \"prompts\" or both"},
	{file: "hook_map_without_mode.yml", line: 6, fragment: "missing required key \"mode\" in a hook step (a hook written as a map must say mode: context"},
	{file: "hook_bad_mode.yml", line: 6, fragment: "unknown hook mode \"json\""},
	{file: "hooks_snake_case.yml", line: 5, fragment: "unknown key \"before_all\" in the hooks block (did you mean \"beforeAll\"?)"},
	{file: "hook_empty_phase.yml", line: 5, fragment: "a hook phase needs at least one command"},
	{file: "target_version_unknown.yml", line: 6, fragment: "unknown protocol revision \"2026-03-26\""},
	{file: "target_version_typo.yml", line: 4, fragment: "did you mean \"2025-11-25\"?"},
	{file: "top_level_test.yml", line: 4, fragment: "tests go in a list under tools:"},
	{file: "composition_ref_not_in_needs.yml", line: 10, fragment: "${a.first.url} refers to node \"a\", which is not in needs", loaderOnly: true},
	{file: "composition_cycle.yml", line: 8, fragment: "needs form a cycle: a → b → a", loaderOnly: true},
	{file: "composition_unknown_need.yml", line: 8, fragment: "needs names no node: \"serch\" (did you mean \"search\"?)", loaderOnly: true},
	{file: "composition_duplicate_id.yml", line: 8, fragment: "duplicate node id \"a\"", loaderOnly: true},
	{file: "composition_self_need.yml", line: 7, fragment: "node \"a\" needs itself", loaderOnly: true},
	{file: "composition_bad_output.yml", line: 6, fragment: "output names no node: \"z\"", loaderOnly: true},
	{file: "agent_model_and_models.yml", line: 8, fragment: "an agent test takes only one of \"model\" or \"models\""},
	{file: "agent_no_prompt.yml", line: 5, fragment: "missing required key \"prompt\" in an agent test"},
	{file: "agent_unknown_fault.yml", line: 11, fragment: "unknown fault \"stcuk\" (did you mean \"stuck\"?)", loaderOnly: true},
	{file: "agent_unknown_provider.yml", line: 7, fragment: "unknown provider \"openrouter\"", loaderOnly: true},
	{file: "agent_unknown_server.yml", line: 7, fragment: "unknown server \"weather\"", loaderOnly: true},
	{file: "agent_time_budget_bare.yml", line: 9, fragment: "time_budget needs a unit, found the bare number 30"},
	{file: "fault_bad_kind.yml", line: 5, fragment: "unknown fault kind \"crash\""},
	{file: "fault_slow_without_delay.yml", line: 5, fragment: "a slow fault needs delay_ms"},
	{file: "fault_empty_target.yml", line: 5, fragment: "a fault target needs \"tool\", \"server\" or both"},
	{file: "provider_bad_type.yml", line: 5, fragment: "unknown provider type \"anthropic\""},
	{file: "provider_negative_price.yml", line: 9, fragment: "expected input_per_mtok (US dollars per million input tokens) (a number >= 0), found an integer (-1)"},
	{file: "scorer_exec_without_command.yml", line: 5, fragment: "an exec scorer needs \"command\""},
	{file: "eval_unknown_scorer.yml", line: 11, fragment: "unknown scorer \"factulity\" (did you mean \"factuality\"?)", loaderOnly: true},
	{file: "scorer_duplicate_name.yml", line: 6, fragment: "duplicate scorer name \"factuality\"", loaderOnly: true},
	{file: "client_bad_action.yml", line: 6, fragment: "unknown elicitation action \"acept\" (did you mean \"accept\"?"},
	{file: "client_decline_content.yml", line: 7, fragment: "content applies to the accept and accept_defaults actions only"},
	{file: "client_sampling_no_text.yml", line: 5, fragment: "missing required key \"text\" in a sampling mock"},
	{file: "client_root_no_uri.yml", line: 6, fragment: "missing required key \"uri\" in a root"},
	{file: "client_unknown_feature.yml", line: 9, fragment: "unknown key \"elicit\" in a client block (did you mean \"elicitation\"?)"},
	{file: "log_level_unknown.yml", line: 8, fragment: "unknown log_level \"verbose\" (one of: debug, info, notice, warning, error, critical, alert, emergency)"},
	{file: "progress_not_bool.yml", line: 8, fragment: "expected progress (true or false), found a string"},
	{file: "progress_on_resource.yml", line: 8, fragment: "progress applies to tool tests only"},
	{file: "subscribe_bad.yml", line: 9, fragment: "missing required key \"tool\" in a trigger"},
	{file: "subscribe_bad.yml", line: 10, fragment: "expected wait_ms (an integer ≥ 1), found an integer (0)"},
	{file: "progress_target_without_progress.yml", loaderOnly: true, want: []string{
		`9:9: /tools/0/expect/0/target: the target "progress.count" reads the progress key, which only a tool test with progress: true has`,
		`16:9: /resources/0/expect/0/target: the target "updates[0]" reads the updates key, which only a resource test with a subscribe block has`,
	}},
	{file: "progress_with_inject_error.yml", line: 15, fragment: "\"progress\" does not apply with inject_error", loaderOnly: true},
}

// TestLoadInvalid loads every file of the corpus and checks its errors.
func TestLoadInvalid(t *testing.T) {
	for _, tc := range invalidCases {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", tc.file)
			s, err := LoadWith(path, testOptions())
			if err == nil {
				t.Fatalf("Load(%s) succeeded, want errors", path)
			}
			if s != nil {
				t.Errorf("Load returned a suite along with errors")
			}
			if !errors.Is(err, ErrInvalidSuite) {
				t.Errorf("errors.Is(err, ErrInvalidSuite) = false")
			}
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error is %T, want Errors", err)
			}
			if tc.want == nil {
				for _, e := range errs {
					if e.Line == tc.line && strings.Contains(e.Error(), tc.fragment) {
						return
					}
				}
				t.Errorf("no error on line %d containing %q; got:\n%v", tc.line, tc.fragment, err)
				return
			}
			var got []string
			for _, e := range errs {
				if e.File != path {
					t.Errorf("error file = %q, want %q", e.File, path)
				}
				got = append(got, strings.TrimPrefix(e.Error(), path+":"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors of %s:\n got: %s\nwant: %s", path,
					strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
			}
			if err.Error() != errs.Error() || !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

// TestInvalidCasesCoverTestdata keeps the table and the directory in step,
// and the corpus at its promised size.
func TestInvalidCasesCoverTestdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.yml"))
	var listed []string
	for _, tc := range invalidCases {
		listed = append(listed, tc.file)
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s has no entry in invalidCases", f)
		}
	}
	for _, l := range listed {
		if !slices.Contains(files, filepath.Join("testdata", "invalid", l)) {
			t.Errorf("invalidCases lists %s, which is not in testdata/invalid", l)
		}
	}
	if len(invalidCases) < 60 {
		t.Errorf("the corpus has %d invalid suites, want at least 60", len(invalidCases))
	}
}
