package config

// slab hands out zeroed values of T carved from arrays of slabSize, for
// the objects a large suite has one of per test (tool tests, assertions).
// They live as long as the suite, so keeping them in arrays of their own
// saves the rounding up to an allocation size class and keeps them out of
// the spans the loading garbage is freed from: on a 330,000-test suite
// that was tens of MB of resident memory.
type slab[T any] struct{ free []T }

// slabSize is the number of values per array: large enough to matter,
// small enough that a small suite does not notice it.
const slabSize = 128

// new returns a pointer to a zero T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabSize)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
