package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestResourcePages reads the resources list one page at a time: three
// pages of at most listPageSize, the last without a nextCursor.
func TestResourcePages(t *testing.T) {
	c := inProcess(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var sizes []int
	var cursor mcp.Cursor
	for range 10 {
		req := mcp.ListResourcesRequest{}
		req.Params.Cursor = cursor
		page, err := c.ListResourcesByPage(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(page.Resources))
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if !slices.Equal(sizes, []int{listPageSize, listPageSize, 3 + catalogSize - 2*listPageSize}) {
		t.Errorf("page sizes %v", sizes)
	}
	// The tools fit in one page.
	tools, err := c.ListToolsByPage(ctx, mcp.ListToolsRequest{})
	if err != nil || tools.NextCursor != "" {
		t.Errorf("tools: %v, next %q", err, tools.NextCursor)
	}
}

func TestCompletions(t *testing.T) {
	c := inProcess(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	complete := func(ref any, name, value string, context map[string]string) *mcp.Completion {
		t.Helper()
		req := mcp.CompleteRequest{}
		req.Params.Ref = ref
		req.Params.Argument = mcp.CompleteArgument{Name: name, Value: value}
		req.Params.Context = mcp.CompleteContext{Arguments: context}
		res, err := c.Complete(ctx, req)
		if err != nil {
			t.Fatalf("%s=%q: %v", name, value, err)
		}
		return &res.Completion
	}
	travel := mcp.PromptReference{Type: "ref/prompt", Name: "travel"}
	if got := complete(travel, "city", "s", map[string]string{"country": "NO"}); !slices.Equal(got.Values, []string{"Stavanger"}) {
		t.Errorf("NO cities with s: %+v", got)
	}
	// Without the context, every country's cities are candidates.
	if got := complete(travel, "city", "s", nil); !slices.Equal(got.Values, []string{"Stavanger", "Stockholm"}) {
		t.Errorf("cities with s: %+v", got)
	}
	items := mcp.ResourceReference{Type: "ref/resource", URI: itemsTemplate}
	if got := complete(items, "id", "", nil); len(got.Values) != maxCompletionValues || !got.HasMore || got.Total != itemCount {
		t.Errorf("all ids: %d values, hasMore %v, total %d", len(got.Values), got.HasMore, got.Total)
	}
	if got := complete(items, "id", "24", nil); !slices.Equal(got.Values, []string{"24", "240", "241", "242", "243", "244", "245", "246", "247", "248", "249"}) || got.HasMore {
		t.Errorf("ids 24: %+v", got)
	}
}
