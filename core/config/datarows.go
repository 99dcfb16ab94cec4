package config

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/internal/safefile"
)

// Data rows (parametric tests). A tool, resource or prompt test with a
// data key runs once per row: the rows are written inline (an array of
// objects) or read from a file beside the suite (data: {file: rows.csv},
// .jsonl or .yaml), and each row is substituted into the test through
// ${data.FIELD} (datarows_expand.go). This file reads the rows.

// DataRow says which row of its test's data a test was expanded from.
type DataRow struct {
	// Index is the row's position in the data, from 0.
	Index int
	// Suffix is the readable part that tells the row's test from its
	// siblings: the row's name field when it has one, else its index.
	Suffix string
	// Template is the test's name as written, before the row was
	// substituted: with Suffix, the stable part of the test's id.
	Template string
}

// dataFileLimit bounds a rows file, which is read whole.
const dataFileLimit = 64 << 20

// dataKeys are the keys of the file form of data.
var dataKeys = yamlpos.NewObjectSpec("data from a file", yamlpos.RequiredKey("file"))

// dataRowNodes reads the value of a test's data key: the rows, each a
// mapping node. Rows read from a file carry that file's positions.
func (l *loader) dataRowNodes(n *yaml.Node, ptr string) ([]*yaml.Node, bool) {
	d := yamlpos.Deref(n)
	if d.Kind == yaml.MappingNode {
		f, ok := l.Object(n, ptr, dataKeys)
		if !ok {
			return nil, false
		}
		fn, fp := f.Get("file")
		name, ok := l.NonEmptyStr(fn, fp, "the rows file (a path relative to the suite)")
		if !ok {
			return nil, false
		}
		return l.dataFile(fn, fp, name)
	}
	items, ok := l.nonEmptySeq(n, ptr, "data (an array of rows, or {file: rows.csv|rows.jsonl|rows.yaml})")
	if !ok {
		return nil, false
	}
	for i, item := range items {
		if yamlpos.Deref(item).Kind != yaml.MappingNode {
			l.C.Add(item, yamlpos.Index(ptr, i), "expected a data row (an object), found "+yamlpos.Describe(yamlpos.Deref(item)), "")
			ok = false
		}
	}
	return items, ok
}

// dataFile reads the rows of a file named relative to the suite.
func (l *loader) dataFile(n *yaml.Node, ptr, name string) ([]*yaml.Node, bool) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.C.File), name)
	}
	raw, err := safefile.ReadFile(path, dataFileLimit)
	if err != nil {
		l.C.Add(n, ptr, fmt.Sprintf("cannot read the rows file %s: %v", name, err), "")
		return nil, false
	}
	var rows []*yaml.Node
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".csv":
		rows, err = csvRows(raw)
	case ".jsonl", ".ndjson":
		rows, err = jsonlRows(raw)
	case ".yaml", ".yml", ".json":
		rows, err = yamlRows(raw)
	default:
		l.C.Add(n, ptr, fmt.Sprintf("the rows file %s has an unknown type %q", name, ext), "name it .csv, .jsonl or .yaml")
		return nil, false
	}
	if err == nil && len(rows) == 0 {
		err = errors.New("it holds no row")
	}
	if err != nil {
		var le *lineError
		if errors.As(err, &le) {
			l.C.Errs = append(l.C.Errs, &yamlpos.Error{File: path, Line: le.line, Msg: le.msg, Hint: "rows file of " + ptr})
			return nil, false
		}
		l.C.Add(n, ptr, fmt.Sprintf("the rows file %s: %v", name, err), "")
		return nil, false
	}
	return rows, true
}

// lineError is a problem at a line of a rows file.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// csvRows reads a CSV file whose first record names the fields. Every
// value is a string (CSV has no types): rows that need numbers, booleans
// or objects belong in a .jsonl or .yaml file.
func csvRows(raw []byte) ([]*yaml.Node, error) {
	// Spreadsheets save CSV with a byte order mark, which would otherwise
	// become part of the first field's name.
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(raw))
	r.ReuseRecord = false
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, csvError(err)
	}
	seen := map[string]bool{}
	for _, h := range header {
		if h == "" || seen[h] {
			return nil, &lineError{line: 1, msg: fmt.Sprintf("the header names an empty or repeated field %q", h)}
		}
		seen[h] = true
	}
	var rows []*yaml.Node
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := r.FieldPos(0)
		row := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line, Column: 1}
		for i, v := range rec {
			row.Content = append(row.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: header[i], Line: line, Column: 1},
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line, Column: 1})
		}
		rows = append(rows, row)
	}
}

// csvError locates a CSV parse error.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &lineError{line: pe.Line, msg: pe.Err.Error()}
	}
	return err
}

// jsonlRows reads one JSON object a line; blank lines are skipped. The
// lines are decoded as JSON (not through the YAML parser, several times
// slower for the same result), keeping the order of keys and the
// literal text of numbers.
func jsonlRows(raw []byte) ([]*yaml.Node, error) {
	var rows []*yaml.Node
	for i, line := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		row, err := jsonNode(dec, i+1, 0)
		if err == nil {
			if _, extra := dec.Token(); extra != io.EOF {
				err = errors.New("more than one value")
			}
		}
		if err != nil || row.Kind != yaml.MappingNode {
			return nil, &lineError{line: i + 1, msg: "expected a JSON object on the line"}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// maxJSONDepth bounds the nesting of a row read from JSON.
const maxJSONDepth = 200

// jsonNode reads the next JSON value of dec as a YAML node at line.
func jsonNode(dec *json.Decoder, line, depth int) (*yaml.Node, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &yaml.Node{Line: line, Column: 1}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				val, err := jsonNode(dec, line, depth+1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: 1}, val)
			}
		case '[':
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
			for dec.More() {
				val, err := jsonNode(dec, line, depth+1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, val)
			}
		default:
			return nil, fmt.Errorf("unexpected %v", v)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!str", v
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!int", v.String()
		if strings.ContainsAny(n.Value, ".eE") {
			n.Tag = "!!float"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(v)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

// yamlRows reads a YAML (or JSON) array of objects.
func yamlRows(raw []byte) ([]*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	seq := yamlpos.Deref(doc.Content[0])
	if seq.Kind != yaml.SequenceNode {
		return nil, &lineError{line: seq.Line, msg: "expected an array of rows, found " + yamlpos.Describe(seq)}
	}
	for _, item := range seq.Content {
		if yamlpos.Deref(item).Kind != yaml.MappingNode {
			return nil, &lineError{line: item.Line, msg: "expected a row (an object of fields), found " + yamlpos.Describe(yamlpos.Deref(item))}
		}
	}
	return seq.Content, nil
}
