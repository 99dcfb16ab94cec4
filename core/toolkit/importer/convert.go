package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// Options steer a conversion.
type Options struct {
	// Out is the path of the suite to write; fixture paths are made
	// relative to its directory.
	Out string
	// Fixture is the directory {{fixture}} stands for (mcp-assert's
	// --fixture); empty means a "fixtures" folder beside each file.
	Fixture string
	// NPMPrefix, when set, turns `npx PKG` into `node` and the package's
	// installed bin under PREFIX/node_modules, so nothing is downloaded.
	NPMPrefix string
	// Commands rewrites server commands (--command-map), before the npx
	// rewrite.
	Commands CommandMap
	// ShareServers keeps one process per deduplicated command server for
	// the whole run (restart_policy per_run), except for servers with a
	// fixture, which keep the default. By default (restart_policy
	// after_write) a test gets a fresh process whenever the test before
	// it could have changed the server's state (a write, a tool the
	// server does not annotate read-only, a failure, a crash): the
	// isolation mcp-assert gives by starting a server per file, as far as
	// the server's own annotations tell, without its cost.
	ShareServers bool
	// StrictIsolation gives every test a process of its own
	// (restart_policy per_test), exactly as mcp-assert does, even after
	// tests that only read.
	StrictIsolation bool
}

// The restart policies the importer writes.
const (
	policyPerTest    = "per_test"
	policyAfterWrite = "after_write"
)

// isolation is the restart_policy of a command server that must not
// share state between tests: per_test with StrictIsolation, else
// after_write.
func (o Options) isolation() string {
	if o.StrictIsolation {
		return policyPerTest
	}
	return policyAfterWrite
}

// Issue is one construct that was not converted (or converted with a
// caveat, when Note is set).
type Issue struct {
	File string
	Line int
	Msg  string
	// Note is true for a conversion that happened with a caveat.
	Note bool
}

func (i Issue) String() string {
	kind := "not converted"
	if i.Note {
		kind = "note"
	}
	return fmt.Sprintf("%s:%d: %s: %s", i.File, i.Line, kind, i.Msg)
}

// Result is the converted suite and what could not be converted.
type Result struct {
	Suite *Suite
	// Converted counts the files that became a test.
	Converted int
	Files     int
	Issues    []Issue
	// Traces are the JSONL trace files of converted trajectory files, by
	// path relative to the suite; the caller writes them beside it.
	Traces map[string][]byte
}

// Convert reads every mcp-assert file under paths (directories are
// walked for *.yaml and *.yml, skipping fixtures folders).
func Convert(paths []string, opt Options) (*Result, error) {
	files, err := collect(paths)
	if err != nil {
		return nil, err
	}
	c := &converter{opt: opt, res: &Result{Suite: &Suite{Servers: map[string]*Server{}}, Traces: map[string][]byte{}}, byKey: map[string]string{}}
	for _, f := range files {
		c.res.Files++
		c.file(f)
	}
	return c.res, nil
}

func collect(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "fixtures" {
				return filepath.SkipDir
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
	}
	sort.Strings(out)
	return out, nil
}

type converter struct {
	opt   Options
	res   *Result
	byKey map[string]string
}

func (c *converter) issue(file string, line int, note bool, format string, args ...any) {
	c.res.Issues = append(c.res.Issues, Issue{File: file, Line: line, Msg: fmt.Sprintf(format, args...), Note: note})
}

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })

