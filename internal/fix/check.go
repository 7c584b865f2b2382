package fix

import (
	"fmt"

	"github.com/protoscan-dev/protoscan/finding"
	"github.com/protoscan-dev/protoscan/languages/facts"
)

// Containers parses a version of a file and lists its containers, the
// places whose constant members must stay distinct (see facts.Container),
// or returns its parse error. extract.Containers is the one for a file of
// any language protoscan reads; the Go analyzers use golang.Containers.
type Containers func(src []byte) ([]facts.Container, error)

// maxTries bounds the parses of one file when its fixes must be tried one
// by one; the fixes left beyond it are not applied.
const maxTries = 256

// Select decides which of fixes, each the edits of one finding's fix in
// the file whose bytes are src, may be applied: a fix is kept only when
// the file still parses with it, and it leaves no constant twice where
// the language wants it once (a switch's cases, a map's or dict's keys, a
// set's members, a mapping's keys). All fixes are tried together first;
// when that fails, one by one in order, each on top of those kept. why[i]
// is "" for a kept fix, else why it was not kept; out is src with the
// kept fixes applied. A file that does not parse as it is keeps none:
// nothing could tell a fix's breakage from the file's own.
//
// The check sits here so that --fix, --diff, the scan's reports and the
// go vet analyzers' suggested fixes judge alike.
func Select(src []byte, fixes [][]finding.Edit, parse Containers) (out []byte, why []string) {
	why = make([]string, len(fixes))
	if len(fixes) == 0 {
		return src, why
	}
	before, err := parse(src)
	if err != nil {
		for i := range why {
			why[i] = fmt.Sprintf("the file does not parse as it is (%v)", err)
		}
		return src, why
	}
	try := func(edits []finding.Edit) ([]byte, string) {
		out, err := Apply(src, edits)
		if err != nil {
			return nil, fmt.Sprintf("its edits clash with another fix's (%v)", err)
		}
		after, err := parse(out)
		return out, judge(before, after, err)
	}
	var all []finding.Edit
	for _, f := range fixes {
		all = append(all, f...)
	}
	if out, bad := try(all); bad == "" {
		return out, why
	}
	out = src
	var kept []finding.Edit
	for i, f := range fixes {
		if i >= maxTries {
			why[i] = fmt.Sprintf("more than %d fixes in one file clash; the rest are left for another run", maxTries)
			continue
		}
		cand := append(kept[:len(kept):len(kept)], f...)
		res, bad := try(cand)
		if bad != "" {
			why[i] = bad
			continue
		}
		kept, out = cand, res
	}
	return out, why
}

// judge compares a file's containers before and after its edits; "" when
// the edited file parses and holds no new duplicate.
func judge(before, after []facts.Container, err error) string {
	if err != nil {
		return fmt.Sprintf("the fixed file would not parse (%v)", err)
	}
	if why := newlyBroken(before, after); why != "" {
		return fmt.Sprintf("the fixed file would not parse (%s)", why)
	}
	if len(before) != len(after) {
		return "the fix would change how the file parses"
	}
	for i, a := range after {
		b := before[i]
		if a.Kind != b.Kind {
			return "the fix would change how the file parses"
		}
		if len(a.Keys) < 2 {
			continue
		}
		was := map[string]int{}
		for _, k := range b.Keys {
			was[k.Value]++
		}
		now := map[string]int{}
		for _, k := range a.Keys {
			now[k.Value]++
		}
		for _, k := range a.Keys {
			if n := now[k.Value]; n > 1 && n > was[k.Value] {
				return fmt.Sprintf("%s would be a duplicate %s of the %s at line %d", k.Text, member(a.Kind), a.Kind, a.Line)
			}
		}
	}
	return ""
}

// newlyBroken is why a part of the file does not parse after its edits
// when more parts do not than before (see facts.Container.Broken), else
// "".
func newlyBroken(before, after []facts.Container) string {
	n := 0
	for _, c := range before {
		if c.Broken != "" {
			n++
		}
	}
	for _, c := range after {
		if c.Broken == "" {
			continue
		}
		if n == 0 {
			return c.Broken
		}
		n--
	}
	return ""
}

// member names what a container's keys are.
func member(kind string) string {
	switch kind {
	case "switch":
		return "case"
	case "set":
		return "member"
	}
	return "key"
}

// Vet runs Select over the fixes of fs, findings in the one file whose
// bytes are src, and takes away each fix it does not keep, saying why at
// the end of the finding's message: the finding stays, with no fix that
// would break the file.
func Vet(src []byte, fs []finding.Finding, parse Containers) {
	var idx []int
	var fixes [][]finding.Edit
	for i, f := range fs {
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			idx = append(idx, i)
			fixes = append(fixes, f.Fix.Edits)
		}
	}
	if len(fixes) == 0 {
		return
	}
	_, why := Select(src, fixes, parse)
	for j, i := range idx {
		if why[j] != "" {
			fs[i].Fix = nil
			fs[i].Message += NoFixNote(why[j])
		}
	}
}

// NoFixNote is what a finding's message ends with when its fix is not
// offered: " (no automatic fix: why)".
func NoFixNote(why string) string { return " (no automatic fix: " + why + ")" }
