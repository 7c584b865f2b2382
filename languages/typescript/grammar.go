package typescript

import (
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/protoscan-dev/protoscan/languages/treesitter"
)

// kind is a node kind the extractor tells apart; the three grammars give
// the same names different symbols, so each has its table.
type kind uint8

const (
	kOther kind = iota
	kString
	kTemplate
	kSubst // template_substitution
	kIdent
	kPropIdent
	kShorthandProp
	kShorthandPattern
	kPair
	kPairPattern
	kObject
	kObjectPattern
	kArray
	kMember
	kSubscript
	kCall
	kNew
	kBinary
	kAssign
	kDeclarator
	kAs        // as_expression
	kSatisfies // satisfies_expression
	kNonNull
	kParen
	kSwitch
	kCase
	kReturn
	kFunc     // declarations, expressions, arrows, methods
	kClass    // class declarations and expressions
	kTypeDecl // type_alias_declaration
	kUnion
	kLiteralType
	kParenType
	kPropSig // property_signature, public_field_definition
	kTypeAnn
	kEnum
	kEnumBody
	kEnumAssign
	kParam // required_parameter, optional_parameter
	kAssignPattern
	kArguments
	kNumber
	kTrue
	kFalse
	kNull
	kUnary
	kConst // the anonymous 'const' of as const
	kThis
	kComputed
	kSpread
)

var namedKinds = map[string]kind{
	"string": kString, "template_string": kTemplate, "template_substitution": kSubst,
	"identifier": kIdent, "property_identifier": kPropIdent, "type_identifier": kIdent,
	"shorthand_property_identifier": kShorthandProp, "shorthand_property_identifier_pattern": kShorthandPattern,
	"pair": kPair, "pair_pattern": kPairPattern, "object": kObject, "object_pattern": kObjectPattern,
	"array": kArray, "member_expression": kMember, "subscript_expression": kSubscript,
	"call_expression": kCall, "new_expression": kNew, "binary_expression": kBinary,
	"assignment_expression": kAssign, "variable_declarator": kDeclarator,
	"as_expression": kAs, "satisfies_expression": kSatisfies, "non_null_expression": kNonNull,
	"parenthesized_expression": kParen, "switch_statement": kSwitch, "switch_case": kCase,
	"return_statement":     kReturn,
	"function_declaration": kFunc, "function_expression": kFunc, "function": kFunc, "arrow_function": kFunc,
	"generator_function_declaration": kFunc, "generator_function": kFunc, "method_definition": kFunc,
	"class_declaration": kClass, "class": kClass, "abstract_class_declaration": kClass,
	"type_alias_declaration": kTypeDecl, "union_type": kUnion, "literal_type": kLiteralType,
	"parenthesized_type": kParenType, "property_signature": kPropSig, "public_field_definition": kPropSig,
	"field_definition": kPropSig, "type_annotation": kTypeAnn,
	"enum_declaration": kEnum, "enum_body": kEnumBody, "enum_assignment": kEnumAssign,
	"required_parameter": kParam, "optional_parameter": kParam, "assignment_pattern": kAssignPattern,
	"arguments": kArguments, "number": kNumber, "true": kTrue, "false": kFalse, "null": kNull, "undefined": kNull,
	"unary_expression": kUnary, "this": kThis, "computed_property_name": kComputed, "spread_element": kSpread,
}

var anonKinds = map[string]kind{"const": kConst}

// field is a field name the extractor reads.
type field uint8

const (
	fNone field = iota
	fName
	fValue
	fKey
	fLeft
	fRight
	fOperator
	fObject
	fProperty
	fIndex
	fFunction
	fArguments
	fConstructor
	fBody
	fType
	fPattern
	fKind
	fArgument
	nFields
)

var fieldNames = [...]string{
	fName: "name", fValue: "value", fKey: "key", fLeft: "left", fRight: "right", fOperator: "operator",
	fObject: "object", fProperty: "property", fIndex: "index", fFunction: "function", fArguments: "arguments",
	fConstructor: "constructor", fBody: "body", fType: "type", fPattern: "pattern", fKind: "kind", fArgument: "argument",
}

// grammar is one of the three grammars with its tables.
type grammar struct {
	name   string
	lang   *sitter.Language
	pool   *treesitter.Pool
	kindOf [1 << 16]kind
	// fieldOf maps the grammar's field ids to ours.
	fieldOf []field
	// ops maps the symbols of the comparison operators to their text.
	ops map[uint16]string
}

var (
	grammarsOnce   sync.Once
	gTS, gTSX, gJS *grammar
)

func grammars() {
	grammarsOnce.Do(func() {
		gTS = newGrammar("typescript", treesitter.TypeScript())
		gTSX = newGrammar("tsx", treesitter.TSX())
		gJS = newGrammar("javascript", treesitter.JavaScript())
	})
}

func newGrammar(name string, lang *sitter.Language) *grammar {
	g := &grammar{name: name, lang: lang, pool: treesitter.PoolFor(lang), ops: map[uint16]string{}}
	count := lang.NodeKindCount()
	for id := uint32(0); id < count && id < 1<<16; id++ {
		n := lang.NodeKindForId(uint16(id))
		if lang.NodeKindIsNamed(uint16(id)) {
			g.kindOf[id] = namedKinds[n]
		} else {
			g.kindOf[id] = anonKinds[n]
			switch n {
			case "===", "!==", "==", "!=", "in":
				g.ops[uint16(id)] = n
			}
		}
	}
	g.fieldOf = make([]field, lang.FieldCount()+1)
	for f := fName; f < nFields; f++ {
		if id := lang.FieldIdForName(fieldNames[f]); int(id) < len(g.fieldOf) && id != 0 {
			g.fieldOf[id] = f
		}
	}
	return g
}

// grammarFor is the grammar of a file by its name: TSX for .tsx,
// JavaScript (JSX included) for .js, .jsx, .mjs and .cjs, TypeScript
// otherwise.
func grammarFor(path string) *grammar {
	grammars()
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".tsx"):
		return gTSX
	case strings.HasSuffix(p, ".js"), strings.HasSuffix(p, ".jsx"), strings.HasSuffix(p, ".mjs"), strings.HasSuffix(p, ".cjs"):
		return gJS
	}
	return gTS
}
