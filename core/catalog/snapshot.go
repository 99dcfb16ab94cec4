package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcptest/mcptest/core/cassette"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/toolkit"
	"github.com/mcptest/mcptest/internal/safefile"
)

// Format is the value of a snapshot's "format" field.
const Format = "mcptest-catalog"

// Version is the snapshot format version this build reads and writes.
const Version = 1

// MaxBytes bounds a catalog file Load reads (a snapshot or a cassette).
const MaxBytes = 256 << 20

// ErrNotCatalog is wrapped by the error of a file that is neither a
// snapshot nor a cassette.
var ErrNotCatalog = errors.New("not a catalog snapshot or cassette")

// Catalog is what one server offers. Entries keep their schemas as raw
// JSON so a snapshot records exactly what the server said.
type Catalog struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Server is the server's name and version from initialize.
	Server ServerInfo `json:"server"`
	// ProtocolVersion is the revision the server answered with.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// CapturedAt is when the snapshot was taken; informative only.
	CapturedAt string     `json:"capturedAt,omitempty"`
	Tools      []Tool     `json:"tools"`
	Resources  []Resource `json:"resources"`
	Templates  []Resource `json:"resourceTemplates"`
	Prompts    []Prompt   `json:"prompts"`
	// source names the file or server the catalog came from, for messages.
	source string
}

// ServerInfo is a server's name and version.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Tool is one entry of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// Resource is one entry of resources/list (URI set) or
// resources/templates/list (URITemplate set).
type Resource struct {
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Source names where the catalog came from (a file or a server).
func (c *Catalog) Source() string { return c.source }

// Capture reads the catalog of a live server over an open session.
func Capture(ctx context.Context, s *session.Session, label string, now time.Time) (*Catalog, error) {
	l, err := toolkit.ListAll(ctx, s)
	if err != nil {
		return nil, err
	}
	c := &Catalog{Format: Format, Version: Version, ProtocolVersion: s.ProtocolVersion(), CapturedAt: now.UTC().Format(time.RFC3339), source: label}
	c.Server.Name, c.Server.Version = s.ServerInfo()
	for _, t := range l.Tools {
		c.Tools = append(c.Tools, Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: rawJSON(t.Annotations)})
	}
	for _, r := range l.Resources {
		c.Resources = append(c.Resources, Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType})
	}
	for _, r := range l.Templates {
		c.Templates = append(c.Templates, Resource{URITemplate: r.URITemplate, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType})
	}
	for _, p := range l.Prompts {
		np := Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			np.Arguments = append(np.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		c.Prompts = append(c.Prompts, np)
	}
	c.normalize()
	return c, nil
}