// file converts one assertion file, or records why not.
func (c *converter) file(path string) {
	a, doc, err := readFile(path)
	if err != nil {
		line := 1
		if m := regexp.MustCompile(`line (\d+)`).FindStringSubmatch(err.Error()); m != nil {
			fmt.Sscan(m[1], &line)
		}
		c.issue(path, line, false, "%v", err)
		return
	}
	switch {
	case a.Trace.Kind != 0 || a.Trajectory.Kind != 0:
		c.trajectory(path, doc, a)
		return
	case a.Sampling.Kind != 0:
		c.issue(path, lineOf(doc, "assert_sampling"), false, "assert_sampling has no converter yet (use client.sampling and server_requests by hand)")
		return
	case a.Notifications.Kind != 0:
		c.issue(path, lineOf(doc, "assert_notifications"), false, "assert_notifications has no converter yet (use the notifications target by hand)")
		return
	case a.Server == nil:
		c.issue(path, 1, false, "no server block")
		return
	}
	server, ok := c.server(path, doc, a)
	if !ok {
		return
	}
	t := Test{Name: a.Name, Server: server}
	if t.Name == "" {
		t.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if a.Timeout != "" {
		d, err := time.ParseDuration(a.Timeout)
		if err != nil {
			c.issue(path, lineOf(doc, "timeout"), false, "timeout %q is not a duration", a.Timeout)
			return
		}
		t.TimeoutMS = int(d.Milliseconds())
	}
	t.Tags = append(t.Tags, "mcp-assert", "from:"+filepath.Base(filepath.Dir(path)))
	if a.Skip {
		t.Tags = append(t.Tags, "mcp-assert-skip")
		c.issue(path, lineOf(doc, "skip"), true, "skip: true became the tag mcp-assert-skip; run with --skip-tag mcp-assert-skip")
	}
	if a.SkipUnlessEnv != "" {
		t.Tags = append(t.Tags, "needs-env:"+a.SkipUnlessEnv)
		c.issue(path, lineOf(doc, "skip_unless_env"), true, "skip_unless_env %s became the tag needs-env:%s; select with --skip-tag when it is unset", a.SkipUnlessEnv, a.SkipUnlessEnv)
	}
	s := c.res.Suite
	switch {
	case a.Assert != nil && len(a.Setup) > 0:
		comp, ok := c.composition(path, doc, a, t)
		if !ok {
			return
		}
		s.Compositions = append(s.Compositions, comp)
	case a.Assert != nil:
		exp, ok := c.expect(path, doc, "assert", &a.Assert.Expect, "result.content", "result.isError")
		if !ok {
			return
		}
		t.Tool, t.Args, t.Expect = a.Assert.Tool, c.args(a.Assert.Args), exp
		if t.Args == nil {
			t.Args = map[string]any{}
		}
		s.Tools = append(s.Tools, t)
	case a.Logging.Kind != 0:
		if !c.logging(path, doc, &a.Logging, t) {
			return
		}
	case a.Resources != nil:
		if !c.resources(path, doc, a.Resources, t) {
			return
		}
	case a.Prompts != nil:
		if !c.prompts(path, doc, a.Prompts, t) {
			return
		}
	case a.Completion != nil:
		if !c.completion(path, doc, a.Completion, t) {
			return
		}
	default:
		c.issue(path, 1, false, "no assert, assert_resources or assert_prompts block")
		return
	}
	if len(a.Setup) > 0 && a.Assert == nil {
		c.issue(path, lineOf(doc, "setup"), false, "setup before a resource or prompt assertion has no mcptest form")
		// The test was added already; setup only changed server state.
	}
	c.res.Converted++
}

// args rewrites {{fixture}} and captured {{name}} placeholders.
func (c *converter) args(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	out, _ := rewrite(v, func(name string) string {
		if name == "fixture" {
			return "${fixture}"
		}
		return "${capture:" + name + "}"
	}).(map[string]any)
	return out
}

func rewrite(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return placeholder().ReplaceAllStringFunc(x, func(m string) string {
			return f(placeholder().FindStringSubmatch(m)[1])
		})
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = rewrite(e, f)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rewrite(e, f)
		}
		return out
	}
	return v
}

