package importer

import (
	"path/filepath"
	"strings"
	"testing"
)

// assert_logging becomes a tool test with log_level and checks on logs;
// an expect key with no converter is located.
func TestLoggingBecomesLogLevelTest(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "name: a\nserver: {command: srv}\nassert_logging:\n  set_level: debug\n  tool: echo\n  args: {m: x}\n  expect:\n    min_messages: 1\n    contains_level: [debug]\n    contains_data: [\"x\"]\n")
	write(t, dir, "b.yaml", "name: b\nserver: {command: srv}\nassert_logging:\n  set_level: info\n  tool: echo\n  expect:\n    logger_is: x\n")
	write(t, dir, "c.yaml", "name: c\nserver: {command: srv}\nassert_logging:\n  set_level: loud\n  tool: echo\n")
	res, err := Convert([]string{dir}, Options{Out: filepath.Join(dir, "out.yml")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Converted != 1 || len(res.Suite.Tools) != 1 {
		t.Fatalf("converted %d, issues %v", res.Converted, res.Issues)
	}
	a := res.Suite.Tools[0]
	var cels []string
	for _, e := range a.Expect {
		cels = append(cels, e.Target+" "+e.Matcher["cel"].(string))
	}
	want := `logs value.size() >= 1|logs value.exists(m, m.level == "debug")|logs value.exists(m, type(m.data) == string && m.data.contains("x"))`
	if a.LogLevel != "debug" || a.Tool != "echo" || strings.Join(cels, "|") != want {
		t.Errorf("test = %+v\nchecks %s", a, strings.Join(cels, "|"))
	}
	if len(res.Issues) != 2 || res.Issues[0].Line != 7 || !strings.Contains(res.Issues[0].Msg, "logger_is") || !strings.Contains(res.Issues[1].Msg, `"loud"`) {
		t.Errorf("issues %v", res.Issues)
	}
}
