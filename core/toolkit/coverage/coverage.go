// Package coverage compares what a server offers (tools, resources and
// resource templates, prompts) with what a set of suites touches, per
// kind, and says what no test exercises.
package coverage

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/toolkit"
)

// Kinds are the kinds of offering, in report order.
var Kinds = []string{"tools", "resources", "prompts"}

// Item is one thing the server offers and the tests that touch it.
type Item struct {
	Kind string
	// Name is a tool or prompt name, a resource URI or a template.
	Name string
	// Tests names the tests that touch it, as "suite: test name".
	Tests []string
}

// Result is the coverage of a listing by suites.
type Result struct {
	Items []Item
}

// Used is what the suites touch, by kind.
type Used struct {
	Tools     map[string][]string
	Resources map[string][]string
	Prompts   map[string][]string
}

// Collect gathers the tools, resource URIs and prompts the suites' tests
// touch on the server named server ("" counts every server). Tests that
// inject a fixture error never reach the server and do not count.
func Collect(suites []*config.Suite, server string) Used {
	u := Used{Tools: map[string][]string{}, Resources: map[string][]string{}, Prompts: map[string][]string{}}
	on := func(s string) bool { return server == "" || s == server }
	for _, s := range suites {
		label := func(name string) string { return s.File + ": " + name }
		for _, t := range s.Tools {
			if on(t.Server) && t.InjectError == "" {
				u.Tools[t.Tool] = append(u.Tools[t.Tool], label(t.Name))
			}
		}
		for _, c := range s.Compositions {
			for _, n := range c.Nodes {
				srv := n.Server
				if srv == "" {
					srv = c.Server
				}
				if srv == "" || on(srv) {
					u.Tools[n.Tool] = append(u.Tools[n.Tool], label(c.Name+" › "+n.ID))
				}
			}
		}
		for _, r := range s.Resources {
			if on(r.Server) {
				u.Resources[r.URI] = append(u.Resources[r.URI], label(r.Name))
			}
		}
		for _, p := range s.Prompts {
			if on(p.Server) {
				u.Prompts[p.Prompt] = append(u.Prompts[p.Prompt], label(p.Name))
			}
		}
	}
	return u
}

// Compute matches the listing against what the suites use. A resource
// template is covered by any read of a URI it matches.
func Compute(l *toolkit.Listing, u Used) *Result {
	r := &Result{}
	for _, t := range l.Tools {
		r.Items = append(r.Items, Item{Kind: "tools", Name: t.Name, Tests: u.Tools[t.Name]})
	}
	for _, res := range l.Resources {
		r.Items = append(r.Items, Item{Kind: "resources", Name: res.URI, Tests: u.Resources[res.URI]})
	}
	uris := make([]string, 0, len(u.Resources))
	for uri := range u.Resources {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, tpl := range l.Templates {
		it := Item{Kind: "resources", Name: tpl.URITemplate}
		re := templateRegexp(tpl.URITemplate)
		for _, uri := range uris {
			if re != nil && re.MatchString(uri) {
				it.Tests = append(it.Tests, u.Resources[uri]...)
			}
		}
		r.Items = append(r.Items, it)
	}
	for _, p := range l.Prompts {
		r.Items = append(r.Items, Item{Kind: "prompts", Name: p.Name, Tests: u.Prompts[p.Name]})
	}
	return r
}

// templateRegexp turns an RFC 6570 URI template into a pattern: simple
// expressions match one path segment, reserved ({+x}) and fragment ({#x})
// ones match anything.
func templateRegexp(tpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(tpl))
			break
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(regexp.QuoteMeta(tpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tpl[:i]))
		switch expr := tpl[i+1 : i+j]; {
		case strings.HasPrefix(expr, "+"), strings.HasPrefix(expr, "#"):
			b.WriteString(".*")
		case strings.HasPrefix(expr, "?"), strings.HasPrefix(expr, "&"):
			b.WriteString("(?:[?&].*)?")
		default:
			b.WriteString("[^/?#]+")
		}
		tpl = tpl[i+j+1:]
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// Kind is the coverage of one kind.
type Kind struct {
	Name            string
	Offered, Tested int
}

// Percent is the tested share in percent; a kind the server does not
// offer counts as fully covered.
func (k Kind) Percent() float64 {
	if k.Offered == 0 {
		return 100
	}
	return 100 * float64(k.Tested) / float64(k.Offered)
}

// String reads "tools 7/9 (77.8%)".
func (k Kind) String() string {
	return fmt.Sprintf("%s %d/%d (%.1f%%)", k.Name, k.Tested, k.Offered, k.Percent())
}

// PerKind counts the items of each kind.
func (r *Result) PerKind() []Kind {
	out := make([]Kind, 0, len(Kinds))
	for _, name := range Kinds {
		k := Kind{Name: name}
		for _, it := range r.Items {
			if it.Kind == name {
				k.Offered++
				if len(it.Tests) > 0 {
					k.Tested++
				}
			}
		}
		out = append(out, k)
	}
	return out
}
