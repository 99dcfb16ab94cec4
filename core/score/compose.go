package score

import "fmt"

// The composition keys. They are structural: the core combines the
// verdicts of inner matchers, which are still judged by their plugins.
const (
	Not   = "not"
	AnyOf = "anyOf"
	AllOf = "allOf"
	OneOf = "oneOf"
)

// Combine is the verdict of a composition from the verdicts of its inner
// matchers, in order: not passes when its one inner matcher fails, anyOf
// when at least one passes, allOf when all pass, oneOf when exactly one
// passes. The caller handles inner errors first: an inner matcher that
// could not be judged makes the whole composition errored, never a failing
// branch, since dropping a branch would change the truth value unseen.
func Combine(key string, passed []bool) (bool, error) {
	if len(passed) == 0 {
		return false, fmt.Errorf("%s has no inner matcher", key)
	}
	n := 0
	for _, p := range passed {
		if p {
			n++
		}
	}
	switch key {
	case Not:
		if len(passed) != 1 {
			return false, fmt.Errorf("not takes exactly one inner matcher, got %d", len(passed))
		}
		return !passed[0], nil
	case AnyOf:
		return n > 0, nil
	case AllOf:
		return n == len(passed), nil
	case OneOf:
		return n == 1, nil
	}
	return false, fmt.Errorf("%q is not a composition key", key)
}

// CombineNote says in words why a composition got its verdict, for its
// failure: "none of the 3 branches passed", "2 of 3 branches passed" ...
func CombineNote(key string, passed []bool) string {
	n := 0
	for _, p := range passed {
		if p {
			n++
		}
	}
	total := len(passed)
	switch key {
	case Not:
		if n == 1 {
			return "the inner matcher passed, so not fails"
		}
		return "the inner matcher failed, so not passes"
	case AnyOf:
		if n == 0 {
			return fmt.Sprintf("none of the %d branches passed; anyOf needs at least one", total)
		}
	case AllOf:
		if n < total {
			return fmt.Sprintf("%d of %d branches failed; allOf needs all of them", total-n, total)
		}
	case OneOf:
		switch n {
		case 0:
			return fmt.Sprintf("none of the %d branches passed; oneOf needs exactly one", total)
		case 1:
		default:
			return fmt.Sprintf("%d of %d branches passed; oneOf needs exactly one", n, total)
		}
	}
	return fmt.Sprintf("%d of %d branches passed", n, total)
}
