package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// snapshotsFolder is the folder, beside the suite file, that holds the
// snapshot files.
const snapshotsFolder = "snapshots"

// maxShownBytes caps each of the recorded and current values a failure
// repeats; the diff still shows what changed, and the file has the rest.
const maxShownBytes = 16 << 10

// matcher serves the snapshot key. It implements sdk.Matcher and
// sdk.ArgumentChecker and is safe for concurrent use.
type matcher struct {
	files store
}

// newMatcher returns the snapshot matcher.
func newMatcher() *matcher { return &matcher{} }

// CheckArgument validates a snapshot argument before the run starts.
func (m *matcher) CheckArgument(key string, arg json.RawMessage) error {
	_, err := argument(key, arg)
	return err
}

// argument parses the argument of key, marking any problem as a suite bug.
func argument(key string, raw json.RawMessage) (snapshotArg, error) {
	if key != matcherKey {
		return snapshotArg{}, sdk.InvalidArgument("the snapshot plugin has no matcher %q", key)
	}
	a, err := parseArg(raw)
	if err != nil {
		return snapshotArg{}, fmt.Errorf("%w: %s: %w", sdk.ErrInvalidArgument, key, err)
	}
	return a, nil
}

// Match records, re-records or compares one snapshot.
func (m *matcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	a, err := argument(in.Key, in.Argument)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	dir, err := snapshotsDir(in.Options)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	if len(bytes.TrimSpace(in.Actual)) == 0 {
		return sdk.MatchResult{}, errors.New("snapshot: no actual value to record or compare")
	}
	current, err := jsonvalue.Decode(in.Actual)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("snapshot: decode actual value: %w", err)
	}
	shown := snapshotsFolder + "/" + a.file
	unlock := m.files.lock(filepath.Join(dir, filepath.FromSlash(a.file)))
	defer unlock()

	if !in.Options.UpdateSnapshots && !a.update {
		data, found, err := m.files.read(dir, a.file)
		if err != nil {
			return sdk.MatchResult{}, fmt.Errorf("snapshot at %s: %w", shown, err)
		}
		if found {
			return compare(data, current, shown)
		}
	}
	data, err := encodeSnapshot(current)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	changed, err := m.files.write(dir, a.file, data)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("snapshot at %s: %w", shown, err)
	}
	if changed {
		// A pass carries no fields, so the log is where a recording shows.
		sdk.Logger().Info("snapshot recorded", "file", shown, "test", in.Options.TestName)
	}
	return sdk.Pass(), nil
}

// compare judges the current value against a recorded file.
func compare(data []byte, current any, shown string) (sdk.MatchResult, error) {
	recorded, err := jsonvalue.Decode(data)
	if err != nil {
		return sdk.MatchResult{}, fmt.Errorf("snapshot at %s is not valid JSON (%w); fix it, or delete it or run with --update-snapshots to record it again", shown, err)
	}
	if jsonvalue.Equal(recorded, current) {
		return sdk.Pass(), nil
	}
	currentText, err := encodeSnapshot(current)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	return sdk.Fail(sdk.Failure{
		Expected: shownValue(recorded, data),
		Actual:   shownValue(current, currentText),
		Diff:     diffValues(recorded, current, data, currentText, shown),
		Note:     fmt.Sprintf("snapshot at %s did not match (run with --update-snapshots to refresh)", shown),
		Extra:    map[string]any{"snapshot": shown},
	}), nil
}

// diffValues diffs the two values' file forms; two strings are diffed as
// text instead, line by line, which reads far better for multi-line text
// than one long JSON string each.
func diffValues(recorded, current any, recordedText, currentText []byte, shown string) string {
	rs, rok := recorded.(string)
	cs, cok := current.(string)
	if rok && cok {
		return diffText(rs, cs, shown)
	}
	return diffText(string(recordedText), string(currentText), shown)
}

// shownValue is a value as a failure repeats it: its JSON when short,
// otherwise a string saying how large it was.
func shownValue(v any, text []byte) json.RawMessage {
	if len(text) <= maxShownBytes {
		return sdk.JSON(v)
	}
	return sdk.JSON(fmt.Sprintf("(%d bytes of JSON; see the diff)", len(text)))
}

// snapshotsDir is the snapshots folder of the assertion's suite.
func snapshotsDir(o sdk.MatchOptions) (string, error) {
	dir := o.SuiteDir
	if dir == "" && o.SuiteFile != "" {
		dir = filepath.Dir(o.SuiteFile)
	}
	if dir == "" {
		return "", errors.New("snapshot: the host sent no suite directory, so there is nowhere to keep snapshots")
	}
	return filepath.Join(dir, snapshotsFolder), nil
}
