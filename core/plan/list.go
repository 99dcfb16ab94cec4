package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ListEntry is one planned test as `mcptest run --list --json` prints it:
// enough for an editor or a CI script to find the test and select it
// again.
type ListEntry struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Tags   []string `json:"tags"`
	Server string   `json:"server,omitempty"`
}

// List returns the planned tests, in plan order.
func (p *Plan) List() []ListEntry {
	out := make([]ListEntry, 0, len(p.Tests))
	for _, t := range p.Tests {
		e := ListEntry{ID: t.ID, Name: t.Name, Kind: t.Kind, File: t.Suite.File, Line: t.Pos.Line, Tags: []string{}}
		if t.Options != nil && t.Options.Tags != nil {
			e.Tags = t.Options.Tags
		}
		if t.Server != nil {
			e.Server = t.Server.Name
		}
		out = append(out, e)
	}
	return out
}

// WriteList prints the planned tests: one JSON object a line with asJSON,
// else one readable line a test (file:line, name, tags, id) and a total.
func (p *Plan) WriteList(w io.Writer, asJSON bool) error {
	entries := p.List()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, e := range entries {
			if err := enc.Encode(e); err != nil {
				return fmt.Errorf("write the list: %w", err)
			}
		}
		return nil
	}
	var b strings.Builder
	files := map[string]bool{}
	for _, e := range entries {
		files[e.File] = true
		fmt.Fprintf(&b, "%s:%d  %s", e.File, e.Line, e.Name)
		if len(e.Tags) > 0 {
			fmt.Fprintf(&b, "  [%s]", strings.Join(e.Tags, ", "))
		}
		fmt.Fprintf(&b, "  (id: %s)\n", e.ID)
	}
	fmt.Fprintf(&b, "%s in %s\n", count(len(entries), "test", "tests"), count(len(files), "suite", "suites"))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write the list: %w", err)
	}
	return nil
}
