//go:build cgo

package python

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// kind is our own small enumeration of the grammar's node kinds, looked up
// from a table indexed by symbol, so the walk switches on a byte instead of
// comparing kind names.
type kind uint8

const (
	kOther kind = iota
	kString
	kConcat
	kStringStart
	kStringEnd
	kInterpolation
	kDict
	kPair
	kCall
	kArgList
	kKwarg
	kAssign
	kAttr
	kSubscript
	kIdent
	kCompare
	kParen
	kCond
	kBoolOp
	kList
	kTuple
	kSet
	kExprList
	kPatternList
	kTuplePattern
	kListPattern
	kClass
	kFunc
	kBlock
	kExprStmt
	kReturn
	kMatch
	kCaseClause
	kCasePattern
	kUnionPattern
	kAsPattern
	kDictPattern
	kClassPattern
	kKeywordPattern
	kGenericType
	kTypeParam
	kType
	kUnionType
	kMemberType
	kConstrainedType
	kTypeAlias
	kTypedParam
	kTypedDefaultParam
	kDefaultParam
	kInteger
	kFloat
	kTrue
	kFalse
	kNone
	kUnary
	kBinaryOp
	kNamedExpr
	kError
	kComment
	kListSplat
	kDictSplat

	// Statements and expressions the function shapes need (funcs.go).
	kIf
	kElif
	kElse
	kFor
	kWhile
	kTry
	kExcept
	kExceptGroup
	kFinally
	kWith
	kWithClause
	kWithItem
	kRaise
	kPass
	kBreak
	kContinue
	kAssert
	kDelete
	kImport
	kImportFrom
	kAliasedImport
	kDottedName
	kDecorated
	kLambda
	kLambdaParams
	kNot
	kAugAssign
	kListComp
	kSetComp
	kDictComp
	kGenExpr
	kForIn
	kIfClause
	kAwait
	kYield
	kSlice
	kListSplatPattern
	kDictSplatPattern
	kPrint
	kExec
	kAsPatternTarget
	kParenListSplat
	kComplexPattern

	// Anonymous tokens.
	kOpEq
	kOpNe
	kOpIn
	kOpNotIn
	kOpIs
	kOpIsNot
	kOpMinus
	kOpPlus
	kComma
	kOpLt
	kOpLe
	kOpGt
	kOpGe
	kOpAnd
	kOpOr
)

var namedKinds = map[string]kind{
	"string":                   kString,
	"concatenated_string":      kConcat,
	"string_start":             kStringStart,
	"string_end":               kStringEnd,
	"interpolation":            kInterpolation,
	"dictionary":               kDict,
	"pair":                     kPair,
	"call":                     kCall,
	"argument_list":            kArgList,
	"keyword_argument":         kKwarg,
	"assignment":               kAssign,
	"attribute":                kAttr,
	"subscript":                kSubscript,
	"identifier":               kIdent,
	"comparison_operator":      kCompare,
	"parenthesized_expression": kParen,
	"conditional_expression":   kCond,
	"boolean_operator":         kBoolOp,
	"list":                     kList,
	"tuple":                    kTuple,
	"set":                      kSet,
	"expression_list":          kExprList,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kTuplePattern,
	"list_pattern":             kListPattern,
	"class_definition":         kClass,
	"function_definition":      kFunc,
	"block":                    kBlock,
	"expression_statement":     kExprStmt,
	"return_statement":         kReturn,
	"match_statement":          kMatch,
	"case_clause":              kCaseClause,
	"case_pattern":             kCasePattern,
	"union_pattern":            kUnionPattern,
	"as_pattern":               kAsPattern,
	"dict_pattern":             kDictPattern,
	"class_pattern":            kClassPattern,
	"keyword_pattern":          kKeywordPattern,
	"generic_type":             kGenericType,
	"type_parameter":           kTypeParam,
	"type":                     kType,
	"union_type":               kUnionType,
	"member_type":              kMemberType,
	"constrained_type":         kConstrainedType,
	"type_alias_statement":     kTypeAlias,
	"typed_parameter":          kTypedParam,
	"typed_default_parameter":  kTypedDefaultParam,
	"default_parameter":        kDefaultParam,
	"integer":                  kInteger,
	"float":                    kFloat,
	"true":                     kTrue,
	"false":                    kFalse,
	"none":                     kNone,
	"unary_operator":           kUnary,
	"binary_operator":          kBinaryOp,
	"named_expression":         kNamedExpr,
	"ERROR":                    kError,
	"comment":                  kComment,
	"list_splat":               kListSplat,
	"dictionary_splat":         kDictSplat,
	"if_statement":             kIf,
	"elif_clause":              kElif,
	"else_clause":              kElse,
	"for_statement":            kFor,
	"while_statement":          kWhile,
	"try_statement":            kTry,
	"except_clause":            kExcept,
	"except_group_clause":      kExceptGroup,
	"finally_clause":           kFinally,
	"with_statement":           kWith,
	"with_clause":              kWithClause,
	"with_item":                kWithItem,
	"raise_statement":          kRaise,
	"pass_statement":           kPass,
	"break_statement":          kBreak,
	"continue_statement":       kContinue,
	"assert_statement":         kAssert,
	"delete_statement":         kDelete,
	"import_statement":         kImport,
	"import_from_statement":    kImportFrom,
	"aliased_import":           kAliasedImport,
	"dotted_name":              kDottedName,
	"decorated_definition":     kDecorated,
	"lambda":                   kLambda,
	"lambda_parameters":        kLambdaParams,
	"not_operator":             kNot,
	"augmented_assignment":     kAugAssign,
	"list_comprehension":       kListComp,
	"set_comprehension":        kSetComp,
	"dictionary_comprehension": kDictComp,
	"generator_expression":     kGenExpr,
	"for_in_clause":            kForIn,
	"if_clause":                kIfClause,
	"await":                    kAwait,
	"yield":                    kYield,
	"slice":                    kSlice,
	"list_splat_pattern":       kListSplatPattern,
	"dictionary_splat_pattern": kDictSplatPattern,
	"print_statement":          kPrint,
	"exec_statement":           kExec,
	"as_pattern_target":        kAsPatternTarget,
	"parenthesized_list_splat": kParenListSplat,
	"complex_pattern":          kComplexPattern,
}

