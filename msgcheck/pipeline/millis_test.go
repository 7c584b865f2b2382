package pipeline

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendMillis must write what strconv.AppendFloat(float64(ns)/1e6, 'f',
// -1, 64) writes, which the event log has always held.
func TestAppendMillis(t *testing.T) {
	cases := []int64{0, 1, 9, 10, 999, 1000, 1001, 123456, 999999, 1e6, 1e6 + 1, 1500000, 12345678901,
		1e15 - 1, 1e15, 1e15 + 7, 1 << 53, 1<<63 - 1, -1, -1500000}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		cases = append(cases, r.Int64N(1<<uint(r.IntN(62)+1)))
	}
	for _, ns := range cases {
		want := strconv.AppendFloat(nil, float64(ns)/1e6, 'f', -1, 64)
		if got := appendMillis(nil, ns); string(got) != string(want) {
			t.Fatalf("appendMillis(%d) = %s, want %s", ns, got, want)
		}
	}
}
