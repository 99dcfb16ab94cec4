package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// matcherKey is the one key this plugin serves.
const matcherKey = "snapshot"

// snapshotArg is a checked snapshot argument.
type snapshotArg struct {
	// key is the snapshot key as written in the suite.
	key string
	// file is the snapshot's path inside the snapshots folder, with "/"
	// separators and the extension added.
	file string
	// update re-records this snapshot whatever the run's flag says.
	update bool
}

// parseArg reads and checks a snapshot argument: a key, or
// {name: KEY, update: BOOL}.
func parseArg(raw json.RawMessage) (snapshotArg, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return snapshotArg{}, errors.New(`an argument is required: a snapshot key such as "tools/list", or {name: KEY}`)
	}
	v, err := jsonvalue.Decode(raw)
	if err != nil {
		return snapshotArg{}, fmt.Errorf("argument is not valid JSON: %w", err)
	}
	var a snapshotArg
	switch v := v.(type) {
	case string:
		a.key = v
	case map[string]any:
		if err := readLongForm(v, &a); err != nil {
			return snapshotArg{}, err
		}
	default:
		return snapshotArg{}, fmt.Errorf("expected a snapshot key (a string) or {name: KEY, update: BOOL}, got %s", jsonvalue.Describe(v))
	}
	file, err := fileFor(a.key)
	if err != nil {
		return snapshotArg{}, err
	}
	a.file = file
	return a, nil
}

// readLongForm reads {name: KEY, update: BOOL} into a.
func readLongForm(obj map[string]any, a *snapshotArg) error {
	var unknown []string
	for k := range obj {
		if k != "name" && k != "update" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("unknown field %q (the fields are name and update)", unknown[0])
	}
	name, ok := obj["name"]
	if !ok {
		return errors.New(`missing field "name" (the snapshot key)`)
	}
	if a.key, ok = name.(string); !ok {
		return fmt.Errorf(`field "name" must be a string, got %s`, jsonvalue.Describe(name))
	}
	if u, ok := obj["update"]; ok {
		if a.update, ok = u.(bool); !ok {
			return fmt.Errorf(`field "update" must be true or false, got %s`, jsonvalue.Describe(u))
		}
	}
	return nil
}

// driveLetter matches a Windows drive prefix, which would make a key
// absolute there.
var driveLetter = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]:`) })

// fileFor checks a snapshot key and returns its file path inside the
// snapshots folder. Keys use "/" to nest on every system; anything that
// could point outside the folder is refused rather than cleaned up, since
// a cleaned key would silently share a file with another.
func fileFor(key string) (string, error) {
	switch {
	case key == "":
		return "", errors.New("the snapshot key is empty")
	case strings.ContainsRune(key, 0):
		return "", fmt.Errorf("snapshot key %q contains a NUL byte", key)
	case strings.Contains(key, `\`):
		return "", fmt.Errorf(`snapshot key %q contains "\"; nest keys with "/"`, key)
	case strings.HasPrefix(key, "/") || driveLetter().MatchString(key):
		return "", fmt.Errorf("snapshot key %q is an absolute path; keys are relative to the snapshots folder", key)
	}
	for _, part := range strings.Split(key, "/") {
		switch part {
		case "":
			return "", fmt.Errorf("snapshot key %q has an empty part (a leading, trailing or doubled /)", key)
		case ".", "..":
			return "", fmt.Errorf("snapshot key %q has a %q part; keys must stay inside the snapshots folder", key, part)
		}
	}
	file := key
	base := path.Base(key)
	if ext := path.Ext(base); ext == "" || ext == base || ext == "." {
		file += ".json"
	}
	return file, nil
}
