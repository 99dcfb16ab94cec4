package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"gopkg.in/yaml.v3"
)

// funcs are the template functions besides Go's built-ins: json renders
// a value as JSON (for echoing arguments), upper and lower change case,
// default substitutes a value for an empty one.
var funcs = template.FuncMap{
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
	"upper": strings.ToUpper,
	"lower": strings.ToLower,
	"default": func(def, v any) any {
		if v == nil || v == "" {
			return def
		}
		return v
	},
}

// compile parses s as a template; a string without "{{" is kept as is.
func compile(s string) (*template.Template, error) {
	if !strings.Contains(s, "{{") {
		return nil, nil
	}
	t, err := template.New("").Funcs(funcs).Option("missingkey=zero").Parse(s)
	if err != nil {
		return nil, fmt.Errorf("template %q: %w", s, err)
	}
	return t, nil
}

// render executes t (or returns s when s is not a template) over data.
func render(t *template.Template, s string, data map[string]any) (string, error) {
	if t == nil {
		return s, nil
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	// missingkey=zero renders an absent argument as "<no value>"; an
	// empty string is what a test author expects.
	return strings.ReplaceAll(b.String(), "<no value>", ""), nil
}

// renderAny renders every string inside v (structuredContent) as a
// template, compiling on the fly; structured values are small.
func renderAny(v any, data map[string]any) (any, error) {
	switch x := v.(type) {
	case string:
		t, err := compile(x)
		if err != nil {
			return nil, err
		}
		return render(t, x, data)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := renderAny(e, data)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := renderAny(e, data)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// compile checks and compiles every template of a response.
func (r *Response) compile(where string) error {
	var err error
	if r.Error != "" && r.Result != nil {
		return fmt.Errorf("%s: give result or error, not both", where)
	}
	if r.message, err = compile(r.Error); err != nil {
		return fmt.Errorf("%s.error: %w", where, err)
	}
	if r.Result == nil {
		return nil
	}
	if r.Result.Text != "" && len(r.Result.Content) > 0 {
		return fmt.Errorf("%s.result: give text or content, not both", where)
	}
	if r.Result.text, err = compile(r.Result.Text); err != nil {
		return fmt.Errorf("%s.result.text: %w", where, err)
	}
	for i := range r.Result.Content {
		c := &r.Result.Content[i]
		switch c.Type {
		case "":
			c.Type = "text"
		case "text", "image", "audio", "resource_link":
		default:
			return fmt.Errorf("%s.result.content[%d]: type %q is not text, image, audio or resource_link", where, i, c.Type)
		}
		if c.text, err = compile(c.Text); err != nil {
			return fmt.Errorf("%s.result.content[%d].text: %w", where, i, err)
		}
	}
	if err := compileAny(r.Result.Structured); err != nil {
		return fmt.Errorf("%s.result.structured: %w", where, err)
	}
	return nil
}

// compileAny parses every template string inside v without running it.
func compileAny(v any) error {
	switch x := v.(type) {
	case string:
		_, err := compile(x)
		return err
	case map[string]any:
		for _, e := range x {
			if err := compileAny(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := compileAny(e); err != nil {
				return err
			}
		}
	}
	return nil
}

var lineRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

// shiftLines adds off to every "line N" in a yaml error, which counts
// from the start of a re-encoded node rather than of the file.
func shiftLines(err error, off int) error {
	if off <= 0 {
		return err
	}
	shift := func(s string) string {
		return lineRef().ReplaceAllStringFunc(s, func(m string) string {
			n, _ := strconv.Atoi(m[5:])
			return "line " + strconv.Itoa(n+off)
		})
	}
	if te, ok := err.(*yaml.TypeError); ok {
		out := &yaml.TypeError{Errors: make([]string, len(te.Errors))}
		for i, e := range te.Errors {
			out.Errors[i] = shift(e)
		}
		return out
	}
	return fmt.Errorf("%s", shift(err.Error()))
}
