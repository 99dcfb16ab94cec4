package config

import "encoding/json"

// The lists a list test can read, as written in list:.
const (
	ListTools             = "tools"
	ListResources         = "resources"
	ListResourceTemplates = "resource_templates"
	ListPrompts           = "prompts"
)

// ListKinds are the values list: accepts, in documentation order.
var ListKinds = []string{ListTools, ListResources, ListResourceTemplates, ListPrompts}

// DefaultMaxPages bounds the pages a list test follows when it sets no
// max_pages.
const DefaultMaxPages = 100

// ListTest is one entry of the lists block: read a list (tools/list,
// resources/list, resources/templates/list or prompts/list), following
// nextCursor, and judge the merged result.
type ListTest struct {
	// Index is the position of the test in the merged lists block.
	Index int
	// Name is the human-readable test name.
	Name string
	// Server is the name of the server to ask.
	Server string
	// List is one of ListKinds.
	List string
	// Cursor, when set, asks for the one page that starts at this cursor
	// (which may hold ${capture:NAME} references); nil reads from the
	// first page.
	Cursor *string
	// Pages is the number of pages to read before stopping without error;
	// 0 means every page (up to MaxPages).
	Pages int
	// MaxPages is the most pages followed when every page is read; more
	// is an error of the server (a listing that never ends). It is
	// DefaultMaxPages unless set.
	MaxPages int
	// Captures are the values the test keeps from its envelope for later
	// tests, in declaration order; nil when unset.
	Captures []*Capture
	TestOptions
	// Pos is the position of the test's mapping (pointer "/lists/<i>").
	Pos Pos
}

// Method is the JSON-RPC method that reads the list.
func (t *ListTest) Method() string {
	switch t.List {
	case ListResources:
		return "resources/list"
	case ListResourceTemplates:
		return "resources/templates/list"
	case ListPrompts:
		return "prompts/list"
	}
	return "tools/list"
}

// ResultKey is the key of the items in a page's result.
func (t *ListTest) ResultKey() string {
	if t.List == ListResourceTemplates {
		return "resourceTemplates"
	}
	return t.List
}

// CompletionTest is one entry of the completions block: ask for the
// completions of one argument (completion/complete) and judge the result.
type CompletionTest struct {
	// Index is the position of the test in the merged completions block.
	Index int
	// Name is the human-readable test name.
	Name string
	// Server is the name of the server to ask.
	Server string
	// Ref says what is completed: exactly one of its fields is set.
	Ref CompletionRef
	// Argument is the argument being completed.
	Argument CompletionArgument
	// Context holds the values of the other arguments, sent as
	// context.arguments; nil when unset, and context is then left out of
	// the request (never sent as null).
	Context map[string]string
	// Captures are the values the test keeps from its envelope.
	Captures []*Capture
	TestOptions
	// Pos is the position of the test's mapping.
	Pos Pos
}

// CompletionRef is what a completion request refers to: a prompt by name,
// or a resource template by its URI template.
type CompletionRef struct {
	// Prompt is the prompt name (ref/prompt); "" when Resource is set.
	Prompt string
	// Resource is the URI template (ref/resource); "" when Prompt is set.
	Resource string
}

// CompletionArgument is the argument being completed and what was typed
// so far.
type CompletionArgument struct {
	// Name is the argument (or template variable) name.
	Name string
	// Value is the partial value; "" when unset.
	Value string
}

// Params returns the completion/complete params of the test: ref,
// argument and, only when the test sets one, context.arguments.
func (t *CompletionTest) Params() json.RawMessage {
	ref := map[string]string{"type": "ref/prompt", "name": t.Ref.Prompt}
	if t.Ref.Resource != "" {
		ref = map[string]string{"type": "ref/resource", "uri": t.Ref.Resource}
	}
	p := map[string]any{"ref": ref, "argument": map[string]string{"name": t.Argument.Name, "value": t.Argument.Value}}
	if t.Context != nil {
		p["context"] = map[string]any{"arguments": t.Context}
	}
	b, _ := json.Marshal(p)
	return b
}
