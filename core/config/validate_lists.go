package config

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// listKeys are the keys of one list test.
var listKeys = serverTestKeys("a list test",
	yamlpos.RequiredKey("list"),
	yamlpos.Key("cursor"),
	yamlpos.Key("pages"),
	yamlpos.Key("max_pages"),
	yamlpos.Key("capture"),
).WithMisplaced(map[string]string{
	"method":    "name the list instead: list: tools, resources, resource_templates or prompts",
	"tool":      "a list test reads a whole list; to call a tool, write a test under tools:",
	"transform": "transform applies to tool tests only",
	"args":      "a list takes no arguments; use cursor: to start from a given page",
})

// completionKeys are the keys of one completion test.
var completionKeys = serverTestKeys("a completion test",
	yamlpos.RequiredKey("ref"),
	yamlpos.RequiredKey("argument"),
	yamlpos.Key("context"),
	yamlpos.Key("capture"),
).WithMisplaced(map[string]string{
	"prompt":    `the prompt goes in ref: ref: {prompt: NAME}`,
	"args":      "the argument being completed goes in argument: {name, value}; the others in context:",
	"transform": "transform applies to tool tests only",
})

// completionRefKeys are the keys of a completion test's ref.
var completionRefKeys = yamlpos.NewObjectSpec("a completion ref", yamlpos.Key("prompt"), yamlpos.Key("resource"))

// completionArgumentKeys are the keys of a completion test's argument.
var completionArgumentKeys = yamlpos.NewObjectSpec("a completion argument", yamlpos.RequiredKey("name"), yamlpos.Key("value"))

// lists reads the lists block into s.
func (l *loader) lists(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the lists block (an array of list tests)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, listKeys)
		if !ok {
			continue
		}
		t := &ListTest{Index: i, MaxPages: DefaultMaxPages, Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
			case "server":
				t.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
			case "list":
				t.List, _ = l.Enum(e.Value, ep, "list", ListKinds...)
			case "cursor":
				if c, ok := l.Str(e.Value, ep, "cursor (a cursor a server returned as nextCursor)"); ok {
					t.Cursor = &c
				}
			case "pages":
				t.Pages = l.pages(e.Value, ep)
			case "max_pages":
				t.MaxPages, _ = l.PositiveInt(e.Value, ep, "max_pages")
			case "capture":
				t.Captures = l.captures(e.Value, ep)
			default:
				l.option(&t.TestOptions, e, ep)
			}
		}
		if f.Has("cursor") {
			for _, k := range []string{"pages", "max_pages"} {
				if f.Has(k) {
					l.C.Add(f.KeyNode(k), yamlpos.Child(ip, k), fmt.Sprintf("%q does not apply with cursor", k),
						"cursor reads the one page that starts there")
				}
			}
		}
		if f.Has("pages") && f.Has("max_pages") {
			l.C.Add(f.KeyNode("max_pages"), yamlpos.Child(ip, "max_pages"), `"max_pages" does not apply with pages`,
				"pages: N reads the first N pages and stops; max_pages bounds pages: all")
		}
		s.Lists = append(s.Lists, t)
	}
}

// pages reads pages: "all" (0) or a positive number of pages.
func (l *loader) pages(n *yaml.Node, ptr string) int {
	d := yamlpos.Deref(n)
	if s, ok := yamlpos.StringOf(d); ok && d.ShortTag() == yamlpos.TagStr {
		if s == "all" {
			return 0
		}
		hint := `write pages: all, or a number of pages such as pages: 1`
		if _, err := strconv.Atoi(s); err == nil {
			hint = "write the number without quotes: " + s
		}
		l.C.Add(n, ptr, fmt.Sprintf("expected pages (all, or an integer ≥ 1), found %s", yamlpos.Describe(d)), hint)
		return 0
	}
	v, _ := l.PositiveInt(n, ptr, "pages")
	return v
}

// completions reads the completions block into s.
func (l *loader) completions(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the completions block (an array of completion tests)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, completionKeys)
		if !ok {
			continue
		}
		t := &CompletionTest{Index: i, Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				t.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
			case "server":
				t.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
			case "ref":
				t.Ref = l.completionRef(e.Value, ep)
			case "argument":
				t.Argument = l.completionArgument(e.Value, ep)
			case "context":
				if yamlpos.IsNull(e.Value) {
					l.C.Add(e.Value, ep, "expected context (an object of argument values), found null",
						"leave context out to send none; it is never sent as null")
					continue
				}
				t.Context, _ = l.StringMap(e.Value, ep, "context")
			case "capture":
				t.Captures = l.captures(e.Value, ep)
			default:
				l.option(&t.TestOptions, e, ep)
			}
		}
		s.Completions = append(s.Completions, t)
	}
}

// completionRef reads ref: exactly one of {prompt: NAME} and
// {resource: URI_TEMPLATE}.
func (l *loader) completionRef(n *yaml.Node, ptr string) CompletionRef {
	var ref CompletionRef
	f, ok := l.Object(n, ptr, completionRefKeys)
	if !ok {
		return ref
	}
	switch l.Exclusive(f, completionRefKeys, true, "prompt", "resource") {
	case "prompt":
		v, p := f.Get("prompt")
		ref.Prompt, _ = l.NonEmptyStr(v, p, "the prompt name")
	case "resource":
		v, p := f.Get("resource")
		if uri, ok := l.NonEmptyStr(v, p, "the URI template of a resource template"); ok {
			if !strings.Contains(uri, "{") {
				l.C.Add(v, p, fmt.Sprintf("%q is not a URI template", uri),
					`completion completes the variables of a resource template, such as "file:///{path}"`)
			}
			ref.Resource = uri
		}
	}
	return ref
}

// completionArgument reads argument: {name, value}.
func (l *loader) completionArgument(n *yaml.Node, ptr string) CompletionArgument {
	var a CompletionArgument
	f, ok := l.Object(n, ptr, completionArgumentKeys)
	if !ok {
		return a
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			a.Name, _ = l.NonEmptyStr(e.Value, ep, "the argument name")
		case "value":
			a.Value, _ = l.Str(e.Value, ep, "the partial value")
		}
	}
	return a
}
