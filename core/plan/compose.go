package plan

import (
	"fmt"
	"slices"

	"github.com/mcptest/mcptest/core/config"
)

// Composition is a planned composition: its nodes in the order they run
// and the server each one calls.
type Composition struct {
	// Spec is the composition as loaded.
	Spec *config.Composition
	// Order is the nodes in topological order; among nodes whose needs are
	// met at the same time, declaration order decides, so the order is the
	// same on every run.
	Order []*config.CompositionNode
	// Servers maps a node id to the server it calls.
	Servers map[string]*config.Server
	// Output is the id of the node whose output is the composition's: the
	// output key, else the last node of Order.
	Output string
}

// composition plans one composition as a test; nil when its nodes cannot
// be resolved (the errors are recorded). The loader has already refused
// unknown needs, cycles and references outside needs.
func (b *builder) composition(s *config.Suite, c *config.Composition, names map[string]int) *Test {
	pc := &Composition{Spec: c, Servers: map[string]*config.Server{}}
	ok := true
	for _, n := range c.Nodes {
		srv := s.Servers[firstNonEmpty(n.Server, c.Server, onlyServer(s))]
		if srv == nil {
			b.errs = append(b.errs, &config.Error{File: n.Pos.File, Line: n.Pos.Line, Col: n.Pos.Col, Pointer: n.Pos.Pointer,
				Msg: fmt.Sprintf("node %q names no server", n.ID), Hint: "set server: on the node or on the composition"})
			ok = false
			continue
		}
		pc.Servers[n.ID] = srv
	}
	if !ok || len(c.Nodes) == 0 {
		return nil
	}
	pc.Order = topoOrder(c.Nodes)
	pc.Output = firstNonEmpty(c.Output, pc.Order[len(pc.Order)-1].ID)
	srv := pc.Servers[pc.Order[0].ID]
	if c.Server != "" {
		srv = s.Servers[c.Server]
	}
	return &Test{
		ID: testID(s.File, "compositions", c.Name, names), Kind: KindComposition, Composition: pc, Name: c.Name,
		Options: &config.TestOptions{Expect: c.Expect, ExpectOptions: c.ExpectOptions, Tags: c.Tags},
		Pos:     c.Pos, Server: srv,
	}
}

// topoOrder sorts nodes so that each comes after everything it needs
// (Kahn's algorithm, ties broken by declaration order). Needs naming no
// node are ignored: the loader reports them.
func topoOrder(nodes []*config.CompositionNode) []*config.CompositionNode {
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.ID] = true
	}
	placed := map[string]bool{}
	out := make([]*config.CompositionNode, 0, len(nodes))
	for len(out) < len(nodes) {
		progress := false
		for _, n := range nodes {
			if placed[n.ID] {
				continue
			}
			ready := !slices.ContainsFunc(n.Needs, func(need string) bool { return known[need] && !placed[need] })
			if ready {
				placed[n.ID] = true
				out = append(out, n)
				progress = true
				// Restart from the top so an earlier-declared node whose
				// needs this one met goes next.
				break
			}
		}
		if !progress {
			// A cycle; the loader refuses those, so keep declaration order
			// for whatever remains rather than looping.
			for _, n := range nodes {
				if !placed[n.ID] {
					placed[n.ID] = true
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// onlyServer returns the suite's server name when it has exactly one.
func onlyServer(s *config.Suite) string {
	if len(s.Servers) != 1 {
		return ""
	}
	for name := range s.Servers {
		return name
	}
	return ""
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
