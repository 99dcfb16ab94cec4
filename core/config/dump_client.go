package config

import "gopkg.in/yaml.v3"

// dumpClient writes a client block.
func dumpClient(c *ClientMocks) *yaml.Node {
	m := newMap()
	if c.Roots != nil {
		list := seqOf()
		for _, r := range c.Roots {
			rm := newMap()
			rm.setStr("uri", r.URI)
			rm.setStr("name", r.Name)
			list.Content = append(list.Content, rm.n)
		}
		m.set("roots", list)
	}
	if s := c.Sampling; s != nil {
		sm := newMap()
		sm.set("text", str(s.Text))
		sm.setStr("model", s.Model)
		sm.setStr("stop_reason", s.StopReason)
		m.set("sampling", sm.n)
	}
	if e := c.Elicitation; e != nil {
		em := newMap()
		em.setStr("action", e.Action)
		if e.Content != nil {
			em.set("content", jsonNode(e.Content))
		}
		m.set("elicitation", em.n)
	}
	return m.n
}

// dumpSubscribe writes a resource test's subscribe block, defaults
// included.
func dumpSubscribe(s *Subscribe) *yaml.Node {
	m := newMap()
	if t := s.Trigger; t != nil {
		tm := newMap()
		tm.setStr("tool", t.Tool)
		tm.set("args", jsonNode(t.Args))
		m.set("trigger", tm.n)
	}
	m.set("wait_ms", intNode(s.WaitMS))
	m.set("min_updates", intNode(s.MinUpdates))
	return m.n
}
