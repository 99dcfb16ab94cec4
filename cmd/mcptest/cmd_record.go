package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/cassette"
	"github.com/mcptest/mcptest/core/cassette/modeltape"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/run"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/redact"
)

// defaultCassetteDir is where `mcptest record` writes cassettes unless
// --cassette-dir says otherwise.
const defaultCassetteDir = "cassettes"

// recordFlags are the flags of `mcptest record`.
type recordFlags struct {
	pluginFlags
	suiteFlags
	selectFlags
	outputFlags
	cassetteDir string
	// evals records the evals block (its judges' calls) instead of the
	// other tests, as mcptest eval would run it.
	evals bool
	// judging holds --judge-model and --agent-model for --evals.
	judging judgeFlags
}

// cmdRecord runs suites live, like run without the result cache, and
// writes one cassette per recorded server (docs/cassettes.md).
func cmdRecord(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f recordFlags
	fs := newFlagSet("record", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest record [flags] SUITE.yml... (or --config SUITE.yml)")
		fs.PrintDefaults()
	}
	fs.StringVar(&f.cassetteDir, "cassette-dir", defaultCassetteDir, "write the cassettes into this folder, one SERVER.json per server")
	fs.BoolVar(&f.evals, "evals", false, "record the evals block, as mcptest eval runs it: each eval's judge calls (and live agent run) go into the cassette of its server")
	f.judging.registerModels(fs)
	f.outputFlags.register(fs)
	f.pluginFlags.register(fs)
	f.suiteFlags.register(fs)
	f.selectFlags.register(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if len(f.files(fs.Args())) == 0 {
		fmt.Fprintln(stderr, "mcptest record: no suite given; usage: mcptest record [flags] SUITE.yml... (or --config SUITE.yml)")
		return 2
	}
	if f.cassetteDir == "" {
		fmt.Fprintln(stderr, "mcptest record: --cassette-dir is empty")
		return 2
	}
	wireAll, err := f.wireAll()
	if err != nil {
		fmt.Fprintf(stderr, "mcptest record: %v\n", err)
		return 2
	}
	p, reg, code, ok := loadAndPlanFor(f.files(fs.Args()), f.pluginFlags, f.suiteFlags, f.selection(), f.evals, stderr)
	if !ok {
		return code
	}
	if vs := fannedVersions(p); len(vs) > 1 {
		fmt.Fprintf(stderr, "mcptest record: the suites run at %s, and a cassette holds one protocol revision; pick one with --target-version\n",
			strings.Join(vs, ", "))
		return 2
	}
	outputs, err := resolveOutputs(reg, "--reporter", f.reporters, f.output)
	if err != nil {
		fmt.Fprintf(stderr, "mcptest record: %v\n", err)
		return 2
	}

	// One recorder per live server of every suite; cassette servers are
	// replayed, not recorded again.
	recs := map[string]*recording{}
	for _, s := range p.Suites {
		scrub := redact.New(s.Secrets...).Bytes
		for name, srv := range s.Servers {
			if srv.Kind == config.CassetteServer {
				continue
			}
			recs[recordKey(s, name)] = &recording{suite: s.File, server: name, rec: cassette.NewRecorder(name, scrub), models: modeltape.NewRecorder(scrub)}
		}
	}

	code = execution{
		cmd: "record", judging: f.judging, plan: p, registry: reg, outputs: outputs, plugins: f.pluginFlags, noColor: f.noColor,
		opts: run.Options{
			ProtocolVersion: f.targetVersion, Concurrency: f.jobs, WireAll: wireAll,
			// Every request must reach the server to be recorded.
			NoCache: true,
			OnCall: func(suite *config.Suite, srv *config.Server, sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
				if r := recs[recordKey(suite, srv.Name)]; r != nil {
					r.rec.Observe(sess, method, params, out, err)
				}
			},
			// Agent tests' model exchanges go into the cassette of their
			// first server, so replaying it needs no model key.
			ModelRecorder: func(suite *config.Suite, server string) *modeltape.Recorder {
				if r := recs[recordKey(suite, server)]; r != nil {
					return r.models
				}
				return nil
			},
		},
	}.execute(ctx, stdout, stderr)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "mcptest record: interrupted; no cassette written")
		return code
	}
	if !writeCassettes(recs, f.cassetteDir, stderr) {
		return 2
	}
	return code
}

// recording is the recorder of one server of one suite, and of the model
// exchanges of the agent tests whose first server it is.
type recording struct {
	suite, server string
	rec           *cassette.Recorder
	models        *modeltape.Recorder
}

func recordKey(s *config.Suite, server string) string { return s.File + "\x00" + server }

// cassetteFile is the file name of a server's cassette: the server's name,
// with characters other than letters, digits, '.', '-' and '_' replaced by
// '_', and ".json".
func cassetteFile(server string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, server)
	if strings.Trim(name, ".") == "" {
		name = "_" + name
	}
	return name + ".json"
}

// writeCassettes writes the cassette of every server that answered at
// least one request. Two servers that would share a file are refused
// rather than overwrite each other.
func writeCassettes(recs map[string]*recording, dir string, stderr io.Writer) bool {
	byFile := map[string][]*recording{}
	for _, r := range recs {
		if r.rec.Empty() && r.models.Empty() {
			continue
		}
		path := filepath.Join(dir, cassetteFile(r.server))
		byFile[path] = append(byFile[path], r)
	}
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	ok := true
	for _, path := range paths {
		rs := byFile[path]
		if len(rs) > 1 {
			var who []string
			for _, r := range rs {
				who = append(who, fmt.Sprintf("%q in %s", r.server, r.suite))
			}
			sort.Strings(who)
			fmt.Fprintf(stderr, "mcptest record: servers %s would share %s; record those suites separately, with different --cassette-dir\n", strings.Join(who, " and "), path)
			ok = false
			continue
		}
		c := rs[0].rec.Cassette()
		if sec := rs[0].models.Section(); sec != nil {
			raw, err := sec.Encode()
			if err != nil {
				fmt.Fprintf(stderr, "mcptest record: %s: model exchanges: %v\n", path, err)
				ok = false
				continue
			}
			c.Models = raw
		}
		if err := c.WriteFile(path); err != nil {
			fmt.Fprintf(stderr, "mcptest record: %v\n", err)
			ok = false
			continue
		}
		if n := rs[0].models.Runs(); n > 0 {
			fmt.Fprintf(stderr, "mcptest record: wrote %s (server %q, %d exchanges, model exchanges of %d agent runs)\n", path, rs[0].server, len(c.Exchanges), n)
		} else {
			fmt.Fprintf(stderr, "mcptest record: wrote %s (server %q, %d exchanges)\n", path, rs[0].server, len(c.Exchanges))
		}
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "mcptest record: no server answered a request; no cassette written")
	}
	return ok
}

// fannedVersions lists the protocol revisions the plan's tests run at
// because their suites list target_versions, in first-use order.
func fannedVersions(p *plan.Plan) []string {
	var out []string
	for _, t := range p.Tests {
		if v := t.ProtocolVersion; v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
