// Package mock serves an MCP server described by a YAML manifest: tools
// with canned or templated results, JSON-RPC errors and delays, static
// resources and templated prompts. `mcptest mock FILE` runs it over stdio
// (so a suite names it as an ordinary server: command: [mcptest, mock,
// FILE]) or Streamable HTTP, which gives agent suites and tests of clients
// a server whose every answer is under the test author's control.
package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"text/template"
	"time"

	"gopkg.in/yaml.v3"
)

// ErrManifest marks a manifest that cannot be served: unreadable, not
// YAML, an unknown field, a duplicate name or a template that does not
// parse. The message names the file and line.
var ErrManifest = errors.New("invalid mock manifest")

// maxManifest bounds the manifest read: a manifest is hand-written YAML,
// and a bigger file is a mistake (or a device) rather than a server.
const maxManifest = 8 << 20

// Manifest is the whole mock server.
type Manifest struct {
	// Name and Version are what the server reports on initialize.
	Name         string     `yaml:"name"`
	Version      string     `yaml:"version"`
	Instructions string     `yaml:"instructions"`
	Tools        []Tool     `yaml:"tools"`
	Resources    []Resource `yaml:"resources"`
	Prompts      []Prompt   `yaml:"prompts"`
}

// Response is one answer to a tool call: a result (possibly isError), a
// JSON-RPC error, or nothing more than a delay before the tool's result.
type Response struct {
	// Result is the CallToolResult; its strings are templates.
	Result *Result `yaml:"result"`
	// Error makes the call a JSON-RPC error (code -32603, the one code a
	// tool handler can raise) with this templated message.
	Error string `yaml:"error"`
	// Delay is waited before answering (a Go duration: 250ms, 2s); a
	// cancelled request stops waiting.
	Delay Duration `yaml:"delay"`

	line    int
	message *template.Template
}

// Result is the CallToolResult a tool answers with.
type Result struct {
	// Text is shorthand for one text content item.
	Text string `yaml:"text"`
	// Content lists the content items.
	Content []Content `yaml:"content"`
	// Structured becomes structuredContent; its strings are templates.
	Structured any `yaml:"structured"`
	// IsError sets isError: a tool-level failure, not a protocol error.
	IsError bool `yaml:"is_error"`

	text *template.Template
}

// Content is one content item of a result.
type Content struct {
	// Type is text (the default), image, audio or resource_link.
	Type     string `yaml:"type"`
	Text     string `yaml:"text"`
	Data     string `yaml:"data"`
	MimeType string `yaml:"mime_type"`
	URI      string `yaml:"uri"`
	Name     string `yaml:"name"`

	text *template.Template
}

// Case answers calls whose arguments contain When (every key equal, as
// JSON) with its own response, instead of the tool's.
type Case struct {
	When     map[string]any `yaml:"when"`
	Response `yaml:",inline"`
}

// Tool is one tool of the mock.
type Tool struct {
	Name        string         `yaml:"name"`
	Description string         `yaml:"description"`
	InputSchema map[string]any `yaml:"input_schema"`
	// Annotations are passed through as the tool's annotations
	// (readOnlyHint, destructiveHint, ...).
	Annotations map[string]any `yaml:"annotations"`
	// Response is the default answer.
	Response `yaml:",inline"`
	// Cases are tried in order before the default answer.
	Cases []Case `yaml:"cases"`
	// Sequence, when given, answers the n-th call (of those no case
	// caught) with entry (n-1) mod len: a tool that fails every other
	// call is a two-entry sequence.
	Sequence []Step `yaml:"sequence"`
}

