package plugin

import "io"

// pagerPage is the unit pager reads: a page of the page cache.
const pagerPage = 4096

// pager reads a file a page at a time and keeps the pages it read, for
// searches that visit a few places of a large file (the vetting cache).
// A read that fails or comes up short sets failed; the pages read then
// hold zeros, which a search finds nothing in.
type pager struct {
	r      io.ReaderAt
	size   int
	pages  map[int][]byte
	failed bool
}

func newPager(r io.ReaderAt, size int64) *pager {
	return &pager{r: r, size: int(size), pages: map[int][]byte{}}
}

// slice returns the bytes [from, to) of the file, clamped to its size.
func (p *pager) slice(from, to int) []byte {
	from, to = max(0, from), min(p.size, to)
	if from >= to {
		return nil
	}
	first, last := from/pagerPage, (to-1)/pagerPage
	if first == last {
		pg := p.page(first)
		return pg[from-first*pagerPage : to-first*pagerPage]
	}
	out := make([]byte, 0, to-from)
	for i := first; i <= last; i++ {
		pg := p.page(i)
		out = append(out, pg[max(from, i*pagerPage)-i*pagerPage:min(to, (i+1)*pagerPage)-i*pagerPage]...)
	}
	return out
}

// page returns page i, reading it on first use.
func (p *pager) page(i int) []byte {
	if pg, ok := p.pages[i]; ok {
		return pg
	}
	pg := make([]byte, min(pagerPage, p.size-i*pagerPage))
	if n, err := p.r.ReadAt(pg, int64(i*pagerPage)); n < len(pg) || (err != nil && err != io.EOF) {
		p.failed = true
		clear(pg)
	}
	p.pages[i] = pg
	return pg
}
