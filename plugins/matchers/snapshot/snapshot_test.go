package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

func TestRecordThenCompare(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	value := `{"tools":[{"name":"echo","id":12345678901234567890}],"count":1.0,"html":"<b>&</b>"}`
	c.MustPass(match(t, c, run{dir: dir, arg: `"lists-tools"`, actual: value}))
	want := `{
  "count": 1.0,
  "html": "<b>&</b>",
  "tools": [
    {
      "id": 12345678901234567890,
      "name": "echo"
    }
  ]
}
`
	if got := readFile(t, dir, "lists-tools.json"); got != want {
		t.Fatalf("recorded file:\n%s\nwant:\n%s", got, want)
	}
	info, _ := os.Stat(filepath.Join(dir, "snapshots", "lists-tools.json"))

	// Same value with other key order and number spelling: still a match,
	// and the file is left untouched.
	c.MustPass(match(t, c, run{dir: dir, arg: `"lists-tools"`, actual: `{"html":"<b>&</b>","count":1,"tools":[{"name":"echo","id":1.2345678901234567890e19}]}`}))
	after, _ := os.Stat(filepath.Join(dir, "snapshots", "lists-tools.json"))
	if readFile(t, dir, "lists-tools.json") != want || !after.ModTime().Equal(info.ModTime()) {
		t.Error("a matching run changed the file")
	}
}

func TestMismatchFails(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	c.MustPass(match(t, c, run{dir: dir, arg: `"lists-tools-content"`, actual: `{"name":"echo","tags":["a","b"],"n":1}`}))
	f := c.Failure(match(t, c, run{dir: dir, arg: `"lists-tools-content"`, actual: `{"name":"echo","tags":["a","c"],"n":1}`}))

	if got := c.Text(f["note"]); got != "snapshot at snapshots/lists-tools-content.json did not match (run with --update-snapshots to refresh)" {
		t.Errorf("note = %q", got)
	}
	if got := c.Text(f["snapshot"]); got != "snapshots/lists-tools-content.json" {
		t.Errorf("snapshot = %q", got)
	}
	if string(f["expected"]) != `{"n":1,"name":"echo","tags":["a","b"]}` || string(f["actual"]) != `{"n":1,"name":"echo","tags":["a","c"]}` {
		t.Errorf("expected %s, actual %s", f["expected"], f["actual"])
	}
	diff := c.Text(f["diff"])
	for _, want := range []string{"--- snapshots/lists-tools-content.json (recorded)", "+++ current value", `-    "b"`, `+    "c"`, `     "a",`} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	// A failure leaves the recording alone.
	if !strings.Contains(readFile(t, dir, "lists-tools-content.json"), `"b"`) {
		t.Error("a failing run rewrote the snapshot")
	}
}

func TestTypeChangeFails(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	c.MustPass(match(t, c, run{dir: dir, arg: `"n"`, actual: `5`}))
	f := c.Failure(match(t, c, run{dir: dir, arg: `"n"`, actual: `"5"`}))
	if string(f["expected"]) != `5` || string(f["actual"]) != `"5"` {
		t.Errorf("expected %s, actual %s", f["expected"], f["actual"])
	}
}

func TestMultiLineTextDiffsByLine(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	c.MustPass(match(t, c, run{dir: dir, arg: `"page"`, actual: `"line one\nline two\nline three"`}))
	f := c.Failure(match(t, c, run{dir: dir, arg: `"page"`, actual: `"line one\nline 2\nline three"`}))
	diff := c.Text(f["diff"])
	if !strings.Contains(diff, "-line two\n+line 2\n") {
		t.Errorf("diff:\n%s", diff)
	}
}

func TestUpdateFlagRewrites(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	c.MustPass(match(t, c, run{dir: dir, arg: `"x"`, actual: `{"v":1}`}))
	c.Failure(match(t, c, run{dir: dir, arg: `"x"`, actual: `{"v":2}`}))
	c.MustPass(match(t, c, run{dir: dir, arg: `"x"`, actual: `{"v":2}`, update: true}))
	if got := readFile(t, dir, "x.json"); got != "{\n  \"v\": 2\n}\n" {
		t.Errorf("file after update: %q", got)
	}
	c.MustPass(match(t, c, run{dir: dir, arg: `"x"`, actual: `{"v":2}`}))
}

func TestLongForm(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	c.MustPass(match(t, c, run{dir: dir, arg: `{"name":"lf"}`, actual: `[1]`}))
	// update: false compares like the short form.
	c.Failure(match(t, c, run{dir: dir, arg: `{"name":"lf","update":false}`, actual: `[2]`}))
	// update: true re-records whatever the run's flag says.
	c.MustPass(match(t, c, run{dir: dir, arg: `{"name":"lf","update":true}`, actual: `[2]`}))
	if got := readFile(t, dir, "lf.json"); got != "[\n  2\n]\n" {
		t.Errorf("file after update: %q", got)
	}
	// The short form names the same file.
	c.MustPass(match(t, c, run{dir: dir, arg: `"lf"`, actual: `[2]`}))
	// update: false does not cancel the run's flag.
	c.MustPass(match(t, c, run{dir: dir, arg: `{"name":"lf","update":false}`, actual: `[3]`, update: true}))
	if got := readFile(t, dir, "lf.json"); got != "[\n  3\n]\n" {
		t.Errorf("file after update: %q", got)
	}
}

