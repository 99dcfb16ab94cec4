package plugin

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// stderrRing keeps the last lines a plugin wrote to stderr. hclog JSON lines
// are rendered as "level: message key=value" so the tail reads like a log.
type stderrRing struct {
	mu      sync.Mutex
	lines   []string
	next    int
	full    bool
	partial []byte
}

func newStderrRing(n int) *stderrRing { return &stderrRing{lines: make([]string, n)} }

// Write splits p into lines and keeps the newest ones.
func (r *stderrRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	data := append(r.partial, p...)
	for {
		i := strings.IndexByte(string(data), '\n')
		if i < 0 {
			break
		}
		r.push(string(data[:i]))
		data = data[i+1:]
	}
	if len(data) > 4096 {
		r.push(string(data))
		data = nil
	}
	r.partial = append([]byte(nil), data...)
	return len(p), nil
}

func (r *stderrRing) push(line string) {
	line = strings.TrimRight(renderLogLine(line), "\r")
	if strings.TrimSpace(line) == "" {
		return
	}
	r.lines[r.next] = line
	r.next = (r.next + 1) % len(r.lines)
	if r.next == 0 {
		r.full = true
	}
}

// Tail returns up to n of the newest lines.
func (r *stderrRing) Tail(n int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []string
	if r.full {
		all = append(all, r.lines[r.next:]...)
	}
	all = append(all, r.lines[:r.next]...)
	if len(r.partial) > 0 {
		all = append(all, string(r.partial))
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return strings.Join(all, "\n")
}

// renderLogLine turns an hclog JSON line into plain text; other lines pass
// through unchanged.
func renderLogLine(line string) string {
	if !strings.HasPrefix(line, "{") {
		return line
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return line
	}
	level, _ := m["@level"].(string)
	msg, _ := m["@message"].(string)
	var keys []string
	for k := range m {
		if !strings.HasPrefix(k, "@") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", strings.ToUpper(level), msg)
	for _, k := range keys {
		v := fmt.Sprint(m[k])
		if k == "stack" {
			b.WriteString("\n" + v)
			continue
		}
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	return b.String()
}