// rawJSON marshals v, or returns nil for a nil pointer.
func rawJSON(v *toolkit.Annotations) json.RawMessage {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// normalize makes empty lists non-nil so a snapshot always has all four
// arrays.
func (c *Catalog) normalize() {
	if c.Tools == nil {
		c.Tools = []Tool{}
	}
	if c.Resources == nil {
		c.Resources = []Resource{}
	}
	if c.Templates == nil {
		c.Templates = []Resource{}
	}
	if c.Prompts == nil {
		c.Prompts = []Prompt{}
	}
}

// Encode renders the snapshot as indented JSON.
func (c *Catalog) Encode() ([]byte, error) {
	c.normalize()
	out := *c
	out.Format, out.Version = Format, Version
	b, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode catalog: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteFile writes the snapshot beside path and renames it into place, so
// an earlier snapshot survives a failed write; scrub (may be nil) masks
// secrets in the bytes first.
func (c *Catalog) WriteFile(path string, scrub func([]byte) []byte) error {
	b, err := c.Encode()
	if err != nil {
		return err
	}
	if scrub != nil {
		b = scrub(b)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".catalog-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Load reads a catalog from a snapshot written by snapshot-catalog, or
// from a cassette (the recorded tools/list, resources/list,
// resources/templates/list and prompts/list answers).
func Load(path string) (*Catalog, error) {
	b, err := safefile.ReadFile(path, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return Parse(path, b)
}

// Parse reads a catalog from the bytes of a snapshot or a cassette; name
// is used in messages.
func Parse(name string, b []byte) (*Catalog, error) {
	var head struct {
		Format    string          `json:"format"`
		Exchanges json.RawMessage `json:"exchanges"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("%s: %w: %w", name, ErrNotCatalog, err)
	}
	switch {
	case head.Format == Format:
		return parseSnapshot(name, b)
	case head.Format != "":
		return nil, fmt.Errorf("%s: %w: format %q (want %q)", name, ErrNotCatalog, head.Format, Format)
	case head.Exchanges != nil:
		return fromCassette(name)
	}
	return nil, fmt.Errorf("%s: %w: it has neither \"format\": %q nor cassette exchanges", name, ErrNotCatalog, Format)
}

// parseSnapshot decodes a snapshot strictly: an unknown field is an error
// naming it, so a hand-edited typo is not silently ignored.
func parseSnapshot(name string, b []byte) (*Catalog, error) {
	var c Catalog
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, describeJSONError(b, err))
	}
	if c.Version != Version {
		return nil, fmt.Errorf("%s: snapshot format version %d is not supported (this build reads version %d)", name, c.Version, Version)
	}
	for i, t := range c.Tools {
		if t.Name == "" {
			return nil, fmt.Errorf("%s: tools[%d] has no name", name, i)
		}
	}
	for i, p := range c.Prompts {
		if p.Name == "" {
			return nil, fmt.Errorf("%s: prompts[%d] has no name", name, i)
		}
	}
	for i, r := range c.Resources {
		if r.URI == "" {
			return nil, fmt.Errorf("%s: resources[%d] has no uri", name, i)
		}
	}
	for i, r := range c.Templates {
		if r.URITemplate == "" {
			return nil, fmt.Errorf("%s: resourceTemplates[%d] has no uriTemplate", name, i)
		}
	}
	c.normalize()
	c.source = name
	return &c, nil
}

// describeJSONError adds the line of a syntax or type error.
func describeJSONError(b []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err
	}
	line := 1 + bytes.Count(b[:min(int(off), len(b))], []byte{'\n'})
	return fmt.Errorf("line %d: %w", line, err)
}

// fromCassette rebuilds a catalog from a cassette's recorded listings.
func fromCassette(path string) (*Catalog, error) {
	cas, err := cassette.Load(path)
	if err != nil {
		return nil, err
	}
	c := &Catalog{Format: Format, Version: Version, ProtocolVersion: cas.ProtocolVersion, source: path,
		Server: ServerInfo{Name: cas.ServerInfo.Name, Version: cas.ServerInfo.Version}}
	seen := 0
	for i, x := range cas.Exchanges {
		var dst any
		var field string
		switch x.Method {
		case "tools/list":
			dst, field = &c.Tools, "tools"
		case "resources/list":
			dst, field = &c.Resources, "resources"
		case "resources/templates/list":
			dst, field = &c.Templates, "resourceTemplates"
		case "prompts/list":
			dst, field = &c.Prompts, "prompts"
		default:
			continue
		}
		if x.Error != nil || len(x.Result) == 0 {
			continue
		}
		seen++
		if err := appendPage(x.Result, field, dst); err != nil {
			return nil, fmt.Errorf("cassette %s: exchanges[%d] (%s): %w", path, i, x.Method, err)
		}
	}
	if seen == 0 {
		return nil, fmt.Errorf("cassette %s: %w: it recorded no tools/list, resources/list or prompts/list answer", path, ErrNotCatalog)
	}
	c.normalize()
	return c, nil
}

// appendPage adds one listing page's entries to the slice dst points to.
func appendPage(result json.RawMessage, field string, dst any) error {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(result, &body); err != nil {
		return err
	}
	raw, ok := body[field]
	if !ok {
		return nil
	}
	switch d := dst.(type) {
	case *[]Tool:
		var page []Tool
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		*d = append(*d, page...)
	case *[]Resource:
		var page []Resource
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		*d = append(*d, page...)
	case *[]Prompt:
		var page []Prompt
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		*d = append(*d, page...)
	}
	return nil
}
