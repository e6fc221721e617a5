// Command example renders the prompts generated from prompts/ and prints them.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

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
	fmt.Fprintln(w)
	return runAgent(w)
}

// runAgent runs a small agent loop over the agent template set
// (prompts/agent): a scripted model chooses one action per step, and the
// key of each prompt is the type of the last anchor action
// (template-manager.md §3), so the prompt switches with the agent's state.
func runAgent(w io.Writer) error {
	agent := generated.NewAgent()
	anchors := []string{generated.AgentKeyBrowseLink, generated.AgentKeySearch}
	var state runtime.AnchorState
	feed := generated.AgentFeed{UserInput: "How much does ACME's Pro plan cost?"}
	steps := []struct {
		action string                     // what the scripted model chooses
		result func(*generated.AgentFeed) // what executing it adds to the feed
	}{
		{"Search", func(f *generated.AgentFeed) {
			f.ActionResult = "1. ACME pricing - acme.example/pricing\n2. ACME Pro review - news.example/acme-pro"
		}},
		{"BrowseLink", func(f *generated.AgentFeed) {
			f.Context = "ACME Pro: $49 per user per month, billed yearly. Free 14-day trial."
		}},
		{"Scroll", nil}, // not an anchor action: the prompt stays
		{"Answer", nil},
	}
	var visited []string
	last := ""
	for i, step := range steps {
		key := state.LastAnchorActionType()
		r := agent.Resolve(key)
		fmt.Fprintf(w, "--- step %d: last action %q, key %q: %s (tried %s)\n",
			i+1, state.LastActionType(), key, r.Path, strings.Join(r.Tried(), ", "))
		if r.Path == last {
			fmt.Fprintln(w, "(the same prompt as the step before)")
		} else {
			prompt, err := agent.Render(key, feed)
			if err != nil {
				return err
			}
			show(w, "agent/"+r.Path, modelName(agent.InferenceConfig(key).Model), prompt)
		}
		last = r.Path
		visited = append(visited, fmt.Sprintf("step %d: %s", i+1, step.action))
		fmt.Fprintf(w, "the model chooses %s\n\n", step.action)
		state.SetLastAction(step.action, anchors...)
		if step.result != nil {
			step.result(&feed)
		}
	}

	// The model's parameters follow the template (Stage 5 of the spec).
	c := agent.InferenceConfig(generated.AgentKeySearch)
	fmt.Fprintf(w, "InferenceConfig(Search): model %s, parameters %v\n\n", c.Model, c.Parameters)

	// Switch returns a changed copy: the agent itself still uses "main".
	feed.PreviousStates = visited
	reflection := agent.Switch(runtime.WithType("reflection"))
	r := reflection.Resolve(state.LastAnchorActionType())
	prompt, err := reflection.Render(state.LastAnchorActionType(), feed)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "--- reflection: %s (tried %s); the agent's type is still %q\n",
		r.Path, strings.Join(r.Tried(), ", "), agent.Settings().Type)
	show(w, "agent/"+r.Path, modelName(""), prompt)

	// A deployment version picks BrowseLink.enterprise and the enterprise
	// preamble component.
	enterprise := generated.NewAgent(runtime.WithVersion("enterprise"))
	r = enterprise.Resolve(generated.AgentKeyBrowseLink)
	if prompt, err = enterprise.Render(generated.AgentKeyBrowseLink, feed); err != nil {
		return err
	}
	fmt.Fprintf(w, "--- version enterprise: %s\n", r.Path)
	show(w, "agent/"+r.Path, modelName(""), prompt)

	// A root space comes first in the chain.
	r = agent.Resolve(generated.AgentKeyBrowseLink, runtime.WithRootSpace("action_agent"))
	if prompt, err = agent.Render(generated.AgentKeyBrowseLink, feed, runtime.WithRootSpace("action_agent")); err != nil {
		return err
	}
	fmt.Fprintf(w, "--- root space action_agent: %s (tried %s)\n", r.Path, strings.Join(r.Tried(), ", "))
	show(w, "agent/"+r.Path, modelName(""), prompt)

	// Knowledge merges into the feed (runtime.Merge joins strings).
	feed.Merge(generated.AgentFeed{Context: "Knowledge: ACME Pro includes single sign-on."}, runtime.Merge)
	if prompt, err = agent.Render(generated.AgentKeyBrowseLink, feed); err != nil {
		return err
	}
	fmt.Fprintln(w, "--- after merging knowledge into the feed")
	show(w, "agent/main/BrowseLink", modelName(""), prompt)

	// Versioned components: every combination of their versions.
	fmt.Fprintln(w, "--- variants of main/default:")
	for v, s := range agent.Variants("", feed) {
		if v.Err != nil {
			return v.Err
		}
		fmt.Fprintf(w, "%s: %d bytes\n", v, len(s))
	}

	// A key that resolves nowhere is an error naming every path tried.
	_, err = agent.Render("Refund", feed, runtime.WithType("billing"))
	fmt.Fprintln(w, "\nunknown type:", err)
	return nil
}

func modelName(m string) string {
	if m == "" {
		return "(package default)"
	}
	return m
}

func show(w io.Writer, key, model, text string) {
	fmt.Fprintf(w, "=== %s (model %s) ===\n%s\n\n", key, model, text)
}
