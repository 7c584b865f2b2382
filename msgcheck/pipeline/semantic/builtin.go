package semantic

import (
	"context"
	"sync"

	"github.com/protoscan-dev/protoscan/msgcheck/pipeline"
)

// Builtin returns the built-in semantic validators: the paths (over the
// snapshot), commands and claims checks, as one validator that walks a
// message once instead of three times (the walk is most of what each
// check costs). A pipeline counts it as three validators, and each
// reason names its check, in that order: "paths", "commands", "claims".
// Their reasons are those of NewPaths, NewCommands and NewClaims run in
// turn.
func Builtin(snap *Snapshot) []pipeline.SemanticValidator {
	return []pipeline.SemanticValidator{&builtin{paths: NewPaths(snap), claims: NewClaims()}}
}

type builtin struct {
	paths  *Paths
	claims *Claims
}

// Name is "builtin"; the reasons name the checks.
func (*builtin) Name() string { return "builtin" }

// Checks are the names of the three checks.
func (*builtin) Checks() []string { return []string{"paths", "commands", "claims"} }

// Validate runs the three checks in one walk.
func (b *builtin) Validate(_ context.Context, a *pipeline.Artifact) ([]pipeline.Reason, error) {
	w := fusedPool.Get().(*fusedWalk)
	w.t.reset()
	w.paths = pathCheck{snap: b.paths.snap, kind: a.Kind, t: &w.t}
	w.cmds.t, w.cmds.reasons = &w.t, nil
	w.claims = claimCheck{t: &w.t}
	status, _ := a.Message["status"].(string)
	claims := status != "" && b.claims.claimsSuccess(a, status)
	w.claims.status = status
	w.walk(a.Message, flags{paths: true, claims: claims})
	var out []pipeline.Reason
	for _, c := range []struct {
		name    string
		reasons []pipeline.Reason
	}{{"paths", w.paths.reasons}, {"commands", w.cmds.reasons}, {"claims", w.claims.reasons}} {
		for _, r := range sortReasons(c.reasons) {
			r.Validator = c.name
			out = append(out, r)
		}
	}
	w.paths, w.claims, w.cmds.reasons = pathCheck{}, claimCheck{}, nil
	fusedPool.Put(w)
	return out, nil
}

// fusedPool recycles the walks: a clean message costs no allocation.
var fusedPool = sync.Pool{New: func() any { return new(fusedWalk) }}

// fusedWalk is the three checks sharing one trail.
type fusedWalk struct {
	t      trail
	paths  pathCheck
	cmds   cmdCheck
	claims claimCheck
}

// flags say which checks look at a value, and how (see the walk of each
// check: pathCheck.walk, cmdCheck.walk, claimCheck.walk).
type flags struct {
	paths, pathField bool // the paths check, and a path field
	inPlan           bool // under a command key
	claims           bool // the claims check (off under a criterion reported whole)
	inCriteria       bool
}

// walk is the three checks' walks at once.
func (w *fusedWalk) walk(v any, f flags) {
	if w.t.depth() > maxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		if f.paths {
			w.paths.text(x, f.pathField)
		}
		if f.inPlan {
			w.cmds.command(x)
		}
	case map[string]any:
		claims := f.claims && !(f.inCriteria && w.claims.entry(x))
		for k, e := range x {
			w.t.push(k)
			child := flags{inPlan: f.inPlan || commandKey(k)}
			if f.paths {
				child.paths, child.pathField = w.paths.visit(k)
			}
			if claims {
				child.claims, child.inCriteria = w.claims.visit(k, e, f.inCriteria)
			}
			w.walk(e, child)
			w.t.pop()
		}
	case []any:
		for i, e := range x {
			w.t.pushIndex(i)
			w.walk(e, f)
			w.t.pop()
		}
	}
}
