package python

import "testing"

// TestGrammarNames guards against a grammar upgrade renaming what the walk
// relies on: a lost kind would silently yield fewer facts, a lost field (id
// 0) would match every child without a field.
func TestGrammarNames(t *testing.T) {
	for name, k := range namedKinds {
		if name == "ERROR" {
			continue
		}
		id := language.IdForNodeKind(name, true)
		if id == 0 || kindOf[id] != k {
			t.Errorf("node kind %q: id %d", name, id)
		}
	}
	for name, k := range anonKinds {
		id := language.IdForNodeKind(name, false)
		if id == 0 || kindOf[id] != k {
			t.Errorf("token %q: id %d", name, id)
		}
	}
	fields := map[string]uint16{
		"left": fLeft, "right": fRight, "type": fType, "value": fValue, "key": fKey, "name": fName,
		"object": fObject, "attribute": fAttribute, "subscript": fSubscript, "function": fFunction,
		"arguments": fArguments, "subject": fSubject, "body": fBody, "superclasses": fSuperclasses,
		"operators": fOperators, "operator": fOperator, "argument": fArgument, "return_type": fReturnType,
		"condition": fCondition, "consequence": fConsequence, "alternative": fAlternative,
		"parameters": fParameters, "alias": fAlias, "definition": fDefinition, "guard": fGuard,
	}
	for name, id := range fields {
		if id == 0 {
			t.Errorf("field %q missing", name)
		}
	}
}
