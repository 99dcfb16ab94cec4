package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	readmeURI     = "demo://readme"
	configURI     = "demo://config"
	itemsTemplate = "demo://items/{id}"
	itemsPrefix   = "demo://items/"
	catalogPrefix = "demo://catalog/"
)

// catalogSize is the number of catalog resources: with the readme and the
// config, the resources list is three pages of listPageSize.
const catalogSize = 45

// listPageSize is the most items one page of a list holds.
const listPageSize = 20

const readmeText = "# mcptest demo\n\nA small MCP server used by mcptest's examples and tests.\n"

const configJSON = `{"name":"mcptest-demo","debug":false,"limits":{"items":100}}`

// addResources registers the demo resources and the items template on s.
func addResources(s *server.MCPServer) {
	s.AddResource(mcp.NewResource(readmeURI, "readme",
		mcp.WithResourceDescription("What this server is."),
		mcp.WithMIMEType("text/markdown"),
	), staticText(readmeURI, "text/markdown", readmeText))
	s.AddResource(mcp.NewResource(configURI, "config",
		mcp.WithResourceDescription("The demo configuration."),
		mcp.WithMIMEType("application/json"),
	), staticText(configURI, "application/json", configJSON))
	for i := 1; i <= catalogSize; i++ {
		uri := fmt.Sprintf("%s%02d", catalogPrefix, i)
		s.AddResource(mcp.NewResource(uri, fmt.Sprintf("catalog-%02d", i),
			mcp.WithResourceDescription(fmt.Sprintf("Catalog entry %d.", i)),
			mcp.WithMIMEType("text/plain"),
		), staticText(uri, "text/plain", fmt.Sprintf("catalog entry %d\n", i)))
	}
	s.AddResourceTemplate(mcp.NewResourceTemplate(itemsTemplate, "item",
		mcp.WithTemplateDescription("One item by id."),
		mcp.WithTemplateMIMEType("application/json"),
	), readItem)
}

// staticText returns a handler that always serves text as uri.
func staticText(uri, mimeType, text string) server.ResourceHandlerFunc {
	return func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mimeType, Text: text}}, nil
	}
}

func readItem(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, itemsPrefix)
	if id == "" || id == uri || strings.Contains(id, "/") {
		return nil, fmt.Errorf("no item at %q", uri)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{
		URI:      uri,
		MIMEType: "application/json",
		Text:     fmt.Sprintf(`{"id":%q,"name":"item %s"}`, id, id),
	}}, nil
}
