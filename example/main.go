// Command example renders the prompts generated from prompts/ and prints them.
package main

import (
	"errors"
	"fmt"
	"log"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
)

func main() {
	log.SetFlags(0)
	loyalty, issues := "gold", 2
	summary, err := generated.SummarizeCustomerInteraction.Render(generated.SummarizeCustomerInteractionFeed{
		InteractionTranscript: "Customer: My invoice shows a double charge for March.\nAgent: I see it, I'll refund the duplicate today.",
		CustomerHistory: &generated.SummarizeCustomerInteractionCustomerHistory{
			LoyaltyStatus:     &loyalty,
			RecentIssuesCount: &issues,
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	show("support/summarize_customer_interaction", generated.SummarizeCustomerInteraction.Model(), summary)

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
		log.Fatal(err)
	}
	show("support/draft_reply", generated.DraftReply.Model(), reply)

	plan, err := generated.PlanSteps.Render(generated.PlanStepsFeed{
		MaxSteps:    "5",
		Goal:        "Migrate the billing service to the new payments API",
		Constraints: []string{"no downtime", "keep the old API for 30 days"},
	})
	if err != nil {
		log.Fatal(err)
	}
	show("agents/plan_steps", "(package default)", plan)

	// A required variable left unset is an error naming it and its
	// position in the template, never a silently empty prompt.
	_, err = generated.PlanSteps.Render(generated.PlanStepsFeed{MaxSteps: "3"})
	fmt.Println("unset goal:", err)
	fmt.Println("errors.Is(err, runtime.ErrMissing):", errors.Is(err, runtime.ErrMissing))
}

func show(key, model, text string) {
	fmt.Printf("=== %s (model %s) ===\n%s\n\n", key, model, text)
}