var anonKinds = map[string]kind{
	"==":     kOpEq,
	"!=":     kOpNe,
	"<>":     kOpNe,
	"in":     kOpIn,
	"not in": kOpNotIn,
	"is":     kOpIs,
	"is not": kOpIsNot,
	"-":      kOpMinus,
	"+":      kOpPlus,
	",":      kComma,
	"<":      kOpLt,
	"<=":     kOpLe,
	">":      kOpGt,
	">=":     kOpGe,
	"and":    kOpAnd,
	"or":     kOpOr,
}

// field ids of the grammar, 0 when the grammar lacks the field.
var (
	fLeft, fRight, fType, fValue, fKey, fName, fObject, fAttribute uint16
	fSubscript, fFunction, fArguments, fSubject, fBody             uint16
	fSuperclasses, fOperators, fOperator, fArgument, fReturnType   uint16
	fCondition, fConsequence, fAlternative, fParameters, fAlias    uint16
	fDefinition, fGuard, fModuleName                               uint16
)

var (
	language *sitter.Language
	kindOf   [1 << 16]kind
)

func init() {
	language = sitter.NewLanguage(tspython.Language())
	// Every symbol with a known name maps to our kind: a name can have
	// several symbols (aliases), and the tree reports any of them.
	count := language.NodeKindCount()
	for id := uint32(0); id < count && id < 1<<16; id++ {
		name := language.NodeKindForId(uint16(id))
		if language.NodeKindIsNamed(uint16(id)) {
			kindOf[id] = namedKinds[name]
		} else {
			kindOf[id] = anonKinds[name]
		}
	}
	kindOf[0xFFFF] = kError // ts_builtin_sym_error
	f := language.FieldIdForName
	fLeft, fRight, fType, fValue = f("left"), f("right"), f("type"), f("value")
	fKey, fName, fObject, fAttribute = f("key"), f("name"), f("object"), f("attribute")
	fSubscript, fFunction, fArguments = f("subscript"), f("function"), f("arguments")
	fSubject, fBody, fSuperclasses = f("subject"), f("body"), f("superclasses")
	fOperators, fOperator = f("operators"), f("operator")
	fArgument, fReturnType = f("argument"), f("return_type")
	fCondition, fConsequence, fAlternative = f("condition"), f("consequence"), f("alternative")
	fParameters, fAlias, fDefinition, fGuard = f("parameters"), f("alias"), f("definition"), f("guard")
	fModuleName = f("module_name")
}