func TestKeysToFiles(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	for key, file := range map[string]string{
		"tools/echo/baseline": "tools/echo/baseline.json",
		"page.txt":            "page.txt",
		"nested/out.html":     "nested/out.html",
		"v1.2/base":           "v1.2/base.json",
		".hidden":             ".hidden.json",
		"ünïcode key":         "ünïcode key.json",
	} {
		c.MustPass(match(t, c, run{dir: dir, arg: str(key), actual: `"v"`}))
		if got := readFile(t, dir, file); got != "\"v\"\n" {
			t.Errorf("%s: file %s holds %q", key, file, got)
		}
	}
}

func TestEscapingKeysAreRefused(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	for _, tc := range []struct{ arg, want string }{
		{`"../outside"`, `has a ".." part`},
		{`"a/../../outside"`, `has a ".." part`},
		{`"./a"`, `has a "." part`},
		{`"/etc/passwd"`, "is an absolute path"},
		{`"C:/x"`, "is an absolute path"},
		{`"a\\b"`, `nest keys with "/"`},
		{`"a//b"`, "has an empty part"},
		{`"a/"`, "has an empty part"},
		{`""`, "the snapshot key is empty"},
		{`"a\u0000b"`, "NUL"},
		{`{"name":"../x","update":true}`, `has a ".." part`},
		{`{"update":true}`, `missing field "name"`},
		{`{"name":5}`, `field "name" must be a string, got a number`},
		{`{"name":"x","update":"yes"}`, `field "update" must be true or false, got a string`},
		{`{"name":"x","force":true}`, `unknown field "force" (the fields are name and update)`},
		{`42`, "expected a snapshot key (a string) or {name: KEY, update: BOOL}, got a number"},
		{`null`, "got null"},
		{``, "an argument is required"},
	} {
		if got := c.MustRefuse(matcherKey, tc.arg, tc.want); !strings.HasPrefix(got, "invalid matcher argument: snapshot: ") {
			t.Errorf("%s: error %q lacks the invalid-argument marker", tc.arg, got)
		}
	}
	for _, ok := range []string{`"a"`, `"a/b/c.json"`, `{"name":"a"}`, `{"name":"a","update":true}`} {
		if err := c.Check(matcherKey, ok); err != nil {
			t.Errorf("%s refused: %s", ok, err)
		}
	}
	r := match(t, c, run{dir: filepath.Join(dir, "suite"), arg: `"../../escaped"`, actual: `1`, update: true})
	if r.ErrorKind != plugintest.ErrorKindInvalidArgument {
		t.Errorf("escaping key at match time: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "escaped.json")); !os.IsNotExist(err) {
		t.Error("a file was written outside the snapshots folder")
	}
}

func TestSymlinkOutsideIsRefused(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "snapshots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "snapshots", "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	r := match(t, c, run{dir: dir, arg: `"link/x"`, actual: `1`})
	if r.Error == "" || r.ErrorKind != plugintest.ErrorKindInternal {
		t.Errorf("want an error, got %+v", r)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote through the link: %v", entries)
	}
}

func TestCorruptSnapshot(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "snapshots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshots", "bad.json"), []byte("<<<<<<< HEAD\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := match(t, c, run{dir: dir, arg: `"bad"`, actual: `1`})
	if r.ErrorKind != plugintest.ErrorKindInternal || !strings.Contains(r.Error, "snapshot at snapshots/bad.json is not valid JSON") || !strings.Contains(r.Error, "--update-snapshots") {
		t.Errorf("got %+v", r)
	}
	c.MustPass(match(t, c, run{dir: dir, arg: `"bad"`, actual: `1`, update: true}))
	if got := readFile(t, dir, "bad.json"); got != "1\n" {
		t.Errorf("file = %q", got)
	}
}

func TestSuiteDirectory(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	// Without suite_dir, the suite file's folder is used.
	res, err := c.Matcher.Match(t.Context(), []plugintest.MatchItem{{
		ID: 1, Key: "snapshot", Actual: []byte(`1`), Argument: []byte(`"k"`),
		Options: sdk.MatchOptions{SuiteFile: filepath.Join(dir, "suite.yml")},
	}, {
		ID: 2, Key: "snapshot", Actual: []byte(`1`), Argument: []byte(`"k"`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	c.MustPass(res[0])
	readFile(t, dir, "k.json")
	if !strings.Contains(res[1].Error, "no suite directory") {
		t.Errorf("without a suite directory: %+v", res[1])
	}
}

func TestLargeValuesAreSummarised(t *testing.T) {
	c, dir := conn(t), t.TempDir()
	big := func(s string) string { return `{"blob":"` + strings.Repeat(s, maxShownBytes) + `"}` }
	c.MustPass(match(t, c, run{dir: dir, arg: `"big"`, actual: big("a")}))
	f := c.Failure(match(t, c, run{dir: dir, arg: `"big"`, actual: big("b")}))
	if e := c.Text(f["expected"]); !strings.Contains(e, "bytes of JSON; see the diff") {
		t.Errorf("expected = %.80q", e)
	}
	if !strings.Contains(c.Text(f["diff"]), `+  "blob": "bbbb`) {
		t.Error("diff does not show the change")
	}
}

func TestDescribe(t *testing.T) {
	d := newPlugin().Describe()
	if d.Name != "snapshot" || d.Version != "0.1.0" {
		t.Errorf("name/version = %s %s", d.Name, d.Version)
	}
	if len(d.Components) != 1 || d.Components[0].Kind != sdk.KindMatcher || !reflect.DeepEqual(d.Components[0].Keys, []string{"snapshot"}) {
		t.Errorf("components = %+v", d.Components)
	}
}

// str encodes s as a JSON string.
func str(s string) string { return string(sdk.JSON(s)) }
