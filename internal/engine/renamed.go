package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/protoscan-dev/protoscan/internal/config"
	"github.com/protoscan-dev/protoscan/internal/editdist"
	"github.com/protoscan-dev/protoscan/msgcheck"
)

// checkRenamed rejects each entry of the config's renamed that spec
// cannot take: a kind or field it does not define (with the nearest
// one), a former name that is a field of the kind, or the former name of
// another field already. msgcheck.Spec.WithFormerNames refuses the same.
func checkRenamed(cfg *config.Config, spec *msgcheck.Spec) config.Errors {
	var errs config.Errors
	for _, r := range cfg.Renamed {
		kinds := spec.Kinds()
		if !slices.Contains(kinds, r.Kind) {
			errs = append(errs, cfg.Errorf(r.Pos, "renamed %q: no message kind %q in the spec (%s%s)",
				r.Kind+"."+r.Former, r.Kind, strings.Join(kinds, ", "), editdist.Hint(r.Kind, kinds, "; ")))
			continue
		}
		fields := spec.Fields(r.Kind)
		switch former := spec.FormerNames(r.Kind); {
		case !slices.Contains(fields, r.Field):
			errs = append(errs, cfg.Errorf(r.FieldPos, "renamed %q: %s has no field %q%s",
				r.Kind+"."+r.Former, r.Kind, r.Field, editdist.Hint(r.Field, fields, " (")))
		case slices.Contains(fields, r.Former):
			errs = append(errs, cfg.Errorf(r.Pos, "renamed %q: %q is a field of %s itself, not a former name", r.Kind+"."+r.Former, r.Former, r.Kind))
		case former[r.Former] != "" && former[r.Former] != r.Field:
			errs = append(errs, cfg.Errorf(r.Pos, "renamed %q: %q is the former name of %s's field %q in the spec", r.Kind+"."+r.Former, r.Former, r.Kind, former[r.Former]))
		}
	}
	return errs
}

// withRenamed is spec with the protocol's known former names (those of
// the embedded spec, which a repository's own spec of protocol-core may
// not list: its older agents still write role for agent) and the
// config's; with none, spec.
func withRenamed(cfg *config.Config, spec *msgcheck.Spec) (*msgcheck.Spec, error) {
	spec = withKnownFormer(spec)
	if cfg == nil || len(cfg.Renamed) == 0 {
		return spec, nil
	}
	var rs []msgcheck.Rename
	for _, r := range cfg.Renamed {
		rs = append(rs, msgcheck.Rename{Kind: r.Kind, Field: r.Field, Former: r.Former})
	}
	out, err := spec.WithFormerNames(rs)
	if err != nil {
		if errs := checkRenamed(cfg, spec); len(errs) > 0 {
			return nil, errs
		}
		return nil, cfg.Errorf(cfg.Pos("renamed"), "%v", err)
	}
	return out, nil
}

// KnownFormer returns specs with the protocol's known former names added
// to the first, the spec of the messages (see withKnownFormer): validate
// and the audit read role as agent, as the scan does.
func KnownFormer(specs []*msgcheck.Spec) []*msgcheck.Spec {
	if len(specs) == 0 {
		return specs
	}
	out := slices.Clone(specs)
	out[0] = withKnownFormer(out[0])
	return out
}

// withKnownFormer adds to a spec of protocol-core the former names the
// embedded spec gives its fields, where the spec has the field and the
// name is neither one of its fields nor another field's former name: as
// enumdrift gives a spec without aliases the embedded legacy spellings.
func withKnownFormer(spec *msgcheck.Spec) *msgcheck.Spec {
	def := msgcheck.DefaultSpec()
	if spec == def || !strings.EqualFold(cmp.Or(strings.TrimSpace(spec.Protocol), def.Protocol), def.Protocol) {
		return spec
	}
	var rs []msgcheck.Rename
	for _, kind := range spec.Kinds() {
		fields, own := spec.Fields(kind), spec.FormerNames(kind)
		for old, field := range def.FormerNames(kind) {
			if slices.Contains(fields, field) && !slices.Contains(fields, old) && own[old] == "" {
				rs = append(rs, msgcheck.Rename{Kind: kind, Field: field, Former: old})
			}
		}
	}
	slices.SortFunc(rs, func(a, b msgcheck.Rename) int { return cmp.Compare(a.Kind+"."+a.Former, b.Kind+"."+b.Former) })
	if out, err := spec.WithFormerNames(rs); err == nil {
		return out
	}
	return spec
}
