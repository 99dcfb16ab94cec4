package servers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/safefile"
)

// diskFormat versions the files of a cache folder; files of another
// version are ignored, so a format change only costs one round of calls.
const diskFormat = 1

// diskCache keeps answers in a folder across runs: one JSON file per
// request key, under a two-character prefix folder so that no directory
// grows huge. Deleting the folder (or any file in it) is always safe.
type diskCache struct {
	dir string
}

// diskEntry is the content of one cache file.
type diskEntry struct {
	Format int `json:"format"`
	// Method and Name say what was asked, for someone browsing the
	// folder; the arguments are left out, as they may hold secrets.
	Method     string            `json:"method"`
	Name       string            `json:"name"`
	StoredAt   time.Time         `json:"stored_at"`
	Result     json.RawMessage   `json:"result,omitempty"`
	Error      *session.RPCError `json:"error,omitempty"`
	HTTPStatus int               `json:"http_status,omitempty"`
	Headers    http.Header       `json:"headers,omitempty"`
}

func (d *diskCache) path(key string) string {
	return filepath.Join(d.dir, key[:2], key+".json")
}

// load returns the answer stored for key, or nil when there is none (or
// the file is unreadable: a damaged entry is a miss, not an error).
func (d *diskCache) load(key string) *session.Outcome {
	// The cache folder is the user's, but an entry may have been replaced
	// by anything: read only a regular file, within the bound of a message.
	raw, err := safefile.ReadFile(d.path(key), 1<<30)
	if err != nil {
		return nil
	}
	var e diskEntry
	if json.Unmarshal(raw, &e) != nil || e.Format != diskFormat || (len(e.Result) == 0 && e.Error == nil) {
		return nil
	}
	return &session.Outcome{Result: e.Result, RPCError: e.Error, HTTPStatus: e.HTTPStatus, Headers: e.Headers}
}

// store writes the answer for key atomically: a concurrent run reads the
// old file or the new one, never half of one.
func (d *diskCache) store(key string, q Request, out *session.Outcome) error {
	e := diskEntry{Format: diskFormat, Method: q.Method, Name: q.Name, StoredAt: time.Now().UTC(),
		Result: out.Result, Error: out.RPCError, HTTPStatus: out.HTTPStatus, Headers: out.Headers}
	raw, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode cache entry: %w", err)
	}
	if err := safefile.WriteAtomic(d.path(key), raw, 0o755); err != nil {
		return fmt.Errorf("write cache entry: %w", err)
	}
	return nil
}
