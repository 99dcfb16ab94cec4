package main

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// The tests read pages with golang.org/x/net/html, an HTML5 parser that
// builds the same tree a browser does, so they see what a browser sees.

// parseHTML parses a page.
func parseHTML(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parse html: %v", err)
	}
	return doc
}

// all returns the elements under n (n included) that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// byTag matches elements by tag name.
func byTag(tag string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == tag }
}

// byClass matches elements that have a class.
func byClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		v, _ := attr(n, "class")
		return strings.Contains(" "+v+" ", " "+class+" ")
	}
}

// byID returns the element with an id, failing the test if there is none.
func byID(t *testing.T, doc *html.Node, id string) *html.Node {
	t.Helper()
	found := all(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
	if len(found) != 1 {
		t.Fatalf("want one element with id %q, found %d", id, len(found))
	}
	return found[0]
}

// attr returns an attribute's value and whether it is present.
func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// text is the text content of n, as a browser's textContent.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// tests returns the test elements of a page, in order.
func tests(doc *html.Node) []*html.Node {
	return all(doc, func(n *html.Node) bool { return n.Data == "details" && hasClass(n, "test") })
}

func hasClass(n *html.Node, class string) bool { return byClass(class)(n) }
