package compliance

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/mcptest/mcptest/internal/safefile"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// Baseline lists the checks a server is known to fail, so CI can gate on
// new failures only. The file is YAML (JSON, being YAML, works too):
//
//	version: 1
//	known_failures:
//	  - id: J06
//	    reason: the SDK drops requests with a null id
//	  - H06            # a bare id is fine too
//
// A listed check that fails is reported as passed ("known failure"); a
// listed check that passes is stale and flagged so the entry can be
// removed.
type Baseline struct {
	// Path is the file the baseline was read from.
	Path string
	// Entries maps a check id to the reason given for it ("" when none).
	Entries map[string]string
	// Order keeps the ids as the file lists them.
	Order []string
}

// baselineFile is the file's shape.
type baselineFile struct {
	Version       *int        `yaml:"version"`
	Server        string      `yaml:"server"`
	KnownFailures []yaml.Node `yaml:"known_failures"`
}

// LoadBaseline reads a baseline file.
func LoadBaseline(path string) (*Baseline, error) {
	// Bounded and non-blocking, like every file given by path.
	b, err := safefile.ReadFile(path, 64<<20)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	bl, err := ParseBaseline(b)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	bl.Path = path
	return bl, nil
}

// ParseBaseline decodes baseline text, refusing unknown keys, unknown
// check ids and duplicates, so a typo cannot silently hide a failure.
func ParseBaseline(b []byte) (*Baseline, error) {
	var f baselineFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return &Baseline{Entries: map[string]string{}}, nil
		}
		return nil, fmt.Errorf("decode: %w", err)
	}
	if f.Version != nil && *f.Version != 1 {
		return nil, fmt.Errorf("version %d is not supported (this mcptest reads version 1)", *f.Version)
	}
	bl := &Baseline{Entries: map[string]string{}}
	for _, n := range f.KnownFailures {
		var id, reason string
		switch n.Kind {
		case yaml.ScalarNode:
			id = n.Value
		case yaml.MappingNode:
			var e struct {
				ID     string `yaml:"id"`
				Reason string `yaml:"reason"`
			}
			if err := n.Decode(&e); err != nil {
				return nil, fmt.Errorf("line %d: %w", n.Line, err)
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i].Value; k != "id" && k != "reason" {
					return nil, fmt.Errorf("line %d: unknown field %q in a known failure (use id and reason)", n.Content[i].Line, k)
				}
			}
			id, reason = e.ID, e.Reason
		default:
			return nil, fmt.Errorf("line %d: a known failure is a check id or {id, reason}", n.Line)
		}
		id = strings.TrimSpace(id)
		if _, ok := Lookup(id); !ok {
			return nil, fmt.Errorf("line %d: unknown compliance check %q", n.Line, id)
		}
		if _, dup := bl.Entries[id]; dup {
			return nil, fmt.Errorf("line %d: check %s is listed twice", n.Line, id)
		}
		bl.Entries[id] = reason
		bl.Order = append(bl.Order, id)
	}
	return bl, nil
}

// Apply marks the results the baseline covers: listed failures and
// warnings become known, listed passes become stale. It returns the stale
// ids.
func (bl *Baseline) Apply(results []*Result) (stale []string) {
	if bl == nil {
		return nil
	}
	for _, r := range results {
		reason, listed := bl.Entries[r.Check.ID]
		if !listed {
			continue
		}
		switch r.Status {
		case Fail, Warn:
			r.Known, r.KnownReason = true, reason
		case Pass:
			r.Stale = true
			stale = append(stale, r.Check.ID)
		}
	}
	return stale
}

// WriteBaseline writes a baseline listing every failed or warned result,
// with its summary as the reason, for a first CI run to start from.
func WriteBaseline(w io.Writer, server string, results []*Result) error {
	var b strings.Builder
	b.WriteString("# mcptest compliance baseline: checks this server is known to fail.\n")
	b.WriteString("# Listed failures do not fail `mcptest compliance run --baseline`; entries\n")
	b.WriteString("# that start passing are reported as stale so they can be removed.\n")
	b.WriteString("version: 1\n")
	if server != "" {
		fmt.Fprintf(&b, "server: %s\n", quoteYAML(server))
	}
	b.WriteString("known_failures:")
	n := 0
	for _, r := range results {
		if r.Status != Fail && r.Status != Warn {
			continue
		}
		n++
		fmt.Fprintf(&b, "\n  - id: %s\n    reason: %s", r.Check.ID, quoteYAML(r.Message))
	}
	if n == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// quoteYAML writes s as a double-quoted YAML scalar.
func quoteYAML(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil {
		return `""`
	}
	v := strings.TrimSpace(string(out))
	if !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, `'`) {
		v = fmt.Sprintf("%q", s)
	}
	return v
}
