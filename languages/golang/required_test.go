package golang

import (
	"fmt"
	"strings"
	"testing"
)

// requiredOf renders the required fields of every function of src:
// "name: field@line/how/receiver ...", one line per function that has any.
func requiredOf(t *testing.T, src string) string {
	t.Helper()
	f, err := Extract("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, fn := range f.Functions {
		if len(fn.Required) == 0 {
			continue
		}
		var parts []string
		for _, r := range fn.Required {
			parts = append(parts, fmt.Sprintf("%s@%d/%s/%s", r.Field, r.Pos.Line, r.How, r.Receiver))
		}
		lines = append(lines, fn.Name+": "+strings.Join(parts, " "))
	}
	return strings.Join(lines, "\n")
}

// TestRequired: the ways a Go validation says a field is required, and
// the look-alikes that say nothing of it.
func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"struct fields by json name", `package p

import "errors"

type Handback struct {
	TaskID  string ` + "`json:\"task_id\"`" + `
	Output  map[string]any
	Plan    []string
}

func ValidateHandback(h *Handback) error {
	if h.TaskID == "" || h.Output == nil {
		return errors.New("incomplete")
	}
	if len(h.Plan) == 0 {
		return fmt.Errorf("plan")
	}
	return nil
}
`, `ValidateHandback: task_id@12/test/h Output@12/test/h Plan@15/test/h`},
		{"map keys and a loop", `package p

import "errors"

var required = []string{"task_id", "status", "deliverables"}

func checkHandback(m map[string]any) error {
	if _, ok := m["output"]; !ok {
		return errors.New("output")
	}
	if m["metrics"] == nil {
		return errors.New("metrics")
	}
	for _, f := range required {
		if _, ok := m[f]; !ok {
			return fmt.Errorf("missing %s", f)
		}
	}
	return nil
}
`, `checkHandback: output@8/test/m metrics@11/test/m task_id@5/list/m status@5/list/m deliverables@5/list/m`},
		{"a local list, missing collected", `package p

import "errors"

func validateDelegate(raw []byte) []string {
	var d map[string]any
	json.Unmarshal(raw, &d)
	req := []string{"task_id", "role"}
	var missing []string
	for _, f := range req {
		if d[f] == nil {
			missing = append(missing, f)
		}
	}
	return missing
}
`, `validateDelegate: task_id@8/list/d role@8/list/d`},
		{"struct tags a validator checks", `package p

import "errors"

type Delegate struct {
	TaskID string ` + "`json:\"task_id\" validate:\"required\"`" + `
	Scope  string ` + "`json:\"scope\" validate:\"required,min=3\"`" + `
	Effort string ` + "`json:\"effort,omitempty\"`" + `
}

func (v *V) ValidateDelegate(d Delegate) error {
	return v.validate.Struct(d)
}
`, `V.ValidateDelegate: task_id@6/tag/d scope@7/tag/d`},

		// negatives
		{"optional fields checked only when present", `package p

import "errors"

func ValidateHandback(m map[string]any) error {
	if v, ok := m["retry_count"]; ok && v == nil {
		return errors.New("retry_count")
	}
	if h.Quality == 0 {
		return errors.New("quality")
	}
	return nil
}
`, ``},
		{"missing fields only logged", `package p

import "errors"

func validateDelegate(d map[string]any) error {
	var missing []string
	for _, f := range []string{"task_id", "scope"} {
		if d[f] == nil {
			missing = append(missing, f)
		}
	}
	log.Printf("missing %v", missing)
	return nil
}
`, ``},
		{"a test whose branch does not reject", `package p

import "errors"

func ValidateHandback(m map[string]any) error {
	if m["notes"] == nil {
		m["notes"] = ""
	}
	return nil
}
`, ``},
		{"a function not named for validation", `package p

import "errors"

func route(m map[string]any) error {
	if m["task_id"] == nil {
		return errors.New("task_id")
	}
	return nil
}
`, ``},
		{"a sub-record and an unknown name", `package p

import "errors"

func ValidateHandback(h *Handback) error {
	out := h.Output
	if out["tests"] == nil {
		return errors.New("tests")
	}
	if cfg.Name == "" {
		return errors.New("name")
	}
	return nil
}
`, ``},
		{"a struct of another file: its JSON names are not known", `package p

import "errors"

func ValidateHandback(h *Handback) error {
	if h.ID == "" {
		return errors.New("id")
	}
	return nil
}
`, ``},
		{"untagged fields, no validator", `package p

import "errors"

type Delegate struct {
	TaskID string ` + "`json:\"task_id\"`" + `
}

func ValidateDelegate(d Delegate) error {
	return check(d)
}
`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := requiredOf(t, tc.src); got != strings.TrimSpace(tc.want) {
				t.Errorf("required:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestRequiredBudget: nested loops are read within a budget, and a
// reading cut short reports nothing (a field it missed would be judged
// missing).
func TestRequiredBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"errors\"\n\nfunc ValidateHandback(m map[string]any) error {\n\tfor _, f := range []string{\"task_id\", \"status\"} {\n\t\tif _, ok := m[f]; !ok {\n\t\t\treturn errors.New(f)\n\t\t}\n\t}\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "for _, v%d := range m {\n_ = v%d\n", i, i)
	}
	b.WriteString("_ = []int{" + strings.Repeat("1, ", 2000) + "}\n")
	b.WriteString(strings.Repeat("}\n", 40) + "\treturn nil\n}\n")
	if got := requiredOf(t, b.String()); got != "" {
		t.Errorf("required %q, want nothing from a reading cut short", got)
	}
}
