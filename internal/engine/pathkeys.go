package engine

// pathKeys gives the report the repository root, as a file URI, that
// SARIF names the files relative to (PathMap).
type pathKeys struct{}

func (pathKeys) name() string { return "path keys" }

func (pathKeys) run(s *state) error {
	s.rep.SrcRoot = s.names.SrcRoot()
	return nil
}
