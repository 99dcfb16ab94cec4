//go:build unix

package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A start that runs out of time names the limit and where it came from.
func TestStartLimitNamesItsSource(t *testing.T) {
	for _, c := range []struct {
		from, want string
	}{
		{"performance.default_timeout_ms in s.yml", "(start limit 300ms, from performance.default_timeout_ms in s.yml)"},
		{"", "(start limit 300ms, the default; performance.default_timeout_ms sets it)"},
	} {
		_, err := StartStdio(context.Background(), StdioConfig{Name: "slow",
			Command:     []string{chaosBin(t), "-start-delay", "5s"},
			InitTimeout: 300 * time.Millisecond, InitTimeoutFrom: c.from})
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("error lacks %q: %v", c.want, err)
		}
	}
}
