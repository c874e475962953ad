import type { OpenTask } from "./task";

/**
 * The built-in open tasks, written by us for this project: everyday writing
 * with no exact answer, each with a rubric of weighted criteria and a pass threshold. The bridge,
 * the lamp shop, the Notes app and the people are invented. The demo model's scripts for them
 * are in builtin-demo-scripts.ts.
 */
export const builtinOpenTasks: readonly OpenTask[] = [
  {
    id: "open-explain-photosynthesis",
    title: "Explain photosynthesis to a 12-year-old",
    prompt: "Explain photosynthesis to a 12-year-old in at most 100 words.",
    referenceNotes: "Plants use the energy of sunlight to turn water and carbon dioxide into sugar (their food) and give off oxygen. A 12-year-old knows words like sugar and air, not glucose or chlorophyll.",
    rubric: {
      criteria: [
        { id: "accuracy", description: "Says that plants use sunlight, water and carbon dioxide to make sugar (food) and give off oxygen.", weight: 3 },
        { id: "plain-words", description: "Uses words a 12-year-old knows; no unexplained jargon such as chlorophyll or glucose.", weight: 2 },
        { id: "analogy", description: "Uses an everyday comparison (a kitchen, a factory, a recipe) to make the idea concrete.", weight: 2 },
        { id: "length", description: "At most 100 words.", weight: 1 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-commit-message",
    title: "Write a commit message for a diff",
    prompt: [
      "Write a git commit message for this diff.",
      "",
      "--- a/src/dates.ts",
      "+++ b/src/dates.ts",
      "@@ export function parseDate(input: string): Date {",
      '+  if (input.trim() === "") {',
      '+    throw new RangeError("parseDate: empty input");',
      "+  }",
      '   const [y, m, d] = input.split("-").map(Number);',
      "   return new Date(y, m - 1, d);",
    ].join("\n"),
    referenceNotes: "Before the change an empty string became an Invalid Date with no error. A good message has a short imperative subject and a body that says why.",
    rubric: {
      criteria: [
        { id: "subject", description: "A subject line of at most 50 characters in the imperative mood ('Reject …', not 'Rejected …'), without a trailing period.", weight: 2 },
        { id: "why", description: "A body, after a blank line, that says why the change is needed (what went wrong before).", weight: 3 },
        { id: "specific", description: "Names parseDate and the empty-input case.", weight: 2 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-summary-bridge",
    title: "Summarise a paragraph in under 40 words, keeping 3 facts",
    prompt: [
      "Summarise the paragraph below in fewer than 40 words. Keep its three key facts: the year the bridge opened, its designer and its length.",
      "",
      "The Larkspur Bridge, which carries the coastal railway over the Venn estuary, opened to traffic in 1931 after six years of construction. Its designer, the engineer Mira Okafor, chose a steel arch because the estuary's soft mud could not hold the piers a suspension bridge would need. At 412 metres it was then the longest arch in the region, and it still carries forty trains a day, although the original timber deck was replaced with concrete in 1978.",
    ].join("\n"),
    referenceNotes: "The three facts: opened in 1931; designed by Mira Okafor; 412 metres long.",
    rubric: {
      criteria: [
        { id: "facts", description: "Keeps the three facts: opened in 1931, designed by Mira Okafor, 412 metres long.", weight: 3 },
        { id: "length", description: "Fewer than 40 words.", weight: 2 },
        { id: "faithful", description: "Adds nothing the paragraph does not say.", weight: 1 },
      ],
      passThreshold: 0.85,
    },
  },
  {
    id: "open-polite-refusal",
    title: "Decline a refund politely",
    prompt:
      "A customer writes: \"I bought the Arden desk lamp 90 days ago and it still works, but I don't like the colour. Please refund me.\" The shop's policy allows refunds within 30 days. Write a short, polite reply that declines the refund.",
    referenceNotes: "The shop can offer an exchange for another colour or store credit.",
    rubric: {
      criteria: [
        { id: "polite", description: "Polite and warm: thanks the customer or says sorry.", weight: 2 },
        { id: "clear-no", description: "Says clearly that the refund cannot be given.", weight: 2 },
        { id: "reason", description: "Gives the reason: the 30-day refund policy.", weight: 1 },
        { id: "alternative", description: "Offers something helpful instead (an exchange, store credit, a discount).", weight: 2 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-bug-report",
    title: "Write a bug report",
    prompt:
      "Write a short bug report for this problem: in the Notes app, pressing Ctrl+S while the search box has focus does not save the open note; nothing happens and no message appears. You noticed it in version 4.2.1 on Windows 11.",
    rubric: {
      criteria: [
        { id: "steps", description: "Gives steps to reproduce (open a note, put the cursor in the search box, press Ctrl+S).", weight: 2 },
        { id: "expected-actual", description: "Says what was expected and what happened instead.", weight: 2 },
        { id: "environment", description: "Names the version (4.2.1) and the operating system (Windows 11).", weight: 2 },
        { id: "concise", description: "At most 120 words.", weight: 1 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-scheduling-reply",
    title: "Propose two meeting slots across cities",
    prompt:
      "Reply to this email from Sam, a colleague in another city: \"Could we find 30 minutes next week to go over the budget?\" Propose two time slots in under 80 words. You are Alex.",
    referenceNotes: "Sam is in another time zone, so the reply should say which time zone the slots are in.",
    rubric: {
      criteria: [
        { id: "slots", description: "Proposes two concrete time slots (day and time).", weight: 2 },
        { id: "time-zone", description: "States the time zone of the proposed times.", weight: 2 },
        { id: "tone", description: "Friendly, professional tone.", weight: 1 },
        { id: "length", description: "Under 80 words.", weight: 1 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-alt-text",
    title: "Write alt text for a photo",
    prompt:
      "Write alt text for this image on a bakery's website: a photo of a smiling baker in a flour-dusted apron holding a tray of croissants in front of a chalkboard sign that reads 'Fresh at 7am'.",
    rubric: {
      criteria: [
        { id: "subject", description: "Describes the main subject: the baker holding a tray of croissants.", weight: 2 },
        { id: "sign", description: "Includes the sign's text 'Fresh at 7am'.", weight: 1 },
        { id: "no-preamble", description: "Does not start with 'Image of', 'Picture of' or 'Photo of' (screen readers already announce an image).", weight: 2 },
        { id: "length", description: "At most 125 characters.", weight: 1 },
      ],
      passThreshold: 0.8,
    },
  },
  {
    id: "open-grease-fire",
    title: "Safety steps for a pan fire",
    prompt: "Give short safety instructions, as a numbered list, for what to do if the oil in a frying pan catches fire at home.",
    referenceNotes: "Turn off the heat; cover the pan with a lid or a fire blanket; never use water; leave and call the emergency number if it spreads.",
    rubric: {
      criteria: [
        { id: "no-water", description: "Warns never to put water on burning oil.", weight: 3 },
        { id: "smother", description: "Says to cover the pan with a lid or a fire blanket.", weight: 2 },
        { id: "heat-off", description: "Says to turn off the heat.", weight: 2 },
        { id: "escalate", description: "Says to get out and call the emergency number if the fire spreads.", weight: 1 },
      ],
      passThreshold: 0.8,
    },
  },
];