// Resource is one static resource.
type Resource struct {
	URI         string `yaml:"uri"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	MimeType    string `yaml:"mime_type"`
	// Text or Blob (base64) is the content read back.
	Text string `yaml:"text"`
	Blob string `yaml:"blob"`
}

// Prompt is one prompt; its messages' text are templates over the
// prompt's arguments.
type Prompt struct {
	Name        string     `yaml:"name"`
	Description string     `yaml:"description"`
	Arguments   []Argument `yaml:"arguments"`
	Messages    []Message  `yaml:"messages"`
}

// Argument is one prompt argument.
type Argument struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
}

// Message is one prompt message.
type Message struct {
	// Role is user (the default) or assistant.
	Role string `yaml:"role"`
	Text string `yaml:"text"`

	text *template.Template
}

// Duration is a time.Duration written as a Go duration string.
type Duration time.Duration

// UnmarshalYAML reads "250ms", "2s" and the like.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: delay %q is not a duration such as 250ms or 2s", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// Step is one entry of a tool's sequence.
type Step struct {
	Response `yaml:",inline"`
}

// UnmarshalYAML records the line of a sequence entry so later errors (a
// template that does not parse) can name it.
func (st *Step) UnmarshalYAML(n *yaml.Node) error {
	type plain Step
	var p plain
	if err := decodeStrict(n, &p); err != nil {
		return err
	}
	*st = Step(p)
	st.line = n.Line
	return nil
}

// UnmarshalYAML keeps the inline Response's line on a tool.
func (t *Tool) UnmarshalYAML(n *yaml.Node) error {
	type plain Tool
	var p plain
	if err := decodeStrict(n, &p); err != nil {
		return err
	}
	*t = Tool(p)
	t.line = n.Line
	// Entries were decoded from a re-encoded copy, whose lines count
	// from the tool; take theirs from the original node instead.
	for i, line := range itemLines(n, "cases") {
		if i < len(t.Cases) {
			t.Cases[i].line = line
		}
	}
	for i, line := range itemLines(n, "sequence") {
		if i < len(t.Sequence) {
			t.Sequence[i].line = line
		}
	}
	return nil
}

// itemLines returns the line of each item of the sequence under key in
// the mapping n.
func itemLines(n *yaml.Node, key string) []int {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.SequenceNode {
			var out []int
			for _, item := range n.Content[i+1].Content {
				out = append(out, item.Line)
			}
			return out
		}
	}
	return nil
}

// UnmarshalYAML keeps the inline Response's line on a case.
func (c *Case) UnmarshalYAML(n *yaml.Node) error {
	type plain Case
	var p plain
	if err := decodeStrict(n, &p); err != nil {
		return err
	}
	*c = Case(p)
	c.line = n.Line
	return nil
}

// decodeStrict decodes n refusing unknown fields, which yaml.v3 only
// does for a Decoder: the node is re-encoded and decoded through one.
func decodeStrict(n *yaml.Node, v any) error {
	raw, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return shiftLines(err, n.Line-1)
	}
	return nil
}

// Load reads and checks the manifest at path.
func Load(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrManifest, path)
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrManifest, path, err)
	}
	if len(raw) > maxManifest {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrManifest, path, maxManifest)
	}
	m, err := Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Parse decodes and checks a manifest.
func Parse(raw []byte) (*Manifest, error) {
	var m Manifest
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrManifest, err)
	}
	return &m, nil
}

// check refuses what would make an unusable server and compiles every
// template, so a bad one is reported at start rather than on a call.
func (m *Manifest) check() error {
	if m.Name == "" {
		m.Name = "mcptest-mock"
	}
	if m.Version == "" {
		m.Version = "1.0.0"
	}
	seen := map[string]bool{}
	for i := range m.Tools {
		t := &m.Tools[i]
		where := fmt.Sprintf("line %d: tools[%d]", t.line, i)
		if t.Name == "" {
			return fmt.Errorf("%s: name is required", where)
		}
		if seen["tool "+t.Name] {
			return fmt.Errorf("%s: tool %q is defined twice", where, t.Name)
		}
		seen["tool "+t.Name] = true
		if t.InputSchema == nil {
			t.InputSchema = map[string]any{"type": "object"}
		}
		if _, err := json.Marshal(t.InputSchema); err != nil {
			return fmt.Errorf("%s: input_schema: %w", where, err)
		}
		if err := t.Response.compile(where); err != nil {
			return err
		}
		for j := range t.Cases {
			c := &t.Cases[j]
			if len(c.When) == 0 {
				return fmt.Errorf("line %d: tools[%d].cases[%d]: when is required (the arguments the case answers)", c.line, i, j)
			}
			if err := c.Response.compile(fmt.Sprintf("line %d: tools[%d].cases[%d]", c.line, i, j)); err != nil {
				return err
			}
		}
		for j := range t.Sequence {
			if err := t.Sequence[j].compile(fmt.Sprintf("line %d: tools[%d].sequence[%d]", t.Sequence[j].line, i, j)); err != nil {
				return err
			}
		}
	}
	for i, r := range m.Resources {
		if r.URI == "" {
			return fmt.Errorf("resources[%d]: uri is required", i)
		}
		if seen["resource "+r.URI] {
			return fmt.Errorf("resources[%d]: resource %q is defined twice", i, r.URI)
		}
		seen["resource "+r.URI] = true
		if r.Text != "" && r.Blob != "" {
			return fmt.Errorf("resources[%d] (%s): give text or blob, not both", i, r.URI)
		}
	}
	for i := range m.Prompts {
		p := &m.Prompts[i]
		if p.Name == "" {
			return fmt.Errorf("prompts[%d]: name is required", i)
		}
		if seen["prompt "+p.Name] {
			return fmt.Errorf("prompts[%d]: prompt %q is defined twice", i, p.Name)
		}
		seen["prompt "+p.Name] = true
		for j := range p.Messages {
			msg := &p.Messages[j]
			switch msg.Role {
			case "":
				msg.Role = "user"
			case "user", "assistant":
			default:
				return fmt.Errorf("prompts[%d].messages[%d]: role %q is neither user nor assistant", i, j, msg.Role)
			}
			var err error
			if msg.text, err = compile(msg.Text); err != nil {
				return fmt.Errorf("prompts[%d].messages[%d].text: %w", i, j, err)
			}
		}
	}
	return nil
}
