//go:build tools

package golangci

// golangci-lint's own dependencies (viper 1.12) select a
// google.golang.org/genproto from before googleapis/api was split out of
// it, so cel-go's import of googleapis/api/expr/v1alpha1 is ambiguous in a
// `golangci-lint custom` build. This import, never compiled, keeps a split
// genproto in go.mod, which that build then selects.
import _ "google.golang.org/genproto/protobuf/field_mask"
