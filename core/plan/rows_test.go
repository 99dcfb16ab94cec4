package plan_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
)

// Each data row is its own planned test; its id keeps the name as written
// and the row's suffix, so changing a row's values keeps the id, and the
// ids (hence shards) stay put.
func TestDataRowIDs(t *testing.T) {
	src := `servers:
  s: {command: ["x"]}
tools:
  - name: echoes ${data.msg}
    server: s
    tool: echo
    tags: [rows]
    data: [{name: hi, msg: "hello"}, {msg: "bye"}, {name: hi, msg: again}]
    args: {message: "${data.msg}"}
    expect:
      - {target: "result.content[0].text", matcher: {exact: "${data.msg}"}}
`
	ids := func(src string) []string {
		s := load(t, src)
		p, err := plan.BuildWith([]*config.Suite{s}, registry(t), plan.Options{Run: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tt := range p.Tests {
			out = append(out, strings.TrimPrefix(tt.ID, s.File+"::")+" | "+tt.Name)
		}
		return out
	}
	got := ids(src)
	want := []string{
		"tools::echoes ${data.msg} [hi] | echoes hello [hi]",
		"tools::echoes ${data.msg} [1] | echoes bye [1]",
		"tools::echoes ${data.msg} [hi]#2 | echoes again [hi]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	changed := ids(strings.Replace(src, `msg: "bye"`, `msg: "ciao"`, 1))
	if strings.Split(changed[1], " | ")[0] != strings.Split(want[1], " | ")[0] {
		t.Errorf("a row's id changed with its values: %s", changed[1])
	}
	// --list --json carries each row.
	s := load(t, src)
	p, err := plan.Build([]*config.Suite{s}, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.WriteList(&buf, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var e plan.ListEntry
	if len(lines) != 3 || json.Unmarshal([]byte(lines[1]), &e) != nil || e.Name != "echoes bye [1]" || e.Line != 4 || e.Kind != "tool" || e.Tags[0] != "rows" {
		t.Errorf("list:\n%s", buf.String())
	}
}
