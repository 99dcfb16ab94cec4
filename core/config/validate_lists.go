package config

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// listKeys are the keys of one list test.
var listKeys = newObjectSpec("a list test",
	append([]keySpec{
		requiredKey("name"),
		requiredKey("server"),
		requiredKey("list"),
		key("cursor"),
		key("pages"),
		key("max_pages"),
		key("capture"),
	}, optionKeys...)...,
).withMisplaced(map[string]string{
	"method":    "name the list instead: list: tools, resources, resource_templates or prompts",
	"tool":      "a list test reads a whole list; to call a tool, write a test under tools:",
	"transform": "transform applies to tool tests only",
	"args":      "a list takes no arguments; use cursor: to start from a given page",
})

// completionKeys are the keys of one completion test.
var completionKeys = newObjectSpec("a completion test",
	append([]keySpec{
		requiredKey("name"),
		requiredKey("server"),
		requiredKey("ref"),
		requiredKey("argument"),
		key("context"),
		key("capture"),
	}, optionKeys...)...,
).withMisplaced(map[string]string{
	"prompt":    `the prompt goes in ref: ref: {prompt: NAME}`,
	"args":      "the argument being completed goes in argument: {name, value}; the others in context:",
	"transform": "transform applies to tool tests only",
})

// completionRefKeys are the keys of a completion test's ref.
var completionRefKeys = newObjectSpec("a completion ref", key("prompt"), key("resource"))

// completionArgumentKeys are the keys of a completion test's argument.
var completionArgumentKeys = newObjectSpec("a completion argument", requiredKey("name"), key("value"))

// lists reads the lists block into s.
func (l *loader) lists(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the lists block (an array of list tests)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, listKeys)
		if !ok {
			continue
		}
		t := &ListTest{Index: i, MaxPages: DefaultMaxPages, Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				t.Name, _ = l.nonEmptyStr(e.value, ep, "the test name")
			case "server":
				t.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
			case "list":
				t.List, _ = l.enum(e.value, ep, "list", ListKinds...)
			case "cursor":
				if c, ok := l.str(e.value, ep, "cursor (a cursor a server returned as nextCursor)"); ok {
					t.Cursor = &c
				}
			case "pages":
				t.Pages = l.pages(e.value, ep)
			case "max_pages":
				t.MaxPages, _ = l.positiveInt(e.value, ep, "max_pages")
			case "capture":
				t.Captures = l.captures(e.value, ep)
			default:
				l.option(&t.TestOptions, e, ep)
			}
		}
		if f.has("cursor") {
			for _, k := range []string{"pages", "max_pages"} {
				if f.has(k) {
					l.c.add(f.keyNode(k), child(ip, k), fmt.Sprintf("%q does not apply with cursor", k),
						"cursor reads the one page that starts there")
				}
			}
		}
		if f.has("pages") && f.has("max_pages") {
			l.c.add(f.keyNode("max_pages"), child(ip, "max_pages"), `"max_pages" does not apply with pages`,
				"pages: N reads the first N pages and stops; max_pages bounds pages: all")
		}
		s.Lists = append(s.Lists, t)
	}
}

// pages reads pages: "all" (0) or a positive number of pages.
func (l *loader) pages(n *yaml.Node, ptr string) int {
	d := deref(n)
	if s, ok := stringOf(d); ok && d.ShortTag() == tagStr {
		if s == "all" {
			return 0
		}
		hint := `write pages: all, or a number of pages such as pages: 1`
		if _, err := strconv.Atoi(s); err == nil {
			hint = "write the number without quotes: " + s
		}
		l.c.add(n, ptr, fmt.Sprintf("expected pages (all, or an integer ≥ 1), found %s", describe(d)), hint)
		return 0
	}
	v, _ := l.positiveInt(n, ptr, "pages")
	return v
}

// completions reads the completions block into s.
func (l *loader) completions(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the completions block (an array of completion tests)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, completionKeys)
		if !ok {
			continue
		}
		t := &CompletionTest{Index: i, Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				t.Name, _ = l.nonEmptyStr(e.value, ep, "the test name")
			case "server":
				t.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
			case "ref":
				t.Ref = l.completionRef(e.value, ep)
			case "argument":
				t.Argument = l.completionArgument(e.value, ep)
			case "context":
				if isNull(e.value) {
					l.c.add(e.value, ep, "expected context (an object of argument values), found null",
						"leave context out to send none; it is never sent as null")
					continue
				}
				t.Context, _ = l.stringMap(e.value, ep, "context")
			case "capture":
				t.Captures = l.captures(e.value, ep)
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
	f, ok := l.object(n, ptr, completionRefKeys)
	if !ok {
		return ref
	}
	switch l.exclusive(f, completionRefKeys, true, "prompt", "resource") {
	case "prompt":
		v, p := f.get("prompt")
		ref.Prompt, _ = l.nonEmptyStr(v, p, "the prompt name")
	case "resource":
		v, p := f.get("resource")
		if uri, ok := l.nonEmptyStr(v, p, "the URI template of a resource template"); ok {
			if !strings.Contains(uri, "{") {
				l.c.add(v, p, fmt.Sprintf("%q is not a URI template", uri),
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
	f, ok := l.object(n, ptr, completionArgumentKeys)
	if !ok {
		return a
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "name":
			a.Name, _ = l.nonEmptyStr(e.value, ep, "the argument name")
		case "value":
			a.Value, _ = l.str(e.value, ep, "the partial value")
		}
	}
	return a
}
