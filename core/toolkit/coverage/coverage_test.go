package coverage

import "testing"

func TestTemplateRegexp(t *testing.T) {
	for _, c := range []struct {
		tpl, uri string
		want     bool
	}{
		{"demo://items/{id}", "demo://items/7", true},
		{"demo://items/{id}", "demo://items/7/x", false},
		{"demo://items/{id}", "demo://item/7", false},
		{"file:///{+path}", "file:///a/b/c.txt", true},
		{"search://{q}{?limit}", "search://cats?limit=3", true},
		{"a.b://{x}", "aXb://1", false},
	} {
		re := templateRegexp(c.tpl)
		if re == nil || re.MatchString(c.uri) != c.want {
			t.Errorf("%s ~ %s: want %t", c.tpl, c.uri, c.want)
		}
	}
}