// server finds or adds the deduplicated server of a file.
func (c *converter) server(path string, doc *yaml.Node, a *assertFile) (string, bool) {
	b := a.Server
	srv := &Server{Env: b.Env}
	usesFixture := false
	switch {
	case b.URL != "":
		srv.URL = b.URL
		if b.Transport == "sse" {
			srv.HTTP = map[string]any{"transport": "sse"}
		}
		if len(b.Headers) > 0 {
			srv.Headers = b.Headers
		}
	case b.Command != "":
		cmd := append([]string{b.Command}, b.Args...)
		cmd = c.npx(c.opt.Commands.apply(cmd))
		for i, part := range cmd {
			if strings.Contains(part, "{{") {
				usesFixture = usesFixture || strings.Contains(part, "fixture")
				cmd[i] = placeholder().ReplaceAllString(part, "$${fixture}")
			}
		}
		srv.Command = cmd
		if !c.opt.ShareServers {
			srv.RestartPolicy = c.opt.isolation()
		}
	default:
		c.issue(path, lineOf(doc, "server"), false, "server has neither command nor url")
		return "", false
	}
	raw, _ := yaml.Marshal(a)
	fixtureAbs := ""
	if strings.Contains(string(raw), "{{fixture}}") || usesFixture {
		dir := c.opt.Fixture
		if dir == "" {
			dir = filepath.Join(filepath.Dir(path), "fixtures")
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			c.issue(path, lineOf(doc, "server"), false, "uses {{fixture}} but %s is not a directory (give --fixture DIR)", dir)
			return "", false
		}
		if srv.URL != "" {
			c.issue(path, lineOf(doc, "server"), false, "{{fixture}} with a url server: mcptest copies fixtures only for command servers")
			return "", false
		}
		srv.Fixture = c.rel(dir)
		srv.RestartPolicy = c.opt.isolation()
		fixtureAbs, _ = filepath.Abs(dir)
	}
	if cc := b.ClientCapabilities; cc != nil {
		client := map[string]any{}
		if cc.Roots != nil {
			rs, noted := roots(cc.Roots, fixtureAbs)
			client["roots"] = rs
			if noted {
				c.issue(path, lineOf(doc, "server"), true, "a {{fixture}} root names the fixture directory itself, not the per-test copy")
			}
		}
		if cc.Sampling != nil {
			client["sampling"] = cc.Sampling
		}
		if cc.Elicitation != nil {
			el := map[string]any{}
			for k, v := range cc.Elicitation {
				el[k] = v
			}
			if _, ok := el["action"]; !ok {
				// mcp-assert accepts when it is given content alone.
				el["action"] = "accept"
			}
			client["elicitation"] = el
		}
		srv.Client = client
	}
	key, _ := json.Marshal(srv)
	if name, ok := c.byKey[string(key)]; ok {
		return name, true
	}
	base := sanitize(filepath.Base(filepath.Dir(path)))
	name := base
	for i := 2; c.res.Suite.Servers[name] != nil; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	c.res.Suite.Servers[name] = srv
	c.byKey[string(key)] = name
	return name, true
}

// npx rewrites `npx [-y] PKG ARGS` to `node BIN ARGS` when PKG is
// installed under the npm prefix.
func (c *converter) npx(cmd []string) []string {
	if c.opt.NPMPrefix == "" || cmd[0] != "npx" {
		return cmd
	}
	rest := cmd[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return cmd
	}
	pkg := rest[0]
	if at := strings.LastIndex(pkg, "@"); at > 0 {
		pkg = pkg[:at]
	}
	dir := filepath.Join(c.opt.NPMPrefix, "node_modules", filepath.FromSlash(pkg))
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return cmd
	}
	var meta struct {
		Bin any `json:"bin"`
	}
	if json.Unmarshal(raw, &meta) != nil {
		return cmd
	}
	var bin string
	switch b := meta.Bin.(type) {
	case string:
		bin = b
	case map[string]any:
		keys := make([]string, 0, len(b))
		for k := range b {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > 0 {
			bin, _ = b[keys[0]].(string)
		}
	}
	if bin == "" {
		return cmd
	}
	abs, err := filepath.Abs(filepath.Join(dir, bin))
	if err != nil {
		return cmd
	}
	// Commands resolve against the directory mcptest runs from, so the
	// script path is absolute.
	return append([]string{"node", abs}, rest[1:]...)
}

// rel makes p relative to the output suite's directory when it can.
func (c *converter) rel(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	outDir, err := filepath.Abs(filepath.Dir(c.opt.Out))
	if err != nil || c.opt.Out == "" {
		return abs
	}
	if r, err := filepath.Rel(outDir, abs); err == nil {
		if !strings.HasPrefix(r, ".") {
			r = "./" + r
		}
		return filepath.ToSlash(r)
	}
	return abs
}

func sanitize(s string) string {
	s = regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(s, "-")
	if s == "" || s == "-" {
		return "server"
	}
	return s
}
