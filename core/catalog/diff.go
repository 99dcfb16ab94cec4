package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// The kinds of catalog entry a change is about.
const (
	KindTool     = "tool"
	KindPrompt   = "prompt"
	KindResource = "resource"
	KindTemplate = "template"
)

// Change is one difference between two catalogs.
type Change struct {
	// Rule is the rule that classified the change (Rule* constants).
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Kind and Name identify the entry: a tool, prompt, resource (by URI)
	// or resource template (by URI template).
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Path is a JSON pointer inside the entry, such as
	// /inputSchema/properties/limit; empty for the entry as a whole.
	Path string `json:"path,omitempty"`
	// Message says what changed, in one line.
	Message string `json:"message"`
}

// ID is the change's stable identity: the same change between the same
// two catalogs always has the same id, whatever else changed.
func (c Change) ID() string {
	return "diff/" + c.Rule + "/" + c.Kind + "/" + c.Name + c.Path
}

// Result is the outcome of a Diff.
type Result struct {
	Changes []Change
}

// Breaking counts the breaking changes.
func (r *Result) Breaking() int {
	n := 0
	for _, c := range r.Changes {
		if c.Severity == Breaking {
			n++
		}
	}
	return n
}

// differ collects changes.
type differ struct {
	changes []Change
}

func (d *differ) add(rule, kind, name, path, format string, args ...any) {
	d.changes = append(d.changes, Change{Rule: rule, Severity: ruleSeverity(rule), Kind: kind, Name: name, Path: path, Message: fmt.Sprintf(format, args...)})
}

