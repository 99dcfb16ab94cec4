package servers

import (
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/session"
)

// MocksOf converts a client block into the session's mocks; nil for none.
func MocksOf(c *config.ClientMocks) *session.Mocks {
	if c == nil {
		return nil
	}
	m := &session.Mocks{}
	if c.Roots != nil {
		m.Roots = make([]session.Root, 0, len(c.Roots))
		for _, r := range c.Roots {
			m.Roots = append(m.Roots, session.Root{URI: r.URI, Name: r.Name})
		}
	}
	if s := c.Sampling; s != nil {
		m.Sampling = &session.SamplingMock{Text: s.Text, Model: s.Model, StopReason: s.StopReason}
	}
	if e := c.Elicitation; e != nil {
		m.Elicitation = &session.ElicitationMock{Action: e.Action, Content: e.Content}
	}
	return m
}

// clientOptions are the client features a server's session offers: its
// own client block answers outside tests, and initialize also declares
// every feature a tool test of the server mocks for itself.
func clientOptions(suite *config.Suite, srv *config.Server) session.ClientOptions {
	o := session.ClientOptions{Mocks: MocksOf(srv.Client)}
	for _, t := range suite.Tools {
		if t.Server == srv.Name && t.Client != nil {
			o.Declare = o.Declare.Union(MocksOf(t.Client).Capabilities())
		}
	}
	return o
}
