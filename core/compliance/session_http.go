package compliance

import (
	"bytes"
	"context"

	"github.com/mcptest/mcptest/core/probe"
)

// The HTTP side of a session: every message is a POST whose reply is read
// to its end (or to the response awaited) before Send returns.

// post sends one POST and files what comes back.
func (s *Session) post(ctx context.Context, body []byte, method string, params map[string]any, until func(*probe.Message) bool) (*probe.HTTPResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, s.env.opts.Timeout)
	defer cancel()
	s.mu.Lock()
	h := probe.PostHeaders(s.headerRev, s.sessionID, method, params)
	s.mu.Unlock()
	req := probe.HTTPRequest{Header: h, Body: body}
	if until != nil {
		req.Until = func(ev *probe.Event) bool {
			m, err := probe.Parse([]byte(ev.Data))
			return err == nil && until(m)
		}
	}
	s.rec.addValue("send", httpSummary("POST", 0, h, ""))
	s.rec.add("send", body)
	hr, err := s.http.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	s.fileHTTP("POST", hr)
	return hr, nil
}

// fileHTTP records an HTTP response and puts its messages in the inbox.
func (s *Session) fileHTTP(method string, hr *probe.HTTPResponse) {
	s.mu.Lock()
	s.lastStatus = hr.Status
	s.mu.Unlock()
	s.rec.addValue("recv", httpSummary(method, hr.Status, hr.Header, ""))
	if hr.SSE {
		for _, ev := range hr.Events {
			if ev.Data == "" {
				s.rec.addValue("recv", map[string]any{"sse": sseSummary(&ev)})
				continue
			}
			s.rec.add("recv", []byte(ev.Data))
			s.take([]byte(ev.Data), func() {})
		}
		return
	}
	if len(bytes.TrimSpace(hr.Body)) > 0 {
		s.rec.add("recv", hr.Body)
		if isJSONType(hr.ContentType()) {
			s.take(hr.Body, func() {})
		}
	}
}

func isJSONType(ct string) bool { return ct == "application/json" }

// sseSummary shows an event without data (a priming event, a comment).
func sseSummary(ev *probe.Event) map[string]any {
	m := map[string]any{}
	if ev.HasID {
		m["id"] = ev.ID
	}
	if ev.Type != "" {
		m["event"] = ev.Type
	}
	if ev.Retry >= 0 {
		m["retry"] = ev.Retry
	}
	if len(ev.Comments) > 0 {
		m["comments"] = ev.Comments
	}
	return m
}
