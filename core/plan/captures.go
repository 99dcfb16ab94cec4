package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
)

// Capture is a planned capture: a value a tool, list or completion test
// keeps from its response under a name.
type Capture struct {
	// Spec is the capture as loaded.
	Spec *config.Capture
	// Target is the parsed path into the response envelope.
	Target target.Path
}

// CaptureRef returns the regexp matching a ${capture:NAME} reference;
// group 1 is the name. It is compiled on first use, not at start-up.
var CaptureRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{capture:([^}]*)\}`) })

// producer is a test that declares a capture: a tool, list or completion
// test, identified by its block and its index there.
type producer struct {
	name  string
	block int
	index int
	spec  *config.Capture
}

// blockOrder is the order of the blocks a plan's tests come in; a capture
// can only be read by a test that runs after its producer: one of a later
// block, or a later test of the same block (which also rules out cycles).
var blockOrder = map[string]int{KindTool: 0, KindResource: 1, KindPrompt: 2, KindComposition: 3, KindList: 4, KindCompletion: 5, KindCompliance: 6, KindAgent: 7, KindTrajectory: 8, KindEval: 9}

// linkCaptures plans the captures of a suite's tests and orders every test
// that uses one after the test that produces it. Capture names are unique
// in a suite; a reference to a name no test captures, or to one captured
// by a test that runs later, is a suite error. A producer left out by the
// selection is not an error here: the consumer fails at run time, saying
// so.
func (b *builder) linkCaptures(s *config.Suite, planned []*Test) {
	producers := map[string]producer{}
	var names []string
	declare := func(test string, block, index int, cs []*config.Capture) {
		for _, c := range cs {
			if prev, dup := producers[c.Name]; dup {
				b.errs = append(b.errs, posError(c.Pos, fmt.Sprintf("capture %q is already taken by test %q", c.Name, prev.name),
					fmt.Sprintf("first declared at line %d; capture names are unique in a suite", prev.spec.Pos.Line)))
				continue
			}
			producers[c.Name] = producer{name: test, block: block, index: index, spec: c}
			names = append(names, c.Name)
		}
	}
	for _, tt := range s.Tools {
		declare(tt.Name, blockOrder[KindTool], tt.Index, tt.Captures)
	}
	for _, lt := range s.Lists {
		declare(lt.Name, blockOrder[KindList], lt.Index, lt.Captures)
	}
	for _, ct := range s.Completions {
		declare(ct.Name, blockOrder[KindCompletion], ct.Index, ct.Captures)
	}
	type key struct{ block, index int }
	byProducer := map[key]*Test{}
	for _, t := range planned {
		cs, index := t.declaredCaptures()
		if cs == nil {
			continue
		}
		byProducer[key{blockOrder[t.Kind], index}] = t
		for _, c := range cs {
			path, err := target.Parse(c.Target)
			if err != nil {
				b.errs = append(b.errs, posError(c.Pos, fmt.Sprintf("invalid capture target %q: %v", c.Target, err), ""))
				continue
			}
			t.Captures = append(t.Captures, &Capture{Spec: c, Target: path})
		}
	}
	for _, t := range planned {
		for _, ref := range captureRefs(t) {
			p, ok := producers[ref.name]
			if !ok {
				hint := "no test of this suite captures it; add capture: {" + ref.name + ": <target>} to the test that produces it"
				if g := plugin.Suggest(ref.name, names); g != "" {
					hint = fmt.Sprintf("did you mean %q?", g)
				}
				b.errs = append(b.errs, posError(t.Pos, fmt.Sprintf("%s names no capture", ref.text), hint))
				continue
			}
			if block := blockOrder[t.Kind]; p.block > block || p.block == block && p.index >= t.index() {
				b.errs = append(b.errs, posError(t.Pos, fmt.Sprintf("%s is captured by test %q, which does not run before this one", ref.text, p.name),
					"a capture is read from an earlier test's response: move the producing test above this one (blocks run in the order tools, resources, prompts, compositions, lists, completions)"))
				continue
			}
			if !slices.Contains(t.Consumes, ref.name) {
				t.Consumes = append(t.Consumes, ref.name)
			}
			if pt := byProducer[key{p.block, p.index}]; pt != nil && !slices.Contains(t.After, pt) {
				t.After = append(t.After, pt)
			}
		}
	}
}

// declaredCaptures returns the captures a test declares and its index in
// its block; nil for kinds that capture nothing.
func (t *Test) declaredCaptures() ([]*config.Capture, int) {
	switch t.Kind {
	case KindTool:
		return t.Tool.Captures, t.Tool.Index
	case KindList:
		return t.List.Captures, t.List.Index
	case KindCompletion:
		return t.Completion.Captures, t.Completion.Index
	}
	return nil, 0
}

// index is the test's position in its block, for the order of captures;
// -1 for kinds without one (they never read a capture of their own block).
func (t *Test) index() int {
	switch t.Kind {
	case KindTool:
		return t.Tool.Index
	case KindList:
		return t.List.Index
	case KindCompletion:
		return t.Completion.Index
	}
	return -1
}

// captureRef is one ${capture:NAME} found in a test's request.
type captureRef struct {
	name, text string
}

// captureRefs lists the capture references in what the test sends: tool
// and prompt arguments, a resource URI, composition node arguments, a
// list cursor, a completion's argument and context.
func captureRefs(t *Test) []captureRef {
	var out []captureRef
	scan := func(s string) {
		for _, m := range CaptureRef().FindAllStringSubmatch(s, -1) {
			out = append(out, captureRef{name: m[1], text: m[0]})
		}
	}
	// Nearly no arguments refer to a capture, and decoding every test's
	// arguments was most of what planning a 330,000-test suite allocated.
	// They are JSON written by the loader, which never escapes letters, so
	// a reference always shows the word as written.
	argStrings := func(raw json.RawMessage) {
		if bytes.Contains(raw, []byte("capture")) {
			walkStrings(raw, scan)
		}
	}
	switch t.Kind {
	case KindTool:
		argStrings(t.Tool.Args)
	case KindPrompt:
		argStrings(t.Prompt.Args)
	case KindResource:
		scan(t.Resource.URI)
	case KindComposition:
		for _, n := range t.Composition.Spec.Nodes {
			argStrings(n.Args)
		}
	case KindList:
		if t.List.Cursor != nil {
			scan(*t.List.Cursor)
		}
	case KindCompletion:
		argStrings(t.Completion.Params())
	}
	return out
}

// walkStrings calls fn with every string in a JSON document, keys aside.
func walkStrings(raw json.RawMessage, fn func(string)) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			fn(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

// posError is a suite error located at pos.
func posError(pos config.Pos, msg, hint string) *config.Error {
	return &config.Error{File: pos.File, Line: pos.Line, Col: pos.Col, Pointer: pos.Pointer, Msg: msg, Hint: hint}
}
