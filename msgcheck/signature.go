package msgcheck

// Signature returns the fields that identify a message of the kind when
// no kind is named (see Detect), or nil for an unknown kind.
func (s *Spec) Signature(kindName string) []string {
	k := s.kind(kindName)
	if k == nil {
		return nil
	}
	return append([]string(nil), k.signature...)
}
