package plan

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/compliance"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
)

// Compliance is a planned entry of the compliance block: the checks it
// runs, and for the initialize and tools/list sequences the response its
// expect judges.
type Compliance struct {
	// Spec is the entry as loaded.
	Spec *config.ComplianceTest
	// Sequence is SequenceInitialize or SequenceToolsList for those
	// entries, "" for an entry that names checks.
	Sequence string
	// Checks are the compliance checks the entry runs, in report order;
	// never empty.
	Checks []*compliance.Check
}

// The sequences a compliance entry can name: a request whose response
// expect judges, along with the checks that validate that response.
const (
	SequenceInitialize = "initialize"
	SequenceToolsList  = "tools/list"
)

// sequenceChecks are the checks each sequence runs.
var sequenceChecks = map[string][]string{
	SequenceInitialize: {"L01", "L02"},
	SequenceToolsList:  {"T01", "T02", "T06"},
}

// kinds plans the list, completion and compliance tests of a suite, after
// its other tests, and checks the fixture directories of a run.
func (b *builder) kinds(s *config.Suite, names map[string]int, add func(*Test, map[string]bool)) {
	for _, lt := range s.Lists {
		add(&Test{ID: testID(s.File, "lists", lt.Name, names), Kind: KindList, List: lt, Name: lt.Name,
			Options: &lt.TestOptions, Pos: lt.Pos, Server: s.Servers[lt.Server]}, nil)
	}
	for _, ct := range s.Completions {
		add(&Test{ID: testID(s.File, "completions", ct.Name, names), Kind: KindCompletion, Completion: ct, Name: ct.Name,
			Options: &ct.TestOptions, Pos: ct.Pos, Server: s.Servers[ct.Server]}, nil)
	}
	for _, c := range s.Compliance {
		pc := b.complianceEntry(s, c)
		if pc == nil {
			b.plan.Total++ // counted, though it cannot be planned
			continue
		}
		add(&Test{ID: testID(s.File, "compliance", c.Name, names), Kind: KindCompliance, Compliance: pc, Name: c.Name,
			Options: &c.TestOptions, Pos: c.Pos, Server: s.Servers[c.Server]}, nil)
	}
	if b.run {
		b.fixtureDirs(s)
	}
}

// complianceEntry resolves what a compliance entry checks; nil (with the
// errors recorded) when it cannot run.
func (b *builder) complianceEntry(s *config.Suite, c *config.ComplianceTest) *Compliance {
	at := func(field, msg, hint string) {
		ptr := c.Pos.Pointer
		if field != "" {
			ptr += "/" + field
		}
		b.errs = append(b.errs, &config.Error{File: c.Pos.File, Line: c.Pos.Line, Col: c.Pos.Col, Pointer: ptr, Msg: msg, Hint: hint})
	}
	pc := &Compliance{Spec: c}
	ids, isSequence := sequenceChecks[c.Check]
	switch {
	case isSequence:
		pc.Sequence = c.Check
		for _, id := range ids {
			chk, _ := compliance.Lookup(id)
			pc.Checks = append(pc.Checks, chk)
		}
	case strings.HasSuffix(c.Check, "*"):
		prefix := strings.TrimSuffix(c.Check, "*")
		for _, chk := range compliance.All() {
			if strings.HasPrefix(chk.ID, prefix) {
				pc.Checks = append(pc.Checks, chk)
			}
		}
		if len(pc.Checks) == 0 {
			at("check", fmt.Sprintf("no compliance check id starts with %q", prefix), "`mcptest compliance list` lists the checks")
			return nil
		}
	default:
		chk, ok := compliance.Lookup(c.Check)
		if !ok {
			hint := "name a check id (`mcptest compliance list`), a prefix such as \"J*\", \"*\" for every check, or the sequences initialize and tools/list"
			var all []string
			for _, x := range compliance.All() {
				all = append(all, x.ID)
			}
			if g := plugin.Suggest(c.Check, append(all, SequenceInitialize, SequenceToolsList)); g != "" {
				hint = fmt.Sprintf("did you mean %q? (%s)", g, hint)
			}
			at("check", fmt.Sprintf("unknown compliance check %q", c.Check), hint)
			return nil
		}
		pc.Checks = []*compliance.Check{chk}
	}
	good := true
	if len(c.Expect) > 0 && pc.Sequence == "" {
		at("expect", fmt.Sprintf("check %s judges itself; expect applies to the initialize and tools/list sequences", c.Check),
			"remove expect, or check a sequence and assert on its response")
		good = false
	}
	if eo := c.ExpectOptions; eo != nil {
		at("expect", "the long form of expect (step checks) does not apply to compliance checks", "write expect as a list of assertions")
		good = false
	}
	if srv := s.Servers[c.Server]; srv != nil {
		switch {
		case srv.Kind == config.CassetteServer:
			at("server", fmt.Sprintf("compliance checks probe a live server; server %q replays a cassette", srv.Name),
				"point the entry at a command: or url: server")
			good = false
		case srv.Kind == config.URLServer && srv.HTTP.Transport == config.TransportSSE:
			at("server", fmt.Sprintf("compliance checks speak stdio or Streamable HTTP; server %q uses the legacy SSE transport", srv.Name), "")
			good = false
		case srv.Kind == config.URLServer && srv.Auth != nil && srv.Auth.OAuth != nil:
			b.gaps.add(c.Pos, "compliance checks against an OAuth server", "the checks send a bearer token or headers only")
		}
	}
	if !good {
		return nil
	}
	return pc
}

// fixtureDirs checks, for a run, that the fixture of every server a
// selected test of s uses is a directory: a missing one is a located
// error before any server starts.
func (b *builder) fixtureDirs(s *config.Suite) {
	used := map[string]bool{}
	for _, t := range b.plan.Tests {
		if t.Suite == s && t.Server != nil && t.Server.Fixture != "" {
			used[t.Server.Name] = true
		}
		if t.Suite == s && t.Kind == KindComposition {
			for _, n := range t.Composition.Spec.Nodes {
				if srv := s.Servers[n.Server]; srv != nil && srv.Fixture != "" {
					used[srv.Name] = true
				}
			}
		}
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		srv := s.Servers[name]
		fi, err := os.Stat(srv.Fixture)
		msg := ""
		switch {
		case err != nil:
			msg = fmt.Sprintf("fixture %s: %v", srv.Fixture, unwrapPathError(err))
		case !fi.IsDir():
			msg = fmt.Sprintf("fixture %s is not a directory", srv.Fixture)
		default:
			continue
		}
		p := srv.Pos
		b.errs = append(b.errs, &config.Error{File: p.File, Line: p.Line, Col: p.Col, Pointer: p.Pointer + "/fixture", Msg: msg,
			Hint: "fixture names a directory, relative to the suite file, that is copied for the server"})
	}
}

// unwrapPathError drops the path an *os.PathError repeats.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
