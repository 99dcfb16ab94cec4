package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/session"
)

// ErrListing is wrapped by errors reading a server's listings.
var ErrListing = errors.New("listing failed")

// maxPages bounds how many pages of one listing are read, so a server
// that hands out cursors forever cannot keep a command running.
const maxPages = 1000

// Tool is one entry of tools/list, with its raw schema kept for argument
// generation and lint.
type Tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// OutputSchema is the tool's declared structured output, if any.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
	// Index is the tool's position in the listing (0-based), which lint
	// findings use to locate it.
	Index int `json:"-"`
}

// Annotations are the behaviour hints of a tool.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// MayBeDestructive applies the protocol's defaults for absent hints: a
// tool may change its environment unless it says it is read-only, and a
// tool that may change it may do so destructively unless it says it does
// not.
func (t *Tool) MayBeDestructive() bool {
	a := t.Annotations
	if a == nil {
		return true
	}
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// Resource is one entry of resources/list or resources/templates/list.
type Resource struct {
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
	Index       int    `json:"-"`
}

// Prompt is one entry of prompts/list.
type Prompt struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Arguments   []struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Required    bool   `json:"required,omitempty"`
	} `json:"arguments,omitempty"`
	Index int `json:"-"`
}

// Listing is what a server offers.
type Listing struct {
	Tools     []Tool
	Resources []Resource
	// Templates are the resource templates.
	Templates []Resource
	Prompts   []Prompt
}

// Capabilities reports which of tools, resources and prompts the server
// declared.
func Capabilities(s *session.Session) (tools, resources, prompts bool) {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(s.ServerCapabilities(), &caps)
	_, tools = caps["tools"]
	_, resources = caps["resources"]
	_, prompts = caps["prompts"]
	return tools, resources, prompts
}

// ListTools reads every page of tools/list.
func ListTools(ctx context.Context, s *session.Session) ([]Tool, error) {
	var out []Tool
	err := list(ctx, s, "tools/list", "tools", func(raw json.RawMessage) error {
		var page []Tool
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		for i := range page {
			page[i].Index = len(out)
			out = append(out, page[i])
		}
		return nil
	})
	return out, err
}

// ListAll reads the tools, resources, resource templates and prompts the
// server declares capabilities for.
func ListAll(ctx context.Context, s *session.Session) (*Listing, error) {
	hasTools, hasResources, hasPrompts := Capabilities(s)
	l := &Listing{}
	var err error
	if hasTools {
		if l.Tools, err = ListTools(ctx, s); err != nil {
			return nil, err
		}
	}
	if hasResources {
		if l.Resources, err = listResources(ctx, s, "resources/list", "resources"); err != nil {
			return nil, err
		}
		if l.Templates, err = listResources(ctx, s, "resources/templates/list", "resourceTemplates"); err != nil {
			return nil, err
		}
	}
	if hasPrompts {
		err = list(ctx, s, "prompts/list", "prompts", func(raw json.RawMessage) error {
			var page []Prompt
			if err := json.Unmarshal(raw, &page); err != nil {
				return err
			}
			for i := range page {
				page[i].Index = len(l.Prompts)
				l.Prompts = append(l.Prompts, page[i])
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return l, nil
}

func listResources(ctx context.Context, s *session.Session, method, field string) ([]Resource, error) {
	var out []Resource
	err := list(ctx, s, method, field, func(raw json.RawMessage) error {
		var page []Resource
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		for i := range page {
			page[i].Index = len(out)
			out = append(out, page[i])
		}
		return nil
	})
	return out, err
}

// list pages through a listing method, handing each page's field to add.
func list(ctx context.Context, s *session.Session, method, field string, add func(json.RawMessage) error) error {
	cursor := ""
	for page := 0; page < maxPages; page++ {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		out, err := s.Request(ctx, method, params)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrListing, method, err)
		}
		if out.RPCError != nil {
			return fmt.Errorf("%w: %s: the server answered error %d: %s", ErrListing, method, out.RPCError.Code, out.RPCError.Message)
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(out.Result, &body); err != nil {
			return fmt.Errorf("%w: %s: the result is not a JSON object: %w", ErrListing, method, err)
		}
		if raw, ok := body[field]; ok {
			if err := add(raw); err != nil {
				return fmt.Errorf("%w: %s: %s: %w", ErrListing, method, field, err)
			}
		}
		cursor = ""
		if raw, ok := body["nextCursor"]; ok {
			_ = json.Unmarshal(raw, &cursor)
		}
		if cursor == "" {
			return nil
		}
	}
	return fmt.Errorf("%w: %s: still paging after %d pages", ErrListing, method, maxPages)
}
