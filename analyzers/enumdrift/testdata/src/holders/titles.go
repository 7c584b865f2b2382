package holders

// The same words as job titles, in code that says nothing of DELEGATEs:
// silent.

type Title string

const (
	Engineer       Title = "Engineer"
	SeniorEngineer Title = "Senior Engineer"
	LeadEngineer   Title = "Lead Engineer"
)

type Person struct{ Title string }

var ladder = []string{"Engineer", "Senior Engineer", "Lead Engineer", "Principal Engineer"}

func next(p Person) string {
	for i, t := range ladder {
		if t == p.Title && i+1 < len(ladder) {
			return ladder[i+1]
		}
	}
	return p.Title
}

// a status parameter compared with one word, without a HANDBACK in sight
func notify(status string) bool {
	return status == "ESCALATE"
}

// display labels are the values of a table keyed by the canonical words
var labels = map[string]string{"success": "Success", "failure": "Failure", "partial": "Partial", "blocked": "Blocked", "escalate": "Escalate"}