// Diff classifies every change from old to new.
func Diff(old, new *Catalog) *Result {
	d := &differ{}
	d.tools(old.Tools, new.Tools)
	d.prompts(old.Prompts, new.Prompts)
	d.resources(KindResource, old.Resources, new.Resources)
	d.resources(KindTemplate, old.Templates, new.Templates)
	kindOrder := map[string]int{KindTool: 0, KindPrompt: 1, KindResource: 2, KindTemplate: 3}
	sort.SliceStable(d.changes, func(i, j int) bool {
		a, b := d.changes[i], d.changes[j]
		if a.Severity != b.Severity {
			return a.Severity == Breaking
		}
		if a.Kind != b.Kind {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Rule < b.Rule
	})
	return &Result{Changes: d.changes}
}

func (d *differ) tools(old, new []Tool) {
	byName := map[string]Tool{}
	for _, t := range new {
		byName[t.Name] = t
	}
	seen := map[string]bool{}
	for _, o := range old {
		seen[o.Name] = true
		n, ok := byName[o.Name]
		if !ok {
			d.add(RuleToolRemoved, KindTool, o.Name, "", "tool %s was removed", o.Name)
			continue
		}
		d.text(RuleDescriptionChanged, KindTool, o.Name, "/description", "description", o.Description, n.Description)
		d.text(RuleMetadataChanged, KindTool, o.Name, "/title", "title", o.Title, n.Title)
		if !sameJSON(o.Annotations, n.Annotations) {
			d.add(RuleMetadataChanged, KindTool, o.Name, "/annotations", "tool %s: annotations changed from %s to %s", o.Name, compact(o.Annotations), compact(n.Annotations))
		}
		s := &schemaDiff{d: d, kind: KindTool, name: o.Name}
		s.input("/inputSchema", decodeSchema(o.InputSchema), decodeSchema(n.InputSchema))
		s.outputRoot(o.OutputSchema, n.OutputSchema)
	}
	for _, n := range new {
		if !seen[n.Name] {
			d.add(RuleToolAdded, KindTool, n.Name, "", "tool %s was added", n.Name)
		}
	}
}

func (d *differ) prompts(old, new []Prompt) {
	byName := map[string]Prompt{}
	for _, p := range new {
		byName[p.Name] = p
	}
	seen := map[string]bool{}
	for _, o := range old {
		seen[o.Name] = true
		n, ok := byName[o.Name]
		if !ok {
			d.add(RulePromptRemoved, KindPrompt, o.Name, "", "prompt %s was removed", o.Name)
			continue
		}
		d.text(RuleDescriptionChanged, KindPrompt, o.Name, "/description", "description", o.Description, n.Description)
		d.text(RuleMetadataChanged, KindPrompt, o.Name, "/title", "title", o.Title, n.Title)
		newArgs := map[string]PromptArgument{}
		for _, a := range n.Arguments {
			newArgs[a.Name] = a
		}
		oldArgs := map[string]bool{}
		for _, oa := range o.Arguments {
			oldArgs[oa.Name] = true
			path := "/arguments/" + escapePointer(oa.Name)
			na, ok := newArgs[oa.Name]
			switch {
			case !ok:
				d.add(RulePropertyRemoved, KindPrompt, o.Name, path, "prompt %s: argument %s was removed", o.Name, oa.Name)
				continue
			case !oa.Required && na.Required:
				d.add(RuleMadeRequired, KindPrompt, o.Name, path, "prompt %s: argument %s is now required", o.Name, oa.Name)
			case oa.Required && !na.Required:
				d.add(RuleRequirementRelaxed, KindPrompt, o.Name, path, "prompt %s: argument %s is now optional", o.Name, oa.Name)
			}
			d.text(RuleDescriptionChanged, KindPrompt, o.Name, path+"/description", "argument "+oa.Name+" description", oa.Description, na.Description)
		}
		for _, na := range n.Arguments {
			if oldArgs[na.Name] {
				continue
			}
			path := "/arguments/" + escapePointer(na.Name)
			if na.Required {
				d.add(RuleRequiredAdded, KindPrompt, o.Name, path, "prompt %s: new required argument %s", o.Name, na.Name)
			} else {
				d.add(RuleOptionalAdded, KindPrompt, o.Name, path, "prompt %s: new optional argument %s", o.Name, na.Name)
			}
		}
	}
	for _, n := range new {
		if !seen[n.Name] {
			d.add(RulePromptAdded, KindPrompt, n.Name, "", "prompt %s was added", n.Name)
		}
	}
}

func (d *differ) resources(kind string, old, new []Resource) {
	key := func(r Resource) string {
		if kind == KindTemplate {
			return r.URITemplate
		}
		return r.URI
	}
	removed, added := RuleResourceRemoved, RuleResourceAdded
	word := "resource"
	if kind == KindTemplate {
		removed, added, word = RuleTemplateRemoved, RuleTemplateAdded, "resource template"
	}
	byKey := map[string]Resource{}
	for _, r := range new {
		byKey[key(r)] = r
	}
	seen := map[string]bool{}
	for _, o := range old {
		k := key(o)
		seen[k] = true
		n, ok := byKey[k]
		if !ok {
			d.add(removed, kind, k, "", "%s %s was removed", word, k)
			continue
		}
		d.text(RuleDescriptionChanged, kind, k, "/description", "description", o.Description, n.Description)
		d.text(RuleMetadataChanged, kind, k, "/name", "name", o.Name, n.Name)
		d.text(RuleMetadataChanged, kind, k, "/title", "title", o.Title, n.Title)
		d.text(RuleMetadataChanged, kind, k, "/mimeType", "MIME type", o.MimeType, n.MimeType)
	}
	for _, n := range new {
		if k := key(n); !seen[k] {
			d.add(added, kind, k, "", "%s %s was added", word, k)
		}
	}
}

// text records a change of a text field.
func (d *differ) text(rule, kind, name, path, what, old, new string) {
	if old == new {
		return
	}
	d.add(rule, kind, name, path, "%s %s: %s changed from %s to %s", kind, name, what, quoteShort(old), quoteShort(new))
}

// quoteShort quotes a text for a one-line message, trimmed to 60 runes.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// sameJSON compares two JSON documents by value.
func sameJSON(a, b json.RawMessage) bool {
	if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return len(bytes.TrimSpace(a)) == len(bytes.TrimSpace(b))
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(a, b)
	}
	return canonical(va) == canonical(vb)
}

// canonical renders a decoded JSON value with sorted keys (encoding/json
// sorts map keys).
func canonical(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// compact renders raw JSON on one line, or "none".
func compact(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "none"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
