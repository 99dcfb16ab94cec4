package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// capabilities are what initialize declares: tools, and resources when a
// -list-cursor misbehaviour is on.
func (s *server) capabilities() map[string]any {
	caps := map[string]any{"tools": map[string]any{}}
	if s.cfg.listCursor != "" {
		caps["resources"] = map[string]any{}
	}
	return caps
}

// listResources answers resources/list with one resource a page and a
// nextCursor that never lets the listing end: the same one every time
// (-list-cursor loop) or a new one every time (-list-cursor endless).
// Without the flag the list is empty and complete.
func (s *server) listResources(m *message) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(m.Params, &p)
	page := 1
	if n, ok := strings.CutPrefix(p.Cursor, "page-"); ok {
		_, _ = fmt.Sscanf(n, "%d", &page)
		page++
	}
	result := map[string]any{"resources": []any{}}
	switch s.cfg.listCursor {
	case "loop":
		result["resources"] = []any{map[string]any{"uri": "chaos://loop", "name": "loop"}}
		result["nextCursor"] = "again"
	case "endless":
		result["resources"] = []any{map[string]any{"uri": fmt.Sprintf("chaos://page/%d", page), "name": fmt.Sprintf("page-%d", page)}}
		result["nextCursor"] = fmt.Sprintf("page-%d", page)
	}
	s.result(m.ID, result)
}
