package golang

import "testing"

// TestHolders: the holders of a field's values that are not literals at
// the place of use: a collection read at a constant index, a slice set
// on a field of a struct, where it is built or by a method.
func TestHolders(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"item at an index compared and assigned", `package p

func route(d *Delegate) {
	if d.Agent == agents[1] || agents[0] != d.Agent {
		d.Agent = agents[0]
	}
}
`, []string{
			"t0 4:5 agents key=Agent recv=d scope=route",
			"t1 4:42 agents key=Agent recv=d scope=route",
			"t2 5:3 agents key=Agent recv=d scope=route",
		}},
		{"item at a computed index, or compared with a plain variable, is no holder", `package p

func route(d *Delegate, i int, c string) {
	if d.Agent == agents[i] || c == agents[0] {
		d.Agent = agents[i+1]
	}
}
`, []string{
			"t0 4:16 agents key=i scope=route", // agents[i] looks i up, as any index by a name does
		}},
		{"slice on a field of a struct literal", `package p

func New() *Router {
	return &Router{allowed: []string{"a", "b"}, byName: map[string][]string{"x": {"c"}}}
}

var h = Header{"Accept": []string{"d"}}
`, []string{
			`s0 4:35 member "a" key=allowed scope=New m0 g0`,
			`s1 4:40 member "b" key=allowed scope=New m0 g0`,
			`s2 4:74 key "x" scope=New m1`,
			`s3 4:80 value "c" key=x scope=New m1`,
			`s4 7:16 key "Accept" m2`,
			`s5 7:35 value "d" key=Accept m2`,
			`g0 set "allowed" scope=Router 4:26 [0 1]`,
			`m0 "Router" 4:10 {allowed@4:17=["a" "b"] byName@4:46={x:["c"]}}`,
			`m1 "" 4:54 {x@4:74=["c"]}`,
			`m2 "Header" name=h 7:9 {Accept@7:16=["d"]}`,
		}},
		{"slice set on a field of the receiver", `package p

func (r *Router) init(o *Other) {
	r.allowed = []string{"a"}
	local.items = []string{"b"}
}

func setup(r *Router) {
	r.allowed = []string{"c"}
}
`, []string{
			`s0 4:23 member "a" scope=Router.init g0`,
			`s1 5:25 member "b" scope=Router.init g1`,
			`s2 9:23 member "c" scope=setup g2`,
			`g0 set "allowed" scope=Router 4:14 [0]`,
			`g1 set "local.items" scope=Router.init 5:16 [1]`,
			`g2 set "r.allowed" scope=setup 9:14 [2]`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := Extract("x.go", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, []byte(tt.src), ff)
			if d := diffLines(tt.want, dump(ff)); d != "" {
				t.Errorf("facts differ (-want +got):\n%s", d)
			}
		})
	}
}
