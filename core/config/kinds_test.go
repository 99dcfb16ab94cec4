package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// The schema objects and invalid suites of the lists and completions
// blocks, the lifecycle keys of servers and the suite compliance block,
// added to the shared tables (schema_test.go, corpus_test.go).
func init() {
	schemaObjects = append(schemaObjects, []struct {
		ptr  string
		spec *yamlpos.ObjectSpec
	}{
		{"$defs/listTest", listKeys},
		{"$defs/completionTest", completionKeys},
		{"$defs/completionTest/properties/ref", completionRefKeys},
		{"$defs/completionTest/properties/argument", completionArgumentKeys},
	}...)
	invalidCases = append(invalidCases, []struct {
		file       string
		want       []string
		line       int
		fragment   string
		loaderOnly bool
	}{
		{file: "list_unknown_kind.yml", want: []string{
			`7:11: /lists/0/list: unknown list "tool" (did you mean "tools"? (one of: tools, resources, resource_templates, prompts))`,
		}},
		{file: "list_cursor_with_pages.yml", want: []string{
			`9:5: /lists/0/pages: "pages" does not apply with cursor (cursor reads the one page that starts there)`,
		}, loaderOnly: true},
		{file: "list_pages_string.yml", want: []string{
			`8:12: /lists/0/pages: expected pages (all, or an integer ≥ 1), found a string ("2") (write the number without quotes: 2)`,
		}},
		{file: "completion_ref_both.yml", want: []string{
			`7:27: /completions/0/ref/resource: a completion ref takes only one of "prompt" or "resource", found "prompt" and "resource"`,
		}},
		{file: "completion_context_null.yml", want: []string{
			`9:14: /completions/0/context: expected context (an object of argument values), found null (leave context out to send none; it is never sent as null)`,
		}},
		{file: "completion_argument_no_name.yml", want: []string{
			`8:15: /completions/0/argument: missing required key "name" in a completion argument`,
		}},
		{file: "completion_ref_not_template.yml", line: 7, fragment: `"file:///etc/hosts" is not a URI template`},
		{file: "fixture_variable_reserved.yml", want: []string{
			`5:3: /variables/fixture: the variable name "fixture" is reserved (${fixture} is the path of a server's fixture copy (servers.<name>.fixture); pick another name)`,
		}, loaderOnly: true},
		{file: "fixture_server_has_none.yml", want: []string{
			`12:13: /tools/0/args/path: ${fixture} refers to the fixture of server "docs", which has none (add fixture: ./path/to/dir to servers.docs)`,
		}, loaderOnly: true},
		{file: "fixture_on_url_server.yml", want: []string{
			`4:5: /servers/remote/fixture: "fixture" does not apply to a url: server`,
		}},
		{file: "fixture_not_expanded_here.yml", line: 11, fragment: "${fixture} is not expanded here", loaderOnly: true},
		{file: "restart_policy_unknown.yml", line: 4, fragment: `unknown restart_policy "per_tests" (did you mean "per_test"? (one of: per_run, per_test, after_write))`},
		{file: "restart_policy_after_writes.yml", line: 4, fragment: `unknown restart_policy "after_writes" (did you mean "after_write"?`},
		{file: "http_transport_unknown.yml", line: 5, fragment: `unknown transport "websocket" (one of: streamable, sse)`},
		{file: "compliance_checks_list.yml", line: 7, fragment: `unknown key "checks" in a compliance check`},
	}...)
}

func TestLoadListsAndCompletions(t *testing.T) {
	s, err := LoadWith(filepath.Join("testdata", "valid", "lists_completions.yml"), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Lists) != 5 || len(s.Completions) != 2 {
		t.Fatalf("lists %d, completions %d", len(s.Lists), len(s.Completions))
	}
	all, first, second, tpl := s.Lists[0], s.Lists[1], s.Lists[2], s.Lists[3]
	if all.List != ListTools || all.Pages != 0 || all.MaxPages != DefaultMaxPages || all.Cursor != nil || all.Method() != "tools/list" {
		t.Errorf("all pages: %+v", all)
	}
	if first.Pages != 1 || len(first.Captures) != 1 || first.Captures[0].Name != "next" || first.Method() != "resources/list" {
		t.Errorf("first page: %+v", first)
	}
	if second.Cursor == nil || *second.Cursor != "${capture:next}" {
		t.Errorf("cursor: %+v", second.Cursor)
	}
	if tpl.MaxPages != 5 || tpl.Method() != "resources/templates/list" || tpl.ResultKey() != "resourceTemplates" {
		t.Errorf("templates: %+v", tpl)
	}
	// defaultTest applies to the new kinds like to the others.
	if !slices.Equal(all.Tags, []string{"discovery"}) || !slices.Equal(first.Tags, []string{"paging"}) || !slices.Equal(s.Completions[1].Tags, []string{"discovery"}) {
		t.Errorf("tags: %v %v %v", all.Tags, first.Tags, s.Completions[1].Tags)
	}
	city, path := s.Completions[0], s.Completions[1]
	if got := string(city.Params()); got != `{"argument":{"name":"city","value":"Os"},"context":{"arguments":{"country":"NO"}},"ref":{"name":"travel","type":"ref/prompt"}}` {
		t.Errorf("city params: %s", got)
	}
	// Without context, the request has none: never "context": null.
	if got := string(path.Params()); got != `{"argument":{"name":"path","value":""},"ref":{"type":"ref/resource","uri":"file:///{path}"}}` {
		t.Errorf("path params: %s", got)
	}
}

func TestLoadLifecycle(t *testing.T) {
	s, err := LoadWith(filepath.Join("testdata", "valid", "lifecycle.yml"), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	fs, shared, legacy := s.Servers["fs"], s.Servers["shared"], s.Servers["legacy"]
	wantDir, _ := filepath.Abs(filepath.Join("testdata", "valid", "fixtures", "fs"))
	if fs.Fixture != wantDir || fs.RestartPolicy != RestartPerTest {
		t.Errorf("fs: fixture %q policy %q", fs.Fixture, fs.RestartPolicy)
	}
	// ${fixture} stays as written for the runner, in every place it may
	// appear; $fixture is its short form.
	if fs.Command[3] != "${fixture}" || fs.Env["DATA_DIR"] != "${fixture}/data" {
		t.Errorf("fs command %v env %v", fs.Command, fs.Env)
	}
	if !strings.Contains(string(s.Tools[0].Args), `"${fixture}/note.txt"`) || s.Resources[0].URI != "file://${fixture}/readme.md" ||
		!strings.Contains(string(s.Prompts[0].Args), `"${fixture}"`) || s.Completions[0].Argument.Value != "${fixture}/re" {
		t.Errorf("tests: %s %s %s %s", s.Tools[0].Args, s.Resources[0].URI, s.Prompts[0].Args, s.Completions[0].Argument.Value)
	}
	if shared.RestartPolicy != "" || legacy.HTTP.Transport != TransportSSE || legacy.RestartPolicy != RestartPerTest {
		t.Errorf("shared %q, legacy %q %q", shared.RestartPolicy, legacy.HTTP.Transport, legacy.RestartPolicy)
	}
	c := s.Compliance[0]
	if c.Check != "J*" || !slices.Equal(c.Tags, []string{"protocol"}) || s.Compliance[1].TimeoutMS != 5000 || s.Compliance[1].Profile != ProfileQuick || len(s.Compliance[1].Expect) != 1 {
		t.Errorf("compliance: %+v %+v", c, s.Compliance[1])
	}
}
