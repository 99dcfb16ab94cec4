package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/core/toolkit/argsgen"
)

// Finding is one broken rule.
type Finding struct {
	Rule Rule
	// Kind is "tool", "resource", "template" or "prompt"; Name the
	// definition's name (a resource's URI when it has no name).
	Kind, Name string
	// Path locates the field in the server's listing, such as
	// tools[3].inputSchema.properties.path.
	Path string
	// Message says what is wrong.
	Message string
}

// ID is the finding's stable report id: rule, definition and, when the
// finding is about a part of it, the part.
func (f Finding) ID(part string) string {
	id := f.Rule.ID + "/" + f.Kind + "/" + f.Name
	if part != "" {
		id += "/" + part
	}
	return id
}

// Result is the lint of a listing.
type Result struct {
	Findings []Finding
	// Parts are the finding ids' parts, parallel to Findings.
	Parts []string
	// Clean lists definitions without findings, as "kind/name".
	Clean []string
}

// Check lints a listing.
func Check(l *toolkit.Listing) *Result {
	r := &Result{}
	dirty := map[string]bool{}
	add := func(rule Rule, kind, name, path, part, msg string) {
		r.Findings = append(r.Findings, Finding{Rule: rule, Kind: kind, Name: name, Path: path, Message: msg})
		r.Parts = append(r.Parts, part)
		dirty[kind+"/"+name] = true
	}
	seen := map[string]int{}
	for i, t := range l.Tools {
		path := fmt.Sprintf("tools[%d]", i)
		if j, dup := seen[t.Name]; dup {
			add(RuleDuplicateName, "tool", t.Name, path+".name", fmt.Sprint(i), fmt.Sprintf("tools[%d] and tools[%d] are both named %q", j, i, t.Name))
		}
		seen[t.Name] = i
		checkToolName(t, path, add)
		checkDescription("tool", t.Name, path, t.Description, true, add)
		checkSchema(t, path, add)
		if t.Annotations == nil || (t.Annotations.ReadOnlyHint == nil && t.Annotations.DestructiveHint == nil) {
			add(RuleAnnotationsMissing, "tool", t.Name, path+".annotations", "", "no readOnlyHint or destructiveHint: clients must assume the tool may be destructive")
		}
	}
	uris := map[string]int{}
	for i, res := range l.Resources {
		path := fmt.Sprintf("resources[%d]", i)
		name := res.Name
		if name == "" {
			name = res.URI
		}
		if j, dup := uris[res.URI]; dup {
			add(RuleDuplicateName, "resource", name, path+".uri", fmt.Sprint(i), fmt.Sprintf("resources[%d] and resources[%d] share the URI %q", j, i, res.URI))
		}
		uris[res.URI] = i
		if strings.TrimSpace(res.Description) == "" {
			add(RuleResourceUndescribed, "resource", name, path+".description", "", "the resource has no description")
		}
		if res.MimeType == "" {
			add(RuleResourceMimeMissing, "resource", name, path+".mimeType", "", "the resource declares no mimeType")
		}
		checkLong("resource", name, path, res.Description, add)
	}
	for i, res := range l.Templates {
		path := fmt.Sprintf("resourceTemplates[%d]", i)
		name := res.Name
		if name == "" {
			name = res.URITemplate
		}
		if strings.TrimSpace(res.Description) == "" {
			add(RuleResourceUndescribed, "template", name, path+".description", "", "the resource template has no description")
		}
		checkLong("template", name, path, res.Description, add)
	}
	prompts := map[string]int{}
	for i, p := range l.Prompts {
		path := fmt.Sprintf("prompts[%d]", i)
		if j, dup := prompts[p.Name]; dup {
			add(RuleDuplicateName, "prompt", p.Name, path+".name", fmt.Sprint(i), fmt.Sprintf("prompts[%d] and prompts[%d] are both named %q", j, i, p.Name))
		}
		prompts[p.Name] = i
		checkDescription("prompt", p.Name, path, p.Description, true, add)
		for k, a := range p.Arguments {
			if strings.TrimSpace(a.Description) == "" {
				add(RulePromptArgUndescribed, "prompt", p.Name, fmt.Sprintf("%s.arguments[%d].description", path, k), a.Name, fmt.Sprintf("argument %q has no description", a.Name))
			}
		}
	}
	for _, t := range l.Tools {
		if !dirty["tool/"+t.Name] {
			r.Clean = append(r.Clean, "tool/"+t.Name)
		}
	}
	for _, res := range l.Resources {
		name := res.Name
		if name == "" {
			name = res.URI
		}
		if !dirty["resource/"+name] {
			r.Clean = append(r.Clean, "resource/"+name)
		}
	}
	for _, p := range l.Prompts {
		if !dirty["prompt/"+p.Name] {
			r.Clean = append(r.Clean, "prompt/"+p.Name)
		}
	}
	sort.Strings(r.Clean)
	return r
}

