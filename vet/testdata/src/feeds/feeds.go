// Package feeds holds literals of generated feed types: mistakes, and the
// ways of building a feed that promptgen vet must accept.
package feeds

import (
	"encoding/json"

	"example.com/app/pg"
)

var subject = "s"

// complete sets every required field; zero numbers and bools are values.
func complete() {
	pg.Ticket.Render(pg.TicketFeed{
		Subject:  subject,
		Tags:     []string{},
		Count:    0,
		Urgent:   false,
		Labels:   map[string]string{},
		Customer: pg.TicketCustomer{Name: "Ada"},
		History:  []pg.TicketHistoryItem{{ID: "T-1"}},
	})
	pg.Ticket.Render(pg.TicketFeed{Subject: "s", Tags: []string{}, Labels: map[string]string{}, Customer: pg.TicketCustomer{Name: "n"}, History: []pg.TicketHistoryItem{}}) // Count and Urgent left out: always set
	pg.SignOffFragment(pg.SignOffFragmentParams{Agent: "Ada"})
}

func mistakes() {
	pg.Ticket.Render(pg.TicketFeed{Subject: "s"}) // want `pg.TicketFeed literal leaves required fields Tags, Labels, Customer, History unset`
	pg.Ticket.Render(pg.TicketFeed{})             // want `pg.TicketFeed literal leaves required fields Subject, Tags, Labels, Customer, History unset`
	pg.Ticket.Render(pg.TicketFeed{
		Subject:  "",  // want `required field Subject of pg.TicketFeed is set to "", which Render reports as missing`
		Tags:     nil, // want `required field Tags of pg.TicketFeed is set to nil, which Render reports as missing`
		Labels:   map[string]string{},
		Customer: pg.TicketCustomer{},                   // want `pg.TicketCustomer literal leaves required field Name unset`
		Account:  &pg.TicketAccount{},                   // want `pg.TicketAccount literal leaves required field Plan unset`
		History:  []pg.TicketHistoryItem{{ID: "1"}, {}}, // want `pg.TicketHistoryItem literal leaves required field ID unset`
	})
	const none = ""
	pg.SignOffFragment(pg.SignOffFragmentParams{Agent: none}) // want `required field Agent of pg.SignOffFragmentParams is set to "", which Render reports as missing`
	team := "ops"
	pg.SignOffFragment(pg.SignOffFragmentParams{Team: &team}) // want `pg.SignOffFragmentParams literal leaves required field Agent unset`
	use(pg.TicketCustomer{"", nil})                           // want `required field Name of pg.TicketCustomer is set to "", which Render reports as missing`

	// A local variable whose missing fields are never set.
	f := pg.TicketFeed{Subject: "s", Labels: map[string]string{}, History: []pg.TicketHistoryItem{}} // want `pg.TicketFeed literal leaves required field Customer unset`
	f.Tags = []string{"a"}
	pg.Ticket.Render(f)
	var g pg.TicketFeed
	g = pg.TicketFeed{} // want `pg.TicketFeed literal leaves required fields Subject, Tags, Labels, Customer, History unset`
	pg.Ticket.Render(g)
	p := &pg.TicketFeed{Subject: "s"} // want `pg.TicketFeed literal leaves required fields Tags, Labels, Customer, History unset`
	pg.Ticket.Render(*p)
}

// Feeds completed by other code are not reported.

func setLater() {
	f := pg.TicketFeed{Subject: "s"}
	f.Tags = []string{"a"}
	f.Labels = map[string]string{}
	f.Customer.Name = "Ada"
	f.History = append(f.History, pg.TicketHistoryItem{ID: "1"})
	pg.Ticket.Render(f)

	nested := pg.TicketFeed{Subject: "s", Tags: []string{}, Labels: map[string]string{}, Customer: pg.TicketCustomer{}, History: []pg.TicketHistoryItem{{}}}
	nested.Customer.Name = "Ada"
	for i := range nested.History {
		nested.History[i].ID = "x"
	}
	pg.Ticket.Render(nested)

	p := &pg.TicketFeed{}
	fill(p)
	pg.Ticket.Render(*p)
}

func fill(f *pg.TicketFeed) { f.Subject = "s" }

func use(any) {}

func decoded(data []byte) {
	f := pg.TicketFeed{Subject: "s"}
	if err := json.Unmarshal(data, &f); err != nil {
		return
	}
	pg.Ticket.Render(f)
	fill(&pg.TicketFeed{})
}

func closure() {
	f := pg.TicketFeed{Subject: "s", Tags: []string{}, Labels: map[string]string{}, History: []pg.TicketHistoryItem{}}
	set := func() { f.Customer = pg.TicketCustomer{Name: "Ada"} }
	set()
	pg.Ticket.Render(f)
}

// Feeds built by functions.
func build() pg.TicketFeed {
	return pg.TicketFeed{Subject: "s"}
}

func buildPartial() pg.TicketFeed {
	f := pg.TicketFeed{Subject: "s"}
	return f
}

func useBuilt() {
	f := build()
	f.Tags = []string{}
	pg.Ticket.Render(f)
	pg.Ticket.Render(buildPartial())
}

// Validate checks the feed at run time, on purpose.
func validated() error {
	f := pg.TicketFeed{Subject: "s"}
	if err := f.Validate(); err != nil {
		return err
	}
	return (&pg.TicketCustomer{}).Validate()
}

// An embedded feed, completed through promoted fields.
type request struct {
	pg.TicketFeed
	ID int
}

func embedded() {
	r := request{TicketFeed: pg.TicketFeed{Subject: "s"}, ID: 1}
	r.Tags = []string{}
	r.Labels = map[string]string{}
	r.Customer = pg.TicketCustomer{Name: "Ada"}
	r.History = []pg.TicketHistoryItem{}
	pg.Ticket.Render(r.TicketFeed)
	_ = request{ID: 2} // not a generated type
}

// Stored where other code may complete it.
var defaultFeed = pg.TicketFeed{Subject: "s"}

type holder struct{ feed pg.TicketFeed }

func stored(h *holder, ch chan pg.TicketFeed, m map[string]pg.TicketFeed) {
	h.feed = pg.TicketFeed{Subject: "s"}
	ch <- pg.TicketFeed{}
	m["a"] = pg.TicketFeed{}
	for _, f := range []pg.TicketFeed{{Subject: "s"}} {
		f.Tags = []string{}
		pg.Ticket.Render(f)
	}
	copied := pg.TicketFeed{Subject: "s"}
	other := copied
	other.Tags = []string{}
	pg.Ticket.Render(other)
}
