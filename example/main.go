// Command example renders the prompts generated from prompts/ and prints them.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
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
	return nil
}

func show(w io.Writer, key, model, text string) {
	fmt.Fprintf(w, "=== %s (model %s) ===\n%s\n\n", key, model, text)
}
