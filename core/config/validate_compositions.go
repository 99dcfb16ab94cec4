package config

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/internal/suggest"
)

// compositionKeys are the keys of one composition.
var compositionBlockKeys = yamlpos.NewObjectSpec("a composition",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("nodes"),
	yamlpos.Key("server"),
	yamlpos.Key("output"),
	yamlpos.Key("expect"),
	yamlpos.Key("tags"),
)

// nodeKeys are the keys of one composition node.
var nodeKeys = yamlpos.NewObjectSpec("a composition node",
	yamlpos.RequiredKey("id"),
	yamlpos.RequiredKey("tool"),
	yamlpos.Key("server"),
	yamlpos.Key("args"),
	yamlpos.Key("needs"),
)

// nodeRef matches a ${id.field} reference in a node's arguments.
var nodeRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_-]*)\.[^}]*\}`) })

// compositions reads the compositions block into s.
func (l *loader) compositions(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the compositions block (an array of compositions)")
	if !ok {
		return
	}
	for i, item := range items {
		if c := l.composition(item, yamlpos.Index(ptr, i)); c != nil {
			s.Compositions = append(s.Compositions, c)
		}
	}
}

// composition reads one composition and checks its graph.
func (l *loader) composition(n *yaml.Node, ptr string) *Composition {
	f, ok := l.Object(n, ptr, compositionBlockKeys)
	if !ok {
		return nil
	}
	c := &Composition{Pos: l.pos(n, ptr)}
	var nodesNode *yaml.Node
	var nodesPtr string
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			c.Name, _ = l.NonEmptyStr(e.Value, ep, "the composition name")
		case "server":
			c.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		case "nodes":
			nodesNode, nodesPtr = e.Value, ep
		case "output":
			c.Output, _ = l.NonEmptyStr(e.Value, ep, "output (a node id)")
		case "expect":
			c.Expect, c.ExpectOptions = l.expect(e.Value, ep)
		case "tags":
			c.Tags, _ = l.StringList(e.Value, ep, "tags", true)
		}
	}
	if nodesNode == nil {
		return c
	}
	items, ok := l.nonEmptySeq(nodesNode, nodesPtr, "nodes")
	if !ok {
		return c
	}
	g := &graph{ids: map[string]*graphNode{}}
	for i, item := range items {
		if gn := l.compositionNode(c, item, yamlpos.Index(nodesPtr, i)); gn != nil {
			if prev, dup := g.ids[gn.node.ID]; dup {
				l.C.Add(gn.idNode, yamlpos.Child(gn.ptr, "id"), fmt.Sprintf("duplicate node id %q", gn.node.ID),
					fmt.Sprintf("first declared at line %d", prev.idNode.Line))
				continue
			}
			g.ids[gn.node.ID] = gn
			g.order = append(g.order, gn)
			c.Nodes = append(c.Nodes, gn.node)
		}
	}
	l.checkGraph(g)
	if c.Output != "" && g.ids[c.Output] == nil {
		on, op := f.Get("output")
		l.C.Add(on, op, fmt.Sprintf("output names no node: %q", c.Output), "node ids: "+strings.Join(g.idList(), ", "))
	}
	return c
}

// graph is the nodes of a composition, for the checks of needs and
// references.
type graph struct {
	ids   map[string]*graphNode
	order []*graphNode
}

// graphNode is one node with what is needed to locate its errors.
type graphNode struct {
	node      *CompositionNode
	ptr       string
	idNode    *yaml.Node
	needNodes []*yaml.Node // the needs entries, for positions
	argsNode  *yaml.Node
}

func (g *graph) idList() []string {
	out := make([]string, len(g.order))
	for i, n := range g.order {
		out[i] = n.node.ID
	}
	return out
}

// compositionNode reads one node.
func (l *loader) compositionNode(c *Composition, n *yaml.Node, ptr string) *graphNode {
	f, ok := l.Object(n, ptr, nodeKeys)
	if !ok {
		return nil
	}
	gn := &graphNode{node: &CompositionNode{Args: json.RawMessage("{}"), Pos: l.pos(n, ptr)}, ptr: ptr}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "id":
			gn.node.ID, _ = l.NonEmptyStr(e.Value, ep, "the node id")
			gn.idNode = e.Value
		case "tool":
			gn.node.Tool, _ = l.NonEmptyStr(e.Value, ep, "the tool name")
		case "server":
			gn.node.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		case "args":
			if args := l.args(e.Value, ep, "args (an object of tool arguments)"); args != nil {
				gn.node.Args = args
				gn.argsNode = e.Value
			}
		case "needs":
			if items, ok := l.seq(e.Value, ep, "needs (an array of node ids)"); ok {
				for i, item := range items {
					if id, ok := l.NonEmptyStr(item, yamlpos.Index(ep, i), "a node id"); ok {
						gn.node.Needs = append(gn.node.Needs, id)
						gn.needNodes = append(gn.needNodes, item)
					}
				}
			}
		}
	}
	if gn.node.ID == "" {
		return nil
	}
	if gn.node.Server == "" && c.Server == "" && l.refs.servers != nil && len(l.refs.servers.order) > 1 {
		l.C.Add(n, ptr, "this node names no server and the suite has several",
			"set server: on the node or on the composition")
	}
	return gn
}

// checkGraph checks needs (known ids, no cycle) and that every ${id.field}
// reference in a node's arguments names one of its needs.
func (l *loader) checkGraph(g *graph) {
	for _, gn := range g.order {
		for i, need := range gn.node.Needs {
			np := yamlpos.Index(yamlpos.Child(gn.ptr, "needs"), i)
			switch {
			case need == gn.node.ID:
				l.C.Add(gn.needNodes[i], np, fmt.Sprintf("node %q needs itself", need), "")
			case g.ids[need] == nil:
				hint := "node ids: " + strings.Join(g.idList(), ", ")
				if s := suggest.Closest(need, g.idList()); s != "" {
					hint = fmt.Sprintf("did you mean %q?", s)
				}
				l.C.Add(gn.needNodes[i], np, fmt.Sprintf("needs names no node: %q", need), hint)
			}
		}
		if gn.argsNode != nil {
			l.checkNodeRefs(g, gn, gn.argsNode, yamlpos.Child(gn.ptr, "args"))
		}
	}
	l.checkCycles(g)
}

// checkNodeRefs walks a node's arguments for ${id.field} references.
func (l *loader) checkNodeRefs(g *graph, gn *graphNode, n *yaml.Node, ptr string) {
	if !l.Enter(n, ptr) {
		return
	}
	defer l.Leave(n)
	d := yamlpos.Deref(n)
	switch d.Kind {
	case yaml.ScalarNode:
		if d.ShortTag() != yamlpos.TagStr {
			return
		}
		for _, m := range nodeRef().FindAllStringSubmatch(d.Value, -1) {
			id := m[1]
			if slices.Contains(gn.node.Needs, id) {
				continue
			}
			hint := fmt.Sprintf("add %q to this node's needs", id)
			if g.ids[id] == nil {
				hint = "node ids: " + strings.Join(g.idList(), ", ")
			}
			l.C.Add(n, ptr, fmt.Sprintf("%s refers to node %q, which is not in needs", m[0], id), hint)
		}
	case yaml.MappingNode:
		for _, e := range l.Entries(d, ptr) {
			l.checkNodeRefs(g, gn, e.Value, yamlpos.Child(ptr, e.Key))
		}
	case yaml.SequenceNode:
		for i, item := range d.Content {
			l.checkNodeRefs(g, gn, item, yamlpos.Index(ptr, i))
		}
	}
}

// checkCycles reports the first cycle through needs, with its path.
func (l *loader) checkCycles(g *graph) {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(gn *graphNode) bool
	visit = func(gn *graphNode) bool {
		id := gn.node.ID
		state[id] = active
		stack = append(stack, id)
		for i, need := range gn.node.Needs {
			next := g.ids[need]
			if next == nil || need == id {
				continue
			}
			switch state[need] {
			case active:
				start := slices.Index(stack, need)
				path := append(slices.Clone(stack[start:]), need)
				l.C.Add(gn.needNodes[i], yamlpos.Index(yamlpos.Child(gn.ptr, "needs"), i),
					"needs form a cycle: "+strings.Join(path, " → "), "a composition runs in topological order, so needs must not loop")
				return true
			case unseen:
				if visit(next) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[id] = done
		return false
	}
	for _, gn := range g.order {
		if state[gn.node.ID] == unseen && visit(gn) {
			return
		}
	}
}
