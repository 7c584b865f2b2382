package witness

import (
	"regexp"
	"testing"
)

func TestFromPython(t *testing.T) {
	for _, tc := range []struct {
		pattern, flags string
		want           string // "" when refused
		match, miss    []string
	}{
		{`^[a-z0-9-]+\Z`, "", `^[a-z0-9-]+\z`, []string{"ab-1"}, []string{"ab\n"}},
		{`^\d{4}-[a-z]{,3}$`, "", `^\p{Nd}{4}-[a-z]{0,3}$`, []string{"2026-", "٢٠٢٦-ab"}, []string{"2026-abcd"}},
		{`^\d+$`, "a", `^[0-9]+$`, []string{"12"}, []string{"٢"}},
		{`^[\w-]+$`, "", `^[\p{L}\p{N}_-]+$`, []string{"é-1_"}, []string{"a b"}},
		{`^[\w-]+$`, "a", `^[0-9A-Za-z_-]+$`, []string{"a-1_"}, []string{"é"}},
		{`(?i)^[a-z]+$`, "", `(?i)^[a-z]+$`, []string{"AbC"}, []string{"a1"}},
		{`^[a-z]+$`, "ims", `(?ims)^[a-z]+$`, []string{"AB"}, nil},
		{`(?a)^\w+$`, "", `^[0-9A-Za-z_]+$`, []string{"a_1"}, []string{"é"}},
		{`^[]a]+$`, "", `^[\]a]+$`, []string{"]a"}, []string{"b"}},
		{`^[[:alpha:]]$`, "", `^[\[:alpha:]]$`, []string{":]", "a]"}, []string{":"}},
		{`^\u00e9(?#comment)x$`, "", `^\x{00e9}x$`, []string{"éx"}, nil},
		{`^(?P<year>\d{4})-\S+$`, "a", `^(?P<year>[0-9]{4})-\S+$`, []string{"2026-x"}, []string{"2026- "}},
		{`a{,x}`, "", `a\{,x}`, []string{"a{,x}"}, nil},
		{`^a$`, "?", "", nil, nil},
		{`^a$`, "x", "", nil, nil},
		{`\bword\b`, "", "", nil, nil},
		{`(a)\1`, "", "", nil, nil},
		{`\0\012`, "", "", nil, nil},
		{`[\W]`, "", "", nil, nil},
		{`\N{DASH}`, "", "", nil, nil},
		{`ab\`, "", "", nil, nil},
	} {
		got, err := FromPython(tc.pattern, tc.flags)
		if tc.want == "" {
			if err == nil {
				t.Errorf("FromPython(%q, %q) = %q, want it refused", tc.pattern, tc.flags, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("FromPython(%q, %q) = %q, %v; want %q", tc.pattern, tc.flags, got, err, tc.want)
			continue
		}
		re := regexp.MustCompile(got)
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%q (from %q) does not match %q", got, tc.pattern, s)
			}
		}
		for _, s := range tc.miss {
			if re.MatchString(s) {
				t.Errorf("%q (from %q) matches %q", got, tc.pattern, s)
			}
		}
	}
}

func FuzzFromPython(f *testing.F) {
	f.Add(`^[a-z0-9-]+\Z`, "i")
	f.Add(`(?a)^[\w\d\s]{,3}\u00e9$`, "")
	f.Add(`[]a-]\b`, "a")
	f.Fuzz(func(t *testing.T, pattern, flags string) {
		got, err := FromPython(pattern, flags)
		if err != nil {
			return
		}
		// a translation compiles or is refused, never panics
		if prog, err := Compile(got, true, false); err == nil {
			Find(Side{prog, 0, -1}, Side{prog, 0, 10}, Options{Budget: 200})
		}
	})
}
