// Command example renders the prompts generated from prompts/ and prints
// them, then parses canned completions into the generated output types.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/output"
)

func main() {
	log.SetFlags(0)
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run renders a few prompts and writes them to w. Each feed is also a
// fixture in generated/testdata, so main_test.go can check every prompt
// printed here against what Jinja2 renders.
func run(w io.Writer) error {
	loyalty, issues := "gold", 2
	summary, err := generated.SummarizeCustomerInteraction.Render(generated.SummarizeCustomerInteractionFeed{
		InteractionTranscript: "Customer: My invoice shows a double charge for March.\nAgent: I see it, I'll refund the duplicate today.",
		CustomerHistory: &generated.SummarizeCustomerInteractionCustomerHistory{
			LoyaltyStatus:     &loyalty,
			RecentIssuesCount: &issues,
		},
	})
	if err != nil {
		return err
	}
	show(w, "support/summarize_customer_interaction", generated.SummarizeCustomerInteraction.Model(), summary)

	excerpt := "Refunds for duplicate charges are issued to the original payment method within 5 business days of the request."
	reply, err := generated.DraftReply.Render(generated.DraftReplyFeed{
		CustomerName: "ada lovelace",
		Message:      "  I was charged twice in March. Can you fix it?  ",
		Articles: []generated.DraftReplyArticlesItem{
			{Title: "Duplicate charges", URL: "https://help.example.com/duplicates", Excerpt: &excerpt},
			{Title: "Refund timelines", URL: "https://help.example.com/refunds"},
			{Title: "Updating billing details", URL: "https://help.example.com/billing"},
			{Title: "Invoices explained", URL: "https://help.example.com/invoices"},
		},
	})
	if err != nil {
		return err
	}
	show(w, "support/draft_reply", generated.DraftReply.Model(), reply)

	plan, err := generated.PlanSteps.Render(generated.PlanStepsFeed{
		MaxSteps:    "5",
		Goal:        "Migrate the billing service to the new payments API",
		Constraints: []string{"no downtime", "keep the old API for 30 days"},
	})
	if err != nil {
		return err
	}
	show(w, "agents/plan_steps", "(package default)", plan)

	// A required variable left unset is an error naming it and its
	// position in the template, never a silently empty prompt.
	_, err = generated.PlanSteps.Render(generated.PlanStepsFeed{MaxSteps: "3"})
	fmt.Fprintln(w, "unset goal:", err)
	fmt.Fprintln(w, "errors.Is(err, runtime.ErrMissing):", errors.Is(err, runtime.ErrMissing))
	fmt.Fprintln(w)
	return parseOutputs(w)
}

// Canned completions, as models write them: prose around a fenced block.
const (
	triageCompletion = "Here is the triage record:\n\n```json\n" + `{
  "category": "billing",
  "priority": "high",
  "summary": "The customer was charged twice for the March invoice and wants one charge refunded.",
  "customer": {"sentiment": "negative", "churn_risk": 0.3},
  "actions": [
    {"owner": "billing", "task": "Refund the duplicate March charge", "due_in_hours": 24},
    {"owner": "support", "task": "Confirm the refund to the customer"}
  ],
  "tags": ["double-charge", "refund"]
}` + "\n```\nLet me know if you need anything else."

	nextActionCompletion = `{"thought": "The Go blog announces each release.",
 "action": {"type": "browse", "url": "https://go.dev/blog/go1.22"},
 "plan": [{"title": "Read the announcement", "done": false,
           "substeps": [{"title": "Find the date in the first paragraph", "done": false}]},
          {"title": "Answer with the date", "done": false}]}`

	entitiesCompletion = "```yaml\n" + `entities:
  - name: Ada Lovelace
    kind: person
    mentions: 2
    attributes: {role: mathematician}
    first_seen: {start: 0, end: 12}
  - name: Analytical Engine
    kind: product
    mentions: 1
language: en
confidence: 0.92
` + "```\n"

	// A reply that breaks the schema: an unknown category, a priority
	// missing, and a tag with spaces.
	rejectedCompletion = `{"category": "refunds", "summary": "Charged twice in March, wants a refund.",
 "customer": {"sentiment": "negative"}, "actions": [], "tags": ["double charge"]}`
)

// parseOutputs parses a canned completion of each prompt with structured
// output into its generated type, and shows how a bad one is rejected.
func parseOutputs(w io.Writer) error {
	fmt.Fprintln(w, "=== ParseOutput ===")
	triage, err := generated.TriageTicket.ParseOutput(triageCompletion)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "triage: %s/%s, %d actions, first for %s within %dh\n", triage.Category, triage.Priority,
		len(triage.Actions), triage.Actions[0].Owner, *triage.Actions[0].DueInHours)
	if triage.Category == generated.TriageTicketOutputCategoryBilling {
		fmt.Fprintln(w, "  routed to the billing queue")
	}

	next, err := generated.NextAction.ParseOutput(nextActionCompletion)
	if err != nil {
		return err
	}
	switch a := next.Action; {
	case a.Search != nil:
		fmt.Fprintf(w, "next action: search %q\n", a.Search.Query)
	case a.Browse != nil:
		fmt.Fprintf(w, "next action: browse %s\n", a.Browse.URL)
	case a.Answer != nil:
		fmt.Fprintf(w, "next action: answer %q\n", a.Answer.Text)
	}
	fmt.Fprintf(w, "  plan: %d steps, the first with %d substeps\n", len(next.Plan), len(next.Plan[0].Substeps))

	entities, err := generated.ExtractEntities.ParseOutput(entitiesCompletion)
	if err != nil {
		return err
	}
	for _, e := range entities.Entities {
		fmt.Fprintf(w, "entity: %s (%s, %d mentions)\n", e.Name, e.Kind, e.Mentions)
	}

	_, err = generated.TriageTicket.ParseOutput(rejectedCompletion)
	var violations output.Errors
	if !errors.As(err, &violations) {
		return fmt.Errorf("the bad completion was not rejected by the schema: %v", err)
	}
	fmt.Fprintln(w, "rejected: each violation has a JSON pointer, to quote back to the model:")
	for _, v := range violations {
		fmt.Fprintf(w, "  %q (%s): %s\n", v.Pointer, v.Keyword, v.Message)
	}
	return nil
}

func show(w io.Writer, key, model, text string) {
	fmt.Fprintf(w, "=== %s (model %s) ===\n%s\n\n", key, model, text)
}