type adder func(rule Rule, kind, name, path, part, msg string)

func checkToolName(t toolkit.Tool, path string, add adder) {
	bad := ""
	switch {
	case t.Name == "":
		bad = "the name is empty"
	case len(t.Name) > MaxName:
		bad = fmt.Sprintf("the name is %d characters long", len(t.Name))
	default:
		for _, r := range t.Name {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				bad = fmt.Sprintf("the name contains %q", r)
				break
			}
		}
	}
	if bad != "" {
		add(RuleToolNameInvalid, "tool", t.Name, path+".name", "", bad)
	}
}

func checkDescription(kind, name, path, desc string, required bool, add adder) {
	d := strings.TrimSpace(desc)
	switch {
	case d == "" && required:
		add(RuleDescriptionMissing, kind, name, path+".description", "", "no description: a model choosing among them has only the name to go on")
		return
	case d == "":
		return
	case len(d) < MinDescription || squash(d) == squash(name):
		add(RuleDescriptionUseless, kind, name, path+".description", "", fmt.Sprintf("the description %q says no more than the name", d))
	}
	checkLong(kind, name, path, desc, add)
}

func checkLong(kind, name, path, desc string, add adder) {
	if len(desc) > MaxDescription {
		add(RuleDescriptionLong, kind, name, path+".description", "", fmt.Sprintf("the description is %d characters long (limit %d)", len(desc), MaxDescription))
	}
}

// squash lowers a name and drops separators, so "get_user" and "Get
// user" compare equal.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != '-' && r != ' ' && r != '.' {
			b.WriteRune(r)
		}
	}
	return strings.TrimSuffix(b.String(), ".")
}

func checkSchema(t toolkit.Tool, path string, add adder) {
	if out := strings.TrimSpace(string(t.OutputSchema)); out != "" && out != "null" {
		if s, err := argsgen.Parse(t.OutputSchema); err != nil || s["type"] != "object" {
			add(RuleOutputSchemaNotObject, "tool", t.Name, path+".outputSchema", "", "outputSchema is not an object schema with type \"object\"")
		}
	}
	s, err := argsgen.Parse(t.InputSchema)
	if err != nil || len(t.InputSchema) == 0 || s["type"] != "object" {
		what := "inputSchema is missing"
		if len(t.InputSchema) > 0 {
			what = "inputSchema is not an object schema with type \"object\""
		}
		add(RuleSchemaNotObject, "tool", t.Name, path+".inputSchema", "", what)
		if err != nil {
			return
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, n := range s.Required() {
		if _, ok := props[n]; !ok {
			add(RuleRequiredNotInProps, "tool", t.Name, path+".inputSchema.required", n, fmt.Sprintf("%q is required but not among the properties", n))
		}
	}
	for _, n := range s.Properties() {
		p := s.Property(n)
		ppath := path + ".inputSchema.properties." + n
		_, hasType := p["type"]
		_, hasEnum := p["enum"]
		typed := hasType || hasEnum
		for _, k := range []string{"const", "anyOf", "oneOf", "allOf", "$ref"} {
			if _, ok := p[k]; ok {
				typed = true
			}
		}
		if !typed {
			add(RuleParamUntyped, "tool", t.Name, ppath, n, fmt.Sprintf("parameter %q declares no type", n))
		}
		if hasEnum && !hasType {
			add(RuleEnumWithoutType, "tool", t.Name, ppath, n, fmt.Sprintf("parameter %q has an enum but no type", n))
		}
		if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
			add(RuleParamUndescribed, "tool", t.Name, ppath+".description", n, fmt.Sprintf("parameter %q has no description", n))
		}
	}
}
