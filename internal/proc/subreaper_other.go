//go:build !linux

package proc

import "time"

// BecomeSubreaper does nothing outside Linux, which alone has child
// subreapers; process groups are what keeps servers' children in check.
func BecomeSubreaper() error { return nil }

// KillOrphans does nothing outside Linux: orphans go to init there.
func KillOrphans(time.Duration) int { return 0 }
