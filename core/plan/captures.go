package plan

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/target"
)

// Capture is a planned capture: a value a tool test keeps from its
// response under a name.
type Capture struct {
	// Spec is the capture as loaded.
	Spec *config.Capture
	// Target is the parsed path into the response envelope.
	Target target.Path
}

// CaptureRef matches a ${capture:NAME} reference; group 1 is the name.
var CaptureRef = regexp.MustCompile(`\$\{capture:([^}]*)\}`)

// producer is a tool test that declares a capture.
type producer struct {
	tool *config.ToolTest
	spec *config.Capture
}

// linkCaptures plans the captures of a suite's tests and orders every test
// that uses one after the test that produces it. Capture names are unique
// in a suite; a reference to a name no test captures, or to one captured
// by a test that runs later, is a suite error. A producer left out by the
// selection is not an error here: the consumer fails at run time, saying
// so.
func (b *builder) linkCaptures(s *config.Suite, planned []*Test) {
	producers := map[string]producer{}
	var names []string
	for _, tt := range s.Tools {
		for _, c := range tt.Captures {
			if prev, dup := producers[c.Name]; dup {
				b.errs = append(b.errs, posError(c.Pos, fmt.Sprintf("capture %q is already taken by test %q", c.Name, prev.tool.Name),
					fmt.Sprintf("first declared at line %d; capture names are unique in a suite", prev.spec.Pos.Line)))
				continue
			}
			producers[c.Name] = producer{tool: tt, spec: c}
			names = append(names, c.Name)
		}
	}
	byTool := map[*config.ToolTest]*Test{}
	for _, t := range planned {
		if t.Kind != KindTool {
			continue
		}
		byTool[t.Tool] = t
		for _, c := range t.Tool.Captures {
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
				hint := "no test of this suite captures it; add capture: {" + ref.name + ": <target>} to the tool test that produces it"
				if g := plugin.Suggest(ref.name, names); g != "" {
					hint = fmt.Sprintf("did you mean %q?", g)
				}
				b.errs = append(b.errs, posError(t.Pos, fmt.Sprintf("%s names no capture", ref.text), hint))
				continue
			}
			if t.Kind == KindTool && p.tool.Index >= t.Tool.Index {
				b.errs = append(b.errs, posError(t.Pos, fmt.Sprintf("%s is captured by test %q, which does not run before this one", ref.text, p.tool.Name),
					"a capture is read from an earlier test's response: move the producing test above this one"))
				continue
			}
			if !slices.Contains(t.Consumes, ref.name) {
				t.Consumes = append(t.Consumes, ref.name)
			}
			if pt := byTool[p.tool]; pt != nil && !slices.Contains(t.After, pt) {
				t.After = append(t.After, pt)
			}
		}
	}
}

// captureRef is one ${capture:NAME} found in a test's request.
type captureRef struct {
	name, text string
}

// captureRefs lists the capture references in what the test sends: tool
// and prompt arguments, a resource URI, composition node arguments.
func captureRefs(t *Test) []captureRef {
	var out []captureRef
	scan := func(s string) {
		for _, m := range CaptureRef.FindAllStringSubmatch(s, -1) {
			out = append(out, captureRef{name: m[1], text: m[0]})
		}
	}
	switch t.Kind {
	case KindTool:
		walkStrings(t.Tool.Args, scan)
	case KindPrompt:
		walkStrings(t.Prompt.Args, scan)
	case KindResource:
		scan(t.Resource.URI)
	case KindComposition:
		for _, n := range t.Composition.Spec.Nodes {
			walkStrings(n.Args, scan)
		}
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
