package config

// finishKinds completes the list and completion tests once the fragments
// are merged (their indexes in the merged blocks) and checks every
// ${fixture} reference against the server it belongs to.
func (b *build) finishKinds(s *Suite) {
	for i, t := range s.Lists {
		t.Index = i
	}
	for i, t := range s.Completions {
		t.Index = i
	}
	var uses []Pos
	for _, d := range b.merge {
		uses = append(uses, d.l.fixtureUses...)
	}
	b.extra = append(b.extra, checkFixtures(s, uses)...)
}
