package timeline

import "golang.org/x/sys/unix"

// now returns CLOCK_MONOTONIC in seconds, the clock perf can stamp its
// events with.
func now() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}
